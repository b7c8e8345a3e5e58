// Spaced review of exercises a student has tried: the schedule behind the Practice screen.
// Each exercise carries a ReviewState; every review of it is a fresh instance (a new seed),
// so what is remembered is the method, not one instance's numbers.
//
// The schedule is SM-2, P. A. Wozniak's SuperMemo 2 algorithm (1990),
// https://super-memory.com/english/ol/sm2.htm. In its words: an item has an E-Factor (ease,
// 2.5 at first) and a repetition count n; after a response of quality q (0..5)
//   - q < 3: repetitions start again from the beginning (n = 0, next interval 1 day);
//   - q >= 3: I(1) = 1 day, I(2) = 6 days, I(n) = I(n-1) * EF for n > 2 (rounded);
//   - EF' = EF + (0.1 - (5-q) * (0.08 + (5-q) * 0.02)), never below 1.3.
// The paper's step 6 ("start repetitions ... without changing the E-Factor") is read, as most
// implementations read it, as "the interval starts again": the ease update of step 5 applies
// after every response, so a forgotten item comes back sooner ever after. I(n) uses the ease
// before this response's update. SM-2's step 7 (repeat on the same day every item scored
// below 4) is not kept: one review per exercise per day (record_attempt in progress.h).
//
// Beyond SM-2: a lapse (q < 3) is counted, the interval is capped at kMaxReviewIntervalDays
// and the ease at kMaxReviewEase, so every state the algorithm reaches is one a stored record
// can hold (read_progress clamps to the same bounds).
//
// Days are days since 1970-01-01 (days_from_date in progress.h); the student's local date.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dtx {

struct Feedback;

constexpr double kMinReviewEase = 1.3;  // SM-2's floor
constexpr double kInitialReviewEase = 2.5;
// SM-2 sets no ceiling; past this the interval cap decides anyway (ease 100 needs ~975
// perfect reviews).
constexpr double kMaxReviewEase = 100;
// 100 years, Anki's default maximum interval: "comes back" and "never comes back" agree.
constexpr int kMaxReviewIntervalDays = 36500;
// 9999-12-31, the last day "YYYY-MM-DD" can write: a due day never goes past it.
constexpr long kMaxReviewDay = 2932896;
// Reviews and lapses stop counting here (one review a day never reaches it).
constexpr int kMaxReviewCount = 1000000000;

struct ReviewState {
  double ease = kInitialReviewEase;
  int reps = 0;            // successful reviews in a row (SM-2's n)
  int interval_days = 0;   // the interval last scheduled
  long due_day = 0;        // comes back on this day
  long last_day = -1;      // the day of the last review; -1 = never reviewed
  int lapses = 0;          // reviews with quality < 3
  bool operator==(const ReviewState&) const = default;
};

using ReviewMap = std::map<std::string, ReviewState>;

// Applies one review of quality 0..5 (clamped) made on `today` (0..kMaxReviewDay).
void sm2_review(ReviewState& state, int quality, long today);

// The SM-2 quality of a graded submission: Correct 5, Partial 3 (score >= 0.5) or 2,
// Incorrect 1. A format error was not an answer, so it is no review: nullopt.
std::optional<int> review_quality(const Feedback& fb);

// Exercises due on `today` (due_day <= today), most overdue first, then by id; at most `max`.
std::vector<std::string> due_exercises(const ReviewMap& reviews, long today, size_t max);

// The earliest due day after `today` ("what comes back when"); nullopt when none is later.
std::optional<long> next_due(const ReviewMap& reviews, long today);

// The state two tabs' states lead to: the later review (last_day) wins; on the same day the
// larger by (reps, lapses, interval, due, ease) wins. A maximum under one total order, so the
// merge is commutative, associative and idempotent (merge_progress relies on it).
ReviewState merge_review(const ReviewState& a, const ReviewState& b);

}  // namespace dtx
