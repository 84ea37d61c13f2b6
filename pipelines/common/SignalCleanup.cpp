//===- SignalCleanup.cpp - temporary paths removed when a signal ends kiln ===//
//
// The handler runs in signal context: it reads fixed slots through atomics
// and calls only clock_gettime, kill, waitpid, open, openat, fstat,
// fchmod, fchmodat, lseek, renameat, unlinkat, unlink, rmdir, close,
// read, write, sigaction, sigpending, pthread_sigmask, raise, getpid and
// nanosleep (async-signal-safe in POSIX.1-2008, section 2.4.3), the
// getdents64, getrlimit and gettid system calls, strstr and
// strlen (which touch only their arguments), and LLVM's
// sys::RunInterruptHandlers (which LLVM's own handler calls in signal
// context).
//
//===----------------------------------------------------------------------===//

#include "pipelines/common/SignalCleanup.h"

#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/Signals.h"

#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <fcntl.h>
#include <mutex>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

namespace kiln {
namespace {

/// The first kAlwaysTaken are always taken (unless ignored); the others,
/// whose default action also ends the process, only where that default is
/// in place when the handler is installed (an embedder's or a profiler's
/// SIGPROF or SIGALRM handler stays theirs, and a periodic signal must not
/// clean up a compile that goes on). helper-80 left the output directory's
/// staging folder, and ptxas's files in TMPDIR, with each of the others.
constexpr int kSignals[] = {SIGHUP,  SIGINT,    SIGQUIT,   SIGTERM, SIGUSR2,
                            SIGPIPE, SIGALRM,   SIGVTALRM, SIGPROF, SIGXCPU,
                            SIGXFSZ, SIGSTKFLT, SIGPWR};
constexpr unsigned kAlwaysTaken = 6;
/// Faults, and abort(): a crash, or std::terminate after an uncaught
/// std::bad_alloc. Always taken, after the cleanup handed on to LLVM's
/// handler (and from there to the default action); outside a guarded LLVM
/// stage (whose CrashRecoveryContext takes them first) they used to leave
/// ptxas running on and its FIFO in TMPDIR, since LLVM's handler removes
/// only regular files. Never blocked by CleanupSignalsBlocked: a fault
/// that is blocked ends the process at once.
constexpr int kFaultSignals[] = {SIGABRT, SIGBUS, SIGFPE, SIGILL,
                                 SIGSEGV, SIGSYS, SIGTRAP};
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

/// By index into kSignals, then kFaultSignals: what was installed before
/// ours (LLVM's handler, or the action it replaced).
struct sigaction previous[std::size(kSignals) + std::size(kFaultSignals)];

/// By index into kFaultSignals: llvm::CrashRecoveryContext's handlers,
/// where kiln's went over them (installHandlers after
/// CrashRecoveryContext::Enable(), or takeFaultsBeforeCrashRecovery());
/// sa_handler is null where there is none.
struct sigaction crashRecovery[std::size(kFaultSignals)];
std::atomic<bool> crashRecoveryTaken{false};

/// Set once installHandlers() has run.
std::atomic<bool> handlersInstalled{false};

/// By index into kFaultSignals: ignored (SIG_IGN) when the handler was
/// installed. Such a signal sent by another process (`kill -SEGV`) is
/// still ignored; a real fault, or abort(), is not (the kernel ends the
/// process for a fault whose signal is ignored, with no handler run).
bool faultIgnored[std::size(kFaultSignals)];

/// The thread (its kernel thread id) that ends the process: the first to
/// take a fault or a signal that ends kiln, or to run out of memory
/// (claimProcessEnd). 0 until then. Another thread that would end it
/// meanwhile waits instead (GPU machine, helper-86: out of memory on one
/// thread and a fault on another printed both messages, interleaved, and
/// the fault's exit status 139 won over the out-of-memory error).
std::atomic<long> endingThread{0};

enum class Claim { Won, Lost, Nested };

/// Claims the end of the process for the calling thread: Won, Lost (an
/// other thread ends it), or Nested (this thread already does: a fault or
/// a signal inside its own cleanup).
Claim claimEnding() {
  long self = ::syscall(SYS_gettid);
  long expected = 0;
  if (endingThread.compare_exchange_strong(expected, self,
                                           std::memory_order_seq_cst))
    return Claim::Won;
  return expected == self ? Claim::Nested : Claim::Lost;
}

/// Waits (polling every millisecond: nanosleep is async-signal-safe)
/// while another thread holds the claim; returns Won or Nested.
Claim waitForClaim() {
  Claim claim;
  while ((claim = claimEnding()) == Claim::Lost) {
    timespec pauseTime{0, 1000000};
    ::nanosleep(&pauseTime, nullptr);
  }
  return claim;
}

/// kSignals then kFaultSignals, by index; -1 for neither.
int signalIndex(int sig) {
  for (unsigned i = 0; i < std::size(kSignals); ++i)
    if (kSignals[i] == sig)
      return i;
  for (unsigned i = 0; i < std::size(kFaultSignals); ++i)
    if (kFaultSignals[i] == sig)
      return std::size(kSignals) + i;
  return -1;
}

/// Removes directory `path` and everything in it, at any depth, with two
/// descriptors and no recursion: the handler's stack and descriptors stay
/// bounded whatever an archive extracted into an import's staging folder
/// (helper-79 left a tree 11 levels deep behind a limit of 8). Each folder
/// about to be entered is first renamed to kDescent in its parent, so that
/// coming back up through ".." finds it by that name (no list of names to
/// keep); each folder entered is made rwx for its owner (an archive's 0555
/// or 0000 folder could not be emptied by a non-root kiln). Through open,
/// openat, fstat, fchmod, renameat, unlinkat, the getdents64 system call
/// and close: no opendir (which allocates) in signal context. Symlinks are
/// removed, never followed. Gives up after kMaxSteps folder visits (a file
/// it cannot remove would otherwise be visited forever).
constexpr char kDescent[] = ".kiln-removing";
constexpr long kMaxSteps = 1 << 20;

/// Unlinks every entry of `dir` that is not a folder; writes the name of
/// one folder it holds into `folder` (empty if none).
void unlinkFilesAndFindFolder(int dir, char (&folder)[256]) {
  folder[0] = 0;
  ::lseek(dir, 0, SEEK_SET);
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
      if (!folder[0] && std::strlen(name) < sizeof(folder))
        std::memcpy(folder, name, std::strlen(name) + 1);
    }
  }
}

