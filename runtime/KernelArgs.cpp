// KernelArgs.cpp: argument checking and packing.
#include "runtime/KernelArgs.h"

#include <string>

namespace kiln::runtime {

void PackedArgs::reset(size_t n) {
  slots_.clear();
  sizes_.clear();
  pointers_.clear();
  slots_.reserve(n);
  sizes_.reserve(n);
  pointers_.reserve(n);
}

void PackedArgs::push(ArgKind kind, uint64_t bits) {
  size_t size = argKindSize(kind);
  uint64_t slot = 0;
  // Keep only the kind's bytes so the padding stays zero (x86-64 and
  // aarch64 hosts are little-endian, like the GPUs).
  if (kind == ArgKind::kI1)
    bits = bits ? 1 : 0;
  else if (size < 8)
    bits &= (uint64_t(1) << (8 * size)) - 1;
  std::memcpy(&slot, &bits, sizeof slot);
  // The slot vector was reserved, so earlier slot addresses stay valid.
  slots_.push_back(slot);
  sizes_.push_back(static_cast<uint8_t>(size));
  pointers_.push_back(&slots_.back());
}

Status packArguments(const KernelMetadata& m, const KernelArg* args, size_t numArgs,
                     PackedArgs* out) {
  if (numArgs != m.signature.size()) {
    std::string sig;
    for (size_t i = 0; i < m.signature.size(); ++i)
      sig += (i ? ", " : "") + m.signature[i].name + ": " + m.signature[i].type.spelling;
    return Status(StatusCode::kArgumentCount,
                  "kernel '" + m.kernel + "' takes " + std::to_string(m.signature.size()) +
                      " arguments (" + sig + "), got " + std::to_string(numArgs));
  }
  if (numArgs > 0 && args == nullptr)
    return Status(StatusCode::kInvalidArgument,
                  "kernel '" + m.kernel + "': argument array is null");
  out->reset(numArgs + static_cast<size_t>(m.trailingNullPointers));
  for (size_t i = 0; i < numArgs; ++i) {
    const SignatureEntry& e = m.signature[i];
    if (args[i].kind() != e.type.kind)
      return Status(StatusCode::kArgumentType,
                    "kernel '" + m.kernel + "': argument " + std::to_string(i) + " '" + e.name +
                        "' has type " + e.type.spelling + " but a " + argKindName(args[i].kind()) +
                        " was given");
    out->push(e.type.kind, args[i].bits());
  }
  for (int i = 0; i < m.trailingNullPointers; ++i)
    out->push(ArgKind::kPtr, 0);
  return Status();
}

} // namespace kiln::runtime
