//===- NVPTXBackend.h - LLVM dialect to PTX and cubin -----------*- C++ -*-===//
//
// The back half of kiln's NVPTX path: an MLIR module in the LLVM dialect
// (plus NVVM ops; kernels are `llvm.func`s carrying `nvvm.kernel`) becomes
// LLVM IR, is linked with CUDA's libdevice when it calls `__nv_*` functions,
// optimized at O3 by LLVM's new pass manager for the NVPTX target machine
// (so NVVMReflect folds `__nvvm_reflect`), emitted as PTX by LLVM's NVPTX
// backend and assembled into a cubin by the toolkit's `ptxas`.
//
// Every entry point reports failure as an llvm::Error whose message names the
// stage ("translate to LLVM IR", "link libdevice", "optimize", "codegen",
// "ptxas") and the problem; nothing here asserts or exits on bad input.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PIPELINES_NVPTX_NVPTXBACKEND_H
#define KILN_PIPELINES_NVPTX_NVPTXBACKEND_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class GlobalValue;
class Module;
class TargetMachine;
} // namespace llvm

namespace mlir {
class DialectRegistry;
class ModuleOp;
} // namespace mlir

namespace kiln::nvptx {

/// The LLVM target triple of CUDA's 64-bit PTX.
inline constexpr const char *kNVPTXTriple = "nvptx64-nvidia-cuda";

/// How to compile, and where the CUDA tools come from. Empty paths are
/// discovered (see findPtxas() and findLibdevice()).
struct NVPTXBackendOptions {
  /// The SM architecture: LLVM's NVPTX CPU name and ptxas's -arch
  /// ("sm_90", "sm_90a", ...).
  std::string arch = "sm_90";
  /// PTX ISA version times ten (80 = PTX ISA 8.0), emitted as `.version` and
  /// passed to LLVM as the `+ptx80` feature. sm_90 needs >= 78, sm_90a >= 80.
  int ptxVersion = 80;
  /// LLVM optimization level (0-3) and ptxas's -O level.
  int optLevel = 3;
  /// Value of the `nvvm-reflect-ftz` module flag: whether libdevice's
  /// `__nvvm_reflect("__CUDA_FTZ")` paths flush single-precision denormals.
  bool ftz = false;
  /// Lets LLVM contract a*b+c into FMA (TargetOptions::AllowFPOpFusion =
  /// Fast), as Triton's default `enable_fp_fusion`; false keeps every
  /// multiply and add separately rounded (PTX mul.rn / add.rn).
  bool fpFusion = true;
  /// libdevice.10.bc; empty: KILN_LIBDEVICE, then the CUDA root's
  /// nvvm/libdevice/libdevice.10.bc.
  std::string libdevicePath;
  /// The ptxas binary; empty: KILN_PTXAS, then `ptxas` on PATH, then the
  /// CUDA root's bin/ptxas.
  std::string ptxasPath;
  /// Passes `--warn-on-spills` to ptxas (spills still succeed; the warning
  /// lands in NVPTXCompileResult::ptxasLog).
  bool warnOnSpills = false;
  /// ptxas --Ofast-compile level (CUDA 12.8+): "0" or empty (off), "min",
  /// "mid", "max". ptxas refuses it next to an explicit -O2/-O3, so with a
  /// level set no -O is passed (ptxas's own default level applies).
  std::string ptxasFastCompile;
  /// Further ptxas arguments, appended before the input file.
  std::vector<std::string> ptxasExtraArgs;
  /// false: stop after PTX (no ptxas run; cubin stays empty).
  bool assemble = true;
  /// Called once the MLIR module has been translated to LLVM IR: from then
  /// on compileToCubin() no longer reads or changes the MLIR module or its
  /// context, so the caller may use them on another thread (kiln compile
  /// prints the LLVM-dialect artifact there) until compileToCubin returns.
  std::function<void()> afterTranslate;
  /// Called on the compiling thread with the PTX once codegen has made it,
  /// before ptxas assembles it (`ptx` is valid only during the call). kiln
  /// compile writes `<kernel>.ptx` from here, on another thread, so that
  /// the PTX of a kernel ptxas rejects is in the output directory.
  std::function<void(llvm::StringRef ptx)> afterCodegen;
};

/// Microseconds spent in each backend stage; 0 for a stage that did not run.
struct NVPTXStageTimings {
  int64_t translateUs = 0;
  int64_t linkLibdeviceUs = 0;
  int64_t optimizeUs = 0;
  int64_t codegenUs = 0;
  /// From handing the PTX to ptxas to reading its cubin; the start-up of a
  /// ptxas started early (PtxasProcess) overlapped earlier stages and is
  /// not in it.
  int64_t ptxasUs = 0;
  /// Of ptxasUs, the wait for an early-started ptxas to finish its start-up
  /// and open its input (PtxasOutput::startWaitUs); not counted again in
  /// totalUs().
  int64_t ptxasStartWaitUs = 0;
  int64_t totalUs() const {
    return translateUs + linkLibdeviceUs + optimizeUs + codegenUs + ptxasUs;
  }
};

/// What `ptxas -v` reports for one function (its "Function properties for"
/// and "Used N registers" lines). Byte counts are per thread for stack and
/// spills, per CTA for shared memory (static `.shared` only).
struct PtxasFunctionInfo {
  std::string function;
  bool isEntry = false;
  int registers = 0;
  int barriers = 0;
  int64_t stackFrameBytes = 0;
  int64_t spillStoreBytes = 0;
  int64_t spillLoadBytes = 0;
  int64_t sharedBytes = 0;
};

/// Everything one compile produced.
struct NVPTXCompileResult {
  /// Names of the kernels (functions with the PTX_Kernel calling convention).
  std::vector<std::string> kernels;
  /// Textual LLVM IR after linking and optimization (before codegen).
  std::string llvmIR;
  /// The PTX module.
  std::string ptx;
  /// The cubin (an ELF file); empty when options.assemble is false.
  std::string cubin;
  /// ptxas's stdout and stderr (the `-v` report and any warnings).
  std::string ptxasLog;
  /// Per-function figures parsed from ptxasLog.
  std::vector<PtxasFunctionInfo> ptxasInfo;
  /// The libdevice linked in; empty when the module calls no `__nv_*`.
  std::string libdevicePath;
  /// The ptxas that assembled the cubin.
  std::string ptxasPath;
  NVPTXStageTimings timings;

