// An LD_PRELOAD shim for signal-at-spawn.test: kiln's execve of ptxas, made
// in the vfork child between vfork and exec, first sends SIGINT to kiln
// and then to the child itself, as a Ctrl-C or timeout(1) sent to kiln's
// process group while the child was still in it would (the child has
// moved to a group of its own by now). Only calls through the PLT are seen
// (glibc's posix_spawn execs through an internal symbol), so only
// PtxasProcess's own execve.
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

int execve(const char *path, char *const argv[], char *const envp[]) {
  if (getenv("KILN_TEST_SIGNAL_AT_EXEC")) {
    kill(getppid(), SIGINT);
    kill(getpid(), SIGINT);
  }
  return syscall(SYS_execve, path, argv, envp);
}
