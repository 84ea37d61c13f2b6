"""Runs `kiln ARGS...` in a session of its own with the shim of
GroupSignalAtExec.c preloaded, and reports how it ended: its status (or
"hung" after 20 s), and any process of its process group still there.

Usage: signal_at_spawn.py [--in-child | --at-log] [--signal NAME] SHIM KILN
ARGS... (the signal the shim sends: SIGINT unless NAME, such as SEGV, is
given; at the child's execve, with --in-child at its first sigaction call,
with --at-log to kiln when it creates ptxas's .log; no core files)
"""
import os
import resource
import signal
import subprocess
import sys
import time


def group_members(pgid):
    members = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # fields[0] is the state, fields[2] the process group.
        if int(fields[2]) == pgid and fields[0] != "Z":
            members.append(pid)
    return members


def main():
    # A caller started in the background may have SIGINT ignored, which kiln
    # (and its children) would keep: give it the default action to inherit.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    args = sys.argv[1:]
    number, where = "1", "KILN_TEST_SIGNAL_AT_EXEC"
    if args[0] == "--in-child":
        where = "KILN_TEST_SIGNAL_IN_CHILD"
        args = args[1:]
    elif args[0] == "--at-log":
        where = "KILN_TEST_SIGNAL_AT_LOG"
        args = args[1:]
    if args[0] == "--signal":
        number = str(int(getattr(signal, "SIG" + args[1])))
        args = args[2:]
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    env = dict(os.environ, LD_PRELOAD=args[0])
    env[where] = number
    kiln = subprocess.Popen(args[1:], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)
    try:
        kiln.communicate(timeout=20)
        print(f"status {kiln.returncode}")
    except subprocess.TimeoutExpired:
        print("hung")
        os.killpg(kiln.pid, signal.SIGKILL)
        kiln.communicate()
    time.sleep(0.2)
    left = group_members(kiln.pid)
    print(f"left in the process group: {len(left)}")
    for pid in left:
        os.kill(int(pid), signal.SIGKILL)


if __name__ == "__main__":
    main()