  /// ptxas's figures for `function`, or nullptr if it reported none.
  const PtxasFunctionInfo *findPtxasInfo(llvm::StringRef function) const;
};

//===----------------------------------------------------------------------===//
// Whole-module entry point (NVPTXBackend.cpp)
//===----------------------------------------------------------------------===//

/// Registers the MLIR-to-LLVM-IR translation interfaces the backend needs
/// (builtin, LLVM, NVVM) in `registry`. Call before creating the context that
/// parses the module, or let compileToCubin() register them on the module's
/// context.
void registerNVPTXTranslations(mlir::DialectRegistry &registry);

class PtxasProcess;

/// Compiles `module` (LLVM + NVVM dialects) to PTX and, unless
/// options.assemble is false, to a cubin: translate, link libdevice if
/// needed, optimize, codegen, ptxas. MLIR diagnostics raised while
/// translating are captured into the returned error (with file:line:col),
/// not printed. `ptxas`: a ptxas the caller started early (with the same
/// options) so that its start-up overlapped the caller's own stages; null
/// starts one here, before translation. Used for one compile only.
/// `targetMachine`: one the caller made with createNVPTXTargetMachine from
/// the same options' arch, ptxVersion, optLevel and fpFusion (kiln compile
/// makes it on another thread while its MLIR pipeline runs); null makes
/// one here. `codegenPipeline`: one made for that target machine
/// (NVPTXCodegenPipeline::create, on the same thread in kiln compile); null
/// makes one when codegen starts. Declared below.
class NVPTXCodegenPipeline;
llvm::Expected<NVPTXCompileResult>
compileToCubin(mlir::ModuleOp module, const NVPTXBackendOptions &options,
               PtxasProcess *ptxas = nullptr,
               std::unique_ptr<llvm::TargetMachine> targetMachine = nullptr,
               std::unique_ptr<NVPTXCodegenPipeline> codegenPipeline = nullptr);

//===----------------------------------------------------------------------===//
// LLVM IR stages (NVPTXCodegen.cpp)
//===----------------------------------------------------------------------===//

/// Initializes LLVM's NVPTX target (target info, MC, asm printer) and turns
/// on LLVM's nvptx-short-ptr option (32-bit shared/const/local pointers, as
/// Triton compiles); safe to call repeatedly and from several threads.
void initializeNVPTXTarget();

/// Checks that LLVM's NVPTX backend knows `arch` and PTX ISA `ptxVersion`,
/// and that this PTX version can express `arch` (e.g. sm_90a needs 8.0).
/// The error lists what is accepted.
llvm::Error validateTarget(llvm::StringRef arch, int ptxVersion);

/// The highest PTX ISA version (times ten) LLVM's NVPTX backend can emit.
int maxSupportedPtxVersion();

/// Creates the NVPTX target machine for `arch` with feature `+ptx<version>`
/// at the given optimization level (0-3). Validates like validateTarget().
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createNVPTXTargetMachine(llvm::StringRef arch, int ptxVersion, int optLevel,
                         bool fpFusion = true);

/// Whether `module` declares (and so calls) any libdevice `__nv_*` function.
bool needsLibdevice(const llvm::Module &module);

/// Links `libdevicePath` into `module` with Linker::LinkOnlyNeeded, outlines
/// the float trig functions' slow paths (outlineTrigReductionSlowPaths), sets
/// the `nvvm-reflect-ftz` module flag to `ftz` and internalizes every
/// function that is not a kernel, so unused libdevice code is dropped.
llvm::Error linkLibdevice(llvm::Module &module, llvm::StringRef libdevicePath,
                          bool ftz);

/// Moves each Payne-Hanek slow path of libdevice's float trig functions
/// (sinf, cosf, sincosf, tanf and the Bessel functions built on them) out of
/// its function into an internal `noinline cold` function of its own, and
/// returns how many were moved. libdevice (libdevice.10.bc) reduces
/// |x| >= 105615 by reading its table of the bits of 2/pi,
/// `__cudart_i2opi_f`, in a loop over a local 7-word array, and inlines that
/// into every float trig function; its double functions call a noinline
/// `__internal_trig_reduction_slowpathd` instead. Inlined, each call site of
/// a kernel carried its own copy: 8 of them made the Inductor cos kernel's
/// PTX 883 lines (578 outlined, sm_90a with --ftz) and ptxas's work on it
/// 290 M instructions (222 M).
///
/// Only functions and the table for which `fromLibdevice` is true are
/// looked at (linkLibdevice passes what the link added, so a kernel's own
/// functions, or its own global of the table's name, are left alone; the
/// linker then names libdevice's table `__cudart_i2opi_f<N>`). A slow path
/// is the region dominated by the "true" successor of the nearest
/// `fcmp oge|ogt x, constant` branch above a read of the table, with a
/// single exit and no return. The local array moves into the new function
/// when the region is its only user; the Bessel functions share one array
/// among several slow paths, so there its address is passed in. The results
/// of the fast path are unchanged, and the slow path's are the same
/// instructions. A function without such a region is left as it is.
unsigned outlineTrigReductionSlowPaths(
    llvm::Module &module,
    llvm::function_ref<bool(const llvm::GlobalValue &)> fromLibdevice);

/// Sets the triple and data layout of `tm` on `module`, the
/// `nvvm-reflect-ftz` flag (if absent) and internalizes non-kernel functions
/// when the module has a kernel. linkLibdevice() does the same after linking.
void prepareModuleForNVPTX(llvm::Module &module, llvm::TargetMachine &tm,
                           bool ftz);

/// A pass run that kiln leaves out of an LLVM pipeline: `pass` names the
/// pass (see omittedO3PassRuns and omittedCodegenPassRuns for which name);
/// `run` 0 means every run of it, n > 0 the n-th run on one function
/// (module passes: on the module), counting in pipeline order from 1.
struct OmittedPassRun {
  llvm::StringRef pass;
  unsigned run;
};

/// The runs of LLVM 22's default<O3> that kiln's NVPTX compiles leave out,
/// by new-pass-manager class name ("InstCombinePass"): on kiln's IR they
/// change nothing. Each was dropped alone, and then all together, over the
/// 21 corpus kernels and the 178 of bench/conformance (--target sm_90a):
/// the PTX came out byte-identical to the full O3's (docs/BENCHMARKS.md,
/// twenty-first session).
llvm::ArrayRef<OmittedPassRun> omittedO3PassRuns();

/// Runs LLVM's default per-module pipeline at `optLevel` (O0-O3) for `tm`,
/// without the pass runs in `omit` (optional passes only: LLVM runs a
/// required one regardless). `omitted`, if given, receives "Pass#run" for
/// each run that was left out, in order.
llvm::Error optimizeModule(llvm::Module &module, llvm::TargetMachine &tm,
                           int optLevel,
                           llvm::ArrayRef<OmittedPassRun> omit = {},
                           std::vector<std::string> *omitted = nullptr);

/// The NVPTX codegen pass runs (legacy pass manager; `pass` is the name
/// LLVM's OptPassGate is asked with: "sroa", "opt-phis", ..., and `run`
/// counts per function) that emitPTX leaves out: on kiln's IR they change
/// nothing. Each was left out alone, and then all together, over the same
/// 199 files: byte-identical PTX.
llvm::ArrayRef<OmittedPassRun> omittedCodegenPassRuns();

/// NVPTX codegen's pass pipeline (LLVM's legacy pass manager, from the IR
/// passes before instruction selection to the PTX printer) made for a
/// target machine before there is a module to run it on. Adding the passes
/// (TargetMachine::addPassesToEmitFile) is ~1.7M x86 instructions, a tenth
/// of a small kernel's LLVM stages (callgrind, softmax_kernel): kiln compile
/// makes the pipeline on the thread that makes the target machine, while
/// its MLIR pipeline runs. Runs once (emitPTX); not thread-safe.
class NVPTXCodegenPipeline {
public:
  /// Adds the passes for `tm`, which must outlive the pipeline. Errors if
  /// the target cannot emit assembly.
  static llvm::Expected<std::unique_ptr<NVPTXCodegenPipeline>>
  create(llvm::TargetMachine &tm);
  ~NVPTXCodegenPipeline();

