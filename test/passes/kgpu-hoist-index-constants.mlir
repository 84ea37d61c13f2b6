// RUN: kiln-opt %s -kgpu-hoist-index-constants | FileCheck %s

// Two elements' indices as the SIMT lowering writes them: their row
// (thread base + 8 or + 16) times the row stride plus their column (base +
// 16 or + 0). The constants move out: both become (row * 2048 + col) plus
// a constant, 8 * 2048 + 16 = 16400 and 16 * 2048 = 32768. The shared
// part is then the same expression twice; the CSE after the pass in the
// pipeline keeps one.
// CHECK-LABEL: llvm.func @two_elements
// CHECK: %[[C2048:.*]] = llvm.mlir.constant(2048 : i32) : i32
// CHECK: %[[M:.*]] = llvm.mul %arg0, %[[C2048]] : i32
// CHECK: %[[S:.*]] = llvm.add %[[M]], %arg1 : i32
// CHECK: %[[C16400:.*]] = llvm.mlir.constant(16400 : i32) : i32
// CHECK: %[[E0:.*]] = llvm.add %[[S]], %[[C16400]] : i32
// CHECK: %[[M2:.*]] = llvm.mul %arg0, %[[C2048]] : i32
// CHECK: %[[S2:.*]] = llvm.add %[[M2]], %arg1 : i32
// CHECK: %[[C32768:.*]] = llvm.mlir.constant(32768 : i32) : i32
// CHECK: %[[E1:.*]] = llvm.add %[[S2]], %[[C32768]] : i32
// CHECK-NOT: llvm.add
// CHECK: llvm.insertvalue %[[E0]]
// CHECK: llvm.insertvalue %[[E1]]
llvm.func @two_elements(%row: i32, %col: i32) -> !llvm.struct<(i32, i32)> {
  %c8 = llvm.mlir.constant(8 : i32) : i32
  %c16 = llvm.mlir.constant(16 : i32) : i32
  %stride = llvm.mlir.constant(2048 : i32) : i32
  %r0 = llvm.add %row, %c8 : i32
  %m0 = llvm.mul %r0, %stride : i32
  %k0 = llvm.add %col, %c16 : i32
  %e0 = llvm.add %m0, %k0 : i32
  %r1 = llvm.add %row, %c16 : i32
  %m1 = llvm.mul %r1, %stride : i32
  %e1 = llvm.add %m1, %col : i32
  %u = llvm.mlir.undef : !llvm.struct<(i32, i32)>
  %s0 = llvm.insertvalue %e0, %u[0] : !llvm.struct<(i32, i32)>
  %s1 = llvm.insertvalue %e1, %s0[1] : !llvm.struct<(i32, i32)>
  llvm.return %s1 : !llvm.struct<(i32, i32)>
}

// Shifts and subtractions: (x + 3) << 4 -> (x << 4) + 48;
// (x + 5) - y -> (x - y) + 5; x - (y + 2) -> (x - y) + -2 (i64 here).
// Overflow flags of the rewritten ops are dropped (the identities hold in
// wrap-around arithmetic; the flags would not).
// CHECK-LABEL: llvm.func @shl_sub
// CHECK: %[[SH:.*]] = llvm.shl %arg0, %{{.*}} : i64
// CHECK: llvm.add %[[SH]], %{{.*}} : i64
// CHECK: %[[D1:.*]] = llvm.sub %arg0, %arg1 : i64
// CHECK: llvm.add %[[D1]], %{{.*}} : i64
// CHECK: %[[D2:.*]] = llvm.sub %arg0, %arg1 : i64
// CHECK: llvm.add %[[D2]], %{{.*}} : i64
// CHECK-NOT: overflow
// CHECK: llvm.return
llvm.func @shl_sub(%x: i64, %y: i64) -> !llvm.struct<(i64, i64, i64)> {
  %c2 = llvm.mlir.constant(2 : i64) : i64
  %c3 = llvm.mlir.constant(3 : i64) : i64
  %c4 = llvm.mlir.constant(4 : i64) : i64
  %c5 = llvm.mlir.constant(5 : i64) : i64
  %a = llvm.add %x, %c3 overflow<nsw> : i64
  %s = llvm.shl %a, %c4 overflow<nsw, nuw> : i64
  %b = llvm.add %x, %c5 : i64
  %d1 = llvm.sub %b, %y overflow<nsw> : i64
  %e = llvm.add %y, %c2 : i64
  %d2 = llvm.sub %x, %e : i64
  %u = llvm.mlir.undef : !llvm.struct<(i64, i64, i64)>
  %t0 = llvm.insertvalue %s, %u[0] : !llvm.struct<(i64, i64, i64)>
  %t1 = llvm.insertvalue %d1, %t0[1] : !llvm.struct<(i64, i64, i64)>
  %t2 = llvm.insertvalue %d2, %t1[2] : !llvm.struct<(i64, i64, i64)>
  llvm.return %t2 : !llvm.struct<(i64, i64, i64)>
}

// Left alone: a shift by the bit width or more (not an identity), a
// remainder, and a floating-point add.
// CHECK-LABEL: llvm.func @left_alone
// CHECK: %[[A:.*]] = llvm.add %arg0, %{{.*}} : i32
// CHECK: llvm.shl %[[A]], %{{.*}} : i32
// CHECK: %[[B:.*]] = llvm.add %arg0, %{{.*}} : i32
// CHECK: llvm.urem %[[B]], %{{.*}} : i32
// CHECK: %[[F:.*]] = llvm.fadd %arg1, %{{.*}} : f32
// CHECK: llvm.fadd %[[F]], %{{.*}} : f32
llvm.func @left_alone(%x: i32, %f: f32) -> !llvm.struct<(i32, i32, f32)> {
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c32 = llvm.mlir.constant(32 : i32) : i32
  %c7 = llvm.mlir.constant(7 : i32) : i32
  %f1 = llvm.mlir.constant(1.0 : f32) : f32
  %f2 = llvm.mlir.constant(2.0 : f32) : f32
  %a = llvm.add %x, %c1 : i32
  %s = llvm.shl %a, %c32 : i32
  %b = llvm.add %x, %c1 : i32
  %r = llvm.urem %b, %c7 : i32
  %g = llvm.fadd %f, %f1 : f32
  %h = llvm.fadd %g, %f2 : f32
  %u = llvm.mlir.undef : !llvm.struct<(i32, i32, f32)>
  %t0 = llvm.insertvalue %s, %u[0] : !llvm.struct<(i32, i32, f32)>
  %t1 = llvm.insertvalue %r, %t0[1] : !llvm.struct<(i32, i32, f32)>
  %t2 = llvm.insertvalue %h, %t1[2] : !llvm.struct<(i32, i32, f32)>
  llvm.return %t2 : !llvm.struct<(i32, i32, f32)>
}

