// Manifest.cpp: manifest.json writing and strict parsing.
#include "cache/Manifest.h"

#include <ctime>
#include <nlohmann/json.hpp>
#include <set>

#include "cache/Sha256.h"

namespace kiln::cache {
namespace {

using json = nlohmann::json;
constexpr const char* kManifestFormat = "kiln-cache-entry/1";

Status corrupt(const std::string& m) { return Status(StatusCode::kCorrupt, "manifest.json: " + m); }

} // namespace

uint64_t Manifest::artifactBytes() const {
  uint64_t total = 0;
  for (const ManifestArtifact& a : artifacts)
    total += a.size;
  return total;
}

const ManifestArtifact* Manifest::find(std::string_view name) const {
  for (const ManifestArtifact& a : artifacts)
    if (a.name == name)
      return &a;
  return nullptr;
}

bool isValidArtifactName(std::string_view name) {
  return !name.empty() && name.size() <= 255 && name != "." && name != ".." &&
         name != "manifest.json" && name.find('/') == std::string_view::npos &&
         name.find('\0') == std::string_view::npos;
}

std::string writeManifest(const Manifest& m) {
  nlohmann::ordered_json artifacts = nlohmann::ordered_json::array();
  for (const ManifestArtifact& a : m.artifacts)
    artifacts.push_back({{"name", a.name}, {"size", a.size}, {"sha256", a.sha256}});
  json info = json::parse(m.infoJson, nullptr, false);
  if (info.is_discarded() || !info.is_object())
    info = json::object();
  nlohmann::ordered_json doc;
  doc["format"] = kManifestFormat;
  doc["key"] = m.key;
  doc["job"] = json::parse(m.job.canonicalJson());
  doc["artifacts"] = artifacts;
  doc["kiln_version"] = m.kilnVersion;
  doc["created"] = m.created;
  doc["info"] = info;
  return doc.dump(2) + "\n";
}

Expected<Manifest> parseManifest(std::string_view text, std::string_view expectedKey) {
  json doc = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded())
    return corrupt("not valid JSON");
  if (!doc.is_object())
    return corrupt("not a JSON object");
  auto str = [&](const char* field, std::string& out) -> Status {
    auto it = doc.find(field);
    if (it == doc.end() || !it->is_string())
      return corrupt(std::string("'") + field + "' missing or not a string");
    out = it->get<std::string>();
    return {};
  };
  std::string format;
  Manifest m;
  for (auto [field, out] : {std::pair<const char*, std::string*>{"format", &format},
                            {"key", &m.key},
                            {"kiln_version", &m.kilnVersion},
                            {"created", &m.created}})
    if (Status s = str(field, *out); !s.ok())
      return s;
  if (format != kManifestFormat)
    return corrupt("format must be '" + std::string(kManifestFormat) + "', got '" + format + "'");
  if (!isValidKey(m.key))
    return corrupt("key is not 64 lower-case hex digits");
  if (m.key != expectedKey)
    return corrupt("key " + m.key + " does not match the entry " + std::string(expectedKey));
  auto job = doc.find("job");
  if (job == doc.end() || !job->is_object())
    return corrupt("'job' missing or not an object");
  Expected<CompileJob> parsed = parseCompileJob(job->dump());
  if (!parsed)
    return corrupt(parsed.status().message());
  m.job = std::move(*parsed);
  if (m.job.key() != m.key)
    return corrupt("the job's key is " + m.job.key() + ", not the entry's " + m.key);
  auto artifacts = doc.find("artifacts");
  if (artifacts == doc.end() || !artifacts->is_array())
    return corrupt("'artifacts' missing or not an array");
  std::set<std::string> names;
  for (const json& a : *artifacts) {
    if (!a.is_object())
      return corrupt("an artifact is not an object");
    auto name = a.find("name"), size = a.find("size"), sha = a.find("sha256");
    if (name == a.end() || !name->is_string() || !isValidArtifactName(name->get<std::string>()))
      return corrupt("an artifact has a missing or invalid 'name'");
    if (size == a.end() || !size->is_number_unsigned())
      return corrupt("artifact " + name->get<std::string>() + ": 'size' missing or not unsigned");
    if (sha == a.end() || !sha->is_string() || !isSha256Hex(sha->get<std::string>()))
      return corrupt("artifact " + name->get<std::string>() + ": 'sha256' missing or invalid");
    ManifestArtifact out{name->get<std::string>(), size->get<uint64_t>(), sha->get<std::string>()};
    if (!names.insert(out.name).second)
      return corrupt("artifact " + out.name + " listed twice");
    m.artifacts.push_back(std::move(out));
  }
  auto info = doc.find("info");
  if (info != doc.end()) {
    if (!info->is_object())
      return corrupt("'info' is not an object");
    m.infoJson = info->dump();
  }
  return m;
}

std::string utcNowIso8601() {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

} // namespace kiln::cache
