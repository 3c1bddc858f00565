// CLBlast on the OpenCL device of the ICD (here PoCL, a CPU device) for scal,
// axpy, asum, dot, gemv, mv and mm. Two contracts are measured:
//   clblast      host arrays in, host array out (write inputs, run, read the
//                output, wait): the contract of the risec C ABI, whose
//                _opencl variants take host pointers;
//   clblast-dev  buffers already on the device: the kernel alone.
// The first call (outside the timed loop) compiles CLBlast's kernels.
// clblast-tuned and clblast-tuned-dev are the same with the parameters that
// bench/clblast/tune found for this device (matched by CL_DEVICE_NAME), read
// from BENCH_CLBLAST_TUNED (default: the source tree's bench/clblast/tuned)
// and set with CLBlastOverrideParameters before the first, untimed call;
// the default variants set CLBlast's own parameters back.
#define CL_TARGET_OPENCL_VERSION 120
#include "../common/Harness.h"

#include <clblast.h>
#include <clblast_c.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <unordered_map>
#include <vector>

#ifndef BENCH_CLBLAST_TUNED_DIR
#define BENCH_CLBLAST_TUNED_DIR "bench/clblast/tuned"
#endif

using bench::Data;

namespace {

struct Device {
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  cl_device_id id = nullptr;
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
    dev.id = id;
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

/// A kernel's parameters, by the names of CLBlast's database.
using Params = std::map<std::string, std::size_t>;

/// The database kernels behind the routines timed here, each with the
/// prefix of the tuner files that may hold its parameters.
const std::vector<std::pair<std::string, std::string>> kTunedKernels{
    {"Xaxpy", "xaxpy"},
    {"Xdot", "xdot"},
    {"Xgemv", "xgemv"},
    {"XgemvFast", "xgemv"},
    {"XgemvFastRot", "xgemv"},
    {"Xgemm", "xgemm"},
    {"XgemmDirect", "xgemm"},
    {"Copy", "copy"},
    {"Pad", "pad"},
    {"Transpose", "transpose"},
    {"Padtranspose", "padtranspose"}};

/// The folder bench/clblast/tune writes for a device: its name with every run
/// of characters other than letters, digits, '.' and '-' made one '_'.
std::string sanitise(const std::string& name) {
  std::string s;
  for (char ch : name) {
    bool keep = std::isalnum(static_cast<unsigned char>(ch)) || ch == '.' || ch == '-';
    if (keep)
      s += ch;
    else if (s.empty() || s.back() != '_')
      s += '_';
  }
  while (!s.empty() && s.front() == '_')
    s.erase(s.begin());
  while (!s.empty() && s.back() == '_')
    s.pop_back();
  return s.empty() ? "unnamed" : s;
}

/// One tuner result file: its best parameters (PRECISION left out) and time.
struct TunerFile {
  std::string file, family, device;
  double bestMs = 0;
  Params best;
};

bool readTunerFile(const std::filesystem::path& path, TunerFile& t) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::string s = text.str();
  auto field = [&](const char* key, std::string& value) {
    std::smatch m;
    if (!std::regex_search(s, m, std::regex(std::string("\"") + key + "\"\\s*:\\s*\"([^\"]*)\"")))
      return false;
    value = m[1];
    return true;
  };
  std::string time, params;
  if (!field("kernel_family", t.family) || !field("device", t.device) ||
      !field("best_time", time) || !field("best_parameters", params))
    return false;
  t.file = path.filename().string();
  t.bestMs = std::atof(time.c_str());
  std::istringstream words(params);
  for (std::string w; words >> w;) {
    auto eq = w.find('=');
    if (eq == std::string::npos)
      return false;
    if (w.substr(0, eq) != "PRECISION")
      t.best[w.substr(0, eq)] = std::strtoull(w.c_str() + eq + 1, nullptr, 10);
  }
  return !t.best.empty();
}

/// The tuned and the default parameters of each kernel that has a complete
/// tuning for this device.
struct Tuning {
  std::map<std::string, Params> tuned, defaults;
  bool active = false; ///< whether the tuned parameters are the ones set now
};

/// Reads the tuner files of this device. For each kernel, the files of its
/// tuner whose parameters all belong to it are grouped by the parameters they
/// set (xgemm's families set the same ones); each group's fastest result is
/// taken, the larger groups first, until every parameter has a value.
Tuning loadTuning() {
  Tuning t;
  const Device& dev = device();
  const char* env = std::getenv("BENCH_CLBLAST_TUNED");
  std::filesystem::path dir =
      std::filesystem::path(env && *env ? env : BENCH_CLBLAST_TUNED_DIR) / sanitise(dev.name);
  std::vector<TunerFile> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    std::string name = entry.path().filename().string();
    if (name.rfind("clblast_", 0) != 0 || entry.path().extension() != ".json")
      continue;
    TunerFile f;
    if (!readTunerFile(entry.path(), f))
      std::fprintf(stderr, "clblast bench: %s: not a tuner result, ignored\n", name.c_str());
    else if (f.device != dev.name)
      std::fprintf(stderr, "clblast bench: %s is for '%s', not '%s': ignored\n", name.c_str(),
                   f.device.c_str(), dev.name.c_str());
    else
      files.push_back(f);
  }
  for (const auto& [kernel, prefix] : kTunedKernels) {
    std::unordered_map<std::string, std::size_t> current;
    if (clblast::RetrieveParameters(dev.id, kernel, clblast::Precision::kSingle, current) !=
        clblast::StatusCode::kSuccess)
      continue;
    Params defaults(current.begin(), current.end());
    std::map<std::set<std::string>, const TunerFile*> groups; // fastest file per parameter set
    for (const TunerFile& f : files) {
      if (f.family.rfind(prefix, 0) != 0)
        continue;
      std::set<std::string> names;
      bool ours = true;
      for (const auto& [n, v] : f.best) {
        names.insert(n);
        ours = ours && defaults.count(n);
      }
      auto& g = groups[names];
      if (ours && (!g || f.bestMs < g->bestMs))
        g = &f;
    }
    std::vector<const TunerFile*> chosen;
    for (const auto& [names, f] : groups)
      if (f)
        chosen.push_back(f);
    std::stable_sort(chosen.begin(), chosen.end(), [](const TunerFile* a, const TunerFile* b) {
      return a->best.size() > b->best.size();
    });
    Params tuned;
    std::string from;
    for (const TunerFile* f : chosen) {
      bool adds = false;
      for (const auto& [n, v] : f->best)
        adds = tuned.emplace(n, v).second || adds;
      if (adds)
        from += (from.empty() ? "" : ", ") + f->file;
    }
    if (tuned.size() == defaults.size()) {
      t.tuned[kernel] = tuned;
      t.defaults[kernel] = defaults;
      std::fprintf(stderr, "clblast bench: %s tuned from %s\n", kernel.c_str(), from.c_str());
    } else if (!tuned.empty()) {
      std::fprintf(stderr,
                   "clblast bench: %s: tuning incomplete (%zu of %zu parameters), left at "
                   "its defaults\n",
                   kernel.c_str(), tuned.size(), defaults.size());
    }
  }
  if (t.tuned.empty())
    std::fprintf(stderr,
                 "clblast bench: no tuning for '%s' in %s (bench/clblast/tune writes one): the "
                 "clblast-tuned variants are not registered\n",
                 dev.name.c_str(), dir.string().c_str());
  return t;
}

