// The lowering's access analysis (lower/AccessAnalysis.h): the read/write
// facts of the primitive table agree with the DPIA definitions the
// translation checks against; the analysis finds the repairs a program needs
// (toMem, copies, view maps); and every program of the test corpora that
// lowerToC lowers translates to DPIA without a missing memory choice (E0601,
// E0602), for each target.
#include "lower/AccessAnalysis.h"
#include "TestFiles.h"
#include "dpia/FromRise.h"
#include "dpia/Primitive.h"
#include "lower/LowerToC.h"
#include "rise/ast/Spine.h"
#include "rise/ast/Traverse.h"
#include "rise/infer/Signatures.h"
#include "rise/parse/Parser.h"
#include "support/Diagnostic.h"

#include <gtest/gtest.h>

#include <filesystem>

using namespace risec;
using namespace risec::rise;
namespace fs = std::filesystem;

namespace {

struct Parsed {
  Program program;
  TypedDef def;
};

Parsed parse(const std::string& text) {
  Parsed p;
  p.program = parseProgram(makeSourceFile("test.rise", text));
  p.def = inferDef(p.program, p.program.defs.back().name);
  return p;
}

/// The repairs of `text`'s last def, each as the repair and the printed
/// head primitive of the expression it wraps ("toMem mapSeq").
std::multiset<std::string> repairs(const std::string& text) {
  Parsed p = parse(text);
  lower::Repairs r = lower::findRepairs(p.def);
  std::multiset<std::string> out;
  std::function<void(const Expr&)> walk = [&](const Expr& e) {
    auto it = r.find(e.get());
    if (it != r.end()) {
      Expr head = spineHead(e);
      std::string what = head->kind() == ExprKind::Primitive ? std::string(primName(head->prim()))
                         : head->kind() == ExprKind::Var     ? head->name()
                                                             : "?";
      const char* repair = it->second == lower::Repair::ToMem  ? "toMem"
                           : it->second == lower::Repair::Copy ? "copy"
                                                               : "viewMap";
      out.insert(std::string(repair) + " " + what);
    }
    forEachChild(e, walk);
  };
  walk(p.def.expr);
  return out;
}

dpia::Access dpiaAccess(bool writes) {
  return writes ? dpia::Access::Wr : dpia::Access::Rd;
}

} // namespace

TEST(AccessAnalysis, TableAgreesWithDpiaDefinitions) {
  for (Prim p : allPrims()) {
    SCOPED_TRACE(std::string(primName(p)));
    PrimAccess a = primAccess(p);
    const dpia::PrimitiveDef* def = dpia::primitiveForRise(p);
    ASSERT_EQ(a.defined, def != nullptr);
    if (!def)
      continue;
    ASSERT_EQ(a.count, def->access.size());
    EXPECT_EQ(static_cast<int>(a.count), valueArity(p));
    bool anyView = false;
    for (std::size_t i = 0; i < a.count; ++i) {
      SCOPED_TRACE("argument " + std::to_string(i));
      const ArgUse& u = a.args[i];
      const dpia::ArgAccess& d = def->access[i];
      switch (d.kind) {
      case dpia::ArgAccess::Kind::Rd:
        EXPECT_EQ(u.kind, ArgUse::Read);
        break;
      case dpia::ArgAccess::Kind::Wr:
        EXPECT_EQ(u.kind, ArgUse::Write);
        break;
      case dpia::ArgAccess::Kind::Poly:
        EXPECT_EQ(u.kind, ArgUse::View);
        anyView = true;
        break;
      case dpia::ArgAccess::Kind::Fun:
        ASSERT_EQ(u.kind, ArgUse::Fun);
        EXPECT_EQ(u.arity, d.arity);
        EXPECT_EQ(u.depNat, d.depNat);
        EXPECT_EQ(u.anyBody, d.anyBody);
        if (!d.anyBody) {
          EXPECT_EQ(dpiaAccess(u.writesBody), d.body);
        }
        break;
      }
    }
    switch (def->result.kind) {
    case dpia::ResultAccess::Kind::Fixed:
      EXPECT_EQ(a.result, def->result.access == dpia::Access::Wr ? PrimAccess::Result::Written
                                                                 : PrimAccess::Result::Read);
      break;
    case dpia::ResultAccess::Kind::Poly:
      EXPECT_EQ(a.result, PrimAccess::Result::View);
      EXPECT_TRUE(anyView);
      break;
    case dpia::ResultAccess::Kind::FunBody:
      EXPECT_EQ(a.result, PrimAccess::Result::FunBody);
      EXPECT_EQ(a.funArg, def->result.arg);
      break;
    }
    EXPECT_EQ(a.writableView, def->writableView);
  }
}

