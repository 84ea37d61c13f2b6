#!/usr/bin/env python3
"""Register-prefetch conformance kernels (pf_*): tensor-core K loops that
kgpu-pipeline-dot-loops can neither stage through cp.async nor slot, whose
tile loads it prefetches one iteration ahead into registers (its third
tier, matchPrefetchLoop). An operand scaled, biased, or put through a
sigmoid / silu in the loop (A or B), all of these at once, A upcast and
scaled by a per-K vector loaded in the loop, a per-N bias added to B,
f16 / bf16 and f32 (tf32) dots, a plain f8 dot (upcast before it), masked
K tails (`other` 0), `range(0, K, BK)` (step BK) and `range(1, L + 1)`
(lb 1) loops, pointers carried or recomputed from the
induction variable, loops that run zero times in some programs (K per
program), a loop-invariant A (loaded before the loop or from an invariant
pointer in it), two dots in one loop, 4 and 8 warps, 2 to 4 stages, tiles
32x32 .. 128x128; and two loops it must leave (a store in the loop, tiles
plus accumulator over its register budget).

Generate (Triton 3.6, no GPU; run with the Triton venv's python):

    python gen_prefetch_kernels.py [--out bench/conformance/kernels_prefetch] [--only NAME...]

Same conventions as gen_k32_kernels.py: correct under conformance.py's
default launch, grid (8, 8, 1), every integer scalar 1024, 4M-element
buffers, each output element written by one program.
"""
import ttir_kernels  # the TTIR and JSON writing (scrub, main)

# The generated TTIR carries this file's line numbers (its loc entries).

T_TY = {"f16": "*fp16", "bf16": "*bf16", "f32": "*fp32", "f8": "*fp8e4nv"}


