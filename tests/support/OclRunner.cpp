#include "OclRunner.h"

#include "CKernelRunner.h"
#include "TestFiles.h"

#include "codegen/host/Launch.h"
#include "elevate/Rewriter.h"
#include "elevate/StrategyFile.h"
#include "rise/parse/Parser.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <unistd.h>

namespace risec::testsupport {

namespace fs = std::filesystem;
using rise::interp::SizeEnv;
using rise::interp::Value;

// ---- compiling ------------------------------------------------------------------------

std::string OclCompileOutcome::describe() const {
  switch (status) {
  case Status::Compiled:
    return "compiled";
  case Status::TypeError:
  case Status::Rejected:
    return (status == Status::TypeError ? "type error " : "") + error->code() + " at " +
           error->location().str() + ": " + error->message();
  case Status::Internal:
    break;
  }
  return "internal error: " + internal;
}

OclCompileOutcome compileOpenCL(const std::string& name, const std::string& text,
                                const std::string& strategy, const std::string& entry,
                                const std::string& launch) {
  OclCompileOutcome out;
  rise::Program program;
  rise::TypedDef def;
  try {
    program = rise::parseProgram(rise::makeSourceFile(name, text));
    if (program.defs.empty())
      throw std::runtime_error("the program has no def");
    def = rise::inferDef(program, entry.empty() ? program.defs.back().name : entry);
  } catch (const CompileError& e) {
    out.status = OclCompileOutcome::Status::TypeError;
    out.error = e;
    return out;
  } catch (const std::exception& e) {
    out.status = OclCompileOutcome::Status::Internal;
    out.internal = std::string("in parse/infer: ") + e.what();
    return out;
  }
  try {
    if (!strategy.empty()) {
      elevate::StrategyPtr s =
          elevate::loadStrategy(rise::makeSourceFile(name + ".elevate", strategy));
      def = elevate::rewriteDef(program, def, *s);
      program = elevate::rewrittenProgram(program, def);
    }
    codegen::c::COptions opts{def.name, name, "test", "", codegen::Target::OpenCL};
    if (!launch.empty())
      opts.launch = codegen::host::parseLaunchOption(launch, rise::sizeBinders(def));
    codegen::CompileResult r = codegen::compileToC(program, def, opts);
    out.kernel = CompiledKernel{program, def, std::move(r)};
    out.status = OclCompileOutcome::Status::Compiled;
  } catch (const CompileError& e) {
    out.status = OclCompileOutcome::Status::Rejected;
    out.error = e;
  } catch (const std::exception& e) { // InternalError, or anything else a bug throws
    out.status = OclCompileOutcome::Status::Internal;
    out.internal = e.what();
  }
  return out;
}

// ---- launches -----------------------------------------------------------------------------

std::string Launch::str() const {
  std::string g = "global ", l = " local ";
  for (unsigned d = 0; d < dims && d < 3; ++d) {
    g += (d ? "x" : "") + std::to_string(global[d]);
    l += (d ? "x" : "") + std::to_string(local[d]);
  }
  return g + l;
}

Launch launch1D(std::size_t g0, std::size_t l0) {
  Launch l;
  l.global[0] = g0;
  l.local[0] = l0;
  return l;
}

Launch launch2D(std::size_t g0, std::size_t g1, std::size_t l0, std::size_t l1) {
  Launch l = launch1D(g0, l0);
  l.dims = 2;
  l.global[1] = g1;
  l.local[1] = l1;
  return l;
}

Launch launch3D(std::size_t g0, std::size_t g1, std::size_t g2, std::size_t l0, std::size_t l1,
                std::size_t l2) {
  Launch l = launch2D(g0, g1, l0, l1);
  l.dims = 3;
  l.global[2] = g2;
  l.local[2] = l2;
  return l;
}

// ---- values ---------------------------------------------------------------------------------

std::int64_t countAt(const rise::Nat& n, const SizeEnv& s) {
  rise::Nat v =
      rise::natMapVars(n, [&](const rise::NatVarInfo& x) { return rise::natConst(s.at(x.name)); });
  if (!v->isConst())
    throw std::runtime_error("cannot evaluate " + rise::natToString(n));
  return v->value();
}

std::vector<float> flatFloats(const rise::Type& t, const Value& v) {
  std::ostringstream os;
  writeValue(t, v, os);
  std::vector<float> out;
  for (const std::string& tok : tokens(os.str()))
    out.push_back(std::stof(tok));
  if (t->kind() != rise::TypeKind::Scalar) // writeValue starts a buffer with its length
    out.erase(out.begin());
  return out;
}

namespace {

bool isF32(const rise::Type& t) {
  return t->kind() == rise::TypeKind::Scalar && t->scalar() == rise::ScalarKind::F32;
}

bool isI32(const rise::Type& t) {
  return t->kind() == rise::TypeKind::Scalar && t->scalar() == rise::ScalarKind::I32;
}

/// A vector of f32 of a width that can be a struct field (2, 4, 8, 16).
bool isF32Vector(const rise::Type& t) {
  if (t->kind() != rise::TypeKind::Vec || !isF32(t->elem()) || !t->size()->isConst())
    return false;
  std::int64_t w = t->size()->value();
  return w == 2 || w == 4 || w == 8 || w == 16;
}

/// f32, or a (nested) pair of f32 and vectors of f32: C structs of floats
/// and float vectors (the ABI's array of structs).
bool f32OrPairOfF32(const rise::Type& t) {
  if (t->kind() == rise::TypeKind::Pair) {
    auto field = [](const rise::Type& c) { return isF32Vector(c) || f32OrPairOfF32(c); };
    return field(t->first()) && field(t->second());
  }
  return isF32(t);
}

/// The C layout of one element of an f32 buffer: its size and alignment in
/// bytes and the byte offset of each of its scalars in row-major order (a
/// vector field is aligned to its size, as GCC's and OpenCL's vectors are).
struct ElementLayout {
  std::int64_t bytes = 4, align = 4;
  std::vector<std::int64_t> offsets = {0};
};

ElementLayout layoutOf(const rise::Type& t) {
  ElementLayout l;
  if (t->kind() == rise::TypeKind::Vec) {
    std::int64_t w = t->size()->value();
    l.bytes = l.align = 4 * w;
    l.offsets.clear();
    for (std::int64_t k = 0; k < w; ++k)
      l.offsets.push_back(4 * k);
  } else if (t->kind() == rise::TypeKind::Pair) {
    ElementLayout a = layoutOf(t->first()), b = layoutOf(t->second());
    std::int64_t at = (a.bytes + b.align - 1) / b.align * b.align;
    l.align = std::max(a.align, b.align);
    l.bytes = (at + b.bytes + l.align - 1) / l.align * l.align;
    l.offsets = a.offsets;
    for (std::int64_t o : b.offsets)
      l.offsets.push_back(at + o);
  }
  return l;
}

/// The innermost element of an array or vector type (`t` itself otherwise).
rise::Type innermostElement(const rise::Type& t) {
  rise::Type e = t;
  while (e->kind() == rise::TypeKind::Array || e->kind() == rise::TypeKind::Vec)
    e = e->elem();
  return e;
}

/// An array or vector (of arrays, vectors ...) of f32 or of pairs of f32
/// (interleaved, the ABI's array of structs): an f32 buffer.
bool isF32Array(const rise::Type& t) {
  rise::Type e = innermostElement(t);
  return e != t && f32OrPairOfF32(e);
}

/// An array (of arrays ...) of i32: an int buffer.
bool isI32Array(const rise::Type& t) {
  rise::Type e = innermostElement(t);
  return e != t && isI32(e);
}

/// The 4-byte words of one element of a buffer of type `t` (padding
/// included: a struct with vector fields may have some).
std::int64_t wordsPerElement(const rise::Type& t) {
  return layoutOf(innermostElement(t)).bytes / 4;
}

/// An f32 input buffer's words: its scalars in row-major order, each element
/// laid out as its C struct (zeros in the padding).
std::vector<float> bufferWords(const rise::Type& t, const Value& v) {
  std::vector<float> scalars = flatFloats(t, v);
  rise::Type e = innermostElement(t);
  ElementLayout l = layoutOf(e);
  if (e == t || static_cast<std::int64_t>(l.offsets.size()) * 4 == l.bytes)
    return scalars; // no padding
  std::vector<float> words;
  for (std::size_t at = 0; at + l.offsets.size() <= scalars.size(); at += l.offsets.size()) {
    std::size_t base = words.size();
    words.resize(base + static_cast<std::size_t>(l.bytes / 4), 0.0f);
    for (std::size_t k = 0; k < l.offsets.size(); ++k)
      words[base + static_cast<std::size_t>(l.offsets[k] / 4)] = scalars[at + k];
  }
  return words;
}

/// The output buffers of a value: a pair of arrays is one buffer per
/// component (the ABI's "struct of arrays"), anything else one buffer.
void outputLeaves(const rise::Type& t, std::vector<rise::Type>& out) {
  if (t->kind() == rise::TypeKind::Pair) {
    outputLeaves(t->first(), out);
    outputLeaves(t->second(), out);
  } else {
    out.push_back(t);
  }
}

/// The bytes of one element of a global temporary (a C struct for pairs).
std::size_t elementBytes(const rise::Type& t) {
  if (f32OrPairOfF32(innermostElement(t)) && innermostElement(t)->kind() == rise::TypeKind::Pair)
    return static_cast<std::size_t>(layoutOf(innermostElement(t)).bytes);
  switch (t->kind()) {
  case rise::TypeKind::Array:
  case rise::TypeKind::Vec:
    return elementBytes(t->elem());
  case rise::TypeKind::Pair: {
    std::size_t a = elementBytes(t->first()), b = elementBytes(t->second());
    std::size_t align = std::max(a, b);
    return (a + b + align - 1) / align * align;
  }
  case rise::TypeKind::Index:
    return 4;
  default: {
    switch (t->scalar()) {
    case rise::ScalarKind::Bool:
    case rise::ScalarKind::I8:
    case rise::ScalarKind::U8:
      return 1;
    case rise::ScalarKind::I16:
    case rise::ScalarKind::U16:
      return 2;
    case rise::ScalarKind::I64:
    case rise::ScalarKind::U64:
    case rise::ScalarKind::F64:
      return 8;
    default:
      return 4;
    }
  }
  }
}

// The runner (see OclRunner.h for its job file).
const char* kRunner = R"(#include "risec_cl.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static char* slurp(const char* path) {
  FILE* f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char* s = calloc((size_t)n + 1, 1);
  if (fread(s, 1, (size_t)n, f) != (size_t)n) { fclose(f); free(s); return NULL; }
  fclose(f);
  return s;
}
enum { kMaxArgs = 64 };
static cl_mem mems[kMaxArgs];
static int nMems;
static void releaseMems(void) {
  for (int i = 0; i < nMems; ++i) clReleaseMemObject(mems[i]);
  nMems = 0;
}
/* Every kernel of a job (one per phase) takes every argument. */
enum { kMaxKernels = 8 };
static cl_int setArg(cl_kernel* ks, int nk, cl_uint i, size_t size, const void* v) {
  cl_int err = CL_SUCCESS;
  for (int q = 0; q < nk && err == CL_SUCCESS; ++q) err = clSetKernelArg(ks[q], i, size, v);
  return err;
}
/* Reports a failed job and skips to its `end`. */
#define FAIL(what, code) do { printf("rc %d %s %s\n", (int)(code), what, risec_cl_error_string(code)); goto next; } while (0)
int main(int argc, char** argv) {
  if (argc != 2) return 2;
  risec_cl_context* ctx;
  int st = risec_cl_create(&ctx, NULL);
  if (st) { printf("job 0\nrc %d create %s\n", st, risec_cl_last_error(ctx)); return 1; }
  cl_context c = risec_cl_context_handle(ctx);
  FILE* a = fopen(argv[1], "r");
  if (!a) return 2;
  char word[16], path[4096], name[1024];
  int job = 0;
  while (fscanf(a, "%15s", word) == 1) {
    if (strcmp(word, "job") != 0) return 3;
    unsigned dims;
    size_t g[3], l[3];
    if (fscanf(a, "%4095s %1023s %u %zu %zu %zu %zu %zu %zu", path, name, &dims, &g[0], &g[1],
               &g[2], &l[0], &l[1], &l[2]) != 9) return 3;
    printf("job %d\n", job++);
    fflush(stdout);
    cl_kernel ks[kMaxKernels];
    int one[kMaxKernels];
    int nk = 0;
    cl_mem out[8];
    long outCount[8];
    int outInt[8];
    int nOut = 0;
    cl_int err;
    char* src = slurp(path);
    if (!src) FAIL("read", -1);
    cl_program prog;
    st = risec_cl_program(ctx, src, "-cl-std=CL1.2", &prog);
    free(src);
    if (st) { printf("rc 1 build %s\n", risec_cl_last_error(ctx)); goto next; }
    /* KERNEL: the kernels of the phases in launch order, separated by commas;
       a name ending in `!` runs as one work-item (a phase without parallel maps) */
    for (char* t = strtok(name, ","); t && nk < kMaxKernels; t = strtok(NULL, ",")) {
      size_t len = strlen(t);
      one[nk] = len > 0 && t[len - 1] == '!';
      if (one[nk]) t[len - 1] = 0;
      ks[nk] = clCreateKernel(prog, t, &err);
      if (err) FAIL("kernel", err);
      ++nk;
    }
    cl_uint arg = 0;
    while (fscanf(a, "%15s", word) == 1 && strcmp(word, "end") != 0) {
      if (word[0] == 'i') {
        cl_int v; if (fscanf(a, "%d", &v) != 1) return 3;
        err = setArg(ks, nk, arg++, sizeof v, &v);
      } else if (word[0] == 'f') {
        float v; if (fscanf(a, "%f", &v) != 1) return 3;
        err = setArg(ks, nk, arg++, sizeof v, &v);
      } else {
        long n, bytes = 4;
        if (fscanf(a, "%ld", &n) != 1) return 3;
        if (word[0] == 't' && fscanf(a, "%ld", &bytes) != 1) return 3;
        unsigned char* h = calloc((size_t)(n + 1) * (size_t)bytes, 1);
        float* hf = (float*)h;
        for (long i = 0; word[0] == 'b' && i < n; ++i)
          if (fscanf(a, "%f", &hf[i]) != 1) return 3;
        if (word[0] == 'o') for (long i = 0; i < n; ++i) hf[i] = -1.0f;
        if (word[0] == 'n') for (long i = 0; i < n; ++i) ((cl_int*)h)[i] = -1;
        if (word[0] == 't') memset(h, 0xff, (size_t)(n * bytes));
        cl_mem m = clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                  (size_t)(n + 1) * (size_t)bytes, h, &err);
        free(h);
        if (err) FAIL("buffer", err);
        if (nMems < kMaxArgs) mems[nMems++] = m;
        if ((word[0] == 'o' || word[0] == 'n') && nOut < 8) {
          out[nOut] = m; outInt[nOut] = word[0] == 'n'; outCount[nOut++] = n;
        }
        err = setArg(ks, nk, arg++, sizeof m, &m);
      }
      if (err) FAIL("arg", err);
    }
    for (int q = 0; q < nk; ++q) { /* in order: the queue is an in-order one */
      size_t g1[3] = {1, 1, 1}, l1[3] = {1, 1, 1};
      err = clEnqueueNDRangeKernel(risec_cl_queue(ctx), ks[q], one[q] ? 1 : dims, NULL,
                                   one[q] ? g1 : g, one[q] ? l1 : l, 0, NULL, NULL);
      if (err) FAIL("launch", err);
    }
    err = clFinish(risec_cl_queue(ctx));
    if (err) FAIL("finish", err);
    printf("rc 0\n");
    for (int o = 0; o < nOut; ++o) {
      float* r = calloc((size_t)outCount[o] + 1, sizeof(float));
      err = clEnqueueReadBuffer(risec_cl_queue(ctx), out[o], CL_TRUE, 0,
                                (size_t)outCount[o] * sizeof(float), r, 0, NULL, NULL);
      if (err && outCount[o]) { printf("read failed %d\n", (int)err); return 4; }
      for (long i = 0; i < outCount[o]; ++i)
        if (outInt[o]) printf("%d\n", (int)((cl_int*)r)[i]);
        else printf("%.9g\n", (double)r[i]);
      free(r);
    }
    fflush(stdout);
  next:
    /* skip the rest of a failed job */
    if (strcmp(word, "end") != 0)
      while (fscanf(a, "%15s", word) == 1 && strcmp(word, "end") != 0) {}
    for (int q = 0; q < nk; ++q) clReleaseKernel(ks[q]);
    releaseMems();
    fflush(stdout);
  }
  fclose(a);
  risec_cl_release(ctx);
  return 0;
}
)";

