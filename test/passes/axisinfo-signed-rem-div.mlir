// RUN: kiln-opt %s -kgpu-assign-layouts=num-warps=4 -kgpu-convert-to-llvm | FileCheck %s

// arith.remsi and arith.divsi round toward zero, so a run of consecutive
// dividends maps to a run of remainders (or one quotient) only when the
// dividends are not negative: (r - 100) % 64 for r = 0, 1, 2, 3 is -36,
// -35, -34, -33 but for r = 36, 37 it is 0, -63; (r - 20) / 16 is -1 at
// r = 4 and 0 at r = 5. Those stores (and masks) stay one element per
// access; the same arithmetic on provably non-negative values (program id
// times the block plus a range, a loop's counter, an iteration argument
// that only grows) keeps 16-byte accesses. Values computed from kernel
// arguments are taken as non-negative, as Triton takes them (a reversed
// program order, (n - 1 - pid) * 512 + r, is in range for a launch of n
// programs).

// CHECK-LABEL: llvm.func @rem_of_negative
// CHECK: llvm.load {{.*}} -> vector<4xf32>
// CHECK-NOT: llvm.store {{.*}} vector<4xf32>
// CHECK-COUNT-4: llvm.store {{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<1>
tt.func public @rem_of_negative(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %c = arith.constant dense<-128> : tensor<512xi32>
  %d = arith.constant dense<64> : tensor<512xi32>
  %a = arith.addi %r, %c : tensor<512xi32>
  %m = arith.remsi %a, %d : tensor<512xi32>
  %j = arith.addi %m, %d : tensor<512xi32>
  %px = tt.splat %x : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %px1 = tt.addptr %px, %r : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  %v = tt.load %px1 : tensor<512x!tt.ptr<f32>>
  %py = tt.splat %y : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %py1 = tt.addptr %py, %j : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  tt.store %py1, %v : tensor<512x!tt.ptr<f32>>
  tt.return
}

// CHECK-LABEL: llvm.func @div_mask_of_negative
// CHECK-NOT: st.global.v
// CHECK-COUNT-4: "@$1 st.global.b32 [ $0 + 0 ], $2;"
// CHECK-NOT: st.global
// CHECK: llvm.return
tt.func public @div_mask_of_negative(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %c = arith.constant dense<-20> : tensor<512xi32>
  %d = arith.constant dense<16> : tensor<512xi32>
  %z = arith.constant dense<0> : tensor<512xi32>
  %a = arith.addi %r, %c : tensor<512xi32>
  %q = arith.divsi %a, %d : tensor<512xi32>
  %mask = arith.cmpi sge, %q, %z : tensor<512xi32>
  %px = tt.splat %x : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %px1 = tt.addptr %px, %r : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  %v = tt.load %px1 : tensor<512x!tt.ptr<f32>>
  %py = tt.splat %y : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %py1 = tt.addptr %py, %r : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  tt.store %py1, %v, %mask : tensor<512x!tt.ptr<f32>>
  tt.return
}

// The unsigned forms need no sign: remui / divui keep the runs.
// CHECK-LABEL: llvm.func @unsigned_of_negative
// CHECK: llvm.store {{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
// CHECK: st.global.v4.b32
tt.func public @unsigned_of_negative(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %c = arith.constant dense<-128> : tensor<512xi32>
  %d = arith.constant dense<64> : tensor<512xi32>
  %z = arith.constant dense<0> : tensor<512xi32>
  %a = arith.addi %r, %c : tensor<512xi32>
  %m = arith.remui %a, %d : tensor<512xi32>
  %q = arith.divui %a, %d : tensor<512xi32>
  %mask = arith.cmpi ne, %q, %z : tensor<512xi32>
  %px = tt.splat %x : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %px1 = tt.addptr %px, %r : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  %v = tt.load %px1 : tensor<512x!tt.ptr<f32>>
  %py = tt.splat %y : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %py1 = tt.addptr %py, %m : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  tt.store %py1, %v : tensor<512x!tt.ptr<f32>>
  %py2 = tt.addptr %py, %r : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  tt.store %py2, %v, %mask : tensor<512x!tt.ptr<f32>>
  tt.return
}

