#!/usr/bin/env python3
"""What a kiln process costs outside kiln's own clock.

    python3 bench/process_overhead.py --kiln PATH [--corpus DIR]
        [--runs N] [--compiles N] [--kernels NAME ...]

Times, with Python's subprocess.run (wall time, milliseconds):

  /bin/true                 a process that does nothing (the floor)
  kiln compile --help       kiln's start-up, option parsing and exit
  kiln compile NAME.ttir    per kernel: wall time minus kiln's own "total"
    --no-cache              (the "in X ms" of its last line), i.e. process
                            start and exit around the compile

NAME.json beside NAME.ttir gives num_warps / num_stages, as in
bench/cold_compile_local.py; compiles target sm_90a with --ftz. Prints
medians and minimums. Runs without a GPU.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def wall_ms(cmd):
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    return (time.perf_counter() - start) * 1e3, proc


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kiln", default=os.path.join(REPO, "bazel-bin/tools/kiln/kiln"))
    ap.add_argument("--corpus", default=os.path.join(
        os.path.dirname(REPO), "shared", "corpus", "ttir"))
    ap.add_argument("--runs", type=int, default=60, help="runs of /bin/true and --help")
    ap.add_argument("--compiles", type=int, default=25, help="compiles per kernel")
    ap.add_argument("--kernels", nargs="*", default=["vadd_kernel", "softmax_kernel"])
    a = ap.parse_args()

    for name, cmd in (("/bin/true", ["/bin/true"]),
                      ("kiln compile --help", [a.kiln, "compile", "--help"])):
        samples = [wall_ms(cmd)[0] for _ in range(a.runs)]
        print("%-22s median %.2f  min %.2f ms" %
              (name, statistics.median(samples), min(samples)))

    out = tempfile.mkdtemp(prefix="kiln-overhead-")
    for kernel in a.kernels:
        path = os.path.join(a.corpus, kernel)
        try:
            with open(path + ".json") as f:
                meta = json.load(f)
        except OSError as e:
            sys.exit("cannot read %s.json: %s" % (path, e.strerror))
        walls, totals = [], []
        for _ in range(a.compiles):
            wall, proc = wall_ms([
                a.kiln, "compile", path + ".ttir", "--target", "sm_90a",
                "--num-warps", str(meta["num_warps"]),
                "--num-stages", str(meta["num_stages"]), "--ftz",
                "--no-cache", "-o", out])
            found = re.search(r" in ([\d.]+) ms \[", proc.stdout + proc.stderr)
            if proc.returncode != 0 or not found:
                sys.exit("kiln compile %s failed (exit %d):\n%s" %
                         (kernel, proc.returncode, proc.stderr.strip()))
            walls.append(wall)
            totals.append(float(found.group(1)))
        gaps = [w - t for w, t in zip(walls, totals)]
        print("%-22s wall median %.1f  kiln total %.1f  outside median %.2f  min %.2f ms" %
              (kernel, statistics.median(walls), statistics.median(totals),
               statistics.median(gaps), min(gaps)))


if __name__ == "__main__":
    main()
