#!/usr/bin/env python3
"""Flash-attention forward conformance kernels (attn_*): q @ k^T, an online
softmax with exp2, and p @ v with f32 accumulation, f16 / bf16 operands,
for kiln's tensor-core path on sm_90a (Triton 3.6 puts both dots on wgmma
and pipelines the K / V loads with cp.async). Head dim D 16, 32, 64, 96
(padded to 128 columns, masked) and 128; BLOCK_N 16 .. 128; BLOCK_M 64 and
128 with 4 and 8 warps; 2 and 3 stages; k loaded BN x D and tl.trans'd or
D x BN through strides; a key count that is a multiple of BN or not (keys
masked, scores past S set to -inf); causal masks (every key block masked,
the loop cut at the diagonal, or the tutorial's two loops: unmasked blocks,
then the diagonal block masked); the scale applied to q before the loop (a
loop-invariant tensor multiply); f32 output. Triton's shared memory for
each is at most 224 KB (attn_hd128_f16_128x128_w8_s3; over 4 stages it
would take 288 KB, past sm_90's 227 KB, so none has 4).

Generate (Triton 3.6, no GPU; run with the Triton venv's python):

    python gen_attn_kernels.py [--out bench/conformance/kernels_attn] [--only NAME...]

Run them like the other folders: conformance.py --ttir DIR/ttir --kiln-out
DIR/out after compiling with bench/compile_kernel.sh.

Same conventions as gen_k32_kernels.py: Triton 3.6 TTIR compiled for
GPUTarget("cuda", 90, 32) on the CPU, pointers and scalars with
tt.divisibility 16; correct under conformance.py's default launch, grid
(8, 8, 1), every i32 scalar 1024, every buffer 4M elements (the json
carries no grid or scalars). Heads are on program_id(1), q blocks of BM rows
on program_id(0). The sizes come from the scalars inside the kernel (S +
S_ADD keys, stride_qh + QH_ADD q rows a head, stride_kh + KH_ADD k / v rows
a head) so Triton cannot fold them: q and o are [8, 8 * BM, D] (8 q blocks
a head, so the 8 x 8 grid writes every element of o exactly once), k and v
[8, KH, D] with KH >= S (at most 8 * 1024 * 128 elements are read: 1M of
the 4M). Causal kernels have as many keys as q rows (8 * BM).

Names: attn_[variant_]hd<D>_<dtype>_<BM>x<BN>_w<warps>_s<stages>; variants
kT (k read D x BN through strides), masks<S> (S keys, not a multiple of BN),
causal_all / causal_diag / causal_split, qscale, o32 (f32 output).
"""
import ttir_kernels  # the TTIR and JSON writing (scrub, main)

# The generated TTIR carries this file's line numbers (its loc entries):
# a line added or removed above a kernel changes every file generated
# from it below that line.

T_TY = {"f16": "*fp16", "bf16": "*bf16", "f32": "*fp32"}
LOG2E = 1.4426950408889634


