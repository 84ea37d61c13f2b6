//===- NVPTXToolchain.cpp - ptxas and libdevice from the CUDA toolkit -----===//
//
// Locating the CUDA toolkit's ptxas and libdevice, running ptxas and reading
// its `-v` report. Only LLVM Support is used here (no MLIR, no codegen), so
// this file compiles quickly and its parsing is unit-tested in isolation.
//
//===----------------------------------------------------------------------===//

#include "pipelines/nvptx/NVPTXBackend.h"

#include "pipelines/common/Error.h"
#include "pipelines/common/ToolOutput.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <string>
#include <unistd.h>
#include <vector>

using namespace llvm;

namespace kiln::nvptx {
namespace {

std::optional<std::string> getEnv(const char *name) {
  const char *value = std::getenv(name);
  if (!value || !*value)
    return std::nullopt;
  return std::string(value);
}

bool isExecutableFile(StringRef path) {
  return sys::fs::is_regular_file(path) && sys::fs::can_execute(path);
}

/// The first integer in `text` (after skipping non-digits); -1 if none.
int64_t leadingInt(StringRef text) {
  text = text.drop_until(isDigit);
  int64_t value = -1;
  StringRef digits = text.take_while(isDigit);
  if (digits.empty() || digits.getAsInteger(10, value))
    return -1;
  return value;
}

/// In a comma-separated list like "0 bytes stack frame, 8 bytes spill
/// stores", the number before the item whose text ends with `what`.
std::optional<int64_t> numberBefore(StringRef line, StringRef what) {
  SmallVector<StringRef, 8> items;
  line.split(items, ',');
  for (StringRef item : items) {
    item = item.trim();
    if (!item.contains(what))
      continue;
    int64_t value = leadingInt(item);
    if (value >= 0)
      return value;
  }
  return std::nullopt;
}

} // namespace

//===----------------------------------------------------------------------===//
// Locating the toolkit
//===----------------------------------------------------------------------===//

Expected<std::string> findPtxas(StringRef explicitPath) {
  if (!explicitPath.empty()) {
    if (!isExecutableFile(explicitPath))
      return makeError("ptxas: '" + explicitPath +
                       "' (from --ptxas) is not an executable file");
    return explicitPath.str();
  }
  if (std::optional<std::string> env = getEnv("KILN_PTXAS")) {
    if (!isExecutableFile(*env))
      return makeError("ptxas: '" + *env +
                       "' (from KILN_PTXAS) is not an executable file");
    return *env;
  }
  if (ErrorOr<std::string> onPath = sys::findProgramByName("ptxas"))
    return *onPath;
  for (const char *var : {"CUDA_HOME", "CUDA_PATH"}) {
    if (std::optional<std::string> root = getEnv(var)) {
      SmallString<256> candidate(*root);
      sys::path::append(candidate, "bin", "ptxas");
      if (isExecutableFile(candidate))
        return std::string(candidate);
    }
  }
  if (isExecutableFile("/usr/local/cuda/bin/ptxas"))
    return std::string("/usr/local/cuda/bin/ptxas");
  return makeError("ptxas: not found (looked at KILN_PTXAS, PATH, "
                   "$CUDA_HOME/bin, $CUDA_PATH/bin and /usr/local/cuda/bin); "
                   "install the CUDA toolkit or pass --ptxas PATH");
}

std::optional<std::string> findCudaRoot() {
  for (const char *var : {"CUDA_HOME", "CUDA_PATH"})
    if (std::optional<std::string> root = getEnv(var))
      if (sys::fs::is_directory(*root))
        return root;
  if (ErrorOr<std::string> ptxas = sys::findProgramByName("ptxas")) {
    SmallString<256> real;
    if (!sys::fs::real_path(*ptxas, real)) {
      // <root>/bin/ptxas
      StringRef root = sys::path::parent_path(sys::path::parent_path(real));
      if (!root.empty())
        return root.str();
    }
  }
  if (sys::fs::is_directory("/usr/local/cuda"))
    return std::string("/usr/local/cuda");
  return std::nullopt;
}

Expected<std::string> findLibdevice(StringRef explicitPath) {
  auto check = [](StringRef path, StringRef origin) -> Expected<std::string> {
    if (!sys::fs::is_regular_file(path))
      return makeError("link libdevice: '" + path + "' (from " + origin +
                       ") is not a file");
    return path.str();
  };
  if (!explicitPath.empty())
    return check(explicitPath, "--libdevice");
  if (std::optional<std::string> env = getEnv("KILN_LIBDEVICE"))
    return check(*env, "KILN_LIBDEVICE");
  std::optional<std::string> root = findCudaRoot();
  if (!root)
    return makeError("link libdevice: libdevice.10.bc not found: set "
                     "KILN_LIBDEVICE, CUDA_HOME or pass --libdevice PATH");
  SmallString<256> path(*root);
  sys::path::append(path, "nvvm", "libdevice", "libdevice.10.bc");
  return check(path, "CUDA root " + *root);
}

//===----------------------------------------------------------------------===//
// Identity of the tools (for compile jobs)
//===----------------------------------------------------------------------===//

Expected<std::string> getPtxasVersion(StringRef ptxasPath) {
  return captureToolOutput(ptxasPath, {"--version"}, "ptxas --version");
}

Expected<std::string> readFileBytes(StringRef path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> buffer =
      MemoryBuffer::getFile(path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return makeError("cannot read " + path + ": " +
                     buffer.getError().message());
  return (*buffer)->getBuffer().str();
}

Error writeFileBytes(StringRef path, StringRef data) {
  std::error_code ec;
  raw_fd_ostream os(path, ec, sys::fs::OF_None);
  if (!ec) {
    os << data;
    os.close();
    ec = os.error();
    os.clear_error();
  }
  if (ec)
    return makeError("cannot write " + path + ": " + ec.message());
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Parsing the -v report
//===----------------------------------------------------------------------===//

std::vector<PtxasFunctionInfo> parsePtxasLog(StringRef log) {
  std::vector<PtxasFunctionInfo> infos;
  auto infoFor = [&](StringRef name) -> PtxasFunctionInfo & {
    for (PtxasFunctionInfo &info : infos)
      if (info.function == name)
        return info;
    infos.push_back(PtxasFunctionInfo{});
    infos.back().function = name.str();
    return infos.back();
  };
  PtxasFunctionInfo *current = nullptr;
  SmallVector<StringRef, 32> lines;
  log.split(lines, '\n');
  for (StringRef line : lines) {
    line = line.trim();
    StringRef rest = line;
    if (rest.consume_front("ptxas info")) {
      rest = rest.ltrim().drop_while([](char c) { return c == ':'; }).ltrim();
    }
    // "Compiling entry function 'k' for 'sm_90'" / "Compiling function 'f'"
    if (rest.starts_with("Compiling entry function '") ||
        rest.starts_with("Compiling function '")) {
      bool isEntry = rest.starts_with("Compiling entry");
      StringRef name = rest.split('\'').second.split('\'').first;
      current = &infoFor(name);
      current->isEntry |= isEntry;
      continue;
    }
    // "Function properties for k" then the stack/spill line.
    if (rest.consume_front("Function properties for ")) {
      current = &infoFor(rest.trim());
      continue;
    }
    if (!current)
      continue;
    if (line.contains("bytes stack frame")) {
      current->stackFrameBytes = numberBefore(line, "stack frame").value_or(0);
      current->spillStoreBytes = numberBefore(line, "spill stores").value_or(0);
      current->spillLoadBytes = numberBefore(line, "spill loads").value_or(0);
      continue;
    }
    // "Used 8 registers, used 1 barriers, 1024 bytes smem, 360 bytes cmem[0]"
    if (rest.starts_with("Used ") && rest.contains("registers")) {
      current->registers =
          static_cast<int>(numberBefore(rest, "registers").value_or(0));
      current->barriers =
          static_cast<int>(numberBefore(rest, "barriers").value_or(0));
      current->sharedBytes = numberBefore(rest, "bytes smem").value_or(0);
    }
  }
  return infos;
}

const PtxasFunctionInfo *
NVPTXCompileResult::findPtxasInfo(StringRef function) const {
  for (const PtxasFunctionInfo &info : ptxasInfo)
    if (info.function == function)
      return &info;
  return nullptr;
}

} // namespace kiln::nvptx
