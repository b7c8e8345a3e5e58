// SM-2 spaced review (engine/practice.h) and its place in the progress record
// (engine/progress.h): the schedule by hand, weeks of simulated practice, the merge's algebra,
// and the stored "review" object.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "model.h"
#include "practice.h"
#include "progress.h"

using namespace dtx;

namespace {

Feedback fb(Verdict v, double score) {
  Feedback f;
  f.verdict = v;
  f.score = score;
  return f;
}

Feedback right() { return fb(Verdict::Correct, 1); }
Feedback wrong() { return fb(Verdict::Incorrect, 0); }
Feedback half_right() { return fb(Verdict::Partial, 0.5); }

const long kMonday = days_from_date("2026-03-02");

std::string all_of(const std::vector<std::string>& problems) {
  std::string all;
  for (const auto& p : problems) all += p + "\n";
  return all;
}

}  // namespace

// ---------------------------------------------------------------- the algorithm

TEST(PracticeSchedule, AlwaysRightWhenDueGrowsByTheEase) {
  // Quality 5 each time: ease += 0.1 - 0 = 0.1 per review.
  //   review 1 (n=0): I = 1                          ease 2.5 -> 2.6
  //   review 2 (n=1): I = 6                          ease 2.7
  //   review 3: I = round(6 * 2.7)    = round(16.2)   = 16,   ease 2.8
  //   review 4: I = round(16 * 2.8)   = round(44.8)   = 45,   ease 2.9
  //   review 5: I = round(45 * 2.9)   = round(130.5)  = 131,  ease 3.0
  //   review 6: I = round(131 * 3.0)  = 393,                  ease 3.1
  //   review 7: I = round(393 * 3.1)  = round(1218.3) = 1218, ease 3.2
  //   review 8: I = round(1218 * 3.2) = round(3897.6) = 3898, ease 3.3
  const std::vector<int> expected = {1, 6, 16, 45, 131, 393, 1218, 3898};
  ReviewState s;
  long today = kMonday;
  for (size_t i = 0; i < expected.size(); ++i) {
    sm2_review(s, 5, today);
    EXPECT_EQ(s.interval_days, expected[i]) << "review " << i + 1;
    EXPECT_EQ(s.reps, static_cast<int>(i) + 1);
    EXPECT_EQ(s.last_day, today);
    EXPECT_EQ(s.due_day, today + expected[i]);
    EXPECT_NEAR(s.ease, 2.5 + 0.1 * static_cast<double>(i + 1), 1e-9);
    today = s.due_day;
  }
  EXPECT_EQ(s.lapses, 0);
  // Day 0 + 1 + 6 + 16 + 45 = day 68 is the fifth review: 2026-03-02 + 68 = 2026-05-09.
  ReviewState again;
  for (long day = kMonday; again.reps < 4; day = again.due_day) sm2_review(again, 5, day);
  EXPECT_EQ(date_from_days(again.due_day), "2026-05-09");
}

TEST(PracticeSchedule, QualityFourKeepsTheEaseAndThreeLowersIt) {
  // q = 4: 0.1 - 1 * (0.08 + 0.02) = 0; q = 3: 0.1 - 2 * (0.08 + 0.04) = -0.14.
  ReviewState s;
  sm2_review(s, 4, 0);
  EXPECT_NEAR(s.ease, 2.5, 1e-12);
  sm2_review(s, 3, 1);
  EXPECT_NEAR(s.ease, 2.36, 1e-12);
  EXPECT_EQ(s.interval_days, 6);  // still a success: n = 1 -> 6 days
  EXPECT_EQ(s.lapses, 0);
}

