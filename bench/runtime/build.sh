#!/usr/bin/env bash
# build.sh: builds the runtime launch benchmark without Bazel into OUT_DIR
# (default .kiln/rtbench, git-ignored, so it can be carried to the GPU
# machine), like test/runtime/build_gpu_test.sh: libstdc++, libgcc and
# libcrypto linked statically; libcuda.so.1 is loaded at run time.
#
#   bench/runtime/build.sh [OUT_DIR]
#
# OUT_DIR then holds:
#   launch_bench                bench/runtime/launch_bench.cpp + runtime/ sources
#   artifacts/empty/            kiln-kernel/1: bench/runtime/empty.cu (nvcc, sm_90)
#   artifacts/vadd_kernel/      kiln-kernel/1: kiln's compiled corpus vadd
#                               (metadata.json + vadd_kernel.cubin copied from
#                               .kiln/gpu/out/vadd_kernel; bench/prepare_gpu_round.sh
#                               writes it)
# Needs here: g++, nvcc (CUDA 12+), libssl-dev, nlohmann-json3-dev.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
out="${1:-$root/.kiln/rtbench}"
vadd_src="${KILN_VADD_ARTIFACT:-$root/.kiln/gpu/out/vadd_kernel}"
cd "$root"
[[ -f "$vadd_src/metadata.json" && -f "$vadd_src/vadd_kernel.cubin" ]] || {
  echo "build.sh: no compiled vadd in $vadd_src (run bench/prepare_gpu_round.sh)" >&2; exit 1; }
nvcc="$(command -v nvcc || echo "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc")"
[[ -x "$nvcc" ]] || { echo "build.sh: nvcc not found" >&2; exit 1; }

rm -rf "$out"
mkdir -p "$out/artifacts/empty" "$out/artifacts/vadd_kernel"

echo "build.sh: nvcc empty.cu -> artifacts/empty/empty.cubin (sm_90)"
"$nvcc" -cubin -arch=sm_90 -O3 -o "$out/artifacts/empty/empty.cubin" bench/runtime/empty.cu
size=$(stat -c %s "$out/artifacts/empty/empty.cubin")
sha=$(sha256sum "$out/artifacts/empty/empty.cubin" | cut -d' ' -f1)
cat > "$out/artifacts/empty/metadata.json" <<JSON
{
  "format": "kiln-kernel/1",
  "kernel": "empty",
  "target": {"backend": "cuda", "arch": "sm_90", "warp_size": 32},
  "num_warps": 1, "num_stages": 1, "num_ctas": 1,
  "shared_bytes": 0,
  "signature": [],
  "binary": {"file": "empty.cubin", "size": $size, "sha256": "$sha"},
  "job_key": "",
  "extra_args": {"trailing_null_pointers": 0}
}
JSON
cp "$vadd_src/metadata.json" "$vadd_src/vadd_kernel.cubin" "$out/artifacts/vadd_kernel/"
(cd "$out/artifacts/vadd_kernel" &&
  python3 -c "import json,hashlib,sys; m=json.load(open('metadata.json')); d=open(m['binary']['file'],'rb').read(); sys.exit(0 if hashlib.sha256(d).hexdigest()==m['binary']['sha256'] and len(d)==m['binary']['size'] else 'vadd metadata does not match its cubin')")

echo "build.sh: g++ launch_bench"
g++ -std=c++17 -O2 -g -Wall -Wno-unused-parameter -I"$root" -o "$out/launch_bench" \
  bench/runtime/launch_bench.cpp runtime/*.cpp runtime/cuda/*.cpp runtime/hip/*.cpp \
  -Wl,-Bstatic -lcrypto -Wl,-Bdynamic -ldl -lpthread -static-libstdc++ -static-libgcc
strip "$out/launch_bench"
echo "build.sh: dynamic dependencies of launch_bench:"
ldd "$out/launch_bench" | sed 's/^/  /'
echo "build.sh: done: $out ($(du -sh "$out" | cut -f1)); on the GPU machine: bash bench/runtime/run_gpu.sh $out"
