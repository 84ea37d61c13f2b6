"""Prints an artifact directory's metadata.json as flat `key: value` lines
for FileCheck, after checking that the binary it names exists, is an ELF
file and matches the recorded size and SHA-256 (printed as `binary: ok`)."""
import hashlib
import json
import os
import sys


def flatten(prefix, value, out):
    if isinstance(value, dict):
        for key, item in value.items():
            flatten(f"{prefix}.{key}" if prefix else key, item, out)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            flatten(f"{prefix}[{index}]", item, out)
    else:
        out.append(f"{prefix}: {json.dumps(value)}")


def main(directory):
    with open(os.path.join(directory, "metadata.json")) as f:
        meta = json.load(f)
    binary = meta["binary"]
    with open(os.path.join(directory, binary["file"]), "rb") as f:
        data = f.read()
    problems = []
    if data[:4] != b"\x7fELF":
        problems.append("not an ELF file")
    if len(data) != binary["size"]:
        problems.append(f"size {len(data)} != {binary['size']}")
    if hashlib.sha256(data).hexdigest() != binary["sha256"]:
        problems.append("sha256 mismatch")
    lines = []
    flatten("", meta, lines)
    print("\n".join(lines))
    print("binary: " + ("; ".join(problems) if problems else "ok"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
