// Archive.cpp: `kiln cache export` / `import`. The archive is a tar made and
// read by the system tar (GNU tar; Debian has no libarchive-dev here), run
// without a shell. Members are `v1/<2 hex>/<key>/<file>`, relative, with
// owner 0 and numeric ids, so an archive holds no path or user of the
// exporting machine. Import trusts nothing in the archive: it lists member
// types first (only files and directories), extracts into a private temp
// dir under the root, checks the layout and verifies every entry like a
// lookup before renaming it into place.
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cache/FileUtil.h"
#include "cache/Sha256.h"
#include "cache/Store.h"

namespace kiln::cache {
namespace {

/// Runs argv[0] from PATH; stdout into `out` if given; stderr into the
/// error message on failure.
Status runProcess(const std::vector<std::string>& argv, std::string* out) {
  int outPipe[2], errPipe[2];
  if (::pipe2(outPipe, O_CLOEXEC) != 0 || ::pipe2(errPipe, O_CLOEXEC) != 0)
    return Status::fromErrno("pipe", errno);
  pid_t pid = ::fork();
  if (pid < 0)
    return Status::fromErrno("fork", errno);
  if (pid == 0) {
    ::dup2(outPipe[1], 1);
    ::dup2(errPipe[1], 2);
    std::vector<char*> args;
    for (const std::string& a : argv)
      args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execvp(args[0], args.data());
    ::_exit(127);
  }
  ::close(outPipe[1]);
  ::close(errPipe[1]);
  std::string stdoutText, stderrText;
  // Drain stdout then stderr; tar's stderr is small, so this cannot deadlock
  // in practice (a full stderr pipe would need 64 KiB of warnings).
  char buf[4096];
  for (int fd : {outPipe[0], errPipe[0]}) {
    std::string& sink = fd == outPipe[0] ? stdoutText : stderrText;
    ssize_t n;
    while ((n = ::read(fd, buf, sizeof buf)) != 0) {
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        break;
      sink.append(buf, static_cast<size_t>(n));
    }
    ::close(fd);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (out)
    *out = std::move(stdoutText);
  if (WIFSIGNALED(status))
    return Status(StatusCode::kSubprocess,
                  argv[0] + " was killed by signal " + std::to_string(WTERMSIG(status)) + " (" +
                      ::strsignal(WTERMSIG(status)) + ")" +
                      (stderrText.empty() ? std::string() : ": " + stderrText));
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return Status(StatusCode::kSubprocess,
                  argv[0] + " failed (status " + std::to_string(WEXITSTATUS(status)) + "): " +
                      stderrText);
  return {};
}

/// `path` made absolute (relative to the current directory).
std::string absolute(const std::string& path) {
  if (!path.empty() && path[0] == '/')
    return path;
  char cwd[PATH_MAX];
  if (!::getcwd(cwd, sizeof cwd))
    return path;
  return fs::join(cwd, path);
}

bool isRegular(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

} // namespace

Status Store::exportArchive(const std::string& archiveFile, const std::vector<std::string>& keys,
                            const ProgressFn& progress) {
  std::vector<std::string> chosen = keys;
  if (chosen.empty())
    for (const EntryInfo& e : list())
      chosen.push_back(e.key);
  std::vector<fs::FileLock> pins; // keep the entries from eviction until tar is done
  std::string listing;
  for (size_t i = 0; i < chosen.size(); ++i) {
    const std::string& key = chosen[i];
    if (!isValidKey(key))
      return Status(StatusCode::kInvalidArgument, "'" + key + "' is not a cache key");
    Expected<fs::FileLock> pin = fs::FileLock::acquire(lockPath(key), fs::FileLock::kShared);
    Expected<CacheResult> entry = readEntry(key);
    if (!entry)
      return Status(entry.status().code(), "cannot export " + key + ": " + entry.status().message());
    if (pin)
      pins.push_back(std::move(*pin));
    listing += "v1/" + key.substr(0, 2) + "/" + key + "\n";
    if (progress)
      progress(i + 1, chosen.size());
  }
  std::string tmpl = fs::join(writable_ ? path("tmp") : "/tmp", "export-XXXXXX");
  int fd = ::mkstemp(tmpl.data());
  if (fd < 0)
    return Status::fromErrno("cannot create a file list", errno);
  bool wrote = ::write(fd, listing.data(), listing.size()) == static_cast<ssize_t>(listing.size());
  ::close(fd);
  Status status = wrote ? runProcess({"tar", "--owner=0", "--group=0", "--numeric-owner",
                                      "-cf", absolute(archiveFile), "-C", root_, "-T", tmpl},
                                     nullptr)
                        : Status::fromErrno("cannot write the file list", errno);
  ::unlink(tmpl.c_str());
  return status;
}

Expected<ImportReport> Store::importArchive(const std::string& archiveFile,
                                            const ProgressFn& progress) {
  if (!writable_)
    return Status(StatusCode::kIoError, "cache root " + root_ + " is read-only", EROFS);
  std::string archive = absolute(archiveFile);
  std::string members;
  if (Status s = runProcess({"tar", "-tvf", archive}, &members); !s.ok())
    return s;
  size_t pos = 0;
  while (pos < members.size()) {
    size_t end = members.find('\n', pos);
    if (end == std::string::npos)
      end = members.size();
    if (end > pos && members[pos] != '-' && members[pos] != 'd')
      return Status(StatusCode::kCorrupt, archiveFile + ": a member is not a file or directory: " +
                                              members.substr(pos, end - pos));
    pos = end + 1;
  }
  std::string tmpl = fs::join(path("tmp"), "import-XXXXXX");
  if (!::mkdtemp(tmpl.data()))
    return Status::fromErrno("cannot create a temp dir in " + path("tmp"), errno);
  std::string staging = tmpl;
  if (Status s = runProcess({"tar", "--no-same-owner", "--no-same-permissions", "-xf", archive,
                             "-C", staging},
                            nullptr);
      !s.ok()) {
    fs::removeTree(staging);
    return s;
  }
  ImportReport report;
  std::vector<std::string> found;
  for (const std::string& top : fs::listDir(staging)) {
    if (top != "v1") {
      report.problems.push_back("unexpected member " + top);
      ++report.rejected;
      continue;
    }
    std::string v1 = fs::join(staging, "v1");
    for (const std::string& shard : fs::listDir(v1))
      for (const std::string& key : fs::listDir(fs::join(v1, shard))) {
        if (!isValidKey(key) || key.compare(0, 2, shard) != 0) {
          report.problems.push_back("unexpected member v1/" + shard + "/" + key);
          ++report.rejected;
          continue;
        }
        found.push_back(key);
      }
  }
  for (size_t i = 0; i < found.size(); ++i) {
    const std::string& key = found[i];
    std::string src = fs::join(fs::join(fs::join(staging, "v1"), key.substr(0, 2)), key);
    std::string problem;
    Expected<std::string> text = fs::readFile(fs::join(src, "manifest.json"));
    Expected<Manifest> manifest =
        text ? parseManifest(*text, key) : Expected<Manifest>(text.status());
    if (!manifest) {
      problem = manifest.status().message();
    } else {
      for (const std::string& name : fs::listDir(src)) {
        const ManifestArtifact* a = manifest->find(name);
        std::string file = fs::join(src, name);
        if (name != "manifest.json" && !a) {
          problem = "unlisted file " + name;
        } else if (!isRegular(file)) {
          problem = name + " is not a regular file";
        } else if (a) {
          Expected<std::string> data = fs::readFile(file);
          if (!data || data->size() != a->size || sha256Hex(*data) != a->sha256)
            problem = name + ": size or SHA-256 differs from the manifest's";
        }
        ::chmod(file.c_str(), 0644);
        if (!problem.empty())
          break;
      }
      for (const ManifestArtifact& a : manifest->artifacts)
        if (problem.empty() && !isRegular(fs::join(src, a.name)))
          problem = a.name + " is missing";
    }
    if (!problem.empty()) {
      report.problems.push_back(key + ": " + problem);
      ++report.rejected;
    } else {
      Expected<fs::FileLock> lock = fs::FileLock::acquire(lockPath(key), fs::FileLock::kExclusive);
      std::string final = entryDir(key);
      ::chmod(src.c_str(), 0755);
      (void)fs::makeDirs(final.substr(0, final.size() - key.size() - 1));
      if (fs::isDir(final)) {
        ++report.present;
      } else if (::rename(src.c_str(), final.c_str()) == 0) {
        ++report.imported;
        CacheCounters delta;
        delta.bytes = static_cast<int64_t>(fs::dirBytes(final));
        count(delta);
      } else {
        report.problems.push_back(key + ": cannot move into place: " + std::to_string(errno));
        ++report.rejected;
      }
    }
    if (progress)
      progress(i + 1, found.size());
  }
  fs::removeTree(staging);
  return report;
}

} // namespace kiln::cache
