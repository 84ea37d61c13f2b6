/* kiln_runtime.h: the stable C API of kiln's runtime library, for FFI
 * callers (Python ctypes, Rust, Go) and XLA-style custom calls.
 *
 * Opaque handles, integer status codes and a per-thread error message; no
 * C++ types, no exceptions. Every function returning kiln_status stores a
 * message on failure, read with kiln_last_error() on the same thread. The
 * lifecycle, locking, fork and exit rules are those of the C++ API
 * (runtime/Runtime.h); the artifact format is in runtime/README.md.
 *
 * Typical use:
 *   kiln_runtime* rt;  kiln_runtime_create(KILN_BACKEND_CUDA, &rt);
 *   kiln_kernel* k;    kiln_kernel_open(rt, "/path/to/vadd", 0, &k);
 *     (or, from the compile cache: kiln_kernel_open_cached(rt, cache_root, key, 0, &k))
 *   kiln_arg args[4] = {kiln_arg_ptr(x), kiln_arg_ptr(y), kiln_arg_ptr(z), kiln_arg_i32(n)};
 *   kiln_kernel_launch(k, (n + 1023) / 1024, 1, 1, stream, args, 4);
 *   kiln_kernel_release(k); kiln_runtime_release(rt);
 */
#ifndef KILN_RUNTIME_H
#define KILN_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Status codes; the numbers are stable (same as kiln::runtime::StatusCode). */
typedef enum kiln_status {
  KILN_OK = 0,
  KILN_INVALID_ARGUMENT = 1,      /**< null handle, zero grid, bad device ordinal, bad job key */
  KILN_NOT_FOUND = 2,             /**< artifact dir, cache entry, metadata.json, binary or text file missing */
  KILN_METADATA_ERROR = 3,        /**< metadata.json invalid (or its job_key is not the entry's key) */
  KILN_BINARY_SIZE_MISMATCH = 4,  /**< binary size differs from metadata (truncated) */
  KILN_CHECKSUM_MISMATCH = 5,     /**< binary SHA-256 differs from metadata */
  KILN_DRIVER_UNAVAILABLE = 6,    /**< libcuda.so.1 / libamdhip64.so not loadable */
  KILN_DRIVER_ERROR = 7,          /**< a driver call failed (the message names it) */
  KILN_ARCH_MISMATCH = 8,         /**< compiled for another backend/arch/warp size */
  KILN_SHARED_MEMORY_EXCEEDED = 9,
  KILN_THREADS_EXCEEDED = 10,
  KILN_REGISTERS_EXCEEDED = 11,
  KILN_ARGUMENT_COUNT = 12,
  KILN_ARGUMENT_TYPE = 13,
  KILN_INVALID_STATE = 14,
  KILN_INTERNAL = 15
} kiln_status;

typedef enum kiln_backend { KILN_BACKEND_CUDA = 0, KILN_BACKEND_HIP = 1 } kiln_backend;

typedef enum kiln_kernel_state {
  KILN_STATE_CACHED = 0,
  KILN_STATE_HYDRATED = 1,
  KILN_STATE_LOADED = 2,
  KILN_STATE_LAUNCHABLE = 3
} kiln_kernel_state;

/** Argument kinds; must match the signature types of metadata.json. */
typedef enum kiln_arg_type {
  KILN_ARG_PTR = 0, /**< value.u64: device address */
  KILN_ARG_I1 = 1,  /**< value.i64: 0 or nonzero */
  KILN_ARG_I8 = 2,
  KILN_ARG_I16 = 3,
  KILN_ARG_I32 = 4,
  KILN_ARG_I64 = 5, /**< value.i64 (low bytes used for the narrower ints) */
  KILN_ARG_F16 = 6, /**< value.bits16: IEEE binary16 bits */
  KILN_ARG_BF16 = 7,/**< value.bits16: bfloat16 bits */
  KILN_ARG_F32 = 8, /**< value.f32 */
  KILN_ARG_F64 = 9  /**< value.f64 */
} kiln_arg_type;

