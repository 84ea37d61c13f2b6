//===- PtxasProcess.cpp - one ptxas run, optionally started early ---------===//
//
// ptxas 13.0 spends most of a small kernel's assembly before it reads its
// input: exec, dynamic loading and its own initialization (measured with
// strace on the build machine: 7-12 ms from execve to the first open of the
// input, then ~5 ms of compiling and ~2 ms writing and exiting, for the
// corpus vadd). Started with a FIFO as its input path, ptxas does that part
// while kiln runs its pipeline and LLVM, then blocks in open() until the PTX
// is written. POSIX only (mkfifo, waitpid); the regular-file path is kept
// for where a FIFO cannot be made. At the other end, ptxas writes and closes
// the cubin, prints its -v report and then spends 3-4 ms more freeing its
// memory and exiting (strace, build machine, every corpus kernel): kiln
// reads the report from a pipe, takes the cubin once the report is complete
// and leaves the exit to a detached thread (readOutput).
//
//===----------------------------------------------------------------------===//

#include "pipelines/nvptx/NVPTXBackend.h"

#include "pipelines/common/Error.h"
#include "pipelines/common/SignalCleanup.h"
#include "pipelines/common/StageTimer.h"
#include "pipelines/common/ToolOutput.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <system_error>
#include <thread>
#include <unistd.h>
#include <vector>

extern char **environ;

using namespace llvm;

