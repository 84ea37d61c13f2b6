// Runtime.cpp: kernel entries, their transitions, refcounting and launches.
#include "runtime/Runtime.h"

#include <algorithm>
#include <map>

#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#include <nlohmann/json.hpp>

#include "runtime/Sha256.h"

namespace kiln::runtime {
namespace {

using Clock = std::chrono::steady_clock;

int64_t microsSince(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start).count();
}

// Set by an atexit handler: after it, no driver calls from destructors.
std::atomic<bool> gProcessExiting{false};
std::once_flag gAtexitOnce;
void markProcessExiting() { gProcessExiting.store(true); }

// getpid() is a system call in glibc >= 2.25; launches compare pids, so the
// pid is cached and refreshed in fork children by a pthread_atfork handler.
std::atomic<pid_t> gPid{0};
void refreshPid() { gPid.store(getpid()); }
pid_t currentPid() {
  pid_t p = gPid.load(std::memory_order_relaxed);
  return p ? p : getpid();
}

/// Makes `context` current for the guard's scope and restores the caller's
/// context afterwards if there was one.
class ContextGuard {
public:
  explicit ContextGuard(Driver& driver) : driver_(driver) {}
  Status enter(DriverContext context) {
    Expected<DriverContext> current = driver_.currentContext();
    if (!current)
      return current.status();
    if (*current == context)
      return Status();
    KILN_RETURN_IF_ERROR(driver_.setCurrentContext(context));
    previous_ = *current;
    restore_ = previous_ != nullptr;
    return Status();
  }
  ~ContextGuard() {
    if (restore_)
      (void)driver_.setCurrentContext(previous_);
  }

private:
  Driver& driver_;
  DriverContext previous_ = nullptr;
  bool restore_ = false;
};

} // namespace

const char* kernelStateName(KernelState state) {
  switch (state) {
  case KernelState::kCached: return "cached";
  case KernelState::kHydrated: return "hydrated";
  case KernelState::kLoaded: return "loaded";
  case KernelState::kLaunchable: return "launchable";
  }
  return "unknown";
}

namespace detail {

/// One (artifact, device) entry. Fields below `mu` are guarded by it.
class KernelEntry {
public:
  KernelEntry(std::shared_ptr<Runtime> runtime, std::string dir, int device)
      : rt(std::move(runtime)), artifactDir(std::move(dir)), device(device),
        created(Clock::now()) {}

  const std::shared_ptr<Runtime> rt;
  const std::string artifactDir;
  const int device;
  const Clock::time_point created;

  std::mutex mu;
  int refs = 1;
  int inflight = 0;   // launches between state check and driver return
  bool dead = false;  // no handles left; destroyed when inflight reaches 0
  KernelState state = KernelState::kCached;
  std::shared_ptr<const KernelMetadata> md;
  DriverContext context = nullptr;
  DriverModule module = nullptr;
  DriverFunction function = nullptr;
  pid_t loadPid = 0;
  FunctionAttributes attrs;
  LaunchPlan plan;
  KernelTimings timings;
  bool launchedOnce = false;
  Status lastError;

  /// "kernel 'vadd' (num_warps=4, num_stages=3) on device 0", or the
  /// artifact directory before hydration.
  std::string describe() const {
    std::string d = " on device " + std::to_string(device);
    if (!md)
      return "kernel artifact '" + artifactDir + "'" + d;
    return "kernel '" + md->kernel + "' (num_warps=" + std::to_string(md->numWarps) +
           ", num_stages=" + std::to_string(md->numStages) + ")" + d;
  }

  Event event(EventKind kind, int64_t us, Status status = Status()) const {
    Event e;
    e.kind = kind;
    e.kernel = md ? md->kernel : "";
    e.artifactDir = artifactDir;
    e.device = device;
    e.durationUs = us;
    e.status = std::move(status);
    return e;
  }

