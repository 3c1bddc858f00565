// The printer works on a small layout model: every node is printed knowing
// the indentation of its line and the column where it starts. Only lambdas
// and pipelines may break lines; each first tries its one-line form and
// breaks only when that would run past PrintOptions::width.
#include "rise/print/Printer.h"

#include "rise/print/SurfaceForms.h"

#include <cmath>
#include <cstdio>
#include <optional>

namespace risec::rise {

namespace {

using namespace surface;

// Precedence levels of the printed syntax (higher binds tighter). Binary
// operators use 1 + infixPrecedence(op), i.e. 2 (||) to 7 (* / %).
constexpr int kPipeLevel = 0;
constexpr int kComposeLevel = 1;
constexpr int kUnaryLevel = 8;
constexpr int kPostfixLevel = 9;
constexpr int kAtomLevel = 10;

int binaryLevel(Prim op) {
  return 1 + infixPrecedence(op);
}

bool isNegativeOrSpecial(const ScalarValue& v) {
  if (isFloat(v.kind))
    return std::signbit(v.f) || !std::isfinite(v.f);
  return !isUnsignedInt(v.kind) && v.kind != ScalarKind::Bool && v.i < 0;
}

/// There is no literal syntax for nan and infinity; print a division that
/// produces them.
std::optional<std::string> nonFiniteText(const ScalarValue& v) {
  if (!isFloat(v.kind) || std::isfinite(v.f))
    return std::nullopt;
  std::string suffix = v.kind == ScalarKind::F32 ? "f" : "";
  if (std::isnan(v.f))
    return "0.0" + suffix + " / 0.0" + suffix;
  return std::string(v.f < 0 ? "-" : "") + "1.0" + suffix + " / 0.0" + suffix;
}

int literalLevel(const ScalarValue& v) {
  if (nonFiniteText(v))
    return binaryLevel(Prim::Div);
  return isNegativeOrSpecial(v) ? kUnaryLevel : kAtomLevel;
}

std::string literalString(const ScalarValue& v) {
  if (auto t = nonFiniteText(v))
    return *t;
  return literalText(v);
}

/// `[1.0f, -2.0f]`: the elements are literals, so no layout is needed.
std::string arrayLiteralString(const Expr& e) {
  std::string out = "[";
  for (std::size_t i = 0; i < e->elements().size(); ++i) {
    const Expr& x = e->elements()[i];
    out +=
        (i ? ", " : "") + (x->isArrayLiteral() ? arrayLiteralString(x) : literalText(x->value()));
  }
  return out + "]";
}

/// The minimum of a signed type: `-2147483648` re-parses as neg(minimum).
bool isSignedMinimum(const ScalarValue& v) {
  if (isFloat(v.kind) || isUnsignedInt(v.kind) || v.kind == ScalarKind::Bool)
    return false;
  int bits = scalarBits(v.kind);
  return bits == 64 ? v.i == INT64_MIN : v.i == -(std::int64_t{1} << (bits - 1));
}

/// Column after printing `text` starting at column `col`.
int columnAfter(int col, const std::string& text) {
  auto nl = text.rfind('\n');
  if (nl == std::string::npos)
    return col + static_cast<int>(text.size());
  return static_cast<int>(text.size() - nl - 1);
}

struct Layout {
  int indent = 0;   ///< indentation of the current line
  int col = 0;      ///< column where the text being printed starts
  bool flat = true; ///< never break lines

  Layout at(int column) const { return {indent, column, flat}; }
  Layout after(const std::string& text) const { return at(columnAfter(col, text)); }
  Layout nextLine(int extra) const { return {indent + extra, indent + extra, flat}; }
};

class ExprPrinter {
public:
  explicit ExprPrinter(const PrintOptions& opts) : opts_(opts) {}

  std::string print(const Expr& e, int minLevel, Layout l) const {
    Expr s = stripImplicit(e);
    if (levelOf(s) < minLevel)
      return "(" + printBare(s, l.at(l.col + 1)) + ")";
    return printBare(s, l);
  }

private:
  int levelOf(const Expr& e) const {
    switch (e->kind()) {
    case ExprKind::Literal:
      return e->isArrayLiteral() ? kAtomLevel : literalLevel(e->value());
    case ExprKind::Lambda:
      return asComposition(e, opts_.showTypes) ? kComposeLevel : kAtomLevel;
    case ExprKind::App:
      if (auto in = asInfix(e))
        return binaryLevel(in->op);
      if (asPrefix(e))
        return kUnaryLevel;
      if (asPair(e))
        return kAtomLevel;
      return isPipeline(e) ? kPipeLevel : kPostfixLevel;
    case ExprKind::DepApp:
      return kPostfixLevel;
    default:
      return kAtomLevel;
    }
  }

