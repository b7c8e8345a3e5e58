// Submission files: what a student hands in for an assignment, written by the page
// ("Download my submission") and read by `dtx report`. Plain, versioned JSON
// (docs/AUTHORING.md, "Running a course"):
//
//   {"format": "dtx-submission/1", "assignment": "hw3", "student": "ana@uni.example",
//    "created": "2026-12-04T20:11:05Z",
//    "attempts": [{"exercise": "ring.volume", "seed": 48213, "answer": ["volume=1.75 GB"],
//                  "verdict": "correct", "score": 1, "at": "2026-12-04T20:10:41Z",
//                  "pack": "10-collectives.json", "pack_sha256": "<of the pack text graded with>"}]}
//
// The answer is kept as the student gave it, in the words `dtx grade` reads
// (TypeSpec::answer_words), so it can be graded again; the verdict and score are what the
// page showed, kept for the record and never trusted: `dtx report` grades every answer anew.
// The page also keeps its running log in this form in the browser's storage.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model.h"

namespace dtx {

inline constexpr const char* kSubmissionFormat = "dtx-submission/1";
constexpr size_t kMaxSubmissionBytes = 8 * 1024 * 1024;
constexpr size_t kMaxSubmittedAttempts = 1000;  // the most items any JSON array may have (json_pos.h)
constexpr size_t kMaxAnswerWords = 64;          // numeric parts, letters, a program

struct SubmittedAttempt {
  std::string exercise;
  uint64_t seed = 0;
  std::vector<std::string> answer;  // as `dtx grade` takes it
  std::string verdict;              // as the page showed it: correct, partial, incorrect
  double score = 0;                 // as the page showed it, 0..1
  int64_t at = 0;                   // seconds since 1970 UTC (the student's clock)
  std::string pack;                 // the file of the pack it was graded with
  std::string pack_sha256;          // and the SHA-256 of that pack's text then
  std::string pointer;              // where in the file it was read ("/attempts/3")

  // The same attempt, recorded by two tabs or two downloads, is one attempt.
  std::string key() const;
};

struct Submission {
  std::string assignment, student;
  int64_t created = 0;
  std::vector<SubmittedAttempt> attempts;    // in the order they were made
};

struct SubmissionRead {
  std::optional<Submission> submission;  // nullopt: the file as a whole cannot be used
  // Problems: with a submission, attempts that were left out (each named) and fields that
  // were ignored; without one, why the file cannot be read.
  std::vector<Diagnostic> diagnostics;
};

SubmissionRead read_submission(const std::string& text, const std::string& file);
std::string write_submission(const Submission& s);

// Every attempt of both, each once, ordered by time (ties keep a's order, then b's).
// Identity fields are a's; `created` the later one.
Submission merge_submissions(const Submission& a, const Submission& b);

}  // namespace dtx
