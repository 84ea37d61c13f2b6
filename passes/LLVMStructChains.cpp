//===- LLVMStructChains.cpp - fields of llvm.insertvalue chains -----------===//

#include "passes/LLVMStructChains.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;

SmallVector<Value> kiln::insertChainFields(Value aggregate, unsigned numFields) {
  SmallVector<Value> fields(numFields);
  unsigned found = 0;
  for (auto insert = aggregate.getDefiningOp<LLVM::InsertValueOp>();
       insert && found < numFields;
       insert = insert.getContainer().getDefiningOp<LLVM::InsertValueOp>()) {
    ArrayRef<int64_t> pos = insert.getPosition();
    if (pos.size() != 1 || pos[0] < 0 || pos[0] >= int64_t(numFields))
      break;
    if (!fields[pos[0]]) {
      fields[pos[0]] = insert.getValue();
      ++found;
    }
  }
  return fields;
}
