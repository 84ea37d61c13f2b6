// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=8 mma-version=3" -kgpu-pipeline-dot-loops="num-stages=3 wgmma=true" | FileCheck %s --check-prefix=WGMMA
// RUN: kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=8 mma-version=3" -kgpu-pipeline-dot-loops="num-stages=3 wgmma=true" -kgpu-convert-to-llvm | FileCheck %s --check-prefix=WGMMA-LLVM
// RUN: not kiln-opt %s -split-input-file -kgpu-assign-layouts="num-warps=8 mma-version=3" -kgpu-pipeline-dot-loops="num-stages=5 wgmma=true" -kgpu-convert-to-llvm 2>&1 | FileCheck %s --check-prefix=TOOBIG

// wgmma (sm_90a): mma-version=3 gives the 128x256 accumulator of 8 warps
// the layout wgmma writes (warps along M only, 16 rows each: two
// warpgroups of 64 rows); the pipeline stores A and B in wgmma's 128-byte
// swizzled arrangements (1024-byte aligned slots: A 128x64 = 16384 bytes,
// B 64x256 = 32768 bytes, 3 of each), and each iteration waits for its
// slot, issues 4 wgmma.mma_async m64n256k16 (K = 64) from shared-memory
// descriptors, one inline asm statement holding the four K steps, and
// leaves them in flight: it waits for the previous
// iteration's group (wgmma_wait 1, the accumulator tied through it), passes
// a barrier (every warpgroup is done with slot (i - 1) % 3), then refills
// that slot. The loop runs under `if (lb < ub)`, which also holds the wait
// for the last group, so the path that skips the loop joins after it; the
// accumulator enters through a tied wgmma_fence.
// WGMMA: #kgpu.mma<{version = 2, warpsPerCTA = [8, 1], instrShape = [16, 8]}>
// WGMMA-LABEL: tt.func public @wgmma
// WGMMA: kgpu.async_copy {{.*}} {offset = 0 : i64, rowStride = 64 : i64, slotBytes = 16384 : i64, swizzle = 1 : i32}
// WGMMA: kgpu.async_copy {{.*}} {offset = 49152 : i64, rowStride = 256 : i64, slotBytes = 32768 : i64, swizzle = 2 : i32}
// WGMMA: %[[INIT:.+]] = kgpu.wgmma_fence %{{.+}} : tensor<128x256xf32, #mma>
// WGMMA: %[[ANY:.+]] = arith.cmpi slt, %{{.+}}, %{{.+}} : i32
// WGMMA: %[[RES:.+]] = scf.if %[[ANY]] -> (tensor<128x256xf32, #mma>)
// The slot read, i % 3, is carried and wrapped with a select; the slot
// refilled, (i + 2) % 3, is the one before it.
// WGMMA: %[[LOOP:.+]]:{{[0-9]+}} = scf.for {{.*}} iter_args(%[[ACC:[^ ]+]] = %[[INIT]], %[[SLOT:[^ ]+]] = %c0_i32
// WGMMA: kgpu.async_wait 1
// WGMMA: %[[PREV:.+]] = arith.subi %[[SLOT]], %c1_i32{{.*}} : i32
// WGMMA: %[[FIRST:.+]] = arith.cmpi eq, %[[SLOT]], %c0_i32{{.*}} : i32
// WGMMA: %[[REFILL:.+]] = arith.select %[[FIRST]], %c2_i32, %[[PREV]] : i32
// WGMMA: %[[D:.+]] = kgpu.local_dot %[[ACC]] slot %[[SLOT]] {{.*}}noWait{{.*}}wgmma
// WGMMA: %[[W:.+]] = kgpu.wgmma_wait 1 %[[D]] : tensor<128x256xf32, #mma>
// WGMMA-NEXT: kgpu.barrier
// WGMMA: kgpu.async_copy {{.*}} slot %[[REFILL]]
// WGMMA: kgpu.async_copy {{.*}} slot %[[REFILL]]
// WGMMA: %[[AFTER:.+]] = arith.addi %[[SLOT]], %c1_i32{{.*}} : i32
// WGMMA: %[[WRAP:.+]] = arith.cmpi eq, %[[AFTER]], %c3_i32 : i32
// WGMMA: %[[NEXT:.+]] = arith.select %[[WRAP]], %c0_i32{{.*}}, %[[AFTER]] : i32
// WGMMA: scf.yield %[[W]], %[[NEXT]]
// WGMMA: %[[DONE:.+]] = kgpu.wgmma_wait 0 %[[LOOP]]#0 : tensor<128x256xf32, #mma>
// WGMMA-NEXT: scf.yield %[[DONE]]
// WGMMA-NEXT: } else {
// WGMMA-NEXT: scf.yield %[[INIT]]
// WGMMA: kgpu.async_wait 0
// WGMMA: kgpu.convert_layout %[[RES]] : tensor<128x256xf32, #mma>
// WGMMA-LLVM: kgpu.shared = 147456 : i32
// WGMMA-LLVM: llvm.mlir.global external @kgpu_shared_memory() {addr_space = 3 : i32, alignment = 1024 : i64}
// WGMMA-LLVM-LABEL: llvm.func @wgmma
// WGMMA-LLVM: nvvm.cp.async.wait.group 1
// WGMMA-LLVM-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// WGMMA-LLVM: nvvm.barrier0
// One descriptor per operand per iteration; each further K step (16
// elements: 32 bytes along A's rows, 2 = 32 >> 4; 1024 * 256 / 64 bytes
// down B, 512 = 8192 >> 4) adds its offset >> 4 to it. The four K steps
// are one inline asm (imm-trans-b 1: B N-major), the 128 accumulators
// tied, its descriptor operands A's and B's of each K step in turn.
// WGMMA-LLVM-NOT: nvvm.wgmma.mma_async
// WGMMA-LLVM: %[[CA:[0-9]+]] = llvm.mlir.constant(4611686293305360384 : i64)
// WGMMA-LLVM-NEXT: %[[DA:[0-9]+]] = llvm.or %{{.*}}, %[[CA]] : i64
// WGMMA-LLVM: %[[DB:[0-9]+]] = llvm.or
// WGMMA-LLVM-NEXT: nvvm.wgmma.fence.aligned
// WGMMA-LLVM-NEXT: %[[K1:.+]] = llvm.mlir.constant(2 : i64) : i64
// WGMMA-LLVM-NEXT: %[[A1:.+]] = llvm.add %[[DA]], %[[K1]] : i64
// WGMMA-LLVM-NEXT: %[[K1B:.+]] = llvm.mlir.constant(512 : i64) : i64
// WGMMA-LLVM-NEXT: %[[B1:.+]] = llvm.add %[[DB]], %[[K1B]] : i64
// WGMMA-LLVM-NEXT: %[[K2:.+]] = llvm.mlir.constant(4 : i64) : i64
// WGMMA-LLVM-NEXT: %[[A2:.+]] = llvm.add %[[DA]], %[[K2]] : i64
// WGMMA-LLVM-NEXT: %[[K2B:.+]] = llvm.mlir.constant(1024 : i64) : i64
// WGMMA-LLVM-NEXT: %[[B2:.+]] = llvm.add %[[DB]], %[[K2B]] : i64
// WGMMA-LLVM-NEXT: %[[K3:.+]] = llvm.mlir.constant(6 : i64) : i64
// WGMMA-LLVM-NEXT: %[[A3:.+]] = llvm.add %[[DA]], %[[K3]] : i64
// WGMMA-LLVM-NEXT: %[[K3B:.+]] = llvm.mlir.constant(1536 : i64) : i64
// WGMMA-LLVM-NEXT: %[[B3:.+]] = llvm.add %[[DB]], %[[K3B]] : i64
// WGMMA-LLVM-NEXT: llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;\0Asetp.ne.b32 p, 1, 0;\0A
// WGMMA-LLVM-NOT: wgmma
// WGMMA-LLVM-SAME: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {$0, {{[^}]*}}, $127}, $256, $257, p, 1,  1, 0,  1;\0A
// WGMMA-LLVM-NOT: wgmma
// WGMMA-LLVM-SAME: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {$0, {{[^}]*}}, $127}, $258, $259, p, 1,  1, 0,  1;\0A
// WGMMA-LLVM-NOT: wgmma
// WGMMA-LLVM-SAME: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {$0, {{[^}]*}}, $127}, $260, $261, p, 1,  1, 0,  1;\0A
// WGMMA-LLVM-NOT: wgmma
// WGMMA-LLVM-SAME: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {$0, {{[^}]*}}, $127}, $262, $263, p, 1,  1, 0,  1;\0A}"
// WGMMA-LLVM-SAME: "{{(=f,){128}0,([0-9]+,){126}127,(l,){7}l}}" %{{[^:]*}}, %[[DA]], %[[DB]], %[[A1]], %[[B1]], %[[A2]], %[[B2]], %[[A3]], %[[B3]] : (f32,
// WGMMA-LLVM-NOT: wgmma.mma_async
// WGMMA-LLVM: nvvm.wgmma.commit.group.sync.aligned
// WGMMA-LLVM: llvm.inline_asm has_side_effects asm_dialect = att "wgmma.wait_group.sync.aligned 1;", "=r,=r,
// WGMMA-LLVM: nvvm.barrier0
// WGMMA-LLVM: nvvm.cp.async.shared.global
// WGMMA-LLVM: llvm.inline_asm has_side_effects asm_dialect = att "wgmma.wait_group.sync.aligned 0;", "=r,=r,
// WGMMA-LLVM-NOT: wgmma.mma_async
//
// A config whose slots do not fit is a compile-time error naming the
// pipeline, its slot sizes and the limit: 5 x (16384 + 32768) = 245760
// bytes > 232448 on sm_90.
// TOOBIG: error: the kernel needs 245760 bytes of shared memory (num-warps 8) but a CTA may use at most 232448 on nvptx: the tt.dot K loop is pipelined over 5 shared-memory slots (num-stages), each holding A 128x64 (16384 bytes) and B 64x256 (32768 bytes); use fewer stages or smaller blocks
tt.func public @wgmma(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %zero = arith.constant dense<0.0> : tensor<128x256xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %stepA = arith.constant dense<64> : tensor<128x64xi32>
  %stepB = arith.constant dense<16384> : tensor<64x256xi32>
  %rk = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rk2 = tt.expand_dims %rk {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rka = tt.broadcast %rk2 : tensor<1x64xi32> -> tensor<128x64xi32>
  %pa = tt.splat %a : !tt.ptr<f16> -> tensor<128x64x!tt.ptr<f16>>
  %pa0 = tt.addptr %pa, %rka : tensor<128x64x!tt.ptr<f16>>, tensor<128x64xi32>
  %rn = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  %rn2 = tt.expand_dims %rn {axis = 0 : i32} : tensor<256xi32> -> tensor<1x256xi32>
  %rnb = tt.broadcast %rn2 : tensor<1x256xi32> -> tensor<64x256xi32>
  %pb = tt.splat %b : !tt.ptr<f16> -> tensor<64x256x!tt.ptr<f16>>
  %pb0 = tt.addptr %pb, %rnb : tensor<64x256x!tt.ptr<f16>>, tensor<64x256xi32>
  %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%xa = %pa0, %xb = %pb0, %acc = %zero) -> (tensor<128x64x!tt.ptr<f16>>, tensor<64x256x!tt.ptr<f16>>, tensor<128x256xf32>) : i32 {
    %va = tt.load %xa : tensor<128x64x!tt.ptr<f16>>
    %vb = tt.load %xb : tensor<64x256x!tt.ptr<f16>>
    %d = tt.dot %va, %vb, %acc : tensor<128x64xf16> * tensor<64x256xf16> -> tensor<128x256xf32>
    %na = tt.addptr %xa, %stepA : tensor<128x64x!tt.ptr<f16>>, tensor<128x64xi32>
    %nb = tt.addptr %xb, %stepB : tensor<64x256x!tt.ptr<f16>>, tensor<64x256xi32>
    scf.yield %na, %nb, %d : tensor<128x64x!tt.ptr<f16>>, tensor<64x256x!tt.ptr<f16>>, tensor<128x256xf32>
  }
  %rc = tt.broadcast %rn2 : tensor<1x256xi32> -> tensor<128x256xi32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<128x256x!tt.ptr<f32>>
  %pc2 = tt.addptr %pc, %rc : tensor<128x256x!tt.ptr<f32>>, tensor<128x256xi32>
  tt.store %pc2, %r#2 : tensor<128x256x!tt.ptr<f32>>
  tt.return
}
