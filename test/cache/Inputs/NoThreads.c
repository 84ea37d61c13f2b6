/* NoThreads.c: an LD_PRELOAD shim for no-threads.test. pthread_create()
 * starts no thread and fails with EAGAIN, as it does under RLIMIT_NPROC or a
 * cgroup's pids.max, and says so on stderr, so that a test can tell that
 * kiln asked for a thread and went on without one. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

int pthread_create(pthread_t *thread, const pthread_attr_t *attr,
                   void *(*start)(void *), void *arg) {
  (void)thread;
  (void)attr;
  (void)start;
  (void)arg;
  static const char note[] = "no-threads shim: pthread_create refused\n";
  ssize_t ignored = write(2, note, sizeof note - 1);
  (void)ignored;
  return EAGAIN;
}
