//===- BytecodeAsText.h - MLIR bytecode read in a process of its own -*- C++
//-*-===//
//
// MLIR's bytecode reader (LLVM 22) trusts the counts and sizes a file
// declares and has no bound of its own on depth or time. helper-91, against
// 745663f: a dialect group listing more entries than the header declares
// wrote past a vector (SIGSEGV, heap corruption); a string or block count
// of 2^33 ended both tools by SIGABRT, one of 2^28 took 4.3 GB; 30,000
// nested modules in 359 bytes printed gigabytes, and their teardown took
// minutes; text-form entries inside bytecode went to the recursive text
// parser unchecked (a million nested `[`: SIGSEGV). kiln cannot bound all
// of that from outside the reader, so `kiln` and `kiln-opt` read bytecode
// in a child process: their own binary, started with kBytecodeReaderArg,
// with limits on CPU time, memory and wall-clock time (a stop of this
// process, Ctrl-Z, not counted), ending with it (PR_SET_PDEATHSIG), which
// prints the module as MLIR text
// (with locations) on a pipe. The text, at most
// kMaxTextPerBytecodeByte times the input's size (and at least
// kMinBytecodeTextLimit), then goes through the text checks and the parser
// as any text input does. A child that crashes, runs out of its limits or
// prints too much is an error that says which.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_COMMON_BYTECODEASTEXT_H
#define KILN_TOOLS_COMMON_BYTECODEASTEXT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace kiln::tool {

/// The first argument that makes `kiln` or `kiln-opt` the bytecode reader
/// child (readBytecodeAsText starts it; not for users).
constexpr char kBytecodeReaderArg[] = "--kiln-internal-bytecode-reader";

/// The child's CPU time limit (RLIMIT_CPU), seconds, or the limit kiln
/// itself runs under where lower. A chain of 65,536 attributes or types
/// would take MLIR's reader about 8 s on the build machine; real kernels,
/// milliseconds.
constexpr unsigned kBytecodeReaderCpuSeconds = 20;

/// The child's wall-clock limit, seconds (a malformed file can leave MLIR's
/// reader blocked for good, using no CPU). KILN_BYTECODE_READER_WALL_SECONDS
/// sets another (tests).
constexpr unsigned kBytecodeReaderWallSeconds = 2 * kBytecodeReaderCpuSeconds;

/// The address space the child may add to what it has at start
/// (RLIMIT_AS), bytes.
constexpr uint64_t kBytecodeReaderMemory = uint64_t(4) << 30;

/// The most MLIR text the child may print per byte of bytecode, and the
/// least it may print whatever the input's size: the corpus's kernels as
/// bytecode print as 2-4 times their size (locations included); a
/// `dense_resource` blob prints as hex, twice its size.
constexpr uint64_t kMaxTextPerBytecodeByte = 64;
constexpr uint64_t kMinBytecodeTextLimit = uint64_t(64) << 20;

/// Reads `bytes` (MLIR bytecode, the contents of the file `name`) in a
/// child process, `/proc/self/exe kBytecodeReaderArg extraArgs...` (a
/// kiln-opt passes on its dialect plugin options), and returns its MLIR
/// text as a buffer named "NAME (bytecode as text)". Errors (to be printed
/// after "NAME: error: ") say what ended the child: MLIR's own diagnostics
/// (malformed bytecode), a signal (a crash, SIGXCPU at the CPU limit), running
/// out of its memory limit, or text over the limit.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readBytecodeAsText(llvm::StringRef name, llvm::StringRef bytes,
                   llvm::ArrayRef<std::string> extraArgs = {});

/// `input` as it is, or, where it is MLIR bytecode, the MLIR text of it:
/// its declared attribute and type counts checked first
/// (reportInputBeyondLimits), then readBytecodeAsText with `extraArgs`.
/// Null after an error, printed to stderr as `NAME: error: ...`. The text
/// still needs the text checks, as any text input.
std::unique_ptr<llvm::MemoryBuffer>
inputAsText(std::unique_ptr<llvm::MemoryBuffer> input,
            llvm::ArrayRef<std::string> extraArgs = {});

/// The child's side: sets the limits, reads bytecode from stdin with the
/// dialects of `registry` (unregistered ones allowed where
/// `allowUnregistered`), prints each top-level operation with
/// locations on stdout. Returns the process's exit code: 0, or 1 with
/// MLIR's diagnostics on stderr.
int runBytecodeReader(const mlir::DialectRegistry &registry,
                      bool allowUnregistered);

} // namespace kiln::tool

#endif // KILN_TOOLS_COMMON_BYTECODEASTEXT_H
