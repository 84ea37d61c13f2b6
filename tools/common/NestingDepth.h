//===- NestingDepth.h - input nested deeper than the parser should take -*- C++
//-*-===//
//
// MLIR's parser recurses once per nesting level of its input (an array
// attribute in an array attribute, a region in an operation's region, a
// type parameter in a type), with no limit of its own; and some of that
// work grows with the square of the depth. Measured on the build machine
// with `kiln compile` (2026-12-04): 1,000,000 nested `[` overflowed the
// main thread's stack (a SIGSEGV: the stack grows only until it meets the
// mappings below it, whatever `ulimit -s` says), and 100,000 nested
// `!tt.ptr<` took 45 s, 30,000 nested `scf.if` regions 34 s. Real kernels
// nest at most 9 deep (the corpus and kiln's tests). `kiln` and
// `kiln-opt` refuse input nested deeper than kMaxNestingDepth before they
// parse it.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_COMMON_NESTINGDEPTH_H
#define KILN_TOOLS_COMMON_NESTINGDEPTH_H

#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace kiln::tool {

/// The deepest nesting kiln's parser is given: over 100 times what real
/// kernels use, and little enough that parsing it takes milliseconds and
/// well under a MiB of stack per kind of construct.
constexpr unsigned kMaxNestingDepth = 1000;

/// The longest affine map or integer set (`affine_map<...>`,
/// `affine_set<...>`, in bytes) kiln's parser is given: MLIR simplifies
/// their expressions in time that grows with the square of their length
/// (helper-88: 10,000 terms of `d0 * s0 * ...` took 0.4 s, 200,000 took
/// 176 s). TTIR has none.
constexpr std::size_t kMaxAffineText = 16384;

/// The deepest attribute or type kiln takes (text with aliases, or parsed):
/// twice kMaxNestingDepth, as a structure counts levels its text does not
/// show (an argument's type sits in the function type, in a TypeAttr, in
/// the attribute dictionary: 999 nested `!tt.ptr<` written out are 1003
/// levels). helper-87's chain of 10,000 aliases compiled under an 8 MiB
/// stack, 30,000 did not.
constexpr unsigned kMaxStructureDepth = 2 * kMaxNestingDepth;

/// The largest attribute or type kiln takes, in parts written out in full
/// (sub-elements at every depth, counted once per use): an alias that
/// refers to the one before twice doubles it with each line (helper-87:
/// 26 lines of `#aN = [#aN-1, #aN-1]` gave a 225 MB .kgpu.mlir; helper-88:
/// 30 lines as an op's properties, gigabytes of a parser error message).
constexpr uint64_t kMaxWrittenOutSize = uint64_t(1) << 20;

/// What findNestingDeeperThan found.
enum class InputProblem {
  Deep,       ///< nested deeper than the limit
  LongAffine, ///< an affine map or integer set longer than kMaxAffineText
};

/// Scans MLIR text for brackets, braces, parentheses and angle brackets
/// nested, all kinds together, deeper than `limit`: returns the byte offset
/// of the first opening one past it, or std::nullopt. A run of minus signs
/// with only whitespace and comments between them (unary minus in an
/// affine expression) counts one level per sign on top. String literals
/// (with their backslash escapes; LF, VT or FF ends one, as the lexer's
/// error) and `//` comments (to LF or CR, as in MLIR's lexer) are skipped;
/// the `>` of `->` and of an integer set's `>=` closes nothing. An
/// unmatched closing one counts down to no lower than 0: in input the
/// parser takes, every closing one closes a level it entered, so input
/// nested deeper than the limit cannot pass by closing more than it
/// opened. MLIR bytecode (which starts with "ML\xEFR") is not text: both
/// scans find nothing in it. Also returns the start of an affine map or integer
/// set longer than kMaxAffineText; `problem`, where given, says which it found.
std::optional<std::size_t>
findNestingDeeperThan(std::string_view text, unsigned limit,
                      InputProblem *problem = nullptr);

/// Where a written-out size saturates: sizes this large or larger are
/// reported as "over 2^40".
constexpr uint64_t kWrittenOutSizeCap = uint64_t(1) << 40;

/// An alias definition (`#name = ...`, `!name = ...`, its name of
/// `[a-zA-Z0-9._$-]`, at the start of a line, after LF or CR, or after the
/// body of the definition before it on the same line; its body runs to the
/// line end where its brackets are closed, or to the next definition at the
/// top level, `//` comments and strings skipped) that stands for more than
/// kMaxWrittenOutSize parts or kMaxStructureDepth levels once the aliases
/// it refers to are written out: where its name starts, and its size and
/// depth (size saturating at kWrittenOutSizeCap). A part is a reference to an
/// earlier alias (its own parts) or the definition itself; a reference to a
/// name not defined before counts nothing.
struct AliasBeyondLimits {
  std::size_t offset;
  uint64_t size;
  unsigned depth;
};
std::optional<AliasBeyondLimits> findAliasBeyondLimits(std::string_view text);

