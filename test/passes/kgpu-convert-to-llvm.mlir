// RUN: kiln-opt %s -kgpu-assign-layouts=num-warps=4 -kgpu-convert-to-llvm -split-input-file | FileCheck %s --enable-var-scope
// RUN: not kiln-opt %S/Inputs/unsupported-op.mlir -kgpu-assign-layouts=num-warps=4 -kgpu-convert-to-llvm 2>&1 | FileCheck %s --check-prefix=NOT-LOWERED
// RUN: not kiln-opt %s -kgpu-convert-to-llvm -split-input-file 2>&1 | FileCheck %s --check-prefix=NO-LAYOUTS
// RUN: kiln-opt %S/Inputs/odd-width-elements.mlir -kgpu-assign-layouts=num-warps=4 -kgpu-convert-to-llvm -split-input-file -verify-diagnostics

// kgpu-convert-to-llvm (after kgpu-assign-layouts, 4 warps): tt/kgpu tensor
// programs to LLVM + NVVM, one thread's elements per tensor.

// Ops the lowering does not handle are rejected by name, at their location.
// NOT-LOWERED: unsupported-op.mlir:4:8: error: kiln cannot lower 'tt.dot_scaled' to NVPTX yet

// Without kgpu-assign-layouts there is no CTA shape to lower for.
// NO-LAYOUTS: error: module has no kgpu.num-warps attribute; run kgpu-assign-layouts first

// A kernel becomes an llvm.func marked as an NVVM kernel of 4 x 32 threads,
// with its argument names and tt types kept for the launcher. A masked f32
// load from 16-byte aligned pointers is one predicated ld.global.v4.b32 per
// thread (mask as the predicate, $5; outputs zeroed first so ptxas never
// sees a register defined only under a predicate), the masked store one
// st.global.v4.b32. The mask is one compare (AxisInfo: constant in runs
// of 4), read by both without an extractvalue. The splatted pointers go
// straight into the GEPs: the struct a splat packs for its users, which
// read its elements off the pack, is erased with the other dead packs.
// Every kernel parameter is `noundef` (a launch passes a defined value).
// CHECK-LABEL: llvm.func @masked_copy
// CHECK-SAME:    (%[[X:[^:]*]]: !llvm.ptr<1> {llvm.noundef}, %[[OUT:[^:]*]]: !llvm.ptr<1> {llvm.noundef}, %[[N:[^:]*]]: i32 {llvm.noundef})
// CHECK-SAME:    attributes {kiln.arg_names = ["arg0", "arg1", "arg2"], kiln.arg_types = ["ptr<f32>", "ptr<f32>", "i32"], nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>}
// CHECK:         %[[MASK:.*]] = llvm.icmp "slt" %{{.*}}, %{{.*}} : i32
// CHECK-NOT:     llvm.icmp
// CHECK-NOT:     llvm.insertvalue
// CHECK:         llvm.getelementptr %[[X]][%{{.*}}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK:         llvm.inline_asm asm_dialect = att "mov.b32 $0, 0;\0A\09mov.b32 $1, 0;\0A\09mov.b32 $2, 0;\0A\09mov.b32 $3, 0;\0A\09@$5 ld.global.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ];", "=r,=r,=r,=r,l,b" %{{[0-9]+}}, %[[MASK]] : (!llvm.ptr<1>, i1) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NOT:     ld.global
// CHECK-NOT:     llvm.insertvalue
// CHECK:         llvm.getelementptr %[[OUT]][%{{.*}}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK:         llvm.inline_asm has_side_effects asm_dialect = att "@$1 st.global.v4.b32 [ $0 + 0 ], { $2, $3, $4, $5 };", "l,b,r,r,r,r" %{{[0-9]+}}, %[[MASK]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (!llvm.ptr<1>, i1, i32, i32, i32, i32) -> ()
// CHECK-NOT:     st.global
// CHECK:         llvm.return
tt.func public @masked_copy(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
  %range = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %ns = tt.splat %n : i32 -> tensor<512xi32>
  %mask = arith.cmpi slt, %range, %ns : tensor<512xi32>
  %xs = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %range : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  %x = tt.load %xp, %mask : tensor<512x!tt.ptr<f32>>
  %os = tt.splat %out_ptr : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %op = tt.addptr %os, %range : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  tt.store %op, %x, %mask : tensor<512x!tt.ptr<f32>>
  tt.return
}

// -----

