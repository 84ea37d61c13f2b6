//===- CompileCommand.h - `kiln compile` ------------------------*- C++ -*-===//
//
// `kiln compile FILE`: TTIR (or a module already in the LLVM + NVVM dialects)
// to a kernel artifact directory: the stage IRs, PTX, cubin and the
// metadata.json the runtime loads.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_COMPILECOMMAND_H
#define KILN_TOOLS_KILN_COMPILECOMMAND_H

#include "cache/CompileJob.h"
#include "pipelines/common/StageTimer.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <atomic>
#include <cstdint>
#include <ctime>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace mlir {
class ModuleOp;
class PassInstrumentation;
} // namespace mlir

namespace kiln::tool {

/// One telemetry event of a compile, delivered to CompileOptions::listener
/// on the calling thread as soon as it is known.
struct CompileEvent {
  /// "stage" (one per backend stage: parse, pipeline, translate, link,
  /// optimize, codegen, ptxas, write), "compiled" (the whole compile) or
  /// "cache_hit" (served from the cache; durationUs is the lookup).
  std::string kind;
  /// The stage's name for kind "stage"; empty otherwise.
  std::string stage;
  /// Microseconds.
  int64_t durationUs = 0;
  std::string kernel;
  /// Backend and architecture, e.g. "cuda/sm_90".
  std::string target;
  /// The compile job's key (empty when the cache is off).
  std::string jobKey;
};

/// Options of `kiln compile` (see kiln.cpp for their flags).
struct CompileOptions {
  std::string inputFile;
  /// SM architecture ("sm_90", "sm_90a").
  std::string arch = "sm_90";
  /// Warps per CTA; for LLVM-dialect input taken from nvvm.maxntid unless
  /// numWarpsGiven.
  int numWarps = 4;
  bool numWarpsGiven = false;
  int numStages = 3;
  /// PTX ISA version times ten.
  int ptxVersion = 80;
  /// Artifact directory; empty: ./kiln-out/<kernel>.
  std::string outputDir;
  /// Kernel to compile when the module holds several.
  std::string kernel;
  std::string ptxasPath;
  std::string libdevicePath;
  bool ftz = false;
  /// Contract multiply-adds into FMA (Triton's enable_fp_fusion).
  bool fpFusion = true;
  /// Print the per-stage table and MLIR's per-pass timing report.
  bool timings = false;
  /// Write the module after every pipeline pass into <dir>/stages/.
  bool stageDump = false;
  /// ptxas --maxrregcount; 0 = no limit.
  int maxnreg = 0;
  /// ptxas --Ofast-compile level: "0" (off), "min", "mid", "max" (NVPTX).
  std::string ptxasFastCompile = "0";
  /// Look the job up in the compile cache and store what is compiled
  /// (--no-cache turns it off; --timings and --stage-dump, which exist to
  /// watch a compile happen, bypass it too).
  bool useCache = true;
  /// Cache root; empty: KILN_CACHE_DIR, then $XDG_CACHE_HOME/kiln or
  /// ~/.cache/kiln (kiln::cache::resolveCacheRoot).
  std::string cacheDir;
  /// No summary line on stdout (kiln inspect compiles quietly).
  bool quiet = false;
  /// Receives per-stage timings and the compile's outcome (telemetry for
  /// embedders; the CLI leaves it empty).
  std::function<void(const CompileEvent &)> listener;
  /// Leave the MLIR context and module allocated when runCompile() returns
  /// (llvm::BuryPointer, like clang's -disable-free): the `kiln` CLI exits
  /// right afterwards (exitWithoutTeardown()), and freeing them took ~0.7 ms
  /// of a small kernel's compile. Embedders leave it false.
  bool disableFree = false;
};

/// What runCompile() produced, for callers such as `kiln inspect`.
struct CompileOutcome {
  /// The compile job's key (also metadata.json's job_key).
  std::string jobKey;
  std::string kernel;
  /// The artifact directory written.
  std::string dir;
  bool cacheHit = false;
};

/// Flushes stdout and stderr (LLVM's streams and stdio) and ends the process
/// with `status` without running static destructors or atexit handlers
/// (thousands of LLVM command-line options, ~0.4 ms), its memory released
/// after the parent has the status (ExitLeavingAddressSpace.h). Output that
/// could not be written to stdout is an error on stderr and makes a status
/// of 0 a 1. For the CLI's last step only: every artifact file is closed by
/// then.
[[noreturn]] void exitWithoutTeardown(int status);

/// KILN_PRELOAD_DIALECTS=1, a variant for measuring (off by default): for
/// `kiln compile`, makes the MLIR context of the process's first NVPTX
/// compile and loads the dialects that compile loads (TTIR's, kgpu, LLVM,
/// NVVM: about 2 ms of a small kernel's compile on the build machine, half
/// of it when the pass manager starts) on a thread of its own, from main()
/// before the command line is parsed, while the main thread parses it and
/// checks the options; runCompile then takes that context instead of making
/// one. The artifacts are the same. Call from main() only (after the static
/// initializers): an exit before runCompile waits for the thread first.
void startContextPreload(int argc, char **argv);

/// Runs `kiln compile`; returns the process exit status (0 ok, 1 error).
/// Diagnostics go to stderr, the summary (and --timings table) to stdout.
int runCompile(const CompileOptions &options, CompileOutcome *outcome = nullptr);

/// Where argv[1] is kiln::tool::kBytecodeReaderArg (a kiln reading MLIR
/// bytecode started this process: tools/common/BytecodeAsText.h), reads the
/// bytecode from stdin with the dialects `kiln compile` knows and returns
/// the exit code; otherwise std::nullopt.
std::optional<int> runAsBytecodeReader(int argc, char **argv);

/// `kiln compile` for an AMDGPU target (gfx90a, gfx942): TTIR to a code
/// object (hsaco) with its metadata.json, through the compile cache (job
/// backend "hip", code-object version 5, warp size 64, ld.lld's version in
/// the toolchain). Options that only mean something to NVPTX (--ftz,
/// --no-fp-fusion, --maxnreg, --ptxas-fast-compile) are errors. Returns the exit status.
int runCompileAMDGPU(const CompileOptions &options,
                     CompileOutcome *outcome = nullptr);

/// Writes a compile's artifacts into its output directory as one set and
/// keeps what it wrote, by file name: the bytes the cache stores on a miss.
/// They are never read back from the directory, where a file can be another
/// process's (two compiles of one kernel with different options into one
/// directory, such as the default ./kiln-out/<kernel>, stored each other's
/// cubins) or an earlier compile's (a .kgpu.mlir left there was stored with
/// a compile of LLVM-dialect input, which has no kgpu stage).
///
/// The first write() opens the directory and makes a hidden staging folder
/// in it, `.kiln-staging-XXXXXX` (removed if a signal ends kiln:
/// SignalCleanup); every file goes there, and publish() moves them in, all
/// through descriptors: a directory renamed during the compile still gets
/// its files, and loses the staging folder on failure. The folder is
/// flock(2)ed while it exists. A kiln ended by SIGKILL (the OOM killer, a
/// CI timeout) or a crash leaves its folder; a later publish into the
/// directory removes it (removeAbandonedStaging(): after 10 minutes).
/// Publishing holds an exclusive flock(2) on the directory (where it can
/// read it) and on `.kiln-lock` in it (made, mode 0644, in a directory
/// that some user can write but not read, such as 0333; the only lock of
/// a kiln that cannot read the directory), so that publishes into
/// one directory do not interleave, and first removes every file kiln
/// writes for this kernel (kernelArtifactNames()), so that none is left
/// from an earlier compile. metadata.json comes last: while a publish runs
/// the directory has none. From the first removal to the last rename the
/// cleanup signals are blocked, so a signal then ends kiln after the set
/// is whole. So after compiles of one
/// kernel into one directory, by any number of kiln processes, it holds the
/// whole set of exactly one of them (two compiles at once with 1, 2, 4 and
/// 8 warps left one's .kgpu.mlir beside another's cubin in 5 of 9 rounds
/// before). A reader that takes no lock can still read one compile's
/// metadata.json and the next one's cubin; the runtime then refuses the
/// binary (its SHA-256 differs from metadata.json's). Other files in the
/// directory (another kernel's, `stages/` of --stage-dump, which is written
/// in place even when a write fails) are left alone;
/// metadata.json and timings.json are one per directory, so a directory
/// holds one kernel's set.
/// Thread-safe: the LLVM dialect and the PTX are written on other threads.
class ArtifactWriter {
public:
  /// `keep`: whether write() keeps a copy of what it wrote (a compile
  /// through the cache). `dir` must exist before the first write();
  /// `kernel` must pass checkKernelName().
  ArtifactWriter(std::string dir, std::string kernel, bool keep)
      : dir_(std::move(dir)), kernel_(std::move(kernel)), keep_(keep) {}
  /// Removes the staging folder if publish() did not run (or failed).
  ~ArtifactWriter();
  ArtifactWriter(const ArtifactWriter &) = delete;
  ArtifactWriter &operator=(const ArtifactWriter &) = delete;

