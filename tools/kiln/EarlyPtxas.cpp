//===- EarlyPtxas.cpp - ptxas started as kiln loads -----------------------===//

#include "tools/kiln/EarlyPtxas.h"

#include "pipelines/common/SignalCleanup.h"
#include "pipelines/nvptx/NVPTXBackend.h"
#include "tools/common/ChildSignal.h"
#include "tools/common/StackLimit.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <csignal>
#include <cstdlib>
#include <optional>
#include <string>

#include <pthread.h>
#include <unistd.h>

namespace kiln::tool {
namespace {

/// The ptxas started at load, until runCompile takes it or it is
/// discarded. A plain pointer: constant-initialized, so that no dynamic
/// initializer (which runs after startPtxasAtLoad's constructor) resets it.
/// Written by the starter thread and read by others under `startLock`,
/// once `startPending` is false.
nvptx::PtxasProcess *startedAtLoad = nullptr;

/// The starter thread's hand-over: constant-initialized (and never
/// destroyed), as the pointer above. `startPending` is true from the
/// thread's creation until it has set startedAtLoad (or failed).
pthread_mutex_t startLock = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t startDone = PTHREAD_COND_INITIALIZER;
bool startPending = false;

/// What the starter thread starts: set before it is created.
struct StartRequest {
  std::string ptxas;
  nvptx::NVPTXBackendOptions options;
};
StartRequest *startRequest = nullptr;

/// Waits until the starter thread, if any, has started ptxas or failed.
void waitForStart() {
  pthread_mutex_lock(&startLock);
  while (startPending)
    pthread_cond_wait(&startDone, &startLock);
  pthread_mutex_unlock(&startLock);
}

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

/// The ptxas startRequest asks for, started; null where that failed.
nvptx::PtxasProcess *startRequested() {
  llvm::Expected<std::unique_ptr<nvptx::PtxasProcess>> started =
      nvptx::PtxasProcess::start(startRequest->ptxas, startRequest->options,
                                 /*early=*/true);
  if (started)
    return started->release();
  llvm::consumeError(started.takeError());
  return nullptr;
}

/// Starts ptxas and hands it over, then lives as long as the process:
/// ptxas's parent-death signal (PR_SET_PDEATHSIG, PtxasProcess::spawn)
/// follows the thread that spawned it, not the process.
void *starterMain(void *) {
  nvptx::PtxasProcess *process = startRequested();
  pthread_mutex_lock(&startLock);
  startedAtLoad = process;
  startPending = false;
  pthread_cond_broadcast(&startDone);
  pthread_mutex_unlock(&startLock);
  // Signals go to the other threads from now on; this one only waits.
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, nullptr);
  for (;;)
    pause();
}

} // namespace

void startPtxasAtLoad(int argc, char **argv) {
  const char *variable = std::getenv("KILN_PTXAS_EARLY");
  llvm::StringRef early = variable ? variable : "";
  if (early == "0" || early == "main")
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
  startRequest = new StartRequest{std::move(*ptxas), {}};
  nvptx::NVPTXBackendOptions &options = startRequest->options;
  options.arch = guess->target;
  options.ptxasFastCompile = guess->fastCompile;
  if (!guess->maxnreg.empty() && guess->maxnreg != "0")
    options.ptxasExtraArgs.push_back("--maxrregcount=" + guess->maxnreg);
  std::atexit(discardPtxasStartedAtLoad);
  // KILN_PTXAS_EARLY=load-thread spawns on a thread of its own, so that
  // the spawn (vfork until ptxas's execve: ctor to main 1.80 ms against
  // 1.38 without it on the GPU machine, bench/timeline) overlaps the static
  // initializers. Not the default: on the 2-core build machine the thread,
  // ptxas and kiln's main thread share two cores, and the thread waited
  // about 1.6 ms to run after the vfork (perf sched), ptxas's execve came
  // 1.8 ms later and a vadd compile's wall time was 0.2-0.6 ms longer
  // (bench/timeline, medians of 41 rounds, three runs).
  if (early == "load-thread") {
    // A small stack: the thread lives as long as kiln, and the default 8
    // MiB of address space failed a softmax compile under `ulimit -v
    // 110000` that passes without it (helper-97).
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setstacksize(&attributes, 256 << 10);
    pthread_t thread;
    startPending = true;
    int created = pthread_create(&thread, &attributes, starterMain, nullptr);
    pthread_attr_destroy(&attributes);
    if (created == 0) {
      pthread_detach(thread);
      return;
    }
    startPending = false;
  }
  startedAtLoad = startRequested();
}

std::unique_ptr<nvptx::PtxasProcess>
takePtxasStartedAtLoad(llvm::StringRef ptxasPath,
                       const nvptx::NVPTXBackendOptions &options) {
  waitForStart();
  if (!startedAtLoad || !startedAtLoad->runs(ptxasPath, options)) {
    discardPtxasStartedAtLoad();
    return nullptr;
  }
  std::unique_ptr<nvptx::PtxasProcess> taken(startedAtLoad);
  startedAtLoad = nullptr;
  return taken;
}

void discardPtxasStartedAtLoad() {
  waitForStart();
  // The destructor kills and reaps ptxas and removes its files.
  delete startedAtLoad;
  startedAtLoad = nullptr;
}

} // namespace kiln::tool
