// CompileJobTest.cpp: key properties of the compile job. Changing any single
// field changes the key; explicit defaults, key order, whitespace and
// equivalent spellings do not; every malformed job document is an error.
#include <gtest/gtest.h>

#include <functional>
#include <set>
#include <string>
#include <thread>
#include <vector>
#include <unistd.h>

#include "cache/CompileJob.h"
#include "cache/Sha256.h"
#include "test/cache/CacheTestUtil.h"

namespace kiln::cache {
namespace {

using testing::sampleJob;

TEST(CompileJobTest, KeyIsSha256OfCanonicalJson) {
  CompileJob job = sampleJob();
  EXPECT_TRUE(job.validate().ok());
  EXPECT_TRUE(isValidKey(job.key()));
  EXPECT_EQ(job.key(), sha256Hex(job.canonicalJson()));
  EXPECT_EQ(job.key(), sampleJob().key());
}

TEST(CompileJobTest, KeyIsTheSameInAnotherProcess) {
  std::string dir = testing::makeTempDir("job");
  std::string file = dir + "/key";
  int status = testing::runInChild([&] {
    testing::writeFileOrDie(file, sampleJob().key());
    return 0;
  });
  ASSERT_EQ(status, 0);
  EXPECT_EQ(testing::readFileOrEmpty(file), sampleJob().key());
}

TEST(CompileJobTest, CanonicalJsonHasSortedKeysAndEveryField) {
  std::string text = sampleJob().canonicalJson();
  EXPECT_EQ(text.find('\n'), std::string::npos);
  // "format" < "options" < "pipeline" < "source" < "target" < "toolchain".
  size_t a = text.find("\"format\""), b = text.find("\"options\""), c = text.find("\"pipeline\""),
         d = text.find("\"source\""), e = text.find("\"target\""), f = text.find("\"toolchain\"");
  EXPECT_LT(a, b);
  EXPECT_LT(b, c);
  EXPECT_LT(c, d);
  EXPECT_LT(d, e);
  EXPECT_LT(e, f);
  for (const char* field : {"num_warps", "num_stages", "num_ctas", "maxnreg", "opt_level",
                            "ptxas_fast_compile", "fp_fusion", "ftz", "line_info", "debug", "warp_size",
                            "ptx_version", "code_object_version", "libdevice_sha256",
                            "ptxas_version", "linker_version", "llvm_version", "kiln_version", "entry"})
    EXPECT_NE(text.find(std::string("\"") + field + "\""), std::string::npos) << field;
}

TEST(CompileJobTest, EverySingleFieldChangesTheKey) {
  std::vector<std::pair<const char*, std::function<void(CompileJob&)>>> mutations = {
      {"source.kind", [](CompileJob& j) { j.source.kind = SourceKind::kLLVMIR; }},
      {"source.kind=ptx", [](CompileJob& j) { j.source.kind = SourceKind::kPTX; }},
      {"source.stage", [](CompileJob& j) { j.source.kind = SourceKind::kMLIRStage; j.source.stage = "kgpu"; }},
      {"source.content_hash", [](CompileJob& j) { j.source.contentHash = sha256Hex("other"); }},
      {"source.entry", [](CompileJob& j) { j.source.entry = "k2"; }},
      {"target.backend", [](CompileJob& j) { j.target.backend = "hip"; }},
      {"target.arch", [](CompileJob& j) { j.target.arch = "sm_90a"; }},
      {"target.ptx_version", [](CompileJob& j) { j.target.ptxVersion = 81; }},
      {"target.warp_size", [](CompileJob& j) { j.target.warpSize = 64; }},
      {"options.num_warps", [](CompileJob& j) { j.options.numWarps = 8; }},
      {"options.num_stages", [](CompileJob& j) { j.options.numStages = 2; }},
      {"options.num_ctas", [](CompileJob& j) { j.options.numCtas = 2; }},
      {"options.maxnreg", [](CompileJob& j) { j.options.maxnreg = 128; }},
      {"options.opt_level", [](CompileJob& j) { j.options.optLevel = 2; }},
      {"options.ptxas_fast_compile", [](CompileJob& j) { j.options.ptxasFastCompile = "min"; }},
      {"options.fp_fusion", [](CompileJob& j) { j.options.fpFusion = false; }},
      {"options.ftz", [](CompileJob& j) { j.options.ftz = true; }},
      {"options.line_info", [](CompileJob& j) { j.options.lineInfo = true; }},
      {"options.debug", [](CompileJob& j) { j.options.debug = true; }},
      {"pipeline", [](CompileJob& j) { j.pipelineFingerprint = pipelineFingerprint("x", {}); }},
      {"toolchain.kiln_version", [](CompileJob& j) { j.toolchain.kilnVersion = "0.1.1"; }},
      {"toolchain.llvm_version", [](CompileJob& j) { j.toolchain.llvmVersion = "22.1.1"; }},
      {"toolchain.ptxas_version", [](CompileJob& j) { j.toolchain.ptxasVersion = "V13.0.89"; }},
      {"toolchain.linker_version", [](CompileJob& j) { j.toolchain.linkerVersion = "LLD 22.1.8"; }},
      {"toolchain.libdevice_sha256", [](CompileJob& j) { j.toolchain.libdeviceSha256 = ""; }},
  };
  std::set<std::string> keys = {sampleJob().key()};
  for (auto& [name, mutate] : mutations) {
    CompileJob job = sampleJob();
    mutate(job);
    EXPECT_TRUE(job.validate().ok()) << name << ": " << job.validate().toString();
    EXPECT_TRUE(keys.insert(job.key()).second) << name << " did not change the key";
  }
  // The code-object version only counts for hip (cuda zeroes it).
  CompileJob hip = sampleJob();
  hip.target.backend = "hip";
  hip.target.arch = "gfx942";
  CompileJob hip5 = hip;
  hip5.target.codeObjectVersion = 5;
  EXPECT_NE(hip.key(), hip5.key());
}

TEST(CompileJobTest, ExplicitDefaultsAndOmittedDefaultsGiveOneKey) {
  CompileJob job = sampleJob();
  std::string minimal = R"({"source": {"content_hash": ")" + job.source.contentHash +
                        R"(", "entry": "k"}, "target": {"arch": "sm_90"}, "pipeline": {"fingerprint": ")" +
                        job.pipelineFingerprint + R"("}, "toolchain": {"kiln_version": "0.1.0",
      "llvm_version": "22.1.0", "ptxas_version": "Cuda compilation tools, release 13.0, V13.0.88",
      "libdevice_sha256": ")" + job.toolchain.libdeviceSha256 + R"("}})";
  Expected<CompileJob> parsed = parseCompileJob(minimal);
  ASSERT_TRUE(parsed.ok()) << parsed.status().toString();
  EXPECT_EQ(parsed->key(), job.key());
  // The canonical text parses back to the same key.
  Expected<CompileJob> roundTrip = parseCompileJob(job.canonicalJson());
  ASSERT_TRUE(roundTrip.ok());
  EXPECT_EQ(roundTrip->key(), job.key());
  Expected<CompileJob> pretty = parseCompileJob(job.prettyJson());
  ASSERT_TRUE(pretty.ok());
  EXPECT_EQ(pretty->key(), job.key());
}

