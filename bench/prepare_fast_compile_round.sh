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
source bench/compile_kernel.sh
kiln="$(kiln_binary)"
rm -rf .kiln/gpu/ofc
compiled=0
for pair in "corpus:.kiln/gpu/ttir" "dots:.kiln/gpu/dots/ttir"; do
  dest=".kiln/gpu/ofc/${pair%%:*}"
  src="${pair#*:}"
  for f in "$src"/*.ttir; do
    n="$(basename "$f" .ttir)"
    # Only kernels with a tt.dot: the others have no tensor-core code.
    grep -q "tt.dot" "$f" || continue
    if kiln_compile_kernel "$kiln" "$f" "$dest/$n" --ptxas-fast-compile "$level" --no-cache; then
      compiled=$((compiled + 1))
    fi
    rm -f "$dest/$n"/*.ll "$dest/$n"/*.mlir "$dest/$n/timings.json"
  done
done
echo "prepare_fast_compile_round: $compiled kernels compiled with --ptxas-fast-compile $level into .kiln/gpu/ofc; $(du -sh .kiln/gpu/ofc | cut -f1) to carry"