// pid * 512 + r is not negative: (pid * 512 + r) % 64 and the mask
// (pid * 512 + r) / 16 < n keep 4-element accesses.
// CHECK-LABEL: llvm.func @rem_div_of_non_negative
// CHECK: llvm.store {{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
// CHECK: st.global.v4.b32
tt.func public @rem_div_of_non_negative(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
  %pid = tt.get_program_id x : i32
  %c512 = arith.constant 512 : i32
  %base = arith.muli %pid, %c512 : i32
  %bs = tt.splat %base : i32 -> tensor<512xi32>
  %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %i = arith.addi %bs, %r : tensor<512xi32>
  %d = arith.constant dense<64> : tensor<512xi32>
  %d16 = arith.constant dense<16> : tensor<512xi32>
  %m = arith.remsi %i, %d : tensor<512xi32>
  %q = arith.divsi %i, %d16 : tensor<512xi32>
  %ns = tt.splat %n : i32 -> tensor<512xi32>
  %mask = arith.cmpi slt, %q, %ns : tensor<512xi32>
  %px = tt.splat %x : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %px1 = tt.addptr %px, %i : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  %v = tt.load %px1 : tensor<512x!tt.ptr<f32>>
  %py = tt.splat %y : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %py1 = tt.addptr %py, %m : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  tt.store %py1, %v : tensor<512x!tt.ptr<f32>>
  %py2 = tt.addptr %py, %i : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  tt.store %py2, %v, %mask : tensor<512x!tt.ptr<f32>>
  tt.return
}

// In a loop: the counter (from 0 by 512) plus a range, and an iteration
// argument that starts at 0 and only grows, are not negative; one that
// shrinks (a subtraction) may be.
// CHECK-LABEL: llvm.func @loop_values
// CHECK: llvm.store {{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
// CHECK: llvm.store {{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
// CHECK-COUNT-4: llvm.store {{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<1>
tt.func public @loop_values(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c512 = arith.constant 512 : i32
  %d = arith.constant dense<64> : tensor<512xi32>
  %step = arith.constant dense<512> : tensor<512xi32>
  %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %px = tt.splat %x : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %px1 = tt.addptr %px, %r : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  %v = tt.load %px1 : tensor<512x!tt.ptr<f32>>
  %py = tt.splat %y : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %res:2 = scf.for %k = %c0 to %n step %c512 iter_args(%up = %r, %down = %r) -> (tensor<512xi32>, tensor<512xi32>) : i32 {
    %ks = tt.splat %k : i32 -> tensor<512xi32>
    %i = arith.addi %ks, %r : tensor<512xi32>
    %m = arith.remsi %i, %d : tensor<512xi32>
    %py1 = tt.addptr %py, %m : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
    tt.store %py1, %v : tensor<512x!tt.ptr<f32>>
    %mu = arith.remsi %up, %d : tensor<512xi32>
    %py2 = tt.addptr %py, %mu : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
    tt.store %py2, %v : tensor<512x!tt.ptr<f32>>
    %md = arith.remsi %down, %d : tensor<512xi32>
    %py3 = tt.addptr %py, %md : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
    tt.store %py3, %v : tensor<512x!tt.ptr<f32>>
    %upn = arith.addi %up, %step : tensor<512xi32>
    %downn = arith.subi %down, %step : tensor<512xi32>
    scf.yield %upn, %downn : tensor<512xi32>, tensor<512xi32>
  }
  tt.return
}

// CHECK-LABEL: llvm.func @reversed_program_order
// CHECK: llvm.store {{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
tt.func public @reversed_program_order(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %pid = tt.get_program_id x : i32
  %c1 = arith.constant 1 : i32
  %c512 = arith.constant 512 : i32
  %last = arith.subi %n, %c1 : i32
  %rev = arith.subi %last, %pid : i32
  %base = arith.muli %rev, %c512 : i32
  %bs = tt.splat %base : i32 -> tensor<512xi32>
  %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %i = arith.addi %bs, %r : tensor<512xi32>
  %d = arith.constant dense<64> : tensor<512xi32>
  %m = arith.remsi %i, %d : tensor<512xi32>
  %px = tt.splat %x : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %px1 = tt.addptr %px, %r : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  %v = tt.load %px1 : tensor<512x!tt.ptr<f32>>
  %py = tt.splat %y : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %py1 = tt.addptr %py, %m : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  tt.store %py1, %v : tensor<512x!tt.ptr<f32>>
  tt.return
}

