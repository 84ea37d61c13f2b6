//===- CacheSignals.h - the cache's temporaries go with a signal -*- C++ -*-===//
//
// The compile cache announces its temporary paths and its tar child
// (cache/Temporary.h: a publish's or an import's staging folder in
// ROOT/tmp, an export's archive in the making beside its path, a toolchain
// memo being written) but installs no signal handler. A tool hands them to
// kiln's signal cleanup (pipelines/common/SignalCleanup.h) with this, so
// that SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR2 or SIGPIPE ending the tool
// ends tar and removes them (before, an interrupted import left its
// staging tree until `kiln cache gc --tmp-age`, and an interrupted export
// its hidden temporary file for good).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_COMMON_CACHESIGNALS_H
#define KILN_TOOLS_COMMON_CACHESIGNALS_H

namespace kiln::tool {

/// Installs kiln's signal cleanup (if not yet) and sets the cache's
/// temporary hooks to it: paths to removeOnSignal (a tree as a directory),
/// tar to killOnSignal. Call it once at start-up, before a Store is used.
void removeCacheTemporariesOnSignal();

} // namespace kiln::tool

#endif // KILN_TOOLS_COMMON_CACHESIGNALS_H