// In a sanitizer build the host runtime library is instrumented, so the
// runner must be built with the same flags. PoCL's own allocations at exit
// are not ours to report.
#ifdef RISEC_E2E_SANITIZE
const std::string kSanitizerFlags = " -fsanitize=address,undefined -fno-sanitize-recover=all";
const std::string kRunEnvironment = "ASAN_OPTIONS=detect_leaks=0 ";
#else
const std::string kSanitizerFlags;
const std::string kRunEnvironment;
#endif

/// RISEC_OCL_RUNNER_KEEP=1: keep the kernel, job and stderr files of every
/// call in the runner's directory (for debugging the runner).
bool keepFiles() {
  const char* v = std::getenv("RISEC_OCL_RUNNER_KEEP");
  return v && *v && std::string(v) != "0";
}

/// Seconds one runner process may take before it counts as hung.
constexpr int kRunnerTimeoutSeconds = 120;

} // namespace

// ---- the runner ------------------------------------------------------------------------------

OclRunner::OclRunner(fs::path dir) : dir_(std::move(dir)) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  std::ofstream(dir_ / "runner.c") << kRunner;
  std::string build = "gcc -std=c11 -O1" + kSanitizerFlags + " -I" + RISEC_HOST_DIR + " -o " +
                      (dir_ / "runner").string() + " " + (dir_ / "runner.c").string() + " " +
                      RISEC_HOST_CL_LIB + " -lOpenCL -lpthread -lm";
  ok_ = runCommand(build, &buildLog_) == 0;
}

