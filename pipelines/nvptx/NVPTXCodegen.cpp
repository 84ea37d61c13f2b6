//===- NVPTXCodegen.cpp - LLVM IR stages: libdevice, O3, PTX --------------===//
//
// The LLVM-only half of the backend: the NVPTX target machine, libdevice
// linking, the new-pass-manager O3 pipeline and PTX emission. No MLIR here.
//
// LLVM reports most codegen and linker problems through the LLVMContext's
// diagnostic handler (whose default prints and exits on errors); every stage
// below installs a collecting handler for its duration so the problem comes
// back as an llvm::Error instead.
//
//===----------------------------------------------------------------------===//

#include "pipelines/nvptx/NVPTXBackend.h"

#include "pipelines/common/Error.h"
#include "pipelines/common/OutOfMemory.h"
#include "pipelines/common/SignalCleanup.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/OptBisect.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/Transforms/IPO/Internalize.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/SeparateConstOffsetFromGEP.h"
#include "llvm/Transforms/Utils/CodeExtractor.h"

#include <map>
#include <mutex>

extern "C" {
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetMC();
void LLVMInitializeNVPTXAsmPrinter();
}

using namespace llvm;

namespace kiln::nvptx {
namespace {

/// Collects error diagnostics of an LLVMContext while alive, then restores
/// the previous handler. Warnings and remarks are dropped.
class DiagnosticCollector {
public:
  explicit DiagnosticCollector(LLVMContext &context) : context(context) {
    previous = context.getDiagnosticHandler();
    context.setDiagnosticHandler(std::make_unique<Handler>(errors));
  }
  ~DiagnosticCollector() { context.setDiagnosticHandler(std::move(previous)); }

  /// An error naming `stage` with every collected message, or success.
  Error takeError(StringRef stage) {
    if (errors.empty())
      return Error::success();
    std::string joined = errors.front();
    for (size_t i = 1; i < errors.size(); ++i)
      joined += "\n" + errors[i];
    errors.clear();
    return makeError(stage + ": " + joined);
  }

private:
  struct Handler : DiagnosticHandler {
    explicit Handler(std::vector<std::string> &errors) : errors(errors) {}
    bool handleDiagnostics(const DiagnosticInfo &info) override {
      if (info.getSeverity() != DS_Error)
        return true;
      std::string text;
      raw_string_ostream os(text);
      DiagnosticPrinterRawOStream printer(os);
      info.print(printer);
      errors.push_back(std::move(text));
      return true;
    }
    std::vector<std::string> &errors;
  };