  std::string printBare(const Expr& e, Layout l) const {
    switch (e->kind()) {
    case ExprKind::Var:
      return e->name();
    case ExprKind::Primitive:
      return std::string(primName(e->prim()));
    case ExprKind::Foreign:
      return e->foreign() ? e->foreign()->name : "<foreign>";
    case ExprKind::Literal:
      return e->isArrayLiteral() ? arrayLiteralString(e) : literalString(e->value());
    case ExprKind::Lambda:
      if (auto c = asComposition(e, opts_.showTypes))
        return printComposition(*c, l);
      return breakable(e, l, [this](const Expr& x, Layout y) { return printLambda(x, y); });
    case ExprKind::DepLambda:
      return breakable(e, l, [this](const Expr& x, Layout y) { return printDepLambda(x, y); });
    case ExprKind::App:
      return printApp(e, l);
    case ExprKind::DepApp:
      return printCall(e, l);
    }
    return "?";
  }

  std::string printApp(const Expr& e, Layout l) const {
    if (auto in = asInfix(e)) {
      int level = binaryLevel(in->op);
      std::string lhs = print(in->lhs, level, l);
      std::string op = " " + std::string(*primInfix(in->op)) + " ";
      // Left-associative: a right operand of the same level needs parentheses.
      return lhs + op + print(in->rhs, level + 1, l.after(lhs + op));
    }
    if (auto pre = asPrefix(e))
      return printPrefix(pre->first, pre->second, l);
    if (auto pair = asPair(e)) {
      std::string first = "(" + print(pair->first, kPipeLevel, l.at(l.col + 1)) + ", ";
      return first + print(pair->second, kPipeLevel, l.after(first)) + ")";
    }
    if (isPipeline(e))
      return breakable(e, l, [this](const Expr& x, Layout y) { return printPipeline(x, y); });
    return printCall(e, l);
  }

  std::string printPrefix(Prim op, const Expr& operand, Layout l) const {
    std::string sign = op == Prim::Neg ? "-" : "!";
    Expr s = stripImplicit(operand);
    if (op == Prim::Neg && s->kind() == ExprKind::Literal && isSignedMinimum(s->value()))
      return literalText(s->value());
    return sign + print(operand, kUnaryLevel, l.at(l.col + 1));
  }

  std::string printComposition(const Composition& c, Layout l) const {
    std::string first = print(c.first, kComposeLevel, l) + " >> ";
    return first + print(c.second, kComposeLevel + 1, l.after(first));
  }

  /// Tries the one-line form; breaks (through `print`) only if it is too wide.
  template <typename F> std::string breakable(const Expr& e, Layout l, F print) const {
    Layout flat{0, 0, true};
    std::string oneLine = print(e, flat);
    if (l.flat || l.col + static_cast<int>(oneLine.size()) <= opts_.width)
      return oneLine;
    return print(e, l);
  }

  /// The body after a binder list: on the same line, or on the next line
  /// indented when the whole does not fit.
  std::string withBody(const std::string& header, const Expr& body, Layout l) const {
    if (l.flat)
      return header + " " + print(body, kPipeLevel, l) + ")";
    Layout inner = l.nextLine(2);
    return header + "\n" + std::string(inner.indent, ' ') + print(body, kPipeLevel, inner) + ")";
  }

  Type paramTypeOf(const Expr& lambda) const {
    if (opts_.showTypes && lambda->type() && lambda->type()->kind() == TypeKind::Fun)
      return lambda->type()->param();
    return lambda->paramType();
  }

  /// Curried lambdas merge: fun(x => fun(y => e)) prints `fun(x, y => e)`.
  std::string printLambda(const Expr& e, Layout l) const {
    std::string header = "fun(";
    Expr cur = e;
    for (bool first = true; cur->kind() == ExprKind::Lambda; first = false) {
      if (!first && asComposition(cur, opts_.showTypes))
        break;
      Type t = paramTypeOf(cur);
      header += (first ? "" : ", ") + cur->name() + (t ? ": " + typeToString(t) : "");
      cur = cur->body();
    }
    return withBody(header + " =>", cur, l);
  }

