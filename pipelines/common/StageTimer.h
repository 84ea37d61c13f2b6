//===- StageTimer.h - wall time of a backend stage -------------*- C++ -*-===//
//
// The backends' stage times (NVPTXStageTimings, AMDGPUStageTimings),
// ptxas's start-up wait and kiln compile's own (parse, pipeline, write,
// total) are microseconds of std::chrono::steady_clock (CLOCK_MONOTONIC on
// Linux) measured with this one timer.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PIPELINES_COMMON_STAGETIMER_H
#define KILN_PIPELINES_COMMON_STAGETIMER_H

#include <chrono>
#include <cstdint>

namespace kiln {

/// Microseconds since construction (or since the last restart()).
class StageTimer {
public:
  StageTimer() : start(std::chrono::steady_clock::now()) {}
  int64_t elapsedUs() const {
    return std::chrono::duration_cast<std::chrono::microseconds>(
               std::chrono::steady_clock::now() - start)
        .count();
  }
  void restart() { start = std::chrono::steady_clock::now(); }

private:
  std::chrono::steady_clock::time_point start;
};

} // namespace kiln

#endif // KILN_PIPELINES_COMMON_STAGETIMER_H
