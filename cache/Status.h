// Status.h: the compile cache's error values. Nothing in cache/ throws across
// its API or aborts on bad input (a corrupt manifest, a missing file, a bad
// key string, a full disk): every failure is a Status with a code, a message
// naming the path or value, and the errno where a system call failed.
#ifndef KILN_CACHE_STATUS_H
#define KILN_CACHE_STATUS_H

#include <optional>
#include <string>
#include <utility>

namespace kiln::cache {

/// What went wrong, coarsely; the message says exactly what.
enum class StatusCode : int {
  kOk = 0,
  /// A malformed argument: a key that is not 64 hex digits, an artifact name
  /// with a '/', a job field out of range.
  kInvalidArgument = 1,
  /// The entry, file or directory does not exist.
  kNotFound = 2,
  /// A manifest or job document is not valid JSON or breaks its format.
  kCorrupt = 3,
  /// A system call failed (errno() says which error); includes read-only
  /// roots (EROFS, EACCES) and full disks (ENOSPC, EDQUOT, EFBIG).
  kIoError = 4,
  /// The compile function given to getOrCompile() failed; its message is
  /// passed through.
  kCompileFailed = 5,
  /// A subprocess (tar for export/import) failed.
  kSubprocess = 6,
};

/// The stable name of a code, e.g. "corrupt".
const char* statusCodeName(StatusCode code);

/// An error value; default-constructed is success.
class Status {
public:
  Status() = default;
  /// A failure; kOk becomes kIoError (a failure must not read as success).
  Status(StatusCode code, std::string message, int sysErrno = 0);
  /// A failed system call: "<what>: <strerror(err)>", code kIoError.
  static Status fromErrno(const std::string& what, int err);

  bool ok() const { return code_ == StatusCode::kOk; }
  explicit operator bool() const { return ok(); }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  /// The errno of the failed system call; 0 if none.
  int sysErrno() const { return errno_; }
  /// "<code name>: <message>", or "ok".
  std::string toString() const;

private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
  int errno_ = 0;
};

/// A value of type T or a failed Status.
template <typename T> class Expected {
public:
  Expected(T value) : value_(std::move(value)) {}
  Expected(Status status) : status_(std::move(status)) {
    if (status_.ok())
      status_ = Status(StatusCode::kIoError, "Expected built from success without a value");
  }
  bool ok() const { return value_.has_value(); }
  explicit operator bool() const { return ok(); }
  const Status& status() const { return status_; }
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

} // namespace kiln::cache

#endif // KILN_CACHE_STATUS_H
