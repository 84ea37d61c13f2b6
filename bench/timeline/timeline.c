// timeline.c: an LD_PRELOAD library that timestamps where a `kiln compile`
// process and the ptxas it starts spend their time (bench/timeline/README.md).
// Each event is one line "PROCESS EVENT MS" appended to $TL_LOG, MS being
// milliseconds (CLOCK_MONOTONIC) since $TL_T0, which the launcher sets just
// before the spawn. Events: ctor (this library's constructor: after exec and
// the dynamic loader, before the program's own static initializers), main,
// execve (a child about to exec, e.g. kiln starting ptxas), fopen-ptx and
// fopen-cubin (ptxas opening its input and its output), ptx-ready (kiln
// renaming the PTX over ptxas's input FIFO), _Exit and exit.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

// Raw system calls only: this runs between vfork and execve too.
static void note(const char *event) {
  const char *path = getenv("TL_LOG"), *t0 = getenv("TL_T0");
  if (!path || !t0)
    return;
  int fd = syscall(SYS_open, path, O_WRONLY | O_APPEND | O_CREAT, 0644);
  if (fd < 0)
    return;
  char line[256];
  int n = snprintf(line, sizeof line, "%s %s %.3f\n",
                   program_invocation_short_name, event, now() - atof(t0));
  syscall(SYS_write, fd, line, n);
  syscall(SYS_close, fd);
}

__attribute__((constructor)) static void constructed(void) { note("ctor"); }

static int (*realMain)(int, char **, char **);
static int timedMain(int argc, char **argv, char **envp) {
  note("main");
  return realMain(argc, argv, envp);
}

int __libc_start_main(int (*main)(int, char **, char **), int argc,
                      char **argv, void (*init)(void), void (*fini)(void),
                      void (*rtldFini)(void), void *stackEnd) {
  int (*real)(int (*)(int, char **, char **), int, char **, void (*)(void),
              void (*)(void), void (*)(void), void *) =
      dlsym(RTLD_NEXT, "__libc_start_main");
  realMain = main;
  return real(timedMain, argc, argv, init, fini, rtldFini, stackEnd);
}

int execve(const char *path, char *const argv[], char *const envp[]) {
  note("execve");
  return syscall(SYS_execve, path, argv, envp);
}

void _Exit(int status) {
  note("_Exit");
  syscall(SYS_exit_group, status);
  for (;;) {
  }
}

void exit(int status) {
  note("exit");
  void (*real)(int) = dlsym(RTLD_NEXT, "exit");
  real(status);
  for (;;) {
  }
}

FILE *fopen(const char *path, const char *mode) {
  static FILE *(*real)(const char *, const char *);
  if (!real)
    real = dlsym(RTLD_NEXT, "fopen");
  if (strstr(path, ".ptx"))
    note("fopen-ptx");
  else if (strstr(path, ".cubin"))
    note("fopen-cubin");
  return real(path, mode);
}

int rename(const char *from, const char *to) {
  static int (*real)(const char *, const char *);
  if (!real)
    real = dlsym(RTLD_NEXT, "rename");
  if (strstr(to, ".ptx"))
    note("ptx-ready");
  return real(from, to);
}