TEST(PracticeSchedule, ALapseResetsToOneDayAndLowersTheEase) {
  ReviewState s;
  for (long day : {0L, 1L, 7L}) sm2_review(s, 5, day);  // 1, 6, 16 days; ease 2.8
  ASSERT_EQ(s.interval_days, 16);
  // q = 1: 0.1 - 4 * (0.08 + 4 * 0.02) = 0.1 - 0.64 = -0.54 -> ease 2.26.
  sm2_review(s, 1, 23);
  EXPECT_EQ(s.reps, 0);
  EXPECT_EQ(s.interval_days, 1);
  EXPECT_EQ(s.due_day, 24);
  EXPECT_EQ(s.lapses, 1);
  EXPECT_NEAR(s.ease, 2.26, 1e-9);
  // Learnt anew: 1, 6, then round(6 * 2.46) = round(14.76) = 15 (ease 2.36, 2.46, 2.56).
  sm2_review(s, 5, 24);
  EXPECT_EQ(s.interval_days, 1);
  sm2_review(s, 5, 25);
  EXPECT_EQ(s.interval_days, 6);
  sm2_review(s, 5, 31);
  EXPECT_EQ(s.interval_days, 15);
  EXPECT_NEAR(s.ease, 2.56, 1e-9);
}

TEST(PracticeSchedule, TheEaseNeverFallsBelowOnePointThree) {
  // q = 0: 0.1 - 5 * (0.08 + 5 * 0.02) = -0.8: 2.5 -> 1.7 -> 1.3 (not 0.9) -> 1.3 ...
  ReviewState s;
  sm2_review(s, 0, 0);
  EXPECT_NEAR(s.ease, 1.7, 1e-9);
  for (long day = 1; day < 10; ++day) {
    sm2_review(s, 0, day);
    EXPECT_EQ(s.ease, kMinReviewEase);
    EXPECT_EQ(s.interval_days, 1);
  }
  EXPECT_EQ(s.lapses, 10);
  // From the floor, right answers start again at 1 and 6 days (ease 1.3 -> 1.4 -> 1.5), then
  // grow by the ease before each update: round(6 * 1.5) = 9 days (ease 1.6).
  for (long day : {10L, 11L, 17L}) sm2_review(s, 5, day);
  EXPECT_EQ(s.interval_days, 9);
  EXPECT_NEAR(s.ease, 1.6, 1e-9);
}

TEST(PracticeSchedule, QualityIsClampedAndTheIntervalCapped) {
  ReviewState s;
  sm2_review(s, 9, 0);  // read as 5
  EXPECT_NEAR(s.ease, 2.6, 1e-12);
  sm2_review(s, -4, 1);  // read as 0
  EXPECT_EQ(s.lapses, 1);
  ReviewState old;
  old.reps = 30;
  old.interval_days = 30000;
  old.ease = kMaxReviewEase;
  sm2_review(old, 5, 100);
  EXPECT_EQ(old.interval_days, kMaxReviewIntervalDays);
  EXPECT_EQ(old.ease, kMaxReviewEase);
  sm2_review(old, 5, kMaxReviewDay - 3);
  EXPECT_EQ(old.due_day, kMaxReviewDay) << "a due day stays one a date can write";
}

TEST(PracticeSchedule, ReviewQualityOfAFeedback) {
  EXPECT_EQ(review_quality(right()), 5);
  EXPECT_EQ(review_quality(fb(Verdict::Partial, 0.5)), 3);
  EXPECT_EQ(review_quality(fb(Verdict::Partial, 0.99)), 3);
  EXPECT_EQ(review_quality(fb(Verdict::Partial, 0.49)), 2);
  EXPECT_EQ(review_quality(wrong()), 1);
  EXPECT_EQ(review_quality(fb(Verdict::FormatError, 0)), std::nullopt);
}

// ---------------------------------------------------------------- what is due

TEST(PracticeDue, MostOverdueFirstThenById) {
  ReviewMap reviews;
  auto due_on = [&](const std::string& id, long day) { reviews[id].due_day = day; };
  due_on("c", 10);
  due_on("a", 12);
  due_on("b", 10);
  due_on("d", 15);  // due today
  due_on("e", 16);  // tomorrow
  due_on("f", 30);
  EXPECT_EQ(due_exercises(reviews, 15, 10), (std::vector<std::string>{"b", "c", "a", "d"}));
  EXPECT_EQ(due_exercises(reviews, 15, 2), (std::vector<std::string>{"b", "c"}));
  EXPECT_TRUE(due_exercises(reviews, 15, 0).empty());
  EXPECT_TRUE(due_exercises(reviews, 9, 10).empty());
  EXPECT_TRUE(due_exercises({}, 15, 10).empty());
  EXPECT_EQ(next_due(reviews, 15), 16);
  EXPECT_EQ(next_due(reviews, 16), 30);
  EXPECT_EQ(next_due(reviews, 30), std::nullopt);
  EXPECT_EQ(next_due({}, 0), std::nullopt);
}

