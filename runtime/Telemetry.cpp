// Telemetry.cpp: the process counters (plain atomics with static storage
// and trivial destructors, so they stay usable during exit).
#include "runtime/Telemetry.h"

#include <atomic>

namespace kiln::runtime {
namespace {
constexpr int kNumCounters = 10;
std::atomic<uint64_t> gCounters[kNumCounters];
} // namespace

void detail::bump(Counter counter) {
  gCounters[static_cast<int>(counter)].fetch_add(1, std::memory_order_relaxed);
}

ProcessCounters processCounters() {
  auto get = [](detail::Counter c) {
    return gCounters[static_cast<int>(c)].load(std::memory_order_relaxed);
  };
  using detail::Counter;
  ProcessCounters p;
  p.hydrations = get(Counter::kHydrations);
  p.hydrationFailures = get(Counter::kHydrationFailures);
  p.loads = get(Counter::kLoads);
  p.loadFailures = get(Counter::kLoadFailures);
  p.checksumFailures = get(Counter::kChecksumFailures);
  p.capabilityFailures = get(Counter::kCapabilityFailures);
  p.launches = get(Counter::kLaunches);
  p.launchFailures = get(Counter::kLaunchFailures);
  p.unloads = get(Counter::kUnloads);
  p.forkReloads = get(Counter::kForkReloads);
  return p;
}

const char* eventKindName(EventKind kind) {
  switch (kind) {
  case EventKind::kHydrated: return "hydrated";
  case EventKind::kHydrationFailed: return "hydration_failed";
  case EventKind::kLoaded: return "loaded";
  case EventKind::kLoadFailed: return "load_failed";
  case EventKind::kLaunchable: return "launchable";
  case EventKind::kCapabilityFailed: return "capability_failed";
  case EventKind::kFirstLaunch: return "first_launch";
  case EventKind::kUnloaded: return "unloaded";
  case EventKind::kForkReload: return "fork_reload";
  }
  return "unknown";
}

} // namespace kiln::runtime
