// The student's review of mistakes: the log of mistakes (progress.h) grouped by misconception,
// so the same slip made in several exercises reads as one line ("Bits vs bytes: 3 times"),
// with the exercises to try a fresh instance of.
#pragma once

#include <string>
#include <vector>

#include "progress.h"

namespace dtx {

struct MistakeGroup {
  std::string key;       // the misconception key (misconception.h); "" = not diagnosed
  std::string exercise;  // set only for a group of one exercise ("listed" and "")
  std::vector<const MistakeRecord*> records;  // newest first (mistake_before)
};

// Groups a log: a key that holds across exercises (misconception.h) is one group over every
// exercise; "listed", "" and keys this build does not know form one group per exercise (a key
// it does not know counts as ""). The most records first, then the most recent record, then
// key and exercise. The groups point into `log`: keep it alive and unchanged while using them.
std::vector<MistakeGroup> group_mistakes(const std::vector<MistakeRecord>& log);

// The distinct exercises of a group, the one with the most recent record first: where a fresh
// instance is worth a try.
std::vector<std::string> exercises_of(const MistakeGroup& group);

}  // namespace dtx
