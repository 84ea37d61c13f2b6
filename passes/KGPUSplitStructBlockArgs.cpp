//===- KGPUSplitStructBlockArgs.cpp - struct block args to fields ---------===//
//
// A loop-carried tensor of the SIMT lowering is an LLVM struct block
// argument after scf-to-cf; this pass passes its fields instead (see
// Passes.td for the contract and why).
//
//===----------------------------------------------------------------------===//

#include "passes/LLVMStructChains.h"
#include "passes/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace kiln {
#define GEN_PASS_DEF_KGPUSPLITSTRUCTBLOCKARGS
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

namespace {

/// A literal struct whose fields are all scalars (or vectors/pointers):
/// the shape the SIMT lowering gives a thread's elements of a tensor.
LLVM::LLVMStructType flatStruct(Type type) {
  auto st = dyn_cast<LLVM::LLVMStructType>(type);
  if (!st || st.isIdentified() || st.getBody().empty())
    return {};
  for (Type field : st.getBody())
    if (isa<LLVM::LLVMStructType, LLVM::LLVMArrayType>(field))
      return {};
  return st;
}

/// One edge into the block: the branch and which of its successors it is.
struct Edge {
  BranchOpInterface branch;
  unsigned successor;
};

/// Every edge into `block`, or failure when a predecessor's terminator is
/// not a BranchOpInterface (its operands cannot be rewritten).
FailureOr<SmallVector<Edge>> incomingEdges(Block &block) {
  SmallVector<Edge> edges;
  llvm::SmallPtrSet<Operation *, 4> seen;
  for (Block *pred : block.getPredecessors()) {
    Operation *terminator = pred->getTerminator();
    if (!seen.insert(terminator).second)
      continue;
    auto branch = dyn_cast<BranchOpInterface>(terminator);
    if (!branch)
      return failure();
    for (unsigned s = 0, e = terminator->getNumSuccessors(); s < e; ++s)
      if (terminator->getSuccessor(s) == &block)
        edges.push_back({branch, s});
  }
  return edges;
}

/// Replaces argument `index` of `block` (of type `st`) by one argument per
/// field, appended at the end of the argument list.
void splitArgument(Block &block, unsigned index, LLVM::LLVMStructType st,
                   ArrayRef<Edge> edges) {
  BlockArgument arg = block.getArgument(index);
  Location loc = arg.getLoc();
  ArrayRef<Type> fields = st.getBody();
  SmallVector<Location> locs(fields.size(), loc);
  unsigned first = block.getNumArguments();
  block.addArguments(fields, locs);
  ValueRange fieldArgs = block.getArguments().drop_front(first);

  // Each edge passes the fields of what it passed, and no longer the
  // struct (so that a back edge forwarding the argument itself leaves no
  // use of it behind).
  for (Edge edge : edges) {
    SuccessorOperands operands = edge.branch.getSuccessorOperands(edge.successor);
    Value whole = operands[index];
    OpBuilder b(edge.branch);
    // The values of an insertvalue chain, not extracts of it: folding
    // those costs the canonicalizer time quadratic in the field count
    // (each fold puts the branch, with all its operands, back on its
    // worklist; matmul_kernel's loop branches carry 226 values).
    SmallVector<Value> parts = insertChainFields(whole, fields.size());
    for (int64_t k = 0, e = fields.size(); k < e; ++k)
      if (!parts[k])
        parts[k] = LLVM::ExtractValueOp::create(b, edge.branch.getLoc(), whole,
                                                ArrayRef<int64_t>{k});
    operands.append(parts);
    operands.erase(index);
  }

  // Field reads become the new arguments; anything else gets the struct
  // rebuilt at the top of the block.
  for (OpOperand &use : llvm::make_early_inc_range(arg.getUses())) {
    auto extract = dyn_cast<LLVM::ExtractValueOp>(use.getOwner());
    // Fields are scalars: a position is one index.
    if (!extract || extract.getPosition().size() != 1)
      continue;
    extract.getResult().replaceAllUsesWith(
        fieldArgs[extract.getPosition().front()]);
    extract.erase();
  }
  if (!arg.use_empty()) {
    OpBuilder b = OpBuilder::atBlockBegin(&block);
    Value rebuilt = LLVM::UndefOp::create(b, loc, st);
    for (int64_t k = 0, e = fields.size(); k < e; ++k)
      rebuilt = LLVM::InsertValueOp::create(b, loc, rebuilt, fieldArgs[k],
                                            ArrayRef<int64_t>{k});
    arg.replaceAllUsesWith(rebuilt);
  }

  block.eraseArgument(index);
}

void splitBlock(Block &block) {
  if (block.isEntryBlock() || block.getNumArguments() == 0 ||
      block.hasNoPredecessors())
    return;
  // An llvm.invoke's unwind destination must begin with its
  // llvm.landingpad, where a rebuilt struct would go: leave it alone.
  if (isa<LLVM::LandingpadOp>(block.front()))
    return;
  FailureOr<SmallVector<Edge>> edges = incomingEdges(block);
  if (failed(edges))
    return;
  // Back to front, so that erasing an argument leaves the indices of the
  // ones still to visit unchanged.
  for (unsigned i = block.getNumArguments(); i-- > 0;) {
    LLVM::LLVMStructType st = flatStruct(block.getArgument(i).getType());
    if (!st)
      continue;
    bool forwarded = llvm::all_of(*edges, [&](Edge edge) {
      return !edge.branch.getSuccessorOperands(edge.successor)
                  .isOperandProduced(i);
    });
    if (forwarded)
      splitArgument(block, i, st, *edges);
  }
}

struct KGPUSplitStructBlockArgs
    : kiln::impl::KGPUSplitStructBlockArgsBase<KGPUSplitStructBlockArgs> {
  using KGPUSplitStructBlockArgsBase::KGPUSplitStructBlockArgsBase;

  void runOnOperation() override {
    getOperation().walk([](LLVM::LLVMFuncOp func) {
      for (Block &block : func.getBody())
        splitBlock(block);
    });
  }
};

} // namespace
