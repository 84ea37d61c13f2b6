// GpuRuntimeTest.cpp: the runtime against the real CUDA driver: load the
// cubin nvcc built from vadd.cu, launch, check results, argument packing on
// the device, capability errors with the device's real limits, fork().
//
// Skips (not passes) with a message where libcuda.so.1, a CUDA device or the
// cubin is missing. Runs under Bazel (//test/runtime:gpu_runtime_test) or
// from the self-contained bundle test/runtime/build_gpu_test.sh makes.
//
//   gpu_runtime_test [gtest flags]        run the tests
//   gpu_runtime_test --write-artifacts D  write the artifact directories for
//                                         the cubin into D and exit
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include "runtime/Runtime.h"
#include "runtime/Sha256.h"
#include "runtime/cuda/CudaDriver.h"

namespace kiln::runtime {
namespace {

std::string gExeDir;

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return in ? s.str() : std::string();
}

/// The cubin: $KILN_GPU_CUBIN, beside the executable, or in Bazel's runfiles.
std::string findCubin() {
  if (const char* env = std::getenv("KILN_GPU_CUBIN"))
    return env;
  for (std::string p : {gExeDir + "/vadd.cubin", std::string("test/runtime/vadd.cubin")}) {
    struct stat st;
    if (stat(p.c_str(), &st) == 0 && st.st_size > 0)
      return p;
  }
  return "";
}

KernelMetadata metadataFor(const std::string& kernel, const std::vector<std::pair<const char*, const char*>>& sig,
                           const std::string& cubin) {
  KernelMetadata m;
  m.kernel = kernel;
  (void)parseArch(Backend::kCuda, "sm_90", &m.target);
  m.numWarps = 4;
  m.numStages = 3;
  for (auto& [n, t] : sig)
    m.signature.push_back({n, *parseArgType(t)});
  m.binary.file = "kernels.cubin";
  m.binary.size = cubin.size();
  m.binary.sha256 = *sha256Hex(cubin.data(), cubin.size());
  return m;
}

std::string writeArtifact(const std::string& root, const std::string& name, const KernelMetadata& m,
                          const std::string& cubin) {
  std::string dir = root + "/" + name;
  mkdir(root.c_str(), 0755);
  mkdir(dir.c_str(), 0755);
  std::ofstream(dir + "/kernels.cubin", std::ios::binary) << cubin;
  std::ofstream(dir + "/metadata.json") << kernelMetadataToJson(m);
  return dir;
}

const std::vector<std::pair<const char*, const char*>> kVaddSig = {
    {"x_ptr", "ptr<f32>"}, {"y_ptr", "ptr<f32>"}, {"z_ptr", "ptr<f32>"}, {"n", "i32"}};
const std::vector<std::pair<const char*, const char*>> kScalarsSig = {
    {"out", "ptr<i64>"}, {"b", "i1"},     {"i8", "i8"},     {"i16", "i16"}, {"i32", "i32"},
    {"i64", "i64"},      {"f16", "f16"}, {"bf16", "bf16"}, {"f32", "f32"}, {"f64", "f64"}};

/// Writes vadd_kernel, vadd_triton (2 trailing null pointers), scalars_kernel
/// and vadd_smem_100k (100000 B dynamic shared) artifacts for `cubin`.
void writeAllArtifacts(const std::string& root, const std::string& cubin) {
  writeArtifact(root, "vadd_kernel", metadataFor("vadd_kernel", kVaddSig, cubin), cubin);
  KernelMetadata t = metadataFor("vadd_triton", kVaddSig, cubin);
  t.trailingNullPointers = 2;
  writeArtifact(root, "vadd_triton", t, cubin);
  writeArtifact(root, "scalars_kernel", metadataFor("scalars_kernel", kScalarsSig, cubin), cubin);
  KernelMetadata s = metadataFor("vadd_kernel", kVaddSig, cubin);
  s.sharedBytes = 100000;
  writeArtifact(root, "vadd_smem_100k", s, cubin);
  s.sharedBytes = 262144;
  s.numWarps = 8;
  writeArtifact(root, "vadd_smem_256k", s, cubin);
}

class GpuTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string cubinPath = findCubin();
    if (cubinPath.empty())
      GTEST_SKIP() << "no vadd.cubin (nvcc was not available at build time; set KILN_GPU_CUBIN)";
    Expected<std::unique_ptr<Driver>> driver = cuda::openCudaDriver();
    if (!driver)
      GTEST_SKIP() << "no CUDA driver: " << driver.status().message();
    rt = Runtime::create(std::move(*driver));
    auto t0 = std::chrono::steady_clock::now();
    Expected<DeviceInfo> info = rt->deviceInfo(0);
    if (!info)
      GTEST_SKIP() << "no usable CUDA device: " << info.status().message();
    contextUs = std::chrono::duration_cast<std::chrono::microseconds>(
                    std::chrono::steady_clock::now() - t0)
                    .count();
    device = *info;
    std::string cubin = readFile(cubinPath);
    root = gExeDir + "/artifacts";
    struct stat st;
    if (stat((root + "/vadd_kernel/metadata.json").c_str(), &st) != 0) {
      const char* tmp = std::getenv("TEST_TMPDIR");
      root = std::string(tmp ? tmp : "/tmp") + "/kiln_gpu_artifacts." + std::to_string(getpid());
      writeAllArtifacts(root, cubin);
    }
  }

  /// Allocates n floats x[i] = i, y[i] = 2i and a zeroed z.
  void makeInputs(int n) {
    std::vector<float> x(n), y(n), zero(n, 0.0f);
    for (int i = 0; i < n; ++i)
      x[i] = static_cast<float>(i), y[i] = 2.0f * i;
    ASSERT_TRUE(rt->makeDeviceCurrent(0).ok());
    dx = *rt->driver().memAlloc(n * 4);
    dy = *rt->driver().memAlloc(n * 4);
    dz = *rt->driver().memAlloc(n * 4);
    ASSERT_TRUE(rt->driver().memcpyHtoD(dx, x.data(), n * 4).ok());
    ASSERT_TRUE(rt->driver().memcpyHtoD(dy, y.data(), n * 4).ok());
    ASSERT_TRUE(rt->driver().memcpyHtoD(dz, zero.data(), n * 4).ok());
  }

  /// Launches `k` over n elements and returns how many results are wrong.
  int launchAndCount(Kernel& k, int n) {
    LaunchConfig c;
    c.grid[0] = (n + 127) / 128;
    Status s = k.launch(c, {KernelArg::devicePtr(dx), KernelArg::devicePtr(dy),
                            KernelArg::devicePtr(dz), KernelArg::i32(n)});
    EXPECT_TRUE(s.ok()) << s.toString();
    if (!s.ok())
      return n;
    EXPECT_TRUE(rt->driver().streamSynchronize(nullptr).ok());
    std::vector<float> z(n);
    EXPECT_TRUE(rt->driver().memcpyDtoH(z.data(), dz, n * 4).ok());
    int wrong = 0;
    for (int i = 0; i < n; ++i)
      wrong += z[i] != 3.0f * i;
    return wrong;
  }

  std::shared_ptr<Runtime> rt;
  DeviceInfo device;
  int64_t contextUs = 0;
  std::string root;
  DevicePtr dx = 0, dy = 0, dz = 0;
};

