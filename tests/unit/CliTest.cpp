// Tests of the `risec` command line: outputs, exit codes and the
// no-partial-output rule.
#include "../support/Process.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using risec::test::ProcessResult;
using risec::test::runProcess;

namespace {

namespace fs = std::filesystem;

const char* kMv = R"(// matrix-vector multiplication
def mv = depFun((n: Nat, m: Nat) =>
  fun(M: n.m.f32 => fun(x: m.f32 =>
    M |> map(fun(row =>
      zip(row)(x) |> map(fun(ax => fst(ax) * snd(ax))) |> reduce(add)(0.0f))))))
def chunks = depFun(n: Nat => fun(xs: n.f32 => xs |> split(4)))
)";

class Cli : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("risec-cli-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& text) {
    fs::path p = dir_ / name;
    std::ofstream(p) << text;
    return p.string();
  }
  ProcessResult risec(std::vector<std::string> args, const std::string& stdinText = "") {
    args.insert(args.begin(), RISEC_BINARY);
    return runProcess(args, stdinText);
  }

  fs::path dir_;
};

} // namespace

TEST_F(Cli, CheckPrintsEveryDefWithItsTypeAndPreconditions) {
  std::string file = write("mv.rise", kMv);
  ProcessResult r = risec({"check", file});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out, "mv : (n: Nat) -> (m: Nat) -> n.m.f32 -> m.f32 -> n.f32\n"
                   "chunks : (n: Nat) -> n.f32 -> (n/4).4.f32\n"
                   "  requires n%4 == 0  (" +
                       file + ":6:54)\n");
}

TEST_F(Cli, EvalReadsJsonInputsAndPrintsJson) {
  std::string file = write("mv.rise", kMv);
  std::string inputs = write("in.json", "[[[1, 2, 3], [4, 5, 6]], [1, 0, 2]]");
  ProcessResult r =
      risec({"eval", file, "--entry", "mv", "--sizes", "n=2,m=3", "--inputs", inputs});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out, "[7.0, 16.0]\n");
}

TEST_F(Cli, EvalReadsStandardInput) {
  std::string file = write("mv.rise", kMv);
  ProcessResult r = risec({"eval", file, "--entry", "mv", "--sizes", "n=1,m=2", "--inputs", "-"},
                          "[[[2, 3]], [10, 100]]");
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out, "[320.0]\n");
}

TEST_F(Cli, EvalOnRandomInputsIsDeterministic) {
  std::string file = write("mv.rise", kMv);
  ProcessResult a = risec({"eval", file, "--entry", "mv", "--sizes", "n=3,m=5", "--random", "7"});
  ProcessResult b = risec({"eval", file, "--entry", "mv", "--sizes", "n=3,m=5", "--random", "7"});
  EXPECT_EQ(a.exitCode, 0) << a.err;
  EXPECT_EQ(a.out, b.out);
  EXPECT_EQ(std::count(a.out.begin(), a.out.end(), ','), 2) << a.out;
}

TEST_F(Cli, EvalOfTheLastDefByDefault) {
  std::string file = write("mv.rise", kMv);
  std::string inputs = write("in.json", "[[1, 2, 3, 4, 5, 6, 7, 8]]");
  ProcessResult r = risec({"eval", file, "--sizes", "n=8", "--inputs", inputs});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out, "[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]\n");
}

TEST_F(Cli, ViolatedPreconditionIsAUserError) {
  std::string file = write("mv.rise", kMv);
  ProcessResult r = risec({"eval", file, "--sizes", "n=6", "--random", "1"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("n%4 == 0"), std::string::npos) << r.err;
}

TEST_F(Cli, TypeErrorPrintsLocationSourceLineAndCaret) {
  std::string file = write("bad.rise", "def f = fun(a: 4.f32, b: 5.f32 =>\n  zip(a)(b))\n");
  ProcessResult r = risec({"check", file});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, file + ":2:10: error: size mismatch in the 2nd argument of `zip`: 4 vs 5 "
                          "[E0302]\n    zip(a)(b))\n           ^\n");
}

