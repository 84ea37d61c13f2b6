"""Compiles one kernel under a range of address-space limits (`ulimit -v`)
and sorts every outcome; used by out-of-memory.test.

    memory_limit_sweep.py KILN INPUT WORKDIR [KILN ARGS...]

The limits start a little above what `kiln compile` has mapped once it
runs (measured while it waits on an empty stdin), so that every run gets
past the loader and the static constructors, and go up in steps until
three compiles in a row succeed. Each run gets a TMPDIR of its own and
writes into the same output directory. An outcome is one of:
  ok           exit 0;
  oom-error    exit 1 with "out of memory" on stderr;
  ptxas-error  exit 1 with ptxas's own failure (ptxas runs under the limit
               too);
  oom-fault    ended by a signal, with kiln's "out of memory, most likely";
a failure that says "out of memory" on more than one line (two threads
reporting), and anything else, is reported as UNEXPECTED with its exit status and stderr.
Whatever the outcome, TMPDIR must be empty and the output directory must
hold no kiln staging folder. Prints one line per run and a summary.
"""

import os
import resource
import subprocess
import sys
import time

# KILN_SWEEP_STEP_MIB: a coarser step, for kernels that need hundreds of MiB.
STEP = int(os.environ.get("KILN_SWEEP_STEP_MIB", "1")) << 20
FIRST = 1 << 20
MOST = 120
# KILN_SWEEP_FROM_MIB: the first limit's distance above the mapping at
# start (default 1); KILN_SWEEP_REPEATS: runs per limit (default 1).
FIRST = int(os.environ.get("KILN_SWEEP_FROM_MIB", "1")) << 20
REPEATS = int(os.environ.get("KILN_SWEEP_REPEATS", "1"))


def mapped_at_start(kiln):
    process = subprocess.Popen([kiln, "compile", "-", "--no-cache", "-o",
                                os.devnull], stdin=subprocess.PIPE,
                               stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    try:
        size = 0
        for _ in range(100):
            time.sleep(0.05)
            with open(f"/proc/{process.pid}/status") as status:
                fields = dict(line.split(":", 1) for line in status)
            size = int(fields["VmSize"].split()[0]) << 10
            if fields["State"].split()[0] == "S" and size > 0:
                break
        return size
    finally:
        process.kill()
        process.wait()


def main():
    kiln, source, work = sys.argv[1], sys.argv[2], sys.argv[3]
    extra = sys.argv[4:]
    base = mapped_at_start(kiln)
    out = os.path.join(work, "out")
    counts = {}
    unexpected = 0
    in_a_row = 0
    for run_index in range(MOST * REPEATS):
        limit = base + FIRST + (run_index // REPEATS) * STEP
        tmp = os.path.join(work, f"tmp-{run_index}")
        os.makedirs(tmp)

        def limited():
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

        run = subprocess.run([kiln, "compile", source, "--no-cache", "-o", out]
                             + extra, preexec_fn=limited,
                             env=dict(os.environ, TMPDIR=tmp),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, errors="replace")
        err = run.stderr
        # One thread reports; the others wait for the end (helper-86: an
        # out-of-memory error and a fault's "most likely" line, interleaved,
        # and exit status 139).
        reports = sum(1 for line in err.splitlines() if "out of memory" in line)
        if run.returncode != 0 and reports > 1:
            kind = "UNEXPECTED"
        elif run.returncode == 0:
            kind = "ok"
        elif run.returncode == 1 and "out of memory" in err:
            kind = "oom-error"
        elif run.returncode == 1 and "ptxas" in err:
            kind = "ptxas-error"
        elif run.returncode < 0 and "out of memory, most likely" in err:
            kind = "oom-fault"
        else:
            kind = "UNEXPECTED"
        left = sorted(os.listdir(tmp))
        staging = sorted(n for n in os.listdir(out) if n.startswith(".kiln-")) \
            if os.path.isdir(out) else []
        if left or staging:
            kind = "UNEXPECTED"
        counts[kind] = counts.get(kind, 0) + 1
        if kind == "UNEXPECTED":
            unexpected += 1
            print(f"UNEXPECTED at +{(limit - base) >> 20} MiB: exit "
                  f"{run.returncode}, TMPDIR {left}, staging {staging}, "
                  f"stderr {err.strip()[-400:]!r}")
        else:
            print(f"+{(limit - base) >> 20} MiB: {kind}: "
                  f"{err.strip().splitlines()[-1] if err.strip() else ''}")
        if not left:
            os.rmdir(tmp)
        in_a_row = in_a_row + 1 if kind == "ok" else 0
        if in_a_row == 3 * REPEATS:
            break
    print("outcomes: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    print(f"sweep: {'ended with three compiles in a row' if in_a_row == 3 * REPEATS else 'no three compiles in a row'}"
          f", {unexpected} unexpected")


if __name__ == "__main__":
    main()
