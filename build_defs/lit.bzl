"""lit suites as Bazel tests: a directory of test files run by LLVM's lit
with FileCheck, kiln's tools on PATH."""

def lit_suite(name, srcs, tools = [], env_files = {}, data = [], size = "medium", tags = []):
    """Runs lit over the package's lit.cfg.py and `srcs`.

    Args:
      name: test target name.
      srcs: test files and the suite's lit.cfg.py.
      tools: kiln binaries the tests call; their directories go on PATH.
      env_files: {ENV_NAME: label} files whose absolute paths the tests need
        (e.g. a plugin library for a lit substitution).
      data: further inputs.
      size: Bazel test size.
      tags: Bazel tags (e.g. "gpu").
    """
    args = ["$(location %s)" % t for t in tools]
    args += ["%s=$(location %s)" % (k, v) for k, v in env_files.items()]
    native.sh_test(
        name = name,
        srcs = ["//build_defs:run_lit.sh"],
        args = args + ["--", native.package_name()],
        data = srcs + tools + env_files.values() + data + [
            "//test:lit_common.py",
            "//test:lit_amdgpu_corpus.py",
            "//test:lit_corpus.py",
            "@llvm//:lit_tools",
        ],
        size = size,
        tags = tags,
    )