/// Sets the tuned or the default parameters of every tuned kernel, if they
/// are not the ones set now. CLBlast recompiles the kernels at the next call.
void useTuning(Tuning& t, bool tuned) {
  if (t.active == tuned)
    return;
  for (const auto& [kernel, params] : tuned ? t.tuned : t.defaults) {
    std::vector<const char*> names;
    std::vector<std::size_t> values;
    for (const auto& [n, v] : params) {
      names.push_back(n.c_str());
      values.push_back(v);
    }
    CLBlastStatusCode s =
        CLBlastOverrideParameters(device().id, kernel.c_str(), CLBlastPrecisionSingle, names.size(),
                                  names.data(), values.data());
    if (s != CLBlastSuccess) {
      std::fprintf(stderr, "clblast bench: CLBlastOverrideParameters(%s) failed (%d)\n",
                   kernel.c_str(), int(s));
      std::exit(1);
    }
  }
  t.active = tuned;
}

/// Registers `clblast` and `clblast-dev`, or with `tuning` the same as
/// `clblast-tuned` and `clblast-tuned-dev`. Each variant first sets the
/// parameters it is named for (the first, checked call compiles them).
void registerVariants(Tuning& tuning, bool tuned) {
  std::string suffix = tuned ? "-tuned" : "";
  Tuning* t = &tuning;
  for (const auto& [kernel, call] : calls()) {
    const Call* c = &call;
    // host arrays in and out, as through the risec C ABI
    bench::registerVariant(kernel, "clblast" + suffix,
                           {[c, t, tuned](Data& d) {
                              useTuning(*t, tuned);
                              startOutput(d, *c);
                            },
                            [c](Data& d) {
                              upload(d, c->inPlaceFrom != -1);
                              cl_command_queue q = device().queue;
                              CLBlastStatusCode s = c->run(d, buffers(d), &q);
                              download(d);
                              return int(s);
                            }});
    // device-resident buffers: the kernel alone
    bench::registerVariant(kernel, "clblast" + suffix + "-dev",
                           {[c, t, tuned](Data& d) {
                              useTuning(*t, tuned);
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
}

} // namespace

int main(int argc, char** argv) {
  static Tuning tuning = loadTuning();
  registerVariants(tuning, false);
  if (!tuning.tuned.empty())
    registerVariants(tuning, true);
  return bench::runBenchmarks(argc, argv);
}
