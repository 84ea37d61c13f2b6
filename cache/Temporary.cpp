// Temporary.cpp: see Temporary.h.
#include "cache/Temporary.h"

#include <cstdlib>
#include <pthread.h>

namespace kiln::cache {
namespace {
TemporaryHooks hooks;
}  // namespace

void setTemporaryHooks(const TemporaryHooks& h) { hooks = h; }

namespace temporary {

Making::Making() {
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &previous_);
  if (hooks.making)
    hooks.making(true);
}

Making::~Making() {
  if (hooks.making)
    hooks.making(false);
  pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
}

bool makeDirectory(std::string& pattern) {
  Making making;
  if (!::mkdtemp(pattern.data()))
    return false;
  made(pattern, /*tree=*/true);
  return true;
}

int makeFile(std::string& pattern, int flags) {
  Making making;
  int fd = ::mkostemp(pattern.data(), flags);
  if (fd >= 0)
    made(pattern, /*tree=*/false);
  return fd;
}

void made(const std::string& path, bool tree) {
  if (hooks.madePath)
    hooks.madePath(path.c_str(), tree);
}

void done(const std::string& path) {
  if (hooks.donePath)
    hooks.donePath(path.c_str());
}

void started(int pid) {
  if (hooks.startedProcess)
    hooks.startedProcess(pid);
}

void reaped(int pid) {
  if (hooks.reapedProcess)
    hooks.reapedProcess(pid);
}

}  // namespace temporary
}  // namespace kiln::cache
