//===- AMDGPUBackend.cpp - LLVM + ROCDL dialects to a code object ---------===//

#include "pipelines/amdgpu/AMDGPUBackend.h"

#include "pipelines/common/Error.h"
#include "pipelines/common/SignalCleanup.h"
#include "pipelines/common/StageTimer.h"
#include "pipelines/common/ToolOutput.h"

#include "pipelines/nvptx/NVPTXBackend.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/ROCDL/ROCDLToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/MsgPackDocument.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Transforms/IPO/Internalize.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"

#include <mutex>

using namespace llvm;

namespace kiln::amdgpu {

namespace {

constexpr const char *kTriple = "amdgcn-amd-amdhsa";

const Target *amdgpuTarget(std::string &error) {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTarget();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmPrinter();
    // The object streamer parses inline asm (tl.inline_asm_elementwise)
    // with the target's asm parser; without one LLVM aborts ("Inline asm
    // not supported by this streamer").
    LLVMInitializeAMDGPUAsmParser();
  });
  return TargetRegistry::lookupTarget(Triple(kTriple), error);
}

} // namespace

void registerAMDGPUTranslations(mlir::DialectRegistry &registry) {
  mlir::registerBuiltinDialectTranslation(registry);
  mlir::registerLLVMDialectTranslation(registry);
  mlir::registerROCDLDialectTranslation(registry);
}

Error validateTarget(const std::string &arch) {
  if (arch != "gfx90a" && arch != "gfx942")
    return makeError("unknown AMDGPU target '" + arch +
                     "' (supported: gfx90a, gfx942)");
  return Error::success();
}

Expected<std::string> findRocmDeviceLibs(const std::string &explicitDir) {
  auto in = [](StringRef dir) {
    SmallString<256> path(dir);
    sys::path::append(path, "ocml.bc");
    return std::string(path);
  };
  if (!explicitDir.empty()) {
    if (sys::fs::is_regular_file(in(explicitDir)))
      return in(explicitDir);
    return makeError("ROCm device libraries: no ocml.bc in '" + explicitDir + "'");
  }
  if (const char *env = std::getenv("KILN_ROCM_DEVICE_LIBS"); env && *env) {
    if (sys::fs::is_regular_file(in(env)))
      return in(env);
    return makeError("ROCm device libraries: no ocml.bc in KILN_ROCM_DEVICE_LIBS '" +
                     Twine(env) + "'");
  }
  for (const char *dir : {"/usr/lib/x86_64-linux-gnu/amdgcn/bitcode",
                          "/opt/rocm/amdgcn/bitcode"})
    if (sys::fs::is_regular_file(in(dir)))
      return in(dir);
  return makeError("ROCm device libraries (ocml.bc) not found: install "
                   "Debian's rocm-device-libs or set KILN_ROCM_DEVICE_LIBS");
}