  LLVMContext &context;
  std::unique_ptr<DiagnosticHandler> previous;
  std::vector<std::string> errors;
};

/// The report_fatal_error message of the current thread's guarded stage.
thread_local std::string *fatalMessage = nullptr;

/// Process-wide LLVM fatal error handler: inside runGuarded() it records the
/// message and unwinds to the guard (Process::Exit hands over to the current
/// CrashRecoveryContext); elsewhere it prints like LLVM's default handler
/// and LLVM exits as it would without a handler.
void onFatalError(void *, const char *reason, bool) {
  if (fatalMessage) {
    *fatalMessage = reason;
    sys::Process::Exit(1);
  }
  errs() << "LLVM ERROR: " << reason << "\n";
}

/// Runs `stage`, turning LLVM's report_fatal_error (NVPTX instruction
/// selection reports unsupported IR that way), running out of memory
/// (OutOfMemory.h) and crashes into an Error.
/// Like clang's in-process cc1: CrashRecoveryContext unwinds with longjmp,
/// so what the stage allocated may leak; the caller drops the module.
Error runGuarded(StringRef stage, function_ref<Error()> fn) {
  static std::once_flag once;
  std::call_once(once, [] {
    install_fatal_error_handler(onFatalError);
    CrashRecoveryContext::Enable();
    // kiln's signal handler first again, handing faults in a context on
    // to the context's (SignalCleanup.h).
    kiln::takeFaultsBeforeCrashRecovery();
  });
  std::string message;
  std::string *outer = fatalMessage;
  fatalMessage = &message;
  Error result = Error::success();
  CrashRecoveryContext context;
  OutOfMemoryScope memory;
  bool ok = context.RunSafely([&] { result = fn(); });
  fatalMessage = outer;
  if (ok)
    return result;
  consumeError(std::move(result));
  if (memory.ranOut())
    return makeError(stage + ": out of memory");
  return makeError(stage + ": LLVM " +
                   (message.empty() ? "crashed" : "error: " + message));
}

const Target *getNVPTXTarget(std::string &error) {
  initializeNVPTXTarget();
  return TargetRegistry::lookupTarget(Triple(kNVPTXTriple), error);
}

/// "ptx80" -> 80; -1 for other feature names.
int ptxFeatureVersion(StringRef feature) {
  int version = -1;
  if (!feature.consume_front("ptx") || feature.getAsInteger(10, version))
    return -1;
  return version;
}

std::string formatPtxVersion(int version) {
  return std::to_string(version / 10) + "." + std::to_string(version % 10);
}

/// The lowest PTX ISA version (times ten) LLVM 22's NVPTX backend accepts
/// for each processor (measured with llc; the PTX ISA's "Target ISA notes"
/// give the same figures for sm_50 and newer). 0 for a processor not listed.
int minPtxVersionFor(StringRef arch) {
  static constexpr struct {
    const char *arch;
    int version;
  } table[] = {
      {"sm_20", 32},   {"sm_21", 32},   {"sm_30", 32},   {"sm_32", 40},
      {"sm_35", 32},   {"sm_37", 41},   {"sm_50", 40},   {"sm_52", 41},
      {"sm_53", 42},   {"sm_60", 50},   {"sm_61", 50},   {"sm_62", 50},
      {"sm_70", 60},   {"sm_72", 61},   {"sm_75", 63},   {"sm_80", 70},
      {"sm_86", 71},   {"sm_87", 74},   {"sm_88", 90},   {"sm_89", 78},
      {"sm_90", 78},   {"sm_90a", 80},  {"sm_100", 86},  {"sm_100a", 86},
      {"sm_100f", 88}, {"sm_101", 86},  {"sm_101a", 86}, {"sm_101f", 88},
      {"sm_103", 88},  {"sm_103a", 88}, {"sm_103f", 88}, {"sm_110", 90},
      {"sm_110a", 90}, {"sm_110f", 90}, {"sm_120", 87},  {"sm_120a", 87},
      {"sm_120f", 88}, {"sm_121", 88},  {"sm_121a", 88}, {"sm_121f", 88},
  };
  for (const auto &entry : table)
    if (arch == entry.arch)
      return entry.version;
  return 0;
}

bool isKernel(const Function &function) {
  return function.getCallingConv() == CallingConv::PTX_Kernel;
}

} // namespace

void initializeNVPTXTarget() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    // 32-bit pointers for the shared, const and local address spaces (the
    // target machine's data layout gets p3:32, p4:32, p5:32), as Triton
    // compiles: a CTA's shared memory (<= 228 KiB) and a thread's local
    // memory are far below 4 GiB, so the addresses are the same values in
    // fewer registers. ptxas assembled the resulting PTX 6-18% faster on
    // kernels with shared or local memory (bmm, flex attention, cos's
    // local-array slow path) and registers dropped (bmm: 126 -> 74).
    // LLVM 22 offers this only as the nvptx-short-ptr command-line option,
    // read when a target machine is created; kiln never creates an NVPTX
    // target machine without it.
    auto &registered = cl::getRegisteredOptions();
    auto it = registered.find("nvptx-short-ptr");
    if (it != registered.end())
      it->second->addOccurrence(/*pos=*/0, "nvptx-short-ptr", "true");
  });
}

int maxSupportedPtxVersion() {
  std::string error;
  const Target *target = getNVPTXTarget(error);
  if (!target)
    return 0;
  std::unique_ptr<MCSubtargetInfo> sti(
      target->createMCSubtargetInfo(Triple(kNVPTXTriple), "", ""));
  int best = 0;
  for (const SubtargetFeatureKV &feature : sti->getAllProcessorFeatures())
    best = std::max(best, ptxFeatureVersion(feature.Key));
  return best;
}

