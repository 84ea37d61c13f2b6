//===- SourceLineGuard.cpp - kiln-opt's diagnostics and named files -------===//

#include "tools/kiln-opt/SourceLineGuard.h"

#include "tools/common/SourceFiles.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/ToolUtilities.h"
#include "mlir/Tools/ParseUtilities.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>
#include <string>

using namespace mlir;

namespace kiln::opt {
namespace {

/// The input's name and what is known of the files locations name.
struct GuardState {
  std::mutex mutex;
  std::string inputName;
  llvm::StringMap<bool> mayShow;

  bool allowed(StringRef file) {
    std::lock_guard<std::mutex> lock(mutex);
    if (file == inputName)
      return true;
    auto it = mayShow.find(file);
    if (it == mayShow.end())
      it = mayShow.insert({file, tool::mayShowSourceLines(file)}).first;
    return it->second;
  }
};

GuardState &state() {
  static GuardState s;
  return s;
}

/// Whether every file `loc` names may be opened by MLIR's handler.
bool allowed(Location loc) {
  bool ok = true;
  loc->walk([&](Location l) {
    if (auto file = dyn_cast<FileLineColLoc>(l))
      if (!state().allowed(file.getFilename().getValue()))
        ok = false;
    return ok ? WalkResult::advance() : WalkResult::interrupt();
  });
  return ok;
}

llvm::SourceMgr::DiagKind kindOf(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Note:
    return llvm::SourceMgr::DK_Note;
  case DiagnosticSeverity::Warning:
    return llvm::SourceMgr::DK_Warning;
  case DiagnosticSeverity::Remark:
    return llvm::SourceMgr::DK_Remark;
  case DiagnosticSeverity::Error:
    break;
  }
  return llvm::SourceMgr::DK_Error;
}

/// One message at `loc`, as SourceMgrDiagnosticHandler prints a location
/// whose file it could not open.
void print(Location loc, StringRef message, DiagnosticSeverity severity) {
  std::string where;
  llvm::raw_string_ostream os(where);
  std::string text = message.str();
  if (auto file = loc->findInstanceOf<FileLineColLoc>()) {
    os << file.getFilename().getValue() << ":" << file.getLine() << ":"
       << file.getStartColumn();
  } else if (!isa<UnknownLoc>(loc)) {
    std::string prefixed;
    llvm::raw_string_ostream ps(prefixed);
    ps << loc << ": " << message;
    text = prefixed;
  }
  llvm::SMDiagnostic(where, kindOf(severity), text)
      .print(nullptr, llvm::errs());
}

LogicalResult guard(Diagnostic &diag) {
  bool ok = allowed(diag.getLocation());
  for (Diagnostic &note : diag.getNotes())
    ok = ok && allowed(note.getLocation());
  if (ok)
    return failure(); // MlirOptMain's handler shows it, lines and all
  Location loc = diag.getLocation();
  // A call stack: the callee first, then where it was called from.
  SmallVector<Location> callers;
  while (auto call = dyn_cast<CallSiteLoc>(loc)) {
    callers.push_back(call.getCaller());
    loc = call.getCallee();
  }
  print(loc, diag.str(), diag.getSeverity());
  for (Location caller : callers)
    print(caller, "called from", DiagnosticSeverity::Note);
  for (Diagnostic &note : diag.getNotes())
    print(note.getLocation(), note.str(), note.getSeverity());
  return success();
}

void registerGuard(MLIRContext *ctx) {
  ctx->getDiagEngine().registerHandler(guard);
}

/// Registers the guard whenever a dialect is loaded (no required dialects:
/// MLIR applies it on every load).
struct GuardOnDialectLoad : DialectExtension<GuardOnDialectLoad> {
  void apply(MLIRContext *ctx) const override { registerGuard(ctx); }
};

/// The files that file locations in MLIR text name (a string literal
/// followed by `:` and a line number), unescaped, in order, with repeats.
/// Comments are skipped; a string elsewhere followed by `:` and a digit is
/// not valid MLIR, so nothing else is taken for a location.
std::vector<std::string> locationFiles(StringRef text) {
  std::vector<std::string> files;
  size_t i = 0, n = text.size();
  while (i < n) {
    char c = text[i];
    if (c == '/' && i + 1 < n && text[i + 1] == '/') {
      i = text.find('\n', i);
      if (i == StringRef::npos)
        break;
      continue;
    }
    if (c != '"') {
      ++i;
      continue;
    }
    std::string value;
    for (++i; i < n && text[i] != '"' && text[i] != '\n'; ++i) {
      if (text[i] != '\\' || i + 1 >= n) {
        value += text[i];
        continue;
      }
      char e = text[++i];
      if (e == 'n')
        value += '\n';
      else if (e == 't')
        value += '\t';
      else if (llvm::isHexDigit(e) && i + 1 < n &&
               llvm::isHexDigit(text[i + 1]))
        value += char(llvm::hexFromNibbles(e, text[++i]));
      else
        value += e;
    }
    if (i >= n || text[i] != '"')
      break;
    size_t j = text.find_first_not_of(" \t", i + 1);
    if (j != StringRef::npos && text[j] == ':') {
      size_t k = text.find_first_not_of(" \t", j + 1);
      if (k != StringRef::npos && llvm::isDigit(text[k]))
        files.push_back(std::move(value));
    }
    i = i + 1;
  }
  return files;
}

/// Parses and verifies `input` (each chunk, where MlirOptMain splits it) as
/// MlirOptMain would, diagnostics shown through a SourceMgr that opens only
/// what kiln::tool::sourceLineFileSystem allows.
LogicalResult parseSafely(const llvm::MemoryBuffer &input,
                          const DialectRegistry &registry,
                          const MlirOptMainConfig &config) {
  auto parseChunk = [&](std::unique_ptr<llvm::MemoryBuffer> chunk,
                        raw_ostream &) -> LogicalResult {
    MLIRContext context(registry, MLIRContext::Threading::DISABLED);
    context.allowUnregisteredDialects(config.shouldAllowUnregisteredDialects());
    auto sourceMgr = std::make_shared<llvm::SourceMgr>();
    sourceMgr->setVirtualFileSystem(tool::sourceLineFileSystem());
    sourceMgr->AddNewSourceBuffer(std::move(chunk), llvm::SMLoc());
    SourceMgrDiagnosticHandler handler(*sourceMgr, &context);
    ParserConfig parserConfig(&context, config.shouldVerifyOnParsing());
    OwningOpRef<Operation *> op = parseSourceFileForTool(
        sourceMgr, parserConfig, !config.shouldUseExplicitModule());
    return success(bool(op));
  };
  auto copy = llvm::MemoryBuffer::getMemBufferCopy(input.getBuffer(),
                                                   input.getBufferIdentifier());
  if (config.inputSplitMarker().empty())
    return parseChunk(std::move(copy), llvm::nulls());
  return splitAndProcessBuffer(std::move(copy), parseChunk, llvm::nulls(),
                               config.inputSplitMarker(),
                               config.outputSplitMarker());
}

} // namespace

