#!/usr/bin/env python3
"""Differential conformance (and speed) of kiln against Triton on the GPU.

For each TTIR file (each in a fresh process), kiln's artifact (compiled on the build machine by
`kiln compile`, carried here as DIR/<name>/{metadata.json,<name>.cubin}) and
Triton 3.6's own compile of the same file with the same num_warps/num_stages
are launched with the same grid, scalars and random input buffers; every
buffer is compared afterwards over the elements either kernel wrote
(exactly for integers, with a tolerance for floats: compare()). kiln
kernels run through kiln's runtime library (C API, ctypes).

    python3 conformance.py --ttir TTIR_DIR --kiln-out DIR --runtime-lib LIB \
        [--json results.json] [--bench] [--time] [--jobs N]

Prints one line per file (parsed/compiled/ran/matched) and a summary line;
--time also times every matched kernel, kiln's and Triton's, on that
file's conformance inputs (small shapes: a comparison of two builds of one
kernel, not the corpus README's benchmark);
--bench also times vadd, softmax and layernorm at the corpus README shapes,
kiln and Triton side by side (triton.testing.do_bench, which clears L2
between repeats), and prints a Markdown table.
"""
import argparse
import ctypes as C
import json
import math
import os
import re
import sys
import traceback

import torch
import triton
from triton.backends.compiler import GPUTarget

ARG_TYPES = {"ptr": 0, "i1": 1, "i8": 2, "i16": 3, "i32": 4, "i64": 5,
             "f16": 6, "bf16": 7, "f32": 8, "f64": 9}
TORCH_DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16,
                "f64": torch.float64, "i32": torch.int32, "i64": torch.int64,
                "i8": torch.int8, "i16": torch.int16, "i1": torch.bool,
                "f8E4M3FN": torch.float8_e4m3fn, "f8E5M2": torch.float8_e5m2}


class Arg(C.Structure):
    _fields_ = [("type", C.c_int32), ("reserved", C.c_uint32), ("bits", C.c_uint64)]


class Kiln:
    """kiln's runtime library through its C API."""

    def __init__(self, lib_path):
        self.lib = C.CDLL(lib_path)
        self.lib.kiln_last_error.restype = C.c_char_p
        self.lib.kiln_status_name.restype = C.c_char_p
        self.rt = C.c_void_p()
        self._check(self.lib.kiln_runtime_create(0, C.byref(self.rt)), "kiln_runtime_create")
        self.kernels = {}

    def _check(self, status, what):
        if status != 0:
            raise RuntimeError(f"{what}: {self.lib.kiln_status_name(status).decode()}: "
                               f"{self.lib.kiln_last_error().decode()}")

    def open(self, artifact_dir):
        k = C.c_void_p()
        self._check(self.lib.kiln_kernel_open(self.rt, artifact_dir.encode(), 0, C.byref(k)),
                    "kiln_kernel_open")
        self._check(self.lib.kiln_kernel_prepare(k), "kiln_kernel_prepare")
        return k

    @staticmethod
    def pack(signature, values):
        args = (Arg * len(values))()
        for i, (sig, v) in enumerate(zip(signature, values)):
            t = sig["type"]
            if t.startswith("ptr"):
                args[i] = Arg(ARG_TYPES["ptr"], 0, v.data_ptr())
            elif t == "f32":
                args[i] = Arg(ARG_TYPES["f32"], 0,
                              int.from_bytes(C.c_float(v).value.hex().encode(), "big") if False
                              else C.cast(C.pointer(C.c_float(v)), C.POINTER(C.c_uint32)).contents.value)
            elif t == "f64":
                args[i] = Arg(ARG_TYPES["f64"], 0,
                              C.cast(C.pointer(C.c_double(v)), C.POINTER(C.c_uint64)).contents.value)
            else:
                args[i] = Arg(ARG_TYPES[t], 0, int(v) & 0xFFFFFFFFFFFFFFFF)
        return args

    def launch(self, kernel, grid, args):
        stream = C.c_void_p(torch.cuda.current_stream().cuda_stream)
        self._check(self.lib.kiln_kernel_launch(kernel, C.c_uint32(grid[0]), C.c_uint32(grid[1]),
                                                C.c_uint32(grid[2]), stream, args,
                                                C.c_size_t(len(args))), "kiln_kernel_launch")


def elem_type(sig_type):
    return sig_type[4:-1] if sig_type.startswith("ptr<") else sig_type