Error validateTarget(StringRef arch, int ptxVersion) {
  std::string error;
  const Target *target = getNVPTXTarget(error);
  if (!target)
    return makeError("NVPTX target unavailable in this LLVM: " + error);
  std::unique_ptr<MCSubtargetInfo> generic(
      target->createMCSubtargetInfo(Triple(kNVPTXTriple), "", ""));

  if (!generic->isCPUStringValid(arch)) {
    // In numeric order: sm_20, ..., sm_90a, sm_100, ...
    std::vector<StringRef> cpus;
    for (const SubtargetSubTypeKV &cpu : generic->getAllProcessorDescriptions())
      cpus.push_back(cpu.Key);
    auto number = [](StringRef cpu) {
      unsigned value = 0;
      cpu.drop_front(3).take_while(isDigit).getAsInteger(10, value);
      return value;
    };
    llvm::stable_sort(cpus, [&](StringRef a, StringRef b) {
      return std::make_pair(number(a), a) < std::make_pair(number(b), b);
    });
    std::string known = llvm::join(cpus, ", ");
    return makeError("unknown target '" + arch +
                     "': LLVM's NVPTX backend knows " + known);
  }

  int minVersion = 0, maxVersion = 0;
  bool known = false;
  for (const SubtargetFeatureKV &feature : generic->getAllProcessorFeatures()) {
    int version = ptxFeatureVersion(feature.Key);
    maxVersion = std::max(maxVersion, version);
    known |= version == ptxVersion;
  }
  if (!known)
    return makeError("unsupported PTX ISA version " + Twine(ptxVersion) +
                     " (" + formatPtxVersion(ptxVersion) +
                     "): LLVM's NVPTX backend emits up to " +
                     Twine(maxVersion) + " (" + formatPtxVersion(maxVersion) +
                     ")");

  // LLVM's NVPTX subtarget aborts (report_fatal_error) on a PTX version too
  // old for the processor, so check first.
  minVersion = minPtxVersionFor(arch);
  if (ptxVersion < minVersion)
    return makeError(arch + " needs PTX ISA " + formatPtxVersion(minVersion) +
                     " or newer (ptx version " + Twine(minVersion) +
                     "), got " + Twine(ptxVersion));
  return Error::success();
}

Expected<std::unique_ptr<TargetMachine>>
createNVPTXTargetMachine(StringRef arch, int ptxVersion, int optLevel,
                         bool fpFusion) {
  if (Error err = validateTarget(arch, ptxVersion))
    return std::move(err);
  if (optLevel < 0 || optLevel > 3)
    return makeError("optimization level must be 0-3, got " + Twine(optLevel));
  std::string error;
  const Target *target = getNVPTXTarget(error);
  if (!target)
    return makeError("NVPTX target unavailable in this LLVM: " + error);
  // Level 3 generates code at CodeGenOptLevel::Default, as llc -O2 does.
  // What NVPTX does differently at Aggressive is GVN instead of EarlyCSE
  // after straight-line strength reduction: on the 68 corpus, kernels and
  // kernels_dots files, 64 PTX files came out byte-identical and four
  // differed by a few instructions (matmul_kernel: 875 -> 872, 216 -> 215
  // registers), while the two GVN runs took ~30% of the flex attention
  // kernel's codegen (190 -> 133 ms). The IR optimization level
  // (optimizeModule) stays O3.
  static constexpr CodeGenOptLevel levels[] = {
      CodeGenOptLevel::None, CodeGenOptLevel::Less, CodeGenOptLevel::Default,
      CodeGenOptLevel::Default};
  std::string features = "+ptx" + std::to_string(ptxVersion);
  TargetOptions targetOptions;
  targetOptions.AllowFPOpFusion =
      fpFusion ? FPOpFusion::Fast : FPOpFusion::Standard;
  std::unique_ptr<TargetMachine> tm(target->createTargetMachine(
      Triple(kNVPTXTriple), arch, features, targetOptions, std::nullopt,
      std::nullopt, levels[optLevel]));
  if (!tm)
    return makeError("cannot create the NVPTX target machine for " + arch);
  return std::move(tm);
}

