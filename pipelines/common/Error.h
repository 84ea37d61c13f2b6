//===- Error.h - the backends' error values ---------------------*- C++ -*-===//
//
// The backends report every failure as an llvm::Error whose message names
// the stage and the problem (see NVPTXBackend.h, AMDGPUBackend.h).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PIPELINES_COMMON_ERROR_H
#define KILN_PIPELINES_COMMON_ERROR_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

namespace kiln {

/// An llvm::StringError carrying `message` and no error code.
inline llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

} // namespace kiln

#endif // KILN_PIPELINES_COMMON_ERROR_H
