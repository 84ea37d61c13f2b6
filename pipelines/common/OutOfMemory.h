//===- OutOfMemory.h - running out of memory as an error -----*- C++ -*-===//
//
// Without a handler, LLVM's report_bad_alloc_error (a failed safe_malloc
// or safe_realloc, a SmallVector or a MemoryBuffer that cannot get memory)
// prints "LLVM ERROR: out of memory" and aborts, and a failed operator new
// throws std::bad_alloc through code that catches nothing, which ends in
// std::terminate: either way kiln died by SIGABRT, and inside a guarded
// stage it reported "LLVM crashed". Under `ulimit -v` (build machine,
// matmul_kernel) each of those ended some of the compiles.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PIPELINES_COMMON_OUTOFMEMORY_H
#define KILN_PIPELINES_COMMON_OUTOFMEMORY_H

namespace kiln {

/// Installs, once per process, kiln's handler for LLVM's
/// report_bad_alloc_error (llvm::install_bad_alloc_error_handler). With
/// `tool` (kiln's command-line tools; a later call may add it) also LLVM's
/// std::new_handler, which sends a failed operator new there too
/// (llvm::install_out_of_memory_new_handler). The handler:
///   - on a thread inside an OutOfMemoryScope whose CrashRecoveryContext
///     runs (kiln's guarded LLVM stages: optimize, codegen), marks the
///     scope and ends the stage through that context, as a crash there
///     does: the stage returns an error that says "out of memory", and
///     what it allocated is left (the caller drops the module);
///   - elsewhere, with `tool`: writes "kiln: error: out of memory
///     (REASON)" to stderr, runs the signal cleanup (runSignalCleanup:
///     ptxas killed, its FIFO, a staging folder, the cache's temporaries
///     removed) and ends the process with _exit(1), as report_fatal_error
///     ends it with status 1;
///   - elsewhere without: as LLVM without a handler, "LLVM ERROR: out of
///     memory" and REASON, then abort() (whose SIGABRT the signal cleanup
///     takes, where installed). A program that embeds kiln's libraries
///     keeps its own operator new behaviour and its process's fate.
void installOutOfMemoryHandler(bool tool);

/// Marks the calling thread as running a guarded stage for the handler,
/// for its lifetime (scopes nest). Installs the handler without the
/// new-handler if not yet.
class OutOfMemoryScope {
public:
  OutOfMemoryScope();
  ~OutOfMemoryScope();
  OutOfMemoryScope(const OutOfMemoryScope &) = delete;
  OutOfMemoryScope &operator=(const OutOfMemoryScope &) = delete;

  /// Whether the handler ended the stage for lack of memory.
  bool ranOut() const { return outOfMemory; }

private:
  friend struct OutOfMemoryHandler;
  OutOfMemoryScope *outer;
  bool outOfMemory = false;
};

} // namespace kiln

#endif // KILN_PIPELINES_COMMON_OUTOFMEMORY_H
