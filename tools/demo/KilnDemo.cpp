// kiln-demo: launches kiln-compiled corpus kernels (vadd, softmax,
// layernorm) through kiln's runtime and checks them against host references.
//
//   kiln-demo [--cuda-library PATH] [--device N] ARTIFACTS_DIR
//
// ARTIFACTS_DIR holds the kiln-kernel/1 artifact directories written by
// `kiln compile ... -o ARTIFACTS_DIR/<kernel>` (vadd_kernel, softmax_kernel,
// layernorm_kernel). Inputs are fixed-seed pseudo-random floats made here;
// device memory goes through the runtime's C API helpers (kiln_device_alloc,
// kiln_copy_*), launches through kiln_kernel_launch. One line per case:
// ok / MISMATCH / FAILED, the max error against a double-precision
// reference, the runtime's lifecycle timings and a launch+sync wall time.
//
// Exit status: 0 when every case is ok, or when there is no CUDA GPU
// (libcuda.so.1 not loadable, cuInit failing, no device: it says so); 1 when
// a case failed or mismatched; 2 on bad usage.
//
// Links only the runtime (//runtime:c_api): no MLIR, no LLVM, no CUDA
// toolkit. tools/demo/build_demo.sh builds it without Bazel.
#include "runtime/CApiBridge.h"
#include "runtime/Runtime.h"
#include "runtime/cuda/CudaDriver.h"
#include "runtime/kiln_runtime.h"
#include "tools/demo/Reference.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <sys/stat.h>
#include <vector>

