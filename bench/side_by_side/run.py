#!/usr/bin/env python3
"""kiln and Triton 3.6 side by side, one run on the GPU machine (issue 8, bench/).

Per kernel (the same TTIR file, the same num_warps/num_stages from its .json):

  cold compile   Triton: triton.compile(path, target=GPUTarget("cuda", 90, 32),
                 options=...) in this process, TRITON_CACHE_DIR a fresh empty
                 directory, wall time (and Triton's own stage times through
                 knobs.compilation.listener); kiln: `kiln compile FILE
                 --target sm_90a --num-warps W --num-stages S --ftz --no-cache
                 --timings -o DIR` as a subprocess, wall time, and its stage
                 times from DIR/timings.json. Median of --repeats; the
                 compilers interleaved (Triton then kiln, kiln then Triton,
                 ...), and the median of the per-repeat kiln / Triton
                 ratios reported beside the ratio of the medians.
  cache hit      Triton: triton.compile of the same file again, cache warm, in
                 this process; kiln: `kiln compile ... --cache-dir ROOT -o DIR`
                 after one compile that stored the entry, a new process each
                 time (wall), plus kiln's own lookup/total from timings.json.
  first launch   a fresh child process with the cache warm, time to the first
                 completed launch (launch + synchronize), from before the
                 child is spawned and from the moment its CUDA primary context
                 exists. Triton: `python3 -c` importing torch + triton,
                 torch.cuda.init() + a 1-element allocation (context), input
                 buffers, triton.compile (a hit), launch, synchronize. kiln:
                 `python3 -c` with ctypes only: kiln_runtime_create +
                 kiln_device_alloc (context), input buffers,
                 kiln_kernel_open_cached(ROOT, job key), kiln_kernel_launch,
                 kiln_stream_synchronize. Buffers are uninitialized in both.
  kernel time    triton.testing.do_bench (CUDA events, L2 cleared between
                 repeats, median) in KERNEL_ROUNDS rounds that alternate
                 the two compilers (kiln first in even rounds, Triton in
                 odd ones), each round a fifth of the time budget; the
                 figure is each side's median over the rounds (a 5 us
                 kernel's time moves between two levels ~10% apart from
                 one measurement to the next), of kiln (runtime C API via
                 bench/conformance/conformance.py's Kiln) and Triton on the
                 same inputs (conformance.make_inputs, reference_config full
                 size for vadd/softmax/layernorm, conformance's default
                 otherwise); correctness: every buffer after one launch of
                 each on copies of the inputs, conformance.compare's
                 tolerance; GB/s for the three reference kernels.

    python3 bench/side_by_side/run.py --sbs .kiln/sbs --out DIR [--deadline 120]

--sbs is what bench/side_by_side/prepare.sh stages. Writes DIR/side_by_side.json,
DIR/side_by_side.md (also printed) and DIR/side_by_side.png (kiln / Triton
ratio per kernel and measure). Work stops being started once --deadline
seconds (from this script's start) are near; what was measured is written.
--plot-only JSON redraws the plot (and the Markdown) from a JSON file.
"""
import argparse
import json
import os
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import zlib

T_SCRIPT = time.monotonic()
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
REFERENCE = ("vadd_kernel", "softmax_kernel", "layernorm_kernel")
KILN_STAGES = ("parse", "pipeline", "translate", "link", "optimize", "codegen", "ptxas", "write")
ELEM_BYTES = {"f32": 4, "f16": 2, "bf16": 2, "f64": 8, "i32": 4, "i64": 8, "i8": 1,
              "i16": 2, "i1": 1, "f8E4M3FN": 1, "f8E5M2": 1}
TORCH_NAMES = {"f32": "float32", "f16": "float16", "bf16": "bfloat16", "f64": "float64",
               "i32": "int32", "i64": "int64", "i8": "int8", "i16": "int16", "i1": "bool",
               "f8E4M3FN": "float8_e4m3fn", "f8E5M2": "float8_e5m2"}
# Measures plotted as kiln / Triton (lower is better for kiln); target lines of issue 8.
MEASURES = (("cold compile", "cold"), ("cold compile, warm process**", "cold_warm"), ("cache hit*", "hit"),
            ("fresh process: start -> launch done", "fp_start"),
            ("fresh process: context -> launch done", "fp_ctx"), ("kernel time", "kernel"))


def elapsed():
    return time.monotonic() - T_SCRIPT


def log(msg):
    print(f"[{elapsed():6.1f}s] {msg}", file=sys.stderr, flush=True)


def median(xs):
    return statistics.median(xs) if xs else None


# ---------------------------------------------------------------- children

TRITON_CHILD = r'''
import json, sys, time
t_start = time.perf_counter()
import torch, triton
from triton.backends.compiler import GPUTarget
t_import = time.perf_counter()
spec = json.loads(sys.argv[1])
hit = []
try:
    triton.knobs.compilation.listener = lambda **kw: hit.append(bool(kw.get("cache_hit")))
except Exception:
    pass
torch.cuda.init()
torch.empty(1, device="cuda")  # the primary context exists from here on
t_ctx = time.perf_counter()
args = [torch.empty(a["n"], dtype=getattr(torch, a["torch"]), device="cuda") if a["kind"] == "ptr"
        else a["value"] for a in spec["args"]]
torch.cuda.synchronize()
t_inputs = time.perf_counter()
k = triton.compile(spec["ttir"], target=GPUTarget("cuda", 90, 32),
                   options={"num_warps": spec["num_warps"], "num_stages": spec["num_stages"]})
t_kernel = time.perf_counter()
k[tuple(spec["grid"])](*args)
torch.cuda.synchronize()
t_done = time.perf_counter()
print(json.dumps({"t_start": t_start, "t_import": t_import, "t_ctx": t_ctx, "t_inputs": t_inputs,
                  "t_kernel": t_kernel, "t_done": t_done, "cache_hit": hit[-1] if hit else None}))
'''

