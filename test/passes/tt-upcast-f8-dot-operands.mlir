// RUN: kiln-opt %s -split-input-file -tt-upcast-f8-dot-operands | FileCheck %s --enable-var-scope

// f8E4M3FN operands become f16 through tt.fp_to_fp (an upcast: no rounding
// mode); the dot keeps its accumulator and attributes.
// CHECK-LABEL: tt.func @e4m3
// CHECK-SAME:    (%[[A:.*]]: tensor<32x64xf8E4M3FN>, %[[B:.*]]: tensor<64x64xf8E4M3FN>, %[[C:.*]]: tensor<32x64xf32>)
// CHECK-NEXT:    %[[A16:.*]] = tt.fp_to_fp %[[A]] : tensor<32x64xf8E4M3FN> -> tensor<32x64xf16>
// CHECK-NEXT:    %[[B16:.*]] = tt.fp_to_fp %[[B]] : tensor<64x64xf8E4M3FN> -> tensor<64x64xf16>
// CHECK-NEXT:    %[[D:.*]] = tt.dot %[[A16]], %[[B16]], %[[C]] {maxNumImpreciseAcc = 1073741824 : i32} : tensor<32x64xf16> * tensor<64x64xf16> -> tensor<32x64xf32>
// CHECK-NEXT:    tt.return %[[D]]
tt.func @e4m3(%a: tensor<32x64xf8E4M3FN>, %b: tensor<64x64xf8E4M3FN>, %c: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %d = tt.dot %a, %b, %c {maxNumImpreciseAcc = 1073741824 : i32} : tensor<32x64xf8E4M3FN> * tensor<64x64xf8E4M3FN> -> tensor<32x64xf32>
  tt.return %d : tensor<32x64xf32>
}

// -----

// Mixed f8 formats (e4m3 x e5m2, which the tt verifier allows) both
// become f16.
// CHECK-LABEL: tt.func @mixed
// CHECK:         %[[A16:.*]] = tt.fp_to_fp %{{.*}} : tensor<16x32xf8E4M3FN> -> tensor<16x32xf16>
// CHECK:         %[[B16:.*]] = tt.fp_to_fp %{{.*}} : tensor<32x16xf8E5M2> -> tensor<32x16xf16>
// CHECK:         tt.dot %[[A16]], %[[B16]], %{{.*}} : tensor<16x32xf16> * tensor<32x16xf16> -> tensor<16x16xf32>
tt.func @mixed(%a: tensor<16x32xf8E4M3FN>, %b: tensor<32x16xf8E5M2>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %d = tt.dot %a, %b, %c : tensor<16x32xf8E4M3FN> * tensor<32x16xf8E5M2> -> tensor<16x16xf32>
  tt.return %d : tensor<16x16xf32>
}

// -----

// f16 dots, and dots on other f8 formats (the FNUZ ones, which the
// lowering rejects by name), are left alone.
// CHECK-LABEL: tt.func @untouched
// CHECK-NOT:     tt.fp_to_fp
// CHECK:         tt.dot %{{.*}} : tensor<16x16xf16> * tensor<16x16xf16>
// CHECK:         tt.dot %{{.*}} : tensor<16x16xf8E4M3FNUZ> * tensor<16x16xf8E4M3FNUZ>
tt.func @untouched(%a: tensor<16x16xf16>, %a8: tensor<16x16xf8E4M3FNUZ>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %d = tt.dot %a, %a, %c : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %e = tt.dot %a8, %a8, %d : tensor<16x16xf8E4M3FNUZ> * tensor<16x16xf8E4M3FNUZ> -> tensor<16x16xf32>
  tt.return %e : tensor<16x16xf32>
}
