// RUN: kiln-opt %s -kgpu-split-struct-block-args -split-input-file | FileCheck %s
// RUN: kiln-opt %s -kgpu-split-struct-block-args -canonicalize -split-input-file | FileCheck %s --check-prefix=CANON

// A loop-carried struct (a tensor's per-thread elements) becomes one block
// argument per field; each edge passes the fields, and reads of a field
// become the field's argument. An edge whose struct is an insertvalue
// chain passes the inserted values themselves, not extracts of them.

// CHECK-LABEL: llvm.func @loop
// CHECK-SAME:    (%[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: i32)
// CHECK:         llvm.br ^bb1(%{{.*}}, %[[X]], %[[Y]] : i32, f32, f32)
// CHECK:       ^bb1(%[[IV:.*]]: i32, %[[A0:.*]]: f32, %[[A1:.*]]: f32):
// CHECK-NOT:     llvm.struct
// CHECK:         %[[S0:.*]] = llvm.fadd %[[A0]], %[[A0]]
// CHECK:         %[[S1:.*]] = llvm.fadd %[[A1]], %[[A1]]
// CHECK:       ^bb2:
// CHECK-NOT:     llvm.extractvalue
// CHECK:         llvm.br ^bb1(%{{.*}}, %[[S0]], %[[S1]] : i32, f32, f32)
// CHECK:       ^bb3:
// CHECK:         llvm.return %[[A1]] : f32
// After canonicalization no struct is left: the extracts fold through the
// insertvalue chains that built the structs.
// CANON-LABEL: llvm.func @loop
// CANON-NOT:     llvm.insertvalue
// CANON-NOT:     llvm.extractvalue
// CANON:         llvm.return
llvm.func @loop(%x: f32, %y: f32, %n: i32) -> f32 {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %u = llvm.mlir.undef : !llvm.struct<(f32, f32)>
  %s0 = llvm.insertvalue %x, %u[0] : !llvm.struct<(f32, f32)>
  %s1 = llvm.insertvalue %y, %s0[1] : !llvm.struct<(f32, f32)>
  llvm.br ^bb1(%c0, %s1 : i32, !llvm.struct<(f32, f32)>)
^bb1(%i: i32, %acc: !llvm.struct<(f32, f32)>):
  %a0 = llvm.extractvalue %acc[0] : !llvm.struct<(f32, f32)>
  %a1 = llvm.extractvalue %acc[1] : !llvm.struct<(f32, f32)>
  %d0 = llvm.fadd %a0, %a0 : f32
  %d1 = llvm.fadd %a1, %a1 : f32
  %cond = llvm.icmp "slt" %i, %n : i32
  llvm.cond_br %cond, ^bb2, ^bb3
^bb2:
  %t0 = llvm.insertvalue %d0, %u[0] : !llvm.struct<(f32, f32)>
  %t1 = llvm.insertvalue %d1, %t0[1] : !llvm.struct<(f32, f32)>
  %next = llvm.add %i, %c1 : i32
  llvm.br ^bb1(%next, %t1 : i32, !llvm.struct<(f32, f32)>)
^bb3:
  llvm.return %a1 : f32
}

// -----

// A use other than a field read (here: the struct is returned) gets the
// struct rebuilt from the fields at the top of the block. A back edge that
// passes the argument itself passes its fields.

// CHECK-LABEL: llvm.func @rebuilt
// CHECK:       ^bb1(%[[F0:.*]]: i32, %[[F1:.*]]: i64):
// CHECK:         %[[U:.*]] = llvm.mlir.undef : !llvm.struct<(i32, i64)>
// CHECK:         %[[R0:.*]] = llvm.insertvalue %[[F0]], %[[U]][0]
// CHECK:         %[[R1:.*]] = llvm.insertvalue %[[F1]], %[[R0]][1]
// CHECK:         llvm.cond_br %{{.*}}, ^bb1(%[[F0]], %[[F1]] : i32, i64), ^bb2
// CHECK:       ^bb2:
// CHECK:         llvm.return %[[R1]] : !llvm.struct<(i32, i64)>
llvm.func @rebuilt(%s: !llvm.struct<(i32, i64)>, %c: i1) -> !llvm.struct<(i32, i64)> {
  llvm.br ^bb1(%s : !llvm.struct<(i32, i64)>)
^bb1(%v: !llvm.struct<(i32, i64)>):
  llvm.cond_br %c, ^bb1(%v : !llvm.struct<(i32, i64)>), ^bb2
^bb2:
  llvm.return %v : !llvm.struct<(i32, i64)>
}