  /// Drops a module loaded by another process (our fork parent) without
  /// unloading it.
  void forgetForeignModuleLocked(std::vector<Event>& events) {
    if (state >= KernelState::kLoaded && loadPid != currentPid()) {
      module = nullptr;
      function = nullptr;
      context = nullptr;
      state = KernelState::kHydrated;
      bump(Counter::kForkReloads);
      events.push_back(event(EventKind::kForkReload, -1));
    }
  }

  Status fail(Status s) {
    lastError = s;
    return s;
  }

  Status hydrateLocked(std::vector<Event>& events) {
    if (state >= KernelState::kHydrated)
      return Status();
    Clock::time_point t0 = Clock::now();
    Expected<KernelMetadata> m = readKernelMetadata(artifactDir);
    if (!m) {
      bump(Counter::kHydrationFailures);
      Status s = m.status().withContext(describe());
      events.push_back(event(EventKind::kHydrationFailed, microsSince(t0), s));
      return fail(s);
    }
    md = std::make_shared<const KernelMetadata>(std::move(*m));
    state = KernelState::kHydrated;
    timings.hydrateUs = microsSince(t0);
    bump(Counter::kHydrations);
    events.push_back(event(EventKind::kHydrated, timings.hydrateUs));
    return Status();
  }

  Status loadLocked(std::vector<Event>& events) {
    KILN_RETURN_IF_ERROR(hydrateLocked(events));
    forgetForeignModuleLocked(events);
    if (state >= KernelState::kLoaded)
      return Status();
    Clock::time_point t0 = Clock::now();
    Status s = loadModuleLocked();
    if (!s.ok()) {
      bump(Counter::kLoadFailures);
      s = s.withContext(describe());
      events.push_back(event(EventKind::kLoadFailed, microsSince(t0), s));
      return fail(s);
    }
    state = KernelState::kLoaded;
    loadPid = currentPid();
    timings.loadUs = microsSince(t0);
    bump(Counter::kLoads);
    events.push_back(event(EventKind::kLoaded, timings.loadUs));
    return Status();
  }

