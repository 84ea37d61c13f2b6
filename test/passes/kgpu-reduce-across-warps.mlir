// The step across warps of tt.reduce. Where the result is one element that
// every thread needs (a scalar, or a tensor of one element), there are at
// least 16 warps and every value is at most 32 bits wide, lane i reads warp
// i's partial and xor shuffles combine the warps' partials. Otherwise
// (several result elements per thread, fewer warps, 64-bit values) every
// thread reads each warp's partial of its results from shared memory.
// RUN: kiln-opt %s -kgpu-assign-layouts=num-warps=16 -kgpu-convert-to-llvm -split-input-file | FileCheck %s --check-prefixes=CHECK,W16 --enable-var-scope
// RUN: kiln-opt %s -kgpu-assign-layouts=num-warps=8 -kgpu-convert-to-llvm -split-input-file | FileCheck %s --check-prefixes=CHECK,W8 --enable-var-scope

// Two rows of 512: each row's partials are in half the warps, and every
// thread reads its row's partials (8 with 16 warps, 4 with 8).
// CHECK-LABEL: llvm.func @rows_2x512
// CHECK:         llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK:         nvvm.barrier0
// W16-COUNT-8:   llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// W8-COUNT-4:    llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT:     nvvm.shfl.sync
// CHECK:         llvm.return
tt.func public @rows_2x512(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32>
  %c = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<2xi32> -> tensor<2x1xi32>
  %c512 = arith.constant dense<512> : tensor<2x1xi32>
  %rows = arith.muli %r2, %c512 : tensor<2x1xi32>
  %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<512xi32> -> tensor<1x512xi32>
  %rb = tt.broadcast %rows : tensor<2x1xi32> -> tensor<2x512xi32>
  %cb = tt.broadcast %c2 : tensor<1x512xi32> -> tensor<2x512xi32>
  %idx = arith.addi %rb, %cb : tensor<2x512xi32>
  %xs = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<2x512x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %idx : tensor<2x512x!tt.ptr<f32>>, tensor<2x512xi32>
  %x = tt.load %xp : tensor<2x512x!tt.ptr<f32>>
  %m = "tt.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %t = arith.maxnumf %a, %b : f32
    tt.reduce.return %t : f32
  }) : (tensor<2x512xf32>) -> tensor<2xf32>
  %os = tt.splat %out_ptr : !tt.ptr<f32> -> tensor<2x!tt.ptr<f32>>
  %op = tt.addptr %os, %r : tensor<2x!tt.ptr<f32>>, tensor<2xi32>
  tt.store %op, %m : tensor<2x!tt.ptr<f32>>
  tt.return
}

// -----

// An argmax (two 32-bit results). With 16 warps: lane & 15 picks the
// partial, the value and the index are loaded once, and four xor shuffles
// of each (lanes 1, 2, 4 and 8 away) combine the sixteen. With 8 warps:
// every thread loads all eight partials of both.
// CHECK-LABEL: llvm.func @argmax_1024
// CHECK:         llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK:         llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr<3>
// CHECK:         nvvm.barrier0
// W16:           %[[FIFTEEN:.*]] = llvm.mlir.constant(15 : i32) : i32
// W16:           llvm.and %{{.*}}, %[[FIFTEEN]] : i32
// W16:           llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// W16:           llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// W16-NOT:       llvm.load
// W16:           %[[M1:.*]] = llvm.mlir.constant(1 : i32) : i32
// W16:           nvvm.shfl.sync  bfly %{{.*}}, %{{.*}}, %[[M1]], %{{.*}} : i32 -> i32
// W16:           nvvm.shfl.sync  bfly
// W16:           llvm.fcmp "ogt"
// W16:           %[[M2:.*]] = llvm.mlir.constant(2 : i32) : i32
// W16:           nvvm.shfl.sync  bfly %{{.*}}, %{{.*}}, %[[M2]], %{{.*}} : i32 -> i32
// W16:           %[[M4:.*]] = llvm.mlir.constant(4 : i32) : i32
// W16:           nvvm.shfl.sync  bfly %{{.*}}, %{{.*}}, %[[M4]], %{{.*}} : i32 -> i32
// W16:           %[[M8:.*]] = llvm.mlir.constant(8 : i32) : i32
// W16:           nvvm.shfl.sync  bfly %{{.*}}, %{{.*}}, %[[M8]], %{{.*}} : i32 -> i32
// W16:           nvvm.shfl.sync  bfly
// W16:           llvm.fcmp "ogt"
// W8-COUNT-16:   llvm.load %{{.*}} : !llvm.ptr<3> -> {{f32|i32}}
// CHECK-NOT:     nvvm.shfl.sync
// CHECK-NOT:     llvm.load %{{.*}} : !llvm.ptr<3>
// CHECK:         llvm.return

tt.func public @argmax_1024(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out_ptr: !tt.ptr<i32>) {
  %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
  %xs = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %range : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
  %x = tt.load %xp : tensor<1024x!tt.ptr<f32>>
  %v, %i = "tt.reduce"(%x, %range) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    %gt = arith.cmpf ogt, %a, %b : f32
    %v2 = arith.select %gt, %a, %b : f32
    %i2 = arith.select %gt, %ai, %bi : i32
    tt.reduce.return %v2, %i2 : f32, i32
  }) : (tensor<1024xf32>, tensor<1024xi32>) -> (f32, i32)
  tt.store %out_ptr, %i : !tt.ptr<i32>
  tt.return
}

// -----

// A 64-bit sum: each shuffle would be two, so even with 16 warps every
// thread loads the partials.
// CHECK-LABEL: llvm.func @sum_i64_4096
// CHECK:         llvm.store %{{.*}}, %{{.*}} : i64, !llvm.ptr<3>
// CHECK:         nvvm.barrier0
// W16-COUNT-16:  llvm.load %{{.*}} : !llvm.ptr<3> -> i64
// W8-COUNT-8:    llvm.load %{{.*}} : !llvm.ptr<3> -> i64
// CHECK-NOT:     nvvm.shfl.sync
// CHECK:         llvm.return
tt.func public @sum_i64_4096(%x_ptr: !tt.ptr<i64> {tt.divisibility = 16 : i32}, %out_ptr: !tt.ptr<i64>) {
  %range = tt.make_range {end = 4096 : i32, start = 0 : i32} : tensor<4096xi32>
  %xs = tt.splat %x_ptr : !tt.ptr<i64> -> tensor<4096x!tt.ptr<i64>>
  %xp = tt.addptr %xs, %range : tensor<4096x!tt.ptr<i64>>, tensor<4096xi32>
  %x = tt.load %xp : tensor<4096x!tt.ptr<i64>>
  %sum = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: i64, %b: i64):
    %t = arith.addi %a, %b : i64
    tt.reduce.return %t : i64
  }) : (tensor<4096xi64>) -> i64
  tt.store %out_ptr, %sum : !tt.ptr<i64>
  tt.return
}