  const std::string &dir() const { return dir_; }
  /// Writes `contents` as `name` in the staging folder (made on the first
  /// call); kept under `name` when it succeeded and keep is set. False
  /// after printing the error ("kiln: error: cannot write DIR/NAME: why";
  /// only the first error of a writer is printed).
  bool write(const std::string &name, llvm::StringRef contents);
  /// Moves what write() wrote into the directory as described above (once:
  /// later calls do nothing and return true); does nothing if no file was
  /// written whole or any write failed (a compile that failed before its
  /// first artifact, or on a full disk, leaves the directory as it was). Called once the compile is done, whether it
  /// succeeded or not: a failed compile's files (the .kgpu.mlir, .llvm.mlir
  /// and .ptx of a kernel that ptxas rejected) replace the earlier set too,
  /// so that no earlier cubin and metadata.json sit beside them. False
  /// after printing the error; the directory then has no metadata.json.
  bool publish();
  /// Writes `contents` as DIR/stages/`file` (--stage-dump: not staged, not
  /// part of the set) through the directory's descriptor; `stages/` must
  /// exist. False after printing the error (the first of the writer's).
  bool writeStageDump(const std::string &file, llvm::StringRef contents);
  /// What write() kept, by name (moved out).
  std::map<std::string, std::string> take();
  /// Whether a write failed (or noteFailure() was called): the compile
  /// must fail, since the pass instrumentation that writes .kgpu.mlir
  /// cannot.
  bool failed() const { return failed_; }
  void noteFailure() { failed_ = true; }

