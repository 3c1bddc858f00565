// Tests of `risec generate` (driver/GenerateCommand.h): the files and the
// manifest, determinism across spec order and --jobs, nothing partial on
// failure, the E082x diagnostics, the --targets filter, and headers that
// compile with gcc -std=c11 -Wall -Wextra -Werror.
#include "../support/Process.h"
#include "../support/TestFiles.h"

#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <unistd.h>
#include <vector>

using risec::test::ProcessResult;
using risec::test::readFile;
using risec::test::runProcess;

namespace {

namespace fs = std::filesystem;

const char* kMvSpec = R"(kernel: mv
source: mv.rise
doc: y = M x
variants:
  - target: c
  - target: openmp
  - target: opencl
    strategy: mv.ocl.elevate
    launch: {global: [n], local: [32]}
check:
  - {n: 64, m: 48}
  - {n: 96, m: 5}
)";

const char* kMmSpec = R"(kernel: mm
source: mm.rise
variants:
  - target: c
    strategy: mm.blocking.elevate
  - target: openmp
    strategy: mm.parallel.elevate
)";

class Generate : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("risec-generate-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "specs");
    for (const char* f :
         {"mv.rise", "mv.ocl.elevate", "mm.rise", "mm.blocking.elevate", "mm.parallel.elevate"})
      fs::copy_file(fs::path(RISEC_SOURCE_DIR) / "specs" / f, dir_ / "specs" / f);
    mv_ = write("specs/mv.yaml", kMvSpec);
    mm_ = write("specs/mm.yaml", kMmSpec);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& text) {
    fs::path p = dir_ / name;
    std::ofstream(p) << text;
    return p.string();
  }
  ProcessResult risec(std::vector<std::string> args) {
    args.insert(args.begin(), RISEC_BINARY);
    return runProcess(args);
  }
  /// Every file of `d`, by name.
  std::map<std::string, std::string> contents(const fs::path& d) {
    std::map<std::string, std::string> m;
    for (const auto& e : fs::directory_iterator(d))
      m[e.path().filename().string()] = readFile(e.path());
    return m;
  }
  /// The first line of stderr with the temporary folder removed.
  std::string firstError(const ProcessResult& r) {
    std::string line = r.err.substr(0, r.err.find('\n'));
    std::string prefix = (dir_ / "specs").string() + "/";
    for (std::size_t at; (at = line.find(prefix)) != std::string::npos;)
      line.erase(at, prefix.size());
    return line;
  }

  fs::path dir_;
  std::string mv_, mm_;
};

TEST_F(Generate, WritesVariantsKernelHeadersUmbrellaAndManifest) {
  ProcessResult r = risec({"generate", mv_, mm_, "-o", (dir_ / "out").string()});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto files = contents(dir_ / "out");
  for (const char* f : {"kernels.h", "kernels.json", "mv.h", "mm.h", "mv_c.c", "mv_c.h",
                        "mv_openmp.c", "mv_opencl.cl", "mv_opencl.h", "mm_c.c", "mm_openmp.c"})
    EXPECT_TRUE(files.count(f)) << f;
  // The umbrella header includes the kernel headers in sorted order, each
  // kernel header its variants' headers.
  const std::string& umbrella = files["kernels.h"];
  ASSERT_NE(umbrella.find("#include \"mm.h\""), std::string::npos);
  EXPECT_LT(umbrella.find("#include \"mm.h\""), umbrella.find("#include \"mv.h\""));
  for (const char* h : {"mv_c.h", "mv_opencl.h", "mv_openmp.h"})
    EXPECT_NE(files["mv.h"].find(std::string("#include \"") + h + "\""), std::string::npos);
  // The manifest names no absolute path.
  const std::string& manifest = files["kernels.json"];
  EXPECT_EQ(manifest.find(dir_.string()), std::string::npos);
  EXPECT_NE(manifest.find("\"symbol\": \"mv_opencl\""), std::string::npos);
  EXPECT_NE(manifest.find("\"strategy\": \"mm.blocking.elevate\""), std::string::npos);
}

