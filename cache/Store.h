// Store.h: the content-addressed compile cache. An entry is a directory
// `<root>/v1/<first 2 hex of key>/<key>/` holding manifest.json (Manifest.h)
// and the artifacts, published atomically and never modified afterwards.
//
// Guarantees (issue 5; tests in test/cache/):
// - Atomic publish: an entry is staged in `<root>/tmp/`, fsynced and renamed
//   into place; readers see a whole entry or none. The first writer wins.
// - Single-flight: getOrCompile() on a miss takes the key's lock
//   (`<root>/locks/<key>.lock`, flock) and re-checks before compiling, so N
//   processes missing one key compile once. Different keys use different
//   lock files and never wait on each other.
// - Verified loads: every hit checks each artifact's size and SHA-256
//   against the manifest; a bad entry is moved to `<root>/quarantine/`,
//   counted and recompiled.
// - Degraded modes: a read-only root serves hits and compiles misses in
//   memory; a full disk (ENOSPC, EDQUOT, EFBIG) returns the compiled result
//   unpublished. Each warns once per Store.
// - Bounded: LRU by the entry directory's mtime (touched on every hit);
//   bytes are counted in `<root>/stats/counters` (one flock'd update per
//   publish, independent of the number of entries); only when the count
//   exceeds the cap does eviction scan the entries, down to 90% of the cap.
//   A reader holds the key lock shared, and eviction only takes entries
//   whose lock it gets exclusively without waiting.
// - Relocatable: nothing under the root holds an absolute path.
#ifndef KILN_CACHE_STORE_H
#define KILN_CACHE_STORE_H

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "cache/CompileJob.h"
#include "cache/Manifest.h"
#include "cache/Stats.h"
#include "cache/Status.h"

