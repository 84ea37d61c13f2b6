//===- KGPUPipelineDotLoops.cpp - multi-buffered tensor-core K loops ------===//
//
// Rewrites the K loop of a tensor-core matmul so that global-to-shared
// copies (cp.async) of the next num-stages - 1 iterations overlap the
// multiply of the current one. See Passes.td for when it applies.
//
// Before (one iteration does everything in order):
//   scf.for %k iter_args(%pa, %pb, %acc) {
//     %a = tt.load %pa, %ma ; %b = tt.load %pb, %mb
//     %d = tt.dot %a, %b, %acc          // #mma accumulator
//     scf.yield next(%pa), next(%pb), %d
//   }
// After (S = num-stages slots):
//   async_copy A, B of iterations 0 .. S-2 into slots 0 .. S-2 (one group each)
//   scf.for %k iter_args(%acc, %s = 0, %pa' = ptrs of iteration S-1, ...) {
//     kgpu.async_wait S-2                  // slot %s = i % S has landed
//     async_copy A, B of iteration i+S-1 into slot (i+S-1) % S ; commit
//                                          // = (%s == 0 ? S-1 : %s-1)
//     %d = kgpu.local_dot %acc slot %s
//     scf.yield %d, (%s + 1 == S ? 0 : %s + 1), next(%pa'), ...
//   }
//   kgpu.async_wait 0
// With wgmma (sm_90a) the body is: async_wait S-2; local_dot (issued, not
// waited for); wgmma_wait 1 (the previous iteration's group is done, this
// one stays in flight, its accumulator tied through the wait and the back
// edge into the next group); barrier (no warpgroup still reads slot
// (i-1) % S); the copies of iteration i+S-1 into that slot. The loop runs
// under `if (lb < ub)`, with the wgmma_wait 0 of its last group inside,
// and starts from an accumulator tied through a wgmma_fence: otherwise
// ptxas serializes every wgmma (C7514). Alternatives measured slower on the
// H200 (docs/BENCHMARKS.md): waiting within each iteration, before or after
// issuing the copies, and copies only S-2 iterations ahead.
//
// Attention loops (matchSlotLoop) copy B into two slots per dot. Other
// tensor-core loops whose tiles cannot be staged (an operand computed from
// the load, two dots) keep their loads in registers, one iteration ahead
// (matchPrefetchLoop):
//   %a0 = tt.load ptrs(lb), mask & (lb < ub)
//   scf.for %k iter_args(..., %a = %a0) {
//     %an = tt.load ptrs(k + step), mask & (k + step < ub)
//     ... the load's uses read %a ...
//     scf.yield ..., %an
//   }
//
//===----------------------------------------------------------------------===//

#include "passes/AxisInfo.h"
#include "passes/Passes.h"
#include "passes/TensorCoreDots.h"

#include "dialects/kgpu/IR/KGPULayouts.h"
#include "dialects/tt/IR/TTOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

#include <array>

namespace kiln {
#define GEN_PASS_DEF_KGPUPIPELINEDOTLOOPS
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

namespace {

using kiln::kgpu::getPaddedRowStride;

/// What a pipelinable loop looks like (see matchLoop).
struct LoopPlan {
  tt::DotOp dot;
  tt::LoadOp loads[2]; // A, B
  unsigned accIndex;   // iteration argument holding the accumulator
  /// Body ops computing the loads' pointers and masks and the carried
  /// pointers' next values, in body order.
  SmallVector<Operation *> slice;
  /// Iteration arguments (other than the accumulator) those ops read.
  SmallVector<unsigned> carried;
  /// B's columns are contiguous (K-major B): stored N rows of K elements.
  bool bKMajor = false;
  /// A's columns are contiguous (M-major A, as a transposed input gives
  /// it): stored K rows of M elements, for wgmma only (imm-trans-a).
  bool aMMajor = false;
  /// B is tt.trans [1, 0] of the load (an N x K tile, K contiguous), or
  /// for f8 the upcast of one: the tile is copied as loaded, N rows of K
  /// (bKMajor), not transposed.
  tt::TransOp bTrans;
  /// Both operands are f8 loads upcast to f16 (tt.fp_to_fp, from
  /// tt-upcast-f8-dot-operands): the slots hold the f8 bytes and local_dot
  /// upcasts its fragments (aType / bType are then the f8 tiles).
  tt::FpToFpOp upcasts[2];
  /// The dot starts from zero and `accAdd` (arith.addf of the carried
  /// accumulator and the dot) is what the loop carries, as Triton's
  /// frontend writes `acc += tl.dot(a, b)` for f8 operands.
  arith::AddFOp accAdd;
  /// The loop multiplies with wgmma (sm_90a).
  bool useWgmma = false;
  /// The slice converts layouts (shared memory at offset 0): the slots
  /// take a region of their own (kOwnSharedMemoryAttr).
  bool ownRegion = false;
  /// Bytes of one slot of A and one of B (slotSizes).
  std::array<int64_t, 2> slotBytes = {0, 0};
};

/// A tt.dot of a loop that kgpu-pipeline-dot-loops prefetches B for
/// (SlotLoopPlan): attention's Q K^T and P V.
struct SlotDot {
  tt::DotOp dot;
  /// B's load in the loop body, and the tt.trans between it and the dot.
  tt::LoadOp bLoad;
  tt::TransOp bTrans;
  /// B stored N rows of K (wgmma's K-major B): the tile of tt.trans(X) is X
  /// as loaded; a K x N tile with contiguous columns is copied transposed.
  bool bKMajor = false, bTranspose = false;
  /// A loaded before the loop, copied once; null: A from registers (in the
  /// accumulator's layout, attention's P).
  tt::LoadOp aLoad;
  /// A computed before the loop by other ops than such a load (Q scaled
  /// by the softmax scale): converted to the accumulator's layout once,
  /// before the loop, and read from registers.
  bool aToRegs = false;
  int64_t aOffset = 0, bOffset = 0, bSlotBytes = 0;
};

/// A loop whose dots (all on wgmma) read B tiles the loop loads: the next
/// iteration's tiles are copied (cp.async) into the other of two slots
/// while this one's are multiplied (see matchSlotLoop).
struct SlotLoopPlan {
  SmallVector<SlotDot> dots;
  /// Body ops that compute the B loads' pointers and masks from the
  /// iteration arguments, in body order: cloned for the next iteration.
  SmallVector<Operation *> ptrOps;
  /// Those ops and, for each carried argument they read, the ops that
  /// compute its next value: moved to the top of the body, in body order.
  SmallVector<Operation *> moved;
  /// Iteration arguments ptrOps read.
  SmallVector<unsigned> carried;
  /// Shared memory the slots take, from offset 0.
  int64_t bytes = 0;
  /// Slots of each B: the loop's copies run slots - 1 iterations ahead.
  int64_t slots = 2;
  /// The body holds other ops that may use shared memory (layout
  /// conversions, transposes, reductions across warps): the slots take a
  /// region of their own (kOwnSharedMemoryAttr).
  bool ownRegion = false;
  /// A tile the loop loads and converts to the dot's accumulator layout,
  /// from which it computes the dot's A (kgpu-assign-layouts' register-a):
  /// copied into slots of its own with B, rows padded by 16 bytes, and read
  /// back in that layout (kgpu.local_load) instead.
  struct StagedTile {
    kgpu::ConvertLayoutOp convert;
    tt::LoadOp load;
    int64_t rowStride = 0, slotBytes = 0, offset = 0;
  };
  SmallVector<StagedTile> staged;
  /// With staged tiles and pointers carried by the loop, the pure ops that
  /// compute the carried arguments' next values, in body order: the loop
  /// then carries those arguments' values slots - 1 iterations ahead too.
  SmallVector<Operation *> nextOps;
};

/// A loop with a tensor-core dot that neither plan above takes (an operand
/// computed from a loaded tile: scaled, or upcast by a vector loaded in the
/// loop; a loop-invariant A beside warps along N): its tile loads are
/// prefetched one iteration ahead into registers (see matchPrefetchLoop).
struct PrefetchPlan {
  /// The body's tensor loads, in body order.
  SmallVector<tt::LoadOp> loads;
  /// Body ops computing those loads' pointers, masks and `other` values,
  /// in body order (cloned for the next iteration).
  SmallVector<Operation *> ptrOps;
  /// Body ops computing the next values of the carried arguments ptrOps
  /// read, in body order (cloned at the top of the body).
  SmallVector<Operation *> nextOps;
  /// Iteration arguments ptrOps and nextOps read.
  SmallVector<unsigned> carried;
};

/// maxNumImpreciseAcc of an f8 tt.dot that leaves every product to the
/// accumulator's own precision: 2^30, Triton's max_num_imprecise_acc
/// default on CUDA (the TTIR of Triton and Inductor carries it).
constexpr int64_t kUnboundedImpreciseAcc = int64_t(1) << 30;

/// Whether `other` (a load's value for masked-off elements, or a dot's C) is
/// absent or a splat of +0.0 or integer 0: what a copy's zero fill (cp.async
/// with src-size 0) gives. -0.0 is not: the fill gives +0.0.
bool isZeroOrAbsent(Value other) {
  if (!other)
    return true;
  Attribute cst;
  if (!matchPattern(other, m_Constant(&cst)))
    return false;
  auto dense = dyn_cast<DenseElementsAttr>(cst);
  if (!dense || !dense.isSplat())
    return false;
  if (auto f = dyn_cast<FloatType>(dense.getElementType()))
    return dense.getSplatValue<APFloat>().isPosZero();
  if (isa<IntegerType>(dense.getElementType()))
    return dense.getSplatValue<APInt>().isZero();
  return false;
}

/// `mask` (may be null) and-ed with `live` (i1: whether the iteration
/// exists) splat to the shape and layout of `ptr`, a tensor of pointers.
Value maskByLive(OpBuilder &b, Location loc, Value ptr, Value mask,
                 Value live) {
  auto ptrType = cast<RankedTensorType>(ptr.getType());
  Value liveMask = tt::SplatOp::create(
      b, loc,
      RankedTensorType::get(ptrType.getShape(), b.getI1Type(),
                            ptrType.getEncoding()),
      live);
  return mask ? arith::AndIOp::create(b, loc, mask, liveMask).getResult()
              : liveMask;
}

/// kgpu.async_copy of the tile `ptr` points at into `slot` (at byte
/// `offset`, `slotBytes` apart), masked by `mask` (may be null) and, where
/// `live` is set, by whether the iteration exists; `own` puts the copy in
/// its loop's region of its own (kOwnSharedMemoryAttr).
void copyTile(OpBuilder &b, Location loc, Value ptr, Value mask, Value live,
              Value slot, int64_t offset, int64_t slotBytes,
              int64_t rowStride, int swizzle, bool transpose, bool own) {
  if (live)
    mask = maskByLive(b, loc, ptr, mask, live);
  auto copy = kgpu::AsyncCopyOp::create(
      b, loc, ptr, mask, slot, b.getI64IntegerAttr(offset),
      b.getI64IntegerAttr(slotBytes), b.getI64IntegerAttr(rowStride),
      b.getI32IntegerAttr(swizzle), transpose ? b.getUnitAttr() : UnitAttr());
  if (own)
    copy->setAttr(kOwnSharedMemoryAttr, b.getUnitAttr());
}

/// Adds to `into` the ops of `body` that the values `work` depend on,
/// back to values defined outside the body and to its block arguments;
/// the iteration arguments reached (not the induction variable) go into
/// `carried` where it is given. False at the first op `allowed` refuses.
bool collectBodySlice(Block *body, SmallVector<Value> work,
                      function_ref<bool(Operation *)> allowed,
                      llvm::SetVector<Operation *> &into,
                      llvm::SetVector<unsigned> *carried) {
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (carried && arg.getOwner() == body && arg.getArgNumber() != 0)
        carried->insert(arg.getArgNumber() - 1);
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != body || into.contains(def))
      continue;
    if (!allowed(def))
      return false;
    into.insert(def);
    llvm::append_range(work, def->getOperands());
  }
  return true;
}

