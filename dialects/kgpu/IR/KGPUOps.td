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

//===----------------------------------------------------------------------===//
// Software-pipelined tensor-core loops (kgpu-pipeline-dot-loops)
//===----------------------------------------------------------------------===//

def KGPU_AsyncCopyOp : Op<KGPU_Dialect, "async_copy",
                          [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "copy a 2-D tile from global to shared memory asynchronously";
  let description = [{
    Every element `ptr` points to (zero where `mask` is false) is copied to
    shared memory, row-major with `rowStride` elements per row, into slot
    `slot` of a multi-buffered region: the tile starts at byte
    `offset + slot * slotBytes` of the kernel's shared memory. The copies
    are cp.async instructions (PTX ISA 9.7.9.25.3.1; 4, 8 or 16 bytes per
    thread and instruction, masked elements zero-filled through the
    instruction's src-size) and join the current async group, closed by
    `kgpu.async_commit_group`. Created by kgpu-pipeline-dot-loops.

    ```mlir
    kgpu.async_copy %ptrs, %mask slot %s {offset = 0 : i64, rowStride = 72 : i64,
        slotBytes = 18432 : i64} : tensor<128x64x!tt.ptr<f16>, #blocked>, tensor<128x64xi1, #blocked>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$ptr, Optional<AnyRankedTensor>:$mask,
                       I32:$slot, I64Attr:$offset, I64Attr:$slotBytes,
                       I64Attr:$rowStride);
  let assemblyFormat = [{
    $ptr (`,` $mask^)? `slot` $slot attr-dict `:` type($ptr) (`,` type($mask)^)?
  }];
}

def KGPU_AsyncCommitGroupOp : Op<KGPU_Dialect, "async_commit_group",
                                 [MemoryEffects<[MemWrite]>]> {
  let summary = "close the current group of asynchronous copies";
  let description = [{
    cp.async.commit_group (PTX ISA 9.7.9.25.3.2): the copies issued since
    the last commit form one group that `kgpu.async_wait` can wait for.
  }];
  let assemblyFormat = "attr-dict";
}

def KGPU_AsyncWaitOp : Op<KGPU_Dialect, "async_wait",
                          [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "wait until at most `pending` copy groups are in flight";
  let description = [{
    cp.async.wait_group `pending` (PTX ISA 9.7.9.25.3.3) followed by a CTA
    barrier, so every thread's completed copies are visible to all threads
    and no thread still reads a slot that is about to be refilled.
  }];
  let arguments = (ins I32Attr:$pending);
  let assemblyFormat = "$pending attr-dict";
}

def KGPU_LocalDotOp : Op<KGPU_Dialect, "local_dot",
                         [MemoryEffects<[MemRead]>]> {
  let summary = "acc + A x B with A and B read from a shared-memory slot";
  let description = [{
    The tensor-core multiply of a pipelined loop: A (`aType`, MxK) and B
    (`bType`, KxN) were copied by `kgpu.async_copy` into slot `slot` of the
    regions at `aOffset` / `bOffset` (slot sizes `aSlotBytes` /
    `bSlotBytes`, rows padded as the mma.sync lowering of tt.dot pads
    them; `numSlots` slots each, B's after A's). `acc` and the result have
    the #kgpu.mma accumulator layout.
  }];
  let arguments = (ins AnyRankedTensor:$acc, I32:$slot, TypeAttr:$aType,
                       TypeAttr:$bType, I64Attr:$aOffset, I64Attr:$aSlotBytes,
                       I64Attr:$bOffset, I64Attr:$bSlotBytes,
                       I32Attr:$numSlots);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$acc `slot` $slot attr-dict `:` type($acc) `->` type($result)";
}

#endif // KILN_DIALECTS_KGPU_IR_KGPUOPS_TD
