#!/usr/bin/env bash
# cache/ must include no MLIR or LLVM headers (docs/ARCHITECTURE.md): the
# runtime and deployments that only load cached kernels link no compiler.
# Checks every cache source and BUILD file given as an argument.
set -euo pipefail
status=0
count=0
for f in "$@"; do
  count=$((count + 1))
  if [[ "$(basename "$f")" == BUILD.bazel ]]; then
    if grep -n '@llvm\|//runtime\|//passes\|//pipelines\|//dialects' "$f"; then
      echo "FAIL: $f depends on the compiler or the runtime" >&2
      status=1
    fi
  elif grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](mlir|llvm|llvm-c|clang|runtime)/' "$f"; then
    echo "FAIL: $f includes a compiler or runtime header" >&2
    status=1
  fi
done
if [[ $count -lt 10 ]]; then
  echo "FAIL: expected the cache's sources, got $count files" >&2
  exit 1
fi
echo "checked $count cache files: no mlir/llvm/runtime includes"
exit $status
