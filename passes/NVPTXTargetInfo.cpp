//===- NVPTXTargetInfo.cpp - NVPTX implementation of TargetInfo -----------===//
//
// Facts used here: PTX ISA 9.7.9.8 (ld: .ca/.cg/.cs/.lu/.cv cache operators,
// .L1::evict_* priorities, .v2/.v4 vectors, .L2::cache_hint with a 64-bit
// cache-policy operand: PTX ISA 7.4, sm_80), 9.7.9.17 (createpolicy: the
// fraction form, PTX ISA 7.4, sm_80), 9.7.9.9 (st: .wb/.cg/.cs/.wt),
// 9.7.8.6 (shfl.sync: .bfly, .up, .down, .idx), 9.7.13.4 (bar.sync).
// Predicated accesses use inline PTX: LLVM exposes no predicated vector load
// with a cache operator.
//
//===----------------------------------------------------------------------===//

#include "passes/TargetInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <algorithm>
#include <string>

using namespace mlir;
using namespace kiln;

namespace {

std::string loadCacheSuffix(tt::CacheModifier cache) {
  switch (cache) {
  case tt::CacheModifier::CA:
    return ".ca";
  case tt::CacheModifier::CG:
    return ".cg";
  case tt::CacheModifier::CS:
    return ".cs";
  case tt::CacheModifier::CV:
    return ".cv";
  default:
    return "";
  }
}

std::string storeCacheSuffix(tt::CacheModifier cache) {
  switch (cache) {
  case tt::CacheModifier::WB:
    return ".wb";
  case tt::CacheModifier::CG:
    return ".cg";
  case tt::CacheModifier::CS:
    return ".cs";
  case tt::CacheModifier::WT:
    return ".wt";
  default:
    return "";
  }
}

/// The PTX eviction priorities are spelled as TTIR spells them
/// (evict_first, evict_last).
std::string evictSuffix(tt::EvictionPolicy evict) {
  if (evict == tt::EvictionPolicy::NORMAL)
    return "";
  return (".L1::" + tt::stringifyEvictionPolicy(evict)).str();
}

/// Register constraint letter and PTX type of one word.
std::pair<char, std::string> wordKind(unsigned wordBits, unsigned elemBits) {
  if (wordBits == 64)
    return {'l', ".b64"};
  if (wordBits == 32)
    return {'r', ".b32"};
  return {'h', elemBits == 8 ? ".u8" : ".b16"};
}

std::string vectorSuffix(unsigned n) {
  return n == 1 ? "" : ".v" + std::to_string(n);
}

class NVPTXTargetInfo : public TargetInfo {
public:
  NVPTXTargetInfo(int sm, int ptxVersion, bool ftz)
      : sm(sm), ptxVersion(ptxVersion), ftz(ftz) {}

  StringRef getName() const override { return "nvptx"; }
  unsigned getWarpSize() const override { return 32; }
  unsigned getSharedAddressSpace() const override { return 3; }
  /// cudaDevAttrMaxSharedMemoryPerBlockOptin by compute capability (CUDA C
  /// Programming Guide, "Technical Specifications per Compute Capability"):
  /// 7.0/7.2 96 KiB, 7.5 64 KiB, 8.0/8.7 163 KiB, 8.6/8.9 99 KiB, 9.0 227
  /// KiB. Unknown chips (sm = 0) get sm_90's.
  int64_t getMaxSharedBytes() const override {
    switch (sm) {
    case 70: case 72: return 96 * 1024;
    case 75: return 64 * 1024;
    case 80: case 87: return 163 * 1024;
    case 86: case 89: return 99 * 1024;
    default: return 227 * 1024;
    }
  }
  int64_t getMaxRegistersPerThread(int64_t threads) const override {
    return std::min<int64_t>(255, 65536 / std::max<int64_t>(threads, 1));
  }

  Value getThreadId(OpBuilder &b, Location loc) override {
    return NVVM::ThreadIdXOp::create(b, loc, b.getI32Type());
  }

