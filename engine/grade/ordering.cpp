#include "ordering.h"

#include <algorithm>
#include <set>

#include "../load_ctx.h"
#include "../figures.h"

namespace dtx {

namespace {

std::shared_ptr<TypeSpec> load_ordering(const Json& j, const std::string& ptr, LoadContext& ctx) {
  auto spec = std::make_shared<OrderingSpec>();
  auto it = j.find("items");
  if (it == j.end()) return nullptr;
  if (!it->is_array() || it->size() < 3) {
    ctx.error(ptr + "/items", "expected an array of at least 3 items in the correct order, got " +
                                  describe_json(*it));
    return nullptr;
  }
  if (it->size() > kMaxLettered) {
    ctx.error(ptr + "/items", "expected at most " + std::to_string(kMaxLettered) +
                                  " items (they are lettered A to Z), got " + std::to_string(it->size()));
    return nullptr;
  }
  spec->items = ctx.string_list_field(j, ptr, "items");
  spec->feedback = ctx.string_list_field(j, ptr, "feedback");
  if (j.contains("feedback") && spec->feedback.size() != spec->items.size())
    ctx.error(ptr + "/feedback", "expected one feedback text per item (" +
                                     std::to_string(spec->items.size()) + "), got " +
                                     std::to_string(spec->feedback.size()));
  return spec;
}

}  // namespace

const TypeEntry& ordering_type_entry() {
  static const TypeEntry e{"ordering", {"items", "feedback"}, {"items"}, &load_ordering};
  return e;
}

size_t longest_increasing_subsequence(const std::vector<int>& seq, std::vector<size_t>* members) {
  // O(n^2) is plenty for a handful of items and keeps the reconstruction obvious.
  size_t n = seq.size();
  std::vector<size_t> len(n, 1), prev(n, SIZE_MAX);
  size_t best = 0, best_end = SIZE_MAX;
  for (size_t i = 0; i < n; ++i) {
    for (size_t k = 0; k < i; ++k)
      if (seq[k] < seq[i] && len[k] + 1 > len[i]) {
        len[i] = len[k] + 1;
        prev[i] = k;
      }
    if (len[i] > best) {
      best = len[i];
      best_end = i;
    }
  }
  if (members) {
    members->clear();
    for (size_t i = best_end; i != SIZE_MAX; i = prev[i]) members->push_back(i);
    std::reverse(members->begin(), members->end());
  }
  return best;
}

void OrderingSpec::lint(const Exercise& ex, LintContext& ctx) const {
  (void)ex;
  for (size_t i = 0; i < items.size(); ++i)
    for (size_t k = 0; k < i; ++k)
      if (items[i] == items[k])
        ctx.error(ex.pointer + "/items/" + std::to_string(i),
                  "item " + std::to_string(i + 1) + " duplicates item " + std::to_string(k + 1) +
                      "; identical items make the order ambiguous");
}

bool OrderingSpec::prepare(const Exercise& ex, Instance& inst, uint64_t seed, std::string*) const {
  Rng rng(hash_string(ex.id + "/order") ^ (seed * 0xD1B54A32D192ED03ull));
  inst.order = shuffled_indices(static_cast<int>(items.size()), rng, {}, true);
  return true;
}

Feedback OrderingSpec::grade(const Exercise& ex, const Instance& inst, const Answer& a) const {
  (void)ex;
  Feedback fb;
  int n = static_cast<int>(items.size());
  std::vector<int> seen(n, 0);
  bool ok = static_cast<int>(a.picks.size()) == n;
  for (int p : a.picks) {
    if (p < 0 || p >= n || seen[p]++) ok = false;
  }
  if (!ok) {
    fb.verdict = Verdict::FormatError;
    fb.message = "Place each of the " + std::to_string(n) + " items exactly once.";
    return fb;
  }
  std::vector<size_t> keep;
  size_t lis = longest_increasing_subsequence(a.picks, &keep);
  fb.score = static_cast<double>(lis) / n;
  if (static_cast<int>(lis) == n) {
    fb.verdict = Verdict::Correct;
    fb.message = "Correct: all " + std::to_string(n) + " steps are in order.";
    return fb;
  }
  fb.verdict = lis > 0 ? Verdict::Partial : Verdict::Incorrect;
  // The first item, in the student's order, that is not part of the longest run already in
  // the right relative order is the one to move.
  size_t pos = 0;
  for (size_t k = 0; pos < a.picks.size(); ++pos) {
    if (k < keep.size() && keep[k] == pos) {
      ++k;
      continue;
    }
    break;
  }
  int item = a.picks[pos];
  fb.message = std::to_string(lis) + " of " + std::to_string(n) +
               " items are already in the right relative order (credit " +
               std::to_string(static_cast<int>(fb.score * 100 + 0.5)) + "%). The first item out of "
               "place is “" + inst.render(items[item]) + "” (your position " +
               std::to_string(pos + 1) + ").";
  if (item < static_cast<int>(feedback.size())) fb.details.push_back(inst.render(feedback[item]));
  return fb;
}

}  // namespace dtx
