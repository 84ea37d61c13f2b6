//===- NVPTXBackendTest.cpp - unit tests of //pipelines/nvptx:backend -----===//
//
// The parts of the backend that need no CUDA toolkit: ptxas report parsing,
// hashing, target validation, tool lookup errors, and LLVM-dialect -> PTX
// with assembly turned off.
//
//===----------------------------------------------------------------------===//

#include "pipelines/nvptx/NVPTXBackend.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/OptBisect.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdlib>
#include <random>
#include <thread>
#include <vector>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cache/FileUtil.h"
#include "pipelines/common/SignalCleanup.h"
#include "test/cache/CacheTestUtil.h"

namespace {

using ::testing::HasSubstr;
using namespace kiln::nvptx;

std::string errorText(llvm::Error err) { return llvm::toString(std::move(err)); }

TEST(PtxasLog, ParsesEntriesAndFunctions) {
  const char *log = R"(ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'softmax_kernel' for 'sm_90'
ptxas info    : Function properties for softmax_kernel
    16 bytes stack frame, 8 bytes spill stores, 12 bytes spill loads
ptxas info    : Used 40 registers, used 1 barriers, 1024 bytes smem, 368 bytes cmem[0]
ptxas info    : Function properties for helper
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Compiling entry function 'add_one' for 'sm_90'
ptxas info    : Function properties for add_one
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 8 registers, used 0 barriers
ptxas info    : Compile time = 12.989 ms
)";
  std::vector<PtxasFunctionInfo> infos = parsePtxasLog(log);
  ASSERT_EQ(infos.size(), 3u);
  EXPECT_EQ(infos[0].function, "softmax_kernel");
  EXPECT_TRUE(infos[0].isEntry);
  EXPECT_EQ(infos[0].registers, 40);
  EXPECT_EQ(infos[0].barriers, 1);
  EXPECT_EQ(infos[0].stackFrameBytes, 16);
  EXPECT_EQ(infos[0].spillStoreBytes, 8);
  EXPECT_EQ(infos[0].spillLoadBytes, 12);
  EXPECT_EQ(infos[0].sharedBytes, 1024);
  EXPECT_EQ(infos[1].function, "helper");
  EXPECT_FALSE(infos[1].isEntry);
  EXPECT_EQ(infos[2].function, "add_one");
  EXPECT_EQ(infos[2].registers, 8);
  EXPECT_EQ(infos[2].sharedBytes, 0);

  NVPTXCompileResult result;
  result.ptxasInfo = infos;
  ASSERT_NE(result.findPtxasInfo("add_one"), nullptr);
  EXPECT_EQ(result.findPtxasInfo("add_one")->registers, 8);
  EXPECT_EQ(result.findPtxasInfo("missing"), nullptr);
}

TEST(PtxasLog, IgnoresUnknownText) {
  EXPECT_TRUE(parsePtxasLog("").empty());
  EXPECT_TRUE(parsePtxasLog("ptxas warning : something\nrandom text\n").empty());
}

TEST(PtxasLog, ReportCompleteAfterEveryEntrysCompileTime) {
  const char *done = R"(ptxas warning : Registers are spilled to local memory in function 'k', 8 bytes spill stores, 8 bytes spill loads
ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'k' for 'sm_90a'
ptxas info    : Function properties for k
    8 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads
ptxas info    : Used 255 registers, used 1 barriers
ptxas info    : Compile time = 442.715 ms
)";
  EXPECT_TRUE(PtxasProcess::reportComplete(done, 1));
  // Two entries: the first one's line alone is not the end.
  EXPECT_FALSE(PtxasProcess::reportComplete(done, 2));
  // No entry counted (PTX with .func definitions, whose reports follow the
  // last entry's compile time: reportEntries gives 0).
  EXPECT_FALSE(PtxasProcess::reportComplete(done, 0));
  // Cut before the last line, or not a whole line yet.
  std::string text(done);
  EXPECT_FALSE(PtxasProcess::reportComplete(
      text.substr(0, text.find("ptxas info    : Compile time")), 1));
  EXPECT_FALSE(PtxasProcess::reportComplete(
      text.substr(0, text.size() - 4), 1));
  // Anything but info, warnings and their continuation lines.
  EXPECT_FALSE(PtxasProcess::reportComplete(
      text + "ptxas fatal   : Ptx assembly aborted due to errors\n", 1));
  EXPECT_FALSE(PtxasProcess::reportComplete(
      "ptxas /tmp/k.ptx, line 9; error   : Unknown symbol\n" + text, 1));
  EXPECT_FALSE(PtxasProcess::reportComplete("wrapper: done\n" + text, 1));
}

TEST(Target, AcceptsHopper) {
  EXPECT_FALSE(errorText(validateTarget("sm_90", 80)).size());
  EXPECT_FALSE(errorText(validateTarget("sm_90a", 80)).size());
  EXPECT_FALSE(errorText(validateTarget("sm_90", 78)).size());
  EXPECT_GE(maxSupportedPtxVersion(), 80);
}