// Four exercises first tried on 2026-03-02, then practised every day for 60 days: each day
// the student answers what is due, in due_exercises' order, by a fixed script.
TEST(PracticeSimulation, SixtyDaysOfDailyPractice) {
  const std::vector<std::string> ids = {"pipe.bubble", "ring.volume", "tp.traffic", "zero.stages"};
  // The answer to the n-th try of each (n = 1 is the first try).
  auto script = [](const std::string& id, int n) {
    if (id == "zero.stages") return n == 1 ? wrong() : right();
    if (id == "pipe.bubble") return n % 4 == 0 ? wrong() : right();
    if (id == "tp.traffic") return n % 2 == 1 ? half_right() : right();
    return right();
  };
  Progress p;
  std::map<std::string, int> tries;
  std::map<long, std::vector<std::string>> due_by_day;
  auto answer = [&](const std::string& id, long day) {
    record_attempt(p, "w", id, script(id, ++tries[id]), int64_t{day} * 86400, date_from_days(day));
  };
  for (const auto& id : ids) answer(id, kMonday);
  for (long day = kMonday + 1; day < kMonday + 60; ++day) {
    std::vector<std::string> due = due_exercises(p.review, day, 10);
    if (!due.empty()) due_by_day[day - kMonday] = due;
    // A format error first (not an answer), then the answer; then, after answering
    // ring.volume right, a careless wrong try: neither changes the schedule.
    for (const auto& id : due) {
      record_attempt(p, "w", id, fb(Verdict::FormatError, 0), int64_t{day} * 86400, date_from_days(day));
      answer(id, day);
      if (id == "ring.volume") record_attempt(p, "w", id, wrong(), int64_t{day} * 86400 + 60, date_from_days(day));
    }
  }
  // ring.volume, always right: days 0, 1, 7, 23 (1, 6, 16, then round(16 * 2.8) = 45 days).
  const ReviewState& ring = p.review.at("ring.volume");
  EXPECT_EQ(ring.last_day - kMonday, 23);
  EXPECT_EQ(ring.interval_days, 45);
  EXPECT_EQ(date_from_days(ring.due_day), "2026-05-09");  // day 68
  EXPECT_EQ(ring.lapses, 0);
  // zero.stages, wrong at first: day 0 q1 (I 1, ease 1.96, a lapse), day 1 q5 (n=0: I 1,
  // ease 2.06), day 2 (I 6, 2.16), day 8 (round(6 * 2.16) = round(12.96) = 13, 2.26), day 21
  // (round(13 * 2.26) = round(29.38) = 29, 2.36), day 50 (round(29 * 2.36) = round(68.44) = 68).
  const ReviewState& zero = p.review.at("zero.stages");
  EXPECT_EQ(zero.last_day - kMonday, 50);
  EXPECT_EQ(zero.interval_days, 68);
  EXPECT_EQ(date_from_days(zero.due_day), "2026-06-28");  // day 118
  EXPECT_EQ(zero.lapses, 1);
  EXPECT_NEAR(zero.ease, 2.46, 1e-9);
  // tp.traffic, q3 and q5 in turn: day 0 q3 (I 1, ease 2.36), day 1 q5 (I 6, 2.46), day 7 q3
  // (round(6 * 2.46) = 15, 2.32), day 22 q5 (round(15 * 2.32) = round(34.8) = 35, 2.42),
  // day 57 q3 (round(35 * 2.42) = round(84.7) = 85, 2.28): due on day 142.
  const ReviewState& tp = p.review.at("tp.traffic");
  EXPECT_EQ(tp.last_day - kMonday, 57);
  EXPECT_EQ(tp.interval_days, 85);
  EXPECT_EQ(date_from_days(tp.due_day), "2026-07-22");
  EXPECT_EQ(tp.lapses, 0);
  // pipe.bubble, wrong every 4th try: days 0, 1, 7 right (1, 6, 16 days; ease 2.8); day 23
  // wrong (1 day, ease 2.26); 24, 25, 31 right (1, 6, round(6 * 2.46) = 15; ease 2.56); day 46
  // wrong (1 day, 2.02); 47, 48, 54 right (1, 6, round(6 * 2.22) = round(13.32) = 13).
  const ReviewState& pipe = p.review.at("pipe.bubble");
  EXPECT_EQ(pipe.last_day - kMonday, 54);
  EXPECT_EQ(pipe.interval_days, 13);
  EXPECT_EQ(date_from_days(pipe.due_day), "2026-05-08");  // day 67
  EXPECT_EQ(pipe.lapses, 2);
  EXPECT_EQ(pipe.reps, 3);
  // The days there was something to do, and in what order.
  EXPECT_EQ(due_by_day[1], (std::vector<std::string>{"pipe.bubble", "ring.volume", "tp.traffic", "zero.stages"}));
  EXPECT_EQ(due_by_day[2], (std::vector<std::string>{"zero.stages"}));
  EXPECT_EQ(due_by_day[7], (std::vector<std::string>{"pipe.bubble", "ring.volume", "tp.traffic"}));
  EXPECT_EQ(due_by_day[23], (std::vector<std::string>{"pipe.bubble", "ring.volume"}));
  std::vector<long> days;
  for (const auto& [day, due] : due_by_day) days.push_back(day);
  EXPECT_EQ(days, (std::vector<long>{1, 2, 7, 8, 21, 22, 23, 24, 25, 31, 46, 47, 48, 50, 54, 57}));
  // Every try but the format errors counts as an attempt: ring.volume's 4 reviews and 3
  // careless tries; only the reviews moved its schedule (checked above).
  EXPECT_EQ(p.exercises.at("ring.volume").attempts(), 4 + 3);
  EXPECT_EQ(next_due(p.review, kMonday + 59), kMonday + 67);
  EXPECT_EQ(due_exercises(p.review, kMonday + 68, 10), (std::vector<std::string>{"pipe.bubble", "ring.volume"}));
}

