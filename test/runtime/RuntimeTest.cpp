// RuntimeTest.cpp: the lifecycle against the fake CUDA driver: states and
// timings, integrity and capability failures, driver errors, argument
// errors, refcounting and unloading, contexts, fork() and process exit,
// telemetry.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <future>
#include <thread>

#include "runtime/Runtime.h"
#include "runtime/cuda/CudaDriver.h"
#include "test/runtime/FakeCuda.h"
#include "test/runtime/TestArtifacts.h"

namespace kiln::runtime {
namespace {

using cuda::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR;
using cuda::CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK;
using cuda::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK;
using cuda::CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES;
using cuda::CU_FUNC_ATTRIBUTE_NUM_REGS;
using fake::fakeCalls;
using fake::fakeCuda;

const std::string kBinary = "fake cubin image";

std::shared_ptr<Runtime> makeRuntime() {
  Expected<std::unique_ptr<Driver>> driver = cuda::makeCudaDriver(fake::fakeCudaTable());
  EXPECT_TRUE(driver.ok());
  return Runtime::create(std::move(*driver));
}

std::vector<KernelArg> vaddArgs(uint64_t x = 0x1000, uint64_t y = 0x2000, uint64_t z = 0x3000,
                                int n = 1000) {
  return {KernelArg::devicePtr(x), KernelArg::devicePtr(y), KernelArg::devicePtr(z),
          KernelArg::i32(n)};
}

LaunchConfig grid(unsigned x, unsigned y = 1, unsigned z = 1) {
  LaunchConfig c;
  c.grid[0] = x, c.grid[1] = y, c.grid[2] = z;
  return c;
}

class RuntimeTest : public ::testing::Test {
protected:
  void SetUp() override {
    fake::resetFakeCuda();
    fakeCuda().paramCount = 4;
    rt = makeRuntime();
    dir = testing::writeArtifact("vadd", testing::vaddMetadata(), kBinary);
  }
  Kernel get(const std::string& d, int device = 0) {
    Expected<Kernel> k = rt->getKernel(d, device);
    EXPECT_TRUE(k.ok()) << k.status().toString();
    return k.ok() ? std::move(*k) : Kernel();
  }
  std::shared_ptr<Runtime> rt;
  std::string dir;
};

TEST_F(RuntimeTest, StatesAdvanceOneAtATimeAndAreTimed) {
  {
    std::lock_guard<std::mutex> lock(fakeCuda().mu);
    fakeCuda().funcAttrs[CU_FUNC_ATTRIBUTE_NUM_REGS] = 40;
    fakeCuda().funcAttrs[CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES] = 16;
  }
  Kernel k = get(dir);
  EXPECT_EQ(k.state(), KernelState::kCached);
  EXPECT_EQ(k.metadata(), nullptr);
  EXPECT_EQ(fakeCalls("cuInit"), 0); // Cached touches no driver

  ASSERT_TRUE(k.hydrate().ok());
  EXPECT_EQ(k.state(), KernelState::kHydrated);
  ASSERT_NE(k.metadata(), nullptr);
  EXPECT_EQ(k.metadata()->kernel, "vadd_kernel");
  EXPECT_EQ(fakeCalls("cuModuleLoadData"), 0); // hydration reads no binary
  EXPECT_EQ(fakeCalls("cuInit"), 0);
  EXPECT_EQ(k.functionAttributes().status().code(), StatusCode::kInvalidState);
  KernelTimings t = k.timings();
  EXPECT_GE(t.hydrateUs, 0);
  EXPECT_EQ(t.loadUs, -1);

  ASSERT_TRUE(k.load().ok());
  EXPECT_EQ(k.state(), KernelState::kLoaded);
  EXPECT_EQ(fakeCalls("cuInit"), 1);
  EXPECT_EQ(fakeCalls("cuModuleLoadData"), 1);
  ASSERT_EQ(fakeCuda().modules.size(), 1u);
  EXPECT_EQ(fakeCuda().modules[0]->image, kBinary);
  Expected<FunctionAttributes> attrs = k.functionAttributes();
  ASSERT_TRUE(attrs.ok());
  EXPECT_EQ(attrs->numRegs, 40);
  EXPECT_EQ(attrs->localBytes, 16);
  EXPECT_GE(k.timings().loadUs, 0);
  EXPECT_EQ(k.timings().checkUs, -1);

  ASSERT_TRUE(k.makeLaunchable().ok());
  EXPECT_EQ(k.state(), KernelState::kLaunchable);
  EXPECT_GE(k.timings().checkUs, 0);
  EXPECT_EQ(k.timings().firstLaunchUs, -1);

  std::vector<KernelArg> args = vaddArgs();
  ASSERT_TRUE(k.launch(grid(8, 2, 3), args.data(), args.size()).ok());
  ASSERT_EQ(fakeCuda().launches.size(), 1u);
  const fake::LaunchRecord& r = fakeCuda().launches[0];
  EXPECT_EQ(r.function, "vadd_kernel");
  EXPECT_EQ(r.grid[0], 8u);
  EXPECT_EQ(r.grid[1], 2u);
  EXPECT_EQ(r.grid[2], 3u);
  EXPECT_EQ(r.block[0], 128u); // 32 x num_warps 4
  EXPECT_EQ(r.block[1], 1u);
  EXPECT_EQ(r.sharedBytes, 0u);
  EXPECT_EQ(r.params, (std::vector<uint64_t>{0x1000, 0x2000, 0x3000, 1000}));
  t = k.timings();
  EXPECT_GE(t.firstLaunchUs, t.hydrateUs);
  EXPECT_GE(t.firstLaunchUs, t.loadUs);

  // Transitions happen once: asking again does nothing.
  ASSERT_TRUE(k.load().ok());
  ASSERT_TRUE(k.launch(grid(1), args.data(), args.size()).ok());
  EXPECT_EQ(fakeCalls("cuModuleLoadData"), 1);
  EXPECT_EQ(k.timings().firstLaunchUs, t.firstLaunchUs);
}

TEST_F(RuntimeTest, LaunchWalksAllStatesAndCounts) {
  ProcessCounters before = processCounters();
  Kernel k = get(dir);
  ASSERT_TRUE(k.launch(grid(1), vaddArgs().data(), 4).ok());
  EXPECT_EQ(k.state(), KernelState::kLaunchable);
  ProcessCounters after = processCounters();
  EXPECT_EQ(after.hydrations - before.hydrations, 1u);
  EXPECT_EQ(after.loads - before.loads, 1u);
  EXPECT_EQ(after.launches - before.launches, 1u);
  EXPECT_EQ(after.loadFailures - before.loadFailures, 0u);
}

TEST_F(RuntimeTest, ChecksumMismatchNeverLoads) {
  testing::writeFile(dir + "/vadd_kernel.cubin", "fake cubin imagE"); // same size
  ProcessCounters before = processCounters();
  Kernel k = get(dir);
  Status s = k.load();
  EXPECT_EQ(s.code(), StatusCode::kChecksumMismatch);
  EXPECT_NE(s.message().find("kernel 'vadd_kernel' (num_warps=4, num_stages=3) on device 0: "
                             "binary "),
            std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("but metadata.json says"), std::string::npos);
  EXPECT_NE(s.message().find("; not loaded"), std::string::npos);
  EXPECT_EQ(k.state(), KernelState::kHydrated);
  EXPECT_EQ(fakeCalls("cuModuleLoadData"), 0);
  EXPECT_EQ(k.lastError().code(), StatusCode::kChecksumMismatch);
  ProcessCounters after = processCounters();
  EXPECT_EQ(after.checksumFailures - before.checksumFailures, 1u);
  EXPECT_EQ(after.loadFailures - before.loadFailures, 1u);
  // A launch reports the same error and still loads nothing.
  EXPECT_EQ(k.launch(grid(1), vaddArgs().data(), 4).code(), StatusCode::kChecksumMismatch);
  EXPECT_EQ(fakeCalls("cuModuleLoadData"), 0);
  EXPECT_EQ(processCounters().launchFailures - before.launchFailures, 1u);
}

TEST_F(RuntimeTest, TruncatedBinaryNeverLoads) {
  testing::writeFile(dir + "/vadd_kernel.cubin", kBinary.substr(0, 5));
  Kernel k = get(dir);
  Status s = k.load();
  EXPECT_EQ(s.code(), StatusCode::kBinarySizeMismatch);
  EXPECT_NE(s.message().find("has 5 bytes but metadata.json says 16 (truncated); not loaded"),
            std::string::npos)
      << s.message();
  EXPECT_EQ(k.state(), KernelState::kHydrated);
  EXPECT_EQ(fakeCalls("cuModuleLoadData"), 0);
}

TEST_F(RuntimeTest, MissingBinaryOrDirectory) {
  unlink((dir + "/vadd_kernel.cubin").c_str());
  Kernel k = get(dir);
  Status s = k.load();
  EXPECT_EQ(s.code(), StatusCode::kNotFound);
  EXPECT_NE(s.message().find("cannot read binary " + dir + "/vadd_kernel.cubin"),
            std::string::npos);
  Expected<Kernel> none = rt->getKernel(dir + "/missing");
  EXPECT_EQ(none.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(none.status().message(),
            "kernel artifact directory '" + dir + "/missing' does not exist");
  EXPECT_EQ(rt->getKernel(dir, -1).status().code(), StatusCode::kInvalidArgument);
}

TEST_F(RuntimeTest, BadMetadataStaysCached) {
  testing::writeFile(dir + "/metadata.json", "{\"format\": \"kiln-kernel/1\"}");
  Kernel k = get(dir);
  Status s = k.hydrate();
  EXPECT_EQ(s.code(), StatusCode::kMetadataError);
  EXPECT_EQ(s.message(), "kernel artifact '" + dir + "' on device 0: " + dir +
                             "/metadata.json: missing field 'kernel'");
  EXPECT_EQ(k.state(), KernelState::kCached);
  EXPECT_EQ(k.launch(grid(1), nullptr, 0).code(), StatusCode::kMetadataError);
}

TEST_F(RuntimeTest, ArchMismatchThroughRuntime) {
  {
    std::lock_guard<std::mutex> lock(fakeCuda().mu);
    fakeCuda().deviceAttrs[CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR] = 8;
  }
  ProcessCounters before = processCounters();
  Kernel k = get(dir);
  Status s = k.makeLaunchable();
  EXPECT_EQ(s.code(), StatusCode::kArchMismatch);
  EXPECT_EQ(s.message(), "kernel 'vadd_kernel' (num_warps=4, num_stages=3) was compiled for "
                         "sm_90, which runs on compute capability 9.0 up to 9.x, but device 0 "
                         "has compute capability 8.0");
  EXPECT_EQ(k.state(), KernelState::kLoaded);
  EXPECT_EQ(k.launch(grid(1), vaddArgs().data(), 4).code(), StatusCode::kArchMismatch);
  EXPECT_EQ(fakeCalls("cuLaunchKernel"), 0);
  EXPECT_EQ(processCounters().capabilityFailures - before.capabilityFailures, 2u);
}

TEST_F(RuntimeTest, ThreadsAndRegistersThroughRuntime) {
  {
    std::lock_guard<std::mutex> lock(fakeCuda().mu);
    fakeCuda().deviceAttrs[CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK] = 64;
  }
  Kernel k = get(dir);
  EXPECT_EQ(k.makeLaunchable().code(), StatusCode::kThreadsExceeded);
  std::string d2 = testing::writeArtifact("regs", testing::vaddMetadata(), kBinary);
  {
    std::lock_guard<std::mutex> lock(fakeCuda().mu);
    fakeCuda().deviceAttrs[CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK] = 1024;
    fakeCuda().deviceAttrs[CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK] = 2048;
  }
  auto rt2 = makeRuntime(); // device limits are read once per runtime
  Kernel k2 = *rt2->getKernel(d2);
  Status s = k2.makeLaunchable();
  EXPECT_EQ(s.code(), StatusCode::kRegistersExceeded);
  EXPECT_NE(s.message().find("needs 32 registers per thread x 128 threads = 4096 registers per "
                             "block but device 0 has 2048"),
            std::string::npos)
      << s.message();
}

TEST_F(RuntimeTest, SharedMemoryOptInAndLimit) {
  KernelMetadata m = testing::vaddMetadata();
  m.sharedBytes = 100000;
  Kernel k = get(testing::writeArtifact("smem", m, kBinary));
  ASSERT_TRUE(k.launch(grid(1), vaddArgs().data(), 4).ok());
  EXPECT_EQ(fakeCuda().setMaxDynamicShared, 100000);
  EXPECT_EQ(fakeCuda().launches.back().sharedBytes, 100000u);

  m.sharedBytes = 300000;
  Kernel big = get(testing::writeArtifact("smem_big", m, kBinary));
  Status s = big.makeLaunchable();
  EXPECT_EQ(s.code(), StatusCode::kSharedMemoryExceeded);
  EXPECT_NE(s.message().find("needs 300000 bytes of shared memory per block (static 0 + dynamic "
                             "300000) but device 0 allows at most 232448"),
            std::string::npos);

  // Below 48 KiB no opt-in call is made.
  fake::resetFakeCuda();
  m.sharedBytes = 1024;
  Kernel small = *makeRuntime()->getKernel(testing::writeArtifact("smem_small", m, kBinary));
  ASSERT_TRUE(small.makeLaunchable().ok());
  EXPECT_EQ(fakeCalls("cuFuncSetAttribute"), 0);
}

TEST_F(RuntimeTest, DriverErrorsNameTheCall) {
  {
    std::lock_guard<std::mutex> lock(fakeCuda().mu);
    fakeCuda().failures["cuModuleLoadData"] = cuda::CUDA_ERROR_INVALID_IMAGE;
  }
  Kernel k = get(dir);
  Status s = k.load();
  EXPECT_EQ(s.code(), StatusCode::kDriverError);
  EXPECT_EQ(s.driverCall(), "cuModuleLoadData");
  EXPECT_EQ(s.driverResult(), 200);
  EXPECT_EQ(s.message(), "kernel 'vadd_kernel' (num_warps=4, num_stages=3) on device 0: "
                         "cuModuleLoadData failed: CUDA_ERROR_INVALID_IMAGE: device kernel image "
                         "is invalid (200)");
  EXPECT_EQ(k.state(), KernelState::kHydrated);
}

TEST_F(RuntimeTest, MissingFunctionUnloadsTheModule) {
  {
    std::lock_guard<std::mutex> lock(fakeCuda().mu);
    fakeCuda().missingFunctions.insert("vadd_kernel");
  }
  Kernel k = get(dir);
  Status s = k.load();
  EXPECT_EQ(s.driverCall(), "cuModuleGetFunction (function 'vadd_kernel')");
  EXPECT_EQ(s.driverResult(), 500);
  ASSERT_EQ(fakeCuda().modules.size(), 1u);
  EXPECT_TRUE(fakeCuda().modules[0]->unloaded);
}

TEST_F(RuntimeTest, InitFailureAndBadDevice) {
  {
    std::lock_guard<std::mutex> lock(fakeCuda().mu);
    fakeCuda().failures["cuInit"] = cuda::CUDA_ERROR_NO_DEVICE;
  }
  Kernel k = get(dir);
  Status s = k.load();
  EXPECT_EQ(s.driverCall(), "cuInit");
  EXPECT_NE(s.message().find("CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected (100)"),
            std::string::npos);
  fakeCuda().failures.clear();
  Kernel k3 = get(dir, 3);
  s = k3.load();
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("device 3 does not exist (cuda (fake, CUDA 12000 entry points) "
                             "reports 1 devices)"),
            std::string::npos)
      << s.message();
}

TEST_F(RuntimeTest, LaunchArgumentAndGridErrors) {
  Kernel k = get(dir);
  std::vector<KernelArg> args = vaddArgs();
  Status s = k.launch(grid(1), args.data(), 3);
  EXPECT_EQ(s.code(), StatusCode::kArgumentCount);
  EXPECT_EQ(s.message(), "kernel 'vadd_kernel' (num_warps=4, num_stages=3) on device 0: kernel "
                         "'vadd_kernel' takes 4 arguments (x_ptr: ptr<f32>, y_ptr: ptr<f32>, "
                         "z_ptr: ptr<f32>, n: i32), got 3");
  args[3] = KernelArg::i64(5);
  EXPECT_EQ(k.launch(grid(1), args.data(), 4).code(), StatusCode::kArgumentType);
  args[3] = KernelArg::i32(5);
  s = k.launch(grid(0), args.data(), 4);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("grid 0x1x1 has a zero dimension"), std::string::npos);
  EXPECT_EQ(fakeCalls("cuLaunchKernel"), 0);
  {
    std::lock_guard<std::mutex> lock(fakeCuda().mu);
    fakeCuda().failures["cuLaunchKernel"] = cuda::CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
  }
  s = k.launch(grid(1), args.data(), 4);
  EXPECT_EQ(s.code(), StatusCode::kDriverError);
  EXPECT_NE(s.message().find("cuLaunchKernel (grid 1x1x1, block 128, dynamic shared 0 bytes) "
                             "failed: CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"),
            std::string::npos)
      << s.message();
  EXPECT_EQ(k.timings().firstLaunchUs, -1); // no successful launch yet
}

TEST_F(RuntimeTest, TrailingNullPointers) {
  KernelMetadata m = testing::vaddMetadata();
  m.trailingNullPointers = 2;
  fakeCuda().paramCount = 6;
  Kernel k = get(testing::writeArtifact("triton_abi", m, kBinary));
  ASSERT_TRUE(k.launch(grid(1), vaddArgs(1, 2, 3, 4).data(), 4).ok());
  EXPECT_EQ(fakeCuda().launches.back().params, (std::vector<uint64_t>{1, 2, 3, 4, 0, 0}));
}

TEST_F(RuntimeTest, OneModulePerKernelAndDeviceRefcounted) {
  fakeCuda().deviceCount = 2;
  Kernel a = get(dir);
  Kernel b = get(dir + "/."); // same directory, another spelling
  EXPECT_EQ(a.handleCount(), 2);
  Kernel c = get(dir, 1);
  EXPECT_EQ(c.handleCount(), 1);
  EXPECT_EQ(rt->liveKernelCount(), 2u);
  ASSERT_TRUE(a.load().ok());
  EXPECT_EQ(b.state(), KernelState::kLoaded); // same entry
  ASSERT_TRUE(c.load().ok());
  EXPECT_EQ(fakeCalls("cuModuleLoadData"), 2);
  {
    Kernel copy = a;
    EXPECT_EQ(a.handleCount(), 3);
  }
  EXPECT_EQ(a.handleCount(), 2);
  a = Kernel();
  EXPECT_EQ(fakeCalls("cuModuleUnload"), 0);
  b = Kernel();
  EXPECT_EQ(fakeCalls("cuModuleUnload"), 1);
  EXPECT_TRUE(fakeCuda().modules[0]->unloaded);
  EXPECT_FALSE(fakeCuda().modules[1]->unloaded);
  EXPECT_EQ(rt->liveKernelCount(), 1u);
  // A new handle after the last one went starts over from Cached.
  Kernel again = get(dir);
  EXPECT_EQ(again.state(), KernelState::kCached);
  ASSERT_TRUE(again.load().ok());
  EXPECT_EQ(fakeCalls("cuModuleLoadData"), 3);
}

TEST_F(RuntimeTest, NeverUnloadsWhileLaunchIsEnqueued) {
  std::promise<void> entered, gate;
  std::shared_future<void> gateFuture = gate.get_future().share();
  fakeCuda().onLaunch = [&](const fake::LaunchRecord&) {
    entered.set_value();
    gateFuture.wait();
  };
  Kernel k = get(dir);
  ASSERT_TRUE(k.makeLaunchable().ok());
  Status launchStatus;
  std::vector<KernelArg> args = vaddArgs();
  std::thread launcher([&] { launchStatus = k.launch(grid(1), args.data(), args.size()); });
  entered.get_future().wait();
  k = Kernel(); // the last handle goes while cuLaunchKernel runs
  EXPECT_EQ(fakeCalls("cuModuleUnload"), 0);
  EXPECT_EQ(rt->liveKernelCount(), 0u);
  gate.set_value();
  launcher.join();
  EXPECT_TRUE(launchStatus.ok());
  EXPECT_EQ(fakeCalls("cuModuleUnload"), 1);
}

TEST_F(RuntimeTest, CallersContextRestored) {
  Kernel k = get(dir);
  ASSERT_TRUE(k.makeLaunchable().ok());
  char other;
  auto table = fake::fakeCudaTable();
  table.cuCtxSetCurrent(reinterpret_cast<cuda::CUcontext>(&other));
  ASSERT_TRUE(k.launch(grid(1), vaddArgs().data(), 4).ok());
  cuda::CUcontext now;
  table.cuCtxGetCurrent(&now);
  EXPECT_EQ(reinterpret_cast<void*>(now), &other);
  EXPECT_NE(fakeCuda().launches.back().context, &other); // launched in the primary context
  EXPECT_NE(fakeCuda().launches.back().context, nullptr);
}

TEST_F(RuntimeTest, PrimaryContextReleasedWithRuntime) {
  {
    Kernel k = get(dir);
    ASSERT_TRUE(k.load().ok());
  }
  EXPECT_EQ(fakeCuda().primaryRetains, 1);
  EXPECT_EQ(fakeCuda().primaryReleases, 0);
  rt.reset();
  EXPECT_EQ(fakeCuda().primaryReleases, 1);
}

TEST_F(RuntimeTest, ForkChildReloadsAndNeverUnloadsParentModules) {
  Kernel k = get(dir);
  ASSERT_TRUE(k.launch(grid(1), vaddArgs().data(), 4).ok());
  ASSERT_EQ(fakeCuda().modules.size(), 1u);
  fake::FakeModule* parentModule = fakeCuda().modules[0];

  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    // The child: exit codes say which check failed.
    if (k.state() != KernelState::kHydrated)
      _exit(10);
    ProcessCounters before = processCounters();
    if (!k.launch(grid(1), vaddArgs().data(), 4).ok())
      _exit(11);
    if (fakeCuda().modules.size() != 2 || fakeCuda().modules[1]->loadPid != getpid())
      _exit(12);
    if (fakeCalls("cuInit") != 2 || fakeCuda().primaryRetains != 2)
      _exit(13);
    if (processCounters().forkReloads - before.forkReloads != 1)
      _exit(14);
    k = Kernel();
    rt.reset();
    if (parentModule->unloaded || !fakeCuda().modules[1]->unloaded)
      _exit(15);
    if (fakeCalls("cuModuleUnload") != 1 || fakeCuda().primaryReleases != 1)
      _exit(16);
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  // The parent is untouched.
  EXPECT_EQ(k.state(), KernelState::kLaunchable);
  EXPECT_FALSE(parentModule->unloaded);
  EXPECT_EQ(fakeCalls("cuModuleLoadData"), 1);
  ASSERT_TRUE(k.launch(grid(1), vaddArgs().data(), 4).ok());
}

// Constructed before main(): destroyed after the runtime's atexit handler.
Kernel gKernelAtExit;

TEST_F(RuntimeTest, NoDriverCallsAtProcessExit) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    close(fds[0]);
    fake::gUnloadNotifyFd = fds[1];
    gKernelAtExit = get(dir);
    if (!gKernelAtExit.load().ok())
      _exit(20);
    rt.reset(); // the kernel keeps the runtime alive
    std::exit(0); // runs atexit handlers and static destructors
  }
  close(fds[1]);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  char buf[8];
  ssize_t n = read(fds[0], buf, sizeof buf);
  close(fds[0]);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(n, 0) << "cuModuleUnload was called during exit";
}

