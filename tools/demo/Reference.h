// Reference.h: host-side inputs and double-precision references for the
// kernels kiln-demo runs on the GPU (vadd, softmax, layernorm of the corpus),
// plus the f32 <-> f16 conversions the layernorm buffers need. No runtime,
// no MLIR: tools/demo:reference_test checks these on tiny known inputs.
#ifndef KILN_TOOLS_DEMO_REFERENCE_H
#define KILN_TOOLS_DEMO_REFERENCE_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kiln::demo {

/// IEEE binary16 bits of `value`, rounded to nearest even (overflow to
/// infinity, subnormals kept, NaN stays NaN).
uint16_t floatToHalf(float value);
/// The exact f32 value of the binary16 `bits`.
float halfToFloat(uint16_t bits);

/// A fixed-seed generator (splitmix64): the same inputs on every machine.
class Rng {
public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next();
  /// Uniform in [lo, hi).
  float uniform(float lo, float hi);

private:
  uint64_t state_;
};

/// out[i] = x[i] + y[i] for i < n (in double, then rounded to f32: the same
/// bits an f32 add gives).
std::vector<float> vaddReference(const std::vector<float>& x, const std::vector<float>& y,
                                 size_t n);

/// Row softmax of `rows` x `cols` values with row stride `stride` (elements):
/// result[r * cols + c] = exp(in - max) / sum(exp(in - max)), in double.
std::vector<double> softmaxReference(const std::vector<float>& in, size_t rows, size_t cols,
                                     size_t stride);

/// Layer norm as the corpus kernel computes it, in double: per row, mean and
/// (biased) variance over `cols` values, y = (x - mean) / sqrt(var + eps) *
/// w[c] + b[c]. `x` holds f16 bits; result is rows x cols (dense).
std::vector<double> layernormReference(const std::vector<uint16_t>& x,
                                       const std::vector<float>& w,
                                       const std::vector<float>& b, size_t rows, size_t cols,
                                       size_t stride, double eps);

/// The outcome of comparing a result with its reference.
struct Comparison {
  size_t checked = 0;      ///< elements compared
  size_t mismatches = 0;   ///< elements outside the tolerance
  double maxAbsError = 0;  ///< over all compared elements
  double maxRelError = 0;  ///< |got - ref| / |ref| where ref != 0
  size_t firstBad = 0;     ///< index (into the reference) of the first mismatch
  double firstBadGot = 0;
  double firstBadRef = 0;
  bool ok() const { return mismatches == 0; }
};

/// Compares got[r * stride + c] with ref[r * cols + c] for c < cols:
/// passes when |got - ref| <= atol + rtol * |ref| (NaN never passes).
Comparison compareRows(const std::vector<double>& got, const std::vector<double>& ref,
                       size_t rows, size_t cols, size_t stride, double rtol, double atol);

/// "max abs err 1.2e-07, max rel err 3.4e-06" (+ the first mismatch, if any).
std::string describe(const Comparison& c);

} // namespace kiln::demo

#endif // KILN_TOOLS_DEMO_REFERENCE_H
