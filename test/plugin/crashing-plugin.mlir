// A plugin that crashes while it registers its passes: kiln-opt ends by the
// signal with LLVM's stack dump (the plugin's frame in it) under kiln-opt's
// own message, where it ended with nothing on stderr before (helper-78).
// RUN: not --crash kiln-opt %s -canonicalize --load-pass-plugin=%kiln_crashing_plugin 2>&1 | FileCheck %s
// CHECK: kiln-opt crashed. The stack dump below shows where
// CHECK: Stack dump
// CHECK: {{^(# \| )? *#?[0-9]+ .*libKilnCrashingPlugin.so}}

tt.func public @k() {
  tt.return
}
