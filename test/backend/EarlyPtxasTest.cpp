//===- EarlyPtxasTest.cpp - the load-time ptxas, kept or replaced ---------===//
//
// startPtxasAtLoad starts ptxas from a guess at its command line (argv);
// takePtxasStartedAtLoad keeps it only when it runs what the parsed options
// ask for, and otherwise kills it and removes its files. No command line
// makes the guess differ from CLI11's parse since integer options take
// decimal digits only (`--maxnreg 0x20` did), so the replacement is checked
// here by handing options that differ. Needs ptxas (skips with a message
// where it is missing); no GPU.
//
//===----------------------------------------------------------------------===//

#include "tools/kiln/EarlyPtxas.h"

#include "pipelines/nvptx/NVPTXBackend.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

std::vector<std::string> entries(const std::string &dir) {
  std::vector<std::string> names;
  if (DIR *d = opendir(dir.c_str())) {
    while (dirent *e = readdir(d))
      if (std::string(e->d_name) != "." && std::string(e->d_name) != "..")
        names.push_back(e->d_name);
    closedir(d);
  }
  return names;
}

/// Children of this process still there (not reaped).
int children() {
  int count = 0;
  for (const std::string &pid : entries("/proc")) {
    if (pid.find_first_not_of("0123456789") != std::string::npos)
      continue;
    std::ifstream stat("/proc/" + pid + "/stat");
    std::string line;
    std::getline(stat, line);
    size_t close = line.rfind(')');
    if (close == std::string::npos)
      continue;
    char state = 0;
    int ppid = 0;
    if (std::sscanf(line.c_str() + close + 1, " %c %d", &state, &ppid) == 2 &&
        ppid == getpid())
      ++count;
  }
  return count;
}

class EarlyPtxasTest : public ::testing::TestWithParam<const char *> {
protected:
  void SetUp() override {
    llvm::Expected<std::string> ptxas = kiln::nvptx::findPtxas("");
    if (!ptxas) {
      std::string why = llvm::toString(ptxas.takeError());
      GTEST_SKIP() << "no ptxas: " << why;
    }
    ptxasPath = *ptxas;
    // A TMPDIR of its own per test, under the one the test started with.
    const char *previous = std::getenv("TMPDIR");
    savedTmpdir = previous ? previous : "";
    hadTmpdir = previous != nullptr;
    llvm::SmallString<128> dir;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("early-ptxas", dir));
    tmp = std::string(dir);
    setenv("TMPDIR", tmp.c_str(), 1);
    setenv("KILN_PTXAS_EARLY", GetParam(), 1);
  }
  void TearDown() override {
    unsetenv("KILN_PTXAS_EARLY");
    if (hadTmpdir)
      setenv("TMPDIR", savedTmpdir.c_str(), 1);
    else
      unsetenv("TMPDIR");
    if (!tmp.empty())
      llvm::sys::fs::remove_directories(tmp);
  }

  /// `kiln compile k.ttir --no-cache --maxnreg 32`, as argv.
  void startAtLoad() {
    const char *args[] = {"kiln",       "compile",   "k.ttir",
                          "--no-cache", "--maxnreg", "32"};
    kiln::tool::startPtxasAtLoad(6, const_cast<char **>(args));
  }

  kiln::nvptx::NVPTXBackendOptions options(int maxnreg) {
    kiln::nvptx::NVPTXBackendOptions result;
    result.arch = "sm_90";
    result.ptxasPath = ptxasPath;
    result.ptxasExtraArgs.push_back("--maxrregcount=" +
                                    std::to_string(maxnreg));
    return result;
  }

  std::string ptxasPath, tmp, savedTmpdir;
  bool hadTmpdir = false;
};

TEST_P(EarlyPtxasTest, KeptWhenItRunsWhatTheOptionsAskFor) {
  startAtLoad();
  std::unique_ptr<kiln::nvptx::PtxasProcess> taken =
      kiln::tool::takePtxasStartedAtLoad(ptxasPath, options(32));
  ASSERT_NE(taken, nullptr);
  EXPECT_TRUE(taken->startedEarly());
  EXPECT_FALSE(entries(tmp).empty()); // its .log and input FIFO
  // A second take finds none.
  EXPECT_EQ(kiln::tool::takePtxasStartedAtLoad(ptxasPath, options(32)),
            nullptr);
  taken.reset(); // kills and reaps it, removes its files
  EXPECT_TRUE(entries(tmp).empty());
  EXPECT_EQ(children(), 0);
}

TEST_P(EarlyPtxasTest, KilledWhenTheOptionsDiffer) {
  startAtLoad();
  EXPECT_EQ(kiln::tool::takePtxasStartedAtLoad(ptxasPath, options(40)),
            nullptr);
  EXPECT_TRUE(entries(tmp).empty());
  EXPECT_EQ(children(), 0);
}

TEST_P(EarlyPtxasTest, DiscardedWhenNothingTakesIt) {
  startAtLoad();
  kiln::tool::discardPtxasStartedAtLoad();
  kiln::tool::discardPtxasStartedAtLoad(); // any number of times
  EXPECT_TRUE(entries(tmp).empty());
  EXPECT_EQ(children(), 0);
}

// On this thread, and on a thread of its own (load-thread).
INSTANTIATE_TEST_SUITE_P(Starts, EarlyPtxasTest,
                         ::testing::Values("1", "load-thread"));

} // namespace
