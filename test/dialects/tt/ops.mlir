// RUN: kiln-opt %s | kiln-opt | FileCheck %s --enable-var-scope
// RUN: kiln-opt %s --mlir-print-op-generic | kiln-opt | FileCheck %s --enable-var-scope

// Round trip of every tt op in the custom format Triton 3.6 prints (ops that
// Triton prints in generic form -- tt.reduce, tt.scan, tt.map_elementwise --
// in generic form). The second RUN line checks that the generic form parses
// back to the same ops.

//===----------------------------------------------------------------------===//
// Program identity
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tt.func @program_ids()
// CHECK-NEXT:    [[PX:%.*]] = tt.get_program_id x : i32
// CHECK-NEXT:    [[PY:%.*]] = tt.get_program_id y : i32
// CHECK-NEXT:    [[PZ:%.*]] = tt.get_program_id z : i32
// CHECK-NEXT:    [[NX:%.*]] = tt.get_num_programs x : i32
// CHECK-NEXT:    [[NY:%.*]] = tt.get_num_programs y : i32
// CHECK-NEXT:    [[NZ:%.*]] = tt.get_num_programs z : i32
// CHECK-NEXT:    tt.return [[PX]], [[PY]], [[PZ]], [[NX]], [[NY]], [[NZ]] : i32, i32, i32, i32, i32, i32
tt.func @program_ids() -> (i32, i32, i32, i32, i32, i32) {
  %px = tt.get_program_id x : i32
  %py = tt.get_program_id y : i32
  %pz = tt.get_program_id z : i32
  %nx = tt.get_num_programs x : i32
  %ny = tt.get_num_programs y : i32
  %nz = tt.get_num_programs z : i32
  tt.return %px, %py, %pz, %nx, %ny, %nz : i32, i32, i32, i32, i32, i32
}

