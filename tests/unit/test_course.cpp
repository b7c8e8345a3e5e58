// Course mode in the engine: assignment files, per-student seeds, submission files and the
// report `dtx report` prints (engine/assignment.h, submission.h, report.h). The browser half
// is tests/e2e/course.mjs.
#include <gtest/gtest.h>

#include <set>

#include "assignment.h"
#include "code_runner.h"
#include "helpers.h"
#include "report.h"
#include "scorm.h"
#include "sha256.h"
#include "submission.h"
#include "text.h"
#include "text_escape.h"

using namespace dtx;
using namespace dtx::testing;

namespace {

const char* kPack = R"({"format": 1, "chapter": 0, "id": "t", "title": "Test", "exercises": [
  {"id": "t.sum", "type": "numeric", "title": "Sum", "prompt": "{a} + {b}?",
   "params": {"a": {"default": 2, "min": 1, "max": 999, "step": 1}, "b": {"default": 3, "min": 1, "max": 999, "step": 1}},
   "parts": [{"id": "s", "label": "Sum", "answer": "a + b", "unit": "", "tolerance": {"rel": 0, "abs": 0.001},
              "mistakes": [{"answer": "a * b", "message": "That is the product."}]}]},
  {"id": "t.pick", "type": "choice", "title": "Pick", "prompt": "Which?",
   "options": [{"text": "Right", "correct": true}, {"text": "Wrong", "feedback": "No."}, {"text": "Also wrong"}]}
]})";

std::string assignment_text(const std::string& policies = R"({"max_attempts": 2})") {
  return R"({"format": "dtx-assignment/1", "id": "hw1", "title": "Homework 1", "due": "2026-12-05T17:00:00+01:00",
  "hand_in": "Upload it.", "exercises": ["t.sum", {"id": "t.pick", "points": 2}], "policies": )" + policies + "}";
}

Assignment must_assignment(const std::string& text) {
  AssignmentLoad l = load_assignment(text, "hw1.json");
  std::string all;
  for (const auto& d : l.diagnostics) all += format_diagnostic(d) + "\n";
  EXPECT_TRUE(l.assignment.has_value()) << all;
  return l.assignment ? *l.assignment : Assignment{};
}

// The code of the first diagnostic loading `text` gives, and its line.
std::pair<std::string, int> first_problem(const std::string& text) {
  AssignmentLoad l = load_assignment(text, "a.json");
  if (l.diagnostics.empty()) return {"none", 0};
  return {diag_info(l.diagnostics[0].code).id, l.diagnostics[0].line};
}

Library course() {
  Library lib;
  lib.packs.push_back(must_load(kPack));
  return lib;
}

// An attempt on `exercise` with the words `dtx grade` reads.
SubmittedAttempt attempt(const std::string& exercise, uint64_t seed, std::vector<std::string> answer, int64_t at,
                         const std::string& verdict = "") {
  SubmittedAttempt a;
  a.exercise = exercise;
  a.seed = seed;
  a.answer = std::move(answer);
  a.at = at;
  a.verdict = verdict;
  return a;
}

// The right answer to t.sum for `seed`, as a student types it.
std::string sum_answer(const Exercise& ex, uint64_t seed) {
  Instance inst = must_instance(ex, seed);
  return format_number(part_values(inst)[0], 12);
}

// The letter of t.pick's right option in `seed`'s shuffled order.
std::string pick_answer(const Exercise& ex, uint64_t seed) {
  Instance inst = must_instance(ex, seed);
  for (size_t pos = 0; pos < shown_order(inst).size(); ++pos)
    if (shown_order(inst)[pos] == 0) return std::string(1, static_cast<char>('A' + pos));
  return "?";
}

}  // namespace

TEST(Sha256, KnownDigests) {
  // FIPS 180-4 examples, and lengths around the padding boundary (55, 56, 64 bytes).
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256_hex(std::string(1000000, 'a')), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  EXPECT_NE(sha256_hex(std::string(55, 'x')), sha256_hex(std::string(56, 'x')));
  EXPECT_EQ(sha256_hex(std::string(64, 'x')).size(), 64u);
}

TEST(Assignment, SeedsAreStablePerStudentAndDifferAcrossStudents) {
  // The page and `dtx report` must derive the same seed on every machine and in every
  // version: a change here changes every student's numbers (and flags their files as copied).
  EXPECT_EQ(derive_seed("hw1", "ana@uni.example", "ring.volume"), derive_seed("hw1", "ana@uni.example", "ring.volume"));
  EXPECT_EQ(derive_seed("e2e-hw", "ana@uni.example", "ring.volume"), 24389208u);
  std::set<uint64_t> seen;
  for (int i = 0; i < 1000; ++i) {
    uint64_t s = derive_seed("hw1", "student" + std::to_string(i), "t.sum");
    EXPECT_GE(s, 1u);
    EXPECT_LE(s, 999999999u);
    seen.insert(s);
  }
  EXPECT_EQ(seen.size(), 1000u) << "1000 students, 1000 different seeds";
  EXPECT_NE(derive_seed("hw1", "ana", "t.sum"), derive_seed("hw2", "ana", "t.sum"));
  EXPECT_NE(derive_seed("hw1", "ana", "t.sum"), derive_seed("hw1", "ana", "t.pick"));
  // No separator games: ("ab", "c") and ("a", "bc") are different students in different assignments.
  EXPECT_NE(derive_seed("ab", "c", "x"), derive_seed("a", "bc", "x"));

  Assignment a = must_assignment(assignment_text());
  EXPECT_EQ(assignment_seed(a, a.exercises[0], "ana"), derive_seed("hw1", "ana", "t.sum"));
  a.exercises[0].seed = 7;
  EXPECT_EQ(assignment_seed(a, a.exercises[0], "ana"), 7u) << "a fixed seed is everyone's";
  a.per_student_numbers = false;
  EXPECT_EQ(assignment_seed(a, a.exercises[1], "ana"), 0u) << "without per-student numbers: the default numbers";
}