// ---------------------------------------------------------------- merging two tabs

namespace {

// Few values per field, so ties on the later day (and on whole states) are common.
ReviewState random_state(std::mt19937& rng) {
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  ReviewState s;
  s.last_day = pick(4) - 1;
  s.reps = pick(3);
  s.lapses = pick(3);
  s.interval_days = std::vector<int>{0, 1, 6}[pick(3)];
  s.due_day = pick(4);
  s.ease = std::vector<double>{1.3, 2.36, 2.5, 2.6}[pick(4)];
  return s;
}

}  // namespace

TEST(PracticeMerge, CommutativeAssociativeIdempotentOverRandomStates) {
  std::mt19937 rng(20260302);
  int ties = 0;
  for (int i = 0; i < 20000; ++i) {
    ReviewState a = random_state(rng), b = random_state(rng), c = random_state(rng);
    if (a.last_day == b.last_day && !(a == b)) ++ties;
    ASSERT_EQ(merge_review(a, b), merge_review(b, a)) << i;
    ASSERT_EQ(merge_review(merge_review(a, b), c), merge_review(a, merge_review(b, c))) << i;
    ASSERT_EQ(merge_review(a, a), a) << i;
    // The result is one of the two, never a blend.
    ReviewState m = merge_review(a, b);
    ASSERT_TRUE(m == a || m == b) << i;
    ASSERT_GE(m.last_day, std::max(a.last_day, b.last_day)) << i;
  }
  EXPECT_GT(ties, 1000) << "the tie-break was exercised";
}

TEST(PracticeMerge, TheLaterReviewWinsEvenWhenItWasALapse) {
  ReviewState strong;  // right on days 0, 1, 7
  for (long day : {0L, 1L, 7L}) sm2_review(strong, 5, day);
  ReviewState forgot = strong;
  sm2_review(forgot, 1, 23);  // the other tab saw it forgotten later
  EXPECT_EQ(merge_review(strong, forgot), forgot);
  EXPECT_EQ(merge_review(forgot, strong), forgot);
}

