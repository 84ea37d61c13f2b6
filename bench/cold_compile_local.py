#!/usr/bin/env python3
"""Cold compile, kiln against Triton 3.6, per corpus kernel, on one machine.

Needs a Python with Triton (a GPU is not needed: Triton compiles for a
GPUTarget without one) and a built kiln:

    python bench/cold_compile_local.py [--kiln PATH] [--repeats N] [--only SUBSTR ...]

Per kernel (the TTIR file and num_warps/num_stages from the `.json` beside
it), alternating the compilers, in an order that rotates every repeat, so
that all see the same machine load and none always runs right after
another:

  Triton  triton.compile(FILE, target=GPUTarget("cuda", 90, 32), options=...)
          in this process, TRITON_CACHE_DIR a fresh empty directory each time
          (what bench/side_by_side/run.py calls cold); its stage times come
          from triton.knobs.compilation.listener.
  kiln    `kiln compile FILE --target sm_90a --num-warps W --num-stages S
          --ftz --no-cache --timings -o DIR`, a new process each time; its
          stage times come from DIR/timings.json ("total" is kiln's clock from
          the start of the compile to the last artifact written, inside the
          process).

Two clocks per compile: wall (what the issue's target is about) and CPU
(user + system time of the compiling process and of the children it waited
for, ptxas included; for Triton the CPU time of this whole process plus its
children). On a machine shared with other work, wall time carries the
machine's load; CPU time mostly does not, so compare the CPU ratios there.
Each compiler (kiln B too) compiles an unrelated kernel once first (imports,
page cache).

With --kiln-warm, kiln also runs as Triton does: in a process that has
compiled before. Each sample is one `kiln compile --repeat 2 --no-cache`
process (a new MLIR and LLVM context per compile, as an embedding
compiler does), and the sample is the second compile's "total" from
timings.json: no process start or exit in it, as none is in Triton's
time. Column "kiln warm"; JSON side "kiln_warm".

With --cpus LIST (say 2,3) this process, and so Triton's compile and
ptxas runs and every kiln process it starts, runs on those CPUs only
(sched_setaffinity), so that all compilers see the same cores.

Prints one table (medians of --repeats, ms) and, with --json FILE, writes
every sample. Kernels either compiler rejects are listed with the reason.
"""
import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
KILN_STAGES = ("parse", "pipeline", "translate", "link", "optimize", "codegen", "ptxas", "write")


def children_cpu_ms():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (r.ru_utime + r.ru_stime) * 1e3


def no_machine_path(text):
    """`text` without this machine's absolute paths, for a JSON that gets
    committed: a path under the working directory becomes relative to it,
    one inside an installed Triton starts at "triton/"."""
    cwd = os.getcwd() + os.sep
    if text.startswith(cwd):
        return text[len(cwd):]
    marker = os.sep + "site-packages" + os.sep
    if marker in text:
        return text.split(marker, 1)[1]
    return text


def median(xs):
    return statistics.median(xs) if xs else float("nan")


def options_of(ttir):
    with open(ttir[:-len(".ttir")] + ".json") as f:
        opts = json.load(f)
    return opts["num_warps"], opts["num_stages"]


def pin_to_cpus(ap, text):
    """Runs this process (and every process it starts) on the CPUs of
    `text` ("2,3") only; an argparse error (`ap`) names a bad list. Returns
    the CPUs, sorted."""
    try:
        cpus = sorted({int(c) for c in text.split(",")})
    except ValueError:
        ap.error(f"--cpus takes comma-separated CPU numbers, got {text!r}")
    allowed = os.sched_getaffinity(0)
    if not cpus or not set(cpus) <= allowed:
        ap.error(f"--cpus {text}: this process may run on CPUs {sorted(allowed)} only")
    os.sched_setaffinity(0, cpus)
    return cpus


def check_json_path(ap, path):
    """An argparse error (`ap`) now, not after the whole run, when --json
    `path` cannot be written."""
    out_dir = os.path.dirname(os.path.abspath(path))
    if not (os.path.isdir(out_dir) and os.access(out_dir, os.W_OK)):
        ap.error(f"cannot write --json {path}: {out_dir} is not a writable directory")