bool OclRunner::supports(const CompiledKernel& kernel, std::string* why) {
  auto fail = [&](const std::string& w) {
    if (why)
      *why = w;
    return false;
  };
  rise::Type t = kernel.def.type;
  while (t->kind() == rise::TypeKind::DepFun)
    t = t->result();
  for (int i = 0; t->kind() == rise::TypeKind::Fun; t = t->result(), ++i)
    if (!isF32(t->param()) && !isI32(t->param()) && !isF32Array(t->param()))
      return fail("input " + std::to_string(i) +
                  " is neither an f32 array or vector nor an f32/i32 scalar");
  std::vector<rise::Type> outputs;
  outputLeaves(t, outputs);
  for (const rise::Type& o : outputs)
    if (!isF32(o) && !isF32Array(o) && !isI32Array(o))
      return fail("an output is neither an array or vector of f32 (or of pairs of f32) nor an "
                  "array of i32 nor an f32 scalar");
  return true;
}

std::vector<OclRunResult> OclRunner::run(const CompiledKernel& kernel, const SizeEnv& sizes,
                                         const std::vector<Value>& inputs,
                                         const std::vector<Launch>& launches) {
  std::vector<Job> jobs;
  for (const Launch& l : launches)
    jobs.push_back({sizes, inputs, l});
  return run(kernel, jobs);
}