namespace {

using namespace kiln::demo;
using Clock = std::chrono::steady_clock;

int usage(const char* argv0) {
  std::fprintf(stderr,
               "usage: %s [--cuda-library PATH] [--device N] ARTIFACTS_DIR\n"
               "  ARTIFACTS_DIR holds vadd_kernel/, softmax_kernel/, layernorm_kernel/\n"
               "  as written by `kiln compile ... -o ARTIFACTS_DIR/<kernel>`\n",
               argv0);
  return 2;
}

bool isFile(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

/// A failed C API call: "kiln_copy_to_device: driver_error: ...".
struct CallError {
  std::string text;
};

void check(kiln_status s, const char* call) {
  if (s != KILN_OK)
    throw CallError{std::string(call) + ": " + kiln_status_name(s) + ": " + kiln_last_error()};
}

/// Device memory through kiln_device_alloc / kiln_device_free.
class DeviceBuffer {
public:
  DeviceBuffer(kiln_runtime* rt, int device, size_t bytes) : rt_(rt), device_(device) {
    check(kiln_device_alloc(rt, device, bytes, &ptr_), "kiln_device_alloc");
  }
  ~DeviceBuffer() {
    if (ptr_)
      (void)kiln_device_free(rt_, device_, ptr_);
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  template <typename T> void upload(const std::vector<T>& host) {
    check(kiln_copy_to_device(rt_, device_, ptr_, host.data(), host.size() * sizeof(T)),
          "kiln_copy_to_device");
  }
  template <typename T> void download(std::vector<T>& host) {
    check(kiln_copy_from_device(rt_, device_, host.data(), ptr_, host.size() * sizeof(T)),
          "kiln_copy_from_device");
  }
  uint64_t ptr() const { return ptr_; }

private:
  kiln_runtime* rt_;
  int device_;
  uint64_t ptr_ = 0;
};

double ms(int64_t us) { return us < 0 ? -1.0 : static_cast<double>(us) / 1000.0; }

class Demo {
public:
  Demo(kiln_runtime* rt, int device, std::string dir)
      : rt_(rt), device_(device), dir_(std::move(dir)) {}
  ~Demo() {
    for (auto& [name, k] : kernels_)
      kiln_kernel_release(k);
  }

  /// Runs one case; prints its line; returns whether it was ok.
  bool runCase(const std::string& kernel, const std::string& shape,
               const std::function<std::string(bool&)>& body) {
    std::string artifact = dir_ + "/" + kernel;
    if (!isFile(artifact + "/metadata.json")) {
      print("FAILED", kernel, shape,
            "no compiled artifact at " + artifact + " (kiln compile did not produce it)");
      return false;
    }
    try {
      current_ = kernel;
      bool ok = true;
      std::string detail = body(ok);
      print(ok ? "ok" : "MISMATCH", kernel, shape, detail);
      return ok;
    } catch (const CallError& e) {
      print("FAILED", kernel, shape, e.text);
      return false;
    }
  }

  /// Opens the current case's kernel (once per kernel: the runtime's
  /// first-launch time counts from here) and launches it twice: the first
  /// launch (timed by the runtime: hydrate, load, check, first launch) and a
  /// second one timed here (launch + sync).
  std::string launchTimed(unsigned grid, const std::vector<kiln_arg>& args) {
    kiln_kernel* k = open(current_, dir_ + "/" + current_);
    check(kiln_kernel_launch(k, grid, 1, 1, nullptr, args.data(), args.size()),
          "kiln_kernel_launch");
    check(kiln_stream_synchronize(rt_, device_, nullptr), "kiln_stream_synchronize");
    Clock::time_point start = Clock::now();
    check(kiln_kernel_launch(k, grid, 1, 1, nullptr, args.data(), args.size()),
          "kiln_kernel_launch");
    check(kiln_stream_synchronize(rt_, device_, nullptr), "kiln_stream_synchronize");
    double runMs =
        std::chrono::duration<double, std::milli>(Clock::now() - start).count();

    kiln_kernel_info info;
    check(kiln_kernel_get_info(k, &info), "kiln_kernel_get_info");
    char buf[256];
    std::string out;
    if (reported_.insert(k).second) {
      std::snprintf(buf, sizeof buf,
                    "runtime: hydrate %.3f ms, load %.3f ms, check %.3f ms, first launch %.3f ms, "
                    "%d regs; ",
                    ms(info.hydrate_us), ms(info.load_us), ms(info.check_us),
                    ms(info.first_launch_us), info.num_regs);
      out = buf;
    }
    std::snprintf(buf, sizeof buf, "launch+sync %.3f ms", runMs);
    return out + buf;
  }

  kiln_runtime* rt() { return rt_; }
  int device() const { return device_; }

private:
  kiln_kernel* open(const std::string& name, const std::string& artifact) {
    auto it = kernels_.find(name);
    if (it != kernels_.end())
      return it->second;
    kiln_kernel* k = nullptr;
    check(kiln_kernel_open(rt_, artifact.c_str(), device_, &k), "kiln_kernel_open");
    kernels_[name] = k;
    return k;
  }

  static void print(const char* verdict, const std::string& kernel, const std::string& shape,
                    const std::string& detail) {
    std::printf("%-9s %-17s %-26s %s\n", verdict, kernel.c_str(), shape.c_str(), detail.c_str());
    std::fflush(stdout);
  }

  kiln_runtime* rt_;
  int device_;
  std::string dir_;
  std::string current_;
  std::map<std::string, kiln_kernel*> kernels_;
  std::set<kiln_kernel*> reported_;
};

// ---- the cases ------------------------------------------------------------

bool vaddCase(Demo& demo, size_t n, uint64_t seed) {
  char shape[64];
  std::snprintf(shape, sizeof shape, "n=%zu", n);
  return demo.runCase("vadd_kernel", shape, [&](bool& ok) {
    const unsigned grid = static_cast<unsigned>((n + 1023) / 1024);
    const size_t padded = static_cast<size_t>(grid) * 1024; // out beyond n must stay
    Rng rng(seed);
    std::vector<float> x(n), y(n);
    for (size_t i = 0; i < n; ++i) {
      x[i] = rng.uniform(-100.f, 100.f);
      y[i] = rng.uniform(-100.f, 100.f);
    }
    const float sentinel = 12345.0f;
    std::vector<float> out(padded, sentinel);
    DeviceBuffer dx(demo.rt(), demo.device(), n * 4), dy(demo.rt(), demo.device(), n * 4),
        dout(demo.rt(), demo.device(), padded * 4);
    dx.upload(x);
    dy.upload(y);
    dout.upload(out);
    std::string timing = demo.launchTimed(
        grid,
        {kiln_arg_ptr(dx.ptr()), kiln_arg_ptr(dy.ptr()), kiln_arg_ptr(dout.ptr()),
         kiln_arg_i32(static_cast<int32_t>(n))});
    dout.download(out);
    std::vector<float> ref = vaddReference(x, y, n);
    size_t bad = 0, firstBad = 0, tailWrites = 0;
    double maxAbs = 0;
    for (size_t i = 0; i < n; ++i) {
      double err = std::fabs(static_cast<double>(out[i]) - ref[i]);
      if (std::isnan(err) || err > maxAbs)
        maxAbs = err;
      if (std::memcmp(&out[i], &ref[i], 4) != 0 && bad++ == 0)
        firstBad = i;
    }
    for (size_t i = n; i < padded; ++i)
      tailWrites += out[i] != sentinel;
    ok = bad == 0 && tailWrites == 0;
    char buf[256];
    std::snprintf(buf, sizeof buf, "exact: max abs err %.3g", maxAbs);
    std::string detail = buf;
    if (bad) {
      std::snprintf(buf, sizeof buf, "; %zu of %zu differ, first [%zu]: got %.9g, want %.9g", bad,
                    n, firstBad, out[firstBad], ref[firstBad]);
      detail += buf;
    }
    if (tailWrites) {
      std::snprintf(buf, sizeof buf, "; %zu stores beyond n (mask ignored)", tailWrites);
      detail += buf;
    }
    return detail + "; " + timing;
  });
}

/// Counts elements of the padding columns [cols, stride) that changed.
template <typename T>
size_t paddingWrites(const std::vector<T>& out, size_t rows, size_t cols, size_t stride,
                     T sentinel) {
  size_t n = 0;
  for (size_t r = 0; r < rows; ++r)
    for (size_t c = cols; c < stride; ++c)
      n += std::memcmp(&out[r * stride + c], &sentinel, sizeof(T)) != 0;
  return n;
}

std::string maskNote(size_t writes) {
  return writes ? "; " + std::to_string(writes) + " stores beyond n_cols (mask ignored)" : "";
}

bool softmaxCase(Demo& demo, size_t rows, size_t cols, size_t stride, uint64_t seed) {
  char shape[64];
  std::snprintf(shape, sizeof shape, "%zux%zu stride %zu", rows, cols, stride);
  return demo.runCase("softmax_kernel", shape, [&](bool& ok) {
    Rng rng(seed);
    std::vector<float> in(rows * stride);
    for (size_t r = 0; r < rows; ++r)
      for (size_t c = 0; c < stride; ++c)
        // Padding gets large values: an unmasked load would change max and sum.
        in[r * stride + c] = c < cols ? rng.uniform(-4.f, 4.f) : 50.f;
    const float sentinel = -7.0f;
    std::vector<float> out(rows * stride, sentinel);
    DeviceBuffer din(demo.rt(), demo.device(), in.size() * 4),
        dout(demo.rt(), demo.device(), out.size() * 4);
    din.upload(in);
    dout.upload(out);
    const int32_t s = static_cast<int32_t>(stride);
    std::string timing = demo.launchTimed(
        static_cast<unsigned>(rows),
        {kiln_arg_ptr(dout.ptr()), kiln_arg_ptr(din.ptr()), kiln_arg_i32(s), kiln_arg_i32(s),
         kiln_arg_i32(static_cast<int32_t>(cols))});
    dout.download(out);
    std::vector<double> got(out.begin(), out.end());
    Comparison cmp = compareRows(got, softmaxReference(in, rows, cols, stride), rows, cols,
                                 stride, /*rtol=*/1e-5, /*atol=*/1e-9);
    size_t writes = paddingWrites(out, rows, cols, stride, sentinel);
    ok = cmp.ok() && writes == 0;
    return "rtol 1e-5: " + describe(cmp) + maskNote(writes) + "; " + timing;
  });
}

bool layernormCase(Demo& demo, size_t rows, size_t cols, size_t stride, uint64_t seed) {
  char shape[64];
  std::snprintf(shape, sizeof shape, "%zux%zu stride %zu", rows, cols, stride);
  return demo.runCase("layernorm_kernel", shape, [&](bool& ok) {
    Rng rng(seed);
    std::vector<uint16_t> x(rows * stride);
    for (size_t r = 0; r < rows; ++r)
      for (size_t c = 0; c < stride; ++c)
        x[r * stride + c] = floatToHalf(c < cols ? rng.uniform(-3.f, 3.f) + 0.5f : 1000.f);
    std::vector<float> w(cols), b(cols);
    for (size_t c = 0; c < cols; ++c) {
      w[c] = rng.uniform(0.5f, 1.5f);
      b[c] = rng.uniform(-0.5f, 0.5f);
    }
    const uint16_t sentinel = floatToHalf(-7.0f);
    std::vector<uint16_t> y(rows * stride, sentinel);
    DeviceBuffer dx(demo.rt(), demo.device(), x.size() * 2),
        dy(demo.rt(), demo.device(), y.size() * 2), dw(demo.rt(), demo.device(), cols * 4),
        db(demo.rt(), demo.device(), cols * 4);
    dx.upload(x);
    dy.upload(y);
    dw.upload(w);
    db.upload(b);
    const float eps = 1e-5f;
    std::string timing = demo.launchTimed(
        static_cast<unsigned>(rows),
        {kiln_arg_ptr(dx.ptr()), kiln_arg_ptr(dy.ptr()), kiln_arg_ptr(dw.ptr()),
         kiln_arg_ptr(db.ptr()), kiln_arg_i32(static_cast<int32_t>(stride)),
         kiln_arg_i32(static_cast<int32_t>(cols)), kiln_arg_f32(eps)});
    dy.download(y);
    std::vector<double> got(y.size());
    for (size_t i = 0; i < y.size(); ++i)
      got[i] = halfToFloat(y[i]);
    Comparison cmp = compareRows(got, layernormReference(x, w, b, rows, cols, stride, eps),
                                 rows, cols, stride, /*rtol=*/1e-2, /*atol=*/1e-3);
    size_t writes = paddingWrites(y, rows, cols, stride, sentinel);
    ok = cmp.ok() && writes == 0;
    return "f16 out, rtol 1e-2: " + describe(cmp) + maskNote(writes) + "; " + timing;
  });
}

} // namespace

int main(int argc, char** argv) {
  std::string library = "libcuda.so.1";
  std::string dir;
  int device = 0;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--cuda-library" && i + 1 < argc) {
      library = argv[++i];
    } else if (a == "--device" && i + 1 < argc) {
      device = std::atoi(argv[++i]);
    } else if (a == "-h" || a == "--help") {
      usage(argv[0]);
      return 0;
    } else if (!a.empty() && a[0] == '-') {
      return usage(argv[0]);
    } else if (dir.empty()) {
      dir = a;
    } else {
      return usage(argv[0]);
    }
  }
  if (dir.empty())
    return usage(argv[0]);

