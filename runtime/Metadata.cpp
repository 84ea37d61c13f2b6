// Metadata.cpp: parsing and validation of kiln-kernel/1 metadata.json.
#include "runtime/Metadata.h"

#include <cctype>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

namespace kiln::runtime {
namespace {

using json = nlohmann::json;

const char* jsonTypeName(const json& v) {
  switch (v.type()) {
  case json::value_t::null: return "null";
  case json::value_t::boolean: return "boolean";
  case json::value_t::string: return "string";
  case json::value_t::array: return "array";
  case json::value_t::object: return "object";
  case json::value_t::number_float: return "number";
  case json::value_t::number_integer:
  case json::value_t::number_unsigned: return "integer";
  default: return "value";
  }
}

/// Field readers: each reports "<origin>: field '<path>' ..." on error.
class Reader {
public:
  explicit Reader(std::string_view origin) : origin_(origin) {}

  Status error(const std::string& what) const {
    return Status(StatusCode::kMetadataError, origin_ + ": " + what);
  }

  Status need(const json& obj, const char* parent, const char* key, const json** out) const {
    auto it = obj.find(key);
    if (it == obj.end())
      return error("missing field '" + path(parent, key) + "'");
    *out = &*it;
    return Status();
  }

  Status getString(const json& obj, const char* parent, const char* key, std::string* out,
                   bool allowEmpty = false) const {
    const json* v;
    KILN_RETURN_IF_ERROR(need(obj, parent, key, &v));
    if (!v->is_string())
      return error("field '" + path(parent, key) + "' must be a string, got " + jsonTypeName(*v));
    *out = v->get<std::string>();
    if (!allowEmpty && out->empty())
      return error("field '" + path(parent, key) + "' must not be empty");
    return Status();
  }

  Status getInt(const json& obj, const char* parent, const char* key, int64_t min, int64_t max,
                int64_t* out) const {
    const json* v;
    KILN_RETURN_IF_ERROR(need(obj, parent, key, &v));
    return checkInt(*v, path(parent, key), min, max, out);
  }

  Status checkInt(const json& v, const std::string& where, int64_t min, int64_t max,
                  int64_t* out) const {
    if (!v.is_number_integer())
      return error("field '" + where + "' must be an integer, got " + jsonTypeName(v));
    if (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX))
      return error("field '" + where + "' is out of range");
    int64_t x = v.get<int64_t>();
    if (x < min || x > max)
      return error("field '" + where + "' must be in [" + std::to_string(min) + ", " +
                   std::to_string(max) + "], got " + std::to_string(x));
    *out = x;
    return Status();
  }

  Status getObject(const json& obj, const char* parent, const char* key, const json** out) const {
    KILN_RETURN_IF_ERROR(need(obj, parent, key, out));
    if (!(*out)->is_object())
      return error("field '" + path(parent, key) + "' must be an object, got " +
                   jsonTypeName(**out));
    return Status();
  }

private:
  static std::string path(const char* parent, const char* key) {
    return parent && *parent ? std::string(parent) + "." + key : std::string(key);
  }
  std::string origin_;
};

bool isHex(std::string_view s) {
  for (char c : s)
    if (!std::isxdigit(static_cast<unsigned char>(c)))
      return false;
  return true;
}

int hexValue(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  return std::tolower(static_cast<unsigned char>(c)) - 'a' + 10;
}

} // namespace

const char* backendName(Backend backend) { return backend == Backend::kCuda ? "cuda" : "hip"; }

const char* argKindName(ArgKind kind) {
  switch (kind) {
  case ArgKind::kPtr: return "ptr";
  case ArgKind::kI1: return "i1";
  case ArgKind::kI8: return "i8";
  case ArgKind::kI16: return "i16";
  case ArgKind::kI32: return "i32";
  case ArgKind::kI64: return "i64";
  case ArgKind::kF16: return "f16";
  case ArgKind::kBF16: return "bf16";
  case ArgKind::kF32: return "f32";
  case ArgKind::kF64: return "f64";
  }
  return "?";
}