// -----

// Both successors of one llvm.cond_br are the same block, with different
// structs: each passes its own fields.

// CHECK-LABEL: llvm.func @same_block_twice
// CHECK-DAG:     %[[P0:.*]] = llvm.extractvalue %arg0[0]
// CHECK-DAG:     %[[P1:.*]] = llvm.extractvalue %arg0[1]
// CHECK-DAG:     %[[Q0:.*]] = llvm.extractvalue %arg1[0]
// CHECK-DAG:     %[[Q1:.*]] = llvm.extractvalue %arg1[1]
// CHECK:         llvm.cond_br %arg2, ^bb1(%[[P0]], %[[P1]] : f32, f32), ^bb1(%[[Q0]], %[[Q1]] : f32, f32)
// CHECK:       ^bb1(%[[X:.*]]: f32, %[[Y:.*]]: f32):
// CHECK:         llvm.fadd %[[X]], %[[Y]]
llvm.func @same_block_twice(%p: !llvm.struct<(f32, f32)>, %q: !llvm.struct<(f32, f32)>, %c: i1) -> f32 {
  llvm.cond_br %c, ^bb1(%p : !llvm.struct<(f32, f32)>), ^bb1(%q : !llvm.struct<(f32, f32)>)
^bb1(%v: !llvm.struct<(f32, f32)>):
  %x = llvm.extractvalue %v[0] : !llvm.struct<(f32, f32)>
  %y = llvm.extractvalue %v[1] : !llvm.struct<(f32, f32)>
  %r = llvm.fadd %x, %y : f32
  llvm.return %r : f32
}

// -----

// Left alone: a struct with a nested struct or array field, the entry
// block's arguments, and scalars.

// CHECK-LABEL: llvm.func @left_alone
// CHECK-SAME:    (%arg0: !llvm.struct<(f32, f32)>, %arg1: !llvm.struct<(i32, struct<(i32, i32)>)>, %arg2: !llvm.struct<(array<2 x i32>)>, %arg3: i32)
// CHECK:       ^bb1(%{{.*}}: !llvm.struct<(i32, struct<(i32, i32)>)>, %{{.*}}: !llvm.struct<(array<2 x i32>)>, %{{.*}}: i32):
llvm.func @left_alone(%s: !llvm.struct<(f32, f32)>, %n: !llvm.struct<(i32, struct<(i32, i32)>)>,
                      %a: !llvm.struct<(array<2 x i32>)>, %i: i32) -> i32 {
  llvm.br ^bb1(%n, %a, %i : !llvm.struct<(i32, struct<(i32, i32)>)>, !llvm.struct<(array<2 x i32>)>, i32)
^bb1(%nn: !llvm.struct<(i32, struct<(i32, i32)>)>, %aa: !llvm.struct<(array<2 x i32>)>, %ii: i32):
  %f = llvm.extractvalue %nn[1, 0] : !llvm.struct<(i32, struct<(i32, i32)>)>
  %g = llvm.extractvalue %aa[0, 1] : !llvm.struct<(array<2 x i32>)>
  %r = llvm.add %f, %g : i32
  %t = llvm.add %r, %ii : i32
  llvm.return %t : i32
}

// -----

// llvm.switch edges are rewritten like branches.

