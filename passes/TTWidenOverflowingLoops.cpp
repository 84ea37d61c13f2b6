//===- TTWidenOverflowingLoops.cpp - i32 loops whose span overflows i32 ---===//
//
// An scf.for over i32 with constant bounds whose span (ub - lb) does not fit
// in i32 runs over an i64 induction variable instead (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

#include <limits>

namespace kiln {
#define GEN_PASS_DEF_TTWIDENOVERFLOWINGLOOPS
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

namespace {

/// Whether `loop` is a signed i32 loop with constant bounds whose span
/// ub - lb exceeds INT32_MAX (the trip count MLIR 22's scf.for folding
/// computes in i32 then wraps).
bool spanOverflows(scf::ForOp loop) {
  if (!loop.getInductionVar().getType().isInteger(32) || loop.getUnsignedCmp())
    return false;
  APInt lb, ub;
  if (!matchPattern(loop.getLowerBound(), m_ConstantInt(&lb)) ||
      !matchPattern(loop.getUpperBound(), m_ConstantInt(&ub)))
    return false;
  int64_t span = ub.getSExtValue() - lb.getSExtValue();
  return span > std::numeric_limits<int32_t>::max();
}

/// Rebuilds `loop` over i64 bounds (sign-extended), its body, moved over,
/// reading the i64 induction variable truncated to i32: the same values,
/// since every one lies in [lb, ub).
void widen(scf::ForOp loop) {
  IRRewriter rewriter(loop);
  Location loc = loop.getLoc();
  Type i64 = rewriter.getI64Type();
  auto ext = [&](Value v) {
    return arith::ExtSIOp::create(rewriter, loc, i64, v);
  };
  Value lb = ext(loop.getLowerBound());
  Value ub = ext(loop.getUpperBound());
  Value step = ext(loop.getStep());
  auto wide =
      scf::ForOp::create(rewriter, loc, lb, ub, step, loop.getInitArgs());
  wide->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  // The builder's body holds a yield only where there are no iteration
  // arguments; the old body brings its own.
  Block *body = wide.getBody();
  body->clear();
  rewriter.setInsertionPointToStart(body);
  SmallVector<Value> args = {arith::TruncIOp::create(
      rewriter, loc, rewriter.getI32Type(), wide.getInductionVar())};
  llvm::append_range(args, wide.getRegionIterArgs());
  rewriter.mergeBlocks(loop.getBody(), body, args);
  rewriter.replaceOp(loop, wide.getResults());
}

struct TTWidenOverflowingLoops
    : kiln::impl::TTWidenOverflowingLoopsBase<TTWidenOverflowingLoops> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) {
      if (spanOverflows(loop))
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops)
      widen(loop);
  }
};

} // namespace
