#!/usr/bin/env python3
"""f8 tensor-core conformance kernels (f8_*): K loops multiplying f8E4M3FN
or f8E5M2 tiles (Triton's fp8e4nv / fp8e5) with f32 accumulation, the
shapes of Triton's own fp8 matmuls: A stored M x K (K contiguous) or K x M,
B stored K x N (N contiguous), N x K and tl.trans'd, or N x K read K x N
through strides ("bk", K contiguous: wgmma's f8 forms need both operands
K-major), `acc = tl.dot(x, y, acc)` and `acc += tl.dot(x, y)`, a masked K
tail, f32 and f16 results, 4 and 8 warps, K blocks of 32 to 128.

The matmuls are gen_k32_kernels.py's mm32 (their TTIR carries that
file's line numbers) with f8 operand types and BK set per config; the
f8_cast kernels convert f32 / f16 values to f8 and back (cast8 below).

Generate (Triton 3.6, no GPU; run with the Triton venv's python):

    python gen_f8_kernels.py [--out bench/conformance/kernels_f8] [--only NAME...]

Same conventions as gen_k32_kernels.py: correct under conformance.py's
default launch, grid (8, 8, 1), every i32 scalar 1024, every buffer 4M
elements; the 8 x 8 grid covers the output exactly, every output element
written by one program.
"""
import gen_k32_kernels as k32
import ttir_kernels  # the TTIR and JSON writing (scrub, main)

T_TY = {"e4m3": "*fp8e4nv", "e5m2": "*fp8e5", "f16": "*fp16", "f32": "*fp32"}

# mm32's B_MODE: 0 B stored K x N; 1 stored N x K, loaded BN x BK and
# tl.trans'd; 2 stored N x K, loaded BK x BN through strides.
BK_MAJOR, B_TRANS, B_N_MAJOR = 2, 1, 0


def define():
    """gen_k32_kernels.py's kernels, and cast8: f32 (or f16) values scaled
    past the f8 format's largest finite value, converted to f8 (rounded to
    nearest even, saturated) and stored, and the f8 values read back as f32
    (the upcast) into a second buffer."""
    import triton
    import triton.language as tl

    fns = k32.define()

    @triton.jit
    def cast8(x, y, z, n, SCALE: tl.constexpr, SRC16: tl.constexpr, BLOCK: tl.constexpr):
        # Every program of a grid row writes the same values (n unused).
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        v = tl.load(x + offs) * SCALE
        if SRC16:
            v = v.to(tl.float16)
        f8 = v.to(y.dtype.element_ty)
        tl.store(y + offs, f8)
        tl.store(z + offs, f8.to(tl.float32))

    fns["cast8"] = cast8
    return fns


def cast(name, dt, scale, src16=False):
    """cast8 on 8 programs of 1024 elements, 4 warps."""
    sig = {"x": "*fp32", "y": T_TY[dt], "z": "*fp32", "n": "i32"}
    return dict(name=name, fn="cast8", warps=4, stages=3, sig=sig,
                ce=dict(SCALE=scale, SRC16=src16, BLOCK=1024))


def mm(name, dt, out, tile, w, s=3, k=512, **kw):
    """mm32 on f8 operands, tile (BM, BN, BK), B K-major unless B_MODE says."""
    bm, bn, bk = tile
    kw.setdefault("B_MODE", BK_MAJOR)
    cfg = k32.mm(name, "f16", "f32", (bm, bn), w, s, k=k, BK=bk, **kw)
    cfg["sig"] = dict(zip(k32.MM_ARGS, [T_TY[dt], T_TY[dt], T_TY[out], "*fp32"] + ["i32"] * 6))
    return cfg


def configs():
    return [
        # B K-major through strides (Triton's fp8 matmul form), 4 warps.
        mm("f8_bk_e4m3_64x256x32_w4_s3", "e4m3", "f32", (64, 256, 32), 4),
        mm("f8_bk_e5m2_64x256x64_w4_s3", "e5m2", "f32", (64, 256, 64), 4),
        mm("f8_bk_e4m3_128x128x32_w4_s3", "e4m3", "f32", (128, 128, 32), 4),
        mm("f8_bk_e5m2_128x128x64_w4_s3", "e5m2", "f32", (128, 128, 64), 4),
        mm("f8_bk_e4m3_64x128x64_w4_s4", "e4m3", "f32", (64, 128, 64), 4, s=4),
        mm("f8_bk_e5m2_64x64x128_w4_s3", "e5m2", "f32", (64, 64, 128), 4),
        # 8 warps: two warpgroups along M.
        mm("f8_bk_e4m3_128x256x64_w8_s3", "e4m3", "f32", (128, 256, 64), 8),
        mm("f8_bk_e5m2_128x128x128_w8_s3", "e5m2", "f32", (128, 128, 128), 8),
        mm("f8_bk_e4m3_256x128x64_w8_s3", "e4m3", "f32", (256, 128, 64), 8),
        # f16 result, K tail (loads masked along K), acc += dot.
        mm("f8_bk_e4m3_128x128x64_w8_s3_f16out", "e4m3", "f16", (128, 128, 64), 8),
        mm("f8_bk_ktail_e5m2_128x128x64_w8_s3", "e5m2", "f32", (128, 128, 64), 8, k=1000,
           MASK=1),
        mm("f8_bk_accplus_e4m3_128x128x64_w8_s3", "e4m3", "f32", (128, 128, 64), 8,
           ACC_PLUS=True),
        # B tl.trans'd, B N-contiguous (upcast to f16), A M-contiguous.
        mm("f8_bt_e4m3_128x128x64_w8_s3", "e4m3", "f32", (128, 128, 64), 8, B_MODE=B_TRANS),
        mm("f8_bt_e5m2_64x128x64_w4_s3", "e5m2", "f32", (64, 128, 64), 4, B_MODE=B_TRANS),
        mm("f8_bn_e4m3_64x64x64_w4_s3", "e4m3", "f32", (64, 64, 64), 4, B_MODE=B_N_MAJOR),
        mm("f8_am_bk_e4m3_64x64x128_w4_s3", "e4m3", "f32", (64, 64, 128), 4, A_MMAJOR=True),
        mm("f8_am_bk_e5m2_128x128x64_w4_s3", "e5m2", "f32", (128, 128, 64), 4, A_MMAJOR=True),
        # Downcasts to f8 (randn inputs scaled so that some exceed 448 /
        # 57344 and saturate) and back.
        cast("f8_cast_f32_e4m3", "e4m3", 300.0),
        cast("f8_cast_f32_e5m2", "e5m2", 30000.0),
        cast("f8_cast_f16_e4m3", "e4m3", 300.0, src16=True),
    ]


if __name__ == "__main__":
    ttir_kernels.main("kernels_f8", define, configs)
