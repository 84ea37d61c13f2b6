//===- SignalCleanup.cpp - temporary paths removed when a signal ends kiln ===//
//
// The handler runs in signal context: it reads fixed slots through atomics
// and calls only kill, waitpid, open, openat, fchmodat, unlinkat, unlink,
// rmdir, close, sigaction and raise (async-signal-safe in POSIX.1-2008,
// section 2.4.3),
// the getdents64 system call, and LLVM's sys::RunInterruptHandlers (which
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
#include <dirent.h>
#include <fcntl.h>
#include <mutex>
#include <pthread.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace kiln {
namespace {

constexpr int kSignals[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR2, SIGPIPE};
constexpr unsigned kSlots = 64;

/// The registered paths and children. `states[i]`: 0 free, 1 being
/// written, 2 a file, 3 a directory. `pids[i]`: 0 free, the pid of a child
/// that leads its own process group, or minus the pid of one that does
/// not. Zero-initialized static storage with no constructor to run
/// (std::atomic's default constructor is trivial in C++17), so the arrays
/// stay untouched .bss until used; a table of structs with member
/// initializers got a dynamic initializer from GCC that touched each of
/// its 64 pages when the process started.
std::atomic<int> states[kSlots];
char paths[kSlots][PATH_MAX];
std::atomic<int> pids[kSlots];

/// By index into kSignals: what was installed before ours (LLVM's handler,
/// or the action it replaced).
struct sigaction previous[std::size(kSignals)];

/// Removes what directory `dir` holds, folders included, down to
/// kMaxDepth levels below the registered one (an import's staging folder
/// holds v1/<shard>/<key>/<file>; a killed ld.lld leaves kernel.hsaco.tmp*
/// directly in its folder). Through openat, the getdents64 system call,
/// fchmodat, unlinkat and close: no opendir (which allocates) in signal
/// context. Symlinks are removed, never followed. A folder its owner
/// cannot enter (an archive's mode 0000 one) is made rwx for the owner
/// first.
constexpr int kMaxDepth = 8;

void removeContents(int dir, int depth) {
  alignas(8) char buffer[2048];
  for (;;) {
    long n = ::syscall(SYS_getdents64, dir, buffer, sizeof(buffer));
    if (n <= 0)
      break;
    for (long offset = 0; offset < n;) {
      // struct linux_dirent64: d_ino (8), d_off (8), d_reclen (2),
      // d_type (1), d_name (getdents64(2)).
      unsigned short length;
      std::memcpy(&length, buffer + offset + 16, sizeof(length));
      unsigned char type = static_cast<unsigned char>(buffer[offset + 18]);
      const char *name = buffer + offset + 19;
      offset += length;
      if (std::strcmp(name, ".") == 0 || std::strcmp(name, "..") == 0)
        continue;
      // DT_UNKNOWN (some file systems): unlinkat says EISDIR for a folder.
      if (type != DT_DIR && (::unlinkat(dir, name, 0) == 0 || errno != EISDIR))
        continue;
      if (depth >= kMaxDepth)
        continue;
      int child = ::openat(dir, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
      if (child < 0 && errno == EACCES &&
          ::fchmodat(dir, name, S_IRWXU, 0) == 0)
        child = ::openat(dir, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
      if (child < 0)
        continue;
      removeContents(child, depth + 1);
      ::close(child);
      ::unlinkat(dir, name, AT_REMOVEDIR);
    }
  }
}

void removeDirectory(const char *path) {
  int dir = ::open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
  if (dir >= 0) {
    removeContents(dir, 1);
    ::close(dir);
  }
  ::rmdir(path);
}

void cleanUp() {
  for (std::atomic<int> &slot : pids) {
    int pid = slot.load(std::memory_order_acquire);
    if (pid == 0)
      continue;
    if (pid > 0)
      ::kill(-pid, SIGKILL);
    else
      pid = -pid;
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
      removeDirectory(paths[i]);
  llvm::sys::RunInterruptHandlers();
}

void onSignal(int sig, siginfo_t *info, void *context) {
  unsigned index = 0;
  while (kSignals[index] != sig)
    ++index;
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
  bool ignored[std::size(kSignals)];
  for (unsigned i = 0; i < std::size(kSignals); ++i) {
    struct sigaction current;
    ignored[i] = ::sigaction(kSignals[i], nullptr, &current) == 0 &&
                 !(current.sa_flags & SA_SIGINFO) &&
                 current.sa_handler == SIG_IGN;
  }
  // LLVM's handlers go in now, under kiln's: whichever is installed last
  // runs first. LLVM installs its own once per process, over SIG_IGN too.
  // (An empty name: stat() fails on it, so LLVM's handler skips it.)
  llvm::sys::RemoveFileOnSignal("");
  struct sigaction ours;
  std::memset(&ours, 0, sizeof(ours));
  ours.sa_sigaction = onSignal;
  ours.sa_flags = SA_SIGINFO | SA_RESTART;
  // A second signal waits until this one's cleanup is done (it ends the
  // process anyway): run inside it, it found LLVM's list already taken
  // and ended the process before the first had removed those files.
  sigemptyset(&ours.sa_mask);
  for (int sig : kSignals)
    sigaddset(&ours.sa_mask, sig);
  struct sigaction ignore;
  std::memset(&ignore, 0, sizeof(ignore));
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  for (unsigned i = 0; i < std::size(kSignals); ++i)
    // An ignored signal is ignored again, over LLVM's handler: no cleanup,
    // and the children (ld.lld, `ptxas --version`, tar) inherit SIG_IGN
    // through exec, as they did before; a handled signal is reset to the
    // default action there.
    ::sigaction(kSignals[i], ignored[i] ? &ignore : &ours, &previous[i]);
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

void killOnSignal(int pid, bool processGroup) {
  installSignalCleanup();
  if (pid <= 0)
    return;
  for (std::atomic<int> &slot : pids)
    if (claim(slot, 0, processGroup ? pid : -pid))
      return;
}

CleanupSignalsBlocked::CleanupSignalsBlocked() {
  installSignalCleanup();
  sigset_t cleanupSignals;
  sigemptyset(&cleanupSignals);
  for (int sig : kSignals)
    sigaddset(&cleanupSignals, sig);
  ::pthread_sigmask(SIG_BLOCK, &cleanupSignals, &previous);
}

CleanupSignalsBlocked::~CleanupSignalsBlocked() {
  ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
}

void dontKillOnSignal(int pid) {
  if (pid <= 0)
    return;
  for (std::atomic<int> &slot : pids)
    if (claim(slot, pid, 0) || claim(slot, -pid, 0))
      return;
}

} // namespace kiln
