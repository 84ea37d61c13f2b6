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

/// The registered paths. `states[i]`: 0 free, 1 being written, 2
/// registered. Both arrays are zero-initialized static storage with no
/// constructor to run (std::atomic's default constructor is trivial in
/// C++17), so they stay untouched .bss until used; a table of structs with
/// member initializers got a dynamic initializer from GCC that touched
/// each of the 64 pages when the process started.
std::atomic<int> states[kSlots];
char paths[kSlots][PATH_MAX];
/// The actions in place before ours, by index into kSignals.
struct sigaction previous[std::size(kSignals)];

void removeRegistered() {
  for (unsigned i = 0; i < kSlots; ++i)
    if (states[i].load(std::memory_order_acquire) == 2)
      ::unlink(paths[i]);
  for (unsigned i = 0; i < kSlots; ++i)
    if (states[i].load(std::memory_order_acquire) == 2)
      ::rmdir(paths[i]);
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
  for (unsigned i = 0; i < kSlots; ++i) {
    int expected = 0;
    if (!states[i].compare_exchange_strong(expected, 1,
                                           std::memory_order_acq_rel))
      continue;
    std::memcpy(paths[i], path.data(), path.size());
    paths[i][path.size()] = '\0';
    states[i].store(2, std::memory_order_release);
    return;
  }
}

void dontRemoveOnSignal(llvm::StringRef path) {
  for (unsigned i = 0; i < kSlots; ++i) {
    if (states[i].load(std::memory_order_acquire) != 2 ||
        llvm::StringRef(paths[i]) != path)
      continue;
    int expected = 2;
    if (states[i].compare_exchange_strong(expected, 0,
                                          std::memory_order_acq_rel))
      return;
  }
}

} // namespace kiln
