//===- TTOps.cpp - verifiers, folders and formats of tt ops ---------------===//
//
// Diagnostics name the offending operand and the shapes or types involved, so
// a user reading a verifier error on Inductor output knows which value broke
// which rule.
//
//===----------------------------------------------------------------------===//

#include "dialects/tt/IR/TTOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace kiln::tt;

#define GET_OP_CLASSES
#include "dialects/tt/IR/TTOps.cpp.inc"

namespace {

/// Prints a shape as `AxBxC` (`scalar` for rank 0) for diagnostics.
std::string shapeStr(ArrayRef<int64_t> shape) {
  if (shape.empty())
    return "scalar";
  std::string s;
  llvm::raw_string_ostream os(s);
  llvm::interleave(shape, os, "x");
  return s;
}

ArrayRef<int64_t> shapeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getShape();
  return {};
}

/// Checks `order` is a permutation of [0, rank).
LogicalResult verifyPermutation(Operation *op, ArrayRef<int32_t> order,
                                int64_t rank, StringRef what) {
  if (static_cast<int64_t>(order.size()) != rank)
    return op->emitOpError() << what << " has " << order.size()
                             << " entries but the rank is " << rank;
  llvm::SmallBitVector seen(rank);
  for (int32_t d : order) {
    if (d < 0 || d >= rank || seen.test(d))
      return op->emitOpError() << what << " must be a permutation of [0, "
                               << rank << "), got entry " << d;
    seen.set(d);
  }
  return success();
}

/// Shared by load/store: the mask must not come with a block pointer and a
/// boundary check needs one.
LogicalResult verifyMemoryAccess(Operation *op, Type ptrType, Value mask,
                                 ArrayRef<int32_t> boundaryCheck) {
  if (isBlockPointer(ptrType)) {
    if (mask)
      return op->emitOpError()
             << "cannot take a mask with a block pointer; use boundaryCheck";
    auto rank = cast<RankedTensorType>(
                    cast<PointerType>(ptrType).getPointeeType())
                    .getRank();
    llvm::SmallBitVector seen(rank);
    for (int32_t d : boundaryCheck) {
      if (d < 0 || d >= rank || seen.test(d))
        return op->emitOpError()
               << "boundaryCheck dimension " << d
               << " is out of range or repeated for a rank-" << rank
               << " block";
      seen.set(d);
    }
    return success();
  }
  if (!boundaryCheck.empty())
    return op->emitOpError()
           << "boundaryCheck is only valid with a block pointer, got "
           << ptrType;
  return success();
}

/// Shared by the descriptor ops: `value` (loaded or stored) must be the
/// block of `desc`, allowing leading unit dimensions of the block to be
/// dropped.
LogicalResult verifyDescriptorBlock(Operation *op, TensorDescType desc,
                                    RankedTensorType value, StringRef what) {
  RankedTensorType block = desc.getBlockType();
  if (block.getElementType() != value.getElementType())
    return op->emitOpError()
           << what << " element type " << value.getElementType()
           << " does not match the descriptor's block element type "
           << block.getElementType();
  ArrayRef<int64_t> b = block.getShape(), v = value.getShape();
  bool ok = v.size() <= b.size() &&
            llvm::all_of(b.take_front(b.size() - v.size()),
                         [](int64_t d) { return d == 1; }) &&
            b.take_back(v.size()) == v;
  if (!ok)
    return op->emitOpError()
           << what << " shape " << shapeStr(v)
           << " does not match the descriptor's block shape " << shapeStr(b);
  return success();
}

/// Shared by reduce and scan: the combiner takes 2N scalars (element types of
/// the N operands, twice) and its terminator yields N of them.
LogicalResult verifyCombiner(Operation *op, Region &region,
                             OperandRange srcs) {
  if (region.empty())
    return op->emitOpError() << "combiner region must have one block";
  Block &block = region.front();
  SmallVector<Type> elemTypes;
  for (Value src : srcs)
    elemTypes.push_back(getElementTypeOrSelf(src.getType()));
  if (block.getNumArguments() != 2 * elemTypes.size())
    return op->emitOpError()
           << "combiner region must take " << 2 * elemTypes.size()
           << " arguments (two per operand), got " << block.getNumArguments();
  for (auto [i, arg] : llvm::enumerate(block.getArguments())) {
    Type expected = elemTypes[i % elemTypes.size()];
    if (arg.getType() != expected)
      return op->emitOpError()
             << "combiner argument #" << i << " has type " << arg.getType()
             << " but operand #" << i % elemTypes.size()
             << " has element type " << expected;
  }
  Operation *term = block.getTerminator();
  if (!term)
    return op->emitOpError() << "combiner region has no terminator";
  if (term->getNumOperands() != elemTypes.size())
    return term->emitOpError()
           << "must yield " << elemTypes.size() << " values, one per operand, got "
           << term->getNumOperands();
  for (auto [i, v] : llvm::enumerate(term->getOperands()))
    if (v.getType() != elemTypes[i])
      return term->emitOpError()
             << "yields " << v.getType() << " as value #" << i
             << " but operand #" << i << " has element type " << elemTypes[i];
  return success();
}

