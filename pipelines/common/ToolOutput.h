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

/// Runs `tool` with `args` (argv[1..]; argv[0] is `tool`), stdout and stderr
/// both into one temporary file that is removed afterwards, and returns what
/// it printed, trimmed. Errors (a llvm::StringError naming `what`, e.g.
/// "ptxas --version"): the temporary file cannot be made, the tool cannot
/// run or exits non-zero (its exit status or the launch error, then its
/// output), or it prints nothing.
llvm::Expected<std::string> captureToolOutput(llvm::StringRef tool,
                                              llvm::ArrayRef<llvm::StringRef> args,
                                              llvm::StringRef what);

} // namespace kiln

#endif // KILN_PIPELINES_COMMON_TOOLOUTPUT_H
