// Tests of the OpenCL host runtime (host/risec_cl.c) on PoCL: device
// selection, building and running a kernel, the in-memory and on-disk
// program caches, robustness against corrupt cache files, and the host
// arrays of the host-pointer wrappers (in place or through reused staging
// buffers, at any alignment).
#include "risec_cl.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

const char* kSource = "__kernel void twice(__global float* out, __global const float* in) {\n"
                      "  size_t i = get_global_id(0);\n"
                      "  out[i] = 2.0f * in[i];\n"
                      "}\n";

/// Each test gets its own cache directory through RISEC_CL_CACHE_DIR.
class HostCl : public ::testing::Test {
protected:
  void SetUp() override {
    cache_ = fs::temp_directory_path() /
             ("risec-clcache-" + std::to_string(::getpid()) + "-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(cache_);
    setenv("RISEC_CL_CACHE_DIR", cache_.c_str(), 1);
    unsetenv("RISEC_CL_DEVICE");
    unsetenv("RISEC_CL_ZERO_COPY");
  }
  void TearDown() override {
    fs::remove_all(cache_);
    unsetenv("RISEC_CL_CACHE_DIR");
    unsetenv("RISEC_CL_ZERO_COPY");
  }

  /// A fresh context, as a new process would have.
  risec_cl_context* create(const char* selector = nullptr) {
    risec_cl_context* ctx = nullptr;
    int status = risec_cl_create(&ctx, selector);
    EXPECT_EQ(status, RISEC_CL_OK) << (ctx ? risec_cl_last_error(ctx) : "");
    return ctx;
  }

  std::vector<fs::path> cacheFiles() const {
    std::vector<fs::path> files;
    if (fs::exists(cache_))
      for (const auto& e : fs::directory_iterator(cache_))
        files.push_back(e.path());
    return files;
  }

  fs::path cache_;
};

/// Builds kSource-like code and runs `twice` on 8 values.
std::vector<float> runTwice(risec_cl_context* ctx, cl_program program) {
  std::vector<float> in(8), out(8, -1.0f);
  for (int i = 0; i < 8; ++i)
    in[i] = static_cast<float>(i);
  cl_int err = CL_SUCCESS;
  cl_context c = risec_cl_context_handle(ctx);
  cl_mem dIn = clCreateBuffer(c, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(float) * 8,
                              in.data(), &err);
  cl_mem dOut = clCreateBuffer(c, CL_MEM_WRITE_ONLY, sizeof(float) * 8, nullptr, &err);
  cl_kernel k = clCreateKernel(program, "twice", &err);
  EXPECT_EQ(err, CL_SUCCESS) << risec_cl_error_string(err);
  clSetKernelArg(k, 0, sizeof dOut, &dOut);
  clSetKernelArg(k, 1, sizeof dIn, &dIn);
  size_t global = 8;
  err = clEnqueueNDRangeKernel(risec_cl_queue(ctx), k, 1, nullptr, &global, nullptr, 0, nullptr,
                               nullptr);
  EXPECT_EQ(err, CL_SUCCESS) << risec_cl_error_string(err);
  clEnqueueReadBuffer(risec_cl_queue(ctx), dOut, CL_TRUE, 0, sizeof(float) * 8, out.data(), 0,
                      nullptr, nullptr);
  clReleaseKernel(k);
  clReleaseMemObject(dIn);
  clReleaseMemObject(dOut);
  return out;
}

/// Floats at `offset` bytes past a 128-byte boundary, with 16 guard floats
/// after `n` (all set to `fill`).
struct Array {
  Array(std::size_t n, std::size_t offset, float fill)
      : n(n), base(static_cast<char*>(
                  std::aligned_alloc(128, ((n + 16) * 4 + offset + 127) / 128 * 128))),
        data(reinterpret_cast<float*>(base + offset)) {
    for (std::size_t i = 0; i < n + 16; ++i)
      data[i] = fill;
  }
  ~Array() { std::free(base); }
  Array(const Array&) = delete;
  Array& operator=(const Array&) = delete;
  std::size_t n;
  char* base;
  float* data;
};

/// What runTwiceOnHostArrays saw.
struct HostRun {
  int status = -1;
  int outWrapped = -1, inWrapped = -1;
};

/// `out = 2 * in` through risec_cl_host_array_begin/_end, as the wrappers do.
HostRun runTwiceOnHostArrays(risec_cl_context* ctx, cl_program program, float* out, const float* in,
                             std::size_t n, std::size_t alignment) {
  HostRun r;
  risec_cl_host_array o{}, i{};
  std::size_t bytes = n * sizeof(float);
  int status = risec_cl_host_array_begin(ctx, 0, out, bytes, alignment, 1, &o);
  if (status == RISEC_CL_OK)
    status = risec_cl_host_array_begin(ctx, 1, in, bytes, alignment, 0, &i);
  r.outWrapped = o.wrapped;
  r.inWrapped = i.wrapped;
  if (status == RISEC_CL_OK && n > 0) {
    cl_int err = CL_SUCCESS;
    cl_kernel k = clCreateKernel(program, "twice", &err);
    clSetKernelArg(k, 0, sizeof o.buffer, &o.buffer);
    clSetKernelArg(k, 1, sizeof i.buffer, &i.buffer);
    err = clEnqueueNDRangeKernel(risec_cl_queue(ctx), k, 1, nullptr, &n, nullptr, 0, nullptr,
                                 nullptr);
    if (err == CL_SUCCESS)
      err = clFinish(risec_cl_queue(ctx));
    if (err != CL_SUCCESS)
      status = risec_cl_fail(ctx, "kernel", err);
    clReleaseKernel(k);
  }
  status = risec_cl_host_array_end(ctx, &o, out, bytes, 1, status);
  r.status = risec_cl_host_array_end(ctx, &i, nullptr, bytes, 0, status);
  EXPECT_EQ(o.buffer, nullptr);
  EXPECT_EQ(i.buffer, nullptr);
  return r;
}

/// Checks out = 2 * in on n floats, the guards after them, and that `in`
/// still holds 0.5 * i.
void expectTwice(const Array& out, const Array& in) {
  for (std::size_t k = 0; k < out.n; ++k) {
    ASSERT_EQ(in.data[k], 0.5f * static_cast<float>(k)) << "input changed at " << k;
    ASSERT_EQ(out.data[k], static_cast<float>(k)) << "at " << k << " of " << out.n;
  }
  for (std::size_t k = out.n; k < out.n + 16; ++k)
    ASSERT_EQ(out.data[k], -7.0f) << "guard " << k - out.n << " after " << out.n;
}

void fillHalves(Array& in) {
  for (std::size_t k = 0; k < in.n; ++k)
    in.data[k] = 0.5f * static_cast<float>(k);
}

} // namespace

