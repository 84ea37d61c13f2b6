// Status.h: the runtime's error values. Every failure the runtime can report
// (a bad artifact, a driver call that failed, a kernel the device cannot run)
// is a Status carrying a code and a message; nothing throws across the
// runtime's API and nothing aborts on bad input.
#ifndef KILN_RUNTIME_STATUS_H
#define KILN_RUNTIME_STATUS_H

#include <optional>
#include <string>
#include <utility>

namespace kiln::runtime {

/// What went wrong, coarsely; the message says exactly what. The numeric
/// values are stable: the C API's `kiln_status` uses the same numbers.
enum class StatusCode : int {
  kOk = 0,
  /// The caller passed something malformed: a null handle, a zero grid
  /// dimension, a device ordinal out of range.
  kInvalidArgument = 1,
  /// The artifact directory, its metadata.json or its binary does not exist.
  kNotFound = 2,
  /// metadata.json is not valid JSON or breaks the kiln-kernel/1 format
  /// (missing field, wrong type, unknown argument type).
  kMetadataError = 3,
  /// The binary's size differs from metadata.json's `binary.size` (for
  /// example a truncated file).
  kBinarySizeMismatch = 4,
  /// The binary's SHA-256 differs from metadata.json's `binary.sha256`.
  kChecksumMismatch = 5,
  /// The driver library (libcuda.so.1, libamdhip64.so) or one of its entry
  /// points could not be loaded.
  kDriverUnavailable = 6,
  /// A driver call returned an error; `driverCall()` and `driverResult()` say
  /// which and what.
  kDriverError = 7,
  /// The kernel was compiled for another backend, architecture or warp size
  /// than the device has.
  kArchMismatch = 8,
  /// Static plus dynamic shared memory exceeds the device's opt-in maximum.
  kSharedMemoryExceeded = 9,
  /// warp_size x num_warps exceeds the device's threads per block.
  kThreadsExceeded = 10,
  /// Registers per thread x threads exceed the device's registers per block
  /// (or the function's register-limited maximum block size).
  kRegistersExceeded = 11,
  /// A launch got a different number of arguments than the signature has.
  kArgumentCount = 12,
  /// A launch argument's type differs from the signature's type.
  kArgumentType = 13,
  /// The operation is not valid in the kernel's current state.
  kInvalidState = 14,
  /// A bug in the runtime; please report it.
  kInternal = 15,
};

/// The stable name of a code, e.g. "checksum_mismatch".
const char* statusCodeName(StatusCode code);

/// An error value: a code, a human-readable message and, for driver errors,
/// the driver call and its numeric result. A default-constructed Status is
/// success. Messages are lower-case without a trailing period and name the
/// kernel, the offending value and the limit where there is one.
class Status {
public:
  /// Success.
  Status() = default;
  /// A failure; `code` must not be kOk (it becomes kInternal if it is).
  Status(StatusCode code, std::string message);

  /// A failed driver call: `call` is the driver API name (e.g.
  /// "cuModuleLoadData"), `result` its numeric return value (CUresult or
  /// hipError_t), `detail` the driver's own name and text for that value.
  static Status driverError(std::string call, int result, std::string detail);

  bool ok() const { return code_ == StatusCode::kOk; }
  explicit operator bool() const { return ok(); }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  /// The failed driver call's name; empty unless code() is kDriverError.
  const std::string& driverCall() const { return driverCall_; }
  /// The failed driver call's return value; 0 unless code() is kDriverError.
  int driverResult() const { return driverResult_; }

  /// The same status with `context` and ": " put before the message (success
  /// stays success), e.g. "kernel 'vadd' on device 0: cuModuleLoadData ...".
  Status withContext(const std::string& context) const;

  /// "<code name>: <message>", or "ok".
  std::string toString() const;

private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
  std::string driverCall_;
  int driverResult_ = 0;
};

/// Either a value of type T or a failed Status (an `Expected`/`StatusOr`).
template <typename T> class Expected {
public:
  Expected(T value) : value_(std::move(value)) {}
  /// A failure; a successful `status` becomes a kInternal error, since an
  /// Expected without a value must say why.
  Expected(Status status) : status_(std::move(status)) {
    if (status_.ok())
      status_ = Status(StatusCode::kInternal, "Expected built from a successful status without a value");
  }

  bool ok() const { return value_.has_value(); }
  explicit operator bool() const { return ok(); }
  /// The failure; success if ok().
  const Status& status() const { return status_; }

  /// The value; only valid if ok().
  T& value() & { return *value_; }
  const T& value() const& { return *value_; }
  T&& value() && { return std::move(*value_); }
  T& operator*() & { return *value_; }
  const T& operator*() const& { return *value_; }
  T&& operator*() && { return std::move(*value_); }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }

private:
  std::optional<T> value_;
  Status status_;
};

} // namespace kiln::runtime

/// Returns the Status of `expr` from the enclosing function if it failed.
#define KILN_RETURN_IF_ERROR(expr)                                                                 \
  do {                                                                                             \
    ::kiln::runtime::Status kiln_status_ = (expr);                                                 \
    if (!kiln_status_.ok())                                                                        \
      return kiln_status_;                                                                         \
  } while (0)

#endif // KILN_RUNTIME_STATUS_H