namespace {

/// The argument lines of one job (OclRunner.h); throws when they cannot be made.
std::string argumentLines(const CompiledKernel& kernel, const SizeEnv& sizes,
                          const std::vector<Value>& inputs, rise::Type& outputType) {
  const rise::TypedDef& def = kernel.def;
  rise::interp::EntryInterface iface = rise::interp::instantiateEntry(def, sizes);
  outputType = iface.outputType;
  std::vector<rise::Type> outputs;
  outputLeaves(iface.outputType, outputs);
  std::ostringstream os;
  os.precision(9);
  for (const rise::Type& o : outputs)
    os << (isI32Array(o) ? "n " : "o ") << elementCount(o) * wordsPerElement(o) << "\n";
  for (const std::string& n : rise::interp::sizeParameters(def))
    os << "i " << sizes.at(n) << "\n";
  if (inputs.size() != iface.inputTypes.size())
    throw std::runtime_error("expected " + std::to_string(iface.inputTypes.size()) +
                             " inputs, got " + std::to_string(inputs.size()));
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const rise::Type& t = iface.inputTypes[i];
    if (isI32(t)) {
      os << "i " << inputs[i].asScalar().i << "\n";
      continue;
    }
    std::vector<float> host = bufferWords(t, inputs[i]);
    if (t->kind() == rise::TypeKind::Scalar) {
      os << "f " << host.at(0) << "\n";
      continue;
    }
    os << "b " << host.size();
    for (float v : host)
      os << " " << v;
    os << "\n";
  }
  for (const codegen::AbiParam* t :
       kernel.result.files.abi.withRole(codegen::AbiParam::Role::Temporary))
    os << "t " << countAt(t->count, sizes) << " " << elementBytes(t->riseType) << "\n";
  return os.str();
}

} // namespace

