// DPIA: phrase types, RISE -> functional DPIA with read/write checking
// (RISE & Shine §V-B), lowerToC's repairs, and accT/conT to imperative DPIA.
#include "dpia/FromRise.h"
#include "dpia/Imperative.h"
#include "dpia/Primitive.h"
#include "dpia/Printer.h"
#include "dpia/Translate.h"
#include "lower/LowerToC.h"
#include "rise/infer/Infer.h"
#include "rise/infer/Signatures.h"
#include "rise/parse/Parser.h"
#include "rise/print/Printer.h"
#include "support/Diagnostic.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

using namespace risec;
using namespace risec::rise;
using namespace risec::dpia;

namespace {

struct Parsed {
  rise::Program program;
  TypedDef def;
};

Parsed parse(const std::string& text) {
  Parsed p;
  p.program = parseProgram(makeSourceFile("test.rise", text));
  p.def = inferDef(p.program, p.program.defs.back().name);
  return p;
}

dpia::Program functional(const std::string& text) {
  return fromRise(parse(text).def);
}

TypedDef lowered(const std::string& text) {
  Parsed p = parse(text);
  return lower::lowerToC(p.program, p.def);
}

/// The imperative command of `text`, lowered for `target`.
Phrase imperativeCommand(const std::string& text,
                         lower::LowerTarget target = lower::LowerTarget::C) {
  Parsed parsed = parse(text);
  dpia::Program p = fromRise(lower::lowerToC(parsed.program, parsed.def, target));
  translateToImperative(p);
  return p.command;
}

/// The primitive applications named `name` in `p`, outermost first.
void collectPrims(const Phrase& p, const std::string& name, std::vector<Phrase>& out) {
  if (p->kind() == PhraseKind::Prim && p->prim().name == name)
    out.push_back(p);
  mapChildren(p, [&](const Phrase& c) {
    collectPrims(c, name, out);
    return c;
  });
}

std::string imperative(const std::string& text) {
  dpia::Program p = fromRise(lowered(text));
  translateToImperative(p);
  return printProgram(p, true);
}

CompileError compileError(const std::string& text) {
  try {
    functional(text);
  } catch (const CompileError& e) {
    return e;
  }
  ADD_FAILURE() << "expected a CompileError";
  return CompileError("", {}, "");
}

const char* kListing5 = R"(def listing5 = depFun((n: Nat, m: Nat) => fun(M: n.m.f32 =>
  M |> mapSeq(fun(row =>
    row |> mapSeq(fun(x => x * 2.0f)) |> mapSeq(fun(x => x + 1.0f))))))
)";

const char* kListing5ToMem = R"(def listing5 = depFun((n: Nat, m: Nat) => fun(M: n.m.f32 =>
  M |> mapSeq(fun(row =>
    row |> mapSeq(fun(x => x * 2.0f)) |> toMem |> mapSeq(fun(x => x + 1.0f))))))
)";

const char* kMv = R"(def mv = depFun((n: Nat, m: Nat) =>
  fun(M: n.m.f32 => fun(x: m.f32 =>
    M |> map(fun(row =>
      zip(row)(x) |> map(fun(ax => fst(ax) * snd(ax))) |> reduce(add)(0.0f))))))
)";

} // namespace

// ---- phrase types ------------------------------------------------------------------

TEST(DpiaPhraseType, PrintsInThePapersNotation) {
  Nat n = natVar("n");
  Type arr = arrayType(n, scalarType(ScalarKind::F32));
  EXPECT_EQ(phraseTypeToString(expType(arr, Access::Rd)), "Exp[n.f32, Rd]");
  EXPECT_EQ(phraseTypeToString(accType(arr)), "Acc[n.f32]");
  EXPECT_EQ(phraseTypeToString(commType()), "Comm");
  EXPECT_EQ(phraseTypeToString(funPhraseType(expType(scalarType(ScalarKind::F32), Access::Rd),
                                             expType(scalarType(ScalarKind::F32), Access::Wr))),
            "Exp[f32, Rd] -> Exp[f32, Wr]");
  EXPECT_EQ(phraseTypeToString(pairPhraseType(expType(arr, Access::Rd), accType(arr))),
            "(Exp[n.f32, Rd] x Acc[n.f32])");
}