/// The most attributes and types together that kiln reads from MLIR
/// bytecode: the 2^20 parts of kMaxWrittenOutSize. What a file declares is
/// what MLIR's reader allocates for before reading anything (helper-91: a
/// count of 2^33 ended it by SIGABRT). A chain of attributes or types that
/// refer to the one before takes MLIR's reader time that grows with the
/// square of its length (build machine: 16,000 0.5 s, 32,000 2.0 s): long
/// ones run out of the reader child's CPU time limit (BytecodeAsText.h).
/// The corpus's kernels written as bytecode declare at most 450;
/// helper-92's scalar kernel of 25,000 additions, 75,013 (refused by an
/// earlier limit of 65,536).
constexpr uint64_t kMaxBytecodeAttrTypes = uint64_t(1) << 20;

/// The numbers of attributes and types MLIR bytecode declares (the first
/// two numbers of its attribute/type offset section; mlir/Bytecode/
/// Encoding.h: magic "ML\xEFR", version, producer string, then sections
/// of an id byte, a length and, where the id's high bit is set, an
/// alignment (a power of two, at most 4096 here) and 0xCB padding).
/// std::nullopt where `text` is not bytecode, has no such section, or its
/// sections cannot be read this far; then `problem`, where given, says
/// what could not be read (empty where nothing was wrong).
struct BytecodeAttrTypeCounts {
  uint64_t attributes;
  uint64_t types;
};
std::optional<BytecodeAttrTypeCounts>
readBytecodeAttrTypeCounts(std::string_view text,
                           std::string *problem = nullptr);

/// Whether `text` starts as MLIR bytecode does ("ML\xEFR").
bool isMlirBytecode(std::string_view text);

/// Writes
///   NAME:LINE:COL: error: MESSAGE
///   EXCERPT
///   CARET
/// for the byte at `offset` of `text` (the contents of the file `name`),
/// in color where `os` is a terminal: at most 60 characters of its line
/// either side (whole UTF-8 characters, no CR; the caret line has a tab
/// where the excerpt has one). LINE and COL count from 1, COL in bytes, as
/// MLIR's diagnostics do. The excerpt, not the whole line (a MiB of
/// brackets, where MLIR's SourceMgr diagnostic handler would print it all).
void reportAtOffset(llvm::StringRef name, llvm::StringRef text,
                    std::size_t offset, llvm::StringRef message,
                    llvm::raw_ostream &os);

/// The byte offset of LINE:COL (from 1, COL in bytes, as MLIR's locations
/// count) in `text`, or std::nullopt where `text` has no such place.
std::optional<std::size_t> offsetOfLineColumn(llvm::StringRef text,
                                              unsigned line, unsigned column);

/// The suffix of the name of the MLIR text printed of bytecode
/// (BytecodeAsText.h). Its nesting limit is kMaxNestingDepth too: the check
/// cannot tell an operation's regions from an attribute's brackets, and
/// regions nested past it cost minutes later (helper-93: 1300 nested
/// `scf.for` from bytecode, 52 s in LLVM's optimizer; 2010, over 120 s).
/// So an attribute or type nested more than 1000 levels deep, which text
/// can write through aliases (Inputs/alias-comment.mlir: 2000), is refused
/// as bytecode, whose printer writes builtin attributes and types in full.
constexpr char kBytecodeTextSuffix[] = " (bytecode as text)";

/// Checks `text`, the contents of the file `name`, with
/// findNestingDeeperThan (kMaxNestingDepth) and findAliasBeyondLimits, or,
/// for MLIR bytecode, readBytecodeAttrTypeCounts (over kMaxBytecodeAttrTypes,
/// or a section table it cannot read: then the error is `NAME: error:
/// ...`, with no place in the file).
/// Beyond a limit, writes to `os` (in color where it is a terminal)
///   NAME:LINE:COL: error: nested deeper than 1000 levels (...)
///   EXCERPT
///   CARET
/// (or "an affine map longer than ...", "alias ... stands for ...") as
/// reportAtOffset does, and returns true; else writes nothing and returns
/// false.
bool reportInputBeyondLimits(llvm::StringRef name, llvm::StringRef text,
                             llvm::raw_ostream &os);

} // namespace kiln::tool

#endif // KILN_TOOLS_COMMON_NESTINGDEPTH_H