TEST_F(GpuTest, VaddLoadsLaunchesAndComputes) {
  const int n = 1 << 20;
  makeInputs(n);
  auto t0 = std::chrono::steady_clock::now();
  Kernel k = *rt->getKernel(root + "/vadd_kernel");
  EXPECT_EQ(launchAndCount(k, n), 0);
  auto firstUs = std::chrono::duration_cast<std::chrono::microseconds>(
                     std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(k.state(), KernelState::kLaunchable);
  FunctionAttributes a = *k.functionAttributes();
  EXPECT_GT(a.numRegs, 0);
  EXPECT_EQ(a.binaryVersion, 90);
  KernelTimings t = k.timings();
  std::printf("[ info ] device 0: sm_%d%d, %d SMs, opt-in shared %d B; cuInit + primary context "
              "%lld us\n[ info ] vadd_kernel: %d regs, %d local bytes; hydrate %lld us, load %lld "
              "us, check %lld us, creation to first launch %lld us (launch + sync + copy %lld us)\n",
              device.ccMajor, device.ccMinor, device.multiprocessorCount,
              device.maxSharedPerBlockOptin, (long long)contextUs, a.numRegs, a.localBytes,
              (long long)t.hydrateUs, (long long)t.loadUs, (long long)t.checkUs,
              (long long)t.firstLaunchUs, (long long)firstUs);
}

TEST_F(GpuTest, TritonAbiTrailingNullPointers) {
  makeInputs(1000);
  Kernel k = *rt->getKernel(root + "/vadd_triton");
  EXPECT_EQ(launchAndCount(k, 1000), 0);
}

TEST_F(GpuTest, EveryScalarTypeReachesTheKernel) {
  ASSERT_TRUE(rt->makeDeviceCurrent(0).ok());
  DevicePtr out = *rt->driver().memAlloc(10 * 8);
  Kernel k = *rt->getKernel(root + "/scalars_kernel");
  LaunchConfig c;
  Status s = k.launch(c, {KernelArg::devicePtr(out), KernelArg::i1(true), KernelArg::i8(-2),
                          KernelArg::i16(-300), KernelArg::i32(-70000),
                          KernelArg::i64(-5000000000LL), KernelArg::f16Bits(0x3c00),
                          KernelArg::bf16Bits(0x3f80), KernelArg::f32(1.5f),
                          KernelArg::f64(-2.25)});
  ASSERT_TRUE(s.ok()) << s.toString();
  ASSERT_TRUE(rt->driver().streamSynchronize(nullptr).ok());
  uint64_t v[10];
  ASSERT_TRUE(rt->driver().memcpyDtoH(v, out, sizeof v).ok());
  EXPECT_EQ(v[0], 1u);
  EXPECT_EQ(static_cast<int64_t>(v[1]), -2);
  EXPECT_EQ(static_cast<int64_t>(v[2]), -300);
  EXPECT_EQ(static_cast<int64_t>(v[3]), -70000);
  EXPECT_EQ(static_cast<int64_t>(v[4]), -5000000000LL);
  EXPECT_EQ(v[5], 0x3c00u);
  EXPECT_EQ(v[6], 0x3f80u);
  EXPECT_EQ(v[7], 0x3fc00000u);
  double d;
  std::memcpy(&d, &v[8], 8);
  EXPECT_EQ(d, -2.25);
  EXPECT_EQ(v[9], 128u); // block = 32 x 4 warps
  (void)rt->driver().memFree(out);
}

TEST_F(GpuTest, SharedMemoryOptInAndDeviceLimit) {
  makeInputs(1000);
  Kernel k = *rt->getKernel(root + "/vadd_smem_100k");
  EXPECT_EQ(launchAndCount(k, 1000), 0); // needs CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
  Kernel big = *rt->getKernel(root + "/vadd_smem_256k");
  Status s = big.makeLaunchable();
  EXPECT_EQ(s.code(), StatusCode::kSharedMemoryExceeded);
  std::printf("[ info ] %s\n", s.message().c_str());
  EXPECT_EQ(big.state(), KernelState::kLoaded);
}

TEST_F(GpuTest, WrongArgumentsNeverReachTheDriver) {
  makeInputs(10);
  Kernel k = *rt->getKernel(root + "/vadd_kernel");
  LaunchConfig c;
  EXPECT_EQ(k.launch(c, {KernelArg::devicePtr(dx)}).code(), StatusCode::kArgumentCount);
  EXPECT_EQ(k.launch(c, {KernelArg::devicePtr(dx), KernelArg::devicePtr(dy),
                         KernelArg::devicePtr(dz), KernelArg::f32(1.0f)})
                .code(),
            StatusCode::kArgumentType);
}

TEST_F(GpuTest, ForkChildNeverUnloadsParentModules) {
  const int n = 4096;
  makeInputs(n);
  Kernel k = *rt->getKernel(root + "/vadd_kernel");
  ASSERT_EQ(launchAndCount(k, n), 0);
  std::fflush(stdout);
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    // CUDA does not support using a context created before fork() in the
    // child; the runtime re-initializes (cuInit, primary context, module) on
    // first use. Whatever the driver answers, the child must not crash and
    // must not unload the parent's module.
    int code = k.state() == KernelState::kHydrated ? 0 : 10;
    Status s = k.load();
    std::printf("[ info ] fork child: reload %s\n", s.ok() ? "succeeded" : s.toString().c_str());
    k = Kernel();
    rt.reset();
    std::fflush(stdout);
    _exit(code);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "the fork child crashed (signal " << WTERMSIG(status) << ")";
  EXPECT_EQ(WEXITSTATUS(status), 0);
  // The parent's module still works.
  EXPECT_EQ(k.state(), KernelState::kLaunchable);
  ASSERT_TRUE(rt->makeDeviceCurrent(0).ok());
  std::vector<float> zero(n, 0.0f);
  ASSERT_TRUE(rt->driver().memcpyHtoD(dz, zero.data(), n * 4).ok());
  EXPECT_EQ(launchAndCount(k, n), 0);
}

} // namespace
} // namespace kiln::runtime

int main(int argc, char** argv) {
  char exe[4096];
  ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
  std::string path = len > 0 ? std::string(exe, len) : std::string(argv[0]);
  kiln::runtime::gExeDir = path.substr(0, path.rfind('/'));
  if (argc == 3 && std::strcmp(argv[1], "--write-artifacts") == 0) {
    std::string cubinPath = kiln::runtime::findCubin();
    std::string cubin = cubinPath.empty() ? "" : kiln::runtime::readFile(cubinPath);
    if (cubin.empty()) {
      std::fprintf(stderr, "no vadd.cubin beside %s\n", path.c_str());
      return 1;
    }
    kiln::runtime::writeAllArtifacts(argv[2], cubin);
    std::printf("wrote artifacts for %s into %s\n", cubinPath.c_str(), argv[2]);
    return 0;
  }
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
