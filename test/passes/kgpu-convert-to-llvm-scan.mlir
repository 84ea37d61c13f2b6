// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts=num-warps=4 -kgpu-convert-to-llvm | FileCheck %s --enable-var-scope
// RUN: kiln-opt %S/Inputs/scan-one-warp.mlir -kgpu-assign-layouts=num-warps=1 -kgpu-convert-to-llvm | FileCheck %s --check-prefix=ONEWARP
// RUN: kiln-opt %S/Inputs/scan-sixteen-warps.mlir -kgpu-assign-layouts=num-warps=16 -kgpu-convert-to-llvm | FileCheck %s --check-prefix=LANES
// RUN: kiln-opt %S/Inputs/scan-mma.mlir -kgpu-convert-to-llvm | FileCheck %s --check-prefix=SMEM
// RUN: kiln-opt %s -split-input-file --kiln-ttir-to-llvm-amdgpu='num-warps=4' | FileCheck %s --check-prefix=AMD

// Inputs/scan-one-warp.mlir: 512 elements, reverse, on one warp: 4
// chunks of 128, each 5 steps down the lanes and the previous lane's
// total; a chunk's total is lane 0's (shfl.sync.idx), and the chunks
// combine within the thread: no shared memory.
// ONEWARP: kgpu.shared = 0 : i32
// ONEWARP-COUNT-24: nvvm.shfl.sync{{ +}}down
// ONEWARP-COUNT-4: nvvm.shfl.sync{{ +}}idx
// ONEWARP-NOT: nvvm.shfl.sync
// ONEWARP-NOT: nvvm.barrier0
//
// Inputs/scan-sixteen-warps.mlir: 4096 elements on 16 warps, 2 chunks of
// 2048. After the lanes' steps (6 shuffles a chunk) and the one barrier,
// lane i of every warp reads warp i's total, the lanes scan the 16
// totals (4 shuffles) and every thread takes the total before its warp's
// and the chunk's from them (2 shfl.sync.idx): one load a chunk, not 16.
// LANES: kgpu.shared = 128 : i32
// LANES-COUNT-12: nvvm.shfl.sync{{ +}}up
// LANES-COUNT-2: llvm.store {{.*}} : f32, !llvm.ptr<3>
// LANES: nvvm.barrier0
// LANES: llvm.load {{.*}} : !llvm.ptr<3> -> f32
// LANES-COUNT-4: nvvm.shfl.sync{{ +}}up
// LANES-COUNT-2: nvvm.shfl.sync{{ +}}idx
// LANES: llvm.load {{.*}} : !llvm.ptr<3> -> f32
// LANES-COUNT-4: nvvm.shfl.sync{{ +}}up
// LANES-COUNT-2: nvvm.shfl.sync{{ +}}idx
// LANES-NOT: llvm.load {{.*}} : !llvm.ptr<3>
// LANES-NOT: nvvm.barrier0
//
// Inputs/scan-mma.mlir: a layout ShuffleScan does not cover (the mma.sync
// accumulator's) goes through shared memory: every element stored, the
// rows cut into segments each a thread walks (scf.for), barriers between
// the rounds.
// SMEM: kgpu.shared = 4096 : i32
// SMEM: nvvm.barrier0
// SMEM: scf.for
// SMEM: nvvm.barrier0
// SMEM-NOT: nvvm.shfl.sync