TEST(DpiaPhraseType, OnlyAssignableDataMayBeReadWhereWrittenIsNeeded) {
  Type f32 = scalarType(ScalarKind::F32);
  EXPECT_TRUE(copiedByAssignment(f32));
  EXPECT_TRUE(copiedByAssignment(pairType(f32, scalarType(ScalarKind::I32))));
  EXPECT_FALSE(copiedByAssignment(arrayType(natConst(4), f32)));
  EXPECT_FALSE(copiedByAssignment(pairType(f32, arrayType(natConst(4), f32))));
}

// ---- RISE -> DPIA: read/write annotations -------------------------------------------

TEST(DpiaFromRise, AnnotatesPrimitivesAsInListing6) {
  dpia::Program p = functional(kListing5ToMem);
  EXPECT_EQ(phraseTypeToString(p.body->type()), "Exp[n.m.f32, Wr]");
  ASSERT_EQ(p.inputs.size(), 1u);
  EXPECT_EQ(phraseTypeToString(p.inputs[0]->type()), "Exp[n.m.f32, Rd]");
  EXPECT_EQ(printPhrase(p.body),
            "mapSeq(n, m.f32, m.f32, fun(row => mapSeq(m, f32, f32, fun(x => add(f32, x, 1.0f)), "
            "toMem(m.f32, mapSeq(m, f32, f32, fun(x2 => mul(f32, x2, 2.0f)), row)))), M)");
}

TEST(DpiaFromRise, RejectsListing5WithoutToMem) {
  CompileError e = compileError(kListing5);
  EXPECT_EQ(e.code(), "E0601");
  EXPECT_EQ(headline(e),
            "test.rise:3:12: error: the result of `mapSeq` (written to memory) is read by "
            "`mapSeq` at 3:42 without being stored; insert `toMem` after it (`... |> toMem`) to "
            "choose the memory that holds it (RISE & Shine, Listing 5)");
}

TEST(DpiaFromRise, RejectsAViewOfMemoryAsTheOutputWithoutACopy) {
  CompileError e =
      compileError("def tr = depFun((n: Nat, m: Nat) => fun(A: n.m.i32 => A |> transpose))\n");
  EXPECT_EQ(e.code(), "E0602");
  EXPECT_NE(e.message().find("`transpose` is a view of memory of type `m.n.i32`, but the output "
                             "must write it"),
            std::string::npos)
      << e.message();
  EXPECT_EQ(e.location().line, 1);
  EXPECT_EQ(e.location().column, 60); // `transpose`
}

TEST(DpiaFromRise, AcceptsAScalarReadWhereAWriteIsNeeded) {
  // reduceSeq's result is Rd; as the program's f32 result it is written by one assignment
  dpia::Program p =
      functional("def s = depFun(n: Nat => fun(xs: n.f32 => xs |> reduceSeq(add, 0.0f)))\n");
  EXPECT_EQ(phraseTypeToString(p.body->type()), "Exp[f32, Rd]");
}

TEST(DpiaFromRise, ViewsAreWritableWhenTheirInputIsWritten) {
  dpia::Program p =
      functional("def sj = depFun(n: Nat => fun(xs: (4*n).f32 =>\n"
                 "  xs |> split(4) |> mapSeq(mapSeq(fun(x => x * 2.0f))) |> join))\n");
  EXPECT_EQ(phraseTypeToString(p.body->type()), "Exp[(4*n).f32, Wr]");
}

TEST(DpiaFromRise, HighLevelReduceMustBeLoweredFirst) {
  CompileError e =
      compileError("def s = depFun(n: Nat => fun(xs: n.f32 => xs |> reduce(add, 0.0f)))\n");
  EXPECT_EQ(e.code(), "E0603");
}