std::vector<OclRunResult> OclRunner::run(const CompiledKernel& kernel,
                                         const std::vector<Job>& jobs) {
  std::vector<BatchJob> batch;
  for (const Job& j : jobs)
    batch.push_back({&kernel, j});
  return runBatch(batch);
}

namespace {

/// The runner's output, split at its `job K` lines: K and the lines after it.
std::map<std::size_t, std::vector<std::string>> jobSegments(const std::string& out) {
  std::map<std::size_t, std::vector<std::string>> segments;
  std::vector<std::string>* current = nullptr;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("job ", 0) == 0 && line.size() > 4 &&
        line.find_first_not_of("0123456789", 4) == std::string::npos) {
      current = &segments[std::stoul(line.substr(4))];
      continue;
    }
    if (current)
      current->push_back(line);
  }
  return segments;
}

/// The job line's KERNEL: the kernels of the program's phases in launch
/// order, `!` after one that runs as one work-item (docs/dpia.md, "Kernel
/// phases").
std::string kernelList(const codegen::KernelAbi& abi) {
  if (abi.kernels.empty())
    return abi.symbol;
  std::string out;
  for (const codegen::KernelAbi::Kernel& k : abi.kernels)
    out += (out.empty() ? "" : ",") + k.name + (k.parallel || abi.kernels.size() == 1 ? "" : "!");
  return out;
}