  using namespace kiln::runtime;
  auto noGpu = [&](const std::string& reason) {
    std::printf("demo: no CUDA GPU here (%s); compiled kernels are in %s\n", reason.c_str(),
                dir.c_str());
    return 0;
  };
  Expected<std::unique_ptr<Driver>> driver = cuda::openCudaDriver(library.c_str());
  if (!driver)
    return noGpu(driver.status().toString());
  std::shared_ptr<Runtime> runtime = Runtime::create(std::move(*driver));
  Expected<DeviceInfo> info = runtime->deviceInfo(device);
  if (!info)
    return noGpu(info.status().toString());
  std::printf("kiln-demo: device %d: %s, %d SMs, %d KiB shared/block (opt-in); artifacts in %s\n",
              device, info->archName().c_str(), info->multiprocessorCount,
              info->maxSharedPerBlockOptin / 1024, dir.c_str());
  std::fflush(stdout);

  kiln_runtime* rt = wrapRuntime(runtime);
  int passed = 0, total = 0;
  {
    Demo demo(rt, device, dir);
    auto count = [&](bool ok) {
      ++total;
      passed += ok;
    };
    count(vaddCase(demo, size_t{1} << 20, 1));
    count(vaddCase(demo, 1000000, 2)); // a partial last block: exercises the mask
    // n_cols must stay a multiple of 16 (tt.divisibility = 16 on n_cols in
    // the corpus TTIR); 3008 < 4096 leaves a masked tail in every row.
    count(softmaxCase(demo, 512, 4096, 4096, 3));
    count(softmaxCase(demo, 512, 3008, 4096, 4));
    count(layernormCase(demo, 512, 4096, 4096, 5));
    count(layernormCase(demo, 512, 3008, 4096, 6));
  }
  kiln_runtime_release(rt);
  std::printf("kiln-demo: %d of %d GPU checks ok\n", passed, total);
  return passed == total ? 0 : 1;
}
