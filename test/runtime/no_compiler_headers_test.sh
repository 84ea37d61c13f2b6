#!/usr/bin/env bash
# runtime/ must include no MLIR or LLVM headers (docs/ARCHITECTURE.md): a
# deployment that only loads and launches kernels links no compiler.
# Checks every runtime source and BUILD file given as an argument (BUILD
# files must not depend on @llvm).
set -euo pipefail
status=0
count=0
for f in "$@"; do
  count=$((count + 1))
  if [[ "$(basename "$f")" == BUILD.bazel ]]; then
    if grep -n '@llvm' "$f"; then
      echo "FAIL: $f depends on @llvm" >&2
      status=1
    fi
  elif grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](mlir|llvm|llvm-c|clang)/' "$f"; then
    echo "FAIL: $f includes a compiler header" >&2
    status=1
  fi
done
if [[ $count -lt 10 ]]; then
  echo "FAIL: expected the runtime's sources, got $count files" >&2
  exit 1
fi
echo "checked $count runtime files: no mlir/llvm includes"
exit $status