# Launch configurations of the four reference kernels (corpus README), small
# for conformance and full size for --bench.
def reference_config(name, full):
    if name == "vadd_kernel":
        n = (1 << 28) if full else (1 << 20) - 16 * 7
        return {"grid": (math.ceil(n / 1024), 1, 1), "scalars": {"n": n}, "numel": n}
    if name == "softmax_kernel":
        rows, cols = (16384, 4096) if full else (256, 4000)
        return {"grid": (rows, 1, 1), "numel": rows * 4096,
                "scalars": {"in_stride": 4096, "out_stride": 4096, "n_cols": cols}}
    if name == "layernorm_kernel":
        rows, cols = (16384, 4096) if full else (256, 4000)
        return {"grid": (rows, 1, 1), "numel": rows * 4096,
                "scalars": {"stride": 4096, "n_cols": cols, "eps": 1e-5},
                "small": {"w_ptr": 4096, "b_ptr": 4096}}
    return None


def default_config(ttir_text):
    """The launch of a kernel with neither a reference nor a fixed
    configuration: 8 programs along x, and 8 along y only if the kernel
    reads its program id along y. Programs that differ only along an axis
    the kernel never reads compute the same elements; where a kernel
    updates a buffer in place (Inductor's in_out_ptr) such duplicates race:
    one that reads after another's store adds twice. On (8, 8, 1)
    triton_poi_fused_add_transpose_view_10 (in_out_ptr0 += ...) came out
    different from Triton's by 0.44 in one run.py (forty-first session),
    having matched in every run before and in 60 launches by themselves
    (30 of each compiler's kernel) after; (8, 1, 1) has no duplicates."""
    y = 8 if re.search(r"\btt\.get_program_id\s+y\b", ttir_text) else 1
    return {"grid": (8, y, 1), "numel": 1 << 22}


# Corpus kernels whose launch is fixed by the kernel itself, not by a size
# the harness picks. triton_mm_persistent_tma (Inductor's persistent TMA
# matmul, 2048^3 bf16 baked in) walks its 256 output tiles with a stride of
# 132 programs (Inductor's NUM_SMS, baked in): a grid of 132
# computes every tile once. Its buffers are the default 2^22 elements
# (2048 x 2048); ws_ptr is Inductor's unused TMA workspace.
KERNEL_CONFIGS = {
    "triton_mm_persistent_tma": {"grid": (132, 1, 1), "numel": 2048 * 2048},
}


def launch_config(name, ttir_text, full):
    """A kernel's launch: its reference configuration, else the one fixed
    by the kernel itself (KERNEL_CONFIGS), else default_config."""
    return (reference_config(name, full) or KERNEL_CONFIGS.get(name)
            or default_config(ttir_text))


def triton_scratch(size, alignment, stream):
    """Triton 3.6's allocator hook: kernels that make tensor descriptors in
    the kernel (tt.make_tensor_descriptor) get a hidden global_scratch
    pointer (global_scratch_size bytes per program, in the kernel's .json)
    that Triton's launcher fills from this allocator; without one the launch
    raises "Kernel requires a runtime memory allocation". kiln's kernels
    take no hidden arguments (they build no tensor maps), so kiln's launch
    passes the signature's arguments only."""
    return torch.empty(size, dtype=torch.int8, device="cuda")