TEST(AccessAnalysis, WrittenResultReadIsStored) {
  // reduceSeq reads its array: the mapSeq that computes it is stored first
  EXPECT_EQ(
      repairs("def f = depFun((n: Nat) => fun(x: n.f32 =>\n"
              "  x |> mapSeq(fun(a => a * 2.0f)) |> reduceSeq(fun(acc, a => acc + a))(0.0f)))"),
      (std::multiset<std::string>{"toMem mapSeq"}));
}

TEST(AccessAnalysis, ViewOfMemoryWrittenIsCopied) {
  // the output must be written: a transposed input is copied
  EXPECT_EQ(repairs("def f = depFun((n: Nat) => depFun((m: Nat) => fun(x: n.m.f32 =>\n"
                    "  transpose(x))))"),
            (std::multiset<std::string>{"copy transpose"}));
}

TEST(AccessAnalysis, AssignableValuesAreNotCopied) {
  // a scalar read where the loop body must be written is one assignment
  EXPECT_TRUE(
      repairs("def f = depFun((n: Nat) => fun(x: n.f32 => x |> mapSeq(fun(a => a))))").empty());
}

TEST(AccessAnalysis, WrittenViewsNeedNoRepair) {
  // split and join of a written array are written through: no copy, no store
  EXPECT_TRUE(repairs("def f = depFun((n: Nat) => fun(x: (4*n).f32 =>\n"
                      "  x |> split(4) |> mapSeq(mapSeq(fun(a => a + 1.0f))) |> join))")
                  .empty());
}

TEST(AccessAnalysis, ZipOfWrittenAndReadIsWritten) {
  // zip of a written and a read array is written: the read one is copied,
  // and the zip, read by reduceSeq, is stored
  EXPECT_EQ(repairs("def f = depFun((n: Nat) => fun(x: n.f32 =>\n"
                    "  zip(x |> mapSeq(fun(a => a)))(x) |> reduceSeq(fun(acc, p => acc + fst(p)))"
                    "(0.0f)))"),
            (std::multiset<std::string>{"copy x", "toMem zip"}));
}

// Every program of the corpora, lowered for each target, translates to DPIA
// without a missing `toMem` or copy: the analysis found every repair.
TEST(AccessAnalysis, LoweredCorporaTranslate) {
  int lowered = 0;
  for (const char* dir : {"rise", "e2e", "shine"}) {
    fs::path base = fs::path(RISEC_TEST_DATA) / dir;
    for (const std::string& file : test::filesWithExtension(base, ".rise")) {
      Program program;
      try {
        program = parseProgram(makeSourceFile(file, test::readFile(base / file)));
      } catch (const CompileError&) {
        continue; // an error case of its own
      }
      if (program.defs.empty())
        continue;
      const Def& d = program.defs.back(); // the entry; earlier defs are inlined into it
      {
        for (lower::LowerTarget target :
             {lower::LowerTarget::C, lower::LowerTarget::OpenMP, lower::LowerTarget::OpenCL}) {
          SCOPED_TRACE(file + ": " + d.name + ", target " +
                       std::to_string(static_cast<int>(target)));
          TypedDef def;
          try {
            def = inferDef(program, d.name);
          } catch (const CompileError&) {
            break;
          }
          TypedDef low;
          try {
            low = lower::lowerToC(program, def, target);
          } catch (const CompileError& e) {
            EXPECT_NE(e.code(), "E0601");
            EXPECT_NE(e.code(), "E0602");
            continue; // not a compiled entry, or not for this target
          }
          ++lowered;
          try {
            dpia::fromRise(low);
          } catch (const CompileError& e) {
            EXPECT_NE(e.code(), "E0601") << e.message();
            EXPECT_NE(e.code(), "E0602") << e.message();
          }
        }
      }
    }
  }
  EXPECT_GE(lowered, 100);
}
