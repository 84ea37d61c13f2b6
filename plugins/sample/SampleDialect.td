//===- SampleDialect.td - the sample plugin's dialect ------*- tablegen -*-===//
//
// A dialect that ships outside kiln-opt, loaded with --load-dialect-plugin.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PLUGINS_SAMPLE_SAMPLEDIALECT_TD
#define KILN_PLUGINS_SAMPLE_SAMPLEDIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Sample_Dialect : Dialect {
  let name = "sample";
  let cppNamespace = "::kiln::sample";
  let summary = "dialect of the sample kiln plugin";
}

def Sample_NoteOp : Op<Sample_Dialect, "note", [Pure]> {
  let summary = "a free-form note attached to the IR";
  let arguments = (ins StrAttr:$text);
  let assemblyFormat = "$text attr-dict";
}

#endif // KILN_PLUGINS_SAMPLE_SAMPLEDIALECT_TD