TEST_F(Generate, ManifestParametersFollowTheCPrototype) {
  ProcessResult r = risec({"generate", mv_, "-o", (dir_ / "out").string()});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  std::string manifest = readFile(dir_ / "out" / "kernels.json");
  std::string header = readFile(dir_ / "out" / "mv_c.h");
  std::string proto = header.substr(header.find("int mv_c("));
  proto = proto.substr(0, proto.find(')'));
  // The parameters of mv_c in the manifest, in order, are the prototype's.
  std::size_t at = manifest.find("\"mv_c\": {");
  std::size_t end = manifest.find("\"mv_opencl\": {");
  std::size_t last = 0;
  int count = 0;
  for (std::size_t p = manifest.find("\"name\": \"", at); p < end;
       p = manifest.find("\"name\": \"", p + 1)) {
    std::string name = manifest.substr(p + 9, manifest.find('"', p + 9) - p - 9);
    std::size_t inProto = proto.find(" " + name + ",") != std::string::npos
                              ? proto.find(" " + name + ",")
                              : proto.find(" " + name, last);
    ASSERT_NE(inProto, std::string::npos) << name << " not in " << proto;
    EXPECT_GE(inProto, last) << name;
    last = inProto;
    ++count;
  }
  EXPECT_EQ(count, 5); // output, n, m, M, x
  // The launch configuration, evaluated per check size.
  std::size_t launch = manifest.find("\"launch\"");
  ASSERT_NE(launch, std::string::npos);
  std::string l;
  for (char c : manifest.substr(launch, 800))
    if (!std::isspace(static_cast<unsigned char>(c)))
      l += c;
  // n = 64 and n = 96 (the check sizes), local size 32.
  EXPECT_NE(l.find("{\"global\":[64],\"local\":[32]}"), std::string::npos) << l;
  EXPECT_NE(l.find("{\"global\":[96],\"local\":[32]}"), std::string::npos) << l;
  EXPECT_NE(l.find("\"global\":[\"n\"],\"local\":[\"32\"]"), std::string::npos) << l;
}

TEST_F(Generate, ManifestRecordsTheCompilerFlagsOfEachCFile) {
  // mm's C variant sets its own flags; the others have the default -O3
  // -ffp-contract=fast.
  std::string spec = kMmSpec;
  spec.replace(spec.find("  - target: openmp"), 0,
               "    cflags: [-march=x86-64-v2, -funroll-loops]\n");
  write("specs/mm.yaml", spec);
  ProcessResult r = risec({"generate", mv_, mm_, "-o", (dir_ / "out").string()});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  std::string m;
  for (char c : readFile(dir_ / "out" / "kernels.json"))
    if (!std::isspace(static_cast<unsigned char>(c)))
      m += c;
  // Every C file (the OpenCL host wrappers too), and only those.
  EXPECT_NE(m.find("\"compile_flags\":{\"mm_c.c\":[\"-O3\",\"-march=x86-64-v2\",\"-funroll-"
                   "loops\",\"-ffp-contract=fast\"]}"),
            std::string::npos)
      << m;
  const std::string dflt = "[\"-O3\",\"-ffp-contract=fast\"]";
  EXPECT_NE(m.find("\"compile_flags\":{\"mm_openmp.c\":" + dflt + "}"), std::string::npos) << m;
  EXPECT_NE(m.find("\"compile_flags\":{\"mv_c.c\":" + dflt + "}"), std::string::npos) << m;
  EXPECT_NE(m.find("\"compile_flags\":{\"mv_opencl_host.c\":" + dflt + "}"), std::string::npos)
      << m;
  EXPECT_EQ(m.find("\"mv_opencl.cl\":["), std::string::npos) << m;
  // A flag outside the allow-list is a located error, and nothing is written.
  spec.replace(spec.find("-funroll-loops"), 14, "-Ofast");
  write("specs/mm.yaml", spec);
  r = risec({"generate", mm_, "-o", (dir_ / "bad").string()});
  EXPECT_EQ(r.exitCode, 1);
  std::string error = firstError(r);
  EXPECT_EQ(error.substr(0, 30), "mm.yaml:6:32: error: `-Ofast` ") << r.err;
  EXPECT_TRUE(error.ends_with("[E0815]")) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "bad"));
}

