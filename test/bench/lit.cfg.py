# lit suite: the benchmark scripts' argument errors (bench/*.py), which
# must stop a run before it starts, with a message naming the argument.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))
import lit_common  # noqa: E402

lit_common.configure(config, "kiln-bench", suffixes=(".test",), external=True)
config.test_source_root = os.path.dirname(__file__)
for var, sub in (("KILN_BENCH_COLD_COMPILE", "%cold_compile_local"),
                 ("KILN_BENCH_PTXAS_PROBE", "%ptxas_env_probe"),
                 ("KILN_BENCH_NEIGHBOURS", "%cold_compile_neighbours"),
                 ("KILN_BENCH_PLACEMENT", "%triton_placement_probe"),
                 ("KILN_BENCH_PTX_ORDER", "%ptx_order_probe"),
                 ("KILN_BENCH_TIMELINE", "%timeline")):
    config.substitutions.append((sub, "python3 " + os.environ[var]))
config.substitutions.append(("%bolt_kiln", "bash " + os.environ["KILN_BOLT_SCRIPT"]))
