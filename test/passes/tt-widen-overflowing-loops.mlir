// RUN: kiln-opt %s -split-input-file -tt-widen-overflowing-loops | FileCheck %s --enable-var-scope
// RUN: kiln-opt %s -split-input-file -tt-widen-overflowing-loops -canonicalize | FileCheck %s --check-prefix=CANON
// MLIR 22's canonicalizer alone folds the first loop as one that never runs:
// RUN: kiln-opt %s -split-input-file -canonicalize | FileCheck %s --check-prefix=UPSTREAM
// kiln's NVPTX pipeline keeps it (it widens before its first canonicalizer):
// RUN: kiln-opt %s -split-input-file --kiln-ttir-to-llvm-nvptx='num-warps=4' | FileCheck %s --check-prefix=PIPELINE

// -2e9 to 2e9 step 1e9: 4 iterations, none overflowing, but ub - lb = 4e9
// does not fit in i32. The loop runs over i64 bounds, sign-extended; the
// body reads the i64 induction variable truncated to i32.
// CHECK-LABEL: tt.func @span_overflows
// CHECK-DAG: %[[LB:.+]] = arith.extsi %{{.+}} : i32 to i64
// CHECK-DAG: %[[UB:.+]] = arith.extsi %{{.+}} : i32 to i64
// CHECK-DAG: %[[ST:.+]] = arith.extsi %{{.+}} : i32 to i64
// CHECK: %[[R:.+]] = scf.for %[[IV:.+]] = %[[LB]] to %[[UB]] step %[[ST]] iter_args(%[[A:.+]] = %{{.+}}) -> (i32) : i64 {
// CHECK-NEXT: %[[I:.+]] = arith.trunci %[[IV]] : i64 to i32
// CHECK-NEXT: %[[N:.+]] = arith.addi %[[A]], %[[I]] : i32
// CHECK-NEXT: scf.yield %[[N]] : i32
// CHECK: tt.store %{{.+}}, %[[R]]
// CANON-LABEL: tt.func @span_overflows
// CANON: scf.for {{.+}} : i64
// UPSTREAM-LABEL: tt.func @span_overflows
// UPSTREAM-NOT: scf.for
// UPSTREAM: tt.store %{{.+}}, %c0_i32
// PIPELINE-LABEL: llvm.func @span_overflows
// PIPELINE: llvm.icmp "slt" %{{.+}}, %{{.+}} : i64
tt.func @span_overflows(%p: !tt.ptr<i32>) {
  %lb = arith.constant -2000000000 : i32
  %ub = arith.constant 2000000000 : i32
  %st = arith.constant 1000000000 : i32
  %z = arith.constant 0 : i32
  %r = scf.for %i = %lb to %ub step %st iter_args(%a = %z) -> (i32) : i32 {
    %n = arith.addi %a, %i : i32
    scf.yield %n : i32
  }
  tt.store %p, %r : !tt.ptr<i32>
  tt.return
}

// -----

// A span of exactly INT32_MAX (-1 to 2^31 - 2) fits: left alone. One more
// (-2 to 2^31 - 2) does not: widened. The widened loop is the inner one of
// a loop that is left alone.
// CHECK-LABEL: tt.func @boundary
// CHECK: scf.for {{.+}} : i32 {
// CHECK: scf.for {{.+}} : i32 {
// CHECK: scf.for {{.+}} : i64 {
// CHECK-NEXT: arith.trunci
tt.func @boundary(%p: !tt.ptr<i32>, %n: i32) {
  %m1 = arith.constant -1 : i32
  %m2 = arith.constant -2 : i32
  %ub = arith.constant 2147483646 : i32
  %st = arith.constant 1073741823 : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r0 = scf.for %i = %m1 to %ub step %st iter_args(%a = %c0) -> (i32) : i32 {
    %s = arith.addi %a, %i : i32
    scf.yield %s : i32
  }
  %r1 = scf.for %j = %c0 to %n step %c1 iter_args(%b = %r0) -> (i32) : i32 {
    %r2 = scf.for %i = %m2 to %ub step %st iter_args(%a = %b) -> (i32) : i32 {
      %s = arith.addi %a, %i : i32
      scf.yield %s : i32
    }
    scf.yield %r2 : i32
  }
  tt.store %p, %r1 : !tt.ptr<i32>
  tt.return
}

// -----

// Unsigned compares (0 to 4e9 as unsigned i32 fits) and bounds that are
// not constants are left alone.
// CHECK-LABEL: tt.func @left_alone
// CHECK-NOT: : i64
// CHECK: scf.for unsigned {{.+}} : i32 {
// CHECK: scf.for {{.+}} : i32 {
tt.func @left_alone(%p: !tt.ptr<i32>, %lo: i32, %hi: i32) {
  %c0 = arith.constant 0 : i32
  %ub = arith.constant -294967296 : i32
  %st = arith.constant 1000000000 : i32
  %r = scf.for unsigned %i = %c0 to %ub step %st iter_args(%a = %c0) -> (i32) : i32 {
    %s = arith.addi %a, %i : i32
    scf.yield %s : i32
  }
  %r2 = scf.for %i = %lo to %hi step %st iter_args(%a = %r) -> (i32) : i32 {
    %s = arith.addi %a, %i : i32
    scf.yield %s : i32
  }
  tt.store %p, %r2 : !tt.ptr<i32>
  tt.return
}