size_t argKindSize(ArgKind kind) {
  switch (kind) {
  case ArgKind::kPtr:
  case ArgKind::kI64:
  case ArgKind::kF64: return 8;
  case ArgKind::kI32:
  case ArgKind::kF32: return 4;
  case ArgKind::kI16:
  case ArgKind::kF16:
  case ArgKind::kBF16: return 2;
  case ArgKind::kI1:
  case ArgKind::kI8: return 1;
  }
  return 0;
}

Expected<ArgType> parseArgType(std::string_view text) {
  ArgType t;
  t.spelling = std::string(text);
  static const ArgKind scalars[] = {ArgKind::kI1,  ArgKind::kI8,   ArgKind::kI16,
                                    ArgKind::kI32, ArgKind::kI64,  ArgKind::kF16,
                                    ArgKind::kBF16, ArgKind::kF32, ArgKind::kF64};
  for (ArgKind k : scalars) {
    if (text == argKindName(k)) {
      t.kind = k;
      return t;
    }
  }
  if (text.size() > 5 && text.substr(0, 4) == "ptr<" && text.back() == '>') {
    t.kind = ArgKind::kPtr;
    t.pointee = std::string(text.substr(4, text.size() - 5));
    if (!t.pointee.empty())
      return t;
  }
  return Status(StatusCode::kMetadataError,
                "unknown argument type '" + std::string(text) +
                    "' (expected ptr<T>, i1, i8, i16, i32, i64, f16, bf16, f32 or f64)");
}

Status parseArch(Backend backend, std::string_view arch, Target* target) {
  auto bad = [&](const char* expected) {
    return Status(StatusCode::kMetadataError, "unknown " + std::string(backendName(backend)) +
                                                  " architecture '" + std::string(arch) +
                                                  "' (expected " + expected + ")");
  };
  target->arch = std::string(arch);
  target->archSpecific = false;
  target->archStepping = 0;
  if (backend == Backend::kCuda) {
    // sm_<major><minor>[a]: the last digit is the minor version (sm_90 ->
    // 9.0, sm_120 -> 12.0), as in nvcc's -arch names.
    if (arch.size() < 5 || arch.substr(0, 3) != "sm_")
      return bad("sm_<digits> or sm_<digits>a, e.g. sm_90 or sm_90a");
    std::string_view digits = arch.substr(3);
    if (digits.back() == 'a') {
      target->archSpecific = true;
      digits.remove_suffix(1);
    }
    if (digits.size() < 2 || digits.size() > 4)
      return bad("sm_<digits> or sm_<digits>a, e.g. sm_90 or sm_90a");
    for (char c : digits)
      if (!std::isdigit(static_cast<unsigned char>(c)))
        return bad("sm_<digits> or sm_<digits>a, e.g. sm_90 or sm_90a");
    target->archMajor = std::stoi(std::string(digits.substr(0, digits.size() - 1)));
    target->archMinor = digits.back() - '0';
    return Status();
  }
  // gfx<major><minor><stepping>, minor and stepping one hex digit each
  // (gfx90a -> 9.0 stepping a, gfx942 -> 9.4 stepping 2, gfx1100 -> 11.0).
  if (arch.size() < 6 || arch.substr(0, 3) != "gfx")
    return bad("gfx<major><minor><stepping>, e.g. gfx90a or gfx942");
  std::string_view digits = arch.substr(3);
  std::string_view major = digits.substr(0, digits.size() - 2);
  if (major.size() > 2 || !isHex(digits.substr(digits.size() - 2)))
    return bad("gfx<major><minor><stepping>, e.g. gfx90a or gfx942");
  for (char c : major)
    if (!std::isdigit(static_cast<unsigned char>(c)))
      return bad("gfx<major><minor><stepping>, e.g. gfx90a or gfx942");
  target->archMajor = std::stoi(std::string(major));
  target->archMinor = hexValue(digits[digits.size() - 2]);
  target->archStepping = hexValue(digits.back());
  return Status();
}

