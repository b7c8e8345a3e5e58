// An assignment run inside an LMS as a SCORM 2004 (4th edition) package: what the page reports
// to the LMS's run-time API (score, status, one interaction per attempt), the compact resume
// state it keeps in cmi.suspend_data, and the package's imsmanifest.xml. Pure: the page, the
// CLI's `dtx package scorm` and the tests share it (docs/AUTHORING.md, "Running a course in an
// LMS"). The data model's names and limits are the SCORM 2004 4th edition Run-Time
// Environment's (RTE 4.2); the manifest follows its Content Aggregation Model (CAM 3.4).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "assignment.h"
#include "submission.h"

namespace dtx {

// cmi.suspend_data holds at most 64,000 characters (RTE 4.2.26).
constexpr size_t kScormSuspendChars = 64000;
// cmi.interactions.n.learner_response of type "other" and cmi.location: 4,000 and 1,000.
constexpr size_t kScormResponseChars = 4000;

// Where a student stands on one assignment item: the attempts that count (on their own
// numbers, by their due date or within the late policy's window, within the attempt limit, in
// the order they were made), the best score of those (a late one's after its penalty) and
// whether one was right. The page's assignment screen and the LMS report
// both use it; `dtx report` grades the same rules anew from the answers.
struct ItemStanding {
  int attempts = 0;
  double best = 0;
  bool solved = false;
};
ItemStanding item_standing(const Assignment& a, const AssignmentItem& item, const Submission& log,
                           const std::string& student);

// The run-time values of the whole assignment.
struct ScormStatus {
  double raw = 0, max = 0;  // points earned and possible
  double scaled = 0;        // raw / max, 0..1
  double progress = 0;      // share of the items with a counted attempt
  bool completed = false;   // every item has a counted attempt
  std::string success;      // "passed", "failed"; "unknown" with no passing score or no attempt yet
};
// `passing`: the LMS's cmi.scaled_passing_score when it has one, else the assignment's.
ScormStatus scorm_status(const Assignment& a, const Submission& log, const std::string& student,
                         std::optional<double> passing);

// One cmi.interactions.n for an attempt (RTE 4.2.9), every value already in its SCORM form.
struct ScormInteraction {
  std::string id;                // the exercise id
  std::string type = "other";    // dtx answers are multi-part, ordered lists or programs
  std::string learner_response;  // {"seed":N,"answer":[...]} in `dtx grade` words, one line
  std::string result;            // "correct", "incorrect", or the partial score ("0.5")
  std::string timestamp;         // "2026-12-04T20:10:41.0Z" (RTE's time: TZD after a fraction)
  std::string latency;           // "PT1M5S": from opening the exercise to the submission
  std::string description;       // the exercise's title (at most 250 characters)
  double weighting = 1;          // the item's points
};
ScormInteraction scorm_interaction(const SubmittedAttempt& at, const std::string& title, double points,
                                   double latency_seconds);
// "PT1H2M3.5S" (RTE's timeinterval), for latency and cmi.session_time.
std::string scorm_timespan(double seconds);

// ---------------------------------------------------------------- cmi.suspend_data

// What the page keeps in the LMS between sessions: every attempt of the student's log and how
// many were already sent as interactions. The form, one line of JSON (docs/AUTHORING.md):
//   {"v":1,"r":REPORTED,"t":BASE_UNIX,"p":["file sha256",...],
//    "a":[[ITEM,SEED,DT,"c|p|i",SCORE,PACK,[words...]],...]}
// ITEM is the exercise's index in the assignment (or its id when not listed), SEED null for
// the student's own numbers, DT seconds after BASE_UNIX, PACK an index into "p". When the log
// does not fit `budget`, the words of the oldest attempts that are neither an item's best nor
// its latest are left out first (0 in place of the list: the verdict, score and time stay;
// the answer is in the LMS's interactions and the page's own storage), then those of every
// attempt but each item's latest; `dropped_words` counts them.
struct SuspendWrite {
  std::string text;
  int dropped_words = 0;
  int dropped_attempts = 0;  // only when even that does not fit (the oldest go first)
};
SuspendWrite write_suspend(const Assignment& a, const Submission& log, const std::string& student, int reported,
                           size_t budget = kScormSuspendChars);

struct SuspendRead {
  Submission log;    // attempts whose words were left out have an empty answer
  int reported = 0;  // attempts already sent as interactions
  std::string error; // why the text could not be used (then the log is empty)
};
SuspendRead read_suspend(const std::string& text, const Assignment& a, const std::string& student);

// The resumed attempts added to the page's own: one made in this browser (same exercise,
// numbers, time and verdict) is kept with its words.
Submission merge_resumed(const Submission& local, const Submission& resumed);

// ---------------------------------------------------------------- the package

// imsmanifest.xml for one SCO that launches `launch` (CAM 3.4.1): the assignment's title,
// its passing score as the primary objective's minimum normalised measure (so the LMS sets
// cmi.scaled_passing_score), and every file of the package.
std::string scorm_manifest(const Assignment& a, const std::string& launch, const std::vector<std::string>& files);

// The LMS's learner id as a dtx identifier: itself when it is one (normalize_student_id),
// else "lms-" and 16 hex digits of its SHA-256 (the same learner always gets the same numbers).
std::string identifier_from_learner_id(const std::string& learner_id);

}  // namespace dtx