TEST_F(Cli, NoPartialOutputWhenALaterDefFails) {
  std::string file = write("two.rise", "def ok = fun(x: f32 => x)\ndef bad = fun(x: f32 => y)\n");
  ProcessResult r = risec({"check", file});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(r.out, "");
}

TEST_F(Cli, MissingFileIsAUserError) {
  ProcessResult r = risec({"check", (dir_ / "nope.rise").string()});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("risec: error: cannot read"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("[E0501]"), std::string::npos) << r.err;
}

TEST_F(Cli, BadSizesOption) {
  std::string file = write("mv.rise", kMv);
  ProcessResult r = risec({"eval", file, "--sizes", "n=two", "--random", "1"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("[E0503]"), std::string::npos) << r.err;
}

TEST_F(Cli, UnknownEntry) {
  std::string file = write("mv.rise", kMv);
  ProcessResult r = risec({"eval", file, "--entry", "nope", "--random", "1"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("no def named `nope`"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("mv, chunks"), std::string::npos) << r.err;
}

TEST_F(Cli, MalformedJsonInputs) {
  std::string file = write("mv.rise", kMv);
  std::string inputs = write("in.json", "[[1, 2,");
  ProcessResult r = risec({"eval", file, "--sizes", "n=4", "--inputs", inputs});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("[E0414]"), std::string::npos) << r.err;
}

TEST_F(Cli, UsageErrorsExitWithOne) {
  EXPECT_EQ(risec({}).exitCode, 1);
  EXPECT_EQ(risec({"frobnicate"}).exitCode, 1);
  EXPECT_EQ(risec({"check"}).exitCode, 1);
}

TEST_F(Cli, Version) {
  ProcessResult r = risec({"--version"});
  EXPECT_EQ(r.exitCode, 0);
  EXPECT_EQ(r.out.rfind("risec ", 0), 0u) << r.out;
}

TEST_F(Cli, TimePassesPrintsEveryStageOnStderrAndNothingElseChanges) {
  std::string file = write("mv.rise", kMv);
  fs::path out = dir_ / "out";
  fs::create_directories(out);
  ProcessResult r = risec({"--time-passes", "compile", file, "--entry", "mv", "-o", out.string()});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(fs::exists(out / "mv.c"));
  std::string order;
  std::istringstream lines(r.err);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string prefix, time, stage;
    double ms = -1;
    words >> prefix >> time >> stage >> ms;
    EXPECT_EQ(prefix + " " + time, "risec: time") << line;
    EXPECT_GE(ms, 0.0) << line;
    order += stage + " ";
  }
  EXPECT_EQ(order, "parse infer lowerToC DPIA imperative emit format verify write ");
  ProcessResult quiet = risec({"compile", file, "--entry", "mv", "-o", out.string()});
  EXPECT_EQ(quiet.err, "");
}

TEST_F(Cli, UnknownEntryListsTheDefs) {
  std::string file = write("mv.rise", kMv);
  ProcessResult r =
      risec({"compile", file, "--target", "c", "--entry", "nope", "-o", dir_.string()});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("no def named `nope` in " + file + "; its defs are: mv, chunks [E0502]"),
            std::string::npos)
      << r.err;
}

