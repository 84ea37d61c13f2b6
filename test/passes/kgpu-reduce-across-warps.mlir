// The step across warps of tt.reduce. Where the result is one element that
// every thread needs (a scalar, or a tensor of one element), lane i reads
// warp i's partial and xor shuffles combine the warps' partials; where each
// thread needs several result elements (rows), every thread reads each warp's
// partial of its rows from shared memory.
// RUN: kiln-opt %s -kgpu-assign-layouts=num-warps=8 -kgpu-convert-to-llvm -split-input-file | FileCheck %s --enable-var-scope

// Two rows of 512 over 8 warps: each row's partials are in 4 warps, and
// every thread reads the 4 partials of its row.
// CHECK-LABEL: llvm.func @rows_2x512
// CHECK:         llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK:         nvvm.barrier0
// CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
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

// An argmax (two results) over 8 warps: lane & 7 picks the partial, both
// the value and the index are loaded once, and three xor shuffles of each
// (lanes 1, 2 and 4 away) combine the eight.
// CHECK-LABEL: llvm.func @argmax_1024
// CHECK:         llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK:         llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr<3>
// CHECK:         nvvm.barrier0
// CHECK:         %[[SEVEN:.*]] = llvm.mlir.constant(7 : i32) : i32
// CHECK:         llvm.and %{{.*}}, %[[SEVEN]] : i32
// CHECK:         llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK:         llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// CHECK-NOT:     llvm.load
// CHECK:         %[[M1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK:         nvvm.shfl.sync  bfly %{{.*}}, %{{.*}}, %[[M1]], %{{.*}} : i32 -> i32
// CHECK:         nvvm.shfl.sync  bfly
// CHECK:         llvm.fcmp "ogt"
// CHECK:         %[[M2:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK:         nvvm.shfl.sync  bfly %{{.*}}, %{{.*}}, %[[M2]], %{{.*}} : i32 -> i32
// CHECK:         nvvm.shfl.sync  bfly
// CHECK:         llvm.fcmp "ogt"
// CHECK:         %[[M4:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK:         nvvm.shfl.sync  bfly %{{.*}}, %{{.*}}, %[[M4]], %{{.*}} : i32 -> i32
// CHECK:         nvvm.shfl.sync  bfly
// CHECK:         llvm.fcmp "ogt"
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
