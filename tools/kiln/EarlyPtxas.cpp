//===- EarlyPtxas.cpp - ptxas started as kiln loads -----------------------===//

#include "tools/kiln/EarlyPtxas.h"

#include "pipelines/common/SignalCleanup.h"
#include "pipelines/nvptx/NVPTXBackend.h"
#include "tools/common/ChildSignal.h"
#include "tools/common/StackLimit.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdlib>
#include <optional>
#include <string>

namespace kiln::tool {
namespace {

/// The ptxas started at load, until runCompile takes it or it is
/// discarded. A plain pointer: constant-initialized, so that no dynamic
/// initializer (which runs after startPtxasAtLoad's constructor) resets it.
nvptx::PtxasProcess *startedAtLoad = nullptr;

/// What the command line's ptxas will be, as far as argv tells.
struct Guess {
  std::string target = "sm_90";
  std::string ptxas;
  std::string fastCompile;
  std::string maxnreg;
  bool bypassesCache = false;
};

/// Reads `kiln compile ...` as kiln.cpp's options would; nullopt for any
/// other command line, or one it is not sure of.
std::optional<Guess> guessCompile(int argc, char **argv) {
  if (argc < 3 || llvm::StringRef(argv[1]) != "compile")
    return std::nullopt;
  Guess guess;
  // Options whose value this reads, and those whose value it skips.
  struct Valued {
    llvm::StringRef name;
    std::string *into;
  };
  std::string skipped;
  const Valued valued[] = {
      {"--target", &guess.target},
      {"--ptxas", &guess.ptxas},
      {"--ptxas-fast-compile", &guess.fastCompile},
      {"--maxnreg", &guess.maxnreg},
      {"-o", &skipped},
      {"--output", &skipped},
      {"--kernel", &skipped},
      {"--libdevice", &skipped},
      {"--cache-dir", &skipped},
      {"--num-warps", &skipped},
      {"--num-stages", &skipped},
      {"--ptx-version", &skipped},
      {"--repeat", &skipped},
  };
  bool sawFile = false;
  for (int i = 2; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    if (arg == "--no-cache" || arg == "--timings" || arg == "--stage-dump") {
      guess.bypassesCache = true;
      continue;
    }
    if (arg == "--ftz" || arg == "--no-fp-fusion")
      continue;
    bool known = false;
    for (const Valued &option : valued) {
      if (arg == option.name) {
        if (i + 1 >= argc)
          return std::nullopt;
        *option.into = argv[++i];
        known = true;
        break;
      }
      if (arg.starts_with(option.name) &&
          arg.drop_front(option.name.size()).starts_with("=")) {
        *option.into = arg.drop_front(option.name.size() + 1).str();
        known = true;
        break;
      }
    }
    if (known)
      continue;
    // Standard input, --help, "--" and anything unknown: not sure.
    if (arg.empty() || arg.starts_with("-"))
      return std::nullopt;
    if (sawFile)
      return std::nullopt;
    sawFile = true;
  }
  if (!sawFile || !guess.bypassesCache ||
      !llvm::StringRef(guess.target).starts_with("sm_"))
    return std::nullopt;
  return guess;
}

} // namespace

void startPtxasAtLoad(int argc, char **argv) {
  if (const char *early = std::getenv("KILN_PTXAS_EARLY"))
    if (llvm::StringRef(early) == "0" || llvm::StringRef(early) == "main")
      return;
  std::optional<Guess> guess = guessCompile(argc, argv);
  if (!guess)
    return;
  // As main does before any child starts (kiln.cpp): kiln's signal
  // handlers first, SIGCHLD not ignored, the stack limit ptxas inherits.
  installSignalCleanup();
  restoreDefaultChildSignal();
  raiseStackLimit();
  llvm::Expected<std::string> ptxas = nvptx::findPtxas(guess->ptxas);
  if (!ptxas) {
    llvm::consumeError(ptxas.takeError());
    return;
  }
  nvptx::NVPTXBackendOptions options;
  options.arch = guess->target;
  options.ptxasFastCompile = guess->fastCompile;
  if (!guess->maxnreg.empty() && guess->maxnreg != "0")
    options.ptxasExtraArgs.push_back("--maxrregcount=" + guess->maxnreg);
  llvm::Expected<std::unique_ptr<nvptx::PtxasProcess>> started =
      nvptx::PtxasProcess::start(*ptxas, options, /*early=*/true);
  if (!started) {
    llvm::consumeError(started.takeError());
    return;
  }
  startedAtLoad = started->release();
  std::atexit(discardPtxasStartedAtLoad);
}

std::unique_ptr<nvptx::PtxasProcess>
takePtxasStartedAtLoad(llvm::StringRef ptxasPath,
                       const nvptx::NVPTXBackendOptions &options) {
  if (!startedAtLoad || !startedAtLoad->runs(ptxasPath, options)) {
    discardPtxasStartedAtLoad();
    return nullptr;
  }
  std::unique_ptr<nvptx::PtxasProcess> taken(startedAtLoad);
  startedAtLoad = nullptr;
  return taken;
}

void discardPtxasStartedAtLoad() {
  // The destructor kills and reaps ptxas and removes its files.
  delete startedAtLoad;
  startedAtLoad = nullptr;
}

} // namespace kiln::tool