/** One launch argument (16 bytes). */
typedef struct kiln_arg {
  int32_t type; /**< a kiln_arg_type */
  uint32_t reserved;
  union {
    uint64_t u64;
    int64_t i64;
    uint16_t bits16;
    float f32;
    double f64;
  } value;
} kiln_arg;

/** Resources and timings of a kernel (fields are -1 where not yet known). */
typedef struct kiln_kernel_info {
  int32_t state;          /**< a kiln_kernel_state */
  int32_t num_warps;
  int32_t num_stages;
  int32_t shared_bytes;   /**< dynamic shared memory from metadata.json */
  int32_t num_regs;       /**< CU_FUNC_ATTRIBUTE_NUM_REGS, after load */
  int32_t local_bytes;    /**< CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES (spills live here) */
  int32_t static_shared_bytes;
  int32_t reserved;
  int64_t hydrate_us;     /**< Cached -> Hydrated */
  int64_t load_us;        /**< Hydrated -> Loaded */
  int64_t check_us;       /**< Loaded -> Launchable */
  int64_t first_launch_us;/**< entry creation -> end of first successful launch */
} kiln_kernel_info;

/** Argument constructors. */
static inline kiln_arg kiln_arg_make(kiln_arg_type type, uint64_t bits) {
  kiln_arg a;
  a.type = (int32_t)type;
  a.reserved = 0;
  a.value.u64 = bits;
  return a;
}
static inline kiln_arg kiln_arg_ptr(uint64_t device_address) {
  return kiln_arg_make(KILN_ARG_PTR, device_address);
}
static inline kiln_arg kiln_arg_i32(int32_t v) { return kiln_arg_make(KILN_ARG_I32, (uint64_t)(uint32_t)v); }
static inline kiln_arg kiln_arg_i64(int64_t v) { return kiln_arg_make(KILN_ARG_I64, (uint64_t)v); }
static inline kiln_arg kiln_arg_f32(float v) {
  kiln_arg a = kiln_arg_make(KILN_ARG_F32, 0);
  a.value.f32 = v;
  return a;
}
static inline kiln_arg kiln_arg_f64(double v) {
  kiln_arg a = kiln_arg_make(KILN_ARG_F64, 0);
  a.value.f64 = v;
  return a;
}

typedef struct kiln_runtime kiln_runtime;
typedef struct kiln_kernel kiln_kernel;

/** Called for each lifecycle event: `event` is "hydrated", "loaded",
 * "load_failed", "launchable", "capability_failed", "first_launch",
 * "unloaded", "fork_reload" or "hydration_failed"; `kernel` may be "";
 * `duration_us` is -1 where none applies; `message` is "" unless it failed.
 * Strings are valid only during the call. */
typedef void (*kiln_listener_fn)(void* user_data, const char* event, const char* kernel,
                                 int device, int64_t duration_us, const char* message);

/** The message of the last failed call on this thread ("" if none); valid
 * until the next failing call on this thread. */
const char* kiln_last_error(void);
/** "ok", "checksum_mismatch", ... */
const char* kiln_status_name(kiln_status status);

/** Creates a runtime on the CUDA driver (libcuda.so.1) or HIP
 * (libamdhip64.so). KILN_DRIVER_UNAVAILABLE if the library cannot be loaded.
 * The driver itself is initialized on first device use. */
kiln_status kiln_runtime_create(kiln_backend backend, kiln_runtime** out);
/** Drops the caller's reference; kernels still open keep the runtime alive. */
void kiln_runtime_release(kiln_runtime* runtime);
/** Sets (or with fn == NULL removes) the event listener. */
kiln_status kiln_runtime_set_listener(kiln_runtime* runtime, kiln_listener_fn fn, void* user_data);
/** Writes the telemetry JSON (NUL-terminated) into buf if it fits; *needed
 * gets the size including the NUL. buf may be NULL to query the size. */
