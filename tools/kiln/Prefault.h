//===- Prefault.h - first-touch page faults off kiln's main thread -*- C++
//-*-===//
//
// A new `kiln compile` process takes about 1,250 page faults on its main
// thread for a small kernel (vadd, build machine, perf): about 550 in the
// allocator's fresh memory, 166 in the binary's bss, the rest on its code.
// An anonymous page fault costs 1.3-1.7 us on the GPU machine, where
// MADV_POPULATE_WRITE maps a page in 0.8-1.1 us (bench/side_by_side/results/
// probe_h200_session50_call1.txt). With KILN_PREFAULT=1 a thread started
// as the binary loads maps those pages in (madvise MADV_POPULATE_WRITE,
// Linux 5.14 or later: the page contents do not change, so the main thread
// may already be using them) while the main thread runs the static
// initializers and the compile: the binary's writable data and bss first,
// then a block of the allocator's memory that the main thread reserved and
// freed at once. jemalloc splits that block for later allocations only
// with MALLOC_CONF=lg_extent_max_active_fit:16 (by default it keeps a free
// extent more than 64 times a request's size for larger requests).
//
// Off by default, for measuring on the GPU machine. On the 2-core build
// machine (portable build, vadd, with that MALLOC_CONF): the main thread's
// anonymous page faults fell from about 685 to 92-311 (perf, 3 runs each),
// but the thread, ptxas's start-up and the main thread compete for the two
// cores there: main() came 2.3 ms later and the wall time rose from 18.71
// to 20.41 ms (bench/timeline, medians of 41 rounds).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_PREFAULT_H
#define KILN_TOOLS_KILN_PREFAULT_H

namespace kiln::tool {

/// From the kiln binary's load-time constructor: with KILN_PREFAULT=1 (and
/// KILN_PREFAULT_MB, the allocator block in MiB, default 6), starts the
/// thread described above; does nothing otherwise, or where anything fails
/// (the thread's madvise errors are ignored: the pages then fault as
/// before).
void prefaultAtLoad();

} // namespace kiln::tool

#endif // KILN_TOOLS_KILN_PREFAULT_H
