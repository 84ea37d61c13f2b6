// Runtime.h: the kernel lifecycle (Cached -> Hydrated -> Loaded ->
// Launchable), one loaded module per (kernel artifact, device), refcounted
// kernel handles and launches.
//
// Lifetimes:
// - A Kernel is a refcounted handle to the entry for one (artifact
//   directory, device). Runtime::getKernel() on the same pair returns the
//   same entry while any handle to it exists; the module is unloaded when the
//   last handle goes, and never while a launch through it is being enqueued
//   (a launch counts as a user of the entry until cuLaunchKernel returns).
// - Modules live in the device's primary context (retained once per device
//   per process, released when the Runtime goes). The runtime makes that
//   context current around module calls and launches and restores the
//   caller's context afterwards if the caller had one; with none current,
//   it leaves the primary context current (as Triton and PyTorch do).
// - fork(): every entry records the pid that loaded it. A child process
//   never unloads its parent's modules or releases its parent's contexts: a
//   kernel the parent loaded reads as Hydrated in the child and is reloaded
//   (cuInit, primary context, module) on its first use there.
// - Process exit: the first Runtime::create() registers an atexit handler;
//   once it has run, dropping handles or runtimes makes no driver calls
//   (modules and contexts are leaked on purpose: the driver may already be
//   tearing down, and the process is ending anyway).
#ifndef KILN_RUNTIME_RUNTIME_H
#define KILN_RUNTIME_RUNTIME_H

#include <sys/types.h>

#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>

#include "runtime/Capabilities.h"
#include "runtime/Driver.h"
#include "runtime/KernelArgs.h"
#include "runtime/Metadata.h"
#include "runtime/Status.h"
#include "runtime/Telemetry.h"

namespace kiln::runtime {

/// Where a kernel is in its lifecycle.
enum class KernelState {
  /// The artifact directory is known and exists (Runtime::getKernel), or a
  /// job key names a stored cache entry whose metadata.json carries that key
  /// (Runtime::openCached); nothing else read yet.
  kCached = 0,
  /// metadata.json parsed and validated; the binary not read.
  kHydrated = 1,
  /// Binary read, size and SHA-256 verified, module loaded, function
  /// resolved, resources read back (functionAttributes()).
  kLoaded = 2,
  /// Capability-checked against the device; ready to launch.
  kLaunchable = 3,
};

/// "cached", "hydrated", "loaded", "launchable".
const char* kernelStateName(KernelState state);

/// Durations of the transitions, in microseconds (std::chrono::steady_clock);
/// -1 until the transition has happened.
struct KernelTimings {
  /// Cached -> Hydrated: reading and parsing metadata.json.
  int64_t hydrateUs = -1;
  /// Hydrated -> Loaded: reading and verifying the binary, loading the
  /// module, resolving the function, reading its attributes.
  int64_t loadUs = -1;
  /// Loaded -> Launchable: the capability check and any shared-memory opt-in.
  int64_t checkUs = -1;
  /// From the entry's creation (first getKernel()) to the end of its first
  /// successful launch call (enqueue, not completion).
  int64_t firstLaunchUs = -1;
};

/// How to launch: grid in CTAs and the caller's stream (null: the default
/// stream). Block size (warp_size x num_warps) and dynamic shared memory
/// (shared_bytes) come from the metadata.
struct LaunchConfig {
  unsigned grid[3] = {1, 1, 1};
  DriverStream stream = nullptr;
};

class Runtime;
namespace detail {
class KernelEntry;
}

/// A refcounted handle to one (kernel artifact, device) entry. Copying adds
/// a reference, destroying drops one. A default-constructed Kernel is empty:
/// its methods return kInvalidArgument. Methods are thread-safe; transitions
/// happen at most once however many threads ask.
class Kernel {
public:
  Kernel() = default;
  Kernel(const Kernel& other);
  Kernel(Kernel&& other) noexcept;
  Kernel& operator=(Kernel other) noexcept;
  ~Kernel();

  bool valid() const { return entry_ != nullptr; }
  explicit operator bool() const { return valid(); }

  /// The state as seen by this process (a fork child sees its parent's
  /// loaded kernels as kHydrated).
  KernelState state() const;
  /// The last transition error (success if none failed).
  Status lastError() const;

  /// Cached -> Hydrated. Errors: kNotFound, kMetadataError. A no-op later.
  Status hydrate();
  /// -> Loaded (hydrating first if needed). Errors: those of hydrate(),
  /// kNotFound (binary missing), kBinarySizeMismatch, kChecksumMismatch
  /// (the module is then never loaded), kDriverError, kInvalidArgument (no
  /// such device).
  Status load();
  /// -> Launchable (loading first if needed). Errors: those of load() and
  /// the capability errors of checkCapabilities(); on a capability error the
  /// kernel stays Loaded.
  Status makeLaunchable();

  /// Packs `args` against the signature and enqueues the kernel on
  /// `config.stream` (making it Launchable first if needed). Errors: those
  /// of makeLaunchable(), kInvalidArgument (a zero grid dimension),
  /// kArgumentCount, kArgumentType, kDriverError (cuLaunchKernel). Every
  /// message starts with the kernel, its num_warps/num_stages and the device.
  Status launch(const LaunchConfig& config, const KernelArg* args, size_t numArgs);
  Status launch(const LaunchConfig& config, std::initializer_list<KernelArg> args) {
    return launch(config, args.begin(), args.size());
  }

