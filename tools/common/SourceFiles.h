//===- SourceFiles.h - files diagnostics show lines of ----------*- C++ -*-===//
//
// MLIR's SourceMgrDiagnosticHandler shows the source line of a diagnostic's
// location, opening whatever file the location names, whole. A location is
// part of the input (`loc("/dev/zero":1:1)`): helper-91 had kiln print a
// 10 MB line of another file, and read /dev/zero until it ran out of
// memory. kiln's SourceMgrs open such files through this file system.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_COMMON_SOURCEFILES_H
#define KILN_TOOLS_COMMON_SOURCEFILES_H

#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <cstdint>

namespace kiln::tool {

/// The largest file whose lines kiln's diagnostics show (a Triton kernel's
/// Python source is a few KiB).
constexpr uint64_t kMaxSourceLineFile = uint64_t(1) << 20;

/// The real file system, opening for reading only regular files of at most
/// kMaxSourceLineFile bytes with no NUL byte in them (others: "permission
/// denied"; the diagnostic is then shown without its line). For
/// llvm::SourceMgr::setVirtualFileSystem.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> sourceLineFileSystem();

/// Whether MLIR's SourceMgrDiagnosticHandler, reading the real file system,
/// may open `path` to show a source line: a file that does not exist (its
/// open fails, and the diagnostic is shown without a line) or one that
/// sourceLineFileSystem() opens. A FIFO, a device, a directory, a larger or a
/// binary file is not: MLIR's handler would wait on it, read it until
/// memory runs out, or print its bytes. Reads at most kMaxSourceLineFile
/// bytes of `path`; never opens anything but a regular file.
bool mayShowSourceLines(llvm::StringRef path);

} // namespace kiln::tool

#endif // KILN_TOOLS_COMMON_SOURCEFILES_H