  Value getProgramId(OpBuilder &b, Location loc, unsigned axis) override {
    Type i32 = b.getI32Type();
    switch (axis) {
    case 0:
      return NVVM::BlockIdXOp::create(b, loc, i32);
    case 1:
      return NVVM::BlockIdYOp::create(b, loc, i32);
    default:
      return NVVM::BlockIdZOp::create(b, loc, i32);
    }
  }

  Value getNumPrograms(OpBuilder &b, Location loc, unsigned axis) override {
    Type i32 = b.getI32Type();
    switch (axis) {
    case 0:
      return NVVM::GridDimXOp::create(b, loc, i32);
    case 1:
      return NVVM::GridDimYOp::create(b, loc, i32);
    default:
      return NVVM::GridDimZOp::create(b, loc, i32);
    }
  }

  Value shuffleXor(OpBuilder &b, Location loc, Value value,
                   unsigned laneMask) override {
    return shuffle(b, loc, value, laneConstant(b, loc, laneMask),
                   NVVM::ShflKind::bfly);
  }

  /// shfl.sync (PTX ISA 9.7.8.6): c packs the segment mask (bits 12:8, 0:
  /// the whole warp) and the clamp lane (bits 4:0), the lowest source lane
  /// for .up (0) and the highest for .down, .bfly and .idx (31).
  Value shuffle(OpBuilder &b, Location loc, Value value, Value offset,
                NVVM::ShflKind kind) {
    Type i32 = b.getI32Type();
    Value all = LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(-1));
    Value clamp = LLVM::ConstantOp::create(
        b, loc, i32, b.getI32IntegerAttr(kind == NVVM::ShflKind::up ? 0 : 0x1f));
    return NVVM::ShflOp::create(b, loc, i32, all, value, offset, clamp, kind,
                                UnitAttr());
  }

  /// A lane distance or mask as shfl.sync's b operand.
  Value laneConstant(OpBuilder &b, Location loc, unsigned lanes) {
    return LLVM::ConstantOp::create(b, loc, b.getI32Type(),
                                    b.getI32IntegerAttr(lanes));
  }

  Value shuffleUp(OpBuilder &b, Location loc, Value value,
                  unsigned delta) override {
    return shuffle(b, loc, value, laneConstant(b, loc, delta),
                   NVVM::ShflKind::up);
  }

  Value shuffleDown(OpBuilder &b, Location loc, Value value,
                    unsigned delta) override {
    return shuffle(b, loc, value, laneConstant(b, loc, delta),
                   NVVM::ShflKind::down);
  }

  Value shuffleIdx(OpBuilder &b, Location loc, Value value,
                   Value srcLane) override {
    return shuffle(b, loc, value, srcLane, NVVM::ShflKind::idx);
  }

  void barrier(OpBuilder &b, Location loc) override {
    NVVM::Barrier0Op::create(b, loc);
  }

