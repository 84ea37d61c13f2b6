// Driver.h: the one interface the runtime uses to talk to a GPU driver.
//
// Implementations: runtime/cuda (CUDA Driver API from libcuda.so.1) and
// runtime/hip (HIP from libamdhip64.so), both loaded with dlopen, never
// linked. Every method turns the driver's status into a Status naming the
// driver call (StatusCode::kDriverError, driverCall(), driverResult()).
// Handles are the driver's own opaque handles passed through as void*.
#ifndef KILN_RUNTIME_DRIVER_H
#define KILN_RUNTIME_DRIVER_H

#include <cstddef>
#include <cstdint>
#include <string>

#include "runtime/Metadata.h"
#include "runtime/Status.h"

namespace kiln::runtime {

/// A context (CUcontext; for HIP the device ordinal + 1), module
/// (CUmodule / hipModule_t), function (CUfunction / hipFunction_t) and
/// stream (CUstream / hipStream_t; null is the default stream).
using DriverContext = void*;
using DriverModule = void*;
using DriverFunction = void*;
using DriverStream = void*;
/// A device address (CUdeviceptr / hipDeviceptr_t).
using DevicePtr = uint64_t;

/// What the runtime checks kernels against, read once per device with
/// cuDeviceGetAttribute / hipDeviceGetAttribute.
struct DeviceInfo {
  int ordinal = 0;
  Backend backend = Backend::kCuda;
  /// Compute capability (CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR/MINOR;
  /// for HIP hipDeviceAttributeComputeCapabilityMajor/Minor, gfx942 -> 9.4).
  int ccMajor = 0;
  int ccMinor = 0;
  /// Threads per warp (CU_DEVICE_ATTRIBUTE_WARP_SIZE).
  int warpSize = 32;
  /// CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK.
  int maxThreadsPerBlock = 0;
  /// Shared memory per block without opting in, bytes
  /// (CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK; 48 KiB on NVIDIA).
  int maxSharedPerBlock = 0;
  /// Shared memory per block with opt-in, bytes
  /// (CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN; 232448 on H100/H200).
  int maxSharedPerBlockOptin = 0;
  /// 32-bit registers per block (CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK).
  int maxRegistersPerBlock = 0;
  /// CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT.
  int multiprocessorCount = 0;

  /// "sm_90" style name for CUDA, "gfx9.4" style for HIP (major.minor only).
  std::string archName() const;
};

/// A loaded function's resources, read back with cuFuncGetAttribute /
/// hipFuncGetAttribute after loading.
struct FunctionAttributes {
  /// Registers per thread (CU_FUNC_ATTRIBUTE_NUM_REGS).
  int numRegs = 0;
  /// Largest block this function can be launched with, limited by its
  /// registers (CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK).
  int maxThreadsPerBlock = 0;
  /// Statically allocated shared memory, bytes (CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES).
  int staticSharedBytes = 0;
  /// Local memory per thread, bytes (CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES);
  /// register spills live there. The driver has no separate spill count.
  int localBytes = 0;
  /// Constant memory, bytes (CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES).
  int constBytes = 0;
  /// Current dynamic shared memory limit, bytes
  /// (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES).
  int maxDynamicSharedBytes = 0;
  /// SASS version of the binary, major*10+minor (CU_FUNC_ATTRIBUTE_BINARY_VERSION).
  int binaryVersion = 0;
};

/// One kernel launch as the driver takes it.
struct LaunchParams {
  DriverFunction function = nullptr;
  unsigned grid[3] = {1, 1, 1};
  unsigned block[3] = {1, 1, 1};
  /// Dynamic shared memory, bytes.
  unsigned sharedBytes = 0;
  DriverStream stream = nullptr;
  /// cuLaunchKernel's kernelParams: one pointer per parameter.
  void** params = nullptr;
};

/// A GPU driver. Methods may be called from any thread; the caller (the
/// runtime) makes the right context current before module and launch calls.
class Driver {
public:
  virtual ~Driver() = default;

  virtual Backend backend() const = 0;
  /// E.g. "cuda (libcuda.so.1, CUDA 12000 entry points)"; for messages.
  virtual std::string description() const = 0;

  /// cuInit(0) / hipInit(0). Called once per process (again in a fork child).
  virtual Status init() = 0;
  /// cuDeviceGetCount / hipGetDeviceCount.
  virtual Expected<int> deviceCount() = 0;
  /// The device's limits (cuDeviceGet + cuDeviceGetAttribute).
  virtual Expected<DeviceInfo> deviceInfo(int ordinal) = 0;
  /// Retains the device's primary context (cuDevicePrimaryCtxRetain; HIP:
  /// no call, the context is the ordinal + 1).
  virtual Expected<DriverContext> retainPrimaryContext(int ordinal) = 0;
  /// cuDevicePrimaryCtxRelease; a no-op for HIP.
  virtual Status releasePrimaryContext(int ordinal) = 0;
  /// cuCtxGetCurrent / hipGetDevice; null when none is current.
  virtual Expected<DriverContext> currentContext() = 0;
  /// cuCtxSetCurrent / hipSetDevice.
  virtual Status setCurrentContext(DriverContext context) = 0;

  /// cuModuleLoadData / hipModuleLoadData of an in-memory image into the
  /// current context.
  virtual Expected<DriverModule> loadModule(const void* image, size_t size) = 0;
  /// cuModuleUnload / hipModuleUnload.
  virtual Status unloadModule(DriverModule module) = 0;
  /// cuModuleGetFunction / hipModuleGetFunction.
  virtual Expected<DriverFunction> getFunction(DriverModule module, const std::string& name) = 0;
  /// cuFuncGetAttribute / hipFuncGetAttribute for each FunctionAttributes field.
  virtual Expected<FunctionAttributes> functionAttributes(DriverFunction function) = 0;
  /// Raises the function's dynamic shared memory limit to `bytes`
  /// (cuFuncSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES));
  /// needed above 48 KiB - static shared on NVIDIA. A no-op for HIP.
  virtual Status setMaxDynamicSharedBytes(DriverFunction function, int bytes) = 0;
  /// cuLaunchKernel / hipModuleLaunchKernel (asynchronous on the stream).
  virtual Status launch(const LaunchParams& params) = 0;
  /// cuStreamSynchronize / hipStreamSynchronize.
  virtual Status streamSynchronize(DriverStream stream) = 0;

  /// Device memory helpers for tests and examples (cuMemAlloc, cuMemFree,
  /// cuMemcpyHtoD, cuMemcpyDtoH and the hip equivalents); synchronous.
  virtual Expected<DevicePtr> memAlloc(size_t bytes) = 0;
  virtual Status memFree(DevicePtr ptr) = 0;
  virtual Status memcpyHtoD(DevicePtr dst, const void* src, size_t bytes) = 0;
  virtual Status memcpyDtoH(void* dst, DevicePtr src, size_t bytes) = 0;
};

/// dlopen(`library`, RTLD_NOW | RTLD_LOCAL) for a driver implementation; the
/// handle is never closed (entry points resolved from it live as long as the
/// process). Error: kDriverUnavailable "cannot load <what>: dlopen(<library>)
/// failed: <dlerror>".
Expected<void*> openDriverLibrary(const char* library, const char* what);

} // namespace kiln::runtime

#endif // KILN_RUNTIME_DRIVER_H
