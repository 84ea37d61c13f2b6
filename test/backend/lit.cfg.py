# lit suite: the NVPTX backend through `kiln compile` (LLVM-dialect kernels to
# PTX and cubin, libdevice linking, metadata.json, error reporting).
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))
import lit_common  # noqa: E402

lit_common.configure(config, "kiln-backend", suffixes=(".mlir", ".test"),
                     external=True)
config.test_source_root = os.path.dirname(__file__)

# Where kiln looks for the CUDA toolkit.
for var in ("CUDA_HOME", "CUDA_PATH", "KILN_PTXAS", "KILN_LIBDEVICE"):
    if var in os.environ:
        config.environment[var] = os.environ[var]


def cuda_roots():
    for var in ("CUDA_HOME", "CUDA_PATH"):
        if os.environ.get(var):
            yield os.environ[var]
    ptxas = shutil.which("ptxas")
    if ptxas:
        yield os.path.dirname(os.path.dirname(os.path.realpath(ptxas)))
    yield "/usr/local/cuda"


# Tests that run ptxas or link libdevice say `REQUIRES: ptxas` /
# `REQUIRES: libdevice`; without the CUDA toolkit they report UNSUPPORTED.
ptxas = os.environ.get("KILN_PTXAS") or shutil.which("ptxas")
libdevice = os.environ.get("KILN_LIBDEVICE")
for root in cuda_roots():
    if not ptxas and os.access(os.path.join(root, "bin", "ptxas"), os.X_OK):
        ptxas = os.path.join(root, "bin", "ptxas")
    candidate = os.path.join(root, "nvvm", "libdevice", "libdevice.10.bc")
    if not libdevice and os.path.isfile(candidate):
        libdevice = candidate
if ptxas and os.access(ptxas, os.X_OK):
    config.available_features.add("ptxas")
    # The real assembler, for tests that wrap it.
    config.substitutions.append(("%ptxas", os.path.realpath(ptxas)))
# The AMDGPU tests link with the LLVM prefix's ld.lld (on PATH through
# run_lit.sh) and read code objects with its llvm-readobj and llvm-objdump.
if all(shutil.which(t) for t in ("ld.lld", "llvm-readobj", "llvm-objdump")):
    config.available_features.add("amdgpu-tools")
for var in ("KILN_LLD", "KILN_LLVM_PREFIX", "KILN_ROCM_DEVICE_LIBS"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
if libdevice and os.path.isfile(libdevice):
    config.available_features.add("libdevice")

# Tests of corpus kernels say `REQUIRES: corpus` and read them from
# %corpus_ttir; without the shared corpus (KILN_CORPUS_DIR, which ./kilnw
# and build_defs/run_lit.sh point at ../shared/corpus) they report
# UNSUPPORTED, and lit says why.
corpus_root = os.environ.get("KILN_CORPUS_DIR", "")
corpus_ttir = os.path.join(corpus_root, "ttir") if corpus_root else ""
if corpus_ttir and os.path.isdir(corpus_ttir):
    config.available_features.add("corpus")
    config.substitutions.append(("%corpus_ttir", corpus_ttir))
else:
    lit_config.note("the TTIR corpus was not found (set KILN_CORPUS_DIR or "
                    "keep shared/ beside the repo): tests that need it are "
                    "UNSUPPORTED")

config.substitutions.append(
    ("%dump_metadata",
     "python3 " + os.path.join(config.test_source_root, "Inputs",
                               "dump_metadata.py")))

# `kiln compile` goes through the compile cache by default; give each run a
# fresh, private cache root so results never come from (or land in) the
# user's ~/.cache/kiln.
import tempfile  # noqa: E402
config.environment["KILN_CACHE_DIR"] = tempfile.mkdtemp(
    prefix="kiln-backend-cache-", dir=os.environ.get("TEST_TMPDIR"))
