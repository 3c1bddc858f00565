// CLBlast on the OpenCL device of the ICD (here PoCL, a CPU device) for scal,
// axpy, asum, dot, gemv, mv and mm. Two contracts are measured:
//   clblast      host arrays in, host array out (write inputs, run, read the
//                output, wait): the contract of the risec C ABI, whose
//                _opencl variants take host pointers;
//   clblast-dev  buffers already on the device: the kernel alone.
// The first call (outside the timed loop) compiles CLBlast's kernels.
#define CL_TARGET_OPENCL_VERSION 120
#include "../common/Harness.h"

#include <clblast_c.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <vector>

using bench::Data;

namespace {

struct Device {
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  std::string name;
};

Device& device() {
  static Device d = [] {
    Device dev;
    cl_platform_id platform;
    cl_device_id id;
    cl_int err = clGetPlatformIDs(1, &platform, nullptr);
    if (err == CL_SUCCESS)
      err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &id, nullptr);
    if (err != CL_SUCCESS) {
      std::fprintf(stderr, "clblast bench: no OpenCL device (%d)\n", err);
      std::exit(1);
    }
    char name[256] = {0};
    clGetDeviceInfo(id, CL_DEVICE_NAME, sizeof name - 1, name, nullptr);
    dev.name = name;
    dev.context = clCreateContext(nullptr, 1, &id, nullptr, nullptr, &err);
    dev.queue = clCreateCommandQueue(dev.context, id, 0, &err);
    return dev;
  }();
  return d;
}

/// Device copies of a problem's inputs and output (one problem at a time).
struct Buffers {
  std::vector<std::size_t> sizes; ///< of the inputs and the output they were made for
  std::vector<cl_mem> in;
  cl_mem out = nullptr;
  void release() {
    for (cl_mem m : in)
      clReleaseMemObject(m);
    if (out)
      clReleaseMemObject(out);
    in.clear();
    out = nullptr;
    sizes.clear();
  }
};

Buffers& buffers(const Data& d) {
  static Buffers b;
  std::vector<std::size_t> sizes;
  for (const auto& a : d.in)
    sizes.push_back(a.size());
  sizes.push_back(d.out.size());
  if (b.sizes != sizes) {
    b.release();
    cl_int err;
    for (const auto& a : d.in)
      b.in.push_back(
          clCreateBuffer(device().context, CL_MEM_READ_WRITE, 4 * a.size(), nullptr, &err));
    b.out = clCreateBuffer(device().context, CL_MEM_READ_WRITE, 4 * d.out.size(), nullptr, &err);
    b.sizes = sizes;
  }
  return b;
}

void upload(Data& d, bool withOutput) {
  Buffers& b = buffers(d);
  cl_command_queue q = device().queue;
  for (std::size_t i = 0; i < d.in.size(); i++)
    clEnqueueWriteBuffer(q, b.in[i], CL_FALSE, 0, 4 * d.in[i].size(), d.in[i].data(), 0, nullptr,
                         nullptr);
  if (withOutput)
    clEnqueueWriteBuffer(q, b.out, CL_FALSE, 0, 4 * d.out.size(), d.out.data(), 0, nullptr,
                         nullptr);
}

void download(Data& d) {
  clEnqueueReadBuffer(device().queue, buffers(d).out, CL_TRUE, 0, 4 * d.out.size(), d.out.data(), 0,
                      nullptr, nullptr);
}

/// The CLBlast call of each kernel on the device buffers. In-place BLAS
/// calls (scal, axpy, gemv) work on the output buffer, which `prepare`
/// initialises with x, y or y.
struct Call {
  int inPlaceFrom; ///< the input the output starts as, or -1 (-2: zeros, see mv)
  CLBlastStatusCode (*run)(Data&, Buffers&, cl_command_queue*);
};

const std::map<std::string, Call>& calls() {
  static const std::map<std::string, Call> m{
      {"scal",
       {0,
        [](Data& d, Buffers& b, cl_command_queue* q) {
          return CLBlastSscal(d.dims[0], d.alpha, b.out, 0, 1, q, nullptr);
        }}},
      {"axpy",
       {1,
        [](Data& d, Buffers& b, cl_command_queue* q) {
          return CLBlastSaxpy(d.dims[0], d.alpha, b.in[0], 0, 1, b.out, 0, 1, q, nullptr);
        }}},
      {"asum",
       {-1,
        [](Data& d, Buffers& b, cl_command_queue* q) {
          return CLBlastSasum(d.dims[0], b.out, 0, b.in[0], 0, 1, q, nullptr);
        }}},
      {"dot",
       {-1,
        [](Data& d, Buffers& b, cl_command_queue* q) {
          return CLBlastSdot(d.dims[0], b.out, 0, b.in[0], 0, 1, b.in[1], 0, 1, q, nullptr);
        }}},
      {"gemv",
       {2,
        [](Data& d, Buffers& b, cl_command_queue* q) {
          return CLBlastSgemv(CLBlastLayoutRowMajor, CLBlastTransposeNo, d.dims[0], d.dims[1],
                              d.alpha, b.in[0], 0, d.dims[1], b.in[1], 0, 1, d.beta, b.out, 0, 1, q,
                              nullptr);
        }}},
      // CLBlast's gemv reads y even when beta = 0 (0 * NaN is NaN): y starts as zeros
      {"mv",
       {-2,
        [](Data& d, Buffers& b, cl_command_queue* q) {
          return CLBlastSgemv(CLBlastLayoutRowMajor, CLBlastTransposeNo, d.dims[0], d.dims[1], 1.0f,
                              b.in[0], 0, d.dims[1], b.in[1], 0, 1, 0.0f, b.out, 0, 1, q, nullptr);
        }}},
      {"mm",
       {-1,
        [](Data& d, Buffers& b, cl_command_queue* q) {
          return CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo,
                              d.dims[0], d.dims[1], d.dims[2], 1.0f, b.in[0], 0, d.dims[2], b.in[1],
                              0, d.dims[1], 0.0f, b.out, 0, d.dims[1], q, nullptr);
        }}},
  };
  return m;
}

void startOutput(Data& d, const Call& c) {
  if (c.inPlaceFrom == -2)
    std::fill(d.out.data(), d.out.data() + d.out.size(), 0.0f);
  if (c.inPlaceFrom >= 0)
    std::copy(d.in[c.inPlaceFrom].data(), d.in[c.inPlaceFrom].data() + d.out.size(), d.out.data());
}

} // namespace

int main(int argc, char** argv) {
  for (const auto& [kernel, call] : calls()) {
    const Call* c = &call;
    // host arrays in and out, as through the risec C ABI
    bench::registerVariant(kernel, "clblast",
                           {[c](Data& d) { startOutput(d, *c); },
                            [c](Data& d) {
                              upload(d, c->inPlaceFrom != -1);
                              cl_command_queue q = device().queue;
                              CLBlastStatusCode s = c->run(d, buffers(d), &q);
                              download(d);
                              return int(s);
                            }});
    // device-resident buffers: the kernel alone
    bench::registerVariant(kernel, "clblast-dev",
                           {[c](Data& d) {
                              startOutput(d, *c);
                              upload(d, true);
                              clFinish(device().queue);
                            },
                            [c](Data& d) {
                              cl_command_queue q = device().queue;
                              CLBlastStatusCode s = c->run(d, buffers(d), &q);
                              clFinish(q);
                              return int(s);
                            },
                            download});
  }
  return bench::runBenchmarks(argc, argv);
}
