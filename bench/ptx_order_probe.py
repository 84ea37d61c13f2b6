#!/usr/bin/env python3
"""Re-sort a straight-line PTX kernel's instructions, dependences kept.

    python3 bench/ptx_order_probe.py IN.ptx MODE OUT.ptx

ptxas's choices can follow the order of the PTX it is given (seen for the
corpus kernel triton_poi_fused_mul_native_dropout_0: whether its Philox
key schedule runs on the uniform datapath; docs/BENCHMARKS.md, thirty-ninth
session). This writes the same instructions in another order, so that
ptxas can be tried on each and the cubins timed (bench/conformance/
ab_time.py, with the cubin and its SHA-256 put into a copy of kiln's
artifact directory). MODE:

  asap          every instruction as early as its operands allow
  alap          every instruction as late as its uses allow
  dfs           depth-first from each store: one element's chain at a time
  uniform-first the instructions that depend neither on %tid nor on data
                loaded by a vector load, first (in their order), then the
                rest (in theirs)

Only a kernel body of one basic block (no labels or branches) between its
`.reg` declarations and `ret;` is handled, with one destination per
instruction except vector loads and `mov.b64 {_, %r}`. Only instructions
that read and write registers alone move freely (PURE below); loads move
among loads, and nothing moves past a store, barrier, atomic or shuffle.
A register written twice keeps its readers before the second write, and
its first write before the second (a guarded `@%p` instruction may leave
the old value). Anything else is refused with exit status 2 and the line
named.
"""
import argparse
import collections
import os
import re
import sys

REG = re.compile(r"%[a-z]+\d+")


class Refused(Exception):
    pass


def parse(lines):
    regs = [i for i, l in enumerate(lines) if l.strip().startswith(".reg")]
    rets = [i for i, l in enumerate(lines) if l.strip() == "ret;"]
    if not regs or not rets or rets[0] < regs[-1]:
        raise Refused("no kernel body (`.reg` declarations, then instructions, then `ret;`)")
    if len(rets) > 1:
        raise Refused(f"line {rets[1] + 1}: a second `ret;` (one kernel, one block only)")
    start, end = regs[-1] + 1, rets[0]
    insts = []
    for number in range(start, end):
        l = lines[number]
        s = l.strip()
        if not s or s.startswith("//"):
            continue
        guard = []
        m = re.match(r"@!?(%\w+)\s+(.*)", s)
        if m:  # a guarded instruction: its predicate is one more operand
            guard, s = [m.group(1)], m.group(2)
        if s.startswith(("$", "@", "bra", "{", "}", ".")) or s.endswith(":") or not s.endswith(";"):
            raise Refused(f"line {number + 1}: not an instruction of one straight-line block: {lines[number].strip()}")
        op, rest = s.split(None, 1) if len(s.split(None, 1)) == 2 else (s, "")
        if op.startswith("st."):
            defs, uses = [], REG.findall(rest)
        elif op.startswith("mov.b64") and "{_," in rest:
            m = re.match(r"\s*\{_, (%\w+)\}, (%\w+);", rest)
            if not m:
                raise Refused(f"line {number + 1}: unexpected operands: {s}")
            defs, uses = [m.group(1)], [m.group(2)]
        elif op.startswith("ld.") and "{" in rest:
            m = re.match(r"\s*\{([^}]*)\}, \[(.*)\];", rest)
            if not m:
                raise Refused(f"line {number + 1}: unexpected operands: {s}")
            defs, uses = REG.findall(m.group(1)), REG.findall(m.group(2))
        else:
            regs = REG.findall(rest)
            defs, uses = regs[:1], regs[1:]
        insts.append({"line": l, "op": op, "defs": defs, "uses": uses + guard})
    return start, end, insts


