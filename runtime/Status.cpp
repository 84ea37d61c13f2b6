// Status.cpp: names of status codes and message composition.
#include "runtime/Status.h"

namespace kiln::runtime {

const char* statusCodeName(StatusCode code) {
  switch (code) {
  case StatusCode::kOk: return "ok";
  case StatusCode::kInvalidArgument: return "invalid_argument";
  case StatusCode::kNotFound: return "not_found";
  case StatusCode::kMetadataError: return "metadata_error";
  case StatusCode::kBinarySizeMismatch: return "binary_size_mismatch";
  case StatusCode::kChecksumMismatch: return "checksum_mismatch";
  case StatusCode::kDriverUnavailable: return "driver_unavailable";
  case StatusCode::kDriverError: return "driver_error";
  case StatusCode::kArchMismatch: return "arch_mismatch";
  case StatusCode::kSharedMemoryExceeded: return "shared_memory_exceeded";
  case StatusCode::kThreadsExceeded: return "threads_exceeded";
  case StatusCode::kRegistersExceeded: return "registers_exceeded";
  case StatusCode::kArgumentCount: return "argument_count";
  case StatusCode::kArgumentType: return "argument_type";
  case StatusCode::kInvalidState: return "invalid_state";
  case StatusCode::kInternal: return "internal";
  }
  return "unknown";
}

Status::Status(StatusCode code, std::string message)
    : code_(code == StatusCode::kOk ? StatusCode::kInternal : code), message_(std::move(message)) {}

Status Status::driverError(std::string call, int result, std::string detail) {
  Status s(StatusCode::kDriverError,
           call + " failed: " + detail + " (" + std::to_string(result) + ")");
  s.driverCall_ = std::move(call);
  s.driverResult_ = result;
  return s;
}

Status Status::withContext(const std::string& context) const {
  if (ok())
    return *this;
  Status s = *this;
  s.message_ = context + ": " + message_;
  return s;
}

std::string Status::toString() const {
  if (ok())
    return "ok";
  return std::string(statusCodeName(code_)) + ": " + message_;
}

} // namespace kiln::runtime
