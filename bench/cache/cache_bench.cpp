// cache_bench: the in-process cost of a compile-cache hit (issue 5 target:
// key derivation + hit lookup + manifest read <= 200 us per kernel).
//
//   cache_bench ROOT [--iters N] [--warmup N]
//
// ROOT is a cache root populated by `kiln compile ... --cache-dir ROOT`
// (bench/cache/run_host.sh does it with the corpus kernels). For every entry,
// the stored job is read back from its manifest, then each of these is timed
// N times (after a warm-up), one sample per call, with steady_clock:
//
//   key      a CompileJob built field by field from the stored values (as
//            the compiler assigns them), validate(), key() (normalize,
//            canonical JSON, SHA-256)
//   json     canonicalJson() alone
//   mfile    manifest.json read into memory, nothing else
//   manifest Store::readManifest(key): read manifest.json, strict parse, and
//            the job's key recomputed and compared (no artifact checksums)
//   lookup   Store::lookup(key), a hit exactly as the store serves it:
//            entry stat, shared key lock, manifest read + parse, every
//            artifact read and checked (size + SHA-256), utimensat (LRU),
//            one flock'd update of stats/counters
//   get      Store::getOrCompile(job, <fails if called>) on a hit: validate,
//            key, then the same hit path as lookup (what `kiln compile` runs)
//   cubin    read the cubin + size + SHA-256 compare (cache/FileUtil +
//            cache/Sha256, composed here: the Store API verifies every
//            artifact on a hit and has no cubin-only mode)
//   allart   read + size + SHA-256 of every artifact (the verification
//            part of lookup)
//   hit-cubin  lookup composed as if only the cubin were verified: shared
//            lock + readManifest + cubin read/verify + utimensat + counters
//   hit-none   the same with the cubin read but not hashed
//
// Prints a table per kernel (median / p90 / max, microseconds), then a
// summary against the 200 us target. Links //cache only (no MLIR, no LLVM).
#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "cache/CompileJob.h"
#include "cache/FileUtil.h"
#include "cache/Manifest.h"
#include "cache/Sha256.h"
#include "cache/Stats.h"
#include "cache/Store.h"

namespace cache = kiln::cache;
using Clock = std::chrono::steady_clock;

namespace {

struct Summary {
  double median = 0, p90 = 0, max = 0;
};

Summary summarize(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  Summary s;
  if (v.empty())
    return s;
  s.median = v[v.size() / 2];
  s.p90 = v[std::min(v.size() - 1, v.size() * 9 / 10)];
  s.max = v.back();
  return s;
}

/// Times `fn` `iters` times after `warmup` untimed calls; microseconds.
/// `fn` returns false on a failure, which aborts the benchmark.
Summary timeIt(int warmup, int iters, const char* what, const std::string& kernel,
               const std::function<bool()>& fn) {
  for (int i = 0; i < warmup; ++i)
    if (!fn()) {
      std::fprintf(stderr, "cache_bench: %s failed for %s\n", what, kernel.c_str());
      std::exit(1);
    }
  std::vector<double> samples;
  samples.reserve(iters);
  for (int i = 0; i < iters; ++i) {
    Clock::time_point t0 = Clock::now();
    bool ok = fn();
    Clock::time_point t1 = Clock::now();
    if (!ok) {
      std::fprintf(stderr, "cache_bench: %s failed for %s\n", what, kernel.c_str());
      std::exit(1);
    }
    samples.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
  }
  return summarize(std::move(samples));
}

/// A fresh job built from the stored one's fields, one assignment each, the
/// way the compiler fills it (strings copied, no struct copy).
cache::CompileJob buildJob(const cache::CompileJob& s) {
  cache::CompileJob j;
  j.source.kind = s.source.kind;
  j.source.stage = s.source.stage;
  j.source.contentHash = s.source.contentHash;
  j.source.entry = s.source.entry;
  j.target.backend = s.target.backend;
  j.target.arch = s.target.arch;
  j.target.ptxVersion = s.target.ptxVersion;
  j.target.codeObjectVersion = s.target.codeObjectVersion;
  j.target.warpSize = s.target.warpSize;
  j.options.numWarps = s.options.numWarps;
  j.options.numStages = s.options.numStages;
  j.options.numCtas = s.options.numCtas;
  j.options.maxnreg = s.options.maxnreg;
  j.options.optLevel = s.options.optLevel;
  j.options.fpFusion = s.options.fpFusion;
  j.options.ftz = s.options.ftz;
  j.options.lineInfo = s.options.lineInfo;
  j.options.debug = s.options.debug;
  j.pipelineFingerprint = s.pipelineFingerprint;
  j.toolchain.kilnVersion = s.toolchain.kilnVersion;
  j.toolchain.llvmVersion = s.toolchain.llvmVersion;
  j.toolchain.ptxasVersion = s.toolchain.ptxasVersion;
  j.toolchain.libdeviceSha256 = s.toolchain.libdeviceSha256;
  return j;
}

bool verifyArtifact(const std::string& dir, const cache::ManifestArtifact& a, bool hash) {
  cache::Expected<std::string> data = cache::fs::readFile(cache::fs::join(dir, a.name));
  if (!data || data->size() != a.size)
    return false;
  return !hash || cache::sha256Hex(*data) == a.sha256;
}

} // namespace

