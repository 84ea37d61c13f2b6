//===- Passes.td - kiln's passes ---------------------------*- tablegen -*-===//

#ifndef KILN_PASSES_PASSES_TD
#define KILN_PASSES_PASSES_TD

include "mlir/Pass/PassBase.td"

def TTLowerTensorDescriptors
    : Pass<"tt-lower-tensor-descriptors", "::mlir::ModuleOp"> {
  let summary = "rewrite tensor-descriptor loads and stores into masked pointer loads and stores";
  let description = [{
    A `tt.make_tensor_descriptor %base, [shape...], [strides...]` stands for
    a global tensor: element (i0, ..., in-1) lives at
    `base + sum(ik * strides[k])` (strides in elements, i64; shape in
    elements, i32). Each `tt.descriptor_load %d[%o0, ...]` becomes a
    `tt.load` of the block starting at the i32 offsets, with a bounds mask
    (`0 <= ok + j < shape[k]` in every dimension) and `other` = 0 (NaN
    where the descriptor says `padding = nan`); each
    `tt.descriptor_store` a `tt.store` under the same mask, so elements
    outside the tensor are neither read nor written. `tt.descriptor_gather`
    / `tt.descriptor_scatter` are the same with a tensor of row offsets.
    Afterwards no descriptor is left: later passes (AxisInfo, coalescing,
    kgpu-pipeline-dot-loops) see ordinary pointer loads.

    The generated IR is shaped for AxisInfo: the offsets' scalar part
    (`sum(ok * strides[k])`, i64) goes into one scalar `tt.addptr` on the
    base, so the block's tensor offsets are `tt.make_range` times constant
    strides (i32 where the block's extent provably fits, else i64) and keep
    the innermost dimension's contiguity when its stride is the constant 1;
    each dimension's bound check is one unsigned compare of
    `splat(ok) + make_range` against `splat(shape[k])`, whose constancy
    AxisInfo derives from the divisibility of the offset and the shape (a
    mask that is uniform over the block, as in a matmul whose sizes are
    multiples of the block, does not stop vectorization or pipelining).

    Supported flows: the descriptor is made by tt.make_tensor_descriptor in
    the function and used directly by descriptor loads/stores (anywhere
    below it, inside loops or ifs). A descriptor passed to the kernel
    (host-side TMA descriptors), carried by a loop, yielded by an scf.if,
    passed to a call or returned, and `tt.descriptor_reduce`, are errors
    naming the op. Real TMA (cp.async.bulk.tensor with a tensor map) is
    not used yet.

    Before:
    ```mlir
    %d = tt.make_tensor_descriptor %base, [%m, %k], [%stride, %c1_i64] : <f16>, <tensor<64x32xf16>>
    %a = tt.descriptor_load %d[%i, %j] : !tt.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16>
    ```
    After (abridged: nested expressions stand for one op each):
    ```mlir
    %off = arith.addi (arith.muli (arith.extsi %i), %stride), (arith.extsi %j) : i64
    %p = tt.addptr %base, %off : !tt.ptr<f16>, i64
    %rows = tt.expand_dims (tt.make_range {end = 64 : i32, start = 0 : i32}) {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %cols = tt.expand_dims (tt.make_range {end = 32 : i32, start = 0 : i32}) {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %inM = arith.cmpi ult, (arith.addi (tt.splat %i), %rows), (tt.splat %m) : tensor<64x1xi32>
    %inK = arith.cmpi ult, (arith.addi (tt.splat %j), %cols), (tt.splat %k) : tensor<1x32xi32>
    %mask = arith.andi (tt.broadcast %inM), (tt.broadcast %inK) : tensor<64x32xi1>
    %offs = arith.addi (tt.broadcast (arith.muli (arith.extsi %rows), (tt.splat %stride))),
                       (tt.broadcast (arith.extsi %cols)) : tensor<64x32xi64>
    %ptrs = tt.addptr (tt.splat %p), %offs : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi64>
    %zero = arith.constant dense<0.000000e+00> : tensor<64x32xf16>
    %a = tt.load %ptrs, %mask, %zero : tensor<64x32x!tt.ptr<f16>>
    ```
    (With constant strides whose block extent fits, `%offs` is i32.)
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TTWidenOverflowingLoops
    : Pass<"tt-widen-overflowing-loops", "::mlir::ModuleOp"> {
  let summary = "run i32 loops whose constant span overflows i32 over an i64 induction variable";
  let description = [{
    An scf.for over a signed i32 induction variable whose constant bounds
    span more than INT32_MAX (`scf.for %i = -2000000000 to 2000000000 step
    1000000000`: 4 iterations, none of them overflowing) is rebuilt over
    i64 bounds (sign-extended), its body reading `arith.trunci` of the i64
    induction variable: the same values in the same order.

    Why: MLIR 22's scf.for canonicalization computes such a loop's trip
    count as ub - lb in i32, which wraps, and folds the loop as one that
    never runs (`mlir-opt-22 --canonicalize` deletes the 4-iteration loop
    above): a wrong result from valid input. Over i64 the count is right.
    Only constant bounds are rewritten: a bound that becomes constant only
    when the canonicalizer folds it still meets MLIR's fold. Loops with
    unsigned compares are left alone. kiln's pipelines run this pass before
    their first canonicalizer; kgpu-pipeline-dot-loops does not pipeline the
    widened (i64) loop.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def TTScalarizeLoopIncrements
    : Pass<"tt-scalarize-loop-increments", "::mlir::ModuleOp"> {
  let summary = "carry a loop's uniformly advanced integer tensors as a scalar sum of the steps";
  let description = [{
    An scf.for iteration argument that is an integer tensor advanced each
    iteration by one value for all its elements (`offs + splat(step)`,
    through tt.broadcast / tt.expand_dims / tt.reshape of the splat, or a
    splat constant) is carried as the scalar sum of the steps instead
    (starting at 0), and rebuilt as `init + splat(sum)` at the top of the
    body and after the loop. The values are the same (integer addition
    wraps the same either way).

    Why: after layout assignment each thread holds many elements of such a
    tensor (flex attention's `offs_n`, tensor<1x128xi32>, is 32 per thread
    in the MMA layout), each a loop-carried value of its own: 32 phis, 32
    adds and 32 copies per iteration, registers held across the loop, and
    ptxas time. Rebuilt from the loop-invariant initial value, each element
    is the thread's base plus the sum plus a constant, one register
    (kgpu-hoist-index-constants). The argument left yielding itself is
    dropped by the canonicalizer after this pass.

    Before:
    ```mlir
    %r = scf.for %i = %lb to %ub step %c1 iter_args(%offs = %init) -> (tensor<1x128xi32>) {
      ... uses of %offs ...
      %s = tt.splat %step : i32 -> tensor<1x128xi32>
      %next = arith.addi %offs, %s : tensor<1x128xi32>
      scf.yield %next : tensor<1x128xi32>
    }
    ```
    After (before canonicalization):
    ```mlir
    %r:2 = scf.for ... iter_args(%offs = %init, %sum = %c0) -> (tensor<1x128xi32>, i32) {
      %o = arith.addi %init, (tt.splat %sum)
      ... uses of %o ...
      scf.yield %offs, (arith.addi %sum, %step)
    }
    %after = arith.addi %init, (tt.splat %r#1)
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def TTUpcastF8DotOperands : Pass<"tt-upcast-f8-dot-operands", "::mlir::ModuleOp"> {
  let summary = "convert f8E4M3FN / f8E5M2 tt.dot operands to f16, exactly";
  let description = [{
    Every value of f8E4M3FN (1-4-3, bias 7, largest 448, smallest subnormal
    2^-9, no infinities) and of f8E5M2 (1-5-2, bias 15: the upper byte of an
    f16) is an f16 value, so a tt.dot on such operands equals the tt.dot on
    their f16 upcasts: with an f32 accumulator each product is exact either
    way. This pass inserts that upcast (`tt.fp_to_fp`, no rounding mode)
    before each such operand, so the f16 tensor-core paths
    (kgpu-assign-layouts mma-version 2/3/4, kgpu-convert-to-llvm) and the
    CUDA-core loop multiply f8 data; a dot of two different f8 formats
    (e4m3 x e5m2) becomes f16 x f16 as well. Other f8 formats (the FNUZ
    ones, f8E4M3B11FNUZ) are left alone and rejected by name by the
    lowering. Run before kgpu-assign-layouts: the upcast shares its
    operand's (blocked) layout.

    A K loop whose dot operands are both upcast loads of one f8 format, A
    and B both K-contiguous, is software-pipelined on f8 slots by
    kgpu-pipeline-dot-loops (the upcast then happens after ldmatrix, or,
    with wgmma on sm_90a, not at all: wgmma's e4m3 / e5m2 forms); other
    such loops (B N-contiguous, e4m3 x e5m2) run with one shared-memory
    staging of the upcast operands per iteration.

    Before:
    ```mlir
    %d = tt.dot %a, %b, %c : tensor<32x64xf8E4M3FN> * tensor<64x64xf8E4M3FN> -> tensor<32x64xf32>
    ```
    After:
    ```mlir
    %a16 = tt.fp_to_fp %a : tensor<32x64xf8E4M3FN> -> tensor<32x64xf16>
    %b16 = tt.fp_to_fp %b : tensor<64x64xf8E4M3FN> -> tensor<64x64xf16>
    %d = tt.dot %a16, %b16, %c : tensor<32x64xf16> * tensor<64x64xf16> -> tensor<32x64xf32>
    ```
  }];
  let dependentDialects = [];
}

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

    Where a tensor-core dot is present, constants, splats and ranges get
    one copy per use; and when a dot operand's load is still in the
    accumulator's group once the stores are isolated (index tensors shared
    between its pointers and a mask on the accumulator, as in attention
    kernels), every index computation (integer arithmetic, expand_dims and
    broadcasts of those) does too, and the grouping runs again. The same
    happens when a dot operand's load shares a blocked group with a global
    access of another shape (the epilogue's store, the other operand's
    load, through row offsets and masks): otherwise the operand would be
    loaded in the layout picked for the group's widest access, not for its
    own tile. Last, a `kgpu.convert_layout` inside a loop of a 1-D integer
    vector that ranges, splats, splat constants and integer arithmetic
    compute (K offsets that two operands' pointers share) is replaced by
    that computation in the wanted layout: a few integer ops instead of a
    round trip through shared memory between barriers every iteration.

    With `mma-version=2`, the result of a tt.dot on f16 or bf16 operands
    whose M, N and K are multiples of 16, 8 and 16, or on f32 operands with
    inputPrecision tf32 or tf32x3 and an f32 accumulator whose M, N and K
    are multiples of 16, 8 and 8 (and everything sharing its layout: the
    accumulator, the loop-carried value, the epilogue) gets
    `#kgpu.mma<{version = 2, ...}>`, with the CTA's warps split over M and N
    in proportion to the 16x8 instruction tiles along each. With
    `chain-dots` (the default), two accumulator groups linked by a dot
    whose A operand is in the other's group (attention's P V after Q K^T)
    both get warps along M only, where every dot of both has M a multiple
    of 16 x num-warps.

    Each function's layouts are chosen on their own; a `tt.call` then takes
    its callee's tensor argument and result types, with a
    `kgpu.convert_layout` wherever the caller's layout differs.

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
           "none (CUDA-core FMA), 2 = mma.sync m16n8k16 / m16n8k8 tf32 "
           "(sm_80 and later), 3 = warps along M only where wgmma can "
           "compute the dot (sm_90a, 16-bit operands), mma.sync's otherwise, "
           "4 = AMD MFMA 16x16 (gfx90a, gfx942)">,
    Option<"numStages", "num-stages", "int", /*default=*/"3",
           "stages kgpu-pipeline-dot-loops will pipeline K loops over; with "
           "mma-version 3 a loop-carried dot whose 16-bit K is 32 (half of "
           "a 128-byte swizzle row) takes wgmma's layout only with 3 or "
           "more: over 2 its short wgmmas leave the next slot's copies "
           "exposed and mma.sync ran faster on the H200 "
           "(docs/BENCHMARKS.md)">,
    Option<"chainDotsOption", "chain-dots", "bool", /*default=*/"true",
           "chained mma.sync dots (one dot's accumulator feeds another's A "
           "operand, as in attention) put warps along M only in both "
           "accumulator layouts, so the second dot reads A from registers "
           "instead of shared memory (kgpu-convert-to-llvm). On the H200: "
           "dot_attention_128x64x64_w8_s3 17% and the corpus flex attention "
           "kernel 2.5% faster than without it (docs/BENCHMARKS.md)">,
    Option<"registerA", "register-a", "bool", /*default=*/"true",
           "with mma-version 3, a loop-carried dot that wgmma computes, "
           "whose B the loop loads and whose A the loop computes from "
           "loaded tiles of A's shape (a scale, an activation, a cast): "
           "each such tile is converted to the accumulator's layout right "
           "after its load, and the ops from there to A take that layout, "
           "so that kgpu-pipeline-dot-loops can copy the raw tiles "
           "(cp.async), read them back in wgmma's A-fragment layout and "
           "multiply with A in registers (not, with fewer than 4 stages, "
           "on two or more warpgroups with one 64-row block of A each "
           "where A takes special-function work such as exp or a "
           "division)">,
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

    A tt.dot with an mma.sync accumulator stages A and B in shared memory
    (rows padded by 16 bytes) and reads fragments with ldmatrix, except:
    an A defined outside the scf.for directly around the dot (attention's
    Q) is staged once before the loop, in shared memory of its own above
    the bytes all other ops reuse, and each iteration stages only B; an A
    in the accumulator's own layout with warps along M only (chained dots,
    kgpu-assign-layouts chain-dots) is read from the thread's registers,
    two C fragments per A fragment; and a B that is `tt.trans` of a 16-bit
    tensor used by the dot alone is staged as that tensor (N rows of K) and
    read with ldmatrix without .trans, the trans moving no data.

    With `arch=sm_90a`, such a dot whose accumulator layout has the warps
    along M only, in whole warpgroups, takes wgmma.mma_async instead
    (16-bit operands, f32 accumulator, K a multiple of 32, N of 64, N <=
    256): the operands are stored in wgmma's 128-byte swizzled arrangement
    (each row in whole 128-byte swizzle rows, a K of 32 filling half, and
    taken only with the accumulator carried by the loop around the dot; the
    loop-invariant A once before the loop, a transposed B untransposed as
    K-major), fenced for the async proxy, multiplied through matrix
    descriptors (A from registers with the register form of wgmma for
    chained dots), committed and waited for. A loop-carried accumulator
    whose registers with the operands staged from registers exceed 176 per
    thread stays on mma.sync (ptxas would spill accumulators around every
    wgmma; docs/BENCHMARKS.md).

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
    Option<"arch", "arch", "std::string", /*default=*/"\"\"",
           "chip (sm_90a, gfx942); picks chip-specific instructions (NVPTX "
           "sm_89+: cvt f8x2 to f16x2); empty: only those every chip of the "
           "target has">,
    Option<"ptxVersion", "ptx-version", "int", /*default=*/"0",
           "PTX ISA version x 10 the NVPTX backend emits (80 = PTX ISA 8.0); "
           "0: unknown">,
    Option<"ftz", "ftz", "bool", /*default=*/"false",
           "NVPTX: f32 math.exp2 flushes denormals (ex2.approx.ftz.f32), as "
           "libdevice's __nv_exp2f does under nvvm-reflect-ftz">,
  ];
}

def KGPUSplitStructBlockArgs
    : Pass<"kgpu-split-struct-block-args", "::mlir::ModuleOp"> {
  let summary = "pass loop-carried LLVM structs between blocks as their fields";
  let description = [{
    The SIMT lowering carries a tensor as an LLVM struct of the thread's
    elements, so after scf-to-cf a loop-carried tensor (a matmul's
    accumulator: 128 f32 per thread for a 128x256 tile over 8 warps, its
    pointer tiles) is one block argument of struct type, rebuilt on every
    back edge by an `llvm.insertvalue` chain. LLVM then sees a struct phi
    and insertvalue chains of N fields: its sparse constant propagation,
    instcombine and SelectionDAG building do per-field work for every link
    of a chain, quadratic in N. (The corpus matmul_kernel, build machine:
    O3 57 -> 34 ms and codegen 77 -> 62 ms with this pass; same registers.)

    This pass replaces each block argument whose type is a literal struct
    of scalars (no nested struct or array) by one argument per field, when
    every predecessor branches with `BranchOpInterface` and forwards the
    value (llvm.br, llvm.cond_br, llvm.switch). Each predecessor passes the
    fields: where its struct is an `llvm.insertvalue` chain, the values the
    chain inserted (the last insert into each position), otherwise an
    `llvm.extractvalue` per field. (Extracts the canonicalizer would fold
    through the chain cost it time quadratic in N: each fold puts the
    branch, with all its operands, back on its worklist. matmul_kernel's
    canonicalization went 7.4-12.9 -> 3.5 ms, build machine.) In the block, an
    `llvm.extractvalue %arg[k]` becomes the k-th new argument, and any other
    use gets the struct rebuilt from the fields at the top of the block.
    The entry block, blocks with an unknown predecessor and landing pads
    (llvm.invoke unwind destinations) are left alone.
    Run after convert-cf-to-llvm and before the canonicalizer.

    Before:
    ```mlir
    ^bb1(%acc: !llvm.struct<(f32, f32)>):
      %a = llvm.extractvalue %acc[0] : !llvm.struct<(f32, f32)>
      ...
      llvm.br ^bb1(%next : !llvm.struct<(f32, f32)>)
    ```
    After, where `%next` is not an insertvalue chain (a function argument,
    say; for a chain the branch passes the values it inserted):
    ```mlir
    ^bb1(%acc0: f32, %acc1: f32):
      ...        // %a is %acc0
      %n0 = llvm.extractvalue %next[0] : !llvm.struct<(f32, f32)>
      %n1 = llvm.extractvalue %next[1] : !llvm.struct<(f32, f32)>
      llvm.br ^bb1(%n0, %n1 : f32, f32)
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def KGPUHoistIndexConstants
    : Pass<"kgpu-hoist-index-constants", "::mlir::ModuleOp"> {
  let summary = "move integer constants to the outermost add of LLVM-dialect index math";
  let description = [{
    The SIMT lowering computes every element a thread holds separately: an
    element's index is its own chain of `llvm.add` / `llvm.mul` /
    `llvm.shl` over the thread's base index (from the thread id) and that
    element's constant offsets, e.g. `((b + 8) * 2048) + (c + 16)` for one
    element and `((b + 16) * 2048) + c` for the next. This pass splits
    every integer scalar value into a base plus a constant, operands
    before users, by the identities

      (x + c1) + c2 -> x + (c1 + c2)       (x + c) + y -> (x + y) + c
      (x + c) - y   -> (x - y) + c         x - (y + c) -> (x - y) + (-c)
      (x + c1) * c2 -> x * c2 + c1 * c2    (x + c1) << c2 -> (x << c2) + (c1 << c2)

    (c, c1, c2 `llvm.mlir.constant`s, read at the result type's width; c2
    of a shift below the bit width), so that each index becomes one
    expression shared by all elements plus a constant:
    `(b * 2048 + c) + 16400`. Each value is split once from its operands'
    splits, so the work is linear in the number of ops however the values
    are reused. The CSE after it leaves one copy of the shared part. All
    of these are identities of wrap-around integer arithmetic; the new ops
    carry no overflow flags. Division, remainder and bitwise ops are left
    alone.

    Why: given the per-element chains, LLVM's straight-line strength
    reduction (NVPTX codegen) relates every pair of indices with the same
    stride, and in LLVM 22 checks each candidate rewrite for poison along
    the whole chain, which was 30-60% of codegen for the Inductor matmul
    templates of the corpus (build machine, `llc -time-passes`:
    triton_mm.5N6M6GSD 51 of 85 ms); base-plus-constant addresses also fold
    into `[%r + imm]` operands.
    Run after kgpu-convert-to-llvm (and scf-to-cf), before the CSE.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
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
    tt.dot with an mma accumulator carried by the loop (as the dot's C, or
    as `arith.addf %acc, %dot` of a dot from zero, which f8 TTIR keeps for
    `acc += tl.dot(a, b)`; with wgmma only where the product fits in
    registers beside the sum, wgmmaFromZeroFits: each iteration then
    retires its group and adds it, nothing in flight across the back
    edge); A and B come straight from
    non-volatile tt.loads of 16-bit elements (not the f32 operands of tf32
    dots), or both from f8E4M3FN / f8E5M2 tt.loads through the tt.fp_to_fp
    to f16 of tt-upcast-f8-dot-operands (one f8 format for both), with a
    zero (or no)
    `other`, movable as 4, 8 or 16 contiguous bytes per thread along
    their rows (or, for B, along K: stored transposed; or B is tt.trans
    [1, 0] of such a load of an N x K tile, copied as loaded), masked or
    not (a mask along M or N, as convolutions and block pointers' boundary
    checks have, is copied like one along K: masked-off elements are
    zero-filled); everything else in the body computes those loads'
    pointers and masks or advances loop-carried pointers (pure ops; where
    one is a layout conversion, which uses shared memory at offset 0, the
    slots take a region of their own above it, `kgpu.own_shared_memory`),
    and those pointers are not used after the loop; or computes, by pure
    ops, the next value of a carried value that nothing reads (not the
    loads, not after the loop), which the pipelined loop leaves out. Other
    loops are left as they are.

    f8 operands need A and B both K-contiguous (B stored transposed, or
    the upcast of tt.trans [1, 0] of an N x K load, copied as loaded) and K
    a multiple of 32: their slots hold the bytes. For mma.sync the rows are
    padded by 16 bytes and `kgpu.local_dot` upcasts the fragments it reads;
    with `wgmma` the slots are swizzled like 16-bit ones (whole 128-byte
    rows, an f8 K of 64 filling half of each) and wgmma multiplies the f8
    values (m64nNk32 .e4m3 / .e5m2), but only for a dot whose
    maxNumImpreciseAcc is at least 2^30 (Triton's default for f8): a
    smaller bound asks for partial sums promoted to f32, which the wgmma
    loop does not make, so such loops upcast for mma.sync.

    With `wgmma`, slots use wgmma's 128-byte swizzled arrangements and the
    multiply is `kgpu.local_dot` with `wgmma`, left in flight into the next
    iteration: each iteration waits for the previous one's group
    (`kgpu.wgmma_wait 1`, the accumulator tied through it), passes a
    `kgpu.barrier` and refills the slot that group read. The loop runs
    under `scf.if (lb < ub)` holding the last `kgpu.wgmma_wait 0`.

    Attention loops, with `wgmma` only: a loop whose every tt.dot wgmma
    computes (accumulator warps along M) and reads a B tile the body loads
    (unmasked, used by the dot alone, directly or through tt.trans [1, 0])
    with A either loaded before the loop or in the accumulator's layout
    (attention's P). Q is copied once into its own region, each B into two
    slots: each iteration computes its pointers and the next values of the
    carried arguments they read first (pure ops and scalar loads moved to
    the top, such as flex attention's block indices), waits for the first
    B, copies the next iteration's B tiles into the other slot (one commit
    group per dot), and multiplies each dot with `kgpu.local_dot` (P from
    registers) once its B has landed, waiting for every group. The body
    may hold elementwise ops, shape ops, loads, reductions and layout
    conversions, nothing that writes memory; where some of those use
    shared memory, the slots take a region of their own above it
    (`kgpu.own_shared_memory` on the copies and local_dots), otherwise
    they start at offset 0. The slots need at most 227 KB. On the H200
    the corpus flex attention kernel went from 55.5 to 41.5 us, Triton's
    time (docs/BENCHMARKS.md).

    The same form takes a one-dot loop whose A the body computes from
    tiles it loads and converts to the accumulator's layout
    (kgpu-assign-layouts' register-a): each such tile (blocked, copied
    along its rows, `other` 0 or none) is copied with B's group into slots
    of its own (rows padded by 16 bytes) and read back with
    `kgpu.local_load` in that layout; num-stages slots, the carried
    pointers' values num-stages - 1 iterations ahead carried too (pure next
    values only); a small vector left as a register load (a per-K scale)
    is then loaded one iteration ahead. On 8 or more warps the multiply
    stays in flight across the back edge (the copies follow its wait and a
    barrier), on 4 each iteration waits for it. On the H200 (thirty-fifth
    session, docs/BENCHMARKS.md) 10 of the 13 changed kernels ran faster,
    bt_kscale_f16_128x128x64 32.98 -> 19.87 us (Triton 22.15).

    Other loops with a tensor-core dot, at num-stages 2 or more: where the
    body (no nested regions; no memory effects but its loads) holds a tt.dot
    with a #kgpu.mma accumulator and tensor tt.loads (not volatile, of
    tensors of pointers) whose pointers, masks and `other` values pure ops
    compute from the induction variable, values defined before the loop and
    iteration arguments that pure ops advance, and the loaded tiles take at
    most 64 32-bit registers per thread (144 with the dots' accumulators and
    the body's largest other temporary),
    each such load of iteration i + 1 is issued at the top of iteration i
    (iteration 0's before the loop), masked off where that iteration does
    not exist (i + 1 < ub compared in i64), and carried to it as an
    iteration argument: its latency overlaps one iteration's multiply. This
    takes the loops the two forms above cannot stage: an operand scaled,
    biased or upcast by a vector in the loop (the dot's operand is not the
    load), a loop-invariant A beside warps along N, two dots in one loop.
    On the H200 every such conformance kernel ran as fast or faster, up to
    1.77x (docs/BENCHMARKS.md, twenty-sixth session); loads two or more
    iterations ahead were slower.

    With `stage-tiles` (off by default), a loop that qualifies for the
    register prefetch but for its register budget has its 2-D tile loads
    (blocked layouts, no `other` or one of +0.0 or integer 0, 4 to 16
    contiguous bytes per thread) staged through shared memory instead: each
    is copied (`kgpu.async_copy`, swizzle 0) `num-stages - 1` iterations
    ahead into slots of its own above the body's shared memory
    (`kgpu.own_shared_memory`, at most 128 KB: fewer stages, at least 2,
    where more do not fit) and read back by each thread in the load's layout
    (`kgpu.local_load`, after the iteration's `kgpu.async_wait`, a wait and
    a CTA barrier). Loads left in registers of at most 16 registers per
    thread (a per-K scale vector) are then prefetched one iteration ahead.
    Two kinds of loop are left as they are, both slower staged on the H200:
    one with a tile load that cannot be staged and takes more than those 16
    registers, and one whose tile pointers (or their next values) come from
    tensors of pointers defined before the loop, more than 16 registers of
    them per thread (a splat counts as one pointer). Tiles other than 8, 16,
    32 or 64 bits wide are not staged. Of the 7 conformance kernels staged
    then, 6 ran 1.07-1.30x faster and one (pf_edge_asilu, 167 -> 174
    registers per thread) 1.38x slower (docs/BENCHMARKS.md, twenty-eighth
    session): not a default.

    A loop of constant trip count 0 is left as it is in every form: it has
    nothing to overlap, and -canonicalize after this pass would fold it
    away and leave prologue copies into slots no op reads.

    The pipelined loop carries `loop_annotation =
    #llvm.loop_annotation<unroll = <disable = true>>`: it keeps
    `num-stages - 1` iterations in flight already, and ptxas unrolls a K
    loop of constant trip count completely otherwise (`.pragma "nounroll"`
    in the PTX stops it).
  }];
  let dependentDialects = ["::kiln::kgpu::KGPUDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect"];
  let options = [
    Option<"numStages", "num-stages", "int", /*default=*/"3",
           "shared-memory slots (iterations in flight + 1); < 2 disables">,
    Option<"wgmma", "wgmma", "bool", /*default=*/"false",
           "multiply with wgmma.mma_async (sm_90a) where the accumulator "
           "layout and tile shape allow">,
    Option<"stageTiles", "stage-tiles", "bool", /*default=*/"false",
           "stage through shared memory (cp.async, kgpu.local_load) the "
           "tiles of loops the register prefetch leaves for its budget "
           "(experimental: slower on 1 of the 7 kernels measured)">,
  ];
}

#endif // KILN_PASSES_PASSES_TD