std::string joinLines(const std::vector<std::string>& lines) {
  std::string s;
  for (const std::string& l : lines)
    s += l + "\n";
  return s;
}

} // namespace

namespace {

/// The output words of a job without the padding of structs with vector
/// fields: the scalars of each output buffer in row-major order.
std::vector<std::string> withoutPadding(const rise::Type& t,
                                        const std::vector<std::string>& words) {
  std::vector<rise::Type> leaves;
  outputLeaves(t, leaves);
  std::vector<std::string> out;
  std::size_t at = 0;
  for (const rise::Type& leaf : leaves) {
    rise::Type e = innermostElement(leaf);
    ElementLayout l = layoutOf(e);
    std::size_t n = static_cast<std::size_t>(elementCount(leaf)),
                w = static_cast<std::size_t>(wordsPerElement(leaf));
    for (std::size_t i = 0; i < n; ++i, at += w)
      for (std::size_t k = 0; k < (e == leaf ? 1 : l.offsets.size()); ++k)
        out.push_back(words.at(at + (e == leaf ? 0 : static_cast<std::size_t>(l.offsets[k] / 4))));
  }
  return out;
}

} // namespace

/// The helpers a kernel file may define (codegen/c/EmitFiles.cpp, helperCode), renamed
/// per kernel when several kernels share one program.
const char* const kKernelHelpers[] = {"risec_min", "risec_max", "risec_pow"};

