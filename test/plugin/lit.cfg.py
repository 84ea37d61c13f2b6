# lit suite: out-of-tree pass and dialect plugins loaded by kiln-opt.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))
import lit_common  # noqa: E402

lit_common.configure(config, "plugins")
config.test_source_root = os.path.dirname(__file__)
