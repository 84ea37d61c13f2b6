#!/usr/bin/env bash
# build_gpu_test.sh: builds the runtime's GPU test without Bazel into one
# self-contained directory to copy to the GPU machine (x86-64 Linux with an
# NVIDIA driver; glibc >= 2.36). No CUDA toolkit, libgtest, libcrypto or
# libstdc++ is needed there: GoogleTest, libcrypto and libstdc++ are linked
# statically, and libcuda.so.1 is loaded at run time.
#
#   test/runtime/build_gpu_test.sh [OUT_DIR]   (default /tmp/kiln-gpu-runtime-bundle)
#
# OUT_DIR then holds:
#   gpu_runtime_test          the GoogleTest binary (test/runtime/GpuRuntimeTest.cpp)
#   vadd.cubin                test/runtime/vadd.cu for sm_90
#   artifacts/<kernel>/       kiln-kernel/1 artifact dirs (metadata.json + kernels.cubin)
#   libkiln_runtime.so        the C API, for bench/runtime_ctypes_example.py
#   runtime_ctypes_example.py
#   run.sh                    runs the test, then the ctypes example
# Needs here: g++, nvcc (CUDA 12+), libgtest-dev, libssl-dev, nlohmann-json3-dev.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
out="${1:-/tmp/kiln-gpu-runtime-bundle}"
mkdir -p "$out"
cd "$root"

nvcc="$(command -v nvcc || echo "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc")"
[[ -x "$nvcc" ]] || { echo "build_gpu_test.sh: nvcc not found" >&2; exit 1; }

runtime_srcs=(runtime/*.cpp runtime/cuda/*.cpp runtime/hip/*.cpp)
cxx=(g++ -std=c++17 -O2 -g -Wall -Wno-unused-parameter -I"$root")
static_libs=(-Wl,-Bstatic -lcrypto -Wl,-Bdynamic -ldl -lpthread -static-libstdc++ -static-libgcc)

echo "build_gpu_test.sh: nvcc vadd.cu -> $out/vadd.cubin (sm_90)"
"$nvcc" -cubin -arch=sm_90 -O3 -o "$out/vadd.cubin" test/runtime/vadd.cu

echo "build_gpu_test.sh: g++ gpu_runtime_test"
"${cxx[@]}" -o "$out/gpu_runtime_test" test/runtime/GpuRuntimeTest.cpp \
  $(printf '%s\n' "${runtime_srcs[@]}" | grep -v CApi.cpp) \
  -Wl,-Bstatic -lgtest -Wl,-Bdynamic "${static_libs[@]}"

echo "build_gpu_test.sh: g++ libkiln_runtime.so"
"${cxx[@]}" -shared -fPIC -o "$out/libkiln_runtime.so" "${runtime_srcs[@]}" \
  -Wl,--exclude-libs,ALL "${static_libs[@]}"

rm -rf "$out/artifacts"
"$out/gpu_runtime_test" --write-artifacts "$out/artifacts"
cp bench/runtime_ctypes_example.py "$out/"
cat > "$out/run.sh" <<'RUN'
#!/usr/bin/env bash
# Runs the GPU runtime test, then the ctypes example, from this directory.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
./gpu_runtime_test "$@"
python3 runtime_ctypes_example.py --lib ./libkiln_runtime.so --artifact artifacts/vadd_kernel
RUN
chmod +x "$out/run.sh"
echo "build_gpu_test.sh: dynamic dependencies of gpu_runtime_test:"
ldd "$out/gpu_runtime_test" | sed 's/^/  /'
echo "build_gpu_test.sh: done: $out (run: $out/run.sh)"
