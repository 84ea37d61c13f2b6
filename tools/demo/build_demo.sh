#!/usr/bin/env bash
# build_demo.sh: builds kiln-demo without Bazel into one self-contained
# directory to carry to the GPU machine (x86-64 Linux with an NVIDIA driver;
# glibc at least this machine's), together with the kernels kiln compiled.
# No CUDA toolkit, libcrypto or libstdc++ is needed there: libstdc++/libgcc
# (and libcrypto, when libcrypto.a exists) are linked statically, and
# libcuda.so.1 is loaded at run time. Same approach as
# test/runtime/build_gpu_test.sh.
#
#   tools/demo/build_demo.sh OUT_DIR [ARTIFACTS_DIR]
#
# ARTIFACTS_DIR (default .kiln/demo, written by `./kilnw demo`) must hold
# vadd_kernel/, softmax_kernel/ and layernorm_kernel/. OUT_DIR then holds:
#   kiln-demo                 tools/demo/KilnDemo.cpp + Reference.cpp + runtime/
#   artifacts/<kernel>/       the three kiln-kernel/1 artifact dirs (metadata.json, cubin, PTX, ...)
#   run.sh                    runs ./kiln-demo artifacts
# On the GPU machine: OUT_DIR/kiln-demo OUT_DIR/artifacts (or OUT_DIR/run.sh).
# Needs here: g++ (C++17), libssl-dev, nlohmann-json3-dev.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
[[ $# -ge 1 && $# -le 2 ]] || { echo "usage: $0 OUT_DIR [ARTIFACTS_DIR]" >&2; exit 2; }
out="$1"
artifacts="${2:-$root/.kiln/demo}"
kernels=(vadd_kernel softmax_kernel layernorm_kernel)

for k in "${kernels[@]}"; do
  if [[ ! -f "$artifacts/$k/metadata.json" ]]; then
    echo "build_demo.sh: no compiled $k in $artifacts (run ./kilnw demo first," \
      "or pass the directory kiln compile wrote to)" >&2
    exit 1
  fi
done

mkdir -p "$out"
cd "$root"
runtime_srcs=(runtime/*.cpp runtime/cuda/*.cpp runtime/hip/*.cpp)
cxx=(g++ -std=c++17 -O2 -g -Wall -Wno-unused-parameter -I"$root")
crypto=(-lcrypto)
libcrypto_a="$(g++ -print-file-name=libcrypto.a)"
if [[ "$libcrypto_a" == /* && -f "$libcrypto_a" ]]; then
  crypto=(-Wl,-Bstatic -lcrypto -Wl,-Bdynamic)
else
  echo "build_demo.sh: no libcrypto.a: linking libcrypto dynamically (the GPU machine then needs libcrypto.so.3)"
fi

echo "build_demo.sh: g++ kiln-demo -> $out/kiln-demo"
"${cxx[@]}" -o "$out/kiln-demo" tools/demo/KilnDemo.cpp tools/demo/Reference.cpp \
  "${runtime_srcs[@]}" "${crypto[@]}" -ldl -lpthread -static-libstdc++ -static-libgcc

rm -rf "$out/artifacts"
mkdir -p "$out/artifacts"
for k in "${kernels[@]}"; do
  cp -R "$artifacts/$k" "$out/artifacts/$k"
  echo "build_demo.sh: artifacts/$k <- $artifacts/$k"
done

cat >"$out/run.sh" <<'RUN'
#!/usr/bin/env bash
# Runs kiln-demo on the kernels in artifacts/ (from this directory).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
exec ./kiln-demo "$@" artifacts
RUN
chmod +x "$out/run.sh"
echo "build_demo.sh: dynamic dependencies of kiln-demo:"
ldd "$out/kiln-demo" | sed 's/^/  /'
echo "build_demo.sh: done: $out (on the GPU machine: $out/kiln-demo $out/artifacts, or $out/run.sh)"
