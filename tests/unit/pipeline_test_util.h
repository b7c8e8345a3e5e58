// What the pipeline simulator's two test files share: a run that must succeed, and closeness
// for sums of durations.
#pragma once

#include <algorithm>
#include <cmath>

#include <gtest/gtest.h>

#include "sim/pipeline.h"

namespace dtx::sim::testing {

inline PipelineResult run(const PipelineInputs& in) {
  PipelineResult r = simulate_pipeline(in);
  EXPECT_EQ(r.error, "") << pipe_schedule_name(in.schedule) << " p=" << in.p << " m=" << in.m;
  return r;
}

// Relative closeness for sums of durations.
inline bool near(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max({1.0, std::fabs(a), std::fabs(b)}); }

}  // namespace dtx::sim::testing
