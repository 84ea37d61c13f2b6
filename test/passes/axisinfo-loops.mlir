// RUN: kiln-opt %s -kgpu-assign-layouts=num-warps=4 -kgpu-convert-to-llvm | FileCheck %s

// Loop-carried pointers keep the facts their initial and yielded values
// share (AxisInfo joins them over scf.for): advancing 16-byte aligned,
// contiguous f32 pointers by a multiple of 4 elements each iteration still
// allows 16-byte accesses; advancing them by 1 element does not.
// CHECK-LABEL: llvm.func @loop_carried_ptrs
// CHECK: llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-NOT: llvm.load {{.*}} -> vector<4xf32>
// CHECK-COUNT-4: llvm.load {{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
tt.func public @loop_carried_ptrs(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %q: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %step4 = arith.constant dense<512> : tensor<512xi32>
  %step1 = arith.constant dense<1> : tensor<512xi32>
  %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %p0 = tt.addptr %ps, %r : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  %qs = tt.splat %q : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %q0 = tt.addptr %qs, %r : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%pp = %p0, %qq = %q0) -> (tensor<512x!tt.ptr<f32>>, tensor<512x!tt.ptr<f32>>) : i32 {
    %x = tt.load %pp : tensor<512x!tt.ptr<f32>>
    %y = tt.load %qq : tensor<512x!tt.ptr<f32>>
    %pn = tt.addptr %pp, %step4 : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
    %qn = tt.addptr %qq, %step1 : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
    tt.store %pp, %y : tensor<512x!tt.ptr<f32>>
    tt.store %qq, %x : tensor<512x!tt.ptr<f32>>
    scf.yield %pn, %qn : tensor<512x!tt.ptr<f32>>, tensor<512x!tt.ptr<f32>>
  }
  tt.return
}

// An scf.for induction variable is lb + i * step: stepping from 0 by 1024,
// a block of 1024 f16 at p + k (p 16-byte aligned) starts at a multiple of
// 2048 bytes, so each thread moves 8 elements (16 bytes) at a time.
// CHECK-LABEL: llvm.func @induction_variable
// CHECK: llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xf16>
// CHECK-NOT: llvm.load {{.*}} -> f16
// CHECK: llvm.return
tt.func public @induction_variable(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %q: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1024 = arith.constant 1024 : i32
  %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
  scf.for %k = %c0 to %n step %c1024 : i32 {
    %ks = tt.splat %k : i32 -> tensor<1024xi32>
    %offs = arith.addi %ks, %r : tensor<1024xi32>
    %ps = tt.splat %p : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>>
    %pp = tt.addptr %ps, %offs : tensor<1024x!tt.ptr<f16>>, tensor<1024xi32>
    %x = tt.load %pp : tensor<1024x!tt.ptr<f16>>
    %qs = tt.splat %q : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>>
    %qq = tt.addptr %qs, %offs : tensor<1024x!tt.ptr<f16>>, tensor<1024xi32>
    tt.store %qq, %x : tensor<1024x!tt.ptr<f16>>
  }
  tt.return
}

// Scaling a range by 4 leaves its elements 4 apart, not aligned like its
// first one: rows of 64 f16 starting at row * 4 elements (8 bytes) may be
// moved 4 elements (8 bytes) at a time, not 8.
// CHECK-LABEL: llvm.func @scaled_range_rows
// CHECK-NOT: vector<8xf16>
// CHECK: llvm.load {{.*}} {alignment = 8 : i64} : !llvm.ptr<1> -> vector<4xf16>
// CHECK-NOT: vector<8xf16>
// CHECK: llvm.return
tt.func public @scaled_range_rows(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %q: !tt.ptr<f16> {tt.divisibility = 16 : i32}) {
  %c4 = arith.constant dense<4> : tensor<16xi32>
  %rows = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %cols = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %starts = arith.muli %rows, %c4 : tensor<16xi32>
  %s2 = tt.expand_dims %starts {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %sb = tt.broadcast %s2 : tensor<16x1xi32> -> tensor<16x64xi32>
  %c2 = tt.expand_dims %cols {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %cb = tt.broadcast %c2 : tensor<1x64xi32> -> tensor<16x64xi32>
  %offs = arith.addi %sb, %cb : tensor<16x64xi32>
  %ps = tt.splat %p : !tt.ptr<f16> -> tensor<16x64x!tt.ptr<f16>>
  %pp = tt.addptr %ps, %offs : tensor<16x64x!tt.ptr<f16>>, tensor<16x64xi32>
  %x = tt.load %pp : tensor<16x64x!tt.ptr<f16>>
  %qs = tt.splat %q : !tt.ptr<f16> -> tensor<16x64x!tt.ptr<f16>>
  %qq = tt.addptr %qs, %offs : tensor<16x64x!tt.ptr<f16>>, tensor<16x64xi32>
  tt.store %qq, %x : tensor<16x64x!tt.ptr<f16>>
  tt.return
}

// Nested loops: the inner loop advances by an outer argument, the outer
// loop continues from the inner loop's result. Offsets that stay multiples
// of 4 elements keep 16-byte accesses.
// CHECK-LABEL: llvm.func @nested_loops
// CHECK: llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
tt.func public @nested_loops(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c128 = arith.constant 128 : i32
  %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %p0 = tt.addptr %ps, %r : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%pp = %p0, %off = %c0) -> (tensor<512x!tt.ptr<f32>>, i32) : i32 {
    %q = scf.for %j = %c0 to %n step %c1 iter_args(%qq = %pp) -> (tensor<512x!tt.ptr<f32>>) : i32 {
      %x = tt.load %qq : tensor<512x!tt.ptr<f32>>
      tt.store %qq, %x : tensor<512x!tt.ptr<f32>>
      %o = tt.splat %off : i32 -> tensor<512xi32>
      %qn = tt.addptr %qq, %o : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
      scf.yield %qn : tensor<512x!tt.ptr<f32>>
    }
    %offn = arith.addi %off, %c128 : i32
    scf.yield %q, %offn : tensor<512x!tt.ptr<f32>>, i32
  }
  tt.return
}

// Nested loops whose arguments depend on each other (the inner loop's
// yield reads the outer argument, whose yield is the inner loop's result):
// each loop's fixpoint reuses the provisional facts of the enclosing one
// instead of starting it again, which recursed until the stack overflowed.
// y = y + x loses x's contiguity, so the accesses are scalar.
// CHECK-LABEL: llvm.func @mutually_dependent_loops
// CHECK: llvm.load {{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
tt.func public @mutually_dependent_loops(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %z = arith.constant dense<0> : tensor<128xi32>
  %x = scf.for %i = %c0 to %n step %c1 iter_args(%xo = %r) -> (tensor<128xi32>) : i32 {
    %y = scf.for %j = %c0 to %n step %c1 iter_args(%yi = %z) -> (tensor<128xi32>) : i32 {
      %s = arith.addi %yi, %xo : tensor<128xi32>
      scf.yield %s : tensor<128xi32>
    }
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %pp = tt.addptr %ps, %y : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    %v = tt.load %pp : tensor<128x!tt.ptr<f32>>
    tt.store %pp, %v : tensor<128x!tt.ptr<f32>>
    scf.yield %y : tensor<128xi32>
  }
  tt.return
}
