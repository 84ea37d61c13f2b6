"""Runs mlir-tblgen from the configured LLVM prefix over kiln's .td files."""

load("@rules_cc//cc:defs.bzl", "cc_library")

def gentbl(name, td_file, outs, td_srcs = [], deps = []):
    """Generates C++ from one .td file.

    Args:
      name: name of the resulting cc_library holding the generated headers.
      td_file: the .td file to run mlir-tblgen on.
      outs: list of (flags, output) pairs, e.g. ("-gen-op-decls", "TTOps.h.inc").
      td_srcs: further .td files `td_file` includes.
      deps: cc deps the generated code needs.
    """
    srcs = [td_file] + [s for s in td_srcs if s != td_file] + ["@llvm//:td_files"]
    hdrs = []
    for flags, out in outs:
        rule_name = "%s_%s_genrule" % (name, out.replace(".", "_").replace("/", "_"))
        native.genrule(
            name = rule_name,
            srcs = srcs,
            outs = [out],
            tools = ["@llvm//:mlir-tblgen"],
            cmd = ("$(location @llvm//:mlir-tblgen) %s $(location %s) " +
                   "-I external/llvm/include -I $$(dirname $(location %s)) -I . " +
                   "-o $@") % (flags, td_file, td_file),
        )
        hdrs.append(out)
    cc_library(
        name = name,
        textual_hdrs = hdrs,
        deps = deps,
    )
