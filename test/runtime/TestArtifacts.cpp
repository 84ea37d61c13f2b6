// TestArtifacts.cpp: see TestArtifacts.h.
#include "test/runtime/TestArtifacts.h"

#include <sys/stat.h>

#include <atomic>
#include <cstdlib>
#include <fstream>

#include <unistd.h>

#include "runtime/Sha256.h"

namespace kiln::testing {

std::string makeTempDir(const std::string& name) {
  static std::atomic<int> counter{0};
  const char* base = std::getenv("TEST_TMPDIR");
  std::string dir = std::string(base ? base : "/tmp") + "/" + name + "." +
                    std::to_string(getpid()) + "." + std::to_string(counter++);
  mkdir(dir.c_str(), 0755);
  return dir;
}

runtime::KernelMetadata vaddMetadata() {
  runtime::KernelMetadata m;
  m.kernel = "vadd_kernel";
  (void)runtime::parseArch(runtime::Backend::kCuda, "sm_90", &m.target);
  m.target.warpSize = 32;
  m.numWarps = 4;
  m.numStages = 3;
  m.sharedBytes = 0;
  for (auto [name, type] : {std::pair{"x_ptr", "ptr<f32>"}, std::pair{"y_ptr", "ptr<f32>"},
                            std::pair{"z_ptr", "ptr<f32>"}, std::pair{"n", "i32"}})
    m.signature.push_back({name, *runtime::parseArgType(type)});
  m.binary.file = "vadd_kernel.cubin";
  m.jobKey = "00ff";
  return m;
}

void writeFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

std::string writeArtifact(const std::string& name, runtime::KernelMetadata m,
                          const std::string& binary, bool fixBinaryRef) {
  std::string dir = makeTempDir(name);
  if (fixBinaryRef) {
    m.binary.size = binary.size();
    m.binary.sha256 = *runtime::sha256Hex(binary.data(), binary.size());
  }
  writeFile(dir + "/" + m.binary.file, binary);
  writeFile(dir + "/metadata.json", runtime::kernelMetadataToJson(m));
  return dir;
}

} // namespace kiln::testing
