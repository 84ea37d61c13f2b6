#!/usr/bin/env python3
"""What runs just before a cold compile, and how much it changes the time.

Triton's cold compile of one kernel took 55 ms in bench/side_by_side/run.py
(its repeats back to back in one process) and 70-90 ms in
bench/cold_compile_local.py (the compilers alternating) on the same kind of
machine. This measures one compile after each of several "neighbours", in
one process, rounds interleaved so that every neighbour sees the same
machine:

  triton-same     Triton compiled the same kernel just before (run.py's repeats)
  triton-other    Triton compiled another of the kernels just before
  kiln            a kiln process compiled the same kernel just before
                  (cold_compile_local.py's order)
  kiln-wait-exit  the same, kiln waiting for ptxas's exit (KILN_PTXAS_WAIT_EXIT=1)
  kiln-no-tunables the same, ptxas without kiln's glibc tunables
                  (GLIBC_TUNABLES=glibc.malloc.hugetlb=0:glibc.malloc.top_pad=131072)
  idle            50 ms asleep

and measured is a Triton cold compile (`triton.compile`, a fresh empty
TRITON_CACHE_DIR) and a kiln cold compile (`kiln compile --no-cache`, a new
process). Per neighbour it also records the change of /proc/vmstat's
compaction and transparent-huge-page counters over the rounds.

    python3 bench/cold_compile_neighbours.py --kiln PATH --ttir DIR --warmup FILE.ttir [--rounds N] [--json FILE]

DIR holds NAME.ttir with NAME.json (num_warps, num_stages) beside it, and a
warm-up kernel (--warmup FILE.ttir, compiled once by each compiler first).
"""
import argparse
import glob
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cold_compile_local import Triton, check_json_path, options_of  # noqa: E402

NEIGHBOURS = ("triton-same", "triton-other", "kiln", "kiln-wait-exit", "kiln-no-tunables", "idle")
VMSTAT = ("compact_stall", "compact_fail", "compact_success", "thp_fault_alloc", "thp_fault_fallback",
          "pgmajfault")


def vmstat():
    try:
        with open("/proc/vmstat") as f:
            d = dict(l.split() for l in f)
        return {k: int(d.get(k, 0)) for k in VMSTAT}
    except OSError:
        return {}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kiln", required=True)
    ap.add_argument("--ttir", required=True)
    ap.add_argument("--warmup", required=True)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--json")
    a = ap.parse_args()
    if not (os.path.isfile(a.kiln) and os.access(a.kiln, os.X_OK)):
        ap.error(f"--kiln: not an executable file: {a.kiln}")
    if not os.path.isdir(a.ttir):
        ap.error(f"--ttir: not a directory: {a.ttir}")
    if not [f for f in glob.glob(os.path.join(a.ttir, "*.ttir")) if os.path.isfile(f[:-5] + ".json")]:
        ap.error(f"--ttir {a.ttir}: no NAME.ttir with NAME.json beside it")
    if not (a.warmup.endswith(".ttir") and os.path.isfile(a.warmup) and os.path.isfile(a.warmup[:-5] + ".json")):
        ap.error(f"--warmup: not a .ttir file with its .json beside it: {a.warmup}")
    if a.rounds < 1:
        ap.error(f"--rounds must be at least 1, got {a.rounds}")
    if a.json:
        check_json_path(ap, a.json)

    work = tempfile.mkdtemp(prefix="neighbours-")
    triton = Triton(work)

    def triton_compile(ttir):
        return triton.compile(ttir, *options_of(ttir))[0]

    def kiln_compile(ttir, env=None):
        out = tempfile.mkdtemp(prefix="k-", dir=work)
        w, s = options_of(ttir)
        cmd = [a.kiln, "compile", ttir, "--target", "sm_90a", "--num-warps", str(w), "--num-stages", str(s),
               "--ftz", "--no-cache", "-o", out]
        t0 = time.perf_counter()
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                           env=dict(os.environ, **env) if env else None)
        ms = (time.perf_counter() - t0) * 1e3
        if p.returncode:
            raise RuntimeError(p.stderr[-400:])
        shutil.rmtree(out, ignore_errors=True)
        return ms

    kernels = sorted(f for f in glob.glob(os.path.join(a.ttir, "*.ttir")) if os.path.isfile(f[:-5] + ".json"))
    names = [os.path.basename(k)[:-5] for k in kernels]

    def neighbour(kind, i):
        k = kernels[i]
        if kind == "triton-same":
            triton_compile(k)
        elif kind == "triton-other":
            triton_compile(kernels[(i + 1) % len(kernels)])
        elif kind == "kiln":
            kiln_compile(k)
        elif kind == "kiln-wait-exit":
            kiln_compile(k, {"KILN_PTXAS_WAIT_EXIT": "1"})
        elif kind == "kiln-no-tunables":
            kiln_compile(k, {"GLIBC_TUNABLES": "glibc.malloc.hugetlb=0:glibc.malloc.top_pad=131072"})
        else:
            time.sleep(0.05)

    triton_compile(a.warmup)
    kiln_compile(a.warmup)
    samples = {n: {kind: {"triton": [], "kiln": []} for kind in NEIGHBOURS} for n in names}
    vm = {kind: {k: 0 for k in VMSTAT} for kind in NEIGHBOURS}
    for r in range(a.rounds):
        order = list(NEIGHBOURS[r % len(NEIGHBOURS):] + NEIGHBOURS[:r % len(NEIGHBOURS)])
        for kind in order:
            v0 = vmstat()
            for i, n in enumerate(names):
                for who in ("triton", "kiln"):
                    neighbour(kind, i)
                    ms = triton_compile(kernels[i]) if who == "triton" else kiln_compile(kernels[i])
                    samples[n][kind][who].append(ms)
            v1 = vmstat()
            for k in v1:
                vm[kind][k] += v1[k] - v0.get(k, 0)
        print(f"round {r + 1}/{a.rounds} done", flush=True)

    thp = {}
    for f in ("enabled", "defrag"):
        try:
            thp[f] = open(f"/sys/kernel/mm/transparent_hugepage/{f}").read().strip()
        except OSError:
            thp[f] = "?"
    print(f"THP {thp}")
    print(f"{'kernel':18} {'neighbour':17} {'Triton ms':>10} {'kiln ms':>8} {'kiln/Triton':>11}")
    for n in names:
        for kind in NEIGHBOURS:
            t = statistics.median(samples[n][kind]["triton"])
            k = statistics.median(samples[n][kind]["kiln"])
            print(f"{n[:18]:18} {kind:17} {t:10.1f} {k:8.1f} {k / t:11.3f}")
    print("vmstat deltas per neighbour:")
    for kind in NEIGHBOURS:
        print(f"  {kind:17} {vm[kind]}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"rounds": a.rounds, "thp": thp, "samples": samples, "vmstat": vm,
                       "triton": triton.triton.__version__}, f, indent=1)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
