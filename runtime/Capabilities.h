// Capabilities.h: the first-load capability checkpoint: can this device run
// this loaded kernel with the launch configuration its metadata implies?
#ifndef KILN_RUNTIME_CAPABILITIES_H
#define KILN_RUNTIME_CAPABILITIES_H

#include "runtime/Driver.h"
#include "runtime/Metadata.h"
#include "runtime/Status.h"

namespace kiln::runtime {

/// The launch shape a checked kernel gets.
struct LaunchPlan {
  /// warp_size x num_warps.
  unsigned blockThreads = 0;
  /// metadata's shared_bytes.
  unsigned dynamicSharedBytes = 0;
  /// True when dynamicSharedBytes exceeds the function's current
  /// CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES (48 KiB - static by
  /// default on NVIDIA), so the runtime must raise it before launching.
  bool needsSharedOptIn = false;
};

/// Checks, in this order, and returns the first failure:
/// - backend and architecture (kArchMismatch): a CUDA `sm_XY` binary runs on
///   compute capability X.Y' with Y' >= Y (same major: SASS compatibility),
///   `sm_XYa` only on exactly X.Y; HIP gfx major and minor must equal the
///   device's; the warp size must equal the device's;
/// - threads per block (kThreadsExceeded): warp_size x num_warps vs
///   CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK;
/// - registers (kRegistersExceeded): CU_FUNC_ATTRIBUTE_NUM_REGS x threads vs
///   CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, and threads vs the
///   function's register-limited CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK;
/// - shared memory (kSharedMemoryExceeded): static
///   (CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES) + dynamic (shared_bytes) vs
///   CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN.
/// Every message names the kernel, num_warps and num_stages, what it needs,
/// the device ordinal and the device's limit with the attribute it came from.
Status checkCapabilities(const KernelMetadata& metadata, const DeviceInfo& device,
                         const FunctionAttributes& function, LaunchPlan* plan);

} // namespace kiln::runtime

#endif // KILN_RUNTIME_CAPABILITIES_H
