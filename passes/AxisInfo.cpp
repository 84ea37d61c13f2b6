//===- AxisInfo.cpp - contiguity, divisibility and constancy --------------===//

#include "passes/AxisInfo.h"

#include "dialects/kgpu/IR/KGPUDialect.h"
#include "dialects/tt/IR/TTOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

#include <numeric>

using namespace mlir;
using namespace kiln;

namespace {

/// Divisibility of a constant 0 (any power of two divides it); capped so
/// products stay far from overflow.
constexpr int64_t kMaxDivisibility = int64_t(1) << 30;

int64_t highestPowerOf2Dividing(int64_t v) {
  if (v == 0)
    return kMaxDivisibility;
  return std::min<int64_t>(kMaxDivisibility, int64_t(1)
                                                 << llvm::countr_zero(
                                                        uint64_t(v)));
}

/// Scalars are treated as tensors of shape [1], so their facts (e.g. the
/// divisibility of a kernel argument) flow through the same rules.
SmallVector<int64_t> shapeOf(Value v) {
  if (auto t = dyn_cast<RankedTensorType>(v.getType()))
    return SmallVector<int64_t>(t.getShape());
  return {1};
}

AxisInfo unknown(ArrayRef<int64_t> shape) {
  AxisInfo info;
  info.contiguity.assign(shape.size(), 1);
  info.divisibility.assign(shape.size(), 1);
  info.constancy.assign(shape.size(), 1);
  return info;
}

AxisInfo uniform(ArrayRef<int64_t> shape, int64_t divisibility,
                 std::optional<int64_t> constant) {
  AxisInfo info;
  info.contiguity.assign(shape.size(), 1);
  info.divisibility.assign(shape.size(), divisibility);
  info.constancy.assign(shape.begin(), shape.end());
  info.constant = constant;
  return info;
}

int64_t elementBytes(Type ptrLike) {
  Type elem = ptrLike;
  if (auto t = dyn_cast<RankedTensorType>(elem))
    elem = t.getElementType();
  auto ptr = dyn_cast<kiln::tt::PointerType>(elem);
  if (!ptr)
    return 1;
  Type pointee = ptr.getPointeeType();
  if (pointee.isIntOrFloat())
    return std::max<int64_t>(1, pointee.getIntOrFloatBitWidth() / 8);
  return 1;
}

/// tl.multiple_of / tl.max_contiguous / tl.max_constancy put
/// tt.divisibility / tt.contiguity / tt.constancy (one value per dimension)
/// on the op defining the value; like Triton's AxisInfo, the hint replaces
/// what the arithmetic gave (the kernel author vouches for it).
void applyHints(Operation *op, AxisInfo &info) {
  auto hint = [&](StringRef name, SmallVector<int64_t> &facts) {
    auto attr = dyn_cast_or_null<DenseIntElementsAttr>(op->getAttr(name));
    if (!attr || attr.getNumElements() != int64_t(facts.size()))
      return;
    for (auto [d, v] : llvm::enumerate(attr.getValues<APInt>()))
      if (v.getSExtValue() > 0)
        facts[d] = std::min(kMaxDivisibility, v.getSExtValue());
  };
  hint("tt.divisibility", info.divisibility);
  hint("tt.contiguity", info.contiguity);
  hint("tt.constancy", info.constancy);
}

} // namespace

const AxisInfo *AxisInfoAnalysis::inherited(Value value) const {
  bool outside = loop && !loop->getRegion(0).isAncestor(value.getParentRegion());
  for (const AxisInfoAnalysis *a = parent; a; a = a->parent) {
    auto it = a->cache.find(value);
    if (it == a->cache.end())
      continue;
    if (a->seeds.contains(value) || (outside && !a->pending.contains(value)))
      return &it->second;
  }
  return nullptr;
}

const AxisInfo &AxisInfoAnalysis::get(Value value) {
  auto it = cache.find(value);
  if (it != cache.end())
    return it->second;
  if (const AxisInfo *known = inherited(value))
    return cache[value] = *known;
  // Insert a conservative entry first: cycles other than scf.for's
  // loop-carried values (loopCarried) then see "unknown" instead of
  // recursing forever.
  cache[value] = unknown(shapeOf(value));
  pending.insert(value);
  AxisInfo info = compute(value);
  pending.erase(value);
  return cache[value] = std::move(info);
}