TEST(Target, RejectsUnknownArchAndVersions) {
  EXPECT_THAT(errorText(validateTarget("sm_13", 80)),
              HasSubstr("unknown target 'sm_13'"));
  EXPECT_THAT(errorText(validateTarget("gfx90a", 80)),
              HasSubstr("unknown target 'gfx90a'"));
  EXPECT_THAT(errorText(validateTarget("sm_90a", 78)),
              HasSubstr("sm_90a needs PTX ISA 8.0 or newer"));
  EXPECT_THAT(errorText(validateTarget("sm_90", 70)),
              HasSubstr("sm_90 needs PTX ISA 7.8 or newer"));
  EXPECT_THAT(errorText(validateTarget("sm_90", 99)),
              HasSubstr("unsupported PTX ISA version 99"));
}

TEST(Toolchain, ExplicitPathsMustExist) {
  llvm::Expected<std::string> ptxas = findPtxas("/nonexistent/ptxas");
  ASSERT_FALSE(ptxas);
  EXPECT_THAT(errorText(ptxas.takeError()),
              HasSubstr("'/nonexistent/ptxas' (from --ptxas) is not an executable file"));
  llvm::Expected<std::string> libdevice = findLibdevice("/nonexistent/libdevice.bc");
  ASSERT_FALSE(libdevice);
  EXPECT_THAT(errorText(libdevice.takeError()),
              HasSubstr("link libdevice: '/nonexistent/libdevice.bc'"));
}

class CompileTest : public ::testing::Test {
protected:
  CompileTest() {
    mlir::DialectRegistry registry;
    registry.insert<mlir::LLVM::LLVMDialect, mlir::NVVM::NVVMDialect,
                    mlir::func::FuncDialect>();
    registerNVPTXTranslations(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }
  mlir::OwningOpRef<mlir::ModuleOp> parse(llvm::StringRef text) {
    return mlir::parseSourceString<mlir::ModuleOp>(text, &context);
  }
  mlir::MLIRContext context;
};

constexpr const char *kAddOne = R"mlir(
llvm.func @helper(%v: f32) -> f32 {
  %one = llvm.mlir.constant(1.0 : f32) : f32
  %r = llvm.fadd %v, %one : f32
  llvm.return %r : f32
}
llvm.func @add_one(%arg0: !llvm.ptr<1>) attributes {nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>} {
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %idx = llvm.sext %tid : i32 to i64
  %p = llvm.getelementptr %arg0[%idx] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  %v = llvm.load %p : !llvm.ptr<1> -> f32
  %r = llvm.call @helper(%v) : (f32) -> f32
  llvm.store %r, %p : f32, !llvm.ptr<1>
  llvm.return
}
)mlir";

TEST_F(CompileTest, EmitsPtxWithoutPtxas) {
  mlir::OwningOpRef<mlir::ModuleOp> module = parse(kAddOne);
  ASSERT_TRUE(module);
  NVPTXBackendOptions options;
  options.arch = "sm_90a";
  options.ptxVersion = 83;
  options.assemble = false;
  options.ptxasPath = "/nonexistent/ptxas"; // not looked up without assembly
  llvm::Expected<NVPTXCompileResult> result = compileToCubin(*module, options);
  ASSERT_TRUE(bool(result)) << errorText(result.takeError());
  EXPECT_EQ(result->kernels, std::vector<std::string>{"add_one"});
  EXPECT_THAT(result->ptx, HasSubstr(".version 8.3"));
  EXPECT_THAT(result->ptx, HasSubstr(".target sm_90a"));
  EXPECT_THAT(result->ptx, HasSubstr(".entry add_one"));
  // The non-kernel helper was internalized and inlined at O3.
  EXPECT_THAT(result->ptx, ::testing::Not(HasSubstr("helper")));
  EXPECT_THAT(result->llvmIR, HasSubstr("!\"nvvm-reflect-ftz\", i32 0}"));
  EXPECT_TRUE(result->cubin.empty());
  EXPECT_TRUE(result->libdevicePath.empty());
  EXPECT_EQ(result->timings.linkLibdeviceUs, 0);
  EXPECT_EQ(result->timings.ptxasUs, 0);
  EXPECT_GT(result->timings.codegenUs, 0);
}

TEST_F(CompileTest, TranslationErrorNamesStageAndLocation) {
  mlir::OwningOpRef<mlir::ModuleOp> module = parse(R"mlir(
func.func @not_llvm() {
  return
}
)mlir");
  ASSERT_TRUE(module);
  NVPTXBackendOptions options;
  options.assemble = false;
  llvm::Expected<NVPTXCompileResult> result = compileToCubin(*module, options);
  ASSERT_FALSE(result);
  std::string message = errorText(result.takeError());
  EXPECT_THAT(message, HasSubstr("translate to LLVM IR"));
  EXPECT_THAT(message, HasSubstr(":2:1: error:"));
}

TEST_F(CompileTest, BadTargetFailsBeforeTranslation) {
  mlir::OwningOpRef<mlir::ModuleOp> module = parse(kAddOne);
  ASSERT_TRUE(module);
  NVPTXBackendOptions options;
  options.arch = "sm_13";
  llvm::Expected<NVPTXCompileResult> result = compileToCubin(*module, options);
  ASSERT_FALSE(result);
  EXPECT_THAT(errorText(result.takeError()), HasSubstr("unknown target 'sm_13'"));
}

