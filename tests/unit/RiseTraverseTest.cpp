// Tests of the child traversal of the RISE AST (rise/ast/Traverse.h): the
// order of the children of every kind, anyChild, and mapChildren keeping the
// node itself when nothing changes and every field when something does.
#include "rise/ast/Traverse.h"
#include "support/Diagnostic.h"

#include <gtest/gtest.h>

#include <functional>
#include <vector>

using namespace risec;
using namespace risec::rise;

namespace {

SourceLocation at(int line, int column) {
  static auto file = std::make_shared<const SourceFile>(SourceFile{"t.rise", ""});
  SourceLocation loc;
  loc.file = file;
  loc.line = line;
  loc.column = column;
  return loc;
}

Type f32() {
  return scalarType(ScalarKind::F32);
}

Expr x() {
  return makeVar("x", at(1, 1), f32());
}
Expr y() {
  return makeVar("y", at(1, 3), f32());
}

std::vector<const ExprNode*> children(const Expr& e) {
  std::vector<const ExprNode*> out;
  forEachChild(e, [&](const Expr& c) { out.push_back(c.get()); });
  return out;
}

/// One node of every kind.
std::vector<Expr> everyKind() {
  auto decl = std::make_shared<ForeignDecl>();
  decl->name = "sq";
  decl->result = f32();
  return {x(),
          makeLambda("x", f32(), x(), at(2, 1), funType(f32(), f32())),
          makeApp(makePrimitive(Prim::Fst, at(3, 1)), y(), at(3, 2), f32()),
          makeDepLambda(DepBinder::fresh(Kind::Nat, "n"), x(), at(4, 1)),
          makeDepApp(makePrimitive(Prim::Split, at(5, 1)), natConst(4), true, at(5, 2)),
          makeLiteral(ScalarValue::makeFloat(ScalarKind::F32, 1.5), at(6, 1), f32()),
          makePrimitive(Prim::Map, at(7, 1)),
          makeForeign(decl, at(8, 1), f32())};
}

} // namespace

TEST(RiseTraverseTest, ForEachChildOrderPerKind) {
  Expr lam = makeLambda("x", nullptr, x(), at(2, 1));
  EXPECT_EQ(children(lam), std::vector<const ExprNode*>{lam->body().get()});

  Expr app = makeApp(x(), y(), at(3, 1));
  EXPECT_EQ(children(app), (std::vector<const ExprNode*>{app->fn().get(), app->arg().get()}));

  Expr depLam = makeDepLambda(DepBinder::fresh(Kind::Nat, "n"), y(), at(4, 1));
  EXPECT_EQ(children(depLam), std::vector<const ExprNode*>{depLam->body().get()});

  Expr depApp = makeDepApp(x(), natConst(2), false, at(5, 1));
  EXPECT_EQ(children(depApp), std::vector<const ExprNode*>{depApp->fn().get()});

  for (const Expr& e : everyKind()) {
    ExprKind k = e->kind();
    std::size_t n = k == ExprKind::App ? 2
                    : k == ExprKind::Lambda || k == ExprKind::DepLambda || k == ExprKind::DepApp
                        ? 1
                        : 0;
    EXPECT_EQ(children(e).size(), n) << "kind " << static_cast<int>(k);
  }
}

TEST(RiseTraverseTest, AnyChild) {
  auto isY = [](const Expr& c) { return c->kind() == ExprKind::Var && c->name() == "y"; };
  EXPECT_TRUE(anyChild(makeApp(x(), y(), {}), isY));
  EXPECT_TRUE(anyChild(makeApp(y(), x(), {}), isY));
  EXPECT_FALSE(anyChild(makeApp(x(), x(), {}), isY));
  EXPECT_TRUE(anyChild(makeLambda("z", nullptr, y(), {}), isY));
  EXPECT_TRUE(anyChild(makeDepLambda(DepBinder::fresh(Kind::Nat, "n"), y(), {}), isY));
  EXPECT_TRUE(anyChild(makeDepApp(y(), natConst(1), false, {}), isY));
  // only direct children: y under a lambda is not a child of the application
  EXPECT_FALSE(anyChild(makeApp(makeLambda("z", nullptr, y(), {}), x(), {}), isY));
  // a leaf has none; the node itself is not its own child
  EXPECT_FALSE(anyChild(y(), isY));

  // stops at the first child that holds
  int calls = 0;
  EXPECT_TRUE(anyChild(makeApp(y(), x(), {}), [&](const Expr& c) {
    ++calls;
    return isY(c);
  }));
  EXPECT_EQ(calls, 1);
}

TEST(RiseTraverseTest, MapChildrenIdentityKeepsTheNode) {
  for (const Expr& e : everyKind()) {
    int calls = 0;
    Expr r = mapChildren(e, [&](const Expr& c) {
      ++calls;
      return c;
    });
    EXPECT_EQ(r.get(), e.get()) << "kind " << static_cast<int>(e->kind());
    EXPECT_EQ(calls, static_cast<int>(children(e).size()));
  }
  // a new but equal child is a change: the node is rebuilt
  Expr lam = makeLambda("x", nullptr, x(), {});
  EXPECT_NE(mapChildren(lam, [](const Expr&) { return x(); }).get(), lam.get());
}

