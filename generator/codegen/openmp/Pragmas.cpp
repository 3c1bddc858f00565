#include "codegen/openmp/Pragmas.h"

namespace risec::codegen::openmp {

std::string parallelFor(int collapse) {
  return collapse > 1 ? "omp parallel for collapse(" + std::to_string(collapse) + ")"
                      : "omp parallel for";
}

bool isParallelFor(const std::string& pragmaText) {
  return pragmaText == parallelFor() || pragmaText == parallelFor(2);
}

std::string reductionFor(const std::string& op, const std::string& var) {
  return "omp parallel for reduction(" + op + ":" + var + ")";
}

std::string chunksHelper() {
  return "static inline int risec_omp_chunks(int n) {\n"
         "  int chunks = omp_get_max_threads();\n"
         "  if (chunks > " +
         std::to_string(kMaxChunks) +
         ")\n"
         "    chunks = " +
         std::to_string(kMaxChunks) +
         ";\n"
         "  return chunks < n ? chunks : n;\n"
         "}";
}

std::string chunkBeginHelper() {
  return "static inline int risec_chunk_begin(int n, int c, int chunks) {\n"
         "  return (int)((long long)n * c / chunks);\n"
         "}";
}

} // namespace risec::codegen::openmp
