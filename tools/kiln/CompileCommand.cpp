//===- CompileCommand.cpp - `kiln compile` --------------------------------===//
//
// parse -> (TTIR only) kiln-ttir-to-llvm-nvptx pipeline -> NVPTX backend ->
// artifact directory. Each stage is timed; errors name the file position
// (MLIR diagnostics) or the backend stage, and end with exit status 1.
//
//===----------------------------------------------------------------------===//

#include "tools/kiln/CompileCommand.h"

#include "dialects/kgpu/IR/KGPUDialect.h"
#include "dialects/tt/IR/TTDialect.h"
#include "pipelines/common/SideThread.h"
#include "pipelines/common/SignalCleanup.h"
#include "pipelines/common/StageTimer.h"
#include "pipelines/nvptx/NVPTXBackend.h"
#include "pipelines/nvptx/NVPTXPipeline.h"
#include "tools/common/BytecodeAsText.h"
#include "tools/common/ExitLeavingAddressSpace.h"
#include "tools/common/SourceFiles.h"
#include "tools/common/StackLimit.h"
#include "tools/kiln/CompileJobBuilder.h"
#include "tools/kiln/EarlyPtxas.h"
#include "tools/kiln/KernelInfo.h"

#include "cache/Sha256.h"
#include "cache/Store.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/BuryPointer.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <fcntl.h>
#include <functional>
#include <future>
#include <nlohmann/json.hpp>
#include <random>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace kiln::tool {
namespace {

int fail(const llvm::Twine &message) {
  llvm::errs() << "kiln: error: " << message << "\n";
  return 1;
}

std::string printOp(mlir::Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  // The IR was verified (after the pipeline, or by the pass that produced
  // it): without assumeVerified() the printer verifies the whole module
  // again first, to choose the generic form for invalid IR (a fifth of a
  // matmul compile's MLIR time).
  op->print(os, mlir::OpPrintingFlags().assumeVerified());
  return text;
}

/// Whether `module` already carries kiln's GPU dialect: a kgpu op, a tensor
/// with a kgpu encoding, or a `kgpu.*` module attribute.
bool hasGpuLayouts(mlir::ModuleOp module) {
  for (mlir::NamedAttribute attr : module->getAttrs())
    if (attr.getName().getValue().starts_with("kgpu."))
      return true;
  bool found = false;
  module.walk([&](mlir::Operation *op) {
    if (op->getName().getDialectNamespace() == "kgpu")
      found = true;
    for (mlir::Type type : op->getResultTypes())
      if (auto tensor = mlir::dyn_cast<mlir::RankedTensorType>(type))
        if (mlir::Attribute encoding = tensor.getEncoding())
          if (encoding.getDialect().getNamespace() == "kgpu")
            found = true;
    return found ? mlir::WalkResult::interrupt() : mlir::WalkResult::advance();
  });
  return found;
}

/// Writes `<kernel>.kgpu.mlir` after the first pass that introduces GPU
/// layouts and, with --stage-dump, the module after every pass.
class StageDumper : public mlir::PassInstrumentation {
public:
  StageDumper(mlir::ModuleOp root, ArtifactWriter &artifacts,
              std::string kernel, bool dumpAll)
      : root(root), artifacts(artifacts), kernel(std::move(kernel)),
        dumpAll(dumpAll) {}

