// HipApi.h: the part of the HIP API the runtime calls, declared here so the
// runtime builds without HIP headers.
//
// Values are facts from HIP 6's headers: hipError_t
// (hip/hip_runtime_api.h), hipDeviceAttribute_t (hipDeviceAttribute* values)
// and hipFunction_attribute (HIP_FUNC_ATTRIBUTE_*, the same numbers as
// CUDA's CUfunction_attribute).
#ifndef KILN_RUNTIME_HIP_HIPAPI_H
#define KILN_RUNTIME_HIP_HIPAPI_H

#include <cstddef>
#include <cstdint>

namespace kiln::runtime::hip {

using hipError_t = int;
using hipModule_t = struct ihipModule_t*;
using hipFunction_t = struct ihipModuleSymbol_t*;
using hipStream_t = struct ihipStream_t*;
using hipDeviceptr_t = void*;

inline constexpr hipError_t hipSuccess = 0;
inline constexpr hipError_t hipErrorInvalidValue = 1;
inline constexpr hipError_t hipErrorNoDevice = 100;
inline constexpr hipError_t hipErrorInvalidDevice = 101;
inline constexpr hipError_t hipErrorInvalidImage = 200;
inline constexpr hipError_t hipErrorNoBinaryForGpu = 209;
inline constexpr hipError_t hipErrorNotFound = 500;

// hipDeviceAttribute_t values (HIP 6).
inline constexpr int hipDeviceAttributeComputeCapabilityMajor = 23;
inline constexpr int hipDeviceAttributeMaxThreadsPerBlock = 56;
inline constexpr int hipDeviceAttributeComputeCapabilityMinor = 61;
inline constexpr int hipDeviceAttributeMultiprocessorCount = 63;
inline constexpr int hipDeviceAttributeMaxRegistersPerBlock = 71;
inline constexpr int hipDeviceAttributeMaxSharedMemoryPerBlock = 74;
inline constexpr int hipDeviceAttributeSharedMemPerBlockOptin = 75;
inline constexpr int hipDeviceAttributeWarpSize = 87;

// hipFunction_attribute values.
inline constexpr int HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0;
inline constexpr int HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1;
inline constexpr int HIP_FUNC_ATTRIBUTE_CONST_SIZE_BYTES = 2;
inline constexpr int HIP_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3;
inline constexpr int HIP_FUNC_ATTRIBUTE_NUM_REGS = 4;
inline constexpr int HIP_FUNC_ATTRIBUTE_BINARY_VERSION = 6;
inline constexpr int HIP_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;

/// The HIP entry points the runtime calls. Filled by loadHipDriverTable()
/// (dlopen + dlsym: HIP's exported names carry one signature each) or by a
/// test with fakes. Every member must be non-null.
struct HipDriverTable {
  const char* (*hipGetErrorName)(hipError_t error) = nullptr;
  const char* (*hipGetErrorString)(hipError_t error) = nullptr;
  hipError_t (*hipInit)(unsigned int flags) = nullptr;
  hipError_t (*hipGetDeviceCount)(int* count) = nullptr;
  hipError_t (*hipDeviceGetAttribute)(int* value, int attribute, int device) = nullptr;
  hipError_t (*hipGetDevice)(int* device) = nullptr;
  hipError_t (*hipSetDevice)(int device) = nullptr;
  hipError_t (*hipModuleLoadData)(hipModule_t* module, const void* image) = nullptr;
  hipError_t (*hipModuleUnload)(hipModule_t module) = nullptr;
  hipError_t (*hipModuleGetFunction)(hipFunction_t* function, hipModule_t module,
                                     const char* name) = nullptr;
  hipError_t (*hipFuncGetAttribute)(int* value, int attribute, hipFunction_t function) = nullptr;
  hipError_t (*hipModuleLaunchKernel)(hipFunction_t f, unsigned gridX, unsigned gridY,
                                      unsigned gridZ, unsigned blockX, unsigned blockY,
                                      unsigned blockZ, unsigned sharedBytes, hipStream_t stream,
                                      void** params, void** extra) = nullptr;
  hipError_t (*hipStreamSynchronize)(hipStream_t stream) = nullptr;
  hipError_t (*hipMalloc)(void** ptr, size_t bytes) = nullptr;
  hipError_t (*hipFree)(void* ptr) = nullptr;
  hipError_t (*hipMemcpyHtoD)(hipDeviceptr_t dst, void* src, size_t bytes) = nullptr;
  hipError_t (*hipMemcpyDtoH)(void* dst, hipDeviceptr_t src, size_t bytes) = nullptr;

  /// The library the entry points came from ("" for a table filled by hand).
  const char* library = "";
};

} // namespace kiln::runtime::hip

#endif // KILN_RUNTIME_HIP_HIPAPI_H