namespace kiln::cache {

/// Test hooks (fault injection). `fault(point)` is called at named points;
/// a non-zero return is taken as the errno of a failed system call there.
/// Points: "open-writable" (Store::open deciding whether the root is
/// writable), "publish-stage" (before creating the temp dir),
/// "publish-artifact" (before each artifact is written),
/// "publish-manifest", "publish-rename" (before the rename),
/// "publish-renamed" (after it). A hook may also sleep there (kill -9 tests).
struct StoreHooks {
  std::function<int(std::string_view point)> fault;
};

/// How to open a store.
struct StoreOptions {
  /// The root; empty: resolveCacheRoot()'s order (KILN_CACHE_DIR, XDG).
  std::string root;
  /// Size cap in bytes for LRU eviction after publishes; 0 = no cap.
  uint64_t maxBytes = 0;
  /// Receives each warning (once per kind per Store); default: stderr,
  /// prefixed "kiln: warning: ".
  std::function<void(const std::string&)> warn;
  StoreHooks hooks;
};

/// The cache root to use: `explicitRoot` if non-empty, else env
/// KILN_CACHE_DIR, else `$XDG_CACHE_HOME/kiln` (if absolute), else
/// `$HOME/.cache/kiln`. Created if missing, then resolved with realpath()
/// once (symlinks followed). The filesystem root "/" is refused
/// (kInvalidArgument); no candidate, or a path that cannot be created, is an
/// error.
Expected<std::string> resolveCacheRoot(const std::string& explicitRoot = "");

/// What a compile function returns: the artifacts (file name -> bytes; names
/// must pass isValidArtifactName()) and an `info` JSON object for the
/// manifest.
struct CompileOutput {
  std::map<std::string, std::string> artifacts;
  std::string infoJson = "{}";
};

/// How a getOrCompile() was answered.
enum class Outcome {
  /// From the store (verified).
  kHit,
  /// Compiled here and published.
  kCompiled,
  /// Compiled here; not stored (read-only root, disk full, ...).
  kCompiledUnpublished,
};

/// "hit", "compiled", "compiled-unpublished".
const char* outcomeName(Outcome outcome);

/// The answer to a lookup or getOrCompile().
struct CacheResult {
  Outcome outcome = Outcome::kHit;
  std::string key;
  /// Artifact name -> bytes (verified against the manifest on a hit).
  std::map<std::string, std::string> artifacts;
  std::string infoJson = "{}";
  /// The entry directory (absolute, under the root); empty if unpublished.
  std::string entryDir;
  /// Microseconds from the call to the verified hit (lookup + manifest
  /// read + checksums); for a miss, to the miss decision.
  int64_t lookupUs = 0;
};

/// One entry as `kiln cache ls` shows it.
struct EntryInfo {
  std::string key;
  /// ok: the manifest parsed (checksums are not checked here).
  Status status;
  Manifest manifest;
  /// Bytes of the entry's files.
  uint64_t bytes = 0;
  /// Last use (hit or publish), ns since the epoch (the directory's mtime).
  int64_t lastUsedNs = 0;
};

/// Result of verify().
struct VerifyReport {
  int checked = 0;
  int ok = 0;
  int quarantined = 0;
  /// "<key>: <problem>" for each bad entry.
  std::vector<std::string> problems;
};

/// What gc() should do.
struct GcOptions {
  /// Evict least recently used entries until the total is at most this;
  /// 0 = no eviction.
  uint64_t maxBytes = 0;
  /// Remove temp directories (interrupted publishes) older than this many
  /// seconds. Negative, or more than the seconds since the epoch: none.
  int64_t tmpMaxAgeSeconds = 3600;
  /// Remove quarantined entries older than this (seconds; as above).
  int64_t quarantineMaxAgeSeconds = 7 * 24 * 3600;
};

/// Result of gc().
struct GcReport {
  int evicted = 0;
  uint64_t evictedBytes = 0;
  int tmpRemoved = 0;
  int quarantineRemoved = 0;
  int locksRemoved = 0;
  /// Entries and bytes after gc (from a full scan; also written to stats).
  int entries = 0;
  uint64_t bytes = 0;
};

/// Progress callback: `done` of `total` items.
using ProgressFn = std::function<void(size_t done, size_t total)>;

/// Result of exportArchive().
struct ExportReport {
  /// Entries written to the archive.
  size_t exported = 0;
  /// "<key>: <problem>" for each entry left out of a whole-cache export
  /// (damaged, gone, or holding files its manifest does not list).
  std::vector<std::string> skipped;
};

/// Result of importArchive().
struct ImportReport {
  int imported = 0;
  /// Entries already present (first writer wins: ours is kept).
  int present = 0;
  /// Entries that failed verification (bad manifest, checksum, extra files).
  int rejected = 0;
  std::vector<std::string> problems;
};

/// A cache root. Thread-compatible (one Store per thread, or external
/// locking); any number of processes may share a root.
class Store {
public:
  /// Resolves the root (resolveCacheRoot(options.root)), creates
  /// v1/ tmp/ locks/ stats/ quarantine/ and decides whether the root is
  /// writable. Errors: the root cannot be resolved or created.
  static Expected<std::unique_ptr<Store>> open(StoreOptions options);

  /// The canonical (realpath'd) root.
  const std::string& root() const { return root_; }
  /// false when the root is read-only: hits only, nothing is written.
  bool writable() const { return writable_; }
  /// `<root>/v1/<2 hex>/<key>` (whether or not it exists).
  std::string entryDir(const std::string& key) const;

  /// A verified hit, or kNotFound on a miss (a corrupt entry is quarantined
  /// and reported as a miss). kInvalidArgument for a malformed key. Counts a
  /// hit or a miss in the stats.
  Expected<CacheResult> lookup(const std::string& key);

  /// The manifest of an entry, checksums not checked (for ls/inspect).
  Expected<Manifest> readManifest(const std::string& key) const;

  /// The job's artifacts: from the store if present and valid, else by
  /// running `compile` once across all processes sharing the root and
  /// publishing its output. Errors: an invalid job (kInvalidArgument), the
  /// compile function's error (as kCompileFailed), invalid artifact names.
  /// Store problems never fail the call; they degrade (see the file header).
  Expected<CacheResult> getOrCompile(const CompileJob& job,
                                     const std::function<Expected<CompileOutput>()>& compile);

