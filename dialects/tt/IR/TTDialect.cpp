//===- TTDialect.cpp - the tt dialect and its types -----------------------===//

#include "dialects/tt/IR/TTOps.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace kiln::tt;

#include "dialects/tt/IR/TTDialect.cpp.inc"
#include "dialects/tt/IR/TTEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/tt/IR/TTTypes.cpp.inc"

void TTDialect::initialize() {
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "dialects/tt/IR/TTOps.cpp.inc"
      >();
}

void TTDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialects/tt/IR/TTTypes.cpp.inc"
      >();
}

Operation *TTDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                          Type type, Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

/// The axis hints on a kernel argument (Triton's specialization puts
/// `tt.divisibility = 16` on pointers and integers it knows are multiples
/// of 16; tl.multiple_of and friends put the same names on values) are
/// claims the lowering relies on: the load and store vector widths follow
/// from them. Each must be a positive integer. kiln's AxisInfo read 0 as
/// "divisible by anything" (gcd(0, n) = n) and -16 as 16, and lowered
/// vadd's loads to 16-byte vector loads on a pointer claimed divisible by 0.
LogicalResult TTDialect::verifyRegionArgAttribute(Operation *op,
                                                  unsigned regionIndex,
                                                  unsigned argIndex,
                                                  NamedAttribute attr) {
  StringRef name = attr.getName().strref();
  if (name != "tt.divisibility" && name != "tt.contiguity" &&
      name != "tt.constancy")
    return success();
  auto value = dyn_cast<IntegerAttr>(attr.getValue());
  if (!value || value.getValue().getSignificantBits() > 63 ||
      value.getValue().getSExtValue() < 1)
    return op->emitOpError() << "argument #" << argIndex << "'s '" << name
                             << "' must be a positive integer, got "
                             << attr.getValue();
  return success();
}

void kiln::tt::registerTTIRDialects(DialectRegistry &registry) {
  // gpu: Triton prints tl.debug_barrier() as gpu.barrier. A registered
  // dialect loads when the parser first meets its prefix, so kernels
  // without a gpu op do not pay for loading it.
  registry.insert<TTDialect, arith::ArithDialect, math::MathDialect,
                  scf::SCFDialect, cf::ControlFlowDialect, ub::UBDialect,
                  LLVM::LLVMDialect, gpu::GPUDialect>();
}

//===----------------------------------------------------------------------===//
// PointerType: `!tt.ptr<T>` or `!tt.ptr<T, AS>`
//===----------------------------------------------------------------------===//

Type PointerType::parse(AsmParser &parser) {
  Type pointee;
  int addressSpace = kGlobalAddressSpace;
  if (parser.parseLess() || parser.parseType(pointee))
    return {};
  if (succeeded(parser.parseOptionalComma())) {
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseInteger(addressSpace))
      return {};
    if (addressSpace < 0) {
      parser.emitError(loc, "pointer address space must be non-negative, got ")
          << addressSpace;
      return {};
    }
  }
  if (parser.parseGreater())
    return {};
  return PointerType::get(pointee, addressSpace);
}

void PointerType::print(AsmPrinter &printer) const {
  printer << "<" << getPointeeType();
  if (getAddressSpace() != kGlobalAddressSpace)
    printer << ", " << getAddressSpace();
  printer << ">";
}

//===----------------------------------------------------------------------===//
// Type helpers
//===----------------------------------------------------------------------===//

Type kiln::tt::getPointeeType(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    if (auto ptr = dyn_cast<PointerType>(tensor.getElementType()))
      return tensor.clone(ptr.getPointeeType());
    return type;
  }
  if (auto ptr = dyn_cast<PointerType>(type))
    return ptr.getPointeeType();
  return type;
}

Type kiln::tt::getI1SameShape(Type type) {
  auto i1 = IntegerType::get(type.getContext(), 1);
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.clone(i1);
  return i1;
}

Type kiln::tt::getBlockPtrBaseType(Type type) {
  auto ptr = dyn_cast<PointerType>(type);
  if (!ptr)
    return type;
  auto block = dyn_cast<RankedTensorType>(ptr.getPointeeType());
  if (!block)
    return type;
  return PointerType::get(block.getElementType(), ptr.getAddressSpace());
}

bool kiln::tt::isBlockPointer(Type type) {
  auto ptr = dyn_cast<PointerType>(type);
  return ptr && isa<RankedTensorType>(ptr.getPointeeType());
}

unsigned kiln::tt::getScalarBitWidth(Type type) {
  if (isa<PointerType>(type))
    return 64;
  if (type.isIntOrFloat())
    return type.getIntOrFloatBitWidth();
  return 0;
}
