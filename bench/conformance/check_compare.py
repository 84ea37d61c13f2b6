#!/usr/bin/env python3
"""Checks of conformance.compare on synthetic CPU tensors (needs torch, not
a GPU; run on the GPU machine, where torch is installed):

    python3 check_compare.py

Exits 1 naming the first case that compare() judged wrongly."""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from conformance import compare  # noqa: E402


def case(name, want, a, b, before, tf32=False):
    ok, err, detail = compare(a, b, before, tf32)
    print(f"{'ok  ' if ok == want else 'FAIL'} {name}: matched={ok} (want {want}) error={err} {detail}")
    return ok == want


def main():
    g = torch.Generator().manual_seed(1)
    n, w = 1 << 22, 4096
    before = torch.randn(n, generator=g).half()
    good = before.clone()
    good[:w] = torch.randn(w, generator=g).half()
    results = []
    # The helper-70 bug: every odd element of the written part took its even
    # neighbour's value. Over the whole 4M buffer the relative L2 error is
    # about 0.02 of the written part's and under 1e-2.
    bad = good.clone()
    bad[1:w:2] = bad[0:w:2]
    results.append(case("odd elements take the even ones' values", False, bad, good, before))
    whole_ok, whole_err, _ = compare(bad, good, None)
    print(f"     (over the whole buffer: matched={whole_ok} error={whole_err})")
    # One wrong element among the 4096 written.
    one = good.clone()
    one[17] = one[17] + 4
    results.append(case("one element off by 4", False, one, good, before))
    # Summation-order noise: every element off by about 1e-3 relative.
    noisy = good.clone()
    noisy[:w] = (good[:w].float() * (1 + 1e-3 * torch.randn(w, generator=g))).half()
    results.append(case("f16 rounding noise", True, noisy, good, before))
    # A reduction's result near zero: absolute noise against the RMS.
    red = torch.zeros(w)
    ref = torch.randn(w, generator=g) * 30
    ref[5] = 1e-4
    ours = ref + 1e-4 * torch.randn(w, generator=g)
    results.append(case("f32 sums, one near zero", True, ours, ref, red))
    # A wrong sum of 1e-2 relative in f32 fails the 1e-5 norm.
    results.append(case("f32 sums off by 1e-2", False, ref * 1.01, ref, red))
    # f8 results one e4m3 step apart in a few places.
    ref8 = torch.randn(w, generator=g).to(torch.float8_e4m3fn)
    ours8 = ref8.clone()
    ours8.view(torch.uint8)[::211] += 1
    results.append(case("e4m3 one step apart", True, ours8, ref8, torch.zeros(w).to(torch.float8_e4m3fn)))
    # NaNs in different places.
    nan = good.clone()
    nan[3] = float("nan")
    results.append(case("a NaN where Triton has none", False, nan, good, before))
    # An element one kernel wrote and the other left as it was.
    left = good.clone()
    left[w + 5] = 1.0
    results.append(case("a write past Triton's", False, left, good, before))
    # Integers exactly.
    ib = torch.randint(0, 64, (w,), generator=g, dtype=torch.int32)
    ia = ib.clone()
    results.append(case("equal integers", True, ia, ib, torch.zeros(w, dtype=torch.int32)))
    ia[9] += 1
    results.append(case("one integer off", False, ia, ib, torch.zeros(w, dtype=torch.int32)))
    # Nothing written: both buffers as they were.
    results.append(case("nothing written", True, before.clone(), before.clone(), before))
    print(f"{sum(results)} of {len(results)} cases judged as expected")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
