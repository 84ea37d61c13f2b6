// RUN: kiln-opt %s --kiln-ttir-to-llvm-amdgpu='num-warps=4' | FileCheck %s --enable-var-scope

// The AMDGPU pipeline: 64-lane wavefronts, kernels marked for ROCDL with
// their workgroup size, masked vector loads, cross-lane exchange through
// ds_swizzle (lane masks 1..16, bit-masked mode: offset = 0x1F | xor << 10)
// and ds_bpermute (mask 32, across the half-waves), and s_barrier for the
// cross-wavefront step of a reduction.
// CHECK: "kgpu.threads-per-warp" = 64 : i32
// CHECK-LABEL: llvm.func @row_sum
// CHECK-SAME: rocdl.flat_work_group_size = "256,256"
// CHECK-SAME: rocdl.kernel
// CHECK-SAME: rocdl.reqd_work_group_size = array<i32: 256, 1, 1>
// CHECK-DAG: %[[X1:.*]] = llvm.mlir.constant(1055 : i32) : i32
// CHECK-DAG: %[[X2:.*]] = llvm.mlir.constant(2079 : i32) : i32
// CHECK-DAG: %[[X4:.*]] = llvm.mlir.constant(4127 : i32) : i32
// CHECK-DAG: %[[X8:.*]] = llvm.mlir.constant(8223 : i32) : i32
// CHECK-DAG: %[[X16:.*]] = llvm.mlir.constant(16415 : i32) : i32
// CHECK: rocdl.workitem.id.x
// CHECK: llvm.intr.masked.load {{.*}} -> vector<4xi32>
// CHECK: rocdl.ds_swizzle %{{.*}}, %[[X1]]
// CHECK: rocdl.ds_swizzle %{{.*}}, %[[X2]]
// CHECK: rocdl.ds_swizzle %{{.*}}, %[[X4]]
// CHECK: rocdl.ds_swizzle %{{.*}}, %[[X8]]
// CHECK: rocdl.ds_swizzle %{{.*}}, %[[X16]]
// CHECK: rocdl.ds_bpermute
// CHECK: rocdl.barrier
// CHECK-NOT: nvvm.
tt.func public @row_sum(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32>, %n: i32 {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {end = 4096 : i32, start = 0 : i32} : tensor<4096xi32>
  %nn = tt.splat %n : i32 -> tensor<4096xi32>
  %m = arith.cmpi slt, %r, %nn : tensor<4096xi32>
  %s = tt.splat %p : !tt.ptr<f32> -> tensor<4096x!tt.ptr<f32>>
  %a = tt.addptr %s, %r : tensor<4096x!tt.ptr<f32>>, tensor<4096xi32>
  %x = tt.load %a, %m : tensor<4096x!tt.ptr<f32>>
  %sum = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%u: f32, %v: f32):
    %w = arith.addf %u, %v : f32
    tt.reduce.return %w : f32
  }) : (tensor<4096xf32>) -> f32
  tt.store %out, %sum : !tt.ptr<f32>
  tt.return
}
