// KernelArgsTest.cpp: the byte layout of every argument type, and argument
// count and type errors.
#include <gtest/gtest.h>

#include <cstring>

#include "runtime/KernelArgs.h"
#include "test/runtime/TestArtifacts.h"

namespace kiln::runtime {
namespace {

KernelMetadata allTypes() {
  KernelMetadata m;
  m.kernel = "all_types";
  const char* types[] = {"ptr<f32>", "i1", "i8", "i16", "i32", "i64",
                         "f16",      "bf16", "f32", "f64"};
  for (int i = 0; i < 10; ++i)
    m.signature.push_back({"a" + std::to_string(i), *parseArgType(types[i])});
  return m;
}

std::vector<uint8_t> bytes(const PackedArgs& p, size_t i) {
  return std::vector<uint8_t>(p.slot(i), p.slot(i) + 8);
}

TEST(KernelArgs, ByteLayoutOfEachType) {
  KernelMetadata m = allTypes();
  KernelArg args[] = {
      KernelArg::devicePtr(0x00007f0011223344ull),
      KernelArg::i1(true),
      KernelArg::i8(-2),
      KernelArg::i16(-3),
      KernelArg::i32(0x12345678),
      KernelArg::i64(-5),
      KernelArg::f16Bits(0x3c00),  // 1.0
      KernelArg::bf16Bits(0x3f80), // 1.0
      KernelArg::f32(1.5f),
      KernelArg::f64(-2.25),
  };
  PackedArgs p;
  ASSERT_TRUE(packArguments(m, args, 10, &p).ok());
  ASSERT_EQ(p.count(), 10u);
  using V = std::vector<uint8_t>;
  EXPECT_EQ(bytes(p, 0), (V{0x44, 0x33, 0x22, 0x11, 0x00, 0x7f, 0, 0}));
  EXPECT_EQ(p.size(0), 8u);
  EXPECT_EQ(bytes(p, 1), (V{1, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(p.size(1), 1u);
  EXPECT_EQ(bytes(p, 2), (V{0xfe, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(p.size(2), 1u);
  EXPECT_EQ(bytes(p, 3), (V{0xfd, 0xff, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(p.size(3), 2u);
  EXPECT_EQ(bytes(p, 4), (V{0x78, 0x56, 0x34, 0x12, 0, 0, 0, 0}));
  EXPECT_EQ(p.size(4), 4u);
  EXPECT_EQ(bytes(p, 5), (V{0xfb, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}));
  EXPECT_EQ(bytes(p, 6), (V{0x00, 0x3c, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(p.size(6), 2u);
  EXPECT_EQ(bytes(p, 7), (V{0x80, 0x3f, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(bytes(p, 8), (V{0x00, 0x00, 0xc0, 0x3f, 0, 0, 0, 0})); // 1.5f
  EXPECT_EQ(p.size(8), 4u);
  double d;
  std::memcpy(&d, p.slot(9), 8);
  EXPECT_EQ(d, -2.25);
  // params() points at the slots, in order.
  for (size_t i = 0; i < p.count(); ++i)
    EXPECT_EQ(p.params()[i], static_cast<const void*>(p.slot(i)));
}

TEST(KernelArgs, HostPointerValueAndNarrowingMasks) {
  KernelMetadata m;
  m.kernel = "k";
  m.signature.push_back({"p", *parseArgType("ptr<i8>")});
  m.signature.push_back({"b", *parseArgType("i1")});
  m.signature.push_back({"h", *parseArgType("i16")});
  int x = 0;
  // Raw bits wider than the type are cut to its size; i1 becomes 0 or 1.
  KernelArg args[] = {KernelArg::ptr(&x), KernelArg::fromBits(ArgKind::kI1, 0x100),
                      KernelArg::fromBits(ArgKind::kI16, 0xabcd1234)};
  PackedArgs p;
  ASSERT_TRUE(packArguments(m, args, 3, &p).ok());
  uint64_t v;
  std::memcpy(&v, p.slot(0), 8);
  EXPECT_EQ(v, reinterpret_cast<uintptr_t>(&x));
  std::memcpy(&v, p.slot(1), 8);
  EXPECT_EQ(v, 1u);
  std::memcpy(&v, p.slot(2), 8);
  EXPECT_EQ(v, 0x1234u);
}

TEST(KernelArgs, TrailingNullPointersAppended) {
  KernelMetadata m = testing::vaddMetadata();
  m.trailingNullPointers = 2;
  KernelArg args[] = {KernelArg::devicePtr(1), KernelArg::devicePtr(2), KernelArg::devicePtr(3),
                      KernelArg::i32(4)};
  PackedArgs p;
  ASSERT_TRUE(packArguments(m, args, 4, &p).ok());
  ASSERT_EQ(p.count(), 6u);
  uint64_t v = 1;
  std::memcpy(&v, p.slot(4), 8);
  EXPECT_EQ(v, 0u);
  std::memcpy(&v, p.slot(5), 8);
  EXPECT_EQ(v, 0u);
  EXPECT_EQ(p.size(5), 8u);
}

TEST(KernelArgs, WrongCount) {
  KernelMetadata m = testing::vaddMetadata();
  KernelArg args[] = {KernelArg::devicePtr(1), KernelArg::devicePtr(2), KernelArg::devicePtr(3)};
  PackedArgs p;
  Status s = packArguments(m, args, 3, &p);
  EXPECT_EQ(s.code(), StatusCode::kArgumentCount);
  EXPECT_EQ(s.message(), "kernel 'vadd_kernel' takes 4 arguments (x_ptr: ptr<f32>, y_ptr: "
                         "ptr<f32>, z_ptr: ptr<f32>, n: i32), got 3");
  EXPECT_EQ(packArguments(m, nullptr, 0, &p).code(), StatusCode::kArgumentCount);
}

TEST(KernelArgs, WrongType) {
  KernelMetadata m = testing::vaddMetadata();
  KernelArg args[] = {KernelArg::devicePtr(1), KernelArg::devicePtr(2), KernelArg::devicePtr(3),
                      KernelArg::f32(4.0f)};
  PackedArgs p;
  Status s = packArguments(m, args, 4, &p);
  EXPECT_EQ(s.code(), StatusCode::kArgumentType);
  EXPECT_EQ(s.message(), "kernel 'vadd_kernel': argument 3 'n' has type i32 but a f32 was given");
  args[3] = KernelArg::i32(4);
  args[0] = KernelArg::i64(1);
  s = packArguments(m, args, 4, &p);
  EXPECT_EQ(s.message(),
            "kernel 'vadd_kernel': argument 0 'x_ptr' has type ptr<f32> but a i64 was given");
}

} // namespace
} // namespace kiln::runtime