TEST(Assignment, StudentIdentifiersAreNormalisedAndChecked) {
  std::string why;
  EXPECT_EQ(normalize_student_id("  Ana@Uni.Example ", &why).value_or("?"), "ana@uni.example");
  EXPECT_EQ(normalize_student_id("s1234567", &why).value_or("?"), "s1234567");
  EXPECT_FALSE(normalize_student_id("", &why));
  EXPECT_FALSE(normalize_student_id("ana smith", &why));
  EXPECT_FALSE(normalize_student_id("=HYPERLINK(\"x\")", &why)) << "a spreadsheet would run it";
  EXPECT_NE(why.find("character 1 is '='"), std::string::npos) << why;
  EXPECT_FALSE(normalize_student_id("-ana", &why));
  EXPECT_NE(why.find("starts with a letter or a digit"), std::string::npos) << why;
  EXPECT_FALSE(normalize_student_id(std::string(101, 'a'), &why));
  EXPECT_TRUE(normalize_student_id(std::string(100, 'a'), &why));
  // The documented set: letters, digits and . _ - @ +; e-mail addresses with tags pass.
  EXPECT_EQ(normalize_student_id("Ana.B_c-d+hw@Uni.Example", &why).value_or("?"), "ana.b_c-d+hw@uni.example");
  // Each of these was accepted before: a ';' a spreadsheet in a ';' locale splits on (the
  // rest of the cell is then read as a formula), a tab (trimmed away, or inside), a
  // right-to-left override and a leading no-break space (two identities that print alike).
  size_t at = 99;
  EXPECT_FALSE(normalize_student_id("ana;=1+1", &why, &at));
  EXPECT_NE(why.find("character 4 is ';'"), std::string::npos) << why;
  EXPECT_EQ(at, 3u);
  EXPECT_FALSE(normalize_student_id("a\tb", &why));
  EXPECT_NE(why.find("a tab"), std::string::npos) << why;
  EXPECT_FALSE(normalize_student_id("\tana", &why, &at)) << "a tab is not trimmed into another identity";
  EXPECT_EQ(at, 0u);
  EXPECT_FALSE(normalize_student_id("ana\xE2\x80\xAEmoc.evil", &why, &at));
  EXPECT_NE(why.find("U+202E"), std::string::npos) << why;
  EXPECT_EQ(at, 3u);
  EXPECT_FALSE(normalize_student_id("\xC2\xA0" "ana", &why));
  EXPECT_NE(why.find("U+00A0"), std::string::npos) << why;
  EXPECT_FALSE(normalize_student_id("an\xC3\xA1", &why)) << "outside ASCII: accents have look-alikes";
  EXPECT_FALSE(normalize_student_id("ana\x1b[2K", &why));
}

TEST(Assignment, DateTimesNeedTheirZone) {
  int64_t t = 0;
  int off = 0;
  ASSERT_TRUE(parse_datetime("2026-12-05T17:00:00+01:00", &t, &off));
  EXPECT_EQ(t, 1796486400);  // 2026-12-05T16:00:00Z
  EXPECT_EQ(off, 60);
  EXPECT_EQ(format_datetime(t, off), "2026-12-05 17:00 +01:00");
  EXPECT_EQ(format_utc(t), "2026-12-05T16:00:00Z");
  ASSERT_TRUE(parse_datetime("2026-12-05T16:00Z", &t, &off));
  EXPECT_EQ(format_utc(t), "2026-12-05T16:00:00Z");
  ASSERT_TRUE(parse_datetime("2024-02-29T23:59:59.250-05:30", &t, &off));
  EXPECT_EQ(format_datetime(t, off), "2024-02-29 23:59:59 -05:30");
  EXPECT_FALSE(parse_datetime("2026-12-05T17:00:00", &t, &off)) << "no zone";
  EXPECT_FALSE(parse_datetime("2025-02-29T10:00Z", &t, &off)) << "not a leap year";
  EXPECT_FALSE(parse_datetime("2026-12-05", &t, &off));
  EXPECT_FALSE(parse_datetime("2026-12-05T24:00Z", &t, &off));
}

TEST(Assignment, LoadsAndReportsWhatIsWrongWhere) {
  Assignment a = must_assignment(assignment_text());
  EXPECT_EQ(a.id, "hw1");
  ASSERT_EQ(a.exercises.size(), 2u);
  EXPECT_DOUBLE_EQ(a.exercises[1].points, 2);
  EXPECT_DOUBLE_EQ(a.total_points(), 3);
  EXPECT_EQ(a.max_attempts, 2);
  EXPECT_TRUE(a.per_student_numbers);
  EXPECT_EQ(a.explanations, ExplanationPolicy::AfterSolve);

  EXPECT_EQ(first_problem("{\"format\": \"dtx-assignment/1\",\n \"id\": \"x\"").first, "E003");
  std::string no_zone = assignment_text();
  no_zone.replace(no_zone.find("+01:00"), 6, "");
  EXPECT_EQ(first_problem(no_zone), std::make_pair(std::string("E070"), 1));
  std::string twice = assignment_text();
  twice.replace(twice.find("\"t.sum\""), 7, "\"t.pick\"");
  EXPECT_EQ(first_problem(twice).first, "E017");
  std::string policy = assignment_text(R"({"explanations": "after-solving"})");
  AssignmentLoad l = load_assignment(policy, "a.json");
  ASSERT_FALSE(l.diagnostics.empty());
  EXPECT_EQ(std::string(diag_info(l.diagnostics[0].code).id), "E013");
  EXPECT_NE(l.diagnostics[0].message.find("did you mean \"after-solve\""), std::string::npos) << l.diagnostics[0].message;
  EXPECT_EQ(first_problem(R"({"format": "dtx-assignment/1", "id": "x", "title": "T", "due": "2026-12-05T17:00Z",
    "hand_in": "h", "exercises": ["a"], "polices": {}})").first, "E012");
  EXPECT_TRUE(looks_like_assignment(assignment_text()));
  EXPECT_FALSE(looks_like_assignment(kPack));
}