  /// The target machine the passes were added for.
  llvm::TargetMachine &targetMachine() const;
  /// Runs the passes on `module` and returns the PTX they printed. Use
  /// emitPTX, which also leaves out omittedCodegenPassRuns() and collects
  /// LLVM's diagnostics.
  llvm::Expected<std::string> run(llvm::Module &module);

private:
  struct Impl;
  explicit NVPTXCodegenPipeline(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl;
};

/// Emits `module` as PTX text with `tm` (the module is consumed by codegen:
/// do not reuse it afterwards; compileToCubin() gives it a bitcode copy),
/// without the pass runs in omittedCodegenPassRuns(). `omitted`, if given,
/// receives "pass#run" for each run left out, in order. `pipeline`: one made
/// for `tm` beforehand (NVPTXCodegenPipeline::create), used up here; null
/// makes one here. Same PTX either way.
llvm::Expected<std::string>
emitPTX(llvm::Module &module, llvm::TargetMachine &tm,
        std::vector<std::string> *omitted = nullptr,
        std::unique_ptr<NVPTXCodegenPipeline> pipeline = nullptr);

//===----------------------------------------------------------------------===//
// CUDA toolkit: ptxas and libdevice (NVPTXToolchain.cpp)
//===----------------------------------------------------------------------===//

/// The ptxas to run: `explicitPath` if non-empty, else env KILN_PTXAS, else
/// `ptxas` on PATH, else `<CUDA root>/bin/ptxas`. An explicit or KILN_PTXAS
/// path that is not an executable file is an error (no fallback).
llvm::Expected<std::string> findPtxas(llvm::StringRef explicitPath = "");

/// The CUDA toolkit root: env CUDA_HOME, else CUDA_PATH, else two levels
/// above the real path of `ptxas` on PATH, else /usr/local/cuda if it
/// exists; std::nullopt if none is found.
std::optional<std::string> findCudaRoot();

/// libdevice.10.bc: `explicitPath` if non-empty, else env KILN_LIBDEVICE,
/// else `<CUDA root>/nvvm/libdevice/libdevice.10.bc`.
llvm::Expected<std::string> findLibdevice(llvm::StringRef explicitPath = "");

/// `ptxas --version` output, trimmed (the "Cuda compilation tools, release
/// 13.0, V13.0.88" text that identifies the assembler in a compile job).
llvm::Expected<std::string> getPtxasVersion(llvm::StringRef ptxasPath);

/// The bytes of the file at `path`; the error names the path and the
/// reason.
llvm::Expected<std::string> readFileBytes(llvm::StringRef path);

/// Writes `data` to the file at `path` (created, or truncated). The error
/// ("cannot write PATH: reason") covers opening, writing and closing; no
/// stream error is left behind, which raw_fd_ostream's destructor would
/// otherwise turn into a process abort ("IO failure on output stream").
llvm::Error writeFileBytes(llvm::StringRef path, llvm::StringRef data);

/// The result of one ptxas run.
struct PtxasOutput {
  std::string cubin;
  std::string log;
  /// Microseconds assemble() waited for a ptxas started early to open its
  /// input: the part of ptxas's start-up that the caller's own stages did
  /// not cover. 0 when ptxas was already waiting for the PTX, and for a
  /// ptxas started by assemble() itself.
  int64_t startWaitUs = 0;
};

/// One ptxas run: `ptxas -arch=<arch> -O<optLevel> -v [--warn-on-spills]
/// <extra> -o <tmp>.cubin <tmp>.ptx` (`--Ofast-compile=<level>` in place
/// of `-O<optLevel>` where ptxasFastCompile sets one) with files of one
/// unique name in the temporary directory (TMPDIR), in this process's
/// environment plus, in GLIBC_TUNABLES,
/// glibc.malloc.hugetlb=1 and glibc.malloc.top_pad=64 MiB unless the user
/// set those tunables (ptxas's heap grows in one step and is backed by
/// transparent huge pages: ~3 ms less on a small kernel, the same cubin).
///
/// Started early (start() with `early` true, before the PTX exists), ptxas
/// runs at once with a FIFO as its input path and blocks opening it; its
/// start-up (exec, dynamic loading, its own initialization: 7-12 ms of the
/// ~15 ms ptxas 13.0 takes for a small kernel on an idle core) then overlaps
/// kiln's earlier stages. assemble() publishes the PTX as a regular file at
/// that path (for any later open; ptxas 13.0 reads its input twice) and
/// writes it into the FIFO. The cubin is byte-identical to one assembled
/// from a regular file (ptxas records its command line, not the input's
/// name). Where no FIFO can be made, or `early` is false, or env
/// KILN_PTXAS_EARLY=0, ptxas starts in assemble() on a regular file.
///
/// Not thread-safe; one assemble() per object, on the thread that called
/// start() (ptxas gets SIGKILL when that thread ends: PR_SET_PDEATHSIG). A
/// PtxasProcess destroyed before assemble() finished kills (SIGKILL) and
/// reaps its ptxas; the temporary files are always removed (on SIGINT and
/// SIGTERM too, by LLVM's signal handlers, except a FIFO). Known limit: a
/// ptxas wrapper script that runs ptxas as its child instead of exec'ing it
/// leaves that ptxas waiting on the FIFO if this process is killed with
/// SIGKILL before writing it (KILN_PTXAS_EARLY=0 avoids it).
class PtxasProcess {
public:
  /// Prepares (and with `early`, starts) ptxas. Errors: the temporary
  /// directory cannot be made, or ptxas cannot be executed.
  static llvm::Expected<std::unique_ptr<PtxasProcess>>
  start(llvm::StringRef ptxasPath, const NVPTXBackendOptions &options,
        bool early);
  ~PtxasProcess();
  PtxasProcess(const PtxasProcess &) = delete;
  PtxasProcess &operator=(const PtxasProcess &) = delete;

