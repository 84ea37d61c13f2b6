// CachedKernelTest.cpp: opening kernels by (cache root, job key)
// (Runtime::openCached, kiln_kernel_open_cached) against entries published
// by the cache library and laid out by hand; and inspection texts read only
// on request (Kernel::readArtifactText, kiln_kernel_read_text), with inotify
// showing that hydrate, load and launch never open them. Fake CUDA driver.
#include <gtest/gtest.h>

#include <dirent.h>
#include <limits.h>
#include <poll.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "cache/CompileJob.h"
#include "cache/Sha256.h"
#include "cache/Store.h"
#include "runtime/CApiBridge.h"
#include "runtime/Runtime.h"
#include "runtime/Sha256.h"
#include "runtime/cuda/CudaDriver.h"
#include "runtime/kiln_runtime.h"
#include "test/runtime/FakeCuda.h"
#include "test/runtime/TestArtifacts.h"

namespace kiln::runtime {
namespace {

using fake::fakeCalls;
using fake::fakeCuda;

const std::string kBinary = "fake cubin image";
const std::string kKey1 = std::string(32, 'a') + std::string(32, '1');
const std::string kKey2 = "ab" + std::string(62, 'c');

/// The four inspection texts of vadd_kernel, by name.
const std::vector<std::pair<std::string, std::string>> kTexts = {
    {"kgpu", "vadd_kernel.kgpu.mlir"},
    {"llvm", "vadd_kernel.llvm.mlir"},
    {"ll", "vadd_kernel.ll"},
    {"ptx", "vadd_kernel.ptx"},
};
std::string textContent(const std::string& name) { return "// " + name + " text of vadd_kernel\n"; }

std::string realPath(const std::string& p) {
  char buf[PATH_MAX];
  return ::realpath(p.c_str(), buf) ? std::string(buf) : p;
}

/// Every path under `dir`, relative, sorted (for "nothing was written").
std::set<std::string> tree(const std::string& dir, const std::string& prefix = "") {
  std::set<std::string> out;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (dirent* e = ::readdir(d)) {
      std::string n = e->d_name;
      if (n == "." || n == "..")
        continue;
      out.insert(prefix + n);
      if (e->d_type == DT_DIR)
        for (const std::string& s : tree(dir + "/" + n, prefix + n + "/"))
          out.insert(s);
    }
    ::closedir(d);
  }
  return out;
}

/// Writes a vadd artifact (binary, metadata.json with `jobKey`, and the
/// four texts) into `dir`, which must exist.
void writeVaddInto(const std::string& dir, const std::string& jobKey, bool texts = true) {
  KernelMetadata m = testing::vaddMetadata();
  m.jobKey = jobKey;
  m.binary.size = kBinary.size();
  m.binary.sha256 = *sha256Hex(kBinary.data(), kBinary.size());
  testing::writeFile(dir + "/" + m.binary.file, kBinary);
  testing::writeFile(dir + "/metadata.json", kernelMetadataToJson(m));
  if (texts)
    for (const auto& [name, file] : kTexts)
      testing::writeFile(dir + "/" + file, textContent(name));
}

/// A cache root laid out by hand with the entry of `key`.
std::string layOutCache(const std::string& tag, const std::string& key,
                        const std::string& recordedKey) {
  std::string root = testing::makeTempDir(tag);
  std::string dir = root + "/v1";
  ::mkdir(dir.c_str(), 0755);
  dir += "/" + key.substr(0, 2);
  ::mkdir(dir.c_str(), 0755);
  dir += "/" + key;
  ::mkdir(dir.c_str(), 0755);
  writeVaddInto(dir, recordedKey);
  return root;
}

class CachedKernelTest : public ::testing::Test {
protected:
  void SetUp() override {
    fake::resetFakeCuda();
    fakeCuda().paramCount = 4;
    rt = Runtime::create(std::move(*cuda::makeCudaDriver(fake::fakeCudaTable())));
  }
  std::vector<KernelArg> args() {
    return {KernelArg::devicePtr(0x1000), KernelArg::devicePtr(0x2000),
            KernelArg::devicePtr(0x3000), KernelArg::i32(1000)};
  }
  LaunchConfig grid() {
    LaunchConfig c;
    c.grid[0] = 8;
    return c;
  }
  std::shared_ptr<Runtime> rt;
};

// --- openCached ---------------------------------------------------------------

TEST_F(CachedKernelTest, OpensAnEntryPublishedByTheCacheLibrary) {
  std::string root = testing::makeTempDir("published");
  cache::StoreOptions options;
  options.root = root;
  options.warn = [](const std::string&) {};
  cache::Expected<std::unique_ptr<cache::Store>> store = cache::Store::open(options);
  ASSERT_TRUE(store.ok()) << store.status().toString();

  cache::CompileJob job;
  job.source.kind = cache::SourceKind::kTTIR;
  job.source.contentHash = cache::sha256Hex("module { tt.func @vadd_kernel() }");
  job.source.entry = "vadd_kernel";
  job.target.arch = "sm_90";
  job.pipelineFingerprint = cache::pipelineFingerprint("builtin.module(kiln)", {});
  job.toolchain.kilnVersion = "0.1.0";
  const std::string key = job.key();

  // What `kiln compile` stores: metadata.json (with the key), the binary
  // and the inspection texts.
  KernelMetadata m = testing::vaddMetadata();
  m.jobKey = key;
  m.binary.size = kBinary.size();
  m.binary.sha256 = *sha256Hex(kBinary.data(), kBinary.size());
  cache::CompileOutput out;
  out.artifacts["metadata.json"] = kernelMetadataToJson(m);
  out.artifacts[m.binary.file] = kBinary;
  for (const auto& [name, file] : kTexts)
    out.artifacts[file] = textContent(name);
  cache::Expected<std::string> published = (*store)->publish(job, out);
  ASSERT_TRUE(published.ok()) << published.status().toString();

  // The runtime's layout is the store's.
  EXPECT_EQ(cachedEntryDir((*store)->root(), key), (*store)->entryDir(key));
  EXPECT_EQ(cachedEntryDir((*store)->root() + "/", key), (*store)->entryDir(key));
  EXPECT_EQ(realPath(*published), realPath((*store)->entryDir(key)));

  Expected<Kernel> k = rt->openCached(root, key, 0);
  ASSERT_TRUE(k.ok()) << k.status().toString();
  EXPECT_EQ(k->state(), KernelState::kCached);
  EXPECT_EQ(k->artifactDir(), realPath((*store)->entryDir(key)));
  EXPECT_EQ(fakeCalls("cuInit"), 0); // no driver call to open

  // Exactly an artifact-dir open from here: the same entry, the same lifecycle.
  Expected<Kernel> same = rt->getKernel((*store)->entryDir(key), 0);
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(k->handleCount(), 2);
  EXPECT_EQ(rt->liveKernelCount(), 1u);
  std::vector<KernelArg> a = args();
  ASSERT_TRUE(k->launch(grid(), a.data(), a.size()).ok()) << k->lastError().toString();
  EXPECT_EQ(same->state(), KernelState::kLaunchable);
  EXPECT_EQ(k->metadata()->jobKey, key);
  ASSERT_EQ(fakeCuda().modules.size(), 1u);
  EXPECT_EQ(fakeCuda().modules[0]->image, kBinary);

  Expected<std::string> ptx = k->readArtifactText("ptx");
  ASSERT_TRUE(ptx.ok()) << ptx.status().toString();
  EXPECT_EQ(*ptx, textContent("ptx"));
}

TEST_F(CachedKernelTest, OpensAHandLaidEntryAndWritesNothing) {
  std::string root = layOutCache("laid", kKey2, kKey2);
  std::set<std::string> before = tree(root);
  Expected<Kernel> k = rt->openCached(root, kKey2, 0);
  ASSERT_TRUE(k.ok()) << k.status().toString();
  EXPECT_EQ(k->state(), KernelState::kCached);
  EXPECT_EQ(k->timings().hydrateUs, -1);
  EXPECT_EQ(k->artifactDir(), realPath(root + "/v1/ab/" + kKey2));
  ASSERT_TRUE(k->load().ok()) << k->lastError().toString();
  EXPECT_EQ(k->state(), KernelState::kLoaded);
  // A trailing slash on the root is the same entry.
  Expected<Kernel> again = rt->openCached(root + "/", kKey2, 0);
  ASSERT_TRUE(again.ok()) << again.status().toString();
  EXPECT_EQ(k->handleCount(), 2);
  // Another device is another entry.
  Expected<Kernel> other = rt->openCached(root, kKey2, 1);
  ASSERT_TRUE(other.ok()) << other.status().toString();
  EXPECT_EQ(rt->liveKernelCount(), 2u);
  // No locks/, tmp/, stats/: the runtime only reads the cache.
  EXPECT_EQ(tree(root), before);
}

TEST_F(CachedKernelTest, RejectsMalformedKeysLikeTheCacheLibrary) {
  std::string root = layOutCache("badkey", kKey1, kKey1);
  const std::string upper = std::string(32, 'A') + std::string(32, '1');
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"", "0 characters"},
      {"abc", "3 characters"},
      {kKey1 + "0", "65 characters"},
      {upper, "character 0 is 'A'"},
      {kKey1.substr(0, 63) + "g", "character 63 is 'g'"},
      {"../" + kKey1.substr(3), "character 0 is '.'"},
      {kKey1.substr(0, 10) + "/" + kKey1.substr(11), "character 10 is '/'"},
  };
  for (const auto& [key, why] : bad) {
    EXPECT_FALSE(cache::isValidKey(key)) << key;
    Expected<Kernel> k = rt->openCached(root, key, 0);
    ASSERT_FALSE(k.ok()) << key;
    EXPECT_EQ(k.status().code(), StatusCode::kInvalidArgument) << key;
    EXPECT_NE(k.status().message().find("is not a job key (64 lower-case hex digits)"),
              std::string::npos)
        << k.status().message();
    EXPECT_NE(k.status().message().find(why), std::string::npos) << k.status().message();
  }
  // A well-formed key is accepted by both (and here found).
  EXPECT_TRUE(cache::isValidKey(kKey1));
  EXPECT_TRUE(rt->openCached(root, kKey1, 0).ok());
  // Other arguments.
  EXPECT_EQ(rt->openCached(root, kKey1, -1).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(rt->openCached("", kKey1, 0).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(rt->liveKernelCount(), 0u);
}

TEST_F(CachedKernelTest, MissingEntryIsNotFoundNamingKeyAndRoot) {
  std::string root = layOutCache("missing", kKey1, kKey1);
  Expected<Kernel> k = rt->openCached(root, kKey2, 0);
  ASSERT_FALSE(k.ok());
  EXPECT_EQ(k.status().code(), StatusCode::kNotFound);
  const std::string& msg = k.status().message();
  EXPECT_NE(msg.find("no cache entry for job key " + kKey2), std::string::npos) << msg;
  EXPECT_NE(msg.find("cache root '" + root + "'"), std::string::npos) << msg;
  EXPECT_NE(msg.find(root + "/v1/ab/" + kKey2 + " does not exist"), std::string::npos) << msg;

  // No such root at all.
  std::string gone = root + "/nowhere";
  k = rt->openCached(gone, kKey1, 0);
  ASSERT_FALSE(k.ok());
  EXPECT_EQ(k.status().code(), StatusCode::kNotFound);
  EXPECT_NE(k.status().message().find(kKey1), std::string::npos) << k.status().message();
  EXPECT_NE(k.status().message().find("cache root '" + gone + "' is not a directory"),
            std::string::npos)
      << k.status().message();

  // An entry path that is a file, not a directory.
  std::string shard = root + "/v1/" + kKey2.substr(0, 2);
  ::mkdir(shard.c_str(), 0755);
  testing::writeFile(shard + "/" + kKey2, "not an entry");
  EXPECT_EQ(rt->openCached(root, kKey2, 0).status().code(), StatusCode::kNotFound);
  EXPECT_EQ(rt->liveKernelCount(), 0u);
}

TEST_F(CachedKernelTest, MismatchedJobKeyIsAMetadataError) {
  // The entry of kKey1 says it belongs to kKey2 (a misplaced or tampered copy).
  std::string root = layOutCache("mismatch", kKey1, kKey2);
  Expected<Kernel> k = rt->openCached(root, kKey1, 0);
  ASSERT_FALSE(k.ok());
  EXPECT_EQ(k.status().code(), StatusCode::kMetadataError);
  const std::string& msg = k.status().message();
  EXPECT_NE(msg.find("metadata.json: job_key is '" + kKey2 + "'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("stored under job key " + kKey1), std::string::npos) << msg;
  EXPECT_NE(msg.find(root), std::string::npos) << msg;
  EXPECT_EQ(rt->liveKernelCount(), 0u); // the handle was dropped

  // An empty job_key (an artifact compiled without the cache) is no match.
  std::string dir = root + "/v1/aa/" + kKey1;
  writeVaddInto(dir, "");
  k = rt->openCached(root, kKey1, 0);
  ASSERT_FALSE(k.ok());
  EXPECT_EQ(k.status().code(), StatusCode::kMetadataError);
  EXPECT_NE(k.status().message().find("job_key is empty"), std::string::npos)
      << k.status().message();

  // job_key of the wrong JSON type; metadata.json not JSON; no metadata.json.
  testing::writeFile(dir + "/metadata.json", "{\"job_key\": 7}");
  EXPECT_EQ(rt->openCached(root, kKey1, 0).status().code(), StatusCode::kMetadataError);
  testing::writeFile(dir + "/metadata.json", "{not json");
  EXPECT_EQ(rt->openCached(root, kKey1, 0).status().code(), StatusCode::kMetadataError);
  ::unlink((dir + "/metadata.json").c_str());
  k = rt->openCached(root, kKey1, 0);
  ASSERT_FALSE(k.ok());
  EXPECT_EQ(k.status().code(), StatusCode::kNotFound);
  EXPECT_NE(k.status().message().find(dir + "/metadata.json"), std::string::npos)
      << k.status().message();
  EXPECT_NE(k.status().message().find("job key " + kKey1), std::string::npos)
      << k.status().message();

  // Only job_key is read at open: the full validation stays hydration's.
  writeVaddInto(dir, kKey1);
  testing::writeFile(dir + "/metadata.json",
                     "{\"job_key\": \"" + kKey1 + "\", \"format\": \"kiln-kernel/9\"}");
  k = rt->openCached(root, kKey1, 0);
  ASSERT_TRUE(k.ok()) << k.status().toString();
  EXPECT_EQ(k->state(), KernelState::kCached);
  EXPECT_EQ(k->hydrate().code(), StatusCode::kMetadataError);
}

TEST_F(CachedKernelTest, LiveHydratedEntryIsCheckedWithoutReadingTheDisk) {
  std::string root = layOutCache("live", kKey1, kKey1);
  std::string dir = root + "/v1/aa/" + kKey1;
  Expected<Kernel> first = rt->openCached(root, kKey1, 0);
  ASSERT_TRUE(first.ok());
  ASSERT_TRUE(first->hydrate().ok());
  // With the entry live and hydrated, its parsed job_key answers.
  ::unlink((dir + "/metadata.json").c_str());
  Expected<Kernel> second = rt->openCached(root, kKey1, 0);
  ASSERT_TRUE(second.ok()) << second.status().toString();
  EXPECT_EQ(second->state(), KernelState::kHydrated);
  EXPECT_EQ(first->handleCount(), 2);
}

// --- readArtifactText -----------------------------------------------------------

/// Watches a directory for opens and reads of its files.
class OpenWatch {
public:
  explicit OpenWatch(const std::string& dir) {
    fd_ = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (fd_ >= 0)
      wd_ = ::inotify_add_watch(fd_, dir.c_str(), IN_OPEN | IN_ACCESS);
  }
  ~OpenWatch() {
    if (fd_ >= 0)
      ::close(fd_);
  }
  bool ok() const { return fd_ >= 0 && wd_ >= 0; }
  /// Names of files opened or read since the last call.
  std::set<std::string> drain() {
    std::set<std::string> names;
    alignas(inotify_event) char buf[16384];
    for (;;) {
      ssize_t n = ::read(fd_, buf, sizeof buf);
      if (n <= 0)
        break;
      for (char* p = buf; p < buf + n;) {
        auto* e = reinterpret_cast<inotify_event*>(p);
        if (e->len > 0)
          names.insert(e->name);
        p += sizeof(inotify_event) + e->len;
      }
    }
    return names;
  }

private:
  int fd_ = -1;
  int wd_ = -1;
};

TEST_F(CachedKernelTest, HydrateLoadAndLaunchNeverOpenTheTexts) {
  std::string dir = testing::makeTempDir("watched");
  writeVaddInto(dir, kKey1);
  OpenWatch watch(dir);
  ASSERT_TRUE(watch.ok()) << "inotify unavailable";
  Expected<Kernel> k = rt->getKernel(dir, 0);
  ASSERT_TRUE(k.ok());
  std::vector<KernelArg> a = args();
  ASSERT_TRUE(k->hydrate().ok());
  ASSERT_TRUE(k->load().ok());
  ASSERT_TRUE(k->launch(grid(), a.data(), a.size()).ok()) << k->lastError().toString();
  std::set<std::string> opened = watch.drain();
  // The watch works: the lifecycle's own files were seen.
  EXPECT_TRUE(opened.count("metadata.json"));
  EXPECT_TRUE(opened.count("vadd_kernel.cubin"));
  for (const auto& [name, file] : kTexts)
    EXPECT_FALSE(opened.count(file)) << file << " was opened by the lifecycle";

  // Each text is opened when asked for, and only that one.
  for (const auto& [name, file] : kTexts) {
    Expected<std::string> text = k->readArtifactText(name);
    ASSERT_TRUE(text.ok()) << text.status().toString();
    EXPECT_EQ(*text, textContent(name));
    EXPECT_EQ(watch.drain(), std::set<std::string>{file});
  }
}

TEST_F(CachedKernelTest, AbsentTextsDoNotMatterUntilAskedFor) {
  std::string root = testing::makeTempDir("notexts");
  std::string dir = root + "/v1";
  ::mkdir(dir.c_str(), 0755);
  dir += "/aa";
  ::mkdir(dir.c_str(), 0755);
  dir += "/" + kKey1;
  ::mkdir(dir.c_str(), 0755);
  writeVaddInto(dir, kKey1, /*texts=*/false);
  // In place of one text, something no reader could read as a file.
  ::mkdir((dir + "/vadd_kernel.kgpu.mlir").c_str(), 0755);

  Expected<Kernel> k = rt->openCached(root, kKey1, 0);
  ASSERT_TRUE(k.ok()) << k.status().toString();
  std::vector<KernelArg> a = args();
  ASSERT_TRUE(k->launch(grid(), a.data(), a.size()).ok()) << k->lastError().toString();
  EXPECT_EQ(k->state(), KernelState::kLaunchable);

  std::string entry = realPath(dir);
  for (const auto& [name, file] : kTexts) {
    Expected<std::string> text = k->readArtifactText(name);
    ASSERT_FALSE(text.ok()) << name;
    EXPECT_EQ(text.status().code(), StatusCode::kNotFound) << name;
    const std::string& msg = text.status().message();
    EXPECT_NE(msg.find("cannot read " + name + " text " + entry + "/" + file), std::string::npos)
        << msg;
    EXPECT_NE(msg.find("kernel 'vadd_kernel'"), std::string::npos) << msg;
    if (name == "kgpu")
      EXPECT_NE(msg.find("directory"), std::string::npos) << msg;
    else
      EXPECT_NE(msg.find("no such file"), std::string::npos) << msg;
  }
  // A failed inspection leaves the kernel as it was.
  EXPECT_EQ(k->state(), KernelState::kLaunchable);
  EXPECT_TRUE(k->lastError().ok());
}

TEST_F(CachedKernelTest, ReadingTextHydratesButNeverLoads) {
  std::string dir = testing::makeTempDir("inspect");
  writeVaddInto(dir, kKey1);
  Expected<Kernel> k = rt->getKernel(dir, 0);
  ASSERT_TRUE(k.ok());
  EXPECT_EQ(k->state(), KernelState::kCached);
  Expected<std::string> ll = k->readArtifactText("ll");
  ASSERT_TRUE(ll.ok()) << ll.status().toString();
  EXPECT_EQ(*ll, textContent("ll"));
  EXPECT_EQ(k->state(), KernelState::kHydrated);
  EXPECT_EQ(fakeCalls("cuInit"), 0);
  EXPECT_EQ(fakeCalls("cuModuleLoadData"), 0);

  // Unknown names, file names and paths are not texts.
  for (const char* name : {"", "cubin", "PTX", "metadata", "vadd_kernel.ptx", "../ptx"}) {
    Expected<std::string> t = k->readArtifactText(name);
    ASSERT_FALSE(t.ok()) << name;
    EXPECT_EQ(t.status().code(), StatusCode::kInvalidArgument) << name;
    EXPECT_NE(t.status().message().find("expected kgpu"), std::string::npos)
        << t.status().message();
  }
  // Read on every call (not cached): a changed file reads changed.
  testing::writeFile(dir + "/vadd_kernel.ll", "changed");
  EXPECT_EQ(*k->readArtifactText("ll"), "changed");

  // A hydration failure is reported as such.
  std::string broken = testing::makeTempDir("broken");
  testing::writeFile(broken + "/metadata.json", "{}");
  Expected<Kernel> b = rt->getKernel(broken, 0);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->readArtifactText("ptx").status().code(), StatusCode::kMetadataError);
  EXPECT_EQ(Kernel().readArtifactText("ptx").status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(artifactTextFileName("k", "llvm").value(), "k.llvm.mlir");
}

// --- C API ------------------------------------------------------------------------

TEST_F(CachedKernelTest, CApiOpenCachedAndReadText) {
  std::string root = layOutCache("capi", kKey1, kKey1);
  kiln_runtime* crt = wrapRuntime(rt);
  kiln_kernel* k = nullptr;
  ASSERT_EQ(kiln_kernel_open_cached(crt, root.c_str(), kKey1.c_str(), 0, &k), KILN_OK)
      << kiln_last_error();
  ASSERT_NE(k, nullptr);
  kiln_kernel_info info;
  ASSERT_EQ(kiln_kernel_get_info(k, &info), KILN_OK);
  EXPECT_EQ(info.state, KILN_STATE_CACHED);
  ASSERT_EQ(kiln_kernel_load(k), KILN_OK) << kiln_last_error();

  // Size query, too small, exact fit.
  size_t needed = 0;
  ASSERT_EQ(kiln_kernel_read_text(k, "ptx", nullptr, 0, &needed), KILN_OK) << kiln_last_error();
  const std::string ptx = textContent("ptx");
  EXPECT_EQ(needed, ptx.size() + 1);
  std::vector<char> buf(needed - 1, 'x');
  EXPECT_EQ(kiln_kernel_read_text(k, "ptx", buf.data(), buf.size(), &needed),
            KILN_INVALID_ARGUMENT);
  EXPECT_NE(std::string(kiln_last_error()).find("buffer too small"), std::string::npos);
  buf.resize(needed);
  ASSERT_EQ(kiln_kernel_read_text(k, "ptx", buf.data(), buf.size(), &needed), KILN_OK);
  EXPECT_EQ(std::string(buf.data()), ptx);

  EXPECT_EQ(kiln_kernel_read_text(k, "sass", nullptr, 0, &needed), KILN_INVALID_ARGUMENT);
  EXPECT_EQ(kiln_kernel_read_text(k, nullptr, nullptr, 0, &needed), KILN_INVALID_ARGUMENT);
  EXPECT_EQ(kiln_kernel_read_text(k, "ptx", nullptr, 0, nullptr), KILN_INVALID_ARGUMENT);
  EXPECT_EQ(kiln_kernel_read_text(nullptr, "ptx", nullptr, 0, &needed), KILN_INVALID_ARGUMENT);
  std::string ll = root + "/v1/aa/" + kKey1 + "/vadd_kernel.ll";
  ::unlink(ll.c_str());
  EXPECT_EQ(kiln_kernel_read_text(k, "ll", nullptr, 0, &needed), KILN_NOT_FOUND);
  EXPECT_NE(std::string(kiln_last_error()).find("vadd_kernel.ll"), std::string::npos)
      << kiln_last_error();
  kiln_kernel_release(k);

  // Open errors.
  kiln_kernel* bad = reinterpret_cast<kiln_kernel*>(0x1);
  EXPECT_EQ(kiln_kernel_open_cached(crt, root.c_str(), "ABC", 0, &bad), KILN_INVALID_ARGUMENT);
  EXPECT_EQ(bad, nullptr);
  EXPECT_NE(std::string(kiln_last_error()).find("not a job key"), std::string::npos);
  EXPECT_EQ(kiln_kernel_open_cached(crt, root.c_str(), kKey2.c_str(), 0, &bad), KILN_NOT_FOUND);
  EXPECT_NE(std::string(kiln_last_error()).find(kKey2), std::string::npos);
  EXPECT_NE(std::string(kiln_last_error()).find(root), std::string::npos);
  std::string other = layOutCache("capi-mismatch", kKey1, kKey2);
  EXPECT_EQ(kiln_kernel_open_cached(crt, other.c_str(), kKey1.c_str(), 0, &bad),
            KILN_METADATA_ERROR);
  EXPECT_EQ(kiln_kernel_open_cached(crt, nullptr, kKey1.c_str(), 0, &bad),
            KILN_INVALID_ARGUMENT);
  EXPECT_EQ(kiln_kernel_open_cached(crt, root.c_str(), nullptr, 0, &bad), KILN_INVALID_ARGUMENT);
  EXPECT_EQ(kiln_kernel_open_cached(nullptr, root.c_str(), kKey1.c_str(), 0, &bad),
            KILN_INVALID_ARGUMENT);
  kiln_runtime_release(crt);
}

} // namespace
} // namespace kiln::runtime