namespace kiln::nvptx {
namespace {

/// glibc tunables ptxas runs with unless the user's GLIBC_TUNABLES names
/// them: huge pages for its heap and a 64 MiB heap top pad (one brk instead
/// of dozens of 132 KiB steps). Measured on the build machine, ptxas 13.0
/// on the corpus vadd / softmax / layernorm PTX: 17.0 -> 15.2 ms with
/// hugetlb (earlier commit), -> 12-13 / 19.1 / 21.1 ms with the top pad
/// (from 21.9 / 24.3 with hugetlb alone); the same cubins.
constexpr std::pair<const char *, const char *> kPtxasTunables[] = {
    {"glibc.malloc.hugetlb", "1"},
    {"glibc.malloc.top_pad", "67108864"},
};

/// This process's environment with kPtxasTunables merged into
/// GLIBC_TUNABLES (a tunable the user set keeps the user's value).
std::vector<std::string> ptxasEnvironment() {
  std::vector<std::string> env;
  std::string tunables;
  for (char **entry = environ; entry && *entry; ++entry) {
    StringRef var(*entry);
    if (var.consume_front("GLIBC_TUNABLES=")) {
      tunables = var.str();
      continue;
    }
    env.push_back(var.str());
  }
  for (auto [name, value] : kPtxasTunables) {
    if (StringRef(tunables).contains(name))
      continue;
    tunables += (tunables.empty() ? "" : ":") + std::string(name) + "=" + value;
  }
  env.push_back("GLIBC_TUNABLES=" + tunables);
  return env;
}

/// Reads the little-endian unsigned integer of `width` bytes at `offset`.
uint64_t readLE(StringRef bytes, size_t offset, unsigned width) {
  uint64_t value = 0;
  for (unsigned i = 0; i < width; ++i)
    value |= uint64_t(static_cast<unsigned char>(bytes[offset + i])) << (8 * i);
  return value;
}

/// Why `cubin` cannot be a whole ELF-64 little-endian file (the cubin ptxas
/// writes for sm_ targets), or "" when its headers fit in it. The System V
/// gABI's layout: the 64-byte ELF header holds e_phoff (byte 32), e_shoff
/// (40), e_phentsize and e_phnum (54, 56), e_shentsize and e_shnum (58,
/// 60); each section header, sh_type (byte 4), sh_offset (24) and sh_size
/// (32), SHT_NOBITS (8) sections taking no bytes. ptxas 13.0 exits with
/// status 0 after a short write of its cubin (a full TMPDIR, helper-96:
/// 4096 of 4360 bytes), which passed as a cubin.
std::string cubinDefect(StringRef cubin) {
  constexpr uint64_t kHeader = 64;
  if (cubin.size() < kHeader || !cubin.starts_with("\177ELF") ||
      cubin[4] != 2 || cubin[5] != 1)
    return "not an ELF-64 little-endian file";
  const uint64_t size = cubin.size();
  uint64_t needed = kHeader;
  bool overflow = false;
  // Where `count` entries of `entry` bytes from `offset` end.
  auto reach = [&](uint64_t offset, uint64_t entry, uint64_t count) {
    if (count && entry > (UINT64_MAX - offset) / count)
      overflow = true;
    else
      needed = std::max(needed, offset + entry * count);
  };
  const uint64_t shoff = readLE(cubin, 40, 8);
  const uint64_t shentsize = readLE(cubin, 58, 2);
  const uint64_t shnum = readLE(cubin, 60, 2);
  reach(readLE(cubin, 32, 8), readLE(cubin, 54, 2), readLE(cubin, 56, 2));
  reach(shoff, shentsize, shnum);
  if (!overflow && needed <= size && shentsize >= 40)
    for (uint64_t i = 0; i < shnum; ++i) {
      const uint64_t header = shoff + i * shentsize;
      if (readLE(cubin, header + 4, 4) == 8) // SHT_NOBITS
        continue;
      reach(readLE(cubin, header + 24, 8), readLE(cubin, header + 32, 8), 1);
    }
  if (overflow)
    return "corrupt (its ELF headers' offsets overflow)";
  if (needed <= size)
    return "";
  return "truncated (" + std::to_string(size) +
         " bytes; its ELF headers place data up to byte " +
         std::to_string(needed) + ")";
}

/// KILN_PTXAS_EARLY=0 turns early starts off (to measure what they save).
bool earlyStartAllowed() {
  const char *value = std::getenv("KILN_PTXAS_EARLY");
  return !value || StringRef(value) != "0";
}

/// KILN_PTXAS_WAIT_EXIT=1 waits for ptxas's exit even when its report says
/// it is done (to measure what returning earlier saves).
bool waitForExitRequested() {
  const char *value = std::getenv("KILN_PTXAS_WAIT_EXIT");
  return value && StringRef(value) == "1";
}

/// Whether the running image of process `pid` is the file `path` (same
/// device and inode): false for a wrapper script, whose process runs its
/// interpreter.
bool runsImage(int pid, const std::string &path) {
  struct stat image, file;
  std::string exe = "/proc/" + std::to_string(pid) + "/exe";
  return ::stat(exe.c_str(), &image) == 0 && ::stat(path.c_str(), &file) == 0 &&
         image.st_dev == file.st_dev && image.st_ino == file.st_ino;
}

/// Whether this process's children are reaped at exit without a wait
/// (SIGCHLD ignored, or SA_NOCLDWAIT): ptxas's exit cannot be collected,
/// which assemble reports as an error, not a compile that looks fine.
bool childrenReapedAtExit() {
  struct sigaction action;
  return ::sigaction(SIGCHLD, nullptr, &action) == 0 &&
         (action.sa_handler == SIG_IGN || (action.sa_flags & SA_NOCLDWAIT));
}

/// Appends what the non-blocking descriptor `fd` holds now to `text`.
/// Returns false at end of file (every writer closed it) or on an error
/// other than EAGAIN, true while more may come.
bool drainInto(int fd, std::string &text) {
  char buffer[4096];
  for (;;) {
    ssize_t n = ::read(fd, buffer, sizeof(buffer));
    if (n > 0) {
      text.append(buffer, static_cast<size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR)
      continue;
    return n < 0 && errno == EAGAIN;
  }
}

/// Sleeps `us` microseconds.
void sleepUs(long us) {
  timespec ts{us / 1000000, (us % 1000000) * 1000};
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
  }
}

/// Writes all of `data` to `fd`. With SIGPIPE blocked on this thread, a
/// reader that went away is EPIPE (the pending SIGPIPE is consumed), not
/// the death of this process.
std::error_code writeAll(int fd, StringRef data) {
  sigset_t pipeSet, oldSet;
  sigemptyset(&pipeSet);
  sigaddset(&pipeSet, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipeSet, &oldSet);
  std::error_code ec;
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR)
        continue;
      ec = std::error_code(errno, std::generic_category());
      break;
    }
    data = data.drop_front(static_cast<size_t>(n));
  }
  if (ec == std::errc::broken_pipe && !sigismember(&oldSet, SIGPIPE)) {
    timespec zero{0, 0};
    sigtimedwait(&pipeSet, nullptr, &zero);
  }
  pthread_sigmask(SIG_SETMASK, &oldSet, nullptr);
  return ec;
}

} // namespace

