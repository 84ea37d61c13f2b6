// Host references and f16 conversion of kiln-demo on tiny inputs with known
// answers.
#include "tools/demo/Reference.h"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

namespace kiln::demo {
namespace {

TEST(HalfTest, KnownBitPatterns) {
  EXPECT_EQ(floatToHalf(0.0f), 0x0000);
  EXPECT_EQ(floatToHalf(-0.0f), 0x8000);
  EXPECT_EQ(floatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(floatToHalf(-2.0f), 0xc000);
  EXPECT_EQ(floatToHalf(65504.0f), 0x7bff);            // largest finite
  EXPECT_EQ(floatToHalf(65520.0f), 0x7c00);            // rounds up to inf
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -14)), 0x0400); // smallest normal
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -24)), 0x0001); // smallest subnormal
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -25)), 0x0000); // tie -> even (zero)
  EXPECT_EQ(floatToHalf(std::ldexp(1.5f, -25)), 0x0001);
  EXPECT_EQ(floatToHalf(std::numeric_limits<float>::infinity()), 0x7c00);
  EXPECT_EQ(floatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3c00); // tie -> even
  EXPECT_EQ(floatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02); // tie -> even (up)
  uint16_t nan = floatToHalf(std::numeric_limits<float>::quiet_NaN());
  EXPECT_EQ(nan & 0x7c00, 0x7c00);
  EXPECT_NE(nan & 0x03ff, 0);
}

TEST(HalfTest, RoundTripsEveryFiniteHalf) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    if ((bits & 0x7c00) == 0x7c00)
      continue; // inf / NaN
    ASSERT_EQ(floatToHalf(halfToFloat(static_cast<uint16_t>(bits))), bits) << bits;
  }
  EXPECT_EQ(halfToFloat(0x3555), 0.333251953125f);
  EXPECT_EQ(halfToFloat(0x0001), std::ldexp(1.0f, -24));
  EXPECT_TRUE(std::isinf(halfToFloat(0xfc00)));
}

TEST(RngTest, FixedSeedIsReproducibleAndInRange) {
  Rng a(42), b(42);
  for (int i = 0; i < 1000; ++i) {
    float v = a.uniform(-2.f, 2.f);
    EXPECT_EQ(v, b.uniform(-2.f, 2.f));
    EXPECT_GE(v, -2.f);
    EXPECT_LT(v, 2.f);
  }
}

TEST(ReferenceTest, Vadd) {
  std::vector<float> out = vaddReference({1.f, 0.1f, -3.f}, {2.f, 0.2f, 3.f}, 3);
  EXPECT_EQ(out, (std::vector<float>{3.f, 0.1f + 0.2f, 0.f}));
}

TEST(ReferenceTest, SoftmaxKnownValuesWithStride) {
  // Two rows of 2 columns in a stride of 3: the third column is padding.
  std::vector<float> in = {0.f, std::log(3.f), 99.f, 5.f, 5.f, -99.f};
  std::vector<double> out = softmaxReference(in, 2, 2, 3);
  ASSERT_EQ(out.size(), 4u);
  EXPECT_NEAR(out[0], 0.25, 1e-7);
  EXPECT_NEAR(out[1], 0.75, 1e-7);
  EXPECT_DOUBLE_EQ(out[2], 0.5);
  EXPECT_DOUBLE_EQ(out[3], 0.5);
}

TEST(ReferenceTest, SoftmaxIsStableForLargeInputs) {
  std::vector<double> out = softmaxReference({1000.f, 1000.f}, 1, 2, 2);
  EXPECT_DOUBLE_EQ(out[0], 0.5);
}

TEST(ReferenceTest, LayernormKnownValues) {
  // Row {1, 2, 3, 4}: mean 2.5, var 1.25 (biased); padding column ignored.
  std::vector<uint16_t> x;
  for (float v : {1.f, 2.f, 3.f, 4.f, 1000.f})
    x.push_back(floatToHalf(v));
  std::vector<float> w = {1.f, 1.f, 2.f, 1.f}, b = {0.f, 0.f, 0.f, 10.f};
  std::vector<double> out = layernormReference(x, w, b, 1, 4, 5, /*eps=*/0.0);
  const double rstd = 1.0 / std::sqrt(1.25);
  EXPECT_DOUBLE_EQ(out[0], -1.5 * rstd);
  EXPECT_DOUBLE_EQ(out[1], -0.5 * rstd);
  EXPECT_DOUBLE_EQ(out[2], 2 * 0.5 * rstd);
  EXPECT_DOUBLE_EQ(out[3], 1.5 * rstd + 10);
  // eps enters under the square root.
  out = layernormReference(x, w, b, 1, 4, 5, /*eps=*/0.75);
  EXPECT_DOUBLE_EQ(out[0], -1.5 / std::sqrt(2.0));
}

TEST(CompareTest, ToleranceStrideAndNaN) {
  // got has stride 3, ref is dense 2 x 2.
  std::vector<double> ref = {1.0, 2.0, 3.0, 4.0};
  std::vector<double> got = {1.0, 2.00001, 777, 3.0, 4.0, 777};
  Comparison c = compareRows(got, ref, 2, 2, 3, 1e-5, 0);
  EXPECT_TRUE(c.ok());
  EXPECT_EQ(c.checked, 4u);
  EXPECT_NEAR(c.maxAbsError, 1e-5, 1e-12);
  EXPECT_NEAR(c.maxRelError, 5e-6, 1e-12);

  got[1] = 2.1;
  c = compareRows(got, ref, 2, 2, 3, 1e-5, 0);
  EXPECT_FALSE(c.ok());
  EXPECT_EQ(c.mismatches, 1u);
  EXPECT_EQ(c.firstBad, 1u);
  EXPECT_DOUBLE_EQ(c.firstBadGot, 2.1);
  EXPECT_NE(describe(c).find("1 of 4 elements off"), std::string::npos);

  got[1] = std::nan("");
  c = compareRows(got, ref, 2, 2, 3, 1.0, 1.0);
  EXPECT_FALSE(c.ok());
  EXPECT_TRUE(std::isnan(c.maxAbsError));
}

} // namespace
} // namespace kiln::demo
