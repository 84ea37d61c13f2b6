"""Checks that every entry of a kiln cache root holds its own job's artifacts.

Usage: check_entries.py ROOT REFDIR_PATTERN
For each entry, the job's num_warps (manifest.json) picks the reference
directory REFDIR_PATTERN % num_warps (a --no-cache compile of that job);
each stored artifact must equal the reference's file of that name, and
metadata.json's job_key must be the entry's key. Prints one line per bad
entry and "N entries, M bad".
"""
import json, os, sys

root, pattern = sys.argv[1], sys.argv[2]
n = bad = 0
for shard in sorted(os.listdir(os.path.join(root, "v1"))):
    for key in sorted(os.listdir(os.path.join(root, "v1", shard))):
        entry = os.path.join(root, "v1", shard, key)
        manifest = json.load(open(os.path.join(entry, "manifest.json")))
        warps = manifest["job"]["options"]["num_warps"]
        ref = pattern % warps
        n += 1
        problems = []
        for a in manifest["artifacts"]:
            name = a["name"]
            got = open(os.path.join(entry, name), "rb").read()
            want = open(os.path.join(ref, name), "rb").read()
            if name == "metadata.json" and json.loads(got)["job_key"] != key:
                problems.append("metadata.json names another job")
                continue
            if got != want:
                problems.append(name + " differs from num_warps=%d's" % warps)
        if problems:
            bad += 1
            print("bad: num_warps=%d %s: %s" % (warps, key[:16], "; ".join(problems)))
print("%d entries, %d bad" % (n, bad))
