/*
 * risec OpenCL host runtime: the part of libkernels that OpenCL kernel
 * wrappers share. It creates a context and queue on a chosen device, builds
 * programs with an in-memory cache and an on-disk binary cache, and turns
 * OpenCL error codes into readable text.
 *
 * Device selection (risec_cl_create): the selector, or when it is NULL the
 * environment variable RISEC_CL_DEVICE, is either
 *   - "P:D"    platform index P, device index D (as listed by clinfo -l), or
 *   - "P"      the first device of platform P, or
 *   - any other text: the first device whose "platform / device" name
 *              contains it (case-sensitive), e.g. "Portable" or "NVIDIA".
 * Without a selector the first GPU is used, else the first device of any type.
 *
 * Binary cache: compiled programs are stored in RISEC_CL_CACHE_DIR, else
 * $XDG_CACHE_HOME/risec, else $HOME/.cache/risec. The key covers the source,
 * the build options, the device, its driver and its platform, so a change in
 * any of them misses. Setting RISEC_CL_CACHE_DIR to the empty string disables
 * the cache. A cache file that is unreadable, truncated or corrupt is ignored
 * and rewritten; it never makes a build fail.
 *
 * Host arrays (risec_cl_host_array_*, used by the host-pointer wrappers
 * SYMBOL(...) and SYMBOL_ctx(...), docs/host.md): on a device that shares
 * memory with the host (CL_DEVICE_HOST_UNIFIED_MEMORY, e.g. PoCL's CPU
 * device) a host array that is aligned as the kernel needs is wrapped in a
 * CL_MEM_USE_HOST_PTR buffer: the kernel reads and writes it in place, with
 * no copy. Otherwise (a discrete GPU, an array aligned less than the kernel
 * needs, or RISEC_CL_ZERO_COPY=0) it is copied into a staging buffer that the
 * context keeps and reuses, and outputs are read back from it.
 */
#ifndef RISEC_CL_H
#define RISEC_CL_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes of the runtime (0 is success). */
enum {
  RISEC_CL_OK = 0,
  RISEC_CL_NO_DEVICE = -1001,     /* no OpenCL platform/device matches the selector */
  RISEC_CL_BAD_SELECTOR = -1002,  /* the selector names an index that does not exist */
  RISEC_CL_BUILD_FAILED = -1003,  /* the program does not compile; see risec_cl_last_error */
  RISEC_CL_OUT_OF_MEMORY = -1004, /* a host allocation failed */
  RISEC_CL_OPENCL_ERROR = -1005,  /* an OpenCL call failed; see risec_cl_last_error */
  RISEC_CL_LAUNCH_MISFIT = -1006  /* a launch does not fit the device; see risec_cl_last_error */
};

typedef struct risec_cl_context risec_cl_context;

/* Counters for tests and diagnostics. */
typedef struct risec_cl_stats {
  unsigned source_builds;       /* programs compiled from source */
  unsigned binary_loads;        /* programs loaded from the on-disk cache */
  unsigned memory_hits;         /* programs found in this context's in-memory cache */
  unsigned cache_writes;        /* binaries written to the on-disk cache */
  unsigned cache_rejects;       /* cache files ignored as unreadable or corrupt */
  unsigned zero_copy;           /* host arrays wrapped in place (CL_MEM_USE_HOST_PTR) */
  unsigned staged;              /* host arrays copied through a staging buffer */
  unsigned staging_allocations; /* staging buffers created (the others were reused) */
} risec_cl_stats;

/* Creates a context and an in-order queue on the selected device. */
int risec_cl_create(risec_cl_context** out, const char* selector);
void risec_cl_release(risec_cl_context* ctx);

cl_context risec_cl_context_handle(const risec_cl_context* ctx);
cl_command_queue risec_cl_queue(const risec_cl_context* ctx);
cl_device_id risec_cl_device(const risec_cl_context* ctx);
/* "platform / device", e.g. "Portable Computing Language / pthread-...". */
const char* risec_cl_device_name(const risec_cl_context* ctx);

/*
 * Returns a built program for `source` and `options` (NULL means ""). The
 * program is owned by the context: do not release it. Programs are looked up
 * in memory, then in the binary cache, and built from source last.
 */
int risec_cl_program(risec_cl_context* ctx, const char* source, const char* options,
                     cl_program* out);

/*
 * Whether host arrays are wrapped in place (zero copy) when aligned: 1 on a
 * device with CL_DEVICE_HOST_UNIFIED_MEMORY unless the environment variable
 * RISEC_CL_ZERO_COPY is "0" at creation; "1" forces it on (USE_HOST_PTR is
 * correct on every device, only slower on a discrete one).
 * risec_cl_set_zero_copy changes it for later calls.
 */
