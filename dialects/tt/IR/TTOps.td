//===- TTOps.td - operations of the tt dialect -------------*- tablegen -*-===//
//
// Every op of Triton 3.6's tt dialect. Assembly formats reproduce Triton's
// printed TTIR so text from Triton and Inductor parses and prints unchanged;
// ops Triton prints in generic form (tt.reduce, tt.scan,
// tt.map_elementwise) have no custom format here either.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_TT_IR_TTOPS_TD
#define KILN_DIALECTS_TT_IR_TTOPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "dialects/tt/IR/TTDialect.td"
include "dialects/tt/IR/TTEnums.td"
include "dialects/tt/IR/TTTypes.td"

// Global memory, the resource loads, stores and atomics touch.
def TT_GlobalMemory : Resource<"::kiln::tt::GlobalMemory">;

class TT_Op<string mnemonic, list<Trait> traits = []>
    : Op<TT_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Program identity
//===----------------------------------------------------------------------===//

def TT_GetProgramIdOp : TT_Op<"get_program_id", [Pure]> {
  let summary = "index of this program instance along a grid axis";
  let arguments = (ins TT_ProgramDim:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

def TT_GetNumProgramsOp : TT_Op<"get_num_programs", [Pure]> {
  let summary = "number of program instances along a grid axis";
  let arguments = (ins TT_ProgramDim:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Tensor construction and shape manipulation
//===----------------------------------------------------------------------===//

def TT_MakeRangeOp : TT_Op<"make_range", [Pure]> {
  let summary = "1-D tensor holding start, start+1, ..., end-1";
  let arguments = (ins I32Attr:$start, I32Attr:$end);
  let results = (outs RankedTensorOf<[I32]>:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def TT_SplatOp : TT_Op<"splat", [Pure]> {
  let summary = "tensor with every element equal to a scalar";
  let arguments = (ins TT_Type:$src);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def TT_UnsplatOp : TT_Op<"unsplat", [Pure]> {
  let summary = "the single element of a tensor whose dimensions are all 1";
  let arguments = (ins TT_Tensor:$src);
  let results = (outs TT_Scalar:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TT_ExpandDimsOp : TT_Op<"expand_dims", [Pure]> {
  let summary = "insert a dimension of size 1 at `axis`";
  let arguments = (ins TT_Tensor:$src, I32Attr:$axis);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def TT_ReshapeOp : TT_Op<"reshape", [Pure]> {
  let summary = "same elements, new shape (order free when allow_reorder)";
  let arguments = (ins TT_Tensor:$src, UnitAttr:$allow_reorder,
                       UnitAttr:$efficient_layout);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = [{
    $src (`allow_reorder` $allow_reorder^)? (`efficient_layout` $efficient_layout^)?
    attr-dict `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TT_BroadcastOp : TT_Op<"broadcast", [Pure]> {
  let summary = "stretch dimensions of size 1 to the result's sizes";
  let arguments = (ins TT_Tensor:$src);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def TT_TransOp : TT_Op<"trans", [Pure]> {
  let summary = "permute the dimensions of a tensor by `order`";
  let arguments = (ins TT_Tensor:$src, DenseI32ArrayAttr:$order);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TT_CatOp : TT_Op<"cat", [Pure, SameTypeOperands]> {
  let summary = "concatenate two tensors (element order unspecified)";
  let arguments = (ins TT_Tensor:$lhs, TT_Tensor:$rhs);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)";
  let hasVerifier = 1;
}

def TT_JoinOp : TT_Op<"join", [Pure, SameTypeOperands]> {
  let summary = "stack two tensors along a new minor dimension of size 2";
  let arguments = (ins TT_Tensor:$lhs, TT_Tensor:$rhs);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)";
  let hasVerifier = 1;
}

def TT_SplitOp : TT_Op<"split", [Pure, AllTypesMatch<["outLHS", "outRHS"]>]> {
  let summary = "split a tensor along its minor dimension of size 2";
  let arguments = (ins TT_Tensor:$src);
  let results = (outs TT_Tensor:$outLHS, TT_Tensor:$outRHS);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($outLHS)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Pointers and memory
//===----------------------------------------------------------------------===//

def TT_AddPtrOp : TT_Op<"addptr", [Pure, AllTypesMatch<["ptr", "result"]>]> {
  let summary = "advance pointers by element offsets";
  let description = [{
    `result = ptr + offset * sizeof(pointee)`, elementwise when the operands
    are tensors (of the same shape).
  }];
  let arguments = (ins TT_PtrLike:$ptr, TT_IntLike:$offset);
  let results = (outs TT_PtrLike:$result);
  let assemblyFormat = "$ptr `,` $offset attr-dict `:` type($result) `,` type($offset)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def TT_AdvanceOp : TT_Op<"advance", [Pure, AllTypesMatch<["ptr", "result"]>]> {
  let summary = "move a block pointer by per-dimension element offsets";
  let arguments = (ins TT_Ptr:$ptr, Variadic<I32>:$offsets);
  let results = (outs TT_Ptr:$result);
  let assemblyFormat = "$ptr `,` `[` $offsets `]` attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def TT_LoadOp : TT_Op<"load", [
    AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    TypesMatchWith<"result matches the pointee of ptr", "ptr", "result",
                   "::kiln::tt::getPointeeType($_self)">,
    TypesMatchWith<"mask is i1 of the shape of ptr", "ptr", "mask",
                   "::kiln::tt::getI1SameShape(::kiln::tt::getPointeeType($_self))",
                   "($_op.getOperands().size() <= 1) || std::equal_to<>()">,
    TypesMatchWith<"other matches the pointee of ptr", "ptr", "other",
                   "::kiln::tt::getPointeeType($_self)",
                   "($_op.getOperands().size() <= 2) || std::equal_to<>()">]> {
  let summary = "load from global memory, with an optional mask";
  let description = [{
    Reads one element per pointer of `ptr` (or a block through a block
    pointer). Where `mask` is false nothing is read and the element is
    `other` (undefined without it).

    ```mlir
    %x = tt.load %ptrs, %mask, %other cacheModifier = ca : tensor<1024x!tt.ptr<f32>>
    ```
  }];
  let arguments = (ins
    AnyTypeOf<[TT_PtrLike]>:$ptr,
    Optional<TT_BoolLike>:$mask,
    Optional<TT_Type>:$other,
    DefaultValuedAttr<DenseI32ArrayAttr, "{}">:$boundaryCheck,
    OptionalAttr<TT_PaddingOptionAttr>:$padding,
    DefaultValuedAttr<TT_CacheModifierAttr, "::kiln::tt::CacheModifier::NONE">:$cache,
    DefaultValuedAttr<TT_EvictionPolicyAttr, "::kiln::tt::EvictionPolicy::NORMAL">:$evict,
    DefaultValuedAttr<BoolAttr, "false">:$isVolatile);
  let results = (outs TT_Type:$result);
  let assemblyFormat = [{
    $ptr (`,` $mask^)? (`,` $other^)?
    oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict)
    attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def TT_StoreOp : TT_Op<"store", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    TypesMatchWith<"value matches the pointee of ptr", "ptr", "value",
                   "::kiln::tt::getPointeeType($_self)">,
    TypesMatchWith<"mask is i1 of the shape of ptr", "ptr", "mask",
                   "::kiln::tt::getI1SameShape(::kiln::tt::getPointeeType($_self))",
                   "($_op.getOperands().size() <= 2) || std::equal_to<>()">]> {
  let summary = "store to global memory, with an optional mask";
  let arguments = (ins
    AnyTypeOf<[TT_PtrLike]>:$ptr,
    TT_Type:$value,
    Optional<TT_BoolLike>:$mask,
    DefaultValuedAttr<DenseI32ArrayAttr, "{}">:$boundaryCheck,
    DefaultValuedAttr<TT_CacheModifierAttr, "::kiln::tt::CacheModifier::NONE">:$cache,
    DefaultValuedAttr<TT_EvictionPolicyAttr, "::kiln::tt::EvictionPolicy::NORMAL">:$evict);
  let assemblyFormat = [{
    $ptr `,` $value (`,` $mask^)?
    oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict)
    attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def TT_AtomicRMWOp : TT_Op<"atomic_rmw", [
    MemoryEffects<[MemRead<TT_GlobalMemory>, MemWrite<TT_GlobalMemory>]>]> {
  let summary = "atomic read-modify-write; returns the old value";
  let arguments = (ins TT_AtomicRMWAttr:$atomic_rmw_op, TT_PtrLike:$ptr,
                       TT_Type:$val, Optional<TT_BoolLike>:$mask,
                       TT_MemSemanticAttr:$sem, TT_MemSyncScopeAttr:$scope);
  let results = (outs TT_Type:$result);
  let assemblyFormat = [{
    $atomic_rmw_op `,` $sem `,` $scope `,` $ptr `,` $val (`,` $mask^)? attr-dict
    `:` functional-type(operands, $result)
  }];
  let hasVerifier = 1;
}

def TT_AtomicCASOp : TT_Op<"atomic_cas", [
    MemoryEffects<[MemRead<TT_GlobalMemory>, MemWrite<TT_GlobalMemory>]>]> {
  let summary = "atomic compare-and-swap; returns the old value";
  let arguments = (ins TT_PtrLike:$ptr, TT_Type:$cmp, TT_Type:$val,
                       TT_MemSemanticAttr:$sem, TT_MemSyncScopeAttr:$scope);
  let results = (outs TT_Type:$result);
  let assemblyFormat = [{
    $sem `,` $scope `,` $ptr `,` $cmp `,` $val attr-dict `:` functional-type(operands, $result)
  }];
  let hasVerifier = 1;
}

def TT_MakeTensorPtrOp : TT_Op<"make_tensor_ptr", [Pure, SameVariadicOperandSize,
    TypesMatchWith<"base points to the element type of the block", "result",
                   "base", "::kiln::tt::getBlockPtrBaseType($_self)">]> {
  let summary = "block pointer into a strided global tensor";
  let arguments = (ins TT_Ptr:$base, Variadic<I64>:$shape,
                       Variadic<I64>:$strides, Variadic<I32>:$offsets,
                       DenseI32ArrayAttr:$order);
  let results = (outs TT_Ptr:$result);
  let assemblyFormat = [{
    $base `,` `[` $shape `]` `,` `[` $strides `]` `,` `[` $offsets `]`
    attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Tensor descriptors (TMA on Hopper)
//===----------------------------------------------------------------------===//

def TT_MakeTensorDescOp : TT_Op<"make_tensor_descriptor", [Pure, SameVariadicOperandSize]> {
  let summary = "tensor descriptor over a strided global tensor";
  let description = [{
    Describes a global tensor of rank R (the block's rank): element
    (i0, ..., iR-1) is at `base + sum(ik * strides[k])`, `shape` (i32, in
    elements) and `strides` (i64, in elements; Triton requires the last to
    be 1) one per dimension. `padding` is what out-of-bounds elements read
    as (`zero`, the default, or `nan`).

    ```mlir
    %d = tt.make_tensor_descriptor %base, [%m, %k], [%stride, %c1_i64] : <bf16>, <tensor<128x64xbf16>>
    ```
  }];
  let arguments = (ins TT_Ptr:$base, Variadic<I32>:$shape,
                       Variadic<I64>:$strides,
                       DefaultValuedAttr<TT_PaddingOptionAttr,
                         "::kiln::tt::PaddingOption::PAD_ZERO">:$padding);
  let results = (outs TT_TensorDescType:$result);
  let assemblyFormat = [{
    $base `,` `[` $shape `]` `,` `[` $strides `]` attr-dict `:` type($base) `,` type($result)
  }];
  let hasVerifier = 1;
}

def TT_DescriptorLoadOp : TT_Op<"descriptor_load", [
    MemoryEffects<[MemRead<TT_GlobalMemory>]>]> {
  let summary = "load one block through a tensor descriptor";
  let description = [{
    Reads the block whose first element is at the i32 `indices` (one per
    dimension, in elements; they may be negative or past the end):
    element j of the result is the tensor's element indices + j, or the
    descriptor's padding value where that is outside [0, shape) in any
    dimension. The result is the descriptor's block type, less any leading
    dimensions of size 1.

    ```mlir
    %a = tt.descriptor_load %d[%rm, %rk] : !tt.tensordesc<tensor<128x64xbf16>> -> tensor<128x64xbf16>
    ```
  }];
  let arguments = (ins TT_TensorDescType:$desc, Variadic<I32>:$indices,
    DefaultValuedAttr<TT_CacheModifierAttr, "::kiln::tt::CacheModifier::NONE">:$cache,
    DefaultValuedAttr<TT_EvictionPolicyAttr, "::kiln::tt::EvictionPolicy::NORMAL">:$evict);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = [{
    $desc `[` $indices `]`
    oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict)
    attr-dict `:` qualified(type($desc)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TT_DescriptorStoreOp : TT_Op<"descriptor_store", [
    MemoryEffects<[MemRead<TT_GlobalMemory>, MemWrite<TT_GlobalMemory>]>]> {
  let summary = "store one block through a tensor descriptor";
  let description = [{
    Writes `src` (the descriptor's block, less leading dimensions of size
    1) to the block whose first element is at the i32 `indices`; elements
    outside [0, shape) in any dimension are not written.
  }];
  let arguments = (ins TT_TensorDescType:$desc, TT_Tensor:$src,
                       Variadic<I32>:$indices);
  let assemblyFormat = [{
    $desc `[` $indices `]` `,` $src attr-dict `:` qualified(type($desc)) `,` type($src)
  }];
  let hasVerifier = 1;
}

def TT_DescriptorReduceOp : TT_Op<"descriptor_reduce", [
    MemoryEffects<[MemRead<TT_GlobalMemory>, MemWrite<TT_GlobalMemory>]>]> {
  let summary = "reduce a block into global memory through a descriptor";
  let description = [{
    Like `tt.descriptor_store`, but each in-bounds element of the tensor
    becomes `kind`(element, src element), atomically per element.
  }];
  let arguments = (ins TT_DescriptorReduceKindAttr:$kind,
                       TT_TensorDescType:$desc, TT_Tensor:$src,
                       Variadic<I32>:$indices);
  let assemblyFormat = [{
    $kind `,` $desc `[` $indices `]` `,` $src attr-dict `:` qualified(type($desc)) `,` type($src)
  }];
  let hasVerifier = 1;
}

def TT_DescriptorGatherOp : TT_Op<"descriptor_gather", [
    MemoryEffects<[MemRead<TT_GlobalMemory>]>]> {
  let summary = "gather rows through a 2-D tensor descriptor";
  let description = [{
    With a 1 x N block: result row r is the N elements of tensor row
    `x_offsets[r]` starting at column `y_offset`; out-of-bounds elements
    read as the padding value. The result is len(x_offsets) x N.
  }];
  let arguments = (ins TT_TensorDescType:$desc,
                       RankedTensorOf<[I32]>:$x_offsets, I32:$y_offset);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = [{
    $desc `[` $x_offsets `,` $y_offset `]` attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def TT_DescriptorScatterOp : TT_Op<"descriptor_scatter", [
    MemoryEffects<[MemRead<TT_GlobalMemory>, MemWrite<TT_GlobalMemory>]>]> {
  let summary = "scatter rows through a 2-D tensor descriptor";
  let description = [{
    The inverse of `tt.descriptor_gather`: row r of `src` goes to tensor
    row `x_offsets[r]` from column `y_offset`; out-of-bounds elements are
    not written.
  }];
  let arguments = (ins TT_TensorDescType:$desc,
                       RankedTensorOf<[I32]>:$x_offsets, I32:$y_offset,
                       TT_Tensor:$src);
  let assemblyFormat = [{
    $desc `[` $x_offsets `,` $y_offset `]` `,` $src attr-dict `:` type(operands)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Matrix multiply
//===----------------------------------------------------------------------===//

def TT_DotOp : TT_Op<"dot", [Pure, AllTypesMatch<["c", "d"]>]> {
  let summary = "d = a * b + c on 2-D (or batched 3-D) tensors";
  let description = [{
    `a` is [B,] M x K, `b` is [B,] K x N, `c` and `d` are [B,] M x N.
    `inputPrecision` picks how f32 operands use tensor cores (tf32, tf32x3,
    ieee, bf16x3, bf16x6; default ieee, not printed).
  }];
  let arguments = (ins TT_FpIntTensor:$a, TT_FpIntTensor:$b,
    TT_FpIntTensor:$c,
    DefaultValuedAttr<TT_InputPrecisionAttr, "::kiln::tt::InputPrecision::IEEE">:$inputPrecision,
    DefaultValuedAttr<I32Attr, "0">:$maxNumImpreciseAcc);
  let results = (outs TT_FpIntTensor:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c (`,` `inputPrecision` `=` $inputPrecision^)? attr-dict
    `:` type($a) `*` type($b) `->` type($d)
  }];
  let hasVerifier = 1;
}

def TT_DotScaledOp : TT_Op<"dot_scaled", [Pure, AttrSizedOperandSegments,
                                          AllTypesMatch<["c", "d"]>]> {
  let summary = "matrix multiply of microscaled (MX) operands";
  let arguments = (ins TT_FpIntTensor:$a, TT_FpIntTensor:$b,
    TT_FloatTensor:$c,
    Optional<RankedTensorOf<[AnyFloat, I8]>>:$a_scale,
    Optional<RankedTensorOf<[AnyFloat, I8]>>:$b_scale,
    TT_ScaleDotElemTypeAttr:$a_elem_type,
    TT_ScaleDotElemTypeAttr:$b_elem_type,
    BoolAttr:$fastMath,
    DefaultValuedAttr<BoolAttr, "true">:$lhs_k_pack,
    DefaultValuedAttr<BoolAttr, "true">:$rhs_k_pack);
  let results = (outs TT_FloatTensor:$d);
  let assemblyFormat = [{
    $a (`scale` $a_scale^)? `,` $b (`scale` $b_scale^)? `,` $c
    `lhs` `=` $a_elem_type `rhs` `=` $b_elem_type attr-dict
    `:` type($a) (`,` type($a_scale)^)? `*` type($b) (`,` type($b_scale)^)?
    `->` type($d)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Reductions, scans, maps
//===----------------------------------------------------------------------===//

def TT_ReduceOp : TT_Op<"reduce", [Pure, SingleBlock]> {
  let summary = "reduce tensors along `axis` with a combiner region";
  let description = [{
    For N operands the region takes 2N scalars (accumulators, then new
    elements) and yields N scalars with `tt.reduce.return`. Each result has
    its operand's shape without `axis` (a scalar for 1-D operands). Triton
    prints this op in generic form:

    ```mlir
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %r = arith.addf %a, %b : f32
      tt.reduce.return %r : f32
    }) : (tensor<1024xf32>) -> f32
    ```
  }];
  let arguments = (ins Variadic<TT_Tensor>:$srcs, I32Attr:$axis);
  let results = (outs Variadic<TT_Type>:$result);
  let regions = (region SizedRegion<1>:$combineOp);
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def TT_ReduceReturnOp : TT_Op<"reduce.return", [
    Pure, HasParent<"ReduceOp">, ReturnLike, Terminator]> {
  let summary = "yield the combined values of a tt.reduce step";
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "$result attr-dict `:` type($result)";
}

def TT_ScanOp : TT_Op<"scan", [Pure, SingleBlock]> {
  let summary = "inclusive scan of tensors along `axis` with a combiner region";
  let arguments = (ins Variadic<TT_Tensor>:$srcs, I32Attr:$axis,
                       BoolAttr:$reverse);
  let results = (outs Variadic<TT_Tensor>:$result);
  let regions = (region SizedRegion<1>:$combineOp);
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def TT_ScanReturnOp : TT_Op<"scan.return", [
    Pure, HasParent<"ScanOp">, ReturnLike, Terminator]> {
  let summary = "yield the combined values of a tt.scan step";
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "$result attr-dict `:` type($result)";
}

def TT_MapElementwiseOp : TT_Op<"map_elementwise", [RecursiveMemoryEffects]> {
  let summary = "apply a scalar region to `pack` elements at a time";
  let description = [{
    The region takes `pack` scalars of each operand (operand-major) and
    yields `pack` scalars of each result with `tt.map_elementwise.return`. It
    may hold several blocks (control flow from early returns).
  }];
  let arguments = (ins Variadic<TT_Type>:$srcs, I32Attr:$pack);
  let results = (outs Variadic<TT_Type>:$result);
  let regions = (region AnyRegion:$scalarOp);
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def TT_MapElementwiseReturnOp : TT_Op<"map_elementwise.return", [
    Pure, HasParent<"MapElementwiseOp">, ReturnLike, Terminator]> {
  let summary = "yield the results of one tt.map_elementwise step";
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "attr-dict ($result^ `:` type($result))?";
}

//===----------------------------------------------------------------------===//
// Elementwise arithmetic and casts
//===----------------------------------------------------------------------===//

def TT_FpToFpOp : TT_Op<"fp_to_fp", [Pure]> {
  let summary = "convert between float formats (f8 included)";
  let arguments = (ins TT_FloatLike:$src,
                       OptionalAttr<TT_RoundingModeAttr>:$rounding);
  let results = (outs TT_FloatLike:$result);
  let assemblyFormat = [{
    $src attr-dict (`,` `rounding` `=` $rounding^)? `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TT_BitcastOp : TT_Op<"bitcast", [Pure]> {
  let summary = "reinterpret bits as another type of the same width";
  let arguments = (ins TT_Type:$src);
  let results = (outs TT_Type:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TT_IntToPtrOp : TT_Op<"int_to_ptr", [Pure]> {
  let summary = "i64 to pointer";
  let arguments = (ins AnyTypeOf<[I64, RankedTensorOf<[I64]>]>:$src);
  let results = (outs TT_PtrLike:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TT_PtrToIntOp : TT_Op<"ptr_to_int", [Pure]> {
  let summary = "pointer to i64";
  let arguments = (ins TT_PtrLike:$src);
  let results = (outs AnyTypeOf<[I64, RankedTensorOf<[I64]>]>:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TT_ExternElementwiseOp : TT_Op<"extern_elementwise", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "call a device library function elementwise";
  let description = [{
    `symbol` names the function (e.g. `__nv_rsqrtf` from libdevice);
    `libname`/`libpath` may be empty, the backend then uses its configured
    library. A `pure` call has no memory effects.
  }];
  let arguments = (ins Variadic<TT_Type>:$srcs, StrAttr:$libname,
                       StrAttr:$libpath, StrAttr:$symbol, BoolAttr:$pure);
  let results = (outs TT_Type:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, $result)";
  let hasVerifier = 1;
}

def TT_ElementwiseInlineAsmOp : TT_Op<"elementwise_inline_asm", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "inline assembly applied elementwise";
  let arguments = (ins StrAttr:$asm_string, StrAttr:$constraints,
                       BoolAttr:$pure, I32Attr:$packed_element,
                       Variadic<TT_Type>:$args);
  let results = (outs Variadic<TT_Type>:$result);
  let assemblyFormat = [{
    $asm_string attr-dict ($args^ `:` type($args))? `->` type($result)
  }];
  let hasVerifier = 1;
}

def TT_ClampFOp : TT_Op<"clampf", [Pure, SameOperandsAndResultType]> {
  let summary = "clamp floats to [min, max]";
  let arguments = (ins TT_FloatLike:$x, TT_FloatLike:$min, TT_FloatLike:$max,
                       TT_PropagateNanAttr:$propagateNan);
  let results = (outs TT_FloatLike:$result);
  let assemblyFormat = [{
    $x `,` $min `,` $max `,` `propagateNan` `=` $propagateNan attr-dict `:` type($result)
  }];
}

def TT_PreciseSqrtOp : TT_Op<"precise_sqrt", [Pure, SameOperandsAndResultType]> {
  let summary = "correctly rounded square root";
  let arguments = (ins TT_FloatLike:$x);
  let results = (outs TT_FloatLike:$result);
  let assemblyFormat = "$x attr-dict `:` type($x)";
}

def TT_PreciseDivFOp : TT_Op<"precise_divf", [Pure, SameOperandsAndResultType]> {
  let summary = "correctly rounded division";
  let arguments = (ins TT_FloatLike:$x, TT_FloatLike:$y);
  let results = (outs TT_FloatLike:$result);
  let assemblyFormat = "$x `,` $y attr-dict `:` type($x)";
}

def TT_MulhiUIOp : TT_Op<"mulhiui", [Pure, SameOperandsAndResultType]> {
  let summary = "high half of the unsigned product";
  let arguments = (ins TT_IntLike:$x, TT_IntLike:$y);
  let results = (outs TT_IntLike:$result);
  let assemblyFormat = "$x `,` $y attr-dict `:` type($x)";
}

//===----------------------------------------------------------------------===//
// Histogram and gather
//===----------------------------------------------------------------------===//

def TT_HistogramOp : TT_Op<"histogram", [Pure,
    TypesMatchWith<"mask is i1 of the shape of src", "src", "mask",
                   "::kiln::tt::getI1SameShape($_self)",
                   "($_op.getOperands().size() <= 1) || std::equal_to<>()">]> {
  let summary = "count values of a 1-D integer tensor into bins [0, N)";
  let arguments = (ins RankedTensorOf<[AnySignlessInteger]>:$src,
                       Optional<TT_BoolTensor>:$mask);
  let results = (outs RankedTensorOf<[AnySignlessInteger]>:$result);
  let assemblyFormat = [{
    $src (`,` $mask^)? attr-dict `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TT_GatherOp : TT_Op<"gather", [Pure]> {
  let summary = "gather elements of `src` along `axis` at `indices`";
  let arguments = (ins TT_Tensor:$src, TT_IntTensor:$indices, I32Attr:$axis,
                       UnitAttr:$efficient_layout);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = [{
    $src `[` $indices `]` attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Debugging
//===----------------------------------------------------------------------===//

def TT_PrintOp : TT_Op<"print", [MemoryEffects<[MemWrite<TT_GlobalMemory>]>]> {
  let summary = "device printf of a prefix and values";
  let arguments = (ins StrAttr:$prefix, BoolAttr:$hex,
                       Variadic<TT_Type>:$args, DenseI32ArrayAttr:$isSigned);
  let assemblyFormat = "$prefix attr-dict (`:` $args^ `:` type($args))?";
  let hasVerifier = 1;
}

def TT_AssertOp : TT_Op<"assert", [MemoryEffects<[MemWrite<TT_GlobalMemory>]>]> {
  let summary = "device-side assertion with a message";
  let arguments = (ins TT_BoolLike:$condition, StrAttr:$message);
  let assemblyFormat = "$condition `,` $message attr-dict `:` type($condition)";
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

def TT_FuncOp : TT_Op<"func", [
    AffineScope, AutomaticAllocationScope, CallableOpInterface,
    FunctionOpInterface, IsolatedFromAbove]> {
  let summary = "a kernel or device function";
  let description = [{
    `tt.func public @k(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32})`.
    Argument attributes tt.divisibility, tt.contiguity and tt.constancy are
    facts about the values at specialization time.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<StrAttr>:$sym_visibility,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let regions = (region AnyRegion:$body);
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name,
                                 "::mlir::FunctionType":$type)>];
  let extraClassDeclaration = [{
    /// Returns the region on the callee side of a call.
    ::mlir::Region *getCallableRegion() { return &getBody(); }
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
  }];
  let hasCustomAssemblyFormat = 1;
}

def TT_CallOp : TT_Op<"call", [CallOpInterface,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "call a tt.func";
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$operands,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let results = (outs Variadic<AnyType>);
  let assemblyFormat = [{
    $callee `(` $operands `)` attr-dict `:` functional-type($operands, results)
  }];
  let extraClassDeclaration = [{
    ::mlir::FunctionType getCalleeType() {
      return ::mlir::FunctionType::get(getContext(), getOperandTypes(),
                                       getResultTypes());
    }
    ::mlir::CallInterfaceCallable getCallableForCallee() {
      return (*this)->getAttrOfType<::mlir::SymbolRefAttr>("callee");
    }
    void setCalleeFromCallable(::mlir::CallInterfaceCallable callee) {
      (*this)->setAttr("callee", ::llvm::cast<::mlir::SymbolRefAttr>(callee));
    }
    ::mlir::Operation::operand_range getArgOperands() { return getOperands(); }
    ::mlir::MutableOperandRange getArgOperandsMutable() {
      return getOperandsMutable();
    }
  }];
}

def TT_ReturnOp : TT_Op<"return", [Pure, HasParent<"FuncOp">, ReturnLike,
                                   Terminator]> {
  let summary = "return from a tt.func";
  let arguments = (ins Variadic<AnyType>:$srcs);
  let assemblyFormat = "attr-dict ($srcs^ `:` type($srcs))?";
  let hasVerifier = 1;
}

#endif // KILN_DIALECTS_TT_IR_TTOPS_TD
