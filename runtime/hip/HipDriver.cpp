// HipDriver.cpp: runtime::Driver on HIP, loaded at run time.
#include "runtime/hip/HipDriver.h"

#include <dlfcn.h>

#include <string>

namespace kiln::runtime::hip {
namespace {

#define KILN_HIP_ENTRY_POINTS(X)                                                                   \
  X(hipGetErrorName)                                                                               \
  X(hipGetErrorString)                                                                             \
  X(hipInit)                                                                                       \
  X(hipGetDeviceCount)                                                                             \
  X(hipDeviceGetAttribute)                                                                         \
  X(hipGetDevice)                                                                                  \
  X(hipSetDevice)                                                                                  \
  X(hipModuleLoadData)                                                                             \
  X(hipModuleUnload)                                                                               \
  X(hipModuleGetFunction)                                                                          \
  X(hipFuncGetAttribute)                                                                           \
  X(hipModuleLaunchKernel)                                                                         \
  X(hipStreamSynchronize)                                                                          \
  X(hipMalloc)                                                                                     \
  X(hipFree)                                                                                       \
  X(hipMemcpyHtoD)                                                                                 \
  X(hipMemcpyDtoH)

DriverContext contextOf(int ordinal) {
  return reinterpret_cast<DriverContext>(static_cast<intptr_t>(ordinal) + 1);
}

class HipDriver final : public Driver {
public:
  explicit HipDriver(const HipDriverTable& t) : t_(t) {}

  Backend backend() const override { return Backend::kHip; }
  std::string description() const override {
    return std::string("hip (") + (*t_.library ? t_.library : "driver table") + ")";
  }

  Status init() override { return check("hipInit", t_.hipInit(0)); }

  Expected<int> deviceCount() override {
    int n = 0;
    KILN_RETURN_IF_ERROR(check("hipGetDeviceCount", t_.hipGetDeviceCount(&n)));
    return n;
  }

  Expected<DeviceInfo> deviceInfo(int ordinal) override {
    DeviceInfo info;
    info.ordinal = ordinal;
    info.backend = Backend::kHip;
    struct {
      int attribute;
      int* out;
    } attrs[] = {
        {hipDeviceAttributeComputeCapabilityMajor, &info.ccMajor},
        {hipDeviceAttributeComputeCapabilityMinor, &info.ccMinor},
        {hipDeviceAttributeWarpSize, &info.warpSize},
        {hipDeviceAttributeMaxThreadsPerBlock, &info.maxThreadsPerBlock},
        {hipDeviceAttributeMaxSharedMemoryPerBlock, &info.maxSharedPerBlock},
        {hipDeviceAttributeSharedMemPerBlockOptin, &info.maxSharedPerBlockOptin},
        {hipDeviceAttributeMaxRegistersPerBlock, &info.maxRegistersPerBlock},
        {hipDeviceAttributeMultiprocessorCount, &info.multiprocessorCount},
    };
    for (auto& a : attrs)
      KILN_RETURN_IF_ERROR(
          check("hipDeviceGetAttribute", t_.hipDeviceGetAttribute(a.out, a.attribute, ordinal),
                " (attribute " + std::to_string(a.attribute) + ")"));
    // AMD reports 0 for the opt-in limit where there is no opt-in: the
    // per-block limit is the whole LDS.
    if (info.maxSharedPerBlockOptin < info.maxSharedPerBlock)
      info.maxSharedPerBlockOptin = info.maxSharedPerBlock;
    return info;
  }

  Expected<DriverContext> retainPrimaryContext(int ordinal) override {
    int n = 0;
    KILN_RETURN_IF_ERROR(check("hipGetDeviceCount", t_.hipGetDeviceCount(&n)));
    if (ordinal < 0 || ordinal >= n)
      return Status::driverError("hipSetDevice", hipErrorInvalidDevice,
                                 "hipErrorInvalidDevice: device ordinal " +
                                     std::to_string(ordinal) + " of " + std::to_string(n));
    return contextOf(ordinal);
  }
  Status releasePrimaryContext(int) override { return Status(); }

  Expected<DriverContext> currentContext() override {
    int dev = 0;
    KILN_RETURN_IF_ERROR(check("hipGetDevice", t_.hipGetDevice(&dev)));
    return contextOf(dev);
  }
  Status setCurrentContext(DriverContext context) override {
    int ordinal = static_cast<int>(reinterpret_cast<intptr_t>(context)) - 1;
    return check("hipSetDevice", t_.hipSetDevice(ordinal));
  }

  Expected<DriverModule> loadModule(const void* image, size_t) override {
    hipModule_t m = nullptr;
    KILN_RETURN_IF_ERROR(check("hipModuleLoadData", t_.hipModuleLoadData(&m, image)));
    return static_cast<DriverModule>(m);
  }
  Status unloadModule(DriverModule module) override {
    return check("hipModuleUnload", t_.hipModuleUnload(static_cast<hipModule_t>(module)));
  }
  Expected<DriverFunction> getFunction(DriverModule module, const std::string& name) override {
    hipFunction_t f = nullptr;
    KILN_RETURN_IF_ERROR(
        check("hipModuleGetFunction",
              t_.hipModuleGetFunction(&f, static_cast<hipModule_t>(module), name.c_str()),
              " (function '" + name + "')"));
    return static_cast<DriverFunction>(f);
  }

