//===- LLVMStructChains.h - fields of llvm.insertvalue chains ---*- C++ -*-===//
//
// The SIMT lowering carries a tensor's per-thread elements as a literal LLVM
// struct, built by a chain of llvm.insertvalue ops into an undef. Passes
// that need the elements read them off the chain instead of emitting an
// llvm.extractvalue that canonicalization would only fold back.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PASSES_LLVMSTRUCTCHAINS_H
#define KILN_PASSES_LLVMSTRUCTCHAINS_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

namespace kiln {

/// The value each of the `numFields` fields of `aggregate` holds where
/// `aggregate` is the end of a chain of single-index llvm.insertvalue ops:
/// the last insert into each position. The walk stops at the first op that
/// is not such an insert (or inserts at a position outside
/// [0, numFields)); positions no insert before it sets are null.
llvm::SmallVector<mlir::Value> insertChainFields(mlir::Value aggregate,
                                                 unsigned numFields);

} // namespace kiln

#endif // KILN_PASSES_LLVMSTRUCTCHAINS_H
