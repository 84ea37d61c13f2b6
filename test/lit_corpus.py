# lit test format for the TTIR corpus suite (test/corpus): one test per
# .ttir file of the shared corpus. Kept in a module (not lit.cfg.py) so lit's
# worker processes can unpickle it.
import os
import subprocess

import lit.formats
import lit.Test

PRINT_FLAGS = ["--mlir-print-debuginfo", "--mlir-use-nameloc-as-prefix"]


def _run(args, stdin=None):
    proc = subprocess.run(args, input=stdin, capture_output=True, timeout=120)
    return proc.returncode, proc.stdout, proc.stderr.decode(errors="replace")


class CorpusTestFormat(lit.formats.TestFormat):
    """One test per .ttir file of KILN_CORPUS_DIR/ttir (per variant, with
    `variants`: "<file>@<variant>"); without the corpus, one UNSUPPORTED test
    saying so. Subclasses implement run(test, litConfig)."""

    variants = ()

    def _corpus(self):
        root = os.environ.get("KILN_CORPUS_DIR", "")
        ttir = os.path.join(root, "ttir") if root else ""
        return ttir if ttir and os.path.isdir(ttir) else None

    def getTestsInDirectory(self, testSuite, path_in_suite, litConfig,
                            localConfig):
        if path_in_suite:
            return
        corpus = self._corpus()
        if corpus is None:
            yield lit.Test.Test(testSuite, ("corpus-missing",), localConfig)
            return
        for name in sorted(os.listdir(corpus)):
            if name.endswith(".ttir"):
                for variant in self.variants or (None,):
                    yield lit.Test.Test(
                        testSuite,
                        (name if variant is None else name + "@" + variant,),
                        localConfig, file_path=os.path.join(corpus, name))

    def execute(self, test, litConfig):
        if test.path_in_suite == ("corpus-missing",):
            return (lit.Test.UNSUPPORTED,
                    "skipped: the TTIR corpus was not found (set "
                    "KILN_CORPUS_DIR or keep shared/ beside the repo)")
        return self.run(test, litConfig)


class CorpusFormat(CorpusTestFormat):
    def run(self, test, litConfig):
        path = test.getFilePath()
        rc, a, err = _run(["kiln-opt", path] + PRINT_FLAGS)
        if rc != 0:
            return lit.Test.FAIL, "parse/verify failed:\n" + err
        rc, b, err = _run(["kiln-opt", "-"] + PRINT_FLAGS, stdin=a)
        if rc != 0:
            return lit.Test.FAIL, "re-parse of printed text failed:\n" + err
        if a != b:
            return lit.Test.FAIL, "print -> parse -> print changed the text"
        rc, g, err = _run(["kiln-opt", path, "--mlir-print-op-generic"] +
                          PRINT_FLAGS)
        if rc != 0:
            return lit.Test.FAIL, "generic print failed:\n" + err
        rc, c, err = _run(["kiln-opt", "-"] + PRINT_FLAGS, stdin=g)
        if rc != 0:
            return lit.Test.FAIL, "re-parse of generic form failed:\n" + err
        if c != a:
            return lit.Test.FAIL, "generic form did not round-trip to the same text"
        return lit.Test.PASS, ""