// A kernel with a loop, so that the loop passes of both pipelines run.
constexpr const char *kLoopKernelIR = R"ll(
define ptx_kernel void @k(ptr addrspace(1) %p, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %idx = sext i32 %i to i64
  %q = getelementptr float, ptr addrspace(1) %p, i64 %idx
  %v = load float, ptr addrspace(1) %q, align 4
  %w = fadd float %v, 1.0
  store float %w, ptr addrspace(1) %q, align 4
  %i.next = add nsw i32 %i, 1
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}
)ll";

/// Expects `omitted` ("pass#run" entries) to hold each run `runs` lists
/// (for run 0: some run of that pass) and nothing else. A listed run that
/// was never left out no longer exists in LLVM's pipeline.
void expectOmitted(llvm::ArrayRef<OmittedPassRun> runs,
                   const std::vector<std::string> &omitted) {
  for (const OmittedPassRun &run : runs) {
    std::string prefix = (run.pass + "#").str();
    bool found = llvm::any_of(omitted, [&](const std::string &entry) {
      return run.run == 0 ? llvm::StringRef(entry).starts_with(prefix)
                          : entry == prefix + std::to_string(run.run);
    });
    EXPECT_TRUE(found) << run.pass.str() << " run " << run.run
                       << " was never left out: no such pass run in LLVM's "
                          "pipeline any more?";
  }
  for (const std::string &entry : omitted) {
    llvm::StringRef name = llvm::StringRef(entry).rsplit('#').first;
    unsigned n = 0;
    llvm::StringRef(entry).rsplit('#').second.getAsInteger(10, n);
    EXPECT_TRUE(llvm::any_of(runs, [&](const OmittedPassRun &run) {
      return run.pass == name && (run.run == 0 || run.run == n);
    })) << entry << " was left out but is not listed";
  }
}

/// kLoopKernelIR parsed and prepared for an sm_90a target machine.
class LLVMPipelines : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::Expected<std::unique_ptr<llvm::TargetMachine>> created =
        createNVPTXTargetMachine("sm_90a", 80, 3);
    ASSERT_TRUE(static_cast<bool>(created)) << errorText(created.takeError());
    tm = std::move(*created);
    llvm::SMDiagnostic diagnostic;
    module = llvm::parseAssemblyString(kLoopKernelIR, diagnostic, context);
    ASSERT_TRUE(module) << diagnostic.getMessage().str();
    prepareModuleForNVPTX(*module, *tm, /*ftz=*/false);
  }
  std::unique_ptr<llvm::TargetMachine> tm;
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module;
};

TEST_F(LLVMPipelines, LeaveOutExactlyTheListedPassRuns) {
  // Of the kernel's InstCombine runs, the fifth and sixth only.
  std::vector<std::string> omitted;
  ASSERT_FALSE(errorText(optimizeModule(*module, *tm, 3, omittedO3PassRuns(),
                                        &omitted))
                   .size());
  expectOmitted(omittedO3PassRuns(), omitted);
  EXPECT_EQ(llvm::count(omitted, "InstCombinePass#5"), 1);
  EXPECT_EQ(llvm::count(omitted, "InstCombinePass#6"), 1);
  EXPECT_EQ(llvm::count_if(omitted,
                           [](const std::string &entry) {
                             return llvm::StringRef(entry).starts_with(
                                 "InstCombinePass#");
                           }),
            2);

  std::vector<std::string> skipped;
  llvm::Expected<std::string> ptx = emitPTX(*module, *tm, &skipped);
  ASSERT_TRUE(static_cast<bool>(ptx)) << errorText(ptx.takeError());
  EXPECT_THAT(*ptx, HasSubstr(".visible .entry k("));
  expectOmitted(omittedCodegenPassRuns(), skipped);
  EXPECT_EQ(llvm::count(skipped, "early-cse#1"), 1);
  EXPECT_EQ(llvm::count(skipped, "early-cse#2"), 1);
  EXPECT_EQ(llvm::count(skipped, "early-cse#3"), 0);
  // The gate is the context's only while codegen runs.
  EXPECT_FALSE(context.getOptPassGate().isEnabled());
}

/// A codegen pipeline made for an sm_80 target machine, with that machine
/// (it must outlive the pipeline): one for a machine other than the
/// sm_90a ones the tests compile with.
struct OtherMachinePipeline {
  std::unique_ptr<llvm::TargetMachine> machine;
  std::unique_ptr<NVPTXCodegenPipeline> pipeline;
};

void makeOtherMachinePipeline(OtherMachinePipeline &out) {
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      createNVPTXTargetMachine("sm_80", 80, 3);
  ASSERT_TRUE(static_cast<bool>(machine)) << errorText(machine.takeError());
  out.machine = std::move(*machine);
  llvm::Expected<std::unique_ptr<NVPTXCodegenPipeline>> pipeline =
      NVPTXCodegenPipeline::create(*out.machine);
  ASSERT_TRUE(static_cast<bool>(pipeline)) << errorText(pipeline.takeError());
  out.pipeline = std::move(*pipeline);
}

