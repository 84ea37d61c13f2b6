#!/usr/bin/env python3
"""Matmul (tt.dot) conformance kernels for kiln's tensor-core path, and a
compile report of them.

Generate (needs Triton 3.6, no GPU; run with the Triton venv's python):

    python gen_dot_kernels.py [--out bench/conformance/kernels_dots]

writes NAME.ttir + NAME.json ({"num_warps", "num_stages", "num_ctas"}) per
kernel. Every kernel is correct under conformance.py's default launch: grid
(8, 8, 1), every integer scalar 1024, every buffer 4M random elements. Shapes
other than 1024 come from the scalars inside the kernel (M - M_SUB, K // 16,
...) so Triton cannot fold them; pointers and the 1024-valued scalars carry
tt.divisibility = 16 as Triton's launcher would give them.

Report (no Triton needed; plain python3):

    python3 gen_dot_kernels.py --report --kiln bazel-bin/tools/kiln/kiln

compiles every kernel for sm_90a and sm_90 with its json's options and writes
the table of registers, spills, wgmma / mma.sync counts and ptxas's C7514
warning into the folder's README.md (between the report markers).

GPU round (the files bench/conformance/conformance.py reads):

    python3 gen_dot_kernels.py --gpu-dir .kiln/gpu/dots --kiln bazel-bin/tools/kiln/kiln

fills DIR/ttir (the .ttir + .json) and DIR/out/NAME (`kiln compile --ftz
--target sm_90a`, status.txt), as bench/prepare_gpu_round.sh does for the
corpus.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.join(HERE, "kernels_dots")
REPORT_BEGIN = "<!-- report begin -->"
REPORT_END = "<!-- report end -->"


# --------------------------------------------------------------------------
# Kernels (defined only when Triton is imported: --report does not need it).

def define_kernels():
    import triton
    import triton.language as tl

    @triton.jit
    def mm_kernel(a, b, c, bias, M, N, K, stride_am, stride_bk, stride_bn, stride_cm,
                  M_SUB: tl.constexpr, N_SUB: tl.constexpr, K_SUB: tl.constexpr,
                  K_DIV: tl.constexpr,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                  REVERSE: tl.constexpr, B_KMAJOR: tl.constexpr, MASK_K: tl.constexpr,
                  MASK_MN_LOADS: tl.constexpr, ACC_INIT: tl.constexpr,
                  ACC_PLUS: tl.constexpr, EPILOGUE: tl.constexpr,
                  PRECISION: tl.constexpr, ACC_DTYPE: tl.constexpr):
        # Shapes from the scalars (1024 under the harness): the sizes the
        # kernel means are M - M_SUB etc., unknown to Triton at compile time.
        M = M - M_SUB
        N = N - N_SUB
        K = K // K_DIV - K_SUB
        pid_m = tl.program_id(0)
        pid_n = tl.program_id(1)
        if REVERSE:
            # The 8 x 8 grid covers the last tiles (the partial ones).
            pid_m = tl.cdiv(M, BM) - 1 - pid_m
            pid_n = tl.cdiv(N, BN) - 1 - pid_n
        offs_m = pid_m * BM + tl.arange(0, BM)
        offs_n = pid_n * BN + tl.arange(0, BN)
        offs_k = tl.arange(0, BK)
        if MASK_MN_LOADS:
            am = offs_m
            bn = offs_n
        else:
            am = offs_m % M
            bn = offs_n % N
        a_ptrs = a + am[:, None] * stride_am + offs_k[None, :]
        if B_KMAJOR:
            b_ptrs = b + offs_k[:, None] + bn[None, :] * stride_bn
        else:
            b_ptrs = b + offs_k[:, None] * stride_bk + bn[None, :]
        c_mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
        if ACC_INIT:
            # Accumulator starts from a loaded tile (f32, same place as C).
            acc = tl.load(bias + offs_m[:, None] * stride_cm + offs_n[None, :],
                          mask=c_mask, other=0.0).to(ACC_DTYPE)
        else:
            acc = tl.zeros((BM, BN), dtype=ACC_DTYPE)
        for kb in range(0, tl.cdiv(K, BK)):
            k_left = K - kb * BK
            if MASK_MN_LOADS:
                a_mask = (am[:, None] < M) & (offs_k[None, :] < k_left)
                b_mask = (offs_k[:, None] < k_left) & (bn[None, :] < N)
                x = tl.load(a_ptrs, mask=a_mask, other=0.0)
                y = tl.load(b_ptrs, mask=b_mask, other=0.0)
            elif MASK_K:
                x = tl.load(a_ptrs, mask=offs_k[None, :] < k_left, other=0.0)
                y = tl.load(b_ptrs, mask=offs_k[:, None] < k_left, other=0.0)
            else:
                x = tl.load(a_ptrs)
                y = tl.load(b_ptrs)
            if ACC_PLUS:
                acc += tl.dot(x, y, input_precision=PRECISION, out_dtype=ACC_DTYPE)
            else:
                acc = tl.dot(x, y, acc, input_precision=PRECISION, out_dtype=ACC_DTYPE)
            a_ptrs += BK
            if B_KMAJOR:
                b_ptrs += BK
            else:
                b_ptrs += BK * stride_bk
        if EPILOGUE:
            # Fused epilogue: bias along N, relu, cast.
            acc = acc + tl.load(bias + offs_n, mask=offs_n < N, other=0.0)[None, :]
            acc = tl.maximum(acc, 0.0)
        tl.store(c + offs_m[:, None] * stride_cm + offs_n[None, :],
                 acc.to(c.dtype.element_ty), mask=c_mask)

    @triton.jit
    def bmm_kernel(a, b, c, M, N, K,
                   BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
        # 8 batches of (M/4 x K) @ (K x N/8) on a 3-D grid: x = M tile,
        # y = batch, z = N tile (1 under the harness's grid; BN covers N/8).
        pid_m = tl.program_id(0)
        bid = tl.program_id(1)
        pid_n = tl.program_id(2)
        Mb = tl.multiple_of(M // 4, 16)
        Nb = tl.multiple_of(N // 8, 16)
        offs_m = pid_m * BM + tl.arange(0, BM)
        offs_n = pid_n * BN + tl.arange(0, BN)
        offs_k = tl.arange(0, BK)
        a_ptrs = (a + bid.to(tl.int64) * Mb * K + (offs_m % Mb)[:, None] * K
                  + offs_k[None, :])
        b_ptrs = (b + bid.to(tl.int64) * K * Nb + offs_k[:, None] * Nb
                  + (offs_n % Nb)[None, :])
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for kb in range(0, tl.cdiv(K, BK)):
            acc = tl.dot(tl.load(a_ptrs, mask=offs_k[None, :] < K - kb * BK, other=0.0),
                         tl.load(b_ptrs, mask=offs_k[:, None] < K - kb * BK, other=0.0), acc)
            a_ptrs += BK
            b_ptrs += BK * Nb
        c_ptrs = c + bid.to(tl.int64) * Mb * Nb + offs_m[:, None] * Nb + offs_n[None, :]
        tl.store(c_ptrs, acc.to(c.dtype.element_ty),
                 mask=(offs_m[:, None] < Mb) & (offs_n[None, :] < Nb))

    @triton.jit
    def two_loops_kernel(a, b, c, M, N, K,
                         BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                         CHAIN: tl.constexpr):
        # Two K loops in sequence over the halves of K. CHAIN: the second
        # starts from the first's accumulator and pointers and steps by BK
        # (an scf.for with step != 1); otherwise two accumulators from
        # fresh pointers, subtracted.
        pid_m = tl.program_id(0)
        pid_n = tl.program_id(1)
        offs_m = (pid_m * BM + tl.arange(0, BM)) % M
        offs_n = (pid_n * BN + tl.arange(0, BN)) % N
        offs_k = tl.arange(0, BK)
        half = K // 2
        a_ptrs = a + offs_m[:, None] * K + offs_k[None, :]
        b_ptrs = b + offs_k[:, None] * N + offs_n[None, :]
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for kb in range(0, tl.cdiv(half, BK)):
            acc = tl.dot(tl.load(a_ptrs), tl.load(b_ptrs), acc)
            a_ptrs += BK
            b_ptrs += BK * N
        if CHAIN:
            for k in range(half, K, BK):
                acc = tl.dot(tl.load(a_ptrs, mask=offs_k[None, :] < K - k, other=0.0),
                             tl.load(b_ptrs, mask=offs_k[:, None] < K - k, other=0.0), acc)
                a_ptrs += BK
                b_ptrs += BK * N
        else:
            # Fresh pointers (K // 2 along), both loops pipelined.
            a2 = a + offs_m[:, None] * K + offs_k[None, :] + half
            b2 = b + (offs_k[:, None] + half) * N + offs_n[None, :]
            acc2 = tl.zeros((BM, BN), dtype=tl.float32)
            for kb in range(0, tl.cdiv(K - half, BK)):
                acc2 = tl.dot(tl.load(a2), tl.load(b2), acc2)
                a2 += BK
                b2 += BK * N
            acc = acc - acc2
        tl.store(c + offs_m[:, None] * N + offs_n[None, :], acc.to(c.dtype.element_ty))

    @triton.jit
    def persistent_kernel(a, b, c, M, N, K,
                          BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
        # Persistent: the 64 programs walk the tiles in an outer loop; the
        # K loop (pipelined) is nested in it.
        start = tl.program_id(1) * 8 + tl.program_id(0)
        tiles_n = tl.cdiv(N, BN)
        for t in range(start, tl.cdiv(M, BM) * tiles_n, 64):
            offs_m = ((t // tiles_n) * BM + tl.arange(0, BM)) % M
            offs_n = ((t % tiles_n) * BN + tl.arange(0, BN)) % N
            offs_k = tl.arange(0, BK)
            a_ptrs = a + offs_m[:, None] * K + offs_k[None, :]
            b_ptrs = b + offs_k[:, None] * N + offs_n[None, :]
            acc = tl.zeros((BM, BN), dtype=tl.float32)
            for kb in range(0, tl.cdiv(K, BK)):
                acc = tl.dot(tl.load(a_ptrs), tl.load(b_ptrs), acc)
                a_ptrs += BK
                b_ptrs += BK * N
            tl.store(c + offs_m[:, None] * N + offs_n[None, :], acc.to(c.dtype.element_ty))

    @triton.jit
    def split_k_kernel(a, b, c, M, N, K,
                       BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                       CHUNK: tl.constexpr):
        # The accumulator is carried by an outer loop over chunks of K
        # (pointers from its induction variable) and scaled between them;
        # the inner K loop has a constant trip count.
        pid_m = tl.program_id(0)
        pid_n = tl.program_id(1)
        offs_m = (pid_m * BM + tl.arange(0, BM)) % M
        offs_n = (pid_n * BN + tl.arange(0, BN)) % N
        offs_k = tl.arange(0, BK)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for chunk in range(0, K, CHUNK):
            a_ptrs = a + offs_m[:, None] * K + offs_k[None, :] + chunk
            b_ptrs = b + (offs_k[:, None] + chunk) * N + offs_n[None, :]
            for kb in range(0, CHUNK // BK):
                acc = tl.dot(tl.load(a_ptrs), tl.load(b_ptrs), acc)
                a_ptrs += BK
                b_ptrs += BK * N
            acc = acc * 0.5
        tl.store(c + offs_m[:, None] * N + offs_n[None, :], acc)

    @triton.jit
    def in_if_kernel(a, b, c, M, N, K,
                     BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
        # The K loop under an scf.if (every other row of tiles), a
        # reduction through shared memory before it and after it.
        pid_m = tl.program_id(0)
        pid_n = tl.program_id(1)
        offs_m = (pid_m * BM + tl.arange(0, BM)) % M
        offs_n = (pid_n * BN + tl.arange(0, BN)) % N
        offs_k = tl.arange(0, BK)
        c_ptrs = c + offs_m[:, None] * N + offs_n[None, :]
        row = tl.sum(tl.load(c_ptrs), 1)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        if pid_m % 2 == 0:
            for kb in range(0, tl.cdiv(K, BK)):
                a_ptrs = a + offs_m[:, None] * K + offs_k[None, :] + kb * BK
                b_ptrs = b + (offs_k[:, None] + kb * BK) * N + offs_n[None, :]
                acc = tl.dot(tl.load(a_ptrs), tl.load(b_ptrs), acc)
        tl.store(c_ptrs, acc + (row + tl.max(acc, 1))[:, None])

    @triton.jit
    def trans_b_kernel(a, b, c, M, N, K,
                       BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
        # B stored N x K, loaded as BN x BK tiles and transposed with
        # tl.trans in the loop (x @ w.T).
        pid_m = tl.program_id(0)
        pid_n = tl.program_id(1)
        offs_m = (pid_m * BM + tl.arange(0, BM)) % M
        offs_n = (pid_n * BN + tl.arange(0, BN)) % N
        offs_k = tl.arange(0, BK)
        a_ptrs = a + offs_m[:, None] * K + offs_k[None, :]
        b_ptrs = b + offs_n[:, None] * K + offs_k[None, :]
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for kb in range(0, tl.cdiv(K, BK)):
            acc = tl.dot(tl.load(a_ptrs), tl.trans(tl.load(b_ptrs)), acc)
            a_ptrs += BK
            b_ptrs += BK
        tl.store(c + offs_m[:, None] * N + offs_n[None, :], acc)

    @triton.jit
    def block_ptr_kernel(a, b, c, M, N, K,
                         BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
        # Block pointers (tt.make_tensor_ptr / tt.advance), K 1000 through
        # the boundary check.
        pid_m = tl.program_id(0)
        pid_n = tl.program_id(1)
        K = K - 24
        pa = tl.make_block_ptr(a, (M, K), (1024, 1), (pid_m * BM, 0), (BM, BK), (1, 0))
        pb = tl.make_block_ptr(b, (K, N), (N, 1), (0, pid_n * BN), (BK, BN), (1, 0))
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for kb in range(0, tl.cdiv(K, BK)):
            acc = tl.dot(tl.load(pa, boundary_check=(0, 1), padding_option="zero"),
                         tl.load(pb, boundary_check=(0, 1), padding_option="zero"), acc)
            pa = tl.advance(pa, (0, BK))
            pb = tl.advance(pb, (BK, 0))
        pc = tl.make_block_ptr(c, (M, N), (N, 1), (pid_m * BM, pid_n * BN), (BM, BN), (1, 0))
        tl.store(pc, acc.to(c.dtype.element_ty), boundary_check=(0, 1))

    @triton.jit
    def attention_kernel(q, k, v, o, M, N, K,
                         BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
        # Flash-attention forward: two dots per iteration, online softmax.
        # 64 programs of BM query rows; N = 1024 keys of D.
        pid = tl.program_id(1) * 8 + tl.program_id(0)
        offs_m = pid * BM + tl.arange(0, BM)
        offs_d = tl.arange(0, D)
        offs_n = tl.arange(0, BN)
        qt = tl.load(q + offs_m[:, None] * D + offs_d[None, :])
        m_i = tl.full((BM,), float("-inf"), tl.float32)
        l_i = tl.zeros((BM,), tl.float32)
        acc = tl.zeros((BM, D), tl.float32)
        for start in range(0, N, BN):
            kt = tl.load(k + offs_d[:, None] + (start + offs_n)[None, :] * D)
            s = tl.dot(qt, kt) * 0.125
            m_new = tl.maximum(m_i, tl.max(s, 1))
            p = tl.exp(s - m_new[:, None])
            alpha = tl.exp(m_i - m_new)
            l_i = l_i * alpha + tl.sum(p, 1)
            vt = tl.load(v + (start + offs_n)[:, None] * D + offs_d[None, :])
            acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), vt)
            m_i = m_new
        tl.store(o + offs_m[:, None] * D + offs_d[None, :], acc / l_i[:, None])

    return {"mm": mm_kernel, "bmm": bmm_kernel, "two_loops": two_loops_kernel,
            "persistent": persistent_kernel, "split_k": split_k_kernel,
            "in_if": in_if_kernel, "trans_b": trans_b_kernel,
            "block_ptr": block_ptr_kernel, "attention": attention_kernel}


MM_ARGS = ["a", "b", "c", "bias", "M", "N", "K", "stride_am", "stride_bk", "stride_bn",
           "stride_cm"]
TRITON_TY = {"f16": "*fp16", "bf16": "*bf16", "f32": "*fp32", "f8e4m3": "*fp8e4nv",
             "f8e5m2": "*fp8e5"}


def mm(name, dtype, out, tile, warps, stages, **kw):
    """One mm_kernel configuration. kw: m_sub, n_sub, k_sub, k_div, reverse,
    kmajor, mask_k, mask_mn, acc_init, acc_plus, epilogue, precision, acc."""
    bm, bn, bk = tile
    m_sub, n_sub = kw.get("m_sub", 0), kw.get("n_sub", 0)
    # The grid's 8 tiles per dimension reach the partial tile only from the
    # end when 8 tiles do not cover the edge.
    reverse = kw.get("reverse", (m_sub or n_sub) and (8 * bm < 1024 - m_sub or
                                                     8 * bn < 1024 - n_sub))
    k_sub = kw.get("k_sub", 0)
    return {
        "name": name, "fn": "mm", "warps": warps, "stages": stages,
        "signature": dict(zip(MM_ARGS, [TRITON_TY[dtype], TRITON_TY[dtype], TRITON_TY[out],
                                        "*fp32"] + ["i32"] * 7)),
        "constexprs": {
            "M_SUB": m_sub, "N_SUB": n_sub, "K_SUB": k_sub, "K_DIV": kw.get("k_div", 1),
            "BM": bm, "BN": bn, "BK": bk, "REVERSE": bool(reverse),
            "B_KMAJOR": kw.get("kmajor", False),
            "MASK_K": kw.get("mask_k", k_sub != 0),
            "MASK_MN_LOADS": kw.get("mask_mn", False),
            "ACC_INIT": kw.get("acc_init", False), "ACC_PLUS": kw.get("acc_plus", False),
            "EPILOGUE": kw.get("epilogue", False),
            "PRECISION": kw.get("precision", "tf32"),
            "ACC_DTYPE": kw.get("acc", "float32"),
        },
        "what": kw.get("what", ""),
    }


def configs():
    T = lambda s: tuple(int(x) for x in s.split("x"))
    c = [
        mm("dot_f16_64x64x32_w4_s2", "f16", "f32", T("64x64x32"), 4, 2,
           what="K 32: mma.sync path"),
        mm("dot_f16_64x128x64_w4_s3", "f16", "f32", T("64x128x64"), 4, 3),
        mm("dot_f16_128x128x64_w4_s3_f16out", "f16", "f16", T("128x128x64"), 4, 3),
        mm("dot_f16_128x128x64_w8_s4", "f16", "f32", T("128x128x64"), 8, 4),
        mm("dot_bf16_128x128x64_w8_s3_bf16out", "bf16", "bf16", T("128x128x64"), 8, 3),
        mm("dot_f16_128x128x64_w8_s2", "f16", "f16", T("128x128x64"), 8, 2),
        mm("dot_f16_128x128x64_w4_s5", "f16", "f32", T("128x128x64"), 4, 5),
        mm("dot_f16_128x256x64_w8_s3_f16out", "f16", "f16", T("128x256x64"), 8, 3),
        mm("dot_bf16_256x128x64_w8_s3", "bf16", "f32", T("256x128x64"), 8, 3),
        mm("dot_f16_64x256x64_w4_s4", "f16", "f32", T("64x256x64"), 4, 4),
        mm("dot_f16_ktail_128x128x64_w8_s3", "f16", "f32", T("128x128x64"), 8, 3,
           k_sub=24, what="K = 1000: masked last K block"),
        mm("dot_bf16_ktail_64x64x32_w4_s4", "bf16", "bf16", T("64x64x32"), 4, 4,
           k_sub=8, what="K = 1016, mma.sync path"),
        mm("dot_f16_edge_128x128x64_w8_s3", "f16", "f32", T("128x128x64"), 8, 3,
           m_sub=24, n_sub=40, k_sub=24, what="M 1000, N 984: wrapped loads, masked store"),
        mm("dot_bf16_edge_64x128x64_w4_s4", "bf16", "bf16", T("64x128x64"), 4, 4,
           m_sub=40, n_sub=24, what="M 984, N 1000 from the last tiles"),
        mm("dot_f16_mnmask_128x128x64_w4_s3", "f16", "f32", T("128x128x64"), 4, 3,
           m_sub=24, n_sub=40, k_sub=24, mask_mn=True,
           what="M/N-masked loads (masked cp.async)"),
        mm("dot_f16_mnmask_128x256x64_w8_s3", "f16", "f16", T("128x256x64"), 8, 3,
           m_sub=24, n_sub=24, mask_mn=True, what="M/N-masked loads, big tile"),
        mm("dot_f16_bt_128x128x64_w8_s3", "f16", "f32", T("128x128x64"), 8, 3,
           kmajor=True, what="B K-contiguous"),
        mm("dot_bf16_bt_ktail_64x128x64_w4_s4", "bf16", "f32", T("64x128x64"), 4, 4,
           kmajor=True, k_sub=24, what="B K-contiguous, K 1000"),
        mm("dot_f16_bt_64x64x32_w4_s3", "f16", "f16", T("64x64x32"), 4, 3,
           kmajor=True, what="B K-contiguous, mma.sync path"),
        mm("dot_f16_accinit_128x128x64_w8_s3", "f16", "f32", T("128x128x64"), 8, 3,
           acc_init=True, what="accumulator from a loaded tile"),
        mm("dot_bf16_epilogue_128x256x64_w8_s3", "bf16", "bf16", T("128x256x64"), 8, 3,
           epilogue=True, n_sub=24, what="bias + relu + cast, N 1000"),
        mm("dot_f16_accplus_128x128x64_w4_s3", "f16", "f32", T("128x128x64"), 4, 3,
           acc_plus=True, what="acc += tl.dot(a, b)"),
        mm("dot_f16_k0_128x128x64_w8_s3", "f16", "f32", T("128x128x64"), 8, 3,
           k_sub=1024, mask_k=True, acc_init=True, what="K = 0: no iteration"),
        mm("dot_f16_k0_64x64x32_w4_s3", "f16", "f16", T("64x64x32"), 4, 3,
           k_sub=1024, mask_k=True, acc_init=True, what="K = 0, mma.sync path"),
        mm("dot_f16_k64_64x128x64_w4_s4", "f16", "f32", T("64x128x64"), 4, 4,
           k_div=16, what="K = 64: one iteration, fewer than stages - 1"),
        mm("dot_f16_acc16_64x128x64_w4_s3", "f16", "f16", T("64x128x64"), 4, 3,
           acc="float16", what="f16 accumulator (out_dtype)"),
        mm("dot_f32_ieee_64x64x32_w4_s2", "f32", "f32", T("64x64x32"), 4, 2,
           precision="ieee", what="f32 ieee: CUDA cores"),
        mm("dot_f32_ieee_bt_32x64x32_w2_s3", "f32", "f32", T("32x64x32"), 2, 3,
           precision="ieee", kmajor=True, k_sub=8, what="f32 ieee, B K-contiguous, K 1016"),
        mm("dot_f32_tf32_64x64x32_w4_s3", "f32", "f32", T("64x64x32"), 4, 3,
           what="f32 tf32 (rounded, CUDA cores)"),
        mm("dot_f8e4m3_bt_accplus_32x64x64_w2_s4", "f8e4m3", "bf16", T("32x64x64"), 2, 4,
           kmajor=True, acc_plus=True,
           what="f8 e4m3, B K-contiguous, acc += tl.dot: pipelined f8 slots"),
        mm("dot_f8e5m2_bt_ktail_64x64x64_w2_s3", "f8e5m2", "f32", T("64x64x64"), 2, 3,
           kmajor=True, acc_plus=True, k_sub=24,
           what="f8 e5m2, B K-contiguous, K 1000 (masked last K block)"),
        mm("dot_f8e4m3_bt_64x128x64_w4_s3", "f8e4m3", "f16", T("64x128x64"), 4, 3,
           kmajor=True, what="f8 e4m3, B K-contiguous, acc carried by the dot"),
        mm("dot_f8e4m3_32x64x64_w2_s3", "f8e4m3", "f32", T("32x64x64"), 2, 3,
           acc_plus=True, what="f8 e4m3, B N-contiguous (not pipelined)"),
        mm("dot_f8e4m3_bt_128x128x128_w4_s3", "f8e4m3", "f16", T("128x128x128"), 4, 3,
           kmajor=True, what="f8 e4m3, B K-contiguous: wgmma e4m3 on sm_90a"),
        mm("dot_f8e5m2_bt_ktail_128x256x128_w8_s3", "f8e5m2", "bf16", T("128x256x128"), 8, 3,
           kmajor=True, k_sub=24, what="f8 e5m2 wgmma, 8 warps, K 1000"),
    ]
    c.append({"name": "dot_bmm_f16_64x128x64_w4_s3", "fn": "bmm", "warps": 4, "stages": 3,
              "signature": {"a": "*fp16", "b": "*fp16", "c": "*fp16", "M": "i32", "N": "i32",
                            "K": "i32"},
              "constexprs": {"BM": 64, "BN": 128, "BK": 64},
              "what": "batched, 3-D grid"})
    for chain, tile, w, s in ((True, (128, 128, 64), 8, 3), (False, (64, 128, 64), 4, 4)):
        c.append({"name": f"dot_two_loops_{'chain' if chain else 'sum'}_"
                          f"{'x'.join(map(str, tile))}_w{w}_s{s}",
                  "fn": "two_loops", "warps": w, "stages": s,
                  "signature": {"a": "*fp16", "b": "*fp16", "c": "*fp32", "M": "i32",
                                "N": "i32", "K": "i32"},
                  "constexprs": {"BM": tile[0], "BN": tile[1], "BK": tile[2], "CHAIN": chain},
                  "what": "two K loops, the second from the first's acc, step BK" if chain
                          else "two K loops, two accumulators"})
    abc = lambda out: {"a": "*fp16", "b": "*fp16", "c": TRITON_TY[out], "M": "i32",
                       "N": "i32", "K": "i32"}
    tile = lambda bm, bn, bk: {"BM": bm, "BN": bn, "BK": bk}
    c += [
        {"name": "dot_persistent_128x64x64_w4_s3", "fn": "persistent", "warps": 4,
         "stages": 3, "signature": abc("f16"), "constexprs": tile(128, 64, 64),
         "what": "persistent: K loop nested in a loop over tiles (2 each)"},
        {"name": "dot_split_k_128x128x64_w8_s3", "fn": "split_k", "warps": 8, "stages": 3,
         "signature": abc("f32"), "constexprs": dict(tile(128, 128, 64), CHUNK=256),
         "what": "acc carried by an outer loop, inner trip count 4"},
        {"name": "dot_in_if_128x128x64_w8_s4", "fn": "in_if", "warps": 8, "stages": 4,
         "signature": abc("f32"), "constexprs": tile(128, 128, 64),
         "what": "K loop under scf.if, reductions before and after"},
        {"name": "dot_trans_b_128x128x64_w8_s3", "fn": "trans_b", "warps": 8, "stages": 3,
         "signature": abc("f32"), "constexprs": tile(128, 128, 64),
         "what": "tl.trans(b) in the loop"},
        {"name": "dot_block_ptr_128x128x64_w8_s3", "fn": "block_ptr", "warps": 8,
         "stages": 3, "signature": abc("f16"), "constexprs": tile(128, 128, 64),
         "what": "block pointers, K 1000 by boundary check"},
        {"name": "dot_attention_128x64x64_w8_s3", "fn": "attention", "warps": 8,
         "stages": 3,
         "signature": {"q": "*fp16", "k": "*fp16", "v": "*fp16", "o": "*fp32",
                       "M": "i32", "N": "i32", "K": "i32"},
         "constexprs": {"BM": 128, "BN": 64, "D": 64},
         "what": "flash attention: two dots per iteration"},
    ]
    return c


def scrub_locations(text, fn_name, new_name):
    """Relative file names in locations (no machine paths) and the kernel
    named after its file."""
    text = re.sub(r'loc\("[^"]*?([^"/]+\.py)"', r'loc("\1"', text)
    return re.sub(r"@%s\b" % re.escape(fn_name), "@" + new_name, text)


def generate(out_dir):
    os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp(prefix="triton-cache-"))
    import triton
    import triton.language as tl
    from triton.backends.compiler import GPUTarget
    kernels = define_kernels()
    os.makedirs(out_dir, exist_ok=True)
    for f in os.listdir(out_dir):
        if f.endswith((".ttir", ".json")):
            os.remove(os.path.join(out_dir, f))
    for cfg in configs():
        fn = kernels[cfg["fn"]]
        constexprs = {k: getattr(tl, v) if k == "ACC_DTYPE" else v
                      for k, v in cfg["constexprs"].items()}
        sig = dict(cfg["signature"])
        for k in cfg["constexprs"]:
            sig[k] = "constexpr"
        # Pointers and the scalars (1024 under the harness) divisible by 16,
        # as Triton's launcher specializes them.
        attrs = {(fn.arg_names.index(k),): [["tt.divisibility", 16]]
                 for k, v in cfg["signature"].items()}
        src = triton.compiler.ASTSource(fn=fn, signature=sig, constexprs=constexprs,
                                        attrs=attrs)
        k = triton.compile(src, target=GPUTarget("cuda", 90, 32),
                           options=dict(num_warps=cfg["warps"], num_stages=cfg["stages"]))
        ttir = scrub_locations(k.asm["ttir"], fn.__name__, cfg["name"])
        with open(os.path.join(out_dir, cfg["name"] + ".ttir"), "w") as f:
            f.write(ttir)
        with open(os.path.join(out_dir, cfg["name"] + ".json"), "w") as f:
            json.dump({"num_warps": cfg["warps"], "num_stages": cfg["stages"],
                       "num_ctas": 1}, f)
            f.write("\n")
        print(f"{cfg['name']}: {cfg['what'] or 'ok'}")
    print(f"gen_dot_kernels: {len(configs())} kernels in {os.path.relpath(out_dir)}")


# --------------------------------------------------------------------------
# Compile report.

def kernel_files(ttir_dir):
    return sorted(f[:-5] for f in os.listdir(ttir_dir) if f.endswith(".ttir"))


def options_of(ttir_dir, name):
    j = json.load(open(os.path.join(ttir_dir, name + ".json")))
    return j["num_warps"], j["num_stages"]


def compile_one(kiln, ttir, target, warps, stages, out, extra=()):
    cmd = [kiln, "compile", ttir, "--target", target, "--num-warps", str(warps),
           "--num-stages", str(stages), "--no-cache", "-o", out, *extra]
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def first_error(log):
    for line in log.splitlines():
        if "error" in line.lower() or "assert" in line.lower() or "signal" in line.lower():
            return line.strip()
    lines = [l for l in log.strip().splitlines() if l.strip()]
    return lines[-1].strip() if lines else "no output"


def inspect_artifact(out, name, ptxas, arch):
    """registers, spill bytes, wgmma count, mma.sync count, C7514 flag."""
    row = {}
    meta = json.load(open(os.path.join(out, "metadata.json")))
    kernel = meta.get("kernel", name)
    row["regs"] = meta.get("registers", "?")
    spills = meta.get("spills", {})
    row["spills"] = spills.get("stores", 0) + spills.get("loads", 0)
    ptx_path = os.path.join(out, kernel + ".ptx")
    ptx = open(ptx_path).read()
    row["wgmma"] = len(re.findall(r"wgmma\.mma_async", ptx))
    row["mma_sync"] = len(re.findall(r"\bmma\.sync", ptx))
    row["ptxas"] = "ok"
    if ptxas:
        with tempfile.TemporaryDirectory() as tmp:
            p = subprocess.run([ptxas, f"-arch={arch}", "-v", ptx_path, "-o",
                                os.path.join(tmp, "k.cubin")], capture_output=True, text=True)
        log = p.stdout + p.stderr
        row["c7514"] = "C7514" in log
        m = re.search(r"Used (\d+) registers", log)
        if m:
            row["ptxas_regs"] = int(m.group(1))
        m = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", log)
        if m:
            row["ptxas_spills"] = int(m.group(1)) + int(m.group(2))
        if p.returncode != 0:
            row["ptxas"] = "rejected: " + first_error(log)
    row["meta"] = meta
    return row


def report(kiln, ttir_dir, ptxas):
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in kernel_files(ttir_dir):
            warps, stages = options_of(ttir_dir, name)
            for target in ("sm_90a", "sm_90"):
                out = os.path.join(tmp, name + "-" + target)
                rc, log = compile_one(kiln, os.path.join(ttir_dir, name + ".ttir"), target,
                                      warps, stages, out)
                row = {"kernel": name, "target": target, "warps": warps, "stages": stages}
                if rc == 0 and os.path.exists(os.path.join(out, "metadata.json")):
                    row["compiled"] = True
                    row.update(inspect_artifact(out, name, ptxas, target))
                else:
                    row["compiled"] = False
                    row["error"] = f"exit {rc}: {first_error(log)}"
                rows.append(row)
                print(fmt_row(row), flush=True)
    return rows


def fmt_row(r):
    if not r["compiled"]:
        return (f"| {r['kernel']} | {r['target']} | {r['warps']}/{r['stages']} | no | | | | | "
                f"{r['error'].replace('|', '/')} |")
    regs = r.get("ptxas_regs", r.get("regs", "?"))
    spills = r.get("ptxas_spills", r.get("spills", "?"))
    notes = []
    if r.get("c7514"):
        notes.append("C7514 (wgmma serialized)")
    if r["ptxas"] != "ok":
        notes.append(r["ptxas"])
    if isinstance(spills, int) and spills:
        notes.append("spills")
    return (f"| {r['kernel']} | {r['target']} | {r['warps']}/{r['stages']} | yes | {regs} | "
            f"{spills} | {r['wgmma']} | {r['mma_sync']} | {'; '.join(notes)} |")


def write_report(rows, readme):
    n = len(rows)
    ok = [r for r in rows if r["compiled"]]
    lines = [
        REPORT_BEGIN,
        "",
        f"{len(ok)} of {n} compiles succeeded ({n // 2} kernels, sm_90a and sm_90); "
        f"{sum(1 for r in ok if r['wgmma'])} of the "
        f"{sum(1 for r in rows if r['target'] == 'sm_90a')} sm_90a ones use wgmma.mma_async; "
        f"{sum(1 for r in ok if r.get('c7514'))} with ptxas C7514; "
        f"{sum(1 for r in ok if r['ptxas'] != 'ok')} rejected by ptxas; "
        f"{sum(1 for r in ok if r.get('ptxas_spills', 0))} with spills.",
        "",
        "| kernel | target | warps/stages | compiled | registers | spill bytes "
        "| wgmma.mma_async | mma.sync | findings |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    lines += [fmt_row(r) for r in rows]
    lines += ["", REPORT_END]
    text = open(readme).read() if os.path.exists(readme) else REPORT_BEGIN + "\n" + REPORT_END + "\n"
    if REPORT_BEGIN not in text:
        text += "\n" + REPORT_BEGIN + "\n" + REPORT_END + "\n"
    head, rest = text.split(REPORT_BEGIN, 1)
    _, tail = rest.split(REPORT_END, 1)
    with open(readme, "w") as f:
        f.write(head + "\n".join(lines) + tail)


def gpu_dir(kiln, ttir_dir, dest):
    """DIR/ttir and DIR/out/NAME as bench/prepare_gpu_round.sh lays them out."""
    ttir_out = os.path.join(dest, "ttir")
    out_root = os.path.join(dest, "out")
    for d in (ttir_out, out_root):
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
    compiled = 0
    names = kernel_files(ttir_dir)
    for name in names:
        for ext in (".ttir", ".json"):
            shutil.copy(os.path.join(ttir_dir, name + ext), ttir_out)
        warps, stages = options_of(ttir_dir, name)
        out = os.path.join(out_root, name)
        os.makedirs(out)
        rc, log = compile_one(kiln, os.path.join(ttir_out, name + ".ttir"),
                              os.environ.get("KILN_GPU_TARGET", "sm_90a"), warps, stages,
                              out, ["--ftz"])
        open(os.path.join(out, "compile.log"), "w").write(log)
        # The runtime reads metadata.json and the cubin; the PTX stays for
        # reading. The LLVM and MLIR stages would not fit the carry.
        for f in os.listdir(out):
            if f.endswith((".ll", ".mlir")) or f == "timings.json":
                os.remove(os.path.join(out, f))
        with open(os.path.join(out, "status.txt"), "w") as f:
            if rc == 0:
                f.write("compiled\n")
                compiled += 1
            else:
                f.write(f"parsed; not compiled: {first_error(log)[:200]}\n")
    print(f"gen_dot_kernels: {compiled} of {len(names)} kernels compiled into "
          f"{os.path.relpath(out_root)}")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default=DEFAULT_OUT, help="kernel folder (.ttir + .json)")
    p.add_argument("--report", action="store_true",
                   help="compile for sm_90a and sm_90, write the table into OUT/README.md")
    p.add_argument("--gpu-dir", help="fill DIR/ttir and DIR/out for conformance.py")
    p.add_argument("--kiln", default="bazel-bin/tools/kiln/kiln")
    p.add_argument("--ptxas", default=shutil.which("ptxas") or "")
    a = p.parse_args()
    if not a.report and not a.gpu_dir:
        generate(a.out)
        return
    if a.report:
        rows = report(a.kiln, a.out, a.ptxas)
        write_report(rows, os.path.join(a.out, "README.md"))
    if a.gpu_dir:
        gpu_dir(a.kiln, a.out, a.gpu_dir)


if __name__ == "__main__":
    main()
