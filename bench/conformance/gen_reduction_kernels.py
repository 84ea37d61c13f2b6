#!/usr/bin/env python3
"""helper-52's reduction kernels (eighteenth session, docs/BENCHMARKS.md,
"Rows reduced within a warp"): 414 Triton 3.6 kernels that reduce 2D and
3D tiles along either axis (row sums, max, argmax / argmin, softmax,
layer norm, cross entropy, Welford, scans beside reductions, looped
Inductor-style reductions, reductions feeding a dot), over 1 to 32 warps.

    python3 gen_reduction_kernels.py OUT_DIR

writes OUT_DIR/NAME.ttir and NAME.json ({"num_warps", "num_stages"}) for
each, compiled by Triton on the CPU (no GPU needed); files already there
are kept. Not in the repository: the kernels themselves.
"""
import json, os, sys
import triton, triton.language as tl
from triton.backends.compiler import GPUTarget
DT={"f16":tl.float16,"bf16":tl.bfloat16,"f32":tl.float32}

@triton.jit
def row_sum(X, Y, M: tl.constexpr, N: tl.constexpr):
    r = tl.arange(0, M)[:, None]; c = tl.arange(0, N)[None, :]
    x = tl.load(X + r * N + c).to(tl.float32)
    tl.store(Y + tl.arange(0, M), tl.sum(x, 1))

@triton.jit
def row_max(X, Y, M: tl.constexpr, N: tl.constexpr):
    r = tl.arange(0, M)[:, None]; c = tl.arange(0, N)[None, :]
    x = tl.load(X + r * N + c)
    tl.store(Y + tl.arange(0, M), tl.max(x, 1))

@triton.jit
def row_argmax(X, Y, I, M: tl.constexpr, N: tl.constexpr):
    r = tl.arange(0, M)[:, None]; c = tl.arange(0, N)[None, :]
    x = tl.load(X + r * N + c)
    v, i = tl.max(x, 1, return_indices=True)
    tl.store(Y + tl.arange(0, M), v); tl.store(I + tl.arange(0, M), i)

@triton.jit
def row_argmin(X, I, M: tl.constexpr, N: tl.constexpr):
    r = tl.arange(0, M)[:, None]; c = tl.arange(0, N)[None, :]
    x = tl.load(X + r * N + c)
    tl.store(I + tl.arange(0, M), tl.argmin(x, 1))

@triton.jit
def col_sum(X, Y, M: tl.constexpr, N: tl.constexpr):
    r = tl.arange(0, M)[:, None]; c = tl.arange(0, N)[None, :]
    x = tl.load(X + r * N + c).to(tl.float32)
    tl.store(Y + tl.arange(0, N), tl.sum(x, 0))

@triton.jit
def both_axes(X, Y, Z, M: tl.constexpr, N: tl.constexpr):
    r = tl.arange(0, M)[:, None]; c = tl.arange(0, N)[None, :]
    x = tl.load(X + r * N + c).to(tl.float32)
    tl.store(Y + tl.arange(0, M), tl.sum(x, 1))
    tl.store(Z + tl.arange(0, N), tl.max(x, 0))

@triton.jit
def softmax(X, Y, n_cols, M: tl.constexpr, N: tl.constexpr):
    pid = tl.program_id(0)
    r = pid * M + tl.arange(0, M)[:, None]; c = tl.arange(0, N)[None, :]
    msk = c < n_cols
    x = tl.load(X + r * n_cols + c, mask=msk, other=-float("inf")).to(tl.float32)
    x = x - tl.max(x, 1)[:, None]
    e = tl.exp(x)
    y = e / tl.sum(e, 1)[:, None]
    tl.store(Y + r * n_cols + c, y.to(Y.dtype.element_ty), mask=msk)

