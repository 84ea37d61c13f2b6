//===- SignalCleanup.cpp - temporary paths removed when a signal ends kiln ===//
//
// The handler runs in signal context: it reads fixed slots through atomics
// and calls only kill, waitpid, unlink, rmdir, sigaction and raise
// (async-signal-safe in POSIX.1-2008, section 2.4.3) and LLVM's
// sys::RunInterruptHandlers (which LLVM's own handler calls in signal
// context).
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
#include <sys/wait.h>
#include <unistd.h>

namespace kiln {
namespace {

constexpr int kSignals[] = {SIGHUP, SIGINT, SIGTERM, SIGPIPE};
constexpr unsigned kSlots = 64;

/// The registered paths and children. `states[i]`: 0 free, 1 being
/// written, 2 a file, 3 a directory. `pids[i]`: 0 free. Zero-initialized
/// static storage with no constructor to run (std::atomic's default
/// constructor is trivial in C++17), so the arrays stay untouched .bss
/// until used; a table of structs with member initializers got a dynamic
/// initializer from GCC that touched each of its 64 pages when the process
/// started.
std::atomic<int> states[kSlots];
char paths[kSlots][PATH_MAX];
std::atomic<int> pids[kSlots];

/// By index into kSignals: what was installed before ours, and whether the
/// signal was ignored when kiln installed its handler.
struct sigaction previous[std::size(kSignals)];
bool ignoredBefore[std::size(kSignals)];

void cleanUp() {
  for (std::atomic<int> &slot : pids) {
    int pid = slot.load(std::memory_order_acquire);
    if (pid <= 0)
      continue;
    ::kill(-pid, SIGKILL);
    ::kill(pid, SIGKILL);
    // ECHILD: reaped meanwhile by its owner.
    while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
    }
  }
  for (unsigned i = 0; i < kSlots; ++i)
    if (states[i].load(std::memory_order_acquire) == 2)
      ::unlink(paths[i]);
  for (unsigned i = 0; i < kSlots; ++i)
    if (states[i].load(std::memory_order_acquire) == 3)
      ::rmdir(paths[i]);
  llvm::sys::RunInterruptHandlers();
}

void onSignal(int sig, siginfo_t *info, void *context) {
  unsigned index = 0;
  while (kSignals[index] != sig)
    ++index;
  if (ignoredBefore[index])
    return;
  int savedErrno = errno;
  cleanUp();
  // Put back what was there and hand the signal on.
  const struct sigaction &before = previous[index];
  ::sigaction(sig, &before, nullptr);
  errno = savedErrno;
  if (before.sa_flags & SA_SIGINFO) {
    if (before.sa_sigaction)
      before.sa_sigaction(sig, info, context);
    return;
  }
  if (before.sa_handler != SIG_DFL && before.sa_handler != SIG_IGN) {
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
    ignoredBefore[i] = ::sigaction(kSignals[i], nullptr, &current) == 0 &&
                       !(current.sa_flags & SA_SIGINFO) &&
                       current.sa_handler == SIG_IGN;
  }
  // LLVM's handlers go in now, under kiln's: whichever is installed last
  // runs first, and LLVM's would remove its files even for an ignored
  // signal. (An empty name: stat() fails on it, so LLVM skips it.)
  llvm::sys::RemoveFileOnSignal("");
  for (unsigned i = 0; i < std::size(kSignals); ++i) {
    struct sigaction ours;
    std::memset(&ours, 0, sizeof(ours));
    ours.sa_sigaction = onSignal;
    ours.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&ours.sa_mask);
    ::sigaction(kSignals[i], &ours, &previous[i]);
  }
}

bool claim(std::atomic<int> &slot, int from, int to) {
  return slot.compare_exchange_strong(from, to, std::memory_order_acq_rel);
}

} // namespace

void installSignalCleanup() {
  static std::once_flag installed;
  std::call_once(installed, installHandlers);
}

void removeOnSignal(llvm::StringRef path, bool directory) {
  installSignalCleanup();
  if (path.empty() || path.size() >= PATH_MAX)
    return;
  for (unsigned i = 0; i < kSlots; ++i) {
    if (!claim(states[i], 0, 1))
      continue;
    std::memcpy(paths[i], path.data(), path.size());
    paths[i][path.size()] = '\0';
    states[i].store(directory ? 3 : 2, std::memory_order_release);
    return;
  }
}

void dontRemoveOnSignal(llvm::StringRef path) {
  for (unsigned i = 0; i < kSlots; ++i) {
    int state = states[i].load(std::memory_order_acquire);
    if ((state == 2 || state == 3) && llvm::StringRef(paths[i]) == path &&
        claim(states[i], state, 0))
      return;
  }
}

void killOnSignal(int pid) {
  installSignalCleanup();
  if (pid <= 0)
    return;
  for (std::atomic<int> &slot : pids)
    if (claim(slot, 0, pid))
      return;
}

void dontKillOnSignal(int pid) {
  if (pid <= 0)
    return;
  for (std::atomic<int> &slot : pids)
    if (claim(slot, pid, 0))
      return;
}

} // namespace kiln
