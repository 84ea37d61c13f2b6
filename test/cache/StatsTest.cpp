// StatsTest.cpp: the cross-process counter file, global and per target.
#include <gtest/gtest.h>

#include "cache/Stats.h"
#include "cache/FileUtil.h"
#include "test/cache/CacheTestUtil.h"

namespace kiln::cache {
namespace {

using namespace kiln::cache::testing;

CacheCounters delta(int64_t hits, int64_t misses, int64_t compiles) {
  CacheCounters c;
  c.hits = hits;
  c.misses = misses;
  c.compiles = compiles;
  return c;
}

TEST(Stats, ScopedCountersAddUpPerTargetAndGlobally) {
  std::string dir = makeTempDir("stats");
  ASSERT_TRUE(updateCounters(dir, delta(0, 1, 1), -1, "cuda/sm_90"));
  ASSERT_TRUE(updateCounters(dir, delta(1, 0, 0), -1, "cuda/sm_90"));
  ASSERT_TRUE(updateCounters(dir, delta(0, 1, 1), -1, "hip/gfx942"));
  ASSERT_TRUE(updateCounters(dir, delta(1, 0, 0)));  // no scope: global only
  Expected<CacheCounters> global = readCounters(dir);
  ASSERT_TRUE(global);
  EXPECT_EQ(global->hits, 2);
  EXPECT_EQ(global->misses, 2);
  EXPECT_EQ(global->compiles, 2);
  auto scoped = readScopedCounters(dir);
  ASSERT_TRUE(scoped);
  ASSERT_EQ(scoped->size(), 2u);
  EXPECT_EQ(scoped->at("cuda/sm_90").hits, 1);
  EXPECT_EQ(scoped->at("cuda/sm_90").misses, 1);
  EXPECT_EQ(scoped->at("cuda/sm_90").compiles, 1);
  EXPECT_EQ(scoped->at("hip/gfx942").compiles, 1);
  EXPECT_EQ(scoped->at("hip/gfx942").hits, 0);
}

TEST(Stats, ScopesThatWouldBreakTheFileAreNotRecorded) {
  std::string dir = makeTempDir("stats-bad-scope");
  ASSERT_TRUE(updateCounters(dir, delta(1, 0, 0), -1, "cuda/sm 90"));
  ASSERT_TRUE(updateCounters(dir, delta(1, 0, 0), -1, "a@b"));
  Expected<CacheCounters> global = readCounters(dir);
  ASSERT_TRUE(global);
  EXPECT_EQ(global->hits, 2);  // still counted globally
  auto scoped = readScopedCounters(dir);
  ASSERT_TRUE(scoped);
  EXPECT_TRUE(scoped->empty());
}

TEST(Stats, MissingFileReadsAsZero) {
  std::string dir = makeTempDir("stats-empty");
  auto scoped = readScopedCounters(dir + "/nowhere");
  ASSERT_TRUE(scoped);
  EXPECT_TRUE(scoped->empty());
}

}  // namespace
}  // namespace kiln::cache