bool needsLibdevice(const Module &module) {
  for (const Function &function : module)
    if (function.isDeclaration() && function.getName().starts_with("__nv_"))
      return true;
  return false;
}

void prepareModuleForNVPTX(Module &module, TargetMachine &tm, bool ftz) {
  module.setTargetTriple(tm.getTargetTriple());
  module.setDataLayout(tm.createDataLayout());
  if (!module.getModuleFlag("nvvm-reflect-ftz"))
    module.addModuleFlag(Module::Override, "nvvm-reflect-ftz", ftz ? 1 : 0);
  bool hasKernel = false;
  for (const Function &function : module)
    hasKernel |= isKernel(function);
  // A module without kernels is a library: keep its functions visible.
  if (!hasKernel)
    return;
  internalizeModule(module, [](const GlobalValue &value) {
    const auto *function = dyn_cast<Function>(&value);
    return !function || function->isDeclaration() || isKernel(*function);
  });
}

namespace {

/// libdevice's table of the bits of 2/pi that the float Payne-Hanek
/// reduction reads (libdevice.10.bc, CUDA 12 and 13).
constexpr StringLiteral kTrigReductionTable = "__cudart_i2opi_f";

/// Whether `inst` reads the table: as an operand or through a constant
/// expression (a GEP folded into a load's address).
bool usesTrigReductionTable(const Instruction &inst, const GlobalValue &table) {
  for (const Value *operand : inst.operands()) {
    if (operand == &table)
      return true;
    if (const auto *expr = dyn_cast<ConstantExpr>(operand))
      if (is_contained(expr->operands(), &table))
        return true;
  }
  return false;
}

/// The blocks of `function`'s Payne-Hanek slow path that contains `use`:
/// the region dominated by the nearest block above it that is the "true"
/// successor, and only successor, of a branch on `fcmp oge|ogt x, constant`
/// (libdevice's |x| >= 105615 range check) and that leaves the region to a
/// single block, without returning. Empty if there is no such region.
SmallVector<BasicBlock *> findTrigSlowPath(BasicBlock *use,
                                           DominatorTree &dominators) {
  for (DomTreeNode *node = dominators.getNode(use); node;
       node = node->getIDom()) {
    BasicBlock *entry = node->getBlock();
    BasicBlock *guard = entry->getSinglePredecessor();
    auto *branch =
        guard ? dyn_cast<BranchInst>(guard->getTerminator()) : nullptr;
    if (!branch || !branch->isConditional() ||
        branch->getSuccessor(0) != entry || branch->getSuccessor(1) == entry)
      continue;
    auto *compare = dyn_cast<FCmpInst>(branch->getCondition());
    if (!compare || !isa<ConstantFP>(compare->getOperand(1)) ||
        (compare->getPredicate() != FCmpInst::FCMP_OGE &&
         compare->getPredicate() != FCmpInst::FCMP_OGT))
      continue;
    // CodeExtractor takes the first block as the region's entry.
    SmallVector<BasicBlock *> region = {entry};
    SmallPtrSet<BasicBlock *, 32> inRegion = {entry};
    for (BasicBlock &block : *entry->getParent())
      if (&block != entry && dominators.dominates(entry, &block)) {
        region.push_back(&block);
        inRegion.insert(&block);
      }
    BasicBlock *exit = nullptr;
    bool singleExit = true;
    for (BasicBlock *block : region) {
      if (isa<ReturnInst>(block->getTerminator()))
        singleExit = false;
      for (BasicBlock *successor : successors(block))
        if (!inRegion.contains(successor)) {
          singleExit &= !exit || exit == successor;
          exit = successor;
        }
    }
    if (singleExit && exit)
      return region;
  }
  return {};
}

} // namespace