  SmallVector<Value> predicatedLoad(OpBuilder &b, Location loc, Value ptr,
                                    Value pred, ArrayRef<Value> other,
                                    unsigned numWords, unsigned wordBits,
                                    unsigned elemBits, tt::CacheModifier cache,
                                    tt::EvictionPolicy evict,
                                    bool isVolatile) override {
    auto [letter, ptxType] = wordKind(wordBits, elemBits);
    std::string asmText, constraints;
    for (unsigned i = 0; i < numWords; ++i)
      constraints += std::string(i ? "," : "") + "=" + letter;
    constraints += std::string(",l,b");
    unsigned addr = numWords, predIdx = numWords + 1;
    // Give every output a value before the predicated load: `other` where
    // the TTIR has one, else 0. A predicated write to a register with no
    // prior definition makes ptxas keep it live from the kernel's entry
    // (seen as 11 extra registers on the corpus layernorm kernel).
    std::string movType =
        wordBits == 64 ? ".b64" : wordBits == 32 ? ".b32" : ".b16";
    for (unsigned i = 0; i < numWords; ++i) {
      std::string src = "0";
      if (i < other.size()) {
        constraints += std::string(",") + letter;
        src = "$" + std::to_string(numWords + 2 + i);
      }
      asmText += "mov" + movType + " $" + std::to_string(i) + ", " + src +
                 ";\n\t";
    }
    // An evict_first / evict_last load also carries the same priority for
    // L2, as a cache policy made by createpolicy (where the chip and PTX
    // version have both; Triton 3.6's PTX of the same loads has one too).
    // With only the L1 priority, the nine corpus kernels with such loads
    // took 0.3-6% longer on the H200 (triton_mm.EG4LHGP4 50.97 -> 47.91 us;
    // bench/conformance/ab_time.py, docs/BENCHMARKS.md, thirty-eighth
    // session). The policy is an operand after `other`; createpolicy has
    // no side effects, so LLVM keeps one per priority.
    // A volatile load is `ld.volatile.global`, which takes no cache
    // operator, eviction priority or cache hint (PTX ISA, "Data Movement
    // and Conversion Instructions: ld"), so a volatile tt.load's cache and
    // eviction attributes are not written.
    Value policy = isVolatile ? Value() : l2EvictPolicy(b, loc, evict);
    unsigned policyIdx = numWords + 2 + other.size();
    if (policy)
      constraints += ",l";
    asmText += "@$" + std::to_string(predIdx) +
               (isVolatile ? std::string(" ld.volatile.global")
                           : " ld.global" + loadCacheSuffix(cache) +
                                 evictSuffix(evict)) +
               (policy ? ".L2::cache_hint" : "") + vectorSuffix(numWords) +
               ptxType + " ";
    if (numWords > 1) {
      asmText += "{ ";
      for (unsigned i = 0; i < numWords; ++i)
        asmText += std::string(i ? ", " : "") + "$" + std::to_string(i);
      asmText += " }";
    } else {
      asmText += "$0";
    }
    asmText += ", [ $" + std::to_string(addr) + " + 0 ]";
    if (policy)
      asmText += ", $" + std::to_string(policyIdx);
    asmText += ";";
    SmallVector<Value> operands{ptr, pred};
    operands.append(other.begin(), other.end());
    if (policy)
      operands.push_back(policy);
    Type word = b.getIntegerType(wordBits);
    Type resultType =
        numWords == 1
            ? word
            : LLVM::LLVMStructType::getLiteral(
                  b.getContext(), SmallVector<Type>(numWords, word));
    // A load has no side effects unless volatile: LLVM may then CSE or drop
    // it like an ordinary load.
    auto asmOp = LLVM::InlineAsmOp::create(
        b, loc, resultType, operands, asmText, constraints,
        /*has_side_effects=*/isVolatile, /*is_align_stack=*/false,
        LLVM::tailcallkind::TailCallKind::None,
        LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
        ArrayAttr());
    SmallVector<Value> words;
    if (numWords == 1)
      words.push_back(asmOp.getResult(0));
    else
      for (unsigned i = 0; i < numWords; ++i)
        words.push_back(LLVM::ExtractValueOp::create(b, loc, asmOp.getResult(0),
                                                     ArrayRef<int64_t>{i}));
    return words;
  }

  void predicatedStore(OpBuilder &b, Location loc, Value ptr, Value pred,
                       ArrayRef<Value> words, unsigned wordBits,
                       unsigned elemBits, tt::CacheModifier cache,
                       tt::EvictionPolicy evict) override {
    auto [letter, ptxType] = wordKind(wordBits, elemBits);
    if (elemBits == 8 && wordBits == 16)
      ptxType = ".b8";
    unsigned n = words.size();
    std::string constraints = "l,b";
    for (unsigned i = 0; i < n; ++i)
      constraints += std::string(",") + letter;
    std::string asmText = "@$1 st.global" + storeCacheSuffix(cache) +
                          evictSuffix(evict) + vectorSuffix(n) + ptxType +
                          " [ $0 + 0 ], ";
    if (n > 1) {
      asmText += "{ ";
      for (unsigned i = 0; i < n; ++i)
        asmText += std::string(i ? ", " : "") + "$" + std::to_string(i + 2);
      asmText += " }";
    } else {
      asmText += "$2";
    }
    asmText += ";";
    SmallVector<Value> operands{ptr, pred};
    operands.append(words.begin(), words.end());
    LLVM::InlineAsmOp::create(
        b, loc, TypeRange(), operands, asmText, constraints,
        /*has_side_effects=*/true, /*is_align_stack=*/false,
        LLVM::tailcallkind::TailCallKind::None,
        LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
        ArrayAttr());
  }

