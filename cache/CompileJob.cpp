// CompileJob.cpp: normalization, validation, canonical JSON and parsing of
// compile jobs. nlohmann::json keeps object keys in a std::map, so dump()
// writes them sorted: the canonical order needs no extra work.
#include "cache/CompileJob.h"

#include <algorithm>
#include <cctype>
#include <tuple>
#include <nlohmann/json.hpp>

#include "cache/Sha256.h"

namespace kiln::cache {
namespace {

using json = nlohmann::json;

constexpr const char* kJobFormat = "kiln-job/1";

std::string lower(std::string s) {
  for (char& c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos)
    return {};
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

json toJson(const CompileJob& job) {
  return json{
      {"format", kJobFormat},
      {"source",
       {{"kind", sourceKindName(job.source.kind)},
        {"stage", job.source.stage},
        {"content_hash", job.source.contentHash},
        {"entry", job.source.entry}}},
      {"target",
       {{"backend", job.target.backend},
        {"arch", job.target.arch},
        {"ptx_version", job.target.ptxVersion},
        {"code_object_version", job.target.codeObjectVersion},
        {"warp_size", job.target.warpSize}}},
      {"options",
       {{"num_warps", job.options.numWarps},
        {"num_stages", job.options.numStages},
        {"num_ctas", job.options.numCtas},
        {"maxnreg", job.options.maxnreg},
        {"opt_level", job.options.optLevel},
        {"ptxas_fast_compile", job.options.ptxasFastCompile},
        {"fp_fusion", job.options.fpFusion},
        {"ftz", job.options.ftz},
        {"line_info", job.options.lineInfo},
        {"debug", job.options.debug}}},
      {"pipeline", {{"fingerprint", job.pipelineFingerprint}}},
      {"toolchain",
       {{"kiln_version", job.toolchain.kilnVersion},
        {"llvm_version", job.toolchain.llvmVersion},
        {"ptxas_version", job.toolchain.ptxasVersion},
        {"linker_version", job.toolchain.linkerVersion},
        {"libdevice_sha256", job.toolchain.libdeviceSha256}}},
  };
}

/// Reads the fields of one JSON object section, rejecting unknown fields
/// and wrong types; `error` keeps the first problem.
class Section {
public:
  Section(const json& doc, const char* name, std::string& error) : name_(name), error_(error) {
    auto it = doc.find(name);
    if (it == doc.end()) {
      obj_ = json::object();
      return;
    }
    if (!it->is_object()) {
      fail(std::string("'") + name + "' must be an object");
      obj_ = json::object();
      return;
    }
    obj_ = *it;
  }
  void str(const char* field, std::string& out, bool required = false) {
    const json* v = get(field, required);
    if (!v)
      return;
    if (!v->is_string())
      return fail(path(field) + " must be a string");
    out = v->get<std::string>();
  }
  void integer(const char* field, int& out) {
    const json* v = get(field, false);
    if (!v)
      return;
    if (!v->is_number_integer())
      return fail(path(field) + " must be an integer");
    long long n = v->get<long long>();
    if (n < -(1LL << 30) || n > (1LL << 30))
      return fail(path(field) + " is out of range");
    out = static_cast<int>(n);
  }
  void boolean(const char* field, bool& out) {
    const json* v = get(field, false);
    if (!v)
      return;
    if (!v->is_boolean())
      return fail(path(field) + " must be a boolean");
    out = v->get<bool>();
  }
  /// Fails on any field not read.
  void finish() {
    for (auto it = obj_.begin(); it != obj_.end(); ++it)
      if (std::find(seen_.begin(), seen_.end(), it.key()) == seen_.end())
        return fail("unknown field " + path(it.key().c_str()));
  }

private:
  const json* get(const char* field, bool required) {
    seen_.push_back(field);
    auto it = obj_.find(field);
    if (it == obj_.end()) {
      if (required)
        fail("missing " + path(field));
      return nullptr;
    }
    return &*it;
  }
  std::string path(const char* field) const { return std::string(name_) + "." + field; }
  void fail(const std::string& message) {
    if (error_.empty())
      error_ = message;
  }
  const char* name_;
  std::string& error_;
  json obj_;
  std::vector<std::string> seen_;
};

} // namespace

const char* sourceKindName(SourceKind kind) {
  switch (kind) {
  case SourceKind::kTTIR: return "ttir";
  case SourceKind::kMLIRStage: return "mlir-stage";
  case SourceKind::kLLVMIR: return "llvm-ir";
  case SourceKind::kPTX: return "ptx";
  }
  return "unknown";
}

void CompileJob::normalize() {
  target.backend = lower(target.backend);
  target.arch = lower(target.arch);
  if (target.backend == "cuda")
    target.codeObjectVersion = 0;
  else if (target.backend == "hip")
    target.ptxVersion = 0;
  if (source.kind != SourceKind::kMLIRStage)
    source.stage.clear();
  toolchain.ptxasVersion = trim(toolchain.ptxasVersion);
  toolchain.linkerVersion = trim(toolchain.linkerVersion);
  toolchain.llvmVersion = trim(toolchain.llvmVersion);
  toolchain.kilnVersion = trim(toolchain.kilnVersion);
}

Status CompileJob::validate() const {
  auto bad = [](const std::string& m) { return Status(StatusCode::kInvalidArgument, m); };
  if (!isSha256Hex(source.contentHash))
    return bad("source.content_hash must be 64 lower-case hex digits, got '" +
               source.contentHash + "'");
  if (source.entry.empty())
    return bad("source.entry (the kernel name) is empty");
  if (source.kind == SourceKind::kMLIRStage && source.stage.empty())
    return bad("source.stage is empty for kind mlir-stage");
  if (target.backend != "cuda" && target.backend != "hip")
    return bad("target.backend must be cuda or hip, got '" + target.backend + "'");
  if (target.arch.empty())
    return bad("target.arch is empty");
  if (target.warpSize != 32 && target.warpSize != 64)
    return bad("target.warp_size must be 32 or 64, got " + std::to_string(target.warpSize));
  if (target.ptxVersion < 0 || target.codeObjectVersion < 0)
    return bad("target versions must not be negative");
  if (options.numWarps < 1 || options.numWarps > 1024)
    return bad("options.num_warps must be in [1, 1024], got " + std::to_string(options.numWarps));
  if (options.numStages < 0 || options.numStages > 1024)
    return bad("options.num_stages must be in [0, 1024], got " +
               std::to_string(options.numStages));
  if (options.numCtas < 1 || options.numCtas > 16)
    return bad("options.num_ctas must be in [1, 16], got " + std::to_string(options.numCtas));
  if (options.maxnreg < 0 || options.maxnreg > 255)
    return bad("options.maxnreg must be in [0, 255] (0 = no limit), got " +
               std::to_string(options.maxnreg));
  if (options.optLevel < 0 || options.optLevel > 3)
    return bad("options.opt_level must be in [0, 3], got " + std::to_string(options.optLevel));
  const std::vector<std::string>& levels = ptxasFastCompileLevels();
  if (std::find(levels.begin(), levels.end(), options.ptxasFastCompile) == levels.end())
    return bad("options.ptxas_fast_compile must be 0, min, mid or max, got '" +
               options.ptxasFastCompile + "'");
  if (options.ptxasFastCompile != "0" && target.backend != "cuda")
    return bad("options.ptxas_fast_compile applies to cuda targets only, got '" +
               options.ptxasFastCompile + "' for " + target.backend);
  if (pipelineFingerprint.empty())
    return bad("pipeline.fingerprint is empty");
  if (!toolchain.libdeviceSha256.empty() && !isSha256Hex(toolchain.libdeviceSha256))
    return bad("toolchain.libdevice_sha256 must be empty or 64 lower-case hex digits");
  return {};
}

std::string CompileJob::canonicalJson() const {
  CompileJob n = *this;
  n.normalize();
  return toJson(n).dump();
}

std::string CompileJob::prettyJson() const {
  CompileJob n = *this;
  n.normalize();
  return toJson(n).dump(2);
}

std::string CompileJob::key() const { return sha256Hex(canonicalJson()); }

Expected<CompileJob> parseCompileJob(std::string_view text) {
  json doc = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded())
    return Status(StatusCode::kCorrupt, "compile job: not valid JSON");
  if (!doc.is_object())
    return Status(StatusCode::kCorrupt, "compile job: not a JSON object");
  std::string error;
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    static const char* known[] = {"format", "source", "target", "options", "pipeline", "toolchain"};
    if (std::find_if(std::begin(known), std::end(known),
                     [&](const char* k) { return it.key() == k; }) == std::end(known)) {
      error = "unknown field '" + it.key() + "'";
      break;
    }
  }
  if (error.empty()) {
    auto format = doc.find("format");
    if (format != doc.end() && (!format->is_string() || *format != kJobFormat))
      error = std::string("format must be '") + kJobFormat + "'";
  }
  CompileJob job;
  Section source(doc, "source", error);
  std::string kind = "ttir";
  source.str("kind", kind);
  source.str("stage", job.source.stage);
  source.str("content_hash", job.source.contentHash, true);
  source.str("entry", job.source.entry, true);
  source.finish();
  if (kind == "ttir")
    job.source.kind = SourceKind::kTTIR;
  else if (kind == "mlir-stage")
    job.source.kind = SourceKind::kMLIRStage;
  else if (kind == "llvm-ir")
    job.source.kind = SourceKind::kLLVMIR;
  else if (kind == "ptx")
    job.source.kind = SourceKind::kPTX;
  else if (error.empty())
    error = "source.kind must be ttir, mlir-stage, llvm-ir or ptx, got '" + kind + "'";