TEST(Assignment, LintFindsExercisesTheCourseLacks) {
  std::string text = assignment_text();
  text.replace(text.find("\"t.sum\""), 7, "\"t.summ\"");
  Assignment a = must_assignment(text);
  Library lib = course();
  auto d = lint_assignment(a, text, lib);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(std::string(diag_info(d[0].code).id), "E071");
  EXPECT_EQ(d[0].pointer, "/exercises/0");
  EXPECT_EQ(d[0].line, 2);
  EXPECT_NE(d[0].message.find("did you mean \"t.sum\""), std::string::npos) << d[0].message;
  EXPECT_TRUE(lint_assignment(must_assignment(assignment_text()), assignment_text(), lib).empty());
}

TEST(Submission, RoundTripsAndMergesWithoutCountingTwice) {
  Submission s;
  s.assignment = "hw1";
  s.student = "ana";
  s.created = 1796400000;
  s.attempts.push_back(attempt("t.sum", 5, {"s=12"}, 1796390000, "incorrect"));
  s.attempts.push_back(attempt("t.pick", 5, {"B"}, 1796390100, "correct"));
  s.attempts[0].pack = "t.json";
  s.attempts[0].pack_sha256 = sha256_hex(kPack);
  std::string text = write_submission(s);
  SubmissionRead r = read_submission(text, "ana.json");
  ASSERT_TRUE(r.submission) << (r.diagnostics.empty() ? "" : format_diagnostic(r.diagnostics[0]));
  EXPECT_TRUE(r.diagnostics.empty());
  ASSERT_EQ(r.submission->attempts.size(), 2u);
  EXPECT_EQ(r.submission->attempts[0].answer, std::vector<std::string>{"s=12"});
  EXPECT_EQ(r.submission->attempts[0].pack_sha256, sha256_hex(kPack));
  EXPECT_EQ(r.submission->attempts[1].at, 1796390100);
  // Two tabs: the same attempts and one more; merged, each once, in time order.
  Submission other = *r.submission;
  other.attempts.insert(other.attempts.begin(), attempt("t.sum", 5, {"s=7"}, 1796380000, "correct"));
  Submission m = merge_submissions(s, other);
  ASSERT_EQ(m.attempts.size(), 3u);
  EXPECT_EQ(m.attempts[0].answer[0], "s=7");
  EXPECT_EQ(merge_submissions(m, m).attempts.size(), 3u) << "merging twice adds nothing";
}

TEST(Submission, MalformedFilesAndAttemptsAreNamed) {
  SubmissionRead r = read_submission("{\"format\": \"dtx-submission/1\",", "x.json");
  EXPECT_FALSE(r.submission);
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_EQ(r.diagnostics[0].code, DiagCode::InvalidJson);
  r = read_submission(R"({"format": "dtx-submission/2", "assignment": "hw1", "student": "ana", "attempts": []})", "v2.json");
  EXPECT_FALSE(r.submission) << "a future format is not guessed at";
  r = read_submission(R"({"format": "dtx-submission/1", "assignment": "hw1", "student": "=cmd|x", "attempts": []})", "s.json");
  EXPECT_FALSE(r.submission) << "an identifier a spreadsheet would run";
  // One bad attempt among good ones: it is left out and named, the rest is read.
  r = read_submission(R"({"format": "dtx-submission/1", "assignment": "hw1", "student": "ana", "attempts": [
    {"exercise": "t.sum", "seed": 1, "answer": ["s=3"], "at": "2026-12-01T10:00:00Z"},
    {"exercise": "t.sum", "seed": 1, "answer": "s=3", "at": "2026-12-01T10:01:00Z"},
    {"exercise": "t.sum", "seed": 1, "answer": ["s=4"], "at": "yesterday"}]})", "ana.json");
  ASSERT_TRUE(r.submission);
  EXPECT_EQ(r.submission->attempts.size(), 1u);
  ASSERT_EQ(r.diagnostics.size(), 2u);
  EXPECT_EQ(r.diagnostics[0].pointer, "/attempts/1/answer");
  EXPECT_EQ(r.diagnostics[0].line, 3);
  EXPECT_NE(r.diagnostics[1].message.find("left out"), std::string::npos);
}

