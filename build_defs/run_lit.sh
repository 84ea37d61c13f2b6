#!/usr/bin/env bash
# Runs one lit suite under `bazel test`. Arguments: kiln tools (their
# directories go on PATH) and NAME=FILE pairs (exported as absolute paths),
# then `--` and the package holding the suite's lit.cfg.py. Results go to the
# JUnit XML Bazel asks for (XML_OUTPUT_FILE), one testcase per lit test,
# which is what ./kilnw counts.
set -euo pipefail
tools_path=""
while [[ $# -gt 0 && "$1" != "--" ]]; do
  case "$1" in
    *=*)
      name="${1%%=*}"
      file="${1#*=}"
      export "$name=$(cd "$(dirname "$file")" && pwd)/$(basename "$file")"
      ;;
    *)
      tools_path="$tools_path:$(cd "$(dirname "$1")" && pwd)"
      ;;
  esac
  shift
done
shift
suite_dir="$1"
llvm_bin="$(cd ../llvm/bin && pwd)"
export PATH="${tools_path#:}:$llvm_bin:$PATH"
# The shared corpus sits beside the repo (CI and developers keep shared/
# there); ./kilnw passes KILN_SOURCE_ROOT or KILN_CORPUS_DIR.
if [[ -z "${KILN_CORPUS_DIR:-}" && -n "${KILN_SOURCE_ROOT:-}" ]]; then
  export KILN_CORPUS_DIR="$KILN_SOURCE_ROOT/../shared/corpus"
fi
xml_args=()
if [[ -n "${XML_OUTPUT_FILE:-}" ]]; then
  xml_args=(--xunit-xml-output "$XML_OUTPUT_FILE")
fi
exec python3 "$llvm_bin/lit" -v "${xml_args[@]}" "$suite_dir"
