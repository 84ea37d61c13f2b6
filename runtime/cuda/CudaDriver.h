// CudaDriver.h: the CUDA Driver API behind runtime::Driver.
#ifndef KILN_RUNTIME_CUDA_CUDADRIVER_H
#define KILN_RUNTIME_CUDA_CUDADRIVER_H

#include <memory>

#include "runtime/Driver.h"
#include "runtime/cuda/CudaApi.h"

namespace kiln::runtime::cuda {

/// Loads the CUDA driver: dlopen(`library`) (RTLD_NOW | RTLD_LOCAL), one
/// dlsym of `cuGetProcAddress_v2` (falling back to the CUDA 11.3
/// `cuGetProcAddress`), then every table entry through cuGetProcAddress with
/// the unsuffixed name and `cudaVersion` (never dlsym of `_v2` names: in
/// CUDA 13, `cuCtxSynchronize_v2` takes a context argument, so the
/// signature behind a suffix is not the one a caller expects). The library
/// is never dlclosed: driver code must stay mapped until process exit.
/// Errors: kDriverUnavailable naming the library and dlerror(), or the entry
/// point, the requested version and the query result.
Expected<CudaDriverTable> loadCudaDriverTable(const char* library = "libcuda.so.1",
                                              int cudaVersion = kCudaApiVersion);

/// A Driver calling the entry points in `table` (checked non-null:
/// kDriverUnavailable names the first missing one).
Expected<std::unique_ptr<Driver>> makeCudaDriver(const CudaDriverTable& table);

/// loadCudaDriverTable() then makeCudaDriver().
Expected<std::unique_ptr<Driver>> openCudaDriver(const char* library = "libcuda.so.1");

} // namespace kiln::runtime::cuda

#endif // KILN_RUNTIME_CUDA_CUDADRIVER_H