unsigned outlineTrigReductionSlowPaths(
    Module &module, function_ref<bool(const GlobalValue &)> fromLibdevice) {
  // The linker renames libdevice's internal table (`__cudart_i2opi_f3`)
  // when the kernel's module has a global of that name, defined or only
  // declared; the table is libdevice's definition.
  GlobalVariable *table = nullptr;
  for (GlobalVariable &global : module.globals()) {
    StringRef suffix = global.getName();
    if (!global.isDeclaration() && fromLibdevice(global) &&
        suffix.consume_front(kTrigReductionTable) && all_of(suffix, isDigit)) {
      table = &global;
      break;
    }
  }
  if (!table)
    return 0;
  unsigned outlined = 0;
  SmallVector<Function *> functions;
  for (Function &function : module)
    if (!function.isDeclaration() && !isKernel(function) &&
        fromLibdevice(function))
      functions.push_back(&function);
  for (Function *function : functions) {
    // One region per round: extraction changes the function's CFG. The
    // Bessel functions have up to nine.
    while (true) {
      DominatorTree dominators(*function);
      SmallVector<BasicBlock *> region;
      for (BasicBlock &block : *function) {
        if (none_of(block, [&](const Instruction &inst) {
              return usesTrigReductionTable(inst, *table);
            }))
          continue;
        region = findTrigSlowPath(&block, dominators);
        if (!region.empty())
          break;
      }
      if (region.empty())
        break;
      SmallPtrSet<BasicBlock *, 32> inRegion(region.begin(), region.end());
      // The reduction's local array is a static alloca of the function's
      // entry block used only in the region. CodeExtractor would pass its
      // address in (it sinks only allocas with lifetime markers), leaving
      // one array per inlined call in the kernel's frame: move such allocas
      // into the region, then into the new function's entry block.
      SmallVector<AllocaInst *> sunk;
      BasicBlock::iterator regionStart =
          region.front()->getFirstInsertionPt();
      for (Instruction &inst :
           make_early_inc_range(function->getEntryBlock())) {
        auto *alloca = dyn_cast<AllocaInst>(&inst);
        if (!alloca || alloca->use_empty() ||
            !all_of(alloca->users(), [&](const User *user) {
              return inRegion.contains(cast<Instruction>(user)->getParent());
            }))
          continue;
        alloca->moveBefore(regionStart);
        sunk.push_back(alloca);
      }
      CodeExtractorAnalysisCache cache(*function);
      CodeExtractor extractor(region, &dominators, /*AggregateArgs=*/false,
                              nullptr, nullptr, nullptr,
                              /*AllowVarArgs=*/false, /*AllowAlloca=*/true,
                              nullptr, "trig_reduction_slowpath");
      Function *slowPath =
          extractor.isEligible() ? extractor.extractCodeRegion(cache) : nullptr;
      if (!slowPath) {
        BasicBlock::iterator entryStart =
            function->getEntryBlock().getFirstInsertionPt();
        for (AllocaInst *alloca : sunk)
          alloca->moveBefore(entryStart);
        break;
      }
      BasicBlock::iterator newEntryStart =
          slowPath->getEntryBlock().getFirstInsertionPt();
      for (AllocaInst *alloca : sunk)
        alloca->moveBefore(newEntryStart);
      // libdevice's functions are alwaysinline, and the extractor copies
      // that; the slow path is called, once per call site.
      slowPath->removeFnAttr(Attribute::AlwaysInline);
      slowPath->addFnAttr(Attribute::NoInline);
      slowPath->addFnAttr(Attribute::Cold);
      ++outlined;
    }
  }
  return outlined;
}