// ---- lowerToC ---------------------------------------------------------------------------

TEST(DpiaLowerToC, MakesEveryChoiceSequentiallyAndInsertsToMem) {
  TypedDef d = lowered(kMv);
  EXPECT_EQ(printExpr(d.expr),
            "depFun((n: Nat, m: Nat) =>\n"
            "  fun(M: n.m.f32, x: m.f32 =>\n"
            "    M\n"
            "      |> mapSeq(fun(row =>\n"
            "        zip(row, x) |> mapSeq(fun(ax => fst(ax) * snd(ax))) |> toMem |> "
            "reduceSeq(add, 0.0f)))))");
  EXPECT_NO_THROW(fromRise(d)); // the result satisfies the DPIA type system
}

TEST(DpiaLowerToC, CopiesAViewThatMustBeWritten) {
  TypedDef d = lowered("def tr = depFun((n: Nat, m: Nat) => fun(A: n.m.i32 => A |> transpose))\n");
  EXPECT_EQ(printExpr(d.expr), "depFun((n: Nat, m: Nat) =>\n"
                               "  fun(A: n.m.i32 => A |> transpose |> mapSeq(fun(x => x |> "
                               "mapSeq(fun(x => x))))))");
  EXPECT_NO_THROW(fromRise(d));
}

TEST(DpiaLowerToC, KeepsAMapThatOnlyRearrangesDataAsAView) {
  TypedDef d = lowered("def p = depFun((n: Nat, m: Nat) => fun(A: n.m.f32 =>\n"
                       "  A |> map(padCst(1, 1, 0.0f)) |> map(map(fun(x => x + 1.0f)))))\n");
  EXPECT_EQ(printExpr(d.expr), "depFun((n: Nat, m: Nat) =>\n"
                               "  fun(A: n.m.f32 => A |> map(padCst(1, 1, 0.0f)) |> "
                               "mapSeq(mapSeq(fun(x => x + 1.0f)))))");
}

TEST(DpiaLowerToC, ListingFiveGetsItsToMem) {
  TypedDef d = lowered(kListing5);
  EXPECT_NE(printExpr(d.expr).find("mapSeq(fun(x => x * 2.0f)) |> toMem |> mapSeq"),
            std::string::npos)
      << printExpr(d.expr);
}

TEST(DpiaLowerToC, ComputesAZippedMapInTheSequentialLoopThatReadsIt) {
  // the sums are computed in the loop over the zip, not stored first; the
  // pair built for the loop's element is taken apart where it is read
  TypedDef d = lowered("def z = depFun((n: Nat, m: Nat) => fun(A: n.m.f32, y: n.f32 =>\n"
                       "  zip(A |> map(reduceSeq(add, 0.0f)), y) |> mapSeq(fun(q => fst(q) * "
                       "snd(q)))))\n");
  std::string low = printExpr(d.expr);
  EXPECT_EQ(low.find("toMem"), std::string::npos) << low;
  EXPECT_NE(low.find("zip(A, y) |> mapSeq(fun(p1 => (fst(p1) |> reduceSeq(add, 0.0f)) * snd(p1)))"),
            std::string::npos)
      << low;
  EXPECT_NO_THROW(fromRise(d));
  // a map whose function stores nothing is left as it was
  TypedDef v = lowered("def z = depFun(n: Nat => fun(y: n.f32 =>\n"
                       "  zip(y |> map(fun(x => x * 2.0f)), y) |> mapSeq(fun(q => "
                       "fst(q) * snd(q)))))\n");
  EXPECT_EQ(printExpr(v.expr).find("fun(p1 =>"), std::string::npos) << printExpr(v.expr);
}

// ---- accT / conT ---------------------------------------------------------------------------

