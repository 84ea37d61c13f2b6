//===- ExitLeavingAddressSpace.h - memory released after exit -*- C++ -*-===//
//
// A process's exit status reaches its parent only after the kernel has
// released the process's memory: for `kiln compile` of a small kernel that
// is the page tables of a 50 MB binary and a few MB of heap, 0.97 ms of the
// 22.9 ms between the spawn and the parent's wait (H200 machine, vadd,
// medians of 31; docs/BENCHMARKS.md, forty-ninth session). Here a helper
// process that shares the address space (clone(2) with CLONE_VM) holds it
// while kiln exits, so that the release happens in the helper, after the
// parent has the status (0.15 ms there).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_COMMON_EXITLEAVINGADDRESSSPACE_H
#define KILN_TOOLS_COMMON_EXITLEAVINGADDRESSSPACE_H

namespace kiln::tool {

/// Ends the process with `status`, like std::_Exit (no static destructors,
/// no atexit handlers, no stdio flush: the caller flushes first), leaving
/// the release of its memory to a helper process:
///  - every file descriptor but the helper's pipe is closed first, so a
///    reader of this process's stdout or stderr sees end-of-file as it
///    exits, and locks held through descriptors go as they would at exit;
///  - all signals are blocked, so the helper runs none of this process's
///    handlers; it makes only raw system calls, on a stack of its own;
///  - the helper waits for the pipe's write end, held only by this
///    process, to close (this process's exit), then exits itself. It is
///    reparented to init (or to the caller's subreaper), which reaps it.
/// Where a step fails (pipe2, close_range(2) before Linux 5.9, clone) the
/// process exits without a helper.
[[noreturn]] void exitLeavingAddressSpace(int status);

} // namespace kiln::tool

#endif // KILN_TOOLS_COMMON_EXITLEAVINGADDRESSSPACE_H
