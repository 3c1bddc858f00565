// bench/ocl_host/host_phases.c: where the time of an OpenCL host-pointer
// wrapper goes (issue 19, deliverable 4), for scal (y = alpha * x) at N floats.
//   host_phases N [CALLS] [OFFSET]
// In one process, interleaved call by call (median of CALLS, default 11):
//   wrapper      scal_opencl(...) of libkernels.a: host pointers in and out
//   staged       the same with zero copy off (risec_cl_set_zero_copy(ctx, 0)):
//                the path of a discrete GPU, through the staging buffers
//   buffers      scal_opencl_buffers(...) on cl_mem made once: the kernel alone
//   copy-path    the host path the wrappers had before (create two buffers,
//                blocking write, scal_opencl_buffers, blocking read, release),
//                written out here with a clock around each step
//   memcpy       one memcpy of N floats (the unavoidable copy, once each way)
//   clblast      CLBlast's host-pointer path (as bench/anchors/ClBlastBench.cpp:
//                buffers kept across calls, write x, CLBlastSscal in place, read)
// OFFSET (bytes, default 0) is added to 64-byte-aligned arrays, to time the
// host pointers that a zero-copy buffer may not use. The first call of the
// wrapper (program build or binary-cache load) is printed separately.
// Built and run by bench/ocl_host/run.
#define _POSIX_C_SOURCE 200809L
#include "scal_opencl.h"

#include <clblast_c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int byTime(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

static double median(double* v, int count) {
  qsort(v, (size_t)count, sizeof *v, byTime);
  return v[count / 2];
}

enum { CREATE, WRITE, KERNEL, READ, RELEASE, PHASES };
static const char* kPhase[PHASES] = {"clCreateBuffer x2", "clEnqueueWriteBuffer (blocking)",
                                     "scal_opencl_buffers", "clEnqueueReadBuffer (blocking)",
                                     "clReleaseMemObject x2"};

// The host path of the wrappers before issue 19: fresh buffers every call.
static int copyPath(risec_cl_context* ctx, float* y, int n, float alpha, const float* x,
                    double phase[PHASES]) {
  size_t bytes = (size_t)n * sizeof(float);
  cl_int err = CL_SUCCESS;
  cl_command_queue q = risec_cl_queue(ctx);
  double t0 = now();
  cl_mem out = clCreateBuffer(risec_cl_context_handle(ctx), CL_MEM_WRITE_ONLY, bytes, NULL, &err);
  cl_mem in = clCreateBuffer(risec_cl_context_handle(ctx), CL_MEM_READ_ONLY, bytes, NULL, &err);
  double t1 = now();
  err |= clEnqueueWriteBuffer(q, in, CL_TRUE, 0, bytes, x, 0, NULL, NULL);
  double t2 = now();
  int rc = scal_opencl_buffers(ctx, out, n, alpha, in);
  double t3 = now();
  err |= clEnqueueReadBuffer(q, out, CL_TRUE, 0, bytes, y, 0, NULL, NULL);
  double t4 = now();
  clReleaseMemObject(out);
  clReleaseMemObject(in);
  double t5 = now();
  phase[CREATE] = t1 - t0, phase[WRITE] = t2 - t1, phase[KERNEL] = t3 - t2;
  phase[READ] = t4 - t3, phase[RELEASE] = t5 - t4;
  return rc != 0 ? rc : err != CL_SUCCESS;
}

static float* array(size_t n, size_t offset) {
  char* p = aligned_alloc(64, ((n * sizeof(float) + offset + 63) / 64) * 64);
  if (!p) {
    fprintf(stderr, "out of memory\n");
    exit(1);
  }
  return (float*)(p + offset);
}

static int check(const float* y, const float* x, int n, float alpha, const char* what) {
  for (int i = 0; i < n; i += 1 + n / 1000)
    if (y[i] != alpha * x[i]) {
      fprintf(stderr, "%s: y[%d] = %g, expected %g\n", what, i, y[i], alpha * x[i]);
      return 1;
    }
  return 0;
}

