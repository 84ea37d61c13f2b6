//===- CacheSignals.cpp - the cache's temporaries go with a signal --------===//

#include "tools/common/CacheSignals.h"

#include "cache/Temporary.h"
#include "pipelines/common/SignalCleanup.h"

namespace kiln::tool {

void removeCacheTemporariesOnSignal() {
  installSignalCleanup();
  cache::TemporaryHooks hooks;
  hooks.madePath = [](const char *path, bool tree) {
    removeOnSignal(path, /*directory=*/tree);
  };
  hooks.donePath = [](const char *path) { dontRemoveOnSignal(path); };
  hooks.startedProcess = [](int pid) { killOnSignal(pid); };
  hooks.reapedProcess = [](int pid) { dontKillOnSignal(pid); };
  hooks.making = [](bool begin) {
    if (begin)
      beginRegistration();
    else
      endRegistration();
  };
  cache::setTemporaryHooks(hooks);
}

} // namespace kiln::tool
