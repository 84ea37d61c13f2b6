// An evict_first / evict_last load carries the same priority for L2 as a
// createpolicy cache policy (PTX ISA 9.7.9.17 createpolicy, 9.7.9.8 ld
// .L2::cache_hint: both PTX ISA 7.4, sm_80) where the target has both; one
// policy per priority, shared by the loads. Before sm_80, before PTX 7.4 or
// with the chip unknown, the load keeps its L1 priority alone.
// RUN: kiln-opt %s -kgpu-assign-layouts=num-warps=4 "-kgpu-convert-to-llvm=arch=sm_90a ptx-version=80" | FileCheck %s --check-prefix=HINT
// RUN: kiln-opt %s -kgpu-assign-layouts=num-warps=4 "-kgpu-convert-to-llvm=arch=sm_80 ptx-version=74" | FileCheck %s --check-prefix=HINT
// RUN: kiln-opt %s -kgpu-assign-layouts=num-warps=4 "-kgpu-convert-to-llvm=arch=sm_75 ptx-version=80" | FileCheck %s --check-prefix=NOHINT
// RUN: kiln-opt %s -kgpu-assign-layouts=num-warps=4 "-kgpu-convert-to-llvm=arch=sm_90a ptx-version=73" | FileCheck %s --check-prefix=NOHINT
// RUN: kiln-opt %s -kgpu-assign-layouts=num-warps=4 -kgpu-convert-to-llvm | FileCheck %s --check-prefix=NOHINT

// HINT-LABEL: llvm.func @evict_priorities
// HINT:         %[[LAST:.*]] = llvm.inline_asm asm_dialect = att "createpolicy.fractional.L2::evict_last.b64 $0, 1.0;", "=l"  : () -> i64
// HINT:         llvm.inline_asm asm_dialect = att "mov.b32 $0, 0;\0A\09mov.b32 $1, 0;\0A\09mov.b32 $2, 0;\0A\09mov.b32 $3, 0;\0A\09@$5 ld.global.L1::evict_last.L2::cache_hint.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ], $6;", "=r,=r,=r,=r,l,b,l" %{{.*}}, %{{.*}}, %[[LAST]]
// HINT:         %[[FIRST:.*]] = llvm.inline_asm asm_dialect = att "createpolicy.fractional.L2::evict_first.b64 $0, 1.0;", "=l"  : () -> i64
// The masked load with `other`: the policy comes after the other values.
// HINT:         llvm.inline_asm asm_dialect = att "mov.b32 $0, $6;\0A\09mov.b32 $1, $7;\0A\09mov.b32 $2, $8;\0A\09mov.b32 $3, $9;\0A\09@$5 ld.global.L1::evict_first.L2::cache_hint.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ], $10;", "=r,=r,=r,=r,l,b,r,r,r,r,l" {{.*}}, %[[FIRST]]
// A load of normal priority takes no policy.
// HINT-NOT:     cache_hint
// HINT:         llvm.return

// NOHINT-LABEL: llvm.func @evict_priorities
// NOHINT-NOT:   createpolicy
// NOHINT-NOT:   cache_hint
// NOHINT:       ld.global.L1::evict_last.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ];
// NOHINT:       ld.global.L1::evict_first.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ];
// NOHINT:       llvm.return
tt.func public @evict_priorities(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
  %range = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %xs = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %range : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  %ns = tt.splat %n : i32 -> tensor<512xi32>
  %mask = arith.cmpi slt, %range, %ns : tensor<512xi32>
  %one = arith.constant dense<1.0> : tensor<512xf32>
  %a = tt.load %xp evictionPolicy = evict_last : tensor<512x!tt.ptr<f32>>
  %b = tt.load %xp, %mask, %one evictionPolicy = evict_first : tensor<512x!tt.ptr<f32>>
  %c = tt.load %xp, %mask : tensor<512x!tt.ptr<f32>>
  %s = arith.addf %a, %b : tensor<512xf32>
  %t = arith.addf %s, %c : tensor<512xf32>
  %os = tt.splat %out_ptr : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %op = tt.addptr %os, %range : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  tt.store %op, %t : tensor<512x!tt.ptr<f32>>
  tt.return
}
