// Buggy-line exercises: code shown with line numbers; the student clicks the line (or
// lines) that are wrong. Known decoys explain why they are fine.
#pragma once

#include <string>
#include <vector>

#include "../model.h"

namespace dtx {

struct LineNote {
  int line = 0;
  std::string message, pointer;
};

struct BuggyLineSpec : TypeSpec {
  std::string language = "javascript";
  std::vector<std::string> code;  // one entry per line
  std::vector<LineNote> bugs, decoys;
  int select = 1;
  void lint(const Exercise& ex, LintContext& ctx) const override;
  bool prepare(const Exercise& ex, Instance& inst, uint64_t seed, std::string* error) const override;
  Feedback grade(const Exercise& ex, const Instance& inst, const Answer& a) const override;
};

}  // namespace dtx
