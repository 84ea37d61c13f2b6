// RUN: kiln-opt %s --kiln-ttir-to-llvm-amdgpu='num-warps=1' | FileCheck %s --enable-var-scope
// RUN: not kiln-opt %S/Inputs/unsupported-atomic.mlir --kiln-ttir-to-llvm-amdgpu='num-warps=4' 2>&1 | FileCheck %s --check-prefix=UNSUP
// RUN: kiln-opt %S/Inputs/replicated-atomic.mlir --kiln-ttir-to-llvm-amdgpu='num-warps=4' | FileCheck %s --check-prefix=REPL
// RUN: kiln-opt %S/Inputs/replicated-atomic.mlir --kiln-ttir-to-llvm-nvptx='num-warps=4' | FileCheck %s --check-prefix=REPL

// On AMDGPU a tensor atomic is an LLVM atomicrmw/cmpxchg in its own block,
// branched to when the element's mask (and ownership) holds (an scf.if in
// kgpu-convert-to-llvm, blocks after scf-to-cf), its old value joining
// undef from the other side; Triton's scopes map to AMDGPU sync scopes:
// cta -> "workgroup", gpu -> "agent", sys -> the system scope.
// CHECK-LABEL: llvm.func @atomics
// CHECK: llvm.cond_br %{{.+}}, ^[[DO:bb[0-9]+]], ^[[SKIP:bb[0-9]+]]
// CHECK: ^[[DO]]:
// CHECK-NEXT: [[OLD:%.+]] = llvm.atomicrmw fadd %{{.+}}, %{{.+}} syncscope("agent") acq_rel {alignment = 4 : i64} : !llvm.ptr<1>, f32
// CHECK-NEXT: llvm.br ^[[JOIN:bb[0-9]+]]([[OLD]] : f32)
// CHECK: ^[[SKIP]]:
// CHECK-NEXT: llvm.br ^[[JOIN]](%{{.+}} : f32)
// CHECK: llvm.atomicrmw umax %{{.+}}, %{{.+}} syncscope("workgroup") monotonic
// CHECK: llvm.atomicrmw xchg %{{.+}}, %{{.+}} release
// CHECK: llvm.cmpxchg %{{.+}}, %{{.+}}, %{{.+}} syncscope("agent") acq_rel acquire
// CHECK-NOT: nvvm.
tt.func public @atomics(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %q: !tt.ptr<i32> {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %one = arith.constant dense<1.0> : tensor<64xf32>
  %c32 = arith.constant dense<32> : tensor<64xi32>
  %m = arith.cmpi slt, %r, %c32 : tensor<64xi32>
  %s = tt.splat %p : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %a = tt.addptr %s, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %old = tt.atomic_rmw fadd, acq_rel, gpu, %a, %one, %m : (tensor<64x!tt.ptr<f32>>, tensor<64xf32>, tensor<64xi1>) -> tensor<64xf32>
  %qs = tt.splat %q : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>>
  %qa = tt.addptr %qs, %r : tensor<64x!tt.ptr<i32>>, tensor<64xi32>
  %mx = tt.atomic_rmw umax, relaxed, cta, %qa, %r : (tensor<64x!tt.ptr<i32>>, tensor<64xi32>) -> tensor<64xi32>
  %x = tt.atomic_rmw exch, release, sys, %a, %old : (tensor<64x!tt.ptr<f32>>, tensor<64xf32>) -> tensor<64xf32>
  %prev = tt.atomic_cas acq_rel, gpu, %a, %x, %one : (tensor<64x!tt.ptr<f32>>, tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  tt.store %a, %prev : tensor<64x!tt.ptr<f32>>
  tt.return
}

// UNSUP: error: 'tt.atomic_rmw' on 'f32' is not supported by the AMDGPU lowering yet

// Only one of the threads holding a replicated element runs its atomic; a
// used old value reaches the others through shared memory (64 f16: 128
// bytes): the owner stores it, a barrier, every copy loads it.
// REPL: kgpu.shared = 128 : i32
// REPL: {{atomicrmw|atom.global}}
// REPL: llvm.store %{{.+}}, %{{.+}} : f16, !llvm.ptr<3>
// REPL: {{nvvm.barrier0|rocdl.barrier}}
// REPL: llvm.load %{{.+}} : !llvm.ptr<3> -> f16
