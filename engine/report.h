// `dtx report`: the gradebook of an assignment from the students' submission files. Every
// attempt is graded again by the engine against the course's packs; the verdicts in a file
// are compared with the engine's, never used. A file that cannot be read is named and
// skipped; the others are graded.
//
// What counts toward a student's score for an exercise (the best score of the attempts that
// count, times the exercise's points):
//   - attempts on the student's own numbers (the seed the assignment gives them);
//   - made by the due date (by the times in the file: the student's clock);
//   - within the assignment's maximum number of attempts, counted in the order the file
//     lists them (never by the times a file claims) and within that one file;
//   - answers the engine can read (an unreadable answer is not an attempt, as in the page).
// Everything else is listed as a flag for the instructor to judge: attempts on another
// student's numbers (copied), on numbers nobody was given (practice), late ones, attempts
// beyond the limit, verdicts the engine does not confirm, packs changed since the attempt.
// An attempt that cannot count is not graded at all, so its code never runs.
//
// Identity is per file (docs/AUTHORING.md, "Who a file is from"). Any file can write any
// `student`, so a file never changes what another file earns: each file is graded alone
// (its attempts, its order, its own attempt limit) and a student's result for an exercise
// is the best of their files' results. Two files that claim one student are both named,
// loudly: first among the flags, a "!" on the row, a WARNING line, and the CSV's `flag`.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "assignment.h"
#include "model.h"
#include "submission.h"

namespace dtx {

struct ReportInput {
  std::string file, text;
};

struct ReportOptions {
  GradeServices services;                     // runs code answers (the CLI's sandbox)
  std::map<std::string, std::string> pack_sha256;  // pack file (as in the course) -> hash of its text now
  int64_t now = 0;                            // for attempts dated in the future; 0: not checked
  // Earlier pack texts by their SHA-256 (`--packs-history`): an attempt made on an earlier
  // version is graded on that version, the one the student saw.
  std::map<std::string, PackSource> history;
};

struct ExerciseResult {
  double best = 0;           // 0..1, of the attempts that count
  int attempts = 0;          // that count
  int attempts_to_solve = 0; // the counted attempt that first solved it (1-based); 0: not solved
};

struct StudentReport {
  std::string student;
  std::vector<std::string> files;       // every file that claims this student, as given
  bool claimed_by_several_files = false;
  std::vector<ExerciseResult> results;  // one per assignment exercise, in its order
  double points = 0;
  double points_now = 0;                // under the current packs, where an attempt was graded on an earlier one
  std::vector<std::string> flags;       // sentences, for the instructor
};

struct UnreadableFile {
  std::string file;
  std::vector<std::string> messages;  // "file:line:col: error[E003]: ..." lines
};

struct WrongAnswerGroup {
  std::string diagnosis;  // what the engine said about it (its feedback)
  std::string example;    // one such answer as given
  int attempts = 0;
  std::set<std::string> students;
};

struct ItemStats {
  std::string id, title;
  int students = 0;       // students with at least one counted attempt
  int attempts = 0;       // counted attempts
  int solved = 0;         // students who solved it
  double median_to_solve = 0;  // attempts up to the first solve, over those who solved; 0: none
  std::vector<WrongAnswerGroup> wrong;  // most common first
};

struct Report {
  const Assignment* assignment = nullptr;
  // Packs that changed since attempts were made, once per pack: graded on the version seen
  // (and what the current one would change), or that version missing and whether the current
  // one gives the same scores.
  std::vector<std::string> pack_notes;
  std::vector<StudentReport> students;  // by identifier
  std::vector<UnreadableFile> unreadable;
  std::vector<ItemStats> items;         // one per assignment exercise
};

Report make_report(const Assignment& a, const Library& course, const std::vector<ReportInput>& files,
                   const ReportOptions& options);

// The table `dtx report` prints: a heading, one row per student, the flags, the files that
// could not be read. Every string from a file is shown on its line with its controls and
// bidi overrides escaped (text_escape.h).
std::string report_table(const Report& r);
// The gradebook (`--csv FILE`): a header row "student,<exercise id>...,total,flag", then one
// row per student with the points earned per exercise and in total (RFC 4180, "." decimals),
// and `flag`: empty, or "2 files claim this student: a.json; b.json". A cell that starts
// with = + - @ is written after an apostrophe, so no spreadsheet runs it.
std::string report_csv(const Report& r);
// Per exercise (`--items`): attempts, share solved, median attempts to solve, and the
// `top` most common wrong answers with the engine's diagnosis of each.
std::string report_items(const Report& r, size_t top = 3);

// "0.5", "1", "0.33": points as a gradebook shows them (two decimals at most).
std::string points_text(double v);
// One CSV cell (RFC 4180 quoting). A cell a spreadsheet would run as a formula (=, +, -, @, a
// tab or a carriage return first) starts with an apostrophe; separators of other locales (';',
// a tab) are quoted too, so a spreadsheet that splits on them keeps the cell whole.
std::string csv_field(const std::string& raw);

}  // namespace dtx
