#!/usr/bin/env python3
"""Scan kernels (tl.cumsum, tl.cumprod, tl.associative_scan) for the
differential conformance of kiln's tt.scan lowering against Triton 3.6:
1D and 2D tiles scanned along either axis, forward and reverse, sums,
products, maxima and a two-operand running argmax (a combine that keeps
the first of two equal values, so it does not commute), in f32, f16, i32
and i64, on 1 to 32 warps, over tiles shorter and longer than the
layout's tile, and a scan in a loop carrying its total (Inductor's looped
cumsum); each with and without tt.divisibility 16 on its pointers.

    python3 gen_scan_kernels.py OUT_DIR

writes OUT_DIR/NAME.ttir and NAME.json ({"num_warps", "num_stages"}) for
each, compiled by Triton on the CPU (no GPU needed; `pip install
triton==3.6.0` in a virtual environment); files already there are kept.
Every program scans its own tile (program id 0 picks it), so
conformance.py's default grid of 8 programs writes 8 tiles.
"""
import json
import os
import sys

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget


@triton.jit
def cumsum_1d(X, Y, N: tl.constexpr, REVERSE: tl.constexpr):
    o = tl.program_id(0) * N + tl.arange(0, N)
    x = tl.load(X + o)
    tl.store(Y + o, tl.cumsum(x, 0, reverse=REVERSE))


@triton.jit
def cumsum_2d(X, Y, M: tl.constexpr, N: tl.constexpr, AXIS: tl.constexpr,
              REVERSE: tl.constexpr):
    base = tl.program_id(0) * M * N
    o = base + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(X + o)
    tl.store(Y + o, tl.cumsum(x, AXIS, reverse=REVERSE))


@triton.jit
def cumprod_2d(X, Y, M: tl.constexpr, N: tl.constexpr, AXIS: tl.constexpr):
    base = tl.program_id(0) * M * N
    o = base + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(X + o)
    tl.store(Y + o, tl.cumprod(x, AXIS))


@triton.jit
def _max(a, b):
    return tl.maximum(a, b)


@triton.jit
def cummax_2d(X, Y, M: tl.constexpr, N: tl.constexpr, AXIS: tl.constexpr,
              REVERSE: tl.constexpr):
    base = tl.program_id(0) * M * N
    o = base + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(X + o)
    tl.store(Y + o, tl.associative_scan(x, AXIS, _max, reverse=REVERSE))


@triton.jit
def _first_max(v0, i0, v1, i1):
    take = v1 > v0
    return tl.where(take, v1, v0), tl.where(take, i1, i0)


@triton.jit
def running_argmax(X, Y, I, M: tl.constexpr, N: tl.constexpr,
                   AXIS: tl.constexpr):
    base = tl.program_id(0) * M * N
    o = base + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(X + o)
    idx = o - base
    v, i = tl.associative_scan((x, idx), AXIS, _first_max)
    tl.store(Y + o, v)
    tl.store(I + o, i)


@triton.jit
def looped_cumsum(X, Y, n, BLOCK: tl.constexpr):
    base = tl.program_id(0) * n
    carry = tl.zeros([1], tl.float32)
    for start in range(0, n, BLOCK):
        o = start + tl.arange(0, BLOCK)
        x = tl.load(X + base + o, mask=o < n, other=0.0)
        tl.store(Y + base + o, tl.cumsum(x, 0) + carry, mask=o < n)
        carry += tl.sum(x, 0)


P = {"f16": "*fp16", "f32": "*fp32", "i32": "*i32", "i64": "*i64"}
jobs = []


def add(name, fn, sig, cexpr, warps, stages=1):
    jobs.append((name, fn, sig, cexpr, warps, stages))