  void runAfterPass(mlir::Pass *pass, mlir::Operation *) override {
    ++index;
    if (dumpAll) {
      llvm::StringRef passName = pass->getArgument().empty()
                                     ? pass->getName()
                                     : pass->getArgument();
      std::string file;
      llvm::raw_string_ostream(file)
          << llvm::format("%02d-", index) << passName << ".mlir";
      // Through the writer: into the directory it opened, and only the
      // first error printed (a full disk printed one per stage).
      artifacts.writeStageDump(file, printOp(root));
    }
    if (!wroteLayouts && hasGpuLayouts(root)) {
      wroteLayouts = true;
      artifacts.write(kernel + ".kgpu.mlir", printOp(root));
    }
  }

private:
  mlir::ModuleOp root;
  ArtifactWriter &artifacts;
  std::string kernel;
  bool dumpAll;
  bool wroteLayouts = false;
  int index = 0;
};

/// The functions of `module` that are kernels: public tt.funcs for TTIR,
/// llvm.funcs with nvvm.kernel otherwise.
std::vector<mlir::Operation *> findKernels(mlir::ModuleOp module, bool ttir) {
  std::vector<mlir::Operation *> kernels;
  for (mlir::Operation &op : module.getBody()->getOperations()) {
    if (ttir) {
      auto func = mlir::dyn_cast<mlir::FunctionOpInterface>(op);
      if (func && op.getName().getStringRef() == "tt.func" &&
          !func.isExternal() && mlir::cast<mlir::SymbolOpInterface>(op).isPublic())
        kernels.push_back(&op);
    } else if (auto func = mlir::dyn_cast<mlir::LLVM::LLVMFuncOp>(op)) {
      if (func->hasAttr(mlir::NVVM::NVVMDialect::getKernelFuncAttrName()) &&
          !func.isExternal())
        kernels.push_back(&op);
    }
  }
  return kernels;
}

std::string symbolName(mlir::Operation *op) {
  return mlir::cast<mlir::SymbolOpInterface>(op).getName().str();
}

/// Picks the kernel named `wanted`, else the only one; reports problems as
/// `file: ...`.
mlir::Operation *selectKernel(llvm::StringRef file,
                              const std::vector<mlir::Operation *> &kernels,
                              llvm::StringRef wanted, llvm::StringRef what) {
  if (!wanted.empty()) {
    for (mlir::Operation *op : kernels)
      if (symbolName(op) == wanted)
        return op;
    fail(file + ": no kernel named '" + wanted + "' (no " + what +
         " of that name)");
    return nullptr;
  }
  if (kernels.size() == 1)
    return kernels.front();
  if (kernels.empty()) {
    fail(file + ": no kernel: the module has no " + what);
    return nullptr;
  }
  std::string names;
  for (mlir::Operation *op : kernels)
    names += (names.empty() ? "" : ", ") + symbolName(op);
  fail(file + ": the module has " + llvm::Twine(kernels.size()) +
       " kernels (" + names + "); choose one with --kernel");
  return nullptr;
}

struct Timings {
  int64_t parseUs = 0;
  int64_t pipelineUs = 0;
  kiln::nvptx::NVPTXStageTimings backend;
  int64_t writeUs = 0;
  int64_t totalUs = 0;
  /// When ptxas started: "load" (as the kiln binary loaded, EarlyPtxas.h),
  /// "early" (by runCompile, before its PTX existed), "late" (once the PTX
  /// existed: KILN_PTXAS_EARLY=0, no FIFO); empty when none ran.
  std::string ptxasStarted;
};

double ms(int64_t us) { return static_cast<double>(us) / 1000.0; }

void printTimingTable(const Timings &t) {
  llvm::raw_ostream &os = llvm::outs();
  auto row = [&](llvm::StringRef stage, int64_t us) {
    os << llvm::format("  %-10s %10.3f ms\n", stage.str().c_str(), ms(us));
  };
  os << "stage timings:\n";
  row("parse", t.parseUs);
  row("pipeline", t.pipelineUs);
  row("translate", t.backend.translateUs);
  row("link", t.backend.linkLibdeviceUs);
  row("optimize", t.backend.optimizeUs);
  row("codegen", t.backend.codegenUs);
  row("ptxas", t.backend.ptxasUs);
  // Of ptxas: the wait for a ptxas started early to open its input (0 for
  // one started once the PTX exists, KILN_PTXAS_EARLY=0).
  os << llvm::format(
      "    %-8s %10.3f ms (of ptxas: waiting for its early start to finish)\n",
      "start-up", ms(t.backend.ptxasStartWaitUs));
  if (!t.ptxasStarted.empty())
    os << "    started  " << t.ptxasStarted << "\n";
  row("write", t.writeUs);
  row("total", t.totalUs);
}

std::string timingsJson(const Timings &t) {
  nlohmann::ordered_json doc = {
      {"unit", "us"},
      {"parse", t.parseUs},
      {"pipeline", t.pipelineUs},
      {"translate", t.backend.translateUs},
      {"link", t.backend.linkLibdeviceUs},
      {"optimize", t.backend.optimizeUs},
      {"codegen", t.backend.codegenUs},
      {"ptxas", t.backend.ptxasUs},
      {"ptxas_start_wait", t.backend.ptxasStartWaitUs},
      {"ptxas_started", t.ptxasStarted},
      {"write", t.writeUs},
      {"total", t.totalUs},
  };
  return doc.dump(2) + "\n";
}

/// nvvm.maxntid of `func` as a thread count, or 0 when absent.
int64_t maxThreads(mlir::LLVM::LLVMFuncOp func) {
  auto attr = func->getAttrOfType<mlir::DenseI32ArrayAttr>(
      mlir::NVVM::NVVMDialect::getMaxntidAttrName());
  if (!attr || attr.empty())
    return 0;
  int64_t threads = 1;
  for (int32_t dim : attr.asArrayRef())
    threads *= dim;
  return threads;
}

/// The warps `func` launches with: `numWarps` where `given` (--num-warps, or
/// TTIR's pipeline), which nvvm.maxntid must then agree with; else
/// nvvm.maxntid's (a power-of-two number of warps, at most 32), or
/// `numWarps` without one. Errors are reported on `func`.
mlir::FailureOr<int> launchedWarps(mlir::LLVM::LLVMFuncOp func,
                                   llvm::StringRef kernelName, int numWarps,
                                   bool given) {
  int64_t threads = maxThreads(func);
  if (!threads)
    return numWarps;
  if (given) {
    if (threads != int64_t(numWarps) * 32) {
      func.emitError("nvvm.maxntid of @")
          << kernelName << " is " << threads << " threads, but --num-warps "
          << numWarps << " launches " << numWarps * 32;
      return mlir::failure();
    }
    return numWarps;
  }
  if (threads % 32 != 0 || !llvm::isPowerOf2_64(threads / 32) ||
      threads / 32 > 32) {
    func.emitError("nvvm.maxntid of @")
        << kernelName << " is " << threads
        << " threads, not a power-of-two number of warps (at most 32)";
    return mlir::failure();
  }
  return static_cast<int>(threads / 32);
}

/// The artifacts `kiln compile` stores in the cache (timings.json and
/// stages/ are per-run and not stored).
std::vector<std::string> cachedArtifactNames(llvm::StringRef kernel) {
  return {(kernel + ".kgpu.mlir").str(), (kernel + ".llvm.mlir").str(),
          (kernel + ".ll").str(),        (kernel + ".ptx").str(),
          (kernel + ".cubin").str(),     "metadata.json"};
}

/// Runs `compileToDir` through the cache: a verified hit writes the stored
/// artifacts to `dir`; a miss compiles once across processes and stores the
/// result. A cache that cannot be opened is a warning, never a failure.
int compileThroughCacheImpl(const kiln::cache::CompileJob &job,
                            const CompileOptions &options,
                            const std::string &kernel, const std::string &dir,
                            const kiln::StageTimer &total,
                            const std::function<int(ArtifactWriter &)> &compileToDir,
                            CompileOutcome *outcome,
                            const std::vector<std::string> &artifactNames,
                            const std::string &targetDescription) {
  kiln::cache::StoreOptions storeOptions;
  storeOptions.root = options.cacheDir;
  kiln::cache::Expected<std::unique_ptr<kiln::cache::Store>> store =
      kiln::cache::Store::open(storeOptions);
  if (!store) {
    llvm::errs() << "kiln: warning: compile cache disabled: "
                 << store.status().message() << "\n";
    ArtifactWriter artifacts(dir, kernel, /*keep=*/false);
    return compileToDir(artifacts);
  }
  int compileStatus = 0;
  kiln::cache::Expected<kiln::cache::CacheResult> result =
      (*store)->getOrCompile(
          job, [&]() -> kiln::cache::Expected<kiln::cache::CompileOutput> {
            ArtifactWriter artifacts(dir, kernel, /*keep=*/true);
            compileStatus = compileToDir(artifacts);
            if (compileStatus != 0)
              return kiln::cache::Status(kiln::cache::StatusCode::kCompileFailed,
                                         "compile failed");
            // What this compile wrote (ArtifactWriter), not what the
            // directory holds now. No .kgpu.mlir for LLVM-dialect input.
            std::map<std::string, std::string> written = artifacts.take();
            kiln::cache::CompileOutput output;
            for (const std::string &name : artifactNames)
              if (auto it = written.find(name); it != written.end())
                output.artifacts[name] = std::move(it->second);
            output.infoJson = nlohmann::json{{"kernel", kernel}}.dump();
            return output;
          });
  if (!result) {
    if (compileStatus != 0)
      return compileStatus; // diagnostics are printed already
    return fail("compile cache: " + result.status().message());
  }
  if (outcome)
    outcome->cacheHit = result->outcome == kiln::cache::Outcome::kHit;
  if (result->outcome != kiln::cache::Outcome::kHit)
    return 0;

  // A hit: write the verified artifacts where a compile would have, as one
  // set (ArtifactWriter).
  kiln::StageTimer writeTimer;
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return fail("cannot create output directory " + dir + ": " + ec.message());
  ArtifactWriter hitArtifacts(dir, kernel, /*keep=*/false);
  for (const auto &[name, data] : result->artifacts)
    if (!hitArtifacts.write(name, data))
      return 1;
  int64_t writeUs = writeTimer.elapsedUs();
  int64_t totalUs = total.elapsedUs();
  nlohmann::ordered_json timingDoc = {{"unit", "us"},
                                      {"cache", "hit"},
                                      {"lookup", result->lookupUs},
                                      {"write", writeUs},
                                      {"total", totalUs}};
  if (!hitArtifacts.write("timings.json", timingDoc.dump(2) + "\n") ||
      !hitArtifacts.publish())
    return 1;
  if (options.listener)
    options.listener({"cache_hit", "", result->lookupUs, kernel,
                      job.target.backend + "/" + job.target.arch, result->key});
  if (!options.quiet)
    llvm::outs() << llvm::formatv(
        "kiln: {0} -> {1} ({2}) cache hit {3} in {4:f3} ms "
        "[lookup {5:f3}, write {6:f3}]\n",
        kernel, dir, targetDescription, result->key.substr(0, 16),
        ms(totalUs), ms(result->lookupUs), ms(writeUs));
  return 0;
}

} // namespace

std::unique_ptr<mlir::PassInstrumentation>
createStageDumper(mlir::ModuleOp root, ArtifactWriter &artifacts,
                  const std::string &kernel, bool dumpAll) {
  return std::make_unique<StageDumper>(root, artifacts, kernel, dumpAll);
}

std::vector<std::string>
ArtifactWriter::kernelArtifactNames(const std::string &kernel) {
  std::vector<std::string> names;
  for (const char *suffix :
       {".kgpu.mlir", ".llvm.mlir", ".ll", ".ptx", ".cubin", ".hsaco"})
    names.push_back(kernel + suffix);
  names.push_back("metadata.json");
  names.push_back("timings.json");
  return names;
}