namespace {

/// Links ocml.bc (lazily, only what is called) after defining the __oclc_*
/// controls it reads; functions other than kernels become internal.
Error linkOcml(Module &module, StringRef ocmlPath, StringRef arch) {
  auto buffer = MemoryBuffer::getFile(ocmlPath, /*IsText=*/false,
                                      /*RequiresNullTerminator=*/false);
  if (!buffer)
    return makeError("link ocml: cannot read '" + ocmlPath +
                     "': " + buffer.getError().message());
  Expected<std::unique_ptr<Module>> ocml =
      getOwningLazyBitcodeModule(std::move(*buffer), module.getContext());
  if (!ocml)
    return makeError("link ocml: '" + ocmlPath + "' is not LLVM bitcode: " +
                     toString(ocml.takeError()));
  (*ocml)->setTargetTriple(module.getTargetTriple());
  (*ocml)->setDataLayout(module.getDataLayout());
  LLVMContext &ctx = module.getContext();
  auto control = [&](StringRef name, Type *type, uint64_t value) {
    auto *gv = new GlobalVariable(
        module, type, /*isConstant=*/true, GlobalValue::LinkOnceODRLinkage,
        ConstantInt::get(type, value), name, nullptr,
        GlobalValue::NotThreadLocal, /*AddressSpace=*/4);
    gv->setVisibility(GlobalValue::ProtectedVisibility);
    gv->setUnnamedAddr(GlobalValue::UnnamedAddr::Local);
    gv->setAlignment(Align(type->getIntegerBitWidth() / 8));
  };
  Type *i8 = Type::getInt8Ty(ctx), *i32 = Type::getInt32Ty(ctx);
  control("__oclc_unsafe_math_opt", i8, 0);
  control("__oclc_finite_only_opt", i8, 0);
  control("__oclc_daz_opt", i8, 0);
  control("__oclc_correctly_rounded_sqrt32", i8, 1);
  control("__oclc_wavefrontsize64", i8, 1);
  control("__oclc_ISA_version", i32, arch == "gfx942" ? 9402 : 9010);
  control("__oclc_ABI_version", i32, 500);
  std::string linkError;
  {
    // Diagnostics from the link (type clashes) land in linkError.
    struct Handler : DiagnosticHandler {
      std::string &out;
      explicit Handler(std::string &out) : out(out) {}
      bool handleDiagnostics(const DiagnosticInfo &info) override {
        if (info.getSeverity() == DS_Error) {
          raw_string_ostream os(out);
          DiagnosticPrinterRawOStream printer(os);
          info.print(printer);
        }
        return true;
      }
    };
    auto previous = ctx.getDiagnosticHandler();
    ctx.setDiagnosticHandler(std::make_unique<Handler>(linkError));
    bool failed = Linker::linkModules(module, std::move(*ocml),
                                      Linker::Flags::LinkOnlyNeeded);
    ctx.setDiagnosticHandler(std::move(previous));
    if (failed || !linkError.empty())
      return makeError("link ocml: linking '" + ocmlPath + "' failed" +
                       (linkError.empty() ? "" : ": " + Twine(linkError)));
  }
  internalizeModule(module, [](const GlobalValue &value) {
    const auto *fn = dyn_cast<Function>(&value);
    return !fn || fn->isDeclaration() ||
           fn->getCallingConv() == CallingConv::AMDGPU_KERNEL;
  });
  return Error::success();
}

} // namespace

Expected<std::string> getLldVersion(const std::string &lldPath) {
  return captureToolOutput(lldPath, {"--version"}, "ld.lld --version");
}

Expected<std::string> findLld(const std::string &explicitPath) {
  if (!explicitPath.empty()) {
    if (sys::fs::can_execute(explicitPath))
      return explicitPath;
    return makeError("ld.lld '" + explicitPath + "' is not an executable");
  }
  if (const char *env = std::getenv("KILN_LLD"); env && *env) {
    if (sys::fs::can_execute(env))
      return std::string(env);
    return makeError("KILN_LLD='" + Twine(env) + "' is not an executable");
  }
  // The lld of the LLVM kiln is built with: an older ld.lld (Debian's
  // default is 14) rejects code object v5 ("unknown abi version").
  if (ErrorOr<std::string> found = sys::findProgramByName("ld.lld-22"))
    return *found;
  if (const char *prefix = std::getenv("KILN_LLVM_PREFIX"); prefix && *prefix) {
    SmallString<256> path(prefix);
    sys::path::append(path, "bin", "ld.lld");
    if (sys::fs::can_execute(path))
      return std::string(path);
  }
  if (ErrorOr<std::string> found = sys::findProgramByName("ld.lld"))
    return *found;
  return makeError("ld.lld not found: install lld-22 (Debian), or set "
                   "KILN_LLD to an ld.lld of LLVM 22");
}