TEST_F(Cli, EvalOfAFunctionWithoutInputsSaysHowToPassThem) {
  std::string file = write("mv.rise", kMv);
  ProcessResult r = risec({"eval", file, "--entry", "mv", "--sizes", "n=2,m=3"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("`mv` takes 2 argument(s); pass them with --inputs FILE.json (a JSON list) "
                       "or use --random SEED [E0504]"),
            std::string::npos)
      << r.err;
}

// Every subcommand, run from several working directories with bare, relative,
// `./`, `../` and absolute paths, ends as a success (0) or a located user
// error (1); never an internal error (2) or a crash (issue 21: `risec
// generate scal.yaml` in the spec's own folder used to abort).
TEST_F(Cli, EverySubcommandWorksFromAnyWorkingDirectory) {
  fs::path specs = dir_ / "specs", other = dir_ / "other";
  fs::create_directories(specs);
  fs::create_directories(other);
  std::ofstream(specs / "scal.rise") << "def scal = depFun(n: Nat => fun(alpha: f32, xs: n.f32 =>\n"
                                        "  xs |> map(fun(x => alpha * x))))\n";
  std::ofstream(specs / "scal.c.elevate") << "mapToSeq @ everywhere\n";
  std::ofstream(specs / "scal.yaml") << "kernel: scal\nsource: scal.rise\nvariants:\n"
                                        "  - target: c\n    strategy: scal.c.elevate\n"
                                        "check:\n  - {n: 3}\n";

  struct Place {
    fs::path cwd;
    std::string prefix; ///< how the spec folder is named from cwd
  };
  const std::vector<Place> places = {{specs, ""},
                                     {specs, "./"},
                                     {dir_, "specs/"},
                                     {other, "../specs/"},
                                     {other, specs.string() + "/"}};
  int run = 0;
  for (const Place& place : places) {
    const std::string p = place.prefix;
    const std::string out = "out" + std::to_string(run++);
    const std::vector<std::pair<std::string, int>> commands = {
        {"check " + p + "scal.rise", 0},
        {"eval " + p + "scal.rise --sizes n=3 --random 1", 0},
        {"rewrite " + p + "scal.rise --strategy " + p + "scal.c.elevate", 0},
        {"mkdir " + out + " && " + RISEC_BINARY + " compile " + p + "scal.rise --strategy " + p +
             "scal.c.elevate -o " + out,
         0},
        {"generate " + p + "scal.yaml -o gen" + out, 0},
        // no strategy parameters to tune: a user error (E0832)
        {"tune " + p + "scal.yaml --variant scal_c --no-write", 1},
        {"check " + p + "missing.rise", 1},
    };
    for (const auto& [command, expected] : commands) {
      std::string line = command.rfind("mkdir", 0) == 0 ? command : RISEC_BINARY + (" " + command);
      ProcessResult r = runProcess({"/bin/sh", "-c", "cd '" + place.cwd.string() + "' && " + line});
      EXPECT_EQ(r.exitCode, expected) << "in " << place.cwd << ": " << line << "\n" << r.err;
      if (expected == 1) {
        EXPECT_NE(r.err.find("error"), std::string::npos) << line << "\n" << r.err;
      }
    }
    EXPECT_TRUE(fs::exists(place.cwd / out / "scal.c")) << place.cwd << " / " << out;
    EXPECT_TRUE(fs::exists(place.cwd / ("gen" + out) / "scal_c.c")) << place.cwd;
  }
}

// `risec verify` (risec_add_kernel_library's TESTS): every check size of every
// c and openmp variant, compared with the interpreter; a C compiler that
// miscompiles the kernel (here: a wrapper that turns `*` into `+` in the
// generated C) is caught as E0840 at the variant.
TEST_F(Cli, VerifyChecksEveryVariantAtEveryCheckSize) {
  write("scal.rise", "def scal = depFun(n: Nat => fun(alpha: f32, xs: n.f32 =>\n"
                     "  xs |> map(fun(x => alpha * x))))\n");
  write("scal.c.elevate", "mapToSeq @ everywhere\n");
  write("scal.omp.elevate", "splitJoin(4) @ outermost(isMap) ; mapToPar @ outermost(isMap) ;\n"
                            "mapToSeq @ everywhere\n");
  std::string spec = write("scal.yaml", "kernel: scal\nsource: scal.rise\nvariants:\n"
                                        "  - target: c\n    strategy: scal.c.elevate\n"
                                        "  - target: openmp\n    strategy: scal.omp.elevate\n"
                                        "check:\n  - {n: 0}\n  - {n: 6}\n  - {n: 1000}\n");
  ProcessResult r = risec({"verify", spec});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  for (const char* line :
       {"ok scal_c at n=0\n", "ok scal_c at n=6\n", "ok scal_c at n=1000\n",
        "ok scal_openmp refuses n=6 (its preconditions)\n", "ok scal_openmp at n=1000\n"})
    EXPECT_NE(r.out.find(line), std::string::npos) << line << " missing from:\n" << r.out;
  EXPECT_NE(r.out.find("verified 2 functions of `scal` at 6 check sizes"), std::string::npos)
      << r.out;

  std::string cc =
      write("badcc.sh", "#!/bin/sh\n"
                        "for a; do shift; case $a in *.c) sed 's/ \\* / + /g' \"$a\" "
                        "> \"$a.bad.c\"; set -- \"$@\" \"$a.bad.c\";; *) set -- \"$@\" "
                        "\"$a\";; esac; done\nexec cc \"$@\"\n");
  fs::permissions(cc, fs::perms::owner_all);
  r = risec({"verify", spec, "--variant", "scal_c", "--cc", cc});
  EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("scal.yaml:4:5: error: `scal_c` differs from the reference interpreter at "
                       "n=6"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("[E0840]"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");

  r = risec({"verify", spec, "--variant", "scal_cuda"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("its variants are scal_c, scal_openmp [E0842]"), std::string::npos) << r.err;
}

// `lowerToC` in a strategy lowers for the target compiled for: an OpenCL or
// OpenMP strategy that ends with it keeps its parallel maps (before, it
// always lowered for C and made them sequential loops in every work-item or
// thread), and `rewrite --target` shows what `compile --target` compiles.
TEST_F(Cli, LowerToCInAStrategyKeepsTheTargetsParallelMaps) {
  auto contains = [](const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
  };
  std::string file = write("mv.rise", kMv);
  std::string ocl = write("mv.ocl.elevate", "mapToGlobal(0) @ outermost(isMap) ;\n"
                                            "fuseReduceMap @ everywhere ;\nlowerToC\n");
  std::string omp = write("mv.omp.elevate", "mapToPar @ outermost(isMap) ;\n"
                                            "fuseReduceMap @ everywhere ;\nlowerToC\n");
  auto rewrite = [&](const std::string& strategy, const std::string& target) {
    ProcessResult r =
        risec({"rewrite", file, "--entry", "mv", "--strategy", strategy, "--target", target});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return r.out;
  };
  EXPECT_TRUE(contains(rewrite(ocl, "opencl"), "mapGlobal(0, "));
  EXPECT_TRUE(contains(rewrite(omp, "openmp"), "mapPar("));
  // for C (the default) every map is sequential
  EXPECT_TRUE(contains(rewrite(ocl, "c"), "|> mapSeq("));
  EXPECT_EQ(rewrite(ocl, "c").find("mapGlobal"), std::string::npos);
  EXPECT_EQ(rewrite(omp, "c").find("mapPar"), std::string::npos);

  ProcessResult r = risec({"compile", file, "--entry", "mv", "--target", "opencl", "--strategy",
                           ocl, "-o", dir_.string()});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  std::ifstream in(dir_ / "mv.cl");
  std::string kernel((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_TRUE(contains(kernel, "for (int i = get_global_id(0); i < n; i += get_global_size(0))"));
  r = risec({"compile", file, "--entry", "mv", "--target", "openmp", "--strategy", omp, "-o",
             dir_.string()});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  std::ifstream inC(dir_ / "mv.c");
  std::string c((std::istreambuf_iterator<char>(inC)), std::istreambuf_iterator<char>());
  EXPECT_TRUE(contains(c, "#pragma omp parallel for"));

  r = risec({"rewrite", file, "--strategy", ocl, "--target", "cuda"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_TRUE(contains(r.err, "[E0611]"));
}
