// RUN: kiln-opt %s -tt-lower-tensor-descriptors | FileCheck %s --enable-var-scope
// RUN: kiln-opt %s -tt-lower-tensor-descriptors | FileCheck %s --check-prefix=GONE

// No descriptor op or type is left anywhere.
// GONE-NOT: tensordesc
// GONE-NOT: tt.descriptor_
// GONE-NOT: tt.make_tensor_descriptor

// A 2-D load with constant shape [128, 256] and strides [256, 1]: the
// offsets' scalar part (i * 256 + j, i64) moves the base; the block's own
// offsets (row * 256 + column) fit in i32; each dimension is bounds-checked
// by one unsigned compare against its size; out-of-bounds elements read 0;
// the cache modifier carries over.
// CHECK-LABEL: tt.func public @load_2d(
// CHECK-SAME:      [[BASE:%[^:]+]]: !tt.ptr<f16> {tt.divisibility = 16 : i32}, [[I:%[^:]+]]: i32, [[J:%[^:]+]]: i32)
// CHECK-DAG:     [[C128:%.+]] = arith.constant 128 : i32
// CHECK-DAG:     [[C256:%.+]] = arith.constant 256 : i32
// CHECK-DAG:     [[C256L:%.+]] = arith.constant 256 : i64
// CHECK:         [[IL:%.+]] = arith.extsi [[I]] : i32 to i64
// CHECK-NEXT:    [[IS:%.+]] = arith.muli [[IL]], [[C256L]] : i64
// CHECK-NEXT:    [[JL:%.+]] = arith.extsi [[J]] : i32 to i64
// CHECK-NEXT:    [[OFF:%.+]] = arith.addi [[IS]], [[JL]] : i64
// CHECK-NEXT:    [[P:%.+]] = tt.addptr [[BASE]], [[OFF]] : !tt.ptr<f16>, i64
// CHECK-NEXT:    [[ROWS:%.+]] = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
// CHECK-NEXT:    [[ROWS2:%.+]] = tt.expand_dims [[ROWS]] {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
// CHECK-NEXT:    [[IV:%.+]] = tt.splat [[I]] : i32 -> tensor<64x1xi32>
// CHECK-NEXT:    [[GROWS:%.+]] = arith.addi [[IV]], [[ROWS2]] : tensor<64x1xi32>
// CHECK-NEXT:    [[M:%.+]] = tt.splat [[C128]] : i32 -> tensor<64x1xi32>
// CHECK-NEXT:    [[INM:%.+]] = arith.cmpi ult, [[GROWS]], [[M]] : tensor<64x1xi32>
// CHECK-NEXT:    [[INMB:%.+]] = tt.broadcast [[INM]] : tensor<64x1xi1> -> tensor<64x32xi1>
// CHECK-NEXT:    [[S0:%.+]] = arith.constant 256 : i32
// CHECK-NEXT:    [[S0V:%.+]] = tt.splat [[S0]] : i32 -> tensor<64x1xi32>
// CHECK-NEXT:    [[ROWOFF:%.+]] = arith.muli [[ROWS2]], [[S0V]] : tensor<64x1xi32>
// CHECK-NEXT:    [[ROWOFFB:%.+]] = tt.broadcast [[ROWOFF]] : tensor<64x1xi32> -> tensor<64x32xi32>
// CHECK-NEXT:    [[COLS:%.+]] = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
// CHECK-NEXT:    [[COLS2:%.+]] = tt.expand_dims [[COLS]] {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
// CHECK-NEXT:    [[JV:%.+]] = tt.splat [[J]] : i32 -> tensor<1x32xi32>
// CHECK-NEXT:    [[GCOLS:%.+]] = arith.addi [[JV]], [[COLS2]] : tensor<1x32xi32>
// CHECK-NEXT:    [[N:%.+]] = tt.splat [[C256]] : i32 -> tensor<1x32xi32>
// CHECK-NEXT:    [[INN:%.+]] = arith.cmpi ult, [[GCOLS]], [[N]] : tensor<1x32xi32>
// CHECK-NEXT:    [[INNB:%.+]] = tt.broadcast [[INN]] : tensor<1x32xi1> -> tensor<64x32xi1>
// CHECK-NEXT:    [[MASK:%.+]] = arith.andi [[INMB]], [[INNB]] : tensor<64x32xi1>
// CHECK-NEXT:    [[COLOFFB:%.+]] = tt.broadcast [[COLS2]] : tensor<1x32xi32> -> tensor<64x32xi32>
// CHECK-NEXT:    [[OFFS:%.+]] = arith.addi [[ROWOFFB]], [[COLOFFB]] : tensor<64x32xi32>
// CHECK-NEXT:    [[PS:%.+]] = tt.splat [[P]] : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
// CHECK-NEXT:    [[PTRS:%.+]] = tt.addptr [[PS]], [[OFFS]] : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
// CHECK-NEXT:    [[ZERO:%.+]] = arith.constant dense<0.000000e+00> : tensor<64x32xf16>
// CHECK-NEXT:    [[V:%.+]] = tt.load [[PTRS]], [[MASK]], [[ZERO]] cacheModifier = cg : tensor<64x32x!tt.ptr<f16>>
// CHECK-NEXT:    tt.return [[V]] : tensor<64x32xf16>
tt.func public @load_2d(%base: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %i: i32, %j: i32) -> tensor<64x32xf16> {
  %c128_i32 = arith.constant 128 : i32
  %c256_i32 = arith.constant 256 : i32
  %c256_i64 = arith.constant 256 : i64
  %c1_i64 = arith.constant 1 : i64
  %d = tt.make_tensor_descriptor %base, [%c128_i32, %c256_i32], [%c256_i64, %c1_i64] : <f16>, <tensor<64x32xf16>>
  %v = tt.descriptor_load %d[%i, %j] cacheModifier = cg : !tt.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16>
  tt.return %v : tensor<64x32xf16>
}

