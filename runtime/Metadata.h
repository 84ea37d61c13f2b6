// Metadata.h: the kernel artifact handoff format, kiln-kernel/1.
//
// The compiler writes one directory per compiled kernel holding
// `metadata.json` and the binary it names (a cubin for CUDA, an hsaco code
// object for HIP). Hydration reads only metadata.json; the binary is read,
// size-checked and SHA-256-verified when the kernel is loaded. The format is
// specified field by field in runtime/README.md.
#ifndef KILN_RUNTIME_METADATA_H
#define KILN_RUNTIME_METADATA_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/Status.h"

namespace kiln::runtime {

/// The value of metadata.json's "format" field this runtime reads.
inline constexpr const char* kKernelFormat = "kiln-kernel/1";
/// The file name of the metadata inside an artifact directory.
inline constexpr const char* kMetadataFileName = "metadata.json";

/// The GPU programming interface a kernel was compiled for.
enum class Backend { kCuda, kHip };

/// "cuda" or "hip".
const char* backendName(Backend backend);

/// The kind of a kernel argument. Scalars are passed by value with the
/// sizes given by argKindSize(); pointers as 64-bit device addresses.
enum class ArgKind { kPtr, kI1, kI8, kI16, kI32, kI64, kF16, kBF16, kF32, kF64 };

/// The spelling used in signatures: "ptr", "i1", ..., "f64".
const char* argKindName(ArgKind kind);
/// Bytes the kernel parameter occupies: 8 for pointers and 64-bit types, 4
/// for i32/f32, 2 for i16/f16/bf16, 1 for i1/i8 (a PTX .pred parameter is
/// passed as one byte, as Triton and nvcc do).
size_t argKindSize(ArgKind kind);

/// One signature type: "ptr<T>" for any element type T (kind kPtr, T kept in
/// `pointee`), or one of i1 i8 i16 i32 i64 f16 bf16 f32 f64.
struct ArgType {
  ArgKind kind = ArgKind::kI32;
  /// For kPtr, the element type as written between the angle brackets.
  std::string pointee;
  /// The type as written in metadata.json.
  std::string spelling;
};

/// Parses one signature type; a kMetadataError naming the accepted types
/// otherwise.
Expected<ArgType> parseArgType(std::string_view text);

/// One kernel parameter as listed in the signature.
struct SignatureEntry {
  std::string name;
  ArgType type;
};

/// Where the kernel runs: backend, architecture name and warp size.
struct Target {
  Backend backend = Backend::kCuda;
  /// "sm_90", "sm_90a", "sm_100", ... for CUDA; "gfx90a", "gfx942", ... for
  /// HIP.
  std::string arch;
  /// 32 for CUDA; 32 or 64 for HIP.
  int warpSize = 32;
  /// The architecture's version as the driver reports the device's: CUDA
  /// compute capability (sm_90 -> 9.0, sm_120 -> 12.0); for HIP the gfx
  /// name's major and minor digits (gfx90a -> 9.0, gfx942 -> 9.4), which is
  /// what hipDeviceAttributeComputeCapabilityMajor/Minor report.
  int archMajor = 0;
  int archMinor = 0;
  /// CUDA "a" targets (sm_90a) run only on exactly that compute capability.
  bool archSpecific = false;
  /// HIP only: the gfx name's last digit (gfx90a -> 0xa), not checked against
  /// the device here (the loader rejects a wrong one with
  /// hipErrorNoBinaryForGpu).
  int archStepping = 0;
};

/// Parses an architecture name for `backend` into `target` (arch, archMajor,
/// archMinor, archSpecific, archStepping); kMetadataError if it is not
/// `sm_<digits>[a]` (CUDA) or `gfx<major><minor hex><stepping hex>` (HIP).
Status parseArch(Backend backend, std::string_view arch, Target* target);

/// The binary an artifact holds.
struct BinaryRef {
  /// File name inside the artifact directory (no '/' allowed).
  std::string file;
  /// Size in bytes.
  uint64_t size = 0;
  /// SHA-256 of the file, 64 lower-case hex digits.
  std::string sha256;
};

/// Everything hydration knows about a kernel: metadata.json, validated.
struct KernelMetadata {
  std::string format = kKernelFormat;
  /// The function name inside the binary (cuModuleGetFunction's name).
  std::string kernel;
  Target target;
  /// Warps per CTA; block = target.warpSize x numWarps threads.
  int numWarps = 4;
  /// Software pipelining depth the kernel was compiled with (reported in
  /// errors; the runtime does not use it otherwise).
  int numStages = 3;
  /// CTAs per cluster; this runtime supports only 1.
  int numCtas = 1;
  /// Dynamic shared memory in bytes passed at every launch.
  uint64_t sharedBytes = 0;
  std::vector<SignatureEntry> signature;
  BinaryRef binary;
  /// The compile cache's job key (hex), empty when unknown.
  std::string jobKey;
  /// Null pointers appended after the signature's arguments at launch (2 for
  /// Triton-ABI cubins: global scratch and profile scratch).
  int trailingNullPointers = 0;
};

/// Parses and validates metadata.json text. `origin` (usually the file's
/// path) starts every error message. Errors (kMetadataError) name the field
/// and what was wrong: invalid JSON (with the parser's byte position), a
/// missing field, a field of the wrong JSON type or out of range, an unknown
/// format version, backend, architecture or argument type.
Expected<KernelMetadata> parseKernelMetadata(std::string_view jsonText, std::string_view origin);

/// Reads and parses `<artifactDir>/metadata.json`; kNotFound if it cannot be
/// read.
Expected<KernelMetadata> readKernelMetadata(const std::string& artifactDir);

/// The inspection texts `kiln compile` writes beside metadata.json (the
/// runtime never reads them on its own; see Kernel::readArtifactText):
/// "kgpu" -> `<kernel>.kgpu.mlir` (kgpu dialect, after layout assignment),
/// "llvm" -> `<kernel>.llvm.mlir` (LLVM dialect), "ll" -> `<kernel>.ll`
/// (LLVM IR), "ptx" -> `<kernel>.ptx`.
inline constexpr const char* kArtifactTextNames[] = {"kgpu", "llvm", "ll", "ptx"};

/// The file name of inspection text `name` (one of kArtifactTextNames) for
/// `kernel`; kInvalidArgument naming the valid names otherwise.
Expected<std::string> artifactTextFileName(const std::string& kernel, std::string_view name);

/// Reads `<artifactDir>/metadata.json` as JSON and returns only its
/// `job_key` ("" if absent), without validating the rest (the full check is
/// hydration's). kNotFound if the file cannot be read, kMetadataError if it
/// is not a JSON object or job_key is not a string.
Expected<std::string> readMetadataJobKey(const std::string& artifactDir);

/// The metadata as kiln-kernel/1 JSON (what the compiler writes; used by
/// tests and the GPU test's artifact generator). parseKernelMetadata() of
/// the result gives back equal metadata.
std::string kernelMetadataToJson(const KernelMetadata& metadata);

} // namespace kiln::runtime

#endif // KILN_RUNTIME_METADATA_H