  /// Whether this process was started early and runs, waiting for its
  /// input, what start(`ptxasPath`, `options`, true) would start now: the
  /// same ptxas binary and the same arguments (its own files aside). kiln
  /// starts ptxas from its guess at the command line before the command
  /// line is parsed (tools/kiln/EarlyPtxas.h) and keeps it only then.
  bool runs(llvm::StringRef ptxasPath,
            const NVPTXBackendOptions &options) const;

  /// Whether ptxas was started before its PTX existed (start() with
  /// `early`, and a FIFO could be made), rather than by assemble().
  bool startedEarly() const { return early; }

  /// Hands `ptx` to ptxas and waits for it. A non-zero exit, a crash, or an
  /// exit before reading the input becomes an error quoting ptxas's output
  /// with the temporary file name replaced by `displayName` (e.g.
  /// "add_one.ptx"); an empty cubin is an error too.
  ///
  /// Returns before ptxas has exited when its -v report says it is done
  /// (reportComplete): ptxas writes and closes the cubin before the report,
  /// and after its last line only frees its memory and exits, which took
  /// 3-4 ms of every run on the build machine (strace, ptxas 13.0). Only
  /// for the ptxas binary itself (not a wrapper script, which could still
  /// act after ptxas), not with SIGCHLD ignored (its exit could not be
  /// collected: an error, as before), and unless KILN_PTXAS_WAIT_EXIT=1.
  /// The exit is then collected on a detached thread. kiln reads ptxas's
  /// stdout and stderr from a pipe as they come, so its output may be of
  /// any size; reading stops at ptxas's exit even where a process it left
  /// behind holds the pipe (pidfd_open; where that fails, a 10 ms poll and
  /// waitid(WNOWAIT)). A file that cannot be written (TMPDIR full) is an
  /// error naming it.
  llvm::Expected<PtxasOutput> assemble(llvm::StringRef ptx,
                                       llvm::StringRef displayName);

