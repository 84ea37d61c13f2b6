// RUN: kiln-opt %s -kgpu-assign-layouts="num-warps=4 mma-version=2" | FileCheck %s
// RUN: kiln-opt %s -kgpu-assign-layouts="num-warps=4 mma-version=2" -kgpu-convert-to-llvm | FileCheck %s --check-prefix=LLVM

// Each function's layouts are chosen on its own: the device function
// returns its dot's mma.sync accumulator, the kernel stores the result in
// a blocked layout. The call takes the callee's types and a
// kgpu.convert_layout follows it (it used to fail the verifier: "call type
// does not match the callee's type").
// CHECK: #[[$MMA:.*]] = #kgpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func private @device_dot
// CHECK-SAME: -> tensor<64x64xf32, #[[$MMA]]>
// CHECK-LABEL: tt.func public @kernel
// CHECK: %[[R:.*]] = tt.call @device_dot({{.*}}) : ({{.*}}) -> tensor<64x64xf32, #[[$MMA]]>
// CHECK-NEXT: %[[C:.*]] = kgpu.convert_layout %[[R]] : tensor<64x64xf32, #[[$MMA]]> -> tensor<64x64xf32, #blocked
// CHECK: tt.store {{.*}}, %[[C]]
// LLVM-LABEL: llvm.func @kernel
// LLVM: llvm.call @device_dot
tt.func private @device_dot(%a: tensor<64x32xf16>, %b: tensor<32x64xf16>) -> tensor<64x64xf32> {
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %d = tt.dot %a, %b, %z : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
  tt.return %d : tensor<64x64xf32>
}
tt.func public @kernel(%a: tensor<64x32xf16>, %b: tensor<32x64xf16>, %p: !tt.ptr<f32>) {
  %e = tt.call @device_dot(%a, %b) : (tensor<64x32xf16>, tensor<32x64xf16>) -> tensor<64x64xf32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  tt.store %ps, %e : tensor<64x64x!tt.ptr<f32>>
  tt.return
}
