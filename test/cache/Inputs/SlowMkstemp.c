/* SlowMkstemp.c: an LD_PRELOAD shim for cli.test. mkstemp() sleeps
 * $KILN_TEST_SLOW_US microseconds after making a file whose path contains
 * $KILN_TEST_SLOW_MATCH, which widens the moment between a temporary file's
 * creation and its registration with kiln's signal cleanup (microseconds
 * otherwise) so that a test can send its signal there. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int mkstemp(char *pattern) {
  int (*real)(char *) = (int (*)(char *))dlsym(RTLD_NEXT, "mkstemp");
  int fd = real(pattern);
  const char *match = getenv("KILN_TEST_SLOW_MATCH");
  const char *us = getenv("KILN_TEST_SLOW_US");
  if (fd >= 0 && match && us && strstr(pattern, match))
    usleep((useconds_t)atoi(us));
  return fd;
}
