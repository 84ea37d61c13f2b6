// CudaDriver.cpp: runtime::Driver on the CUDA Driver API, loaded at run time.
#include "runtime/cuda/CudaDriver.h"

#include <dlfcn.h>

#include <string>

namespace kiln::runtime::cuda {
namespace {

// Every entry point of CudaDriverTable, for resolution and null checks.
#define KILN_CUDA_ENTRY_POINTS(X)                                                                  \
  X(cuGetErrorName)                                                                                \
  X(cuGetErrorString)                                                                              \
  X(cuInit)                                                                                        \
  X(cuDriverGetVersion)                                                                            \
  X(cuDeviceGetCount)                                                                              \
  X(cuDeviceGet)                                                                                   \
  X(cuDeviceGetAttribute)                                                                          \
  X(cuDevicePrimaryCtxRetain)                                                                      \
  X(cuDevicePrimaryCtxRelease)                                                                     \
  X(cuCtxGetCurrent)                                                                               \
  X(cuCtxSetCurrent)                                                                               \
  X(cuCtxGetDevice)                                                                                \
  X(cuModuleLoadData)                                                                              \
  X(cuModuleUnload)                                                                                \
  X(cuModuleGetFunction)                                                                           \
  X(cuFuncGetAttribute)                                                                            \
  X(cuFuncSetAttribute)                                                                            \
  X(cuLaunchKernel)                                                                                \
  X(cuStreamSynchronize)                                                                           \
  X(cuMemAlloc)                                                                                    \
  X(cuMemFree)                                                                                     \
  X(cuMemcpyHtoD)                                                                                  \
  X(cuMemcpyDtoH)

class CudaDriver final : public Driver {
public:
  explicit CudaDriver(const CudaDriverTable& t) : t_(t) {}

  Backend backend() const override { return Backend::kCuda; }

  std::string description() const override {
    return std::string("cuda (") + (*t_.library ? t_.library : "driver table") + ", CUDA " +
           std::to_string(t_.apiVersion) + " entry points)";
  }

  Status init() override { return check("cuInit", t_.cuInit(0)); }

  Expected<int> deviceCount() override {
    int n = 0;
    KILN_RETURN_IF_ERROR(check("cuDeviceGetCount", t_.cuDeviceGetCount(&n)));
    return n;
  }

  Expected<DeviceInfo> deviceInfo(int ordinal) override {
    CUdevice dev;
    KILN_RETURN_IF_ERROR(check("cuDeviceGet", t_.cuDeviceGet(&dev, ordinal)));
    DeviceInfo info;
    info.ordinal = ordinal;
    info.backend = Backend::kCuda;
    struct {
      int attribute;
      int* out;
    } attrs[] = {
        {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &info.ccMajor},
        {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &info.ccMinor},
        {CU_DEVICE_ATTRIBUTE_WARP_SIZE, &info.warpSize},
        {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, &info.maxThreadsPerBlock},
        {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, &info.maxSharedPerBlock},
        {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, &info.maxSharedPerBlockOptin},
        {CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, &info.maxRegistersPerBlock},
        {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &info.multiprocessorCount},
    };
    for (auto& a : attrs)
      KILN_RETURN_IF_ERROR(
          check("cuDeviceGetAttribute", t_.cuDeviceGetAttribute(a.out, a.attribute, dev),
                " (attribute " + std::to_string(a.attribute) + ")"));
    return info;
  }

  Expected<DriverContext> retainPrimaryContext(int ordinal) override {
    CUdevice dev;
    KILN_RETURN_IF_ERROR(check("cuDeviceGet", t_.cuDeviceGet(&dev, ordinal)));
    CUcontext ctx = nullptr;
    KILN_RETURN_IF_ERROR(check("cuDevicePrimaryCtxRetain", t_.cuDevicePrimaryCtxRetain(&ctx, dev)));
    return static_cast<DriverContext>(ctx);
  }

  Status releasePrimaryContext(int ordinal) override {
    CUdevice dev;
    KILN_RETURN_IF_ERROR(check("cuDeviceGet", t_.cuDeviceGet(&dev, ordinal)));
    return check("cuDevicePrimaryCtxRelease", t_.cuDevicePrimaryCtxRelease(dev));
  }