TEST(Report, ScoresOwnTimelyAttemptsAndFlagsTheRest) {
  Library lib = course();
  const Exercise& sum = *lib.find("t.sum");
  const Exercise& pick = *lib.find("t.pick");
  Assignment a = must_assignment(assignment_text());
  const int64_t due = a.due_unix, before = due - 3600;
  uint64_t ana_sum = assignment_seed(a, a.exercises[0], "ana"), ana_pick = assignment_seed(a, a.exercises[1], "ana");
  uint64_t bo_sum = assignment_seed(a, a.exercises[0], "bo");
  auto file = [](const std::string& student, const std::vector<SubmittedAttempt>& attempts) {
    Submission s;
    s.assignment = "hw1";
    s.student = student;
    s.attempts = attempts;
    return write_submission(s);
  };
  // ana: the product first (a known mistake), then the sum; the choice right.
  std::string ana = file("ana", {attempt("t.sum", ana_sum, {"s=" + format_number(must_instance(sum, ana_sum).values[0].second *
                                                                                     must_instance(sum, ana_sum).values[1].second, 12)},
                                         before, "incorrect"),
                                 attempt("t.sum", ana_sum, {"s=" + sum_answer(sum, ana_sum)}, before + 1, "correct"),
                                 attempt("t.pick", ana_pick, {pick_answer(pick, ana_pick)}, before + 2, "correct")});
  // bo: ana's numbers and answer (copied), then his own after the due date, then a file
  // that claims a wrong answer was right.
  std::string bo = file("bo", {attempt("t.sum", ana_sum, {"s=" + sum_answer(sum, ana_sum)}, before, "correct"),
                               attempt("t.sum", bo_sum, {"s=" + sum_answer(sum, bo_sum)}, due + 60, "correct"),
                               attempt("t.pick", assignment_seed(a, a.exercises[1], "bo"),
                                       {pick_answer(pick, assignment_seed(a, a.exercises[1], "bo")) == "A" ? "B" : "A"},
                                       before, "correct")});
  // cy: three tries at the sum, limit two: the third (right) one does not count.
  uint64_t cy_sum = assignment_seed(a, a.exercises[0], "cy");
  std::string cy = file("cy", {attempt("t.sum", cy_sum, {"s=1"}, before, "incorrect"),
                               attempt("t.sum", cy_sum, {"s=2"}, before + 1, "incorrect"),
                               attempt("t.sum", cy_sum, {"s=" + sum_answer(sum, cy_sum)}, before + 2, "correct")});
  ReportOptions opt;
  Report r = make_report(a, lib, {{"ana.json", ana}, {"bo.json", bo}, {"cy.json", cy}, {"junk.json", "[1, 2"}}, opt);
  ASSERT_EQ(r.students.size(), 3u);
  ASSERT_EQ(r.unreadable.size(), 1u);
  EXPECT_EQ(r.unreadable[0].file, "junk.json");
  const StudentReport& A = r.students[0];
  const StudentReport& B = r.students[1];
  const StudentReport& C = r.students[2];
  EXPECT_EQ(A.student, "ana");
  EXPECT_DOUBLE_EQ(A.points, 3);
  EXPECT_EQ(A.results[0].attempts_to_solve, 2);
  EXPECT_TRUE(A.flags.empty()) << A.flags[0];
  EXPECT_DOUBLE_EQ(B.points, 0);
  std::string bflags;
  for (const auto& f : B.flags) bflags += f + "\n";
  EXPECT_NE(bflags.find("another student's numbers (copied; not counted, not run): t.sum seed " + std::to_string(ana_sum) + " is ana's"),
            std::string::npos) << bflags;
  EXPECT_NE(bflags.find("after the due date"), std::string::npos) << bflags;
  EXPECT_NE(bflags.find("the file says correct, the engine incorrect"), std::string::npos) << bflags;
  EXPECT_DOUBLE_EQ(C.points, 0);
  EXPECT_EQ(C.results[0].attempts, 2);
  ASSERT_FALSE(C.flags.empty());
  EXPECT_NE(C.flags[0].find("beyond the limit of 2"), std::string::npos) << C.flags[0];
  // The gradebook: one row per student, points per exercise and in total.
  EXPECT_EQ(report_csv(r), "student,t.sum,t.pick,total,flag\r\nana,1,2,3,\r\nbo,0,0,0,\r\ncy,0,0,0,\r\n");
  // The item statistics name the known mistake.
  // cy's two guesses are one group (numbers aside), ana's product another.
  ASSERT_EQ(r.items[0].wrong.size(), 2u);
  EXPECT_EQ(r.items[0].wrong[0].attempts, 2);
  EXPECT_NE(r.items[0].wrong[1].diagnosis.find("product"), std::string::npos) << r.items[0].wrong[1].diagnosis;
  EXPECT_EQ(r.items[0].solved, 1);
  EXPECT_NE(report_items(r).find("the engine: Sum: That is the product."), std::string::npos) << report_items(r);
  // A pack that changed since the attempts is said once, for the report (not per student).
  std::string ana2 = file("ana", {attempt("t.sum", ana_sum, {"s=" + sum_answer(sum, ana_sum)}, before, "correct")});
  SubmissionRead rd = read_submission(ana2, "ana.json");
  Submission changed = *rd.submission;
  changed.attempts[0].pack = "test.json";
  changed.attempts[0].pack_sha256 = sha256_hex("an older text");
  opt.pack_sha256["test.json"] = sha256_hex(kPack);
  Report r2 = make_report(a, lib, {{"ana.json", write_submission(changed)}}, opt);
  ASSERT_EQ(r2.students.size(), 1u);
  EXPECT_TRUE(r2.students[0].flags.empty());
  ASSERT_EQ(r2.pack_notes.size(), 1u);
  EXPECT_NE(r2.pack_notes[0].find("test.json changed since 1 attempt by 1 student was made, and the version it was made on is not in the history"),
            std::string::npos) << r2.pack_notes[0];
  EXPECT_NE(report_table(r2).find("PACK CHANGED: test.json"), std::string::npos);
}

namespace {

std::string submission_file(const std::string& student, const std::vector<SubmittedAttempt>& attempts) {
  Submission s;
  s.assignment = "hw1";
  s.student = student;
  s.attempts = attempts;
  return write_submission(s);
}

// The product of t.sum's numbers: a wrong answer the engine knows.
std::string sum_product(const Exercise& ex, uint64_t seed) {
  Instance inst = must_instance(ex, seed);
  return format_number(inst.values[0].second * inst.values[1].second, 12);
}

std::string all_flags(const StudentReport& s) {
  std::string out;
  for (const auto& f : s.flags) out += f + "\n";
  return out;
}

}  // namespace