// Cache modifiers and eviction policies reach the PTX (predicated on true
// when there is no mask); a plain store stays an aligned llvm.store.
// CHECK-LABEL: llvm.func @cache_evict
// CHECK:         llvm.inline_asm asm_dialect = att "mov.b32 $0, 0;\0A\09mov.b32 $1, 0;\0A\09mov.b32 $2, 0;\0A\09mov.b32 $3, 0;\0A\09@$5 ld.global.cg.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ];"
// CHECK:         llvm.inline_asm asm_dialect = att "mov.b32 $0, 0;\0A\09mov.b32 $1, 0;\0A\09mov.b32 $2, 0;\0A\09mov.b32 $3, 0;\0A\09@$5 ld.global.L1::evict_last.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ];"
// CHECK:         llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
tt.func public @cache_evict(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %range = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %xs = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %range : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  %a = tt.load %xp cacheModifier = cg : tensor<512x!tt.ptr<f32>>
  %b = tt.load %xp evictionPolicy = evict_last : tensor<512x!tt.ptr<f32>>
  %s = arith.addf %a, %b : tensor<512xf32>
  %os = tt.splat %out_ptr : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %op = tt.addptr %os, %range : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  tt.store %op, %s : tensor<512x!tt.ptr<f32>>
  tt.return
}

// -----

// tt.get_program_id y reads the CTA id along y.
// CHECK-LABEL: llvm.func @pid_y
// CHECK:         %[[PID:.*]] = nvvm.read.ptx.sreg.ctaid.y : i32
// CHECK:         llvm.store %[[PID]], %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<1>
tt.func public @pid_y(%out_ptr: !tt.ptr<i32>) {
  %pid = tt.get_program_id y : i32
  tt.store %out_ptr, %pid : !tt.ptr<i32>
  tt.return
}

// -----

// A 1-D sum over 512 elements, 4 per thread: combined in the thread, across
// the 32 lanes by butterfly shuffles (xor 1, 2, 4, 8, 16), then across the
// 4 warps through 16 bytes of (dynamic) shared memory between two barriers.
// CHECK: module attributes {"kgpu.num-warps" = 4 : i32, kgpu.shared = 16 : i32
// CHECK: llvm.mlir.global external @kgpu_shared_memory() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK-LABEL: llvm.func @sum_512
// CHECK-COUNT-3: llvm.fadd
// CHECK:         %[[C1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK:         nvvm.shfl.sync  bfly %{{.*}}, %{{.*}}, %[[C1]], %{{.*}} : i32 -> i32
// CHECK:         %[[C2:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK:         nvvm.shfl.sync  bfly %{{.*}}, %{{.*}}, %[[C2]], %{{.*}} : i32 -> i32
// CHECK:         %[[C4:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK:         nvvm.shfl.sync  bfly %{{.*}}, %{{.*}}, %[[C4]], %{{.*}} : i32 -> i32
// CHECK:         %[[C8:.*]] = llvm.mlir.constant(8 : i32) : i32
// CHECK:         nvvm.shfl.sync  bfly %{{.*}}, %{{.*}}, %[[C8]], %{{.*}} : i32 -> i32
// CHECK:         %[[C16:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK:         nvvm.shfl.sync  bfly %{{.*}}, %{{.*}}, %[[C16]], %{{.*}} : i32 -> i32
// CHECK-NOT:     nvvm.shfl.sync
// Outside a loop nothing read this shared memory before: no barrier ahead
// of the partial sums' stores, one between stores and loads.
// CHECK-NOT:     nvvm.barrier0
// CHECK:         llvm.mlir.addressof @kgpu_shared_memory : !llvm.ptr<3>
// CHECK:         llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK:         nvvm.barrier0
// Four warps: every thread reads the four partials (the lane shuffles of
// kgpu-reduce-across-warps.mlir start at 16 warps).
// CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT:     nvvm.barrier0
// CHECK:         llvm.return
tt.func public @sum_512(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out_ptr: !tt.ptr<f32>) {
  %range = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %xs = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %range : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  %x = tt.load %xp : tensor<512x!tt.ptr<f32>>
  %sum = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    tt.reduce.return %t : f32
  }) : (tensor<512xf32>) -> f32
  tt.store %out_ptr, %sum : !tt.ptr<f32>
  tt.return
}

// -----

// math.exp on f32 is ex2.approx.f32(x * log2(e)), as Triton lowers it (no
// libdevice call).
// CHECK-NOT: llvm.func @__nv_expf
// CHECK-LABEL: llvm.func @exp
// CHECK:         llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK:         %[[LOG2E:.*]] = llvm.mlir.constant(1.44269502 : f32) : f32
// CHECK:         %[[P:.*]] = llvm.fmul %{{.*}}, %[[LOG2E]] : f32
// CHECK:         llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"(%[[P]]) : (f32) -> f32
// CHECK-NOT:     math.exp
// CHECK:         llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<1>
tt.func public @exp(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %range = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %xs = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %range : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  %x = tt.load %xp : tensor<128x!tt.ptr<f32>>
  %e = math.exp %x : tensor<128xf32>
  tt.store %xp, %e : tensor<128x!tt.ptr<f32>>
  tt.return
}
