// RUN: kiln-opt %s -kgpu-assign-layouts=num-warps=4 -kgpu-convert-to-llvm | FileCheck %s --check-prefixes=CHECK,NOFTZ
// RUN: kiln-opt %s -kgpu-assign-layouts=num-warps=4 "-kgpu-convert-to-llvm=ftz=true" | FileCheck %s --check-prefixes=CHECK,FTZ

// f32 math on NVPTX without libdevice, as Triton 3.6 lowers it (checked
// against its PTX): exp = ex2.approx.f32(x * log2 e) whatever ftz says,
// exp2 = ex2.approx(.ftz).f32 (what libdevice's __nv_exp2f is), maxnumf /
// minnumf = llvm.maxnum / minnum (max.f32 / min.f32). Tensor and scalar
// ops alike; f64 keeps libdevice.

// CHECK:     llvm.func @__nv_exp(f64) -> f64
// CHECK-NOT: llvm.func @__nv_expf
// CHECK-NOT: llvm.func @__nv_exp2f
// CHECK-NOT: llvm.func @__nv_fmaxf
// CHECK-NOT: llvm.func @__nv_fminf
// CHECK-LABEL: llvm.func @math
// CHECK:       llvm.fmul
// CHECK-NEXT:  llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"
// NOFTZ:       llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"
// FTZ:         llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"
// CHECK:       llvm.intr.maxnum({{.*}}) : (f32, f32) -> f32
// CHECK:       llvm.intr.minnum({{.*}}) : (f32, f32) -> f32
// The scalar ones.
// CHECK:       %[[S:.*]] = llvm.fmul %arg2, %{{.*}} : f32
// CHECK-NEXT:  %[[E:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"(%[[S]]) : (f32) -> f32
// CHECK-NEXT:  llvm.intr.maxnum(%[[E]], %arg2) : (f32, f32) -> f32
// CHECK:       llvm.call @__nv_exp(%{{.*}}) : (f64) -> f64
tt.func public @math(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y_ptr: !tt.ptr<f64> {tt.divisibility = 16 : i32}, %s: f32) {
  %range = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %xs = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %range : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  %x = tt.load %xp : tensor<128x!tt.ptr<f32>>
  %e = math.exp %x : tensor<128xf32>
  %e2 = math.exp2 %e : tensor<128xf32>
  %m = arith.maxnumf %e2, %x : tensor<128xf32>
  %n = arith.minnumf %m, %x : tensor<128xf32>
  tt.store %xp, %n : tensor<128x!tt.ptr<f32>>
  %se = math.exp %s : f32
  %sm = arith.maxnumf %se, %s : f32
  tt.store %x_ptr, %sm : !tt.ptr<f32>
  %ys = tt.splat %y_ptr : !tt.ptr<f64> -> tensor<128x!tt.ptr<f64>>
  %yp = tt.addptr %ys, %range : tensor<128x!tt.ptr<f64>>, tensor<128xi32>
  %y = tt.load %yp : tensor<128x!tt.ptr<f64>>
  %ye = math.exp %y : tensor<128xf64>
  tt.store %yp, %ye : tensor<128x!tt.ptr<f64>>
  tt.return
}

// f32 arith.divf is div.full.f32 (approximate, at most 2 ulp, not flushed
// whatever ftz says), as Triton lowers it, through the llvm.nvvm.div.full
// intrinsic rather than inline asm: tensor and scalar alike.
// CHECK-LABEL: llvm.func @divf
// CHECK-NOT:   llvm.inline_asm
// CHECK:       llvm.call_intrinsic "llvm.nvvm.div.full"(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK-NOT:   llvm.inline_asm
// CHECK:       %[[Q:.*]] = llvm.call_intrinsic "llvm.nvvm.div.full"(%arg1, %arg2) : (f32, f32) -> f32
// CHECK-NOT:   llvm.inline_asm
// CHECK:       llvm.return
tt.func public @divf(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %s: f32, %t: f32) {
  %range = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %xs = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %range : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  %x = tt.load %xp : tensor<128x!tt.ptr<f32>>
  %y = arith.divf %x, %x : tensor<128xf32>
  tt.store %xp, %y : tensor<128x!tt.ptr<f32>>
  %q = arith.divf %s, %t : f32
  %qs = tt.splat %q : f32 -> tensor<128xf32>
  tt.store %xp, %qs : tensor<128x!tt.ptr<f32>>
  tt.return
}
