// MetadataTest.cpp: parsing kiln-kernel/1 metadata.json, including one case
// per kind of bad input, each with its message.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "runtime/Metadata.h"
#include "runtime/Sha256.h"
#include "test/runtime/TestArtifacts.h"

namespace kiln::runtime {
namespace {

using nlohmann::json;

json validDoc() {
  return json::parse(R"({
    "format": "kiln-kernel/1",
    "kernel": "vadd_kernel",
    "target": {"backend": "cuda", "arch": "sm_90", "warp_size": 32},
    "num_warps": 4, "num_stages": 3, "num_ctas": 1,
    "shared_bytes": 1024,
    "signature": [{"name": "x_ptr", "type": "ptr<f32>"}, {"name": "n", "type": "i32"}],
    "binary": {"file": "vadd_kernel.cubin", "size": 4096,
               "sha256": "E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855"},
    "job_key": "abc123",
    "extra_args": {"trailing_null_pointers": 2}
  })");
}

Status parseError(const json& doc) {
  Expected<KernelMetadata> m = parseKernelMetadata(doc.dump(), "k/metadata.json");
  EXPECT_FALSE(m.ok());
  return m.status();
}

// kiln writes a "code_object" section (the AMDGPU metadata note's
// description of the kernel) into hip artifacts; the runtime reads what it
// needs and ignores the rest, so such artifacts hydrate.
TEST(Metadata, HipArtifactWithCodeObjectSection) {
  json doc = validDoc();
  doc["target"] = {{"backend", "hip"}, {"arch", "gfx942"}, {"warp_size", 64}};
  doc["binary"]["file"] = "vadd_kernel.hsaco";
  doc["code_object"] = {{"wavefront_size", 64}, {"vgprs", 11}, {"sgprs", 14},
                        {"kernarg_bytes", 28}, {"lds_bytes", 0}, {"scratch_bytes", 0}};
  Expected<KernelMetadata> m = parseKernelMetadata(doc.dump(), "m.json");
  ASSERT_TRUE(m.ok()) << m.status().toString();
  EXPECT_EQ(m->target.backend, Backend::kHip);
  EXPECT_EQ(m->target.warpSize, 64);
}

TEST(Metadata, ParsesEveryField) {
  Expected<KernelMetadata> m = parseKernelMetadata(validDoc().dump(), "m.json");
  ASSERT_TRUE(m.ok()) << m.status().toString();
  EXPECT_EQ(m->kernel, "vadd_kernel");
  EXPECT_EQ(m->target.backend, Backend::kCuda);
  EXPECT_EQ(m->target.arch, "sm_90");
  EXPECT_EQ(m->target.archMajor, 9);
  EXPECT_EQ(m->target.archMinor, 0);
  EXPECT_FALSE(m->target.archSpecific);
  EXPECT_EQ(m->target.warpSize, 32);
  EXPECT_EQ(m->numWarps, 4);
  EXPECT_EQ(m->numStages, 3);
  EXPECT_EQ(m->numCtas, 1);
  EXPECT_EQ(m->sharedBytes, 1024u);
  ASSERT_EQ(m->signature.size(), 2u);
  EXPECT_EQ(m->signature[0].name, "x_ptr");
  EXPECT_EQ(m->signature[0].type.kind, ArgKind::kPtr);
  EXPECT_EQ(m->signature[0].type.pointee, "f32");
  EXPECT_EQ(m->signature[1].type.kind, ArgKind::kI32);
  EXPECT_EQ(m->binary.file, "vadd_kernel.cubin");
  EXPECT_EQ(m->binary.size, 4096u);
  // Hex digits are normalized to lower case.
  EXPECT_EQ(m->binary.sha256, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(m->jobKey, "abc123");
  EXPECT_EQ(m->trailingNullPointers, 2);
}

TEST(Metadata, OptionalFieldsDefault) {
  json doc = validDoc();
  doc.erase("num_ctas");
  doc.erase("job_key");
  doc.erase("extra_args");
  Expected<KernelMetadata> m = parseKernelMetadata(doc.dump(), "m.json");
  ASSERT_TRUE(m.ok()) << m.status().toString();
  EXPECT_EQ(m->numCtas, 1);
  EXPECT_EQ(m->jobKey, "");
  EXPECT_EQ(m->trailingNullPointers, 0);
}

TEST(Metadata, RoundTripsThroughJson) {
  KernelMetadata m = testing::vaddMetadata();
  m.binary.size = 10;
  m.binary.sha256 = std::string(64, 'a');
  m.trailingNullPointers = 2;
  Expected<KernelMetadata> back = parseKernelMetadata(kernelMetadataToJson(m), "m.json");
  ASSERT_TRUE(back.ok()) << back.status().toString();
  EXPECT_EQ(back->kernel, m.kernel);
  EXPECT_EQ(back->signature.size(), 4u);
  EXPECT_EQ(back->signature[3].type.spelling, "i32");
  EXPECT_EQ(back->trailingNullPointers, 2);
  EXPECT_EQ(back->binary.sha256, m.binary.sha256);
}

TEST(Metadata, MissingFieldNamesIt) {
  for (const char* field : {"format", "kernel", "target", "num_warps", "num_stages",
                            "shared_bytes", "signature", "binary"}) {
    json doc = validDoc();
    doc.erase(field);
    Status s = parseError(doc);
    EXPECT_EQ(s.code(), StatusCode::kMetadataError);
    EXPECT_EQ(s.message(), std::string("k/metadata.json: missing field '") + field + "'");
  }
  json doc = validDoc();
  doc["binary"].erase("sha256");
  EXPECT_EQ(parseError(doc).message(), "k/metadata.json: missing field 'binary.sha256'");
  doc = validDoc();
  doc["target"].erase("warp_size");
  EXPECT_EQ(parseError(doc).message(), "k/metadata.json: missing field 'target.warp_size'");
  doc = validDoc();
  doc["signature"][1].erase("type");
  EXPECT_EQ(parseError(doc).message(), "k/metadata.json: missing field 'signature[1].type'");
}

TEST(Metadata, WrongTypeNamesFieldAndType) {
  json doc = validDoc();
  doc["num_warps"] = "4";
  EXPECT_EQ(parseError(doc).message(),
            "k/metadata.json: field 'num_warps' must be an integer, got string");
  doc = validDoc();
  doc["kernel"] = 7;
  EXPECT_EQ(parseError(doc).message(),
            "k/metadata.json: field 'kernel' must be a string, got integer");
  doc = validDoc();
  doc["signature"] = json::object();
  EXPECT_EQ(parseError(doc).message(),
            "k/metadata.json: field 'signature' must be an array, got object");
  doc = validDoc();
  doc["shared_bytes"] = 1.5;
  EXPECT_EQ(parseError(doc).message(),
            "k/metadata.json: field 'shared_bytes' must be an integer, got number");
  doc = validDoc();
  doc["target"] = "cuda";
  EXPECT_EQ(parseError(doc).message(),
            "k/metadata.json: field 'target' must be an object, got string");
}

TEST(Metadata, OutOfRangeValues) {
  json doc = validDoc();
  doc["num_warps"] = 0;
  EXPECT_EQ(parseError(doc).message(),
            "k/metadata.json: field 'num_warps' must be in [1, 1024], got 0");
  doc = validDoc();
  doc["shared_bytes"] = -1;
  EXPECT_EQ(parseError(doc).message(),
            "k/metadata.json: field 'shared_bytes' must be in [0, 2147483647], got -1");
  doc = validDoc();
  doc["num_ctas"] = 2;
  EXPECT_NE(parseError(doc).message().find("single-CTA kernels only"), std::string::npos);
  doc = validDoc();
  doc["target"]["warp_size"] = 64;
  EXPECT_EQ(parseError(doc).message(),
            "k/metadata.json: field 'target.warp_size' must be 32 for cuda, got 64");
}

TEST(Metadata, BadJsonSaysWhere) {
  Expected<KernelMetadata> m = parseKernelMetadata("{\"format\": \"kiln-kernel/1\",", "m.json");
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), StatusCode::kMetadataError);
  EXPECT_NE(m.status().message().find("m.json: not valid JSON"), std::string::npos);
  EXPECT_NE(m.status().message().find("parse error at line 1, column 28"), std::string::npos)
      << m.status().message();
  m = parseKernelMetadata("[1, 2]", "m.json");
  EXPECT_EQ(m.status().message(), "m.json: the document must be a JSON object, got array");
}