std::vector<OclRunResult> OclRunner::runBatch(const std::vector<BatchJob>& jobs) {
  std::vector<OclRunResult> results(jobs.size());
  if (!ok_) {
    for (OclRunResult& r : results)
      r.error = "the runner did not build:\n" + buildLog_;
    return results;
  }
  // The argument lines and output sizes of every job; a job that cannot be
  // passed fails alone.
  std::vector<std::string> args(jobs.size());
  std::vector<rise::Type> outputTypes(jobs.size());
  std::vector<std::int64_t> outputCounts(jobs.size(), 0);
  std::vector<std::vector<std::string>> outputs(jobs.size()); // the words of each job's output
  std::vector<std::size_t> ready;
  std::vector<const CompiledKernel*> kernels; // distinct, in order of appearance
  std::map<std::string, int> symbolUses;
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    const CompiledKernel& kernel = *jobs[j].kernel;
    std::string why;
    if (!supports(kernel, &why)) {
      results[j].error = "the runner cannot feed this kernel: " + why;
      continue;
    }
    try {
      args[j] = argumentLines(kernel, jobs[j].job.sizes, jobs[j].job.inputs, outputTypes[j]);
    } catch (const std::exception& e) {
      results[j].error = std::string("cannot pass the arguments: ") + e.what();
      continue;
    }
    std::vector<rise::Type> leaves;
    outputLeaves(outputTypes[j], leaves);
    for (const rise::Type& t : leaves)
      outputCounts[j] += elementCount(t) * wordsPerElement(t);
    if (std::find(kernels.begin(), kernels.end(), &kernel) == kernels.end()) {
      kernels.push_back(&kernel);
      ++symbolUses[kernel.result.files.abi.symbol];
    }
    ready.push_back(j);
  }

  // Kernels with distinct names share program files, up to kKernelsPerProgram
  // each: PoCL links its kernel library once per program (most of a cold
  // build). A shared program that does not build is retried kernel by kernel.
  constexpr std::size_t kKernelsPerProgram = 50;
  const std::string tag = std::to_string(::getpid()) + "-" + std::to_string(calls_++);
  std::vector<fs::path> written;
  std::map<const CompiledKernel*, fs::path> fileOf;
  auto writeFile = [&](const std::vector<const CompiledKernel*>& group) {
    fs::path f = dir_ / ("kernel-" + tag + "-" + std::to_string(written.size()) + ".cl");
    std::ofstream out(f);
    for (std::size_t i = 0; i < group.size(); ++i) {
      if (group.size() > 1)
        for (const char* h : kKernelHelpers)
          out << "#define " << h << " " << h << "_" << i << "\n";
      out << group[i]->result.files.source << "\n";
      if (group.size() > 1)
        for (const char* h : kKernelHelpers)
          out << "#undef " << h << "\n";
      fileOf[group[i]] = f;
    }
    written.push_back(f);
  };
  // The kernels split into `processes_` consecutive parts, each run by its
  // own runner process (in parallel).
  const std::size_t parts =
      std::max<std::size_t>(1, std::min<std::size_t>(processes_, kernels.size()));
  std::map<const CompiledKernel*, std::size_t> partOf;
  std::set<const CompiledKernel*> shared;
  for (std::size_t part = 0, at = 0; part < parts; ++part) {
    const std::size_t end = (kernels.size() * (part + 1)) / parts;
    std::vector<const CompiledKernel*> group;
    for (; at < end; ++at) {
      const CompiledKernel* k = kernels[at];
      partOf[k] = part;
      if (symbolUses[k->result.files.abi.symbol] > 1) {
        writeFile({k});
        continue;
      }
      group.push_back(k);
      shared.insert(k);
      if (group.size() == kKernelsPerProgram) {
        writeFile(group);
        group.clear();
      }
    }
    if (!group.empty())
      writeFile(group);
  }
  std::vector<std::vector<std::size_t>> partJobs(parts);
  for (std::size_t j : ready)
    partJobs[partOf.at(jobs[j].kernel)].push_back(j);
  if (parts == 1) {
    runJobs(jobs, ready, args, outputCounts, fileOf, tag, results, outputs);
  } else {
    std::vector<std::thread> threads;
    for (std::size_t part = 0; part < parts; ++part)
      threads.emplace_back([&, part] {
        runJobs(jobs, partJobs[part], args, outputCounts, fileOf, tag + "-" + std::to_string(part),
                results, outputs);
      });
    for (std::thread& t : threads)
      t.join();
  }

  // Jobs whose shared program did not build: again, each kernel alone.
  std::vector<std::size_t> retry;
  std::set<const CompiledKernel*> alone;
  for (std::size_t j : ready)
    if (shared.count(jobs[j].kernel) && results[j].rc == 1 &&
        results[j].error.find("build") != std::string::npos) {
      retry.push_back(j);
      if (alone.insert(jobs[j].kernel).second)
        writeFile({jobs[j].kernel});
    }
  if (!retry.empty())
    runJobs(jobs, retry, args, outputCounts, fileOf, tag + "-retry", results, outputs);

  for (std::size_t j : ready) {
    OclRunResult& r = results[j];
    if (r.rc != 0)
      continue;
    try {
      std::size_t pos = 0;
      r.output = unflatten(outputTypes[j], withoutPadding(outputTypes[j], outputs[j]), pos);
    } catch (const std::exception& e) {
      r.rc = -1;
      r.error = std::string("cannot read the output: ") + e.what();
    }
  }

  std::error_code ec;
  if (!keepFiles())
    for (const fs::path& f : written)
      fs::remove(f, ec);
  return results;
}