class Triton:
    def __init__(self, work):
        import triton
        from triton.backends.compiler import GPUTarget
        self.triton, self.target, self.work = triton, GPUTarget("cuda", 90, 32), work
        self.stages = []
        triton.knobs.compilation.listener = self._listener
        self.ptxas = "?"
        try:
            tool = triton.knobs.nvidia.ptxas
            self.ptxas = f"{tool.path} (CUDA {tool.version})"
        except Exception as e:  # reported, never fatal
            self.ptxas = f"? ({type(e).__name__}: {e})"

    def _listener(self, **kw):
        times = kw.get("times")
        if times is not None and not kw.get("cache_hit"):
            self.stages.append({"ir_init": times.ir_initialization / 1e3,
                                **{k: v / 1e3 for k, v in times.lowering_stages},
                                "store": times.store_results / 1e3})

    def compile(self, ttir, w, s):
        """One cold compile: (wall ms, CPU ms, stage ms dict)."""
        d = tempfile.mkdtemp(prefix="triton-", dir=self.work)
        os.environ["TRITON_CACHE_DIR"] = d
        self.triton.knobs.cache.dir = d
        self.stages.clear()
        c0, p0, t0 = children_cpu_ms(), time.process_time(), time.perf_counter()
        self.triton.compile(ttir, target=self.target, options={"num_warps": w, "num_stages": s})
        wall = (time.perf_counter() - t0) * 1e3
        cpu = (time.process_time() - p0) * 1e3 + children_cpu_ms() - c0
        shutil.rmtree(d, ignore_errors=True)
        return wall, cpu, (self.stages[-1] if self.stages else {})


class Kiln:
    def __init__(self, binary, target, extra, work, env=None):
        self.binary, self.target, self.extra, self.work = binary, target, extra, work
        self.env = dict(os.environ, **env) if env else None

    def compile(self, ttir, w, s):
        """One cold compile: (wall ms, CPU ms, timings.json in ms)."""
        out = tempfile.mkdtemp(prefix="kiln-", dir=self.work)
        cmd = [self.binary, "compile", ttir, "--target", self.target, "--num-warps", str(w),
               "--num-stages", str(s), "--ftz", "--no-cache", "--timings", *self.extra, "-o", out]
        c0, t0 = children_cpu_ms(), time.perf_counter()
        proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=self.env)
        wall = (time.perf_counter() - t0) * 1e3
        cpu = children_cpu_ms() - c0
        if proc.returncode != 0:
            raise RuntimeError(proc.stderr.strip().splitlines()[-1] if proc.stderr.strip()
                               else f"exit status {proc.returncode}")
        with open(os.path.join(out, "timings.json")) as f:
            timings = {k: v / 1e3 for k, v in json.load(f).items() if isinstance(v, (int, float))}
        shutil.rmtree(out, ignore_errors=True)
        return wall, cpu, timings


class KilnWarm(Kiln):
    """kiln compiling in a process that has compiled before (--kiln-warm):
    every process compiles twice (--repeat 2)."""

    def __init__(self, binary, target, extra, work):
        super().__init__(binary, target, [*extra, "--repeat", "2"], work)

    def compile(self, ttir, w, s):
        """The second of the two cold compiles: (kiln's clock of that compile
        in ms, CPU ms of the whole process, its timings.json in ms)."""
        _, cpu, timings = super().compile(ttir, w, s)
        return timings["total"], cpu, timings