@triton.jit
def layernorm(X, Y, W, B, Mean, Rstd, n_rows, n_cols, eps, M: tl.constexpr, N: tl.constexpr):
    pid = tl.program_id(0)
    rr = pid * M + tl.arange(0, M)
    r = rr[:, None]; c = tl.arange(0, N)[None, :]
    msk = (r < n_rows) & (c < n_cols)
    x = tl.load(X + r * n_cols + c, mask=msk, other=0.).to(tl.float32)
    mean = tl.sum(x, 1) / n_cols
    xc = tl.where(msk, x - mean[:, None], 0.)
    var = tl.sum(xc * xc, 1) / n_cols
    rstd = 1 / tl.sqrt(var + eps)
    w = tl.load(W + c, mask=c < n_cols); b = tl.load(B + c, mask=c < n_cols)
    y = xc * rstd[:, None] * w + b
    tl.store(Y + r * n_cols + c, y.to(Y.dtype.element_ty), mask=msk)
    tl.store(Mean + rr, mean, mask=rr < n_rows); tl.store(Rstd + rr, rstd, mask=rr < n_rows)

@triton.jit
def masked_rowsum(X, Y, n_rows, n_cols, M: tl.constexpr, N: tl.constexpr):
    rr = tl.program_id(0) * M + tl.arange(0, M)
    r = rr[:, None]; c = tl.arange(0, N)[None, :]
    msk = (r < n_rows) & (c < n_cols)
    x = tl.load(X + r * n_cols + c, mask=msk, other=0.).to(tl.float32)
    tl.store(Y + rr, tl.sum(x, 1), mask=rr < n_rows)

@triton.jit
def trans_red0(X, Y, ld, M: tl.constexpr, N: tl.constexpr):
    # column-contiguous: element (i,j) at i + j*ld -> dim0 contiguous; reduce axis 0
    r = tl.arange(0, M)[:, None]; c = tl.arange(0, N)[None, :]
    x = tl.load(X + r + c * ld).to(tl.float32)
    tl.store(Y + tl.arange(0, N), tl.sum(x, 0))

@triton.jit
def trans_red1(X, Y, ld, M: tl.constexpr, N: tl.constexpr):
    r = tl.arange(0, M)[:, None]; c = tl.arange(0, N)[None, :]
    x = tl.load(X + r + c * ld).to(tl.float32)
    tl.store(Y + tl.arange(0, M), tl.max(x, 1))

@triton.jit
def trans_softmax(X, Y, M: tl.constexpr, N: tl.constexpr):
    # softmax over dim0 where dim0 contiguous
    r = tl.arange(0, M)[:, None]; c = tl.arange(0, N)[None, :]
    x = tl.load(X + r + c * M).to(tl.float32)
    x = x - tl.max(x, 0)[None, :]
    e = tl.exp(x); y = e / tl.sum(e, 0)[None, :]
    tl.store(Y + r + c * M, y)

