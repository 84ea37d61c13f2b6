//===- KGPUHoistIndexConstants.cpp - index constants moved outward --------===//
//
// The SIMT lowering computes each element's index as its own chain of
// integer ops over the thread's base plus that element's constants; this
// pass moves the constants to the outermost add, so that every element's
// index is one shared value plus a constant (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace kiln {
#define GEN_PASS_DEF_KGPUHOISTINDEXCONSTANTS
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

namespace {

/// The integer constant `v` holds (an llvm.mlir.constant of a scalar
/// integer type), if any.
std::optional<APInt> constantOf(Value v) {
  APInt value;
  if (isa<IntegerType>(v.getType()) && matchPattern(v, m_ConstantInt(&value)))
    return value;
  return std::nullopt;
}

Value constant(PatternRewriter &rewriter, Location loc, Type type,
               const APInt &value) {
  return LLVM::ConstantOp::create(rewriter, loc, type,
                                  rewriter.getIntegerAttr(type, value));
}

/// `v` as `x + c` with `c` an integer constant: an llvm.add with one
/// constant operand.
std::optional<std::pair<Value, APInt>> splitConstantAdd(Value v) {
  auto add = v.getDefiningOp<LLVM::AddOp>();
  if (!add)
    return std::nullopt;
  if (std::optional<APInt> c = constantOf(add.getRhs()))
    return std::make_pair(add.getLhs(), *c);
  if (std::optional<APInt> c = constantOf(add.getLhs()))
    return std::make_pair(add.getRhs(), *c);
  return std::nullopt;
}

/// (x + c1) + c2 -> x + (c1 + c2); (x + c) + y -> (x + y) + c.
struct AddPattern : OpRewritePattern<LLVM::AddOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LLVM::AddOp op,
                                PatternRewriter &rewriter) const override {
    if (!isa<IntegerType>(op.getType()))
      return failure();
    for (auto [inner, other] : {std::pair(op.getLhs(), op.getRhs()),
                                std::pair(op.getRhs(), op.getLhs())}) {
      std::optional<std::pair<Value, APInt>> split = splitConstantAdd(inner);
      if (!split)
        continue;
      auto [x, c] = *split;
      if (std::optional<APInt> c2 = constantOf(other)) {
        rewriter.replaceOpWithNewOp<LLVM::AddOp>(
            op, x, constant(rewriter, op.getLoc(), op.getType(), c + *c2));
        return success();
      }
      Value sum = LLVM::AddOp::create(rewriter, op.getLoc(), x, other);
      rewriter.replaceOpWithNewOp<LLVM::AddOp>(
          op, sum, constant(rewriter, op.getLoc(), op.getType(), c));
      return success();
    }
    return failure();
  }
};

/// (x + c) - y -> (x - y) + c; x - (y + c) -> (x - y) + (-c).
struct SubPattern : OpRewritePattern<LLVM::SubOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LLVM::SubOp op,
                                PatternRewriter &rewriter) const override {
    if (!isa<IntegerType>(op.getType()))
      return failure();
    Location loc = op.getLoc();
    if (auto split = splitConstantAdd(op.getLhs())) {
      if (constantOf(op.getRhs()))
        return failure(); // (x + c) - c2: the canonicalizer's
      Value diff = LLVM::SubOp::create(rewriter, loc, split->first, op.getRhs());
      rewriter.replaceOpWithNewOp<LLVM::AddOp>(
          op, diff, constant(rewriter, loc, op.getType(), split->second));
      return success();
    }
    if (auto split = splitConstantAdd(op.getRhs())) {
      Value diff = LLVM::SubOp::create(rewriter, loc, op.getLhs(), split->first);
      rewriter.replaceOpWithNewOp<LLVM::AddOp>(
          op, diff, constant(rewriter, loc, op.getType(), -split->second));
      return success();
    }
    return failure();
  }
};

/// (x + c1) * c2 -> x * c2 + c1 * c2.
struct MulPattern : OpRewritePattern<LLVM::MulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LLVM::MulOp op,
                                PatternRewriter &rewriter) const override {
    if (!isa<IntegerType>(op.getType()))
      return failure();
    for (auto [inner, other] : {std::pair(op.getLhs(), op.getRhs()),
                                std::pair(op.getRhs(), op.getLhs())}) {
      std::optional<APInt> c2 = constantOf(other);
      std::optional<std::pair<Value, APInt>> split = splitConstantAdd(inner);
      if (!c2 || !split)
        continue;
      Location loc = op.getLoc();
      Value product = LLVM::MulOp::create(rewriter, loc, split->first, other);
      rewriter.replaceOpWithNewOp<LLVM::AddOp>(
          op, product,
          constant(rewriter, loc, op.getType(), split->second * *c2));
      return success();
    }
    return failure();
  }
};

/// (x + c1) << c2 -> (x << c2) + (c1 << c2), for c2 below the bit width.
struct ShlPattern : OpRewritePattern<LLVM::ShlOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LLVM::ShlOp op,
                                PatternRewriter &rewriter) const override {
    if (!isa<IntegerType>(op.getType()))
      return failure();
    std::optional<APInt> c2 = constantOf(op.getRhs());
    std::optional<std::pair<Value, APInt>> split = splitConstantAdd(op.getLhs());
    if (!c2 || !split || c2->uge(c2->getBitWidth()))
      return failure();
    Location loc = op.getLoc();
    Value shifted = LLVM::ShlOp::create(rewriter, loc, split->first, op.getRhs());
    rewriter.replaceOpWithNewOp<LLVM::AddOp>(
        op, shifted,
        constant(rewriter, loc, op.getType(), split->second.shl(*c2)));
    return success();
  }
};

struct KGPUHoistIndexConstants
    : kiln::impl::KGPUHoistIndexConstantsBase<KGPUHoistIndexConstants> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<AddPattern, SubPattern, MulPattern, ShlPattern>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