TEST(Metadata, UnknownArgTypeListsAccepted) {
  json doc = validDoc();
  doc["signature"][1]["type"] = "u32";
  Status s = parseError(doc);
  EXPECT_EQ(s.message(), "k/metadata.json: field 'signature[1].type' of argument 'n': unknown "
                         "argument type 'u32' (expected ptr<T>, i1, i8, i16, i32, i64, f16, "
                         "bf16, f32 or f64)");
  doc["signature"][1]["type"] = "ptr<>";
  EXPECT_EQ(parseError(doc).code(), StatusCode::kMetadataError);
}

TEST(Metadata, EveryArgType) {
  struct {
    const char* text;
    ArgKind kind;
    size_t size;
  } cases[] = {{"ptr<f16>", ArgKind::kPtr, 8}, {"ptr<ptr<i8>>", ArgKind::kPtr, 8},
               {"i1", ArgKind::kI1, 1},        {"i8", ArgKind::kI8, 1},
               {"i16", ArgKind::kI16, 2},      {"i32", ArgKind::kI32, 4},
               {"i64", ArgKind::kI64, 8},      {"f16", ArgKind::kF16, 2},
               {"bf16", ArgKind::kBF16, 2},    {"f32", ArgKind::kF32, 4},
               {"f64", ArgKind::kF64, 8}};
  for (auto& c : cases) {
    Expected<ArgType> t = parseArgType(c.text);
    ASSERT_TRUE(t.ok()) << c.text;
    EXPECT_EQ(t->kind, c.kind) << c.text;
    EXPECT_EQ(argKindSize(t->kind), c.size) << c.text;
  }
  EXPECT_EQ(parseArgType("ptr<ptr<i8>>")->pointee, "ptr<i8>");
}

