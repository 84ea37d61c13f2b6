#!/usr/bin/env bash
# Compiles the tensor-core kernels again with `--ptxas-fast-compile LEVEL`
# (default min) into .kiln/gpu/ofc/{corpus,dots}/NAME, next to the default
# builds of bench/prepare_gpu_round.sh (.kiln/gpu/out) and
# gen_dot_kernels.py (.kiln/gpu/dots/out), which must have run first: same
# TTIR, options and flags (--ftz --target sm_90a), only ptxas's level differs.
# On the GPU machine, compare the two builds' kernel times with
#   conformance.py --time --ttir .kiln/gpu/ttir --kiln-out .kiln/gpu/ofc/corpus ...
#   conformance.py --time --ttir .kiln/gpu/dots/ttir --kiln-out .kiln/gpu/ofc/dots ...
# and their compile times with cold_compile_local.py --kiln-arg=--ptxas-fast-compile=LEVEL.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
level="${1:-min}"
bazel build //tools/kiln:kiln >/dev/null
kiln="$(bazel info bazel-bin 2>/dev/null)/tools/kiln/kiln"
rm -rf .kiln/gpu/ofc
compiled=0
for pair in "corpus:.kiln/gpu/ttir" "dots:.kiln/gpu/dots/ttir"; do
  dest=".kiln/gpu/ofc/${pair%%:*}"
  src="${pair#*:}"
  for f in "$src"/*.ttir; do
    n="$(basename "$f" .ttir)"
    # Only kernels with a tt.dot: the others have no tensor-core code.
    grep -q "tt.dot" "$f" || continue
    read -r w s < <(python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print(j['num_warps'], j['num_stages'])" "${f%.ttir}.json")
    mkdir -p "$dest/$n"
    if "$kiln" compile "$f" --target "${KILN_GPU_TARGET:-sm_90a}" --num-warps "$w" --num-stages "$s" \
        --ftz --ptxas-fast-compile "$level" --no-cache -o "$dest/$n" > "$dest/$n/compile.log" 2>&1; then
      echo compiled > "$dest/$n/status.txt"
      compiled=$((compiled + 1))
    else
      echo "parsed; not compiled: $(grep -m1 error "$dest/$n/compile.log" | cut -c1-200)" > "$dest/$n/status.txt"
    fi
    rm -f "$dest/$n"/*.ll "$dest/$n"/*.mlir "$dest/$n/timings.json"
  done
done
echo "prepare_fast_compile_round: $compiled kernels compiled with --ptxas-fast-compile $level into .kiln/gpu/ofc; $(du -sh .kiln/gpu/ofc | cut -f1) to carry"
