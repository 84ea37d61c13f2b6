// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts=num-warps=4 -kgpu-convert-to-llvm | FileCheck %s --enable-var-scope

// AxisInfo's constancy of an integer comparison between a run of
// consecutive values (x, x + 1, ...) and a uniform bound: runs aligned to g
// (a multiple of both divisibilities) are constant only where the result
// flips between b - 1 and b (x < b, x >= b). `(r % 2) == 0` alternates
// within every pair (helper-70: tl.where(offs % 2 == 0, a, b) stored a's
// values at the odd offsets too: one comparison was computed per pair of
// elements), and x <= b flips between b and b + 1.

// Two elements a thread (v2 loads of f8): one comparison and one select
// each.
// CHECK-LABEL: llvm.func @eq_alternates
// CHECK: %[[C0:.+]] = llvm.icmp "eq" %{{.*}}, %{{.*}} : i32
// CHECK: %[[C1:.+]] = llvm.icmp "eq" %{{.*}}, %{{.*}} : i32
// CHECK: llvm.select %[[C0]], %{{.*}}, %{{.*}} : i1, i8
// CHECK: llvm.select %[[C1]], %{{.*}}, %{{.*}} : i1, i8
tt.func public @eq_alternates(%x: !tt.ptr<f8E4M3FN> {tt.divisibility = 16 : i32}, %z: !tt.ptr<f8E4M3FN> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f8E4M3FN> {tt.divisibility = 16 : i32}) {
  %zero = arith.constant dense<0> : tensor<256xi32>
  %two = arith.constant dense<2> : tensor<256xi32>
  %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  %px = tt.splat %x : !tt.ptr<f8E4M3FN> -> tensor<256x!tt.ptr<f8E4M3FN>>
  %pa = tt.addptr %px, %r : tensor<256x!tt.ptr<f8E4M3FN>>, tensor<256xi32>
  %a = tt.load %pa : tensor<256x!tt.ptr<f8E4M3FN>>
  %pz = tt.splat %z : !tt.ptr<f8E4M3FN> -> tensor<256x!tt.ptr<f8E4M3FN>>
  %pb = tt.addptr %pz, %r : tensor<256x!tt.ptr<f8E4M3FN>>, tensor<256xi32>
  %b = tt.load %pb : tensor<256x!tt.ptr<f8E4M3FN>>
  %m = arith.remsi %r, %two : tensor<256xi32>
  %even = arith.cmpi eq, %m, %zero : tensor<256xi32>
  %s = arith.select %even, %a, %b : tensor<256xi1>, tensor<256xf8E4M3FN>
  %py = tt.splat %y : !tt.ptr<f8E4M3FN> -> tensor<256x!tt.ptr<f8E4M3FN>>
  %pc = tt.addptr %py, %r : tensor<256x!tt.ptr<f8E4M3FN>>, tensor<256xi32>
  tt.store %pc, %s : tensor<256x!tt.ptr<f8E4M3FN>>
  tt.return
}

// -----

// Four f32 a thread: `r < 64` is constant over each thread's aligned four
// (one comparison, one 16-byte masked load), `r <= 64` is not (r = 64 and
// 65 share a run): four comparisons, element by element.
// CHECK-LABEL: llvm.func @lt_and_le
// CHECK-COUNT-1: llvm.icmp "slt"
// CHECK-NOT: llvm.icmp "slt"
// CHECK-COUNT-4: llvm.icmp "sle"
// CHECK-NOT: llvm.icmp "sle"
// CHECK: llvm.return
tt.func public @lt_and_le(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %b = arith.constant dense<64> : tensor<512xi32>
  %zf = arith.constant dense<0.0> : tensor<512xf32>
  %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %lt = arith.cmpi slt, %r, %b : tensor<512xi32>
  %le = arith.cmpi sle, %r, %b : tensor<512xi32>
  %px = tt.splat %x : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %pa = tt.addptr %px, %r : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  %v = tt.load %pa, %lt, %zf : tensor<512x!tt.ptr<f32>>
  %py = tt.splat %y : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %pc = tt.addptr %py, %r : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  tt.store %pc, %v, %le : tensor<512x!tt.ptr<f32>>
  tt.return
}
