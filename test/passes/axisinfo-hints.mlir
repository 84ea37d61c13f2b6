// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts=num-warps=4 -kgpu-convert-to-llvm | FileCheck %s

// tl.multiple_of puts tt.divisibility on the op defining the value: the
// hint replaces what the arithmetic gives (n / 3 alone says nothing), as
// in Triton, so p + n / 3 + [0, 512) may be read 16 bytes at a time.
// CHECK-LABEL: llvm.func @divisibility_hint
// CHECK: llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
tt.func public @divisibility_hint(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %q: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %c3 = arith.constant 3 : i32
  %off = arith.divsi %n, %c3 {tt.divisibility = dense<16> : tensor<1xi32>} : i32
  %base = tt.addptr %p, %off : !tt.ptr<f32>, i32
  %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %ps = tt.splat %base : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %pp = tt.addptr %ps, %r : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  %x = tt.load %pp : tensor<512x!tt.ptr<f32>>
  %qs = tt.splat %q : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %qq = tt.addptr %qs, %r : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  tt.store %qq, %x : tensor<512x!tt.ptr<f32>>
  tt.return
}

// -----

// The same without the hint: one element per access.
// CHECK-LABEL: llvm.func @no_hint
// CHECK-NOT: llvm.load {{.*}} -> vector<4xf32>
// CHECK: llvm.load {{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
tt.func public @no_hint(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %q: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %c3 = arith.constant 3 : i32
  %off = arith.divsi %n, %c3 : i32
  %base = tt.addptr %p, %off : !tt.ptr<f32>, i32
  %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %ps = tt.splat %base : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %pp = tt.addptr %ps, %r : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  %x = tt.load %pp : tensor<512x!tt.ptr<f32>>
  %qs = tt.splat %q : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %qq = tt.addptr %qs, %r : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  tt.store %qq, %x : tensor<512x!tt.ptr<f32>>
  tt.return
}

// -----

// tl.max_contiguous(tl.multiple_of(r % n, 512), 512): r % n with an unknown
// n is contiguous only by the hint.
// CHECK-LABEL: llvm.func @contiguity_hint
// CHECK: llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
tt.func public @contiguity_hint(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %q: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %ns = tt.splat %n : i32 -> tensor<512xi32>
  %w = arith.remsi %r, %ns {tt.contiguity = dense<512> : tensor<1xi32>, tt.divisibility = dense<512> : tensor<1xi32>} : tensor<512xi32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %pp = tt.addptr %ps, %w : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  %x = tt.load %pp : tensor<512x!tt.ptr<f32>>
  %qs = tt.splat %q : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %qq = tt.addptr %qs, %r : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  tt.store %qq, %x : tensor<512x!tt.ptr<f32>>
  tt.return
}

// -----

// An scf.for induction variable from 0 in steps of 4 is a multiple of 4
// (gcd of the lower bound's and the step's divisibility): p + k + [0, 512)
// is 16-byte aligned f32. In steps of 1 it is not.
// CHECK-LABEL: llvm.func @induction_variable
// CHECK: llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-NOT: llvm.load {{.*}} -> vector<4xf32>
// CHECK: llvm.load {{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
tt.func public @induction_variable(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %q: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %qs = tt.splat %q : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %qq = tt.addptr %qs, %r : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  scf.for %k = %c0 to %n step %c4 : i32 {
    %base = tt.addptr %p, %k : !tt.ptr<f32>, i32
    %ps = tt.splat %base : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
    %pp = tt.addptr %ps, %r : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
    %x = tt.load %pp : tensor<512x!tt.ptr<f32>>
    tt.store %qq, %x : tensor<512x!tt.ptr<f32>>
  }
  scf.for %k = %c0 to %n step %c1 : i32 {
    %base = tt.addptr %p, %k : !tt.ptr<f32>, i32
    %ps = tt.splat %base : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
    %pp = tt.addptr %ps, %r : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
    %x = tt.load %pp : tensor<512x!tt.ptr<f32>>
    tt.store %qq, %x : tensor<512x!tt.ptr<f32>>
  }
  tt.return
}

// -----

// Dividing a multiple of 16 by 2 gives a multiple of 8 (32 bytes of f32);
// by 32, nothing is known.
// CHECK-LABEL: llvm.func @divide_by_power_of_two
// CHECK: llvm.load {{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-NOT: llvm.load {{.*}} -> vector<4xf32>
// CHECK: llvm.load {{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
tt.func public @divide_by_power_of_two(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %q: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %K: i32 {tt.divisibility = 16 : i32}) {
  %c2 = arith.constant 2 : i32
  %c32 = arith.constant 32 : i32
  %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %qs = tt.splat %q : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %qq = tt.addptr %qs, %r : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  %half = arith.divsi %K, %c2 : i32
  %b1 = tt.addptr %p, %half : !tt.ptr<f32>, i32
  %s1 = tt.splat %b1 : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %p1 = tt.addptr %s1, %r : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  %x1 = tt.load %p1 : tensor<512x!tt.ptr<f32>>
  tt.store %qq, %x1 : tensor<512x!tt.ptr<f32>>
  %part = arith.divsi %K, %c32 : i32
  %b2 = tt.addptr %p, %part : !tt.ptr<f32>, i32
  %s2 = tt.splat %b2 : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %p2 = tt.addptr %s2, %r : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  %x2 = tt.load %p2 : tensor<512x!tt.ptr<f32>>
  tt.store %qq, %x2 : tensor<512x!tt.ptr<f32>>
  tt.return
}
