// Tests of the OpenCL host runtime (host/risec_cl.c) on PoCL: device
// selection, building and running a kernel, the in-memory and on-disk
// program caches, and robustness against corrupt cache files.
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
  }
  void TearDown() override {
    fs::remove_all(cache_);
    unsetenv("RISEC_CL_CACHE_DIR");
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

TEST(HostClErrors, ErrorStrings) {
  EXPECT_STREQ(risec_cl_error_string(CL_INVALID_KERNEL_ARGS), "CL_INVALID_KERNEL_ARGS");
  EXPECT_STREQ(risec_cl_error_string(RISEC_CL_BUILD_FAILED), "RISEC_CL_BUILD_FAILED");
  EXPECT_STREQ(risec_cl_error_string(12345), "unknown error");
}
