// CApi.cpp: kiln_runtime.h on the C++ API. No exception leaves this file:
// every entry point catches everything (std::bad_alloc included) and turns
// it into KILN_INTERNAL.
#include <cstring>
#include <string>
#include <vector>

#include "runtime/CApiBridge.h"
#include "runtime/cuda/CudaDriver.h"
#include "runtime/hip/HipDriver.h"
#include "runtime/kiln_runtime.h"

struct kiln_runtime {
  std::shared_ptr<kiln::runtime::Runtime> rt;
};
struct kiln_kernel {
  kiln::runtime::Kernel kernel;
};

namespace kiln::runtime {

static_assert(static_cast<int>(StatusCode::kInternal) == KILN_INTERNAL, "status codes drifted");
static_assert(static_cast<int>(StatusCode::kChecksumMismatch) == KILN_CHECKSUM_MISMATCH, "");
static_assert(static_cast<int>(StatusCode::kArgumentType) == KILN_ARGUMENT_TYPE, "");
static_assert(static_cast<int>(ArgKind::kF64) == KILN_ARG_F64, "arg kinds drifted");
static_assert(static_cast<int>(ArgKind::kBF16) == KILN_ARG_BF16, "");
static_assert(sizeof(kiln_arg) == 16, "kiln_arg layout");

kiln_runtime* wrapRuntime(std::shared_ptr<Runtime> runtime) {
  return new kiln_runtime{std::move(runtime)};
}

std::shared_ptr<Runtime> unwrapRuntime(kiln_runtime* runtime) {
  return runtime ? runtime->rt : nullptr;
}

} // namespace kiln::runtime

namespace {

using namespace kiln::runtime;

thread_local std::string tLastError;

kiln_status report(const Status& s) {
  if (s.ok())
    return KILN_OK;
  tLastError = s.message();
  return static_cast<kiln_status>(s.code());
}

kiln_status invalid(const char* what) {
  return report(Status(StatusCode::kInvalidArgument, what));
}

template <typename F> kiln_status guarded(F&& f) {
  try {
    return f();
  } catch (const std::exception& e) {
    return report(Status(StatusCode::kInternal, std::string("exception: ") + e.what()));
  } catch (...) {
    return report(Status(StatusCode::kInternal, "unknown exception"));
  }
}

} // namespace