llvm::Error ArtifactWriter::checkKernelName(const std::string &kernel) {
  // The longest suffix kernelArtifactNames() puts after the name.
  constexpr size_t kLongestSuffix = sizeof(".kgpu.mlir") - 1;
  auto bad = [&](const llvm::Twine &why) {
    // Control bytes escaped: a NUL or a newline in the name reached stderr.
    std::string shown;
    llvm::raw_string_ostream os(shown);
    llvm::printEscapedString(kernel, os);
    return llvm::createStringError("kernel name '" + shown +
                                   "' cannot name its artifact files: " + why);
  };
  if (kernel.empty() || kernel == "." || kernel == "..")
    return bad("it is not a file name");
  if (kernel.find('/') != std::string::npos)
    return bad("it contains '/'");
  if (kernel.find('\0') != std::string::npos)
    return bad("it contains a NUL byte");
  if (kernel.size() + kLongestSuffix > NAME_MAX)
    return bad("it is " + llvm::Twine(kernel.size()) + " bytes long, at most " +
               llvm::Twine(NAME_MAX - kLongestSuffix) +
               " fit (NAME_MAX less '.kgpu.mlir')");
  return llvm::Error::success();
}

namespace {
/// A staging folder's name: the prefix and six of these letters.
constexpr char kStagingPrefix[] = ".kiln-staging-";
constexpr char kStagingLetters[] =
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

bool isStagingName(llvm::StringRef name) {
  return name.consume_front(kStagingPrefix) && name.size() == 6 &&
         name.find_first_not_of(kStagingLetters) == llvm::StringRef::npos;
}
} // namespace

ArtifactWriter::~ArtifactWriter() {
  if (stagingFd_ >= 0) {
    for (const std::string &name : attempted_)
      ::unlinkat(stagingFd_, name.c_str(), 0);
    ::close(stagingFd_);
    ::unlinkat(dirFd_, stagingName_.c_str(), AT_REMOVEDIR);
    kiln::dontRemoveOnSignal(stagingPath_);
  }
  if (stagesFd_ >= 0)
    ::close(stagesFd_);
  if (dirFd_ >= 0)
    ::close(dirFd_);
}

bool ArtifactWriter::error(const llvm::Twine &message) {
  // Only the first: the compile fails on it, and a full disk or a
  // directory that went away fails every later file the same way.
  if (!failed_.exchange(true))
    llvm::errs() << "kiln: error: " << message << "\n";
  return false;
}

bool ArtifactWriter::openDir() {
  if (dirFd_ >= 0)
    return true;
  if (dirFailed_)
    return false;
  dirFailed_ = true;
  // The directory is opened once: the staging folder is made, filled and
  // published, and the stage dumps written, through descriptors, so that a
  // directory renamed (or a symlink to it retargeted) while the compile
  // runs still gets its files in the folder that holds the staging folder,
  // and the staging folder is removed from there. A directory that can be
  // written but not read (mode 0333) is opened as a path (O_PATH), locked
  // through a lock file in it.
  dirFd_ = ::open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dirFd_ < 0 && errno == EACCES) {
    dirFd_ = ::open(dir_.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    lockThroughFile_ = dirFd_ >= 0;
  }
  if (dirFd_ < 0)
    return error("cannot open output directory " + dir_ + ": " +
                 std::strerror(errno));
  dirFailed_ = false;
  return true;
}

bool ArtifactWriter::openStaging() {
  if (stagingFd_ >= 0)
    return true;
  if (stagingFailed_ || !openDir())
    return false;
  stagingFailed_ = true;
  // Made and registered with the cleanup signals blocked: one in between
  // would leave the folder for good. Registered through the directory's
  // descriptor where /proc is there: a signal handler that finds the
  // folder by its path missed it once the directory was renamed
  // (helper-81). The descriptor stays open until the folder is gone and
  // unregistered.
  kiln::CleanupSignalsBlocked blocked;
  std::string viaFd = "/proc/self/fd/" + std::to_string(dirFd_);
  std::string base =
      (::access(viaFd.c_str(), F_OK) == 0 ? viaFd : dir_) + "/";
  std::random_device entropy;
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string suffix;
    for (int i = 0; i < 6; ++i)
      suffix += kStagingLetters[entropy() % (sizeof(kStagingLetters) - 1)];
    // Made as `.kiln-making-*`, which removeAbandonedStaging() never
    // touches, flock(2)ed, and only then renamed to its staging name: a
    // cleanup never sees a staging folder that is not yet locked
    // (helper-84 and helper-85 removed a live kiln's folder between its
    // mkdir and its flock, stalled by strace).
    std::string making = ".kiln-making-" + suffix;
    std::string name = kStagingPrefix + suffix;
    if (::mkdirat(dirFd_, making.c_str(), 0700) != 0) {
      if (errno == EEXIST)
        continue;
      return error("cannot create a staging folder in " + dir_ + ": " +
                   std::strerror(errno));
    }
    kiln::removeOnSignal(base + making, /*directory=*/true);
    int fd = ::openat(dirFd_, making.c_str(),
                      O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    auto drop = [&] {
      if (fd >= 0)
        ::close(fd);
      ::unlinkat(dirFd_, making.c_str(), AT_REMOVEDIR);
      kiln::dontRemoveOnSignal(base + making);
    };
    if (fd < 0) {
      int err = errno;
      drop();
      return error("cannot open the staging folder " + dir_ + "/" + making +
                   ": " + std::strerror(err));
    }
    // Held until the folder is gone (the descriptor is close-on-exec, so
    // ptxas does not keep it): a folder whose flock can be taken belongs to
    // no running kiln. A filesystem without flock leaves it unlocked; the
    // cleanup's own flock fails there too, so such folders stay.
    ::flock(fd, LOCK_EX | LOCK_NB);
    int renamed = ::renameat2(dirFd_, making.c_str(), dirFd_, name.c_str(),
                              RENAME_NOREPLACE);
    if (renamed != 0 && errno == EINVAL) {
      // A filesystem without RENAME_NOREPLACE.
      struct stat existing;
      if (::fstatat(dirFd_, name.c_str(), &existing, AT_SYMLINK_NOFOLLOW) ==
          0) {
        errno = EEXIST;
      } else {
        renamed = ::renameat(dirFd_, making.c_str(), dirFd_, name.c_str());
      }
    }
    if (renamed != 0) {
      int err = errno;
      drop();
      if (err == EEXIST)
        continue;
      return error("cannot create a staging folder in " + dir_ + ": " +
                   std::strerror(err));
    }
    kiln::dontRemoveOnSignal(base + making);
    stagingPath_ = base + name;
    kiln::removeOnSignal(stagingPath_, /*directory=*/true);
    stagingName_ = name;
    stagingFd_ = fd;
    stagingFailed_ = false;
    return true;
  }
  return error("cannot create a staging folder in " + dir_ +
               ": 100 names taken");
}

bool ArtifactWriter::writeAt(int folderFd, const std::string &name,
                             const std::string &shownPath,
                             llvm::StringRef contents) {
  // Errors name the file the user will look for.
  auto failed = [&](int err) {
    return error("cannot write " + shownPath + ": " + std::strerror(err));
  };
  int fd = ::openat(folderFd, name.c_str(),
                    O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0)
    return failed(errno);
  const char *data = contents.data();
  size_t left = contents.size();
  while (left > 0) {
    ssize_t n = ::write(fd, data, left);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      int err = n < 0 ? errno : EIO;
      ::close(fd);
      return failed(err);
    }
    data += n;
    left -= static_cast<size_t>(n);
  }
  if (::close(fd) != 0)
    return failed(errno);
  return true;
}

bool ArtifactWriter::writeStageDump(const std::string &file,
                                    llvm::StringRef contents) {
  int stagesFd;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stagesFd_ < 0) {
      if (!openDir())
        return false;
      stagesFd_ =
          ::openat(dirFd_, "stages", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      if (stagesFd_ < 0)
        return error("cannot open " + dir_ + "/stages: " +
                     std::strerror(errno));
    }
    stagesFd = stagesFd_;
  }
  return writeAt(stagesFd, file, dir_ + "/stages/" + file, contents);
}

bool ArtifactWriter::write(const std::string &name, llvm::StringRef contents) {
  int stagingFd;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!openStaging())
      return false;
    stagingFd = stagingFd_;
    if (llvm::find(attempted_, name) == attempted_.end())
      attempted_.push_back(name);
  }
  if (!writeAt(stagingFd, name, dir_ + "/" + name, contents))
    return false;
  std::lock_guard<std::mutex> lock(mutex_);
  if (llvm::find(staged_, name) == staged_.end())
    staged_.push_back(name);
  if (keep_)
    written_[name] = contents.str();
  return true;
}

