//===- TTDialectTest.cpp - C++ API of the tt dialect ----------------------===//
//
// The type helpers, programmatic construction, folding and the parse entry
// point, exercised from C++ as a pass author would.
//
//===----------------------------------------------------------------------===//

#include "dialects/tt/IR/TTOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace kiln::tt;

namespace {

class TTDialectTest : public ::testing::Test {
protected:
  TTDialectTest() {
    DialectRegistry registry;
    registerTTIRDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }
  MLIRContext context;
  OpBuilder builder{&context};
};

TEST_F(TTDialectTest, PointerTypeDefaultsToGlobalAddressSpace) {
  auto ptr = PointerType::get(builder.getF32Type(), kGlobalAddressSpace);
  EXPECT_EQ(ptr.getAddressSpace(), 1);
  std::string text;
  llvm::raw_string_ostream os(text);
  os << Type(ptr);
  EXPECT_EQ(text, "!tt.ptr<f32>");
  text.clear();
  os << Type(PointerType::get(builder.getF16Type(), 3));
  EXPECT_EQ(text, "!tt.ptr<f16, 3>");
}

TEST_F(TTDialectTest, PointeeOfPointerTensor) {
  auto ptr = PointerType::get(builder.getF16Type(), 1);
  auto tensor = RankedTensorType::get({128, 64}, ptr);
  auto pointee = dyn_cast<RankedTensorType>(getPointeeType(tensor));
  ASSERT_TRUE(pointee);
  EXPECT_EQ(pointee.getShape(), ArrayRef<int64_t>({128, 64}));
  EXPECT_TRUE(pointee.getElementType().isF16());
  EXPECT_EQ(getPointeeType(ptr), builder.getF16Type());
}

TEST_F(TTDialectTest, MaskTypeHasPointerShape) {
  auto tensor = RankedTensorType::get({1024}, builder.getF32Type());
  auto mask = dyn_cast<RankedTensorType>(getI1SameShape(tensor));
  ASSERT_TRUE(mask);
  EXPECT_EQ(mask.getShape(), ArrayRef<int64_t>({1024}));
  EXPECT_TRUE(mask.getElementType().isInteger(1));
  EXPECT_TRUE(getI1SameShape(builder.getF32Type()).isInteger(1));
}

TEST_F(TTDialectTest, BlockPointerBaseType) {
  auto block = RankedTensorType::get({64, 32}, builder.getBF16Type());
  auto blockPtr = PointerType::get(block, 1);
  EXPECT_TRUE(isBlockPointer(blockPtr));
  EXPECT_FALSE(isBlockPointer(PointerType::get(builder.getF32Type(), 1)));
  EXPECT_EQ(getBlockPtrBaseType(blockPtr),
            PointerType::get(builder.getBF16Type(), 1));
}

TEST_F(TTDialectTest, ScalarBitWidthCountsPointersAs64) {
  EXPECT_EQ(getScalarBitWidth(PointerType::get(builder.getF16Type(), 1)), 64u);
  EXPECT_EQ(getScalarBitWidth(builder.getBF16Type()), 16u);
  EXPECT_EQ(getScalarBitWidth(builder.getI1Type()), 1u);
}

TEST_F(TTDialectTest, SplatOfConstantFoldsToDenseSplat) {
  Location loc = builder.getUnknownLoc();
  auto module = ModuleOp::create(loc);
  builder.setInsertionPointToEnd(module.getBody());
  auto cst = arith::ConstantOp::create(builder, loc, builder.getI32IntegerAttr(7));
  auto type = RankedTensorType::get({256}, builder.getI32Type());
  auto splat = SplatOp::create(builder, loc, type, cst);
  SmallVector<OpFoldResult> folded;
  ASSERT_TRUE(succeeded(splat->fold(folded)));
  ASSERT_EQ(folded.size(), 1u);
  auto attr = dyn_cast<SplatElementsAttr>(dyn_cast<Attribute>(folded[0]));
  ASSERT_TRUE(attr);
  EXPECT_EQ(attr.getType(), type);
  EXPECT_EQ(attr.getSplatValue<APInt>().getSExtValue(), 7);
  module->destroy();
}

TEST_F(TTDialectTest, ParsesKernelAndReadsArgumentFacts) {
  const char *text = R"mlir(
    tt.func public @k(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
      %pid = tt.get_program_id y : i32
      %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
      %s = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
      %q = tt.addptr %s, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
      %x = tt.load %q cacheModifier = cg : tensor<128x!tt.ptr<f32>>
      tt.store %q, %x : tensor<128x!tt.ptr<f32>>
      tt.return
    }
  )mlir";
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &context);
  ASSERT_TRUE(module);
  auto fn = *module->getOps<FuncOp>().begin();
  EXPECT_EQ(fn.getName(), "k");
  EXPECT_EQ(fn.getArgAttrOfType<IntegerAttr>(0, "tt.divisibility").getInt(),
            16);
  EXPECT_FALSE(fn.getArgAttr(1, "tt.divisibility"));
  GetProgramIdOp pid = *fn.getOps<GetProgramIdOp>().begin();
  EXPECT_EQ(pid.getAxis(), ProgramIDDim::Y);
  LoadOp load = *fn.getOps<LoadOp>().begin();
  EXPECT_EQ(load.getCache(), CacheModifier::CG);
  EXPECT_EQ(load.getEvict(), EvictionPolicy::NORMAL);
  EXPECT_FALSE(load.getMask());
}

TEST_F(TTDialectTest, TruncatedInputIsADiagnosticNotACrash) {
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  const char *text = "tt.func public @k(%p: !tt.ptr<f32>) {\n  %x = tt.splat %p :";
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &context);
  EXPECT_FALSE(module);
  EXPECT_FALSE(message.empty());
}

} // namespace
