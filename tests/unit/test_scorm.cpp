// An assignment in an LMS (engine/scorm.h): the standing and status the page reports, each
// interaction's SCORM form, the resume state within cmi.suspend_data's 64,000 characters, and
// the manifest. The browser half, under a real SCORM runtime, is tests/e2e/scorm.mjs.
#include <gtest/gtest.h>

#include <iostream>

#include "assignment.h"
#include "scorm.h"
#include "submission.h"

using namespace dtx;

namespace {

Assignment make_assignment(int items, const std::string& policies = R"({"max_attempts": 3, "passing_score": 0.6})") {
  std::string list;
  for (int i = 0; i < items; ++i) list += std::string(i ? ", " : "") + "{\"id\": \"t.e" + std::to_string(i) + "\", \"points\": " + (i == 1 ? "2" : "1") + "}";
  std::string text = R"({"format": "dtx-assignment/1", "id": "hw-scorm", "title": "Homework <1> & \"more\"",
    "due": "2026-12-05T17:00:00+01:00", "hand_in": "In the LMS.", "exercises": [)" + list + "], \"policies\": " + policies + "}";
  AssignmentLoad l = load_assignment(text, "hw.json");
  EXPECT_TRUE(l.assignment) << (l.diagnostics.empty() ? "" : format_diagnostic(l.diagnostics[0]));
  return *l.assignment;
}

SubmittedAttempt attempt(const Assignment& a, const std::string& student, int item, const std::string& verdict,
                         double score, int64_t at, std::vector<std::string> words = {"s=5"}) {
  SubmittedAttempt x;
  x.exercise = a.exercises[item].id;
  x.seed = assignment_seed(a, a.exercises[item], student);
  x.answer = std::move(words);
  x.verdict = verdict;
  x.score = score;
  x.at = at;
  x.pack = "00-test.json";
  x.pack_sha256 = std::string(64, 'a');
  return x;
}

const int64_t kDue = 1796486400;  // 2026-12-05T16:00:00Z

}  // namespace

TEST(Scorm, StatusCountsOwnNumbersByTheDueDateWithinTheLimit) {
  Assignment a = make_assignment(3);
  Submission log;
  log.attempts = {attempt(a, "ana", 0, "incorrect", 0, kDue - 100), attempt(a, "ana", 0, "correct", 1, kDue - 50),
                  attempt(a, "ana", 1, "partial", 0.5, kDue - 40)};
  SubmittedAttempt other = attempt(a, "ana", 2, "correct", 1, kDue - 30);
  other.seed += 1;  // a classmate's numbers: practice, not counted
  log.attempts.push_back(other);
  log.attempts.push_back(attempt(a, "ana", 2, "correct", 1, kDue + 10));  // late
  ScormStatus st = scorm_status(a, log, "ana", std::nullopt);
  EXPECT_DOUBLE_EQ(st.raw, 2.0);  // 1 + 0.5 * 2
  EXPECT_DOUBLE_EQ(st.max, 4.0);
  EXPECT_DOUBLE_EQ(st.scaled, 0.5);
  EXPECT_FALSE(st.completed);
  EXPECT_NEAR(st.progress, 2.0 / 3, 1e-12);
  EXPECT_EQ(st.success, "failed");  // 0.5 < the assignment's 0.6
  EXPECT_EQ(scorm_status(a, log, "ana", 0.5).success, "passed");  // the LMS's passing score wins
  // The attempt limit: a fourth attempt on item 1 does not count.
  for (int i = 0; i < 2; ++i) log.attempts.push_back(attempt(a, "ana", 1, "incorrect", 0, kDue - 20 + i));
  log.attempts.push_back(attempt(a, "ana", 1, "correct", 1, kDue - 10));
  EXPECT_EQ(item_standing(a, a.exercises[1], log, "ana").attempts, 3);
  EXPECT_DOUBLE_EQ(scorm_status(a, log, "ana", std::nullopt).raw, 2.0);
  Assignment none = make_assignment(1, "{}");
  EXPECT_EQ(scorm_status(none, Submission{}, "ana", std::nullopt).success, "unknown");
}