KILN_CHILD = r'''
import ctypes as C, json, struct, sys, time
t_start = time.perf_counter()
spec = json.loads(sys.argv[1])
lib = C.CDLL(spec["lib"])
lib.kiln_last_error.restype = C.c_char_p
t_import = time.perf_counter()
def check(status, what):
    if status != 0:
        raise SystemExit(f"{what}: status {status}: {lib.kiln_last_error().decode()}")
class Arg(C.Structure):
    _fields_ = [("type", C.c_int32), ("reserved", C.c_uint32), ("bits", C.c_uint64)]
CODES = {"ptr": 0, "i1": 1, "i8": 2, "i16": 3, "i32": 4, "i64": 5, "f16": 6, "bf16": 7, "f32": 8, "f64": 9}
rt = C.c_void_p()
check(lib.kiln_runtime_create(0, C.byref(rt)), "kiln_runtime_create")
probe = C.c_uint64()
check(lib.kiln_device_alloc(rt, 0, C.c_size_t(16), C.byref(probe)), "kiln_device_alloc")
t_ctx = time.perf_counter()  # the primary context exists from here on
args = (Arg * len(spec["args"]))()
for i, a in enumerate(spec["args"]):
    if a["kind"] == "ptr":
        d = C.c_uint64()
        check(lib.kiln_device_alloc(rt, 0, C.c_size_t(max(a["bytes"], 16)), C.byref(d)), "kiln_device_alloc")
        args[i] = Arg(0, 0, d.value)
    elif a["type"] == "f32":
        args[i] = Arg(8, 0, struct.unpack("<I", struct.pack("<f", a["value"]))[0])
    elif a["type"] == "f64":
        args[i] = Arg(9, 0, struct.unpack("<Q", struct.pack("<d", a["value"]))[0])
    else:
        args[i] = Arg(CODES[a["type"]], 0, int(a["value"]) & 0xFFFFFFFFFFFFFFFF)
t_inputs = time.perf_counter()
k = C.c_void_p()
check(lib.kiln_kernel_open_cached(rt, spec["cache_root"].encode(), spec["key"].encode(), 0, C.byref(k)),
      "kiln_kernel_open_cached")
t_kernel = time.perf_counter()
g = spec["grid"]
check(lib.kiln_kernel_launch(k, C.c_uint32(g[0]), C.c_uint32(g[1]), C.c_uint32(g[2]), None, args,
                             C.c_size_t(len(spec["args"]))), "kiln_kernel_launch")
check(lib.kiln_stream_synchronize(rt, 0, None), "kiln_stream_synchronize")
t_done = time.perf_counter()
print(json.dumps({"t_start": t_start, "t_import": t_import, "t_ctx": t_ctx, "t_inputs": t_inputs,
                  "t_kernel": t_kernel, "t_done": t_done}))
'''


def run_child(code, spec, env=None):
    """Spawns `python3 -c code spec`; times are perf_counter (CLOCK_MONOTONIC,
    one clock for all processes) relative to just before the spawn."""
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", code, json.dumps(spec)], capture_output=True,
                          text=True, env=env, timeout=60)
    t_exit = time.perf_counter()
    line = next((l for l in proc.stdout.splitlines() if l.startswith("{")), None)
    if proc.returncode != 0 or line is None:
        return {"error": f"exit {proc.returncode}: " + " | ".join(proc.stderr.strip().splitlines()[-3:])}
    t = json.loads(line)
    ms = lambda a, b: (t[b] - (t0 if a == "spawn" else t[a])) * 1e3
    return {"start_to_done_ms": ms("spawn", "t_done"), "ctx_to_done_ms": ms("t_ctx", "t_done"),
            "spawn_to_python_ms": ms("spawn", "t_start"), "imports_ms": ms("t_start", "t_import"),
            "context_ms": ms("t_import", "t_ctx"), "inputs_ms": ms("t_ctx", "t_inputs"),
            "get_kernel_ms": ms("t_inputs", "t_kernel"), "launch_sync_ms": ms("t_kernel", "t_done"),
            "process_exit_ms": (t_exit - t["t_done"]) * 1e3,
            "cache_hit": t.get("cache_hit")}


# Kernel time: rounds alternating kiln and Triton (see the docstring).
KERNEL_ROUNDS = 5


def bench_median(fn, rep):
    try:
        return do_bench(fn, warmup=25, rep=rep, return_mode="median")
    except TypeError:  # a do_bench without return_mode
        return do_bench(fn, warmup=25, rep=rep, quantiles=[0.5])[0]


# ---------------------------------------------------------------- kiln CLI

