// CompileJob.h: the compile job, the one value that says what a compile
// produces, and its key. Two jobs with the same key must yield the same
// binary; any field that can change the binary is in the job. The key is the
// SHA-256 of the job's canonical JSON (sorted keys, every field written
// out, no pointers, PIDs, times or paths), so it is the same in every
// process and on every machine.
//
// The caller (tools/kiln, which may use MLIR) supplies the pieces only a
// compiler can compute: the canonical printed IR's hash (locations included
// only when line info is emitted) and the pipeline fingerprint (the fully
// expanded printed pass pipeline plus plugin identities, see
// pipelineFingerprint()).
#ifndef KILN_CACHE_COMPILEJOB_H
#define KILN_CACHE_COMPILEJOB_H

#include <string>
#include <string_view>
#include <vector>

#include "cache/Status.h"

namespace kiln::cache {

/// What the source IR is.
enum class SourceKind { kTTIR, kMLIRStage, kLLVMIR, kPTX };

/// "ttir", "mlir-stage", "llvm-ir", "ptx".
const char* sourceKindName(SourceKind kind);

/// The input of the compile.
struct JobSource {
  SourceKind kind = SourceKind::kTTIR;
  /// For kMLIRStage: the stage the IR is at ("kgpu", "llvm"); empty otherwise.
  std::string stage;
  /// SHA-256 (64 lower-case hex) of the canonical printed IR; see
  /// hashSourceText().
  std::string contentHash;
  /// The kernel compiled out of the module (a module may hold several).
  std::string entry;
};

/// What the binary runs on.
struct JobTarget {
  /// "cuda" or "hip" (lower-cased by normalize()).
  std::string backend = "cuda";
  /// With feature suffix: "sm_90", "sm_90a", "gfx942" (lower-cased).
  std::string arch = "sm_90";
  /// PTX ISA version times ten (80 = 8.0); 0 for hip.
  int ptxVersion = 80;
  /// AMDGPU code-object version (5); 0 for cuda.
  int codeObjectVersion = 0;
  /// Threads per warp: 32, or 64 on wave64 AMD GPUs.
  int warpSize = 32;
};

/// The ptxas --Ofast-compile levels JobOptions::ptxasFastCompile takes, in
/// ptxas's order; "0" is off.
inline const std::vector<std::string>& ptxasFastCompileLevels() {
  static const std::vector<std::string> levels = {"0", "min", "mid", "max"};
  return levels;
}

/// Compile options at their effective values: a default left out and the
/// same default written out are the same value here, hence one key.
struct JobOptions {
  int numWarps = 4;
  int numStages = 3;
  int numCtas = 1;
  /// ptxas --maxrregcount; 0 = no limit.
  int maxnreg = 0;
  /// LLVM and ptxas optimization level, 0..3.
  int optLevel = 3;
  /// ptxas --Ofast-compile level (CUDA 12.8+): "0" (off, the default),
  /// "min", "mid" or "max". Trades the cubin's speed for ptxas's: a
  /// different binary, so part of the job.
  std::string ptxasFastCompile = "0";
  bool fpFusion = true;
  bool ftz = false;
  bool lineInfo = false;
  bool debug = false;
};

/// Every tool whose version can change the output.
struct JobToolchain {
  std::string kilnVersion;
  std::string llvmVersion;
  /// `ptxas --version` text, trimmed; empty for hip.
  std::string ptxasVersion;
  /// `ld.lld --version` text, trimmed, for hip (the code object is linked
  /// by it); empty for cuda.
  std::string linkerVersion;
  /// SHA-256 of the device math library: libdevice.10.bc for cuda, ROCm's
  /// ocml.bc for hip; empty if none is found.
  std::string libdeviceSha256;
};

/// The compile job.
struct CompileJob {
  JobSource source;
  JobTarget target;
  JobOptions options;
  /// See pipelineFingerprint(); any non-empty string.
  std::string pipelineFingerprint;
  JobToolchain toolchain;

  /// Equivalent spellings made equal: backend and arch lower-cased, the
  /// version field the backend does not use zeroed, ptxas text trimmed,
  /// stage cleared unless kind is kMLIRStage.
  void normalize();
  /// kInvalidArgument naming the first bad field (range, hex, empties).
  Status validate() const;
  /// The canonical JSON (compact, sorted keys, every field present) of the
  /// normalized job; this text is what the key hashes.
  std::string canonicalJson() const;
  /// The same document indented for people (manifest.json, `kiln inspect`).
  std::string prettyJson() const;
  /// The key: SHA-256 hex of canonicalJson() of the normalized job. A job
  /// that fails validate() still has a key; callers validate first.
  std::string key() const;
};

/// Parses a job document (canonical or not: key order, whitespace and
/// omitted fields that have defaults do not matter). Missing required fields
/// (source.content_hash, source.entry, target.arch, pipeline.fingerprint),
/// unknown fields, wrong types and invalid JSON are errors (kCorrupt), as is
/// a job that fails validate(). The result is normalized.
Expected<CompileJob> parseCompileJob(std::string_view json);

/// SHA-256 hex of the canonical printed IR.
std::string hashSourceText(std::string_view canonicalText);

/// A pass or dialect plugin's identity, part of the pipeline fingerprint.
struct PluginIdentity {
  std::string name;
  std::string version;
  /// SHA-256 hex of the plugin library's bytes.
  std::string sha256;
};

/// The pipeline fingerprint: SHA-256 hex of the printed pass pipeline (with
/// every option, as PassManager::printAsTextualPipeline writes it) and of the
/// plugins, in name order so load order does not matter.
std::string pipelineFingerprint(std::string_view printedPipeline,
                                std::vector<PluginIdentity> plugins);

/// Whether `key` is a well-formed key (64 lower-case hex digits).
bool isValidKey(std::string_view key);

} // namespace kiln::cache

#endif // KILN_CACHE_COMPILEJOB_H
