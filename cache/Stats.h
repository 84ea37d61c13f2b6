// Stats.h: counters shared by every process that uses a cache root, kept in
// `<root>/stats/counters` (one "name value" line each) and updated under an
// exclusive flock() on that file: each update is one read-modify-write,
// independent of the number of entries.
#ifndef KILN_CACHE_STATS_H
#define KILN_CACHE_STATS_H

#include <cstdint>
#include <map>
#include <string>

#include "cache/Status.h"

namespace kiln::cache {

/// Counters of one cache root, summed over all processes.
struct CacheCounters {
  /// getOrCompile()/lookup() calls answered from the store.
  int64_t hits = 0;
  /// Lookups that found no valid entry.
  int64_t misses = 0;
  /// Compile functions run by getOrCompile().
  int64_t compiles = 0;
  /// Entries moved to quarantine/ (bad manifest, size or checksum).
  int64_t quarantined = 0;
  /// Entries removed by LRU eviction.
  int64_t evictions = 0;
  /// Publishes that failed (disk full, read-only) and returned unpublished.
  int64_t publishFailures = 0;
  /// Bytes of all entries (artifacts + manifests), as published minus
  /// removed; gc recomputes it from a scan.
  int64_t bytes = 0;

  /// Adds `other` field by field.
  void add(const CacheCounters& other);
};

/// Adds `delta` to the counters in `statsDir` (created if missing) and
/// returns the new values. If `setBytes` is non-negative, bytes is set to it
/// instead of added. A non-empty `scope` (a job's "backend/arch", e.g.
/// "cuda/sm_90") also adds delta's hits, misses and compiles to that
/// scope's counters (stored as "hits@cuda/sm_90 N" lines).
Expected<CacheCounters> updateCounters(const std::string& statsDir, const CacheCounters& delta,
                      int64_t setBytes = -1, const std::string& scope = "");

/// Hits, misses and compiles per scope ("backend/arch"), summed over all
/// processes; empty when nothing was counted with a scope.
Expected<std::map<std::string, CacheCounters>> readScopedCounters(const std::string& statsDir);

/// Reads the counters; all zero when the file does not exist. Unparsable
/// lines are skipped (a torn write after a crash costs counts, not errors).
Expected<CacheCounters> readCounters(const std::string& statsDir);

} // namespace kiln::cache

#endif // KILN_CACHE_STATS_H