//===----------------------------------------------------------------------===//
// Tensor construction and shape manipulation
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tt.func @make_range_splat(
// CHECK-SAME:      [[S:%[^:]+]]: i32, [[P:%[^:]+]]: !tt.ptr<f32>, [[ONE:%[^:]+]]: tensor<1x1xf32>, [[ONEP:%[^:]+]]: tensor<1x!tt.ptr<f16>>)
// CHECK-NEXT:    [[R0:%.*]] = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
// CHECK-NEXT:    [[R1:%.*]] = tt.make_range {end = 96 : i32, start = 32 : i32} : tensor<64xi32>
// CHECK-NEXT:    [[SPLAT:%.*]] = tt.splat [[S]] : i32 -> tensor<128xi32>
// CHECK-NEXT:    [[PTRS:%.*]] = tt.splat [[P]] : !tt.ptr<f32> -> tensor<4x128x!tt.ptr<f32>>
// CHECK-NEXT:    [[U:%.*]] = tt.unsplat [[ONE]] : tensor<1x1xf32> -> f32
// CHECK-NEXT:    [[UP:%.*]] = tt.unsplat [[ONEP]] : tensor<1x!tt.ptr<f16>> -> !tt.ptr<f16>
// CHECK-NEXT:    tt.return
tt.func @make_range_splat(%s: i32, %p: !tt.ptr<f32>, %one: tensor<1x1xf32>, %onep: tensor<1x!tt.ptr<f16>>) {
  %r0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %r1 = tt.make_range {start = 32 : i32, end = 96 : i32} : tensor<64xi32>
  %splat = tt.splat %s : i32 -> tensor<128xi32>
  %ptrs = tt.splat %p : !tt.ptr<f32> -> tensor<4x128x!tt.ptr<f32>>
  %u = tt.unsplat %one : tensor<1x1xf32> -> f32
  %up = tt.unsplat %onep : tensor<1x!tt.ptr<f16>> -> !tt.ptr<f16>
  tt.return
}

// CHECK-LABEL: tt.func @expand_dims_broadcast(
// CHECK-SAME:      [[X:%[^:]+]]: tensor<128xi32>, [[M:%[^:]+]]: tensor<1x64xi1>)
// CHECK-NEXT:    [[COL:%.*]] = tt.expand_dims [[X]] {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
// CHECK-NEXT:    [[ROW:%.*]] = tt.expand_dims [[X]] {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
// CHECK-NEXT:    [[B:%.*]] = tt.broadcast [[COL]] : tensor<128x1xi32> -> tensor<128x64xi32>
// CHECK-NEXT:    [[BM:%.*]] = tt.broadcast [[M]] : tensor<1x64xi1> -> tensor<128x64xi1>
// CHECK-NEXT:    [[B3:%.*]] = tt.expand_dims [[B]] {axis = 2 : i32} : tensor<128x64xi32> -> tensor<128x64x1xi32>
// CHECK-NEXT:    tt.return
tt.func @expand_dims_broadcast(%x: tensor<128xi32>, %m: tensor<1x64xi1>) {
  %col = tt.expand_dims %x {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
  %row = tt.expand_dims %x {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
  %b = tt.broadcast %col : tensor<128x1xi32> -> tensor<128x64xi32>
  %bm = tt.broadcast %m : tensor<1x64xi1> -> tensor<128x64xi1>
  %b3 = tt.expand_dims %b {axis = 2 : i32} : tensor<128x64xi32> -> tensor<128x64x1xi32>
  tt.return
}

// CHECK-LABEL: tt.func @reshape(
// CHECK-SAME:      [[X:%[^:]+]]: tensor<32x64xf32>)
// CHECK-NEXT:    [[R0:%.*]] = tt.reshape [[X]] : tensor<32x64xf32> -> tensor<2048xf32>
// CHECK-NEXT:    [[R1:%.*]] = tt.reshape [[X]] allow_reorder : tensor<32x64xf32> -> tensor<64x32xf32>
// CHECK-NEXT:    [[R2:%.*]] = tt.reshape [[X]] efficient_layout : tensor<32x64xf32> -> tensor<4x8x64xf32>
// CHECK-NEXT:    [[R3:%.*]] = tt.reshape [[X]] allow_reorder efficient_layout : tensor<32x64xf32> -> tensor<2048xf32>
// CHECK-NEXT:    tt.return
tt.func @reshape(%x: tensor<32x64xf32>) {
  %r0 = tt.reshape %x : tensor<32x64xf32> -> tensor<2048xf32>
  %r1 = tt.reshape %x allow_reorder : tensor<32x64xf32> -> tensor<64x32xf32>
  %r2 = tt.reshape %x efficient_layout : tensor<32x64xf32> -> tensor<4x8x64xf32>
  %r3 = tt.reshape %x allow_reorder efficient_layout : tensor<32x64xf32> -> tensor<2048xf32>
  tt.return
}

// CHECK-LABEL: tt.func @trans_cat_join_split(
// CHECK-SAME:      [[A:%[^:]+]]: tensor<32x64xf16>, [[C:%[^:]+]]: tensor<2x4x8xf32>)
// CHECK-NEXT:    [[T:%.*]] = tt.trans [[A]] {order = array<i32: 1, 0>} : tensor<32x64xf16> -> tensor<64x32xf16>
// CHECK-NEXT:    [[T3:%.*]] = tt.trans [[C]] {order = array<i32: 2, 0, 1>} : tensor<2x4x8xf32> -> tensor<8x2x4xf32>
// CHECK-NEXT:    [[CAT:%.*]] = tt.cat [[A]], [[A]] : tensor<32x64xf16> -> tensor<64x64xf16>
// CHECK-NEXT:    [[J:%.*]] = tt.join [[A]], [[A]] : tensor<32x64xf16> -> tensor<32x64x2xf16>
// CHECK-NEXT:    [[LHS:%.*]], [[RHS:%.*]] = tt.split [[J]] : tensor<32x64x2xf16> -> tensor<32x64xf16>
// CHECK-NEXT:    tt.return [[LHS]], [[RHS]] : tensor<32x64xf16>, tensor<32x64xf16>
tt.func @trans_cat_join_split(%a: tensor<32x64xf16>, %c: tensor<2x4x8xf32>) -> (tensor<32x64xf16>, tensor<32x64xf16>) {
  %t = tt.trans %a {order = array<i32: 1, 0>} : tensor<32x64xf16> -> tensor<64x32xf16>
  %t3 = tt.trans %c {order = array<i32: 2, 0, 1>} : tensor<2x4x8xf32> -> tensor<8x2x4xf32>
  %cat = tt.cat %a, %a : tensor<32x64xf16> -> tensor<64x64xf16>
  %j = tt.join %a, %a : tensor<32x64xf16> -> tensor<32x64x2xf16>
  %lhs, %rhs = tt.split %j : tensor<32x64x2xf16> -> tensor<32x64xf16>
  tt.return %lhs, %rhs : tensor<32x64xf16>, tensor<32x64xf16>
}

//===----------------------------------------------------------------------===//
// Pointers
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tt.func @addptr(
// CHECK-SAME:      [[P:%[^:]+]]: !tt.ptr<f32>, [[O:%[^:]+]]: i32, [[O64:%[^:]+]]: i64, [[PS:%[^:]+]]: tensor<4x128x!tt.ptr<bf16>>, [[OS:%[^:]+]]: tensor<4x128xi32>)
// CHECK-NEXT:    [[A0:%.*]] = tt.addptr [[P]], [[O]] : !tt.ptr<f32>, i32
// CHECK-NEXT:    [[A1:%.*]] = tt.addptr [[A0]], [[O64]] : !tt.ptr<f32>, i64
// CHECK-NEXT:    [[A2:%.*]] = tt.addptr [[PS]], [[OS]] : tensor<4x128x!tt.ptr<bf16>>, tensor<4x128xi32>
// CHECK-NEXT:    tt.return
tt.func @addptr(%p: !tt.ptr<f32>, %o: i32, %o64: i64, %ps: tensor<4x128x!tt.ptr<bf16>>, %os: tensor<4x128xi32>) {
  %a0 = tt.addptr %p, %o : !tt.ptr<f32>, i32
  %a1 = tt.addptr %a0, %o64 : !tt.ptr<f32>, i64
  %a2 = tt.addptr %ps, %os : tensor<4x128x!tt.ptr<bf16>>, tensor<4x128xi32>
  tt.return
}

// Pointers into address space 1 (global) print without the address space;
// others print it.
// CHECK-LABEL: tt.func @address_spaces(
// CHECK-SAME:      [[G:%[^:]+]]: !tt.ptr<f32>, [[S:%[^:]+]]: !tt.ptr<f32, 3>, [[Z:%[^:]+]]: !tt.ptr<i8, 0>, [[PP:%[^:]+]]: !tt.ptr<!tt.ptr<f16>>, [[ST:%[^:]+]]: tensor<16x!tt.ptr<f32, 3>>)
// CHECK-NEXT:    [[C:%.*]] = arith.constant 1 : i32
// CHECK-NEXT:    [[A:%.*]] = tt.addptr [[S]], [[C]] : !tt.ptr<f32, 3>, i32
// CHECK-NEXT:    [[L:%.*]] = tt.load [[PP]] : !tt.ptr<!tt.ptr<f16>>
// CHECK-NEXT:    [[V:%.*]] = tt.load [[A]] : !tt.ptr<f32, 3>
// CHECK-NEXT:    tt.store [[G]], [[V]] : !tt.ptr<f32>
// CHECK-NEXT:    tt.return [[ST]] : tensor<16x!tt.ptr<f32, 3>>
tt.func @address_spaces(%g: !tt.ptr<f32, 1>, %s: !tt.ptr<f32, 3>, %z: !tt.ptr<i8, 0>, %pp: !tt.ptr<!tt.ptr<f16>>, %st: tensor<16x!tt.ptr<f32, 3>>) -> tensor<16x!tt.ptr<f32, 3>> {
  %c1 = arith.constant 1 : i32
  %a = tt.addptr %s, %c1 : !tt.ptr<f32, 3>, i32
  %l = tt.load %pp : !tt.ptr<!tt.ptr<f16>>
  %v = tt.load %a : !tt.ptr<f32, 3>
  tt.store %g, %v : !tt.ptr<f32>
  tt.return %st : tensor<16x!tt.ptr<f32, 3>>
}

//===----------------------------------------------------------------------===//
// Loads and stores
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tt.func @loads(
// CHECK-SAME:      [[PTRS:%[^:]+]]: tensor<128x!tt.ptr<f32>>, [[MASK:%[^:]+]]: tensor<128xi1>, [[OTHER:%[^:]+]]: tensor<128xf32>, [[P:%[^:]+]]: !tt.ptr<f32>, [[C:%[^:]+]]: i1)
// CHECK-NEXT:    [[L0:%.*]] = tt.load [[PTRS]] : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT:    [[L1:%.*]] = tt.load [[PTRS]], [[MASK]] : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT:    [[L2:%.*]] = tt.load [[PTRS]], [[MASK]], [[OTHER]] : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT:    [[L3:%.*]] = tt.load [[PTRS]], [[MASK]], [[OTHER]] cacheModifier = ca : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT:    [[L4:%.*]] = tt.load [[PTRS]] evictionPolicy = evict_last : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT:    [[L5:%.*]] = tt.load [[PTRS]] cacheModifier = cg evictionPolicy = evict_first : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT:    [[L6:%.*]] = tt.load [[PTRS]], [[MASK]] cacheModifier = cv {isVolatile = true} : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT:    [[L7:%.*]] = tt.load [[P]] : !tt.ptr<f32>
// CHECK-NEXT:    [[L8:%.*]] = tt.load [[P]], [[C]] : !tt.ptr<f32>
// CHECK-NEXT:    tt.return
tt.func @loads(%ptrs: tensor<128x!tt.ptr<f32>>, %mask: tensor<128xi1>, %other: tensor<128xf32>, %p: !tt.ptr<f32>, %c: i1) {
  %l0 = tt.load %ptrs : tensor<128x!tt.ptr<f32>>
  %l1 = tt.load %ptrs, %mask : tensor<128x!tt.ptr<f32>>
  %l2 = tt.load %ptrs, %mask, %other : tensor<128x!tt.ptr<f32>>
  %l3 = tt.load %ptrs, %mask, %other cacheModifier = ca : tensor<128x!tt.ptr<f32>>
  %l4 = tt.load %ptrs evictionPolicy = evict_last : tensor<128x!tt.ptr<f32>>
  // oilist clauses may come in any order; they print in declaration order.
  %l5 = tt.load %ptrs evictionPolicy = evict_first cacheModifier = cg : tensor<128x!tt.ptr<f32>>
  %l6 = tt.load %ptrs, %mask cacheModifier = cv {isVolatile = true} : tensor<128x!tt.ptr<f32>>
  %l7 = tt.load %p : !tt.ptr<f32>
  %l8 = tt.load %p, %c : !tt.ptr<f32>
  tt.return
}

// Default-valued attributes are elided: cacheModifier = none,
// evictionPolicy = evict_normal, isVolatile = false.
// CHECK-LABEL: tt.func @load_store_defaults(
// CHECK-SAME:      [[PTRS:%[^:]+]]: tensor<128x!tt.ptr<f32>>)
// CHECK-NEXT:    [[L:%.*]] = tt.load [[PTRS]] : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT:    tt.store [[PTRS]], [[L]] : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT:    tt.return
tt.func @load_store_defaults(%ptrs: tensor<128x!tt.ptr<f32>>) {
  %l = tt.load %ptrs cacheModifier = none evictionPolicy = evict_normal {isVolatile = false} : tensor<128x!tt.ptr<f32>>
  tt.store %ptrs, %l cacheModifier = none evictionPolicy = evict_normal : tensor<128x!tt.ptr<f32>>
  tt.return
}

// CHECK-LABEL: tt.func @stores(
// CHECK-SAME:      [[PTRS:%[^:]+]]: tensor<128x!tt.ptr<f16>>, [[V:%[^:]+]]: tensor<128xf16>, [[MASK:%[^:]+]]: tensor<128xi1>, [[P:%[^:]+]]: !tt.ptr<i64>, [[S:%[^:]+]]: i64)
// CHECK-NEXT:    tt.store [[PTRS]], [[V]] : tensor<128x!tt.ptr<f16>>
// CHECK-NEXT:    tt.store [[PTRS]], [[V]], [[MASK]] : tensor<128x!tt.ptr<f16>>
// CHECK-NEXT:    tt.store [[PTRS]], [[V]], [[MASK]] cacheModifier = wt evictionPolicy = evict_first : tensor<128x!tt.ptr<f16>>
// CHECK-NEXT:    tt.store [[PTRS]], [[V]] cacheModifier = cs : tensor<128x!tt.ptr<f16>>
// CHECK-NEXT:    tt.store [[PTRS]], [[V]] cacheModifier = wb evictionPolicy = evict_last : tensor<128x!tt.ptr<f16>>
// CHECK-NEXT:    tt.store [[P]], [[S]] : !tt.ptr<i64>
// CHECK-NEXT:    tt.return
tt.func @stores(%ptrs: tensor<128x!tt.ptr<f16>>, %v: tensor<128xf16>, %mask: tensor<128xi1>, %p: !tt.ptr<i64>, %s: i64) {
  tt.store %ptrs, %v : tensor<128x!tt.ptr<f16>>
  tt.store %ptrs, %v, %mask : tensor<128x!tt.ptr<f16>>
  tt.store %ptrs, %v, %mask cacheModifier = wt evictionPolicy = evict_first : tensor<128x!tt.ptr<f16>>
  tt.store %ptrs, %v cacheModifier = cs : tensor<128x!tt.ptr<f16>>
  tt.store %ptrs, %v evictionPolicy = evict_last cacheModifier = wb : tensor<128x!tt.ptr<f16>>
  tt.store %p, %s : !tt.ptr<i64>
  tt.return
}

// CHECK-LABEL: tt.func @block_pointers(
// CHECK-SAME:      [[BASE:%[^:]+]]: !tt.ptr<f16>, [[M:%[^:]+]]: i64, [[K:%[^:]+]]: i64, [[OFF:%[^:]+]]: i32)
// CHECK-NEXT:    [[C1:%.*]] = arith.constant 1 : i64
// CHECK-NEXT:    [[C0:%.*]] = arith.constant 0 : i32
// CHECK-NEXT:    [[C64:%.*]] = arith.constant 64 : i32
// CHECK-NEXT:    [[BP:%.*]] = tt.make_tensor_ptr [[BASE]], {{\[}}[[M]], [[K]]], {{\[}}[[K]], [[C1]]], {{\[}}[[OFF]], [[C0]]] {order = array<i32: 1, 0>} : <tensor<128x64xf16>>
// CHECK-NEXT:    [[ADV:%.*]] = tt.advance [[BP]], {{\[}}[[C0]], [[C64]]] : <tensor<128x64xf16>>
// CHECK-NEXT:    [[L0:%.*]] = tt.load [[BP]] : !tt.ptr<tensor<128x64xf16>>
// CHECK-NEXT:    [[L1:%.*]] = tt.load [[ADV]] {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<128x64xf16>>
// CHECK-NEXT:    [[L2:%.*]] = tt.load [[ADV]] cacheModifier = cg {boundaryCheck = array<i32: 1>, padding = 2 : i32} : !tt.ptr<tensor<128x64xf16>>
// CHECK-NEXT:    tt.store [[BP]], [[L1]] : !tt.ptr<tensor<128x64xf16>>
// CHECK-NEXT:    tt.store [[ADV]], [[L2]] {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<128x64xf16>>
// CHECK-NEXT:    tt.store [[ADV]], [[L2]] evictionPolicy = evict_first {boundaryCheck = array<i32: 1>} : !tt.ptr<tensor<128x64xf16>>
// CHECK-NEXT:    tt.return [[ADV]] : !tt.ptr<tensor<128x64xf16>>
tt.func @block_pointers(%base: !tt.ptr<f16>, %m: i64, %k: i64, %off: i32) -> !tt.ptr<tensor<128x64xf16>> {
  %c1_i64 = arith.constant 1 : i64
  %c0_i32 = arith.constant 0 : i32
  %c64_i32 = arith.constant 64 : i32
  %bp = tt.make_tensor_ptr %base, [%m, %k], [%k, %c1_i64], [%off, %c0_i32] {order = array<i32: 1, 0>} : <tensor<128x64xf16>>
  %adv = tt.advance %bp, [%c0_i32, %c64_i32] : <tensor<128x64xf16>>
  %l0 = tt.load %bp : !tt.ptr<tensor<128x64xf16>>
  %l1 = tt.load %adv {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<128x64xf16>>
  %l2 = tt.load %adv cacheModifier = cg {boundaryCheck = array<i32: 1>, padding = 2 : i32} : !tt.ptr<tensor<128x64xf16>>
  tt.store %bp, %l1 : !tt.ptr<tensor<128x64xf16>>
  tt.store %adv, %l2 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<128x64xf16>>
  tt.store %adv, %l2 evictionPolicy = evict_first {boundaryCheck = array<i32: 1>} : !tt.ptr<tensor<128x64xf16>>
  tt.return %adv : !tt.ptr<tensor<128x64xf16>>
}

//===----------------------------------------------------------------------===//
// Atomics
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tt.func @atomics(
// CHECK-SAME:      [[PF:%[^:]+]]: tensor<128x!tt.ptr<f32>>, [[VF:%[^:]+]]: tensor<128xf32>, [[MASK:%[^:]+]]: tensor<128xi1>, [[PI:%[^:]+]]: tensor<128x!tt.ptr<i32>>, [[VI:%[^:]+]]: tensor<128xi32>, [[P:%[^:]+]]: !tt.ptr<i64>, [[S:%[^:]+]]: i64, [[C:%[^:]+]]: i1)
// CHECK-NEXT:    [[R0:%.*]] = tt.atomic_rmw fadd, acq_rel, gpu, [[PF]], [[VF]], [[MASK]] : (tensor<128x!tt.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> tensor<128xf32>
// CHECK-NEXT:    [[R1:%.*]] = tt.atomic_rmw fadd, relaxed, gpu, [[PF]], [[VF]] : (tensor<128x!tt.ptr<f32>>, tensor<128xf32>) -> tensor<128xf32>
// CHECK-NEXT:    [[R2:%.*]] = tt.atomic_rmw add, acquire, cta, [[PI]], [[VI]], [[MASK]] : (tensor<128x!tt.ptr<i32>>, tensor<128xi32>, tensor<128xi1>) -> tensor<128xi32>
// CHECK-NEXT:    [[R3:%.*]] = tt.atomic_rmw max, release, sys, [[PI]], [[VI]] : (tensor<128x!tt.ptr<i32>>, tensor<128xi32>) -> tensor<128xi32>
// CHECK-NEXT:    [[R4:%.*]] = tt.atomic_rmw min, acq_rel, gpu, [[PI]], [[VI]] : (tensor<128x!tt.ptr<i32>>, tensor<128xi32>) -> tensor<128xi32>
// CHECK-NEXT:    [[R5:%.*]] = tt.atomic_rmw umax, acq_rel, gpu, [[PI]], [[VI]] : (tensor<128x!tt.ptr<i32>>, tensor<128xi32>) -> tensor<128xi32>
// CHECK-NEXT:    [[R6:%.*]] = tt.atomic_rmw umin, acq_rel, gpu, [[PI]], [[VI]] : (tensor<128x!tt.ptr<i32>>, tensor<128xi32>) -> tensor<128xi32>
// CHECK-NEXT:    [[R7:%.*]] = tt.atomic_rmw and, relaxed, gpu, [[PI]], [[VI]] : (tensor<128x!tt.ptr<i32>>, tensor<128xi32>) -> tensor<128xi32>
// CHECK-NEXT:    [[R8:%.*]] = tt.atomic_rmw or, relaxed, gpu, [[PI]], [[VI]] : (tensor<128x!tt.ptr<i32>>, tensor<128xi32>) -> tensor<128xi32>
// CHECK-NEXT:    [[R9:%.*]] = tt.atomic_rmw xor, relaxed, gpu, [[PI]], [[VI]] : (tensor<128x!tt.ptr<i32>>, tensor<128xi32>) -> tensor<128xi32>
// CHECK-NEXT:    [[R10:%.*]] = tt.atomic_rmw exch, acq_rel, sys, [[P]], [[S]], [[C]] : (!tt.ptr<i64>, i64, i1) -> i64
// CHECK-NEXT:    [[R11:%.*]] = tt.atomic_cas acq_rel, gpu, [[P]], [[S]], [[S]] : (!tt.ptr<i64>, i64, i64) -> i64
// CHECK-NEXT:    [[R12:%.*]] = tt.atomic_cas relaxed, cta, [[PI]], [[VI]], [[VI]] : (tensor<128x!tt.ptr<i32>>, tensor<128xi32>, tensor<128xi32>) -> tensor<128xi32>
// CHECK-NEXT:    tt.return
tt.func @atomics(%pf: tensor<128x!tt.ptr<f32>>, %vf: tensor<128xf32>, %mask: tensor<128xi1>, %pi: tensor<128x!tt.ptr<i32>>, %vi: tensor<128xi32>, %p: !tt.ptr<i64>, %s: i64, %c: i1) {
  %r0 = tt.atomic_rmw fadd, acq_rel, gpu, %pf, %vf, %mask : (tensor<128x!tt.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> tensor<128xf32>
  %r1 = tt.atomic_rmw fadd, relaxed, gpu, %pf, %vf : (tensor<128x!tt.ptr<f32>>, tensor<128xf32>) -> tensor<128xf32>
  %r2 = tt.atomic_rmw add, acquire, cta, %pi, %vi, %mask : (tensor<128x!tt.ptr<i32>>, tensor<128xi32>, tensor<128xi1>) -> tensor<128xi32>
  %r3 = tt.atomic_rmw max, release, sys, %pi, %vi : (tensor<128x!tt.ptr<i32>>, tensor<128xi32>) -> tensor<128xi32>
  %r4 = tt.atomic_rmw min, acq_rel, gpu, %pi, %vi : (tensor<128x!tt.ptr<i32>>, tensor<128xi32>) -> tensor<128xi32>
  %r5 = tt.atomic_rmw umax, acq_rel, gpu, %pi, %vi : (tensor<128x!tt.ptr<i32>>, tensor<128xi32>) -> tensor<128xi32>
  %r6 = tt.atomic_rmw umin, acq_rel, gpu, %pi, %vi : (tensor<128x!tt.ptr<i32>>, tensor<128xi32>) -> tensor<128xi32>
  %r7 = tt.atomic_rmw and, relaxed, gpu, %pi, %vi : (tensor<128x!tt.ptr<i32>>, tensor<128xi32>) -> tensor<128xi32>
  %r8 = tt.atomic_rmw or, relaxed, gpu, %pi, %vi : (tensor<128x!tt.ptr<i32>>, tensor<128xi32>) -> tensor<128xi32>
  %r9 = tt.atomic_rmw xor, relaxed, gpu, %pi, %vi : (tensor<128x!tt.ptr<i32>>, tensor<128xi32>) -> tensor<128xi32>
  %r10 = tt.atomic_rmw exch, acq_rel, sys, %p, %s, %c : (!tt.ptr<i64>, i64, i1) -> i64
  %r11 = tt.atomic_cas acq_rel, gpu, %p, %s, %s : (!tt.ptr<i64>, i64, i64) -> i64
  %r12 = tt.atomic_cas relaxed, cta, %pi, %vi, %vi : (tensor<128x!tt.ptr<i32>>, tensor<128xi32>, tensor<128xi32>) -> tensor<128xi32>
  tt.return
}

//===----------------------------------------------------------------------===//
// Tensor descriptors
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tt.func @tensor_descriptors(
// CHECK-SAME:      [[BASE:%[^:]+]]: !tt.ptr<f16>, [[N:%[^:]+]]: i32, [[STRIDE:%[^:]+]]: i64, [[V:%[^:]+]]: tensor<64x32xf16>, [[X:%[^:]+]]: tensor<8xi32>, [[G:%[^:]+]]: tensor<8x32xf16>)
// CHECK-NEXT:    [[C1:%.*]] = arith.constant 1 : i64
// CHECK-NEXT:    [[D:%.*]] = tt.make_tensor_descriptor [[BASE]], {{\[}}[[N]], [[N]]], {{\[}}[[STRIDE]], [[C1]]] : <f16>, <tensor<64x32xf16>>
// CHECK-NEXT:    [[D1:%.*]] = tt.make_tensor_descriptor [[BASE]], {{\[}}[[N]]], {{\[}}[[C1]]] : <f16>, <tensor<32xf16>>
// CHECK-NEXT:    [[DR:%.*]] = tt.make_tensor_descriptor [[BASE]], {{\[}}[[N]], [[N]]], {{\[}}[[STRIDE]], [[C1]]] {padding = 2 : i32} : <f16>, <tensor<1x32xf16>>
// CHECK-NEXT:    [[L0:%.*]] = tt.descriptor_load [[D]]{{\[}}[[N]], [[N]]] : !tt.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16>
// CHECK-NEXT:    [[L1:%.*]] = tt.descriptor_load [[D]]{{\[}}[[N]], [[N]]] cacheModifier = cg evictionPolicy = evict_last : !tt.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16>
// CHECK-NEXT:    [[L2:%.*]] = tt.descriptor_load [[DR]]{{\[}}[[N]], [[N]]] : !tt.tensordesc<tensor<1x32xf16>> -> tensor<32xf16>
// CHECK-NEXT:    tt.descriptor_store [[D]]{{\[}}[[N]], [[N]]], [[V]] : !tt.tensordesc<tensor<64x32xf16>>, tensor<64x32xf16>
// CHECK-NEXT:    tt.descriptor_store [[D1]]{{\[}}[[N]]], [[L2]] : !tt.tensordesc<tensor<32xf16>>, tensor<32xf16>
// CHECK-NEXT:    tt.descriptor_reduce add, [[D]]{{\[}}[[N]], [[N]]], [[V]] : !tt.tensordesc<tensor<64x32xf16>>, tensor<64x32xf16>
// CHECK-NEXT:    tt.descriptor_reduce max, [[D1]]{{\[}}[[N]]], [[L2]] : !tt.tensordesc<tensor<32xf16>>, tensor<32xf16>
// CHECK-NEXT:    [[GA:%.*]] = tt.descriptor_gather [[DR]]{{\[}}[[X]], [[N]]] : (!tt.tensordesc<tensor<1x32xf16>>, tensor<8xi32>, i32) -> tensor<8x32xf16>
// CHECK-NEXT:    tt.descriptor_scatter [[DR]]{{\[}}[[X]], [[N]]], [[G]] : !tt.tensordesc<tensor<1x32xf16>>, tensor<8xi32>, i32, tensor<8x32xf16>
// CHECK-NEXT:    tt.return [[D]] : !tt.tensordesc<tensor<64x32xf16>>
tt.func @tensor_descriptors(%base: !tt.ptr<f16>, %n: i32, %stride: i64, %v: tensor<64x32xf16>, %x: tensor<8xi32>, %g: tensor<8x32xf16>) -> !tt.tensordesc<tensor<64x32xf16>> {
  %c1_i64 = arith.constant 1 : i64
  %d = tt.make_tensor_descriptor %base, [%n, %n], [%stride, %c1_i64] : <f16>, <tensor<64x32xf16>>
  %d1 = tt.make_tensor_descriptor %base, [%n], [%c1_i64] : <f16>, <tensor<32xf16>>
  %dr = tt.make_tensor_descriptor %base, [%n, %n], [%stride, %c1_i64] {padding = 2 : i32} : <f16>, <tensor<1x32xf16>>
  %l0 = tt.descriptor_load %d[%n, %n] : !tt.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16>
  %l1 = tt.descriptor_load %d[%n, %n] evictionPolicy = evict_last cacheModifier = cg : !tt.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16>
  %l2 = tt.descriptor_load %dr[%n, %n] : !tt.tensordesc<tensor<1x32xf16>> -> tensor<32xf16>
  tt.descriptor_store %d[%n, %n], %v : !tt.tensordesc<tensor<64x32xf16>>, tensor<64x32xf16>
  tt.descriptor_store %d1[%n], %l2 : !tt.tensordesc<tensor<32xf16>>, tensor<32xf16>
  tt.descriptor_reduce add, %d[%n, %n], %v : !tt.tensordesc<tensor<64x32xf16>>, tensor<64x32xf16>
  tt.descriptor_reduce max, %d1[%n], %l2 : !tt.tensordesc<tensor<32xf16>>, tensor<32xf16>
  %ga = tt.descriptor_gather %dr[%x, %n] : (!tt.tensordesc<tensor<1x32xf16>>, tensor<8xi32>, i32) -> tensor<8x32xf16>
  tt.descriptor_scatter %dr[%x, %n], %g : !tt.tensordesc<tensor<1x32xf16>>, tensor<8xi32>, i32, tensor<8x32xf16>
  tt.return %d : !tt.tensordesc<tensor<64x32xf16>>
}

// A tensor descriptor as a kernel argument (Inductor's TMA templates).
// CHECK-LABEL: tt.func public @tensordesc_argument(
// CHECK-SAME:      [[D:%[^:]+]]: !tt.tensordesc<tensor<128x64xbf16>>, [[I:%[^:]+]]: i32)
// CHECK-NEXT:    [[L:%.*]] = tt.descriptor_load [[D]]{{\[}}[[I]], [[I]]] : !tt.tensordesc<tensor<128x64xbf16>> -> tensor<128x64xbf16>
// CHECK-NEXT:    tt.descriptor_reduce xor, [[D]]{{\[}}[[I]], [[I]]], [[L]] : !tt.tensordesc<tensor<128x64xbf16>>, tensor<128x64xbf16>
// CHECK-NEXT:    tt.return
tt.func public @tensordesc_argument(%d: !tt.tensordesc<tensor<128x64xbf16>>, %i: i32) {
  %l = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<tensor<128x64xbf16>> -> tensor<128x64xbf16>
  tt.descriptor_reduce xor, %d[%i, %i], %l : !tt.tensordesc<tensor<128x64xbf16>>, tensor<128x64xbf16>
  tt.return
}

//===----------------------------------------------------------------------===//
// Matrix multiply
//===----------------------------------------------------------------------===//

// inputPrecision = ieee and maxNumImpreciseAcc = 0 are the defaults and are
// not printed.
// CHECK-LABEL: tt.func @dot(
// CHECK-SAME:      [[A:%[^:]+]]: tensor<32x16xf16>, [[B:%[^:]+]]: tensor<16x64xf16>, [[C:%[^:]+]]: tensor<32x64xf32>, [[AF:%[^:]+]]: tensor<32x16xf32>, [[BF:%[^:]+]]: tensor<16x64xf32>, [[A8:%[^:]+]]: tensor<32x16xf8E4M3FN>, [[B8:%[^:]+]]: tensor<16x64xf8E5M2>, [[AI:%[^:]+]]: tensor<32x16xi8>, [[BI:%[^:]+]]: tensor<16x64xi8>, [[CI:%[^:]+]]: tensor<32x64xi32>, [[AB:%[^:]+]]: tensor<2x32x16xbf16>, [[BB:%[^:]+]]: tensor<2x16x64xbf16>, [[CB:%[^:]+]]: tensor<2x32x64xf32>)
// CHECK-NEXT:    [[D0:%.*]] = tt.dot [[A]], [[B]], [[C]] : tensor<32x16xf16> * tensor<16x64xf16> -> tensor<32x64xf32>
// CHECK-NEXT:    [[D1:%.*]] = tt.dot [[AF]], [[BF]], [[C]], inputPrecision = tf32 : tensor<32x16xf32> * tensor<16x64xf32> -> tensor<32x64xf32>
// CHECK-NEXT:    [[D2:%.*]] = tt.dot [[AF]], [[BF]], [[C]], inputPrecision = tf32x3 : tensor<32x16xf32> * tensor<16x64xf32> -> tensor<32x64xf32>
// CHECK-NEXT:    [[D3:%.*]] = tt.dot [[AF]], [[BF]], [[C]], inputPrecision = bf16x3 : tensor<32x16xf32> * tensor<16x64xf32> -> tensor<32x64xf32>
// CHECK-NEXT:    [[D4:%.*]] = tt.dot [[AF]], [[BF]], [[C]], inputPrecision = bf16x6 : tensor<32x16xf32> * tensor<16x64xf32> -> tensor<32x64xf32>
// CHECK-NEXT:    [[D5:%.*]] = tt.dot [[AF]], [[BF]], [[C]] : tensor<32x16xf32> * tensor<16x64xf32> -> tensor<32x64xf32>
// CHECK-NEXT:    [[D6:%.*]] = tt.dot [[A8]], [[B8]], [[C]] {maxNumImpreciseAcc = 1073741824 : i32} : tensor<32x16xf8E4M3FN> * tensor<16x64xf8E5M2> -> tensor<32x64xf32>
// CHECK-NEXT:    [[D7:%.*]] = tt.dot [[AF]], [[BF]], [[C]], inputPrecision = tf32 {maxNumImpreciseAcc = 32 : i32} : tensor<32x16xf32> * tensor<16x64xf32> -> tensor<32x64xf32>
// CHECK-NEXT:    [[D8:%.*]] = tt.dot [[AI]], [[BI]], [[CI]] : tensor<32x16xi8> * tensor<16x64xi8> -> tensor<32x64xi32>
// CHECK-NEXT:    [[D9:%.*]] = tt.dot [[AB]], [[BB]], [[CB]] : tensor<2x32x16xbf16> * tensor<2x16x64xbf16> -> tensor<2x32x64xf32>
// CHECK-NEXT:    tt.return
tt.func @dot(%a: tensor<32x16xf16>, %b: tensor<16x64xf16>, %c: tensor<32x64xf32>,
             %af: tensor<32x16xf32>, %bf: tensor<16x64xf32>,
             %a8: tensor<32x16xf8E4M3FN>, %b8: tensor<16x64xf8E5M2>,
             %ai: tensor<32x16xi8>, %bi: tensor<16x64xi8>, %ci: tensor<32x64xi32>,
             %ab: tensor<2x32x16xbf16>, %bb: tensor<2x16x64xbf16>, %cb: tensor<2x32x64xf32>) {
  %d0 = tt.dot %a, %b, %c : tensor<32x16xf16> * tensor<16x64xf16> -> tensor<32x64xf32>
  %d1 = tt.dot %af, %bf, %c, inputPrecision = tf32 : tensor<32x16xf32> * tensor<16x64xf32> -> tensor<32x64xf32>
  %d2 = tt.dot %af, %bf, %c, inputPrecision = tf32x3 : tensor<32x16xf32> * tensor<16x64xf32> -> tensor<32x64xf32>
  %d3 = tt.dot %af, %bf, %c, inputPrecision = bf16x3 : tensor<32x16xf32> * tensor<16x64xf32> -> tensor<32x64xf32>
  %d4 = tt.dot %af, %bf, %c, inputPrecision = bf16x6 : tensor<32x16xf32> * tensor<16x64xf32> -> tensor<32x64xf32>
  %d5 = tt.dot %af, %bf, %c, inputPrecision = ieee : tensor<32x16xf32> * tensor<16x64xf32> -> tensor<32x64xf32>
  %d6 = tt.dot %a8, %b8, %c {maxNumImpreciseAcc = 1073741824 : i32} : tensor<32x16xf8E4M3FN> * tensor<16x64xf8E5M2> -> tensor<32x64xf32>
  %d7 = tt.dot %af, %bf, %c, inputPrecision = tf32 {maxNumImpreciseAcc = 32 : i32} : tensor<32x16xf32> * tensor<16x64xf32> -> tensor<32x64xf32>
  %d8 = tt.dot %ai, %bi, %ci : tensor<32x16xi8> * tensor<16x64xi8> -> tensor<32x64xi32>
  %d9 = tt.dot %ab, %bb, %cb : tensor<2x32x16xbf16> * tensor<2x16x64xbf16> -> tensor<2x32x64xf32>
  tt.return
}

// lhs_k_pack / rhs_k_pack default to true and are printed only when false.
// CHECK-LABEL: tt.func @dot_scaled(
// CHECK-SAME:      [[A:%[^:]+]]: tensor<128x32xi8>, [[AS:%[^:]+]]: tensor<128x2xi8>, [[B:%[^:]+]]: tensor<32x128xi8>, [[BS:%[^:]+]]: tensor<128x2xi8>, [[C:%[^:]+]]: tensor<128x128xf32>, [[A8:%[^:]+]]: tensor<128x64xf8E4M3FN>, [[BB:%[^:]+]]: tensor<64x128xbf16>)
// CHECK-NEXT:    [[D0:%.*]] = tt.dot_scaled [[A]] scale [[AS]], [[B]] scale [[BS]], [[C]] lhs = e2m1 rhs = e2m1 {fastMath = false} : tensor<128x32xi8>, tensor<128x2xi8> * tensor<32x128xi8>, tensor<128x2xi8> -> tensor<128x128xf32>
// CHECK-NEXT:    [[D1:%.*]] = tt.dot_scaled [[A8]] scale [[AS]], [[BB]], [[C]] lhs = e4m3 rhs = bf16 {fastMath = true} : tensor<128x64xf8E4M3FN>, tensor<128x2xi8> * tensor<64x128xbf16> -> tensor<128x128xf32>
// CHECK-NEXT:    [[D2:%.*]] = tt.dot_scaled [[A8]], [[B]] scale [[BS]], [[C]] lhs = e5m2 rhs = e2m1 {fastMath = false} : tensor<128x64xf8E4M3FN> * tensor<32x128xi8>, tensor<128x2xi8> -> tensor<128x128xf32>
// CHECK-NEXT:    [[D3:%.*]] = tt.dot_scaled [[A]] scale [[AS]], [[B]] scale [[BS]], [[C]] lhs = e2m1 rhs = e2m1 {fastMath = false, lhs_k_pack = false} : tensor<128x32xi8>, tensor<128x2xi8> * tensor<32x128xi8>, tensor<128x2xi8> -> tensor<128x128xf32>
// CHECK-NEXT:    tt.return
tt.func @dot_scaled(%a: tensor<128x32xi8>, %as: tensor<128x2xi8>, %b: tensor<32x128xi8>, %bs: tensor<128x2xi8>, %c: tensor<128x128xf32>, %a8: tensor<128x64xf8E4M3FN>, %bb: tensor<64x128xbf16>) {
  %d0 = tt.dot_scaled %a scale %as, %b scale %bs, %c lhs = e2m1 rhs = e2m1 {fastMath = false} : tensor<128x32xi8>, tensor<128x2xi8> * tensor<32x128xi8>, tensor<128x2xi8> -> tensor<128x128xf32>
  %d1 = tt.dot_scaled %a8 scale %as, %bb, %c lhs = e4m3 rhs = bf16 {fastMath = true} : tensor<128x64xf8E4M3FN>, tensor<128x2xi8> * tensor<64x128xbf16> -> tensor<128x128xf32>
  %d2 = tt.dot_scaled %a8, %b scale %bs, %c lhs = e5m2 rhs = e2m1 {fastMath = false} : tensor<128x64xf8E4M3FN> * tensor<32x128xi8>, tensor<128x2xi8> -> tensor<128x128xf32>
  %d3 = tt.dot_scaled %a scale %as, %b scale %bs, %c lhs = e2m1 rhs = e2m1 {fastMath = false, lhs_k_pack = false, rhs_k_pack = true} : tensor<128x32xi8>, tensor<128x2xi8> * tensor<32x128xi8>, tensor<128x2xi8> -> tensor<128x128xf32>
  tt.return
}

//===----------------------------------------------------------------------===//
// Reductions, scans, maps (generic form, as Triton prints them)
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tt.func @reduce(
// CHECK-SAME:      [[X:%[^:]+]]: tensor<16x32xf32>, [[I:%[^:]+]]: tensor<16x32xi32>, [[V:%[^:]+]]: tensor<512xf32>)
// CHECK-NEXT:    [[R:%.*]]:2 = "tt.reduce"([[X]], [[I]]) <{axis = 1 : i32}> ({
// CHECK-NEXT:    ^bb0([[A:%[^:]+]]: f32, [[AI:%[^:]+]]: i32, [[B:%[^:]+]]: f32, [[BI:%[^:]+]]: i32):
// CHECK-NEXT:      [[GT:%.*]] = arith.cmpf ogt, [[A]], [[B]] : f32
// CHECK-NEXT:      [[MAX:%.*]] = arith.select [[GT]], [[A]], [[B]] : f32
// CHECK-NEXT:      [[IDX:%.*]] = arith.select [[GT]], [[AI]], [[BI]] : i32
// CHECK-NEXT:      tt.reduce.return [[MAX]], [[IDX]] : f32, i32
// CHECK-NEXT:    }) : (tensor<16x32xf32>, tensor<16x32xi32>) -> (tensor<16xf32>, tensor<16xi32>)
// CHECK-NEXT:    [[S:%.*]] = "tt.reduce"([[V]]) <{axis = 0 : i32}> ({
// CHECK-NEXT:    ^bb0([[C:%[^:]+]]: f32, [[D:%[^:]+]]: f32):
// CHECK-NEXT:      [[SUM:%.*]] = arith.addf [[C]], [[D]] : f32
// CHECK-NEXT:      tt.reduce.return [[SUM]] : f32
// CHECK-NEXT:    }) : (tensor<512xf32>) -> f32
// CHECK-NEXT:    tt.return [[R]]#0, [[R]]#1, [[S]] : tensor<16xf32>, tensor<16xi32>, f32
tt.func @reduce(%x: tensor<16x32xf32>, %i: tensor<16x32xi32>, %v: tensor<512xf32>) -> (tensor<16xf32>, tensor<16xi32>, f32) {
  %r:2 = "tt.reduce"(%x, %i) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    %gt = arith.cmpf ogt, %a, %b : f32
    %max = arith.select %gt, %a, %b : f32
    %idx = arith.select %gt, %ai, %bi : i32
    tt.reduce.return %max, %idx : f32, i32
  }) : (tensor<16x32xf32>, tensor<16x32xi32>) -> (tensor<16xf32>, tensor<16xi32>)
  %s = "tt.reduce"(%v) <{axis = 0 : i32}> ({
  ^bb0(%c: f32, %d: f32):
    %sum = arith.addf %c, %d : f32
    tt.reduce.return %sum : f32
  }) : (tensor<512xf32>) -> f32
  tt.return %r#0, %r#1, %s : tensor<16xf32>, tensor<16xi32>, f32
}

// CHECK-LABEL: tt.func @scan(
// CHECK-SAME:      [[X:%[^:]+]]: tensor<16x32xf32>, [[I:%[^:]+]]: tensor<16x32xi32>)
// CHECK-NEXT:    [[S:%.*]] = "tt.scan"([[X]]) <{axis = 1 : i32, reverse = false}> ({
// CHECK-NEXT:    ^bb0([[A:%[^:]+]]: f32, [[B:%[^:]+]]: f32):
// CHECK-NEXT:      [[SUM:%.*]] = arith.addf [[A]], [[B]] : f32
// CHECK-NEXT:      tt.scan.return [[SUM]] : f32
// CHECK-NEXT:    }) : (tensor<16x32xf32>) -> tensor<16x32xf32>
// CHECK-NEXT:    [[R:%.*]]:2 = "tt.scan"([[X]], [[I]]) <{axis = 0 : i32, reverse = true}> ({
// CHECK-NEXT:    ^bb0([[C:%[^:]+]]: f32, [[CI:%[^:]+]]: i32, [[D:%[^:]+]]: f32, [[DI:%[^:]+]]: i32):
// CHECK-NEXT:      [[MUL:%.*]] = arith.mulf [[C]], [[D]] : f32
// CHECK-NEXT:      [[ADD:%.*]] = arith.addi [[CI]], [[DI]] : i32
// CHECK-NEXT:      tt.scan.return [[MUL]], [[ADD]] : f32, i32
// CHECK-NEXT:    }) : (tensor<16x32xf32>, tensor<16x32xi32>) -> (tensor<16x32xf32>, tensor<16x32xi32>)
// CHECK-NEXT:    tt.return
tt.func @scan(%x: tensor<16x32xf32>, %i: tensor<16x32xi32>) {
  %s = "tt.scan"(%x) <{axis = 1 : i32, reverse = false}> ({
  ^bb0(%a: f32, %b: f32):
    %sum = arith.addf %a, %b : f32
    tt.scan.return %sum : f32
  }) : (tensor<16x32xf32>) -> tensor<16x32xf32>
  %r:2 = "tt.scan"(%x, %i) <{axis = 0 : i32, reverse = true}> ({
  ^bb0(%c: f32, %ci: i32, %d: f32, %di: i32):
    %mul = arith.mulf %c, %d : f32
    %add = arith.addi %ci, %di : i32
    tt.scan.return %mul, %add : f32, i32
  }) : (tensor<16x32xf32>, tensor<16x32xi32>) -> (tensor<16x32xf32>, tensor<16x32xi32>)
  tt.return
}

// With pack = 2 the region takes two scalars of each operand (operand-major)
// and yields two scalars per result.
// CHECK-LABEL: tt.func @map_elementwise(
// CHECK-SAME:      [[X:%[^:]+]]: tensor<16x32xf32>, [[I:%[^:]+]]: tensor<16x32xi32>)
// CHECK-NEXT:    [[M:%.*]] = "tt.map_elementwise"([[X]], [[I]]) <{pack = 2 : i32}> ({
// CHECK-NEXT:    ^bb0([[X0:%[^:]+]]: f32, [[X1:%[^:]+]]: f32, [[I0:%[^:]+]]: i32, [[I1:%[^:]+]]: i32):
// CHECK-NEXT:      [[F0:%.*]] = arith.sitofp [[I0]] : i32 to f32
// CHECK-NEXT:      [[F1:%.*]] = arith.sitofp [[I1]] : i32 to f32
// CHECK-NEXT:      [[R0:%.*]] = arith.mulf [[X0]], [[F0]] : f32
// CHECK-NEXT:      [[R1:%.*]] = arith.mulf [[X1]], [[F1]] : f32
// CHECK-NEXT:      tt.map_elementwise.return [[R0]], [[R1]] : f32, f32
// CHECK-NEXT:    }) : (tensor<16x32xf32>, tensor<16x32xi32>) -> tensor<16x32xf32>
// CHECK-NEXT:    [[N:%.*]]:2 = "tt.map_elementwise"([[X]]) <{pack = 1 : i32}> ({
// CHECK-NEXT:    ^bb0([[Y:%[^:]+]]: f32):
// CHECK-NEXT:      [[NEG:%.*]] = arith.negf [[Y]] : f32
// CHECK-NEXT:      tt.map_elementwise.return [[Y]], [[NEG]] : f32, f32
// CHECK-NEXT:    }) : (tensor<16x32xf32>) -> (tensor<16x32xf32>, tensor<16x32xf32>)
// CHECK-NEXT:    tt.return [[M]] : tensor<16x32xf32>
tt.func @map_elementwise(%x: tensor<16x32xf32>, %i: tensor<16x32xi32>) -> tensor<16x32xf32> {
  %m = "tt.map_elementwise"(%x, %i) <{pack = 2 : i32}> ({
  ^bb0(%x0: f32, %x1: f32, %i0: i32, %i1: i32):
    %f0 = arith.sitofp %i0 : i32 to f32
    %f1 = arith.sitofp %i1 : i32 to f32
    %r0 = arith.mulf %x0, %f0 : f32
    %r1 = arith.mulf %x1, %f1 : f32
    tt.map_elementwise.return %r0, %r1 : f32, f32
  }) : (tensor<16x32xf32>, tensor<16x32xi32>) -> tensor<16x32xf32>
  %n:2 = "tt.map_elementwise"(%x) <{pack = 1 : i32}> ({
  ^bb0(%y: f32):
    %neg = arith.negf %y : f32
    tt.map_elementwise.return %y, %neg : f32, f32
  }) : (tensor<16x32xf32>) -> (tensor<16x32xf32>, tensor<16x32xf32>)
  tt.return %m : tensor<16x32xf32>
}

//===----------------------------------------------------------------------===//
// Casts
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tt.func @casts(
// CHECK-SAME:      [[F:%[^:]+]]: tensor<64xf32>, [[H:%[^:]+]]: tensor<64xf16>, [[S:%[^:]+]]: f32, [[PS:%[^:]+]]: tensor<64x!tt.ptr<f32>>, [[P:%[^:]+]]: !tt.ptr<f32>, [[I64:%[^:]+]]: i64)
// CHECK-NEXT:    [[F8:%.*]] = tt.fp_to_fp [[F]], rounding = rtne : tensor<64xf32> -> tensor<64xf8E4M3FN>
// CHECK-NEXT:    [[F8B:%.*]] = tt.fp_to_fp [[H]], rounding = rtz : tensor<64xf16> -> tensor<64xf8E5M2>
// CHECK-NEXT:    [[UP:%.*]] = tt.fp_to_fp [[F8]] : tensor<64xf8E4M3FN> -> tensor<64xf32>
// CHECK-NEXT:    [[BF:%.*]] = tt.fp_to_fp [[S]], rounding = rtne : f32 -> bf16
// CHECK-NEXT:    [[HUP:%.*]] = tt.fp_to_fp [[H]] : tensor<64xf16> -> tensor<64xf32>
// CHECK-NEXT:    [[BC:%.*]] = tt.bitcast [[F]] : tensor<64xf32> -> tensor<64xi32>
// CHECK-NEXT:    [[BCS:%.*]] = tt.bitcast [[S]] : f32 -> i32
// CHECK-NEXT:    [[BCP:%.*]] = tt.bitcast [[P]] : !tt.ptr<f32> -> !tt.ptr<i8>
// CHECK-NEXT:    [[BCPS:%.*]] = tt.bitcast [[PS]] : tensor<64x!tt.ptr<f32>> -> tensor<64x!tt.ptr<f16>>
// CHECK-NEXT:    [[PI:%.*]] = tt.ptr_to_int [[P]] : !tt.ptr<f32> -> i64
// CHECK-NEXT:    [[IP:%.*]] = tt.int_to_ptr [[I64]] : i64 -> !tt.ptr<f32>
// CHECK-NEXT:    [[PIS:%.*]] = tt.ptr_to_int [[PS]] : tensor<64x!tt.ptr<f32>> -> tensor<64xi64>
// CHECK-NEXT:    [[IPS:%.*]] = tt.int_to_ptr [[PIS]] : tensor<64xi64> -> tensor<64x!tt.ptr<f16>>
// CHECK-NEXT:    tt.return
tt.func @casts(%f: tensor<64xf32>, %h: tensor<64xf16>, %s: f32, %ps: tensor<64x!tt.ptr<f32>>, %p: !tt.ptr<f32>, %i64: i64) {
  %f8 = tt.fp_to_fp %f, rounding = rtne : tensor<64xf32> -> tensor<64xf8E4M3FN>
  %f8b = tt.fp_to_fp %h, rounding = rtz : tensor<64xf16> -> tensor<64xf8E5M2>
  %up = tt.fp_to_fp %f8 : tensor<64xf8E4M3FN> -> tensor<64xf32>
  %bf = tt.fp_to_fp %s, rounding = rtne : f32 -> bf16
  %hup = tt.fp_to_fp %h : tensor<64xf16> -> tensor<64xf32>
  %bc = tt.bitcast %f : tensor<64xf32> -> tensor<64xi32>
  %bcs = tt.bitcast %s : f32 -> i32
  %bcp = tt.bitcast %p : !tt.ptr<f32> -> !tt.ptr<i8>
  %bcps = tt.bitcast %ps : tensor<64x!tt.ptr<f32>> -> tensor<64x!tt.ptr<f16>>
  %pi = tt.ptr_to_int %p : !tt.ptr<f32> -> i64
  %ip = tt.int_to_ptr %i64 : i64 -> !tt.ptr<f32>
  %pis = tt.ptr_to_int %ps : tensor<64x!tt.ptr<f32>> -> tensor<64xi64>
  %ips = tt.int_to_ptr %pis : tensor<64xi64> -> tensor<64x!tt.ptr<f16>>
  tt.return
}

//===----------------------------------------------------------------------===//
// Elementwise ops
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tt.func @extern_elementwise(
// CHECK-SAME:      [[F:%[^:]+]]: tensor<64xf32>, [[I:%[^:]+]]: tensor<64xi32>, [[S:%[^:]+]]: f32)
// CHECK-NEXT:    [[E0:%.*]] = tt.extern_elementwise [[F]] {libname = "", libpath = "", pure = true, symbol = "__nv_rsqrtf"} : (tensor<64xf32>) -> tensor<64xf32>
// CHECK-NEXT:    [[E1:%.*]] = tt.extern_elementwise [[F]], [[I]] {libname = "libdevice", libpath = "/opt/libdevice.10.bc", pure = false, symbol = "__nv_ldexpf"} : (tensor<64xf32>, tensor<64xi32>) -> tensor<64xf32>
// CHECK-NEXT:    [[E2:%.*]] = tt.extern_elementwise [[S]], [[S]] {libname = "", libpath = "", pure = true, symbol = "__nv_powf"} : (f32, f32) -> f32
// CHECK-NEXT:    tt.return
tt.func @extern_elementwise(%f: tensor<64xf32>, %i: tensor<64xi32>, %s: f32) {
  %e0 = tt.extern_elementwise %f {libname = "", libpath = "", pure = true, symbol = "__nv_rsqrtf"} : (tensor<64xf32>) -> tensor<64xf32>
  %e1 = tt.extern_elementwise %f, %i {libname = "libdevice", libpath = "/opt/libdevice.10.bc", pure = false, symbol = "__nv_ldexpf"} : (tensor<64xf32>, tensor<64xi32>) -> tensor<64xf32>
  %e2 = tt.extern_elementwise %s, %s {libname = "", libpath = "", pure = true, symbol = "__nv_powf"} : (f32, f32) -> f32
  tt.return
}

// CHECK-LABEL: tt.func @elementwise_inline_asm(
// CHECK-SAME:      [[I:%[^:]+]]: tensor<64xi32>, [[F:%[^:]+]]: tensor<64xf32>, [[B:%[^:]+]]: tensor<64xi8>)
// CHECK-NEXT:    [[A0:%.*]] = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} [[I]] : tensor<64xi32> -> tensor<64xi32>
// CHECK-NEXT:    [[A1:%.*]]:2 = tt.elementwise_inline_asm "mov.b32 $0, $2; mov.b32 $1, $3;" {constraints = "=r,=r,r,r", packed_element = 1 : i32, pure = false} [[I]], [[F]] : tensor<64xi32>, tensor<64xf32> -> tensor<64xi32>, tensor<64xf32>
// CHECK-NEXT:    [[A2:%.*]] = tt.elementwise_inline_asm "prmt.b32 $0, $1, 0, 0x3210;" {constraints = "=r,r", packed_element = 4 : i32, pure = true} [[B]] : tensor<64xi8> -> tensor<64xi8>
// CHECK-NEXT:    [[A3:%.*]] = tt.elementwise_inline_asm "mov.u64 $0, %globaltimer;" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
// CHECK-NEXT:    tt.return
tt.func @elementwise_inline_asm(%i: tensor<64xi32>, %f: tensor<64xf32>, %b: tensor<64xi8>) {
  %a0 = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %i : tensor<64xi32> -> tensor<64xi32>
  %a1:2 = tt.elementwise_inline_asm "mov.b32 $0, $2; mov.b32 $1, $3;" {constraints = "=r,=r,r,r", packed_element = 1 : i32, pure = false} %i, %f : tensor<64xi32>, tensor<64xf32> -> tensor<64xi32>, tensor<64xf32>
  %a2 = tt.elementwise_inline_asm "prmt.b32 $0, $1, 0, 0x3210;" {constraints = "=r,r", packed_element = 4 : i32, pure = true} %b : tensor<64xi8> -> tensor<64xi8>
  %a3 = tt.elementwise_inline_asm "mov.u64 $0, %globaltimer;" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
  tt.return
}

// CHECK-LABEL: tt.func @float_int_math(
// CHECK-SAME:      [[F:%[^:]+]]: tensor<64xf32>, [[S:%[^:]+]]: f32, [[I:%[^:]+]]: tensor<64xi32>, [[SI:%[^:]+]]: i64)
// CHECK-NEXT:    [[C0:%.*]] = tt.clampf [[F]], [[F]], [[F]], propagateNan = all : tensor<64xf32>
// CHECK-NEXT:    [[C1:%.*]] = tt.clampf [[S]], [[S]], [[S]], propagateNan = none : f32
// CHECK-NEXT:    [[SQ:%.*]] = tt.precise_sqrt [[F]] : tensor<64xf32>
// CHECK-NEXT:    [[SQS:%.*]] = tt.precise_sqrt [[S]] : f32
// CHECK-NEXT:    [[DV:%.*]] = tt.precise_divf [[F]], [[F]] : tensor<64xf32>
// CHECK-NEXT:    [[DVS:%.*]] = tt.precise_divf [[S]], [[S]] : f32
// CHECK-NEXT:    [[HI:%.*]] = tt.mulhiui [[I]], [[I]] : tensor<64xi32>
// CHECK-NEXT:    [[HIS:%.*]] = tt.mulhiui [[SI]], [[SI]] : i64
// CHECK-NEXT:    tt.return
tt.func @float_int_math(%f: tensor<64xf32>, %s: f32, %i: tensor<64xi32>, %si: i64) {
  %c0 = tt.clampf %f, %f, %f, propagateNan = all : tensor<64xf32>
  %c1 = tt.clampf %s, %s, %s, propagateNan = none : f32
  %sq = tt.precise_sqrt %f : tensor<64xf32>
  %sqs = tt.precise_sqrt %s : f32
  %dv = tt.precise_divf %f, %f : tensor<64xf32>
  %dvs = tt.precise_divf %s, %s : f32
  %hi = tt.mulhiui %i, %i : tensor<64xi32>
  %his = tt.mulhiui %si, %si : i64
  tt.return
}

//===----------------------------------------------------------------------===//
// Histogram and gather
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tt.func @histogram_gather(
// CHECK-SAME:      [[I:%[^:]+]]: tensor<64xi32>, [[M:%[^:]+]]: tensor<64xi1>, [[X:%[^:]+]]: tensor<16x32xf32>, [[IDX:%[^:]+]]: tensor<16x4xi32>, [[IDX0:%[^:]+]]: tensor<8x32xi64>)
// CHECK-NEXT:    [[H0:%.*]] = tt.histogram [[I]] : tensor<64xi32> -> tensor<16xi32>
// CHECK-NEXT:    [[H1:%.*]] = tt.histogram [[I]], [[M]] : tensor<64xi32> -> tensor<16xi32>
// CHECK-NEXT:    [[G0:%.*]] = tt.gather [[X]]{{\[}}[[IDX]]] {axis = 1 : i32} : (tensor<16x32xf32>, tensor<16x4xi32>) -> tensor<16x4xf32>
// CHECK-NEXT:    [[G1:%.*]] = tt.gather [[X]]{{\[}}[[IDX0]]] {axis = 0 : i32, efficient_layout} : (tensor<16x32xf32>, tensor<8x32xi64>) -> tensor<8x32xf32>
// CHECK-NEXT:    tt.return
tt.func @histogram_gather(%i: tensor<64xi32>, %m: tensor<64xi1>, %x: tensor<16x32xf32>, %idx: tensor<16x4xi32>, %idx0: tensor<8x32xi64>) {
  %h0 = tt.histogram %i : tensor<64xi32> -> tensor<16xi32>
  %h1 = tt.histogram %i, %m : tensor<64xi32> -> tensor<16xi32>
  %g0 = tt.gather %x[%idx] {axis = 1 : i32} : (tensor<16x32xf32>, tensor<16x4xi32>) -> tensor<16x4xf32>
  %g1 = tt.gather %x[%idx0] {axis = 0 : i32, efficient_layout} : (tensor<16x32xf32>, tensor<8x32xi64>) -> tensor<8x32xf32>
  tt.return
}

//===----------------------------------------------------------------------===//
// Debugging
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tt.func @print_assert(
// CHECK-SAME:      [[I:%[^:]+]]: tensor<64xi32>, [[S:%[^:]+]]: f32, [[M:%[^:]+]]: tensor<64xi1>, [[C:%[^:]+]]: i1)
// CHECK-NEXT:    tt.print " pid: " {hex = false, isSigned = array<i32: 1>} : [[I]] : tensor<64xi32>
// CHECK-NEXT:    tt.print " values: " {hex = true, isSigned = array<i32: 0, 0>} : [[I]], [[S]] : tensor<64xi32>, f32
// CHECK-NEXT:    tt.print "hello" {hex = false, isSigned = array<i32>}
// CHECK-NEXT:    tt.assert [[M]], "mask must hold" : tensor<64xi1>
// CHECK-NEXT:    tt.assert [[C]], "scalar condition" : i1
// CHECK-NEXT:    tt.return
tt.func @print_assert(%i: tensor<64xi32>, %s: f32, %m: tensor<64xi1>, %c: i1) {
  tt.print " pid: " {hex = false, isSigned = array<i32: 1>} : %i : tensor<64xi32>
  tt.print " values: " {hex = true, isSigned = array<i32: 0, 0>} : %i, %s : tensor<64xi32>, f32
  tt.print "hello" {hex = false, isSigned = array<i32>}
  tt.assert %m, "mask must hold" : tensor<64xi1>
  tt.assert %c, "scalar condition" : i1
  tt.return
}

//===----------------------------------------------------------------------===//
// Functions and calls
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tt.func private @helper(
// CHECK-SAME:      [[X:%[^:]+]]: f32, [[P:%[^:]+]]: !tt.ptr<f32, 3>) -> f32 attributes {noinline = true} {
// CHECK-NEXT:    [[V:%.*]] = tt.load [[P]] : !tt.ptr<f32, 3>
// CHECK-NEXT:    [[R:%.*]] = arith.addf [[X]], [[V]] : f32
// CHECK-NEXT:    tt.return [[R]] : f32
tt.func private @helper(%x: f32, %p: !tt.ptr<f32, 3>) -> f32 attributes {noinline = true} {
  %v = tt.load %p : !tt.ptr<f32, 3>
  %r = arith.addf %x, %v : f32
  tt.return %r : f32
}

// CHECK-LABEL: tt.func private @declaration(i32, !tt.ptr<f16>) -> i32
tt.func private @declaration(i32, !tt.ptr<f16>) -> i32

// CHECK-LABEL: tt.func private @no_results() {
// CHECK-NEXT:    tt.return
tt.func private @no_results() {
  tt.return
}

// CHECK-LABEL: tt.func public @kernel(
// CHECK-SAME:      [[P:%[^:]+]]: !tt.ptr<f32> {tt.divisibility = 16 : i32}, [[S:%[^:]+]]: !tt.ptr<f32, 3>, [[N:%[^:]+]]: i32 {tt.divisibility = 16 : i32}, [[T:%[^:]+]]: tensor<64xi32> {tt.constancy = 1 : i32, tt.contiguity = 64 : i32}, [[H:%[^:]+]]: !tt.ptr<f16>) attributes {noinline = false} {
// CHECK-NEXT:    [[X:%.*]] = tt.load [[P]] : !tt.ptr<f32>
// CHECK-NEXT:    [[Y:%.*]] = tt.call @helper([[X]], [[S]]) : (f32, !tt.ptr<f32, 3>) -> f32
// CHECK-NEXT:    tt.call @no_results() : () -> ()
// CHECK-NEXT:    [[Z:%.*]] = tt.call @declaration([[N]], [[H]]) : (i32, !tt.ptr<f16>) -> i32
// CHECK-NEXT:    tt.store [[P]], [[Y]] : !tt.ptr<f32>
// CHECK-NEXT:    tt.return
tt.func public @kernel(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %s: !tt.ptr<f32, 3>, %n: i32 {tt.divisibility = 16 : i32}, %t: tensor<64xi32> {tt.contiguity = 64 : i32, tt.constancy = 1 : i32}, %h: !tt.ptr<f16>) attributes {noinline = false} {
  %x = tt.load %p : !tt.ptr<f32>
  %y = tt.call @helper(%x, %s) : (f32, !tt.ptr<f32, 3>) -> f32
  tt.call @no_results() : () -> ()
  %z = tt.call @declaration(%n, %h) : (i32, !tt.ptr<f16>) -> i32
  tt.store %p, %y : !tt.ptr<f32>
  tt.return
}

//===----------------------------------------------------------------------===//
// Upstream ops that appear in TTIR
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tt.func @upstream_ops(
// CHECK-SAME:      [[N:%[^:]+]]: i32, [[F:%[^:]+]]: tensor<64xf32>, [[C:%[^:]+]]: i1)
// CHECK-NEXT:    [[C0:%.*]] = arith.constant 0 : i32
// CHECK-NEXT:    [[C1:%.*]] = arith.constant 1 : i32
// CHECK-NEXT:    [[CST:%.*]] = arith.constant dense<0.000000e+00> : tensor<64xf32>
// CHECK-NEXT:    [[GT:%.*]] = arith.cmpi sgt, [[N]], [[C0]] : i32
// CHECK-NEXT:    llvm.intr.assume [[GT]] : i1
// CHECK-NEXT:    [[POISON:%.*]] = ub.poison : tensor<64xf32>
// CHECK-NEXT:    [[EXP:%.*]] = math.exp2 [[F]] : tensor<64xf32>
// CHECK-NEXT:    [[RSQ:%.*]] = math.rsqrt [[F]] : tensor<64xf32>
// CHECK-NEXT:    [[FMA:%.*]] = math.fma [[F]], [[F]], [[F]] : tensor<64xf32>
// CHECK-NEXT:    [[MAX:%.*]] = arith.maxnumf [[EXP]], [[RSQ]] : tensor<64xf32>
// CHECK-NEXT:    [[ACC:%.*]] = scf.for [[IV:%[^ ]+]] = [[C0]] to [[N]] step [[C1]] iter_args([[A:%[^ ]+]] = [[CST]]) -> (tensor<64xf32>)  : i32 {
// CHECK-NEXT:      [[SUM:%.*]] = arith.addf [[A]], [[MAX]] : tensor<64xf32>
// CHECK-NEXT:      scf.yield [[SUM]] : tensor<64xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    [[SEL:%.*]] = scf.if [[C]] -> (tensor<64xf32>) {
// CHECK-NEXT:      scf.yield [[ACC]] : tensor<64xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield [[POISON]] : tensor<64xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    [[W:%.*]] = scf.while ([[WA:%[^ ]+]] = [[C0]]) : (i32) -> i32 {
// CHECK-NEXT:      [[LT:%.*]] = arith.cmpi slt, [[WA]], [[N]] : i32
// CHECK-NEXT:      scf.condition([[LT]]) [[WA]] : i32
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0([[WB:%[^:]+]]: i32):
// CHECK-NEXT:      [[NEXT:%.*]] = arith.addi [[WB]], [[C1]] : i32
// CHECK-NEXT:      scf.yield [[NEXT]] : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    cf.cond_br [[C]], ^bb1([[SEL]] : tensor<64xf32>), ^bb2
// CHECK-NEXT:  ^bb1([[V:%[^:]+]]: tensor<64xf32>):
// CHECK-NEXT:    cf.br ^bb3([[V]] : tensor<64xf32>)
// CHECK-NEXT:  ^bb2:
// CHECK-NEXT:    cf.br ^bb3([[FMA]] : tensor<64xf32>)
// CHECK-NEXT:  ^bb3([[RES:%[^:]+]]: tensor<64xf32>):
// CHECK-NEXT:    tt.return [[RES]] : tensor<64xf32>
tt.func @upstream_ops(%n: i32, %f: tensor<64xf32>, %c: i1) -> tensor<64xf32> {
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %cst = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %gt = arith.cmpi sgt, %n, %c0_i32 : i32
  llvm.intr.assume %gt : i1
  %poison = ub.poison : tensor<64xf32>
  %exp = math.exp2 %f : tensor<64xf32>
  %rsq = math.rsqrt %f : tensor<64xf32>
  %fma = math.fma %f, %f, %f : tensor<64xf32>
  %max = arith.maxnumf %exp, %rsq : tensor<64xf32>
  %acc = scf.for %iv = %c0_i32 to %n step %c1_i32 iter_args(%a = %cst) -> (tensor<64xf32>)  : i32 {
    %sum = arith.addf %a, %max : tensor<64xf32>
    scf.yield %sum : tensor<64xf32>
  }
  %sel = scf.if %c -> (tensor<64xf32>) {
    scf.yield %acc : tensor<64xf32>
  } else {
    scf.yield %poison : tensor<64xf32>
  }
  %w = scf.while (%wa = %c0_i32) : (i32) -> i32 {
    %lt = arith.cmpi slt, %wa, %n : i32
    scf.condition(%lt) %wa : i32
  } do {
  ^bb0(%wb: i32):
    %next = arith.addi %wb, %c1_i32 : i32
    scf.yield %next : i32
  }
  cf.cond_br %c, ^bb1(%sel : tensor<64xf32>), ^bb2
^bb1(%v: tensor<64xf32>):
  cf.br ^bb3(%v : tensor<64xf32>)
^bb2:
  cf.br ^bb3(%fma : tensor<64xf32>)
^bb3(%res: tensor<64xf32>):
  tt.return %res : tensor<64xf32>
}

// A map_elementwise region with control flow (several blocks), as Triton
// emits for scalar functions with early returns.
// CHECK-LABEL: tt.func @map_elementwise_multi_block
// CHECK: "tt.map_elementwise"
// CHECK: cf.cond_br
// CHECK: ^bb2([[R:%[^:]+]]: i32):
// CHECK-NEXT: tt.map_elementwise.return [[R]] : i32
tt.func @map_elementwise_multi_block(%x: tensor<128xi32>, %y: tensor<128xi32>) -> tensor<128xi32> {
  %cm1 = arith.constant -1 : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %z = "tt.map_elementwise"(%x, %y) <{pack = 1 : i32}> ({
  ^bb0(%a: i32, %b: i32):
    %lt = arith.cmpi slt, %a, %b : i32
    cf.cond_br %lt, ^bb2(%cm1 : i32), ^bb1
  ^bb1:
    %eq = arith.cmpi eq, %a, %b : i32
    cf.cond_br %eq, ^bb2(%c0 : i32), ^bb2(%c1 : i32)
  ^bb2(%r: i32):
    tt.map_elementwise.return %r : i32
  }) : (tensor<128xi32>, tensor<128xi32>) -> tensor<128xi32>
  tt.return %z : tensor<128xi32>
}
