// Shared by the unit tests: build a one-exercise pack from a JSON snippet.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "buggy-line/buggy_line.h"
#include "choice/choice.h"
#include "numeric/numeric.h"
#include "ordering/ordering.h"
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

// Answers of each type, as its own struct (types/<type>/<type>.h).
inline Feedback grade_parts(const Instance& inst, std::vector<std::string> parts) {
  return grade(inst, make_answer(NumericAnswer(std::move(parts))));
}

inline Feedback grade_picks(const Instance& inst, std::vector<int> picks) {
  return grade(inst, make_answer(ChoiceAnswer(std::move(picks))));
}

inline Feedback grade_order(const Instance& inst, std::vector<int> order) {
  return grade(inst, make_answer(OrderingAnswer(std::move(order))));
}

inline Feedback grade_lines(const Instance& inst, std::vector<int> lines) {
  return grade(inst, make_answer(BuggyLineAnswer(std::move(lines))));
}

// Inside an instance: a numeric exercise's answer of each part; the authored index shown at
// each position of a choice, ordering or matching exercise.
inline const std::vector<double>& part_values(const Instance& inst) {
  return inst.data_or_empty<NumericInstance>().part_values;
}
inline const std::vector<int>& shown_order(const Instance& inst) {
  if (const auto* c = inst.data_as<ChoiceInstance>()) return c->order;
  return inst.data_or_empty<OrderingInstance>().order;
}

}  // namespace dtx::testing