def short(name, width=34):
    return name if len(name) <= width else name[:width - 3] + "..."


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kiln", default=os.environ.get("KILN", os.path.join(REPO, "bazel-bin/tools/kiln/kiln")),
                    help="kiln binary (default: $KILN, else bazel-bin/tools/kiln/kiln)")
    ap.add_argument("--corpus", default=os.path.join(
        os.environ.get("KILN_CORPUS_DIR", os.path.join(REPO, "..", "shared", "corpus")), "ttir"),
                    help="folder of NAME.ttir + NAME.json (default: $KILN_CORPUS_DIR/ttir, ../shared/corpus/ttir)")
    ap.add_argument("--repeats", type=int, default=5, help="compiles per kernel and compiler (median)")
    ap.add_argument("--only", nargs="*", default=[], help="kernels whose name contains any of these")
    ap.add_argument("--target", default="sm_90a", help="kiln --target (Triton compiles for capability 90)")
    ap.add_argument("--kiln-arg", action="append", default=[], help="extra kiln compile argument (repeatable)")
    ap.add_argument("--json", help="write every sample to this file")
    ap.add_argument("--kiln-b", metavar="PATH",
                    help="also run this second kiln binary (column 'kiln B'), alternating with the "
                         "others: an A/B of two builds in one run")
    ap.add_argument("--ab-env", action="append", default=[], metavar="VAR=VALUE",
                    help="also run kiln with this environment (column 'kiln B'), alternating with "
                         "the others: e.g. KILN_PTXAS_EARLY=0 (repeatable)")
    ap.add_argument("--kiln-warm", action="store_true",
                    help="also time kiln's second compile in one process (column 'kiln warm'): "
                         "no process start or exit, as in Triton's in-process time")
    ap.add_argument("--cpus", metavar="LIST",
                    help="run every compiler on these CPUs only (comma-separated numbers, e.g. 2,3)")
    a = ap.parse_args()
    cpus = pin_to_cpus(ap, a.cpus) if a.cpus is not None else None
    if a.repeats < 1:
        ap.error(f"--repeats must be at least 1, got {a.repeats}")
    for flag, path in (("--kiln", a.kiln), ("--kiln-b", a.kiln_b)):
        if path is not None and not (os.path.isfile(path) and os.access(path, os.X_OK)):
            ap.error(f"{flag}: not an executable file: {path}")
    if a.kiln_b:
        a.kiln_b = os.path.abspath(a.kiln_b)
    for kv in a.ab_env:
        if "=" not in kv or kv.startswith("="):
            ap.error(f"--ab-env takes VAR=VALUE, got {kv!r}")
    if not os.path.isdir(a.corpus):
        ap.error(f"--corpus: not a directory: {a.corpus}")
    if a.json:
        check_json_path(ap, a.json)

    names = sorted(f[:-5] for f in os.listdir(a.corpus)
                   if f.endswith(".ttir") and os.path.exists(os.path.join(a.corpus, f[:-5] + ".json")))
    if a.only:
        names = [n for n in names if any(s in n for s in a.only)]
    work = tempfile.mkdtemp(prefix="cold-compile-")
    try:
        triton = Triton(work)
        kiln = Kiln(os.path.abspath(a.kiln), a.target, a.kiln_arg, work)
        kiln_b = None
        if a.ab_env or a.kiln_b:
            kiln_b = Kiln(os.path.abspath(a.kiln_b or a.kiln), a.target, a.kiln_arg, work,
                          dict(kv.split("=", 1) for kv in a.ab_env))
        kiln_warm = KilnWarm(os.path.abspath(a.kiln), a.target, a.kiln_arg, work) if a.kiln_warm else None
        warm = os.path.join(REPO, "bench", "conformance", "kernels", "cumsum_kernel.ttir")
        if not os.path.exists(warm):
            warm = os.path.join(a.corpus, names[0] + ".ttir")
        triton.compile(warm, *options_of(warm))
        kiln.compile(warm, *options_of(warm))
        if kiln_b:
            kiln_b.compile(warm, *options_of(warm))
        load = os.getloadavg()
        print(f"kiln {kiln.binary} --target {a.target}; Triton {triton.triton.__version__}, ptxas {triton.ptxas}; "
              f"{os.cpu_count()} CPUs{f' (pinned to {cpus})' if cpus else ''}, "
              f"load average {load[0]:.2f} at the start; median of {a.repeats}, ms",
              flush=True)

        rows, skipped = [], []

        def write_json(partial):
            """Every sample so far; rewritten after each kernel ("partial":
            true until the end), so a run cut short keeps what it measured."""
            if not a.json:
                return
            doc = {"kiln": no_machine_path(kiln.binary), "target": a.target,
                   "triton": triton.triton.__version__,
                   "triton_ptxas": no_machine_path(triton.ptxas), "repeats": a.repeats,
                   "rows": [{"kernel": r["kernel"], "num_warps": r["num_warps"], "num_stages": r["num_stages"],
                             **{side: [{"wall_ms": x[0], "cpu_ms": x[1], "stages_ms": x[2]} for x in r[side]]
                                for side in ("triton", "kiln", "kiln_b", "kiln_warm")}} for r in rows],
                   "kiln_warm": ("kiln_warm: wall_ms is kiln's clock ('total') of the second of two "
                                 "compiles in one `kiln compile --repeat 2` process") if kiln_warm else None,
                   "kiln_b_env": a.ab_env, "kiln_b": a.kiln_b and no_machine_path(a.kiln_b), "cpus": cpus,
                   "skipped": [{"kernel": n, "why": w} for n, w in skipped]}
            if partial:
                doc["partial"] = True
            with open(a.json, "w") as f:
                json.dump(doc, f, indent=1)

        for name in names:
            ttir = os.path.join(a.corpus, name + ".ttir")
            w, s = options_of(ttir)
            row = {"kernel": name, "num_warps": w, "num_stages": s, "triton": [], "kiln": [], "kiln_b": [],
                   "kiln_warm": []}
            sides = ((("triton", triton), ("kiln", kiln)) + ((("kiln_b", kiln_b),) if kiln_b else ())
                     + ((("kiln_warm", kiln_warm),) if kiln_warm else ()))
            try:
                for rep in range(a.repeats):
                    # The order rotates every repeat (use a multiple of the
                    # number of sides), so that no compiler always runs
                    # right after the same other one. On the H200 the
                    # speed of one compile also swings between two levels
                    # (kiln's LLVM stages of matmul_kernel ~27 or ~43 ms,
                    # in any position): take medians of several repeats.
                    for side, compiler in sides[rep % len(sides):] + sides[:rep % len(sides)]:
                        try:
                            row[side].append(compiler.compile(ttir, w, s))
                        except Exception as e:
                            raise RuntimeError(f"{side}: {str(e).strip().splitlines()[-1][:160]}")
            except RuntimeError as e:
                skipped.append((name, str(e)))
                print(f"  {name}: skipped ({e})", flush=True)
                write_json(partial=True)
                continue
            rows.append(row)
            write_json(partial=True)
            tw, tc = median([x[0] for x in row["triton"]]), median([x[1] for x in row["triton"]])
            kw, kc = median([x[0] for x in row["kiln"]]), median([x[1] for x in row["kiln"]])
            bw = f", kiln B {median([x[0] for x in row['kiln_b']]):.1f} ms" if kiln_b else ""
            if kiln_warm:
                ww = median([x[0] for x in row["kiln_warm"]])
                bw += f", kiln warm {ww:.1f} ms ({ww / tw:.2f}x)"
            print(f"  {short(name)}: Triton {tw:.1f} ms, kiln {kw:.1f} ms (wall {kw / tw:.2f}x, CPU {kc / tc:.2f}x){bw}",
                  flush=True)

        b_desc = " ".join(([f"binary {a.kiln_b}"] if a.kiln_b else []) + a.ab_env)
        b_head = f" kiln B wall ({b_desc}) | B/Triton wall |" if kiln_b else ""
        if kiln_warm:
            b_head += " kiln warm | warm/Triton |"
        print("\n| kernel | W/S | Triton wall | kiln wall | kiln in-process | kiln/Triton wall "
              "| median of the repeats' kiln/Triton wall (above 0.5) "
              "| Triton CPU | kiln CPU | kiln/Triton CPU |" + b_head)
        print("|---|---|---|---|---|---|---|---|---|---|" + ("---|---|" if kiln_b else "")
              + ("---|---|" if kiln_warm else ""))
        for r in rows:
            tw, tc = median([x[0] for x in r["triton"]]), median([x[1] for x in r["triton"]])
            kw, kc = median([x[0] for x in r["kiln"]]), median([x[1] for x in r["kiln"]])
            kt = median([x[2].get("total", float("nan")) for x in r["kiln"]])
            b = ""
            if kiln_b:
                bw = median([x[0] for x in r["kiln_b"]])
                b = f" {bw:.1f} | {bw / tw:.2f} |"
            if kiln_warm:
                ww = median([x[0] for x in r["kiln_warm"]])
                b += f" {ww:.1f} | {ww / tw:.2f} |"
            # One repeat's two compiles ran one right after the other (see
            # the loop above): their ratio is the least exposed to the
            # machine's drifting speed.
            pairs = [k[0] / t[0] for k, t in zip(r["kiln"], r["triton"])]
            above = sum(x > 0.5 for x in pairs)
            print(f"| {short(r['kernel'])} | {r['num_warps']}/{r['num_stages']} | {tw:.1f} | {kw:.1f} | {kt:.1f} "
                  f"| {kw / tw:.2f} | {median(pairs):.2f} ({above} of {len(pairs)}) "
                  f"| {tc:.1f} | {kc:.1f} | {kc / tc:.2f} |" + b)
        print("\nStage times (median, ms, wall):\n")
        # ptxas_start_wait: of the ptxas stage, the wait for the early-started
        # ptxas to open its input (its start-up not hidden by kiln's stages).
        print("| kernel | kiln " + " / ".join(KILN_STAGES) + " | of ptxas: start-up wait | Triton stages |")
        print("|---|---|---|---|")
        for r in rows:
            ks = " / ".join(f"{median([x[2].get(k, 0) for x in r['kiln']]):.1f}" for k in KILN_STAGES)
            wait = median([x[2].get("ptxas_start_wait", 0) for x in r["kiln"]])
            keys = list(r["triton"][0][2]) if r["triton"] and r["triton"][0][2] else []
            ts = ", ".join(f"{k} {median([x[2].get(k, 0) for x in r['triton']]):.1f}" for k in keys)
            print(f"| {short(r['kernel'])} | {ks} | {wait:.2f} | {ts} |")
        for name, why in skipped:
            print(f"skipped {name}: {why}")
        load = os.getloadavg()
        print(f"\nload average {load[0]:.2f} / {load[1]:.2f} / {load[2]:.2f} at the end")
        write_json(partial=False)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
