// Temporary.h: the temporary paths and child processes the cache makes
// while it works, announced to the embedder so that a signal which ends the
// process can take them along. The cache installs no signal handler of its
// own (a library must not); kiln's CLI hands what is announced here to its
// signal cleanup (pipelines/common/SignalCleanup.h).
//
// What is announced:
// - a publish's staging folder, ROOT/tmp/pub-*, and an import's,
//   ROOT/tmp/import-* (trees: tar extracts folders into the latter);
// - an export's archive in the making, a hidden file .NAME.kiln-* beside
//   the archive's path;
// - a toolchain memo in the making, ROOT/tools/*.json.*;
// - tar (export, import), which writes into them: the embedder should end
//   it before removing them, or it could go on writing.
// Each is announced once it exists, with every blockable signal blocked on
// the calling thread from just before it is made until the hook returned
// (so that a signal cannot come between the two on that thread; the
// `making` hook lets a handler on another thread wait), and is done once
// it is gone, renamed into place or reaped. What SIGKILL leaves stays: gc's
// --tmp-age removes tmp/ leftovers, `kiln cache gc` does not look beside
// archives.
#ifndef KILN_CACHE_TEMPORARY_H
#define KILN_CACHE_TEMPORARY_H

#include <csignal>
#include <string>

namespace kiln::cache {

/// Hooks for temporary paths and child processes. Each may be null (the
/// default: nothing is announced). They are called from whichever thread
/// uses a Store, with signals blocked in the `made` / `started` calls, and
/// must be thread-safe.
struct TemporaryHooks {
  /// `path` (absolute where the cache root is) now exists; `tree`: a
  /// folder that may hold folders.
  void (*madePath)(const char* path, bool tree) = nullptr;
  /// `path` is gone, or was renamed into place: no longer to remove.
  void (*donePath)(const char* path) = nullptr;
  /// Child process `pid` (tar) runs and writes into announced paths.
  void (*startedProcess)(int pid) = nullptr;
  /// Child process `pid` was reaped (its pid may now be reused).
  void (*reapedProcess)(int pid) = nullptr;
  /// Called with true just before a path or child is made and with false
  /// once it is announced (madePath / startedProcess), on the thread that
  /// makes it, whose signals are blocked meanwhile. A signal handler that
  /// runs on another thread in between should wait for the false: else it
  /// cleans up before the path is announced, and the path stays (a memo
  /// written on a worker thread while the main thread took the signal).
  void (*making)(bool begin) = nullptr;
};

/// Sets the process-wide hooks. Call it once at start-up, before any Store
/// is used (the hooks are read without synchronization with this call).
void setTemporaryHooks(const TemporaryHooks& hooks);

namespace temporary {

/// The scope in which a temporary path or child is made and announced:
/// every signal that can be blocked (all but SIGKILL and SIGSTOP) is
/// blocked on the calling thread, and the `making` hook brackets it (see
/// TemporaryHooks). The previous mask comes back at its end. A child
/// forked meanwhile must set previousMask() before it execs.
class Making {
public:
  Making();
  ~Making();
  Making(const Making&) = delete;
  Making& operator=(const Making&) = delete;
  const sigset_t& previousMask() const { return previous_; }

private:
  sigset_t previous_;
};

/// mkdtemp(`pattern`) in a Making scope, announced as a tree (made) once it
/// exists. False with errno set when it cannot be made.
bool makeDirectory(std::string& pattern);

/// mkostemp(`pattern`, `flags`) in a Making scope, announced as a file once
/// it exists. The descriptor, or -1 with errno set.
int makeFile(std::string& pattern, int flags);

/// Calls the hooks, where set.
void made(const std::string& path, bool tree);
void done(const std::string& path);
void started(int pid);
void reaped(int pid);

/// Calls done(path) at the end of its scope (after the path was removed or
/// renamed by the code in that scope). An empty path does nothing.
class DoneAtExit {
public:
  explicit DoneAtExit(std::string path) : path_(std::move(path)) {}
  ~DoneAtExit() {
    if (!path_.empty())
      done(path_);
  }
  DoneAtExit(const DoneAtExit&) = delete;
  DoneAtExit& operator=(const DoneAtExit&) = delete;

private:
  std::string path_;
};

}  // namespace temporary
}  // namespace kiln::cache

#endif  // KILN_CACHE_TEMPORARY_H
