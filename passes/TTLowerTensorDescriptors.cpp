//===- TTLowerTensorDescriptors.cpp - descriptor ops to pointer ops -------===//
//
// Rewrites Triton's tensor-descriptor ops into ordinary masked pointer loads
// and stores (see Passes.td for the rewrite and what is supported), so that
// the rest of kiln (AxisInfo, coalescing, the tensor-core dot and the K-loop
// pipeliner) handles kernels written with tl.make_tensor_descriptor.
//
// Semantics (Triton 3.6): a descriptor is a base pointer, an i32 shape and
// i64 strides per dimension (in elements); a block access at i32 offsets
// covers offsets[k] .. offsets[k] + block[k] - 1 along dimension k; elements
// outside [0, shape[k]) in any dimension read as the padding value (0, or
// NaN with `padding = nan`) and are not written.
//
// Where real TMA would go (a later performance step): on sm_90a a
// descriptor_load in a pipelined K loop is what one cp.async.bulk.tensor
// per tile (PTX ISA, data movement instructions) through a tensor map
// written in the kernel's global scratch (tensormap.replace, or built on
// the host) would carry, the hardware doing the bounds checks, the zero
// fill and the 128-byte swizzle, completion tracked by an mbarrier instead
// of cp.async groups. That would be a kgpu-level rewrite of the descriptor
// loads it can take, running before this pass (which would then lower only
// the rest), with the pipeliner taking TMA loads as a kind of async copy.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "dialects/tt/IR/TTOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"

#include <limits>

namespace kiln {
#define GEN_PASS_DEF_TTLOWERTENSORDESCRIPTORS
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

namespace {

/// How one dimension of the descriptor is indexed by an access.
struct AccessDim {
  /// i32 scalar offset of the block along the dimension; null for a
  /// gathered dimension (its indices are all in `gathered`).
  Value offset;
  /// tensor<N x i32> of element indices (descriptor_gather's x_offsets).
  Value gathered;
  /// The dimension of the accessed value it spans, or -1 when the value
  /// drops it (a leading block dimension of size 1).
  int resultDim = -1;
};

/// The constant an integer value holds, if any.
std::optional<int64_t> constantOf(Value v) {
  APInt c;
  if (v && matchPattern(v, m_ConstantInt(&c)))
    return c.getSExtValue();
  return std::nullopt;
}

/// What a descriptor op reads or writes, in pointer form.
struct BlockAccess {
  Value ptrs; // tensor of pointers of the accessed value's shape
  Value mask; // tensor<i1> of the same shape: element inside the tensor
};

/// Builds the pointers and the bounds mask of an access to `desc` whose
/// value has type `valueType` (element type and shape), dimension k of the
/// descriptor indexed as `dims[k]` says.
BlockAccess buildAccess(OpBuilder &b, Location loc, tt::MakeTensorDescOp desc,
                        RankedTensorType valueType, ArrayRef<AccessDim> dims) {
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  ArrayRef<int64_t> shape = valueType.getShape();
  int64_t rank = valueType.getRank();
  ValueRange strides = desc.getStrides(), sizes = desc.getShape();

  // The scalar part of every offset goes into the base pointer, in i64:
  // offsets[k] * strides[k] may pass 2^31 for a large tensor.
  Value base = desc.getBase();
  auto ptrType = tt::PointerType::get(
      valueType.getElementType(),
      cast<tt::PointerType>(base.getType()).getAddressSpace());
  if (base.getType() != ptrType)
    base = tt::BitcastOp::create(b, loc, ptrType, base);
  Value scalarOffset;
  for (auto [k, dim] : llvm::enumerate(dims)) {
    if (!dim.offset)
      continue;
    Value term = arith::ExtSIOp::create(b, loc, i64, dim.offset);
    if (constantOf(strides[k]) != 1)
      term = arith::MulIOp::create(b, loc, term, strides[k]);
    scalarOffset =
        scalarOffset ? arith::AddIOp::create(b, loc, scalarOffset, term) : term;
  }
  if (scalarOffset)
    base = tt::AddPtrOp::create(b, loc, ptrType, base, scalarOffset);

  // Tensor offsets within the block: i32 when every stride of a spanned
  // dimension is a constant and the farthest element of the block is within
  // 2^31 - 1 elements of its first one (what sign-extending GEPs of i32
  // offsets can reach); i64 otherwise (gathered rows can be anywhere).
  bool fitsI32 = true;
  int64_t extent = 0;
  for (auto [k, dim] : llvm::enumerate(dims)) {
    if (dim.resultDim < 0)
      continue;
    std::optional<int64_t> s = constantOf(strides[k]);
    if (dim.gathered || !s || *s < 0 ||
        *s > std::numeric_limits<int32_t>::max()) {
      fitsI32 = false;
      break;
    }
    int64_t n = shape[dim.resultDim] - 1;
    if (*s != 0 && n > (std::numeric_limits<int32_t>::max() - extent) / *s) {
      fitsI32 = false;
      break;
    }
    extent += n * *s;
  }
  Type offsetType = fitsI32 ? i32 : i64;

  // One dimension's 1-D tensor reshaped to the access's rank (unit sizes
  // elsewhere), and such a tensor broadcast to the access's shape.
  auto expand = [&](Value v, int64_t resultDim) -> Value {
    auto t = cast<RankedTensorType>(v.getType());
    for (int64_t d = 0; d < rank; ++d) {
      if (d == resultDim)
        continue;
      SmallVector<int64_t> s(t.getShape());
      s.insert(s.begin() + d, 1);
      t = RankedTensorType::get(s, t.getElementType());
      v = tt::ExpandDimsOp::create(b, loc, t, v, d);
    }
    return v;
  };
  auto broadcast = [&](Value v) -> Value {
    auto t = cast<RankedTensorType>(v.getType());
    auto full = RankedTensorType::get(shape, t.getElementType());
    return t == full ? v : tt::BroadcastOp::create(b, loc, full, v);
  };
  auto splat = [&](Value scalar, ArrayRef<int64_t> s) -> Value {
    return tt::SplatOp::create(
        b, loc, RankedTensorType::get(s, scalar.getType()), scalar);
  };

  Value offsets, mask, scalarMask;
  for (auto [k, dim] : llvm::enumerate(dims)) {
    if (dim.resultDim < 0) {
      // A dropped unit dimension: only its offset is checked.
      Value in = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                       dim.offset, sizes[k]);
      scalarMask =
          scalarMask ? arith::AndIOp::create(b, loc, scalarMask, in) : in;
      continue;
    }
    int64_t n = shape[dim.resultDim];
    auto rangeType = RankedTensorType::get({n}, i32);
    // Element indices along k relative to the new base (`local`) and in the
    // tensor (`global`), at the access's rank: computed per access at its
    // own shape (an A tile's K indices are 1xK, a B tile's Kx1), so CSE does
    // not merge two accesses' indices into one value that two layouts
    // would then disagree on.
    Value local =
        dim.gathered
            ? dim.gathered
            : tt::MakeRangeOp::create(b, loc, rangeType, 0, n).getResult();
    local = expand(local, dim.resultDim);
    ArrayRef<int64_t> dimShape =
        cast<RankedTensorType>(local.getType()).getShape();
    Value global =
        dim.gathered
            ? local
            : arith::AddIOp::create(b, loc, splat(dim.offset, dimShape), local)
                  .getResult();
    // 0 <= index < shape[k] as one unsigned compare: a negative index is a
    // large unsigned one, and so is an offset + j that wrapped past 2^31 - 1
    // (the shape is at most 2^31 - 1).
    Value in = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, global,
                                     splat(sizes[k], dimShape));
    in = broadcast(in);
    mask = mask ? arith::AndIOp::create(b, loc, mask, in) : in;