TEST(DpiaTranslate, MatrixVectorAsInListing10) {
  EXPECT_EQ(imperative(kMv),
            "// mv : (n: Nat) -> (m: Nat) -> n.m.f32 -> m.f32 -> n.f32\n"
            "depFun((n: Nat, m: Nat) =>\n"
            "fun(M: Exp[n.m.f32, Rd] =>\n"
            "fun(x: Exp[m.f32, Rd] =>\n"
            "  // output: Acc[n.f32]\n"
            "  for(n, fun(i =>  // mapSeq\n"
            "    new(m.f32, fun(tmp =>\n"
            "      for(m, fun(j =>  // mapSeq\n"
            "        idxAcc(m, j, tmp.2) = mul(f32, fst(f32, f32, idx(m, (f32, f32), j, zip(m, "
            "f32, f32, idx(n, m.f32, i, M), x))), snd(f32, f32, idx(m, (f32, f32), j, zip(m, f32, "
            "f32, idx(n, m.f32, i, M), x))))));\n"
            "      new(f32, fun(acc =>\n"
            "        acc.2 = 0.0f;\n"
            "        for(m, fun(j =>  // reduceSeq\n"
            "          acc.2 = add(f32, acc.1, idx(m, f32, j, tmp.1))));\n"
            "        idxAcc(n, i, output) = acc.1))))))\n");
}

TEST(DpiaTranslate, WritableViewsBecomeAcceptors) {
  std::string s = imperative("def sj = depFun(n: Nat => fun(xs: (4*n).f32 =>\n"
                             "  xs |> split(4) |> mapSeq(mapSeq(fun(x => x * 2.0f))) |> join))\n");
  EXPECT_NE(s.find("idxAcc(4, j, idxAcc(n, i, joinAcc(n, 4, output))) = mul(f32, idx(4, f32, j, "
                   "idx(n, 4.f32, i, split(4, n, f32, xs))), 2.0f)"),
            std::string::npos)
      << s;
  std::string z = imperative("def z = depFun(n: Nat => fun(xs: n.f32 =>\n"
                             "  zip(xs |> mapSeq(fun(x => x + 1.0f)), xs |> mapSeq(fun(x => x * "
                             "2.0f)))))\n");
  EXPECT_NE(z.find("idxAcc(n, i, zipAcc1(output)) = add("), std::string::npos) << z;
  EXPECT_NE(z.find("idxAcc(n, i, zipAcc2(output)) = mul("), std::string::npos) << z;
}

TEST(DpiaTranslate, AMapOfLayoutFunctionsInTheWritePathIsAnAcceptor) {
  // map(transpose) and map(join) of a written array are written through (a
  // mapAcc of the element acceptors), as Shine's DPIA does: no temporary, no
  // copy loop
  const char* text = "def wt = depFun((n: Nat, m: Nat, k: Nat) => fun(A: n.m.k.f32 =>\n"
                     "  A |> mapSeq(mapSeq(mapSeq(fun(x => x * 2.0f))))\n"
                     "    |> map(transpose) |> map(join) |> transpose))\n";
  TypedDef d = lowered(text);
  EXPECT_EQ(printExpr(d.expr), "depFun((n: Nat, m: Nat, k: Nat) =>\n"
                               "  fun(A: n.m.k.f32 =>\n"
                               "    A |> mapSeq(mapSeq(mapSeq(fun(x => x * 2.0f)))) |> "
                               "map(transpose) |> map(join) |> transpose))");
  std::string s = imperative(text);
  EXPECT_EQ(s.find("new("), std::string::npos) << s;
  EXPECT_NE(s.find("idxAcc(k, k, idxAcc(m, j, idxAcc(n, i, mapAcc(n, fun(o => transposeAcc(m, "
                   "k, o)), mapAcc(n, fun(o2 => joinAcc(k, m, o2)), transposeAcc(n, k*m, "
                   "output)))))) = mul(f32, idx(k, f32, k, idx(m, k.f32, j, idx(n, m.k.f32, i, "
                   "A))), 2.0f)"),
            std::string::npos)
      << s;
  // a map whose function computes is not a layout function: it stays a loop
  // reading a stored value
  std::string c = imperative("def c = depFun((n: Nat, m: Nat) => fun(A: n.m.f32 =>\n"
                             "  A |> mapSeq(mapSeq(fun(x => x * 2.0f)))\n"
                             "    |> map(map(fun(x => x + 1.0f)))))\n");
  EXPECT_NE(c.find("new(n.m.f32"), std::string::npos) << c;
  EXPECT_EQ(c.find("mapAcc"), std::string::npos) << c;
}