TEST_F(LLVMPipelines, PreparedCodegenPipelineGivesTheSamePTX) {
  // Made before the module is optimized (kiln compile makes it on another
  // thread): same PTX and the same left-out runs as a pipeline made by
  // emitPTX itself, on a second copy of the module.
  ASSERT_FALSE(errorText(optimizeModule(*module, *tm, 3, omittedO3PassRuns()))
                   .size());
  std::unique_ptr<llvm::Module> copy = llvm::CloneModule(*module);
  llvm::Expected<std::unique_ptr<NVPTXCodegenPipeline>> prepared =
      NVPTXCodegenPipeline::create(*tm);
  ASSERT_TRUE(static_cast<bool>(prepared)) << errorText(prepared.takeError());
  EXPECT_EQ(&(*prepared)->targetMachine(), tm.get());
  std::vector<std::string> skippedPrepared, skippedHere;
  llvm::Expected<std::string> fromPrepared =
      emitPTX(*module, *tm, &skippedPrepared, std::move(*prepared));
  ASSERT_TRUE(static_cast<bool>(fromPrepared))
      << errorText(fromPrepared.takeError());
  llvm::Expected<std::string> madeHere = emitPTX(*copy, *tm, &skippedHere);
  ASSERT_TRUE(static_cast<bool>(madeHere)) << errorText(madeHere.takeError());
  EXPECT_THAT(*fromPrepared, HasSubstr(".visible .entry k("));
  EXPECT_EQ(*fromPrepared, *madeHere);
  EXPECT_EQ(skippedPrepared, skippedHere);
  expectOmitted(omittedCodegenPassRuns(), skippedPrepared);
}

TEST_F(LLVMPipelines, PreparedCodegenPipelineForAnotherMachineIsRefused) {
  OtherMachinePipeline other;
  ASSERT_NO_FATAL_FAILURE(makeOtherMachinePipeline(other));
  llvm::Expected<std::string> ptx =
      emitPTX(*module, *tm, nullptr, std::move(other.pipeline));
  ASSERT_FALSE(static_cast<bool>(ptx));
  EXPECT_THAT(errorText(ptx.takeError()),
              HasSubstr("made for another target machine"));
}

TEST_F(LLVMPipelines, CodegenPipelineRunsOnce) {
  std::unique_ptr<llvm::Module> copy = llvm::CloneModule(*module);
  llvm::Expected<std::unique_ptr<NVPTXCodegenPipeline>> prepared =
      NVPTXCodegenPipeline::create(*tm);
  ASSERT_TRUE(static_cast<bool>(prepared)) << errorText(prepared.takeError());
  llvm::Expected<std::string> first = (*prepared)->run(*module);
  ASSERT_TRUE(static_cast<bool>(first)) << errorText(first.takeError());
  EXPECT_THAT(*first, HasSubstr(".visible .entry k("));
  llvm::Expected<std::string> second = (*prepared)->run(*copy);
  ASSERT_FALSE(static_cast<bool>(second));
  EXPECT_THAT(errorText(second.takeError()), HasSubstr("has run already"));
}

TEST_F(CompileTest, CodegenPipelineWithoutItsTargetMachineIsNotUsed) {
  // compileToCubin makes its own target machine here; the pipeline made for
  // another one is dropped, not run against the wrong machine.
  mlir::OwningOpRef<mlir::ModuleOp> module = parse(kAddOne);
  ASSERT_TRUE(module);
  OtherMachinePipeline other;
  ASSERT_NO_FATAL_FAILURE(makeOtherMachinePipeline(other));
  NVPTXBackendOptions options;
  options.arch = "sm_90a";
  options.ptxVersion = 83;
  options.assemble = false;
  llvm::Expected<NVPTXCompileResult> result = compileToCubin(
      *module, options, nullptr, nullptr, std::move(other.pipeline));
  ASSERT_TRUE(bool(result)) << errorText(result.takeError());
  EXPECT_THAT(result->ptx, HasSubstr(".target sm_90a"));
  EXPECT_THAT(result->ptx, HasSubstr(".entry add_one"));
}

TEST_F(LLVMPipelines, NothingOmittedWithoutAList) {
  std::vector<std::string> omitted;
  ASSERT_FALSE(
      errorText(optimizeModule(*module, *tm, 3, {}, &omitted)).size());
  EXPECT_TRUE(omitted.empty());
}

/// The shape of libdevice's float trig reduction (libdevice.10.bc's
/// __nv_cosf, cut down): the fast path, a range check on |x|, and a slow
/// path that loops over the table @__cudart_i2opi_f into a local array,
/// joining the fast path before the polynomial. `@PRED@` is the range
/// check's predicate, `@SLOWEXIT@` the slow path's last instruction.
constexpr const char *kTrigIR = R"(
@__cudart_i2opi_f = internal addrspace(1) global [6 x i32] [i32 1, i32 2, i32 3, i32 4, i32 5, i32 6]

