// CacheTestUtil.h: helpers shared by the cache tests: a valid sample job,
// fresh temp directories, compile outputs and fork()ed children.
#ifndef KILN_TEST_CACHE_CACHETESTUTIL_H
#define KILN_TEST_CACHE_CACHETESTUTIL_H

#include <functional>
#include <sys/types.h>
#include <string>

#include "cache/CompileJob.h"
#include "cache/Store.h"

namespace kiln::cache::testing {

/// A valid job; `variant` changes the source hash so keys differ.
CompileJob sampleJob(int variant = 0);

/// A fresh empty directory under TEST_TMPDIR (or /tmp), realpath'd.
std::string makeTempDir(const std::string& tag);

/// Three artifacts (a fake cubin of `cubinBytes` bytes, PTX, metadata).
CompileOutput sampleOutput(size_t cubinBytes = 4096, char fill = 'c');

/// StoreOptions for `root` whose warnings are appended to `*warnings`.
StoreOptions optionsFor(const std::string& root, std::vector<std::string>* warnings = nullptr);

/// Runs `body` in a fork()ed child; returns its exit status (or 128+signal).
int runInChild(const std::function<int()>& body);

/// Sends `sig` to child process `child`, reaps it, and says whether that
/// signal ended it (else `*status`, if given, is its wait status).
bool interruptAndReap(pid_t child, int sig, int* status = nullptr);

/// Writes `data` to `path`, replacing it.
void writeFileOrDie(const std::string& path, const std::string& data);

/// The file's bytes, or "" if it cannot be read.
std::string readFileOrEmpty(const std::string& path);

} // namespace kiln::cache::testing

#endif // KILN_TEST_CACHE_CACHETESTUTIL_H