// 41 iteration arguments, each yielding an `and` of the next two (non-
// negative if either is) and the last one decreasing: every argument
// widens in turn. The loop is solved for all its arguments together, in
// at most 2n + 1 rounds over the body. (Solving one argument at a time,
// taking back what each failed assumption derived, took time growing like
// the Fibonacci numbers: 17.8 s for a whole compile at 29 arguments.)
// CHECK-LABEL: llvm.func @many_loop_args
// CHECK: llvm.store
tt.func public @many_loop_args(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %c7 = arith.constant -7 : i32
  %px = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %px1 = tt.addptr %px, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %v = tt.load %px1 : tensor<64x!tt.ptr<f32>>
  %py = tt.splat %y : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %res:41 = scf.for %i = %c0 to %c4 step %c1 iter_args(%a0 = %c0, %a1 = %c0, %a2 = %c0, %a3 = %c0, %a4 = %c0, %a5 = %c0, %a6 = %c0, %a7 = %c0, %a8 = %c0, %a9 = %c0, %a10 = %c0, %a11 = %c0, %a12 = %c0, %a13 = %c0, %a14 = %c0, %a15 = %c0, %a16 = %c0, %a17 = %c0, %a18 = %c0, %a19 = %c0, %a20 = %c0, %a21 = %c0, %a22 = %c0, %a23 = %c0, %a24 = %c0, %a25 = %c0, %a26 = %c0, %a27 = %c0, %a28 = %c0, %a29 = %c0, %a30 = %c0, %a31 = %c0, %a32 = %c0, %a33 = %c0, %a34 = %c0, %a35 = %c0, %a36 = %c0, %a37 = %c0, %a38 = %c0, %a39 = %c0, %a40 = %c0) -> (i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32) : i32 {
    %dd = arith.maxsi %a0, %a1 : i32
    %m = arith.remsi %dd, %c4 : i32
    %ms = tt.splat %m : i32 -> tensor<64xi32>
    %o = arith.addi %ms, %r : tensor<64xi32>
    %py1 = tt.addptr %py, %o : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    tt.store %py1, %v : tensor<64x!tt.ptr<f32>>
    %y0 = arith.andi %a1, %a2 : i32
    %y1 = arith.andi %a2, %a3 : i32
    %y2 = arith.andi %a3, %a4 : i32
    %y3 = arith.andi %a4, %a5 : i32
    %y4 = arith.andi %a5, %a6 : i32
    %y5 = arith.andi %a6, %a7 : i32
    %y6 = arith.andi %a7, %a8 : i32
    %y7 = arith.andi %a8, %a9 : i32
    %y8 = arith.andi %a9, %a10 : i32
    %y9 = arith.andi %a10, %a11 : i32
    %y10 = arith.andi %a11, %a12 : i32
    %y11 = arith.andi %a12, %a13 : i32
    %y12 = arith.andi %a13, %a14 : i32
    %y13 = arith.andi %a14, %a15 : i32
    %y14 = arith.andi %a15, %a16 : i32
    %y15 = arith.andi %a16, %a17 : i32
    %y16 = arith.andi %a17, %a18 : i32
    %y17 = arith.andi %a18, %a19 : i32
    %y18 = arith.andi %a19, %a20 : i32
    %y19 = arith.andi %a20, %a21 : i32
    %y20 = arith.andi %a21, %a22 : i32
    %y21 = arith.andi %a22, %a23 : i32
    %y22 = arith.andi %a23, %a24 : i32
    %y23 = arith.andi %a24, %a25 : i32
    %y24 = arith.andi %a25, %a26 : i32
    %y25 = arith.andi %a26, %a27 : i32
    %y26 = arith.andi %a27, %a28 : i32
    %y27 = arith.andi %a28, %a29 : i32
    %y28 = arith.andi %a29, %a30 : i32
    %y29 = arith.andi %a30, %a31 : i32
    %y30 = arith.andi %a31, %a32 : i32
    %y31 = arith.andi %a32, %a33 : i32
    %y32 = arith.andi %a33, %a34 : i32
    %y33 = arith.andi %a34, %a35 : i32
    %y34 = arith.andi %a35, %a36 : i32
    %y35 = arith.andi %a36, %a37 : i32
    %y36 = arith.andi %a37, %a38 : i32
    %y37 = arith.andi %a38, %a39 : i32
    %y38 = arith.andi %a39, %a40 : i32
    %y39 = arith.andi %a40, %c7 : i32
    %y40 = arith.subi %a40, %c1 : i32
    scf.yield %y0, %y1, %y2, %y3, %y4, %y5, %y6, %y7, %y8, %y9, %y10, %y11, %y12, %y13, %y14, %y15, %y16, %y17, %y18, %y19, %y20, %y21, %y22, %y23, %y24, %y25, %y26, %y27, %y28, %y29, %y30, %y31, %y32, %y33, %y34, %y35, %y36, %y37, %y38, %y39, %y40 : i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32
  }
  tt.return
}
