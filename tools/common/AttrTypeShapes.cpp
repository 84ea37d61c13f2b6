//===- AttrTypeShapes.cpp - attributes and types too deep or too large ---===//

#include "tools/common/AttrTypeShapes.h"

#include "tools/common/NestingDepth.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <optional>
#include <string>

namespace kiln::tool {

namespace {
/// The nesting depth of an attribute or type and its size written out in
/// full (its sub-elements at every depth, counted once per use, saturating
/// at kWrittenOutSizeCap).
struct Shape {
  unsigned depth = 0;
  uint64_t size = 0;
};

/// Measures attributes and types without recursion (a chain of aliases
/// 100,000 deep would overflow the stack of a recursive walk), each
/// distinct one once.
class ShapeMeter {
public:
  Shape measure(mlir::Attribute attr) {
    return measure(attr.getAsOpaquePointer(), /*isType=*/false);
  }
  Shape measure(mlir::Type type) {
    return measure(type.getAsOpaquePointer(), /*isType=*/true);
  }

private:
  using Node = std::pair<const void *, bool>;
  struct Frame {
    Node node;
    llvm::SmallVector<Node, 4> children;
    unsigned next = 0;
  };

  void push(Node node) {
    Frame frame{node, {}, 0};
    auto addAttr = [&](mlir::Attribute child) {
      if (child)
        frame.children.push_back({child.getAsOpaquePointer(), false});
    };
    auto addType = [&](mlir::Type child) {
      if (child)
        frame.children.push_back({child.getAsOpaquePointer(), true});
    };
    if (node.second)
      mlir::Type::getFromOpaquePointer(node.first)
          .walkImmediateSubElements(addAttr, addType);
    else
      mlir::Attribute::getFromOpaquePointer(node.first)
          .walkImmediateSubElements(addAttr, addType);
    inProgress.insert(node.first);
    stack.push_back(std::move(frame));
  }

  Shape measure(const void *root, bool isType) {
    if (auto it = done.find(root); it != done.end())
      return it->second;
    push({root, isType});
    while (!stack.empty()) {
      size_t top = stack.size() - 1;
      if (stack[top].next < stack[top].children.size()) {
        Node child = stack[top].children[stack[top].next++];
        // A mutable (recursive) type met again on its own path is a leaf.
        if (!done.count(child.first) && !inProgress.count(child.first))
          push(child);
        continue;
      }
      // A type with no parts of its own (f32, i64) adds no part: an
      // integer attribute is one part, not two (helper-89: an array of
      // 600,000 integers counted 1,200,038).
      bool leafType = stack[top].node.second && stack[top].children.empty();
      Shape shape{1, leafType ? uint64_t(0) : uint64_t(1)};
      for (Node child : stack[top].children) {
        auto it = done.find(child.first);
        if (it == done.end())
          continue;
        shape.depth = std::max(shape.depth, it->second.depth + 1);
        shape.size = std::min(kWrittenOutSizeCap, shape.size + it->second.size);
      }
      done[stack[top].node.first] = shape;
      inProgress.erase(stack[top].node.first);
      stack.pop_back();
    }
    return done[root];
  }

  llvm::DenseMap<const void *, Shape> done;
  llvm::DenseSet<const void *> inProgress;
  llvm::SmallVector<Frame, 16> stack;
};

} // namespace

bool checkAttributeAndTypeShapes(mlir::ModuleOp module,
                                 llvm::StringRef sourceName,
                                 llvm::StringRef sourceText,
                                 llvm::raw_ostream &os) {
  ShapeMeter meter;
  bool ok = true;
  module->walk([&](mlir::Operation *op) {
    // The first of them over a limit.
    std::optional<Shape> worst;
    bool inLocation = false;
    auto consider = [&](Shape shape, bool location) {
      if (!worst && (shape.depth > kMaxStructureDepth ||
                     shape.size > kMaxWrittenOutSize)) {
        worst = shape;
        inLocation = location;
      }
    };
    consider(meter.measure(op->getAttrDictionary()), false);
    consider(meter.measure(mlir::Attribute(op->getLoc())), true);
    for (mlir::Type type : op->getResultTypes())
      consider(meter.measure(type), false);
    for (mlir::Region &region : op->getRegions())
      for (mlir::Block &block : region)
        for (mlir::BlockArgument argument : block.getArguments()) {
          consider(meter.measure(argument.getType()), false);
          consider(meter.measure(mlir::Attribute(argument.getLoc())), true);
        }
    if (!worst)
      return mlir::WalkResult::advance();
    std::string message;
    llvm::raw_string_ostream out(message);
    out << "'" << op->getName() << "' has an attribute or type";
    if (inLocation)
      out << " (its location)";
    if (worst->depth > kMaxStructureDepth)
      out << " nested " << worst->depth << " levels deep";
    else
      out << " of "
          << (worst->size >= kWrittenOutSizeCap ? "over 2^40"
                                                : std::to_string(worst->size))
          << " parts written out in full";
    out << ": kiln refuses more than " << kMaxStructureDepth << " levels or "
        << kMaxWrittenOutSize
        << " parts (aliases, or bytecode entries, that refer to each other "
           "reach such sizes from a few lines of text or bytes)";
    // At the operation's place in the source, with an excerpt of its line
    // (helper-90: MLIR's diagnostic printed the whole of a line of 1.1
    // million integers); not at a location that is itself too deep to
    // print.
    std::optional<std::size_t> offset;
    if (auto fileLoc = llvm::dyn_cast<mlir::FileLineColLoc>(op->getLoc());
        fileLoc && !inLocation && !sourceName.empty() &&
        fileLoc.getFilename() == sourceName)
      offset = offsetOfLineColumn(sourceText, fileLoc.getLine(),
                                  fileLoc.getColumn());
    if (offset)
      reportAtOffset(sourceName, sourceText, *offset, message, os);
    else
      mlir::emitError(inLocation ? mlir::Location(mlir::UnknownLoc::get(
                                       module.getContext()))
                                 : op->getLoc())
          << message;
    ok = false;
    return mlir::WalkResult::interrupt();
  });
  return ok;
}

} // namespace kiln::tool
