//===- AttrTypeShapes.h - attributes and types too deep or too large -*- C++
//-*-===//
//
// Aliases (`#a1 = [#a0, #a0]`, `!t1 = tuple<!t0>`) and MLIR bytecode build
// attributes and types nested thousands of levels deep, or of billions of
// parts written out in full, from a few lines of text or a few bytes.
// kiln's text checks (NestingDepth.h) refuse such text before parsing;
// this check measures what was parsed, bytecode included, before anything
// recurses into it or prints it.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_COMMON_ATTRTYPESHAPES_H
#define KILN_TOOLS_COMMON_ATTRTYPESHAPES_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace kiln::tool {

/// Refuses the first operation of `module` with an attribute or type (its
/// attributes, result and block argument types, its location and its block
/// arguments' locations) nested deeper than kMaxStructureDepth or larger
/// than kMaxWrittenOutSize parts written out in full (NestingDepth.h),
/// measured without recursion, each distinct attribute or type once.
/// Returns true when none is. Else reports the operation: where its
/// location is a FileLineColLoc into `sourceName` (whose contents are
/// `sourceText`), to `os` as reportAtOffset does (an excerpt of the line);
/// otherwise through the module's context's diagnostics (the location of
/// the operation, or an unknown location where the location itself is the
/// part too deep to print).
bool checkAttributeAndTypeShapes(mlir::ModuleOp module,
                                 llvm::StringRef sourceName,
                                 llvm::StringRef sourceText,
                                 llvm::raw_ostream &os);

} // namespace kiln::tool

#endif // KILN_TOOLS_COMMON_ATTRTYPESHAPES_H
