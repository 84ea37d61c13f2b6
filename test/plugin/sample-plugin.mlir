// The sample plugin built in plugins/sample, loaded as a pass plugin and as
// a dialect plugin.
// RUN: kiln-opt %s --load-pass-plugin=%kiln_sample_plugin --load-dialect-plugin=%kiln_sample_plugin --pass-pipeline='builtin.module(sample-tag-kernels{tag=seen})' | FileCheck %s --enable-var-scope
// Without the dialect plugin the sample dialect is unknown.
// RUN: not kiln-opt %s 2>&1 | FileCheck %s --check-prefix=NODIALECT
// The option's other spelling, `--load-pass-plugin PATH`.
// RUN: kiln-opt %s --load-pass-plugin %kiln_sample_plugin --load-dialect-plugin %kiln_sample_plugin --pass-pipeline='builtin.module(sample-tag-kernels{tag=seen})' | FileCheck %s --enable-var-scope
// A plugin that cannot be loaded (a missing file, a file that is not a
// shared library, as a pass or a dialect plugin) is an error with the
// loader's reason and exit status 1, before anything runs. MlirOptMain
// alone printed "Failed to load passes from ... Request ignored." and went
// on to exit 0 without the plugin's passes (helper-78).
// RUN: not kiln-opt %s --load-pass-plugin=%t.does-not-exist.so 2>&1 | FileCheck %s --check-prefix=NOPLUGIN
// RUN: echo 'not a library' > %t.notelf.so
// RUN: not kiln-opt %s -canonicalize --load-pass-plugin %t.notelf.so 2>&1 | FileCheck %s --check-prefix=NOTELF
// RUN: not kiln-opt %s -canonicalize -load-dialect-plugin=%t.notelf.so 2>&1 | FileCheck %s --check-prefix=NOTELFDIALECT

// CHECK-LABEL: tt.func public @k(
// CHECK-SAME: attributes {noinline = false, sample.num_ops = 3 : i64, sample.tag = "seen"}
// CHECK: sample.note "from a plugin dialect"
// NODIALECT: Dialect `sample' not found for custom op 'sample.note'
// NOPLUGIN: kiln-opt: error: --load-pass-plugin={{.*}}does-not-exist.so: cannot load the plugin: Could not load library {{.*}}does-not-exist.so{{.*}}No such file or directory
// NOPLUGIN-NOT: Request ignored
// NOTELF: kiln-opt: error: --load-pass-plugin={{.*}}notelf.so: cannot load the plugin: Could not load library {{.*}}notelf.so
// NOTELF-NOT: tt.func
// NOTELFDIALECT: kiln-opt: error: --load-dialect-plugin={{.*}}notelf.so: cannot load the plugin:
tt.func public @k(%p: !tt.ptr<f32>) attributes {noinline = false} {
  %c = arith.constant 1.0 : f32
  sample.note "from a plugin dialect"
  tt.return
}
