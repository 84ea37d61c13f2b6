#!/usr/bin/env bash
# Builds the libFuzzer + AddressSanitizer binary of the TTIR parse entry
# point with clang-22 (Debian: clang-22 libclang-rt-22-dev) and runs it:
#
#   tools/fuzz/build_fuzzer.sh [SECONDS]      (default 300)
#
# Seeds: the shared corpus (../shared/corpus/ttir) and the lit tests. Crashes
# land in .kiln/fuzz/; copy each into test/fuzz/crashers/ so
# //test/fuzz:fuzz_regression_test keeps running it.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
seconds="${1:-300}"
prefix="${KILN_LLVM_PREFIX:-/usr/lib/llvm-22}"
clang="$prefix/bin/clang++"
[[ -x "$clang" ]] || { echo "build_fuzzer: $clang not found (apt-get install clang-22 libclang-rt-22-dev)" >&2; exit 1; }
bazel build //dialects/tt/IR:TTDialect >/dev/null
gen="$(bazel info bazel-bin 2>/dev/null)"
out=.kiln/fuzz
mkdir -p "$out/corpus" "$out/artifacts"
"$clang" -std=c++17 -O1 -g -fsanitize=fuzzer,address -DKILN_LIBFUZZER \
  -I . -I "$gen" -I "$prefix/include" \
  tools/fuzz/TTIRParseFuzzer.cpp dialects/tt/IR/TTDialect.cpp \
  dialects/tt/IR/TTOps.cpp dialects/tt/IR/TTCanonicalize.cpp \
  -L "$prefix/lib" -Wl,-rpath,"$prefix/lib" -lMLIR -lLLVM \
  -o "$out/ttir_parse_fuzzer"
seeds=("$out/corpus" test/dialects/tt test/fuzz/crashers)
[[ -d ../shared/corpus/ttir ]] && seeds+=(../shared/corpus/ttir)
# allow_user_poisoning=0: LLVM's BumpPtrAllocator poisons its free space in
# code inlined into this ASan-built binary, while libMLIR.so (not built with
# ASan) writes there; that reports a use-after-poison that is no bug (seen
# once on a bitcast of a tensor type, kept in test/fuzz/crashers).
ASAN_OPTIONS=detect_leaks=0:allow_user_poisoning=0 "$out/ttir_parse_fuzzer" "${seeds[@]}" \
  -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=4096 \
  -artifact_prefix="$out/artifacts/" -print_final_stats=1