/// The facts two values share (gcd of each fact; a constant only if equal).
static AxisInfo join(const AxisInfo &a, const AxisInfo &b) {
  if (a.getRank() != b.getRank())
    return a;
  AxisInfo r = a;
  for (unsigned d = 0; d < a.getRank(); ++d) {
    r.contiguity[d] = std::gcd(a.contiguity[d], b.contiguity[d]);
    r.divisibility[d] = std::gcd(a.divisibility[d], b.divisibility[d]);
    r.constancy[d] = std::gcd(a.constancy[d], b.constancy[d]);
  }
  if (a.constant != b.constant)
    r.constant.reset();
  return r;
}

static bool sameFacts(const AxisInfo &a, const AxisInfo &b) {
  return a.contiguity == b.contiguity && a.divisibility == b.divisibility &&
         a.constancy == b.constancy && a.constant == b.constant;
}

/// An scf.for iteration argument holds its initial value or what the body
/// yields: start from the initial value's facts, join in the yielded
/// value's, and repeat until the facts stop changing (each round can only
/// weaken them; after a few rounds the argument is taken as unknown). Each
/// round derives the yielded value's facts in a fresh analysis seeded with
/// the argument's provisional facts, so values this analysis is still
/// computing (the query that led here) are not read half-done. The round
/// reuses what this analysis (and those enclosing it) knows of values
/// defined outside the loop, and the provisional facts of enclosing
/// loops' arguments being solved.
AxisInfo AxisInfoAnalysis::loopCarried(scf::ForOp loop, unsigned i) {
  BlockArgument arg = loop.getRegionIterArgs()[i];
  Value yielded = loop.getBody()->getTerminator()->getOperand(i);
  AxisInfo facts = get(loop.getInitArgs()[i]);
  for (int round = 0; round < 8; ++round) {
    AxisInfoAnalysis sub(this, loop);
    sub.cache[arg] = facts;
    sub.seeds.insert(arg);
    AxisInfo next = join(facts, sub.get(yielded));
    if (sameFacts(next, facts))
      return facts;
    facts = std::move(next);
  }
  return unknown(shapeOf(arg));
}

