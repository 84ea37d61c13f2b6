//===- TTIRParseFuzzer.h - the TTIR parse property under fuzzing -*- C++ -*-===//

#ifndef KILN_TOOLS_FUZZ_TTIRPARSEFUZZER_H
#define KILN_TOOLS_FUZZ_TTIRPARSEFUZZER_H

#include "llvm/ADT/StringRef.h"

namespace kiln::fuzz {

enum class ParseOutcome {
  /// Parse or verification failed with diagnostics (the expected outcome
  /// for bad input).
  Rejected,
  /// Parsed, verified, printed and parsed again.
  Accepted,
  /// A verified module printed text that fails to parse: a round-trip bug.
  PrintedTextDoesNotParse,
};

/// Parses `text` as a TTIR module in a fresh context with every dialect
/// kiln-opt reads; on success verifies, prints and re-parses it. Never
/// aborts on bad input: diagnostics are swallowed and reported as Rejected.
ParseOutcome parseVerifyPrintReparse(llvm::StringRef text);

} // namespace kiln::fuzz

#endif // KILN_TOOLS_FUZZ_TTIRPARSEFUZZER_H