  Expected<FunctionAttributes> functionAttributes(DriverFunction function) override {
    FunctionAttributes a;
    struct {
      int attribute;
      int* out;
    } attrs[] = {
        {HIP_FUNC_ATTRIBUTE_NUM_REGS, &a.numRegs},
        {HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, &a.maxThreadsPerBlock},
        {HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, &a.staticSharedBytes},
        {HIP_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, &a.localBytes},
        {HIP_FUNC_ATTRIBUTE_CONST_SIZE_BYTES, &a.constBytes},
        {HIP_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, &a.maxDynamicSharedBytes},
        {HIP_FUNC_ATTRIBUTE_BINARY_VERSION, &a.binaryVersion},
    };
    for (auto& at : attrs)
      KILN_RETURN_IF_ERROR(check(
          "hipFuncGetAttribute",
          t_.hipFuncGetAttribute(at.out, at.attribute, static_cast<hipFunction_t>(function)),
          " (attribute " + std::to_string(at.attribute) + ")"));
    return a;
  }

  Status setMaxDynamicSharedBytes(DriverFunction, int) override { return Status(); }

  Status launch(const LaunchParams& p) override {
    return check("hipModuleLaunchKernel",
                 t_.hipModuleLaunchKernel(static_cast<hipFunction_t>(p.function), p.grid[0],
                                          p.grid[1], p.grid[2], p.block[0], p.block[1],
                                          p.block[2], p.sharedBytes,
                                          static_cast<hipStream_t>(p.stream), p.params, nullptr));
  }
  Status streamSynchronize(DriverStream stream) override {
    return check("hipStreamSynchronize",
                 t_.hipStreamSynchronize(static_cast<hipStream_t>(stream)));
  }

  Expected<DevicePtr> memAlloc(size_t bytes) override {
    void* p = nullptr;
    KILN_RETURN_IF_ERROR(check("hipMalloc", t_.hipMalloc(&p, bytes)));
    return static_cast<DevicePtr>(reinterpret_cast<uintptr_t>(p));
  }
  Status memFree(DevicePtr ptr) override {
    return check("hipFree", t_.hipFree(reinterpret_cast<void*>(static_cast<uintptr_t>(ptr))));
  }
  Status memcpyHtoD(DevicePtr dst, const void* src, size_t bytes) override {
    return check("hipMemcpyHtoD",
                 t_.hipMemcpyHtoD(reinterpret_cast<void*>(static_cast<uintptr_t>(dst)),
                                  const_cast<void*>(src), bytes));
  }
  Status memcpyDtoH(void* dst, DevicePtr src, size_t bytes) override {
    return check("hipMemcpyDtoH",
                 t_.hipMemcpyDtoH(dst, reinterpret_cast<void*>(static_cast<uintptr_t>(src)),
                                  bytes));
  }

private:
  Status check(const char* call, hipError_t r, const std::string& detail = "") {
    if (r == hipSuccess)
      return Status();
    const char* name = t_.hipGetErrorName(r);
    const char* text = t_.hipGetErrorString(r);
    return Status::driverError(std::string(call) + detail, r,
                               std::string(name ? name : "unknown hipError_t") + ": " +
                                   (text ? text : "no description"));
  }

  HipDriverTable t_;
};

} // namespace

Expected<HipDriverTable> loadHipDriverTable(const char* library) {
  Expected<void*> opened = openDriverLibrary(library, "HIP");
  if (!opened)
    return opened.status();
  void* handle = *opened;
  HipDriverTable t;
  t.library = library;
#define KILN_RESOLVE(name)                                                                         \
  *reinterpret_cast<void**>(&t.name) = dlsym(handle, #name);                                       \
  if (!t.name)                                                                                     \
    return Status(StatusCode::kDriverUnavailable,                                                  \
                  std::string(library) + " does not export " #name);
  KILN_HIP_ENTRY_POINTS(KILN_RESOLVE)
#undef KILN_RESOLVE
  return t;
}

Expected<std::unique_ptr<Driver>> makeHipDriver(const HipDriverTable& table) {
#define KILN_CHECK_ENTRY(name)                                                                     \
  if (!table.name)                                                                                 \
    return Status(StatusCode::kDriverUnavailable, "HIP driver table has no entry point " #name);
  KILN_HIP_ENTRY_POINTS(KILN_CHECK_ENTRY)
#undef KILN_CHECK_ENTRY
  return std::unique_ptr<Driver>(new HipDriver(table));
}

Expected<std::unique_ptr<Driver>> openHipDriver(const char* library) {
  Expected<HipDriverTable> table = loadHipDriverTable(library);
  if (!table)
    return table.status();
  return makeHipDriver(*table);
}

} // namespace kiln::runtime::hip