LogicalResult verifySameShapes(Operation *op, OperandRange srcs) {
  if (srcs.empty())
    return op->emitOpError() << "needs at least one operand";
  ArrayRef<int64_t> shape = shapeOf(srcs.front().getType());
  for (auto [i, v] : llvm::enumerate(srcs))
    if (shapeOf(v.getType()) != shape)
      return op->emitOpError()
             << "operand #" << i << " has shape " << shapeStr(shapeOf(v.getType()))
             << " but operand #0 has shape " << shapeStr(shape);
  return success();
}

bool isF8(Type t) {
  return isa<Float8E4M3FNType, Float8E5M2Type, Float8E4M3FNUZType,
             Float8E5M2FNUZType, Float8E4M3B11FNUZType, Float8E4M3Type>(t);
}

} // namespace

//===----------------------------------------------------------------------===//
// Construction and shapes
//===----------------------------------------------------------------------===//

LogicalResult MakeRangeOp::verify() {
  int64_t start = static_cast<int32_t>(getStart()),
          end = static_cast<int32_t>(getEnd());
  auto type = getType();
  if (start >= end)
    return emitOpError() << "start " << start << " must be less than end "
                         << end;
  if (type.getRank() != 1)
    return emitOpError() << "result must be a 1-D tensor, got " << type;
  if (type.getDimSize(0) != end - start)
    return emitOpError() << "result has " << type.getDimSize(0)
                         << " elements but the range [" << start << ", " << end
                         << ") has " << end - start;
  return success();
}

LogicalResult SplatOp::verify() {
  Type src = getSrc().getType();
  if (isa<RankedTensorType>(src))
    return emitOpError() << "source must be a scalar, got " << src;
  if (getType().getElementType() != src)
    return emitOpError() << "result element type "
                         << getType().getElementType()
                         << " does not match the source type " << src;
  return success();
}

OpFoldResult SplatOp::fold(FoldAdaptor adaptor) {
  Attribute src = adaptor.getSrc();
  if (!src || !isa<IntegerAttr, FloatAttr>(src))
    return {};
  return SplatElementsAttr::get(getType(), src);
}

LogicalResult UnsplatOp::verify() {
  auto src = getSrc().getType();
  if (!llvm::all_of(src.getShape(), [](int64_t d) { return d == 1; }))
    return emitOpError() << "source must have every dimension 1, got "
                         << shapeStr(src.getShape());
  if (src.getElementType() != getType())
    return emitOpError() << "result type " << getType()
                         << " does not match the source element type "
                         << src.getElementType();
  return success();
}

LogicalResult ExpandDimsOp::verify() {
  auto src = getSrc().getType();
  auto res = getType();
  int64_t axis = static_cast<int32_t>(getAxis()); // I32Attr: signed
  if (axis < 0 || axis > src.getRank())
    return emitOpError() << "axis " << axis << " is out of range for a rank-"
                         << src.getRank() << " source";
  SmallVector<int64_t> expected(src.getShape());
  expected.insert(expected.begin() + axis, 1);
  if (res.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError() << "result shape " << shapeStr(res.getShape())
                         << " should be " << shapeStr(expected)
                         << " (source with a 1 inserted at axis " << axis
                         << ")";
  if (res.getElementType() != src.getElementType())
    return emitOpError() << "result element type " << res.getElementType()
                         << " does not match the source element type "
                         << src.getElementType();
  return success();
}

OpFoldResult ExpandDimsOp::fold(FoldAdaptor adaptor) {
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getSrc()))
    return SplatElementsAttr::get(getType(), splat.getSplatValue<Attribute>());
  return {};
}

LogicalResult ReshapeOp::verify() {
  auto src = getSrc().getType();
  auto res = getType();
  if (src.getNumElements() != res.getNumElements())
    return emitOpError() << "source has " << src.getNumElements()
                         << " elements but the result has "
                         << res.getNumElements();
  if (src.getElementType() != res.getElementType())
    return emitOpError() << "result element type " << res.getElementType()
                         << " does not match the source element type "
                         << src.getElementType();
  return success();
}