TEST(Metadata, FormatBackendArchChecked) {
  json doc = validDoc();
  doc["format"] = "kiln-kernel/2";
  EXPECT_EQ(parseError(doc).message(), "k/metadata.json: unsupported format 'kiln-kernel/2' "
                                       "(this runtime reads 'kiln-kernel/1')");
  doc = validDoc();
  doc["target"]["backend"] = "metal";
  EXPECT_EQ(parseError(doc).message(), "k/metadata.json: field 'target.backend': unknown "
                                       "backend 'metal' (expected cuda or hip)");
  doc = validDoc();
  doc["target"]["arch"] = "gfx90a";
  EXPECT_NE(parseError(doc).message().find("unknown cuda architecture 'gfx90a'"),
            std::string::npos);
  doc = validDoc();
  doc["binary"]["file"] = "../evil.cubin";
  EXPECT_NE(parseError(doc).message().find("must be a file name inside the artifact directory"),
            std::string::npos);
  doc = validDoc();
  doc["binary"]["sha256"] = "abc";
  EXPECT_EQ(parseError(doc).message(),
            "k/metadata.json: field 'binary.sha256' must be 64 hex digits, got 'abc'");
}

TEST(Metadata, ArchNames) {
  Target t;
  ASSERT_TRUE(parseArch(Backend::kCuda, "sm_90a", &t).ok());
  EXPECT_EQ(t.archMajor, 9);
  EXPECT_EQ(t.archMinor, 0);
  EXPECT_TRUE(t.archSpecific);
  ASSERT_TRUE(parseArch(Backend::kCuda, "sm_120", &t).ok());
  EXPECT_EQ(t.archMajor, 12);
  EXPECT_EQ(t.archMinor, 0);
  ASSERT_TRUE(parseArch(Backend::kHip, "gfx90a", &t).ok());
  EXPECT_EQ(t.archMajor, 9);
  EXPECT_EQ(t.archMinor, 0);
  EXPECT_EQ(t.archStepping, 10);
  ASSERT_TRUE(parseArch(Backend::kHip, "gfx942", &t).ok());
  EXPECT_EQ(t.archMajor, 9);
  EXPECT_EQ(t.archMinor, 4);
  EXPECT_EQ(t.archStepping, 2);
  ASSERT_TRUE(parseArch(Backend::kHip, "gfx1100", &t).ok());
  EXPECT_EQ(t.archMajor, 11);
  EXPECT_FALSE(parseArch(Backend::kCuda, "sm_9", &t).ok());
  EXPECT_FALSE(parseArch(Backend::kCuda, "sm_9x", &t).ok());
  EXPECT_FALSE(parseArch(Backend::kHip, "gfxzz0", &t).ok());
}

TEST(Metadata, ReadFromDirectory) {
  std::string dir = testing::writeArtifact("meta", testing::vaddMetadata(), "binary");
  Expected<KernelMetadata> m = readKernelMetadata(dir);
  ASSERT_TRUE(m.ok()) << m.status().toString();
  EXPECT_EQ(m->binary.size, 6u);
  EXPECT_EQ(m->binary.sha256, *sha256Hex("binary", 6));
  Expected<KernelMetadata> missing = readKernelMetadata(dir + "/nope");
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(missing.status().message(), "cannot read " + dir + "/nope/metadata.json");
}

TEST(Sha256, KnownVectors) {
  EXPECT_EQ(*sha256Hex("", 0), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(*sha256Hex("abc", 3),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  const char* twoBlocks = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  EXPECT_EQ(*sha256Hex(twoBlocks, 56),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  std::string million(1000000, 'a');
  EXPECT_EQ(*sha256Hex(million.data(), million.size()),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

} // namespace
} // namespace kiln::runtime
