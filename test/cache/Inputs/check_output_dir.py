"""Checks that a kiln output directory holds one compile's artifacts.

Usage: check_output_dir.py DIR KERNEL REFDIR_PATTERN
metadata.json's num_warps picks the reference directory REFDIR_PATTERN %
num_warps (a --no-cache compile of that job) and every artifact kiln writes
for KERNEL must be in DIR exactly when it is in the reference, byte for
byte equal to it (metadata.json with the reference's job_key: the
--no-cache compile's job is the same job). Also reports anything else
kiln left in DIR (a staging folder; .kiln-lock, the lock file of a
directory kiln can write but not read, is kiln's by design). Prints "consistent" or one line per
problem.
"""
import json, os, sys

out, kernel, pattern = sys.argv[1], sys.argv[2], sys.argv[3]
names = [kernel + s for s in (".kgpu.mlir", ".llvm.mlir", ".ll", ".ptx", ".cubin")]
names += ["metadata.json"]
problems = []
try:
    warps = json.load(open(os.path.join(out, "metadata.json")))["num_warps"]
except (OSError, ValueError, KeyError) as e:
    print("no readable metadata.json: %s" % e)
    sys.exit(0)
ref = pattern % warps
for name in names:
    have = os.path.exists(os.path.join(out, name))
    want = os.path.exists(os.path.join(ref, name))
    if have != want:
        problems.append("%s %s" % (name, "is there" if have else "is missing"))
    elif have and open(os.path.join(out, name), "rb").read() != open(os.path.join(ref, name), "rb").read():
        problems.append("%s is not num_warps=%d's" % (name, warps))
extra = sorted(set(os.listdir(out)) - set(names) - {"timings.json", "stages", ".kiln-lock"})
if extra:
    problems.append("left: " + " ".join(extra))
print("\n".join(problems) if problems else "consistent")
