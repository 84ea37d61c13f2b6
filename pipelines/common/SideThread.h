//===- SideThread.h - work on another thread, or later on this one -*- C++ -*-===//
//
// The compile overlaps a few independent pieces of work with its main line
// (the toolchain's identity, the LLVM target machine, printing artifacts
// while ptxas runs). Each runs on a thread of its own when one can be
// started. Where none can, the work is not lost and the compile does not
// end in std::terminate: it runs on the thread that waits for its result.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PIPELINES_COMMON_SIDETHREAD_H
#define KILN_PIPELINES_COMMON_SIDETHREAD_H

#include <future>
#include <memory>
#include <system_error>
#include <type_traits>
#include <utility>

namespace kiln {

/// Runs `work` on a new thread, as `std::async(std::launch::async, work)`
/// does. When the thread cannot be created (`std::async` throws
/// std::system_error: pthread_create's EAGAIN under RLIMIT_NPROC, a cgroup's
/// pids.max or too little address space for its stack), `work` runs
/// deferred instead: on the thread that first calls get() or wait() on the
/// returned future, with the same result.
///
/// `work` is called exactly once either way. A future that is never waited
/// on runs deferred work never, so callers wait on every future they get.
template <typename Work>
std::future<std::invoke_result_t<std::decay_t<Work> &>>
runOnSideThread(Work &&work) {
  // Shared so that a failed launch leaves it for the deferred one (the
  // launch decay-copies its callable, and may drop that copy on failure).
  auto shared = std::make_shared<std::decay_t<Work>>(std::forward<Work>(work));
  auto call = [shared] { return (*shared)(); };
  try {
    return std::async(std::launch::async, call);
  } catch (const std::system_error &) {
    return std::async(std::launch::deferred, call);
  }
}

} // namespace kiln

#endif // KILN_PIPELINES_COMMON_SIDETHREAD_H