// Anyone can write any `student` into a file. A forged file with wrong attempts dated before
// the victim's used to be merged into theirs, its attempts ordered first, and so used up the
// victim's max_attempts: their right answers no longer counted. Each file is graded alone now.
TEST(Report, AFileClaimingAnotherStudentCannotLowerTheirGrade) {
  Library lib = course();
  const Exercise& sum = *lib.find("t.sum");
  const Exercise& pick = *lib.find("t.pick");
  Assignment a = must_assignment(assignment_text());  // max_attempts 2
  const int64_t before = a.due_unix - 3600;
  uint64_t s = assignment_seed(a, a.exercises[0], "ana"), p = assignment_seed(a, a.exercises[1], "ana");
  std::string wrong_pick = pick_answer(pick, p) == "A" ? "B" : "A";
  std::string ana = submission_file("ana", {attempt("t.sum", s, {"s=" + sum_product(sum, s)}, before, "incorrect"),
                                            attempt("t.sum", s, {"s=" + sum_answer(sum, s)}, before + 10, "correct"),
                                            attempt("t.pick", p, {pick_answer(pick, p)}, before + 20, "correct")});
  std::string forged = submission_file("ANA", {attempt("t.sum", s, {"s=1"}, before - 500, "incorrect"),
                                               attempt("t.sum", s, {"s=2"}, before - 400, "incorrect"),
                                               attempt("t.pick", p, {wrong_pick}, before - 300, "incorrect"),
                                               attempt("t.pick", p, {wrong_pick}, before - 200, "incorrect")});
  Report alone = make_report(a, lib, {{"ana.json", ana}}, {});
  ASSERT_EQ(alone.students.size(), 1u);
  ASSERT_DOUBLE_EQ(alone.students[0].points, 3);
  for (const auto& order : {std::vector<ReportInput>{{"ana.json", ana}, {"mallory.json", forged}},
                            std::vector<ReportInput>{{"mallory.json", forged}, {"ana.json", ana}}}) {
    Report r = make_report(a, lib, order, {});
    ASSERT_EQ(r.students.size(), 1u) << "one identity: ANA is ana";
    const StudentReport& A = r.students[0];
    EXPECT_DOUBLE_EQ(A.points, 3) << all_flags(A);
    EXPECT_EQ(A.results[0].attempts_to_solve, 2) << "ana's own file, in its own order";
    // Both files are named, loudly: first among the flags, on the row, above the table, in the CSV.
    EXPECT_TRUE(A.claimed_by_several_files);
    ASSERT_FALSE(A.flags.empty());
    EXPECT_EQ(A.flags[0].rfind("2 FILES CLAIM THIS STUDENT: ", 0), 0u) << A.flags[0];
    EXPECT_NE(A.flags[0].find("ana.json"), std::string::npos) << A.flags[0];
    EXPECT_NE(A.flags[0].find("mallory.json"), std::string::npos) << A.flags[0];
    std::string table = report_table(r);
    EXPECT_NE(table.find("WARNING: more than one file claims ana"), std::string::npos) << table;
    EXPECT_NE(table.find("3 / 3  ! 2 files"), std::string::npos) << table;
    std::string csv = report_csv(r);
    EXPECT_NE(csv.find("ana,1,2,3,"), std::string::npos) << csv;
    EXPECT_NE(csv.find("2 files claim this student: "), std::string::npos) << csv;
  }
}

// The limit counts attempts in the order the file lists them: a file that dates a later
// right answer before its wrong ones does not get it counted.
TEST(Report, AttemptsAreCountedInTheirOrderInTheFileNotByTheirTimes) {
  Library lib = course();
  const Exercise& sum = *lib.find("t.sum");
  Assignment a = must_assignment(assignment_text());  // max_attempts 2
  const int64_t before = a.due_unix - 3600;
  uint64_t s = assignment_seed(a, a.exercises[0], "cy");
  std::string cy = submission_file("cy", {attempt("t.sum", s, {"s=1"}, before, "incorrect"),
                                          attempt("t.sum", s, {"s=2"}, before + 1, "incorrect"),
                                          attempt("t.sum", s, {"s=" + sum_answer(sum, s)}, before - 9999, "correct")});
  Report r = make_report(a, lib, {{"cy.json", cy}}, {});
  ASSERT_EQ(r.students.size(), 1u);
  EXPECT_DOUBLE_EQ(r.students[0].points, 0) << all_flags(r.students[0]);
  EXPECT_NE(all_flags(r.students[0]).find("beyond the limit of 2"), std::string::npos) << all_flags(r.students[0]);
}

namespace {

const char* kCodePack = R"J({"format": 1, "chapter": 1, "id": "c", "title": "Code", "exercises": [
  {"id": "c.inc", "type": "code", "title": "Inc", "prompt": "p", "function": "f", "args": ["x"],
   "expected": "x + 1", "cases": [{"args": [1]}, {"args": [2]}]}]})J";

// Counts the programs it is asked to run; each "fails" with an error message full of
// terminal controls, as a student's `throw` can.
struct CountingRunner : CodeRunner {
  int runs = 0;
  CodeRunResult run(const CodeRunRequest&) override {
    ++runs;
    CodeRunResult res;
    res.kind = CodeRunResult::Kind::Runtime;
    res.error = "\x1b[2K\rcorrect (score 100%) \xE2\x80\xAE \xC2\x9B" "31m";
    res.error_line = 1;
    return res;
  }
};

}  // namespace

// An attempt that cannot count (beyond the limit, on another student's numbers, late) is not
// graded, so its code never runs: 1,000 infinite loops in one file used to cost 1,000 time
// limits. Counted by the runner, not timed.
TEST(Report, CodeOfAttemptsThatCannotCountIsNeverRun) {
  Library lib;
  lib.packs.push_back(must_load(kCodePack));
  Assignment a = must_assignment(R"({"format": "dtx-assignment/1", "id": "hw1", "title": "H", "due": "2026-12-05T17:00:00Z",
    "hand_in": "h", "exercises": ["c.inc"], "policies": {"max_attempts": 2}})");
  const int64_t before = a.due_unix - 3600;
  uint64_t mine = assignment_seed(a, a.exercises[0], "ana"), bos = assignment_seed(a, a.exercises[0], "bo");
  std::vector<SubmittedAttempt> attempts;
  for (int i = 0; i < 50; ++i)  // distinct programs, so none is a repeat of another
    attempts.push_back(attempt("c.inc", mine, {"function f(x) { while (true) {} } // " + std::to_string(i)}, before + i));
  for (int i = 0; i < 20; ++i) attempts.push_back(attempt("c.inc", bos, {"function f(x) { /* copy */ } // " + std::to_string(i)}, before));
  for (int i = 0; i < 20; ++i) attempts.push_back(attempt("c.inc", mine, {"function f(x) { /* late */ } // " + std::to_string(i)}, a.due_unix + 60));
  CountingRunner runner;
  ReportOptions opt;
  opt.services.runner = &runner;
  Report r = make_report(a, lib, {{"ana.json", submission_file("ana", attempts)}, {"bo.json", submission_file("bo", {})}}, opt);
  EXPECT_EQ(runner.runs, 2) << "the two attempts within the limit, and nothing else";
  ASSERT_EQ(r.students.size(), 2u);
  EXPECT_EQ(r.students[0].results[0].attempts, 2);
  std::string flags = all_flags(r.students[0]);
  EXPECT_NE(flags.find("48 attempts beyond the limit of 2 (not counted, not run)"), std::string::npos) << flags;
  EXPECT_NE(flags.find("20 attempts on another student's numbers"), std::string::npos) << flags;
  EXPECT_NE(flags.find("20 attempts after the due date"), std::string::npos) << flags;
  // The same file handed in twice: its programs are not run again.
  runner.runs = 0;
  std::string twice = submission_file("ana", attempts);
  make_report(a, lib, {{"a1.json", twice}, {"a2.json", twice}}, opt);
  EXPECT_EQ(runner.runs, 2);
}