TEST_F(Generate, OutputIsIndependentOfSpecOrderAndJobs) {
  ASSERT_EQ(risec({"generate", mv_, mm_, "-o", (dir_ / "a").string(), "--jobs", "1"}).exitCode, 0);
  ASSERT_EQ(risec({"generate", mm_, mv_, "-o", (dir_ / "b").string(), "--jobs", "2"}).exitCode, 0);
  // Relative paths (from the test's working directory) give the same output.
  std::string mvRelative = fs::relative(mv_).string();
  ASSERT_NE(mvRelative, mv_);
  ASSERT_EQ(risec({"generate", mm_, mvRelative, "-o", (dir_ / "c").string(), "-j", "8"}).exitCode,
            0);
  EXPECT_EQ(contents(dir_ / "a"), contents(dir_ / "b"));
  EXPECT_EQ(contents(dir_ / "a"), contents(dir_ / "c"));
}

TEST_F(Generate, LeavesTheOutputDirectoryAsItWasOnFailure) {
  ASSERT_EQ(risec({"generate", mv_, "-o", (dir_ / "out").string()}).exitCode, 0);
  auto before = contents(dir_ / "out");
  // mm's strategy no longer parses: nothing of mv or mm may be written.
  write("specs/mm.blocking.elevate", "notAStrategy @@ ;");
  ProcessResult r = risec({"generate", mv_, mm_, "-o", (dir_ / "out").string()});
  EXPECT_EQ(r.exitCode, 1) << r.err;
  EXPECT_EQ(contents(dir_ / "out"), before);
  // A missing directory is not created either.
  r = risec({"generate", mv_, mm_, "-o", (dir_ / "new").string()});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_FALSE(fs::exists(dir_ / "new"));
}

TEST_F(Generate, ReplacesAnEarlierGenerationWithoutItsStaleFiles) {
  ASSERT_EQ(risec({"generate", mv_, mm_, "-o", (dir_ / "out").string()}).exitCode, 0);
  std::ofstream(dir_ / "out" / "stale.c") << "old";
  ASSERT_EQ(risec({"generate", mv_, "-o", (dir_ / "out").string()}).exitCode, 0);
  EXPECT_FALSE(fs::exists(dir_ / "out" / "stale.c"));
  EXPECT_FALSE(fs::exists(dir_ / "out" / "mm.h"));
  EXPECT_TRUE(fs::exists(dir_ / "out" / "mv.h"));
}

TEST_F(Generate, RefusesToReplaceAFolderItDidNotWriteE0826) {
  fs::create_directories(dir_ / "mine");
  std::ofstream(dir_ / "mine" / "notes.txt") << "precious";
  ProcessResult r = risec({"generate", mv_, "-o", (dir_ / "mine").string()});
  EXPECT_EQ(r.exitCode, 1);
  std::string err = r.err.substr(0, r.err.find('\n'));
  EXPECT_EQ(err, "risec: error: `" + (dir_ / "mine").string() +
                     "` is not empty and is not the output of an earlier `risec generate --name "
                     "kernels`; generate replaces its output directory as a whole, so choose a "
                     "new or empty directory [E0826]");
  EXPECT_EQ(readFile(dir_ / "mine" / "notes.txt"), "precious");
}

