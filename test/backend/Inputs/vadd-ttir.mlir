// A vector add in TTIR (the corpus vadd_kernel without locations).
tt.func public @vadd_kernel(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
  %c1024_i32 = arith.constant 1024 : i32
  %pid = tt.get_program_id x : i32
  %offs = arith.muli %pid, %c1024_i32 : i32
  %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
  %s = tt.splat %offs : i32 -> tensor<1024xi32>
  %o = arith.addi %s, %r : tensor<1024xi32>
  %nn = tt.splat %n : i32 -> tensor<1024xi32>
  %m = arith.cmpi slt, %o, %nn : tensor<1024xi32>
  %xs = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %o : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
  %x = tt.load %xp, %m : tensor<1024x!tt.ptr<f32>>
  %ys = tt.splat %y_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
  %yp = tt.addptr %ys, %o : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
  %y = tt.load %yp, %m : tensor<1024x!tt.ptr<f32>>
  %os = tt.splat %out_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
  %op = tt.addptr %os, %o : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
  %sum = arith.addf %x, %y : tensor<1024xf32>
  tt.store %op, %sum, %m : tensor<1024x!tt.ptr<f32>>
  tt.return
}
