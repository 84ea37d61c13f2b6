#!/usr/bin/env python3
"""Triton's cold compile of one kernel, many times in one process, and the CPU
each compile ran on: how its time depends on where the process runs.

    python3 bench/triton_placement_probe.py FILE.ttir [--compiles N] [--cpus CPU,CPU,...]

FILE.json beside FILE.ttir gives num_warps / num_stages. With a CPU list this
process (and so Triton's ptxas child) runs on those CPUs only
(sched_setaffinity). Each compile is cold_compile_local.py's Triton cold compile (a fresh, empty
TRITON_CACHE_DIR, `triton.compile(FILE, target=GPUTarget("cuda", 90, 32),
options=...)`); one compile first, not counted. Prints the median, minimum and maximum wall time
(ms), then per compile "ms@CPU" (">CPU" where it ended on another), and
Triton's `cubin` (ptxas) and `llir` (LLVM) stage times from
triton.knobs.compilation.listener. A GPU is not needed.
"""
import argparse
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cold_compile_local import Triton, options_of, pin_to_cpus  # noqa: E402


def current_cpu():
    """The CPU this process last ran on (/proc/self/stat, field 39)."""
    with open("/proc/self/stat") as f:
        return int(f.read().rsplit(")", 1)[1].split()[36])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ttir", help="FILE.ttir, with FILE.json (num_warps, num_stages) beside it")
    ap.add_argument("--compiles", type=int, default=25, help="compiles counted (one more runs first)")
    ap.add_argument("--cpus", default="", help="comma-separated CPU numbers this process runs on")
    a = ap.parse_args()
    ttir, n, pin = a.ttir, a.compiles, a.cpus
    if not ttir.endswith(".ttir") or not os.path.isfile(ttir):
        ap.error(f"not a .ttir file: {ttir}")
    if not os.path.isfile(ttir[:-len(".ttir")] + ".json"):
        ap.error(f"no {os.path.basename(ttir)[:-5]}.json (num_warps, num_stages) beside {ttir}")
    if n < 1:
        ap.error(f"--compiles must be at least 1, got {n}")
    if pin:
        pin_to_cpus(ap, pin)
    work = tempfile.mkdtemp(prefix="placement-")
    triton = Triton(work)
    w, s = options_of(ttir)
    rows = []
    for i in range(n + 1):
        c0 = current_cpu()
        ms, _, stages = triton.compile(ttir, w, s)
        if i:
            rows.append((ms, c0, current_cpu(), stages))
    shutil.rmtree(work, ignore_errors=True)
    ws = sorted(r[0] for r in rows)
    print(f"pin={pin or 'none'} n={n} median {ws[len(ws) // 2]:.1f} min {ws[0]:.1f} max {ws[-1]:.1f}")
    print("   " + " ".join(f"{r[0]:.0f}@{r[1]}{'' if r[1] == r[2] else '>' + str(r[2])}" for r in rows))
    for stage in ("cubin", "llir"):
        print(f"   {stage}: " + " ".join(f"{r[3].get(stage, 0):.0f}" for r in rows))


if __name__ == "__main__":
    main()
