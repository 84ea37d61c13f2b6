// FakeLibCuda.cpp: a shared library standing in for libcuda.so.1, exporting
// only cuGetProcAddress_v2 (as the real driver does for CUDA >= 12), so the
// loader's dlopen + cuGetProcAddress path runs in CI. fake_requested_version
// reports the version the loader asked for.
#include <cstdint>

#include "test/runtime/FakeCuda.h"

extern "C" __attribute__((visibility("default"))) int
cuGetProcAddress_v2(const char* symbol, void** pfn, int cudaVersion, uint64_t flags,
                    int* symbolStatus) {
  return kiln::fake::fakeCuGetProcAddress(symbol, pfn, cudaVersion, flags, symbolStatus);
}

/// How many entry points were requested, and whether all asked for `version`
/// with unsuffixed names (1) or not (0).
extern "C" __attribute__((visibility("default"))) int fake_requests(int version,
                                                                    int* allMatch) {
  auto& reqs = kiln::fake::fakeProcAddressRequests();
  *allMatch = 1;
  for (auto& [name, v] : reqs)
    if (v != version || name.find("_v") != std::string::npos)
      *allMatch = 0;
  return static_cast<int>(reqs.size());
}
