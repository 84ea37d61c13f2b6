//===- TTDialect.h - the tt dialect (Triton TTIR) ---------------*- C++ -*-===//
//
// Declares kiln's `tt` dialect. Include dialects/tt/IR/TTOps.h for the ops,
// types and enums.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_TT_IR_TTDIALECT_H
#define KILN_DIALECTS_TT_IR_TTDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Dialect.h"

#include "dialects/tt/IR/TTDialect.h.inc"

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace kiln::tt {

/// Registers the tt dialect and every upstream dialect TTIR text uses
/// (arith, math, scf, cf, ub, llvm for intrinsics such as llvm.intr.assume,
/// gpu for gpu.barrier, Triton's tl.debug_barrier()) into `registry`.
void registerTTIRDialects(mlir::DialectRegistry &registry);

} // namespace kiln::tt

#endif // KILN_DIALECTS_TT_IR_TTDIALECT_H
