//===- ExitLeavingAddressSpace.cpp - memory released after the exit ------===//

#include "tools/common/ExitLeavingAddressSpace.h"

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace kiln::tool {
namespace {

// The helper's stack, and the pipe it reads: memory of the address space it
// shares, which nothing else uses once the process exits.
alignas(64) char helperStack[64 * 1024];
int helperPipe[2] = {-1, -1};

// Runs in the helper: raw system calls only (it shares the exiting
// thread's thread-local storage, errno included).
int holdAddressSpace(void *) {
  ::syscall(SYS_close, helperPipe[1]);
  char byte;
  while (::syscall(SYS_read, helperPipe[0], &byte, 1) < 0) {
  }
  ::syscall(SYS_exit, 0);
  return 0;
}

// Closes every descriptor except the pipe's two.
bool closeAllButPipe() {
  int low = std::min(helperPipe[0], helperPipe[1]);
  int high = std::max(helperPipe[0], helperPipe[1]);
  auto closeRange = [](unsigned first, unsigned last) {
    return first > last || ::syscall(SYS_close_range, first, last, 0) == 0;
  };
  return (low == 0 || closeRange(0, low - 1)) &&
         (high == low + 1 || closeRange(low + 1, high - 1)) &&
         closeRange(high + 1, ~0U);
}

} // namespace

void exitLeavingAddressSpace(int status) {
  if (::pipe2(helperPipe, O_CLOEXEC) == 0 && closeAllButPipe()) {
    sigset_t all;
    sigfillset(&all);
    ::pthread_sigmask(SIG_BLOCK, &all, nullptr);
    // No exit signal: this process is gone before the helper ends.
    ::clone(holdAddressSpace, helperStack + sizeof helperStack, CLONE_VM,
            nullptr);
  }
  std::_Exit(status);
}

} // namespace kiln::tool