def make_inputs(signature, config, seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    values = []
    numel = config.get("numel", 1 << 22)
    for sig in signature:
        t = sig["type"]
        if t.startswith("ptr"):
            et = elem_type(t)
            dtype = TORCH_DTYPES.get(et)
            if dtype is None:
                raise RuntimeError(f"no torch dtype for {et}")
            n = config.get("small", {}).get(sig["name"], numel)
            if dtype.is_floating_point:
                buf = torch.randn(n, generator=g, device="cuda", dtype=torch.float32).to(dtype)
            elif dtype == torch.bool:
                buf = torch.randint(0, 2, (n,), generator=g, device="cuda").bool()
            else:
                buf = torch.randint(0, 64, (n,), generator=g, device="cuda", dtype=dtype)
            values.append(buf)
        else:
            v = config.get("scalars", {}).get(sig["name"])
            if v is None:
                v = 1.0 if t.startswith("f") else 1024
            values.append(v)
    return values


def has_tf32_dots(ttir_text):
    """Whether a TTIR file's dots take f32 operands as tf32, which gives
    their f32 results compare()'s 16-bit tolerance (tf32x3 and other
    precisions spelled with the prefix tf32 too)."""
    return "inputPrecision = tf32" in ttir_text


def compare(a, b, before=None, tf32=False):
    """kiln's buffer `a` against Triton's `b` after the launch; `before` is
    the buffer both started from. Returns (ok, err, detail).

    Only the elements some kernel wrote count: those where `a` or `b`
    differs from `before` (every mismatch is among them). Over the whole
    buffer, a few wrong elements in a 2^22-element buffer vanish in a norm
    (a wrong choice for every other element of a 4096-element output once
    passed as a relative L2 error under 1e-2).

    Integers exactly. Floats, over the written elements: NaNs in the same
    places, the relative L2 error ||a-b|| / ||b|| at most 1e-5 for
    f32/f64 and 1e-2 for 16-bit and f8 types and for f32 results of kernels
    with tf32 dots (tf32 keeps 10 mantissa bits, like f16, and two correct
    tf32 matmuls differ by about 1e-3, e.g. rounding the operands to
    nearest as kiln does or dropping their low bits as the tensor cores do
    with raw f32 data), and no element off by more than 1/8 of its value
    plus 1/4 of the written elements' root mean square (a wrong element
    that the norm of many right ones would hide; 1/8 is one f8 e4m3 step).
    The norm tolerates a different summation order (scans, reductions,
    atomics) where a tight elementwise tolerance fails near zero.
    detail: written (elements), bitwise (kiln's bytes equal Triton's), and
    for floats off (elements past the elementwise bound) and worst_element
    (largest |a-b| over the root mean square)."""
    detail = {"bitwise": bool(torch.equal(a.view(torch.uint8), b.view(torch.uint8)))
              if a.dtype != torch.bool else bool(torch.equal(a, b))}
    if before is None:
        written = torch.ones_like(a, dtype=torch.bool)
    elif a.dtype.is_floating_point:
        prior = before.double()
        prior_nan = torch.isnan(prior)

        def moved(x):
            x = x.double()
            return (x != prior) & ~(torch.isnan(x) & prior_nan)
        written = moved(a) | moved(b)
    else:
        written = (a != before) | (b != before)
    detail["written"] = int(written.sum())
    if a.dtype.is_floating_point:
        x, y = a[written].double(), b[written].double()
        nan_a, nan_b = torch.isnan(x), torch.isnan(y)
        if not torch.equal(nan_a, nan_b):
            detail["nan_places_differ"] = int((nan_a != nan_b).sum())
            return False, float("nan"), detail
        x, y = x.nan_to_num(0), y.nan_to_num(0)
        if x.numel() == 0:
            return True, 0.0, detail
        tol = 1e-2 if a.element_size() <= 2 or tf32 else 1e-5
        diff = (x - y).abs()
        norm_y = float(torch.linalg.vector_norm(y))
        err = float(torch.linalg.vector_norm(x - y)) / max(norm_y, 1e-30)
        rms = norm_y / math.sqrt(y.numel())
        off = int((diff > 0.125 * y.abs() + 0.25 * rms).sum())
        detail["off"] = off
        detail["worst_element"] = float(diff.max()) / max(rms, 1e-30)
        return err <= tol and off == 0, err, detail
    ok = torch.equal(a, b)
    return ok, 0 if ok else int((a != b).sum()), detail


def run_one(kiln, ttir, art_dir, results, time_kernels=False):
    name = os.path.basename(ttir)[:-5]
    row = {"kernel": name, "parsed": False, "compiled": False, "ran": False, "matched": False}
    results.append(row)
    meta_path = os.path.join(art_dir, name, "metadata.json")
    status_path = os.path.join(art_dir, name, "status.txt")
    if os.path.exists(status_path):
        row["parsed"] = True
    if not os.path.exists(meta_path):
        row["note"] = open(status_path).read().strip() if os.path.exists(status_path) else "no artifact"
        return row
    row["parsed"] = row["compiled"] = True
    meta = json.load(open(meta_path))
    opts = json.load(open(ttir[:-5] + ".json"))
    sig = meta["signature"]
    text = open(ttir).read()
    config = launch_config(meta["kernel"], text, False)
    tf32 = has_tf32_dots(text)
    if tf32:
        row["tolerance"] = "tf32 (1e-2)"
    try:
        triton.set_allocator(triton_scratch)
        tk = triton.compile(ttir, target=GPUTarget("cuda", 90, 32),
                            options={"num_warps": opts["num_warps"],
                                     "num_stages": opts["num_stages"]})
        inputs = make_inputs(sig, config, seed=1234)
        ours = [v.clone() if torch.is_tensor(v) else v for v in inputs]
        theirs = [v.clone() if torch.is_tensor(v) else v for v in inputs]
        grid = config["grid"]
        tk[grid](*theirs)
        k = kiln.open(os.path.join(art_dir, name))
        kiln.launch(k, grid, Kiln.pack(sig, ours))
        torch.cuda.synchronize()
        row["ran"] = True
        worst = 0.0
        matched = True
        for s, a, b, before in zip(sig, ours, theirs, inputs):
            if torch.is_tensor(a):
                ok, err, detail = compare(a, b, before, tf32)
                matched &= ok
                worst = max(worst, float(err))
                row.setdefault("buffers", {})[s["name"]] = dict(detail, error=err)
                if not ok:
                    row.setdefault("mismatch", []).append(f"{s['name']} (error {err}, {detail})")
        row["matched"] = matched
        row["worst_error"] = worst
        if time_kernels:
            # Kernel time on this file's conformance shapes (not the corpus
            # README's benchmark shapes): do_bench, median, L2 cleared.
            from triton.testing import do_bench
            packed = Kiln.pack(sig, ours)
            row["kiln_ms"] = do_bench(lambda: kiln.launch(k, grid, packed), warmup=10, rep=60)
            row["triton_ms"] = do_bench(lambda: tk[grid](*theirs), warmup=10, rep=60)
    except Exception as e:  # report and go on with the next kernel
        row["error"] = f"{type(e).__name__}: {e}"
        traceback.print_exc(file=sys.stderr)
    return row


def bench(kiln, ttir_dir, art_dir):
    from triton.testing import do_bench
    rows = []
    for name in ("vadd_kernel", "softmax_kernel", "layernorm_kernel"):
        ttir = os.path.join(ttir_dir, name + ".ttir")
        meta = json.load(open(os.path.join(art_dir, name, "metadata.json")))
        opts = json.load(open(ttir[:-5] + ".json"))
        config = reference_config(name, True)
        tk = triton.compile(ttir, target=GPUTarget("cuda", 90, 32),
                            options={"num_warps": opts["num_warps"],
                                     "num_stages": opts["num_stages"]})
        inputs = make_inputs(meta["signature"], config, seed=7)
        k = kiln.open(os.path.join(art_dir, name))
        args = Kiln.pack(meta["signature"], inputs)
        grid = config["grid"]
        t_kiln = do_bench(lambda: kiln.launch(k, grid, args), warmup=25, rep=300)
        t_triton = do_bench(lambda: tk[grid](*inputs), warmup=25, rep=300)
        if name == "vadd_kernel":
            nbytes = 3 * 4 * config["scalars"]["n"]
        elif name == "softmax_kernel":
            nbytes = 2 * 4 * 16384 * 4096
        else:
            nbytes = 2 * 2 * 16384 * 4096 + 2 * 4 * 4096
        rows.append({"kernel": name, "kiln_ms": t_kiln, "triton_ms": t_triton,
                     "kiln_GBps": nbytes / t_kiln / 1e6, "triton_GBps": nbytes / t_triton / 1e6,
                     "ratio": t_triton / t_kiln})
    return rows


def parse_matmul_size(text):
    """'4096' -> (4096, 4096, 4096); '1040x1040x8224' -> (M, N, K). The
    corpus matmul_kernel assumes M, N, K and the strides divisible by 16
    (tt.divisibility), so other sizes are refused."""
    dims = [int(x) for x in text.lower().split("x")]
    if len(dims) == 1:
        dims *= 3
    if len(dims) != 3 or any(d <= 0 or d % 16 for d in dims):
        raise SystemExit(f"--matmul size {text!r}: want N or MxNxK, each a "
                         "positive multiple of 16 (the kernel's tt.divisibility)")
    return tuple(dims)


def bench_matmul(kiln, ttir_dir, art_dir, sizes):
    """matmul_kernel (f16 in, f32 accumulate, f16 out; row-major; the corpus
    options num_warps 8, num_stages 3) at M = N = K = size, kiln and Triton
    on the same buffers, cuBLAS (torch.matmul) for scale; results checked
    against cuBLAS by relative L2 error."""
    from triton.testing import do_bench
    name = "matmul_kernel"
    ttir = os.path.join(ttir_dir, name + ".ttir")
    meta = json.load(open(os.path.join(art_dir, name, "metadata.json")))
    opts = json.load(open(ttir[:-5] + ".json"))
    tk = triton.compile(ttir, target=GPUTarget("cuda", 90, 32),
                        options={"num_warps": opts["num_warps"],
                                 "num_stages": opts["num_stages"]})
    k = kiln.open(os.path.join(art_dir, name))
    rows = []
    for size in sizes:
        m, n, kk = size
        g = torch.Generator(device="cuda").manual_seed(m * 7 + n * 3 + kk)
        a = torch.randn(m, kk, generator=g, device="cuda", dtype=torch.float16)
        b = torch.randn(kk, n, generator=g, device="cuda", dtype=torch.float16)
        c_kiln = torch.empty(m, n, device="cuda", dtype=torch.float16)
        c_triton = torch.empty_like(c_kiln)
        grid = (math.ceil(m / 128) * math.ceil(n / 256), 1, 1)
        call = [m, n, kk, kk, n, n]  # M, N, K, stride_am, stride_bk, stride_cm
        args = Kiln.pack(meta["signature"], [a, b, c_kiln, *call])
        kiln.launch(k, grid, args)
        tk[grid](a, b, c_triton, *call)
        ref = torch.matmul(a, b)
        torch.cuda.synchronize()
        err = lambda c: float(torch.linalg.vector_norm((c.double() - ref.double())) /
                              torch.linalg.vector_norm(ref.double()))
        t_kiln = do_bench(lambda: kiln.launch(k, grid, args), warmup=25, rep=300)
        t_triton = do_bench(lambda: tk[grid](a, b, c_triton, *call),
                            warmup=25, rep=300)
        t_cublas = do_bench(lambda: torch.matmul(a, b), warmup=25, rep=300)
        tflops = lambda ms: 2 * m * n * kk / ms / 1e9
        label = f"{m}^3" if m == n == kk else f"{m}x{n}x{kk}"
        rows.append({"kernel": f"matmul {label}", "kiln_ms": t_kiln, "triton_ms": t_triton,
                     "cublas_ms": t_cublas, "kiln_TFLOPs": tflops(t_kiln),
                     "triton_TFLOPs": tflops(t_triton), "cublas_TFLOPs": tflops(t_cublas),
                     "ratio": t_triton / t_kiln, "kiln_rel_err": err(c_kiln),
                     "triton_rel_err": err(c_triton),
                     "kiln_vs_triton_max_abs": float((c_kiln.float() - c_triton.float()).abs().max())})
    return rows


def run_isolated(args, path):
    """Runs one file's comparison in a fresh process: a kernel that faults,
    or a compiler that aborts, cannot take the other files down with it."""
    import subprocess
    cmd = [sys.executable, os.path.abspath(__file__), "--one", path,
           "--kiln-out", args.kiln_out, "--runtime-lib", args.runtime_lib,
           "--ttir", *args.ttir] + (["--time"] if args.time else [])
    name = os.path.basename(path)[:-5]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return {"kernel": name, "parsed": False, "compiled": False, "ran": False,
                "matched": False, "error": "timed out after 300 s"}
    sys.stderr.write(proc.stderr)
    for line in proc.stdout.splitlines():
        if line.startswith("{"):
            return json.loads(line)
    tail = " | ".join(proc.stderr.strip().splitlines()[-2:])
    meta = os.path.exists(os.path.join(args.kiln_out, name, "metadata.json"))
    return {"kernel": name, "parsed": True, "compiled": meta, "ran": False,
            "matched": False,
            "error": f"process exited with {proc.returncode}: {tail}"}


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ttir", required=True, nargs="+",
                   help="directories of NAME.ttir + NAME.json")
    p.add_argument("--kiln-out", required=True)
    p.add_argument("--runtime-lib", required=True)
    p.add_argument("--json")
    p.add_argument("--bench", action="store_true")
    p.add_argument("--bench-only", action="store_true",
                   help="skip the conformance pass (implies --bench)")
    p.add_argument("--matmul", default="",
                   help="with --bench: comma-separated sizes for matmul_kernel "
                        "(N for NxNxN, or MxNxK; e.g. 2048,4096,8192,1040x1040x8224)")
    p.add_argument("--only", default="",
                   help="comma-separated kernel names: run just these files")
    p.add_argument("--time", action="store_true",
                   help="also time each matched kernel, kiln's and Triton's, on the "
                        "file's conformance inputs (do_bench median, ms)")
    p.add_argument("--jobs", type=int, default=1,
                   help="files compared at once, each in its own process (correctness "
                        "only: with --time, timings of concurrent kernels disturb each other)")
    p.add_argument("--one", help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.jobs < 1:
        p.error(f"--jobs must be at least 1, got {a.jobs}")
    if a.jobs > 1 and a.time:
        p.error("--time with --jobs above 1: concurrent kernels would disturb each other's times")
    if a.one:
        kiln = Kiln(a.runtime_lib)
        results = []
        run_one(kiln, a.one, a.kiln_out, results, time_kernels=a.time)
        print(json.dumps(results[0]), flush=True)
        return
    results = []
    files = sorted(os.path.join(d, f) for d in a.ttir for f in os.listdir(d)
                   if f.endswith(".ttir"))
    if a.only:
        wanted = set(a.only.split(","))
        files = [f for f in files if os.path.basename(f)[:-5] in wanted]
    if a.bench_only:
        files, a.bench = [], True
    from concurrent.futures import ThreadPoolExecutor
    pool = ThreadPoolExecutor(max_workers=a.jobs)
    # In file order, whatever order the processes finish in.
    for row in pool.map(lambda path: run_isolated(a, path), files):
        results.append(row)
        flags = " ".join(f"{k}={'yes' if row[k] else 'no'}"
                         for k in ("parsed", "compiled", "ran", "matched"))
        extra = row.get("note") or row.get("error") or ", ".join(row.get("mismatch", []))
        if "kiln_ms" in row:
            extra = (f"kiln {row['kiln_ms'] * 1e3:.1f} us, Triton {row['triton_ms'] * 1e3:.1f} us "
                     f"{extra}").rstrip()
        print(f"{row['kernel']:55s} {flags} {extra}".rstrip(), flush=True)
        if a.json:  # so far, in case the run is cut short
            json.dump({"conformance": results, "partial": True}, open(a.json, "w"), indent=1)
    n = len(results)
    print(f"conformance: {n} files, {sum(r['parsed'] for r in results)} parsed, "
          f"{sum(r['compiled'] for r in results)} compiled, {sum(r['ran'] for r in results)} ran, "
          f"{sum(r['matched'] for r in results)} matched")
    out = {"conformance": results}
    if a.bench:
        kiln = Kiln(a.runtime_lib)
        rows = bench(kiln, a.ttir[0], a.kiln_out)
        out["bench"] = rows
        print("| kernel | kiln ms | Triton ms | kiln GB/s | Triton GB/s | kiln/Triton throughput |")
        print("|---|---|---|---|---|---|")
        for r in rows:
            print(f"| {r['kernel']} | {r['kiln_ms']:.4f} | {r['triton_ms']:.4f} | "
                  f"{r['kiln_GBps']:.0f} | {r['triton_GBps']:.0f} | {r['ratio']:.3f} |")
        if a.matmul:
            mm = bench_matmul(kiln, a.ttir[0], a.kiln_out,
                              [parse_matmul_size(x) for x in a.matmul.split(",")])
            out["bench_matmul"] = mm
            print("| matmul (f16, f32 acc) | kiln ms | Triton ms | cuBLAS ms | kiln TFLOP/s "
                  "| Triton TFLOP/s | cuBLAS TFLOP/s | kiln/Triton | kiln rel. err | Triton rel. err "
                  "| max abs kiln - Triton |")
            print("|---|---|---|---|---|---|---|---|---|---|---|")
            for r in mm:
                print(f"| {r['kernel']} | {r['kiln_ms']:.3f} | {r['triton_ms']:.3f} | "
                      f"{r['cublas_ms']:.3f} | {r['kiln_TFLOPs']:.0f} | {r['triton_TFLOPs']:.0f} | "
                      f"{r['cublas_TFLOPs']:.0f} | {r['ratio']:.3f} | {r['kiln_rel_err']:.2e} | "
                      f"{r['triton_rel_err']:.2e} | {r['kiln_vs_triton_max_abs']:.2e} |",
                      flush=True)
    if a.json:
        json.dump(out, open(a.json, "w"), indent=1)


if __name__ == "__main__":
    main()
