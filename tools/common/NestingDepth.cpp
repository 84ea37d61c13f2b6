//===- NestingDepth.cpp - input nested deeper than the parser should take -===//

#include "tools/common/NestingDepth.h"

namespace kiln::tool {

std::optional<std::size_t> findNestingDeeperThan(std::string_view text,
                                                 unsigned limit) {
  unsigned depth = 0;
  // Minus signs in a row with only whitespace between them: unary minus,
  // which MLIR's affine expression parser takes one recursion per sign
  // (helper-87: `(d0) -> (- - - ... d0)` with a million signs overflowed
  // the stack). Each counts as a level until the run ends.
  unsigned minusRun = 0;
  const std::size_t size = text.size();
  for (std::size_t i = 0; i < size; ++i) {
    char c = text[i];
    if (c != '-' && c != ' ' && c != '\t' && c != '\n' && c != '\r')
      minusRun = 0;
    switch (c) {
    case '"':
      // To the closing quote; an escape takes the character after it.
      for (++i; i < size && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
      break;
    case '/':
      if (i + 1 < size && text[i + 1] == '/') {
        std::size_t end = text.find('\n', i);
        i = end == std::string_view::npos ? size : end;
      }
      break;
    case '-':
      if (i + 1 < size && text[i + 1] == '>') {
        ++i; // `->`: its `>` closes nothing
        minusRun = 0;
        break;
      }
      if (depth + ++minusRun > limit)
        return i;
      break;
    case '(':
    case '[':
    case '{':
    case '<':
      if (++depth + minusRun > limit)
        return i;
      break;
    case '>':
      // `>=` compares (an integer set's constraint): it closes nothing
      // (helper-87 lowered the count with 1200 of them per 900 levels).
      if (i + 1 < size && text[i + 1] == '=')
        break;
      [[fallthrough]];
    case ')':
    case ']':
    case '}':
      if (depth > 0)
        --depth;
      break;
    default:
      break;
    }
  }
  return std::nullopt;
}

} // namespace kiln::tool