LogicalResult BroadcastOp::verify() {
  auto src = getSrc().getType();
  auto res = getType();
  if (src.getRank() != res.getRank())
    return emitOpError() << "source rank " << src.getRank()
                         << " differs from result rank " << res.getRank();
  if (src.getElementType() != res.getElementType())
    return emitOpError() << "result element type " << res.getElementType()
                         << " does not match the source element type "
                         << src.getElementType();
  for (int64_t i = 0; i < src.getRank(); ++i) {
    int64_t s = src.getDimSize(i), r = res.getDimSize(i);
    if (s != r && s != 1)
      return emitOpError() << "cannot broadcast dimension " << i << " of size "
                           << s << " to " << r
                           << " (only size-1 dimensions broadcast)";
  }
  return success();
}

OpFoldResult BroadcastOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getSrc()))
    return SplatElementsAttr::get(getType(), splat.getSplatValue<Attribute>());
  return {};
}

LogicalResult TransOp::verify() {
  auto src = getSrc().getType();
  auto res = getType();
  ArrayRef<int32_t> order = getOrder();
  if (failed(verifyPermutation(*this, order, src.getRank(), "order")))
    return failure();
  SmallVector<int64_t> expected;
  for (int32_t d : order)
    expected.push_back(src.getDimSize(d));
  if (res.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError() << "result shape " << shapeStr(res.getShape())
                         << " should be " << shapeStr(expected)
                         << " (source dimensions taken in `order`)";
  if (src.getElementType() != res.getElementType())
    return emitOpError() << "result element type " << res.getElementType()
                         << " does not match the source element type "
                         << src.getElementType();
  return success();
}

LogicalResult CatOp::verify() {
  auto lhs = getLhs().getType();
  auto res = getType();
  if (lhs.getRank() != res.getRank())
    return emitOpError() << "result rank " << res.getRank()
                         << " differs from operand rank " << lhs.getRank();
  if (res.getNumElements() != 2 * lhs.getNumElements())
    return emitOpError() << "result has " << res.getNumElements()
                         << " elements, expected twice the operand's "
                         << lhs.getNumElements();
  if (lhs.getElementType() != res.getElementType())
    return emitOpError() << "result element type " << res.getElementType()
                         << " does not match the operand element type "
                         << lhs.getElementType();
  return success();
}

LogicalResult JoinOp::verify() {
  auto lhs = getLhs().getType();
  auto res = getType();
  SmallVector<int64_t> expected(lhs.getShape());
  expected.push_back(2);
  if (res.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError() << "result shape " << shapeStr(res.getShape())
                         << " should be " << shapeStr(expected)
                         << " (operand shape with a minor dimension of 2)";
  if (lhs.getElementType() != res.getElementType())
    return emitOpError() << "result element type " << res.getElementType()
                         << " does not match the operand element type "
                         << lhs.getElementType();
  return success();
}

LogicalResult SplitOp::verify() {
  auto src = getSrc().getType();
  auto out = getOutLHS().getType();
  if (src.getRank() == 0 || src.getShape().back() != 2)
    return emitOpError() << "source's minor dimension must be 2, got shape "
                         << shapeStr(src.getShape());
  if (out.getShape() != src.getShape().drop_back())
    return emitOpError() << "result shape " << shapeStr(out.getShape())
                         << " should be "
                         << shapeStr(src.getShape().drop_back());
  if (src.getElementType() != out.getElementType())
    return emitOpError() << "result element type " << out.getElementType()
                         << " does not match the source element type "
                         << src.getElementType();
  return success();
}

//===----------------------------------------------------------------------===//
// Pointers and memory
//===----------------------------------------------------------------------===//

LogicalResult AddPtrOp::verify() {
  Type ptr = getPtr().getType(), off = getOffset().getType();
  if (isa<RankedTensorType>(ptr) != isa<RankedTensorType>(off) ||
      shapeOf(ptr) != shapeOf(off))
    return emitOpError() << "offset shape " << shapeStr(shapeOf(off))
                         << " does not match pointer shape "
                         << shapeStr(shapeOf(ptr));
  return success();
}

OpFoldResult AddPtrOp::fold(FoldAdaptor adaptor) {
  // addptr(p, 0) -> p
  if (matchPattern(adaptor.getOffset(), m_Zero()))
    return getPtr();
  return {};
}

LogicalResult AdvanceOp::verify() {
  if (!isBlockPointer(getPtr().getType()))
    return emitOpError() << "operand must be a block pointer, got "
                         << getPtr().getType();
  auto rank = cast<RankedTensorType>(getPtr().getType().getPointeeType())
                  .getRank();
  if (static_cast<int64_t>(getOffsets().size()) != rank)
    return emitOpError() << "takes " << rank << " offsets for a rank-" << rank
                         << " block, got " << getOffsets().size();
  return success();
}

LogicalResult LoadOp::verify() {
  if (getOther() && !getMask())
    return emitOpError() << "`other` requires a mask";
  if (getPadding() && !isBlockPointer(getPtr().getType()))
    return emitOpError() << "padding is only valid with a block pointer";
  return verifyMemoryAccess(*this, getPtr().getType(), getMask(),
                            getBoundaryCheck());
}

void LoadOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getPtrMutable(),
                       GlobalMemory::get());
  // A volatile load must be neither removed nor merged with another.
  if (getIsVolatile())
    effects.emplace_back(MemoryEffects::Write::get(), GlobalMemory::get());
}

