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
bazel build //tools/kiln:kiln >/dev/null
# The bazel-bin symlink follows the last build's configuration; ask Bazel.
kiln="$(bazel info bazel-bin 2>/dev/null)/tools/kiln/kiln"
rm -rf .kiln/gpu/ttir .kiln/gpu/out
mkdir -p .kiln/gpu/ttir .kiln/gpu/out
cp "$corpus"/*.ttir "$corpus"/*.json bench/conformance/kernels/* .kiln/gpu/ttir/
for f in .kiln/gpu/ttir/*.ttir; do
  n="$(basename "$f" .ttir)"
  read -r w s < <(python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print(j['num_warps'], j['num_stages'])" "${f%.ttir}.json")
  mkdir -p ".kiln/gpu/out/$n"
  if "$kiln" compile "$f" --target "${KILN_GPU_TARGET:-sm_90a}" --num-warps "$w" --num-stages "$s" --ftz \
      -o ".kiln/gpu/out/$n" > ".kiln/gpu/out/$n/compile.log" 2>&1; then
    echo compiled > ".kiln/gpu/out/$n/status.txt"
  else
    echo "parsed; not compiled: $(grep -m1 error ".kiln/gpu/out/$n/compile.log" | cut -c1-200)" \
      > ".kiln/gpu/out/$n/status.txt"
  fi
done
if [[ ! -x .kiln/gpu/bundle/gpu_runtime_test || "${KILN_REBUILD_BUNDLE:-}" == 1 ]]; then
  rm -rf .kiln/gpu/bundle
  test/runtime/build_gpu_test.sh "$PWD/.kiln/gpu/bundle" >/dev/null
  strip .kiln/gpu/bundle/gpu_runtime_test .kiln/gpu/bundle/libkiln_runtime.so
fi
echo "prepare_gpu_round: $(grep -lx compiled .kiln/gpu/out/*/status.txt | wc -l) of $(ls .kiln/gpu/ttir/*.ttir | wc -l) kernels compiled; $(du -sh .kiln/gpu | cut -f1) to carry"