AxisInfo AxisInfoAnalysis::compute(Value value) {
  SmallVector<int64_t> shape = shapeOf(value);
  unsigned rank = shape.size();

  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp())) {
      // The induction variable is lb + i * step: a multiple of whatever
      // divides both (a K loop stepping by the block size keeps its
      // offsets block-aligned).
      if (arg == loop.getInductionVar()) {
        int64_t lb = get(loop.getLowerBound()).divisibility[0];
        int64_t step = get(loop.getStep()).divisibility[0];
        return uniform(shape, std::gcd(lb, step), std::nullopt);
      }
      if (arg.getArgNumber() >= 1 &&
          arg.getArgNumber() - 1 < loop.getInitArgs().size())
        return loopCarried(loop, arg.getArgNumber() - 1);
    }
    auto fn = dyn_cast<tt::FuncOp>(arg.getOwner()->getParentOp());
    if (!fn || !isa<IntegerType, kiln::tt::PointerType>(arg.getType()))
      return unknown(shape);
    AxisInfo info = unknown(shape);
    unsigned i = arg.getArgNumber();
    if (auto div = fn.getArgAttrOfType<IntegerAttr>(i, "tt.divisibility"))
      return uniform(shape, div.getInt(), std::nullopt);
    return info;
  }

  Operation *op = value.getDefiningOp();
  if (auto loop = dyn_cast<scf::ForOp>(op))
    return get(loop.getRegionIterArgs()[cast<OpResult>(value).getResultNumber()]);
  if (auto cvt = dyn_cast<kgpu::ConvertLayoutOp>(op))
    return get(cvt.getSrc());
  APInt cst;
  if (matchPattern(value, m_ConstantInt(&cst)))
    return uniform(shape, highestPowerOf2Dividing(cst.getSExtValue()),
                   cst.getSExtValue());

  auto binary = [&](auto fn) -> AxisInfo {
    const AxisInfo lhs = get(op->getOperand(0));
    const AxisInfo rhs = get(op->getOperand(1));
    if (lhs.getRank() != rank || rhs.getRank() != rank)
      return unknown(shape);
    return fn(lhs, rhs);
  };
  auto gcd = [](int64_t a, int64_t b) { return std::gcd(a, b); };

  AxisInfo info = llvm::TypeSwitch<Operation *, AxisInfo>(op)
      .Case([&](tt::MakeRangeOp r) {
        AxisInfo info;
        info.contiguity = {shape[0]};
        info.divisibility = {highestPowerOf2Dividing(r.getStart())};
        info.constancy = {1};
        return info;
      })
      .Case([&](tt::SplatOp s) {
        const AxisInfo src = get(s.getSrc());
        return uniform(shape, src.divisibility[0], src.constant);
      })
      .Case([&](tt::ExpandDimsOp e) {
        AxisInfo src = get(e.getSrc());
        if (src.getRank() + 1 != rank)
          return unknown(shape);
        unsigned axis = e.getAxis();
        // Along the new dimension every element starts its own run, so its
        // divisibility is what all elements share: a dimension holding
        // consecutive values contributes 1.
        int64_t div = kMaxDivisibility;
        for (unsigned d = 0; d < src.getRank(); ++d)
          div = std::gcd(div, src.contiguity[d] > 1 ? int64_t(1)
                                                    : src.divisibility[d]);
        src.contiguity.insert(src.contiguity.begin() + axis, 1);
        src.divisibility.insert(src.divisibility.begin() + axis, div);
        src.constancy.insert(src.constancy.begin() + axis, 1);
        return src;
      })
      .Case([&](tt::BroadcastOp b) {
        AxisInfo src = get(b.getSrc());
        if (src.getRank() != rank)
          return unknown(shape);
        auto srcShape = b.getSrc().getType().getShape();
        for (unsigned d = 0; d < rank; ++d)
          if (srcShape[d] == 1 && shape[d] != 1) {
            src.contiguity[d] = 1;
            src.constancy[d] = shape[d];
          }
        return src;
      })
      .Case([&](tt::AddPtrOp a) {
        int64_t bytes = elementBytes(a.getPtr().getType());
        return binary([&](const AxisInfo &p, const AxisInfo &o) {
          AxisInfo info = unknown(shape);
          for (unsigned d = 0; d < rank; ++d) {
            info.contiguity[d] = std::max(gcd(p.contiguity[d], o.constancy[d]),
                                          gcd(p.constancy[d], o.contiguity[d]));
            info.divisibility[d] =
                gcd(p.divisibility[d],
                    std::min(kMaxDivisibility, o.divisibility[d] * bytes));
            info.constancy[d] = gcd(p.constancy[d], o.constancy[d]);
          }
          return info;
        });
      })
      .Case([&](arith::AddIOp) {
        return binary([&](const AxisInfo &l, const AxisInfo &r) {
          AxisInfo info = unknown(shape);
          for (unsigned d = 0; d < rank; ++d) {
            info.contiguity[d] = std::max(gcd(l.contiguity[d], r.constancy[d]),
                                          gcd(l.constancy[d], r.contiguity[d]));
            info.divisibility[d] = gcd(l.divisibility[d], r.divisibility[d]);
            info.constancy[d] = gcd(l.constancy[d], r.constancy[d]);
          }
          if (l.constant && r.constant)
            info.constant = *l.constant + *r.constant;
          return info;
        });
      })
      .Case([&](arith::SubIOp) {
        return binary([&](const AxisInfo &l, const AxisInfo &r) {
          AxisInfo info = unknown(shape);
          for (unsigned d = 0; d < rank; ++d) {
            info.contiguity[d] = gcd(l.contiguity[d], r.constancy[d]);
            info.divisibility[d] = gcd(l.divisibility[d], r.divisibility[d]);
            info.constancy[d] = gcd(l.constancy[d], r.constancy[d]);
          }
          return info;
        });
      })
      .Case([&](arith::MulIOp) {
        return binary([&](const AxisInfo &l, const AxisInfo &r) {
          AxisInfo info = unknown(shape);
          for (unsigned d = 0; d < rank; ++d) {
            // x * 1 keeps x's contiguity.
            if (r.constant == 1)
              info.contiguity[d] = l.contiguity[d];
            else if (l.constant == 1)
              info.contiguity[d] = r.contiguity[d];
            // A run a, a+1, ... has a's divisibility only at its start;
            // scaled by anything but 1 its elements become runs of their
            // own, and a + 1 is odd where a is even: count 1 for it.
            int64_t ld = l.divisibility[d], rd = r.divisibility[d];
            if (l.contiguity[d] > 1 && r.constant != 1)
              ld = 1;
            if (r.contiguity[d] > 1 && l.constant != 1)
              rd = 1;
            info.divisibility[d] = std::min(kMaxDivisibility, ld * rd);
            info.constancy[d] = gcd(l.constancy[d], r.constancy[d]);
          }
          if (l.constant && r.constant)
            info.constant = *l.constant * *r.constant;
          return info;
        });
      })
      .Case([&](arith::RemSIOp) { return remOrDiv(op, shape, /*rem=*/true); })
      .Case([&](arith::RemUIOp) { return remOrDiv(op, shape, /*rem=*/true); })
      .Case([&](arith::DivSIOp) { return remOrDiv(op, shape, /*rem=*/false); })
      .Case([&](arith::DivUIOp) { return remOrDiv(op, shape, /*rem=*/false); })
      .Case([&](arith::CmpIOp cmp) {
        // A run x, x+1, ... whose start is a multiple of g, compared with a
        // uniform bound b that is one too, is constant over its g-aligned
        // pieces where it flips between b - 1 and b: x < b and x >= b
        // (range on the left), b > x and b <= x (range on the right). Not
        // x <= b, x > b (they flip between b and b + 1), x == b or x != b
        // ((x % 2) == 0 alternates; helper-70's tl.where on f8 values).
        using P = arith::CmpIPredicate;
        P pred = cmp.getPredicate();
        bool rangeLeft = pred == P::slt || pred == P::ult ||
                         pred == P::sge || pred == P::uge;
        bool rangeRight = pred == P::sgt || pred == P::ugt ||
                          pred == P::sle || pred == P::ule;
        return binary([&](const AxisInfo &l, const AxisInfo &r) {
          AxisInfo info = unknown(shape);
          for (unsigned d = 0; d < rank; ++d) {
            int64_t c = gcd(l.constancy[d], r.constancy[d]);
            if (rangeLeft && r.constancy[d] == shape[d] &&
                l.contiguity[d] > 1)
              c = std::max(c, gcd(gcd(l.contiguity[d], l.divisibility[d]),
                                  r.divisibility[d]));
            if (rangeRight && l.constancy[d] == shape[d] &&
                r.contiguity[d] > 1)
              c = std::max(c, gcd(gcd(r.contiguity[d], r.divisibility[d]),
                                  l.divisibility[d]));
            info.constancy[d] = c;
          }
          return info;
        });
      })
      .Case<arith::AndIOp, arith::OrIOp, arith::XOrIOp>([&](Operation *) {
        return binary([&](const AxisInfo &l, const AxisInfo &r) {
          AxisInfo info = unknown(shape);
          for (unsigned d = 0; d < rank; ++d)
            info.constancy[d] = gcd(l.constancy[d], r.constancy[d]);
          return info;
        });
      })
      .Case([&](arith::SelectOp s) {
        AxisInfo info = unknown(shape);
        // Copies: each get() may grow the cache and move earlier entries.
        const AxisInfo c = get(s.getCondition());
        const AxisInfo t = get(s.getTrueValue());
        const AxisInfo f = get(s.getFalseValue());
        if (t.getRank() != rank || f.getRank() != rank)
          return info;
        for (unsigned d = 0; d < rank; ++d) {
          int64_t cc = c.getRank() == rank ? c.constancy[d] : shape[d];
          info.constancy[d] = gcd(cc, gcd(t.constancy[d], f.constancy[d]));
          info.contiguity[d] =
              gcd(cc, std::min(t.contiguity[d], f.contiguity[d]));
          info.divisibility[d] = gcd(t.divisibility[d], f.divisibility[d]);
        }
        return info;
      })
      .Case([&](tt::BitcastOp c) {
        // A pointer cast between pointees of one size keeps the addresses
        // and so every fact (tt-lower-tensor-descriptors casts a base
        // pointing to i16 to the block's bf16, say).
        Type from = c.getSrc().getType(), to = c.getType();
        if (isa<tt::PointerType>(getElementTypeOrSelf(from)) &&
            isa<tt::PointerType>(getElementTypeOrSelf(to)) &&
            elementBytes(from) == elementBytes(to) &&
            get(c.getSrc()).getRank() == rank)
          return get(c.getSrc());
        return unknown(shape);
      })
      .Case<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp,
            arith::IndexCastOp>([&](Operation *) {
        return get(op->getOperand(0)).getRank() == rank
                   ? get(op->getOperand(0))
                   : unknown(shape);
      })
      .Default([&](Operation *) { return unknown(shape); });
  applyHints(op, info);
  return info;
}

