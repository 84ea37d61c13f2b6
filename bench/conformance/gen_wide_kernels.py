#!/usr/bin/env python3
"""64-row, 8-warp tensor-core conformance kernels (w_*): the dots whose
warpgroups split N on sm_90a (kgpu-assign-layouts: warps [4, 2], each warp
column owning a contiguous half of N, instrShape [16, N / 2]). Plain K loops
with N of 128, 256 and 512, K blocks of 32 and 64, f16 / bf16, A
M-contiguous, B transposed (tl.trans and K-contiguous strides), masked K
tails and M / N edges, 2 to 4 stages, epilogues, and loops or tails that
kgpu-pipeline-dot-loops leaves or that share the accumulator's layout: a
second dot after the loop with the accumulator as C or added to it, two
dots in one loop, row and column reductions, B scaled in the loop, a
chained dot on the result, a loop-invariant A, broadcasts.

Generate (Triton 3.6, no GPU; run with the Triton venv's python):

    python gen_wide_kernels.py [--out bench/conformance/kernels_wide] [--only NAME...]

Same conventions as gen_k32_kernels.py (whose kernels and helpers this
reuses): correct under conformance.py's default launch, grid (8, 8, 1),
every integer scalar 1024, 4M-element buffers, each output element
written by one program.
"""
import os
import sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ttir_kernels  # noqa: E402
import gen_k32_kernels as g  # noqa: E402

T_TY = g.T_TY


