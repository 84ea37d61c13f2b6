"""A stand-in for ptxas's compile run, used by signal-cleanup.test: reads
its input (the last argument: kiln's FIFO) to the end, lowers kiln's (its
parent's) address-space soft limit to 16 MiB above what kiln has mapped,
sends kiln the signal named by KILN_TEST_SIGNAL, and waits to be killed.

A fault signal another process sends says nothing about memory, even near
the limit: kiln's fault handler must not say "out of memory, most likely".
"""

import os
import resource
import signal
import sys
import time

with open(sys.argv[-1], "rb") as source:
    source.read()
kiln = os.getppid()
with open(f"/proc/{kiln}/status") as status:
    fields = dict(line.split(":", 1) for line in status)
mapped = int(fields["VmSize"].split()[0]) << 10
_, hard = resource.prlimit(kiln, resource.RLIMIT_AS)
resource.prlimit(kiln, resource.RLIMIT_AS, (mapped + (16 << 20), hard))
os.kill(kiln, getattr(signal, "SIG" + os.environ["KILN_TEST_SIGNAL"]))
time.sleep(5)
