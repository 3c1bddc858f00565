/* risec OpenCL host runtime; see risec_cl.h. */
#define _POSIX_C_SOURCE 200809L
#include "risec_cl.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- context ------------------------------------------------------------ */

typedef struct cached_program {
  char* key; /* options + '\0' + source, compared exactly */
  size_t key_length;
  cl_program program;
  struct cached_program* next;
} cached_program;

struct risec_cl_context {
  cl_platform_id platform;
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
  char name[512];
  char identity[2048]; /* device, driver and platform versions: part of the cache key */
  char* last_error;
  cached_program* programs;
  risec_cl_stats stats;
  int zero_copy;         /* wrap aligned host arrays (CL_MEM_USE_HOST_PTR) */
  cl_mem* staging;       /* staging buffers by slot (NULL: none yet) */
  size_t* staging_bytes; /* their sizes */
  unsigned staging_count;
};

static void set_error(risec_cl_context* ctx, const char* format, ...) {
  va_list args;
  va_start(args, format);
  int length = vsnprintf(NULL, 0, format, args);
  va_end(args);
  if (length < 0)
    return;
  char* text = malloc((size_t)length + 1);
  if (!text)
    return;
  va_start(args, format);
  vsnprintf(text, (size_t)length + 1, format, args);
  va_end(args);
  free(ctx->last_error);
  ctx->last_error = text;
}

/* ---- error strings ------------------------------------------------------- */

