#!/usr/bin/env python3
"""ptxas wall time on given PTX files under several process environments.

kiln starts ptxas with glibc malloc tunables (pipelines/nvptx/PtxasProcess.cpp,
kPtxasTunables) chosen on the build machine. This measures, on whatever
machine it runs, what each tunable does to ptxas alone, so that the choice
can be checked where the benchmarks run (the GPU machine is a microVM whose
memory grows as it is touched):

    python3 bench/ptxas_env_probe.py [--ptxas PATH] [--repeats N] [--arch sm_90a]
        [--preload NAME=LIB ...] FILE.ptx ...

Each repeat runs every (file, variant) once (--variants picks some), in a rotating order, as a new
ptxas process (`ptxas -arch=ARCH -O3 -v -o TMP.cubin FILE`); prints min /
median / max wall ms per file and variant, and, with --json, every sample.
The cubins of all variants are compared byte for byte (a tunable must not
change the output). --preload NAME=LIB adds a variant NAME: kiln's
tunables with LIB LD_PRELOADed (another malloc, e.g. Debian's
libjemalloc.so.2 or libmimalloc.so.2, carried to the GPU machine).
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cold_compile_local import check_json_path  # noqa: E402

VARIANTS = {
    "plain": None,
    "kiln (hugetlb=1, top_pad=64M)": "glibc.malloc.hugetlb=1:glibc.malloc.top_pad=67108864",
    "hugetlb=1": "glibc.malloc.hugetlb=1",
    "top_pad=64M": "glibc.malloc.top_pad=67108864",
    "top_pad=16M": "glibc.malloc.top_pad=16777216",
    "thresholds trim 1G, mmap 32M + kiln's": (
        "glibc.malloc.hugetlb=1:glibc.malloc.top_pad=67108864"
        ":glibc.malloc.trim_threshold=1073741824:glibc.malloc.mmap_threshold=33554432"),
}
KILN_TUNABLES = VARIANTS["kiln (hugetlb=1, top_pad=64M)"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ptx", nargs="+")
    ap.add_argument("--ptxas", default=shutil.which("ptxas") or "ptxas")
    ap.add_argument("--arch", default="sm_90a")
    ap.add_argument("--repeats", type=int, default=10)
    ap.add_argument("--json")
    ap.add_argument("--variants", help="comma-separated variant names to run "
                    "(each matches the variant whose name starts with it; "
                    "default: all): e.g. plain,kiln")
    ap.add_argument("--preload", action="append", default=[], metavar="NAME=LIB",
                    help="add variant NAME: kiln's tunables with LIB in LD_PRELOAD")
    a = ap.parse_args()
    if a.repeats < 1:
        ap.error(f"--repeats must be at least 1, got {a.repeats}")
    ptxas = shutil.which(a.ptxas)
    if not ptxas:
        ap.error(f"ptxas not found or not executable: {a.ptxas}")
    a.ptxas = ptxas
    for f in a.ptx:
        if not os.path.isfile(f):
            ap.error(f"not a file: {f}")
    if a.json:
        check_json_path(ap, a.json)
    preloads = {}
    for spec in a.preload:
        name, sep, lib = spec.partition("=")
        if not sep or not name or not lib:
            ap.error(f"--preload takes NAME=LIB, got '{spec}'")
        if not os.path.isfile(lib):
            ap.error(f"--preload {name}: not a file: {lib}")
        if name in VARIANTS or name in preloads:
            ap.error(f"--preload: variant '{name}' given twice")
        preloads[name] = os.path.abspath(lib)
    variants = list(VARIANTS)
    if a.variants:
        variants = []
        for want in a.variants.split(","):
            found = [v for v in VARIANTS if v.startswith(want)]
            if len(found) != 1:
                ap.error(f"--variants: '{want}' matches {len(found)} of "
                         f"{', '.join(VARIANTS)}")
            variants += found
    variants += list(preloads)
    work = tempfile.mkdtemp(prefix="ptxas-env-")
    samples = {(f, v): [] for f in a.ptx for v in variants}
    cubins = {}
    base = {k: v for k, v in os.environ.items() if k != "GLIBC_TUNABLES"}
    try:
        keys = list(samples)
        for r in range(a.repeats + 1):  # the first round warms the page cache and is dropped
            for i in range(len(keys)):
                f, v = keys[(i + r) % len(keys)]
                env = dict(base)
                if v in preloads:
                    env["GLIBC_TUNABLES"] = KILN_TUNABLES
                    env["LD_PRELOAD"] = preloads[v]
                elif VARIANTS[v]:
                    env["GLIBC_TUNABLES"] = VARIANTS[v]
                out = os.path.join(work, "out.cubin")
                t0 = time.perf_counter()
                p = subprocess.run([a.ptxas, f"-arch={a.arch}", "-O3", "-v", "-o", out, f],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
                ms = (time.perf_counter() - t0) * 1e3
                if p.returncode != 0:
                    sys.exit(f"ptxas failed on {f} ({v}): {p.stderr.decode()[-400:]}")
                with open(out, "rb") as c:
                    blob = c.read()
                if cubins.setdefault(f, blob) != blob:
                    sys.exit(f"{f}: variant {v} produced a different cubin")
                if r > 0:
                    samples[(f, v)].append(ms)
        print(f"ptxas {a.ptxas}, -arch={a.arch} -O3, {a.repeats} repeats, {os.cpu_count()} CPUs; wall ms")
        print("| PTX | variant | min | median | max |\n|---|---|---|---|---|")
        for (f, v), xs in samples.items():
            print(f"| {f} | {v} | {min(xs):.1f} | {statistics.median(xs):.1f} | {max(xs):.1f} |")
        print("cubins identical across variants: yes")
        if a.json:
            with open(a.json, "w") as j:
                json.dump({"ptxas": a.ptxas, "arch": a.arch, "variants": VARIANTS,
                           "preloads": preloads,
                           "samples": [{"ptx": f, "variant": v, "wall_ms": xs}
                                       for (f, v), xs in samples.items()]}, j, indent=1)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
