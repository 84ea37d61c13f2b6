# lit suite: the kgpu dialect (layout round trips, verifier errors).
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", ".."))
import lit_common  # noqa: E402

lit_common.configure(config, "kgpu-dialect")
config.test_source_root = os.path.dirname(__file__)
