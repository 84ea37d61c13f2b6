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

    # The portable (static) link: every libMLIR*.a and libLLVM*.a of the
    # prefix in one archive group (the linker pulls only the members kiln
    # references, --gc-sections drops unused sections of those).
    archives = sorted([
        f.basename
        for f in root.get_child("lib").readdir()
        if f.basename.endswith(".a") and
           (f.basename.startswith("libMLIR") or f.basename.startswith("libLLVM"))
    ])

    # `static/` holds only static archives of the system libraries that
    # kiln's link names with -l (libstdc++ from Bazel's toolchain, libcrypto
    # from cache/, zlib and zstd from LLVM Support). Searched first with -L,
    # it makes each -lNAME resolve to libNAME.a, so the binary needs only
    # glibc at run time. A library without a static archive here stays
    # dynamic (reported by `ldd`; see docs/PORTABLE.md).
    static_found = []
    static_missing = []
    gcc = ctx.which("gcc") or ctx.which("cc")
    for name in ["libstdc++.a", "libcrypto.a", "libz.a", "libzstd.a"]:
        path = ""
        if gcc:
            res = ctx.execute([str(gcc), "-print-file-name=" + name])
            out = res.stdout.strip()
            if res.return_code == 0 and out.startswith("/") and ctx.path(out).exists:
                path = out
        if path:
            ctx.symlink(path, "static/" + name)
            static_found.append(name)
        else:
            static_missing.append(name)
    if not static_found:
        ctx.file("static/README", "no static system archives found\n")

    # System libraries LLVM's static archives need (llvm-config
    # --system-libs --link-static, minus libxml2 and libz3, whose users kiln
    # never pulls in). Without libzstd.a (Debian: libzstd-dev), zstd stays
    # dynamic on libzstd.so.1, which every Debian/Ubuntu base system has.
    syslibs = ["-lz", "-lzstd" if "libzstd.a" in static_found else "-l:libzstd.so.1"]

    ctx.file("WORKSPACE", "workspace(name = \"%s\")\n" % ctx.name)
    ctx.template("BUILD.bazel", ctx.attr._build_tpl, {
        "%{prefix_lib}": str(root.get_child("lib")),
        "%{version}": version,
        "%{static_dir}": str(ctx.path("static")),
        "%{static_found}": ", ".join(static_found) or "none",
        "%{static_missing}": ", ".join(static_missing) or "none",
        "%{static_syslibs}": ", ".join(["\"%s\"" % l for l in syslibs]),
        "%{static_archives}": "\n".join([
            "        \"%s/%s\"," % (str(root.get_child("lib")), a)
            for a in archives
        ]),
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
