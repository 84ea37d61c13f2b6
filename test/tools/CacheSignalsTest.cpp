// CacheSignalsTest.cpp: the compile cache's temporaries go with a signal
// that ends the process, once a tool has handed them to kiln's signal
// cleanup (tools/common/CacheSignals.h, as kiln's main does). The export and
// import cases (tar's temporaries) are in test/cache/cli.test.
#include "cache/FileUtil.h"
#include "cache/Store.h"
#include "test/cache/CacheTestUtil.h"
#include "tools/common/CacheSignals.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cerrno>
#include <csignal>
#include <poll.h>
#include <random>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using namespace kiln::cache;
using namespace kiln::cache::testing;

// A child publishes entries in a loop (each staged in ROOT/tmp, written,
// fsynced and renamed into place) until a SIGINT at a random moment after
// its first publish ends it; whatever it was doing, ROOT/tmp is left empty
// and the entries in place are whole. Without the hooks
// (removeCacheTemporariesOnSignal not called), four runs of this test left
// 30, 34, 38 and 39 pub-* folders there (of 40 trials each).
TEST(CacheSignals, ASignalDuringPublishesLeavesNoStagingFolder) {
  std::string root = makeTempDir("cache-signals");
  std::mt19937 random(20261203);
  std::uniform_int_distribution<int> delayUs(0, 8000);
  int endedBySignal = 0;
  constexpr int kTrials = 40;
  for (int trial = 0; trial < kTrials; ++trial) {
    int ready[2];
    ASSERT_EQ(::pipe(ready), 0);
    pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      ::close(ready[0]);
      kiln::tool::removeCacheTemporariesOnSignal();
      Expected<std::unique_ptr<Store>> store = Store::open(optionsFor(root));
      if (!store)
        ::_exit(3);
      CompileOutput output = sampleOutput(64 << 10);
      for (int i = 0;; ++i) {
        (void)(*store)->publish(sampleJob(trial * 100000 + i), output);
        if (i == 0) {
          // The parent's random delay starts once publishing is under
          // way (on a loaded machine the first publish can take longer
          // than the whole delay).
          char byte = 1;
          (void)!::write(ready[1], &byte, 1);
          ::close(ready[1]);
        }
      }
    }
    ::close(ready[1]);
    char byte = 0;
    pollfd wait = {ready[0], POLLIN, 0};
    ASSERT_EQ(::poll(&wait, 1, 30000), 1) << "the child published nothing in 30 s";
    ASSERT_EQ(::read(ready[0], &byte, 1), 1);
    ::close(ready[0]);
    ::usleep(delayUs(random));
    int status = 0;
    if (interruptAndReap(child, SIGINT, &status))
      ++endedBySignal;
    else
      ADD_FAILURE() << "the child ended with status " << status;
  }
  EXPECT_EQ(endedBySignal, kTrials);
  std::vector<std::string> left = fs::listDir(fs::join(root, "tmp"));
  EXPECT_THAT(left, ::testing::IsEmpty()) << "left in tmp/: " << left.size();
  // Each child published at least once; the entries in place are whole.
  Expected<std::unique_ptr<Store>> store = Store::open(optionsFor(root));
  ASSERT_TRUE(store.ok());
  std::vector<EntryInfo> entries = (*store)->list();
  EXPECT_GE(entries.size(), size_t(kTrials));
  for (const EntryInfo& e : entries)
    EXPECT_TRUE((*store)->lookup(e.key).ok()) << e.key;
  fs::removeTree(root);
}

} // namespace
