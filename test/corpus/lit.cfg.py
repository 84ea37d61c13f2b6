# lit suite: every .ttir under the shared corpus (Triton 3.6 and Inductor
# output) parses, verifies and round-trips through kiln-opt:
#   1. parse + verify + print (with locations)             -> A
#   2. parse A + print                                     == A
#   3. print generic form, parse it, print custom form     == A
# The corpus lives outside the repo (../shared/corpus, or KILN_CORPUS_DIR).
# Without it the suite reports one UNSUPPORTED test saying so.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))
import lit_common  # noqa: E402
import lit_corpus  # noqa: E402

lit_common.configure(config, "ttir-corpus", suffixes=())
config.test_source_root = os.path.dirname(__file__)
config.test_format = lit_corpus.CorpusFormat()
