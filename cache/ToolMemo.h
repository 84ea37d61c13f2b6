// ToolMemo.h: a memo, under the cache root, of facts about the files a
// compile job identifies by content: a tool's `--version` text, a library's
// SHA-256. Running `ptxas --version` (a process) and hashing libdevice
// (470 KB) cost a few ms of every `kiln compile`; while the file is
// unchanged the memo answers from one stat and one small read.
//
// A fact lives in `<root>/tools/<sha256(kind NUL path)>.json` next to the
// file's stamp: device, inode, size, mtime and ctime (stat(2), symlinks
// followed). Writing the file in place changes mtime and ctime; replacing it
// (a rename, a package upgrade, a retargeted symlink) changes the inode;
// resetting mtime (touch -d, cp -p) still changes ctime, which no user can
// set. Two same-size writes within one timestamp tick would leave the stamp
// unchanged (git's "racy clean" problem), so a fact is stored only once the
// file's mtime and ctime are MemoOptions::settleNs old: a file still being
// written is recomputed on each use until it settles. The path itself is
// not written (nothing under the root holds an absolute path). A memo file
// that is missing, unreadable, malformed or for another stamp is a miss; a
// root that cannot be written only means no memo.
#ifndef KILN_CACHE_TOOLMEMO_H
#define KILN_CACHE_TOOLMEMO_H

#include <cstdint>
#include <functional>
#include <string>

#include "cache/Status.h"

namespace kiln::cache {

/// What identifies a file's contents without reading them: stat(2) of its
/// path (symlinks followed).
struct FileStamp {
  uint64_t device = 0;
  uint64_t inode = 0;
  uint64_t size = 0;
  int64_t mtimeNs = 0;
  int64_t ctimeNs = 0;

  bool operator==(const FileStamp& other) const {
    return device == other.device && inode == other.inode && size == other.size &&
           mtimeNs == other.mtimeNs && ctimeNs == other.ctimeNs;
  }
  bool operator!=(const FileStamp& other) const { return !(*this == other); }
};

/// stat(2) of `path`. Errors: kNotFound or kIoError with errno.
Expected<FileStamp> stampOf(const std::string& path);

struct MemoOptions {
  /// A fact is stored only when the file's mtime and ctime are at least
  /// this old (ns; see the file comment). Tests pass 0.
  int64_t settleNs = 2'000'000'000;
};

/// The fact `kind` (a short name such as "ptxas-version" or "sha256") of the
/// file at `path`: the memoized value when `<root>/tools/` holds one for the
/// file's current stamp, else `compute()`'s, stored for the next process
/// when the stamp did not change while it ran and the file has settled.
/// `root` empty, or a file that cannot be stat'ed: `compute()` only.
/// Errors: those of `compute` (never stored); memo I/O failures are misses.
Expected<std::string> memoizedFileFact(const std::string& root, const std::string& kind,
                                       const std::string& path,
                                       const std::function<Expected<std::string>()>& compute,
                                       const MemoOptions& options = {});

/// `<root>/tools/<sha256(kind NUL path)>.json`, where the fact would live.
std::string memoPath(const std::string& root, const std::string& kind, const std::string& path);

}  // namespace kiln::cache

#endif  // KILN_CACHE_TOOLMEMO_H
