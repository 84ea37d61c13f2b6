//===- TTUpcastF8DotOperands.cpp - f8 dot operands to f16 -----------------===//
//
// tt.dot on f8E4M3FN / f8E5M2 operands runs on the f16 tensor-core paths:
// both formats convert to f16 without rounding (see Passes.td), so the
// operands are upcast with tt.fp_to_fp before layouts are assigned and the
// dot is an ordinary f16 dot from then on. kgpu-pipeline-dot-loops looks
// through the upcast: a K loop whose f8 A and B are K-contiguous keeps the
// f8 bytes in its slots and, on sm_90a, multiplies them with wgmma's .e4m3
// / .e5m2 forms (elsewhere its local_dot upcasts the fragments it reads).
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "dialects/tt/IR/TTOps.h"

#include "mlir/IR/Builders.h"

namespace kiln {
#define GEN_PASS_DEF_TTUPCASTF8DOTOPERANDS
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

namespace {

/// The f8 formats every value of which is an f16 value.
bool upcastsExactlyToF16(Type t) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(t);
}

struct TTUpcastF8DotOperands
    : kiln::impl::TTUpcastF8DotOperandsBase<TTUpcastF8DotOperands> {
  using TTUpcastF8DotOperandsBase::TTUpcastF8DotOperandsBase;

  void runOnOperation() override {
    getOperation().walk([](tt::DotOp dot) {
      OpBuilder b(dot);
      for (OpOperand *operand : {&dot.getAMutable(), &dot.getBMutable()}) {
        auto type = cast<RankedTensorType>(operand->get().getType());
        if (!upcastsExactlyToF16(type.getElementType()))
          continue;
        Value f16 = tt::FpToFpOp::create(
            b, dot.getLoc(), type.clone(b.getF16Type()), operand->get(),
            tt::RoundingModeAttr());
        operand->set(f16);
      }
    });
  }
};

} // namespace