Error linkLibdevice(Module &module, StringRef libdevicePath, bool ftz) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> buffer =
      MemoryBuffer::getFile(libdevicePath, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return makeError("link libdevice: cannot read '" + libdevicePath +
                     "': " + buffer.getError().message());
  DiagnosticCollector diagnostics(module.getContext());
  // Lazily: only the functions the kernel calls (and what they call) are
  // materialized by the LinkOnlyNeeded link below; reading every body of
  // libdevice eagerly cost ~20 ms per compile.
  Expected<std::unique_ptr<Module>> libdevice =
      getOwningLazyBitcodeModule(std::move(*buffer), module.getContext());
  if (!libdevice)
    return makeError("link libdevice: '" + libdevicePath +
                     "' is not LLVM bitcode: " +
                     toString(libdevice.takeError()));
  // What the kernel's module defines itself, before libdevice joins it.
  StringSet<> ownDefinitions;
  for (const GlobalValue &value : module.global_values())
    if (!value.isDeclaration())
      ownDefinitions.insert(value.getName());
  // libdevice says nvptx64-nvidia-gpulibs; match the kernel module so the
  // linker does not warn about mixing triples and layouts.
  (*libdevice)->setTargetTriple(module.getTargetTriple());
  (*libdevice)->setDataLayout(module.getDataLayout());
  if (Linker::linkModules(module, std::move(*libdevice),
                          Linker::Flags::LinkOnlyNeeded)) {
    if (Error err = diagnostics.takeError("link libdevice"))
      return err;
    return makeError("link libdevice: linking '" + libdevicePath + "' failed");
  }
  if (Error err = diagnostics.takeError("link libdevice"))
    return err;
  outlineTrigReductionSlowPaths(module, [&](const GlobalValue &value) {
    return !ownDefinitions.contains(value.getName());
  });
  if (module.getModuleFlag("nvvm-reflect-ftz"))
    module.setModuleFlag(Module::Override, "nvvm-reflect-ftz", ftz ? 1 : 0);
  else
    module.addModuleFlag(Module::Override, "nvvm-reflect-ftz", ftz ? 1 : 0);
  internalizeModule(module, [](const GlobalValue &value) {
    const auto *function = dyn_cast<Function>(&value);
    return !function || function->isDeclaration() || isKernel(*function);
  });
  return Error::success();
}

/// LICM's scalar promotion (a memory location accessed in a loop kept in a
/// register across it) is not attempted in loops with more MemorySSA
/// accesses than this; LLVM's default cap is 250. A K loop of kiln's has
/// 100-250 (shared-memory loads and stores, cp.async, ldmatrix and barrier
/// calls) and nothing promotable, so LICM only searched there: 21 of the
/// 64 ms of O3 on bench/conformance/kernels_dots/dot_trans_b_128x128x64
/// (build machine, `opt -O3 -time-passes`). With 64, the PTX and cubins of
/// the 68 corpus, kernels and kernels_dots files are byte-identical, and
/// their O3 time sums to 5.5% less.
constexpr unsigned kLicmPromotionAccessCap = 64;

namespace {

/// Counts the runs of each pass per IR unit and tells whether a run is one
/// that `omit` lists; if so and `omitted` is given, appends "pass#run" to
/// it. Both pipelines' filters (optimizeModule's instrumentation callback,
/// emitPTX's OptPassGate) are one of these.
class PassRunFilter {
public:
  PassRunFilter(ArrayRef<OmittedPassRun> omit,
                std::vector<std::string> *omitted)
      : omit(omit), omitted(omitted) {}

  /// Whether the next run of `pass` on the IR unit named `unit` runs.
  bool shouldRun(StringRef pass, StringRef unit) {
    unsigned run = ++runs[(pass + "\n" + unit).str()];
    for (const OmittedPassRun &o : omit) {
      if (o.pass != pass || (o.run != 0 && o.run != run))
        continue;
      if (omitted)
        omitted->push_back((pass + "#" + Twine(run)).str());
      return false;
    }
    return true;
  }

private:
  ArrayRef<OmittedPassRun> omit;
  std::vector<std::string> *omitted;
  std::map<std::string, unsigned> runs;
};

} // namespace

ArrayRef<OmittedPassRun> omittedO3PassRuns() {
  // Each was left out alone, then all together (docs/BENCHMARKS.md,
  // twenty-first session). `opt -time-passes` on the build machine, the
  // unoptimized IR of matmul_kernel / flex attention: called-value
  // propagation 1.1 / 3.2 ms (kiln kernels make no indirect calls), the 5th
  // and 6th InstCombine 2.3-2.6 / 6.6-7.1 ms each (the last one of the
  // function simplification pipeline and the first one after it). Leaving
  // out the 7th as well changed one file's PTX, the 4th or the 8th alone
  // three. DSE and constraint elimination stay: they too changed none of
  // the 199 files, but hand-written kernels with a store overwritten by a
  // later one, or a load mask that an enclosing condition decides, kept
  // the dead store or the compare without them (helper-55).
  static const OmittedPassRun runs[] = {
      {"CalledValuePropagationPass", 0},
      {"BDCEPass", 0},
      {"ADCEPass", 0},
      {"InstSimplifyPass", 0},
      {"TailCallElimPass", 0},
      {"CorrelatedValuePropagationPass", 2},
      {"InstCombinePass", 5},
      {"InstCombinePass", 6},
  };
  return runs;
}