// tt.scan in registers and warp shuffles (KGPUConvertToLLVM's
// ShuffleScan). 1024 elements on 4 warps: 4 elements a thread (the load's
// vectors) in 2 chunks of 512. Per chunk: 3 adds within the thread, 5
// Hillis-Steele steps across the 32 lanes (shfl.sync.up by 1, 2, 4, 8, 16,
// each an add and a select), one more shfl.sync.up for the previous lane's
// total, combined into the thread's other 3 elements. Then the lanes that
// hold a warp's total (lane 31) store it, 2 chunks x 4 warps x 4 bytes =
// 32 bytes of shared memory, and after the only barrier every thread
// reads the 4 warps' totals of each chunk.
// CHECK: kgpu.shared = 32 : i32
// CHECK-LABEL: llvm.func @cumsum
// CHECK-NOT: nvvm.barrier0
// CHECK-COUNT-3: llvm.fadd
// CHECK-COUNT-5: nvvm.shfl.sync{{ +}}up
// CHECK: nvvm.shfl.sync{{ +}}up
// CHECK-COUNT-3: llvm.select
// CHECK-COUNT-3: llvm.fadd
// CHECK-COUNT-6: nvvm.shfl.sync{{ +}}up
// CHECK-NOT: nvvm.shfl.sync
// CHECK: scf.if
// CHECK-COUNT-2: llvm.store {{.*}} : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK-NOT: nvvm.barrier0
// CHECK-COUNT-8: llvm.load {{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
// AMDGPU (64-lane wavefronts, ds_bpermute): 4 x 64 x 4 covers the 1024
// elements in one chunk: 6 steps and the previous lane's total, then the
// 4 warps' totals (16 bytes) behind the one barrier.
// AMD: kgpu.shared = 16 : i32
// AMD-LABEL: llvm.func @cumsum
// AMD-COUNT-7: rocdl.ds_bpermute
// AMD-NOT: rocdl.ds_bpermute
// AMD: rocdl.barrier
// AMD-NOT: rocdl.barrier
// AMD: llvm.return
tt.func public @cumsum(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
  %s = tt.splat %p : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
  %a = tt.addptr %s, %r : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
  %x = tt.load %a : tensor<1024x!tt.ptr<f32>>
  %c = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%u: f32, %v: f32):
    %t = arith.addf %u, %v : f32
    tt.scan.return %t : f32
  }) : (tensor<1024xf32>) -> tensor<1024xf32>
  tt.store %a, %c : tensor<1024x!tt.ptr<f32>>
  tt.return
}

// -----

// 16 rows of 64 on 4 warps: 16 lanes along a row, 4 elements each, so a
// row is one warp's and needs no shared memory; each thread holds 2 rows.
// Reverse: shuffles come down from the higher lanes (4 steps and the
// previous lane's total, per row).
// CHECK: kgpu.shared = 0 : i32
// CHECK-LABEL: llvm.func @rev_cummax_rows
// CHECK-COUNT-10: nvvm.shfl.sync{{ +}}down
// CHECK-NOT: nvvm.shfl.sync
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
tt.func public @rev_cummax_rows(%p: !tt.ptr<i32> {tt.divisibility = 16 : i32}) {
  %rows = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %cols = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %c64 = arith.constant dense<64> : tensor<16x1xi32>
  %r2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %rs = arith.muli %r2, %c64 : tensor<16x1xi32>
  %c2 = tt.expand_dims %cols {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rb = tt.broadcast %rs : tensor<16x1xi32> -> tensor<16x64xi32>
  %cb = tt.broadcast %c2 : tensor<1x64xi32> -> tensor<16x64xi32>
  %offs = arith.addi %rb, %cb : tensor<16x64xi32>
  %s = tt.splat %p : !tt.ptr<i32> -> tensor<16x64x!tt.ptr<i32>>
  %a = tt.addptr %s, %offs : tensor<16x64x!tt.ptr<i32>>, tensor<16x64xi32>
  %x = tt.load %a : tensor<16x64x!tt.ptr<i32>>
  %c = "tt.scan"(%x) <{axis = 1 : i32, reverse = true}> ({
  ^bb0(%u: i32, %v: i32):
    %t = arith.maxsi %u, %v : i32
    tt.scan.return %t : i32
  }) : (tensor<16x64xi32>) -> tensor<16x64xi32>
  tt.store %a, %c : tensor<16x64x!tt.ptr<i32>>
  tt.return
}

// -----

// 32 elements on 128 threads: the layout's tile (128) is longer than the
// axis, so warps 1-3 hold copies of warp 0's elements and scan them alike:
// 5 steps across the lanes, one element a thread (no previous-lane
// shuffle), no shared memory, no barrier.
// CHECK: kgpu.shared = 0 : i32
// CHECK-LABEL: llvm.func @wrap
// CHECK-COUNT-5: nvvm.shfl.sync{{ +}}up
// CHECK-NOT: nvvm.shfl.sync
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
tt.func public @wrap(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %s = tt.splat %p : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>>
  %a = tt.addptr %s, %r : tensor<32x!tt.ptr<f32>>, tensor<32xi32>
  %x = tt.load %a : tensor<32x!tt.ptr<f32>>
  %c = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%u: f32, %v: f32):
    %t = arith.addf %u, %v : f32
    tt.scan.return %t : f32
  }) : (tensor<32xf32>) -> tensor<32xf32>
  tt.store %a, %c : tensor<32x!tt.ptr<f32>>
  tt.return
}

