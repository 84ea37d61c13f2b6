//===- EarlyPtxas.h - ptxas started as kiln loads ---------------*- C++ -*-===//
//
// `kiln compile` that bypasses the cache starts ptxas before its PTX exists
// (PtxasProcess, early start), so that ptxas's start-up (about 7 ms on the
// GPU machine) overlaps kiln's own work. Started from main, it waited for
// the static initializers of the LLVM and MLIR code linked into kiln
// (about 1.7 ms there, bench/timeline) and for the command line's parse.
// startPtxasAtLoad runs from a constructor of the kiln binary that comes
// before all of those: it guesses the compile's ptxas command line from
// argv, starts that ptxas, and leaves it for runCompile, which keeps it
// only when it runs exactly what the parsed options ask for
// (PtxasProcess::runs) and discards it otherwise.
//
// Only the kiln binary calls startPtxasAtLoad (an embedder linking the
// compile library starts nothing). KILN_PTXAS_EARLY=0 turns every early
// start off; KILN_PTXAS_EARLY=main leaves the early start to runCompile
// (to measure what starting at load saves); KILN_PTXAS_EARLY=load-thread
// spawns ptxas at load on a thread of its own, which then lives as long as
// the process (ptxas's parent-death signal follows the spawning thread), so
// that the spawn overlaps the static initializers (to measure on the GPU
// machine's 16 cores; slower on the 2-core build machine, EarlyPtxas.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_EARLYPTXAS_H
#define KILN_TOOLS_KILN_EARLYPTXAS_H

#include "llvm/ADT/StringRef.h"

#include <memory>

namespace kiln::nvptx {
class PtxasProcess;
struct NVPTXBackendOptions;
} // namespace kiln::nvptx

namespace kiln::tool {

/// From a constructor of the kiln binary, before other static
/// initializers: `argc` and `argv` are the process's (glibc passes them to
/// ELF constructors). Starts ptxas when argv is `kiln compile` bypassing
/// the cache (--no-cache, --timings or --stage-dump) on a file (not
/// standard input), for an sm_ target; does nothing otherwise, or where
/// anything fails (runCompile then starts ptxas as before). The guess reads
/// --target, --ptxas, --maxnreg and --ptxas-fast-compile; an argument it
/// does not know (or --help) makes it start nothing. A new `kiln compile`
/// option belongs in guessCompile: one that changes ptxas's command line
/// is read there (else each such compile kills the guessed ptxas and
/// starts another, about 1 ms on the build machine), any other skipped
/// (else it stops every load-time start). Installs kiln's
/// signal cleanup first, so that a signal before main removes ptxas's
/// files and kills it.
void startPtxasAtLoad(int argc, char **argv);

/// The ptxas startPtxasAtLoad started, if it runs what `ptxasPath` and
/// `options` ask for (PtxasProcess::runs); null otherwise, having killed
/// and removed any other. Ownership passes to the caller; a second call
/// returns null.
std::unique_ptr<nvptx::PtxasProcess>
takePtxasStartedAtLoad(llvm::StringRef ptxasPath,
                       const nvptx::NVPTXBackendOptions &options);

/// Kills and reaps the ptxas startPtxasAtLoad started, if nothing took it,
/// and removes its files. Safe to call any number of times; also runs at
/// exit() (a command line that does not parse).
void discardPtxasStartedAtLoad();

} // namespace kiln::tool

#endif // KILN_TOOLS_KILN_EARLYPTXAS_H
