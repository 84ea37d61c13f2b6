// RUN: kiln-opt %s -split-input-file -verify-diagnostics -kgpu-assign-layouts="num-warps=4 mma-version=2"

// kgpu-assign-layouts runs once, on TTIR: given its own output (or kgpu
// IR with layouts), it names the first tensor that already has one
// instead of regrouping part of the IR (it used to assert).
#blocked = #kgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"kgpu.num-warps" = 4 : i32, "kgpu.threads-per-warp" = 32 : i32} {
  tt.func public @laid_out(%p: !tt.ptr<f32>) {
    // expected-error @+1 {{kgpu-assign-layouts gives layouts to tensors that have none, but this result already has 'tensor<512xi32, #kgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>': run it once, on TTIR without layouts}}
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    tt.return
  }
}

// -----

#blocked = #kgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// expected-error @+1 {{kgpu-assign-layouts gives layouts to tensors that have none, but block argument #0 already has 'tensor<512xf32, #kgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>': run it once, on TTIR without layouts}}
tt.func public @laid_out_argument(%x: tensor<512xf32, #blocked>) {
  tt.return
}
