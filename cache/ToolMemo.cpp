// ToolMemo.cpp: the memo of file facts (see ToolMemo.h).
#include "cache/ToolMemo.h"

#include <algorithm>
#include <cerrno>
#include <ctime>
#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>
#include <sys/stat.h>
#include <unistd.h>

#include "cache/FileUtil.h"
#include "cache/Sha256.h"
#include "cache/Temporary.h"

namespace kiln::cache {
namespace {

using json = nlohmann::json;

constexpr int kMemoFormat = 1;

int64_t nowNs() {
  timespec ts{};
  ::clock_gettime(CLOCK_REALTIME, &ts);
  return int64_t(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

json stampJson(const FileStamp& s) {
  return {{"device", s.device}, {"inode", s.inode}, {"size", s.size},
          {"mtime_ns", s.mtimeNs}, {"ctime_ns", s.ctimeNs}};
}

/// The memoized value when `text` is a memo of `kind` for `stamp`.
std::optional<std::string> parseMemo(std::string_view text, const std::string& kind,
                                     const FileStamp& stamp) {
  json doc = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object())
    return std::nullopt;
  auto format = doc.find("format");
  auto memoKind = doc.find("kind");
  auto memoStamp = doc.find("stamp");
  auto value = doc.find("value");
  if (format == doc.end() || !format->is_number_integer() || format->get<int>() != kMemoFormat ||
      memoKind == doc.end() || !memoKind->is_string() || memoKind->get<std::string>() != kind ||
      memoStamp == doc.end() || *memoStamp != stampJson(stamp) || value == doc.end() ||
      !value->is_string())
    return std::nullopt;
  return value->get<std::string>();
}

/// Writes the memo through a temporary file and a rename, so readers see the
/// old memo, the new one or none. No fsync: a memo lost or torn by a crash
/// is a miss (it no longer parses), never a wrong value.
void storeMemo(const std::string& path, const std::string& text) {
  std::string dir = path.substr(0, path.rfind('/'));
  if (!fs::makeDirs(dir).ok())
    return;
  std::string tmpl = path + ".XXXXXX";
  int fd = temporary::makeFile(tmpl, 0); // see Temporary.h
  if (fd < 0)
    return;
  temporary::DoneAtExit announced(tmpl); // once renamed or removed below
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    done += size_t(n);
  }
  bool ok = done == text.size();
  ok = ::close(fd) == 0 && ok;
  if (!ok || ::rename(tmpl.c_str(), path.c_str()) != 0)
    ::unlink(tmpl.c_str());
}

}  // namespace

Expected<FileStamp> stampOf(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    int err = errno;
    if (err == ENOENT)
      return Status(StatusCode::kNotFound, path + ": no such file", err);
    return Status::fromErrno(path, err);
  }
  FileStamp s;
  s.device = uint64_t(st.st_dev);
  s.inode = uint64_t(st.st_ino);
  s.size = uint64_t(st.st_size);
  s.mtimeNs = int64_t(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
  s.ctimeNs = int64_t(st.st_ctim.tv_sec) * 1'000'000'000 + st.st_ctim.tv_nsec;
  return s;
}

std::string memoPath(const std::string& root, const std::string& kind, const std::string& path) {
  std::string name = kind;
  name.push_back('\0');
  name += path;
  return fs::join(fs::join(root, "tools"), sha256Hex(name) + ".json");
}

Expected<std::string> memoizedFileFact(const std::string& root, const std::string& kind,
                                       const std::string& path,
                                       const std::function<Expected<std::string>()>& compute,
                                       const MemoOptions& options) {
  if (root.empty())
    return compute();
  Expected<FileStamp> before = stampOf(path);
  if (!before)
    return compute();  // compute() reports the missing file in its own words
  std::string memo = memoPath(root, kind, path);
  if (Expected<std::string> text = fs::readFile(memo); text.ok())
    if (std::optional<std::string> value = parseMemo(*text, kind, *before))
      return *value;

  Expected<std::string> value = compute();
  if (!value)
    return value;
  Expected<FileStamp> after = stampOf(path);
  int64_t newest = std::max(before->mtimeNs, before->ctimeNs);
  if (after.ok() && *after == *before && nowNs() - newest >= options.settleNs) {
    json doc = {{"format", kMemoFormat}, {"kind", kind}, {"stamp", stampJson(*before)},
                {"value", *value}};
    storeMemo(memo, doc.dump() + "\n");
  }
  return value;
}

}  // namespace kiln::cache