TEST(PracticeMerge, ProgressMergesTheScheduleOfEachExercise) {
  Progress base;
  record_attempt(base, "1-a", "x", right(), 100, "2026-03-02");
  Progress tab_a = base, tab_b = base;
  record_attempt(tab_a, "1-a", "x", right(), 200, "2026-03-03");
  record_attempt(tab_a, "1-a", "y", wrong(), 210, "2026-03-03");
  record_attempt(tab_b, "2-b", "z", right(), 220, "2026-03-04");
  Progress ab = merge_progress(tab_a, tab_b), ba = merge_progress(tab_b, tab_a);
  EXPECT_EQ(ab, ba);
  EXPECT_EQ(merge_progress(ab, ab), ab);
  ASSERT_EQ(ab.review.size(), 3u);
  EXPECT_EQ(ab.review.at("x"), tab_a.review.at("x"));  // reviewed a day later in tab a
  EXPECT_EQ(ab.review.at("x").interval_days, 6);
  EXPECT_EQ(ab.review.at("y"), tab_a.review.at("y"));
  EXPECT_EQ(ab.review.at("z"), tab_b.review.at("z"));
}

// ---------------------------------------------------------------- the stored record

TEST(PracticeProgress, DatesFromDaysInvertDaysFromDate) {
  EXPECT_EQ(date_from_days(0), "1970-01-01");
  EXPECT_EQ(date_from_days(-1), "1969-12-31");
  EXPECT_EQ(date_from_days(days_from_date("2024-02-29")), "2024-02-29");
  EXPECT_EQ(date_from_days(days_from_date("2024-02-29") + 1), "2024-03-01");
  EXPECT_EQ(date_from_days(days_from_date("2100-03-01") - 1), "2100-02-28");  // not a leap year
  EXPECT_EQ(days_from_date("9999-12-31"), kMaxReviewDay);
  EXPECT_EQ(date_from_days(kMaxReviewDay), "9999-12-31");
  for (long day = -800; day < 800000; day += 37) ASSERT_EQ(days_from_date(date_from_days(day)), day) << day;
}

TEST(PracticeProgress, TheReviewMapRoundTrips) {
  Progress p;
  record_attempt(p, "w", "ring.volume", right(), 100, "2026-03-02");
  record_attempt(p, "w", "ring.volume", right(), 200, "2026-03-03");
  record_attempt(p, "w", "zero.stages", wrong(), 300, "2026-03-03");
  record_attempt(p, "w", "tp.traffic", fb(Verdict::Partial, 0.3), 400, "2026-03-04");
  p.review["never"] = ReviewState{};  // no last review: "last" is left out
  const std::string text = write_progress(p);
  EXPECT_NE(text.find("\"due\": \"2026-03-09\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"last\": \"2026-03-03\""), std::string::npos) << text;
  ProgressRead r = read_progress(text);
  EXPECT_FALSE(r.unreadable);
  EXPECT_TRUE(r.problems.empty()) << all_of(r.problems);
  EXPECT_EQ(r.progress.review, p.review);
  EXPECT_EQ(r.progress, p);
  EXPECT_EQ(r.progress.review.at("never").last_day, -1);
  EXPECT_EQ(write_progress(r.progress), text);
  // A record written before the review schedule existed reads with none, and no problem.
  ProgressRead old = read_progress(R"J({"format": "dtx-progress", "version": 2, "exercises": {}})J");
  EXPECT_TRUE(old.problems.empty());
  EXPECT_TRUE(old.progress.review.empty());
}