// Constants read at the result type's width: an llvm.mlir.constant may
// carry an attribute of another width, which LLVM IR translation
// sign-extends (or truncates) to the result type, so -1 : i8 as an i32 is
// -1 and (a + -1) + 1000 is a + 999 (not a + 1000 + 255); an index
// attribute on an i128 constant is 5, so (a - 1) + 5 is a + 4.
// CHECK-LABEL: llvm.func @attribute_width
// CHECK: %[[C:.*]] = llvm.mlir.constant(999 : i32) : i32
// CHECK: %[[R:.*]] = llvm.add %arg0, %[[C]] : i32
// CHECK-NOT: llvm.add
// CHECK: llvm.return %[[R]]
llvm.func @attribute_width(%a: i32) -> i32 {
  %c1 = llvm.mlir.constant(-1 : i8) : i32
  %c2 = llvm.mlir.constant(1000 : i32) : i32
  %0 = llvm.add %a, %c1 : i32
  %1 = llvm.add %0, %c2 : i32
  llvm.return %1 : i32
}
// A bool attribute is zero-extended: true as an i32 is 1.
// CHECK-LABEL: llvm.func @attribute_width_bool
// CHECK: %[[C:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[R:.*]] = llvm.add %arg0, %[[C]] : i32
// CHECK: llvm.return %[[R]]
llvm.func @attribute_width_bool(%a: i32) -> i32 {
  %t = llvm.mlir.constant(true) : i32
  %z = llvm.mlir.constant(0 : i32) : i32
  %0 = llvm.add %a, %t : i32
  %1 = llvm.add %0, %z : i32
  llvm.return %1 : i32
}
// CHECK-LABEL: llvm.func @attribute_width_i128
// CHECK: %[[C:.*]] = llvm.mlir.constant(4 : i128) : i128
// CHECK: %[[R:.*]] = llvm.add %arg0, %[[C]] : i128
// CHECK: llvm.return %[[R]]
llvm.func @attribute_width_i128(%a: i128) -> i128 {
  %c1 = llvm.mlir.constant(5 : index) : i128
  %c2 = llvm.mlir.constant(-1 : i128) : i128
  %0 = llvm.add %a, %c2 : i128
  %1 = llvm.add %0, %c1 : i128
  llvm.return %1 : i128
}

// A value used twice at every level (v[i+1] = v[i] + v[i]): each value is
// split once, so 40 levels give 40 adds of the bases plus one constant
// (7 * 2^40 wraps to 0 in i32, so the last value is its base alone);
// rewriting the chain as a tree would take 2^40 steps.
// CHECK-LABEL: llvm.func @reconvergent_chain
// CHECK: %[[B1:.*]] = llvm.add %arg0, %arg0 : i32
// CHECK: %[[B2:.*]] = llvm.add %[[B1]], %[[B1]] : i32
// CHECK-COUNT-38: llvm.add
// CHECK-NOT: llvm.add
// CHECK: llvm.return
llvm.func @reconvergent_chain(%a: i32) -> i32 {
  %c7 = llvm.mlir.constant(7 : i32) : i32
  %v0 = llvm.add %a, %c7 : i32
  %v1 = llvm.add %v0, %v0 : i32
  %v2 = llvm.add %v1, %v1 : i32
  %v3 = llvm.add %v2, %v2 : i32
  %v4 = llvm.add %v3, %v3 : i32
  %v5 = llvm.add %v4, %v4 : i32
  %v6 = llvm.add %v5, %v5 : i32
  %v7 = llvm.add %v6, %v6 : i32
  %v8 = llvm.add %v7, %v7 : i32
  %v9 = llvm.add %v8, %v8 : i32
  %v10 = llvm.add %v9, %v9 : i32
  %v11 = llvm.add %v10, %v10 : i32
  %v12 = llvm.add %v11, %v11 : i32
  %v13 = llvm.add %v12, %v12 : i32
  %v14 = llvm.add %v13, %v13 : i32
  %v15 = llvm.add %v14, %v14 : i32
  %v16 = llvm.add %v15, %v15 : i32
  %v17 = llvm.add %v16, %v16 : i32
  %v18 = llvm.add %v17, %v17 : i32
  %v19 = llvm.add %v18, %v18 : i32
  %v20 = llvm.add %v19, %v19 : i32
  %v21 = llvm.add %v20, %v20 : i32
  %v22 = llvm.add %v21, %v21 : i32
  %v23 = llvm.add %v22, %v22 : i32
  %v24 = llvm.add %v23, %v23 : i32
  %v25 = llvm.add %v24, %v24 : i32
  %v26 = llvm.add %v25, %v25 : i32
  %v27 = llvm.add %v26, %v26 : i32
  %v28 = llvm.add %v27, %v27 : i32
  %v29 = llvm.add %v28, %v28 : i32
  %v30 = llvm.add %v29, %v29 : i32
  %v31 = llvm.add %v30, %v30 : i32
  %v32 = llvm.add %v31, %v31 : i32
  %v33 = llvm.add %v32, %v32 : i32
  %v34 = llvm.add %v33, %v33 : i32
  %v35 = llvm.add %v34, %v34 : i32
  %v36 = llvm.add %v35, %v35 : i32
  %v37 = llvm.add %v36, %v36 : i32
  %v38 = llvm.add %v37, %v37 : i32
  %v39 = llvm.add %v38, %v38 : i32
  %v40 = llvm.add %v39, %v39 : i32
  llvm.return %v40 : i32
}

