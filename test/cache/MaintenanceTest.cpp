// MaintenanceTest.cpp: ls, verify, gc (temp garbage, LRU eviction, pinned
// entries), the size cap on publish, and export/import.
#include <gtest/gtest.h>

#include "cache/FileUtil.h"

#include <cstdlib>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache/Store.h"
#include "test/cache/CacheTestUtil.h"

namespace kiln::cache {
namespace {

using namespace kiln::cache::testing;

std::unique_ptr<Store> openStore(const std::string& root, uint64_t maxBytes = 0) {
  StoreOptions options = optionsFor(root);
  options.maxBytes = maxBytes;
  Expected<std::unique_ptr<Store>> store = Store::open(options);
  EXPECT_TRUE(store.ok()) << store.status().toString();
  return std::move(*store);
}

std::function<Expected<CompileOutput>()> compileFn(int* calls) {
  return [calls] {
    ++*calls;
    return Expected<CompileOutput>(sampleOutput());
  };
}

/// Sets an entry's last use to `secondsAgo` in the past.
void age(Store& store, const std::string& key, int secondsAgo) {
  timespec times[2];
  clock_gettime(CLOCK_REALTIME, &times[0]);
  times[0].tv_sec -= secondsAgo;
  times[1] = times[0];
  ASSERT_EQ(::utimensat(AT_FDCWD, store.entryDir(key).c_str(), times, 0), 0);
}

TEST(MaintenanceTest, ListShowsEntries) {
  auto store = openStore(makeTempDir("ls"));
  int calls = 0;
  for (int v = 0; v < 3; ++v)
    ASSERT_TRUE(store->getOrCompile(sampleJob(v), compileFn(&calls)).ok());
  std::vector<EntryInfo> entries = store->list();
  ASSERT_EQ(entries.size(), 3u);
  for (const EntryInfo& e : entries) {
    EXPECT_TRUE(e.status.ok());
    EXPECT_EQ(e.manifest.job.source.entry, "k");
    EXPECT_GT(e.bytes, 4096u);
    EXPECT_GT(e.lastUsedNs, 0);
  }
}

TEST(MaintenanceTest, VerifyQuarantinesBadEntries) {
  std::string root = makeTempDir("verify");
  auto store = openStore(root);
  int calls = 0;
  for (int v = 0; v < 3; ++v)
    ASSERT_TRUE(store->getOrCompile(sampleJob(v), compileFn(&calls)).ok());
  ASSERT_EQ(::truncate((store->entryDir(sampleJob(1).key()) + "/k.cubin").c_str(), 5), 0);
  writeFileOrDie(store->entryDir(sampleJob(2).key()) + "/manifest.json", "not json");
  size_t progressCalls = 0;
  VerifyReport report = store->verify([&](size_t, size_t total) {
    ++progressCalls;
    EXPECT_EQ(total, 3u);
  });
  EXPECT_EQ(report.checked, 3);
  EXPECT_EQ(report.ok, 1);
  EXPECT_EQ(report.quarantined, 2);
  EXPECT_EQ(report.problems.size(), 2u);
  EXPECT_EQ(progressCalls, 3u);
  EXPECT_EQ(store->list().size(), 1u);
}

TEST(MaintenanceTest, VerifyReportsAndMovesAsideAFileWhereAnEntryBelongs) {
  std::string root = makeTempDir("verify-file");
  auto store = openStore(root);
  int calls = 0;
  ASSERT_TRUE(store->getOrCompile(sampleJob(0), compileFn(&calls)).ok());
  std::string entry = store->entryDir(sampleJob(0).key());
  ASSERT_TRUE(kiln::cache::fs::removeTree(entry));
  writeFileOrDie(entry, "x\n");
  VerifyReport report = store->verify({});
  EXPECT_EQ(report.checked, 1);
  EXPECT_EQ(report.ok, 0);
  EXPECT_EQ(report.quarantined, 1);
  ASSERT_EQ(report.problems.size(), 1u);
  EXPECT_NE(report.problems[0].find("not a directory"), std::string::npos);
  // The key can be published again.
  Expected<CacheResult> again = store->getOrCompile(sampleJob(0), compileFn(&calls));
  ASSERT_TRUE(again.ok()) << again.status().toString();
  EXPECT_EQ(again->outcome, Outcome::kCompiled);
  EXPECT_TRUE(store->lookup(sampleJob(0).key()).ok());
}

TEST(MaintenanceTest, GcRemovesOldTempDirsAndStaleLocksOnly) {
  std::string root = makeTempDir("gc");
  auto store = openStore(root);
  std::string old = root + "/tmp/pub-old", fresh = root + "/tmp/pub-fresh";
  ASSERT_EQ(::mkdir(old.c_str(), 0755), 0);
  writeFileOrDie(old + "/k.cubin", "partial");
  ASSERT_EQ(::mkdir(fresh.c_str(), 0755), 0);
  timespec times[2] = {{::time(nullptr) - 7200, 0}, {::time(nullptr) - 7200, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, old.c_str(), times, 0), 0);
  writeFileOrDie(root + "/locks/" + std::string(64, 'a') + ".lock", "");
  GcOptions options;
  options.tmpMaxAgeSeconds = 3600;
  GcReport report = store->gc(options);
  EXPECT_EQ(report.tmpRemoved, 1);
  EXPECT_EQ(report.locksRemoved, 1);
  EXPECT_NE(::access(old.c_str(), F_OK), 0);
  EXPECT_EQ(::access(fresh.c_str(), F_OK), 0);
}

/// An age limit too large to subtract from the clock in nanoseconds keeps
/// everything: multiplied out it wrapped to a cutoff in the future, and gc
/// removed a temp dir made just before (helper-97, `--tmp-age
/// 1000000000000`). A negative one keeps everything too.
TEST(MaintenanceTest, GcWithHugeOrNegativeAgeRemovesNothing) {
  std::string root = makeTempDir("gc-huge");
  auto store = openStore(root);
  std::string fresh = root + "/tmp/pub-fresh";
  ASSERT_EQ(::mkdir(fresh.c_str(), 0755), 0);
  for (int64_t age : {int64_t{1000000000000} * 60, int64_t{INT64_MAX},
                      int64_t{9223372036}, int64_t{-1}}) {
    GcOptions options;
    options.tmpMaxAgeSeconds = age;
    options.quarantineMaxAgeSeconds = age;
    GcReport report = store->gc(options);
    EXPECT_EQ(report.tmpRemoved, 0) << age;
    EXPECT_EQ(::access(fresh.c_str(), F_OK), 0) << age;
  }
  GcOptions now;
  now.tmpMaxAgeSeconds = 0;
  EXPECT_EQ(store->gc(now).tmpRemoved, 1);
}

/// A tree like the staging of an imported archive whose folders are mode
/// 0555 and 0000: removeTree, run as the tree's owner (not root, who needs
/// no permissions; as root the tree is given to uid 65534 and removed by a
/// child running as that user), removes all of it.
TEST(MaintenanceTest, RemoveTreeTakesFoldersItsOwnerCannotReadOrWrite) {
  bool asRoot = ::geteuid() == 0;
  // As root, under /tmp: uid 65534 cannot traverse the test's own
  // temporary folder (it lies under root's home).
  std::string base;
  if (asRoot) {
    char tmpl[] = "/tmp/kiln-removetree-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    base = tmpl;
  } else {
    base = makeTempDir("removetree");
  }
  std::string top = base + "/import-x";
  ASSERT_EQ(::mkdir(top.c_str(), 0755), 0);
  ASSERT_EQ(::mkdir((top + "/v1").c_str(), 0755), 0);
  ASSERT_EQ(::mkdir((top + "/v1/ab").c_str(), 0755), 0);
  writeFileOrDie(top + "/v1/ab/file", "x");
  writeFileOrDie(top + "/v1/other", "y");
  if (asRoot) {
    ASSERT_EQ(::chmod(base.c_str(), 0777), 0);
    for (const char* p : {"", "/v1", "/v1/ab", "/v1/ab/file", "/v1/other"})
      ASSERT_EQ(::chown((top + p).c_str(), 65534, 65534), 0) << p;
  }
  ASSERT_EQ(::chmod((top + "/v1/ab").c_str(), 0000), 0);
  ASSERT_EQ(::chmod((top + "/v1").c_str(), 0555), 0);
  int status = runInChild([&] {
    if (asRoot && (::setgid(65534) != 0 || ::setuid(65534) != 0))
      return 2;
    return fs::removeTree(top) ? 0 : 1;
  });
  EXPECT_EQ(status, 0);
  struct stat st;
  EXPECT_NE(::lstat(top.c_str(), &st), 0) << "the tree is still there";
  fs::removeTree(base);
}

TEST(MaintenanceTest, GcEvictsLeastRecentlyUsedFirst) {
  auto store = openStore(makeTempDir("lru"));
  int calls = 0;
  for (int v = 0; v < 4; ++v)
    ASSERT_TRUE(store->getOrCompile(sampleJob(v), compileFn(&calls)).ok());
  age(*store, sampleJob(0).key(), 400);
  age(*store, sampleJob(1).key(), 300);
  age(*store, sampleJob(2).key(), 200);
  age(*store, sampleJob(3).key(), 100);
  // A hit makes entry 0 the most recently used.
  ASSERT_TRUE(store->lookup(sampleJob(0).key()).ok());
  uint64_t one = store->list()[0].bytes;
  GcOptions options;
  options.maxBytes = 2 * one;
  GcReport report = store->gc(options);
  EXPECT_EQ(report.evicted, 2);
  EXPECT_EQ(report.entries, 2);
  EXPECT_EQ(report.bytes, 2 * one);
  EXPECT_TRUE(store->lookup(sampleJob(0).key()).ok());
  EXPECT_FALSE(store->lookup(sampleJob(1).key()).ok());
  EXPECT_FALSE(store->lookup(sampleJob(2).key()).ok());
  EXPECT_TRUE(store->lookup(sampleJob(3).key()).ok());
  EXPECT_EQ(store->counters()->bytes, static_cast<int64_t>(2 * one));
  EXPECT_EQ(store->counters()->evictions, 2);
}

TEST(MaintenanceTest, AnEntryBeingReadIsNotEvicted) {
  std::string root = makeTempDir("pin");
  auto store = openStore(root);
  int calls = 0;
  for (int v = 0; v < 3; ++v)
    ASSERT_TRUE(store->getOrCompile(sampleJob(v), compileFn(&calls)).ok());
  // A reader in another process holds entry 0's lock shared, as lookup does.
  std::string lockFile = root + "/locks/" + sampleJob(0).key() + ".lock";
  int fd = ::open(lockFile.c_str(), O_RDWR | O_CREAT, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_SH), 0);
  GcOptions options;
  options.maxBytes = 1;
  GcReport report = store->gc(options);
  EXPECT_EQ(report.evicted, 2);
  EXPECT_EQ(report.entries, 1);
  ::close(fd);
  EXPECT_TRUE(store->lookup(sampleJob(0).key()).ok());
}

TEST(MaintenanceTest, SizeCapEvictsOnPublishDownToNinetyPercent) {
  std::string root = makeTempDir("cap");
  uint64_t one;
  {
    auto probe = openStore(makeTempDir("probe"));
    int calls = 0;
    ASSERT_TRUE(probe->getOrCompile(sampleJob(), compileFn(&calls)).ok());
    one = probe->list()[0].bytes;
  }
  auto store = openStore(root, /*maxBytes=*/5 * one + one / 2);
  int calls = 0;
  for (int v = 0; v < 20; ++v) {
    ASSERT_TRUE(store->getOrCompile(sampleJob(v), compileFn(&calls)).ok());
    uint64_t total = 0;
    for (const EntryInfo& e : store->list())
      total += e.bytes;
    EXPECT_LE(total, 5 * one + one / 2) << "after publish " << v;
  }
  EXPECT_GT(store->counters()->evictions, 0);
  // The newest entry survives.
  EXPECT_TRUE(store->lookup(sampleJob(19).key()).ok());
}

TEST(MaintenanceTest, ExportImportRoundTrip) {
  std::string base = makeTempDir("export");
  auto source = openStore(base + "/a");
  int calls = 0;
  for (int v = 0; v < 3; ++v)
    ASSERT_TRUE(source->getOrCompile(sampleJob(v), compileFn(&calls)).ok());
  std::string archive = base + "/warm.tar";
  ASSERT_TRUE(source->exportArchive(archive, {sampleJob(0).key(), sampleJob(2).key()}).ok());
  EXPECT_EQ(readFileOrEmpty(archive).find(base), std::string::npos);
  auto dest = openStore(base + "/b");
  Expected<ImportReport> report = dest->importArchive(archive);
  ASSERT_TRUE(report.ok()) << report.status().toString();
  EXPECT_EQ(report->imported, 2);
  EXPECT_EQ(report->rejected, 0);
  EXPECT_TRUE(dest->lookup(sampleJob(0).key()).ok());
  EXPECT_FALSE(dest->lookup(sampleJob(1).key()).ok());
  EXPECT_TRUE(dest->lookup(sampleJob(2).key()).ok());
  report = dest->importArchive(archive);
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(report->present, 2);
  // All keys.
  ASSERT_TRUE(source->exportArchive(archive + ".all", {}).ok());
  auto all = openStore(base + "/c");
  EXPECT_EQ(all->importArchive(archive + ".all")->imported, 3);
}

TEST(MaintenanceTest, ExportErrors) {
  std::string base = makeTempDir("exporterr");
  auto store = openStore(base + "/a");
  EXPECT_EQ(store->exportArchive(base + "/x.tar", {"nope"}).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(store->exportArchive(base + "/x.tar", {std::string(64, 'a')}).code(),
            StatusCode::kNotFound);
  int calls = 0;
  ASSERT_TRUE(store->getOrCompile(sampleJob(), compileFn(&calls)).ok());
  EXPECT_FALSE(store->exportArchive(base + "/no/such/dir/x.tar", {}).ok());
}

TEST(MaintenanceTest, ImportRejectsTamperedAndForeignArchives) {
  std::string base = makeTempDir("import");
  auto store = openStore(base + "/a");
  EXPECT_FALSE(store->importArchive(base + "/missing.tar").ok());
  writeFileOrDie(base + "/garbage.tar", "this is not a tar file");
  EXPECT_FALSE(store->importArchive(base + "/garbage.tar").ok());

  // A tampered entry: make a good one elsewhere, corrupt it, tar it by hand.
  auto other = openStore(base + "/b");
  int calls = 0;
  ASSERT_TRUE(other->getOrCompile(sampleJob(0), compileFn(&calls)).ok());
  ASSERT_TRUE(other->getOrCompile(sampleJob(1), compileFn(&calls)).ok());
  std::string bad = other->entryDir(sampleJob(1).key());
  writeFileOrDie(bad + "/k.cubin", std::string(4096, 'X'));
  writeFileOrDie(other->entryDir(sampleJob(0).key()) + "/extra.bin", "sneaky");
  ASSERT_EQ(std::system(("tar -cf " + base + "/tampered.tar -C " + base + "/b v1").c_str()), 0);
  Expected<ImportReport> report = store->importArchive(base + "/tampered.tar");
  ASSERT_TRUE(report.ok()) << report.status().toString();
  EXPECT_EQ(report->imported, 0);
  EXPECT_EQ(report->rejected, 2);
  EXPECT_TRUE(store->list().empty());

  // A symlink member is refused before extraction.
  ASSERT_EQ(std::system(("mkdir -p " + base + "/s/v1 && ln -s /etc " + base + "/s/v1/ab && tar -cf " +
                         base + "/link.tar -C " + base + "/s v1")
                            .c_str()),
            0);
  EXPECT_EQ(store->importArchive(base + "/link.tar").status().code(), StatusCode::kCorrupt);
}

} // namespace
} // namespace kiln::cache
