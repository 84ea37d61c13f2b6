// Maintenance.cpp: ls, verify, gc and LRU eviction. These are the only
// operations that scan the entries; lookups and publishes never do.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <ctime>
#include <unistd.h>

#include "cache/FileUtil.h"
#include "cache/Store.h"

namespace kiln::cache {
namespace {

/// Every key with an entry directory, by scanning v1/<2 hex>/.
/// The keys under v1/ whose entry path is a directory, or with
/// `nonDirectories`, those whose path is anything else (a stray file).
std::vector<std::string> scanKeys(const std::string& v1, bool nonDirectories = false) {
  std::vector<std::string> keys;
  for (const std::string& shard : fs::listDir(v1)) {
    if (shard.size() != 2)
      continue;
    for (const std::string& key : fs::listDir(fs::join(v1, shard)))
      if (isValidKey(key) && key.compare(0, 2, shard) == 0 &&
          fs::isDir(fs::join(fs::join(v1, shard), key)) != nonDirectories)
        keys.push_back(key);
  }
  std::sort(keys.begin(), keys.end());
  return keys;
}

int64_t nowNs() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

/// Removes the children of `dir` older than `maxAgeSeconds`; returns how many.
/// An age beyond the clock's range (now less it would overflow int64
/// nanoseconds) removes nothing: multiplied out, 10^12 minutes wrapped to a
/// cutoff in the future, which removed every temp dir, a running compile's
/// half-made publish included (helper-97).
int removeOlderThan(const std::string& dir, int64_t maxAgeSeconds) {
  int removed = 0;
  if (maxAgeSeconds < 0)
    return 0;
  int64_t now = nowNs();
  if (maxAgeSeconds > now / 1000000000)
    return 0; // older than the epoch: nothing is
  int64_t cutoff = now - maxAgeSeconds * 1000000000;
  for (const std::string& name : fs::listDir(dir)) {
    std::string p = fs::join(dir, name);
    if (fs::mtimeNs(p) <= cutoff && fs::removeTree(p))
      ++removed;
  }
  return removed;
}

} // namespace

std::vector<EntryInfo> Store::list() const {
  std::vector<EntryInfo> entries;
  for (const std::string& key : scanKeys(path("v1"))) {
    EntryInfo info;
    info.key = key;
    std::string dir = entryDir(key);
    info.bytes = fs::dirBytes(dir);
    info.lastUsedNs = fs::mtimeNs(dir);
    Expected<Manifest> manifest = readManifest(key);
    if (manifest)
      info.manifest = std::move(*manifest);
    else
      info.status = manifest.status();
    entries.push_back(std::move(info));
  }
  return entries;
}

VerifyReport Store::verify(const ProgressFn& progress) {
  VerifyReport report;
  std::vector<std::string> keys = scanKeys(path("v1"));
  for (const std::string& key : keys) {
    ++report.checked;
    Expected<CacheResult> entry = [&] {
      Expected<fs::FileLock> pin = fs::FileLock::acquire(lockPath(key), fs::FileLock::kShared);
      return readEntry(key);
    }();
    if (entry) {
      ++report.ok;
    } else if (entry.status().code() == StatusCode::kCorrupt) {
      Expected<fs::FileLock> lock = fs::FileLock::acquire(lockPath(key), fs::FileLock::kExclusive);
      Expected<CacheResult> again = readEntry(key);
      if (!again && again.status().code() == StatusCode::kCorrupt) {
        report.problems.push_back(key + ": " + again.status().message());
        quarantine(key, again.status().message());
        if (writable_)
          ++report.quarantined;
      } else {
        ++report.ok;
      }
    }
    if (progress)
      progress(report.checked, keys.size());
  }
  // A stray file where an entry directory belongs blocks that key's
  // publication: report it and move it aside.
  for (const std::string& key : scanKeys(path("v1"), /*nonDirectories=*/true)) {
    ++report.checked;
    std::string why = "the entry's path is not a directory";
    report.problems.push_back(key + ": " + why);
    Expected<fs::FileLock> lock = fs::FileLock::acquire(lockPath(key), fs::FileLock::kExclusive);
    quarantine(key, why);
    if (writable_)
      ++report.quarantined;
  }
  return report;
}

bool Store::removeEntry(const std::string& key, uint64_t bytes) {
  // Non-blocking: a reader (shared) or a compile (exclusive) holds the lock,
  // so the entry is in use and is skipped.
  Expected<fs::FileLock> lock =
      fs::FileLock::acquire(lockPath(key), fs::FileLock::kExclusive, /*nonBlocking=*/true);
  if (!lock)
    return false;
  std::string doomed =
      fs::join(path("tmp"), "evict-" + key + "." + std::to_string(::getpid()));
  if (::rename(entryDir(key).c_str(), doomed.c_str()) != 0)
    return false;
  fs::removeTree(doomed);
  lock->unlinkFile();
  CacheCounters delta;
  delta.evictions = 1;
  delta.bytes = -static_cast<int64_t>(bytes);
  count(delta);
  return true;
}

void Store::evictTo(uint64_t target, GcReport* report) {
  if (!writable_)
    return;
  // One evictor at a time; others skip (their publish already succeeded).
  Expected<fs::FileLock> gcLock =
      fs::FileLock::acquire(fs::join(path("locks"), "gc.lock"), fs::FileLock::kExclusive, true);
  if (!gcLock)
    return;
  struct Candidate {
    int64_t lastUsedNs;
    std::string key;
    uint64_t bytes;
  };
  std::vector<Candidate> candidates;
  uint64_t total = 0;
  for (const std::string& key : scanKeys(path("v1"))) {
    std::string dir = entryDir(key);
    uint64_t bytes = fs::dirBytes(dir);
    total += bytes;
    candidates.push_back({fs::mtimeNs(dir), key, bytes});
  }
  std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
    return a.lastUsedNs != b.lastUsedNs ? a.lastUsedNs < b.lastUsedNs : a.key < b.key;
  });
  int entries = static_cast<int>(candidates.size());
  for (const Candidate& c : candidates) {
    if (total <= target)
      break;
    if (!removeEntry(c.key, c.bytes))
      continue;
    total -= c.bytes;
    --entries;
    if (report) {
      ++report->evicted;
      report->evictedBytes += c.bytes;
    }
  }
  // The scan is the truth: reset the counter (repairs drift from crashes).
  (void)updateCounters(path("stats"), CacheCounters{}, static_cast<int64_t>(total));
  if (report) {
    report->entries = entries;
    report->bytes = total;
  }
}

