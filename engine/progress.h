// A student's progress, kept by the browser as a versioned JSON document. Reading never
// loses what is readable: a bad record is reported and skipped, the rest is kept, and a
// number out of range is reported and clamped.
//
// Several writers (browser tabs, page loads, imported files) update the same record, so
// progress is a state that merges rather than overwrites: merge_progress is commutative,
// associative and idempotent, and every save is read, merge, write. Attempts are a grow-only
// counter per writer (a G-counter): each writer only ever raises its own count, a merge
// takes the larger count per writer, the total is the sum. Two tabs' attempts add up, and
// merging the same record twice (a re-import, a storage event after our own save) counts
// nothing twice.
//
// Each exercise tried also has a spaced-review schedule (practice.h); it merges per exercise
// the same way, the later review winning.
//
// The log of mistakes keeps the newest kMaxMistakes wrong graded parts and failing code cases
// (what was given, the feedback, the misconception key), for the student's review. It is a
// set ordered newest first by a total order over every field: a merge is the union cut to the
// newest kMaxMistakes, so two tabs' mistakes both stay and the same record is never twice.
//
// Top-level fields this build does not know (a newer build's) are kept as raw JSON and
// written back, so saving from an older page never drops them; a merge keeps both sides'
// and, where both have one, the larger text.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "model.h"
#include "practice.h"

namespace dtx {

// 1: one attempt count per exercise. 2: attempts per writer, the last exercise's time.
// The "review" object (spaced review) and the "mistakes" list are additive within version 2:
// older pages that know neither keep them as unknown fields.
constexpr int kProgressVersion = 2;

// Bounds a stored or imported number is clamped to (and reported when outside). The caps
// are far above any real use, and keep every sum inside int.
constexpr int kMaxAttempts = 1000000000;             // per writer, per total
constexpr int64_t kMaxTimestamp = 32503680000;       // 3000-01-01T00:00:00Z, unix seconds
constexpr int kMaxStreakDays = 100000;               // ~270 years of daily practice
constexpr size_t kMaxWritersPerExercise = 64;        // beyond: the oldest are folded
constexpr size_t kMaxWriterIdLength = 64;
// An imported file: larger than browser storage holds (about 5 MB a site) it could never be
// saved, and more exercise records than any course has is not a record of one student.
// Either is refused before anything changes (web/app.cpp app_on_file).
constexpr size_t kMaxImportBytes = 5000000;
constexpr size_t kMaxImportRecords = 10000;

// The log of mistakes: the newest records kept, and each text's length in bytes (longer text
// is cut at a UTF-8 boundary when recorded; a stored record beyond a bound is skipped). An
// exercise id is at most kMaxIdChars (model.h), a writer id kMaxWriterIdLength.
constexpr size_t kMaxMistakes = 200;
constexpr size_t kMaxMistakeMessageBytes = 1000;
constexpr size_t kMaxMistakeGivenBytes = 200;
constexpr size_t kMaxMistakePartBytes = 200;
// Top-level fields this build does not know, kept as they are: at most this many (the first
// in key order), each at most this long as JSON text; beyond either, reported and dropped.
// Nor deeper than kMaxUnknownFieldDepth nested arrays and objects: writing JSON recurses, and
// the page's stack is small.
constexpr size_t kMaxUnknownFields = 32;
constexpr size_t kMaxUnknownFieldBytes = 100000;
constexpr int kMaxUnknownFieldDepth = 32;
// The same within each exercise's record, smaller: a course has hundreds of records.
struct UnknownFieldCaps {
  size_t fields, bytes;
  int depth;
};
constexpr UnknownFieldCaps kTopLevelUnknownCaps{kMaxUnknownFields, kMaxUnknownFieldBytes, kMaxUnknownFieldDepth};
constexpr UnknownFieldCaps kExerciseUnknownCaps{8, 1000, 8};

// Records of version 1 have no writers: their count is read as this one writer's.
inline constexpr const char* kLegacyWriter = "v1";

struct ExerciseProgress {
  // Writer id -> attempts made by that writer. Ids are "<unix seconds>-<random>" (the page
  // load that made them), so they order by age; ids without leading digits are the oldest.
  std::map<std::string, int> attempts_by_writer;
  // Beyond kMaxWritersPerExercise writers, the oldest are summed here: every writer up to
  // and including `folded_through` (in writer order) is counted in `folded_attempts` and no
  // longer listed. A merge keeps the later fold and drops listed writers it covers, so a
  // folded count is never added twice (attempts a folded writer made after the fold and
  // never saved before it are not counted: the one case where a count can be lost).
  std::string folded_through;
  int folded_attempts = 0;
  double best_score = 0;     // 0..1
  int64_t solved_at = 0;     // unix seconds of the first full solve; 0 = not yet
  int64_t last_attempt_at = 0;
  // Fields of this record a newer build wrote and this one does not know: name -> compact
  // JSON text, within kExerciseUnknownCaps, written back as they were.
  std::map<std::string, std::string> unknown_fields;

