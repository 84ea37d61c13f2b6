//===- KGPUAssignLayouts.cpp - give every tensor a distributed layout -----===//
//
// Tensors that must share a layout (so elementwise ops, broadcasts and loops
// need no data movement) are grouped with a union-find. Each group of the
// highest rank gets a blocked layout from its widest global access; lower-rank
// groups that feed an expand_dims or come out of a reduction get the matching
// slice layout; remaining groups get their own blocked layout. Where two
// demands disagree a kgpu.convert_layout is inserted.
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
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/EquivalenceClasses.h"

namespace kiln {
#define GEN_PASS_DEF_KGPUASSIGNLAYOUTS
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

namespace {

bool isTensor(Value v) { return isa<RankedTensorType>(v.getType()); }

/// Ops whose tensor operands and results all share one layout.
bool sharesLayout(Operation *op) {
  Dialect *d = op->getDialect();
  if (d && (d->getNamespace() == "arith" || d->getNamespace() == "math"))
    return true;
  return isa<tt::AddPtrOp, tt::LoadOp, tt::StoreOp, tt::BitcastOp,
             tt::FpToFpOp, tt::IntToPtrOp, tt::PtrToIntOp, tt::MulhiUIOp,
             tt::ClampFOp, tt::PreciseSqrtOp, tt::PreciseDivFOp,
             tt::ExternElementwiseOp, tt::ElementwiseInlineAsmOp,
             tt::BroadcastOp, tt::AtomicRMWOp, tt::AtomicCASOp,
             tt::ScanOp, tt::MapElementwiseOp, tt::HistogramOp>(op);
}

struct Relation {
  Operation *op; // tt.expand_dims or tt.reduce
  Value lower;   // the lower-rank tensor (expand_dims operand / reduce result)
  Value higher;  // the higher-rank tensor
  unsigned axis;
};

struct KGPUAssignLayouts
    : kiln::impl::KGPUAssignLayoutsBase<KGPUAssignLayouts> {
  using KGPUAssignLayoutsBase::KGPUAssignLayoutsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (mmaVersion != 0 && (mmaVersion < 2 || mmaVersion > 4)) {
      module.emitError() << "mma-version must be 0 (no tensor cores), 2 "
                            "(mma.sync), 3 (wgmma) or 4 (AMD MFMA), got "
                         << mmaVersion.getValue();
      return signalPassFailure();
    }
    if ((mmaVersion == 4 && threadsPerWarp != 64) ||
        ((mmaVersion == 2 || mmaVersion == 3) && threadsPerWarp != 32)) {
      module.emitError() << "mma-version " << mmaVersion.getValue()
                         << (mmaVersion == 4 ? " (AMD MFMA) needs 64-lane "
                                               "wavefronts (threads-per-warp=64)"
                                             : " (NVIDIA tensor cores) needs "
                                               "32-lane warps (threads-per-warp=32)")
                         << ", got threads-per-warp=" << threadsPerWarp.getValue();
      return signalPassFailure();
    }
    if (numWarps < 1 || !llvm::isPowerOf2_32(numWarps)) {
      module.emitError() << "num-warps must be a power of two, got "
                         << numWarps.getValue();
      return signalPassFailure();
    }
    if (threadsPerWarp != 32 && threadsPerWarp != 64) {
      module.emitError() << "threads-per-warp must be 32 or 64, got "
                         << threadsPerWarp.getValue();
      return signalPassFailure();
    }
    Builder b(module.getContext());
    module->setAttr(kgpu::KGPUDialect::kNumWarpsAttrName,
                    b.getI32IntegerAttr(numWarps));
    module->setAttr(kgpu::KGPUDialect::kThreadsPerWarpAttrName,
                    b.getI32IntegerAttr(threadsPerWarp));
    if (numWarps > 32) {
      module.emitError() << "num-warps must be at most 32 (1024 threads per "
                            "CTA), got "
                         << numWarps.getValue();
      return signalPassFailure();
    }
    if (failed(checkTensorShapes(module)))
      return signalPassFailure();
    // The pass gives layouts to tensors that have none: IR that has some
    // already (its own output, kgpu IR written by hand) is refused by name
    // rather than regrouped in part.
    WalkResult laidOut = module.walk([&](Operation *op) {
      auto hasLayout = [](Value v) {
        auto t = dyn_cast<RankedTensorType>(v.getType());
        return t && t.getEncoding();
      };
      for (Value v : op->getResults())
        if (hasLayout(v)) {
          op->emitError() << "kgpu-assign-layouts gives layouts to tensors "
                             "that have none, but this result already has "
                          << v.getType()
                          << ": run it once, on TTIR without layouts";
          return WalkResult::interrupt();
        }
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            if (hasLayout(arg)) {
              op->emitError()
                  << "kgpu-assign-layouts gives layouts to tensors that "
                     "have none, but block argument #"
                  << arg.getArgNumber() << " already has " << arg.getType()
                  << ": run it once, on TTIR without layouts";
              return WalkResult::interrupt();
            }
      return WalkResult::advance();
    });
    if (laidOut.wasInterrupted())
      return signalPassFailure();
    for (auto fn : module.getOps<tt::FuncOp>()) {
      if (failed(assign(fn)))
        return signalPassFailure();
      rematerializeConvertedIndices(fn);
    }
    reconcileCalls(module);
  }

  /// Whether `v`, a 1-D integer tensor, is computed from ranges, splats,
  /// splat constants and integer arithmetic alone (at most `depth` ops
  /// deep), so that a copy of the computation can give it in any layout.
  static bool isRematerializable(Value v, int depth = 8) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    Operation *def = v.getDefiningOp();
    if (!type || type.getRank() != 1 || !type.getElementType().isInteger() ||
        !def || depth == 0)
      return false;
    if (isa<tt::MakeRangeOp, tt::SplatOp>(def))
      return true;
    if (auto cst = dyn_cast<arith::ConstantOp>(def)) {
      auto dense = dyn_cast<DenseElementsAttr>(cst.getValue());
      return dense && dense.isSplat();
    }
    // A remainder or quotient by a power of two is a mask or a shift (and
    // the Inductor templates wrap their row indices with `% M`); any
    // other divisor costs more per element than the conversion saves.
    if (isa<arith::RemSIOp, arith::RemUIOp, arith::DivSIOp, arith::DivUIOp>(
            def)) {
      APInt divisor;
      if (!matchPattern(def->getOperand(1), m_ConstantInt(&divisor)) ||
          !divisor.isPowerOf2())
        return false;
    } else if (!isa<arith::AddIOp, arith::SubIOp, arith::MulIOp,
                    arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp,
                    arith::AndIOp, arith::OrIOp, arith::ShLIOp>(def)) {
      return false;
    }
    return llvm::all_of(def->getOperands(), [&](Value operand) {
      return isRematerializable(operand, depth - 1);
    });
  }

  /// `v` (isRematerializable) computed again in `layout`, at `b`; `done`
  /// holds the copies made so far, so that a value several operands share
  /// is copied once.
  static Value rematerialize(OpBuilder &b, Value v, Attribute layout,
                             DenseMap<Value, Value> &done) {
    if (Value copy = done.lookup(v))
      return copy;
    Operation *def = v.getDefiningOp();
    auto type = cast<RankedTensorType>(v.getType()).cloneWithEncoding(layout);
    Value result;
    if (auto cst = dyn_cast<arith::ConstantOp>(def)) {
      result = arith::ConstantOp::create(
          b, def->getLoc(), type,
          cast<DenseElementsAttr>(cst.getValue()).reshape(type));
    } else {
      // Operands first, so that they dominate the copy.
      IRMapping map;
      if (!isa<tt::MakeRangeOp, tt::SplatOp>(def))
        for (Value operand : def->getOperands())
          map.map(operand, rematerialize(b, operand, layout, done));
      Operation *copy = b.clone(*def, map);
      copy->getResult(0).setType(type);
      result = copy->getResult(0);
    }
    done[v] = result;
    return result;
  }

