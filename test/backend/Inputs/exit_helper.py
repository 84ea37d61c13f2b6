"""Runs `kiln compile ARGS...` as a child subreaper would see it: checks the
exit status and output, then reaps the processes kiln leaves behind (the
helper of tools/common/ExitLeavingAddressSpace.h, and a ptxas kiln did not
wait for) and prints what they were.

Usage: exit_helper.py EXPECTED_STATUS KILN ARGS...
"""
import ctypes
import os
import subprocess
import sys
import time

PR_SET_CHILD_SUBREAPER = 36


def main():
    expected = int(sys.argv[1])
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        sys.exit("prctl(PR_SET_CHILD_SUBREAPER) failed")
    kiln = subprocess.Popen(sys.argv[2:], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    # Both pipes reach end-of-file: no process left behind holds them.
    out, err = kiln.communicate(timeout=120)
    print(f"status {kiln.returncode}")
    if kiln.returncode != expected:
        sys.stdout.write(out.decode() + err.decode())
        sys.exit(f"expected status {expected}")
    sys.stdout.write(out.decode())
    sys.stdout.write(err.decode())
    # Orphans come to this process; each must end by itself, promptly.
    left = []
    deadline = time.monotonic() + 10
    while True:
        try:
            info = os.waitid(os.P_ALL, 0,
                             os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            break
        if info is None:
            if time.monotonic() > deadline:
                sys.exit("a process kiln left behind did not end within 10 s")
            time.sleep(0.01)
            continue
        with open(f"/proc/{info.si_pid}/comm") as comm:
            name = comm.read().strip()
        _, status = os.waitpid(info.si_pid, 0)
        left.append((name, os.waitstatus_to_exitcode(status)))
    for name, code in sorted(left):
        print(f"left behind: {name}, exit status {code}")


if __name__ == "__main__":
    main()
