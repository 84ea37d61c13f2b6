//===- KGPUDialect.cpp - the kgpu dialect, its layouts and ops ------------===//

#include "dialects/kgpu/IR/KGPUDialect.h"
#include "dialects/kgpu/IR/KGPULayouts.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/TypeSwitch.h"

#include <limits>

using namespace mlir;
using namespace kiln::kgpu;

#include "dialects/kgpu/IR/KGPUDialect.cpp.inc"

FailureOr<SmallVector<unsigned>>
kiln::kgpu::parseUnsignedList(AsmParser &parser) {
  SmallVector<unsigned> values;
  auto entry = [&]() -> ParseResult {
    SMLoc loc = parser.getCurrentLocation();
    int64_t value;
    if (parser.parseInteger(value))
      return failure();
    if (value < 0 || value > int64_t(std::numeric_limits<unsigned>::max()))
      return parser.emitError(loc)
             << "expected an integer in [0, 4294967295], got " << value;
    values.push_back(unsigned(value));
    return success();
  };
  if (failed(parser.parseCommaSeparatedList(entry)))
    return failure();
  return values;
}

#define GET_ATTRDEF_CLASSES
#include "dialects/kgpu/IR/KGPUAttrs.cpp.inc"

#define GET_OP_CLASSES
#include "dialects/kgpu/IR/KGPUOps.cpp.inc"

namespace {
/// Prints layouts as aliases (#blocked, #blocked1, #slice, ...) at the top
/// of the module instead of inline in every tensor type.
struct KGPUOpAsmInterface : OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;
  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<BlockedEncodingAttr>(attr)) {
      os << "blocked";
      return AliasResult::FinalAlias;
    }
    if (isa<SliceEncodingAttr>(attr)) {
      os << "slice";
      return AliasResult::FinalAlias;
    }
    if (isa<SharedEncodingAttr>(attr)) {
      os << "shared";
      return AliasResult::FinalAlias;
    }
    if (isa<MmaEncodingAttr>(attr)) {
      os << "mma";
      return AliasResult::FinalAlias;
    }
    if (isa<MfmaEncodingAttr>(attr)) {
      os << "mfma";
      return AliasResult::FinalAlias;
    }
    if (isa<DotOperandEncodingAttr>(attr)) {
      os << "dot_op";
      return AliasResult::FinalAlias;
    }
    return AliasResult::NoAlias;
  }
};
} // namespace

void KGPUDialect::initialize() {
  registerAttributes();
  addInterfaces<KGPUOpAsmInterface>();
  addOperations<
#define GET_OP_LIST
#include "dialects/kgpu/IR/KGPUOps.cpp.inc"
      >();
}

void KGPUDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/kgpu/IR/KGPUAttrs.cpp.inc"
      >();
}

static LogicalResult verifyOrder(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayRef<unsigned> order, size_t rank) {
  if (order.size() != rank)
    return emitError() << "order has " << order.size()
                       << " entries for rank " << rank;
  llvm::SmallBitVector seen(rank);
  for (unsigned d : order) {
    if (d >= rank || seen.test(d))
      return emitError() << "order must be a permutation of [0, " << rank
                         << "), got entry " << d;
    seen.set(d);
  }
  return success();
}

LogicalResult
BlockedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                            ArrayRef<unsigned> sizePerThread,
                            ArrayRef<unsigned> threadsPerWarp,
                            ArrayRef<unsigned> warpsPerCTA,
                            ArrayRef<unsigned> order) {
  size_t rank = order.size();
  if (rank == 0)
    return emitError() << "blocked layout needs rank >= 1";
  if (sizePerThread.size() != rank || threadsPerWarp.size() != rank ||
      warpsPerCTA.size() != rank)
    return emitError() << "sizePerThread, threadsPerWarp, warpsPerCTA and "
                          "order must have the same length";
  for (auto [name, values] :
       {std::pair<StringRef, ArrayRef<unsigned>>{"sizePerThread",
                                                 sizePerThread},
        {"threadsPerWarp", threadsPerWarp},
        {"warpsPerCTA", warpsPerCTA}})
    for (unsigned v : values)
      if (v == 0 || !llvm::isPowerOf2_32(v))
        return emitError() << name << " entries must be powers of two, got "
                           << v;
  unsigned lanes = 1;
  for (unsigned t : threadsPerWarp)
    lanes *= t;
  if (lanes != 32 && lanes != 64)
    return emitError() << "threadsPerWarp must multiply to the warp size "
                          "(32 or 64), got "
                       << lanes;
  return verifyOrder(emitError, order, rank);
}