Expected<std::vector<CodeObjectKernelInfo>> readCodeObjectKernels(StringRef hsaco) {
  Expected<object::ELF64LEFile> elf = object::ELF64LEFile::create(hsaco);
  if (!elf)
    return makeError("code object: not a 64-bit ELF: " +
                     toString(elf.takeError()));
  auto phdrs = elf->program_headers();
  if (!phdrs)
    return makeError("code object: " + toString(phdrs.takeError()));
  std::vector<CodeObjectKernelInfo> kernels;
  bool found = false;
  for (const auto &phdr : *phdrs) {
    if (phdr.p_type != ELF::PT_NOTE)
      continue;
    Error err = Error::success();
    for (const auto &note : elf->notes(phdr, err)) {
      if (note.getName() != "AMDGPU" ||
          note.getType() != ELF::NT_AMDGPU_METADATA)
        continue;
      found = true;
      msgpack::Document doc;
      if (!doc.readFromBlob(note.getDescAsStringRef(4), false))
        return makeError("code object: the AMDGPU metadata is not msgpack");
      auto root = doc.getRoot();
      if (root.getKind() != msgpack::Type::Map)
        return makeError("code object: the AMDGPU metadata is not a map");
      auto &map = root.getMap();
      auto it = map.find(doc.getNode("amdhsa.kernels"));
      if (it == map.end() || it->second.getKind() != msgpack::Type::Array)
        return makeError("code object: no amdhsa.kernels in the metadata");
      for (auto &k : it->second.getArray()) {
        if (k.getKind() != msgpack::Type::Map)
          continue;
        CodeObjectKernelInfo info;
        auto &km = k.getMap();
        auto integer = [&](const char *key) -> int64_t {
          auto f = km.find(doc.getNode(key));
          if (f == km.end())
            return -1;
          if (f->second.getKind() == msgpack::Type::UInt)
            return int64_t(f->second.getUInt());
          if (f->second.getKind() == msgpack::Type::Int)
            return f->second.getInt();
          return -1;
        };
        if (auto f = km.find(doc.getNode(".name"));
            f != km.end() && f->second.getKind() == msgpack::Type::String)
          info.name = f->second.getString().str();
        info.wavefrontSize = integer(".wavefront_size");
        info.vgprCount = integer(".vgpr_count");
        info.sgprCount = integer(".sgpr_count");
        info.kernargSegmentSize = integer(".kernarg_segment_size");
        info.groupSegmentFixedSize = integer(".group_segment_fixed_size");
        info.privateSegmentFixedSize = integer(".private_segment_fixed_size");
        info.vgprSpillCount = integer(".vgpr_spill_count");
        info.sgprSpillCount = integer(".sgpr_spill_count");
        kernels.push_back(std::move(info));
      }
    }
    if (err)
      return makeError("code object: " + toString(std::move(err)));
  }
  if (!found)
    return makeError("code object: no NT_AMDGPU_METADATA note");
  return kernels;
}