define internal float @trig(float %a) alwaysinline {
entry:
  %result = alloca [7 x i32], align 4
  %scaled = fmul float %a, 0x3FE45F3060000000
  %q = fptosi float %scaled to i32
  %ax = call float @llvm.fabs.f32(float %a)
  %big = fcmp @PRED@ float %ax, 1.056150e+05
  br i1 %big, label %slow, label %join
slow:
  %bits = bitcast float %a to i32
  br label %loop
loop:
  %i = phi i32 [ 0, %slow ], [ %next, %loop ]
  %hi = phi i32 [ 0, %slow ], [ %acc, %loop ]
  %idx = sext i32 %i to i64
  %word.p = getelementptr inbounds [6 x i32], ptr addrspace(1) @__cudart_i2opi_f, i64 0, i64 %idx
  %word = load i32, ptr addrspace(1) %word.p, align 4
  %prod = mul i32 %word, %bits
  %acc = add i32 %prod, %hi
  %slot = getelementptr inbounds [7 x i32], ptr %result, i64 0, i64 %idx
  store i32 %acc, ptr %slot, align 4
  %next = add nsw i32 %i, 1
  %more = icmp slt i32 %next, 6
  br i1 %more, label %loop, label %done
done:
  %top.p = getelementptr inbounds [7 x i32], ptr %result, i64 0, i64 5
  %top = load i32, ptr %top.p, align 4
  %r.slow = sitofp i32 %top to float
  @SLOWEXIT@
join:
  %quadrant = phi i32 [ %q, %entry ], [ %top, %done ]
  %r = phi float [ %scaled, %entry ], [ %r.slow, %done ]
  %qf = sitofp i32 %quadrant to float
  %y = fadd float %r, %qf
  ret float %y
}

define ptx_kernel void @k(ptr addrspace(1) %p) {
  %x = load float, ptr addrspace(1) %p
  %y = call float @trig(float %x)
  %z = call float @trig(float %y)
  store float %z, ptr addrspace(1) %p
  ret void
}

declare float @llvm.fabs.f32(float)
)";

/// Takes every function and global as libdevice's.
bool all(const llvm::GlobalValue &) { return true; }

std::unique_ptr<llvm::Module> parseTrig(llvm::LLVMContext &context,
                                        llvm::StringRef pred,
                                        llvm::StringRef slowExit) {
  std::string text = kTrigIR;
  text.replace(text.find("@PRED@"), 6, pred.str());
  text.replace(text.find("@SLOWEXIT@"), 10, slowExit.str());
  llvm::SMDiagnostic diagnostic;
  std::unique_ptr<llvm::Module> module =
      llvm::parseAssemblyString(text, diagnostic, context);
  EXPECT_TRUE(module) << diagnostic.getMessage().str();
  return module;
}

std::string printed(const llvm::Module &module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os, nullptr);
  return text;
}

TEST(TrigSlowPath, OutlinedIntoANoinlineColdFunction) {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module =
      parseTrig(context, "oge", "br label %join");
  ASSERT_TRUE(module);
  EXPECT_EQ(outlineTrigReductionSlowPaths(*module, all), 1u);
  EXPECT_FALSE(llvm::verifyModule(*module, &llvm::errs()));
  llvm::Function *slowPath =
      module->getFunction("trig.trig_reduction_slowpath");
  ASSERT_TRUE(slowPath);
  EXPECT_TRUE(slowPath->hasInternalLinkage());
  EXPECT_TRUE(slowPath->hasFnAttribute(llvm::Attribute::NoInline));
  EXPECT_TRUE(slowPath->hasFnAttribute(llvm::Attribute::Cold));
  EXPECT_FALSE(slowPath->hasFnAttribute(llvm::Attribute::AlwaysInline));
  // The local array moved into the slow path's entry block; the argument
  // and the two results (quadrant, reduced value) cross the call.
  auto arrayIn = [](llvm::Function &function) {
    return llvm::count_if(function.getEntryBlock(), [](llvm::Instruction &i) {
      auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&i);
      return alloca && alloca->getAllocatedType()->isArrayTy();
    });
  };
  EXPECT_EQ(arrayIn(*slowPath), 1);
  llvm::Function *trig = module->getFunction("trig");
  EXPECT_EQ(arrayIn(*trig), 0);
  EXPECT_EQ(slowPath->arg_size(), 3u);
  // The fast path stays in @trig, which is still alwaysinline, and reads
  // no table; the slow path is called once, from the range check's block.
  EXPECT_TRUE(trig->hasFnAttribute(llvm::Attribute::AlwaysInline));
  unsigned calls = 0;
  for (llvm::Instruction &inst : llvm::instructions(*trig))
    if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst))
      calls += call->getCalledFunction() == slowPath;
  EXPECT_EQ(calls, 1u);
  EXPECT_EQ(module->getGlobalVariable("__cudart_i2opi_f", true)->getNumUses(),
            1u);
  // Nothing more to move on a second run.
  EXPECT_EQ(outlineTrigReductionSlowPaths(*module, all), 0u);
}

