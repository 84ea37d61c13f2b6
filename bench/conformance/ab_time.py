#!/usr/bin/env python3
"""Kernel time of several kiln builds of the same TTIR files against
Triton 3.6, interleaved in one process per file (GPU machine).

    python3 ab_time.py --runtime-lib LIB --ttir DIR [DIR...] \
        --build NAME=ARTIFACT_DIR [--build NAME=ARTIFACT_DIR ...] \
        [--rounds 3] [--only K1,K2] [--grid X,Y,Z] [--json out.json]

For each TTIR file, in a fresh process (a kernel that faults cannot take
the other files down): Triton compiles the file with its JSON's num_warps /
num_stages and runs once on conformance.py's inputs (same seed, grid and
scalars); every build's artifact runs on a copy of the same inputs and is
compared with Triton's output buffers (conformance.py's compare). Then
`rounds` rounds time every build that matched, and Triton, one after the
other in the round (triton.testing.do_bench: warm-up, L2 cleared between
repeats, median of the repeats, ms), so that clock and thermal drift fall
on all of them alike instead of on whichever ran last; each round starts
one entry later than the one before, so that no build is always first.

Prints one line per file: each build's and Triton's median over the
rounds in us, and "MISMATCH" / the error for builds that did not match.
The JSON has every round's figure.

--grid X,Y,Z launches every file on that grid instead of conformance.py's
(conformance.default_config: 8 x 8 x 1 for kernels that read their program
id along y, as most generated kernels do, 8 x 1 x 1 for the others): one
program (1,1,1) checks kernels
whose programs write overlapping output rows on the default grid, where
the last writer decides each row and no two runs need agree.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import conformance as cf  # noqa: E402  (torch, triton, the kiln runtime wrapper)


def run_file(a, ttir, builds):
    """One file, all builds: a dict for the JSON."""
    from triton.testing import do_bench
    name = os.path.basename(ttir)[:-5]
    row = {"kernel": name, "builds": {}}
    opts = json.load(open(ttir[:-5] + ".json"))
    kiln = cf.Kiln(a.runtime_lib)
    cf.triton.set_allocator(cf.triton_scratch)
    tk = cf.triton.compile(ttir, target=cf.GPUTarget("cuda", 90, 32),
                           options={"num_warps": opts["num_warps"],
                                    "num_stages": opts["num_stages"]})
    with open(ttir) as f:
        tf32 = cf.has_tf32_dots(f.read())
    sig = None
    for bname, bdir in builds:
        meta_path = os.path.join(bdir, name, "metadata.json")
        if os.path.exists(meta_path):
            meta = json.load(open(meta_path))
            sig, kernel_name = meta["signature"], meta["kernel"]
            break
    if sig is None:
        row["error"] = "no build has an artifact"
        return row
    with open(ttir) as f:
        config = cf.launch_config(kernel_name, f.read(), False)
    grid = tuple(a.grid) if a.grid else config["grid"]
    inputs = cf.make_inputs(sig, config, seed=1234)
    theirs = [v.clone() if cf.torch.is_tensor(v) else v for v in inputs]
    tk[grid](*theirs)
    cf.torch.cuda.synchronize()
    timed = []  # (name, callable)
    for bname, bdir in builds:
        b = row["builds"][bname] = {"matched": False}
        try:
            k = kiln.open(os.path.join(bdir, name))
            ours = [v.clone() if cf.torch.is_tensor(v) else v for v in inputs]
            packed = cf.Kiln.pack(sig, ours)
            kiln.launch(k, grid, packed)
            cf.torch.cuda.synchronize()
            matched, worst = True, 0.0
            buffers = {}
            for s, x, y, before in zip(sig, ours, theirs, inputs):
                if cf.torch.is_tensor(x):
                    ok, err, detail = cf.compare(x, y, before, tf32)
                    matched &= ok
                    worst = max(worst, float(err))
                    buffers[s["name"]] = dict(detail, error=err)
            b.update(matched=matched, worst_error=worst, buffers=buffers, ms=[])
            if matched:
                # `packed` holds raw device pointers: the lambda keeps
                # `ours` alive too, or the next build's loop iteration frees
                # these buffers and the timed launches write freed memory.
                timed.append((bname, (lambda k=k, p=packed, o=ours: kiln.launch(k, grid, p))))
        except Exception as e:  # report and go on with the other builds
            b["error"] = f"{type(e).__name__}: {e}"
            traceback.print_exc(file=sys.stderr)
    row["triton_ms"] = []
    timed.append(("triton", lambda: tk[grid](*theirs)))
    # Each round starts one entry later (round r runs timed[r:] then
    # timed[:r]): the first entry of a round measured 2-3% slower than the
    # same cubin later in it (session 33, identical triton_mm.EG4LHGP4,
    # LM3RT5B5 and convolution cubins as two builds), so no build keeps
    # the first place.
    for r in range(a.rounds):
        r %= len(timed)
        for bname, fn in timed[r:] + timed[:r]:
            ms = do_bench(fn, warmup=10, rep=60)
            (row["triton_ms"] if bname == "triton" else row["builds"][bname]["ms"]).append(ms)
    return row


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ttir", required=True, nargs="+", help="directories of NAME.ttir + NAME.json")
    p.add_argument("--build", required=True, action="append",
                   help="NAME=DIR: a kiln build's artifacts (DIR/<kernel>/metadata.json, .cubin)")
    p.add_argument("--runtime-lib", required=True)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--only", default="", help="comma-separated kernel names")
    p.add_argument("--json")
    p.add_argument("--grid", type=lambda v: [int(x) for x in v.split(",")],
                   help="X,Y,Z: launch on this grid instead of conformance.py's")
    p.add_argument("--one", help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.grid and (len(a.grid) != 3 or min(a.grid) < 1):
        p.error(f"--grid: want three positive sizes X,Y,Z, got {a.grid}")
    builds = []
    for b in a.build:
        if "=" not in b:
            p.error(f"--build {b!r}: want NAME=DIR")
        n, d = b.split("=", 1)
        builds.append((n, d))
    if a.one:
        try:
            row = run_file(a, a.one, builds)
        except Exception as e:
            row = {"kernel": os.path.basename(a.one)[:-5], "error": f"{type(e).__name__}: {e}"}
            traceback.print_exc(file=sys.stderr)
        print(json.dumps(row), flush=True)
        return
    files = sorted(os.path.join(d, f) for d in a.ttir for f in os.listdir(d)
                   if f.endswith(".ttir"))
    if a.only:
        wanted = set(a.only.split(","))
        files = [f for f in files if os.path.basename(f)[:-5] in wanted]
    rows = []
    names = [n for n, _ in builds]
    print(f"{'kernel':52s} " + " ".join(f"{n:>10s}" for n in names + ["triton"]) + "   (us, median of rounds)")
    for path in files:
        cmd = [sys.executable, os.path.abspath(__file__), "--one", path,
               "--runtime-lib", a.runtime_lib, "--rounds", str(a.rounds), "--ttir", *a.ttir]
        if a.grid:
            cmd += ["--grid", ",".join(map(str, a.grid))]
        for b in a.build:
            cmd += ["--build", b]
        name = os.path.basename(path)[:-5]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
            sys.stderr.write(proc.stderr)
            row = next((json.loads(l) for l in proc.stdout.splitlines() if l.startswith("{")),
                       {"kernel": name, "error": f"process exited with {proc.returncode}"})
        except subprocess.TimeoutExpired:
            row = {"kernel": name, "error": "timed out after 300 s"}
        rows.append(row)
        cells = []
        for n in names:
            b = row.get("builds", {}).get(n, {})
            if b.get("ms"):
                cells.append(f"{statistics.median(b['ms']) * 1e3:10.2f}")
            else:
                cells.append(f"{'MISMATCH' if 'matched' in b and 'error' not in b else 'ERROR':>10s}")
        tri = row.get("triton_ms")
        cells.append(f"{statistics.median(tri) * 1e3:10.2f}" if tri else f"{'-':>10s}")
        print(f"{name[:52]:52s} " + " ".join(cells) + (f"  {row['error']}" if "error" in row else ""),
              flush=True)
        if a.json:
            json.dump({"builds": names, "rounds": a.rounds, "rows": rows}, open(a.json, "w"), indent=1)


if __name__ == "__main__":
    main()
