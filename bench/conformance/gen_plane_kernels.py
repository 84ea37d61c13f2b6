#!/usr/bin/env python3
"""Chunk-plane conformance kernels (cp_*): tensor-core matmuls with an f32
accumulator whose epilogue keeps the mma -> blocked conversion in f32
(ef7b293: kgpu.convert_layout through chunk planes; written by helper-72
as a break-test of it, docs/BENCHMARKS.md, thirty-third session). Same
conventions as
bench/conformance/gen_layout_kernels.py: Triton 3.6 TTIR for
GPUTarget("cuda", 90, 32) on the CPU, pointers and scalars tt.divisibility
16; correct under grid (8, 8, 1), every i32 scalar 1024, every buffer 4M
elements; every output element written by one program only.

Generate (Triton 3.6, no GPU; run with the Triton venv's python):

    python gen_plane_kernels.py [--out bench/conformance/kernels_planes] [--only NAME...]

The path is taken where the epilogue also loads a 2-D [BM, BN] tile (the
residual r): the f32 accumulator is converted to that tile's layout, 8
values per thread. A broadcast bias row alone does not take it (the
controls cp_ctrl_*).
"""
import ttir_kernels  # the TTIR and JSON writing (scrub, main)

T_TY = {"f16": "*fp16", "bf16": "*bf16", "f32": "*fp32"}


def define():
    import triton
    import triton.language as tl

    @triton.jit
    def cp_mm(a, b, c, r, v, M, N, K, stride_am, stride_bk, stride_cm,
              M_SUB: tl.constexpr, N_SUB: tl.constexpr, K_SUB: tl.constexpr,
              BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
              BIAS: tl.constexpr, SCALE: tl.constexpr, RES: tl.constexpr,
              ROWV: tl.constexpr, GELU: tl.constexpr, MASK: tl.constexpr,
              KMASK: tl.constexpr):
        # acc (f32) -> [acc * scale row] -> [+ bias row] -> [+ per-row v]
        # -> [+ residual r, a 2-D [BM, BN] tile in the input type] -> [gelu]
        # -> c (2-D mask). Bias and scale are 1 x BN rows broadcast (Inductor's
        # addmm: tl.load(bias + rn[None, :])), from v (f32): bias at v[n],
        # scale at v[4096 + n], row values at v[8192 + m].
        M = M - M_SUB
        N = N - N_SUB
        K = K - K_SUB
        pid_m = tl.program_id(0)
        pid_n = tl.program_id(1)
        rm = pid_m * BM + tl.arange(0, BM)
        rn = pid_n * BN + tl.arange(0, BN)
        rk = tl.arange(0, BK)
        if MASK:
            ram = tl.max_contiguous(tl.multiple_of(rm % M, BM), BM)
            rbn = tl.max_contiguous(tl.multiple_of(rn % N, BN), BN)
        else:
            ram = rm
            rbn = rn
        a_ptrs = a + ram[:, None] * stride_am + rk[None, :]
        b_ptrs = b + rk[:, None] * stride_bk + rbn[None, :]
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k0 in range(0, K, BK):
            if KMASK:
                x = tl.load(a_ptrs, mask=(k0 + rk)[None, :] < K, other=0.0)
                y = tl.load(b_ptrs, mask=(k0 + rk)[:, None] < K, other=0.0)
            else:
                x = tl.load(a_ptrs)
                y = tl.load(b_ptrs)
            acc += tl.dot(x, y)
            a_ptrs += BK
            b_ptrs += BK * stride_bk
        idx_m = rm[:, None]
        idx_n = rn[None, :]
        mask = (idx_m < M) & (idx_n < N)
        if SCALE:
            acc = acc * tl.load(v + 4096 + idx_n, mask=idx_n < N, other=1.0)
        if BIAS:
            acc = acc + tl.load(v + idx_n, mask=idx_n < N, other=0.0)
        if ROWV:
            acc = acc + tl.load(v + 8192 + idx_m, mask=idx_m < M, other=0.0)
        if RES:
            acc = acc + tl.load(r + idx_m * stride_cm + idx_n, mask=mask, other=0.0).to(tl.float32)
        if GELU:
            acc = acc * 0.5 * (1.0 + tl.erf(acc * 0.7071067811865476))
        tl.store(c + idx_m * stride_cm + idx_n, acc.to(c.dtype.element_ty), mask=mask)

    return dict(cp_mm=cp_mm)