// -----

// A running argmax over i64 values and i32 indices (two operands; the
// combine keeps the earlier of two equal values, so it does not commute):
// 4 rows of 512 with 2 elements a thread along the row, 4 warps along it,
// 2 chunks. An i64 crosses lanes as two 32-bit shuffles, the index as
// one: (5 + 1) x 3 shuffles per row and chunk, 4 rows, 2 chunks. The
// totals take 4 rows x 2 chunks x 4 warps x (8 + 4) bytes.
// CHECK: kgpu.shared = 384 : i32
// CHECK-LABEL: llvm.func @argmax_chunks
// CHECK-COUNT-144: nvvm.shfl.sync{{ +}}up
// CHECK-NOT: nvvm.shfl.sync
// CHECK: nvvm.barrier0
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
tt.func public @argmax_chunks(%p: !tt.ptr<i64> {tt.divisibility = 16 : i32}, %q: !tt.ptr<i32> {tt.divisibility = 16 : i32}) {
  %rows = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
  %cols = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %c512 = arith.constant dense<512> : tensor<4x1xi32>
  %r2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
  %rs = arith.muli %r2, %c512 : tensor<4x1xi32>
  %c2 = tt.expand_dims %cols {axis = 0 : i32} : tensor<512xi32> -> tensor<1x512xi32>
  %rb = tt.broadcast %rs : tensor<4x1xi32> -> tensor<4x512xi32>
  %cb = tt.broadcast %c2 : tensor<1x512xi32> -> tensor<4x512xi32>
  %offs = arith.addi %rb, %cb : tensor<4x512xi32>
  %s = tt.splat %p : !tt.ptr<i64> -> tensor<4x512x!tt.ptr<i64>>
  %a = tt.addptr %s, %offs : tensor<4x512x!tt.ptr<i64>>, tensor<4x512xi32>
  %x = tt.load %a : tensor<4x512x!tt.ptr<i64>>
  %c, %i = "tt.scan"(%x, %offs) <{axis = 1 : i32, reverse = false}> ({
  ^bb0(%u: i64, %ui: i32, %v: i64, %vi: i32):
    %gt = arith.cmpi sgt, %v, %u : i64
    %m = arith.select %gt, %v, %u : i64
    %mi = arith.select %gt, %vi, %ui : i32
    tt.scan.return %m, %mi : i64, i32
  }) : (tensor<4x512xi64>, tensor<4x512xi32>) -> (tensor<4x512xi64>, tensor<4x512xi32>)
  tt.store %a, %c : tensor<4x512x!tt.ptr<i64>>
  %qs = tt.splat %q : !tt.ptr<i32> -> tensor<4x512x!tt.ptr<i32>>
  %qa = tt.addptr %qs, %offs : tensor<4x512x!tt.ptr<i32>>, tensor<4x512xi32>
  tt.store %qa, %i : tensor<4x512x!tt.ptr<i32>>
  tt.return
}

// -----

// A scan in a loop reuses its shared memory every iteration, so it waits
// for the previous iteration's readers before the warps' totals are
// stored.
// CHECK-LABEL: llvm.func @scan_in_loop
// CHECK: scf.for
// CHECK: nvvm.barrier0
// CHECK: scf.if
// CHECK: llvm.store {{.*}} : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
tt.func public @scan_in_loop(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %s = tt.splat %p : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %a = tt.addptr %s, %r : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  scf.for %i = %c0 to %c4 step %c1 : i32 {
    %x = tt.load %a : tensor<512x!tt.ptr<f32>>
    %c = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%u: f32, %v: f32):
      %t = arith.addf %u, %v : f32
      tt.scan.return %t : f32
    }) : (tensor<512xf32>) -> tensor<512xf32>
    tt.store %a, %c : tensor<512x!tt.ptr<f32>>
  }
  tt.return
}
