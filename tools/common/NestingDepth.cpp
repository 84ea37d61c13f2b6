//===- NestingDepth.cpp - input nested deeper than the parser should take -===//

#include "tools/common/NestingDepth.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <string>

namespace kiln::tool {

namespace {
bool isIdentifierChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '$' || c == '.';
}

/// What ends a string literal besides its quote, in MLIR's lexer.
bool endsString(char c) { return c == '\n' || c == '\v' || c == '\f'; }

/// What ends a `//` comment, in MLIR's lexer.
bool endsComment(char c) { return c == '\n' || c == '\r'; }

/// A character of an alias name after its `#` or `!`, in MLIR's lexer
/// (lexPrefixedIdentifier): `[a-zA-Z0-9._$-]` (helper-90: `#a-1`).
bool isAliasNameChar(char c) { return isIdentifierChar(c) || c == '-'; }

/// Whitespace to MLIR's lexer; a NUL before the end of the buffer is
/// whitespace to it too (helper-90).
bool isWhitespace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\0';
}

/// The index of the first character from `i` that is not whitespace or part
/// of a `//` comment, as MLIR's lexer skips them.
std::size_t skipWhitespace(std::string_view text, std::size_t i) {
  while (i < text.size()) {
    char c = text[i];
    if (isWhitespace(c)) {
      ++i;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i < text.size() && !endsComment(text[i]))
        ++i;
    } else {
      break;
    }
  }
  return i;
}

/// Reads MLIR bytecode's prefixed variable-width integers
/// (mlir/Bytecode/Encoding.h): the number of trailing zero bits of the
/// first byte, plus one, is the number of bytes (a first byte of 0: 9 bytes,
/// the value in the 8 after it), little-endian, shifted right by that
/// number.
class BytecodeCursor {
public:
  explicit BytecodeCursor(std::string_view bytes) : bytes(bytes) {}
  std::size_t offset() const { return at; }
  bool atEnd() const { return at >= bytes.size(); }
  std::optional<uint8_t> byte() {
    if (at >= bytes.size())
      return std::nullopt;
    return static_cast<uint8_t>(bytes[at++]);
  }
  std::optional<uint64_t> varInt() {
    std::optional<uint8_t> first = byte();
    if (!first)
      return std::nullopt;
    if (*first == 0) {
      if (bytes.size() - at < 8)
        return std::nullopt;
      uint64_t value = 0;
      for (unsigned i = 0; i < 8; ++i)
        value |= uint64_t(static_cast<uint8_t>(bytes[at + i])) << (8 * i);
      at += 8;
      return value;
    }
    unsigned count = 1;
    while (!((*first >> (count - 1)) & 1))
      ++count;
    if (bytes.size() - at < count - 1)
      return std::nullopt;
    uint64_t value = *first;
    for (unsigned i = 1; i < count; ++i)
      value |= uint64_t(static_cast<uint8_t>(bytes[at + i - 1])) << (8 * i);
    at += count - 1;
    return value >> count;
  }
  bool skip(uint64_t n) {
    if (n > bytes.size() - at)
      return false;
    at += n;
    return true;
  }

private:
  std::string_view bytes;
  std::size_t at = 0;
};
} // namespace

bool isMlirBytecode(std::string_view text) {
  return text.size() >= 4 &&
         text.substr(0, 4) == std::string_view("ML\xEFR", 4);
}

std::optional<BytecodeAttrTypeCounts>
readBytecodeAttrTypeCounts(std::string_view text, std::string *problem) {
  auto unreadable = [&](const char *what) {
    if (problem)
      *problem = what;
    return std::nullopt;
  };
  if (problem)
    problem->clear();
  if (!isMlirBytecode(text))
    return std::nullopt;
  BytecodeCursor cursor(text);
  cursor.skip(4);
  if (!cursor.varInt())
    return unreadable("its version is cut short");
  std::size_t producerEnd = text.find('\0', cursor.offset());
  if (producerEnd == std::string_view::npos ||
      !cursor.skip(producerEnd + 1 - cursor.offset()))
    return unreadable("its producer string is not ended");
  constexpr uint8_t kAttrTypeOffsetSection = 3;
  constexpr uint8_t kPadding = 0xCB;
  while (!cursor.atEnd()) {
    std::optional<uint8_t> idAndAligned = cursor.byte();
    std::optional<uint64_t> length = cursor.varInt();
    if (!idAndAligned || !length)
      return unreadable("a section header is cut short");
    if (*idAndAligned & 0x80) {
      // Aligned from the start of the buffer, as the writer aligns it.
      std::optional<uint64_t> alignment = cursor.varInt();
      if (!alignment || *alignment == 0 || *alignment > 4096 ||
          (*alignment & (*alignment - 1)) != 0)
        return unreadable("a section's alignment is not a power of two up "
                          "to 4096");
      while (cursor.offset() % *alignment != 0)
        if (cursor.byte() != kPadding)
          return unreadable("a section's padding is not 0xCB bytes");
    }
    if ((*idAndAligned & 0x7F) == kAttrTypeOffsetSection) {
      BytecodeCursor section(text.substr(cursor.offset(), *length));
      std::optional<uint64_t> attributes = section.varInt();
      std::optional<uint64_t> types = section.varInt();
      if (!attributes || !types)
        return unreadable("its attribute/type offset section is cut short");
      return BytecodeAttrTypeCounts{*attributes, *types};
    }
    if (!cursor.skip(*length))
      return unreadable("a section is longer than the file");
  }
  return std::nullopt;
}

