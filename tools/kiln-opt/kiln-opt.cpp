//===- kiln-opt.cpp - mlir-opt with kiln's dialects and passes ------------===//
//
// The driver compiler engineers use to run kiln passes on .ttir/.mlir files:
// kiln's dialects and passes, the upstream dialects TTIR and our pipelines
// use, and out-of-tree plugins through --load-pass-plugin /
// --load-dialect-plugin (handled by MlirOptMain).
//
//===----------------------------------------------------------------------===//

#include "dialects/kgpu/IR/KGPUDialect.h"
#include "dialects/tt/IR/TTOps.h"
#include "pipelines/amdgpu/AMDGPUPipeline.h"
#include "pipelines/nvptx/NVPTXPipeline.h"
#include "tools/common/BytecodeAsText.h"
#include "tools/common/ChildSignal.h"
#include "tools/common/NestingDepth.h"
#include "tools/common/StackLimit.h"
#include "tools/kiln-opt/SourceLineGuard.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/Support/Allocator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/PrettyStackTrace.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

#include <csignal>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

/// The plugin options of `args` (up to a `--`): --load-pass-plugin or
/// --load-dialect-plugin (with one dash or two, `=PATH` or PATH as the next
/// argument), each as its option's name and its path.
static std::vector<std::pair<llvm::StringRef, std::string>>
pluginOptions(llvm::ArrayRef<const char *> args) {
  std::vector<std::pair<llvm::StringRef, std::string>> found;
  for (size_t i = 1; i < args.size(); ++i) {
    llvm::StringRef arg(args[i]);
    if (arg == "--")
      break;
    llvm::StringRef name = arg.ltrim('-');
    if (name.size() == arg.size())
      continue;
    for (llvm::StringRef option : {"load-pass-plugin", "load-dialect-plugin"}) {
      llvm::StringRef rest = name;
      if (!rest.consume_front(option))
        continue;
      if (rest.consume_front("="))
        found.emplace_back(option, rest.str());
      else if (rest.empty() && i + 1 < args.size())
        found.emplace_back(option, args[++i]);
    }
  }
  return found;
}

/// Loads every plugin named by --load-pass-plugin / --load-dialect-plugin
/// (`--opt=PATH`, `-opt=PATH` or `--opt PATH`) once before MlirOptMain does:
/// it only prints "Failed to load passes from 'PATH'. Request ignored." and
/// goes on to exit 0 with the plugin's passes missing, for a file that is
/// not a shared library, one without mlirGetPassPluginInfo /
/// mlirGetDialectPluginInfo, a wrong plugin API version, or a bare name
/// dlopen does not find. Here each is an error with the loader's reason.
/// Loading twice is harmless: the library stays loaded (dlopen counts), and
/// its registration callback runs once, from MlirOptMain.
static bool checkPlugins(llvm::ArrayRef<const char *> args) {
  bool ok = true;
  for (const auto &[option, path] : pluginOptions(args)) {
    llvm::Error error = option == "load-pass-plugin"
                            ? mlir::PassPlugin::load(path).takeError()
                            : mlir::DialectPlugin::load(path).takeError();
    if (error) {
      llvm::errs() << "kiln-opt: error: --" << option << "=" << path
                   << ": cannot load the plugin: "
                   << llvm::toString(std::move(error)) << "\n";
      ok = false;
    }
  }
  return ok;
}

/// The options a bytecode reader child (BytecodeAsText.h) needs to read
/// what this kiln-opt would: dialect plugins and unregistered dialects.
static std::vector<std::string> bytecodeReaderArgs(int argc, char **argv) {
  // Response files (@FILE) expanded first, as the option parser does
  // (helper-92: a plugin named in one reached the driver, not the reader).
  llvm::BumpPtrAllocator allocator;
  llvm::StringSaver saver(allocator);
  llvm::SmallVector<const char *, 32> expanded(argv, argv + argc);
  if (!llvm::cl::ExpandResponseFiles(saver, llvm::cl::TokenizeGNUCommandLine,
                                     expanded))
    expanded.assign(argv, argv + argc);
  std::vector<std::string> forwarded;
  for (const auto &[option, path] : pluginOptions(expanded))
    forwarded.push_back("--" + option.str() + "=" + path);
  for (size_t i = 1; i < expanded.size(); ++i) {
    llvm::StringRef arg(expanded[i]);
    if (arg == "--")
      break;
    if (arg.starts_with("-") &&
        arg.ltrim('-').starts_with("allow-unregistered-dialect"))
      forwarded.push_back(arg.str());
  }
  return forwarded;
}

