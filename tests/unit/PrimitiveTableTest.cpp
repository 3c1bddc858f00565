// The primitive table (rise/ast/Primitive.h, RISEC_PRIMITIVES) against the
// stages that still write a primitive's facts as code: every row is
// consistent, every signature parses, every primitive that survives lowering
// has a DPIA definition of its arity, every scalar primitive has a meaning in
// the interpreter, every math function's C spelling names the C function the
// interpreter computes, and docs/language.md lists every signature as the
// table has it (docs/architecture.md, "Adding a primitive").
#include "dpia/Primitive.h"
#include "rise/infer/Signatures.h"
#include "rise/interp/Primitives.h"

#include <gtest/gtest.h>

#include <cmath>
#include <dlfcn.h>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

using namespace risec;
using namespace risec::rise;

namespace {

std::string nameOf(Prim p) {
  return std::string(primName(p));
}

/// The value parameter types of a signature, after its dependent binders.
std::vector<Type> valueParams(Prim p) {
  Type t = signature(p);
  while (t->kind() == TypeKind::DepFun)
    t = t->result();
  std::vector<Type> out;
  for (; t->kind() == TypeKind::Fun; t = t->result())
    out.push_back(t->param());
  return out;
}

/// Whether the signature has an explicit (written) Nat parameter.
bool hasExplicitNat(Prim p) {
  for (Type t = signature(p); t->kind() == TypeKind::DepFun; t = t->result())
    if (t->binder().kind == Kind::Nat && !t->binder().implicit)
      return true;
  return false;
}

bool isSpecialScalar(Prim p) { // written as C by EmitExpressions.cpp, not by the table
  return p == Prim::Min || p == Prim::Max || p == Prim::Select;
}

} // namespace

TEST(PrimitiveTable, EveryRowIsConsistent) {
  std::set<std::string_view> names;
  for (Prim p : allPrims()) {
    const PrimInfo& info = primInfo(p);
    const PrimTraits& t = info.traits;
    SCOPED_TRACE(nameOf(p));
    EXPECT_EQ(info.prim, p);
    EXPECT_TRUE(names.insert(info.name).second) << "two rows named " << info.name;
    EXPECT_EQ(primFromName(info.name), p);
    ASSERT_NO_THROW(signature(p)) << info.signature;
    EXPECT_TRUE(signature(p));
    if (!t.infix.empty()) {
      EXPECT_EQ(valueArity(p), 2);
      EXPECT_GE(t.infixPrecedence, 1);
      EXPECT_LE(t.infixPrecedence, 6);
    }
    if (t.positiveSizes) {
      EXPECT_TRUE(hasExplicitNat(p)) << "positive sizes, but no size argument";
    }
    if (t.argumentsBeforeData >= 0) {
      EXPECT_GE(depArity(p) + valueArity(p), t.argumentsBeforeData + 1);
    }
    if (t.layoutView) {
      EXPECT_EQ(valueArity(p), 1);
    }
    // the C and vector spellings are those of scalar primitives
    bool c = !t.cOperator.empty() || !t.cMathF32.empty() || !t.openclBuiltin.empty() ||
             t.vectorOperator || t.liftableToVector;
    if (c) {
      EXPECT_TRUE(isScalarPrimitive(p));
    }
    EXPECT_EQ(t.cMathF32.empty(), t.cMathF64.empty());
    if (!t.cMathF32.empty()) {
      EXPECT_FALSE(t.openclBuiltin.empty()) << "a math function needs its OpenCL spelling";
    }
    if (t.vectorOperator) {
      EXPECT_FALSE(t.cOperator.empty());
    }
  }
}

// Every scalar primitive is spelt in C by the table: its operator, its math
// function, or one of the forms EmitExpressions.cpp writes (min, max, select).
TEST(PrimitiveTable, TheOpenClFactsComeFromTheRows) {
  // derived from the family, a trait and the signature, not listed by hand
  std::set<std::string> grid, intoSpace, takesSpace;
  for (Prim p : allPrims()) {
    if (isOpenClMap(p))
      grid.insert(std::string(primName(p)));
    if (storesInAddrSpace(p))
      intoSpace.insert(std::string(primName(p)));
    if (takesAddrSpace(p))
      takesSpace.insert(std::string(primName(p)));
  }
  EXPECT_EQ(grid, (std::set<std::string>{"mapGlobal", "mapWorkGroup", "mapLocal"}));
  EXPECT_EQ(intoSpace, (std::set<std::string>{"toGlobal", "toLocal", "toPrivate", "oclToMem"}));
  EXPECT_EQ(takesSpace, (std::set<std::string>{"oclToMem", "oclReduceSeq", "oclIterate",
                                               "circularBuffer", "rotateValues"}));
  for (Prim p : allPrims()) {
    if (storesInAddrSpace(p)) {
      EXPECT_TRUE(primInfo(p).traits.storesIntoMemory) << primName(p);
    }
  }
}

