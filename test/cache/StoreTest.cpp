// StoreTest.cpp: the store's publish/lookup path, verification on load
// (corrupt, truncated, missing files, bad manifests), degraded modes
// (read-only root, full disk), symlinked roots, relocation and root
// resolution.
#include <gtest/gtest.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache/FileUtil.h"
#include "cache/Sha256.h"
#include "cache/Store.h"
#include "test/cache/CacheTestUtil.h"

namespace kiln::cache {
namespace {

using namespace kiln::cache::testing;

std::unique_ptr<Store> openStore(const std::string& root, std::vector<std::string>* warnings = nullptr) {
  Expected<std::unique_ptr<Store>> store = Store::open(optionsFor(root, warnings));
  EXPECT_TRUE(store.ok()) << store.status().toString();
  return store.ok() ? std::move(*store) : nullptr;
}

/// A compile function that counts its calls.
std::function<Expected<CompileOutput>()> counting(int* calls, CompileOutput out = sampleOutput()) {
  return [calls, out] {
    ++*calls;
    return Expected<CompileOutput>(out);
  };
}

TEST(StoreTest, PublishThenHit) {
  std::string root = makeTempDir("store");
  auto store = openStore(root);
  int calls = 0;
  CompileJob job = sampleJob();
  Expected<CacheResult> first = store->getOrCompile(job, counting(&calls));
  ASSERT_TRUE(first.ok()) << first.status().toString();
  EXPECT_EQ(first->outcome, Outcome::kCompiled);
  EXPECT_EQ(first->key, job.key());
  EXPECT_EQ(first->entryDir, root + "/v1/" + job.key().substr(0, 2) + "/" + job.key());
  Expected<CacheResult> second = store->getOrCompile(job, counting(&calls));
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second->outcome, Outcome::kHit);
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(second->artifacts, sampleOutput().artifacts);
  EXPECT_NE(second->infoJson.find("registers"), std::string::npos);
  Expected<CacheCounters> c = store->counters();
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->hits, 1);
  EXPECT_EQ(c->misses, 1);
  EXPECT_EQ(c->compiles, 1);
  EXPECT_GT(c->bytes, 4096);
  // Nothing left in tmp/.
  EXPECT_TRUE(fs::listDir(root + "/tmp").empty());
}

TEST(StoreTest, ManifestDescribesTheEntry) {
  std::string root = makeTempDir("store");
  auto store = openStore(root);
  int calls = 0;
  CompileJob job = sampleJob();
  ASSERT_TRUE(store->getOrCompile(job, counting(&calls)).ok());
  Expected<Manifest> m = store->readManifest(job.key());
  ASSERT_TRUE(m.ok()) << m.status().toString();
  EXPECT_EQ(m->key, job.key());
  EXPECT_EQ(m->job.key(), job.key());
  ASSERT_EQ(m->artifacts.size(), 3u);
  const ManifestArtifact* cubin = m->find("k.cubin");
  ASSERT_NE(cubin, nullptr);
  EXPECT_EQ(cubin->size, 4096u);
  EXPECT_EQ(cubin->sha256, sha256Hex(std::string(4096, 'c')));
  EXPECT_FALSE(m->kilnVersion.empty());
  EXPECT_EQ(m->created.size(), 20u);
  std::string text = readFileOrEmpty(store->entryDir(job.key()) + "/manifest.json");
  EXPECT_EQ(text.find(root), std::string::npos) << "the manifest holds the root's path";
}

/// Each way an entry can be damaged; all must be quarantined and recompiled.
struct Damage {
  const char* name;
  std::function<void(const std::string& entry)> apply;
};

class CorruptEntryTest : public ::testing::TestWithParam<int> {};