  /// Every file kiln compile writes for `kernel` into its directory, for
  /// either backend: `<kernel>.kgpu.mlir`, `.llvm.mlir`, `.ll`, `.ptx`,
  /// `.cubin`, `.hsaco`, metadata.json and timings.json.
  static std::vector<std::string> kernelArtifactNames(const std::string &kernel);
  /// Whether `kernel` can name those files: not empty, `.` or `..`, no `/`
  /// or NUL (a kernel named `../x` wrote and removed files beside the
  /// directory), and short enough that `<kernel>.kgpu.mlir` fits NAME_MAX.
  /// The error says which.
  static llvm::Error checkKernelName(const std::string &kernel);

private:
  /// Opens the directory (once; under mutex_). False after printing the
  /// error.
  bool openDir();
  /// openDir(), then makes the staging folder (once; under mutex_),
  /// registered with SignalCleanup through /proc/self/fd/<dir descriptor>
  /// (so that a signal after the directory was renamed still finds it).
  /// False after printing the error.
  bool openStaging();
  /// Removes the staging folders of kilns that ended without removing
  /// theirs: folders named as kiln names them (`.kiln-staging-` and six
  /// letters or digits), this user's, mode 0700 or less, on the
  /// directory's filesystem and not a mount point (checked again on the
  /// folder opened), unmodified for kAbandonedStagingAgeSeconds, whose
  /// flock can be taken (no running kiln holds it: a folder is made as
  /// `.kiln-making-XXXXXX`, locked, and only then renamed to its staging
  /// name), holding only this user's regular files. Anything else is left
  /// alone. Does nothing in a directory it cannot list.
  void removeAbandonedStaging();
  /// Longer than a compile of a kiln that predates the staging folder's
  /// flock (it kept its folder unlocked while ptxas ran).
  static constexpr time_t kAbandonedStagingAgeSeconds = 600;
  /// Writes `contents` as `name` in the folder `folderFd`; errors name
  /// `shownPath`.
  bool writeAt(int folderFd, const std::string &name,
               const std::string &shownPath, llvm::StringRef contents);
  /// Prints `message` as kiln's error unless one was printed already, sets
  /// failed(), returns false.
  bool error(const llvm::Twine &message);

