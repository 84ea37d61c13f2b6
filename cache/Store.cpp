// Store.cpp: opening a root, lookups with verification, single-flight
// getOrCompile and the atomic publish. Maintenance (ls, verify, gc,
// eviction) is in Maintenance.cpp, export/import in Archive.cpp.
#include "cache/Store.h"

#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache/FileUtil.h"
#include "cache/Sha256.h"
#include "cache/Temporary.h"
#include "cache/Version.h"

namespace kiln::cache {
namespace {

using Clock = std::chrono::steady_clock;

int64_t microsSince(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start).count();
}

bool isReadOnlyErrno(int err) { return err == EROFS || err == EACCES || err == EPERM; }
bool isDiskFullErrno(int err) { return err == ENOSPC || err == EDQUOT || err == EFBIG; }

} // namespace

const char* outcomeName(Outcome outcome) {
  switch (outcome) {
  case Outcome::kHit: return "hit";
  case Outcome::kCompiled: return "compiled";
  case Outcome::kCompiledUnpublished: return "compiled-unpublished";
  }
  return "unknown";
}

Expected<std::string> resolveCacheRoot(const std::string& explicitRoot) {
  std::string chosen = explicitRoot;
  if (chosen.empty())
    if (const char* env = std::getenv("KILN_CACHE_DIR"); env && *env)
      chosen = env;
  if (chosen.empty())
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && xdg[0] == '/')
      chosen = fs::join(xdg, "kiln");
  if (chosen.empty())
    if (const char* home = std::getenv("HOME"); home && *home)
      chosen = fs::join(fs::join(home, ".cache"), "kiln");
  if (chosen.empty())
    return Status(StatusCode::kInvalidArgument,
                  "no cache root: set KILN_CACHE_DIR, XDG_CACHE_HOME or HOME");
  if (Status s = fs::makeDirs(chosen); !s.ok())
    return Status(s.code(), "cache root " + chosen + ": " + s.message(), s.sysErrno());
  char resolved[PATH_MAX];
  if (!::realpath(chosen.c_str(), resolved))
    return Status::fromErrno("cache root " + chosen, errno);
  std::string root = resolved;
  if (root == "/")
    return Status(StatusCode::kInvalidArgument,
                  "cache root " + chosen + " resolves to '/', which is never used as a cache");
  return root;
}

Expected<std::unique_ptr<Store>> Store::open(StoreOptions options) {
  Expected<std::string> root = resolveCacheRoot(options.root);
  if (!root)
    return root.status();
  std::unique_ptr<Store> store(new Store(std::move(options)));
  store->root_ = *root;
  if (!store->options_.warn)
    store->options_.warn = [](const std::string& m) {
      std::fprintf(stderr, "kiln: warning: %s\n", m.c_str());
    };
  int err = store->fault("open-writable");
  if (err == 0 && ::access(store->root_.c_str(), W_OK) != 0)
    err = errno;
  for (const char* sub : {"v1", "tmp", "locks", "stats", "quarantine"}) {
    if (err != 0)
      break;
    if (Status s = fs::makeDirs(store->path(sub)); !s.ok())
      err = s.sysErrno() ? s.sysErrno() : EIO;
  }
  if (err != 0) {
    if (!isReadOnlyErrno(err))
      return Status::fromErrno("cache root " + store->root_ + " is unusable", err);
    store->writable_ = false;
  }
  return store;
}

std::string Store::path(const char* sub) const { return fs::join(root_, sub); }

std::string Store::entryDir(const std::string& key) const {
  return fs::join(fs::join(path("v1"), key.substr(0, 2)), key);
}

std::string Store::lockPath(const std::string& key) const {
  return fs::join(path("locks"), key + ".lock");
}

int Store::fault(std::string_view point) const {
  return options_.hooks.fault ? options_.hooks.fault(point) : 0;
}

void Store::warnOnce(const std::string& kind, const std::string& message) {
  if (warned_.insert(kind).second)
    options_.warn(message);
}