  static std::string semSuffix(tt::MemSemantic sem) {
    switch (sem) {
    case tt::MemSemantic::RELAXED:
      return ".relaxed";
    case tt::MemSemantic::ACQUIRE:
      return ".acquire";
    case tt::MemSemantic::RELEASE:
      return ".release";
    case tt::MemSemantic::ACQUIRE_RELEASE:
      return ".acq_rel";
    }
    return "";
  }

  static std::string scopeSuffix(tt::MemSyncScope scope) {
    switch (scope) {
    case tt::MemSyncScope::GPU:
      return ".gpu";
    case tt::MemSyncScope::CTA:
      return ".cta";
    case tt::MemSyncScope::SYSTEM:
      return ".sys";
    }
    return "";
  }

  /// Emits `@p atom.global.sem.scope.OP.TYPE $0, [$1], $2(, $3);` with the
  /// values moved through integer registers of the element's width.
  Value atomicAsm(OpBuilder &b, Location loc, const std::string &opType,
                  Value ptr, ArrayRef<Value> values, Value pred,
                  tt::MemSemantic sem, tt::MemSyncScope scope) {
    Type elem = values.front().getType();
    unsigned bits = elem.getIntOrFloatBitWidth();
    Type intTy = b.getIntegerType(bits);
    char letter = bits == 64 ? 'l' : bits == 32 ? 'r' : 'h';
    SmallVector<Value> operands{ptr};
    for (Value v : values)
      operands.push_back(elem.isInteger()
                             ? v
                             : LLVM::BitcastOp::create(b, loc, intTy, v).getResult());
    operands.push_back(pred);
    std::string constraints = std::string("=") + letter + ",l";
    for (size_t i = 0; i < values.size(); ++i)
      constraints += std::string(",") + letter;
    constraints += ",b";
    unsigned predIdx = values.size() + 2;
    std::string zero = bits == 64 ? "mov.b64" : bits == 32 ? "mov.b32" : "mov.b16";
    std::string text = zero + " $0, 0;\n\t@$" + std::to_string(predIdx) +
                       " atom.global" +
                       semSuffix(sem) + scopeSuffix(scope) + "." + opType +
                       " $0, [ $1 + 0 ]";
    for (size_t i = 0; i < values.size(); ++i)
      text += ", $" + std::to_string(i + 2);
    text += ";";
    // The result of a predicated-off atomic is undefined; start from zero.
    auto asmOp = LLVM::InlineAsmOp::create(
        b, loc, intTy, operands, text, constraints, /*has_side_effects=*/true,
        /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
        LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
        ArrayAttr());
    Value old = asmOp.getResult(0);
    if (!elem.isInteger())
      old = LLVM::BitcastOp::create(b, loc, elem, old);
    return old;
  }

