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

/// Rebuilds `loop` over i64 bounds (sign-extended), its body reading the
/// i64 induction variable truncated to i32: the same values, since every
/// one lies in [lb, ub).
void widen(scf::ForOp loop) {
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  Type i64 = b.getI64Type();
  auto ext = [&](Value v) { return arith::ExtSIOp::create(b, loc, i64, v); };
  Value lb = ext(loop.getLowerBound());
  Value ub = ext(loop.getUpperBound());
  Value step = ext(loop.getStep());
  auto wide = scf::ForOp::create(b, loc, lb, ub, step, loop.getInitArgs());
  wide->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  Block *body = wide.getBody();
  // The builder gave the new loop an empty body (a yield only where there
  // are no iteration arguments): take the old body's ops instead.
  body->clear();
  Block *old = loop.getBody();
  OpBuilder inner = OpBuilder::atBlockBegin(body);
  Value iv = arith::TruncIOp::create(inner, loc, b.getI32Type(),
                                     wide.getInductionVar());
  IRMapping map;
  map.map(loop.getInductionVar(), iv);
  for (auto [from, to] :
       llvm::zip(loop.getRegionIterArgs(), wide.getRegionIterArgs()))
    map.map(from, to);
  for (Operation &op : *old)
    inner.clone(op, map);
  loop.replaceAllUsesWith(wide.getResults());
  loop.erase();
}

struct TTWidenOverflowingLoops
    : kiln::impl::TTWidenOverflowingLoopsBase<TTWidenOverflowingLoops> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) {
      if (spanOverflows(loop))
        loops.push_back(loop);
    });
    // Inner loops first (walk order): an outer loop's clone then copies
    // the widened inner one.
    for (scf::ForOp loop : loops)
      widen(loop);
  }
};

} // namespace
