//===- ToolOutput.cpp - run an external tool and capture its output -------===//

#include "pipelines/common/ToolOutput.h"

#include "pipelines/common/SignalCleanup.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

#include <optional>

using namespace llvm;

namespace kiln {

Expected<std::string> captureToolOutput(StringRef tool, ArrayRef<StringRef> args,
                                        StringRef what) {
  auto fail = [&](const Twine &why) -> Error {
    return createStringError(inconvertibleErrorCode(),
                             what + " (" + tool + "): " + why);
  };
  installSignalCleanup(); // before the file exists
  SmallString<128> out;
  if (std::error_code ec =
          sys::fs::createTemporaryFile("kiln-tool-output", "txt", out))
    return fail("cannot create a temporary file: " + ec.message());
  removeOnSignal(out);
  SmallVector<StringRef, 4> argv = {tool};
  argv.append(args.begin(), args.end());
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(out),
                                          StringRef(out)};
  std::string launchError;
  int rc = sys::ExecuteAndWait(tool, argv, std::nullopt, redirects,
                               /*SecondsToWait=*/0, /*MemoryLimit=*/0,
                               &launchError);
  ErrorOr<std::unique_ptr<MemoryBuffer>> text = MemoryBuffer::getFile(out);
  sys::fs::remove(out);
  dontRemoveOnSignal(out);
  std::string printed = text ? (*text)->getBuffer().trim().str() : "";
  if (rc != 0)
    return fail((launchError.empty() ? "exit status " + Twine(rc)
                                     : Twine(launchError)) +
                (printed.empty() ? "" : ": " + printed));
  if (printed.empty())
    return fail("printed nothing");
  return printed;
}

} // namespace kiln