TEST_F(RuntimeTest, ListenerAndTelemetryJson) {
  std::vector<std::string> events;
  std::vector<int64_t> durations;
  rt->setListener([&](const Event& e) {
    events.push_back(eventKindName(e.kind));
    durations.push_back(e.durationUs);
    EXPECT_EQ(e.artifactDir, dir);
  });
  Kernel k = get(dir);
  ASSERT_TRUE(k.launch(grid(1), vaddArgs().data(), 4).ok());
  ASSERT_TRUE(k.launch(grid(1), vaddArgs().data(), 4).ok());
  EXPECT_EQ(events, (std::vector<std::string>{"hydrated", "loaded", "launchable", "first_launch"}));
  EXPECT_EQ(durations.back(), k.timings().firstLaunchUs);

  nlohmann::json doc = nlohmann::json::parse(rt->telemetryJson());
  EXPECT_GE(doc["counters"]["launches"].get<int64_t>(), 2);
  ASSERT_EQ(doc["kernels"].size(), 1u);
  const auto& kj = doc["kernels"][0];
  EXPECT_EQ(kj["kernel"], "vadd_kernel");
  EXPECT_EQ(kj["state"], "launchable");
  EXPECT_EQ(kj["device"], 0);
  EXPECT_EQ(kj["handles"], 1);
  EXPECT_EQ(kj["num_regs"], 32);
  EXPECT_EQ(kj["timings_us"]["first_launch"].get<int64_t>(), k.timings().firstLaunchUs);
  EXPECT_EQ(kj["timings_us"]["hydrate"].get<int64_t>(), k.timings().hydrateUs);
  // Creation-to-first-launch aggregated per architecture.
  const auto& arch = doc["first_launch_by_arch"]["cuda/sm_90"];
  EXPECT_EQ(arch["kernels"], 1);
  EXPECT_EQ(arch["min_us"].get<int64_t>(), k.timings().firstLaunchUs);
  EXPECT_EQ(arch["median_us"].get<int64_t>(), k.timings().firstLaunchUs);
  EXPECT_EQ(arch["max_us"].get<int64_t>(), k.timings().firstLaunchUs);

  k = Kernel();
  EXPECT_EQ(events.back(), "unloaded");
  EXPECT_EQ(nlohmann::json::parse(rt->telemetryJson())["kernels"].size(), 0u);
}

TEST_F(RuntimeTest, FailureEventsCarryTheError) {
  std::vector<Event> events;
  rt->setListener([&](const Event& e) { events.push_back(e); });
  testing::writeFile(dir + "/vadd_kernel.cubin", "x");
  Kernel k = get(dir);
  EXPECT_FALSE(k.load().ok());
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[1].kind, EventKind::kLoadFailed);
  EXPECT_EQ(events[1].status.code(), StatusCode::kBinarySizeMismatch);
  EXPECT_EQ(events[1].kernel, "vadd_kernel");
}

} // namespace
} // namespace kiln::runtime