Expected<std::unique_ptr<PtxasProcess>>
PtxasProcess::start(StringRef ptxasPath, const NVPTXBackendOptions &options,
                    bool early) {
  // Before LLVM's handlers are installed (RemoveFileOnSignal below), so
  // that kiln's runs first and knows which signals were ignored.
  installSignalCleanup();
  std::unique_ptr<PtxasProcess> process(new PtxasProcess());
  process->ptxasPath = ptxasPath.str();
  process->arch = options.arch;
  // Files beside one unique name in the temporary directory:
  // kiln-ptxas-XXXXXX.log (created here, empty: it holds the name; ptxas's
  // output goes to a pipe), .ptx (the input; a FIFO when started early),
  // .ptx.full and .cubin.
  SmallString<128> log;
  {
    // Made and registered for removal with the cleanup signals blocked on
    // this thread: a SIGINT/SIGTERM in between left the empty .log behind
    // (helper-76: 2-4 of 200 signals sent 1-6 ms into a compile).
    CleanupSignalsBlocked blocked;
    if (std::error_code ec =
            sys::fs::createTemporaryFile("kiln-ptxas", "log", log)) {
      SmallString<128> tmp;
      sys::path::system_temp_directory(/*ErasedOnReboot=*/true, tmp);
      return makeError(
          "cannot create ptxas's files in the temporary directory " + tmp +
          " (TMPDIR): " + ec.message());
    }
    // Absolute: with a relative TMPDIR beginning with '-', ptxas took its
    // input's path for an option (helper-96: "Unknown option").
    if (!sys::path::is_absolute(log)) {
      SmallString<128> absolute(log);
      if (!sys::fs::make_absolute(absolute))
        log = absolute;
    }
    // In kiln's registry at once, which allocates nothing: running out of
    // memory in the allocations below ends kiln through the signal cleanup
    // (OutOfMemory.h), which left the .log when it was registered only
    // further down (GPU machine, a `ulimit -v` sweep).
    removeOnSignal(log);
    process->logPath = std::string(log);
    StringRef base = StringRef(process->logPath).drop_back(strlen(".log"));
    process->inputPath = (base + ".ptx").str();
    process->fullPath = (base + ".ptx.full").str();
    process->cubinPath = (base + ".cubin").str();
    // Removed by LLVM's handlers on SIGINT/SIGTERM too (regular files
    // only), and the input, a FIFO until the PTX is written, by kiln's
    // (which also take SIGPIPE and run LLVM's then).
    for (const std::string *path : {&process->logPath, &process->inputPath,
                                    &process->fullPath, &process->cubinPath})
      sys::RemoveFileOnSignal(*path);
    removeOnSignal(process->inputPath);
    // The input FIFO is made inside the bracket too: a handler running on
    // another thread (the main thread while ptxas starts on a side thread,
    // or a side thread while the main thread starts it) removed the path
    // before it existed and ended the process while this thread made it,
    // which left the FIFO in TMPDIR (helper-97: 2 in 500 signals with the
    // helper-thread variants; every time with mkfifo delayed, also with
    // KILN_PTXAS_EARLY=main).
    if (early && earlyStartAllowed() &&
        ::mkfifo(process->inputPath.c_str(), 0600) == 0)
      process->early = true;
  }

  process->args = process->argumentsFor(options);

  if (process->early)
    if (Error err = process->spawn())
      return std::move(err);
  return std::move(process);
}