TEST(CompileJobTest, PermutedKeyOrderGivesOneKey) {
  CompileJob job = sampleJob();
  std::string permuted = R"({"toolchain": {"libdevice_sha256": ")" +
                         job.toolchain.libdeviceSha256 + R"(", "ptxas_version": "Cuda compilation tools, release 13.0, V13.0.88",
      "llvm_version": "22.1.0", "kiln_version": "0.1.0"},
      "options": {"debug": false, "num_stages": 3, "num_warps": 4},
      "pipeline": {"fingerprint": ")" + job.pipelineFingerprint + R"("},
      "target": {"warp_size": 32, "arch": "sm_90", "backend": "cuda"},
      "source": {"entry": "k", "kind": "ttir", "content_hash": ")" + job.source.contentHash +
                         R"("}, "format": "kiln-job/1"})";
  Expected<CompileJob> parsed = parseCompileJob(permuted);
  ASSERT_TRUE(parsed.ok()) << parsed.status().toString();
  EXPECT_EQ(parsed->key(), job.key());
}

TEST(CompileJobTest, EquivalentSpellingsGiveOneKey) {
  CompileJob job = sampleJob();
  CompileJob spelled = job;
  spelled.target.arch = "SM_90";
  spelled.target.backend = "CUDA";
  spelled.target.codeObjectVersion = 5; // unused by cuda
  spelled.source.stage = "ignored";     // only for mlir-stage
  spelled.toolchain.ptxasVersion += "\n";
  EXPECT_EQ(spelled.key(), job.key());
}

TEST(CompileJobTest, PipelineFingerprintIgnoresPluginOrder) {
  PluginIdentity a{"a", "1", sha256Hex("a")}, b{"b", "2", sha256Hex("b")};
  EXPECT_EQ(pipelineFingerprint("p", {a, b}), pipelineFingerprint("p", {b, a}));
  EXPECT_NE(pipelineFingerprint("p", {a}), pipelineFingerprint("p", {a, b}));
  PluginIdentity a2 = a;
  a2.version = "1.1";
  EXPECT_NE(pipelineFingerprint("p", {a}), pipelineFingerprint("p", {a2}));
  a2 = a;
  a2.sha256 = sha256Hex("a'");
  EXPECT_NE(pipelineFingerprint("p", {a}), pipelineFingerprint("p", {a2}));
  EXPECT_NE(pipelineFingerprint("p", {}), pipelineFingerprint("q", {}));
}

