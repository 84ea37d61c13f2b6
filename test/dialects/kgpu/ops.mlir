// RUN: kiln-opt %s -split-input-file | FileCheck %s --enable-var-scope
// RUN: kiln-opt %s -split-input-file --mlir-print-op-generic | kiln-opt -split-input-file | FileCheck %s --enable-var-scope

// Round trips of the kgpu layouts (tensor encodings) and kgpu.convert_layout.
// The printer hoists every layout into an alias (#blocked, #slice, #shared,
// numbered when there are several); the alias definitions are captured into
// `$` variables so they survive the CHECK-LABELs.

// A 1-D blocked layout: four consecutive elements per thread.
// CHECK: [[$B1D:#blocked[0-9]*]] = #kgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @blocked_1d
// CHECK-SAME:    (%{{.*}}: tensor<1024xf32, [[$B1D]]>)
tt.func @blocked_1d(%a: tensor<1024xf32, #kgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>) {
  tt.return
}

// -----

// 2-D blocked layouts, row-major (order [1, 0]) and column-major (order
// [0, 1]); the two stay distinct attributes.
// CHECK-DAG: [[$ROW:#blocked[0-9]*]] = #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: [[$COL:#blocked[0-9]*]] = #kgpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: tt.func @blocked_2d
// CHECK-SAME:    (%{{.*}}: tensor<16x64xf16, [[$ROW]]>, %{{.*}}: tensor<64x16xf16, [[$COL]]>)
tt.func @blocked_2d(%a: tensor<16x64xf16, #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>,
                    %b: tensor<64x16xf16, #kgpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>>) {
  tt.return
}

// -----

// Slices of a 2-D blocked layout along dim 0 and dim 1; both refer to the
// same parent alias.
#parent = #kgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: [[$P:#blocked[0-9]*]] = #kgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: [[$S0:#slice[0-9]*]] = #kgpu.slice<{dim = 0, parent = [[$P]]}>
// CHECK-DAG: [[$S1:#slice[0-9]*]] = #kgpu.slice<{dim = 1, parent = [[$P]]}>
// CHECK-LABEL: tt.func @slice
// CHECK-SAME:    (%{{.*}}: tensor<64xf32, [[$S0]]>, %{{.*}}: tensor<8xf32, [[$S1]]>)
tt.func @slice(%a: tensor<64xf32, #kgpu.slice<{dim = 0, parent = #parent}>>,
               %b: tensor<8xf32, #kgpu.slice<{dim = 1, parent = #parent}>>) {
  tt.return
}

// -----

// A swizzled shared-memory layout.
// CHECK: [[$SH:#shared[0-9]*]] = #kgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-LABEL: tt.func @shared
// CHECK-SAME:    (%{{.*}}: tensor<32x32xf16, [[$SH]]>)
tt.func @shared(%a: tensor<32x32xf16, #kgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>>) {
  tt.return
}

// -----

// kgpu.convert_layout between two blocked layouts of the same shape.
#src = #kgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#dst = #kgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: [[$SRC:#blocked[0-9]*]] = #kgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
// CHECK-DAG: [[$DST:#blocked[0-9]*]] = #kgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @convert_layout
// CHECK-SAME:    (%[[A:.*]]: tensor<128xf32, [[$SRC]]>)
// CHECK-NEXT:    %[[B:.*]] = kgpu.convert_layout %[[A]] : tensor<128xf32, [[$SRC]]> -> tensor<128xf32, [[$DST]]>
// CHECK-NEXT:    tt.return %[[B]] : tensor<128xf32, [[$DST]]>
tt.func @convert_layout(%a: tensor<128xf32, #src>) -> tensor<128xf32, #dst> {
  %b = kgpu.convert_layout %a : tensor<128xf32, #src> -> tensor<128xf32, #dst>
  tt.return %b : tensor<128xf32, #dst>
}

// -----

