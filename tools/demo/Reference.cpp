// Reference.cpp: see Reference.h.
#include "tools/demo/Reference.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

namespace kiln::demo {

uint16_t floatToHalf(float value) {
  uint32_t f;
  std::memcpy(&f, &value, sizeof f);
  const uint32_t sign = (f >> 16) & 0x8000u;
  const uint32_t exp = (f >> 23) & 0xffu;
  uint32_t mant = f & 0x7fffffu;
  if (exp == 0xffu) // inf or NaN (keep NaN quiet and non-zero)
    return static_cast<uint16_t>(sign | 0x7c00u | (mant ? 0x200u | (mant >> 13) : 0u));
  const int e = static_cast<int>(exp) - 127 + 15; // rebiased exponent
  if (e >= 31)
    return static_cast<uint16_t>(sign | 0x7c00u); // overflow -> inf
  if (e <= 0) {
    // Subnormal half (or zero): shift the full significand into place.
    if (e < -10)
      return static_cast<uint16_t>(sign); // below half the smallest subnormal
    mant |= 0x800000u;
    const int shift = 14 - e; // 14..24
    uint32_t half = mant >> shift;
    const uint32_t rest = mant & ((1u << shift) - 1);
    const uint32_t halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (half & 1u)))
      ++half; // may carry into the smallest normal: still correct bits
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = (static_cast<uint32_t>(e) << 10) | (mant >> 13);
  const uint32_t rest = mant & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u)))
    ++half; // a carry out of the mantissa bumps the exponent (up to inf)
  return static_cast<uint16_t>(sign | half);
}

float halfToFloat(uint16_t bits) {
  const uint32_t sign = (static_cast<uint32_t>(bits) & 0x8000u) << 16;
  const uint32_t exp = (bits >> 10) & 0x1fu;
  const uint32_t mant = bits & 0x3ffu;
  uint32_t f;
  if (exp == 0) {
    if (mant == 0) {
      f = sign;
    } else { // subnormal: mant * 2^-24, exact in f32
      float v = std::ldexp(static_cast<float>(mant), -24);
      return sign ? -v : v;
    }
  } else if (exp == 0x1fu) {
    f = sign | 0x7f800000u | (mant << 13);
  } else {
    f = sign | ((exp - 15 + 127) << 23) | (mant << 13);
  }
  float out;
  std::memcpy(&out, &f, sizeof out);
  return out;
}

uint64_t Rng::next() {
  uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

float Rng::uniform(float lo, float hi) {
  // 24 random bits -> [0, 1) exactly representable in f32.
  const float unit = static_cast<float>(next() >> 40) * (1.0f / 16777216.0f);
  return lo + (hi - lo) * unit;
}

std::vector<float> vaddReference(const std::vector<float>& x, const std::vector<float>& y,
                                 size_t n) {
  std::vector<float> out(n);
  for (size_t i = 0; i < n; ++i)
    out[i] = static_cast<float>(static_cast<double>(x[i]) + static_cast<double>(y[i]));
  return out;
}

std::vector<double> softmaxReference(const std::vector<float>& in, size_t rows, size_t cols,
                                     size_t stride) {
  std::vector<double> out(rows * cols);
  for (size_t r = 0; r < rows; ++r) {
    const float* row = in.data() + r * stride;
    double mx = -std::numeric_limits<double>::infinity();
    for (size_t c = 0; c < cols; ++c)
      mx = std::max(mx, static_cast<double>(row[c]));
    double sum = 0;
    for (size_t c = 0; c < cols; ++c)
      sum += std::exp(static_cast<double>(row[c]) - mx);
    for (size_t c = 0; c < cols; ++c)
      out[r * cols + c] = std::exp(static_cast<double>(row[c]) - mx) / sum;
  }
  return out;
}

std::vector<double> layernormReference(const std::vector<uint16_t>& x,
                                       const std::vector<float>& w,
                                       const std::vector<float>& b, size_t rows, size_t cols,
                                       size_t stride, double eps) {
  std::vector<double> out(rows * cols);
  std::vector<double> xs(cols);
  for (size_t r = 0; r < rows; ++r) {
    double sum = 0;
    for (size_t c = 0; c < cols; ++c) {
      xs[c] = halfToFloat(x[r * stride + c]);
      sum += xs[c];
    }
    const double mean = sum / static_cast<double>(cols);
    double var = 0;
    for (size_t c = 0; c < cols; ++c)
      var += (xs[c] - mean) * (xs[c] - mean);
    var /= static_cast<double>(cols);
    const double rstd = 1.0 / std::sqrt(var + eps);
    for (size_t c = 0; c < cols; ++c)
      out[r * cols + c] = (xs[c] - mean) * rstd * w[c] + b[c];
  }
  return out;
}

Comparison compareRows(const std::vector<double>& got, const std::vector<double>& ref,
                       size_t rows, size_t cols, size_t stride, double rtol, double atol) {
  Comparison cmp;
  for (size_t r = 0; r < rows; ++r) {
    for (size_t c = 0; c < cols; ++c) {
      const double g = got[r * stride + c];
      const double e = ref[r * cols + c];
      const double err = std::fabs(g - e);
      ++cmp.checked;
      const bool bad = !(err <= atol + rtol * std::fabs(e)); // NaN -> bad
      if (std::isnan(err)) {
        cmp.maxAbsError = std::numeric_limits<double>::quiet_NaN();
      } else if (!std::isnan(cmp.maxAbsError)) {
        cmp.maxAbsError = std::max(cmp.maxAbsError, err);
        if (e != 0)
          cmp.maxRelError = std::max(cmp.maxRelError, err / std::fabs(e));
      }
      if (bad) {
        if (cmp.mismatches == 0) {
          cmp.firstBad = r * cols + c;
          cmp.firstBadGot = g;
          cmp.firstBadRef = e;
        }
        ++cmp.mismatches;
      }
    }
  }
  return cmp;
}

std::string describe(const Comparison& c) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "max abs err %.3g, max rel err %.3g", c.maxAbsError,
                c.maxRelError);
  std::string s = buf;
  if (!c.ok()) {
    std::snprintf(buf, sizeof buf, "; %zu of %zu elements off, first at [%zu]: got %.9g, want %.9g",
                  c.mismatches, c.checked, c.firstBad, c.firstBadGot, c.firstBadRef);
    s += buf;
  }
  return s;
}

} // namespace kiln::demo