LogicalResult StoreOp::verify() {
  return verifyMemoryAccess(*this, getPtr().getType(), getMask(),
                            getBoundaryCheck());
}

void StoreOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Write::get(), &getPtrMutable(),
                       GlobalMemory::get());
}

LogicalResult AtomicRMWOp::verify() {
  if (isBlockPointer(getPtr().getType()))
    return emitOpError() << "cannot operate on a block pointer";
  Type pointee = getPointeeType(getPtr().getType());
  if (getVal().getType() != pointee)
    return emitOpError() << "value type " << getVal().getType()
                         << " does not match the pointee type " << pointee;
  if (getType() != getVal().getType())
    return emitOpError() << "result type " << getType()
                         << " does not match the value type "
                         << getVal().getType();
  if (getMask() && getMask().getType() != getI1SameShape(pointee))
    return emitOpError() << "mask type " << getMask().getType()
                         << " should be " << getI1SameShape(pointee);
  Type elem = getElementTypeOrSelf(pointee);
  RMWOp kind = getAtomicRmwOp();
  if (kind == RMWOp::FADD && !isa<FloatType>(elem))
    return emitOpError() << "fadd needs a float element type, got " << elem;
  if ((kind == RMWOp::AND || kind == RMWOp::OR || kind == RMWOp::XOR ||
       kind == RMWOp::UMAX || kind == RMWOp::UMIN) &&
      !isa<IntegerType>(elem))
    return emitOpError() << stringifyRMWOp(kind)
                         << " needs an integer element type, got " << elem;
  return success();
}

LogicalResult AtomicCASOp::verify() {
  if (isBlockPointer(getPtr().getType()))
    return emitOpError() << "cannot operate on a block pointer";
  Type pointee = getPointeeType(getPtr().getType());
  if (getCmp().getType() != pointee || getVal().getType() != pointee)
    return emitOpError() << "cmp and val must have the pointee type "
                         << pointee << ", got " << getCmp().getType()
                         << " and " << getVal().getType();
  if (getType() != pointee)
    return emitOpError() << "result type " << getType()
                         << " does not match the pointee type " << pointee;
  return success();
}

LogicalResult MakeTensorPtrOp::verify() {
  if (!isBlockPointer(getType()))
    return emitOpError() << "result must be a pointer to a tensor, got "
                         << getType();
  auto block = cast<RankedTensorType>(getType().getPointeeType());
  int64_t rank = block.getRank();
  if (static_cast<int64_t>(getShape().size()) != rank)
    return emitOpError() << "takes " << rank << " shape, stride and offset "
                         << "values for a rank-" << rank << " block, got "
                         << getShape().size();
  return verifyPermutation(*this, getOrder(), rank, "order");
}

//===----------------------------------------------------------------------===//
// Tensor descriptors
//===----------------------------------------------------------------------===//

LogicalResult MakeTensorDescOp::verify() {
  RankedTensorType block = getType().getBlockType();
  if (static_cast<int64_t>(getShape().size()) != block.getRank())
    return emitOpError() << "takes " << block.getRank()
                         << " shape and stride values for a rank-"
                         << block.getRank() << " block, got "
                         << getShape().size();
  Type pointee = getBase().getType().getPointeeType();
  if (pointee.isIntOrFloat() && block.getElementType().isIntOrFloat() &&
      pointee.getIntOrFloatBitWidth() !=
          block.getElementType().getIntOrFloatBitWidth())
    return emitOpError() << "base pointee " << pointee
                         << " and block element type "
                         << block.getElementType() << " differ in width";
  return success();
}