bool addSourceLineGuard(const llvm::MemoryBuffer &input,
                        DialectRegistry &registry, MlirOptMainConfig &config) {
  state().inputName = input.getBufferIdentifier().str();
  registry.addExtensions<GuardOnDialectLoad>();
  MlirOptMainConfig original = config;
  config.setPassPipelineSetupFn([original](PassManager &pm) {
    registerGuard(pm.getContext());
    return original.setupPassPipeline(pm);
  });
  // Locations naming files MLIR's handler must not open: the parse and its
  // verification, which MlirOptMain may run before any dialect but builtin
  // is loaded (so before the guard), done here first.
  std::string unsafe;
  for (const std::string &file : locationFiles(input.getBuffer()))
    if (!state().allowed(file)) {
      unsafe = file;
      break;
    }
  if (unsafe.empty())
    return true;
  if (config.shouldVerifyDiagnostics()) {
    llvm::errs() << input.getBufferIdentifier()
                 << ": error: --verify-diagnostics with a location naming '"
                 << unsafe
                 << "', which is not a regular file of at most 1 MiB "
                    "without NUL bytes: MLIR's diagnostic verifier would read "
                    "it whole to show a source line\n";
    return false;
  }
  return succeeded(parseSafely(input, registry, config));
}

} // namespace kiln::opt
