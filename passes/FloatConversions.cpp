//===- FloatConversions.cpp - exact float conversions from integer ops ----===//

#include "passes/FloatConversions.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;

namespace kiln {

Value upcastF8ToF16Bits(OpBuilder &b, Location loc, Value bits, Type f8Type) {
  Type i16 = b.getI16Type(), i64 = b.getI64Type();
  auto c16 = [&](int64_t v) -> Value {
    return LLVM::ConstantOp::create(b, loc, i16, b.getIntegerAttr(i16, v));
  };
  auto c64 = [&](int64_t v) -> Value {
    return LLVM::ConstantOp::create(b, loc, i64, b.getIntegerAttr(i64, v));
  };
  Value x = LLVM::ZExtOp::create(b, loc, i16, bits);
  Value h;
  if (isa<Float8E5M2Type>(f8Type)) {
    h = LLVM::ShlOp::create(b, loc, x, c16(8));
  } else {
    assert(isa<Float8E4M3FNType>(f8Type) && "f8E4M3FN or f8E5M2");
    Value sign = LLVM::AndOp::create(
        b, loc, LLVM::ShlOp::create(b, loc, x, c16(8)), c16(0x8000));
    Value em = LLVM::AndOp::create(b, loc, x, c16(0x7F));
    // Normal: ((bits & 0x7F) << 7) + ((15 - 7) << 10).
    Value normal = LLVM::AddOp::create(
        b, loc, LLVM::ShlOp::create(b, loc, em, c16(7)), c16(0x2000));
    // Subnormal m * 2^-9, m = 0..7: f16 upper bytes 00 18 1C 1E 20 21 22
    // 23 (hex), byte m of the constant below; m = em & 7 keeps the shift
    // below 64 for every input (the result is only selected for em < 8).
    Value shift = LLVM::ShlOp::create(
        b, loc,
        LLVM::AndOp::create(b, loc, LLVM::ZExtOp::create(b, loc, i64, em),
                            c64(7)),
        c64(3));
    Value byte = LLVM::TruncOp::create(
        b, loc, b.getI8Type(),
        LLVM::LShrOp::create(b, loc, c64(0x232221201E1C1800LL), shift));
    Value subnormal = LLVM::ShlOp::create(
        b, loc, LLVM::ZExtOp::create(b, loc, i16, byte), c16(8));
    Value isSubnormal =
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ult, em, c16(8));
    Value isNaN =
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, em, c16(0x7F));
    Value magnitude = LLVM::SelectOp::create(
        b, loc, isNaN, c16(0x7E00),
        LLVM::SelectOp::create(b, loc, isSubnormal, subnormal, normal));
    h = LLVM::OrOp::create(b, loc, sign, magnitude);
  }
  return LLVM::BitcastOp::create(b, loc, b.getF16Type(), h);
}

} // namespace kiln