  Section target(doc, "target", error);
  target.str("backend", job.target.backend);
  target.str("arch", job.target.arch, true);
  target.integer("ptx_version", job.target.ptxVersion);
  target.integer("code_object_version", job.target.codeObjectVersion);
  target.integer("warp_size", job.target.warpSize);
  target.finish();

  Section options(doc, "options", error);
  options.integer("num_warps", job.options.numWarps);
  options.integer("num_stages", job.options.numStages);
  options.integer("num_ctas", job.options.numCtas);
  options.integer("maxnreg", job.options.maxnreg);
  options.integer("opt_level", job.options.optLevel);
  options.str("ptxas_fast_compile", job.options.ptxasFastCompile);
  options.boolean("fp_fusion", job.options.fpFusion);
  options.boolean("ftz", job.options.ftz);
  options.boolean("line_info", job.options.lineInfo);
  options.boolean("debug", job.options.debug);
  options.finish();

  Section pipeline(doc, "pipeline", error);
  pipeline.str("fingerprint", job.pipelineFingerprint, true);
  pipeline.finish();

  Section toolchain(doc, "toolchain", error);
  toolchain.str("kiln_version", job.toolchain.kilnVersion);
  toolchain.str("llvm_version", job.toolchain.llvmVersion);
  toolchain.str("ptxas_version", job.toolchain.ptxasVersion);
  toolchain.str("linker_version", job.toolchain.linkerVersion);
  toolchain.str("libdevice_sha256", job.toolchain.libdeviceSha256);
  toolchain.finish();

  if (!error.empty())
    return Status(StatusCode::kCorrupt, "compile job: " + error);
  job.normalize();
  if (Status s = job.validate(); !s.ok())
    return Status(StatusCode::kCorrupt, "compile job: " + s.message());
  return job;
}

std::string hashSourceText(std::string_view canonicalText) { return sha256Hex(canonicalText); }

std::string pipelineFingerprint(std::string_view printedPipeline,
                                std::vector<PluginIdentity> plugins) {
  std::sort(plugins.begin(), plugins.end(), [](const PluginIdentity& a, const PluginIdentity& b) {
    return std::tie(a.name, a.version, a.sha256) < std::tie(b.name, b.version, b.sha256);
  });
  json list = json::array();
  for (const PluginIdentity& p : plugins)
    list.push_back({{"name", p.name}, {"version", p.version}, {"sha256", p.sha256}});
  json doc = {{"pipeline", std::string(printedPipeline)}, {"plugins", list}};
  return sha256Hex(doc.dump());
}

bool isValidKey(std::string_view key) { return isSha256Hex(key); }

} // namespace kiln::cache
