// FakeCuda.cpp: the fake CUDA driver (see FakeCuda.h).
#include "test/runtime/FakeCuda.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace kiln::fake {

using namespace runtime::cuda;

int gUnloadNotifyFd = -1;

namespace {

struct FakeFunction {
  std::string name;
  FakeModule* module;
};

thread_local CUcontext tCurrent = nullptr;
// One primary context per device: its address encodes the ordinal.
char gContexts[8];

CUresult enter(const char* name) {
  FakeCudaState& s = fakeCuda();
  std::lock_guard<std::mutex> lock(s.mu);
  s.calls[name]++;
  auto it = s.failures.find(name);
  return it == s.failures.end() ? CUDA_SUCCESS : it->second;
}

#define FAKE_ENTER(name)                                                                           \
  if (CUresult r = enter(name))                                                                    \
    return r;

CUresult fGetErrorName(CUresult e, const char** out) {
  switch (e) {
  case CUDA_ERROR_INVALID_VALUE: *out = "CUDA_ERROR_INVALID_VALUE"; return 0;
  case CUDA_ERROR_OUT_OF_MEMORY: *out = "CUDA_ERROR_OUT_OF_MEMORY"; return 0;
  case CUDA_ERROR_NO_DEVICE: *out = "CUDA_ERROR_NO_DEVICE"; return 0;
  case CUDA_ERROR_INVALID_IMAGE: *out = "CUDA_ERROR_INVALID_IMAGE"; return 0;
  case CUDA_ERROR_NO_BINARY_FOR_GPU: *out = "CUDA_ERROR_NO_BINARY_FOR_GPU"; return 0;
  case CUDA_ERROR_NOT_FOUND: *out = "CUDA_ERROR_NOT_FOUND"; return 0;
  case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES: *out = "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"; return 0;
  default: *out = nullptr; return CUDA_ERROR_INVALID_VALUE;
  }
}
CUresult fGetErrorString(CUresult e, const char** out) {
  switch (e) {
  case CUDA_ERROR_INVALID_IMAGE: *out = "device kernel image is invalid"; return 0;
  case CUDA_ERROR_NOT_FOUND: *out = "named symbol not found"; return 0;
  case CUDA_ERROR_NO_DEVICE: *out = "no CUDA-capable device is detected"; return 0;
  case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES: *out = "too many resources requested for launch"; return 0;
  default: *out = "fake error"; return 0;
  }
}
CUresult fInit(unsigned) {
  FAKE_ENTER("cuInit");
  return 0;
}
CUresult fDriverGetVersion(int* v) {
  FAKE_ENTER("cuDriverGetVersion");
  *v = 13000;
  return 0;
}
CUresult fDeviceGetCount(int* n) {
  FAKE_ENTER("cuDeviceGetCount");
  *n = fakeCuda().deviceCount;
  return 0;
}
CUresult fDeviceGet(CUdevice* d, int ordinal) {
  FAKE_ENTER("cuDeviceGet");
  if (ordinal < 0 || ordinal >= fakeCuda().deviceCount)
    return CUDA_ERROR_INVALID_DEVICE;
  *d = ordinal;
  return 0;
}
CUresult fDeviceGetAttribute(int* v, int attr, CUdevice) {
  FAKE_ENTER("cuDeviceGetAttribute");
  FakeCudaState& s = fakeCuda();
  std::lock_guard<std::mutex> lock(s.mu);
  auto it = s.deviceAttrs.find(attr);
  if (it == s.deviceAttrs.end())
    return CUDA_ERROR_INVALID_VALUE;
  *v = it->second;
  return 0;
}
CUresult fPrimaryCtxRetain(CUcontext* c, CUdevice d) {
  FAKE_ENTER("cuDevicePrimaryCtxRetain");
  std::lock_guard<std::mutex> lock(fakeCuda().mu);
  fakeCuda().primaryRetains++;
  *c = reinterpret_cast<CUcontext>(&gContexts[d]);
  return 0;
}
CUresult fPrimaryCtxRelease(CUdevice) {
  FAKE_ENTER("cuDevicePrimaryCtxRelease");
  std::lock_guard<std::mutex> lock(fakeCuda().mu);
  fakeCuda().primaryReleases++;
  return 0;
}
CUresult fCtxGetCurrent(CUcontext* c) {
  FAKE_ENTER("cuCtxGetCurrent");
  *c = tCurrent;
  return 0;
}
CUresult fCtxSetCurrent(CUcontext c) {
  FAKE_ENTER("cuCtxSetCurrent");
  tCurrent = c;
  return 0;
}
CUresult fCtxGetDevice(CUdevice* d) {
  FAKE_ENTER("cuCtxGetDevice");
  if (!tCurrent)
    return CUDA_ERROR_INVALID_CONTEXT;
  *d = static_cast<int>(reinterpret_cast<char*>(tCurrent) - gContexts);
  return 0;
}
CUresult fModuleLoadData(CUmodule* m, const void* image) {
  FAKE_ENTER("cuModuleLoadData");
  if (!tCurrent)
    return CUDA_ERROR_INVALID_CONTEXT;
  FakeCudaState& s = fakeCuda();
  std::lock_guard<std::mutex> lock(s.mu);
  auto* mod = new FakeModule;
  mod->image = static_cast<const char*>(image);
  mod->loadPid = getpid();
  s.modules.push_back(mod);
  *m = reinterpret_cast<CUmodule>(mod);
  return 0;
}
CUresult fModuleUnload(CUmodule m) {
  if (gUnloadNotifyFd >= 0)
    (void)!write(gUnloadNotifyFd, "U", 1);
  FAKE_ENTER("cuModuleUnload");
  auto* mod = reinterpret_cast<FakeModule*>(m);
  if (mod->unloaded)
    return CUDA_ERROR_INVALID_HANDLE;
  mod->unloaded = true;
  return 0;
}
CUresult fModuleGetFunction(CUfunction* f, CUmodule m, const char* name) {
  FAKE_ENTER("cuModuleGetFunction");
  FakeCudaState& s = fakeCuda();
  std::lock_guard<std::mutex> lock(s.mu);
  if (s.missingFunctions.count(name))
    return CUDA_ERROR_NOT_FOUND;
  *f = reinterpret_cast<CUfunction>(new FakeFunction{name, reinterpret_cast<FakeModule*>(m)});
  return 0;
}
CUresult fFuncGetAttribute(int* v, int attr, CUfunction) {
  FAKE_ENTER("cuFuncGetAttribute");
  FakeCudaState& s = fakeCuda();
  std::lock_guard<std::mutex> lock(s.mu);
  auto it = s.funcAttrs.find(attr);
  *v = it == s.funcAttrs.end() ? 0 : it->second;
  return 0;
}
CUresult fFuncSetAttribute(CUfunction, int attr, int value) {
  FAKE_ENTER("cuFuncSetAttribute");
  FakeCudaState& s = fakeCuda();
  std::lock_guard<std::mutex> lock(s.mu);
  if (attr == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) {
    s.setMaxDynamicShared = value;
    s.funcAttrs[attr] = value;
  }
  return 0;
}
CUresult fLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                       unsigned by, unsigned bz, unsigned shared, CUstream stream, void** params,
                       void** extra) {
  FAKE_ENTER("cuLaunchKernel");
  if (!tCurrent)
    return CUDA_ERROR_INVALID_CONTEXT;
  FakeCudaState& s = fakeCuda();
  LaunchRecord rec;
  rec.function = reinterpret_cast<FakeFunction*>(f)->name;
  rec.grid[0] = gx, rec.grid[1] = gy, rec.grid[2] = gz;
  rec.block[0] = bx, rec.block[1] = by, rec.block[2] = bz;
  rec.sharedBytes = shared;
  rec.stream = stream;
  rec.context = tCurrent;
  std::function<void(const LaunchRecord&)> hook;
  {
    std::lock_guard<std::mutex> lock(s.mu);
    for (int i = 0; i < s.paramCount; ++i) {
      uint64_t v;
      std::memcpy(&v, params[i], 8);
      rec.params.push_back(v);
    }
    s.launches.push_back(rec);
    hook = s.onLaunch;
  }
  (void)extra;
  if (hook)
    hook(rec);
  return 0;
}
CUresult fStreamSynchronize(CUstream) {
  FAKE_ENTER("cuStreamSynchronize");
  return 0;
}
CUresult fMemAlloc(CUdeviceptr* p, size_t bytes) {
  FAKE_ENTER("cuMemAlloc");
  *p = reinterpret_cast<CUdeviceptr>(std::calloc(1, bytes ? bytes : 1));
  return 0;
}
CUresult fMemFree(CUdeviceptr p) {
  FAKE_ENTER("cuMemFree");
  std::free(reinterpret_cast<void*>(p));
  return 0;
}
CUresult fMemcpyHtoD(CUdeviceptr dst, const void* src, size_t n) {
  FAKE_ENTER("cuMemcpyHtoD");
  std::memcpy(reinterpret_cast<void*>(dst), src, n);
  return 0;
}
CUresult fMemcpyDtoH(void* dst, CUdeviceptr src, size_t n) {
  FAKE_ENTER("cuMemcpyDtoH");
  std::memcpy(dst, reinterpret_cast<const void*>(src), n);
  return 0;
}

} // namespace

