// ConcurrencyTest.cpp: single-flight under 8 processes x 50 rounds, keys
// that never wait on each other, and kill -9 at every publish step (no
// partial entry is ever visible; gc collects the garbage; the key's lock
// dies with its holder).
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "cache/Store.h"
#include "test/cache/CacheTestUtil.h"

namespace kiln::cache {
namespace {

using namespace kiln::cache::testing;

/// A compile that appends one byte to `counter` (O_APPEND: atomic across
/// processes) and takes `sleepMs`, widening the race window.
std::function<Expected<CompileOutput>()> countingInFile(const std::string& counter, int sleepMs) {
  return [counter, sleepMs] {
    int fd = ::open(counter.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd >= 0) {
      (void)!::write(fd, "x", 1);
      ::close(fd);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(sleepMs));
    return Expected<CompileOutput>(sampleOutput());
  };
}

TEST(ConcurrencyTest, EightProcessesFiftyRoundsOneCompileEach) {
  std::string base = makeTempDir("stress");
  const int kProcesses = 8, kRounds = 50;
  int wrongCompileCounts = 0, childErrors = 0;
  for (int round = 0; round < kRounds; ++round) {
    std::string root = base + "/r" + std::to_string(round); // empty cache each round
    std::string counter = base + "/count" + std::to_string(round);
    int gate[2];
    ASSERT_EQ(::pipe(gate), 0);
    std::vector<pid_t> pids;
    for (int p = 0; p < kProcesses; ++p) {
      pid_t pid = ::fork();
      if (pid == 0) {
        ::close(gate[1]);
        char c;
        (void)!::read(gate[0], &c, 1); // EOF when the parent closes: all start at once
        Expected<std::unique_ptr<Store>> store = Store::open(optionsFor(root));
        if (!store)
          ::_exit(2);
        Expected<CacheResult> r = (*store)->getOrCompile(sampleJob(), countingInFile(counter, 20));
        if (!r || r->artifacts != sampleOutput().artifacts || r->outcome == Outcome::kCompiledUnpublished)
          ::_exit(3);
        ::_exit(0);
      }
      pids.push_back(pid);
    }
    ::close(gate[0]);
    ::close(gate[1]);
    for (pid_t pid : pids) {
      int status = 0;
      ::waitpid(pid, &status, 0);
      if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        ++childErrors;
    }
    if (readFileOrEmpty(counter).size() != 1)
      ++wrongCompileCounts;
  }
  EXPECT_EQ(childErrors, 0);
  EXPECT_EQ(wrongCompileCounts, 0);
  Expected<std::unique_ptr<Store>> last = Store::open(optionsFor(base + "/r0"));
  Expected<CacheCounters> c = (*last)->counters();
  EXPECT_EQ(c->compiles, 1);
  EXPECT_EQ(c->hits, kProcesses - 1);
}

TEST(ConcurrencyTest, DifferentKeysDoNotWaitOnEachOther) {
  std::string root = makeTempDir("keys");
  Expected<std::unique_ptr<Store>> store = Store::open(optionsFor(root));
  ASSERT_TRUE(store.ok());
  // Another process is compiling key 0 (holds its lock) for 3 s.
  std::string lockFile = root + "/locks/" + sampleJob(0).key() + ".lock";
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  pid_t pid = ::fork();
  if (pid == 0) {
    int fd = ::open(lockFile.c_str(), O_RDWR | O_CREAT, 0644);
    ::flock(fd, LOCK_EX);
    (void)!::write(ready[1], "r", 1);
    ::sleep(3);
    ::_exit(0);
  }
  char c;
  ASSERT_EQ(::read(ready[0], &c, 1), 1);
  auto start = std::chrono::steady_clock::now();
  int calls = 0;
  Expected<CacheResult> r = (*store)->getOrCompile(sampleJob(1), [&] {
    ++calls;
    return Expected<CompileOutput>(sampleOutput());
  });
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(r.ok());
  EXPECT_LT(seconds, 1.0);
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
}

class KillDuringPublishTest : public ::testing::TestWithParam<const char*> {};

TEST_P(KillDuringPublishTest, LeavesNoPartialEntryAndGcCleansUp) {
  const std::string point = GetParam();
  std::string root = makeTempDir("kill");
  std::string marker = root + ".paused";
  pid_t pid = ::fork();
  if (pid == 0) {
    StoreOptions options = optionsFor(root);
    options.hooks.fault = [&](std::string_view p) {
      if (p == point) {
        int fd = ::open(marker.c_str(), O_WRONLY | O_CREAT, 0644);
        ::close(fd);
        ::sleep(60); // killed here
      }
      return 0;
    };
    Expected<std::unique_ptr<Store>> store = Store::open(options);
    int n = 0;
    (void)(*store)->getOrCompile(sampleJob(), [&] {
      ++n;
      return Expected<CompileOutput>(sampleOutput());
    });
    ::_exit(0);
  }
  for (int i = 0; i < 1000 && ::access(marker.c_str(), F_OK) != 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_EQ(::access(marker.c_str(), F_OK), 0) << "the child never reached " << point;
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);

  Expected<std::unique_ptr<Store>> store = Store::open(optionsFor(root));
  ASSERT_TRUE(store.ok());
  bool renamed = point == "publish-renamed";
  // No partial entry: either none, or a complete, verified one.
  std::vector<EntryInfo> entries = (*store)->list();
  EXPECT_EQ(entries.size(), renamed ? 1u : 0u);
  Expected<CacheResult> lookup = (*store)->lookup(sampleJob().key());
  EXPECT_EQ(lookup.ok(), renamed);
  // The dead process's lock is gone with it: the next compile does not hang.
  int calls = 0;
  Expected<CacheResult> r = (*store)->getOrCompile(sampleJob(), [&] {
    ++calls;
    return Expected<CompileOutput>(sampleOutput());
  });
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(calls, renamed ? 0 : 1);
  GcOptions gc;
  gc.tmpMaxAgeSeconds = 0;
  (*store)->gc(gc);
  EXPECT_TRUE((*store)->verify().problems.empty());
  int leftovers = 0;
  for (const std::string& name : {std::string("tmp")}) {
    std::string dir = root + "/" + name;
    (void)name;
    if (DIR* d = ::opendir(dir.c_str())) {
      while (dirent* e = ::readdir(d))
        if (e->d_name[0] != '.')
          ++leftovers;
      ::closedir(d);
    }
  }
  EXPECT_EQ(leftovers, 0);
}

INSTANTIATE_TEST_SUITE_P(Points, KillDuringPublishTest,
                         ::testing::Values("publish-stage", "publish-artifact", "publish-manifest",
                                           "publish-rename", "publish-renamed"),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           std::string name = info.param;
                           for (char& ch : name)
                             if (ch == '-')
                               ch = '_';
                           return name;
                         });

} // namespace
} // namespace kiln::cache