    // Scaled by the stride before the broadcast, as a kernel author would
    // write it: one multiply per row, not per element.
    Value off = local;
    ArrayRef<int64_t> offShape = dimShape;
    if (offsetType != i32)
      off = arith::ExtSIOp::create(
          b, loc, RankedTensorType::get(offShape, offsetType), off);
    if (std::optional<int64_t> s = constantOf(strides[k]); s != 1) {
      Value stride = strides[k];
      if (offsetType == i32)
        stride = arith::ConstantOp::create(b, loc, i32,
                                           b.getI32IntegerAttr(int32_t(*s)));
      off = arith::MulIOp::create(b, loc, off, splat(stride, offShape));
    }
    off = broadcast(off);
    offsets = offsets ? arith::AddIOp::create(b, loc, offsets, off) : off;
  }
  if (scalarMask)
    mask = arith::AndIOp::create(b, loc, mask, splat(scalarMask, shape));

  auto ptrsType = RankedTensorType::get(shape, ptrType);
  Value ptrs =
      tt::AddPtrOp::create(b, loc, ptrsType, splat(base, shape), offsets);
  return {ptrs, mask};
}

/// The access dimensions of a descriptor_load/store: descriptor dimension k
/// at offset indices[k]; the value spans the trailing dimensions.
SmallVector<AccessDim> blockDims(ValueRange indices, int64_t valueRank) {
  SmallVector<AccessDim> dims(indices.size());
  int64_t dropped = int64_t(indices.size()) - valueRank;
  for (auto [k, idx] : llvm::enumerate(indices)) {
    dims[k].offset = idx;
    dims[k].resultDim = int64_t(k) >= dropped ? int64_t(k) - dropped : -1;
  }
  return dims;
}