// A 1-D load with a shape only known at run time: stride 1 adds no
// multiply anywhere; the block's offsets are the range itself.
// CHECK-LABEL: tt.func public @load_1d(
// CHECK-SAME:      [[BASE:%[^:]+]]: !tt.ptr<f32>, [[N:%[^:]+]]: i32, [[I:%[^:]+]]: i32)
// CHECK:         [[IL:%.+]] = arith.extsi [[I]] : i32 to i64
// CHECK-NEXT:    [[P:%.+]] = tt.addptr [[BASE]], [[IL]] : !tt.ptr<f32>, i64
// CHECK-NEXT:    [[R:%.+]] = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
// CHECK-NEXT:    [[IV:%.+]] = tt.splat [[I]] : i32 -> tensor<128xi32>
// CHECK-NEXT:    [[G:%.+]] = arith.addi [[IV]], [[R]] : tensor<128xi32>
// CHECK-NEXT:    [[NV:%.+]] = tt.splat [[N]] : i32 -> tensor<128xi32>
// CHECK-NEXT:    [[MASK:%.+]] = arith.cmpi ult, [[G]], [[NV]] : tensor<128xi32>
// CHECK-NEXT:    [[PS:%.+]] = tt.splat [[P]] : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
// CHECK-NEXT:    [[PTRS:%.+]] = tt.addptr [[PS]], [[R]] : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
// CHECK-NEXT:    [[ZERO:%.+]] = arith.constant dense<0.000000e+00> : tensor<128xf32>
// CHECK-NEXT:    [[V:%.+]] = tt.load [[PTRS]], [[MASK]], [[ZERO]] : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT:    tt.return [[V]]
tt.func public @load_1d(%base: !tt.ptr<f32>, %n: i32, %i: i32) -> tensor<128xf32> {
  %c1_i64 = arith.constant 1 : i64
  %d = tt.make_tensor_descriptor %base, [%n], [%c1_i64] : <f32>, <tensor<128xf32>>
  %v = tt.descriptor_load %d[%i] : !tt.tensordesc<tensor<128xf32>> -> tensor<128xf32>
  tt.return %v : tensor<128xf32>
}