Expected<KernelMetadata> parseKernelMetadata(std::string_view jsonText, std::string_view origin) {
  Reader r(origin);
  json doc = json::parse(jsonText.begin(), jsonText.end(), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) {
    // Re-parse with a sax-less call to get the position of the error without
    // letting an exception escape.
    std::string where;
    try {
      json ignored = json::parse(jsonText.begin(), jsonText.end());
      (void)ignored;
    } catch (const json::parse_error& e) {
      where = std::string(": ") + e.what();
    }
    return r.error("not valid JSON" + where);
  }
  if (!doc.is_object())
    return r.error(std::string("the document must be a JSON object, got ") + jsonTypeName(doc));

  KernelMetadata m;
  KILN_RETURN_IF_ERROR(r.getString(doc, "", "format", &m.format));
  if (m.format != kKernelFormat)
    return r.error("unsupported format '" + m.format + "' (this runtime reads '" + kKernelFormat +
                   "')");
  KILN_RETURN_IF_ERROR(r.getString(doc, "", "kernel", &m.kernel));

  const json* target;
  KILN_RETURN_IF_ERROR(r.getObject(doc, "", "target", &target));
  std::string backend;
  KILN_RETURN_IF_ERROR(r.getString(*target, "target", "backend", &backend));
  if (backend == "cuda")
    m.target.backend = Backend::kCuda;
  else if (backend == "hip")
    m.target.backend = Backend::kHip;
  else
    return r.error("field 'target.backend': unknown backend '" + backend +
                   "' (expected cuda or hip)");
  std::string arch;
  KILN_RETURN_IF_ERROR(r.getString(*target, "target", "arch", &arch));
  Status archStatus = parseArch(m.target.backend, arch, &m.target);
  if (!archStatus.ok())
    return r.error("field 'target.arch': " + archStatus.message());
  int64_t v;
  KILN_RETURN_IF_ERROR(r.getInt(*target, "target", "warp_size", 1, 1024, &v));
  m.target.warpSize = static_cast<int>(v);
  if (m.target.backend == Backend::kCuda && v != 32)
    return r.error("field 'target.warp_size' must be 32 for cuda, got " + std::to_string(v));
  if (m.target.backend == Backend::kHip && v != 32 && v != 64)
    return r.error("field 'target.warp_size' must be 32 or 64 for hip, got " + std::to_string(v));

  KILN_RETURN_IF_ERROR(r.getInt(doc, "", "num_warps", 1, 1024, &v));
  m.numWarps = static_cast<int>(v);
  KILN_RETURN_IF_ERROR(r.getInt(doc, "", "num_stages", 0, 1024, &v));
  m.numStages = static_cast<int>(v);
  m.numCtas = 1;
  if (doc.contains("num_ctas")) {
    KILN_RETURN_IF_ERROR(r.getInt(doc, "", "num_ctas", 1, 1024, &v));
    if (v != 1)
      return r.error("field 'num_ctas' is " + std::to_string(v) +
                     ": this runtime launches single-CTA kernels only (no thread-block clusters)");
    m.numCtas = 1;
  }
  KILN_RETURN_IF_ERROR(r.getInt(doc, "", "shared_bytes", 0, INT32_MAX, &v));
  m.sharedBytes = static_cast<uint64_t>(v);

  const json* sig;
  KILN_RETURN_IF_ERROR(r.need(doc, "", "signature", &sig));
  if (!sig->is_array())
    return r.error(std::string("field 'signature' must be an array, got ") + jsonTypeName(*sig));
  for (size_t i = 0; i < sig->size(); ++i) {
    const json& e = (*sig)[i];
    std::string where = "signature[" + std::to_string(i) + "]";
    if (!e.is_object())
      return r.error("field '" + where + "' must be an object, got " + jsonTypeName(e));
    SignatureEntry entry;
    KILN_RETURN_IF_ERROR(r.getString(e, where.c_str(), "name", &entry.name));
    std::string type;
    KILN_RETURN_IF_ERROR(r.getString(e, where.c_str(), "type", &type));
    Expected<ArgType> t = parseArgType(type);
    if (!t)
      return r.error("field '" + where + ".type' of argument '" + entry.name +
                     "': " + t.status().message());
    entry.type = std::move(*t);
    m.signature.push_back(std::move(entry));
  }

  const json* binary;
  KILN_RETURN_IF_ERROR(r.getObject(doc, "", "binary", &binary));
  KILN_RETURN_IF_ERROR(r.getString(*binary, "binary", "file", &m.binary.file));
  if (m.binary.file.find('/') != std::string::npos || m.binary.file == "." ||
      m.binary.file == "..")
    return r.error("field 'binary.file' must be a file name inside the artifact directory, got '" +
                   m.binary.file + "'");
  KILN_RETURN_IF_ERROR(r.getInt(*binary, "binary", "size", 1, INT64_MAX, &v));
  m.binary.size = static_cast<uint64_t>(v);
  KILN_RETURN_IF_ERROR(r.getString(*binary, "binary", "sha256", &m.binary.sha256));
  if (m.binary.sha256.size() != 64 || !isHex(m.binary.sha256))
    return r.error("field 'binary.sha256' must be 64 hex digits, got '" + m.binary.sha256 + "'");
  for (char& c : m.binary.sha256)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));

  if (doc.contains("job_key")) {
    KILN_RETURN_IF_ERROR(r.getString(doc, "", "job_key", &m.jobKey, /*allowEmpty=*/true));
    if (!isHex(m.jobKey))
      return r.error("field 'job_key' must be hex digits, got '" + m.jobKey + "'");
  }
  if (doc.contains("extra_args")) {
    const json* extra;
    KILN_RETURN_IF_ERROR(r.getObject(doc, "", "extra_args", &extra));
    if (extra->contains("trailing_null_pointers")) {
      KILN_RETURN_IF_ERROR(r.getInt(*extra, "extra_args", "trailing_null_pointers", 0, 16, &v));
      m.trailingNullPointers = static_cast<int>(v);
    }
  }
  return m;
}