std::vector<Damage> damages() {
  return {
      {"flipped byte", [](const std::string& e) {
         std::string d = readFileOrEmpty(e + "/k.cubin");
         d[100] ^= 1;
         writeFileOrDie(e + "/k.cubin", d);
       }},
      {"truncated", [](const std::string& e) { ASSERT_EQ(::truncate((e + "/k.cubin").c_str(), 1000), 0); }},
      {"empty", [](const std::string& e) { ASSERT_EQ(::truncate((e + "/k.cubin").c_str(), 0), 0); }},
      {"missing artifact", [](const std::string& e) { ASSERT_EQ(::unlink((e + "/k.ptx").c_str()), 0); }},
      {"missing manifest", [](const std::string& e) { ASSERT_EQ(::unlink((e + "/manifest.json").c_str()), 0); }},
      {"manifest garbage", [](const std::string& e) { writeFileOrDie(e + "/manifest.json", "{\"format\": "); }},
      {"manifest binary", [](const std::string& e) { writeFileOrDie(e + "/manifest.json", std::string("\0\xff\xfe", 3)); }},
      {"manifest empty", [](const std::string& e) { writeFileOrDie(e + "/manifest.json", ""); }},
      {"manifest other job", [](const std::string& e) {
         std::string m = readFileOrEmpty(e + "/manifest.json");
         size_t at = m.find("\"num_warps\": 4");
         ASSERT_NE(at, std::string::npos);
         writeFileOrDie(e + "/manifest.json", m.replace(at, 14, "\"num_warps\": 8"));
       }},
      {"manifest wrong checksum", [](const std::string& e) {
         std::string m = readFileOrEmpty(e + "/manifest.json");
         std::string sha = sha256Hex(std::string(4096, 'c'));
         size_t at = m.find(sha);
         ASSERT_NE(at, std::string::npos);
         writeFileOrDie(e + "/manifest.json", m.replace(at, 64, std::string(64, '0')));
       }},
      {"manifest path artifact", [](const std::string& e) {
         std::string m = readFileOrEmpty(e + "/manifest.json");
         size_t at = m.find("\"k.ptx\"");
         ASSERT_NE(at, std::string::npos);
         writeFileOrDie(e + "/manifest.json", m.replace(at, 7, "\"../k.ptx\""));
       }},
      {"manifest not object", [](const std::string& e) { writeFileOrDie(e + "/manifest.json", "[1, 2]"); }},
      {"entry replaced by a file", [](const std::string& e) {
         ASSERT_TRUE(kiln::cache::fs::removeTree(e));
         writeFileOrDie(e, "x\n");
       }},
  };
}

TEST_P(CorruptEntryTest, IsQuarantinedCountedAndRecompiled) {
  Damage damage = damages()[GetParam()];
  SCOPED_TRACE(damage.name);
  std::string root = makeTempDir("corrupt");
  std::vector<std::string> warnings;
  auto store = openStore(root, &warnings);
  int calls = 0;
  CompileJob job = sampleJob();
  ASSERT_TRUE(store->getOrCompile(job, counting(&calls)).ok());
  damage.apply(store->entryDir(job.key()));
  Expected<CacheResult> again = store->getOrCompile(job, counting(&calls));
  ASSERT_TRUE(again.ok()) << again.status().toString();
  EXPECT_EQ(again->outcome, Outcome::kCompiled);
  EXPECT_EQ(again->artifacts, sampleOutput().artifacts);
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(fs::listDir(root + "/quarantine").size(), 1u);
  EXPECT_EQ(store->counters()->quarantined, 1);
  EXPECT_EQ(warnings.size(), 1u);
  // The new entry is good.
  Expected<CacheResult> hit = store->lookup(job.key());
  ASSERT_TRUE(hit.ok()) << hit.status().toString();
  EXPECT_EQ(hit->outcome, Outcome::kHit);
}

INSTANTIATE_TEST_SUITE_P(Damages, CorruptEntryTest, ::testing::Range(0, 13));

TEST(StoreTest, LookupOfCorruptEntryIsAMiss) {
  std::string root = makeTempDir("corrupt");
  auto store = openStore(root);
  int calls = 0;
  CompileJob job = sampleJob();
  ASSERT_TRUE(store->getOrCompile(job, counting(&calls)).ok());
  ASSERT_EQ(::truncate((store->entryDir(job.key()) + "/k.cubin").c_str(), 10), 0);
  Expected<CacheResult> r = store->lookup(job.key());
  EXPECT_EQ(r.status().code(), StatusCode::kNotFound);
  EXPECT_FALSE(::access(store->entryDir(job.key()).c_str(), F_OK) == 0);
}

TEST(StoreTest, BadKeysAreErrors) {
  auto store = openStore(makeTempDir("keys"));
  for (std::string key : {std::string(""), std::string("abc"), std::string(64, 'G'),
                          std::string("../../etc/passwd"), std::string(64, 'A')}) {
    EXPECT_EQ(store->lookup(key).status().code(), StatusCode::kInvalidArgument) << key;
    EXPECT_EQ(store->readManifest(key).status().code(), StatusCode::kInvalidArgument) << key;
  }
  EXPECT_EQ(store->lookup(std::string(64, 'a')).status().code(), StatusCode::kNotFound);
}