ARGS = ["a", "b", "c", "r", "v", "M", "N", "K", "stride_am", "stride_bk", "stride_cm"]
DEF = dict(M_SUB=0, N_SUB=0, K_SUB=0, BIAS=False, SCALE=False, RES=True, ROWV=False,
           GELU=False, MASK=False, KMASK=False)


def mm(name, dt, out, tile, w, s, **kw):
    bm, bn, bk = tile
    ce = dict(DEF)
    ce.update(BM=bm, BN=bn, BK=bk)
    ce.update(kw)
    sig = dict(zip(ARGS, [T_TY[dt], T_TY[dt], T_TY[out], T_TY[dt], "*fp32"] + ["i32"] * 6))
    return dict(name=name, fn="cp_mm", warps=w, stages=s, sig=sig, ce=ce)


def candidates():
    c = []
    def add(tag, dt, out, tile, w, s, **kw):
        t = "x".join(map(str, tile))
        c.append(mm(f"cp_{tag}_{dt}{'_o32' if out == 'f32' else ''}_{t}_w{w}_s{s}", dt, out, tile, w, s, **kw))
    add("res", "f16", "f16", (64, 64, 32), 4, 2)
    add("res", "bf16", "bf16", (64, 64, 32), 8, 3)
    add("biasres", "f16", "f16", (64, 128, 64), 4, 3, BIAS=True)
    add("biasres", "bf16", "bf16", (64, 128, 64), 8, 4, BIAS=True)
    add("biasres", "f16", "f16", (128, 128, 64), 8, 3, BIAS=True)
    add("biasres", "bf16", "bf16", (128, 128, 64), 4, 2, BIAS=True)
    add("scaleres", "f16", "f16", (128, 64, 32), 4, 4, SCALE=True)
    add("scaleres", "bf16", "bf16", (128, 64, 32), 8, 2, SCALE=True)
    add("biasres", "f16", "f16", (64, 256, 64), 4, 3, BIAS=True)
    add("biasres", "bf16", "bf16", (64, 256, 64), 8, 2, BIAS=True)
    add("biasres", "f16", "f16", (128, 256, 64), 8, 3, BIAS=True)
    add("biasres", "bf16", "bf16", (128, 256, 64), 8, 4, BIAS=True, GELU=True)
    add("biasres", "f16", "f16", (256, 128, 64), 8, 3, BIAS=True)
    add("biasres", "bf16", "bf16", (256, 128, 64), 8, 2, BIAS=True)
    add("biasres", "f16", "f16", (32, 128, 64), 4, 3, BIAS=True)
    add("biasres", "bf16", "bf16", (32, 128, 64), 4, 4, BIAS=True)
    # Control: rows of 128 bytes (BN 32) keep plain padded rows (4 lanes
    # along a row; 8 would wrap the 32 columns).
    add("ctrl_res", "f16", "f16", (64, 32, 32), 4, 2)
    add("scalebiasres", "f16", "f16", (128, 128, 64), 4, 4, SCALE=True, BIAS=True)
    add("rowres", "f16", "f16", (64, 128, 64), 8, 3, ROWV=True)
    add("biasres", "f16", "f32", (128, 128, 64), 8, 3, BIAS=True)
    add("res", "bf16", "f32", (64, 64, 32), 4, 4)
    add("biasres", "f16", "f32", (64, 256, 64), 8, 2, BIAS=True)
    add("maskbiasres", "f16", "f16", (128, 128, 64), 8, 3, BIAS=True, MASK=True, M_SUB=24, N_SUB=40)
    add("maskscaleres", "bf16", "bf16", (64, 128, 64), 4, 2, SCALE=True, MASK=True, M_SUB=8, N_SUB=72,
        KMASK=True, K_SUB=40)
    add("maskres", "f16", "f32", (64, 64, 32), 4, 3, MASK=True, M_SUB=24, N_SUB=40)
    add("gelures", "f16", "f16", (128, 64, 32), 8, 4, GELU=True, BIAS=True)
    # Controls: the bias row alone (the conversion runs in f16 after the
    # truncation, or to a 16-byte-per-thread f32 layout).
    add("ctrl_bias", "f16", "f16", (128, 128, 64), 8, 3, RES=False, BIAS=True)
    return c


configs = candidates

if __name__ == "__main__":
    ttir_kernels.main("kernels_planes", define, configs)