Expected<KernelMetadata> readKernelMetadata(const std::string& artifactDir) {
  std::string path = artifactDir + "/" + kMetadataFileName;
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return Status(StatusCode::kNotFound, "cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad())
    return Status(StatusCode::kNotFound, "error reading " + path);
  return parseKernelMetadata(text.str(), path);
}

Expected<std::string> artifactTextFileName(const std::string& kernel, std::string_view name) {
  if (name == "kgpu")
    return kernel + ".kgpu.mlir";
  if (name == "llvm")
    return kernel + ".llvm.mlir";
  if (name == "ll")
    return kernel + ".ll";
  if (name == "ptx")
    return kernel + ".ptx";
  return Status(StatusCode::kInvalidArgument,
                "unknown artifact text '" + std::string(name) +
                    "': expected kgpu (<kernel>.kgpu.mlir), llvm (<kernel>.llvm.mlir), "
                    "ll (<kernel>.ll) or ptx (<kernel>.ptx)");
}

Expected<std::string> readMetadataJobKey(const std::string& artifactDir) {
  std::string path = artifactDir + "/" + kMetadataFileName;
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return Status(StatusCode::kNotFound, "cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad())
    return Status(StatusCode::kNotFound, "error reading " + path);
  json doc = json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object())
    return Status(StatusCode::kMetadataError, path + ": not a JSON object");
  auto it = doc.find("job_key");
  if (it == doc.end())
    return std::string();
  if (!it->is_string())
    return Status(StatusCode::kMetadataError, path + ": field 'job_key' must be a string");
  return it->get<std::string>();
}

std::string kernelMetadataToJson(const KernelMetadata& m) {
  json sig = json::array();
  for (const SignatureEntry& e : m.signature)
    sig.push_back({{"name", e.name}, {"type", e.type.spelling}});
  json doc = {
      {"format", m.format},
      {"kernel", m.kernel},
      {"target",
       {{"backend", backendName(m.target.backend)},
        {"arch", m.target.arch},
        {"warp_size", m.target.warpSize}}},
      {"num_warps", m.numWarps},
      {"num_stages", m.numStages},
      {"num_ctas", m.numCtas},
      {"shared_bytes", m.sharedBytes},
      {"signature", sig},
      {"binary", {{"file", m.binary.file}, {"size", m.binary.size}, {"sha256", m.binary.sha256}}},
      {"job_key", m.jobKey},
      {"extra_args", {{"trailing_null_pointers", m.trailingNullPointers}}},
  };
  return doc.dump(2) + "\n";
}

} // namespace kiln::runtime
