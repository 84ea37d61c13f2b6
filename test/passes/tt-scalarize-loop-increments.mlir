// RUN: kiln-opt %s -tt-scalarize-loop-increments | FileCheck %s
// RUN: kiln-opt %s -tt-scalarize-loop-increments -canonicalize | FileCheck %s --check-prefix=CANON

// Flex attention's shape: a tensor<1x128xi32> of column offsets advanced
// each iteration by a scalar computed in the body. It is carried as the
// scalar sum of the steps; the body and the code after the loop see
// init + splat(sum). The canonicalizer then drops the tensor argument,
// left yielding itself.
// CHECK-LABEL: tt.func @dynamic_step
// CHECK: tt.addptr
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: %[[R:.*]]:2 = scf.for {{.*}} iter_args(%[[T:.*]] = %[[INIT:.*]], %[[SUM:.*]] = %[[ZERO]]) -> (tensor<1x128xi32>, i32)
// CHECK:   %[[S:.*]] = tt.splat %[[SUM]] : i32 -> tensor<1x128xi32>
// CHECK:   %[[O:.*]] = arith.addi %[[INIT]], %[[S]] : tensor<1x128xi32>
// CHECK:   tt.store {{.*}}, %[[O]]
// CHECK:   %[[STEP:.*]] = arith.muli
// CHECK:   %[[NEXT:.*]] = arith.addi %[[SUM]], %[[STEP]] : i32
// CHECK:   scf.yield %[[T]], %[[NEXT]] : tensor<1x128xi32>, i32
// CHECK: %[[SA:.*]] = tt.splat %[[R]]#1 : i32 -> tensor<1x128xi32>
// CHECK: %[[AFTER:.*]] = arith.addi %[[INIT]], %[[SA]] : tensor<1x128xi32>
// CHECK: tt.store {{.*}}, %[[AFTER]]
// CANON-LABEL: tt.func @dynamic_step
// CANON: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (i32)
tt.func @dynamic_step(%p: !tt.ptr<i32>, %n: i32, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %init = tt.expand_dims %r {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
  %ps = tt.splat %p : !tt.ptr<i32> -> tensor<1x128x!tt.ptr<i32>>
  %ptrs = tt.addptr %ps, %init : tensor<1x128x!tt.ptr<i32>>, tensor<1x128xi32>
  %res = scf.for %i = %c0 to %n step %c1 iter_args(%offs = %init) -> (tensor<1x128xi32>) : i32 {
    tt.store %ptrs, %offs : tensor<1x128x!tt.ptr<i32>>
    %step = arith.muli %i, %k : i32
    %s = tt.splat %step : i32 -> tensor<1x128xi32>
    %next = arith.addi %offs, %s : tensor<1x128xi32>
    scf.yield %next : tensor<1x128xi32>
  }
  tt.store %ptrs, %res : tensor<1x128x!tt.ptr<i32>>
  tt.return
}

// A splat constant step, on the left of the add, and a step broadcast
// from a splat of another shape, are steps too (i64 here).
// CHECK-LABEL: tt.func @constant_and_broadcast_steps
// CHECK: scf.for {{.*}} -> (tensor<64xi64>, tensor<4x64xi64>, i64, i64)
// CHECK: %[[C:.*]] = arith.constant 64 : i64
// CHECK: arith.addi %{{.*}}, %[[C]] : i64
// CHECK: arith.addi %{{.*}}, %arg2 : i64
tt.func @constant_and_broadcast_steps(%p: !tt.ptr<i64>, %q: !tt.ptr<i64>, %step: i64, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant dense<64> : tensor<64xi64>
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %r64 = arith.extsi %r : tensor<64xi32> to tensor<64xi64>
  %e = tt.expand_dims %r64 {axis = 0 : i32} : tensor<64xi64> -> tensor<1x64xi64>
  %init2 = tt.broadcast %e : tensor<1x64xi64> -> tensor<4x64xi64>
  %ps = tt.splat %p : !tt.ptr<i64> -> tensor<64x!tt.ptr<i64>>
  %qs = tt.splat %q : !tt.ptr<i64> -> tensor<4x64x!tt.ptr<i64>>
  %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %r64, %b = %init2) -> (tensor<64xi64>, tensor<4x64xi64>) : i32 {
    tt.store %ps, %a : tensor<64x!tt.ptr<i64>>
    tt.store %qs, %b : tensor<4x64x!tt.ptr<i64>>
    %na = arith.addi %c64, %a : tensor<64xi64>
    %s = tt.splat %step : i64 -> tensor<1x64xi64>
    %sb = tt.broadcast %s : tensor<1x64xi64> -> tensor<4x64xi64>
    %nb = arith.addi %b, %sb : tensor<4x64xi64>
    scf.yield %na, %nb : tensor<64xi64>, tensor<4x64xi64>
  }
  tt.return
}

// Left alone: a step that differs per element (a range), a float tensor,
// and a yield that is not the argument plus something.
// CHECK-LABEL: tt.func @left_alone
// CHECK: scf.for {{.*}} -> (tensor<64xi32>, tensor<64xf32>, tensor<64xi32>) : i32 {
// CHECK-NOT: tt.splat
// CHECK: scf.yield
tt.func @left_alone(%p: !tt.ptr<i32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %f1 = arith.constant dense<1.0> : tensor<64xf32>
  %two = arith.constant dense<2> : tensor<64xi32>
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %ps = tt.splat %p : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>>
  %res:3 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %r, %f = %f1, %m = %r) -> (tensor<64xi32>, tensor<64xf32>, tensor<64xi32>) : i32 {
    tt.store %ps, %a : tensor<64x!tt.ptr<i32>>
    tt.store %ps, %m : tensor<64x!tt.ptr<i32>>
    %na = arith.addi %a, %r : tensor<64xi32>
    %nf = arith.addf %f, %f1 : tensor<64xf32>
    %nm = arith.muli %m, %two : tensor<64xi32>
    scf.yield %na, %nf, %nm : tensor<64xi32>, tensor<64xf32>, tensor<64xi32>
  }
  tt.return
}

// An unreachable block may hold a cycle of reshapes (every block dominates
// an unreachable one); a step defined by it is not a splat, and the walk
// through reshapes ends instead of going round.
// CHECK-LABEL: tt.func public @cyclic_step
// CHECK: scf.for {{.*}} -> (tensor<32xi32>) : i32 {
tt.func public @cyclic_step(%p: !tt.ptr<i32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %ps = tt.splat %p : !tt.ptr<i32> -> tensor<32x!tt.ptr<i32>>
  tt.store %ps, %r : tensor<32x!tt.ptr<i32>>
  tt.return
^bb1:
  %a = tt.reshape %b : tensor<32xi32> -> tensor<4x8xi32>
  cf.br ^bb2
^bb2:
  %b = tt.reshape %a : tensor<4x8xi32> -> tensor<32xi32>
  %res = scf.for %i = %c0 to %n step %c1 iter_args(%o = %r) -> (tensor<32xi32>) : i32 {
    %nx = arith.addi %o, %b : tensor<32xi32>
    scf.yield %nx : tensor<32xi32>
  }
  tt.store %ps, %res : tensor<32x!tt.ptr<i32>>
  tt.return
}