TEST(Scorm, InteractionsAreInTheRunTimesForms) {
  Assignment a = make_assignment(2);
  SubmittedAttempt at = attempt(a, "ana", 1, "partial", 0.5, kDue - 3600, {"line 1\nline 2", "x=\"q\""});
  ScormInteraction in = scorm_interaction(at, "A title", 2, 65.5);
  EXPECT_EQ(in.id, "t.e1");
  EXPECT_EQ(in.type, "other");
  EXPECT_EQ(in.result, "0.5");
  EXPECT_EQ(in.timestamp, "2026-12-05T15:00:00.0Z");
  EXPECT_EQ(in.latency, "PT1M5.5S");
  EXPECT_EQ(in.learner_response.find('\n'), std::string::npos) << "a response is one line";
  EXPECT_EQ(in.learner_response, "{\"seed\":" + std::to_string(at.seed) + ",\"answer\":[\"line 1\\nline 2\",\"x=\\\"q\\\"\"]}");
  EXPECT_DOUBLE_EQ(in.weighting, 2);
  EXPECT_EQ(scorm_interaction(attempt(a, "ana", 0, "correct", 1, kDue), "t", 1, 0).result, "correct");
  EXPECT_EQ(scorm_interaction(attempt(a, "ana", 0, "incorrect", 0, kDue), "t", 1, 0).result, "incorrect");
  SubmittedAttempt big = attempt(a, "ana", 0, "incorrect", 0, kDue, {std::string(5000, 'x')});
  EXPECT_LE(scorm_interaction(big, "t", 1, 0).learner_response.size(), kScormResponseChars);
  EXPECT_EQ(scorm_timespan(3725), "PT1H2M5S");
  EXPECT_EQ(scorm_timespan(0), "PT0S");
}

TEST(Scorm, SuspendDataRoundTripsEveryAttempt) {
  Assignment a = make_assignment(3);
  Submission log;
  log.assignment = a.id;
  log.student = "ana";
  log.attempts = {attempt(a, "ana", 0, "incorrect", 0, kDue - 100, {"s=4"}),
                  attempt(a, "ana", 1, "partial", 0.25, kDue - 90, {"a", "b"})};
  SubmittedAttempt other = attempt(a, "ana", 2, "correct", 1, kDue - 80, {"int f() {\n  return 1;\n}"});
  other.seed = 12345;
  log.attempts.push_back(other);
  SuspendWrite w = write_suspend(a, log, "ana", 2);
  EXPECT_EQ(w.dropped_words, 0);
  SuspendRead r = read_suspend(w.text, a, "ana");
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(r.reported, 2);
  ASSERT_EQ(r.log.attempts.size(), 3u);
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(r.log.attempts[i].key(), log.attempts[i].key()) << i;
  EXPECT_EQ(r.log.attempts[2].seed, 12345u);
  EXPECT_EQ(r.log.attempts[1].pack_sha256, std::string(64, 'a'));
  // Resumed into a browser that has some of them: each attempt once.
  Submission local;
  local.attempts = {log.attempts[0]};
  EXPECT_EQ(merge_resumed(local, r.log).attempts.size(), 3u);
  EXPECT_FALSE(read_suspend("{\"v\":2}", a, "ana").error.empty());
  EXPECT_FALSE(read_suspend("not json", a, "ana").error.empty());
  EXPECT_FALSE(read_suspend(R"({"v":1,"t":0,"p":[],"a":[[0,null,0,"c",1,5,[]]]})", a, "ana").error.empty());
}

