// KernelArgs.h: typed launch arguments and their packing into the
// `void** kernelParams` array of cuLaunchKernel / hipModuleLaunchKernel.
#ifndef KILN_RUNTIME_KERNELARGS_H
#define KILN_RUNTIME_KERNELARGS_H

#include <cstdint>
#include <cstring>
#include <vector>

#include "runtime/Metadata.h"
#include "runtime/Status.h"

namespace kiln::runtime {

/// One launch argument: a kind (matching a signature type) and its value.
/// Half-precision values are given as their 16-bit IEEE binary16 / bfloat16
/// bit patterns, so the runtime needs no half-precision type.
class KernelArg {
public:
  /// An i32 zero (so arrays of arguments can be declared and filled).
  KernelArg() : kind_(ArgKind::kI32), bits_(0) {}
  /// A device pointer given as a host-side pointer value (e.g. from
  /// torch.Tensor.data_ptr()).
  static KernelArg ptr(const void* p) {
    return KernelArg(ArgKind::kPtr, static_cast<uint64_t>(reinterpret_cast<uintptr_t>(p)));
  }
  /// A device pointer given as a 64-bit device address (CUdeviceptr).
  static KernelArg devicePtr(uint64_t address) { return KernelArg(ArgKind::kPtr, address); }
  static KernelArg i1(bool v) { return KernelArg(ArgKind::kI1, v ? 1 : 0); }
  static KernelArg i8(int8_t v) { return KernelArg(ArgKind::kI8, static_cast<uint8_t>(v)); }
  static KernelArg i16(int16_t v) { return KernelArg(ArgKind::kI16, static_cast<uint16_t>(v)); }
  static KernelArg i32(int32_t v) { return KernelArg(ArgKind::kI32, static_cast<uint32_t>(v)); }
  static KernelArg i64(int64_t v) { return KernelArg(ArgKind::kI64, static_cast<uint64_t>(v)); }
  /// An f16 value as its IEEE 754 binary16 bits (0x3c00 is 1.0).
  static KernelArg f16Bits(uint16_t bits) { return KernelArg(ArgKind::kF16, bits); }
  /// A bf16 value as its bfloat16 bits (0x3f80 is 1.0).
  static KernelArg bf16Bits(uint16_t bits) { return KernelArg(ArgKind::kBF16, bits); }
  static KernelArg f32(float v) {
    uint32_t b;
    std::memcpy(&b, &v, 4);
    return KernelArg(ArgKind::kF32, b);
  }
  static KernelArg f64(double v) {
    uint64_t b;
    std::memcpy(&b, &v, 8);
    return KernelArg(ArgKind::kF64, b);
  }
  /// Any kind from raw little-endian bits (the low argKindSize(kind) bytes
  /// are used); what the C API builds its arguments with.
  static KernelArg fromBits(ArgKind kind, uint64_t bits) { return KernelArg(kind, bits); }

  ArgKind kind() const { return kind_; }
  /// The value's bits, zero-extended to 64 bits.
  uint64_t bits() const { return bits_; }

private:
  KernelArg(ArgKind kind, uint64_t bits) : kind_(kind), bits_(bits) {}
  ArgKind kind_;
  uint64_t bits_;
};

/// Arguments packed for a launch: one 8-byte, 8-aligned, zero-padded slot
/// per parameter holding the value's argKindSize() bytes in little-endian
/// order, and the array of slot pointers the driver reads (`kernelParams`).
/// Trailing null pointers (metadata's extra_args) are slots holding 0.
/// Not copyable: params() points into the object.
class PackedArgs {
public:
  PackedArgs() = default;
  PackedArgs(const PackedArgs&) = delete;
  PackedArgs& operator=(const PackedArgs&) = delete;

  /// The `void** kernelParams` for cuLaunchKernel / hipModuleLaunchKernel.
  void** params() { return pointers_.data(); }
  /// Number of parameters, trailing null pointers included.
  size_t count() const { return slots_.size(); }
  /// Bytes of parameter `i` the kernel reads (argKindSize of its kind).
  size_t size(size_t i) const { return sizes_[i]; }
  /// The slot of parameter `i` (8 bytes).
  const uint8_t* slot(size_t i) const { return reinterpret_cast<const uint8_t*>(&slots_[i]); }

  /// Empties the object and reserves room for `n` parameters.
  void reset(size_t n);
  /// Appends one parameter.
  void push(ArgKind kind, uint64_t bits);

private:
  std::vector<uint64_t> slots_;
  std::vector<void*> pointers_;
  std::vector<uint8_t> sizes_;
};

/// Checks `args` against `metadata.signature` and packs them (plus
/// metadata.trailingNullPointers null pointers) into `out`. Errors:
/// kArgumentCount ("kernel 'vadd' takes 4 arguments (x_ptr: ptr<f32>, ...),
/// got 3"), kArgumentType naming the argument's index, name, signature type
/// and the given kind. Any ptr<T> accepts any pointer argument.
Status packArguments(const KernelMetadata& metadata, const KernelArg* args, size_t numArgs,
                     PackedArgs* out);

} // namespace kiln::runtime

#endif // KILN_RUNTIME_KERNELARGS_H