LogicalResult
SliceEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          unsigned dim, Attribute parent) {
  if (!isDistributedLayout(parent))
    return emitError() << "slice parent must be a distributed layout, got "
                       << parent;
  if (dim >= getLayoutRank(parent))
    return emitError() << "slice dim " << dim << " out of range for rank-"
                       << getLayoutRank(parent) << " parent";
  if (getLayoutRank(parent) < 2)
    return emitError() << "slice parent must have rank >= 2";
  return success();
}

LogicalResult
SharedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                           unsigned vec, unsigned perPhase, unsigned maxPhase,
                           ArrayRef<unsigned> order) {
  if (vec == 0 || perPhase == 0 || maxPhase == 0)
    return emitError() << "vec, perPhase and maxPhase must be positive";
  return verifyOrder(emitError, order, order.size());
}

LogicalResult
MmaEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        unsigned version, ArrayRef<unsigned> warpsPerCTA,
                        ArrayRef<unsigned> instrShape) {
  if (version != 2 && version != 3)
    return emitError() << "mma version must be 2 (mma.sync) or 3 (wgmma), got "
                       << version;
  if (warpsPerCTA.size() != 2 && warpsPerCTA.size() != 3)
    return emitError() << "mma warpsPerCTA must have 2 or 3 entries, got "
                       << warpsPerCTA.size();
  for (unsigned w : warpsPerCTA)
    if (w == 0 || !llvm::isPowerOf2_32(w))
      return emitError() << "mma warpsPerCTA entries must be powers of two, got "
                         << w;
  size_t expected = version == 2 ? 2 : 3;
  if (instrShape.size() != expected)
    return emitError() << "mma version " << version << " takes an instrShape of "
                       << expected << " entries, got " << instrShape.size();
  if (version == 2 &&
      (instrShape[0] != 16 || instrShape[1] < 8 || instrShape[1] > 256 ||
       !llvm::isPowerOf2_32(instrShape[1])))
    return emitError() << "mma.sync instrShape must be [16, N] with N a power "
                          "of two in [8, 256] (a warp's tile: N / 8 m16n8 "
                          "tiles side by side), got ["
                       << instrShape[0] << ", " << instrShape[1] << "]";
  if (version == 3) {
    if (instrShape[0] != 64)
      return emitError() << "wgmma instrShape M must be 64, got "
                         << instrShape[0];
    if (instrShape[1] < 8 || instrShape[1] > 256 || instrShape[1] % 8 != 0)
      return emitError() << "wgmma instrShape N must be a multiple of 8 in "
                            "[8, 256], got "
                         << instrShape[1];
    unsigned warps = 1;
    for (unsigned w : warpsPerCTA)
      warps *= w;
    if (warps % 4 != 0)
      return emitError() << "wgmma needs whole warpgroups (warps a multiple of "
                            "4), got "
                         << warps;
  }
  return success();
}

LogicalResult
MfmaEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                         ArrayRef<unsigned> warpsPerCTA,
                         ArrayRef<unsigned> instrShape) {
  if (warpsPerCTA.size() != 2)
    return emitError() << "mfma warpsPerCTA must have 2 entries, got "
                       << warpsPerCTA.size();
  for (unsigned w : warpsPerCTA)
    if (w == 0 || !llvm::isPowerOf2_32(w))
      return emitError() << "mfma warpsPerCTA entries must be powers of two, got "
                         << w;
  if (instrShape.size() != 2 || instrShape[0] != 16 || instrShape[1] != 16)
    return emitError() << "mfma instrShape must be [16, 16]";
  return success();
}

