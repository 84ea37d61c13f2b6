# lit suite: kiln-opt as a tool (bad input, exit codes, diagnostics).
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))
import lit_common  # noqa: E402

lit_common.configure(config, "kiln-opt", suffixes=(".mlir", ".test"),
                      external=True)
config.test_source_root = os.path.dirname(__file__)
