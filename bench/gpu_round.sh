#!/usr/bin/env bash
# One test-and-measure round on the GPU machine, after bench/prepare_gpu_round.sh
# here (run there through the
# device tool from the repository root, with .kiln/gpu carried):
#   .kiln/gpu/bundle  test/runtime/build_gpu_test.sh output (stripped)
#   .kiln/gpu/ttir    the corpus (.ttir + .json)
#   .kiln/gpu/out     `kiln compile --ftz` of each corpus file (options from
#                     its .json; status.txt says compiled or why not)
# Writes results under $OUT (or .kiln/gpu/results).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out="${OUT:-.kiln/gpu/results}"
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader | tee "$out/device.txt"
echo "== runtime GPU tests"
(cd .kiln/gpu/bundle && ./run.sh) 2>&1 | tee "$out/runtime.txt"
echo "== conformance and benchmark"
python3 bench/conformance/conformance.py --ttir .kiln/gpu/ttir --kiln-out .kiln/gpu/out \
  --runtime-lib .kiln/gpu/bundle/libkiln_runtime.so --json "$out/conformance.json" \
  ${KILN_BENCH:+--bench} ${KILN_MATMUL:+--matmul $KILN_MATMUL} 2>"$out/conformance.stderr" | tee "$out/conformance.txt"
tail -20 "$out/conformance.stderr"