void Store::count(const CacheCounters& delta, const std::string& scope) {
  if (writable_)
    (void)updateCounters(path("stats"), delta, -1, scope); // stats are best effort
}

void Store::touch(const std::string& key) {
  if (writable_)
    (void)::utimensat(AT_FDCWD, entryDir(key).c_str(), nullptr, 0);
}

Expected<Manifest> Store::readManifest(const std::string& key) const {
  if (!isValidKey(key))
    return Status(StatusCode::kInvalidArgument,
                  "'" + key + "' is not a cache key (64 lower-case hex digits)");
  Expected<std::string> text = fs::readFile(fs::join(entryDir(key), "manifest.json"));
  if (!text)
    return text.status();
  return parseManifest(*text, key);
}

Expected<CacheResult> Store::readEntry(const std::string& key) const {
  std::string dir = entryDir(key);
  if (!fs::isDir(dir))
    return Status(StatusCode::kNotFound, "no entry " + key);
  Expected<Manifest> manifest = readManifest(key);
  if (!manifest) {
    if (manifest.status().code() == StatusCode::kNotFound)
      return Status(StatusCode::kCorrupt, "manifest.json is missing");
    return Status(StatusCode::kCorrupt, manifest.status().message());
  }
  CacheResult result;
  result.key = key;
  result.entryDir = dir;
  result.infoJson = manifest->infoJson;
  for (const ManifestArtifact& a : manifest->artifacts) {
    Expected<std::string> data = fs::readFile(fs::join(dir, a.name));
    if (!data)
      return Status(StatusCode::kCorrupt, a.name + ": " + data.status().message());
    if (data->size() != a.size)
      return Status(StatusCode::kCorrupt, a.name + ": " + std::to_string(data->size()) +
                                              " bytes, the manifest says " +
                                              std::to_string(a.size));
    if (sha256Hex(*data) != a.sha256)
      return Status(StatusCode::kCorrupt, a.name + ": SHA-256 differs from the manifest's");
    result.artifacts.emplace(a.name, std::move(*data));
  }
  return result;
}

void Store::quarantine(const std::string& key, const std::string& why) {
  std::string dir = entryDir(key);
  if (!writable_) {
    warnOnce("corrupt-readonly", "cache entry " + key + " is bad (" + why +
                                     ") and the root is read-only: compiling instead");
    return;
  }
  uint64_t bytes = fs::dirBytes(dir);
  std::string dest = fs::join(path("quarantine"), key + "." + std::to_string(::time(nullptr)) +
                                                      "." + std::to_string(::getpid()));
  if (::rename(dir.c_str(), dest.c_str()) != 0) {
    // Cannot move it aside (cross-device quarantine?): delete it instead.
    std::string doomed = fs::join(path("tmp"), "bad-" + key + "." + std::to_string(::getpid()));
    if (::rename(dir.c_str(), doomed.c_str()) == 0)
      fs::removeTree(doomed);
  }
  warnOnce("corrupt", "cache entry " + key + " was bad (" + why +
                          "): moved to quarantine/ (a compile of its job stores it again)");
  CacheCounters delta;
  delta.quarantined = 1;
  delta.bytes = -static_cast<int64_t>(bytes);
  count(delta);
}

