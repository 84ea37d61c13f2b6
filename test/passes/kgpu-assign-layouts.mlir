// RUN: kiln-opt %s -kgpu-assign-layouts=num-warps=4 -split-input-file | FileCheck %s --enable-var-scope
// RUN: not kiln-opt %s -kgpu-assign-layouts=num-warps=3 -split-input-file 2>&1 | FileCheck %s --check-prefix=ERR

// kgpu-assign-layouts: every tensor gets a distributed layout chosen for
// coalescing (each thread moves up to 16 contiguous bytes where alignment
// is proven), reductions get slice layouts, the CTA shape is recorded.

// A bad warp count is rejected (second RUN line, on every split).
// ERR: error: num-warps must be a power of two, got 3{{$}}

// vadd with 16-byte aligned pointers and a multiple-of-16 bound: four f32
// (16 bytes) per thread, 32 lanes x 4 warps along the only dimension, one
// layout for every tensor. The module records the CTA shape.
// CHECK: [[$B:#blocked[0-9]*]] = #kgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: module attributes {"kgpu.num-warps" = 4 : i32, "kgpu.threads-per-warp" = 32 : i32}
// CHECK-LABEL: tt.func public @vadd_aligned
// CHECK:         %[[R:.*]] = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, [[$B]]>
// CHECK:         %[[M:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<1024xi32, [[$B]]>
// CHECK:         %[[X:.*]] = tt.load %{{.*}}, %[[M]] : tensor<1024x!tt.ptr<f32>, [[$B]]>
// CHECK:         %[[Y:.*]] = tt.load %{{.*}}, %[[M]] : tensor<1024x!tt.ptr<f32>, [[$B]]>
// CHECK:         %[[S:.*]] = arith.addf %[[X]], %[[Y]] : tensor<1024xf32, [[$B]]>
// CHECK:         tt.store %{{.*}}, %[[S]], %[[M]] : tensor<1024x!tt.ptr<f32>, [[$B]]>
// CHECK-NOT:     kgpu.convert_layout
tt.func public @vadd_aligned(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
  %c1024_i32 = arith.constant 1024 : i32
  %pid = tt.get_program_id x : i32
  %start = arith.muli %pid, %c1024_i32 : i32
  %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
  %starts = tt.splat %start : i32 -> tensor<1024xi32>
  %offs = arith.addi %starts, %range : tensor<1024xi32>
  %ns = tt.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32>
  %xs = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %offs : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
  %x = tt.load %xp, %mask : tensor<1024x!tt.ptr<f32>>
  %ys = tt.splat %y_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
  %yp = tt.addptr %ys, %offs : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
  %y = tt.load %yp, %mask : tensor<1024x!tt.ptr<f32>>
  %sum = arith.addf %x, %y : tensor<1024xf32>
  %os = tt.splat %out_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
  %op = tt.addptr %os, %offs : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
  tt.store %op, %sum, %mask : tensor<1024x!tt.ptr<f32>>
  tt.return
}

// -----

// The same kernel without tt.divisibility: nothing proves alignment, so
// one element per thread.
// CHECK: [[$B:#blocked[0-9]*]] = #kgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func public @vadd_unaligned
// CHECK:         tt.load %{{.*}}, %{{.*}} : tensor<1024x!tt.ptr<f32>, [[$B]]>
// CHECK:         tt.store %{{.*}}, %{{.*}}, %{{.*}} : tensor<1024x!tt.ptr<f32>, [[$B]]>
tt.func public @vadd_unaligned(%x_ptr: !tt.ptr<f32>, %y_ptr: !tt.ptr<f32>, %out_ptr: !tt.ptr<f32>, %n: i32) {
  %c1024_i32 = arith.constant 1024 : i32
  %pid = tt.get_program_id x : i32
  %start = arith.muli %pid, %c1024_i32 : i32
  %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
  %starts = tt.splat %start : i32 -> tensor<1024xi32>
  %offs = arith.addi %starts, %range : tensor<1024xi32>
  %ns = tt.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32>
  %xs = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %offs : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
  %x = tt.load %xp, %mask : tensor<1024x!tt.ptr<f32>>
  %ys = tt.splat %y_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
  %yp = tt.addptr %ys, %offs : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
  %y = tt.load %yp, %mask : tensor<1024x!tt.ptr<f32>>
  %sum = arith.addf %x, %y : tensor<1024xf32>
  %os = tt.splat %out_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
  %op = tt.addptr %os, %offs : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
  tt.store %op, %sum, %mask : tensor<1024x!tt.ptr<f32>>
  tt.return
}

// -----

// f16 with aligned pointers: eight f16 (16 bytes) per thread.
// CHECK: [[$B:#blocked[0-9]*]] = #kgpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func public @vadd_f16
// CHECK:         tt.load %{{.*}}, %{{.*}} : tensor<1024x!tt.ptr<f16>, [[$B]]>
// CHECK:         tt.store %{{.*}}, %{{.*}}, %{{.*}} : tensor<1024x!tt.ptr<f16>, [[$B]]>
tt.func public @vadd_f16(%x_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %y_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %out_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
  %c1024_i32 = arith.constant 1024 : i32
  %pid = tt.get_program_id x : i32
  %start = arith.muli %pid, %c1024_i32 : i32
  %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
  %starts = tt.splat %start : i32 -> tensor<1024xi32>
  %offs = arith.addi %starts, %range : tensor<1024xi32>
  %ns = tt.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32>
  %xs = tt.splat %x_ptr : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>>
  %xp = tt.addptr %xs, %offs : tensor<1024x!tt.ptr<f16>>, tensor<1024xi32>
  %x = tt.load %xp, %mask : tensor<1024x!tt.ptr<f16>>
  %ys = tt.splat %y_ptr : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>>
  %yp = tt.addptr %ys, %offs : tensor<1024x!tt.ptr<f16>>, tensor<1024xi32>
  %y = tt.load %yp, %mask : tensor<1024x!tt.ptr<f16>>
  %sum = arith.addf %x, %y : tensor<1024xf16>
  %os = tt.splat %out_ptr : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>>
  %op = tt.addptr %os, %offs : tensor<1024x!tt.ptr<f16>>, tensor<1024xi32>
  tt.store %op, %sum, %mask : tensor<1024x!tt.ptr<f16>>
  tt.return
}