GcReport Store::gc(const GcOptions& options) {
  GcReport report;
  if (!writable_) {
    for (const EntryInfo& e : list()) {
      ++report.entries;
      report.bytes += e.bytes;
    }
    return report;
  }
  report.tmpRemoved = removeOlderThan(path("tmp"), options.tmpMaxAgeSeconds);
  report.quarantineRemoved = removeOlderThan(path("quarantine"), options.quarantineMaxAgeSeconds);
  // Lock files of keys without an entry (compiles that failed, evictions by
  // older versions); one held by a running compile is skipped.
  for (const std::string& name : fs::listDir(path("locks"))) {
    if (name.size() != 64 + 5 || name.compare(64, 5, ".lock") != 0)
      continue;
    std::string key = name.substr(0, 64);
    if (!isValidKey(key) || fs::isDir(entryDir(key)))
      continue;
    Expected<fs::FileLock> lock =
        fs::FileLock::acquire(lockPath(key), fs::FileLock::kExclusive, /*nonBlocking=*/true);
    if (lock && !fs::isDir(entryDir(key))) {
      lock->unlinkFile();
      ++report.locksRemoved;
    }
  }
  evictTo(options.maxBytes > 0 ? options.maxBytes : UINT64_MAX, &report);
  return report;
}

Expected<CacheCounters> Store::counters() const { return readCounters(path("stats")); }

Expected<std::map<std::string, CacheCounters>> Store::countersByTarget() const {
  return readScopedCounters(path("stats"));
}

} // namespace kiln::cache
