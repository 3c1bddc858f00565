// Tests of the verify and format stages (generator/tooling).
#include "tooling/Formatter.h"
#include "tooling/Verifier.h"

#include <gtest/gtest.h>

using namespace risec::tooling;

TEST(Verifier, AcceptsCleanC11) {
  VerifyResult r = verifySource("#include <stdint.h>\n"
                                "int f(int32_t* restrict out, int n) {\n"
                                "  for (int i = 0; i < n; i += 1) {\n"
                                "    out[i] = i;\n"
                                "  }\n"
                                "  return 0;\n"
                                "}\n",
                                SourceLanguage::C11, "f.c");
  EXPECT_TRUE(r.ok) << r.diagnostics;
  EXPECT_EQ(r.diagnostics, "");
}

TEST(Verifier, WarningsAreErrors) {
  VerifyResult r =
      verifySource("int f(int n) {\n  int unused;\n  return n;\n}\n", SourceLanguage::C11, "w.c");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.diagnostics.find("w.c:2:7: error: unused variable 'unused'"), std::string::npos)
      << r.diagnostics;
}

TEST(Verifier, SyntaxErrorsAreReportedWithTheirPlace) {
  VerifyResult r = verifySource("int f(void) { return 0 }\n", SourceLanguage::C11, "s.c");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.diagnostics.find("s.c:1:23: error:"), std::string::npos) << r.diagnostics;
}

TEST(Verifier, C11ModeRejectsCxx) {
  VerifyResult r =
      verifySource("int f(void) { auto x = 1; return x; }\n", SourceLanguage::C11, "cxx.c");
  EXPECT_FALSE(r.ok) << "`auto x = 1` is not C11 without an implicit int";
}

TEST(Verifier, OpenMPPragmasParse) {
  const char* code = "void f(float* restrict x, int n) {\n"
                     "#pragma omp parallel for\n"
                     "  for (int i = 0; i < n; i += 1) {\n"
                     "    x[i] = 2.0f * x[i];\n"
                     "  }\n"
                     "}\n";
  EXPECT_TRUE(verifySource(code, SourceLanguage::C11OpenMP, "omp.c").ok);
}

TEST(Verifier, OpenCLWithTheDefaultHeader) {
  const char* good = "__kernel void k(global float* restrict out, const global float* restrict in,"
                     " int n) {\n"
                     "  for (int i = get_global_id(0); i < n; i += get_global_size(0)) {\n"
                     "    out[i] = sqrt(in[i]);\n"
                     "  }\n"
                     "}\n";
  VerifyResult r = verifySource(good, SourceLanguage::OpenCL12, "k.cl");
  EXPECT_TRUE(r.ok) << r.diagnostics;
  VerifyResult bad = verifySource("__kernel void k(global double* x) { x[0] = undefined_fn(); }\n",
                                  SourceLanguage::OpenCL12, "bad.cl");
  EXPECT_FALSE(bad.ok);
}

TEST(Verifier, OpenCLHostCodeCompilesAgainstTheOpenCLHeaders) {
  const char* host = "#include <CL/cl.h>\n"
                     "cl_int release(cl_mem m) { return clReleaseMemObject(m); }\n";
  VerifyResult r = verifySource(host, SourceLanguage::C11OpenCLHost, "h_host.c");
  EXPECT_TRUE(r.ok) << r.diagnostics;
  VerifyResult bad =
      verifySource("#include <CL/cl.h>\ncl_int f(cl_mem m) { cl_float4 v; return 0; }\n",
                   SourceLanguage::C11OpenCLHost, "bad_host.c");
  EXPECT_FALSE(bad.ok);
  EXPECT_NE(bad.diagnostics.find("bad_host.c:2:17: error: unused parameter 'm'"), std::string::npos)
      << bad.diagnostics;
}

// risec_cl.h is precompiled for the files that include it first; that must
// change nothing but the time.
const char* kRuntime = "#ifndef RISEC_CL_H\n#define RISEC_CL_H\n#include <CL/cl.h>\n"
                       "typedef struct { cl_mem mem; } risec_buffer;\n#endif\n";