  /// Whether `log` is ptxas's whole -v report for PTX with `entries` (> 0)
  /// entry functions and no other function definitions: a "Compile time = "
  /// line per entry (ptxas 13.0 ends each entry's report with it) and
  /// nothing but info, warning and indented continuation lines. Reports of
  /// .func definitions come after the last entry's, so PTX with any is
  /// never complete early: reportEntries counts 0 entries for it.
  static bool reportComplete(llvm::StringRef log, unsigned entries);

private:
  PtxasProcess() = default;
  llvm::Error spawn();
  /// ptxas's command line for `options` with this process's ptxas and
  /// files.
  std::vector<std::string>
  argumentsFor(const NVPTXBackendOptions &options) const;
  /// For a log saying ptxas does not know the architecture: a line naming
  /// those it does (from `ptxas --help`); "" otherwise.
  std::string archHint(llvm::StringRef log) const;
  /// How many entries' reports to wait for in `ptx` before taking the
  /// cubin (see assemble); 0: wait for the exit (a wrapper script, a .func
  /// definition, SIGCHLD ignored, KILN_PTXAS_WAIT_EXIT=1).
  unsigned reportEntries(llvm::StringRef ptx) const;
  /// Reads ptxas's output into `output` until ptxas exits or, with
  /// `entries` > 0, until reportComplete(output, entries): true
  /// then (ptxas not reaped).
  bool readOutput(unsigned entries);
  /// ptxas (`pid`) was reaped: no longer killed by kiln's signal cleanup.
  void markReaped();

  std::string ptxasPath, arch, inputPath, fullPath, cubinPath, logPath;
  /// The read end of the pipe that is ptxas's stdout and stderr
  /// (non-blocking), and what was read from it.
  int outputFd = -1;
  std::string output;
  std::vector<std::string> args;
  int pid = 0;
  bool early = false;
  bool reaped = true;
  /// Done per its report, exit not waited for (see assemble).
  bool detached = false;
  bool assembled = false;
};

/// Parses ptxas `-v` output ("Compiling entry function 'k' for 'sm_90'",
/// "Function properties for k", "N bytes stack frame, N bytes spill stores,
/// N bytes spill loads", "Used N registers, used N barriers, N bytes smem,
/// ..."). Lines it does not know are ignored.
std::vector<PtxasFunctionInfo> parsePtxasLog(llvm::StringRef log);

} // namespace kiln::nvptx

#endif // KILN_PIPELINES_NVPTX_NVPTXBACKEND_H