FakeCudaState& fakeCuda() {
  static FakeCudaState* s = new FakeCudaState; // leaked: usable during exit
  return *s;
}

void resetFakeCuda() {
  FakeCudaState& s = fakeCuda();
  std::lock_guard<std::mutex> lock(s.mu);
  s.deviceCount = 1;
  s.deviceAttrs = {
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 9},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0},
      {CU_DEVICE_ATTRIBUTE_WARP_SIZE, 32},
      {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 1024},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, 49152},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, 232448},
      {CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, 65536},
      {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 132},
  };
  s.funcAttrs = {
      {CU_FUNC_ATTRIBUTE_NUM_REGS, 32},
      {CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 1024},
      {CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, 0},
      {CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, 0},
      {CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES, 0},
      {CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 49152},
      {CU_FUNC_ATTRIBUTE_BINARY_VERSION, 90},
  };
  s.failures.clear();
  s.missingFunctions.clear();
  s.paramCount = 0;
  s.onLaunch = nullptr;
  s.calls.clear();
  s.modules.clear();
  s.launches.clear();
  s.setMaxDynamicShared = -1;
  s.primaryRetains = 0;
  s.primaryReleases = 0;
  tCurrent = nullptr;
}

int fakeCalls(const std::string& name) {
  std::lock_guard<std::mutex> lock(fakeCuda().mu);
  auto it = fakeCuda().calls.find(name);
  return it == fakeCuda().calls.end() ? 0 : it->second;
}