AxisInfo AxisInfoAnalysis::remOrDiv(Operation *op, ArrayRef<int64_t> shape,
                                    bool rem) {
  unsigned rank = shape.size();
  const AxisInfo l = get(op->getOperand(0));
  const AxisInfo r = get(op->getOperand(1));
  AxisInfo info = unknown(shape);
  if (l.getRank() != rank || r.getRank() != rank)
    return info;
  // Signed quotients and remainders round toward zero: runs of a negative
  // dividend do not map to runs (see Sign).
  bool runsKept = isa<arith::RemUIOp, arith::DivUIOp>(op) ||
                  getSign(op->getOperand(0)) != Sign::MayBeNegative;
  for (unsigned d = 0; d < rank; ++d) {
    bool uniformRhs = r.constancy[d] == shape[d];
    if (rem) {
      if (uniformRhs) {
        if (runsKept)
          info.contiguity[d] = std::gcd(l.contiguity[d], r.divisibility[d]);
        info.divisibility[d] = std::gcd(l.divisibility[d], r.divisibility[d]);
      }
      info.constancy[d] = std::gcd(l.constancy[d], r.constancy[d]);
    } else {
      // Exact division by a power of two c: elements that are multiples of
      // d (every element, when no run is longer than one) give multiples
      // of d / c.
      if (uniformRhs && r.constant && *r.constant > 0 &&
          llvm::isPowerOf2_64(*r.constant) && l.contiguity[d] == 1 &&
          l.divisibility[d] % *r.constant == 0)
        info.divisibility[d] = l.divisibility[d] / *r.constant;
      info.constancy[d] = std::gcd(l.constancy[d], r.constancy[d]);
      if (runsKept && uniformRhs && l.contiguity[d] > 1)
        info.constancy[d] = std::max(
            info.constancy[d],
            std::gcd(std::gcd(l.contiguity[d], l.divisibility[d]),
                     r.divisibility[d]));
    }
  }
  return info;
}

