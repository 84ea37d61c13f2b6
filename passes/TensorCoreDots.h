//===- TensorCoreDots.h - which tt.dot the tensor cores compute -*- C++ -*-===//
//
// One statement of which tt.dot each tensor-core instruction kiln emits can
// compute, shared by the pass that assigns accumulator layouts
// (kgpu-assign-layouts), the K-loop pipeline (kgpu-pipeline-dot-loops) and
// the lowering (kgpu-convert-to-llvm), so they cannot disagree.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PASSES_TENSORCOREDOTS_H
#define KILN_PASSES_TENSORCOREDOTS_H

#include "dialects/tt/IR/TTOps.h"

namespace kiln {

/// Whether `dot` multiplies f32 operands rounded to tf32 (inputPrecision
/// tf32 or tf32x3).
bool isTf32Dot(tt::DotOp dot);

/// Whether NVIDIA mma.sync computes `dot` (2-D): m16n8k16 for f16 or bf16
/// operands (K % 16 == 0, f32, f16 or bf16 accumulator), m16n8k8 .tf32 for
/// tf32 dots (K % 8 == 0, f32 accumulator); M % 16 == 0, N % 8 == 0 (PTX
/// ISA 9.7.14.5.8, 9.7.14.5.7).
bool mmaSyncComputes(tt::DotOp dot);

/// Whether one m64nNk16 wgmma per 64-row block and 16-wide K step (m64nNk8 for
/// tf32) computes `dot` with `warps` warps along M only (PTX ISA 9.7.15.5): f16
/// or bf16 operands, or f32 ones with inputPrecision tf32 (not tf32x3: one
/// rounding, one product), f32 accumulator, whole warpgroups (warps % 4 == 0),
/// M a multiple of 16 * warps, K a multiple of 16 (tf32: 32) and N of 16 (N <=
/// 256). A 16-bit K of 32 (64-byte rows) fills half of each 128-byte swizzle
/// row (wgmmaOperandBytes); so does an N-major B's N of 32 (wgmmaNarrowTile).
/// wgmma's tf32 form reads A and B K-major only (9.7.15.5.1: the transpose
/// operands exist for .f16 / .bf16), so only kgpu-pipeline-dot-loops takes tf32
/// dots to it, where B is read K-contiguous (kgpu-assign-layouts' bReadKMajor).
///
/// With `warpsN` > 1 (16-bit only), the warpgroups also split N: warps
/// along M `warps` (a multiple of 4), along N `warpsN`; each warpgroup
/// multiplies its N / warpsN columns (a multiple of 64, at most 256), the
/// contiguous part of N its warp column owns in a #kgpu.mma layout with
/// those warpsPerCTA and instrShape [16, N / warpsN].
bool wgmmaComputes(tt::DotOp dot, unsigned warps, unsigned warpsN = 1);

/// wgmmaComputes' conditions on an M x N x K product of `elem` operands (f32:
/// the tf32 form) with an f32 accumulator, for callers that have the shape
/// without a tt.dot (kgpu.local_dot).
bool wgmmaComputesShape(mlir::Type elem, int64_t M, int64_t N, int64_t K,
                        unsigned warps, unsigned warpsN = 1);

/// Whether the K rows of a 2-D `dot` fill only part of a 128-byte swizzle
/// row (a 16-bit K of 32): wgmma computes such dots in fewer K steps per
/// tile, and kiln takes them to wgmma only where that measured faster
/// (kgpu-assign-layouts num-stages, kgpu-convert-to-llvm).
bool wgmmaPartialRows(tt::DotOp dot);

/// Whether wgmma would multiply `dot` on a narrow tile: an N (a multiple of
/// 16) that is not a multiple of 64, whose N-major B fills only part of its
/// last 128-byte swizzle column block, or a 16-bit K of 16, a quarter of
/// each 128-byte swizzle row (wgmmaOperandBytes pads both). kiln takes such
/// dots to wgmma only in attention's pipelined loops
/// (kgpu-pipeline-dot-loops), where they were measured (docs/BENCHMARKS.md,
/// fifteenth session); not in K loops (kgpu-assign-layouts) or unpipelined
/// (kgpu-convert-to-llvm).
bool wgmmaNarrowTile(tt::DotOp dot);

/// Whether a wgmma multiply with A in registers (`aElems` 16-bit elements
/// of A and `accRegs` accumulator registers per thread) is short of
/// registers: the two operands take every register a thread has
/// (attention's O and P = f(S) for head dims of 96 or 128 over 128 keys on
/// 4 warps: 128 + 128). kgpu-convert-to-llvm then packs all of A before
/// the multiply's fence and issues one 64-row block's K steps after the
/// other with no waits between them, instead of packing each A fragment
/// next to its wgmma with K steps outermost: ptxas spilled 6-14 KB there
/// the other way. On the H200 (docs/BENCHMARKS.md, sixteenth session):
/// 127.4 -> 75.1 us (Triton 71.9), 125.0 -> 61.1 (71.4), 61.4 -> 30.0
/// (20.7); with O of 128 and 32 keys (160) it ran 3% slower and with flex
/// attention's 64 + 128, 10% slower. kgpu-pipeline-dot-loops also leaves
/// such a multiply in flight across its loop's back edge.
bool packRegisterAFirst(int64_t accRegs, int64_t aElems);

/// Whether a K loop's dot from zero whose sum the loop adds (`acc +=
/// tl.dot(a, b)`, which Triton's frontend leaves so for f8 operands) takes
/// wgmma with `warps` warps: each iteration then holds its product beside
/// the carried sum, two accumulators, so only where one takes at most 64
/// f32 registers per thread (M x N / (32 x warps)). On the H200 (thirtieth
/// session, docs/BENCHMARKS.md) those loops ran faster with wgmma than with
/// mma.sync (f8 128 x 128 x 64 on 8 warps 13.72 -> 10.42 us, Triton 9.93;
/// 64 x 128 x 128 on 4 warps 9.89 -> 7.29, Triton 7.35), and with 128
/// registers per accumulator slower (128 x 128 x 64 on 4 warps 16.02 ->
/// 17.76, Triton 12.83; 64 x 256 x 64 17.88 -> 19.96) as ptxas spilled more.
bool wgmmaFromZeroFits(tt::DotOp dot, unsigned warps);

/// Bytes of a wgmma operand tile of `mn` x `k` elements (M x K for A, N x
/// K for B) of `bytes` bytes in wgmma's 128-byte swizzled arrangement (PTX
/// ISA 9.7.15.5.1, 128B swizzling mode), stored in rows of K (`kMajor`) or
/// rows of M or N: each row padded to whole 128-byte swizzle rows, since
/// the arrangement keeps its 8-row atoms 1024 bytes apart whatever the row
/// holds. Shared by every pass that sizes such a tile.
int64_t wgmmaOperandBytes(int64_t mn, int64_t k, unsigned bytes, bool kMajor);

/// Shared memory per CTA on sm_90 (227 KB; wgmma exists on sm_90a only),
/// the bound wgmma slots are sized against before kgpu-convert-to-llvm
/// checks the kernel's total (NVPTXTargetInfo::getMaxSharedBytes).
constexpr int64_t kWgmmaMaxSharedBytes = 227 * 1024;

/// Whether AMD MFMA 16x16 computes `dot` (2-D, CDNA2/3):
/// v_mfma_f32_16x16x16{f16,bf16_1k} (K % 16 == 0) or
/// v_mfma_f32_16x16x4f32 for f32 operands with inputPrecision ieee (K % 4
/// == 0; its products are not tf32-rounded); f32 accumulator, M and N
/// multiples of 16.
bool mfmaComputes(tt::DotOp dot);

/// On the kgpu.async_copy and kgpu.local_dot ops of a pipelined loop whose
/// body also holds ops that use shared memory (kgpu-pipeline-dot-loops'
/// attention loops): their offsets are relative to a region of their own,
/// which kgpu-convert-to-llvm places above the bytes every other op reuses
/// (1024-byte aligned) instead of at offset 0.
constexpr llvm::StringLiteral kOwnSharedMemoryAttr = "kgpu.own_shared_memory";

/// On a tt.dot whose #kgpu.mma layout kgpu-assign-layouts chose for wgmma
/// with the warpgroups splitting N (warps 4 x 2): kgpu-pipeline-dot-loops
/// takes wgmma for warps along N only on such dots, not on mma.sync
/// layouts that happen to have the same warps (splitWarps' choice where
/// wgmma was declined).
constexpr llvm::StringLiteral kWgmmaSplitNAttr = "kgpu.wgmma_split_n";

/// On a kgpu.local_dot with `wgmma`: issue one 64-row block's K steps
/// after the other instead of K steps outermost. kgpu-pipeline-dot-loops
/// sets it on the first dot of a loop whose last multiply stays in flight
/// (attention's Q K^T beside an O short of registers): with K steps
/// outermost ptxas kept both blocks of S live beside O and spilled (head
/// dim 96, 128 x 128 tiles on 4 warps: 768 against 36 bytes; hand edits,
/// docs/BENCHMARKS.md, sixteenth session).
constexpr llvm::StringLiteral kWgmmaBlockMajorAttr = "kgpu.wgmma_block_major";

/// On a kgpu.local_dot with `wgmma` and A in registers: pack every A
/// register before the multiply's wgmma.fence and tie them through it (an
/// asm statement), so that LLVM cannot sink the packing past the fence,
/// where ptxas would inject a warpgroup.arrive (C7519) that waits for the
/// multiply still in flight. kgpu-pipeline-dot-loops sets it on a loop
/// with staged A tiles whose multiply stays in flight across the back
/// edge.
constexpr llvm::StringLiteral kWgmmaPackAFirstAttr = "kgpu.wgmma_pack_a_first";

} // namespace kiln

#endif // KILN_PASSES_TENSORCOREDOTS_H
