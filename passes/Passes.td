//===- Passes.td - kiln's passes ---------------------------*- tablegen -*-===//

#ifndef KILN_PASSES_PASSES_TD
#define KILN_PASSES_PASSES_TD

include "mlir/Pass/PassBase.td"

def KGPUAssignLayouts : Pass<"kgpu-assign-layouts", "::mlir::ModuleOp"> {
  let summary = "give every tt tensor a distributed layout (kgpu encoding)";
  let description = [{
    Groups tensors that must share a layout (operands and results of
    elementwise ops, broadcasts, loop-carried values), picks one blocked
    layout per group from its widest global access (coalescing: each thread
    moves up to 16 contiguous bytes where tt.divisibility / contiguity facts
    prove alignment; see AxisInfo.h), derives slice layouts for reduction
    results and expand_dims operands, and inserts `kgpu.convert_layout`
    where two demands disagree. Records the CTA shape on the module.

    With `mma-version=2`, the result of a tt.dot on f16 or bf16 operands
    whose M, N and K are multiples of 16, 8 and 16 (and everything sharing
    its layout: the accumulator, the loop-carried value, the epilogue) gets
    `#kgpu.mma<{version = 2, ...}>`, with the CTA's warps split over M and N
    in proportion to the 16x8 instruction tiles along each.

    Before:
    ```mlir
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    ```
    After (`num-warps=4`, 16-byte aligned f32 accesses):
    ```mlir
    #blocked = #kgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32],
                              warpsPerCTA = [4], order = [0]}>
    module attributes {kgpu.num-warps = 4 : i32, kgpu.threads-per-warp = 32 : i32} {
      %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    ```
  }];
  let dependentDialects = ["::kiln::kgpu::KGPUDialect"];
  let options = [
    Option<"numWarps", "num-warps", "int", /*default=*/"4",
           "warps per CTA">,
    Option<"threadsPerWarp", "threads-per-warp", "int", /*default=*/"32",
           "lanes per warp (32 on NVIDIA, 64 on AMD CDNA)">,
    Option<"mmaVersion", "mma-version", "int", /*default=*/"0",
           "tensor-core accumulator layout for eligible tt.dot results: 0 = "
           "none (CUDA-core FMA), 2 = mma.sync m16n8k16 (sm_80 and later), "
           "3 = warps along M only where wgmma can compute the dot (sm_90a), "
           "mma.sync's otherwise, 4 = AMD MFMA 16x16 (gfx90a, gfx942)">,
  ];
}

def KGPUConvertToLLVM : Pass<"kgpu-convert-to-llvm", "::mlir::ModuleOp"> {
  let summary = "lower tt/kgpu tensor programs to the LLVM dialect (SIMT)";
  let description = [{
    Every tensor becomes the elements its layout gives the thread (an LLVM
    struct); kernels become `llvm.func` with the target's kernel attributes;
    loads and stores are vectorized along the contiguous dimension and
    predicated by their masks; reductions combine within a thread, across
    lanes with shuffles, then across warps through shared memory. Target
    differences (thread ids, shuffles, barriers, predicated memory
    instructions) go through a TargetInfo (NVPTX today).

    Before:
    ```mlir
    %pid = tt.get_program_id x : i32
    ```
    After:
    ```mlir
    %pid = nvvm.read.ptx.sreg.ctaid.x : i32
    ```
  }];
  // The target's own dialect (NVVM for nvptx, ROCDL for amdgpu) is added by
  // the pass's getDependentDialects() override: loading ROCDL into an NVPTX
  // compile (or NVVM into an AMDGPU one) only costs time (~0.5 ms of a small
  // kernel's pipeline, its ops and the canonicalizers' pattern scan).
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect",
  ];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"nvptx\"",
           "target of the lowering (nvptx, amdgpu)">,
  ];
}

def KGPUPipelineDotLoops : Pass<"kgpu-pipeline-dot-loops", "::mlir::ModuleOp"> {
  let summary = "software-pipeline K loops of tensor-core dots (cp.async, multi-buffered shared memory)";
  let description = [{
    A loop whose body loads A and B tiles and multiplies them into a
    loop-carried #kgpu.mma accumulator (the matmul K loop, as Triton and
    Inductor write it) is rewritten so that the tiles of the next
    `num-stages - 1` iterations are in flight while the current one
    multiplies: the loads become `kgpu.async_copy` (cp.async, global to
    shared memory directly) into `num-stages` slots, a prologue fills the
    first slots, each iteration waits for its slot (`kgpu.async_wait`),
    issues the copies for iteration i + num-stages - 1 (masked off past the
    end) and multiplies from shared memory (`kgpu.local_dot`).

    Applies when: an i32, signed-compare loop whose body holds exactly one
    tt.dot with an mma accumulator carried by the loop; A and B come
    straight from non-volatile tt.loads of 16-bit elements with a zero (or
    no) `other`, movable as 4, 8 or 16 contiguous bytes per thread along
    their rows (or, for B, along K: stored transposed), with masks that
    bound K only; everything else in the body computes those loads'
    pointers and masks or advances loop-carried pointers (pure ops that do
    not use shared memory themselves), and those pointers are not used
    after the loop. Other loops are left as they are.

    With `wgmma`, slots use wgmma's 128-byte swizzled arrangements and the
    multiply is `kgpu.local_dot` with `wgmma`, issued before the next
    iteration's copies and waited for (`kgpu.wgmma_wait`) after them.
  }];
  let dependentDialects = ["::kiln::kgpu::KGPUDialect",
                           "::mlir::arith::ArithDialect"];
  let options = [
    Option<"numStages", "num-stages", "int", /*default=*/"3",
           "shared-memory slots (iterations in flight + 1); < 2 disables">,
    Option<"wgmma", "wgmma", "bool", /*default=*/"false",
           "multiply with wgmma.mma_async (sm_90a) where the accumulator "
           "layout and tile shape allow">,
  ];
}

#endif // KILN_PASSES_PASSES_TD
