#!/usr/bin/env python3
"""Layout conformance kernels (bt_*): a loaded lower-rank vector meeting more
than one slice (kgpu-assign-layouts' "Pick layouts": a bias or scale vector
beside a tensor-core accumulator, 5a2b5f2 / 24cd450), the same around
CUDA-core reductions, and controls. Written as a break-test of that rule
(docs/BENCHMARKS.md, thirteenth session); kept for GPU rounds.

Generate (Triton 3.6, no GPU; run with the Triton venv's python):

    python gen_layout_kernels.py [--out bench/conformance/kernels_layouts] [--only NAME...]

Run them like the other folders: conformance.py --ttir DIR/ttir --kiln-out
DIR/out after compiling with bench/compile_kernel.sh.

Same conventions as bench/conformance/gen_dot_kernels.py: Triton 3.6 TTIR
compiled for GPUTarget("cuda", 90, 32) on the CPU, pointers and scalars with
tt.divisibility 16; correct under grid (8, 8, 1), every i32 scalar 1024,
every buffer 4M elements. Sizes other than 1024 come from the scalars.
Every output element is written by one program only.
"""
import ttir_kernels  # the TTIR and JSON writing (scrub, main)

# The generated TTIR carries this file's line numbers (its loc entries):
# a line added or removed above a kernel changes every file generated
# from it below that line.

T_TY = {"f16": "*fp16", "bf16": "*bf16", "f32": "*fp32"}