# Instructions that read and write registers only: free to move as far as
# their operands allow. `ld.param` reads the kernel's parameters, which do
# not change. Every other instruction (loads, stores, atomics, barriers,
# shuffles, fences, asynchronous copies, ...) is ordered: a load stays
# between the ordered non-loads around it, and the ordered non-loads keep
# their order.
PURE = ("add.", "sub.", "mul.", "mul24.", "mad.", "mad24.", "fma.", "div.", "rem.",
        "min.", "max.", "neg.", "abs.", "and.", "or.", "xor.", "not.", "cnot.", "shl.",
        "shr.", "shf.", "lop3.", "selp.", "setp.", "set.", "slct.", "cvt.", "mov.",
        "rcp.", "sqrt.", "rsqrt.", "ex2.", "lg2.", "sin.", "cos.", "tanh.", "bfe.",
        "bfi.", "prmt.", "popc.", "clz.", "brev.", "sad.", "testp.", "copysign.",
        "ld.param.")


def dependences(insts):
    deps = collections.defaultdict(set)
    last_def = {}
    readers = collections.defaultdict(list)
    last_ordered, loads_since = None, []
    for i, ins in enumerate(insts):
        for u in ins["uses"]:
            if u in last_def:
                deps[i].add(last_def[u])
            readers[u].append(i)
        op = ins["op"]
        if not op.startswith(PURE):
            if last_ordered is not None:
                deps[i].add(last_ordered)
            if op.startswith("ld."):
                loads_since.append(i)
            else:
                deps[i].update(loads_since)
                last_ordered, loads_since = i, []
        for d in ins["defs"]:
            # A register written again waits for the earlier value's readers.
            for r in readers[d]:
                if r != i:
                    deps[i].add(r)
            if d in last_def:
                deps[i].add(last_def[d])
            last_def[d] = i
            readers[d] = []
    return deps


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("input", metavar="IN.ptx")
    ap.add_argument("mode", choices=("asap", "alap", "dfs", "uniform-first"))
    ap.add_argument("output", metavar="OUT.ptx")
    a = ap.parse_args()
    try:
        with open(a.input) as f:
            lines = f.read().split("\n")
    except OSError as e:
        ap.error(f"cannot read {a.input}: {e.strerror}")
    out_dir = os.path.dirname(os.path.abspath(a.output))
    if not os.path.isdir(out_dir) or not os.access(out_dir, os.W_OK):
        ap.error(f"cannot write {a.output}: {out_dir} is not a writable directory")
    try:
        start, end, insts = parse(lines)
    except Refused as e:
        ap.error(f"{a.input}: {e}")
    deps = dependences(insts)
    n = len(insts)
    succ = collections.defaultdict(set)
    for i in range(n):
        for d in deps[i]:
            succ[d].add(i)
    mode = a.mode
    if mode == "asap":
        level = {}
        for i in range(n):
            level[i] = 1 + max((level[d] for d in deps[i]), default=0)
        order = sorted(range(n), key=lambda i: (level[i], i))
    elif mode == "alap":
        height = {}
        for i in reversed(range(n)):
            height[i] = 1 + max((height[s] for s in succ[i]), default=0)
        order = sorted(range(n), key=lambda i: (-height[i], i))
    elif mode == "dfs":
        order, seen = [], set()
        sys.setrecursionlimit(10 * n + 1000)

        def visit(i):
            if i in seen:
                return
            for d in sorted(deps[i]):
                visit(d)
            seen.add(i)
            order.append(i)

        for i in range(n):
            if insts[i]["op"].startswith("st."):
                visit(i)
        for i in range(n):
            visit(i)
    else:
        uniform = [False] * n
        for i, ins in enumerate(insts):
            vector_load = ins["op"].startswith("ld.") and "{" in ins["line"]
            if "%tid" in ins["line"] or vector_load or ins["op"].startswith("st."):
                continue
            uniform[i] = all(uniform[d] for d in deps[i])
        order = [i for i in range(n) if uniform[i]] + [i for i in range(n) if not uniform[i]]
        print(f"ptx_order_probe: {sum(uniform)} of {n} instructions warp-uniform", file=sys.stderr)
    pos = {i: k for k, i in enumerate(order)}
    assert sorted(order) == list(range(n))
    assert all(pos[d] < pos[i] for i in range(n) for d in deps[i]), "a dependence broken"
    out = lines[:start] + [insts[i]["line"] for i in order] + lines[end:]
    with open(a.output, "w") as f:
        f.write("\n".join(out))


if __name__ == "__main__":
    main()