LogicalResult
DotOperandEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               unsigned opIdx, Attribute parent,
                               unsigned kWidth) {
  if (opIdx > 1)
    return emitError() << "dot operand index must be 0 (A) or 1 (B), got "
                       << opIdx;
  if (!isa<MmaEncodingAttr, BlockedEncodingAttr>(parent))
    return emitError() << "dot operand parent must be an mma or blocked "
                          "layout, got "
                       << parent;
  if (kWidth == 0)
    return emitError() << "kWidth must be positive";
  return success();
}

namespace {
/// convert_layout(convert_layout(x)) -> convert_layout(x), and a convert of
/// a splat, constant or make_range result is that op in the new layout
/// (nothing moves between threads).
struct SimplifyConvertLayout : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op,
                                PatternRewriter &rewriter) const override {
    Operation *def = op.getSrc().getDefiningOp();
    if (!def)
      return failure();
    if (auto inner = dyn_cast<ConvertLayoutOp>(def)) {
      rewriter.replaceOpWithNewOp<ConvertLayoutOp>(op, op.getType(),
                                                   inner.getSrc());
      return success();
    }
    if (def->getNumResults() != 1 || def->getNumRegions() != 0)
      return failure();
    StringRef name = def->getName().getStringRef();
    if (name != "tt.splat" && name != "tt.make_range" &&
        name != "arith.constant")
      return failure();
    Operation *clone = rewriter.clone(*def);
    clone->getResult(0).setType(op.getType());
    if (auto value = clone->getAttrOfType<DenseElementsAttr>("value"))
      clone->setAttr("value", value.reshape(op.getType()));
    rewriter.replaceOp(op, clone->getResults());
    return success();
  }
};
} // namespace

void ConvertLayoutOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                  MLIRContext *context) {
  results.add<SimplifyConvertLayout>(context);
}

LogicalResult ConvertLayoutOp::verify() {
  auto src = getSrc().getType(), res = getResult().getType();
  if (src.getShape() != res.getShape() ||
      src.getElementType() != res.getElementType())
    return emitOpError() << "may only change the layout, got " << src
                         << " -> " << res;
  return success();
}

bool LocalLoadOp::readsElementType(Type elem) {
  unsigned bits = elem.isIntOrFloat() ? elem.getIntOrFloatBitWidth() : 0;
  return bits == 8 || bits == 16 || bits == 32 || bits == 64;
}

LogicalResult LocalLoadOp::verify() {
  RankedTensorType type = getResult().getType();
  if (type.getRank() != 2 || !type.hasStaticShape() ||
      !(isa_and_nonnull<BlockedEncodingAttr>(type.getEncoding()) ||
        isMmaV2(type.getEncoding())))
    return emitOpError() << "reads a 2-D tile of static shape in a "
                            "#kgpu.blocked or mma.sync-form #kgpu.mma layout, "
                            "got "
                         << type;
  Type elem = type.getElementType();
  if (!readsElementType(elem))
    return emitOpError() << "reads 8-, 16-, 32- or 64-bit integers or floats, got "
                         << elem;
  // Element offsets are i32 in the lowering.
  if (getRowStride() < 1 || getRowStride() > (int64_t(1) << 24) ||
      getSlotBytes() > (int64_t(1) << 30))
    return emitOpError() << "row stride " << getRowStride() << " and slot bytes "
                         << getSlotBytes()
                         << " must be at most 2^24 elements and 2^30 bytes";
  int64_t bytes = elem.getIntOrFloatBitWidth() / 8;
  bool transpose = getTranspose();
  int64_t rows = type.getDimSize(transpose ? 1 : 0),
          cols = type.getDimSize(transpose ? 0 : 1);
  if (getNumSlots() < 1)
    return emitOpError() << "needs at least one slot, got " << getNumSlots();
  if (getRowStride() < cols)
    return emitOpError() << "row stride " << getRowStride()
                         << " is shorter than a row of " << cols
                         << " elements";
  if (getSlotBytes() < rows * getRowStride() * bytes)
    return emitOpError() << "slots of " << getSlotBytes() << " bytes cannot hold "
                         << rows << " rows of " << getRowStride() << " x "
                         << bytes << " bytes";
  if (getOffset() < 0 || getOffset() % 16 != 0 || getSlotBytes() % 16 != 0)
    return emitOpError() << "offset " << getOffset() << " and slot bytes "
                         << getSlotBytes() << " must be multiples of 16";
  return success();
}

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor) {
  if (getSrc().getType() == getResult().getType())
    return getSrc();
  return {};
}