TEST(TrigSlowPath, RegionsThatDoNotMatchAreLeftAsTheyAre) {
  // The branch on `fcmp olt` enters the slow path on its "true" edge for
  // small |x|: not a range check above the table's read.
  // The slow path can return instead of joining the fast path.
  // The table is not libdevice's.
  struct Case {
    const char *pred, *slowExit, *table;
  } cases[] = {
      {"olt", "br label %join", "__cudart_i2opi_f"},
      {"oge",
       "%neg = fcmp olt float %r.slow, 0.0\n"
       "  br i1 %neg, label %bail, label %join\n"
       "bail:\n"
       "  ret float %r.slow",
       "__cudart_i2opi_f"},
      {"oge", "br label %join", "my_table"},
  };
  for (const Case &c : cases) {
    llvm::LLVMContext context;
    std::unique_ptr<llvm::Module> module =
        parseTrig(context, c.pred, c.slowExit);
    ASSERT_TRUE(module);
    if (llvm::StringRef(c.table) != "__cudart_i2opi_f")
      module->getGlobalVariable("__cudart_i2opi_f", true)->setName(c.table);
    std::string before = printed(*module);
    EXPECT_EQ(outlineTrigReductionSlowPaths(*module, all), 0u)
        << c.pred << " / " << c.slowExit << " / " << c.table;
    EXPECT_EQ(printed(*module), before);
  }
}

// PtxasProcess::start makes ptxas's temporary files and registers them for
// removal on SIGINT/SIGTERM with kiln's cleanup signals blocked (6145330):
// a signal between the two left an empty kiln-ptxas-*.log (helper-76, 2-4
// of 200 signals sent into a compile). Here a child makes and removes them
// in a loop (no ptxas runs: early is false) until a SIGINT sent at a random
// moment ends it; whatever it was doing, nothing is left. With the
// signals not blocked there (the line commented out), three runs of this
// test left 149, 162 and 217 files behind.
TEST(PtxasProcessSignals, ASignalWhileMakingTheFilesLeavesNone) {
  const char *base = std::getenv("TEST_TMPDIR");
  std::string pattern =
      std::string(base && *base ? base : "/tmp") + "/kiln-ptxas-signal-XXXXXX";
  std::vector<char> dirName(pattern.begin(), pattern.end());
  dirName.push_back('\0');
  ASSERT_NE(::mkdtemp(dirName.data()), nullptr);
  std::string dir(dirName.data());
  std::mt19937 random(20261203);
  std::uniform_int_distribution<int> delayUs(200, 3000);
  NVPTXBackendOptions options;
  int endedBySignal = 0;
  for (int trial = 0; trial < 300; ++trial) {
    pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      ::setenv("TMPDIR", dir.c_str(), 1);
      kiln::installSignalCleanup();
      for (;;) {
        llvm::Expected<std::unique_ptr<PtxasProcess>> process =
            PtxasProcess::start("/bin/true", options, /*early=*/false);
        if (!process) {
          llvm::consumeError(process.takeError());
          ::_exit(3);
        }
      }
    }
    ::usleep(delayUs(random));
    int status = 0;
    if (kiln::cache::testing::interruptAndReap(child, SIGINT, &status))
      ++endedBySignal;
    else
      ADD_FAILURE() << "the child ended with status " << status;
  }
  EXPECT_EQ(endedBySignal, 300);
  std::vector<std::string> left = kiln::cache::fs::listDir(dir);
  EXPECT_THAT(left, ::testing::IsEmpty()) << "left in TMPDIR: " << left.size();
  kiln::cache::fs::removeTree(dir);
}

} // namespace

// An embedder's process with SIGCHLD ignored: its children are reaped by
// the kernel at once, so kiln cannot wait for ptxas. An error that says
// so, not a wait that never ends (the `kiln` tool itself puts back the
// default action at start: ptxas-early.test). In a child process, with
// /bin/true as ptxas (it exits without reading its input).
TEST(PtxasProcessSignals, SigchldIgnoredIsAnErrorThatSaysSo) {
  int pipeFds[2];
  ASSERT_EQ(::pipe(pipeFds), 0);
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::alarm(20);
    ::signal(SIGCHLD, SIG_IGN);
    NVPTXBackendOptions options;
    std::string message = "no error";
    llvm::Expected<std::unique_ptr<PtxasProcess>> process =
        PtxasProcess::start("/bin/true", options, /*early=*/false);
    if (!process) {
      message = "start: " + errorText(process.takeError());
    } else {
      llvm::Expected<PtxasOutput> output =
          (*process)->assemble(".version 8.0\n", "x.ptx");
      if (!output)
        message = errorText(output.takeError());
    }
    (void)!::write(pipeFds[1], message.data(), message.size());
    ::_exit(0);
  }
  ::close(pipeFds[1]);
  std::string message;
  char buffer[512];
  for (ssize_t n; (n = ::read(pipeFds[0], buffer, sizeof(buffer))) > 0;)
    message.append(buffer, n);
  ::close(pipeFds[0]);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_THAT(message, HasSubstr("No child processes"));
  EXPECT_THAT(message, HasSubstr("is SIGCHLD ignored in this process?"));
}

namespace {

/// A new folder under TEST_TMPDIR (or /tmp).
std::string makeTestDir(const char *name) {
  const char *base = std::getenv("TEST_TMPDIR");
  std::string pattern = std::string(base && *base ? base : "/tmp") + "/" +
                        name + "-XXXXXX";
  std::vector<char> dirName(pattern.begin(), pattern.end());
  dirName.push_back('\0');
  if (!::mkdtemp(dirName.data()))
    return "";
  return dirName.data();
}

} // namespace

