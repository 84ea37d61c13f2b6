//===- CompileJobBuilder.cpp - the compile job of `kiln compile` ----------===//

#include "tools/kiln/CompileJobBuilder.h"

#include "cache/Sha256.h"
#include "cache/Store.h"
#include "cache/ToolMemo.h"
#include "cache/Version.h"
#include "pipelines/nvptx/NVPTXBackend.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstring>
#include <elf.h>
#include <link.h>

namespace kiln::tool {
namespace {

/// One loaded object of the running process that makes kiln's output: the
/// executable, and the shared libLLVM / libMLIR a development build links
/// (the portable build has them inside the executable).
struct CompilerObject {
  std::string path;    // the file (the executable: /proc/self/exe)
  std::string name;    // its file name
  std::string buildId; // GNU build ID (hex), "" if it has none
};

/// The GNU build ID note of a loaded object, or "".
std::string buildIdOf(const struct dl_phdr_info *info) {
  std::string id;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_NOTE)
      continue;
    const char *p = reinterpret_cast<const char *>(info->dlpi_addr + ph.p_vaddr);
    const char *end = p + ph.p_memsz;
    while (p + sizeof(ElfW(Nhdr)) <= end) {
      auto *note = reinterpret_cast<const ElfW(Nhdr) *>(p);
      const char *name = p + sizeof(ElfW(Nhdr));
      const char *desc = name + ((note->n_namesz + 3) & ~3u);
      if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 &&
          std::memcmp(name, "GNU", 4) == 0 && desc + note->n_descsz <= end) {
        static const char hex[] = "0123456789abcdef";
        for (unsigned j = 0; j < note->n_descsz; ++j) {
          unsigned char byte = static_cast<unsigned char>(desc[j]);
          id += hex[byte >> 4];
          id += hex[byte & 15];
        }
        return id;
      }
      p = desc + ((note->n_descsz + 3) & ~3u);
    }
  }
  return id;
}

/// The executable first, then the libLLVM* / libMLIR* objects loaded, by
/// file name. kiln's passes and pipelines link statically into the
/// executable, so any change to the compiler's code changes its build ID:
/// a rebuilt kiln never reuses entries of an older build, even at the same
/// kKilnVersion. The shared LLVM and MLIR are named by their own IDs: a
/// patch release of the distribution's libLLVM.so.22.1 keeps the soname
/// and LLVM_VERSION_STRING's major.minor, and can change the code.
std::vector<CompilerObject> compilerObjects() {
  std::vector<CompilerObject> objects;
  dl_iterate_phdr(
      [](struct dl_phdr_info *info, size_t, void *data) -> int {
        auto &out = *static_cast<std::vector<CompilerObject> *>(data);
        if (out.empty()) {
          out.push_back({"/proc/self/exe", "kiln", buildIdOf(info)});
          return 0;
        }
        llvm::StringRef path = info->dlpi_name ? info->dlpi_name : "";
        llvm::StringRef name = llvm::sys::path::filename(path);
        if (name.starts_with("libLLVM") || name.starts_with("libMLIR"))
          out.push_back({path.str(), name.str(), buildIdOf(info)});
        return 0;
      },
      &objects);
  // By name, not load order: an LD_PRELOAD of libLLVM changed the order,
  // and the key with it, for the same compiler (helper-79).
  std::sort(objects.begin() + 1, objects.end(),
            [](const CompilerObject &a, const CompilerObject &b) {
              return a.name < b.name;
            });
  return objects;
}

/// An object's identity: "build.<GNU build ID>", or where it has none (a
/// link without --build-id: lld's default) "sha256.<its file's SHA-256>",
/// memoized under `memoRoot` by the file's stamp, so that two such builds
/// never share a key. "" if the file cannot be read either (then the
/// executable is named by kKilnVersion alone).
std::string objectIdentity(const CompilerObject &object,
                           const std::string &memoRoot) {
  if (!object.buildId.empty())
    return "build." + object.buildId;
  llvm::SmallString<256> real;
  if (llvm::sys::fs::real_path(object.path, real))
    return "";
  llvm::Expected<std::string> hash =
      memoizedFileFact(memoRoot, "sha256", std::string(real),
                       [&] { return fileSha256(std::string(real)); });
  if (!hash) {
    llvm::consumeError(hash.takeError());
    return "";
  }
  return "sha256." + *hash;
}

} // namespace

