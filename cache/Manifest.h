// Manifest.h: `manifest.json` of a cache entry (format "kiln-cache-entry/1"):
// the job in readable form, the artifacts (names relative to the entry,
// sizes in bytes, SHA-256 each), kiln's version, the creation time and a
// free-form `info` object from the compiler (kernel name, registers, ...).
// It holds no absolute path, so a copied root stays valid.
//
// {
//   "format": "kiln-cache-entry/1",
//   "key": "<64 hex>",
//   "job": { ...CompileJob::prettyJson()... },
//   "artifacts": [{"name": "k.cubin", "size": 4096, "sha256": "<64 hex>"}],
//   "kiln_version": "0.1.0",
//   "created": "2025-01-31T12:00:00Z",
//   "info": {}
// }
#ifndef KILN_CACHE_MANIFEST_H
#define KILN_CACHE_MANIFEST_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cache/CompileJob.h"
#include "cache/Status.h"

namespace kiln::cache {

/// One artifact file of an entry.
struct ManifestArtifact {
  /// File name inside the entry directory (no '/', not "manifest.json").
  std::string name;
  /// Size in bytes.
  uint64_t size = 0;
  /// SHA-256 of the bytes, 64 lower-case hex digits.
  std::string sha256;
};

/// A parsed manifest.json.
struct Manifest {
  std::string key;
  CompileJob job;
  std::vector<ManifestArtifact> artifacts;
  std::string kilnVersion;
  /// UTC creation time, ISO 8601 ("2025-01-31T12:00:00Z").
  std::string created;
  /// A JSON object as text ("{}" when none).
  std::string infoJson = "{}";

  /// Sum of the artifacts' sizes, bytes.
  uint64_t artifactBytes() const;
  /// The artifact called `name`, or nullptr.
  const ManifestArtifact* find(std::string_view name) const;
};

/// Whether `name` may name an artifact: non-empty, at most 255 bytes, no
/// '/', no NUL, not "." / ".." / "manifest.json".
bool isValidArtifactName(std::string_view name);

/// manifest.json text, indented.
std::string writeManifest(const Manifest& manifest);

/// Parses and checks manifest.json: the format, a valid key equal to
/// `expectedKey` (the entry's directory name), a job whose key() is that key
/// (so a manifest cannot describe another job), valid artifact names (no
/// duplicates), sizes and checksums, and `info` an object. Every violation
/// is kCorrupt naming the field.
Expected<Manifest> parseManifest(std::string_view text, std::string_view expectedKey);

/// The current UTC time as ISO 8601 with a 'Z'.
std::string utcNowIso8601();

} // namespace kiln::cache

#endif // KILN_CACHE_MANIFEST_H
