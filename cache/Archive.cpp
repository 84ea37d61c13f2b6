// Archive.cpp: `kiln cache export` / `import`. The archive is a tar made and
// read by the system tar (GNU tar; Debian has no libarchive-dev here), run
// without a shell. Members are `v1/<2 hex>/<key>/<file>`, relative, with
// owner 0 and numeric ids, so an archive holds no path or user of the
// exporting machine. Import trusts nothing in the archive: it lists member
// types first (only files and directories), extracts into a private temp
// dir under the root, checks the layout and verifies every entry like a
// lookup before renaming it into place.
#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <poll.h>
#include <pthread.h>
#include <set>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cache/FileUtil.h"
#include "cache/Sha256.h"
#include "cache/Store.h"
#include "cache/Temporary.h"

namespace kiln::cache {
namespace {

/// Runs argv[0] from PATH with `input` (if given) on its stdin, its stdout
/// into `out` (if given) or onto `stdoutFd` (if not negative), and its
/// stderr into the error message on failure.
/// stdin is one end of a socketpair rather than a pipe, so the input goes
/// out with send(MSG_NOSIGNAL): a child that exits without reading all of
/// it is reported by its exit status, not by a SIGPIPE that would end this
/// process. One poll() loop writes the input and drains both outputs, so
/// no size of any of them can leave the two processes waiting on each
/// other.
Status runProcess(const std::vector<std::string>& argv, std::string* out,
                  const std::string* input = nullptr, int stdoutFd = -1) {
  int outPipe[2] = {-1, -1}, errPipe[2] = {-1, -1}, inSock[2] = {-1, -1};
  auto closeAll = [&] {
    for (int fd : {outPipe[0], outPipe[1], errPipe[0], errPipe[1], inSock[0], inSock[1]})
      if (fd >= 0)
        ::close(fd);
  };
  if ((stdoutFd < 0 && ::pipe2(outPipe, O_CLOEXEC) != 0) || ::pipe2(errPipe, O_CLOEXEC) != 0 ||
      (input && ::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, inSock) != 0)) {
    int err = errno;
    closeAll();
    return Status::fromErrno("cannot make " + argv[0] + "'s pipes", err);
  }
  // The child is announced (Temporary.h) with no signal in between: one
  // that came first would find no tar to end, and tar could go on writing
  // into paths the cleanup removed.
  std::optional<temporary::Making> blocked(std::in_place);
  pid_t pid = ::fork();
  if (pid < 0) {
    int err = errno;
    closeAll();
    return Status::fromErrno("fork", err);
  }
  if (pid == 0) {
    // Copies above the standard descriptors first: with kiln's stdin,
    // stdout or stderr closed, a pipe end can be 0, 1 or 2 itself, where
    // dup2 onto the same number would do nothing and leave it
    // close-on-exec (tar then ran without a stdout).
    // (The copies close at exec; dup2 gives 0, 1 and 2 without the flag.)
    int in = input ? ::fcntl(inSock[1], F_DUPFD_CLOEXEC, 10) : -1;
    int outFd = ::fcntl(stdoutFd >= 0 ? stdoutFd : outPipe[1], F_DUPFD_CLOEXEC, 10);
    int errFd = ::fcntl(errPipe[1], F_DUPFD_CLOEXEC, 10);
    if ((input && in < 0) || outFd < 0 || errFd < 0)
      ::_exit(126);
    if (input)
      ::dup2(in, 0);
    ::dup2(outFd, 1);
    ::dup2(errFd, 2);
    std::vector<char*> args;
    for (const std::string& a : argv)
      args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    // The parent's handlers (an embedder's signal cleanup: it would kill
    // the parent's other children and remove its paths) go back to the
    // default, as execvp would set them, before the signals are unblocked:
    // a signal until then ends this child alone.
    for (int sig = 1; sig < NSIG; ++sig) {
      struct sigaction action;
      if (::sigaction(sig, nullptr, &action) == 0 && !(action.sa_flags & SA_SIGINFO) &&
          (action.sa_handler == SIG_DFL || action.sa_handler == SIG_IGN))
        continue;
      ::signal(sig, SIG_DFL);
    }
    ::pthread_sigmask(SIG_SETMASK, &blocked->previousMask(), nullptr);
    ::execvp(args[0], args.data());
    // The reason reaches the error message through stderr.
    std::string why = "cannot run " + argv[0] + ": " + ::strerror(errno) + "\n";
    (void)!::write(2, why.data(), why.size());
    ::_exit(127);
  }
  temporary::started(pid);
  blocked.reset();
  if (outPipe[1] >= 0)
    ::close(outPipe[1]);
  ::close(errPipe[1]);
  if (input)
    ::close(inSock[1]);
  std::string stdoutText, stderrText;
  size_t sent = 0;
  int inFd = input ? inSock[0] : -1;
  if (inFd >= 0 && input->empty()) {
    ::close(inFd);
    inFd = -1;
  }
  int readFds[2] = {outPipe[0], errPipe[0]};
  char buf[4096];
  while (readFds[0] >= 0 || readFds[1] >= 0 || inFd >= 0) {
    pollfd fds[3];
    nfds_t n = 0;
    for (int fd : readFds)
      if (fd >= 0)
        fds[n++] = {fd, POLLIN, 0};
    if (inFd >= 0)
      fds[n++] = {inFd, POLLOUT, 0};
    if (::poll(fds, n, -1) < 0) {
      if (errno == EINTR)
        continue;
      break;
    }
    for (nfds_t i = 0; i < n; ++i) {
      if (fds[i].revents == 0)
        continue;
      if (fds[i].fd == inFd) {
        ssize_t w = ::send(inFd, input->data() + sent, input->size() - sent,
                           MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w > 0)
          sent += static_cast<size_t>(w);
        if ((w < 0 && errno != EAGAIN && errno != EINTR) || sent == input->size()) {
          ::close(inFd);  // end of input (or the child stopped reading)
          inFd = -1;
        }
        continue;
      }
      std::string& sink = fds[i].fd == outPipe[0] ? stdoutText : stderrText;
      ssize_t r = ::read(fds[i].fd, buf, sizeof buf);
      if (r < 0 && (errno == EINTR || errno == EAGAIN))
        continue;
      if (r > 0) {
        sink.append(buf, static_cast<size_t>(r));
        continue;
      }
      for (int& fd : readFds)
        if (fd == fds[i].fd) {
          ::close(fd);
          fd = -1;
        }
    }
  }
  for (int fd : {readFds[0], readFds[1], inFd})
    if (fd >= 0)
      ::close(fd);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  temporary::reaped(pid);
  if (out)
    *out = std::move(stdoutText);
  // A tool that wrote megabytes before failing: its last lines say why.
  constexpr size_t kMaxErrorText = 4000;
  if (stderrText.size() > kMaxErrorText)
    stderrText = "[" + std::to_string(stderrText.size() - kMaxErrorText) +
                 " earlier bytes left out] " +
                 stderrText.substr(stderrText.size() - kMaxErrorText);
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
                            const ProgressFn& progress, ExportReport* report) {
  // Inside the root the archive would overwrite an artifact (an entry then
  // fails verification) or add a file to an entry. Where it lands (also
  // where its temporary file goes, below): the file's realpath where it
  // exists (a symlink into the root is followed), else its folder's
  // realpath and its name.
  std::string archive = absolute(archiveFile);
  std::string final = archive;
  {
    char resolved[PATH_MAX];
    size_t slash = archive.rfind('/');
    if (::realpath(archive.c_str(), resolved))
      final = resolved;
    else if (::realpath(slash == 0 ? "/" : archive.substr(0, slash).c_str(), resolved))
      final = fs::join(resolved, archive.substr(slash + 1));
  }
  if (final.compare(0, root_.size() + 1, root_ + "/") == 0)
    return Status(StatusCode::kInvalidArgument,
                  "the archive " + archiveFile + " would be inside the cache root " + root_ +
                      ": tar would overwrite or add files there; write it elsewhere");
  // Each key once: a key named twice would be archived twice (as a hard
  // link the second time), which import refuses.
  std::vector<std::string> chosen;
  std::set<std::string> seen;
  for (const std::string& key : keys)
    if (seen.insert(key).second)
      chosen.push_back(key);
  const bool whole = chosen.empty();
  if (whole)
    for (const EntryInfo& e : list())
      chosen.push_back(e.key);
  ExportReport local;
  ExportReport& out = report ? *report : local;
  out = ExportReport{};
  // Every entry stays pinned (a lock file open, shared) until tar is done:
  // raise the soft open-file limit to what that takes, up to the hard one.
  rlimit files{};
  auto tooFewFiles = [&] {
    return ::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur != RLIM_INFINITY &&
           chosen.size() + 32 > files.rlim_cur;
  };
  if (tooFewFiles()) {
    rlim_t want = chosen.size() + 256;
    files.rlim_cur = files.rlim_max == RLIM_INFINITY ? want : std::min<rlim_t>(want, files.rlim_max);
    (void)::setrlimit(RLIMIT_NOFILE, &files);
    if (tooFewFiles())
      return Status(StatusCode::kIoError,
                    "exporting " + std::to_string(chosen.size()) +
                        " entries keeps one lock file open per entry, but the open-file limit "
                        "is " + std::to_string(files.rlim_cur) +
                        " (ulimit -n): raise it, or export fewer keys at a time",
                    EMFILE);
  }
  std::vector<fs::FileLock> pins; // keep the entries from eviction until tar is done
  std::string listing;
  for (size_t i = 0; i < chosen.size(); ++i) {
    const std::string& key = chosen[i];
    if (!isValidKey(key))
      return Status(StatusCode::kInvalidArgument, "'" + key + "' is not a cache key");
    Expected<fs::FileLock> pin = fs::FileLock::acquire(lockPath(key), fs::FileLock::kShared);
    Expected<CacheResult> entry = readEntry(key);
    std::string problem = entry ? std::string() : entry.status().message();
    // Import refuses an entry with a file its manifest does not list.
    if (entry)
      for (const std::string& name : fs::listDir(entryDir(key)))
        if (name != "manifest.json" && !entry->artifacts.count(name)) {
          problem = "unlisted file " + name;
          break;
        }
    if (!problem.empty()) {
      if (!whole)
        return Status(entry ? StatusCode::kCorrupt : entry.status().code(),
                      "cannot export " + key + ": " + problem);
      out.skipped.push_back(key + ": " + problem);
      continue;
    }
    if (pin)
      pins.push_back(std::move(*pin));
    listing += "v1/" + key.substr(0, 2) + "/" + key + "\n";
    ++out.exported;
    if (progress)
      progress(i + 1, chosen.size());
  }
  // Where tar writes (`-f -`, its stdout): a temporary file beside a
  // regular (or new) archive, renamed over it once tar succeeded, so that a
  // failed export leaves an existing archive as it was; the path itself
  // where it is something else (a FIFO, /dev/stdout: opened here, so that
  // /dev/stdout is kiln's stdout, not tar's).
  struct stat target;
  bool special = ::stat(archive.c_str(), &target) == 0 && !S_ISREG(target.st_mode);
  std::string temp;
  int fd = -1;
  if (special) {
    fd = ::open(archive.c_str(), O_WRONLY | O_CLOEXEC);
  } else {
    // ".NAME.kiln-XXXXXX", NAME cut so that the whole stays within
    // NAME_MAX (255): a 243-255 byte archive name could not be exported.
    size_t slash = final.rfind('/');
    std::string name = final.substr(slash + 1).substr(0, NAME_MAX - 13);
    temp = final.substr(0, slash + 1) + "." + name + ".kiln-XXXXXX";
    fd = temporary::makeFile(temp, O_CLOEXEC); // see Temporary.h
    if (fd >= 0) {
      mode_t mask = ::umask(0);
      ::umask(mask);
      (void)::fchmod(fd, 0666 & ~mask);
    }
  }
  if (fd < 0) {
    out.exported = 0;
    return Status::fromErrno("cannot write " + archiveFile, errno);
  }
  temporary::DoneAtExit announced(temp); // renamed or removed below
  // The member list goes to tar on its stdin (`-T -`): no list file that an
  // interrupted export would leave behind.
  Status status = runProcess({"tar", "--owner=0", "--group=0", "--numeric-owner", "-cf", "-",
                              "-C", root_, "--verbatim-files-from", "-T", "-"},
                             nullptr, &listing, fd);
  ::close(fd);
  if (status.ok() && !temp.empty() && ::rename(temp.c_str(), final.c_str()) != 0)
    status = Status::fromErrno("cannot move the archive into place at " + archiveFile, errno);
  if (!status.ok()) {
    if (!temp.empty())
      ::unlink(temp.c_str());
    out.exported = 0;
  }
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
  if (!temporary::makeDirectory(tmpl)) // see Temporary.h
    return Status::fromErrno("cannot create a temp dir in " + path("tmp"), errno);
  std::string staging = tmpl;
  temporary::DoneAtExit announced(staging); // removed below, on every path
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
    // Sizes are checked before anything is read: a member can claim any
    // size (a sparse file costs the archive nothing).
    auto sizeOf = [](const std::string& file) -> int64_t {
      struct stat st;
      return ::lstat(file.c_str(), &st) == 0 ? int64_t(st.st_size) : -1;
    };
    constexpr int64_t kMaxManifestBytes = 1 << 20;
    constexpr uint64_t kMaxArtifactBytes = uint64_t(1) << 30;
    int64_t manifestBytes = sizeOf(fs::join(src, "manifest.json"));
    Expected<std::string> text =
        manifestBytes > kMaxManifestBytes
            ? Expected<std::string>(Status(StatusCode::kCorrupt,
                                           "manifest.json is " + std::to_string(manifestBytes) +
                                               " bytes, more than a manifest can be (1 MiB)"))
            : fs::readFile(fs::join(src, "manifest.json"));
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
        } else if (a && a->size > kMaxArtifactBytes) {
          problem = name + ": the manifest says " + std::to_string(a->size) +
                    " bytes, more than an artifact can be (1 GiB)";
        } else if (a && sizeOf(file) != int64_t(a->size)) {
          problem = name + ": size or SHA-256 differs from the manifest's";
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
