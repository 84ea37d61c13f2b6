//===- FuzzRegressionTest.cpp - saved fuzzer crashers stay fixed ----------===//

#include "tools/fuzz/TTIRParseFuzzer.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

std::vector<std::string> crasherFiles() {
  std::vector<std::string> files;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it("test/fuzz/crashers", ec), end;
       it != end && !ec; it.increment(ec))
    if (llvm::sys::path::filename(it->path()) != "README.md")
      files.push_back(it->path());
  std::sort(files.begin(), files.end());
  return files;
}

class Crasher : public ::testing::TestWithParam<std::string> {};

TEST_P(Crasher, IsRejectedOrRoundTrips) {
  auto buffer = llvm::MemoryBuffer::getFile(GetParam());
  ASSERT_TRUE(buffer) << "cannot read " << GetParam();
  auto outcome =
      kiln::fuzz::parseVerifyPrintReparse((*buffer)->getBuffer());
  EXPECT_NE(outcome, kiln::fuzz::ParseOutcome::PrintedTextDoesNotParse)
      << GetParam();
}

// Empty until the fuzzer finds something.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Crasher);

INSTANTIATE_TEST_SUITE_P(
    SavedInputs, Crasher, ::testing::ValuesIn(crasherFiles()),
    [](const ::testing::TestParamInfo<std::string> &info) {
      std::string name = llvm::sys::path::stem(info.param).str();
      for (char &c : name)
        if (!isalnum(static_cast<unsigned char>(c)))
          c = '_';
      return name;
    });

TEST(FuzzEntryPoint, AcceptsAValidKernel) {
  const char *text = R"(tt.func public @k(%p: !tt.ptr<f32>) {
    %c = arith.constant 1.0 : f32
    tt.store %p, %c : !tt.ptr<f32>
    tt.return
  })";
  EXPECT_EQ(kiln::fuzz::parseVerifyPrintReparse(text),
            kiln::fuzz::ParseOutcome::Accepted);
}

TEST(FuzzEntryPoint, RejectsGarbage) {
  EXPECT_EQ(kiln::fuzz::parseVerifyPrintReparse("tt.func @\x80 {"),
            kiln::fuzz::ParseOutcome::Rejected);
}

} // namespace