const char* risec_cl_error_string(int code) {
  switch (code) {
#define NAME(c)                                                                                    \
  case c:                                                                                          \
    return #c;
    NAME(CL_SUCCESS)
    NAME(CL_DEVICE_NOT_FOUND)
    NAME(CL_DEVICE_NOT_AVAILABLE)
    NAME(CL_COMPILER_NOT_AVAILABLE)
    NAME(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    NAME(CL_OUT_OF_RESOURCES)
    NAME(CL_OUT_OF_HOST_MEMORY)
    NAME(CL_PROFILING_INFO_NOT_AVAILABLE)
    NAME(CL_MEM_COPY_OVERLAP)
    NAME(CL_IMAGE_FORMAT_MISMATCH)
    NAME(CL_IMAGE_FORMAT_NOT_SUPPORTED)
    NAME(CL_BUILD_PROGRAM_FAILURE)
    NAME(CL_MAP_FAILURE)
    NAME(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    NAME(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    NAME(CL_COMPILE_PROGRAM_FAILURE)
    NAME(CL_LINKER_NOT_AVAILABLE)
    NAME(CL_LINK_PROGRAM_FAILURE)
    NAME(CL_DEVICE_PARTITION_FAILED)
    NAME(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
    NAME(CL_INVALID_VALUE)
    NAME(CL_INVALID_DEVICE_TYPE)
    NAME(CL_INVALID_PLATFORM)
    NAME(CL_INVALID_DEVICE)
    NAME(CL_INVALID_CONTEXT)
    NAME(CL_INVALID_QUEUE_PROPERTIES)
    NAME(CL_INVALID_COMMAND_QUEUE)
    NAME(CL_INVALID_HOST_PTR)
    NAME(CL_INVALID_MEM_OBJECT)
    NAME(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    NAME(CL_INVALID_IMAGE_SIZE)
    NAME(CL_INVALID_SAMPLER)
    NAME(CL_INVALID_BINARY)
    NAME(CL_INVALID_BUILD_OPTIONS)
    NAME(CL_INVALID_PROGRAM)
    NAME(CL_INVALID_PROGRAM_EXECUTABLE)
    NAME(CL_INVALID_KERNEL_NAME)
    NAME(CL_INVALID_KERNEL_DEFINITION)
    NAME(CL_INVALID_KERNEL)
    NAME(CL_INVALID_ARG_INDEX)
    NAME(CL_INVALID_ARG_VALUE)
    NAME(CL_INVALID_ARG_SIZE)
    NAME(CL_INVALID_KERNEL_ARGS)
    NAME(CL_INVALID_WORK_DIMENSION)
    NAME(CL_INVALID_WORK_GROUP_SIZE)
    NAME(CL_INVALID_WORK_ITEM_SIZE)
    NAME(CL_INVALID_GLOBAL_OFFSET)
    NAME(CL_INVALID_EVENT_WAIT_LIST)
    NAME(CL_INVALID_EVENT)
    NAME(CL_INVALID_OPERATION)
    NAME(CL_INVALID_GL_OBJECT)
    NAME(CL_INVALID_BUFFER_SIZE)
    NAME(CL_INVALID_MIP_LEVEL)
    NAME(CL_INVALID_GLOBAL_WORK_SIZE)
    NAME(CL_INVALID_PROPERTY)
    NAME(CL_INVALID_IMAGE_DESCRIPTOR)
    NAME(CL_INVALID_COMPILER_OPTIONS)
    NAME(CL_INVALID_LINKER_OPTIONS)
    NAME(CL_INVALID_DEVICE_PARTITION_COUNT)
    NAME(RISEC_CL_NO_DEVICE)
    NAME(RISEC_CL_BAD_SELECTOR)
    NAME(RISEC_CL_BUILD_FAILED)
    NAME(RISEC_CL_OUT_OF_MEMORY)
    NAME(RISEC_CL_OPENCL_ERROR)
    NAME(RISEC_CL_LAUNCH_MISFIT)
#undef NAME
  default:
    return "unknown error";
  }
}

/* ---- device selection ------------------------------------------------------ */

static void device_label(cl_platform_id p, cl_device_id d, char* out, size_t size) {
  char platform[256] = "", device[256] = "";
  clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof platform - 1, platform, NULL);
  clGetDeviceInfo(d, CL_DEVICE_NAME, sizeof device - 1, device, NULL);
  /* at most 250 + 3 + 250 characters: fits the 512 bytes of every caller */
  snprintf(out, size, "%.250s / %.250s", platform, device);
}

static int parse_index(const char* text, const char** end) {
  if (*text < '0' || *text > '9')
    return -1;
  long v = strtol(text, (char**)end, 10);
  return v > 1000000 ? -1 : (int)v;
}

/* Picks the device; returns RISEC_CL_OK and fills ctx->platform/device. */
static int select_device(risec_cl_context* ctx, const char* selector) {
  cl_platform_id platforms[16];
  cl_uint platform_count = 0;
  if (clGetPlatformIDs(16, platforms, &platform_count) != CL_SUCCESS || platform_count == 0) {
    set_error(ctx, "no OpenCL platform is installed (for a CPU device install PoCL)");
    return RISEC_CL_NO_DEVICE;
  }
  const char* end = NULL;
  int want_platform = selector ? parse_index(selector, &end) : -1;
  int want_device = -1;
  if (want_platform >= 0 && *end == ':')
    want_device = parse_index(end + 1, &end);
  int by_index = want_platform >= 0 && *end == '\0';
  if (by_index && (cl_uint)want_platform >= platform_count) {
    set_error(ctx, "OpenCL platform %d does not exist (there are %u)", want_platform,
              platform_count);
    return RISEC_CL_BAD_SELECTOR;
  }
  /* Two passes without a selector: GPUs first, then any device. */
  for (int pass = 0; pass < 2; ++pass) {
    for (cl_uint p = 0; p < platform_count; ++p) {
      if (by_index && p != (cl_uint)want_platform)
        continue;
      cl_device_id devices[64];
      cl_uint device_count = 0;
      cl_device_type type = (!selector && pass == 0) ? CL_DEVICE_TYPE_GPU : CL_DEVICE_TYPE_ALL;
      if (clGetDeviceIDs(platforms[p], type, 64, devices, &device_count) != CL_SUCCESS)
        continue;
      for (cl_uint d = 0; d < device_count; ++d) {
        char label[512];
        device_label(platforms[p], devices[d], label, sizeof label);
        int match = !selector || (by_index && (want_device < 0 || (cl_uint)want_device == d)) ||
                    (!by_index && strstr(label, selector) != NULL);
        if (!match)
          continue;
        ctx->platform = platforms[p];
        ctx->device = devices[d];
        snprintf(ctx->name, sizeof ctx->name, "%s", label);
        return RISEC_CL_OK;
      }
      if (by_index && want_device >= 0) {
        set_error(ctx, "OpenCL platform %d has no device %d (it has %u)", want_platform,
                  want_device, device_count);
        return RISEC_CL_BAD_SELECTOR;
      }
    }
  }
  set_error(ctx, "no OpenCL device matches \"%s\"", selector ? selector : "(any)");
  return RISEC_CL_NO_DEVICE;
}

static void read_identity(risec_cl_context* ctx) {
  char device_version[256] = "", driver[256] = "", platform_version[256] = "";
  clGetDeviceInfo(ctx->device, CL_DEVICE_VERSION, sizeof device_version - 1, device_version, NULL);
  clGetDeviceInfo(ctx->device, CL_DRIVER_VERSION, sizeof driver - 1, driver, NULL);
  clGetPlatformInfo(ctx->platform, CL_PLATFORM_VERSION, sizeof platform_version - 1,
                    platform_version, NULL);
  snprintf(ctx->identity, sizeof ctx->identity, "%s\n%s\n%s\n%s", ctx->name, device_version, driver,
           platform_version);
}

int risec_cl_create(risec_cl_context** out, const char* selector) {
  *out = NULL;
  risec_cl_context* ctx = calloc(1, sizeof *ctx);
  if (!ctx)
    return RISEC_CL_OUT_OF_MEMORY;
  if (!selector || !*selector) {
    const char* env = getenv("RISEC_CL_DEVICE");
    selector = env && *env ? env : NULL;
  }
  int status = select_device(ctx, selector);
  cl_int err = CL_SUCCESS;
  if (status == RISEC_CL_OK) {
    ctx->context = clCreateContext(NULL, 1, &ctx->device, NULL, NULL, &err);
    if (err == CL_SUCCESS)
      ctx->queue = clCreateCommandQueue(ctx->context, ctx->device, 0, &err);
    if (err != CL_SUCCESS) {
      set_error(ctx, "cannot create an OpenCL context on %s: %s", ctx->name,
                risec_cl_error_string(err));
      status = RISEC_CL_OPENCL_ERROR;
    }
  }
  if (status != RISEC_CL_OK) {
    /* Keep the context so that the caller can read the message. */
    *out = ctx;
    return status;
  }
  read_identity(ctx);
  cl_bool unified = CL_FALSE;
  if (clGetDeviceInfo(ctx->device, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof unified, &unified, NULL) !=
      CL_SUCCESS)
    unified = CL_FALSE;
  const char* zero_copy = getenv("RISEC_CL_ZERO_COPY");
  if (zero_copy && *zero_copy)
    ctx->zero_copy = strcmp(zero_copy, "0") != 0;
  else
    ctx->zero_copy = unified == CL_TRUE;
  *out = ctx;
  return RISEC_CL_OK;
}

void risec_cl_release(risec_cl_context* ctx) {
  if (!ctx)
    return;
  risec_cl_trim(ctx);
  for (cached_program* p = ctx->programs; p;) {
    cached_program* next = p->next;
    clReleaseProgram(p->program);
    free(p->key);
    free(p);
    p = next;
  }
  if (ctx->queue)
    clReleaseCommandQueue(ctx->queue);
  if (ctx->context)
    clReleaseContext(ctx->context);
  free(ctx->last_error);
  free(ctx);
}

cl_context risec_cl_context_handle(const risec_cl_context* ctx) {
  return ctx->context;
}
cl_command_queue risec_cl_queue(const risec_cl_context* ctx) {
  return ctx->queue;
}
cl_device_id risec_cl_device(const risec_cl_context* ctx) {
  return ctx->device;
}
const char* risec_cl_device_name(const risec_cl_context* ctx) {
  return ctx->name;
}
const char* risec_cl_last_error(const risec_cl_context* ctx) {
  return ctx->last_error ? ctx->last_error : "";
}
risec_cl_stats risec_cl_get_stats(const risec_cl_context* ctx) {
  return ctx->stats;
}

/* ---- the default context ------------------------------------------------ */

static pthread_once_t default_once = PTHREAD_ONCE_INIT;
static risec_cl_context* default_context;
static int default_status = RISEC_CL_NO_DEVICE;

static void create_default(void) {
  default_status = risec_cl_create(&default_context, NULL);
}

int risec_cl_default(risec_cl_context** out) {
  pthread_once(&default_once, create_default);
  *out = default_context;
  return default_status;
}

const char* risec_cl_default_error(void) {
  return default_context ? risec_cl_last_error(default_context) : "";
}

int risec_cl_fail(risec_cl_context* ctx, const char* what, cl_int err) {
  set_error(ctx, "%s: %s", what, risec_cl_error_string(err));
  return RISEC_CL_OPENCL_ERROR;
}

/* ---- the launch check ---------------------------------------------------------------- */

/* "16 x 64 = 1024 work-items" (or "300 work-items" in one dimension). */
static void local_text(cl_uint dims, const size_t local[3], size_t items, char* out, size_t size) {
  if (dims == 1) {
    snprintf(out, size, "%zu work-items", items);
    return;
  }
  int at = 0;
  for (cl_uint d = 0; d < dims && at >= 0 && (size_t)at < size; ++d)
    at += snprintf(out + at, size - (size_t)at, "%s%zu", d ? " x " : "", local[d]);
  if (at >= 0 && (size_t)at < size)
    snprintf(out + at, size - (size_t)at, " = %zu work-items", items);
}

static const char kLaunchFix[] =
    "; give the kernel smaller work-groups: a smaller tile (the trip count of a mapLocal) in "
    "the strategy, or a smaller local size in the spec's `launch:` (risec compile --launch)";

int risec_cl_check_launch(risec_cl_context* ctx, cl_kernel kernel, cl_uint dims,
                          const size_t global[3], const size_t local[3]) {
  for (cl_uint d = 0; d < dims; ++d)
    if (global[d] == 0)
      return RISEC_CL_OK; /* nothing is launched */
  char name[256] = "?";
  cl_int err = clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL);
  if (err != CL_SUCCESS)
    return risec_cl_fail(ctx, "clGetKernelInfo(CL_KERNEL_FUNCTION_NAME)", err);
  cl_device_id device = ctx->device;
  if (local[0] > 0) {
    size_t items = 1;
    for (cl_uint d = 0; d < dims; ++d)
      items *= local[d];
    char text[128];
    local_text(dims, local, items, text, sizeof text);
    size_t device_max = 0, kernel_max = 0, item_max[3] = {0, 0, 0};
    if ((err = clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof device_max,
                               &device_max, NULL)) != CL_SUCCESS)
      return risec_cl_fail(ctx, "clGetDeviceInfo(CL_DEVICE_MAX_WORK_GROUP_SIZE)", err);
    if (items > device_max) {
      set_error(ctx,
                "kernel %s: local size %s exceeds this device's maximum work-group size of %zu "
                "(CL_DEVICE_MAX_WORK_GROUP_SIZE, %s)%s",
                name, text, device_max, ctx->name, kLaunchFix);
      return RISEC_CL_LAUNCH_MISFIT;
    }
    if ((err = clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof item_max, item_max,
                               NULL)) != CL_SUCCESS)
      return risec_cl_fail(ctx, "clGetDeviceInfo(CL_DEVICE_MAX_WORK_ITEM_SIZES)", err);
    for (cl_uint d = 0; d < dims && d < 3; ++d)
      if (local[d] > item_max[d]) {
        set_error(ctx,
                  "kernel %s: local size %s: %zu work-items in dimension %u exceed this "
                  "device's maximum of %zu there (CL_DEVICE_MAX_WORK_ITEM_SIZES, %s)%s",
                  name, text, local[d], d, item_max[d], ctx->name, kLaunchFix);
        return RISEC_CL_LAUNCH_MISFIT;
      }
    if ((err = clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_WORK_GROUP_SIZE,
                                        sizeof kernel_max, &kernel_max, NULL)) != CL_SUCCESS)
      return risec_cl_fail(ctx, "clGetKernelWorkGroupInfo(CL_KERNEL_WORK_GROUP_SIZE)", err);
    if (items > kernel_max) {
      set_error(ctx,
                "kernel %s: local size %s exceeds the work-group size of %zu that this device "
                "allows for this kernel (CL_KERNEL_WORK_GROUP_SIZE: its registers or local "
                "memory, %s)%s",
                name, text, kernel_max, ctx->name, kLaunchFix);
      return RISEC_CL_LAUNCH_MISFIT;
    }
  }
  cl_ulong used = 0, available = 0;
  if ((err = clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof used, &used,
                                      NULL)) != CL_SUCCESS)
    return risec_cl_fail(ctx, "clGetKernelWorkGroupInfo(CL_KERNEL_LOCAL_MEM_SIZE)", err);
  if ((err = clGetDeviceInfo(device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof available, &available,
                             NULL)) != CL_SUCCESS)
    return risec_cl_fail(ctx, "clGetDeviceInfo(CL_DEVICE_LOCAL_MEM_SIZE)", err);
  if (used > available) {
    set_error(ctx,
              "kernel %s: its local memory of %llu bytes (CL_KERNEL_LOCAL_MEM_SIZE) exceeds "
              "this device's %llu bytes (CL_DEVICE_LOCAL_MEM_SIZE, %s); stage smaller tiles "
              "in local memory: a smaller tile parameter in the strategy",
              name, (unsigned long long)used, (unsigned long long)available, ctx->name);
    return RISEC_CL_LAUNCH_MISFIT;
  }
  return RISEC_CL_OK;
}