static LogicalResult verifyIndexCount(Operation *op, TensorDescType desc,
                                      size_t count) {
  int64_t rank = desc.getBlockType().getRank();
  if (static_cast<int64_t>(count) != rank)
    return op->emitOpError() << "takes " << rank << " indices for a rank-"
                             << rank << " descriptor, got " << count;
  return success();
}

LogicalResult DescriptorLoadOp::verify() {
  if (failed(verifyIndexCount(*this, getDesc().getType(), getIndices().size())))
    return failure();
  return verifyDescriptorBlock(*this, getDesc().getType(), getType(),
                               "result");
}

LogicalResult DescriptorStoreOp::verify() {
  if (failed(verifyIndexCount(*this, getDesc().getType(), getIndices().size())))
    return failure();
  return verifyDescriptorBlock(*this, getDesc().getType(), getSrc().getType(),
                               "stored value");
}

LogicalResult DescriptorReduceOp::verify() {
  if (failed(verifyIndexCount(*this, getDesc().getType(), getIndices().size())))
    return failure();
  return verifyDescriptorBlock(*this, getDesc().getType(), getSrc().getType(),
                               "reduced value");
}

static LogicalResult verifyGatherScatter(Operation *op, TensorDescType desc,
                                         RankedTensorType xOffsets,
                                         RankedTensorType value) {
  RankedTensorType block = desc.getBlockType();
  if (block.getRank() != 2 || block.getDimSize(0) != 1)
    return op->emitOpError()
           << "descriptor block must be 1xN for gather/scatter, got "
           << shapeStr(block.getShape());
  if (xOffsets.getRank() != 1)
    return op->emitOpError() << "x_offsets must be 1-D, got "
                             << shapeStr(xOffsets.getShape());
  if (value.getRank() != 2 || value.getDimSize(0) != xOffsets.getDimSize(0))
    return op->emitOpError()
           << "value shape " << shapeStr(value.getShape())
           << " must be [" << xOffsets.getDimSize(0) << ", N]";
  if (value.getElementType() != block.getElementType())
    return op->emitOpError() << "value element type " << value.getElementType()
                             << " does not match the descriptor's "
                             << block.getElementType();
  return success();
}

LogicalResult DescriptorGatherOp::verify() {
  return verifyGatherScatter(*this, getDesc().getType(),
                             getXOffsets().getType(), getType());
}

LogicalResult DescriptorScatterOp::verify() {
  return verifyGatherScatter(*this, getDesc().getType(),
                             getXOffsets().getType(), getSrc().getType());
}

//===----------------------------------------------------------------------===//
// Dot
//===----------------------------------------------------------------------===//

LogicalResult DotOp::verify() {
  auto a = getA().getType(), b = getB().getType(), c = getC().getType();
  int64_t rank = a.getRank();
  if (rank != 2 && rank != 3)
    return emitOpError() << "operands must be 2-D or batched 3-D, got rank "
                         << rank;
  if (b.getRank() != rank || c.getRank() != rank)
    return emitOpError() << "operand ranks differ: a " << rank << ", b "
                         << b.getRank() << ", c " << c.getRank();
  ArrayRef<int64_t> as = a.getShape(), bs = b.getShape(), cs = c.getShape();
  if (as[rank - 1] != bs[rank - 2])
    return emitOpError() << "K of a (" << shapeStr(as) << ") is "
                         << as[rank - 1] << " but K of b (" << shapeStr(bs)
                         << ") is " << bs[rank - 2];
  if (cs[rank - 2] != as[rank - 2] || cs[rank - 1] != bs[rank - 1])
    return emitOpError() << "accumulator shape " << shapeStr(cs)
                         << " should be " << as[rank - 2] << "x"
                         << bs[rank - 1] << " (M of a by N of b)";
  if (rank == 3 && (as[0] != bs[0] || as[0] != cs[0]))
    return emitOpError() << "batch sizes differ: a " << as[0] << ", b "
                         << bs[0] << ", c " << cs[0];
  Type ae = a.getElementType(), be = b.getElementType();
  if (ae != be && !(isF8(ae) && isF8(be)))
    return emitOpError() << "element types of a (" << ae << ") and b (" << be
                         << ") must match";
  return success();
}

