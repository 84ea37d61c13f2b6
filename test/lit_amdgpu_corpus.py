# lit test format for the AMDGPU corpus suite (test/amdgpu_corpus): one test
# per (.ttir file of the shared corpus, target) pair, target gfx90a and
# gfx942. Each kernel either
#   - compiles, and its code object's AMDGPU metadata note (llvm-readobj
#     --notes) has the kernel's descriptor: its name, wavefront size 64,
#     one explicit kernel argument per signature entry with the size its
#     type has (pointers 8 bytes), a kernarg segment covering them, and LDS
#     (static + kiln's dynamic) within the 64 KiB a CDNA workgroup has; or
#   - fails with an error naming a feature or limit the target lacks
#     (more than 65536 bytes of shared memory). Any other failure is a
#     test failure. (f8E4M3FN dot operands compile: they are upcast to f16
#     exactly, tt-upcast-f8-dot-operands; tensor descriptors too: they are
#     rewritten into pointer loads by tt-lower-tensor-descriptors.)
# Kept in a module (not lit.cfg.py) so lit's worker processes can unpickle it.
import json
import os
import re
import shutil
import subprocess
import tempfile

import lit.Test

import lit_corpus

TARGETS = ("gfx90a", "gfx942")
LDS_LIMIT = 65536
# Errors that name something the target lacks (the exceptions).
ACCEPTED_FAILURES = (
    re.compile(r"needs \d+ bytes of shared memory .* at most 65536 on (amdgpu|gfx\w+)"),
)
ARG_SIZES = {"i1": 1, "i8": 1, "i16": 2, "i32": 4, "i64": 8, "f16": 2,
             "bf16": 2, "f32": 4, "f64": 8}


def _run(args):
    proc = subprocess.run(args, capture_output=True, timeout=300)
    return (proc.returncode, proc.stdout.decode(errors="replace"),
            proc.stderr.decode(errors="replace"))


def _kernel_note(notes, kernel):
    """The `.args` sizes and scalar fields of `kernel` in readobj's YAML."""
    lines = notes.splitlines()
    start = None
    for i, line in enumerate(lines):
        if re.match(r"\s*\.name:\s+%s\s*$" % re.escape(kernel), line):
            start = i
    if start is None:
        return None
    # The kernel's map begins at the preceding "  - " line of amdhsa.kernels.
    begin = start
    while begin > 0 and not re.match(r"^  - ", lines[begin]):
        begin -= 1
    end = start + 1
    while end < len(lines) and not re.match(r"^  - |^amdhsa\.", lines[end]):
        end += 1
    block = lines[begin:end]
    fields, args, current = {}, [], None
    for line in block:
        m = re.match(r"^\s*(- )?\.(\w+):\s*(\S*)\s*$", line)
        if not m:
            continue
        indent = len(line) - len(line.lstrip())
        key, value = m.group(2), m.group(3)
        if indent >= 6:  # inside .args
            if m.group(1):
                current = {}
                args.append(current)
            if current is not None:
                current[key] = value
        else:
            fields[key] = value
    return fields, args


class AMDGPUCorpusFormat(lit_corpus.CorpusTestFormat):
    variants = TARGETS

    def run(self, test, litConfig):
        target = test.path_in_suite[0].rsplit("@", 1)[1]
        out = tempfile.mkdtemp(prefix="kiln-amdgpu-corpus-")
        try:
            return self._check(test.getFilePath(), target, out)
        finally:
            shutil.rmtree(out, ignore_errors=True)

    def _check(self, path, target, out):
        rc, stdout, err = _run(["kiln", "compile", "--no-cache", "--target",
                                target, "-o", out, path])
        if rc != 0:
            for pattern in ACCEPTED_FAILURES:
                if pattern.search(err):
                    if "Assertion" in err or "Stack dump" in err:
                        return lit.Test.FAIL, "crashed:\n" + err
                    return lit.Test.PASS, "rejected as expected:\n" + err
            return lit.Test.FAIL, "compile failed:\n" + err
        with open(os.path.join(out, "metadata.json")) as f:
            meta = json.load(f)
        kernel = meta["kernel"]
        hsaco = os.path.join(out, meta["binary"]["file"]) if isinstance(
            meta.get("binary"), dict) else os.path.join(out, kernel + ".hsaco")
        rc, notes, err = _run(["llvm-readobj", "--notes", hsaco])
        if rc != 0:
            return lit.Test.FAIL, "llvm-readobj failed:\n" + err
        if "amdhsa.target:   amdgcn-amd-amdhsa--" + target not in notes:
            return lit.Test.FAIL, "code object is not for %s:\n%s" % (target, notes)
        parsed = _kernel_note(notes, kernel)
        if parsed is None:
            return lit.Test.FAIL, "no kernel descriptor named %s:\n%s" % (kernel, notes)
        fields, args = parsed
        problems = []
        if fields.get("symbol") != kernel + ".kd":
            problems.append("descriptor symbol %r" % fields.get("symbol"))
        if fields.get("wavefront_size") != "64":
            problems.append("wavefront size %r" % fields.get("wavefront_size"))
        explicit = [a for a in args
                    if a.get("value_kind") in ("global_buffer", "by_value")]
        signature = meta["signature"]
        if len(explicit) != len(signature):
            problems.append("%d explicit kernel arguments, signature has %d"
                            % (len(explicit), len(signature)))
        end = 0
        for arg, sig in zip(explicit, signature):
            ty = sig["type"]
            want = 8 if ty.startswith("ptr<") else ARG_SIZES.get(ty)
            got = int(arg.get("size", -1))
            if want is None or got != want:
                problems.append("argument %s (%s): %d bytes in the kernarg "
                                "segment, expected %r" % (sig["name"], ty, got, want))
            if ty.startswith("ptr<") and arg.get("value_kind") != "global_buffer":
                problems.append("argument %s is not a global_buffer" % sig["name"])
            end = max(end, int(arg.get("offset", 0)) + got)
        kernarg = int(fields.get("kernarg_segment_size", -1))
        if kernarg < end:
            problems.append("kernarg segment %d bytes < %d the arguments need"
                            % (kernarg, end))
        lds = int(fields.get("group_segment_fixed_size", -1))
        shared = int(meta.get("shared_bytes", meta.get("shared", 0)) or 0)
        if lds < 0 or lds > LDS_LIMIT or shared > LDS_LIMIT:
            problems.append("LDS %d static / %d in metadata over %d"
                            % (lds, shared, LDS_LIMIT))
        if problems:
            return lit.Test.FAIL, "\n".join(problems) + "\n" + notes
        return lit.Test.PASS, ""