/// kiln-opt's dialects: kiln's, and the upstream ones TTIR and the
/// pipelines use.
static void registerDialects(mlir::DialectRegistry &registry) {
  kiln::tt::registerTTIRDialects(registry);
  registry.insert<mlir::func::FuncDialect, mlir::gpu::GPUDialect,
                  mlir::NVVM::NVVMDialect, mlir::ROCDL::ROCDLDialect,
                  mlir::vector::VectorDialect, kiln::kgpu::KGPUDialect>();
}

int main(int argc, char **argv) {
  // The bytecode reader child: the dialects, plugins and
  // --allow-unregistered-dialect of the kiln-opt that started it.
  if (argc > 1 && std::strcmp(argv[1], kiln::tool::kBytecodeReaderArg) == 0) {
    kiln::tool::raiseStackLimit();
    std::vector<char *> args(argv, argv + argc);
    args.erase(args.begin() + 1);
    int childArgc = static_cast<int>(args.size());
    mlir::DialectRegistry registry;
    registerDialects(registry);
    mlir::registerAndParseCLIOptions(childArgc, args.data(),
                                     "kiln-opt bytecode reader\n", registry);
    return kiln::tool::runBytecodeReader(
        registry, mlir::MlirOptMainConfig::createFromCLOptions()
                      .shouldAllowUnregisteredDialects());
  }
  // A crash (in a plugin's registration callback, say) prints LLVM's stack
  // dump instead of ending with nothing on stderr.
  llvm::InitLLVM initLLVM(argc, argv);
  llvm::setBugReportMsg(
      "kiln-opt crashed. The stack dump below shows where: frames in a "
      "plugin's library point at the plugin (--load-pass-plugin, "
      "--load-dialect-plugin); report a crash in kiln itself with this "
      "command line and its input.\n");
  kiln::tool::raiseStackLimit(); // deeply nested IR: see StackLimit.h
  // kiln-opt waits for its bytecode reader child: see ChildSignal.h.
  kiln::tool::restoreDefaultChildSignal();
  if (!checkPlugins(std::vector<const char *>(argv, argv + argc)))
    return 1;
  // Print SSA names from NameLoc locations by default, as Triton does, so
  // kiln-opt's output of Triton TTIR reads like Triton's own. An explicit
  // --mlir-use-nameloc-as-prefix[=false] on the command line wins (an
  // option, not any argument holding that text: helper-89's input path).
  std::vector<char *> args(argv, argv + argc);
  bool explicitNameLoc = false;
  for (int i = 1; i < argc; ++i)
    if (llvm::StringRef(argv[i]).starts_with("-") &&
        llvm::StringRef(argv[i]).ltrim('-').starts_with(
            "mlir-use-nameloc-as-prefix"))
      explicitNameLoc = true;
  static char nameLocFlag[] = "--mlir-use-nameloc-as-prefix";
  if (!explicitNameLoc)
    args.insert(args.begin() + 1, nameLocFlag);
  argc = static_cast<int>(args.size());
  argv = args.data();

  mlir::DialectRegistry registry;
  registerDialects(registry);
  // kiln's passes and the named NVPTX pipeline (kiln-ttir-to-llvm-nvptx).
  kiln::pipelines::registerNVPTXPipeline();
  kiln::pipelines::registerAMDGPUPipeline();
  // Generic transforms: canonicalize, cse, inline, symbol-dce, sccp, ...
  mlir::registerTransformsPasses();
  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "kiln optimizer driver\n", registry);
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  // --show-dialects and --list-passes read no input: MLIR's driver.
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, inputFilename, outputFilename, registry));
  // Read once here (stdin cannot be read twice): input nested deeper than
  // MLIR's parser should take is refused before it recurses into it
  // (tools/common/NestingDepth.h; a million nested `[` overflowed the
  // stack, with LLVM's stack dump as the only message).
  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input =
      mlir::openInputFile(inputFilename, &errorMessage);
  if (!input) {
    llvm::errs() << errorMessage << "\n";
    return 1;
  }
  // MLIR bytecode: its declared counts checked, then read in a process of
  // its own and checked as the text it prints (BytecodeAsText.h).
  if (kiln::tool::isMlirBytecode(
          std::string_view(input->getBufferStart(), input->getBufferSize()))) {
    input = kiln::tool::inputAsText(std::move(input),
                                    bytecodeReaderArgs(argc, argv));
    if (!input)
      return 1;
  }
  if (kiln::tool::reportInputBeyondLimits(input->getBufferIdentifier(),
                                          input->getBuffer(), llvm::errs()))
    return 1;
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << errorMessage << "\n";
    return 1;
  }
  // Diagnostics whose locations name a FIFO, a device or a large or binary
  // file are printed without MLIR's source line (SourceLineGuard.h).
  if (!kiln::opt::addSourceLineGuard(*input, registry, config))
    return 1;
  if (mlir::failed(
          mlir::MlirOptMain(output->os(), std::move(input), registry, config)))
    return 1;
  output->keep();
  return 0;
}