extern "C" {

const char* kiln_last_error(void) { return tLastError.c_str(); }

const char* kiln_status_name(kiln_status status) {
  if (status < KILN_OK || status > KILN_INTERNAL)
    return "unknown";
  return statusCodeName(static_cast<StatusCode>(status));
}

kiln_status kiln_runtime_create(kiln_backend backend, kiln_runtime** out) {
  return guarded([&] {
    if (!out)
      return invalid("kiln_runtime_create: out is null");
    *out = nullptr;
    Expected<std::unique_ptr<Driver>> driver = Status(StatusCode::kInvalidArgument, "");
    if (backend == KILN_BACKEND_CUDA)
      driver = cuda::openCudaDriver();
    else if (backend == KILN_BACKEND_HIP)
      driver = hip::openHipDriver();
    else
      return invalid("kiln_runtime_create: unknown backend");
    if (!driver)
      return report(driver.status());
    *out = wrapRuntime(Runtime::create(std::move(*driver)));
    return KILN_OK;
  });
}

void kiln_runtime_release(kiln_runtime* runtime) {
  try {
    delete runtime;
  } catch (...) {
  }
}

kiln_status kiln_runtime_set_listener(kiln_runtime* runtime, kiln_listener_fn fn,
                                      void* user_data) {
  return guarded([&] {
    if (!runtime)
      return invalid("kiln_runtime_set_listener: runtime is null");
    if (!fn) {
      runtime->rt->setListener(nullptr);
      return KILN_OK;
    }
    runtime->rt->setListener([fn, user_data](const Event& e) {
      fn(user_data, eventKindName(e.kind), e.kernel.c_str(), e.device, e.durationUs,
         e.status.message().c_str());
    });
    return KILN_OK;
  });
}

kiln_status kiln_runtime_telemetry_json(kiln_runtime* runtime, char* buf, size_t capacity,
                                        size_t* needed) {
  return guarded([&] {
    if (!runtime || !needed)
      return invalid("kiln_runtime_telemetry_json: runtime or needed is null");
    std::string json = runtime->rt->telemetryJson();
    *needed = json.size() + 1;
    if (buf && capacity >= json.size() + 1)
      std::memcpy(buf, json.c_str(), json.size() + 1);
    else if (buf)
      return invalid("kiln_runtime_telemetry_json: buffer too small (see *needed)");
    return KILN_OK;
  });
}

kiln_status kiln_kernel_open(kiln_runtime* runtime, const char* artifact_dir, int device,
                             kiln_kernel** out) {
  return guarded([&] {
    if (!runtime || !artifact_dir || !out)
      return invalid("kiln_kernel_open: runtime, artifact_dir or out is null");
    *out = nullptr;
    Expected<Kernel> k = runtime->rt->getKernel(artifact_dir, device);
    if (!k)
      return report(k.status());
    *out = new kiln_kernel{std::move(*k)};
    return KILN_OK;
  });
}

kiln_status kiln_kernel_open_cached(kiln_runtime* runtime, const char* cache_root,
                                    const char* key, int device, kiln_kernel** out) {
  return guarded([&] {
    if (!runtime || !cache_root || !key || !out)
      return invalid("kiln_kernel_open_cached: runtime, cache_root, key or out is null");
    *out = nullptr;
    Expected<Kernel> k = runtime->rt->openCached(cache_root, key, device);
    if (!k)
      return report(k.status());
    *out = new kiln_kernel{std::move(*k)};
    return KILN_OK;
  });
}

kiln_status kiln_kernel_read_text(kiln_kernel* kernel, const char* name, char* buf,
                                  size_t capacity, size_t* needed) {
  return guarded([&] {
    if (!kernel || !name || !needed)
      return invalid("kiln_kernel_read_text: kernel, name or needed is null");
    Expected<std::string> text = kernel->kernel.readArtifactText(name);
    if (!text)
      return report(text.status());
    *needed = text->size() + 1;
    if (buf && capacity >= text->size() + 1)
      std::memcpy(buf, text->c_str(), text->size() + 1);
    else if (buf)
      return invalid("kiln_kernel_read_text: buffer too small (see *needed)");
    return KILN_OK;
  });
}

void kiln_kernel_release(kiln_kernel* kernel) {
  try {
    delete kernel;
  } catch (...) {
  }
}

kiln_status kiln_kernel_hydrate(kiln_kernel* kernel) {
  return guarded([&] {
    return kernel ? report(kernel->kernel.hydrate()) : invalid("kiln_kernel_hydrate: null kernel");
  });
}

kiln_status kiln_kernel_load(kiln_kernel* kernel) {
  return guarded([&] {
    return kernel ? report(kernel->kernel.load()) : invalid("kiln_kernel_load: null kernel");
  });
}

kiln_status kiln_kernel_prepare(kiln_kernel* kernel) {
  return guarded([&] {
    return kernel ? report(kernel->kernel.makeLaunchable())
                  : invalid("kiln_kernel_prepare: null kernel");
  });
}

kiln_status kiln_kernel_get_info(kiln_kernel* kernel, kiln_kernel_info* out) {
  return guarded([&] {
    if (!kernel || !out)
      return invalid("kiln_kernel_get_info: kernel or out is null");
    kiln_kernel_info info;
    std::memset(&info, 0xff, sizeof info); // every field -1
    info.reserved = 0;
    info.state = static_cast<int32_t>(kernel->kernel.state());
    if (auto md = kernel->kernel.metadata()) {
      info.num_warps = md->numWarps;
      info.num_stages = md->numStages;
      info.shared_bytes = static_cast<int32_t>(md->sharedBytes);
    }
    Expected<FunctionAttributes> a = kernel->kernel.functionAttributes();
    if (a) {
      info.num_regs = a->numRegs;
      info.local_bytes = a->localBytes;
      info.static_shared_bytes = a->staticSharedBytes;
    }
    KernelTimings t = kernel->kernel.timings();
    info.hydrate_us = t.hydrateUs;
    info.load_us = t.loadUs;
    info.check_us = t.checkUs;
    info.first_launch_us = t.firstLaunchUs;
    *out = info;
    return KILN_OK;
  });
}

kiln_status kiln_kernel_launch(kiln_kernel* kernel, uint32_t gx, uint32_t gy, uint32_t gz,
                               void* stream, const kiln_arg* args, size_t num_args) {
  return guarded([&] {
    if (!kernel)
      return invalid("kiln_kernel_launch: null kernel");
    if (num_args && !args)
      return invalid("kiln_kernel_launch: args is null");
    // Small kernels take few arguments: avoid the heap for up to 32.
    KernelArg inlineArgs[32] = {};
    std::vector<KernelArg> heapArgs;
    KernelArg* converted = inlineArgs;
    if (num_args > 32) {
      heapArgs.resize(num_args, KernelArg::i32(0));
      converted = heapArgs.data();
    }
    for (size_t i = 0; i < num_args; ++i) {
      if (args[i].type < KILN_ARG_PTR || args[i].type > KILN_ARG_F64)
        return report(Status(StatusCode::kArgumentType,
                             "kiln_kernel_launch: argument " + std::to_string(i) +
                                 " has unknown kiln_arg_type " + std::to_string(args[i].type)));
      ArgKind kind = static_cast<ArgKind>(args[i].type);
      uint64_t bits = args[i].value.u64;
      if (kind == ArgKind::kF32) {
        uint32_t b;
        std::memcpy(&b, &args[i].value.f32, 4);
        bits = b;
      }
      converted[i] = KernelArg::fromBits(kind, bits);
    }
    LaunchConfig config;
    config.grid[0] = gx;
    config.grid[1] = gy;
    config.grid[2] = gz;
    config.stream = stream;
    return report(kernel->kernel.launch(config, converted, num_args));
  });
}

kiln_status kiln_device_alloc(kiln_runtime* runtime, int device, size_t bytes, uint64_t* out) {
  return guarded([&] {
    if (!runtime || !out)
      return invalid("kiln_device_alloc: runtime or out is null");
    Status s = runtime->rt->makeDeviceCurrent(device);
    if (!s.ok())
      return report(s);
    Expected<DevicePtr> p = runtime->rt->driver().memAlloc(bytes);
    if (!p)
      return report(p.status());
    *out = *p;
    return KILN_OK;
  });
}

kiln_status kiln_device_free(kiln_runtime* runtime, int device, uint64_t ptr) {
  return guarded([&] {
    if (!runtime)
      return invalid("kiln_device_free: runtime is null");
    Status s = runtime->rt->makeDeviceCurrent(device);
    return report(s.ok() ? runtime->rt->driver().memFree(ptr) : s);
  });
}

kiln_status kiln_copy_to_device(kiln_runtime* runtime, int device, uint64_t dst, const void* src,
                                size_t bytes) {
  return guarded([&] {
    if (!runtime || (!src && bytes))
      return invalid("kiln_copy_to_device: runtime or src is null");
    Status s = runtime->rt->makeDeviceCurrent(device);
    return report(s.ok() ? runtime->rt->driver().memcpyHtoD(dst, src, bytes) : s);
  });
}

kiln_status kiln_copy_from_device(kiln_runtime* runtime, int device, void* dst, uint64_t src,
                                  size_t bytes) {
  return guarded([&] {
    if (!runtime || (!dst && bytes))
      return invalid("kiln_copy_from_device: runtime or dst is null");
    Status s = runtime->rt->makeDeviceCurrent(device);
    return report(s.ok() ? runtime->rt->driver().memcpyDtoH(dst, src, bytes) : s);
  });
}

kiln_status kiln_stream_synchronize(kiln_runtime* runtime, int device, void* stream) {
  return guarded([&] {
    if (!runtime)
      return invalid("kiln_stream_synchronize: runtime is null");
    Status s = runtime->rt->makeDeviceCurrent(device);
    return report(s.ok() ? runtime->rt->driver().streamSynchronize(stream) : s);
  });
}

} // extern "C"
