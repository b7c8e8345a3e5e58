// SM-2 scheduling, the quality of a graded submission, what is due, and the merge of two
// tabs' schedules (the algorithm and its sources: practice.h).
#include "practice.h"

#include <algorithm>
#include <cmath>
#include <tuple>

#include "model.h"

namespace dtx {

void sm2_review(ReviewState& s, int quality, long today) {
  const int q = std::clamp(quality, 0, 5);
  if (q < 3) {
    s.reps = 0;
    s.interval_days = 1;
    s.lapses = std::min(s.lapses, kMaxReviewCount - 1) + 1;
  } else {
    if (s.reps == 0) {
      s.interval_days = 1;
    } else if (s.reps == 1) {
      s.interval_days = 6;
    } else {
      // A stored interval of 0 with reps >= 2 (a hand-edited record) would stay 0 forever.
      const double next = std::round(std::max(s.interval_days, 1) * s.ease);
      s.interval_days = static_cast<int>(std::clamp(next, 1.0, double{kMaxReviewIntervalDays}));
    }
    s.reps = std::min(s.reps, kMaxReviewCount - 1) + 1;
  }
  const int miss = 5 - q;
  const double ease = s.ease + (0.1 - miss * (0.08 + miss * 0.02));
  s.ease = std::isfinite(ease) ? std::clamp(ease, kMinReviewEase, kMaxReviewEase) : kInitialReviewEase;
  s.due_day = std::min(today + s.interval_days, kMaxReviewDay);
  s.last_day = today;
}

std::optional<int> review_quality(const Feedback& fb) {
  switch (fb.verdict) {
    case Verdict::Correct: return 5;
    case Verdict::Partial: return fb.score >= 0.5 ? 3 : 2;
    case Verdict::Incorrect: return 1;
    case Verdict::FormatError: return std::nullopt;
  }
  return std::nullopt;
}

std::vector<std::string> due_exercises(const ReviewMap& reviews, long today, size_t max) {
  std::vector<std::pair<long, const std::string*>> due;
  for (const auto& [id, s] : reviews)
    if (s.due_day <= today) due.emplace_back(s.due_day, &id);
  // The map already orders by id, so a stable sort by due day keeps ties in id order.
  std::stable_sort(due.begin(), due.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> ids;
  for (size_t i = 0; i < due.size() && i < max; ++i) ids.push_back(*due[i].second);
  return ids;
}

std::optional<long> next_due(const ReviewMap& reviews, long today) {
  std::optional<long> next;
  for (const auto& [id, s] : reviews)
    if (s.due_day > today && (!next || s.due_day < *next)) next = s.due_day;
  return next;
}

ReviewState merge_review(const ReviewState& a, const ReviewState& b) {
  auto key = [](const ReviewState& s) {
    return std::tie(s.last_day, s.reps, s.lapses, s.interval_days, s.due_day, s.ease);
  };
  return key(a) < key(b) ? b : a;
}

}  // namespace dtx