TEST_F(HostCl, SelectsAPoclDeviceByNameAndByIndex) {
  risec_cl_context* byName = create("Portable Computing Language");
  ASSERT_NE(byName, nullptr);
  EXPECT_NE(std::string(risec_cl_device_name(byName)).find("Portable"), std::string::npos);
  risec_cl_release(byName);
  risec_cl_context* byIndex = create("0:0");
  ASSERT_NE(byIndex, nullptr);
  risec_cl_release(byIndex);
  setenv("RISEC_CL_DEVICE", "Portable", 1);
  risec_cl_context* byEnv = create(nullptr);
  ASSERT_NE(byEnv, nullptr);
  risec_cl_release(byEnv);
}

TEST_F(HostCl, BadSelectorsAreReported) {
  risec_cl_context* ctx = nullptr;
  EXPECT_EQ(risec_cl_create(&ctx, "no such device anywhere"), RISEC_CL_NO_DEVICE);
  EXPECT_NE(std::string(risec_cl_last_error(ctx)).find("no such device anywhere"),
            std::string::npos);
  risec_cl_release(ctx);
  EXPECT_EQ(risec_cl_create(&ctx, "97"), RISEC_CL_BAD_SELECTOR);
  risec_cl_release(ctx);
  EXPECT_EQ(risec_cl_create(&ctx, "0:4096"), RISEC_CL_BAD_SELECTOR);
  risec_cl_release(ctx);
}

