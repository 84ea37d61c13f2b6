//===- SignalCleanup.h - temporary paths removed when a signal ends kiln -*- C++ -*-===//
//
// The backends keep files in TMPDIR while an external tool runs: ptxas's
// input FIFO and outputs, ld.lld's object and code object and their
// directory, a tool's captured output. LLVM's sys::RemoveFileOnSignal
// removes only regular files, and only on the signals its handlers take
// (SIGINT, SIGTERM, SIGHUP, ...; SIGPIPE only where a pipe handler is set,
// which kiln does not set). This registry covers the rest: FIFOs and empty
// directories, and SIGPIPE (kiln writing to a closed stderr pipe).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PIPELINES_COMMON_SIGNALCLEANUP_H
#define KILN_PIPELINES_COMMON_SIGNALCLEANUP_H

#include "llvm/ADT/StringRef.h"

namespace kiln {

/// Removes `path` if SIGHUP, SIGINT, SIGTERM or SIGPIPE ends the process
/// while it is registered: unlink() for a file or FIFO, then rmdir() for a
/// directory (after every registered file, so a directory whose files are
/// all registered goes too). The handler also runs LLVM's
/// sys::RunInterruptHandlers() (the files of sys::RemoveFileOnSignal), then
/// hands the signal on to the handler that was there before, or to the
/// default action, so the process still ends by that signal (exit status
/// 128 + signal number in a shell). A signal the process ignores when the
/// first path is registered stays ignored. SIGKILL cannot be caught: what
/// it leaves stays.
///
/// Thread-safe and lock-free; at most 64 paths (PATH_MAX bytes each) are
/// registered at once: beyond that, or for a longer path, the call does
/// nothing (the path is then removed only by its owner, as before).
void removeOnSignal(llvm::StringRef path);

/// Ends removeOnSignal(`path`) (call it once the owner removed the path, or
/// kept it). Paths not registered are ignored.
void dontRemoveOnSignal(llvm::StringRef path);

} // namespace kiln

#endif // KILN_PIPELINES_COMMON_SIGNALCLEANUP_H