Error optimizeModule(Module &module, TargetMachine &tm, int optLevel,
                     ArrayRef<OmittedPassRun> omit,
                     std::vector<std::string> *omitted) {
  DiagnosticCollector diagnostics(module.getContext());
  LoopAnalysisManager lam;
  FunctionAnalysisManager fam;
  CGSCCAnalysisManager cgam;
  ModuleAnalysisManager mam;
  // The constructor registers the NVPTX callbacks (NVVMReflect at pipeline
  // start, address-space inference, ...).
  PipelineTuningOptions tuning;
  tuning.LicmMssaNoAccForPromotionCap = kLicmPromotionAccessCap;
  // Leaves out the runs in `omit`: the n-th run of a pass is counted per
  // function or module it runs on, by name (loop and CGSCC passes, which no
  // list names, per pipeline).
  PassInstrumentationCallbacks instrumentation;
  PassRunFilter filter(omit, omitted);
  if (!omit.empty())
    instrumentation.registerShouldRunOptionalPassCallback(
        [&](StringRef pass, Any ir) {
          StringRef unit;
          if (const auto *f = llvm::any_cast<const Function *>(&ir))
            unit = (*f)->getName();
          else if (const auto *m = llvm::any_cast<const Module *>(&ir))
            unit = (*m)->getModuleIdentifier();
          return filter.shouldRun(pass, unit);
        });
  PassBuilder builder(&tm, tuning, std::nullopt,
                      omit.empty() ? nullptr : &instrumentation);
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  static const OptimizationLevel *levels[] = {
      &OptimizationLevel::O0, &OptimizationLevel::O1, &OptimizationLevel::O2,
      &OptimizationLevel::O3};
  if (optLevel < 0 || optLevel > 3)
    return makeError("optimize: level must be 0-3, got " + Twine(optLevel));
  // The last step of the IR pipeline splits constant offsets out of GEP
  // indices and merges the variable parts that are then equal. A tile's
  // pointers, `gep half, %base, sext(%row | 1024 * j)` for each j, become
  // one `gep half, %base, sext(%row)` plus `gep i8, ..., 2048 * j`. NVPTX
  // codegen runs the same split before straight-line strength reduction,
  // but leaves one copy of the variable part per element until the
  // EarlyCSE after it, and SLSR relates every pair of copies (each pair
  // is checked for poison along whole basic blocks). Flex attention
  // (corpus): SLSR 33 -> 4 ms, codegen 158 -> 81 ms (build machine); the
  // PTX and cubins of the 74 corpus, kernels and kernels_dots files are
  // byte-identical.
  if (optLevel > 0)
    builder.registerOptimizerLastEPCallback(
        [](ModulePassManager &mpm, OptimizationLevel, ThinOrFullLTOPhase) {
          FunctionPassManager fpm;
          fpm.addPass(SeparateConstOffsetFromGEPPass());
          fpm.addPass(EarlyCSEPass());
          mpm.addPass(createModuleToFunctionPassAdaptor(std::move(fpm)));
        });
  ModulePassManager mpm =
      optLevel == 0 ? builder.buildO0DefaultPipeline(OptimizationLevel::O0)
                    : builder.buildPerModuleDefaultPipeline(*levels[optLevel]);
  if (Error err = runGuarded("optimize", [&] {
        mpm.run(module, mam);
        return Error::success();
      }))
    return err;
  return diagnostics.takeError("optimize");
}

