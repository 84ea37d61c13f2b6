"""A scalar TTIR kernel of N additions of distinct constants, one operation
per line (each its own FileLineColLoc), as a fully unrolled loop gives:
about 3N attributes and types as bytecode (helper-91's false positive)."""
import sys

n = int(sys.argv[1])
print("tt.func public @k(%p: !tt.ptr<i32>, %x: i32) {")
prev = "%x"
for i in range(n):
    print(f"  %c{i} = arith.constant {i + 1000} : i32")
    print(f"  %a{i} = arith.addi {prev}, %c{i} : i32")
    prev = f"%a{i}"
print(f"  tt.store %p, {prev} : !tt.ptr<i32>")
print("  tt.return")
print("}")
