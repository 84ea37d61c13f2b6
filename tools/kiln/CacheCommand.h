//===- CacheCommand.h - `kiln cache ...` and `kiln inspect` -----*- C++ -*-===//
//
// The compile cache from the command line: `kiln cache ls|stat|verify|gc|
// export|import` and `kiln inspect KEY-or-FILE --stage NAME`. Includes no
// MLIR (the cache subcommands only link cache/).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_CACHECOMMAND_H
#define KILN_TOOLS_KILN_CACHECOMMAND_H

#include <cstdint>
#include <string>
#include <vector>

#include "tools/kiln/CompileCommand.h"

namespace kiln::tool {

/// Options of `kiln cache SUBCOMMAND`.
struct CacheCommandOptions {
  /// "ls", "stat", "verify", "gc", "export" or "import".
  std::string subcommand;
  std::string cacheDir;
  bool json = false;
  /// gc: size cap as given ("10G", "500M", "4096"); empty: no eviction.
  std::string maxSize;
  /// gc: remove temp dirs older than this many minutes.
  int64_t tmpAgeMinutes = 60;
  /// export/import: the archive.
  std::string archive;
  /// export: the keys (all when empty).
  std::vector<std::string> keys;
};

/// Runs `kiln cache ...`; returns the exit status (0 ok, 1 error or, for
/// verify, bad entries found). Results go to stdout, progress (on a
/// terminal) and errors to stderr.
int runCacheCommand(const CacheCommandOptions &options);

/// Parses a size: digits with an optional K, M, G or T suffix (powers of
/// 1024, optional trailing "B"/"iB"). Returns false for anything else.
bool parseSize(const std::string &text, uint64_t &bytes);

/// `kiln inspect TARGET --stage STAGE`: TARGET is a cache key (64 hex
/// digits), whose stored stage is printed, or an input file, which is run
/// through `kiln compile` with `compile`'s options (a cache hit compiles
/// nothing) before its stage is printed. Stages: kgpu, llvm, ll, ptx,
/// metadata, manifest. Returns the exit status.
int runInspect(const std::string &target, const std::string &stage,
               CompileOptions compile);

} // namespace kiln::tool

#endif // KILN_TOOLS_KILN_CACHECOMMAND_H
