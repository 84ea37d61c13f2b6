//===- ToolOutput.cpp - run an external tool and capture its output -------===//

#include "pipelines/common/ToolOutput.h"

#include "pipelines/common/SignalCleanup.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <spawn.h>
#include <sys/wait.h>
#include <vector>

extern char **environ;

using namespace llvm;

namespace kiln {

Expected<int> runToolToFile(StringRef tool, ArrayRef<StringRef> args,
                            StringRef outputPath) {
  std::vector<std::string> strings = {tool.str()};
  for (StringRef arg : args)
    strings.push_back(arg.str());
  std::vector<char *> argv;
  for (std::string &arg : strings)
    argv.push_back(arg.data());
  argv.push_back(nullptr);
  std::string output = outputPath.str();

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, output.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = 0;
  int spawnError;
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  {
    CleanupSignalsBlocked blocked;
    posix_spawnattr_setsigmask(&attributes, &blocked.previousMask());
    // A process group of its own, killed whole by the cleanup: a wrapper
    // script given as --ptxas that runs commands of its own left them
    // running after kiln's end (helper-96: its `sleep`).
    posix_spawnattr_setpgroup(&attributes, 0);
    posix_spawnattr_setflags(&attributes,
                             POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP);
    spawnError = ::posix_spawn(&pid, argv[0], &actions, &attributes,
                               argv.data(), environ);
    if (spawnError == 0)
      killOnSignal(pid, /*processGroup=*/true);
  }
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  if (spawnError != 0)
    return createStringError(inconvertibleErrorCode(),
                             "cannot run it: " + Twine(std::strerror(spawnError)));
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  dontKillOnSignal(pid);
  if (WIFSIGNALED(status))
    return createStringError(inconvertibleErrorCode(),
                             "killed by signal " + Twine(WTERMSIG(status)) +
                                 " (" + ::strsignal(WTERMSIG(status)) + ")");
  return WIFEXITED(status) ? WEXITSTATUS(status) : 255;
}

Expected<std::string> captureToolOutput(StringRef tool, ArrayRef<StringRef> args,
                                        StringRef what) {
  auto fail = [&](const Twine &why) -> Error {
    return createStringError(inconvertibleErrorCode(),
                             what + " (" + tool + "): " + why);
  };
  // Made and registered with no cleanup signal in between on this thread,
  // and as a registration bracket for a handler on another (this runs on
  // kiln compile's toolchain thread while the main thread parses).
  SmallString<128> out;
  {
    CleanupSignalsBlocked blocked;
    if (std::error_code ec =
            sys::fs::createTemporaryFile("kiln-tool-output", "txt", out))
      return fail("cannot create a temporary file: " + ec.message());
    removeOnSignal(out);
  }
  Expected<int> rc = runToolToFile(tool, args, out);
  ErrorOr<std::unique_ptr<MemoryBuffer>> text = MemoryBuffer::getFile(out);
  sys::fs::remove(out);
  dontRemoveOnSignal(out);
  std::string printed = text ? (*text)->getBuffer().trim().str() : "";
  if (!rc)
    return fail(toString(rc.takeError()) +
                (printed.empty() ? "" : ": " + printed));
  if (*rc != 0)
    return fail("exit status " + Twine(*rc) +
                (printed.empty() ? "" : ": " + printed));
  if (printed.empty())
    return fail("printed nothing");
  return printed;
}

} // namespace kiln
