"""Repository rule exposing an installed LLVM/MLIR 22 prefix to Bazel.

The prefix comes from the `prefix` attribute, else the environment variable
KILN_LLVM_PREFIX, else Debian's `/usr/lib/llvm-22`. The prefix's include/,
lib/ and bin/ are symlinked into the generated repository, so no BUILD file
of kiln names a path of the machine.
"""

_DEFAULT_PREFIX = "/usr/lib/llvm-22"

def _llvm_configure_impl(ctx):
    prefix = ctx.attr.prefix or ctx.os.environ.get("KILN_LLVM_PREFIX", "") or _DEFAULT_PREFIX
    root = ctx.path(prefix)
    if not root.exists:
        fail("LLVM prefix %s does not exist; set KILN_LLVM_PREFIX or install llvm-22-dev" % prefix)
    for sub in ["include", "lib", "bin"]:
        if not root.get_child(sub).exists:
            fail("LLVM prefix %s has no %s/ directory" % (prefix, sub))
        ctx.symlink(root.get_child(sub), sub)
    tblgen = root.get_child("bin").get_child("mlir-tblgen")
    if not tblgen.exists:
        fail("%s/bin/mlir-tblgen not found; install mlir-22-tools" % prefix)
    version = ctx.execute([str(root.get_child("bin").get_child("llvm-config")), "--version"]).stdout.strip()
    ctx.file("WORKSPACE", "workspace(name = \"%s\")\n" % ctx.name)
    ctx.template("BUILD.bazel", ctx.attr._build_tpl, {
        "%{prefix_lib}": str(root.get_child("lib")),
        "%{version}": version,
    })

llvm_configure = repository_rule(
    implementation = _llvm_configure_impl,
    attrs = {
        "prefix": attr.string(doc = "LLVM install prefix; overrides KILN_LLVM_PREFIX"),
        "_build_tpl": attr.label(default = "//third_party/llvm:llvm.BUILD.tpl"),
    },
    environ = ["KILN_LLVM_PREFIX"],
    local = True,
)
