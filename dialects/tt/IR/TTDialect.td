//===- TTDialect.td - the tt dialect (Triton TTIR) ---------*- tablegen -*-===//
//
// kiln's `tt` dialect reads and prints the TTIR text of Triton 3.6: the op
// names, attribute spellings and assembly formats are facts of that format.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_TT_IR_TTDIALECT_TD
#define KILN_DIALECTS_TT_IR_TTDIALECT_TD

include "mlir/IR/OpBase.td"

def TT_Dialect : Dialect {
  let name = "tt";
  let cppNamespace = "::kiln::tt";
  let summary = "Triton's tile-level IR (TTIR), as Triton 3.6 prints it";
  let description = [{
    Block-level programs over tensors of scalars and pointers. A kernel is a
    `tt.func`; each program instance (identified by `tt.get_program_id`)
    works on whole tensors. The dialect accepts any TTIR that Triton or
    PyTorch Inductor emits and prints it back in the same text.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::ub::UBDialect",
  ];
  let useDefaultTypePrinterParser = 1;
  let hasConstantMaterializer = 1;
  // tt.divisibility / tt.contiguity / tt.constancy on kernel arguments.
  let hasRegionArgAttrVerify = 1;
  let extraClassDeclaration = [{
    void registerTypes();
  }];
}

#endif // KILN_DIALECTS_TT_IR_TTDIALECT_TD