CudaDriverTable fakeCudaTable() {
  CudaDriverTable t;
  t.cuGetErrorName = fGetErrorName;
  t.cuGetErrorString = fGetErrorString;
  t.cuInit = fInit;
  t.cuDriverGetVersion = fDriverGetVersion;
  t.cuDeviceGetCount = fDeviceGetCount;
  t.cuDeviceGet = fDeviceGet;
  t.cuDeviceGetAttribute = fDeviceGetAttribute;
  t.cuDevicePrimaryCtxRetain = fPrimaryCtxRetain;
  t.cuDevicePrimaryCtxRelease = fPrimaryCtxRelease;
  t.cuCtxGetCurrent = fCtxGetCurrent;
  t.cuCtxSetCurrent = fCtxSetCurrent;
  t.cuCtxGetDevice = fCtxGetDevice;
  t.cuModuleLoadData = fModuleLoadData;
  t.cuModuleUnload = fModuleUnload;
  t.cuModuleGetFunction = fModuleGetFunction;
  t.cuFuncGetAttribute = fFuncGetAttribute;
  t.cuFuncSetAttribute = fFuncSetAttribute;
  t.cuLaunchKernel = fLaunchKernel;
  t.cuStreamSynchronize = fStreamSynchronize;
  t.cuMemAlloc = fMemAlloc;
  t.cuMemFree = fMemFree;
  t.cuMemcpyHtoD = fMemcpyHtoD;
  t.cuMemcpyDtoH = fMemcpyDtoH;
  t.library = "fake";
  return t;
}

std::vector<std::pair<std::string, int>>& fakeProcAddressRequests() {
  static auto* v = new std::vector<std::pair<std::string, int>>;
  return *v;
}

int fakeCuGetProcAddress(const char* symbol, void** pfn, int cudaVersion, uint64_t flags,
                         int* symbolStatus) {
  (void)flags;
  fakeProcAddressRequests().emplace_back(symbol, cudaVersion);
  CudaDriverTable t = fakeCudaTable();
  struct {
    const char* name;
    void* fn;
  } entries[] = {
#define E(n) {#n, reinterpret_cast<void*>(t.n)},
      E(cuGetErrorName) E(cuGetErrorString) E(cuInit) E(cuDriverGetVersion) E(cuDeviceGetCount)
      E(cuDeviceGet) E(cuDeviceGetAttribute) E(cuDevicePrimaryCtxRetain)
      E(cuDevicePrimaryCtxRelease) E(cuCtxGetCurrent) E(cuCtxSetCurrent) E(cuCtxGetDevice)
      E(cuModuleLoadData) E(cuModuleUnload) E(cuModuleGetFunction) E(cuFuncGetAttribute)
      E(cuFuncSetAttribute) E(cuLaunchKernel) E(cuStreamSynchronize) E(cuMemAlloc) E(cuMemFree)
      E(cuMemcpyHtoD) E(cuMemcpyDtoH)
#undef E
  };
  for (auto& e : entries) {
    if (std::strcmp(e.name, symbol) == 0) {
      *pfn = e.fn;
      if (symbolStatus)
        *symbolStatus = CU_GET_PROC_ADDRESS_SUCCESS;
      return CUDA_SUCCESS;
    }
  }
  *pfn = nullptr;
  if (symbolStatus)
    *symbolStatus = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  return CUDA_ERROR_NOT_FOUND;
}

} // namespace kiln::fake
