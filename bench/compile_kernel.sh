# Sourced by bench/prepare_gpu_round.sh and bench/prepare_fast_compile_round.sh
# (bash, from the repository root): the one way a GPU round's kernels are
# compiled here.

# Builds kiln (fastbuild) and prints the binary's path. `bazel-bin` follows
# the last build's configuration, so the path comes from `bazel info`.
kiln_binary() {
  bazel build //tools/kiln:kiln >/dev/null || return
  echo "$(bazel info bazel-bin 2>/dev/null)/tools/kiln/kiln"
}

# kiln_compile_kernel KILN FILE.ttir DEST [KILN_ARG...]
# Compiles FILE.ttir with the num_warps / num_stages of FILE.json beside it,
# `--target ${KILN_GPU_TARGET:-sm_90a} --ftz` (Triton's defaults on the H200:
# sm_90a, enable_reflect_ftz) and the extra arguments, into DEST. Writes
# DEST/compile.log and DEST/status.txt ("compiled", or "parsed; not
# compiled: " and kiln's first error line); returns kiln's exit status.
kiln_compile_kernel() {
  local kiln="$1" ttir="$2" dest="$3" w s
  shift 3
  read -r w s < <(python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print(j['num_warps'], j['num_stages'])" "${ttir%.ttir}.json")
  mkdir -p "$dest"
  if "$kiln" compile "$ttir" --target "${KILN_GPU_TARGET:-sm_90a}" --num-warps "$w" --num-stages "$s" --ftz \
      "$@" -o "$dest" > "$dest/compile.log" 2>&1; then
    echo compiled > "$dest/status.txt"
  else
    local status=$?
    echo "parsed; not compiled: $(grep -m1 error "$dest/compile.log" | cut -c1-200)" > "$dest/status.txt"
    return "$status"
  fi
}