@triton.jit
def red3d_last(X, Y, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    a = tl.arange(0, A)[:, None, None]; b = tl.arange(0, B)[None, :, None]; c = tl.arange(0, C)[None, None, :]
    x = tl.load(X + a * B * C + b * C + c).to(tl.float32)
    s = tl.sum(x, 2)
    tl.store(Y + tl.arange(0, A)[:, None] * B + tl.arange(0, B)[None, :], s)

@triton.jit
def red3d_mid(X, Y, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    a = tl.arange(0, A)[:, None, None]; b = tl.arange(0, B)[None, :, None]; c = tl.arange(0, C)[None, None, :]
    x = tl.load(X + a * B * C + b * C + c).to(tl.float32)
    s = tl.max(x, 1)
    tl.store(Y + tl.arange(0, A)[:, None] * C + tl.arange(0, C)[None, :], s)

@triton.jit
def red3d_softmax(X, Y, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    a = tl.arange(0, A)[:, None, None]; b = tl.arange(0, B)[None, :, None]; c = tl.arange(0, C)[None, None, :]
    p = a * B * C + b * C + c
    x = tl.load(X + p).to(tl.float32)
    x = x - tl.max(x, 2)[:, :, None]
    e = tl.exp(x)
    tl.store(Y + p, e / tl.sum(e, 2)[:, :, None])

@triton.jit
def looped_red(X, Y, xnumel, rnumel, XBLOCK: tl.constexpr, RBLOCK: tl.constexpr):
    xo = tl.program_id(0) * XBLOCK
    xi = xo + tl.arange(0, XBLOCK)[:, None]
    xm = xi < xnumel
    rb = tl.arange(0, RBLOCK)[None, :]
    acc = tl.full([XBLOCK, RBLOCK], 0, tl.float32)
    for ro in range(0, rnumel, RBLOCK):
        ri = ro + rb
        rm = ri < rnumel
        v = tl.load(X + (ri + rnumel * xi), rm & xm, eviction_policy='evict_first', other=0.0).to(tl.float32)
        acc = tl.where(rm & xm, acc + v, acc)
    s = tl.sum(acc, 1)[:, None]
    tl.store(Y + xi, s, xm)

@triton.jit
def looped_softmax(X, Y, xnumel, rnumel, XBLOCK: tl.constexpr, RBLOCK: tl.constexpr):
    # Inductor-style online softmax: pass1 max+sum, pass2 normalize
    xi = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)[:, None]
    xm = xi < xnumel
    rb = tl.arange(0, RBLOCK)[None, :]
    mx = tl.full([XBLOCK, RBLOCK], float("-inf"), tl.float32)
    for ro in range(0, rnumel, RBLOCK):
        ri = ro + rb; rm = ri < rnumel
        v = tl.load(X + ri + rnumel * xi, rm & xm, other=float("-inf")).to(tl.float32)
        mx = tl.where(rm & xm, tl.maximum(mx, v), mx)
    m = tl.max(mx, 1)[:, None]
    sm = tl.full([XBLOCK, RBLOCK], 0, tl.float32)
    for ro in range(0, rnumel, RBLOCK):
        ri = ro + rb; rm = ri < rnumel
        v = tl.load(X + ri + rnumel * xi, rm & xm, other=0.).to(tl.float32)
        sm = tl.where(rm & xm, sm + tl.exp(v - m), sm)
    s = tl.sum(sm, 1)[:, None]
    for ro in range(0, rnumel, RBLOCK):
        ri = ro + rb; rm = ri < rnumel
        v = tl.load(X + ri + rnumel * xi, rm & xm, other=0.).to(tl.float32)
        tl.store(Y + ri + rnumel * xi, tl.exp(v - m) / s, rm & xm)

@triton.jit
def loop_reduce_inside(X, Y, nrep, M: tl.constexpr, N: tl.constexpr):
    r = tl.arange(0, M)[:, None]; c = tl.arange(0, N)[None, :]
    acc = tl.zeros([M], tl.float32)
    for k in range(0, nrep):
        x = tl.load(X + k * M * N + r * N + c).to(tl.float32)
        acc += tl.sum(x, 1)
    tl.store(Y + tl.arange(0, M), acc)

@triton.jit
def welford(X, Mo, Vo, M: tl.constexpr, N: tl.constexpr):
    r = tl.arange(0, M)[:, None]; c = tl.arange(0, N)[None, :]
    x = tl.load(X + r * N + c).to(tl.float32)
    m2 = tl.zeros([M, N], tl.float32); w = tl.full([M, N], 1.0, tl.float32)
    mean, m2o, wo = tl.reduce((x, m2, w), 1, _welford_combine)
    tl.store(Mo + tl.arange(0, M), mean); tl.store(Vo + tl.arange(0, M), m2o / wo)

@triton.jit
def _welford_combine(m1, s1, w1, m2, s2, w2):
    d = m2 - m1; nw = w1 + w2; wr = tl.where(nw == 0.0, 0.0, w2 / nw)
    return m1 + d * wr, s1 + s2 + d * d * w1 * wr, nw

@triton.jit
def cumsum_and_sum(X, Y, Z, M: tl.constexpr, N: tl.constexpr):
    r = tl.arange(0, M)[:, None]; c = tl.arange(0, N)[None, :]
    x = tl.load(X + r * N + c).to(tl.float32)
    cs = tl.cumsum(x, 1)
    tl.store(Y + r * N + c, cs)
    tl.store(Z + tl.arange(0, M), tl.sum(x, 1))

@triton.jit
def cumsum_axis0_and_rowmax(X, Y, Z, M: tl.constexpr, N: tl.constexpr):
    r = tl.arange(0, M)[:, None]; c = tl.arange(0, N)[None, :]
    x = tl.load(X + r * N + c).to(tl.float32)
    tl.store(Y + r * N + c, tl.cumsum(x, 0))
    tl.store(Z + tl.arange(0, M), tl.max(x, 1))

@triton.jit
def red_to_dot(A, B, C, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rm = tl.arange(0, M)[:, None]; rk = tl.arange(0, K)[None, :]
    a = tl.load(A + rm * K + rk).to(tl.float32)
    mx = tl.max(a, 1)
    p = tl.exp(a - mx[:, None])
    l = tl.sum(p, 1)
    b = tl.load(B + tl.arange(0, K)[:, None] * N + tl.arange(0, N)[None, :])
    acc = tl.dot(p.to(tl.float16), b)
    acc = acc / l[:, None]
    tl.store(C + rm * N + tl.arange(0, N)[None, :], acc)

@triton.jit
def dot_then_rowred(A, B, C, Rm, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rm = tl.arange(0, M)[:, None]; rk = tl.arange(0, K)[None, :]
    a = tl.load(A + rm * K + rk)
    b = tl.load(B + tl.arange(0, K)[:, None] * N + tl.arange(0, N)[None, :])
    s = tl.dot(a, b)
    m = tl.max(s, 1)
    p = tl.exp(s - m[:, None])
    tl.store(C + rm * N + tl.arange(0, N)[None, :], (p / tl.sum(p, 1)[:, None]).to(tl.float16))
    tl.store(Rm + tl.arange(0, M), m)

@triton.jit
def rowsum_as_dot_scale(A, B, C, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    # row sums of A scale rows, then dot
    rm = tl.arange(0, M)[:, None]; rk = tl.arange(0, K)[None, :]
    a = tl.load(A + rm * K + rk)
    s = tl.sum(a.to(tl.float32), 1)
    a2 = (a.to(tl.float32) / s[:, None]).to(tl.float16)
    b = tl.load(B + tl.arange(0, K)[:, None] * N + tl.arange(0, N)[None, :])
    tl.store(C + rm * N + tl.arange(0, N)[None, :], tl.dot(a2, b))

@triton.jit
def scalar_total(X, Y, M: tl.constexpr, N: tl.constexpr):
    r = tl.arange(0, M)[:, None]; c = tl.arange(0, N)[None, :]
    x = tl.load(X + r * N + c).to(tl.float32)
    tl.store(Y, tl.sum(tl.sum(x, 1), 0))

@triton.jit
def scalar_atomic(X, Y, M: tl.constexpr, N: tl.constexpr):
    r = tl.arange(0, M)[:, None]; c = tl.arange(0, N)[None, :]
    x = tl.load(X + r * N + c).to(tl.float32)
    tl.atomic_add(Y, tl.max(tl.max(x, 1), 0))

@triton.jit
def store_whole_and_red(X, Y, Z, M: tl.constexpr, N: tl.constexpr):
    r = tl.arange(0, M)[:, None]; c = tl.arange(0, N)[None, :]
    x = tl.load(X + r * N + c)
    y = x * 2
    tl.store(Y + r * N + c, y)
    tl.store(Z + tl.arange(0, M), tl.sum(y.to(tl.float32), 1))

@triton.jit
def keepdims_red(X, Y, M: tl.constexpr, N: tl.constexpr):
    r = tl.arange(0, M)[:, None]; c = tl.arange(0, N)[None, :]
    x = tl.load(X + r * N + c).to(tl.float32)
    s = tl.sum(x, 1, keep_dims=True)
    tl.store(Y + r, s)

@triton.jit
def int_rowmax(X, Y, M: tl.constexpr, N: tl.constexpr):
    r = tl.arange(0, M)[:, None]; c = tl.arange(0, N)[None, :]
    x = tl.load(X + r * N + c)
    tl.store(Y + tl.arange(0, M), tl.max(x, 1))

@triton.jit
def reshape_red(X, Y, M: tl.constexpr, N: tl.constexpr):
    o = tl.arange(0, M * N)
    x = tl.load(X + o).to(tl.float32)
    x2 = tl.reshape(x, [M, N])
    tl.store(Y + tl.arange(0, M), tl.sum(x2, 1))

@triton.jit
def trans_op_red(X, Y, M: tl.constexpr, N: tl.constexpr):
    r = tl.arange(0, M)[:, None]; c = tl.arange(0, N)[None, :]
    x = tl.load(X + r * N + c).to(tl.float32)
    xt = tl.trans(x)   # N x M
    tl.store(Y + tl.arange(0, N), tl.sum(xt, 1))

@triton.jit
def argmax_masked(X, I, n_rows, n_cols, M: tl.constexpr, N: tl.constexpr):
    rr = tl.program_id(0) * M + tl.arange(0, M)
    r = rr[:, None]; c = tl.arange(0, N)[None, :]
    msk = (r < n_rows) & (c < n_cols)
    x = tl.load(X + r * n_cols + c, mask=msk, other=-float("inf"))
    tl.store(I + rr, tl.argmax(x, 1), mask=rr < n_rows)

@triton.jit
def cross_entropy(Logits, Tgt, Loss, n_cols, M: tl.constexpr, N: tl.constexpr):
    rr = tl.program_id(0) * M + tl.arange(0, M)
    r = rr[:, None]; c = tl.arange(0, N)[None, :]
    msk = c < n_cols
    x = tl.load(Logits + r * n_cols + c, mask=msk, other=-float("inf")).to(tl.float32)
    t = tl.load(Tgt + rr)
    m = tl.max(x, 1)
    lse = m + tl.log(tl.sum(tl.exp(x - m[:, None]), 1))
    xt = tl.sum(tl.where(c == t[:, None], x, 0.0), 1)
    tl.store(Loss + rr, lse - xt)

S = {"f16":"*fp16","bf16":"*bf16","f32":"*fp32","i32":"*i32","i64":"*i64"}
jobs = []
def add(name, fn, sig, cexpr, W, St=1):
    jobs.append((name, fn, sig, cexpr, W, St))

shapes = [(1,512),(2,256),(4,64),(8,512),(16,256),(32,128),(64,64),(128,16),(256,1024)]
wlist = {(1,512):[1,4,8],(2,256):[2,8],(4,64):[4,8],(8,512):[2,4,8],(16,256):[4,16],(32,128):[4,8],(64,64):[4,8],(128,16):[4,8],(256,1024):[8,16,32]}
dts = ["f16","bf16","f32"]
i = 0
for (M,N) in shapes:
    for W in wlist[(M,N)]:
        dt = dts[i % 3]; i += 1
        t = S[dt]
        add(f"row_sum_{M}x{N}_{dt}_w{W}", row_sum, {"X":t,"Y":"*fp32"}, {"M":M,"N":N}, W)
        add(f"row_max_{M}x{N}_{dt}_w{W}", row_max, {"X":t,"Y":t}, {"M":M,"N":N}, W)
        add(f"col_sum_{M}x{N}_{dt}_w{W}", col_sum, {"X":t,"Y":"*fp32"}, {"M":M,"N":N}, W)
        add(f"softmax_{M}x{N}_{dt}_w{W}", softmax, {"X":t,"Y":t,"n_cols":"i32"}, {"M":M,"N":N}, W)
        if M*N <= 64*1024:
            add(f"row_argmax_{M}x{N}_{dt}_w{W}", row_argmax, {"X":t,"Y":t,"I":"*i32"}, {"M":M,"N":N}, W)
            add(f"layernorm_{M}x{N}_{dt}_w{W}", layernorm, {"X":t,"Y":t,"W":t,"B":t,"Mean":"*fp32","Rstd":"*fp32","n_rows":"i32","n_cols":"i32","eps":"fp32"}, {"M":M,"N":N}, W)
            add(f"trans_red0_{M}x{N}_{dt}_w{W}", trans_red0, {"X":t,"Y":"*fp32","ld":"i32"}, {"M":M,"N":N}, W)
            add(f"trans_red1_{M}x{N}_{dt}_w{W}", trans_red1, {"X":t,"Y":"*fp32","ld":"i32"}, {"M":M,"N":N}, W)
            add(f"trans_softmax_{M}x{N}_{dt}_w{W}", trans_softmax, {"X":t,"Y":"*fp32"}, {"M":M,"N":N}, W)
            add(f"cumsum_and_sum_{M}x{N}_{dt}_w{W}", cumsum_and_sum, {"X":t,"Y":"*fp32","Z":"*fp32"}, {"M":M,"N":N}, W)
            add(f"store_whole_{M}x{N}_{dt}_w{W}", store_whole_and_red, {"X":t,"Y":t,"Z":"*fp32"}, {"M":M,"N":N}, W)
            add(f"welford_{M}x{N}_{dt}_w{W}", welford, {"X":t,"Mo":"*fp32","Vo":"*fp32"}, {"M":M,"N":N}, W)
            add(f"cross_entropy_{M}x{N}_{dt}_w{W}", cross_entropy, {"Logits":t,"Tgt":"*i64","Loss":"*fp32","n_cols":"i32"}, {"M":M,"N":N}, W)
        add(f"scalar_total_{M}x{N}_{dt}_w{W}", scalar_total, {"X":t,"Y":"*fp32"}, {"M":M,"N":N}, W)
# extra single ones
for (M,N,W,dt) in [(8,512,2,"f16"),(16,256,4,"f32"),(64,64,1,"f32"),(4,64,1,"f16"),(32,128,32,"bf16"),(1,128,16,"f32"),(2,64,32,"f16"),(1,1024,32,"f32")]:
    t=S[dt]
    add(f"argmin_{M}x{N}_{dt}_w{W}", row_argmin, {"X":t,"I":"*i32"}, {"M":M,"N":N}, W)
    add(f"both_axes_{M}x{N}_{dt}_w{W}", both_axes, {"X":t,"Y":"*fp32","Z":"*fp32"}, {"M":M,"N":N}, W)
    add(f"masked_rowsum_{M}x{N}_{dt}_w{W}", masked_rowsum, {"X":t,"Y":"*fp32","n_rows":"i32","n_cols":"i32"}, {"M":M,"N":N}, W)
    add(f"argmax_masked_{M}x{N}_{dt}_w{W}", argmax_masked, {"X":t,"I":"*i32","n_rows":"i32","n_cols":"i32"}, {"M":M,"N":N}, W)
    add(f"keepdims_{M}x{N}_{dt}_w{W}", keepdims_red, {"X":t,"Y":"*fp32"}, {"M":M,"N":N}, W)
    add(f"reshape_red_{M}x{N}_{dt}_w{W}", reshape_red, {"X":t,"Y":"*fp32"}, {"M":M,"N":N}, W)
    add(f"trans_op_red_{M}x{N}_{dt}_w{W}", trans_op_red, {"X":t,"Y":"*fp32"}, {"M":M,"N":N}, W)
    add(f"int_rowmax_{M}x{N}_w{W}", int_rowmax, {"X":"*i32","Y":"*i32"}, {"M":M,"N":N}, W)
    add(f"cumsum0_rowmax_{M}x{N}_{dt}_w{W}", cumsum_axis0_and_rowmax, {"X":t,"Y":"*fp32","Z":"*fp32"}, {"M":M,"N":N}, W)
    add(f"scalar_atomic_{M}x{N}_{dt}_w{W}", scalar_atomic, {"X":t,"Y":"*fp32"}, {"M":M,"N":N}, W)
    add(f"loop_inside_{M}x{N}_{dt}_w{W}", loop_reduce_inside, {"X":t,"Y":"*fp32","nrep":"i32"}, {"M":M,"N":N}, W, 3)
for (A,B,C,W) in [(4,8,64,4),(2,16,128,8),(8,4,32,2),(16,16,16,4),(2,2,256,16),(32,8,8,8),(4,64,4,4)]:
    add(f"red3d_last_{A}x{B}x{C}_w{W}", red3d_last, {"X":"*fp16","Y":"*fp32"}, {"A":A,"B":B,"C":C}, W)
    add(f"red3d_mid_{A}x{B}x{C}_w{W}", red3d_mid, {"X":"*fp32","Y":"*fp32"}, {"A":A,"B":B,"C":C}, W)
    add(f"red3d_softmax_{A}x{B}x{C}_w{W}", red3d_softmax, {"X":"*bf16","Y":"*fp32"}, {"A":A,"B":B,"C":C}, W)
for (XB,RB,W,St) in [(1,2048,8,1),(2,1024,8,1),(4,512,4,1),(8,512,4,1),(16,128,8,1),(32,64,4,1),(64,64,8,1),(128,16,4,1),(8,256,16,3),(1,512,4,2)]:
    add(f"looped_red_{XB}x{RB}_w{W}", looped_red, {"X":"*fp16","Y":"*fp32","xnumel":"i32","rnumel":"i32"}, {"XBLOCK":XB,"RBLOCK":RB}, W, St)
    add(f"looped_softmax_{XB}x{RB}_w{W}", looped_softmax, {"X":"*bf16","Y":"*fp32","xnumel":"i32","rnumel":"i32"}, {"XBLOCK":XB,"RBLOCK":RB}, W, St)
for (M,N,K,W,St) in [(64,64,64,4,2),(128,64,64,4,3),(64,128,32,8,3),(16,64,128,4,2),(128,128,64,8,3),(32,32,256,2,1)]:
    add(f"red_to_dot_{M}x{N}x{K}_w{W}", red_to_dot, {"A":"*fp16","B":"*fp16","C":"*fp32"}, {"M":M,"N":N,"K":K}, W, St)
    add(f"dot_then_rowred_{M}x{N}x{K}_w{W}", dot_then_rowred, {"A":"*fp16","B":"*fp16","C":"*fp16","Rm":"*fp32"}, {"M":M,"N":N,"K":K}, W, St)
    add(f"rowsum_dot_scale_{M}x{N}x{K}_w{W}", rowsum_as_dot_scale, {"A":"*fp16","B":"*fp16","C":"*fp32"}, {"M":M,"N":N,"K":K}, W, St)

if len(sys.argv) != 2:
    sys.exit("usage: gen_reduction_kernels.py OUT_DIR")
OUT = sys.argv[1]
os.makedirs(OUT, exist_ok=True)
print(len(jobs), "kernels", file=sys.stderr)
ok=0
for (name, fn, sig, ce, W, St) in jobs:
    if os.path.exists(f"{OUT}/{name}.ttir"): ok+=1; continue
    sig2 = dict(sig)
    for k,v in ce.items(): sig2[k]="constexpr"
    try:
        src = triton.compiler.ASTSource(fn=fn, signature=sig2, constexprs=ce)
        c = triton.compile(src, target=GPUTarget("cuda", 90, 32), options={"num_warps":W,"num_stages":St})
        ttir = c.asm["ttir"]
        # rename function to NAME
        ttir = ttir.replace(f"@{fn.__name__}(", f"@{name}(",1)
        open(f"{OUT}/{name}.ttir","w").write(ttir)
        json.dump({"num_warps":W,"num_stages":St}, open(f"{OUT}/{name}.json","w"))
        ok+=1
    except Exception as e:
        print("FAIL", name, str(e)[:300], file=sys.stderr)
print("ok", ok, file=sys.stderr)
