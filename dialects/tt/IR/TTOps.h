//===- TTOps.h - operations of the tt dialect -------------------*- C++ -*-===//
//
// The one header users of the tt dialect include: dialect, enums, types and
// ops (generated from TTOps.td, TTTypes.td and TTEnums.td).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_TT_IR_TTOPS_H
#define KILN_DIALECTS_TT_IR_TTOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialects/tt/IR/TTDialect.h"
#include "dialects/tt/IR/TTEnums.h"
#include "dialects/tt/IR/TTTypes.h"

namespace kiln::tt {

/// The memory resource loads, stores and atomics of the tt dialect read and
/// write (global memory of the device).
struct GlobalMemory : public mlir::SideEffects::Resource::Base<GlobalMemory> {
  llvm::StringRef getName() final { return "<tt.GlobalMemory>"; }
};

/// The most elements one tt.elementwise_inline_asm statement takes of each
/// operand (packed_element): Triton's examples use 1, 2 and 4; a larger
/// count unrolls that many elements' registers into one asm statement.
constexpr int64_t kMaxInlineAsmPack = 64;

} // namespace kiln::tt

#define GET_OP_CLASSES
#include "dialects/tt/IR/TTOps.h.inc"

#endif // KILN_DIALECTS_TT_IR_TTOPS_H
