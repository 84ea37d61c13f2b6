//===- kiln.cpp - the kiln command-line compiler --------------------------===//
//
// `kiln compile FILE --target sm_90 --num-warps N --num-stages S [-o DIR]`
// turns a TTIR kernel (or an LLVM + NVVM dialect module) into a kernel
// artifact directory, through the compile cache unless --no-cache;
// `kiln toolchain` prints the CUDA tools a compile would use and their
// identity (ptxas version, libdevice SHA-256); `kiln inspect` prints a
// stage's IR from the cache; `kiln cache ...` manages the cache.
//
//===----------------------------------------------------------------------===//

#include "cache/CompileJob.h"
#include "pipelines/common/OutOfMemory.h"
#include "pipelines/common/SignalCleanup.h"
#include "tools/common/CacheSignals.h"
#include "tools/common/ChildSignal.h"
#include "tools/common/StackLimit.h"
#include "tools/kiln/CacheCommand.h"
#include "tools/kiln/CompileCommand.h"
#include "tools/kiln/EarlyPtxas.h"
#include "tools/kiln/Prefault.h"

#include <CLI/CLI.hpp>

#include <csignal>
#include <cstdio>

// `kiln compile --no-cache FILE` (or --timings, --stage-dump) starts its
// ptxas here, before the static initializers of the LLVM and MLIR code in
// this binary (priority 101 runs before every constructor without one),
// not after them in main: ptxas's start-up then overlaps them too
// (EarlyPtxas.h). glibc passes the process's argc and argv to ELF
// constructors.
__attribute__((constructor(101))) static void
startPtxasAtLoad(int argc, char **argv, char ** /*envp*/) {
  kiln::tool::prefaultAtLoad(); // KILN_PREFAULT=1 only: Prefault.h
  kiln::tool::startPtxasAtLoad(argc, argv);
}

namespace {

/// Integer options take decimal digits only: CLI11 reads `010` as octal 8
/// (`--maxnreg 010` assembled with 8 registers, not 10), `0x20` as hex and
/// `0b101` as binary, and reported `08` as out of range. The check runs
/// on the text, before CLI11 converts it (and before any range check).
const CLI::Validator &decimal() {
  static const CLI::Validator validator(
      [](std::string &text) -> std::string {
        bool digits = !text.empty() &&
                      text.find_first_not_of("0123456789") == std::string::npos;
        if (digits && (text.size() == 1 || text[0] != '0'))
          return {};
        return "'" + text +
               "' is not a decimal number: write digits 0-9 with no leading "
               "zero (010 would read as octal 8, 0x20 as hex)";
      },
      "", "DECIMAL");
  return validator;
}

} // namespace