Expected<CacheResult> Store::lookupQuiet(const std::string& key) {
  if (!isValidKey(key))
    return Status(StatusCode::kInvalidArgument,
                  "'" + key + "' is not a cache key (64 lower-case hex digits)");
  if (!fs::isDir(entryDir(key))) {
    // Something that is not a directory at the entry's path (a stray file)
    // would block publishing this key forever: move it aside.
    struct stat st;
    if (::lstat(entryDir(key).c_str(), &st) == 0) {
      Expected<fs::FileLock> lock =
          fs::FileLock::acquire(lockPath(key), fs::FileLock::kExclusive);
      if (::lstat(entryDir(key).c_str(), &st) == 0 && !S_ISDIR(st.st_mode))
        quarantine(key, "the entry's path is not a directory");
    }
    return Status(StatusCode::kNotFound, "no entry " + key);
  }
  // Shared: eviction skips entries whose lock it cannot take exclusively.
  Expected<fs::FileLock> pin = fs::FileLock::acquire(lockPath(key), fs::FileLock::kShared);
  Expected<CacheResult> entry = readEntry(key);
  if (entry) {
    touch(key);
    return entry;
  }
  if (entry.status().code() != StatusCode::kCorrupt)
    return entry.status();
  // Corrupt: re-check under the exclusive lock (another process may have
  // replaced it meanwhile), then move it aside.
  if (pin)
    pin->release();
  Expected<fs::FileLock> lock = fs::FileLock::acquire(lockPath(key), fs::FileLock::kExclusive);
  Expected<CacheResult> again = readEntry(key);
  if (again) {
    touch(key);
    return again;
  }
  if (again.status().code() == StatusCode::kCorrupt)
    quarantine(key, again.status().message());
  return Status(StatusCode::kNotFound, "no valid entry " + key);
}

Expected<CacheResult> Store::lookup(const std::string& key) {
  Clock::time_point start = Clock::now();
  Expected<CacheResult> result = lookupQuiet(key);
  CacheCounters delta;
  if (result) {
    result->lookupUs = microsSince(start);
    delta.hits = 1;
  } else if (result.status().code() == StatusCode::kNotFound) {
    delta.misses = 1;
  }
  count(delta);
  return result;
}

Expected<CacheResult> Store::getOrCompile(
    const CompileJob& job, const std::function<Expected<CompileOutput>()>& compile) {
  Clock::time_point start = Clock::now();
  if (Status s = job.validate(); !s.ok())
    return s;
  std::string key = job.key();
  // Counted per target too (kiln cache stat --json: by_target).
  const std::string scope = job.target.backend + "/" + job.target.arch;
  CacheCounters delta;
  Expected<CacheResult> hit = lookupQuiet(key);
  if (hit) {
    hit->lookupUs = microsSince(start);
    delta.hits = 1;
    count(delta, scope);
    return hit;
  }
  int64_t missUs = microsSince(start);

  // Single-flight: one compile per key across processes. Without a lock
  // (read-only root, no lock file) we still compile; the rename below keeps
  // the first writer's entry.
  Expected<fs::FileLock> lock = fs::FileLock::acquire(lockPath(key), fs::FileLock::kExclusive);
  if (lock) {
    Expected<CacheResult> waited = readEntry(key);
    if (waited) {
      touch(key);
      waited->lookupUs = microsSince(start);
      delta.hits = 1;
      count(delta, scope);
      return waited;
    }
    if (waited.status().code() == StatusCode::kCorrupt)
      quarantine(key, waited.status().message());
  }

  delta.misses = 1;
  delta.compiles = 1;
  Expected<CompileOutput> output = compile();
  if (!output) {
    count(delta, scope);
    return Status(StatusCode::kCompileFailed, output.status().message());
  }
  for (const auto& [name, data] : output->artifacts)
    if (!isValidArtifactName(name))
      return Status(StatusCode::kInvalidArgument, "invalid artifact name '" + name + "'");

  CacheResult result;
  result.key = key;
  result.lookupUs = missUs;
  result.infoJson = output->infoJson;
  result.outcome = Outcome::kCompiledUnpublished;
  if (!writable_) {
    warnOnce("readonly", "cache root " + root_ +
                             " is read-only: serving hits, compiling misses without storing them");
  } else {
    Expected<std::string> published = publish(job, *output);
    if (published) {
      result.outcome = Outcome::kCompiled;
      result.entryDir = *published;
    } else {
      delta.publishFailures = 1;
      publishFailed(published.status());
    }
  }
  result.artifacts = std::move(output->artifacts);
  count(delta, scope);
  if (lock)
    lock->release();
  if (result.outcome == Outcome::kCompiled && options_.maxBytes > 0) {
    Expected<CacheCounters> now = readCounters(path("stats"));
    if (now && static_cast<uint64_t>(now->bytes) > options_.maxBytes)
      evictTo(options_.maxBytes / 10 * 9, nullptr);
  }
  return result;
}