  /// A kgpu.convert_layout of an index vector computed from ranges,
  /// splats and integer arithmetic would move it through shared memory
  /// between barriers (in every iteration, inside a loop: the K offsets
  /// two operands' pointers share, as the convolution template and block
  /// pointers have): the computation is copied in the wanted layout
  /// instead. After the K loop, the Inductor templates' epilogues convert
  /// their row and column vectors to the accumulator's layout; copied,
  /// each element's index is the thread's base plus a constant, which
  /// kgpu-hoist-index-constants makes explicit (triton_mm.5N6M6GSD: 232
  /// -> 202 registers, no shared memory or barrier in the epilogue).
  static void rematerializeConvertedIndices(tt::FuncOp fn) {
    SmallVector<kgpu::ConvertLayoutOp> converts;
    fn.walk([&](kgpu::ConvertLayoutOp cvt) {
      if (isRematerializable(cvt.getSrc()))
        converts.push_back(cvt);
    });
    for (kgpu::ConvertLayoutOp cvt : converts) {
      OpBuilder b(cvt);
      DenseMap<Value, Value> done;
      Value copy = rematerialize(
          b, cvt.getSrc(),
          cast<RankedTensorType>(cvt.getType()).getEncoding(), done);
      cvt.getResult().replaceAllUsesWith(copy);
      cvt.erase();
    }
  }

  /// Each function's layouts are chosen on their own, so a call's tensor
  /// operands and results may be laid out differently from the callee's
  /// arguments and results (a device function returning its tt.dot's
  /// mma.sync accumulator to a caller that stores it): the call takes the
  /// callee's types, with a kgpu.convert_layout on each side where they
  /// differ.
  static void reconcileCalls(ModuleOp module) {
    SymbolTable symbols(module);
    module.walk([&](tt::CallOp call) {
      auto callee = symbols.lookup<tt::FuncOp>(call.getCallee());
      if (!callee)
        return;
      FunctionType type = callee.getFunctionType();
      if (type.getNumInputs() != call.getNumOperands() ||
          type.getNumResults() != call.getNumResults())
        return;
      OpBuilder builder(call);
      for (auto [i, want] : llvm::enumerate(type.getInputs())) {
        Value operand = call.getOperand(i);
        if (operand.getType() != want && isa<RankedTensorType>(want))
          call->setOperand(i, kgpu::ConvertLayoutOp::create(
                                  builder, call.getLoc(), want, operand));
      }
      builder.setInsertionPointAfter(call);
      for (auto [i, want] : llvm::enumerate(type.getResults())) {
        Value result = call.getResult(i);
        Type had = result.getType();
        if (had == want || !isa<RankedTensorType>(want))
          continue;
        result.setType(want);
        auto cvt = kgpu::ConvertLayoutOp::create(builder, call.getLoc(), had,
                                                 result);
        result.replaceAllUsesExcept(cvt, cvt);
      }
    });
  }

  /// Largest tensor a kernel may hold, in elements (Triton's limit too).
  static constexpr int64_t kMaxTensorElements = int64_t(1) << 20;

  /// Distributed layouts need static, non-empty shapes whose dimensions are
  /// powers of two (Triton's tensors always are): anything else is rejected
  /// here by name rather than lowered wrongly.
  static LogicalResult checkTensorShapes(ModuleOp module) {
    WalkResult result = module.walk([&](Operation *op) {
      auto check = [&](Type type) -> LogicalResult {
        auto t = dyn_cast<RankedTensorType>(type);
        if (!t)
          return success();
        if (t.getRank() == 0)
          return op->emitError() << "rank-0 tensor " << t
                                 << " is not supported; use a scalar";
        if (!t.hasStaticShape())
          return op->emitError() << "tensor " << t
                                 << " has a dynamic dimension; kernels need "
                                    "static shapes";
        for (int64_t d : t.getShape())
          if (d <= 0 || !llvm::isPowerOf2_64(d))
            return op->emitError()
                   << "tensor " << t
                   << " has a dimension that is not a power of two (" << d
                   << "); distributed layouts need power-of-two shapes";
        if (t.getNumElements() > kMaxTensorElements)
          return op->emitError()
                 << "tensor " << t << " has " << t.getNumElements()
                 << " elements; at most " << kMaxTensorElements
                 << " are supported";
        return success();
      };
      for (Type t : op->getResultTypes())
        if (failed(check(t)))
          return WalkResult::interrupt();
      for (Region &r : op->getRegions())
        for (Block &b : r)
          for (BlockArgument a : b.getArguments())
            if (failed(check(a.getType())))
              return WalkResult::interrupt();
      return WalkResult::advance();
    });
    return failure(result.wasInterrupted());
  }