def kiln_compile(kiln, ttir, w, s, out_dir, extra):
    cmd = [kiln, "compile", ttir, "--target", "sm_90a", "--num-warps", str(w), "--num-stages",
           str(s), "--ftz", *extra, "-o", out_dir]
    t = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    wall = (time.perf_counter() - t) * 1e3
    if proc.returncode != 0:
        raise RuntimeError(f"kiln compile failed ({proc.returncode}): {proc.stderr.strip()[-400:]}")
    timings = json.load(open(os.path.join(out_dir, "timings.json")))
    return wall, timings, proc.stdout.strip()


# ---------------------------------------------------------------- measuring

class Bench:
    def __init__(self, a):
        self.a = a
        self.sbs = os.path.abspath(a.sbs)
        self.ttir_dir = os.path.join(self.sbs, "ttir")
        self.work = tempfile.mkdtemp(prefix="sbs-")
        self.out = {"rows": [], "notes": []}

    def remaining(self):
        return self.a.deadline - elapsed()

    def setup(self):
        a, out = self.a, self.out
        out["device"] = subprocess.run(
            ["nvidia-smi", "--query-gpu=name,driver_version,compute_cap,memory.total",
             "--format=csv,noheader"], capture_output=True, text=True).stdout.strip()
        out["build_info"] = open(os.path.join(self.sbs, "BUILD_INFO")).read().strip() \
            if os.path.exists(os.path.join(self.sbs, "BUILD_INFO")) else ""
        t = time.perf_counter()
        subprocess.run(["tar", "-xJf", os.path.join(self.sbs, "kiln_portable.tar.xz"), "-C", self.work],
                       check=True)
        out["unpack_ms"] = (time.perf_counter() - t) * 1e3
        self.kiln = os.path.join(self.work, "kiln_portable", "kiln")
        tc = subprocess.run([self.kiln, "toolchain"], capture_output=True, text=True)
        out["kiln_toolchain"] = tc.stdout.strip()
        self.runtime_lib = os.path.join(self.sbs, "libkiln_runtime.so")
        # A bare interpreter start, the floor of both fresh-process clocks.
        starts = []
        for _ in range(3):
            t = time.perf_counter()
            subprocess.run([sys.executable, "-c", "pass"], check=True)
            starts.append((time.perf_counter() - t) * 1e3)
        out["python_bare_start_ms"] = min(starts)

        # What a child (kiln) inherits from this process at each step: the
        # CPUs the main thread may run on and the environment torch's and
        # Triton's imports and the CUDA context add (a kiln started from a
        # process holding a CUDA context was 3-5 ms slower, unexplained in
        # the fiftieth session).
        inherited = {"start": self._inherited()}

        t = time.perf_counter()
        global torch, triton, GPUTarget, conformance, do_bench
        import torch
        import triton
        from triton.backends.compiler import GPUTarget
        from triton.testing import do_bench
        sys.path.insert(0, os.path.join(REPO, "bench", "conformance"))
        import conformance
        out["parent_import_ms"] = (time.perf_counter() - t) * 1e3
        out["triton_version"], out["torch_version"] = triton.__version__, torch.__version__
        out["python"] = sys.version.split()[0]
        self.target = GPUTarget("cuda", 90, 32)
        self.stage_log = []
        try:
            triton.knobs.compilation.listener = self._listener
        except Exception as e:  # older Triton: no stage times
            out["notes"].append(f"no Triton compilation listener: {e}")

        # The persistent Triton cache the fresh-process children use: driver
        # utilities (cuda_utils) built here first, kernels copied in after
        # their cold compile, launchers built here by the parent's launches.
        self.triton_warm = os.path.join(self.work, "triton-warm")
        os.makedirs(self.triton_warm)
        self.set_triton_cache(self.triton_warm)
        t = time.perf_counter()
        torch.cuda.init()
        torch.empty(1, device="cuda")
        triton.runtime.driver.active.get_current_target()
        out["parent_driver_init_ms"] = (time.perf_counter() - t) * 1e3
        inherited["after_cuda_init"] = self._inherited()
        out["parent_inherited"] = inherited
        try:
            out["triton_ptxas"] = f"{triton.knobs.nvidia.ptxas.path} ({triton.knobs.nvidia.ptxas.version})"
        except Exception as e:
            out["triton_ptxas"] = f"? ({e})"

        # Warm-up compiles of an unrelated kernel on both sides (imports, JIT
        # setup, page cache of the compilers, ptxas, libdevice).
        wu = os.path.join(self.ttir_dir, "warmup_cumsum_kernel.ttir")
        wopts = json.load(open(wu[:-5] + ".json"))
        self.set_triton_cache(tempfile.mkdtemp(prefix="tc-warmup-", dir=self.work))
        t = time.perf_counter()
        triton.compile(wu, target=self.target, options={"num_warps": wopts["num_warps"],
                                                       "num_stages": wopts["num_stages"]})
        out["triton_warmup_compile_ms"] = (time.perf_counter() - t) * 1e3
        wall, _, _ = kiln_compile(self.kiln, wu, wopts["num_warps"], wopts["num_stages"],
                                  os.path.join(self.work, "kiln-warmup"), ["--no-cache", "--timings"])
        out["kiln_warmup_compile_ms"] = wall
        inherited["after_warmup_compiles"] = self._inherited()
        # What a child's environment gained, changed or lost meanwhile (a
        # child's own view: native code's setenv is not in os.environ; the
        # Triton cache directory this script sets itself left out).
        start_env = inherited["start"].pop("env")
        for step in ("after_cuda_init", "after_warmup_compiles"):
            env = inherited[step].pop("env")
            inherited[step]["env_added"] = {
                k: v[:120] for k, v in env.items()
                if k not in start_env and k != "TRITON_CACHE_DIR"}
            inherited[step]["env_changed"] = sorted(
                k for k, v in env.items()
                if k in start_env and start_env[k] != v and k != "TRITON_CACHE_DIR")
            inherited[step]["env_removed"] = sorted(set(start_env) - set(env))
        self.kiln_cache = os.path.join(self.work, "kiln-cache")
        log(f"setup done: {out['device']}; triton {out['triton_version']}, torch {out['torch_version']}")

    @staticmethod
    def _inherited():
        """CPUs this thread may run on (a child inherits them), as a child
        sees them too, this process's thread count, and a child's
        environment (under "env", replaced by the differences later)."""
        child = subprocess.run(
            [sys.executable, "-c", "import json, os; print(json.dumps("
             "[len(os.sched_getaffinity(0)), dict(os.environ)]))"],
            capture_output=True, text=True).stdout
        try:
            child_cpus, child_env = json.loads(child)
        except ValueError:
            child_cpus, child_env = child.strip()[:200], {}
        threads = None
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("Threads:"):
                    threads = int(line.split()[1])
        return {"cpus": len(os.sched_getaffinity(0)), "child_cpus": child_cpus,
                "threads": threads, "env": child_env}

    def _listener(self, **kw):
        try:  # never let a stage-time record break a compile
            times = kw.get("times")
            if times is None:
                return
            self.stage_log.append({
                "cache_hit": bool(kw.get("cache_hit")),
                "ir_init_ms": times.ir_initialization / 1e3,
                "stages_ms": {k: v / 1e3 for k, v in times.lowering_stages},
                "store_ms": times.store_results / 1e3,
            })
        except Exception as e:
            self.out["notes"].append(f"Triton listener: {type(e).__name__}: {e}")

    def set_triton_cache(self, d):
        os.environ["TRITON_CACHE_DIR"] = d
        triton.knobs.cache.dir = d

    def compile_row(self, name):
        """Cold compile and cache hit, both compilers."""
        r = self.a.repeats
        ttir = os.path.join(self.ttir_dir, name + ".ttir")
        opts = json.load(open(ttir[:-5] + ".json"))
        w, s = opts["num_warps"], opts["num_stages"]
        row = {"kernel": name, "num_warps": w, "num_stages": s}
        topts = {"num_warps": w, "num_stages": s}
        # Cold compiles, the two compilers interleaved: repeat i runs Triton
        # then kiln (i even) or kiln then Triton (i odd), so that each pair
        # sees the same machine. On the H200 machine one compiler's speed
        # swings between two levels in runs of consecutive samples (Triton's
        # softmax_kernel: 54, 54, 55, 75, 79 ms back to back in one call of
        # the thirty-seventh session; docs/BENCHMARKS.md): with each
        # compiler's repeats in one block, the ratio depended on which level
        # each block met. "cold_pair_ratios" are kiln / Triton per repeat.
        # Triton: a fresh, empty cache directory each time; kiln:
        # --no-cache --timings, a new output directory each time.
        kdir = os.path.join(self.work, "kiln", name)
        tcold, stages, kcold, ktimes = [], [], [], []

        def triton_cold():
            d = tempfile.mkdtemp(prefix=f"tc-{name[:20]}-", dir=self.work)
            self.set_triton_cache(d)
            self.stage_log.clear()
            t = time.perf_counter()
            tk = triton.compile(ttir, target=self.target, options=topts)
            tcold.append((time.perf_counter() - t) * 1e3)
            stages.extend(x for x in self.stage_log if not x["cache_hit"])
            return d, tk

        def kiln_cold(i):
            wall, tim, _ = kiln_compile(self.kiln, ttir, w, s, os.path.join(kdir, f"cold{i}"),
                                        ["--no-cache", "--timings"])
            kcold.append(wall)
            ktimes.append(tim)

        for i in range(r):
            if i % 2:
                kiln_cold(i)
                d, tk = triton_cold()
            else:
                d, tk = triton_cold()
                kiln_cold(i)
        row["triton_cold_ms"] = tcold
        if stages:
            keys = list(stages[0]["stages_ms"])
            row["triton_stages_ms"] = {"ir_init": median([x["ir_init_ms"] for x in stages]),
                                       **{k: median([x["stages_ms"].get(k, 0) for x in stages]) for k in keys},
                                       "store": median([x["store_ms"] for x in stages])}
        row["kiln_cold_ms"] = kcold
        row["kiln_cold_inprocess_ms"] = [t["total"] / 1e3 for t in ktimes]
        row["kiln_stages_ms"] = {k: median([t.get(k, 0) / 1e3 for t in ktimes]) for k in KILN_STAGES}
        # Of the ptxas stage: the wait for the early-started ptxas to open its
        # input (its start-up not hidden by kiln's own stages).
        row["kiln_ptxas_start_wait_ms"] = [t.get("ptxas_start_wait", 0) / 1e3 for t in ktimes]
        row["cold_pair_ratios"] = [k / t for k, t in zip(kcold, tcold)]
        # Triton hit: the same file again, in this process, cache warm (d,
        # the last cold compile's).
        hits = []
        for i in range(self.a.hit_repeats):
            t = time.perf_counter()
            tk = triton.compile(ttir, target=self.target, options=topts)
            hits.append((time.perf_counter() - t) * 1e3)
        row["triton_hit_ms"] = hits
        # The fresh-process children read the warm cache.
        shutil.copytree(d, self.triton_warm, dirs_exist_ok=True)
        self.set_triton_cache(self.triton_warm)

        # kiln cold in a warm process (as Triton's are measured: its process
        # has compiled before): one `kiln compile --no-cache --repeat 1+r`
        # process; the first compile (cold process) is dropped.
        proc = subprocess.run([self.kiln, "compile", ttir, "--target", "sm_90a", "--num-warps", str(w),
                               "--num-stages", str(s), "--ftz", "--no-cache", "--repeat", str(r + 1),
                               "-o", os.path.join(kdir, "warm")], capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"kiln compile --repeat failed: {proc.stderr.strip()[-400:]}")
        totals = [float(line.split(" in ")[1].split(" ms")[0])
                  for line in proc.stdout.splitlines() if line.startswith("kiln: ") and " in " in line]
        row["kiln_cold_warm_process_ms"] = totals[1:]
        # kiln: one compile through the cache (a miss that stores), then hits.
        wall, _, _ = kiln_compile(self.kiln, ttir, w, s, os.path.join(kdir, "miss"),
                                  ["--cache-dir", self.kiln_cache])
        row["kiln_miss_store_ms"] = wall
        hits, lookups, totals = [], [], []
        for i in range(self.a.hit_repeats):
            wall, tim, _ = kiln_compile(self.kiln, ttir, w, s, os.path.join(kdir, f"hit{i}"),
                                        ["--cache-dir", self.kiln_cache])
            if tim.get("cache") != "hit":
                raise RuntimeError(f"{name}: expected a kiln cache hit, got {tim}")
            hits.append(wall)
            lookups.append(tim["lookup"] / 1e3)
            totals.append(tim["total"] / 1e3)
        row["kiln_hit_ms"], row["kiln_hit_lookup_ms"], row["kiln_hit_total_ms"] = hits, lookups, totals
        meta = json.load(open(os.path.join(kdir, "hit0", "metadata.json")))
        row["kiln_job_key"] = meta.get("job_key", "")
        row["kiln_registers"] = meta.get("registers", meta.get("num_regs"))
        self.kernels[name] = {"ttir": ttir, "tk": tk, "meta": meta, "art": os.path.join(kdir, "cold0"),
                              "w": w, "s": s}
        return row

    def kernel_row(self, name, row):
        """Correctness and kernel time on the same inputs."""
        k = self.kernels[name]
        sig = k["meta"]["signature"]
        with open(k["ttir"]) as f:
            config = conformance.reference_config(name, True) or conformance.default_config(f.read())
        grid = tuple(config["grid"])
        row["bench_grid"] = list(grid)
        inputs = conformance.make_inputs(sig, config, seed=7)
        ours = [v.clone() if torch.is_tensor(v) else v for v in inputs]
        theirs = [v.clone() if torch.is_tensor(v) else v for v in inputs]
        handle = self.kiln_rt.open(k["art"])
        kargs = conformance.Kiln.pack(sig, ours)
        self.kiln_rt.launch(handle, grid, kargs)
        k["tk"][grid](*theirs)  # first launch here builds Triton's launcher in the warm cache
        torch.cuda.synchronize()
        matched, worst, bad = True, 0.0, []
        with open(k["ttir"]) as f:
            tf32 = conformance.has_tf32_dots(f.read())
        for sg, x, y, before in zip(sig, ours, theirs, inputs):
            if torch.is_tensor(x):
                ok, err, _ = conformance.compare(x, y, before, tf32)
                matched &= ok
                worst = max(worst, float(err))
                if not ok:
                    bad.append(f"{sg['name']} ({err})")
        row["matched"], row["worst_error"] = matched, worst
        if bad:
            row["mismatch"] = bad
        rep = 200 if name in REFERENCE else 100
        kargs_bench = conformance.Kiln.pack(sig, ours)
        sides = (("kiln", lambda: self.kiln_rt.launch(handle, grid, kargs_bench)),
                 ("triton", lambda: k["tk"][grid](*theirs)))
        rounds = {"kiln": [], "triton": []}
        for r in range(KERNEL_ROUNDS):
            for side, fn in (sides if r % 2 == 0 else sides[::-1]):
                rounds[side].append(bench_median(fn, max(1, rep // KERNEL_ROUNDS)))
        row["kiln_kernel_rounds_ms"] = rounds["kiln"]
        row["triton_kernel_rounds_ms"] = rounds["triton"]
        row["kiln_kernel_ms"] = median(rounds["kiln"])
        row["triton_kernel_ms"] = median(rounds["triton"])
        nbytes = None
        if name == "vadd_kernel":
            nbytes = 3 * 4 * config["scalars"]["n"]
        elif name == "softmax_kernel":
            nbytes = 2 * 4 * 16384 * 4096
        elif name == "layernorm_kernel":
            nbytes = 2 * 2 * 16384 * 4096 + 2 * 4 * 4096
        if nbytes:
            row["bytes"] = nbytes
            row["kiln_GBps"] = nbytes / row["kiln_kernel_ms"] / 1e6
            row["triton_GBps"] = nbytes / row["triton_kernel_ms"] / 1e6
        del inputs, ours, theirs
        torch.cuda.empty_cache()

    def child_spec(self, name):
        k = self.kernels[name]
        with open(k["ttir"]) as f:
            config = conformance.reference_config(name, False) or conformance.default_config(f.read())
        args = []
        for sg in k["meta"]["signature"]:
            t = sg["type"]
            if t.startswith("ptr"):
                et = conformance.elem_type(t)
                n = config.get("small", {}).get(sg["name"], config.get("numel", 1 << 22))
                args.append({"kind": "ptr", "torch": TORCH_NAMES[et], "n": n, "bytes": n * ELEM_BYTES[et]})
            else:
                v = config.get("scalars", {}).get(sg["name"])
                if v is None:
                    v = 1.0 if t.startswith("f") else 1024
                args.append({"kind": "scalar", "type": t, "value": v})
        return {"ttir": k["ttir"], "num_warps": k["w"], "num_stages": k["s"],
                "grid": list(config["grid"]), "args": args, "lib": self.runtime_lib,
                "cache_root": self.kiln_cache, "key": self.out_row(name)["kiln_job_key"]}

    def out_row(self, name):
        return next(r for r in self.out["rows"] if r["kernel"] == name)

    def fresh_process(self, name, repeats):
        row = self.out_row(name)
        spec = self.child_spec(name)
        env = dict(os.environ, TRITON_CACHE_DIR=self.triton_warm)
        for i in range(repeats):
            row.setdefault("kiln_fresh", []).append(run_child(KILN_CHILD, spec, env))
            row.setdefault("triton_fresh", []).append(run_child(TRITON_CHILD, spec, env))

    def run(self):
        self.setup()
        self.kernels = {}
        self.kiln_rt = conformance.Kiln(self.runtime_lib)
        names = [l.strip() for l in open(os.path.join(self.sbs, "kernels.txt")) if l.strip()]
        names = [n for n in names if not self.a.only or n in self.a.only]
        for name in names:
            if self.remaining() < 8:
                self.out["notes"].append(f"{name}: skipped, deadline")
                continue
            import traceback
            try:
                row = self.compile_row(name)
                self.out["rows"].append(row)
            except Exception as e:
                traceback.print_exc()
                self.out["rows"].append({"kernel": name, "error": f"{type(e).__name__}: {e}"})
                self.write()
                continue
            try:
                self.kernel_row(name, row)
                log(f"{name}: triton cold {median(row['triton_cold_ms']):.1f} ms, kiln cold "
                    f"{median(row['kiln_cold_ms']):.1f} ms; kernel {row['triton_kernel_ms']:.4f} / "
                    f"{row['kiln_kernel_ms']:.4f} ms, matched={row['matched']}")
            except Exception as e:
                traceback.print_exc()
                row["kernel_error"] = f"{type(e).__name__}: {e}"
            self.write()
        # Fresh processes: the reference kernels first (twice while there is time), then the rest.
        order = [n for n in names if n in REFERENCE] + [n for n in names if n not in REFERENCE]
        for name in order:
            if name not in self.kernels:
                continue
            reps = 2 if name in REFERENCE and self.remaining() > 60 else 1
            if self.remaining() < 10:
                self.out["notes"].append(f"{name}: fresh-process measure skipped, deadline")
                continue
            try:
                self.fresh_process(name, reps)
                r = self.out_row(name)
                log(f"{name}: fresh process triton {r['triton_fresh']}, kiln {r['kiln_fresh']}")
            except Exception as e:
                self.out_row(name)["fresh_error"] = f"{type(e).__name__}: {e}"
            self.write()
        self.out["wall_s"] = elapsed()
        self.write(final=True)

    def write(self, final=False):
        os.makedirs(self.a.out, exist_ok=True)
        with open(os.path.join(self.a.out, "side_by_side.json"), "w") as f:
            json.dump(self.out, f, indent=1)
        md = markdown(self.out)
        with open(os.path.join(self.a.out, "side_by_side.md"), "w") as f:
            f.write(md)
        if final:
            print(md, flush=True)
            plot(self.out, os.path.join(self.a.out, "side_by_side.png"))


# ---------------------------------------------------------------- reporting

def fresh_best(row, who, key):
    xs = [x[key] for x in row.get(f"{who}_fresh", []) if key in x]
    return min(xs) if xs else None


def ratios(row):
    """kiln / Triton per measure (None where either side is missing)."""
    def r(k, t):
        return k / t if k is not None and t else None
    return {
        "cold": r(median(row.get("kiln_cold_ms", [])), median(row.get("triton_cold_ms", []))),
        "cold_pairs": median(row["cold_pair_ratios"]) if row.get("cold_pair_ratios") else None,
        "cold_warm": r(median(row.get("kiln_cold_warm_process_ms", [])), median(row.get("triton_cold_ms", []))),
        "hit": r(median(row.get("kiln_hit_ms", [])), median(row.get("triton_hit_ms", []))),
        "fp_start": r(fresh_best(row, "kiln", "start_to_done_ms"), fresh_best(row, "triton", "start_to_done_ms")),
        "fp_ctx": r(fresh_best(row, "kiln", "ctx_to_done_ms"), fresh_best(row, "triton", "ctx_to_done_ms")),
        "kernel": r(row.get("kiln_kernel_ms"), row.get("triton_kernel_ms")),
    }


def short(name):
    return name if len(name) <= 40 else name[:37] + "..."


def f(x, fmt="{:.1f}"):
    return "" if x is None else fmt.format(x)


def markdown(out):
    rows = [r for r in out["rows"] if "error" not in r]
    L = []
    L.append("Cold compile (median of repeats, the two compilers interleaved; Triton in process with an "
             "empty cache directory; kiln a new `--no-cache --timings` process each time, and in a warm process: "
             "`--no-cache --repeat`, the first compile dropped) and cache hit (Triton in process; "
             "kiln a new process each time, its own lookup/total in brackets), ms:\n")
    L.append("| kernel | W/S | Triton cold | kiln cold (process) | kiln cold (in-process total) | kiln/Triton cold "
             "| median of the pairs' kiln/Triton (pairs above 0.5) | kiln cold (warm process) | kiln/Triton (warm process) "
             "| Triton hit | kiln hit process [total, lookup] | kiln/Triton hit |")
    L.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        q = ratios(r)
        above = sum(x > 0.5 for x in r.get("cold_pair_ratios", []))
        L.append(f"| {short(r['kernel'])} | {r['num_warps']}/{r['num_stages']} | {f(median(r['triton_cold_ms']))} | "
                 f"{f(median(r['kiln_cold_ms']))} | {f(median(r['kiln_cold_inprocess_ms']))} | "
                 f"{f(q['cold'], '{:.2f}')} | {f(q['cold_pairs'], '{:.2f}')} ({above} of "
                 f"{len(r.get('cold_pair_ratios', []))}) | {f(median(r.get('kiln_cold_warm_process_ms', [])))} | "
                 f"{f(q['cold_warm'], '{:.2f}')} | {f(median(r['triton_hit_ms']), '{:.2f}')} | "
                 f"{f(median(r['kiln_hit_ms']), '{:.1f}')} [{f(median(r['kiln_hit_total_ms']), '{:.2f}')}, "
                 f"{f(median(r['kiln_hit_lookup_ms']), '{:.2f}')}] | {f(q['hit'], '{:.1f}')} |")
    L.append("\nStage times of the cold compiles (median, ms):\n")
    L.append("| kernel | kiln " + " / ".join(KILN_STAGES) + " | of ptxas: start-up wait | Triton stages |")
    L.append("|---|---|---|---|")
    for r in rows:
        ks = " / ".join(f(r["kiln_stages_ms"].get(k), "{:.1f}") for k in KILN_STAGES)
        wait = median(r.get("kiln_ptxas_start_wait_ms", []))
        ts = ", ".join(f"{k} {v:.1f}" for k, v in r.get("triton_stages_ms", {}).items())
        L.append(f"| {short(r['kernel'])} | {ks} | {f(wait, '{:.2f}')} | {ts} |")
    L.append("\nFresh process, warm cache, to the first completed launch (best of the runs, ms; "
             "from before the spawn / from the moment the CUDA context exists; "
             "in brackets: imports, context, kernel from cache, launch+sync):\n")
    L.append("| kernel | Triton start->done | kiln start->done | kiln/Triton | Triton ctx->done "
             "| kiln ctx->done | kiln/Triton ctx | Triton [imp, ctx, get, launch] | kiln [imp, ctx, get, launch] |")
    L.append("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        if not r.get("triton_fresh"):
            continue
        q = ratios(r)

        def parts(who):
            runs = [x for x in r.get(f"{who}_fresh", []) if "ctx_to_done_ms" in x]
            if not runs:
                err = [x.get("error", "") for x in r.get(f"{who}_fresh", [])]
                return "error: " + "; ".join(err)[:120]
            b = min(runs, key=lambda x: x["start_to_done_ms"])
            return ", ".join(f"{b[k]:.1f}" for k in ("imports_ms", "context_ms", "get_kernel_ms", "launch_sync_ms"))
        L.append(f"| {short(r['kernel'])} | {f(fresh_best(r, 'triton', 'start_to_done_ms'))} | "
                 f"{f(fresh_best(r, 'kiln', 'start_to_done_ms'))} | {f(q['fp_start'], '{:.3f}')} | "
                 f"{f(fresh_best(r, 'triton', 'ctx_to_done_ms'))} | {f(fresh_best(r, 'kiln', 'ctx_to_done_ms'), '{:.2f}')} | "
                 f"{f(q['fp_ctx'], '{:.4f}')} | {parts('triton')} | {parts('kiln')} |")
    L.append(f"\nKernel time (do_bench median, L2 cleared; median of {KERNEL_ROUNDS} rounds alternating the "
             "compilers) and correctness (every buffer, "
             "conformance.py's tolerance):\n")
    L.append("| kernel | grid | Triton ms | kiln ms | Triton GB/s | kiln GB/s | kiln/Triton time | matched (worst error) |")
    L.append("|---|---|---|---|---|---|---|---|")
    for r in rows:
        if "kiln_kernel_ms" not in r:
            continue
        q = ratios(r)
        L.append(f"| {short(r['kernel'])} | {'x'.join(map(str, r['bench_grid']))} | {r['triton_kernel_ms']:.4f} | "
                 f"{r['kiln_kernel_ms']:.4f} | {f(r.get('triton_GBps'), '{:.0f}')} | {f(r.get('kiln_GBps'), '{:.0f}')} | "
                 f"{f(q['kernel'], '{:.3f}')} | {'yes' if r['matched'] else 'NO'} ({r['worst_error']:.2g}) |")
    for r in rows:
        if "kernel_error" in r:
            L.append(f"\n{r['kernel']}: kernel time/correctness error: {r['kernel_error']}")
        if "fresh_error" in r:
            L.append(f"\n{r['kernel']}: fresh-process error: {r['fresh_error']}")
    errs = [r for r in out["rows"] if "error" in r]
    for r in errs:
        L.append(f"\n{r['kernel']}: error: {r['error']}")
    for n in out.get("notes", []):
        L.append(f"\nnote: {n}")
    return "\n".join(L) + "\n"


def plot(out, path):
    rows = [r for r in out["rows"] if "error" not in r]
    data = [(r["kernel"], ratios(r)) for r in rows]
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print(f"matplotlib not installed: writing {path} as unlabeled bars "
              "(groups = kernels in JSON order; bars = " + ", ".join(m for m, _ in MEASURES) +
              "; log scale 1e-4..1e2, grey lines at 1, 0.5, 0.05)", file=sys.stderr)
        return plain_png(data, path)
    import math
    fig, ax = plt.subplots(figsize=(max(8, 1.1 * len(data) + 3), 5.5))
    width = 0.8 / len(MEASURES)
    for j, (label, key) in enumerate(MEASURES):
        xs = [i + (j - (len(MEASURES) - 1) / 2) * width for i in range(len(data))]
        ys = [d[1][key] if d[1][key] else math.nan for d in data]
        ax.bar(xs, ys, width, label=label)
    ax.set_yscale("log")
    ax.axhline(1, color="k", lw=0.8)
    ax.axhline(0.5, color="tab:red", lw=0.8, ls="--", label="target: cold compile <= 0.5")
    ax.axhline(0.05, color="tab:purple", lw=0.8, ls=":", label="target: first launch from context <= 0.05")
    ax.set_xticks(range(len(data)))
    ax.set_xticklabels([short(d[0]).replace("triton_", "") for d in data], rotation=30, ha="right", fontsize=8)
    ax.set_ylabel("kiln / Triton (lower: kiln faster)")
    ax.set_title(f"kiln vs Triton {out.get('triton_version', '')}, {out.get('device', '').split(',')[0]}"
                 "\n*cache hit: kiln a new process, Triton in process; "
                 "**kiln --repeat: compiles after the first in one kiln process", fontsize=10)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plain_png(data, path):
    """Bars without text, for machines without matplotlib: log10 ratio in 1e-4..1e2."""
    import math
    colors = [(31, 119, 180), (23, 190, 207), (255, 127, 14), (44, 160, 44), (214, 39, 40), (148, 103, 189)]
    gw, bw, H, pad = 12 * len(MEASURES) + 16, 12, 300, 10
    W = max(1, len(data)) * gw + 2 * pad
    img = [[(255, 255, 255)] * W for _ in range(H)]
    y_of = lambda v: int(H - pad - (math.log10(v) + 4) / 6 * (H - 2 * pad))
    for ref in (1, 0.5, 0.05):
        y = min(max(y_of(ref), 0), H - 1)
        for x in range(W):
            img[y][x] = (160, 160, 160)
    for i, (_, q) in enumerate(data):
        for j, (_, key) in enumerate(MEASURES):
            v = q[key]
            if not v:
                continue
            top = min(max(y_of(v), 0), H - 1)
            x0 = pad + i * gw + 8 + j * bw
            for y in range(top, H - pad):
                for x in range(x0, x0 + bw - 2):
                    img[y][x] = colors[j]
    raw = b"".join(b"\x00" + bytes(c for px in row for c in px) for row in img)

    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)
    with open(path, "wb") as fh:
        fh.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 8, 2, 0, 0, 0)) +
                 chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sbs", default=".kiln/sbs", help="what bench/side_by_side/prepare.sh staged")
    p.add_argument("--out", default=os.environ.get("OUT", ".kiln/sbs/results"))
    p.add_argument("--deadline", type=float, default=120, help="seconds; no new work after")
    p.add_argument("--repeats", type=int, default=3, help="cold compiles per compiler and kernel")
    p.add_argument("--hit-repeats", type=int, default=5)
    p.add_argument("--only", nargs="*", help="kernel names (default: .kiln/sbs/kernels.txt)")
    p.add_argument("--plot-only", metavar="JSON")
    a = p.parse_args()
    if a.plot_only:
        out = json.load(open(a.plot_only))
        os.makedirs(a.out, exist_ok=True)
        print(markdown(out))
        plot(out, os.path.join(a.out, "side_by_side.png"))
        return
    Bench(a).run()


if __name__ == "__main__":
    main()