/* ---- host arrays ---------------------------------------------------------------- */

int risec_cl_zero_copy(const risec_cl_context* ctx) {
  return ctx->zero_copy;
}

void risec_cl_set_zero_copy(risec_cl_context* ctx, int on) {
  ctx->zero_copy = on != 0;
}

void risec_cl_trim(risec_cl_context* ctx) {
  for (unsigned i = 0; i < ctx->staging_count; ++i)
    if (ctx->staging[i])
      clReleaseMemObject(ctx->staging[i]);
  free(ctx->staging);
  free(ctx->staging_bytes);
  ctx->staging = NULL;
  ctx->staging_bytes = NULL;
  ctx->staging_count = 0;
}

/* The staging buffer `slot` with at least `bytes` bytes (at least 1). */
static int staging_buffer(risec_cl_context* ctx, unsigned slot, size_t bytes, cl_mem* out) {
  if (slot >= ctx->staging_count) {
    unsigned count = slot + 1;
    cl_mem* buffers = realloc(ctx->staging, count * sizeof *buffers);
    if (buffers)
      ctx->staging = buffers;
    size_t* sizes = buffers ? realloc(ctx->staging_bytes, count * sizeof *sizes) : NULL;
    if (!sizes) {
      set_error(ctx, "out of host memory for the staging buffers");
      return RISEC_CL_OPENCL_ERROR;
    }
    ctx->staging_bytes = sizes;
    for (unsigned i = ctx->staging_count; i < count; ++i) {
      ctx->staging[i] = NULL;
      ctx->staging_bytes[i] = 0;
    }
    ctx->staging_count = count;
  }
  if (bytes == 0)
    bytes = 1;
  if (!ctx->staging[slot] || ctx->staging_bytes[slot] < bytes) {
    if (ctx->staging[slot])
      clReleaseMemObject(ctx->staging[slot]);
    ctx->staging[slot] = NULL;
    ctx->staging_bytes[slot] = 0;
    cl_int err = CL_SUCCESS;
    cl_mem buffer = clCreateBuffer(ctx->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (err != CL_SUCCESS)
      return risec_cl_fail(ctx, "clCreateBuffer(staging)", err);
    ctx->staging[slot] = buffer;
    ctx->staging_bytes[slot] = bytes;
    ++ctx->stats.staging_allocations;
  }
  *out = ctx->staging[slot];
  return RISEC_CL_OK;
}

int risec_cl_host_array_begin(risec_cl_context* ctx, unsigned slot, const void* host, size_t bytes,
                              size_t alignment, int output, risec_cl_host_array* array) {
  array->buffer = NULL;
  array->wrapped = 0;
  cl_int err = CL_SUCCESS;
  if (ctx->zero_copy && bytes > 0 && host && alignment > 0 && (uintptr_t)host % alignment == 0) {
    cl_mem_flags flags = CL_MEM_USE_HOST_PTR | (output ? CL_MEM_WRITE_ONLY : CL_MEM_READ_ONLY);
    /* the device only reads an input: casting away const is safe */
    cl_mem buffer = clCreateBuffer(ctx->context, flags, bytes, (void*)(uintptr_t)host, &err);
    if (err == CL_SUCCESS) {
      array->buffer = buffer;
      array->wrapped = 1;
      ++ctx->stats.zero_copy;
      return RISEC_CL_OK;
    }
    /* the device refuses to wrap it: copy instead */
  }
  int status = staging_buffer(ctx, slot, bytes, &array->buffer);
  if (status != RISEC_CL_OK)
    return status;
  ++ctx->stats.staged;
  if (!output && bytes > 0) {
    err = clEnqueueWriteBuffer(ctx->queue, array->buffer, CL_FALSE, 0, bytes, host, 0, NULL, NULL);
    if (err != CL_SUCCESS) {
      array->buffer = NULL;
      return risec_cl_fail(ctx, "clEnqueueWriteBuffer", err);
    }
  }
  return RISEC_CL_OK;
}

int risec_cl_host_array_end(risec_cl_context* ctx, risec_cl_host_array* array, void* host,
                            size_t bytes, int output, int status) {
  if (!array->buffer)
    return status;
  cl_int err = CL_SUCCESS;
  if (status != RISEC_CL_OK) {
    /* nothing may use the host array once the wrapper returns */
    clFinish(ctx->queue);
  } else if (output && bytes > 0 && array->wrapped) {
    /* the host array holds the result once mapped (OpenCL 1.2, 5.4.3) */
    void* mapped = clEnqueueMapBuffer(ctx->queue, array->buffer, CL_TRUE, CL_MAP_READ, 0, bytes, 0,
                                      NULL, NULL, &err);
    if (err != CL_SUCCESS) {
      status = risec_cl_fail(ctx, "clEnqueueMapBuffer", err);
    } else {
      err = clEnqueueUnmapMemObject(ctx->queue, array->buffer, mapped, 0, NULL, NULL);
      if (err == CL_SUCCESS)
        err = clFinish(ctx->queue);
      if (err != CL_SUCCESS)
        status = risec_cl_fail(ctx, "clEnqueueUnmapMemObject", err);
    }
  } else if (output && bytes > 0) {
    err = clEnqueueReadBuffer(ctx->queue, array->buffer, CL_TRUE, 0, bytes, host, 0, NULL, NULL);
    if (err != CL_SUCCESS)
      status = risec_cl_fail(ctx, "clEnqueueReadBuffer", err);
  } else if (!output && !array->wrapped && bytes > 0) {
    /* the copy from the host array has finished with the kernel (in order) */
    err = clFinish(ctx->queue);
    if (err != CL_SUCCESS)
      status = risec_cl_fail(ctx, "clFinish", err);
  }
  if (array->wrapped)
    clReleaseMemObject(array->buffer);
  array->buffer = NULL;
  return status;
}

/* ---- binary cache ------------------------------------------------------------ */

/* Cache file layout: magic, key length, key, binary length, binary, and a
 * checksum of everything before it. The whole key is stored and compared, so
 * a hash collision in the file name cannot return a wrong binary. */
static const char kMagic[8] = {'R', 'I', 'S', 'E', 'C', 'B', 'N', '1'};

static uint64_t fnv1a(uint64_t h, const void* data, size_t size) {
  const unsigned char* p = data;
  for (size_t i = 0; i < size; ++i) {
    h ^= p[i];
    h *= 1099511628211ull;
  }
  return h;
}

static const uint64_t kFnvBasis = 14695981039346656037ull;

/* The cache directory, or NULL when the cache is disabled. */
static char* cache_dir(void) {
  const char* dir = getenv("RISEC_CL_CACHE_DIR");
  char buffer[4096];
  if (dir) {
    if (!*dir)
      return NULL;
    snprintf(buffer, sizeof buffer, "%s", dir);
  } else if ((dir = getenv("XDG_CACHE_HOME")) && *dir) {
    snprintf(buffer, sizeof buffer, "%s/risec", dir);
  } else if ((dir = getenv("HOME")) && *dir) {
    snprintf(buffer, sizeof buffer, "%s/.cache/risec", dir);
  } else {
    return NULL;
  }
  /* Create the directory and its parents; failures surface when writing. */
  for (char* s = buffer + 1; *s; ++s) {
    if (*s == '/') {
      *s = '\0';
      mkdir(buffer, 0755);
      *s = '/';
    }
  }
  mkdir(buffer, 0755);
  return strdup(buffer);
}

static char* cache_path(const char* dir, const char* key, size_t key_length) {
  uint64_t h = fnv1a(kFnvBasis, key, key_length);
  size_t size = strlen(dir) + 32;
  char* path = malloc(size);
  if (path)
    snprintf(path, size, "%s/%016llx.clbin", dir, (unsigned long long)h);
  return path;
}

static int read_exact(FILE* f, void* data, size_t size) {
  return fread(data, 1, size, f) == size;
}

/* Reads the binary stored for `key`; NULL if absent or invalid. */
static unsigned char* cache_read(risec_cl_context* ctx, const char* path, const char* key,
                                 size_t key_length, size_t* binary_length) {
  FILE* f = fopen(path, "rb");
  if (!f)
    return NULL;
  unsigned char* binary = NULL;
  char* stored_key = NULL;
  char magic[8];
  uint64_t stored_key_length = 0, length = 0, checksum = 0;
  int ok = read_exact(f, magic, sizeof magic) && memcmp(magic, kMagic, sizeof magic) == 0 &&
           read_exact(f, &stored_key_length, sizeof stored_key_length) &&
           stored_key_length == key_length;
  if (ok) {
    stored_key = malloc(key_length ? key_length : 1);
    ok = stored_key && read_exact(f, stored_key, key_length) &&
         memcmp(stored_key, key, key_length) == 0 && read_exact(f, &length, sizeof length) &&
         length > 0 && length < ((uint64_t)1 << 32);
  }
  if (ok) {
    binary = malloc(length);
    ok = binary && read_exact(f, binary, length) && read_exact(f, &checksum, sizeof checksum);
  }
  if (ok) {
    uint64_t h = fnv1a(kFnvBasis, kMagic, sizeof kMagic);
    h = fnv1a(h, &stored_key_length, sizeof stored_key_length);
    h = fnv1a(h, key, key_length);
    h = fnv1a(h, &length, sizeof length);
    h = fnv1a(h, binary, length);
    ok = h == checksum;
  }
  fclose(f);
  free(stored_key);
  if (!ok) {
    free(binary);
    ++ctx->stats.cache_rejects;
    return NULL;
  }
  *binary_length = (size_t)length;
  return binary;
}

/* Writes atomically: a temporary file renamed over the final name. */
static void cache_write(risec_cl_context* ctx, const char* path, const char* key, size_t key_length,
                        const unsigned char* binary, size_t binary_length) {
  size_t size = strlen(path) + 32;
  char* tmp = malloc(size);
  if (!tmp)
    return;
  snprintf(tmp, size, "%s.tmp.%ld", path, (long)getpid());
  FILE* f = fopen(tmp, "wb");
  if (!f) {
    free(tmp);
    return;
  }
  uint64_t key_length64 = key_length, length64 = binary_length;
  uint64_t h = fnv1a(kFnvBasis, kMagic, sizeof kMagic);
  h = fnv1a(h, &key_length64, sizeof key_length64);
  h = fnv1a(h, key, key_length);
  h = fnv1a(h, &length64, sizeof length64);
  h = fnv1a(h, binary, binary_length);
  int ok = fwrite(kMagic, 1, sizeof kMagic, f) == sizeof kMagic &&
           fwrite(&key_length64, sizeof key_length64, 1, f) == 1 &&
           fwrite(key, 1, key_length, f) == key_length &&
           fwrite(&length64, sizeof length64, 1, f) == 1 &&
           fwrite(binary, 1, binary_length, f) == binary_length && fwrite(&h, sizeof h, 1, f) == 1;
  ok = (fclose(f) == 0) && ok;
  if (ok && rename(tmp, path) == 0)
    ++ctx->stats.cache_writes;
  else
    remove(tmp);
  free(tmp);
}

/* ---- programs ------------------------------------------------------------------ */

static int build(risec_cl_context* ctx, cl_program program, const char* options, int report_log) {
  cl_int err = clBuildProgram(program, 1, &ctx->device, options, NULL, NULL);
  if (err == CL_SUCCESS)
    return RISEC_CL_OK;
  if (report_log) {
    size_t log_size = 0;
    clGetProgramBuildInfo(program, ctx->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &log_size);
    char* log = malloc(log_size + 1);
    if (log) {
      clGetProgramBuildInfo(program, ctx->device, CL_PROGRAM_BUILD_LOG, log_size, log, NULL);
      log[log_size] = '\0';
      set_error(ctx, "OpenCL program does not build (%s):\n%s", risec_cl_error_string(err), log);
      free(log);
    }
  }
  return RISEC_CL_BUILD_FAILED;
}

static cl_program from_binary(risec_cl_context* ctx, const unsigned char* binary, size_t length,
                              const char* options) {
  cl_int err = CL_SUCCESS, status = CL_SUCCESS;
  cl_program program =
      clCreateProgramWithBinary(ctx->context, 1, &ctx->device, &length, &binary, &status, &err);
  if (err != CL_SUCCESS || status != CL_SUCCESS)
    return NULL;
  if (build(ctx, program, options, 0) != RISEC_CL_OK) {
    clReleaseProgram(program);
    return NULL;
  }
  return program;
}

static unsigned char* program_binary(cl_program program, size_t* length) {
  size_t size = 0;
  if (clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) != CL_SUCCESS ||
      size == 0)
    return NULL;
  unsigned char* binary = malloc(size);
  if (!binary)
    return NULL;
  if (clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof binary, &binary, NULL) != CL_SUCCESS) {
    free(binary);
    return NULL;
  }
  *length = size;
  return binary;
}