def define():
    import triton
    import triton.language as tl

    @triton.jit
    def ld(ptrs, row_ok, col_ok, ROWS: tl.constexpr, COLS: tl.constexpr):
        # A 2-D tile load masked along its rows, its columns, both or
        # neither (masked elements read as 0).
        if ROWS and COLS:
            t = tl.load(ptrs, mask=row_ok[:, None] & col_ok[None, :], other=0.0)
        elif ROWS:
            t = tl.load(ptrs, mask=row_ok[:, None], other=0.0)
        elif COLS:
            t = tl.load(ptrs, mask=col_ok[None, :], other=0.0)
        else:
            t = tl.load(ptrs)
        return t

    @triton.jit
    def attn_inner(acc, l_i, m_i, qt, kb, vb, offs_m, offs_n, offs_d, S, lo, hi,
                   BN: tl.constexpr, D: tl.constexpr, DP: tl.constexpr,
                   K_PTR_T: tl.constexpr, MASK_S: tl.constexpr, CMASK: tl.constexpr,
                   QK_SCALE: tl.constexpr):
        # Key blocks [lo, hi) of one q block. kb, vb: this head's k and v.
        # K_PTR_T: k read D x BN through strides (no tl.trans). MASK_S: keys
        # past S read as 0 and their scores -inf. CMASK: scores of keys past
        # the query position -inf. QK_SCALE: multiplies the scores (1.0:
        # q was scaled before the loop, nothing is multiplied).
        d_ok = offs_d < D
        for start in range(lo, hi, BN):
            kn = start + offs_n
            n_ok = kn < S
            if K_PTR_T:
                kt = ld(kb + offs_d[:, None] + kn[None, :] * D, d_ok, n_ok, DP != D, MASK_S)
                s = tl.dot(qt, kt)
            else:
                kt = ld(kb + kn[:, None] * D + offs_d[None, :], n_ok, d_ok, MASK_S, DP != D)
                s = tl.dot(qt, tl.trans(kt))
            if QK_SCALE != 1.0:
                s = s * QK_SCALE  # log2(e) / sqrt(D)
            if MASK_S:
                s = tl.where(n_ok[None, :], s, float("-inf"))
            if CMASK:
                s = tl.where(offs_m[:, None] >= kn[None, :], s, float("-inf"))
            m_new = tl.maximum(m_i, tl.max(s, 1))
            p = tl.math.exp2(s - m_new[:, None])
            alpha = tl.math.exp2(m_i - m_new)
            l_i = l_i * alpha + tl.sum(p, 1)
            vt = ld(vb + kn[:, None] * D + offs_d[None, :], n_ok, d_ok, MASK_S, DP != D)
            acc = acc * alpha[:, None]
            acc = tl.dot(p.to(vt.dtype), vt, acc)
            m_i = m_new
        return acc, l_i, m_i

    @triton.jit
    def attn(q, k, v, o, S, stride_qh, stride_kh,
             S_ADD: tl.constexpr, QH_ADD: tl.constexpr, KH_ADD: tl.constexpr,
             BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr, DP: tl.constexpr,
             K_PTR_T: tl.constexpr, MASK_S: tl.constexpr, CAUSAL: tl.constexpr,
             Q_SCALE: tl.constexpr, QK_SCALE: tl.constexpr):
        # Flash-attention forward. q, o: [8, QH, D], k, v: [8, KH, D] (rows
        # of D elements; DP = D rounded up to a power of 2, the columns past
        # D masked). CAUSAL: 0 none, loop over all S keys; 1 every block
        # masked (key > query: -inf), loop over all S keys; 2 masked, loop
        # up to the end of this q block; 3 unmasked loop up to this q block,
        # then a second loop over its diagonal blocks, masked. Q_SCALE: q
        # multiplied by QK_SCALE before the loop (a loop-invariant tensor
        # multiply), the scores not scaled.
        S = S + S_ADD
        QH = stride_qh + QH_ADD
        KH = stride_kh + KH_ADD
        pid_m = tl.program_id(0)
        head = tl.program_id(1)
        qb = head * QH * D
        kvb = head * KH * D
        offs_m = pid_m * BM + tl.arange(0, BM)
        offs_d = tl.arange(0, DP)
        offs_n = tl.arange(0, BN)
        d_ok = offs_d < D
        qt = ld(q + qb + offs_m[:, None] * D + offs_d[None, :], d_ok, d_ok, False, DP != D)
        if Q_SCALE:
            qt = (qt * QK_SCALE).to(q.dtype.element_ty)
            scale: tl.constexpr = 1.0
        else:
            scale: tl.constexpr = QK_SCALE
        m_i = tl.full((BM,), float("-inf"), tl.float32)
        l_i = tl.zeros((BM,), tl.float32)
        acc = tl.zeros((BM, DP), tl.float32)
        if CAUSAL == 3:
            acc, l_i, m_i = attn_inner(acc, l_i, m_i, qt, k + kvb, v + kvb, offs_m, offs_n,
                                       offs_d, S, 0, pid_m * BM, BN, D, DP, K_PTR_T, MASK_S,
                                       False, scale)
            acc, l_i, m_i = attn_inner(acc, l_i, m_i, qt, k + kvb, v + kvb, offs_m, offs_n,
                                       offs_d, S, pid_m * BM, (pid_m + 1) * BM, BN, D, DP,
                                       K_PTR_T, MASK_S, True, scale)
        elif CAUSAL == 2:
            acc, l_i, m_i = attn_inner(acc, l_i, m_i, qt, k + kvb, v + kvb, offs_m, offs_n,
                                       offs_d, S, 0, (pid_m + 1) * BM, BN, D, DP, K_PTR_T,
                                       MASK_S, True, scale)
        else:
            acc, l_i, m_i = attn_inner(acc, l_i, m_i, qt, k + kvb, v + kvb, offs_m, offs_n,
                                       offs_d, S, 0, S, BN, D, DP, K_PTR_T, MASK_S,
                                       CAUSAL == 1, scale)
        acc = acc / l_i[:, None]
        o_ptrs = o + qb + offs_m[:, None] * D + offs_d[None, :]
        if DP != D:
            tl.store(o_ptrs, acc.to(o.dtype.element_ty), mask=d_ok[None, :])
        else:
            tl.store(o_ptrs, acc.to(o.dtype.element_ty))

    return dict(attn=attn)