TEST(DpiaTranslate, AMapOverRotateValuesKeepsOnlyTheWindowInRotatingValues) {
  // Shine's iterateStream over oclRotateValues: sz values, one new value per
  // step, then rotated, instead of all n + sz - 1 values at once
  std::string s = imperative("def rv = depFun(n: Nat => fun(xs: (n + 2).f32 =>\n"
                             "  xs |> rotateValues(Private)(3)(fun(x => x * 2.0f))\n"
                             "    |> mapSeq(reduceSeq(add, 0.0f))))\n");
  EXPECT_NE(s.find("new(3.f32, fun(buf =>\n"
                   "    for(2, fun(i =>  // rotateValues: the first values\n"
                   "      idxAcc(3, i, buf.2) = mul(f32, idx(n + 2, f32, i, xs), 2.0f)));\n"
                   "    for(n, fun(i =>  // mapSeq\n"
                   "      idxAcc(3, 2, buf.2) = mul(f32, idx(n + 2, f32, i + 2, xs), 2.0f);"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("for(2, fun(j =>  // rotateValues: rotate\n"
                   "        idxAcc(3, j, buf.2) = idx(3, f32, j + 1, buf.1))"),
            std::string::npos)
      << s;
}

TEST(DpiaTranslate, IterateUsesTwoBuffersAndWritesTheLastStepToTheOutput) {
  std::string s = imperative("def t = depFun(m: Nat => fun(xs: (8*m).f32 =>\n"
                             "  xs |> iterate(3)(depFun(l: Nat => fun(ys => ys |> split(2) |> "
                             "map(reduce(add)(0.0f)))))))\n");
  EXPECT_NE(s.find("new((4*m).f32, fun(bufA =>"), std::string::npos) << s;
  EXPECT_NE(s.find("new((4*m).f32, fun(bufB =>"), std::string::npos) << s;
  EXPECT_NE(s.find("idxAcc(2*m, i, takeAcc(2*m, 2*m, bufB.2))"), std::string::npos) << s;
  EXPECT_NE(s.find("idxAcc(m, i, output) = acc3.1"), std::string::npos) << s;
}

// ---- origins: the RISE primitive behind a command, as data -------------------------

const char* kLocalTile = R"(def f = depFun(n: Nat => fun(xs: (8*n).f32 =>
  xs |> split(8) |> mapWorkGroup(0)(fun(row =>
    row |> mapLocal(0)(fun(x => x * 2.0f)) |> toLocal |> mapLocal(0)(fun(x => x + 1.0f)))) |> join))
)";

TEST(DpiaOrigin, OpenCLMapsRecordTheirPrimitiveAndDimension) {
  std::vector<Phrase> loops;
  collectPrims(imperativeCommand(kLocalTile, lower::LowerTarget::OpenCL), "parFor", loops);
  ASSERT_EQ(loops.size(), 3u);
  EXPECT_EQ(loops[0]->tag(), "mapWorkGroup(0)");
  EXPECT_EQ(loops[0]->origin().prim, rise::Prim::MapWorkGroup);
  for (std::size_t i = 1; i < 3; ++i) {
    EXPECT_EQ(loops[i]->origin().prim, rise::Prim::MapLocal);
    ASSERT_TRUE(loops[i]->origin().dim);
    EXPECT_TRUE(loops[i]->origin().dim->isConst(0));
  }
  std::vector<Phrase> rows;
  collectPrims(imperativeCommand("def g = depFun((n: Nat, m: Nat) => fun(M: n.m.f32 =>\n"
                                 "  M |> mapGlobal(1)(fun(r => r |> mapGlobal(0)(fun(x => x + "
                                 "1.0f))))))\n",
                                 lower::LowerTarget::OpenCL),
               "parFor", rows);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0]->origin().prim, rise::Prim::MapGlobal);
  EXPECT_TRUE(rows[0]->origin().dim->isConst(1));
  EXPECT_TRUE(rows[1]->origin().dim->isConst(0));
}

