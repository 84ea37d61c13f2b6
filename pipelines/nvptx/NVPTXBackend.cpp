//===- NVPTXBackend.cpp - LLVM dialect module to PTX and cubin ------------===//
//
// compileToCubin(): the MLIR-facing entry point. Translates the LLVM + NVVM
// dialect module to LLVM IR, then runs the LLVM stages of NVPTXCodegen.cpp
// and ptxas (NVPTXToolchain.cpp), timing each stage.
//
//===----------------------------------------------------------------------===//

#include "pipelines/nvptx/NVPTXBackend.h"

#include "pipelines/common/Error.h"
#include "pipelines/common/SideThread.h"
#include "pipelines/common/StageTimer.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <future>

namespace kiln::nvptx {
namespace {

/// "file:line:col" of `loc` when it holds one, else its printed form.
std::string formatLocation(mlir::Location loc) {
  if (auto fileLoc = loc->findInstanceOf<mlir::FileLineColLoc>())
    return (fileLoc.getFilename().getValue() + ":" +
            llvm::Twine(fileLoc.getLine()) + ":" +
            llvm::Twine(fileLoc.getColumn()))
        .str();
  std::string text;
  llvm::raw_string_ostream os(text);
  os << loc;
  return text;
}

/// Translates `module` to LLVM IR in `context`, turning the MLIR errors the
/// translation emits into one llvm::Error.
llvm::Expected<std::unique_ptr<llvm::Module>>
translate(mlir::ModuleOp module, llvm::LLVMContext &context) {
  mlir::MLIRContext *mlirContext = module.getContext();
  mlir::DialectRegistry registry;
  registerNVPTXTranslations(registry);
  mlirContext->appendDialectRegistry(registry);

  std::string messages;
  mlir::ScopedDiagnosticHandler handler(
      mlirContext, [&](mlir::Diagnostic &diag) {
        if (diag.getSeverity() != mlir::DiagnosticSeverity::Error)
          return mlir::success();
        messages += "\n" + formatLocation(diag.getLocation()) +
                    ": error: " + diag.str();
        for (const mlir::Diagnostic &note : diag.getNotes())
          messages += "\n" + formatLocation(note.getLocation()) +
                      ": note: " + note.str();
        return mlir::success();
      });
  llvm::StringRef name = module.getName() ? *module.getName() : "kiln";
  std::unique_ptr<llvm::Module> llvmModule =
      mlir::translateModuleToLLVMIR(module, context, name);
  if (!llvmModule)
    return makeError("translate to LLVM IR: the module is not valid LLVM "
                     "dialect IR" +
                     (messages.empty() ? llvm::Twine("") : ":" + messages));
  return std::move(llvmModule);
}

} // namespace

void registerNVPTXTranslations(mlir::DialectRegistry &registry) {
  mlir::registerBuiltinDialectTranslation(registry);
  mlir::registerLLVMDialectTranslation(registry);
  mlir::registerNVVMDialectTranslation(registry);
}

llvm::Expected<NVPTXCompileResult>
compileToCubin(mlir::ModuleOp module, const NVPTXBackendOptions &options,
               PtxasProcess *startedPtxas,
               std::unique_ptr<llvm::TargetMachine> targetMachine,
               std::unique_ptr<NVPTXCodegenPipeline> codegenPipeline) {
  NVPTXCompileResult result;

  // A codegen pipeline comes with the caller's target machine: without one,
  // it was made for a machine this compile does not use.
  if (!targetMachine)
    codegenPipeline.reset();
  // Check what can fail cheaply before the expensive stages.
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> tm =
      targetMachine ? std::move(targetMachine)
                    : createNVPTXTargetMachine(options.arch, options.ptxVersion,
                                               options.optLevel,
                                               options.fpFusion);
  if (!tm)
    return tm.takeError();
  if (options.assemble) {
    llvm::Expected<std::string> ptxas = findPtxas(options.ptxasPath);
    if (!ptxas)
      return ptxas.takeError();
    result.ptxasPath = std::move(*ptxas);
  }
  // Started now, ptxas initializes while LLVM runs (see PtxasProcess).
  std::unique_ptr<PtxasProcess> ownPtxas;
  if (options.assemble && !startedPtxas) {
    llvm::Expected<std::unique_ptr<PtxasProcess>> started =
        PtxasProcess::start(result.ptxasPath, options, /*early=*/true);
    if (!started)
      return started.takeError();
    ownPtxas = std::move(*started);
    startedPtxas = ownPtxas.get();
  }

  llvm::LLVMContext context;
  StageTimer translateTimer;
  llvm::Expected<std::unique_ptr<llvm::Module>> llvmModule =
      translate(module, context);
  if (!llvmModule)
    return llvmModule.takeError();
  prepareModuleForNVPTX(**llvmModule, **tm, options.ftz);
  result.timings.translateUs = translateTimer.elapsedUs();
  if (options.afterTranslate)
    options.afterTranslate();

  if (needsLibdevice(**llvmModule)) {
    StageTimer linkTimer;
    llvm::Expected<std::string> libdevice = findLibdevice(options.libdevicePath);
    if (!libdevice)
      return libdevice.takeError();
    if (llvm::Error err = linkLibdevice(**llvmModule, *libdevice, options.ftz))
      return std::move(err);
    result.libdevicePath = std::move(*libdevice);
    result.timings.linkLibdeviceUs = linkTimer.elapsedUs();
  }

  StageTimer optimizeTimer;
  if (llvm::Error err = optimizeModule(**llvmModule, **tm, options.optLevel,
                                       omittedO3PassRuns()))
    return std::move(err);
  result.timings.optimizeUs = optimizeTimer.elapsedUs();
  for (const llvm::Function &function : **llvmModule)
    if (function.getCallingConv() == llvm::CallingConv::PTX_Kernel &&
        !function.isDeclaration())
      result.kernels.push_back(function.getName().str());

  // The optimized IR as text is an artifact (megabytes for a matmul, ~10 ms
  // to print). Codegen changes the module it compiles, so the text comes
  // from a bitcode copy: this thread writes the bitcode and compiles the
  // module itself, while another thread reads the copy into an LLVMContext
  // of its own and prints it. Reading the copy back (2-4 ms for a matmul
  // or an attention kernel) is then off the compile's critical path. The
  // copy's text differs from the module's only where the bitcode reader
  // re-derives intrinsic declarations' attributes from LLVM's intrinsic
  // tables.
  StageTimer codegenTimer;
  llvm::SmallVector<char, 0> bitcode;
  {
    llvm::raw_svector_ostream bos(bitcode);
    // Use-list order kept: the printer lists each block's predecessors
    // (`; preds = ...`) in that order.
    llvm::WriteBitcodeToFile(**llvmModule, bos,
                             /*ShouldPreserveUseListOrder=*/true);
  }
  std::future<llvm::Expected<std::string>> llvmIRText = runOnSideThread(
      [bitcode = std::move(bitcode),
       id = (*llvmModule)->getModuleIdentifier()]()
          -> llvm::Expected<std::string> {
        llvm::LLVMContext textContext;
        llvm::Expected<std::unique_ptr<llvm::Module>> copy =
            llvm::parseBitcodeFile(
                llvm::MemoryBufferRef(
                    llvm::StringRef(bitcode.data(), bitcode.size()), id),
                textContext);
        if (!copy)
          return makeError("cannot read back the optimized module to print "
                           "it: " + llvm::toString(copy.takeError()));
        std::string text;
        llvm::raw_string_ostream os(text);
        (*copy)->print(os, nullptr);
        return text;
      });
  auto takeIRText = [&]() -> llvm::Error {
    llvm::Expected<std::string> text = llvmIRText.get();
    if (!text)
      return text.takeError();
    result.llvmIR = std::move(*text);
    return llvm::Error::success();
  };
  llvm::Expected<std::string> ptx =
      emitPTX(**llvmModule, **tm, nullptr, std::move(codegenPipeline));
  if (!ptx)
    return ptx.takeError();
  result.ptx = std::move(*ptx);
  result.timings.codegenUs = codegenTimer.elapsedUs();
  if (options.afterCodegen)
    options.afterCodegen(result.ptx);

  if (!options.assemble) {
    if (llvm::Error err = takeIRText())
      return std::move(err);
    return std::move(result);
  }
  StageTimer ptxasTimer;
  std::string displayName =
      (result.kernels.empty() ? std::string("module") : result.kernels.front()) +
      ".ptx";
  llvm::Expected<PtxasOutput> assembled =
      startedPtxas->assemble(result.ptx, displayName);
  if (!assembled)
    return assembled.takeError();
  result.timings.ptxasStartWaitUs = assembled->startWaitUs;
  result.cubin = std::move(assembled->cubin);
  result.ptxasLog = std::move(assembled->log);
  result.ptxasInfo = parsePtxasLog(result.ptxasLog);
  result.timings.ptxasUs = ptxasTimer.elapsedUs();
  if (llvm::Error err = takeIRText())
    return std::move(err);
  return std::move(result);
}

} // namespace kiln::nvptx
