# Shared lit setup for kiln's suites: ShTest format, tools from PATH (the
# Bazel wrapper build_defs/run_lit.sh puts kiln's binaries and LLVM's
# FileCheck/not/count there), and the corpus location.
import os

import lit.formats


def configure(config, name, suffixes=(".mlir",), external=False):
    """external=True runs RUN lines with bash (for `$?` and the like)."""
    config.name = name
    config.test_format = lit.formats.ShTest(execute_external=external)
    config.suffixes = list(suffixes)
    config.excludes = ["lit.cfg.py", "BUILD.bazel", "Inputs"]
    config.environment["PATH"] = os.environ.get("PATH", "")
    for var in ("HOME", "KILN_CORPUS_DIR", "TMPDIR"):
        if var in os.environ:
            config.environment[var] = os.environ[var]
    for var, sub in (("KILN_SAMPLE_PLUGIN", "%kiln_sample_plugin"),
                     ("KILN_CRASHING_PLUGIN", "%kiln_crashing_plugin"),
                     ("KILN_SLOW_MKSTEMP", "%kiln_slow_mkstemp"),
                     ("KILN_NO_THREADS", "%kiln_no_threads"),
                     ("KILN_SIGNAL_AT_EXEC", "%kiln_signal_at_exec")):
        if var in os.environ:
            config.substitutions.append((sub, os.environ[var]))
