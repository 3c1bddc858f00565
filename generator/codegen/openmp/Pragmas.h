// The OpenMP text of the parallel loops (docs/dpia.md, "OpenMP"): the
// pragmas and the C helpers of the explicit combine. The C back end places
// them (codegen/c/EmitOpenMPLoops.cpp); this file says what they are.
#pragma once

#include <cstdint>
#include <string>

namespace risec::codegen::openmp {

/// The most chunks (partial results) of an explicit combine: the partial
/// results are a stack array of this many entries.
constexpr std::int64_t kMaxChunks = 64;

/// `omp parallel for`: a loop whose iterations are independent (mapPar);
/// with `collapse` 2, `omp parallel for collapse(2)`: the iterations of it
/// and of the loop nested in it are shared out together.
std::string parallelFor(int collapse = 1);

/// Whether a pragma's text is one of parallelFor's.
bool isParallelFor(const std::string& pragmaText);

/// `omp parallel for reduction(OP:VAR)`; `op` is `+`, `*`, `min` or `max`.
std::string reductionFor(const std::string& op, const std::string& var);

/// `risec_omp_chunks(n)`: the number of chunks of an explicit combine,
/// min(omp_get_max_threads(), kMaxChunks, n); fixed for a fixed thread count,
/// so the combined result is the same from run to run.
std::string chunksHelper();

/// `risec_chunk_begin(n, c, chunks)`: the first index of chunk c of n
/// elements cut into `chunks` nearly equal chunks (n*c/chunks).
std::string chunkBeginHelper();

} // namespace risec::codegen::openmp
