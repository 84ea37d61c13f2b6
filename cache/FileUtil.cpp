// FileUtil.cpp: POSIX implementations of the store's file helpers.
#include "cache/FileUtil.h"

#include <cerrno>
#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace kiln::cache::fs {

std::string join(const std::string& a, const std::string& b) {
  if (a.empty() || a.back() == '/')
    return a + b;
  return a + "/" + b;
}

Expected<std::string> readFile(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return Status::fromErrno("cannot open " + path, errno);
  std::string data;
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      int err = errno;
      ::close(fd);
      return Status::fromErrno("cannot read " + path, err);
    }
    if (n == 0)
      break;
    data.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return data;
}

Status writeFileSync(const std::string& path, const std::string& data) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0)
    return Status::fromErrno("cannot create " + path, errno);
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      int err = n < 0 ? errno : ENOSPC;
      ::close(fd);
      return Status::fromErrno("cannot write " + path, err);
    }
    done += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0) {
    int err = errno;
    ::close(fd);
    return Status::fromErrno("cannot fsync " + path, err);
  }
  if (::close(fd) != 0)
    return Status::fromErrno("cannot close " + path, errno);
  return {};
}

Status fsyncDir(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    return Status::fromErrno("cannot open directory " + path, errno);
  int rc = ::fsync(fd);
  int err = errno;
  ::close(fd);
  // Some filesystems refuse fsync on directories; the rename is still atomic.
  if (rc != 0 && err != EINVAL && err != EROFS)
    return Status::fromErrno("cannot fsync directory " + path, err);
  return {};
}

Status makeDirs(const std::string& path) {
  if (path.empty())
    return Status(StatusCode::kInvalidArgument, "empty directory path");
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode))
      return {};
    return Status(StatusCode::kIoError, path + " exists and is not a directory", ENOTDIR);
  }
  size_t slash = path.find_last_of('/');
  if (slash != std::string::npos && slash > 0)
    if (Status s = makeDirs(path.substr(0, slash)); !s.ok())
      return s;
  if (::mkdir(path.c_str(), 0755) != 0 && errno != EEXIST)
    return Status::fromErrno("cannot create directory " + path, errno);
  return {};
}

bool removeTree(const std::string& path) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0)
    return errno == ENOENT;
  if (!S_ISDIR(st.st_mode))
    return ::unlink(path.c_str()) == 0 || errno == ENOENT;
  // A directory its owner cannot read or write (an imported archive's
  // mode 0555 or 0000 folders): made rwx for the owner first, so that its
  // contents can be listed and removed. (root needs none of this.)
  if ((st.st_mode & S_IRWXU) != S_IRWXU)
    (void)::chmod(path.c_str(), (st.st_mode & 07777) | S_IRWXU);
  bool ok = true;
  for (const std::string& name : listDir(path))
    ok &= removeTree(join(path, name));
  return (::rmdir(path.c_str()) == 0 || errno == ENOENT) && ok;
}

std::vector<std::string> listDir(const std::string& path) {
  std::vector<std::string> names;
  DIR* dir = ::opendir(path.c_str());
  if (!dir)
    return names;
  while (struct dirent* e = ::readdir(dir)) {
    std::string name = e->d_name;
    if (name != "." && name != "..")
      names.push_back(std::move(name));
  }
  ::closedir(dir);
  return names;
}

uint64_t dirBytes(const std::string& dir) {
  uint64_t total = 0;
  for (const std::string& name : listDir(dir)) {
    struct stat st;
    if (::lstat(join(dir, name).c_str(), &st) == 0 && S_ISREG(st.st_mode))
      total += static_cast<uint64_t>(st.st_size);
  }
  return total;
}

int64_t mtimeNs(const std::string& path) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0)
    return 0;
  return int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
}

bool isDir(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

FileLock::FileLock(FileLock&& other) noexcept : fd_(other.fd_), path_(std::move(other.path_)) {
  other.fd_ = -1;
}

FileLock& FileLock::operator=(FileLock&& other) noexcept {
  if (this != &other) {
    release();
    fd_ = other.fd_;
    path_ = std::move(other.path_);
    other.fd_ = -1;
  }
  return *this;
}

FileLock::~FileLock() { release(); }

Expected<FileLock> FileLock::acquire(const std::string& path, Mode mode, bool nonBlocking) {
  for (int attempt = 0; attempt < 1000; ++attempt) {
    int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0 && (errno == EROFS || errno == EACCES))
      fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC); // flock works on read-only fds
    if (fd < 0)
      return Status::fromErrno("cannot open lock file " + path, errno);
    int op = (mode == kShared ? LOCK_SH : LOCK_EX) | (nonBlocking ? LOCK_NB : 0);
    int rc;
    do
      rc = ::flock(fd, op);
    while (rc != 0 && errno == EINTR);
    if (rc != 0) {
      int err = errno;
      ::close(fd);
      return Status::fromErrno("cannot lock " + path, err);
    }
    struct stat byFd, byPath;
    if (::fstat(fd, &byFd) == 0 && ::stat(path.c_str(), &byPath) == 0 &&
        byFd.st_ino == byPath.st_ino && byFd.st_dev == byPath.st_dev) {
      FileLock lock;
      lock.fd_ = fd;
      lock.path_ = path;
      return lock;
    }
    ::close(fd); // unlinked by gc between open and flock: retry on the new file
  }
  return Status(StatusCode::kIoError, "cannot lock " + path + ": it keeps being replaced");
}

void FileLock::unlinkFile() {
  if (fd_ >= 0)
    ::unlink(path_.c_str());
}

void FileLock::release() {
  if (fd_ >= 0) {
    ::close(fd_); // closing the last fd releases the flock
    fd_ = -1;
  }
}

} // namespace kiln::cache::fs
