// RUN: kiln-opt %s -split-input-file -canonicalize | FileCheck %s --enable-var-scope

#a = #kgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#b = #kgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#c = #kgpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>

// Two conversions in a row become one.
// CHECK-LABEL: tt.func @convert_of_convert
// CHECK-NEXT: %[[R:.*]] = kgpu.convert_layout %{{.*}} : tensor<128xf32, #{{.*}}> -> tensor<128xf32, #{{.*}}>
// CHECK-NEXT: tt.return %[[R]]
tt.func @convert_of_convert(%x: tensor<128xf32, #a>) -> tensor<128xf32, #c> {
  %y = kgpu.convert_layout %x : tensor<128xf32, #a> -> tensor<128xf32, #b>
  %z = kgpu.convert_layout %y : tensor<128xf32, #b> -> tensor<128xf32, #c>
  tt.return %z : tensor<128xf32, #c>
}

// A conversion to the same layout disappears.
// CHECK-LABEL: tt.func @convert_to_same
// CHECK-NEXT: tt.return %arg0
tt.func @convert_to_same(%x: tensor<128xf32, #a>) -> tensor<128xf32, #a> {
  %y = kgpu.convert_layout %x : tensor<128xf32, #a> -> tensor<128xf32, #a>
  tt.return %y : tensor<128xf32, #a>
}

// Splats, ranges and constants are rebuilt in the wanted layout instead of
// moving data between threads.
// CHECK-LABEL: tt.func @convert_of_splat
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<7> : tensor<128xi32, #[[B:blocked[0-9]*]]>
// CHECK-NEXT: %[[S:.*]] = tt.splat %arg0 : i32 -> tensor<128xi32, #[[B]]>
// CHECK-NEXT: %[[R:.*]] = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #[[B]]>
// CHECK-NEXT: tt.return %[[S]], %[[R]], %[[C]]
tt.func @convert_of_splat(%v: i32) -> (tensor<128xi32, #b>, tensor<128xi32, #b>, tensor<128xi32, #b>) {
  %s = tt.splat %v : i32 -> tensor<128xi32, #a>
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #a>
  %c = arith.constant dense<7> : tensor<128xi32, #a>
  %s2 = kgpu.convert_layout %s : tensor<128xi32, #a> -> tensor<128xi32, #b>
  %r2 = kgpu.convert_layout %r : tensor<128xi32, #a> -> tensor<128xi32, #b>
  %c2 = kgpu.convert_layout %c : tensor<128xi32, #a> -> tensor<128xi32, #b>
  tt.return %s2, %r2, %c2 : tensor<128xi32, #b>, tensor<128xi32, #b>, tensor<128xi32, #b>
}
