#!/usr/bin/env bash
# single_flight.sh: N processes missing the same key at once -> 1 compile
# (issue 5 target; Triton 3.6 measured: 8 compiles for 8 processes).
#
#   bench/cache/single_flight.sh KILN TTIR [NUM_WARPS] [ROUNDS] [PROCS]
#
# Defaults: NUM_WARPS 16, ROUNDS 5, PROCS 8. Env: WORK (default a mktemp
# dir), NUM_STAGES (3).
#
# Per round: a new empty cache root; PROCS shells are started, each waits
# for a start file (polled every 1 ms) and then execs
#   KILN compile TTIR --num-warps W --num-stages S --cache-dir ROOT -o WORK/rN/oI
# Once all are waiting, the start file is created. Each process's wall time
# (start file seen -> exit; bash $EPOCHREALTIME) and its output line are
# recorded: a line with "cache hit" is a hit, any other line a compile. The
# round's compile count is also read from `kiln cache stat --json`
# (`compiles`, counted under flock by the processes that compiled), and
# the cubins written by all processes must be byte-identical. For a hit,
# "[waited N]" is kiln's timings.json "lookup" (ms from getOrCompile's start
# to the verified hit): about the compile's time for a process that blocked
# on the key's lock while another compiled, well under 1 ms for a plain hit.
# Round 0 is one process alone on an empty root, for the compile's own time.
set -euo pipefail
kiln="$(realpath "$1")"
ttir="$(realpath "$2")"
warps="${3:-16}"
rounds="${4:-5}"
procs="${5:-8}"
stages="${NUM_STAGES:-3}"
work="${WORK:-$(mktemp -d)}"
mkdir -p "$work"

stat_field() {
  "$kiln" cache stat --json --cache-dir "$1" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)[sys.argv[1]])' "$2" 2>/dev/null ||
    "$kiln" cache stat --json --cache-dir "$1" | tr -d ' \n' |
      sed -n "s/.*\"$2\":\([0-9]*\).*/\1/p"
}

echo "single_flight: $(nproc) CPUs, $(uname -n), kiln $kiln"
echo "single_flight: $procs processes x $rounds rounds, $(basename "$ttir") --num-warps $warps --num-stages $stages"
all_ok=1
for ((r = 0; r <= rounds; ++r)); do
  n=$procs
  ((r == 0)) && n=1
  rdir="$work/r$r"
  rm -rf "$rdir"
  mkdir -p "$rdir"
  croot="$rdir/cache"
  start="$rdir/start"
  pids=()
  for ((i = 0; i < n; ++i)); do
    (
      echo > "$rdir/ready$i"
      while [[ ! -e "$start" ]]; do sleep 0.001; done
      s=$EPOCHREALTIME
      rc=0
      "$kiln" compile "$ttir" --num-warps "$warps" --num-stages "$stages" \
        --cache-dir "$croot" -o "$rdir/o$i" > "$rdir/log$i" 2>&1 || rc=$?
      e=$EPOCHREALTIME
      echo "$s $e $rc" > "$rdir/time$i"
    ) &
    pids+=($!)
  done
  for ((i = 0; i < n; ++i)); do
    while [[ ! -e "$rdir/ready$i" ]]; do sleep 0.001; done
  done
  sleep 0.05
  t0=$EPOCHREALTIME
  touch "$start"
  for p in "${pids[@]}"; do wait "$p"; done
  t1=$EPOCHREALTIME

  hits=0; compiled=0; errors=0; walls=""
  for ((i = 0; i < n; ++i)); do
    read -r s e rc < "$rdir/time$i"
    w=$(awk -v s="$s" -v e="$e" -v t0="$t0" 'BEGIN {printf "%.0f(+%.0f)", (e - s) * 1000, (s - t0) * 1000}')
    if [[ "$rc" != 0 ]]; then
      errors=$((errors + 1)); walls+=" ERR:$w"
    elif grep -q "cache hit" "$rdir/log$i"; then
      # timings.json "lookup": getOrCompile's start -> verified hit, which
      # includes the wait on the key's lock while another process compiles.
      lk=$(tr -d ' \n' < "$rdir/o$i/timings.json" | sed -n 's/.*"lookup":\([0-9]*\).*/\1/p')
      w+=$(awk -v l="$lk" 'BEGIN {printf "[waited %.0f]", l / 1000}')
      hits=$((hits + 1)); walls+=" h:$w"
    else
      compiled=$((compiled + 1)); walls+=" C:$w"
    fi
  done
  counted=$(stat_field "$croot" compiles)
  statHits=$(stat_field "$croot" hits)
  distinct=$(sha256sum "$rdir"/o*/*.cubin | awk '{print $1}' | sort -u | wc -l)
  round_ms=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.0f", (b - a) * 1000}')
  label="round $r"
  ((r == 0)) && label="round 0 (1 process alone)"
  echo "$label: compiles $compiled (stats: compiles $counted, hits $statHits), hits $hits, errors $errors," \
    "distinct cubins $distinct, round wall ${round_ms} ms"
  echo "  per process: wall ms (+start after the start file, ms), C = compiled, h = hit:$walls"
  if ((r > 0)) && { [[ "$compiled" != 1 || "$counted" != 1 || "$errors" != 0 || "$distinct" != 1 ]]; }; then
    all_ok=0
  fi
done
if ((all_ok)); then
  echo "single_flight: every round of $procs processes compiled exactly once: met"
else
  echo "single_flight: some round compiled more or less than once, or failed: MISSED"
  exit 1
fi