// An mma.sync accumulator whose warps each hold 16 x 64 (8 m16n8 tiles
// side by side): each warp column owns 64 contiguous columns.
// CHECK-DAG: [[$WIDE:#mma[0-9]*]] = #kgpu.mma<{version = 2, warpsPerCTA = [4, 2], instrShape = [16, 64]}>
// CHECK-LABEL: tt.func @mma_wide_warp_tile
// CHECK-SAME:    (%{{.*}}: tensor<64x128xf32, [[$WIDE]]>)
tt.func @mma_wide_warp_tile(%c: tensor<64x128xf32, #kgpu.mma<{version = 2, warpsPerCTA = [4, 2], instrShape = [16, 64]}>>) {
  tt.return
}

// -----

// MMA accumulator (wgmma, 8 warps as two warpgroups along M) and the
// operand layouts derived from it.
// CHECK-DAG: [[$MMA:#mma[0-9]*]] = #kgpu.mma<{version = 3, warpsPerCTA = [8, 1], instrShape = [64, 256, 16]}>
// CHECK-DAG: [[$A:#dot_op[0-9]*]] = #kgpu.dot_op<{opIdx = 0, parent = [[$MMA]], kWidth = 8}>
// CHECK-LABEL: tt.func @mma_layouts
// CHECK-SAME:    tensor<128x256xf32, [[$MMA]]>
// CHECK-SAME:    tensor<128x64xf16, [[$A]]>
tt.func @mma_layouts(%c: tensor<128x256xf32, #kgpu.mma<{version = 3, warpsPerCTA = [8, 1], instrShape = [64, 256, 16]}>>,
                     %a: tensor<128x64xf16, #kgpu.dot_op<{opIdx = 0, parent = #kgpu.mma<{version = 3, warpsPerCTA = [8, 1], instrShape = [64, 256, 16]}>, kWidth = 8}>>) {
  tt.return
}

// -----

// The wgmma synchronization ops: accumulators pass through wgmma_fence and
// wgmma_wait unchanged (their lowering ties the registers to the
// instruction); without values they are the bare instructions.
// CHECK-LABEL: tt.func @wgmma_sync
// CHECK-NEXT:    %[[F:.*]] = kgpu.wgmma_fence %{{.*}} : tensor<64x64xf32>
// CHECK-NEXT:    %[[W:.*]]:2 = kgpu.wgmma_wait 1 %[[F]], %{{.*}} : tensor<64x64xf32>, tensor<64x64xf32>
// CHECK-NEXT:    kgpu.wgmma_wait 0{{$}}
// CHECK-NEXT:    kgpu.wgmma_fence{{$}}
// CHECK-NEXT:    kgpu.barrier
// CHECK-NEXT:    tt.return %[[W]]#0
tt.func @wgmma_sync(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %f = kgpu.wgmma_fence %a : tensor<64x64xf32>
  %w:2 = kgpu.wgmma_wait 1 %f, %b : tensor<64x64xf32>, tensor<64x64xf32>
  kgpu.wgmma_wait 0
  kgpu.wgmma_fence
  kgpu.barrier
  tt.return %w#0 : tensor<64x64xf32>
}

// -----

// kgpu.local_load round-trips, with and without `transpose`.
// CHECK-LABEL: tt.func @local_load
// CHECK: kgpu.local_load slot %{{.+}} {numSlots = 3 : i32, offset = 0 : i64, rowStride = 64 : i64, slotBytes = 2048 : i64} : tensor<16x64xf16, #{{.+}}>
// CHECK: kgpu.local_load slot %{{.+}} {numSlots = 2 : i32, offset = 8192 : i64, rowStride = 64 : i64, slotBytes = 2048 : i64, transpose} : tensor<64x16xf16, #{{.+}}>
#bl = #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blt = #kgpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
tt.func @local_load(%s: i32) {
  %x = kgpu.local_load slot %s {offset = 0 : i64, rowStride = 64 : i64, slotBytes = 2048 : i64, numSlots = 3 : i32} : tensor<16x64xf16, #bl>
  %y = kgpu.local_load slot %s {offset = 8192 : i64, rowStride = 64 : i64, slotBytes = 2048 : i64, numSlots = 2 : i32, transpose} : tensor<64x16xf16, #blt>
  tt.return
}