TEST(StoreTest, InvalidJobIsAnError) {
  auto store = openStore(makeTempDir("job"));
  CompileJob job = sampleJob();
  job.options.numWarps = 0;
  int calls = 0;
  EXPECT_EQ(store->getOrCompile(job, counting(&calls)).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(calls, 0);
}

TEST(StoreTest, CompileFailureIsReturnedAndNotCached) {
  std::string root = makeTempDir("fail");
  auto store = openStore(root);
  int calls = 0;
  auto failing = [&]() -> Expected<CompileOutput> {
    ++calls;
    return Status(StatusCode::kInvalidArgument, "tt.dot is not supported yet");
  };
  Expected<CacheResult> r = store->getOrCompile(sampleJob(), failing);
  EXPECT_EQ(r.status().code(), StatusCode::kCompileFailed);
  EXPECT_NE(r.status().message().find("tt.dot"), std::string::npos);
  r = store->getOrCompile(sampleJob(), failing);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(calls, 2);
  EXPECT_TRUE(fs::listDir(root + "/v1").empty());
}

TEST(StoreTest, BadArtifactNamesAreRejected) {
  auto store = openStore(makeTempDir("names"));
  for (std::string name : {std::string(), std::string("."), std::string(".."), std::string("a/b"), std::string("manifest.json"), std::string(300, 'x')}) {
    CompileOutput out;
    out.artifacts[name] = "x";
    int calls = 0;
    EXPECT_EQ(store->getOrCompile(sampleJob(), counting(&calls, out)).status().code(),
              StatusCode::kInvalidArgument)
        << name;
  }
}

TEST(StoreTest, ReadOnlyRootViaHookServesHitsAndCompilesMissesWithOneWarning) {
  std::string root = makeTempDir("ro");
  int calls = 0;
  ASSERT_TRUE(openStore(root)->getOrCompile(sampleJob(0), counting(&calls)).ok());
  std::vector<std::string> warnings;
  StoreOptions options = optionsFor(root, &warnings);
  options.hooks.fault = [](std::string_view point) { return point == "open-writable" ? EROFS : 0; };
  auto ro = std::move(*Store::open(options));
  EXPECT_FALSE(ro->writable());
  Expected<CacheResult> hit = ro->getOrCompile(sampleJob(0), counting(&calls));
  ASSERT_TRUE(hit.ok());
  EXPECT_EQ(hit->outcome, Outcome::kHit);
  for (int variant : {1, 2}) {
    Expected<CacheResult> miss = ro->getOrCompile(sampleJob(variant), counting(&calls));
    ASSERT_TRUE(miss.ok());
    EXPECT_EQ(miss->outcome, Outcome::kCompiledUnpublished);
    EXPECT_TRUE(miss->entryDir.empty());
    EXPECT_EQ(miss->artifacts, sampleOutput().artifacts);
  }
  EXPECT_EQ(calls, 3);
  EXPECT_EQ(warnings.size(), 1u);
  EXPECT_EQ(openStore(root)->list().size(), 1u);
}

TEST(StoreTest, PublishHittingEROFSDegradesToReadOnly) {
  std::string root = makeTempDir("rofs");
  std::vector<std::string> warnings;
  StoreOptions options = optionsFor(root, &warnings);
  options.hooks.fault = [](std::string_view point) { return point == "publish-stage" ? EROFS : 0; };
  auto store = std::move(*Store::open(options));
  int calls = 0;
  for (int variant : {0, 1}) {
    Expected<CacheResult> r = store->getOrCompile(sampleJob(variant), counting(&calls));
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->outcome, Outcome::kCompiledUnpublished);
  }
  EXPECT_FALSE(store->writable());
  EXPECT_EQ(warnings.size(), 1u);
}