  Expected<DriverContext> currentContext() override {
    CUcontext ctx = nullptr;
    KILN_RETURN_IF_ERROR(check("cuCtxGetCurrent", t_.cuCtxGetCurrent(&ctx)));
    return static_cast<DriverContext>(ctx);
  }

  Status setCurrentContext(DriverContext context) override {
    return check("cuCtxSetCurrent", t_.cuCtxSetCurrent(static_cast<CUcontext>(context)));
  }

  Expected<DriverModule> loadModule(const void* image, size_t size) override {
    (void)size; // cuModuleLoadData finds the size in the ELF header.
    CUmodule module = nullptr;
    KILN_RETURN_IF_ERROR(check("cuModuleLoadData", t_.cuModuleLoadData(&module, image)));
    return static_cast<DriverModule>(module);
  }

  Status unloadModule(DriverModule module) override {
    return check("cuModuleUnload", t_.cuModuleUnload(static_cast<CUmodule>(module)));
  }

  Expected<DriverFunction> getFunction(DriverModule module, const std::string& name) override {
    CUfunction f = nullptr;
    KILN_RETURN_IF_ERROR(
        check("cuModuleGetFunction",
              t_.cuModuleGetFunction(&f, static_cast<CUmodule>(module), name.c_str()),
              " (function '" + name + "')"));
    return static_cast<DriverFunction>(f);
  }

  Expected<FunctionAttributes> functionAttributes(DriverFunction function) override {
    FunctionAttributes a;
    struct {
      int attribute;
      int* out;
    } attrs[] = {
        {CU_FUNC_ATTRIBUTE_NUM_REGS, &a.numRegs},
        {CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, &a.maxThreadsPerBlock},
        {CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, &a.staticSharedBytes},
        {CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, &a.localBytes},
        {CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES, &a.constBytes},
        {CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, &a.maxDynamicSharedBytes},
        {CU_FUNC_ATTRIBUTE_BINARY_VERSION, &a.binaryVersion},
    };
    for (auto& at : attrs)
      KILN_RETURN_IF_ERROR(check(
          "cuFuncGetAttribute",
          t_.cuFuncGetAttribute(at.out, at.attribute, static_cast<CUfunction>(function)),
          " (attribute " + std::to_string(at.attribute) + ")"));
    return a;
  }

  Status setMaxDynamicSharedBytes(DriverFunction function, int bytes) override {
    return check("cuFuncSetAttribute",
                 t_.cuFuncSetAttribute(static_cast<CUfunction>(function),
                                       CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes),
                 " (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = " + std::to_string(bytes) +
                     ")");
  }

  Status launch(const LaunchParams& p) override {
    CUresult r = t_.cuLaunchKernel(static_cast<CUfunction>(p.function), p.grid[0], p.grid[1],
                                   p.grid[2], p.block[0], p.block[1], p.block[2], p.sharedBytes,
                                   static_cast<CUstream>(p.stream), p.params, nullptr);
    if (r == CUDA_SUCCESS)
      return Status();
    return check("cuLaunchKernel", r,
                 " (grid " + std::to_string(p.grid[0]) + "x" + std::to_string(p.grid[1]) + "x" +
                     std::to_string(p.grid[2]) + ", block " + std::to_string(p.block[0]) +
                     ", dynamic shared " + std::to_string(p.sharedBytes) + " bytes)");
  }

  Status streamSynchronize(DriverStream stream) override {
    return check("cuStreamSynchronize", t_.cuStreamSynchronize(static_cast<CUstream>(stream)));
  }