int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1 << 26;
  int calls = argc > 2 ? atoi(argv[2]) : 11;
  size_t offset = argc > 3 ? (size_t)atoi(argv[3]) : 0;
  size_t bytes = (size_t)n * sizeof(float);
  float *x = array((size_t)n, offset), *y = array((size_t)n, offset);
  for (int i = 0; i < n; ++i)
    x[i] = (float)(i % 1000) * 0.5f;
  memset(y, 0, bytes);
  float alpha = 1.5f;

  double t0 = now();
  risec_cl_context* ctx;
  if (risec_cl_default(&ctx) != RISEC_CL_OK) {
    fprintf(stderr, "no OpenCL device: %s\n", risec_cl_default_error());
    return 1;
  }
  double t1 = now();
  int rc = scal_opencl(y, n, alpha, x);
  double t2 = now();
  if (rc != 0 || check(y, x, n, alpha, "first call")) {
    fprintf(stderr, "scal_opencl: %d %s\n", rc, risec_cl_last_error(ctx));
    return 1;
  }
  risec_cl_stats st = risec_cl_get_stats(ctx);
  printf("device: %s\n", risec_cl_device_name(ctx));
  printf("n = %d (%.0f MiB per array), host pointers %% 128 = %zu, %d calls, median ms\n", n,
         (double)bytes / (1 << 20), (size_t)x % 128, calls);
  printf("default context: %.1f ms; first call: %.1f ms (program: %u source builds, %u "
         "binary loads)\n",
         1e3 * (t1 - t0), 1e3 * (t2 - t1), st.source_builds, st.binary_loads);

  cl_int err = CL_SUCCESS;
  cl_mem bx = clCreateBuffer(risec_cl_context_handle(ctx), CL_MEM_READ_WRITE, bytes, NULL, &err);
  cl_mem by = clCreateBuffer(risec_cl_context_handle(ctx), CL_MEM_READ_WRITE, bytes, NULL, &err);
  clEnqueueWriteBuffer(risec_cl_queue(ctx), bx, CL_TRUE, 0, bytes, x, 0, NULL, NULL);
  clEnqueueWriteBuffer(risec_cl_queue(ctx), by, CL_TRUE, 0, bytes, y, 0, NULL, NULL);
  cl_mem cb = clCreateBuffer(risec_cl_context_handle(ctx), CL_MEM_READ_WRITE, bytes, NULL, &err);
  cl_command_queue q = risec_cl_queue(ctx);
  float* z = array((size_t)n, offset);
  memset(z, 0, bytes);
  // CLBlast's first call compiles its kernels
  clEnqueueWriteBuffer(q, cb, CL_TRUE, 0, bytes, x, 0, NULL, NULL);
  int haveClblast = CLBlastSscal((size_t)n, alpha, cb, 0, 1, &q, NULL) == CLBlastSuccess;
  clFinish(q);

  int zeroCopy = risec_cl_zero_copy(ctx);
  enum { WRAPPER, STAGED, BUFFERS, COPY_PATH, MEMCPY, CLBLAST, ROWS };
  static const char* kRow[ROWS] = {"scal_opencl (host pointers)", "scal_opencl, zero copy off",
                                   "scal_opencl_buffers",         "copy path (the wrapper before)",
                                   "memcpy of one array",         "CLBlast host pointers"};
  double* t[ROWS];
  double* ph[PHASES];
  for (int r = 0; r < ROWS; ++r)
    t[r] = calloc((size_t)calls, sizeof(double));
  for (int p = 0; p < PHASES; ++p)
    ph[p] = calloc((size_t)calls, sizeof(double));
  for (int c = 0; c < calls; ++c) {
    double a = now();
    rc |= scal_opencl(y, n, alpha, x);
    double a2 = now();
    risec_cl_set_zero_copy(ctx, 0);
    rc |= scal_opencl(y, n, alpha, x);
    risec_cl_set_zero_copy(ctx, zeroCopy);
    double b = now();
    rc |= scal_opencl_buffers(ctx, by, n, alpha, bx);
    double d = now();
    double phase[PHASES];
    rc |= copyPath(ctx, y, n, alpha, x, phase);
    double e = now();
    memcpy(z, x, bytes);
    double f = now();
    if (haveClblast) {
      clEnqueueWriteBuffer(q, cb, CL_FALSE, 0, bytes, x, 0, NULL, NULL);
      rc |= CLBlastSscal((size_t)n, alpha, cb, 0, 1, &q, NULL) != CLBlastSuccess;
      clEnqueueReadBuffer(q, cb, CL_TRUE, 0, bytes, z, 0, NULL, NULL);
    }
    double g = now();
    t[WRAPPER][c] = a2 - a, t[STAGED][c] = b - a2, t[BUFFERS][c] = d - b, t[COPY_PATH][c] = e - d;
    t[MEMCPY][c] = f - e, t[CLBLAST][c] = g - f;
    for (int p = 0; p < PHASES; ++p)
      ph[p][c] = phase[p];
  }
  if (rc != 0 || check(y, x, n, alpha, "wrapper") ||
      (haveClblast && check(z, x, n, alpha, "clblast"))) {
    fprintf(stderr, "a call failed (%d): %s\n", rc, risec_cl_last_error(ctx));
    return 1;
  }
  st = risec_cl_get_stats(ctx);
  double buffers = median(t[BUFFERS], calls), copy = median(t[MEMCPY], calls);
  for (int r = 0; r < ROWS; ++r) {
    if (r == CLBLAST && !haveClblast)
      continue;
    printf("%-34s %8.2f\n", kRow[r], 1e3 * median(t[r], calls));
    if (r == COPY_PATH)
      for (int p = 0; p < PHASES; ++p)
        printf("  %-32s %8.2f\n", kPhase[p], 1e3 * median(ph[p], calls));
  }
  double wrapper = median(t[WRAPPER], calls);
  printf("wrapper / buffers %.2fx; wrapper / (buffers + 2 memcpy) %.2fx\n", wrapper / buffers,
         wrapper / (buffers + 2 * copy));
  printf("program cache: %u memory hits, %u source builds, %u binary loads; host arrays: %u "
         "in place, %u staged, %u staging buffers made\n",
         st.memory_hits, st.source_builds, st.binary_loads, st.zero_copy, st.staged,
         st.staging_allocations);
  return 0;
}
