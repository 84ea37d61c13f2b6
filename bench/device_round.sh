#!/usr/bin/env bash
# One device call (GPU machine, repository root, carry .kiln/gpu and
# .kiln/sbs): the speed benchmarks with the matmul sizes, the conformance
# pass over every corpus file, then the side-by-side run, each bounded so the
# whole call stays within one 10-minute command. Stage first, here:
#   bash bench/prepare_gpu_round.sh && bash bench/side_by_side/prepare.sh
# Results under $OUT: bench.{txt,json}, conformance.{txt,json}, stderr.txt,
# sbs/side_by_side.{json,md,png}.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out="${OUT:-.kiln/gpu/results}"
mkdir -p "$out/sbs"
conf=(python3 bench/conformance/conformance.py --ttir .kiln/gpu/ttir --kiln-out .kiln/gpu/out
      --runtime-lib .kiln/gpu/bundle/libkiln_runtime.so)
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader
start=$SECONDS
echo "== bench (vadd, softmax, layernorm; matmul ${KILN_MATMUL:-2048,4096,8192})"
timeout "${KILN_BENCH_S:-120}" "${conf[@]}" --bench-only --matmul "${KILN_MATMUL:-2048,4096,8192}" \
  --json "$out/bench.json" 2>>"$out/stderr.txt" | tee "$out/bench.txt"
echo "== conformance ($((SECONDS - start)) s in)"
timeout "${KILN_CONF_S:-240}" "${conf[@]}" --json "$out/conformance.json" \
  2>>"$out/stderr.txt" | tee "$out/conformance.txt"
echo "== side by side ($((SECONDS - start)) s in)"
PYTHONUNBUFFERED=1 timeout "${KILN_SBS_S:-200}" python3 bench/side_by_side/run.py --sbs .kiln/sbs \
  --out "$out/sbs" --deadline "$(( ${KILN_SBS_S:-200} - 20 ))" 2>>"$out/stderr.txt" | tail -40
echo "== done ($((SECONDS - start)) s)"