  Expected<DevicePtr> memAlloc(size_t bytes) override {
    CUdeviceptr p = 0;
    KILN_RETURN_IF_ERROR(check("cuMemAlloc", t_.cuMemAlloc(&p, bytes),
                               " (" + std::to_string(bytes) + " bytes)"));
    return static_cast<DevicePtr>(p);
  }
  Status memFree(DevicePtr ptr) override { return check("cuMemFree", t_.cuMemFree(ptr)); }
  Status memcpyHtoD(DevicePtr dst, const void* src, size_t bytes) override {
    return check("cuMemcpyHtoD", t_.cuMemcpyHtoD(dst, src, bytes));
  }
  Status memcpyDtoH(void* dst, DevicePtr src, size_t bytes) override {
    return check("cuMemcpyDtoH", t_.cuMemcpyDtoH(dst, src, bytes));
  }

private:
  Status check(const char* call, CUresult r, const std::string& detail = "") {
    if (r == CUDA_SUCCESS)
      return Status();
    const char* name = nullptr;
    const char* text = nullptr;
    if (t_.cuGetErrorName(r, &name) != CUDA_SUCCESS || !name)
      name = "unknown CUresult";
    if (t_.cuGetErrorString(r, &text) != CUDA_SUCCESS || !text)
      text = "no description";
    return Status::driverError(std::string(call) + detail, r, std::string(name) + ": " + text);
  }

  CudaDriverTable t_;
};

} // namespace

Expected<CudaDriverTable> loadCudaDriverTable(const char* library, int cudaVersion) {
  Expected<void*> opened = openDriverLibrary(library, "the CUDA driver");
  if (!opened)
    return opened.status();
  void* handle = *opened; // intentionally never dlclosed (see the header)
  auto v2 = reinterpret_cast<PFN_cuGetProcAddress_v2>(dlsym(handle, "cuGetProcAddress_v2"));
  auto v1 = reinterpret_cast<PFN_cuGetProcAddress_v1>(dlsym(handle, "cuGetProcAddress"));
  if (!v2 && !v1)
    return Status(StatusCode::kDriverUnavailable,
                  std::string(library) +
                      " exports neither cuGetProcAddress_v2 nor cuGetProcAddress (driver older "
                      "than CUDA 11.3?)");

  CudaDriverTable t;
  t.apiVersion = cudaVersion;
  t.library = library;
  auto resolve = [&](const char* name, void** out) -> Status {
    int found = CU_GET_PROC_ADDRESS_SUCCESS;
    CUresult r = v2 ? v2(name, out, cudaVersion, CU_GET_PROC_ADDRESS_DEFAULT, &found)
                    : v1(name, out, cudaVersion, CU_GET_PROC_ADDRESS_DEFAULT);
    if (r == CUDA_SUCCESS && found == CU_GET_PROC_ADDRESS_SUCCESS && *out)
      return Status();
    std::string why = r != CUDA_SUCCESS ? "returned CUresult " + std::to_string(r)
                      : found == CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND ? "symbol not found"
                      : found == CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT
                          ? "driver too old for this version"
                          : "returned a null pointer";
    Status s(StatusCode::kDriverUnavailable,
             std::string("cuGetProcAddress(\"") + name + "\", " + std::to_string(cudaVersion) +
                 ") in " + library + ": " + why);
    return s;
  };
#define KILN_RESOLVE(name)                                                                         \
  KILN_RETURN_IF_ERROR(resolve(#name, reinterpret_cast<void**>(&t.name)));
  KILN_CUDA_ENTRY_POINTS(KILN_RESOLVE)
#undef KILN_RESOLVE
  return t;
}

Expected<std::unique_ptr<Driver>> makeCudaDriver(const CudaDriverTable& table) {
#define KILN_CHECK_ENTRY(name)                                                                     \
  if (!table.name)                                                                                 \
    return Status(StatusCode::kDriverUnavailable,                                                  \
                  "CUDA driver table has no entry point " #name);
  KILN_CUDA_ENTRY_POINTS(KILN_CHECK_ENTRY)
#undef KILN_CHECK_ENTRY
  return std::unique_ptr<Driver>(new CudaDriver(table));
}

Expected<std::unique_ptr<Driver>> openCudaDriver(const char* library) {
  Expected<CudaDriverTable> table = loadCudaDriverTable(library);
  if (!table)
    return table.status();
  return makeCudaDriver(*table);
}

} // namespace kiln::runtime::cuda
