// An LD_PRELOAD shim for signal-at-spawn.test: a signal sent to kiln and to
// the vfork child that starts ptxas, as a Ctrl-C, timeout(1) or a `kill
// -SEGV` to kiln's process group would while the child was still in it.
// KILN_TEST_SIGNAL_AT_EXEC=N sends signal N (SIGINT for 1) from kiln's
// execve of ptxas, the child's last step; KILN_TEST_SIGNAL_IN_CHILD=N sends
// it from the child's first sigaction call, before the child has put the
// default actions in place (PtxasProcess::spawn), once per kiln process.
// KILN_TEST_SIGNAL_AT_LOG=N sends it to kiln when kiln creates ptxas's
// kiln-ptxas-XXXXXX.log (inside PtxasProcess::start's registration
// bracket, where the signal is blocked on that thread, so that a handler
// on another thread takes it), then holds that thread 20 ms; with it,
// mkfifo of ptxas's input starts 1 ms late and the cleanup's unlink of it
// returns 5 ms late, as preempted threads would (helper-97's race).
// Only calls through the PLT are seen (glibc's posix_spawn execs and sets
// actions through internal symbols), so only PtxasProcess's own.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static pid_t owner;
static int sentInChild;

__attribute__((constructor)) static void recordOwner(void) { owner = getpid(); }

static int signalFrom(const char *variable) {
  const char *value = getenv(variable);
  if (!value)
    return 0;
  return atoi(value) > 1 ? atoi(value) : SIGINT;
}

int execve(const char *path, char *const argv[], char *const envp[]) {
  int sig = signalFrom("KILN_TEST_SIGNAL_AT_EXEC");
  if (sig) {
    kill(getppid(), sig);
    kill(getpid(), sig);
  }
  return syscall(SYS_execve, path, argv, envp);
}

int sigaction(int signum, const struct sigaction *act,
              struct sigaction *oldact) {
  static int (*next)(int, const struct sigaction *, struct sigaction *);
  if (!next)
    next = (int (*)(int, const struct sigaction *, struct sigaction *))dlsym(
        RTLD_NEXT, "sigaction");
  // In a vfork child (memory shared with kiln: the flag is kiln's too).
  int sig = signalFrom("KILN_TEST_SIGNAL_IN_CHILD");
  if (sig && !sentInChild && getpid() != owner && getppid() == owner) {
    sentInChild = 1;
    kill(getppid(), sig);
    kill(getpid(), sig);
  }
  return next(signum, act, oldact);
}

static int isPtxasFile(const char *path, const char *suffix) {
  if (!path || !strstr(path, "kiln-ptxas-"))
    return 0;
  size_t n = strlen(path), m = strlen(suffix);
  return n >= m && strcmp(path + n - m, suffix) == 0;
}

static void sleepMs(long ms) {
  struct timespec t = {0, ms * 1000000L};
  nanosleep(&t, 0);
}

static void signalAtLog(const char *path, int flags) {
  int sig = signalFrom("KILN_TEST_SIGNAL_AT_LOG");
  if (sig && (flags & O_CREAT) && isPtxasFile(path, ".log")) {
    kill(getpid(), sig);
    sleepMs(20);
  }
}

int open(const char *path, int flags, ...) {
  mode_t mode = 0;
  if (flags & O_CREAT) {
    va_list args;
    va_start(args, flags);
    mode = va_arg(args, int);
    va_end(args);
  }
  static int (*next)(const char *, int, ...);
  if (!next)
    next = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
  int fd = next(path, flags, mode);
  if (fd >= 0)
    signalAtLog(path, flags);
  return fd;
}

int open64(const char *path, int flags, ...) __attribute__((alias("open")));

int mkfifo(const char *path, mode_t mode) {
  static int (*next)(const char *, mode_t);
  if (!next)
    next = (int (*)(const char *, mode_t))dlsym(RTLD_NEXT, "mkfifo");
  if (getenv("KILN_TEST_SIGNAL_AT_LOG") && isPtxasFile(path, ".ptx"))
    sleepMs(1);
  return next(path, mode);
}

int unlink(const char *path) {
  static int (*next)(const char *);
  if (!next)
    next = (int (*)(const char *))dlsym(RTLD_NEXT, "unlink");
  int result = next(path);
  if (getenv("KILN_TEST_SIGNAL_AT_LOG") && isPtxasFile(path, ".ptx"))
    sleepMs(5);
  return result;
}