int main(int argc, char** argv) {
  std::string root;
  int iters = 2000, warmup = 100;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--iters" && i + 1 < argc)
      iters = std::atoi(argv[++i]);
    else if (a == "--warmup" && i + 1 < argc)
      warmup = std::atoi(argv[++i]);
    else if (!a.empty() && a[0] != '-' && root.empty())
      root = a;
    else {
      std::fprintf(stderr, "usage: cache_bench ROOT [--iters N] [--warmup N]\n");
      return 2;
    }
  }
  if (root.empty() || iters < 1) {
    std::fprintf(stderr, "usage: cache_bench ROOT [--iters N] [--warmup N]\n");
    return 2;
  }
  cache::StoreOptions options;
  options.root = root;
  cache::Expected<std::unique_ptr<cache::Store>> opened = cache::Store::open(options);
  if (!opened) {
    std::fprintf(stderr, "cache_bench: %s\n", opened.status().message().c_str());
    return 1;
  }
  cache::Store& store = **opened;
  std::vector<cache::EntryInfo> entries = store.list();
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
    return a.manifest.job.source.entry < b.manifest.job.source.entry;
  });
  if (entries.empty()) {
    std::fprintf(stderr, "cache_bench: no entries under %s\n", store.root().c_str());
    return 1;
  }
  std::printf("cache_bench: root %s, %zu entries, %d iterations (+%d warm-up) each; "
              "microseconds, median / p90 / max\n\n",
              store.root().c_str(), entries.size(), iters, warmup);

  const char* kRows[] = {"key",   "json",   "mfile", "manifest",  "lookup",   "get",
                         "cubin", "allart", "hit-cubin", "hit-none"};
  struct Row {
    std::string kernel;
    uint64_t bytes = 0;
    uint64_t cubinBytes = 0;
    size_t artifacts = 0;
    std::map<std::string, Summary> s;
  };
  std::vector<Row> rows;
  for (const cache::EntryInfo& e : entries) {
    if (!e.status.ok()) {
      std::fprintf(stderr, "cache_bench: bad entry %s: %s\n", e.key.c_str(),
                   e.status.message().c_str());
      return 1;
    }
    const cache::CompileJob& stored = e.manifest.job;
    const std::string kernel = stored.source.entry;
    const std::string key = e.key;
    const std::string dir = store.entryDir(key);
    if (buildJob(stored).key() != key) {
      std::fprintf(stderr, "cache_bench: %s: rebuilt job's key differs from the entry's\n",
                   kernel.c_str());
      return 1;
    }
    const cache::ManifestArtifact* cubin = nullptr;
    for (const cache::ManifestArtifact& a : e.manifest.artifacts)
      if (a.name.size() > 6 && a.name.compare(a.name.size() - 6, 6, ".cubin") == 0)
        cubin = &a;
    if (!cubin) {
      std::fprintf(stderr, "cache_bench: %s has no cubin\n", kernel.c_str());
      return 1;
    }
    const std::string lockPath = cache::fs::join(cache::fs::join(store.root(), "locks"), key + ".lock");
    const std::string statsDir = cache::fs::join(store.root(), "stats");

    Row row;
    row.kernel = kernel;
    row.bytes = e.bytes;
    row.cubinBytes = cubin->size;
    row.artifacts = e.manifest.artifacts.size();
    volatile size_t sink = 0;
    row.s["key"] = timeIt(warmup, iters, "key", kernel, [&] {
      cache::CompileJob j = buildJob(stored);
      if (!j.validate().ok())
        return false;
      std::string k = j.key();
      sink = sink + k.size();
      return k == key;
    });
    row.s["json"] = timeIt(warmup, iters, "json", kernel, [&] {
      std::string t = stored.canonicalJson();
      sink = sink + t.size();
      return !t.empty();
    });
    const std::string manifestPath = cache::fs::join(dir, "manifest.json");
    row.s["mfile"] = timeIt(warmup, iters, "mfile", kernel, [&] {
      cache::Expected<std::string> t = cache::fs::readFile(manifestPath);
      return t.ok() && !t->empty();
    });
    row.s["manifest"] = timeIt(warmup, iters, "manifest", kernel, [&] {
      cache::Expected<cache::Manifest> m = store.readManifest(key);
      return m.ok() && m->key == key;
    });
    row.s["lookup"] = timeIt(warmup, iters, "lookup", kernel, [&] {
      cache::Expected<cache::CacheResult> r = store.lookup(key);
      return r.ok() && r->outcome == cache::Outcome::kHit;
    });
    row.s["get"] = timeIt(warmup, iters, "get", kernel, [&] {
      cache::CompileJob j = buildJob(stored);
      cache::Expected<cache::CacheResult> r =
          store.getOrCompile(j, []() -> cache::Expected<cache::CompileOutput> {
            return cache::Status(cache::StatusCode::kCompileFailed, "a hit was expected");
          });
      return r.ok() && r->outcome == cache::Outcome::kHit;
    });
    row.s["cubin"] = timeIt(warmup, iters, "cubin", kernel,
                            [&] { return verifyArtifact(dir, *cubin, true); });
    row.s["allart"] = timeIt(warmup, iters, "allart", kernel, [&] {
      for (const cache::ManifestArtifact& a : e.manifest.artifacts)
        if (!verifyArtifact(dir, a, true))
          return false;
      return true;
    });
    auto composedHit = [&](bool hash) {
      if (!cache::fs::isDir(dir))
        return false;
      cache::Expected<cache::fs::FileLock> pin =
          cache::fs::FileLock::acquire(lockPath, cache::fs::FileLock::kShared);
      cache::Expected<cache::Manifest> m = store.readManifest(key);
      if (!m)
        return false;
      const cache::ManifestArtifact* c = m->find(cubin->name);
      if (!c || !verifyArtifact(dir, *c, hash))
        return false;
      ::utimensat(AT_FDCWD, dir.c_str(), nullptr, 0);
      cache::CacheCounters delta;
      delta.hits = 1;
      return cache::updateCounters(statsDir, delta).ok();
    };
    row.s["hit-cubin"] = timeIt(warmup, iters, "hit-cubin", kernel, [&] { return composedHit(true); });
    row.s["hit-none"] = timeIt(warmup, iters, "hit-none", kernel, [&] { return composedHit(false); });

    std::printf("%s (key %.16s, %zu artifacts, %llu B entry, cubin %llu B)\n", kernel.c_str(),
                key.c_str(), row.artifacts, static_cast<unsigned long long>(row.bytes),
                static_cast<unsigned long long>(row.cubinBytes));
    for (const char* r : kRows) {
      const Summary& s = row.s[r];
      std::printf("  %-10s %8.1f %8.1f %8.1f\n", r, s.median, s.p90, s.max);
    }
    std::printf("\n");
    rows.push_back(std::move(row));
  }

  // One line per kernel: medians, the target sum (key + lookup + manifest,
  // counting the manifest twice since lookup reads it too) and getOrCompile.
  std::printf("summary (median us): kernel | entry KiB | key | manifest | lookup (all artifacts "
              "verified) | key+lookup+manifest | getOrCompile hit | hit, cubin verified only | "
              "hit, no checksum\n");
  double worst = 0;
  for (const Row& r : rows) {
    double sum = r.s.at("key").median + r.s.at("lookup").median + r.s.at("manifest").median;
    worst = std::max(worst, sum);
    std::printf("| %s | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f |\n",
                r.kernel.c_str(), r.bytes / 1024.0, r.s.at("key").median,
                r.s.at("manifest").median, r.s.at("lookup").median, sum, r.s.at("get").median,
                r.s.at("hit-cubin").median, r.s.at("hit-none").median);
  }
  std::printf("\nworst key+lookup+manifest median: %.1f us (target <= 200 us): %s\n", worst,
              worst <= 200.0 ? "met" : "MISSED");
  return 0;
}
