// The empty kernel of bench/runtime/launch_bench.cpp (launch overhead only).
extern "C" __global__ void empty() {}
