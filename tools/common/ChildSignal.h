//===- ChildSignal.h - SIGCHLD's default action for tools that wait -*- C++
//-*-===//
//
// `kiln` and `kiln-opt` wait for their children (ptxas, ld.lld, tar, the
// bytecode reader). A SIGCHLD they were started with ignored has the kernel
// reap the children at once: every wait fails with ECHILD and the child's
// status is lost (helper-86: "ptxas: cannot wait for it: No child
// processes" on every compile; helper-92: kiln-opt took a crashed bytecode
// reader for a success and wrote `module {}`).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_COMMON_CHILDSIGNAL_H
#define KILN_TOOLS_COMMON_CHILDSIGNAL_H

#include <csignal>

namespace kiln::tool {

/// Puts back SIGCHLD's default action (nothing) where this process was
/// started with it ignored; children inherit it. A handler of the
/// embedder's (SA_SIGINFO or not SIG_IGN) is left as it is.
inline void restoreDefaultChildSignal() {
  struct sigaction action;
  if (::sigaction(SIGCHLD, nullptr, &action) == 0 &&
      !(action.sa_flags & SA_SIGINFO) && action.sa_handler == SIG_IGN) {
    action.sa_handler = SIG_DFL;
    ::sigaction(SIGCHLD, &action, nullptr);
  }
}

} // namespace kiln::tool

#endif // KILN_TOOLS_COMMON_CHILDSIGNAL_H