// A long linear chain ((a + 1) * 3 + 1) * 3 ...: 300 multiplications of
// the base and one add of the constant at the end.
// CHECK-LABEL: llvm.func @linear_chain
// CHECK-COUNT-300: llvm.mul
// CHECK-NOT: llvm.mul
// CHECK: llvm.add
// CHECK-NOT: llvm.add
// CHECK: llvm.return
llvm.func @linear_chain(%a: i32) -> i32 {
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c3 = llvm.mlir.constant(3 : i32) : i32
  %m0 = llvm.add %a, %c1 : i32
  %p1 = llvm.mul %m0, %c3 : i32
  %m1 = llvm.add %p1, %c1 : i32
  %p2 = llvm.mul %m1, %c3 : i32
  %m2 = llvm.add %p2, %c1 : i32
  %p3 = llvm.mul %m2, %c3 : i32
  %m3 = llvm.add %p3, %c1 : i32
  %p4 = llvm.mul %m3, %c3 : i32
  %m4 = llvm.add %p4, %c1 : i32
  %p5 = llvm.mul %m4, %c3 : i32
  %m5 = llvm.add %p5, %c1 : i32
  %p6 = llvm.mul %m5, %c3 : i32
  %m6 = llvm.add %p6, %c1 : i32
  %p7 = llvm.mul %m6, %c3 : i32
  %m7 = llvm.add %p7, %c1 : i32
  %p8 = llvm.mul %m7, %c3 : i32
  %m8 = llvm.add %p8, %c1 : i32
  %p9 = llvm.mul %m8, %c3 : i32
  %m9 = llvm.add %p9, %c1 : i32
  %p10 = llvm.mul %m9, %c3 : i32
  %m10 = llvm.add %p10, %c1 : i32
  %p11 = llvm.mul %m10, %c3 : i32
  %m11 = llvm.add %p11, %c1 : i32
  %p12 = llvm.mul %m11, %c3 : i32
  %m12 = llvm.add %p12, %c1 : i32
  %p13 = llvm.mul %m12, %c3 : i32
  %m13 = llvm.add %p13, %c1 : i32
  %p14 = llvm.mul %m13, %c3 : i32
  %m14 = llvm.add %p14, %c1 : i32
  %p15 = llvm.mul %m14, %c3 : i32
  %m15 = llvm.add %p15, %c1 : i32
  %p16 = llvm.mul %m15, %c3 : i32
  %m16 = llvm.add %p16, %c1 : i32
  %p17 = llvm.mul %m16, %c3 : i32
  %m17 = llvm.add %p17, %c1 : i32
  %p18 = llvm.mul %m17, %c3 : i32
  %m18 = llvm.add %p18, %c1 : i32
  %p19 = llvm.mul %m18, %c3 : i32
  %m19 = llvm.add %p19, %c1 : i32
  %p20 = llvm.mul %m19, %c3 : i32
  %m20 = llvm.add %p20, %c1 : i32
  %p21 = llvm.mul %m20, %c3 : i32
  %m21 = llvm.add %p21, %c1 : i32
  %p22 = llvm.mul %m21, %c3 : i32
  %m22 = llvm.add %p22, %c1 : i32
  %p23 = llvm.mul %m22, %c3 : i32
  %m23 = llvm.add %p23, %c1 : i32
  %p24 = llvm.mul %m23, %c3 : i32
  %m24 = llvm.add %p24, %c1 : i32
  %p25 = llvm.mul %m24, %c3 : i32
  %m25 = llvm.add %p25, %c1 : i32
  %p26 = llvm.mul %m25, %c3 : i32
  %m26 = llvm.add %p26, %c1 : i32
  %p27 = llvm.mul %m26, %c3 : i32
  %m27 = llvm.add %p27, %c1 : i32
  %p28 = llvm.mul %m27, %c3 : i32
  %m28 = llvm.add %p28, %c1 : i32
  %p29 = llvm.mul %m28, %c3 : i32
  %m29 = llvm.add %p29, %c1 : i32
  %p30 = llvm.mul %m29, %c3 : i32
  %m30 = llvm.add %p30, %c1 : i32
  %p31 = llvm.mul %m30, %c3 : i32
  %m31 = llvm.add %p31, %c1 : i32
  %p32 = llvm.mul %m31, %c3 : i32
  %m32 = llvm.add %p32, %c1 : i32
  %p33 = llvm.mul %m32, %c3 : i32
  %m33 = llvm.add %p33, %c1 : i32
  %p34 = llvm.mul %m33, %c3 : i32
  %m34 = llvm.add %p34, %c1 : i32
  %p35 = llvm.mul %m34, %c3 : i32
  %m35 = llvm.add %p35, %c1 : i32
  %p36 = llvm.mul %m35, %c3 : i32
  %m36 = llvm.add %p36, %c1 : i32
  %p37 = llvm.mul %m36, %c3 : i32
  %m37 = llvm.add %p37, %c1 : i32
  %p38 = llvm.mul %m37, %c3 : i32
  %m38 = llvm.add %p38, %c1 : i32
  %p39 = llvm.mul %m38, %c3 : i32
  %m39 = llvm.add %p39, %c1 : i32
  %p40 = llvm.mul %m39, %c3 : i32
  %m40 = llvm.add %p40, %c1 : i32
  %p41 = llvm.mul %m40, %c3 : i32
  %m41 = llvm.add %p41, %c1 : i32
  %p42 = llvm.mul %m41, %c3 : i32
  %m42 = llvm.add %p42, %c1 : i32
  %p43 = llvm.mul %m42, %c3 : i32
  %m43 = llvm.add %p43, %c1 : i32
  %p44 = llvm.mul %m43, %c3 : i32
  %m44 = llvm.add %p44, %c1 : i32
  %p45 = llvm.mul %m44, %c3 : i32
  %m45 = llvm.add %p45, %c1 : i32
  %p46 = llvm.mul %m45, %c3 : i32
  %m46 = llvm.add %p46, %c1 : i32
  %p47 = llvm.mul %m46, %c3 : i32
  %m47 = llvm.add %p47, %c1 : i32
  %p48 = llvm.mul %m47, %c3 : i32
  %m48 = llvm.add %p48, %c1 : i32
  %p49 = llvm.mul %m48, %c3 : i32
  %m49 = llvm.add %p49, %c1 : i32
  %p50 = llvm.mul %m49, %c3 : i32
  %m50 = llvm.add %p50, %c1 : i32
  %p51 = llvm.mul %m50, %c3 : i32
  %m51 = llvm.add %p51, %c1 : i32
  %p52 = llvm.mul %m51, %c3 : i32
  %m52 = llvm.add %p52, %c1 : i32
  %p53 = llvm.mul %m52, %c3 : i32
  %m53 = llvm.add %p53, %c1 : i32
  %p54 = llvm.mul %m53, %c3 : i32
  %m54 = llvm.add %p54, %c1 : i32
  %p55 = llvm.mul %m54, %c3 : i32
  %m55 = llvm.add %p55, %c1 : i32
  %p56 = llvm.mul %m55, %c3 : i32
  %m56 = llvm.add %p56, %c1 : i32
  %p57 = llvm.mul %m56, %c3 : i32
  %m57 = llvm.add %p57, %c1 : i32
  %p58 = llvm.mul %m57, %c3 : i32
  %m58 = llvm.add %p58, %c1 : i32
  %p59 = llvm.mul %m58, %c3 : i32
  %m59 = llvm.add %p59, %c1 : i32
  %p60 = llvm.mul %m59, %c3 : i32
  %m60 = llvm.add %p60, %c1 : i32
  %p61 = llvm.mul %m60, %c3 : i32
  %m61 = llvm.add %p61, %c1 : i32
  %p62 = llvm.mul %m61, %c3 : i32
  %m62 = llvm.add %p62, %c1 : i32
  %p63 = llvm.mul %m62, %c3 : i32
  %m63 = llvm.add %p63, %c1 : i32
  %p64 = llvm.mul %m63, %c3 : i32
  %m64 = llvm.add %p64, %c1 : i32
  %p65 = llvm.mul %m64, %c3 : i32
  %m65 = llvm.add %p65, %c1 : i32
  %p66 = llvm.mul %m65, %c3 : i32
  %m66 = llvm.add %p66, %c1 : i32
  %p67 = llvm.mul %m66, %c3 : i32
  %m67 = llvm.add %p67, %c1 : i32
  %p68 = llvm.mul %m67, %c3 : i32
  %m68 = llvm.add %p68, %c1 : i32
  %p69 = llvm.mul %m68, %c3 : i32
  %m69 = llvm.add %p69, %c1 : i32
  %p70 = llvm.mul %m69, %c3 : i32
  %m70 = llvm.add %p70, %c1 : i32
  %p71 = llvm.mul %m70, %c3 : i32
  %m71 = llvm.add %p71, %c1 : i32
  %p72 = llvm.mul %m71, %c3 : i32
  %m72 = llvm.add %p72, %c1 : i32
  %p73 = llvm.mul %m72, %c3 : i32
  %m73 = llvm.add %p73, %c1 : i32
  %p74 = llvm.mul %m73, %c3 : i32
  %m74 = llvm.add %p74, %c1 : i32
  %p75 = llvm.mul %m74, %c3 : i32
  %m75 = llvm.add %p75, %c1 : i32
  %p76 = llvm.mul %m75, %c3 : i32
  %m76 = llvm.add %p76, %c1 : i32
  %p77 = llvm.mul %m76, %c3 : i32
  %m77 = llvm.add %p77, %c1 : i32
  %p78 = llvm.mul %m77, %c3 : i32
  %m78 = llvm.add %p78, %c1 : i32
  %p79 = llvm.mul %m78, %c3 : i32
  %m79 = llvm.add %p79, %c1 : i32
  %p80 = llvm.mul %m79, %c3 : i32
  %m80 = llvm.add %p80, %c1 : i32
  %p81 = llvm.mul %m80, %c3 : i32
  %m81 = llvm.add %p81, %c1 : i32
  %p82 = llvm.mul %m81, %c3 : i32
  %m82 = llvm.add %p82, %c1 : i32
  %p83 = llvm.mul %m82, %c3 : i32
  %m83 = llvm.add %p83, %c1 : i32
  %p84 = llvm.mul %m83, %c3 : i32
  %m84 = llvm.add %p84, %c1 : i32
  %p85 = llvm.mul %m84, %c3 : i32
  %m85 = llvm.add %p85, %c1 : i32
  %p86 = llvm.mul %m85, %c3 : i32
  %m86 = llvm.add %p86, %c1 : i32
  %p87 = llvm.mul %m86, %c3 : i32
  %m87 = llvm.add %p87, %c1 : i32
  %p88 = llvm.mul %m87, %c3 : i32
  %m88 = llvm.add %p88, %c1 : i32
  %p89 = llvm.mul %m88, %c3 : i32
  %m89 = llvm.add %p89, %c1 : i32
  %p90 = llvm.mul %m89, %c3 : i32
  %m90 = llvm.add %p90, %c1 : i32
  %p91 = llvm.mul %m90, %c3 : i32
  %m91 = llvm.add %p91, %c1 : i32
  %p92 = llvm.mul %m91, %c3 : i32
  %m92 = llvm.add %p92, %c1 : i32
  %p93 = llvm.mul %m92, %c3 : i32
  %m93 = llvm.add %p93, %c1 : i32
  %p94 = llvm.mul %m93, %c3 : i32
  %m94 = llvm.add %p94, %c1 : i32
  %p95 = llvm.mul %m94, %c3 : i32
  %m95 = llvm.add %p95, %c1 : i32
  %p96 = llvm.mul %m95, %c3 : i32
  %m96 = llvm.add %p96, %c1 : i32
  %p97 = llvm.mul %m96, %c3 : i32
  %m97 = llvm.add %p97, %c1 : i32
  %p98 = llvm.mul %m97, %c3 : i32
  %m98 = llvm.add %p98, %c1 : i32
  %p99 = llvm.mul %m98, %c3 : i32
  %m99 = llvm.add %p99, %c1 : i32
  %p100 = llvm.mul %m99, %c3 : i32
  %m100 = llvm.add %p100, %c1 : i32
  %p101 = llvm.mul %m100, %c3 : i32
  %m101 = llvm.add %p101, %c1 : i32
  %p102 = llvm.mul %m101, %c3 : i32
  %m102 = llvm.add %p102, %c1 : i32
  %p103 = llvm.mul %m102, %c3 : i32
  %m103 = llvm.add %p103, %c1 : i32
  %p104 = llvm.mul %m103, %c3 : i32
  %m104 = llvm.add %p104, %c1 : i32
  %p105 = llvm.mul %m104, %c3 : i32
  %m105 = llvm.add %p105, %c1 : i32
  %p106 = llvm.mul %m105, %c3 : i32
  %m106 = llvm.add %p106, %c1 : i32
  %p107 = llvm.mul %m106, %c3 : i32
  %m107 = llvm.add %p107, %c1 : i32
  %p108 = llvm.mul %m107, %c3 : i32
  %m108 = llvm.add %p108, %c1 : i32
  %p109 = llvm.mul %m108, %c3 : i32
  %m109 = llvm.add %p109, %c1 : i32
  %p110 = llvm.mul %m109, %c3 : i32
  %m110 = llvm.add %p110, %c1 : i32
  %p111 = llvm.mul %m110, %c3 : i32
  %m111 = llvm.add %p111, %c1 : i32
  %p112 = llvm.mul %m111, %c3 : i32
  %m112 = llvm.add %p112, %c1 : i32
  %p113 = llvm.mul %m112, %c3 : i32
  %m113 = llvm.add %p113, %c1 : i32
  %p114 = llvm.mul %m113, %c3 : i32
  %m114 = llvm.add %p114, %c1 : i32
  %p115 = llvm.mul %m114, %c3 : i32
  %m115 = llvm.add %p115, %c1 : i32
  %p116 = llvm.mul %m115, %c3 : i32
  %m116 = llvm.add %p116, %c1 : i32
  %p117 = llvm.mul %m116, %c3 : i32
  %m117 = llvm.add %p117, %c1 : i32
  %p118 = llvm.mul %m117, %c3 : i32
  %m118 = llvm.add %p118, %c1 : i32
  %p119 = llvm.mul %m118, %c3 : i32
  %m119 = llvm.add %p119, %c1 : i32
  %p120 = llvm.mul %m119, %c3 : i32
  %m120 = llvm.add %p120, %c1 : i32
  %p121 = llvm.mul %m120, %c3 : i32
  %m121 = llvm.add %p121, %c1 : i32
  %p122 = llvm.mul %m121, %c3 : i32
  %m122 = llvm.add %p122, %c1 : i32
  %p123 = llvm.mul %m122, %c3 : i32
  %m123 = llvm.add %p123, %c1 : i32
  %p124 = llvm.mul %m123, %c3 : i32
  %m124 = llvm.add %p124, %c1 : i32
  %p125 = llvm.mul %m124, %c3 : i32
  %m125 = llvm.add %p125, %c1 : i32
  %p126 = llvm.mul %m125, %c3 : i32
  %m126 = llvm.add %p126, %c1 : i32
  %p127 = llvm.mul %m126, %c3 : i32
  %m127 = llvm.add %p127, %c1 : i32
  %p128 = llvm.mul %m127, %c3 : i32
  %m128 = llvm.add %p128, %c1 : i32
  %p129 = llvm.mul %m128, %c3 : i32
  %m129 = llvm.add %p129, %c1 : i32
  %p130 = llvm.mul %m129, %c3 : i32
  %m130 = llvm.add %p130, %c1 : i32
  %p131 = llvm.mul %m130, %c3 : i32
  %m131 = llvm.add %p131, %c1 : i32
  %p132 = llvm.mul %m131, %c3 : i32
  %m132 = llvm.add %p132, %c1 : i32
  %p133 = llvm.mul %m132, %c3 : i32
  %m133 = llvm.add %p133, %c1 : i32
  %p134 = llvm.mul %m133, %c3 : i32
  %m134 = llvm.add %p134, %c1 : i32
  %p135 = llvm.mul %m134, %c3 : i32
  %m135 = llvm.add %p135, %c1 : i32
  %p136 = llvm.mul %m135, %c3 : i32
  %m136 = llvm.add %p136, %c1 : i32
  %p137 = llvm.mul %m136, %c3 : i32
  %m137 = llvm.add %p137, %c1 : i32
  %p138 = llvm.mul %m137, %c3 : i32
  %m138 = llvm.add %p138, %c1 : i32
  %p139 = llvm.mul %m138, %c3 : i32
  %m139 = llvm.add %p139, %c1 : i32
  %p140 = llvm.mul %m139, %c3 : i32
  %m140 = llvm.add %p140, %c1 : i32
  %p141 = llvm.mul %m140, %c3 : i32
  %m141 = llvm.add %p141, %c1 : i32
  %p142 = llvm.mul %m141, %c3 : i32
  %m142 = llvm.add %p142, %c1 : i32
  %p143 = llvm.mul %m142, %c3 : i32
  %m143 = llvm.add %p143, %c1 : i32
  %p144 = llvm.mul %m143, %c3 : i32
  %m144 = llvm.add %p144, %c1 : i32
  %p145 = llvm.mul %m144, %c3 : i32
  %m145 = llvm.add %p145, %c1 : i32
  %p146 = llvm.mul %m145, %c3 : i32
  %m146 = llvm.add %p146, %c1 : i32
  %p147 = llvm.mul %m146, %c3 : i32
  %m147 = llvm.add %p147, %c1 : i32
  %p148 = llvm.mul %m147, %c3 : i32
  %m148 = llvm.add %p148, %c1 : i32
  %p149 = llvm.mul %m148, %c3 : i32
  %m149 = llvm.add %p149, %c1 : i32
  %p150 = llvm.mul %m149, %c3 : i32
  %m150 = llvm.add %p150, %c1 : i32
  %p151 = llvm.mul %m150, %c3 : i32
  %m151 = llvm.add %p151, %c1 : i32
  %p152 = llvm.mul %m151, %c3 : i32
  %m152 = llvm.add %p152, %c1 : i32
  %p153 = llvm.mul %m152, %c3 : i32
  %m153 = llvm.add %p153, %c1 : i32
  %p154 = llvm.mul %m153, %c3 : i32
  %m154 = llvm.add %p154, %c1 : i32
  %p155 = llvm.mul %m154, %c3 : i32
  %m155 = llvm.add %p155, %c1 : i32
  %p156 = llvm.mul %m155, %c3 : i32
  %m156 = llvm.add %p156, %c1 : i32
  %p157 = llvm.mul %m156, %c3 : i32
  %m157 = llvm.add %p157, %c1 : i32
  %p158 = llvm.mul %m157, %c3 : i32
  %m158 = llvm.add %p158, %c1 : i32
  %p159 = llvm.mul %m158, %c3 : i32
  %m159 = llvm.add %p159, %c1 : i32
  %p160 = llvm.mul %m159, %c3 : i32
  %m160 = llvm.add %p160, %c1 : i32
  %p161 = llvm.mul %m160, %c3 : i32
  %m161 = llvm.add %p161, %c1 : i32
  %p162 = llvm.mul %m161, %c3 : i32
  %m162 = llvm.add %p162, %c1 : i32
  %p163 = llvm.mul %m162, %c3 : i32
  %m163 = llvm.add %p163, %c1 : i32
  %p164 = llvm.mul %m163, %c3 : i32
  %m164 = llvm.add %p164, %c1 : i32
  %p165 = llvm.mul %m164, %c3 : i32
  %m165 = llvm.add %p165, %c1 : i32
  %p166 = llvm.mul %m165, %c3 : i32
  %m166 = llvm.add %p166, %c1 : i32
  %p167 = llvm.mul %m166, %c3 : i32
  %m167 = llvm.add %p167, %c1 : i32
  %p168 = llvm.mul %m167, %c3 : i32
  %m168 = llvm.add %p168, %c1 : i32
  %p169 = llvm.mul %m168, %c3 : i32
  %m169 = llvm.add %p169, %c1 : i32
  %p170 = llvm.mul %m169, %c3 : i32
  %m170 = llvm.add %p170, %c1 : i32
  %p171 = llvm.mul %m170, %c3 : i32
  %m171 = llvm.add %p171, %c1 : i32
  %p172 = llvm.mul %m171, %c3 : i32
  %m172 = llvm.add %p172, %c1 : i32
  %p173 = llvm.mul %m172, %c3 : i32
  %m173 = llvm.add %p173, %c1 : i32
  %p174 = llvm.mul %m173, %c3 : i32
  %m174 = llvm.add %p174, %c1 : i32
  %p175 = llvm.mul %m174, %c3 : i32
  %m175 = llvm.add %p175, %c1 : i32
  %p176 = llvm.mul %m175, %c3 : i32
  %m176 = llvm.add %p176, %c1 : i32
  %p177 = llvm.mul %m176, %c3 : i32
  %m177 = llvm.add %p177, %c1 : i32
  %p178 = llvm.mul %m177, %c3 : i32
  %m178 = llvm.add %p178, %c1 : i32
  %p179 = llvm.mul %m178, %c3 : i32
  %m179 = llvm.add %p179, %c1 : i32
  %p180 = llvm.mul %m179, %c3 : i32
  %m180 = llvm.add %p180, %c1 : i32
  %p181 = llvm.mul %m180, %c3 : i32
  %m181 = llvm.add %p181, %c1 : i32
  %p182 = llvm.mul %m181, %c3 : i32
  %m182 = llvm.add %p182, %c1 : i32
  %p183 = llvm.mul %m182, %c3 : i32
  %m183 = llvm.add %p183, %c1 : i32
  %p184 = llvm.mul %m183, %c3 : i32
  %m184 = llvm.add %p184, %c1 : i32
  %p185 = llvm.mul %m184, %c3 : i32
  %m185 = llvm.add %p185, %c1 : i32
  %p186 = llvm.mul %m185, %c3 : i32
  %m186 = llvm.add %p186, %c1 : i32
  %p187 = llvm.mul %m186, %c3 : i32
  %m187 = llvm.add %p187, %c1 : i32
  %p188 = llvm.mul %m187, %c3 : i32
  %m188 = llvm.add %p188, %c1 : i32
  %p189 = llvm.mul %m188, %c3 : i32
  %m189 = llvm.add %p189, %c1 : i32
  %p190 = llvm.mul %m189, %c3 : i32
  %m190 = llvm.add %p190, %c1 : i32
  %p191 = llvm.mul %m190, %c3 : i32
  %m191 = llvm.add %p191, %c1 : i32
  %p192 = llvm.mul %m191, %c3 : i32
  %m192 = llvm.add %p192, %c1 : i32
  %p193 = llvm.mul %m192, %c3 : i32
  %m193 = llvm.add %p193, %c1 : i32
  %p194 = llvm.mul %m193, %c3 : i32
  %m194 = llvm.add %p194, %c1 : i32
  %p195 = llvm.mul %m194, %c3 : i32
  %m195 = llvm.add %p195, %c1 : i32
  %p196 = llvm.mul %m195, %c3 : i32
  %m196 = llvm.add %p196, %c1 : i32
  %p197 = llvm.mul %m196, %c3 : i32
  %m197 = llvm.add %p197, %c1 : i32
  %p198 = llvm.mul %m197, %c3 : i32
  %m198 = llvm.add %p198, %c1 : i32
  %p199 = llvm.mul %m198, %c3 : i32
  %m199 = llvm.add %p199, %c1 : i32
  %p200 = llvm.mul %m199, %c3 : i32
  %m200 = llvm.add %p200, %c1 : i32
  %p201 = llvm.mul %m200, %c3 : i32
  %m201 = llvm.add %p201, %c1 : i32
  %p202 = llvm.mul %m201, %c3 : i32
  %m202 = llvm.add %p202, %c1 : i32
  %p203 = llvm.mul %m202, %c3 : i32
  %m203 = llvm.add %p203, %c1 : i32
  %p204 = llvm.mul %m203, %c3 : i32
  %m204 = llvm.add %p204, %c1 : i32
  %p205 = llvm.mul %m204, %c3 : i32
  %m205 = llvm.add %p205, %c1 : i32
  %p206 = llvm.mul %m205, %c3 : i32
  %m206 = llvm.add %p206, %c1 : i32
  %p207 = llvm.mul %m206, %c3 : i32
  %m207 = llvm.add %p207, %c1 : i32
  %p208 = llvm.mul %m207, %c3 : i32
  %m208 = llvm.add %p208, %c1 : i32
  %p209 = llvm.mul %m208, %c3 : i32
  %m209 = llvm.add %p209, %c1 : i32
  %p210 = llvm.mul %m209, %c3 : i32
  %m210 = llvm.add %p210, %c1 : i32
  %p211 = llvm.mul %m210, %c3 : i32
  %m211 = llvm.add %p211, %c1 : i32
  %p212 = llvm.mul %m211, %c3 : i32
  %m212 = llvm.add %p212, %c1 : i32
  %p213 = llvm.mul %m212, %c3 : i32
  %m213 = llvm.add %p213, %c1 : i32
  %p214 = llvm.mul %m213, %c3 : i32
  %m214 = llvm.add %p214, %c1 : i32
  %p215 = llvm.mul %m214, %c3 : i32
  %m215 = llvm.add %p215, %c1 : i32
  %p216 = llvm.mul %m215, %c3 : i32
  %m216 = llvm.add %p216, %c1 : i32
  %p217 = llvm.mul %m216, %c3 : i32
  %m217 = llvm.add %p217, %c1 : i32
  %p218 = llvm.mul %m217, %c3 : i32
  %m218 = llvm.add %p218, %c1 : i32
  %p219 = llvm.mul %m218, %c3 : i32
  %m219 = llvm.add %p219, %c1 : i32
  %p220 = llvm.mul %m219, %c3 : i32
  %m220 = llvm.add %p220, %c1 : i32
  %p221 = llvm.mul %m220, %c3 : i32
  %m221 = llvm.add %p221, %c1 : i32
  %p222 = llvm.mul %m221, %c3 : i32
  %m222 = llvm.add %p222, %c1 : i32
  %p223 = llvm.mul %m222, %c3 : i32
  %m223 = llvm.add %p223, %c1 : i32
  %p224 = llvm.mul %m223, %c3 : i32
  %m224 = llvm.add %p224, %c1 : i32
  %p225 = llvm.mul %m224, %c3 : i32
  %m225 = llvm.add %p225, %c1 : i32
  %p226 = llvm.mul %m225, %c3 : i32
  %m226 = llvm.add %p226, %c1 : i32
  %p227 = llvm.mul %m226, %c3 : i32
  %m227 = llvm.add %p227, %c1 : i32
  %p228 = llvm.mul %m227, %c3 : i32
  %m228 = llvm.add %p228, %c1 : i32
  %p229 = llvm.mul %m228, %c3 : i32
  %m229 = llvm.add %p229, %c1 : i32
  %p230 = llvm.mul %m229, %c3 : i32
  %m230 = llvm.add %p230, %c1 : i32
  %p231 = llvm.mul %m230, %c3 : i32
  %m231 = llvm.add %p231, %c1 : i32
  %p232 = llvm.mul %m231, %c3 : i32
  %m232 = llvm.add %p232, %c1 : i32
  %p233 = llvm.mul %m232, %c3 : i32
  %m233 = llvm.add %p233, %c1 : i32
  %p234 = llvm.mul %m233, %c3 : i32
  %m234 = llvm.add %p234, %c1 : i32
  %p235 = llvm.mul %m234, %c3 : i32
  %m235 = llvm.add %p235, %c1 : i32
  %p236 = llvm.mul %m235, %c3 : i32
  %m236 = llvm.add %p236, %c1 : i32
  %p237 = llvm.mul %m236, %c3 : i32
  %m237 = llvm.add %p237, %c1 : i32
  %p238 = llvm.mul %m237, %c3 : i32
  %m238 = llvm.add %p238, %c1 : i32
  %p239 = llvm.mul %m238, %c3 : i32
  %m239 = llvm.add %p239, %c1 : i32
  %p240 = llvm.mul %m239, %c3 : i32
  %m240 = llvm.add %p240, %c1 : i32
  %p241 = llvm.mul %m240, %c3 : i32
  %m241 = llvm.add %p241, %c1 : i32
  %p242 = llvm.mul %m241, %c3 : i32
  %m242 = llvm.add %p242, %c1 : i32
  %p243 = llvm.mul %m242, %c3 : i32
  %m243 = llvm.add %p243, %c1 : i32
  %p244 = llvm.mul %m243, %c3 : i32
  %m244 = llvm.add %p244, %c1 : i32
  %p245 = llvm.mul %m244, %c3 : i32
  %m245 = llvm.add %p245, %c1 : i32
  %p246 = llvm.mul %m245, %c3 : i32
  %m246 = llvm.add %p246, %c1 : i32
  %p247 = llvm.mul %m246, %c3 : i32
  %m247 = llvm.add %p247, %c1 : i32
  %p248 = llvm.mul %m247, %c3 : i32
  %m248 = llvm.add %p248, %c1 : i32
  %p249 = llvm.mul %m248, %c3 : i32
  %m249 = llvm.add %p249, %c1 : i32
  %p250 = llvm.mul %m249, %c3 : i32
  %m250 = llvm.add %p250, %c1 : i32
  %p251 = llvm.mul %m250, %c3 : i32
  %m251 = llvm.add %p251, %c1 : i32
  %p252 = llvm.mul %m251, %c3 : i32
  %m252 = llvm.add %p252, %c1 : i32
  %p253 = llvm.mul %m252, %c3 : i32
  %m253 = llvm.add %p253, %c1 : i32
  %p254 = llvm.mul %m253, %c3 : i32
  %m254 = llvm.add %p254, %c1 : i32
  %p255 = llvm.mul %m254, %c3 : i32
  %m255 = llvm.add %p255, %c1 : i32
  %p256 = llvm.mul %m255, %c3 : i32
  %m256 = llvm.add %p256, %c1 : i32
  %p257 = llvm.mul %m256, %c3 : i32
  %m257 = llvm.add %p257, %c1 : i32
  %p258 = llvm.mul %m257, %c3 : i32
  %m258 = llvm.add %p258, %c1 : i32
  %p259 = llvm.mul %m258, %c3 : i32
  %m259 = llvm.add %p259, %c1 : i32
  %p260 = llvm.mul %m259, %c3 : i32
  %m260 = llvm.add %p260, %c1 : i32
  %p261 = llvm.mul %m260, %c3 : i32
  %m261 = llvm.add %p261, %c1 : i32
  %p262 = llvm.mul %m261, %c3 : i32
  %m262 = llvm.add %p262, %c1 : i32
  %p263 = llvm.mul %m262, %c3 : i32
  %m263 = llvm.add %p263, %c1 : i32
  %p264 = llvm.mul %m263, %c3 : i32
  %m264 = llvm.add %p264, %c1 : i32
  %p265 = llvm.mul %m264, %c3 : i32
  %m265 = llvm.add %p265, %c1 : i32
  %p266 = llvm.mul %m265, %c3 : i32
  %m266 = llvm.add %p266, %c1 : i32
  %p267 = llvm.mul %m266, %c3 : i32
  %m267 = llvm.add %p267, %c1 : i32
  %p268 = llvm.mul %m267, %c3 : i32
  %m268 = llvm.add %p268, %c1 : i32
  %p269 = llvm.mul %m268, %c3 : i32
  %m269 = llvm.add %p269, %c1 : i32
  %p270 = llvm.mul %m269, %c3 : i32
  %m270 = llvm.add %p270, %c1 : i32
  %p271 = llvm.mul %m270, %c3 : i32
  %m271 = llvm.add %p271, %c1 : i32
  %p272 = llvm.mul %m271, %c3 : i32
  %m272 = llvm.add %p272, %c1 : i32
  %p273 = llvm.mul %m272, %c3 : i32
  %m273 = llvm.add %p273, %c1 : i32
  %p274 = llvm.mul %m273, %c3 : i32
  %m274 = llvm.add %p274, %c1 : i32
  %p275 = llvm.mul %m274, %c3 : i32
  %m275 = llvm.add %p275, %c1 : i32
  %p276 = llvm.mul %m275, %c3 : i32
  %m276 = llvm.add %p276, %c1 : i32
  %p277 = llvm.mul %m276, %c3 : i32
  %m277 = llvm.add %p277, %c1 : i32
  %p278 = llvm.mul %m277, %c3 : i32
  %m278 = llvm.add %p278, %c1 : i32
  %p279 = llvm.mul %m278, %c3 : i32
  %m279 = llvm.add %p279, %c1 : i32
  %p280 = llvm.mul %m279, %c3 : i32
  %m280 = llvm.add %p280, %c1 : i32
  %p281 = llvm.mul %m280, %c3 : i32
  %m281 = llvm.add %p281, %c1 : i32
  %p282 = llvm.mul %m281, %c3 : i32
  %m282 = llvm.add %p282, %c1 : i32
  %p283 = llvm.mul %m282, %c3 : i32
  %m283 = llvm.add %p283, %c1 : i32
  %p284 = llvm.mul %m283, %c3 : i32
  %m284 = llvm.add %p284, %c1 : i32
  %p285 = llvm.mul %m284, %c3 : i32
  %m285 = llvm.add %p285, %c1 : i32
  %p286 = llvm.mul %m285, %c3 : i32
  %m286 = llvm.add %p286, %c1 : i32
  %p287 = llvm.mul %m286, %c3 : i32
  %m287 = llvm.add %p287, %c1 : i32
  %p288 = llvm.mul %m287, %c3 : i32
  %m288 = llvm.add %p288, %c1 : i32
  %p289 = llvm.mul %m288, %c3 : i32
  %m289 = llvm.add %p289, %c1 : i32
  %p290 = llvm.mul %m289, %c3 : i32
  %m290 = llvm.add %p290, %c1 : i32
  %p291 = llvm.mul %m290, %c3 : i32
  %m291 = llvm.add %p291, %c1 : i32
  %p292 = llvm.mul %m291, %c3 : i32
  %m292 = llvm.add %p292, %c1 : i32
  %p293 = llvm.mul %m292, %c3 : i32
  %m293 = llvm.add %p293, %c1 : i32
  %p294 = llvm.mul %m293, %c3 : i32
  %m294 = llvm.add %p294, %c1 : i32
  %p295 = llvm.mul %m294, %c3 : i32
  %m295 = llvm.add %p295, %c1 : i32
  %p296 = llvm.mul %m295, %c3 : i32
  %m296 = llvm.add %p296, %c1 : i32
  %p297 = llvm.mul %m296, %c3 : i32
  %m297 = llvm.add %p297, %c1 : i32
  %p298 = llvm.mul %m297, %c3 : i32
  %m298 = llvm.add %p298, %c1 : i32
  %p299 = llvm.mul %m298, %c3 : i32
  %m299 = llvm.add %p299, %c1 : i32
  %p300 = llvm.mul %m299, %c3 : i32
  %m300 = llvm.add %p300, %c1 : i32
  llvm.return %m300 : i32
}

// An unreachable block may hold a cycle (%x uses itself: dominance is not
// checked there). The walk from users to operands stops at an op it is
// already visiting.
// CHECK-LABEL: llvm.func @unreachable_cycle
// CHECK: ^bb1:
// CHECK: %[[X:.*]] = llvm.add %[[Y:.*]], %{{.*}} : i32
// CHECK: %[[Y]] = llvm.mul %[[X]], %{{.*}} : i32
// CHECK: llvm.br ^bb1
llvm.func @unreachable_cycle(%a: i32) -> i32 {
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c3 = llvm.mlir.constant(3 : i32) : i32
  %0 = llvm.add %a, %c1 : i32
  llvm.return %0 : i32
^bb1:
  %x = llvm.add %y, %c1 : i32
  %y = llvm.mul %x, %c3 : i32
  llvm.br ^bb1
}