bool ArtifactWriter::publish() {
  std::vector<std::string> names;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    // Once: a publish that failed is not tried again (its error is printed).
    if (published_)
      return true;
    published_ = true;
    // A write that failed (a full disk, a file size limit, too few
    // descriptors; --stage-dump's too) is not the kernel's failure: the
    // directory stays as it was, as for a compile that failed before its
    // first artifact and for a hit that cannot write (helper-81 and
    // helper-82: a full disk left only the .kgpu.mlir of the new compile).
    // Nothing written whole: the same. The destructor removes the staging
    // folder.
    if (stagingFd_ < 0 || staged_.empty() || failed_)
      return true;
    names = staged_;
  }
  // Kiln's publishes into this directory are serialized on its flock and,
  // where `.kiln-lock` is there, on that file's too: a kiln that cannot read
  // the directory (mode 0333, not root) locks only the file, which it
  // makes, and root, which can, took only the directory's (helper-82: their
  // sets mixed). The file is opened read-only (flock needs no more), so a
  // user other than its maker can lock it; a FIFO of that name is refused,
  // not waited on. Readers take neither. Released when closed or unlocked.
  auto openLockFile = [&](bool create) -> int {
    int fd = ::openat(dirFd_, ".kiln-lock",
                      O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK |
                          (create ? O_CREAT : 0),
                      0666);
    if (fd < 0)
      return fd;
    struct stat info;
    if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
      ::close(fd);
      errno = EINVAL;
      return -2;
    }
    return fd;
  };
  // The file is made by whoever publishes into a directory that some user
  // can write but not read (mode 0333): root, which can read it, made none
  // in a fresh one, and a non-root kiln then locked only the file it made
  // (helper-83: their sets mixed). Made 0644 whatever the umask, so that
  // others can open it read-only.
  bool writeOnlyForSomeone = lockThroughFile_;
  struct stat dirInfo;
  if (::fstat(dirFd_, &dirInfo) == 0)
    for (mode_t shift : {6, 3, 0}) {
      mode_t bits = (dirInfo.st_mode >> shift) & 7;
      if ((bits & 2) && (bits & 1) && !(bits & 4))
        writeOnlyForSomeone = true;
    }
  int lockFileFd = openLockFile(/*create=*/writeOnlyForSomeone);
  if (lockFileFd >= 0)
    ::fchmod(lockFileFd, 0644); // fails harmlessly where it is another's
  if (lockFileFd == -2)
    return error("the lock file " + dir_ + "/.kiln-lock is not a regular file");
  // One this kiln cannot open (another user's 0600) is not needed where it
  // can lock the directory itself: every kiln that can read the directory
  // takes that flock.
  if (lockFileFd < 0 &&
      (lockThroughFile_ || (errno != ENOENT && errno != EACCES)))
    return error("cannot open the lock file " + dir_ + "/.kiln-lock: " +
                 std::strerror(errno));
  auto unlock = llvm::make_scope_exit([&] {
    if (lockFileFd >= 0)
      ::close(lockFileFd);
    if (!lockThroughFile_)
      ::flock(dirFd_, LOCK_UN);
  });
  auto lockFd = [&](int fd) {
    while (::flock(fd, LOCK_EX) != 0)
      if (errno != EINTR)
        return false;
    return true;
  };
  if (!lockThroughFile_ && !lockFd(dirFd_))
    return error("cannot lock output directory " + dir_ + ": " +
                 std::strerror(errno));
  if (lockFileFd >= 0 && !lockFd(lockFileFd))
    return error("cannot lock " + dir_ + "/.kiln-lock: " +
                 std::strerror(errno));
  // From the first removal to the last rename the cleanup signals wait
  // (they are taken once the set is whole): one in between left neither
  // the earlier set nor the new one (helper-82). Not while waiting for the
  // lock above, which a signal must still be able to end.
  {
    kiln::CleanupSignalsBlocked whole;
    // metadata.json first: from here until the last rename the directory
    // says it holds no complete set. Removing a file before the rename (rather
    // than renaming over it) also spares ext4's flush of a replaced file.
    std::vector<std::string> stale = kernelArtifactNames(kernel_);
    std::stable_partition(stale.begin(), stale.end(), [](const std::string &n) {
      return n == "metadata.json";
    });
    for (const std::string &name : stale)
      if (::unlinkat(dirFd_, name.c_str(), 0) != 0 && errno != ENOENT)
        return error("cannot remove " + dir_ + "/" + name + ": " +
                     std::strerror(errno));
    std::stable_partition(names.begin(), names.end(), [](const std::string &n) {
      return n != "metadata.json";
    });
    for (const std::string &name : names)
      if (::renameat(stagingFd_, name.c_str(), dirFd_, name.c_str()) != 0)
        return error("cannot move " + name + " into " + dir_ + ": " +
                     std::strerror(errno));
    // Empty now but for a file whose write failed (on failure above, the
    // destructor empties and removes it).
    std::lock_guard<std::mutex> lock(mutex_);
    for (const std::string &name : attempted_)
      if (llvm::find(names, name) == names.end())
        ::unlinkat(stagingFd_, name.c_str(), 0);
    attempted_.clear();
    ::close(stagingFd_);
    stagingFd_ = -1;
    ::unlinkat(dirFd_, stagingName_.c_str(), AT_REMOVEDIR);
    kiln::dontRemoveOnSignal(stagingPath_);
  }
  // Still under the publish's locks; the signals are taken again (a
  // directory of many entries takes a while to list).
  removeAbandonedStaging();
  return true;
}