std::vector<std::string>
PtxasProcess::argumentsFor(const NVPTXBackendOptions &options) const {
  std::vector<std::string> result = {ptxasPath, "-arch=" + options.arch};
  if (options.ptxasFastCompile.empty() || options.ptxasFastCompile == "0")
    result.push_back("-O" + std::to_string(options.optLevel));
  else
    result.push_back("--Ofast-compile=" + options.ptxasFastCompile);
  result.push_back("-v");
  if (options.warnOnSpills)
    result.push_back("--warn-on-spills");
  for (const std::string &extra : options.ptxasExtraArgs)
    result.push_back(extra);
  result.insert(result.end(), {"-o", cubinPath, inputPath});
  return result;
}

bool PtxasProcess::runs(StringRef ptxasPath,
                        const NVPTXBackendOptions &options) const {
  return early && pid > 0 && !reaped && this->ptxasPath == ptxasPath &&
         args == argumentsFor(options);
}

namespace {

/// For ptxas ended by a signal: the memory limits it inherited from kiln
/// (`ulimit -v`, `ulimit -d`), which it may have run out of. ptxas 13.0
/// under `ulimit -d` below about 67 MB ends by SIGSEGV with nothing
/// printed (helper-86). Empty with neither set.
std::string memoryLimitHint() {
  std::string limits;
  struct {
    int resource;
    const char *name;
  } known[] = {{RLIMIT_AS, "ulimit -v"}, {RLIMIT_DATA, "ulimit -d"}};
  for (const auto &limit : known) {
    struct rlimit value;
    if (::getrlimit(limit.resource, &value) != 0 ||
        value.rlim_cur == RLIM_INFINITY)
      continue;
    limits += (limits.empty() ? "" : ", ") + std::string(limit.name) + " " +
              std::to_string(value.rlim_cur >> 10) + " KiB";
  }
  if (limits.empty())
    return "";
  return " (ptxas ran under the memory limit kiln has, " + limits +
         ": it may have run out of memory)";
}

} // namespace

std::string PtxasProcess::archHint(StringRef log) const {
  // "ptxas fatal : Value 'sm_70' is not defined for option 'gpu-name'":
  // name the architectures this ptxas does take (its --help lists them).
  if (!log.contains("not defined for option 'gpu-name'"))
    return "";
  Expected<std::string> help =
      captureToolOutput(ptxasPath, {"--help"}, "ptxas --help");
  if (!help) {
    consumeError(help.takeError());
    return "";
  }
  StringRef section = StringRef(*help).split("--gpu-name").second;
  section = section.split("\n--").first;
  std::vector<std::string> archs;
  for (size_t pos = 0; (pos = section.find("'sm_", pos)) != StringRef::npos;) {
    StringRef name = section.substr(pos + 1).take_until([](char c) { return c == '\''; });
    if (llvm::find(archs, name.str()) == archs.end())
      archs.push_back(name.str());
    pos += 1 + name.size();
  }
  if (archs.empty())
    return "";
  return "\nthis ptxas (" + ptxasPath + ") assembles for " +
         llvm::join(archs, ", ");
}

