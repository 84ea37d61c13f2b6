//===- KernelInfo.cpp - kernel signature and metadata.json ----------------===//

#include "tools/kiln/KernelInfo.h"

#include "dialects/tt/IR/TTTypes.h"
#include "tools/common/AttrTypeShapes.h"
#include "tools/common/NestingDepth.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/SourceMgr.h"

#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

namespace kiln::tool {

mlir::OwningOpRef<mlir::ModuleOp>
parseKernelSource(llvm::SourceMgr &sourceMgr, mlir::MLIRContext &context) {
  // Input nested deeper than the parser should take: refused at the
  // bracket that goes past the limit (NestingDepth.h).
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  if (reportInputBeyondLimits(buffer->getBufferIdentifier(),
                              buffer->getBuffer(), llvm::errs()))
    return nullptr;
  mlir::ParserConfig config(&context, /*verifyAfterParse=*/false);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, config);
  if (!module)
    return nullptr;
  if (!checkAttributeAndTypeShapes(*module, buffer->getBufferIdentifier(),
                                   buffer->getBuffer(), llvm::errs()))
    return nullptr;
  bool unknown = false;
  module->walk([&](mlir::Operation *op) {
    if (op->isRegistered())
      return mlir::WalkResult::advance();
    op->emitError() << "unknown operation '" << op->getName()
                    << "': no loaded dialect defines it (a misspelled op, or "
                       "one kiln does not support)";
    unknown = true;
    return mlir::WalkResult::interrupt();
  });
  if (unknown)
    return nullptr;
  bool anyFunction = false;
  module->walk([&](mlir::FunctionOpInterface) {
    anyFunction = true;
    return mlir::WalkResult::interrupt();
  });
  if (!anyFunction) {
    module->emitError() << "no kernel: the input has no function (a tt.func "
                           "for TTIR, or an llvm.func for the LLVM dialect)";
    return nullptr;
  }
  if (mlir::failed(mlir::verify(*module)))
    return nullptr;
  return module;
}
namespace {

/// The kiln-kernel/1 spelling of a scalar type, or std::nullopt.
std::optional<std::string> scalarSpelling(mlir::Type type) {
  if (auto intType = mlir::dyn_cast<mlir::IntegerType>(type)) {
    unsigned width = intType.getWidth();
    if (intType.isSignless() &&
        (width == 1 || width == 8 || width == 16 || width == 32 || width == 64))
      return "i" + std::to_string(width);
    return std::nullopt;
  }
  if (type.isF16())
    return std::string("f16");
  if (type.isBF16())
    return std::string("bf16");
  if (type.isF32())
    return std::string("f32");
  if (type.isF64())
    return std::string("f64");
  return std::nullopt;
}

std::string printType(mlir::Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

/// Whether `text` is a type kiln-kernel/1 accepts ("ptr<T>" or a scalar).
bool isValidArgType(llvm::StringRef text) {
  if (text.starts_with("ptr<") && text.ends_with(">") && text.size() > 5)
    return true;
  return llvm::is_contained(
      {"i1", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64"}, text);
}

} // namespace

std::string argNameFromLoc(mlir::Location loc, unsigned index) {
  if (auto nameLoc = mlir::dyn_cast<mlir::NameLoc>(loc))
    return nameLoc.getName().str();
  if (auto fused = mlir::dyn_cast<mlir::FusedLoc>(loc))
    for (mlir::Location inner : fused.getLocations())
      if (auto nameLoc = mlir::dyn_cast<mlir::NameLoc>(inner))
        return nameLoc.getName().str();
  return "arg" + std::to_string(index);
}

mlir::FailureOr<std::vector<KernelArg>>
signatureFromTTFunc(mlir::FunctionOpInterface func) {
  std::vector<KernelArg> args;
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
    mlir::BlockArgument arg = func.getArgument(i);
    mlir::Type type = arg.getType();
    KernelArg entry{argNameFromLoc(arg.getLoc(), i), ""};
    if (auto ptr = mlir::dyn_cast<kiln::tt::PointerType>(type)) {
      mlir::Type pointee = ptr.getPointeeType();
      if (mlir::isa<mlir::ShapedType>(pointee))
        return func.emitError("argument ")
               << i << " (" << entry.name << ") of @" << func.getName()
               << " is a block pointer " << type
               << ", which a kernel signature cannot describe";
      entry.type =
          "ptr<" + scalarSpelling(pointee).value_or(printType(pointee)) + ">";
    } else if (std::optional<std::string> scalar = scalarSpelling(type)) {
      entry.type = *scalar;
    } else {
      return func.emitError("argument ")
             << i << " (" << entry.name << ") of @" << func.getName()
             << " has type " << type
             << ", which a kernel signature cannot describe (expected "
                "!tt.ptr<T>, i1, i8, i16, i32, i64, f16, bf16, f32 or f64)";
    }
    args.push_back(std::move(entry));
  }
  return args;
}

mlir::FailureOr<std::vector<KernelArg>>
signatureFromLLVMFunc(mlir::LLVM::LLVMFuncOp func) {
  std::vector<KernelArg> args;
  unsigned numArgs = func.getNumArguments();
  auto argName = [&](unsigned i) {
    return func.isExternal() ? "arg" + std::to_string(i)
                             : argNameFromLoc(func.getArgument(i).getLoc(), i);
  };

  if (auto types = func->getAttrOfType<mlir::ArrayAttr>("kiln.arg_types")) {
    if (types.size() > numArgs)
      return func.emitError("kiln.arg_types of @")
             << func.getName() << " lists " << types.size() << " types for "
             << numArgs << " arguments";
    for (auto [i, attr] : llvm::enumerate(types)) {
      auto text = mlir::dyn_cast<mlir::StringAttr>(attr);
      if (!text || !isValidArgType(text.getValue()))
        return func.emitError("kiln.arg_types[")
               << i << "] of @" << func.getName() << " is " << attr
               << "; expected a string \"ptr<T>\", \"i1\", \"i8\", \"i16\", "
                  "\"i32\", \"i64\", \"f16\", \"bf16\", \"f32\" or \"f64\"";
      args.push_back({argName(i), text.getValue().str()});
    }
    // The launcher passes the remaining arguments as null pointers.
    for (unsigned i = types.size(); i < numArgs; ++i)
      if (!mlir::isa<mlir::LLVM::LLVMPointerType>(func.getArgumentTypes()[i]))
        return func.emitError("argument ")
               << i << " of @" << func.getName()
               << " is not covered by kiln.arg_types and is not a pointer ("
               << func.getArgumentTypes()[i]
               << "); only trailing pointers may be left out";
    return args;
  }

  for (unsigned i = 0; i < numArgs; ++i) {
    mlir::Type type = func.getArgumentTypes()[i];
    KernelArg entry{argName(i), ""};
    if (mlir::isa<mlir::LLVM::LLVMPointerType>(type))
      entry.type = "ptr<i8>";
    else if (std::optional<std::string> scalar = scalarSpelling(type))
      entry.type = *scalar;
    else
      return func.emitError("argument ")
             << i << " (" << entry.name << ") of @" << func.getName()
             << " has type " << type
             << ", which a kernel signature cannot describe (expected "
                "!llvm.ptr, i1, i8, i16, i32, i64, f16, bf16, f32 or f64)";
    args.push_back(std::move(entry));
  }
  return args;
}

std::string toMetadataJson(const KernelMetadata &m) {
  using json = nlohmann::ordered_json;
  json signature = json::array();
  for (const KernelArg &arg : m.signature)
    signature.push_back({{"name", arg.name}, {"type", arg.type}});
  json doc = {
      {"format", "kiln-kernel/1"},
      {"kernel", m.kernel},
      {"target",
       {{"backend", m.backend}, {"arch", m.arch}, {"warp_size", m.warpSize}}},
      {"num_warps", m.numWarps},
      {"num_stages", m.numStages},
      {"num_ctas", m.numCtas},
      {"shared_bytes", m.sharedBytes},
      {"signature", signature},
      {"binary",
       {{"file", m.binaryFile},
        {"size", m.binarySize},
        {"sha256", m.binarySha256}}},
      {"job_key", m.jobKey},
      {"extra_args", {{"trailing_null_pointers", m.trailingNullPointers}}},
      {"registers", m.registers},
      {"spills", {{"stores", m.spillStoreBytes}, {"loads", m.spillLoadBytes}}},
  };
  if (m.codeObject.wavefrontSize >= 0)
    doc["code_object"] = {{"wavefront_size", m.codeObject.wavefrontSize},
                          {"vgprs", m.codeObject.vgprs},
                          {"sgprs", m.codeObject.sgprs},
                          {"kernarg_bytes", m.codeObject.kernargBytes},
                          {"lds_bytes", m.codeObject.ldsBytes},
                          {"scratch_bytes", m.codeObject.scratchBytes}};
  return doc.dump(2) + "\n";
}

} // namespace kiln::tool
