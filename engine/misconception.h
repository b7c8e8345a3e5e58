// The misconceptions the engine names: a fixed table of keys, each with a short name and a
// sentence a student reads on the "Review of my mistakes" screen. A wrong graded part or
// failing code case carries one of these keys (PartFeedback::misconception), so the same slip
// groups across exercises however each exercise words its message.
#pragma once

#include <string_view>
#include <vector>

namespace dtx {

struct Misconception {
  const char* key;          // stored in progress; never renamed
  const char* name;         // a short heading: "Bits vs bytes"
  const char* explanation;  // one sentence for the student, plain English, present tense
  // True for a slip that is the same whatever the exercise (bits vs bytes); false for keys
  // that only mean something within one exercise ("listed", and "" = not diagnosed).
  bool across_exercises;
};

// The key of a wrong step the exercise's author listed and no generic slip explains.
inline constexpr const char* kListedMisconception = "listed";

// Every key, the generic slips first, then "instance-value", "listed" and "" (not diagnosed).
const std::vector<Misconception>& misconceptions();
// The entry of `key`, or nullptr when the table has no such key.
const Misconception* find_misconception(std::string_view key);

}  // namespace dtx