/// One pass of removeDirectory: empties `path` and removes it, with at
/// most `steps` folder visits (counted down; shared by the passes). Returns
/// rmdir's result (errno set on failure).
int removeDirectoryOnce(const char *path, long &steps) {
  int top = ::open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
  if (top < 0)
    return ::rmdir(path);
  struct stat topStat;
  if (::fstat(top, &topStat) != 0) {
    ::close(top);
    errno = EBADF;
    return -1;
  }
  (void)::fchmod(top, (topStat.st_mode & 07777) | S_IRWXU);
  int current = top;
  char folder[256];
  for (; steps > 0; --steps) {
    unlinkFilesAndFindFolder(current, folder);
    if (folder[0]) {
      // Down into it, under the name the way back up will look for.
      if (std::strcmp(folder, kDescent) != 0)
        (void)::renameat(current, folder, current, kDescent);
      int child = ::openat(current, kDescent,
                           O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
      if (child < 0) {
        // Not enterable (another owner's): try to make it so once.
        if (::fchmodat(current, kDescent, S_IRWXU, 0) == 0)
          child = ::openat(current, kDescent,
                           O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
        if (child < 0)
          break;
      }
      (void)::fchmod(child, S_IRWXU);
      if (current != top)
        ::close(current);
      current = child;
      continue;
    }
    if (current == top)
      break;
    // Empty: back up and remove it.
    int parent = ::openat(current, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    ::close(current);
    if (parent < 0) {
      current = top;
      break;
    }
    ::unlinkat(parent, kDescent, AT_REMOVEDIR);
    struct stat parentStat;
    if (::fstat(parent, &parentStat) == 0 &&
        parentStat.st_dev == topStat.st_dev &&
        parentStat.st_ino == topStat.st_ino) {
      ::close(parent);
      current = top;
      continue;
    }
    current = parent;
  }
  if (current != top)
    ::close(current);
  ::close(top);
  return ::rmdir(path);
}

/// Passes of removeDirectoryOnce while another thread of kiln, still
/// running while the handler cleans up, makes a file in the folder between
/// a pass's listing and its rmdir (ENOTEMPTY; the CI run of 4319a4c left
/// an output directory's staging folder after SIGINT this way, once). Once
/// the folder is gone nothing can be made in it. Bounded: a folder whose
/// files cannot be removed is left after kMaxRemovalPasses passes or
/// kMaxSteps folder visits in all.
constexpr int kMaxRemovalPasses = 64;

void removeDirectory(const char *path) {
  long steps = kMaxSteps;
  for (int pass = 0; pass < kMaxRemovalPasses && steps > 0; ++pass)
    if (removeDirectoryOnce(path, steps) == 0 || errno != ENOTEMPTY)
      return;
}

/// Open beginRegistration() brackets (on threads with the signals blocked).
std::atomic<int> registering;

void cleanUp() {
  // A path being registered on another thread: wait (at most a second)
  // until it is in the table. clock_gettime is async-signal-safe.
  timespec start, now;
  ::clock_gettime(CLOCK_MONOTONIC, &start);
  while (registering.load(std::memory_order_seq_cst) > 0) {
    ::clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec - start.tv_sec > 1)
      break;
  }
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

/// Appends decimal `value` to `out` at `length` (no snprintf in signal
/// context).
void appendNumber(char *out, size_t &length, size_t capacity,
                  unsigned long long value) {
  char digits[24];
  int count = 0;
  do {
    digits[count++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value > 0);
  while (count > 0 && length + 1 < capacity)
    out[length++] = digits[--count];
}

void appendText(char *out, size_t &length, size_t capacity, const char *text) {
  for (; *text && length + 1 < capacity; ++text)
    out[length++] = *text;
}

/// The stack pointer where the signal came, from its ucontext_t; 0 where
/// unknown (another architecture).
uintptr_t stackPointer(const void *context) {
  if (!context)
    return 0;
  const auto *uc = static_cast<const ucontext_t *>(context);
#if defined(__x86_64__)
  return static_cast<uintptr_t>(uc->uc_mcontext.gregs[REG_RSP]);
#elif defined(__aarch64__)
  return static_cast<uintptr_t>(uc->uc_mcontext.sp);
#else
  (void)uc;
  return 0;
#endif
}

/// A SIGSEGV at an address this close to the stack pointer is the stack's
/// end: a push or a frame's first store past the guard page.
constexpr uintptr_t kNearStackPointer = 64u << 10;

/// For a fault of an instruction or an abort() of kiln's own (not one
/// another process sent): says what most likely happened where kiln can
/// tell. A SIGSEGV next to the stack pointer is a stack overflow (input
/// nested deeper than the stack holds; helper-86 ran `ulimit -s 1024`
/// with 100,000 nested brackets, and was told "out of memory"). Else, if
/// the address space (`ulimit -v`) or the data segment (`ulimit -d`, which
/// counts private writable mappings) is within kNearLimit of its limit,
/// that memory most likely ran out: code that does not check malloc's
/// result (jemalloc's set-up of a new thread's cache, MLIR's
/// Operation::create) faults on the null pointer there instead of
/// reporting it (build machine, matmul_kernel under `ulimit -v`). Reads
/// /proc/self/status with open, read and close.
constexpr unsigned long long kNearLimit = 64ull << 20;
void explainFault(int sig, const siginfo_t *info, const void *context) {
  if (sig == SIGSEGV && info && info->si_code > 0) {
    uintptr_t address = reinterpret_cast<uintptr_t>(info->si_addr);
    uintptr_t sp = stackPointer(context);
    if (sp != 0 && address + kNearStackPointer >= sp &&
        address <= sp + kNearStackPointer) {
      char message[200];
      size_t length = 0;
      appendText(message, length, sizeof(message),
                 "kiln: error: SIGSEGV next to the stack pointer: stack "
                 "overflow, most likely");
      struct rlimit stack;
      if (::getrlimit(RLIMIT_STACK, &stack) == 0 &&
          stack.rlim_cur != RLIM_INFINITY) {
        appendText(message, length, sizeof(message), " (ulimit -s: ");
        appendNumber(message, length, sizeof(message), stack.rlim_cur >> 10);
        appendText(message, length, sizeof(message), " KiB)");
      }
      appendText(message, length, sizeof(message), "\n");
      (void)!::write(2, message, length);
      return;
    }
  }
  int fd = ::open("/proc/self/status", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return;
  char status[4096];
  ssize_t n = ::read(fd, status, sizeof(status) - 1);
  ::close(fd);
  if (n <= 0)
    return;
  status[n] = 0;
  // "VmSize:\t  123456 kB", "VmData:\t  123 kB".
  auto field = [&](const char *name) -> unsigned long long {
    const char *at = std::strstr(status, name);
    if (!at)
      return 0;
    at += std::strlen(name);
    while (*at == ' ' || *at == '\t')
      ++at;
    unsigned long long kib = 0;
    for (; *at >= '0' && *at <= '9'; ++at)
      kib = kib * 10 + static_cast<unsigned long long>(*at - '0');
    return kib << 10;
  };
  struct {
    int resource;
    const char *field;
    const char *name;
  } limits[] = {{RLIMIT_AS, "VmSize:", "address space (ulimit -v)"},
                {RLIMIT_DATA, "VmData:", "data segment (ulimit -d)"}};
  for (const auto &limit : limits) {
    struct rlimit value;
    if (::getrlimit(limit.resource, &value) != 0 ||
        value.rlim_cur == RLIM_INFINITY)
      continue;
    unsigned long long used = field(limit.field);
    unsigned long long cap = value.rlim_cur;
    if (used == 0 || used + kNearLimit < cap)
      continue;
    char message[256];
    size_t length = 0;
    appendText(message, length, sizeof(message), "kiln: error: ");
    appendText(message, length, sizeof(message),
               sig == SIGSEGV   ? "SIGSEGV"
               : sig == SIGABRT ? "SIGABRT"
               : sig == SIGBUS  ? "SIGBUS"
                                : "a fault");
    appendText(message, length, sizeof(message), " with the ");
    appendText(message, length, sizeof(message), limit.name);
    appendText(message, length, sizeof(message), " at ");
    appendNumber(message, length, sizeof(message), used >> 20);
    appendText(message, length, sizeof(message), " of its ");
    appendNumber(message, length, sizeof(message), cap >> 20);
    appendText(message, length, sizeof(message),
               " MiB: out of memory, most likely\n");
    (void)!::write(2, message, length);
    return;
  }
}

void onSignal(int sig, siginfo_t *info, void *context) {
  int index = signalIndex(sig);
  bool fault = index >= static_cast<int>(std::size(kSignals));
  int savedErrno = errno;
  // Sent by a process (kill, sigqueue, raise, abort(): si_code at most 0)
  // rather than a fault of an instruction; and sent by another process.
  // kiln's own raise() and abort() come as SI_TKILL, a kill() of its own
  // pid as SI_USER, both with its pid: codes the kernel lets no other
  // process give (rt_sigqueueinfo(2)), unlike the pid of a sigqueue'd
  // signal (helper-87 forged it).
  bool sent = !info || info->si_code <= 0;
  bool own = info && info->si_pid == ::getpid() &&
             (info->si_code == SI_TKILL || info->si_code == SI_USER);
  bool sentByOther = sent && !own;
  // A fault signal kiln was started with ignored, sent by another process
  // (helper-86: `trap '' SEGV`, then `kill -SEGV`): ignored, as before
  // (the cleanup ran, and the compile went on without its files).
  if (fault && sentByOther && faultIgnored[index - std::size(kSignals)]) {
    errno = savedErrno;
    return;
  }
  // A fault inside a guarded LLVM stage goes to its CrashRecoveryContext,
  // which unwinds the stage (longjmp) with the thread's signal mask as it
  // was before this handler ran; not one another process sent (helper-87:
  // a `kill -SEGV` during codegen failed the compile with "LLVM
  // crashed"). Its handler is the one kiln's was put back over
  // (takeFaultsBeforeCrashRecovery), or, where kiln's was installed after
  // CrashRecoveryContext::Enable(), the one in place then (not LLVM's,
  // installed in between: its handler takes itself and kiln's off, and
  // the process's next fault then ended it with nothing cleaned up).
  if (fault && !sentByOther &&
      crashRecoveryTaken.load(std::memory_order_acquire) &&
      crashRecovery[index - std::size(kSignals)].sa_handler &&
      llvm::CrashRecoveryContext::GetCurrent()) {
    const struct sigaction &recovery =
        crashRecovery[index - std::size(kSignals)];
    if (context)
      ::pthread_sigmask(SIG_SETMASK,
                        &static_cast<ucontext_t *>(context)->uc_sigmask,
                        nullptr);
    errno = savedErrno;
    if (recovery.sa_flags & SA_SIGINFO)
      recovery.sa_sigaction(sig, info, context);
    else
      recovery.sa_handler(sig);
    return;
  }
  // Another thread that ends the process (its cleanup, then its exit)
  // first: this one waits. (One that hands its signal to an embedder's
  // handler gives the claim back after, and this one goes on.)
  Claim claim = waitForClaim();
  if (claim == Claim::Nested) {
    errno = savedErrno;
    // A signal while this thread ends the process (out of memory's
    // cleanup): that end goes on.
    if (!fault)
      return;
    // A fault in this thread's own cleanup: the process ends now, by the
    // default action (a real fault comes again on return).
    struct sigaction defaultAction;
    std::memset(&defaultAction, 0, sizeof(defaultAction));
    defaultAction.sa_handler = SIG_DFL;
    sigemptyset(&defaultAction.sa_mask);
    ::sigaction(sig, &defaultAction, nullptr);
    if (sent)
      ::raise(sig);
    return;
  }
  if (fault && !sentByOther)
    explainFault(sig, info, context);
  cleanUp();
  // Put back what was there and hand the signal on. A fault handed to
  // SIG_IGN would be raised again on return from the faulting instruction,
  // for ever: it gets the default action instead.
  struct sigaction before = previous[index];
  if (fault && !(before.sa_flags & SA_SIGINFO) && before.sa_handler == SIG_IGN)
    before.sa_handler = SIG_DFL;
  ::sigaction(sig, &before, nullptr);
  errno = savedErrno;
  // A fault signal that a process sent comes back to no faulting
  // instruction: LLVM's handler returns from it, and the process would go
  // on without its cleaned-up files. It is raised again, to the action the
  // handler before left in place (LLVM's leaves the default). A real fault
  // comes again by itself.
  bool sentFault = fault && sent;
  bool handed = false;
  if (before.sa_flags & SA_SIGINFO) {
    if (before.sa_sigaction)
      before.sa_sigaction(sig, info, context);
    handed = true;
  } else if (before.sa_handler != SIG_DFL && before.sa_handler != SIG_IGN) {
    before.sa_handler(sig);
    handed = true;
  }
  if (handed) {
    if (sentFault)
      ::raise(sig);
    // The handler before returned: unless it left the signal pending (to
    // its default action on return: LLVM's raises it) or this is a fault,
    // the process goes on (an embedder's handler), and so may another
    // thread's end.
    sigset_t pending;
    if (!fault && ::sigpending(&pending) == 0 && !sigismember(&pending, sig))
      endingThread.store(0, std::memory_order_release);
    return;
  }
  // The default action (end the process) once this handler returns: the
  // signal is blocked while it runs. (A fault of the instruction that
  // raised it would come again anyway, to the default action now.)
  ::raise(sig);
}

/// Whether `action` runs a function (not SIG_DFL or SIG_IGN).
bool isHandler(const struct sigaction &action) {
  if (action.sa_flags & SA_SIGINFO)
    return action.sa_sigaction != nullptr;
  return action.sa_handler != SIG_DFL && action.sa_handler != SIG_IGN;
}

/// kiln's handler, as installed.
struct sigaction ourAction() {
  struct sigaction ours;
  std::memset(&ours, 0, sizeof(ours));
  ours.sa_sigaction = onSignal;
  // On the alternate stack LLVM set up for this thread, where there is
  // one: a stack overflow's SIGSEGV cannot run a handler on its own stack.
  ours.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
  // A second signal waits until this one's cleanup is done (it ends the
  // process anyway): run inside it, it found LLVM's list already taken
  // and ended the process before the first had removed those files.
  sigemptyset(&ours.sa_mask);
  for (int sig : kSignals)
    sigaddset(&ours.sa_mask, sig);
  for (int sig : kFaultSignals)
    sigaddset(&ours.sa_mask, sig);
  return ours;
}

void installHandlers() {
  bool ignored[std::size(kSignals)];
  bool taken[std::size(kSignals)];
  for (unsigned i = 0; i < std::size(kSignals); ++i) {
    struct sigaction current;
    bool known = ::sigaction(kSignals[i], nullptr, &current) == 0;
    bool plain = known && !(current.sa_flags & SA_SIGINFO);
    ignored[i] = plain && current.sa_handler == SIG_IGN;
    taken[i] = i < kAlwaysTaken || (plain && current.sa_handler == SIG_DFL);
  }
  for (unsigned i = 0; i < std::size(kFaultSignals); ++i) {
    struct sigaction current;
    faultIgnored[i] = ::sigaction(kFaultSignals[i], nullptr, &current) == 0 &&
                      !(current.sa_flags & SA_SIGINFO) &&
                      current.sa_handler == SIG_IGN;
  }
  // A handler already in place for a fault: CrashRecoveryContext's, if
  // CrashRecoveryContext::Enable() ran first (an embedder's guarded LLVM
  // stage before anything installed kiln's). Faults inside a context go
  // to it.
  bool anyRecovery = false;
  for (unsigned i = 0; i < std::size(kFaultSignals); ++i) {
    struct sigaction current;
    if (::sigaction(kFaultSignals[i], nullptr, &current) == 0 &&
        isHandler(current)) {
      crashRecovery[i] = current;
      anyRecovery = true;
    }
  }
  if (anyRecovery)
    crashRecoveryTaken.store(true, std::memory_order_release);
  // LLVM's handlers go in now, under kiln's: whichever is installed last
  // runs first. LLVM installs its own once per process, over SIG_IGN too.
  // (An empty name: stat() fails on it, so LLVM's handler skips it.)
  llvm::sys::RemoveFileOnSignal("");
  struct sigaction ours = ourAction();
  struct sigaction ignore;
  std::memset(&ignore, 0, sizeof(ignore));
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  for (unsigned i = 0; i < std::size(kSignals); ++i) {
    // An ignored signal is ignored again, over LLVM's handler: no cleanup,
    // and the children (ld.lld, `ptxas --version`, tar) inherit SIG_IGN
    // through exec, as they did before; a handled signal is reset to the
    // default action there.
    if (ignored[i])
      ::sigaction(kSignals[i], &ignore, &previous[i]);
    else if (taken[i])
      ::sigaction(kSignals[i], &ours, &previous[i]);
  }
  for (unsigned i = 0; i < std::size(kFaultSignals); ++i)
    ::sigaction(kFaultSignals[i], &ours, &previous[std::size(kSignals) + i]);
  // A fault whose signal is blocked ends the process at once, with no
  // handler run (helper-86 started kiln with SIGSEGV blocked: nothing was
  // cleaned up). Unblocked on this thread, and so on the threads it starts
  // from now on; a signal another process sent meanwhile comes now.
  sigset_t faults;
  sigemptyset(&faults);
  for (int sig : kFaultSignals)
    sigaddset(&faults, sig);
  ::pthread_sigmask(SIG_UNBLOCK, &faults, nullptr);
  handlersInstalled.store(true, std::memory_order_release);
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

void takeFaultsBeforeCrashRecovery() {
  if (!handlersInstalled.load(std::memory_order_acquire))
    return; // installed later, they go over CrashRecoveryContext's anyway
  static std::once_flag taken;
  std::call_once(taken, [] {
    for (unsigned i = 0; i < std::size(kFaultSignals); ++i) {
      struct sigaction current;
      if (::sigaction(kFaultSignals[i], nullptr, &current) != 0)
        continue;
      bool isOurs =
          (current.sa_flags & SA_SIGINFO) && current.sa_sigaction == onSignal;
      if (isOurs || !isHandler(current))
        continue;
      crashRecovery[i] = current;
    }
    struct sigaction ours = ourAction();
    for (unsigned i = 0; i < std::size(kFaultSignals); ++i)
      if (crashRecovery[i].sa_handler)
        ::sigaction(kFaultSignals[i], &ours, nullptr);
    crashRecoveryTaken.store(true, std::memory_order_release);
  });
}

void claimProcessEnd() { (void)waitForClaim(); }

void runSignalCleanup() { cleanUp(); }

void beginRegistration() {
  installSignalCleanup();
  registering.fetch_add(1, std::memory_order_seq_cst);
}

void endRegistration() { registering.fetch_sub(1, std::memory_order_acq_rel); }

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
  // The fault signals too: one another process sends (`kill -SEGV`, to
  // kiln's process group) comes after the bracket, not inside it, where
  // kiln's handler on this thread waited a second for this thread's own
  // registration and then left its file (helper-96: SIGBUS to kiln left
  // `ptxas --version`'s output in TMPDIR), or ran in a vfork child (which
  // hung kiln). A real fault in a bracket ends the process by the default
  // action (the kernel's rule for a blocked fault): brackets hold a few
  // system calls.
  sigset_t cleanupSignals;
  sigemptyset(&cleanupSignals);
  for (int sig : kSignals)
    sigaddset(&cleanupSignals, sig);
  for (int sig : kFaultSignals)
    sigaddset(&cleanupSignals, sig);
  ::pthread_sigmask(SIG_BLOCK, &cleanupSignals, &previous);
  beginRegistration();
  // Another thread already ends the process: its cleanup may be past its
  // wait for registrations, and what this bracket goes on to start or
  // create would outlive it (a tool that makes its output file again after
  // the cleanup removed it: signal-cleanup.test, once ptxas started as
  // kiln loaded, left `ptxas --version`'s output in TMPDIR). This thread
  // waits, its bracket closed so that the cleanup does not wait for it,
  // until the process ends, or until that thread gives the claim back (an
  // embedder's handler let the process go on). Sequentially consistent,
  // with the claim and cleanUp's load of `registering`: one of the two
  // threads sees the other.
  const long self = ::syscall(SYS_gettid);
  for (;;) {
    long ending = endingThread.load(std::memory_order_seq_cst);
    if (ending == 0 || ending == self)
      break;
    endRegistration();
    timespec pauseTime{0, 1000000};
    ::nanosleep(&pauseTime, nullptr);
    beginRegistration();
  }
}

CleanupSignalsBlocked::~CleanupSignalsBlocked() {
  endRegistration();
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