// Only one thread ends the process (SignalCleanup.h, claimProcessEnd): a
// fault on another thread meanwhile waits for it, rather than running the
// cleanup and ending the process by its signal first (helper-86: out of
// memory on one thread and a SIGSEGV on another, exit status 139 after the
// out-of-memory error, the two messages interleaved). Here a thread claims
// the end, the main thread raises SIGSEGV, and the first thread finds the
// registered file still there 300 ms later, cleans up and exits with 7.
// Before, the SIGSEGV's handler removed the file and ended the child by
// SIGSEGV.
TEST(SignalCleanupEnd, AFaultOnAnotherThreadWaitsForTheEnd) {
  std::string dir = makeTestDir("kiln-signal-end");
  ASSERT_FALSE(dir.empty());
  std::string file = dir + "/registered";
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::alarm(20); // a hang ends by SIGALRM, not by the test's timeout
    kiln::installSignalCleanup();
    kiln::cache::testing::writeFileOrDie(file, "registered");
    kiln::removeOnSignal(file);
    int ready[2];
    if (::pipe(ready) != 0)
      ::_exit(3);
    std::thread ender([&] {
      kiln::claimProcessEnd();
      char byte = 1;
      (void)!::write(ready[1], &byte, 1);
      ::usleep(300000);
      bool there = ::access(file.c_str(), F_OK) == 0;
      kiln::runSignalCleanup();
      ::_exit(there ? 7 : 8);
    });
    char byte;
    if (::read(ready[0], &byte, 1) != 1)
      ::_exit(4);
    ::raise(SIGSEGV);
    ::_exit(5);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << "ended by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 7)
      << "8: the fault's handler removed the file first";
  EXPECT_NE(::access(file.c_str(), F_OK), 0) << "the cleanup left " << file;
  kiln::cache::fs::removeTree(dir);
}

// A folder registered for removal while another thread of the process
// makes files in it, as kiln's artifact threads do in the output
// directory's staging folder while a signal's cleanup runs: the folder is
// gone afterwards. The cleanup listed the folder, removed what it found and
// then rmdir'ed it once; a file made in between left the folder (the CI run
// of 4319a4c, SIGINT in signal-cleanup.test). In a child process, 300
// folders, each with a thread making up to 16 files until the folder is
// gone; the child exits with the number of folders left. Before, 147, 31
// and 44 of 300 were left in three runs here.
TEST(SignalCleanupEnd, AFolderFilledDuringTheCleanupIsRemoved) {
  std::string dir = makeTestDir("kiln-signal-folder");
  ASSERT_FALSE(dir.empty());
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::alarm(60);
    kiln::installSignalCleanup();
    int left = 0;
    for (int trial = 0; trial < 300; ++trial) {
      std::string folder = dir + "/f" + std::to_string(trial);
      if (::mkdir(folder.c_str(), 0700) != 0)
        ::_exit(200);
      kiln::removeOnSignal(folder, /*directory=*/true);
      std::atomic<bool> started{false};
      std::thread writer([&] {
        for (int i = 0; i < 16; ++i) {
          std::string file = folder + "/a" + std::to_string(i);
          int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
          if (fd < 0)
            break; // the folder is gone
          ::close(fd);
          started.store(true);
        }
        started.store(true);
      });
      while (!started.load()) {
      }
      kiln::runSignalCleanup();
      writer.join();
      kiln::dontRemoveOnSignal(folder);
      if (::access(folder.c_str(), F_OK) == 0)
        ++left;
    }
    ::_exit(std::min(left, 199));
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << "ended by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0) << "folders left (200: mkdir failed)";
  kiln::cache::fs::removeTree(dir);
}

// A fault in the thread that ends the process (in its own cleanup, say)
// ends it at once by that signal: it does not wait for itself.
TEST(SignalCleanupEnd, AFaultInTheEndingThreadEndsTheProcess) {
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::alarm(20);
    kiln::installSignalCleanup();
    kiln::claimProcessEnd();
    ::raise(SIGSEGV);
    ::_exit(5);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status)) << "exit status " << WEXITSTATUS(status);
  EXPECT_EQ(WTERMSIG(status), SIGSEGV);
}