TEST(PrimitiveTable, EveryScalarPrimitiveHasACSpelling) {
  for (Prim p : allPrims()) {
    if (!isScalarPrimitive(p))
      continue;
    const PrimTraits& t = primInfo(p).traits;
    SCOPED_TRACE(nameOf(p));
    if (primFamily(p) == PrimFamily::ScalarOperator) {
      EXPECT_FALSE(t.cOperator.empty());
    } else if (!isSpecialScalar(p)) {
      EXPECT_FALSE(t.cMathF32.empty()) << "a math function without its C name";
    }
    // a math function's C spelling is one function per precision
    if (!t.cMathF32.empty()) {
      EXPECT_NE(t.cMathF32, t.cMathF64);
    }
  }
}

// Every primitive reaches DPIA, but those that lowerToC (lower/LowerToC.cpp)
// always replaces: `reduce` (by reduceSeq or reducePar) and `iterateStream`
// (by mapSeq). A new high-level primitive needs a DPIA definition or a
// lowering, and then a place in `lowered`.
TEST(PrimitiveTable, EveryPrimitiveThatReachesDpiaHasADefinitionOfItsArity) {
  const std::set<Prim> lowered = {Prim::Reduce, Prim::Scan, Prim::IterateStream};
  for (Prim p : allPrims()) {
    SCOPED_TRACE(nameOf(p));
    const dpia::PrimitiveDef* d = dpia::primitiveForRise(p);
    if (lowered.count(p)) {
      EXPECT_FALSE(d) << "has a DPIA definition: not in `lowered`";
      continue;
    }
    ASSERT_TRUE(d) << "no DPIA definition (dpia/primitives/*.cpp)";
    EXPECT_EQ(d->rise, p);
    EXPECT_EQ(static_cast<int>(d->access.size()), valueArity(p));
  }
}

namespace {

/// Runs a scalar primitive on `args` in the interpreter.
interp::Value run(Prim p, std::vector<ScalarValue> args) {
  interp::PrimCall call;
  call.prim = p;
  for (const ScalarValue& a : args)
    call.args.push_back(interp::Value::scalar(a));
  return interp::runPrimitive(call);
}

/// Sample operands of kind `k` for the parameters of `p`.
std::vector<ScalarValue> operands(Prim p, ScalarKind k) {
  std::vector<ScalarValue> out;
  double samples[] = {0.7, 0.3, 0.2};
  std::size_t i = 0;
  for (const Type& t : valueParams(p)) {
    if (t->kind() == TypeKind::Scalar && t->scalar() == ScalarKind::Bool)
      out.push_back(ScalarValue::makeBool(true));
    else if (isFloat(k))
      out.push_back(ScalarValue::makeFloat(k, samples[i]));
    else
      out.push_back(ScalarValue::makeInt(k, 7 - 2 * static_cast<std::int64_t>(i)));
    ++i;
  }
  return out;
}

/// The kinds `p` accepts for its type variable, of f32, f64 and i32.
std::vector<ScalarKind> kindsOf(Prim p) {
  for (const Type& t : valueParams(p))
    if (t->kind() == TypeKind::Var) {
      if (t->var().sort == TypeSort::Float)
        return {ScalarKind::F32, ScalarKind::F64};
      return {ScalarKind::F32, ScalarKind::F64, ScalarKind::I32};
    }
  return {ScalarKind::Bool};
}

} // namespace

TEST(PrimitiveTable, EveryScalarPrimitiveHasAnInterpreterMeaning) {
  for (Prim p : allPrims()) {
    if (!isScalarPrimitive(p))
      continue;
    for (ScalarKind k : kindsOf(p)) {
      SCOPED_TRACE(nameOf(p) + " on " + std::string(scalarName(k)));
      EXPECT_NO_THROW(run(p, operands(p, k)));
    }
  }
}

