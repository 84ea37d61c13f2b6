//===- NestingDepth.h - input nested deeper than the parser should take -*- C++ -*-===//
//
// MLIR's parser recurses once per nesting level of its input (an array
// attribute in an array attribute, a region in an operation's region, a
// type parameter in a type), with no limit of its own; and some of that
// work grows with the square of the depth. Measured on the build machine
// with `kiln compile` (2026-12-04): 1,000,000 nested `[` overflowed the
// main thread's stack (a SIGSEGV: the stack grows only until it meets the
// mappings below it, whatever `ulimit -s` says), and 100,000 nested
// `!tt.ptr<` took 45 s, 30,000 nested `scf.if` regions 34 s. Real kernels
// nest at most 9 deep (the corpus and kiln's tests). The command-line
// compiler refuses input nested deeper than kMaxNestingDepth before it
// parses it.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_COMMON_NESTINGDEPTH_H
#define KILN_TOOLS_COMMON_NESTINGDEPTH_H

#include <cstddef>
#include <optional>
#include <string_view>

namespace kiln::tool {

/// The deepest nesting kiln's parser is given: over 100 times what real
/// kernels use, and little enough that parsing it takes milliseconds and
/// well under a MiB of stack per kind of construct.
constexpr unsigned kMaxNestingDepth = 1000;

/// Scans MLIR text for brackets, braces, parentheses and angle brackets
/// nested, all kinds together, deeper than `limit`: returns the byte offset
/// of the first opening one past it, or std::nullopt. A run of minus signs
/// with only whitespace between them (unary minus in an affine expression)
/// counts one level per sign on top. String literals (with their
/// backslash escapes) and `//` comments are skipped; the `>` of `->` and
/// of an integer set's `>=` closes nothing. An unmatched closing one
/// counts down to no lower than 0: in input the parser takes, every
/// closing one closes a level it entered, so input nested deeper than the
/// limit cannot pass by closing more than it opened.
std::optional<std::size_t> findNestingDeeperThan(std::string_view text,
                                                 unsigned limit);

} // namespace kiln::tool

#endif // KILN_TOOLS_COMMON_NESTINGDEPTH_H
