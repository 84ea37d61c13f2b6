//===- SourceLineGuard.h - kiln-opt's diagnostics, named files --*- C++ -*-===//
//
// MlirOptMain shows a diagnostic's source line through a
// SourceMgrDiagnosticHandler whose llvm::SourceMgr opens, whole, whatever
// file the diagnostic's location names (`loc("/dev/zero":1:1)` is part of
// the input): a FIFO kept kiln-opt waiting for good, /dev/zero had it read
// until memory ran out. MlirOptMain gives no way to replace that handler or
// its file system, so kiln-opt puts a handler of its own above it: a
// diagnostic whose locations (and its notes') name only files that
// kiln::tool::mayShowSourceLines allows goes on to MlirOptMain's handler
// unchanged (so --verify-diagnostics sees it); any other is printed here in
// the form MLIR uses for a location whose file it cannot open,
// `FILE:LINE:COL: error: MESSAGE`, without a source line.
//
// The handler is registered whenever a dialect is loaded into a context (a
// DialectRegistry extension on no dialect in particular) and when the pass
// pipeline is set up: MLIR calls the most recently registered handler first,
// and MlirOptMain registers its own after making the context, before the
// parser loads the input's dialects. An input using no dialect but builtin
// loads none after it, and MlirOptMain verifies what it parsed before it
// sets up the pipeline (a duplicate symbol located at /dev/zero had it run
// out of memory): where the input's text names a file that may not be
// shown, kiln-opt first parses and verifies it itself, through a SourceMgr
// that opens only such files (kiln::tool::sourceLineFileSystem), and stops
// there if that fails. --verify-diagnostics with such a file is refused.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_OPT_SOURCELINEGUARD_H
#define KILN_TOOLS_KILN_OPT_SOURCELINEGUARD_H

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include "llvm/Support/MemoryBuffer.h"

namespace kiln::opt {

/// Adds the guard to `registry` (every dialect load registers it) and to
/// `config`'s pass pipeline setup, for `input` (MlirOptMain's handler shows
/// its lines from memory). Where the input names a file that may not be
/// shown, parses and verifies it first (each chunk, with
/// --split-input-file). Returns false, diagnostics printed, where the input
/// must not go on to MlirOptMain.
bool addSourceLineGuard(const llvm::MemoryBuffer &input,
                        mlir::DialectRegistry &registry,
                        mlir::MlirOptMainConfig &config);

} // namespace kiln::opt

#endif // KILN_TOOLS_KILN_OPT_SOURCELINEGUARD_H
