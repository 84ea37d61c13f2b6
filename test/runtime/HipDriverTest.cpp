// HipDriverTest.cpp: the HIP driver behind the runtime, against a fake HIP
// table: attributes, module calls, launch with hipModuleLaunchKernel, arch
// checks for gfx targets, error names.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "runtime/Runtime.h"
#include "runtime/hip/HipDriver.h"
#include "test/runtime/TestArtifacts.h"

namespace kiln::runtime {
namespace {

using namespace hip;

struct FakeHip {
  int ccMinor = 4; // gfx942
  int current = 0;
  int loads = 0, unloads = 0, launches = 0, setDevice = 0;
  unsigned block = 0, shared = 0;
  std::vector<uint64_t> params;
  hipError_t loadResult = hipSuccess;
} gHip;

struct HipFunc {
  std::string name;
};

hipError_t hInit(unsigned) { return hipSuccess; }
hipError_t hCount(int* n) {
  *n = 1;
  return hipSuccess;
}
hipError_t hAttr(int* v, int attr, int) {
  switch (attr) {
  case hipDeviceAttributeComputeCapabilityMajor: *v = 9; break;
  case hipDeviceAttributeComputeCapabilityMinor: *v = gHip.ccMinor; break;
  case hipDeviceAttributeWarpSize: *v = 64; break;
  case hipDeviceAttributeMaxThreadsPerBlock: *v = 1024; break;
  case hipDeviceAttributeMaxSharedMemoryPerBlock: *v = 65536; break;
  case hipDeviceAttributeSharedMemPerBlockOptin: *v = 0; break; // AMD: no opt-in
  case hipDeviceAttributeMaxRegistersPerBlock: *v = 65536; break;
  case hipDeviceAttributeMultiprocessorCount: *v = 304; break;
  default: return hipErrorInvalidValue;
  }
  return hipSuccess;
}
hipError_t hGetDevice(int* d) {
  *d = gHip.current;
  return hipSuccess;
}
hipError_t hSetDevice(int d) {
  gHip.current = d;
  gHip.setDevice++;
  return hipSuccess;
}
hipError_t hLoad(hipModule_t* m, const void*) {
  if (gHip.loadResult != hipSuccess)
    return gHip.loadResult;
  gHip.loads++;
  *m = reinterpret_cast<hipModule_t>(new int(1));
  return hipSuccess;
}
hipError_t hUnload(hipModule_t) {
  gHip.unloads++;
  return hipSuccess;
}
hipError_t hGetFunction(hipFunction_t* f, hipModule_t, const char* name) {
  *f = reinterpret_cast<hipFunction_t>(new HipFunc{name});
  return hipSuccess;
}
hipError_t hFuncAttr(int* v, int attr, hipFunction_t) {
  *v = attr == HIP_FUNC_ATTRIBUTE_NUM_REGS ? 64 : attr == HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK ? 1024 : 0;
  return hipSuccess;
}
hipError_t hLaunch(hipFunction_t, unsigned, unsigned, unsigned, unsigned bx, unsigned, unsigned,
                   unsigned shared, hipStream_t, void** params, void**) {
  gHip.launches++;
  gHip.block = bx;
  gHip.shared = shared;
  gHip.params.clear();
  for (int i = 0; i < 4; ++i) {
    uint64_t v;
    std::memcpy(&v, params[i], 8);
    gHip.params.push_back(v);
  }
  return hipSuccess;
}
hipError_t hSync(hipStream_t) { return hipSuccess; }
hipError_t hMalloc(void** p, size_t n) {
  *p = std::malloc(n);
  return hipSuccess;
}
hipError_t hFree(void* p) {
  std::free(p);
  return hipSuccess;
}
hipError_t hHtoD(void* d, void* s, size_t n) {
  std::memcpy(d, s, n);
  return hipSuccess;
}
hipError_t hDtoH(void* d, void* s, size_t n) {
  std::memcpy(d, s, n);
  return hipSuccess;
}
const char* hErrName(hipError_t e) {
  return e == hipErrorNoBinaryForGpu ? "hipErrorNoBinaryForGpu" : "hipErrorUnknown";
}
const char* hErrString(hipError_t) { return "no kernel image is available"; }

HipDriverTable fakeHipTable() {
  HipDriverTable t;
  t.hipGetErrorName = hErrName;
  t.hipGetErrorString = hErrString;
  t.hipInit = hInit;
  t.hipGetDeviceCount = hCount;
  t.hipDeviceGetAttribute = hAttr;
  t.hipGetDevice = hGetDevice;
  t.hipSetDevice = hSetDevice;
  t.hipModuleLoadData = hLoad;
  t.hipModuleUnload = hUnload;
  t.hipModuleGetFunction = hGetFunction;
  t.hipFuncGetAttribute = hFuncAttr;
  t.hipModuleLaunchKernel = hLaunch;
  t.hipStreamSynchronize = hSync;
  t.hipMalloc = hMalloc;
  t.hipFree = hFree;
  t.hipMemcpyHtoD = hHtoD;
  t.hipMemcpyDtoH = hDtoH;
  return t;
}

KernelMetadata hipVadd(const char* arch) {
  KernelMetadata m = testing::vaddMetadata();
  m.target.backend = Backend::kHip;
  EXPECT_TRUE(parseArch(Backend::kHip, arch, &m.target).ok());
  m.target.warpSize = 64;
  m.binary.file = "vadd_kernel.hsaco";
  return m;
}

class HipTest : public ::testing::Test {
protected:
  void SetUp() override {
    gHip = FakeHip();
    rt = Runtime::create(std::move(*makeHipDriver(fakeHipTable())));
  }
  std::shared_ptr<Runtime> rt;
};

TEST_F(HipTest, DeviceInfoFromAttributes) {
  Expected<DeviceInfo> d = rt->deviceInfo(0);
  ASSERT_TRUE(d.ok()) << d.status().toString();
  EXPECT_EQ(d->backend, Backend::kHip);
  EXPECT_EQ(d->ccMajor, 9);
  EXPECT_EQ(d->ccMinor, 4);
  EXPECT_EQ(d->warpSize, 64);
  EXPECT_EQ(d->multiprocessorCount, 304);
  // No opt-in on AMD: the per-block limit is the whole LDS.
  EXPECT_EQ(d->maxSharedPerBlockOptin, 65536);
  EXPECT_EQ(d->archName(), "gfx9.4");
}

TEST_F(HipTest, LoadsAndLaunchesGfx942) {
  KernelMetadata m = hipVadd("gfx942");
  m.sharedBytes = 60000;
  Kernel k = *rt->getKernel(testing::writeArtifact("hip_vadd", m, "hsaco"));
  KernelArg args[] = {KernelArg::devicePtr(7), KernelArg::devicePtr(8), KernelArg::devicePtr(9),
                      KernelArg::i32(10)};
  Status s = k.launch(LaunchConfig(), args, 4);
  ASSERT_TRUE(s.ok()) << s.toString();
  EXPECT_EQ(k.state(), KernelState::kLaunchable);
  EXPECT_EQ(gHip.loads, 1);
  EXPECT_EQ(gHip.launches, 1);
  EXPECT_EQ(gHip.block, 256u); // 64 x 4 warps
  EXPECT_EQ(gHip.shared, 60000u);
  EXPECT_EQ(gHip.params, (std::vector<uint64_t>{7, 8, 9, 10}));
  EXPECT_EQ(k.functionAttributes()->numRegs, 64);
  k = Kernel();
  EXPECT_EQ(gHip.unloads, 1);
}

TEST_F(HipTest, Gfx90aKernelOnGfx942Rejected) {
  Kernel k = *rt->getKernel(testing::writeArtifact("hip_90a", hipVadd("gfx90a"), "hsaco"));
  Status s = k.makeLaunchable();
  EXPECT_EQ(s.code(), StatusCode::kArchMismatch);
  EXPECT_NE(s.message().find("compiled for gfx90a (gfx version 9.0) but device 0 reports gfx "
                             "version 9.4"),
            std::string::npos)
      << s.message();
}

TEST_F(HipTest, DriverErrorNamesHipCall) {
  gHip.loadResult = hipErrorNoBinaryForGpu;
  Kernel k = *rt->getKernel(testing::writeArtifact("hip_err", hipVadd("gfx942"), "hsaco"));
  Status s = k.load();
  EXPECT_EQ(s.code(), StatusCode::kDriverError);
  EXPECT_EQ(s.driverCall(), "hipModuleLoadData");
  EXPECT_EQ(s.driverResult(), 209);
  EXPECT_NE(s.message().find("hipModuleLoadData failed: hipErrorNoBinaryForGpu: no kernel image "
                             "is available (209)"),
            std::string::npos);
}

TEST_F(HipTest, CudaKernelOnHipDeviceRejected) {
  Kernel k = *rt->getKernel(testing::writeArtifact("cuda_on_hip", testing::vaddMetadata(), "x"));
  Status s = k.makeLaunchable();
  EXPECT_EQ(s.code(), StatusCode::kArchMismatch);
  EXPECT_NE(s.message().find("was compiled for cuda (sm_90) but device 0 is a hip device"),
            std::string::npos);
}

TEST_F(HipTest, MemoryHelpers) {
  Expected<DevicePtr> p = rt->driver().memAlloc(16);
  ASSERT_TRUE(p.ok());
  int in[4] = {1, 2, 3, 4}, out[4] = {};
  ASSERT_TRUE(rt->driver().memcpyHtoD(*p, in, 16).ok());
  ASSERT_TRUE(rt->driver().memcpyDtoH(out, *p, 16).ok());
  EXPECT_EQ(out[3], 4);
  EXPECT_TRUE(rt->driver().memFree(*p).ok());
}

} // namespace
} // namespace kiln::runtime
