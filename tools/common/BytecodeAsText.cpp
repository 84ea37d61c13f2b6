//===- BytecodeAsText.cpp - MLIR bytecode read in a process of its own ----===//

#include "tools/common/BytecodeAsText.h"

#include "pipelines/common/SignalCleanup.h"
#include "tools/common/NestingDepth.h"
#include "tools/common/SourceFiles.h"

#include "mlir/IR/Block.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <string>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char **environ;

namespace kiln::tool {
namespace {

llvm::Error bytecodeError(const llvm::Twine &why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), why);
}

/// The first lines of what the child wrote on stderr, for an error.
std::string firstLines(llvm::StringRef text, unsigned lines) {
  llvm::SmallVector<llvm::StringRef, 8> parts;
  if (llvm::StringRef(text).trim().empty())
    return std::string();
  llvm::StringRef(text).rtrim().split(parts, '\n', lines);
  if (parts.size() > lines)
    parts.pop_back();
  std::string out;
  for (llvm::StringRef part : parts)
    out += "\n  " + part.take_front(300).str();
  return out;
}

/// /proc/self/exe: this program's binary, which the reader child runs.
constexpr char kSelf[] = "/proc/self/exe";
/// The reader child's environment: its parent's pid and the file's name.
constexpr char kParentVariable[] = "KILN_BYTECODE_READER_PARENT";
constexpr char kNameVariable[] = "KILN_BYTECODE_READER_NAME";

/// The CPU time limit a reader child starts with (seconds): ours, or this
/// process's soft limit where lower.
unsigned long cpuLimitSeconds() {
  rlimit cpu;
  if (::getrlimit(RLIMIT_CPU, &cpu) == 0 && cpu.rlim_cur != RLIM_INFINITY &&
      cpu.rlim_cur < kBytecodeReaderCpuSeconds)
    return static_cast<unsigned long>(cpu.rlim_cur);
  return kBytecodeReaderCpuSeconds;
}

/// The child's address space at start, bytes (/proc/self/statm's first
/// field, in pages); 0 where it cannot be read.
uint64_t addressSpaceNow() {
  FILE *statm = std::fopen("/proc/self/statm", "r");
  if (!statm)
    return 0;
  unsigned long long pages = 0;
  int read = std::fscanf(statm, "%llu", &pages);
  std::fclose(statm);
  return read == 1 ? pages * uint64_t(::sysconf(_SC_PAGESIZE)) : 0;
}
} // namespace

llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readBytecodeAsText(llvm::StringRef name, llvm::StringRef bytes,
                   llvm::ArrayRef<std::string> extraArgs) {
  // Started through the dynamic loader (`ld-linux-x86-64.so.2 kiln ...`),
  // /proc/self/exe is the loader, which would take the reader's arguments
  // as its own.
  {
    char self[4096];
    ssize_t length = ::readlink(kSelf, self, sizeof(self) - 1);
    if (length > 0) {
      llvm::StringRef path(self, length);
      llvm::StringRef base = path.substr(path.rfind('/') + 1);
      if (base.starts_with("ld-linux") || base.starts_with("ld.so") ||
          base.starts_with("ld64.so"))
        return bytecodeError(
            "kiln reads MLIR bytecode in a process of its own, started "
            "from its own binary, and " +
            llvm::Twine(kSelf) + " is the dynamic loader (" + path +
            ") that started this one: run kiln directly");
    }
  }
  const uint64_t textLimit =
      std::max(kMinBytecodeTextLimit, kMaxTextPerBytecodeByte * bytes.size());
  // stdin through a socket (send's MSG_NOSIGNAL: a child that died before
  // reading all of it is no SIGPIPE here), stdout and stderr through pipes.
  int input[2], output[2], errors[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, input) != 0)
    return bytecodeError(llvm::Twine("cannot start its reader: ") +
                         std::strerror(errno));
  if (::pipe2(output, O_CLOEXEC) != 0) {
    int err = errno;
    ::close(input[0]);
    ::close(input[1]);
    return bytecodeError(llvm::Twine("cannot start its reader: ") +
                         std::strerror(err));
  }
  if (::pipe2(errors, O_CLOEXEC) != 0) {
    int err = errno;
    for (int fd : {input[0], input[1], output[0], output[1]})
      ::close(fd);
    return bytecodeError(llvm::Twine("cannot start its reader: ") +
                         std::strerror(err));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, input[1], 0);
  posix_spawn_file_actions_adddup2(&actions, output[1], 1);
  posix_spawn_file_actions_adddup2(&actions, errors[1], 2);
  std::vector<std::string> args = {"kiln-bytecode-reader", kBytecodeReaderArg};
  args.insert(args.end(), extraArgs.begin(), extraArgs.end());
  std::vector<char *> argv;
  for (std::string &arg : args)
    argv.push_back(arg.data());
  argv.push_back(nullptr);
  // The reader learns this process's pid (it ends with it: PDEATHSIG) and
  // the file's name (for its diagnostics) from its environment.
  std::vector<std::string> variables = {
      std::string(kParentVariable) + "=" + std::to_string(::getpid()),
      std::string(kNameVariable) + "=" + name.str()};
  std::vector<char *> envp;
  for (std::string &variable : variables)
    envp.push_back(variable.data());
  for (char **entry = environ; entry && *entry; ++entry) {
    llvm::StringRef variable(*entry);
    if (!variable.starts_with(std::string(kParentVariable) + "=") &&
        !variable.starts_with(std::string(kNameVariable) + "="))
      envp.push_back(*entry);
  }
  envp.push_back(nullptr);
  pid_t pid = 0;
  int spawned =
      ::posix_spawn(&pid, kSelf, &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  ::close(input[1]);
  ::close(output[1]);
  ::close(errors[1]);
  if (spawned != 0) {
    for (int fd : {input[0], output[0], errors[0]})
      ::close(fd);
    return bytecodeError(llvm::Twine("cannot start its reader, ") + kSelf +
                         ": " + std::strerror(spawned) +
                         " (kiln reads MLIR bytecode in a process of its own, "
                         "started from its own binary)");
  }
  kiln::killOnSignal(pid);

  // A reader that neither ends nor uses CPU (helper-91's heap100: the
  // corrupted heap left it waiting on a mutex for good) ends by SIGKILL at
  // the wall-clock limit.
  unsigned wallSeconds = kBytecodeReaderWallSeconds;
  if (const char *override = std::getenv("KILN_BYTECODE_READER_WALL_SECONDS"))
    if (unsigned value = std::strtoul(override, nullptr, 10))
      wallSeconds = value;
  auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(wallSeconds);
  // Time this process did not see pass (stopped by SIGTSTP, say, with the
  // reader: helper-92's Ctrl-Z for 42 s and `fg` ended a good read) does
  // not count: polls wake at least every kPollMs, and a longer gap moves
  // the deadline on by its excess.
  constexpr int kPollMs = 500;
  auto lastWake = std::chrono::steady_clock::now();
  bool timedOut = false;
  std::string text, errorText;
  bool overLimit = false;
  size_t written = 0;
  int toChild = input[0];
  ::fcntl(toChild, F_SETFL, ::fcntl(toChild, F_GETFL) | O_NONBLOCK);
  int fromChild = output[0], errorsFromChild = errors[0];
  char buffer[65536];
  while (fromChild >= 0 || errorsFromChild >= 0) {
    pollfd fds[3];
    nfds_t count = 0;
    int outIndex = -1, errIndex = -1, inIndex = -1;
    if (fromChild >= 0) {
      outIndex = count;
      fds[count++] = {fromChild, POLLIN, 0};
    }
    if (errorsFromChild >= 0) {
      errIndex = count;
      fds[count++] = {errorsFromChild, POLLIN, 0};
    }
    if (toChild >= 0) {
      inIndex = count;
      fds[count++] = {toChild, POLLOUT, 0};
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    deadline - std::chrono::steady_clock::now())
                    .count();
    if (left <= 0 && !timedOut && !overLimit) {
      timedOut = true;
      ::kill(pid, SIGKILL);
    }
    int ready = ::poll(
        fds, count,
        timedOut || overLimit ? -1 : int(std::min<long long>(left, kPollMs)));
    auto woke = std::chrono::steady_clock::now();
    auto gap = woke - lastWake;
    if (gap > std::chrono::milliseconds(4 * kPollMs))
      deadline += gap - std::chrono::milliseconds(kPollMs);
    lastWake = woke;
    if (ready < 0) {
      if (errno == EINTR)
        continue;
      break;
    }
    if (ready == 0)
      continue;
    if (inIndex >= 0 && fds[inIndex].revents) {
      ssize_t n = ::send(toChild, bytes.data() + written,
                         std::min<size_t>(bytes.size() - written, 1 << 20),
                         MSG_NOSIGNAL);
      if (n > 0)
        written += static_cast<size_t>(n);
      if ((n < 0 && errno != EAGAIN && errno != EINTR) ||
          written == bytes.size()) {
        ::close(toChild); // EOF for the reader (or it stopped reading)
        toChild = -1;
      }
    }
    auto drain = [&](int index, int &fd, std::string &into, size_t keep) {
      if (index < 0 || !fds[index].revents)
        return;
      ssize_t n = ::read(fd, buffer, sizeof(buffer));
      if (n > 0) {
        if (into.size() < keep)
          into.append(buffer, std::min<size_t>(n, keep - into.size()));
        return;
      }
      if (n < 0 && errno == EINTR)
        return;
      ::close(fd);
      fd = -1;
    };
    drain(outIndex, fromChild, text, textLimit + 1);
    drain(errIndex, errorsFromChild, errorText, 64 << 10);
    if (text.size() > textLimit && !overLimit) {
      overLimit = true;
      ::kill(pid, SIGKILL);
    }
  }
  for (int fd : {toChild, fromChild, errorsFromChild})
    if (fd >= 0)
      ::close(fd);
  int status = 0;
  int waited;
  while ((waited = ::waitpid(pid, &status, 0)) < 0 && errno == EINTR) {
  }
  int waitError = waited < 0 ? errno : 0;
  kiln::dontKillOnSignal(pid);
  if (waitError != 0)
    return bytecodeError(
        llvm::Twine("cannot learn how its reader ended: ") +
        std::strerror(waitError) +
        (waitError == ECHILD ? " (is SIGCHLD ignored in this process?)" : ""));

  if (timedOut)
    return bytecodeError(
        "MLIR's bytecode reader did not finish reading it in " +
        llvm::Twine(wallSeconds) +
        " s (ended by kiln): a malformed file can leave it "
        "waiting for good" +
        firstLines(errorText, 3));
  if (overLimit)
    return bytecodeError(
        "MLIR bytecode that prints as more than " +
        llvm::Twine(textLimit >> 20) +
        " MiB of MLIR text: kiln reads bytecode by way of its text "
        "and refuses text that large (" +
        llvm::Twine(kMaxTextPerBytecodeByte) +
        " times the file's size; nested regions, or attributes and "
        "types that refer to each other, reach such sizes from a "
        "few bytes)");
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    if (sig == SIGXCPU)
      return bytecodeError(
          "reading it as MLIR bytecode took more CPU time than its "
          "limit, " +
          llvm::Twine(cpuLimitSeconds()) +
          " s (RLIMIT_CPU; MLIR's bytecode reader takes time that "
          "grows with the square of the length of a chain of "
          "attributes or types)");
    if (sig == SIGKILL)
      return bytecodeError(
          "MLIR's bytecode reader was ended by SIGKILL, from outside "
          "kiln (the out-of-memory killer, or a hard CPU time limit: "
          "ulimit -t)" +
          firstLines(errorText, 3));
    bool memory = llvm::StringRef(errorText).contains("out of memory") ||
                  llvm::StringRef(errorText).contains("bad_alloc");
    return bytecodeError(
        llvm::Twine("MLIR's bytecode reader ended by ") +
        (sig == SIGSEGV   ? "SIGSEGV"
         : sig == SIGABRT ? "SIGABRT"
         : sig == SIGBUS  ? "SIGBUS"
                          : ("signal " + std::to_string(sig))) +
        " reading it" +
        (memory
             ? " (out of the " + std::to_string(kBytecodeReaderMemory >> 30) +
                   " GiB of memory kiln gives it)"
             : std::string()) +
        ": the bytecode is malformed, or declares sizes or nests "
        "deeper than MLIR's reader takes (it trusts what the file "
        "declares)" +
        firstLines(errorText, 3));
  }
  int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (code != 0)
    return bytecodeError(
        "cannot read it as MLIR bytecode" +
        (errorText.empty()
             ? std::string(" (the reader exited ") + std::to_string(code) + ")"
             : ":" + firstLines(errorText, 8)));
  return llvm::MemoryBuffer::getMemBufferCopy(text, name + kBytecodeTextSuffix);
}