// A 2-D store with run-time shape and row stride: the block's offsets are
// i64 (row * stride may pass 2^31), the store is masked by both bounds.
// CHECK-LABEL: tt.func public @store_2d(
// CHECK-SAME:      [[BASE:%[^:]+]]: !tt.ptr<bf16>, [[M:%[^:]+]]: i32, [[N:%[^:]+]]: i32, [[STRIDE:%[^:]+]]: i64, [[I:%[^:]+]]: i32, [[J:%[^:]+]]: i32, [[VAL:%[^:]+]]: tensor<32x64xbf16>)
// CHECK:         [[IL:%.+]] = arith.extsi [[I]] : i32 to i64
// CHECK-NEXT:    [[IS:%.+]] = arith.muli [[IL]], [[STRIDE]] : i64
// CHECK-NEXT:    [[JL:%.+]] = arith.extsi [[J]] : i32 to i64
// CHECK-NEXT:    [[OFF:%.+]] = arith.addi [[IS]], [[JL]] : i64
// CHECK-NEXT:    [[P:%.+]] = tt.addptr [[BASE]], [[OFF]] : !tt.ptr<bf16>, i64
// CHECK-NEXT:    [[ROWS:%.+]] = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
// CHECK-NEXT:    [[ROWS2:%.+]] = tt.expand_dims [[ROWS]] {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
// CHECK-NEXT:    [[IV:%.+]] = tt.splat [[I]] : i32 -> tensor<32x1xi32>
// CHECK-NEXT:    [[GROWS:%.+]] = arith.addi [[IV]], [[ROWS2]] : tensor<32x1xi32>
// CHECK-NEXT:    [[MV:%.+]] = tt.splat [[M]] : i32 -> tensor<32x1xi32>
// CHECK-NEXT:    [[INM:%.+]] = arith.cmpi ult, [[GROWS]], [[MV]] : tensor<32x1xi32>
// CHECK-NEXT:    [[INMB:%.+]] = tt.broadcast [[INM]] : tensor<32x1xi1> -> tensor<32x64xi1>
// CHECK-NEXT:    [[ROWSL:%.+]] = arith.extsi [[ROWS2]] : tensor<32x1xi32> to tensor<32x1xi64>
// CHECK-NEXT:    [[SV:%.+]] = tt.splat [[STRIDE]] : i64 -> tensor<32x1xi64>
// CHECK-NEXT:    [[ROWOFF:%.+]] = arith.muli [[ROWSL]], [[SV]] : tensor<32x1xi64>
// CHECK-NEXT:    [[ROWOFFB:%.+]] = tt.broadcast [[ROWOFF]] : tensor<32x1xi64> -> tensor<32x64xi64>
// CHECK-NEXT:    [[COLS:%.+]] = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
// CHECK-NEXT:    [[COLS2:%.+]] = tt.expand_dims [[COLS]] {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
// CHECK-NEXT:    [[JV:%.+]] = tt.splat [[J]] : i32 -> tensor<1x64xi32>
// CHECK-NEXT:    [[GCOLS:%.+]] = arith.addi [[JV]], [[COLS2]] : tensor<1x64xi32>
// CHECK-NEXT:    [[NV:%.+]] = tt.splat [[N]] : i32 -> tensor<1x64xi32>
// CHECK-NEXT:    [[INN:%.+]] = arith.cmpi ult, [[GCOLS]], [[NV]] : tensor<1x64xi32>
// CHECK-NEXT:    [[INNB:%.+]] = tt.broadcast [[INN]] : tensor<1x64xi1> -> tensor<32x64xi1>
// CHECK-NEXT:    [[MASK:%.+]] = arith.andi [[INMB]], [[INNB]] : tensor<32x64xi1>
// CHECK-NEXT:    [[COLSL:%.+]] = arith.extsi [[COLS2]] : tensor<1x64xi32> to tensor<1x64xi64>
// CHECK-NEXT:    [[COLOFFB:%.+]] = tt.broadcast [[COLSL]] : tensor<1x64xi64> -> tensor<32x64xi64>
// CHECK-NEXT:    [[OFFS:%.+]] = arith.addi [[ROWOFFB]], [[COLOFFB]] : tensor<32x64xi64>
// CHECK-NEXT:    [[PS:%.+]] = tt.splat [[P]] : !tt.ptr<bf16> -> tensor<32x64x!tt.ptr<bf16>>
// CHECK-NEXT:    [[PTRS:%.+]] = tt.addptr [[PS]], [[OFFS]] : tensor<32x64x!tt.ptr<bf16>>, tensor<32x64xi64>
// CHECK-NEXT:    tt.store [[PTRS]], [[VAL]], [[MASK]] : tensor<32x64x!tt.ptr<bf16>>
// CHECK-NEXT:    tt.return
tt.func public @store_2d(%base: !tt.ptr<bf16>, %m: i32, %n: i32, %stride: i64, %i: i32, %j: i32, %v: tensor<32x64xbf16>) {
  %c1_i64 = arith.constant 1 : i64
  %d = tt.make_tensor_descriptor %base, [%m, %n], [%stride, %c1_i64] : <bf16>, <tensor<32x64xbf16>>
  tt.descriptor_store %d[%i, %j], %v : !tt.tensordesc<tensor<32x64xbf16>>, tensor<32x64xbf16>
  tt.return
}

