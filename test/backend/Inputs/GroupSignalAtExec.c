// An LD_PRELOAD shim for signal-at-spawn.test: a signal sent to kiln and to
// the vfork child that starts ptxas, as a Ctrl-C, timeout(1) or a `kill
// -SEGV` to kiln's process group would while the child was still in it.
// KILN_TEST_SIGNAL_AT_EXEC=N sends signal N (SIGINT for 1) from kiln's
// execve of ptxas, the child's last step; KILN_TEST_SIGNAL_IN_CHILD=N sends
// it from the child's first sigaction call, before the child has put the
// default actions in place (PtxasProcess::spawn), once per kiln process.
// Only calls through the PLT are seen (glibc's posix_spawn execs and sets
// actions through internal symbols), so only PtxasProcess's own.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/syscall.h>
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
