//===- AMDGPUTargetInfo.cpp - AMDGPU (CDNA) implementation of TargetInfo --===//
//
// 64-lane wavefronts (gfx90a, gfx942), LDS as shared memory (64 KiB per
// workgroup), ds_bpermute for lane exchange (AMD GCN3/CDNA ISA: DS_BPERMUTE_B32
// takes the source lane's byte address), s_barrier, and masked vector
// loads/stores through LLVM's llvm.masked.load/store (the AMDGPU backend has
// no predicated global loads; it branches or uses exec masks).
//
//===----------------------------------------------------------------------===//

#include "passes/TargetInfo.h"

#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <string>

using namespace mlir;
using namespace kiln;

namespace {

class AMDGPUTargetInfo : public TargetInfo {
public:
  StringRef getName() const override { return "amdgpu"; }
  unsigned getWarpSize() const override { return 64; }
  unsigned getSharedAddressSpace() const override { return 3; }
  int64_t getMaxSharedBytes() const override { return 65536; }
  int64_t getMaxRegistersPerThread(int64_t) const override { return 512; }

  Value getThreadId(OpBuilder &b, Location loc) override {
    return ROCDL::ThreadIdXOp::create(b, loc, b.getI32Type());
  }

  Value getProgramId(OpBuilder &b, Location loc, unsigned axis) override {
    Type i32 = b.getI32Type();
    switch (axis) {
    case 0:
      return ROCDL::BlockIdXOp::create(b, loc, i32);
    case 1:
      return ROCDL::BlockIdYOp::create(b, loc, i32);
    default:
      return ROCDL::BlockIdZOp::create(b, loc, i32);
    }
  }

  Value getNumPrograms(OpBuilder &b, Location loc, unsigned axis) override {
    // Workgroup count (the ROCm device library's __ockl_get_num_groups).
    Type i32 = b.getI32Type();
    switch (axis) {
    case 0:
      return ROCDL::GridDimXOp::create(b, loc, i32);
    case 1:
      return ROCDL::GridDimYOp::create(b, loc, i32);
    default:
      return ROCDL::GridDimZOp::create(b, loc, i32);
    }
  }

