// FakeCuda.h: an in-process fake of the CUDA Driver API entry points the
// runtime uses, as a CudaDriverTable, with knobs (device and function
// attributes, injected failures, a launch hook) and records (calls, loads,
// unloads, launches with their argument bytes) for tests. "Device memory" is
// host memory, so a launch hook can emulate a kernel.
#ifndef KILN_TEST_RUNTIME_FAKECUDA_H
#define KILN_TEST_RUNTIME_FAKECUDA_H

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "runtime/cuda/CudaApi.h"

namespace kiln::fake {

struct FakeModule {
  std::string image;
  pid_t loadPid = 0;
  bool unloaded = false;
};

struct LaunchRecord {
  std::string function;
  unsigned grid[3] = {0, 0, 0};
  unsigned block[3] = {0, 0, 0};
  unsigned sharedBytes = 0;
  void* stream = nullptr;
  /// The first 8 bytes of each of the first `paramCount` parameters.
  std::vector<uint64_t> params;
  /// The current context at launch time.
  void* context = nullptr;
};

struct FakeCudaState {
  std::mutex mu;
  int deviceCount = 1;
  std::map<int, int> deviceAttrs; // CU_DEVICE_ATTRIBUTE_* -> value (H200 defaults)
  std::map<int, int> funcAttrs;   // CU_FUNC_ATTRIBUTE_* -> value
  /// Call name -> CUresult returned by every call of that name.
  std::map<std::string, int> failures;
  /// Function names cuModuleGetFunction does not find.
  std::set<std::string> missingFunctions;
  /// How many kernelParams entries cuLaunchKernel reads.
  int paramCount = 0;
  /// Called (without the lock) inside cuLaunchKernel.
  std::function<void(const LaunchRecord&)> onLaunch;

  std::map<std::string, int> calls; // call name -> count
  std::vector<FakeModule*> modules; // every module ever loaded
  std::vector<LaunchRecord> launches;
  int setMaxDynamicShared = -1;     // last CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES set
  int primaryRetains = 0;
  int primaryReleases = 0;
};

/// The process's fake state (reset by resetFakeCuda()).
FakeCudaState& fakeCuda();
/// Restores defaults: one H200-like device (sm_90, 132 SMs, 1024 threads,
/// 48 KiB / 232448 B opt-in shared, 65536 registers per block), functions
/// with 32 registers, 0 static shared, 0 local bytes, 48 KiB dynamic limit.
void resetFakeCuda();
/// Count of calls to `name` so far.
int fakeCalls(const std::string& name);
/// A table of the fake's entry points.
runtime::cuda::CudaDriverTable fakeCudaTable();
/// The fake's cuGetProcAddress (v2 signature): resolves the table's names
/// (unsuffixed) and records the requested versions.
int fakeCuGetProcAddress(const char* symbol, void** pfn, int cudaVersion, uint64_t flags,
                         int* symbolStatus);
/// Every (symbol, version) fakeCuGetProcAddress was asked for.
std::vector<std::pair<std::string, int>>& fakeProcAddressRequests();
/// If >= 0, cuModuleUnload writes one byte 'U' to this fd (for exit tests).
extern int gUnloadNotifyFd;

} // namespace kiln::fake

#endif // KILN_TEST_RUNTIME_FAKECUDA_H
