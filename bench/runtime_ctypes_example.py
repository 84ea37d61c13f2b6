#!/usr/bin/env python3
"""Drive kiln's runtime C API (runtime/kiln_runtime.h) from Python with ctypes.

Loads a kernel artifact directory (metadata.json + cubin), launches the
vector-add kernel vadd_kernel(x, y, z, n) on the CUDA driver, checks the
result and prints the kernel's state, resources and timings and the
runtime's telemetry. Device memory comes from the C API's helpers
(kiln_device_alloc / kiln_copy_*), so neither torch nor cuda-python is needed.

    python3 runtime_ctypes_example.py --lib ./libkiln_runtime.so \
        --artifact artifacts/vadd_kernel [--n 1048576]

(test/runtime/build_gpu_test.sh builds the library and the artifact.)
"""
import argparse
import ctypes as C
import json
import struct
import sys
import time

KILN_ARG_PTR, KILN_ARG_I32 = 0, 4


class Arg(C.Structure):
    _fields_ = [("type", C.c_int32), ("reserved", C.c_uint32), ("bits", C.c_uint64)]


class Info(C.Structure):
    _fields_ = [(name, C.c_int32) for name in (
        "state", "num_warps", "num_stages", "shared_bytes", "num_regs", "local_bytes",
        "static_shared_bytes", "reserved")] + [(name, C.c_int64) for name in (
            "hydrate_us", "load_us", "check_us", "first_launch_us")]


STATES = ["cached", "hydrated", "loaded", "launchable"]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--lib", default="./libkiln_runtime.so")
    p.add_argument("--artifact", default="artifacts/vadd_kernel")
    p.add_argument("--n", type=int, default=1 << 20)
    a = p.parse_args()

    lib = C.CDLL(a.lib)
    lib.kiln_last_error.restype = C.c_char_p
    lib.kiln_status_name.restype = C.c_char_p
    vp, u64 = C.c_void_p, C.c_uint64

    def check(status, what):
        if status != 0:
            sys.exit(f"{what}: {lib.kiln_status_name(status).decode()}: "
                     f"{lib.kiln_last_error().decode()}")

    rt = vp()
    check(lib.kiln_runtime_create(0, C.byref(rt)), "kiln_runtime_create(CUDA)")
    t0 = time.perf_counter()
    kernel = vp()
    check(lib.kiln_kernel_open(rt, a.artifact.encode(), 0, C.byref(kernel)), "kiln_kernel_open")

    n = a.n
    x = struct.pack(f"{n}f", *range(n))
    y = struct.pack(f"{n}f", *(2.0 * i for i in range(n)))
    ptrs = []
    for host in (x, y, None):
        d = u64()
        check(lib.kiln_device_alloc(rt, 0, C.c_size_t(4 * n), C.byref(d)), "kiln_device_alloc")
        if host is not None:
            check(lib.kiln_copy_to_device(rt, 0, d, host, C.c_size_t(4 * n)), "kiln_copy_to_device")
        ptrs.append(d.value)

    args = (Arg * 4)(Arg(KILN_ARG_PTR, 0, ptrs[0]), Arg(KILN_ARG_PTR, 0, ptrs[1]),
                     Arg(KILN_ARG_PTR, 0, ptrs[2]), Arg(KILN_ARG_I32, 0, n & 0xffffffff))
    t1 = time.perf_counter()
    check(lib.kiln_kernel_launch(kernel, C.c_uint32((n + 127) // 128), C.c_uint32(1),
                                 C.c_uint32(1), None, args, C.c_size_t(4)), "kiln_kernel_launch")
    check(lib.kiln_stream_synchronize(rt, 0, None), "kiln_stream_synchronize")
    t2 = time.perf_counter()
    z = C.create_string_buffer(4 * n)
    check(lib.kiln_copy_from_device(rt, 0, z, u64(ptrs[2]), C.c_size_t(4 * n)),
          "kiln_copy_from_device")
    result = struct.unpack(f"{n}f", z.raw)
    wrong = sum(1 for i in range(n) if result[i] != 3.0 * i)

    info = Info()
    check(lib.kiln_kernel_get_info(kernel, C.byref(info)), "kiln_kernel_get_info")
    print(f"vadd over {n} elements: {'OK' if wrong == 0 else f'{wrong} WRONG'}")
    print(f"state {STATES[info.state]}, num_warps {info.num_warps}, regs {info.num_regs}, "
          f"local bytes {info.local_bytes}")
    print(f"hydrate {info.hydrate_us} us, load {info.load_us} us, check {info.check_us} us, "
          f"creation to first launch {info.first_launch_us} us; "
          f"first launch + sync {1e6 * (t2 - t1):.0f} us; open to result "
          f"{1e6 * (t2 - t0):.0f} us (context creation included)")
    needed = C.c_size_t()
    check(lib.kiln_runtime_telemetry_json(rt, None, C.c_size_t(0), C.byref(needed)), "telemetry")
    buf = C.create_string_buffer(needed.value)
    check(lib.kiln_runtime_telemetry_json(rt, buf, needed, C.byref(needed)), "telemetry")
    print("counters:", json.dumps(json.loads(buf.value)["counters"]))

    for d in ptrs:
        check(lib.kiln_device_free(rt, 0, u64(d)), "kiln_device_free")
    lib.kiln_kernel_release(kernel)
    lib.kiln_runtime_release(rt)
    return 0 if wrong == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