int main(int argc, char **argv) {
  // A kiln reading MLIR bytecode started this process to read it
  // (tools/common/BytecodeAsText.h): none of what follows.
  if (std::optional<int> code = kiln::tool::runAsBytecodeReader(argc, argv))
    return *code;
  // KILN_PRELOAD_DIALECTS=1 only (CompileCommand.h).
  kiln::tool::startContextPreload(argc, argv);
  // First: before anything installs LLVM's signal handlers, so that kiln's
  // know which signals this process was started with ignored.
  kiln::installSignalCleanup();
  // The cache's temporary paths (a staging folder, an export's archive in
  // the making) and tar go with a signal that ends kiln too.
  kiln::tool::removeCacheTemporariesOnSignal();
  // Out of memory anywhere (operator new included) ends a guarded LLVM
  // stage with an error, or kiln with "out of memory", exit status 1 and
  // its temporaries removed, instead of a SIGABRT (OutOfMemory.h).
  kiln::installOutOfMemoryHandler(/*tool=*/true);
  kiln::tool::raiseStackLimit(); // deeply nested IR: see StackLimit.h
  // kiln waits for its children (ptxas, ld.lld, tar): see ChildSignal.h.
  kiln::tool::restoreDefaultChildSignal();
  CLI::App app{"kiln: GPU kernel compiler (TTIR -> PTX -> cubin)", "kiln"};
  app.require_subcommand(1);

  kiln::tool::CompileOptions compile;
  CLI::App *compileCmd = app.add_subcommand(
      "compile", "compile a TTIR or LLVM-dialect kernel to a cubin artifact");
  compileCmd->add_option("FILE", compile.inputFile, "input .ttir / .mlir ('-' for stdin)")
      ->required();
  compileCmd->add_option("--target", compile.arch, "SM architecture (sm_90, sm_90a, ...)")
      ->capture_default_str();
  CLI::Option *numWarps =
      compileCmd->add_option("--num-warps", compile.numWarps, "warps per CTA")
          ->check(decimal())
          ->capture_default_str();
  compileCmd
      ->add_option("--num-stages", compile.numStages,
                   "software pipelining stages")
      ->check(decimal())
      ->capture_default_str();
  compileCmd
      ->add_option("--ptx-version", compile.ptxVersion,
                   "PTX ISA version times ten (80 = PTX 8.0)")
      ->check(decimal())
      ->capture_default_str();
  compileCmd->add_option("-o,--output", compile.outputDir,
                         "artifact directory (default ./kiln-out/<kernel>)");
  compileCmd->add_option("--kernel", compile.kernel,
                         "kernel to compile when the module has several");
  compileCmd->add_option("--ptxas", compile.ptxasPath,
                         "ptxas binary (default: $KILN_PTXAS, PATH, $CUDA_HOME/bin)");
  compileCmd->add_option("--libdevice", compile.libdevicePath,
                         "libdevice.10.bc (default: $KILN_LIBDEVICE, CUDA root)");
  compileCmd->add_flag("--ftz", compile.ftz,
                       "flush f32 denormals to zero in libdevice math");
  bool noFpFusion = false;
  compileCmd->add_flag("--no-fp-fusion", noFpFusion,
                       "keep multiplies and adds separately rounded (no FMA)");
  compileCmd->add_flag("--timings", compile.timings,
                       "print per-stage and per-pass times");
  compileCmd->add_flag("--stage-dump", compile.stageDump,
                       "write the IR after every pipeline pass to DIR/stages/");
  compileCmd
      ->add_option("--maxnreg", compile.maxnreg,
                   "registers per thread limit for ptxas (0 = none)")
      ->check(decimal())
      ->check(CLI::Range(0, 255))
      ->capture_default_str();
  compileCmd
      ->add_option("--ptxas-fast-compile", compile.ptxasFastCompile,
                   "ptxas --Ofast-compile level: 0 (off), min, mid, max; "
                   "faster ptxas, possibly slower kernels (part of the job)")
      ->check(CLI::IsMember(kiln::cache::ptxasFastCompileLevels()))
      ->capture_default_str();
  compileCmd->add_option("--cache-dir", compile.cacheDir,
                         "compile cache root (default: $KILN_CACHE_DIR, "
                         "$XDG_CACHE_HOME/kiln, ~/.cache/kiln)");
  bool noCache = false;
  compileCmd->add_flag("--no-cache", noCache,
                       "neither look up nor store in the compile cache");
  int repeat = 1;
  compileCmd
      ->add_option("--repeat", repeat,
                   "compile N times in this one process, a new MLIR "
                   "context each time (with --no-cache: N cold "
                   "compiles; the later ones run in a warm process, as "
                   "an embedding compiler does), one line each")
      ->check(decimal())
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();

  // kiln inspect: the compile options that make up the job, again.
  kiln::tool::CompileOptions inspect;
  std::string inspectTarget, inspectStage;
  bool inspectNoCache = false, inspectNoFpFusion = false;
  CLI::App *inspectCmd = app.add_subcommand(
      "inspect", "print a stage's IR of a compile job from the cache");
  inspectCmd->add_option("KEY_OR_FILE", inspectTarget,
                         "a cache key (64 hex digits) or an input file")
      ->required();
  inspectCmd->add_option("--stage", inspectStage,
                         "kgpu, llvm, ll, ptx, metadata or manifest")
      ->required();
  inspectCmd->add_option("--target", inspect.arch, "SM architecture")
      ->capture_default_str();
  inspectCmd->add_option("--num-warps", inspect.numWarps, "warps per CTA")
      ->check(decimal())
      ->capture_default_str();
  inspectCmd->add_option("--num-stages", inspect.numStages, "pipelining stages")
      ->check(decimal())
      ->capture_default_str();
  inspectCmd->add_option("--ptx-version", inspect.ptxVersion, "PTX ISA x10")
      ->check(decimal())
      ->capture_default_str();
  inspectCmd->add_option("--kernel", inspect.kernel, "kernel to compile");
  inspectCmd->add_option("--ptxas", inspect.ptxasPath, "ptxas binary");
  inspectCmd->add_option("--libdevice", inspect.libdevicePath, "libdevice.10.bc");
  inspectCmd->add_flag("--ftz", inspect.ftz, "flush f32 denormals");
  inspectCmd->add_flag("--no-fp-fusion", inspectNoFpFusion, "no FMA contraction");
  inspectCmd->add_option("--maxnreg", inspect.maxnreg, "ptxas register limit")
      ->check(decimal())
      ->check(CLI::Range(0, 255));
  inspectCmd
      ->add_option("--ptxas-fast-compile", inspect.ptxasFastCompile,
                   "ptxas --Ofast-compile level: 0, min, mid, max")
      ->check(CLI::IsMember(kiln::cache::ptxasFastCompileLevels()));
  inspectCmd->add_option("--cache-dir", inspect.cacheDir, "compile cache root");
  inspectCmd->add_flag("--no-cache", inspectNoCache, "compile without the cache");

  // kiln cache ...
  kiln::tool::CacheCommandOptions cache;
  CLI::App *cacheCmd = app.add_subcommand("cache", "manage the compile cache");
  cacheCmd->require_subcommand(1);
  cacheCmd->add_option("--cache-dir", cache.cacheDir,
                       "cache root (default: $KILN_CACHE_DIR, $XDG_CACHE_HOME/kiln, "
                       "~/.cache/kiln)");
  CLI::App *lsCmd = cacheCmd->add_subcommand(
      "ls", "list entries: key, kernel, target, options, size, last used");
  lsCmd->add_flag("--json", cache.json, "JSON for scripts");
  CLI::App *statCmd = cacheCmd->add_subcommand(
      "stat", "entries, bytes, and hits/misses/compiles across all processes");
  statCmd->add_flag("--json", cache.json, "JSON for scripts");
  CLI::App *verifyCmd = cacheCmd->add_subcommand(
      "verify", "check every entry's checksums; quarantine bad ones (exit 1)");
  CLI::App *gcCmd = cacheCmd->add_subcommand(
      "gc", "evict least recently used entries, remove interrupted publishes");
  gcCmd->add_option("--max-size", cache.maxSize,
                    "size cap, e.g. 10G, 500M, 4096 (default: no eviction)");
  gcCmd
      ->add_option("--tmp-age", cache.tmpAgeMinutes,
                   "remove temp dirs older than this many minutes")
      ->check(decimal())
      ->check(CLI::Range(int64_t{0}, int64_t{1000000000}))
      ->capture_default_str();
  CLI::App *exportCmd = cacheCmd->add_subcommand(
      "export", "write entries (all, or the given keys) to a tar archive");
  exportCmd->add_option("FILE", cache.archive, "archive to write")->required();
  exportCmd->add_option("KEYS", cache.keys, "keys to export (default: all)");
  CLI::App *importCmd = cacheCmd->add_subcommand(
      "import", "verify and add the entries of an exported archive");
  importCmd->add_option("FILE", cache.archive, "archive to read")->required();
  for (CLI::App *sub : {lsCmd, statCmd, verifyCmd, gcCmd, exportCmd, importCmd})
    sub->add_option("--cache-dir", cache.cacheDir, "cache root");

  std::string ptxasPath, libdevicePath;
  CLI::App *toolchainCmd = app.add_subcommand(
      "toolchain", "print the ptxas and libdevice a compile uses, with their identity");
  toolchainCmd->add_option("--ptxas", ptxasPath, "ptxas binary");
  toolchainCmd->add_option("--libdevice", libdevicePath, "libdevice.10.bc");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    int status = app.exit(e);
    return status == 0 ? 0 : 2;
  }
  if (compileCmd->parsed()) {
    compile.fpFusion = !noFpFusion;
    compile.numWarpsGiven = numWarps->count() > 0;
    compile.useCache = !noCache;
    if (repeat > 1 && compile.inputFile == "-") {
      std::fprintf(stderr, "kiln: error: --repeat %d needs an input file: "
                           "standard input can be read once\n", repeat);
      return 2;
    }
    // One compile leaves its IR to the process's exit; repeated ones free
    // it, so that later compiles reuse the memory as an embedding would.
    compile.disableFree = repeat == 1;
    int status = 0;
    for (int i = 0; i < repeat && status == 0; ++i)
      status = kiln::tool::runCompile(compile);
    kiln::tool::exitWithoutTeardown(status);
  }
  if (inspectCmd->parsed()) {
    inspect.fpFusion = !inspectNoFpFusion;
    inspect.useCache = !inspectNoCache;
    inspect.numWarpsGiven = inspectCmd->get_option("--num-warps")->count() > 0;
    return kiln::tool::runInspect(inspectTarget, inspectStage, inspect);
  }
  if (cacheCmd->parsed()) {
    for (CLI::App *sub : cacheCmd->get_subcommands())
      cache.subcommand = sub->get_name();
    return kiln::tool::runCacheCommand(cache);
  }
  if (toolchainCmd->parsed())
    return kiln::tool::runToolchain(ptxasPath, libdevicePath);
  return 2;
}
