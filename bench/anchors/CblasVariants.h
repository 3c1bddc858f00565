// The BLAS anchors' variants (scal, axpy, asum, dot, gemv, mv, mm) through
// the CBLAS interface: included by OpenBlasBench.cpp and BlisBench.cpp after
// their own library's cblas.h, so the same calls go to OpenBLAS or to BLIS.
#pragma once

#include "../common/Harness.h"

#include <cstring>
#include <string>

namespace bench::cblas {

inline void copyInto(Data& d, std::size_t input) {
  std::memcpy(d.out.data(), d.in[input].data(), 4 * d.out.size());
}

/// Registers every CBLAS variant under `name`.
inline void registerVariants(const std::string& name) {
  // scal and axpy are in place in BLAS: the output starts as x (scal) or y
  // (axpy), outside the timed loop; alpha = -1 keeps repeated scal bounded.
  registerVariant("scal", name,
                  Variant{[](Data& d) { copyInto(d, 0); },
                          [](Data& d) {
                            cblas_sscal(int(d.dims[0]), d.alpha, d.out.data(), 1);
                            return 0;
                          }});
  registerVariant("axpy", name,
                  Variant{[](Data& d) { copyInto(d, 1); },
                          [](Data& d) {
                            cblas_saxpy(int(d.dims[0]), d.alpha, d.in[0].data(), 1, d.out.data(),
                                        1);
                            return 0;
                          }});
  registerVariant("asum", name, Variant{{}, [](Data& d) {
                                          d.out[0] = cblas_sasum(int(d.dims[0]), d.in[0].data(), 1);
                                          return 0;
                                        }});
  registerVariant("dot", name, Variant{{}, [](Data& d) {
                                         d.out[0] = cblas_sdot(int(d.dims[0]), d.in[0].data(), 1,
                                                               d.in[1].data(), 1);
                                         return 0;
                                       }});
  // gemv: out = alpha A x + beta y, with out starting as y.
  registerVariant("gemv", name,
                  Variant{[](Data& d) { copyInto(d, 2); },
                          [](Data& d) {
                            int n = int(d.dims[0]), m = int(d.dims[1]);
                            cblas_sgemv(CblasRowMajor, CblasNoTrans, n, m, d.alpha, d.in[0].data(),
                                        m, d.in[1].data(), 1, d.beta, d.out.data(), 1);
                            return 0;
                          }});
  registerVariant("mv", name, Variant{{}, [](Data& d) {
                                        int n = int(d.dims[0]), m = int(d.dims[1]);
                                        cblas_sgemv(CblasRowMajor, CblasNoTrans, n, m, 1.0f,
                                                    d.in[0].data(), m, d.in[1].data(), 1, 0.0f,
                                                    d.out.data(), 1);
                                        return 0;
                                      }});
  registerVariant("mm", name, Variant{{}, [](Data& d) {
                                        int m = int(d.dims[0]), n = int(d.dims[1]),
                                            k = int(d.dims[2]);
                                        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n,
                                                    k, 1.0f, d.in[0].data(), k, d.in[1].data(), n,
                                                    0.0f, d.out.data(), n);
                                        return 0;
                                      }});
}

} // namespace bench::cblas
