// RISE -> functional DPIA (pipeline stage "to DPIA", RISE & Shine §V-B).
//
// Every low-level RISE primitive becomes the fully applied DPIA primitive of
// the same name, with read/write-annotated types (Primitive.h, `access`).
// The translation infers the annotation of every expression bottom-up and
// checks it where it is consumed:
//   - a `Wr` expression (e.g. the result of `mapSeq`) where `Rd` is needed is
//     a missing `toMem` (E0601);
//   - an `Rd` array (a view of memory) where `Wr` is needed is a missing
//     explicit copy (E0602): copying an array is a choice (sequential,
//     vectorised, parallel) that must be made in RISE. Rd values copied by a
//     single assignment (scalars, vectors, pairs of those) are accepted.
// A `map` of layout functions (split, join, transpose, asVector, asScalar,
// unzip, maps of those) over a written array is written too: accT writes it
// through a map acceptor (dpia/primitives/Maps.cpp), as Shine's DPIA does.
// The lowering stage finds beforehand where a `toMem` or a copy is needed
// (lower/AccessAnalysis.h), from the same read/write facts, declared in the
// primitive table (rise/ast/Primitive.h, `PrimAccess`).
#pragma once

#include "dpia/Program.h"
#include "rise/infer/Infer.h"
#include "support/Diagnostic.h"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace risec::dpia {

/// A compiled entry taken apart: `depFun(sizes) => fun(params) => body`.
struct Entry {
  std::vector<rise::DepBinder> sizes;
  std::vector<std::pair<std::string, rise::Type>> params; ///< data parameters
  rise::Expr body;
};
/// Takes `def` apart; throws E0605 unless its sizes are named Nat
/// parameters, its parameters data and its result data.
Entry takeEntryApart(const rise::TypedDef& def);

/// Whether `f` only rearranges its argument through views that are
/// bijections (PrimTraits::layoutView: split, join, transpose, asVector,
/// asScalar, unzip; and maps of such functions, where `viewableMap` says
/// the map-like head may stay a `map`), so that writing `f(x)` writes every
/// element of `x` once: `transpose`, `split(4)`, `map(join)`,
/// `fun(x => join(transpose(x)))`.
bool layoutFunction(const rise::Expr& f, const std::function<bool(const rise::Expr&)>& viewableMap);
/// Whether `e` is the variable `x` rearranged by layout functions.
bool layoutChain(const rise::Expr& e, const std::string& x,
                 const std::function<bool(const rise::Expr&)>& viewableMap);

/// The errors of the forms the C back end does not translate (E0603, E0604,
/// E0699), raised where the translation, or the lowering's access analysis
/// that walks a program as the translation does, meets them.
namespace unsupported {
CompileError depArgAfterValue(const SourceLocation& at);
CompileError parameterType(const rise::Type& t, const SourceLocation& at);
CompileError applicationForm(const rise::Expr& whole, const rise::Expr& head);
CompileError partialForeign(const SourceLocation& at);
/// E0603 for map and reduce (a choice not made), E0604 for the others.
CompileError noDefinition(const rise::Expr& head);
CompileError overApplied(const rise::Expr& whole, rise::Prim p);
CompileError functionArgumentMissing(const rise::Expr& head);
/// `consumer` ("`iterate` at 4:10") needs a `depFun(l: Nat => ...)` as `e`.
CompileError depFunNotInPlace(const rise::Expr& e, const std::string& consumer);
} // namespace unsupported

/// Translates a typed entry (`depFun(sizes) => fun(inputs) => body`) into
/// functional DPIA. Throws CompileError E06xx when a choice is missing.
Program fromRise(const rise::TypedDef& def);

} // namespace risec::dpia
