# lit suite: kiln's passes (layout assignment, lowering to LLVM) and pipelines.
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import lit_common  # noqa: E402

lit_common.configure(config, "passes")
config.test_source_root = os.path.dirname(__file__)