// A class with control sequences and bidi overrides wherever a file can put text: the table
// and the item statistics show them as escapes, and the grades are right.
TEST(Report, NoTerminalControlFromAFileReachesTheOutput) {
  Library lib = course();
  lib.packs.push_back(must_load(kCodePack));
  const Exercise& sum = *lib.find("t.sum");
  Assignment a = must_assignment(R"({"format": "dtx-assignment/1", "id": "hw1", "title": "H", "due": "2026-12-05T17:00:00Z",
    "hand_in": "h", "exercises": ["t.sum", "c.inc"], "policies": {"max_attempts": 3}})");
  const int64_t before = a.due_unix - 3600;
  const std::string evil = "\x1b[2K\r\xE2\x80\xAE\xC2\x9B" "ana  3 / 3 correct (score 100%)\n";
  uint64_t s = assignment_seed(a, a.exercises[0], "ana"), m = assignment_seed(a, a.exercises[0], "mal");
  std::string ana = submission_file("ana", {attempt("t.sum", s, {"s=" + sum_answer(sum, s)}, before, "correct")});
  std::string mal = submission_file("mal", {attempt("t.sum", m, {"s=" + evil}, before, "correct"),
                                            attempt("t.sum", m, {"s=" + sum_product(sum, m)}, before + 1, evil),
                                            attempt("c.inc", assignment_seed(a, a.exercises[1], "mal"), {"throw 1"}, before + 2)});
  // The exercise field: left out with its error quoted; an unknown assignment; a bad file name.
  mal.replace(mal.find("\"attempts\": ["), 13, "\"attempts\": [{\"exercise\": \"t.sum" + std::string("\\u001b[2K\\r\\u202e") +
                                                   "\", \"seed\": 1, \"answer\": [\"s=1\"], \"at\": \"2026-12-05T10:00:00Z\"},");
  std::string other = R"({"format": "dtx-submission/1", "assignment": "hw1\u001b[2K\rX", "student": "cy", "attempts": []})";
  CountingRunner runner;
  ReportOptions opt;
  opt.services.runner = &runner;
  Report r = make_report(a, lib, {{"ana.json", ana}, {"mal\x1b[2K.json", mal}, {"other.json", other}}, opt);
  std::string out = report_table(r) + report_items(r);
  EXPECT_EQ(out.find('\x1b'), std::string::npos) << out;
  EXPECT_EQ(out.find('\r'), std::string::npos) << out;
  EXPECT_EQ(out.find("\xE2\x80\xAE"), std::string::npos) << "no right-to-left override";
  EXPECT_EQ(out.find("\xC2\x9B"), std::string::npos) << "no C1 CSI";
  EXPECT_TRUE(is_terminal_safe(out, true)) << out;
  EXPECT_NE(out.find("\\x1b[2K"), std::string::npos) << "shown as an escape: " << out;
  EXPECT_NE(out.find("\\u202e"), std::string::npos) << out;
  // Every line of the table is one the report wrote: no student text starts a row.
  EXPECT_EQ(out.find("\nana  3 / 3"), std::string::npos) << out;
  EXPECT_EQ(report_csv(r), "student,t.sum,c.inc,total,flag\r\nana,1,0,1,\r\nmal,0,0,0,\r\n");
  ASSERT_EQ(r.unreadable.size(), 1u);
  EXPECT_EQ(r.unreadable[0].file, "other.json");
}

TEST(Report, GradebookCellsNeverStartAFormula) {
  Library lib = course();
  Assignment a = must_assignment(assignment_text());
  std::string f = submission_file("ana", {});
  // A file name is the one thing in the CSV a student chooses freely (the flag column).
  Report r = make_report(a, lib, {{"=cmd|'-C calc'!A0.json", f}, {"x;=HYPERLINK(1).json", f}}, {});
  ASSERT_EQ(r.students.size(), 1u);
  std::string csv = report_csv(r);
  EXPECT_EQ(csv, "student,t.sum,t.pick,total,flag\r\nana,0,0,0,\"2 files claim this student: =cmd|'-C calc'!A0.json; "
                 "x;=HYPERLINK(1).json\"\r\n") << csv;
  // Each cell, split at ',' or at ';' (the separator of some locales), starts safely or is quoted whole.
  for (char sep : {',', ';'}) {
    size_t start = 0;
    bool quoted = false;
    for (size_t i = 0; i <= csv.size(); ++i) {
      if (i < csv.size() && csv[i] == '"') quoted = !quoted;
      if (i == csv.size() || (!quoted && (csv[i] == sep || csv[i] == '\n'))) {
        if (start < csv.size()) EXPECT_EQ(std::string("=+-@").find(csv[start]), std::string::npos) << csv.substr(start, 20);
        start = i + 1;
      }
    }
  }
}