// CHECK-LABEL: llvm.func @switch
// CHECK:         llvm.switch %arg1 : i32, ^bb1(%{{.*}}, %{{.*}} : i32, i32) [
// CHECK-NEXT:      7: ^bb1(%{{.*}}, %{{.*}} : i32, i32)
// CHECK:       ^bb1(%[[A:.*]]: i32, %[[B:.*]]: i32):
// CHECK:         llvm.return %[[B]] : i32
llvm.func @switch(%s: !llvm.struct<(i32, i32)>, %k: i32) -> i32 {
  llvm.switch %k : i32, ^bb1(%s : !llvm.struct<(i32, i32)>) [
    7: ^bb1(%s : !llvm.struct<(i32, i32)>)
  ]
^bb1(%v: !llvm.struct<(i32, i32)>):
  %b = llvm.extractvalue %v[1] : !llvm.struct<(i32, i32)>
  llvm.return %b : i32
}

// -----

// An llvm.invoke's unwind destination begins with its llvm.landingpad: it
// is left alone (a rebuilt struct would come before the landing pad). The
// normal destination is split.

// CHECK-LABEL: llvm.func @unwind
// CHECK:       ^bb1(%{{.*}}: i32, %{{.*}}: i32):
// CHECK:       ^bb2(%{{.*}}: !llvm.struct<(i32, i32)>):
// CHECK-NEXT:    llvm.landingpad
llvm.func @may_throw() -> i32
llvm.func @__gxx_personality_v0(...) -> i32
llvm.func @unwind(%s: !llvm.struct<(i32, i32)>) -> !llvm.struct<(i32, i32)> attributes { personality = @__gxx_personality_v0 } {
  %0 = llvm.invoke @may_throw() to ^bb1(%s : !llvm.struct<(i32, i32)>) unwind ^bb2(%s : !llvm.struct<(i32, i32)>) : () -> i32
^bb1(%v: !llvm.struct<(i32, i32)>):
  %a = llvm.extractvalue %v[0] : !llvm.struct<(i32, i32)>
  %r = llvm.insertvalue %0, %v[1] : !llvm.struct<(i32, i32)>
  llvm.return %r : !llvm.struct<(i32, i32)>
^bb2(%w: !llvm.struct<(i32, i32)>):
  %lp = llvm.landingpad cleanup : !llvm.struct<(ptr, i32)>
  llvm.return %w : !llvm.struct<(i32, i32)>
}

// -----

// An insertvalue chain that sets some fields only: the edge passes what
// the chain inserted, the last insert into a position winning, and an
// extract of the struct for each field no insert sets (here field 1,
// which the chain's first container, a function argument, holds).

// CHECK-LABEL: llvm.func @partial_chain
// CHECK-SAME:    (%[[S:.*]]: !llvm.struct<(f32, f32, f32)>, %[[X:.*]]: f32, %[[Y:.*]]: f32, %[[C:.*]]: i1)
// CHECK:         %[[T2:.*]] = llvm.insertvalue %[[Y]], %{{.*}}[0]
// CHECK:         %[[E1:.*]] = llvm.extractvalue %[[T2]][1]
// CHECK:         llvm.br ^bb1(%[[Y]], %[[E1]], %[[X]] : f32, f32, f32)
// CHECK:       ^bb1(%[[A0:.*]]: f32, %[[A1:.*]]: f32, %[[A2:.*]]: f32):
// CHECK:         llvm.return %[[A1]] : f32
llvm.func @partial_chain(%s: !llvm.struct<(f32, f32, f32)>, %x: f32, %y: f32, %c: i1) -> f32 {
  %t0 = llvm.insertvalue %x, %s[0] : !llvm.struct<(f32, f32, f32)>
  %t1 = llvm.insertvalue %x, %t0[2] : !llvm.struct<(f32, f32, f32)>
  %t2 = llvm.insertvalue %y, %t1[0] : !llvm.struct<(f32, f32, f32)>
  llvm.br ^bb1(%t2 : !llvm.struct<(f32, f32, f32)>)
^bb1(%v: !llvm.struct<(f32, f32, f32)>):
  %f = llvm.extractvalue %v[1] : !llvm.struct<(f32, f32, f32)>
  llvm.return %f : f32
}