  Value atomicRMW(OpBuilder &b, Location loc, tt::RMWOp op, Value ptr,
                  Value value, Value pred, tt::MemSemantic sem,
                  tt::MemSyncScope scope) override {
    Type elem = value.getType();
    unsigned bits = elem.getIntOrFloatBitWidth();
    std::string w = std::to_string(bits);
    std::string opType;
    switch (op) {
    case tt::RMWOp::AND:
    case tt::RMWOp::OR:
    case tt::RMWOp::XOR:
    case tt::RMWOp::XCHG: {
      if (bits != 32 && bits != 64)
        return {};
      const char *name = op == tt::RMWOp::AND   ? "and"
                         : op == tt::RMWOp::OR  ? "or"
                         : op == tt::RMWOp::XOR ? "xor"
                                                : "exch";
      opType = std::string(name) + ".b" + w;
      break;
    }
    case tt::RMWOp::ADD:
      if (!elem.isInteger() || (bits != 32 && bits != 64))
        return {};
      opType = "add.u" + w;
      break;
    case tt::RMWOp::FADD:
      if (elem.isF32() || elem.isF64())
        opType = "add.f" + w;
      else if (elem.isF16())
        opType = "add.noftz.f16";
      else if (elem.isBF16())
        opType = "add.noftz.bf16";
      else
        return {};
      break;
    case tt::RMWOp::MAX:
    case tt::RMWOp::MIN:
    case tt::RMWOp::UMAX:
    case tt::RMWOp::UMIN: {
      if (!elem.isInteger() || (bits != 32 && bits != 64))
        return {};
      bool isMax = op == tt::RMWOp::MAX || op == tt::RMWOp::UMAX;
      bool isSigned = op == tt::RMWOp::MAX || op == tt::RMWOp::MIN;
      opType = std::string(isMax ? "max" : "min") + (isSigned ? ".s" : ".u") + w;
      break;
    }
    }
    return atomicAsm(b, loc, opType, ptr, {value}, pred, sem, scope);
  }

  Value atomicCAS(OpBuilder &b, Location loc, Value ptr, Value cmp,
                  Value value, Value pred, tt::MemSemantic sem,
                  tt::MemSyncScope scope) override {
    unsigned bits = value.getType().getIntOrFloatBitWidth();
    if (bits != 16 && bits != 32 && bits != 64)
      return {};
    return atomicAsm(b, loc, "cas.b" + std::to_string(bits), ptr, {cmp, value},
                     pred, sem, scope);
  }

  Value fastDivF32(OpBuilder &b, Location loc, Value x, Value y) override {
    // llvm.nvvm.div.full prints div.full.f32 (NVPTXIntrinsics.td); unlike
    // inline asm, LLVM may CSE, hoist and schedule it.
    return LLVM::CallIntrinsicOp::create(b, loc, b.getF32Type(),
                                         b.getStringAttr("llvm.nvvm.div.full"),
                                         ValueRange{x, y})
        .getResult(0);
  }

  Value mulhiU(OpBuilder &b, Location loc, Value x, Value y) override {
    Type t = x.getType();
    if (!t.isInteger(32) && !t.isInteger(64))
      return {};
    StringRef name = t.isInteger(32) ? "llvm.nvvm.mulhi.ui" : "llvm.nvvm.mulhi.ull";
    return LLVM::CallIntrinsicOp::create(b, loc, t, b.getStringAttr(name),
                                         ValueRange{x, y})
        .getResult(0);
  }

  Value mathF32(OpBuilder &b, Location loc, Operation *op,
                ValueRange args) override {
    Type f32 = b.getF32Type();
    auto ex2 = [&](Value x, bool flush) -> Value {
      StringRef name =
          flush ? "llvm.nvvm.ex2.approx.ftz.f32" : "llvm.nvvm.ex2.approx.f32";
      return LLVM::CallIntrinsicOp::create(b, loc, f32, b.getStringAttr(name),
                                           ValueRange{x})
          .getResult(0);
    };
    if (isa<math::ExpOp>(op) && args.size() == 1) {
      Value log2e = LLVM::ConstantOp::create(
          b, loc, f32, b.getF32FloatAttr(1.4426950408889634f));
      return ex2(LLVM::FMulOp::create(b, loc, args[0], log2e), /*flush=*/false);
    }
    if (isa<math::Exp2Op>(op) && args.size() == 1)
      return ex2(args[0], ftz);
    if (isa<arith::MaxNumFOp>(op) && args.size() == 2)
      return LLVM::MaxNumOp::create(b, loc, args[0], args[1]);
    if (isa<arith::MinNumFOp>(op) && args.size() == 2)
      return LLVM::MinNumOp::create(b, loc, args[0], args[1]);
    return {};
  }