//===----------------------------------------------------------------------===//
// Layout arithmetic
//===----------------------------------------------------------------------===//

bool kiln::kgpu::isDistributedLayout(Attribute layout) {
  if (auto mma = dyn_cast_if_present<MmaEncodingAttr>(layout))
    return isMmaV2(mma);
  if (isa_and_nonnull<MfmaEncodingAttr>(layout))
    return true;
  return isa_and_nonnull<BlockedEncodingAttr, SliceEncodingAttr>(layout);
}

bool kiln::kgpu::isMmaV2(Attribute layout) {
  auto mma = dyn_cast_if_present<MmaEncodingAttr>(layout);
  return mma && mma.getVersion() == 2 && mma.getWarpsPerCTA().size() == 2;
}

// mma.sync m16n8 accumulator (PTX ISA 9.7.14.5.8, "Matrix Fragments for
// mma.m16n8k16 with floating point type"): in each 16x8 instruction tile
// lane l holds rows l/4 and l/4 + 8, columns 2*(l%4) and 2*(l%4) + 1, in the
// register order c0 (r, c), c1 (r, c+1), c2 (r+8, c), c3 (r+8, c+1). Warp w
// covers the 16 x instrN tile (w % wm, w / wm) of the [16*wm, instrN*wn] CTA
// tile, which repeats over the shape: M repetitions outermost, then N, then
// the warp tile's instrN / 8 m16n8 tiles left to right, then the 4
// registers.
static constexpr int64_t kMmaV2Elems[4][2] = {{0, 0}, {0, 1}, {8, 0}, {8, 1}};

unsigned kiln::kgpu::getLayoutRank(Attribute layout) {
  if (auto b = dyn_cast<BlockedEncodingAttr>(layout))
    return b.getRank();
  if (isMmaV2(layout) || isa<MfmaEncodingAttr>(layout))
    return 2;
  if (auto s = dyn_cast<SliceEncodingAttr>(layout))
    return getLayoutRank(s.getParent()) - 1;
  return 0;
}

Attribute kiln::kgpu::getLayout(Type type) {
  if (auto t = dyn_cast<RankedTensorType>(type))
    return t.getEncoding();
  return {};
}

SmallVector<int64_t> kiln::kgpu::getTileShape(Attribute layout) {
  if (auto b = dyn_cast<BlockedEncodingAttr>(layout)) {
    SmallVector<int64_t> tile;
    for (unsigned d = 0; d < b.getRank(); ++d)
      tile.push_back(int64_t(b.getSizePerThread()[d]) *
                     b.getThreadsPerWarp()[d] * b.getWarpsPerCTA()[d]);
    return tile;
  }
  if (auto mma = dyn_cast<MmaEncodingAttr>(layout))
    return {16 * int64_t(mma.getWarpsPerCTA()[0]),
            int64_t(mma.getInstrShape()[1]) * mma.getWarpsPerCTA()[1]};
  if (auto mfma = dyn_cast<MfmaEncodingAttr>(layout))
    return {16 * int64_t(mfma.getWarpsPerCTA()[0]),
            16 * int64_t(mfma.getWarpsPerCTA()[1])};
  auto s = cast<SliceEncodingAttr>(layout);
  SmallVector<int64_t> tile = getTileShape(s.getParent());
  tile.erase(tile.begin() + s.getDim());
  return tile;
}

