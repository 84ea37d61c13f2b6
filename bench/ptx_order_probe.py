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

Only one kernel whose body is one basic block (no labels or branches)
between its `.reg` declarations and `ret;` is handled, one instruction per
line; comment lines in the body are dropped. Registers are the ones the
`.reg` lines declare; special registers fixed for the thread (%tid,
%ctaid, %laneid, ...) read like constants, and any other (%clock, ...) is
refused. An instruction's first operand is what it writes (all of
`{a, b}` or `a|b`), unless it is an address `[...]`. Only instructions
that read and write registers alone (PURE below, no `.cc` carry) move
freely; plain loads move among loads, and nothing moves past a store,
barrier, atomic, shuffle, acquire / volatile / relaxed load or carry
instruction. A register written twice keeps its readers before the
second write and its first write before the second (a guarded `@%p`
instruction may leave the old value). Anything else is refused with exit
status 2 and the line named.
"""
import argparse
import collections
import os
import re
import sys

# Special registers whose value is fixed for the thread for the whole
# kernel: read like constants. Any other special register (%clock,
# %globaltimer, ...) is refused.
CONSTANT_SREGS = {"tid", "ntid", "ctaid", "nctaid", "laneid", "warpid", "nwarpid",
                  "smid", "nsmid", "gridid", "lanemask_eq", "lanemask_le",
                  "lanemask_lt", "lanemask_ge", "lanemask_gt", "clusterid",
                  "nclusterid", "cluster_ctaid", "cluster_nctaid", "cluster_ctarank",
                  "cluster_nctarank", "is_explicit_cluster"}
OPERAND = re.compile(r"%([A-Za-z_$][\w$]*)")


class Refused(Exception):
    pass


def declared_registers(lines, start, end):
    """Register names and numbered prefixes the kernel's .reg lines declare."""
    names, prefixes = set(), set()
    for l in lines[start:end]:
        s = l.strip()
        if not s.startswith(".reg"):
            continue
        for m in re.finditer(r"%([A-Za-z_$][\w$]*?)(<\d+>)?(?=[,;\s])", s):
            (prefixes if m.group(2) else names).add(m.group(1))
    return names, prefixes


def split_operands(text):
    """Top-level comma-separated operands ({...} and [...] kept whole)."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def parse(lines):
    regs = [i for i, l in enumerate(lines) if l.strip().startswith(".reg")]
    rets = [i for i, l in enumerate(lines) if l.split("//")[0].strip() == "ret;"]
    functions = [i for i, l in enumerate(lines) if re.search(r"\.(entry|func)\b", l.split("//")[0])]
    if len(functions) > 1:
        raise Refused(f"line {functions[1] + 1}: a second function (.entry / .func): one kernel only")
    if not regs or not rets or rets[0] < regs[-1]:
        raise Refused("no kernel body (`.reg` declarations, then instructions, then `ret;`)")
    if len(rets) > 1:
        raise Refused(f"line {rets[1] + 1}: a second `ret;` (one kernel, one block only)")
    start, end = regs[-1] + 1, rets[0]
    names, prefixes = declared_registers(lines, 0, start)

    def register(name, number):
        if name in names:
            return "%" + name
        m = re.fullmatch(r"([A-Za-z_$][\w$]*?)(\d+)", name)
        if m and m.group(1) in prefixes:
            return "%" + name
        if name.split(".")[0] in CONSTANT_SREGS:
            return None
        raise Refused(f"line {number + 1}: %{name} is neither a declared register nor a "
                      f"special register fixed for the thread")

    insts = []
    for number in range(start, end):
        l = lines[number]
        s = l.split("//")[0].strip()
        if not s:
            continue
        where = f"line {number + 1}"
        if s.count(";") != 1 or not s.endswith(";"):
            raise Refused(f"{where}: not one whole instruction on one line: {l.strip()}")
        guard = []
        m = re.match(r"@!?%([\w$]+)\s+(.*)", s)
        if m:  # a guarded instruction: its predicate is one more operand
            guard, s = [register(m.group(1), number)], m.group(2)
        op, _, rest = s[:-1].partition(" ")
        op, rest = op.strip(), rest.strip()
        if (op.startswith(("bra", "brx", "call", "ret", "exit", "trap", "$", "{", "}", "."))
                or op.endswith(":")):
            raise Refused(f"{where}: not an instruction of one straight-line block: {l.strip()}")
        operands = split_operands(rest)
        def regs_of(text):
            return [r for r in (register(n, number) for n in OPERAND.findall(text)) if r]
        first = operands[0] if operands else ""
        if not operands or first.startswith("["):
            defs, uses = [], regs_of(rest)
        else:
            defs = regs_of(first)  # {a, b}, a|b and _ included
            uses = regs_of(",".join(operands[1:]))
        insts.append({"line": l, "op": op, "defs": defs, "uses": uses + guard,
                      "reads_tid": bool(re.search(r"%(tid|laneid|lanemask)", rest))})
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


def is_pure(op):
    """Reads and writes registers only (no carry flag, no memory, no clock)."""
    return op.startswith(PURE) and ".cc" not in op


def is_plain_load(op):
    """A load that may move among loads (not acquire, volatile, relaxed or
    memory-mapped, which order the memory accesses around them)."""
    return (op.startswith("ld.") and not op.startswith("ld.param.")
            and not re.search(r"\.(acquire|volatile|relaxed|mmio)\b", op))


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
        if not is_pure(op):
            if last_ordered is not None:
                deps[i].add(last_ordered)
            if is_plain_load(op):
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
        with open(a.input, encoding="utf-8") as f:
            lines = f.read().split("\n")
    except UnicodeDecodeError:
        ap.error(f"{a.input}: not a text file (not UTF-8)")
    except OSError as e:
        ap.error(f"cannot read {a.input}: {e.strerror}")
    out_dir = os.path.dirname(os.path.abspath(a.output)) if a.output else ""
    if not a.output or os.path.isdir(a.output):
        ap.error(f"cannot write {a.output!r}: not a file name")
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
        # Warp-uniform: registers-only or a plain load, not reading %tid,
        # %laneid or %lanemask_*, nor (transitively) anything that does or
        # anything loaded by a vector load.
        uniform = [False] * n
        for i, ins in enumerate(insts):
            op = ins["op"]
            if ins["reads_tid"] or not (is_pure(op) or is_plain_load(op)):
                continue
            if is_plain_load(op) and "{" in ins["line"]:
                continue
            uniform[i] = all(uniform[d] for d in deps[i])
        order = [i for i in range(n) if uniform[i]] + [i for i in range(n) if not uniform[i]]
        print(f"ptx_order_probe: {sum(uniform)} of {n} instructions warp-uniform", file=sys.stderr)
    pos = {i: k for k, i in enumerate(order)}
    assert sorted(order) == list(range(n))
    assert all(pos[d] < pos[i] for i in range(n) for d in deps[i]), "a dependence broken"
    out = lines[:start] + [insts[i]["line"] for i in order] + lines[end:]
    try:
        with open(a.output, "w") as f:
            f.write("\n".join(out))
    except OSError as e:
        ap.error(f"cannot write {a.output}: {e.strerror}")


if __name__ == "__main__":
    main()