struct KGPUPipelineDotLoops
    : kiln::impl::KGPUPipelineDotLoopsBase<KGPUPipelineDotLoops> {
  using KGPUPipelineDotLoopsBase::KGPUPipelineDotLoopsBase;

  void runOnOperation() override {
    if (numStages < 2)
      return;
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops) {
      // A loop that never runs has nothing to overlap; pipelined, it would
      // leave prologue copies that fill slots no op reads once -canonicalize
      // folds the loop away (kgpu-convert-to-llvm rejects those).
      if (std::optional<APInt> trips = loop.getStaticTripCount();
          trips && trips->isZero())
        continue;
      if (std::optional<LoopPlan> plan = matchLoop(loop))
        rewrite(loop, *plan);
      else if (std::optional<SlotLoopPlan> slots = matchSlotLoop(loop)) {
        bool staged = !slots->staged.empty();
        scf::ForOp slotLoop = rewriteSlotLoop(loop, *slots);
        // What staging left in registers (a vector of per-K scales).
        if (staged)
          if (std::optional<PrefetchPlan> small =
                  matchPrefetchLoop(slotLoop, Budget::Small))
            rewritePrefetchLoop(slotLoop, *small);
      }
      else if (std::optional<PrefetchPlan> prefetch = matchPrefetchLoop(loop))
        rewritePrefetchLoop(loop, *prefetch);
      else if (std::optional<PrefetchPlan> staged =
                   stageTiles ? matchPrefetchLoop(loop, Budget::Unchecked)
                              : std::nullopt)
        if (std::optional<scf::ForOp> stagedLoop =
                rewriteStagedLoop(loop, *staged))
          // What staging left in registers (a vector of per-K scales).
          if (std::optional<PrefetchPlan> small =
                  matchPrefetchLoop(*stagedLoop, Budget::Small))
            rewritePrefetchLoop(*stagedLoop, *small);
    }
  }

  /// What matchPrefetchLoop checks of the loaded tiles' registers: the
  /// register form's budget, nothing (the staged form keeps no tile in
  /// flight in registers), or a small budget (what the staged form leaves).
  enum class Budget { Registers, Unchecked, Small };
  /// Registers per thread of the loads prefetched beside a staged loop.
  static constexpr int64_t kMaxSmallPrefetchRegisters = 16;
  /// Shared memory the staged form's slots may take.
  static constexpr int64_t kMaxStagedBytes = 128 * 1024;

  /// 32-bit registers a thread holds one prefetched set of tiles in, at
  /// most: the tiles of the next iteration are live across the whole body,
  /// beside the accumulator and this iteration's tiles.
  static constexpr int64_t kMaxPrefetchRegisters = 64;
  /// ... and with the dots' accumulators and the body's largest other
  /// temporary (numbers only: pointer arithmetic mostly folds into a base
  /// and constant offsets) at most. Not a count of live registers (this
  /// iteration's tiles, masks and pointers are left out) but a threshold
  /// fitted to measurements. Build machine, ptxas 13.0, sm_90 / sm_90a: at
  /// 176 to 192 (a 64 x 128 f32 accumulator on 4 warps, 64 registers of
  /// tiles, an operand upcast to f32 for silu or a scale) kernels spilled
  /// 56-560 bytes more, and at 152 one spilled 16 bytes; up to 144 none
  /// spilled, and such kernels ran 1.00-1.77x faster on the H200
  /// (docs/BENCHMARKS.md, twenty-sixth session); k64_at_mmajor_square
  /// (192) ran 3% slower.
  static constexpr int64_t kMaxPrefetchPressureRegisters = 144;

  /// 32-bit registers per thread of a tensor with a layout: its elements'
  /// bits, pointers counted as `pointerBits` (0: left out); 0 for anything
  /// else (a scalar, a tensor without a layout).
  static int64_t tensorRegisters(Type type, unsigned pointerBits = 0) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !tensor.getEncoding())
      return 0;
    Type elem = tensor.getElementType();
    unsigned bits = isa<tt::PointerType>(elem) ? pointerBits
                    : elem.isIntOrFloat()      ? elem.getIntOrFloatBitWidth()
                                               : 0;
    return llvm::divideCeil(kgpu::getNumElemsPerThread(tensor.getEncoding(),
                                                       tensor.getShape()) *
                                bits,
                            32);
  }

  /// A loop the two plans above leave (see PrefetchPlan). It qualifies
  /// where all of these hold:
  /// - an i32 induction variable compared signed;
  /// - a body without nested regions whose ops, but for its loads, have no
  ///   memory effects (no store, atomic, barrier, assert or print);
  /// - a tt.dot with a #kgpu.mma accumulator;
  /// - tensor tt.loads, none volatile, through tensors of pointers, whose
  ///   pointers, masks and `other` values pure ops compute from the
  ///   induction variable, values defined before the loop and iteration
  ///   arguments that pure ops advance;
  /// - loaded tiles of at most kMaxPrefetchRegisters per thread, and at
  ///   most kMaxPrefetchPressureRegisters with the dots' accumulators and
  ///   the body's largest other temporary.
  std::optional<PrefetchPlan>
  matchPrefetchLoop(scf::ForOp loop, Budget budget = Budget::Registers) {
    if (!loop.getInductionVar().getType().isInteger(32) ||
        loop.getUnsignedCmp())
      return std::nullopt;
    Block *body = loop.getBody();
    PrefetchPlan plan;
    bool mmaDot = false;
    int64_t regs = 0, accRegs = 0;
    for (Operation &op : body->without_terminator()) {
      if (op.getNumRegions() != 0)
        return std::nullopt;
      if (auto dot = dyn_cast<tt::DotOp>(op)) {
        mmaDot |= isa<kgpu::MmaEncodingAttr>(dot.getType().getEncoding());
        accRegs += tensorRegisters(dot.getType());
      }
      if (auto load = dyn_cast<tt::LoadOp>(op)) {
        auto type = dyn_cast<RankedTensorType>(load.getType());
        if (load.getIsVolatile())
          return std::nullopt;
        if (!type)
          continue; // a scalar load stays where it is
        // A block pointer, or IR before kgpu-assign-layouts.
        if (!isa<RankedTensorType>(load.getPtr().getType()) ||
            !type.getEncoding())
          return std::nullopt;
        regs += tensorRegisters(type, /*pointerBits=*/64);
        plan.loads.push_back(load);
        continue;
      }
      // A staged loop's own copies (rewriteStagedLoop) touch only its
      // slots.
      // (A slot loop's multiply too: kgpu.local_dot and its wait.)
      if (budget == Budget::Small &&
          isa<kgpu::AsyncWaitOp, kgpu::AsyncCopyOp, kgpu::AsyncCommitGroupOp,
              kgpu::LocalLoadOp, kgpu::LocalDotOp, kgpu::WgmmaWaitOp,
              kgpu::BarrierOp>(op)) {
        mmaDot |= isa<kgpu::LocalDotOp>(op);
        continue;
      }
      if (!isMemoryEffectFree(&op))
        return std::nullopt;
    }
    if (!mmaDot || plan.loads.empty())
      return std::nullopt;
    // The body's largest temporary besides the loads and dots (an operand
    // upcast to f32 to be scaled) is live beside both sets of tiles.
    int64_t temp = 0;
    for (Operation &op : body->without_terminator()) {
      if (isa<tt::LoadOp, tt::DotOp>(op))
        continue;
      int64_t results = 0;
      for (Value v : op.getResults())
        results += tensorRegisters(v.getType());
      temp = std::max(temp, results);
    }
    if (budget == Budget::Registers &&
        (regs > kMaxPrefetchRegisters ||
         accRegs + regs + temp > kMaxPrefetchPressureRegisters))
      return std::nullopt;
    if (budget == Budget::Small && regs > kMaxSmallPrefetchRegisters)
      return std::nullopt;

    SmallVector<Value> operands;
    for (tt::LoadOp load : plan.loads)
      llvm::append_range(operands, load->getOperands());
    if (!sliceLoadOperands(body, std::move(operands), plan))
      return std::nullopt;
    return plan;
  }

  /// Fills `plan`'s ptrOps, nextOps and carried: the pure ops without
  /// regions (no dot, no load) of `body` from `operands` (loads' pointers,
  /// masks, `other` values) back to the iteration arguments, closed under
  /// those arguments' next values, in body order. False where such a
  /// value depends on any other op.
  static bool sliceLoadOperands(Block *body, SmallVector<Value> operands,
                                PrefetchPlan &plan) {
    auto yield = cast<scf::YieldOp>(body->getTerminator());
    llvm::SetVector<Operation *> ptrOps, nextOps;
    llvm::SetVector<unsigned> carried;
    auto pureNoDot = [](Operation *op) {
      return isPure(op) && !isa<tt::DotOp>(op);
    };
    if (!collectBodySlice(body, std::move(operands), pureNoDot, ptrOps,
                          &carried))
      return false;
    for (size_t i = 0; i < carried.size(); ++i)
      if (!collectBodySlice(body, {yield.getOperand(carried[i])}, pureNoDot,
                            nextOps, &carried))
        return false;
    plan.ptrOps.clear();
    plan.nextOps.clear();
    for (Operation &op : body->without_terminator()) {
      if (ptrOps.contains(&op))
        plan.ptrOps.push_back(&op);
      if (nextOps.contains(&op))
        plan.nextOps.push_back(&op);
    }
    plan.carried.assign(carried.begin(), carried.end());
    return true;
  }

  /// `loop` rebuilt with `inits` as further iteration arguments, each
  /// yielded unchanged until the caller sets its yield operand.
  static scf::ForOp appendIterArgs(IRRewriter &rewriter, scf::ForOp loop,
                                   ValueRange inits) {
    rewriter.setInsertionPoint(loop);
    auto replaced = loop.replaceWithAdditionalYields(
        rewriter, inits, /*replaceInitOperandUsesInLoop=*/false,
        [&](OpBuilder &, Location, ArrayRef<BlockArgument> extra) {
          return SmallVector<Value>(extra.begin(), extra.end());
        });
    return cast<scf::ForOp>(replaced->getOperation());
  }

  /// The slot before `slot` and the one after it, of S slots carried as
  /// an iteration argument: a compare and a select each, as remainders by
  /// S cost ptxas a multiply-high sequence per iteration.
  static Value slotBefore(OpBuilder &b, Location loc, Value slot, int S) {
    auto c32 = [&](int64_t v) {
      return arith::ConstantOp::create(b, loc, b.getI32Type(),
                                       b.getI32IntegerAttr(v))
          .getResult();
    };
    return arith::SelectOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, slot, c32(0)),
        c32(S - 1), arith::SubIOp::create(b, loc, slot, c32(1)));
  }
  static Value slotAfter(OpBuilder &b, Location loc, Value slot, int S) {
    auto c32 = [&](int64_t v) {
      return arith::ConstantOp::create(b, loc, b.getI32Type(),
                                       b.getI32IntegerAttr(v))
          .getResult();
    };
    Value up = arith::AddIOp::create(b, loc, slot, c32(1));
    return arith::SelectOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, up, c32(S)),
        c32(0), up);
  }

  /// Loads `load`'s tile for the iteration `map` gives, masked off where
  /// `live` (that iteration exists) is false.
  static Value prefetchLoad(OpBuilder &b, tt::LoadOp load, IRMapping &map,
                            Value live) {
    Value mask = maskByLive(
        b, load.getLoc(), load.getPtr(),
        load.getMask() ? map.lookupOrDefault(load.getMask()) : Value(), live);
    auto copy = cast<tt::LoadOp>(b.clone(*load, map));
    copy.getMaskMutable().assign(mask);
    return copy.getResult();
  }

  /// Each tile load of iteration i + 1 is issued at the top of iteration i
  /// (iteration 0's before the loop) and carried to it: its latency
  /// overlaps an iteration's multiply instead of stalling it. Past the
  /// last iteration the loads are masked off. Loads num-stages - 1
  /// iterations ahead, through that many carried sets of tiles, were
  /// slower on the H200 in 5 of 8 kernels (docs/BENCHMARKS.md,
  /// twenty-sixth session).
  void rewritePrefetchLoop(scf::ForOp loop, PrefetchPlan &plan) {
    Location loc = loop.getLoc();
    IRRewriter rewriter(loop.getContext());
    OpBuilder b(loop);
    Value lb = loop.getLowerBound(), ub = loop.getUpperBound(),
          step = loop.getStep();
    // The tiles of iteration `base` (k = 0) or the one after it (k = 1)
    // of `forOp`, its carried arguments as `map` maps them.
    auto loadTiles = [&](OpBuilder &at, scf::ForOp forOp, Value base,
                         int64_t k, IRMapping &map, SmallVector<Value> &into) {
      map.map(forOp.getInductionVar(),
              k == 0 ? base
                     : arith::AddIOp::create(at, loc, base, step).getResult());
      for (Operation *op : plan.ptrOps)
        at.clone(*op, map);
      Value live = iterationExists(at, loc, base, k, step, ub);
      for (tt::LoadOp load : plan.loads)
        into.push_back(prefetchLoad(at, load, map, live));
    };
    IRMapping first;
    for (unsigned idx : plan.carried)
      first.map(loop.getRegionIterArgs()[idx], loop.getInitArgs()[idx]);
    SmallVector<Value> inits;
    loadTiles(b, loop, lb, 0, first, inits);
    scf::ForOp newLoop = appendIterArgs(rewriter, loop, inits);
    Block *body = newLoop.getBody();
    auto yield = cast<scf::YieldOp>(body->getTerminator());
    unsigned firstExtra = newLoop.getNumRegionIterArgs() - inits.size();
    ArrayRef<BlockArgument> tiles =
        newLoop.getRegionIterArgs().drop_front(firstExtra);
    // At the top of the body: the carried arguments' next values, then
    // iteration i + 1's pointers and tiles, yielded to it.
    OpBuilder tb = OpBuilder::atBlockBegin(body);
    IRMapping now, next;
    for (Operation *op : plan.nextOps)
      tb.clone(*op, now);
    for (unsigned idx : plan.carried)
      next.map(newLoop.getRegionIterArgs()[idx],
               now.lookupOrDefault(yield.getOperand(idx)));
    Value iv = newLoop.getInductionVar();
    SmallVector<Value> prefetched;
    loadTiles(tb, newLoop, iv, 1, next, prefetched);
    for (auto [k, v] : llvm::enumerate(prefetched))
      yield.setOperand(firstExtra + k, v);
    for (auto [load, arg] : llvm::zip(plan.loads, tiles)) {
      load.getResult().replaceAllUsesWith(arg);
      load.erase();
    }
    // The loads' old address computations, where nothing else reads them.
    for (Operation *op : llvm::reverse(plan.ptrOps))
      if (op->use_empty())
        op->erase();
  }

  /// A loop matchPrefetchLoop takes but for its register budget: its 2-D
  /// tile loads (blocked layouts, a zero or no `other`, 4 to 16 bytes per
  /// thread along a contiguous dimension) are staged through shared
  /// memory instead, unless another tile load of more than
  /// kMaxSmallPrefetchRegisters would stay in the iteration or the tiles'
  /// pointers come from tensors of pointers defined before the loop (more
  /// than kMaxSmallPrefetchRegisters of them). Each is copied (cp.async) num-stages - 1 iterations
  /// ahead into slots of its own and read back by each thread in the
  /// load's layout (kgpu.local_load, after the iteration's
  /// kgpu.async_wait, whose barrier also keeps a slot from being refilled
  /// while a thread holding a replicated element still reads it):
  ///   async_wait 0 ; copies of iterations 0 .. S-2 into slots 0 .. S-2
  ///   scf.for %k iter_args(..., %s = 0, %ahead = carried of iteration S-1) {
  ///     kgpu.async_wait S-2                   // slot %s = i % S landed
  ///     copies of iteration i+S-1 (%ahead) into slot (i+S-1) % S ; commit
  ///     ... the body, each staged load now kgpu.local_load slot %s ...
  ///     scf.yield ..., (%s + 1) % S, next(%ahead)
  ///   }
  ///   kgpu.async_wait 0
  /// The slots lie above the shared memory the body's dot and conversions
  /// use (kOwnSharedMemoryAttr). Fewer stages are used where S slots would
  /// take more than kMaxStagedBytes (at least 2; otherwise the loop is
  /// left alone). Returns the new loop.
  std::optional<scf::ForOp> rewriteStagedLoop(scf::ForOp loop,
                                              PrefetchPlan &plan) {
    struct Staged {
      tt::LoadOp load;
      bool transpose;
      int64_t rowStride, slotBytes, offset;
    };
    AxisInfoAnalysis axisInfo;
    SmallVector<Staged> staged;
    int64_t stageBytes = 0;
    // Which loops staging slowed down on the H200 (docs/BENCHMARKS.md,
    // twenty-seventh and twenty-eighth sessions) decides two refusals:
    // - A tile load that cannot be staged and is too large for the small
    //   prefetch beside the staged form keeps its latency in every
    //   iteration, while the staged tiles add slots, a barrier and
    //   registers (bt_biasn_rev, B read N-reversed: 1.38x slower, spills).
    // - Below, at the slice of the copies' pointers.
    for (tt::LoadOp load : plan.loads) {
      auto type = cast<RankedTensorType>(load.getType());
      Type elem = type.getElementType();
      bool alongDim0 = false;
      if (type.getRank() != 2 || !kgpu::LocalLoadOp::readsElementType(elem) ||
          !isZeroOrAbsent(load.getOther()) ||
          copyWidth(load, axisInfo, &alongDim0) == 0) {
        if (type.getRank() >= 2 &&
            tensorRegisters(type) > kMaxSmallPrefetchRegisters)
          return std::nullopt;
        continue;
      }
      int64_t bytes = elem.getIntOrFloatBitWidth() / 8;
      int64_t rows = type.getDimSize(alongDim0 ? 1 : 0),
              cols = type.getDimSize(alongDim0 ? 0 : 1);
      int64_t slotBytes = llvm::alignTo(rows * cols * bytes, 128);
      staged.push_back({load, alongDim0, cols, slotBytes, 0});
      stageBytes += slotBytes;
    }
    if (staged.empty())
      return std::nullopt;
    // A loop of at most one iteration gains nothing, and folded away
    // after this pass it would leave its slots outside any loop.
    if (std::optional<APInt> trips = loop.getStaticTripCount();
        trips && trips->ule(1))
      return std::nullopt;
    int S = numStages;
    while (S > 2 && S * stageBytes > kMaxStagedBytes)
      --S;
    if (S * stageBytes > kMaxStagedBytes)
      return std::nullopt;
    int64_t offset = 0;
    for (Staged &st : staged) {
      st.offset = offset;
      offset += S * st.slotBytes;
    }

    // The staged loads' pointers and masks, and the next values of the
    // iteration arguments they read.
    SmallVector<Value> operands;
    for (Staged &st : staged) {
      operands.push_back(st.load.getPtr());
      if (st.load.getMask())
        operands.push_back(st.load.getMask());
    }
    PrefetchPlan slice;
    if (!sliceLoadOperands(loop.getBody(), std::move(operands), slice))
      return std::nullopt;
    // - Tile pointers computed (in the body, or in a carried pointer's next
    //   value) from tensors of pointers defined before the loop, more than
    //   kMaxSmallPrefetchRegisters of them per thread (a splat counts as one
    //   pointer): all five such loops measured, which already spilled, ran
    //   1.26-1.62x slower staged. Those tensors, 64 bits an element, stay
    //   live across the loop beside the copies' pointers of a later
    //   iteration.
    llvm::SmallPtrSet<Value, 4> outside;
    int64_t outsideRegs = 0;
    auto countOutside = [&](Value v) {
      auto t = dyn_cast<RankedTensorType>(v.getType());
      if (!t || !isa<tt::PointerType>(t.getElementType()) ||
          !loop.isDefinedOutsideOfLoop(v) || !outside.insert(v).second)
        return;
      outsideRegs +=
          v.getDefiningOp<tt::SplatOp>() ? 2 : tensorRegisters(t, 64);
    };
    for (Staged &st : staged)
      countOutside(st.load.getPtr());
    for (ArrayRef<Operation *> ops : {ArrayRef(slice.ptrOps),
                                      ArrayRef(slice.nextOps)})
      for (Operation *op : ops)
        llvm::for_each(op->getOperands(), countOutside);
    if (outsideRegs > kMaxSmallPrefetchRegisters)
      return std::nullopt;
    ArrayRef<Operation *> ptrOps = slice.ptrOps, nextOps = slice.nextOps;
    ArrayRef<unsigned> carried = slice.carried;

    Location loc = loop.getLoc();
    IRRewriter rewriter(loop.getContext());
    OpBuilder b(loop);
    Type i32 = b.getI32Type();
    auto c32 = [&](OpBuilder &at, int64_t v) {
      return arith::ConstantOp::create(at, loc, i32, at.getI32IntegerAttr(v))
          .getResult();
    };
    Value lb = loop.getLowerBound(), ub = loop.getUpperBound(),
          step = loop.getStep();
    // Copies the staged tiles of the iteration at `iv` (live: whether it
    // exists) into `slot`, `args` being that iteration's carried values of
    // `forOp`; returns the next iteration's.
    auto issue = [&](OpBuilder &at, scf::ForOp forOp, Value iv, Value live,
                     Value slot, ArrayRef<Value> args) {
      auto forYield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
      IRMapping iteration;
      iteration.map(forOp.getInductionVar(), iv);
      for (auto [idx, v] : llvm::zip(carried, args))
        iteration.map(forOp.getRegionIterArgs()[idx], v);
      IRMapping map = iteration, nextMap = iteration;
      for (Operation *op : ptrOps)
        at.clone(*op, map);
      // A pointer or mask defined before the loop is used as it is.
      for (Staged &st : staged)
        copyTile(at, loc, map.lookupOrDefault(st.load.getPtr()),
                 st.load.getMask() ? map.lookupOrDefault(st.load.getMask())
                                   : Value(),
                 live, slot, st.offset, st.slotBytes, st.rowStride,
                 /*swizzle=*/0, st.transpose, /*own=*/true);
      kgpu::AsyncCommitGroupOp::create(at, loc);
      for (Operation *op : nextOps)
        at.clone(*op, nextMap);
      SmallVector<Value> next;
      for (unsigned idx : carried)
        next.push_back(nextMap.lookupOrDefault(forYield.getOperand(idx)));
      return next;
    };

    // Prologue: nobody may still read shared memory an earlier op used.
    kgpu::AsyncWaitOp::create(b, loc, 0);
    SmallVector<Value> args;
    for (unsigned idx : carried)
      args.push_back(loop.getInitArgs()[idx]);
    for (int s = 0; s < S - 1; ++s) {
      Value iv = arith::AddIOp::create(
          b, loc, lb, arith::MulIOp::create(b, loc, step, c32(b, s)));
      args = issue(b, loop, iv, iterationExists(b, loc, lb, s, step, ub),
                   c32(b, s), args);
    }
    SmallVector<Value> inits = {c32(b, 0)};
    inits.append(args);
    scf::ForOp newLoop = appendIterArgs(rewriter, loop, inits);
    Block *body = newLoop.getBody();
    auto yield = cast<scf::YieldOp>(body->getTerminator());
    unsigned firstExtra = newLoop.getNumRegionIterArgs() - inits.size();
    Value readSlot = newLoop.getRegionIterArgs()[firstExtra];
    SmallVector<Value> ahead(
        newLoop.getRegionIterArgs().drop_front(firstExtra + 1));

    OpBuilder tb = OpBuilder::atBlockBegin(body);
    kgpu::AsyncWaitOp::create(tb, loc, S - 2);
    Value writeSlot = slotBefore(tb, loc, readSlot, S);
    Value iv = newLoop.getInductionVar();
    Value ivAhead = arith::AddIOp::create(
        tb, loc, iv, arith::MulIOp::create(tb, loc, step, c32(tb, S - 1)));
    SmallVector<Value> nextAhead =
        issue(tb, newLoop, ivAhead,
              iterationExists(tb, loc, iv, S - 1, step, ub), writeSlot, ahead);
    for (Staged &st : staged) {
      OpBuilder at(st.load);
      auto read = kgpu::LocalLoadOp::create(
          at, st.load.getLoc(), st.load.getType(), readSlot,
          at.getI64IntegerAttr(st.offset), at.getI64IntegerAttr(st.slotBytes),
          at.getI64IntegerAttr(st.rowStride), at.getI32IntegerAttr(S),
          st.transpose ? at.getUnitAttr() : UnitAttr());
      read->setAttr(kOwnSharedMemoryAttr, at.getUnitAttr());
      st.load.getResult().replaceAllUsesWith(read.getResult());
      st.load.erase();
    }
    OpBuilder yb(yield);
    yield.setOperand(firstExtra, slotAfter(yb, loc, readSlot, S));
    for (auto [k, v] : llvm::enumerate(nextAhead))
      yield.setOperand(firstExtra + 1 + k, v);
    // The staged loads' old address computations, where nothing else
    // reads them.
    for (Operation *op : llvm::reverse(ptrOps))
      if (op->use_empty())
        op->erase();
    OpBuilder after(newLoop->getContext());
    after.setInsertionPointAfter(newLoop);
    kgpu::AsyncWaitOp::create(after, loc, 0);
    return newLoop;
  }

  /// Elements one thread can copy per cp.async (4, 8 or 16 bytes) along
  /// the rows of `load`'s tile (dimension 1), or, where `alongDim0` may be
  /// set (B), along dimension 0 for a tile whose columns are contiguous in
  /// global memory (stored transposed); 0 if neither.
  static unsigned copyWidth(tt::LoadOp load, AxisInfoAnalysis &axisInfo,
                            bool *alongDim0 = nullptr) {
    auto type = dyn_cast<RankedTensorType>(load.getPtr().getType());
    if (!type || type.getRank() != 2)
      return 0;
    auto blocked = dyn_cast<kgpu::BlockedEncodingAttr>(type.getEncoding());
    if (!blocked)
      return 0;
    unsigned dim = blocked.getOrder()[0];
    if (dim == 0 && !alongDim0)
      return 0;
    if (alongDim0)
      *alongDim0 = dim == 0;
    unsigned vec = std::min<unsigned>(
        blocked.getSizePerThread()[dim],
        axisInfo.getVectorWidth(load.getPtr(), load.getMask(), dim));
    // cp.async moves at least 4 bytes.
    unsigned bytes =
        getElementTypeOrSelf(load.getType()).getIntOrFloatBitWidth() / 8;
    return vec * bytes >= 4 ? vec : 0;
  }

  /// Whether wgmma multiplies `dot`: wgmmaComputes holds for the
  /// accumulator's warps (kgpu-assign-layouts mma-version=3: along M only,
  /// or in K loops 4 along M and the rest along N).
  static bool wgmmaFits(tt::DotOp dot) {
    auto mma = cast<kgpu::MmaEncodingAttr>(dot.getType().getEncoding());
    if (mma.getWarpsPerCTA()[1] > 1 && !dot->hasAttr(kWgmmaSplitNAttr))
      return false;
    return wgmmaComputes(dot, mma.getWarpsPerCTA()[0],
                         mma.getWarpsPerCTA()[1]);
  }

  /// Whether iteration argument `idx` of `loop` is a value nothing reads:
  /// its result is unused after the loop, and its next value is computed
  /// from itself, the induction variable, constants and values defined
  /// before the loop by pure ops of the body (no regions) whose results
  /// nothing else uses. Adds those ops to `ops` where it is.
  static bool isDeadCarriedValue(scf::ForOp loop, unsigned idx,
                                 llvm::SetVector<Operation *> &ops) {
    Block *body = loop.getBody();
    if (!loop.getResult(idx).use_empty())
      return false;
    Value arg = loop.getRegionIterArgs()[idx];
    Operation *yield = body->getTerminator();
    llvm::SetVector<Operation *> cycle;
    SmallVector<Value> work = {yield->getOperand(idx)};
    while (!work.empty()) {
      Value v = work.pop_back_val();
      if (v == arg)
        continue;
      if (auto blockArg = dyn_cast<BlockArgument>(v)) {
        // Another carried value (not the induction variable): not alone.
        if (blockArg.getOwner() == body && blockArg.getArgNumber() != 0)
          return false;
        continue;
      }
      Operation *def = v.getDefiningOp();
      if (def->getBlock() != body) {
        if (loop->isAncestor(def))
          return false;
        continue;
      }
      if (def->hasTrait<OpTrait::ConstantLike>() || cycle.contains(def))
        continue;
      if (!isPure(def) || def->getNumRegions() != 0)
        return false;
      cycle.insert(def);
      for (Value operand : def->getOperands())
        work.push_back(operand);
    }
    auto readOnlyByCycle = [&](Value v) {
      return llvm::all_of(v.getUses(), [&](OpOperand &use) {
        return cycle.contains(use.getOwner()) ||
               (use.getOwner() == yield && use.getOperandNumber() == idx);
      });
    };
    if (!readOnlyByCycle(arg))
      return false;
    for (Operation *op : cycle)
      if (!llvm::all_of(op->getResults(), readOnlyByCycle))
        return false;
    ops.insert(cycle.begin(), cycle.end());
    return true;
  }

  /// Warps of `dot`'s #kgpu.mma accumulator along M.
  static unsigned warpsAlongM(tt::DotOp dot) {
    return cast<kgpu::MmaEncodingAttr>(dot.getType().getEncoding())
        .getWarpsPerCTA()[0];
  }

  /// Warps of `dot`'s accumulator along N (wgmma's warpgroups splitting N
  /// where more than 1).
  static unsigned warpsAlongN(tt::DotOp dot) {
    return cast<kgpu::MmaEncodingAttr>(dot.getType().getEncoding())
        .getWarpsPerCTA()[1];
  }

  /// Whether the iteration at `base + k * step` exists (< `ub`), computed
  /// in i64: near INT32_MAX the i32 sum wraps and would read as an
  /// iteration that exists. (The i32 value of that induction variable still
  /// feeds the copies' address arithmetic; `false` masks all of them.)
  static Value iterationExists(OpBuilder &b, Location loc, Value base,
                               int64_t k, Value step, Value ub) {
    Type i64 = b.getI64Type();
    auto wide = [&](Value v) -> Value {
      return arith::ExtSIOp::create(b, loc, i64, v);
    };
    Value ahead = arith::MulIOp::create(
        b, loc, wide(step),
        arith::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(k)));
    Value iv = arith::AddIOp::create(b, loc, wide(base), ahead);
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, iv,
                                 wide(ub));
  }

  std::optional<LoopPlan> matchLoop(scf::ForOp loop) {
    Block *body = loop.getBody();
    // i32 induction variables compared signed (iteration i + S - 1's
    // existence is tested with a signed compare against the bound).
    if (!loop.getInductionVar().getType().isInteger(32) ||
        loop.getUnsignedCmp())
      return std::nullopt;
    LoopPlan plan;
    int dots = 0;
    for (Operation &op : body->without_terminator()) {
      if (op.getNumRegions() != 0)
        return std::nullopt;
      if (auto dot = dyn_cast<tt::DotOp>(op)) {
        plan.dot = dot;
        ++dots;
      }
    }
    if (dots != 1 || !kgpu::isMmaV2(plan.dot.getType().getEncoding()))
      return std::nullopt;
    tt::DotOp dot = plan.dot;
    // Slots hold 16-bit tiles (local_dot reads them with ldmatrix for
    // m16n8k16), f8 tiles upcast to them, or f32 tiles of a tf32 / tf32x3
    // dot (local_dot reads and rounds them element by element for
    // m16n8k8 .tf32, B N-contiguous only; wgmma reads them K-major, B
    // stored N rows of K; an ieee f32 dot runs on CUDA cores, not here).
    Type elem = dot.getA().getType().getElementType();
    bool tf32 = elem.isF32() &&
                (dot.getInputPrecision() == tt::InputPrecision::TF32 ||
                 dot.getInputPrecision() == tt::InputPrecision::TF32x3);
    if (!(elem.isF16() || elem.isBF16() || tf32))
      return std::nullopt;
    // The dot itself must be one mma.sync computes (its K a multiple of
    // the instruction's): a dot that only shares an eligible dot's
    // accumulator layout runs on CUDA cores, with its operands staged.
    if (!mmaSyncComputes(dot))
      return std::nullopt;
    // The accumulator is carried by the loop and only feeds the yield:
    // either as the dot's C, or (dot from zero) through one arith.addf.
    auto yield = cast<scf::YieldOp>(body->getTerminator());
    Value carriedAcc = dot.getC();
    if (isZeroOrAbsent(dot.getC()) && dot->hasOneUse()) {
      plan.accAdd = dyn_cast<arith::AddFOp>(*dot->getUsers().begin());
      if (!plan.accAdd || plan.accAdd->getBlock() != body)
        return std::nullopt;
      carriedAcc = plan.accAdd.getLhs() == dot.getD() ? plan.accAdd.getRhs()
                                                      : plan.accAdd.getLhs();
    }
    Value accOut = plan.accAdd ? plan.accAdd.getResult() : dot.getD();
    auto accArg = dyn_cast<BlockArgument>(carriedAcc);
    if (!accArg || accArg.getOwner() != body || accArg.getArgNumber() == 0)
      return std::nullopt;
    plan.accIndex = accArg.getArgNumber() - 1;
    if (yield.getOperand(plan.accIndex) != accOut || !accOut.hasOneUse() ||
        !dot->hasOneUse() || !accArg.hasOneUse())
      return std::nullopt;
    // A and B from loads used only by the dot, or (both) f8 loads used
    // only by their tt.fp_to_fp to f16 (tt-upcast-f8-dot-operands). f8
    // slots are read with 8-bit ldmatrix and upcast after (emitMmaV2):
    // that needs A and B both K-contiguous in shared memory (A rows of K;
    // B stored transposed, N rows of K) and K a multiple of 32.
    // An f8 B may also be the upcast of tt.trans [1, 0] of a load (`tl.dot(a,
    // b.T)`: tt-upcast-f8-dot-operands upcasts the transposed tile), copied
    // as loaded like a 16-bit B's tt.trans.
    AxisInfoAnalysis axisInfo;
    auto matchTrans = [&](Value v) -> tt::TransOp {
      auto trans = v.getDefiningOp<tt::TransOp>();
      if (trans && trans->getBlock() == body && v.hasOneUse() &&
          trans.getOrder() == ArrayRef<int32_t>{1, 0})
        return trans;
      return {};
    };
    for (int i = 0; i < 2; ++i) {
      Value v = i == 0 ? dot.getA() : dot.getB();
      if (tt::TransOp trans = i == 1 ? matchTrans(v) : tt::TransOp()) {
        plan.bTrans = trans;
        v = trans.getSrc();
      }
      if (auto upcast = v.getDefiningOp<tt::FpToFpOp>();
          upcast && plan.bTrans && i == 1)
        return std::nullopt;
      if (auto upcast = v.getDefiningOp<tt::FpToFpOp>()) {
        Type from = getElementTypeOrSelf(upcast.getSrc().getType());
        if (!isa<Float8E4M3FNType, Float8E5M2Type>(from) || !elem.isF16() ||
            upcast->getBlock() != body || !v.hasOneUse())
          return std::nullopt;
        plan.upcasts[i] = upcast;
        v = upcast.getSrc();
        if (tt::TransOp trans = i == 1 ? matchTrans(v) : tt::TransOp()) {
          plan.bTrans = trans;
          v = trans.getSrc();
        }
      }
      auto load = v.getDefiningOp<tt::LoadOp>();
      // A volatile load must happen when and as written: not pipelined.
      bool transB = i == 1 && plan.bTrans;
      if (!load || load->getBlock() != body || !v.hasOneUse() ||
          load.getIsVolatile() || !isZeroOrAbsent(load.getOther()) ||
          !copyWidth(load, axisInfo,
                     i == 1 ? (transB ? nullptr : &plan.bKMajor)
                            : &plan.aMMajor))
        return std::nullopt;
      if (transB)
        plan.bKMajor = true;
      // Masks along M (A) or N (B) too (a convolution's padding, block
      // pointers' boundary checks): masked-off elements are zero-filled by
      // cp.async as the load would give `other` = 0, and copyWidth keeps a
      // copied run within one mask value.
      plan.loads[i] = load;
    }
    // One element type for both slots (local_dot upcasts A and B alike):
    // e4m3 x e5m2 stays unpipelined.
    if (bool(plan.upcasts[0]) != bool(plan.upcasts[1]) ||
        getElementTypeOrSelf(plan.loads[0].getType()) !=
            getElementTypeOrSelf(plan.loads[1].getType()))
      return std::nullopt;
    if (plan.upcasts[0] &&
        (!plan.bKMajor || dot.getA().getType().getDimSize(1) % 32))
      return std::nullopt;
    // tf32 on mma.sync reads B row-major (N-contiguous) only; wgmma's tf32
    // form reads B K-major only (kgpu-assign-layouts gives a tf32 dot
    // wgmma's layout only where B is read K-contiguous). Not tf32x3
    // (wgmmaComputes).
    // Warpgroups splitting N (warpsAlongN > 1) only for 16-bit slots;
    // narrow tiles (wgmmaNarrowTile) only in attention's loops.
    // A dot from zero whose sum the loop adds: only where its product fits
    // beside the sum (wgmmaFromZeroFits).
    bool wgmmaLoop = wgmma && wgmmaFits(dot) && !wgmmaNarrowTile(dot) &&
                     (!plan.accAdd ||
                      wgmmaFromZeroFits(dot, warpsAlongM(dot) *
                                                 warpsAlongN(dot))) &&
                     (warpsAlongN(dot) == 1 || !plan.upcasts[0]);
    bool tf32Wgmma = tf32 && wgmmaLoop && (plan.bKMajor || plan.bTrans);
    if (tf32 && !tf32Wgmma && (plan.bKMajor || plan.bTrans))
      return std::nullopt;
    // A dot from zero whose sum the loop adds (plan.accAdd) takes wgmma
    // too, but its group cannot stay in flight across the back edge (that
    // needs the carried accumulator as its C): each iteration waits for it
    // (wait_group 0) and adds, in f32, as Triton 3.6 does; so with f8
    // forms only BK products at a time go through Hopper's imprecise f8
    // accumulation, not the whole sum. f8
    // slots (both K-contiguous, as wgmma's f8 forms need) take wgmma's
    // e4m3 / e5m2 forms, without the upcast, only where the dot allows
    // every product into the accumulator imprecisely (maxNumImpreciseAcc
    // at least kUnboundedImpreciseAcc, Triton's default for f8): Hopper's
    // f8 wgmma accumulates with less than f32 precision, and a smaller
    // bound asks for partial sums promoted to f32, which this loop does
    // not make. The upcast operands on mma.sync accumulate in f32.
    bool f8BoundedImprecise =
        plan.upcasts[0] && dot.getMaxNumImpreciseAcc() < kUnboundedImpreciseAcc;
    plan.useWgmma = wgmmaLoop && !f8BoundedImprecise && (!tf32 || tf32Wgmma);
    // An M-contiguous A is read MN-major, which only wgmma's 16-bit forms
    // do (mma.sync's slots are read with ldmatrix by rows of K): elsewhere
    // the loop stays as it is.
    if (plan.aMMajor && (!plan.useWgmma || tf32 || plan.upcasts[0]))
      return std::nullopt;
    // The slice: everything the loads' pointers and masks depend on inside
    // the body, closed under "the next value of a carried argument".
    llvm::SetVector<Operation *> slice;
    llvm::SetVector<unsigned> carried;
    SmallVector<Value> work;
    for (tt::LoadOp load : plan.loads) {
      work.push_back(load.getPtr());
      if (load.getMask())
        work.push_back(load.getMask());
    }
    while (!work.empty()) {
      Value v = work.pop_back_val();
      if (auto arg = dyn_cast<BlockArgument>(v)) {
        if (arg.getOwner() != body || arg.getArgNumber() == 0)
          continue; // defined outside, or the induction variable
        unsigned idx = arg.getArgNumber() - 1;
        if (idx == plan.accIndex)
          return std::nullopt;
        if (carried.insert(idx))
          work.push_back(yield.getOperand(idx));
        continue;
      }
      Operation *def = v.getDefiningOp();
      if (!def || def->getBlock() != body || slice.contains(def))
        continue;
      // Pure ops without regions only. A layout conversion (an index
      // vector moved to the other operand's layout, as the convolution
      // template and block pointers have) moves data through shared
      // memory at offset 0: the slots then take a region of their own
      // (kOwnSharedMemoryAttr). Other such ops are not pipelined.
      if (!isPure(def) || def->getNumRegions() != 0 ||
          isa<tt::TransOp, tt::ReshapeOp, tt::JoinOp, tt::SplitOp, tt::CatOp,
              tt::GatherOp, tt::ReduceOp, tt::ScanOp, tt::HistogramOp>(def))
        return std::nullopt;
      if (isa<kgpu::ConvertLayoutOp>(def))
        plan.ownRegion = true;
      slice.insert(def);
      for (Value operand : def->getOperands())
        work.push_back(operand);
    }
    // Values the loop carries that nothing reads (say pointers a kernel
    // advances but no longer loads from): left out of the new loop.
    llvm::SetVector<Operation *> deadOps;
    SmallVector<bool> dead(loop.getNumRegionIterArgs(), false);
    for (unsigned i = 0; i < loop.getNumRegionIterArgs(); ++i)
      dead[i] = i != plan.accIndex && !carried.contains(i) &&
                isDeadCarriedValue(loop, i, deadOps);
    // Nothing else in the body, and no carried pointer used after the loop.
    auto inPlan = [&](Operation *op) {
      return op == dot.getOperation() || op == plan.loads[0].getOperation() ||
             (plan.bTrans && op == plan.bTrans.getOperation()) ||
             op == plan.loads[1].getOperation() ||
             (plan.upcasts[0] && (op == plan.upcasts[0].getOperation() ||
                                  op == plan.upcasts[1].getOperation())) ||
             (plan.accAdd && op == plan.accAdd.getOperation());
    };
    for (Operation &op : body->without_terminator())
      if (!slice.contains(&op) && !inPlan(&op) && !deadOps.contains(&op) &&
          !op.hasTrait<OpTrait::ConstantLike>())
        return std::nullopt;
    for (unsigned i = 0; i < loop.getNumRegionIterArgs(); ++i) {
      if (i == plan.accIndex || dead[i])
        continue;
      if (!carried.contains(i) || !loop.getResult(i).use_empty())
        return std::nullopt;
    }
    for (Operation &op : body->without_terminator())
      if (slice.contains(&op))
        plan.slice.push_back(&op);
    plan.carried.assign(carried.begin(), carried.end());
    llvm::sort(plan.carried);
    // tf32 or f8 slots beyond sm_90's shared memory per CTA (227 KB; f32
    // slots are twice the size of 16-bit ones, f8 wgmma slots pad each row
    // to 128 bytes): the loop stays as it is and compiles unpipelined, as
    // it did before f32 slots existed and before f8 loads were seen
    // through their upcast (helper-69: an e5m2 128 x 128 x 256 loop over 4
    // stages, 278528 bytes). (16-bit slots that do not fit end in
    // kgpu-convert-to-llvm's error, which names the stages.)
    plan.slotBytes = slotSizes(plan);
    if ((tf32 || plan.upcasts[0]) &&
        int64_t(numStages) * (plan.slotBytes[0] + plan.slotBytes[1]) >
            kWgmmaMaxSharedBytes)
      return std::nullopt;
    return plan;
  }

  /// Emits async copies of both tiles into `slot` for the iteration whose
  /// induction variable is `iv` and carried values `args` (mapping for the
  /// slice), masked off when the iteration does not exist (`live` false),
  /// then commits the group. Returns the carried values' next values.
  SmallVector<Value> issueCopies(OpBuilder &b, Location loc, scf::ForOp loop,
                                 LoopPlan &plan, Value iv,
                                 ArrayRef<Value> args, Value live, Value slot,
                                 const int64_t offsets[2],
                                 const std::array<int64_t, 2> &slotBytes,
                                 const int swizzle[2], unsigned elemBits) {
    IRMapping map;
    map.map(loop.getInductionVar(), iv);
    for (auto [k, idx] : llvm::enumerate(plan.carried))
      map.map(loop.getRegionIterArgs()[idx], args[k]);
    for (Operation *op : plan.slice)
      b.clone(*op, map);
    for (int i = 0; i < 2; ++i) {
      tt::LoadOp load = plan.loads[i];
      auto ptrType = cast<RankedTensorType>(load.getPtr().getType());
      bool transpose =
          i == 0 ? plan.aMMajor : plan.bKMajor && !plan.bTrans;
      int64_t cols = ptrType.getDimSize(transpose ? 0 : 1);
      // Pointers and masks may also be defined before the loop.
      copyTile(b, loc, map.lookupOrDefault(load.getPtr()),
               load.getMask() ? map.lookupOrDefault(load.getMask()) : Value(),
               live, slot, offsets[i], slotBytes[i],
               swizzle[i] ? cols : getPaddedRowStride(cols, elemBits, i == 1),
               swizzle[i], transpose, plan.ownRegion);
    }
    kgpu::AsyncCommitGroupOp::create(b, loc);
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    SmallVector<Value> next;
    for (unsigned idx : plan.carried)
      next.push_back(map.lookupOrDefault(yield.getOperand(idx)));
    return next;
  }

  /// `cvt` as a tile matchSlotLoop can stage (SlotLoopPlan::StagedTile):
  /// a 2-D tile the body loads (not volatile, `other` zero or absent,
  /// copied along its rows: copyWidth), used only by `cvt`, which converts
  /// it to an mma layout.
  static std::optional<SlotLoopPlan::StagedTile>
  stageableTile(kgpu::ConvertLayoutOp cvt, AxisInfoAnalysis &axisInfo) {
    auto load = cvt.getSrc().getDefiningOp<tt::LoadOp>();
    if (!load || load->getBlock() != cvt->getBlock() ||
        !load->hasOneUse() || load.getIsVolatile() ||
        !isZeroOrAbsent(load.getOther()) ||
        !kgpu::isMmaV2(cvt.getType().getEncoding()) ||
        !kgpu::LocalLoadOp::readsElementType(
            cvt.getType().getElementType()))
      return std::nullopt;
    if (!copyWidth(load, axisInfo))
      return std::nullopt;
    SlotLoopPlan::StagedTile tile;
    tile.convert = cvt;
    tile.load = load;
    return tile;
  }

  /// The loops of attention (sm_90a, `wgmma`): every tt.dot of the body is one
  /// wgmma computes (accumulator warps along M only, wgmmaFits) whose B is a
  /// tile the body loads (used only by the dot, directly or through tt.trans
  /// [1, 0]; masked with `other` 0 or unmasked) and whose A is a tile loaded
  /// before the loop (as B's; copied once) or in the accumulator's layout
  /// (registers). The B loads' pointers and masks depend on the induction
  /// variable, loop-invariant values and iteration arguments whose next values
  /// are computed by pure ops and scalar loads (flex attention's block
  /// indices). The body may hold elementwise and shape ops, loads, reductions
  /// and layout conversions, nothing that writes memory. The slots start at
  /// offset 0 where nothing else in the body may use shared memory; otherwise
  /// (layout conversions, transposes, reductions across warps) they take a
  /// region of their own above the bytes those ops reuse
  /// (SlotLoopPlan::ownRegion).
  std::optional<SlotLoopPlan> matchSlotLoop(scf::ForOp loop) {
    if (!wgmma || !loop.getInductionVar().getType().isInteger(32) ||
        loop.getUnsignedCmp())
      return std::nullopt;
    Block *body = loop.getBody();
    auto yield = cast<scf::YieldOp>(body->getTerminator());
    SlotLoopPlan plan;
    AxisInfoAnalysis axisInfo;
    for (Operation &op : body->without_terminator()) {
      if (auto dot = dyn_cast<tt::DotOp>(op)) {
        plan.dots.push_back({dot});
        continue;
      }
      if (auto reduce = dyn_cast<tt::ReduceOp>(op)) {
        // Along N of an accumulator with the warps along M: within a warp.
        // Others may combine across warps through shared memory.
        auto t = cast<RankedTensorType>(reduce.getSrcs().front().getType());
        auto mma = dyn_cast<kgpu::MmaEncodingAttr>(t.getEncoding());
        if (!kgpu::isMmaV2(mma) || t.getRank() != 2 ||
            reduce.getAxis() != 1 || mma.getWarpsPerCTA()[1] != 1)
          plan.ownRegion = true;
        continue;
      }
      if (auto cvt = dyn_cast<kgpu::ConvertLayoutOp>(op))
        if (std::optional<SlotLoopPlan::StagedTile> tile =
                stageableTile(cvt, axisInfo)) {
          plan.staged.push_back(*tile);
          continue;
        }
      // Ops that move data through shared memory (a tt.trans feeding a
      // dot's B is checked with the dot, and goes away).
      if (isa<kgpu::ConvertLayoutOp, tt::ReshapeOp, tt::JoinOp, tt::SplitOp,
              tt::CatOp>(op) ||
          (isa<tt::TransOp>(op) && !(op.hasOneUse() &&
                                    isa<tt::DotOp>(*op.getUsers().begin())))) {
        plan.ownRegion = true;
        continue;
      }
      if (auto load = dyn_cast<tt::LoadOp>(op)) {
        if (load.getIsVolatile())
          return std::nullopt;
        continue;
      }
      if (op.getNumRegions() != 0 ||
          !(isa<tt::TransOp, tt::SplatOp, tt::BroadcastOp, tt::ExpandDimsOp,
                tt::MakeRangeOp, tt::AddPtrOp>(op) ||
            isa_and_nonnull<arith::ArithDialect, math::MathDialect>(
                op.getDialect())))
        return std::nullopt;
    }
    if (plan.dots.empty())
      return std::nullopt;
    // Staged tiles: one dot, whose accumulator layout they convert to.
    for (SlotLoopPlan::StagedTile tile : plan.staged)
      if (plan.dots.size() != 1 ||
          tile.convert.getType().getEncoding() !=
              plan.dots.front().dot.getType().getEncoding())
        return std::nullopt;
    for (SlotDot &sd : plan.dots) {
      tt::DotOp dot = sd.dot;
      auto mma = dyn_cast<kgpu::MmaEncodingAttr>(dot.getType().getEncoding());
      // 16-bit slots only (tf32 dots take wgmma in matchLoop's loops), the
      // warps along M only (P's rows whole in each warpgroup).
      if (!kgpu::isMmaV2(mma) || mma.getWarpsPerCTA()[1] != 1 ||
          !wgmmaFits(dot) || isTf32Dot(dot))
        return std::nullopt;
      Value b = dot.getB();
      if (auto trans = b.getDefiningOp<tt::TransOp>()) {
        if (trans->getBlock() != body || !b.hasOneUse() ||
            trans.getOrder() != ArrayRef<int32_t>{1, 0})
          return std::nullopt;
        sd.bTrans = trans;
        b = trans.getSrc();
      }
      // Masked B (keys past the sequence's end) zero-filled by the copy,
      // as the load's `other` 0 would give them.
      sd.bLoad = b.getDefiningOp<tt::LoadOp>();
      if (!sd.bLoad || sd.bLoad->getBlock() != body || !b.hasOneUse() ||
          !isZeroOrAbsent(sd.bLoad.getOther()) ||
          !copyWidth(sd.bLoad, axisInfo, sd.bTrans ? nullptr : &sd.bTranspose))
        return std::nullopt;
      sd.bKMajor = sd.bTrans || sd.bTranspose;
      RankedTensorType aT = dot.getA().getType();
      if (aT.getEncoding() == mma)
        continue; // registers (wgmmaFits: 16-bit, whole row blocks)
      if (!loop.isDefinedOutsideOfLoop(dot.getA()))
        return std::nullopt;
      // A masked with `other` 0 (a head dimension padded to a power of
      // two) is zero-filled by its copy alike.
      sd.aLoad = dot.getA().getDefiningOp<tt::LoadOp>();
      if (!sd.aLoad || !isZeroOrAbsent(sd.aLoad.getOther()) ||
          sd.aLoad.getIsVolatile() || !copyWidth(sd.aLoad, axisInfo)) {
        sd.aLoad = {};
        sd.aToRegs = true;
      }
    }
    // The pointers' ops (pure, cloned per iteration) and the next values
    // of the carried arguments they read (pure or scalar loads, moved up).
    auto movable = [&](Operation *op, bool ptr) {
      if (op->getNumRegions() != 0)
        return false;
      if (auto load = dyn_cast<tt::LoadOp>(op))
        return !ptr && !isa<RankedTensorType>(load.getType());
      return isPure(op);
    };
    llvm::SetVector<Operation *> ptrOps, moved;
    llvm::SetVector<unsigned> carried;
    SmallVector<Value> ptrs;
    for (SlotDot &sd : plan.dots) {
      ptrs.push_back(sd.bLoad.getPtr());
      if (sd.bLoad.getMask())
        ptrs.push_back(sd.bLoad.getMask());
    }
    for (SlotLoopPlan::StagedTile tile : plan.staged) {
      ptrs.push_back(tile.load.getPtr());
      if (tile.load.getMask())
        ptrs.push_back(tile.load.getMask());
    }
    if (!collectBodySlice(
            body, ptrs, [&](Operation *op) { return movable(op, true); },
            ptrOps, &carried))
      return std::nullopt;
    // Next values of the carried arguments, closed: those read further
    // carried arguments only through their iteration values.
    moved = ptrOps;
    SmallVector<Value> next;
    for (unsigned idx : carried)
      next.push_back(yield.getOperand(idx));
    if (!collectBodySlice(
            body, next, [&](Operation *op) { return movable(op, false); },
            moved, /*carried=*/nullptr))
      return std::nullopt;
    // With staged tiles, the carried arguments' next values from pure ops
    // only (they are computed slots - 1 iterations ahead; a scalar load
    // there could read past the loop's data).
    llvm::SetVector<Operation *> nextOps;
    if (!plan.staged.empty() && !carried.empty() &&
        !collectBodySlice(
            body, next,
            [&](Operation *op) {
              return op->getNumRegions() == 0 && isPure(op);
            },
            nextOps, /*carried=*/nullptr))
      return std::nullopt;
    for (Operation &op : body->without_terminator()) {
      if (ptrOps.contains(&op))
        plan.ptrOps.push_back(&op);
      if (moved.contains(&op))
        plan.moved.push_back(&op);
      if (nextOps.contains(&op))
        plan.nextOps.push_back(&op);
    }
    plan.carried.assign(carried.begin(), carried.end());
    // Shared memory: each loop-invariant A once, then the slots of each B,
    // all in wgmma's swizzled arrangements (1024-byte aligned).
    DenseMap<Operation *, int64_t> aOffsets;
    for (SlotDot &sd : plan.dots) {
      if (!sd.aLoad)
        continue;
      auto [it, inserted] = aOffsets.try_emplace(sd.aLoad, plan.bytes);
      RankedTensorType aT = sd.dot.getA().getType();
      if (inserted)
        plan.bytes += llvm::alignTo(
            wgmmaOperandBytes(aT.getDimSize(0), aT.getDimSize(1), 2, true),
            1024);
      sd.aOffset = it->second;
    }
    int64_t slotBytes = 0;
    for (SlotDot &sd : plan.dots) {
      RankedTensorType bT = sd.dot.getB().getType();
      sd.bSlotBytes = llvm::alignTo(
          wgmmaOperandBytes(bT.getDimSize(1), bT.getDimSize(0), 2, sd.bKMajor),
          1024);
      slotBytes += sd.bSlotBytes;
    }
    // num-stages slots where the pointers read no iteration argument (the
    // copies of iteration i + S - 1 need only the induction variable; a
    // carried offset, as flex attention's block index, is known one
    // iteration ahead), as many as fit sm_90's shared memory per CTA (227
    // KB), at least 2: else the loop stays as it is.
    // Not where the slots take a region of their own (ownRegion): the
    // bytes below it, which other ops of the body use, are known only
    // when kgpu-convert-to-llvm lays out shared memory.
    // With staged tiles, the carried arguments' values of iteration
    // i + S - 1 are carried too (nextOps).
    for (SlotLoopPlan::StagedTile &tile : plan.staged) {
      auto t = cast<RankedTensorType>(tile.load.getType());
      unsigned bits = t.getElementTypeBitWidth();
      tile.rowStride = getPaddedRowStride(t.getDimSize(1), bits);
      tile.slotBytes =
          llvm::alignTo(t.getDimSize(0) * tile.rowStride * bits / 8, 128);
      slotBytes += tile.slotBytes;
    }
    plan.slots = (plan.carried.empty() || !plan.staged.empty()) &&
                         !plan.ownRegion
                     ? std::max<int64_t>(numStages, 2)
                     : 2;
    while (plan.slots > 2 &&
           plan.bytes + plan.slots * slotBytes > kWgmmaMaxSharedBytes)
      --plan.slots;
    for (SlotDot &sd : plan.dots) {
      sd.bOffset = plan.bytes;
      plan.bytes += plan.slots * sd.bSlotBytes;
    }
    for (SlotLoopPlan::StagedTile &tile : plan.staged) {
      tile.offset = plan.bytes;
      plan.bytes += plan.slots * tile.slotBytes;
    }
    if (plan.bytes > kWgmmaMaxSharedBytes)
      return std::nullopt;
    return plan;
  }

  /// Copies B of every dot for the iteration `map` gives (induction
  /// variable, carried arguments) into `slot`, one commit group per dot,
  /// zero-filled where `live` is false.
  void copySlotTiles(OpBuilder &b, Location loc, SlotLoopPlan &plan,
                     IRMapping &map, Value live, Value slot) {
    for (Operation *op : plan.ptrOps)
      b.clone(*op, map);
    for (SlotDot &sd : plan.dots) {
      auto ptrType = cast<RankedTensorType>(sd.bLoad.getPtr().getType());
      Value mask = sd.bLoad.getMask();
      copyTile(b, loc, map.lookupOrDefault(sd.bLoad.getPtr()),
               mask ? map.lookupOrDefault(mask) : Value(), live,
               slot, sd.bOffset, sd.bSlotBytes,
               ptrType.getDimSize(sd.bTranspose ? 0 : 1), sd.bKMajor ? 1 : 2,
               sd.bTranspose, plan.ownRegion);
      // The staged tiles (one dot only) in its group.
      for (SlotLoopPlan::StagedTile tile : plan.staged)
        copyTile(b, loc, map.lookupOrDefault(tile.load.getPtr()),
                 tile.load.getMask() ? map.lookupOrDefault(tile.load.getMask())
                                     : Value(),
                 live, slot, tile.offset, tile.slotBytes, tile.rowStride,
                 /*swizzle=*/0, /*transpose=*/false, plan.ownRegion);
      kgpu::AsyncCommitGroupOp::create(b, loc);
    }
  }

  /// The yield operand of `loop` that the last dot of `plan` gives, where
  /// that multiply may stay in flight across the back edge, retired by the
  /// wait of the next iteration's first dot: two dots, the last with A in
  /// registers and short of registers (packRegisterAFirst: attention's P @
  /// V with a 128-register O), its result only yielded, and the carried
  /// accumulator read only after the first dot. Hand edits of such a
  /// loop's PTX (docs/BENCHMARKS.md, sixteenth session, call 10: head dim
  /// 96, 128 x 128 tiles on 4 warps) ran 30.2 -> 20.7 us (Triton 21.0);
  /// on flex attention (64 + 128 registers) the deferred wait made ptxas
  /// serialize its wgmma (C7511), so other loops wait as before. Only over
  /// 3 or more slots: the copies then run after P @ V, and over 2 slots
  /// the next iteration would wait for them right away.
  std::optional<unsigned> deferredAccumulator(scf::ForOp loop,
                                              const SlotLoopPlan &plan) {
    if (plan.slots < 3 || plan.dots.size() != 2 || plan.dots.back().aLoad)
      return std::nullopt;
    tt::DotOp first = plan.dots.front().dot, last = plan.dots.back().dot;
    Block *body = loop.getBody();
    Operation *yield = body->getTerminator();
    if (!last.getD().hasOneUse() || *last.getD().user_begin() != yield)
      return std::nullopt;
    unsigned idx = last.getD().use_begin()->getOperandNumber();
    auto accType = cast<RankedTensorType>(last.getType());
    auto aType = cast<RankedTensorType>(last.getA().getType());
    int64_t accRegs =
        kgpu::getNumElemsPerThread(accType.getEncoding(), accType.getShape());
    int64_t aElems =
        kgpu::getNumElemsPerThread(accType.getEncoding(), aType.getShape());
    if (!packRegisterAFirst(accRegs, aElems))
      return std::nullopt;
    for (Operation *user : loop.getRegionIterArgs()[idx].getUsers()) {
      Operation *op = body->findAncestorOpInBlock(*user);
      if (!op || op == first || !first->isBeforeInBlock(op) ||
          llvm::is_contained(plan.moved, op))
        return std::nullopt;
    }
    return idx;
  }

  /// Runs `loop`, whose result `idx` is a wgmma accumulator still in flight
  /// (a wgmma K loop's, or deferredAccumulator's), inside `if (lb < ub)`
  /// and retires it there: ptxas serializes wgmma (C7514) where a wait that
  /// retires groups in flight sits where a path without wgmma merges in.
  /// The accumulator the loop starts from is fenced, so that both paths
  /// leave it in the same registers. The scf.if returns the accumulator
  /// and the other results used after the loop, in order, and takes their
  /// uses. Returns the scf.if.
  static Operation *guardInFlightLoop(scf::ForOp loop, unsigned idx) {
    Location loc = loop.getLoc();
    OpBuilder b(loop);
    Value init = loop.getInitArgs()[idx];
    Value fenced = kgpu::WgmmaFenceOp::create(b, loc, TypeRange{init.getType()},
                                              ValueRange{init})
                       .getResult(0);
    loop.getInitArgsMutable()[idx].set(fenced);
    SmallVector<unsigned> kept;
    SmallVector<Type> types;
    for (OpResult result : loop.getResults())
      if (result.getResultNumber() == idx || !result.use_empty()) {
        kept.push_back(result.getResultNumber());
        types.push_back(result.getType());
      }
    Value any = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                      loop.getLowerBound(),
                                      loop.getUpperBound());
    auto guard = scf::IfOp::create(b, loc, types, any,
                                   /*withElseRegion=*/true);
    SmallVector<Value> inits, results;
    for (auto [i, n] : llvm::enumerate(kept)) {
      loop.getResult(n).replaceAllUsesWith(guard.getResult(i));
      inits.push_back(loop.getInitArgs()[n]);
      results.push_back(loop.getResult(n));
    }
    b.setInsertionPointToStart(&guard.getElseRegion().front());
    scf::YieldOp::create(b, loc, inits);
    Block &then = guard.getThenRegion().front();
    loop->moveBefore(&then, then.end());
    b.setInsertionPointAfter(loop);
    Value &acc = results[llvm::find(kept, idx) - kept.begin()];
    acc = kgpu::WgmmaWaitOp::create(b, loc, TypeRange{acc.getType()}, 0,
                                    ValueRange{acc})
              .getResult(0);
    scf::YieldOp::create(b, loc, results);
    return guard;
  }

  /// matchSlotLoop's loop, with D dots and S slots, becomes:
  ///   async_wait 0; async_copy each A once (slot bytes 0); commit
  ///   B tiles of iterations 0 .. S-2 into slots 0 .. S-2, one group per
  ///   dot
  ///   scf.for ... iter_args(..., %s = 0) {
  ///     (the moved ops: pointers, next values of carried arguments)
  ///     async_wait (S-1)D-1                   // B of dot 0 has landed
  ///     B tiles of iteration i + S-1 into slot (%s + S-1) % S (zero-filled
  ///     past the last iteration), one group per dot
  ///     ... async_wait SD-1-j before dot j > 0 ...
  ///     %d = local_dot %c [a %p] slot %s {wgmma, noWait}; wgmma_wait 0 %d
  ///     scf.yield ..., (%s + 1) % S             // 1 - %s for 2 slots
  ///   }
  ///   async_wait 0
  /// Each iteration waits for its own wgmma groups, so the slot its copies
  /// refill was last read by groups the previous iteration retired; the
  /// barrier of the first async_wait orders every warp's reads before
  /// those copies. Where deferredAccumulator finds the last dot (P @ V)
  /// short of registers, its group stays in flight: it is yielded
  /// unwaited, the first dot's wait_group 0 of the next iteration retires
  /// it too (the carried accumulator is read through that wait), the
  /// copies move after it (past the barrier of the wait before dot 1,
  /// which every warpgroup reaches after its first wait), the waits before
  /// later dots count S - 1 iterations' groups, and the loop runs guarded
  /// (guardInFlightLoop).
  scf::ForOp rewriteSlotLoop(scf::ForOp loop, SlotLoopPlan &plan) {
    std::optional<unsigned> deferred = deferredAccumulator(loop, plan);
    Location loc = loop.getLoc();
    MLIRContext *ctx = loop.getContext();
    IRRewriter rewriter(ctx);
    OpBuilder b(loop);
    Type i32 = b.getI32Type();
    auto c32 = [&](OpBuilder &b, int64_t v) {
      return arith::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(v))
          .getResult();
    };
    int64_t D = plan.dots.size();
    // Before the loop: A computed there, in the accumulator's layout (its
    // conversion may go through shared memory); nobody may still read
    // shared memory an earlier op used; the loop-invariant A tiles; the
    // first iteration's B tiles.
    DenseMap<Value, Value> aRegs;
    for (SlotDot &sd : plan.dots) {
      Value a = sd.dot.getA();
      if (!sd.aToRegs || aRegs.count(a))
        continue;
      aRegs[a] = kgpu::ConvertLayoutOp::create(
          b, loc,
          sd.dot.getA().getType().cloneWithEncoding(
              sd.dot.getType().getEncoding()),
          a);
    }
    kgpu::AsyncWaitOp::create(b, loc, 0);
    DenseSet<Operation *> copiedA;
    for (SlotDot &sd : plan.dots)
      if (sd.aLoad && copiedA.insert(sd.aLoad).second)
        copyTile(b, loc, sd.aLoad.getPtr(), sd.aLoad.getMask(), Value(),
                 c32(b, 0), sd.aOffset, 0,
                 sd.dot.getA().getType().getDimSize(1), 1,
                 /*transpose=*/false, plan.ownRegion);
    if (!copiedA.empty())
      kgpu::AsyncCommitGroupOp::create(b, loc);
    Value lb = loop.getLowerBound(), ub = loop.getUpperBound(),
          step = loop.getStep();
    int64_t S = plan.slots;
    // Iteration `k` ahead of `iv`: iv + k * step (i32; where it wraps, the
    // iteration does not exist and its copies are masked off).
    auto ahead = [&](OpBuilder &b, Value iv, int64_t k) -> Value {
      Value by = k == 1 ? step
                        : arith::MulIOp::create(b, loc, step, c32(b, k))
                              .getResult();
      return arith::AddIOp::create(b, loc, iv, by);
    };
    // The carried arguments' values of iteration k (loop.getInitArgs() for
    // 0; only with staged tiles where S > 2, from nextOps).
    SmallVector<Value> argsAt;
    for (unsigned idx : plan.carried)
      argsAt.push_back(loop.getInitArgs()[idx]);
    // `forOp`'s carried values after `args`: nextOps cloned at `at`.
    auto nextArgs = [&](OpBuilder &at, scf::ForOp forOp,
                        ArrayRef<Value> args) {
      auto forYield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
      IRMapping map;
      for (auto [idx, v] : llvm::zip(plan.carried, args))
        map.map(forOp.getRegionIterArgs()[idx], v);
      for (Operation *op : plan.nextOps)
        at.clone(*op, map);
      SmallVector<Value> next;
      for (unsigned idx : plan.carried)
        next.push_back(map.lookupOrDefault(forYield.getOperand(idx)));
      return next;
    };
    bool carryAhead = !plan.nextOps.empty() && S > 2;
    for (int64_t k = 0; k + 1 < S; ++k) {
      IRMapping map;
      map.map(loop.getInductionVar(), k == 0 ? lb : ahead(b, lb, k));
      for (auto [idx, v] : llvm::zip(plan.carried, argsAt))
        map.map(loop.getRegionIterArgs()[idx], v);
      copySlotTiles(b, loc, plan, map,
                    iterationExists(b, loc, lb, k, step, ub), c32(b, k));
      if (carryAhead)
        argsAt = nextArgs(b, loop, argsAt);
    }
    // The slot: one more iteration argument, 0 then (%s + 1) % S.
    auto nextSlot = [&](OpBuilder &b, Location loc, Value s) -> Value {
      if (S == 2)
        return arith::SubIOp::create(b, loc, c32(b, 1), s);
      Value up = arith::AddIOp::create(b, loc, s, c32(b, 1));
      Value wrap = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, up,
                                         c32(b, S));
      return arith::SelectOp::create(b, loc, wrap, c32(b, 0), up);
    };
    // Further iteration arguments: the slot, and with carryAhead the
    // carried arguments' values of iteration i + S - 1 (yielded unchanged
    // until copyAhead sets their next values).
    SmallVector<Value> extraInits = {c32(b, 0)};
    if (carryAhead)
      llvm::append_range(extraInits, argsAt);
    rewriter.setInsertionPoint(loop);
    auto replaced = loop.replaceWithAdditionalYields(
        rewriter, extraInits, /*replaceInitOperandUsesInLoop=*/false,
        [&](OpBuilder &yb, Location yloc, ArrayRef<BlockArgument> args) {
          SmallVector<Value> yielded = {nextSlot(yb, yloc, args.front())};
          llvm::append_range(yielded, args.drop_front());
          return yielded;
        });
    auto newLoop = cast<scf::ForOp>(replaced->getOperation());
    Block *body = newLoop.getBody();
    unsigned slotIndex =
        newLoop.getNumRegionIterArgs() - unsigned(extraInits.size());
    Value slot = newLoop.getRegionIterArgs()[slotIndex];
    ArrayRef<BlockArgument> aheadArgs =
        newLoop.getRegionIterArgs().drop_front(slotIndex + 1);
    auto yield = cast<scf::YieldOp>(body->getTerminator());
    // The moved ops first, in their order.
    Block::iterator top = body->begin();
    for (Operation *op : plan.moved) {
      if (&*top == op) {
        ++top;
        continue;
      }
      op->moveBefore(body, top);
    }
    b.setInsertionPoint(body, top);
    kgpu::AsyncWaitOp::create(b, loc, (S - 1) * D - 1);
    // The next tiles' copies: here, or with the last multiply in flight
    // (`deferred`) after it, since the slot they refill is the one it read
    // in the iteration before, retired only by this iteration's first wait.
    auto copyAhead = [&] {
      IRMapping map;
      Value iv = newLoop.getInductionVar();
      map.map(iv, ahead(b, iv, S - 1));
      // Iteration i + S - 1's carried values: the next ones where S is 2
      // (or nothing is carried), the ones carried ahead otherwise.
      for (auto [k, idx] : llvm::enumerate(plan.carried))
        map.map(newLoop.getRegionIterArgs()[idx],
                carryAhead ? Value(aheadArgs[k]) : yield.getOperand(idx));
      if (carryAhead) {
        SmallVector<Value> args(aheadArgs.begin(), aheadArgs.end());
        for (auto [k, v] : llvm::enumerate(nextArgs(b, newLoop, args)))
          yield.setOperand(slotIndex + 1 + k, v);
      }
      // The slot iteration i - 1 read: (%s + S - 1) % S.
      Value write;
      if (S == 2) {
        write = nextSlot(b, loc, slot);
      } else {
        Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                            slot, c32(b, 0));
        write = arith::SelectOp::create(
            b, loc, first, c32(b, S - 1),
            arith::SubIOp::create(b, loc, slot, c32(b, 1)));
      }
      copySlotTiles(b, loc, plan, map,
                    iterationExists(b, loc, iv, S - 1, step, ub), write);
    };
    // A loop with staged tiles (one dot) on two or more warpgroups keeps
    // its multiply in flight while the next iteration reads and computes
    // A, as a wgmma K loop does (rewrite): wait for the previous
    // iteration's group only, then a barrier (no warpgroup still reads the
    // slot it read), then the copies into that slot; the loop runs guarded
    // (guardInFlightLoop), and A is packed before the multiply's fence
    // (kWgmmaPackAFirstAttr). The accumulator must be the dot's C and only
    // yielded. Measured on the H200 (docs/BENCHMARKS.md, thirty-fifth
    // session), against waiting for each iteration's multiply: on 8 warps
    // 4 of 5 kernels ran as fast or faster (sp_bcol2d_only 35.17 -> 26.72
    // us), on 4 warps 6 of 8 slower (sp_silua_res 21.37 -> 32.56).
    std::optional<unsigned> inFlight;
    if (!deferred && !plan.staged.empty() && D == 1 &&
        warpsAlongM(plan.dots.front().dot) >= 8) {
      tt::DotOp dot = plan.dots.front().dot;
      auto acc = dyn_cast<BlockArgument>(dot.getC());
      if (acc && acc.getOwner() == body && acc.getArgNumber() > 0 &&
          acc.hasOneUse() && dot->hasOneUse() &&
          yield.getOperand(acc.getArgNumber() - 1) == dot.getD() &&
          !newLoop.getResult(acc.getArgNumber() - 1).use_empty())
        inFlight = acc.getArgNumber() - 1;
    }
    if (!deferred && !inFlight)
      copyAhead();
    Value carriedAcc = deferred ? newLoop.getRegionIterArgs()[*deferred]
                                : Value();
    for (auto [j, sd] : llvm::enumerate(plan.dots)) {
      tt::DotOp dot = sd.dot;
      b.setInsertionPoint(dot);
      // Groups in flight: the next S - 1 iterations' (S with the copies
      // above); this iteration's j + 1 first must have landed.
      if (j > 0)
        kgpu::AsyncWaitOp::create(b, loc,
                                  (deferred ? S - 1 : S) * D - 1 - int64_t(j));
      bool regs = !sd.aLoad;
      Value a = sd.aToRegs ? aRegs.lookup(dot.getA()) : dot.getA();
      auto localDot = kgpu::LocalDotOp::create(
          b, dot.getLoc(), dot.getType(), dot.getC(), slot,
          regs ? a : Value(), TypeAttr::get(a.getType()),
          TypeAttr::get(dot.getB().getType()),
          b.getI64IntegerAttr(regs ? 0 : sd.aOffset), b.getI64IntegerAttr(0),
          b.getI64IntegerAttr(sd.bOffset), b.getI64IntegerAttr(sd.bSlotBytes),
          b.getI32IntegerAttr(S), b.getUnitAttr(), b.getUnitAttr(),
          sd.bKMajor ? b.getUnitAttr() : UnitAttr(), UnitAttr(), UnitAttr());
      if (plan.ownRegion)
        localDot->setAttr(kOwnSharedMemoryAttr, b.getUnitAttr());
      if (deferred && j == 0 && sd.aLoad)
        localDot->setAttr(kWgmmaBlockMajorAttr, b.getUnitAttr());
      if (inFlight)
        localDot->setAttr(kWgmmaPackAFirstAttr, b.getUnitAttr());
      Value done = localDot.getResult();
      if (inFlight) {
        done = kgpu::WgmmaWaitOp::create(b, dot.getLoc(),
                                         TypeRange{dot.getType()}, 1,
                                         ValueRange{done})
                   .getResult(0);
        kgpu::BarrierOp::create(b, dot.getLoc());
        copyAhead();
      } else if (!deferred) {
        done = kgpu::WgmmaWaitOp::create(b, dot.getLoc(),
                                         TypeRange{dot.getType()}, 0,
                                         ValueRange{done})
                   .getResult(0);
      } else if (j == 0) {
        // Also retires the previous iteration's last multiply, whose
        // accumulator every later op of the body reads through the wait.
        auto wait = kgpu::WgmmaWaitOp::create(
            b, dot.getLoc(), TypeRange{dot.getType(), carriedAcc.getType()},
            0, ValueRange{done, carriedAcc});
        carriedAcc.replaceAllUsesExcept(wait.getResult(1), wait);
        done = wait.getResult(0);
      }
      dot.getD().replaceAllUsesWith(done);
      dot.erase();
    }
    if (deferred) {
      b.setInsertionPoint(yield);
      copyAhead();
    }
    // The staged tiles, read back where they were converted.
    for (SlotLoopPlan::StagedTile tile : plan.staged) {
      b.setInsertionPoint(tile.convert);
      auto read = kgpu::LocalLoadOp::create(
          b, tile.convert.getLoc(), tile.convert.getType(), slot,
          b.getI64IntegerAttr(tile.offset), b.getI64IntegerAttr(tile.slotBytes),
          b.getI64IntegerAttr(tile.rowStride), b.getI32IntegerAttr(S),
          UnitAttr());
      if (plan.ownRegion)
        read->setAttr(kOwnSharedMemoryAttr, b.getUnitAttr());
      tile.convert.getResult().replaceAllUsesWith(read.getResult());
      tile.convert.erase();
      tile.load.erase();
    }
    // B's loads (and transposes), read only by the copies' pointers above.
    for (SlotDot &sd : plan.dots) {
      if (sd.bTrans)
        sd.bTrans.erase();
      sd.bLoad.erase();
    }
    // The loads' pointers, now only computed for the copies.
    for (Operation *op : llvm::reverse(plan.ptrOps))
      if (op->use_empty())
        op->erase();
    Operation *last = newLoop;
    if (deferred)
      last = guardInFlightLoop(newLoop, *deferred);
    else if (inFlight)
      last = guardInFlightLoop(newLoop, *inFlight);
    b.setInsertionPointAfter(last);
    kgpu::AsyncWaitOp::create(b, loc, 0);
    for (SlotDot &sd : plan.dots)
      if (sd.aLoad && sd.aLoad->use_empty())
        sd.aLoad.erase();
    return newLoop;
  }

  /// Bytes of one slot of A and one of B. Shared memory: S slots of A (M
  /// x getPaddedRowStride(K) elements), then S slots of B (K x
  /// getPaddedRowStride(N), or N x getPaddedRowStride(K) stored
  /// transposed). Elements are the loaded ones: 16-bit, f8 bytes that
  /// local_dot upcasts, or f32 for tf32. Padded rows for ldmatrix and the
  /// tf32 reads; dense 128-byte swizzled atoms (1024-byte aligned slots)
  /// for wgmma, A K rows of M where it is stored transposed (aMMajor).
  static std::array<int64_t, 2> slotSizes(LoopPlan &plan) {
    auto aT = cast<RankedTensorType>(plan.loads[0].getType()),
         bT = plan.bTrans ? plan.bTrans.getType()
                          : cast<RankedTensorType>(plan.loads[1].getType());
    unsigned bits = aT.getElementTypeBitWidth(), bytes = bits / 8;
    int64_t M = aT.getDimSize(0), K = aT.getDimSize(1), N = bT.getDimSize(1);
    if (plan.useWgmma) {
      // Rows of whole 128-byte swizzle rows: an f8 K of 64 or a 16-bit K
      // of 32 fills half of each (wgmma reads the K steps it has).
      return {int64_t(llvm::alignTo(
                  wgmmaOperandBytes(M, K, bytes, !plan.aMMajor), 1024)),
              int64_t(llvm::alignTo(
                  wgmmaOperandBytes(N, K, bytes, plan.bKMajor), 1024))};
    }
    return {int64_t(llvm::alignTo(M * getPaddedRowStride(K, bits) * bytes, 16)),
            int64_t(llvm::alignTo(
                plan.bKMajor ? N * getPaddedRowStride(K, bits, true) * bytes
                             : K * getPaddedRowStride(N, bits, true) * bytes,
                16))};
  }

  void rewrite(scf::ForOp loop, LoopPlan &plan) {
    Location loc = loop.getLoc();
    OpBuilder b(loop);
    int S = numStages;
    Type i32 = b.getI32Type();
    auto c32 = [&](int64_t v) {
      return arith::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(v))
          .getResult();
    };
    auto aT = cast<RankedTensorType>(plan.loads[0].getType()),
         bT = plan.bTrans ? plan.bTrans.getType()
                          : cast<RankedTensorType>(plan.loads[1].getType());
    unsigned bits = aT.getElementTypeBitWidth();
    bool useWgmma = plan.useWgmma;
    const std::array<int64_t, 2> &slotBytes = plan.slotBytes;
    int64_t offsets[2] = {0, S * slotBytes[0]};
    // wgmma: A K-major, or M-major (like an N-major B) when stored
    // transposed; B N-major, or K-major (like A) when stored transposed.
    int swizzle[2] = {useWgmma ? (plan.aMMajor ? 2 : 1) : 0,
                      useWgmma ? (plan.bKMajor ? 1 : 2) : 0};

    Value lb = loop.getLowerBound(), ub = loop.getUpperBound(),
          step = loop.getStep();
    // Nobody may still read shared memory an earlier op used.
    kgpu::AsyncWaitOp::create(b, loc, 0);
    SmallVector<Value> args;
    for (unsigned idx : plan.carried)
      args.push_back(loop.getInitArgs()[idx]);
    for (int s = 0; s < S - 1; ++s) {
      Value iv = arith::AddIOp::create(
          b, loc, lb, arith::MulIOp::create(b, loc, step, c32(s)));
      Value live = iterationExists(b, loc, lb, s, step, ub);
      args = issueCopies(b, loc, loop, plan, iv, args, live, c32(s), offsets,
                         slotBytes, swizzle, bits);
    }

    SmallVector<Value> inits = {loop.getInitArgs()[plan.accIndex], c32(0)};
    inits.append(args);
    auto newLoop = scf::ForOp::create(b, loc, lb, ub, step, inits);
    // The loop already keeps S - 1 iterations in flight: unrolling it
    // gains little, and ptxas, which fully unrolls a K loop of constant
    // trip count, spent 4-5x longer on such kernels (triton_mm.5N6M6GSD,
    // eight iterations: 735 -> 138 ms of ptxas 13.0, same registers).
    // scf-to-cf carries this to the back edge; LLVM's unroller honours it
    // and the NVPTX printer turns it into `.pragma "nounroll"` for ptxas.
    MLIRContext *ctx = b.getContext();
    auto noUnroll = LLVM::LoopUnrollAttr::get(
        ctx, /*disable=*/b.getBoolAttr(true), /*count=*/{},
        /*runtimeDisable=*/{}, /*full=*/{}, /*followupUnrolled=*/{},
        /*followupRemainder=*/{}, /*followupAll=*/{});
    newLoop->setAttr(LLVM::LoopAnnotationAttr::getMnemonic(),
                     LLVM::LoopAnnotationAttr::get(
                         ctx, /*disableNonforced=*/{}, /*vectorize=*/{},
                         /*interleave=*/{}, noUnroll, /*unrollAndJam=*/{},
                         /*licm=*/{}, /*distribute=*/{}, /*pipeline=*/{},
                         /*peeled=*/{}, /*unswitch=*/{}, /*mustProgress=*/{},
                         /*isVectorized=*/{}, /*startLoc=*/{}, /*endLoc=*/{},
                         /*parallelAccesses=*/{}));
    {
      OpBuilder::InsertionGuard guard(b);
      Block *body = newLoop.getBody();
      b.setInsertionPointToStart(body);
      Value acc = newLoop.getRegionIterArgs()[0];
      // The slot this iteration reads, i % S, is carried and wrapped with a
      // select, and the slot it refills, (i + S - 1) % S, is the one
      // before it: remainders by S cost ptxas a multiply-high sequence per
      // iteration (and LLVM rewrote each slot address through them).
      Value readSlot = newLoop.getRegionIterArgs()[1];
      SmallVector<Value> ahead(newLoop.getRegionIterArgs().drop_front(2));
      kgpu::AsyncWaitOp::create(b, loc, S - 2);
      Value writeSlot = slotBefore(b, loc, readSlot, S);
      Value iv = arith::AddIOp::create(
          b, loc, newLoop.getInductionVar(),
          arith::MulIOp::create(b, loc, step, c32(S - 1)));
      Value live = iterationExists(b, loc, newLoop.getInductionVar(), S - 1,
                                   step, ub);
      // mma.sync: refill the slot the previous iteration read (every warp
      // is past the barrier above, so done with it), then multiply this
      // slot while the copies run. wgmma: multiply first (asynchronous),
      // refill after the previous group's wait and a barrier (below).
      // wgmma from zero whose sum the loop adds: as mma.sync, since the
      // previous iteration retired its group before the barrier.
      SmallVector<Value> next;
      if (!useWgmma || plan.accAdd)
        next = issueCopies(b, loc, loop, plan, iv, ahead, live, writeSlot,
                           offsets, slotBytes, swizzle, bits);
      // acc += A x B, or acc + (0 + A x B) where the loop adds the dot's
      // result to the carried accumulator itself (plan.accAdd).
      Value dotAcc = acc;
      if (plan.accAdd) {
        Attribute zero;
        matchPattern(plan.dot.getC(), m_Constant(&zero));
        dotAcc = arith::ConstantOp::create(b, loc, acc.getType(),
                                           cast<TypedAttr>(zero));
      }
      auto localDot = kgpu::LocalDotOp::create(
          b, loc, acc.getType(), dotAcc, readSlot, Value(), TypeAttr::get(aT),
          TypeAttr::get(bT), b.getI64IntegerAttr(offsets[0]),
          b.getI64IntegerAttr(slotBytes[0]), b.getI64IntegerAttr(offsets[1]),
          b.getI64IntegerAttr(slotBytes[1]), b.getI32IntegerAttr(S),
          useWgmma ? b.getUnitAttr() : UnitAttr(),
          useWgmma ? b.getUnitAttr() : UnitAttr(),
          plan.bKMajor ? b.getUnitAttr() : UnitAttr(),
          plan.dot.getInputPrecision() == tt::InputPrecision::TF32x3 &&
                  aT.getElementType().isF32()
              ? b.getUnitAttr()
              : UnitAttr(),
          plan.aMMajor ? b.getUnitAttr() : UnitAttr());
      if (plan.ownRegion)
        localDot->setAttr(kOwnSharedMemoryAttr, b.getUnitAttr());
      Value accOut = localDot.getResult();
      // wgmma from zero: retire this iteration's group before the add.
      if (useWgmma && plan.accAdd)
        accOut = kgpu::WgmmaWaitOp::create(b, loc, TypeRange{acc.getType()},
                                           0, ValueRange{accOut})
                     .getResult(0);
      if (plan.accAdd) {
        bool dotFirst = plan.accAdd.getLhs() == plan.dot.getD();
        accOut = arith::AddFOp::create(b, loc, dotFirst ? accOut : acc,
                                       dotFirst ? acc : accOut,
                                       plan.accAdd.getFastmathAttr());
      }
      if (useWgmma && !plan.accAdd) {
        // Wait for the previous iteration's group (this one stays in
        // flight, its accumulator tied through the wait and the back edge
        // into the next group), then a barrier: every warpgroup is done
        // reading slot (i - 1) % S = writeSlot, which the copies refill.
        accOut = kgpu::WgmmaWaitOp::create(b, loc, TypeRange{acc.getType()},
                                           1, ValueRange{accOut})
                     .getResult(0);
        kgpu::BarrierOp::create(b, loc);
        next = issueCopies(b, loc, loop, plan, iv, ahead, live, writeSlot,
                           offsets, slotBytes, swizzle, bits);
      }
      SmallVector<Value> yields = {accOut, slotAfter(b, loc, readSlot, S)};
      yields.append(next);
      scf::YieldOp::create(b, loc, yields);
    }
    loop.getResult(plan.accIndex).replaceAllUsesWith(newLoop.getResult(0));
    // wgmma: the last group is still in flight after the loop (not with
    // accAdd: each iteration retires its own).
    Operation *last = newLoop;
    if (useWgmma && !plan.accAdd)
      last = guardInFlightLoop(newLoop, 0);
    b.setInsertionPointAfter(last);
    kgpu::AsyncWaitOp::create(b, loc, 0);
    loop.erase();
  }
};

} // namespace