/// The access dimensions of a descriptor_gather/scatter: rows
/// x_offsets[i], columns y_offset + j.
SmallVector<AccessDim> gatherDims(Value xOffsets, Value yOffset) {
  SmallVector<AccessDim> dims(2);
  dims[0].gathered = xOffsets;
  dims[0].resultDim = 0;
  dims[1].offset = yOffset;
  dims[1].resultDim = 1;
  return dims;
}

/// The value out-of-bounds elements read as.
Value paddingValue(OpBuilder &b, Location loc, tt::MakeTensorDescOp desc,
                   RankedTensorType type) {
  Type elem = type.getElementType();
  TypedAttr scalar;
  if (auto f = dyn_cast<FloatType>(elem))
    scalar = b.getFloatAttr(f, desc.getPadding() == tt::PaddingOption::PAD_NAN
                                   ? APFloat::getNaN(f.getFloatSemantics())
                                   : APFloat::getZero(f.getFloatSemantics()));
  else
    scalar = b.getIntegerAttr(elem, 0);
  return arith::ConstantOp::create(b, loc,
                                   DenseElementsAttr::get(type, scalar));
}

/// Where a descriptor that is not made in place comes from, for errors.
std::string originOf(Value desc) {
  if (auto arg = dyn_cast<BlockArgument>(desc)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (isa<FunctionOpInterface>(owner))
      return "function argument #" + std::to_string(arg.getArgNumber());
    return "a block argument of '" + owner->getName().getStringRef().str() +
           "'";
  }
  return "the result of '" +
         desc.getDefiningOp()->getName().getStringRef().str() + "'";
}

