//===- TTIRParseFuzzer.cpp - fuzz target of the TTIR parse entry point ----===//
//
// libFuzzer entry point: parse arbitrary bytes as TTIR with every dialect
// kiln-opt reads, verify, print, and re-parse the printed text. Bad input
// must only ever produce diagnostics; a crash, a sanitizer report or printed
// text that no longer parses is a bug. Built with clang by
// tools/fuzz/build_fuzzer.sh; the same entry point runs every saved crasher
// in test/fuzz under `bazel test` (fuzz_regression_test).
//
//===----------------------------------------------------------------------===//

#include "tools/fuzz/TTIRParseFuzzer.h"

#include "dialects/tt/IR/TTOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>

namespace kiln::fuzz {

ParseOutcome parseVerifyPrintReparse(llvm::StringRef text) {
  static mlir::DialectRegistry *registry = [] {
    auto *r = new mlir::DialectRegistry();
    kiln::tt::registerTTIRDialects(*r);
    return r;
  }();
  mlir::MLIRContext context(*registry,
                            mlir::MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();
  mlir::ScopedDiagnosticHandler quiet(
      &context, [](mlir::Diagnostic &) { return mlir::success(); });

  // MLIR's lexer relies on a NUL after the buffer (as files read through
  // MemoryBuffer have); fuzzer input has none, so parse a terminated copy,
  // exactly as kiln-opt parses a file.
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, "<fuzz>"), llvm::SMLoc());
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
  if (!module)
    return ParseOutcome::Rejected;
  if (mlir::failed(mlir::verify(*module)))
    return ParseOutcome::Rejected;

  std::string printed;
  llvm::raw_string_ostream os(printed);
  module->print(os);
  mlir::OwningOpRef<mlir::ModuleOp> reparsed =
      mlir::parseSourceString<mlir::ModuleOp>(printed, &context);
  if (!reparsed)
    return ParseOutcome::PrintedTextDoesNotParse;
  return ParseOutcome::Accepted;
}

} // namespace kiln::fuzz

#ifdef KILN_LIBFUZZER
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  if (kiln::fuzz::parseVerifyPrintReparse(text) ==
      kiln::fuzz::ParseOutcome::PrintedTextDoesNotParse) {
    std::fprintf(stderr, "kiln fuzz: verified module printed text that does "
                         "not parse again\n");
    std::abort();
  }
  return 0;
}
#endif
