// RUN: kiln-opt %s -split-input-file -kgpu-convert-to-llvm | FileCheck %s
// RUN: kiln-opt %S/Inputs/local-load-invalid.mlir -kgpu-convert-to-llvm -verify-diagnostics -o /dev/null

// kgpu.local_load lowering: each thread reads its elements of a slot.
// Rows of 64 f16 (128 bytes): one 16-byte ld.shared per run of 8; rows of
// 68 f16 (136 bytes, not a 16-byte multiple): one ld.shared per element;
// a transposed tile (dimension 0 contiguous in the layout and in shared
// memory): 16-byte reads along dimension 0. Not in a loop and without
// kgpu.own_shared_memory, the slots are allocated from offset 0 like any
// op's shared memory: the kernel needs the last one's end, 8448 + 2 *
// 2048 = 12544 bytes.
// CHECK: kgpu.shared = 12544
// CHECK-LABEL: llvm.func @local_loads
// CHECK-COUNT-1: llvm.load %{{.+}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
// CHECK-COUNT-8: llvm.load %{{.+}} : !llvm.ptr<3> -> f16
// CHECK: llvm.load %{{.+}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
// CHECK-NOT: !llvm.ptr<3> -> f16
// CHECK: llvm.return
#bl = #kgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blt = #kgpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"kgpu.num-warps" = 4 : i32, "kgpu.threads-per-warp" = 32 : i32} {
  tt.func public @local_loads(%q: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %s: i32) {
    %x = kgpu.local_load slot %s {offset = 0 : i64, rowStride = 64 : i64, slotBytes = 2048 : i64, numSlots = 2 : i32} : tensor<16x64xf16, #bl>
    %y = kgpu.local_load slot %s {offset = 4096 : i64, rowStride = 68 : i64, slotBytes = 2176 : i64, numSlots = 2 : i32} : tensor<16x64xf16, #bl>
    %z = kgpu.local_load slot %s {offset = 8448 : i64, rowStride = 64 : i64, slotBytes = 2048 : i64, numSlots = 2 : i32, transpose} : tensor<64x16xf16, #blt>
    %xy = arith.addf %x, %y : tensor<16x64xf16, #bl>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #kgpu.slice<{dim = 0, parent = #bl}>>
    %c = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #kgpu.slice<{dim = 0, parent = #bl}>> -> tensor<1x64xi32, #bl>
    %cb = tt.broadcast %c : tensor<1x64xi32, #bl> -> tensor<16x64xi32, #bl>
    %qs = tt.splat %q : !tt.ptr<f16> -> tensor<16x64x!tt.ptr<f16>, #bl>
    %qq = tt.addptr %qs, %cb : tensor<16x64x!tt.ptr<f16>, #bl>, tensor<16x64xi32, #bl>
    tt.store %qq, %xy : tensor<16x64x!tt.ptr<f16>, #bl>
    %rt = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #kgpu.slice<{dim = 1, parent = #blt}>>
    %ct = tt.expand_dims %rt {axis = 1 : i32} : tensor<64xi32, #kgpu.slice<{dim = 1, parent = #blt}>> -> tensor<64x1xi32, #blt>
    %cbt = tt.broadcast %ct : tensor<64x1xi32, #blt> -> tensor<64x16xi32, #blt>
    %qst = tt.splat %q : !tt.ptr<f16> -> tensor<64x16x!tt.ptr<f16>, #blt>
    %qqt = tt.addptr %qst, %cbt : tensor<64x16x!tt.ptr<f16>, #blt>, tensor<64x16xi32, #blt>
    tt.store %qqt, %z : tensor<64x16x!tt.ptr<f16>, #blt>
    tt.return
  }
}
