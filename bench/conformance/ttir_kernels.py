"""What gen_layout_kernels.py and gen_k32_kernels.py share: compiling their
@triton.jit kernels to TTIR with Triton 3.6 on the CPU (GPUTarget("cuda",
90, 32), every pointer and scalar with tt.divisibility 16) and writing each
as NAME.ttir (the kernel renamed NAME, source locations without their
directories) plus NAME.json (num_warps, num_stages, num_ctas).

A config is a dict: name, fn (a key of what `define` returns), warps,
stages, sig (argument name -> Triton type), ce (constexpr name -> value).
"""
import argparse
import json
import os
import re
import tempfile


def scrub(text, fn_name, new_name):
    text = re.sub(r'loc\("[^"]*?([^"/]+\.py)"', r'loc("\1"', text)
    return re.sub(r"@%s\b" % re.escape(fn_name), "@" + new_name, text)


def main(default_dir, define, configs):
    """Command line of a generator: --out DIR (default `default_dir`, next
    to this file) and --only NAME...; `define()` returns the kernels by
    name, `configs()` the list of configs."""
    p = argparse.ArgumentParser()
    p.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                 default_dir))
    p.add_argument("--only", nargs="*")
    args = p.parse_args()
    os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp(prefix="triton-cache-"))
    import triton
    from triton.backends.compiler import GPUTarget
    fns = define()
    os.makedirs(args.out, exist_ok=True)
    for cfg in configs():
        if args.only and cfg["name"] not in args.only:
            continue
        fn = fns[cfg["fn"]]
        sig = dict(cfg["sig"])
        for k in cfg["ce"]:
            sig[k] = "constexpr"
        attrs = {(fn.arg_names.index(k),): [["tt.divisibility", 16]] for k in cfg["sig"]}
        src = triton.compiler.ASTSource(fn=fn, signature=sig, constexprs=cfg["ce"], attrs=attrs)
        try:
            k = triton.compile(src, target=GPUTarget("cuda", 90, 32),
                               options=dict(num_warps=cfg["warps"], num_stages=cfg["stages"]))
        except Exception as e:
            print(f"{cfg['name']}: TRITON FAILED: {type(e).__name__}: {str(e)[:300]}")
            continue
        with open(os.path.join(args.out, cfg["name"] + ".ttir"), "w") as f:
            f.write(scrub(k.asm["ttir"], fn.__name__, cfg["name"]))
        with open(os.path.join(args.out, cfg["name"] + ".json"), "w") as f:
            json.dump({"num_warps": cfg["warps"], "num_stages": cfg["stages"], "num_ctas": 1}, f)
            f.write("\n")
        print(f"{cfg['name']}: ok")
