#!/usr/bin/env python3
"""Register-heavy tensor-core K loops (h_*), helper-62's set of the
twenty-sixth session: A upcast and scaled by a per-K vector, an N bias,
masked edges, f16 / bf16 / f32, and with AINV a loop-invariant A. Their
tiles exceed the register prefetch's budget of kgpu-pipeline-dot-loops;
docs/BENCHMARKS.md (twenty-seventh session) times them with and without
the pass's stage-tiles option. Writes kernels_heavy/ (needs triton)."""
import sys
import os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ttir_kernels
T_TY = {"f16": "*fp16", "bf16": "*bf16", "f32": "*fp32"}
def define():
    import triton, triton.language as tl
    @triton.jit
    def heavy(a, b, s, bias, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
              M_ADD: tl.constexpr, N_ADD: tl.constexpr, K_ADD: tl.constexpr, AINV: tl.constexpr):
        M = M + M_ADD
        N = N + N_ADD
        sa = K * 2
        K = K + K_ADD
        pid_m = tl.program_id(0)
        pid_n = tl.program_id(1)
        offs_m = pid_m * BM + tl.arange(0, BM)
        offs_n = pid_n * BN + tl.arange(0, BN)
        offs_k = tl.arange(0, BK)
        m_ok = offs_m < M
        n_ok = offs_n < N
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        x0 = tl.load(a + offs_m[:, None] * sa + offs_k[None, :] + 4096).to(tl.float32)
        for k0 in range(0, K, BK):
            k_ok = (k0 + offs_k) < K
            x = tl.load(a + offs_m[:, None] * sa + (k0 + offs_k)[None, :], mask=m_ok[:, None] & k_ok[None, :], other=0.0)
            y = tl.load(b + (k0 + offs_k)[:, None] * N + offs_n[None, :], mask=k_ok[:, None] & n_ok[None, :], other=0.0)
            sk = tl.load(s + k0 + offs_k, mask=k_ok, other=0.0)
            bn = tl.load(bias + offs_n, mask=n_ok, other=0.0)
            xf = x.to(tl.float32)
            if AINV:
                xf = xf + x0
            xf = xf * tl.sigmoid(xf) * sk[None, :]
            yf = tl.sigmoid(y.to(tl.float32)) + bn[None, :]
            acc = tl.dot(xf.to(x.dtype), yf.to(y.dtype), acc)
        tl.store(c + offs_m[:, None] * N + offs_n[None, :], acc.to(c.dtype.element_ty), mask=m_ok[:, None] & n_ok[None, :])
    return {"heavy": heavy}
def H(name, dt, tile, w, s, ainv=False, k=440, edge=24):
    bm, bn, bk = tile
    sig = dict(zip(["a","b","s","bias","c","M","N","K"], [T_TY[dt], T_TY[dt], "*fp32", "*fp32", "*fp32", "i32", "i32", "i32"]))
    ce = dict(BM=bm, BN=bn, BK=bk, M_ADD=8*bm-1024-edge, N_ADD=8*bn-1024-edge, K_ADD=k-1024, AINV=ainv)
    return dict(name=name, fn="heavy", warps=w, stages=s, sig=sig, ce=ce)
def configs():
    return [H("h_f16_128x64x64_w4_s3", "f16", (128,64,64), 4, 3),
            H("h_ainv_f16_128x64x64_w4_s3", "f16", (128,64,64), 4, 3, True),
            H("h_f32_128x64x32_w4_s3", "f32", (128,64,32), 4, 3),
            H("h_ainv_f32_128x64x32_w4_s3", "f32", (128,64,32), 4, 3, True),
            H("h_bf16_64x128x64_w4_s3", "bf16", (64,128,64), 4, 3),
            H("h_ainv_bf16_64x128x64_w4_s3", "bf16", (64,128,64), 4, 3, True),
            H("h_ainv_f16_128x128x64_w8_s3", "f16", (128,128,64), 8, 3, True),
            H("h_ainv_f32_128x128x32_w8_s4", "f32", (128,128,32), 8, 4, True),
    ]
ttir_kernels.main(os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels_heavy"), define, configs)