  /// Lane masks below 32 (partners in the same half-wave) use ds_swizzle
  /// in its bit-masked mode (AMD CDNA3 ISA, DS_SWIZZLE_B32: offset[15] = 0,
  /// and_mask = offset[4:0], or_mask = offset[9:5], xor_mask =
  /// offset[14:10]; lane i of each 32 reads lane ((i & and) | or) ^ xor):
  /// no address computation, no LDS bank traffic. Mask 32 crosses the
  /// half-waves: ds_bpermute with the partner's byte address.
  Value shuffleXor(OpBuilder &b, Location loc, Value value,
                   unsigned laneMask) override {
    Type i32 = b.getI32Type();
    if (laneMask < 32) {
      int32_t offset = 0x1F | int32_t(laneMask << 10);
      return ROCDL::DsSwizzleOp::create(
          b, loc, i32, value,
          LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(offset)));
    }
    Value src = LLVM::XOrOp::create(
        b, loc, laneId(b, loc),
        LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(laneMask)));
    return shuffleIdx(b, loc, value, src);
  }

  /// ds_bpermute_b32: each lane reads the lane whose index is its byte
  /// address / 4 (only the address's bits 7:2 count, so a source past the
  /// wavefront's ends reads some lane of it).
  Value shuffleIdx(OpBuilder &b, Location loc, Value value,
                   Value srcLane) override {
    Type i32 = b.getI32Type();
    Value byteAddr = LLVM::ShlOp::create(
        b, loc, srcLane, LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(2)));
    return ROCDL::DsBpermuteOp::create(b, loc, i32, byteAddr, value);
  }

  /// The lane's index in its 64-lane wavefront.
  Value laneId(OpBuilder &b, Location loc) {
    return LLVM::AndOp::create(
        b, loc, getThreadId(b, loc),
        LLVM::ConstantOp::create(b, loc, b.getI32Type(),
                                 b.getI32IntegerAttr(63)));
  }

  Value laneOffset(OpBuilder &b, Location loc, int32_t delta) {
    return LLVM::AddOp::create(
        b, loc, laneId(b, loc),
        LLVM::ConstantOp::create(b, loc, b.getI32Type(),
                                 b.getI32IntegerAttr(delta)));
  }

  Value shuffleUp(OpBuilder &b, Location loc, Value value,
                  unsigned delta) override {
    return shuffleIdx(b, loc, value, laneOffset(b, loc, -int32_t(delta)));
  }

  Value shuffleDown(OpBuilder &b, Location loc, Value value,
                    unsigned delta) override {
    return shuffleIdx(b, loc, value, laneOffset(b, loc, int32_t(delta)));
  }

  void barrier(OpBuilder &b, Location loc) override {
    ROCDL::BarrierOp::create(b, loc);
  }

  SmallVector<Value> predicatedLoad(OpBuilder &b, Location loc, Value ptr,
                                    Value pred, ArrayRef<Value> other,
                                    unsigned numWords, unsigned wordBits,
                                    unsigned elemBits, tt::CacheModifier,
                                    tt::EvictionPolicy,
                                    bool isVolatile) override {
    // A lone byte in a 16-bit word loads as one byte.
    bool byte = elemBits == 8 && wordBits == 16;
    Type elem = b.getIntegerType(byte ? 8 : wordBits);
    auto vecTy = VectorType::get({int64_t(numWords)}, elem);
    auto maskTy = VectorType::get({int64_t(numWords)}, b.getI1Type());
    Value mask = LLVM::UndefOp::create(b, loc, maskTy);
    Value pass = LLVM::ZeroOp::create(b, loc, vecTy);
    for (unsigned i = 0; i < numWords; ++i) {
      Value idx = LLVM::ConstantOp::create(b, loc, b.getI32Type(), b.getI32IntegerAttr(i));
      mask = LLVM::InsertElementOp::create(b, loc, mask, pred, idx);
      if (i < other.size()) {
        Value o = other[i];
        if (byte)
          o = LLVM::TruncOp::create(b, loc, elem, o);
        pass = LLVM::InsertElementOp::create(b, loc, pass, o, idx);
      }
    }
    unsigned align = numWords * (byte ? 1 : wordBits / 8);
    Value v;
    if (isVolatile) {
      // llvm.masked.load has no volatile form: a volatile load under an
      // scf.if (the op may sit in a loop body; scf-to-cf runs later).
      auto ifOp = scf::IfOp::create(b, loc, TypeRange{vecTy}, pred,
                                    /*addThenBlock=*/true,
                                    /*addElseBlock=*/true);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      Value loaded = LLVM::LoadOp::create(b, loc, vecTy, ptr, align,
                                          /*isVolatile=*/true);
      scf::YieldOp::create(b, loc, loaded);
      b.setInsertionPointToStart(&ifOp.getElseRegion().front());
      scf::YieldOp::create(b, loc, pass);
      v = ifOp.getResult(0);
    } else {
      v = LLVM::MaskedLoadOp::create(b, loc, vecTy, ptr, mask, pass, align);
    }
    SmallVector<Value> words;
    for (unsigned i = 0; i < numWords; ++i) {
      Value w = LLVM::ExtractElementOp::create(
          b, loc, v, LLVM::ConstantOp::create(b, loc, b.getI32Type(), b.getI32IntegerAttr(i)));
      if (byte)
        w = LLVM::ZExtOp::create(b, loc, b.getIntegerType(16), w);
      words.push_back(w);
    }
    return words;
  }

  void predicatedStore(OpBuilder &b, Location loc, Value ptr, Value pred,
                       ArrayRef<Value> words, unsigned wordBits,
                       unsigned elemBits, tt::CacheModifier,
                       tt::EvictionPolicy) override {
    bool byte = elemBits == 8 && wordBits == 16;
    Type elem = b.getIntegerType(byte ? 8 : wordBits);
    unsigned n = words.size();
    auto vecTy = VectorType::get({int64_t(n)}, elem);
    auto maskTy = VectorType::get({int64_t(n)}, b.getI1Type());
    Value mask = LLVM::UndefOp::create(b, loc, maskTy);
    Value v = LLVM::UndefOp::create(b, loc, vecTy);
    for (unsigned i = 0; i < n; ++i) {
      Value idx = LLVM::ConstantOp::create(b, loc, b.getI32Type(), b.getI32IntegerAttr(i));
      mask = LLVM::InsertElementOp::create(b, loc, mask, pred, idx);
      Value w = words[i];
      if (byte)
        w = LLVM::TruncOp::create(b, loc, elem, w);
      v = LLVM::InsertElementOp::create(b, loc, v, w, idx);
    }
    unsigned align = n * (byte ? 1 : wordBits / 8);
    LLVM::MaskedStoreOp::create(b, loc, v, ptr, mask, b.getI32IntegerAttr(align));
  }

  bool atomicsTakePredicate() const override { return false; }

  /// LLVM's memory model names AMDGPU scopes "workgroup" and "agent"; the
  /// empty scope is the system (AMDGPUUsage, memory model section).
  static StringRef syncScope(tt::MemSyncScope scope) {
    switch (scope) {
    case tt::MemSyncScope::CTA:
      return "workgroup";
    case tt::MemSyncScope::GPU:
      return "agent";
    case tt::MemSyncScope::SYSTEM:
      return "";
    }
    return "agent";
  }

  static LLVM::AtomicOrdering ordering(tt::MemSemantic sem) {
    switch (sem) {
    case tt::MemSemantic::RELAXED:
      return LLVM::AtomicOrdering::monotonic;
    case tt::MemSemantic::ACQUIRE:
      return LLVM::AtomicOrdering::acquire;
    case tt::MemSemantic::RELEASE:
      return LLVM::AtomicOrdering::release;
    case tt::MemSemantic::ACQUIRE_RELEASE:
      return LLVM::AtomicOrdering::acq_rel;
    }
    return LLVM::AtomicOrdering::acq_rel;
  }

  Value atomicRMW(OpBuilder &b, Location loc, tt::RMWOp op, Value ptr,
                  Value value, Value /*pred: branched around by the caller*/,
                  tt::MemSemantic sem, tt::MemSyncScope scope) override {
    Type elem = value.getType();
    unsigned bits = elem.getIntOrFloatBitWidth();
    bool int3264 = elem.isInteger() && (bits == 32 || bits == 64);
    LLVM::AtomicBinOp bin;
    switch (op) {
    case tt::RMWOp::AND:
      bin = LLVM::AtomicBinOp::_and;
      break;
    case tt::RMWOp::OR:
      bin = LLVM::AtomicBinOp::_or;
      break;
    case tt::RMWOp::XOR:
      bin = LLVM::AtomicBinOp::_xor;
      break;
    case tt::RMWOp::ADD:
      bin = LLVM::AtomicBinOp::add;
      break;
    case tt::RMWOp::MAX:
      bin = LLVM::AtomicBinOp::max;
      break;
    case tt::RMWOp::MIN:
      bin = LLVM::AtomicBinOp::min;
      break;
    case tt::RMWOp::UMAX:
      bin = LLVM::AtomicBinOp::umax;
      break;
    case tt::RMWOp::UMIN:
      bin = LLVM::AtomicBinOp::umin;
      break;
    case tt::RMWOp::XCHG:
      if (!(int3264 || elem.isF32() || elem.isF64()))
        return {};
      return LLVM::AtomicRMWOp::create(b, loc, LLVM::AtomicBinOp::xchg, ptr,
                                       value, ordering(sem), syncScope(scope),
                                       bits / 8);
    case tt::RMWOp::FADD:
      if (!(elem.isF16() || elem.isBF16() || elem.isF32() || elem.isF64()))
        return {};
      return LLVM::AtomicRMWOp::create(b, loc, LLVM::AtomicBinOp::fadd, ptr,
                                       value, ordering(sem), syncScope(scope),
                                       bits / 8);
    }
    if (!int3264)
      return {};
    return LLVM::AtomicRMWOp::create(b, loc, bin, ptr, value, ordering(sem),
                                     syncScope(scope), bits / 8);
  }

  Value atomicCAS(OpBuilder &b, Location loc, Value ptr, Value cmp,
                  Value value, Value /*pred*/, tt::MemSemantic sem,
                  tt::MemSyncScope scope) override {
    // cmpxchg takes integers: floats go through their bits.
    Type elem = value.getType();
    unsigned bits = elem.getIntOrFloatBitWidth();
    if (bits != 32 && bits != 64)
      return {};
    Type intTy = b.getIntegerType(bits);
    if (elem != intTy) {
      cmp = LLVM::BitcastOp::create(b, loc, intTy, cmp);
      value = LLVM::BitcastOp::create(b, loc, intTy, value);
    }
    LLVM::AtomicOrdering success = ordering(sem);
    LLVM::AtomicOrdering failure =
        success == LLVM::AtomicOrdering::acq_rel   ? LLVM::AtomicOrdering::acquire
        : success == LLVM::AtomicOrdering::release ? LLVM::AtomicOrdering::monotonic
                                                   : success;
    auto cas = LLVM::AtomicCmpXchgOp::create(b, loc, ptr, cmp, value, success,
                                             failure, syncScope(scope), bits / 8);
    Value old = LLVM::ExtractValueOp::create(b, loc, cas, ArrayRef<int64_t>{0});
    if (elem != intTy)
      old = LLVM::BitcastOp::create(b, loc, elem, old);
    return old;
  }

  Value fastDivF32(OpBuilder &b, Location loc, Value x, Value y) override {
    return LLVM::FDivOp::create(b, loc, x, y);
  }

  /// No conversion instruction: on the bits, add half a unit of the 13
  /// dropped bits to the magnitude, then clear them (Inf and NaN stay Inf
  /// and NaN; a carry into the exponent is the correct rounding up, to Inf
  /// past the largest finite value).
  Value roundToTF32(OpBuilder &b, Location loc, Value x) override {
    Type i32 = b.getI32Type();
    Value bits = LLVM::BitcastOp::create(b, loc, i32, x);
    bits = LLVM::AddOp::create(
        b, loc, bits, LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(0x1000)));
    bits = LLVM::AndOp::create(
        b, loc, bits,
        LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(int32_t(0xFFFFE000u))));
    return LLVM::BitcastOp::create(b, loc, b.getF32Type(), bits);
  }

  void markKernel(LLVM::LLVMFuncOp fn, unsigned numThreads) override {
    OpBuilder b(fn.getContext());
    fn->setAttr("rocdl.kernel", b.getUnitAttr());
    std::string size = std::to_string(numThreads);
    fn->setAttr("rocdl.flat_work_group_size", b.getStringAttr(size + "," + size));
    fn->setAttr("rocdl.reqd_work_group_size",
                b.getDenseI32ArrayAttr({int32_t(numThreads), 1, 1}));
  }
};

} // namespace

std::unique_ptr<TargetInfo> kiln::createAMDGPUTargetInfo() {
  return std::make_unique<AMDGPUTargetInfo>();
}
