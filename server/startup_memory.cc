#include "server/startup_memory.h"

#if defined(__linux__)
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#endif

namespace ddb::server {

#if defined(__linux__)
namespace {

// For the executable itself (the first object, with an empty name): every
// loadable segment that is never writable. Writable ones hold data (and
// RELRO, written before it was sealed), which MADV_DONTNEED would zero.
int UnmapReadOnlySegments(dl_phdr_info* info, size_t, void*) {
  const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& segment = info->dlpi_phdr[i];
    if (segment.p_type != PT_LOAD || (segment.p_flags & PF_W) != 0) continue;
    uintptr_t start = (info->dlpi_addr + segment.p_vaddr) & ~(page - 1);
    uintptr_t end = (info->dlpi_addr + segment.p_vaddr + segment.p_memsz + page - 1) & ~(page - 1);
    madvise(reinterpret_cast<void*>(start), end - start, MADV_DONTNEED);  // best effort
  }
  return 1;  // the executable only, not the shared libraries after it
}

}  // namespace

void ReleaseStartupMemory() {
  dl_iterate_phdr(UnmapReadOnlySegments, nullptr);
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}
#else
void ReleaseStartupMemory() {}
#endif

}  // namespace ddb::server