  int attempts() const;  // the sum over writers, saturating at kMaxAttempts
  bool operator==(const ExerciseProgress&) const = default;
};

// One wrong graded part, failing code case or wrong answer, as the student saw it.
struct MistakeRecord {
  std::string exercise;
  uint64_t seed = 0;    // the instance; stored as a string of decimal digits (JSON numbers are doubles)
  int64_t at = 0;       // unix seconds
  std::string writer;   // the page load that recorded it
  std::string part;     // the part's id, the case's arguments, or "" for the answer as a whole
  std::string given;    // what the student gave ("" for an answer as a whole)
  std::string message;  // the feedback the student read
  std::string key;      // the misconception key (misconception.h); "" when not diagnosed
  bool operator==(const MistakeRecord&) const = default;
};

// The log's total order, newest first: `at` descending, then every other field ascending.
bool mistake_before(const MistakeRecord& a, const MistakeRecord& b);

struct Progress {
  std::map<std::string, ExerciseProgress> exercises;
  int streak_days = 0, best_streak_days = 0;
  std::string last_active_day;  // local date "YYYY-MM-DD" of the last counted attempt
  std::string last_exercise;    // where the student left off
  int64_t last_exercise_at = 0; // when it was opened (the later one wins a merge)
  ReviewMap review;             // exercise id -> its spaced-review schedule (practice.h)
  // The newest kMaxMistakes mistakes, in mistake_before order, without duplicates.
  std::vector<MistakeRecord> mistakes;
  // Top-level fields this build does not know: name -> the value as compact JSON text.
  std::map<std::string, std::string> unknown_fields;
  bool operator==(const Progress&) const = default;
};

struct ProgressRead {
  Progress progress;
  std::vector<std::string> problems;  // what could not be read or was clamped, in words
  bool unreadable = false;            // not a progress document at all: keep it aside
};

ProgressRead read_progress(const std::string& text);
std::string write_progress(const Progress& p);

// The record both a and b lead to: per exercise, attempts merge per writer (max), best
// score is the maximum, solved_at the earliest non-zero time, last_attempt_at the latest;
// the streak of the later last active day wins (the larger on the same day), best streak
// is the maximum; the last exercise opened later wins; each review schedule merges with
// merge_review (the later review wins). Writers beyond the cap are folded. The logs of
// mistakes join (the newest kMaxMistakes of the union); unknown fields, at the top and in each
// exercise's record, join, the larger text winning where both have one (then the first of
// the caps' count by name).
Progress merge_progress(const Progress& a, const Progress& b);

// Folds the oldest writers of each exercise beyond kMaxWritersPerExercise into its folded
// count; merge_progress and read_progress leave every record folded.
void fold_writers(ExerciseProgress& e);

// Orders writer ids by age: the leading unix seconds, then the whole id.
bool writer_older(const std::string& a, const std::string& b);
// Whether this writer's count was folded: a page whose writer was folded by another tab must
// count on under a new id, or its new attempts would be dropped by the next merge.
bool writer_folded(const ExerciseProgress& e, const std::string& writer);

// Records a graded submission made by `writer` (this page load's id). Format errors are not
// attempts and change nothing; returns whether anything was recorded. `today` is the
// student's local date, "YYYY-MM-DD". The day's first counted attempt on an exercise is its
// review of that day (review_quality, sm2_review); later ones the same day, and attempts on
// a day before the last review (a clock moved back), leave the schedule as it is.
bool record_attempt(Progress& p, const std::string& writer, const std::string& exercise_id, const Feedback& fb,
                    int64_t now_unix, const std::string& today);

// Adds what was wrong in a graded submission to the log of mistakes: one record per graded
// part that is Incorrect or Partial, one per failing visible code case, and, when neither
// gives one, one for the answer as a whole (its message and first detail, fb.misconception).
// Nothing for a correct answer, a format error or an empty exercise id. Texts beyond their
// bounds are cut; the log keeps the newest kMaxMistakes. Callers decide when feedback counts
// as seen (not in an exam, where it is withheld).
void record_mistakes(Progress& p, const std::string& writer, const std::string& exercise_id, uint64_t seed,
                     const Feedback& fb, int64_t now_unix);

// The streak as of `today`: the stored streak if the student was active today or
// yesterday, 0 otherwise.
int current_streak(const Progress& p, const std::string& today);

struct ChapterProgress {
  int total = 0, attempted = 0, solved = 0;
  double mastery = 0;  // mean best score over the chapter's exercises, 0..1
};
ChapterProgress chapter_progress(const Progress& p, const Pack& pack);

// Days since 1970-01-01 for "YYYY-MM-DD"; -1 when malformed.
long days_from_date(const std::string& ymd);
// Days since 1970-01-01 of a date of the proleptic Gregorian calendar (month 1..12).
long days_from_civil(long y, int m, int d);
// "YYYY-MM-DD" of a day since 1970-01-01: the inverse of days_from_date for the years
// 0000..9999 (the only ones it reads).
std::string date_from_days(long days);

}  // namespace dtx
