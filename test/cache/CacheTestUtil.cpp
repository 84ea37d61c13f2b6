// CacheTestUtil.cpp: see CacheTestUtil.h.
#include "test/cache/CacheTestUtil.h"

#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

#include "cache/Sha256.h"

namespace kiln::cache::testing {

CompileJob sampleJob(int variant) {
  CompileJob job;
  job.source.kind = SourceKind::kTTIR;
  job.source.contentHash = sha256Hex("module { tt.func @k() } // " + std::to_string(variant));
  job.source.entry = "k";
  job.target.arch = "sm_90";
  job.pipelineFingerprint = pipelineFingerprint("builtin.module(kiln-pipeline)", {});
  job.toolchain.kilnVersion = "0.1.0";
  job.toolchain.llvmVersion = "22.1.0";
  job.toolchain.ptxasVersion = "Cuda compilation tools, release 13.0, V13.0.88";
  job.toolchain.libdeviceSha256 = sha256Hex("libdevice");
  return job;
}

std::string makeTempDir(const std::string& tag) {
  const char* base = std::getenv("TEST_TMPDIR");
  std::string tmpl = std::string(base && *base ? base : "/tmp") + "/" + tag + "-XXXXXX";
  if (!::mkdtemp(tmpl.data()))
    std::abort();
  char real[PATH_MAX];
  return ::realpath(tmpl.c_str(), real) ? std::string(real) : tmpl;
}

CompileOutput sampleOutput(size_t cubinBytes, char fill) {
  CompileOutput out;
  out.artifacts["k.cubin"] = std::string(cubinBytes, fill);
  out.artifacts["k.ptx"] = "// ptx\n.version 8.0\n";
  out.artifacts["metadata.json"] = "{\"kernel\": \"k\"}\n";
  out.infoJson = R"({"kernel": "k", "registers": 12})";
  return out;
}

StoreOptions optionsFor(const std::string& root, std::vector<std::string>* warnings) {
  StoreOptions options;
  options.root = root;
  options.warn = [warnings](const std::string& m) {
    if (warnings)
      warnings->push_back(m);
  };
  return options;
}

int runInChild(const std::function<int()>& body) {
  pid_t pid = ::fork();
  if (pid == 0)
    ::_exit(body());
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

bool interruptAndReap(pid_t child, int sig, int* status) {
  ::kill(child, sig);
  int local = 0;
  while (::waitpid(child, &local, 0) < 0 && errno == EINTR) {
  }
  if (status)
    *status = local;
  return WIFSIGNALED(local) && WTERMSIG(local) == sig;
}

void writeFileOrDie(const std::string& path, const std::string& data) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << data;
  if (!out)
    std::abort();
}

std::string readFileOrEmpty(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

} // namespace kiln::cache::testing