  /// Publishes `output` as the entry of `job`; returns the entry directory.
  /// If another writer published first, theirs is kept and its directory
  /// returned. Errors: kIoError with the errno (EROFS, ENOSPC, ...).
  Expected<std::string> publish(const CompileJob& job, const CompileOutput& output);

  /// Every entry with its manifest (unverified), size and last use.
  std::vector<EntryInfo> list() const;
  /// Checks every entry's manifest and checksums; quarantines bad ones.
  VerifyReport verify(const ProgressFn& progress = nullptr);
  /// Removes old temp dirs, old quarantine, unused lock files, and evicts
  /// LRU entries above options.maxBytes; recomputes the byte count.
  GcReport gc(const GcOptions& options);
  /// The shared counters (hits, misses, compiles across processes).
  Expected<CacheCounters> counters() const;
  /// Hits, misses and compiles per target ("backend/arch").
  Expected<std::map<std::string, CacheCounters>> countersByTarget() const;

  /// Writes the entries `keys` (all when empty; each once) to `archiveFile`,
  /// a POSIX tar of `v1/<2 hex>/<key>/...` made by the system tar, and
  /// fills `*report` (if given). Each entry is verified first, as import
  /// will (checksums, and no file its manifest does not list), and pinned
  /// until tar is done (one open lock file each: the soft open-file limit
  /// is raised to fit, up to the hard one). Exporting the whole cache, an
  /// entry that fails verification (or that gc removed meanwhile) is left
  /// out and listed in report->skipped; a key given explicitly fails the
  /// export instead. The archive is written to a temporary file beside
  /// `archiveFile` and renamed over it once tar succeeded (a failure
  /// leaves an existing archive as it was); a path that exists and is not
  /// a regular file (a FIFO, /dev/stdout) is opened and written directly.
  /// Errors: a malformed, missing or bad key given; an
  /// archive path inside the root (kInvalidArgument); more entries than
  /// the open-file limit allows (kIoError, EMFILE); tar's failure with the
  /// end of its stderr.
  Status exportArchive(const std::string& archiveFile, const std::vector<std::string>& keys,
                       const ProgressFn& progress = nullptr, ExportReport* report = nullptr);
  /// Extracts an archive from exportArchive() into a temp dir, verifies each
  /// entry like a lookup (manifest, key, checksums, no extra files or
  /// links) and publishes the good ones (first writer wins).
  Expected<ImportReport> importArchive(const std::string& archiveFile,
                                       const ProgressFn& progress = nullptr);

private:
  explicit Store(StoreOptions options) : options_(std::move(options)) {}
  std::string path(const char* sub) const;
  std::string lockPath(const std::string& key) const;
  /// Reads and verifies an entry (caller holds its lock or none).
  Expected<CacheResult> readEntry(const std::string& key) const;
  /// Moves a bad entry to quarantine/ (caller holds the exclusive lock).
  void quarantine(const std::string& key, const std::string& why);
  /// lookup() without stats; quarantines a corrupt entry.
  Expected<CacheResult> lookupQuiet(const std::string& key);
  void touch(const std::string& key);
  void count(const CacheCounters& delta, const std::string& scope = "");
  int fault(std::string_view point) const;
  void warnOnce(const std::string& kind, const std::string& message);
  /// Handles a failed publish: degrades (read-only, disk full) and warns.
  void publishFailed(const Status& status);
  /// Evicts LRU entries until bytes <= target (skips if another gc runs).
  void evictTo(uint64_t target, GcReport* report);
  /// Renames an entry aside and deletes it if its lock is free.
  bool removeEntry(const std::string& key, uint64_t bytes);

  StoreOptions options_;
  std::string root_;
  bool writable_ = true;
  std::set<std::string> warned_;
};

} // namespace kiln::cache

#endif // KILN_CACHE_STORE_H
