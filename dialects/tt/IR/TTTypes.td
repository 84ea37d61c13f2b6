//===- TTTypes.td - types of the tt dialect ----------------*- tablegen -*-===//

#ifndef KILN_DIALECTS_TT_IR_TTTYPES_TD
#define KILN_DIALECTS_TT_IR_TTTYPES_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"
include "dialects/tt/IR/TTDialect.td"

class TT_TypeDef<string name, string mnemonic_, list<Trait> traits = []>
    : TypeDef<TT_Dialect, name, traits> {
  let mnemonic = mnemonic_;
}

def TT_PtrType : TT_TypeDef<"Pointer", "ptr"> {
  let summary = "pointer to a scalar or (block pointer) to a tensor";
  let description = [{
    `!tt.ptr<f32>` points into global memory (address space 1, the default
    and not printed); `!tt.ptr<f16, 3>` names another address space. A
    pointer whose pointee is a tensor is a block pointer
    (`tt.make_tensor_ptr`). Inside some ops' formats the prefix is omitted
    (`<f32>`).
  }];
  let parameters = (ins "::mlir::Type":$pointeeType, "int":$addressSpace);
  let builders = [
    TypeBuilderWithInferredContext<(ins "::mlir::Type":$pointeeType,
                                        "int":$addressSpace), [{
      return $_get(pointeeType.getContext(), pointeeType, addressSpace);
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let skipDefaultBuilders = 1;
}

def TT_TensorDescType : TT_TypeDef<"TensorDesc", "tensordesc"> {
  let summary = "descriptor of a global tensor read and written in blocks";
  let description = [{
    Made by `tt.make_tensor_descriptor` (or, in Triton, passed to the kernel
    from the host); `blockType` is the shape and element type of one block
    moved by `tt.descriptor_load` / `tt.descriptor_store`. Triton lowers
    descriptor accesses to TMA on Hopper; kiln rewrites them into masked
    pointer loads and stores (tt-lower-tensor-descriptors).

    ```mlir
    !tt.tensordesc<tensor<128x64xbf16>>
    ```
  }];
  let parameters = (ins "::mlir::RankedTensorType":$blockType);
  let assemblyFormat = "`<` $blockType `>`";
}

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def TT_Float : AnyTypeOf<[AnyFloat]>;
def TT_Int : AnyTypeOf<[AnySignlessInteger]>;
defvar TT_Ptr = TT_PtrType;
def TT_BoolTensor : RankedTensorOf<[I1]>;
def TT_BoolLike : AnyTypeOf<[I1, TT_BoolTensor]>;
def TT_IntTensor : RankedTensorOf<[AnySignlessInteger]>;
def TT_IntLike : AnyTypeOf<[TT_Int, TT_IntTensor]>;
def TT_I32Like : AnyTypeOf<[I32, RankedTensorOf<[I32]>]>;
def TT_FloatTensor : RankedTensorOf<[AnyFloat]>;
def TT_FloatLike : AnyTypeOf<[TT_Float, TT_FloatTensor]>;
def TT_PtrTensor : RankedTensorOf<[TT_Ptr]>;
def TT_PtrLike : AnyTypeOf<[TT_Ptr, TT_PtrTensor]>;
def TT_Tensor : RankedTensorOf<[AnyFloat, AnySignlessInteger, TT_Ptr]>;
def TT_Scalar : AnyTypeOf<[AnyFloat, AnySignlessInteger, TT_Ptr]>;
def TT_Type : AnyTypeOf<[TT_Scalar, TT_Tensor]>;
def TT_FpIntTensor : RankedTensorOf<[AnyFloat, AnySignlessInteger]>;

#endif // KILN_DIALECTS_TT_IR_TTTYPES_TD