kiln_status kiln_runtime_telemetry_json(kiln_runtime* runtime, char* buf, size_t capacity,
                                        size_t* needed);

/** A new handle to the (artifact_dir, device) entry, Cached if new; two
 * opens of the same pair share one loaded module. */
kiln_status kiln_kernel_open(kiln_runtime* runtime, const char* artifact_dir, int device,
                             kiln_kernel** out);
/** A new handle to the compile cache's entry of job `key` (64 lower-case hex
 * digits) under `cache_root` (the directory holding v1/; the entry is
 * <cache_root>/v1/<key[0:2]>/<key>/) on `device`, Cached if new; otherwise
 * exactly kiln_kernel_open of the entry directory. Errors:
 * KILN_INVALID_ARGUMENT (not a job key), KILN_NOT_FOUND (no such entry; the
 * message names the key and the root), KILN_METADATA_ERROR (the entry's
 * metadata.json has another job_key). Reads only metadata.json's job_key;
 * writes nothing; no driver call. */
kiln_status kiln_kernel_open_cached(kiln_runtime* runtime, const char* cache_root,
                                    const char* key, int device, kiln_kernel** out);
/** Releases one handle; the module is unloaded with the entry's last handle.
 * A handle must not be released while another thread is using it. */
void kiln_kernel_release(kiln_kernel* kernel);
/** Explicit transitions (each also runs the earlier ones). */
kiln_status kiln_kernel_hydrate(kiln_kernel* kernel);
kiln_status kiln_kernel_load(kiln_kernel* kernel);
kiln_status kiln_kernel_prepare(kiln_kernel* kernel);
/** Reads inspection text `name` from the artifact directory, now (the
 * runtime never reads these files otherwise): "kgpu" (<kernel>.kgpu.mlir),
 * "llvm" (<kernel>.llvm.mlir), "ll" (<kernel>.ll, LLVM IR) or "ptx"
 * (<kernel>.ptx). Hydrates first if needed; never loads. Like
 * kiln_runtime_telemetry_json: *needed gets the text's size plus one; the
 * text and a NUL are written to buf if capacity >= *needed, else
 * KILN_INVALID_ARGUMENT; buf may be NULL to query the size (each call reads
 * the file again). Errors: KILN_INVALID_ARGUMENT (unknown name),
 * KILN_NOT_FOUND (file missing or unreadable; the message names its path),
 * those of kiln_kernel_hydrate. */
kiln_status kiln_kernel_read_text(kiln_kernel* kernel, const char* name, char* buf,
                                  size_t capacity, size_t* needed);
/** Current state, resources and timings. */
kiln_status kiln_kernel_get_info(kiln_kernel* kernel, kiln_kernel_info* out);
/** Enqueues the kernel on `stream` (a CUstream / hipStream_t; NULL: default
 * stream) with grid (gx, gy, gz); block and dynamic shared memory come from
 * metadata.json. Prepares the kernel first if needed. */
kiln_status kiln_kernel_launch(kiln_kernel* kernel, uint32_t gx, uint32_t gy, uint32_t gz,
                               void* stream, const kiln_arg* args, size_t num_args);

/* Device memory helpers for tests and examples (synchronous; they make the
 * device's primary context current on the calling thread). */
kiln_status kiln_device_alloc(kiln_runtime* runtime, int device, size_t bytes, uint64_t* out);
kiln_status kiln_device_free(kiln_runtime* runtime, int device, uint64_t ptr);
kiln_status kiln_copy_to_device(kiln_runtime* runtime, int device, uint64_t dst, const void* src,
                                size_t bytes);
kiln_status kiln_copy_from_device(kiln_runtime* runtime, int device, void* dst, uint64_t src,
                                  size_t bytes);
kiln_status kiln_stream_synchronize(kiln_runtime* runtime, int device, void* stream);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* KILN_RUNTIME_H */