TEST_F(HostCl, BuildsAndRunsAKernel) {
  risec_cl_context* ctx = create();
  cl_program program = nullptr;
  ASSERT_EQ(risec_cl_program(ctx, kSource, nullptr, &program), RISEC_CL_OK)
      << risec_cl_last_error(ctx);
  std::vector<float> out = runTwice(ctx, program);
  for (int i = 0; i < 8; ++i)
    EXPECT_EQ(out[i], 2.0f * static_cast<float>(i));
  // The same program again comes from memory.
  cl_program again = nullptr;
  ASSERT_EQ(risec_cl_program(ctx, kSource, "", &again), RISEC_CL_OK);
  EXPECT_EQ(again, program);
  EXPECT_EQ(risec_cl_get_stats(ctx).memory_hits, 1u);
  risec_cl_release(ctx);
}

TEST_F(HostCl, SecondBuildHitsTheBinaryCache) {
  risec_cl_context* first = create();
  cl_program program = nullptr;
  ASSERT_EQ(risec_cl_program(first, kSource, "-cl-fast-relaxed-math", &program), RISEC_CL_OK);
  EXPECT_EQ(risec_cl_get_stats(first).source_builds, 1u);
  EXPECT_EQ(risec_cl_get_stats(first).cache_writes, 1u);
  EXPECT_EQ(cacheFiles().size(), 1u);
  risec_cl_release(first);

  risec_cl_context* second = create();
  ASSERT_EQ(risec_cl_program(second, kSource, "-cl-fast-relaxed-math", &program), RISEC_CL_OK);
  risec_cl_stats s = risec_cl_get_stats(second);
  EXPECT_EQ(s.binary_loads, 1u);
  EXPECT_EQ(s.source_builds, 0u);
  // A program loaded from the cache runs like one built from source.
  std::vector<float> out = runTwice(second, program);
  EXPECT_EQ(out[7], 14.0f);
  risec_cl_release(second);
}

TEST_F(HostCl, ChangedOptionsOrSourceMissTheCache) {
  risec_cl_context* ctx = create();
  cl_program p = nullptr;
  ASSERT_EQ(risec_cl_program(ctx, kSource, "", &p), RISEC_CL_OK);
  risec_cl_release(ctx);

  ctx = create();
  ASSERT_EQ(risec_cl_program(ctx, kSource, "-DUNUSED=1", &p), RISEC_CL_OK);
  EXPECT_EQ(risec_cl_get_stats(ctx).source_builds, 1u);
  EXPECT_EQ(risec_cl_get_stats(ctx).binary_loads, 0u);
  std::string changed = std::string(kSource) + "// a comment changes the source\n";
  ASSERT_EQ(risec_cl_program(ctx, changed.c_str(), "", &p), RISEC_CL_OK);
  EXPECT_EQ(risec_cl_get_stats(ctx).source_builds, 2u);
  EXPECT_EQ(risec_cl_get_stats(ctx).binary_loads, 0u);
  EXPECT_EQ(cacheFiles().size(), 3u);
  risec_cl_release(ctx);
}

