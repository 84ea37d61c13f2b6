// Stats.cpp: the flock'd counter file.
#include "cache/Stats.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
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

CacheCounters parse(const std::string& text) {
  CacheCounters c;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos)
      end = text.size();
    std::string line = text.substr(pos, end - pos);
    pos = end + 1;
    char name[32];
    long long value;
    if (std::sscanf(line.c_str(), "%31s %lld", name, &value) != 2)
      continue;
    for (const Field& f : kFields)
      if (std::strcmp(f.name, name) == 0)
        c.*f.member = value;
  }
  return c;
}

std::string format(const CacheCounters& c) {
  std::string out;
  for (const Field& f : kFields)
    out += std::string(f.name) + " " + std::to_string(c.*f.member) + "\n";
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

Expected<CacheCounters> updateCounters(const std::string& statsDir, const CacheCounters& delta, int64_t setBytes) {
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
  CacheCounters c = parse(readFd(fd));
  c.add(delta);
  if (setBytes >= 0)
    c.bytes = setBytes;
  if (c.bytes < 0)
    c.bytes = 0;
  std::string text = format(c);
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
  CacheCounters c = parse(readFd(fd));
  ::close(fd);
  return c;
}

} // namespace kiln::cache
