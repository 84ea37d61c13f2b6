#!/usr/bin/env bash
# bolt_kiln.sh: lay out a statically linked `kiln` by its own profile (BOLT).
#
#   bolt_kiln.sh IN OUT LLVM_BOLT MERGE_FDATA EXIT_SHIM TRAIN_LIST
#
# IN is a kiln binary linked with --emit-relocs. The script
#   1. writes an instrumented copy of IN (`llvm-bolt -instrument`),
#   2. runs that copy as `kiln compile --no-cache` on every kernel of
#      TRAIN_LIST (lines `TTIR WARPS STAGES TARGET`, paths relative to the
#      working directory) plus one compile through a fresh cache (a miss,
#      then a hit), two at a time, and merges the edge counts they write,
#   3. writes OUT: IN with its basic blocks and functions reordered by
#      those counts and the blocks no training compile ran moved out of
#      the hot functions (`llvm-bolt -data`).
# OUT computes what IN computes: every artifact it writes is byte-identical
# (the only difference is the build ID's last bit, which BOLT flips, so
# that the job key, which includes the build ID, tells the two apart).
#
# EXIT_SHIM is a shared library that turns `_Exit` into `exit`: kiln ends a
# compile with `_Exit` (no static destructors), and the instrumented copy
# writes its counts from a DT_FINI hook that only `exit` runs.
#
# The training compiles need ptxas (PATH, $KILN_PTXAS or $CUDA_HOME) for
# the NVPTX targets and ld.lld for gfx targets; a compile that ends with an
# error still contributes the counts of what it ran (an abort does not),
# and the script lists the compiles that failed. It fails if none
# succeeded.
set -euo pipefail