TEST(DpiaOrigin, TemporariesRecordThePrimitiveThatMadeThem) {
  std::vector<Phrase> local;
  collectPrims(imperativeCommand(kLocalTile, lower::LowerTarget::OpenCL), "new", local);
  ASSERT_EQ(local.size(), 1u);
  EXPECT_EQ(local[0]->origin().prim, rise::Prim::ToLocal);
  EXPECT_EQ(newAddrSpace(local[0]).tag, rise::AddrSpace::Tag::Local);
  // reduceSeq's accumulator (reduce lowered by lowerToC)
  std::vector<Phrase> acc;
  collectPrims(imperativeCommand(kMv), "new", acc);
  auto accumulator =
      std::find_if(acc.begin(), acc.end(), [](const Phrase& c) { return c->tag() == "acc"; });
  ASSERT_NE(accumulator, acc.end());
  EXPECT_EQ((*accumulator)->origin().prim, rise::Prim::ReduceSeq);
  // an explicit toMem
  std::vector<Phrase> tmp;
  collectPrims(imperativeCommand(kListing5ToMem), "new", tmp);
  ASSERT_EQ(tmp.size(), 1u);
  EXPECT_EQ(tmp[0]->origin().prim, rise::Prim::ToMem);
  // the translation's own loops record nothing
  std::vector<Phrase> fors;
  collectPrims(imperativeCommand(kListing5ToMem), "for", fors);
  ASSERT_FALSE(fors.empty());
  EXPECT_FALSE(fors[0]->origin().prim.has_value());
}

TEST(DpiaOrigin, TemporariesRecordTheirRole) {
  // what a `new` holds for its primitive is data on it, not its name
  auto news = [](const std::string& text, lower::LowerTarget target) {
    std::vector<Phrase> out;
    collectPrims(imperativeCommand(text, target), "new", out);
    return out;
  };
  std::vector<Phrase> local = news(kLocalTile, lower::LowerTarget::OpenCL);
  ASSERT_EQ(local.size(), 1u);
  EXPECT_EQ(local[0]->origin().role, TempRole::Value);
  std::size_t accumulators = 0;
  for (const Phrase& c : news(kMv, lower::LowerTarget::C))
    if (c->origin().prim == rise::Prim::ReduceSeq) {
      EXPECT_EQ(c->origin().role, TempRole::Accumulator) << c->tag();
      ++accumulators;
    }
  EXPECT_EQ(accumulators, 1u);
  std::vector<Phrase> bufs = news("def t = depFun(m: Nat => fun(xs: (8*m).f32 =>\n"
                                  "  xs |> iterate(3)(depFun(l: Nat => fun(ys => ys |> split(2) |> "
                                  "map(reduce(add)(0.0f)))))))\n",
                                  lower::LowerTarget::C);
  std::size_t doubleBuffers = 0;
  for (const Phrase& c : bufs)
    if (c->origin().prim == rise::Prim::Iterate) {
      EXPECT_EQ(c->origin().role, TempRole::DoubleBuffer) << c->tag();
      ++doubleBuffers;
    }
  EXPECT_EQ(doubleBuffers, 2u);
  std::vector<Phrase> window = news("def rv = depFun(n: Nat => fun(xs: (n + 2).f32 =>\n"
                                    "  xs |> rotateValues(Private)(3)(fun(x => x * 2.0f))\n"
                                    "    |> mapSeq(reduceSeq(add, 0.0f))))\n",
                                    lower::LowerTarget::C);
  ASSERT_FALSE(window.empty());
  EXPECT_EQ(window[0]->origin().role, TempRole::Buffer);
  // reducePar's accumulator, made by the translation without a RISE primitive
  std::vector<Phrase> par = news("def s = depFun(n: Nat => fun(xs: n.f32 =>\n"
                                 "  xs |> reducePar(add)(0.0f)))\n",
                                 lower::LowerTarget::OpenMP);
  ASSERT_EQ(par.size(), 1u);
  EXPECT_FALSE(par[0]->origin().prim.has_value());
  EXPECT_EQ(par[0]->origin().role, TempRole::Accumulator);
}

