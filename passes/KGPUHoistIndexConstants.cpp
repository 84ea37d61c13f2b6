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
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"

namespace kiln {
#define GEN_PASS_DEF_KGPUHOISTINDEXCONSTANTS
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

namespace {

/// An integer value as `base + offset`: base null when the value is the
/// constant `offset` itself.
struct Split {
  Value base;
  APInt offset;
};

/// The integer constant `v` holds (an llvm.mlir.constant of a scalar
/// integer type), at the width of `v`'s type: an llvm.mlir.constant may
/// carry an attribute of another width, which LLVM IR translation
/// zero-extends if it is a bool (`llvm.mlir.constant(true) : i32` is 1)
/// and otherwise sign-extends or truncates (`-1 : i8` and `3 : i2` are -1).
std::optional<APInt> constantOf(Value v) {
  auto type = dyn_cast<IntegerType>(v.getType());
  APInt value;
  if (!type || !matchPattern(v, m_ConstantInt(&value)))
    return std::nullopt;
  return value.getBitWidth() == 1 ? value.zextOrTrunc(type.getWidth())
                                  : value.sextOrTrunc(type.getWidth());
}

/// Splits every integer add / sub / mul-by-constant / shl-by-constant of
/// a function into a shared base plus a constant, once per value: each
/// value's split is computed from its operands' splits (memoized), so a
/// chain of n ops takes O(n) new ops however its values are reused.
class Hoister {
public:
  explicit Hoister(OpBuilder &builder) : builder(builder) {}

  /// Rewrites `op` (whose operands have been visited) to `base + offset`
  /// when that differs from what it is.
  void visit(Operation *op);

  /// Every op visited or created here, users after the ops they use:
  /// erased afterwards (in reverse) if unused, as are the constants only
  /// they used.
  SmallVector<Operation *> cleanup;

private:
  Split splitOf(Value v);
  std::optional<Split> compute(Operation *op);
  Value constant(Location loc, Type type, const APInt &value) {
    return LLVM::ConstantOp::create(builder, loc, type,
                                    builder.getIntegerAttr(type, value));
  }
  Value track(Value created) {
    cleanup.push_back(created.getDefiningOp());
    return created;
  }

