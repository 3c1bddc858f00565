// A generator of random low-level RISE programs for the OpenCL back end, for
// the differential fuzzer tests/unit/OclFuzzTest.cpp (docs/fuzzing.md).
//
// Each program is one `def` over f32 arrays (and sometimes an f32 scalar),
// with concrete sizes or with size parameters (`depFun(n: Nat => ...)`),
// built from one of a few kernel shapes:
//   - global nests: mapGlobal over 1 to 3 distinct dimensions, sequential
//     bodies (mapSeq, oclReduceSeq(Private), iterate, private/global/local
//     temporaries), optional views before (split, join, transpose, slide,
//     padCst, 2-D tiling) and after (join, transpose), an optional second
//     phase through a global temporary;
//   - work-group nests: mapWorkGroup over 1 to 3 dimensions around mapLocal
//     nests: direct, staged through a toLocal/toGlobal temporary with a view
//     between the phases (transpose, a stencil's padCst + slide, a
//     re-split), whole-tile reductions, two-level reductions, tree
//     reductions with iterate/oclIterate, accumulators in local memory
//     updated by mapLocal (oclReduceSeq(Local));
//   - odd kernels: sequential only, mapLocal without mapWorkGroup, toLocal
//     at kernel level, iterate with mapGlobal steps, mapWorkGroup without
//     mapLocal.
// At chosen points the generator deliberately breaks a mapping rule (private
// memory written by a parallel map, local memory outside a mapWorkGroup or
// inside a mapLocal, a duplicated dimension, a mapLocal without its
// mapWorkGroup, a mapWorkGroup inside a mapLocal, mixed hierarchies,
// dimension 3, a global temporary read across work-groups, symbolic local or
// private temporaries, ...), so that the back end's rejections are exercised
// too. Every program must type-check (a type error is a generator bug); the
// back end either rejects it with a diagnostic or compiles code that
// computes what the interpreter computes.
//
// A program carries its launch configurations (1 to 3 dimensions, the
// program's; local sizes that do and do not divide the work, global sizes
// below and above it; one work-item in the dimensions no map uses, as the
// launch contract of docs/host.md requires) and candidate size
// environments. Everything is a function of the seed (Rng,
// RandomPrograms.h).
#pragma once

#include "OclRunner.h"
#include "RandomPrograms.h"

#include "rise/interp/Interpreter.h"

#include <string>
#include <vector>

namespace risec::testsupport {

struct OclGeneratorOptions {
  /// Generate `oclIterate(a)(k)(...)` besides `iterate(k)(...)` (once the
  /// front end knows the primitive).
  bool oclIterate = false;
  /// Percent of the generator's decision points that take a deliberately
  /// illegal choice, in the programs chosen to be "bent" (about half).
  int bendPercent = 30;
  /// Bound on the elements of the inputs.
  std::int64_t maxElements = 384;
  /// Launch configurations per program.
  int launches = 3;
  /// The name of the def (and so of the kernel).
  std::string entry = "k";
};

struct RandomOclProgram {
  std::string text;                   ///< the whole `.rise` text
  std::string entry;                  ///< the def's name
  std::vector<std::string> sizeNames; ///< the size parameters (none: concrete sizes)
  /// Size environments to run at; a size that fails a precondition of the
  /// program is skipped by the caller (instantiateEntry says so).
  std::vector<rise::interp::SizeEnv> sizes;
  unsigned dims = 1;            ///< 1 + the highest map dimension
  std::vector<Launch> launches; ///< launch configurations (`dims` dimensions, or more)
  /// Per launch: "" or what is special about it (printed with the launch).
  std::vector<std::string> launchNotes;
  std::vector<std::string> bent; ///< the deliberate rule breaks, e.g. "toPrivate after mapLocal"
  std::string shape;             ///< the kernel shape ("global", "work-group", "odd")

  /// The text, then the sizes and launches as comments (a reproducer).
  std::string describe() const;
};

RandomOclProgram randomOclProgram(Rng& rng, const OclGeneratorOptions& opts = {});

} // namespace risec::testsupport
