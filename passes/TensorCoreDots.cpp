//===- TensorCoreDots.cpp - which tt.dot the tensor cores compute ---------===//

#include "passes/TensorCoreDots.h"

using namespace mlir;

namespace kiln {

namespace {
/// The operands' common element type and M, K, N of a 2-D dot, or null.
struct DotShape {
  Type elem;
  int64_t M = 0, K = 0, N = 0;
};
std::optional<DotShape> dotShape(tt::DotOp dot) {
  auto aT = dot.getA().getType(), bT = dot.getB().getType();
  if (aT.getRank() != 2 || bT.getElementType() != aT.getElementType())
    return std::nullopt;
  return DotShape{aT.getElementType(), aT.getDimSize(0), aT.getDimSize(1),
                  bT.getDimSize(1)};
}
bool isHalf(Type t) { return t.isF16() || t.isBF16(); }
} // namespace

bool isTf32Dot(tt::DotOp dot) {
  return dot.getA().getType().getElementType().isF32() &&
         (dot.getInputPrecision() == tt::InputPrecision::TF32 ||
          dot.getInputPrecision() == tt::InputPrecision::TF32x3);
}

bool mmaSyncComputes(tt::DotOp dot) {
  std::optional<DotShape> s = dotShape(dot);
  if (!s)
    return false;
  bool tf32 = isTf32Dot(dot);
  Type c = dot.getType().getElementType();
  if (!(isHalf(s->elem) || tf32) || !(c.isF32() || (isHalf(c) && !tf32)))
    return false;
  return s->M % 16 == 0 && s->N % 8 == 0 && s->K % (tf32 ? 8 : 16) == 0;
}

bool wgmmaComputes(tt::DotOp dot, unsigned warps, unsigned warpsN) {
  std::optional<DotShape> s = dotShape(dot);
  if (!s || !dot.getType().getElementType().isF32() ||
      (s->elem.isF32() &&
       dot.getInputPrecision() != tt::InputPrecision::TF32))
    return false;
  return wgmmaComputesShape(s->elem, s->M, s->N, s->K, warps, warpsN);
}

bool wgmmaComputesShape(mlir::Type elem, int64_t M, int64_t N, int64_t K,
                        unsigned warps, unsigned warpsN) {
  bool tf32 = elem.isF32();
  if (!(isHalf(elem) || tf32) || warps % 4 != 0 ||
      M % (16 * int64_t(warps)) != 0 || K % (tf32 ? 32 : 16) != 0)
    return false;
  if (warpsN == 1)
    return N % 16 == 0 && N <= 256;
  // Each warpgroup's N / warpsN columns whole 128-byte column blocks.
  return !tf32 && N % (64 * int64_t(warpsN)) == 0 && N / warpsN <= 256;
}

bool wgmmaPartialRows(tt::DotOp dot) {
  RankedTensorType aT = dot.getA().getType();
  return aT.getDimSize(1) * aT.getElementTypeBitWidth() / 8 % 128 != 0;
}

bool wgmmaNarrowTile(tt::DotOp dot) {
  return dot.getB().getType().getDimSize(1) % 64 != 0 ||
         dot.getA().getType().getDimSize(1) % 32 != 0;
}

bool wgmmaFromZeroFits(tt::DotOp dot, unsigned warps) {
  constexpr int64_t kMaxAccRegsPerThread = 64;
  RankedTensorType type = dot.getType();
  return warps > 0 && type.getNumElements() / (32 * int64_t(warps)) <=
                          kMaxAccRegsPerThread;
}

int64_t wgmmaOperandBytes(int64_t mn, int64_t k, unsigned bytes, bool kMajor) {
  int64_t rows = kMajor ? mn : k, cols = kMajor ? k : mn;
  return rows * int64_t(llvm::alignTo(cols * bytes, 128));
}

bool mfmaComputes(tt::DotOp dot) {
  std::optional<DotShape> s = dotShape(dot);
  if (!s || !dot.getType().getElementType().isF32())
    return false;
  bool f32 = s->elem.isF32();
  if (!(isHalf(s->elem) || f32) ||
      (f32 && dot.getInputPrecision() != tt::InputPrecision::IEEE))
    return false;
  return s->M % 16 == 0 && s->N % 16 == 0 && s->K % (f32 ? 4 : 16) == 0;
}

bool packRegisterAFirst(int64_t accRegs, int64_t aElems) {
  return accRegs + aElems >= 256;
}

} // namespace kiln