  /// PTX ISA 9.7.9.21 cvt.rna.tf32.f32 (the result kept in a 32-bit
  /// register).
  Value roundToTF32(OpBuilder &b, Location loc, Value x) override {
    auto asmOp = LLVM::InlineAsmOp::create(
        b, loc, b.getI32Type(),
        ValueRange{LLVM::BitcastOp::create(b, loc, b.getI32Type(), x)},
        "cvt.rna.tf32.f32 $0, $1;", "=r,r", /*has_side_effects=*/false,
        /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
        LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
        ArrayAttr());
    return LLVM::BitcastOp::create(b, loc, b.getF32Type(), asmOp.getResult(0));
  }

  /// cvt.rz.{f16,bf16,f32}.{f32,f64}, through f32 where PTX has no direct
  /// form (bf16 from f64 or f16, f16 from bf16: widening to f32 is exact,
  /// and truncating twice toward zero is truncating once).
  Value truncFloatTowardZero(OpBuilder &b, Location loc, Value x,
                             Type dst) override {
    Type src = x.getType();
    Type f32 = b.getF32Type();
    if (!(dst.isF16() || dst.isBF16() || dst.isF32()) ||
        !(src.isF16() || src.isBF16() || src.isF32() || src.isF64()) ||
        src.getIntOrFloatBitWidth() < dst.getIntOrFloatBitWidth() ||
        (dst.isBF16() && sm < 80))
      return {};
    if (src.isF16() || src.isBF16()) {
      x = LLVM::FPExtOp::create(b, loc, f32, x);
      src = f32;
    }
    if (src.isF64() && dst.isBF16()) {
      x = truncFloatTowardZero(b, loc, x, f32);
      src = f32;
    }
    if (src == dst)
      return x;
    auto name = [](Type t) {
      return t.isF16()    ? "f16"
             : t.isBF16() ? "bf16"
             : t.isF32()  ? "f32"
                          : "f64";
    };
    unsigned srcBits = src.isF64() ? 64 : 32, dstBits = dst.isF32() ? 32 : 16;
    auto letter = [](unsigned bits) {
      return bits == 64 ? "l" : bits == 32 ? "r" : "h";
    };
    Value bits = LLVM::BitcastOp::create(b, loc, b.getIntegerType(srcBits), x);
    auto asmOp = LLVM::InlineAsmOp::create(
        b, loc, b.getIntegerType(dstBits), ValueRange{bits},
        std::string("cvt.rz.") + name(dst) + "." + name(src) + " $0, $1;",
        std::string("=") + letter(dstBits) + "," + letter(srcBits),
        /*has_side_effects=*/false, /*is_align_stack=*/false,
        LLVM::tailcallkind::TailCallKind::None,
        LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
        ArrayAttr());
    return LLVM::BitcastOp::create(b, loc, dst, asmOp.getResult(0));
  }

