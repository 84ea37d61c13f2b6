//===- ToolOutput.h - run an external tool and capture its output -*- C++ -*-===//
//
// The backends identify their external tools (ptxas, ld.lld) by what
// `TOOL --version` prints; the text goes into the compile job.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PIPELINES_COMMON_TOOLOUTPUT_H
#define KILN_PIPELINES_COMMON_TOOLOUTPUT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace kiln {

/// Runs `tool` (a path, not searched in PATH) with `args` (argv[1..];
/// argv[0] is `tool`), stdin from /dev/null and stdout and stderr both into
/// `outputPath` (created, or truncated), in a process group of its own,
/// and waits for it. While it runs, the tool's process group is registered
/// with kiln's signal cleanup (killOnSignal, see
/// SignalCleanup.h: a signal that ends kiln kills and reaps it before the
/// temporary files are removed); the signals that cleanup takes are blocked
/// on this thread from before the spawn until then, and the tool starts
/// with this thread's signal mask as it was (posix_spawn,
/// POSIX_SPAWN_SETSIGMASK). Returns the exit status (0-255). Errors: the
/// tool cannot be run (posix_spawn's error), or a signal ended it ("killed
/// by signal N (name)").
llvm::Expected<int> runToolToFile(llvm::StringRef tool,
                                  llvm::ArrayRef<llvm::StringRef> args,
                                  llvm::StringRef outputPath);

/// Runs `tool` with `args` (argv[1..]; argv[0] is `tool`), stdout and stderr
/// both into one temporary file that is removed afterwards (runToolToFile),
/// and returns what it printed, trimmed. Errors (a llvm::StringError naming
/// `what`, e.g. "ptxas --version"): the temporary file cannot be made, the
/// tool cannot run, a signal ends it or it exits non-zero (the reason or
/// its exit status, then its output), or it prints nothing.
llvm::Expected<std::string> captureToolOutput(llvm::StringRef tool,
                                              llvm::ArrayRef<llvm::StringRef> args,
                                              llvm::StringRef what);

} // namespace kiln

#endif // KILN_PIPELINES_COMMON_TOOLOUTPUT_H
