//===- FloatConversions.h - exact float conversions, integer ops -*- C++ -*-===//
//
// Conversions between float formats that are exact and built from integer
// operations of the LLVM dialect only, so they behave the same on every
// target and under every float mode (flush-to-zero, fast math). Used by the
// SIMT lowering (KGPUConvertToLLVM) where a target has no instruction for
// the conversion; tested on every input in test/unit/FloatConversionsTest.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PASSES_FLOATCONVERSIONS_H
#define KILN_PASSES_FLOATCONVERSIONS_H

#include "mlir/IR/Builders.h"

namespace kiln {

/// One f8 value to f16, exactly. `bits` is an i8 holding a value of
/// `f8Type` (f8E4M3FN or f8E5M2; other types are a programming error); the
/// result is an f16 (LLVM dialect ops).
///   f8E5M2 (s eeeee mm, bias 15) is the upper byte of the f16.
///   f8E4M3FN (s eeee mmm, bias 7, OCP FP8): normal (e > 0) values
///   2^(e-7) (1 + m/8) have f16 exponent field e + 8 and mantissa m << 7;
///   subnormal (e = 0) values m * 2^-9 are normal f16 values (f16's
///   smallest normal is 2^-14); s 1111 111 is NaN (f16 0x7E00); there are
///   no infinities. The sign moves from bit 7 to bit 15.
mlir::Value upcastF8ToF16Bits(mlir::OpBuilder &b, mlir::Location loc,
                              mlir::Value bits, mlir::Type f8Type);

} // namespace kiln

#endif // KILN_PASSES_FLOATCONVERSIONS_H
