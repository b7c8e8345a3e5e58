// Assignments: a graded subset of the course, as a JSON file an instructor writes and puts
// next to the site (docs/AUTHORING.md, "Running a course"):
//
//   {"format": "dtx-assignment/1", "id": "hw3", "title": "Homework 3", "due": "2026-12-05T17:00:00+01:00",
//    "hand_in": "Upload the file to the course page.",
//    "exercises": ["ring.volume", {"id": "zero.stage3", "seed": 7, "points": 2}],
//    "policies": {"per_student_numbers": true, "explanations": "after-solve", "max_attempts": 5}}
//
// The page opens it with `?assign=URL`; `dtx lint` checks it against the course; `dtx report`
// grades the students' submission files with it. Everything here is pure: the page, the CLI
// and the tests share it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model.h"

namespace dtx {

inline constexpr const char* kAssignmentFormat = "dtx-assignment/1";
constexpr size_t kMaxAssignmentBytes = 1024 * 1024;
constexpr size_t kMaxAssignmentExercises = 200;
constexpr int kMaxAttemptsPolicy = 1000;

enum class ExplanationPolicy {
  AfterAttempt,  // as in practice: after the first counted attempt
  AfterSolve,    // once the student's own instance is solved (default)
  AfterDue,      // only after the due date, whatever the student did
};

enum class FeedbackPolicy {
  Immediate,  // verdicts as in practice (default)
  AfterDue,   // exam mode: "answer saved"; verdicts and solutions once no attempt can count
};

struct AssignmentItem {
  std::string id;
  std::optional<uint64_t> seed;  // the same numbers for everyone
  double points = 1;
  std::string pointer;     // "/exercises/2"
  std::string id_pointer;  // where its id is written ("/exercises/2/id" in an object)
  int pool = -1;           // the pool it is one of (Assignment::pools), -1: everyone has it
};

// {"pool": NAME, "pick": K, "from": [ids...], "points": P} in "exercises": each student gets K
// of the pool's exercises, chosen from the assignment id, the pool's name and their identifier
// (the same in the page and the report), each worth P.
struct AssignmentPool {
  std::string name;
  int pick = 1;
  double points = 1;
  std::string pointer;
};

// Attempts after the due date that still count, for less (docs/AUTHORING.md, "Extensions
// and late work"): until `until_unix`, the score times 1 − penalty_per_day × each day begun
// late (never below 0), or times `factor`.
struct LatePolicy {
  int64_t until_unix = 0;
  std::string until_text;
  double penalty_per_day = 0;
  std::optional<double> factor;
};

struct Assignment {
  std::string file, id, title, intro, hand_in;
  std::string due_text;         // as written ("2026-12-05T17:00:00+01:00")
  int64_t due_unix = 0;         // seconds since 1970 UTC
  int due_offset_minutes = 0;   // the time zone it was written in (shown back in it)
  std::vector<AssignmentItem> exercises;  // every exercise, a pool's members included
  std::vector<AssignmentPool> pools;
  bool per_student_numbers = true;
  ExplanationPolicy explanations = ExplanationPolicy::AfterSolve;
  FeedbackPolicy feedback = FeedbackPolicy::Immediate;
  int max_attempts = 0;  // 0: unlimited
  // The share of the points that passes (0..1), for an LMS's pass/fail (engine/scorm.h).
  std::optional<double> passing_score;
  std::map<std::string, int64_t> extensions;  // normalised identifier -> their own due date
  std::optional<LatePolicy> late;

  // The student's due date: theirs when they have an extension.
  int64_t due_for(const std::string& student) const;
  // What share of an attempt's score at `at` counts for `student`: 1 by their due date, less
  // within the late policy's window, nullopt (not counted) after it or without one.
  std::optional<double> late_factor(const std::string& student, int64_t at) const;

  const AssignmentItem* item(std::string_view exercise_id) const;
  double total_points() const;  // one student's: a pool counts its picks
  // Whether `student` has this item: always, unless it is a pool member not chosen for them.
  bool given(const AssignmentItem& item, const std::string& student) const;
};

struct AssignmentLoad {
  std::optional<Assignment> assignment;  // present when there were no errors
  std::vector<Diagnostic> diagnostics;
};

// Reads and checks the file's shape (not whether the exercises exist: see lint_assignment).
AssignmentLoad load_assignment(const std::string& text, const std::string& file);
// True when `text` looks like an assignment ({"format": "dtx-assignment/..."} at the top),
// so `dtx lint` can tell it from a pack without a flag.
bool looks_like_assignment(const std::string& text);
// Every exercise the assignment names exists in `course`, and fixed seeds make an instance.
std::vector<Diagnostic> lint_assignment(const Assignment& a, const std::string& text, const Library& course);
// The packs holding the assignment's exercises, checked as `dtx lint` checks them (code not
// run; a link to an exercise of another pack is looked up in the whole course). `dtx report`,
// `dtx package` and the page refuse an assignment on a pack it rejects: no grade on it means
// anything.
std::vector<Diagnostic> lint_assignment_packs(const Assignment& a, const Library& course);

// ---------------------------------------------------------------- students and their numbers

constexpr size_t kMaxStudentIdChars = 100;
// The identifier as it is stored and compared: spaces around it trimmed, letters lowered
// (e-mail addresses are compared without case). An identifier holds only ASCII letters,
// digits and . _ - @ + (at most kMaxStudentIdChars), and starts with a letter or a digit:
// nothing a spreadsheet runs ("=..."), splits (';' in locales that use it to separate cells)
// or a terminal obeys, and no look-alikes (a leading no-break space, a right-to-left
// override) that would make two identities print the same. nullopt with `error` otherwise,
// and `error_at`: the byte in `raw` that is wrong.
std::optional<std::string> normalize_student_id(std::string_view raw, std::string* error, size_t* error_at = nullptr);

// The seed of `exercise_id` for `student` in assignment `assignment_id`: a hash of the three,
// 1 .. 999,999,999, the same in the page, in `dtx report` and on every machine. A student who
// copies another's answers has other numbers; a file whose seeds are not its student's own
// shows that it was copied.
uint64_t derive_seed(std::string_view assignment_id, std::string_view student, std::string_view exercise_id);
// The seed the assignment gives this student for this item: the fixed one, the derived one,
// or 0 (the default numbers) when per-student numbers are off.
uint64_t assignment_seed(const Assignment& a, const AssignmentItem& item, const std::string& student);

// ---------------------------------------------------------------- times

// "2026-12-05T17:00:00+01:00", "2026-12-05T16:00Z" (seconds and fractions optional, the
// offset required) -> seconds since 1970 UTC and the offset in minutes.
bool parse_datetime(std::string_view s, int64_t* unix_seconds, int* offset_minutes);
// Seconds since 1970 UTC shown at an offset: "2026-12-05 17:00 +01:00" (seconds when not 0).
std::string format_datetime(int64_t unix_seconds, int offset_minutes);
// "2026-12-05T16:00:00Z": how files record times.
std::string format_utc(int64_t unix_seconds);

}  // namespace dtx
