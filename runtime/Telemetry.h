// Telemetry.h: process-wide counters and lifecycle events of the runtime.
#ifndef KILN_RUNTIME_TELEMETRY_H
#define KILN_RUNTIME_TELEMETRY_H

#include <cstdint>
#include <functional>
#include <string>

#include "runtime/Status.h"

namespace kiln::runtime {

/// Counts since process start, over every Runtime in the process. Reading
/// is lock-free; the counters are never reset (tests compare differences).
struct ProcessCounters {
  /// metadata.json parsed successfully / unsuccessfully.
  uint64_t hydrations = 0;
  uint64_t hydrationFailures = 0;
  /// Modules loaded (binary verified, module loaded, function resolved) /
  /// loads that failed for any reason (integrity or driver).
  uint64_t loads = 0;
  uint64_t loadFailures = 0;
  /// Binaries rejected before loading: size mismatch (truncated) or SHA-256
  /// mismatch. Each also counts as a load failure.
  uint64_t checksumFailures = 0;
  /// Kernels that failed the capability check (arch, shared memory,
  /// threads, registers).
  uint64_t capabilityFailures = 0;
  /// Launches the driver accepted / launch calls that failed (any reason).
  uint64_t launches = 0;
  uint64_t launchFailures = 0;
  /// Modules unloaded because their last handle went.
  uint64_t unloads = 0;
  /// Modules a fork() child found loaded by its parent and reloaded.
  uint64_t forkReloads = 0;
};

/// A snapshot of the process counters.
ProcessCounters processCounters();

/// What happened to a kernel.
enum class EventKind {
  kHydrated,
  kHydrationFailed,
  kLoaded,
  kLoadFailed,
  kLaunchable,
  kCapabilityFailed,
  /// The first successful launch of this (kernel, device) entry.
  kFirstLaunch,
  kUnloaded,
  /// A fork() child dropped its parent's module (it reloads on next use).
  kForkReload,
};

/// "hydrated", "load_failed", ...
const char* eventKindName(EventKind kind);

/// One lifecycle event, passed to the listener.
struct Event {
  EventKind kind = EventKind::kHydrated;
  /// The kernel's name once hydrated, else empty.
  std::string kernel;
  std::string artifactDir;
  int device = 0;
  /// The transition's duration in microseconds (for kFirstLaunch: from the
  /// entry's creation to the end of the first successful launch); -1 where
  /// none applies.
  int64_t durationUs = -1;
  /// For failures, the error.
  Status status;
};

/// Receives events on the thread that caused them, after the runtime has
/// released its locks (a listener may call back into the runtime).
using Listener = std::function<void(const Event&)>;

namespace detail {
/// Counter updates (relaxed atomics).
enum class Counter {
  kHydrations,
  kHydrationFailures,
  kLoads,
  kLoadFailures,
  kChecksumFailures,
  kCapabilityFailures,
  kLaunches,
  kLaunchFailures,
  kUnloads,
  kForkReloads,
};
void bump(Counter counter);
} // namespace detail

} // namespace kiln::runtime

#endif // KILN_RUNTIME_TELEMETRY_H
