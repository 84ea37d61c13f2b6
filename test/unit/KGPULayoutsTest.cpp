//===- KGPULayoutsTest.cpp - tensor-core layouts against the ISA tables ---===//
//
// The accumulator layouts of the tensor-core lowerings, evaluated through
// the same index arithmetic the lowering uses (getThreadBaseTerms +
// getElemOffsets), must put every element where the instruction writes it:
//   mma.sync m16n8 (PTX ISA 9.7.14.5.8): lane l holds c0..c3 at
//     (l/4, 2*(l%4)), (l/4, 2*(l%4)+1), (l/4+8, 2*(l%4)), (l/4+8, 2*(l%4)+1);
//   MFMA 16x16 on 64 lanes (AMD CDNA3 ISA, v_mfma_f32_16x16x16f16 D layout):
//     lane l holds item i at (4*(l/16)+i, l%16).
// and every element of the tile must be held by exactly one (warp, lane).
// Likewise the operand fragments of mma.sync m16n8k8 with .tf32
// (9.7.14.5.7) by which the tf32 lowering loads A and B registers
// (getMmaTf32OperandFragment).
//
//===----------------------------------------------------------------------===//

#include "dialects/kgpu/IR/KGPUDialect.h"
#include "dialects/kgpu/IR/KGPULayouts.h"

#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <map>
#include <utility>

using namespace mlir;
using namespace kiln::kgpu;

