// Device buffers for the risec-ocl-dev variants: one risec context (the
// default device, PoCL here) and the cl_mem copies of the problem's arrays.
#include "RisecKernel.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace bench {

namespace {

struct Buffers {
  std::vector<std::size_t> bytes; ///< of the inputs, then the output
  std::vector<cl_mem> in;
  cl_mem out = nullptr;
};

Buffers& buffers() {
  static Buffers b;
  return b;
}

std::size_t outputBytes(const Data& d) {
  return 4 * (d.outIndex.empty() ? d.out.size() : d.outIndex.size());
}

} // namespace

risec_cl_context* deviceContext() {
  static risec_cl_context* ctx = [] {
    risec_cl_context* c = nullptr;
    if (int rc = risec_cl_create(&c, nullptr); rc != RISEC_CL_OK) {
      std::fprintf(stderr, "risec-ocl-dev: no OpenCL device (%d)\n", rc);
      std::exit(1);
    }
    return c;
  }();
  return ctx;
}

cl_mem DeviceArrays::out(Data&) const {
  return buffers().out;
}
cl_mem DeviceArrays::in(const Data&, std::size_t i) const {
  return buffers().in[i];
}

void uploadInputs(Data& d) {
  Buffers& b = buffers();
  std::vector<std::size_t> bytes;
  for (const Array& a : d.in)
    bytes.push_back(4 * a.size());
  bytes.push_back(outputBytes(d));
  cl_context context = risec_cl_context_handle(deviceContext());
  if (b.bytes != bytes) {
    for (cl_mem m : b.in)
      clReleaseMemObject(m);
    if (b.out)
      clReleaseMemObject(b.out);
    b.in.clear();
    cl_int err = CL_SUCCESS;
    for (std::size_t i = 0; i < d.in.size(); i++)
      b.in.push_back(clCreateBuffer(context, CL_MEM_READ_WRITE, bytes[i], nullptr, &err));
    b.out = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes.back(), nullptr, &err);
    b.bytes = bytes;
  }
  cl_command_queue q = risec_cl_queue(deviceContext());
  for (std::size_t i = 0; i < d.in.size(); i++)
    clEnqueueWriteBuffer(q, b.in[i], CL_FALSE, 0, bytes[i], d.in[i].data(), 0, nullptr, nullptr);
  clFinish(q);
}

void downloadOutput(Data& d) {
  void* host = d.outIndex.empty() ? static_cast<void*>(d.out.data()) : d.outIndex.data();
  clEnqueueReadBuffer(risec_cl_queue(deviceContext()), buffers().out, CL_TRUE, 0, outputBytes(d),
                      host, 0, nullptr, nullptr);
}

} // namespace bench