// A fault inside a guarded LLVM stage (a CrashRecoveryContext, as
// runGuarded in NVPTXCodegen.cpp makes) still unwinds that stage with
// kiln's handler on top: nothing registered is removed, the compile goes
// on, and the thread's signal mask is as before. A fault outside the
// context then cleans up and ends the process by that signal. In both
// orders: kiln's handler installed first and put back over the context's
// (kiln's main; takeFaultsBeforeCrashRecovery), or the context enabled
// first (a library user's first compile reaches a guarded stage before
// anything registers a file). In the second order, before, the recovered
// fault went through LLVM's handler, which took itself and kiln's off:
// the fault outside then ended the process with nothing removed.
// Each order runs in a new process (this binary again, with
// KILN_GUARDED_FAULT_CHILD set): the earlier tests here enable crash
// recovery, and kiln's handler is installed once per process.
int guardedFaultChild(const std::string &order, const std::string &file) {
  ::alarm(20);
  if (order == "sent" || order == "ignored-sent") {
    // A SIGSEGV another process sends while a guarded stage runs: not a
    // crash of that stage (helper-87: `kill -SEGV` during codegen failed
    // the compile with "LLVM crashed"), but the end of the process after
    // the cleanup, or nothing where kiln was started with it ignored.
    if (order == "ignored-sent")
      ::signal(SIGSEGV, SIG_IGN);
    kiln::installSignalCleanup();
    kiln::cache::testing::writeFileOrDie(file, "registered");
    kiln::removeOnSignal(file);
    llvm::CrashRecoveryContext::Enable();
    kiln::takeFaultsBeforeCrashRecovery();
    llvm::CrashRecoveryContext context;
    bool ok = context.RunSafely([] {
      pid_t self = ::getpid();
      pid_t sender = ::fork();
      if (sender == 0) {
        ::kill(self, SIGSEGV);
        ::_exit(0);
      }
      // Delivered by the time waitpid returns (to this, the only thread).
      ::waitpid(sender, nullptr, 0);
    });
    if (!ok)
      return 20; // taken for a crash of the stage
    return ::access(file.c_str(), F_OK) == 0 ? 21 : 22;
  }
  if (order == "enable-first")
    llvm::CrashRecoveryContext::Enable();
  kiln::installSignalCleanup();
  kiln::cache::testing::writeFileOrDie(file, "registered");
  kiln::removeOnSignal(file);
  if (order == "install-first") {
    llvm::CrashRecoveryContext::Enable();
    kiln::takeFaultsBeforeCrashRecovery();
  }
  sigset_t before, after;
  ::pthread_sigmask(SIG_SETMASK, nullptr, &before);
  for (int round = 0; round < 2; ++round) {
    llvm::CrashRecoveryContext context;
    bool ok = context.RunSafely([&] {
      if (round == 0) {
        ::raise(SIGSEGV);
      } else {
        volatile int *volatile address = nullptr;
        *address = 1; // a real fault
      }
    });
    if (ok)
      return 10 + round; // not unwound
  }
  ::pthread_sigmask(SIG_SETMASK, nullptr, &after);
  if (::access(file.c_str(), F_OK) != 0)
    return 12; // cleaned up for a recovered fault
  for (int sig : {SIGINT, SIGTERM, SIGSEGV, SIGBUS})
    if (sigismember(&before, sig) != sigismember(&after, sig))
      return 13; // the mask changed
  ::raise(SIGSEGV); // outside: cleanup, then the end by SIGSEGV
  return 14;
}

[[maybe_unused]] const int guardedFaultChildRun = [] {
  const char *order = std::getenv("KILN_GUARDED_FAULT_CHILD");
  const char *file = std::getenv("KILN_GUARDED_FAULT_FILE");
  if (order && file)
    ::_exit(guardedFaultChild(order, file));
  return 0;
}();

/// Runs guardedFaultChild(order, file) in a new backend_test process and
/// puts its wait status in `status`; false where it could not be started or
/// waited for.
bool runGuardedFaultChild(const char *order, const std::string &file,
                          int &status) {
  pid_t child = ::fork();
  if (child < 0)
    return false;
  if (child == 0) {
    ::setenv("KILN_GUARDED_FAULT_CHILD", order, 1);
    ::setenv("KILN_GUARDED_FAULT_FILE", file.c_str(), 1);
    ::execl("/proc/self/exe", "backend_test", static_cast<char *>(nullptr));
    ::_exit(127);
  }
  return ::waitpid(child, &status, 0) == child;
}

TEST(SignalCleanupEnd, AFaultSentDuringAGuardedStageIsNoCrashOfIt) {
  for (const char *order : {"sent", "ignored-sent"}) {
    std::string dir = makeTestDir("kiln-signal-sent");
    ASSERT_FALSE(dir.empty());
    std::string file = dir + "/registered";
    int status = 0;
    ASSERT_TRUE(runGuardedFaultChild(order, file, status)) << order;
    if (std::string(order) == "sent") {
      ASSERT_TRUE(WIFSIGNALED(status))
          << order << ": exit status " << WEXITSTATUS(status)
          << " (20: taken for a crash of the stage)";
      EXPECT_EQ(WTERMSIG(status), SIGSEGV);
      EXPECT_NE(::access(file.c_str(), F_OK), 0)
          << order << ": the cleanup left " << file;
    } else {
      ASSERT_TRUE(WIFEXITED(status)) << order << ": ended by signal "
                                     << WTERMSIG(status);
      EXPECT_EQ(WEXITSTATUS(status), 21)
          << order << ": 20: taken for a crash; 22: cleaned up";
    }
    kiln::cache::fs::removeTree(dir);
  }
}

TEST(SignalCleanupEnd, AFaultInAGuardedStageUnwindsIt) {
  for (const char *order : {"install-first", "enable-first"}) {
    std::string dir = makeTestDir("kiln-signal-guarded");
    ASSERT_FALSE(dir.empty());
    std::string file = dir + "/registered";
    int status = 0;
    ASSERT_TRUE(runGuardedFaultChild(order, file, status)) << order;
    ASSERT_TRUE(WIFSIGNALED(status))
        << order << ": exit status " << WEXITSTATUS(status);
    EXPECT_EQ(WTERMSIG(status), SIGSEGV) << order;
    EXPECT_NE(::access(file.c_str(), F_OK), 0)
        << order << ": the cleanup left " << file;
    kiln::cache::fs::removeTree(dir);
  }
}