def define():
    import triton
    import triton.language as tl
    fns = g.define()

    @triton.jit
    def extra(a, b, a2, b2, c, c2, M, N, K,
              BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
              M_ADD: tl.constexpr, K_ADD: tl.constexpr, MODE: tl.constexpr,
              BN2: tl.constexpr):
        # M = 8 * BM rows, N = 8 * BN columns (B K x N row-major), K + K_ADD.
        # MODE 0: loop dot, then after the loop a second dot with acc as C.
        # MODE 1: loop dot, then acc + dot(...) after the loop.
        # MODE 2: two dots in one loop (two accumulators), both stored.
        # MODE 3: loop dot, then row sums (stored to c2[:M]) and column
        #         maxes (c2[M + n]) along with acc.
        # MODE 4: B scaled by 2 in the loop (an elementwise op between the
        #         load and the dot).
        # MODE 5: B stored N x K, loaded, scaled, tl.trans'd in the loop.
        # MODE 6: chained: acc (64 x BN) cast to f16 times a2 (BN x BN2,
        #         column block pid_n of an [BN, 8 * BN2] matrix) after the loop.
        # MODE 7: sigmoid(acc) * acc epilogue (silu), f16 output.
        # MODE 8: A loaded once (loop-invariant), times K / BK blocks of B.
        M = M + M_ADD
        NN = N * (8 * BN // 1024)
        K = K + K_ADD
        pid_m = tl.program_id(0)
        pid_n = tl.program_id(1)
        offs_m = pid_m * BM + tl.arange(0, BM)
        offs_n = pid_n * BN + tl.arange(0, BN)
        offs_k = tl.arange(0, BK)
        a_ptrs = a + offs_m[:, None] * N + offs_k[None, :]
        if MODE == 5:
            b_ptrs = b + offs_n[:, None] * N + offs_k[None, :]
        else:
            b_ptrs = b + offs_k[:, None] * NN + offs_n[None, :]
        b2_ptrs = b2 + offs_k[:, None] * NN + offs_n[None, :]
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        acc2 = tl.zeros((BM, BN), dtype=tl.float32)
        x0 = tl.load(a_ptrs)
        for kb in range(0, K // BK):
            if MODE == 8:
                x = x0
            else:
                x = tl.load(a_ptrs)
            y = tl.load(b_ptrs)
            if MODE == 4:
                y = y * 2.0
            if MODE == 5:
                y = tl.trans(y * 2.0)
            acc = tl.dot(x, y, acc)
            if MODE == 2:
                acc2 = tl.dot(x, tl.load(b2_ptrs), acc2)
                b2_ptrs += BK * NN
            a_ptrs += BK
            if MODE == 5:
                b_ptrs += BK
            else:
                b_ptrs += BK * NN
        c_ptrs = c + offs_m[:, None] * NN + offs_n[None, :]
        if MODE == 0:
            x2 = tl.load(a2 + offs_m[:, None] * N + offs_k[None, :])
            y2 = tl.load(b2 + offs_k[:, None] * NN + offs_n[None, :])
            acc = tl.dot(x2, y2, acc)
        if MODE == 1:
            x2 = tl.load(a2 + offs_m[:, None] * N + offs_k[None, :])
            y2 = tl.load(b2 + offs_k[:, None] * NN + offs_n[None, :])
            acc = acc + tl.dot(x2, y2)
        if MODE == 2:
            tl.store(c2 + offs_m[:, None] * NN + offs_n[None, :], acc2.to(c2.dtype.element_ty))
        if MODE == 3:
            rs = tl.sum(acc, 1)
            cm = tl.max(acc, 0)
            tl.store(c2 + pid_n * M + offs_m, rs.to(c2.dtype.element_ty))
            tl.store(c2 + 8 * M + pid_m * NN + offs_n, cm.to(c2.dtype.element_ty))
        if MODE == 6:
            offs_r = tl.arange(0, BN)
            offs_c = pid_n * BN2 + tl.arange(0, BN2)
            w = tl.load(a2 + offs_r[:, None] * (8 * BN2) + offs_c[None, :])
            o = tl.dot(acc.to(tl.float16), w)
            tl.store(c + offs_m[:, None] * (8 * BN2) + offs_c[None, :], o.to(c.dtype.element_ty))
        else:
            if MODE == 7:
                acc = acc * tl.sigmoid(acc)
            if MODE == 9:
                acc = acc - tl.max(acc, 1)[:, None] + tl.sum(acc, 0)[None, :] * 0.01
            tl.store(c_ptrs, acc.to(c.dtype.element_ty))

    fns["extra"] = extra
    return fns


def mm(name, dt, out, bn, s, bk=32, k=384, edge=0, **kw):
    d = g.mm(name, dt, out, (64, bn), 8, s, k=k, edge=edge, BK=bk, **kw)
    return d


EX_ARGS = ["a", "b", "a2", "b2", "c", "c2", "M", "N", "K"]


def ex(name, dt, out, bn, s, mode, bk=32, k=384, bn2=64, out2=None):
    sig = dict(zip(EX_ARGS, [T_TY[dt]] * 4 + [T_TY[out], T_TY[out2 or out]] + ["i32"] * 3))
    ce = dict(BM=64, BN=bn, BK=bk, M_ADD=8 * 64 - 1024, K_ADD=k - 1024, MODE=mode, BN2=bn2)
    return dict(name=name, fn="extra", warps=8, stages=s, sig=sig, ce=ce)


def configs():
    return [
        mm("w_mm_f16_64x128x32_w8_s3", "f16", "f32", 128, 3),
        mm("w_mm_bf16_64x256x64_w8_s3", "bf16", "f16", 256, 3, bk=64, k=512),
        mm("w_mm_f16_64x512x32_w8_s3", "f16", "f32", 512, 3),
        mm("w_mm_bf16_64x512x64_w8_s2", "bf16", "f32", 512, 2, bk=64, k=512),
        mm("w_mm_f16_64x128x32_w8_s2", "f16", "f16", 128, 2),
        mm("w_at_f16_64x256x32_w8_s4", "f16", "f32", 256, 4, A_MMAJOR=True),
        mm("w_bt_trans_f16_64x256x64_w8_s2", "f16", "f32", 256, 2, bk=64, k=512, B_MODE=1),
        mm("w_bt_kmajor_bf16_64x128x32_w8_s3", "bf16", "f32", 128, 3, B_MODE=2),
        mm("w_edge_f16_64x128x32_w8_s3", "f16", "f32", 128, 3, k=374, edge=40, MASK=2),
        mm("w_edge_bt_bf16_64x256x64_w8_s4", "bf16", "f32", 256, 4, bk=64, k=500, edge=24,
           MASK=2, B_MODE=1),
        mm("w_epi_f16_64x256x32_w8_s3", "f16", "f16", 256, 3, EPI=True),
        mm("w_accplus_c_f16_64x128x64_w8_s3", "f16", "f32", 128, 3, bk=64, k=512,
           ACC_C=True, ACC_PLUS=True, EPI=True),
        mm("w_ktail_at_bt_f16_64x128x32_w8_s3", "f16", "f32", 128, 3, k=374, MASK=1,
           A_MMAJOR=True, B_MODE=2),
        mm("w_at_ktail_bf16_64x512x32_w8_s4", "bf16", "f16", 512, 4, k=374, MASK=1,
           A_MMAJOR=True),
        ex("w_x_dotc_f16_64x128x32_w8_s3", "f16", "f32", 128, 3, 0),
        ex("w_x_plusdot_bf16_64x256x32_w8_s3", "bf16", "f32", 256, 3, 1),
        ex("w_x_twodots_f16_64x128x32_w8_s3", "f16", "f32", 128, 3, 2),
        ex("w_x_reduce_f16_64x256x64_w8_s3", "f16", "f32", 256, 3, 3, bk=64, k=512),
        ex("w_x_bscale_f16_64x128x32_w8_s3", "f16", "f32", 128, 3, 4),
        ex("w_x_btscale_bf16_64x256x32_w8_s3", "bf16", "f32", 256, 3, 5),
        ex("w_x_chain_f16_64x128x64_w8_s3", "f16", "f32", 128, 3, 6, bk=64, k=512),
        ex("w_x_silu_f16_64x512x64_w8_s2", "f16", "f16", 512, 2, 7, bk=64, k=512),
        ex("w_x_ainv_bf16_64x256x32_w8_s3", "bf16", "f32", 256, 3, 8),
        ex("w_x_bcast_f16_64x256x32_w8_s3", "f16", "f32", 256, 3, 9),
    ]


if __name__ == "__main__":
    ttir_kernels.main("kernels_wide", define, configs)
