//===- CompileListenerTest.cpp - compile telemetry through a listener -----===//
//
// runCompile() reports every backend stage, then the compile (or the cache
// hit) to CompileOptions::listener. Needs ptxas and libdevice like the lit
// tests (skips with a message where they are missing); no GPU.
//
//===----------------------------------------------------------------------===//

#include "tools/kiln/CompileCommand.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace {

const char *kVadd = R"(tt.func public @vadd(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
  %c = arith.constant 128 : i32
  %pid = tt.get_program_id x : i32
  %base = arith.muli %pid, %c : i32
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %b = tt.splat %base : i32 -> tensor<128xi32>
  %o = arith.addi %b, %r : tensor<128xi32>
  %nn = tt.splat %n : i32 -> tensor<128xi32>
  %m = arith.cmpi slt, %o, %nn : tensor<128xi32>
  %p = tt.splat %x : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  %q = tt.addptr %p, %o : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  %v = tt.load %q, %m : tensor<128x!tt.ptr<f32>>
  %w = arith.addf %v, %v : tensor<128xf32>
  tt.store %q, %w, %m : tensor<128x!tt.ptr<f32>>
  tt.return
}
)";

class CompileListener : public ::testing::Test {
protected:
  void SetUp() override {
    if (!llvm::sys::findProgramByName("ptxas"))
      GTEST_SKIP() << "skipped: ptxas is not on PATH (CUDA toolkit needed)";
    llvm::SmallString<128> dir;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("kiln-listener", dir));
    root = std::string(dir);
    input = root + "/vadd.ttir";
    std::error_code ec;
    llvm::raw_fd_ostream os(input, ec);
    ASSERT_FALSE(ec);
    os << kVadd;
  }

  kiln::tool::CompileOptions options(const std::string &out) {
    kiln::tool::CompileOptions o;
    o.inputFile = input;
    o.outputDir = root + "/" + out;
    o.cacheDir = root + "/cache";
    o.quiet = true;
    o.listener = [this](const kiln::tool::CompileEvent &e) {
      events.push_back(e);
    };
    return o;
  }

  std::string root, input;
  std::vector<kiln::tool::CompileEvent> events;
};

TEST_F(CompileListener, ReportsEveryStageThenTheCompile) {
  kiln::tool::CompileOutcome outcome;
  ASSERT_EQ(kiln::tool::runCompile(options("o1"), &outcome), 0);
  std::vector<std::string> stages;
  for (const auto &e : events)
    if (e.kind == "stage")
      stages.push_back(e.stage);
  EXPECT_EQ(stages, (std::vector<std::string>{"parse", "pipeline", "translate",
                                              "link", "optimize", "codegen",
                                              "ptxas", "write"}));
  ASSERT_FALSE(events.empty());
  const auto &last = events.back();
  EXPECT_EQ(last.kind, "compiled");
  EXPECT_EQ(last.kernel, "vadd");
  EXPECT_EQ(last.target, "cuda/sm_90");
  EXPECT_EQ(last.jobKey, outcome.jobKey);
  EXPECT_EQ(last.jobKey.size(), 64u);
  int64_t sum = 0;
  for (const auto &e : events)
    if (e.kind == "stage") {
      EXPECT_GE(e.durationUs, 0) << e.stage;
      sum += e.durationUs;
    }
  EXPECT_GE(last.durationUs, sum);
  EXPECT_GT(events[6].durationUs, 0) << "ptxas ran";
}

TEST_F(CompileListener, ReportsACacheHit) {
  ASSERT_EQ(kiln::tool::runCompile(options("o1")), 0);
  events.clear();
  kiln::tool::CompileOutcome outcome;
  ASSERT_EQ(kiln::tool::runCompile(options("o2"), &outcome), 0);
  ASSERT_TRUE(outcome.cacheHit);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, "cache_hit");
  EXPECT_EQ(events[0].jobKey, outcome.jobKey);
  EXPECT_EQ(events[0].target, "cuda/sm_90");
}

} // namespace
