/* SlowMkstemp.c: an LD_PRELOAD shim for cli.test and shared-output-dir.test.
 * mkstemp() and mkostemp() sleep $KILN_TEST_SLOW_US microseconds after
 * making a file whose path contains $KILN_TEST_SLOW_MATCH, which widens the
 * moment between a temporary file's creation and its registration with
 * kiln's signal cleanup (microseconds otherwise) so that a test can send its
 * signal there; renameat() sleeps as long after a rename whose new name
 * contains it, which widens an output directory's publish. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void slowDown(int fd, const char *pattern) {
  const char *match = getenv("KILN_TEST_SLOW_MATCH");
  const char *us = getenv("KILN_TEST_SLOW_US");
  if (fd >= 0 && match && us && strstr(pattern, match))
    usleep((useconds_t)atoi(us));
}

int mkstemp(char *pattern) {
  int (*real)(char *) = (int (*)(char *))dlsym(RTLD_NEXT, "mkstemp");
  int fd = real(pattern);
  slowDown(fd, pattern);
  return fd;
}

int mkostemp(char *pattern, int flags) {
  int (*real)(char *, int) = (int (*)(char *, int))dlsym(RTLD_NEXT, "mkostemp");
  int fd = real(pattern, flags);
  slowDown(fd, pattern);
  return fd;
}

int renameat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath) {
  int (*real)(int, const char *, int, const char *) =
      (int (*)(int, const char *, int, const char *))dlsym(RTLD_NEXT, "renameat");
  int result = real(olddirfd, oldpath, newdirfd, newpath);
  slowDown(result == 0 ? 0 : -1, newpath);
  return result;
}
