//===- Prefault.cpp - first-touch page faults off kiln's main thread ------===//

#include "tools/kiln/Prefault.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>

#include <link.h>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

namespace kiln::tool {
namespace {

/// A page range to map in. Static storage, constant-initialized: written
/// before the thread starts, read only by it.
struct Range {
  uintptr_t begin, end;
};
constexpr int kMaxRanges = 16;
Range ranges[kMaxRanges];
int numRanges = 0;

void addRange(uintptr_t begin, uintptr_t end) {
  uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  begin = (begin + page - 1) & ~(page - 1);
  end &= ~(page - 1);
  if (end > begin && numRanges < kMaxRanges)
    ranges[numRanges++] = {begin, end};
}

/// The program's writable PT_LOAD segments less the part made read-only
/// after relocation (PT_GNU_RELRO): .data (copied on write) and .bss.
int addWritableSegments(dl_phdr_info *info, size_t, void *) {
  uintptr_t relroEnd = 0;
  uintptr_t relroBegin = 0;
  for (int i = 0; i < info->dlpi_phnum; ++i)
    if (info->dlpi_phdr[i].p_type == PT_GNU_RELRO) {
      relroBegin = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
      relroEnd = relroBegin + info->dlpi_phdr[i].p_memsz;
    }
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &segment = info->dlpi_phdr[i];
    if (segment.p_type != PT_LOAD || !(segment.p_flags & PF_W))
      continue;
    uintptr_t begin = info->dlpi_addr + segment.p_vaddr;
    uintptr_t end = begin + segment.p_memsz;
    if (relroBegin <= begin && relroEnd > begin)
      begin = relroEnd;
    addRange(begin, end);
  }
  return 1; // the program only: it is listed first
}

void *prefaultMain(void *) {
  // In steps of 256 KiB: madvise holds the address space's lock for
  // reading meanwhile, which the main thread's mmap calls wait for.
  constexpr uintptr_t kStep = 256 << 10;
  for (int i = 0; i < numRanges; ++i)
    for (uintptr_t at = ranges[i].begin; at < ranges[i].end; at += kStep) {
      uintptr_t size = ranges[i].end - at < kStep ? ranges[i].end - at : kStep;
      if (madvise(reinterpret_cast<void *>(at), size, MADV_POPULATE_WRITE) != 0)
        break; // EINVAL before Linux 5.14: nothing to gain
    }
  return nullptr;
}

} // namespace

void prefaultAtLoad() {
  const char *mode = std::getenv("KILN_PREFAULT");
  if (!mode || std::strcmp(mode, "1") != 0)
    return;
  unsigned long megabytes = 6;
  if (const char *value = std::getenv("KILN_PREFAULT_MB"))
    megabytes = std::strtoul(value, nullptr, 10);
  dl_iterate_phdr(addWritableSegments, nullptr);
  if (megabytes > 0 && megabytes <= 1024) {
    size_t bytes = megabytes << 20;
    if (void *block = std::malloc(bytes)) {
      uintptr_t begin = reinterpret_cast<uintptr_t>(block);
      std::free(block);
      addRange(begin, begin + bytes);
    }
  }
  pthread_attr_t attributes; // a small stack: madvise calls only
  pthread_attr_init(&attributes);
  pthread_attr_setstacksize(&attributes, 64 << 10);
  pthread_t thread;
  if (pthread_create(&thread, &attributes, prefaultMain, nullptr) == 0)
    pthread_detach(thread);
  pthread_attr_destroy(&attributes);
}

} // namespace kiln::tool