void Store::publishFailed(const Status& status) {
  int err = status.sysErrno();
  if (isDiskFullErrno(err)) {
    warnOnce("disk-full", "cache root " + root_ + " is full (" + status.message() +
                              "): results are returned but not stored");
  } else if (isReadOnlyErrno(err)) {
    writable_ = false;
    warnOnce("readonly", "cache root " + root_ + " became read-only (" + status.message() +
                             "): serving hits, compiling misses without storing them");
  } else {
    warnOnce("publish", "cannot store a cache entry in " + root_ + ": " + status.message());
  }
}

Expected<std::string> Store::publish(const CompileJob& job, const CompileOutput& output) {
  if (Status s = job.validate(); !s.ok())
    return s;
  if (!writable_)
    return Status(StatusCode::kIoError, "cache root " + root_ + " is read-only", EROFS);
  std::string key = job.key();
  Manifest manifest;
  manifest.key = key;
  manifest.job = job;
  manifest.job.normalize();
  manifest.kilnVersion = kKilnVersion;
  manifest.created = utcNowIso8601();
  manifest.infoJson = output.infoJson;
  for (const auto& [name, data] : output.artifacts) {
    if (!isValidArtifactName(name))
      return Status(StatusCode::kInvalidArgument, "invalid artifact name '" + name + "'");
    manifest.artifacts.push_back({name, data.size(), sha256Hex(data)});
  }

  auto failAt = [&](const char* point) -> Status {
    int err = fault(point);
    return err ? Status::fromErrno(std::string("publish (") + point + ")", err) : Status();
  };
  if (Status s = failAt("publish-stage"); !s.ok())
    return s;
  std::string tmpl = fs::join(path("tmp"), "pub-" + key.substr(0, 16) + "-XXXXXX");
  // Announced for removal should a signal end the process (Temporary.h).
  if (!temporary::makeDirectory(tmpl))
    return Status::fromErrno("cannot create a temp dir in " + path("tmp"), errno);
  std::string staging = tmpl;
  temporary::DoneAtExit announced(staging); // once removed or renamed below
  auto abandon = [&](Status s) -> Expected<std::string> {
    fs::removeTree(staging);
    return s;
  };
  // mkdtemp makes 0700; entries must be readable by other users of the root.
  if (::chmod(staging.c_str(), 0755) != 0)
    return abandon(Status::fromErrno("cannot chmod " + staging, errno));
  for (const auto& [name, data] : output.artifacts) {
    if (Status s = failAt("publish-artifact"); !s.ok())
      return abandon(s);
    if (Status s = fs::writeFileSync(fs::join(staging, name), data); !s.ok())
      return abandon(s);
  }
  if (Status s = failAt("publish-manifest"); !s.ok())
    return abandon(s);
  // The manifest goes last: a staged dir without one is never renamed.
  if (Status s = fs::writeFileSync(fs::join(staging, "manifest.json"), writeManifest(manifest));
      !s.ok())
    return abandon(s);
  if (Status s = fs::fsyncDir(staging); !s.ok())
    return abandon(s);
  std::string final = entryDir(key);
  std::string shard = final.substr(0, final.size() - key.size() - 1);
  if (Status s = fs::makeDirs(shard); !s.ok())
    return abandon(s);
  if (Status s = failAt("publish-rename"); !s.ok())
    return abandon(s);
  if (::rename(staging.c_str(), final.c_str()) != 0) {
    int err = errno;
    if (err == EEXIST || err == ENOTEMPTY) {
      fs::removeTree(staging); // first writer wins: keep theirs
      return final;
    }
    return abandon(Status::fromErrno("cannot rename " + staging + " to " + final, err));
  }
  (void)fs::fsyncDir(shard);
  (void)fault("publish-renamed");
  CacheCounters delta;
  delta.bytes = static_cast<int64_t>(fs::dirBytes(final));
  count(delta);
  return final;
}

} // namespace kiln::cache