// 30 exercises, each with the most attempts the limit counts and a long program each time:
// the resume state stays within 64,000 characters, and what it gives up first is the words
// of attempts that are neither an item's best nor its latest.
TEST(Scorm, SuspendDataOfThirtyExercisesFits) {
  Assignment a = make_assignment(30, R"({"max_attempts": 10})");
  Submission log;
  int64_t t = kDue - 100000;
  for (int round = 0; round < 10; ++round)
    for (int i = 0; i < 30; ++i)
      log.attempts.push_back(attempt(a, "ana", i, round == 9 ? "correct" : "incorrect", round == 9 ? 1 : 0, t++,
                                     {"part1=" + std::to_string(round * 1000 + i) + " GB", "part2=3.5 ms"}));
  SuspendWrite small = write_suspend(a, log, "ana", 300);
  EXPECT_LE(small.text.size(), kScormSuspendChars);
  EXPECT_EQ(small.dropped_words, 0) << "300 numeric attempts fit whole: " << small.text.size() << " characters";
  // Programs of 400 characters: the older attempts' words go.
  for (auto& at : log.attempts) at.answer = {std::string(400, 'p')};
  SuspendWrite big = write_suspend(a, log, "ana", 300);
  EXPECT_LE(big.text.size(), kScormSuspendChars);
  EXPECT_GT(big.dropped_words, 0);
  EXPECT_EQ(big.dropped_attempts, 0);
  std::cout << "suspend data of 30 exercises x 10 attempts: " << small.text.size() << " characters with numeric answers; "
            << big.text.size() << " with 400-character programs (" << big.dropped_words << " answers' words left out)\n";
  SuspendRead r = read_suspend(big.text, a, "ana");
  ASSERT_TRUE(r.error.empty()) << r.error;
  ASSERT_EQ(r.log.attempts.size(), 300u);
  for (size_t i = 270; i < 300; ++i) EXPECT_EQ(r.log.attempts[i].answer, log.attempts[i].answer) << "latest of each kept";
  EXPECT_TRUE(r.log.attempts[0].answer.empty());
}

TEST(Scorm, ManifestNamesTheScoItsFilesAndThePassingScore) {
  Assignment a = make_assignment(2);
  std::string m = scorm_manifest(a, "index.html", {"index.html", "dtx.wasm", "exercises/a&b.json"});
  EXPECT_NE(m.find("<schemaversion>2004 4th Edition</schemaversion>"), std::string::npos);
  EXPECT_NE(m.find("adlcp:scormType=\"sco\" href=\"index.html\""), std::string::npos);
  EXPECT_NE(m.find("<title>Homework &lt;1&gt; &amp; &quot;more&quot;</title>"), std::string::npos);
  EXPECT_NE(m.find("<imsss:minNormalizedMeasure>0.6</imsss:minNormalizedMeasure>"), std::string::npos);
  EXPECT_NE(m.find("<file href=\"exercises/a&amp;b.json\"/>"), std::string::npos);
  EXPECT_EQ(scorm_manifest(make_assignment(1, "{}"), "index.html", {}).find("minNormalizedMeasure"), std::string::npos);
}

TEST(Scorm, LearnerIdsBecomeIdentifiers) {
  EXPECT_EQ(identifier_from_learner_id("Ana@Uni.Example"), "ana@uni.example");
  EXPECT_EQ(identifier_from_learner_id("12345"), "12345");
  std::string odd = identifier_from_learner_id("Ana María; 7");
  EXPECT_EQ(odd.rfind("lms-", 0), 0u);
  EXPECT_EQ(odd.size(), 20u);
  EXPECT_EQ(odd, identifier_from_learner_id("Ana María; 7"));
}

TEST(Scorm, PassingScoreIsAShare) {
  AssignmentLoad l = load_assignment(R"({"format": "dtx-assignment/1", "id": "x", "title": "X", "due": "2026-12-05T17:00:00Z", "hand_in": "LMS",
    "exercises": ["a.b"], "policies": {"passing_score": 60}})", "x.json");
  std::string all;
  for (const auto& d : l.diagnostics) all += format_diagnostic(d) + "\n";
  EXPECT_FALSE(l.assignment);
  EXPECT_NE(all.find("x.json:2:57: error[E013]: /policies/passing_score: expected a share of the points from 0 to 1"),
            std::string::npos) << all;
}