TEST(DpiaPrimitives, TypedHandlesAreTheRegisteredPrimitives) {
  // The handles of dpia/Primitive.h that the passes use instead of names.
  using namespace risec::dpia;
  const PrimitiveDef* handles[] = {
      &primitive::barrier(),      &primitive::discardTailAcc(), &primitive::forLoop(),
      &primitive::foreign(),      &primitive::indexAsNat(),     &primitive::natAsIndex(),
      &primitive::newVar(),       &primitive::parFor(),         &primitive::parForCombine(),
      &primitive::parForReduce(), &primitive::rotateValues(),   &primitive::seq(),
      &primitive::skip()};
  std::set<const PrimitiveDef*> distinct(std::begin(handles), std::end(handles));
  EXPECT_EQ(distinct.size(), std::size(handles));
  for (const PrimitiveDef* h : handles)
    EXPECT_EQ(findPrimitive(h->name), h) << h->name;
  EXPECT_EQ(primitive::forLoop().name, "for");
  EXPECT_EQ(primitive::newVar().name, "new");
}

// ---- argument access: from the primitive table, one source -------------------------

namespace {

/// What the translation demands of an argument the table declares as `u`.
void expectAccessOf(const rise::ArgUse& u, const ArgAccess& a) {
  switch (u.kind) {
  case rise::ArgUse::Read:
    EXPECT_EQ(a.kind, ArgAccess::Kind::Rd);
    return;
  case rise::ArgUse::Write:
    EXPECT_EQ(a.kind, ArgAccess::Kind::Wr);
    return;
  case rise::ArgUse::View:
    EXPECT_EQ(a.kind, ArgAccess::Kind::Poly);
    return;
  case rise::ArgUse::Fun:
    ASSERT_EQ(a.kind, ArgAccess::Kind::Fun);
    EXPECT_EQ(a.arity, u.arity);
    EXPECT_EQ(a.depNat, u.depNat);
    EXPECT_EQ(a.anyBody, u.anyBody);
    EXPECT_EQ(a.body, u.writesBody ? Access::Wr : Access::Rd);
    return;
  }
  ADD_FAILURE() << "unknown ArgUse kind";
}

} // namespace

