// CApiTest.cpp: kiln_runtime.h on a runtime over the fake CUDA driver,
// whose launch hook emulates vadd_kernel on host memory.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <dlfcn.h>

#include <cstring>
#include <string>
#include <vector>

#include "runtime/CApiBridge.h"
#include "runtime/cuda/CudaDriver.h"
#include "runtime/kiln_runtime.h"
#include "test/runtime/FakeCuda.h"
#include "test/runtime/TestArtifacts.h"

namespace kiln::runtime {
namespace {

class CApiTest : public ::testing::Test {
protected:
  void SetUp() override {
    fake::resetFakeCuda();
    fake::fakeCuda().paramCount = 4;
    // Emulate z[i] = x[i] + y[i] for i < n ("device" memory is host memory).
    fake::fakeCuda().onLaunch = [](const fake::LaunchRecord& r) {
      auto* x = reinterpret_cast<const float*>(r.params[0]);
      auto* y = reinterpret_cast<const float*>(r.params[1]);
      auto* z = reinterpret_cast<float*>(r.params[2]);
      int n = static_cast<int32_t>(r.params[3]);
      for (int i = 0; i < n; ++i)
        z[i] = x[i] + y[i];
    };
    rt = wrapRuntime(Runtime::create(std::move(*cuda::makeCudaDriver(fake::fakeCudaTable()))));
    dir = testing::writeArtifact("capi", testing::vaddMetadata(), "cubin");
  }
  void TearDown() override { kiln_runtime_release(rt); }
  kiln_runtime* rt = nullptr;
  std::string dir;
};

TEST_F(CApiTest, VectorAddEndToEnd) {
  const int n = 1000;
  std::vector<float> x(n), y(n), z(n, 0.0f);
  for (int i = 0; i < n; ++i)
    x[i] = static_cast<float>(i), y[i] = 2.0f * i;
  uint64_t dx, dy, dz;
  ASSERT_EQ(kiln_device_alloc(rt, 0, n * 4, &dx), KILN_OK);
  ASSERT_EQ(kiln_device_alloc(rt, 0, n * 4, &dy), KILN_OK);
  ASSERT_EQ(kiln_device_alloc(rt, 0, n * 4, &dz), KILN_OK);
  ASSERT_EQ(kiln_copy_to_device(rt, 0, dx, x.data(), n * 4), KILN_OK);
  ASSERT_EQ(kiln_copy_to_device(rt, 0, dy, y.data(), n * 4), KILN_OK);

  kiln_kernel* k = nullptr;
  ASSERT_EQ(kiln_kernel_open(rt, dir.c_str(), 0, &k), KILN_OK);
  kiln_kernel_info info;
  ASSERT_EQ(kiln_kernel_get_info(k, &info), KILN_OK);
  EXPECT_EQ(info.state, KILN_STATE_CACHED);
  EXPECT_EQ(info.num_warps, -1);
  EXPECT_EQ(info.hydrate_us, -1);

  kiln_arg args[4] = {kiln_arg_ptr(dx), kiln_arg_ptr(dy), kiln_arg_ptr(dz), kiln_arg_i32(n)};
  ASSERT_EQ(kiln_kernel_launch(k, (n + 127) / 128, 1, 1, nullptr, args, 4), KILN_OK)
      << kiln_last_error();
  ASSERT_EQ(kiln_stream_synchronize(rt, 0, nullptr), KILN_OK);
  ASSERT_EQ(kiln_copy_from_device(rt, 0, z.data(), dz, n * 4), KILN_OK);
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(z[i], 3.0f * i) << i;
  EXPECT_EQ(fake::fakeCuda().launches.back().grid[0], 8u);

  ASSERT_EQ(kiln_kernel_get_info(k, &info), KILN_OK);
  EXPECT_EQ(info.state, KILN_STATE_LAUNCHABLE);
  EXPECT_EQ(info.num_warps, 4);
  EXPECT_EQ(info.num_stages, 3);
  EXPECT_EQ(info.num_regs, 32);
  EXPECT_EQ(info.local_bytes, 0);
  EXPECT_GE(info.hydrate_us, 0);
  EXPECT_GE(info.load_us, 0);
  EXPECT_GE(info.first_launch_us, info.load_us);
  kiln_kernel_release(k);
  EXPECT_EQ(fake::fakeCalls("cuModuleUnload"), 1);
  for (uint64_t p : {dx, dy, dz})
    EXPECT_EQ(kiln_device_free(rt, 0, p), KILN_OK);
}

TEST_F(CApiTest, ExplicitTransitions) {
  kiln_kernel* k = nullptr;
  ASSERT_EQ(kiln_kernel_open(rt, dir.c_str(), 0, &k), KILN_OK);
  kiln_kernel_info info;
  ASSERT_EQ(kiln_kernel_hydrate(k), KILN_OK);
  kiln_kernel_get_info(k, &info);
  EXPECT_EQ(info.state, KILN_STATE_HYDRATED);
  ASSERT_EQ(kiln_kernel_load(k), KILN_OK);
  kiln_kernel_get_info(k, &info);
  EXPECT_EQ(info.state, KILN_STATE_LOADED);
  ASSERT_EQ(kiln_kernel_prepare(k), KILN_OK);
  kiln_kernel_get_info(k, &info);
  EXPECT_EQ(info.state, KILN_STATE_LAUNCHABLE);
  kiln_kernel_release(k);
}

TEST_F(CApiTest, ErrorsAndMessages) {
  kiln_kernel* k = nullptr;
  EXPECT_EQ(kiln_kernel_open(rt, "/no/such/dir", 0, &k), KILN_NOT_FOUND);
  EXPECT_EQ(k, nullptr);
  EXPECT_STREQ(kiln_last_error(), "kernel artifact directory '/no/such/dir' does not exist");
  EXPECT_STREQ(kiln_status_name(KILN_NOT_FOUND), "not_found");
  EXPECT_STREQ(kiln_status_name(KILN_CHECKSUM_MISMATCH), "checksum_mismatch");
  EXPECT_STREQ(kiln_status_name(static_cast<kiln_status>(99)), "unknown");

  EXPECT_EQ(kiln_kernel_open(nullptr, dir.c_str(), 0, &k), KILN_INVALID_ARGUMENT);
  EXPECT_EQ(kiln_kernel_launch(nullptr, 1, 1, 1, nullptr, nullptr, 0), KILN_INVALID_ARGUMENT);
  EXPECT_STREQ(kiln_last_error(), "kiln_kernel_launch: null kernel");

  ASSERT_EQ(kiln_kernel_open(rt, dir.c_str(), 0, &k), KILN_OK);
  kiln_arg args[4] = {kiln_arg_ptr(1), kiln_arg_ptr(2), kiln_arg_ptr(3), kiln_arg_f32(1.0f)};
  EXPECT_EQ(kiln_kernel_launch(k, 1, 1, 1, nullptr, args, 4), KILN_ARGUMENT_TYPE);
  EXPECT_NE(std::string(kiln_last_error()).find("argument 3 'n' has type i32 but a f32 was given"),
            std::string::npos);
  EXPECT_EQ(kiln_kernel_launch(k, 1, 1, 1, nullptr, args, 3), KILN_ARGUMENT_COUNT);
  args[3].type = 42;
  EXPECT_EQ(kiln_kernel_launch(k, 1, 1, 1, nullptr, args, 4), KILN_ARGUMENT_TYPE);
  EXPECT_STREQ(kiln_last_error(), "kiln_kernel_launch: argument 3 has unknown kiln_arg_type 42");
  EXPECT_EQ(kiln_kernel_launch(k, 1, 1, 1, nullptr, nullptr, 4), KILN_INVALID_ARGUMENT);
  kiln_kernel_release(k);

  testing::writeFile(dir + "/vadd_kernel.cubin", "cubiN");
  ASSERT_EQ(kiln_kernel_open(rt, dir.c_str(), 0, &k), KILN_OK);
  EXPECT_EQ(kiln_kernel_load(k), KILN_CHECKSUM_MISMATCH);
  kiln_kernel_release(k);
}

TEST_F(CApiTest, ArgumentConversionsReachTheKernel) {
  KernelMetadata m = testing::vaddMetadata();
  m.kernel = "scalars";
  m.signature.clear();
  for (const char* t : {"f32", "f16", "i8", "f64"})
    m.signature.push_back({t, *parseArgType(t)});
  std::string d = testing::writeArtifact("scalars", m, "cubin");
  fake::fakeCuda().onLaunch = nullptr;
  kiln_kernel* k = nullptr;
  ASSERT_EQ(kiln_kernel_open(rt, d.c_str(), 0, &k), KILN_OK);
  kiln_arg args[4] = {kiln_arg_f32(1.5f), kiln_arg_make(KILN_ARG_F16, 0),
                      kiln_arg_make(KILN_ARG_I8, static_cast<uint64_t>(-1)), kiln_arg_f64(0.5)};
  args[1].value.bits16 = 0x3c00;
  ASSERT_EQ(kiln_kernel_launch(k, 1, 1, 1, nullptr, args, 4), KILN_OK) << kiln_last_error();
  const auto& p = fake::fakeCuda().launches.back().params;
  EXPECT_EQ(p[0], 0x3fc00000u); // 1.5f, upper bytes zero
  EXPECT_EQ(p[1], 0x3c00u);
  EXPECT_EQ(p[2], 0xffu); // i8 -1, one byte
  double d64;
  std::memcpy(&d64, &p[3], 8);
  EXPECT_EQ(d64, 0.5);
  kiln_kernel_release(k);
}

struct Recorded {
  std::vector<std::string> events;
};

void recordEvent(void* user, const char* event, const char* kernel, int device, int64_t us,
                 const char* message) {
  static_cast<Recorded*>(user)->events.push_back(std::string(event) + ":" + kernel + ":" +
                                                 std::to_string(device) + ":" +
                                                 (*message ? "error" : "ok"));
  (void)us;
}

TEST_F(CApiTest, ListenerAndTelemetry) {
  Recorded rec;
  ASSERT_EQ(kiln_runtime_set_listener(rt, recordEvent, &rec), KILN_OK);
  kiln_kernel* k = nullptr;
  ASSERT_EQ(kiln_kernel_open(rt, dir.c_str(), 0, &k), KILN_OK);
  ASSERT_EQ(kiln_kernel_prepare(k), KILN_OK);
  EXPECT_EQ(rec.events, (std::vector<std::string>{"hydrated:vadd_kernel:0:ok",
                                                  "loaded:vadd_kernel:0:ok",
                                                  "launchable:vadd_kernel:0:ok"}));
  size_t needed = 0;
  ASSERT_EQ(kiln_runtime_telemetry_json(rt, nullptr, 0, &needed), KILN_OK);
  ASSERT_GT(needed, 10u);
  std::vector<char> buf(needed);
  EXPECT_EQ(kiln_runtime_telemetry_json(rt, buf.data(), 4, &needed), KILN_INVALID_ARGUMENT);
  ASSERT_EQ(kiln_runtime_telemetry_json(rt, buf.data(), buf.size(), &needed), KILN_OK);
  nlohmann::json doc = nlohmann::json::parse(buf.data());
  EXPECT_EQ(doc["kernels"][0]["state"], "launchable");
  ASSERT_EQ(kiln_runtime_set_listener(rt, nullptr, nullptr), KILN_OK);
  kiln_kernel_release(k);
  EXPECT_EQ(rec.events.size(), 3u); // listener removed before the unload
}

TEST(CApiCreate, MissingDriverLibrary) {
  kiln_runtime* rt = reinterpret_cast<kiln_runtime*>(1);
  if (void* h = dlopen("libamdhip64.so", RTLD_NOW | RTLD_NOLOAD)) {
    dlclose(h);
    GTEST_SKIP() << "libamdhip64.so is installed here";
  }
  EXPECT_EQ(kiln_runtime_create(KILN_BACKEND_HIP, &rt), KILN_DRIVER_UNAVAILABLE);
  EXPECT_EQ(rt, nullptr);
  EXPECT_NE(std::string(kiln_last_error()).find("dlopen(libamdhip64.so) failed"),
            std::string::npos);
  EXPECT_EQ(kiln_runtime_create(static_cast<kiln_backend>(7), &rt), KILN_INVALID_ARGUMENT);
  EXPECT_EQ(kiln_runtime_create(KILN_BACKEND_CUDA, nullptr), KILN_INVALID_ARGUMENT);
}

} // namespace
} // namespace kiln::runtime