def define():
    import triton
    import triton.language as tl

    @triton.jit
    def pf(a, b, s, bias, c, c2, M, N, K,
           BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
           M_ADD: tl.constexpr, N_ADD: tl.constexpr, K_ADD: tl.constexpr,
           OP: tl.constexpr, LOOP: tl.constexpr, PTR: tl.constexpr,
           MASK: tl.constexpr, AINV: tl.constexpr, TWO: tl.constexpr,
           RAGGED: tl.constexpr, STORE: tl.constexpr):
        # C (M x N) = A (M x K, row stride 2 * 1024) @ op(B) (K x N, row
        # stride N); M = 8 * BM, N = 8 * BN (less M_ADD / N_ADD edges),
        # K = 1024 + K_ADD, or pid_m * RAGGED (0 for pid_m 0) when RAGGED.
        # OP: 0 none; 1 B * 2; 2 A + 1; 3 sigmoid(B); 4 A upcast times a
        #     per-K f32 vector s loaded in the loop; 5 B + per-N bias loaded
        #     in the loop (loop-invariant pointer); 6 silu(A); 7 B * 0.5;
        #     8 silu(A) times the per-K s and sigmoid(B) plus the per-N bias.
        # LOOP: 0 range(0, cdiv(K, BK)); 1 range(0, K, BK); 2 range(1,
        #     cdiv(K, BK) + 1).
        # PTR: 0 pointers carried (+= BK); 1 recomputed from the iv.
        # MASK: 0 none; 1 K tail (other 0); 2 K tail and M / N edges.
        # AINV: 1 A loaded before the loop; 2 A loaded in the loop from a
        #     loop-invariant pointer (the first K block both ways).
        # TWO: a second dot with B at offset 2M (times 0.5) into acc2,
        #     stored to c2.
        # STORE: each iteration's op(B) tile stored to the program's own
        #     region of c2 (a store in the loop).
        M = M + M_ADD
        N = N + N_ADD
        sa = K * 2
        pid_m = tl.program_id(0)
        pid_n = tl.program_id(1)
        if RAGGED > 0:
            K = pid_m * RAGGED
        else:
            K = K + K_ADD
        offs_m = pid_m * BM + tl.arange(0, BM)
        offs_n = pid_n * BN + tl.arange(0, BN)
        offs_k = tl.arange(0, BK)
        m_ok = offs_m < M
        n_ok = offs_n < N
        a_ptrs = a + offs_m[:, None] * sa + offs_k[None, :]
        b_ptrs = b + offs_k[:, None] * N + offs_n[None, :]
        x0 = tl.load(a_ptrs)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        acc2 = tl.zeros((BM, BN), dtype=tl.float32)
        if LOOP == 0:
            lo = 0
            hi = tl.cdiv(K, BK)
            st = 1
        elif LOOP == 1:
            lo = 0
            hi = K
            st = BK
        else:
            lo = 1
            hi = tl.cdiv(K, BK) + 1
            st = 1
        for it in range(lo, hi, st):
            if LOOP == 0:
                k0 = it * BK
            elif LOOP == 1:
                k0 = it
            else:
                k0 = (it - 1) * BK
            if PTR == 0:
                pa = a_ptrs
                pb = b_ptrs
            else:
                pa = a + offs_m[:, None] * sa + (k0 + offs_k)[None, :]
                pb = b + (k0 + offs_k)[:, None] * N + offs_n[None, :]
            k_ok = (k0 + offs_k) < K
            if MASK == 0:
                x = tl.load(pa)
                y = tl.load(pb)
            elif MASK == 1:
                x = tl.load(pa, mask=k_ok[None, :], other=0.0)
                y = tl.load(pb, mask=k_ok[:, None], other=0.0)
            else:
                x = tl.load(pa, mask=m_ok[:, None] & k_ok[None, :], other=0.0)
                y = tl.load(pb, mask=k_ok[:, None] & n_ok[None, :], other=0.0)
            if AINV == 1:
                x = x0
            if AINV == 2:
                x = tl.load(a + offs_m[:, None] * sa + offs_k[None, :])
            if OP == 1:
                y = y * 2.0
            if OP == 2:
                x = x + 1.0
            if OP == 3:
                y = tl.sigmoid(y.to(tl.float32)).to(y.dtype)
            if OP == 4:
                if MASK == 0:
                    sk = tl.load(s + k0 + offs_k)
                else:
                    sk = tl.load(s + k0 + offs_k, mask=k_ok, other=0.0)
                x = (x.to(tl.float32) * sk[None, :]).to(x.dtype)
            if OP == 5:
                bn = tl.load(bias + offs_n)
                y = y + bn[None, :].to(y.dtype)
            if OP == 6:
                x = (x.to(tl.float32) * tl.sigmoid(x.to(tl.float32))).to(x.dtype)
            if OP == 7:
                y = y * 0.5
            if OP == 8:
                sk = tl.load(s + k0 + offs_k, mask=k_ok, other=0.0)
                bn = tl.load(bias + offs_n)
                xf = x.to(tl.float32)
                x = (xf * tl.sigmoid(xf) * sk[None, :]).to(x.dtype)
                y = (tl.sigmoid(y.to(tl.float32)) + bn[None, :]).to(y.dtype)
            acc = tl.dot(x, y, acc)
            if TWO:
                if MASK == 0:
                    y2 = tl.load(pb + 2097152)
                else:
                    y2 = tl.load(pb + 2097152, mask=k_ok[:, None], other=0.0)
                acc2 = tl.dot(x, y2 * 0.5, acc2)
            if STORE:
                base = c2 + (pid_m * 8 + pid_n) * (K * BN)
                tl.store(base + (k0 + offs_k)[:, None] * BN + tl.arange(0, BN)[None, :], y)
            if PTR == 0:
                a_ptrs += BK
                b_ptrs += BK * N
        c_ptrs = c + offs_m[:, None] * N + offs_n[None, :]
        if MASK == 2:
            tl.store(c_ptrs, acc.to(c.dtype.element_ty), mask=m_ok[:, None] & n_ok[None, :])
        else:
            tl.store(c_ptrs, acc.to(c.dtype.element_ty))
        if TWO:
            tl.store(c2 + offs_m[:, None] * N + offs_n[None, :], acc2.to(c2.dtype.element_ty))

    return {"pf": pf}


ARGS = ["a", "b", "s", "bias", "c", "c2", "M", "N", "K"]


def pf(name, dt, out, tile, w, s, op=0, k=384, edge=0, **kw):
    """The 8 x 8 grid covers M = 8 * BM and N = 8 * BN; edge takes that many
    rows / columns off both (MASK 2)."""
    bm, bn, bk = tile
    ce = dict(BM=bm, BN=bn, BK=bk, M_ADD=8 * bm - 1024 - edge, N_ADD=8 * bn - 1024 - edge,
              K_ADD=k - 1024, OP=op, LOOP=0, PTR=0, MASK=0, AINV=0, TWO=False, RAGGED=0,
              STORE=False)
    ce.update(kw)
    c2 = dt if ce["STORE"] else out
    sig = dict(zip(ARGS, [T_TY[dt], T_TY[dt], "*fp32", "*fp32", T_TY[out], T_TY[c2]]
                   + ["i32"] * 3))
    return dict(name=name, fn="pf", warps=w, stages=s, sig=sig, ce=ce)