TEST(PracticeProgress, ACorruptReviewIsReportedAndSkippedTheOthersKept) {
  ProgressRead r = read_progress(R"J({"format": "dtx-progress", "version": 2, "exercises": {}, "review": {
    "good": {"ease": 2.6, "reps": 1, "interval": 1, "due": "2026-03-03", "last": "2026-03-02", "lapses": 0},
    "word": {"ease": "high", "reps": 1, "interval": 1, "due": "2026-03-03", "lapses": 0},
    "no-day": {"ease": 2.5, "reps": 1, "interval": 1, "due": "2026-02-31", "lapses": 0},
    "no-reps": {"ease": 2.5, "interval": 1, "due": "2026-03-03", "lapses": 0},
    "seven": 7,
    "clamped": {"ease": 0.5, "reps": 2.5, "interval": 99999, "due": "1969-12-30", "last": "2026-03-02",
                "lapses": -3}}})J");
  EXPECT_FALSE(r.unreadable);
  const std::string all = all_of(r.problems);
  ASSERT_EQ(r.progress.review.size(), 2u) << all;
  const ReviewState& good = r.progress.review.at("good");
  EXPECT_EQ(good.ease, 2.6);
  EXPECT_EQ(date_from_days(good.due_day), "2026-03-03");
  EXPECT_EQ(date_from_days(good.last_day), "2026-03-02");
  const ReviewState& c = r.progress.review.at("clamped");
  EXPECT_EQ(c.ease, kMinReviewEase);
  EXPECT_EQ(c.reps, 2);
  EXPECT_EQ(c.interval_days, kMaxReviewIntervalDays);
  EXPECT_EQ(c.due_day, 0);
  EXPECT_EQ(c.lapses, 0);
  // Four skipped, five clamped (ease, reps, interval, due, lapses).
  EXPECT_EQ(r.problems.size(), 9u) << all;
  for (const char* said : {"the review of \"word\" is malformed (\"ease\" is not a number) and was skipped",
                           "the review of \"no-day\" is malformed (\"due\" is not a date YYYY-MM-DD) and was skipped",
                           "the review of \"no-reps\" is malformed (\"reps\" is missing) and was skipped",
                           "the review of \"seven\" is malformed (not an object) and was skipped",
                           "the review of \"clamped\": ease = 0.5 is below 1.3; read as 1.3",
                           "the review of \"clamped\": interval = 99999 is above 36500; read as 36500",
                           "the review of \"clamped\": due = 1969-12-30 is before 1970-01-01; read as 1970-01-01"})
    EXPECT_NE(all.find(said), std::string::npos) << said << "\n" << all;
  // What was read writes and reads again without a problem.
  ProgressRead again = read_progress(write_progress(r.progress));
  EXPECT_TRUE(again.problems.empty()) << all_of(again.problems);
  EXPECT_EQ(again.progress, r.progress);
  // Not an object at all: reported, the rest of the record kept.
  r = read_progress(R"J({"format": "dtx-progress", "version": 2, "exercises": {"a": {"attempts": 1}}, "review": []})J");
  EXPECT_EQ(r.progress.exercises.size(), 1u);
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_EQ(r.problems[0], "\"review\" is not an object; the review schedule is lost");
}

TEST(PracticeProgress, RecordAttemptAppliesOneReviewPerDay) {
  Progress p;
  const long day = days_from_date("2026-03-02");
  // The day's first counted attempt sets the quality: a format error is not one.
  EXPECT_FALSE(record_attempt(p, "w", "x", fb(Verdict::FormatError, 0), 1, "2026-03-02"));
  EXPECT_TRUE(p.review.empty());
  record_attempt(p, "w", "x", wrong(), 2, "2026-03-02");
  const ReviewState after_first = p.review.at("x");
  EXPECT_EQ(after_first.lapses, 1);
  EXPECT_EQ(after_first.last_day, day);
  EXPECT_EQ(after_first.due_day, day + 1);
  // Right later the same day (the answer is on the page by now): no second review.
  record_attempt(p, "w", "x", right(), 3, "2026-03-02");
  record_attempt(p, "w", "x", right(), 4, "2026-03-02");
  EXPECT_EQ(p.review.at("x"), after_first);
  EXPECT_EQ(p.exercises.at("x").attempts(), 3);
  // The next day's first attempt is the next review.
  record_attempt(p, "w", "x", right(), 5, "2026-03-03");
  EXPECT_EQ(p.review.at("x").reps, 1);
  EXPECT_EQ(p.review.at("x").last_day, day + 1);
  // A clock moved back, or a day that is no date, makes no review (the attempt still counts).
  const ReviewState before = p.review.at("x");
  EXPECT_TRUE(record_attempt(p, "w", "x", wrong(), 6, "2026-03-01"));
  EXPECT_TRUE(record_attempt(p, "w", "x", wrong(), 7, "someday"));
  EXPECT_EQ(p.review.at("x"), before);
  EXPECT_EQ(p.exercises.at("x").attempts(), 6);
  EXPECT_TRUE(record_attempt(p, "w", "y", right(), 8, "1969-12-30"));
  EXPECT_EQ(p.review.count("y"), 0u);
}
