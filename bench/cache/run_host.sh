#!/usr/bin/env bash
# run_host.sh: the compile-cache hit benchmarks of issue 5 on this machine.
#
#   bench/cache/run_host.sh [WORK]        (default WORK: /tmp/kiln-cachebench)
#
# Env: KILN (default bazel-out/k8-fastbuild/bin/tools/kiln/kiln),
#      CACHE_BENCH (default bazel-out/k8-opt/bin/bench/cache/cache_bench,
#      from `bazel build -c opt //bench/cache:cache_bench`),
#      KILN_CORPUS_DIR (default ../shared/corpus), ITERS (2000), RUNS (10).
#
# 1. Compiles the reference kernels vadd, softmax, layernorm and every
#    Inductor pointwise/reduction kernel (triton_poi_*, triton_per_*,
#    triton_red_*) of the corpus into an empty cache WORK/root with
#    `kiln compile FILE --num-warps W --num-stages S --cache-dir WORK/root`
#    (W, S from NAME.json): real entries, misses.
# 2. cache_bench WORK/root --iters ITERS: in-process key / lookup / manifest
#    times per kernel (cache_bench.cpp says what each row times).
# 3. `kiln compile` on a hit, RUNS times per kernel: process wall time
#    (bash $EPOCHREALTIME around the command) and kiln's own timings.json
#    (total from runCompile's start, lookup, write); medians. Then, for
#    what dominates a hit: `kiln --help` (process start, static
#    initializers, CLI), `kiln toolchain` (+ `ptxas --version` and the
#    libdevice SHA-256) and `ptxas --version` alone, RUNS each.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
cd "$root"
work="${1:-/tmp/kiln-cachebench}"
kiln="${KILN:-bazel-out/k8-fastbuild/bin/tools/kiln/kiln}"
bench="${CACHE_BENCH:-bazel-out/k8-opt/bin/bench/cache/cache_bench}"
corpus="${KILN_CORPUS_DIR:-$root/../shared/corpus}/ttir"
iters="${ITERS:-2000}"
runs="${RUNS:-10}"
for f in "$kiln" "$bench"; do
  [[ -x "$f" ]] || { echo "run_host.sh: $f missing (see the header)" >&2; exit 1; }
done
rm -rf "$work"
mkdir -p "$work"
cache="$work/root"

files=("$corpus"/vadd_kernel.ttir "$corpus"/softmax_kernel.ttir "$corpus"/layernorm_kernel.ttir
       "$corpus"/triton_poi_*.ttir "$corpus"/triton_per_*.ttir "$corpus"/triton_red_*.ttir)
opt() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ms_since() { awk -v s="$1" -v e="$2" 'BEGIN {printf "%.2f\n", (e - s) * 1000}'; }

echo "== kiln: $kiln"
echo "== populate $cache (misses)"
declare -A args
for f in "${files[@]}"; do
  n=$(basename "$f" .ttir)
  args[$n]="--num-warps $(opt "${f%.ttir}.json" num_warps) --num-stages $(opt "${f%.ttir}.json" num_stages)"
  # shellcheck disable=SC2086
  "$kiln" compile "$f" ${args[$n]} --cache-dir "$cache" -o "$work/out/$n"
done
"$kiln" cache stat --cache-dir "$cache"

echo
echo "== cache_bench $cache --iters $iters"
"$bench" "$cache" --iters "$iters"

echo
echo "== kiln compile on a hit, $runs runs each (ms, median): process wall | kiln total | lookup | write"
for f in "${files[@]}"; do
  n=$(basename "$f" .ttir)
  : > "$work/wall" ; : > "$work/total" ; : > "$work/lookup" ; : > "$work/write"
  for ((i = 0; i < runs; ++i)); do
    s=$EPOCHREALTIME
    # shellcheck disable=SC2086
    line=$("$kiln" compile "$f" ${args[$n]} --cache-dir "$cache" -o "$work/hit/$n")
    e=$EPOCHREALTIME
    [[ "$line" == *"cache hit"* ]] || { echo "not a hit: $line" >&2; exit 1; }
    ms_since "$s" "$e" >> "$work/wall"
    python3 - "$work/hit/$n/timings.json" "$work" <<'EOF'
import json, sys
t = json.load(open(sys.argv[1]))
for k in ("total", "lookup", "write"):
    open(f"{sys.argv[2]}/{k}", "a").write(f"{t[k] / 1000:.3f}\n")
EOF
  done
  printf '| %s | %s | %s | %s | %s |\n' "$n" "$(median < "$work/wall")" \
    "$(median < "$work/total")" "$(median < "$work/lookup")" "$(median < "$work/write")"
done

echo
echo "== process costs, $runs runs each (ms, median of wall)"
time_cmd() {
  local label="$1"; shift
  : > "$work/wall"
  for ((i = 0; i < runs; ++i)); do
    s=$EPOCHREALTIME; "$@" > /dev/null 2>&1 || true; e=$EPOCHREALTIME
    ms_since "$s" "$e" >> "$work/wall"
  done
  printf '| %s | %s |\n' "$label" "$(median < "$work/wall")"
}
time_cmd "/bin/true" /bin/true
time_cmd "kiln --help" "$kiln" --help
time_cmd "kiln toolchain" "$kiln" toolchain
ptxas=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
time_cmd "ptxas --version" "$ptxas" --version
echo
"$kiln" cache stat --cache-dir "$cache"
