# lit suite: the compile cache through the `kiln` CLI (compile hits and
# misses, key canonicalization of the input, inspect, kiln cache ...).
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))
import lit_common  # noqa: E402

lit_common.configure(config, "kiln-cache", suffixes=(".test",), external=True)
config.test_source_root = os.path.dirname(__file__)
config.excludes += ["CacheTestUtil.cpp"]

for var in ("CUDA_HOME", "CUDA_PATH", "KILN_PTXAS", "KILN_LIBDEVICE"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
# Tests name their cache root with --cache-dir; nothing may fall back to the
# user's ~/.cache/kiln.
config.environment.pop("KILN_CACHE_DIR", None)
config.environment["XDG_CACHE_HOME"] = "/nonexistent-kiln-cache-test"

ptxas = os.environ.get("KILN_PTXAS") or shutil.which("ptxas")
if not ptxas:
    for root in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"),
                 "/usr/local/cuda"):
        if root and os.access(os.path.join(root, "bin", "ptxas"), os.X_OK):
            ptxas = os.path.join(root, "bin", "ptxas")
            break
if ptxas and os.access(ptxas, os.X_OK):
    config.available_features.add("ptxas")
    # The real assembler, for tests that wrap it.
    config.substitutions.append(("%ptxas", os.path.realpath(ptxas)))
config.substitutions.append(
    ("%key_of", "python3 -c \"import json,sys; print(json.load(open(sys.argv[1]+'/metadata.json'))['job_key'])\""))
