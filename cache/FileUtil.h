// FileUtil.h: POSIX file helpers of the store (internal to cache/): whole
// file reads, durable writes (write + fsync), directory fsync, recursive
// removal, listing, and the per-key flock() lock. Every failure is a Status
// carrying errno.
#ifndef KILN_CACHE_FILEUTIL_H
#define KILN_CACHE_FILEUTIL_H

#include <cstdint>
#include <string>
#include <vector>

#include "cache/Status.h"

namespace kiln::cache::fs {

/// `a + "/" + b`.
std::string join(const std::string& a, const std::string& b);

/// The whole file's bytes.
Expected<std::string> readFile(const std::string& path);

/// Creates `path` (must not exist, O_EXCL), writes `data`, fsyncs, closes.
/// A short write (EFBIG under RLIMIT_FSIZE, ENOSPC) is an error with that
/// errno; the partial file is left for the caller's cleanup.
Status writeFileSync(const std::string& path, const std::string& data);

/// fsync() of a directory, so a rename or creation in it is durable.
Status fsyncDir(const std::string& path);

/// mkdir -p with mode 0755; an existing directory is success.
Status makeDirs(const std::string& path);

/// rm -rf; symlinks are removed, never followed. Errors are ignored (the
/// caller's next gc retries); returns false if anything was left.
bool removeTree(const std::string& path);

/// Names in a directory, without "." and ".."; empty if it cannot be read.
std::vector<std::string> listDir(const std::string& path);

/// Total bytes of the regular files directly in `dir` (entries are flat).
uint64_t dirBytes(const std::string& dir);

/// Modification time in nanoseconds since the epoch; 0 if stat fails.
int64_t mtimeNs(const std::string& path);

/// Whether `path` is a directory (not following a final symlink).
bool isDir(const std::string& path);

/// An flock() held on a lock file; released (and the fd closed) on
/// destruction. Lock files may be unlinked by gc while it holds the
/// exclusive lock, so acquire() checks after locking that the path still
/// names the locked inode and retries otherwise (the usual flock-and-unlink
/// protocol).
class FileLock {
public:
  enum Mode { kShared, kExclusive };
  FileLock() = default;
  FileLock(FileLock&& other) noexcept;
  FileLock& operator=(FileLock&& other) noexcept;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  ~FileLock();

  /// Opens (creating, mode 0644) `path` and locks it; blocks unless
  /// `nonBlocking`, where a held lock gives kIoError with EWOULDBLOCK.
  static Expected<FileLock> acquire(const std::string& path, Mode mode, bool nonBlocking = false);
  bool held() const { return fd_ >= 0; }
  /// Unlinks the lock file while holding it (exclusive holders only).
  void unlinkFile();
  void release();

private:
  int fd_ = -1;
  std::string path_;
};

} // namespace kiln::cache::fs

#endif // KILN_CACHE_FILEUTIL_H
