//===- KGPUDialect.h - kiln's GPU-level dialect -----------------*- C++ -*-===//
//
// The kgpu dialect: layout attributes (tensor encodings) and ops. Include
// this header for the dialect, its attributes and ops; KGPULayouts.h for the
// index arithmetic of layouts.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_KGPU_IR_KGPUDIALECT_H
#define KILN_DIALECTS_KGPU_IR_KGPUDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialects/kgpu/IR/KGPUDialect.h.inc"

namespace kiln::kgpu {
/// Parses `N (, N)*` with every N in [0, 2^32): the entries of a layout's
/// unsigned lists (sizePerThread, warpsPerCTA, order, instrShape, ...). A
/// negative or too large entry is an error naming it.
::mlir::FailureOr<::llvm::SmallVector<unsigned>>
parseUnsignedList(::mlir::AsmParser &parser);
} // namespace kiln::kgpu

#define GET_ATTRDEF_CLASSES
#include "dialects/kgpu/IR/KGPUAttrs.h.inc"

#define GET_OP_CLASSES
#include "dialects/kgpu/IR/KGPUOps.h.inc"

#endif // KILN_DIALECTS_KGPU_IR_KGPUDIALECT_H
