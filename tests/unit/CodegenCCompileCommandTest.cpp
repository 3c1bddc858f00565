// `risec compile` (generator/driver/CompileCommand.cpp), run in-process:
// the files it writes, the dumps, and that a failure writes nothing.
#include "driver/CompileCommand.h"
#include "support/Diagnostic.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

using namespace risec;
namespace fs = std::filesystem;

namespace {

const char* kMv = R"(def mv = depFun((n: Nat, m: Nat) =>
  fun(M: n.m.f32 => fun(x: m.f32 =>
    M |> map(fun(row =>
      zip(row)(x) |> map(fun(ax => fst(ax) * snd(ax))) |> reduce(add)(0.0f))))))
)";

const char* kListing5 = R"(def listing5 = depFun((n: Nat, m: Nat) => fun(M: n.m.f32 =>
  M |> mapSeq(fun(row =>
    row |> mapSeq(fun(x => x * 2.0f)) |> mapSeq(fun(x => x + 1.0f))))))
)";

class CompileCommand : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("risec-compile-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_ / "out");
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
    return (dir_ / name).string();
  }
  std::vector<std::string> outFiles() {
    std::vector<std::string> v;
    for (const auto& e : fs::directory_iterator(dir_ / "out"))
      v.push_back(e.path().filename().string());
    std::sort(v.begin(), v.end());
    return v;
  }
  std::string errorCode(const driver::CompileOptions& o) {
    std::ostringstream out;
    try {
      driver::runCompile(o, out);
    } catch (const CompileError& e) {
      return e.code();
    }
    return "";
  }

  fs::path dir_;
};

} // namespace

TEST_F(CompileCommand, WritesTheSourceAndTheHeader) {
  driver::CompileOptions o;
  o.file = write("mv.rise", kMv);
  o.name = "mv_c";
  o.outDir = (dir_ / "out").string();
  std::ostringstream out;
  EXPECT_EQ(driver::runCompile(o, out), 0);
  EXPECT_EQ(out.str(), "");
  EXPECT_EQ(outFiles(), (std::vector<std::string>{"mv_c.c", "mv_c.h"}));
  std::ifstream c(dir_ / "out" / "mv_c.c");
  std::stringstream text;
  text << c.rdbuf();
  EXPECT_NE(text.str().find("int mv_c(float* restrict output, int n, int m,"), std::string::npos);
}

TEST_F(CompileCommand, DumpsPrintAStageAndWriteNothing) {
  driver::CompileOptions o;
  o.file = write("mv.rise", kMv);
  for (const char* stage : {"lower", "dpia", "imperative", "c"}) {
    o.dump = stage;
    std::ostringstream out;
    EXPECT_EQ(driver::runCompile(o, out), 0);
    EXPECT_FALSE(out.str().empty()) << stage;
  }
  EXPECT_TRUE(outFiles().empty());
  o.dump = "dpia";
  std::ostringstream out;
  driver::runCompile(o, out);
  EXPECT_NE(out.str().find(": Exp[n.f32, Wr]"), std::string::npos) << out.str();
}

TEST_F(CompileCommand, UserErrorsWriteNothing) {
  driver::CompileOptions o;
  o.file = write("l5.rise", kListing5);
  o.outDir = (dir_ / "out").string();
  // Listing 5 is repaired by lowerToC (it inserts the toMem): it compiles
  std::ostringstream out;
  EXPECT_EQ(driver::runCompile(o, out), 0);
  fs::remove_all(dir_ / "out");
  fs::create_directories(dir_ / "out");

  o.name = "2fast";
  EXPECT_EQ(errorCode(o), "E0610");
  o.name = "sqrtf"; // math.h's, which the generated C includes
  EXPECT_EQ(errorCode(o), "E0610");
  o.name = "dot"; // OpenCL C's built-in only
  EXPECT_EQ(errorCode(o), "");
  fs::remove_all(dir_ / "out");
  fs::create_directories(dir_ / "out");
  o.target = "opencl";
  EXPECT_EQ(errorCode(o), "E0610");
  o.target = "c";
  o.name = "";
  o.target = "cuda";
  EXPECT_EQ(errorCode(o), "E0611");
  o.target = "c";
  o.outDir = (dir_ / "missing").string();
  EXPECT_EQ(errorCode(o), "E0612");
  o.outDir = (dir_ / "out").string();
  o.file = write("bad.rise", "def f = depFun(n: Nat => fun(xs: n.f32 => xs |> mapGlobal(3)(fun(x "
                             "=> x))))\n");
  EXPECT_NE(errorCode(o), "");
  EXPECT_TRUE(outFiles().empty());
}

// A kernel named after its entry, where that name is an OpenCL C built-in:
// the error is at the def, and says how to rename the kernel.
TEST_F(CompileCommand, AnEntryNamedAfterABuiltInIsReportedAtItsDef) {
  driver::CompileOptions o;
  o.file = write("length.rise", "// the length of each row\n"
                                "def length = depFun(n: Nat => fun(xs: n.f32 => xs |> map(fun(x "
                                "=> x * x)) |> reduce(add)(0.0f)))\n");
  o.outDir = (dir_ / "out").string();
  o.target = "opencl";
  std::ostringstream out;
  try {
    driver::runCompile(o, out);
    FAIL() << "compiled a kernel named `length` for OpenCL";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.code(), "E0610");
    EXPECT_EQ(e.location().line, 2);
    EXPECT_EQ(e.location().column, 5);
    EXPECT_NE(std::string(e.what()).find("--name length_kernel"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(outFiles().empty());
}
