// DriverLoaderTest.cpp: loading the CUDA driver through dlopen and
// cuGetProcAddress (against libfakecuda.so, which exports only
// cuGetProcAddress_v2), and the errors for a missing library or table entry.
#include <gtest/gtest.h>

#include <dlfcn.h>

#include "runtime/Runtime.h"
#include "runtime/cuda/CudaDriver.h"
#include "runtime/hip/HipDriver.h"

namespace kiln::runtime {
namespace {

const char* kFakeLib = "test/runtime/libfakecuda.so";

TEST(CudaLoader, ResolvesEveryEntryPointThroughCuGetProcAddress) {
  Expected<cuda::CudaDriverTable> table = cuda::loadCudaDriverTable(kFakeLib, 12000);
  ASSERT_TRUE(table.ok()) << table.status().toString();
  EXPECT_EQ(table->apiVersion, 12000);
  EXPECT_NE(table->cuLaunchKernel, nullptr);
  // Every request carried version 12000 and an unsuffixed name.
  void* lib = dlopen(kFakeLib, RTLD_NOW | RTLD_NOLOAD);
  ASSERT_NE(lib, nullptr);
  auto requests = reinterpret_cast<int (*)(int, int*)>(dlsym(lib, "fake_requests"));
  ASSERT_NE(requests, nullptr);
  int allMatch = 0;
  EXPECT_EQ(requests(12000, &allMatch), 23);
  EXPECT_EQ(allMatch, 1);

  // The driver built on it works end to end (the library's own fake state).
  Expected<std::unique_ptr<Driver>> driver = cuda::makeCudaDriver(*table);
  ASSERT_TRUE(driver.ok());
  ASSERT_TRUE((*driver)->init().ok());
  Expected<int> n = (*driver)->deviceCount();
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*n, 1);
  EXPECT_EQ((*driver)->description(),
            std::string("cuda (") + kFakeLib + ", CUDA 12000 entry points)");
}

TEST(CudaLoader, MissingLibrary) {
  Expected<cuda::CudaDriverTable> table = cuda::loadCudaDriverTable("libkiln-no-such-lib.so.1");
  ASSERT_FALSE(table.ok());
  EXPECT_EQ(table.status().code(), StatusCode::kDriverUnavailable);
  EXPECT_NE(table.status().message().find(
                "cannot load the CUDA driver: dlopen(libkiln-no-such-lib.so.1) failed: "),
            std::string::npos)
      << table.status().message();
}

TEST(CudaLoader, LibraryWithoutCuGetProcAddress) {
  // libm exists everywhere and exports no CUDA symbols.
  Expected<cuda::CudaDriverTable> table = cuda::loadCudaDriverTable("libm.so.6");
  ASSERT_FALSE(table.ok());
  EXPECT_EQ(table.status().message(),
            "libm.so.6 exports neither cuGetProcAddress_v2 nor cuGetProcAddress (driver older "
            "than CUDA 11.3?)");
}

TEST(CudaLoader, IncompleteTableRejected) {
  cuda::CudaDriverTable t;
  Expected<std::unique_ptr<Driver>> d = cuda::makeCudaDriver(t);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().message(), "CUDA driver table has no entry point cuGetErrorName");
  hip::HipDriverTable h;
  EXPECT_EQ(hip::makeHipDriver(h).status().message(),
            "HIP driver table has no entry point hipGetErrorName");
}

TEST(HipLoader, MissingLibrary) {
  Expected<hip::HipDriverTable> table = hip::loadHipDriverTable("libkiln-no-such-hip.so");
  ASSERT_FALSE(table.ok());
  EXPECT_EQ(table.status().code(), StatusCode::kDriverUnavailable);
  EXPECT_NE(table.status().message().find("cannot load HIP: dlopen(libkiln-no-such-hip.so)"),
            std::string::npos);
  table = hip::loadHipDriverTable("libm.so.6");
  EXPECT_EQ(table.status().message(), "libm.so.6 does not export hipGetErrorName");
}

} // namespace
} // namespace kiln::runtime
