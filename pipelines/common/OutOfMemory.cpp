//===- OutOfMemory.cpp - running out of memory as an error ----------------===//
//
// The handler allocates nothing: it writes with write(2), and the cleanup
// is the signal handler's (async-signal-safe, fixed slots).
//
//===----------------------------------------------------------------------===//

#include "pipelines/common/OutOfMemory.h"

#include "pipelines/common/SignalCleanup.h"

#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/ErrorHandling.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unistd.h>

namespace kiln {
namespace {

/// The innermost scope of the calling thread.
thread_local OutOfMemoryScope *currentScope = nullptr;

void writeError(const char *text) {
  size_t length = std::strlen(text);
  while (length > 0) {
    ssize_t n = ::write(2, text, length);
    if (n <= 0)
      return;
    text += n;
    length -= static_cast<size_t>(n);
  }
}

} // namespace

struct OutOfMemoryHandler {
  [[noreturn]] static void onBadAlloc(void *, const char *reason, bool) {
    if (OutOfMemoryScope *scope = currentScope) {
      if (llvm::CrashRecoveryContext *context =
              llvm::CrashRecoveryContext::GetCurrent()) {
        scope->outOfMemory = true;
        // Unwinds to the context's RunSafely (longjmp); returns only where
        // the context cannot take it (it is already crashing).
        context->HandleExit(1);
      }
    }
    if (!exitOnOutOfMemory.load(std::memory_order_acquire)) {
      writeError("LLVM ERROR: out of memory\n");
      writeError(reason ? reason : "");
      writeError("\n");
      std::abort();
    }
    // One thread reports and cleans up; another that runs out meanwhile,
    // or takes a fault (code that does not check malloc's result) or a
    // signal, waits for the process to end (GPU machine: two threads
    // printed the message twice, each running the cleanup; helper-86: a
    // fault's exit status 139 won over this error).
    claimProcessEnd();
    writeError("kiln: error: out of memory (");
    writeError(reason ? reason : "allocation failed");
    writeError(")\n");
    runSignalCleanup();
    ::_exit(1);
  }

  /// Set by installOutOfMemoryHandler(/*tool=*/true).
  static std::atomic<bool> exitOnOutOfMemory;
};

std::atomic<bool> OutOfMemoryHandler::exitOnOutOfMemory{false};

void installOutOfMemoryHandler(bool tool) {
  static std::once_flag handler, toolOnce;
  std::call_once(handler, [] {
    llvm::install_bad_alloc_error_handler(OutOfMemoryHandler::onBadAlloc);
  });
  if (tool)
    std::call_once(toolOnce, [] {
      OutOfMemoryHandler::exitOnOutOfMemory.store(true,
                                                  std::memory_order_release);
      llvm::install_out_of_memory_new_handler();
    });
}

OutOfMemoryScope::OutOfMemoryScope() : outer(currentScope) {
  installOutOfMemoryHandler(/*tool=*/false);
  currentScope = this;
}

OutOfMemoryScope::~OutOfMemoryScope() { currentScope = outer; }

} // namespace kiln
