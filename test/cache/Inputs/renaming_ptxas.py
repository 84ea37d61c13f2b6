"""A ptxas wrapper that renames kiln's output directory mid-compile.

Runs the real ptxas ($KILN_TEST_PTXAS) for --version / --help. For the
compile it reads its whole input (kiln's PTX, so the output directory's
staging folder holds the earlier stages by then), renames
$KILN_TEST_FROM to $KILN_TEST_TO, and assembles a copy of the input.
"""
import os
import sys

ptxas = os.environ["KILN_TEST_PTXAS"]
args = sys.argv[1:]
if "--version" in args or "--help" in args:
    os.execv(ptxas, [ptxas] + args)
data = open(args[-1], "rb").read()
os.rename(os.environ["KILN_TEST_FROM"], os.environ["KILN_TEST_TO"])
copy = os.environ["KILN_TEST_TO"] + ".input.ptx"
with open(copy, "wb") as f:
    f.write(data)
os.execv(ptxas, [ptxas] + args[:-1] + [copy])