  /// cvt.rn.f16x2.e4m3x2 / cvt.rn.f16x2.e5m2x2 (PTX ISA 9.7.9.21: sm_89,
  /// PTX ISA 7.8): the low byte of the 16-bit source becomes the low half
  /// of the result. LLVM 22's NVPTX backend selects them for sm_90+ with
  /// PTX 7.8 and for sm_89 only from PTX 8.1, so those are the conditions.
  SmallVector<Value, 2> convertF8x2ToF16x2(OpBuilder &b, Location loc,
                                           Value first, Value second,
                                           Type f8Type) override {
    if (!f8x2Selectable(f8Type))
      return {};
    Type i32 = b.getI32Type();
    auto c = [&](int64_t v) -> Value {
      return LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(v));
    };
    Value pair = LLVM::PoisonOp::create(b, loc, VectorType::get({2}, b.getI8Type()));
    pair = LLVM::InsertElementOp::create(b, loc, pair, first, c(0));
    pair = LLVM::InsertElementOp::create(b, loc, pair, second, c(1));
    return elementsOfPair(
        b, loc, convertF8x2VectorToF16x2(b, loc, pair, f8Type));
  }

  /// The two elements of a 2-element vector, in order.
  static SmallVector<Value, 2> elementsOfPair(OpBuilder &b, Location loc,
                                              Value pair) {
    auto elem = [&](int64_t i) -> Value {
      return LLVM::ExtractElementOp::create(
          b, loc, pair,
          LLVM::ConstantOp::create(b, loc, b.getI32Type(),
                                   b.getI32IntegerAttr(i)));
    };
    return {elem(0), elem(1)};
  }

  Value convertF8x2VectorToF16x2(OpBuilder &b, Location loc, Value pair,
                                 Type f8Type) override {
    if (!f8x2Selectable(f8Type))
      return {};
    return NVVM::ConvertF8x2ToF16x2Op::create(
        b, loc, VectorType::get({2}, b.getF16Type()), pair, /*relu=*/false,
        f8Type);
  }

  /// cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32 (PTX ISA 9.7.9.21; sm_89+,
  /// under f8x2Selectable's PTX versions). The instruction puts its first
  /// operand's conversion in the upper byte: with `second` first, the
  /// vector<2xi8> (the low byte first) holds `first` then `second`.
  SmallVector<Value, 2> convertF32x2ToF8x2(OpBuilder &b, Location loc,
                                           Value first, Value second,
                                           Type f8Type) override {
    if (!f8x2Selectable(f8Type))
      return {};
    Value pair = NVVM::ConvertF32x2ToF8x2Op::create(
        b, loc, VectorType::get({2}, b.getI8Type()), second, first,
        NVVM::FPRoundingMode::RN, NVVM::SaturationMode::SATFINITE,
        /*relu=*/false, f8Type);
    return elementsOfPair(b, loc, pair);
  }

  /// A 64-bit L2 cache policy of `evict`'s priority for the whole access
  /// (`createpolicy.fractional.L2::evict_*.b64 policy, 1.0`), or null for
  /// the normal priority and for chips or PTX versions without createpolicy
  /// (before sm_80 or PTX ISA 7.4, or unknown: those every chip has).
  Value l2EvictPolicy(OpBuilder &b, Location loc, tt::EvictionPolicy evict) {
    if (sm < 80 || ptxVersion < 74 || evict == tt::EvictionPolicy::NORMAL)
      return {};
    auto asmOp = LLVM::InlineAsmOp::create(
        b, loc, b.getI64Type(), ValueRange(),
        ("createpolicy.fractional.L2::" + tt::stringifyEvictionPolicy(evict) +
         ".b64 $0, 1.0;")
            .str(),
        "=l", /*has_side_effects=*/false, /*is_align_stack=*/false,
        LLVM::tailcallkind::TailCallKind::None,
        LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
        ArrayAttr());
    return asmOp.getResult(0);
  }

  bool f8x2Selectable(Type f8Type) const {
    bool selectable = (sm >= 90 && ptxVersion >= 78) ||
                      (sm >= 89 && ptxVersion >= 81);
    return selectable && isa<Float8E4M3FNType, Float8E5M2Type>(f8Type);
  }

  void markKernel(LLVM::LLVMFuncOp fn, unsigned numThreads) override {
    OpBuilder b(fn.getContext());
    fn->setAttr("nvvm.kernel", b.getUnitAttr());
    fn->setAttr("nvvm.maxntid",
                b.getDenseI32ArrayAttr({int32_t(numThreads), 1, 1}));
  }

private:
  int sm;         // compute capability x 10 (90 = sm_90); 0 unknown
  int ptxVersion; // PTX ISA x 10 (80 = 8.0); 0 unknown
  bool ftz;       // f32 exp2 flushes denormals
};

} // namespace

std::unique_ptr<TargetInfo> kiln::createNVPTXTargetInfo(int sm,
                                                        int ptxVersion,
                                                        bool ftz) {
  return std::make_unique<NVPTXTargetInfo>(sm, ptxVersion, ftz);
}
