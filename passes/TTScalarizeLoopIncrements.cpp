//===- TTScalarizeLoopIncrements.cpp - uniform loop increments as scalars -===//
//
// A loop-carried integer tensor that each iteration advances by one value
// for all its elements (`offs = offs + splat(step)`) is carried as the
// scalar sum of the steps instead, and rebuilt as `init + splat(sum)` where
// it is used (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "dialects/tt/IR/TTOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace kiln {
#define GEN_PASS_DEF_TTSCALARIZELOOPINCREMENTS
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

namespace {

/// The scalar every element of the integer tensor `v` equals, if `v` is a
/// tt.splat of it (through tt.broadcast / tt.expand_dims / tt.reshape) or
/// a splat constant (materialized before `v`'s use at `builder`'s point).
/// The walk stops at an op it has seen: unreachable blocks may hold cycles
/// (`%a = tt.reshape %b`, `%b = tt.reshape %a`).
Value uniformScalar(Value v, OpBuilder &builder) {
  llvm::SmallPtrSet<Operation *, 4> seen;
  while (Operation *def = v.getDefiningOp()) {
    if (!seen.insert(def).second)
      break;
    if (auto splat = dyn_cast<tt::SplatOp>(def))
      return splat.getSrc();
    if (isa<tt::BroadcastOp, tt::ExpandDimsOp, tt::ReshapeOp>(def)) {
      v = def->getOperand(0);
      continue;
    }
    SplatElementsAttr attr;
    if (matchPattern(v, m_Constant(&attr)) &&
        isa<IntegerType>(attr.getElementType()))
      return arith::ConstantOp::create(builder, def->getLoc(),
                                       attr.getSplatValue<TypedAttr>());
    break;
  }
  return Value();
}

/// The iteration arguments of `loop` to carry as scalars, with the
/// per-iteration step of each (created before the yield if a constant).
SmallVector<std::pair<unsigned, Value>> candidates(scf::ForOp loop) {
  SmallVector<std::pair<unsigned, Value>> found;
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  OpBuilder builder(yield);
  for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type || !type.getElementType().isSignlessInteger())
      continue;
    auto add = yield.getOperand(i).getDefiningOp<arith::AddIOp>();
    if (!add)
      continue;
    Value other = add.getLhs() == arg   ? add.getRhs()
                  : add.getRhs() == arg ? add.getLhs()
                                        : Value();
    if (!other)
      continue;
    if (Value step = uniformScalar(other, builder))
      found.push_back({unsigned(i), step});
  }
  return found;
}

void scalarize(scf::ForOp loop) {
  SmallVector<std::pair<unsigned, Value>> found = candidates(loop);
  if (found.empty())
    return;
  Location loc = loop.getLoc();
  IRRewriter rewriter(loop.getContext());
  rewriter.setInsertionPoint(loop);
  SmallVector<Value> zeros;
  for (auto [i, step] : found)
    zeros.push_back(arith::ConstantOp::create(
        rewriter, loc, rewriter.getZeroAttr(step.getType())));
  FailureOr<LoopLikeOpInterface> replaced =
      cast<LoopLikeOpInterface>(loop.getOperation())
          .replaceWithAdditionalYields(
              rewriter, zeros, /*replaceInitOperandUsesInLoop=*/false,
              [&](OpBuilder &b, Location yieldLoc,
                  ArrayRef<BlockArgument> sums) {
                SmallVector<Value> next;
                for (auto [sum, entry] : llvm::zip(sums, found))
                  next.push_back(
                      arith::AddIOp::create(b, yieldLoc, sum, entry.second));
                return next;
              });
  if (failed(replaced))
    return;
  auto newLoop = cast<scf::ForOp>(replaced->getOperation());
  unsigned firstSum = newLoop.getNumRegionIterArgs() - found.size();
  auto rebuild = [&](OpBuilder &b, Value init, Value sum) -> Value {
    auto type = cast<RankedTensorType>(init.getType());
    Value splat = tt::SplatOp::create(b, loc, type, sum);
    return arith::AddIOp::create(b, loc, init, splat);
  };
  for (auto [k, entry] : llvm::enumerate(found)) {
    unsigned i = entry.first;
    Value init = newLoop.getInitArgs()[i];
    BlockArgument arg = newLoop.getRegionIterArgs()[i];
    BlockArgument sum = newLoop.getRegionIterArgs()[firstSum + k];
    // Inside: the tensor is its initial value plus the steps so far; the
    // old argument is yielded unchanged (the canonicalizer drops it).
    rewriter.setInsertionPointToStart(newLoop.getBody());
    rewriter.replaceAllUsesWith(arg, rebuild(rewriter, init, sum));
    newLoop.getBody()->getTerminator()->setOperand(i, arg);
    // After: the initial value plus all the steps.
    rewriter.setInsertionPointAfter(newLoop);
    rewriter.replaceAllUsesWith(
        newLoop.getResult(i),
        rebuild(rewriter, init, newLoop.getResult(firstSum + k)));
  }
}

struct TTScalarizeLoopIncrements
    : kiln::impl::TTScalarizeLoopIncrementsBase<TTScalarizeLoopIncrements> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops)
      scalarize(loop);
  }
};

} // namespace