TEST(Submission, IdsOutsideTheSafeSetAreRefusedWhereTheyAre) {
  SubmissionRead r = read_submission("{\"format\": \"dtx-submission/1\", \"assignment\": \"hw1\",\n"
                                     " \"student\": \"ana;=1+1\", \"attempts\": []}", "s.json");
  EXPECT_FALSE(r.submission);
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_EQ(r.diagnostics[0].pointer, "/student");
  EXPECT_EQ(r.diagnostics[0].line, 2);
  EXPECT_EQ(r.diagnostics[0].column, 17) << "at the ';' itself";
  EXPECT_NE(r.diagnostics[0].message.find("character 4 is ';'"), std::string::npos) << r.diagnostics[0].message;
  r = read_submission(R"({"format": "dtx-submission/1", "assignment": "HW 1", "student": "ana", "attempts": []})", "s.json");
  EXPECT_FALSE(r.submission) << "an assignment id outside lower-case letters, digits and '-'";
  r = read_submission(R"({"format": "dtx-submission/1", "assignment": "hw1", "student": "ana", "attempts": [
    {"exercise": "t.sum\t;x", "seed": 1, "answer": ["s=3"], "at": "2026-12-01T10:00:00Z"},
    {"exercise": "t.sum", "seed": 1, "answer": ["s=3"], "at": "2026-12-01T10:00:00Z"}]})", "s.json");
  ASSERT_TRUE(r.submission);
  EXPECT_EQ(r.submission->attempts.size(), 1u) << "the attempt with a bad exercise id is left out";
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].pointer, "/attempts/0/exercise");
  EXPECT_EQ(r.diagnostics[0].line, 2);
}

TEST(Assignment, ExerciseIdsFollowThePacksRule) {
  std::string text = assignment_text();
  text.replace(text.find("\"t.sum\""), 7, "\"t.sum;=1\"");
  AssignmentLoad l = load_assignment(text, "a.json");
  EXPECT_FALSE(l.assignment);
  ASSERT_FALSE(l.diagnostics.empty());
  EXPECT_EQ(std::string(diag_info(l.diagnostics[0].code).id), "E015");
  EXPECT_EQ(l.diagnostics[0].pointer, "/exercises/0");
}

TEST(TextEscape, ControlsAndBidiBecomeVisibleEscapes) {
  EXPECT_EQ(terminal_safe("plain ascii, é × ∞ 日本"), "plain ascii, é × ∞ 日本");
  EXPECT_EQ(terminal_safe("a\x1b[2K\rb"), "a\\x1b[2K\\x0db");
  EXPECT_EQ(terminal_safe("a\nb\tc"), "a\\x0ab\\x09c");
  EXPECT_EQ(terminal_safe("a\nb\tc\r", true), "a\nb\tc\\x0d") << "keep_layout keeps newlines and tabs only";
  EXPECT_EQ(terminal_safe("\x7f"), "\\x7f");
  EXPECT_EQ(terminal_safe("\xC2\x9B" "31m"), "\\u009b31m") << "C1 CSI";
  EXPECT_EQ(terminal_safe("x\xE2\x80\xAEy\xE2\x81\xA6z"), "x\\u202ey\\u2066z");
  EXPECT_EQ(terminal_safe("\xE2\x80\x8F\xE2\x80\xA8"), "\\u200f\\u2028");
  EXPECT_EQ(terminal_safe("\x9b" "31m"), "\\x9b31m") << "a lone byte that is not UTF-8";
  EXPECT_EQ(terminal_safe("\xE2\x80"), "\\xe2\\x80") << "a cut sequence";
  EXPECT_EQ(terminal_safe("\xC0\x9B"), "\\xc0\\x9b") << "an overlong form";
  EXPECT_EQ(terminal_safe("\xED\xA0\x80"), "\\xed\\xa0\\x80") << "a surrogate";
}

// Extensions and late work (docs/AUTHORING.md, "Extensions and late work"): bo has until a
// day later; everyone else's attempts count until the late window closes, at 10 % less per
// day begun late; after it, nothing counts. The page (item_standing) and the report agree.
TEST(Assignment, ExtensionsAndTheLatePolicy) {
  const std::string text = R"({"format": "dtx-assignment/1", "id": "hw1", "title": "Homework 1", "due": "2026-12-05T17:00:00+01:00",
    "hand_in": "Upload it.", "exercises": ["t.sum", {"id": "t.pick", "points": 2}],
    "extensions": {"Bo": "2026-12-06T17:00:00+01:00"},
    "policies": {"late": {"until": "2026-12-08T17:00:00+01:00", "penalty_per_day": 0.1}}})";
  Assignment a = must_assignment(text);
  const int64_t due = a.due_unix, day = 86400;
  EXPECT_EQ(a.due_for("bo"), due + day);
  EXPECT_EQ(a.due_for("ana"), due);
  EXPECT_EQ(a.late_factor("ana", due), 1.0);
  EXPECT_NEAR(*a.late_factor("ana", due + 3600), 0.9, 1e-12);     // one day begun
  EXPECT_NEAR(*a.late_factor("ana", due + day + 1), 0.8, 1e-12);  // two
  EXPECT_FALSE(a.late_factor("ana", due + 3 * day + 1));          // the window has closed
  EXPECT_EQ(a.late_factor("bo", due + day), 1.0);                 // his own due date
  EXPECT_NEAR(*a.late_factor("bo", due + day + 60), 0.9, 1e-12);
  // The report: ana's late right answer to t.sum counts at 0.9, with a flag.
  Library lib = course();
  const Exercise& sum = *lib.find("t.sum");
  uint64_t seed = assignment_seed(a, a.exercises[0], "ana");
  Submission s;
  s.assignment = "hw1";
  s.student = "ana";
  s.attempts = {attempt("t.sum", seed, {"s=" + sum_answer(sum, seed)}, due + 3600, "correct")};
  Report r = make_report(a, lib, {{"ana.json", write_submission(s)}}, {});
  ASSERT_EQ(r.students.size(), 1u);
  EXPECT_NEAR(r.students[0].points, 0.9, 1e-12);
  std::string flags;
  for (const auto& f : r.students[0].flags) flags += f + "\n";
  EXPECT_NE(flags.find("1 attempt counted late, at a penalty: t.sum at 2026-12-05 18:00 +01:00 (1 h late: its score times 0.9)"),
            std::string::npos) << flags;
  EXPECT_NE(report_table(r).find("Late work counts until 2026-12-08 17:00 +01:00, its score times 1 - 0.1 per day begun late"),
            std::string::npos);
  s.attempts[0].score = 1;
  EXPECT_NEAR(item_standing(a, a.exercises[0], s, "ana").best, 0.9, 1e-12);
  // What is wrong is named where it is.
  auto problem = [](const std::string& policies, const std::string& extensions = "{}") {
    AssignmentLoad l = load_assignment(R"({"format": "dtx-assignment/1", "id": "x", "title": "X", "due": "2026-12-05T17:00:00Z",
      "hand_in": "h", "exercises": ["t.sum"], "extensions": )" + extensions + R"(, "policies": )" + policies + "}", "x.json");
    return l.diagnostics.empty() ? std::string("none") : format_diagnostic(l.diagnostics[0]);
  };
  EXPECT_NE(problem(R"({"late": {"until": "2026-12-04T17:00:00Z", "factor": 0.5}})").find("/policies/late/until: the late window must end after"), std::string::npos);
  EXPECT_NE(problem(R"({"late": {"until": "2026-12-07T17:00:00Z"}})").find("expected one of \"penalty_per_day\""), std::string::npos);
  EXPECT_NE(problem(R"({"late": {"until": "2026-12-07T17:00:00Z", "factor": 2}})").find("/policies/late/factor: expected a share from 0 to 1"), std::string::npos);
  EXPECT_NE(problem("{}", R"({"ana;x": "2026-12-07T17:00:00Z"})").find("/extensions/ana;x: \"ana;x\" is not a student identifier"), std::string::npos);
  EXPECT_NE(problem("{}", R"({"ana": "2026-12-04T17:00:00Z"})").find("an extension must be later than the due date"), std::string::npos);
  EXPECT_EQ(problem(R"({"late": {"until": "2026-12-07T17:00:00Z", "factor": 0.5}})", R"({"ana": "2026-12-06T17:00:00Z"})"), "none");
}