TEST_F(HostCl, CorruptCacheFilesAreIgnoredAndRebuilt) {
  risec_cl_context* ctx = create();
  cl_program p = nullptr;
  ASSERT_EQ(risec_cl_program(ctx, kSource, "", &p), RISEC_CL_OK);
  risec_cl_release(ctx);
  ASSERT_EQ(cacheFiles().size(), 1u);
  fs::path file = cacheFiles().front();
  auto size = fs::file_size(file);

  // Flip a byte in the middle of the binary.
  {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(static_cast<std::streamoff>(size / 2));
    char c = 0;
    f.read(&c, 1);
    f.seekp(static_cast<std::streamoff>(size / 2));
    c = static_cast<char>(c ^ 0x5a);
    f.write(&c, 1);
  }
  ctx = create();
  ASSERT_EQ(risec_cl_program(ctx, kSource, "", &p), RISEC_CL_OK);
  EXPECT_EQ(risec_cl_get_stats(ctx).cache_rejects, 1u);
  EXPECT_EQ(risec_cl_get_stats(ctx).source_builds, 1u);
  EXPECT_EQ(runTwice(ctx, p)[3], 6.0f);
  risec_cl_release(ctx);

  // The rebuilt file is valid again; now truncate it, then fill it with garbage.
  for (const std::string& content : {std::string("RISECBN1"), std::string(64, '\xff')}) {
    std::ofstream(file, std::ios::binary | std::ios::trunc) << content;
    ctx = create();
    ASSERT_EQ(risec_cl_program(ctx, kSource, "", &p), RISEC_CL_OK);
    EXPECT_EQ(risec_cl_get_stats(ctx).cache_rejects, 1u);
    EXPECT_EQ(risec_cl_get_stats(ctx).source_builds, 1u);
    risec_cl_release(ctx);
  }
}

TEST_F(HostCl, EmptyCacheDirectoryDisablesTheCache) {
  setenv("RISEC_CL_CACHE_DIR", "", 1);
  risec_cl_context* ctx = create();
  cl_program p = nullptr;
  ASSERT_EQ(risec_cl_program(ctx, kSource, "", &p), RISEC_CL_OK);
  EXPECT_EQ(risec_cl_get_stats(ctx).cache_writes, 0u);
  risec_cl_release(ctx);
  EXPECT_TRUE(cacheFiles().empty());
}

TEST_F(HostCl, BuildFailuresCarryTheBuildLog) {
  risec_cl_context* ctx = create();
  cl_program p = nullptr;
  EXPECT_EQ(risec_cl_program(ctx, "__kernel void k(void) { undeclared_name = 1; }", "", &p),
            RISEC_CL_BUILD_FAILED);
  EXPECT_EQ(p, nullptr);
  EXPECT_NE(std::string(risec_cl_last_error(ctx)).find("undeclared_name"), std::string::npos)
      << risec_cl_last_error(ctx);
  EXPECT_TRUE(cacheFiles().empty());
  risec_cl_release(ctx);
}

TEST_F(HostCl, HostArraysAreUsedInPlaceWhenAligned) {
  risec_cl_context* ctx = create();
  ASSERT_NE(ctx, nullptr);
  EXPECT_EQ(risec_cl_zero_copy(ctx), 1) << "PoCL's CPU device shares the host's memory";
  cl_program program = nullptr;
  ASSERT_EQ(risec_cl_program(ctx, kSource, nullptr, &program), RISEC_CL_OK);
  // offsets in bytes from a 128-byte boundary; alignments the kernel needs
  for (std::size_t alignment : {4, 16, 128})
    for (std::size_t offset : {0, 4, 8, 16, 64})
      for (std::size_t n : {1, 5, 1000, 100003}) {
        SCOPED_TRACE("alignment " + std::to_string(alignment) + ", offset " +
                     std::to_string(offset) + ", n " + std::to_string(n));
        Array in(n, offset, 0.0f), out(n, offset, -7.0f);
        fillHalves(in);
        risec_cl_stats before = risec_cl_get_stats(ctx);
        HostRun r = runTwiceOnHostArrays(ctx, program, out.data, in.data, n, alignment);
        ASSERT_EQ(r.status, RISEC_CL_OK) << risec_cl_last_error(ctx);
        int inPlace = offset % alignment == 0;
        EXPECT_EQ(r.outWrapped, inPlace);
        EXPECT_EQ(r.inWrapped, inPlace);
        risec_cl_stats after = risec_cl_get_stats(ctx);
        EXPECT_EQ(after.zero_copy - before.zero_copy, inPlace ? 2u : 0u);
        EXPECT_EQ(after.staged - before.staged, inPlace ? 0u : 2u);
        expectTwice(out, in);
      }
  risec_cl_release(ctx);
}