LogicalResult DotScaledOp::verify() {
  auto a = getA().getType(), b = getB().getType(), c = getC().getType();
  if (a.getRank() != b.getRank() || a.getRank() != c.getRank() ||
      a.getRank() < 2)
    return emitOpError() << "operands must have the same rank >= 2";
  int64_t r = a.getRank();
  if (c.getDimSize(r - 2) != a.getDimSize(r - 2) ||
      c.getDimSize(r - 1) != b.getDimSize(r - 1))
    return emitOpError() << "accumulator shape " << shapeStr(c.getShape())
                         << " should be " << a.getDimSize(r - 2) << "x"
                         << b.getDimSize(r - 1);
  return success();
}

//===----------------------------------------------------------------------===//
// Reduce, scan, map
//===----------------------------------------------------------------------===//

LogicalResult ReduceOp::verify() {
  if (failed(verifySameShapes(*this, getSrcs())))
    return failure();
  auto first = cast<RankedTensorType>(getSrcs().front().getType());
  int64_t axis = static_cast<int32_t>(getAxis()); // I32Attr: signed
  if (axis < 0 || axis >= first.getRank())
    return emitOpError() << "axis " << axis << " is out of range for rank "
                         << first.getRank();
  if (getNumResults() != getSrcs().size())
    return emitOpError() << "has " << getSrcs().size() << " operands but "
                         << getNumResults() << " results";
  SmallVector<int64_t> shape(first.getShape());
  shape.erase(shape.begin() + axis);
  for (auto [i, src, res] : llvm::enumerate(getSrcs(), getResults())) {
    Type elem = cast<RankedTensorType>(src.getType()).getElementType();
    Type expected =
        shape.empty() ? elem : Type(RankedTensorType::get(shape, elem));
    // Encodings of a GPU-level dialect may be carried by the results.
    if (auto rt = dyn_cast<RankedTensorType>(res.getType());
        rt && !shape.empty() && rt.getShape() == ArrayRef<int64_t>(shape) &&
        rt.getElementType() == elem)
      continue;
    if (res.getType() != expected)
      return emitOpError() << "result #" << i << " has type " << res.getType()
                           << " but reducing axis " << axis << " of "
                           << src.getType() << " gives " << expected;
  }
  return success();
}

LogicalResult ReduceOp::verifyRegions() {
  return verifyCombiner(*this, getCombineOp(), getSrcs());
}

LogicalResult ScanOp::verify() {
  if (failed(verifySameShapes(*this, getSrcs())))
    return failure();
  auto first = cast<RankedTensorType>(getSrcs().front().getType());
  int64_t axis = static_cast<int32_t>(getAxis()); // I32Attr: signed
  if (axis < 0 || axis >= first.getRank())
    return emitOpError() << "axis " << axis << " is out of range for rank "
                         << first.getRank();
  if (getNumResults() != getSrcs().size())
    return emitOpError() << "has " << getSrcs().size() << " operands but "
                         << getNumResults() << " results";
  for (auto [i, src, res] : llvm::enumerate(getSrcs(), getResults()))
    if (src.getType() != res.getType())
      return emitOpError() << "result #" << i << " has type " << res.getType()
                           << " but operand #" << i << " has type "
                           << src.getType();
  return success();
}

LogicalResult ScanOp::verifyRegions() {
  return verifyCombiner(*this, getCombineOp(), getSrcs());
}

LogicalResult MapElementwiseOp::verify() {
  if (failed(verifySameShapes(*this, getSrcs())))
    return failure();
  if (getPack() < 1 || !llvm::isPowerOf2_32(getPack()))
    return emitOpError() << "pack must be a power of two, got " << getPack();
  ArrayRef<int64_t> shape = shapeOf(getSrcs().front().getType());
  for (auto [i, res] : llvm::enumerate(getResults()))
    if (shapeOf(res.getType()) != shape)
      return emitOpError() << "result #" << i << " has shape "
                           << shapeStr(shapeOf(res.getType()))
                           << " but the operands have shape " << shapeStr(shape);
  return success();
}