int risec_cl_zero_copy(const risec_cl_context* ctx);
void risec_cl_set_zero_copy(risec_cl_context* ctx, int on);

/*
 * One array argument of a host-pointer wrapper, from risec_cl_host_array_begin
 * to risec_cl_host_array_end. `buffer` is what the kernel gets.
 */
typedef struct risec_cl_host_array {
  cl_mem buffer;
  int wrapped; /* 1: CL_MEM_USE_HOST_PTR on the host array; 0: a staging buffer */
} risec_cl_host_array;

/*
 * Makes the buffer for a host array of `bytes` bytes at `host` (an input
 * when `output` is 0: the kernel only reads it; an output: the kernel writes
 * it and risec_cl_host_array_end makes the host array hold the result).
 * `alignment` (bytes, a power of two) is what the kernel needs of the
 * array's address: the host array is wrapped in place when zero copy is on
 * and `host` is a multiple of it. Else the context's staging buffer number
 * `slot` is used (created or grown as needed, kept until risec_cl_release or
 * risec_cl_trim), and an input is copied into it (without waiting: the queue
 * is in order). `bytes` may be 0. Returns RISEC_CL_OK or
 * RISEC_CL_OPENCL_ERROR (risec_cl_last_error says which call failed).
 */
int risec_cl_host_array_begin(risec_cl_context* ctx, unsigned slot, const void* host, size_t bytes,
                              size_t alignment, int output, risec_cl_host_array* array);
/*
 * Ends the use of `array`: when `status` is RISEC_CL_OK and it is an output,
 * brings the result into `host` (a blocking map and unmap when wrapped, a
 * blocking read when staged). Releases a wrapped buffer. Returns `status`
 * unchanged if it was a failure, else RISEC_CL_OK or RISEC_CL_OPENCL_ERROR.
 * Call it for every array that _begin set up, also after a failure.
 */
int risec_cl_host_array_end(risec_cl_context* ctx, risec_cl_host_array* array, void* host,
                            size_t bytes, int output, int status);

/*
 * Checks the launch of `kernel` (`dims`, `global`, `local` as SYMBOL_launch
 * fills them; local[0] == 0: the runtime chooses the local size) against the
 * context's device before it is enqueued (docs/host.md, "The launch check"):
 * the work-group size (the product of the local sizes) against
 * CL_DEVICE_MAX_WORK_GROUP_SIZE and the kernel's CL_KERNEL_WORK_GROUP_SIZE,
 * each local size against CL_DEVICE_MAX_WORK_ITEM_SIZES, and the kernel's
 * local memory (CL_KERNEL_LOCAL_MEM_SIZE: its __local arrays, whose sizes
 * risec fixes at compile time) against CL_DEVICE_LOCAL_MEM_SIZE. Returns
 * RISEC_CL_OK (also when a global size is 0: nothing is launched),
 * RISEC_CL_LAUNCH_MISFIT with a message that names the kernel and gives the
 * numbers (risec_cl_last_error), or RISEC_CL_OPENCL_ERROR if a query fails.
 * The host wrappers call it once per kernel (phase) and return 8 on a misfit.
 */
int risec_cl_check_launch(risec_cl_context* ctx, cl_kernel kernel, cl_uint dims,
                          const size_t global[3], const size_t local[3]);

/* Releases the staging buffers that the context keeps (they are made again
 * when needed). */
void risec_cl_trim(risec_cl_context* ctx);

/* The message of the last failure in this context (a build log, a call). */
const char* risec_cl_last_error(const risec_cl_context* ctx);
risec_cl_stats risec_cl_get_stats(const risec_cl_context* ctx);

/*
 * The process-wide default context, used by the generated wrappers that take
 * host pointers (SYMBOL(...), docs/host.md): created on the first call with
 * risec_cl_create(.., NULL) (so on the device RISEC_CL_DEVICE selects) and
 * kept until the process exits. Thread-safe: created exactly once
 * (pthread_once). Returns the creation's status every time; on failure `*out`
 * is still set so that risec_cl_last_error(*out) (or risec_cl_default_error())
 * says why.
 */
int risec_cl_default(risec_cl_context** out);
/* The message of the default context's last failure ("" if none or not created). */
const char* risec_cl_default_error(void);

/* Records "`what`: CL_ERROR_NAME" as the last error of `ctx` (for wrappers);
 * returns RISEC_CL_OPENCL_ERROR. */
int risec_cl_fail(risec_cl_context* ctx, const char* what, cl_int err);

/* "CL_INVALID_KERNEL_ARGS", or a risec status name, or "unknown error". */
const char* risec_cl_error_string(int code);

#ifdef __cplusplus
}
#endif

#endif /* RISEC_CL_H */