using Sign = AxisInfoAnalysis::Sign;

/// The sign of a value that is non-negative when all of `operands` are.
static Sign allOf(ArrayRef<Sign> operands) {
  if (llvm::all_of(operands, [](Sign s) { return s == Sign::NonNegative; }))
    return Sign::NonNegative;
  return llvm::is_contained(operands, Sign::Unknown) ? Sign::Unknown
                                                     : Sign::MayBeNegative;
}

/// The sign of a value that is non-negative when any of `operands` is.
static Sign anyOf(ArrayRef<Sign> operands) {
  if (llvm::is_contained(operands, Sign::NonNegative))
    return Sign::NonNegative;
  return allOf(operands);
}

/// An scf.for's iteration arguments hold their initial values or what the
/// body yields. Induction over the iterations: assume each argument has
/// its initial value's sign, derive what the body yields from that, and
/// widen the assumption where the yielded value's sign is weaker; what was
/// derived from an assumption that did not hold is taken back. Each round
/// widens an argument (three signs), so at most 2n + 1 rounds; the last
/// round's derivations hold and stay.
SmallVector<Sign> AxisInfoAnalysis::loopSigns(scf::ForOp loop) {
  SmallVector<Sign> assumed;
  for (Value init : loop.getInitArgs())
    assumed.push_back(getSign(init));
  auto args = loop.getRegionIterArgs();
  Operation *yield = loop.getBody()->getTerminator();
  size_t mark = signOrder.size();
  while (true) {
    for (auto [arg, sign] : llvm::zip(args, assumed)) {
      if (!signs.contains(arg))
        signOrder.push_back(arg);
      signs[arg] = sign;
    }
    bool widened = false;
    for (auto [i, sign] : llvm::enumerate(assumed)) {
      // What the two share: the weaker sign.
      Sign next = allOf({sign, getSign(yield->getOperand(i))});
      widened |= next != sign;
      sign = next;
    }
    if (!widened)
      return assumed;
    for (Value v : llvm::drop_begin(signOrder, mark))
      signs.erase(v);
    signOrder.truncate(mark);
  }
}

Sign AxisInfoAnalysis::getSign(Value value) {
  auto it = signs.find(value);
  if (it != signs.end())
    return it->second;
  // The most cautious answer while computing: cycles other than through
  // scf.for iteration arguments (computeSign) end there.
  signs[value] = Sign::MayBeNegative;
  signOrder.push_back(value);
  Sign result = computeSign(value);
  signs[value] = result;
  return result;
}

