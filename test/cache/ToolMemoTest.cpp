// ToolMemoTest.cpp: the memo of toolchain file facts (cache/ToolMemo.h): a
// settled, unchanged file is answered from the memo; any change to the file
// (rewritten in place with the same size, resized, replaced by a rename,
// mtime reset) makes it a miss; a file that has not settled, a failing
// computation, an unwritable root and a torn memo are never served.
#include "cache/ToolMemo.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <thread>

#include "CacheTestUtil.h"
#include "cache/FileUtil.h"

namespace kiln::cache {
namespace {

using testing::makeTempDir;
using testing::readFileOrEmpty;
using testing::writeFileOrDie;

MemoOptions settled() {
  MemoOptions options;
  options.settleNs = 0;
  return options;
}

/// Calls memoizedFileFact with a computation that counts its runs and
/// returns "<prefix><file contents>".
struct Fact {
  std::string root, path, kind = "tool-version";
  int computed = 0;

  std::string get(const MemoOptions& options = settled()) {
    Expected<std::string> value = memoizedFileFact(
        root, kind, path,
        [&]() -> Expected<std::string> {
          ++computed;
          return "version of " + readFileOrEmpty(path);
        },
        options);
    EXPECT_TRUE(value.ok()) << value.status().toString();
    return value.ok() ? *value : "";
  }
};

/// Timestamps have a clock tick's resolution; let the next write get a new one.
void nextTick() { std::this_thread::sleep_for(std::chrono::milliseconds(20)); }

class ToolMemoTest : public ::testing::Test {
protected:
  void SetUp() override {
    dir = makeTempDir("tool-memo");
    fact.root = fs::join(dir, "root");
    fact.path = fs::join(dir, "ptxas");
    writeFileOrDie(fact.path, "A1");
  }
  std::string dir;
  Fact fact;
};

TEST_F(ToolMemoTest, UnchangedFileIsServedFromTheMemo) {
  EXPECT_EQ(fact.get(), "version of A1");
  EXPECT_EQ(fact.get(), "version of A1");
  EXPECT_EQ(fact.computed, 1);
  // The memo is one file under tools/, holding no path.
  std::vector<std::string> files = fs::listDir(fs::join(fact.root, "tools"));
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(fs::join(fs::join(fact.root, "tools"), files[0]),
            memoPath(fact.root, fact.kind, fact.path));
  EXPECT_EQ(readFileOrEmpty(memoPath(fact.root, fact.kind, fact.path)).find(dir),
            std::string::npos);
}

TEST_F(ToolMemoTest, SameSizeRewriteInPlaceIsAMiss) {
  EXPECT_EQ(fact.get(), "version of A1");
  Expected<FileStamp> before = stampOf(fact.path);
  nextTick();
  writeFileOrDie(fact.path, "B2");  // truncated and rewritten: same inode, same size
  Expected<FileStamp> after = stampOf(fact.path);
  ASSERT_TRUE(before.ok() && after.ok());
  EXPECT_EQ(before->inode, after->inode);
  EXPECT_EQ(before->size, after->size);
  EXPECT_EQ(fact.get(), "version of B2");
  EXPECT_EQ(fact.computed, 2);
  EXPECT_EQ(fact.get(), "version of B2");
  EXPECT_EQ(fact.computed, 2);
}

TEST_F(ToolMemoTest, ResizedFileIsAMiss) {
  EXPECT_EQ(fact.get(), "version of A1");
  writeFileOrDie(fact.path, "A1 and more");
  EXPECT_EQ(fact.get(), "version of A1 and more");
  EXPECT_EQ(fact.computed, 2);
}

TEST_F(ToolMemoTest, FileReplacedByRenameIsAMiss) {
  EXPECT_EQ(fact.get(), "version of A1");
  std::string staged = fs::join(dir, "ptxas.new");
  writeFileOrDie(staged, "C3");
  ASSERT_EQ(::rename(staged.c_str(), fact.path.c_str()), 0);
  EXPECT_EQ(fact.get(), "version of C3");
  EXPECT_EQ(fact.computed, 2);
}

TEST_F(ToolMemoTest, ResetModificationTimeIsStillAMiss) {
  struct stat before {};
  ASSERT_EQ(::stat(fact.path.c_str(), &before), 0);
  EXPECT_EQ(fact.get(), "version of A1");
  nextTick();
  writeFileOrDie(fact.path, "D4");
  // Put the old mtime back (as `cp -p` or `touch -d` would): ctime moves on.
  timespec times[2] = {before.st_atim, before.st_mtim};
  ASSERT_EQ(::utimensat(AT_FDCWD, fact.path.c_str(), times, 0), 0);
  EXPECT_EQ(fact.get(), "version of D4");
  EXPECT_EQ(fact.computed, 2);
}

TEST_F(ToolMemoTest, UnsettledFileIsNotStored) {
  MemoOptions options;  // the default settle time: the file was just written
  EXPECT_EQ(fact.get(options), "version of A1");
  EXPECT_EQ(fact.get(options), "version of A1");
  EXPECT_EQ(fact.computed, 2);
  EXPECT_FALSE(fs::isDir(fs::join(fact.root, "tools")) &&
               !fs::listDir(fs::join(fact.root, "tools")).empty());
}

TEST_F(ToolMemoTest, KindsAndPathsAreSeparate) {
  EXPECT_EQ(fact.get(), "version of A1");
  fact.kind = "sha256";
  EXPECT_EQ(fact.get(), "version of A1");
  EXPECT_EQ(fact.computed, 2);
  std::string other = fs::join(dir, "other");
  writeFileOrDie(other, "A1");
  fact.path = other;
  fact.get();
  EXPECT_EQ(fact.computed, 3);
}

TEST_F(ToolMemoTest, ErrorsAreReturnedAndNotStored) {
  int calls = 0;
  auto failing = [&]() -> Expected<std::string> {
    ++calls;
    return Status(StatusCode::kSubprocess, "ptxas --version: exit status 1");
  };
  for (int i = 0; i < 2; ++i) {
    Expected<std::string> value = memoizedFileFact(fact.root, fact.kind, fact.path, failing,
                                                   settled());
    ASSERT_FALSE(value.ok());
    EXPECT_EQ(value.status().message(), "ptxas --version: exit status 1");
  }
  EXPECT_EQ(calls, 2);
}

TEST_F(ToolMemoTest, MissingFileOrNoRootComputesEveryTime) {
  fact.root = "";
  fact.get();
  fact.get();
  EXPECT_EQ(fact.computed, 2);
  fact.root = fs::join(dir, "root");
  fact.path = fs::join(dir, "absent");
  fact.get();
  fact.get();
  EXPECT_EQ(fact.computed, 4);
}

TEST_F(ToolMemoTest, TornOrForeignMemoIsAMiss) {
  EXPECT_EQ(fact.get(), "version of A1");
  std::string memo = memoPath(fact.root, fact.kind, fact.path);
  std::string text = readFileOrEmpty(memo);
  writeFileOrDie(memo, text.substr(0, text.size() / 2));
  EXPECT_EQ(fact.get(), "version of A1");
  EXPECT_EQ(fact.computed, 2);
  // A memo of another kind under this name is not trusted either.
  writeFileOrDie(memo, "{\"format\":1,\"kind\":\"sha256\",\"stamp\":{},\"value\":\"x\"}");
  EXPECT_EQ(fact.get(), "version of A1");
  EXPECT_EQ(fact.computed, 3);
}

TEST_F(ToolMemoTest, UnwritableRootStillComputes) {
  std::string file = fs::join(dir, "not-a-dir");
  writeFileOrDie(file, "");
  fact.root = fs::join(file, "root");
  EXPECT_EQ(fact.get(), "version of A1");
  EXPECT_EQ(fact.get(), "version of A1");
  EXPECT_EQ(fact.computed, 2);
}

}  // namespace
}  // namespace kiln::cache