std::unique_ptr<llvm::MemoryBuffer>
inputAsText(std::unique_ptr<llvm::MemoryBuffer> input,
            llvm::ArrayRef<std::string> extraArgs) {
  if (!isMlirBytecode(
          std::string_view(input->getBufferStart(), input->getBufferSize())))
    return input;
  if (reportInputBeyondLimits(input->getBufferIdentifier(), input->getBuffer(),
                              llvm::errs()))
    return nullptr;
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> text = readBytecodeAsText(
      input->getBufferIdentifier(), input->getBuffer(), extraArgs);
  if (!text) {
    llvm::WithColor::error(llvm::errs(), input->getBufferIdentifier())
        << llvm::toString(text.takeError()) << "\n";
    return nullptr;
  }
  return std::move(*text);
}

int runBytecodeReader(const mlir::DialectRegistry &registry,
                      bool allowUnregistered) {
  // A crash or a limit ends this process by its signal's default action:
  // the parent reads the status.
  for (int sig : {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGXCPU})
    std::signal(sig, SIG_DFL);
  // Ends with the kiln that started it (helper-92: a SIGKILLed kiln left a
  // reader blocked for good, or running its CPU limit out). The parent may
  // have ended before this: then its pid is no longer the parent's.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (const char *parent = std::getenv(kParentVariable))
    if (std::strtol(parent, nullptr, 10) != ::getppid())
      std::_Exit(1);
  // The CPU limit: kBytecodeReaderCpuSeconds, or the one this process was
  // given if lower (a user's `ulimit -t` stays).
  rlimit cpu;
  if (::getrlimit(RLIMIT_CPU, &cpu) == 0) {
    rlim_t seconds = kBytecodeReaderCpuSeconds;
    if (cpu.rlim_cur != RLIM_INFINITY && cpu.rlim_cur < seconds)
      seconds = cpu.rlim_cur;
    rlimit wanted = {seconds, seconds + 1};
    if (cpu.rlim_max != RLIM_INFINITY && wanted.rlim_max > cpu.rlim_max)
      wanted.rlim_max = cpu.rlim_max;
    if (wanted.rlim_cur > wanted.rlim_max)
      wanted.rlim_cur = wanted.rlim_max;
    ::setrlimit(RLIMIT_CPU, &wanted);
  }
  if (uint64_t now = addressSpaceNow()) {
    rlimit memory = {now + kBytecodeReaderMemory, now + kBytecodeReaderMemory};
    rlimit current;
    if (::getrlimit(RLIMIT_AS, &current) == 0 &&
        (current.rlim_cur == RLIM_INFINITY ||
         current.rlim_cur > memory.rlim_cur))
      ::setrlimit(RLIMIT_AS, &memory);
  }
  const char *name = std::getenv(kNameVariable);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> input =
      llvm::MemoryBuffer::getSTDIN();
  if (input && name && *name)
    *input = llvm::MemoryBuffer::getMemBufferCopy((*input)->getBuffer(), name);
  if (!input) {
    llvm::errs() << "cannot read the bytecode: " << input.getError().message()
                 << "\n";
    return 1;
  }
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  if (allowUnregistered)
    context.allowUnregisteredDialects();
  auto sourceMgr = std::make_shared<llvm::SourceMgr>();
  sourceMgr->AddNewSourceBuffer(std::move(*input), llvm::SMLoc());
  sourceMgr->setVirtualFileSystem(sourceLineFileSystem());
  mlir::SourceMgrDiagnosticHandler diagnostics(*sourceMgr, &context);
  mlir::Block block;
  if (mlir::failed(mlir::parseSourceFile(
          sourceMgr, &block,
          mlir::ParserConfig(&context, /*verifyAfterParse=*/false))))
    return 1;
  // One top-level operation as it is; several inside a module, as the
  // text parser's callers take them (an implicit module).
  // Printed as a top-level operation (no parent block): only then does the
  // printer write alias definitions (`#loc3 = loc(...)`, each location and
  // attribute once, not inline at every use) and the dialect resources
  // (dense_resource blobs). helper-92: printed from inside the block, a
  // bytecode's blobs were dropped (kiln-opt wrote its own bytecode without
  // them) and the inline text of a kernel with call-site locations passed
  // the text limit.
  mlir::Operation *top = nullptr;
  if (!block.empty() && std::next(block.begin()) == block.end()) {
    top = &block.front();
    top->remove();
  } else {
    auto module = mlir::ModuleOp::create(mlir::UnknownLoc::get(&context));
    module.getBody()->getOperations().splice(module.getBody()->end(),
                                             block.getOperations());
    top = module;
  }
  // Custom form, as text input is written (generic form counts two levels
  // of nesting per region, `({`, against the text limit's one).
  mlir::OpPrintingFlags flags;
  flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
  llvm::raw_fd_ostream out(/*fd=*/1, /*shouldClose=*/false);
  top->print(out, flags);
  out << "\n";
  out.flush();
  bool failed = out.has_error();
  out.clear_error();
  // No teardown: freeing deeply nested IR takes time that grows with the
  // square of its depth (helper-91: minutes for 100,000 nested modules).
  std::fflush(nullptr);
  std::_Exit(failed ? 1 : 0);
}

} // namespace kiln::tool
