#!/usr/bin/env python3
"""Split-tile conformance kernels (sp_*): tensor-core matmuls whose operand
tiles are smaller than, or only share index computations with, a tile of
another shape (the epilogue's residual, bias row or column, the other
operand), with an activation or scale applied to A, to B or to both before
tt.dot. Written as a break-test of kgpu-assign-layouts' split of loaded
tiles from their group's layout (5b3e127, 94e1dfd): a loaded tile whose
group's blocked layout is longer than the tile along a dimension of size
> 1 gets its own copies of the index computations.

Same conventions as gen_plane_kernels.py / gen_heavy_kernels.py: Triton 3.6
TTIR for GPUTarget("cuda", 90, 32) on the CPU, pointers and i32 scalars
tt.divisibility 16; correct under conformance.py's default launch: grid
(8, 8, 1), every i32 scalar 1024, every f32 scalar 1.0, every buffer 4M
random elements. The masked kernels add M_ADD / N_ADD / K_ADD to M, N, K
inside the kernel (ragged M and N edges 8 * BM - edge, K tails). Every
output element is written by one program only, except in the three
kernels with BN = 256 (sp_both_biasres_bf16_64x256x64_w8_s2,
sp_narrowa_res_f16_16x256x32_w8_s2, sp_shortk_res_f16_128x256x16_w8_s3):
eight programs along N cover 2048 columns of rows 1024 apart, so
programs overlap and the last writer decides; check those with
`ab_time.py --grid 1,1,1` (on the H200 both builds then matched Triton
bitwise, and on the default grid both mismatched alike).

Buffers: a (A, M x K row-major, or with ASTRIDE), b (B, K x N, or N x K
with TRANS_B), c (output), r (residual, read with c's stride), v (f32
vectors: bias row v[n], column v[8192 + m], per-K scale v[12288 + k],
scalar v[16384], per-row A scale v[8192 + m]); sp_two has a second
output d.

Generate (Triton 3.6, no GPU; run with the Triton venv's python):

    python gen_split_kernels.py [--out bench/conformance/kernels_split] [--only NAME...]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ttir_kernels  # the TTIR and JSON writing (scrub, main)

T_TY = {"f16": "*fp16", "bf16": "*bf16", "f32": "*fp32"}


def define():
    import triton
    import triton.language as tl

    @triton.jit
    def sp_mm(a, b, c, r, v, M, N, K, stride_am, stride_bk, stride_cm,
              BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
              M_ADD: tl.constexpr, N_ADD: tl.constexpr, K_ADD: tl.constexpr,
              MASK: tl.constexpr, KMASK: tl.constexpr,
              ACT_A: tl.constexpr, ACT_B: tl.constexpr, TRANS_B: tl.constexpr,
              RES: tl.constexpr, BIAS: tl.constexpr, BCOL: tl.constexpr,
              SCAL: tl.constexpr, GELU: tl.constexpr):
        # ACT_A: 0 none, 1 silu, 2 per-K scale row (v[12288 + k], [1, BK]),
        #        3 per-row scale ([BM, 1] from a 1-D load before the loop),
        #        4 x / (1 + |x|)
        # ACT_B: 0 none, 1 sigmoid + bias row ([1, BN], loaded in the loop),
        #        2 per-K scale column ([BK, 1]), 3 relu
        # BIAS / BCOL: 1 a 1-D load expanded, 2 a 2-D [1, BN] / [BM, 1] load.
        M = M + M_ADD
        N = N + N_ADD
        K = K + K_ADD
        pid_m = tl.program_id(0)
        pid_n = tl.program_id(1)
        rm = pid_m * BM + tl.arange(0, BM)
        rn = pid_n * BN + tl.arange(0, BN)
        rk = tl.arange(0, BK)
        m_ok = rm < M
        n_ok = rn < N
        a_ptrs = a + rm[:, None] * stride_am + rk[None, :]
        if TRANS_B:
            b_ptrs = b + rn[:, None] * stride_bk + rk[None, :]
        else:
            b_ptrs = b + rk[:, None] * stride_bk + rn[None, :]
        if ACT_A == 3:
            rs = tl.load(v + 8192 + rm, mask=m_ok, other=0.0)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k0 in range(0, K, BK):
            k_ok = (k0 + rk) < K
            if MASK:
                if KMASK:
                    x = tl.load(a_ptrs, mask=m_ok[:, None] & k_ok[None, :], other=0.0)
                    if TRANS_B:
                        y = tl.load(b_ptrs, mask=n_ok[:, None] & k_ok[None, :], other=0.0)
                    else:
                        y = tl.load(b_ptrs, mask=k_ok[:, None] & n_ok[None, :], other=0.0)
                else:
                    x = tl.load(a_ptrs, mask=m_ok[:, None], other=0.0)
                    if TRANS_B:
                        y = tl.load(b_ptrs, mask=n_ok[:, None], other=0.0)
                    else:
                        y = tl.load(b_ptrs, mask=n_ok[None, :], other=0.0)
            else:
                if KMASK:
                    x = tl.load(a_ptrs, mask=k_ok[None, :], other=0.0)
                    if TRANS_B:
                        y = tl.load(b_ptrs, mask=k_ok[None, :], other=0.0)
                    else:
                        y = tl.load(b_ptrs, mask=k_ok[:, None], other=0.0)
                else:
                    x = tl.load(a_ptrs)
                    y = tl.load(b_ptrs)
            if TRANS_B:
                y = tl.trans(y)
            if ACT_A == 1:
                xf = x.to(tl.float32)
                x = (xf * tl.sigmoid(xf)).to(a.dtype.element_ty)
            elif ACT_A == 2:
                sk = tl.load(v + 12288 + k0 + rk, mask=k_ok, other=0.0)
                x = (x.to(tl.float32) * sk[None, :]).to(a.dtype.element_ty)
            elif ACT_A == 3:
                x = (x.to(tl.float32) * rs[:, None]).to(a.dtype.element_ty)
            elif ACT_A == 4:
                xf = x.to(tl.float32)
                x = (xf / (1.0 + tl.abs(xf))).to(a.dtype.element_ty)
            if ACT_B == 1:
                bn = tl.load(v + rn, mask=n_ok, other=0.0)
                y = (tl.sigmoid(y.to(tl.float32)) + bn[None, :]).to(b.dtype.element_ty)
            elif ACT_B == 2:
                sk2 = tl.load(v + 12288 + k0 + rk, mask=k_ok, other=0.0)
                y = (y.to(tl.float32) * sk2[:, None]).to(b.dtype.element_ty)
            elif ACT_B == 3:
                y = tl.where(y > 0, y, tl.zeros_like(y))
            acc = tl.dot(x, y, acc)
            a_ptrs += BK
            if TRANS_B:
                b_ptrs += BK
            else:
                b_ptrs += BK * stride_bk
        idx_m = rm[:, None]
        idx_n = rn[None, :]
        mask = (idx_m < M) & (idx_n < N)
        if SCAL:
            acc = acc * tl.load(v + 16384)
        if BIAS == 1:
            acc = acc + tl.load(v + rn, mask=n_ok, other=0.0)[None, :]
        elif BIAS == 2:
            acc = acc + tl.load(v + idx_n, mask=idx_n < N, other=0.0)
        if BCOL == 1:
            acc = acc + tl.load(v + 8192 + rm, mask=m_ok, other=0.0)[:, None]
        elif BCOL == 2:
            acc = acc + tl.load(v + 8192 + idx_m, mask=idx_m < M, other=0.0)
        if RES:
            if MASK:
                acc = acc + tl.load(r + idx_m * stride_cm + idx_n, mask=mask, other=0.0).to(tl.float32)
            else:
                acc = acc + tl.load(r + idx_m * stride_cm + idx_n).to(tl.float32)
        if GELU:
            acc = acc * 0.5 * (1.0 + tl.erf(acc * 0.7071067811865476))
        if MASK:
            tl.store(c + idx_m * stride_cm + idx_n, acc.to(c.dtype.element_ty), mask=mask)
        else:
            tl.store(c + idx_m * stride_cm + idx_n, acc.to(c.dtype.element_ty))

    @triton.jit
    def sp_alpha(a, b, c, r, M, N, K, alpha,
                 BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
        # A silu'd before the dot, epilogue scaled by an f32 scalar argument
        # (conformance.py passes 1.0) plus a residual tile.
        pid_m = tl.program_id(0)
        pid_n = tl.program_id(1)
        rm = pid_m * BM + tl.arange(0, BM)
        rn = pid_n * BN + tl.arange(0, BN)
        rk = tl.arange(0, BK)
        a_ptrs = a + rm[:, None] * K + rk[None, :]
        b_ptrs = b + rk[:, None] * N + rn[None, :]
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k0 in range(0, K, BK):
            x = tl.load(a_ptrs).to(tl.float32)
            x = x * tl.sigmoid(x)
            acc = tl.dot(x.to(a.dtype.element_ty), tl.load(b_ptrs), acc)
            a_ptrs += BK
            b_ptrs += BK * N
        offs = rm[:, None] * N + rn[None, :]
        acc = acc * alpha + tl.load(r + offs).to(tl.float32)
        tl.store(c + offs, acc.to(c.dtype.element_ty))

    @triton.jit
    def sp_shared(a, b, c, r, v, M, N, K, stride_am, stride_cm,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                  M_ADD: tl.constexpr, N_ADD: tl.constexpr,
                  MODE: tl.constexpr, RES: tl.constexpr, ACT: tl.constexpr):
        # A loaded tile used both by the dot and by the epilogue.
        # MODE 0: a loop-invariant A tile x0 ([BM, BK], loaded before the
        #         loop) is the dot's A and is added to the result (BK == BN).
        # MODE 1: the loop's A tile's row sums are accumulated next to the
        #         dot and added to the result as a column.
        # MODE 2: a [BM, 1] f32 row scale loaded as a 2-D tile before the
        #         loop scales A in the loop and the result after it.
        # MODE 3: a [1, BN] f32 column bias loaded as a 2-D tile before the
        #         loop is added to B in the loop and to the result after it.
        M = M + M_ADD
        N = N + N_ADD
        pid_m = tl.program_id(0)
        pid_n = tl.program_id(1)
        rm = pid_m * BM + tl.arange(0, BM)
        rn = pid_n * BN + tl.arange(0, BN)
        rk = tl.arange(0, BK)
        m_ok = rm < M
        n_ok = rn < N
        mask = m_ok[:, None] & n_ok[None, :]
        a_ptrs = a + rm[:, None] * stride_am + rk[None, :]
        b_ptrs = b + rk[:, None] * N + rn[None, :]
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        if MODE == 0:
            x0 = tl.load(a_ptrs + 2048, mask=m_ok[:, None], other=0.0)
            if ACT:
                x0f = x0.to(tl.float32)
                x0 = (x0f * tl.sigmoid(x0f)).to(a.dtype.element_ty)
            for k0 in range(0, K, BK):
                y = tl.load(b_ptrs, mask=n_ok[None, :], other=0.0)
                acc = tl.dot(x0, y, acc)
                b_ptrs += BK * N
            acc = acc + x0.to(tl.float32)
        elif MODE == 1:
            rsum = tl.zeros((BM,), dtype=tl.float32)
            for k0 in range(0, K, BK):
                x = tl.load(a_ptrs, mask=m_ok[:, None], other=0.0)
                y = tl.load(b_ptrs, mask=n_ok[None, :], other=0.0)
                xf = x.to(tl.float32)
                rsum += tl.sum(xf, axis=1)
                if ACT:
                    x = (xf * tl.sigmoid(xf)).to(a.dtype.element_ty)
                acc = tl.dot(x, y, acc)
                a_ptrs += BK
                b_ptrs += BK * N
            acc = acc + rsum[:, None] * 0.01
        elif MODE == 3:
            bb = tl.load(v + rn[None, :], mask=n_ok[None, :], other=0.0)
            for k0 in range(0, K, BK):
                x = tl.load(a_ptrs, mask=m_ok[:, None], other=0.0)
                y = tl.load(b_ptrs, mask=n_ok[None, :], other=0.0)
                y = (y.to(tl.float32) + bb).to(b.dtype.element_ty)
                acc = tl.dot(x, y, acc)
                a_ptrs += BK
                b_ptrs += BK * N
            acc = acc + bb
        else:
            sc = tl.load(v + 8192 + rm[:, None], mask=m_ok[:, None], other=0.0)
            for k0 in range(0, K, BK):
                x = tl.load(a_ptrs, mask=m_ok[:, None], other=0.0)
                y = tl.load(b_ptrs, mask=n_ok[None, :], other=0.0)
                x = (x.to(tl.float32) * sc).to(a.dtype.element_ty)
                acc = tl.dot(x, y, acc)
                a_ptrs += BK
                b_ptrs += BK * N
            acc = acc * sc
        if RES:
            acc = acc + tl.load(r + rm[:, None] * stride_cm + rn[None, :], mask=mask, other=0.0).to(tl.float32)
        tl.store(c + rm[:, None] * stride_cm + rn[None, :], acc.to(c.dtype.element_ty), mask=mask)

    @triton.jit
    def sp_two(a, b, b2, c, d, r, M, N, K, stride_am, stride_cm,
               BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, BN2: tl.constexpr,
               ACT: tl.constexpr, RES: tl.constexpr, MASK: tl.constexpr):
        # Two dots in one loop on the same A tile.
        # BN2 == BN: gated (silu(A @ B) * (A @ B2)) into c, with a residual.
        # BN2 != BN: two results of different widths, A @ B into c and
        #            A' @ B2 into d (A' = silu(A) with ACT).
        pid_m = tl.program_id(0)
        pid_n = tl.program_id(1)
        rm = pid_m * BM + tl.arange(0, BM)
        rn = pid_n * BN + tl.arange(0, BN)
        rn2 = pid_n * BN2 + tl.arange(0, BN2)
        rk = tl.arange(0, BK)
        a_ptrs = a + rm[:, None] * stride_am + rk[None, :]
        b_ptrs = b + rk[:, None] * N + rn[None, :]
        b2_ptrs = b2 + rk[:, None] * N + rn2[None, :]
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        acc2 = tl.zeros((BM, BN2), dtype=tl.float32)
        for k0 in range(0, K, BK):
            if MASK:
                k_ok = (k0 + rk) < K - 40
                x = tl.load(a_ptrs, mask=k_ok[None, :], other=0.0)
                y = tl.load(b_ptrs, mask=k_ok[:, None], other=0.0)
                y2 = tl.load(b2_ptrs, mask=k_ok[:, None], other=0.0)
            else:
                x = tl.load(a_ptrs)
                y = tl.load(b_ptrs)
                y2 = tl.load(b2_ptrs)
            acc = tl.dot(x, y, acc)
            if ACT:
                xf = x.to(tl.float32)
                x = (xf * tl.sigmoid(xf)).to(a.dtype.element_ty)
            acc2 = tl.dot(x, y2, acc2)
            a_ptrs += BK
            b_ptrs += BK * N
            b2_ptrs += BK * N
        if BN2 == BN:
            out = acc * tl.sigmoid(acc) * acc2
            if RES:
                out = out + tl.load(r + rm[:, None] * stride_cm + rn[None, :]).to(tl.float32)
            tl.store(c + rm[:, None] * stride_cm + rn[None, :], out.to(c.dtype.element_ty))
        else:
            if RES:
                acc = acc + tl.load(r + rm[:, None] * stride_cm + rn[None, :]).to(tl.float32)
            tl.store(c + rm[:, None] * stride_cm + rn[None, :], acc.to(c.dtype.element_ty))
            tl.store(d + rm[:, None] * stride_cm + rn2[None, :], acc2.to(d.dtype.element_ty))

    return dict(sp_mm=sp_mm, sp_alpha=sp_alpha, sp_shared=sp_shared, sp_two=sp_two)


MM_ARGS = ["a", "b", "c", "r", "v", "M", "N", "K", "stride_am", "stride_bk", "stride_cm"]
MM_DEF = dict(M_ADD=0, N_ADD=0, K_ADD=0, MASK=False, KMASK=False, ACT_A=0, ACT_B=0,
              TRANS_B=False, RES=False, BIAS=0, BCOL=0, SCAL=False, GELU=False)


def _name(tag, dt, out, tile, w, s):
    t = "x".join(map(str, tile))
    return f"sp_{tag}_{dt}{'_o32' if out == 'f32' and dt != 'f32' else ''}_{t}_w{w}_s{s}"


def mm(tag, dt, out, tile, w, s, edge=0, ktail=0, **kw):
    """edge: M and N become 8 * BM - edge, 8 * BN - edge (MASK); ktail: K
    becomes 1024 - ktail (KMASK)."""
    bm, bn, bk = tile
    ce = dict(MM_DEF)
    ce.update(BM=bm, BN=bn, BK=bk)
    if edge:
        ce.update(MASK=True, M_ADD=8 * bm - 1024 - edge, N_ADD=8 * bn - 1024 - edge)
    if ktail:
        ce.update(KMASK=True, K_ADD=-ktail)
    ce.update(kw)
    sig = dict(zip(MM_ARGS, [T_TY[dt], T_TY[dt], T_TY[out], T_TY[dt], "*fp32"] + ["i32"] * 6))
    return dict(name=_name(tag, dt, out, tile, w, s), fn="sp_mm", warps=w, stages=s, sig=sig, ce=ce)


def shared(tag, dt, tile, w, s, mode, res=True, act=False, edge=24):
    bm, bn, bk = tile
    ce = dict(BM=bm, BN=bn, BK=bk, M_ADD=8 * bm - 1024 - edge, N_ADD=8 * bn - 1024 - edge,
              MODE=mode, RES=res, ACT=act)
    sig = dict(zip(["a", "b", "c", "r", "v", "M", "N", "K", "stride_am", "stride_cm"],
                   [T_TY[dt], T_TY[dt], T_TY[dt], T_TY[dt], "*fp32"] + ["i32"] * 5))
    return dict(name=_name(tag, dt, dt, tile, w, s), fn="sp_shared", warps=w, stages=s,
                sig=sig, ce=ce)


def two(tag, dt, tile, bn2, w, s, act=False, res=False, mask=False):
    bm, bn, bk = tile
    ce = dict(BM=bm, BN=bn, BK=bk, BN2=bn2, ACT=act, RES=res, MASK=mask)
    sig = dict(zip(["a", "b", "b2", "c", "d", "r", "M", "N", "K", "stride_am", "stride_cm"],
                   [T_TY[dt]] * 6 + ["i32"] * 5))
    return dict(name=_name(tag, dt, dt, tile, w, s), fn="sp_two", warps=w, stages=s,
                sig=sig, ce=ce)


def alpha(tag, dt, tile, w, s):
    bm, bn, bk = tile
    sig = dict(zip(["a", "b", "c", "r", "M", "N", "K"], [T_TY[dt]] * 4 + ["i32"] * 3))
    sig["alpha"] = "fp32"
    return dict(name=_name(tag, dt, dt, tile, w, s), fn="sp_alpha", warps=w, stages=s,
                sig=sig, ce=dict(BM=bm, BN=bn, BK=bk))


def candidates():
    c = []
    # Activation or scale on A only, B only, both (f16, bf16, f32 / tf32).
    c.append(mm("silua_res", "f16", "f16", (64, 128, 64), 4, 3, ACT_A=1, RES=True))
    c.append(mm("kscalea_bias", "bf16", "bf16", (128, 128, 64), 8, 3, ACT_A=2, BIAS=1))
    c.append(mm("sigb_res", "f16", "f16", (128, 64, 32), 4, 4, ACT_B=1, RES=True))
    c.append(mm("relub_bcol", "bf16", "f32", (64, 64, 64), 4, 2, ACT_B=3, BCOL=1))
    c.append(mm("both_res", "f16", "f16", (128, 128, 32), 8, 4, ACT_A=1, ACT_B=2, RES=True))
    c.append(mm("both_biasres", "bf16", "bf16", (64, 256, 64), 8, 2, ACT_A=4, ACT_B=1, RES=True, BIAS=2))
    c.append(mm("silua_res", "f32", "f32", (64, 64, 32), 4, 3, ACT_A=1, RES=True))
    c.append(mm("kscaleb_bias", "f32", "f32", (128, 64, 16), 4, 2, ACT_B=2, BIAS=1))
    c.append(mm("both_scal", "f32", "f32", (64, 128, 32), 8, 3, ACT_A=4, ACT_B=3, SCAL=True))
    # Operand tiles narrower / shorter than the epilogue tile.
    c.append(mm("narrowa_res", "f16", "f16", (32, 128, 64), 4, 3, ACT_A=1, RES=True))
    c.append(mm("narrowa_res", "bf16", "bf16", (32, 128, 64), 4, 4, RES=True, BIAS=1))
    c.append(mm("narrowa_both", "f16", "f16", (16, 128, 64), 4, 3, ACT_A=2, ACT_B=1, RES=True))
    c.append(mm("narrowa_res", "f16", "f16", (16, 256, 32), 8, 2, ACT_A=4, RES=True))
    c.append(mm("shortk_res", "f16", "f16", (128, 256, 16), 8, 3, ACT_A=1, RES=True, BIAS=1))
    c.append(mm("shortk_res", "bf16", "bf16", (64, 128, 16), 4, 4, RES=True))
    c.append(mm("widek_res", "f16", "f16", (64, 32, 128), 4, 2, ACT_A=1, ACT_B=3, RES=True))
    # Replicated only along K (A's rows fit, its BK columns do not).
    c.append(mm("konly_res", "f32", "f32", (64, 128, 16), 4, 3, RES=True))
    c.append(mm("konly_sila", "f32", "f32", (128, 128, 16), 8, 3, ACT_A=1, RES=True))
    c.append(mm("konly_kscale", "f16", "f16", (128, 128, 16), 4, 2, ACT_A=2, RES=True))
    # Epilogue kinds: residual, bias row, bias column (Mx1), scalar; masks.
    c.append(mm("mask_silua_biasres", "f16", "f16", (128, 128, 64), 8, 3, edge=24, ACT_A=1, BIAS=1, RES=True))
    c.append(mm("mask_kt_rowscale_bcol", "bf16", "bf16", (64, 128, 32), 4, 3, edge=40, ktail=40,
                ACT_A=3, BCOL=2, RES=True))
    c.append(mm("mask_kt_both_gelu", "f16", "f32", (64, 64, 32), 4, 2, edge=8, ktail=24,
                ACT_A=1, ACT_B=1, RES=True, GELU=True))
    c.append(mm("mask_kt_tf32_both", "f32", "f32", (64, 128, 32), 4, 3, edge=24, ktail=40,
                ACT_A=2, ACT_B=2, BIAS=2, BCOL=1, RES=True))
    c.append(mm("kt_bias2d_scal", "f16", "f16", (128, 64, 64), 4, 3, ktail=40, ACT_B=1, BIAS=2, SCAL=True))
    c.append(mm("bcol2d_only", "f16", "f16", (128, 128, 64), 8, 4, ACT_A=1, BCOL=2))
    c.append(mm("nomask_all", "bf16", "f32", (128, 128, 64), 8, 3, ACT_A=1, ACT_B=1, RES=True,
                BIAS=1, BCOL=1, SCAL=True, GELU=True))
    # num_warps 2 and 1.
    c.append(mm("silua_res", "f16", "f16", (32, 64, 32), 2, 3, ACT_A=1, RES=True))
    c.append(mm("both_res", "bf16", "bf16", (64, 32, 32), 2, 2, ACT_A=2, ACT_B=3, RES=True, BCOL=1))
    c.append(mm("silua_res", "f16", "f16", (16, 16, 16), 1, 2, ACT_A=1, RES=True))
    c.append(mm("mask_both", "f16", "f16", (32, 64, 32), 1, 3, edge=8, ACT_A=1, ACT_B=1, RES=True))
    c.append(mm("tiny_tf32", "f32", "f32", (16, 16, 16), 8, 2, ACT_A=1, RES=True))
    # Transposed B (tl.trans), with and without activation.
    c.append(mm("transb_res", "f16", "f16", (64, 128, 64), 4, 3, TRANS_B=True, RES=True))
    c.append(mm("transb_silua", "bf16", "bf16", (128, 64, 32), 8, 3, TRANS_B=True, ACT_A=1, ACT_B=1,
                RES=True, BIAS=1))
    c.append(mm("mask_transb_narrow", "f16", "f16", (32, 128, 32), 4, 2, edge=24, ktail=40,
                TRANS_B=True, ACT_A=4, RES=True))
    # A loaded tile used by the dot and by the epilogue.
    c.append(shared("inv_res", "f16", (64, 64, 64), 4, 3, mode=0))
    c.append(shared("inv_act_nores", "bf16", (128, 64, 64), 8, 3, mode=0, res=False, act=True))
    c.append(shared("rowsum_res", "f16", (64, 128, 32), 4, 3, mode=1, act=True))
    c.append(shared("scale2d_res", "f16", (128, 128, 64), 8, 3, mode=2))
    c.append(shared("scale2d_nores", "bf16", (32, 128, 64), 4, 2, mode=2, res=False))
    c.append(shared("brow2d_res", "f16", (64, 64, 16), 8, 3, mode=3))
    # Two dots in one loop.
    c.append(two("gated_res", "f16", (64, 64, 32), 64, 4, 3, act=True, res=True))
    c.append(two("twowidth", "bf16", (64, 128, 64), 32, 4, 2, act=True, res=True, mask=True))
    c.append(two("twowidth", "f16", (128, 64, 32), 128, 8, 3))
    # An f32 scalar argument in the epilogue.
    c.append(alpha("alpha_silua_res", "f16", (64, 128, 32), 4, 3))
    # silu(A) on two warpgroups (register-a's stage rule, thirty-sixth
    # session): one 64-row block each at 3 and 4 stages, and two blocks.
    c.append(mm("silua_res", "f16", "f16", (128, 128, 64), 8, 3, ACT_A=1, RES=True))
    c.append(mm("silua_res", "f16", "f16", (128, 128, 64), 8, 4, ACT_A=1, RES=True))
    c.append(mm("silua_res", "f16", "f16", (128, 64, 64), 8, 3, ACT_A=1, RES=True))
    c.append(mm("silua_res", "f16", "f16", (256, 128, 64), 8, 3, ACT_A=1, RES=True))
    return c


configs = candidates



def drop_float_divisibility(out):
    """ttir_kernels gives every argument tt.divisibility 16; an f32 scalar
    (sp_alpha's alpha) keeps none."""
    import glob
    import re
    for path in glob.glob(os.path.join(out, "sp_alpha*.ttir")):
        text = open(path).read()
        fixed = re.sub(r"(%\w+: f32) \{tt.divisibility = 16 : i32\}", r"\1", text)
        if fixed != text:
            open(path, "w").write(fixed)


if __name__ == "__main__":
    ttir_kernels.main("kernels_split", define, configs)
    argv = sys.argv[1:]
    drop_float_divisibility(argv[argv.index("--out") + 1] if "--out" in argv else
                            os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels_split"))
