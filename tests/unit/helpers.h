// Shared by the unit tests: build a one-exercise pack from a JSON snippet.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "model.h"

namespace dtx::testing {

// Wraps exercise JSON objects into a pack document.
inline std::string pack_with(const std::string& exercises_json) {
  return R"({"format": 1, "chapter": 0, "id": "t", "title": "Test", "exercises": [)" +
         exercises_json + "]}";
}

// Loads a pack that must be valid; fails the test with the diagnostics otherwise.
inline Pack must_load(const std::string& text) {
  LoadResult r = load_pack(text, "test.json");
  std::string all;
  for (const auto& d : r.diagnostics) all += format_diagnostic(d) + "\n";
  EXPECT_TRUE(r.ok()) << all;
  return r.pack ? *r.pack : Pack{};
}

inline Instance must_instance(const Exercise& ex, uint64_t seed = 0) {
  std::string err;
  auto inst = make_instance(ex, seed, &err);
  EXPECT_TRUE(inst.has_value()) << err;
  return inst ? *inst : Instance{};
}

inline Feedback grade_parts(const Instance& inst, std::vector<std::string> parts) {
  Answer a;
  a.parts = std::move(parts);
  return grade(inst, a);
}

inline Feedback grade_picks(const Instance& inst, std::vector<int> picks) {
  Answer a;
  a.picks = std::move(picks);
  return grade(inst, a);
}

}  // namespace dtx::testing
