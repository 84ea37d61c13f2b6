#!/usr/bin/env bash
# Builds everything one GPU round needs into .kiln/gpu (carry that folder to
# the GPU machine and run bench/gpu_round.sh there):
#   bundle/  the runtime GPU test, libkiln_runtime.so, ctypes example
#   ttir/    the shared corpus (.ttir + .json) and bench/conformance/kernels
#   out/     `kiln compile --ftz --target sm_90a` (KILN_GPU_TARGET; Triton
#            targets sm_90a on the H200 too) of every file with the options of its .json
#            (ftz as Triton's default enable_reflect_ftz); status.txt says
#            "compiled" or why not
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
corpus="${KILN_CORPUS_DIR:-../shared/corpus}/ttir"
source bench/compile_kernel.sh
kiln="$(kiln_binary)"
rm -rf .kiln/gpu/ttir .kiln/gpu/out
mkdir -p .kiln/gpu/ttir .kiln/gpu/out
cp "$corpus"/*.ttir "$corpus"/*.json bench/conformance/kernels/* .kiln/gpu/ttir/
for f in .kiln/gpu/ttir/*.ttir; do
  kiln_compile_kernel "$kiln" "$f" ".kiln/gpu/out/$(basename "$f" .ttir)" || true
done
if [[ ! -x .kiln/gpu/bundle/gpu_runtime_test || "${KILN_REBUILD_BUNDLE:-}" == 1 ]]; then
  rm -rf .kiln/gpu/bundle
  test/runtime/build_gpu_test.sh "$PWD/.kiln/gpu/bundle" >/dev/null
  strip .kiln/gpu/bundle/gpu_runtime_test .kiln/gpu/bundle/libkiln_runtime.so
fi
echo "prepare_gpu_round: $(grep -lx compiled .kiln/gpu/out/*/status.txt | wc -l) of $(ls .kiln/gpu/ttir/*.ttir | wc -l) kernels compiled; $(du -sh .kiln/gpu | cut -f1) to carry"