Sign AxisInfoAnalysis::computeSign(Value value) {
  if (!getElementTypeOrSelf(value.getType()).isSignlessInteger())
    return Sign::Unknown;
  APInt cst;
  if (matchPattern(value, m_ConstantInt(&cst)))
    return cst.isNegative() ? Sign::MayBeNegative : Sign::NonNegative;
  auto operands = [&](std::initializer_list<unsigned> which) {
    SmallVector<Sign, 2> result;
    for (unsigned i : which)
      result.push_back(getSign(value.getDefiningOp()->getOperand(i)));
    return result;
  };

  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    if (!loop)
      return Sign::Unknown; // kernel arguments
    if (arg == loop.getInductionVar())
      return allOf({getSign(loop.getLowerBound()), getSign(loop.getStep())});
    unsigned i = arg.getArgNumber() - 1;
    if (arg.getArgNumber() == 0 || i >= loop.getInitArgs().size())
      return Sign::Unknown;
    return loopSigns(loop)[i];
  }

  Operation *op = value.getDefiningOp();
  return llvm::TypeSwitch<Operation *, Sign>(op)
      .Case<tt::GetProgramIdOp, tt::GetNumProgramsOp>(
          [](Operation *) { return Sign::NonNegative; })
      .Case([](tt::MakeRangeOp r) {
        return int32_t(r.getStart()) >= 0 ? Sign::NonNegative
                                          : Sign::MayBeNegative;
      })
      .Case([&](scf::ForOp loop) {
        return getSign(
            loop.getRegionIterArgs()[cast<OpResult>(value).getResultNumber()]);
      })
      .Case<tt::SplatOp, tt::BroadcastOp, tt::ExpandDimsOp, tt::ReshapeOp,
            tt::TransOp, kgpu::ConvertLayoutOp, arith::ExtSIOp,
            arith::IndexCastOp, arith::RemSIOp, arith::ShRSIOp,
            arith::DivUIOp>([&](Operation *) { return operands({0})[0]; })
      .Case<arith::AddIOp, arith::MulIOp, arith::ShLIOp, arith::DivSIOp,
            arith::OrIOp, arith::XOrIOp, arith::MinSIOp, arith::MaxUIOp,
            tt::CatOp, tt::JoinOp>(
          [&](Operation *) { return allOf(operands({0, 1})); })
      .Case<arith::AndIOp, arith::MaxSIOp, arith::MinUIOp, arith::RemUIOp>(
          [&](Operation *) { return anyOf(operands({0, 1})); })
      .Case([&](arith::SubIOp) {
        Sign s = allOf(operands({0, 1}));
        return s == Sign::NonNegative ? Sign::MayBeNegative : s;
      })
      .Case([&](arith::ShRUIOp s) {
        APInt amount;
        if (matchPattern(s.getRhs(), m_ConstantInt(&amount)) &&
            amount.ugt(0) && amount.ult(amount.getBitWidth()))
          return Sign::NonNegative;
        return operands({0})[0];
      })
      .Case([&](arith::ExtUIOp e) {
        return getElementTypeOrSelf(e.getIn().getType())
                           .getIntOrFloatBitWidth() <
                       getElementTypeOrSelf(e.getType())
                           .getIntOrFloatBitWidth()
                   ? Sign::NonNegative
                   : operands({0})[0];
      })
      .Case([&](arith::SelectOp s) {
        return allOf({getSign(s.getTrueValue()), getSign(s.getFalseValue())});
      })
      .Default([](Operation *) { return Sign::Unknown; });
}

unsigned AxisInfoAnalysis::getContiguousDim(Value ptr) {
  const AxisInfo &info = get(ptr);
  unsigned best = info.getRank() ? info.getRank() - 1 : 0;
  for (unsigned d = 0; d < info.getRank(); ++d)
    if (info.contiguity[d] > info.contiguity[best])
      best = d;
  return best;
}

unsigned AxisInfoAnalysis::getVectorWidth(Value ptr, Value mask,
                                          unsigned dim) {
  const AxisInfo info = get(ptr);
  if (info.getRank() == 0 || dim >= info.getRank())
    return 1;
  int64_t bytes = elementBytes(ptr.getType());
  int64_t vec = std::min<int64_t>(info.contiguity[dim], 16 / bytes);
  vec = std::min<int64_t>(vec, std::max<int64_t>(1, info.divisibility[dim] /
                                                        bytes));
  if (mask) {
    const AxisInfo m = get(mask);
    if (m.getRank() == info.getRank())
      vec = std::min<int64_t>(vec, m.constancy[dim]);
    else
      vec = 1;
  }
  vec = std::max<int64_t>(1, vec);
  return static_cast<unsigned>(llvm::bit_floor(uint64_t(vec)));
}