def define():
    import triton
    import triton.language as tl

    @triton.jit
    def mm_vec(a, b, c, v1, v2, d, M, N, K, stride_am, stride_bk, stride_cm,
               M_SUB: tl.constexpr, N_SUB: tl.constexpr,
               BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
               VEC_N: tl.constexpr, VEC_M: tl.constexpr, MASK: tl.constexpr,
               OTHER: tl.constexpr, TWO: tl.constexpr, REV: tl.constexpr,
               KSCALE: tl.constexpr, BSCALE: tl.constexpr, ROWSTAT: tl.constexpr,
               RELU: tl.constexpr, NIDX: tl.constexpr, PRECISION: tl.constexpr):
        # VEC_N / VEC_M: 0 none, 1 add, 2 multiply, 3 add a 2-D [1, BN] /
        # [BM, 1] load (control: no 1-D load). NIDX: bias index 0 offs_n,
        # 1 offs_n // 2 (pairs), 2 offs_n % 64.
        M = M - M_SUB
        N = N - N_SUB
        pid_m = tl.program_id(0)
        pid_n = tl.program_id(1)
        offs_m = pid_m * BM + tl.arange(0, BM)
        if REV:
            offs_n = pid_n * BN + (BN - 1 - tl.arange(0, BN))
        else:
            offs_n = pid_n * BN + tl.arange(0, BN)
        offs_k = tl.arange(0, BK)
        nmask = offs_n < N
        mmask = offs_m < M
        a_ptrs = a + (offs_m % M)[:, None] * stride_am + offs_k[None, :]
        b_ptrs = b + offs_k[:, None] * stride_bk + (offs_n % N)[None, :]
        if BSCALE:
            sb = tl.load(v2 + offs_n, mask=nmask, other=1.0)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for kb in range(0, tl.cdiv(K, BK)):
            x = tl.load(a_ptrs)
            y = tl.load(b_ptrs)
            if KSCALE:
                sk = tl.load(v2 + kb * BK + offs_k)
                x = (x * sk[None, :]).to(x.dtype)
            if BSCALE:
                y = (y * sb[None, :]).to(y.dtype)
            acc = tl.dot(x, y, acc, input_precision=PRECISION)
            a_ptrs += BK
            b_ptrs += BK * stride_bk
        if NIDX == 1:
            bidx = offs_n // 2
        elif NIDX == 2:
            bidx = offs_n % 64
        else:
            bidx = offs_n
        if TWO:
            g = tl.load(v2 + bidx, mask=nmask, other=1.0)
            acc = acc * g[None, :]
        if VEC_N == 1 or VEC_N == 2:
            if MASK:
                vn = tl.load(v1 + bidx, mask=nmask, other=OTHER)
            else:
                vn = tl.load(v1 + bidx)
            if VEC_N == 1:
                acc = acc + vn[None, :]
            else:
                acc = acc * vn[None, :]
        if VEC_N == 3:
            acc = acc + tl.load(v1 + offs_n[None, :], mask=nmask[None, :], other=OTHER)
        if VEC_M == 1 or VEC_M == 2:
            if MASK:
                vm = tl.load(v1 + 8192 + offs_m, mask=mmask, other=OTHER)
            else:
                vm = tl.load(v1 + 8192 + offs_m)
            if VEC_M == 1:
                acc = acc + vm[:, None]
            else:
                acc = acc * vm[:, None]
        if VEC_M == 3:
            acc = acc * tl.load(v1 + 8192 + offs_m[:, None], mask=mmask[:, None], other=OTHER)
        if RELU:
            acc = tl.maximum(acc, 0.0)
        if ROWSTAT:
            # Row max of the tile times a loaded per-row scale, one value per
            # (row, pid_n): d[pid_n * 1024 + row].
            s = tl.load(v1 + 16384 + offs_m, mask=mmask, other=0.0)
            tl.store(d + pid_n * 1024 + offs_m, tl.max(acc, 1) * s, mask=mmask)
        tl.store(c + offs_m[:, None] * stride_cm + offs_n[None, :],
                 acc.to(c.dtype.element_ty), mask=mmask[:, None] & nmask[None, :])

    @triton.jit
    def mm_bp(a, b, c, v1, v2, d, M, N, K, stride_am, stride_bk, stride_cm,
              M_SUB: tl.constexpr, N_SUB: tl.constexpr,
              BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
              VEC_M: tl.constexpr):
        # Control: A, B, C through block pointers, so the bias offsets meet
        # only the accumulator (one slice).
        M = M - M_SUB
        N = N - N_SUB
        pid_m = tl.program_id(0)
        pid_n = tl.program_id(1)
        pa = tl.make_block_ptr(a, (M, K), (stride_am, 1), (pid_m * BM, 0), (BM, BK), (1, 0))
        pb = tl.make_block_ptr(b, (K, N), (stride_bk, 1), (0, pid_n * BN), (BK, BN), (1, 0))
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for kb in range(0, tl.cdiv(K, BK)):
            acc = tl.dot(tl.load(pa), tl.load(pb), acc)
            pa = tl.advance(pa, (0, BK))
            pb = tl.advance(pb, (BK, 0))
        offs_n = pid_n * BN + tl.arange(0, BN)
        acc = acc + tl.load(v1 + offs_n, mask=offs_n < N, other=0.0)[None, :]
        if VEC_M:
            offs_m = pid_m * BM + tl.arange(0, BM)
            acc = acc * tl.load(v2 + offs_m, mask=offs_m < M, other=1.0)[:, None]
        pc = tl.make_block_ptr(c, (M, N), (stride_cm, 1), (pid_m * BM, pid_n * BN), (BM, BN), (1, 0))
        tl.store(pc, acc.to(c.dtype.element_ty), boundary_check=(0, 1))

    @triton.jit
    def nd_colstat(x, w, z, out, N, R, BM: tl.constexpr, BN: tl.constexpr,
                   BR: tl.constexpr, W_MASK: tl.constexpr, COLMEAN: tl.constexpr):
        # y = x - rowmean(x) + (w[cols] + rowsum(zt)) with zt a [BN, BR]
        # tile of another layout; COLMEAN also adds x's column mean.
        pid = tl.program_id(1) * 8 + tl.program_id(0)
        rows = pid * BM + tl.arange(0, BM)
        cols = tl.arange(0, BN)
        xt = tl.load(x + rows[:, None] * N + cols[None, :])
        zt = tl.load(z + cols[:, None] * BR + tl.arange(0, BR)[None, :])
        s = tl.sum(zt, 1)
        if W_MASK:
            wv = tl.load(w + cols, mask=cols < N // 8, other=2.0)
        else:
            wv = tl.load(w + cols)
        v = wv + s
        if COLMEAN:
            v = v + tl.sum(xt, 0) / BM
        y = xt - (tl.sum(xt, 1) / BN)[:, None] + v[None, :]
        tl.store(out + rows[:, None] * N + cols[None, :], y)

    @triton.jit
    def nd_rownorm(x, w, b, out, N, R, BM: tl.constexpr, BN: tl.constexpr,
                   TWO: tl.constexpr):
        # Control (one slice): y = (x - mean(x)) * w[cols] (+ b[cols]).
        pid = tl.program_id(1) * 8 + tl.program_id(0)
        rows = pid * BM + tl.arange(0, BM)
        cols = tl.arange(0, BN)
        xt = tl.load(x + rows[:, None] * N + cols[None, :]).to(tl.float32)
        y = (xt - (tl.sum(xt, 1) / BN)[:, None]) * tl.load(w + cols)[None, :]
        if TWO:
            y = y + tl.load(b + cols, mask=cols < N - 1000, other=0.5)[None, :]
        tl.store(out + rows[:, None] * N + cols[None, :], y.to(out.dtype.element_ty))

    @triton.jit
    def nd_pair(x, w, b, out, N, R, BM: tl.constexpr, BN: tl.constexpr,
                MASK: tl.constexpr, TWO: tl.constexpr, ROWVEC: tl.constexpr):
        # w[cols] broadcast into an [BM, BN] tile (axis 0) and a transposed
        # [BN, BM] tile (axis 1). TWO: a second vector b[cols]. ROWVEC: also
        # a loaded per-row vector meeting both tiles.
        pid = tl.program_id(1) * 8 + tl.program_id(0)
        rows = pid * BM + tl.arange(0, BM)
        cols = tl.arange(0, BN)
        if MASK:
            wv = tl.load(w + cols, mask=cols < N // 64, other=-1.0)
        else:
            wv = tl.load(w + cols)
        x1 = tl.load(x + rows[:, None] * N + cols[None, :])
        x2 = tl.load(x + (1 << 20) + cols[:, None] * N + rows[None, :])
        y1 = x1 * wv[None, :]
        y2 = x2 + wv[:, None]
        if TWO:
            bv = tl.load(b + cols, mask=cols < N // 64, other=3.0)
            y1 = y1 + bv[None, :]
            y2 = y2 * bv[:, None]
        if ROWVEC:
            rv = tl.load(b + 4096 + rows)
            y1 = y1 - rv[:, None]
            y2 = y2 - rv[None, :]
        tl.store(out + rows[:, None] * N + cols[None, :], y1)
        tl.store(out + (1 << 20) + cols[:, None] * N + rows[None, :], y2)

    @triton.jit
    def nd_3d(x, w, u, out, N, R, BB: tl.constexpr, BM: tl.constexpr,
              BN: tl.constexpr, BR: tl.constexpr):
        # A loaded 2-D tile w2 broadcast into two 3-D tiles along different
        # axes: x3 + w2[None] and w2[:, :, None] * u[None, None, :].
        pid = tl.program_id(1) * 8 + tl.program_id(0)
        i = tl.arange(0, BB)
        j = pid * BM + tl.arange(0, BM)
        k = tl.arange(0, BN)
        r = tl.arange(0, BR)
        w2 = tl.load(w + j[:, None] * N + k[None, :])
        off3 = i[:, None, None] * (N * 256) + j[None, :, None] * N + k[None, None, :]
        x3 = tl.load(x + off3)
        tl.store(out + off3, x3 + w2[None, :, :])
        uv = tl.load(u + r)
        z3 = w2[:, :, None] * uv[None, None, :]
        offz = (1 << 21) + (j[:, None, None] * N + k[None, :, None]) * BR + r[None, None, :]
        tl.store(out + offz, z3)

    @triton.jit
    def nd_loop(x, w, b, out, N, R, BM: tl.constexpr, BN: tl.constexpr,
                IF: tl.constexpr):
        # A loaded vector carried by an scf.for (sum of R // 128 = 8 chunks
        # of w), then broadcast into a [BM, BN] tile and a transposed
        # [BN, BM] tile. IF: the chunk load sits under an scf.if.
        pid = tl.program_id(1) * 8 + tl.program_id(0)
        rows = pid * BM + tl.arange(0, BM)
        cols = tl.arange(0, BN)
        acc = tl.zeros((BN,), tl.float32)
        for i in range(0, R // 128):
            if IF:
                if i % 2 == 0:
                    acc += tl.load(w + i * BN + cols, mask=cols < N - i * 100, other=0.0)
                else:
                    acc = acc * 0.5
            else:
                acc += tl.load(w + i * BN + cols)
        x1 = tl.load(x + rows[:, None] * N + cols[None, :])
        x2 = tl.load(x + (1 << 20) + cols[:, None] * N + rows[None, :])
        tl.store(out + rows[:, None] * N + cols[None, :], x1 + acc[None, :])
        tl.store(out + (1 << 20) + cols[:, None] * N + rows[None, :], x2 * acc[:, None])

    return dict(nd_loop=nd_loop, mm_vec=mm_vec, mm_bp=mm_bp, nd_colstat=nd_colstat,
                nd_rownorm=nd_rownorm, nd_pair=nd_pair, nd_3d=nd_3d)


MM_ARGS = ["a", "b", "c", "v1", "v2", "d", "M", "N", "K", "stride_am", "stride_bk", "stride_cm"]
MM_DEF = dict(M_SUB=0, N_SUB=0, VEC_N=0, VEC_M=0, MASK=False, OTHER=0.0, TWO=False,
              REV=False, KSCALE=False, BSCALE=False, ROWSTAT=False, RELU=False, NIDX=0,
              PRECISION="tf32")


def mm(name, dt, out, tile, w, s, fn="mm_vec", vdt="f32", **kw):
    bm, bn, bk = tile
    ce = dict(MM_DEF) if fn == "mm_vec" else dict(M_SUB=0, N_SUB=0, VEC_M=False)
    ce.update(BM=bm, BN=bn, BK=bk)
    ce.update(kw)
    sig = dict(zip(MM_ARGS, [T_TY[dt], T_TY[dt], T_TY[out], T_TY[vdt], T_TY[vdt], "*fp32"]
                   + ["i32"] * 6))
    return dict(name=name, fn=fn, warps=w, stages=s, sig=sig, ce=ce)


def nd(name, fn, w, s, ptrs, **ce):
    names = {"nd_colstat": ["x", "w", "z", "out"], "nd_rownorm": ["x", "w", "b", "out"],
             "nd_pair": ["x", "w", "b", "out"], "nd_3d": ["x", "w", "u", "out"],
             "nd_loop": ["x", "w", "b", "out"]}[fn]
    sig = dict(zip(names, [T_TY[p] for p in ptrs]))
    sig.update(N="i32", R="i32")
    return dict(name=name, fn=fn, warps=w, stages=s, sig=sig, ce=ce)


def configs():
    c = [
        # Bias along N (expand_dims axis 0), offsets also index B and the store.
        mm("bt_biasn_add_mask_f16_128x128x64_w8_s3", "f16", "f32", (128, 128, 64), 8, 3,
           VEC_N=1, MASK=True, N_SUB=24),
        mm("bt_biasn_add_nomask_bf16_128x256x64_w8_s3", "bf16", "bf16", (128, 256, 64), 8, 3,
           VEC_N=1, RELU=True),
        mm("bt_biasn_mul_other1_f16_64x128x64_w4_s4", "f16", "f16", (64, 128, 64), 4, 4,
           VEC_N=2, MASK=True, OTHER=1.0, N_SUB=24),
        mm("bt_biasn_add_f16_64x64x32_w4_s2", "f16", "f32", (64, 64, 32), 4, 2,
           VEC_N=1, MASK=True, OTHER=-2.0, N_SUB=520),
        mm("bt_biasn_small_f16_128x64x64_w8_s3", "f16", "f32", (128, 64, 64), 8, 3,
           VEC_N=1, MASK=True, OTHER=0.25, N_SUB=520),
        mm("bt_biasn_small_bf16_64x64x32_w8_s2", "bf16", "f32", (64, 64, 32), 8, 2,
           VEC_N=2, MASK=False),
        mm("bt_biasn_large_f16_64x256x64_w4_s4", "f16", "f32", (64, 256, 64), 4, 4,
           VEC_N=1, MASK=True, N_SUB=24),
        mm("bt_biasn_tf32_f32_64x64x32_w4_s3", "f32", "f32", (64, 64, 32), 4, 3,
           VEC_N=1, MASK=True, OTHER=1.5, N_SUB=520),
        mm("bt_biasn_rev_f16_128x128x64_w4_s3", "f16", "f32", (128, 128, 64), 4, 3,
           VEC_N=1, MASK=True, N_SUB=24, REV=True),
        mm("bt_biasn_pairs_bf16_128x128x32_w8_s4", "bf16", "f32", (128, 128, 32), 8, 4,
           VEC_N=1, MASK=True, NIDX=1),
        mm("bt_biasn_mod64_f16_128x256x64_w8_s2", "f16", "f16", (128, 256, 64), 8, 2,
           VEC_N=2, MASK=False, NIDX=2, N_SUB=24),
        # Per-row scale along M (expand_dims axis 1).
        mm("bt_scalem_mul_mask_f16_128x128x64_w8_s3", "f16", "f32", (128, 128, 64), 8, 3,
           VEC_M=2, MASK=True, OTHER=0.5, M_SUB=24),
        mm("bt_scalem_add_bf16_64x64x32_w4_s2", "bf16", "bf16", (64, 64, 32), 4, 2,
           VEC_M=1, MASK=False),
        mm("bt_scalem_mul_f16_128x256x64_w8_s3", "f16", "f32", (128, 256, 64), 8, 3,
           VEC_M=2, MASK=True, OTHER=3.0, M_SUB=40, N_SUB=24),
        # Both, two vectors on one offset set, row statistic.
        mm("bt_both_f16_128x128x64_w4_s3", "f16", "f16", (128, 128, 64), 4, 3,
           VEC_N=1, VEC_M=2, MASK=True, OTHER=1.0, M_SUB=24, N_SUB=24, RELU=True),
        mm("bt_twovec_f16_128x128x64_w8_s3", "f16", "f32", (128, 128, 64), 8, 3,
           VEC_N=1, TWO=True, MASK=True, N_SUB=24),
        mm("bt_rowstat_bf16_128x128x64_w8_s3", "bf16", "f32", (128, 128, 64), 8, 3,
           VEC_N=1, MASK=True, ROWSTAT=True, M_SUB=24),
        # Loaded vectors inside / feeding the K loop.
        mm("bt_kscale_f16_128x128x64_w4_s3", "f16", "f32", (128, 128, 64), 4, 3,
           KSCALE=True, VEC_N=1, MASK=True),
        mm("bt_kscale_bf16_64x64x32_w4_s4", "bf16", "f32", (64, 64, 32), 4, 4,
           KSCALE=True),
        mm("bt_bscale_bf16_128x128x64_w8_s3", "bf16", "f32", (128, 128, 64), 8, 3,
           BSCALE=True, VEC_N=1, MASK=True, N_SUB=24),
        # Controls: no 1-D load, or the bias offsets meet only the accumulator.
        mm("bt_ctrl_bias2d_f16_128x128x64_w8_s3", "f16", "f32", (128, 128, 64), 8, 3,
           VEC_N=3, MASK=True, N_SUB=24),
        mm("bt_ctrl_scale2d_f16_128x128x64_w8_s3", "f16", "f32", (128, 128, 64), 8, 3,
           VEC_M=3, MASK=True, OTHER=1.0, M_SUB=24),
        mm("bt_ctrl_blockptr_f16_128x128x64_w8_s3", "f16", "f32", (128, 128, 64), 8, 3,
           fn="mm_bp", N_SUB=24),
        mm("bt_ctrl_blockptr_both_bf16_128x256x64_w8_s3", "bf16", "bf16", (128, 256, 64), 8, 3,
           fn="mm_bp", N_SUB=24, M_SUB=24, VEC_M=True),
        # f16 / bf16 vectors (narrower loads).
        mm("bt_biasn_f16vec_f16_128x128x64_w8_s3", "f16", "f16", (128, 128, 64), 8, 3,
           vdt="f16", VEC_N=1, TWO=True, MASK=True, OTHER=0.0, N_SUB=24),
        mm("bt_scalem_bf16vec_bf16_64x128x64_w4_s3", "bf16", "f32", (64, 128, 64), 4, 3,
           vdt="bf16", VEC_M=2, VEC_N=1, MASK=True, OTHER=1.0, M_SUB=24, N_SUB=24),
        # Non-dot.
        nd("bt_nd_loop_f32_16x128_w4", "nd_loop", 4, 1, ["f32"] * 4, BM=16, BN=128, IF=False),
        nd("bt_nd_loop_if_f32_16x64_w8", "nd_loop", 8, 1, ["f32"] * 4, BM=16, BN=64, IF=True),
        nd("bt_nd_colstat_f32_16x256_w4", "nd_colstat", 4, 1, ["f32"] * 4,
           BM=16, BN=256, BR=8, W_MASK=True, COLMEAN=False),
        nd("bt_nd_colstat_colmean_f32_16x128_w8", "nd_colstat", 8, 1, ["f32"] * 4,
           BM=16, BN=128, BR=16, W_MASK=False, COLMEAN=True),
        nd("bt_nd_ctrl_rownorm_f16_16x256_w4", "nd_rownorm", 4, 1, ["f16", "f32", "f32", "f16"],
           BM=16, BN=256, TWO=True),
        nd("bt_nd_pair_f32_16x128_w4", "nd_pair", 4, 1, ["f32"] * 4,
           BM=16, BN=128, MASK=True, TWO=False, ROWVEC=False),
        nd("bt_nd_pair_two_f32_16x64_w8", "nd_pair", 8, 1, ["f32"] * 4,
           BM=16, BN=64, MASK=True, TWO=True, ROWVEC=True),
        nd("bt_nd_pair_small_f32_16x32_w8", "nd_pair", 8, 1, ["f32"] * 4,
           BM=16, BN=32, MASK=False, TWO=True, ROWVEC=False),
        nd("bt_nd_pair_big_f32_16x1024_w4", "nd_pair", 4, 1, ["f32"] * 4,
           BM=16, BN=1024, MASK=True, TWO=False, ROWVEC=True),
        nd("bt_nd_3d_f32_4x4x64x4_w4", "nd_3d", 4, 1, ["f32"] * 4,
           BB=4, BM=4, BN=64, BR=4),
    ]
    return c



if __name__ == "__main__":
    ttir_kernels.main("kernels_layouts", define, configs)