Error PtxasProcess::spawn() {
  // Everything the child needs is prepared here: between vfork and execve
  // it only calls async-signal-safe functions.
  std::vector<std::string> environment = ptxasEnvironment();
  std::vector<char *> argv, envp;
  for (std::string &arg : args)
    argv.push_back(arg.data());
  argv.push_back(nullptr);
  for (std::string &var : environment)
    envp.push_back(var.data());
  envp.push_back(nullptr);
  // A pipe for ptxas's output (it writes its -v report to stderr; both
  // streams go there). Not a file watched with inotify, as in 7236ff6:
  // closing an inotify instance waits for the kernel's SRCU grace period
  // (about 10 ms, strace on the build machine) and kiln's exit waited for
  // that close, on whatever thread: on the H200 kiln's exit then took a
  // median 15-20 ms longer on small kernels (twenty-third session). Every
  // descriptor above the standard ones: with this process's stdin or
  // stderr closed, a descriptor opened now could be 0 or 2 and be
  // overwritten (or left close-on-exec) by the dup2s below.
  auto aboveStandard = [](int fd) {
    if (fd < 0 || fd > 2)
      return fd;
    int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
    ::close(fd);
    return moved;
  };
  int pipeFds[2];
  if (::pipe2(pipeFds, O_CLOEXEC) != 0)
    return makeError("ptxas: cannot make a pipe for its output: " +
                     std::string(std::strerror(errno)));
  int readFd = aboveStandard(pipeFds[0]);
  int writeFd = aboveStandard(pipeFds[1]);
  if (readFd < 0 || writeFd < 0) {
    int err = errno;
    for (int fd : {readFd, writeFd})
      if (fd >= 0)
        ::close(fd);
    return makeError("ptxas: cannot make a pipe for its output: " +
                     std::string(std::strerror(err)));
  }
  ::fcntl(readFd, F_SETFL, ::fcntl(readFd, F_GETFL) | O_NONBLOCK);
  int nullFd = aboveStandard(::open("/dev/null", O_RDONLY | O_CLOEXEC));
  pid_t parent = ::getpid();
  volatile int execErrno = 0;
  // The signals kiln's cleanup takes stay blocked on this thread until the
  // child is registered with it (CleanupSignalsBlocked, killOnSignal): a
  // ptxas (or wrapper) that signals kiln at once, or one signalled with it,
  // is then killed before the files are removed, not left writing its
  // cubin (signal-cleanup.test, on a loaded machine). The child gets the
  // mask back before execve.
  pid_t child;
  int forkErrno;
  {
    CleanupSignalsBlocked blocked;
    // The child shares this process's memory until execve but has its own
    // signal dispositions: each signal with a handler here gets the default
    // action there before its mask is restored (as posix_spawn does). A
    // signal sent to the whole process group (Ctrl-C, timeout(1)) and
    // pending in the child then ends the child; it ran kiln's handler in
    // kiln's memory before, which claimed the process's ending for the
    // child's thread id and left kiln waiting for that claim forever, or
    // left the child waiting, holding the caller's stdout and stderr
    // (helper-95: 16 hangs in 200 group signals 0-8 ms into a compile).
    std::vector<int> handled;
    for (int signal = 1; signal < NSIG; ++signal) {
      struct sigaction action;
      if (::sigaction(signal, nullptr, &action) == 0 &&
          action.sa_handler != SIG_DFL && action.sa_handler != SIG_IGN)
        handled.push_back(signal);
    }
    struct sigaction defaultAction = {};
    defaultAction.sa_handler = SIG_DFL;
    // Every signal blocked across the vfork (as glibc's posix_spawn does):
    // no handler of this process runs in the child before it has the
    // default actions, whatever signal kiln's process group gets.
    sigset_t all, beforeVfork;
    sigfillset(&all);
    ::pthread_sigmask(SIG_BLOCK, &all, &beforeVfork);
    child = ::vfork();
    if (child == 0) {
      for (int signal : handled)
        ::sigaction(signal, &defaultAction, nullptr);
      ::pthread_sigmask(SIG_SETMASK, &blocked.previousMask(), nullptr);
      // A ptxas started early waits on its input FIFO; should this process
      // die before writing it (killed, crashed), the kernel kills ptxas too.
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (::getppid() != parent)
        ::_exit(127);
      // A process group of its own, so that ~PtxasProcess kills a wrapper
      // script's children with it (see there).
      ::setpgid(0, 0);
      if (nullFd >= 0)
        ::dup2(nullFd, 0);
      else
        ::close(0);
      ::dup2(writeFd, 1);
      ::dup2(writeFd, 2);
      ::execve(argv[0], argv.data(), envp.data());
      execErrno = errno; // vfork: the parent sees this after the child exits
      ::_exit(127);
    }
    forkErrno = errno;
    ::pthread_sigmask(SIG_SETMASK, &beforeVfork, nullptr);
    if (child > 0 && execErrno == 0)
      killOnSignal(child, /*processGroup=*/true);
  }
  ::close(writeFd);
  if (nullFd >= 0)
    ::close(nullFd);
  if (child < 0 || execErrno != 0)
    ::close(readFd);
  if (child < 0)
    return makeError("ptxas: cannot start '" + ptxasPath +
                     "': " + std::strerror(forkErrno));
  if (execErrno != 0) {
    int status = 0;
    while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    return makeError("ptxas: cannot run '" + ptxasPath +
                     "': " + std::strerror(execErrno));
  }
  pid = child;
  reaped = false;
  outputFd = readFd;
  return Error::success();
}

