#!/usr/bin/env python3
"""How fast each CPU of this machine runs the same work, pinned there.

On the H200 machine (a KVM guest: 16 vCPUs, one thread per core) the
forty-seventh session found the vCPUs far from equal: ptxas on
softmax_kernel's PTX, pinned, took 19-20 ms on seven vCPUs and 26-28 ms on
the other nine on one machine; on another, this probe's Python loop took
130-150 ms on some and 200-260 ms on others, and which vCPUs were fast
changed within minutes (results/cpu_speed_h200_session47*.json). Triton's
in-process compile and its ptxas child, and kiln's process and its ptxas,
each run on whichever vCPU the scheduler picks: a large part of the spread
of a cold-compile comparison on that machine. This probe records the
machine's state beside such a run; `cold_compile_local.py --cpus LIST`
runs every compiler on the same CPUs.

    python3 bench/cpu_speed_probe.py [--ptx FILE.ptx] [--runs N] [--json OUT]
    python3 bench/cpu_speed_probe.py --print-group fastest   # e.g. "5,8,9,10,11,12,15"

Per CPU this process may run on (sched_getaffinity), pinned with
sched_setaffinity, `--runs` times each, the CPUs taken in turn:

  loop   a fixed Python loop (2,000,000 additions) in a child process
         pinned to the CPU: wall ms of the loop alone (the child times it)
  ptxas  with --ptx: `ptxas -arch=ARCH -O3 -o TMP.cubin FILE` pinned to the
         CPU, wall ms of the whole process (kiln's glibc tunables, as kiln
         runs it)

CPUs are grouped by the measure given with --group-by (ptxas if given,
else loop): sorted by median, a new group starts where the median rises
by more than --gap (default 10%) over the one before. Prints one line per
CPU and the groups; --print-group fastest|slowest prints only that
group's CPUs, comma-separated (the probe's table goes to stderr then).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

LOOP = (
    "import time\n"
    "t = time.perf_counter()\n"
    "s = 0\n"
    "for i in range(2000000):\n"
    "    s += i\n"
    "print((time.perf_counter() - t) * 1e3)\n"
)
TUNABLES = "glibc.malloc.hugetlb=1:glibc.malloc.top_pad=67108864"


def pinned(cpu):
    return lambda: os.sched_setaffinity(0, {cpu})


def loop_ms(cpu):
    out = subprocess.run([sys.executable, "-c", LOOP], preexec_fn=pinned(cpu),
                         capture_output=True, text=True, check=True)
    return float(out.stdout)


def ptxas_ms(cpu, ptxas, arch, ptx, cubin):
    env = dict(os.environ, GLIBC_TUNABLES=TUNABLES)
    t = time.perf_counter()
    done = subprocess.run([ptxas, f"-arch={arch}", "-O3", "-o", cubin, ptx], preexec_fn=pinned(cpu),
                          env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    ms = (time.perf_counter() - t) * 1e3
    if done.returncode != 0:
        raise SystemExit(f"cpu_speed_probe: ptxas failed on {ptx}:\n{done.stderr.strip()}")
    return ms


def groups_of(medians, gap):
    """CPUs sorted by median, split where a median exceeds the previous
    one by more than `gap` (a fraction)."""
    order = sorted(medians, key=medians.get)
    groups = [[order[0]]]
    for prev, cpu in zip(order, order[1:]):
        if medians[cpu] > medians[prev] * (1 + gap):
            groups.append([])
        groups[-1].append(cpu)
    return [sorted(g) for g in groups]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ptx", help="also time ptxas on this PTX file per CPU")
    ap.add_argument("--arch", default="sm_90a", help="ptxas -arch (default sm_90a)")
    ap.add_argument("--ptxas", default="ptxas", help="ptxas binary (default: ptxas on PATH)")
    ap.add_argument("--runs", type=int, default=5, help="runs per CPU and measure (median)")
    ap.add_argument("--gap", type=float, default=0.10, help="relative rise in median that starts a new group")
    ap.add_argument("--group-by", choices=("loop", "ptxas"), help="measure to group by (default ptxas with --ptx)")
    ap.add_argument("--json", help="write per-CPU samples and the groups to this file")
    ap.add_argument("--print-group", choices=("fastest", "slowest"),
                    help="print only this group's CPUs, comma-separated, on stdout")
    a = ap.parse_args()
    if a.runs < 1:
        ap.error(f"--runs must be at least 1, got {a.runs}")
    if a.ptx and not os.path.isfile(a.ptx):
        ap.error(f"--ptx: no such file: {a.ptx}")
    if a.group_by == "ptxas" and not a.ptx:
        ap.error("--group-by ptxas needs --ptx")
    group_by = a.group_by or ("ptxas" if a.ptx else "loop")
    log = sys.stderr if a.print_group else sys.stdout

    cpus = sorted(os.sched_getaffinity(0))
    samples = {c: {"loop": [], "ptxas": []} for c in cpus}
    with tempfile.TemporaryDirectory(prefix="cpu-speed-") as work:
        cubin = os.path.join(work, "probe.cubin")
        for _ in range(a.runs):
            for c in cpus:  # CPUs in turn: a slow minute hits them all alike
                samples[c]["loop"].append(loop_ms(c))
                if a.ptx:
                    samples[c]["ptxas"].append(ptxas_ms(c, a.ptxas, a.arch, a.ptx, cubin))
    med = {m: {c: statistics.median(samples[c][m]) for c in cpus if samples[c][m]} for m in ("loop", "ptxas")}
    groups = groups_of(med[group_by], a.gap)

    print(f"{len(cpus)} CPUs, {a.runs} runs each; medians, ms", file=log)
    for c in cpus:
        line = f"  cpu {c:3d}  loop {med['loop'][c]:7.2f}"
        if a.ptx:
            line += f"  ptxas {med['ptxas'][c]:7.2f}"
        print(line, file=log)
    for i, g in enumerate(groups):
        lo = min(med[group_by][c] for c in g)
        hi = max(med[group_by][c] for c in g)
        print(f"group {i + 1} by {group_by} ({lo:.2f}-{hi:.2f} ms): {','.join(map(str, g))}", file=log)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"cpus": cpus, "runs": a.runs, "group_by": group_by, "gap": a.gap,
                       "ptx": os.path.basename(a.ptx) if a.ptx else None,
                       "samples_ms": {str(c): samples[c] for c in cpus},
                       "groups": groups}, f, indent=1)
    if a.print_group:
        print(",".join(map(str, groups[0] if a.print_group == "fastest" else groups[-1])))


if __name__ == "__main__":
    main()
