// Status.cpp: code names and errno messages.
#include "cache/Status.h"

#include <cstring>

namespace kiln::cache {

const char* statusCodeName(StatusCode code) {
  switch (code) {
  case StatusCode::kOk: return "ok";
  case StatusCode::kInvalidArgument: return "invalid_argument";
  case StatusCode::kNotFound: return "not_found";
  case StatusCode::kCorrupt: return "corrupt";
  case StatusCode::kIoError: return "io_error";
  case StatusCode::kCompileFailed: return "compile_failed";
  case StatusCode::kSubprocess: return "subprocess";
  }
  return "unknown";
}

Status::Status(StatusCode code, std::string message, int sysErrno)
    : code_(code == StatusCode::kOk ? StatusCode::kIoError : code), message_(std::move(message)),
      errno_(sysErrno) {}

Status Status::fromErrno(const std::string& what, int err) {
  return Status(err == ENOENT ? StatusCode::kNotFound : StatusCode::kIoError,
                what + ": " + std::strerror(err), err);
}

std::string Status::toString() const {
  if (ok())
    return "ok";
  return std::string(statusCodeName(code_)) + ": " + message_;
}

} // namespace kiln::cache
