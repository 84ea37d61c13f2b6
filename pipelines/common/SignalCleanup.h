//===- SignalCleanup.h - temporary paths removed when a signal ends kiln -*- C++ -*-===//
//
// The backends keep files in TMPDIR while an external tool runs: ptxas's
// input FIFO and outputs, ld.lld's object and code object and their
// directory, a tool's captured output. LLVM's sys::RemoveFileOnSignal
// removes only regular files, and only on the signals its handlers take
// (SIGINT, SIGTERM, SIGHUP, ...; SIGPIPE only where a pipe handler is set,
// which kiln does not set); and its handler removes them even for a signal
// the process was started with ignored (nohup, a background job's SIGINT),
// after which the compile carries on without its files. This registry
// covers the rest: FIFOs and directories, SIGPIPE (kiln writing to a
// closed stderr pipe), child processes that would write after the cleanup,
// and ignored signals left ignored.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PIPELINES_COMMON_SIGNALCLEANUP_H
#define KILN_PIPELINES_COMMON_SIGNALCLEANUP_H

#include "llvm/ADT/StringRef.h"

#include <csignal>

namespace kiln {

/// Installs kiln's handler for SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR2
/// and SIGPIPE, and for the other signals whose default action ends the
/// process without a fault (SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ,
/// SIGSTKFLT, SIGPWR: a `ulimit -f` or `-t` limit, a timer) where that
/// default is still in place, and for the faults and abort() (SIGABRT,
/// SIGBUS, SIGFPE, SIGILL, SIGSEGV, SIGSYS, SIGTRAP: a crash outside a
/// guarded LLVM stage, std::terminate), once per process; later calls do
/// nothing. SIGUSR1 is left to LLVM. It notes which of
/// them the process ignores at that moment, has LLVM install its own
/// handlers (those of sys::RemoveFileOnSignal, which LLVM puts over SIG_IGN
/// too) first, then:
///   - sets a signal that was ignored back to SIG_IGN: nothing is removed,
///     the compile goes on, and child processes inherit SIG_IGN;
///   - puts kiln's handler over LLVM's for the others. It kills (SIGKILL)
///     and reaps the registered child processes, removes the registered
///     paths (files first, then directories), runs LLVM's handler (its
///     files), and the process ends by that signal (exit status 128 + its
///     number in a shell), or the handler that was there before LLVM's
///     gets it. SIGPIPE, which LLVM's handlers do not take, ends the
///     process by the default action. All of these signals are blocked
///     while the handler runs, on the alternate signal stack where the
///     thread has one (LLVM makes one for the thread that installs it).
///     A CrashRecoveryContext's handlers (kiln's guarded LLVM stages), set
///     later, take a fault inside their context first and hand any other
///     on to this one.
/// Of the faults: one the process was started with ignored stays ignored
/// when another process sends it (`kill -SEGV`), but a real fault or an
/// abort() of kiln's own cleans up and ends kiln (the kernel ends a
/// process whose fault signal is ignored or blocked, with no handler run);
/// they are unblocked on the calling thread. Before the cleanup, a fault
/// says what most likely happened where kiln can tell: a stack overflow
/// (a SIGSEGV next to the stack pointer), or memory run out (the address
/// space or the data segment within 64 MiB of its limit). Only one thread
/// ends the process: the first to take a signal or a fault, or to run out
/// of memory (claimProcessEnd); the others wait for it. Children inherit
/// the default action for the faults, not SIG_IGN.
/// Call it before anything registers a file with LLVM: kiln's main does,
/// first thing. Where LLVM's handlers were installed earlier, an ignored
/// signal cannot be told apart and is treated as not ignored (as LLVM
/// does). SIGKILL cannot be caught: what it leaves stays.
void installSignalCleanup();

/// Removes `path` (a file or FIFO; with `directory`, a directory: after
/// every registered file, with all it holds at any depth, such as a killed
/// tool's temporary output or the folders tar extracted; symlinks in it
/// are removed, not followed, and its folders are made rwx for their owner
/// first) when a signal ends the process while it is registered. Installs the handler (installSignalCleanup) if not yet.
/// Thread-safe and lock-free; at most 64 paths (each shorter than PATH_MAX
/// bytes) at once: beyond that the call does nothing and the path is
/// removed only by its owner.
void removeOnSignal(llvm::StringRef path, bool directory = false);

/// Puts kiln's handler back over llvm::CrashRecoveryContext's for the
/// faults it takes: call it right after CrashRecoveryContext::Enable().
/// kiln's handler then hands a fault on a thread inside a recovery context
/// to that context's handler (which unwinds the guarded stage), and takes
/// any other itself, with the sender's siginfo: CrashRecoveryContext's
/// handler raises a signal it gets outside a context again from the
/// process itself, so that one another process sent (`kill -SEGV`) looked
/// like kiln's own abort() or fault. Does nothing where kiln's handler is
/// not installed yet (installed later, it goes over CrashRecoveryContext's
/// and hands faults in a context on the same way). Once per process;
/// later calls do nothing.
void takeFaultsBeforeCrashRecovery();

/// For a process about to end without a signal (out of memory,
/// OutOfMemory.h): makes the calling thread the one that ends it, as the
/// handler does for the first thread that takes a signal or a fault.
/// Returns at once when no other thread is ending the process, or when
/// this one already is; otherwise waits, in practice until the process
/// ends (the other thread's exit; it returns only if that thread handed a
/// signal to an embedder's handler that let the process go on).
/// Meanwhile a signal or a fault on another thread waits the same way,
/// and one on this thread leaves this end to go on (a fault ends the
/// process by its default action). Async-signal-safe and
/// allocation-free.
void claimProcessEnd();

/// Does now what the handler does before handing a signal on: kills and
/// reaps the registered children, removes the registered paths and LLVM's
/// sys::RemoveFileOnSignal files. Async-signal-safe and allocation-free,
/// for a process about to end without a signal, after claimProcessEnd().
/// The registrations stay.
void runSignalCleanup();

/// Brackets the making and registering of a path or child on a thread
/// that has the cleanup signals blocked meanwhile (CleanupSignalsBlocked,
/// or all signals): a handler that runs on another thread first waits,
/// for at most a second, until no such bracket is open, so that it does
/// not clean up before the path is registered. Counted: brackets on
/// several threads may overlap.
void beginRegistration();
void endRegistration();

/// Ends removeOnSignal(`path`): call it once the owner removed the path,
/// or kept it. A path not registered is ignored.
void dontRemoveOnSignal(llvm::StringRef path);

/// Kills child process `pid` (SIGKILL; with `processGroup`, the process
/// group it leads too) and reaps it before the registered paths are
/// removed, so that it cannot write one of them after the cleanup (ptxas
/// finishing its cubin, ld.lld its code object, while kiln's handler runs).
/// At most 64 at once, as for paths.
void killOnSignal(int pid, bool processGroup = false);

/// Ends killOnSignal(`pid`): call it as soon as the child is reaped (its
/// pid may then be reused).
void dontKillOnSignal(int pid);

/// Blocks the signals kiln's cleanup takes (the fault signals included)
/// on the calling thread for its lifetime, for spawning a child and registering
/// it (killOnSignal) with no signal in between: one that came first would find
/// no child to kill, and the child could write after the cleanup. The child
/// should start with previousMask() (posix_spawnattr_setsigmask, or
/// pthread_sigmask before execve). It is also a registration bracket
/// (beginRegistration): a handler running on another thread meanwhile waits for
/// it, as for a `ptxas --version` run and its output file registered on a
/// worker thread while the main thread takes the signal. Installs the handler
/// (installSignalCleanup) if not yet.
class CleanupSignalsBlocked {
public:
  CleanupSignalsBlocked();
  ~CleanupSignalsBlocked();
  CleanupSignalsBlocked(const CleanupSignalsBlocked &) = delete;
  CleanupSignalsBlocked &operator=(const CleanupSignalsBlocked &) = delete;

  /// The thread's mask before the constructor blocked the signals.
  const sigset_t &previousMask() const { return previous; }

private:
  sigset_t previous;
};

} // namespace kiln

#endif // KILN_PIPELINES_COMMON_SIGNALCLEANUP_H
