#include "submission.h"

#include <algorithm>
#include <set>

#include "assignment.h"
#include "json_fields.h"
#include "text.h"

namespace dtx {

std::string SubmittedAttempt::key() const {
  // Unit separators cannot occur in the fields that matter (answers may hold anything but
  // a code answer is one word, so its text is delimited on both sides).
  std::string k = exercise + '\x1f' + std::to_string(seed) + '\x1f' + std::to_string(at) + '\x1f' + verdict;
  for (const auto& w : answer) k += '\x1e' + w;
  return k;
}

namespace {

bool read_attempt(LoadContext& ctx, const Json& a, const std::string& p, SubmittedAttempt& out) {
  size_t before = ctx.errors;
  if (!ctx.expect_object(a, p, "an attempt")) return false;
  ctx.check_fields(a, p, {"exercise", "seed", "answer", "verdict", "score", "at", "pack", "pack_sha256"},
                   {"exercise", "seed", "answer", "at"});
  out.pointer = p;
  if (auto e = ctx.string_field(a, p, "exercise", true)) {
    // An exercise id is printed in flags and looked up in the course: the packs' own rule.
    if (!valid_id(*e, true) || e->size() > kMaxIdChars)
      ctx.error(DiagCode::BadName, p + "/exercise",
                "expected an exercise id (lower-case letters, digits, '-' and '.', at most " +
                    std::to_string(kMaxIdChars) + "), got \"" + excerpt(*e, 60) + "\"");
    else
      out.exercise = *e;
  }
  if (auto s = ctx.int_field(a, p, "seed", true, 0, 9007199254740991LL)) out.seed = static_cast<uint64_t>(*s);
  if (auto it = a.find("answer"); it != a.end()) {
    if (!it->is_array() || it->size() > kMaxAnswerWords) {
      ctx.error(DiagCode::WrongKind, p + "/answer",
                "expected the answer as an array of at most " + std::to_string(kMaxAnswerWords) +
                    " strings (the words `dtx grade` reads), got " + describe_json(*it));
    } else {
      for (size_t i = 0; i < it->size(); ++i) {
        if (!(*it)[i].is_string()) {
          ctx.error(DiagCode::WrongKind, p + "/answer/" + std::to_string(i), "expected a string, got " + describe_json((*it)[i]));
          break;
        }
        out.answer.push_back((*it)[i].get<std::string>());
      }
    }
  }
  if (auto v = ctx.string_field(a, p, "verdict", false, false)) out.verdict = *v;
  if (auto sc = ctx.number_field(a, p, "score", false)) out.score = std::clamp(*sc, 0.0, 1.0);
  if (auto at = ctx.string_field(a, p, "at", true)) {
    int off = 0;
    if (!parse_datetime(*at, &out.at, &off))
      ctx.error(DiagCode::BadDateTime, p + "/at", "expected a time like \"2026-12-04T20:10:41Z\", got \"" + excerpt(*at, 40) + "\"");
  }
  if (auto f = ctx.string_field(a, p, "pack", false, false)) out.pack = *f;
  if (auto h = ctx.string_field(a, p, "pack_sha256", false, false)) out.pack_sha256 = *h;
  return ctx.errors == before;
}

}  // namespace

SubmissionRead read_submission(const std::string& text, const std::string& file) {
  SubmissionRead res;
  auto parsed = read_json_document(text, file, kMaxSubmissionBytes, "the most a submission may be", res.diagnostics);
  if (!parsed) return res;
  // Problems with the file itself make it unusable; a bad attempt is left out and named, and
  // the rest of the file still counts.
  LoadContext ctx = load_context(*parsed, file, res.diagnostics);
  const Json& doc = parsed->doc;
  if (!check_json_document(*parsed, ctx) || !ctx.expect_object(doc, "", "a submission")) return res;
  Submission s;
  ctx.check_fields(doc, "", {"$schema", "format", "assignment", "student", "created", "site", "attempts"},
                   {"format", "assignment", "student", "attempts"});
  if (auto f = ctx.string_field(doc, "", "format", true); f && *f != kSubmissionFormat)
    ctx.error(DiagCode::UnsupportedFormat, "/format",
              std::string("this engine reads submissions of format \"") + kSubmissionFormat + "\", got \"" + excerpt(*f, 40) + "\"");
  if (auto a = ctx.string_field(doc, "", "assignment", true)) {
    if (!valid_id(*a, false) || a->size() > kMaxIdChars)
      ctx.error(DiagCode::BadName, "/assignment",
                "expected an assignment id (lower-case letters, digits and '-'), got \"" + excerpt(*a, 60) + "\"");
    else
      s.assignment = *a;
  }
  if (auto st = ctx.string_field(doc, "", "student", true)) {
    std::string why;
    size_t at = 0;
    if (auto n = normalize_student_id(*st, &why, &at)) s.student = *n;
    else ctx.error(DiagCode::ValueNotAllowed, "/student", "not a student identifier: " + why, false, utf8_column(*st, at));
  }
  if (auto c = ctx.string_field(doc, "", "created", false)) {
    int off = 0;
    if (!parse_datetime(*c, &s.created, &off))
      ctx.error(DiagCode::BadDateTime, "/created", "expected a time like \"2026-12-04T20:11:05Z\", got \"" + excerpt(*c, 40) + "\"");
  }
  ctx.string_field(doc, "", "site", false, false);
  ctx.string_field(doc, "", "$schema", false);
  const Json* attempts = nullptr;
  if (auto it = doc.find("attempts"); it != doc.end()) {
    if (!it->is_array())
      ctx.error(DiagCode::WrongKind, "/attempts", "expected an array of attempts, got " + describe_json(*it));
    else if (it->size() > kMaxSubmittedAttempts)
      ctx.error(DiagCode::WrongCount, "/attempts",
                "a submission holds at most " + std::to_string(kMaxSubmittedAttempts) + " attempts, this one " +
                    std::to_string(it->size()));
    else
      attempts = &*it;
  }
  if (ctx.failed()) return res;
  for (size_t i = 0; attempts && i < attempts->size(); ++i) {
    SubmittedAttempt at;
    if (read_attempt(ctx, (*attempts)[i], "/attempts/" + std::to_string(i), at)) s.attempts.push_back(std::move(at));
  }
  // Problems inside attempts do not make the file unusable: those attempts are left out.
  for (auto& d : res.diagnostics) d.message += " (this attempt is left out)";
  res.submission = std::move(s);
  return res;
}

std::string write_submission(const Submission& s) {
  Json j = Json::object();
  j["format"] = kSubmissionFormat;
  j["assignment"] = s.assignment;
  j["student"] = s.student;
  if (s.created) j["created"] = format_utc(s.created);
  Json list = Json::array();
  for (const auto& a : s.attempts) {
    Json o = Json::object();
    o["exercise"] = a.exercise;
    o["seed"] = a.seed;
    o["answer"] = a.answer;
    o["verdict"] = a.verdict;
    o["score"] = a.score;
    o["at"] = format_utc(a.at);
    if (!a.pack.empty()) o["pack"] = a.pack;
    if (!a.pack_sha256.empty()) o["pack_sha256"] = a.pack_sha256;
    list.push_back(std::move(o));
  }
  j["attempts"] = std::move(list);
  // Invalid UTF-8 in an answer is replaced, never thrown on: the page must always be able to
  // give the student their file.
  return j.dump(1, ' ', false, Json::error_handler_t::replace) + "\n";
}

Submission merge_submissions(const Submission& a, const Submission& b) {
  Submission out = a;
  out.created = std::max(a.created, b.created);
  std::set<std::string> seen;
  out.attempts.clear();
  for (const auto* side : {&a, &b})
    for (const auto& at : side->attempts)
      if (seen.insert(at.key()).second) out.attempts.push_back(at);
  std::stable_sort(out.attempts.begin(), out.attempts.end(),
                   [](const SubmittedAttempt& x, const SubmittedAttempt& y) { return x.at < y.at; });
  return out;
}

}  // namespace dtx
