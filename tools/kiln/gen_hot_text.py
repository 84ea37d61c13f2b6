#!/usr/bin/env python3
"""Regenerates tools/kiln/hot_text.syms.xz: the functions a `kiln compile`
executes, which the portable link places together (see BUILD.bazel).

Page faults were 28% of the kiln process's samples in cold compiles of
vadd (build machine, `perf record`), and at exit the process had 8482 of
the 11318 pages of its text mapped: the functions one compile runs, its
static initializers among them, are spread over the 46 MB of LLVM and MLIR
text, and each fault maps 64 KB around the page. The link puts the listed
functions, and every static initializer, in one range instead (3238 pages
mapped at exit).

Usage (build machine; needs valgrind, xz and an opt build with symbols):

    bazel build -c opt --config=portable //tools/kiln:kiln
    python3 tools/kiln/gen_hot_text.py \
        --kiln bazel-out/k8-opt/bin/tools/kiln/kiln \
        --corpus ../shared/corpus/ttir

It runs each listed corpus kernel's cold compile (`--no-cache`) and one
cache miss then hit under callgrind (a copy of the binary without its DWARF,
which valgrind 3.19 cannot read), collects every function callgrind saw run
(mangled), and writes them sorted, one per line, xz-compressed. A name that
later disappears from the build costs nothing; a function missing from the
list is linked where it would have been without it.
"""
import argparse
import glob
import json
import lzma
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
# One kernel per kind of code path: elementwise, libdevice math and
# reductions, wgmma K loops with descriptors, attention, masked convolution,
# mma.sync (sm_90).
KERNELS = [
    ("vadd_kernel", "sm_90a"),
    ("layernorm_kernel", "sm_90a"),
    ("softmax_kernel", "sm_90a"),
    ("triton_mm_persistent_tma.7DSBSCPL", "sm_90a"),
    ("triton_tem_fused_flex_attention_0", "sm_90a"),
    ("triton_convolution2d.3GUSOR52", "sm_90a"),
    ("triton_mm.23UYYZPC", "sm_90"),
]
FN_LINE = re.compile(r"^c?fn=\((\d+)\)(?: (.*))?$")
SYMBOL = re.compile(r"^[A-Za-z_][A-Za-z0-9_.$]*$")


def executed_functions(profile):
    """Names of the functions in a callgrind output file (fn= and cfn=)."""
    names = set()
    with open(profile, errors="replace") as f:
        for line in f:
            m = FN_LINE.match(line.rstrip("\n"))
            if m and m.group(2):
                names.add(m.group(2))
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kiln", required=True,
                    help="kiln built with -c opt --config=portable, not stripped")
    ap.add_argument("--corpus", required=True, help="folder of .ttir + .json")
    ap.add_argument("--out", default=os.path.join(HERE, "hot_text.syms.xz"))
    a = ap.parse_args()
    for tool in ("valgrind", "strip"):
        if not shutil.which(tool):
            sys.exit(f"gen_hot_text: {tool} not found on PATH")
    work = tempfile.mkdtemp(prefix="kiln-hot-text-")
    binary = os.path.join(work, "kiln")
    shutil.copy(a.kiln, binary)
    os.chmod(binary, 0o755)
    subprocess.run(["strip", "--strip-debug", binary], check=True)

    names = set()

    def profile(tag, args):
        out = os.path.join(work, tag + ".callgrind")
        r = subprocess.run(["valgrind", "--tool=callgrind", "--demangle=no",
                            "--callgrind-out-file=" + out, binary] + args,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           text=True)
        if r.returncode != 0:
            sys.exit(f"gen_hot_text: kiln failed on {tag}:\n{r.stderr[-2000:]}")
        found = executed_functions(out)
        print(f"{tag}: {len(found)} functions")
        names.update(found)

    for stem, target in KERNELS:
        matches = sorted(glob.glob(os.path.join(a.corpus, stem + "*.ttir")))
        if not matches:
            sys.exit(f"gen_hot_text: no {stem}*.ttir in {a.corpus}")
        ttir = matches[0]
        with open(ttir[:-len(".ttir")] + ".json") as f:
            opts = json.load(f)
        args = ["compile", ttir, "--target", target, "--ftz",
                "--num-warps", str(opts["num_warps"]),
                "--num-stages", str(opts["num_stages"]),
                "-o", os.path.join(work, "out", stem)]
        profile(stem, args + ["--no-cache"])
        if stem == "vadd_kernel":
            cache = ["--cache-dir", os.path.join(work, "cache")]
            profile("vadd_miss", args + cache)
            profile("vadd_hit", args + cache)

    symbols = sorted(n for n in names if SYMBOL.match(n))
    with lzma.open(a.out, "wt", preset=9) as f:
        f.write("\n".join(symbols) + "\n")
    print(f"{len(symbols)} functions -> {a.out}")
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