  OpBuilder &builder;
  DenseMap<Value, Split> splits;
};

Split Hoister::splitOf(Value v) {
  if (std::optional<APInt> c = constantOf(v))
    return {Value(), *c};
  auto it = splits.find(v);
  if (it != splits.end())
    return it->second;
  unsigned width = cast<IntegerType>(v.getType()).getWidth();
  return {v, APInt::getZero(width)};
}

std::optional<Split> Hoister::compute(Operation *op) {
  if (op->getNumResults() != 1 || !isa<IntegerType>(op->getResult(0).getType()))
    return std::nullopt;
  Value result = op->getResult(0);
  Location loc = op->getLoc();
  builder.setInsertionPoint(op);

  if (auto add = dyn_cast<LLVM::AddOp>(op)) {
    Split l = splitOf(add.getLhs()), r = splitOf(add.getRhs());
    APInt offset = l.offset + r.offset;
    if (!l.base || !r.base)
      return Split{l.base ? l.base : r.base, offset};
    if (l.base == add.getLhs() && r.base == add.getRhs())
      return Split{result, offset}; // offset is 0
    return Split{track(LLVM::AddOp::create(builder, loc, l.base, r.base)),
                 offset};
  }
  if (auto sub = dyn_cast<LLVM::SubOp>(op)) {
    Split l = splitOf(sub.getLhs()), r = splitOf(sub.getRhs());
    if (!l.base && !r.base)
      return Split{Value(), l.offset - r.offset};
    if (!l.base) // c - (y + c2): (c - y) + (-c2)
      l = {sub.getLhs(), APInt::getZero(l.offset.getBitWidth())};
    APInt offset = l.offset - r.offset;
    if (!r.base)
      return Split{l.base, offset};
    if (l.base == sub.getLhs() && r.base == sub.getRhs())
      return Split{result, offset};
    return Split{track(LLVM::SubOp::create(builder, loc, l.base, r.base)),
                 offset};
  }
  // (x + c1) * c2 -> x * c2 + c1 * c2; (x + c1) << c2 likewise for c2
  // below the bit width.
  auto scaled = [&](Value x, Value factor, bool shift) -> std::optional<Split> {
    std::optional<APInt> c = constantOf(factor);
    if (!c || (shift && c->uge(c->getBitWidth())))
      return std::nullopt;
    Split s = splitOf(x);
    APInt offset = shift ? s.offset.shl(*c) : s.offset * *c;
    if (!s.base)
      return Split{Value(), offset};
    if (s.base == x)
      return Split{result, offset}; // s.offset is 0
    Value base =
        shift ? Value(LLVM::ShlOp::create(builder, loc, s.base, factor))
              : Value(LLVM::MulOp::create(builder, loc, s.base, factor));
    return Split{track(base), offset};
  };
  if (auto mul = dyn_cast<LLVM::MulOp>(op)) {
    if (constantOf(mul.getRhs()))
      return scaled(mul.getLhs(), mul.getRhs(), /*shift=*/false);
    return scaled(mul.getRhs(), mul.getLhs(), /*shift=*/false);
  }
  if (auto shl = dyn_cast<LLVM::ShlOp>(op))
    return scaled(shl.getLhs(), shl.getRhs(), /*shift=*/true);
  return std::nullopt;
}

void Hoister::visit(Operation *op) {
  std::optional<Split> split = compute(op);
  cleanup.push_back(op);
  if (!split)
    return;
  Value result = op->getResult(0);
  splits[result] = *split;
  if (!split->base || (split->base == result && split->offset.isZero()))
    return; // a constant, or left as it is
  // Already base + offset?
  if (auto add = dyn_cast<LLVM::AddOp>(op)) {
    std::optional<APInt> c = constantOf(add.getRhs());
    Value x = add.getLhs();
    if (!c) {
      c = constantOf(add.getLhs());
      x = add.getRhs();
    }
    if (c && x == split->base && *c == split->offset)
      return;
  }
  Value replacement = split->base;
  if (!split->offset.isZero()) {
    builder.setInsertionPoint(op);
    replacement = track(LLVM::AddOp::create(
        builder, op->getLoc(), split->base,
        constant(op->getLoc(), result.getType(), split->offset)));
  }
  splits[replacement] = *split;
  result.replaceAllUsesWith(replacement);
}

struct KGPUHoistIndexConstants
    : kiln::impl::KGPUHoistIndexConstantsBase<KGPUHoistIndexConstants> {
  void runOnOperation() override {
    OpBuilder builder(&getContext());
    Hoister hoister(builder);
    // Operands before users: pre-order over blocks in the order the walk
    // gives is not enough in a CFG, so each op first visits the ops its
    // operands come from (explicit stack; chains may be long). An op met
    // again while its operands are being visited is on a cycle, possible
    // only in unreachable blocks: it is visited with what is known then.
    SetVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (isa<LLVM::AddOp, LLVM::SubOp, LLVM::MulOp, LLVM::ShlOp>(op))
        ops.insert(op);
    });
    enum State { Expanded, Done };
    DenseMap<Operation *, State> state;
    SmallVector<std::pair<Operation *, bool>> stack;
    for (Operation *root : ops) {
      stack.push_back({root, false});
      while (!stack.empty()) {
        auto [op, operandsDone] = stack.pop_back_val();
        auto it = state.find(op);
        if (it != state.end() && (it->second == Done || !operandsDone))
          continue;
        if (operandsDone) {
          state[op] = Done;
          hoister.visit(op);
          continue;
        }
        state[op] = Expanded;
        stack.push_back({op, true});
        for (Value operand : op->getOperands()) {
          Operation *def = operand.getDefiningOp();
          // (Ops created here, already split, are not in `ops`.)
          if (def && ops.contains(def) && !state.contains(def))
            stack.push_back({def, false});
        }
      }
    }
    SetVector<Operation *> constants;
    for (Operation *op : llvm::reverse(hoister.cleanup)) {
      if (!op->use_empty() || isa<LLVM::ConstantOp>(op))
        continue;
      for (Value operand : op->getOperands())
        if (auto c = operand.getDefiningOp<LLVM::ConstantOp>())
          constants.insert(c);
      op->erase();
    }
    for (Operation *c : constants)
      if (c->use_empty())
        c->erase();
  }
};

} // namespace