  /// Clones every op `cheap` accepts whose one tensor result has several
  /// uses, so that each use has its own copy (and so its own layout group).
  /// Users come before producers: a clone's operands get copies in turn.
  static void giveEachUseACopy(tt::FuncOp fn,
                               function_ref<bool(Operation *)> cheap) {
    SmallVector<Operation *> candidates;
    fn.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (op->getNumResults() == 1 && isTensor(op->getResult(0)) &&
          op->getNumRegions() == 0 && cheap(op))
        candidates.push_back(op);
    });
    // Uses are counted when an op is reached, after its users were copied.
    for (Operation *op : llvm::reverse(candidates)) {
      if (op->getResult(0).use_empty() || op->getResult(0).hasOneUse())
        continue;
      SmallVector<OpOperand *> uses;
      for (OpOperand &use : op->getResult(0).getUses())
        uses.push_back(&use);
      OpBuilder builder(op);
      builder.setInsertionPointAfter(op);
      for (OpOperand *use : llvm::drop_begin(uses))
        use->set(builder.clone(*op)->getResult(0));
    }
  }

  /// A kgpu.convert_layout of `v` to its own type right after `v`'s
  /// definition, taking every other use of `v`: a boundary between `v`'s
  /// layout group and its users'.
  static void convertAfter(Value v) {
    OpBuilder b(v.getContext());
    b.setInsertionPointAfterValue(v);
    auto cvt = kgpu::ConvertLayoutOp::create(b, v.getLoc(), v.getType(), v);
    v.replaceAllUsesExcept(cvt, cvt);
  }

  /// Index computations: ranges, splats, constants, integer arithmetic,
  /// expand_dims and broadcasts.
  static bool isIndexComputation(Operation *op) {
    if (isa<arith::ConstantOp, tt::SplatOp, tt::MakeRangeOp,
            tt::ExpandDimsOp, tt::BroadcastOp>(op))
      return true;
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    return type && type.getElementType().isIntOrIndex() &&
           isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::DivSIOp,
               arith::DivUIOp, arith::RemSIOp, arith::RemUIOp, arith::AndIOp,
               arith::OrIOp, arith::XOrIOp, arith::ShLIOp, arith::ShRSIOp,
               arith::ShRUIOp, arith::ExtSIOp, arith::ExtUIOp,
               arith::TruncIOp, arith::CmpIOp>(op);
  }

  /// Set once a function's index computations have been given one copy
  /// per use (see assign()).
  bool indicesRematerialized = false;
  /// Which grouping of assign(fn) is running (0 first).
  int isolationRound = 0;

  LogicalResult assign(tt::FuncOp fn) {
    // A first grouping finds the global accesses that would share a
    // tensor-core accumulator layout; those get a kgpu.convert_layout
    // boundary (a load's result, a store's value) so that their pointers
    // and masks keep a coalesced blocked layout, then the grouping reruns.
    // Constants, splats and ranges are cheap to rematerialize: where a
    // tensor-core dot is present, give each use its own copy, so that one
    // constant shared by the K loop's address arithmetic and the epilogue
    // does not put the loop's loads in the accumulator's layout group.
    bool hasMmaDot = false;
    fn.walk([&](tt::DotOp dot) { hasMmaDot |= bool(mmaLayoutFor(dot)); });
    if (hasMmaDot)
      giveEachUseACopy(fn, [](Operation *op) {
        return isa<arith::ConstantOp, tt::SplatOp, tt::MakeRangeOp>(op);
      });
    // A tensor-core accumulator leaves its K loop through one conversion:
    // the epilogue after the loop (bias or residual loads, activation,
    // stores) takes a blocked layout of its own, coalesced for its widest
    // access (16-byte loads and stores), instead of the accumulator's
    // (4-byte accesses of 2 elements, rows 8 apart within a warp).
    if (hasMmaDot)
      fn.walk([&](scf::ForOp loop) {
        // Shapes of the tensors loaded after the loop (in its block).
        SmallVector<ArrayRef<int64_t>> loadedAfter;
        for (Operation *op = loop->getNextNode(); op; op = op->getNextNode())
          op->walk([&](tt::LoadOp load) {
            if (auto type = dyn_cast<RankedTensorType>(load.getType()))
              loadedAfter.push_back(type.getShape());
          });
        Operation *yield = loop.getBody()->getTerminator();
        for (auto [i, result] : llvm::enumerate(loop.getResults())) {
          if (!isTensor(result) || result.use_empty())
            continue;
          Value yielded = yield->getOperand(i);
          auto dot = yielded.getDefiningOp<tt::DotOp>();
          if (auto add = yielded.getDefiningOp<arith::AddFOp>()) {
            dot = add.getLhs().getDefiningOp<tt::DotOp>();
            if (!dot)
              dot = add.getRhs().getDefiningOp<tt::DotOp>();
          }
          if (!dot || !mmaLayoutFor(dot) ||
              dot.getType() != result.getType())
            continue;
          // Only where the epilogue loads a tile of the accumulator's
          // shape (a bias or residual, which would otherwise be loaded in
          // the accumulator's layout); a store alone is converted where it
          // is (isolateAccesses).
          if (!llvm::is_contained(
                  loadedAfter,
                  cast<RankedTensorType>(result.getType()).getShape()))
            continue;
          convertAfter(result);
        }
      });
    // register-a: the loaded tiles a wgmma dot's A is computed from leave
    // their loads through a conversion (see registerALayout).
    if (hasMmaDot)
      fn.walk([&](tt::DotOp dot) {
        SmallVector<Operation *> roots;
        if (!registerALayout(dot, roots))
          return;
        for (Operation *root : roots)
          if (auto load = dyn_cast<tt::LoadOp>(root))
            convertAfter(load.getResult());
      });
    indicesRematerialized = false;
    // Stores first: a store's pointers often share index tensors with a
    // load's, so only what still shares the accumulator's group after the
    // stores are isolated needs a boundary (at most four groupings).
    for (int round = 0; round < 3; ++round) {
      isolationRound = round;
      bool changed = false;
      if (failed(assign(fn, /*isolateAccesses=*/true, changed)))
        return failure();
      if (!changed)
        return success();
    }
    bool changed = false;
    return assign(fn, /*isolateAccesses=*/false, changed);
  }

  LogicalResult assign(tt::FuncOp fn, bool isolateAccesses, bool &changed) {
    MLIRContext *ctx = fn.getContext();
    llvm::EquivalenceClasses<Value> classes;
    SmallVector<Value> tensors;
    SmallVector<Relation> relations;
    SmallVector<tt::DotOp> dots;
    auto add = [&](Value v) {
      if (isTensor(v) && !getLayoutOrNull(v)) {
        classes.insert(v);
        tensors.push_back(v);
      }
    };
    auto unite = [&](Value a, Value c) {
      if (isTensor(a) && isTensor(c))
        classes.unionSets(a, c);
    };

    fn.walk([&](Operation *op) {
      for (Value r : op->getResults())
        add(r);
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (Value arg : block.getArguments())
            add(arg);
    });
    fn.walk([&](Operation *op) {
      if (sharesLayout(op)) {
        Value first;
        for (Value v : llvm::concat<Value>(op->getOperands(), op->getResults()))
          if (isTensor(v)) {
            if (first)
              unite(first, v);
            else
              first = v;
          }
      } else if (auto forOp = dyn_cast<scf::ForOp>(op)) {
        auto yield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
        for (auto [i, init] : llvm::enumerate(forOp.getInitArgs())) {
          unite(init, forOp.getRegionIterArgs()[i]);
          unite(init, forOp.getResult(i));
          unite(init, yield.getOperand(i));
        }
      } else if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
        for (auto [i, res] : llvm::enumerate(ifOp.getResults())) {
          unite(res, ifOp.thenYield().getOperand(i));
          if (!ifOp.getElseRegion().empty())
            unite(res, ifOp.elseYield().getOperand(i));
        }
      } else if (auto whileOp = dyn_cast<scf::WhileOp>(op)) {
        auto cond = whileOp.getConditionOp();
        auto yield = whileOp.getYieldOp();
        for (auto [i, init] : llvm::enumerate(whileOp.getInits())) {
          unite(init, whileOp.getBeforeArguments()[i]);
          unite(init, yield.getOperand(i));
        }
        for (auto [i, res] : llvm::enumerate(whileOp.getResults())) {
          unite(res, cond.getArgs()[i]);
          unite(res, whileOp.getAfterArguments()[i]);
        }
      } else if (auto reduce = dyn_cast<tt::ReduceOp>(op)) {
        for (Value src : reduce.getSrcs())
          unite(reduce.getSrcs().front(), src);
        for (Value res : reduce.getResults()) {
          unite(reduce.getResult().front(), res);
          if (isTensor(res))
            relations.push_back({op, res, reduce.getSrcs().front(),
                                 unsigned(reduce.getAxis())});
        }
      } else if (auto gather = dyn_cast<tt::GatherOp>(op)) {
        // Each result element reads its own index.
        unite(gather.getIndices(), gather.getResult());
      } else if (auto dot = dyn_cast<tt::DotOp>(op)) {
        // The accumulator and the result share a layout: a tensor-core
        // accumulator layout where the dot is eligible (mmaLayoutFor).
        unite(dot.getC(), dot.getD());
        dots.push_back(dot);
      } else if (auto expand = dyn_cast<tt::ExpandDimsOp>(op)) {
        relations.push_back({op, expand.getSrc(), expand.getResult(),
                             unsigned(expand.getAxis())});
      }
    });

    // Pick layouts, highest rank first.
    DenseMap<Value, Attribute> layoutOf; // class leader -> layout
    SmallVector<Value> leaders;
    for (auto it = classes.begin(); it != classes.end(); ++it)
      if ((*it)->isLeader())
        leaders.push_back((*it)->getData());
    auto rankOf = [](Value v) {
      return cast<RankedTensorType>(v.getType()).getRank();
    };
    llvm::stable_sort(leaders, [&](Value a, Value c) {
      return rankOf(a) > rankOf(c);
    });
    // Tensor-core accumulator layouts, from the largest eligible dot of
    // each group.
    DenseMap<Value, Attribute> mmaOf;
    DenseMap<Value, int64_t> mmaSize;
    for (tt::DotOp dot : dots) {
      Attribute mma = mmaLayoutFor(dot);
      if (!mma)
        continue;
      Value leader = classes.getLeaderValue(dot.getD());
      int64_t n = dot.getType().getNumElements();
      if (n > mmaSize.lookup(leader)) {
        mmaOf[leader] = mma;
        mmaSize[leader] = n;
      }
    }
    if (chainDotsOption)
      chainDots(ctx, classes, dots, mmaOf);
    // register-a: A's group takes the accumulator's layout (wgmma's A
    // fragments are an m64nK accumulator's registers, as attention's P).
    for (tt::DotOp dot : dots) {
      SmallVector<Operation *> roots;
      Attribute mma = registerALayout(dot, roots);
      if (!mma || !llvm::all_of(roots, [](Operation *op) {
            return isa<kgpu::ConvertLayoutOp>(op);
          }))
        continue;
      Value aGroup = classes.getLeaderValue(dot.getA()),
            accGroup = classes.getLeaderValue(dot.getD());
      if (aGroup != accGroup && !mmaOf.count(aGroup) &&
          mmaOf.lookup(accGroup) == mma)
        mmaOf[aGroup] = mma;
    }
    if (isolateAccesses && !dots.empty()) {
      auto inMmaGroup = [&](Value v) {
        return isTensor(v) && classes.contains(v) &&
               mmaOf.count(classes.getLeaderValue(v));
      };
      // A load of a dot operand (A or B) still in the accumulator's group
      // once the stores are isolated (from the second grouping on) got
      // there through index tensors its pointers share with the
      // accumulator's users (say a row-offset tensor that both the Q
      // pointers and a mask on the attention scores broadcast): give every
      // use its own copy of the index computations once, and group again,
      // rather than load in the accumulator's layout (uncoalesced) or
      // convert after the load. (A load combined with the accumulator
      // itself, an epilogue's bias, belongs in its group.)
      bool loadInMmaGroup = false;
      fn.walk([&](tt::LoadOp load) {
        if (!inMmaGroup(load.getResult()))
          return;
        loadInMmaGroup |= feedsDotOperand(load, /*throughTrans=*/false);
      });
      // Likewise a dot operand's load that shares a blocked group with a
      // global access of another shape (the epilogue's store, the other
      // operand's load: index tensors such as the row offsets and masks
      // of an M/N-masked matmul reach all of them) takes the layout of
      // the group's largest tensor, whose vector width and thread
      // arrangement fit that tensor, not the operand's tile (a 128x64 f16
      // tile read 8 bytes at a time by threads laid out for 128 columns).
      auto leaderOf = [&](Value v) {
        return isTensor(v) && classes.contains(v) ? classes.getLeaderValue(v)
                                                  : Value();
      };
      // Each access's type and pointers (the dimension they are
      // contiguous along asked only where the shapes match: AxisInfo on
      // demand).
      AxisInfoAnalysis accessInfo;
      DenseMap<Value, SmallVector<std::pair<RankedTensorType, Value>>>
          accessTypes;
      auto fastDim = [&](Value ptr) {
        return isa<RankedTensorType>(ptr.getType())
                   ? accessInfo.getContiguousDim(ptr)
                   : 0u;
      };
      fn.walk([&](Operation *op) {
        Value v, ptr;
        if (auto load = dyn_cast<tt::LoadOp>(op)) {
          v = load.getResult();
          ptr = load.getPtr();
        } else if (auto store = dyn_cast<tt::StoreOp>(op)) {
          v = store.getValue();
          ptr = store.getPtr();
        }
        if (!v)
          return;
        if (Value leader = leaderOf(v))
          accessTypes[leader].push_back(
              {cast<RankedTensorType>(v.getType()), ptr});
      });
      bool operandLoadShared = false;
      fn.walk([&](tt::LoadOp load) {
        Value leader = leaderOf(load.getResult());
        if (!leader || mmaOf.count(leader))
          return;
        if (!feedsDotOperand(load, /*throughTrans=*/true)) {
          // Any other load whose tile the group's layout would spread
          // over more lanes than it has elements along some dimension
          // (longer than 1: a broadcast row or column is cheap to load
          // in every lane): a dot operand computed from loaded tiles (an
          // activation applied to A before the dot) shares the index
          // computations of the other operand and of the epilogue, and
          // each thread then loads and computes its elements twice or
          // more.
          operandLoadShared |= splitsTile(
              chooseBlocked(ctx, classes, leader, accessInfo),
              load.getResult());
          return;
        }
        auto shape = cast<RankedTensorType>(load.getType()).getShape();
        const auto &others = accessTypes[leader];
        // Without a tensor-core dot the accumulator's group is blocked
        // too, coalesced for its widest access: an operand load sharing it
        // with any other access (the result's store, contiguous along N,
        // where B is contiguous along K) is read in the other's order.
        // With one, an access of another shape, or of the same shape but
        // contiguous along the other dimension (a square tile: A stored
        // K x M, whose row offsets also index the result's store), does
        // that.
        operandLoadShared |=
            mmaOf.empty()
                ? others.size() > 1
                : llvm::any_of(others, [&](const auto &other) {
                    return other.first.getShape() != shape ||
                           (other.second != load.getPtr() &&
                            fastDim(other.second) != fastDim(load.getPtr()));
                  });
      });
      // (Without a tensor-core dot, no store is isolated in the first
      // round: a CUDA-core dot's operand load gets its own index
      // computations from the start.)
      SmallVector<Operation *> accesses;
      fn.walk([&](tt::StoreOp store) {
        if (inMmaGroup(store.getValue()))
          accesses.push_back(store);
      });
      if (accesses.empty())
        fn.walk([&](tt::LoadOp load) {
          if (inMmaGroup(load.getResult()))
            accesses.push_back(load);
        });
      // The first grouping isolates the accumulator group's accesses
      // before anything else, unless it has none (an epilogue that
      // already leaves the accumulator through the loop-exit conversion
      // above): then an operand load shared with another access is dealt
      // with now, or it would keep the group's layout. (cp_biasres 32x128:
      // A's 32x64 tile in the epilogue's 32x128 layout, 16 lanes along a
      // row of 8-element vectors, so half the lanes copied the other
      // half's columns again.)
      if ((loadInMmaGroup || operandLoadShared) &&
          (isolationRound > 0 || mmaOf.empty() || accesses.empty()) &&
          !indicesRematerialized) {
        indicesRematerialized = true;
        giveEachUseACopy(fn, isIndexComputation);
        changed = true;
        return success();
      }
      for (Operation *op : accesses) {
        OpBuilder builder(op);
        if (auto store = dyn_cast<tt::StoreOp>(op)) {
          Value v = store.getValue();
          auto cvt = kgpu::ConvertLayoutOp::create(builder, op->getLoc(),
                                                   v.getType(), v);
          store.getValueMutable().set(cvt);
        } else {
          convertAfter(op->getResult(0));
        }
      }
      changed = !accesses.empty();
      if (changed)
        return success();
    }
    AxisInfoAnalysis axisInfo;
    for (Value leader : leaders) {
      Attribute layout = mmaOf.lookup(leader);
      // A lower-rank group takes the slice of the first higher-rank group
      // it is expanded into (or reduced from) that has a layout.
      SmallVector<Attribute, 2> slices;
      for (const Relation &rel : relations) {
        if (layout)
          break;
        if (classes.getLeaderValue(rel.lower) != leader)
          continue;
        auto it = layoutOf.find(classes.getLeaderValue(rel.higher));
        if (it == layoutOf.end())
          continue;
        Attribute slice =
            kgpu::SliceEncodingAttr::get(ctx, rel.axis, it->second);
        if (!llvm::is_contained(slices, slice))
          slices.push_back(slice);
      }
      if (!slices.empty())
        layout = slices.front();
      // A vector loaded from global memory and added into a tensor-core
      // accumulator (a slice of its mma layout) whose group also meets
      // another slice: a convert_layout of the loaded values follows
      // whichever slice the group takes. Where the first slice holds each
      // element in several threads and a blocked layout holds each in one,
      // the group is blocked and loaded once. (A bias vector whose columns
      // also index the result's store took the slice of the store's
      // blocked layout, 8 warps deep, and was loaded 8 times over, lanes
      // 32 bytes apart.) Elsewhere (no accumulator, or a vector shorter
      // than the CTA) the extra conversions cost more than the loads: a
      // CUDA-core row vector that met a reduction got two more shared-
      // memory round trips and, in one test, ptxas spilled 7 KB.
      if (slices.size() > 1 && loadsFromGlobal(classes, leader) &&
          llvm::any_of(slices, isMmaSlice) &&
          replicates(slices.front(), leader)) {
        Attribute blocked = chooseBlocked(ctx, classes, leader, axisInfo);
        if (!replicates(blocked, leader))
          layout = blocked;
      }
      if (!layout)
        layout = chooseBlocked(ctx, classes, leader, axisInfo);
      layoutOf[leader] = layout;
    }

    // Rewrite types.
    for (Value v : tensors) {
      auto type = cast<RankedTensorType>(v.getType());
      Attribute layout = layoutOf.lookup(classes.getLeaderValue(v));
      v.setType(type.cloneWithEncoding(layout));
    }
    // Keep the signature in step with the (possibly re-typed) entry block
    // arguments and returned values of non-kernel functions.
    if (!fn.isExternal()) {
      SmallVector<Type> results(fn.getResultTypes());
      fn.walk([&](tt::ReturnOp ret) {
        results.assign(ret.getOperandTypes().begin(),
                       ret.getOperandTypes().end());
      });
      fn.setFunctionType(FunctionType::get(
          ctx, fn.getBody().front().getArgumentTypes(), results));
    }
    // The dots whose accumulator took their own split-N wgmma layout (a dot
    // whose group took another dot's layout is not marked: where that
    // layout has warps along N, kgpu-pipeline-dot-loops keeps it on
    // mma.sync).
    for (tt::DotOp dot : dots) {
      MmaChoice choice = mmaChoiceFor(dot);
      if (choice.wgmmaSplitN &&
          dot.getType().getEncoding() == choice.layout)
        dot->setAttr(kWgmmaSplitNAttr, UnitAttr::get(ctx));
      else
        dot->removeAttr(kWgmmaSplitNAttr);
    }
    fn.walk([&](arith::ConstantOp cst) {
      if (auto dense = dyn_cast<DenseElementsAttr>(cst.getValue())) {
        if (dense.getType() != cst.getType())
          cst.setValueAttr(dense.reshape(cast<ShapedType>(cst.getType())));
      } else if (auto blob =
                     dyn_cast<DenseResourceElementsAttr>(cst.getValue())) {
        // The same blob under the type with the layout (helper-93: left
        // with the old type, the constant failed the verifier with "all of
        // {value, result} have same type" on gfx942; the lowering refuses
        // such a constant by name).
        if (blob.getType() != cst.getType())
          cst.setValueAttr(DenseResourceElementsAttr::get(
              cast<ShapedType>(cst.getType()), blob.getRawHandle()));
      }
    });

    // Reconcile the relations that the choice above did not satisfy.
    for (const Relation &rel : relations) {
      auto higher = cast<RankedTensorType>(rel.higher.getType());
      auto lower = cast<RankedTensorType>(rel.lower.getType());
      Attribute wanted =
          kgpu::SliceEncodingAttr::get(ctx, rel.axis, higher.getEncoding());
      if (lower.getEncoding() == wanted)
        continue;
      OpBuilder builder(rel.op);
      RankedTensorType wantedType = lower.cloneWithEncoding(wanted);
      if (isa<tt::ExpandDimsOp>(rel.op)) {
        auto cvt = kgpu::ConvertLayoutOp::create(builder, rel.op->getLoc(),
                                                 wantedType, rel.lower);
        rel.op->setOperand(0, cvt);
      } else {
        builder.setInsertionPointAfter(rel.op);
        Value result = rel.lower;
        auto cvt = kgpu::ConvertLayoutOp::create(builder, rel.op->getLoc(),
                                                 lower, result);
        result.replaceAllUsesExcept(cvt, cvt);
        result.setType(wantedType);
      }
    }
    return success();
  }

  /// A tt.dot's tensor-core accumulator layout (null where it has none) and
  /// whether that layout is the wgmma one with the warpgroups splitting N.
  struct MmaChoice {
    Attribute layout;
    bool wgmmaSplitN = false;
  };

  /// mmaChoiceFor's layout.
  Attribute mmaLayoutFor(tt::DotOp dot) { return mmaChoiceFor(dot).layout; }

  /// #kgpu.mma<{version = 2}> for a tt.dot that mma.sync can compute, null
  /// otherwise: m16n8k16 for f16 or bf16 operands (K % 16 == 0), m16n8k8
  /// .tf32 for f32 operands with inputPrecision tf32 or tf32x3 (K % 8 ==
  /// 0, f32 accumulator); M % 16 == 0, N % 8 == 0, 32-lane warps. Warps are
  /// doubled along the dimension with more instruction tiles left per warp
  /// (M first on a tie); warps beyond the tiles replicate along M.
  MmaChoice mmaChoiceFor(tt::DotOp dot) {
    if (mmaVersion == 4)
      return {mfmaLayoutFor(dot)};
    if ((mmaVersion != 2 && mmaVersion != 3) || threadsPerWarp != 32 ||
        !mmaSyncComputes(dot))
      return {};
    int64_t M = dot.getA().getType().getDimSize(0),
            N = dot.getB().getType().getDimSize(1);
    // wgmma (sm_90a): each warpgroup of 4 warps owns 64 rows of every block of
    // 16 * num-warps rows and the whole N (wgmmaComputes). Only for the one dot
    // of a loop that carries its accumulator, the loops kgpu-pipeline-dot-loops
    // turns into wgmma: elsewhere mma.sync runs on this layout, which gives
    // every warp a whole row of N. A K of 32 (64-byte rows) only over 3 or more
    // stages (the num-stages option); tf32 only where B is read K-contiguous
    // (bReadKMajor); N only a multiple of 64 and K of 32 (wgmmaNarrowTile). K
    // 32 and tf32 only where their wgmma slots fit (wgmmaSlotsFit); mma.sync's
    // padded slots are smaller than half-filled swizzle rows and f32 ones.
    // Fewer rows than 16 * num-warps (64 rows on 8 warps): 4 warps along M
    // and the warpgroups splitting N (wgmmaComputes' warpsN; 16-bit, N /
    // warpgroups a multiple of 64), each warp column owning one contiguous
    // half of N (instrShape [16, N / 2]: warpgroup g's wgmma m64n(N/2)
    // reads B's columns from g * N / 2, whole 64-column blocks of the
    // slot, and B's copy stores the tile as it is). The fifteenth session
    // dealt 8-column tiles to the warp columns in turn instead (B's copy
    // interleaved): with B read N-contiguous each shared-memory phase of
    // that copy wrote both halves, 1024 bytes apart (2-way bank
    // conflicts), and triton_bmm ran 8.4 -> 9.8 us, so such dots had kept
    // mma.sync (docs/BENCHMARKS.md, fifteenth and twenty-fifth sessions).
    // Only where A and B are tiles the loop loads (B possibly through
    // tt.trans), which kgpu-pipeline-dot-loops can stage for wgmma: a loop
    // it leaves runs mma.sync on this layout, and there the warps' 16 x 64
    // tiles read more fragments per mma.sync than [2, 4]'s 32 x 32 (H200,
    // twenty-fifth session: B scaled in the loop 14.59 -> 15.17 us, A loaded
    // before it 15.93 -> 16.16). Only on 8 warps (measured there;
    // helper-47's 32-warp split ran out of registers in ptxas), and only
    // where its slots fit. assign marks
    // the dot (kWgmmaSplitNAttr) for kgpu-pipeline-dot-loops where its
    // accumulator takes that layout.
    unsigned warpsN = 0;
    if (mmaVersion == 3 && wgmmaComputes(dot, numWarps))
      warpsN = 1;
    else if (mmaVersion == 3 && numWarps == 8 && wgmmaComputes(dot, 4, 2) &&
             operandsLoadedInLoop(dot))
      warpsN = 2;
    if (warpsN && !wgmmaNarrowTile(dot) && isLoopCarriedDot(dot)) {
      bool partial = wgmmaPartialRows(dot), tf32 = isTf32Dot(dot);
      bool bKMajor = (partial || tf32 || warpsN > 1) && bReadKMajor(dot);
      if ((!partial && !tf32 && warpsN == 1) ||
          ((!partial || numStages >= 3) && (!tf32 || bKMajor) &&
           wgmmaSlotsFit(dot, bKMajor))) {
        return {kgpu::MmaEncodingAttr::get(
                    dot.getContext(), 2,
                    {unsigned(numWarps) / warpsN, warpsN},
                    {16, warpsN > 1 ? unsigned(N) / warpsN : 8u}),
                warpsN > 1};
      }
    }
    auto [wm, wn] = splitWarps(M / 16, N / 8);
    return {kgpu::MmaEncodingAttr::get(dot.getContext(), 2, {wm, wn}, {16, 8})};
  }

  /// With chain-dots (the default): chained dots (attention: P = f(Q K^T)
  /// is the A operand of P V). Where a dot's A operand is in the group of
  /// another dot's mma.sync accumulator, both groups take warps along M
  /// only ({num-warps, 1}), so that a warp holds whole rows of P and the
  /// second dot reads its A fragments from the first one's accumulator
  /// registers (an m16n8 C fragment pair is an m16n8k16 A fragment, PTX
  /// ISA 9.7.14.5.8) instead of staging P through shared memory, and row
  /// reductions of the scores stay within a warp. Only where every dot of
  /// both groups has M a multiple of 16 * num-warps (no warp replicates
  /// another's rows).
  void chainDots(MLIRContext *ctx, llvm::EquivalenceClasses<Value> &classes,
                 ArrayRef<tt::DotOp> dots, DenseMap<Value, Attribute> &mmaOf) {
    auto groupOf = [&](Value v) -> Value {
      return isTensor(v) && classes.contains(v) ? classes.getLeaderValue(v)
                                                : Value();
    };
    // Both groups of every chain: A's and the accumulator's.
    DenseSet<Value> chained;
    for (tt::DotOp dot : dots) {
      Value aGroup = groupOf(dot.getA()), accGroup = groupOf(dot.getD());
      if (!aGroup || !accGroup || aGroup == accGroup ||
          !kgpu::isMmaV2(mmaOf.lookup(aGroup)) ||
          !kgpu::isMmaV2(mmaOf.lookup(accGroup)))
        continue;
      chained.insert(aGroup);
      chained.insert(accGroup);
    }
    if (chained.empty())
      return;
    int64_t rowsPerTile = 16 * int64_t(numWarps);
    for (tt::DotOp dot : dots) {
      Value group = groupOf(dot.getD());
      if (group && chained.contains(group) &&
          dot.getType().getDimSize(0) % rowsPerTile != 0)
        return;
    }
    Attribute rows = kgpu::MmaEncodingAttr::get(
        ctx, 2, {unsigned(numWarps), 1u}, {16, 8});
    for (Value group : chained)
      mmaOf[group] = rows;
  }

  /// Whether `load`'s result is a tt.dot's A or B operand: directly, through
  /// the tt.fp_to_fp to f16 of an f8 load (tt-upcast-f8-dot-operands), or
  /// with `throughTrans` through a tt.trans too (before or after the
  /// upcast); each op in between has this one use.
  static bool feedsDotOperand(tt::LoadOp load, bool throughTrans) {
    return llvm::any_of(load->getUsers(), [&](Operation *user) {
      Value operand = load.getResult();
      for (int step = 0; step < 2 && user->hasOneUse(); ++step) {
        if (!isa<tt::FpToFpOp>(user) &&
            !(throughTrans && isa<tt::TransOp>(user)))
          break;
        operand = user->getResult(0);
        user = *user->getUsers().begin();
      }
      auto dot = dyn_cast<tt::DotOp>(user);
      return dot && (dot.getA() == operand || dot.getB() == operand);
    });
  }

  /// Whether `dot`'s B is tt.trans [1, 0] of a tile or a load contiguous
  /// along K (dimension 0): what kgpu-pipeline-dot-loops copies into
  /// wgmma's K-major slots 16 bytes at a time. wgmma's tf32 form reads B
  /// K-major only; a tf32 B contiguous along N would be copied 4 bytes at
  /// a time, and on the H200 that ran 1.2-1.9x slower than mma.sync .tf32
  /// reading it row-major (Triton 3.6 copies it so, at that speed;
  /// docs/BENCHMARKS.md), so such dots keep mma.sync's layout.
  /// Both read more than one element per copy along K.
  static bool bReadKMajor(tt::DotOp dot) {
    return readAlongDim0(dot.getB(), /*allowTrans=*/true);
  }

  /// The tt.load that defines the dot operand `v`, or with `allowTrans` the
  /// one a tt.trans [1, 0] defining `v` transposes (`transposed` then set);
  /// null otherwise.
  static tt::LoadOp operandLoad(Value v, bool allowTrans,
                                bool *transposed = nullptr) {
    if (auto trans = v.getDefiningOp<tt::TransOp>(); trans && allowTrans) {
      if (trans.getOrder() != ArrayRef<int32_t>{1, 0})
        return {};
      v = trans.getSrc();
      if (transposed)
        *transposed = true;
    }
    return v.getDefiningOp<tt::LoadOp>();
  }

  /// Whether the dot operand `v` is a load contiguous along its dimension
  /// 0 (or, with `allowTrans`, tt.trans [1, 0] of one contiguous along its
  /// dimension 1), more than one element per copy.
  static bool readAlongDim0(Value v, bool allowTrans) {
    bool transposed = false;
    tt::LoadOp load = operandLoad(v, allowTrans, &transposed);
    unsigned dim = transposed ? 1 : 0;
    if (!load || !isa<RankedTensorType>(load.getPtr().getType()))
      return false;
    AxisInfoAnalysis axisInfo;
    return axisInfo.getContiguousDim(load.getPtr()) == dim &&
           axisInfo.getVectorWidth(load.getPtr(), load.getMask(), dim) > 1;
  }

  /// Whether num-stages slots of `dot`'s A (K-major) and B (K-major with
  /// `bKMajor`, bReadKMajor's answer; N-major otherwise) in wgmma's
  /// swizzled arrangements fit sm_90's shared memory per CTA.
  bool wgmmaSlotsFit(tt::DotOp dot, bool bKMajor) {
    RankedTensorType aT = dot.getA().getType(), bT = dot.getB().getType();
    unsigned bytes = aT.getElementTypeBitWidth() / 8;
    int64_t M = aT.getDimSize(0), K = aT.getDimSize(1), N = bT.getDimSize(1);
    int64_t stage =
        llvm::alignTo(wgmmaOperandBytes(M, K, bytes, true), 1024) +
        llvm::alignTo(wgmmaOperandBytes(N, K, bytes, bKMajor), 1024);
    return int64_t(numStages) * stage <= kWgmmaMaxSharedBytes;
  }

  /// Whether `dot`'s A is a tt.load in the dot's block and its B one too,
  /// directly or through tt.trans [1, 0] (operandLoad): the operands
  /// kgpu-pipeline-dot-loops copies into its slots.
  static bool operandsLoadedInLoop(tt::DotOp dot) {
    tt::LoadOp a = operandLoad(dot.getA(), /*allowTrans=*/false),
               b = operandLoad(dot.getB(), /*allowTrans=*/true);
    return a && b && a->getBlock() == dot->getBlock() &&
           b->getBlock() == dot->getBlock();
  }

  /// Whether elementwise op `op` is special-function work: a
  /// transcendental (exp, log, sqrt, tanh, sin...), which NVPTX lowers to
  /// the special function unit's ex2 / lg2 / rsqrt / sin... (PTX ISA 9.7.3,
  /// floating-point instructions), or a float division (rcp plus Newton
  /// steps), or a libdevice call. Rounding, sign and bit-count ops of the
  /// math dialect, and fma, are not.
  static bool usesSpecialFunctions(Operation *op) {
    if (isa<arith::DivFOp, arith::RemFOp, tt::PreciseDivFOp, tt::PreciseSqrtOp,
            tt::ExternElementwiseOp>(op))
      return true;
    return isa<math::MathDialect>(op->getDialect()) &&
           !isa<math::AbsFOp, math::AbsIOp, math::CopySignOp, math::FmaOp,
                math::FloorOp, math::CeilOp, math::RoundOp, math::RoundEvenOp,
                math::TruncOp, math::CountLeadingZerosOp,
                math::CountTrailingZerosOp, math::CtPopOp>(op);
  }

  /// register-a (the option): the wgmma accumulator layout `dot` takes
  /// where the loop computes its A from loaded tiles, null otherwise; then
  /// `roots` holds each such tile's tt.load, or the kgpu.convert_layout
  /// that already follows it. It must hold that:
  /// - mma-version is 3 and `dot` is the loop-carried dot wgmma computes
  ///   with the warps along M only (not split along N), 16-bit A;
  /// - B is a tt.load in the loop body (through tt.trans [1, 0] or not),
  ///   and A is not (the pipelined K loop's case);
  /// - the ops from the tiles to A are in the body: elementwise ops,
  ///   broadcasts, splats and constants, with expand_dims' lower-rank
  ///   operands and values defined before the loop as further inputs;
  ///   the tiles are tt.loads through tensors of pointers of A's shape,
  ///   at least one;
  /// - not, with fewer than 4 stages, two or more warpgroups along M with
  ///   one 64-row block of A each where those ops include special-function
  ///   work (usesSpecialFunctions).
  /// The conversion after each tile's load leaves its pointers, masks and
  /// copies a coalesced blocked layout; kgpu-pipeline-dot-loops turns
  /// load and conversion into a cp.async copy and a kgpu.local_load.
  Attribute registerALayout(tt::DotOp dot, SmallVectorImpl<Operation *> &roots) {
    roots.clear();
    if (!registerA || mmaVersion != 3 || threadsPerWarp != 32)
      return {};
    Block *body = dot->getBlock();
    RankedTensorType aT = dot.getA().getType();
    if (aT.getRank() != 2 ||
        !(aT.getElementType().isF16() || aT.getElementType().isBF16()) ||
        !isa<scf::ForOp>(dot->getParentOp()))
      return {};
    MmaChoice choice = mmaChoiceFor(dot);
    auto mma = dyn_cast_or_null<kgpu::MmaEncodingAttr>(choice.layout);
    if (!mma || choice.wgmmaSplitN || mma.getWarpsPerCTA()[1] != 1 ||
        !wgmmaComputes(dot, numWarps) || !isLoopCarriedDot(dot))
      return {};
    tt::LoadOp b = operandLoad(dot.getB(), /*allowTrans=*/true);
    if (!b || b->getBlock() != body ||
        operandLoad(dot.getA(), /*allowTrans=*/false))
      return {};
    auto isTile = [&](tt::LoadOp load) {
      return load && load->getBlock() == body && !load.getIsVolatile() &&
             isa<RankedTensorType>(load.getPtr().getType()) &&
             cast<RankedTensorType>(load.getType()).getShape() ==
                 aT.getShape();
    };
    SmallVector<Value> work = {dot.getA()};
    DenseSet<Value> seen;
    bool specialFunctions = false;
    while (!work.empty()) {
      Value v = work.pop_back_val();
      if (!isTensor(v) || !seen.insert(v).second)
        continue;
      Operation *def = v.getDefiningOp();
      if (!def)
        return {}; // an iteration argument, or the loop's
      if (def->getBlock() != body || isa<tt::ExpandDimsOp>(def))
        continue;
      if (auto load = dyn_cast<tt::LoadOp>(def)) {
        if (isTile(load))
          roots.push_back(load);
        continue; // a smaller tile (a [1, K] scale) loads in A's layout
      }
      if (auto cvt = dyn_cast<kgpu::ConvertLayoutOp>(def)) {
        if (!isTile(cvt.getSrc().getDefiningOp<tt::LoadOp>()))
          return {};
        roots.push_back(cvt);
        continue;
      }
      bool elementwise =
          def->getNumResults() == 1 &&
          (isa<tt::BroadcastOp, tt::SplatOp, tt::FpToFpOp, tt::BitcastOp,
               tt::ClampFOp, tt::PreciseSqrtOp, tt::PreciseDivFOp,
               tt::MulhiUIOp, tt::ExternElementwiseOp>(def) ||
           (def->getNumRegions() == 0 &&
            isa_and_nonnull<arith::ArithDialect, math::MathDialect>(
                def->getDialect())));
      if (!elementwise)
        return {};
      specialFunctions |= usesSpecialFunctions(def);
      llvm::append_range(work, def->getOperands());
    }
    if (roots.empty())
      return {};
    // Two or more warpgroups with one 64-row block of A each, A computed
    // with special-function work, fewer than 4 stages: the 128-row
    // silu(A) @ B kernels on 8 warps ran 1.10-1.28x slower with A in
    // registers than through shared memory with 2 or 3 stages (5 kernels),
    // and 1.16-1.25x faster with 4 (4 of 5; H200, docs/BENCHMARKS.md,
    // thirty-sixth session); with 256 rows, or a scale instead of the
    // silu, registers were faster at 3 stages too. Such dots keep A in
    // shared memory.
    int64_t warpsM = mma.getWarpsPerCTA()[0];
    if (specialFunctions && warpsM >= 8 && aT.getDimSize(0) == 16 * warpsM &&
        numStages < 4)
      return {};
    return mma;
  }

  /// Whether `dot` is the only tt.dot of an scf.for body and its
  /// accumulator is one of the loop's iteration arguments (what a pipelined
  /// K loop looks like).
  bool isLoopCarriedDot(tt::DotOp dot) {
    auto loop = dyn_cast<scf::ForOp>(dot->getParentOp());
    if (!loop)
      return false;
    // Or `acc += tl.dot(a, b)` as Triton's frontend leaves it for f8
    // operands: a dot from zero whose only use adds it to the carried
    // accumulator (kgpu-pipeline-dot-loops' accAdd), where wgmma takes it
    // (wgmmaFromZeroFits).
    Value carried = dot.getC();
    if (matchPattern(carried, m_AnyZeroFloat()) && dot->hasOneUse() &&
        wgmmaFromZeroFits(dot, numWarps))
      if (auto add = dyn_cast<arith::AddFOp>(*dot->getUsers().begin()))
        carried = add.getLhs() == dot.getD() ? add.getRhs() : add.getLhs();
    auto arg = dyn_cast<BlockArgument>(carried);
    if (!arg || arg.getOwner() != loop.getBody() || arg.getArgNumber() == 0)
      return false;
    return llvm::count_if(loop.getBody()->getOperations(), [](Operation &op) {
             return isa<tt::DotOp>(op);
           }) == 1;
  }

  /// Splits the CTA's warps over M and N for a dot of `tilesM` x `tilesN`
  /// instruction tiles: doubled along the dimension with more tiles left
  /// per warp (M first on a tie); warps beyond the tiles replicate along M.
  std::pair<unsigned, unsigned> splitWarps(int64_t tilesM, int64_t tilesN) {
    unsigned wm = 1, wn = 1, warps = numWarps;
    while (warps > 1 && (tilesM > 1 || tilesN > 1)) {
      if (tilesM >= tilesN) {
        wm *= 2;
        tilesM = llvm::divideCeil(tilesM, 2);
      } else {
        wn *= 2;
        tilesN = llvm::divideCeil(tilesN, 2);
      }
      warps /= 2;
    }
    return {wm * warps, wn};
  }

  /// #kgpu.mfma for a tt.dot AMD CDNA matrix cores compute with 16x16
  /// MFMA tiles (64-lane wavefronts; f16, bf16 or f32 operands, M and N
  /// multiples of 16, K of 16 (16-bit) or 4 (f32), f32 accumulation).
  /// Wavefronts are doubled along the dimension with more 16-wide tiles
  /// left (M first on a tie); extra ones replicate along M.
  Attribute mfmaLayoutFor(tt::DotOp dot) {
    if (threadsPerWarp != 64 || !mfmaComputes(dot))
      return {};
    auto [wm, wn] = splitWarps(dot.getA().getType().getDimSize(0) / 16,
                               dot.getB().getType().getDimSize(1) / 16);
    return kgpu::MfmaEncodingAttr::get(dot.getContext(), {wm, wn}, {16, 16});
  }

  static Attribute getLayoutOrNull(Value v) {
    return kgpu::getLayout(v.getType());
  }

  /// Whether `layout` is a slice of a tensor-core accumulator layout.
  static bool isMmaSlice(Attribute layout) {
    auto slice = dyn_cast<kgpu::SliceEncodingAttr>(layout);
    return slice && isa<kgpu::MmaEncodingAttr>(slice.getParent());
  }

  /// Whether a tt.load result is in `leader`'s class.
  static bool loadsFromGlobal(llvm::EquivalenceClasses<Value> &classes,
                              Value leader) {
    for (auto it = classes.findLeader(leader); it != classes.member_end();
         ++it)
      if (isa_and_nonnull<tt::LoadOp>((*it).getDefiningOp()))
        return true;
    return false;
  }

  /// Whether the CTA tile of `layout` (kgpu::getTileShape) is longer than
  /// `v`'s tensor along a dimension where the tensor is longer than 1 (some
  /// element held by several threads, other than by broadcast).
  static bool splitsTile(Attribute layout, Value v) {
    ArrayRef<int64_t> shape = cast<RankedTensorType>(v.getType()).getShape();
    SmallVector<int64_t> tile = kgpu::getTileShape(layout);
    for (auto [d, size] : llvm::enumerate(shape))
      if (size > 1 && tile[d] > size)
        return true;
    return false;
  }

  /// Whether `layout` gives `v`'s tensor more element slots across the CTA
  /// than it has elements (some element held by several threads).
  bool replicates(Attribute layout, Value v) const {
    auto type = cast<RankedTensorType>(v.getType());
    return int64_t(kgpu::getNumElemsPerThread(layout, type.getShape())) *
               numWarps * threadsPerWarp >
           type.getNumElements();
  }

  /// A blocked layout for a group: shaped after its largest tensor and, when
  /// the group holds global accesses, coalesced for the widest of them.
  Attribute chooseBlocked(MLIRContext *ctx,
                          llvm::EquivalenceClasses<Value> &classes,
                          Value leader, AxisInfoAnalysis &axisInfo) {
    Value largest = leader;
    Value anchorPtr, anchorMask;
    int64_t anchorElems = -1;
    auto numel = [](Value v) {
      return cast<RankedTensorType>(v.getType()).getNumElements();
    };
    for (auto it = classes.findLeader(leader);
         it != classes.member_end(); ++it) {
      Value v = *it;
      if (numel(v) > numel(largest))
        largest = v;
      for (Operation *user : v.getUsers()) {
        Value ptr, mask;
        if (auto load = dyn_cast<tt::LoadOp>(user)) {
          ptr = load.getPtr();
          mask = load.getMask();
        } else if (auto store = dyn_cast<tt::StoreOp>(user)) {
          ptr = store.getPtr();
          mask = store.getMask();
        }
        if (ptr == v && numel(v) > anchorElems) {
          anchorPtr = ptr;
          anchorMask = mask;
          anchorElems = numel(v);
        }
      }
    }
    auto shape = cast<RankedTensorType>(largest.getType()).getShape();
    unsigned rank = shape.size();
    SmallVector<unsigned> order;
    unsigned vec = 1;
    if (anchorPtr) {
      unsigned fast = axisInfo.getContiguousDim(anchorPtr);
      vec = axisInfo.getVectorWidth(anchorPtr, anchorMask, fast);
      order.push_back(fast);
    } else {
      order.push_back(rank - 1);
    }
    for (int d = rank - 1; d >= 0; --d)
      if (unsigned(d) != order.front())
        order.push_back(d);
    // Keep at least one element per thread: never ask for more per thread
    // than the tensor holds per thread when spread over the whole CTA.
    int64_t total = 1;
    for (int64_t s : shape)
      total *= s;
    int64_t perThread =
        std::max<int64_t>(1, total / (int64_t(numWarps) * threadsPerWarp));
    vec = std::max<unsigned>(1, std::min<int64_t>(vec, perThread));
    return kgpu::getDefaultBlockedLayout(ctx, shape, numWarps, threadsPerWarp,
                                         order, vec);
  }
};

} // namespace
