//===- AxisInfo.h - contiguity, divisibility and constancy ------*- C++ -*-===//
//
// Facts about integer and pointer tensors along each dimension, derived from
// tt.divisibility / tt.contiguity / tt.constancy attributes (on kernel
// arguments, and on ops where tl.multiple_of / tl.max_contiguous /
// tl.max_constancy put them), scf.for induction variables and the
// arithmetic that builds offsets. They decide how many elements one thread
// may move per global memory instruction (16 bytes at most on NVIDIA, PTX
// ISA 9.7.9.8 ld: vector widths .v2/.v4 of up to 128 bits).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PASSES_AXISINFO_H
#define KILN_PASSES_AXISINFO_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::scf {
class ForOp;
} // namespace mlir::scf

namespace kiln {

/// Per-dimension facts about a value (scalars count as shape [1]):
/// - contiguity[d]: values come in runs of this many consecutive integers
///   (pointers: consecutive elements) along d, runs starting at multiples
///   of the run length;
/// - divisibility[d]: the first value of each run is a multiple of this
///   (pointers: in bytes);
/// - constancy[d]: values come in runs of this many equal values along d.
struct AxisInfo {
  llvm::SmallVector<int64_t> contiguity;
  llvm::SmallVector<int64_t> divisibility;
  llvm::SmallVector<int64_t> constancy;
  /// The value when it is a known integer constant (splat for tensors).
  std::optional<int64_t> constant;

  unsigned getRank() const { return contiguity.size(); }
};

/// Computes AxisInfo on demand and memoizes it; conservative (all ones) for
/// values it knows nothing about. scf.for iteration arguments get the facts
/// their initial and yielded values share (a fixpoint over the loop body).
class AxisInfoAnalysis {
public:
  AxisInfoAnalysis() = default;
  const AxisInfo &get(mlir::Value value);

  /// Elements one thread may move in one access through `ptr` (a tensor of
  /// pointers) along dimension `dim`, given an optional `mask`: limited by
  /// contiguity, byte alignment, mask constancy and 16 bytes.
  unsigned getVectorWidth(mlir::Value ptr, mlir::Value mask, unsigned dim);

  /// The dimension of `ptr` with the longest contiguity (ties: the last).
  unsigned getContiguousDim(mlir::Value ptr);

private:
  /// A round of loopCarried for an iteration argument of `loop`, nested in
  /// `parent`'s computation.
  AxisInfoAnalysis(const AxisInfoAnalysis *parent, mlir::Operation *loop)
      : parent(parent), loop(loop) {}

  AxisInfo compute(mlir::Value value);
  AxisInfo loopCarried(mlir::scf::ForOp loop, unsigned i);
  AxisInfo remOrDiv(mlir::Operation *op, llvm::ArrayRef<int64_t> shape,
                    bool rem);
  /// Facts an enclosing analysis already has that hold here too: the
  /// provisional facts of an iteration argument it is solving (nested
  /// loops reach them instead of starting that fixpoint again, without
  /// end), or the finished facts of a value defined outside `loop`.
  const AxisInfo *inherited(mlir::Value value) const;

  llvm::DenseMap<mlir::Value, AxisInfo> cache;
  /// Values whose cache entry is a placeholder (being computed).
  llvm::DenseSet<mlir::Value> pending;
  /// Iteration arguments seeded with provisional facts (this round's).
  llvm::DenseSet<mlir::Value> seeds;
  const AxisInfoAnalysis *parent = nullptr;
  mlir::Operation *loop = nullptr;
};

} // namespace kiln

#endif // KILN_PASSES_AXISINFO_H