// -----

// A row reduction (x - max(x, axis=1)[:, None]) on contiguous rows: a warp
// covers one 128-element row with 4 f32 per lane, warps split the rows.
// The reduction result is the slice of that layout along the reduced
// axis, which is exactly what expand_dims needs: no convert_layout.
// CHECK-DAG: [[$B:#blocked[0-9]*]] = #kgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: [[$ROWS:#slice[0-9]*]] = #kgpu.slice<{dim = 1, parent = [[$B]]}>
// CHECK-DAG: [[$COLS:#slice[0-9]*]] = #kgpu.slice<{dim = 0, parent = [[$B]]}>
// CHECK-LABEL: tt.func public @row_sub_max
// CHECK:         tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32, [[$ROWS]]>
// CHECK:         tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, [[$COLS]]>
// CHECK:         %[[X:.*]] = tt.load %{{.*}} : tensor<8x128x!tt.ptr<f32>, [[$B]]>
// CHECK:         %[[MAX:.*]] = "tt.reduce"(%[[X]]) <{axis = 1 : i32}>
// CHECK:         }) : (tensor<8x128xf32, [[$B]]>) -> tensor<8xf32, [[$ROWS]]>
// CHECK-NEXT:    %[[E:.*]] = tt.expand_dims %[[MAX]] {axis = 1 : i32} : tensor<8xf32, [[$ROWS]]> -> tensor<8x1xf32, [[$B]]>
// CHECK-NEXT:    %[[BC:.*]] = tt.broadcast %[[E]] : tensor<8x1xf32, [[$B]]> -> tensor<8x128xf32, [[$B]]>
// CHECK-NEXT:    arith.subf %[[X]], %[[BC]] : tensor<8x128xf32, [[$B]]>
// CHECK-NOT:     kgpu.convert_layout
tt.func public @row_sub_max(%in: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %rows = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %cols = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %c128 = arith.constant dense<128> : tensor<8x1xi32>
  %r2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<8xi32> -> tensor<8x1xi32>
  %rs = arith.muli %r2, %c128 : tensor<8x1xi32>
  %c2 = tt.expand_dims %cols {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
  %rb = tt.broadcast %rs : tensor<8x1xi32> -> tensor<8x128xi32>
  %cb = tt.broadcast %c2 : tensor<1x128xi32> -> tensor<8x128xi32>
  %offs = arith.addi %rb, %cb : tensor<8x128xi32>
  %ins = tt.splat %in : !tt.ptr<f32> -> tensor<8x128x!tt.ptr<f32>>
  %inp = tt.addptr %ins, %offs : tensor<8x128x!tt.ptr<f32>>, tensor<8x128xi32>
  %x = tt.load %inp : tensor<8x128x!tt.ptr<f32>>
  %max = "tt.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %m = arith.maxnumf %a, %b : f32
    tt.reduce.return %m : f32
  }) : (tensor<8x128xf32>) -> tensor<8xf32>
  %m2 = tt.expand_dims %max {axis = 1 : i32} : tensor<8xf32> -> tensor<8x1xf32>
  %mb = tt.broadcast %m2 : tensor<8x1xf32> -> tensor<8x128xf32>
  %y = arith.subf %x, %mb : tensor<8x128xf32>
  %outs = tt.splat %out : !tt.ptr<f32> -> tensor<8x128x!tt.ptr<f32>>
  %outp = tt.addptr %outs, %offs : tensor<8x128x!tt.ptr<f32>>, tensor<8x128xi32>
  tt.store %outp, %y : tensor<8x128x!tt.ptr<f32>>
  tt.return
}

// -----

// A loop-carried accumulator keeps the layout of its init value (the
// constant), shared with the loop result, the block argument and the yield.
// CHECK: [[$B:#blocked[0-9]*]] = #kgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func public @loop_acc
// CHECK:         %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<1024xf32, [[$B]]>
// CHECK:         %[[ACC:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[A:.*]] = %[[ZERO]]) -> (tensor<1024xf32, [[$B]]>)
// CHECK:           %[[NEXT:.*]] = arith.addf %[[A]], %{{.*}} : tensor<1024xf32, [[$B]]>
// CHECK:           scf.yield %[[NEXT]] : tensor<1024xf32, [[$B]]>
// CHECK:         tt.store %{{.*}}, %[[ACC]] : tensor<1024x!tt.ptr<f32>, [[$B]]>
// CHECK-NOT:     kgpu.convert_layout
tt.func public @loop_acc(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %iters: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<1024xf32>
  %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
  %xs = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %range : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
  %acc = scf.for %i = %c0 to %iters step %c1 iter_args(%a = %zero) -> (tensor<1024xf32>) : i32 {
    %x = tt.load %xp : tensor<1024x!tt.ptr<f32>>
    %next = arith.addf %a, %x : tensor<1024xf32>
    scf.yield %next : tensor<1024xf32>
  }
  %os = tt.splat %out_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
  %op = tt.addptr %os, %range : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
  tt.store %op, %acc : tensor<1024x!tt.ptr<f32>>
  tt.return
}

