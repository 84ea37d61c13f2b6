//===- CompileAMDGPU.cpp - `kiln compile --target gfx90a|gfx942` ----------===//
//
// TTIR -> LLVM + ROCDL (kiln-ttir-to-llvm-amdgpu) -> code object (hsaco),
// written with the stage IRs and a metadata.json (backend "hip", 64-lane
// wavefronts) beside it, through the compile cache like an NVPTX compile.
//
//===----------------------------------------------------------------------===//

#include "tools/kiln/CompileCommand.h"
#include "cache/Sha256.h"
#include "tools/kiln/CompileJobBuilder.h"
#include "tools/common/BytecodeAsText.h"
#include "tools/common/SourceFiles.h"
#include "tools/kiln/KernelInfo.h"

#include "dialects/tt/IR/TTOps.h"
#include "pipelines/amdgpu/AMDGPUBackend.h"
#include "pipelines/amdgpu/AMDGPUPipeline.h"
#include "pipelines/common/StageTimer.h"
#include "pipelines/nvptx/NVPTXBackend.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

namespace kiln::tool {

namespace {

int fail(const llvm::Twine &message) {
  llvm::errs() << "kiln: error: " << message << "\n";
  return 1;
}

} // namespace

int runCompileAMDGPU(const CompileOptions &options, CompileOutcome *outcome) {
  kiln::StageTimer total;
  if (llvm::Error err = kiln::amdgpu::validateTarget(options.arch))
    return fail(llvm::toString(std::move(err)));
  // NVPTX-only options would be silently ignored (and so could not be in
  // the job): refuse them.
  if (options.ftz || !options.fpFusion || options.maxnreg != 0 ||
      options.ptxasFastCompile != "0")
    return fail(llvm::Twine("--") +
                (options.ftz                 ? "ftz"
                 : !options.fpFusion         ? "no-fp-fusion"
                 : options.maxnreg != 0      ? "maxnreg"
                                             : "ptxas-fast-compile") +
                " applies to NVPTX targets only, not --target " + options.arch);
  if (options.numStages < 1)
    return fail("--num-stages must be at least 1, got " +
                llvm::Twine(options.numStages));
  if (options.numWarps < 1 || options.numWarps > 16 ||
      !llvm::isPowerOf2_32(options.numWarps))
    return fail("--num-warps must be a power of two in [1, 16] for AMDGPU "
                "(64-lane wavefronts, 1024 threads per workgroup), got " +
                llvm::Twine(options.numWarps));
  llvm::Expected<std::string> lld = kiln::amdgpu::findLld("");
  if (!lld)
    return fail(llvm::toString(lld.takeError()));

  mlir::DialectRegistry registry;
  kiln::tt::registerTTIRDialects(registry);
  registry.insert<mlir::LLVM::LLVMDialect, mlir::ROCDL::ROCDLDialect>();
  kiln::amdgpu::registerAMDGPUTranslations(registry);
  mlir::MLIRContext context(registry);
  context.disableMultithreading();
  context.printOpOnDiagnostic(false);

  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input =
      mlir::openInputFile(options.inputFile, &errorMessage);
  if (!input)
    return fail(errorMessage);
  input = kiln::tool::inputAsText(std::move(input)); // MLIR bytecode as text
  if (!input)
    return 1;
  llvm::SourceMgr sourceMgr;
  // Other files' lines in diagnostics: SourceFiles.h.
  sourceMgr.setVirtualFileSystem(kiln::tool::sourceLineFileSystem());
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      parseKernelSource(sourceMgr, context);
  if (!module)
    return 1;

  // The kernel: the one public tt.func (or --kernel).
  std::vector<kiln::tt::FuncOp> kernels;
  for (auto fn : module->getOps<kiln::tt::FuncOp>())
    if (fn.isPublic() && (options.kernel.empty() || fn.getName() == options.kernel))
      kernels.push_back(fn);
  if (kernels.size() != 1)
    return fail(options.inputFile + ": expected one public tt.func" +
                (options.kernel.empty() ? "" : " named " + options.kernel) +
                " for --target " + options.arch + ", found " +
                llvm::Twine(kernels.size()));
  std::string kernelName = kernels[0].getName().str();
  if (llvm::Error err = ArtifactWriter::checkKernelName(kernelName))
    return fail(options.inputFile + ": " + llvm::toString(std::move(err)));
  // Only the selected kernel is compiled: the module's other public
  // kernels (which --kernel did not pick) must not be able to fail it.
  if (!options.kernel.empty())
    for (auto fn : llvm::make_early_inc_range(module->getOps<kiln::tt::FuncOp>()))
      if (fn.isPublic() && fn.getName() != options.kernel &&
          mlir::SymbolTable::symbolKnownUseEmpty(fn, *module))
        fn.erase();
  mlir::FailureOr<std::vector<KernelArg>> signature = signatureFromTTFunc(
      mlir::cast<mlir::FunctionOpInterface>(kernels[0].getOperation()));
  if (mlir::failed(signature))
    return 1;

  std::string dir = options.outputDir;
  if (dir.empty())
    dir = (llvm::Twine("kiln-out/") + kernelName).str();

  kiln::pipelines::AMDGPUPipelineOptions pipelineOptions;
  pipelineOptions.numWarps = options.numWarps;
  pipelineOptions.numStages = options.numStages;
  pipelineOptions.arch = options.arch;
  kiln::amdgpu::AMDGPUBackendOptions backendOptions;
  backendOptions.arch = options.arch;
  backendOptions.lldPath = *lld;

  // The compile job, as for NVPTX (see runCompile): TTIR text and argument
  // names, target, options, the printed pipeline, kiln/LLVM/ld.lld identity.
  kiln::cache::CompileJob job;
  job.source.kind = kiln::cache::SourceKind::kTTIR;
  job.source.contentHash = sourceContentHash(*module, *signature);
  job.source.entry = kernelName;
  job.target.backend = "hip";
  job.target.arch = options.arch;
  job.target.ptxVersion = 0;
  job.target.codeObjectVersion = backendOptions.codeObjectVersion;
  job.target.warpSize = 64;
  job.options.numWarps = options.numWarps;
  job.options.numStages = options.numStages;
  job.options.optLevel = backendOptions.optLevel;
  {
    mlir::PassManager printed(&context);
    kiln::pipelines::buildTTIRToLLVMAMDGPUPipeline(printed, pipelineOptions);
    job.pipelineFingerprint =
        kiln::cache::pipelineFingerprint(printedPipeline(printed), {});
  }
  llvm::Expected<kiln::cache::JobToolchain> toolchain =
      toolchainIdentity("", "", /*nvptx=*/false);
  if (!toolchain)
    return fail(llvm::toString(toolchain.takeError()));
  job.toolchain = *toolchain;
  const std::string memoRoot = toolMemoRoot(options.cacheDir);
  llvm::Expected<std::string> lldVersion =
      memoizedFileFact(memoRoot, "lld-version", *lld,
                       [&] { return kiln::amdgpu::getLldVersion(*lld); });
  if (!lldVersion)
    return fail(llvm::toString(lldVersion.takeError()));
  job.toolchain.linkerVersion = *lldVersion;
  // The device math library a kernel may link (ocml.bc): its bytes are part
  // of the identity when present; a kernel that needs it and finds none
  // fails in the backend by name.
  if (llvm::Expected<std::string> ocml = kiln::amdgpu::findRocmDeviceLibs("")) {
    llvm::Expected<std::string> hash = memoizedFileFact(
        memoRoot, "sha256", *ocml, [&] { return fileSha256(*ocml); });
    if (!hash)
      return fail(llvm::toString(hash.takeError()));
    job.toolchain.libdeviceSha256 = *hash;
  } else {
    llvm::consumeError(ocml.takeError());
  }
  llvm::Expected<std::string> key = keyCompileJob(job, kernelName, dir, outcome);
  if (!key)
    return fail(llvm::toString(key.takeError()));
  const std::string jobKey = *key;

  auto compileAndWrite = [&](ArtifactWriter &artifacts) -> int {
  if (llvm::Error err = createArtifactDirs(dir, options.stageDump))
    return fail(llvm::toString(std::move(err)));
  kiln::StageTimer pipelineTimer;
  mlir::PassManager pm(&context);
  kiln::pipelines::buildTTIRToLLVMAMDGPUPipeline(pm, pipelineOptions);
  pm.addInstrumentation(
      createStageDumper(*module, artifacts, kernelName, options.stageDump));
  if (mlir::failed(pm.run(*module)) || artifacts.failed())
    return 1;
  double pipelineMs = pipelineTimer.elapsedUs() / 1000.0;

  {
    std::string text;
    llvm::raw_string_ostream os(text);
    module->print(os);
    if (!artifacts.write(kernelName + ".llvm.mlir", text))
      return 1;
  }

  llvm::Expected<kiln::amdgpu::AMDGPUCompileResult> compiled =
      kiln::amdgpu::compileToHsaco(*module, backendOptions);
  if (!compiled)
    return fail(options.inputFile + ": " + llvm::toString(compiled.takeError()));

  KernelMetadata metadata;
  metadata.kernel = kernelName;
  metadata.backend = "hip";
  metadata.arch = options.arch;
  metadata.warpSize = 64;
  metadata.numWarps = options.numWarps;
  metadata.numStages = options.numStages;
  metadata.jobKey = jobKey;
  if (auto shared = (*module)->getAttrOfType<mlir::IntegerAttr>("kgpu.shared"))
    metadata.sharedBytes = shared.getInt();
  metadata.signature = std::move(*signature);
  // Resources as the code object describes the kernel.
  for (const kiln::amdgpu::CodeObjectKernelInfo &k : compiled->kernels)
    if (k.name == kernelName) {
      if (k.wavefrontSize != 64)
        return fail(options.inputFile + ": code object: " + kernelName +
                    " has wavefront size " + llvm::Twine(k.wavefrontSize) +
                    ", expected 64");
      metadata.registers = static_cast<int>(k.vgprCount);
      // Spilled VGPRs, 4 bytes per lane each, stored and reloaded: the
      // counterpart of ptxas's "bytes spill stores/loads". (The private
      // segment size also counts stack objects, so it is not used here.)
      metadata.spillStoreBytes = 4 * std::max<int64_t>(0, k.vgprSpillCount);
      metadata.spillLoadBytes = metadata.spillStoreBytes;
      metadata.codeObject = {k.wavefrontSize, k.vgprCount, k.sgprCount,
                             k.kernargSegmentSize, k.groupSegmentFixedSize,
                             k.privateSegmentFixedSize};
      metadata.sharedBytes += std::max<int64_t>(0, k.groupSegmentFixedSize);
    }
  metadata.binaryFile = kernelName + ".hsaco";
  metadata.binarySize = compiled->hsaco.size();
  metadata.binarySha256 = kiln::cache::sha256Hex(compiled->hsaco);
  if (!artifacts.write(kernelName + ".ll", compiled->llvmIR) ||
      !artifacts.write(metadata.binaryFile, compiled->hsaco) ||
      !artifacts.write("metadata.json", toMetadataJson(metadata)) ||
      !artifacts.publish())
    return 1;

  const kiln::amdgpu::AMDGPUStageTimings &t = compiled->timings;
  if (!options.quiet)
    llvm::outs() << llvm::formatv(
        "kiln: {0} -> {1} ({2}, code object v5, {10} VGPRs, hsaco {3} B) in {4:f1} ms "
        "[pipeline {5:f1}, translate {6:f1}, optimize {7:f1}, codegen {8:f1}, "
        "ld.lld {9:f1}]\n",
        kernelName, dir, options.arch, compiled->hsaco.size(), total.elapsedUs() / 1000.0,
        pipelineMs, t.translateUs / 1000.0, t.optimizeUs / 1000.0,
        t.codegenUs / 1000.0, t.linkUs / 1000.0, metadata.registers);
  return 0;
  };
  // A compile that fails publishes what it wrote too, in place of the
  // earlier set (ArtifactWriter::publish).
  auto compileToDir = [&](ArtifactWriter &artifacts) -> int {
    int status = compileAndWrite(artifacts);
    if (!artifacts.publish() && status == 0)
      status = 1;
    return status;
  };

  if (!options.useCache || options.timings || options.stageDump) {
    ArtifactWriter artifacts(dir, kernelName, /*keep=*/false);
    return compileToDir(artifacts);
  }
  return compileThroughCache(
      job, options, kernelName, dir, total, compileToDir, outcome,
      {kernelName + ".kgpu.mlir", kernelName + ".llvm.mlir", kernelName + ".ll",
       kernelName + ".hsaco", "metadata.json"},
      options.arch + ", code object v" +
          std::to_string(backendOptions.codeObjectVersion));
}

} // namespace kiln::tool
