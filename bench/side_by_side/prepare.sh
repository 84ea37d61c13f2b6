#!/usr/bin/env bash
# Stages everything bench/side_by_side/run.py needs on the GPU machine into
# .kiln/sbs (git-ignored; carry it with the device tool's run):
#   kiln_portable.tar.xz  the portable kiln CLI (docs/PORTABLE.md), -c opt
#   libkiln_runtime.so    the runtime C API (g++, as test/runtime/build_gpu_test.sh
#                         builds it for .kiln/gpu/bundle), from the current runtime/
#   ttir/                 the corpus kernels measured (.ttir + .json) and the
#                         unrelated warm-up kernel (bench/conformance/kernels/cumsum_kernel)
#   BUILD_INFO            commit and kiln build id
# Afterwards `bazel build //tools/kiln` points bazel-bin back to fastbuild.
#
#   bench/side_by_side/prepare.sh            # then, on the GPU machine (repo root):
#   python3 bench/side_by_side/run.py --sbs .kiln/sbs --out "$OUT"
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
corpus="${KILN_CORPUS_DIR:-../shared/corpus}/ttir"
sbs=.kiln/sbs
kernels=(vadd_kernel softmax_kernel layernorm_kernel)
for f in "$corpus"/triton_poi_*.ttir "$corpus"/triton_per_*.ttir "$corpus"/triton_red_*.ttir; do
  kernels+=("$(basename "$f" .ttir)")
done

bazel build -c opt --config=portable //tools:kiln_portable
tarball=bazel-out/k8-opt/bin/tools/kiln_portable.tar.xz
rm -rf "$sbs"
mkdir -p "$sbs/ttir"
cp "$tarball" "$sbs/kiln_portable.tar.xz"
bazel build //tools/kiln >/dev/null   # bazel-bin back to the fastbuild configuration

# The runtime C API as test/runtime/build_gpu_test.sh builds it for .kiln/gpu/bundle
# (same flags), from the sources at hand: a bundle staged before a runtime
# change can lack kiln_kernel_open_cached, which the fresh-process child needs.
g++ -std=c++17 -O2 -g -Wall -Wno-unused-parameter -I"$PWD" -shared -fPIC -o "$sbs/libkiln_runtime.so" \
  runtime/*.cpp runtime/cuda/*.cpp runtime/hip/*.cpp \
  -Wl,--exclude-libs,ALL -Wl,-Bstatic -lcrypto -Wl,-Bdynamic -ldl -lpthread -static-libstdc++ -static-libgcc
strip "$sbs/libkiln_runtime.so"
nm -D "$sbs/libkiln_runtime.so" | grep ' T kiln_kernel_open_cached$' >/dev/null ||
  { echo "prepare: libkiln_runtime.so lacks kiln_kernel_open_cached" >&2; exit 1; }

for k in "${kernels[@]}"; do cp "$corpus/$k.ttir" "$corpus/$k.json" "$sbs/ttir/"; done
cp bench/conformance/kernels/cumsum_kernel.ttir "$sbs/ttir/warmup_cumsum_kernel.ttir"
cp bench/conformance/kernels/cumsum_kernel.json "$sbs/ttir/warmup_cumsum_kernel.json"
printf '%s\n' "${kernels[@]}" > "$sbs/kernels.txt"

build_id="$(tar -xJOf "$sbs/kiln_portable.tar.xz" kiln_portable/kiln | file - | grep -o 'BuildID\[[A-Za-z0-9]*\]=[0-9a-f]*' || true)"
{
  echo "commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . ':!bench/side_by_side' ':!docs/BENCHMARKS.md' || echo ' (+local changes)')"
  echo "kiln $build_id"
  echo "staged $(date -u +%Y-%m-%dT%H:%M:%SZ)"
} > "$sbs/BUILD_INFO"
cat "$sbs/BUILD_INFO"
echo "prepare: ${#kernels[@]} kernels, $(du -sh "$sbs" | cut -f1) in $sbs"