/// How many times the layout's tile repeats along each dimension of a
/// tensor of `shape` (at least once: a tensor smaller than the tile is
/// replicated in it). Not for slice layouts.
static SmallVector<int64_t> tileRepetitions(Attribute layout,
                                            ArrayRef<int64_t> shape) {
  SmallVector<int64_t> reps = getTileShape(layout);
  for (unsigned d = 0; d < reps.size(); ++d)
    reps[d] = std::max<int64_t>(1, llvm::divideCeil(shape[d], reps[d]));
  return reps;
}

SmallVector<SmallVector<int64_t>>
kiln::kgpu::getElemOffsets(Attribute layout, ArrayRef<int64_t> shape) {
  SmallVector<SmallVector<int64_t>> result;
  if (auto b = dyn_cast<BlockedEncodingAttr>(layout)) {
    unsigned rank = b.getRank();
    SmallVector<int64_t> perDim = tileRepetitions(layout, shape),
                         tile = getTileShape(layout);
    for (unsigned d = 0; d < rank; ++d)
      perDim[d] *= b.getSizePerThread()[d];
    int64_t total = 1;
    for (int64_t n : perDim)
      total *= n;
    result.reserve(total);
    for (int64_t e = 0; e < total; ++e) {
      SmallVector<int64_t> off(rank);
      int64_t rem = e;
      for (unsigned d : b.getOrder()) {
        int64_t i = rem % perDim[d];
        rem /= perDim[d];
        unsigned spt = b.getSizePerThread()[d];
        off[d] = (i / spt) * tile[d] + i % spt;
      }
      result.push_back(std::move(off));
    }
    return result;
  }
  if (isa<MfmaEncodingAttr>(layout)) {
    SmallVector<int64_t> tile = getTileShape(layout),
                         reps = tileRepetitions(layout, shape);
    int64_t repM = reps[0], repN = reps[1];
    for (int64_t m = 0; m < repM; ++m)
      for (int64_t n = 0; n < repN; ++n)
        for (int64_t i = 0; i < 4; ++i)
          result.push_back({m * tile[0] + i, n * tile[1]});
    return result;
  }
  if (auto mma = dyn_cast<MmaEncodingAttr>(layout)) {
    SmallVector<int64_t> tile = getTileShape(layout),
                         reps = tileRepetitions(layout, shape);
    int64_t repM = reps[0], repN = reps[1];
    int64_t subTiles = mma.getInstrShape()[1] / 8;
    for (int64_t m = 0; m < repM; ++m)
      for (int64_t n = 0; n < repN; ++n)
        for (int64_t s = 0; s < subTiles; ++s)
          for (const auto &e : kMmaV2Elems)
            result.push_back({m * tile[0] + e[0], n * tile[1] + 8 * s + e[1]});
    return result;
  }
  auto s = cast<SliceEncodingAttr>(layout);
  SmallVector<int64_t> parentShape(shape);
  parentShape.insert(parentShape.begin() + s.getDim(), 1);
  for (SmallVector<int64_t> off : getElemOffsets(s.getParent(), parentShape)) {
    off.erase(off.begin() + s.getDim());
    if (!llvm::is_contained(result, off))
      result.push_back(std::move(off));
  }
  return result;
}

unsigned kiln::kgpu::getNumElemsPerThread(Attribute layout,
                                          ArrayRef<int64_t> shape) {
  // The count of getElemOffsets without building the offsets (the SIMT
  // lowering asks for it for every tensor op); slices drop duplicates, so
  // they count the offsets themselves.
  if (isa<SliceEncodingAttr>(layout))
    return getElemOffsets(layout, shape).size();
  int64_t count = 1;
  for (int64_t reps : tileRepetitions(layout, shape))
    count *= reps;
  if (auto b = dyn_cast<BlockedEncodingAttr>(layout)) {
    for (unsigned spt : b.getSizePerThread())
      count *= spt;
    return count;
  }
  if (isa<MfmaEncodingAttr>(layout))
    return count * 4;
  assert(isa<MmaEncodingAttr>(layout) && "a distributed layout");
  return count * (cast<MmaEncodingAttr>(layout).getInstrShape()[1] / 8) *
         std::size(kMmaV2Elems);
}

