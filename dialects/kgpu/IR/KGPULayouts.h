//===- KGPULayouts.h - index arithmetic of distributed layouts --*- C++ -*-===//
//
// Which elements of a tensor each thread holds under a kgpu layout. Shared
// by layout assignment and by the lowering to LLVM, so both agree on the
// register order of every tensor.
//
// A thread's element e of a tensor of shape S sits at the logical index
//   index[d] = (base[d] + offset[e][d]) mod S[d]
// where base[d] depends only on the lane and warp id (getThreadBaseTerms)
// and offset[e] only on e (getElemOffsets). The modulo makes a layout whose
// tile is larger than S replicate elements across threads.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_KGPU_IR_KGPULAYOUTS_H
#define KILN_DIALECTS_KGPU_IR_KGPULAYOUTS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SmallVector.h"

namespace kiln::kgpu {

/// One term of a thread's base index along a dimension:
///   multiplier * ((id / divisor) % modulus), id = lane id or warp id.
struct BaseTerm {
  bool isWarp;
  unsigned divisor;
  unsigned modulus;
  unsigned multiplier;
};

/// True for layouts a tensor can be distributed with (blocked, slice, the
/// mma.sync accumulator layout: MmaEncodingAttr version 2, and the AMD
/// MFMA 16x16 accumulator layout: MfmaEncodingAttr).
bool isDistributedLayout(mlir::Attribute layout);

/// True for an mma.sync (version 2, m16n8) accumulator layout.
bool isMmaV2(mlir::Attribute layout);

/// Rank of the tensors `layout` applies to.
unsigned getLayoutRank(mlir::Attribute layout);

/// Offsets of each element a thread holds, in register order (one vector of
/// `rank` offsets per element). Duplicates are removed for slice layouts.
llvm::SmallVector<llvm::SmallVector<int64_t>>
getElemOffsets(mlir::Attribute layout, llvm::ArrayRef<int64_t> shape);

/// Number of elements each thread holds for a tensor of `shape`.
unsigned getNumElemsPerThread(mlir::Attribute layout,
                              llvm::ArrayRef<int64_t> shape);

/// Per dimension, the terms summing to the thread's base index.
llvm::SmallVector<llvm::SmallVector<BaseTerm>>
getThreadBaseTerms(mlir::Attribute layout);

/// Element count of the smallest tile of `layout` along each dimension
/// (sizePerThread x threadsPerWarp x warpsPerCTA for blocked).
llvm::SmallVector<int64_t> getTileShape(mlir::Attribute layout);

/// Where one register of a lane's tensor-core operand fragment sits in the
/// instruction's operand tile, in the PTX ISA's terms groupID g = lane / 4
/// and threadID_in_group t = lane % 4:
///   row = rowPerGroup * g + rowPerThread * t + row
///   col = colPerGroup * g + colPerThread * t + col
struct FragmentElement {
  int64_t rowPerGroup, rowPerThread, row;
  int64_t colPerGroup, colPerThread, col;
};

/// Operand fragments of mma.sync.aligned.m16n8k8 with .tf32 multiplicands
/// (PTX ISA 9.7.14.5.7, "Matrix Fragments for mma.m16n8k8", .tf32), one
/// entry per .b32 register in register order. `operand` 0: A, 16 x 8
/// (M x K), registers a0..a3 at (g + 8 * (i % 2), t + 4 * (i / 2));
/// 1: B, 8 x 8 (K x N), registers b0, b1 at (t + 4 * i, g).
inline llvm::SmallVector<FragmentElement, 4>
getMmaTf32OperandFragment(unsigned operand) {
  if (operand == 0)
    return {{1, 0, 0, 0, 1, 0},
            {1, 0, 8, 0, 1, 0},
            {1, 0, 0, 0, 1, 4},
            {1, 0, 8, 0, 1, 4}};
  return {{0, 1, 0, 1, 0, 0}, {0, 1, 4, 1, 0, 0}};
}

/// Row stride, in elements, of a 16-bit (or 32-bit) dot operand tile staged
/// row-major in shared memory by the ldmatrix / MFMA lowerings and the
/// K-loop pipeline (not the swizzled wgmma tiles): rows padded by 8
/// elements (16 bytes for 16-bit types), so that the 8 row addresses one
/// ldmatrix 8x8 matrix reads fall in distinct bank groups. 8-bit tiles (the
/// pipeline's f8 slots) are padded by 16 elements, 16 bytes too. With
/// `elemBits` = 32 (the pipeline's tf32 slots), by what the m16n8k8 .tf32
/// fragment reads need to fall in distinct banks (PTX ISA 9.7.14.5.7): A
/// (lane 4g + t reads row g, column t: rows 4 banks apart) by 4 elements,
/// B (`bOperand`; lane 4g + t reads row t, column g: rows 8 banks apart)
/// by 8, for rows a multiple of 32 elements.
inline int64_t getPaddedRowStride(int64_t cols, unsigned elemBits = 16,
                                  bool bOperand = false) {
  if (elemBits == 32)
    return cols + (bOperand ? 8 : 4);
  return cols + (elemBits == 8 ? 16 : 8);
}

/// The layout attached to a ranked tensor type, or null.
mlir::Attribute getLayout(mlir::Type type);

/// A blocked layout for `shape` over `numWarps` warps of `threadsPerWarp`
/// lanes with `order` (fastest dimension first), giving `vec` consecutive
/// elements per thread along order[0]. Lanes, then warps, are assigned to
/// the fastest dimensions first without exceeding the shape where possible,
/// so small tensors are not replicated needlessly.
mlir::Attribute getDefaultBlockedLayout(mlir::MLIRContext *ctx,
                                        llvm::ArrayRef<int64_t> shape,
                                        unsigned numWarps,
                                        unsigned threadsPerWarp,
                                        llvm::ArrayRef<unsigned> order,
                                        unsigned vec);

} // namespace kiln::kgpu

#endif // KILN_DIALECTS_KGPU_IR_KGPULAYOUTS_H
