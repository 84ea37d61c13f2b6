//===- SourceFiles.cpp - files kiln's diagnostics may show lines of -------===//

#include "tools/common/SourceFiles.h"

#include "llvm/Support/MemoryBuffer.h"

#include <cstring>
#include <system_error>

namespace kiln::tool {
namespace {
class SourceLineFileSystem : public llvm::vfs::ProxyFileSystem {
public:
  SourceLineFileSystem() : ProxyFileSystem(llvm::vfs::getRealFileSystem()) {}

  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>>
  openFileForRead(const llvm::Twine &path) override {
    llvm::ErrorOr<llvm::vfs::Status> status = this->status(path);
    if (!status)
      return status.getError();
    if (status->getType() != llvm::sys::fs::file_type::regular_file ||
        status->getSize() > kMaxSourceLineFile)
      return std::make_error_code(std::errc::permission_denied);
    // Not a binary file (helper-93: a location naming the bytecode file
    // itself showed its first bytes as a source line).
    llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> file =
        ProxyFileSystem::openFileForRead(path);
    if (!file)
      return file;
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> bytes =
        (*file)->getBuffer(path, status->getSize(),
                           /*RequiresNullTerminator=*/false);
    if (!bytes)
      return bytes.getError();
    if (std::memchr((*bytes)->getBufferStart(), 0, (*bytes)->getBufferSize()))
      return std::make_error_code(std::errc::permission_denied);
    return ProxyFileSystem::openFileForRead(path);
  }
};
} // namespace

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> sourceLineFileSystem() {
  return llvm::makeIntrusiveRefCnt<SourceLineFileSystem>();
}

bool mayShowSourceLines(llvm::StringRef path) {
  SourceLineFileSystem fs;
  if (!fs.status(path))
    return true;
  return bool(fs.openFileForRead(path));
}

} // namespace kiln::tool
