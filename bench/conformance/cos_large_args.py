"""The Inductor cos kernel on large arguments: libdevice's float cos slow path.

`triton_poi_fused_add_cos_mul_sigmoid_0` (corpus) computes
`a * sigmoid(a) + cos(b)` over 2^22 elements. conformance.py's inputs keep
|b| small, so libdevice's Payne-Hanek reduction (|b| >= 105615) never runs
there. This launches each kiln build on b uniform in (-s/2, s/2) for
s = 2e7, 2e5 and 1e3 and prints, per build, the largest difference from
`a * sigmoid(a) + cos(b)` taken in double precision and whether its output
equals the first build's bit for bit.

    python3 bench/conformance/cos_large_args.py --runtime-lib LIB \
        --build old=DIR --build new=DIR   # DIR/NAME/{metadata.json,cubin}

Needs a CUDA GPU, torch and kiln's runtime library.
"""
import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import conformance as cf  # noqa: E402

KERNEL = "triton_poi_fused_add_cos_mul_sigmoid_0.2HQZW65D"
SIGNATURE = [{"name": "in_ptr0", "type": "ptr<f32>"}, {"name": "in_ptr1", "type": "ptr<f32>"},
             {"name": "out_ptr0", "type": "ptr<f32>"}, {"name": "xnumel", "type": "i32"}]
BLOCK = 1024  # XBLOCK of the corpus kernel: one program per 1024 elements


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--runtime-lib", required=True)
    p.add_argument("--build", required=True, action="append", help="NAME=DIR (DIR/%s)" % KERNEL)
    args = p.parse_args()
    builds = [b.split("=", 1) for b in args.build]
    kiln = cf.Kiln(args.runtime_lib)
    n = 1 << 22
    worst = 0.0
    for scale in (2e7, 2e5, 1e3):
        g = torch.Generator(device="cuda").manual_seed(5)
        a = torch.randn(n, device="cuda", generator=g)
        b = (torch.rand(n, device="cuda", generator=g) - 0.5) * scale
        ref = (a.double() * torch.sigmoid(a.double()) + torch.cos(b.double())).float()
        slow = float((b.abs() >= 105615).float().mean())
        outs = []
        for name, folder in builds:
            o = torch.zeros(n, device="cuda")
            handle = kiln.open(os.path.join(folder, KERNEL))
            kiln.launch(handle, (n // BLOCK, 1, 1), cf.Kiln.pack(SIGNATURE, [a, b, o, n]))
            torch.cuda.synchronize()
            outs.append(o)
        line = [f"|b| < {scale / 2:g} (slow path {slow:.1%})"]
        for (name, _), o in zip(builds, outs):
            diff = float((o - ref).abs().max())
            worst = max(worst, diff)
            line.append(f"{name}: max |diff| {diff:.3g}, bitwise == {builds[0][0]}: {bool(torch.equal(o, outs[0]))}")
        print("; ".join(line))
    return 0 if worst < 1e-5 else 1


if __name__ == "__main__":
    sys.exit(main())
