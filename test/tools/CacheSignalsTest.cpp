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
#include <random>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using namespace kiln::cache;
using namespace kiln::cache::testing;

// A child publishes entries in a loop (each staged in ROOT/tmp, written,
// fsynced and renamed into place) until a SIGINT at a random moment ends
// it; whatever it was doing, ROOT/tmp is left empty. Without the hooks
// (removeCacheTemporariesOnSignal not called), three runs of this test left
// 30, 38 and 39 pub-* folders there (of 40 trials each).
TEST(CacheSignals, ASignalDuringPublishesLeavesNoStagingFolder) {
  std::string root = makeTempDir("cache-signals");
  std::mt19937 random(20261203);
  std::uniform_int_distribution<int> delayUs(2000, 20000);
  int endedBySignal = 0;
  constexpr int kTrials = 40;
  for (int trial = 0; trial < kTrials; ++trial) {
    pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      kiln::tool::removeCacheTemporariesOnSignal();
      Expected<std::unique_ptr<Store>> store = Store::open(optionsFor(root));
      if (!store)
        ::_exit(3);
      CompileOutput output = sampleOutput(64 << 10);
      for (int i = 0;; ++i)
        (void)(*store)->publish(sampleJob(trial * 100000 + i), output);
    }
    ::usleep(delayUs(random));
    ::kill(child, SIGINT);
    int status = 0;
    while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGINT)
      ++endedBySignal;
    else
      ADD_FAILURE() << "the child ended with status " << status;
  }
  EXPECT_EQ(endedBySignal, kTrials);
  std::vector<std::string> left = fs::listDir(fs::join(root, "tmp"));
  EXPECT_THAT(left, ::testing::IsEmpty()) << "left in tmp/: " << left.size();
  // The entries the children published are whole.
  Expected<std::unique_ptr<Store>> store = Store::open(optionsFor(root));
  ASSERT_TRUE(store.ok());
  EXPECT_FALSE((*store)->list().empty());
  for (const EntryInfo& e : (*store)->list())
    EXPECT_TRUE((*store)->lookup(e.key).ok()) << e.key;
  fs::removeTree(root);
}

} // namespace
