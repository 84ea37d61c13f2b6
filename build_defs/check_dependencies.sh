#!/usr/bin/env bash
# Checks that a component's sources include no forbidden headers and that its
# BUILD files depend on no forbidden labels (docs/ARCHITECTURE.md: cache/ and
# runtime/ include no MLIR or LLVM headers, so a deployment that only loads
# cached kernels links no compiler).
#
#   check_dependencies.sh NAME INCLUDE_DIRS DEP_REGEX FILE...
#     NAME          the component, for messages
#     INCLUDE_DIRS  `|`-separated include prefixes that must not appear
#                   (e.g. "mlir|llvm|llvm-c|clang")
#     DEP_REGEX     grep -E pattern of labels BUILD files must not mention
#     FILE...       the component's sources and BUILD files (at least 10)
set -euo pipefail
name="$1" includes="$2" deps="$3"
shift 3
status=0
count=0
for f in "$@"; do
  count=$((count + 1))
  if [[ "$(basename "$f")" == BUILD.bazel ]]; then
    if grep -nE "$deps" "$f"; then
      echo "FAIL: $f depends on a forbidden target ($deps)" >&2
      status=1
    fi
  elif grep -nE "^[[:space:]]*#[[:space:]]*include[[:space:]]*[<\"]($includes)/" "$f"; then
    echo "FAIL: $f includes a forbidden header ($includes)" >&2
    status=1
  fi
done
if [[ $count -lt 10 ]]; then
  echo "FAIL: expected the $name sources, got $count files" >&2
  exit 1
fi
echo "checked $count $name files: no $includes includes"
exit $status
