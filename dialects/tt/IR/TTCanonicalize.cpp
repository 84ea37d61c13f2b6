//===- TTCanonicalize.cpp - canonicalization patterns of tt ops -----------===//
//
// Folders (in TTOps.cpp) turn splat / broadcast / expand_dims of constants
// into constants and drop `addptr %p, 0`. The patterns here simplify masked
// memory accesses whose mask is a constant.
//
//===----------------------------------------------------------------------===//

#include "dialects/tt/IR/TTOps.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace kiln::tt;

namespace {

bool isAllTrue(Value mask) { return mask && matchPattern(mask, m_One()); }
bool isAllFalse(Value mask) { return mask && matchPattern(mask, m_Zero()); }

/// tt.load with an all-true mask reads every element: drop mask and other.
/// With an all-false mask nothing is read: the result is `other`, or poison
/// (undefined elements) without it.
struct SimplifyLoadWithConstantMask : OpRewritePattern<LoadOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(LoadOp op,
                                PatternRewriter &rewriter) const override {
    Value mask = op.getMask();
    if (isAllTrue(mask)) {
      rewriter.replaceOpWithNewOp<LoadOp>(
          op, op.getType(), op.getPtr(), /*mask=*/Value(), /*other=*/Value(),
          op.getBoundaryCheckAttr(), op.getPaddingAttr(), op.getCacheAttr(),
          op.getEvictAttr(), op.getIsVolatileAttr());
      return success();
    }
    if (isAllFalse(mask)) {
      if (Value other = op.getOther()) {
        rewriter.replaceOp(op, other);
        return success();
      }
      rewriter.replaceOpWithNewOp<ub::PoisonOp>(op, op.getType());
      return success();
    }
    return failure();
  }
};

/// tt.store with an all-true mask drops the mask; with an all-false mask it
/// writes nothing and is erased.
struct SimplifyStoreWithConstantMask : OpRewritePattern<StoreOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(StoreOp op,
                                PatternRewriter &rewriter) const override {
    Value mask = op.getMask();
    if (isAllTrue(mask)) {
      rewriter.replaceOpWithNewOp<StoreOp>(
          op, op.getPtr(), op.getValue(), /*mask=*/Value(),
          op.getBoundaryCheckAttr(), op.getCacheAttr(), op.getEvictAttr());
      return success();
    }
    if (isAllFalse(mask)) {
      rewriter.eraseOp(op);
      return success();
    }
    return failure();
  }
};

} // namespace

void LoadOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                         MLIRContext *context) {
  results.add<SimplifyLoadWithConstantMask>(context);
}

void StoreOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                          MLIRContext *context) {
  results.add<SimplifyStoreWithConstantMask>(context);
}