def configs():
    return [
        pf("pf_bscale_f16_64x64x32_w4_s3", "f16", "f32", (64, 64, 32), 4, 3, op=1),
        pf("pf_abias_iv_bf16_128x64x32_w4_s2", "bf16", "f32", (128, 64, 32), 4, 2, op=2,
           LOOP=1, PTR=1),
        pf("pf_bsigmoid_lb1_f16_64x128x32_w8_s3", "f16", "f16", (64, 128, 32), 8, 3, op=3,
           LOOP=2),
        pf("pf_kscale_tail_bf16_64x64x64_w4_s3", "bf16", "f32", (64, 64, 64), 4, 3, op=4,
           k=1000, MASK=1),
        pf("pf_kscale_step_f16_128x128x32_w8_s4", "f16", "f32", (128, 128, 32), 8, 4, op=4,
           k=500, MASK=1, LOOP=1, PTR=1),
        pf("pf_nbias_f16_32x32x32_w4_s2", "f16", "f32", (32, 32, 32), 4, 2, op=5),
        pf("pf_tf32_bhalf_tail_f32_64x64x32_w4_s3", "f32", "f32", (64, 64, 32), 4, 3, op=7,
           k=400, MASK=1),
        pf("pf_tf32_asilu_lb1_f32_128x64x32_w4_s2", "f32", "f32", (128, 64, 32), 4, 2, op=6,
           LOOP=2, PTR=1),
        pf("pf_ainv_bf16_64x128x32_w8_s3", "bf16", "f32", (64, 128, 32), 8, 3, AINV=1),
        pf("pf_ainvptr_bscale_f16_64x64x32_w8_s3", "f16", "f32", (64, 64, 32), 8, 3, op=1,
           AINV=2),
        # A plain f8 dot: tt-upcast-f8-dot-operands puts an upcast between
        # the loads and the dot, so it reaches the prefetch tier too.
        pf("pf_fp8_plain_f8_64x64x64_w4_s3", "f8", "f32", (64, 64, 64), 4, 3),
        pf("pf_twodots_tail_bf16_64x128x32_w8_s2", "bf16", "f32", (64, 128, 32), 8, 2,
           TWO=True, k=372, MASK=1, LOOP=1),
        pf("pf_ragged_step_f16_64x64x32_w4_s3", "f16", "f32", (64, 64, 32), 4, 3, op=1,
           RAGGED=72, MASK=1, LOOP=1, PTR=1),
        pf("pf_ragged_lb1_bf16_64x64x64_w4_s4", "bf16", "f16", (64, 64, 64), 4, 4, op=3,
           RAGGED=40, MASK=1, LOOP=2),
        pf("pf_edge_asilu_f16_128x64x64_w4_s3", "f16", "f32", (128, 64, 64), 4, 3, op=6,
           k=440, edge=24, MASK=2),
        pf("pf_zero_trip_f16_64x64x32_w4_s3", "f16", "f32", (64, 64, 32), 4, 3, op=1,
           k=0, MASK=1),
        pf("pf_bscale_f16_128x128x64_w8_s3", "f16", "f32", (128, 128, 64), 8, 3, op=1),
        # Within the tier's register budget, but its f32 temporaries spill
        # once the next tiles are carried (255 registers before and after).
        pf("pf_heavy_edge_bf16_64x128x64_w4_s3", "bf16", "f32", (64, 128, 64), 4, 3, op=8,
           k=440, edge=24, MASK=2, LOOP=1, PTR=1),
        # Must be left alone: a store in the loop; tiles + accumulator over
        # the register budget (128 x 128 f32 on 4 warps: 128 + 32).
        pf("pf_no_store_f16_64x64x32_w4_s3", "f16", "f32", (64, 64, 32), 4, 3, op=1,
           STORE=True),
        pf("pf_no_regs_f16_128x128x32_w4_s3", "f16", "f32", (128, 128, 32), 4, 3, op=1),
    ]


if __name__ == "__main__":
    ttir_kernels.main("kernels_prefetch", define, configs)