// A 1x32 block loaded as tensor<32xf32> (the leading unit dimension
// dropped): its row is checked by one scalar compare splat over the block;
// padding = nan makes out-of-bounds elements NaN.
// CHECK-LABEL: tt.func public @load_unit_dim(
// CHECK-SAME:      [[BASE:%[^:]+]]: !tt.ptr<f32>, [[M:%[^:]+]]: i32, [[N:%[^:]+]]: i32, [[STRIDE:%[^:]+]]: i64, [[I:%[^:]+]]: i32, [[J:%[^:]+]]: i32)
// CHECK:         [[IS:%.+]] = arith.muli {{%.+}}, [[STRIDE]] : i64
// CHECK:         [[P:%.+]] = tt.addptr [[BASE]], {{%.+}} : !tt.ptr<f32>, i64
// CHECK-NEXT:    [[INROW:%.+]] = arith.cmpi ult, [[I]], [[M]] : i32
// CHECK-NEXT:    [[R:%.+]] = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
// CHECK-NEXT:    [[JV:%.+]] = tt.splat [[J]] : i32 -> tensor<32xi32>
// CHECK-NEXT:    [[G:%.+]] = arith.addi [[JV]], [[R]] : tensor<32xi32>
// CHECK-NEXT:    [[NV:%.+]] = tt.splat [[N]] : i32 -> tensor<32xi32>
// CHECK-NEXT:    [[INN:%.+]] = arith.cmpi ult, [[G]], [[NV]] : tensor<32xi32>
// CHECK-NEXT:    [[INROWV:%.+]] = tt.splat [[INROW]] : i1 -> tensor<32xi1>
// CHECK-NEXT:    [[MASK:%.+]] = arith.andi [[INN]], [[INROWV]] : tensor<32xi1>
// CHECK-NEXT:    [[PS:%.+]] = tt.splat [[P]] : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>>
// CHECK-NEXT:    [[PTRS:%.+]] = tt.addptr [[PS]], [[R]] : tensor<32x!tt.ptr<f32>>, tensor<32xi32>
// CHECK-NEXT:    [[NAN:%.+]] = arith.constant dense<0x7FC00000> : tensor<32xf32>
// CHECK-NEXT:    {{%.+}} = tt.load [[PTRS]], [[MASK]], [[NAN]] : tensor<32x!tt.ptr<f32>>
tt.func public @load_unit_dim(%base: !tt.ptr<f32>, %m: i32, %n: i32, %stride: i64, %i: i32, %j: i32) -> tensor<32xf32> {
  %c1_i64 = arith.constant 1 : i64
  %d = tt.make_tensor_descriptor %base, [%m, %n], [%stride, %c1_i64] {padding = 2 : i32} : <f32>, <tensor<1x32xf32>>
  %v = tt.descriptor_load %d[%i, %j] : !tt.tensordesc<tensor<1x32xf32>> -> tensor<32xf32>
  tt.return %v : tensor<32xf32>
}