std::string toolMemoRoot(const std::string &cacheDir) {
  kiln::cache::Expected<std::string> root =
      kiln::cache::resolveCacheRoot(cacheDir);
  return root ? *root : std::string();
}

llvm::Expected<std::string>
memoizedFileFact(const std::string &memoRoot, const std::string &kind,
                 const std::string &path,
                 llvm::function_ref<llvm::Expected<std::string>()> compute) {
  kiln::cache::Expected<std::string> value = kiln::cache::memoizedFileFact(
      memoRoot, kind, path, [&]() -> kiln::cache::Expected<std::string> {
        llvm::Expected<std::string> computed = compute();
        if (!computed)
          return kiln::cache::Status(kiln::cache::StatusCode::kIoError,
                                     llvm::toString(computed.takeError()));
        return std::move(*computed);
      });
  if (!value)
    return llvm::createStringError(value.status().message());
  return std::move(*value);
}

llvm::Expected<std::string> fileSha256(const std::string &path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> bytes =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!bytes)
    return llvm::createStringError("cannot read " + path + ": " +
                                   bytes.getError().message());
  return kiln::cache::sha256Hex((*bytes)->getBuffer());
}

std::string canonicalModuleText(mlir::ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  mlir::OpPrintingFlags flags;
  flags.enableDebugInfo(/*enable=*/false);
  flags.printNameLocAsPrefix(false);
  module->print(os, flags);
  return text;
}

std::string sourceContentHash(mlir::ModuleOp module,
                              const std::vector<KernelArg> &signature) {
  std::string text = canonicalModuleText(module);
  // Each name with its length: joined with spaces alone, names that hold a
  // space ("a b", "c" against "a", "b c") gave one key, and a hit wrote
  // the other names into metadata.json.
  text += "\n// kiln.arg_names:";
  for (const KernelArg &arg : signature)
    text += " " + std::to_string(arg.name.size()) + ":" + arg.name;
  return kiln::cache::hashSourceText(text);
}

std::string printedPipeline(const mlir::OpPassManager &pm) {
  std::string text;
  llvm::raw_string_ostream os(text);
  pm.printAsTextualPipeline(os);
  return text;
}

llvm::Expected<kiln::cache::JobToolchain>
toolchainIdentity(const std::string &ptxasPath,
                  const std::string &libdevicePath, bool nvptx,
                  const std::string &memoRoot) {
  kiln::cache::JobToolchain toolchain;
  static const std::vector<CompilerObject> objects = compilerObjects();
  std::string self = objectIdentity(objects.front(), memoRoot);
  toolchain.kilnVersion =
      std::string(kiln::kKilnVersion) + (self.empty() ? "" : "+" + self);
  toolchain.llvmVersion = LLVM_VERSION_STRING;
  for (size_t i = 1; i < objects.size(); ++i) {
    std::string id = objectIdentity(objects[i], memoRoot);
    toolchain.llvmVersion += " " + objects[i].name + (id.empty() ? "" : "+" + id);
  }
  if (!nvptx)
    return toolchain;
  llvm::Expected<std::string> ptxas =
      memoizedFileFact(memoRoot, "ptxas-version", ptxasPath, [&] {
        return kiln::nvptx::getPtxasVersion(ptxasPath);
      });
  if (!ptxas)
    return ptxas.takeError();
  toolchain.ptxasVersion = *ptxas;
  llvm::Expected<std::string> libdevice =
      kiln::nvptx::findLibdevice(libdevicePath);
  if (!libdevice) {
    // Not fatal here: a kernel that calls no __nv_* needs no libdevice, and
    // one that does fails in the backend with the same message.
    llvm::consumeError(libdevice.takeError());
    return toolchain;
  }
  llvm::Expected<std::string> hash = memoizedFileFact(
      memoRoot, "sha256", *libdevice, [&] { return fileSha256(*libdevice); });
  if (!hash)
    return hash.takeError();
  toolchain.libdeviceSha256 = *hash;
  return toolchain;
}

} // namespace kiln::tool