namespace {

/// (row, col) of element `e` of (warp, lane) for a layout over `shape`.
std::pair<int64_t, int64_t> position(Attribute layout, ArrayRef<int64_t> shape,
                                     unsigned warp, unsigned lane, unsigned e) {
  auto terms = getThreadBaseTerms(layout);
  auto offsets = getElemOffsets(layout, shape);
  int64_t idx[2];
  for (unsigned d = 0; d < 2; ++d) {
    int64_t base = 0;
    for (const BaseTerm &t : terms[d]) {
      unsigned id = t.isWarp ? warp : lane;
      base += int64_t((id / t.divisor) % t.modulus) * t.multiplier;
    }
    idx[d] = (base + offsets[e][d]) % shape[d];
  }
  return {idx[0], idx[1]};
}

class KGPULayoutsTest : public ::testing::Test {
protected:
  KGPULayoutsTest() { ctx.loadDialect<KGPUDialect>(); }
  MLIRContext ctx;
};

TEST_F(KGPULayoutsTest, MmaSyncFragmentsMatchPtxIsa) {
  // One warp, one 16x8 instruction tile.
  Attribute mma = MmaEncodingAttr::get(&ctx, 2, {1, 1}, {16, 8});
  int64_t shape[] = {16, 8};
  ASSERT_EQ(getNumElemsPerThread(mma, shape), 4u);
  for (unsigned l = 0; l < 32; ++l) {
    int64_t g = l / 4, t = 2 * (l % 4);
    EXPECT_EQ(position(mma, shape, 0, l, 0), std::make_pair(g, t));
    EXPECT_EQ(position(mma, shape, 0, l, 1), std::make_pair(g, t + 1));
    EXPECT_EQ(position(mma, shape, 0, l, 2), std::make_pair(g + 8, t));
    EXPECT_EQ(position(mma, shape, 0, l, 3), std::make_pair(g + 8, t + 1));
  }
}

TEST_F(KGPULayoutsTest, MfmaAccumulatorMatchesCdnaLayout) {
  Attribute mfma = MfmaEncodingAttr::get(&ctx, {1, 1}, {16, 16});
  int64_t shape[] = {16, 16};
  ASSERT_EQ(getNumElemsPerThread(mfma, shape), 4u);
  for (unsigned l = 0; l < 64; ++l)
    for (unsigned i = 0; i < 4; ++i)
      EXPECT_EQ(position(mfma, shape, 0, l, i),
                std::make_pair(int64_t(4 * (l / 16) + i), int64_t(l % 16)));
}

/// Every element of a multi-warp, multi-repetition tile has one owner.
void expectEachElementOnce(Attribute layout, ArrayRef<int64_t> shape,
                           unsigned warps, unsigned lanes) {
  std::map<std::pair<int64_t, int64_t>, int> owners;
  unsigned n = getNumElemsPerThread(layout, shape);
  for (unsigned w = 0; w < warps; ++w)
    for (unsigned l = 0; l < lanes; ++l)
      for (unsigned e = 0; e < n; ++e)
        ++owners[position(layout, shape, w, l, e)];
  EXPECT_EQ(int64_t(owners.size()), shape[0] * shape[1]);
  for (const auto &[pos, count] : owners)
    EXPECT_EQ(count, 1) << "element (" << pos.first << ", " << pos.second << ")";
}

TEST_F(KGPULayoutsTest, MmaSyncCoversTheTileOnce) {
  // matmul_kernel's accumulator: 128x256 on 8 warps as [2, 4].
  expectEachElementOnce(MmaEncodingAttr::get(&ctx, 2, {2, 4}, {16, 8}),
                        {128, 256}, 8, 32);
  // The wgmma-shaped [8, 1] split.
  expectEachElementOnce(MmaEncodingAttr::get(&ctx, 2, {8, 1}, {16, 8}),
                        {128, 256}, 8, 32);
}

TEST_F(KGPULayoutsTest, MmaSyncWideWarpTilesCoverTheTileOnce) {
  // triton_bmm's split: 64x128 on 8 warps as [4, 2], each warp column
  // owning 64 contiguous columns; and 64x256 with 128 a warp column.
  expectEachElementOnce(MmaEncodingAttr::get(&ctx, 2, {4, 2}, {16, 64}),
                        {64, 128}, 8, 32);
  expectEachElementOnce(MmaEncodingAttr::get(&ctx, 2, {4, 2}, {16, 128}),
                        {64, 256}, 8, 32);
  // Repeated along both dimensions.
  expectEachElementOnce(MmaEncodingAttr::get(&ctx, 2, {2, 2}, {16, 16}),
                        {64, 128}, 4, 32);
}

// With instrShape [16, W] and the warps along N, warpgroup g (warps 4g ..
// 4g + 3 of [4, 2]) must hold exactly what wgmma m64nWk16 writes for it on
// columns g * W .. g * W + W - 1, in the D fragment's register order (PTX
// ISA 9.7.15.5.1.1, "Matrix fragments for wgmma .m64nNk16": warp w % 4 of
// the warpgroup holds rows 16 (w % 4) + l / 4 (+ 8), register 4j + i at
// column 8j + 2 (l % 4) + i % 2, row + 8 for i >= 2), which the lowering
// maps onto the layout's registers one to one.
TEST_F(KGPULayoutsTest, MmaSyncWideWarpTileIsTheWgmmaFragment) {
  const int64_t W = 64;
  Attribute mma = MmaEncodingAttr::get(&ctx, 2, {4, 2}, {16, W});
  int64_t shape[] = {64, 2 * W};
  ASSERT_EQ(getNumElemsPerThread(mma, shape), unsigned(W / 2));
  for (unsigned w = 0; w < 8; ++w)
    for (unsigned l = 0; l < 32; ++l)
      for (unsigned r = 0; r < W / 2; ++r) {
        int64_t j = r / 4, i = r % 4;
        int64_t row = 16 * (w % 4) + l / 4 + (i >= 2 ? 8 : 0);
        int64_t col = (w / 4) * W + 8 * j + 2 * (l % 4) + i % 2;
        EXPECT_EQ(position(mma, shape, w, l, r), std::make_pair(row, col))
            << "warp " << w << " lane " << l << " register " << r;
      }
}

TEST_F(KGPULayoutsTest, MfmaCoversTheTileOnce) {
  expectEachElementOnce(MfmaEncodingAttr::get(&ctx, {2, 4}, {16, 16}),
                        {128, 256}, 8, 64);
  expectEachElementOnce(MfmaEncodingAttr::get(&ctx, {2, 2}, {16, 16}),
                        {64, 64}, 4, 64);
}

/// (row, col) of register `reg` of `lane` in a tf32 operand fragment.
std::pair<int64_t, int64_t> fragmentPosition(unsigned operand, unsigned lane,
                                             unsigned reg) {
  FragmentElement f = getMmaTf32OperandFragment(operand)[reg];
  int64_t g = lane / 4, t = lane % 4;
  return {f.rowPerGroup * g + f.rowPerThread * t + f.row,
          f.colPerGroup * g + f.colPerThread * t + f.col};
}

TEST_F(KGPULayoutsTest, MmaTf32OperandFragmentsMatchPtxIsa) {
  // PTX ISA 9.7.14.5.7, mma.m16n8k8 with .tf32: A (16x8) in a0..a3 at
  // row g for a0, a2 and g + 8 for a1, a3; col t for a0, a1 and t + 4 for
  // a2, a3. B (8x8, K x N) in b0, b1 at row t for b0, t + 4 for b1; col g.
  ASSERT_EQ(getMmaTf32OperandFragment(0).size(), 4u);
  ASSERT_EQ(getMmaTf32OperandFragment(1).size(), 2u);
  for (unsigned l = 0; l < 32; ++l) {
    int64_t g = l / 4, t = l % 4;
    EXPECT_EQ(fragmentPosition(0, l, 0), std::make_pair(g, t));
    EXPECT_EQ(fragmentPosition(0, l, 1), std::make_pair(g + 8, t));
    EXPECT_EQ(fragmentPosition(0, l, 2), std::make_pair(g, t + 4));
    EXPECT_EQ(fragmentPosition(0, l, 3), std::make_pair(g + 8, t + 4));
    EXPECT_EQ(fragmentPosition(1, l, 0), std::make_pair(t, g));
    EXPECT_EQ(fragmentPosition(1, l, 1), std::make_pair(t + 4, g));
  }
  // Lane 5 (g = 1, t = 1), spelled out: A at (1,1) (9,1) (1,5) (9,5);
  // B at (1,1) (5,1).
  EXPECT_EQ(fragmentPosition(0, 5, 3), std::make_pair(int64_t(9), int64_t(5)));
  EXPECT_EQ(fragmentPosition(1, 5, 1), std::make_pair(int64_t(5), int64_t(1)));
}

TEST_F(KGPULayoutsTest, MmaTf32OperandFragmentsCoverTheTilesOnce) {
  for (unsigned operand = 0; operand < 2; ++operand) {
    std::map<std::pair<int64_t, int64_t>, int> owners;
    unsigned regs = getMmaTf32OperandFragment(operand).size();
    for (unsigned l = 0; l < 32; ++l)
      for (unsigned r = 0; r < regs; ++r)
        ++owners[fragmentPosition(operand, l, r)];
    int64_t rows = operand == 0 ? 16 : 8, cols = 8;
    EXPECT_EQ(int64_t(owners.size()), rows * cols);
    for (const auto &[pos, count] : owners) {
      EXPECT_EQ(count, 1);
      EXPECT_LT(pos.first, rows);
      EXPECT_LT(pos.second, cols);
    }
  }
}

/// getNumElemsPerThread counts without building the offsets; it must give
/// what getElemOffsets holds, for tensors smaller than, equal to and larger
/// than the layout's tile, and for slices (whose duplicates are dropped).
TEST_F(KGPULayoutsTest, ElementCountMatchesOffsets) {
  Attribute blocked = BlockedEncodingAttr::get(&ctx, {1, 4}, {4, 8}, {4, 1},
                                               {1, 0});
  Attribute wide = BlockedEncodingAttr::get(&ctx, {2, 2}, {8, 4}, {1, 4},
                                            {0, 1});
  Attribute mma = MmaEncodingAttr::get(&ctx, 2, {2, 4}, {16, 8});
  Attribute mmaWide = MmaEncodingAttr::get(&ctx, 2, {4, 2}, {16, 64});
  Attribute mfma = MfmaEncodingAttr::get(&ctx, {2, 2}, {16, 16});
  const int64_t shapes[][2] = {{1, 1},   {8, 16},  {16, 32},
                               {64, 64}, {128, 256}, {3, 200}};
  for (Attribute layout : {blocked, wide, mma, mmaWide, mfma}) {
    for (const auto &shape : shapes) {
      EXPECT_EQ(getNumElemsPerThread(layout, shape),
                getElemOffsets(layout, shape).size())
          << "shape " << shape[0] << "x" << shape[1];
      for (unsigned dim = 0; dim < 2; ++dim) {
        Attribute slice = SliceEncodingAttr::get(&ctx, dim, layout);
        int64_t sliced[] = {shape[1 - dim]};
        EXPECT_EQ(getNumElemsPerThread(slice, sliced),
                  getElemOffsets(slice, sliced).size());
      }
    }
  }
  // Known values: 4 x 8 lanes and 4 warps of [1, 4] cover a 16x32 tile, so
  // a 64x64 tensor has 4 x 2 repetitions of 4 elements.
  int64_t big[] = {64, 64};
  EXPECT_EQ(getNumElemsPerThread(blocked, big), 32u);
  // matmul_kernel's 128x256 mma.sync accumulator on [2, 4] warps.
  int64_t acc[] = {128, 256};
  EXPECT_EQ(getNumElemsPerThread(mma, acc), 128u);
  // triton_bmm's 64x128 accumulator on [4, 2] warps of 16 x 64.
  int64_t bmm[] = {64, 128};
  EXPECT_EQ(getNumElemsPerThread(mmaWide, bmm), 32u);
}

} // namespace
