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

  /// What is known of the sign of an integer value's elements.
  enum class Sign {
    /// Every element is >= 0: program ids, ranges from 0, non-negative
    /// constants, and sums, products, quotients and remainders of such
    /// values (assuming, like Triton's offset analysis, that index
    /// arithmetic does not wrap); scf.for counters and iteration arguments
    /// by induction.
    NonNegative,
    /// Computed from kernel arguments or loaded data: taken as
    /// non-negative, as Triton takes every offset (sizes are; a kernel
    /// that reverses its program order, cdiv(M, BLOCK) - 1 - pid, relies
    /// on the launch to stay in range).
    Unknown,
    /// Computed from program ids, ranges and constants alone, and not
    /// provably non-negative (r - 100, pid - 5): may be negative.
    MayBeNegative,
  };
  /// arith.remsi and arith.divsi round toward zero, so their contiguity and
  /// constancy rules hold only for non-negative dividends: -5, -4, -3
  /// modulo 4 are -1, 0, -3, and -16..-13 divided by 16 are -1, 0, 0, 0.
  /// Those rules apply unless the dividend's sign is MayBeNegative.
  Sign getSign(mlir::Value value);

private:
  /// A round of loopCarried for an iteration argument of `loop`, nested in
  /// `parent`'s computation.
  AxisInfoAnalysis(const AxisInfoAnalysis *parent, mlir::Operation *loop)
      : parent(parent), loop(loop) {}

  AxisInfo compute(mlir::Value value);
  AxisInfo loopCarried(mlir::scf::ForOp loop, unsigned i);
  AxisInfo remOrDiv(mlir::Operation *op, llvm::ArrayRef<int64_t> shape,
                    bool rem);
  Sign computeSign(mlir::Value value);
  llvm::SmallVector<Sign> loopSigns(mlir::scf::ForOp loop);
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
  /// getSign's answers, and the order they were added in (an induction
  /// hypothesis about a loop's iteration argument takes back what was
  /// derived from it when it fails).
  llvm::DenseMap<mlir::Value, Sign> signs;
  llvm::SmallVector<mlir::Value> signOrder;
  const AxisInfoAnalysis *parent = nullptr;
  mlir::Operation *loop = nullptr;
};

} // namespace kiln

#endif // KILN_PASSES_AXISINFO_H
