#!/usr/bin/env bash
# run_gpu.sh: runs the runtime launch benchmark on the GPU machine, from the
# repository root, on a directory built by bench/runtime/build.sh:
#
#   bash bench/runtime/run_gpu.sh [BENCH_DIR]   (default .kiln/rtbench)
#
# Through the device tool: run with carry=[".kiln/rtbench"]. Logs go to
# $OUT (if set) as rtbench_*.log.
set -uo pipefail
dir="${1:-.kiln/rtbench}"
log="${OUT:-/tmp}"
b="$dir/launch_bench"
{
  echo "== device =="
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
  nvidia-smi | sed -n 3,4p
  echo "cpus: $(nproc), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
  uname -r
} 2>&1 | tee "$log/rtbench_device.log"
rc=0
echo "== 2. fresh-process first launch (5 processes) =="
"$b" --first-launch-spawn 5 "$dir/artifacts/vadd_kernel" 2>&1 | tee "$log/rtbench_first_launch.log" || rc=1
echo "== 1 + 3. steady-state launch overhead and hit-to-launch =="
"$b" --in-process "$dir/artifacts" --n 100000 --rounds 5 2>&1 | tee "$log/rtbench_in_process.log" || rc=1
exit $rc