TEST_F(HostCl, StagingBuffersAreReusedAndGrown) {
  setenv("RISEC_CL_ZERO_COPY", "0", 1); // the path of a discrete GPU
  risec_cl_context* ctx = create();
  ASSERT_NE(ctx, nullptr);
  EXPECT_EQ(risec_cl_zero_copy(ctx), 0);
  cl_program program = nullptr;
  ASSERT_EQ(risec_cl_program(ctx, kSource, nullptr, &program), RISEC_CL_OK);
  // repeated calls: two buffers made for the first, reused while big enough
  std::vector<std::pair<std::size_t, unsigned>> calls{{1000, 2}, {1000, 2}, {10, 2}, {1000, 2},
                                                      {5000, 4}, {4999, 4}, {0, 4},  {1, 4}};
  for (auto [n, allocations] : calls) {
    Array in(n, 0, 0.0f), out(n, 0, -7.0f);
    fillHalves(in);
    HostRun r = runTwiceOnHostArrays(ctx, program, out.data, in.data, n, 4);
    ASSERT_EQ(r.status, RISEC_CL_OK) << risec_cl_last_error(ctx);
    EXPECT_EQ(r.outWrapped, 0);
    EXPECT_EQ(r.inWrapped, 0);
    EXPECT_EQ(risec_cl_get_stats(ctx).staging_allocations, allocations) << "n " << n;
    expectTwice(out, in);
  }
  // trim gives them back; the next call makes them again
  risec_cl_trim(ctx);
  Array in(64, 4, 0.0f), out(64, 4, -7.0f);
  fillHalves(in);
  ASSERT_EQ(runTwiceOnHostArrays(ctx, program, out.data, in.data, 64, 4).status, RISEC_CL_OK);
  EXPECT_EQ(risec_cl_get_stats(ctx).staging_allocations, 6u);
  expectTwice(out, in);
  // switched on again: in place
  risec_cl_set_zero_copy(ctx, 1);
  Array in2(64, 0, 0.0f), out2(64, 0, -7.0f);
  fillHalves(in2);
  HostRun r = runTwiceOnHostArrays(ctx, program, out2.data, in2.data, 64, 4);
  EXPECT_EQ(r.outWrapped, 1);
  expectTwice(out2, in2);
  risec_cl_release(ctx);
  setenv("RISEC_CL_ZERO_COPY", "1", 1);
  ctx = create();
  EXPECT_EQ(risec_cl_zero_copy(ctx), 1);
  risec_cl_release(ctx);
}

TEST_F(HostCl, FailedCallsLeaveStagedOutputsUntouched) {
  risec_cl_context* ctx = create();
  ASSERT_NE(ctx, nullptr);
  for (int zeroCopy : {0, 1}) {
    risec_cl_set_zero_copy(ctx, zeroCopy);
    Array in(100, 0, 0.0f), out(100, 0, -7.0f);
    fillHalves(in);
    risec_cl_host_array o{}, i{};
    ASSERT_EQ(risec_cl_host_array_begin(ctx, 0, out.data, 400, 4, 1, &o), RISEC_CL_OK);
    ASSERT_EQ(risec_cl_host_array_begin(ctx, 1, in.data, 400, 4, 0, &i), RISEC_CL_OK);
    // the kernel never ran: the failure is returned as it is, nothing is read back
    EXPECT_EQ(risec_cl_host_array_end(ctx, &o, out.data, 400, 1, 6), 6);
    EXPECT_EQ(risec_cl_host_array_end(ctx, &i, nullptr, 400, 0, 6), 6);
    for (std::size_t k = 0; k < 116; ++k)
      ASSERT_EQ(out.data[k], -7.0f) << "zero copy " << zeroCopy << ", at " << k;
  }
  risec_cl_release(ctx);
}

TEST(HostClErrors, ErrorStrings) {
  EXPECT_STREQ(risec_cl_error_string(CL_INVALID_KERNEL_ARGS), "CL_INVALID_KERNEL_ARGS");
  EXPECT_STREQ(risec_cl_error_string(RISEC_CL_BUILD_FAILED), "RISEC_CL_BUILD_FAILED");
  EXPECT_STREQ(risec_cl_error_string(12345), "unknown error");
}