// Gather and scatter: rows x[r] (checked and scaled by the row stride in
// i64, no scalar row part), columns y + c.
// CHECK-LABEL: tt.func public @gather_scatter(
// CHECK-SAME:      [[BASE:%[^:]+]]: !tt.ptr<f16>, [[M:%[^:]+]]: i32, [[N:%[^:]+]]: i32, [[STRIDE:%[^:]+]]: i64, [[X:%[^:]+]]: tensor<8xi32>, [[Y:%[^:]+]]: i32, [[VAL:%[^:]+]]: tensor<8x32xf16>)
// CHECK:         [[YL:%.+]] = arith.extsi [[Y]] : i32 to i64
// CHECK-NEXT:    [[P:%.+]] = tt.addptr [[BASE]], [[YL]] : !tt.ptr<f16>, i64
// CHECK-NEXT:    [[X2:%.+]] = tt.expand_dims [[X]] {axis = 1 : i32} : tensor<8xi32> -> tensor<8x1xi32>
// CHECK-NEXT:    [[MV:%.+]] = tt.splat [[M]] : i32 -> tensor<8x1xi32>
// CHECK-NEXT:    [[INM:%.+]] = arith.cmpi ult, [[X2]], [[MV]] : tensor<8x1xi32>
// CHECK:         [[XL:%.+]] = arith.extsi [[X2]] : tensor<8x1xi32> to tensor<8x1xi64>
// CHECK-NEXT:    [[SV:%.+]] = tt.splat [[STRIDE]] : i64 -> tensor<8x1xi64>
// CHECK-NEXT:    {{%.+}} = arith.muli [[XL]], [[SV]] : tensor<8x1xi64>
// CHECK:         [[GPTRS:%.+]] = tt.addptr {{%.+}}, {{%.+}} : tensor<8x32x!tt.ptr<f16>>, tensor<8x32xi64>
// CHECK-NEXT:    [[ZERO:%.+]] = arith.constant dense<0.000000e+00> : tensor<8x32xf16>
// CHECK-NEXT:    [[G:%.+]] = tt.load [[GPTRS]], {{%.+}}, [[ZERO]] : tensor<8x32x!tt.ptr<f16>>
// CHECK:         [[SPTRS:%.+]] = tt.addptr {{%.+}}, {{%.+}} : tensor<8x32x!tt.ptr<f16>>, tensor<8x32xi64>
// CHECK-NEXT:    tt.store [[SPTRS]], [[VAL]], {{%.+}} : tensor<8x32x!tt.ptr<f16>>
// CHECK-NEXT:    tt.return [[G]]
tt.func public @gather_scatter(%base: !tt.ptr<f16>, %m: i32, %n: i32, %stride: i64, %x: tensor<8xi32>, %y: i32, %g: tensor<8x32xf16>) -> tensor<8x32xf16> {
  %c1_i64 = arith.constant 1 : i64
  %d = tt.make_tensor_descriptor %base, [%m, %n], [%stride, %c1_i64] : <f16>, <tensor<1x32xf16>>
  %v = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<1x32xf16>>, tensor<8xi32>, i32) -> tensor<8x32xf16>
  tt.descriptor_scatter %d[%x, %y], %g : !tt.tensordesc<tensor<1x32xf16>>, tensor<8xi32>, i32, tensor<8x32xf16>
  tt.return %v : tensor<8x32xf16>
}

// A base pointing to i16 under a bf16 block is cast once to the block's
// element type; out-of-bounds integer elements read 0.
// CHECK-LABEL: tt.func public @cast_base(
// CHECK-SAME:      [[BASE:%[^:]+]]: !tt.ptr<i16>, [[I:%[^:]+]]: i32)
// CHECK:         [[CAST:%.+]] = tt.bitcast [[BASE]] : !tt.ptr<i16> -> !tt.ptr<bf16>
// CHECK-NEXT:    [[IL:%.+]] = arith.extsi [[I]] : i32 to i64
// CHECK-NEXT:    {{%.+}} = tt.addptr [[CAST]], [[IL]] : !tt.ptr<bf16>, i64
// CHECK:         tt.load {{.*}} : tensor<64x!tt.ptr<bf16>>
tt.func public @cast_base(%base: !tt.ptr<i16>, %i: i32) -> tensor<64xbf16> {
  %c1_i64 = arith.constant 1 : i64
  %c100 = arith.constant 100 : i32
  %d = tt.make_tensor_descriptor %base, [%c100], [%c1_i64] : <i16>, <tensor<64xbf16>>
  %v = tt.descriptor_load %d[%i] : !tt.tensordesc<tensor<64xbf16>> -> tensor<64xbf16>
  tt.return %v : tensor<64xbf16>
}

