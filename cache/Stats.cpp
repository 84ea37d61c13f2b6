// Stats.cpp: the flock'd counter file.
#include "cache/Stats.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include "cache/FileUtil.h"

namespace kiln::cache {
namespace {

struct Field {
  const char* name;
  int64_t CacheCounters::*member;
};
constexpr Field kFields[] = {
    {"hits", &CacheCounters::hits},
    {"misses", &CacheCounters::misses},
    {"compiles", &CacheCounters::compiles},
    {"quarantined", &CacheCounters::quarantined},
    {"evictions", &CacheCounters::evictions},
    {"publish_failures", &CacheCounters::publishFailures},
    {"bytes", &CacheCounters::bytes},
};

/// The counter file: global counters, then "name@scope value" lines.
struct CounterFile {
  CacheCounters global;
  std::map<std::string, CacheCounters> scoped;
};

/// Fields counted per scope.
bool isScopedField(const char* name) {
  return std::strcmp(name, "hits") == 0 || std::strcmp(name, "misses") == 0 ||
         std::strcmp(name, "compiles") == 0;
}

CounterFile parse(const std::string& text) {
  CounterFile file;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos)
      end = text.size();
    std::string line = text.substr(pos, end - pos);
    pos = end + 1;
    char name[160];
    long long value;
    if (std::sscanf(line.c_str(), "%159s %lld", name, &value) != 2)
      continue;
    std::string full = name;
    size_t at = full.find('@');
    std::string field = full.substr(0, at);
    CacheCounters& c =
        at == std::string::npos ? file.global : file.scoped[full.substr(at + 1)];
    for (const Field& f : kFields)
      if (field == f.name)
        c.*f.member = value;
  }
  return file;
}

std::string format(const CounterFile& file) {
  std::string out;
  for (const Field& f : kFields)
    out += std::string(f.name) + " " + std::to_string(file.global.*f.member) + "\n";
  for (const auto& [scope, c] : file.scoped)
    for (const Field& f : kFields)
      if (isScopedField(f.name))
        out += std::string(f.name) + "@" + scope + " " + std::to_string(c.*f.member) + "\n";
  return out;
}

std::string readFd(int fd) {
  std::string data;
  char buf[1024];
  off_t off = 0;
  for (;;) {
    ssize_t n = ::pread(fd, buf, sizeof buf, off);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    data.append(buf, static_cast<size_t>(n));
    off += n;
  }
  return data;
}

} // namespace

void CacheCounters::add(const CacheCounters& o) {
  for (const Field& f : kFields)
    this->*f.member += o.*f.member;
}

Expected<CacheCounters> updateCounters(const std::string& statsDir, const CacheCounters& delta, int64_t setBytes,
                                       const std::string& scope) {
  std::string path = fs::join(statsDir, "counters");
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0 && errno == ENOENT) {
    if (Status s = fs::makeDirs(statsDir); !s.ok())
      return s;
    fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  }
  if (fd < 0)
    return Status::fromErrno("cannot open " + path, errno);
  int rc;
  do
    rc = ::flock(fd, LOCK_EX);
  while (rc != 0 && errno == EINTR);
  CounterFile file = parse(readFd(fd));
  CacheCounters& c = file.global;
  c.add(delta);
  if (setBytes >= 0)
    c.bytes = setBytes;
  if (c.bytes < 0)
    c.bytes = 0;
  // Scopes are single tokens (no spaces, no '@'); anything else is not
  // recorded per scope rather than corrupting the file.
  if (!scope.empty() && scope.size() < 100 &&
      scope.find_first_of(" \t\n@") == std::string::npos) {
    CacheCounters& sc = file.scoped[scope];
    sc.hits += delta.hits;
    sc.misses += delta.misses;
    sc.compiles += delta.compiles;
  }
  std::string text = format(file);
  Status status;
  if (::pwrite(fd, text.data(), text.size(), 0) != static_cast<ssize_t>(text.size()) ||
      ::ftruncate(fd, static_cast<off_t>(text.size())) != 0)
    status = Status::fromErrno("cannot write " + path, errno);
  ::close(fd); // releases the lock
  if (!status.ok())
    return status;
  return c;
}

Expected<CacheCounters> readCounters(const std::string& statsDir) {
  std::string path = fs::join(statsDir, "counters");
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT)
      return CacheCounters{};
    return Status::fromErrno("cannot open " + path, errno);
  }
  ::flock(fd, LOCK_SH);
  CacheCounters c = parse(readFd(fd)).global;
  ::close(fd);
  return c;
}

Expected<std::map<std::string, CacheCounters>> readScopedCounters(const std::string& statsDir) {
  std::string path = fs::join(statsDir, "counters");
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT)
      return std::map<std::string, CacheCounters>{};
    return Status::fromErrno("cannot open " + path, errno);
  }
  ::flock(fd, LOCK_SH);
  std::map<std::string, CacheCounters> scoped = parse(readFd(fd)).scoped;
  ::close(fd);
  return scoped;
}

} // namespace kiln::cache
