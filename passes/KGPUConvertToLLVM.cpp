//===- KGPUConvertToLLVM.cpp - tt/kgpu tensor programs to LLVM (SIMT) -----===//
//
// Every tensor value becomes the elements its layout gives one thread, as an
// LLVM struct in the register order of KGPULayouts.h. Elementwise ops are
// applied per element; loads and stores are grouped into vectors along the
// contiguous dimension; reductions combine in a thread, across lanes with
// shuffles, then across warps through shared memory; scans likewise (within
// the thread, Hillis-Steele steps across lanes, the warps' totals through
// shared memory); layout conversions go through shared memory.
// Target-specific instructions come from TargetInfo.
//
//===----------------------------------------------------------------------===//

#include "passes/AxisInfo.h"
#include "passes/FloatConversions.h"
#include "passes/LLVMStructChains.h"
#include "passes/Passes.h"
#include "passes/TargetInfo.h"
#include "passes/TensorCoreDots.h"

#include "dialects/kgpu/IR/KGPULayouts.h"
#include "dialects/tt/IR/TTOps.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToROCDL/MathToROCDL.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/StringExtras.h"

#include <cstring>
#include <functional>
#include <map>

namespace kiln {
#define GEN_PASS_DEF_KGPUCONVERTTOLLVM
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

namespace {

constexpr StringLiteral kSmemOffsetAttr = "kgpu.smem_offset";
/// Byte offset of a tt.dot's loop-invariant A operand, staged once before
/// its loop (DotLowering::aSourceOf).
constexpr StringLiteral kSmemAOffsetAttr = "kgpu.smem_a_offset";
/// Where a tensor-core tt.dot's lowering reads A (DotLowering::ASource).
constexpr StringLiteral kASourceAttr = "kgpu.a_source";
/// On a tt.dot that wgmma computes (DotLowering::usesWgmma).
constexpr StringLiteral kWgmmaDotAttr = "kgpu.wgmma_dot";
/// On a tt.trans whose only user, an mma.sync dot, stages its source as B
/// (Lowering::bTransSource): the trans itself moves no data.
constexpr StringLiteral kFusedIntoDotAttr = "kgpu.fused_into_dot";
/// On a kgpu.convert_layout (convertLayoutStrides) or a CUDA-core tt.dot
/// (cudaCoreDotStrides) whose shared-memory rows are padded: set where the
/// padding takes no shared memory the kernel would otherwise have left.
constexpr StringLiteral kPaddedRowsAttr = "kgpu.padded_rows";

/// On the builtin.unrealized_conversion_cast that stands for a tensor's
/// per-thread struct during the conversion (pack): its operands are the
/// elements. materializePacks turns the ones still used afterwards into an
/// llvm.insertvalue chain.
constexpr StringLiteral kPackAttr = "kgpu.pack";

/// State shared by all patterns of one run.
struct Lowering {
  TargetInfo *target;
  unsigned numWarps;
  unsigned warpSize;
  const LLVMTypeConverter *converter;
  LLVM::GlobalOp smem;
  /// Elements per global access, decided before conversion from AxisInfo.
  DenseMap<Operation *, unsigned> vectorWidth;
  /// Runs of equal values along the layout's fastest dimension, per
  /// elementwise op result (AxisInfo constancy, computed before conversion).
  DenseMap<Operation *, unsigned> constancy;
  /// Several ops use shared memory. They all start at offset 0 (the
  /// kernel needs the largest of their sizes, not the sum), so each begins
  /// with a barrier: no thread may still be reading the previous op's data.
  bool smemShared = false;
  /// Some kgpu.local_dot or tt.dot multiplies with wgmma (async proxy
  /// reads).
  bool wgmma = false;
  /// The chip has wgmma (NVPTX sm_90a): tt.dot takes it where
  /// DotLowering::usesWgmma holds.
  bool wgmmaDots = false;
  /// mma.sync dots whose B is `tt.trans` of a tensor used nowhere else:
  /// the dot stages that tensor (N rows of K) itself, and the trans moves
  /// no data (DotLowering::transposedBSource).
  DenseMap<Operation *, Value> bTransSource;
  /// ElementwiseLowering::representatives per (tensor type, run length):
  /// the same few types recur across a kernel's elementwise ops.
  DenseMap<std::pair<Type, unsigned>, SmallVector<unsigned>> representatives;
};

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// "NVPTX" or "AMDGPU", for diagnostics.
const char *targetLabel(const TargetInfo &target) {
  return target.getName() == "amdgpu" ? "AMDGPU" : "NVPTX";
}
const char *targetLabel(const Lowering &l) { return targetLabel(*l.target); }

Value i32Const(OpBuilder &b, Location loc, int64_t v) {
  return LLVM::ConstantOp::create(b, loc, b.getI32Type(),
                                  b.getI32IntegerAttr(v));
}

/// The module's function `name`, declared with `type` at the start of the
/// module where it has none yet (libdevice functions, vprintf,
/// __assertfail). An existing function is returned whatever its type.
LLVM::LLVMFuncOp lookupOrDeclareFunction(OpBuilder &b, Location loc,
                                         ModuleOp module, StringRef name,
                                         LLVM::LLVMFunctionType type) {
  if (auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return fn;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  return LLVM::LLVMFuncOp::create(b, loc, name, type);
}

/// i32 index arithmetic on LLVM dialect values with constant operands, for
/// the address computations of the tensor-core lowerings.
struct IndexMath {
  OpBuilder &b;
  Location loc;
  Value c(int64_t v) const { return i32Const(b, loc, v); }
  Value add(Value x, Value y) const { return LLVM::AddOp::create(b, loc, x, y); }
  Value add(Value x, int64_t y) const { return add(x, c(y)); }
  Value mul(Value x, int64_t y) const { return LLVM::MulOp::create(b, loc, x, c(y)); }
  Value udiv(Value x, int64_t y) const {
    return LLVM::UDivOp::create(b, loc, x, c(y));
  }
  Value urem(Value x, int64_t y) const {
    return LLVM::URemOp::create(b, loc, x, c(y));
  }
};

SmallVector<Value> unpack(OpBuilder &b, Location loc, Value v) {
  auto st = dyn_cast<LLVM::LLVMStructType>(v.getType());
  if (!st)
    return {v};
  unsigned n = st.getBody().size();
  // A struct another pattern packed: its elements are the pack's operands.
  if (auto cast = v.getDefiningOp<UnrealizedConversionCastOp>())
    if (cast->hasAttr(kPackAttr) && cast.getInputs().size() == n)
      return SmallVector<Value>(cast.getInputs());
  // A struct built by insertvalues: its elements are read off the chain,
  // not extracted again (an op per element per use that canonicalization
  // would only fold away).
  SmallVector<Value> out = insertChainFields(v, n);
  // Positions the chain does not set hold what its first container holds.
  for (unsigned i = 0; i < n; ++i)
    if (!out[i])
      out[i] = LLVM::ExtractValueOp::create(b, loc, v, ArrayRef<int64_t>{i});
  return out;
}

/// The struct of `values` (a tensor's elements in a thread). During the
/// conversion it is one cast op marked kPackAttr, which unpack reads back;
/// most packs are only ever unpacked, and materializePacks erases those.
/// The others become the undef + insertvalue chain the struct stands for,
/// at the same place. (One op here instead of one per element: packs were
/// a fifth of the conversion's time for matmul_kernel.)
Value pack(OpBuilder &b, Location loc, Type type, ArrayRef<Value> values) {
  auto st = dyn_cast<LLVM::LLVMStructType>(type);
  if (!st) {
    assert(values.size() == 1 && "scalar packs one value");
    return values.front();
  }
  auto cast = UnrealizedConversionCastOp::create(b, loc, TypeRange{type},
                                                 ValueRange(values));
  cast->setAttr(kPackAttr, b.getUnitAttr());
  return cast.getResult(0);
}

/// Replaces each pack (kPackAttr cast) by an undef + insertvalue chain
/// where it is still used, and erases it where not.
void materializePacks(ModuleOp module) {
  SmallVector<UnrealizedConversionCastOp> packs;
  module.walk([&](UnrealizedConversionCastOp cast) {
    if (cast->hasAttr(kPackAttr))
      packs.push_back(cast);
  });
  for (UnrealizedConversionCastOp cast : packs) {
    if (!cast->use_empty()) {
      OpBuilder b(cast);
      Location loc = cast.getLoc();
      Value s = LLVM::UndefOp::create(b, loc, cast.getResult(0).getType());
      for (auto [i, v] : llvm::enumerate(cast.getInputs()))
        s = LLVM::InsertValueOp::create(b, loc, s, v,
                                        ArrayRef<int64_t>{int64_t(i)});
      cast.getResult(0).replaceAllUsesWith(s);
    }
    cast.erase();
  }
}

RankedTensorType tensorOf(Value v) {
  return dyn_cast<RankedTensorType>(v.getType());
}

/// Lane id and warp id of the current thread.
std::pair<Value, Value> laneAndWarp(OpBuilder &b, Location loc,
                                    const Lowering &l) {
  Value tid = l.target->getThreadId(b, loc);
  Value lane = LLVM::AndOp::create(b, loc, tid, i32Const(b, loc, l.warpSize - 1));
  Value warp = LLVM::LShrOp::create(b, loc, tid,
                                    i32Const(b, loc, llvm::Log2_32(l.warpSize)));
  return {lane, warp};
}

Value baseTermValue(OpBuilder &b, Location loc, Value lane, Value warp,
                    const kgpu::BaseTerm &t) {
  Value id = t.isWarp ? warp : lane;
  Value v = LLVM::LShrOp::create(b, loc, id,
                                 i32Const(b, loc, llvm::Log2_32(t.divisor)));
  v = LLVM::AndOp::create(b, loc, v, i32Const(b, loc, t.modulus - 1));
  return LLVM::MulOp::create(b, loc, v, i32Const(b, loc, t.multiplier));
}

/// The thread's base index (i32) along each dimension of `layout`
/// (KGPULayouts.h: element e sits at base + its constant offsets).
SmallVector<Value> threadBaseIndices(OpBuilder &b, Location loc,
                                     const Lowering &l, Attribute layout) {
  auto [lane, warp] = laneAndWarp(b, loc, l);
  SmallVector<Value> base;
  for (auto &dimTerms : kgpu::getThreadBaseTerms(layout)) {
    Value sum = i32Const(b, loc, 0);
    for (const kgpu::BaseTerm &t : dimTerms)
      sum = LLVM::AddOp::create(b, loc, sum, baseTermValue(b, loc, lane, warp, t));
    base.push_back(sum);
  }
  return base;
}

/// Whether some dimension of a `shape` tensor wraps around `layout`'s tile
/// (the tile is larger than the dimension or does not divide it): its
/// indices then need the modulo, and are not the base plus a constant.
bool layoutWraps(Attribute layout, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> tile = kgpu::getTileShape(layout);
  for (unsigned d = 0; d < shape.size(); ++d)
    if (tile[d] > shape[d] || shape[d] % tile[d] != 0)
      return true;
  return false;
}

/// Logical indices (i32) of every element the thread holds, per dimension.
SmallVector<SmallVector<Value>> emitIndices(OpBuilder &b, Location loc,
                                            const Lowering &l,
                                            Attribute layout,
                                            ArrayRef<int64_t> shape) {
  SmallVector<Value> base = threadBaseIndices(b, loc, l, layout);
  SmallVector<int64_t> tile = kgpu::getTileShape(layout);
  SmallVector<SmallVector<Value>> result;
  for (const auto &off : kgpu::getElemOffsets(layout, shape)) {
    SmallVector<Value> idx;
    for (unsigned d = 0; d < shape.size(); ++d) {
      Value v = LLVM::AddOp::create(b, loc, base[d], i32Const(b, loc, off[d]));
      if (tile[d] > shape[d] || shape[d] % tile[d] != 0)
        v = LLVM::URemOp::create(b, loc, v, i32Const(b, loc, shape[d]));
      idx.push_back(v);
    }
    result.push_back(std::move(idx));
  }
  return result;
}

/// Element strides of a row-major tensor of `shape`.
SmallVector<int64_t> rowMajorStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int d = int(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

/// Strides, in elements, of the shared-memory buffer a kgpu.convert_layout
/// moves its tensor through (`bytes` per element): row-major, except that
/// with `padded` (the op's kPaddedRowsAttr), from an mma accumulator
/// layout (mma.sync and wgmma alike: lanes 4i to 4i+3 hold 8 consecutive
/// elements of row i of an 8-row group, as pairs; PTX ISA 9.7.14.5.8,
/// 9.7.15.5.1) rows a multiple of 128 bytes long get 8 elements of
/// padding. Unpadded, the 8 rows a warp stores at once start in
/// the same bank, an 8-way conflict on each pair store (triton_mm.26SCPAPX's
/// epilogue: 32 stores of 8 bytes per thread); padded, row i starts 8 * i
/// elements further along the banks, and the warp's 8 rows cover all 32
/// banks (2-byte elements: 16 bytes per row, 4-byte: 32). Rows stay
/// multiples of 16 bytes, so the destination's vector loads stay aligned.
SmallVector<int64_t> convertLayoutStrides(RankedTensorType src,
                                          unsigned bytes, bool padded) {
  SmallVector<int64_t> strides = rowMajorStrides(src.getShape());
  if (padded && kgpu::isMmaV2(src.getEncoding()) && src.getRank() == 2 &&
      (bytes == 2 || bytes == 4) && (src.getShape()[1] * bytes) % 128 == 0)
    strides[0] = src.getShape()[1] + 8;
  return strides;
}

/// Bits of the byte offsets (index times `bytes`) a thread's base index along
/// `dim` of `layout` can set (getThreadBaseTerms), or nullopt where a term's
/// values are not a power-of-two range at a power-of-two multiplier, or two
/// terms share bits (their sum could carry).
std::optional<uint64_t> threadBaseByteBits(Attribute layout, unsigned dim,
                                           unsigned bytes) {
  uint64_t mask = 0;
  for (const kgpu::BaseTerm &t : kgpu::getThreadBaseTerms(layout)[dim]) {
    if (t.modulus <= 1)
      continue;
    uint64_t step = uint64_t(t.multiplier) * bytes;
    if (!llvm::isPowerOf2_64(t.modulus) || !llvm::isPowerOf2_64(step))
      return std::nullopt;
    uint64_t bits = (uint64_t(t.modulus) - 1) * step;
    if (mask & bits)
      return std::nullopt;
    mask |= bits;
  }
  return mask;
}

/// Row bytes of a kgpu.convert_layout whose buffer rows are split into two
/// planes of 16-byte chunks, or 0 where the conversion keeps plain padded
/// rows (convertLayoutStrides). Chunk k of a row (bytes 16k to 16k + 15)
/// sits in plane k % 2 at position k / 2; each plane is followed by 16
/// bytes of padding, so a row takes the padded row's rowBytes + 32 bytes.
///
/// For an f32 mma accumulator read back by a blocked layout whose threads
/// hold 8 consecutive f32 of a row (32 bytes, two 16-byte loads), with 8 or
/// more lanes along the row: in a plain row, the 8 lanes of a load's phase
/// read chunks 0, 2, ..., 14, and chunks 8 apart share banks (a 2-way
/// conflict on every load: triton_mm.26SCPAPX's epilogue, 32768 conflicts
/// in 65536 wavefronts, ncu on the H200). In planes the same 8 lanes read 8
/// consecutive chunks. The accumulator's pair stores (lanes 4i to 4i + 3:
/// 32 bytes of row i, chunks 2j and 2j + 1) stay conflict-free: row i
/// starts 32 * i bytes along the banks (padding) and its two chunks land 16
/// bytes apart (the plane padding).
///
/// The chunk of a thread's element is its base's chunk plus a constant's
/// only where the two share no bits; then each address is still one
/// per-thread pointer plus a constant (chunkPlaneOffset is additive over
/// disjoint bits). Both layouts are checked for that.
int64_t chunkPlaneRowBytes(RankedTensorType src, RankedTensorType dst,
                           unsigned bytes, bool padded, int64_t smemOffset) {
  if (!padded || bytes != 4 || src.getRank() != 2 ||
      !kgpu::isMmaV2(src.getEncoding()) || smemOffset % 16 != 0)
    return 0;
  int64_t rowBytes = src.getDimSize(1) * bytes;
  auto blocked = dyn_cast<kgpu::BlockedEncodingAttr>(dst.getEncoding());
  if (rowBytes % 128 != 0 || !blocked || blocked.getOrder()[0] != 1 ||
      blocked.getSizePerThread()[1] * bytes != 32 ||
      blocked.getThreadsPerWarp()[1] < 8)
    return 0;
  for (Attribute layout : {src.getEncoding(), dst.getEncoding()}) {
    if (layoutWraps(layout, src.getShape()))
      return 0;
    std::optional<uint64_t> thread = threadBaseByteBits(layout, 1, bytes);
    if (!thread)
      return 0;
    uint64_t constant = 0;
    for (const auto &off : kgpu::getElemOffsets(layout, src.getShape()))
      constant |= uint64_t(off[1]) * bytes;
    if (*thread & constant)
      return 0;
  }
  return rowBytes;
}

/// Byte offset within a row of chunk planes (chunkPlaneRowBytes) of the
/// logical row byte `x`: chunk x / 16 in plane (x / 16) % 2 at position
/// x / 32, planes rowBytes / 2 + 16 bytes apart.
int64_t chunkPlaneOffset(int64_t x, int64_t rowBytes) {
  return ((x >> 4) & 1) * (rowBytes / 2 + 16) + ((x >> 5) << 4) + (x & 15);
}

/// Whether the accumulator layout `acc` of `op` (a tt.dot or kgpu.local_dot,
/// `what` in the error) tiles its N-column result the way the tensor-core
/// lowerings read B: an mma layout whose warps hold 16 x W tiles with W > 8
/// needs N a multiple of W x the warps along N (emitMmaV2 reads a warp
/// tile's B fragments at constant column offsets from its first column,
/// which do not wrap around a narrower N). Other layouts fit. Emits the
/// error on `op` where it does not.
LogicalResult verifyMmaWarpTiles(Operation *op, StringRef what, Attribute acc,
                                 int64_t n) {
  auto mma = dyn_cast_if_present<kgpu::MmaEncodingAttr>(acc);
  if (!kgpu::isMmaV2(mma) || mma.getInstrShape()[1] == 8 ||
      n % (int64_t(mma.getInstrShape()[1]) * mma.getWarpsPerCTA()[1]) == 0)
    return success();
  return op->emitError() << what << "'s accumulator layout " << acc
                         << " has warp tiles wider than its N (" << n
                         << ") divides: N must be a multiple of instrShape[1] "
                            "x the warps along N";
}

/// Row strides, in elements, of A (M x K) and B (K x N) as the CUDA-core
/// tt.dot stages them in shared memory (`bytes` per element): row-major,
/// with `padded` 16 bytes more per row. In its K loop the lanes of a warp
/// read A at the same k in different rows; rows a multiple of 128 bytes
/// long put those in one bank (dot_f32_ieee_64x64x32: 2-way on every A
/// read). B is stored from its load's layout, which for a transposed B
/// runs lanes down k: 8-way on those stores with rows of 256 bytes
/// (dot_f32_ieee_bt_32x64x32), 4-way padded. 16 bytes keep the rows
/// aligned for the vector stores and loads of whole runs.
std::pair<int64_t, int64_t> cudaCoreDotStrides(RankedTensorType aT,
                                               RankedTensorType bT,
                                               unsigned bytes, bool padded) {
  int64_t pad = padded ? 16 / bytes : 0;
  return {aT.getDimSize(1) + pad, bT.getDimSize(1) + pad};
}

Value smemAddress(OpBuilder &b, Location loc, const Lowering &l,
                  int64_t byteOffset, Type elem, Value index);

SmallVector<Value> ownerPredicates(OpBuilder &b, Location loc,
                                   const Lowering &l, Attribute layout,
                                   ArrayRef<int64_t> shape);
bool layoutReplicates(Attribute layout, ArrayRef<int64_t> shape);

/// `ptr` advanced by the constant `elems` elements of type `elem`.
Value offsetPointer(OpBuilder &b, Location loc, Value ptr, Type elem,
                    int64_t elems) {
  if (elems == 0)
    return ptr;
  return LLVM::GEPOp::create(b, loc, ptr.getType(), elem, ptr,
                             ArrayRef<LLVM::GEPArg>{int32_t(elems)});
}

/// Shared-memory addresses of every element the thread holds of a `layout`
/// tensor of `shape` stored at byte `byteOffset`, element (i0, i1, ...) at
/// element `sum(ik * strides[k])`.
/// Where no dimension wraps around (the layout's tile divides the shape),
/// an element's index is the thread's base plus a constant, so every
/// address is one per-thread pointer plus a constant (`[%r + imm]` in PTX)
/// instead of an index computed per element, which LLVM's straight-line
/// strength reduction would otherwise have to rediscover, at a cost
/// quadratic in the number of such addresses.
///
/// With `planeRowBytes` (chunkPlaneRowBytes, which checked that `layout`
/// does not wrap and that a thread's column bytes and its constants share no
/// bits), a rank-2 tensor's rows of `strides[0]` elements hold their columns
/// in chunk planes (chunkPlaneOffset).
SmallVector<Value> elementAddresses(OpBuilder &b, Location loc,
                                    const Lowering &l, Attribute layout,
                                    ArrayRef<int64_t> shape,
                                    ArrayRef<int64_t> strides,
                                    int64_t byteOffset, Type mem,
                                    int64_t planeRowBytes = 0) {
  SmallVector<Value> addresses;
  if (planeRowBytes) {
    assert(shape.size() == 2 && strides[1] == 1 &&
           !layoutWraps(layout, shape) && "chunk planes: checked layouts only");
    int64_t bytes = mem.getIntOrFloatBitWidth() / 8;
    int64_t rowStride = strides[0] * bytes;
    SmallVector<Value> base = threadBaseIndices(b, loc, l, layout);
    // The thread's column bytes x, placed as chunkPlaneOffset places them.
    Value x = LLVM::MulOp::create(b, loc, base[1], i32Const(b, loc, bytes));
    Value plane = LLVM::AndOp::create(
        b, loc, LLVM::LShrOp::create(b, loc, x, i32Const(b, loc, 4)),
        i32Const(b, loc, 1));
    Value col = LLVM::AddOp::create(
        b, loc,
        LLVM::MulOp::create(b, loc, plane,
                            i32Const(b, loc, planeRowBytes / 2 + 16)),
        LLVM::AddOp::create(
            b, loc,
            LLVM::ShlOp::create(
                b, loc, LLVM::LShrOp::create(b, loc, x, i32Const(b, loc, 5)),
                i32Const(b, loc, 4)),
            LLVM::AndOp::create(b, loc, x, i32Const(b, loc, 15))));
    Value lin = LLVM::AddOp::create(
        b, loc,
        LLVM::MulOp::create(b, loc, base[0], i32Const(b, loc, rowStride)),
        col);
    Type i8 = b.getI8Type();
    Value ptr = smemAddress(b, loc, l, byteOffset, i8, lin);
    for (const auto &off : kgpu::getElemOffsets(layout, shape)) {
      int64_t c = off[0] * rowStride +
                  chunkPlaneOffset(off[1] * bytes, planeRowBytes);
      addresses.push_back(offsetPointer(b, loc, ptr, i8, c));
    }
    return addresses;
  }
  if (layoutWraps(layout, shape)) {
    for (auto &idx : emitIndices(b, loc, l, layout, shape)) {
      Value lin = i32Const(b, loc, 0);
      for (unsigned d = 0; d < shape.size(); ++d)
        lin = LLVM::AddOp::create(
            b, loc, lin,
            LLVM::MulOp::create(b, loc, idx[d], i32Const(b, loc, strides[d])));
      addresses.push_back(smemAddress(b, loc, l, byteOffset, mem, lin));
    }
    return addresses;
  }
  // The thread's base index (emitIndices), each term times its
  // dimension's stride.
  auto [lane, warp] = laneAndWarp(b, loc, l);
  Value lin = i32Const(b, loc, 0);
  for (auto [d, dimTerms] : llvm::enumerate(kgpu::getThreadBaseTerms(layout)))
    for (const kgpu::BaseTerm &t : dimTerms)
      lin = LLVM::AddOp::create(
          b, loc, lin,
          LLVM::MulOp::create(b, loc, baseTermValue(b, loc, lane, warp, t),
                              i32Const(b, loc, strides[d])));
  Value base = smemAddress(b, loc, l, byteOffset, mem, lin);
  for (const auto &off : kgpu::getElemOffsets(layout, shape)) {
    int64_t c = 0;
    for (unsigned d = 0; d < shape.size(); ++d)
      c += off[d] * strides[d];
    addresses.push_back(offsetPointer(b, loc, base, mem, c));
  }
  return addresses;
}

Value linearIndex(OpBuilder &b, Location loc, ArrayRef<Value> idx,
                  ArrayRef<int64_t> shape) {
  Value lin = i32Const(b, loc, 0);
  int64_t stride = 1;
  for (int d = int(shape.size()) - 1; d >= 0; --d) {
    Value term = LLVM::MulOp::create(b, loc, idx[d], i32Const(b, loc, stride));
    lin = LLVM::AddOp::create(b, loc, lin, term);
    stride *= shape[d];
  }
  return lin;
}

/// Element type as stored in memory (i1 occupies a byte).
Type memoryType(Type t) {
  if (t.isInteger(1))
    return IntegerType::get(t.getContext(), 8);
  return t;
}

unsigned bitWidth(Type t) {
  if (isa<LLVM::LLVMPointerType>(t))
    return 64;
  return t.getIntOrFloatBitWidth();
}

Value toMemory(OpBuilder &b, Location loc, Value v) {
  if (v.getType().isInteger(1))
    return LLVM::ZExtOp::create(b, loc, b.getI8Type(), v);
  return v;
}

Value fromMemory(OpBuilder &b, Location loc, Value v, Type elem) {
  if (elem.isInteger(1))
    return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, v,
                                LLVM::ConstantOp::create(b, loc, v.getType(),
                                                         b.getIntegerAttr(v.getType(), 0)));
  return v;
}

/// The end (bytes from offset 0 of its region) of the slots a
/// kgpu.local_dot (B's, which follow A's) or kgpu.local_load reads; 0 for
/// any other op.
int64_t slotsEnd(Operation *op) {
  if (auto dot = dyn_cast<kgpu::LocalDotOp>(op))
    return dot.getBOffset() + dot.getNumSlots() * dot.getBSlotBytes();
  if (auto load = dyn_cast<kgpu::LocalLoadOp>(op))
    return load.getOffset() + load.getNumSlots() * load.getSlotBytes();
  return 0;
}

/// Loads the elements at `addrs` (one per element the thread holds, of
/// memory type `mem`, as elementAddresses gives them), each run of `vec`
/// consecutive ones that chooseVec put at `starts` as one vector load, and
/// converts them to `elem`.
SmallVector<Value> loadElements(OpBuilder &b, Location loc,
                                ArrayRef<Value> addrs, Type mem, Type elem,
                                unsigned vec, ArrayRef<unsigned> starts) {
  unsigned bytes = bitWidth(mem) / 8;
  SmallVector<Value> out(addrs.size());
  if (vec == 1) {
    for (auto [e, p] : llvm::enumerate(addrs))
      out[e] = fromMemory(b, loc, LLVM::LoadOp::create(b, loc, mem, p), elem);
    return out;
  }
  Type vecTy = VectorType::get({int64_t(vec)}, mem);
  for (unsigned e : starts) {
    Value v = LLVM::LoadOp::create(b, loc, vecTy, addrs[e],
                                   /*alignment=*/vec * bytes);
    for (unsigned k = 0; k < vec; ++k)
      out[e + k] = fromMemory(
          b, loc,
          LLVM::ExtractElementOp::create(b, loc, v, i32Const(b, loc, k)),
          elem);
  }
  return out;
}

Value smemAddress(OpBuilder &b, Location loc, const Lowering &l,
                  int64_t byteOffset, Type elem, Value index) {
  auto ptrTy = LLVM::LLVMPointerType::get(b.getContext(),
                                          l.target->getSharedAddressSpace());
  Value base = LLVM::AddressOfOp::create(b, loc, l.smem);
  Value p = LLVM::GEPOp::create(b, loc, ptrTy, b.getI8Type(), base,
                                ArrayRef<LLVM::GEPArg>{int32_t(byteOffset)});
  return LLVM::GEPOp::create(b, loc, ptrTy, elem, p, ValueRange{index});
}

/// Bits to 32-bit words for shuffles, and back.
SmallVector<Value> toShuffleWords(OpBuilder &b, Location loc, Value v) {
  Type t = v.getType();
  Type i32 = b.getI32Type();
  unsigned bits = bitWidth(t);
  if (isa<LLVM::LLVMPointerType>(t))
    v = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), v);
  else if (!t.isInteger())
    v = LLVM::BitcastOp::create(b, loc, b.getIntegerType(bits), v);
  if (bits < 32)
    return {LLVM::ZExtOp::create(b, loc, i32, v)};
  if (bits == 32)
    return {v};
  Value lo = LLVM::TruncOp::create(b, loc, i32, v);
  Value hi = LLVM::TruncOp::create(
      b, loc, i32,
      LLVM::LShrOp::create(b, loc, v,
                           LLVM::ConstantOp::create(b, loc, v.getType(),
                                                    b.getIntegerAttr(v.getType(), 32))));
  return {lo, hi};
}

Value fromShuffleWords(OpBuilder &b, Location loc, ArrayRef<Value> words,
                       Type t) {
  unsigned bits = bitWidth(t);
  Type it = b.getIntegerType(bits);
  Value v;
  if (bits < 32) {
    v = LLVM::TruncOp::create(b, loc, it, words[0]);
  } else if (bits == 32) {
    v = words[0];
  } else {
    Value lo = LLVM::ZExtOp::create(b, loc, it, words[0]);
    Value hi = LLVM::ZExtOp::create(b, loc, it, words[1]);
    hi = LLVM::ShlOp::create(b, loc, hi,
                             LLVM::ConstantOp::create(b, loc, it, b.getIntegerAttr(it, 32)));
    v = LLVM::OrOp::create(b, loc, lo, hi);
  }
  if (isa<LLVM::LLVMPointerType>(t))
    return LLVM::IntToPtrOp::create(b, loc, t, v);
  if (!t.isInteger())
    return LLVM::BitcastOp::create(b, loc, t, v);
  return v;
}

/// `v` (any width) as another lane holds it: each of its 32-bit words
/// (toShuffleWords) moved by `shuffleWord`.
Value shuffleValue(OpBuilder &b, Location loc, Value v,
                   function_ref<Value(Value)> shuffleWord) {
  SmallVector<Value> words;
  for (Value w : toShuffleWords(b, loc, v))
    words.push_back(shuffleWord(w));
  return fromShuffleWords(b, loc, words, v.getType());
}

/// True if `op` may run several times per kernel invocation (inside a
/// loop), so its shared memory may still be read from the previous round.
bool inLoop(Operation *op) {
  for (Operation *p = op->getParentOp(); p && !isa<tt::FuncOp>(p);
       p = p->getParentOp())
    if (isa<scf::ForOp, scf::WhileOp, LoopLikeOpInterface>(p))
      return true;
  // Unstructured loops (cf) are not expected before this pass; be safe.
  return op->getParentRegion() &&
         !op->getParentRegion()->hasOneBlock();
}

/// True if `op` may run more than once per kernel invocation: in a loop, or
/// in a function other than the kernel (a callee, which may be called
/// several times: helper-94 found a scan in a noinline function called
/// twice whose second call overwrote the warps' totals while another warp
/// still read the first call's). Its shared memory may then still be read
/// from the previous run.
bool mayRunAgain(Operation *op) {
  if (inLoop(op))
    return true;
  for (Operation *p = op->getParentOp(); p; p = p->getParentOp()) {
    if (auto fn = dyn_cast<tt::FuncOp>(p))
      return !fn.isPublic();
    if (auto fn = dyn_cast<LLVM::LLVMFuncOp>(p))
      return fn.getLinkage() == LLVM::Linkage::Internal;
  }
  return false;
}

/// Applies a tt.reduce / tt.scan combiner region to (acc, next).
SmallVector<Value> combine(ConversionPatternRewriter &rewriter, Region &region,
                           ArrayRef<Value> acc, ArrayRef<Value> next) {
  Block &block = region.front();
  IRMapping mapping;
  unsigned n = acc.size();
  for (unsigned i = 0; i < n; ++i) {
    mapping.map(block.getArgument(i), acc[i]);
    mapping.map(block.getArgument(n + i), next[i]);
  }
  for (Operation &op : block.without_terminator())
    rewriter.clone(op, mapping);
  SmallVector<Value> out;
  for (Value v : block.getTerminator()->getOperands())
    out.push_back(mapping.lookupOrDefault(v));
  return out;
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

template <typename OpTy>
struct KPattern : OpConversionPattern<OpTy> {
  KPattern(const TypeConverter &tc, MLIRContext *ctx, Lowering &l,
           PatternBenefit benefit = 1)
      : OpConversionPattern<OpTy>(tc, ctx, benefit), l(l) {}
  Lowering &l;
};

struct FuncLowering : KPattern<tt::FuncOp> {
  using KPattern::KPattern;
  LogicalResult
  matchAndRewrite(tt::FuncOp fn, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FunctionType type = fn.getFunctionType();
    TypeConverter::SignatureConversion sig(type.getNumInputs());
    SmallVector<Attribute> argTypes, argNames;
    for (auto [i, t] : llvm::enumerate(type.getInputs())) {
      Type converted = getTypeConverter()->convertType(t);
      if (!converted)
        return fn.emitError() << "cannot lower argument #" << i << " of type "
                              << t;
      sig.addInputs(i, converted);
      std::string s;
      llvm::raw_string_ostream os(s);
      if (auto p = dyn_cast<tt::PointerType>(t))
        os << "ptr<" << p.getPointeeType() << ">";
      else
        os << t;
      argTypes.push_back(rewriter.getStringAttr(s));
      std::string name = "arg" + std::to_string(i);
      if (auto loc = dyn_cast<NameLoc>(fn.getArgument(i).getLoc()))
        name = loc.getName().str();
      argNames.push_back(rewriter.getStringAttr(name));
    }
    SmallVector<Type> results;
    if (failed(getTypeConverter()->convertTypes(type.getResults(), results)))
      return fn.emitError() << "cannot lower the result types of '"
                            << fn.getName() << "'";
    // Several results (a noinline function returning a tuple) come back
    // as one literal struct of them (ReturnLowering, CallLowering).
    Type resultType =
        results.empty() ? LLVM::LLVMVoidType::get(rewriter.getContext())
        : results.size() == 1
            ? results.front()
            : LLVM::LLVMStructType::getLiteral(rewriter.getContext(), results);
    auto llvmType = LLVM::LLVMFunctionType::get(resultType,
                                                sig.getConvertedTypes());
    auto newFn = LLVM::LLVMFuncOp::create(rewriter, fn.getLoc(), fn.getName(),
                                          llvmType);
    rewriter.inlineRegionBefore(fn.getBody(), newFn.getBody(), newFn.end());
    if (failed(rewriter.convertRegionTypes(&newFn.getBody(),
                                           *getTypeConverter(), &sig)))
      return failure();
    if (fn.isPublic()) {
      l.target->markKernel(newFn, l.numWarps * l.warpSize);
      // A launch passes a defined value for every kernel parameter (CUDA
      // driver API cuLaunchKernel's kernelParams; hipModuleLaunchKernel's
      // likewise). Saying so (`noundef`) ends LLVM's poison reasoning at the
      // parameters: ScalarEvolution::canReuseInstruction, under straight-line
      // strength reduction in NVPTX codegen, walked each address chain past
      // them (matmul_kernel: 86.1 -> 77.9 M instructions in that pass,
      // callgrind, build machine).
      for (unsigned i = 0, e = newFn.getNumArguments(); i < e; ++i)
        newFn.setArgAttr(i, LLVM::LLVMDialect::getNoUndefAttrName(),
                         rewriter.getUnitAttr());
      newFn->setAttr("kiln.arg_types", rewriter.getArrayAttr(argTypes));
      newFn->setAttr("kiln.arg_names", rewriter.getArrayAttr(argNames));
    } else {
      newFn.setLinkage(LLVM::Linkage::Internal);
      // @triton.jit(noinline=True): kept a function of its own (a .func
      // the kernel calls), as Triton 3.6's PTX has it; LLVM had inlined it.
      if (auto noinline = fn->getAttrOfType<BoolAttr>("noinline");
          noinline && noinline.getValue())
        newFn.setNoInline(true);
    }
    rewriter.eraseOp(fn);
    return success();
  }
};

struct ReturnLowering : KPattern<tt::ReturnOp> {
  using KPattern::KPattern;
  LogicalResult
  matchAndRewrite(tt::ReturnOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ValueRange values = adaptor.getOperands();
    if (values.size() <= 1) {
      rewriter.replaceOpWithNewOp<LLVM::ReturnOp>(op, values);
      return success();
    }
    // Several results: one literal struct of them (FuncLowering).
    Location loc = op.getLoc();
    SmallVector<Type> types(values.getTypes());
    Value all = LLVM::UndefOp::create(
        rewriter, loc,
        LLVM::LLVMStructType::getLiteral(rewriter.getContext(), types));
    for (auto [i, v] : llvm::enumerate(values))
      all = LLVM::InsertValueOp::create(rewriter, loc, all, v,
                                        ArrayRef<int64_t>{int64_t(i)});
    rewriter.replaceOpWithNewOp<LLVM::ReturnOp>(op, all);
    return success();
  }
};

struct CallLowering : KPattern<tt::CallOp> {
  using KPattern::KPattern;
  LogicalResult
  matchAndRewrite(tt::CallOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> results;
    if (failed(getTypeConverter()->convertTypes(op.getResultTypes(), results)))
      return failure();
    if (results.size() <= 1) {
      rewriter.replaceOpWithNewOp<LLVM::CallOp>(op, results, op.getCallee(),
                                                adaptor.getOperands());
      return success();
    }
    // Several results arrive as one literal struct (FuncLowering).
    Location loc = op.getLoc();
    auto call = LLVM::CallOp::create(rewriter, loc,
                                     TypeRange{LLVM::LLVMStructType::getLiteral(
                                         rewriter.getContext(), results)},
                                     op.getCallee(), adaptor.getOperands());
    SmallVector<Value> values;
    for (unsigned i = 0; i < results.size(); ++i)
      values.push_back(LLVM::ExtractValueOp::create(
          rewriter, loc, call.getResult(), ArrayRef<int64_t>{int64_t(i)}));
    rewriter.replaceOp(op, values);
    return success();
  }
};

struct ProgramIdLowering : KPattern<tt::GetProgramIdOp> {
  using KPattern::KPattern;
  LogicalResult
  matchAndRewrite(tt::GetProgramIdOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, l.target->getProgramId(rewriter, op.getLoc(),
                                                  unsigned(op.getAxis())));
    return success();
  }
};

struct NumProgramsLowering : KPattern<tt::GetNumProgramsOp> {
  using KPattern::KPattern;
  LogicalResult
  matchAndRewrite(tt::GetNumProgramsOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, l.target->getNumPrograms(rewriter, op.getLoc(),
                                                    unsigned(op.getAxis())));
    return success();
  }
};

struct MakeRangeLowering : KPattern<tt::MakeRangeOp> {
  using KPattern::KPattern;
  LogicalResult
  matchAndRewrite(tt::MakeRangeOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = op.getType();
    auto indices =
        emitIndices(rewriter, loc, l, type.getEncoding(), type.getShape());
    SmallVector<Value> values;
    for (auto &idx : indices)
      values.push_back(LLVM::AddOp::create(rewriter, loc, idx[0],
                                           i32Const(rewriter, loc, op.getStart())));
    rewriter.replaceOp(op, pack(rewriter, loc,
                                getTypeConverter()->convertType(type), values));
    return success();
  }
};

struct SplatLowering : KPattern<tt::SplatOp> {
  using KPattern::KPattern;
  LogicalResult
  matchAndRewrite(tt::SplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = op.getType();
    unsigned n = kgpu::getNumElemsPerThread(type.getEncoding(), type.getShape());
    SmallVector<Value> values(n, adaptor.getSrc());
    rewriter.replaceOp(op, pack(rewriter, op.getLoc(),
                                getTypeConverter()->convertType(type), values));
    return success();
  }
};

struct ConstantLowering : KPattern<arith::ConstantOp> {
  using KPattern::KPattern;
  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!type)
      return failure();
    // Others are refused by name before the conversion (runOnOperation).
    auto dense = dyn_cast<SplatElementsAttr>(op.getValue());
    if (!dense)
      return failure();
    Type elem = getTypeConverter()->convertType(type.getElementType());
    Value scalar = LLVM::ConstantOp::create(rewriter, op.getLoc(), elem,
                                            dense.getSplatValue<Attribute>());
    unsigned n = kgpu::getNumElemsPerThread(type.getEncoding(), type.getShape());
    SmallVector<Value> values(n, scalar);
    rewriter.replaceOp(op, pack(rewriter, op.getLoc(),
                                getTypeConverter()->convertType(type), values));
    return success();
  }
};

/// Scalar f32 arith.divf, lowered like tensor ones (see fastDivF32).
struct ScalarDivFLowering : KPattern<arith::DivFOp> {
  using KPattern::KPattern;
  LogicalResult
  matchAndRewrite(arith::DivFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getType().isF32())
      return failure();
    rewriter.replaceOp(op, l.target->fastDivF32(rewriter, op.getLoc(),
                                                adaptor.getLhs(),
                                                adaptor.getRhs()));
    return success();
  }
};

/// Scalar f32 math the target lowers without a library call (mathF32);
/// added ahead of the libdevice patterns (benefit 10).
template <typename OpTy>
struct ScalarMathF32Lowering : KPattern<OpTy> {
  using KPattern<OpTy>::KPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getType().isF32())
      return failure();
    Value v = this->l.target->mathF32(rewriter, op.getLoc(), op,
                                      adaptor.getOperands());
    if (!v)
      return failure();
    rewriter.replaceOp(op, v);
    return success();
  }
};

/// math.fma and math.absf as the LLVM intrinsics (fma.rn / abs in PTX), as
/// Triton 3.6 lowers them, not through libdevice: __nv_fmaf and __nv_fabsf
/// become fma.rn.ftz.f32 and abs.ftz.f32 under nvvm-reflect-ftz (--ftz),
/// which is meant for libdevice's own math only, and an f16 fma would be
/// rounded twice through f32.
template <typename OpTy, typename LLVMOpTy>
struct ScalarIntrinsicLowering : KPattern<OpTy> {
  using KPattern<OpTy>::KPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!(type.isF16() || type.isBF16() || type.isF32() || type.isF64()))
      return failure();
    rewriter.replaceOpWithNewOp<LLVMOpTy>(op, type, adaptor.getOperands());
    return success();
  }
};

struct PoisonLowering : KPattern<ub::PoisonOp> {
  using KPattern::KPattern;
  LogicalResult
  matchAndRewrite(ub::PoisonOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<RankedTensorType>(op.getType()))
      return failure();
    rewriter.replaceOpWithNewOp<LLVM::PoisonOp>(
        op, getTypeConverter()->convertType(op.getType()));
    return success();
  }
};

/// Maps each element of `dst` (layout/shape) to the element of `src` the
/// same thread holds at the same logical index, for broadcast and
/// expand_dims. `dimMap[d]` is the src dimension of dst dimension d, or -1.
FailureOr<SmallVector<unsigned>>
remapElements(RankedTensorType src, RankedTensorType dst,
              ArrayRef<int> dimMap) {
  auto srcOffsets = kgpu::getElemOffsets(src.getEncoding(), src.getShape());
  auto dstOffsets = kgpu::getElemOffsets(dst.getEncoding(), dst.getShape());
  SmallVector<unsigned> map;
  for (const auto &doff : dstOffsets) {
    bool found = false;
    for (auto [i, soff] : llvm::enumerate(srcOffsets)) {
      bool match = true;
      for (unsigned d = 0; d < doff.size() && match; ++d) {
        int sd = dimMap[d];
        if (sd < 0)
          continue;
        int64_t size = src.getShape()[sd];
        if (size == 1)
          continue;
        match = (soff[sd] % size) == (doff[d] % dst.getShape()[d]);
      }
      if (match) {
        map.push_back(i);
        found = true;
        break;
      }
    }
    if (!found)
      return failure();
  }
  return map;
}

struct BroadcastLowering : KPattern<tt::BroadcastOp> {
  using KPattern::KPattern;
  LogicalResult
  matchAndRewrite(tt::BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto src = op.getSrc().getType(), dst = op.getType();
    if (src.getEncoding() != dst.getEncoding())
      return op.emitError() << "broadcast between different layouts";
    SmallVector<int> dimMap;
    for (unsigned d = 0; d < dst.getRank(); ++d)
      dimMap.push_back(d);
    auto map = remapElements(src, dst, dimMap);
    if (failed(map))
      return op.emitError() << "cannot broadcast " << src << " to " << dst
                            << " within threads";
    SmallVector<Value> in = unpack(rewriter, op.getLoc(), adaptor.getSrc()), out;
    for (unsigned i : *map)
      out.push_back(in[i]);
    rewriter.replaceOp(op, pack(rewriter, op.getLoc(),
                                getTypeConverter()->convertType(dst), out));
    return success();
  }
};

struct ExpandDimsLowering : KPattern<tt::ExpandDimsOp> {
  using KPattern::KPattern;
  LogicalResult
  matchAndRewrite(tt::ExpandDimsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto src = op.getSrc().getType(), dst = op.getType();
    auto slice = dyn_cast<kgpu::SliceEncodingAttr>(src.getEncoding());
    if (!slice || slice.getParent() != dst.getEncoding() ||
        slice.getDim() != op.getAxis())
      return op.emitError() << "expand_dims operand layout must be the slice "
                               "of the result layout along the axis";
    SmallVector<int> dimMap;
    for (unsigned d = 0, s = 0; d < dst.getRank(); ++d)
      dimMap.push_back(d == op.getAxis() ? -1 : int(s++));
    auto map = remapElements(src, dst, dimMap);
    if (failed(map))
      return op.emitError() << "cannot expand " << src << " to " << dst;
    SmallVector<Value> in = unpack(rewriter, op.getLoc(), adaptor.getSrc()), out;
    for (unsigned i : *map)
      out.push_back(in[i]);
    rewriter.replaceOp(op, pack(rewriter, op.getLoc(),
                                getTypeConverter()->convertType(dst), out));
    return success();
  }
};

Value libdeviceAsIntrinsic(OpBuilder &b, Location loc, StringRef symbol,
                           ArrayRef<Value> args, Type resTy);
std::string libdeviceAsOcml(StringRef symbol, Type resTy);

/// Whether every value of `t` is an f16 value (so the upcast is exact).
bool isF8UpcastableToF16(Type t) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(t);
}

/// f8 values (`f8Type` f8E4M3FN or f8E5M2, bits as i8) to f16, exactly:
/// two per instruction where the target has one
/// (TargetInfo::convertF8x2ToF16x2), otherwise with integer operations
/// (upcastF8ToF16Bits, FloatConversions.h).
SmallVector<Value> upcastF8ToF16(OpBuilder &b, Location loc,
                                 TargetInfo &target, ArrayRef<Value> bits,
                                 Type f8Type) {
  SmallVector<Value> out;
  for (size_t i = 0; i + 1 < bits.size(); i += 2) {
    SmallVector<Value, 2> pair =
        target.convertF8x2ToF16x2(b, loc, bits[i], bits[i + 1], f8Type);
    if (pair.empty())
      break;
    out.append(pair.begin(), pair.end());
  }
  for (size_t i = out.size(); i < bits.size(); ++i)
    out.push_back(upcastF8ToF16Bits(b, loc, bits[i], f8Type));
  return out;
}

/// f16, bf16 or f32 values converted to `f8Type` (f8E4M3FN or f8E5M2),
/// rounding to nearest even and saturating to the largest finite value, two
/// per instruction (TargetInfo::convertF32x2ToF8x2): the i8 bit patterns.
/// f16 and bf16 values are extended to f32 first (exactly, so rounded
/// once). Fails where the target has no such instruction (the f32
/// extensions are then already created; the caller reports the op and the
/// conversion fails).
FailureOr<SmallVector<Value>> downcastToF8(OpBuilder &b, Location loc,
                                           TargetInfo &target,
                                           ArrayRef<Value> values,
                                           Type f8Type) {
  SmallVector<Value> f32;
  for (Value v : values)
    f32.push_back(v.getType().isF32()
                      ? v
                      : LLVM::FPExtOp::create(b, loc, b.getF32Type(), v)
                            .getResult());
  // An odd count converts its last value beside itself.
  SmallVector<Value> out;
  for (size_t i = 0; i < f32.size(); i += 2) {
    Value second = i + 1 < f32.size() ? f32[i + 1] : f32[i];
    SmallVector<Value, 2> pair =
        target.convertF32x2ToF8x2(b, loc, f32[i], second, f8Type);
    if (pair.empty())
      return failure();
    out.push_back(pair[0]);
    if (i + 1 < f32.size())
      out.push_back(pair[1]);
  }
  return out;
}

/// Applies scalar versions of elementwise ops (arith, math and the
/// elementwise tt ops) to every element a thread holds.
struct ElementwiseLowering : ConversionPattern {
  ElementwiseLowering(const TypeConverter &tc, MLIRContext *ctx, Lowering &l)
      : ConversionPattern(tc, MatchAnyOpTypeTag(), /*benefit=*/20, ctx), l(l) {}
  Lowering &l;

  static bool isElementwise(Operation *op) {
    if (op->getNumResults() != 1 || op->getNumRegions() != 0)
      return false;
    if (isa<arith::ConstantOp>(op))
      return false;
    StringRef ns = op->getDialect() ? op->getDialect()->getNamespace() : "";
    if (ns == "arith" || ns == "math")
      return isa<RankedTensorType>(op->getResult(0).getType());
    return isa<tt::AddPtrOp, tt::BitcastOp, tt::FpToFpOp, tt::IntToPtrOp,
               tt::PtrToIntOp, tt::MulhiUIOp, tt::ClampFOp, tt::PreciseSqrtOp,
               tt::PreciseDivFOp, tt::ExternElementwiseOp>(op);
  }

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isElementwise(op))
      return failure();
    Location loc = op->getLoc();
    Type resultType = op->getResult(0).getType();
    auto tensor = dyn_cast<RankedTensorType>(resultType);
    unsigned n = tensor ? kgpu::getNumElemsPerThread(tensor.getEncoding(),
                                                      tensor.getShape())
                        : 1;
    Type elem = tensor ? tensor.getElementType() : resultType;
    SmallVector<SmallVector<Value>> in;
    for (auto [orig, conv] : llvm::zip(op->getOperands(), operands)) {
      if (isa<RankedTensorType>(orig.getType()))
        in.push_back(unpack(rewriter, loc, conv));
      else
        in.push_back(SmallVector<Value>(n, conv));
    }
    SmallVector<Value> out;
    Type resTy = getTypeConverter()->convertType(elem);
    Type srcElemType = getElementTypeOrSelf(op->getOperand(0).getType());
    if (auto cvt = dyn_cast<tt::FpToFpOp>(op);
        cvt && isF8UpcastableToF16(elem) &&
        (srcElemType.isF16() || srcElemType.isBF16() || srcElemType.isF32())) {
      // Downcasts to f8 round to nearest even (Triton's frontend asks for
      // rtne) and saturate, as Triton's do. Toward zero, f8E5M2 (f16's
      // sign, exponent and top two mantissa bits) is the high byte of the
      // f16 rounded toward zero: truncating twice toward zero is
      // truncating once, overflow stops at the largest finite value and a
      // NaN stays one (cvt's canonical NaN, 0x7fff, keeps mantissa bits;
      // an f16 source's NaNs are made that one).
      if (cvt.getRounding() == tt::RoundingMode::RTZ &&
          isa<Float8E5M2Type>(elem)) {
        for (Value x : in[0]) {
          Value h = x.getType().isF16()
                        ? x
                        : l.target->truncFloatTowardZero(rewriter, loc, x,
                                                         rewriter.getF16Type());
          if (!h)
            return cvt.emitError()
                   << "fp_to_fp from " << srcElemType << " to " << elem
                   << " with rounding = rtz is not supported by the "
                   << targetLabel(l) << " lowering yet";
          Type i16 = rewriter.getI16Type();
          Value bits = LLVM::BitcastOp::create(rewriter, loc, i16, h);
          if (x.getType().isF16()) {
            // An f16 NaN whose payload lies in its low byte would lose it
            // and read as an infinity: made the canonical NaN first, as
            // cvt makes every NaN from f32 (helper-99).
            Value nan = LLVM::FCmpOp::create(rewriter, loc,
                                             LLVM::FCmpPredicate::uno, h, h);
            bits = LLVM::SelectOp::create(
                rewriter, loc, nan,
                LLVM::ConstantOp::create(rewriter, loc, i16,
                                         rewriter.getI16IntegerAttr(0x7fff)),
                bits);
          }
          bits = LLVM::LShrOp::create(
              rewriter, loc, bits,
              LLVM::ConstantOp::create(rewriter, loc, i16,
                                       rewriter.getI16IntegerAttr(8)));
          out.push_back(
              LLVM::TruncOp::create(rewriter, loc, rewriter.getI8Type(), bits));
        }
      } else if (cvt.getRounding() != tt::RoundingMode::RTNE) {
        return cvt.emitError()
               << "fp_to_fp from " << srcElemType << " to " << elem
               << " must round to nearest even (rounding = rtne) on the "
               << targetLabel(l) << " lowering (rtz: f8E5M2 only)";
      } else {
        FailureOr<SmallVector<Value>> f8 =
            downcastToF8(rewriter, loc, *l.target, in[0], elem);
        if (failed(f8))
          return cvt.emitError()
                 << "fp_to_fp from " << srcElemType << " to " << elem
                 << " is not supported by the " << targetLabel(l)
                 << " lowering on this target (NVPTX: cvt.rn.satfinite, "
                    "sm_90 or later, or sm_89 with --ptx-version 81 or "
                    "later)";
        out = std::move(*f8);
      }
    } else if (isa<tt::FpToFpOp>(op) && isF8UpcastableToF16(srcElemType) &&
               (resTy.isF16() || resTy.isBF16() || resTy.isF32() ||
                resTy.isF64())) {
      // f8 upcasts convert elements in pairs where the target can. Every
      // f8E4M3FN / f8E5M2 value is an f16, f32, f64 and bf16 value (at most
      // 3 mantissa bits, exponents 2^-16 .. 2^15), so each step is exact.
      out = upcastF8ToF16(rewriter, loc, *l.target, in[0], srcElemType);
      for (Value &v : out) {
        if (resTy.isF16())
          continue;
        v = LLVM::FPExtOp::create(rewriter, loc, rewriter.getF32Type(), v);
        if (resTy.isBF16())
          v = LLVM::FPTruncOp::create(rewriter, loc, resTy, v);
        else if (resTy.isF64())
          v = LLVM::FPExtOp::create(rewriter, loc, resTy, v);
      }
    }
    // Registers holding the same value (the same element, or one AxisInfo
    // proves equal) are computed once.
    ArrayRef<unsigned> rep;
    if (tensor) {
      unsigned runLength = l.constancy.lookup(op);
      auto [it, inserted] =
          l.representatives.try_emplace({tensor, runLength});
      if (inserted)
        it->second = representatives(tensor, runLength);
      rep = it->second;
    }
    for (unsigned i = out.size(); i < n; ++i) {
      if (rep.size() == n && rep[i] != i) {
        out.push_back(out[rep[i]]);
        continue;
      }
      SmallVector<Value> args;
      for (auto &v : in)
        args.push_back(v[i]);
      FailureOr<Value> r = lowerScalar(rewriter, op, args, elem);
      if (failed(r))
        return failure();
      out.push_back(*r);
    }
    if (rep.size() == n)
      for (unsigned i = 0; i < n; ++i)
        out[i] = out[rep[i]];
    Type converted = getTypeConverter()->convertType(resultType);
    rewriter.replaceOp(op, pack(rewriter, loc, converted, out));
    return success();
  }

  /// For each register of a thread, the first register (in register order)
  /// certain to hold the same value: one holding the same element (a
  /// layout whose tile is larger than the tensor replicates elements, as
  /// an 8x1 tensor in a [1, 8]-per-thread layout holds each row 8 times),
  /// or, where AxisInfo proves runs of `runLength` equal values along the
  /// layout's fastest dimension, the run's first register. Masks then cost
  /// one predicate per run, not one per element (which would spill
  /// predicates into registers), and replicated math is emitted once.
  static SmallVector<unsigned> representatives(RankedTensorType type,
                                               unsigned runLength);

  FailureOr<Value> lowerScalar(ConversionPatternRewriter &b, Operation *op,
                               ArrayRef<Value> args, Type elem) const {
    Location loc = op->getLoc();
    const TypeConverter *tc = getTypeConverter();
    Type resTy = tc->convertType(elem);
    StringRef ns = op->getDialect()->getNamespace();
    if (isa<arith::DivFOp>(op) && elem.isF32())
      return l.target->fastDivF32(b, loc, args[0], args[1]);
    if (elem.isF32())
      if (Value v = l.target->mathF32(b, loc, op, args))
        return v;
    // f8 elements are i8 registers (resTy): a select or a bitcast moves
    // the bits (the f8 walk in runOnOperation rejects float arithmetic).
    // A select of pointers (tl.where on pointer tensors) picks between
    // LLVM pointers: arith.select would keep the tt.ptr element type.
    bool f8Result = isF8UpcastableToF16(elem);
    if (isa<arith::SelectOp>(op) && (f8Result || isa<tt::PointerType>(elem)))
      return LLVM::SelectOp::create(b, loc, args[0], args[1], args[2])
          .getResult();
    if (isa<arith::BitcastOp>(op) &&
        (f8Result ||
         isF8UpcastableToF16(getElementTypeOrSelf(op->getOperand(0))))) {
      if (args[0].getType() == resTy)
        return args[0];
      return LLVM::BitcastOp::create(b, loc, resTy, args[0]).getResult();
    }
    if (ns == "arith" || ns == "math") {
      OperationState state(loc, op->getName());
      state.addOperands(args);
      state.addAttributes(op->getAttrs());
      state.addTypes(elem);
      return b.create(state)->getResult(0);
    }
    if (auto addptr = dyn_cast<tt::AddPtrOp>(op)) {
      Type ptrElem = getElementTypeOrSelf(addptr.getPtr().getType());
      Type pointee = cast<tt::PointerType>(ptrElem).getPointeeType();
      Type memElem = memoryType(tc->convertType(pointee));
      return LLVM::GEPOp::create(b, loc, resTy, memElem, args[0],
                                 ValueRange{args[1]})
          .getResult();
    }
    if (isa<tt::BitcastOp>(op)) {
      if (args[0].getType() == resTy)
        return args[0];
      return LLVM::BitcastOp::create(b, loc, resTy, args[0]).getResult();
    }
    if (isa<tt::IntToPtrOp>(op))
      return LLVM::IntToPtrOp::create(b, loc, resTy, args[0]).getResult();
    if (isa<tt::PtrToIntOp>(op))
      return LLVM::PtrToIntOp::create(b, loc, resTy, args[0]).getResult();
    if (auto cvt = dyn_cast<tt::FpToFpOp>(op)) {
      Type src = args[0].getType();
      bool standard = [](Type t) {
        return t.isF16() || t.isBF16() || t.isF32() || t.isF64();
      }(src) && (resTy.isF16() || resTy.isBF16() || resTy.isF32() ||
                 resTy.isF64());
      if (!standard)
        return cvt.emitError() << "fp_to_fp from "
                               << getElementTypeOrSelf(cvt.getSrc().getType())
                               << " to " << elem
                               << " is not supported by the " << targetLabel(l) << " lowering yet";
      if (bitWidth(resTy) > bitWidth(src))
        return LLVM::FPExtOp::create(b, loc, resTy, args[0]).getResult();
      if (cvt.getRounding() == tt::RoundingMode::RTZ) {
        if (Value v = l.target->truncFloatTowardZero(b, loc, args[0], resTy))
          return v;
        return cvt.emitError()
               << "fp_to_fp from "
               << getElementTypeOrSelf(cvt.getSrc().getType()) << " to " << elem
               << " with rounding = rtz is not supported by the "
               << targetLabel(l) << " lowering yet";
      }
      if (src == resTy)
        return args[0];
      if (bitWidth(resTy) == bitWidth(src)) {
        // f16 <-> bf16: same width, so through f32 (exact), then rounded
        // to nearest even.
        Value wide = LLVM::FPExtOp::create(b, loc, b.getF32Type(), args[0]);
        return LLVM::FPTruncOp::create(b, loc, resTy, wide).getResult();
      }
      return LLVM::FPTruncOp::create(b, loc, resTy, args[0]).getResult();
    }
    if (isa<tt::MulhiUIOp>(op)) {
      if (Value hi = l.target->mulhiU(b, loc, args[0], args[1]))
        return hi;
      unsigned w = bitWidth(resTy);
      Type wide = b.getIntegerType(2 * w);
      Value x = LLVM::ZExtOp::create(b, loc, wide, args[0]);
      Value y = LLVM::ZExtOp::create(b, loc, wide, args[1]);
      Value p = LLVM::MulOp::create(b, loc, x, y);
      p = LLVM::LShrOp::create(b, loc, p,
                               LLVM::ConstantOp::create(b, loc, wide,
                                                        b.getIntegerAttr(wide, w)));
      return LLVM::TruncOp::create(b, loc, resTy, p).getResult();
    }
    if (auto clamp = dyn_cast<tt::ClampFOp>(op)) {
      Value v;
      if (clamp.getPropagateNan() == tt::PropagateNan::ALL) {
        v = LLVM::MaximumOp::create(b, loc, args[0], args[1]);
        return LLVM::MinimumOp::create(b, loc, v, args[2]).getResult();
      }
      v = LLVM::MaxNumOp::create(b, loc, args[0], args[1]);
      return LLVM::MinNumOp::create(b, loc, v, args[2]).getResult();
    }
    if (isa<tt::PreciseSqrtOp>(op))
      return LLVM::SqrtOp::create(b, loc, args[0]).getResult();
    if (isa<tt::PreciseDivFOp>(op))
      return LLVM::FDivOp::create(b, loc, args[0], args[1]).getResult();
    if (auto ext = dyn_cast<tt::ExternElementwiseOp>(op)) {
      auto module = op->getParentOfType<ModuleOp>();
      StringRef symbol = ext.getSymbol();
      // Off NVIDIA, libdevice (__nv_*) is not there: the common f32/f64
      // functions Triton and Inductor call map to LLVM intrinsics every
      // backend implements; others fail at link time, by name.
      std::string renamed;
      if (l.target->getName() != "nvptx" && symbol.starts_with("__nv_")) {
        if (Value v = libdeviceAsIntrinsic(b, loc, symbol, args, resTy))
          return v;
        // The rest of the common ones have an ROCm device-library (ocml)
        // function of the same meaning; the AMDGPU backend links ocml.
        renamed = libdeviceAsOcml(symbol, resTy);
        if (!renamed.empty())
          symbol = renamed;
      }
      SmallVector<Type> argTypes;
      for (Value a : args)
        argTypes.push_back(a.getType());
      LLVM::LLVMFuncOp fn = lookupOrDeclareFunction(
          b, loc, module, symbol, LLVM::LLVMFunctionType::get(resTy, argTypes));
      return LLVM::CallOp::create(b, loc, fn, args).getResult();
    }
    return op->emitError() << "cannot lower '" << op->getName()
                           << "' elementwise";
  }
};

/// libdevice functions with an LLVM intrinsic (or a two-op) equivalent:
/// __nv_expf / __nv_exp, __nv_exp2f, __nv_logf, __nv_log2f, __nv_sqrtf,
/// __nv_rsqrtf, __nv_fabsf, __nv_floorf, __nv_ceilf, __nv_truncf,
/// __nv_fmaxf, __nv_fminf, __nv_sinf, __nv_cosf, __nv_powf, __nv_fmaf
/// (and their f64 spellings without the trailing f). Null otherwise.
Value libdeviceAsIntrinsic(OpBuilder &b, Location loc, StringRef symbol,
                           ArrayRef<Value> args, Type resTy) {
  StringRef name = symbol.drop_front(strlen("__nv_"));
  bool f32 = resTy.isF32();
  if (f32) {
    if (!name.consume_back("f"))
      return {};
  } else if (!resTy.isF64()) {
    return {};
  }
  auto unary = [&](auto tag) -> Value {
    using OpT = decltype(tag);
    if (args.size() != 1)
      return {};
    return OpT::create(b, loc, args[0]);
  };
  auto binary = [&](auto tag) -> Value {
    using OpT = decltype(tag);
    if (args.size() != 2)
      return {};
    return OpT::create(b, loc, args[0], args[1]);
  };
  if (name == "exp")
    return unary(LLVM::ExpOp());
  if (name == "exp2")
    return unary(LLVM::Exp2Op());
  if (name == "log")
    return unary(LLVM::LogOp());
  if (name == "log2")
    return unary(LLVM::Log2Op());
  if (name == "sqrt")
    return unary(LLVM::SqrtOp());
  if (name == "fabs")
    return unary(LLVM::FAbsOp());
  if (name == "floor")
    return unary(LLVM::FFloorOp());
  if (name == "ceil")
    return unary(LLVM::FCeilOp());
  if (name == "trunc")
    return unary(LLVM::FTruncOp());
  if (name == "sin")
    return unary(LLVM::SinOp());
  if (name == "cos")
    return unary(LLVM::CosOp());
  if (name == "fmax")
    return binary(LLVM::MaxNumOp());
  if (name == "fmin")
    return binary(LLVM::MinNumOp());
  if (name == "pow")
    return binary(LLVM::PowOp());
  if (name == "fma" && args.size() == 3)
    return LLVM::FMAOp::create(b, loc, args[0], args[1], args[2]);
  if (name == "rsqrt" && args.size() == 1) {
    Value one = LLVM::ConstantOp::create(b, loc, resTy, b.getFloatAttr(resTy, 1.0));
    return LLVM::FDivOp::create(b, loc, one, LLVM::SqrtOp::create(b, loc, args[0]));
  }
  return {};
}

/// The ocml function (ROCm device libraries, ocml.h: __ocml_<name>_f32 /
/// _f64) with the meaning of libdevice's __nv_<name>f / __nv_<name>, for
/// the math functions whose names agree; "" otherwise.
std::string libdeviceAsOcml(StringRef symbol, Type resTy) {
  static const char *const names[] = {
      "erf",   "erfc",  "erfinv", "erfcinv", "tanh",  "sinh",  "cosh",
      "tan",   "asin",  "acos",   "atan",    "atan2", "asinh", "acosh",
      "atanh", "exp10", "expm1",  "log10",   "log1p", "cbrt",  "hypot",
      "fmod",  "round", "rint",   "nearbyint", "lgamma", "tgamma",
      "remainder", "copysign", "fdim", "logb", "nextafter", "sinpi", "cospi"};
  StringRef name = symbol.drop_front(strlen("__nv_"));
  const char *suffix = "_f64";
  if (resTy.isF32()) {
    if (!name.consume_back("f"))
      return "";
    suffix = "_f32";
  } else if (!resTy.isF64()) {
    return "";
  }
  for (const char *known : names)
    if (name == known)
      return ("__ocml_" + name + suffix).str();
  return "";
}

/// The dimension along which a thread's consecutive registers run.
unsigned fastestDim(Attribute layout) {
  // mma.sync accumulators hold column pairs: N (dim 1) is fastest.
  auto orderOf = [](Attribute a) -> SmallVector<unsigned> {
    if (auto blocked = dyn_cast<kgpu::BlockedEncodingAttr>(a))
      return SmallVector<unsigned>(blocked.getOrder());
    // MFMA accumulators hold 4 consecutive rows: M (dim 0) is fastest.
    if (isa<kgpu::MfmaEncodingAttr>(a))
      return {0, 1};
    return {1, 0};
  };
  if (!isa<kgpu::SliceEncodingAttr>(layout))
    return orderOf(layout)[0];
  auto slice = cast<kgpu::SliceEncodingAttr>(layout);
  for (unsigned d : orderOf(slice.getParent()))
    if (d != slice.getDim())
      return d < slice.getDim() ? d : d - 1;
  return 0;
}

/// Groups a thread's elements into runs of `vec` registers that are
/// consecutive and aligned along `dim`: returns the first register of each
/// run (vec 1 if the layout does not allow `vec`).
unsigned chooseVec(RankedTensorType type, unsigned vec,
                   SmallVectorImpl<unsigned> &starts) {
  auto offsets = kgpu::getElemOffsets(type.getEncoding(), type.getShape());
  auto shape = type.getShape();
  unsigned rank = shape.size();
  auto tryVec = [&](unsigned v, unsigned dim) {
    starts.clear();
    if (offsets.size() % v != 0 || shape[dim] % v != 0)
      return false;
    auto baseTerms = kgpu::getThreadBaseTerms(type.getEncoding());
    for (const kgpu::BaseTerm &t : baseTerms[dim])
      if (t.multiplier % v != 0)
        return false;
    for (unsigned e = 0; e < offsets.size(); e += v) {
      if (offsets[e][dim] % v != 0)
        return false;
      for (unsigned k = 1; k < v; ++k)
        for (unsigned d = 0; d < rank; ++d)
          if (offsets[e + k][d] != offsets[e][d] + (d == dim ? k : 0))
            return false;
      starts.push_back(e);
    }
    return true;
  };
  unsigned dim = fastestDim(type.getEncoding());
  for (unsigned v = vec; v > 1; v /= 2)
    if (tryVec(v, dim))
      return v;
  starts.clear();
  for (unsigned e = 0; e < offsets.size(); ++e)
    starts.push_back(e);
  return 1;
}

SmallVector<unsigned>
ElementwiseLowering::representatives(RankedTensorType type,
                                     unsigned runLength) {
  Attribute layout = type.getEncoding();
  auto shape = type.getShape();
  auto offsets = kgpu::getElemOffsets(layout, shape);
  unsigned dim = fastestDim(layout);
  // Runs must start at multiples of their length in every thread: the
  // thread's base along `dim` is a multiple of each base term multiplier.
  unsigned g = runLength;
  if (g > 1) {
    auto baseTerms = kgpu::getThreadBaseTerms(layout);
    for (const kgpu::BaseTerm &t : baseTerms[dim])
      g = std::min<unsigned>(g, 1u << llvm::countr_zero(t.multiplier));
    if (shape[dim] % g != 0)
      g = 1;
  }
  SmallVector<unsigned> rep(offsets.size());
  std::map<SmallVector<int64_t>, unsigned> first;
  for (unsigned e = 0; e < offsets.size(); ++e) {
    // The element's index is (base + offset) mod shape per dimension, with
    // the same base for all of a thread's registers.
    SmallVector<int64_t> key(offsets[e]);
    for (unsigned d = 0; d < key.size(); ++d)
      key[d] = ((key[d] % shape[d]) + shape[d]) % shape[d];
    if (g > 1)
      key[dim] -= key[dim] % g;
    rep[e] = first.try_emplace(std::move(key), e).first->second;
  }
  return rep;
}

/// Word size used to move `vec` elements of `elemBits` bits.
std::pair<unsigned, unsigned> wordsFor(unsigned vec, unsigned elemBits) {
  unsigned total = vec * elemBits;
  if (elemBits >= 32)
    return {elemBits, vec};
  if (total >= 32)
    return {32, total / 32};
  return {16, 1};
}

SmallVector<Value> elemsToWords(OpBuilder &b, Location loc,
                                ArrayRef<Value> elems, unsigned wordBits) {
  SmallVector<Value> words;
  Type elem = elems.front().getType();
  unsigned elemBits = bitWidth(elem);
  Type word = b.getIntegerType(wordBits);
  if (elemBits >= wordBits) {
    for (Value e : elems) {
      if (isa<LLVM::LLVMPointerType>(elem))
        words.push_back(LLVM::PtrToIntOp::create(b, loc, word, e));
      else if (elem.isInteger())
        words.push_back(e);
      else
        words.push_back(LLVM::BitcastOp::create(b, loc, word, e));
    }
    return words;
  }
  unsigned per = wordBits / elemBits;
  if (per > elems.size()) { // one small element in a 16-bit word
    Value v = elems.front();
    if (!elem.isInteger())
      v = LLVM::BitcastOp::create(b, loc, b.getIntegerType(elemBits), v);
    return {LLVM::ZExtOp::create(b, loc, word, v)};
  }
  auto vecTy = VectorType::get({int64_t(per)}, elem);
  for (unsigned w = 0; w < elems.size() / per; ++w) {
    Value v = LLVM::UndefOp::create(b, loc, vecTy);
    for (unsigned k = 0; k < per; ++k)
      v = LLVM::InsertElementOp::create(b, loc, v, elems[w * per + k],
                                        i32Const(b, loc, k));
    words.push_back(LLVM::BitcastOp::create(b, loc, word, v));
  }
  return words;
}

SmallVector<Value> wordsToElems(OpBuilder &b, Location loc,
                                ArrayRef<Value> words, Type elem,
                                unsigned count) {
  SmallVector<Value> elems;
  unsigned elemBits = bitWidth(elem);
  unsigned wordBits = words.front().getType().getIntOrFloatBitWidth();
  if (elemBits >= wordBits) {
    for (Value w : words) {
      if (isa<LLVM::LLVMPointerType>(elem))
        elems.push_back(LLVM::IntToPtrOp::create(b, loc, elem, w));
      else if (elem.isInteger())
        elems.push_back(w);
      else
        elems.push_back(LLVM::BitcastOp::create(b, loc, elem, w));
    }
    return elems;
  }
  unsigned per = wordBits / elemBits;
  if (per > count) {
    Value v = LLVM::TruncOp::create(b, loc, b.getIntegerType(elemBits),
                                    words.front());
    if (!elem.isInteger())
      v = LLVM::BitcastOp::create(b, loc, elem, v);
    return {v};
  }
  auto vecTy = VectorType::get({int64_t(per)}, elem);
  for (Value w : words) {
    Value v = LLVM::BitcastOp::create(b, loc, vecTy, w);
    for (unsigned k = 0; k < per; ++k)
      elems.push_back(LLVM::ExtractElementOp::create(b, loc, v, i32Const(b, loc, k)));
  }
  return elems;
}

/// PTX's ld and st take a cache operator (.ca, .cg, ...) or an eviction
/// priority (.L1::evict_first, ...), not both (PTX ISA, "Data Movement and
/// Conversion Instructions": ld, st): ptxas rejects such PTX, Triton 3.6's
/// included. Reported at the op instead, by name.
LogicalResult checkCacheAndEviction(Operation *op, const Lowering &l,
                                    tt::CacheModifier cache,
                                    tt::EvictionPolicy evict) {
  if (l.target->getName() != "nvptx" || cache == tt::CacheModifier::NONE ||
      evict == tt::EvictionPolicy::NORMAL)
    return success();
  return op->emitError() << "'" << op->getName() << "' has cacheModifier = "
                         << tt::stringifyCacheModifier(cache)
                         << " and evictionPolicy = "
                         << tt::stringifyEvictionPolicy(evict)
                         << ", but PTX's ld and st take a cache operator or "
                            "an eviction priority, not both (ptxas rejects "
                            "the combination); drop one of them";
}

struct LoadLowering : KPattern<tt::LoadOp> {
  using KPattern::KPattern;
  LogicalResult
  matchAndRewrite(tt::LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (tt::isBlockPointer(op.getPtr().getType()))
      return op.emitError() << "loads through block pointers are not "
                               "supported by the " << targetLabel(l) << " lowering yet";
    if (!op.getIsVolatile() &&
        failed(checkCacheAndEviction(op, l, op.getCache(), op.getEvict())))
      return failure();
    Location loc = op.getLoc();
    Type resultType = op.getType();
    auto tensor = dyn_cast<RankedTensorType>(resultType);
    Type elem = getTypeConverter()->convertType(getElementTypeOrSelf(resultType));
    Type mem = memoryType(elem);
    SmallVector<unsigned> starts;
    unsigned vec = 1;
    if (tensor)
      vec = chooseVec(tensor, l.vectorWidth.lookup(op) ? l.vectorWidth.lookup(op) : 1,
                      starts);
    else
      starts.push_back(0);
    SmallVector<Value> ptrs = unpack(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> masks, others;
    if (adaptor.getMask())
      masks = unpack(rewriter, loc, adaptor.getMask());
    if (adaptor.getOther())
      others = unpack(rewriter, loc, adaptor.getOther());
    unsigned memBits = bitWidth(mem);
    auto [wordBits, numWords] = wordsFor(vec, memBits);
    bool plain = !adaptor.getMask() &&
                 op.getCache() == tt::CacheModifier::NONE &&
                 op.getEvict() == tt::EvictionPolicy::NORMAL &&
                 !op.getIsVolatile();
    SmallVector<Value> out(ptrs.size());
    for (unsigned s : starts) {
      SmallVector<Value> elems;
      if (plain) {
        Type vty = vec == 1 ? mem : VectorType::get({int64_t(vec)}, mem);
        Value v = LLVM::LoadOp::create(rewriter, loc, vty, ptrs[s],
                                       vec * memBits / 8);
        if (vec == 1)
          elems.push_back(v);
        else
          for (unsigned k = 0; k < vec; ++k)
            elems.push_back(LLVM::ExtractElementOp::create(
                rewriter, loc, v, i32Const(rewriter, loc, k)));
      } else {
        Value pred = masks.empty()
                         ? LLVM::ConstantOp::create(rewriter, loc,
                                                    rewriter.getI1Type(),
                                                    rewriter.getBoolAttr(true))
                         : masks[s];
        SmallVector<Value> otherWords;
        if (!others.empty()) {
          SmallVector<Value> o;
          for (unsigned k = 0; k < vec; ++k)
            o.push_back(toMemory(rewriter, loc, others[s + k]));
          otherWords = elemsToWords(rewriter, loc, o, wordBits);
        }
        // A 16-bit word holding two bytes moves as .b16, a lone byte as .u8.
        unsigned opBits = vec == 1 ? memBits : wordBits;
        SmallVector<Value> words = l.target->predicatedLoad(
            rewriter, loc, ptrs[s], pred, otherWords, numWords, wordBits,
            opBits, op.getCache(), op.getEvict(), op.getIsVolatile());
        elems = wordsToElems(rewriter, loc, words, mem, vec);
      }
      for (unsigned k = 0; k < vec; ++k)
        out[s + k] = fromMemory(rewriter, loc, elems[k], elem);
    }
    rewriter.replaceOp(op, pack(rewriter, loc,
                                getTypeConverter()->convertType(resultType), out));
    return success();
  }
};

struct StoreLowering : KPattern<tt::StoreOp> {
  using KPattern::KPattern;
  LogicalResult
  matchAndRewrite(tt::StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (tt::isBlockPointer(op.getPtr().getType()))
      return op.emitError() << "stores through block pointers are not "
                               "supported by the " << targetLabel(l) << " lowering yet";
    if (failed(checkCacheAndEviction(op, l, op.getCache(), op.getEvict())))
      return failure();
    Location loc = op.getLoc();
    Type valueType = op.getValue().getType();
    auto tensor = dyn_cast<RankedTensorType>(valueType);
    Type elem = getTypeConverter()->convertType(getElementTypeOrSelf(valueType));
    Type mem = memoryType(elem);
    SmallVector<unsigned> starts;
    unsigned vec = 1;
    if (tensor)
      vec = chooseVec(tensor, l.vectorWidth.lookup(op) ? l.vectorWidth.lookup(op) : 1,
                      starts);
    else
      starts.push_back(0);
    SmallVector<Value> ptrs = unpack(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> values = unpack(rewriter, loc, adaptor.getValue());
    SmallVector<Value> masks;
    if (adaptor.getMask())
      masks = unpack(rewriter, loc, adaptor.getMask());
    unsigned memBits = bitWidth(mem);
    auto [wordBits, numWords] = wordsFor(vec, memBits);
    (void)numWords;
    bool plain = !adaptor.getMask() &&
                 op.getCache() == tt::CacheModifier::NONE &&
                 op.getEvict() == tt::EvictionPolicy::NORMAL;
    for (unsigned s : starts) {
      SmallVector<Value> elems;
      for (unsigned k = 0; k < vec; ++k)
        elems.push_back(toMemory(rewriter, loc, values[s + k]));
      if (plain) {
        Value v = elems.front();
        if (vec > 1) {
          auto vty = VectorType::get({int64_t(vec)}, mem);
          v = LLVM::UndefOp::create(rewriter, loc, vty);
          for (unsigned k = 0; k < vec; ++k)
            v = LLVM::InsertElementOp::create(rewriter, loc, v, elems[k],
                                              i32Const(rewriter, loc, k));
        }
        LLVM::StoreOp::create(rewriter, loc, v, ptrs[s], vec * memBits / 8);
        continue;
      }
      Value pred = masks.empty()
                       ? LLVM::ConstantOp::create(rewriter, loc,
                                                  rewriter.getI1Type(),
                                                  rewriter.getBoolAttr(true))
                       : masks[s];
      unsigned opBits = vec == 1 ? memBits : wordBits;
      l.target->predicatedStore(rewriter, loc, ptrs[s], pred,
                                elemsToWords(rewriter, loc, elems, wordBits),
                                wordBits, opBits, op.getCache(),
                                op.getEvict());
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// Lane and warp terms of `layout` along `axis` and how many of each hold
/// distinct data for a dimension of `size` elements.
struct AxisSpread {
  std::optional<kgpu::BaseTerm> lane, warp;
  unsigned uniqueLanes = 1, uniqueWarps = 1;
};

AxisSpread getAxisSpread(Attribute layout, unsigned axis, int64_t size) {
  AxisSpread s;
  auto baseTerms = kgpu::getThreadBaseTerms(layout);
  for (const kgpu::BaseTerm &t : baseTerms[axis]) {
    unsigned unique = std::max<int64_t>(
        1, std::min<int64_t>(t.modulus, llvm::divideCeil(size, t.multiplier)));
    unique = llvm::bit_floor(unique);
    if (t.isWarp) {
      s.warp = t;
      s.uniqueWarps = unique;
    } else {
      s.lane = t;
      s.uniqueLanes = unique;
    }
  }
  return s;
}

struct ReduceLowering : KPattern<tt::ReduceOp> {
  using KPattern::KPattern;
  LogicalResult
  matchAndRewrite(tt::ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrcs().front().getType());
    Attribute layout = srcType.getEncoding();
    auto shape = srcType.getShape();
    unsigned axis = op.getAxis();
    unsigned numOps = op.getSrcs().size();
    bool scalarResult = srcType.getRank() == 1;
    SmallVector<int64_t> resShape(shape);
    resShape.erase(resShape.begin() + axis);
    Attribute resLayout;
    SmallVector<SmallVector<int64_t>> resOffsets{{}};
    if (!scalarResult) {
      resLayout = kgpu::SliceEncodingAttr::get(op.getContext(), axis, layout);
      if (kgpu::getLayout(op.getResult()[0].getType()) != resLayout)
        return op.emitError() << "reduce result layout must be the slice of "
                                 "the operand layout along the axis";
      resOffsets = kgpu::getElemOffsets(resLayout, resShape);
    }

    // 1. Within the thread.
    SmallVector<SmallVector<Value>> in;
    for (Value v : adaptor.getSrcs())
      in.push_back(unpack(rewriter, loc, v));
    auto srcOffsets = kgpu::getElemOffsets(layout, shape);
    SmallVector<SmallVector<Value>> acc(resOffsets.size());
    for (auto [e, off] : llvm::enumerate(srcOffsets)) {
      if (off[axis] >= shape[axis])
        continue; // a copy of an element this thread already holds
      SmallVector<int64_t> key(off);
      key.erase(key.begin() + axis);
      auto it = llvm::find(resOffsets, key);
      if (it == resOffsets.end())
        return op.emitError() << "internal error: reduce element not found";
      unsigned r = it - resOffsets.begin();
      SmallVector<Value> next;
      for (unsigned k = 0; k < numOps; ++k)
        next.push_back(in[k][e]);
      if (acc[r].empty())
        acc[r] = next;
      else
        acc[r] = combine(rewriter, op.getCombineOp(), acc[r], next);
    }

    // 2. Across lanes.
    // `a` combined with its value in the lane `laneMask` away (xor).
    auto combineWithLane = [&](SmallVector<Value> &a, unsigned laneMask) {
      SmallVector<Value> other;
      for (Value v : a)
        other.push_back(shuffleValue(rewriter, loc, v, [&](Value w) {
          return l.target->shuffleXor(rewriter, loc, w, laneMask);
        }));
      a = combine(rewriter, op.getCombineOp(), a, other);
    };
    AxisSpread spread = getAxisSpread(layout, axis, shape[axis]);
    for (unsigned k = 1; k < spread.uniqueLanes; k *= 2)
      for (auto &a : acc)
        combineWithLane(a, spread.lane->divisor * k);

    // 3. Across warps, through shared memory.
    if (spread.uniqueWarps > 1) {
      auto offsetAttr = op->getAttrOfType<IntegerAttr>(kSmemOffsetAttr);
      if (!offsetAttr || !l.smem)
        return op.emitError() << "internal error: no shared memory assigned";
      int64_t byteOffset = offsetAttr.getInt();
      int64_t resNumel = 1;
      for (int64_t s : resShape)
        resNumel *= s;
      SmallVector<Value> lin;
      if (scalarResult) {
        lin.push_back(i32Const(rewriter, loc, 0));
      } else {
        for (auto &idx : emitIndices(rewriter, loc, l, resLayout, resShape))
          lin.push_back(linearIndex(rewriter, loc, idx, resShape));
      }
      auto [lane, warp] = laneAndWarp(rewriter, loc, l);
      Value warpIdx = LLVM::LShrOp::create(
          rewriter, loc, warp,
          i32Const(rewriter, loc, llvm::Log2_32(spread.warp->divisor)));
      warpIdx = LLVM::AndOp::create(rewriter, loc, warpIdx,
                                    i32Const(rewriter, loc, spread.warp->modulus - 1));
      SmallVector<int64_t> opOffsets;
      int64_t off = byteOffset;
      for (unsigned k = 0; k < numOps; ++k) {
        opOffsets.push_back(off);
        Type elem = memoryType(acc.front()[k].getType());
        off += llvm::alignTo(spread.warp->modulus * resNumel *
                                 bitWidth(elem) / 8,
                             16);
      }
      // Every op owns its shared memory, so only a reduction that runs
      // again (in a loop, or in a called function: mayRunAgain) must wait
      // for the previous round's readers.
      if (l.smemShared || mayRunAgain(op))
        l.target->barrier(rewriter, loc);
      for (auto [r, a] : llvm::enumerate(acc)) {
        Value slot = LLVM::AddOp::create(
            rewriter, loc,
            LLVM::MulOp::create(rewriter, loc, warpIdx,
                                i32Const(rewriter, loc, resNumel)),
            lin[r]);
        for (unsigned k = 0; k < numOps; ++k) {
          Type elem = memoryType(a[k].getType());
          Value p = smemAddress(rewriter, loc, l, opOffsets[k], elem, slot);
          LLVM::StoreOp::create(rewriter, loc, toMemory(rewriter, loc, a[k]), p);
        }
      }
      l.target->barrier(rewriter, loc);
      // One result element (a row, or the whole tensor) that every thread
      // needs: lane i reads warp i's partial (lanes past the number of
      // warps read a copy) and xor shuffles combine them, log2(warps)
      // steps. Every thread reading every partial took, for 16 warps, 4
      // vector loads and 15 combines; this takes one load and 4 shuffles
      // and combines, and ptxas has less to compile (docs/BENCHMARKS.md,
      // thirty-eighth session). With fewer than 16 warps, or a value wider
      // than 32 bits (two shuffles a step), the shuffles took as many PTX
      // instructions as the loads or more (helper-74's 362 kernels, 1-32
      // warps), so those keep the loads. The partials are combined as a
      // tree, not in warp order, and, as in the lanes' step above, each
      // lane puts its own value first: a combine that is not commutative
      // (a max that keeps the first of two equal values) can leave lanes
      // with results that differ where values tie.
      unsigned warps = spread.uniqueWarps;
      bool narrow = llvm::all_of(acc.front(), [](Value v) {
        return bitWidth(memoryType(v.getType())) <= 32;
      });
      bool byLane = resNumel == 1 && narrow && llvm::isPowerOf2_32(warps) &&
                    warps >= 16 && warps <= l.target->getWarpSize();
      // Each op's partial at `slot` of its shared memory.
      auto loadPartial = [&](Value slot, ArrayRef<Value> like) {
        SmallVector<Value> vals;
        for (unsigned k = 0; k < numOps; ++k) {
          Type elemTy = like[k].getType();
          Type memTy = memoryType(elemTy);
          Value p = smemAddress(rewriter, loc, l, opOffsets[k], memTy, slot);
          Value v = LLVM::LoadOp::create(rewriter, loc, memTy, p);
          vals.push_back(fromMemory(rewriter, loc, v, elemTy));
        }
        return vals;
      };
      Value mine;
      if (byLane)
        mine = LLVM::AndOp::create(rewriter, loc, lane,
                                   i32Const(rewriter, loc, warps - 1));
      for (auto [r, a] : llvm::enumerate(acc)) {
        if (byLane) {
          SmallVector<Value> vals = loadPartial(
              LLVM::AddOp::create(rewriter, loc, mine, lin[r]), a);
          for (unsigned mask = 1; mask < warps; mask *= 2)
            combineWithLane(vals, mask);
          a = vals;
          continue;
        }
        SmallVector<Value> total;
        for (unsigned w = 0; w < warps; ++w) {
          SmallVector<Value> vals = loadPartial(
              LLVM::AddOp::create(rewriter, loc,
                                  i32Const(rewriter, loc, w * resNumel),
                                  lin[r]),
              a);
          total = total.empty() ? vals
                                : combine(rewriter, op.getCombineOp(), total, vals);
        }
        a = total;
      }
    }

    SmallVector<Value> results;
    for (unsigned k = 0; k < numOps; ++k) {
      Type resType = getTypeConverter()->convertType(op.getResult()[k].getType());
      SmallVector<Value> vals;
      for (auto &a : acc)
        vals.push_back(a[k]);
      results.push_back(pack(rewriter, loc, resType, vals));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// Data movement between threads through shared memory: each source
/// tensor is stored at its row-major index (source k at k * numel), then
/// every element of each result is read from where `srcIndex` says.
/// Serves trans, reshape, join, split, cat and gather, whose results may
/// be distributed differently from their operands.
LogicalResult
moveThroughSharedMemory(Operation *op, ConversionPatternRewriter &rewriter,
                        const TypeConverter *tc, Lowering &l,
                        ArrayRef<Value> convertedSrcs,
                        function_ref<Value(OpBuilder &, ArrayRef<Value> dstIdx,
                                           unsigned result)>
                            srcIndex) {
  Location loc = op->getLoc();
  auto offsetAttr = op->getAttrOfType<IntegerAttr>(kSmemOffsetAttr);
  if (!offsetAttr || !l.smem)
    return op->emitError() << "internal error: no shared memory assigned";
  auto srcType = cast<RankedTensorType>(op->getOperand(0).getType());
  Type elem = tc->convertType(srcType.getElementType());
  Type mem = memoryType(elem);
  int64_t numel = srcType.getNumElements();
  if (l.smemShared || mayRunAgain(op))
    l.target->barrier(rewriter, loc);
  for (auto [k, converted] : llvm::enumerate(convertedSrcs)) {
    auto type = cast<RankedTensorType>(op->getOperand(k).getType());
    SmallVector<Value> vals = unpack(rewriter, loc, converted);
    SmallVector<Value> addrs = elementAddresses(
        rewriter, loc, l, type.getEncoding(), type.getShape(),
        rowMajorStrides(type.getShape()),
        offsetAttr.getInt() + int64_t(k) * numel * int64_t(bitWidth(mem) / 8),
        mem);
    for (auto [i, addr] : llvm::enumerate(addrs))
      LLVM::StoreOp::create(rewriter, loc, toMemory(rewriter, loc, vals[i]),
                            addr);
  }
  l.target->barrier(rewriter, loc);
  SmallVector<Value> results;
  for (auto [r, result] : llvm::enumerate(op->getResults())) {
    auto type = cast<RankedTensorType>(result.getType());
    SmallVector<Value> vals;
    for (auto &idx :
         emitIndices(rewriter, loc, l, type.getEncoding(), type.getShape())) {
      Value src = srcIndex(rewriter, idx, r);
      vals.push_back(fromMemory(
          rewriter, loc,
          LLVM::LoadOp::create(
              rewriter, loc, mem,
              smemAddress(rewriter, loc, l, offsetAttr.getInt(), mem, src)),
          elem));
    }
    results.push_back(pack(rewriter, loc, tc->convertType(type), vals));
  }
  rewriter.replaceOp(op, results);
  return success();
}

struct TransLowering : KPattern<tt::TransOp> {
  using KPattern::KPattern;
  LogicalResult
  matchAndRewrite(tt::TransOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // Its only user, an mma.sync dot, stages the source as B itself.
    if (op->hasAttr(kFusedIntoDotAttr)) {
      rewriter.replaceOpWithNewOp<LLVM::PoisonOp>(
          op, getTypeConverter()->convertType(op.getType()));
      return success();
    }
    auto srcShape = op.getSrc().getType().getShape();
    ArrayRef<int32_t> order = op.getOrder();
    return moveThroughSharedMemory(
        op, rewriter, getTypeConverter(), l, {adaptor.getSrc()},
        [&](OpBuilder &b, ArrayRef<Value> idx, unsigned) {
          // result dim i is source dim order[i]
          SmallVector<Value> srcIdx(idx.size());
          for (auto [i, d] : llvm::enumerate(order))
            srcIdx[d] = idx[i];
          return linearIndex(b, op.getLoc(), srcIdx, srcShape);
        });
  }
};

/// Whether an allow_reorder tt.reshape could keep its elements in their
/// registers: both layouts hold each element exactly once over `threads`
/// threads, as many a thread on both sides. Thread t's k-th source register
/// then becomes its k-th result register: a bijection between the elements.
static bool reorderFitsRegisters(tt::ReshapeOp op, int64_t threads) {
  RankedTensorType src = op.getSrc().getType(), dst = op.getType();
  if (!op.getAllowReorder() || !kgpu::isDistributedLayout(src.getEncoding()) ||
      !kgpu::isDistributedLayout(dst.getEncoding()))
    return false;
  int64_t perThread =
      kgpu::getNumElemsPerThread(src.getEncoding(), src.getShape());
  return perThread == int64_t(kgpu::getNumElemsPerThread(dst.getEncoding(),
                                                         dst.getShape())) &&
         perThread * threads == src.getNumElements();
}

/// Whether a tt.reshape keeps every element in the register it is in: the
/// same type (shape and layout) on both sides, or an allow_reorder reshape
/// to 1-D that only tt.reduce ops read (Triton's tl.sum(x) / tl.argmax(x)
/// over all axes), where the order cannot be seen: every operand of those
/// reduces is such a reshape between the same shapes and layouts, so all
/// are permuted alike (an argmax's values and indices stay paired),
/// and reorderFitsRegisters holds. Elsewhere (tl.view, reshapes a store or
/// an elementwise op reads beside another tensor) the row-major order
/// through shared memory is kept: two reorders must pair up (helper-99: a
/// pointer reshape kept in registers beside a value reshape through
/// shared memory stored values at the wrong places).
bool reshapeKeepsRegisters(tt::ReshapeOp op, int64_t threads) {
  RankedTensorType src = op.getSrc().getType(), dst = op.getType();
  if (src == dst)
    return true;
  if (dst.getRank() != 1 || op->use_empty())
    return false;
  SmallVector<tt::ReshapeOp> group = {op};
  SmallPtrSet<Operation *, 8> seen = {op};
  for (unsigned i = 0; i < group.size(); ++i) {
    tt::ReshapeOp r = group[i];
    // The same shapes and layouts (element types may differ: an argmax's
    // f32 values beside its i32 indices).
    auto alike = [](RankedTensorType a, RankedTensorType b) {
      return a.getShape() == b.getShape() && a.getEncoding() == b.getEncoding();
    };
    if (!alike(r.getSrc().getType(), src) || !alike(r.getType(), dst) ||
        !reorderFitsRegisters(r, threads))
      return false;
    for (Operation *user : r->getUsers()) {
      auto reduce = dyn_cast<tt::ReduceOp>(user);
      if (!reduce || group.size() > 64)
        return false;
      for (Value v : reduce.getSrcs()) {
        auto other = v.getDefiningOp<tt::ReshapeOp>();
        if (!other)
          return false;
        if (seen.insert(other).second)
          group.push_back(other);
      }
    }
  }
  return true;
}

struct ReshapeLowering : KPattern<tt::ReshapeOp> {
  using KPattern::KPattern;
  LogicalResult
  matchAndRewrite(tt::ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (reshapeKeepsRegisters(op, int64_t(l.numWarps) * l.warpSize)) {
      Location loc = op.getLoc();
      rewriter.replaceOp(op, pack(rewriter, loc,
                                  getTypeConverter()->convertType(op.getType()),
                                  unpack(rewriter, loc, adaptor.getSrc())));
      return success();
    }
    auto dstShape = op.getType().getShape();
    // Row-major order is kept (also a valid choice when allow_reorder).
    return moveThroughSharedMemory(
        op, rewriter, getTypeConverter(), l, {adaptor.getSrc()},
        [&](OpBuilder &b, ArrayRef<Value> idx, unsigned) {
          return linearIndex(b, op.getLoc(), idx, dstShape);
        });
  }
};

struct JoinLowering : KPattern<tt::JoinOp> {
  using KPattern::KPattern;
  LogicalResult
  matchAndRewrite(tt::JoinOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcShape = op.getLhs().getType().getShape();
    int64_t numel = op.getLhs().getType().getNumElements();
    return moveThroughSharedMemory(
        op, rewriter, getTypeConverter(), l, {adaptor.getLhs(), adaptor.getRhs()},
        [&](OpBuilder &b, ArrayRef<Value> idx, unsigned) {
          Location loc = op.getLoc();
          Value lin = linearIndex(b, loc, idx.drop_back(), srcShape);
          Value which = LLVM::MulOp::create(b, loc, idx.back(),
                                            i32Const(b, loc, numel));
          return LLVM::AddOp::create(b, loc, lin, which).getResult();
        });
  }
};

struct SplitLowering : KPattern<tt::SplitOp> {
  using KPattern::KPattern;
  LogicalResult
  matchAndRewrite(tt::SplitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcShape = op.getSrc().getType().getShape();
    return moveThroughSharedMemory(
        op, rewriter, getTypeConverter(), l, {adaptor.getSrc()},
        [&](OpBuilder &b, ArrayRef<Value> idx, unsigned result) {
          SmallVector<Value> srcIdx(idx);
          srcIdx.push_back(i32Const(b, op.getLoc(), result));
          return linearIndex(b, op.getLoc(), srcIdx, srcShape);
        });
  }
};

struct CatLowering : KPattern<tt::CatOp> {
  using KPattern::KPattern;
  LogicalResult
  matchAndRewrite(tt::CatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto dstShape = op.getType().getShape();
    // Operands one after the other in row-major order: lhs then rhs along
    // dimension 0 (Triton leaves the order unspecified).
    return moveThroughSharedMemory(
        op, rewriter, getTypeConverter(), l, {adaptor.getLhs(), adaptor.getRhs()},
        [&](OpBuilder &b, ArrayRef<Value> idx, unsigned) {
          return linearIndex(b, op.getLoc(), idx, dstShape);
        });
  }
};

struct GatherLowering : KPattern<tt::GatherOp> {
  using KPattern::KPattern;
  LogicalResult
  matchAndRewrite(tt::GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcShape = op.getSrc().getType().getShape();
    if (op.getIndices().getType().getEncoding() != op.getType().getEncoding())
      return op.emitError() << "gather indices and result must share a layout";
    SmallVector<Value> indexValues =
        unpack(rewriter, op.getLoc(), adaptor.getIndices());
    unsigned axis = op.getAxis();
    unsigned element = 0;
    return moveThroughSharedMemory(
        op, rewriter, getTypeConverter(), l, {adaptor.getSrc()},
        [&](OpBuilder &b, ArrayRef<Value> idx, unsigned) {
          Location loc = op.getLoc();
          SmallVector<Value> srcIdx(idx);
          Value i = indexValues[element++];
          unsigned bits = i.getType().getIntOrFloatBitWidth();
          if (bits > 32)
            i = LLVM::TruncOp::create(b, loc, b.getI32Type(), i);
          else if (bits < 32)
            i = LLVM::SExtOp::create(b, loc, b.getI32Type(), i);
          srcIdx[axis] = i;
          return linearIndex(b, loc, srcIdx, srcShape);
        });
  }
};

/// tt.assert: where any element of the condition is false, the thread
/// calls the CUDA device runtime's `__assertfail(message, file, line,
/// function, charSize)` (the entry point the CUDA C `assert` uses), which
/// stops the kernel with the message. File and line come from the op's
/// location.
struct AssertLowering : KPattern<tt::AssertOp> {
  using KPattern::KPattern;

  static Value globalString(OpBuilder &b, Location loc, ModuleOp module,
                            StringRef prefix, StringRef text) {
    std::string value = text.str();
    value.push_back('\0');
    std::string name =
        (prefix + "_" + llvm::utohexstr(llvm::hash_value(value))).str();
    auto arrayTy = LLVM::LLVMArrayType::get(b.getI8Type(), value.size());
    auto global = module.lookupSymbol<LLVM::GlobalOp>(name);
    if (!global) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(module.getBody());
      global = LLVM::GlobalOp::create(b, loc, arrayTy, /*isConstant=*/true,
                                      LLVM::Linkage::Internal, name,
                                      b.getStringAttr(value), /*alignment=*/1,
                                      /*addrSpace=*/1);
    }
    Value addr = LLVM::AddressOfOp::create(b, loc, global);
    return LLVM::AddrSpaceCastOp::create(
        b, loc, LLVM::LLVMPointerType::get(b.getContext()), addr);
  }

  LogicalResult
  matchAndRewrite(tt::AssertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto module = op->getParentOfType<ModuleOp>();
    Value ok = LLVM::ConstantOp::create(rewriter, loc, rewriter.getI1Type(),
                                        rewriter.getBoolAttr(true));
    for (Value c : unpack(rewriter, loc, adaptor.getCondition()))
      ok = LLVM::AndOp::create(rewriter, loc, ok, c);
    std::string file = "<unknown>";
    int line = 0;
    if (auto flc = dyn_cast<FileLineColLoc>(loc)) {
      file = flc.getFilename().str();
      line = flc.getLine();
    } else if (auto fused = loc->findInstanceOf<FileLineColLoc>()) {
      file = fused.getFilename().str();
      line = fused.getLine();
    }
    // The enclosing function may already be an llvm.func.
    std::string function = "<kernel>";
    if (auto fn = op->getParentOfType<tt::FuncOp>())
      function = fn.getName().str();
    else if (auto llvmFn = op->getParentOfType<LLVM::LLVMFuncOp>())
      function = llvmFn.getName().str();

    // The failing path is the else side of an scf.if, not blocks of its
    // own: the assert may sit in an scf.for / scf.while / scf.if body, whose
    // regions hold one block until scf-to-cf runs after this pass.
    auto ifOp = scf::IfOp::create(rewriter, loc, ok, /*withElse=*/true);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(&ifOp.getElseRegion().front());
    if (l.target->getName() == "amdgpu") {
      // No __assertfail in the ROCm device libraries kiln links: the
      // failing thread traps (s_trap), which aborts the launch; the message
      // is not printed.
      LLVM::Trap::create(rewriter, loc);
      rewriter.eraseOp(op);
      return success();
    }
    auto ptrTy = LLVM::LLVMPointerType::get(rewriter.getContext());
    auto fnTy = LLVM::LLVMFunctionType::get(
        LLVM::LLVMVoidType::get(rewriter.getContext()),
        {ptrTy, ptrTy, rewriter.getI32Type(), ptrTy, rewriter.getI64Type()});
    LLVM::LLVMFuncOp callee =
        lookupOrDeclareFunction(rewriter, loc, module, "__assertfail", fnTy);
    Value args[] = {
        globalString(rewriter, loc, module, "kgpu_assert_msg", op.getMessage()),
        globalString(rewriter, loc, module, "kgpu_assert_file", file),
        i32Const(rewriter, loc, line),
        globalString(rewriter, loc, module, "kgpu_assert_func", function),
        LLVM::ConstantOp::create(rewriter, loc, rewriter.getI64Type(),
                                 rewriter.getI64IntegerAttr(1))};
    LLVM::CallOp::create(rewriter, loc, callee, args);
    rewriter.eraseOp(op);
    return success();
  }
};

/// tt.print (tl.device_print) through the CUDA device runtime's vprintf,
/// one line per element: "pid (x, y, z) idx (i, j)<prefix><value>", the
/// prefix as the TTIR has it (Triton's frontend puts ": " in it), and
/// "(operand k) " before the value where several operands print. Each
/// element prints from its one owner among the threads holding copies; a
/// scalar operand, or a print with none, prints from every thread. The
/// arguments go through a stack buffer laid out as C's varargs are: i32
/// and i64 as they are, narrower integers widened (sign-extended where
/// isSigned says so), floats as double, pointers as %p.
struct PrintLowering : KPattern<tt::PrintOp> {
  using KPattern::KPattern;
  LogicalResult
  matchAndRewrite(tt::PrintOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (l.target->getName() != "nvptx")
      return op.emitError() << "tt.print is not supported by the "
                            << targetLabel(l) << " lowering yet";
    Location loc = op.getLoc();
    auto module = op->getParentOfType<ModuleOp>();
    MLIRContext *ctx = rewriter.getContext();
    auto ptrTy = LLVM::LLVMPointerType::get(ctx);
    Type i32 = rewriter.getI32Type(), i64 = rewriter.getI64Type();
    LLVM::LLVMFuncOp vprintf = lookupOrDeclareFunction(
        rewriter, loc, module, "vprintf",
        LLVM::LLVMFunctionType::get(i32, {ptrTy, ptrTy}));
    std::string prefix;
    for (char c : op.getPrefix()) {
      prefix.push_back(c);
      if (c == '%')
        prefix.push_back('%');
    }
    Value pid[3];
    for (unsigned a = 0; a < 3; ++a)
      pid[a] = l.target->getProgramId(rewriter, loc, a);
    Block *entry = &op->getParentRegion()->front();
    if (auto fn = op->getParentOfType<FunctionOpInterface>())
      entry = &fn.getFunctionBody().front();
    // Prints `fields` (their struct laid out in a buffer made at the
    // function's entry) with `format`.
    auto print = [&](StringRef format, ArrayRef<Value> fields) {
      SmallVector<Type> types;
      for (Value f : fields)
        types.push_back(f.getType());
      auto structTy = LLVM::LLVMStructType::getLiteral(ctx, types);
      Value buffer;
      {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(entry);
        buffer = LLVM::AllocaOp::create(rewriter, loc, ptrTy, structTy,
                                        i32Const(rewriter, loc, 1),
                                        /*alignment=*/8);
      }
      for (auto [i, f] : llvm::enumerate(fields)) {
        Value at = LLVM::GEPOp::create(rewriter, loc, ptrTy, structTy, buffer,
                                       ArrayRef<LLVM::GEPArg>{0, int32_t(i)});
        LLVM::StoreOp::create(rewriter, loc, f, at);
      }
      Value fmt = AssertLowering::globalString(rewriter, loc, module,
                                               "kgpu_printf_fmt", format);
      LLVM::CallOp::create(rewriter, loc, vprintf, ValueRange{fmt, buffer});
    };
    std::string pidFormat = "pid (%u, %u, %u)";
    if (op.getArgs().empty()) {
      print(pidFormat + prefix + "\n", {pid[0], pid[1], pid[2]});
      rewriter.eraseOp(op);
      return success();
    }
    ArrayRef<int32_t> isSigned = op.getIsSigned();
    for (auto [k, arg] : llvm::enumerate(op.getArgs())) {
      Type elem = getElementTypeOrSelf(arg.getType());
      auto tensor = dyn_cast<RankedTensorType>(arg.getType());
      Value conv = adaptor.getArgs()[k];
      SmallVector<Value> values =
          tensor ? unpack(rewriter, loc, conv) : SmallVector<Value>{conv};
      bool signedInt = k < isSigned.size() ? isSigned[k] != 0 : true;
      bool isPtr = isa<tt::PointerType>(elem);
      unsigned bits = isPtr ? 64 : elem.getIntOrFloatBitWidth();
      bool hex = op.getHex() && !isPtr;
      std::string spec;
      if (hex)
        spec = "0x%0" + std::to_string(std::max(1u, bits / 4)) +
               (bits > 32 ? "llx" : "x");
      else if (isa<FloatType>(elem))
        spec = "%f";
      else if (isPtr)
        spec = "%p";
      else if (bits > 32)
        spec = signedInt ? "%lli" : "%llu";
      else
        spec = signedInt ? "%i" : "%u";
      // As Triton 3.6's formats read: each index as wide as the largest
      // along its dimension, "(operand k) " before the value where several
      // operands print, hex zero-padded to the element's width.
      std::string format = pidFormat + " idx (";
      if (tensor)
        for (auto [d, n] : llvm::enumerate(tensor.getShape()))
          format += (d ? ", %" : "%") +
                    std::to_string(
                        std::to_string(std::max<int64_t>(n - 1, 0)).size()) +
                    "u";
      format += ")" + prefix;
      if (op.getArgs().size() > 1)
        format += "(operand " + std::to_string(k) + ") ";
      format += spec + "\n";
      SmallVector<SmallVector<Value>> indices;
      SmallVector<Value> owners;
      if (tensor) {
        indices = emitIndices(rewriter, loc, l, tensor.getEncoding(),
                              tensor.getShape());
        if (layoutReplicates(tensor.getEncoding(), tensor.getShape()))
          owners = ownerPredicates(rewriter, loc, l, tensor.getEncoding(),
                                   tensor.getShape());
      }
      for (auto [i, v] : llvm::enumerate(values)) {
        Type t = v.getType();
        if (hex && isa<FloatType>(t)) {
          // The bits, printed as an integer of the element's width.
          v = LLVM::BitcastOp::create(rewriter, loc,
                                      rewriter.getIntegerType(bits), v);
          t = v.getType();
        }
        if (isa<FloatType>(t))
          v = LLVM::FPExtOp::create(rewriter, loc, rewriter.getF64Type(), v);
        else if (isa<IntegerType>(t) && t.getIntOrFloatBitWidth() < 32)
          v = signedInt && !hex && t.getIntOrFloatBitWidth() > 1
                  ? LLVM::SExtOp::create(rewriter, loc, i32, v).getResult()
                  : LLVM::ZExtOp::create(rewriter, loc, i32, v).getResult();
        else if (isa<IntegerType>(t) && t.getIntOrFloatBitWidth() > 32 &&
                 t.getIntOrFloatBitWidth() != 64)
          v = LLVM::TruncOp::create(rewriter, loc, i64, v);
        SmallVector<Value> fields = {pid[0], pid[1], pid[2]};
        if (tensor)
          fields.append(indices[i].begin(), indices[i].end());
        fields.push_back(v);
        if (owners.empty()) {
          print(format, fields);
          continue;
        }
        auto ifOp =
            scf::IfOp::create(rewriter, loc, owners[i], /*withElse=*/false);
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(&ifOp.getThenRegion().front());
        print(format, fields);
      }
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// Byte offset of element (r, c) of a `rows` x `cols` tile of `bytes`-byte
/// elements in wgmma's 128-byte swizzled arrangement (PTX ISA 9.7.15.5.1,
/// matrix layouts in shared memory, 128B swizzling mode): atoms of 8 rows
/// of 128 bytes (1024 bytes), in which 16-byte chunk j of atom row i is
/// stored at chunk j ^ (i % 8). `kMajor` (A, or B stored N rows of K):
/// rows = M (or N); the columns (K) in blocks of one 128-byte row, each
/// block holding all rows' atoms in order (rows * 128 bytes apart).
/// Otherwise (B stored K rows of N): rows = K; 128-byte column blocks 1024
/// bytes apart, 8-row K groups 1024 * ceil(cols / (128 / bytes)) apart (the
/// last block partly filled where cols is not a multiple of 128 / bytes). The
/// arrangement is 1024-byte aligned (the swizzle reads address bits 4-9).
Value swizzledByteOffset(const IndexMath &im, Value r, Value c, int64_t rows,
                         int64_t cols, unsigned bytes, bool kMajor) {
  // With `rowElems` elements in a 128-byte row (64 of 16 bits, 128 of 8)
  // and `chunkElems` in 16 bytes, chunk (c % rowElems) / chunkElems of
  // atom row `atomRow` goes to chunk ((c % rowElems) / chunkElems) ^
  // (atomRow % 8).
  int64_t rowElems = 128 / bytes, chunkElems = 16 / bytes;
  auto swizzled = [&](Value atomRow, Value c) -> Value {
    Value chunk = LLVM::XOrOp::create(
        im.b, im.loc, im.udiv(im.urem(c, rowElems), chunkElems),
        im.urem(atomRow, 8));
    return im.add(im.add(im.mul(im.urem(atomRow, 8), 128), im.mul(chunk, 16)),
                  im.mul(im.urem(c, chunkElems), bytes));
  };
  if (kMajor)
    return im.add(im.add(im.mul(im.udiv(c, rowElems), rows * 128),
                         im.mul(im.udiv(r, 8), 1024)),
                  swizzled(r, c));
  int64_t rowGroupBytes = 1024 * llvm::divideCeil(cols, rowElems);
  return im.add(im.add(im.mul(im.udiv(c, rowElems), 1024),
                       im.mul(im.udiv(r, 8), rowGroupBytes)),
                swizzled(r, c));
}

/// swizzledByteOffset of the elements `elems` (positions in the thread's
/// register order) of a `layout` tile of `shape`, whose dimension `rowDim`
/// runs along the arrangement's rows (`rows` x `cols`, `bytes`-byte
/// elements, `kMajor` as there). Where the layout's tile divides the shape,
/// element e sits at (R + r_e, C + c_e): the thread's base plus constants
/// (KGPULayouts.h). The swizzle reads only r % 8 and c % (128 / bytes), so
/// with a = r_e % 8 and b = c_e % (128 / bytes),
///   offset(R + r_e, C + c_e) = offset(R + a, C + b)
///                              + (r_e - a) / 8 * (1024 or 1024 * cols / (128 / bytes))
///                              + (c_e - b) / (128 / bytes) * (rows * 128 or 1024),
/// one offset computed per (a, b) class, then an add of a constant per
/// element, instead of the swizzle computed per element. That is fewer
/// instructions, and the addresses reach LLVM as a base plus constants:
/// LLVM's straight-line strength reduction otherwise spends time
/// quadratic in the number of such offsets relating them (flex attention:
/// 28 of its 100 ms of codegen, build machine).
SmallVector<Value> swizzledElementOffsets(const IndexMath &im,
                                          const Lowering &l, Attribute layout,
                                          ArrayRef<int64_t> shape,
                                          ArrayRef<unsigned> elems,
                                          unsigned rowDim, int64_t rows,
                                          int64_t cols, unsigned bytes,
                                          bool kMajor) {
  unsigned colDim = 1 - rowDim;
  SmallVector<Value> out;
  if (layoutWraps(layout, shape)) {
    auto idx = emitIndices(im.b, im.loc, l, layout, shape);
    for (unsigned e : elems)
      out.push_back(swizzledByteOffset(im, idx[e][rowDim], idx[e][colDim],
                                       rows, cols, bytes, kMajor));
    return out;
  }
  SmallVector<Value> base = threadBaseIndices(im.b, im.loc, l, layout);
  int64_t rowElems = 128 / bytes;
  int64_t rowGroupBytes =
      kMajor ? 1024 : 1024 * llvm::divideCeil(cols, rowElems);
  int64_t colBlockBytes = kMajor ? rows * 128 : 1024;
  auto offsets = kgpu::getElemOffsets(layout, shape);
  DenseMap<std::pair<int64_t, int64_t>, Value> classOffset;
  for (unsigned e : elems) {
    int64_t r = offsets[e][rowDim], c = offsets[e][colDim];
    int64_t a = r % 8, b = c % rowElems;
    Value &cls = classOffset[{a, b}];
    if (!cls)
      cls = swizzledByteOffset(im, a ? im.add(base[rowDim], a) : base[rowDim],
                               b ? im.add(base[colDim], b) : base[colDim],
                               rows, cols, bytes, kMajor);
    int64_t constant =
        (r - a) / 8 * rowGroupBytes + (c - b) / rowElems * colBlockBytes;
    out.push_back(constant ? im.add(cls, constant) : cls);
  }
  return out;
}

/// The .b32 register holding the 16-bit A elements `i` and `i` + 1 of N
/// tile `n` in row block `rm` of an accumulator-layout A (`aRegs`: the
/// thread's elements in the layout's register order, 4 per 16x8 tile, K /
/// 8 tiles per row block): two elements of an m16n8k16 (and wgmma
/// m64nNk16) A fragment (PTX ISA 9.7.14.5.8).
Value accLayoutAPair(OpBuilder &b, Location loc, ArrayRef<Value> aRegs,
                     int64_t K, int64_t rm, int64_t n, int64_t i) {
  Type mem = aRegs.front().getType();
  int64_t first = (rm * (K / 8) + n) * 4 + i;
  Value v = LLVM::UndefOp::create(b, loc, VectorType::get({2}, mem));
  v = LLVM::InsertElementOp::create(b, loc, v, aRegs[first],
                                    i32Const(b, loc, 0));
  v = LLVM::InsertElementOp::create(b, loc, v, aRegs[first + 1],
                                    i32Const(b, loc, 1));
  return LLVM::BitcastOp::create(b, loc, b.getI32Type(), v);
}

/// How a tensor-core accumulator layout with `warps` = warpsPerCTA tiles an
/// M x N result in instruction tiles of instrM x instrN (mma.sync m16n8:
/// 16 x 8; MFMA 16x16: 16 x 16), each warp taking `warpTileN` columns
/// (warpTileN / instrN instruction tiles side by side; the mma layout's
/// instrShape[1]): the CTA covers tileM x tileN at once, repM times along
/// M; repN instruction tiles along N, tile j (register order) at column
/// warpN + col(j); this thread's warp starts at row warpM and column warpN
/// of each CTA tile (warps are numbered along M first).
struct WarpTiling {
  int64_t tileM, tileN, repM, repN, instrN, subTiles;
  Value lane, warp, warpM, warpN;

  WarpTiling(OpBuilder &b, Location loc, const Lowering &l,
             ArrayRef<unsigned> warps, int64_t instrM, int64_t instrN,
             int64_t M, int64_t N, int64_t warpTileN = 0)
      : instrN(instrN) {
    unsigned wm = warps[0], wn = warps[1];
    if (warpTileN == 0)
      warpTileN = instrN;
    subTiles = warpTileN / instrN;
    tileM = instrM * wm;
    tileN = warpTileN * wn;
    repM = std::max<int64_t>(1, M / tileM);
    repN = std::max<int64_t>(1, N / tileN) * subTiles;
    std::tie(lane, warp) = laneAndWarp(b, loc, l);
    IndexMath im{b, loc};
    warpM = im.mul(im.urem(warp, wm), instrM);
    warpN = im.mul(im.urem(im.udiv(warp, wm), wn), warpTileN);
  }

  /// Column of instruction tile `j` (register order) from warpN.
  int64_t col(int64_t j) const {
    return j / subTiles * tileN + j % subTiles * instrN;
  }
};

/// The tensor-core part of a dot with an mma.sync (version 2) accumulator:
/// A (`aT`, MxK) and B (`bT`, KxN) of 16-bit elements are in shared memory,
/// row-major with rows padded by 8 elements (16 bytes, so the 8 rows one
/// ldmatrix 8x8 matrix reads fall in distinct bank groups), at byte `aBase`
/// plus `aElemOffset` elements and `bBase` plus `bElemOffset` elements.
/// Each warp reads its fragments with ldmatrix (.trans for B; PTX ISA
/// 9.7.14.5.15) and issues one mma.sync.m16n8k16 (9.7.14.5.8) per 16x8
/// accumulator tile and 16-wide K step. `accIn`: the thread's f32
/// accumulators in the layout's register order; returns the new ones.
/// With `aRegs` (the thread's A elements, A in the accumulator's layout
/// with warps along M only: DotLowering::aSourceOf), A comes from
/// registers instead: the C fragments of N tiles 2k and 2k + 1 are the A
/// fragment of K step k (a0-a3 of tile 2k, a4-a7 of tile 2k + 1; PTX ISA
/// 9.7.14.5.8), and `aBase` / `aElemOffset` are unused.
///
/// f8 A and B (f8E4M3FN / f8E5M2 bytes, both K-contiguous: A rows of K, B
/// N rows of K with `bKMajor`; rows padded by 16 bytes; K a multiple of
/// 32): the same ldmatrix reads, on bytes, take 32 K values per step (each
/// 8x8 b16 matrix is 8 rows of 16 bytes; a thread receives bytes 4t .. 4t
/// + 3 of row g, t = lane % 4, g = lane / 4). Those are upcast to f16 pairs
/// (upcastF8ToF16, exact) and multiplied by two m16n8k16 f16 mma.sync per
/// tile, with the 16 K values of each in a permuted order: register byte
/// pair 0-1 stands for f16 K positions 2t, 2t + 1 and pair 2-3 for 2t + 8,
/// 2t + 9 (a0 a1 / a4 a5 of A, b0 b1 / b2 b3 of B; 9.7.14.5.8). A and B
/// are permuted alike, so every product pairs the same K index and the sum
/// is the dot product's.
SmallVector<Value> emitMmaV2(ConversionPatternRewriter &rewriter, Location loc,
                             const Lowering &l, kgpu::MmaEncodingAttr mma,
                             RankedTensorType aT, RankedTensorType bT,
                             ArrayRef<Value> accIn, int64_t aBase,
                             Value aElemOffset, int64_t bBase,
                             Value bElemOffset, bool bKMajor = false,
                             ArrayRef<Value> aRegs = {}) {
  MLIRContext *ctx = rewriter.getContext();
  int64_t M = aT.getDimSize(0), K = aT.getDimSize(1), N = bT.getDimSize(1);
  Type elem = aT.getElementType();
  bool f8 = isF8UpcastableToF16(elem);
  assert((!f8 || (bKMajor && aRegs.empty() && K % 32 == 0)) &&
         "f8 operands: K-contiguous A and B in shared memory, K % 32 == 0");
  // f16 / bf16 are their own LLVM types; f8 bytes are read as i8.
  Type mem = f8 ? Type(rewriter.getI8Type()) : elem;
  bool bf16 = elem.isBF16();
  unsigned bits = f8 ? 8 : 16;
  int64_t strideA = kgpu::getPaddedRowStride(K, bits),
          strideB = kgpu::getPaddedRowStride(bKMajor ? K : N, bits);
  // Elements per K step (one ldmatrix.x4 of A: 32 bytes of each row) and
  // per half of it (one 8x8 b16 matrix: 16 bytes).
  int64_t kStep = f8 ? 32 : 16, kHalf = kStep / 2;
  WarpTiling t(rewriter, loc, l, mma.getWarpsPerCTA(), 16, 8, M, N,
               mma.getInstrShape()[1]);
  int64_t tileM = t.tileM, tileN = t.tileN, repM = t.repM, repN = t.repN;
  Value lane = t.lane, warpM = t.warpM, warpN = t.warpN;
  // Columns between the two N tiles of one ldmatrix.x4 of B (tiles rn and
  // rn + 1, rn even): the next CTA tile's, or with several tiles a warp
  // (the layout's instrShape[1] > 8) the next 8 columns.
  int64_t pairCols = t.col(1) - t.col(0);
  IndexMath im{rewriter, loc};
  Value lane16 = im.urem(lane, 16);
  Value laneHalf = im.udiv(lane, 16); // 0 for lanes 0-15, 1 for 16-31

  Type i32 = rewriter.getI32Type();
  auto x4 = LLVM::LLVMStructType::getLiteral(ctx, {i32, i32, i32, i32});
  auto shape88 = NVVM::LdStMatrixShapeAttr::get(ctx, 8, 8);
  auto ldmatrix = [&](Value ptr, bool trans) {
    Value r = NVVM::LdMatrixOp::create(
        rewriter, loc, x4, ptr, 4,
        trans ? NVVM::MMALayout::col : NVVM::MMALayout::row, shape88,
        NVVM::LdStMatrixEltType::B16);
    return unpack(rewriter, loc, r);
  };
  // A and B registers in the operand type mma.sync takes.
  Type halfPair = VectorType::get({2}, rewriter.getF16Type());
  auto operandReg = [&](Value r) -> Value {
    return bf16 ? r : LLVM::BitcastOp::create(rewriter, loc, halfPair, r);
  };

  Type f32 = rewriter.getF32Type();
  SmallVector<Value> acc(accIn);
  auto accStruct = LLVM::LLVMStructType::getLiteral(ctx, {f32, f32, f32, f32});
  std::array<NVVM::MMATypes, 2> ptxTypes = {
      bf16 ? NVVM::MMATypes::bf16 : NVVM::MMATypes::f16,
      bf16 ? NVVM::MMATypes::bf16 : NVVM::MMATypes::f16};
  std::array<NVVM::MMALayout, 2> layouts = {NVVM::MMALayout::row,
                                            NVVM::MMALayout::col};

  // Every fragment address is one per-thread base pointer plus a constant
  // (ldmatrix [%r + imm]): rows wrap around M (the `urem`s) only where one
  // CTA tile covers more than the tensor (M < tileM, so repM == 1); with
  // M >= tileM, M is repM * tileM and the rows of every repetition stay in
  // range. (Addresses rebuilt per fragment cost LLVM's straight-line
  // strength reduction most of the codegen time of an attention kernel.)
  auto wrapped = [&](Value x, int64_t tile, int64_t extent) {
    return extent >= tile ? x : im.urem(x, extent);
  };
  auto at = [&](Value basePtr, int64_t elems) {
    return offsetPointer(rewriter, loc, basePtr, mem, elems);
  };
  // A: lane l gives the address of row l % 16, k half l / 16.
  Value aPtr;
  if (aRegs.empty()) {
    Value aRow = wrapped(im.add(warpM, lane16), tileM, M);
    Value aLin = im.add(im.mul(aRow, strideA), im.mul(laneHalf, kHalf));
    aPtr = smemAddress(rewriter, loc, l, aBase, mem, im.add(aLin, aElemOffset));
  }
  // A from registers: two 16-bit elements per .b32 register, as ldmatrix
  // would give them.
  auto aPair = [&](int64_t rm, int64_t n, int64_t i) -> Value {
    return accLayoutAPair(rewriter, loc, aRegs, K, rm, n, i);
  };
  // B, N rows of K (ldmatrix, no .trans): lane l gives the address of row
  // l % 8 of matrix l / 8 = (N tile rn + (l / 8) / 2) x (k half (l / 8) % 2).
  // B, K rows of N (ldmatrix .trans): lane l gives the address of k row
  // l % 16 of N tile rn + l / 16.
  Value bPtr;
  if (bKMajor) {
    Value q = im.udiv(lane, 8);
    Value row = im.add(warpN, im.urem(lane, 8));
    if (repN > 1)
      row = im.add(row, im.mul(im.udiv(q, 2), pairCols));
    row = wrapped(row, tileN, N);
    bPtr = smemAddress(
        rewriter, loc, l, bBase, mem,
        im.add(im.add(im.mul(row, strideB), im.mul(im.urem(q, 2), kHalf)),
               bElemOffset));
  } else {
    Value col = warpN;
    if (repN > 1)
      col = im.add(col, im.mul(laneHalf, pairCols));
    col = wrapped(col, tileN, N);
    bPtr = smemAddress(rewriter, loc, l, bBase, mem,
                       im.add(im.add(im.mul(lane16, strideB), col), bElemOffset));
  }

  // f8: the f16 pairs of byte pairs 0-1 (`high` false) and 2-3 of a
  // register.
  auto upcastPair = [&](Value reg, bool high) -> Value {
    Value bytes = LLVM::BitcastOp::create(
        rewriter, loc, VectorType::get({4}, rewriter.getI8Type()), reg);
    Value pair = LLVM::ShuffleVectorOp::create(
        rewriter, loc, bytes, bytes,
        ArrayRef<int32_t>{high ? 2 : 0, high ? 3 : 1});
    if (Value v = l.target->convertF8x2VectorToF16x2(rewriter, loc, pair, elem))
      return v;
    SmallVector<Value> byteValues, halves;
    for (int64_t i : {0, 1})
      byteValues.push_back(LLVM::ExtractElementOp::create(
          rewriter, loc, pair, i32Const(rewriter, loc, i)));
    halves = upcastF8ToF16(rewriter, loc, *l.target, byteValues, elem);
    Value v = LLVM::UndefOp::create(rewriter, loc, halfPair);
    for (int64_t i : {0, 1})
      v = LLVM::InsertElementOp::create(rewriter, loc, v, halves[i],
                                        i32Const(rewriter, loc, i));
    return v;
  };

  for (int64_t kk = 0; kk < K / kStep; ++kk) {
    // A fragments: matrices (rows 0-7 | 8-15) x (k 0-7 | 8-15) (f8: k
    // 0-15 | 16-31).
    SmallVector<SmallVector<Value>> aFrag;
    for (int64_t rm = 0; rm < repM; ++rm) {
      if (!aRegs.empty()) {
        aFrag.push_back({aPair(rm, 2 * kk, 0), aPair(rm, 2 * kk, 2),
                         aPair(rm, 2 * kk + 1, 0), aPair(rm, 2 * kk + 1, 2)});
        continue;
      }
      aFrag.push_back(ldmatrix(at(aPtr, rm * tileM * strideA + kk * kStep),
                               /*trans=*/false));
    }
    // B fragments, two N tiles per ldmatrix.x4 (.trans where B is stored
    // K rows of N).
    SmallVector<std::array<Value, 2>> bFrag(repN);
    for (int64_t rn = 0; rn < repN; rn += 2) {
      // bKMajor: matrices (N tile rn | rn + 1) x (k 0-7 | 8-15);
      // otherwise k rows kk * 16 .. + 15 of N tiles rn and rn + 1.
      int64_t offset = bKMajor ? t.col(rn) * strideB + kk * kStep
                               : kk * 16 * strideB + t.col(rn);
      auto r = ldmatrix(at(bPtr, offset), /*trans=*/!bKMajor);
      bFrag[rn] = {r[0], r[1]};
      if (rn + 1 < repN)
        bFrag[rn + 1] = {r[2], r[3]};
    }
    // f8: two m16n8k16 per tile and K step, K half j from A registers 2j
    // (rows g) and 2j + 1 (rows g + 8) and B register j, each upcast once.
    SmallVector<SmallVector<SmallVector<Value>>> aF8(repM), bF8(repN);
    if (f8) {
      for (int64_t rm = 0; rm < repM; ++rm)
        for (int j : {0, 1}) {
          ArrayRef<Value> r = aFrag[rm];
          aF8[rm].push_back(
              {upcastPair(r[2 * j], false), upcastPair(r[2 * j + 1], false),
               upcastPair(r[2 * j], true), upcastPair(r[2 * j + 1], true)});
        }
      for (int64_t rn = 0; rn < repN; ++rn)
        for (int j : {0, 1})
          bF8[rn].push_back({upcastPair(bFrag[rn][j], false),
                             upcastPair(bFrag[rn][j], true)});
    }
    for (int64_t rm = 0; rm < repM; ++rm)
      for (int64_t rn = 0; rn < repN; ++rn) {
        unsigned first = unsigned((rm * repN + rn) * 4);
        auto mmaSync = [&](ArrayRef<Value> a, ArrayRef<Value> b) {
          SmallVector<Value> c(acc.begin() + first, acc.begin() + first + 4);
          Value d = NVVM::MmaOp::create(
              rewriter, loc, accStruct, a, b, c, ArrayRef<int64_t>{16, 8, 16},
              std::nullopt, std::nullopt, ptxTypes, layouts);
          for (auto [i, v] : llvm::enumerate(unpack(rewriter, loc, d)))
            acc[first + i] = v;
        };
        if (f8) {
          for (int j : {0, 1})
            mmaSync(aF8[rm][j], bF8[rn][j]);
          continue;
        }
        SmallVector<Value> a, b;
        for (Value r : aFrag[rm])
          a.push_back(operandReg(r));
        for (Value r : bFrag[rn])
          b.push_back(operandReg(r));
        mmaSync(a, b);
      }
  }
  return acc;
}

/// The tensor-core part of a tf32 dot with an mma.sync (version 2)
/// accumulator: A (`aT`, MxK) and B (`bT`, KxN) of f32 are in shared memory
/// at byte `aBase` / `bBase` plus `aOff` / `bOff` elements (a pipelined
/// loop's slot; i32), row-major with rows of `strideA` / `strideB`
/// elements (kgpu::getPaddedRowStride: 8 elements of padding where tt.dot
/// stages them; in a pipeline's slots 4 for A and 8 for B).
/// Per 8-wide K step each warp loads its operand fragments element by
/// element where kgpu::getMmaTf32OperandFragment puts them (A: 4 .b32
/// registers per 16x8 tile, B: 2 per 8x8 tile; PTX ISA 9.7.14.5.7), rounds
/// them to tf32 (cvt.rna.tf32.f32, TargetInfo::roundToTF32) and issues
/// mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 per 16x8 accumulator
/// tile. With `threePass` (inputPrecision tf32x3) each operand x is split
/// into hi = tf32(x) and lo = tf32(x - hi) (x - hi is exact in f32) and
/// the tile takes three mma.sync, small terms first: a_lo * b_hi, a_hi *
/// b_lo, a_hi * b_hi (a_lo * b_lo, below f32's precision, is left out).
/// `accIn`: the thread's f32 accumulators in the layout's register order;
/// returns the new ones.
SmallVector<Value> emitMmaTf32(ConversionPatternRewriter &rewriter,
                               Location loc, const Lowering &l,
                               kgpu::MmaEncodingAttr mma, RankedTensorType aT,
                               RankedTensorType bT, ArrayRef<Value> accIn,
                               int64_t aBase, Value aOff, int64_t strideA,
                               int64_t bBase, Value bOff, int64_t strideB,
                               bool threePass) {
  MLIRContext *ctx = rewriter.getContext();
  int64_t M = aT.getDimSize(0), K = aT.getDimSize(1), N = bT.getDimSize(1);
  Type f32 = rewriter.getF32Type(), i32 = rewriter.getI32Type();
  WarpTiling t(rewriter, loc, l, mma.getWarpsPerCTA(), 16, 8, M, N,
               mma.getInstrShape()[1]);
  int64_t tileM = t.tileM, repM = t.repM, repN = t.repN;
  Value lane = t.lane, warpM = t.warpM, warpN = t.warpN;
  IndexMath im{rewriter, loc};
  Value group = im.udiv(lane, 4), thread = im.urem(lane, 4);
  auto fragmentIndex = [&](int64_t perGroup, int64_t perThread,
                           int64_t constant) {
    return im.add(im.add(im.mul(group, perGroup), im.mul(thread, perThread)),
                  constant);
  };
  // hi (and lo) parts of one operand element, as the i32 bits mma.sync
  // takes for .tf32.
  auto split = [&](Value x) -> std::pair<Value, Value> {
    Value hi = l.target->roundToTF32(rewriter, loc, x);
    Value lo;
    if (threePass)
      lo = LLVM::BitcastOp::create(
          rewriter, loc, i32,
          l.target->roundToTF32(rewriter, loc,
                                LLVM::FSubOp::create(rewriter, loc, x, hi)));
    return {LLVM::BitcastOp::create(rewriter, loc, i32, hi), lo};
  };

  SmallVector<Value> acc(accIn);
  auto accStruct = LLVM::LLVMStructType::getLiteral(ctx, {f32, f32, f32, f32});
  std::array<NVVM::MMATypes, 2> ptxTypes = {NVVM::MMATypes::tf32,
                                            NVVM::MMATypes::tf32};
  std::array<NVVM::MMALayout, 2> layouts = {NVVM::MMALayout::row,
                                            NVVM::MMALayout::col};
  auto fragA = kgpu::getMmaTf32OperandFragment(0);
  auto fragB = kgpu::getMmaTf32OperandFragment(1);
  for (int64_t k0 = 0; k0 < K; k0 += 8) {
    // [rm][register] (hi, lo) of A, [rn][register] of B.
    SmallVector<SmallVector<std::pair<Value, Value>>> aFrag(repM), bFrag(repN);
    for (int64_t rm = 0; rm < repM; ++rm)
      for (const kgpu::FragmentElement &f : fragA) {
        Value row = im.urem(
            im.add(im.add(warpM, rm * tileM),
                   fragmentIndex(f.rowPerGroup, f.rowPerThread, f.row)),
            M);
        Value col = fragmentIndex(f.colPerGroup, f.colPerThread, k0 + f.col);
        Value x = LLVM::LoadOp::create(
            rewriter, loc, f32,
            smemAddress(rewriter, loc, l, aBase, f32,
                        im.add(im.add(im.mul(row, strideA), col), aOff)));
        aFrag[rm].push_back(split(x));
      }
    for (int64_t rn = 0; rn < repN; ++rn)
      for (const kgpu::FragmentElement &f : fragB) {
        Value row = fragmentIndex(f.rowPerGroup, f.rowPerThread, k0 + f.row);
        Value col = im.urem(
            im.add(im.add(warpN, t.col(rn)),
                   fragmentIndex(f.colPerGroup, f.colPerThread, f.col)),
            N);
        Value x = LLVM::LoadOp::create(
            rewriter, loc, f32,
            smemAddress(rewriter, loc, l, bBase, f32,
                        im.add(im.add(im.mul(row, strideB), col), bOff)));
        bFrag[rn].push_back(split(x));
      }
    auto part = [](ArrayRef<std::pair<Value, Value>> frag, bool lo) {
      SmallVector<Value> regs;
      for (auto [hi, low] : frag)
        regs.push_back(lo ? low : hi);
      return regs;
    };
    for (int64_t rm = 0; rm < repM; ++rm)
      for (int64_t rn = 0; rn < repN; ++rn) {
        unsigned first = unsigned((rm * repN + rn) * 4);
        SmallVector<Value> c(acc.begin() + first, acc.begin() + first + 4);
        // (A part, B part) per mma.sync: lo = true for the low part.
        SmallVector<std::pair<bool, bool>> passes = {{false, false}};
        if (threePass)
          passes = {{true, false}, {false, true}, {false, false}};
        for (auto [aLo, bLo] : passes) {
          Value d = NVVM::MmaOp::create(
              rewriter, loc, accStruct, part(aFrag[rm], aLo),
              part(bFrag[rn], bLo), c, ArrayRef<int64_t>{16, 8, 8},
              std::nullopt, std::nullopt, ptxTypes, layouts);
          c = unpack(rewriter, loc, d);
        }
        for (auto [i, v] : llvm::enumerate(c))
          acc[first + i] = v;
      }
  }
  return acc;
}

/// tt.dot on CUDA cores: A and B go to shared memory (row-major), then a
/// loop over K multiplies into the accumulator elements each thread holds,
/// in f32 (i32 for i8 operands). Any operand and accumulator layout works.
/// f32 operands with inputPrecision = tf32 are rounded to tf32 first
/// (cvt.rna.tf32.f32), as tensor cores would see them. Correct for every
/// shape the verifier accepts. A dot whose accumulator has the mma.sync
/// layout (kgpu-assign-layouts mma-version=2) or an MFMA one runs on
/// tensor cores instead (lowerMmaV2, lowerMfma) where the instruction can
/// compute it (onTensorCores).
/// One asm statement `text` whose outputs are tied to the 32-bit registers
/// `regs` ("=r" outputs, inputs tied to them); returns the outputs. LLVM
/// keeps every read of those registers after it and copies none of them
/// across it.
SmallVector<Value> tiedAsm(OpBuilder &b, Location loc, ArrayRef<Value> regs,
                           StringRef text) {
  std::string constraints;
  for (size_t i = 0; i < regs.size(); ++i)
    constraints += "=r,";
  for (size_t i = 0; i < regs.size(); ++i)
    constraints += std::to_string(i) + (i + 1 < regs.size() ? "," : "");
  SmallVector<Type> types;
  for (Value r : regs)
    types.push_back(r.getType());
  Type resultTy = LLVM::LLVMStructType::getLiteral(b.getContext(), types);
  auto asmOp = LLVM::InlineAsmOp::create(
      b, loc, resultTy, regs, text, constraints,
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      ArrayAttr());
  return unpack(b, loc, asmOp.getResult(0));
}

/// K steps of a wgmma with A in registers issued between waits, for
/// `blocks` 64-row blocks per warpgroup: each K step of a block reads four
/// A registers, which must keep their values until a wgmma.wait_group
/// retires it (PTX ISA 9.7.15.5.2); at most 32 such registers are in
/// flight. Fewer registers for ptxas to keep: on the corpus flex attention
/// kernel (2 blocks, K 128: a wait after 4 of the 8 steps; with the scale-d
/// 0 of emitWgmmaMultiply's zeroAcc) ptxas ran 815 -> 653 ms on the H200
/// and the kernel 36.50 -> 36.17 us (docs/BENCHMARKS.md, sixteenth
/// session).
int64_t registerAStepsInFlight(int64_t blocks) {
  return std::max<int64_t>(1, 32 / (4 * blocks));
}

/// Whether `acc` is a constant 0 (a splat of +0.0 or -0.0), which a wgmma
/// need not read. (With scale-d 0 an element whose products sum to -0.0
/// stays -0.0, where +0.0 + -0.0 gave +0.0; Triton's zero accumulators
/// take scale-d 0 the same way.)
bool isZeroAccumulator(Value acc) {
  return matchPattern(acc, m_AnyZeroFloat());
}

/// K steps of a multiply through descriptors per inline asm statement
/// (emitWgmmaGroup). The statement reads every step's descriptors, so all
/// of them are computed before it: with the 16 K steps of four 64-row
/// blocks (K 256, 256 rows on 4 warps) in one statement ptxas spilled 872
/// bytes instead of 624, with 8 steps of an f8 multiply 924 instead of 872
/// (helper-68's kernels, build machine). With at most 4 every such kernel
/// tried kept its cubin, and matmul_kernel's 4 K steps and flex attention's
/// 4 steps of 2 blocks are still one statement.
constexpr int64_t kWgmmaKStepsPerStatement = 4;

/// One wgmma.mma_async of a multiply: the 64-row block it accumulates
/// into, whether it has scale-d 0 (the block's first K step on a constant-0
/// accumulator), A's matrix descriptor or its four registers, and B's
/// descriptor.
struct WgmmaStep {
  int64_t block;
  bool zeroScale;
  Value descA;
  SmallVector<Value, 4> aRegs;
  Value descB;
};

/// The wgmmas `steps`, issued with no commit or wait between them, as one
/// inline asm in their order, on the accumulators `acc` (`perBlock` per
/// 64-row block, blocks in turn), which it updates. The statement's
/// results are the accumulators of the blocks the steps touch, each block's
/// tied to its inputs unless its first step here has scale-d 0 (then only
/// written). Each step's text is what NVVM's wgmma.mma_async op prints, or
/// with A in registers the register form (PTX ISA 9.7.15.5.2: d, a-desc or
/// {a}, b-desc, scale-d, imm-scale-a, imm-scale-b, and for 16-bit A and B
/// imm-trans-a (descriptor A only) and imm-trans-b). One statement instead
/// of one per step: LLVM's codegen parses an inline asm's constraints and
/// matches its tied operands per statement, and the accumulators are not
/// taken apart and put together again between steps. With a multiply's
/// descriptor K steps in one statement, kiln's own instructions for the
/// corpus matmul_kernel went 883 -> 736 million and for flex attention
/// 1526 -> 1316 million (callgrind, build machine), their cubins unchanged
/// (docs/BENCHMARKS.md, twenty-ninth session).
void emitWgmmaGroup(ConversionPatternRewriter &rewriter, Location loc,
                    ArrayRef<WgmmaStep> steps, MutableArrayRef<Value> acc,
                    int64_t perBlock, int64_t nInstr, int64_t kStep,
                    NVVM::WGMMATypes type, bool aMMajor, bool bKMajor) {
  if (steps.empty())
    return;
  MLIRContext *ctx = rewriter.getContext();
  int64_t blocks = int64_t(acc.size()) / perBlock;
  StringRef typeName = NVVM::stringifyWGMMATypes(type);
  bool transposable =
      type == NVVM::WGMMATypes::f16 || type == NVVM::WGMMATypes::bf16;
  // The blocks touched, in block order (their results' place in the
  // statement), and whether each one's first step here reads its
  // accumulators (tied) or has scale-d 0.
  SmallVector<bool> seen(blocks, false), firstScaled(blocks, false);
  bool anyZero = false, allZero = true;
  for (const WgmmaStep &step : steps) {
    anyZero |= step.zeroScale;
    allZero &= step.zeroScale;
    if (!seen[step.block])
      firstScaled[step.block] = !step.zeroScale;
    seen[step.block] = true;
  }
  SmallVector<int64_t> touched, slot(blocks, -1);
  for (int64_t blk = 0; blk < blocks; ++blk)
    if (seen[blk]) {
      slot[blk] = touched.size();
      touched.push_back(blk);
    }
  int64_t n = int64_t(touched.size()) * perBlock;
  // scale-d: p, or where the steps differ, p (1) and q (0).
  bool mixed = anyZero && !allZero;
  std::string text, constraints;
  llvm::raw_string_ostream os(text);
  os << "{\n.reg .pred p;\nsetp.ne.b32 p, " << (allZero ? 0 : 1) << ", 0;\n";
  if (mixed)
    os << ".reg .pred q;\nsetp.ne.b32 q, 0, 0;\n";
  SmallVector<Value> operands;
  for (int64_t i = 0; i < n; ++i)
    constraints += "=f,";
  for (int64_t i = 0; i < n; ++i)
    if (firstScaled[touched[i / perBlock]]) {
      operands.push_back(acc[touched[i / perBlock] * perBlock + i % perBlock]);
      constraints += std::to_string(i) + ",";
    }
  // Inputs are numbered after the n outputs.
  auto input = [&](Value v, StringRef constraint) {
    os << "$" << n + operands.size();
    operands.push_back(v);
    constraints += constraint;
    constraints += ",";
  };
  for (const WgmmaStep &step : steps) {
    os << "wgmma.mma_async.sync.aligned.m64n" << nInstr << "k" << kStep
       << ".f32." << typeName << "." << typeName << " {";
    for (int64_t i = 0; i < perBlock; ++i)
      os << (i ? ", $" : "$") << slot[step.block] * perBlock + i;
    os << "}, ";
    StringRef scale = mixed && step.zeroScale ? "q" : "p";
    if (step.descA) {
      input(step.descA, "l");
      os << ", ";
      input(step.descB, "l");
      os << ", " << scale << ", 1,  1";
      if (transposable)
        os << ", " << (aMMajor ? 1 : 0) << ",  " << (bKMajor ? 0 : 1);
    } else {
      os << "{";
      for (auto [i, reg] : llvm::enumerate(step.aRegs)) {
        os << (i ? ", " : "");
        input(reg, "r");
      }
      os << "}, ";
      input(step.descB, "l");
      os << ", " << scale << ", 1, 1, " << (bKMajor ? 0 : 1);
    }
    os << ";\n";
  }
  os << "}";
  constraints.pop_back();
  SmallVector<Type> accTypes(n, rewriter.getF32Type());
  Value result =
      LLVM::InlineAsmOp::create(
          rewriter, loc, LLVM::LLVMStructType::getLiteral(ctx, accTypes),
          operands, text, constraints, /*has_side_effects=*/true,
          /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
          LLVM::AsmDialectAttr::get(ctx, LLVM::AsmDialect::AD_ATT),
          ArrayAttr())
          .getResult(0);
  SmallVector<Value> out = unpack(rewriter, loc, result);
  for (auto [i, blk] : llvm::enumerate(touched))
    llvm::copy(ArrayRef<Value>(out).slice(i * perBlock, perBlock),
               acc.begin() + blk * perBlock);
}

/// wgmma.mma_async m64nNk16 (PTX ISA 9.7.15.5; f8: m64nNk32) per K step of 32
/// bytes for this thread's warpgroup (rows 64 * (warp / 4) ... of every block
/// of 16 * warps rows: one wgmma per block, on the block's chunk of the
/// accumulators `accIn`, which the #kgpu.mma layout with warps along M orders
/// block by block, in the order of wgmma's D fragments, 9.7.15.5.1). B through
/// a shared-memory matrix descriptor (9.7.15.5.1.1: start address, leading and
/// stride byte offsets, all >> 4; 128-byte swizzle = 1 in bits 62-63) at the
/// i64 shared address `bStart`: N-major (64-column blocks 1024 bytes apart =
/// leading offset, 8-row K groups 1024 * ceil(N / 64) apart = stride offset; an
/// N of 32 half fills its block, wgmma reading the first 64 bytes of each
/// swizzled row) or K-major with `bKMajor` (stored N rows of K, like A). A
/// either through a descriptor at `aStart` (this warpgroup's first row;
/// K-major: rows of 64 elements, 8-row atoms 1024 bytes apart, K steps by
/// advancing the start address 32 bytes inside the atom; M-major with
/// `aMMajor`: stored K rows of M like an N-major B, the warpgroup's 64 rows one
/// column block, imm-trans-a set), or, with `aRegs` (16-bit A in the
/// accumulator's layout; `aStart` null), from registers: the four .b32
/// registers of each 16-row, 16-wide K fragment are an m16n8k16 A fragment
/// (9.7.15.5.1, register fragments for A), as accLayoutAPair packs them. With
/// the layout's warps along N too, each wgmma is m64n(N / warps along N),
/// on the warpgroup's part of B at `bStart`. With `zeroAcc` (the accumulator
/// is a constant 0), the first K step's wgmmas have scale-d 0 (D = A x B,
/// 9.7.15.5.2) and `accIn` is not read: no register is zeroed for it. Begins
/// with wgmma.fence (with `tieAFirst`, kWgmmaPackAFirstAttr, every A register
/// packed before it and tied through it); the caller commits the group and
/// waits for it. With A
/// in registers, every registerAStepsInFlight(blocks) K steps but the last
/// are committed and waited for on the way (see there). The wgmmas go K
/// step by K step over the 64-row blocks, or block by block with
/// `blockMajor` (kWgmmaBlockMajorAttr) or packRegisterAFirst; through
/// descriptors kWgmmaKStepsPerStatement K steps per inline asm statement,
/// with A in registers one statement each (emitWgmmaGroup).
SmallVector<Value> emitWgmmaMultiply(ConversionPatternRewriter &rewriter,
                                     Location loc, kgpu::MmaEncodingAttr mma,
                                     RankedTensorType aT, RankedTensorType bT,
                                     ArrayRef<Value> accIn, Value aStart,
                                     ArrayRef<Value> aRegs, Value bStart,
                                     bool bKMajor, bool aMMajor = false,
                                     bool zeroAcc = false,
                                     bool blockMajor = false,
                                     bool tieAFirst = false) {
  int64_t M = aT.getDimSize(0), K = aT.getDimSize(1), N = bT.getDimSize(1);
  // The columns one wgmma computes: all of N, or with warps along N too the
  // warpgroup's part (`bStart` at it; the strides are the whole tile's).
  int64_t nInstr = N / mma.getWarpsPerCTA()[1];
  Type i64 = rewriter.getI64Type();
  auto c64 = [&](int64_t v) -> Value {
    return LLVM::ConstantOp::create(rewriter, loc, i64,
                                    rewriter.getI64IntegerAttr(v));
  };
  auto addI = [&](Value a, Value b) -> Value {
    return LLVM::AddOp::create(rewriter, loc, a, b);
  };
  auto descriptor = [&](Value addr, int64_t lbo, int64_t sbo) -> Value {
    Value a = LLVM::LShrOp::create(
        rewriter, loc, LLVM::AndOp::create(rewriter, loc, addr, c64(0x3FFFF)),
        c64(4));
    int64_t fields = ((lbo >> 4) & 0x3FFF) << 16 |
                     (((sbo >> 4) & 0x3FFF) << 32) | (int64_t(1) << 62);
    return LLVM::OrOp::create(rewriter, loc, a, c64(fields));
  };
  // One descriptor per operand, at its start; every (K step, block) adds
  // its byte offset >> 4 to it. The start-address field (bits 0-13) holds
  // address >> 4 of an 18-bit shared address, and the operands lie within
  // the kernel's shared memory (at most 227 KB on sm_90), so the sum never
  // carries out of the field: the descriptor of the offset address, at one
  // 64-bit add instead of an add, shift, and and or each.
  Value descA0 = !aStart   ? Value()
                 : aMMajor ? descriptor(aStart, 1024, 1024 * (M / 64))
                           : descriptor(aStart, 16, 1024);
  int64_t bGroupBytes = 1024 * llvm::divideCeil(N, 64);
  Value descB0 = bKMajor ? descriptor(bStart, 16, 1024)
                         : descriptor(bStart, 1024, bGroupBytes);
  auto offsetDescriptor = [&](Value desc, int64_t bytes) -> Value {
    assert(bytes % 16 == 0 && "matrix descriptor offsets are 16-byte units");
    return bytes == 0 ? desc : addI(desc, c64(bytes >> 4));
  };
  int64_t blockRows = 16 * mma.getWarpsPerCTA()[0];
  int64_t blocks = M / blockRows;
  int64_t perBlock = int64_t(accIn.size()) / blocks;
  // f16 / bf16: m64nNk16; f8 (e4m3 / e5m2, A and B K-major): m64nNk32;
  // tf32 (f32 slots, A and B K-major): m64nNk8. Each way a K step is 32
  // bytes of each row.
  Type elem = aT.getElementType();
  NVVM::WGMMATypes wgmmaType =
      elem.isBF16()                  ? NVVM::WGMMATypes::bf16
      : isa<Float8E4M3FNType>(elem) ? NVVM::WGMMATypes::e4m3
      : isa<Float8E5M2Type>(elem)   ? NVVM::WGMMATypes::e5m2
      : elem.isF32()                ? NVVM::WGMMATypes::tf32
                                    : NVVM::WGMMATypes::f16;
  int64_t bytes = bitWidth(elem) / 8, kStep = 32 / bytes;
  assert((aRegs.empty() || bytes == 2) &&
         "wgmma with A in registers: 16-bit A");
  // A in registers: the four .b32 registers of (block, K step), packed
  // next to its wgmma, or all before the fence (packFirst).
  bool packFirst = !aRegs.empty() &&
                   (tieAFirst || packRegisterAFirst(accIn.size(), aRegs.size()));
  auto packA = [&](int64_t blk, int64_t k0) {
    SmallVector<Value, 4> regs;
    int64_t kk = k0 / 16;
    for (auto [n, i] : {std::pair<int64_t, int64_t>{2 * kk, 0},
                        {2 * kk, 2},
                        {2 * kk + 1, 0},
                        {2 * kk + 1, 2}})
      regs.push_back(accLayoutAPair(rewriter, loc, aRegs, K, blk, n, i));
    return regs;
  };
  // The wgmmas in turn: K steps outermost, or with packFirst or
  // blockMajor each block's K steps in turn (and with packFirst A packed,
  // in that order, before the fence).
  int64_t steps = K / kStep;
  bool byBlock = packFirst || blockMajor;
  auto stepAndBlock = [&](int64_t i) {
    return byBlock ? std::make_pair(i % steps * kStep, i / steps)
                   : std::make_pair(i / blocks * kStep, i % blocks);
  };
  SmallVector<SmallVector<Value, 4>> packed;
  if (packFirst)
    for (int64_t i = 0; i < steps * blocks; ++i) {
      auto [k0, blk] = stepAndBlock(i);
      packed.push_back(packA(blk, k0));
    }
  int64_t stepsPerGroup = registerAStepsInFlight(blocks);
  if (tieAFirst && !packed.empty()) {
    // The fence ties every packed A register (kWgmmaPackAFirstAttr).
    SmallVector<Value> flat;
    for (ArrayRef<Value> regs : packed)
      llvm::append_range(flat, regs);
    SmallVector<Value> tied =
        tiedAsm(rewriter, loc, flat, "wgmma.fence.sync.aligned;");
    size_t at = 0;
    for (SmallVector<Value, 4> &regs : packed)
      for (Value &r : regs)
        r = tied[at++];
  } else {
    NVVM::WgmmaFenceAlignedOp::create(rewriter, loc);
  }
  // Through descriptors, the wgmmas go out as inline asm statements of up
  // to kWgmmaKStepsPerStatement K steps (emitWgmmaGroup). With A in
  // registers each is a statement of its own, packed next to its
  // registers: one statement for the registers of several steps packed
  // before it made ptxas's code for attention's P @ V slower (flex
  // attention 36.47 -> 38.60 us; docs/BENCHMARKS.md, twenty-ninth
  // session).
  SmallVector<Value> acc(accIn);
  SmallVector<WgmmaStep> group;
  int64_t groupChunk = -1;
  auto flush = [&] {
    emitWgmmaGroup(rewriter, loc, group, acc, perBlock, nInstr, kStep,
                   wgmmaType, aMMajor, bKMajor);
    group.clear();
  };
  for (int64_t i = 0; i < steps * blocks; ++i) {
    auto [k0, blk] = stepAndBlock(i);
    // With A in registers packed next to each wgmma, the groups issued so
    // far are done before the next registerAStepsInFlight K steps start.
    if (!aRegs.empty() && !packFirst && blk == 0 && k0 > 0 &&
        (k0 / kStep) % stepsPerGroup == 0) {
      NVVM::WgmmaGroupSyncAlignedOp::create(rewriter, loc);
      NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, 0);
    }
    // Through descriptors, a statement holds at most
    // kWgmmaKStepsPerStatement K steps (of every block, or with byBlock of
    // one block).
    int64_t chunk = (k0 / kStep) / kWgmmaKStepsPerStatement;
    if (byBlock)
      chunk += blk * steps;
    if (!group.empty() && chunk != groupChunk)
      flush();
    groupChunk = chunk;
    WgmmaStep &step = group.emplace_back();
    step.block = blk;
    step.zeroScale = k0 == 0 && zeroAcc;
    int64_t kb = k0 * bytes; // byte offset of the K step in a row
    if (!aRegs.empty()) {
      step.aRegs = packFirst ? packed[i] : packA(blk, k0);
    } else {
      // A rows start at blk * blockRows (+ the warpgroup's 64): 128 bytes
      // per row in the 8-row atoms. M-major A (stored K rows of M, like an
      // N-major B): 64-row column blocks 1024 bytes apart, 8-row K groups
      // 1024 * M / 64 apart.
      step.descA = offsetDescriptor(
          descA0, aMMajor ? (k0 / 8) * 1024 * (M / 64) +
                                blk * (blockRows / 64) * 1024
                          : (kb / 128) * M * 128 + kb % 128 +
                                blk * blockRows * 128);
    }
    // B N-major: 64-column blocks 1024 bytes apart (leading offset), 8-row
    // K groups 1024 * ceil(N / 64) apart (stride offset). B K-major (stored N
    // rows of K, like A): 8-row N groups 1024 bytes apart.
    step.descB = offsetDescriptor(descB0, bKMajor
                                              ? (kb / 128) * N * 128 + kb % 128
                                              : (k0 / 8) * bGroupBytes);
    if (!aRegs.empty())
      flush();
  }
  flush();
  return acc;
}

struct DotLowering : KPattern<tt::DotOp> {
  using KPattern::KPattern;
  LogicalResult
  matchAndRewrite(tt::DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto aT = op.getA().getType(), bT = op.getB().getType();
    auto cT = op.getC().getType();
    if (aT.getRank() != 2)
      return op.emitError() << "batched (3-D) tt.dot is not supported by the "
                               "" << targetLabel(l) << " lowering yet";
    Type elem = aT.getElementType();
    bool isInt = elem.isInteger(8);
    if (!(elem.isF16() || elem.isBF16() || elem.isF32() || elem.isF64() ||
          isInt) ||
        bT.getElementType() != elem)
      return op.emitError() << "tt.dot on " << elem << " x "
                            << bT.getElementType()
                            << " operands is not supported by the " << targetLabel(l)
                            << " lowering yet";
    auto offsetAttr = op->getAttrOfType<IntegerAttr>(kSmemOffsetAttr);
    if (!offsetAttr || !l.smem)
      return op.emitError() << "internal error: no shared memory assigned";
    int64_t M = aT.getDimSize(0), K = aT.getDimSize(1);
    Type mem = getTypeConverter()->convertType(elem);
    int64_t base = offsetAttr.getInt();
    if (op->hasAttr(kWgmmaDotAttr))
      return lowerWgmma(op, adaptor, rewriter, base);
    if (onTensorCores(op))
      return kgpu::isMmaV2(cT.getEncoding())
                 ? lowerMmaV2(op, adaptor, rewriter, base)
                 : lowerMfma(op, adaptor, rewriter, base);

    // 1. A at [0, M*SA), B at [M*SA, M*SA + K*SB), rows of SA and SB
    // elements (cudaCoreDotStrides).
    auto [SA, SB] = cudaCoreDotStrides(aT, bT, bitWidth(mem) / 8,
                                       op->hasAttr(kPaddedRowsAttr));
    if (l.smemShared || mayRunAgain(op))
      l.target->barrier(rewriter, loc);
    auto store = [&](Value converted, RankedTensorType type, int64_t first,
                     int64_t stride) {
      SmallVector<Value> vals = unpack(rewriter, loc, converted);
      SmallVector<Value> addrs = elementAddresses(
          rewriter, loc, l, type.getEncoding(), type.getShape(), {stride, 1},
          base + first * int64_t(bitWidth(mem) / 8), mem);
      for (auto [i, addr] : llvm::enumerate(addrs))
        LLVM::StoreOp::create(rewriter, loc, vals[i], addr);
    };
    store(adaptor.getA(), aT, 0, SA);
    store(adaptor.getB(), bT, M * SA, SB);
    l.target->barrier(rewriter, loc);

    // 2. The accumulator elements of this thread, grouped by row and column.
    auto cIdx = emitIndices(rewriter, loc, l, cT.getEncoding(), cT.getShape());
    auto cOff = kgpu::getElemOffsets(cT.getEncoding(), cT.getShape());
    SmallVector<int64_t> rowKeys, colKeys;
    SmallVector<Value> rowIdx, colIdx;
    SmallVector<unsigned> rowOf, colOf;
    for (auto [e, off] : llvm::enumerate(cOff)) {
      auto r = llvm::find(rowKeys, off[0]);
      if (r == rowKeys.end()) {
        rowKeys.push_back(off[0]);
        rowIdx.push_back(cIdx[e][0]);
        r = rowKeys.end() - 1;
      }
      rowOf.push_back(r - rowKeys.begin());
      auto c = llvm::find(colKeys, off[1]);
      if (c == colKeys.end()) {
        colKeys.push_back(off[1]);
        colIdx.push_back(cIdx[e][1]);
        c = colKeys.end() - 1;
      }
      colOf.push_back(c - colKeys.begin());
    }
    // f64 operands (tl.dot on float64; no tensor core takes them here)
    // multiply-add in f64 on the CUDA cores.
    Type accTy = isInt          ? Type(rewriter.getI32Type())
                 : elem.isF64() ? Type(rewriter.getF64Type())
                                : Type(rewriter.getF32Type());
    SmallVector<Value> init = accumulators(rewriter, loc, adaptor.getC(), accTy);
    bool tf32 = elem.isF32() &&
                op.getInputPrecision() == tt::InputPrecision::TF32;

    // 3. for k in [0, K): acc[e] += A[row(e), k] * B[k, col(e)]
    auto loop = scf::ForOp::create(rewriter, loc, i32Const(rewriter, loc, 0),
                                   i32Const(rewriter, loc, K),
                                   i32Const(rewriter, loc, 1), init);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(loop.getBody());
      Value k = loop.getInductionVar();
      auto operand = [&](Value lin) {
        Value v = LLVM::LoadOp::create(rewriter, loc, mem,
                                       smemAddress(rewriter, loc, l, base, mem, lin));
        v = toAcc(rewriter, loc, v, accTy);
        if (tf32)
          v = l.target->roundToTF32(rewriter, loc, v);
        return v;
      };
      SmallVector<Value> aVals, bVals;
      for (Value m : rowIdx)
        aVals.push_back(operand(LLVM::AddOp::create(
            rewriter, loc,
            LLVM::MulOp::create(rewriter, loc, m, i32Const(rewriter, loc, SA)), k)));
      for (Value n : colIdx)
        bVals.push_back(operand(LLVM::AddOp::create(
            rewriter, loc,
            LLVM::AddOp::create(
                rewriter, loc,
                LLVM::MulOp::create(rewriter, loc, k, i32Const(rewriter, loc, SB)), n),
            i32Const(rewriter, loc, M * SA))));
      SmallVector<Value> next;
      for (auto [e, acc] : llvm::enumerate(loop.getRegionIterArgs())) {
        Value a = aVals[rowOf[e]], b = bVals[colOf[e]];
        if (isInt)
          next.push_back(LLVM::AddOp::create(
              rewriter, loc, acc, LLVM::MulOp::create(rewriter, loc, a, b)));
        else
          next.push_back(LLVM::FMAOp::create(rewriter, loc, a, b, acc));
      }
      scf::YieldOp::create(rewriter, loc, next);
    }
    replaceWithAccumulators(rewriter, getTypeConverter(), op,
                            SmallVector<Value>(loop.getResults()));
    return success();
  }

  /// Whether the tensor-core lowering of `op`'s accumulator layout (mma.sync
  /// or MFMA) computes `op`. A dot that shares its accumulator's layout
  /// group with an eligible dot (kgpu-assign-layouts) but is not eligible
  /// itself (a K the instruction does not divide, other operand types or
  /// precision) runs on the CUDA-core loop, which takes any layout.
  static bool onTensorCores(tt::DotOp op) {
    Attribute acc = op.getC().getType().getEncoding();
    if (kgpu::isMmaV2(acc))
      return mmaSyncComputes(op);
    return isa<kgpu::MfmaEncodingAttr>(acc) && mfmaComputes(op);
  }

  /// Whether wgmma computes `op` (lowerWgmma) rather than mma.sync: on a
  /// chip with wgmma (Lowering::wgmmaDots), for an accumulator layout with
  /// warps along M only (the chained dots of attention, kgpu-assign-layouts
  /// chain-dots, and mma-version 3's loop-carried dots where
  /// kgpu-pipeline-dot-loops left them) in whole warpgroups, where
  /// wgmmaComputes holds (16-bit operands, f32 accumulator, M a multiple
  /// of 16 * warps, K of 32, N of 16 up to 256) and N is a multiple of 64
  /// and K of 32 (wgmmaNarrowTile: narrower tiles take wgmma only in
  /// attention's pipelined loops, as kgpu.local_dot). The layout is the one
  /// mma.sync uses: wgmma's D fragments give each thread the same elements.
  ///
  /// Except where a loop-carried accumulator (C an argument of the loop
  /// around the dot) and the operands staged from registers with it take
  /// more than kWgmmaStagedWords 32-bit registers per thread: wgmma reads
  /// and writes the whole accumulator at once, so where ptxas must spill
  /// part of it, it reloads and stores all of it around every wgmma.
  /// Measured on the H200 (docs/BENCHMARKS.md, ninth session):
  /// dot_f16_mnmask_128x128x64_w4_s3 (128 + 32 + 32 words) ran in 75 us
  /// with wgmma against 52 with mma.sync, dot_f16_mnmask_128x256x64_w8_s3
  /// (128 + 16 + 32) in 45 against 57.
  ///
  /// A K of 32 (64-byte rows) only with the accumulator an argument of the
  /// loop around the dot. Elsewhere (attention's dots where
  /// kgpu-pipeline-dot-loops left the loop, whose C is zero or rescaled
  /// within the iteration) the two short wgmmas are waited for at once: on
  /// the H200, kernels_k32's k32_attn_* took 0.97-1.06x of mma.sync's time
  /// with them, unpipelined (docs/BENCHMARKS.md, fourteenth session), so
  /// they stay on mma.sync.
  static constexpr int64_t kWgmmaStagedWords = 176;
  /// Decided before the conversion starts (it reads the loop structure)
  /// and recorded on the dot (kWgmmaDotAttr).
  static bool usesWgmma(tt::DotOp op, const Lowering &l) {
    auto mma =
        dyn_cast<kgpu::MmaEncodingAttr>(op.getC().getType().getEncoding());
    // tf32 (f32 operands): in pipelined loops only, whose copies store B
    // K-major as wgmma's tf32 form reads it; here mma.sync .tf32.
    if (!l.wgmmaDots || !kgpu::isMmaV2(mma) ||
        mma.getWarpsPerCTA() != ArrayRef<unsigned>{l.numWarps, 1u} ||
        !wgmmaComputes(op, l.numWarps) || wgmmaNarrowTile(op) ||
        isTf32Dot(op))
      return false;
    auto loop = dyn_cast<scf::ForOp>(op->getParentOp());
    auto arg = dyn_cast<BlockArgument>(op.getC());
    if (!loop || !arg || arg.getOwner() != loop.getBody())
      return !wgmmaPartialRows(op);
    int64_t threads = int64_t(l.numWarps) * l.warpSize;
    auto words = [&](RankedTensorType t) {
      return t.getNumElements() * bitWidth(t.getElementType()) / 32 / threads;
    };
    int64_t staged = words(op.getC().getType()) + words(op.getB().getType());
    if (aSourceOf(op) == ASource::Staged)
      staged += words(op.getA().getType());
    return staged <= kWgmmaStagedWords;
  }

  /// Where the mma.sync lowering (lowerMmaV2) of `op` finds A:
  /// - Registers: A has the accumulator's layout with warps along M only
  ///   (chained dots, kgpu-assign-layouts) and 16-bit elements: the
  ///   fragments are the thread's own registers (emitMmaV2's `aRegs`).
  /// - Hoisted: A is defined outside the scf.for directly around `op` (the
  ///   Q of attention): it is staged once before the loop, in shared memory
  ///   of its own above the bytes every op reuses (kSmemAOffsetAttr), and
  ///   each iteration stages only B.
  /// - Staged: A and B are staged together each time the dot runs.
  /// Every other tensor-core dot (MFMA) is Staged.
  /// Decided before the conversion starts (it reads the loop structure)
  /// and recorded on the dot (kASourceAttr, recordedASource).
  enum class ASource { Staged, Registers, Hoisted };
  static ASource recordedASource(tt::DotOp op) {
    auto attr = op->getAttrOfType<IntegerAttr>(kASourceAttr);
    return attr ? ASource(attr.getInt()) : ASource::Staged;
  }
  static ASource aSourceOf(tt::DotOp op) {
    Attribute acc = op.getC().getType().getEncoding();
    if (!kgpu::isMmaV2(acc) || !onTensorCores(op))
      return ASource::Staged;
    auto aT = op.getA().getType();
    auto warps = cast<kgpu::MmaEncodingAttr>(acc).getWarpsPerCTA();
    // accLayoutAPair reads the fragments of 16 x 8 warp tiles.
    if (aT.getEncoding() == acc && warps[1] == 1 &&
        cast<kgpu::MmaEncodingAttr>(acc).getInstrShape()[1] == 8 &&
        aT.getElementType().getIntOrFloatBitWidth() == 16 &&
        aT.getDimSize(0) % (16 * int64_t(warps[0])) == 0)
      return ASource::Registers;
    auto loop = dyn_cast<scf::ForOp>(op->getParentOp());
    if (loop && loop.isDefinedOutsideOfLoop(op.getA()))
      return ASource::Hoisted;
    return ASource::Staged;
  }

  /// The tensor X where `op`'s B is tt.trans(X) (order [1, 0]), X has
  /// 16-bit elements and B is used by `op` alone: the mma.sync lowering
  /// stages X (N rows of K, padded) and reads B with ldmatrix without
  /// .trans (emitMmaV2's bKMajor), instead of moving B through shared
  /// memory for the trans and staging it again. Null otherwise.
  static Value transposedBSource(tt::DotOp op) {
    if (!kgpu::isMmaV2(op.getC().getType().getEncoding()) || !onTensorCores(op))
      return {};
    auto trans = op.getB().getDefiningOp<tt::TransOp>();
    if (!trans || !trans->hasOneUse())
      return {};
    RankedTensorType src = trans.getSrc().getType();
    if (src.getRank() != 2 || trans.getOrder() != ArrayRef<int32_t>{1, 0} ||
        src.getElementType().getIntOrFloatBitWidth() != 16)
      return {};
    return trans.getSrc();
  }

  /// B as staged: its own type, or X's (N x K) where B is tt.trans(X)
  /// (Lowering::bTransSource).
  static RankedTensorType stagedBType(tt::DotOp op, Value transSource) {
    return transSource ? cast<RankedTensorType>(transSource.getType())
                       : op.getB().getType();
  }

  /// Bytes of a 2-D operand of `op` staged row-major with padded rows.
  static int64_t paddedBytes(RankedTensorType t) {
    int64_t bytes = t.getElementType().getIntOrFloatBitWidth() / 8;
    return t.getDimSize(0) * kgpu::getPaddedRowStride(t.getDimSize(1)) * bytes;
  }

  /// Byte offset of B after A when stageOperands stages `op`'s operands
  /// (A's padded rows, 16-byte aligned).
  static int64_t stagedBOffset(tt::DotOp op) {
    return llvm::alignTo(paddedBytes(op.getA().getType()), 16);
  }

  /// Shared memory bytes `op` needs in the bytes every op reuses when A
  /// comes from `source`: A then B, padded (stageOperands), or B alone
  /// where A is not staged with it; B as staged (`transSource`:
  /// Lowering::bTransSource). The mma.sync and MFMA paths.
  static int64_t stagedBytes(tt::DotOp op, ASource source, Value transSource) {
    int64_t b = paddedBytes(stagedBType(op, transSource));
    return source == ASource::Staged ? stagedBOffset(op) + b : b;
  }

  /// Shared memory of its own a Hoisted A needs (aSourceOf): padded rows
  /// for mma.sync, wgmma's swizzled arrangement (K-major) in whole
  /// 1024-byte atoms.
  static int64_t hoistedABytes(tt::DotOp op, bool wgmma) {
    RankedTensorType aT = op.getA().getType();
    if (wgmma)
      return llvm::alignTo(wgmmaOperandBytes(aT.getDimSize(0),
                                             aT.getDimSize(1), 2, true),
                           1024);
    return llvm::alignTo(paddedBytes(aT), 16);
  }

  /// stagedBytes for lowerWgmma: A (where staged with B) then B (stored N
  /// rows of K with `bKMajor`, K rows of N otherwise), each in wgmma's
  /// swizzled arrangement (16-bit elements), B 1024 bytes aligned.
  static int64_t wgmmaStagedBytes(tt::DotOp op, ASource source, bool bKMajor) {
    RankedTensorType bT = op.getB().getType();
    int64_t b = wgmmaOperandBytes(bT.getDimSize(1), bT.getDimSize(0), 2,
                                  bKMajor);
    return source == ASource::Staged ? hoistedABytes(op, true) + b : b;
  }

  /// Stores a 2-D tensor (16- or 32-bit elements) row-major with `stride`
  /// elements per row at byte offset `byteBase` of shared memory, as
  /// vectors along dimension 1 where the layout keeps registers
  /// consecutive there.
  void storeRows(ConversionPatternRewriter &rewriter, Location loc,
                 Value converted, RankedTensorType type, int64_t byteBase,
                 int64_t stride, Type mem) const {
    SmallVector<Value> vals = unpack(rewriter, loc, converted);
    SmallVector<Value> addrs = elementAddresses(
        rewriter, loc, l, type.getEncoding(), type.getShape(), {stride, 1},
        byteBase, mem);
    SmallVector<unsigned> starts;
    unsigned vec = 1;
    unsigned bytes = bitWidth(mem) / 8;
    if (fastestDim(type.getEncoding()) == 1)
      vec = chooseVec(type, std::max(1u, 16 / bytes), starts);
    if (vec == 1) {
      starts.clear();
      for (unsigned e = 0; e < vals.size(); ++e)
        starts.push_back(e);
    }
    Type vecTy = VectorType::get({int64_t(vec)}, mem);
    for (unsigned e : starts) {
      Value addr = addrs[e];
      if (vec == 1) {
        LLVM::StoreOp::create(rewriter, loc, vals[e], addr);
        continue;
      }
      Value v = LLVM::UndefOp::create(rewriter, loc, vecTy);
      for (unsigned k = 0; k < vec; ++k)
        v = LLVM::InsertElementOp::create(rewriter, loc, v, vals[e + k],
                                          i32Const(rewriter, loc, k));
      LLVM::StoreOp::create(rewriter, loc, v, addr, /*alignment=*/vec * bytes);
    }
  }

  /// Where A is for the tensor-core lowerings (recordedASource): the
  /// thread's registers (Registers: `aRegs` gets them), or its byte offset
  /// in shared memory: `base` (Staged: stored with B by the caller) or its
  /// own region (Hoisted), where `stage` stores it once before the loop,
  /// between a barrier (an earlier staging of the same A, before another
  /// loop, may still be read) and a barrier.
  FailureOr<int64_t> placeA(tt::DotOp op, OpAdaptor adaptor,
                            ConversionPatternRewriter &rewriter, int64_t base,
                            SmallVectorImpl<Value> &aRegs,
                            function_ref<void(int64_t)> stage) const {
    ASource source = recordedASource(op);
    if (source == ASource::Registers)
      aRegs = unpack(rewriter, op.getLoc(), adaptor.getA());
    if (source != ASource::Hoisted)
      return base;
    auto offset = op->getAttrOfType<IntegerAttr>(kSmemAOffsetAttr);
    if (!offset) {
      op.emitError() << "internal error: no shared memory for the "
                        "loop-invariant A operand";
      return failure();
    }
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(op->getParentOp());
    l.target->barrier(rewriter, op.getLoc());
    stage(offset.getInt());
    l.target->barrier(rewriter, op.getLoc());
    return offset.getInt();
  }

  /// tt.dot on tensor cores with mma.sync.m16n8k16 (PTX ISA 9.7.14.5.8)
  /// for f16/bf16 operands and an f32 accumulator, result layout
  /// #kgpu.mma<{version = 2}>. A (MxK) and B (KxN) are staged row-major in
  /// shared memory with padded rows; each warp reads its operand fragments
  /// with ldmatrix (.trans for B, 9.7.14.5.15) and issues one mma per 16x8
  /// accumulator tile and 16-wide K step. Accumulators stay in registers.
  /// f32 operands (inputPrecision tf32 / tf32x3) take mma.sync.m16n8k8
  /// .tf32 instead (emitMmaTf32).
  LogicalResult lowerMmaV2(tt::DotOp op, OpAdaptor adaptor,
                           ConversionPatternRewriter &rewriter,
                           int64_t base) const {
    Location loc = op.getLoc();
    auto aT = op.getA().getType(), bT = op.getB().getType();
    Type mem = getTypeConverter()->convertType(aT.getElementType());
    ASource source = recordedASource(op);
    SmallVector<Value> aRegs;
    FailureOr<int64_t> placed =
        placeA(op, adaptor, rewriter, base, aRegs, [&](int64_t at) {
          storeRows(rewriter, loc, adaptor.getA(), aT, at,
                    kgpu::getPaddedRowStride(aT.getDimSize(1)), mem);
        });
    if (failed(placed))
      return failure();
    int64_t baseA = *placed;
    // A staged with B only where it is neither in registers nor hoisted.
    int64_t baseB = stageOperands(op, adaptor, rewriter, base,
                                  /*withA=*/source == ASource::Staged);
    bool bKMajor = bool(l.bTransSource.lookup(op));
    SmallVector<Value> acc = accumulators(rewriter, loc, adaptor.getC(),
                                          rewriter.getF32Type());
    auto mma = cast<kgpu::MmaEncodingAttr>(op.getC().getType().getEncoding());
    Value zero = i32Const(rewriter, loc, 0);
    if (aT.getElementType().isF32()) {
      acc = emitMmaTf32(rewriter, loc, l, mma, aT, bT, acc, baseA, zero,
                        kgpu::getPaddedRowStride(aT.getDimSize(1)), baseB, zero,
                        kgpu::getPaddedRowStride(bT.getDimSize(1)),
                        op.getInputPrecision() == tt::InputPrecision::TF32x3);
    } else {
      acc = emitMmaV2(rewriter, loc, l, mma, aT, bT, acc, baseA, zero, baseB,
                      zero, bKMajor, aRegs);
    }
    replaceWithAccumulators(rewriter, getTypeConverter(), op, acc);
    return success();
  }

  /// tt.dot on wgmma.mma_async (sm_90a; usesWgmma): B, and A where it is
  /// not in registers, are stored from registers into shared memory in
  /// wgmma's 128-byte swizzled arrangement (storeSwizzled; B K-major where
  /// it is tt.trans of a tensor used by the dot alone, N-major otherwise),
  /// made visible to the async proxy (fence.proxy.async, PTX ISA
  /// 9.7.13.4.1) and the CTA synchronized; then emitWgmmaMultiply, commit
  /// and wait for the group. A comes from recordedASource: registers (the
  /// accumulator-layout A fragments), staged once before the loop
  /// (Hoisted, at kSmemAOffsetAttr) or with B (Staged). Every operand's
  /// arrangement starts 1024-byte aligned (the kernel's shared memory is
  /// declared .align 1024).
  LogicalResult lowerWgmma(tt::DotOp op, OpAdaptor adaptor,
                           ConversionPatternRewriter &rewriter,
                           int64_t base) const {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto aT = op.getA().getType();
    ASource source = recordedASource(op);
    auto fenceProxy = [&] {
      NVVM::FenceProxyOp::create(
          rewriter, loc, NVVM::ProxyKind::async_shared,
          NVVM::SharedSpaceAttr::get(ctx, NVVM::SharedSpace::shared_cta));
    };
    SmallVector<Value> aRegs;
    FailureOr<int64_t> placed =
        placeA(op, adaptor, rewriter, base, aRegs, [&](int64_t at) {
          storeSwizzled(rewriter, loc, adaptor.getA(), aT, at,
                        /*kMajor=*/true);
          fenceProxy();
        });
    if (failed(placed))
      return failure();
    int64_t baseA = *placed;
    int64_t baseB =
        source == ASource::Staged ? base + hoistedABytes(op, true) : base;
    if (l.smemShared || mayRunAgain(op))
      l.target->barrier(rewriter, loc);
    if (source == ASource::Staged)
      storeSwizzled(rewriter, loc, adaptor.getA(), aT, base, /*kMajor=*/true);
    Value transSource = l.bTransSource.lookup(op);
    storeSwizzled(rewriter, loc,
                  transSource ? rewriter.getRemappedValue(transSource)
                              : adaptor.getB(),
                  stagedBType(op, transSource), baseB,
                  /*kMajor=*/bool(transSource));
    fenceProxy();
    l.target->barrier(rewriter, loc);

    Type i64 = rewriter.getI64Type();
    auto address = [&](int64_t byteOffset) -> Value {
      return LLVM::PtrToIntOp::create(
          rewriter, loc, i64,
          smemAddress(rewriter, loc, l, byteOffset, rewriter.getI8Type(),
                      i32Const(rewriter, loc, 0)));
    };
    Value aStart;
    if (aRegs.empty()) {
      // This warpgroup's first row: 64 rows of 128 bytes per warpgroup.
      auto [lane, warp] = laneAndWarp(rewriter, loc, l);
      (void)lane;
      Value group = LLVM::ZExtOp::create(
          rewriter, loc, i64,
          LLVM::UDivOp::create(rewriter, loc, warp,
                               i32Const(rewriter, loc, 4)));
      aStart = LLVM::AddOp::create(
          rewriter, loc, address(baseA),
          LLVM::MulOp::create(rewriter, loc, group,
                              LLVM::ConstantOp::create(
                                  rewriter, loc, i64,
                                  rewriter.getI64IntegerAttr(64 * 128))));
    }
    Value bStart = address(baseB);
    auto mma = cast<kgpu::MmaEncodingAttr>(op.getC().getType().getEncoding());
    SmallVector<Value> acc = accumulators(rewriter, loc, adaptor.getC(),
                                          rewriter.getF32Type());
    acc = emitWgmmaMultiply(rewriter, loc, mma, aT, op.getB().getType(), acc,
                            aStart, aRegs, bStart, bool(transSource),
                            /*aMMajor=*/false, isZeroAccumulator(op.getC()));
    NVVM::WgmmaGroupSyncAlignedOp::create(rewriter, loc);
    // The wait is tied to the accumulators, so that no read of them moves
    // above it.
    acc = tiedAsm(rewriter, loc, acc, "wgmma.wait_group.sync.aligned 0;");
    replaceWithAccumulators(rewriter, getTypeConverter(), op, acc);
    return success();
  }

  /// Stores the 2-D 16-bit tensor `converted` (of `type`) at byte
  /// `byteBase` of shared memory in wgmma's 128-byte swizzled arrangement
  /// (swizzledByteOffset; `kMajor`: rows of K), as vectors of up to 16
  /// bytes (one swizzle chunk) where the layout keeps registers consecutive
  /// along dimension 1.
  void storeSwizzled(ConversionPatternRewriter &rewriter, Location loc,
                     Value converted, RankedTensorType type, int64_t byteBase,
                     bool kMajor) const {
    SmallVector<Value> vals = unpack(rewriter, loc, converted);
    Type mem = vals.front().getType();
    unsigned bytes = bitWidth(mem) / 8;
    SmallVector<unsigned> starts;
    unsigned vec = 1;
    if (fastestDim(type.getEncoding()) == 1)
      vec = chooseVec(type, 16 / bytes, starts);
    if (vec == 1) {
      starts.clear();
      for (unsigned e = 0; e < vals.size(); ++e)
        starts.push_back(e);
    }
    IndexMath im{rewriter, loc};
    Type vecTy = VectorType::get({int64_t(vec)}, mem);
    SmallVector<Value> offsets = swizzledElementOffsets(
        im, l, type.getEncoding(), type.getShape(), starts, /*rowDim=*/0,
        type.getDimSize(0), type.getDimSize(1), bytes, kMajor);
    for (auto [e, offset] : llvm::zip_equal(starts, offsets)) {
      Value addr = smemAddress(rewriter, loc, l, byteBase,
                               rewriter.getI8Type(), offset);
      Value v = vals[e];
      if (vec > 1) {
        v = LLVM::UndefOp::create(rewriter, loc, vecTy);
        for (unsigned k = 0; k < vec; ++k)
          v = LLVM::InsertElementOp::create(rewriter, loc, v, vals[e + k],
                                            i32Const(rewriter, loc, k));
      }
      LLVM::StoreOp::create(rewriter, loc, v, addr, /*alignment=*/vec * bytes);
    }
  }

  /// tt.dot on AMD CDNA matrix cores (gfx90a, gfx942): A and B staged
  /// row-major in LDS with rows padded by 8 elements; each wavefront
  /// multiplies its 16x16 accumulator tiles with one MFMA per 16-wide
  /// (f16: v_mfma_f32_16x16x16f16, bf16: v_mfma_f32_16x16x16bf16_1k) or
  /// 4-wide (f32: v_mfma_f32_16x16x4f32) K step. Operand registers (AMD
  /// CDNA3 ISA, MFMA operand layouts): lane l supplies A[l % 16][k0 + kw *
  /// (l / 16) + j] and B[k0 + kw * (l / 16) + j][l % 16], j < kw, kw = 4
  /// (16-bit) or 1 (f32); the result is D[4 * (l / 16) + i][l % 16].
  LogicalResult lowerMfma(tt::DotOp op, OpAdaptor adaptor,
                          ConversionPatternRewriter &rewriter,
                          int64_t base) const {
    Location loc = op.getLoc();
    auto aT = op.getA().getType(), bT = op.getB().getType();
    auto cT = op.getC().getType();
    auto mfma = cast<kgpu::MfmaEncodingAttr>(cT.getEncoding());
    int64_t M = aT.getDimSize(0), K = aT.getDimSize(1), N = bT.getDimSize(1);
    Type elem = aT.getElementType();
    Type mem = getTypeConverter()->convertType(elem);
    int64_t strideA = kgpu::getPaddedRowStride(K),
            strideB = kgpu::getPaddedRowStride(N);
    int64_t baseB = stageOperands(op, adaptor, rewriter, base);

    WarpTiling t(rewriter, loc, l, mfma.getWarpsPerCTA(), 16, 16, M, N);
    int64_t tileM = t.tileM, tileN = t.tileN, repM = t.repM, repN = t.repN;
    Value lane = t.lane, warpM = t.warpM, warpN = t.warpN;
    IndexMath im{rewriter, loc};
    Value lane16 = im.urem(lane, 16), laneGroup = im.udiv(lane, 16);

    bool isF32 = elem.isF32(), bf16 = elem.isBF16();
    int64_t kw = isF32 ? 1 : 4; // K elements per lane and instruction
    int64_t kStep = 4 * kw;     // K per instruction
    Type f32 = rewriter.getF32Type();
    Type i16 = rewriter.getIntegerType(16);
    Type accVec = VectorType::get({4}, f32);
    // Operand register type: <4 x half>, <4 x i16> (bf16 bits), or f32.
    Type opTy = isF32 ? f32
                      : Type(VectorType::get({4}, bf16 ? i16 : Type(mem)));
    auto operand = [&](ArrayRef<Value> vals) -> Value {
      if (isF32)
        return vals[0];
      Value v = LLVM::UndefOp::create(rewriter, loc, opTy);
      for (auto [j, x] : llvm::enumerate(vals)) {
        Value e = bf16 ? Value(LLVM::BitcastOp::create(rewriter, loc, i16, x)) : x;
        v = LLVM::InsertElementOp::create(rewriter, loc, v, e, im.c(j));
      }
      return v;
    };
    auto loadElem = [&](int64_t byteBase, Value lin) -> Value {
      return LLVM::LoadOp::create(rewriter, loc, mem,
                                  smemAddress(rewriter, loc, l, byteBase, mem, lin));
    };

    SmallVector<Value> acc = accumulators(rewriter, loc, adaptor.getC(), f32);
    for (int64_t k0 = 0; k0 < K; k0 += kStep) {
      Value kLane = im.add(im.mul(laneGroup, kw), im.c(k0));
      SmallVector<Value> aOps, bOps;
      for (int64_t rm = 0; rm < repM; ++rm) {
        Value row = im.urem(im.add(im.add(warpM, lane16), im.c(rm * tileM)), M);
        Value lin = im.add(im.mul(row, strideA), kLane);
        if (isF32) {
          aOps.push_back(loadElem(base, lin));
          continue;
        }
        // A lane's 4 K elements are consecutive in A's row: one 8-byte LDS
        // read (rows are K + 8 elements, kLane a multiple of 4: aligned).
        Type memVec = VectorType::get({4}, mem);
        Value v = LLVM::LoadOp::create(
            rewriter, loc, memVec, smemAddress(rewriter, loc, l, base, mem, lin),
            /*alignment=*/8);
        aOps.push_back(bf16 ? Value(LLVM::BitcastOp::create(rewriter, loc, opTy, v))
                            : v);
      }
      for (int64_t rn = 0; rn < repN; ++rn) {
        Value col = im.urem(im.add(im.add(warpN, lane16), im.c(rn * tileN)), N);
        SmallVector<Value> vals;
        for (int64_t j = 0; j < kw; ++j)
          vals.push_back(loadElem(baseB, im.add(im.mul(im.add(kLane, im.c(j)), strideB), col)));
        bOps.push_back(operand(vals));
      }
      Value zero = im.c(0);
      for (int64_t rm = 0; rm < repM; ++rm)
        for (int64_t rn = 0; rn < repN; ++rn) {
          unsigned first = unsigned((rm * repN + rn) * 4);
          Value c = LLVM::UndefOp::create(rewriter, loc, accVec);
          for (int64_t i = 0; i < 4; ++i)
            c = LLVM::InsertElementOp::create(rewriter, loc, c, acc[first + i], im.c(i));
          SmallVector<Value> args = {aOps[rm], bOps[rn], c, zero, zero, zero};
          Value d;
          if (isF32)
            d = ROCDL::mfma_f32_16x16x4f32::create(rewriter, loc, accVec, args);
          else if (bf16)
            d = ROCDL::mfma_f32_16x16x16bf16_1k::create(rewriter, loc, accVec, args);
          else
            d = ROCDL::mfma_f32_16x16x16f16::create(rewriter, loc, accVec, args);
          for (int64_t i = 0; i < 4; ++i)
            acc[first + i] = LLVM::ExtractElementOp::create(rewriter, loc, d, im.c(i));
        }
    }
    replaceWithAccumulators(rewriter, getTypeConverter(), op, acc);
    return success();
  }

  /// The thread's accumulator values (converted operand `c`) widened to
  /// `acc` (f32 or i32).
  static SmallVector<Value> accumulators(OpBuilder &b, Location loc, Value c,
                                         Type acc) {
    SmallVector<Value> out;
    for (Value v : unpack(b, loc, c))
      out.push_back(toAcc(b, loc, v, acc));
    return out;
  }

  /// Replaces the dot-like `op` by `acc` narrowed to its element type.
  static void replaceWithAccumulators(ConversionPatternRewriter &rewriter,
                                      const TypeConverter *tc, Operation *op,
                                      ArrayRef<Value> acc) {
    Location loc = op->getLoc();
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    Type elem = tc->convertType(type.getElementType());
    SmallVector<Value> out;
    for (Value v : acc)
      out.push_back(fromAcc(rewriter, loc, v, elem));
    rewriter.replaceOp(op, pack(rewriter, loc, tc->convertType(type), out));
  }

  /// The tensor-core paths' staging: A (MxK) and B (KxN) row-major into
  /// shared memory at `base`, rows padded (kgpu::getPaddedRowStride),
  /// between barriers; without `withA`, B alone at `base` (A comes from
  /// elsewhere: DotLowering::ASource).
  /// Returns B's byte offset.
  int64_t stageOperands(tt::DotOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter, int64_t base,
                        bool withA = true) const {
    Location loc = op.getLoc();
    auto aT = op.getA().getType();
    int64_t baseB = withA ? base + stagedBOffset(op) : base;
    if (l.smemShared || mayRunAgain(op))
      l.target->barrier(rewriter, loc);
    if (withA)
      storeRows(rewriter, loc, adaptor.getA(), aT, base,
                kgpu::getPaddedRowStride(aT.getDimSize(1)),
                getTypeConverter()->convertType(aT.getElementType()));
    storeB(op, adaptor, rewriter, baseB);
    l.target->barrier(rewriter, loc);
    return baseB;
  }

  /// Stores B at byte `baseB`, rows padded: K rows of N, or N rows of K
  /// from the trans's source where B is tt.trans of it
  /// (Lowering::bTransSource).
  void storeB(tt::DotOp op, OpAdaptor adaptor,
              ConversionPatternRewriter &rewriter, int64_t baseB) const {
    Value source = l.bTransSource.lookup(op);
    RankedTensorType t = stagedBType(op, source);
    Value value = source ? rewriter.getRemappedValue(source) : adaptor.getB();
    storeRows(rewriter, op.getLoc(), value, t, baseB,
              kgpu::getPaddedRowStride(t.getDimSize(1)),
              getTypeConverter()->convertType(t.getElementType()));
  }

  static Value toAcc(OpBuilder &b, Location loc, Value v, Type acc) {
    Type t = v.getType();
    if (t == acc)
      return v;
    if (acc.isInteger(32))
      return LLVM::SExtOp::create(b, loc, acc, v);
    return LLVM::FPExtOp::create(b, loc, acc, v);
  }

  static Value fromAcc(OpBuilder &b, Location loc, Value v, Type elem) {
    if (v.getType() == elem)
      return v;
    if (elem.isInteger())
      return LLVM::TruncOp::create(b, loc, elem, v);
    if (bitWidth(elem) > 32)
      return LLVM::FPExtOp::create(b, loc, elem, v);
    return LLVM::FPTruncOp::create(b, loc, elem, v);
  }

  /// PTX ISA 9.7.9.21 cvt.rna.tf32.f32: f32 rounded to tf32 (10-bit
  /// mantissa), kept in a 32-bit register.
};

struct UnsplatLowering : KPattern<tt::UnsplatOp> {
  using KPattern::KPattern;
  LogicalResult
  matchAndRewrite(tt::UnsplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // The single element: every thread holds a copy.
    rewriter.replaceOp(op, unpack(rewriter, op.getLoc(), adaptor.getSrc()).front());
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Pipelined tensor-core loops (kgpu-pipeline-dot-loops), NVPTX only
//===----------------------------------------------------------------------===//

/// cp.async (PTX ISA 9.7.9.25.3.1) of each run of `vec` consecutive
/// elements a thread holds along the tile's rows: 16 bytes with .cg, 4 or
/// 8 with .ca; where the mask is false the src-size operand is 0, so the
/// destination is zero-filled.
struct AsyncCopyLowering : KPattern<kgpu::AsyncCopyOp> {
  using KPattern::KPattern;
  LogicalResult
  matchAndRewrite(kgpu::AsyncCopyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (!l.smem)
      return op.emitError() << "internal error: no shared memory assigned";
    auto type = cast<RankedTensorType>(op.getPtr().getType());
    auto ptrElem = cast<tt::PointerType>(type.getElementType());
    Type elem = getTypeConverter()->convertType(ptrElem.getPointeeType());
    unsigned bytes = bitWidth(elem) / 8;
    SmallVector<unsigned> starts;
    unsigned vec = chooseVec(type, l.vectorWidth.lookup(op), starts);
    unsigned size = vec * bytes;
    bool transpose = op.getTranspose();
    if (fastestDim(type.getEncoding()) != (transpose ? 0u : 1u) ||
        (size != 4 && size != 8 && size != 16))
      return op.emitError() << "async copy of " << size
                            << "-byte runs; cp.async moves 4, 8 or 16 bytes";
    SmallVector<Value> ptrs = unpack(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> masks;
    if (adaptor.getMask())
      masks = unpack(rewriter, loc, adaptor.getMask());
    // Shared-memory rows and columns (swapped for a transposed tile).
    int64_t rows = type.getDimSize(transpose ? 1 : 0),
            cols = type.getDimSize(transpose ? 0 : 1);
    SmallVector<SmallVector<Value>> idx;
    if (op.getSwizzle() == 0)
      idx = emitIndices(rewriter, loc, l, type.getEncoding(), type.getShape());
    int64_t slotElems = op.getSlotBytes() / bytes;
    Value slotBase = LLVM::MulOp::create(rewriter, loc, adaptor.getSlot(),
                                         i32Const(rewriter, loc, slotElems));
    auto modifier = size == 16 ? NVVM::LoadCacheModifierKind::CG
                               : NVVM::LoadCacheModifierKind::CA;
    IndexMath im{rewriter, loc};
    // Swizzle 1: K-major (rows = M or N); 2: MN-major B (rows = K).
    SmallVector<Value> swizzled;
    Value slotOffset;
    if (op.getSwizzle() != 0) {
      swizzled = swizzledElementOffsets(
          im, l, type.getEncoding(), type.getShape(), starts,
          /*rowDim=*/transpose ? 1 : 0, rows, cols, bytes,
          op.getSwizzle() == 1);
      slotOffset = im.mul(adaptor.getSlot(), op.getSlotBytes());
    }
    for (auto [i, e] : llvm::enumerate(starts)) {
      Value dst;
      if (op.getSwizzle() == 0) {
        Value r = idx[e][transpose ? 1 : 0], c = idx[e][transpose ? 0 : 1];
        Value lin = im.add(im.add(im.mul(r, op.getRowStride()), c), slotBase);
        dst = smemAddress(rewriter, loc, l, op.getOffset(), elem, lin);
      } else {
        dst = smemAddress(rewriter, loc, l, op.getOffset(),
                          rewriter.getI8Type(), im.add(swizzled[i], slotOffset));
      }
      Value srcSize;
      if (!masks.empty())
        srcSize = LLVM::SelectOp::create(rewriter, loc, masks[e],
                                         i32Const(rewriter, loc, size),
                                         i32Const(rewriter, loc, 0));
      NVVM::CpAsyncOp::create(rewriter, loc, dst, ptrs[e], size, modifier,
                              srcSize);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// kgpu.local_load: each thread reads back the elements of a tile that it
/// copied itself (kgpu.async_copy, swizzle 0), after the kgpu.async_wait
/// (and its barrier) that the op's description requires; runs adjacent in
/// shared memory along the layout's fastest dimension are one ld.shared of
/// up to 16 bytes where rows are 16-byte multiples.
struct LocalLoadLowering : KPattern<kgpu::LocalLoadOp> {
  using KPattern::KPattern;
  LogicalResult
  matchAndRewrite(kgpu::LocalLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (!l.smem)
      return op.emitError() << "internal error: no shared memory assigned";
    RankedTensorType type = op.getType();
    Type elem = getTypeConverter()->convertType(type.getElementType());
    unsigned bytes = bitWidth(elem) / 8;
    bool transpose = op.getTranspose();
    // Element (i0, i1) lies at i0 * rowStride + i1, or with `transpose`
    // at i1 * rowStride + i0 (as AsyncCopyLowering stores it).
    int64_t rowStride = op.getRowStride();
    SmallVector<int64_t> strides = transpose
                                       ? SmallVector<int64_t>{1, rowStride}
                                       : SmallVector<int64_t>{rowStride, 1};
    SmallVector<Value> addrs =
        elementAddresses(rewriter, loc, l, type.getEncoding(),
                         type.getShape(), strides, op.getOffset(), elem);
    Value slotElems = LLVM::MulOp::create(
        rewriter, loc, adaptor.getSlot(),
        i32Const(rewriter, loc, op.getSlotBytes() / bytes));
    for (Value &p : addrs)
      p = LLVM::GEPOp::create(rewriter, loc, p.getType(), elem, p,
                              ArrayRef<LLVM::GEPArg>{slotElems});
    SmallVector<unsigned> starts;
    unsigned vec = 1;
    if (fastestDim(type.getEncoding()) == (transpose ? 0u : 1u) &&
        (rowStride * bytes) % 16 == 0)
      vec = chooseVec(type, std::max(1u, 16 / bytes), starts);
    SmallVector<Value> out =
        loadElements(rewriter, loc, addrs, elem, elem, vec, starts);
    rewriter.replaceOp(op, pack(rewriter, loc,
                                getTypeConverter()->convertType(type), out));
    return success();
  }
};

struct AsyncCommitGroupLowering : KPattern<kgpu::AsyncCommitGroupOp> {
  using KPattern::KPattern;
  LogicalResult
  matchAndRewrite(kgpu::AsyncCommitGroupOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NVVM::CpAsyncCommitGroupOp::create(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncWaitLowering : KPattern<kgpu::AsyncWaitOp> {
  using KPattern::KPattern;
  LogicalResult
  matchAndRewrite(kgpu::AsyncWaitOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NVVM::CpAsyncWaitGroupOp::create(rewriter, op.getLoc(), op.getPending());
    // wgmma reads shared memory through the async proxy: make the copies
    // (generic proxy) visible to it first (PTX ISA 9.7.13.4.1,
    // fence.proxy.async), then synchronize the CTA.
    if (l.wgmma)
      NVVM::FenceProxyOp::create(
          rewriter, op.getLoc(), NVVM::ProxyKind::async_shared,
          NVVM::SharedSpaceAttr::get(rewriter.getContext(),
                                     NVVM::SharedSpace::shared_cta));
    l.target->barrier(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

/// Replaces `op` (whose operands, converted, are `values`) with one asm
/// statement `text` whose outputs are tied to the 32-bit registers of
/// `values` ("=r" outputs, inputs tied to them): LLVM keeps every read of
/// those registers after it and copies none of them across it.
static LogicalResult
replaceWithTiedAsm(ConversionPatternRewriter &rewriter,
                   const TypeConverter *converter, Operation *op,
                   ValueRange values, StringRef text) {
  Location loc = op->getLoc();
  SmallVector<Value> regs;
  SmallVector<size_t> counts;
  for (Value v : values) {
    SmallVector<Value> elems = unpack(rewriter, loc, v);
    for (Value e : elems)
      if (!e.getType().isF32() && !e.getType().isInteger(32))
        return op->emitError() << op->getName()
                               << " ties 32-bit accumulator registers, got "
                               << e.getType();
    counts.push_back(elems.size());
    regs.append(elems);
  }
  SmallVector<Value> outs = tiedAsm(rewriter, loc, regs, text);
  SmallVector<Value> results;
  size_t at = 0;
  for (auto [n, res] : llvm::zip(counts, op->getResults())) {
    Type ty = converter->convertType(res.getType());
    results.push_back(pack(rewriter, loc, ty, ArrayRef<Value>(outs).slice(at, n)));
    at += n;
  }
  rewriter.replaceOp(op, results);
  return success();
}

struct WgmmaWaitLowering : KPattern<kgpu::WgmmaWaitOp> {
  using KPattern::KPattern;
  LogicalResult
  matchAndRewrite(kgpu::WgmmaWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getValues().empty()) {
      NVVM::WgmmaWaitGroupSyncOp::create(rewriter, op.getLoc(),
                                         op.getPending());
      rewriter.eraseOp(op);
      return success();
    }
    return replaceWithTiedAsm(rewriter, getTypeConverter(), op,
                              adaptor.getValues(),
                              "wgmma.wait_group.sync.aligned " +
                                  std::to_string(op.getPending()) + ";");
  }
};

struct WgmmaFenceLowering : KPattern<kgpu::WgmmaFenceOp> {
  using KPattern::KPattern;
  LogicalResult
  matchAndRewrite(kgpu::WgmmaFenceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getValues().empty()) {
      NVVM::WgmmaFenceAlignedOp::create(rewriter, op.getLoc());
      rewriter.eraseOp(op);
      return success();
    }
    return replaceWithTiedAsm(rewriter, getTypeConverter(), op,
                              adaptor.getValues(), "wgmma.fence.sync.aligned;");
  }
};

struct BarrierLowering : KPattern<kgpu::BarrierOp> {
  using KPattern::KPattern;
  LogicalResult
  matchAndRewrite(kgpu::BarrierOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    l.target->barrier(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

/// Elements a thread holds of the first tensor among `operands` then
/// `results` (the elementwise ops' tensors all share one layout and
/// shape); 1 where all are scalars.
unsigned elemsPerThreadOfAny(TypeRange operands, TypeRange results) {
  for (Type t : llvm::concat<const Type>(operands, results))
    if (auto tensor = dyn_cast<RankedTensorType>(t))
      return kgpu::getNumElemsPerThread(tensor.getEncoding(),
                                        tensor.getShape());
  return 1;
}

/// tt.elementwise_inline_asm (tl.inline_asm_elementwise): the asm runs once
/// per group of `packed_element` elements a thread holds, as Triton 3.6
/// documents it: outputs first, then inputs, in operand order, each a run
/// of registers; elements narrower than 32 bits share a register, as many
/// as fit in 32 bits and at most packed_element (4 i8, 2 f16 per register;
/// a register holding several is an integer of their combined width, the
/// first element in its low bits), other elements take one register each.
/// Scalar operands are repeated for every element. A thread whose element
/// count is not a multiple of packed_element runs its last group with
/// undefined values in the missing places and drops their results.
struct InlineAsmLowering : KPattern<tt::ElementwiseInlineAsmOp> {
  using KPattern::KPattern;

  /// Elements per register and registers per group for `elem`.
  static std::pair<unsigned, unsigned> registersOf(Type elem, unsigned pack) {
    unsigned bits =
        isa<LLVM::LLVMPointerType>(elem) ? 64 : elem.getIntOrFloatBitWidth();
    unsigned perReg = bits < 32 ? std::min(pack, 32 / bits) : 1;
    return {perReg, unsigned(llvm::divideCeil(pack, perReg))};
  }

  LogicalResult
  matchAndRewrite(tt::ElementwiseInlineAsmOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    const TypeConverter *tc = getTypeConverter();
    unsigned group = unsigned(op.getPackedElement());
    unsigned n =
        elemsPerThreadOfAny(op->getOperandTypes(), op->getResultTypes());
    SmallVector<SmallVector<Value>> in;
    SmallVector<Type> inElems;
    for (auto [orig, conv] : llvm::zip(op.getArgs(), adaptor.getArgs())) {
      inElems.push_back(tc->convertType(getElementTypeOrSelf(orig.getType())));
      if (isa<RankedTensorType>(orig.getType()))
        in.push_back(unpack(rewriter, loc, conv));
      else
        in.push_back(SmallVector<Value>(n, conv));
    }
    SmallVector<Type> outElems;
    for (Value r : op.getResult())
      outElems.push_back(tc->convertType(getElementTypeOrSelf(r.getType())));
    auto regType = [&](Type elem, unsigned perReg) -> Type {
      if (perReg == 1)
        return elem;
      return rewriter.getIntegerType(perReg * elem.getIntOrFloatBitWidth());
    };
    // Registers of a statement, checked against the constraint string:
    // LLVM crashes on a count that does not match.
    unsigned outRegCount = 0, inRegCount = 0;
    auto countRegisters = [&](ArrayRef<Type> elems, unsigned &count,
                              StringRef what) -> LogicalResult {
      for (auto [k, elem] : llvm::enumerate(elems)) {
        auto [perReg, regs] = registersOf(elem, group);
        if (!llvm::isPowerOf2_32(perReg))
          return op.emitError()
                 << "packed_element " << group << " puts " << perReg
                 << " elements of " << what << " #" << k << " (" << elem
                 << ") in one register; a register takes 1, 2 or 4 of them "
                    "(pack a power of two)";
        count += regs;
      }
      return success();
    };
    if (failed(countRegisters(inElems, inRegCount, "operand")) ||
        failed(countRegisters(outElems, outRegCount, "result")))
      return failure();
    unsigned outConstraints = 0, inConstraints = 0;
    SmallVector<StringRef> pieces;
    op.getConstraints().split(pieces, ',');
    for (StringRef piece : pieces) {
      piece = piece.trim();
      if (piece.starts_with("="))
        ++outConstraints;
      else if (piece.starts_with("~"))
        continue;
      else if (!piece.empty()) {
        ++inConstraints;
        unsigned tied;
        if (!piece.getAsInteger(10, tied) && tied >= outRegCount)
          return op.emitError()
                 << "constraint '" << piece << "' ties an input to output "
                 << tied << ", but the statement has " << outRegCount
                 << " output registers";
      }
    }
    if (outConstraints != outRegCount || inConstraints != inRegCount)
      return op.emitError()
             << "the constraints \"" << op.getConstraints() << "\" name "
             << outConstraints << " outputs and " << inConstraints
             << " inputs, but with packed_element " << group
             << " each asm statement has " << outRegCount << " output and "
             << inRegCount
             << " input registers (elements under 32 bits share a register; "
                "outputs come first)";
    SmallVector<SmallVector<Value>> out(outElems.size(), SmallVector<Value>(n));
    auto asmDialect = LLVM::AsmDialectAttr::get(rewriter.getContext(),
                                                LLVM::AsmDialect::AD_ATT);
    for (unsigned first = 0; first < n; first += group) {
      SmallVector<Value> operands;
      for (auto [elems, elem] : llvm::zip(in, inElems)) {
        auto [perReg, regs] = registersOf(elem, group);
        for (unsigned r = 0; r < regs; ++r) {
          auto element = [&](unsigned j) -> Value {
            unsigned i = first + r * perReg + j;
            return i < n ? elems[i]
                         : LLVM::UndefOp::create(rewriter, loc, elem);
          };
          if (perReg == 1) {
            operands.push_back(element(0));
            continue;
          }
          Value vec = LLVM::UndefOp::create(
              rewriter, loc, VectorType::get({int64_t(perReg)}, elem));
          for (unsigned j = 0; j < perReg; ++j)
            vec = LLVM::InsertElementOp::create(rewriter, loc, vec, element(j),
                                                i32Const(rewriter, loc, j));
          operands.push_back(LLVM::BitcastOp::create(
              rewriter, loc, regType(elem, perReg), vec));
        }
      }
      SmallVector<Type> outRegs;
      for (Type elem : outElems) {
        auto [perReg, regs] = registersOf(elem, group);
        outRegs.append(regs, regType(elem, perReg));
      }
      Type resultType = outRegs.size() == 1
                            ? outRegs.front()
                            : LLVM::LLVMStructType::getLiteral(
                                  rewriter.getContext(), outRegs);
      auto asmOp = LLVM::InlineAsmOp::create(
          rewriter, loc, outRegs.empty() ? TypeRange{} : TypeRange{resultType},
          operands, op.getAsmString(), op.getConstraints(),
          /*has_side_effects=*/!op.getPure(), /*is_align_stack=*/false,
          LLVM::tailcallkind::TailCallKind::None, asmDialect, ArrayAttr());
      unsigned reg = 0;
      for (auto [k, elem] : llvm::enumerate(outElems)) {
        auto [perReg, regs] = registersOf(elem, group);
        for (unsigned r = 0; r < regs; ++r, ++reg) {
          Value v = outRegs.size() == 1 ? asmOp.getResult(0)
                                        : LLVM::ExtractValueOp::create(
                                              rewriter, loc, asmOp.getResult(0),
                                              ArrayRef<int64_t>{int64_t(reg)})
                                              .getResult();
          if (perReg > 1)
            v = LLVM::BitcastOp::create(
                rewriter, loc, VectorType::get({int64_t(perReg)}, elem), v);
          for (unsigned j = 0; j < perReg; ++j) {
            unsigned i = first + r * perReg + j;
            if (i >= n)
              continue;
            out[k][i] = perReg == 1
                            ? v
                            : LLVM::ExtractElementOp::create(
                                  rewriter, loc, v, i32Const(rewriter, loc, j))
                                  .getResult();
          }
        }
      }
    }
    SmallVector<Value> results;
    for (auto [k, r] : llvm::enumerate(op.getResult())) {
      Type converted = tc->convertType(r.getType());
      results.push_back(isa<RankedTensorType>(r.getType())
                            ? pack(rewriter, loc, converted, out[k])
                            : out[k].front());
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// gpu.barrier, Triton's tl.debug_barrier(): a CTA-wide barrier, as
/// kgpu.barrier.
struct GpuBarrierLowering : KPattern<gpu::BarrierOp> {
  using KPattern::KPattern;
  LogicalResult
  matchAndRewrite(gpu::BarrierOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    l.target->barrier(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

struct LocalDotLowering : KPattern<kgpu::LocalDotOp> {
  using KPattern::KPattern;

  /// The wgmma form of local_dot: emitWgmmaMultiply on the slot `slot`
  /// (A K-major at aOffset, or `aRegs`; B at bOffset, K-major with
  /// bKMajor), committed, and waited for unless noWait, so the slot may be
  /// refilled next.
  SmallVector<Value> emitWgmma(ConversionPatternRewriter &rewriter,
                               Location loc, kgpu::LocalDotOp op, Value slot,
                               ArrayRef<Value> accIn,
                               ArrayRef<Value> aRegs) const {
    Type i64 = rewriter.getI64Type();
    auto c64 = [&](int64_t v) -> Value {
      return LLVM::ConstantOp::create(rewriter, loc, i64,
                                      rewriter.getI64IntegerAttr(v));
    };
    auto [lane, warp] = laneAndWarp(rewriter, loc, l);
    (void)lane;
    Value group = LLVM::ZExtOp::create(
        rewriter, loc, i64,
        LLVM::UDivOp::create(rewriter, loc, warp, i32Const(rewriter, loc, 4)));
    Value slot64 = LLVM::ZExtOp::create(rewriter, loc, i64, slot);
    Value smemBase = LLVM::PtrToIntOp::create(
        rewriter, loc, i64, LLVM::AddressOfOp::create(rewriter, loc, l.smem));
    auto addI = [&](Value a, Value b) -> Value {
      return LLVM::AddOp::create(rewriter, loc, a, b);
    };
    auto mulI = [&](Value a, int64_t b) -> Value {
      return LLVM::MulOp::create(rewriter, loc, a, c64(b));
    };
    auto mma = cast<kgpu::MmaEncodingAttr>(
        cast<RankedTensorType>(op.getAcc().getType()).getEncoding());
    // With warps along N too (warpsN > 1), warpgroup g takes row block
    // g % (warps along M / 4) and N part g / (warps along M / 4): the
    // columns from part * N / warpsN on, which its warp column owns in
    // the accumulator's layout (instrShape [16, N / warpsN]; checked
    // before the conversion).
    unsigned warpsN = mma.getWarpsPerCTA()[1];
    Value rowGroup = group, nPart;
    if (warpsN > 1) {
      Value perN = c64(mma.getWarpsPerCTA()[0] / 4);
      rowGroup = LLVM::URemOp::create(rewriter, loc, group, perN);
      nPart = LLVM::UDivOp::create(rewriter, loc, group, perN);
    }
    // Start addresses of this warpgroup's A rows and of B in the slot.
    Value aStart;
    // A warpgroup's 64 rows: eight 8-row atoms K-major, one 64-row column
    // block M-major.
    if (aRegs.empty())
      aStart = addI(
          addI(smemBase, c64(op.getAOffset())),
          addI(mulI(slot64, op.getASlotBytes()),
               mulI(rowGroup, op.getAMMajor() ? 1024 : 64 / 8 * 1024)));
    Value bStart = addI(addI(smemBase, c64(op.getBOffset())),
                        mulI(slot64, op.getBSlotBytes()));
    // A part's N / warpsN columns: that many rows of 128 bytes K-major,
    // (N / warpsN) / 64 column blocks of 1024 bytes N-major.
    if (warpsN > 1) {
      int64_t part = cast<RankedTensorType>(op.getBType()).getDimSize(1) /
                     warpsN;
      bStart = addI(bStart,
                    mulI(nPart, op.getBKMajor() ? part * 128 : part / 64 * 1024));
    }
    SmallVector<Value> out = emitWgmmaMultiply(
        rewriter, loc, mma, cast<RankedTensorType>(op.getAType()),
        cast<RankedTensorType>(op.getBType()), accIn, aStart, aRegs, bStart,
        op.getBKMajor(), op.getAMMajor(), isZeroAccumulator(op.getAcc()),
        op->hasAttr(kWgmmaBlockMajorAttr), op->hasAttr(kWgmmaPackAFirstAttr));
    NVVM::WgmmaGroupSyncAlignedOp::create(rewriter, loc);
    if (!op.getNoWait())
      NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, 0);
    return out;
  }

  LogicalResult
  matchAndRewrite(kgpu::LocalDotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (!l.smem)
      return op.emitError() << "internal error: no shared memory assigned";
    auto aT = cast<RankedTensorType>(op.getAType());
    auto bT = cast<RankedTensorType>(op.getBType());
    auto cT = cast<RankedTensorType>(op.getAcc().getType());
    auto mma = dyn_cast<kgpu::MmaEncodingAttr>(cT.getEncoding());
    if (!kgpu::isMmaV2(mma))
      return op.emitError() << "local_dot needs an mma.sync accumulator layout";
    SmallVector<Value> acc = DotLowering::accumulators(
        rewriter, loc, adaptor.getAcc(), rewriter.getF32Type());
    unsigned bytes = bitWidth(aT.getElementType()) / 8;
    SmallVector<Value> aRegs;
    if (adaptor.getA())
      aRegs = unpack(rewriter, loc, adaptor.getA());
    if (op.getWgmma()) {
      acc = emitWgmma(rewriter, loc, op, adaptor.getSlot(), acc, aRegs);
      DotLowering::replaceWithAccumulators(rewriter, getTypeConverter(), op,
                                           acc);
      return success();
    }
    auto slotOffset = [&](int64_t slotBytes) -> Value {
      return LLVM::MulOp::create(rewriter, loc, adaptor.getSlot(),
                                 i32Const(rewriter, loc, slotBytes / bytes));
    };
    if (aT.getElementType().isF32()) {
      // tf32 slots (kgpu-pipeline-dot-loops; checked before the
      // conversion: B row-major, A in its slot).
      acc = emitMmaTf32(rewriter, loc, l, mma, aT, bT, acc, op.getAOffset(),
                        slotOffset(op.getASlotBytes()),
                        kgpu::getPaddedRowStride(aT.getDimSize(1), 32),
                        op.getBOffset(), slotOffset(op.getBSlotBytes()),
                        kgpu::getPaddedRowStride(bT.getDimSize(1), 32, true),
                        op.getTf32x3());
    } else {
      acc = emitMmaV2(rewriter, loc, l, mma, aT, bT, acc, op.getAOffset(),
                      slotOffset(op.getASlotBytes()), op.getBOffset(),
                      slotOffset(op.getBSlotBytes()), op.getBKMajor(), aRegs);
    }
    DotLowering::replaceWithAccumulators(rewriter, getTypeConverter(), op, acc);
    return success();
  }
};

struct ConvertLayoutLowering : KPattern<kgpu::ConvertLayoutOp> {
  using KPattern::KPattern;
  LogicalResult
  matchAndRewrite(kgpu::ConvertLayoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto src = op.getSrc().getType(), dst = op.getType();
    auto offsetAttr = op->getAttrOfType<IntegerAttr>(kSmemOffsetAttr);
    if (!offsetAttr || !l.smem)
      return op.emitError() << "internal error: no shared memory assigned";
    Type elem = getTypeConverter()->convertType(src.getElementType());
    Type mem = memoryType(elem);
    SmallVector<Value> in = unpack(rewriter, loc, adaptor.getSrc());
    unsigned bytes = bitWidth(mem) / 8;
    SmallVector<int64_t> strides =
        convertLayoutStrides(src, bytes, op->hasAttr(kPaddedRowsAttr));
    int64_t planeRowBytes =
        chunkPlaneRowBytes(src, dst, bytes, op->hasAttr(kPaddedRowsAttr),
                           offsetAttr.getInt());
    SmallVector<Value> addrs =
        elementAddresses(rewriter, loc, l, src.getEncoding(), src.getShape(),
                         strides, offsetAttr.getInt(), mem, planeRowBytes);
    if (l.smemShared || mayRunAgain(op))
      l.target->barrier(rewriter, loc);
    // An mma.sync-layout source holds its elements in pairs of adjacent
    // columns, the first even (c0 c1 / c2 c3 of each m16n8 tile, PTX ISA
    // 9.7.14.5.8): each pair is one vector store, aligned to the pair.
    bool pairs = kgpu::isMmaV2(src.getEncoding()) && src.getRank() == 2 &&
                 in.size() % 2 == 0 && src.getShape()[1] % 2 == 0 &&
                 !elem.isInteger(1) && bytes <= 4 &&
                 offsetAttr.getInt() % (2 * bytes) == 0;
    for (size_t i = 0; i < addrs.size(); i += pairs ? 2 : 1) {
      Value p = addrs[i];
      if (!pairs) {
        LLVM::StoreOp::create(rewriter, loc, toMemory(rewriter, loc, in[i]), p);
        continue;
      }
      auto pairTy = VectorType::get({2}, mem);
      Value v = LLVM::UndefOp::create(rewriter, loc, pairTy);
      for (int j = 0; j < 2; ++j)
        v = LLVM::InsertElementOp::create(rewriter, loc, v, in[i + j],
                                          i32Const(rewriter, loc, j));
      LLVM::StoreOp::create(rewriter, loc, v, p, /*alignment=*/2 * bytes);
    }
    l.target->barrier(rewriter, loc);
    // The destination reads its elements back; runs of elements adjacent
    // along the buffer's last (contiguous) dimension are one vector load
    // of up to 16 bytes where the layout makes them so (as storeRows does
    // for stores).
    SmallVector<Value> dstAddrs =
        elementAddresses(rewriter, loc, l, dst.getEncoding(), dst.getShape(),
                         strides, offsetAttr.getInt(), mem, planeRowBytes);
    SmallVector<unsigned> starts;
    unsigned vec = 1;
    if (fastestDim(dst.getEncoding()) == dst.getRank() - 1 &&
        !isa<LLVM::LLVMPointerType>(mem) && offsetAttr.getInt() % 16 == 0)
      vec = chooseVec(dst, std::max(1u, 16 / bytes), starts);
    SmallVector<Value> out =
        loadElements(rewriter, loc, dstAddrs, mem, elem, vec, starts);
    rewriter.replaceOp(op, pack(rewriter, loc,
                                getTypeConverter()->convertType(dst), out));
    return success();
  }
};

/// Per element, whether this thread is the one that owns it among the
/// threads holding copies (a layout tile larger than the shape, or a slice
/// replicated across the lanes/warps of its parent's removed dimension).
/// Null where every element has a single owner. Side effects (atomics) run
/// only in owners.
SmallVector<Value> ownerPredicates(OpBuilder &b, Location loc,
                                   const Lowering &l, Attribute layout,
                                   ArrayRef<int64_t> shape) {
  auto [lane, warp] = laneAndWarp(b, loc, l);
  Value all = LLVM::ConstantOp::create(b, loc, b.getI1Type(), b.getBoolAttr(true));
  // Replicas across the removed dimension of slice layouts.
  Attribute cur = layout;
  while (auto slice = dyn_cast<kgpu::SliceEncodingAttr>(cur)) {
    auto terms = kgpu::getThreadBaseTerms(slice.getParent());
    for (const kgpu::BaseTerm &t : terms[slice.getDim()]) {
      Value v = baseTermValue(b, loc, lane, warp, t);
      all = LLVM::AndOp::create(
          b, loc, all,
          LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, v,
                               i32Const(b, loc, 0)));
    }
    cur = slice.getParent();
  }
  // Replicas from wrapping around the shape.
  auto terms = kgpu::getThreadBaseTerms(layout);
  SmallVector<int64_t> tile = kgpu::getTileShape(layout);
  SmallVector<Value> base;
  for (auto &dimTerms : terms) {
    Value sum = i32Const(b, loc, 0);
    for (const kgpu::BaseTerm &t : dimTerms)
      sum = LLVM::AddOp::create(b, loc, sum, baseTermValue(b, loc, lane, warp, t));
    base.push_back(sum);
  }
  SmallVector<Value> result;
  for (const auto &off : kgpu::getElemOffsets(layout, shape)) {
    Value p = all;
    for (unsigned d = 0; d < shape.size(); ++d) {
      if (tile[d] <= shape[d] && off[d] < shape[d])
        continue;
      Value idx = LLVM::AddOp::create(b, loc, base[d], i32Const(b, loc, off[d]));
      p = LLVM::AndOp::create(
          b, loc, p,
          LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ult, idx,
                               i32Const(b, loc, shape[d])));
    }
    result.push_back(p);
  }
  return result;
}

/// Whether several threads hold copies of some element of a tensor with
/// `layout` and `shape` (the cases ownerPredicates() guards).
bool layoutReplicates(Attribute layout, ArrayRef<int64_t> shape) {
  Attribute cur = layout;
  while (auto slice = dyn_cast<kgpu::SliceEncodingAttr>(cur)) {
    if (!kgpu::getThreadBaseTerms(slice.getParent())[slice.getDim()].empty())
      return true;
    cur = slice.getParent();
  }
  SmallVector<int64_t> tile = kgpu::getTileShape(layout);
  for (unsigned d = 0; d < shape.size(); ++d)
    if (tile[d] > shape[d])
      return true;
  return false;
}

/// tt.map_elementwise (tl.map_elementwise): its scalar region cloned once
/// per group of `pack` elements a thread holds, the block's arguments (pack
/// scalars of each operand, operand-major) bound to the elements and the
/// tt.map_elementwise.return operands (pack of each result) taken as the
/// results; the cloned scalar ops are then converted like any others. A
/// thread whose element count is not a multiple of pack runs its last
/// group with undefined values in the missing places. Regions of several
/// blocks (early returns) are refused by name.
struct MapElementwiseLowering : KPattern<tt::MapElementwiseOp> {
  using KPattern::KPattern;
  LogicalResult
  matchAndRewrite(tt::MapElementwiseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Region &region = op.getScalarOp();
    if (!region.hasOneBlock())
      return op.emitError() << "a tt.map_elementwise region of several blocks "
                               "(an early return) is not supported by the "
                            << targetLabel(l) << " lowering yet";
    Block &body = region.front();
    auto ret = cast<tt::MapElementwiseReturnOp>(body.getTerminator());
    unsigned group = unsigned(op.getPack());
    unsigned n =
        elemsPerThreadOfAny(op->getOperandTypes(), op->getResultTypes());
    SmallVector<SmallVector<Value>> in;
    for (auto [orig, conv] : llvm::zip(op.getSrcs(), adaptor.getSrcs()))
      in.push_back(isa<RankedTensorType>(orig.getType())
                       ? unpack(rewriter, loc, conv)
                       : SmallVector<Value>(n, conv));
    unsigned numResults = op.getNumResults();
    if (body.getNumArguments() != in.size() * group ||
        ret->getNumOperands() != numResults * group)
      return op.emitError()
             << "tt.map_elementwise's region takes " << body.getNumArguments()
             << " and returns " << ret->getNumOperands()
             << " scalars, expected pack (" << group
             << ") times the operands and results";
    SmallVector<SmallVector<Value>> out(numResults, SmallVector<Value>(n));
    for (unsigned first = 0; first < n; first += group) {
      IRMapping map;
      for (unsigned k = 0; k < in.size(); ++k)
        for (unsigned j = 0; j < group; ++j) {
          BlockArgument arg = body.getArgument(k * group + j);
          unsigned i = first + j;
          map.map(arg, i < n
                           ? in[k][i]
                           : LLVM::UndefOp::create(
                                 rewriter, loc,
                                 getTypeConverter()->convertType(arg.getType()))
                                 .getResult());
        }
      for (Operation &inner : body.without_terminator())
        rewriter.clone(inner, map);
      for (unsigned r = 0; r < numResults; ++r)
        for (unsigned j = 0; j < group; ++j)
          if (first + j < n)
            out[r][first + j] =
                map.lookupOrDefault(ret->getOperand(r * group + j));
    }
    SmallVector<Value> results;
    for (auto [r, res] : llvm::enumerate(op.getResult())) {
      Type converted = getTypeConverter()->convertType(res.getType());
      if (!isa<RankedTensorType>(res.getType())) {
        results.push_back(out[r].front());
        continue;
      }
      // Cloned scalar ops still have their tt types; the pack takes
      // converted values, so cast where the conversion will.
      SmallVector<Value> elems;
      Type elem =
          getTypeConverter()->convertType(getElementTypeOrSelf(res.getType()));
      for (Value v : out[r])
        elems.push_back(
            v.getType() == elem
                ? v
                : UnrealizedConversionCastOp::create(rewriter, loc, elem, v)
                      .getResult(0));
      results.push_back(pack(rewriter, loc, converted, elems));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// tt.histogram (tl.histogram): the bins in shared memory, zeroed by the
/// CTA's threads in turn; each element (its one owner among the threads
/// holding copies, where the mask allows) adds 1 to its bin with a shared
/// memory atomic (atom.shared.add on NVPTX). The bin is the value's bits
/// read as unsigned (u8 data reaches bin 255), modulo a power-of-two bin
/// count, as Triton 3.6 bins values outside [0, bins) (its documentation
/// leaves them undefined); with any other count they are not counted.
/// After a barrier every thread reads the bins its result elements are.
struct HistogramLowering : KPattern<tt::HistogramOp> {
  using KPattern::KPattern;
  LogicalResult
  matchAndRewrite(tt::HistogramOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType src = op.getSrc().getType(), dst = op.getType();
    auto offsetAttr = op->getAttrOfType<IntegerAttr>(kSmemOffsetAttr);
    if (!offsetAttr || !l.smem)
      return op.emitError() << "internal error: no shared memory assigned";
    int64_t bins = dst.getShape()[0];
    Type binTy = getTypeConverter()->convertType(dst.getElementType());
    Value zeroBin = LLVM::ConstantOp::create(rewriter, loc, binTy,
                                             rewriter.getIntegerAttr(binTy, 0));
    Value oneBin = LLVM::ConstantOp::create(rewriter, loc, binTy,
                                            rewriter.getIntegerAttr(binTy, 1));
    auto binAddress = [&](Value index) {
      return smemAddress(rewriter, loc, l, offsetAttr.getInt(), binTy, index);
    };
    auto when = [&](Value cond, auto body) {
      auto ifOp = scf::IfOp::create(rewriter, loc, cond, /*withElse=*/false);
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(&ifOp.getThenRegion().front());
      body();
    };
    if (l.smemShared || mayRunAgain(op))
      l.target->barrier(rewriter, loc);
    int64_t threads = int64_t(l.numWarps) * l.warpSize;
    Value tid = l.target->getThreadId(rewriter, loc);
    for (int64_t first = 0; first < bins; first += threads) {
      Value index = LLVM::AddOp::create(rewriter, loc, tid,
                                        i32Const(rewriter, loc, first));
      auto zero = [&] {
        LLVM::StoreOp::create(rewriter, loc, zeroBin, binAddress(index));
      };
      if (first + threads <= bins)
        zero();
      else
        when(LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ult,
                                  index, i32Const(rewriter, loc, bins)),
             zero);
    }
    l.target->barrier(rewriter, loc);
    SmallVector<Value> values = unpack(rewriter, loc, adaptor.getSrc());
    SmallVector<Value> masks;
    if (adaptor.getMask())
      masks = unpack(rewriter, loc, adaptor.getMask());
    SmallVector<Value> owners;
    if (layoutReplicates(src.getEncoding(), src.getShape()))
      owners =
          ownerPredicates(rewriter, loc, l, src.getEncoding(), src.getShape());
    bool pow2 = llvm::isPowerOf2_64(uint64_t(bins));
    Type i32 = rewriter.getI32Type(), i64 = rewriter.getI64Type();
    for (auto [i, v] : llvm::enumerate(values)) {
      unsigned bits = v.getType().getIntOrFloatBitWidth();
      // The value's bits as unsigned (an i8 of u8 data reaches bin 255).
      Value wide = bits < 64
                       ? LLVM::ZExtOp::create(rewriter, loc, i64, v).getResult()
                       : v;
      Value cond;
      if (!pow2)
        cond = LLVM::ICmpOp::create(
            rewriter, loc, LLVM::ICmpPredicate::ult, wide,
            LLVM::ConstantOp::create(rewriter, loc, i64,
                                     rewriter.getI64IntegerAttr(bins)));
      auto andWith = [&](Value p) {
        cond =
            cond ? LLVM::AndOp::create(rewriter, loc, cond, p).getResult() : p;
      };
      if (!owners.empty())
        andWith(owners[i]);
      if (!masks.empty())
        andWith(masks[i]);
      auto count = [&] {
        Value index = LLVM::TruncOp::create(rewriter, loc, i32, wide);
        if (pow2)
          index = LLVM::AndOp::create(rewriter, loc, index,
                                      i32Const(rewriter, loc, bins - 1));
        LLVM::AtomicRMWOp::create(rewriter, loc, LLVM::AtomicBinOp::add,
                                  binAddress(index), oneBin,
                                  LLVM::AtomicOrdering::monotonic);
      };
      if (cond)
        when(cond, count);
      else
        count();
    }
    l.target->barrier(rewriter, loc);
    SmallVector<Value> out;
    for (auto &idx :
         emitIndices(rewriter, loc, l, dst.getEncoding(), dst.getShape()))
      out.push_back(
          LLVM::LoadOp::create(rewriter, loc, binTy, binAddress(idx[0])));
    rewriter.replaceOp(
        op, pack(rewriter, loc, getTypeConverter()->convertType(dst), out));
    return success();
  }
};

/// Shared by atomic_rmw and atomic_cas: per element predicate (mask and
/// ownership), the atomic itself, and for scalar atomics the broadcast of
/// thread 0's result through shared memory.
template <typename OpTy>
LogicalResult lowerAtomic(OpTy op, ConversionPatternRewriter &rewriter,
                          const TypeConverter *tc, Lowering &l,
                          ArrayRef<Value> convertedValues, Value ptrs,
                          Value masks,
                          function_ref<Value(Value ptr, ArrayRef<Value> vals,
                                             Value pred)>
                              emit) {
  Location loc = op.getLoc();
  Type resultType = op.getType();
  auto tensor = dyn_cast<RankedTensorType>(resultType);
  SmallVector<Value> ptrList = unpack(rewriter, loc, ptrs);
  SmallVector<SmallVector<Value>> valueLists;
  for (Value v : convertedValues)
    valueLists.push_back(unpack(rewriter, loc, v));
  SmallVector<Value> maskList;
  if (masks)
    maskList = unpack(rewriter, loc, masks);
  // Only the owner of a replicated element runs its atomic; where the old
  // value is used, the owners share it through shared memory (below).
  bool shareOld = tensor && !op->use_empty() &&
                  layoutReplicates(tensor.getEncoding(), tensor.getShape());
  SmallVector<Value> owners;
  if (tensor) {
    owners = ownerPredicates(rewriter, loc, l, tensor.getEncoding(),
                             tensor.getShape());
  } else {
    Value tid = l.target->getThreadId(rewriter, loc);
    owners.push_back(LLVM::ICmpOp::create(rewriter, loc,
                                          LLVM::ICmpPredicate::eq, tid,
                                          i32Const(rewriter, loc, 0)));
  }
  SmallVector<Value> out;
  for (unsigned i = 0; i < ptrList.size(); ++i) {
    Value pred = owners[i];
    if (!maskList.empty())
      pred = LLVM::AndOp::create(rewriter, loc, pred, maskList[i]);
    SmallVector<Value> vals;
    for (auto &list : valueLists)
      vals.push_back(list[i]);
    Value old;
    if (l.target->atomicsTakePredicate()) {
      old = emit(ptrList[i], vals, pred);
    } else {
      // old = pred ? atomic : undef, as an scf.if (the atomic may sit in
      // an scf.for / scf.while / scf.if body, whose regions hold one block
      // until scf-to-cf runs after this pass).
      Type elem = vals.front().getType();
      Value undef = LLVM::UndefOp::create(rewriter, loc, elem);
      auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange{elem}, pred,
                                    /*addThenBlock=*/true,
                                    /*addElseBlock=*/true);
      Value v;
      {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(&ifOp.getThenRegion().front());
        v = emit(ptrList[i], vals, Value());
        scf::YieldOp::create(rewriter, loc, v ? v : undef);
        rewriter.setInsertionPointToStart(&ifOp.getElseRegion().front());
        scf::YieldOp::create(rewriter, loc, undef);
      }
      old = v ? ifOp.getResult(0) : Value();
    }
    if (!old)
      return op.emitError() << "'" << op->getName() << "' on "
                            << getElementTypeOrSelf(resultType)
                            << " is not supported by the " << targetLabel(l) << " lowering yet";
    out.push_back(old);
  }
  if (!tensor && !op->use_empty()) {
    auto offsetAttr = op->template getAttrOfType<IntegerAttr>(kSmemOffsetAttr);
    if (!offsetAttr || !l.smem)
      return op.emitError() << "internal error: no shared memory assigned";
    Type elem = out.front().getType();
    Value zero = i32Const(rewriter, loc, 0);
    Value p = smemAddress(rewriter, loc, l, offsetAttr.getInt(), elem, zero);
    if (l.smemShared || mayRunAgain(op))
      l.target->barrier(rewriter, loc);
    // Thread 0 (the one that ran the atomic) stores the old value; every
    // thread reads it after the barrier.
    Value tid = l.target->getThreadId(rewriter, loc);
    Value isZero = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                        tid, zero);
    // An scf.if, not blocks: the atomic may sit in an scf.for / scf.while /
    // scf.if body (a spin-wait on a flag, as Inductor's decoupled look-back
    // scan has), whose regions hold one block until scf-to-cf runs.
    auto ifOp = scf::IfOp::create(rewriter, loc, isZero, /*withElse=*/false);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(&ifOp.getThenRegion().front());
      LLVM::StoreOp::create(rewriter, loc, out.front(), p);
    }
    l.target->barrier(rewriter, loc);
    out[0] = LLVM::LoadOp::create(rewriter, loc, elem, p);
  }
  if (shareOld) {
    // Each element's owner stores its old value at the element's row-major
    // index; after a barrier every copy reads it there (a copy's index from
    // wrapping around the shape taken modulo the shape).
    auto offsetAttr = op->template getAttrOfType<IntegerAttr>(kSmemOffsetAttr);
    if (!offsetAttr || !l.smem)
      return op.emitError() << "internal error: no shared memory assigned";
    Type elem = out.front().getType();
    ArrayRef<int64_t> shape = tensor.getShape();
    SmallVector<Value> addrs;
    for (auto &idx :
         emitIndices(rewriter, loc, l, tensor.getEncoding(), shape)) {
      SmallVector<Value> wrapped;
      for (auto [d, v] : llvm::enumerate(idx))
        wrapped.push_back(LLVM::URemOp::create(
            rewriter, loc, v, i32Const(rewriter, loc, shape[d])));
      addrs.push_back(smemAddress(rewriter, loc, l, offsetAttr.getInt(), elem,
                                  linearIndex(rewriter, loc, wrapped, shape)));
    }
    if (l.smemShared || mayRunAgain(op))
      l.target->barrier(rewriter, loc);
    for (unsigned i = 0; i < out.size(); ++i) {
      auto ifOp =
          scf::IfOp::create(rewriter, loc, owners[i], /*withElse=*/false);
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(&ifOp.getThenRegion().front());
      LLVM::StoreOp::create(rewriter, loc, out[i], addrs[i]);
    }
    l.target->barrier(rewriter, loc);
    for (unsigned i = 0; i < out.size(); ++i)
      out[i] = LLVM::LoadOp::create(rewriter, loc, elem, addrs[i]);
  }
  rewriter.replaceOp(op, pack(rewriter, loc, tc->convertType(resultType), out));
  return success();
}

struct AtomicRMWLowering : KPattern<tt::AtomicRMWOp> {
  using KPattern::KPattern;
  LogicalResult
  matchAndRewrite(tt::AtomicRMWOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    return lowerAtomic(
        op, rewriter, getTypeConverter(), l, {adaptor.getVal()},
        adaptor.getPtr(), adaptor.getMask(),
        [&](Value ptr, ArrayRef<Value> vals, Value pred) {
          return l.target->atomicRMW(rewriter, op.getLoc(),
                                     op.getAtomicRmwOp(), ptr, vals[0], pred,
                                     op.getSem(), op.getScope());
        });
  }
};

struct AtomicCASLowering : KPattern<tt::AtomicCASOp> {
  using KPattern::KPattern;
  LogicalResult
  matchAndRewrite(tt::AtomicCASOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    return lowerAtomic(
        op, rewriter, getTypeConverter(), l,
        {adaptor.getCmp(), adaptor.getVal()}, adaptor.getPtr(), Value(),
        [&](Value ptr, ArrayRef<Value> vals, Value pred) {
          return l.target->atomicCAS(rewriter, op.getLoc(), ptr, vals[0],
                                     vals[1], pred, op.getSem(), op.getScope());
        });
  }
};

/// The most 32-bit shuffle or shared-memory steps (rows x chunks x steps x
/// words a thread) a scan is unrolled into (planShuffleScan).
constexpr int64_t kShuffleScanBudget = 512;

/// How a tt.scan runs in registers and warp shuffles. Along the scanned
/// axis the layout places element j of chunk r of a thread at
///   index = r * (spt * lanes * warps) + warp * (spt * lanes) + lane * spt + j
/// with r < reps, j < spt (blocked layouts and their slices;
/// kgpu::getThreadBaseTerms gives the lane and warp terms). A layout whose
/// tile is longer than the axis (a power of two) replicates it: the lanes
/// or warps past the axis's end hold copies (their ids' higher bits), and
/// so do a thread's elements past it (`copies`).
struct ShuffleScan {
  std::optional<kgpu::BaseTerm> lane, warp;
  /// Distinct lanes and warps along the axis, elements per chunk, chunks.
  int64_t lanes = 1, warps = 1, spt = 1, reps = 1;
  /// Per row the thread holds (rows are keyed by the element offsets of
  /// the other dimensions), its elements' register indices [r][j].
  SmallVector<SmallVector<SmallVector<unsigned>>> rows;
  /// (element, the element of the same row it copies).
  SmallVector<std::pair<unsigned, unsigned>> copies;
  /// Rows of the tensor (the product of the other dimensions).
  int64_t tensorRows = 1;

  /// Whether every lane of a warp holds the same rows (the lanes are spread
  /// along the axis only, or hold copies along the other dimensions).
  bool lanesShareRows = true;

  /// Shared memory the warps' totals take per operand, in elements: one per
  /// warp along the axis, chunk and row (none with one warp on the axis).
  int64_t smemElems() const { return warps > 1 ? tensorRows * reps * warps : 0; }
};

std::optional<ShuffleScan> planShuffleScan(tt::ScanOp scan) {
  auto type = cast<RankedTensorType>(scan.getSrcs().front().getType());
  unsigned axis = scan.getAxis();
  Attribute layout = type.getEncoding();
  if (!layout || !kgpu::isDistributedLayout(layout) || kgpu::isMmaV2(layout) ||
      isa<kgpu::MfmaEncodingAttr>(layout))
    return std::nullopt;
  if (auto slice = dyn_cast<kgpu::SliceEncodingAttr>(layout))
    if (!isa<kgpu::BlockedEncodingAttr>(slice.getParent()))
      return std::nullopt;
  ArrayRef<int64_t> shape = type.getShape();
  int64_t axisLen = shape[axis];
  int64_t tile = kgpu::getTileShape(layout)[axis];
  ShuffleScan p;
  auto terms = kgpu::getThreadBaseTerms(layout);
  for (const kgpu::BaseTerm &t : terms[axis]) {
    std::optional<kgpu::BaseTerm> &slot = t.isWarp ? p.warp : p.lane;
    if (slot || !llvm::isPowerOf2_32(t.divisor) ||
        !llvm::isPowerOf2_32(t.modulus))
      return std::nullopt;
    slot = t;
  }
  for (unsigned d = 0; d < shape.size(); ++d)
    if (d != axis)
      for (const kgpu::BaseTerm &t : terms[d])
        if (!t.isWarp && t.modulus > 1 && t.multiplier < shape[d])
          p.lanesShareRows = false;
  int64_t laneCount = p.lane ? p.lane->modulus : 1;
  int64_t warpCount = p.warp ? p.warp->modulus : 1;
  int64_t spt = p.lane ? p.lane->multiplier
                       : p.warp ? p.warp->multiplier : tile;
  if ((p.warp && p.warp->multiplier != spt * laneCount) ||
      tile != spt * laneCount * warpCount)
    return std::nullopt;
  if (axisLen % tile == 0) {
    p.lanes = laneCount;
    p.warps = warpCount;
    p.spt = spt;
    p.reps = axisLen / tile;
  } else if (tile > axisLen && llvm::isPowerOf2_64(axisLen) &&
             llvm::isPowerOf2_64(spt)) {
    p.spt = std::min(spt, axisLen);
    p.lanes = std::clamp<int64_t>(axisLen / spt, 1, laneCount);
    p.warps = std::clamp<int64_t>(axisLen / (spt * laneCount), 1, warpCount);
  } else {
    return std::nullopt;
  }
  int64_t chunk = p.spt * p.lanes * p.warps;
  if (chunk * p.reps != axisLen)
    return std::nullopt;
  p.tensorRows = type.getNumElements() / axisLen;
  // Every row the thread holds must have exactly the elements r * chunk + j
  // (and copies of them).
  SmallVector<SmallVector<int64_t>> keys;
  SmallVector<std::pair<unsigned, int64_t>> copyOf;
  SmallVector<unsigned> copyRow;
  for (auto [e, off] :
       llvm::enumerate(kgpu::getElemOffsets(layout, shape))) {
    SmallVector<int64_t> key(off);
    key.erase(key.begin() + axis);
    auto it = llvm::find(keys, key);
    if (it == keys.end()) {
      keys.push_back(key);
      p.rows.emplace_back(p.reps, SmallVector<unsigned>(p.spt, ~0u));
      it = std::prev(keys.end());
    }
    unsigned row = it - keys.begin();
    int64_t a = off[axis];
    if (a < 0)
      return std::nullopt;
    if (a >= axisLen) {
      copyOf.push_back({unsigned(e), a % axisLen});
      copyRow.push_back(row);
      continue;
    }
    int64_t r = a / chunk, j = a % chunk;
    if (j >= p.spt)
      return std::nullopt;
    unsigned &slot = p.rows[row][r][j];
    if (slot != ~0u)
      return std::nullopt;
    slot = e;
  }
  for (auto &row : p.rows)
    for (auto &elems : row)
      if (llvm::is_contained(elems, ~0u))
        return std::nullopt;
  for (auto [c, row] : llvm::zip(copyOf, copyRow)) {
    int64_t a = c.second;
    if (a % chunk >= p.spt)
      return std::nullopt;
    p.copies.push_back({c.first, p.rows[row][a / chunk][a % chunk]});
  }
  // The code is unrolled: every row and chunk a thread holds takes its own
  // lane steps and warp step, in every 32-bit word of its operands, where
  // the shared-memory walk loops (scf.for). Past a budget the walk is
  // cheaper to compile and no slower to run (helper-94: a cumsum of 256 x
  // 128 along 16 warps, 4 rows and 16 chunks a thread, took 1050 ms and
  // spilled 18.5 KB, against 62 ms; one warp over 8192 i64, 256 chunks,
  // 2.1 s against 0.2 s). Budget 512: below it the kernels measured were
  // faster than the walk's (docs/BENCHMARKS.md, forty-eighth session).
  int64_t words = 0;
  for (Value src : scan.getSrcs()) {
    Type e = getElementTypeOrSelf(src.getType());
    words += isa<tt::PointerType>(e) ? 2 : llvm::divideCeil(bitWidth(e), 32);
  }
  int64_t steps = llvm::Log2_64(p.lanes) + (p.spt > 1 && p.lanes > 1);
  if (p.warps > 1)
    steps += p.warps >= 8 && p.lanesShareRows ? llvm::Log2_64(p.warps) + 2
                                               : p.warps;
  else if (p.reps > 1)
    steps += 1;
  int64_t chunks = int64_t(p.rows.size()) * p.reps;
  if (chunks * std::max<int64_t>(steps, 1) * words > kShuffleScanBudget)
    return std::nullopt;
  return p;
}

/// One row of a tt.scan in shared memory (the elements along the scanned
/// axis at one index of the other dimensions), in every operand's buffer:
/// element j of the row in scan order, and its loads and stores.
struct ScanRow {
  const Lowering &l;
  Location loc;
  ArrayRef<Type> memTypes, elemTypes;
  ArrayRef<int64_t> bufOffsets;
  bool reverse;
  int64_t axisLen, inner;
  /// Row-major index of the row's element 0 in memory order (setRow).
  Value base;

  /// Selects row `row` (0 .. rows - 1; rows run over the dimensions
  /// before the axis, then those after it).
  void setRow(OpBuilder &b, Value row) {
    IndexMath im{b, loc};
    Value outer = im.udiv(row, inner);
    Value in = im.urem(row, inner);
    base = im.add(im.mul(outer, axisLen * inner), in);
  }
  /// The row-major index of element `j` (in scan order).
  Value position(OpBuilder &b, Value j) const {
    IndexMath im{b, loc};
    Value p = j;
    if (reverse)
      p = LLVM::SubOp::create(b, loc, im.c(axisLen - 1), j);
    return im.add(base, im.mul(p, inner));
  }
  /// Every operand's value at row-major index `pos`.
  SmallVector<Value> loadAt(OpBuilder &b, Value pos) const {
    SmallVector<Value> vals;
    for (auto [mem, elem, offset] : llvm::zip(memTypes, elemTypes, bufOffsets))
      vals.push_back(fromMemory(
          b, loc,
          LLVM::LoadOp::create(b, loc, mem,
                               smemAddress(b, loc, l, offset, mem, pos)),
          elem));
    return vals;
  }
  void storeAt(OpBuilder &b, Value pos, ArrayRef<Value> vals) const {
    for (auto [mem, offset, v] : llvm::zip(memTypes, bufOffsets, vals))
      LLVM::StoreOp::create(b, loc, toMemory(b, loc, v),
                            smemAddress(b, loc, l, offset, mem, pos));
  }
  SmallVector<Value> load(OpBuilder &b, Value j) const {
    return loadAt(b, position(b, j));
  }
  void store(OpBuilder &b, Value j, ArrayRef<Value> vals) const {
    storeAt(b, position(b, j), vals);
  }
};

/// tt.scan, for any (associative) combiner, operand count and direction: in
/// registers and shuffles where the layout allows (ShuffleScan,
/// lowerByShuffles), otherwise (the mma.sync and MFMA accumulator layouts,
/// and lanes or warps whose elements are not consecutive along the axis) in
/// shared memory as follows. Every thread stores its elements at their
/// row-major index. When the CTA has at least as many threads as rows, each
/// row is cut into S segments (S a power of two, at most threads / rows) and:
///   A. a thread per segment walks it serially (inclusive scan in place);
///   B. the segments' last elements, each its segment's total, are scanned
///      across the row in log2(S) rounds (Hillis-Steele: in round d, the
///      total of segment s >= d becomes total(s - d) combined with
///      total(s); reads before a barrier, writes after it), which leaves in
///      each segment's last element its final value;
///   C. a thread per segment s > 0 combines the final value of segment
///      s - 1 into its other elements.
/// Otherwise (S = 1) a thread per row walks it. Every thread then reads
/// its elements back. A 1024-element cumsum with 128 threads: 8 serial
/// steps, 7 rounds and 7 steps, instead of 1023 steps in one thread.
/// Floating-point sums are associated differently from a serial walk, so
/// they round differently once the partial sums are inexact (f16 past
/// 2048), as any parallel scan's do, Triton's included.
struct ScanLowering : KPattern<tt::ScanOp> {
  using KPattern::KPattern;
  LogicalResult
  matchAndRewrite(tt::ScanOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getSrcs().front().getType());
    auto shape = type.getShape();
    unsigned axis = op.getAxis();
    // The combiner is cloned as it is, so its ops would keep tt.ptr types
    // (helper-94: a scan over pointers failed LLVM's verifier by the type).
    for (Value src : op.getSrcs())
      if (isa<tt::PointerType>(getElementTypeOrSelf(src.getType())))
        return op.emitError()
               << "tt.scan over a tensor of pointers is not supported by the "
               << targetLabel(l) << " lowering yet; scan integers "
               << "(tt.ptr_to_int) and convert back (tt.int_to_ptr)";
    if (std::optional<ShuffleScan> plan = planShuffleScan(op))
      return lowerByShuffles(op, adaptor, rewriter, *plan);
    auto offsetAttr = op->getAttrOfType<IntegerAttr>(kSmemOffsetAttr);
    if (!offsetAttr || !l.smem)
      return op.emitError() << "internal error: no shared memory assigned";
    unsigned numOps = op.getSrcs().size();
    int64_t numel = type.getNumElements();
    SmallVector<Type> elemTypes, memTypes;
    SmallVector<int64_t> bufOffsets;
    int64_t off = offsetAttr.getInt();
    for (Value src : op.getSrcs()) {
      Type e = getTypeConverter()->convertType(getElementTypeOrSelf(src.getType()));
      elemTypes.push_back(e);
      memTypes.push_back(memoryType(e));
      bufOffsets.push_back(off);
      off += llvm::alignTo(numel * bitWidth(memoryType(e)) / 8, 16);
    }
    // 1. Every thread writes its elements at their row-major index.
    auto indices = emitIndices(rewriter, loc, l, type.getEncoding(), shape);
    SmallVector<Value> lin;
    for (auto &idx : indices)
      lin.push_back(linearIndex(rewriter, loc, idx, shape));
    if (l.smemShared || mayRunAgain(op))
      l.target->barrier(rewriter, loc);
    for (unsigned k = 0; k < numOps; ++k) {
      SmallVector<Value> vals = unpack(rewriter, loc, adaptor.getSrcs()[k]);
      for (auto [i, v] : llvm::enumerate(vals))
        LLVM::StoreOp::create(
            rewriter, loc, toMemory(rewriter, loc, v),
            smemAddress(rewriter, loc, l, bufOffsets[k], memTypes[k], lin[i]));
    }
    l.target->barrier(rewriter, loc);

    // 2. Rows are spread over the CTA's threads; each walks its row.
    int64_t axisLen = shape[axis];
    int64_t inner = 1;
    for (unsigned d = axis + 1; d < shape.size(); ++d)
      inner *= shape[d];
    int64_t numRows = numel / axisLen;
    unsigned numThreads = l.numWarps * l.warpSize;
    Value tid = l.target->getThreadId(rewriter, loc);
    int64_t segments = 1;
    while (axisLen % (segments * 2) == 0 &&
           numRows * segments * 2 <= numThreads)
      segments *= 2;
    if (segments > 1) {
      scanSegments(op, rewriter, segments, axisLen, inner, numRows, tid,
                   memTypes, elemTypes, bufOffsets);
    } else {
      auto rowLoop = scf::ForOp::create(rewriter, loc, tid,
                                        i32Const(rewriter, loc, numRows),
                                        i32Const(rewriter, loc, numThreads));
      {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPoint(rowLoop.getBody()->getTerminator());
        ScanRow r = scanRow(op, axisLen, inner, memTypes, elemTypes,
                            bufOffsets);
        r.setRow(rewriter, rowLoop.getInductionVar());
        SmallVector<Value> init =
            r.load(rewriter, i32Const(rewriter, loc, 0));
        auto walk = scf::ForOp::create(
            rewriter, loc, i32Const(rewriter, loc, 1),
            i32Const(rewriter, loc, axisLen), i32Const(rewriter, loc, 1), init);
        rewriter.setInsertionPointToStart(walk.getBody());
        Value pos = r.position(rewriter, walk.getInductionVar());
        SmallVector<Value> acc(walk.getRegionIterArgs());
        SmallVector<Value> combined = combine(rewriter, op.getCombineOp(), acc,
                                              r.loadAt(rewriter, pos));
        r.storeAt(rewriter, pos, combined);
        scf::YieldOp::create(rewriter, loc, combined);
      }
    }
    l.target->barrier(rewriter, loc);

    // 3. Every thread reads its elements back.
    SmallVector<Value> results;
    for (unsigned k = 0; k < numOps; ++k) {
      SmallVector<Value> vals;
      for (Value i : lin)
        vals.push_back(fromMemory(
            rewriter, loc,
            LLVM::LoadOp::create(rewriter, loc, memTypes[k],
                                 smemAddress(rewriter, loc, l, bufOffsets[k],
                                             memTypes[k], i)),
            elemTypes[k]));
      results.push_back(pack(rewriter, loc,
                             getTypeConverter()->convertType(op.getResult()[k].getType()),
                             vals));
    }
    rewriter.replaceOp(op, results);
    return success();
  }

  /// The scan in registers (ShuffleScan's layouts), in scan order (for a
  /// reverse scan, from the highest index down):
  ///   1. each chunk of spt elements a thread holds, serially;
  ///   2. the chunks' totals across the lanes of the axis, Hillis-Steele
  ///      over log2(lanes) shuffles (up, or down for reverse), then each
  ///      thread's elements combined with the previous lane's inclusive
  ///      total (one more shuffle);
  ///   3. with several warps on the axis, each warp's total (its last lane
  ///      along the axis) through shared memory, one barrier, and every
  ///      thread combines the totals of the warps before its own;
  ///   4. with several chunks per row (reps), each chunk's elements
  ///      combined with the total of the chunks before it.
  /// A combine always takes the earlier part first, so an associative
  /// combiner need not commute. A 1024-element cumsum on 4 warps, 4
  /// elements a thread in two chunks: 5 + 1 shuffles and one barrier per
  /// chunk pair, against the shared-memory walk's 17 barriers.
  LogicalResult lowerByShuffles(tt::ScanOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter,
                                const ShuffleScan &p) const {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getSrcs().front().getType());
    unsigned axis = op.getAxis();
    bool reverse = op.getReverse();
    unsigned numOps = op.getSrcs().size();
    Region &combiner = op.getCombineOp();
    IndexMath im{rewriter, loc};
    SmallVector<SmallVector<Value>> in;
    for (Value v : adaptor.getSrcs())
      in.push_back(unpack(rewriter, loc, v));
    // vals[e]: element e's values, one per operand.
    SmallVector<SmallVector<Value>> vals(in.front().size());
    for (unsigned e = 0; e < vals.size(); ++e)
      for (unsigned k = 0; k < numOps; ++k)
        vals[e].push_back(in[k][e]);
    auto select = [&](Value cond, ArrayRef<Value> a, ArrayRef<Value> b) {
      SmallVector<Value> out;
      for (auto [x, y] : llvm::zip(a, b))
        out.push_back(LLVM::SelectOp::create(rewriter, loc, cond, x, y));
      return out;
    };
    // Each operand's value from another lane.
    auto shuffled = [&](ArrayRef<Value> a,
                        function_ref<Value(Value)> shuffleWord) {
      SmallVector<Value> out;
      for (Value v : a)
        out.push_back(shuffleValue(rewriter, loc, v, shuffleWord));
      return out;
    };
    // From lane `src` (i32).
    auto fromLane = [&](ArrayRef<Value> a, Value src) {
      return shuffled(a, [&](Value w) {
        return l.target->shuffleIdx(rewriter, loc, w, src);
      });
    };
    // From the lane `lanes` positions earlier in scan order.
    auto fromEarlierLane = [&](ArrayRef<Value> a, unsigned lanes) {
      unsigned delta = lanes * p.lane->divisor;
      return shuffled(a, [&](Value w) {
        return reverse ? l.target->shuffleDown(rewriter, loc, w, delta)
                       : l.target->shuffleUp(rewriter, loc, w, delta);
      });
    };
    auto cmp = [&](LLVM::ICmpPredicate pred, Value x, int64_t y) -> Value {
      return LLVM::ICmpOp::create(rewriter, loc, pred, x, im.c(y));
    };
    auto [lane, warp] = laneAndWarp(rewriter, loc, l);
    // The thread's position along the axis among the lanes / warps, counted
    // in scan order.
    auto position = [&](const std::optional<kgpu::BaseTerm> &t, Value id,
                        int64_t count) -> Value {
      if (!t)
        return im.c(0);
      Value v = LLVM::LShrOp::create(rewriter, loc, id,
                                     im.c(llvm::Log2_32(t->divisor)));
      v = LLVM::AndOp::create(rewriter, loc, v, im.c(count - 1));
      return reverse ? LLVM::SubOp::create(rewriter, loc, im.c(count - 1), v)
                     : v;
    };
    Value lanePos = position(p.lane, lane, p.lanes);
    Value warpPos = position(p.warp, warp, p.warps);
    auto inScanOrder = [&](int64_t n) {
      SmallVector<int64_t> order;
      for (int64_t i = 0; i < n; ++i)
        order.push_back(reverse ? n - 1 - i : i);
      return order;
    };
    SmallVector<int64_t> chunkOrder = inScanOrder(p.reps),
                         elemOrder = inScanOrder(p.spt);

    // 1 and 2: per row and chunk, the lane-inclusive total (in `totals`).
    SmallVector<SmallVector<SmallVector<Value>>> totals(p.rows.size());
    for (auto [row, chunks] : llvm::enumerate(p.rows)) {
      for (int64_t r = 0; r < p.reps; ++r) {
        const SmallVector<unsigned> &elems = chunks[r];
        SmallVector<Value> acc;
        for (int64_t j : elemOrder) {
          SmallVector<Value> &v = vals[elems[j]];
          if (!acc.empty())
            v = combine(rewriter, combiner, acc, v);
          acc = v;
        }
        if (p.lanes > 1) {
          for (int64_t k = 1; k < p.lanes; k *= 2)
            acc = select(cmp(LLVM::ICmpPredicate::uge, lanePos, k),
                         combine(rewriter, combiner,
                                 fromEarlierLane(acc, k), acc),
                         acc);
          // The chunk's last element is the lane's inclusive total; the
          // others take the previous lane's.
          vals[elems[elemOrder.back()]] = acc;
          if (p.spt > 1) {
            SmallVector<Value> before = fromEarlierLane(acc, 1);
            Value notFirst = cmp(LLVM::ICmpPredicate::ne, lanePos, 0);
            for (int64_t j : ArrayRef(elemOrder).drop_back())
              vals[elems[j]] =
                  select(notFirst, combine(rewriter, combiner, before, vals[elems[j]]),
                         vals[elems[j]]);
          }
        }
        totals[row].push_back(acc);
      }
    }

    // 3. The warps' totals through shared memory; `chunkTotal`: each
    // chunk's total over the whole axis, for step 4.
    SmallVector<SmallVector<SmallVector<Value>>> chunkTotal(p.rows.size());
    if (p.warps > 1) {
      auto offsetAttr = op->getAttrOfType<IntegerAttr>(kSmemOffsetAttr);
      if (!offsetAttr || !l.smem)
        return op.emitError() << "internal error: no shared memory assigned";
      SmallVector<Type> memTypes;
      SmallVector<int64_t> bufOffsets;
      int64_t off = offsetAttr.getInt();
      for (Value v : totals.front().front()) {
        memTypes.push_back(memoryType(v.getType()));
        bufOffsets.push_back(off);
        off += llvm::alignTo(p.smemElems() * bitWidth(memTypes.back()) / 8, 16);
      }
      // Slot of (row, chunk, warp), rows by their index over the other
      // dimensions. Where the lanes of a warp hold different rows, those
      // rows are adjacent words (a row-major [chunk][warp][row] array, no
      // bank conflicts among the lanes); where they share rows and read one
      // warp's total each (byLanes below), the warps are ([row][chunk][warp]).
      SmallVector<int64_t> rowShape(type.getShape());
      rowShape.erase(rowShape.begin() + axis);
      auto indices = emitIndices(rewriter, loc, l, type.getEncoding(),
                                 type.getShape());
      SmallVector<Value> rowIndex;
      for (auto &chunks : p.rows) {
        SmallVector<Value> idx(indices[chunks.front().front()]);
        idx.erase(idx.begin() + axis);
        rowIndex.push_back(linearIndex(rewriter, loc, idx, rowShape));
      }
      auto slot = [&](unsigned row, int64_t r, Value w) {
        Value chunkWarp = im.add(im.c(r * p.warps), w);
        if (p.lanesShareRows)
          return im.add(im.mul(rowIndex[row], p.reps * p.warps), chunkWarp);
        return im.add(im.mul(chunkWarp, p.tensorRows), rowIndex[row]);
      };
      Value warpIdx = reverse ? LLVM::SubOp::create(rewriter, loc,
                                                    im.c(p.warps - 1), warpPos)
                              : warpPos;
      if (l.smemShared || mayRunAgain(op))
        l.target->barrier(rewriter, loc);
      Value holdsTotal = cmp(LLVM::ICmpPredicate::eq, lanePos, p.lanes - 1);
      auto ifOp = scf::IfOp::create(rewriter, loc, holdsTotal, false);
      {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(&ifOp.getThenRegion().front());
        for (auto [row, chunks] : llvm::enumerate(totals))
          for (auto [r, t] : llvm::enumerate(chunks))
            for (unsigned k = 0; k < numOps; ++k)
              LLVM::StoreOp::create(
                  rewriter, loc, toMemory(rewriter, loc, t[k]),
                  smemAddress(rewriter, loc, l, bufOffsets[k], memTypes[k],
                              slot(row, r, warpIdx)));
      }
      l.target->barrier(rewriter, loc);
      auto loadTotal = [&](unsigned row, int64_t r, Value warpSlot) {
        SmallVector<Value> t;
        for (unsigned k = 0; k < numOps; ++k)
          t.push_back(fromMemory(
              rewriter, loc,
              LLVM::LoadOp::create(
                  rewriter, loc, memTypes[k],
                  smemAddress(rewriter, loc, l, bufOffsets[k], memTypes[k],
                              slot(row, r, warpSlot))),
              totals[row][r][k].getType()));
        return t;
      };
      Value notFirst = cmp(LLVM::ICmpPredicate::ne, warpPos, 0);
      // With 8 or more warps on the axis and the same rows in every lane,
      // lane i of every warp reads warp i's total (in scan order) and the
      // lanes scan them (log2(warps) shuffles); each thread then takes the
      // total before its warp's and the last one from those lanes. Fewer
      // warps' totals, or lanes with rows of their own, are read by every
      // thread (vector loads) and combined in order.
      bool byLanes = p.warps >= 8 && p.lanesShareRows;
      Value laneWarp, prevLane, lastLane;
      if (byLanes) {
        laneWarp = LLVM::AndOp::create(rewriter, loc, lane, im.c(p.warps - 1));
        // The group of `warps` lanes this lane is in, and the lane of it
        // that holds warp `w`'s inclusive total.
        Value group = LLVM::AndOp::create(rewriter, loc, lane, im.c(~(p.warps - 1)));
        prevLane = LLVM::OrOp::create(
            rewriter, loc, group,
            LLVM::SelectOp::create(rewriter, loc, notFirst,
                                   LLVM::SubOp::create(rewriter, loc, warpPos,
                                                       im.c(1)),
                                   im.c(0)));
        lastLane = LLVM::OrOp::create(rewriter, loc, group, im.c(p.warps - 1));
      }
      for (auto [row, chunks] : llvm::enumerate(p.rows)) {
        for (int64_t r = 0; r < p.reps; ++r) {
          // `prefix`: the totals of the warps before this thread's;
          // `running`: all warps' total.
          SmallVector<Value> running, prefix;
          if (byLanes) {
            Value stored = reverse ? LLVM::SubOp::create(rewriter, loc,
                                                         im.c(p.warps - 1),
                                                         laneWarp)
                                   : laneWarp;
            SmallVector<Value> t = loadTotal(row, r, stored);
            for (int64_t k = 1; k < p.warps; k *= 2) {
              SmallVector<Value> u = shuffled(t, [&](Value w) {
                return l.target->shuffleUp(rewriter, loc, w, k);
              });
              t = select(cmp(LLVM::ICmpPredicate::uge, laneWarp, k),
                         combine(rewriter, combiner, u, t), t);
            }
            prefix = fromLane(t, prevLane);
            running = fromLane(t, lastLane);
          } else {
            for (int64_t w = 0; w < p.warps; ++w) {
              SmallVector<Value> t =
                  loadTotal(row, r, im.c(reverse ? p.warps - 1 - w : w));
              if (w == 1)
                prefix = running;
              else if (w > 1)
                prefix = select(cmp(LLVM::ICmpPredicate::eq, warpPos, w),
                                running, prefix);
              running =
                  running.empty() ? t : combine(rewriter, combiner, running, t);
            }
          }
          for (unsigned e : chunks[r])
            vals[e] = select(notFirst, combine(rewriter, combiner, prefix, vals[e]),
                             vals[e]);
          chunkTotal[row].push_back(running);
        }
      }
    } else if (p.reps > 1) {
      // One warp on the axis: the chunk's total is its last lane's (the
      // thread's own with one lane on the axis).
      Value src;
      if (p.lanes > 1) {
        int64_t mask = (p.lanes - 1) * p.lane->divisor;
        src = LLVM::OrOp::create(
            rewriter, loc, LLVM::AndOp::create(rewriter, loc, lane, im.c(~mask)),
            im.c(reverse ? 0 : mask));
      }
      for (auto [row, chunks] : llvm::enumerate(totals))
        for (auto &t : chunks)
          chunkTotal[row].push_back(src ? fromLane(t, src) : t);
    }

    // 4. The chunks before each chunk.
    if (p.reps > 1) {
      for (auto [row, chunks] : llvm::enumerate(p.rows)) {
        SmallVector<Value> carry;
        for (int64_t r : chunkOrder) {
          if (!carry.empty())
            for (unsigned e : chunks[r])
              vals[e] = combine(rewriter, combiner, carry, vals[e]);
          carry = carry.empty() ? chunkTotal[row][r]
                                : combine(rewriter, combiner, carry,
                                          chunkTotal[row][r]);
        }
      }
    }

    for (auto [copy, of] : p.copies)
      vals[copy] = vals[of];

    SmallVector<Value> results;
    for (unsigned k = 0; k < numOps; ++k) {
      SmallVector<Value> out;
      for (auto &v : vals)
        out.push_back(v[k]);
      results.push_back(pack(
          rewriter, loc,
          getTypeConverter()->convertType(op.getResult()[k].getType()), out));
    }
    rewriter.replaceOp(op, results);
    return success();
  }

  ScanRow scanRow(tt::ScanOp op, int64_t axisLen, int64_t inner,
                  ArrayRef<Type> memTypes, ArrayRef<Type> elemTypes,
                  ArrayRef<int64_t> bufOffsets) const {
    return ScanRow{l,        op.getLoc(),     memTypes, elemTypes, bufOffsets,
                   op.getReverse(), axisLen, inner,    Value()};
  }

  /// Steps A-C above for `segments` segments per row; ends with the
  /// barrier of step C still to be emitted by the caller.
  void scanSegments(tt::ScanOp op, ConversionPatternRewriter &rewriter,
                    int64_t segments, int64_t axisLen, int64_t inner,
                    int64_t numRows, Value tid, ArrayRef<Type> memTypes,
                    ArrayRef<Type> elemTypes,
                    ArrayRef<int64_t> bufOffsets) const {
    Location loc = op.getLoc();
    int64_t segLen = axisLen / segments;
    IndexMath im{rewriter, loc};
    auto cmp = [&](LLVM::ICmpPredicate pred, Value x, int64_t y) -> Value {
      return LLVM::ICmpOp::create(rewriter, loc, pred, x, im.c(y));
    };
    // Threads past the last segment take thread 0's indices (their
    // addresses stay in the buffers) and store nothing.
    Value active = cmp(LLVM::ICmpPredicate::ult, tid, numRows * segments);
    Value t = LLVM::SelectOp::create(rewriter, loc, active, tid, im.c(0));
    Value row = im.udiv(t, segments);
    Value seg = im.urem(t, segments);
    ScanRow r = scanRow(op, axisLen, inner, memTypes, elemTypes, bufOffsets);
    r.setRow(rewriter, row);
    auto when = [&](Value cond, auto body) {
      auto ifOp = scf::IfOp::create(rewriter, loc, cond, /*withElse=*/false);
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(&ifOp.getThenRegion().front());
      body();
    };
    Value first = im.mul(seg, segLen);
    // The last element of segment `s`, in scan order.
    auto lastOf = [&](Value s) { return im.add(im.mul(s, segLen), segLen - 1); };

    // A. Each segment scanned in place.
    if (segLen > 1)
      when(active, [&] {
        SmallVector<Value> init = r.load(rewriter, first);
        auto walk = scf::ForOp::create(rewriter, loc, im.c(1), im.c(segLen),
                                       im.c(1), init);
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(walk.getBody());
        Value j = im.add(first, walk.getInductionVar());
        SmallVector<Value> acc(walk.getRegionIterArgs());
        SmallVector<Value> combined =
            combine(rewriter, op.getCombineOp(), acc, r.load(rewriter, j));
        r.store(rewriter, j, combined);
        scf::YieldOp::create(rewriter, loc, combined);
      });
    l.target->barrier(rewriter, loc);

    // B. The segments' totals scanned across the row.
    Value last = lastOf(seg);
    for (int64_t d = 1; d < segments; d *= 2) {
      // Segments s >= d combine total(s - d) into theirs; the others read
      // segment 0 and keep theirs.
      Value combines = cmp(LLVM::ICmpPredicate::uge, seg, d);
      Value from = LLVM::SelectOp::create(
          rewriter, loc, combines,
          LLVM::SubOp::create(rewriter, loc, seg, im.c(d)), im.c(0));
      SmallVector<Value> combined =
          combine(rewriter, op.getCombineOp(), r.load(rewriter, lastOf(from)),
                  r.load(rewriter, last));
      l.target->barrier(rewriter, loc);
      when(LLVM::AndOp::create(rewriter, loc, active, combines),
           [&] { r.store(rewriter, last, combined); });
      l.target->barrier(rewriter, loc);
    }

    // C. The previous segments' total combined into the other elements.
    if (segLen > 1) {
      Value writes = LLVM::AndOp::create(rewriter, loc, active,
                                         cmp(LLVM::ICmpPredicate::ne, seg, 0));
      when(writes, [&] {
        Value prev = LLVM::SubOp::create(rewriter, loc, seg, im.c(1));
        SmallVector<Value> prefix = r.load(rewriter, lastOf(prev));
        auto walk = scf::ForOp::create(rewriter, loc, im.c(0),
                                       im.c(segLen - 1), im.c(1));
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPoint(walk.getBody()->getTerminator());
        Value j = im.add(first, walk.getInductionVar());
        r.store(rewriter, j,
                combine(rewriter, op.getCombineOp(), prefix,
                        r.load(rewriter, j)));
      });
    }
  }
};

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

bool isSupported(Operation *op) {
  return isa<tt::FuncOp, tt::ReturnOp, tt::CallOp, tt::GetProgramIdOp,
             tt::GetNumProgramsOp, tt::MakeRangeOp, tt::SplatOp,
             tt::BroadcastOp, tt::ExpandDimsOp, tt::LoadOp, tt::StoreOp,
             tt::ReduceOp, tt::ReduceReturnOp, tt::AddPtrOp, tt::BitcastOp,
             tt::FpToFpOp, tt::IntToPtrOp, tt::PtrToIntOp, tt::MulhiUIOp,
             tt::ClampFOp, tt::PreciseSqrtOp, tt::PreciseDivFOp,
             tt::ExternElementwiseOp, kgpu::ConvertLayoutOp, tt::ScanOp,
             tt::ScanReturnOp, tt::AtomicRMWOp, tt::AtomicCASOp, tt::TransOp,
             tt::ReshapeOp, tt::JoinOp, tt::SplitOp, tt::CatOp, tt::GatherOp,
             tt::UnsplatOp, tt::AssertOp, tt::DotOp, kgpu::AsyncCopyOp,
             kgpu::AsyncCommitGroupOp, kgpu::AsyncWaitOp, kgpu::LocalDotOp,
             kgpu::LocalLoadOp, kgpu::WgmmaWaitOp, kgpu::WgmmaFenceOp,
             kgpu::BarrierOp, gpu::BarrierOp, tt::ElementwiseInlineAsmOp,
             tt::HistogramOp, tt::PrintOp, tt::MapElementwiseOp,
             tt::MapElementwiseReturnOp>(op);
}

struct KGPUConvertToLLVM
    : kiln::impl::KGPUConvertToLLVMBase<KGPUConvertToLLVM> {
  using KGPUConvertToLLVMBase::KGPUConvertToLLVMBase;

  /// The LLVM dialect (Passes.td) and the target's dialect only.
  void getDependentDialects(DialectRegistry &registry) const override {
    KGPUConvertToLLVMBase::getDependentDialects(registry);
    if (target == "amdgpu")
      registry.insert<ROCDL::ROCDLDialect>();
    else
      registry.insert<NVVM::NVVMDialect>();
  }

  /// Kernels (public functions) are entered from the host only: a call to
  /// one, and recursion (no call stack is set up for it), are errors.
  /// Kernels take global pointers, return nothing and have a body.
  static LogicalResult checkCalls(ModuleOp module) {
    DenseMap<StringRef, tt::FuncOp> funcs;
    for (auto fn : module.getOps<tt::FuncOp>()) {
      funcs[fn.getName()] = fn;
      if (!fn.isPublic())
        continue;
      if (fn.isExternal())
        return fn.emitError() << "kernel '" << fn.getName()
                              << "' has no body";
      if (fn.getNumResults() != 0)
        return fn.emitError() << "kernel '" << fn.getName()
                              << "' must return nothing, it returns "
                              << fn.getNumResults() << " value(s)";
      for (auto [i, t] : llvm::enumerate(fn.getArgumentTypes()))
        if (auto p = dyn_cast<tt::PointerType>(t))
          if (p.getAddressSpace() != tt::kGlobalAddressSpace)
            return fn.emitError() << "kernel argument #" << i << " " << t
                                  << " is not a global (address space 1) "
                                     "pointer";
    }
    // Depth-first search for a cycle through tt.call.
    DenseMap<Operation *, int> state; // 1 visiting, 2 done
    std::function<LogicalResult(tt::FuncOp)> visit =
        [&](tt::FuncOp fn) -> LogicalResult {
      state[fn] = 1;
      WalkResult r = fn.walk([&](tt::CallOp call) {
        tt::FuncOp callee = funcs.lookup(call.getCallee());
        if (!callee)
          return WalkResult::advance();
        if (callee.isPublic()) {
          call.emitError() << "call to kernel '" << call.getCallee()
                           << "': kernels are launched from the host only";
          return WalkResult::interrupt();
        }
        int st = state.lookup(callee);
        if (st == 1) {
          call.emitError() << "recursive call to '" << call.getCallee()
                           << "' is not supported";
          return WalkResult::interrupt();
        }
        if (st == 0 && failed(visit(callee)))
          return WalkResult::interrupt();
        return WalkResult::advance();
      });
      state[fn] = 2;
      return failure(r.wasInterrupted());
    };
    for (auto &[name, fn] : funcs)
      if (state.lookup(fn) == 0 && failed(visit(fn)))
        return failure();
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    std::unique_ptr<TargetInfo> targetInfo;
    if (target == "nvptx") {
      // "sm_90a" -> 90; empty -> 0: no chip-specific instructions. Any
      // other spelling is an error: "SM_90A" or "sm90" silently lowered
      // without tensor cores (the PTX ISA's .target directive: sm_<number>,
      // with an `a` or `f` suffix for arch- or family-specific features).
      int sm = 0;
      StringRef chip = arch.getValue();
      if (!chip.empty()) {
        StringRef digits = chip;
        bool ok = digits.consume_front("sm_");
        StringRef number = digits.take_while(llvm::isDigit);
        StringRef suffix = digits.drop_front(number.size());
        ok = ok && !number.empty() && !number.getAsInteger(10, sm) &&
             (suffix.empty() || suffix == "a" || suffix == "f");
        if (!ok) {
          // At the module's location, without the whole module printed.
          mlir::emitError(module.getLoc()) << "unknown NVPTX arch '" << chip
                             << "': expected sm_<number> with an optional a "
                                "or f suffix (sm_80, sm_90a)";
          return signalPassFailure();
        }
      }
      targetInfo = createNVPTXTargetInfo(sm, ptxVersion, ftz);
    } else if (target == "amdgpu") {
      targetInfo = createAMDGPUTargetInfo();
    } else {
      module.emitError() << "unknown target '" << target
                         << "' (supported: nvptx, amdgpu)";
      return signalPassFailure();
    }
    // A tensor constant that is not one value repeated (a dense array, a
    // dense_resource blob) has no lowering here. Refused before the
    // conversion: after ConstantLowering's failure the conversion driver
    // went on to the arith-to-LLVM constant pattern, which ended kiln by
    // SIGTRAP on a dense_resource tensor ("ElementsAttr does not provide
    // iteration facilities", helper-92).
    WalkResult nonSplat = module.walk([&](arith::ConstantOp op) {
      if (!isa<RankedTensorType>(op.getType()) ||
          isa<SplatElementsAttr>(op.getValue()))
        return WalkResult::advance();
      op.emitError() << "non-splat tensor constants are not supported by the "
                     << targetLabel(*targetInfo) << " lowering yet";
      return WalkResult::interrupt();
    });
    if (nonSplat.wasInterrupted())
      return signalPassFailure();
    // A tensor-core layout of the other vendor (kgpu-assign-layouts run
    // with another target's mma-version) has no lowering here.
    WalkResult foreign = module.walk([&](Operation *op) {
      // f8 values are registers of i8 here: they are loaded, stored, moved
      // (select, bitcast), converted (tt.fp_to_fp) and multiplied by
      // tt.dot, but no float arithmetic takes them.
      StringRef ns =
          op->getDialect() ? op->getDialect()->getNamespace() : "";
      if ((ns == "arith" || ns == "math") &&
          !isa<arith::SelectOp, arith::BitcastOp, arith::ConstantOp>(op))
        for (Value v : op->getOperands())
          if (isF8UpcastableToF16(getElementTypeOrSelf(v.getType()))) {
            op->emitError() << "'" << op->getName() << "' on "
                            << getElementTypeOrSelf(v.getType())
                            << " elements is not supported by the "
                            << targetLabel(*targetInfo)
                            << " lowering: convert them to f16 or f32 "
                               "first (tt.fp_to_fp)";
            return WalkResult::interrupt();
          }
      // kgpu.pack marks the conversion's own struct packs
      // (materializePacks); the input must not carry it.
      if (op->hasAttr(kPackAttr)) {
        op->emitError() << "the attribute '" << kPackAttr
                        << "' is reserved for kgpu-convert-to-llvm's own "
                           "struct packs; the input must not carry it";
        return WalkResult::interrupt();
      }
      for (Type t : op->getResultTypes()) {
        auto tensor = dyn_cast<RankedTensorType>(t);
        if (!tensor)
          continue;
        Attribute enc = tensor.getEncoding();
        bool amdOnNvidia = target == "nvptx" && isa_and_nonnull<kgpu::MfmaEncodingAttr>(enc);
        bool nvidiaOnAmd = target == "amdgpu" && isa_and_nonnull<kgpu::MmaEncodingAttr>(enc);
        if (!amdOnNvidia && !nvidiaOnAmd)
          continue;
        op->emitError() << "the " << (amdOnNvidia ? "#kgpu.mfma (AMD MFMA)" : "#kgpu.mma (NVIDIA mma.sync/wgmma)")
                        << " layout of this result has no lowering for target "
                        << target.getValue()
                        << " (kgpu-assign-layouts mma-version "
                        << (amdOnNvidia ? "4 is for amdgpu" : "2 and 3 are for nvptx") << ")";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (foreign.wasInterrupted())
      return signalPassFailure();
    if (auto tpw = module->getAttrOfType<IntegerAttr>(
            kgpu::KGPUDialect::kThreadsPerWarpAttrName);
        tpw && tpw.getInt() != targetInfo->getWarpSize()) {
      module.emitError() << "kgpu.threads-per-warp is " << tpw.getInt()
                         << " but " << (target == "nvptx" ? "NVPTX" : "AMDGPU")
                         << " warps have " << targetInfo->getWarpSize()
                         << " threads";
      return signalPassFailure();
    }
    auto numWarpsAttr =
        module->getAttrOfType<IntegerAttr>(kgpu::KGPUDialect::kNumWarpsAttrName);
    if (!numWarpsAttr) {
      module.emitError() << "module has no " << kgpu::KGPUDialect::kNumWarpsAttrName
                         << " attribute; run kgpu-assign-layouts first";
      return signalPassFailure();
    }
    Lowering l{targetInfo.get(), unsigned(numWarpsAttr.getInt()),
               targetInfo->getWarpSize(), nullptr, nullptr, {}};

    // The shared-memory slots kgpu.local_dot and kgpu.local_load ops read
    // (offset, slot bytes): what sizes and places a kgpu.async_copy's
    // destination.
    llvm::SmallDenseSet<std::pair<int64_t, int64_t>> slotRegions;
    module.walk([&](kgpu::LocalDotOp dot) {
      if (!dot.getA())
        slotRegions.insert({dot.getAOffset(), dot.getASlotBytes()});
      slotRegions.insert({dot.getBOffset(), dot.getBSlotBytes()});
    });
    module.walk([&](kgpu::LocalLoadOp load) {
      slotRegions.insert({load.getOffset(), load.getSlotBytes()});
    });
    // Reject what this lowering cannot handle, naming the op and location.
    WalkResult unsupported = module.walk([&](Operation *op) {
      Dialect *d = op->getDialect();
      if (auto dot = dyn_cast<tt::DotOp>(op)) {
        // Named here, before conversion, so that no "failed to legalize"
        // follows the error.
        Type ea = dot.getA().getType().getElementType();
        Type eb = dot.getB().getType().getElementType();
        if (dot.getA().getType().getRank() != 2) {
          op->emitError() << "batched (3-D) tt.dot is not supported by the "
                          << (target == "nvptx" ? "NVPTX" : "AMDGPU")
                          << " lowering yet";
          return WalkResult::interrupt();
        }
        if (failed(verifyMmaWarpTiles(op, "tt.dot",
                                      dot.getType().getEncoding(),
                                      dot.getType().getDimSize(1))))
          return WalkResult::interrupt();
        if (!(ea.isF16() || ea.isBF16() || ea.isF32() || ea.isF64() ||
              ea.isInteger(8)) ||
            ea != eb) {
          InFlightDiagnostic diag =
              op->emitError() << "tt.dot on " << ea << " x " << eb
                              << " operands is not supported by the "
                              << (target == "nvptx" ? "NVPTX" : "AMDGPU")
                              << " lowering yet";
          if (isF8UpcastableToF16(ea) && isF8UpcastableToF16(eb))
            diag << " (run tt-upcast-f8-dot-operands first: it converts "
                    "f8E4M3FN and f8E5M2 operands to f16)";
          return WalkResult::interrupt();
        }
      }
      // Global memory moves elements of 1 (as a byte), 8, 16, 32 or 64
      // bits, Triton's element types. Other widths (i12, i24, i48, f80)
      // neither fill nor split the 32-bit words of a vector load or store.
      if (isa<tt::LoadOp, tt::StoreOp, tt::AtomicRMWOp, tt::AtomicCASOp>(op)) {
        for (Type t : llvm::concat<const Type>(op->getOperandTypes(),
                                               op->getResultTypes())) {
          Type e = getElementTypeOrSelf(t);
          if (!e.isIntOrFloat() ||
              llvm::is_contained({1u, 8u, 16u, 32u, 64u},
                                 e.getIntOrFloatBitWidth()))
            continue;
          op->emitError() << "'" << op->getName() << "' of " << e
                          << " elements is not supported: global memory "
                             "elements are 1, 8, 16, 32 or 64 bits wide";
          return WalkResult::interrupt();
        }
      }
      if (auto copy = dyn_cast<kgpu::AsyncCopyOp>(op)) {
        // Its slots: the kgpu.local_dot or kgpu.local_load reading them
        // sizes and places them.
        if (!slotRegions.contains({int64_t(copy.getOffset()),
                                   int64_t(copy.getSlotBytes())})) {
          op->emitError() << "async copy to shared memory at offset "
                          << copy.getOffset() << " (slot bytes "
                          << copy.getSlotBytes()
                          << ") fills no slots a kgpu.local_dot (its A or B "
                             "offset and slot bytes) or kgpu.local_load reads: "
                             "the op reading them sizes and places the slots";
          return WalkResult::interrupt();
        }
      }
      if (auto dot = dyn_cast<kgpu::LocalDotOp>(op)) {
        auto aT = cast<RankedTensorType>(dot.getAType());
        Type ea = aT.getElementType();
        Type eb = cast<RankedTensorType>(dot.getBType()).getElementType();
        bool f8 = isF8UpcastableToF16(ea);
        if (ea != eb || !(ea.isF16() || ea.isBF16() || f8 || ea.isF32())) {
          op->emitError() << "local_dot multiplies f16, bf16, f8E4M3FN, "
                             "f8E5M2 or f32 (tf32) slots of one type, not "
                          << ea << " x " << eb;
          return WalkResult::interrupt();
        }
        if (ea.isF32() &&
            (dot.getA() || dot.getWgmma() != dot.getBKMajor() ||
             (dot.getWgmma() && dot.getTf32x3()))) {
          op->emitError()
              << "local_dot on f32 slots (tf32) reads A from its slot and "
                 "either B row-major (mma.sync, tf32 or tf32x3) or B stored "
                 "N rows of K (wgmma, tf32 only)";
          return WalkResult::interrupt();
        }
        if (dot.getAMMajor() && (!dot.getWgmma() || dot.getA() ||
                                 bitWidth(ea) != 16)) {
          op->emitError() << "local_dot's aMMajor (A stored K rows of M) is "
                             "for wgmma on 16-bit A slots only";
          return WalkResult::interrupt();
        }
        if (f8 && (!dot.getBKMajor() || aT.getDimSize(1) % 32)) {
          op->emitError()
              << "local_dot on f8 slots needs B stored N rows of K (bKMajor) "
                 "and K a multiple of 32";
          return WalkResult::interrupt();
        }
        // A from registers: the accumulator's layout with the warps along
        // M only and a whole number of row blocks (the fragments are the
        // thread's own elements; DotLowering::aSourceOf's Registers).
        if (Value a = dot.getA()) {
          auto regT = cast<RankedTensorType>(a.getType());
          auto mma = dyn_cast<kgpu::MmaEncodingAttr>(
              cast<RankedTensorType>(dot.getAcc().getType()).getEncoding());
          if (regT != aT || f8 || !mma || regT.getEncoding() != mma ||
              mma.getWarpsPerCTA()[1] != 1 || mma.getInstrShape()[1] != 8 ||
              aT.getDimSize(0) % (16 * int64_t(mma.getWarpsPerCTA()[0]))) {
            op->emitError()
                << "local_dot's register A must be the aType tile, 16-bit, "
                   "in the accumulator's layout with the warps along M "
                   "only and 16 x 8 warp tiles, got "
                << regT;
            return WalkResult::interrupt();
          }
        }
        // wgmma with the warpgroups splitting N: each multiplies its
        // N / warps-along-N columns, whole 128-byte column blocks of 16-bit
        // B, which its warp column must own in the accumulator's layout
        // (instrShape [16, N / warps along N]).
        auto acc = dyn_cast<kgpu::MmaEncodingAttr>(
            cast<RankedTensorType>(dot.getAcc().getType()).getEncoding());
        int64_t n = cast<RankedTensorType>(dot.getBType()).getDimSize(1);
        if (!dot.getWgmma() &&
            failed(verifyMmaWarpTiles(op, "local_dot", acc, n)))
          return WalkResult::interrupt();
        if (dot.getWgmma() && acc && acc.getWarpsPerCTA()[1] > 1) {
          unsigned wm = acc.getWarpsPerCTA()[0], wn = acc.getWarpsPerCTA()[1];
          if (!wgmmaComputesShape(ea, aT.getDimSize(0), n, aT.getDimSize(1),
                                  wm, wn)) {
            op->emitError()
                << "local_dot with wgmma and " << wn
                << " warps along N needs 16-bit slots, warps along M a "
                   "multiple of 4, M a multiple of 16 x those, K of 16 and "
                   "N of 64 x "
                << wn << " (at most 256 each), got " << aT << " x "
                << dot.getBType();
            return WalkResult::interrupt();
          }
          if (int64_t(acc.getInstrShape()[1]) * wn != n) {
            op->emitError()
                << "local_dot with wgmma and " << wn
                << " warps along N needs each warp column to own N / " << wn
                << " contiguous columns (accumulator instrShape [16, "
                << n / wn << "]), got " << acc;
            return WalkResult::interrupt();
          }
        }
      }
      if (d && (isa<tt::TTDialect, kgpu::KGPUDialect, gpu::GPUDialect>(d)) &&
          !isSupported(op)) {
        op->emitError() << "kiln cannot lower '" << op->getName() << "' to "
                        << (target == "nvptx" ? "NVPTX" : "AMDGPU") << " yet";
        return WalkResult::interrupt();
      }
      for (Value v : op->getResults())
        if (auto t = dyn_cast<RankedTensorType>(v.getType()))
          if (!kgpu::isDistributedLayout(t.getEncoding())) {
            op->emitError() << "tensor " << t
                            << " has no distributed layout; run "
                               "kgpu-assign-layouts first";
            return WalkResult::interrupt();
          }
      return WalkResult::advance();
    });
    if (unsupported.wasInterrupted())
      return signalPassFailure();

    // Decide vector widths and shared memory before IR changes.
    AxisInfoAnalysis axisInfo;
    int64_t smemBytes = 0;
    // Bytes of `numElements` elements (default: all) of a tensor's element
    // type as stored in shared memory (i1 as a byte, pointers 8 bytes).
    auto bytesOf = [](Type type, int64_t numElements = -1) -> int64_t {
      auto t = cast<RankedTensorType>(type);
      Type e = memoryType(t.getElementType());
      int64_t bits = isa<tt::PointerType>(e) ? 64 : e.getIntOrFloatBitWidth();
      int64_t n = numElements < 0 ? t.getNumElements() : numElements;
      return n * bits / 8;
    };
    // Gives `op` shared memory from offset 0: an op's data lives only
    // while the op runs, so every op reuses the same bytes (separated by
    // barriers, Lowering::smemShared) and the kernel needs the largest.
    unsigned smemUsers = 0;
    int64_t smemAlign = 16;
    SmallVector<tt::DotOp> hoistedA;
    // Pipelined slots in a region of their own (kOwnSharedMemoryAttr),
    // placed above everything else once that is known.
    SmallVector<Operation *> ownOps;
    Operation *largestUser = nullptr;
    auto grow = [&](Operation *op, int64_t bytes) {
      if (int64_t(llvm::alignTo(bytes, 16)) > smemBytes)
        largestUser = op;
      smemBytes = std::max<int64_t>(smemBytes, llvm::alignTo(bytes, 16));
    };
    // Bytes of each op's shared memory from offset 0 (allocate).
    DenseMap<Operation *, int64_t> allocBytes;
    // Conversions and CUDA-core dots whose rows could be padded, and their
    // padded bytes.
    SmallVector<std::pair<Operation *, int64_t>> paddable;
    auto allocate = [&](Operation *op, int64_t bytes) {
      op->setAttr(kSmemOffsetAttr, IntegerAttr::get(IntegerType::get(ctx, 64), 0));
      grow(op, bytes);
      allocBytes[op] = bytes;
      ++smemUsers;
    };
    // wgmma dots (DotLowering::usesWgmma) stage swizzled operands, whose
    // atoms start 1024-byte aligned.
    l.wgmmaDots = target == "nvptx" && arch == "sm_90a";
    auto dotStagedBytes = [&](tt::DotOp dot, DotLowering::ASource source) {
      if (!dot->hasAttr(kWgmmaDotAttr))
        return DotLowering::stagedBytes(dot, source,
                                        l.bTransSource.lookup(dot));
      smemAlign = 1024;
      l.wgmma = true;
      return DotLowering::wgmmaStagedBytes(
          dot, source, bool(l.bTransSource.lookup(dot)));
    };
    auto recordASource = [&](tt::DotOp dot, DotLowering::ASource source) {
      dot->setAttr(kASourceAttr, IntegerAttr::get(IntegerType::get(ctx, 32),
                                                  int64_t(source)));
    };
    module.walk([&](tt::DotOp dot) {
      if (Value source = DotLowering::transposedBSource(dot)) {
        l.bTransSource[dot] = source;
        dot.getB().getDefiningOp()->setAttr(kFusedIntoDotAttr,
                                            UnitAttr::get(ctx));
      }
    });
    module.walk([&](Operation *op) {
      // Vectorize along the dimension the layout keeps consecutive in
      // registers, as far as that dimension's facts allow.
      if (auto load = dyn_cast<tt::LoadOp>(op)) {
        if (auto t = dyn_cast<RankedTensorType>(load.getPtr().getType()))
          l.vectorWidth[op] = axisInfo.getVectorWidth(
              load.getPtr(), load.getMask(), fastestDim(t.getEncoding()));
      } else if (auto store = dyn_cast<tt::StoreOp>(op)) {
        if (auto t = dyn_cast<RankedTensorType>(store.getPtr().getType()))
          l.vectorWidth[op] = axisInfo.getVectorWidth(
              store.getPtr(), store.getMask(), fastestDim(t.getEncoding()));
      } else if (auto copy = dyn_cast<kgpu::AsyncCopyOp>(op)) {
        if (op->hasAttr(kOwnSharedMemoryAttr))
          ownOps.push_back(op);
        auto t = cast<RankedTensorType>(copy.getPtr().getType());
        l.vectorWidth[op] = axisInfo.getVectorWidth(
            copy.getPtr(), copy.getMask(), fastestDim(t.getEncoding()));
      } else if (isa<kgpu::LocalDotOp, kgpu::LocalLoadOp>(op)) {
        if (op->hasAttr(kOwnSharedMemoryAttr))
          ownOps.push_back(op);
        else
          allocate(op, slotsEnd(op));
        // wgmma's 128-byte swizzle works on absolute address bits: the
        // 1024-byte atoms must start 1024-byte aligned.
        if (auto localDot = dyn_cast<kgpu::LocalDotOp>(op);
            localDot && localDot.getWgmma()) {
          smemAlign = 1024;
          l.wgmma = true;
        }
      } else if (ElementwiseLowering::isElementwise(op)) {
        if (auto t = dyn_cast<RankedTensorType>(op->getResult(0).getType())) {
          const AxisInfo &info = axisInfo.get(op->getResult(0));
          unsigned dim = fastestDim(t.getEncoding());
          if (dim < info.getRank() && info.constancy[dim] > 1)
            l.constancy[op] = unsigned(llvm::bit_floor(
                uint64_t(std::min<int64_t>(info.constancy[dim], 1 << 20))));
        }
      } else if (auto reduce = dyn_cast<tt::ReduceOp>(op)) {
        auto src = cast<RankedTensorType>(reduce.getSrcs().front().getType());
        AxisSpread spread = getAxisSpread(src.getEncoding(), reduce.getAxis(),
                                          src.getShape()[reduce.getAxis()]);
        if (spread.uniqueWarps > 1) {
          // One slot per warp along the axis for each result element, per
          // operand (each operand's buffer 16-byte aligned, as the lowering
          // lays them out).
          int64_t resNumel = src.getNumElements() / src.getShape()[reduce.getAxis()];
          int64_t bytes = 0;
          for (Value v : reduce.getSrcs())
            bytes += llvm::alignTo(
                bytesOf(v.getType(), spread.warp->modulus * resNumel), 16);
          allocate(op, bytes);
        }
      } else if (auto scan = dyn_cast<tt::ScanOp>(op)) {
        std::optional<ShuffleScan> plan = planShuffleScan(scan);
        int64_t bytes = 0;
        for (Value v : scan.getSrcs())
          bytes += llvm::alignTo(
              plan ? bytesOf(v.getType(), plan->smemElems()) : bytesOf(v.getType()),
              16);
        if (bytes)
          allocate(op, bytes);
      } else if (isa<tt::AtomicRMWOp, tt::AtomicCASOp>(op) &&
                 !isa<RankedTensorType>(op->getResult(0).getType()) &&
                 !op->use_empty()) {
        allocate(op, 16); // thread 0's result, broadcast to the CTA
      } else if (isa<tt::AtomicRMWOp, tt::AtomicCASOp>(op) &&
                 !op->use_empty()) {
        // A replicated tensor's old values, shared by their owners
        // (lowerAtomic).
        auto t = cast<RankedTensorType>(op->getResult(0).getType());
        if (layoutReplicates(t.getEncoding(), t.getShape()))
          allocate(op, bytesOf(t));
      } else if (auto dot = dyn_cast<tt::DotOp>(op)) {
        if (DotLowering::onTensorCores(dot)) {
          DotLowering::ASource source = DotLowering::aSourceOf(dot);
          if (DotLowering::usesWgmma(dot, l))
            dot->setAttr(kWgmmaDotAttr, UnitAttr::get(ctx));
          allocate(op, dotStagedBytes(dot, source));
          recordASource(dot, source);
          if (source == DotLowering::ASource::Hoisted)
            hoistedA.push_back(dot);
        } else {
          // Unpadded here; padded below where that costs no shared memory.
          RankedTensorType aT = dot.getA().getType(), bT = dot.getB().getType();
          allocate(op, bytesOf(aT) + bytesOf(bT));
          if (aT.getRank() == 2) {
            int64_t bytes = bytesOf(aT, 1);
            auto [sa, sb] = cudaCoreDotStrides(aT, bT, bytes, true);
            paddable.push_back(
                {op, (aT.getDimSize(0) * sa + bT.getDimSize(0) * sb) * bytes});
          }
        }
      } else if (isa<tt::TransOp, tt::ReshapeOp, tt::JoinOp, tt::SplitOp,
                     tt::CatOp, tt::GatherOp>(op) &&
                 !op->hasAttr(kFusedIntoDotAttr) &&
                 !(isa<tt::ReshapeOp>(op) &&
                   reshapeKeepsRegisters(cast<tt::ReshapeOp>(op),
                                         int64_t(l.numWarps) * l.warpSize))) {
        // Room for every moved operand, one after the other.
        int64_t bytes = 0;
        for (Value v : op->getOperands().take_front(
                 isa<tt::JoinOp, tt::CatOp>(op) ? 2 : 1))
          bytes += bytesOf(v.getType());
        allocate(op, bytes);
      } else if (auto histogram = dyn_cast<tt::HistogramOp>(op)) {
        allocate(op, bytesOf(histogram.getType()));
      } else if (auto cvt = dyn_cast<kgpu::ConvertLayoutOp>(op)) {
        // Unpadded here; padded below where that costs no shared memory.
        allocate(op, bytesOf(cvt.getType()));
        RankedTensorType src = cvt.getSrc().getType();
        int64_t bytes = bytesOf(src, 1);
        int64_t padded = src.getDimSize(0) *
                         convertLayoutStrides(src, bytes, true)[0] * bytes;
        if (padded != bytesOf(src))
          paddable.push_back({op, padded});
      }
    });
    // Conversions and CUDA-core dots get padded rows (convertLayoutStrides,
    // cudaCoreDotStrides) where that leaves every other region where it
    // is: within the bytes the largest op reuses anyway, or, in a kernel
    // with no region above those bytes (no hoisted A, no pipelined slots
    // of their own), within the CTA's shared memory. A kernel that fitted
    // without padding still fits.
    for (auto [op, padded] : paddable) {
      int64_t need = llvm::alignTo(padded, 16);
      if (!ownOps.empty() ||
          (need > smemBytes &&
           (!hoistedA.empty() || need > targetInfo->getMaxSharedBytes())))
        continue;
      op->setAttr(kPaddedRowsAttr, UnitAttr::get(ctx));
      grow(op, padded);
      allocBytes[op] = padded;
    }
    // Loop-invariant A operands staged once before their loop
    // (DotLowering::aSourceOf) keep their bytes for the whole loop: above
    // the reused ones, one region per value. Kernels (public functions,
    // never called) never run in the same CTA, so each kernel's regions
    // start at the same offset, after those of the device functions, which
    // may run inside any kernel's loop.
    // Where those regions would take the module over the CTA's shared
    // memory, no A is hoisted: each such dot stages A with B again, in the
    // reused bytes (the kernel compiled before the hoisting existed).
    int64_t reusedBytes = smemBytes;
    DenseMap<Value, int64_t> hoistedOffset;
    int64_t deviceEnd = reusedBytes;
    DenseMap<Operation *, int64_t> kernelEnd;
    for (bool kernels : {false, true})
      for (tt::DotOp dot : hoistedA) {
        auto fn = dot->getParentOfType<tt::FuncOp>();
        if (fn.isPublic() != kernels)
          continue;
        int64_t &end =
            kernels ? kernelEnd.try_emplace(fn, deviceEnd).first->second
                    : deviceEnd;
        bool wgmma = dot->hasAttr(kWgmmaDotAttr);
        if (wgmma)
          end = llvm::alignTo(end, 1024);
        if (hoistedOffset.try_emplace(dot.getA(), end).second)
          end += DotLowering::hoistedABytes(dot, wgmma);
      }
    smemBytes = deviceEnd;
    for (auto [fn, end] : kernelEnd)
      smemBytes = std::max(smemBytes, end);
    if (smemBytes > targetInfo->getMaxSharedBytes()) {
      smemBytes = reusedBytes;
      for (tt::DotOp dot : hoistedA) {
        recordASource(dot, DotLowering::ASource::Staged);
        grow(dot, dotStagedBytes(dot, DotLowering::ASource::Staged));
      }
      hoistedA.clear();
    }
    for (tt::DotOp dot : hoistedA)
      dot->setAttr(kSmemAOffsetAttr,
                   IntegerAttr::get(IntegerType::get(ctx, 64),
                                    hoistedOffset.lookup(dot.getA())));
    // Slots of their own (kOwnSharedMemoryAttr) lie above the bytes the
    // ops that run while their copies may be in flight use: from the
    // prologue's first copy to the end of the op holding the loop (the
    // loop, or the scf.if around a wgmma loop), in that op's block. An
    // epilogue after the loop's last wait reuses the slots' bytes. Where
    // a loop-invariant A is hoisted somewhere in the module (its bytes
    // live across its whole loop, which might hold this one), the slots go
    // above everything instead.
    DenseSet<Operation *> ownSet(ownOps.begin(), ownOps.end());
    DenseSet<Operation *> spanTops;
    // Own ops already placed: a later loop's span in the same block starts
    // after them (their loop is done with its slots by then).
    DenseSet<Operation *> placed;
    int64_t ownEnd = 0;
    for (Operation *op : ownOps) {
      if (!isa<kgpu::LocalDotOp, kgpu::LocalLoadOp>(op) ||
          placed.contains(op))
        continue;
      // The op holding the loop, in the block of the prologue's copies.
      // Where a staged loop of one iteration was folded away (a wait for
      // every copy follows the local_load in its own block, which a staged
      // loop's body never holds; an attention loop's body may hold one
      // between its local_dots), the span ends at that wait: the copies of
      // the iterations that do not exist still write their zeros until
      // then.
      Operation *top = op->getParentOfType<scf::ForOp>();
      if (isa<kgpu::LocalLoadOp>(op))
        for (Operation *next = op->getNextNode(); next;
             next = next->getNextNode())
          if (auto wait = dyn_cast<kgpu::AsyncWaitOp>(next);
              wait && wait.getPending() == 0) {
            top = wait;
            break;
          }
      auto copiesBefore = [&](Operation *at) {
        for (Operation &o : *at->getBlock()) {
          if (&o == at)
            return false;
          if (ownSet.contains(&o) && !placed.contains(&o))
            return true;
        }
        return false;
      };
      while (top && top->getBlock() && !copiesBefore(top))
        top = top->getParentOp();
      if (!top || !top->getBlock() || !spanTops.insert(top).second)
        continue;
      Block::iterator first = top->getBlock()->begin();
      while (&*first != top &&
             (!ownSet.contains(&*first) || placed.contains(&*first)))
        ++first;
      int64_t inFlight = 0, slots = 0;
      SmallVector<Operation *> spanOwn;
      for (Block::iterator it = first;; ++it) {
        it->walk([&](Operation *inner) {
          inFlight = std::max(inFlight, allocBytes.lookup(inner));
          if (!ownSet.contains(inner) || placed.contains(inner))
            return;
          spanOwn.push_back(inner);
          slots = std::max(slots, slotsEnd(inner));
        });
        if (&*it == top)
          break;
      }
      int64_t base =
          llvm::alignTo(hoistedA.empty() ? inFlight : smemBytes, 1024);
      auto shifted = [&](int64_t offset) {
        return IntegerAttr::get(IntegerType::get(ctx, 64), base + offset);
      };
      placed.insert(spanOwn.begin(), spanOwn.end());
      for (Operation *own : spanOwn) {
        if (auto copy = dyn_cast<kgpu::AsyncCopyOp>(own)) {
          copy.setOffsetAttr(shifted(copy.getOffset()));
          continue;
        }
        if (auto ll = dyn_cast<kgpu::LocalLoadOp>(own)) {
          ll.setOffsetAttr(shifted(ll.getOffset()));
          continue;
        }
        auto ld = cast<kgpu::LocalDotOp>(own);
        ld.setAOffsetAttr(shifted(ld.getAOffset()));
        ld.setBOffsetAttr(shifted(ld.getBOffset()));
      }
      ownEnd = std::max(ownEnd, base + slots);
    }
    for (Operation *op : ownOps)
      if (isa<kgpu::LocalLoadOp>(op) && !placed.contains(op)) {
        op->emitError()
            << "kgpu.local_load with kgpu.own_shared_memory is neither in a "
               "loop after its copies nor followed by a kgpu.async_wait 0: "
               "its slots cannot be placed";
        return signalPassFailure();
      }
    if (ownEnd > smemBytes) {
      largestUser = ownOps.back();
      smemBytes = ownEnd;
    }
    l.smemShared = smemUsers > 1;
    // A tensor-core accumulator lives in registers: one that alone needs
    // more than a thread may hold cannot be compiled (ptxas would spill
    // all of it every K step).
    int64_t threads = int64_t(l.numWarps) * targetInfo->getWarpSize();
    int64_t maxRegs = targetInfo->getMaxRegistersPerThread(threads);
    WalkResult regs = module.walk([&](Operation *op) {
      if (!isa<tt::DotOp, kgpu::LocalDotOp>(op))
        return WalkResult::advance();
      auto acc = cast<RankedTensorType>(op->getResult(0).getType());
      if (!isa_and_nonnull<kgpu::MmaEncodingAttr, kgpu::MfmaEncodingAttr>(
              acc.getEncoding()))
        return WalkResult::advance();
      int64_t words = llvm::divideCeil(
          acc.getNumElements() * bitWidth(acc.getElementType()), 32 * threads);
      if (words <= maxRegs)
        return WalkResult::advance();
      std::string shape;
      llvm::raw_string_ostream os(shape);
      for (int64_t d : acc.getShape())
        os << d << "x";
      os << acc.getElementType();
      op->emitError() << "the " << op->getName() << " accumulator " << shape
                      << " over " << l.numWarps
                      << " warps (" << threads << " threads) needs " << words
                      << " registers per thread for the accumulator alone, "
                         "but a thread may hold at most "
                      << maxRegs << " on "
           << (arch.getValue().empty() ? target.getValue() : arch.getValue())
                      << "; use more warps or smaller blocks";
      return WalkResult::interrupt();
    });
    if (regs.wasInterrupted())
      return signalPassFailure();
    if (smemBytes > targetInfo->getMaxSharedBytes()) {
      // Name the software pipeline, at its loop, when it is what does not
      // fit.
      kgpu::LocalDotOp pipelined;
      module.walk([&](kgpu::LocalDotOp dot) {
        if (slotsEnd(dot) == smemBytes)
          pipelined = dot;
      });
      Operation *at = pipelined ? pipelined.getOperation() : largestUser;
      InFlightDiagnostic diag = at ? at->emitError() : module.emitError();
      diag << "the kernel needs " << smemBytes
           << " bytes of shared memory (num-warps " << l.numWarps
           << ") but a CTA may use at most "
           << targetInfo->getMaxSharedBytes() << " on "
           << (arch.getValue().empty() ? target.getValue() : arch.getValue());
      if (!pipelined && largestUser)
        diag << ": '" << largestUser->getName()
             << "' moves the most data through shared memory";
      if (pipelined) {
        auto aT = cast<RankedTensorType>(pipelined.getAType());
        auto bT = cast<RankedTensorType>(pipelined.getBType());
        diag << ": the tt.dot K loop is pipelined over "
             << pipelined.getNumSlots()
             << " shared-memory slots (num-stages), each holding A "
             << aT.getDimSize(0) << "x" << aT.getDimSize(1) << " ("
             << pipelined.getASlotBytes() << " bytes) and B "
             << bT.getDimSize(0) << "x" << bT.getDimSize(1) << " ("
             << pipelined.getBSlotBytes() << " bytes)";
        // (A K loop's slots start with A's: what lies below them is B's
        // offset less A's slots.)
        if (pipelined->hasAttr(kOwnSharedMemoryAttr) &&
            pipelined.getASlotBytes() > 0)
          diag << ", above the " << pipelined.getBOffset() -
                                        pipelined.getNumSlots() *
                                            pipelined.getASlotBytes()
               << " bytes the loop's other ops use";
        diag << "; use fewer stages or smaller blocks";
      }
      return signalPassFailure();
    }
    if (failed(checkCalls(module)))
      return signalPassFailure();
    module->setAttr(kgpu::KGPUDialect::kSharedAttrName,
                    IntegerAttr::get(IntegerType::get(ctx, 32), smemBytes));
    if (smemBytes > 0) {
      // Dynamic shared memory (PTX `.extern .shared ... []`): its size is
      // the module's kgpu.shared, which becomes metadata.json's shared_bytes
      // and the launch's dynamic shared memory (opted in above 48 KiB by the
      // runtime), so a kernel is not limited to 48 KiB of static shared
      // memory and none is allocated twice.
      OpBuilder b(ctx);
      b.setInsertionPointToStart(module.getBody());
      auto arrayTy = LLVM::LLVMArrayType::get(b.getI8Type(), 0);
      l.smem = LLVM::GlobalOp::create(
          b, module.getLoc(), arrayTy, /*isConstant=*/false,
          LLVM::Linkage::External, "kgpu_shared_memory", Attribute(),
          /*alignment=*/smemAlign, targetInfo->getSharedAddressSpace());
    }

    LowerToLLVMOptions options(ctx);
    LLVMTypeConverter converter(ctx, options);
    converter.addConversion([ctx](tt::PointerType t) -> Type {
      return LLVM::LLVMPointerType::get(ctx, t.getAddressSpace());
    });
    converter.addConversion(
        [&converter](RankedTensorType t) -> std::optional<Type> {
          if (!kgpu::isDistributedLayout(t.getEncoding()))
            return std::nullopt;
          Type elem = converter.convertType(t.getElementType());
          if (!elem)
            return std::nullopt;
          unsigned n = kgpu::getNumElemsPerThread(t.getEncoding(), t.getShape());
          return LLVM::LLVMStructType::getLiteral(t.getContext(),
                                                  SmallVector<Type>(n, elem));
        });
    l.converter = &converter;

    RewritePatternSet patterns(ctx);
    patterns.add<
        FuncLowering, ReturnLowering, CallLowering, ProgramIdLowering,
        NumProgramsLowering, MakeRangeLowering, SplatLowering, ConstantLowering,
        PoisonLowering, BroadcastLowering, ExpandDimsLowering, LoadLowering,
        StoreLowering, ReduceLowering, ConvertLayoutLowering, ScanLowering,
        AtomicRMWLowering, AtomicCASLowering, TransLowering, ReshapeLowering,
        JoinLowering, SplitLowering, CatLowering, GatherLowering,
        UnsplatLowering, AssertLowering, DotLowering, AsyncCopyLowering,
        AsyncCommitGroupLowering, AsyncWaitLowering, LocalDotLowering,
        LocalLoadLowering, WgmmaWaitLowering, WgmmaFenceLowering,
        BarrierLowering, GpuBarrierLowering, InlineAsmLowering,
        HistogramLowering, PrintLowering, MapElementwiseLowering>(converter,
                                                                  ctx, l);
    patterns.add<ScalarDivFLowering>(converter, ctx, l, /*benefit=*/10);
    patterns.add<ScalarMathF32Lowering<math::ExpOp>,
                 ScalarMathF32Lowering<math::Exp2Op>,
                 ScalarMathF32Lowering<arith::MaxNumFOp>,
                 ScalarMathF32Lowering<arith::MinNumFOp>>(converter, ctx, l,
                                                          /*benefit=*/11);
    patterns.add<ElementwiseLowering>(converter, ctx, l);
    // Device math through libdevice (__nv_expf, ...), ahead of the generic
    // LLVM intrinsics the NVPTX backend cannot always select.
    if (target == "nvptx") {
      populateLibDeviceConversionPatterns(converter, patterns, /*benefit=*/10);
      patterns.add<ScalarIntrinsicLowering<math::FmaOp, LLVM::FMAOp>,
                   ScalarIntrinsicLowering<math::AbsFOp, LLVM::FAbsOp>>(
          converter, ctx, l, /*benefit=*/11);
    }
    // On AMDGPU, math ops without an instruction (erf, tanh, ...) become
    // ROCm ocml calls, which the backend links; added ahead of MathToLLVM so
    // they win over its intrinsics the AMDGPU backend cannot select.
    if (target == "amdgpu")
      populateMathToROCDLConversionPatterns(converter, patterns, std::nullopt);
    arith::populateArithToLLVMConversionPatterns(converter, patterns);
    populateMathToLLVMConversionPatterns(converter, patterns);
    ub::populateUBToLLVMConversionPatterns(converter, patterns);
    cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);

    ConversionTarget conversionTarget(*ctx);
    conversionTarget.addLegalDialect<LLVM::LLVMDialect, NVVM::NVVMDialect,
                                     ROCDL::ROCDLDialect>();
    conversionTarget.addIllegalDialect<tt::TTDialect, kgpu::KGPUDialect,
                                       arith::ArithDialect, math::MathDialect,
                                       ub::UBDialect, cf::ControlFlowDialect>();
    conversionTarget.addIllegalOp<gpu::BarrierOp>();
    conversionTarget.addLegalOp<ModuleOp>();
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         conversionTarget);
    // Packs are legal; other casts are the conversion's own business.
    conversionTarget.addDynamicallyLegalOp<UnrealizedConversionCastOp>(
        [](Operation *op) -> std::optional<bool> {
          if (op->hasAttr(kPackAttr))
            return true;
          return std::nullopt;
        });
    if (failed(applyPartialConversion(module, conversionTarget,
                                      std::move(patterns))))
      return signalPassFailure();
    materializePacks(module);
    eraseDeadPacks(module);
  }

  /// Erases the values nothing uses any more: extracts, constants and
  /// struct chains left unused once materializePacks has run (unused packs
  /// themselves, before it about half of the ops after the conversion,
  /// are gone already: flex attention had 8696 insertvalues in 19475 ops).
  /// Every later pass would walk them until the canonicalizer erases them.
  /// Users come after their operands in a block, so one walk from the back
  /// erases whole chains; only side-effect-free ops go.
  static void eraseDeadPacks(ModuleOp module) {
    SmallVector<Operation *> ops;
    module.walk([&](Operation *op) {
      if (isa<LLVM::InsertValueOp, LLVM::UndefOp, LLVM::ConstantOp,
              LLVM::ExtractValueOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : llvm::reverse(ops))
      if (op->use_empty())
        op->erase();
  }
};

} // namespace
