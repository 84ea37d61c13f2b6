// CapabilitiesTest.cpp: each capability error, with the kernel, its options,
// the need and the device limit in the message.
#include <gtest/gtest.h>

#include "runtime/Capabilities.h"
#include "test/runtime/TestArtifacts.h"

namespace kiln::runtime {
namespace {

DeviceInfo h200() {
  DeviceInfo d;
  d.ordinal = 0;
  d.backend = Backend::kCuda;
  d.ccMajor = 9;
  d.ccMinor = 0;
  d.warpSize = 32;
  d.maxThreadsPerBlock = 1024;
  d.maxSharedPerBlock = 49152;
  d.maxSharedPerBlockOptin = 232448;
  d.maxRegistersPerBlock = 65536;
  d.multiprocessorCount = 132;
  return d;
}

FunctionAttributes fn(int regs = 32) {
  FunctionAttributes f;
  f.numRegs = regs;
  f.maxThreadsPerBlock = 1024;
  f.maxDynamicSharedBytes = 49152;
  return f;
}

TEST(Capabilities, PassesAndPlans) {
  KernelMetadata m = testing::vaddMetadata();
  LaunchPlan plan;
  ASSERT_TRUE(checkCapabilities(m, h200(), fn(), &plan).ok());
  EXPECT_EQ(plan.blockThreads, 128u);
  EXPECT_EQ(plan.dynamicSharedBytes, 0u);
  EXPECT_FALSE(plan.needsSharedOptIn);
  m.sharedBytes = 100000; // above 48 KiB: needs the opt-in attribute
  ASSERT_TRUE(checkCapabilities(m, h200(), fn(), &plan).ok());
  EXPECT_TRUE(plan.needsSharedOptIn);
  EXPECT_EQ(plan.dynamicSharedBytes, 100000u);
}

TEST(Capabilities, ArchOlderDevice) {
  KernelMetadata m = testing::vaddMetadata();
  DeviceInfo d = h200();
  d.ccMajor = 8;
  LaunchPlan plan;
  Status s = checkCapabilities(m, d, fn(), &plan);
  EXPECT_EQ(s.code(), StatusCode::kArchMismatch);
  EXPECT_EQ(s.message(), "kernel 'vadd_kernel' (num_warps=4, num_stages=3) was compiled for "
                         "sm_90, which runs on compute capability 9.0 up to 9.x, but device 0 "
                         "has compute capability 8.0");
}

TEST(Capabilities, ArchRules) {
  KernelMetadata m = testing::vaddMetadata();
  LaunchPlan plan;
  DeviceInfo d = h200();
  // sm_86 runs on 8.9 but not on 8.0 or 9.0.
  ASSERT_TRUE(parseArch(Backend::kCuda, "sm_86", &m.target).ok());
  d.ccMajor = 8, d.ccMinor = 9;
  EXPECT_TRUE(checkCapabilities(m, d, fn(), &plan).ok());
  d.ccMinor = 0;
  EXPECT_EQ(checkCapabilities(m, d, fn(), &plan).code(), StatusCode::kArchMismatch);
  d.ccMajor = 9;
  EXPECT_EQ(checkCapabilities(m, d, fn(), &plan).code(), StatusCode::kArchMismatch);
  // sm_90a runs only on exactly 9.0.
  ASSERT_TRUE(parseArch(Backend::kCuda, "sm_90a", &m.target).ok());
  d.ccMinor = 0;
  EXPECT_TRUE(checkCapabilities(m, d, fn(), &plan).ok());
  d.ccMajor = 10;
  Status s = checkCapabilities(m, d, fn(), &plan);
  EXPECT_EQ(s.message(), "kernel 'vadd_kernel' (num_warps=4, num_stages=3) was compiled for "
                         "sm_90a, which runs only on compute capability 9.0, but device 0 has "
                         "compute capability 10.0");
}

TEST(Capabilities, BackendMismatch) {
  KernelMetadata m = testing::vaddMetadata();
  m.target.backend = Backend::kHip;
  ASSERT_TRUE(parseArch(Backend::kHip, "gfx942", &m.target).ok());
  LaunchPlan plan;
  Status s = checkCapabilities(m, h200(), fn(), &plan);
  EXPECT_EQ(s.code(), StatusCode::kArchMismatch);
  EXPECT_EQ(s.message(), "kernel 'vadd_kernel' (num_warps=4, num_stages=3) was compiled for hip "
                         "(gfx942) but device 0 is a cuda device");
}

TEST(Capabilities, ThreadsPerBlock) {
  KernelMetadata m = testing::vaddMetadata();
  m.numWarps = 64;
  LaunchPlan plan;
  Status s = checkCapabilities(m, h200(), fn(1), &plan);
  EXPECT_EQ(s.code(), StatusCode::kThreadsExceeded);
  EXPECT_EQ(s.message(), "kernel 'vadd_kernel' (num_warps=64, num_stages=3) needs 2048 threads "
                         "per block (32 x 64 warps) but device 0 allows at most 1024 "
                         "(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK)");
}

TEST(Capabilities, Registers) {
  KernelMetadata m = testing::vaddMetadata();
  m.numWarps = 32; // 1024 threads
  LaunchPlan plan;
  Status s = checkCapabilities(m, h200(), fn(255), &plan);
  EXPECT_EQ(s.code(), StatusCode::kRegistersExceeded);
  EXPECT_EQ(s.message(), "kernel 'vadd_kernel' (num_warps=32, num_stages=3) needs 255 registers "
                         "per thread x 1024 threads = 261120 registers per block but device 0 "
                         "has 65536 (CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK)");
  // Within the register file but above the function's register-limited size.
  m.numWarps = 16;
  FunctionAttributes f = fn(64);
  f.maxThreadsPerBlock = 384;
  s = checkCapabilities(m, h200(), f, &plan);
  EXPECT_EQ(s.code(), StatusCode::kRegistersExceeded);
  EXPECT_EQ(s.message(), "kernel 'vadd_kernel' (num_warps=16, num_stages=3) needs 512 threads "
                         "per block but its 64 registers per thread limit a block on device 0 "
                         "to 384 threads (CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK)");
}

TEST(Capabilities, SharedMemory) {
  KernelMetadata m = testing::vaddMetadata();
  m.numWarps = 8;
  m.sharedBytes = 262144;
  LaunchPlan plan;
  FunctionAttributes f = fn();
  f.staticSharedBytes = 16;
  Status s = checkCapabilities(m, h200(), f, &plan);
  EXPECT_EQ(s.code(), StatusCode::kSharedMemoryExceeded);
  EXPECT_EQ(s.message(), "kernel 'vadd_kernel' (num_warps=8, num_stages=3) needs 262160 bytes "
                         "of shared memory per block (static 16 + dynamic 262144) but device 0 "
                         "allows at most 232448 (CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)");
  m.sharedBytes = 232448 - 16;
  EXPECT_TRUE(checkCapabilities(m, h200(), f, &plan).ok());
}

TEST(Capabilities, HipRules) {
  KernelMetadata m = testing::vaddMetadata();
  m.target.backend = Backend::kHip;
  ASSERT_TRUE(parseArch(Backend::kHip, "gfx942", &m.target).ok());
  m.target.warpSize = 64;
  DeviceInfo d = h200();
  d.backend = Backend::kHip;
  d.ccMajor = 9, d.ccMinor = 4, d.warpSize = 64;
  d.maxSharedPerBlockOptin = 65536;
  LaunchPlan plan;
  ASSERT_TRUE(checkCapabilities(m, d, fn(), &plan).ok());
  EXPECT_EQ(plan.blockThreads, 256u);
  d.ccMinor = 0; // gfx90a
  Status s = checkCapabilities(m, d, fn(), &plan);
  EXPECT_EQ(s.code(), StatusCode::kArchMismatch);
  EXPECT_EQ(s.message(), "kernel 'vadd_kernel' (num_warps=4, num_stages=3) was compiled for "
                         "gfx942 (gfx version 9.4) but device 0 reports gfx version 9.0 "
                         "(hipDeviceAttributeComputeCapabilityMajor/Minor)");
  d.ccMinor = 4, d.warpSize = 32;
  s = checkCapabilities(m, d, fn(), &plan);
  EXPECT_EQ(s.message(), "kernel 'vadd_kernel' (num_warps=4, num_stages=3) was compiled for "
                         "warp size 64 but device 0 has warp size 32");
}

} // namespace
} // namespace kiln::runtime