def attn(name, dt, bm, bn, d, w, s, keys=512, k_ptr_t=False, causal=0, q_scale=False,
         out=None):
    """q / o rows a head: 8 * bm (the grid's 8 q blocks); k / v rows a head:
    keys rounded up to 128. Causal kernels: keys = 8 * bm."""
    dp = 1 << (d - 1).bit_length()
    if causal:
        keys = 8 * bm
        assert bm % bn == 0
    assert keys <= 1024
    kh = -(-keys // 128) * 128
    assert 8 * max(8 * bm, kh) * d <= 1 << 22
    sig = dict(zip(["q", "k", "v", "o", "S", "stride_qh", "stride_kh"],
                   [T_TY[dt]] * 3 + [T_TY[out or dt]] + ["i32"] * 3))
    ce = dict(S_ADD=keys - 1024, QH_ADD=8 * bm - 1024, KH_ADD=kh - 1024, BM=bm, BN=bn, D=d,
              DP=dp, K_PTR_T=k_ptr_t, MASK_S=keys % bn != 0, CAUSAL=causal, Q_SCALE=q_scale,
              QK_SCALE=LOG2E / d ** 0.5)
    return dict(name=name, fn="attn", warps=w, stages=s, sig=sig, ce=ce)


def configs():
    return [
        # Head dims 16 .. 128, keys a multiple of BN (no mask), k tl.trans'd.
        attn("attn_hd16_f16_64x32_w4_s2", "f16", 64, 32, 16, 4, 2),
        attn("attn_hd16_bf16_128x64_w8_s3", "bf16", 128, 64, 16, 8, 3, keys=1024),
        attn("attn_hd32_f16_64x64_w4_s3", "f16", 64, 64, 32, 4, 3),
        attn("attn_hd32_bf16_128x128_w8_s2", "bf16", 128, 128, 32, 8, 2, keys=1024),
        attn("attn_hd64_f16_64x64_w4_s2", "f16", 64, 64, 64, 4, 2),
        attn("attn_hd64_f16_128x64_w8_s3", "f16", 128, 64, 64, 8, 3),
        attn("attn_hd64_f16_128x64_w4_s3", "f16", 128, 64, 64, 4, 3),
        attn("attn_hd64_f16_64x64_w8_s3", "f16", 64, 64, 64, 8, 3, keys=768),
        attn("attn_hd64_bf16_64x16_w4_s3", "bf16", 64, 16, 64, 4, 3, keys=256),
        attn("attn_hd96_f16_64x32_w4_s3", "f16", 64, 32, 96, 4, 3),
        attn("attn_hd96_bf16_128x64_w8_s2", "bf16", 128, 64, 96, 8, 2),
        attn("attn_hd128_f16_128x64_w8_s3", "f16", 128, 64, 128, 8, 3),
        attn("attn_hd128_bf16_128x128_w8_s2", "bf16", 128, 128, 128, 8, 2),
        attn("attn_hd128_f16_128x128_w8_s3", "f16", 128, 128, 128, 8, 3),
        attn("attn_hd128_f16_128x32_w4_s3", "f16", 128, 32, 128, 4, 3),
        attn("attn_hd128_f16_128x16_w8_s3", "f16", 128, 16, 128, 8, 3, keys=256),
        # O and P short of registers (128 + 128 per thread on 4 warps): P @ V
        # stays in flight across the back edge (kgpu-pipeline-dot-loops).
        attn("attn_hd128_f16_128x128_w4_s3", "f16", 128, 128, 128, 4, 3),
        attn("attn_hd96_bf16_128x128_w4_s3", "bf16", 128, 128, 96, 4, 3),
        # k read D x BN through strides (K-contiguous B of q @ k^T).
        attn("attn_kT_hd64_f16_64x64_w4_s3", "f16", 64, 64, 64, 4, 3),
        attn("attn_kT_hd128_bf16_128x64_w8_s3", "bf16", 128, 64, 128, 8, 3),
        attn("attn_kT_hd32_f16_128x16_w4_s2", "f16", 128, 16, 32, 4, 2, keys=256),
        # Keys not a multiple of BN: masked loads (0.0) and -inf scores past S.
        attn("attn_masks1000_hd64_f16_128x64_w8_s3", "f16", 128, 64, 64, 8, 3, keys=1000),
        attn("attn_masks500_hd128_bf16_64x32_w4_s2", "bf16", 64, 32, 128, 4, 2, keys=500),
        attn("attn_masks777_kT_hd32_f16_64x128_w4_s3", "f16", 64, 128, 32, 4, 3, keys=777),
        attn("attn_masks300_hd96_f16_128x32_w4_s3", "f16", 128, 32, 96, 4, 3, keys=300),
        # Causal (keys = 8 * BM): every block masked over all keys, up to the
        # diagonal, the tutorial's unmasked loop + masked diagonal loop.
        attn("attn_causal_all_hd64_f16_128x64_w8_s3", "f16", 128, 64, 64, 8, 3, causal=1),
        attn("attn_causal_diag_hd128_bf16_128x64_w8_s3", "bf16", 128, 64, 128, 8, 3, causal=2),
        attn("attn_causal_diag_hd32_f16_64x16_w4_s2", "f16", 64, 16, 32, 4, 2, causal=2),
        attn("attn_causal_split_hd64_f16_64x32_w4_s3", "f16", 64, 32, 64, 4, 3, causal=3),
        attn("attn_causal_split_hd128_f16_128x64_w8_s2", "f16", 128, 64, 128, 8, 2, causal=3),
        attn("attn_causal_split_hd128_f16_128x128_w4_s3", "f16", 128, 128, 128, 4, 3, causal=3),
        # The scale applied to q before the loop; f32 output.
        attn("attn_qscale_hd64_f16_128x64_w8_s3", "f16", 128, 64, 64, 8, 3, q_scale=True),
        attn("attn_qscale_hd128_bf16_64x64_w4_s2", "bf16", 64, 64, 128, 4, 2, q_scale=True),
        attn("attn_o32_hd64_bf16_128x64_w8_s3", "bf16", 128, 64, 64, 8, 3, out="f32"),
    ]


if __name__ == "__main__":
    ttir_kernels.main("kernels_attn", define, configs)
