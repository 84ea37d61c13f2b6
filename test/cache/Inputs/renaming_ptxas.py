"""A ptxas wrapper that renames kiln's output directory mid-compile.

Runs the real ptxas ($KILN_TEST_PTXAS) for --version / --help. For the
compile it reads its whole input (kiln's PTX, so the output directory's
staging folder holds the earlier stages by then), renames
$KILN_TEST_FROM to $KILN_TEST_TO, and assembles a copy of the input; with
$KILN_TEST_SIGNAL (a signal name such as TERM) it sends that signal to
kiln (its parent) after the rename instead, and waits.
"""
import os
import signal
import sys
import time

ptxas = os.environ["KILN_TEST_PTXAS"]
args = sys.argv[1:]
if "--version" in args or "--help" in args:
    os.execv(ptxas, [ptxas] + args)
data = open(args[-1], "rb").read()
os.rename(os.environ["KILN_TEST_FROM"], os.environ["KILN_TEST_TO"])
if os.environ.get("KILN_TEST_SIGNAL"):
    os.kill(os.getppid(), getattr(signal, "SIG" + os.environ["KILN_TEST_SIGNAL"]))
    time.sleep(5)
    sys.exit(1)
copy = os.environ["KILN_TEST_TO"] + ".input.ptx"
with open(copy, "wb") as f:
    f.write(data)
os.execv(ptxas, [ptxas] + args[:-1] + [copy])