// Tests run as root here, and root ignores directory permissions, so the
// child drops to uid/gid 65534 (nobody) before using the chmod 0555 root.
// As a normal user the chmod alone makes the root read-only.
TEST(StoreTest, ReadOnlyRootWithRealPermissions) {
  char tmpl[] = "/tmp/kiln-cache-ro-XXXXXX";
  ASSERT_NE(::mkdtemp(tmpl), nullptr);
  std::string root = tmpl;
  ASSERT_EQ(::chmod(root.c_str(), 0755), 0);
  int calls = 0;
  ASSERT_TRUE(openStore(root)->getOrCompile(sampleJob(0), counting(&calls)).ok());
  ASSERT_EQ(std::system(("chmod -R a-w " + root).c_str()), 0);
  int status = runInChild([&] {
    if (::getuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0))
      return 10;
    std::vector<std::string> warnings;
    Expected<std::unique_ptr<Store>> store = Store::open(optionsFor(root, &warnings));
    if (!store)
      return 11;
    if ((*store)->writable())
      return 12;
    int n = 0;
    Expected<CacheResult> hit = (*store)->getOrCompile(sampleJob(0), counting(&n));
    if (!hit || hit->outcome != Outcome::kHit)
      return 13;
    for (int variant : {1, 2}) {
      Expected<CacheResult> miss = (*store)->getOrCompile(sampleJob(variant), counting(&n));
      if (!miss || miss->outcome != Outcome::kCompiledUnpublished ||
          miss->artifacts != sampleOutput().artifacts)
        return 14;
    }
    return n == 2 && warnings.size() == 1 ? 0 : 15;
  });
  std::system(("chmod -R u+w " + root + " && rm -rf " + root).c_str());
  EXPECT_EQ(status, 0);
}

TEST(StoreTest, DiskFullViaRlimitFsizeReturnsTheResultUnpublished) {
  std::string root = makeTempDir("full");
  ASSERT_TRUE(openStore(root) != nullptr); // creates the layout and counters
  int status = runInChild([&] {
    std::signal(SIGXFSZ, SIG_IGN); // write() then fails with EFBIG
    rlimit limit{2048, 2048};
    if (::setrlimit(RLIMIT_FSIZE, &limit) != 0)
      return 10;
    std::vector<std::string> warnings;
    Expected<std::unique_ptr<Store>> store = Store::open(optionsFor(root, &warnings));
    if (!store)
      return 11;
    int n = 0;
    for (int variant : {0, 1}) {
      Expected<CacheResult> r = (*store)->getOrCompile(sampleJob(variant), counting(&n));
      if (!r)
        return 12;
      if (r->outcome != Outcome::kCompiledUnpublished || r->artifacts != sampleOutput().artifacts)
        return 13;
    }
    return warnings.size() == 1 && warnings[0].find("full") != std::string::npos ? 0 : 14;
  });
  EXPECT_EQ(status, 0);
  EXPECT_TRUE(fs::listDir(root + "/tmp").empty()) << "the staging dir was not cleaned up";
  EXPECT_TRUE(openStore(root)->list().empty());
  EXPECT_EQ(openStore(root)->counters()->publishFailures, 2);
}

TEST(StoreTest, DiskFullAndQuotaViaHook) {
  for (int err : {ENOSPC, EDQUOT, EFBIG}) {
    std::string root = makeTempDir("quota");
    std::vector<std::string> warnings;
    StoreOptions options = optionsFor(root, &warnings);
    options.hooks.fault = [err](std::string_view p) { return p == "publish-manifest" ? err : 0; };
    auto store = std::move(*Store::open(options));
    int calls = 0;
    for (int variant : {0, 1}) {
      Expected<CacheResult> r = store->getOrCompile(sampleJob(variant), counting(&calls));
      ASSERT_TRUE(r.ok());
      EXPECT_EQ(r->outcome, Outcome::kCompiledUnpublished);
    }
    EXPECT_TRUE(store->writable());
    EXPECT_EQ(warnings.size(), 1u);
    EXPECT_TRUE(fs::listDir(root + "/tmp").empty());
  }
}

TEST(StoreTest, SymlinkedRootIsResolvedOnce) {
  std::string base = makeTempDir("link");
  std::string real = base + "/real", link = base + "/link";
  ASSERT_EQ(::mkdir(real.c_str(), 0755), 0);
  ASSERT_EQ(::symlink(real.c_str(), link.c_str()), 0);
  auto viaLink = openStore(link);
  EXPECT_EQ(viaLink->root(), real);
  int calls = 0;
  ASSERT_TRUE(viaLink->getOrCompile(sampleJob(), counting(&calls)).ok());
  Expected<CacheResult> hit = openStore(real)->getOrCompile(sampleJob(), counting(&calls));
  ASSERT_TRUE(hit.ok());
  EXPECT_EQ(hit->outcome, Outcome::kHit);
  EXPECT_EQ(calls, 1);
}

/// Every regular file under `dir` whose bytes contain `needle`.
std::vector<std::string> grepRecursive(const std::string& dir, const std::string& needle) {
  std::vector<std::string> hits;
  for (const std::string& name : fs::listDir(dir)) {
    std::string p = dir + "/" + name;
    struct stat st;
    if (::lstat(p.c_str(), &st) != 0)
      continue;
    if (S_ISDIR(st.st_mode)) {
      for (const std::string& h : grepRecursive(p, needle))
        hits.push_back(h);
    } else if (readFileOrEmpty(p).find(needle) != std::string::npos) {
      hits.push_back(p);
    }
  }
  return hits;
}