ArrayRef<OmittedPassRun> omittedCodegenPassRuns() {
  // Of what NVPTX's pass configuration adds at CodeGenOptLevel::Default:
  // SROA, constant hoisting and the GEP offset split find nothing that
  // optimizeModule (which ends with that split) left; the two EarlyCSE runs
  // around nary reassociation find nothing that the third (where
  // CodeGenOptLevel::Aggressive runs GVN) does not; the three machine
  // passes change nothing in kiln's machine code. Leaving out speculative
  // execution or all three EarlyCSE runs changed two files' PTX.
  static const OmittedPassRun runs[] = {
      {"sroa", 0},
      {"separate-const-offset-from-gep", 0},
      {"early-cse", 1},
      {"early-cse", 2},
      {"Canonicalize Freeze Instructions in Loops", 0},
      {"consthoist", 0},
      {"early-tailduplication", 0},
      {"opt-phis", 0},
      {"dead-mi-elimination", 0},
  };
  return runs;
}

namespace {

/// Tells LLVM's legacy passes (FunctionPass::skipFunction and the machine
/// passes' equivalent) not to run the pass runs in omittedCodegenPassRuns().
/// Runs are counted per pass name and IR unit description ("function (k)").
class CodegenPassGate final : public OptPassGate {
public:
  explicit CodegenPassGate(std::vector<std::string> *omitted)
      : filter(omittedCodegenPassRuns(), omitted) {}
  bool shouldRunPass(StringRef pass, StringRef ir) const override {
    return filter.shouldRun(pass, ir);
  }
  bool isEnabled() const override { return true; }

private:
  mutable PassRunFilter filter;
};

} // namespace

/// The pass manager and the stream its PTX printer writes to; the printer
/// keeps a reference to the stream, so both live here, at fixed addresses.
struct NVPTXCodegenPipeline::Impl {
  SmallString<0> ptx;
  raw_svector_ostream os{ptx};
  legacy::PassManager pm;
  TargetMachine *tm = nullptr;
  bool used = false;
};

NVPTXCodegenPipeline::NVPTXCodegenPipeline(std::unique_ptr<Impl> impl)
    : impl(std::move(impl)) {}
NVPTXCodegenPipeline::~NVPTXCodegenPipeline() = default;

Expected<std::unique_ptr<NVPTXCodegenPipeline>>
NVPTXCodegenPipeline::create(TargetMachine &tm) {
  auto impl = std::make_unique<Impl>();
  impl->tm = &tm;
  if (tm.addPassesToEmitFile(impl->pm, impl->os, nullptr,
                             CodeGenFileType::AssemblyFile))
    return makeError("codegen: the NVPTX target cannot emit assembly");
  return std::unique_ptr<NVPTXCodegenPipeline>(
      new NVPTXCodegenPipeline(std::move(impl)));
}

TargetMachine &NVPTXCodegenPipeline::targetMachine() const { return *impl->tm; }

Expected<std::string> NVPTXCodegenPipeline::run(Module &module) {
  if (impl->used)
    return makeError("codegen: the pass pipeline has run already");
  impl->used = true;
  if (Error err = runGuarded("codegen", [&] {
        impl->pm.run(module);
        return Error::success();
      }))
    return std::move(err);
  return std::string(impl->ptx.str());
}

Expected<std::string> emitPTX(Module &module, TargetMachine &tm,
                              std::vector<std::string> *omitted,
                              std::unique_ptr<NVPTXCodegenPipeline> pipeline) {
  if (pipeline && &pipeline->targetMachine() != &tm)
    return makeError("codegen: the prepared pipeline was made for another "
                     "target machine");
  DiagnosticCollector diagnostics(module.getContext());
  LLVMContext &context = module.getContext();
  OptPassGate &previousGate = context.getOptPassGate();
  CodegenPassGate gate(omitted);
  context.setOptPassGate(gate);
  auto restoreGate =
      llvm::make_scope_exit([&] { context.setOptPassGate(previousGate); });
  if (!pipeline) {
    Expected<std::unique_ptr<NVPTXCodegenPipeline>> made =
        NVPTXCodegenPipeline::create(tm);
    if (!made)
      return made.takeError();
    pipeline = std::move(*made);
  }
  Expected<std::string> ptx = pipeline->run(module);
  if (!ptx)
    return ptx.takeError();
  if (Error err = diagnostics.takeError("codegen"))
    return std::move(err);
  return ptx;
}

} // namespace kiln::nvptx
