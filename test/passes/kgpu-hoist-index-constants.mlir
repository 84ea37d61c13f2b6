// RUN: kiln-opt %s -kgpu-hoist-index-constants | FileCheck %s

// Two elements' indices as the SIMT lowering writes them: their row
// (thread base + 8 or + 16) times the row stride plus their column (base +
// 16 or + 0). The constants move out: both become (row * 2048 + col) plus
// a constant, 8 * 2048 + 16 = 16400 and 16 * 2048 = 32768. The shared
// part is then the same expression twice; the CSE after the pass in the
// pipeline keeps one.
// CHECK-LABEL: llvm.func @two_elements
// CHECK-DAG: %[[C16400:.*]] = llvm.mlir.constant(16400 : i32) : i32
// CHECK-DAG: %[[C32768:.*]] = llvm.mlir.constant(32768 : i32) : i32
// CHECK-DAG: %[[C2048:.*]] = llvm.mlir.constant(2048 : i32) : i32
// CHECK: %[[M:.*]] = llvm.mul %arg0, %[[C2048]] : i32
// CHECK: %[[S:.*]] = llvm.add %[[M]], %arg1 : i32
// CHECK: %[[E0:.*]] = llvm.add %[[S]], %[[C16400]] : i32
// CHECK: %[[M2:.*]] = llvm.mul %arg0, %[[C2048]] : i32
// CHECK: %[[S2:.*]] = llvm.add %[[M2]], %arg1 : i32
// CHECK: %[[E1:.*]] = llvm.add %[[S2]], %[[C32768]] : i32
// CHECK: llvm.insertvalue %[[E0]]
// CHECK: llvm.insertvalue %[[E1]]
llvm.func @two_elements(%row: i32, %col: i32) -> !llvm.struct<(i32, i32)> {
  %c8 = llvm.mlir.constant(8 : i32) : i32
  %c16 = llvm.mlir.constant(16 : i32) : i32
  %stride = llvm.mlir.constant(2048 : i32) : i32
  %r0 = llvm.add %row, %c8 : i32
  %m0 = llvm.mul %r0, %stride : i32
  %k0 = llvm.add %col, %c16 : i32
  %e0 = llvm.add %m0, %k0 : i32
  %r1 = llvm.add %row, %c16 : i32
  %m1 = llvm.mul %r1, %stride : i32
  %e1 = llvm.add %m1, %col : i32
  %u = llvm.mlir.undef : !llvm.struct<(i32, i32)>
  %s0 = llvm.insertvalue %e0, %u[0] : !llvm.struct<(i32, i32)>
  %s1 = llvm.insertvalue %e1, %s0[1] : !llvm.struct<(i32, i32)>
  llvm.return %s1 : !llvm.struct<(i32, i32)>
}

// Shifts and subtractions: (x + 3) << 4 -> (x << 4) + 48;
// (x + 5) - y -> (x - y) + 5; x - (y + 2) -> (x - y) + -2 (i64 here).
// Overflow flags of the rewritten ops are dropped (the identities hold in
// wrap-around arithmetic; the flags would not).
// CHECK-LABEL: llvm.func @shl_sub
// CHECK: %[[SH:.*]] = llvm.shl %arg0, %{{.*}} : i64
// CHECK: llvm.add %[[SH]], %{{.*}} : i64
// CHECK: %[[D1:.*]] = llvm.sub %arg0, %arg1 : i64
// CHECK: llvm.add %[[D1]], %{{.*}} : i64
// CHECK: %[[D2:.*]] = llvm.sub %arg0, %arg1 : i64
// CHECK: llvm.add %[[D2]], %{{.*}} : i64
// CHECK-NOT: overflow
// CHECK: llvm.return
llvm.func @shl_sub(%x: i64, %y: i64) -> !llvm.struct<(i64, i64, i64)> {
  %c2 = llvm.mlir.constant(2 : i64) : i64
  %c3 = llvm.mlir.constant(3 : i64) : i64
  %c4 = llvm.mlir.constant(4 : i64) : i64
  %c5 = llvm.mlir.constant(5 : i64) : i64
  %a = llvm.add %x, %c3 overflow<nsw> : i64
  %s = llvm.shl %a, %c4 overflow<nsw, nuw> : i64
  %b = llvm.add %x, %c5 : i64
  %d1 = llvm.sub %b, %y overflow<nsw> : i64
  %e = llvm.add %y, %c2 : i64
  %d2 = llvm.sub %x, %e : i64
  %u = llvm.mlir.undef : !llvm.struct<(i64, i64, i64)>
  %t0 = llvm.insertvalue %s, %u[0] : !llvm.struct<(i64, i64, i64)>
  %t1 = llvm.insertvalue %d1, %t0[1] : !llvm.struct<(i64, i64, i64)>
  %t2 = llvm.insertvalue %d2, %t1[2] : !llvm.struct<(i64, i64, i64)>
  llvm.return %t2 : !llvm.struct<(i64, i64, i64)>
}

// Left alone: a shift by the bit width or more (not an identity), a
// remainder, and a floating-point add.
// CHECK-LABEL: llvm.func @left_alone
// CHECK: %[[A:.*]] = llvm.add %arg0, %{{.*}} : i32
// CHECK: llvm.shl %[[A]], %{{.*}} : i32
// CHECK: %[[B:.*]] = llvm.add %arg0, %{{.*}} : i32
// CHECK: llvm.urem %[[B]], %{{.*}} : i32
// CHECK: %[[F:.*]] = llvm.fadd %arg1, %{{.*}} : f32
// CHECK: llvm.fadd %[[F]], %{{.*}} : f32
llvm.func @left_alone(%x: i32, %f: f32) -> !llvm.struct<(i32, i32, f32)> {
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c32 = llvm.mlir.constant(32 : i32) : i32
  %c7 = llvm.mlir.constant(7 : i32) : i32
  %f1 = llvm.mlir.constant(1.0 : f32) : f32
  %f2 = llvm.mlir.constant(2.0 : f32) : f32
  %a = llvm.add %x, %c1 : i32
  %s = llvm.shl %a, %c32 : i32
  %b = llvm.add %x, %c1 : i32
  %r = llvm.urem %b, %c7 : i32
  %g = llvm.fadd %f, %f1 : f32
  %h = llvm.fadd %g, %f2 : f32
  %u = llvm.mlir.undef : !llvm.struct<(i32, i32, f32)>
  %t0 = llvm.insertvalue %s, %u[0] : !llvm.struct<(i32, i32, f32)>
  %t1 = llvm.insertvalue %r, %t0[1] : !llvm.struct<(i32, i32, f32)>
  %t2 = llvm.insertvalue %h, %t1[2] : !llvm.struct<(i32, i32, f32)>
  llvm.return %t2 : !llvm.struct<(i32, i32, f32)>
}
