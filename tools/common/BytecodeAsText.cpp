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
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace kiln::tool {
namespace {

llvm::Error bytecodeError(llvm::StringRef, const llvm::Twine &why) {
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
  const uint64_t textLimit =
      std::max(kMinBytecodeTextLimit, kMaxTextPerBytecodeByte * bytes.size());
  // stdin through a socket (send's MSG_NOSIGNAL: a child that died before
  // reading all of it is no SIGPIPE here), stdout and stderr through pipes.
  int input[2], output[2], errors[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, input) != 0)
    return bytecodeError(name, llvm::Twine("cannot start its reader: ") +
                                   std::strerror(errno));
  if (::pipe2(output, O_CLOEXEC) != 0) {
    int err = errno;
    ::close(input[0]);
    ::close(input[1]);
    return bytecodeError(name, llvm::Twine("cannot start its reader: ") +
                                   std::strerror(err));
  }
  if (::pipe2(errors, O_CLOEXEC) != 0) {
    int err = errno;
    for (int fd : {input[0], input[1], output[0], output[1]})
      ::close(fd);
    return bytecodeError(name, llvm::Twine("cannot start its reader: ") +
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
  pid_t pid = 0;
  int spawned = ::posix_spawn(&pid, "/proc/self/exe", &actions, nullptr,
                              argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(input[1]);
  ::close(output[1]);
  ::close(errors[1]);
  if (spawned != 0) {
    for (int fd : {input[0], output[0], errors[0]})
      ::close(fd);
    return bytecodeError(name, llvm::Twine("cannot start its reader: ") +
                                   std::strerror(spawned));
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
    int ready = ::poll(fds, count, timedOut || overLimit ? -1 : int(left));
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
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  kiln::dontKillOnSignal(pid);

  if (timedOut)
    return bytecodeError(
        name, "MLIR's bytecode reader did not finish reading it in " +
                  llvm::Twine(wallSeconds) +
                  " s (ended by kiln): a malformed file can leave it "
                  "waiting for good" +
                  firstLines(errorText, 3));
  if (overLimit)
    return bytecodeError(
        name, "MLIR bytecode that prints as more than " +
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
          name, "reading it as MLIR bytecode took more than " +
                    llvm::Twine(kBytecodeReaderCpuSeconds) +
                    " s of CPU time (MLIR's bytecode reader takes time that "
                    "grows with the square of the length of a chain of "
                    "attributes or types)");
    bool memory = llvm::StringRef(errorText).contains("out of memory") ||
                  llvm::StringRef(errorText).contains("bad_alloc");
    return bytecodeError(
        name, llvm::Twine("MLIR's bytecode reader ended by ") +
                  (sig == SIGSEGV   ? "SIGSEGV"
                   : sig == SIGABRT ? "SIGABRT"
                   : sig == SIGBUS  ? "SIGBUS"
                                    : ("signal " + std::to_string(sig))) +
                  " reading it" +
                  (memory ? " (out of the " +
                                std::to_string(kBytecodeReaderMemory >> 30) +
                                " GiB of memory kiln gives it)"
                          : std::string()) +
                  ": the bytecode is malformed, or declares sizes or nests "
                  "deeper than MLIR's reader takes (it trusts what the file "
                  "declares)" +
                  firstLines(errorText, 3));
  }
  int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (code != 0)
    return bytecodeError(name, "cannot read it as MLIR bytecode" +
                                   (errorText.empty()
                                        ? std::string(" (the reader exited ") +
                                              std::to_string(code) + ")"
                                        : ":" + firstLines(errorText, 8)));
  return llvm::MemoryBuffer::getMemBufferCopy(text,
                                              name + " (bytecode as text)");
}

int runBytecodeReader(const mlir::DialectRegistry &registry,
                      bool allowUnregistered) {
  // A crash or a limit ends this process by its signal's default action:
  // the parent reads the status.
  for (int sig : {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGXCPU})
    std::signal(sig, SIG_DFL);
  rlimit cpu = {kBytecodeReaderCpuSeconds, kBytecodeReaderCpuSeconds + 1};
  ::setrlimit(RLIMIT_CPU, &cpu);
  if (uint64_t now = addressSpaceNow()) {
    rlimit memory = {now + kBytecodeReaderMemory, now + kBytecodeReaderMemory};
    rlimit current;
    if (::getrlimit(RLIMIT_AS, &current) == 0 &&
        (current.rlim_cur == RLIM_INFINITY ||
         current.rlim_cur > memory.rlim_cur))
      ::setrlimit(RLIMIT_AS, &memory);
  }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> input =
      llvm::MemoryBuffer::getSTDIN();
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
  mlir::Operation *top = nullptr;
  if (!block.empty() && std::next(block.begin()) == block.end()) {
    top = &block.front();
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
