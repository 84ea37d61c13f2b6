// Capabilities.cpp: the capability checks and their messages.
#include "runtime/Capabilities.h"

#include <string>

namespace kiln::runtime {

Status checkCapabilities(const KernelMetadata& m, const DeviceInfo& d,
                         const FunctionAttributes& f, LaunchPlan* plan) {
  const bool cuda = d.backend == Backend::kCuda;
  auto attr = [&](const char* cudaName, const char* hipName) {
    return std::string(" (") + (cuda ? cudaName : hipName) + ")";
  };
  const std::string who = "kernel '" + m.kernel + "' (num_warps=" + std::to_string(m.numWarps) +
                          ", num_stages=" + std::to_string(m.numStages) + ")";
  const std::string dev = "device " + std::to_string(d.ordinal);
  const std::string cc = std::to_string(d.ccMajor) + "." + std::to_string(d.ccMinor);
  const Target& t = m.target;
  const std::string needCc = std::to_string(t.archMajor) + "." + std::to_string(t.archMinor);

  if (t.backend != d.backend)
    return Status(StatusCode::kArchMismatch, who + " was compiled for " + backendName(t.backend) +
                                                 " (" + t.arch + ") but " + dev + " is a " +
                                                 backendName(d.backend) + " device");
  if (cuda) {
    if (t.archSpecific && (t.archMajor != d.ccMajor || t.archMinor != d.ccMinor))
      return Status(StatusCode::kArchMismatch,
                    who + " was compiled for " + t.arch + ", which runs only on compute capability " +
                        needCc + ", but " + dev + " has compute capability " + cc);
    if (!t.archSpecific && (t.archMajor != d.ccMajor || t.archMinor > d.ccMinor))
      return Status(StatusCode::kArchMismatch,
                    who + " was compiled for " + t.arch + ", which runs on compute capability " +
                        needCc + " up to " + std::to_string(t.archMajor) + ".x, but " + dev +
                        " has compute capability " + cc);
  } else if (t.archMajor != d.ccMajor || t.archMinor != d.ccMinor) {
    return Status(StatusCode::kArchMismatch,
                  who + " was compiled for " + t.arch + " (gfx version " + needCc + ") but " + dev +
                      " reports gfx version " + cc +
                      attr("", "hipDeviceAttributeComputeCapabilityMajor/Minor"));
  }
  if (t.warpSize != d.warpSize)
    return Status(StatusCode::kArchMismatch,
                  who + " was compiled for warp size " + std::to_string(t.warpSize) + " but " + dev +
                      " has warp size " + std::to_string(d.warpSize));

  const long long threads = static_cast<long long>(t.warpSize) * m.numWarps;
  if (threads > d.maxThreadsPerBlock)
    return Status(StatusCode::kThreadsExceeded,
                  who + " needs " + std::to_string(threads) + " threads per block (" +
                      std::to_string(t.warpSize) + " x " + std::to_string(m.numWarps) +
                      " warps) but " + dev + " allows at most " +
                      std::to_string(d.maxThreadsPerBlock) +
                      attr("CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK",
                           "hipDeviceAttributeMaxThreadsPerBlock"));

  const long long regs = static_cast<long long>(f.numRegs) * threads;
  if (regs > d.maxRegistersPerBlock)
    return Status(StatusCode::kRegistersExceeded,
                  who + " needs " + std::to_string(f.numRegs) + " registers per thread x " +
                      std::to_string(threads) + " threads = " + std::to_string(regs) +
                      " registers per block but " + dev + " has " +
                      std::to_string(d.maxRegistersPerBlock) +
                      attr("CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK",
                           "hipDeviceAttributeMaxRegistersPerBlock"));
  if (f.maxThreadsPerBlock > 0 && threads > f.maxThreadsPerBlock)
    return Status(StatusCode::kRegistersExceeded,
                  who + " needs " + std::to_string(threads) + " threads per block but its " +
                      std::to_string(f.numRegs) + " registers per thread limit a block on " + dev +
                      " to " + std::to_string(f.maxThreadsPerBlock) + " threads" +
                      attr("CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK",
                           "HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK"));

  const long long shared = static_cast<long long>(f.staticSharedBytes) +
                           static_cast<long long>(m.sharedBytes);
  if (shared > d.maxSharedPerBlockOptin)
    return Status(StatusCode::kSharedMemoryExceeded,
                  who + " needs " + std::to_string(shared) +
                      " bytes of shared memory per block (static " +
                      std::to_string(f.staticSharedBytes) + " + dynamic " +
                      std::to_string(m.sharedBytes) + ") but " + dev + " allows at most " +
                      std::to_string(d.maxSharedPerBlockOptin) +
                      attr("CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN",
                           "hipDeviceAttributeSharedMemPerBlockOptin"));

  plan->blockThreads = static_cast<unsigned>(threads);
  plan->dynamicSharedBytes = static_cast<unsigned>(m.sharedBytes);
  plan->needsSharedOptIn =
      static_cast<long long>(m.sharedBytes) > static_cast<long long>(f.maxDynamicSharedBytes);
  return Status();
}

} // namespace kiln::runtime
