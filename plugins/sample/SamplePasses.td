//===- SamplePasses.td - the sample plugin's passes --------*- tablegen -*-===//

#ifndef KILN_PLUGINS_SAMPLE_SAMPLEPASSES_TD
#define KILN_PLUGINS_SAMPLE_SAMPLEPASSES_TD

include "mlir/Pass/PassBase.td"

def SampleTagKernels : Pass<"sample-tag-kernels", "::mlir::ModuleOp"> {
  let summary = "tag every function with the number of ops in its body";
  let description = [{
    Sets `sample.num_ops = N : i64` on each function-like op, N counting
    every op nested in its body. It shows how an out-of-tree pass, loaded
    with `kiln-opt --load-pass-plugin`, runs over TTIR.

    Before:
    ```mlir
    tt.func @k() { tt.return }
    ```
    After (`--pass-pipeline='builtin.module(sample-tag-kernels{tag=seen})'`):
    ```mlir
    tt.func @k() attributes {sample.num_ops = 1 : i64, sample.tag = "seen"} {
      tt.return
    }
    ```
  }];
  let options = [
    Option<"tag", "tag", "std::string", /*default=*/"\"\"",
           "if set, also attach sample.tag = <tag>">,
  ];
}

#endif // KILN_PLUGINS_SAMPLE_SAMPLEPASSES_TD