// The interpreter computes a math function with the C function whose name
// the table gives: the result of `sqrtf` found by its name in the C library.
TEST(PrimitiveTable, EveryMathFunctionIsTheCFunctionItsRowNames) {
  for (Prim p : allPrims()) {
    const PrimTraits& t = primInfo(p).traits;
    if (t.cMathF32.empty())
      continue;
    for (ScalarKind k : {ScalarKind::F32, ScalarKind::F64}) {
      std::string fn(k == ScalarKind::F32 ? t.cMathF32 : t.cMathF64);
      SCOPED_TRACE(nameOf(p) + " as " + fn);
      void* sym = dlsym(RTLD_DEFAULT, fn.c_str());
      ASSERT_TRUE(sym) << "no C function `" << fn << "`";
      std::vector<ScalarValue> args = operands(p, k);
      double expected = 0;
      if (k == ScalarKind::F32) {
        auto x = static_cast<float>(args[0].f),
             y = args.size() > 1 ? static_cast<float>(args[1].f) : 0;
        expected = args.size() == 1 ? reinterpret_cast<float (*)(float)>(sym)(x)
                                    : reinterpret_cast<float (*)(float, float)>(sym)(x, y);
      } else {
        double x = args[0].f, y = args.size() > 1 ? args[1].f : 0;
        expected = args.size() == 1 ? reinterpret_cast<double (*)(double)>(sym)(x)
                                    : reinterpret_cast<double (*)(double, double)>(sym)(x, y);
      }
      ASSERT_LE(args.size(), 2u);
      EXPECT_EQ(run(p, args).asScalar().f, expected);
    }
  }
}

namespace {

/// The cells of a Markdown table row (`\|` is a pipe inside a cell).
std::vector<std::string> cells(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  for (std::size_t i = 1; i < line.size(); ++i) {
    if (line[i] == '\\' && i + 1 < line.size() && line[i + 1] == '|') {
      cur += '|';
      ++i;
    } else if (line[i] == '|') {
      std::size_t b = cur.find_first_not_of(' '), e = cur.find_last_not_of(' ');
      out.push_back(b == std::string::npos ? "" : cur.substr(b, e - b + 1));
      cur.clear();
    } else {
      cur += line[i];
    }
  }
  return out;
}

/// The text of every `...` in `cell`.
std::vector<std::string> codeSpans(const std::string& cell) {
  std::vector<std::string> out;
  static const std::regex code("`([^`]*)`");
  for (std::sregex_iterator it(cell.begin(), cell.end(), code), end; it != end; ++it)
    out.push_back((*it)[1]);
  return out;
}

/// The type each primitive has in docs/language.md, section 7: its type
/// cell, `same` (the row above), or `same as `p``.
std::map<Prim, std::string> documentedSignatures() {
  std::ifstream in(std::string(RISEC_TEST_DATA) + "/../docs/language.md");
  std::map<Prim, std::string> out;
  std::map<std::string, std::string> byName;
  std::string line, previous;
  bool inSection = false;
  while (std::getline(in, line)) {
    if (line.rfind("## ", 0) == 0)
      inSection = line.rfind("## 7.", 0) == 0;
    if (!inSection || line.rfind("| `", 0) != 0)
      continue;
    std::vector<std::string> row = cells(line);
    std::vector<std::string> names = codeSpans(row[0]);
    std::vector<Prim> prims;
    for (const std::string& n : names)
      if (auto p = primFromName(n))
        prims.push_back(*p);
    if (prims.empty() || prims.size() != names.size())
      continue; // not a row of primitives (Shine's missing ones)
    std::string type;
    for (std::size_t i = 1; i < row.size() && type.empty(); ++i) {
      if (row[i] == "same")
        type = previous;
      else if (row[i].rfind("same as `", 0) == 0)
        type = byName[codeSpans(row[i]).at(0)];
      else if (codeSpans(row[i]).size() == 1 && row[i].front() == '`' && row[i].back() == '`' &&
               row[i].find("->") != std::string::npos)
        type = codeSpans(row[i])[0];
    }
    previous = type;
    for (Prim p : prims) {
      out[p] = type;
      byName[nameOf(p)] = type;
    }
  }
  return out;
}

} // namespace

TEST(PrimitiveTable, LanguageDocListsEverySignature) {
  std::map<Prim, std::string> documented = documentedSignatures();
  ASSERT_FALSE(documented.empty()) << "docs/language.md not found or not parsed";
  for (Prim p : allPrims()) {
    SCOPED_TRACE(nameOf(p));
    auto it = documented.find(p);
    ASSERT_NE(it, documented.end()) << "not in docs/language.md, section 7";
    EXPECT_EQ(it->second, signatureText(p));
  }
}