LogicalResult MapElementwiseOp::verifyRegions() {
  Region &region = getScalarOp();
  if (region.empty())
    return emitOpError() << "region must have an entry block";
  Block &entry = region.front();
  size_t pack = getPack();
  if (entry.getNumArguments() != pack * getSrcs().size())
    return emitOpError() << "region must take " << pack * getSrcs().size()
                         << " scalars (pack x operands), got "
                         << entry.getNumArguments();
  // Arguments are operand-major: `pack` scalars of operand 0, then of 1, ...
  for (auto [i, arg] : llvm::enumerate(entry.getArguments())) {
    Type expected = getElementTypeOrSelf(getSrcs()[i / pack].getType());
    if (arg.getType() != expected)
      return emitOpError() << "region argument #" << i << " has type "
                           << arg.getType() << " but operand #" << i / pack
                           << " has element type " << expected;
  }
  WalkResult walk = region.walk([&](MapElementwiseReturnOp ret) {
    if (ret->getParentRegion() != &region)
      return WalkResult::advance();
    if (ret.getNumOperands() != pack * getNumResults()) {
      ret.emitOpError() << "must yield " << pack * getNumResults()
                        << " scalars (pack x results), got "
                        << ret.getNumOperands();
      return WalkResult::interrupt();
    }
    for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
      Type expected = getElementTypeOrSelf(getResult()[i / pack].getType());
      if (v.getType() != expected) {
        ret.emitOpError() << "yields " << v.getType() << " as value #" << i
                          << " but result #" << i / pack
                          << " has element type " << expected;
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// Elementwise ops and casts
//===----------------------------------------------------------------------===//

LogicalResult FpToFpOp::verify() {
  Type src = getSrc().getType(), res = getType();
  if (shapeOf(src) != shapeOf(res) ||
      isa<RankedTensorType>(src) != isa<RankedTensorType>(res))
    return emitOpError() << "source shape " << shapeStr(shapeOf(src))
                         << " differs from result shape "
                         << shapeStr(shapeOf(res));
  Type se = getElementTypeOrSelf(src), re = getElementTypeOrSelf(res);
  if (re.getIntOrFloatBitWidth() < se.getIntOrFloatBitWidth() &&
      !getRounding())
    return emitOpError() << "a downcast from " << se << " to " << re
                         << " needs a rounding mode (rtne or rtz)";
  return success();
}

LogicalResult BitcastOp::verify() {
  Type src = getSrc().getType(), res = getType();
  if (isa<RankedTensorType>(src) != isa<RankedTensorType>(res) ||
      shapeOf(src) != shapeOf(res))
    return emitOpError() << "source shape " << shapeStr(shapeOf(src))
                         << " differs from result shape "
                         << shapeStr(shapeOf(res));
  unsigned sw = getScalarBitWidth(getElementTypeOrSelf(src));
  unsigned rw = getScalarBitWidth(getElementTypeOrSelf(res));
  if (sw != rw)
    return emitOpError() << "cannot bitcast " << sw << "-bit elements to "
                         << rw << "-bit elements";
  return success();
}

static LogicalResult verifyPtrIntShapes(Operation *op, Type src, Type res) {
  if (isa<RankedTensorType>(src) != isa<RankedTensorType>(res) ||
      shapeOf(src) != shapeOf(res))
    return op->emitOpError() << "source shape " << shapeStr(shapeOf(src))
                             << " differs from result shape "
                             << shapeStr(shapeOf(res));
  return success();
}

LogicalResult IntToPtrOp::verify() {
  return verifyPtrIntShapes(*this, getSrc().getType(), getType());
}

LogicalResult PtrToIntOp::verify() {
  return verifyPtrIntShapes(*this, getSrc().getType(), getType());
}

LogicalResult ExternElementwiseOp::verify() {
  if (getSymbol().empty())
    return emitOpError() << "symbol must name a device function";
  ArrayRef<int64_t> shape = shapeOf(getType());
  for (auto [i, src] : llvm::enumerate(getSrcs()))
    if (isa<RankedTensorType>(src.getType()) && shapeOf(src.getType()) != shape)
      return emitOpError() << "operand #" << i << " has shape "
                           << shapeStr(shapeOf(src.getType()))
                           << " but the result has shape " << shapeStr(shape);
  return success();
}

void ExternElementwiseOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (getPure())
    return;
  effects.emplace_back(MemoryEffects::Read::get(), GlobalMemory::get());
  effects.emplace_back(MemoryEffects::Write::get(), GlobalMemory::get());
}

LogicalResult ElementwiseInlineAsmOp::verify() {
  // Signed: an I32Attr's getter reads -2 as 4294967294.
  int64_t pack = getPackedElementAttr().getValue().getSExtValue();
  if (pack < 1 || pack > kMaxInlineAsmPack)
    return emitOpError() << "packed_element must be between 1 and "
                         << kMaxInlineAsmPack << ", got " << pack;
  std::optional<ArrayRef<int64_t>> shape;
  auto check = [&](Type t, StringRef what, size_t i) -> LogicalResult {
    if (!isa<RankedTensorType>(t))
      return success();
    if (!shape) {
      shape = shapeOf(t);
      return success();
    }
    if (shapeOf(t) != *shape)
      return emitOpError() << what << " #" << i << " has shape "
                           << shapeStr(shapeOf(t)) << ", expected "
                           << shapeStr(*shape);
    return success();
  };
  for (auto [i, v] : llvm::enumerate(getArgs()))
    if (failed(check(v.getType(), "operand", i)))
      return failure();
  for (auto [i, v] : llvm::enumerate(getResult()))
    if (failed(check(v.getType(), "result", i)))
      return failure();
  return success();
}

void ElementwiseInlineAsmOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (getPure())
    return;
  effects.emplace_back(MemoryEffects::Read::get(), GlobalMemory::get());
  effects.emplace_back(MemoryEffects::Write::get(), GlobalMemory::get());
}

//===----------------------------------------------------------------------===//
// Histogram, gather, print
//===----------------------------------------------------------------------===//

LogicalResult HistogramOp::verify() {
  if (getSrc().getType().getRank() != 1 || getType().getRank() != 1)
    return emitOpError() << "source and result must be 1-D, got "
                         << getSrc().getType() << " and " << getType();
  return success();
}

LogicalResult GatherOp::verify() {
  auto src = getSrc().getType();
  auto idx = getIndices().getType();
  auto res = getType();
  int64_t axis = static_cast<int32_t>(getAxis()); // I32Attr: signed
  if (src.getRank() != idx.getRank())
    return emitOpError() << "indices rank " << idx.getRank()
                         << " differs from source rank " << src.getRank();
  if (axis < 0 || axis >= src.getRank())
    return emitOpError() << "axis " << axis << " is out of range for rank "
                         << src.getRank();
  if (res.getShape() != idx.getShape())
    return emitOpError() << "result shape " << shapeStr(res.getShape())
                         << " must equal the indices shape "
                         << shapeStr(idx.getShape());
  if (res.getElementType() != src.getElementType())
    return emitOpError() << "result element type " << res.getElementType()
                         << " does not match the source element type "
                         << src.getElementType();
  for (int64_t d = 0; d < src.getRank(); ++d)
    if (d != axis && src.getDimSize(d) != idx.getDimSize(d))
      return emitOpError() << "indices dimension " << d << " is "
                           << idx.getDimSize(d) << " but the source's is "
                           << src.getDimSize(d);
  return success();
}

LogicalResult PrintOp::verify() {
  if (!getIsSigned().empty() && getIsSigned().size() != getArgs().size())
    return emitOpError() << "isSigned has " << getIsSigned().size()
                         << " entries for " << getArgs().size() << " values";
  return success();
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

void FuncOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                   FunctionType type) {
  state.addAttribute(SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  state.addAttribute(getFunctionTypeAttrName(state.name), TypeAttr::get(type));
  state.addRegion();
}

ParseResult FuncOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildFuncType =
      [](Builder &builder, ArrayRef<Type> argTypes, ArrayRef<Type> results,
         function_interface_impl::VariadicFlag,
         std::string &) { return builder.getFunctionType(argTypes, results); };
  return function_interface_impl::parseFunctionOp(
      parser, result, /*allowVariadic=*/false,
      getFunctionTypeAttrName(result.name), buildFuncType,
      getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name));
}

void FuncOp::print(OpAsmPrinter &printer) {
  function_interface_impl::printFunctionOp(
      printer, *this, /*isVariadic=*/false, getFunctionTypeAttrName(),
      getArgAttrsAttrName(), getResAttrsAttrName());
}

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto fn = symbolTable.lookupNearestSymbolFrom<FuncOp>(*this, getCalleeAttr());
  if (!fn)
    return emitOpError() << "'" << getCallee()
                         << "' does not reference a valid tt.func";
  FunctionType type = fn.getFunctionType();
  if (!llvm::equal(type.getInputs(), getOperandTypes()) ||
      !llvm::equal(type.getResults(), getResultTypes()))
    return emitOpError() << "call type " << getCalleeType()
                         << " does not match the callee's type " << type;
  return success();
}

LogicalResult ReturnOp::verify() {
  auto fn = cast<FuncOp>((*this)->getParentOp());
  ArrayRef<Type> results = fn.getResultTypes();
  if (getSrcs().size() != results.size())
    return emitOpError() << "returns " << getSrcs().size()
                         << " values but '" << fn.getName() << "' returns "
                         << results.size();
  for (auto [i, v] : llvm::enumerate(getSrcs()))
    if (v.getType() != results[i])
      return emitOpError() << "value #" << i << " has type " << v.getType()
                           << " but '" << fn.getName() << "' returns "
                           << results[i];
  return success();
}