void OclRunner::runJobs(const std::vector<BatchJob>& jobs, const std::vector<std::size_t>& which,
                        const std::vector<std::string>& args,
                        const std::vector<std::int64_t>& outputCounts,
                        const std::map<const CompiledKernel*, fs::path>& fileOf,
                        const std::string& tag, std::vector<OclRunResult>& results,
                        std::vector<std::vector<std::string>>& outputs) {
  const fs::path jobFile = dir_ / ("jobs-" + tag + ".txt");
  const fs::path errFile = dir_ / ("stderr-" + tag + ".txt");
  std::size_t next = 0; // index into `which` of the first job not run yet
  while (next < which.size()) {
    std::vector<std::size_t> ids(which.begin() + static_cast<std::ptrdiff_t>(next), which.end());
    {
      std::ofstream out(jobFile);
      for (std::size_t j : ids) {
        const Launch& l = jobs[j].job.launch;
        out << "job " << fileOf.at(jobs[j].kernel).string() << " "
            << kernelList(jobs[j].kernel->result.files.abi) << " " << l.dims;
        for (std::size_t g : l.global)
          out << " " << g;
        for (std::size_t x : l.local)
          out << " " << x;
        out << "\n" << args[j] << "end\n";
      }
    }
    const std::size_t timeout = kRunnerTimeoutSeconds + 5 * ids.size();
    std::string cmd = "(" + kRunEnvironment + environment_ +
                      " RISEC_CL_CACHE_DIR=" + (dir_ / "cache").string() + " timeout " +
                      std::to_string(timeout) + " " + (dir_ / "runner").string() + " " +
                      jobFile.string() + " 2>" + errFile.string() + ")";
    std::string out;
    int status = runCommand(cmd, &out);
    std::map<std::size_t, std::vector<std::string>> segments = jobSegments(out);
    std::size_t answered = ids.size();
    for (std::size_t k = 0; k < ids.size(); ++k) {
      const std::size_t j = ids[k];
      OclRunResult& r = results[j];
      auto seg = segments.find(k);
      if (seg == segments.end()) { // not reached: the process ended before
        answered = k;
        if (k == 0) // not even the first one: give up
          for (std::size_t rest : ids)
            results[rest].error = "the runner did not start (exit status " +
                                  std::to_string(status) + "):\n" + out + test::readFile(errFile);
        break;
      }
      const std::vector<std::string>& lines = seg->second;
      std::vector<std::string> tok;
      for (std::size_t i = 1; i < lines.size(); ++i)
        for (const std::string& t : tokens(lines[i]))
          tok.push_back(t);
      bool complete =
          !lines.empty() && lines[0].rfind("rc ", 0) == 0 &&
          (lines[0] != "rc 0" || static_cast<std::int64_t>(tok.size()) >= outputCounts[j]);
      if (!complete) { // it crashed or hung in this job: go on after it
        r.rc = -1;
        r.error = "the runner died in this job (exit status " + std::to_string(status) + "):\n" +
                  joinLines(lines) + test::readFile(errFile);
        answered = k + 1;
        break;
      }
      r.rc = std::atoi(lines[0].c_str() + 3);
      if (r.rc != 0)
        r.error = joinLines(lines);
      else
        outputs[j] = std::move(tok); // read by the caller: rise types are not for threads
    }
    if (answered == 0)
      break;
    next += answered;
  }
  if (keepFiles())
    return;
  std::error_code ec;
  fs::remove(jobFile, ec);
  fs::remove(errFile, ec);
}

OclRunner& defaultOclRunner() {
  // removed at exit (with its binary cache) unless RISEC_OCL_RUNNER_KEEP is set
  struct Holder {
    OclRunner runner{fs::temp_directory_path() /
                     ("risec-ocl-runner-" + std::to_string(::getpid()))};
    ~Holder() {
      std::error_code ec;
      if (!keepFiles())
        fs::remove_all(runner.dir(), ec);
    }
  };
  static Holder holder;
  return holder.runner;
}

OclRunResult runOpenCL(const CompiledKernel& kernel, const SizeEnv& sizes,
                       const std::vector<Value>& inputs, const Launch& launch) {
  return defaultOclRunner().run(kernel, sizes, inputs, {launch}).at(0);
}

} // namespace risec::testsupport
