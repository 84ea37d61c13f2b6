// RUN: kiln-opt %s -split-input-file --kiln-ttir-to-llvm-nvptx='num-warps=1 arch=sm_90a' | FileCheck %s --check-prefix=SM90 --enable-var-scope
// RUN: kiln-opt %s -split-input-file --kiln-ttir-to-llvm-nvptx='num-warps=1 arch=sm_80' | FileCheck %s --check-prefix=SM80 --enable-var-scope
// RUN: kiln-opt %s -split-input-file --kiln-ttir-to-llvm-amdgpu='num-warps=1 arch=gfx942' | FileCheck %s --check-prefix=AMD --enable-var-scope

// tt.dot on f8 operands through the pipelines: tt-upcast-f8-dot-operands
// makes them f16 (exactly), then the f16 tensor-core paths multiply.
//
// 16x16 f8E4M3FN times 16x16 on one warp: each of the 32 threads holds 8
// elements of A and 8 of B, converted in pairs on sm_90a by
// cvt.rn.f16x2.e4m3x2 (PTX ISA 9.7.9.21): 4 + 4 = 8 conversions; then
// the f16 operands go through shared memory and ldmatrix to 2 mma.sync
// m16n8k16 (two 16x8 N tiles, one 16-wide K step).
// SM90-LABEL: llvm.func @dot_e4m3
// SM90-COUNT-8: nvvm.convert.f8x2.to.f16x2 %{{.*}} : vector<2xi8>(f8E4M3FN) -> vector<2xf16>
// SM90-NOT: nvvm.convert.f8x2
// SM90: nvvm.ldmatrix
// SM90-COUNT-2: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// SM90-NOT: nvvm.mma.sync
// SM90: llvm.return
//
// sm_80 has no f8 conversion instruction: integer operations per element
// (passes/FloatConversions.h): sign to bit 15; normal values
// ((bits & 0x7F) << 7) + 0x2000; subnormals from byte (bits & 7) of
// 0x232221201E1C1800 (= 2531622362363467776) shifted to the upper byte;
// 0x7F (NaN) to 0x7E00 (32256). Same mma.sync after.
// SM80-LABEL: llvm.func @dot_e4m3
// SM80-DAG: %[[NAN:.*]] = llvm.mlir.constant(32256 : i16) : i16
// SM80-DAG: %[[TABLE:.*]] = llvm.mlir.constant(2531622362363467776 : i64) : i64
// SM80-DAG: %[[BIAS:.*]] = llvm.mlir.constant(8192 : i16) : i16
// SM80-DAG: %[[C127:.*]] = llvm.mlir.constant(127 : i16) : i16
// SM80-DAG: %[[C8:.*]] = llvm.mlir.constant(8 : i16) : i16
// SM80-DAG: %[[SIGNBIT:.*]] = llvm.mlir.constant(-32768 : i16) : i16
// SM80-NOT: nvvm.convert.f8x2
// SM80: %[[X:.*]] = llvm.zext %{{.*}} : i8 to i16
// SM80-NEXT: %[[XS:.*]] = llvm.shl %[[X]], %[[C8]] : i16
// SM80-NEXT: %[[SIGN:.*]] = llvm.and %[[XS]], %[[SIGNBIT]] : i16
// SM80-NEXT: %[[EM:.*]] = llvm.and %[[X]], %[[C127]] : i16
// SM80-NEXT: %[[EMS:.*]] = llvm.shl %[[EM]], %{{.*}} : i16
// SM80-NEXT: %[[NORMAL:.*]] = llvm.add %[[EMS]], %[[BIAS]] : i16
// SM80: %[[BYTES:.*]] = llvm.lshr %[[TABLE]], %{{.*}} : i64
// SM80: %[[SUB:.*]] = llvm.shl %{{.*}}, %[[C8]] : i16
// SM80-NEXT: %[[ISSUB:.*]] = llvm.icmp "ult" %[[EM]], %[[C8]] : i16
// SM80-NEXT: %[[ISNAN:.*]] = llvm.icmp "eq" %[[EM]], %[[C127]] : i16
// SM80-NEXT: %[[M1:.*]] = llvm.select %[[ISSUB]], %[[SUB]], %[[NORMAL]] : i1, i16
// SM80-NEXT: %[[M2:.*]] = llvm.select %[[ISNAN]], %[[NAN]], %[[M1]] : i1, i16
// SM80-NEXT: %[[H:.*]] = llvm.or %[[SIGN]], %[[M2]] : i16
// SM80-NEXT: llvm.bitcast %[[H]] : i16 to f16
// SM80-COUNT-2: nvvm.mma.sync {{.*}} shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32)
// SM80-NOT: nvvm.mma.sync
// SM80: llvm.return
//
// gfx942 has only FNUZ f8 formats in hardware: the same integer
// conversion, then MFMA f16 (16x16 tile on one 64-lane wavefront: one
// v_mfma_f32_16x16x16f16).
// AMD-LABEL: llvm.func @dot_e4m3
// AMD: llvm.mlir.constant(2531622362363467776 : i64) : i64
// AMD-NOT: nvvm.
// AMD: rocdl.mfma.f32.16x16x16f16 {{.*}} : (vector<4xf16>, vector<4xf16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
// AMD-NOT: rocdl.mfma
// AMD: llvm.return
tt.func public @dot_e4m3(%pa: !tt.ptr<f8E4M3FN> {tt.divisibility = 16 : i32}, %pb: !tt.ptr<f8E4M3FN> {tt.divisibility = 16 : i32}, %pc: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %row = tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %c16 = arith.constant dense<16> : tensor<16x1xi32>
  %rowoff = arith.muli %row, %c16 : tensor<16x1xi32>
  %col = tt.expand_dims %r {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %rb = tt.broadcast %rowoff : tensor<16x1xi32> -> tensor<16x16xi32>
  %cb = tt.broadcast %col : tensor<1x16xi32> -> tensor<16x16xi32>
  %off = arith.addi %rb, %cb : tensor<16x16xi32>
  %sa = tt.splat %pa : !tt.ptr<f8E4M3FN> -> tensor<16x16x!tt.ptr<f8E4M3FN>>
  %aa = tt.addptr %sa, %off : tensor<16x16x!tt.ptr<f8E4M3FN>>, tensor<16x16xi32>
  %a = tt.load %aa : tensor<16x16x!tt.ptr<f8E4M3FN>>
  %sb = tt.splat %pb : !tt.ptr<f8E4M3FN> -> tensor<16x16x!tt.ptr<f8E4M3FN>>
  %ab = tt.addptr %sb, %off : tensor<16x16x!tt.ptr<f8E4M3FN>>, tensor<16x16xi32>
  %b = tt.load %ab : tensor<16x16x!tt.ptr<f8E4M3FN>>
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  %d = tt.dot %a, %b, %z : tensor<16x16xf8E4M3FN> * tensor<16x16xf8E4M3FN> -> tensor<16x16xf32>
  %sc = tt.splat %pc : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %ac = tt.addptr %sc, %off : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  tt.store %ac, %d : tensor<16x16x!tt.ptr<f32>>
  tt.return
}

// -----

// f8E5M2 is the upper byte of an f16: cvt.rn.f16x2.e5m2x2 on sm_90a, a
// shift by 8 elsewhere.
// SM90-LABEL: llvm.func @dot_e5m2
// SM90-COUNT-8: nvvm.convert.f8x2.to.f16x2 %{{.*}} : vector<2xi8>(f8E5M2) -> vector<2xf16>
// SM90-COUNT-2: nvvm.mma.sync {{.*}} shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32)
// SM80-LABEL: llvm.func @dot_e5m2
// SM80-NOT: 2531622362363467776
// SM80: %[[X:.*]] = llvm.zext %{{.*}} : i8 to i16
// SM80-NEXT: %[[H:.*]] = llvm.shl %[[X]], %{{.*}} : i16
// SM80-NEXT: llvm.bitcast %[[H]] : i16 to f16
// SM80-COUNT-2: nvvm.mma.sync {{.*}} shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32)
// AMD-LABEL: llvm.func @dot_e5m2
// AMD: rocdl.mfma.f32.16x16x16f16
tt.func public @dot_e5m2(%pa: !tt.ptr<f8E5M2> {tt.divisibility = 16 : i32}, %pb: !tt.ptr<f8E5M2> {tt.divisibility = 16 : i32}, %pc: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %row = tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %c16 = arith.constant dense<16> : tensor<16x1xi32>
  %rowoff = arith.muli %row, %c16 : tensor<16x1xi32>
  %col = tt.expand_dims %r {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %rb = tt.broadcast %rowoff : tensor<16x1xi32> -> tensor<16x16xi32>
  %cb = tt.broadcast %col : tensor<1x16xi32> -> tensor<16x16xi32>
  %off = arith.addi %rb, %cb : tensor<16x16xi32>
  %sa = tt.splat %pa : !tt.ptr<f8E5M2> -> tensor<16x16x!tt.ptr<f8E5M2>>
  %aa = tt.addptr %sa, %off : tensor<16x16x!tt.ptr<f8E5M2>>, tensor<16x16xi32>
  %a = tt.load %aa : tensor<16x16x!tt.ptr<f8E5M2>>
  %sb = tt.splat %pb : !tt.ptr<f8E5M2> -> tensor<16x16x!tt.ptr<f8E5M2>>
  %ab = tt.addptr %sb, %off : tensor<16x16x!tt.ptr<f8E5M2>>, tensor<16x16xi32>
  %b = tt.load %ab : tensor<16x16x!tt.ptr<f8E5M2>>
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  %d = tt.dot %a, %b, %z : tensor<16x16xf8E5M2> * tensor<16x16xf8E5M2> -> tensor<16x16xf32>
  %sc = tt.splat %pc : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %ac = tt.addptr %sc, %off : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  tt.store %ac, %d : tensor<16x16x!tt.ptr<f32>>
  tt.return
}

// -----

// A K loop on f8 operands with the accumulator carried by the loop (what
// kgpu-pipeline-dot-loops pipelines for f16) is not software-pipelined:
// the upcast sits between each load and the dot, so no cp.async; the
// tiles go through shared memory once per iteration, then mma.sync.
// SM90-LABEL: llvm.func @k_loop_e4m3
// SM90-NOT: nvvm.cp.async
// SM90: nvvm.convert.f8x2.to.f16x2
// SM90: nvvm.mma.sync
// SM90-NOT: nvvm.cp.async
// SM90: llvm.return
tt.func public @k_loop_e4m3(%pa: !tt.ptr<f8E4M3FN> {tt.divisibility = 16 : i32}, %pb: !tt.ptr<f8E4M3FN> {tt.divisibility = 16 : i32}, %pc: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %row = tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %c16 = arith.constant dense<16> : tensor<16x1xi32>
  %rowoff = arith.muli %row, %c16 : tensor<16x1xi32>
  %col = tt.expand_dims %r {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %rb = tt.broadcast %rowoff : tensor<16x1xi32> -> tensor<16x16xi32>
  %cb = tt.broadcast %col : tensor<1x16xi32> -> tensor<16x16xi32>
  %off = arith.addi %rb, %cb : tensor<16x16xi32>
  %sa = tt.splat %pa : !tt.ptr<f8E4M3FN> -> tensor<16x16x!tt.ptr<f8E4M3FN>>
  %aa = tt.addptr %sa, %off : tensor<16x16x!tt.ptr<f8E4M3FN>>, tensor<16x16xi32>
  %sb = tt.splat %pb : !tt.ptr<f8E4M3FN> -> tensor<16x16x!tt.ptr<f8E4M3FN>>
  %ab = tt.addptr %sb, %off : tensor<16x16x!tt.ptr<f8E4M3FN>>, tensor<16x16xi32>
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  %acc = scf.for %k = %c0 to %n step %c1 iter_args(%x = %z) -> (tensor<16x16xf32>) : i32 {
    %a = tt.load %aa : tensor<16x16x!tt.ptr<f8E4M3FN>>
    %b = tt.load %ab : tensor<16x16x!tt.ptr<f8E4M3FN>>
    %d = tt.dot %a, %b, %x : tensor<16x16xf8E4M3FN> * tensor<16x16xf8E4M3FN> -> tensor<16x16xf32>
    scf.yield %d : tensor<16x16xf32>
  }
  %sc = tt.splat %pc : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %ac = tt.addptr %sc, %off : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  tt.store %ac, %acc : tensor<16x16x!tt.ptr<f32>>
  tt.return
}