// Constant strides whose block extent passes 2^31 - 1 elements (3 rows of
// 2^30): i64 block offsets; integer padding is 0.
// CHECK-LABEL: tt.func public @wide_extent(
// CHECK:         [[BIG:%.+]] = arith.constant 1073741824 : i64
// CHECK:         [[ROWSL:%.+]] = arith.extsi {{%.+}} : tensor<4x1xi32> to tensor<4x1xi64>
// CHECK-NEXT:    [[SV:%.+]] = tt.splat [[BIG]] : i64 -> tensor<4x1xi64>
// CHECK-NEXT:    {{%.+}} = arith.muli [[ROWSL]], [[SV]] : tensor<4x1xi64>
// CHECK:         tt.addptr {{%.+}}, {{%.+}} : tensor<4x16x!tt.ptr<i8>>, tensor<4x16xi64>
// CHECK-NEXT:    [[ZERO:%.+]] = arith.constant dense<0> : tensor<4x16xi8>
// CHECK-NEXT:    tt.load {{%.+}}, {{%.+}}, [[ZERO]] : tensor<4x16x!tt.ptr<i8>>
tt.func public @wide_extent(%base: !tt.ptr<i8>, %i: i32, %j: i32) -> tensor<4x16xi8> {
  %c1_i64 = arith.constant 1 : i64
  %big = arith.constant 1073741824 : i64
  %c8 = arith.constant 8 : i32
  %d = tt.make_tensor_descriptor %base, [%c8, %c8], [%big, %c1_i64] : <i8>, <tensor<4x16xi8>>
  %v = tt.descriptor_load %d[%i, %j] : !tt.tensordesc<tensor<4x16xi8>> -> tensor<4x16xi8>
  tt.return %v : tensor<4x16xi8>
}

// The corpus kernel's flow: descriptors made before a loop, a load and a
// store inside it at the induction variable. The rewrite happens where the
// accesses are; the descriptors go.
// CHECK-LABEL: tt.func public @in_loop(
// CHECK-SAME:      [[BASE:%[^:]+]]: !tt.ptr<f16> {tt.divisibility = 16 : i32}, [[OUT:%[^:]+]]: !tt.ptr<f16>, [[N:%[^:]+]]: i32)
// CHECK-NOT:     tt.addptr
// CHECK:         scf.for [[K:%.+]] = {{%.+}} to [[N]] step {{%.+}} : i32 {
// CHECK-NEXT:      [[KL:%.+]] = arith.extsi [[K]] : i32 to i64
// CHECK-NEXT:      [[P:%.+]] = tt.addptr [[BASE]], [[KL]] : !tt.ptr<f16>, i64
// CHECK:           [[V:%.+]] = tt.load {{%.+}}, {{%.+}}, {{%.+}} : tensor<64x!tt.ptr<f16>>
// CHECK:           [[Q:%.+]] = tt.addptr [[OUT]], {{%.+}} : !tt.ptr<f16>, i64
// CHECK:           tt.store {{%.+}}, [[V]], {{%.+}} : tensor<64x!tt.ptr<f16>>
// CHECK-NEXT:    }
tt.func public @in_loop(%base: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f16>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %c1_i64 = arith.constant 1 : i64
  %d = tt.make_tensor_descriptor %base, [%n], [%c1_i64] : <f16>, <tensor<64xf16>>
  %o = tt.make_tensor_descriptor %out, [%n], [%c1_i64] : <f16>, <tensor<64xf16>>
  scf.for %k = %c0 to %n step %c64 : i32 {
    %v = tt.descriptor_load %d[%k] : !tt.tensordesc<tensor<64xf16>> -> tensor<64xf16>
    tt.descriptor_store %o[%k], %v : !tt.tensordesc<tensor<64xf16>>, tensor<64xf16>
  }
  tt.return
}