  /// Inspection text `name` of the artifact, read from disk now and only now
  /// (hydrate, load and launch never open these files): "kgpu" ->
  /// `<kernel>.kgpu.mlir`, "llvm" -> `<kernel>.llvm.mlir`, "ll" ->
  /// `<kernel>.ll`, "ptx" -> `<kernel>.ptx` (kArtifactTextNames; the files
  /// `kiln compile` writes beside metadata.json). Hydrates first if needed
  /// (the kernel name comes from metadata.json); never loads. Not cached:
  /// each call reads the file again. Errors: those of hydrate(),
  /// kInvalidArgument (unknown name), kNotFound (the file is missing or
  /// unreadable; the message names its path).
  Expected<std::string> readArtifactText(std::string_view name);

  /// The parsed metadata; null before Hydrated.
  std::shared_ptr<const KernelMetadata> metadata() const;
  /// Registers, local memory etc. of the loaded function; kInvalidState
  /// before Loaded.
  Expected<FunctionAttributes> functionAttributes() const;
  KernelTimings timings() const;
  const std::string& artifactDir() const;
  int device() const;
  /// Number of handles to this entry (for tests and diagnostics).
  int handleCount() const;

private:
  friend class Runtime;
  explicit Kernel(detail::KernelEntry* entry) : entry_(entry) {}
  detail::KernelEntry* entry_ = nullptr;
};

/// `<cacheRoot>/v1/<key[0:2]>/<key>`, the compile cache's entry layout
/// (cache::Store::entryDir, cache/README.md), for a valid key; whether or not
/// it exists.
std::string cachedEntryDir(const std::string& cacheRoot, const std::string& key);

/// The runtime: one driver, its devices' primary contexts and the registry
/// of kernel entries. Create with Runtime::create(); kernels keep their
/// Runtime alive.
class Runtime : public std::enable_shared_from_this<Runtime> {
public:
  /// A runtime on `driver` (e.g. cuda::openCudaDriver()). The driver is
  /// initialized lazily, on the first device use.
  static std::shared_ptr<Runtime> create(std::unique_ptr<Driver> driver);
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  /// The handle for `artifactDir` (canonicalized with realpath) on device
  /// ordinal `device`, in state Cached if new. Errors: kNotFound (no such
  /// directory), kInvalidArgument (negative device). No driver call.
  Expected<Kernel> getKernel(const std::string& artifactDir, int device = 0);

  /// The handle for the compile cache's entry of job `key` under
  /// `cacheRoot` (the directory holding `v1/`, as cache::Store and `kiln
  /// compile --cache-dir` use it) on `device`, in state Cached if new.
  /// Checks, in order: `key` is a job key (64 lower-case hex digits;
  /// kInvalidArgument otherwise), the entry directory cachedEntryDir(cacheRoot,
  /// key) exists (kNotFound naming the key and the root), its metadata.json's
  /// "job_key" equals `key` (kMetadataError naming both; kNotFound if there
  /// is no metadata.json). Only the job_key field is read here (or nothing,
  /// when the entry is already live and hydrated); the rest is exactly
  /// getKernel(entry directory, device): same entry, same lifecycle. The
  /// cache's manifest and checksums are not consulted (cache::Store::lookup
  /// does that); load() still verifies the binary against metadata.json.
  /// Neither the root nor any lock is written. No driver call.
  Expected<Kernel> openCached(const std::string& cacheRoot, const std::string& key,
                              int device = 0);

  /// The device's limits; initializes the driver and retains the device's
  /// primary context on first use. Errors: kDriverError (cuInit, ...),
  /// kInvalidArgument (ordinal out of range).
  Expected<DeviceInfo> deviceInfo(int device);
  /// Makes the device's primary context current on the calling thread (for
  /// callers' own driver calls, e.g. the memory helpers).
  Status makeDeviceCurrent(int device);

  Driver& driver() { return *driver_; }

  /// Replaces the listener (an empty function removes it).
  void setListener(Listener listener);

  /// Process counters and every live entry (state, timings, resources) as
  /// JSON: {"counters": {...}, "kernels": [{"kernel", "artifact_dir",
  /// "device", "state", "timings_us": {"hydrate", "load", "check",
  /// "first_launch"}, "num_regs", "local_bytes", "static_shared_bytes",
  /// "handles"}, ...]}.
  std::string telemetryJson();

  /// Number of live entries (distinct (artifact, device) pairs with handles).
  size_t liveKernelCount();

private:
  struct Token {};

public:
  Runtime(Token, std::unique_ptr<Driver> driver);

private:
  friend class Kernel;
  friend class detail::KernelEntry;

  struct DeviceState {
    DriverContext context = nullptr;
    DeviceInfo info;
  };
  Expected<DeviceState> ensureDevice(int device);
  void emit(const Event& event);
  void release(detail::KernelEntry* entry);

  std::unique_ptr<Driver> driver_;
  std::mutex devicesMu_;
  pid_t initPid_ = 0;
  std::map<int, DeviceState> devices_;
  std::mutex registryMu_;
  std::map<std::pair<std::string, int>, detail::KernelEntry*> entries_;
  std::mutex listenerMu_;
  std::shared_ptr<Listener> listener_;
};

} // namespace kiln::runtime

#endif // KILN_RUNTIME_RUNTIME_H
