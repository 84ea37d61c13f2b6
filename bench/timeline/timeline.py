"""Where a `kiln compile` process's wall time goes, kiln's and its ptxas's
events side by side (bench/timeline/README.md).

    gcc -O2 -shared -fPIC -o TL.so bench/timeline/timeline.c -ldl
    python3 bench/timeline/timeline.py --preload TL.so --kiln KILN \\
        --ttir FILE --num-warps W [--rounds N] [--variant NAME=VAR=VALUE,...]

Each round runs `kiln compile FILE --target sm_90a --num-warps W
--num-stages 3 --ftz --no-cache --timings` once per variant (the variants
interleaved; `base` always, with the environment as it is), and prints per
variant the medians of each event's time from the spawn, the wall time to
the parent's wait, and kiln's own total, ptxas stage and ptxas start-up
wait from timings.json.
"""
import argparse
import collections
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

EVENTS = ["kiln:ctor", "kiln:main", "kiln:execve", "ptxas:main",
          "ptxas:fopen-ptx#1", "kiln:ptx-ready", "ptxas:fopen-ptx#2",
          "ptxas:fopen-cubin", "kiln:_Exit"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--preload", required=True)
    parser.add_argument("--kiln", required=True)
    parser.add_argument("--ttir", required=True)
    parser.add_argument("--num-warps", default="4")
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--variant", action="append", default=[],
                        help="NAME=VAR=VALUE[,VAR=VALUE...]")
    args = parser.parse_args()
    for flag, path in (("--preload", args.preload), ("--ttir", args.ttir)):
        if not os.path.isfile(path):
            parser.error(f"{flag}: not a file: {path}")
    if not (os.path.isfile(args.kiln) and os.access(args.kiln, os.X_OK)):
        parser.error(f"--kiln: not an executable file: {args.kiln}")
    if args.rounds < 1:
        parser.error(f"--rounds must be at least 1, got {args.rounds}")
    variants = {"base": {}}
    for spec in args.variant:
        name, _, assignments = spec.partition("=")
        pairs = [a.partition("=") for a in assignments.split(",")]
        if not name or not assignments or any(not k or not eq
                                              for k, eq, _ in pairs):
            parser.error(f"--variant takes NAME=VAR=VALUE[,VAR=VALUE...], "
                         f"got '{spec}'")
        if name in variants:
            parser.error(f"--variant: '{name}' given twice")
        variants[name] = {k: v for k, _, v in pairs}
    work = tempfile.mkdtemp()
    log, out = os.path.join(work, "events"), os.path.join(work, "out")
    events = {v: collections.defaultdict(list) for v in variants}
    walls = {v: [] for v in variants}
    stages = {v: collections.defaultdict(list) for v in variants}
    try:
        run_rounds(args, variants, log, out, events, walls, stages)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    report(args, variants, events, walls, stages)


def run_rounds(args, variants, log, out, events, walls, stages):
    for _ in range(args.rounds):
        for name, extra in variants.items():
            if os.path.exists(log):
                os.unlink(log)
            t0 = time.monotonic() * 1e3
            env = dict(os.environ, TL_LOG=log, TL_T0="%.3f" % t0,
                       LD_PRELOAD=os.path.abspath(args.preload), **extra)
            done = subprocess.run(
                [args.kiln, "compile", args.ttir, "--target", "sm_90a",
                 "--num-warps", args.num_warps, "--num-stages", "3", "--ftz",
                 "--no-cache", "--timings", "-o", out], env=env,
                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            walls[name].append(time.monotonic() * 1e3 - t0)
            if done.returncode != 0:
                sys.exit(f"timeline.py: error: variant {name}: kiln compile "
                         f"exited with status {done.returncode}: "
                         f"{done.stderr.strip()[-400:]}")
            try:
                with open(os.path.join(out, "timings.json")) as f:
                    timings = json.load(f)
            except (OSError, ValueError) as err:
                sys.exit(f"timeline.py: error: variant {name}: no timings "
                         f"from kiln compile ({err})")
            if not os.path.exists(log):
                sys.exit(f"timeline.py: error: variant {name}: no events "
                         f"logged: is {args.preload} timeline.c's library, "
                         f"and kiln linked to glibc dynamically?")
            seen = collections.Counter()
            for line in open(log):
                process, event, ms = line.split()
                key = f"{process}:{event}"
                seen[key] += 1
                if event == "fopen-ptx":
                    key += f"#{seen[key]}"
                elif seen[key] > 1:
                    continue
                events[name][key].append(float(ms))
            for key in ("total", "ptxas", "ptxas_start_wait"):
                stages[name][key].append(timings.get(key, 0) / 1e3)
            shutil.rmtree(out, ignore_errors=True)


def report(args, variants, events, walls, stages):
    def median(values):
        return statistics.median(values) if values else float("nan")

    print(f"{os.path.basename(args.ttir)}, {args.num_warps} warps, "
          f"{args.rounds} rounds; medians, ms from the spawn")
    # k. = kiln's event, p. = ptxas's.
    header = ["variant", "wall"] + \
        [e.replace("kiln:", "k.").replace("ptxas:", "p.") for e in EVENTS] + \
        ["total", "ptxas", "wait"]
    print(" ".join(f"{h[:11]:>11}" for h in header))
    for name in variants:
        row = [name, f"{median(walls[name]):.2f}"]
        row += [f"{median(events[name].get(e, [])):.2f}" for e in EVENTS]
        row += [f"{median(stages[name][k]):.2f}"
                for k in ("total", "ptxas", "ptxas_start_wait")]
        print(" ".join(f"{c[:11]:>11}" for c in row))


if __name__ == "__main__":
    main()