void ArtifactWriter::removeAbandonedStaging() {
  // Listing needs a readable directory (not one opened as a path), whose
  // exclusive flock publish() holds.
  if (lockThroughFile_)
    return;
  struct stat dirInfo;
  if (::fstat(dirFd_, &dirInfo) != 0)
    return;
  int listFd = ::openat(dirFd_, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (listFd < 0)
    return;
  DIR *listing = ::fdopendir(listFd);
  if (!listing) {
    ::close(listFd);
    return;
  }
  std::vector<std::string> candidates;
  while (const dirent *entry = ::readdir(listing)) {
    llvm::StringRef name(entry->d_name);
    if (isStagingName(name) && name != stagingName_)
      candidates.push_back(name.str());
  }
  ::closedir(listing);
  uid_t self = ::geteuid();
  time_t now = ::time(nullptr);
  // A folder as kiln makes it: this user's, mode 0700 or less (a folder a
  // user made by hand has group or other bits), on the directory's
  // filesystem and not a mount point (helper-84: a bind mount there lost
  // the mounted folder's files), unmodified for a while (a kiln that
  // predates the flock kept its folder unlocked while ptxas ran).
  // `path` is relative to `at`; "" with AT_EMPTY_PATH is `at` itself.
  auto looksAbandoned = [&](int at, const char *path, int flags,
                            struct statx &info) {
    return ::statx(at, path, flags | AT_SYMLINK_NOFOLLOW,
                   STATX_TYPE | STATX_MODE | STATX_UID | STATX_MTIME |
                       STATX_INO,
                   &info) == 0 &&
           S_ISDIR(info.stx_mode) && (info.stx_mode & 077) == 0 &&
           info.stx_uid == self &&
           ::makedev(info.stx_dev_major, info.stx_dev_minor) ==
               dirInfo.st_dev &&
           (info.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) &&
           !(info.stx_attributes & STATX_ATTR_MOUNT_ROOT) &&
           now - info.stx_mtime.tv_sec >= kAbandonedStagingAgeSeconds;
  };
  for (const std::string &name : candidates) {
    struct statx opened;
    if (!looksAbandoned(dirFd_, name.c_str(), 0, opened))
      continue;
    int folderFd = ::openat(dirFd_, name.c_str(),
                            O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (folderFd < 0)
      continue;
    // The same checks on what was opened: the name may have been given to
    // another directory, or a mount, since (helper-85 swapped in a user's
    // folder and a bind mount while the statx above was stalled, and lost
    // their files).
    if (!looksAbandoned(folderFd, "", AT_EMPTY_PATH, opened)) {
      ::close(folderFd);
      continue;
    }
    // Held by a running kiln (EWOULDBLOCK) or not lockable here: kept.
    if (::flock(folderFd, LOCK_EX | LOCK_NB) != 0) {
      ::close(folderFd);
      continue;
    }
    std::vector<std::string> files;
    bool onlyFiles = true;
    int innerFd = ::dup(folderFd);
    DIR *inner = innerFd >= 0 ? ::fdopendir(innerFd) : nullptr;
    if (!inner) {
      if (innerFd >= 0)
        ::close(innerFd);
      ::close(folderFd);
      continue;
    }
    while (const dirent *entry = ::readdir(inner)) {
      if (std::strcmp(entry->d_name, ".") == 0 ||
          std::strcmp(entry->d_name, "..") == 0)
        continue;
      // Kiln writes only this user's regular files there.
      struct stat file;
      if (::fstatat(folderFd, entry->d_name, &file, AT_SYMLINK_NOFOLLOW) != 0 ||
          !S_ISREG(file.st_mode) || file.st_uid != self) {
        onlyFiles = false;
        break;
      }
      files.push_back(entry->d_name);
    }
    ::closedir(inner);
    if (onlyFiles) {
      for (const std::string &file : files)
        ::unlinkat(folderFd, file.c_str(), 0);
      // By name, so only if the name still is the folder emptied here.
      struct stat current;
      if (::fstatat(dirFd_, name.c_str(), &current, AT_SYMLINK_NOFOLLOW) ==
              0 &&
          current.st_ino == opened.stx_ino &&
          current.st_dev == dirInfo.st_dev)
        ::unlinkat(dirFd_, name.c_str(), AT_REMOVEDIR);
    }
    ::close(folderFd);
  }
}

std::map<std::string, std::string> ArtifactWriter::take() {
  std::lock_guard<std::mutex> lock(mutex_);
  return std::move(written_);
}

llvm::Expected<std::string> keyCompileJob(const kiln::cache::CompileJob &job,
                                          const std::string &kernel,
                                          const std::string &dir,
                                          CompileOutcome *outcome) {
  if (kiln::cache::Status valid = job.validate(); !valid.ok())
    return llvm::createStringError("invalid compile job: " + valid.message());
  std::string key = job.key();
  if (outcome) {
    outcome->jobKey = key;
    outcome->kernel = kernel;
    outcome->dir = dir;
  }
  return key;
}

llvm::Error createArtifactDirs(llvm::StringRef dir, bool stageDump) {
  llvm::SmallString<256> path(dir);
  if (stageDump)
    llvm::sys::path::append(path, "stages");
  if (std::error_code ec = llvm::sys::fs::create_directories(path))
    return llvm::createStringError("cannot create output directory " + path +
                                   ": " + ec.message());
  return llvm::Error::success();
}

int compileThroughCache(const kiln::cache::CompileJob &job,
                        const CompileOptions &options,
                        const std::string &kernel, const std::string &dir,
                        const kiln::StageTimer &total,
                        const std::function<int(ArtifactWriter &)> &compileToDir,
                        CompileOutcome *outcome,
                        const std::vector<std::string> &artifactNames,
                        const std::string &targetDescription) {
  return compileThroughCacheImpl(job, options, kernel, dir, total,
                                 compileToDir, outcome, artifactNames,
                                 targetDescription);
}

void exitWithoutTeardown(int status) {
  // A ptxas started as kiln loaded that no compile took (an error before
  // runCompile reached it): killed, its files removed.
  discardPtxasStartedAtLoad();
  llvm::outs().flush();
  std::fflush(stdout);
  // Output that could not be written (a full disk, /dev/full) fails the
  // command: exit status 0 said the summary was there.
  if (llvm::outs().has_error() || std::ferror(stdout)) {
    std::error_code error = llvm::outs().error();
    llvm::outs().clear_error();
    llvm::errs() << "kiln: error: cannot write to standard output: "
                 << (error ? error.message() : std::string("write failed"))
                 << "\n";
    if (status == 0)
      status = 1;
  }
  llvm::errs().flush();
  std::fflush(nullptr);
  exitLeavingAddressSpace(status);
}

namespace {

/// The dialects and translations of an NVPTX compile's context.
void registerNVPTXCompileDialects(mlir::DialectRegistry &registry) {
  kiln::tt::registerTTIRDialects(registry);
  registry.insert<mlir::func::FuncDialect, mlir::LLVM::LLVMDialect,
                  mlir::NVVM::NVVMDialect>();
  kiln::nvptx::registerNVPTXTranslations(registry);
}

/// startContextPreload's context, until runCompile takes it. Never
/// destroyed (a static's destructor would wait for the thread at exit).
std::future<std::unique_ptr<mlir::MLIRContext>> *preloadedContext = nullptr;

void waitForPreloadAtExit() {
  // Not a deferred one (no thread could be made): wait() would run it now.
  if (preloadedContext && preloadedContext->valid() &&
      preloadedContext->wait_for(std::chrono::seconds(0)) !=
          std::future_status::deferred)
    preloadedContext->wait();
}

std::unique_ptr<mlir::MLIRContext> takePreloadedContext() {
  if (!preloadedContext || !preloadedContext->valid())
    return nullptr;
  return preloadedContext->get();
}

} // namespace

void startContextPreload(int argc, char **argv) {
  const char *preload = std::getenv("KILN_PRELOAD_DIALECTS");
  if (!preload || std::strcmp(preload, "1") != 0 || argc < 2 ||
      std::strcmp(argv[1], "compile") != 0 || preloadedContext)
    return;
  preloadedContext = new std::future<std::unique_ptr<mlir::MLIRContext>>(
      kiln::runOnSideThread([] {
        mlir::DialectRegistry registry;
        registerNVPTXCompileDialects(registry);
        auto context = std::make_unique<mlir::MLIRContext>(
            registry, mlir::MLIRContext::Threading::DISABLED);
        // Every registered dialect but gpu, which only kernels with a
        // gpu.barrier load (when the parser meets it).
        for (llvm::StringRef name : registry.getDialectNames())
          if (name != mlir::gpu::GPUDialect::getDialectNamespace())
            context->getOrLoadDialect(name);
        // Loaded by the pipeline's passes (their dependent dialects).
        context->getOrLoadDialect<kiln::kgpu::KGPUDialect>();
        return context;
      }));
  // Before the static destructors of the LLVM and MLIR code the thread
  // runs (registered earlier, so run later).
  std::atexit(waitForPreloadAtExit);
}

std::optional<int> runAsBytecodeReader(int argc, char **argv) {
  if (argc < 2 || std::strcmp(argv[1], kiln::tool::kBytecodeReaderArg) != 0)
    return std::nullopt;
  kiln::tool::raiseStackLimit();
  // The dialects of both targets' inputs (runCompile, runCompileAMDGPU).
  mlir::DialectRegistry registry;
  kiln::tt::registerTTIRDialects(registry);
  registry.insert<mlir::func::FuncDialect, mlir::LLVM::LLVMDialect,
                  mlir::NVVM::NVVMDialect, mlir::ROCDL::ROCDLDialect>();
  return kiln::tool::runBytecodeReader(registry, /*allowUnregistered=*/false);
}

int runCompile(const CompileOptions &options, CompileOutcome *outcome) {
  if (llvm::StringRef(options.arch).starts_with_insensitive("gfx")) {
    CompileOptions amd = options;
    amd.arch = llvm::StringRef(options.arch).lower(); // GFX942 is gfx942
    return runCompileAMDGPU(amd, outcome);
  }
  kiln::StageTimer total;
  Timings timings;

  // Cheap checks first: a bad target or a missing ptxas fails before parsing.
  if (options.numWarps < 1 || options.numWarps > 32 ||
      !llvm::isPowerOf2_32(options.numWarps))
    return fail("--num-warps must be a power of two in [1, 32], got " +
                llvm::Twine(options.numWarps));
  if (options.numStages < 1)
    return fail("--num-stages must be at least 1, got " +
                llvm::Twine(options.numStages));
  if (llvm::Error err =
          kiln::nvptx::validateTarget(options.arch, options.ptxVersion))
    return fail(llvm::toString(std::move(err)));
  llvm::Expected<std::string> ptxas = kiln::nvptx::findPtxas(options.ptxasPath);
  if (!ptxas)
    return fail(llvm::toString(ptxas.takeError()));
  // The toolchain's identity (a `ptxas --version` process and the SHA-256
  // of libdevice, ~4 ms of CPU unless memoized under the cache root) is
  // needed only for the job key: find it on another thread while this one
  // creates the context and parses.
  std::future<llvm::Expected<kiln::cache::JobToolchain>> toolchainFuture =
      kiln::runOnSideThread([ptxasPath = *ptxas,
                             libdevicePath = options.libdevicePath,
                             cacheDir = options.cacheDir] {
        return toolchainIdentity(ptxasPath, libdevicePath, /*nvptx=*/true,
                                 toolMemoRoot(cacheDir));
      });

  // The backend's options come from the command line alone.
  kiln::nvptx::NVPTXBackendOptions backendOptions;
  backendOptions.arch = options.arch;
  backendOptions.ptxVersion = options.ptxVersion;
  backendOptions.ftz = options.ftz;
  backendOptions.fpFusion = options.fpFusion;
  backendOptions.ptxasPath = *ptxas;
  backendOptions.libdevicePath = options.libdevicePath;
  if (options.maxnreg > 0)
    backendOptions.ptxasExtraArgs.push_back("--maxrregcount=" +
                                            std::to_string(options.maxnreg));
  backendOptions.ptxasFastCompile = options.ptxasFastCompile;
  // ptxas starts before its PTX exists and does its start-up (a fixed ~7 ms
  // on the GPU machine, as long as kiln's own work up to a small kernel's
  // PTX) meanwhile. A compile that bypasses the cache always assembles: its
  // ptxas starts now, before the context and the parse. Through the cache,
  // ptxas starts once the job is keyed and missed, so a hit runs none. A
  // start that fails here (ptxas's files in a TMPDIR that does not exist)
  // is tried again there, so that the input's own errors come first.
  const bool bypassesCache =
      !options.useCache || options.timings || options.stageDump;
  auto startPtxas = [&] {
    return kiln::nvptx::PtxasProcess::start(*ptxas, backendOptions,
                                            /*early=*/true);
  };
  std::unique_ptr<kiln::nvptx::PtxasProcess> ptxasProcess;
  // Not for input on stdin, which may take its time: ptxas's files would
  // wait in TMPDIR meanwhile, left there should kiln be SIGKILLed. The
  // ptxas the kiln binary started as it loaded (EarlyPtxas.h) is kept if
  // it runs what these options ask for.
  if (bypassesCache && options.inputFile != "-") {
    ptxasProcess = takePtxasStartedAtLoad(*ptxas, backendOptions);
    if (ptxasProcess) {
      timings.ptxasStarted = "load";
    } else {
      llvm::Expected<std::unique_ptr<kiln::nvptx::PtxasProcess>> started =
          startPtxas();
      if (started)
        ptxasProcess = std::move(*started);
      else
        llvm::consumeError(started.takeError());
    }
  } else {
    discardPtxasStartedAtLoad();
  }

  // Parse.
  std::unique_ptr<mlir::MLIRContext> contextOwner = takePreloadedContext();
  if (!contextOwner) {
    mlir::DialectRegistry registry;
    registerNVPTXCompileDialects(registry);
    // Single-threaded from the start: no thread pool made only to be
    // dropped.
    contextOwner = std::make_unique<mlir::MLIRContext>(
        registry, mlir::MLIRContext::Threading::DISABLED);
  }
  mlir::MLIRContext &context = *contextOwner;
  // Diagnostics point at file:line:col; the op dump would only add noise.
  context.printOpOnDiagnostic(false);

  kiln::StageTimer parseTimer;
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
  timings.parseUs = parseTimer.elapsedUs();
  // Runs first on every return from here: with disableFree the module and
  // the context are left to the process's exit.
  auto buryIR = llvm::make_scope_exit([&] {
    if (!options.disableFree)
      return;
    llvm::BuryPointer(module.release().getOperation());
    llvm::BuryPointer(std::move(contextOwner));
  });

  // TTIR goes through the pipeline; LLVM-dialect input skips it.
  bool isTTIR = false;
  module->walk([&](mlir::Operation *op) {
    if (op->getName().getStringRef() == "tt.func")
      isTTIR = true;
    return isTTIR ? mlir::WalkResult::interrupt() : mlir::WalkResult::advance();
  });

  std::string kernelName;
  std::vector<KernelArg> ttSignature;
  // What the source hash keys besides the module text: the argument names
  // that reach metadata.json (TTIR's, or for LLVM-dialect input those of
  // its llvm.func's NameLocs; two inputs differing only in them shared a
  // key, and a hit wrote the other's names).
  std::vector<KernelArg> keyedSignature;
  // The warps a compile of LLVM-dialect input launches: nvvm.maxntid's,
  // unless --num-warps is given (then they must agree). Keyed as such:
  // the job recorded the default 4 for a 256-thread kernel, so
  // `--num-warps 4` hit that entry where a compile rejects it.
  int llvmInputWarps = 0;
  if (isTTIR) {
    mlir::Operation *kernel =
        selectKernel(options.inputFile, findKernels(*module, /*ttir=*/true),
                     options.kernel, "public tt.func");
    if (!kernel)
      return 1;
    kernelName = symbolName(kernel);
    mlir::FailureOr<std::vector<KernelArg>> signature =
        signatureFromTTFunc(mlir::cast<mlir::FunctionOpInterface>(kernel));
    if (mlir::failed(signature))
      return 1;
    ttSignature = std::move(*signature);
  } else {
    mlir::Operation *kernel =
        selectKernel(options.inputFile, findKernels(*module, /*ttir=*/false),
                     options.kernel, "llvm.func with the nvvm.kernel attribute");
    if (!kernel)
      return 1;
    kernelName = symbolName(kernel);
    auto llvmKernel = mlir::cast<mlir::LLVM::LLVMFuncOp>(kernel);
    mlir::FailureOr<std::vector<KernelArg>> names =
        signatureFromLLVMFunc(llvmKernel);
    if (mlir::failed(names))
      return 1;
    keyedSignature = std::move(*names);
    mlir::FailureOr<int> warps =
        launchedWarps(llvmKernel, kernelName, options.numWarps,
                      options.numWarpsGiven);
    if (mlir::failed(warps))
      return 1;
    llvmInputWarps = *warps;
  }
  if (isTTIR)
    keyedSignature = ttSignature;
  if (llvm::Error err = ArtifactWriter::checkKernelName(kernelName))
    return fail(options.inputFile + ": " + llvm::toString(std::move(err)));

  std::string dir = options.outputDir;
  if (dir.empty()) {
    llvm::SmallString<256> path("kiln-out");
    llvm::sys::path::append(path, kernelName);
    dir = std::string(path);
  }

  // The compile job: what this compile produces is a function of it alone.
  kiln::cache::CompileJob job;
  job.source.kind = isTTIR ? kiln::cache::SourceKind::kTTIR
                           : kiln::cache::SourceKind::kMLIRStage;
  job.source.stage = isTTIR ? "" : "llvm";
  job.source.contentHash = sourceContentHash(*module, keyedSignature);
  job.source.entry = kernelName;
  job.target.backend = "cuda";
  job.target.arch = options.arch;
  job.target.ptxVersion = options.ptxVersion;
  job.target.warpSize = 32;
  job.options.numWarps = isTTIR ? options.numWarps : llvmInputWarps;
  job.options.numStages = options.numStages;
  job.options.maxnreg = options.maxnreg;
  job.options.ptxasFastCompile = options.ptxasFastCompile;
  job.options.optLevel = kiln::nvptx::NVPTXBackendOptions().optLevel;
  job.options.fpFusion = options.fpFusion;
  job.options.ftz = options.ftz;
  kiln::pipelines::NVPTXPipelineOptions pipelineOptions;
  pipelineOptions.numWarps = options.numWarps;
  pipelineOptions.numStages = options.numStages;
  pipelineOptions.arch = options.arch;
  pipelineOptions.ptxVersion = options.ptxVersion;
  pipelineOptions.ftz = options.ftz;
  // Built once: printed here for the fingerprint, run below on a miss.
  std::string pipelineText;
  std::unique_ptr<mlir::PassManager> pipeline;
  if (isTTIR) {
    pipeline = std::make_unique<mlir::PassManager>(&context);
    kiln::pipelines::buildTTIRToLLVMNVPTXPipeline(*pipeline, pipelineOptions);
    pipelineText = printedPipeline(*pipeline);
  }
  // With disableFree the passes (and their pattern sets) are left to the
  // process's exit, like the IR.
  auto buryPipeline = llvm::make_scope_exit([&] {
    if (options.disableFree && pipeline)
      llvm::BuryPointer(std::move(pipeline));
  });
  job.pipelineFingerprint = kiln::cache::pipelineFingerprint(pipelineText, {});
  llvm::Expected<kiln::cache::JobToolchain> toolchain = toolchainFuture.get();
  if (!toolchain)
    return fail(llvm::toString(toolchain.takeError()));
  job.toolchain = *toolchain;
  llvm::Expected<std::string> key = keyCompileJob(job, kernelName, dir, outcome);
  if (!key)
    return fail(llvm::toString(key.takeError()));
  const std::string jobKey = *key;

  auto compileAndWrite = [&](ArtifactWriter &artifacts) -> int {
  if (llvm::Error err = createArtifactDirs(dir, options.stageDump))
    return fail(llvm::toString(std::move(err)));
  // The ptxas started before the parse, or one started now.
  std::unique_ptr<kiln::nvptx::PtxasProcess> assembler =
      std::move(ptxasProcess);
  if (!assembler) {
    llvm::Expected<std::unique_ptr<kiln::nvptx::PtxasProcess>> started =
        startPtxas();
    if (!started)
      return fail(llvm::toString(started.takeError()));
    assembler = std::move(*started);
  }
  if (timings.ptxasStarted.empty())
    timings.ptxasStarted = assembler->startedEarly() ? "early" : "late";

  // The LLVM target machine and its codegen pass pipeline do not depend on
  // the module: they are made on another thread while the pipeline runs.
  struct LLVMTarget {
    std::unique_ptr<llvm::TargetMachine> machine;
    std::unique_ptr<kiln::nvptx::NVPTXCodegenPipeline> codegen;
  };
  std::future<llvm::Expected<LLVMTarget>> targetMachine = kiln::runOnSideThread(
      [arch = backendOptions.arch, ptxVersion = backendOptions.ptxVersion,
       optLevel = backendOptions.optLevel,
       fpFusion = backendOptions.fpFusion]() -> llvm::Expected<LLVMTarget> {
        llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
            kiln::nvptx::createNVPTXTargetMachine(arch, ptxVersion, optLevel,
                                                  fpFusion);
        if (!machine)
          return machine.takeError();
        llvm::Expected<std::unique_ptr<kiln::nvptx::NVPTXCodegenPipeline>>
            codegen = kiln::nvptx::NVPTXCodegenPipeline::create(**machine);
        if (!codegen)
          return codegen.takeError();
        return LLVMTarget{std::move(*machine), std::move(*codegen)};
      });

  int numWarps = options.numWarps;
  if (isTTIR) {
    kiln::StageTimer pipelineTimer;
    mlir::PassManager &pm = *pipeline;
    // Verifying the whole module after each of the pipeline's passes was a
    // third of the pipeline's time; the module is verified once after the
    // last pass instead (and after every pass with --stage-dump, to name
    // the pass that broke it).
    pm.enableVerifier(options.stageDump);
    pm.addInstrumentation(std::make_unique<StageDumper>(
        *module, artifacts, kernelName, options.stageDump));
    mlir::DefaultTimingManager passTiming;
    passTiming.setEnabled(options.timings);
    mlir::TimingScope timingRoot = passTiming.getRootScope();
    if (options.timings)
      pm.enableTiming(timingRoot);
    mlir::LogicalResult ran = pm.run(*module);
    if (mlir::succeeded(ran) && !options.stageDump) {
      mlir::TimingScope verifyTiming = timingRoot.nest("Verify (once)");
      ran = mlir::verify(*module);
    }
    timingRoot.stop();
    timings.pipelineUs = pipelineTimer.elapsedUs();
    if (options.timings) {
      passTiming.print();
      passTiming.setEnabled(false); // else its destructor prints it again
    }
    // A stage file that could not be written (the error is printed) fails
    // the compile: its entry would lack the stage, and exit 0 said nothing.
    if (artifacts.failed())
      return 1;
    if (mlir::failed(ran))
      return fail("the TTIR pipeline failed on " + options.inputFile);
  }

  // The kernel as the backend sees it.
  mlir::Operation *kernelOp = nullptr;
  for (mlir::Operation *op : findKernels(*module, /*ttir=*/false))
    if (symbolName(op) == kernelName)
      kernelOp = op;
  if (!kernelOp) {
    return fail(options.inputFile +
                ": no kernel: after the TTIR pipeline the module has no "
                "llvm.func @" + kernelName + " with the nvvm.kernel attribute");
  }
  auto llvmKernel = mlir::cast<mlir::LLVM::LLVMFuncOp>(kernelOp);

  // Block size: nvvm.maxntid must agree with num_warps (the runtime launches
  // warp_size x num_warps threads).
  mlir::FailureOr<int> warps =
      launchedWarps(llvmKernel, kernelName, numWarps,
                    options.numWarpsGiven || isTTIR);
  if (mlir::failed(warps))
    return 1;
  numWarps = *warps;

  // --maxnreg: the kernel's .maxnreg directive (PTX ISA 11.4.3, through
  // nvvm.maxnreg). ptxas --maxrregcount alone is not applied to a kernel
  // whose PTX carries .maxntid, as kiln's does.
  if (options.maxnreg > 0)
    llvmKernel->setAttr(
        mlir::NVVM::NVVMDialect::getMaxnregAttrName(),
        mlir::IntegerAttr::get(mlir::IntegerType::get(llvmKernel.getContext(), 32),
                               options.maxnreg));

  // Signature: kiln.arg_types on the llvm.func wins (names from TTIR when it
  // lines up), then the TTIR signature, then the LLVM argument types.
  std::vector<KernelArg> signature;
  if (!isTTIR || llvmKernel->hasAttr("kiln.arg_types")) {
    mlir::FailureOr<std::vector<KernelArg>> fromLLVM =
        signatureFromLLVMFunc(llvmKernel);
    if (mlir::failed(fromLLVM))
      return 1;
    signature = std::move(*fromLLVM);
    if (isTTIR && ttSignature.size() == signature.size())
      for (size_t i = 0; i < signature.size(); ++i)
        signature[i].name = ttSignature[i].name;
  } else {
    signature = ttSignature;
  }
  int64_t numLLVMArgs = llvmKernel.getNumArguments();
  if (numLLVMArgs < int64_t(signature.size())) {
    llvmKernel.emitError("@")
        << kernelName << " takes " << numLLVMArgs
        << " arguments, fewer than its TTIR signature's " << signature.size();
    return 1;
  }
  int trailingNullPointers = static_cast<int>(numLLVMArgs - signature.size());

  int64_t sharedBytes = 0;
  if (auto shared = (*module)->getAttrOfType<mlir::IntegerAttr>("kgpu.shared"))
    sharedBytes = shared.getInt();

  // Backend. The LLVM-dialect artifact (megabytes of text for a matmul,
  // ~18 ms to print) is printed on another thread once the backend has
  // translated the module and no longer touches MLIR.
  std::future<bool> llvmDialectWritten;
  auto writeLLVMDialect = [&] {
    return artifacts.write(kernelName + ".llvm.mlir", printOp(*module));
  };
  backendOptions.afterTranslate = [&] {
    llvmDialectWritten = kiln::runOnSideThread(writeLLVMDialect);
  };
  // The PTX is written while ptxas assembles it, and is there when ptxas
  // rejects it (the error names <kernel>.ptx).
  std::future<bool> ptxWritten;
  backendOptions.afterCodegen = [&](llvm::StringRef ptx) {
    ptxWritten = kiln::runOnSideThread(
        [&artifacts, name = kernelName + ".ptx", text = ptx.str()] {
          return artifacts.write(name, text);
        });
  };
  llvm::Expected<LLVMTarget> madeTarget = targetMachine.get();
  if (!madeTarget)
    return fail(options.inputFile + ": " +
                llvm::toString(madeTarget.takeError()));
  llvm::Expected<kiln::nvptx::NVPTXCompileResult> compiled =
      kiln::nvptx::compileToCubin(*module, backendOptions, assembler.get(),
                                  std::move(madeTarget->machine),
                                  std::move(madeTarget->codegen));
  backendOptions.afterTranslate = nullptr;
  backendOptions.afterCodegen = nullptr;
  bool wroteLLVMDialect = llvmDialectWritten.valid() ? llvmDialectWritten.get()
                                                     : writeLLVMDialect();
  bool wrotePTX = !ptxWritten.valid() || ptxWritten.get();
  if (!wroteLLVMDialect || !wrotePTX) {
    if (!compiled)
      llvm::consumeError(compiled.takeError());
    return 1;
  }
  if (!compiled)
    return fail(options.inputFile + ": " + llvm::toString(compiled.takeError()));
  timings.backend = compiled->timings;
  for (llvm::StringRef line : llvm::split(compiled->ptxasLog, '\n'))
    if (line.contains("warning"))
      llvm::errs() << line << "\n";

  kiln::StageTimer writeTimer;
  KernelMetadata metadata;
  metadata.kernel = kernelName;
  metadata.arch = options.arch;
  metadata.numWarps = numWarps;
  metadata.numStages = options.numStages;
  metadata.sharedBytes = sharedBytes;
  metadata.signature = std::move(signature);
  metadata.binaryFile = kernelName + ".cubin";
  metadata.binarySize = compiled->cubin.size();
  metadata.binarySha256 = kiln::cache::sha256Hex(compiled->cubin);
  metadata.trailingNullPointers = trailingNullPointers;
  metadata.jobKey = jobKey;
  if (const kiln::nvptx::PtxasFunctionInfo *info =
          compiled->findPtxasInfo(kernelName)) {
    metadata.registers = info->registers;
    metadata.spillStoreBytes = info->spillStoreBytes;
    metadata.spillLoadBytes = info->spillLoadBytes;
  }
  if (!artifacts.write(kernelName + ".ll", compiled->llvmIR) ||
      !artifacts.write(metadata.binaryFile, compiled->cubin) ||
      !artifacts.write("metadata.json", toMetadataJson(metadata)))
    return 1;
  timings.writeUs = writeTimer.elapsedUs();
  timings.totalUs = total.elapsedUs();
  if (!artifacts.write("timings.json", timingsJson(timings)) ||
      !artifacts.publish())
    return 1;

  if (options.timings)
    printTimingTable(timings);
  if (options.listener) {
    const kiln::nvptx::NVPTXStageTimings &bt = timings.backend;
    std::string target = "cuda/" + options.arch;
    const std::string &key = jobKey;
    std::pair<const char *, int64_t> stages[] = {
        {"parse", timings.parseUs},       {"pipeline", timings.pipelineUs},
        {"translate", bt.translateUs},    {"link", bt.linkLibdeviceUs},
        {"optimize", bt.optimizeUs},      {"codegen", bt.codegenUs},
        {"ptxas", bt.ptxasUs},            {"write", timings.writeUs}};
    for (auto [stage, us] : stages)
      options.listener({"stage", stage, us, kernelName, target, key});
    options.listener({"compiled", "", timings.totalUs, kernelName, target, key});
  }
  if (options.quiet)
    return 0;
  const kiln::nvptx::NVPTXStageTimings &b = timings.backend;
  llvm::outs() << llvm::formatv(
      "kiln: {0} -> {1} ({2}, PTX {3}.{4}, {5} registers, {6} B spilled, "
      "cubin {7} B) in {8:f1} ms [parse {9:f1}, pipeline {10:f1}, translate "
      "{11:f1}, link {12:f1}, optimize {13:f1}, codegen {14:f1}, ptxas "
      "{15:f1}]\n",
      kernelName, dir, options.arch, options.ptxVersion / 10,
      options.ptxVersion % 10, metadata.registers,
      metadata.spillStoreBytes + metadata.spillLoadBytes, metadata.binarySize,
      ms(timings.totalUs), ms(timings.parseUs), ms(timings.pipelineUs),
      ms(b.translateUs), ms(b.linkLibdeviceUs), ms(b.optimizeUs),
      ms(b.codegenUs), ms(b.ptxasUs));
  return 0;
  };
  // A compile that fails publishes what it wrote too (the .kgpu.mlir,
  // .llvm.mlir and .ptx of a kernel that ptxas rejected), in place of the
  // earlier set.
  auto compileToDir = [&](ArtifactWriter &artifacts) -> int {
    int status = compileAndWrite(artifacts);
    if (!artifacts.publish() && status == 0)
      status = 1;
    return status;
  };

  if (bypassesCache) {
    ArtifactWriter artifacts(dir, kernelName, /*keep=*/false);
    return compileToDir(artifacts);
  }
  return compileThroughCache(
      job, options, kernelName, dir, total, compileToDir, outcome,
      cachedArtifactNames(kernelName),
      llvm::formatv("{0}, PTX {1}.{2}", options.arch, options.ptxVersion / 10,
                    options.ptxVersion % 10)
          .str());
}

int runToolchain(const std::string &ptxasPath,
                 const std::string &libdevicePath) {
  int status = 0;
  nlohmann::ordered_json doc;
  llvm::Expected<std::string> ptxas = kiln::nvptx::findPtxas(ptxasPath);
  if (ptxas) {
    doc["ptxas"] = *ptxas;
    llvm::Expected<std::string> version = kiln::nvptx::getPtxasVersion(*ptxas);
    if (version) {
      doc["ptxas_version"] = *version;
    } else {
      status = fail(llvm::toString(version.takeError()));
    }
  } else {
    status = fail(llvm::toString(ptxas.takeError()));
  }
  llvm::Expected<std::string> libdevice =
      kiln::nvptx::findLibdevice(libdevicePath);
  if (libdevice) {
    doc["libdevice"] = *libdevice;
    // The same digest the compile job's toolchain identity takes
    // (fileSha256: cache/'s SHA-256, the one keys and checksums use).
    llvm::Expected<std::string> hash = fileSha256(*libdevice);
    if (hash)
      doc["libdevice_sha256"] = *hash;
    else
      status = fail(llvm::toString(hash.takeError()));
  } else {
    status = fail(llvm::toString(libdevice.takeError()));
  }
  doc["llvm_max_ptx_version"] = kiln::nvptx::maxSupportedPtxVersion();
  llvm::outs() << doc.dump(2) << "\n";
  return status;
}

} // namespace kiln::tool
