//===- FloatConversionsTest.cpp - f8 -> f16 bit conversion, every input ---===//
//
// upcastF8ToF16Bits (passes/FloatConversions.h) is what f8E4M3FN / f8E5M2
// tt.fp_to_fp upcasts (and so f8 tt.dot operands) become where a target has
// no conversion instruction (NVPTX before sm_89, AMDGPU). For each of the
// 256 inputs of both formats, the LLVM dialect ops it builds are translated
// to LLVM IR and folded by LLVM's O2 pipeline to a constant, which must be
// the f16 that APFloat's exact conversion gives (any NaN for a NaN).
//
//===----------------------------------------------------------------------===//

#include "passes/FloatConversions.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"

#include <gtest/gtest.h>

#include <string>

using namespace mlir;

namespace {

/// The f16 bits upcastF8ToF16Bits gives for each of the 256 bytes of
/// `f8Type`, folded by LLVM; -1 where the function did not fold to a
/// constant.
std::vector<int> convertAll(Type (*f8)(MLIRContext *)) {
  DialectRegistry registry;
  registry.insert<LLVM::LLVMDialect>();
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  MLIRContext ctx(registry);
  ctx.loadDialect<LLVM::LLVMDialect>();
  OpBuilder b(&ctx);
  Location loc = b.getUnknownLoc();
  ModuleOp module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module.getBody());
  Type i8 = b.getI8Type(), i16 = b.getI16Type();
  for (int v = 0; v < 256; ++v) {
    auto fn = LLVM::LLVMFuncOp::create(b, loc, "f" + std::to_string(v),
                                       LLVM::LLVMFunctionType::get(i16, {}));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(fn.addEntryBlock(b));
    Value bits = LLVM::ConstantOp::create(b, loc, i8,
                                          b.getIntegerAttr(i8, v));
    Value h = kiln::upcastF8ToF16Bits(b, loc, bits, f8(&ctx));
    LLVM::ReturnOp::create(b, loc,
                           LLVM::BitcastOp::create(b, loc, i16, h).getResult());
  }
  llvm::LLVMContext llvmCtx;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmCtx);
  module->erase();
  EXPECT_TRUE(llvmModule);
  std::vector<int> out(256, -1);
  if (!llvmModule)
    return out;
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb;
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2)
      .run(*llvmModule, mam);
  for (int v = 0; v < 256; ++v) {
    llvm::Function *fn = llvmModule->getFunction("f" + std::to_string(v));
    if (!fn || fn->empty())
      continue;
    auto *ret = llvm::dyn_cast<llvm::ReturnInst>(
        fn->getEntryBlock().getTerminator());
    if (!ret)
      continue;
    if (auto *c = llvm::dyn_cast<llvm::ConstantInt>(ret->getReturnValue()))
      out[v] = int(c->getZExtValue());
  }
  return out;
}

/// Checks every byte of the format against APFloat's conversion.
void checkAll(Type (*f8)(MLIRContext *), const llvm::fltSemantics &sem) {
  std::vector<int> got = convertAll(f8);
  int nans = 0;
  for (int v = 0; v < 256; ++v) {
    SCOPED_TRACE("f8 bits 0x" + llvm::utohexstr(v));
    ASSERT_GE(got[v], 0) << "did not fold to a constant";
    llvm::APFloat want(sem, llvm::APInt(8, v));
    bool losesInfo = true;
    want.convert(llvm::APFloat::IEEEhalf(), llvm::APFloat::rmNearestTiesToEven,
                 &losesInfo);
    EXPECT_FALSE(losesInfo);
    llvm::APFloat h(llvm::APFloat::IEEEhalf(), llvm::APInt(16, got[v]));
    if (want.isNaN()) {
      EXPECT_TRUE(h.isNaN()) << "got 0x" << llvm::utohexstr(got[v]);
      ++nans;
      continue;
    }
    EXPECT_EQ(got[v], int(want.bitcastToAPInt().getZExtValue()))
        << "want " << want.convertToFloat() << ", got "
        << h.convertToFloat();
  }
  // e4m3fn: 0x7F and 0xFF; e5m2: 2 x 3 mantissas with exponent 31.
  EXPECT_EQ(nans, &sem == &llvm::APFloat::Float8E4M3FN() ? 2 : 6);
}

TEST(FloatConversionsTest, F8E4M3FNToF16IsExactForEveryValue) {
  checkAll([](MLIRContext *ctx) -> Type { return Float8E4M3FNType::get(ctx); },
           llvm::APFloat::Float8E4M3FN());
}

TEST(FloatConversionsTest, F8E5M2ToF16IsExactForEveryValue) {
  checkAll([](MLIRContext *ctx) -> Type { return Float8E5M2Type::get(ctx); },
           llvm::APFloat::Float8E5M2());
}

TEST(FloatConversionsTest, F8E4M3FNLandmarks) {
  // Spot values from the OCP FP8 table: 448 (0x7E), -448 (0xFE), the
  // smallest subnormal 2^-9 (0x01), the smallest normal 2^-6 (0x08), 1.0
  // (0x38); f16 bits 0x5F00, 0xDF00, 0x1800, 0x2400, 0x3C00.
  std::vector<int> got = convertAll(
      [](MLIRContext *ctx) -> Type { return Float8E4M3FNType::get(ctx); });
  EXPECT_EQ(got[0x7E], 0x5F00);
  EXPECT_EQ(got[0xFE], 0xDF00);
  EXPECT_EQ(got[0x01], 0x1800);
  EXPECT_EQ(got[0x08], 0x2400);
  EXPECT_EQ(got[0x38], 0x3C00);
  EXPECT_EQ(got[0x80], 0x8000); // -0
}

} // namespace
