// readBytecodeAttrTypeCounts (tools/common/NestingDepth.h) on bytecode
// built byte by byte: the counts it declares, and no read past the end of
// a truncated or malformed file.
#include "tools/common/NestingDepth.h"

#include "gtest/gtest.h"

#include <string>

namespace {
using kiln::tool::readBytecodeAttrTypeCounts;

/// MLIR bytecode's prefixed varint (mlir/Bytecode/Encoding.h): one byte
/// for values below 2^7, two below 2^14, ...; 9 bytes (a 0 first) above
/// 2^56.
std::string varInt(uint64_t value) {
  for (unsigned bytes = 1; bytes <= 8; ++bytes) {
    if (value >= (uint64_t(1) << (7 * bytes)))
      continue;
    uint64_t encoded = (value << bytes) | (uint64_t(1) << (bytes - 1));
    std::string out;
    for (unsigned i = 0; i < bytes; ++i)
      out += static_cast<char>((encoded >> (8 * i)) & 0xFF);
    return out;
  }
  std::string out(1, '\0');
  for (unsigned i = 0; i < 8; ++i)
    out += static_cast<char>((value >> (8 * i)) & 0xFF);
  return out;
}

std::string header() {
  return std::string("ML\xEFR", 4) + varInt(6) + std::string("kiln\0", 5);
}

std::string section(uint8_t id, const std::string &data) {
  return std::string(1, static_cast<char>(id)) + varInt(data.size()) + data;
}

TEST(BytecodeCounts, ReadsTheAttrTypeOffsetSection) {
  std::string file = header() + section(1, "dialects") +
                     section(3, varInt(420) + varInt(30) + "offsets") +
                     section(2, "entries");
  auto counts = readBytecodeAttrTypeCounts(file);
  ASSERT_TRUE(counts.has_value());
  EXPECT_EQ(counts->attributes, 420u);
  EXPECT_EQ(counts->types, 30u);
}

TEST(BytecodeCounts, LargeCountsInWideVarInts) {
  std::string file =
      header() + section(3, varInt(uint64_t(1) << 40) + varInt(70000));
  auto counts = readBytecodeAttrTypeCounts(file);
  ASSERT_TRUE(counts.has_value());
  EXPECT_EQ(counts->attributes, uint64_t(1) << 40);
  EXPECT_EQ(counts->types, 70000u);
  std::string nine = header() + section(3, varInt(~uint64_t(0)) + varInt(1));
  ASSERT_TRUE(readBytecodeAttrTypeCounts(nine).has_value());
  EXPECT_EQ(readBytecodeAttrTypeCounts(nine)->attributes, ~uint64_t(0));
}

TEST(BytecodeCounts, AlignedSectionAfterPadding) {
  std::string before = header() + section(1, "d");
  // Id with the alignment bit, length, alignment 8, then 0xCB padding up to
  // an offset that is a multiple of 8.
  std::string data = varInt(5) + varInt(6);
  std::string file = before + std::string(1, static_cast<char>(0x83)) +
                     varInt(data.size()) + varInt(8);
  while (file.size() % 8 != 0)
    file += '\xCB';
  file += data;
  auto counts = readBytecodeAttrTypeCounts(file);
  ASSERT_TRUE(counts.has_value());
  EXPECT_EQ(counts->attributes, 5u);
  EXPECT_EQ(counts->types, 6u);
}

TEST(BytecodeCounts, NotBytecodeOrNoSectionOrMalformed) {
  EXPECT_FALSE(readBytecodeAttrTypeCounts("module {}").has_value());
  EXPECT_FALSE(readBytecodeAttrTypeCounts(header() + section(1, "d")));
  // A section longer than the file.
  std::string longer = header() + std::string(1, '\x01') + varInt(1000) + "x";
  EXPECT_FALSE(readBytecodeAttrTypeCounts(longer).has_value());
  // Padding that is not 0xCB.
  std::string file = header() + std::string(1, static_cast<char>(0x83)) +
                     varInt(2) + varInt(64);
  file += std::string(64, '\x00');
  EXPECT_FALSE(readBytecodeAttrTypeCounts(file).has_value());
}

TEST(BytecodeCounts, SaysWhatItCannotRead) {
  std::string problem;
  // An alignment MLIR's reader would truncate to 32 bits (helper-91: 2^32 +
  // 1 read as 1 there, and the count check was skipped).
  std::string odd = header() + std::string(1, static_cast<char>(0x83)) +
                    varInt(2) + varInt((uint64_t(1) << 32) + 1) + varInt(1) +
                    varInt(2);
  EXPECT_FALSE(readBytecodeAttrTypeCounts(odd, &problem).has_value());
  EXPECT_EQ(problem, "a section's alignment is not a power of two up to 4096");
  std::string three = header() + std::string(1, static_cast<char>(0x83)) +
                      varInt(2) + varInt(3) + varInt(1) + varInt(2);
  EXPECT_FALSE(readBytecodeAttrTypeCounts(three, &problem).has_value());
  EXPECT_FALSE(problem.empty());
  std::string longer = header() + std::string(1, '\x01') + varInt(1000) + "x";
  EXPECT_FALSE(readBytecodeAttrTypeCounts(longer, &problem).has_value());
  EXPECT_EQ(problem, "a section is longer than the file");
  // No attribute/type offset section: nothing wrong, no counts.
  EXPECT_FALSE(
      readBytecodeAttrTypeCounts(header() + section(1, "d"), &problem));
  EXPECT_EQ(problem, "");
  EXPECT_FALSE(readBytecodeAttrTypeCounts("module {}", &problem));
  EXPECT_EQ(problem, "");
}

TEST(BytecodeCounts, EveryTruncationEndsCleanly) {
  std::string file = header() + section(1, "dialects") +
                     section(3, varInt(uint64_t(1) << 40) + varInt(300));
  for (size_t size = 0; size < file.size(); ++size) {
    // Counts only where the section's two numbers are whole; never a read
    // past `size` (ASan, in a sanitizer build).
    std::string cut = file.substr(0, size);
    auto counts = readBytecodeAttrTypeCounts(cut);
    if (counts)
      EXPECT_EQ(counts->types, 300u) << "size " << size;
  }
  EXPECT_TRUE(readBytecodeAttrTypeCounts(file).has_value());
}
} // namespace