TEST(CompileJobTest, InvalidJobsAreRejected) {
  std::vector<std::pair<const char*, std::function<void(CompileJob&)>>> bad = {
      {"hash", [](CompileJob& j) { j.source.contentHash = "abc"; }},
      {"upper hash", [](CompileJob& j) { j.source.contentHash = std::string(64, 'A'); }},
      {"entry", [](CompileJob& j) { j.source.entry = ""; }},
      {"stage", [](CompileJob& j) { j.source.kind = SourceKind::kMLIRStage; }},
      {"backend", [](CompileJob& j) { j.target.backend = "metal"; }},
      {"arch", [](CompileJob& j) { j.target.arch = ""; }},
      {"warp", [](CompileJob& j) { j.target.warpSize = 16; }},
      {"warps", [](CompileJob& j) { j.options.numWarps = 0; }},
      {"stages", [](CompileJob& j) { j.options.numStages = -1; }},
      {"ctas", [](CompileJob& j) { j.options.numCtas = 0; }},
      {"maxnreg", [](CompileJob& j) { j.options.maxnreg = 300; }},
      {"opt", [](CompileJob& j) { j.options.optLevel = 4; }},
      {"ptxas fast-compile level", [](CompileJob& j) { j.options.ptxasFastCompile = "fast"; }},
      {"ptxas fast-compile empty", [](CompileJob& j) { j.options.ptxasFastCompile = ""; }},
      {"ptxas fast-compile on hip", [](CompileJob& j) {
         j.target.backend = "hip";
         j.target.warpSize = 64;
         j.options.ptxasFastCompile = "min";
       }},
      {"pipeline", [](CompileJob& j) { j.pipelineFingerprint = ""; }},
      {"libdevice", [](CompileJob& j) { j.toolchain.libdeviceSha256 = "xyz"; }},
  };
  for (auto& [name, mutate] : bad) {
    CompileJob job = sampleJob();
    mutate(job);
    Status s = job.validate();
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << name;
  }
}

TEST(CompileJobTest, MalformedJobDocumentsAreErrorsNotCrashes) {
  CompileJob job = sampleJob();
  std::string good = job.canonicalJson();
  auto replace = [&](const std::string& from, const std::string& to) {
    std::string s = good;
    size_t at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return at == std::string::npos ? s : s.replace(at, from.size(), to);
  };
  std::vector<std::pair<const char*, std::string>> docs = {
      {"empty", ""},
      {"not json", "{"},
      {"array", "[]"},
      {"string", "\"job\""},
      {"unknown top field", replace("{\"format\"", "{\"extra\":1,\"format\"")},
      {"unknown nested field", replace("\"debug\":false", "\"debug\":false,\"fast\":true")},
      {"wrong format", replace("kiln-job/1", "kiln-job/2")},
      {"bool as int", replace("\"debug\":false", "\"debug\":0")},
      {"int as string", replace("\"num_warps\":4", "\"num_warps\":\"4\"")},
      {"float", replace("\"num_warps\":4", "\"num_warps\":4.5")},
      {"huge", replace("\"num_warps\":4", "\"num_warps\":99999999999999")},
      {"section not object", replace("\"pipeline\":{", "\"pipeline\":[],\"x\":{")},
      {"bad kind", replace("\"kind\":\"ttir\"", "\"kind\":\"cuda-c\"")},
      {"missing hash", replace("\"content_hash\"", "\"content_hash_\"")},
      {"missing arch", replace("\"arch\":\"sm_90\",", "")},
      {"out of range", replace("\"num_warps\":4", "\"num_warps\":2048")},
  };
  for (auto& [name, doc] : docs) {
    Expected<CompileJob> parsed = parseCompileJob(doc);
    EXPECT_FALSE(parsed.ok()) << name;
    if (!parsed.ok()) {
      EXPECT_EQ(parsed.status().code(), StatusCode::kCorrupt) << name;
    }
  }
}

TEST(CompileJobTest, KeyStringsAreChecked) {
  EXPECT_TRUE(isValidKey(std::string(64, 'a')));
  for (std::string bad : {std::string(), std::string(63, 'a'), std::string(65, 'a'),
                          std::string(64, 'A'), std::string(64, 'g'), std::string("../") + std::string(61, 'a'),
                          std::string(63, 'a') + "/"})
    EXPECT_FALSE(isValidKey(bad)) << bad;
}

// kiln compile hashes on several threads at once (the source on the main
// thread, toolchain files on another): every thread gets FIPS 180-4's
// digests, with no set-up call first.
TEST(CompileJobTest, Sha256FromManyThreadsGivesKnownDigests) {
  std::vector<std::thread> threads;
  std::vector<std::string> digests(8);
  for (int i = 0; i < 8; ++i)
    threads.emplace_back([i, &digests] { digests[i] = sha256Hex("abc"); });
  for (std::thread& t : threads)
    t.join();
  for (const std::string& digest : digests)
    EXPECT_EQ(digest, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  // Two blocks (56 bytes of message: the length no longer fits in the
  // first block), and a buffer longer than one update's block loop.
  EXPECT_EQ(sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256Hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

} // namespace
} // namespace kiln::cache
