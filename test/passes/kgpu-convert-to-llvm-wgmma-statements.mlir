// RUN: kiln-opt %s -kgpu-assign-layouts="num-warps=4 mma-version=3" -kgpu-pipeline-dot-loops="num-stages=3 wgmma=true" "-kgpu-convert-to-llvm=arch=sm_90a ptx-version=80" | FileCheck %s

// A K loop whose K block is 128 (8 wgmma K steps of 16 through matrix
// descriptors, one 64-row block on 4 warps: 32 f32 accumulators per
// thread): kgpu-convert-to-llvm puts at most 4 K steps in one inline asm
// statement (kWgmmaKStepsPerStatement), so the 8 steps are two statements,
// each with its accumulators tied ($0-$31 out, 0-31 in) and two descriptors
// per step ($64-$71). With all 8 in one statement every descriptor would be
// computed before it, which made ptxas spill on larger multiplies.

// CHECK-LABEL: llvm.func @k128
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NOT: wgmma.mma_async
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;\0Asetp.ne.b32 p, 1, 0;\0Awgmma
// CHECK-SAME: .mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{[^}]*}}, $31}, $64, $65, p, 1,  1, 0,  1;\0A
// CHECK-NOT: wgmma
// CHECK-SAME: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{[^}]*}}, $31}, $66, $67, p, 1,  1, 0,  1;\0A
// CHECK-NOT: wgmma
// CHECK-SAME: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{[^}]*}}, $31}, $68, $69, p, 1,  1, 0,  1;\0A
// CHECK-NOT: wgmma
// CHECK-SAME: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{[^}]*}}, $31}, $70, $71, p, 1,  1, 0,  1;\0A}"
// CHECK-SAME: "{{(=f,){32}0,([0-9]+,){30}31,(l,){7}l}}"
// CHECK-NOT: wgmma.mma_async
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;\0Asetp.ne.b32 p, 1, 0;\0Awgmma
// CHECK-SAME: .mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{[^}]*}}, $31}, $64, $65, p, 1,  1, 0,  1;\0A
// CHECK-NOT: wgmma
// CHECK-SAME: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{[^}]*}}, $31}, $66, $67, p, 1,  1, 0,  1;\0A
// CHECK-NOT: wgmma
// CHECK-SAME: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{[^}]*}}, $31}, $68, $69, p, 1,  1, 0,  1;\0A
// CHECK-NOT: wgmma
// CHECK-SAME: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{[^}]*}}, $31}, $70, $71, p, 1,  1, 0,  1;\0A}"
// CHECK-SAME: "{{(=f,){32}0,([0-9]+,){30}31,(l,){7}l}}"
// CHECK-NOT: wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
tt.func public @k128(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %stepA = arith.constant dense<128> : tensor<64x128xi32>
  %stepB = arith.constant dense<8192> : tensor<128x64xi32>
  %rk = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %rk2 = tt.expand_dims %rk {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
  %rka = tt.broadcast %rk2 : tensor<1x128xi32> -> tensor<64x128xi32>
  %pa = tt.splat %a : !tt.ptr<f16> -> tensor<64x128x!tt.ptr<f16>>
  %pa0 = tt.addptr %pa, %rka : tensor<64x128x!tt.ptr<f16>>, tensor<64x128xi32>
  %rn = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rn2 = tt.expand_dims %rn {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rnb = tt.broadcast %rn2 : tensor<1x64xi32> -> tensor<128x64xi32>
  %pb = tt.splat %b : !tt.ptr<f16> -> tensor<128x64x!tt.ptr<f16>>
  %pb0 = tt.addptr %pb, %rnb : tensor<128x64x!tt.ptr<f16>>, tensor<128x64xi32>
  %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%xa = %pa0, %xb = %pb0, %acc = %zero) -> (tensor<64x128x!tt.ptr<f16>>, tensor<128x64x!tt.ptr<f16>>, tensor<64x64xf32>) : i32 {
    %va = tt.load %xa : tensor<64x128x!tt.ptr<f16>>
    %vb = tt.load %xb : tensor<128x64x!tt.ptr<f16>>
    %d = tt.dot %va, %vb, %acc : tensor<64x128xf16> * tensor<128x64xf16> -> tensor<64x64xf32>
    %na = tt.addptr %xa, %stepA : tensor<64x128x!tt.ptr<f16>>, tensor<64x128xi32>
    %nb = tt.addptr %xb, %stepB : tensor<128x64x!tt.ptr<f16>>, tensor<128x64xi32>
    scf.yield %na, %nb, %d : tensor<64x128x!tt.ptr<f16>>, tensor<128x64x!tt.ptr<f16>>, tensor<64x64xf32>
  }
  %rc = tt.broadcast %rn2 : tensor<1x64xi32> -> tensor<64x64xi32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %pc2 = tt.addptr %pc, %rc : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  tt.store %pc2, %r#2 : tensor<64x64x!tt.ptr<f32>>
  tt.return
}
