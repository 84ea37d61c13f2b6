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

    `swizzle` picks the arrangement in the slot: 0 = row-major rows of
    `rowStride` elements; 1 = wgmma's K-major 128-byte swizzle for an A
    tile (rows of 64 elements, 8-row atoms of 1024 bytes, the 16-byte chunk
    c of row r at chunk c ^ (r % 8); 64-column blocks one after the other);
    2 = wgmma's MN-major 128-byte swizzle for a B tile (the same atoms along
    the tile's rows = K, 64-column blocks 1024 bytes apart, 8-row groups
    1024 * columns / 64 bytes apart). PTX ISA 9.7.15.5.1.2.

    With `transpose` the tile is stored with its dimensions swapped (a
    K-contiguous B tile KxN becomes N rows of K elements in shared memory)
    and each thread's runs go along dimension 0.

    ```mlir
    kgpu.async_copy %ptrs, %mask slot %s {offset = 0 : i64, rowStride = 72 : i64,
        slotBytes = 18432 : i64} : tensor<128x64x!tt.ptr<f16>, #blocked>, tensor<128x64xi1, #blocked>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$ptr, Optional<AnyRankedTensor>:$mask,
                       I32:$slot, I64Attr:$offset, I64Attr:$slotBytes,
                       I64Attr:$rowStride,
                       DefaultValuedAttr<I32Attr, "0">:$swizzle,
                       UnitAttr:$transpose);
  let assemblyFormat = [{
    $ptr (`,` $mask^)? `slot` $slot attr-dict `:` type($ptr) (`,` type($mask)^)?
  }];
}

def KGPU_LocalLoadOp : Op<KGPU_Dialect, "local_load",
                          [MemoryEffects<[MemRead]>]> {
  let summary = "read back this thread's elements of an async_copy tile";
  let description = [{
    The tile `kgpu.async_copy` copied into slot `slot` of the region at
    byte `offset` (`numSlots` slots `slotBytes` apart, row-major rows of
    `rowStride` elements, swizzle 0; with `transpose`, dimension 1 along
    the rows, as the copy stores it), read into the registers of the
    result's layout: a #kgpu.blocked layout, or a #kgpu.mma layout of the
    mma.sync form (version 2; wgmma's A fragments in registers). It reads
    after a `kgpu.async_wait` (cp.async.wait_group, PTX ISA 9.7.9.25.3.3,
    then a CTA barrier), so a thread may read elements other threads
    copied; the barrier also keeps a slot from being refilled while another
    thread still reads it. Created by kgpu-pipeline-dot-loops for tiles
    staged through shared memory whose values the loop transforms before
    its dot: with stage-tiles in the load's own blocked layout, and for
    kgpu-assign-layouts' register-a in the dot's accumulator layout. Reads
    up to 16 bytes per ld.shared along the layout's fastest dimension where
    `rowStride` times the element size is a multiple of 16 bytes, one
    element per ld.shared otherwise.

    ```mlir
    %a = kgpu.local_load slot %s {offset = 0 : i64, rowStride = 64 : i64,
        slotBytes = 16384 : i64, numSlots = 3 : i32} : tensor<128x64xf16, #blocked>
    ```
  }];
  let arguments = (ins I32:$slot, I64Attr:$offset, I64Attr:$slotBytes,
                       I64Attr:$rowStride, I32Attr:$numSlots,
                       UnitAttr:$transpose);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "`slot` $slot attr-dict `:` type($result)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Whether this op reads elements of type `elem`: 8-, 16-, 32- or
    /// 64-bit integers or floats.
    static bool readsElementType(::mlir::Type elem);
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
    the #kgpu.mma accumulator layout. With `wgmma` (sm_90a), the slots hold
    the 128-byte swizzled arrangements of `kgpu.async_copy` (swizzle 1 for
    A, 2 for B), the accumulator's warps split only M (each warpgroup of 4
    owns 64 rows of every block of 16 x warps rows) and each warpgroup
    issues one wgmma.mma_async m64nNk16 per such block and K step, with
    shared-memory descriptors (PTX ISA 9.7.15.5.1), then waits for them
    (unless `noWait`: then a later `kgpu.wgmma_wait` does, and the result
    must not be read before it). `bKMajor`: B is stored transposed, N rows
    of K elements (`kgpu.async_copy` with `transpose`), as a K-contiguous B
    arrives from global memory. `aMMajor` (`wgmma`, 16-bit A only): A is
    stored transposed, K rows of M elements in swizzle 2's arrangement
    (`kgpu.async_copy` with `transpose`), as an M-contiguous A (a
    transposed input, x^T @ y) arrives, and wgmma reads it MN-major
    (imm-trans-a). f8E4M3FN / f8E5M2 slots (both operands of
    one format, `bKMajor`, K a multiple of 32) hold the loaded bytes: for
    mma.sync, rows padded by 16 bytes, fragments upcast to f16 after
    ldmatrix; with `wgmma`, whole 128-byte swizzled rows, multiplied by
    wgmma.mma_async m64nNk32 .e4m3 / .e5m2 (PTX ISA 9.7.15.5). f32 slots
    (a tt.dot with inputPrecision tf32 or, with `tf32x3`, tf32x3): for
    mma.sync (B not `bKMajor`), A rows padded by 4 elements and B rows by
    8 (kgpu::getPaddedRowStride), each element rounded to tf32 as it is
    read, mma.sync.m16n8k8 .tf32 (three per tile with `tf32x3`, hi/lo
    split as the tt.dot lowering does it); with `wgmma` (tf32 only, B
    `bKMajor`: the tf32 form reads both operands K-major), whole 128-byte
    swizzled rows multiplied by wgmma.mma_async m64nNk8 .tf32.

    With `a` (16-bit, in the accumulator's layout with the warps along M
    only: attention's P), A comes from the thread's registers instead of a
    slot (the m16n8k16 A fragments that mma.sync and wgmma's register form
    take; `aOffset` / `aSlotBytes` are unused). `aSlotBytes` = 0 reads the
    same A at `aOffset` for every slot (a loop-invariant A copied once).
  }];
  let arguments = (ins AnyRankedTensor:$acc, I32:$slot,
                       Optional<AnyRankedTensor>:$a, TypeAttr:$aType,
                       TypeAttr:$bType, I64Attr:$aOffset, I64Attr:$aSlotBytes,
                       I64Attr:$bOffset, I64Attr:$bSlotBytes,
                       I32Attr:$numSlots, UnitAttr:$wgmma,
                       UnitAttr:$noWait, UnitAttr:$bKMajor,
                       UnitAttr:$tf32x3, UnitAttr:$aMMajor);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $acc (`a` $a^ `:` type($a))? `slot` $slot attr-dict `:` type($acc) `->`
    type($result)
  }];
}

def KGPU_WgmmaWaitOp : Op<KGPU_Dialect, "wgmma_wait",
                          [MemoryEffects<[MemRead, MemWrite]>,
                           AllTypesMatch<["values", "results"]>]> {
  let summary = "wait until at most `pending` wgmma groups are in flight";
  let description = [{
    wgmma.wait_group `pending` (PTX ISA 9.7.15.7): after it, the
    accumulators of the completed groups may be read and the shared memory
    they read may be overwritten. Follows a `kgpu.local_dot` with `wgmma`
    that does not wait itself (`noWait`).

    `values` (accumulators of wgmma groups issued before the wait) pass
    through unchanged as `results`: the lowering ties every accumulator
    register to the wait instruction, so no use of an accumulator is
    scheduled before the wait that makes it readable, and no copy of a
    register wgmma still writes is made in between (ptxas serializes every
    wgmma of a function when an instruction other than wgmma defines an
    accumulator register of one in flight, warning C7514). With
    `pending` > 0 the newest groups' accumulators are still being written
    after the wait; they may only feed further wgmma of the same
    accumulator or a later wait.
  }];
  let arguments = (ins I32Attr:$pending, Variadic<AnyType>:$values);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat =
      "$pending ($values^ `:` type($values))? attr-dict";
}

def KGPU_WgmmaFenceOp : Op<KGPU_Dialect, "wgmma_fence",
                           [MemoryEffects<[MemRead, MemWrite]>,
                            AllTypesMatch<["values", "results"]>]> {
  let summary = "order accumulator writes before the wgmma that follow";
  let description = [{
    wgmma.fence.sync.aligned (PTX ISA 9.7.15.6): register writes before it
    (here: `values`, the accumulators a pipelined loop starts from) are
    ordered before later wgmma.mma_async reading them. `values` pass through
    as `results`, tied to the instruction like `kgpu.wgmma_wait`'s: the
    loop and the path that skips it then start from the same registers, and
    no constant is copied into an accumulator register on one path only
    (which makes ptxas serialize wgmma, C7514).
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

def KGPU_BarrierOp : Op<KGPU_Dialect, "barrier",
                        [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "CTA-wide barrier (bar.sync 0 / s_barrier)";
  let description = [{
    Every thread of the CTA waits here for all others (PTX ISA 9.7.13.1
    bar.sync; on AMDGPU s_barrier). Shared-memory writes and reads before it
    are ordered with those after it.
  }];
  let assemblyFormat = "attr-dict";
}

#endif // KILN_DIALECTS_KGPU_IR_KGPUOPS_TD