if [[ $# -ne 6 ]]; then
  echo "usage: bolt_kiln.sh IN OUT LLVM_BOLT MERGE_FDATA EXIT_SHIM TRAIN_LIST" >&2
  exit 2
fi
in=$1 out=$2 bolt=$3 merge=$4 shim=$5 list=$6
for f in "$in" "$bolt" "$merge" "$shim" "$list"; do
  [[ -e $f ]] || { echo "bolt_kiln.sh: $f: no such file" >&2; exit 1; }
done
shim=$(realpath "$shim")
outdir=$(dirname "$out")
if [[ ! -d $outdir || ! -w $outdir ]]; then
  echo "bolt_kiln.sh: $outdir (OUT's folder) is not a writable directory" >&2
  exit 1
fi

# The training list, checked before any work: TTIR WARPS STAGES TARGET per
# line; blank lines, `#` comments and CR line ends are allowed.
ttirs=() warpss=() stagess=() targets=()
lineno=0
while IFS= read -r line || [[ -n $line ]]; do
  lineno=$((lineno + 1))
  line=${line%$'\r'}
  read -r -a f <<<"$line"
  if [[ ${#f[@]} -eq 0 || ${f[0]} == \#* ]]; then continue; fi
  if [[ ${#f[@]} -ne 4 ]]; then
    echo "bolt_kiln.sh: $list:$lineno: expected TTIR WARPS STAGES TARGET," \
      "got ${#f[@]} fields" >&2
    exit 1
  fi
  if [[ ! -f ${f[0]} ]]; then
    echo "bolt_kiln.sh: $list:$lineno: ${f[0]}: no such file" >&2
    exit 1
  fi
  ttirs+=("${f[0]}") warpss+=("${f[1]}") stagess+=("${f[2]}") targets+=("${f[3]}")
done <"$list"
if [[ ${#ttirs[@]} -eq 0 ]]; then
  echo "bolt_kiln.sh: $list lists no kernels" >&2
  exit 1
fi
if [[ ! " ${targets[*]} " =~ \ sm_ ]]; then
  echo "bolt_kiln.sh: $list lists no sm_* kernel, which the check of the" \
    "laid-out binary's artifacts needs" >&2
  exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$bolt" "$in" -instrument -o "$work/kiln.inst" \
  -instrumentation-file="$work/prof" -instrumentation-file-append-pid \
  >"$work/instrument.log" 2>&1 || {
  echo "bolt_kiln.sh: llvm-bolt -instrument failed on $in:" >&2
  cat "$work/instrument.log" >&2
  exit 1
}

# `kiln compile` arguments for the list's kernel $1, in the array args.
# Triton's default options flush f32 denormals on NVIDIA
# (enable_reflect_ftz), hence --ftz for sm_* targets.
compile_args() {
  args=(compile "${ttirs[$1]}" --target "${targets[$1]}"
    --num-warps "${warpss[$1]}" --num-stages "${stagess[$1]}")
  if [[ ${targets[$1]} == sm_* ]]; then args+=(--ftz); fi
}

# Training compile of kernel $1; its counts land in $work/prof.<pid>.fdata.
train_one() {
  local args
  compile_args "$1"
  LD_PRELOAD="$shim" "$work/kiln.inst" "${args[@]}" --no-cache \
    -o "$work/out.$1" >/dev/null 2>"$work/err.$1" ||
    echo "${ttirs[$1]} (${targets[$1]}): $(tail -1 "$work/err.$1")" \
      >"$work/failed.$1"
  rm -rf "$work/out.$1"
}

# Fold every count file written so far into acc.fdata, to bound the disk
# use (each file holds every counter of the binary, about 56 MB).
fold() {
  local files=("$work"/prof.*.fdata)
  [[ -e ${files[0]} ]] || return 0
  if [[ -e $work/acc.fdata ]]; then files+=("$work/acc.fdata"); fi
  "$merge" "${files[@]}" >"$work/acc.new" 2>>"$work/merge.log" || {
    echo "bolt_kiln.sh: merge-fdata failed:" >&2
    cat "$work/merge.log" >&2
    exit 1
  }
  rm -f "$work"/prof.*.fdata
  mv "$work/acc.new" "$work/acc.fdata"
}

n=${#ttirs[@]}
for ((i = 0; i < n; i++)); do
  train_one "$i" &
  if ((i % 2 == 1)); then wait; fi
  if ((i % 16 == 15)); then fold; fi
done
wait

# A cache miss and then a hit of the first kernel, through a fresh cache.
compile_args 0
for i in 1 2; do
  LD_PRELOAD="$shim" "$work/kiln.inst" "${args[@]}" \
    --cache-dir "$work/cache" -o "$work/cached.$i" \
    >/dev/null 2>"$work/cache.$i.err" ||
    echo "${ttirs[0]} (cache $i): $(tail -1 "$work/cache.$i.err")" \
      >"$work/failed.cache$i"
done
fold

failed=0
for ((i = 0; i < n; i++)); do
  if [[ -e $work/failed.$i ]]; then failed=$((failed + 1)); fi
done
echo "bolt_kiln.sh: $n training compiles, $failed failed" >&2
for f in "$work"/failed.*; do
  if [[ -e $f ]]; then echo "  failed: $(cat "$f")" >&2; fi
done
if ((failed >= n)); then
  echo "bolt_kiln.sh: no training compile succeeded" >&2
  exit 1
fi

"$bolt" "$in" -o "$out" -data="$work/acc.fdata" \
  -reorder-blocks=ext-tsp -reorder-functions=cdsort \
  -split-functions -split-all-cold -split-eh -icf=1 -use-gnu-stack \
  >"$work/optimize.log" 2>&1 || {
  echo "bolt_kiln.sh: llvm-bolt -data failed on $in:" >&2
  cat "$work/optimize.log" >&2
  exit 1
}
grep -E "BOLT-INFO: (setting __hot_(start|end)|[0-9]+ out of [0-9]+ functions)" \
  "$work/optimize.log" >&2 || true

# Both binaries must write the same artifacts for the first three NVPTX
# kernels of the list (the list was checked to have at least one): the job
# key aside (it includes the build ID), and timings.json (stage durations)
# aside.
checked=0
for ((i = 0; i < n; i++)); do
  if [[ ${targets[i]} != sm_* ]]; then continue; fi
  ttir=${ttirs[i]}
  compile_args "$i"
  for b in in out; do
    bin=$in
    if [[ $b == out ]]; then bin=$out; fi
    rm -rf "$work/check.$b"
    if ! "$bin" "${args[@]}" --no-cache -o "$work/check.$b" \
      >/dev/null 2>"$work/check.$b.err"; then
      echo "bolt_kiln.sh: $b binary failed to compile $ttir:" >&2
      cat "$work/check.$b.err" >&2
      rm -f "$out"
      exit 1
    fi
    grep -v '"job_key"' "$work/check.$b/metadata.json" >"$work/check.$b.meta"
    rm "$work/check.$b/metadata.json" "$work/check.$b/timings.json"
  done
  if ! diff -r "$work/check.in" "$work/check.out" >&2 ||
    ! cmp "$work/check.in.meta" "$work/check.out.meta" >&2; then
    echo "bolt_kiln.sh: the laid-out binary's artifacts for $ttir differ" >&2
    rm -f "$out"
    exit 1
  fi
  checked=$((checked + 1))
  if ((checked == 3)); then break; fi
done
echo "bolt_kiln.sh: artifacts byte-identical for $checked kernels" >&2