int risec_cl_program(risec_cl_context* ctx, const char* source, const char* options,
                     cl_program* out) {
  *out = NULL;
  if (!options)
    options = "";
  /* key = options \0 source \0 device identity */
  size_t options_length = strlen(options), source_length = strlen(source);
  size_t identity_length = strlen(ctx->identity);
  size_t key_length = options_length + 1 + source_length + 1 + identity_length;
  char* key = malloc(key_length);
  if (!key)
    return RISEC_CL_OUT_OF_MEMORY;
  memcpy(key, options, options_length + 1);
  memcpy(key + options_length + 1, source, source_length + 1);
  memcpy(key + options_length + 1 + source_length + 1, ctx->identity, identity_length);

  for (cached_program* p = ctx->programs; p; p = p->next) {
    if (p->key_length == key_length && memcmp(p->key, key, key_length) == 0) {
      free(key);
      ++ctx->stats.memory_hits;
      *out = p->program;
      return RISEC_CL_OK;
    }
  }

  char* dir = cache_dir();
  char* path = dir ? cache_path(dir, key, key_length) : NULL;
  free(dir);
  cl_program program = NULL;
  if (path) {
    size_t length = 0;
    unsigned char* binary = cache_read(ctx, path, key, key_length, &length);
    if (binary) {
      program = from_binary(ctx, binary, length, options);
      if (program)
        ++ctx->stats.binary_loads;
      else
        ++ctx->stats.cache_rejects;
      free(binary);
    }
  }
  if (!program) {
    cl_int err = CL_SUCCESS;
    program = clCreateProgramWithSource(ctx->context, 1, &source, NULL, &err);
    if (err != CL_SUCCESS) {
      set_error(ctx, "clCreateProgramWithSource failed: %s", risec_cl_error_string(err));
      free(path);
      free(key);
      return RISEC_CL_OPENCL_ERROR;
    }
    if (build(ctx, program, options, 1) != RISEC_CL_OK) {
      clReleaseProgram(program);
      free(path);
      free(key);
      return RISEC_CL_BUILD_FAILED;
    }
    ++ctx->stats.source_builds;
    size_t length = 0;
    unsigned char* binary = path ? program_binary(program, &length) : NULL;
    if (binary)
      cache_write(ctx, path, key, key_length, binary, length);
    free(binary);
  }
  free(path);

  cached_program* entry = malloc(sizeof *entry);
  if (!entry) {
    clReleaseProgram(program);
    free(key);
    return RISEC_CL_OUT_OF_MEMORY;
  }
  entry->key = key;
  entry->key_length = key_length;
  entry->program = program;
  entry->next = ctx->programs;
  ctx->programs = entry;
  *out = program;
  return RISEC_CL_OK;
}