TEST(RiseTraverseTest, MapChildrenVisitsInOrder) {
  Expr app = makeApp(x(), y(), {});
  std::vector<std::string> seen;
  mapChildren(app, [&](const Expr& c) {
    seen.push_back(c->name());
    return c;
  });
  EXPECT_EQ(seen, (std::vector<std::string>{"x", "y"}));
}

TEST(RiseTraverseTest, MapChildrenChangeKeepsEveryField) {
  Expr z = makeVar("z", at(9, 9));
  auto toZ = [&](const Expr&) { return z; };

  Expr lam = makeLambda("x", f32(), x(), at(2, 4), funType(f32(), f32()));
  Expr lam2 = mapChildren(lam, toZ);
  ASSERT_EQ(lam2->kind(), ExprKind::Lambda);
  EXPECT_EQ(lam2->body(), z);
  EXPECT_EQ(lam2->name(), "x");
  EXPECT_EQ(lam2->paramType(), lam->paramType());
  EXPECT_EQ(lam2->type(), lam->type());
  EXPECT_EQ(lam2->loc().line, 2);
  EXPECT_EQ(lam2->loc().column, 4);
  EXPECT_EQ(lam2->loc().file, lam->loc().file);

  Expr app = makeApp(x(), y(), at(3, 5), f32());
  int i = 0;
  Expr app2 = mapChildren(app, [&](const Expr& c) { return i++ == 1 ? z : c; });
  ASSERT_EQ(app2->kind(), ExprKind::App);
  EXPECT_NE(app2.get(), app.get());
  EXPECT_EQ(app2->fn(), app->fn()); // the unchanged child is shared
  EXPECT_EQ(app2->arg(), z);
  EXPECT_EQ(app2->type(), app->type());
  EXPECT_EQ(app2->loc().line, 3);
  EXPECT_EQ(app2->loc().column, 5);

  DepBinder n = DepBinder::fresh(Kind::Nat, "n");
  Expr depLam = makeDepLambda(n, x(), at(4, 6), f32());
  Expr depLam2 = mapChildren(depLam, toZ);
  ASSERT_EQ(depLam2->kind(), ExprKind::DepLambda);
  EXPECT_EQ(depLam2->body(), z);
  EXPECT_EQ(depLam2->binder().kind, Kind::Nat);
  EXPECT_EQ(depLam2->binder().id(), n.id());
  EXPECT_EQ(depLam2->binder().name(), "n");
  EXPECT_EQ(depLam2->type(), depLam->type());
  EXPECT_EQ(depLam2->loc().line, 4);

  Expr depApp = makeDepApp(x(), natConst(4), true, at(5, 7), f32());
  Expr depApp2 = mapChildren(depApp, toZ);
  ASSERT_EQ(depApp2->kind(), ExprKind::DepApp);
  EXPECT_EQ(depApp2->fn(), z);
  EXPECT_TRUE(depApp2->implicitArg());
  ASSERT_TRUE(std::holds_alternative<Nat>(depApp2->typeArg()));
  EXPECT_TRUE(natEqual(std::get<Nat>(depApp2->typeArg()), natConst(4)));
  EXPECT_EQ(depApp2->type(), depApp->type());
  EXPECT_EQ(depApp2->loc().line, 5);
  EXPECT_EQ(depApp2->loc().column, 7);
  EXPECT_EQ(depApp2->arg(), nullptr);
}

TEST(RiseTraverseTest, MapChildrenLeavesAreUnchanged) {
  for (const Expr& e : everyKind()) {
    if (!children(e).empty())
      continue;
    bool called = false;
    Expr r = mapChildren(e, [&](const Expr& c) {
      called = true;
      return c;
    });
    EXPECT_FALSE(called);
    EXPECT_EQ(r.get(), e.get());
  }
}

TEST(RiseTraverseTest, MapChildrenRebuildsATree) {
  // x + y as add(x)(y), under fun(x => ...): rename every `y` to `z` bottom-up
  Expr add = makePrimitive(Prim::Add, at(1, 5));
  Expr body = makeApp(makeApp(add, x(), at(1, 6)), y(), at(1, 7));
  Expr lam = makeLambda("x", nullptr, body, at(1, 1));
  std::function<Expr(const Expr&)> rename = [&](const Expr& e) -> Expr {
    if (e->kind() == ExprKind::Var && e->name() == "y")
      return makeVar("z", e->loc(), e->type());
    return mapChildren(e, rename);
  };
  Expr r = rename(lam);
  EXPECT_TRUE(alphaEquivalent(
      r, makeLambda("x", nullptr, makeApp(makeApp(add, makeVar("x", {}), {}), makeVar("z", {}), {}),
                    {})));
  EXPECT_EQ(r->body()->fn().get(), body->fn().get()); // add(x) had no y: kept
  EXPECT_EQ(rename(body->fn()).get(), body->fn().get());
}

TEST(RiseTraverseTest, ReplaceChildrenChecksTheCount) {
  EXPECT_THROW(replaceChildren(makeApp(x(), y(), {}), x()), InternalError);
  EXPECT_THROW(replaceChildren(makeLambda("x", nullptr, x(), {}), x(), y()), InternalError);
  EXPECT_THROW(replaceChildren(x(), y()), InternalError);
  Expr lit = makeLiteral(ScalarValue::makeBool(true), {});
  EXPECT_EQ(replaceChildren(lit, nullptr).get(), lit.get());
}
