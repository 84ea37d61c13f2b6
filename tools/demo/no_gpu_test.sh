#!/usr/bin/env bash
# kiln-demo with no loadable CUDA driver: prints the "no CUDA GPU" line
# naming the reason and the artifacts directory, exits 0. Also: bad usage
# exits 2.
set -euo pipefail
demo="$1"
dir="${TEST_TMPDIR:-/tmp}/artifacts"
mkdir -p "$dir"

status=0
out="$("$demo" --cuda-library /nonexistent/libcuda.so.1 "$dir" 2>&1)" || status=$?
echo "$out"
[[ "$status" -eq 0 ]] || { echo "FAIL: exit status $status, want 0"; exit 1; }
grep -q "^demo: no CUDA GPU here (driver_unavailable: .*/nonexistent/libcuda.so.1.*); compiled kernels are in $dir\$" <<<"$out" ||
  { echo "FAIL: no 'demo: no CUDA GPU here (...)' line"; exit 1; }

status=0
"$demo" >/dev/null 2>&1 || status=$?
[[ "$status" -eq 2 ]] || { echo "FAIL: no arguments: exit status $status, want 2"; exit 1; }
echo PASS
