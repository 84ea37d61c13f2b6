//===- CacheCommand.cpp - `kiln cache ...` and `kiln inspect` -------------===//

#include "tools/kiln/CacheCommand.h"

#include <sys/stat.h>

#include "cache/Store.h"

#include <cstdio>
#include <ctime>
#include <nlohmann/json.hpp>
#include <unistd.h>

namespace kiln::tool {
namespace {

using kiln::cache::Expected;
using kiln::cache::Store;

int fail(const std::string &message) {
  std::fprintf(stderr, "kiln: error: %s\n", message.c_str());
  return 1;
}

std::string humanBytes(uint64_t bytes) {
  const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 4) {
    value /= 1024;
    ++unit;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, unit ? "%.1f %s" : "%.0f %s", value, units[unit]);
  return buf;
}

std::string isoTime(int64_t ns) {
  std::time_t t = static_cast<std::time_t>(ns / 1000000000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

/// A progress bar on stderr when it is a terminal; nothing otherwise.
kiln::cache::ProgressFn progressBar(const char *what) {
  if (!::isatty(2))
    return nullptr;
  return [what](size_t done, size_t total) {
    int width = 30;
    int filled = total ? static_cast<int>(width * done / total) : width;
    std::fprintf(stderr, "\r%s [%.*s%*s] %zu/%zu", what, filled,
                 "==============================", width - filled, "", done, total);
    if (done == total)
      std::fprintf(stderr, "\n");
  };
}

int runLs(Store &store, bool json) {
  nlohmann::ordered_json doc = nlohmann::ordered_json::array();
  for (const kiln::cache::EntryInfo &e : store.list()) {
    const kiln::cache::CompileJob &job = e.manifest.job;
    if (json) {
      nlohmann::ordered_json row = {{"key", e.key}, {"bytes", e.bytes},
                                    {"last_used", isoTime(e.lastUsedNs)}};
      if (e.status.ok()) {
        row["kernel"] = job.source.entry;
        row["target"] = job.target.arch;
        row["num_warps"] = job.options.numWarps;
        row["num_stages"] = job.options.numStages;
        row["created"] = e.manifest.created;
      } else {
        row["error"] = e.status.message();
      }
      doc.push_back(row);
      continue;
    }
    if (!e.status.ok()) {
      std::printf("%s  (bad: %s)  %s  %s\n", e.key.c_str(), e.status.message().c_str(),
                  humanBytes(e.bytes).c_str(), isoTime(e.lastUsedNs).c_str());
      continue;
    }
    std::printf("%s  %-24s %-7s w%d s%d%s%s  %10s  %s\n", e.key.c_str(),
                job.source.entry.c_str(), job.target.arch.c_str(), job.options.numWarps,
                job.options.numStages, job.options.ftz ? " ftz" : "",
                job.options.fpFusion ? "" : " no-fma", humanBytes(e.bytes).c_str(),
                isoTime(e.lastUsedNs).c_str());
  }
  if (json)
    std::printf("%s\n", doc.dump(2).c_str());
  return 0;
}

int runStat(Store &store, bool json) {
  uint64_t bytes = 0;
  std::vector<kiln::cache::EntryInfo> entries = store.list();
  for (const kiln::cache::EntryInfo &e : entries)
    bytes += e.bytes;
  Expected<kiln::cache::CacheCounters> c = store.counters();
  if (!c)
    return fail(c.status().message());
  nlohmann::ordered_json doc = {
      {"root", store.root()},       {"writable", store.writable()},
      {"entries", entries.size()},  {"bytes", bytes},
      {"hits", c->hits},            {"misses", c->misses},
      {"compiles", c->compiles},    {"quarantined", c->quarantined},
      {"evictions", c->evictions},  {"publish_failures", c->publishFailures},
  };
  Expected<std::map<std::string, kiln::cache::CacheCounters>> byTarget =
      store.countersByTarget();
  if (!byTarget)
    return fail(byTarget.status().message());
  nlohmann::ordered_json targets = nlohmann::ordered_json::object();
  for (const auto &[target, tc] : *byTarget)
    targets[target] = {{"hits", tc.hits}, {"misses", tc.misses}, {"compiles", tc.compiles}};
  doc["by_target"] = targets;
  if (json) {
    std::printf("%s\n", doc.dump(2).c_str());
    return 0;
  }
  int64_t lookups = c->hits + c->misses;
  std::printf("root:       %s%s\n", store.root().c_str(), store.writable() ? "" : " (read-only)");
  std::printf("entries:    %zu (%s)\n", entries.size(), humanBytes(bytes).c_str());
  std::printf("hits:       %lld (%.1f%%)\n", static_cast<long long>(c->hits),
              lookups ? 100.0 * double(c->hits) / double(lookups) : 0.0);
  std::printf("misses:     %lld\n", static_cast<long long>(c->misses));
  std::printf("compiles:   %lld\n", static_cast<long long>(c->compiles));
  std::printf("quarantined %lld, evicted %lld, unpublished %lld\n",
              static_cast<long long>(c->quarantined), static_cast<long long>(c->evictions),
              static_cast<long long>(c->publishFailures));
  for (const auto &[target, tc] : *byTarget)
    std::printf("%-11s hits %lld, misses %lld, compiles %lld\n", (target + ":").c_str(),
                static_cast<long long>(tc.hits), static_cast<long long>(tc.misses),
                static_cast<long long>(tc.compiles));
  return 0;
}

} // namespace

bool parseSize(const std::string &text, uint64_t &bytes) {
  size_t i = 0;
  uint64_t value = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
    if (value > (UINT64_MAX - 9) / 10)
      return false;
    value = value * 10 + static_cast<uint64_t>(text[i++] - '0');
  }
  if (i == 0)
    return false;
  std::string suffix = text.substr(i);
  for (char &ch : suffix)
    ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  int shift = 0;
  if (!suffix.empty() && std::string("KMGT").find(suffix[0]) != std::string::npos) {
    shift = 10 * (1 + static_cast<int>(std::string("KMGT").find(suffix[0])));
    suffix = suffix.substr(1);
  }
  if (suffix != "" && suffix != "B" && suffix != "IB")
    return false;
  if (shift && value > (UINT64_MAX >> shift))
    return false;
  bytes = value << shift;
  return true;
}

int runCacheCommand(const CacheCommandOptions &options) {
  kiln::cache::StoreOptions storeOptions;
  storeOptions.root = options.cacheDir;
  Expected<std::unique_ptr<Store>> opened = Store::open(storeOptions);
  if (!opened)
    return fail(opened.status().message());
  Store &store = **opened;
  const std::string &cmd = options.subcommand;
  if (cmd == "ls")
    return runLs(store, options.json);
  if (cmd == "stat")
    return runStat(store, options.json);
  if (cmd == "verify") {
    kiln::cache::VerifyReport report = store.verify(progressBar("verify"));
    for (const std::string &p : report.problems)
      std::printf("bad: %s\n", p.c_str());
    std::printf("verified %d entries: %d ok, %d quarantined\n", report.checked, report.ok,
                report.quarantined);
    return report.problems.empty() ? 0 : 1;
  }
  if (cmd == "gc") {
    kiln::cache::GcOptions gc;
    if (!options.maxSize.empty() && !parseSize(options.maxSize, gc.maxBytes))
      return fail("--max-size: '" + options.maxSize +
                  "' is not a size (digits with an optional K, M, G or T)");
    if (options.tmpAgeMinutes < 0)
      return fail("--tmp-age must not be negative");
    gc.tmpMaxAgeSeconds = options.tmpAgeMinutes * 60;
    kiln::cache::GcReport r = store.gc(gc);
    std::printf("gc: evicted %d entries (%s); removed %d temp dirs, %d quarantined entries, "
                "%d lock files; %d entries (%s) left\n",
                r.evicted, humanBytes(r.evictedBytes).c_str(), r.tmpRemoved,
                r.quarantineRemoved, r.locksRemoved, r.entries, humanBytes(r.bytes).c_str());
    return 0;
  }
  if (cmd == "export") {
    kiln::cache::ExportReport report;
    kiln::cache::Status s =
        store.exportArchive(options.archive, options.keys, progressBar("export"), &report);
    if (!s.ok())
      return fail(s.message());
    // With the archive on kiln's own stdout (`export /dev/stdout > x.tar`),
    // the summary goes to stderr, not into the archive's stream.
    struct stat archiveStat, stdoutStat;
    FILE *summary = ::stat(options.archive.c_str(), &archiveStat) == 0 &&
                            ::fstat(1, &stdoutStat) == 0 &&
                            archiveStat.st_dev == stdoutStat.st_dev &&
                            archiveStat.st_ino == stdoutStat.st_ino
                        ? stderr
                        : stdout;
    for (const std::string &skipped : report.skipped)
      std::fprintf(summary, "skipped: %s\n", skipped.c_str());
    std::fprintf(summary, "exported %zu entries to %s", report.exported,
                 options.archive.c_str());
    if (!report.skipped.empty())
      std::fprintf(summary, " (%zu skipped)", report.skipped.size());
    std::fprintf(summary, "\n");
    // Like import with rejected entries: the archive is written, but not
    // all of the cache is in it.
    if (!report.skipped.empty())
      return 1;
    return 0;
  }
  if (cmd == "import") {
    Expected<kiln::cache::ImportReport> r = store.importArchive(options.archive, progressBar("import"));
    if (!r)
      return fail(r.status().message());
    for (const std::string &p : r->problems)
      std::printf("rejected: %s\n", p.c_str());
    std::printf("imported %d entries, %d already present, %d rejected\n", r->imported,
                r->present, r->rejected);
    return r->rejected ? 1 : 0;
  }
  return fail("unknown cache subcommand '" + cmd + "'");
}

} // namespace kiln::tool
