//===- TTTypes.h - types of the tt dialect ----------------------*- C++ -*-===//

#ifndef KILN_DIALECTS_TT_IR_TTTYPES_H
#define KILN_DIALECTS_TT_IR_TTTYPES_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"

#define GET_TYPEDEF_CLASSES
#include "dialects/tt/IR/TTTypes.h.inc"

namespace kiln::tt {

/// Address space of global memory, the default of `!tt.ptr<T>` (NVPTX and
/// AMDGPU both number global memory 1).
constexpr int kGlobalAddressSpace = 1;

/// For `tensor<SxP>` with P = `!tt.ptr<T>` returns `tensor<SxT>`; for
/// `!tt.ptr<T>` returns T (a tensor type for block pointers). Any other type
/// is returned unchanged, which makes the verifier report the mismatch.
mlir::Type getPointeeType(mlir::Type type);

/// Returns i1 with the shape of `type`: `tensor<Sxi1>` for `tensor<SxT>`,
/// `i1` for a scalar.
mlir::Type getI1SameShape(mlir::Type type);

/// For a block pointer `!tt.ptr<tensor<SxT>, AS>` returns `!tt.ptr<T, AS>`,
/// the type of the base pointer `tt.make_tensor_ptr` takes.
mlir::Type getBlockPtrBaseType(mlir::Type type);

/// True for a block pointer (a `!tt.ptr` whose pointee is a ranked tensor).
bool isBlockPointer(mlir::Type type);

/// Bit width of a scalar element type, counting pointers as 64 bits; 0 for
/// types with no fixed width.
unsigned getScalarBitWidth(mlir::Type type);

} // namespace kiln::tt

#endif // KILN_DIALECTS_TT_IR_TTTYPES_H