  /// Consecutive depFuns merge: `depFun((n: Nat, m: Nat) => e)`.
  std::string printDepLambda(const Expr& e, Layout l) const {
    std::vector<std::string> binders;
    Expr cur = e;
    for (; cur->kind() == ExprKind::DepLambda; cur = cur->body())
      binders.push_back(cur->binder().name() + ": " + binderKindName(cur->binder()));
    std::string list;
    for (std::size_t i = 0; i < binders.size(); ++i)
      list += (i ? ", " : "") + binders[i];
    std::string header = binders.size() == 1 ? "depFun(" + list : "depFun((" + list + ")";
    return withBody(header + " =>", cur, l);
  }

  /// `x |> f |> g`, or one stage per line when too wide.
  std::string printPipeline(const Expr& e, Layout l) const {
    std::vector<Expr> stages;
    Expr cur = e;
    while (cur->kind() == ExprKind::App && isPipeline(cur)) {
      stages.push_back(cur->fn());
      cur = stripImplicit(cur->arg());
    }
    std::string out = print(cur, kPipeLevel, l);
    for (auto it = stages.rbegin(); it != stages.rend(); ++it) {
      if (l.flat) {
        out += " |> ";
        out += printStage(*it, l.after(out));
      } else {
        Layout stage = l.nextLine(2);
        out += "\n" + std::string(stage.indent, ' ') + "|> ";
        out += printStage(*it, stage.at(stage.indent + 3));
      }
    }
    return out;
  }

  /// A stage is printed as a call even when its own last argument is a call:
  /// `ys |> zip(f(xs))`, not `ys |> (f(xs) |> zip)`.
  std::string printStage(const Expr& stage, Layout l) const {
    if (isCallChain(stage))
      return printCall(stripImplicit(stage), l);
    return print(stage, kComposeLevel, l);
  }

  /// f(a)(b)(T) prints `f(a, b, T)`; inferred (implicit) arguments are omitted.
  std::string printCall(const Expr& e, Layout l) const {
    std::vector<Expr> args; // innermost last; DepApp nodes stand for their type argument
    Expr cur = e;
    while (isCallChain(cur)) {
      cur = stripImplicit(cur);
      args.push_back(cur);
      cur = cur->fn();
    }
    std::string out = print(cur, kPostfixLevel, l) + "(";
    for (auto it = args.rbegin(); it != args.rend(); ++it) {
      if (it != args.rbegin())
        out += ", ";
      const Expr& node = *it;
      if (node->kind() == ExprKind::DepApp)
        out += typeArgToString(node->typeArg());
      else
        out += print(node->arg(), kPipeLevel, l.after(out));
    }
    return out + ")";
  }

  const PrintOptions& opts_;
};

std::string escapeString(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    unsigned char u = static_cast<unsigned char>(c);
    if (c == '\\' || c == '"') {
      out += '\\';
      out += c;
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if ((u < 0x20 && c != '\n') || u == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", u);
      out += buf;
    } else {
      out += c; // newlines stay raw so multi-line C bodies stay readable
    }
  }
  return out + "\"";
}

std::string printForeign(const ForeignDecl& f) {
  std::string out = "foreign " + f.name + "(";
  for (std::size_t i = 0; i < f.params.size(); ++i)
    out += (i ? ", " : "") + f.params[i].first + ": " + typeToString(f.params[i].second);
  return out + "): " + typeToString(f.result) + " = " + escapeString(f.body);
}

std::string printDef(const Def& d, const PrintOptions& opts) {
  std::string head = "def " + d.name;
  if (d.annotation)
    head += ": " + typeToString(d.annotation);
  head += " = ";
  Layout l{0, static_cast<int>(head.size()), false};
  return head + ExprPrinter(opts).print(d.body, kPipeLevel, l);
}

} // namespace

std::string printExpr(const Expr& e, const PrintOptions& opts) {
  if (!e)
    return "<null>";
  return ExprPrinter(opts).print(e, kPipeLevel, Layout{0, 0, false});
}

std::string printProgram(const Program& p, const PrintOptions& opts) {
  std::vector<int> order = p.order;
  if (order.empty()) { // a Program built by hand: foreigns first, then defs
    for (std::size_t i = 0; i < p.foreigns.size(); ++i)
      order.push_back(~static_cast<int>(i));
    for (std::size_t i = 0; i < p.defs.size(); ++i)
      order.push_back(static_cast<int>(i));
  }
  std::string out;
  for (int index : order) {
    if (!out.empty())
      out += "\n";
    out += index >= 0 ? printDef(p.defs[index], opts) : printForeign(*p.foreigns[~index]);
    out += "\n";
  }
  return out;
}

} // namespace risec::rise
