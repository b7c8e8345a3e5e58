// A student's progress, kept by the browser as a versioned JSON document. Reading never
// loses what is readable: a bad record is reported and skipped, the rest is kept.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "model.h"

namespace dtx {

constexpr int kProgressVersion = 1;

struct ExerciseProgress {
  int attempts = 0;
  double best_score = 0;     // 0..1
  int64_t solved_at = 0;     // unix seconds of the first full solve; 0 = not yet
  int64_t last_attempt_at = 0;
};

struct Progress {
  std::map<std::string, ExerciseProgress> exercises;
  int streak_days = 0, best_streak_days = 0;
  std::string last_active_day;  // local date "YYYY-MM-DD" of the last counted attempt
  std::string last_exercise;    // where the student left off
};

struct ProgressRead {
  Progress progress;
  std::vector<std::string> problems;  // what could not be read, in words
  bool unreadable = false;            // not a progress document at all: keep it aside
};

ProgressRead read_progress(const std::string& text);
std::string write_progress(const Progress& p);

// Records a graded submission. Format errors are not attempts and change nothing; returns
// whether anything was recorded. `today` is the student's local date, "YYYY-MM-DD".
bool record_attempt(Progress& p, const std::string& exercise_id, const Feedback& fb,
                    int64_t now_unix, const std::string& today);

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

}  // namespace dtx