TEST(DpiaPrimitives, EveryRisePrimitivesAccessIsItsTableRow) {
  // Every RISE primitive that reaches DPIA is checked by the translation
  // against the `uses(...)` of its row (scalar operators and math functions:
  // every argument read): nothing in dpia/primitives/*.cpp says otherwise.
  for (Prim p : allPrims()) {
    SCOPED_TRACE(std::string(primName(p)));
    const PrimitiveDef* def = primitiveForRise(p);
    const PrimAccess& row = primInfo(p).traits.access;
    if (!def) {
      // only what lowerToC always replaces, and then the table has no uses
      EXPECT_FALSE(row.defined);
      EXPECT_FALSE(isScalarPrimitive(p));
      EXPECT_THROW(accessFromTable(p), InternalError);
      continue;
    }
    EXPECT_EQ(def->rise, p);
    if (!row.defined) {
      ASSERT_TRUE(isScalarPrimitive(p)) << "a DPIA definition without `uses(...)` in its row";
      ASSERT_EQ(static_cast<int>(def->access.size()), valueArity(p));
      for (const ArgAccess& a : def->access)
        EXPECT_EQ(a.kind, ArgAccess::Kind::Rd);
      EXPECT_EQ(def->result.kind, ResultAccess::Kind::Fixed);
      EXPECT_EQ(def->result.access, Access::Rd);
      EXPECT_FALSE(def->writableView);
      continue;
    }
    ASSERT_EQ(def->access.size(), row.count);
    EXPECT_EQ(static_cast<int>(row.count), valueArity(p));
    for (std::size_t i = 0; i < row.count; ++i) {
      SCOPED_TRACE("argument " + std::to_string(i));
      expectAccessOf(row.args[i], def->access[i]);
    }
    switch (row.result) {
    case PrimAccess::Result::Read:
    case PrimAccess::Result::Written:
      EXPECT_EQ(def->result.kind, ResultAccess::Kind::Fixed);
      EXPECT_EQ(def->result.access,
                row.result == PrimAccess::Result::Written ? Access::Wr : Access::Rd);
      break;
    case PrimAccess::Result::View:
      EXPECT_EQ(def->result.kind, ResultAccess::Kind::Poly);
      break;
    case PrimAccess::Result::FunBody:
      EXPECT_EQ(def->result.kind, ResultAccess::Kind::FunBody);
      EXPECT_EQ(def->result.arg, row.funArg);
      break;
    }
    EXPECT_EQ(def->writableView, row.writableView);
  }
  // one definition per RISE primitive
  std::set<Prim> seen;
  for (const PrimitiveDef* d : allPrimitives())
    if (d->rise) {
      EXPECT_TRUE(seen.insert(*d->rise).second) << d->name;
      EXPECT_EQ(primitiveForRise(*d->rise), d) << d->name;
    }
}

TEST(DpiaPrimitives, AccessFromTheTableSpotChecks) {
  // a few rows spelt out, so that a wrong conversion cannot agree with itself
  AccessSignature reduce = accessFromTable(Prim::ReduceSeq);
  ASSERT_EQ(reduce.args.size(), 3u);
  EXPECT_EQ(reduce.args[0].kind, ArgAccess::Kind::Fun);
  EXPECT_EQ(reduce.args[0].arity, 2);
  EXPECT_EQ(reduce.args[0].body, Access::Wr);
  EXPECT_EQ(reduce.args[1].kind, ArgAccess::Kind::Wr);
  EXPECT_EQ(reduce.args[2].kind, ArgAccess::Kind::Rd);
  EXPECT_EQ(reduce.result.kind, ResultAccess::Kind::Fixed);
  EXPECT_EQ(reduce.result.access, Access::Rd);
  AccessSignature zip = accessFromTable(Prim::Zip);
  ASSERT_EQ(zip.args.size(), 2u);
  EXPECT_EQ(zip.args[1].kind, ArgAccess::Kind::Poly);
  EXPECT_EQ(zip.result.kind, ResultAccess::Kind::Poly);
  EXPECT_TRUE(zip.writableView);
  EXPECT_FALSE(accessFromTable(Prim::Slide).writableView);
  AccessSignature let = accessFromTable(Prim::Let);
  ASSERT_EQ(let.args.size(), 2u);
  EXPECT_TRUE(let.args[1].anyBody);
  EXPECT_EQ(let.result.kind, ResultAccess::Kind::FunBody);
  EXPECT_EQ(let.result.arg, 1u);
  AccessSignature iterate = accessFromTable(Prim::OclIterate);
  EXPECT_TRUE(iterate.args[0].depNat);
  EXPECT_EQ(iterate.result.access, Access::Wr);
  AccessSignature select = accessFromTable(Prim::Select);
  EXPECT_EQ(select.args.size(), 3u);
  EXPECT_EQ(accessFromTable(Prim::Neg).args.size(), 1u);
  EXPECT_THROW(accessFromTable(Prim::Reduce), InternalError);
}
