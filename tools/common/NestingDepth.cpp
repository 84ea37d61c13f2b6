//===- NestingDepth.cpp - input nested deeper than the parser should take -===//

#include "tools/common/NestingDepth.h"

namespace kiln::tool {

std::optional<std::size_t> findNestingDeeperThan(std::string_view text,
                                                 unsigned limit) {
  unsigned depth = 0;
  const std::size_t size = text.size();
  for (std::size_t i = 0; i < size; ++i) {
    switch (text[i]) {
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
    case '(':
    case '[':
    case '{':
    case '<':
      if (++depth > limit)
        return i;
      break;
    case '>':
      if (i > 0 && text[i - 1] == '-')
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