SmallVector<SmallVector<BaseTerm>>
kiln::kgpu::getThreadBaseTerms(Attribute layout) {
  if (auto b = dyn_cast<BlockedEncodingAttr>(layout)) {
    SmallVector<SmallVector<BaseTerm>> terms(b.getRank());
    unsigned laneDiv = 1, warpDiv = 1;
    for (unsigned d : b.getOrder()) {
      unsigned spt = b.getSizePerThread()[d], tpw = b.getThreadsPerWarp()[d],
               wpc = b.getWarpsPerCTA()[d];
      if (tpw > 1)
        terms[d].push_back({/*isWarp=*/false, laneDiv, tpw, spt});
      if (wpc > 1)
        terms[d].push_back({/*isWarp=*/true, warpDiv, wpc, spt * tpw});
      laneDiv *= tpw;
      warpDiv *= wpc;
    }
    return terms;
  }
  if (auto mfma = dyn_cast<MfmaEncodingAttr>(layout)) {
    // Lane l: rows 4 * (l / 16) + i, column l % 16 of its warp's tile.
    unsigned wm = mfma.getWarpsPerCTA()[0], wn = mfma.getWarpsPerCTA()[1];
    SmallVector<SmallVector<BaseTerm>> terms(2);
    terms[0].push_back({/*isWarp=*/false, 16, 4, 4});
    if (wm > 1)
      terms[0].push_back({/*isWarp=*/true, 1, wm, 16});
    terms[1].push_back({/*isWarp=*/false, 1, 16, 1});
    if (wn > 1)
      terms[1].push_back({/*isWarp=*/true, wm, wn, 16});
    return terms;
  }
  if (auto mma = dyn_cast<MmaEncodingAttr>(layout)) {
    unsigned wm = mma.getWarpsPerCTA()[0], wn = mma.getWarpsPerCTA()[1];
    SmallVector<SmallVector<BaseTerm>> terms(2);
    terms[0].push_back({/*isWarp=*/false, 4, 8, 1});
    if (wm > 1)
      terms[0].push_back({/*isWarp=*/true, 1, wm, 16});
    terms[1].push_back({/*isWarp=*/false, 1, 4, 2});
    if (wn > 1)
      terms[1].push_back({/*isWarp=*/true, wm, wn, mma.getInstrShape()[1]});
    return terms;
  }
  auto s = cast<SliceEncodingAttr>(layout);
  auto terms = getThreadBaseTerms(s.getParent());
  terms.erase(terms.begin() + s.getDim());
  return terms;
}

Attribute kiln::kgpu::getDefaultBlockedLayout(MLIRContext *ctx,
                                              ArrayRef<int64_t> shape,
                                              unsigned numWarps,
                                              unsigned threadsPerWarp,
                                              ArrayRef<unsigned> order,
                                              unsigned vec) {
  unsigned rank = shape.size();
  SmallVector<unsigned> spt(rank, 1), tpw(rank, 1), wpc(rank, 1);
  unsigned fast = order[0];
  spt[fast] = std::max<unsigned>(
      1, std::min<int64_t>(vec, std::max<int64_t>(shape[fast], 1)));
  // Elements still to cover along each dimension after spt.
  SmallVector<int64_t> left(rank);
  for (unsigned d = 0; d < rank; ++d)
    left[d] = std::max<int64_t>(1, llvm::divideCeil(shape[d], spt[d]));
  unsigned lanes = threadsPerWarp;
  for (unsigned d : order) {
    while (lanes > 1 && left[d] > 1) {
      tpw[d] *= 2;
      left[d] = llvm::divideCeil(left[d], 2);
      lanes /= 2;
    }
  }
  tpw[order.back()] *= lanes; // leftover lanes replicate the slowest dim
  unsigned warps = numWarps;
  for (unsigned d : order) {
    while (warps > 1 && left[d] > 1) {
      wpc[d] *= 2;
      left[d] = llvm::divideCeil(left[d], 2);
      warps /= 2;
    }
  }
  wpc[order.back()] *= warps;
  return BlockedEncodingAttr::get(ctx, spt, tpw, wpc, order);
}