TEST_F(Generate, TargetsFilterKeepsOnlyThoseVariants) {
  ProcessResult r =
      risec({"generate", mv_, mm_, "-o", (dir_ / "out").string(), "--targets", "c,openmp"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto files = contents(dir_ / "out");
  EXPECT_FALSE(files.count("mv_opencl.cl"));
  EXPECT_TRUE(files.count("mv_openmp.c"));
  EXPECT_EQ(files["kernels.json"].find("opencl"), std::string::npos);
  EXPECT_EQ(files["mv.h"].find("mv_opencl.h"), std::string::npos);
}

TEST_F(Generate, IsaLevelsAreFunctionsBehindADispatcher) {
  // The spec's `isas:` apply to mv's c and openmp variants; its opencl
  // variant ignores them. mv_c becomes the dispatcher of three functions.
  std::string spec = kMvSpec;
  spec.replace(spec.find("variants:"), 0, "isas: [x86-64-v3, x86-64-v2]\n");
  write("specs/mv.yaml", spec);
  ProcessResult r = risec({"generate", mv_, "-o", (dir_ / "out").string()});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto files = contents(dir_ / "out");
  for (const char* f : {"mv_c.c", "mv_c.h", "mv_c_x86_64.c", "mv_c_x86_64.h", "mv_c_x86_64_v2.c",
                        "mv_c_x86_64_v3.c", "mv_openmp_x86_64_v3.c", "mv_opencl_host.c"})
    EXPECT_TRUE(files.count(f)) << f;
  EXPECT_FALSE(files.count("mv_c_x86_64_v4.c"));
  EXPECT_FALSE(files.count("mv_opencl_x86_64.cl"));
  // The dispatcher keeps mv_c's prototype and calls each level's function.
  const std::string& dispatcher = files["mv_c.c"];
  EXPECT_NE(dispatcher.find("#include \"mv_c_x86_64_v3.h\""), std::string::npos) << dispatcher;
  EXPECT_NE(dispatcher.find("{mv_c_x86_64, mv_c_x86_64_v2, mv_c_x86_64_v3}"), std::string::npos)
      << dispatcher;
  EXPECT_NE(dispatcher.find("getenv(\"RISEC_ISA\")"), std::string::npos);
  EXPECT_NE(dispatcher.find("#if defined(__x86_64__)"), std::string::npos);
  EXPECT_NE(files["mv_c.h"].find("const char* mv_c_selected_isa(void);"), std::string::npos);
  EXPECT_NE(files["mv_c_x86_64_v2.c"].find("int mv_c_x86_64_v2("), std::string::npos);
  std::string m;
  for (char c : files["kernels.json"])
    if (!std::isspace(static_cast<unsigned char>(c)))
      m += c;
  EXPECT_NE(m.find("\"mv_c.c\":[\"-O3\",\"-ffp-contract=fast\"],\"mv_c_x86_64.c\":[\"-O3\",\"-"
                   "ffp-contract=fast\",\"-march=x86-64\"],\"mv_c_x86_64_v2.c\":[\"-O3\",\"-ffp-"
                   "contract=fast\",\"-march=x86-64-v2\"],\"mv_c_x86_64_v3.c\":[\"-O3\",\"-ffp-"
                   "contract=fast\",\"-march=x86-64-v3\"]}"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("\"isas\":[{\"isa\":\"x86-64\",\"source\":\"mv_c_x86_64.c\",\"symbol\":"
                   "\"mv_c_x86_64\"},{\"isa\":\"x86-64-v2\""),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("\"selected_isa\":\"mv_c_selected_isa\""), std::string::npos) << m;
  // The kernel header says which variants dispatch.
  EXPECT_NE(files["mv.h"].find("mv_c (c; dispatches at run time to x86-64, x86-64-v2, x86-64-v3)"),
            std::string::npos)
      << files["mv.h"];
  // Every file compiles with -Wall -Wextra -Werror at its flags, and the
  // headers of the library together.
  for (const char* f : {"mv_c.c", "mv_c_x86_64_v3.c"}) {
    ProcessResult cc = runProcess({"/usr/bin/gcc", "-std=c11", "-Wall", "-Wextra", "-Werror",
                                   "-fsyntax-only", "-march=x86-64-v3",
                                   "-I" + (dir_ / "out").string(), (dir_ / "out" / f).string()});
    EXPECT_EQ(cc.exitCode, 0) << f << ": " << cc.err;
  }
  // `isas:` on an opencl variant is a located error.
  spec.replace(spec.find("    launch:"), 0, "    isas: [x86-64-v3]\n");
  write("specs/mv.yaml", spec);
  r = risec({"generate", mv_, "-o", (dir_ / "bad").string()});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_TRUE(firstError(r).ends_with("[E0818]")) << r.err;
}

TEST_F(Generate, EachIsaLevelIsRewrittenWithItsOwnStrategyParameters) {
  // mv split into chunks of `s` rows: the variant binds 4, x86-64-v3 8.
  write("specs/chunks.elevate", "param s = 2 in [2, 4, 8]\n"
                                "require s <= vector_lanes\n"
                                "splitJoin(s) @ outermost(isMap)\n");
  std::string spec = kMvSpec;
  spec.replace(spec.find("  - target: openmp"), 0,
               "    strategy: chunks.elevate\n    params: {s: 4}\n    isas:\n"
               "      - x86-64\n      - {isa: x86-64-v3, params: {s: 8}}\n");
  write("specs/mv.yaml", spec);
  ProcessResult r = risec({"generate", mv_, "-o", (dir_ / "out").string()});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto files = contents(dir_ / "out");
  EXPECT_NE(files["mv_c_x86_64.c"].find("n % 4"), std::string::npos) << files["mv_c_x86_64.c"];
  EXPECT_NE(files["mv_c_x86_64_v3.c"].find("n % 8"), std::string::npos)
      << files["mv_c_x86_64_v3.c"];
  // 8 chunks exceed the baseline's 4 lanes: E0713, with the level named.
  spec.replace(spec.find("      - x86-64\n"), 15, "      - {isa: x86-64, params: {s: 8}}\n");
  write("specs/mv.yaml", spec);
  r = risec({"generate", mv_, "-o", (dir_ / "bad").string()});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("`s <= vector_lanes` does not hold for s = 8, vector_lanes = 4"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("while compiling `mv_c_x86_64`, the function of the ISA level x86-64"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "bad"));
}

TEST_F(Generate, ASpecNamedWithoutAFolderIsRelativeToTheCurrentOne) {
  // `risec generate mv.yaml` in the spec's folder once crashed (the empty
  // parent path).
  ProcessResult r = runProcess(
      {"/bin/sh", "-c",
       "cd '" + (dir_ / "specs").string() + "' && '" + RISEC_BINARY + "' generate mv.yaml -o out"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(fs::exists(dir_ / "specs" / "out" / "mv_c.c"));
}

TEST_F(Generate, NameChoosesUmbrellaAndManifest) {
  ASSERT_EQ(risec({"generate", mv_, "-o", (dir_ / "out").string(), "--name", "blas"}).exitCode, 0);
  EXPECT_TRUE(fs::exists(dir_ / "out" / "blas.h"));
  EXPECT_TRUE(fs::exists(dir_ / "out" / "blas.json"));
  EXPECT_FALSE(fs::exists(dir_ / "out" / "kernels.h"));
}

TEST_F(Generate, HeadersCompileAsStrictC11) {
  ASSERT_EQ(risec({"generate", mv_, mm_, "-o", (dir_ / "out").string()}).exitCode, 0);
  std::string main = write("use.c", "#include \"kernels.h\"\n#include \"mv.h\"\n"
                                    "#include \"kernels.h\"\nint main(void) { return 0; }\n");
  ProcessResult r = runProcess({"/usr/bin/gcc", "-std=c11", "-Wall", "-Wextra", "-Werror",
                                "-fsyntax-only", "-I" + (dir_ / "out").string(),
                                // the OpenCL variant's header includes the host runtime's
                                "-I" + (fs::path(RISEC_SOURCE_DIR) / "host").string(), main});
  EXPECT_EQ(r.exitCode, 0) << r.err;
}

TEST_F(Generate, PrintsDependencies) {
  ProcessResult r = risec({"generate", mv_, "--print-dependencies"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("mv.yaml\n"), std::string::npos);
  EXPECT_NE(r.out.find("mv.rise\n"), std::string::npos);
  EXPECT_NE(r.out.find("mv.ocl.elevate\n"), std::string::npos);
}

TEST_F(Generate, DuplicateKernelIsE0820) {
  std::string copy = write("specs/mv2.yaml", kMvSpec);
  ProcessResult r = risec({"generate", mv_, copy, "-o", (dir_ / "out").string()});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(firstError(r),
            "mv2.yaml:1:1: error: the kernel `mv` is also defined by `mv.yaml`; kernel "
            "names must be unique in a library: rename one of them [E0820]");
  EXPECT_FALSE(fs::exists(dir_ / "out"));
}

TEST_F(Generate, DuplicateSymbolIsE0821) {
  std::string other = write("specs/other.yaml", "kernel: other\nsource: mv.rise\nentry: mv\n"
                                                "variants:\n  - target: c\n    symbol: mv_c\n");
  ProcessResult r = risec({"generate", mv_, other, "-o", (dir_ / "out").string()});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(firstError(r), "other.yaml:5:5: error: the symbol `mv_c` is also used by a variant of "
                           "another kernel; give one of them a different `symbol:` [E0821]");
}

TEST_F(Generate, SymbolNamedLikeAKernelHeaderIsE0822) {
  std::string other = write("specs/other.yaml", "kernel: other\nsource: mv.rise\nentry: mv\n"
                                                "variants:\n  - target: c\n    symbol: mv\n");
  ProcessResult r = risec({"generate", mv_, other, "-o", (dir_ / "out").string()});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(firstError(r),
            "other.yaml:5:5: error: the file `mv.h` of the variant `mv` would overwrite "
            "the one of the kernel `mv`; rename the kernel, set another `symbol:`, or pick "
            "another --name [E0822]");
}

TEST_F(Generate, UnknownTargetIsE0823) {
  ProcessResult r = risec({"generate", mv_, "-o", (dir_ / "out").string(), "--targets", "cuda"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(firstError(r), "risec: error: --targets names `cuda`, which is not a target; list "
                           "some of c, openmp and opencl, separated by commas (e.g. --targets "
                           "c,openmp) [E0823]");
}

TEST_F(Generate, BadLibraryNameIsE0824) {
  ProcessResult r = risec({"generate", mv_, "-o", (dir_ / "out").string(), "--name", "my-lib"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(firstError(r), "risec: error: the library name `my-lib` is not a C identifier; "
                           "choose --name with letters, digits and `_`, not starting with a "
                           "digit [E0824]");
}

TEST_F(Generate, NoVariantLeftIsE0825) {
  ProcessResult r = risec({"generate", mm_, "-o", (dir_ / "out").string(), "--targets", "opencl"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(firstError(r), "risec: error: no variant of the given specs has one of the targets "
                           "`opencl`; widen --targets or add such variants [E0825]");
}

// ---- failure leaves nothing behind (issue 20) ---------------------------------

/// One class of user error, put into the 20th of 25 specs.
struct LateError {
  const char* name;
  const char* file; ///< which file of spec 20 is replaced: rise, elevate or yaml
  const char* text; ///< its new content (%K: the kernel's name)
  const char* code; ///< the diagnostic expected
};

const LateError kLateErrors[] = {
    {"Syntax", "rise", "def %K = depFun(n: Nat => fun(x: n.f32 => x |> map(fun(v => v * ))))",
     "E01"},
    {"Type", "rise", "def %K = depFun(n: Nat => fun(x: n.f32 => x |> map(fun(v => v + x))))",
     "E03"},
    {"StrategySyntax", "elevate", "parallel @@ outermost(isMap)", "E07"},
    {"StrategyFails", "elevate", "vectorize(4) @ innermost(isReduce)", "E0710"},
    {"Legality", "elevate", "parallel @ outermost(isMap) ; parallel @ innermost(isMap)", "E0620"},
    {"Spec", "yaml", "kernel: %K\nsource: %K.rise\nvariants:\n  - target: fortran\n", "E08"},
};

class GenerateLateError : public Generate, public ::testing::WithParamInterface<LateError> {
protected:
  static std::string kernel(int i) { return (i < 10 ? "k0" : "k") + std::to_string(i); }
  static std::string expand(std::string text, const std::string& k) {
    for (std::size_t at; (at = text.find("%K")) != std::string::npos;)
      text.replace(at, 2, k);
    return text;
  }
  /// 25 specs of a 2-D map, each with a C and an OpenMP variant.
  std::vector<std::string> specs() {
    std::vector<std::string> out;
    for (int i = 1; i <= 25; ++i) {
      std::string k = kernel(i);
      write("specs/" + k + ".rise", "def " + k +
                                        " = depFun((m: Nat, n: Nat) => fun(x: m.n.f32 => x |> "
                                        "map(map(fun(v => v * 2.0f)))))\n");
      write("specs/" + k + ".omp.elevate", "parallel @ outermost(isMap)\n");
      out.push_back(
          write("specs/" + k + ".yaml", "kernel: " + k + "\nsource: " + k +
                                            ".rise\nvariants:\n  - target: c\n  - target: openmp\n"
                                            "    strategy: " +
                                            k + ".omp.elevate\ncheck:\n  - {m: 3, n: 5}\n"));
    }
    return out;
  }
};

TEST_P(GenerateLateError, LeavesAnEarlierGenerationAsItWas) {
  std::vector<std::string> all = specs();
  fs::path out = dir_ / "out";
  std::vector<std::string> args{"generate"};
  args.insert(args.end(), all.begin(), all.end());
  args.insert(args.end(), {"-o", out.string(), "-j", "2"});
  ASSERT_EQ(risec(args).exitCode, 0);
  auto before = contents(out);
  ASSERT_EQ(before.count("k20.h"), 1u);

  const LateError& e = GetParam();
  std::string k = kernel(20);
  std::string file = std::string(e.file) == "elevate" ? k + ".omp.elevate" : k + "." + e.file;
  write("specs/" + file, expand(e.text, k));
  ProcessResult r = risec(args);
  EXPECT_EQ(r.exitCode, 1) << r.err;
  std::string first = firstError(r);
  EXPECT_NE(first.find("[" + std::string(e.code)), std::string::npos) << first;
  EXPECT_EQ(first.rfind(k + ".", 0), 0u) << "not located in spec 20's files: " << first;
  EXPECT_EQ(contents(out), before);
  // nothing left beside the output either (a staging folder)
  std::size_t entries = 0;
  for (const auto& f : fs::directory_iterator(dir_))
    entries += f.path().filename() != "specs";
  EXPECT_EQ(entries, 1u);
  // and risec compile of the broken kernel leaves its output folder as it was
  if (std::string(e.file) != "yaml") {
    fs::path single = dir_ / "single";
    std::vector<std::string> compile{"compile",  (dir_ / "specs" / (k + ".rise")).string(),
                                     "--target", "openmp",
                                     "-o",       single.string()};
    if (std::string(e.file) == "elevate")
      compile.insert(compile.end(), {"--strategy", (dir_ / "specs" / file).string()});
    fs::create_directories(single);
    std::ofstream(single / "keep.txt") << "mine";
    ProcessResult c = risec(compile);
    EXPECT_EQ(c.exitCode, 1) << c.err;
    EXPECT_EQ(contents(single), (std::map<std::string, std::string>{{"keep.txt", "mine"}}));
  }
}

INSTANTIATE_TEST_SUITE_P(EachErrorClass, GenerateLateError, ::testing::ValuesIn(kLateErrors),
                         [](const ::testing::TestParamInfo<LateError>& i) {
                           return std::string(i.param.name);
                         });

} // namespace
