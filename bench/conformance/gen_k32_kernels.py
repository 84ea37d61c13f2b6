#!/usr/bin/env python3
"""BLOCK_K = 32 tensor-core conformance kernels (k32_*): f16 / bf16 dots with
f32 accumulation whose K step is 32, 4 and 8 warps, for sm_90a's wgmma path
at K 32 (pipelined loops over 3 or more stages; 2 stages and attention stay
on mma.sync). Plain K loops over tiles 64x64 .. 128x256, B transposed (tl.trans
and K-contiguous strides), A M-contiguous, a masked K tail and M/N edges, a
loop-invariant A, epilogues and an accumulator from a loaded C, single dots
outside any loop, flash-attention pairs with head dim 32 and 64, and
Inductor-style batched matmuls.

Generate (Triton 3.6, no GPU; run with the Triton venv's python):

    python gen_k32_kernels.py [--out bench/conformance/kernels_k32] [--only NAME...]

Run them like the other folders: conformance.py --ttir DIR/ttir --kiln-out
DIR/out after compiling with bench/compile_kernel.sh.

Same conventions as gen_dot_kernels.py / gen_layout_kernels.py: Triton 3.6
TTIR compiled for GPUTarget("cuda", 90, 32) on the CPU, pointers and scalars
with tt.divisibility 16; correct under conformance.py's default launch, grid
(8, 8, 1), every i32 scalar 1024, every buffer 4M elements (the json carries
no grid or scalars). The sizes the kernels mean come from the scalars inside
the kernel (M + M_ADD, N * NW + N_ADD, K + K_ADD) so Triton cannot fold
them, and are chosen so that the 8 x 8 grid covers the output exactly (8
tiles along M and along N); every output element is written by one program.
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
    def mm32(a, b, c, bias, M, N, K, stride_am, stride_b, stride_cm,
             M_ADD: tl.constexpr, N_ADD: tl.constexpr, K_ADD: tl.constexpr,
             NW: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
             A_MMAJOR: tl.constexpr, B_MODE: tl.constexpr, MASK: tl.constexpr,
             ACC_C: tl.constexpr, ACC_PLUS: tl.constexpr, EPI: tl.constexpr):
        # Sizes from the scalars (1024 under the harness). NW: N wider than
        # 1024 (BN 256: 8 tiles are 2048 columns), B's and C's row strides
        # scaled with it.
        # A_MMAJOR: A stored K x M (M contiguous), loaded as BM x BK.
        # B_MODE: 0 B stored K x N; 1 B stored N x K, loaded BN x BK and
        # tl.trans'd; 2 B stored N x K, loaded BK x BN through strides.
        # MASK: 0 none; 1 K tail (k < K on the loads); 2 K tail and M/N edges
        # (loads and store masked).
        # ACC_C: the accumulator starts from the loaded C tile and is stored
        # back in place. EPI: bias along N, relu.
        M = M + M_ADD
        N = N * NW + N_ADD
        K = K + K_ADD
        if B_MODE == 0:
            stride_b = stride_b * NW
        stride_cm = stride_cm * NW
        pid_m = tl.program_id(0)
        pid_n = tl.program_id(1)
        offs_m = pid_m * BM + tl.arange(0, BM)
        offs_n = pid_n * BN + tl.arange(0, BN)
        offs_k = tl.arange(0, BK)
        if A_MMAJOR:
            a_ptrs = a + offs_m[:, None] + offs_k[None, :] * stride_am
        else:
            a_ptrs = a + offs_m[:, None] * stride_am + offs_k[None, :]
        if B_MODE == 0:
            b_ptrs = b + offs_k[:, None] * stride_b + offs_n[None, :]
        elif B_MODE == 1:
            b_ptrs = b + offs_n[:, None] * stride_b + offs_k[None, :]
        else:
            b_ptrs = b + offs_k[:, None] + offs_n[None, :] * stride_b
        c_ptrs = c + offs_m[:, None] * stride_cm + offs_n[None, :]
        m_ok = offs_m < M
        n_ok = offs_n < N
        c_mask = m_ok[:, None] & n_ok[None, :]
        if ACC_C:
            if MASK == 2:
                acc = tl.load(c_ptrs, mask=c_mask, other=0.0).to(tl.float32)
            else:
                acc = tl.load(c_ptrs).to(tl.float32)
        else:
            acc = tl.zeros((BM, BN), dtype=tl.float32)
        for kb in range(0, tl.cdiv(K, BK)):
            k_left = K - kb * BK
            if MASK == 0:
                x = tl.load(a_ptrs)
                y = tl.load(b_ptrs)
            elif MASK == 1:
                x = tl.load(a_ptrs, mask=offs_k[None, :] < k_left, other=0.0)
                if B_MODE == 1:
                    y = tl.load(b_ptrs, mask=offs_k[None, :] < k_left, other=0.0)
                else:
                    y = tl.load(b_ptrs, mask=offs_k[:, None] < k_left, other=0.0)
            else:
                x = tl.load(a_ptrs, mask=m_ok[:, None] & (offs_k[None, :] < k_left), other=0.0)
                if B_MODE == 1:
                    y = tl.load(b_ptrs, mask=n_ok[:, None] & (offs_k[None, :] < k_left),
                                other=0.0)
                else:
                    y = tl.load(b_ptrs, mask=(offs_k[:, None] < k_left) & n_ok[None, :],
                                other=0.0)
            if B_MODE == 1:
                y = tl.trans(y)
            if ACC_PLUS:
                acc += tl.dot(x, y)
            else:
                acc = tl.dot(x, y, acc)
            if A_MMAJOR:
                a_ptrs += BK * stride_am
            else:
                a_ptrs += BK
            if B_MODE == 0:
                b_ptrs += BK * stride_b
            else:
                b_ptrs += BK
        if EPI:
            acc = acc + tl.load(bias + offs_n, mask=n_ok, other=0.0)[None, :]
            acc = tl.maximum(acc, 0.0)
        if MASK == 2:
            tl.store(c_ptrs, acc.to(c.dtype.element_ty), mask=c_mask)
        else:
            tl.store(c_ptrs, acc.to(c.dtype.element_ty))

    @triton.jit
    def ainv(a, b, c, M, N, K, stride_am, stride_bk, stride_cm,
             M_ADD: tl.constexpr, N_ADD: tl.constexpr, K_ADD: tl.constexpr,
             BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, ACC: tl.constexpr):
        # One BM x 32 tile of A loaded before the loop, times L = K / 32
        # different 32 x BN blocks of B (B stacked L x [32, N]).
        # ACC: sum over the blocks into one accumulator, one store; else each
        # product stored on its own (C is L x [M, N]).
        M = M + M_ADD
        N = N + N_ADD
        L = (K + K_ADD) // BK
        pid_m = tl.program_id(0)
        pid_n = tl.program_id(1)
        offs_m = pid_m * BM + tl.arange(0, BM)
        offs_n = pid_n * BN + tl.arange(0, BN)
        offs_k = tl.arange(0, BK)
        x = tl.load(a + offs_m[:, None] * stride_am + offs_k[None, :])
        b_ptrs = b + offs_k[:, None] * stride_bk + offs_n[None, :]
        c_ptrs = c + offs_m[:, None] * stride_cm + offs_n[None, :]
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for j in range(0, L):
            y = tl.load(b_ptrs)
            if ACC:
                acc = tl.dot(x, y, acc)
            else:
                tl.store(c_ptrs, tl.dot(x, y).to(c.dtype.element_ty))
                c_ptrs += M * stride_cm
            b_ptrs += BK * stride_bk
        if ACC:
            tl.store(c_ptrs, acc.to(c.dtype.element_ty))

    @triton.jit
    def single(a, b, c, bias, M, N, K, stride_am, stride_b, stride_cm,
               BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
               B_T: tl.constexpr, ACC_C: tl.constexpr, EPI: tl.constexpr):
        # One dot, no loop: C tile = A[BM, 32] @ B[32, BN] (B_T: B stored
        # N x K, tl.trans'd), optionally + loaded C, bias, relu.
        pid_m = tl.program_id(0)
        pid_n = tl.program_id(1)
        offs_m = pid_m * BM + tl.arange(0, BM)
        offs_n = pid_n * BN + tl.arange(0, BN)
        offs_k = tl.arange(0, BK)
        x = tl.load(a + offs_m[:, None] * stride_am + offs_k[None, :])
        if B_T:
            y = tl.trans(tl.load(b + offs_n[:, None] * stride_b + offs_k[None, :]))
        else:
            y = tl.load(b + offs_k[:, None] * stride_b + offs_n[None, :])
        c_ptrs = c + offs_m[:, None] * stride_cm + offs_n[None, :]
        if ACC_C:
            acc = tl.dot(x, y, tl.load(c_ptrs).to(tl.float32))
        else:
            acc = tl.dot(x, y)
        if EPI:
            acc = tl.maximum(acc + tl.load(bias + offs_n)[None, :], 0.0)
        tl.store(c_ptrs, acc.to(c.dtype.element_ty))

    @triton.jit
    def attn(q, k, v, o, S, stride_h, S_ADD: tl.constexpr,
             BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr,
             K_PTR_T: tl.constexpr, MASK_S: tl.constexpr, QK_SCALE: tl.constexpr):
        # Flash-attention forward, non-causal: s = q @ k^T (K = D), online
        # softmax (exp2), acc += p @ v (K = BN). Heads on program_id(1), q
        # blocks of BM rows on program_id(0); q, k, v, o are [8, 1024, D]
        # (stride_h rows per head), S + S_ADD keys. K_PTR_T: k loaded as
        # D x BN through strides (no tl.trans). MASK_S: keys past S masked.
        S = S + S_ADD
        pid_m = tl.program_id(0)
        base = tl.program_id(1) * stride_h * D
        offs_m = pid_m * BM + tl.arange(0, BM)
        offs_d = tl.arange(0, D)
        offs_n = tl.arange(0, BN)
        qt = tl.load(q + base + offs_m[:, None] * D + offs_d[None, :])
        m_i = tl.full((BM,), float("-inf"), tl.float32)
        l_i = tl.zeros((BM,), tl.float32)
        acc = tl.zeros((BM, D), tl.float32)
        for start in range(0, S, BN):
            kn = start + offs_n
            if K_PTR_T:
                kt = tl.load(k + base + offs_d[:, None] + kn[None, :] * D)
                s = tl.dot(qt, kt)
            elif MASK_S:
                kt = tl.load(k + base + kn[:, None] * D + offs_d[None, :],
                             mask=kn[:, None] < S, other=0.0)
                s = tl.dot(qt, tl.trans(kt))
            else:
                kt = tl.load(k + base + kn[:, None] * D + offs_d[None, :])
                s = tl.dot(qt, tl.trans(kt))
            s = s * QK_SCALE  # log2(e) / sqrt(D)
            if MASK_S:
                s = tl.where(kn[None, :] < S, s, float("-inf"))
            m_new = tl.maximum(m_i, tl.max(s, 1))
            p = tl.math.exp2(s - m_new[:, None])
            alpha = tl.math.exp2(m_i - m_new)
            l_i = l_i * alpha + tl.sum(p, 1)
            if MASK_S:
                vt = tl.load(v + base + kn[:, None] * D + offs_d[None, :],
                             mask=kn[:, None] < S, other=0.0)
            else:
                vt = tl.load(v + base + kn[:, None] * D + offs_d[None, :])
            acc = acc * alpha[:, None]
            acc = tl.dot(p.to(vt.dtype), vt, acc)
            m_i = m_new
        acc = acc / l_i[:, None]
        tl.store(o + base + offs_m[:, None] * D + offs_d[None, :], acc.to(o.dtype.element_ty))

    @triton.jit
    def bmm_inductor(arg_A, arg_B, out_ptr0, GROUP_M: tl.constexpr, EVEN_K: tl.constexpr,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                     BLOCK_K: tl.constexpr, M: tl.constexpr, N: tl.constexpr,
                     K: tl.constexpr):
        # After Inductor's bmm template (torch/_inductor/kernel/bmm.py, as
        # the corpus' triton_bmm has it): sizes and strides baked in, tiles
        # on program_id(0) through the GROUP_M swizzle, the batch on
        # program_id(1) (bmm_grid = (tiles, batch, 1)). 8 tiles, 8 batches.
        stride_aq = M * K
        stride_am = K
        stride_ak = 1
        stride_bq = K * N
        stride_bk = N
        stride_bn = 1
        pid = tl.program_id(0)
        grid_m = (M + BLOCK_M - 1) // BLOCK_M
        grid_n = (N + BLOCK_N - 1) // BLOCK_N
        width = GROUP_M * grid_n
        group_id = pid // width
        group_size = min(grid_m - group_id * GROUP_M, GROUP_M)
        pid_m = group_id * GROUP_M + (pid % group_size)
        pid_n = (pid % width) // (group_size)
        tl.assume(pid_m >= 0)
        tl.assume(pid_n >= 0)
        rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        if (stride_am == 1 and stride_ak == M) or (stride_am == K and stride_ak == 1):
            ram = tl.max_contiguous(tl.multiple_of(rm % M, BLOCK_M), BLOCK_M)
        else:
            ram = rm % M
        if (stride_bk == 1 and stride_bn == K) or (stride_bk == N and stride_bn == 1):
            rbn = tl.max_contiguous(tl.multiple_of(rn % N, BLOCK_N), BLOCK_N)
        else:
            rbn = rn % N
        rk = tl.arange(0, BLOCK_K)
        idx_q = tl.program_id(1)  # batch dimension for BMM
        A = arg_A + (ram[:, None] * stride_am + rk[None, :] * stride_ak + idx_q * stride_aq)
        B = arg_B + (rk[:, None] * stride_bk + rbn[None, :] * stride_bn + idx_q * stride_bq)
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)  # ACC_TYPE
        for k in range(K, 0, -BLOCK_K):
            if EVEN_K:
                a = tl.load(A)
                b = tl.load(B)
            else:
                a = tl.load(A, mask=rk[None, :] < k, other=0.)
                b = tl.load(B, mask=rk[:, None] < k, other=0.)
            acc += tl.dot(a, b)
            A += BLOCK_K * stride_ak
            B += BLOCK_K * stride_bk
        idx_q = tl.program_id(1)  # batch dimension for BMM
        idx_m = rm[:, None]
        idx_n = rn[None, :]
        mask = (idx_m < M) & (idx_n < N)
        xindex = idx_n + N * idx_m + M * N * idx_q
        tl.store(out_ptr0 + (tl.broadcast_to(xindex, acc.shape)), acc, mask)

    @triton.jit
    def bmm_z(a, b, c, M, N, K, M_ADD: tl.constexpr, N_ADD: tl.constexpr,
              K_ADD: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
        # Batched matmul with the batch on program_id(2) (x = M tile, y = N
        # tile), runtime sizes, int64 batch offsets. Under the harness's grid
        # (8, 8, 1) only batch 0 runs.
        M = M + M_ADD
        N = N + N_ADD
        K = K + K_ADD
        bid = tl.program_id(2).to(tl.int64)
        offs_m = tl.program_id(0) * BM + tl.arange(0, BM)
        offs_n = tl.program_id(1) * BN + tl.arange(0, BN)
        offs_k = tl.arange(0, BK)
        a_ptrs = a + bid * M * K + offs_m[:, None] * K + offs_k[None, :]
        b_ptrs = b + bid * K * N + offs_k[:, None] * N + offs_n[None, :]
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for kb in range(0, tl.cdiv(K, BK)):
            acc += tl.dot(tl.load(a_ptrs), tl.load(b_ptrs))
            a_ptrs += BK
            b_ptrs += BK * N
        tl.store(c + bid * M * N + offs_m[:, None] * N + offs_n[None, :],
                 acc.to(c.dtype.element_ty))

    return dict(mm32=mm32, ainv=ainv, single=single, attn=attn,
                bmm_inductor=bmm_inductor, bmm_z=bmm_z)


MM_ARGS = ["a", "b", "c", "bias", "M", "N", "K", "stride_am", "stride_b", "stride_cm"]


def mm(name, dt, out, tile, w, s, k=384, edge=0, **kw):
    """mm32: the 8 x 8 grid covers M = 8 * BM and N = 8 * BN exactly; edge
    takes that many rows / columns off both (a partial last tile)."""
    bm, bn = tile
    nw = max(1, 8 * bn // 1024)
    ce = dict(M_ADD=8 * bm - 1024 - edge, N_ADD=8 * bn - 1024 * nw - edge, K_ADD=k - 1024,
              NW=nw, BM=bm, BN=bn, BK=32, A_MMAJOR=False, B_MODE=0, MASK=0,
              ACC_C=False, ACC_PLUS=False, EPI=False)
    ce.update(kw)
    sig = dict(zip(MM_ARGS, [T_TY[dt], T_TY[dt], T_TY[out], "*fp32"] + ["i32"] * 6))
    return dict(name=name, fn="mm32", warps=w, stages=s, sig=sig, ce=ce)


def ainv(name, dt, out, tile, w, s, k, acc):
    bm, bn = tile
    sig = dict(zip(["a", "b", "c", "M", "N", "K", "stride_am", "stride_bk", "stride_cm"],
                   [T_TY[dt], T_TY[dt], T_TY[out]] + ["i32"] * 6))
    ce = dict(M_ADD=8 * bm - 1024, N_ADD=8 * bn - 1024, K_ADD=k - 1024,
              BM=bm, BN=bn, BK=32, ACC=acc)
    return dict(name=name, fn="ainv", warps=w, stages=s, sig=sig, ce=ce)


def single(name, dt, out, tile, w, **kw):
    bm, bn = tile
    ce = dict(BM=bm, BN=bn, BK=32, B_T=False, ACC_C=False, EPI=False)
    ce.update(kw)
    sig = dict(zip(MM_ARGS, [T_TY[dt], T_TY[dt], T_TY[out], "*fp32"] + ["i32"] * 6))
    return dict(name=name, fn="single", warps=w, stages=3, sig=sig, ce=ce)


def attn(name, dt, bm, bn, d, w, s, keys=512, k_ptr_t=False):
    sig = dict(zip(["q", "k", "v", "o", "S", "stride_h"], [T_TY[dt]] * 4 + ["i32"] * 2))
    ce = dict(S_ADD=keys - 1024, BM=bm, BN=bn, D=d, K_PTR_T=k_ptr_t, MASK_S=keys % bn != 0,
              QK_SCALE=1.4426950408889634 / d ** 0.5)
    return dict(name=name, fn="attn", warps=w, stages=s, sig=sig, ce=ce)


def bmm_inductor(name, dt, tile, w, s, m, n, k):
    bm, bn = tile
    assert (m // bm) * (n // bn) == 8
    sig = {"arg_A": T_TY[dt], "arg_B": T_TY[dt], "out_ptr0": T_TY[dt]}
    ce = dict(GROUP_M=8, EVEN_K=k % 32 == 0, BLOCK_M=bm,
              BLOCK_N=bn, BLOCK_K=32, M=m, N=n, K=k)
    return dict(name=name, fn="bmm_inductor", warps=w, stages=s, sig=sig, ce=ce)


def bmm_z(name, dt, out, tile, w, s, k):
    bm, bn = tile
    sig = dict(zip(["a", "b", "c", "M", "N", "K"], [T_TY[dt], T_TY[dt], T_TY[out]]
                   + ["i32"] * 3))
    ce = dict(M_ADD=8 * bm - 1024, N_ADD=8 * bn - 1024, K_ADD=k - 1024, BM=bm, BN=bn, BK=32)
    return dict(name=name, fn="bmm_z", warps=w, stages=s, sig=sig, ce=ce)


def configs():
    return [
        # Plain K loops, K 256 / 384 / 512 (8 / 12 / 16 iterations).
        mm("k32_mm_f16_64x64x32_w4_s2", "f16", "f16", (64, 64), 4, 2, k=256),
        mm("k32_mm_bf16_64x64x32_w4_s3", "bf16", "f32", (64, 64), 4, 3),
        mm("k32_mm_f16_64x128x32_w4_s4", "f16", "f32", (64, 128), 4, 4, k=512),
        mm("k32_mm_f16_128x64x32_w4_s3", "f16", "f16", (128, 64), 4, 3),
        mm("k32_mm_bf16_128x64x32_w8_s2", "bf16", "f32", (128, 64), 8, 2, k=256),
        mm("k32_mm_f16_128x128x32_w4_s2", "f16", "f16", (128, 128), 4, 2),
        # Two warpgroups along M (128 rows, 8 warps), 3 stages.
        mm("k32_mm_f16_128x128x32_w8_s3", "f16", "f32", (128, 128), 8, 3, k=512),
        mm("k32_mm_bf16_128x128x32_w8_s4", "bf16", "f32", (128, 128), 8, 4),
        mm("k32_mm_f16_128x256x32_w8_s3", "f16", "f16", (128, 256), 8, 3),
        mm("k32_mm_bf16_128x256x32_w8_s2", "bf16", "f32", (128, 256), 8, 2, k=256),
        mm("k32_mm_f16_64x256x32_w4_s3", "f16", "f32", (64, 256), 4, 3),
        mm("k32_mm_bf16_64x256x32_w8_s4", "bf16", "f16", (64, 256), 8, 4, k=512),
        # B stored N x K: tl.trans of a BN x 32 tile, or K-contiguous strides;
        # A stored K x M.
        mm("k32_bt_trans_f16_128x128x32_w8_s3", "f16", "f32", (128, 128), 8, 3, B_MODE=1),
        mm("k32_bt_trans_bf16_64x64x32_w4_s2", "bf16", "f16", (64, 64), 4, 2, B_MODE=1),
        mm("k32_bt_kmajor_f16_64x128x32_w4_s4", "f16", "f32", (64, 128), 4, 4, B_MODE=2),
        mm("k32_bt_kmajor_bf16_128x256x32_w8_s3", "bf16", "f32", (128, 256), 8, 3, B_MODE=2),
        mm("k32_at_mmajor_f16_128x64x32_w4_s3", "f16", "f32", (128, 64), 4, 3, A_MMAJOR=True),
        # K not a multiple of 32 (masked tail), M / N edges.
        mm("k32_ktail_f16_128x128x32_w8_s3", "f16", "f32", (128, 128), 8, 3, k=374, MASK=1),
        mm("k32_edge_bf16_64x64x32_w4_s2", "bf16", "f32", (64, 64), 4, 2, k=350, edge=24,
           MASK=2),
        mm("k32_edge_bt_f16_64x128x32_w4_s3", "f16", "f16", (64, 128), 4, 3, k=374, edge=40,
           MASK=2, B_MODE=1),
        mm("k32_edge_f16_128x256x32_w8_s4", "f16", "f32", (128, 256), 8, 4, k=500, edge=24,
           MASK=2),
        # Epilogue, accumulator from a loaded C.
        mm("k32_epi_biasrelu_f16_128x128x32_w4_s3", "f16", "f16", (128, 128), 4, 3, EPI=True),
        mm("k32_accc_f16_128x64x32_w4_s3", "f16", "f32", (128, 64), 4, 3, ACC_C=True),
        mm("k32_accplus_c_bf16_64x128x32_w8_s2", "bf16", "f16", (64, 128), 8, 2, ACC_C=True,
           ACC_PLUS=True, EPI=True),
        # Loop-invariant A (one BM x 32 tile) times L blocks of B.
        ainv("k32_ainv_store_f16_64x64x32_w4_s2", "f16", "f16", (64, 64), 4, 2, 256, False),
        ainv("k32_ainv_acc_bf16_128x128x32_w8_s3", "bf16", "f32", (128, 128), 8, 3, 384, True),
        # One dot, no loop.
        single("k32_single_f16_64x64x32_w4", "f16", "f32", (64, 64), 4),
        single("k32_single_accc_bt_bf16_128x128x32_w8", "bf16", "f32", (128, 128), 8,
               B_T=True, ACC_C=True, EPI=True),
        # Attention: head dim 32 (q @ k^T has K 32) and 64 with BN 32
        # (p @ v has K 32).
        attn("k32_attn_hd32_f16_64x64_w4_s2", "f16", 64, 64, 32, 4, 2),
        attn("k32_attn_hd32_f16_128x64_w8_s3", "f16", 128, 64, 32, 8, 3),
        attn("k32_attn_hd64_f16_64x32_w4_s3", "f16", 64, 32, 64, 4, 3, k_ptr_t=True),
        attn("k32_attn_hd64_bf16_128x32_w8_s3", "bf16", 128, 32, 64, 8, 3, keys=500),
        # Batched.
        bmm_inductor("k32_bmm_inductor_f16_64x128x32_w4_s3", "f16", (64, 128), 4, 3,
                     256, 256, 384),
        bmm_inductor("k32_bmm_inductor_ktail_bf16_128x128x32_w8_s4", "bf16", (128, 128), 8, 4,
                     256, 512, 360),
        bmm_z("k32_bmm_z_f16_128x64x32_w4_s3", "f16", "f32", (128, 64), 4, 3, 256),
        # A stored K x M (M contiguous: x^T @ y), K blocks of 32 and 64, B
        # row-major or K-contiguous, a K tail.
        mm("k32_at_mmajor_bf16_64x128x32_w4_s4", "bf16", "f32", (64, 128), 4, 4,
           A_MMAJOR=True),
        mm("k32_at_bt_mmajor_f16_128x128x32_w8_s3", "f16", "f32", (128, 128), 8, 3,
           A_MMAJOR=True, B_MODE=2),
        mm("k64_at_mmajor_f16_128x128x64_w8_s3", "f16", "f16", (128, 128), 8, 3,
           k=512, A_MMAJOR=True, BK=64),
        mm("k64_at_mmajor_bf16_64x256x64_w4_s3", "bf16", "f32", (64, 256), 4, 3,
           k=512, A_MMAJOR=True, BK=64),
        mm("k64_at_mmajor_ktail_f16_128x64x64_w4_s4", "f16", "f32", (128, 64), 4, 4,
           k=500, A_MMAJOR=True, BK=64, MASK=1),
        # f32 operands, tl.dot's default input precision (tf32): 32 f32 fill a
        # 128-byte row; B contiguous along N, transposed, K-contiguous; edges.
        mm("k32_tf32_mm_64x64x32_w4_s3", "f32", "f32", (64, 64), 4, 3),
        mm("k32_tf32_mm_128x128x32_w8_s3", "f32", "f32", (128, 128), 8, 3, k=512),
        mm("k32_tf32_mm_128x256x32_w8_s2", "f32", "f32", (128, 256), 8, 2, k=256),
        mm("k32_tf32_mm_64x128x32_w4_s4", "f32", "f32", (64, 128), 4, 4),
        mm("k32_tf32_bt_trans_64x128x32_w4_s3", "f32", "f32", (64, 128), 4, 3, B_MODE=1),
        mm("k32_tf32_bt_kmajor_128x64x32_w4_s4", "f32", "f32", (128, 64), 4, 4, B_MODE=2),
        mm("k32_tf32_edge_64x64x32_w4_s3", "f32", "f32", (64, 64), 4, 3, k=350, edge=24,
           MASK=2),
        mm("k32_tf32_epi_biasrelu_128x128x32_w4_s3", "f32", "f32", (128, 128), 4, 3,
           EPI=True),
        # 64 rows on 8 warps: wgmma's two warpgroups split N (warps 4 x 2).
        mm("k32_split_bt_trans_f16_64x128x32_w8_s3", "f16", "f32", (64, 128), 8, 3,
           B_MODE=1),
        mm("k32_split_bt_kmajor_bf16_64x256x32_w8_s4", "bf16", "f32", (64, 256), 8, 4,
           B_MODE=2),
        mm("k64_split_f16_64x128x64_w8_s3", "f16", "f16", (64, 128), 8, 3, k=512, BK=64),
        mm("k32_split_edge_f16_64x128x32_w8_s3", "f16", "f32", (64, 128), 8, 3, k=374,
           edge=40, MASK=2),
        mm("k64_split_at_mmajor_bf16_64x128x64_w8_s3", "bf16", "f32", (64, 128), 8, 3,
           k=512, A_MMAJOR=True, BK=64),
        # A stored K x M in a square tile (BM = BK = BN: one tl.arange
        # indexes A's rows and columns and B's).
        mm("k64_at_mmajor_square_f16_64x64x64_w4_s3", "f16", "f32", (64, 64), 4, 3,
           k=512, A_MMAJOR=True, BK=64),
        mm("k64_at_mmajor_square_bf16_128x128x128_w8_s2", "bf16", "f32", (128, 128), 8, 2,
           k=512, A_MMAJOR=True, BK=128),
    ]



if __name__ == "__main__":
    ttir_kernels.main("kernels_k32", define, configs)