PtxasProcess::~PtxasProcess() {
  if (detached && pid > 0) {
    // ptxas reported every entry and only exits now: collect it without
    // waiting here (a process that ends first leaves it to init). Where no
    // thread can be started, it is collected here: it is only exiting.
    auto collect = [child = pid] {
      int status = 0;
      while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
      }
      dontKillOnSignal(child);
    };
    try {
      std::thread(collect).detach();
    } catch (const std::system_error &) {
      collect();
    }
  } else if (!reaped && pid > 0) {
    // The whole process group: a ptxas that a wrapper script started as
    // its own child (not through exec) dies with the wrapper. Killing the
    // wrapper alone left that ptxas waiting to open the FIFO forever when
    // it reached the open after the release below (ptxas-early.test, on a
    // loaded machine).
    if (::kill(-pid, SIGKILL) != 0)
      ::kill(pid, SIGKILL);
    // A child that left the group: if it waits to open the FIFO, a writer
    // opening and closing it lets it read an empty input and fail.
    if (early) {
      int fd = ::open(inputPath.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
      if (fd >= 0)
        ::close(fd);
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    dontKillOnSignal(pid);
  }
  if (outputFd >= 0)
    ::close(outputFd);
  // ::unlink, not fs::remove: LLVM's refuses FIFOs.
  for (const std::string *path : {&logPath, &inputPath, &fullPath, &cubinPath}) {
    if (path->empty())
      continue;
    ::unlink(path->c_str());
    sys::DontRemoveFileOnSignal(*path);
  }
  dontRemoveOnSignal(logPath);
  dontRemoveOnSignal(inputPath);
}

void PtxasProcess::markReaped() {
  reaped = true;
  dontKillOnSignal(pid);
}

bool PtxasProcess::reportComplete(StringRef log, unsigned entries) {
  if (entries == 0)
    return false;
  unsigned reported = 0;
  SmallVector<StringRef> lines;
  log.split(lines, '\n');
  for (StringRef line : lines) {
    // Only info, warnings and their indented continuation lines: anything
    // else (an error, a fatal line, a wrapper's output) waits for the exit.
    if (!line.empty() && !line.starts_with("ptxas info") &&
        !line.starts_with("ptxas warning") && !line.starts_with(" "))
      return false;
    if (line.starts_with("ptxas info    : Compile time = ") &&
        line.ends_with(" ms"))
      ++reported;
  }
  return reported == entries;
}

unsigned PtxasProcess::reportEntries(StringRef ptx) const {
  if (waitForExitRequested() || childrenReapedAtExit() ||
      !runsImage(pid, ptxasPath))
    return 0;
  // Entry and function definitions, as LLVM's NVPTX printer writes them
  // (".visible .entry name(", ".func name(", ".visible .func (...) name(").
  unsigned entries = 0;
  SmallVector<StringRef> lines;
  ptx.split(lines, '\n');
  for (StringRef line : lines) {
    line = line.trim();
    if (line.starts_with(".extern"))
      continue;
    if (line.contains(".entry "))
      ++entries;
    else if (line.starts_with(".func") || line.contains(" .func "))
      return 0;
  }
  return entries;
}

bool PtxasProcess::readOutput(unsigned entries) {
  // The pidfd ends the wait at ptxas's exit even where a process it left
  // behind (a wrapper's) keeps the pipe open. Without one (ENOSYS before
  // Linux 5.3, EPERM under some seccomp profiles), the pipe is polled
  // every 10 ms and the exit checked with waitid(WNOWAIT), which leaves
  // ptxas to be reaped as usual.
  int pidFd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  auto exited = [&] {
    siginfo_t info{};
    return ::waitid(P_PID, static_cast<id_t>(pid), &info,
                    WEXITED | WNOHANG | WNOWAIT) != 0 ||
           info.si_pid == pid;
  };
  bool open = outputFd >= 0;
  bool complete = false;
  // Where the last check for a new "Compile time" line stopped.
  size_t checked = output.size();
  while (open) {
    if (entries > 0) {
      size_t from = output.rfind('\n', checked == 0 ? 0 : checked - 1);
      from = from == std::string::npos ? 0 : from;
      checked = output.size();
      // Only a new "Compile time" line can complete the report.
      if (StringRef(output).drop_front(from).contains("Compile time = ") &&
          reportComplete(output, entries)) {
        complete = true;
        break;
      }
    }
    pollfd fds[2] = {{outputFd, POLLIN, 0}, {pidFd, POLLIN, 0}};
    int ready = ::poll(fds, pidFd >= 0 ? 2 : 1, pidFd >= 0 ? -1 : 10);
    if (ready < 0) {
      if (errno == EINTR)
        continue;
      break;
    }
    if (fds[0].revents != 0)
      open = drainInto(outputFd, output);
    if (pidFd >= 0 ? fds[1].revents != 0 : exited()) {
      // Exited: everything it wrote is in the pipe.
      if (open)
        drainInto(outputFd, output);
      break;
    }
  }
  if (pidFd >= 0)
    ::close(pidFd);
  return complete;
}

Expected<PtxasOutput> PtxasProcess::assemble(StringRef ptx,
                                             StringRef displayName) {
  if (assembled)
    return makeError("ptxas: assemble() called twice");
  assembled = true;
  // ptxas's log naming the PTX as the user knows it, not by its temporary
  // path.
  auto displayed = [&](std::string message) {
    for (size_t pos = 0;
         (pos = message.find(inputPath, pos)) != std::string::npos;
         pos += displayName.size())
      message.replace(pos, inputPath.size(), displayName.str());
    return message;
  };

  // What ptxas wrote so far, for an error that is not its own.
  auto quoted = [&] {
    StringRef text = StringRef(output).rtrim();
    return text.empty() ? std::string() : ":\n" + displayed(text.str());
  };
  // Where later opens of the input find the PTX: a regular file, renamed
  // over the FIFO once ptxas holds the FIFO open (or, without an early
  // start, the input itself).
  std::string regularPath = early ? fullPath : inputPath;
  if (Error err = writeFileBytes(regularPath, ptx))
    return makeError("ptxas: " + toString(std::move(err)));

  int status = 0;
  bool exited = false; // reaped before reading its input
  int64_t startWaitUs = 0;
  if (!early) {
    if (Error err = spawn())
      return std::move(err);
  } else {
    // Wait until ptxas opens the FIFO (normally it already waits there),
    // unless it exits first (bad options, a crash).
    int fd = -1;
    StageTimer waitTimer;
    bool waited = false;
    for (long backoffUs = 20;; waited = true) {
      fd = ::open(inputPath.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
      if (fd >= 0)
        break;
      if (errno == EINTR)
        continue;
      if (errno != ENXIO)
        return makeError("ptxas: cannot open its input FIFO " + inputPath +
                         ": " + std::strerror(errno));
      // What it writes meanwhile (an error before it exits) must not fill
      // the pipe.
      if (outputFd >= 0)
        drainInto(outputFd, output);
      pid_t done = ::waitpid(pid, &status, WNOHANG);
      if (done == pid) {
        markReaped();
        exited = true;
        break;
      }
      if (done < 0 && errno != EINTR) {
        // ECHILD: SIGCHLD ignored in this process reaps children at once.
        markReaped();
        std::string reason = std::strerror(errno);
        return makeError("ptxas: cannot wait for it (" + reason +
                         "; is SIGCHLD ignored in this process?)" + quoted());
      }
      sleepUs(backoffUs);
      backoffUs = std::min<long>(backoffUs * 2, 200);
    }
    if (waited)
      startWaitUs = waitTimer.elapsedUs();
    if (fd >= 0) {
      std::error_code renamed = sys::fs::rename(regularPath, inputPath);
      int flags = ::fcntl(fd, F_GETFL);
      ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
      std::error_code wrote = writeAll(fd, ptx);
      ::close(fd);
      if (renamed)
        return makeError("ptxas: cannot publish its input " + inputPath +
                         ": " + renamed.message());
      // EPIPE: ptxas stopped reading (an error it reports below).
      if (wrote && wrote != std::errc::broken_pipe)
        return makeError("ptxas: cannot write its input: " + wrote.message());
    }
  }

  if (!reaped && readOutput(reportEntries(ptx))) {
    // Done per its report (see assemble in the header): the cubin is
    // written and closed. Its exit is collected off this path.
    Expected<std::string> cubin = readFileBytes(cubinPath);
    if (cubin && !cubin->empty()) {
      detached = true;
      return PtxasOutput{std::move(*cubin), displayed(output), startWaitUs};
    }
    if (!cubin)
      consumeError(cubin.takeError());
    readOutput(/*entries=*/0);
  }

  if (!reaped) {
    while (::waitpid(pid, &status, 0) < 0) {
      if (errno != EINTR) {
        int error = errno;
        std::string reason = std::strerror(error);
        if (error == ECHILD)
          reason += " (is SIGCHLD ignored in this process?)";
        if (outputFd >= 0)
          drainInto(outputFd, output);
        return makeError("ptxas: cannot wait for it: " + reason + quoted());
      }
    }
    markReaped();
  }
  pid = 0;

  if (outputFd >= 0)
    drainInto(outputFd, output);
  std::string message = displayed(output);

  if (WIFSIGNALED(status))
    return makeError("ptxas crashed (signal " + Twine(WTERMSIG(status)) + ", " +
                     strsignal(WTERMSIG(status)) + ") assembling " +
                     displayName + " for " + arch + memoryLimitHint() +
                     ":\n" + StringRef(message).rtrim());
  int rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (rc != 0)
    return makeError("ptxas failed with exit status " + Twine(rc) +
                     " assembling " + displayName + " for " + arch + ":\n" +
                     StringRef(message).rtrim() + archHint(message));
  if (exited)
    return makeError("ptxas exited before reading " + displayName + ":\n" +
                     StringRef(message).rtrim());
  Expected<std::string> cubin = readFileBytes(cubinPath);
  if (!cubin)
    return makeError("ptxas: " + toString(cubin.takeError()));
  if (cubin->empty())
    return makeError("ptxas: produced an empty cubin for " + displayName);
  std::string defect = cubinDefect(*cubin);
  if (!defect.empty())
    return makeError("ptxas: the cubin it wrote for " + displayName + " is " +
                     defect + " (is the temporary directory " +
                     sys::path::parent_path(cubinPath) + " (TMPDIR) full?)");
  return PtxasOutput{std::move(*cubin), std::move(message), startWaitUs};
}

} // namespace kiln::nvptx