TEST(Verifier, HostCodeAgainstThePrecompiledRuntimeHeader) {
  std::map<std::string, std::string> runtime = {{"risec_cl.h", kRuntime}};
  const char* header = "/* k */\n#ifndef K_H\n#define K_H\n#include \"risec_cl.h\"\n"
                       "int k(risec_buffer* b);\n#endif\n";
  EXPECT_TRUE(verifySource(header, SourceLanguage::C11OpenCLHost, "k.h", {}, runtime).ok);
  runtime["k.h"] = header;
  VerifyResult host = verifySource("#include \"k.h\"\nint k(risec_buffer* b) { int unused; "
                                   "return b->mem == 0; }\n",
                                   SourceLanguage::C11OpenCLHost, "k_host.c", {}, runtime);
  EXPECT_FALSE(host.ok);
  EXPECT_NE(host.diagnostics.find("k_host.c:2:30: error: unused variable 'unused'"),
            std::string::npos)
      << host.diagnostics;
  // a warning in the runtime header itself, inside its guard or after it
  std::string guarded = kRuntime;
  guarded.insert(guarded.find("#endif"), "static int unusedInRuntime(void) { return 0; }\n");
  for (const std::string& text :
       {guarded, std::string(kRuntime) + "static int unusedInRuntime(void) { return 0; }\n"}) {
    VerifyResult warning = verifySource("#include \"risec_cl.h\"\n", SourceLanguage::C11OpenCLHost,
                                        "w.h", {}, {{"risec_cl.h", text}});
    EXPECT_FALSE(warning.ok);
    EXPECT_NE(warning.diagnostics.find("error: unused function 'unusedInRuntime'"),
              std::string::npos)
        << warning.diagnostics;
    EXPECT_EQ(warning.diagnostics.find("redefinition"), std::string::npos) << warning.diagnostics;
  }
}

TEST(Verifier, AHeaderThatDoesNotIncludeTheRuntimeDoesNotSeeIt) {
  std::map<std::string, std::string> runtime = {{"risec_cl.h", kRuntime}};
  VerifyResult missing = verifySource("#ifndef K_H\n#define K_H\nint k(risec_buffer* b);\n#endif\n",
                                      SourceLanguage::C11OpenCLHost, "k.h", {}, runtime);
  EXPECT_FALSE(missing.ok);
  VerifyResult late = verifySource("#include <stddef.h>\n#include \"risec_cl.h\"\n"
                                   "int k(risec_buffer* b);\n",
                                   SourceLanguage::C11OpenCLHost, "late.h", {}, runtime);
  EXPECT_TRUE(late.ok) << late.diagnostics;
}

TEST(Verifier, SiblingFilesAreVisibleToIncludes) {
  VerifyResult r =
      verifySource("#include \"k.h\"\nint k(int n) { return n + K; }\n", SourceLanguage::C11, "k.c",
                   {}, {{"k.h", "#define K 1\nint k(int n);\n"}});
  EXPECT_TRUE(r.ok) << r.diagnostics;
  VerifyResult bad = verifySource("#include \"k.h\"\n", SourceLanguage::C11, "k.c", {},
                                  {{"k.h", "int k(int n) { int unused; return n; }\n"}});
  EXPECT_FALSE(bad.ok);
  EXPECT_NE(bad.diagnostics.find("k.h:1:20: error: unused variable"), std::string::npos)
      << bad.diagnostics;
}

TEST(Verifier, IncludesResolveAgainstIncludeDirectories) {
  VerifyResult missing = verifySource("#include \"nowhere.h\"\n", SourceLanguage::C11, "i.c");
  EXPECT_FALSE(missing.ok);
  EXPECT_NE(missing.diagnostics.find("nowhere.h"), std::string::npos);
}

TEST(Formatter, FormatsWithTheRepositoryStyle) {
  std::string ugly = "int f(int n){int s=0;for(int i=0;i<n;i+=1){s+=i;}return s;}\n";
  EXPECT_EQ(formatSource(ugly, SourceLanguage::C11, "f.c"), "int f(int n) {\n"
                                                            "  int s = 0;\n"
                                                            "  for (int i = 0; i < n; i += 1) {\n"
                                                            "    s += i;\n"
                                                            "  }\n"
                                                            "  return s;\n"
                                                            "}\n");
}

TEST(Formatter, IsIdempotentAndKeepsPragmas) {
  std::string code =
      "void f(float *x, int n) {\n#pragma omp parallel for\n  for (int i = 0; i < n; "
      "i += 1) {\n    x[i] = 0.0f;\n  }\n}\n";
  std::string once = formatSource(code, SourceLanguage::C11OpenMP, "p.c");
  EXPECT_EQ(formatSource(once, SourceLanguage::C11OpenMP, "p.c"), once);
  EXPECT_NE(once.find("#pragma omp parallel for"), std::string::npos);
  EXPECT_NE(once.find("float* x"), std::string::npos) << "PointerAlignment: Left\n" << once;
}

TEST(Formatter, EmbedsTheRepositoryStyle) {
  EXPECT_NE(std::string(embeddedStyle()).find("ColumnLimit: 100"), std::string::npos);
}
