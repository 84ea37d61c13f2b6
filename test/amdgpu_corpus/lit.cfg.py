# lit suite: every .ttir under the shared corpus compiles for gfx90a and
# gfx942 with a code object whose metadata note matches the kernel, or is
# rejected naming what the target lacks; see test/lit_amdgpu_corpus.py.
# The corpus lives outside the repo (../shared/corpus, or KILN_CORPUS_DIR);
# without it the suite reports one UNSUPPORTED test saying so.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))
import lit_common  # noqa: E402
import lit_amdgpu_corpus  # noqa: E402

lit_common.configure(config, "amdgpu-corpus", suffixes=())
config.test_source_root = os.path.dirname(__file__)
config.test_format = lit_amdgpu_corpus.AMDGPUCorpusFormat()
for var in ("KILN_LLD", "KILN_LLVM_PREFIX", "KILN_ROCM_DEVICE_LIBS"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