std::optional<std::size_t> findNestingDeeperThan(std::string_view text,
                                                 unsigned limit,
                                                 InputProblem *problem) {
  if (problem)
    *problem = InputProblem::Deep;
  // Bytecode: its raw bytes are no brackets (helper-89: f16 constants of
  // 1.0, `00 3C`, were counted as a thousand `<`).
  if (isMlirBytecode(text))
    return std::nullopt;
  unsigned depth = 0;
  // The affine map or integer set being read: where it starts, and the
  // depth inside its `<`.
  std::size_t affineStart = std::string_view::npos;
  unsigned affineDepth = 0;
  // Minus signs in a row with only whitespace between them: unary minus,
  // which MLIR's affine expression parser takes one recursion per sign
  // (helper-87: `(d0) -> (- - - ... d0)` with a million signs overflowed
  // the stack). Each counts as a level until the run ends.
  unsigned minusRun = 0;
  const std::size_t size = text.size();
  for (std::size_t i = 0; i < size; ++i) {
    char c = text[i];
    bool comment = c == '/' && i + 1 < size && text[i + 1] == '/';
    // A comment is whitespace to MLIR's lexer: it does not end a run of
    // minus signs (helper-88: `-//` a million times overflowed the stack).
    if (c != '-' && !isWhitespace(c) && !comment)
      minusRun = 0;
    // An affine map or integer set longer than kMaxAffineText: MLIR
    // simplifies its expressions in time that grows with the square of
    // their length (helper-88: 200,000 terms of `d0 * s0 * s0 ...`, 176 s).
    if (affineStart != std::string_view::npos &&
        i - affineStart > kMaxAffineText) {
      if (problem)
        *problem = InputProblem::LongAffine;
      return affineStart;
    }
    switch (c) {
    case '"':
      // To the closing quote; an escape takes the character after it. LF,
      // VT and FF end it too, as in MLIR's lexer (its error there), not CR
      // (helper-89: a CR in a string put the count out of step).
      for (++i; i < size && text[i] != '"' && !endsString(text[i]); ++i)
        if (text[i] == '\\')
          ++i;
      break;
    case '/':
      // To the end of the line: a CR ends it too, as in MLIR's lexer
      // (helper-88: `//` then CR, and the rest of the file went uncounted).
      if (comment) {
        std::size_t end = text.find_first_of("\n\r", i);
        i = end == std::string_view::npos ? size : end;
      }
      break;
    case 'a':
      if (affineStart == std::string_view::npos &&
          (i == 0 || !isIdentifierChar(text[i - 1])) &&
          (text.substr(i, 10) == "affine_map" ||
           text.substr(i, 10) == "affine_set")) {
        // Whitespace or comments may stand before its `<` (helper-90:
        // `affine_map <` went unmeasured).
        std::size_t open = skipWhitespace(text, i + 10);
        if (open < size && text[open] == '<') {
          affineStart = i;
          affineDepth = depth + 1;
        }
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
      if (depth < affineDepth)
        affineStart = std::string_view::npos;
      break;
    default:
      break;
    }
  }
  return std::nullopt;
}

namespace {
/// The characters of its line either side of the error's column that the
/// nesting-depth error shows.
constexpr std::size_t kExcerpt = 60;
} // namespace

std::optional<AliasBeyondLimits> findAliasBeyondLimits(std::string_view text) {
  if (isMlirBytecode(text))
    return std::nullopt;
  struct Shape {
    uint64_t size;
    unsigned depth;
  };
  llvm::StringMap<Shape> aliases;
  const std::size_t size = text.size();
  std::size_t lineStart = 0;
  while (lineStart < size) {
    std::size_t i = lineStart;
    while (i < size && (text[i] == ' ' || text[i] == '\t'))
      ++i;
    std::size_t next = text.find_first_of("\n\r", i);
    next = next == std::string_view::npos ? size : next + 1;
    // `#name =` or `!name =`: a definition.
    std::size_t nameStart = i;
    std::size_t j = i + 1;
    if (i < size && (text[i] == '#' || text[i] == '!')) {
      while (j < size && isAliasNameChar(text[j]))
        ++j;
    }
    std::size_t eq = j;
    while (eq < size && (text[eq] == ' ' || text[eq] == '\t'))
      ++eq;
    if (j == i + 1 || j >= size || eq >= size || text[eq] != '=' ||
        (eq + 1 < size && text[eq + 1] == '=')) {
      lineStart = next;
      continue;
    }
    // The body: to the end of the line on which its brackets close.
    Shape shape{1, 1};
    unsigned depth = 0;
    std::size_t k = eq + 1;
    for (; k < size; ++k) {
      char c = text[k];
      if (c == '"') {
        for (++k; k < size && text[k] != '"' && !endsString(text[k]); ++k)
          if (text[k] == '\\')
            ++k;
      } else if (c == '/' && k + 1 < size && text[k + 1] == '/') {
        // A comment: its brackets and names are not the definition's
        // (helper-89: an open bracket in one ran the body on).
        while (k + 1 < size && !endsComment(text[k + 1]))
          ++k;
      } else if (c == '(' || c == '[' || c == '{' || c == '<') {
        ++depth;
      } else if ((c == ')' || c == ']' || c == '}' ||
                  (c == '>' && text[k - 1] != '-')) &&
                 depth > 0) {
        --depth;
      } else if (endsComment(c) && depth == 0) {
        break;
      } else if ((c == '#' || c == '!') && k + 1 < size &&
                 isAliasNameChar(text[k + 1])) {
        std::size_t end = k + 1;
        while (end < size && isAliasNameChar(text[end]))
          ++end;
        // Another definition on the same line, at the top level: this
        // body ends before it (helper-90: `#a0 = [0] #a1 = [#a0, #a0] ...`
        // on one line went unmeasured).
        std::size_t after = end;
        while (after < size && (text[after] == ' ' || text[after] == '\t'))
          ++after;
        if (depth == 0 && after < size && text[after] == '=' &&
            !(after + 1 < size && text[after + 1] == '=')) {
          --k;
          break;
        }
        auto it = aliases.find(llvm::StringRef(text.data() + k, end - k));
        if (it != aliases.end()) {
          shape.size =
              std::min(kWrittenOutSizeCap, shape.size + it->second.size);
          shape.depth = std::max(shape.depth, it->second.depth + 1);
        }
        k = end - 1;
      }
    }
    if (shape.size > kMaxWrittenOutSize || shape.depth > kMaxStructureDepth)
      return AliasBeyondLimits{nameStart, shape.size, shape.depth};
    aliases[llvm::StringRef(text.data() + nameStart, j - nameStart)] = shape;
    lineStart = k < size ? k + 1 : size;
  }
  return std::nullopt;
}

bool reportInputBeyondLimits(llvm::StringRef name, llvm::StringRef text,
                             llvm::raw_ostream &os) {
  std::string_view view(text.data(), text.size());
  if (isMlirBytecode(view)) {
    std::string unreadable;
    std::optional<BytecodeAttrTypeCounts> counts =
        readBytecodeAttrTypeCounts(view, &unreadable);
    if (!unreadable.empty()) {
      llvm::WithColor::error(os, name)
          << "MLIR bytecode whose sections kiln cannot read (" << unreadable
          << "): kiln reads the counts bytecode declares before MLIR's "
             "reader, which trusts them\n";
      return true;
    }
    // Each below the limit, and their sum: no overflow.
    if (!counts ||
        (counts->attributes <= kMaxBytecodeAttrTypes &&
         counts->types <= kMaxBytecodeAttrTypes &&
         counts->attributes + counts->types <= kMaxBytecodeAttrTypes))
      return false;
    llvm::WithColor::error(os, name)
        << "MLIR bytecode that declares " << counts->attributes
        << " attributes and " << counts->types
        << " types: kiln reads bytecode of at most " << kMaxBytecodeAttrTypes
        << " attributes and types together, as MLIR's bytecode reader takes "
           "time that grows with the square of the length of a chain of them "
           "(real kernels have a few hundred)\n";
    return true;
  }
  InputProblem problem = InputProblem::Deep;
  std::optional<std::size_t> found =
      findNestingDeeperThan(view, kMaxNestingDepth, &problem);
  std::string message;
  llvm::raw_string_ostream out(message);
  if (found && problem == InputProblem::Deep) {
    out << "nested deeper than " << kMaxNestingDepth
        << " levels (brackets, braces, parentheses, angle brackets and unary "
           "minus signs together): kiln refuses such input before parsing "
           "it, as MLIR's parser recurses once per level (real kernels nest "
           "at most about 10 deep)";
  } else if (found) {
    out << "an affine map or integer set longer than " << kMaxAffineText
        << " bytes: kiln refuses it before parsing, as MLIR simplifies its "
           "expressions in time that grows with the square of their length";
  } else if (std::optional<AliasBeyondLimits> alias =
                 findAliasBeyondLimits(view)) {
    found = alias->offset;
    llvm::StringRef aliasName =
        text.substr(alias->offset).take_while([](char c) {
          return c == '#' || c == '!' || isAliasNameChar(c);
        });
    out << "alias '" << aliasName << "' stands for ";
    if (alias->size > kMaxWrittenOutSize)
      out << (alias->size >= kWrittenOutSizeCap ? std::string("over 2^40")
                                                : std::to_string(alias->size))
          << " parts written out in full";
    else
      out << alias->depth << " levels of aliases";
    out << " (aliases that refer to others): kiln refuses more than "
        << kMaxWrittenOutSize << " parts or " << kMaxStructureDepth
        << " levels before parsing, as MLIR writes such attributes and types "
           "out in full in messages and output";
  } else {
    return false;
  }
  reportAtOffset(name, text, *found, message, os);
  return true;
}

std::optional<std::size_t> offsetOfLineColumn(llvm::StringRef text,
                                              unsigned line, unsigned column) {
  if (line == 0 || column == 0)
    return std::nullopt;
  std::size_t lineStart = 0;
  for (unsigned l = 1; l < line; ++l) {
    lineStart = text.find('\n', lineStart);
    if (lineStart == llvm::StringRef::npos)
      return std::nullopt;
    ++lineStart;
  }
  std::size_t lineEnd = std::min(text.find('\n', lineStart), text.size());
  if (column - 1 > lineEnd - lineStart)
    return std::nullopt;
  return lineStart + column - 1;
}

void reportAtOffset(llvm::StringRef name, llvm::StringRef text,
                    std::size_t offset, llvm::StringRef message,
                    llvm::raw_ostream &os) {
  offset = std::min(offset, text.size());
  llvm::StringRef before = text.take_front(offset);
  std::size_t line = before.count('\n') + 1;
  std::size_t lineStart = before.rfind('\n');
  lineStart = lineStart == llvm::StringRef::npos ? 0 : lineStart + 1;
  std::size_t column = offset - lineStart + 1;
  std::size_t lineEnd = std::min(text.find('\n', offset), text.size());
  if (lineEnd > lineStart && text[lineEnd - 1] == '\r')
    --lineEnd; // CRLF
  std::size_t from =
      std::max(lineStart, offset - std::min<std::size_t>(offset, kExcerpt));
  std::size_t to = std::max(std::min(lineEnd, offset + kExcerpt), offset + 1);
  // Whole UTF-8 characters only (no continuation byte at either end).
  auto continuation = [&](std::size_t at) {
    return at < text.size() &&
           (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80;
  };
  while (from < offset && continuation(from))
    ++from;
  while (to > offset + 1 && continuation(to))
    --to;
  // Other CRs in the excerpt (a line MLIR's lexer broke at CR) as spaces.
  std::string excerpt = text.slice(from, to).str();
  std::replace(excerpt.begin(), excerpt.end(), '\r', ' ');
  // The caret under the place: a tab where the excerpt has one, a space
  // per other character.
  std::string caret;
  for (std::size_t at = from; at < offset; ++at)
    if (text[at] == '\t')
      caret += '\t';
    else if (!continuation(at))
      caret += ' ';
  caret += '^';
  std::string where;
  llvm::raw_string_ostream(where) << name << ":" << line << ":" << column;
  llvm::WithColor::error(os, where) << message << "\n"
                                    << excerpt << "\n"
                                    << caret << "\n";
}

} // namespace kiln::tool