  std::string dir_;
  std::string kernel_;
  bool keep_;
  std::atomic<bool> failed_{false};
  std::mutex mutex_;
  bool published_ = false;          // publish() ran
  bool dirFailed_ = false;          // openDir() failed: not tried again
  bool stagingFailed_ = false;      // openStaging() failed: not tried again
  int stagesFd_ = -1;               // DIR/stages, for writeStageDump()
  bool lockThroughFile_ = false;    // dirFd_ is O_PATH: lock .kiln-lock
  int dirFd_ = -1;
  int stagingFd_ = -1;
  std::string stagingName_;         // in dir_
  std::string stagingPath_;         // registered with SignalCleanup
  std::vector<std::string> attempted_; // names write() created in staging
  std::vector<std::string> staged_;    // names written whole
  std::map<std::string, std::string> written_;
};

/// Pass instrumentation writing `<kernel>.kgpu.mlir` through `artifacts`
/// (the module after the first pass that leaves kgpu layouts) and, with
/// `dumpAll`, the module after every pass into
/// `<dir>/stages/NN-<pass>.mlir` (the directory and its `stages/` must
/// exist). `artifacts` must outlive the instrumentation.
std::unique_ptr<mlir::PassInstrumentation>
createStageDumper(mlir::ModuleOp root, ArtifactWriter &artifacts,
                  const std::string &kernel, bool dumpAll);

/// Validates `job` and returns its key, recorded with `kernel` and `dir` in
/// `outcome` (if any); an invalid job is an error naming the field.
llvm::Expected<std::string> keyCompileJob(const kiln::cache::CompileJob &job,
                                          const std::string &kernel,
                                          const std::string &dir,
                                          CompileOutcome *outcome);

/// Creates the artifact directory `dir` and, with `stageDump`, its
/// `stages/` subdirectory.
llvm::Error createArtifactDirs(llvm::StringRef dir, bool stageDump);

/// Runs `compileToDir` (which writes the artifacts into `dir` through the
/// ArtifactWriter it is given) through the cache: a verified hit writes the
/// stored `artifactNames` to `dir`; a miss compiles once across processes
/// and stores those of them that this compile wrote. A cache that cannot be
/// opened is a warning, never a failure. `targetDescription` goes in the
/// hit's summary line ("sm_90, PTX 8.0").
int compileThroughCache(const kiln::cache::CompileJob &job,
                        const CompileOptions &options,
                        const std::string &kernel, const std::string &dir,
                        const kiln::StageTimer &total,
                        const std::function<int(ArtifactWriter &)> &compileToDir,
                        CompileOutcome *outcome,
                        const std::vector<std::string> &artifactNames,
                        const std::string &targetDescription);

/// `kiln toolchain`: prints the ptxas path and version and the libdevice
/// path and SHA-256 (what a compile job records). Returns the exit status.
int runToolchain(const std::string &ptxasPath, const std::string &libdevicePath);

} // namespace kiln::tool

#endif // KILN_TOOLS_KILN_COMPILECOMMAND_H
