//===- SignalCleanup.cpp - temporary paths removed when a signal ends kiln ===//
//
// The handler runs in signal context: it reads fixed slots through atomics
// and calls only unlink, rmdir, sigaction and raise (async-signal-safe in
// POSIX.1-2008, section 2.4.3) and LLVM's sys::RunInterruptHandlers (which
// LLVM's own handler calls in signal context).
//
//===----------------------------------------------------------------------===//

#include "pipelines/common/SignalCleanup.h"

#include "llvm/Support/Signals.h"

#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstring>
#include <mutex>
#include <unistd.h>

namespace kiln {
namespace {

constexpr int kSignals[] = {SIGHUP, SIGINT, SIGTERM, SIGPIPE};
constexpr unsigned kSlots = 64;

/// One registered path. `state`: 0 free, 1 being written, 2 registered.
struct Slot {
  std::atomic<int> state{0};
  char path[PATH_MAX];
};

Slot slots[kSlots];
/// The actions in place before ours, by index into kSignals.
struct sigaction previous[std::size(kSignals)];

void removeRegistered() {
  for (Slot &slot : slots)
    if (slot.state.load(std::memory_order_acquire) == 2)
      ::unlink(slot.path);
  for (Slot &slot : slots)
    if (slot.state.load(std::memory_order_acquire) == 2)
      ::rmdir(slot.path);
}

void onSignal(int sig, siginfo_t *info, void *context) {
  int savedErrno = errno;
  removeRegistered();
  llvm::sys::RunInterruptHandlers();
  unsigned index = 0;
  while (kSignals[index] != sig)
    ++index;
  // Put back what was there and hand the signal on.
  const struct sigaction &before = previous[index];
  ::sigaction(sig, &before, nullptr);
  errno = savedErrno;
  if (before.sa_flags & SA_SIGINFO) {
    if (before.sa_sigaction)
      before.sa_sigaction(sig, info, context);
    return;
  }
  if (before.sa_handler == SIG_IGN)
    return;
  if (before.sa_handler != SIG_DFL) {
    before.sa_handler(sig);
    return;
  }
  // The default action (end the process) once this handler returns: the
  // signal is blocked while it runs.
  ::raise(sig);
}

void installHandlers() {
  for (unsigned i = 0; i < std::size(kSignals); ++i) {
    struct sigaction current;
    if (::sigaction(kSignals[i], nullptr, &current) != 0)
      continue;
    if (!(current.sa_flags & SA_SIGINFO) && current.sa_handler == SIG_IGN)
      continue;
    previous[i] = current;
    struct sigaction ours;
    std::memset(&ours, 0, sizeof(ours));
    ours.sa_sigaction = onSignal;
    ours.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&ours.sa_mask);
    ::sigaction(kSignals[i], &ours, nullptr);
  }
}

} // namespace

void removeOnSignal(llvm::StringRef path) {
  static std::once_flag installed;
  std::call_once(installed, installHandlers);
  if (path.empty() || path.size() >= PATH_MAX)
    return;
  for (Slot &slot : slots) {
    int expected = 0;
    if (!slot.state.compare_exchange_strong(expected, 1,
                                            std::memory_order_acq_rel))
      continue;
    std::memcpy(slot.path, path.data(), path.size());
    slot.path[path.size()] = '\0';
    slot.state.store(2, std::memory_order_release);
    return;
  }
}

void dontRemoveOnSignal(llvm::StringRef path) {
  for (Slot &slot : slots) {
    if (slot.state.load(std::memory_order_acquire) != 2 ||
        llvm::StringRef(slot.path) != path)
      continue;
    int expected = 2;
    if (slot.state.compare_exchange_strong(expected, 0,
                                           std::memory_order_acq_rel))
      return;
  }
}

} // namespace kiln
