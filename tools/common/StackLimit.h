//===- StackLimit.h - room for deeply nested IR on the main thread -*- C++ -*-===//
//
// MLIR's parser and printer recurse once per nesting level of the IR; the
// command-line tools raise the main thread's soft stack limit at start so
// deeply nested input ends in a diagnostic or a result, not a stack
// overflow.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_COMMON_STACKLIMIT_H
#define KILN_TOOLS_COMMON_STACKLIMIT_H

#include <sys/resource.h>

namespace kiln::tool {

/// Raises RLIMIT_STACK's soft limit to `bytes` (default 1 GiB), or to the
/// hard limit if that is lower; the main thread's stack then grows on
/// demand up to it. Failures leave the limit as it was.
inline void raiseStackLimit(rlim_t bytes = rlim_t(1) << 30) {
  struct rlimit rl;
  if (getrlimit(RLIMIT_STACK, &rl) != 0)
    return;
  if (rl.rlim_max != RLIM_INFINITY && bytes > rl.rlim_max)
    bytes = rl.rlim_max;
  if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= bytes)
    return;
  rl.rlim_cur = bytes;
  (void)setrlimit(RLIMIT_STACK, &rl);
}

} // namespace kiln::tool

#endif // KILN_TOOLS_COMMON_STACKLIMIT_H