for n, warps in [(32, 4), (128, 1), (128, 4), (512, 8), (1024, 4), (1024, 1),
                 (4096, 8), (4096, 16), (2048, 32)]:
    for rev in (False, True):
        dt = "f32" if n < 4096 or not rev else "i32"
        add(f"scan_cumsum_{n}_{dt}{'_rev' if rev else ''}_w{warps}", cumsum_1d,
            {"X": P[dt], "Y": P[dt]}, {"N": n, "REVERSE": rev}, warps)

shapes = [(4, 64, 4), (16, 64, 4), (8, 256, 4), (32, 32, 8), (64, 16, 4),
          (2, 1024, 8), (128, 8, 2), (16, 512, 16), (256, 4, 4), (64, 64, 16),
          (8, 128, 8), (128, 32, 8), (4, 4096, 32)]
for i, (m, n, warps) in enumerate(shapes):
    for axis in (0, 1):
        dt = ["f32", "i32", "f16"][(i + axis) % 3]
        rev = (i + axis) % 2 == 1
        tag = f"{m}x{n}_a{axis}_w{warps}"
        add(f"scan_cumsum2d_{tag}_{dt}{'_rev' if rev else ''}", cumsum_2d,
            {"X": P[dt], "Y": P[dt]},
            {"M": m, "N": n, "AXIS": axis, "REVERSE": rev}, warps)
        add(f"scan_cumprod2d_{tag}_i32", cumprod_2d, {"X": "*i32", "Y": "*i32"},
            {"M": m, "N": n, "AXIS": axis}, warps)
        mdt = "i64" if i % 2 else "f16"
        add(f"scan_cummax2d_{tag}_{mdt}{'' if rev else '_rev'}", cummax_2d,
            {"X": P[mdt], "Y": P[mdt]},
            {"M": m, "N": n, "AXIS": axis, "REVERSE": not rev}, warps)
        add(f"scan_argmax2d_{tag}_i32", running_argmax,
            {"X": "*i32", "Y": "*i32", "I": "*i32"},
            {"M": m, "N": n, "AXIS": axis}, warps)

for block, warps in [(256, 4), (1024, 4), (2048, 8)]:
    add(f"scan_looped_cumsum_{block}_w{warps}", looped_cumsum,
        {"X": "*fp32", "Y": "*fp32", "n": "i32"}, {"BLOCK": block}, warps)


# Each kernel also with its pointers tt.divisibility 16, as Triton's
# launcher specializes them (`_d16`): vector loads, so several elements a
# thread along the axis.
jobs += [(name + "_d16", fn, sig, cexpr, warps, stages, True)
         for name, fn, sig, cexpr, warps, stages in jobs]
jobs = [job if len(job) == 7 else job + (False,) for job in jobs]


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: gen_scan_kernels.py OUT_DIR")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    print(len(jobs), "kernels", file=sys.stderr)
    ok = 0
    for name, fn, sig, cexpr, warps, stages, d16 in jobs:
        if os.path.exists(f"{out}/{name}.ttir"):
            ok += 1
            continue
        sig2 = dict(sig)
        for k in cexpr:
            sig2[k] = "constexpr"
        try:
            attrs = {(fn.arg_names.index(k),): [["tt.divisibility", 16]]
                     for k, v in sig.items() if d16 and v.startswith("*")}
            src = triton.compiler.ASTSource(fn=fn, signature=sig2, constexprs=cexpr,
                                            attrs=attrs)
            c = triton.compile(src, target=GPUTarget("cuda", 90, 32),
                               options={"num_warps": warps, "num_stages": stages})
            ttir = c.asm["ttir"].replace(f"@{fn.__name__}(", f"@{name}(", 1)
            with open(f"{out}/{name}.ttir", "w") as f:
                f.write(ttir)
            with open(f"{out}/{name}.json", "w") as f:
                json.dump({"num_warps": warps, "num_stages": stages}, f)
            ok += 1
        except Exception as e:  # report and go on with the others
            print("FAIL", name, str(e)[:300], file=sys.stderr)
    print("ok", ok, file=sys.stderr)


if __name__ == "__main__":
    main()