  Status loadModuleLocked() {
    Expected<Runtime::DeviceState> dev = rt->ensureDevice(device);
    if (!dev)
      return dev.status();
    // Read and verify the whole binary before the driver sees any of it.
    const std::string path = artifactDir + "/" + md->binary.file;
    std::ifstream in(path, std::ios::binary);
    if (!in)
      return Status(StatusCode::kNotFound, "cannot read binary " + path);
    std::vector<char> image((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad())
      return Status(StatusCode::kNotFound, "error reading binary " + path);
    if (image.size() != md->binary.size) {
      bump(Counter::kChecksumFailures);
      return Status(StatusCode::kBinarySizeMismatch,
                    "binary " + path + " has " + std::to_string(image.size()) +
                        " bytes but metadata.json says " + std::to_string(md->binary.size) +
                        (image.size() < md->binary.size ? " (truncated)" : "") +
                        "; not loaded");
    }
    Expected<std::string> digest = sha256Hex(image.data(), image.size());
    if (!digest)
      return digest.status();
    if (*digest != md->binary.sha256) {
      bump(Counter::kChecksumFailures);
      return Status(StatusCode::kChecksumMismatch, "binary " + path + " has SHA-256 " + *digest +
                                                       " but metadata.json says " +
                                                       md->binary.sha256 + "; not loaded");
    }
    // cuModuleLoadData takes PTX only as a NUL-terminated string; the NUL
    // is harmless after an ELF image.
    image.push_back('\0');
    Driver& driver = rt->driver();
    ContextGuard guard(driver);
    KILN_RETURN_IF_ERROR(guard.enter(dev->context));
    Expected<DriverModule> mod = driver.loadModule(image.data(), image.size() - 1);
    if (!mod)
      return mod.status();
    Expected<DriverFunction> fn = driver.getFunction(*mod, md->kernel);
    Expected<FunctionAttributes> attributes =
        fn ? driver.functionAttributes(*fn) : Expected<FunctionAttributes>(fn.status());
    if (!attributes) {
      (void)driver.unloadModule(*mod);
      return attributes.status();
    }
    module = *mod;
    function = *fn;
    context = dev->context;
    attrs = *attributes;
    return Status();
  }

  Status launchableLocked(std::vector<Event>& events) {
    KILN_RETURN_IF_ERROR(loadLocked(events));
    if (state == KernelState::kLaunchable)
      return Status();
    Clock::time_point t0 = Clock::now();
    Expected<Runtime::DeviceState> dev = rt->ensureDevice(device);
    if (!dev)
      return fail(dev.status().withContext(describe()));
    Status s = checkCapabilities(*md, dev->info, attrs, &plan);
    if (!s.ok()) {
      bump(Counter::kCapabilityFailures);
      events.push_back(event(EventKind::kCapabilityFailed, microsSince(t0), s));
      return fail(s);
    }
    if (plan.needsSharedOptIn) {
      Driver& driver = rt->driver();
      ContextGuard guard(driver);
      s = guard.enter(context);
      if (s.ok())
        s = driver.setMaxDynamicSharedBytes(function, static_cast<int>(plan.dynamicSharedBytes));
      if (!s.ok())
        return fail(s.withContext(describe()));
    }
    state = KernelState::kLaunchable;
    timings.checkUs = microsSince(t0);
    events.push_back(event(EventKind::kLaunchable, timings.checkUs));
    return Status();
  }

  /// Called with no locks held, once no handle and no launch remain.
  void destroy() {
    if (module && loadPid == currentPid() && !gProcessExiting.load()) {
      Driver& driver = rt->driver();
      ContextGuard guard(driver);
      if (guard.enter(context).ok() && driver.unloadModule(module).ok()) {
        bump(Counter::kUnloads);
        rt->emit(event(EventKind::kUnloaded, -1));
      }
    }
    delete this;
  }
};

} // namespace detail

using detail::Counter;
using detail::KernelEntry;


// --- Runtime -----------------------------------------------------------------

Runtime::Runtime(Token, std::unique_ptr<Driver> driver) : driver_(std::move(driver)) {}

std::shared_ptr<Runtime> Runtime::create(std::unique_ptr<Driver> driver) {
  std::call_once(gAtexitOnce, [] {
    std::atexit(markProcessExiting);
    refreshPid();
    pthread_atfork(nullptr, nullptr, refreshPid);
  });
  return std::make_shared<Runtime>(Token{}, std::move(driver));
}

Runtime::~Runtime() {
  if (gProcessExiting.load() || initPid_ != currentPid())
    return; // at exit, or contexts retained by a fork parent: leave them
  for (auto& [ordinal, state] : devices_)
    (void)driver_->releasePrimaryContext(ordinal);
}

Expected<Runtime::DeviceState> Runtime::ensureDevice(int device) {
  std::lock_guard<std::mutex> lock(devicesMu_);
  const pid_t pid = currentPid();
  if (initPid_ != pid) {
    // First use in this process (or in a fork child): the parent's contexts
    // are not ours to use or release.
    devices_.clear();
    Status s = driver_->init();
    if (!s.ok())
      return s;
    initPid_ = pid;
  }
  auto it = devices_.find(device);
  if (it != devices_.end())
    return it->second;
  Expected<int> count = driver_->deviceCount();
  if (!count)
    return count.status();
  if (device < 0 || device >= *count)
    return Status(StatusCode::kInvalidArgument, "device " + std::to_string(device) +
                                                    " does not exist (" + driver_->description() +
                                                    " reports " + std::to_string(*count) +
                                                    " devices)");
  Expected<DeviceInfo> info = driver_->deviceInfo(device);
  if (!info)
    return info.status();
  Expected<DriverContext> ctx = driver_->retainPrimaryContext(device);
  if (!ctx)
    return ctx.status();
  DeviceState state;
  state.context = *ctx;
  state.info = *info;
  devices_[device] = state;
  return state;
}

Expected<DeviceInfo> Runtime::deviceInfo(int device) {
  Expected<DeviceState> s = ensureDevice(device);
  if (!s)
    return s.status();
  return s->info;
}

Status Runtime::makeDeviceCurrent(int device) {
  Expected<DeviceState> s = ensureDevice(device);
  if (!s)
    return s.status();
  return driver_->setCurrentContext(s->context);
}

Expected<Kernel> Runtime::getKernel(const std::string& artifactDir, int device) {
  if (device < 0)
    return Status(StatusCode::kInvalidArgument,
                  "device ordinal must be >= 0, got " + std::to_string(device));
  char resolved[PATH_MAX];
  if (!realpath(artifactDir.c_str(), resolved))
    return Status(StatusCode::kNotFound,
                  "kernel artifact directory '" + artifactDir + "' does not exist");
  std::string dir(resolved);
  std::lock_guard<std::mutex> lock(registryMu_);
  auto key = std::make_pair(dir, device);
  auto it = entries_.find(key);
  if (it != entries_.end()) {
    std::lock_guard<std::mutex> entryLock(it->second->mu);
    ++it->second->refs;
    return Kernel(it->second);
  }
  auto* entry = new KernelEntry(shared_from_this(), dir, device);
  entries_[key] = entry;
  return Kernel(entry);
}

// The cache's layout and key format are spelled out here rather than taken
// from //cache: cache::Store::entryDir() is a member of an opened Store (and
// opening one creates the layout, a write), and linking //cache:job for
// cache::isValidKey would break the scripts that build runtime/*.cpp alone
// (tools/demo/build_demo.sh, test/runtime/build_gpu_test.sh,
// bench/runtime/build.sh). test/runtime/CachedKernelTest.cpp checks both
// against the cache library (isValidKey, Store::publish, Store::entryDir).
std::string cachedEntryDir(const std::string& cacheRoot, const std::string& key) {
  std::string root = cacheRoot;
  while (root.size() > 1 && root.back() == '/')
    root.pop_back();
  return root + "/v1/" + key.substr(0, 2) + "/" + key;
}

namespace {

/// Why `key` is not a job key ("" if it is one).
std::string badKeyReason(const std::string& key) {
  if (key.size() != 64)
    return "it has " + std::to_string(key.size()) + " characters";
  for (size_t i = 0; i < key.size(); ++i) {
    char c = key[i];
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
      return "character " + std::to_string(i) + " is '" + std::string(1, c) + "'";
  }
  return "";
}

bool isDirectory(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

} // namespace

Expected<Kernel> Runtime::openCached(const std::string& cacheRoot, const std::string& key,
                                     int device) {
  std::string reason = badKeyReason(key);
  if (!reason.empty()) {
    std::string shown = key.size() > 80 ? key.substr(0, 80) + "..." : key;
    return Status(StatusCode::kInvalidArgument,
                  "'" + shown + "' is not a job key (64 lower-case hex digits): " + reason);
  }
  if (device < 0)
    return Status(StatusCode::kInvalidArgument,
                  "device ordinal must be >= 0, got " + std::to_string(device));
  if (cacheRoot.empty())
    return Status(StatusCode::kInvalidArgument, "cache root is empty (job key " + key + ")");
  const std::string dir = cachedEntryDir(cacheRoot, key);
  if (!isDirectory(dir)) {
    if (!isDirectory(cacheRoot))
      return Status(StatusCode::kNotFound, "no cache entry for job key " + key +
                                               ": cache root '" + cacheRoot +
                                               "' is not a directory");
    return Status(StatusCode::kNotFound, "no cache entry for job key " + key + " in cache root '" +
                                             cacheRoot + "' (" + dir + " does not exist)");
  }
  Expected<Kernel> kernel = getKernel(dir, device);
  if (!kernel)
    return kernel.status();
  // The entry may be live and hydrated already (another open): then its
  // parsed metadata answers without touching the disk.
  std::string recorded;
  if (std::shared_ptr<const KernelMetadata> md = kernel->metadata()) {
    recorded = md->jobKey;
  } else {
    Expected<std::string> jobKey = readMetadataJobKey(kernel->artifactDir());
    if (!jobKey)
      return jobKey.status().withContext("cache entry for job key " + key + " in cache root '" +
                                         cacheRoot + "'");
    recorded = std::move(*jobKey);
  }
  if (recorded != key)
    return Status(StatusCode::kMetadataError,
                  kernel->artifactDir() + "/metadata.json: job_key is " +
                      (recorded.empty() ? std::string("empty") : "'" + recorded + "'") +
                      " but the entry is stored under job key " + key + " in cache root '" +
                      cacheRoot + "'");
  return kernel;
}

void Runtime::release(KernelEntry* entry) {
  {
    std::lock_guard<std::mutex> lock(registryMu_);
    std::lock_guard<std::mutex> entryLock(entry->mu);
    if (--entry->refs > 0)
      return;
    auto it = entries_.find({entry->artifactDir, entry->device});
    if (it != entries_.end() && it->second == entry)
      entries_.erase(it);
    entry->dead = true;
    if (entry->inflight > 0)
      return; // the last launch to return destroys it
  }
  entry->destroy();
}

void Runtime::setListener(Listener listener) {
  std::lock_guard<std::mutex> lock(listenerMu_);
  listener_ = listener ? std::make_shared<Listener>(std::move(listener)) : nullptr;
}

void Runtime::emit(const Event& event) {
  std::shared_ptr<Listener> l;
  {
    std::lock_guard<std::mutex> lock(listenerMu_);
    l = listener_;
  }
  if (l)
    (*l)(event);
}

size_t Runtime::liveKernelCount() {
  std::lock_guard<std::mutex> lock(registryMu_);
  return entries_.size();
}

std::string Runtime::telemetryJson() {
  using json = nlohmann::json;
  ProcessCounters c = processCounters();
  json doc;
  doc["counters"] = {
      {"hydrations", c.hydrations},
      {"hydration_failures", c.hydrationFailures},
      {"loads", c.loads},
      {"load_failures", c.loadFailures},
      {"checksum_failures", c.checksumFailures},
      {"capability_failures", c.capabilityFailures},
      {"launches", c.launches},
      {"launch_failures", c.launchFailures},
      {"unloads", c.unloads},
      {"fork_reloads", c.forkReloads},
  };
  json kernels = json::array();
  std::map<std::string, std::vector<int64_t>> firstLaunchByArch;
  std::lock_guard<std::mutex> lock(registryMu_);
  for (auto& [key, e] : entries_) {
    std::lock_guard<std::mutex> entryLock(e->mu);
    json k = {
        {"kernel", e->md ? e->md->kernel : ""},
        {"artifact_dir", e->artifactDir},
        {"device", e->device},
        {"state", kernelStateName(e->state)},
        {"handles", e->refs},
        {"timings_us",
         {{"hydrate", e->timings.hydrateUs},
          {"load", e->timings.loadUs},
          {"check", e->timings.checkUs},
          {"first_launch", e->timings.firstLaunchUs}}},
    };
    if (e->state >= KernelState::kLoaded) {
      k["num_regs"] = e->attrs.numRegs;
      k["local_bytes"] = e->attrs.localBytes;
      k["static_shared_bytes"] = e->attrs.staticSharedBytes;
    }
    kernels.push_back(std::move(k));
    if (e->md && e->timings.firstLaunchUs >= 0)
      firstLaunchByArch[std::string(backendName(e->md->target.backend)) + "/" +
                        e->md->target.arch]
          .push_back(
          e->timings.firstLaunchUs);
  }
  doc["kernels"] = std::move(kernels);
  // Creation-to-first-successful-launch per architecture, over the kernels
  // that have launched.
  json byArch = json::object();
  for (auto& [arch, times] : firstLaunchByArch) {
    std::sort(times.begin(), times.end());
    byArch[arch] = {{"kernels", times.size()},
                    {"min_us", times.front()},
                    {"median_us", times[times.size() / 2]},
                    {"max_us", times.back()}};
  }
  doc["first_launch_by_arch"] = std::move(byArch);
  return doc.dump(2);
}

// --- Kernel ------------------------------------------------------------------

Kernel::Kernel(const Kernel& other) : entry_(other.entry_) {
  if (entry_) {
    std::lock_guard<std::mutex> lock(entry_->mu);
    ++entry_->refs;
  }
}

Kernel::Kernel(Kernel&& other) noexcept : entry_(other.entry_) { other.entry_ = nullptr; }

Kernel& Kernel::operator=(Kernel other) noexcept {
  std::swap(entry_, other.entry_);
  return *this;
}

Kernel::~Kernel() {
  if (entry_) {
    // Keep the runtime alive across release(): the entry may hold its last
    // reference.
    std::shared_ptr<Runtime> rt = entry_->rt;
    rt->release(entry_);
  }
}

namespace {
Status emptyHandle() { return Status(StatusCode::kInvalidArgument, "empty kernel handle"); }
} // namespace

KernelState Kernel::state() const {
  if (!entry_)
    return KernelState::kCached;
  std::lock_guard<std::mutex> lock(entry_->mu);
  if (entry_->state >= KernelState::kLoaded && entry_->loadPid != currentPid())
    return KernelState::kHydrated;
  return entry_->state;
}

Status Kernel::lastError() const {
  if (!entry_)
    return emptyHandle();
  std::lock_guard<std::mutex> lock(entry_->mu);
  return entry_->lastError;
}

#define KILN_TRANSITION(method)                                                                    \
  if (!entry_)                                                                                     \
    return emptyHandle();                                                                          \
  std::vector<Event> events;                                                                       \
  Status s;                                                                                        \
  {                                                                                                \
    std::lock_guard<std::mutex> lock(entry_->mu);                                                  \
    s = entry_->method(events);                                                                    \
  }                                                                                                \
  for (const Event& e : events)                                                                    \
    entry_->rt->emit(e);                                                                           \
  return s;

Status Kernel::hydrate() { KILN_TRANSITION(hydrateLocked) }
Status Kernel::load() { KILN_TRANSITION(loadLocked) }
Status Kernel::makeLaunchable() { KILN_TRANSITION(launchableLocked) }
#undef KILN_TRANSITION

Status Kernel::launch(const LaunchConfig& config, const KernelArg* args, size_t numArgs) {
  KernelEntry* e = entry_; // not `this` below: the handle may go while we run
  if (!e)
    return emptyHandle();
  std::vector<Event> events;
  LaunchParams lp;
  std::shared_ptr<const KernelMetadata> md;
  DriverContext context = nullptr;
  Status s;
  {
    std::lock_guard<std::mutex> lock(e->mu);
    s = e->launchableLocked(events);
    if (s.ok()) {
      ++e->inflight;
      md = e->md;
      context = e->context;
      lp.function = e->function;
      lp.block[0] = e->plan.blockThreads;
      lp.sharedBytes = e->plan.dynamicSharedBytes;
    }
  }
  // The entry (and its runtime) stays alive until the inflight count drops.
  std::shared_ptr<Runtime> rt = e->rt;
  for (const Event& ev : events)
    rt->emit(ev);
  if (!s.ok()) {
    detail::bump(Counter::kLaunchFailures);
    return s;
  }

  if (config.grid[0] == 0 || config.grid[1] == 0 || config.grid[2] == 0) {
    s = Status(StatusCode::kInvalidArgument,
               "grid " + std::to_string(config.grid[0]) + "x" + std::to_string(config.grid[1]) +
                   "x" + std::to_string(config.grid[2]) + " has a zero dimension");
  }
  thread_local PackedArgs packed;
  if (s.ok())
    s = packArguments(*md, args, numArgs, &packed);
  if (s.ok()) {
    lp.grid[0] = config.grid[0];
    lp.grid[1] = config.grid[1];
    lp.grid[2] = config.grid[2];
    lp.stream = config.stream;
    lp.params = packed.params();
    ContextGuard guard(rt->driver());
    s = guard.enter(context);
    if (s.ok())
      s = rt->driver().launch(lp);
  }

  bool destroyNow = false;
  bool first = false;
  int64_t firstUs = -1;
  {
    std::lock_guard<std::mutex> lock(e->mu);
    if (s.ok() && !e->launchedOnce) {
      e->launchedOnce = true;
      first = true;
      firstUs = e->timings.firstLaunchUs = microsSince(e->created);
    }
    --e->inflight;
    destroyNow = e->dead && e->inflight == 0;
  }
  if (s.ok()) {
    detail::bump(Counter::kLaunches);
    if (first) {
      Event ev;
      ev.kind = EventKind::kFirstLaunch;
      ev.kernel = md->kernel;
      ev.artifactDir = e->artifactDir;
      ev.device = e->device;
      ev.durationUs = firstUs;
      rt->emit(ev);
    }
  } else {
    detail::bump(Counter::kLaunchFailures);
    std::string who = "kernel '" + md->kernel + "' (num_warps=" + std::to_string(md->numWarps) +
                      ", num_stages=" + std::to_string(md->numStages) + ") on device " +
                      std::to_string(e->device);
    s = s.withContext(who);
  }
  if (destroyNow)
    e->destroy();
  return s;
}

Expected<std::string> Kernel::readArtifactText(std::string_view name) {
  if (!entry_)
    return emptyHandle();
  std::vector<Event> events;
  Status s;
  std::shared_ptr<const KernelMetadata> md;
  std::string who;
  {
    std::lock_guard<std::mutex> lock(entry_->mu);
    s = entry_->hydrateLocked(events);
    md = entry_->md;
    who = entry_->describe();
  }
  for (const Event& e : events)
    entry_->rt->emit(e);
  if (!s.ok())
    return s;
  Expected<std::string> file = artifactTextFileName(md->kernel, name);
  if (!file)
    return file.status().withContext(who);
  // Read outside the entry's lock: inspection never delays a launch.
  const std::string path = entry_->artifactDir + "/" + *file;
  auto cannotRead = [&](int err) {
    return Status(StatusCode::kNotFound,
                  who + ": cannot read " + std::string(name) + " text " + path + ": " +
                      (err == ENOENT ? std::string("no such file (kiln compile writes it beside "
                                                   "metadata.json; a copied artifact may omit it)")
                                     : std::string(std::strerror(err))));
  };
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return cannotRead(errno);
  std::string text;
  struct stat st;
  if (::fstat(fd, &st) == 0 && !S_ISREG(st.st_mode)) {
    ::close(fd);
    return cannotRead(S_ISDIR(st.st_mode) ? EISDIR : EINVAL);
  }
  if (st.st_size > 0)
    text.reserve(static_cast<size_t>(st.st_size));
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      int err = errno;
      ::close(fd);
      return cannotRead(err);
    }
    if (n == 0)
      break;
    text.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return text;
}

std::shared_ptr<const KernelMetadata> Kernel::metadata() const {
  if (!entry_)
    return nullptr;
  std::lock_guard<std::mutex> lock(entry_->mu);
  return entry_->md;
}

Expected<FunctionAttributes> Kernel::functionAttributes() const {
  if (!entry_)
    return emptyHandle();
  std::lock_guard<std::mutex> lock(entry_->mu);
  if (entry_->state < KernelState::kLoaded)
    return Status(StatusCode::kInvalidState, entry_->describe() + " is " +
                                                 kernelStateName(entry_->state) +
                                                 ", not loaded: no function attributes yet");
  return entry_->attrs;
}

KernelTimings Kernel::timings() const {
  if (!entry_)
    return KernelTimings();
  std::lock_guard<std::mutex> lock(entry_->mu);
  return entry_->timings;
}

const std::string& Kernel::artifactDir() const {
  static const std::string* empty = new std::string();
  return entry_ ? entry_->artifactDir : *empty;
}

int Kernel::device() const { return entry_ ? entry_->device : -1; }

int Kernel::handleCount() const {
  if (!entry_)
    return 0;
  std::lock_guard<std::mutex> lock(entry_->mu);
  return entry_->refs;
}

} // namespace kiln::runtime
