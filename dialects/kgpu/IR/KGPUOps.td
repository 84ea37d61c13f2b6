//===- KGPUOps.td - operations of the kgpu dialect ---------*- tablegen -*-===//

#ifndef KILN_DIALECTS_KGPU_IR_KGPUOPS_TD
#define KILN_DIALECTS_KGPU_IR_KGPUOPS_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "dialects/kgpu/IR/KGPUDialect.td"
include "dialects/kgpu/IR/KGPUAttrs.td"

def KGPU_ConvertLayoutOp : Op<KGPU_Dialect, "convert_layout", [Pure]> {
  let summary = "move a tensor to another layout (through shared memory)";
  let description = [{
    Same shape and element type, different encoding:
    ```mlir
    %b = kgpu.convert_layout %a : tensor<128xf32, #b0> -> tensor<128xf32, #b1>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$src);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

#endif // KILN_DIALECTS_KGPU_IR_KGPUOPS_TD
