//===- InspectCommand.cpp - `kiln inspect` --------------------------------===//
//
// Prints one stage's IR of a compile job from its cache entry. Given a file
// instead of a key, runs `kiln compile` (a cache hit compiles nothing) into
// a temporary directory first.
//
//===----------------------------------------------------------------------===//

#include "tools/kiln/CacheCommand.h"

#include "cache/FileUtil.h"
#include "cache/Store.h"
#include "cache/Temporary.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace kiln::tool {
namespace {

int fail(const std::string &message) {
  std::fprintf(stderr, "kiln: error: %s\n", message.c_str());
  return 1;
}

/// The artifact holding `stage` of `kernel`, or "" for an unknown stage.
std::string stageFile(const std::string &stage, const std::string &kernel) {
  if (stage == "kgpu")
    return kernel + ".kgpu.mlir";
  if (stage == "llvm")
    return kernel + ".llvm.mlir";
  if (stage == "ll")
    return kernel + ".ll";
  if (stage == "ptx")
    return kernel + ".ptx";
  if (stage == "metadata")
    return "metadata.json";
  if (stage == "manifest")
    return "manifest.json";
  return "";
}

constexpr const char *kStages = "kgpu, llvm, ll, ptx, metadata, manifest";

int inspectKey(const std::string &key, const std::string &stage, const std::string &cacheDir) {
  kiln::cache::StoreOptions storeOptions;
  storeOptions.root = cacheDir;
  kiln::cache::Expected<std::unique_ptr<kiln::cache::Store>> store =
      kiln::cache::Store::open(storeOptions);
  if (!store)
    return fail(store.status().message());
  kiln::cache::Expected<kiln::cache::CacheResult> entry = (*store)->lookup(key);
  if (!entry)
    return fail("cache key " + key + ": " + entry.status().message() +
                " (inspect the input file to compile it)");
  kiln::cache::Expected<kiln::cache::Manifest> manifest = (*store)->readManifest(key);
  if (!manifest)
    return fail(manifest.status().message());
  std::string file = stageFile(stage, manifest->job.source.entry);
  if (file == "manifest.json") {
    std::fputs(kiln::cache::writeManifest(*manifest).c_str(), stdout);
    return 0;
  }
  auto it = entry->artifacts.find(file);
  if (it == entry->artifacts.end())
    return fail("stage '" + stage + "' is not stored in entry " + key +
                (stage == "kgpu" ? " (its input was already in the LLVM dialect)" : ""));
  std::fwrite(it->second.data(), 1, it->second.size(), stdout);
  return 0;
}

} // namespace

int runInspect(const std::string &target, const std::string &stage, CompileOptions compile) {
  if (stageFile(stage, "k").empty())
    return fail("unknown stage '" + stage + "' (stages: " + kStages + ")");
  if (kiln::cache::isValidKey(target))
    return inspectKey(target, stage, compile.cacheDir);
  if (target.size() == 64 && ::access(target.c_str(), F_OK) != 0)
    return fail("'" + target + "' is neither a cache key (64 lower-case hex digits) nor a file");

  const char *tmpBase = std::getenv("TMPDIR");
  std::string tmpl = std::string(tmpBase && *tmpBase ? tmpBase : "/tmp") + "/kiln-inspect-XXXXXX";
  // Made and announced with signals blocked (kiln's cleanup removes it if
  // a signal ends kiln: helper-80's SIGTERM left it in 2 of 3 runs).
  if (!kiln::cache::temporary::makeDirectory(tmpl))
    return fail("cannot create a temporary directory in " + tmpl + ": " +
                std::strerror(errno));
  kiln::cache::temporary::DoneAtExit announced(tmpl);
  compile.inputFile = target;
  compile.outputDir = tmpl;
  compile.quiet = true;
  CompileOutcome outcome;
  int status = runCompile(compile, &outcome);
  if (status == 0) {
    std::fprintf(stderr, "kiln: inspect: job %s (%s)\n", outcome.jobKey.c_str(),
                 outcome.cacheHit ? "cache hit" : "compiled");
    std::string file = stageFile(stage, outcome.kernel);
    if (file == "manifest.json" && compile.useCache) {
      status = inspectKey(outcome.jobKey, stage, compile.cacheDir);
    } else {
      kiln::cache::Expected<std::string> text =
          kiln::cache::fs::readFile(kiln::cache::fs::join(tmpl, file));
      if (text)
        std::fwrite(text->data(), 1, text->size(), stdout);
      else
        status = fail("stage '" + stage + "' was not produced for " + target +
                      (stage == "kgpu" ? " (its input is already in the LLVM dialect)" : ""));
    }
  }
  kiln::cache::fs::removeTree(tmpl);
  return status;
}

} // namespace kiln::tool