TEST(StoreTest, RelocatedRootGivesAllHitsAndHoldsNoOldPath) {
  std::string base = makeTempDir("reloc");
  std::string oldRoot = base + "/old-root-path-marker", newRoot = base + "/moved";
  auto store = openStore(oldRoot);
  int calls = 0;
  for (int v = 0; v < 5; ++v)
    ASSERT_TRUE(store->getOrCompile(sampleJob(v), counting(&calls)).ok());
  ASSERT_TRUE(store->lookup(sampleJob(0).key()).ok());
  store.reset();
  ASSERT_EQ(std::system(("cp -a " + oldRoot + " " + newRoot).c_str()), 0);
  EXPECT_TRUE(grepRecursive(newRoot, oldRoot).empty());
  EXPECT_TRUE(grepRecursive(newRoot, "old-root-path-marker").empty());
  std::system(("rm -rf " + oldRoot).c_str());
  auto moved = openStore(newRoot);
  for (int v = 0; v < 5; ++v) {
    Expected<CacheResult> r = moved->getOrCompile(sampleJob(v), counting(&calls));
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->outcome, Outcome::kHit) << v;
  }
  EXPECT_EQ(calls, 5);
}

TEST(StoreTest, RootResolutionOrder) {
  std::string base = makeTempDir("resolve");
  ::setenv("KILN_CACHE_DIR", (base + "/env").c_str(), 1);
  ::setenv("XDG_CACHE_HOME", (base + "/xdg").c_str(), 1);
  EXPECT_EQ(*resolveCacheRoot(base + "/explicit"), base + "/explicit");
  EXPECT_EQ(*resolveCacheRoot(), base + "/env");
  ::unsetenv("KILN_CACHE_DIR");
  EXPECT_EQ(*resolveCacheRoot(), base + "/xdg/kiln");
  ::setenv("XDG_CACHE_HOME", "relative/dir", 1); // not absolute: ignored
  std::string home = std::getenv("HOME") ? std::getenv("HOME") : "";
  ::setenv("HOME", (base + "/home").c_str(), 1);
  EXPECT_EQ(*resolveCacheRoot(), base + "/home/.cache/kiln");
  ::unsetenv("XDG_CACHE_HOME");
  ::unsetenv("HOME");
  EXPECT_EQ(resolveCacheRoot().status().code(), StatusCode::kInvalidArgument);
  if (!home.empty())
    ::setenv("HOME", home.c_str(), 1);
  EXPECT_EQ(resolveCacheRoot("/").status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(resolveCacheRoot("/tmp/../").status().code(), StatusCode::kInvalidArgument);
  ASSERT_EQ(::symlink("/", (base + "/to-slash").c_str()), 0);
  EXPECT_EQ(resolveCacheRoot(base + "/to-slash").status().code(), StatusCode::kInvalidArgument);
  writeFileOrDie(base + "/file", "x");
  EXPECT_FALSE(resolveCacheRoot(base + "/file").ok());
  EXPECT_FALSE(Store::open(optionsFor(base + "/file")).ok());
}

TEST(StoreTest, StatsAreSharedAcrossProcesses) {
  std::string root = makeTempDir("stats");
  int calls = 0;
  ASSERT_TRUE(openStore(root)->getOrCompile(sampleJob(), counting(&calls)).ok());
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(runInChild([&] {
                auto s = Store::open(optionsFor(root));
                int n = 0;
                auto r = (*s)->getOrCompile(sampleJob(), counting(&n));
                return r && r->outcome == Outcome::kHit ? 0 : 1;
              }),
              0);
  Expected<CacheCounters> c = openStore(root)->counters();
  EXPECT_EQ(c->hits, 4);
  EXPECT_EQ(c->misses, 1);
  EXPECT_EQ(c->compiles, 1);
}

TEST(StoreTest, CorruptCountersFileIsToleratedNotFatal) {
  std::string root = makeTempDir("stats");
  auto store = openStore(root);
  writeFileOrDie(root + "/stats/counters", std::string("\xff\x00garbage\nhits x\n", 17));
  int calls = 0;
  ASSERT_TRUE(store->getOrCompile(sampleJob(), counting(&calls)).ok());
  Expected<CacheCounters> c = store->counters();
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->compiles, 1);
}

} // namespace
} // namespace kiln::cache
