// Kernel @a fails on AMDGPU (tt.print, which the AMDGPU lowering does not
// handle yet); --kernel b must still compile @b alone.
module {
  tt.func public @a(%p: !tt.ptr<f32>) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %s = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %x = tt.addptr %s, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    %v = tt.load %x : tensor<128x!tt.ptr<f32>>
    tt.print " v: " {hex = false, isSigned = array<i32: 0>} : %v : tensor<128xf32>
    tt.return
  }
  tt.func public @b(%p: !tt.ptr<f32>) { tt.return }
}
