// Groups the log of mistakes for the student's review (mistake_review.h).
#include "mistake_review.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

#include "misconception.h"

namespace dtx {

std::vector<MistakeGroup> group_mistakes(const std::vector<MistakeRecord>& log) {
  std::vector<const MistakeRecord*> sorted;
  for (const MistakeRecord& m : log) sorted.push_back(&m);
  // The log is kept in this order already; sorting again makes a hand-built log group the same.
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const MistakeRecord* a, const MistakeRecord* b) { return mistake_before(*a, *b); });
  std::map<std::pair<std::string, std::string>, MistakeGroup> by_id;
  for (const MistakeRecord* m : sorted) {
    const Misconception* known = find_misconception(m->key);
    const std::string key = known ? m->key : "";
    const bool across = known && known->across_exercises;
    MistakeGroup& g = by_id[{key, across ? "" : m->exercise}];
    g.key = key;
    if (!across) g.exercise = m->exercise;
    g.records.push_back(m);
  }
  std::vector<MistakeGroup> groups;
  for (auto& [id, g] : by_id) groups.push_back(std::move(g));
  std::sort(groups.begin(), groups.end(), [](const MistakeGroup& a, const MistakeGroup& b) {
    if (a.records.size() != b.records.size()) return a.records.size() > b.records.size();
    if (a.records.front()->at != b.records.front()->at) return a.records.front()->at > b.records.front()->at;
    return std::tie(a.key, a.exercise) < std::tie(b.key, b.exercise);
  });
  return groups;
}

std::vector<std::string> exercises_of(const MistakeGroup& group) {
  std::vector<std::string> out;
  for (const MistakeRecord* m : group.records)
    if (std::find(out.begin(), out.end(), m->exercise) == out.end()) out.push_back(m->exercise);
  return out;
}

}  // namespace dtx