Expected<AMDGPUCompileResult> compileToHsaco(mlir::ModuleOp module,
                                             const AMDGPUBackendOptions &options) {
  if (Error err = validateTarget(options.arch))
    return std::move(err);
  Expected<std::string> lld = findLld(options.lldPath);
  if (!lld)
    return lld.takeError();
  std::string error;
  const Target *target = amdgpuTarget(error);
  if (!target)
    return makeError("AMDGPU target unavailable in this LLVM: " + error);
  static constexpr CodeGenOptLevel levels[] = {
      CodeGenOptLevel::None, CodeGenOptLevel::Less, CodeGenOptLevel::Default,
      CodeGenOptLevel::Aggressive};
  int level = std::clamp(options.optLevel, 0, 3);
  std::unique_ptr<TargetMachine> tm(target->createTargetMachine(
      Triple(kTriple), options.arch, "", TargetOptions(), Reloc::PIC_,
      std::nullopt, levels[level]));
  if (!tm)
    return makeError("cannot create the AMDGPU target machine for " + options.arch);

  AMDGPUCompileResult result;
  StageTimer timer;
  LLVMContext context;
  std::string messages;
  mlir::ScopedDiagnosticHandler handler(
      module.getContext(), [&](mlir::Diagnostic &diag) {
        if (diag.getSeverity() == mlir::DiagnosticSeverity::Error)
          messages += "\n" + diag.str();
        return mlir::success();
      });
  std::unique_ptr<Module> llvmModule =
      mlir::translateModuleToLLVMIR(module, context, "kiln");
  if (!llvmModule)
    return makeError("translate to LLVM IR: the module is not valid LLVM "
                     "dialect IR" + Twine(messages));
  llvmModule->setTargetTriple(Triple(kTriple));
  llvmModule->setDataLayout(tm->createDataLayout());
  llvmModule->addModuleFlag(Module::Error, "amdhsa_code_object_version",
                            options.codeObjectVersion * 100);
  bool callsOcml = llvm::any_of(*llvmModule, [](const Function &fn) {
    return fn.isDeclaration() && fn.getName().starts_with("__ocml_");
  });
  if (callsOcml) {
    Expected<std::string> ocml = findRocmDeviceLibs(options.deviceLibDir);
    if (!ocml)
      return makeError("link: the kernel calls ROCm device-library (ocml) "
                       "functions: " + toString(ocml.takeError()));
    if (Error err = linkOcml(*llvmModule, *ocml, options.arch))
      return std::move(err);
  }
  result.timings.translateUs = timer.elapsedUs();

  timer.restart();
  if (Error err = kiln::nvptx::optimizeModule(*llvmModule, *tm, level))
    return std::move(err);
  result.timings.optimizeUs = timer.elapsedUs();
  // A call that nothing defines (a libdevice __nv_* function with no
  // intrinsic or ocml equivalent, or an unknown external) would load as an
  // unresolved symbol; reject it here by name.
  for (const Function &fn : *llvmModule)
    if (fn.isDeclaration() && !fn.isIntrinsic() && !fn.use_empty())
      return makeError("link: '" + fn.getName() +
                       "' is not defined for " + options.arch +
                       " (no LLVM intrinsic or ROCm ocml equivalent is "
                       "known to kiln)");
  raw_string_ostream(result.llvmIR) << *llvmModule;

  timer.restart();
  SmallString<0> object;
  {
    raw_svector_ostream os(object);
    legacy::PassManager pm;
    if (tm->addPassesToEmitFile(pm, os, nullptr, CodeGenFileType::ObjectFile))
      return makeError("codegen: the AMDGPU target cannot emit an object file");
    pm.run(*llvmModule);
  }
  result.timings.codegenUs = timer.elapsedUs();

  timer.restart();
  installSignalCleanup(); // before the directory exists
  SmallString<128> dir;
  if (std::error_code ec = sys::fs::createUniqueDirectory("kiln-amdgpu", dir))
    return makeError("link: cannot create a temporary directory: " + ec.message());
  SmallString<128> objPath(dir), hsacoPath(dir), logPath(dir);
  sys::path::append(objPath, "kernel.o");
  sys::path::append(hsacoPath, "kernel.hsaco");
  sys::path::append(logPath, "lld.log");
  // Removed with the files in it if a signal ends kiln while ld.lld runs.
  removeOnSignal(dir, /*directory=*/true);
  auto cleanup = [&] {
    for (StringRef path : {objPath.str(), hsacoPath.str(), logPath.str(), dir.str()})
      sys::fs::remove(path);
    dontRemoveOnSignal(dir);
  };
  if (Error err = nvptx::writeFileBytes(objPath, object)) {
    cleanup();
    return makeError("link: " + toString(std::move(err)));
  }
  // ld.lld is registered with kiln's signal cleanup while it runs (killed
  // and reaped before the directory is removed, so that it cannot write
  // kernel.hsaco into it afterwards).
  Expected<int> rc = runToolToFile(
      *lld, {"-shared", "--no-undefined", "-o", hsacoPath, objPath}, logPath);
  if (!rc || *rc != 0) {
    std::string log;
    if (auto buf = MemoryBuffer::getFile(logPath))
      log = (*buf)->getBuffer().str();
    cleanup();
    std::string why = rc ? "exit status " + std::to_string(*rc)
                         : toString(rc.takeError());
    return makeError("link: ld.lld failed (" + why + ")" +
                     (log.empty() ? "" : ":\n" + log));
  }
  auto hsaco = MemoryBuffer::getFile(hsacoPath);
  if (!hsaco) {
    cleanup();
    return makeError("link: cannot read " + hsacoPath);
  }
  result.hsaco = (*hsaco)->getBuffer().str();
  cleanup();
  result.timings.linkUs = timer.elapsedUs();
  Expected<std::vector<CodeObjectKernelInfo>> kernels =
      readCodeObjectKernels(result.hsaco);
  if (!kernels)
    return kernels.takeError();
  result.kernels = std::move(*kernels);
  return std::move(result);
}

} // namespace kiln::amdgpu