// Question pools: each student gets `pick` of a pool's exercises, the same set in the page
// (given), the SCORM status and the report; sets differ between students; totals do not.
TEST(Assignment, PoolsGiveEachStudentTheirOwnPicks) {
  Assignment a = must_assignment(R"({"format": "dtx-assignment/1", "id": "hw-pool", "title": "Pools", "due": "2026-12-05T17:00:00Z",
    "hand_in": "h", "exercises": ["t.sum", {"pool": "choose", "pick": 1, "from": ["t.pick", "t.other"], "points": 2}]})");
  ASSERT_EQ(a.exercises.size(), 3u);
  ASSERT_EQ(a.pools.size(), 1u);
  EXPECT_DOUBLE_EQ(a.total_points(), 3.0);
  std::set<std::string> sets;
  for (int i = 0; i < 40; ++i) {
    const std::string student = "s" + std::to_string(i);
    int given = 0;
    std::string set;
    for (const auto& item : a.exercises)
      if (a.given(item, student)) ++given, set += item.id + " ";
    EXPECT_EQ(given, 2) << student;
    EXPECT_TRUE(a.given(a.exercises[0], student));
    EXPECT_EQ(a.given(a.exercises[1], student), a.given(a.exercises[1], student)) << "deterministic";
    sets.insert(set);
  }
  EXPECT_EQ(sets.size(), 2u) << "over 40 students both members are picked";
  // The report: an attempt on the member a student was not given is flagged and not counted.
  Library lib = course();
  const AssignmentItem* pick = a.item("t.pick");
  std::string student;
  for (int i = 0; student.empty(); ++i)
    if (!a.given(*pick, "s" + std::to_string(i))) student = "s" + std::to_string(i);
  Submission s;
  s.assignment = "hw-pool";
  s.student = student;
  uint64_t seed = assignment_seed(a, *pick, student);
  s.attempts = {attempt("t.pick", seed, {pick_answer(*lib.find("t.pick"), seed)}, a.due_unix - 60, "correct")};
  Report r = make_report(a, lib, {{"s.json", write_submission(s)}}, {});
  ASSERT_EQ(r.students.size(), 1u);
  EXPECT_EQ(r.students[0].points, 0);
  std::string flags;
  for (const auto& f : r.students[0].flags) flags += f;
  EXPECT_NE(flags.find("1 attempt on pool exercises this student was not given (not counted, not run): t.pick"), std::string::npos) << flags;
  EXPECT_NE(report_table(r).find(". not in this student's pool picks"), std::string::npos);
  EXPECT_DOUBLE_EQ(scorm_status(a, s, student, std::nullopt).max, 3.0);
  // Lint names a pool that picks more than it has.
  AssignmentLoad bad = load_assignment(R"({"format": "dtx-assignment/1", "id": "x", "title": "X", "due": "2026-12-05T17:00:00Z",
    "hand_in": "h", "exercises": [{"pool": "p", "pick": 3, "from": ["t.sum", "t.pick"]}]})", "x.json");
  ASSERT_FALSE(bad.diagnostics.empty());
  EXPECT_NE(format_diagnostic(bad.diagnostics[0]).find("/exercises/0/pick"), std::string::npos) << format_diagnostic(bad.diagnostics[0]);
}

TEST(Assignment, FeedbackPolicyIsReadAndChecked) {
  auto load = [](const std::string& feedback) {
    return load_assignment(R"({"format": "dtx-assignment/1", "id": "x", "title": "X", "due": "2026-12-05T17:00:00Z",
      "hand_in": "h", "exercises": ["t.sum"], "policies": {"feedback": ")" + feedback + R"("}})", "x.json");
  };
  EXPECT_EQ(load("after-due").assignment->feedback, FeedbackPolicy::AfterDue);
  EXPECT_EQ(load("immediate").assignment->feedback, FeedbackPolicy::Immediate);
  AssignmentLoad bad = load("after_due");
  ASSERT_FALSE(bad.diagnostics.empty());
  EXPECT_NE(format_diagnostic(bad.diagnostics[0]).find("/policies/feedback: expected \"immediate\" or \"after-due\" (exam mode), got \"after_due\" (did you mean \"after-due\"?)"),
            std::string::npos) << format_diagnostic(bad.diagnostics[0]);
}
