// The sample plugin built in plugins/sample, loaded as a pass plugin and as
// a dialect plugin.
// RUN: kiln-opt %s --load-pass-plugin=%kiln_sample_plugin --load-dialect-plugin=%kiln_sample_plugin --pass-pipeline='builtin.module(sample-tag-kernels{tag=seen})' | FileCheck %s --enable-var-scope
// Without the dialect plugin the sample dialect is unknown.
// RUN: not kiln-opt %s 2>&1 | FileCheck %s --check-prefix=NODIALECT
// A missing plugin file is an error, not a crash.
// RUN: not kiln-opt %s --load-pass-plugin=%t.does-not-exist.so 2>&1 | FileCheck %s --check-prefix=NOPLUGIN

// CHECK-LABEL: tt.func public @k(
// CHECK-SAME: attributes {noinline = false, sample.num_ops = 3 : i64, sample.tag = "seen"}
// CHECK: sample.note "from a plugin dialect"
// NODIALECT: Dialect `sample' not found for custom op 'sample.note'
// NOPLUGIN: Failed to load passes from
tt.func public @k(%p: !tt.ptr<f32>) attributes {noinline = false} {
  %c = arith.constant 1.0 : f32
  sample.note "from a plugin dialect"
  tt.return
}