struct TTLowerTensorDescriptors
    : kiln::impl::TTLowerTensorDescriptorsBase<TTLowerTensorDescriptors> {
  using TTLowerTensorDescriptorsBase::TTLowerTensorDescriptorsBase;

  /// Rejects what the rewrite does not cover, naming the op: descriptors
  /// that are not made in the function and used directly, and
  /// tt.descriptor_reduce.
  static LogicalResult check(ModuleOp module) {
    // Pre-order: a function's arguments are checked before its body.
    WalkResult r = module.walk<WalkOrder::PreOrder>([](Operation *op)
                                                        -> WalkResult {
      if (auto fn = dyn_cast<FunctionOpInterface>(op)) {
        for (auto [i, t] : llvm::enumerate(fn.getArgumentTypes()))
          if (isa<tt::TensorDescType>(t)) {
            fn.emitError()
                << "tensor descriptor argument #" << i << " (" << t
                << ") is not supported: kiln lowers descriptors made in the "
                   "kernel by tt.make_tensor_descriptor only (host-side TMA "
                   "descriptors are not supported yet)";
            return WalkResult::interrupt();
          }
        return WalkResult::advance();
      }
      if (isa<tt::DescriptorReduceOp>(op)) {
        op->emitError() << "'tt.descriptor_reduce' is not supported yet "
                           "(tt-lower-tensor-descriptors lowers "
                           "descriptor_load, descriptor_store, "
                           "descriptor_gather and descriptor_scatter)";
        return WalkResult::interrupt();
      }
      if (auto make = dyn_cast<tt::MakeTensorDescOp>(op)) {
        RankedTensorType block = make.getType().getBlockType();
        Type pointee = make.getBase().getType().getPointeeType();
        if (!block.getElementType().isIntOrFloat() || !pointee.isIntOrFloat()) {
          make.emitError() << "tensor descriptor of " << block
                           << " over a base pointing to " << pointee
                           << " is not supported: block and base elements "
                              "must be integers or floats";
          return WalkResult::interrupt();
        }
        if (make.getPadding() == tt::PaddingOption::PAD_NAN) {
          auto f = dyn_cast<FloatType>(block.getElementType());
          if (!f || !APFloat::semanticsHasNaN(f.getFloatSemantics())) {
            make.emitError() << "padding = nan needs a floating-point block "
                                "element type that has a NaN, got "
                             << block.getElementType();
            return WalkResult::interrupt();
          }
        }
        for (OpOperand &use : make->getUses()) {
          Operation *user = use.getOwner();
          // (A descriptor_reduce is reported as itself when the walk
          // reaches it.)
          bool direct = isa<tt::DescriptorLoadOp, tt::DescriptorStoreOp,
                            tt::DescriptorGatherOp, tt::DescriptorScatterOp,
                            tt::DescriptorReduceOp>(user) &&
                        use.getOperandNumber() == 0;
          if (!direct) {
            InFlightDiagnostic diag =
                user->emitError()
                << "tensor descriptor flows into '" << user->getName()
                << "' (operand #" << use.getOperandNumber()
                << "): kiln lowers a descriptor only where "
                   "tt.descriptor_load/store/gather/scatter use the "
                   "tt.make_tensor_descriptor result directly (not through "
                   "loop-carried values, scf.if results, calls or returns)";
            diag.attachNote(make.getLoc()) << "descriptor made here";
            return WalkResult::interrupt();
          }
        }
        return WalkResult::advance();
      }
      if (isa<tt::DescriptorLoadOp, tt::DescriptorStoreOp,
              tt::DescriptorGatherOp, tt::DescriptorScatterOp>(op)) {
        Value desc = op->getOperand(0);
        if (!desc.getDefiningOp<tt::MakeTensorDescOp>()) {
          op->emitError() << "'" << op->getName()
                          << "' of a descriptor that is " << originOf(desc)
                          << " is not supported: kiln lowers descriptors "
                             "made by tt.make_tensor_descriptor and used "
                             "directly";
          return WalkResult::interrupt();
        }
        Value value;
        if (op->getNumResults())
          value = op->getResult(0);
        else if (auto store = dyn_cast<tt::DescriptorStoreOp>(op))
          value = store.getSrc();
        else
          value = cast<tt::DescriptorScatterOp>(op).getSrc();
        if (cast<RankedTensorType>(value.getType()).getRank() == 0) {
          op->emitError() << "'" << op->getName()
                          << "' of a rank-0 value is not supported";
          return WalkResult::interrupt();
        }
      }
      return WalkResult::advance();
    });
    return failure(r.wasInterrupted());
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(check(module)))
      return signalPassFailure();

    SmallVector<Operation *> accesses;
    SmallVector<tt::MakeTensorDescOp> descs;
    module.walk([&](Operation *op) {
      if (auto make = dyn_cast<tt::MakeTensorDescOp>(op))
        descs.push_back(make);
      else if (isa<tt::DescriptorLoadOp, tt::DescriptorStoreOp,
                   tt::DescriptorGatherOp, tt::DescriptorScatterOp>(op))
        accesses.push_back(op);
    });

    OpBuilder b(module.getContext());
    for (Operation *op : accesses) {
      b.setInsertionPoint(op);
      Location loc = op->getLoc();
      auto desc = op->getOperand(0).getDefiningOp<tt::MakeTensorDescOp>();
      if (auto load = dyn_cast<tt::DescriptorLoadOp>(op)) {
        RankedTensorType type = load.getType();
        BlockAccess a = buildAccess(
            b, loc, desc, type, blockDims(load.getIndices(), type.getRank()));
        Value other = paddingValue(b, loc, desc, type);
        auto newLoad = tt::LoadOp::create(
            b, loc, type, a.ptrs, a.mask, other, b.getDenseI32ArrayAttr({}),
            tt::PaddingOptionAttr(),
            tt::CacheModifierAttr::get(b.getContext(), load.getCache()),
            tt::EvictionPolicyAttr::get(b.getContext(), load.getEvict()));
        load.replaceAllUsesWith(newLoad.getResult());
      } else if (auto store = dyn_cast<tt::DescriptorStoreOp>(op)) {
        RankedTensorType type = store.getSrc().getType();
        BlockAccess a = buildAccess(
            b, loc, desc, type, blockDims(store.getIndices(), type.getRank()));
        tt::StoreOp::create(b, loc, a.ptrs, store.getSrc(), a.mask);
      } else if (auto gather = dyn_cast<tt::DescriptorGatherOp>(op)) {
        RankedTensorType type = gather.getType();
        BlockAccess a =
            buildAccess(b, loc, desc, type,
                        gatherDims(gather.getXOffsets(), gather.getYOffset()));
        Value other = paddingValue(b, loc, desc, type);
        auto newLoad = tt::LoadOp::create(
            b, loc, type, a.ptrs, a.mask, other, b.getDenseI32ArrayAttr({}),
            tt::PaddingOptionAttr(), tt::CacheModifierAttr(),
            tt::EvictionPolicyAttr());
        gather.replaceAllUsesWith(newLoad.getResult());
      } else {
        auto scatter = cast<tt::DescriptorScatterOp>(op);
        RankedTensorType type = scatter.getSrc().getType();
        BlockAccess a = buildAccess(
            b, loc, desc, type,
            gatherDims(scatter.getXOffsets(), scatter.getYOffset()));
        tt::StoreOp::create(b, loc, a.ptrs, scatter.getSrc(), a.mask);
      }
      op->erase();
    }
    for (tt::MakeTensorDescOp desc : descs)
      desc.erase();
  }
};

} // namespace
