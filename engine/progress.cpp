#include "progress.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>
#include <tuple>
#include <nlohmann/json.hpp>

#include "misconception.h"

namespace dtx {

using Json = nlohmann::json;

long days_from_date(const std::string& s) {
  // Howard Hinnant's days_from_civil; strict "YYYY-MM-DD".
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return -1;
  for (int i : {0, 1, 2, 3, 5, 6, 8, 9})
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return -1;
  int y = std::stoi(s.substr(0, 4)), m = std::stoi(s.substr(5, 2)), d = std::stoi(s.substr(8, 2));
  if (m < 1 || m > 12 || d < 1 || d > 31) return -1;
  return days_from_civil(y, m, d);
}

long days_from_civil(long y, int m, int d) {
  y -= m <= 2;
  long era = (y >= 0 ? y : y - 399) / 400;
  long yoe = y - era * 400;
  long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

std::string date_from_days(long z) {
  // Howard Hinnant's civil_from_days, the inverse of days_from_civil.
  z += 719468;
  const long era = (z >= 0 ? z : z - 146096) / 146097;
  const long doe = z - era * 146097;
  const long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const long mp = (5 * doy + 2) / 153;
  const int d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  const int m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  const long y = yoe + era * 400 + (m <= 2);
  char text[48];
  std::snprintf(text, sizeof text, "%04ld-%02d-%02d", y, m, d);
  return text;
}

namespace {

// What a misconception key can look like: lower-case letters, digits and '-', at most 40.
bool valid_misconception_key(const std::string& k) {
  return k.size() <= 40 && std::all_of(k.begin(), k.end(), [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; });
}

int add_capped(int a, int b) {
  // Both are in [0, kMaxAttempts], so the sum fits in int64 and never wraps.
  return static_cast<int>(std::min<int64_t>(int64_t{a} + b, kMaxAttempts));
}

int64_t leading_seconds(const std::string& id) {
  int64_t n = 0;
  for (char c : id) {
    if (!std::isdigit(static_cast<unsigned char>(c))) break;
    if (n > (std::numeric_limits<int64_t>::max() - 9) / 10) return std::numeric_limits<int64_t>::max();
    n = n * 10 + (c - '0');
  }
  return n;
}

// A fold covers writers up to `through`; the later fold (then the larger count) wins.
bool fold_before(const ExerciseProgress& a, const ExerciseProgress& b) {
  if (a.folded_through != b.folded_through) {
    if (a.folded_through.empty()) return true;
    if (b.folded_through.empty()) return false;
    return writer_older(a.folded_through, b.folded_through);
  }
  return a.folded_attempts < b.folded_attempts;
}

std::string number_text(double d) {
  Json j = d;
  if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 1e15) j = static_cast<int64_t>(d);
  return j.dump();
}

// Reads one number of a record into [lo, hi]. A value that is not a number at all makes the
// record malformed (false); a number out of range, or not whole where it must be, is clamped
// and reported, so a record with one absurd field keeps its other fields.
bool read_number(const Json& v, const std::string& what, double lo, double hi, bool whole, double& out,
                 std::vector<std::string>& problems) {
  if (!v.is_number()) return false;
  double d = v.get<double>();
  // Integers are quoted as written: 9223372036854775807, not its nearest double.
  const std::string as_written = v.is_number_float() ? number_text(d) : v.dump();
  if (!std::isfinite(d)) {
    problems.push_back(what + " is not a finite number; read as " + number_text(lo));
    out = lo;
    return true;
  }
  if (d < lo || d > hi) {
    double c = std::clamp(d, lo, hi);
    problems.push_back(what + " = " + as_written + (d < lo ? " is below " + number_text(lo) : " is above " + number_text(hi)) +
                       "; read as " + number_text(whole ? std::floor(c) : c));
    d = c;
  }
  if (whole && d != std::floor(d)) {
    problems.push_back(what + " = " + number_text(d) + " is not a whole number; read as " + number_text(std::floor(d)));
    d = std::floor(d);
  }
  out = d;
  return true;
}

bool known_exercise_field(const std::string& name);
template <class Known>
void read_unknown_fields(const Json& j, Known known, const UnknownFieldCaps& caps, const std::string& where,
                         std::map<std::string, std::string>& out, std::vector<std::string>& problems);

// One exercise's record; false when it is not a record at all (then it is skipped).
bool read_exercise(const std::string& id, const Json& e, ExerciseProgress& ep, std::vector<std::string>& problems) {
  if (!e.is_object()) return false;
  const std::string rec = "the record for \"" + id + "\": ";
  std::vector<std::string> found;
  double d = 0;
  auto field = [&](const char* k, double lo, double hi, bool whole, auto& into) {
    auto f = e.find(k);
    if (f == e.end()) return true;
    if (!read_number(*f, rec + k, lo, hi, whole, d, found)) return false;
    into = static_cast<std::remove_reference_t<decltype(into)>>(d);
    return true;
  };
  const double max_t = static_cast<double>(kMaxTimestamp);
  if (!field("best", 0, 1, false, ep.best_score) || !field("solved_at", 0, max_t, true, ep.solved_at) ||
      !field("last_at", 0, max_t, true, ep.last_attempt_at))
    return false;
  if (auto w = e.find("by_writer"); w != e.end()) {
    // Version 2: the per-writer counts are the record; "attempts" is only their sum.
    if (!w->is_object()) return false;
    for (auto it = w->begin(); it != w->end(); ++it) {
      const std::string& writer = it.key();
      if (writer.empty() || writer.size() > kMaxWriterIdLength) {
        found.push_back(rec + "a writer id of " + std::to_string(writer.size()) + " characters was skipped (1.." +
                        std::to_string(kMaxWriterIdLength) + " expected)");
        continue;
      }
      if (!read_number(it.value(), rec + "attempts of writer \"" + writer + "\"", 0, kMaxAttempts, true, d, found)) {
        found.push_back(rec + "the attempts of writer \"" + writer + "\" are not a number; skipped");
        continue;
      }
      ep.attempts_by_writer[writer] = static_cast<int>(d);
    }
    if (auto f = e.find("folded"); f != e.end()) {
      auto through = f->is_object() ? f->find("through") : f->end();
      auto count = f->is_object() ? f->find("attempts") : f->end();
      if (through == f->end() || !through->is_string() || through->get<std::string>().empty() || count == f->end() ||
          !read_number(*count, rec + "folded attempts", 0, kMaxAttempts, true, d, found)) {
        found.push_back(rec + "\"folded\" is not {\"through\": writer, \"attempts\": number}; its count is lost");
      } else {
        ep.folded_through = through->get<std::string>();
        ep.folded_attempts = static_cast<int>(d);
        // Listed writers the fold already covers would be counted twice.
        std::erase_if(ep.attempts_by_writer, [&](const auto& kv) { return writer_folded(ep, kv.first); });
      }
    }
  } else if (auto a = e.find("attempts"); a != e.end()) {
    if (!read_number(*a, rec + "attempts", 0, kMaxAttempts, true, d, found)) return false;
    if (d > 0) ep.attempts_by_writer[kLegacyWriter] = static_cast<int>(d);
  }
  fold_writers(ep);
  read_unknown_fields(e, known_exercise_field, kExerciseUnknownCaps, rec, ep.unknown_fields, found);
  problems.insert(problems.end(), found.begin(), found.end());
  return true;
}

// A review's day: a calendar date "YYYY-MM-DD" (false otherwise). One before 1970-01-01 (a
// clock set wrong) is clamped to it and reported, like any number out of range.
bool read_review_day(const Json& v, const std::string& what, long& out, std::vector<std::string>& problems) {
  if (!v.is_string()) return false;
  const std::string text = v.get<std::string>();
  long day = days_from_date(text);
  // Also refuses what days_from_date lets through but no calendar has ("2026-02-31"): it
  // would not write back as read.
  if (date_from_days(day) != text) return false;
  if (day < 0) {
    problems.push_back(what + " = " + text + " is before 1970-01-01; read as 1970-01-01");
    day = 0;
  }
  out = day;
  return true;
}

// One exercise's review schedule; false, saying why, when it is not one (it is skipped).
bool read_review(const std::string& id, const Json& e, ReviewState& rs, std::vector<std::string>& problems,
                 std::string& why) {
  if (!e.is_object()) {
    why = "not an object";
    return false;
  }
  const std::string rec = "the review of \"" + id + "\": ";
  std::vector<std::string> found;
  auto number = [&](const char* k, double lo, double hi, bool whole, auto& into) {
    auto f = e.find(k);
    double d = 0;
    if (f == e.end() || !read_number(*f, rec + k, lo, hi, whole, d, found)) {
      why = std::string("\"") + k + (f == e.end() ? "\" is missing" : "\" is not a number");
      return false;
    }
    into = static_cast<std::remove_reference_t<decltype(into)>>(d);
    return true;
  };
  auto day = [&](const char* k, bool required, long& into) {
    auto f = e.find(k);
    if (f == e.end() && !required) return true;  // "last" absent: never reviewed
    if (f == e.end() || !read_review_day(*f, rec + k, into, found)) {
      why = std::string("\"") + k + (f == e.end() ? "\" is missing" : "\" is not a date YYYY-MM-DD");
      return false;
    }
    return true;
  };
  if (!number("ease", kMinReviewEase, kMaxReviewEase, false, rs.ease) ||
      !number("reps", 0, kMaxReviewCount, true, rs.reps) ||
      !number("interval", 0, kMaxReviewIntervalDays, true, rs.interval_days) ||
      !number("lapses", 0, kMaxReviewCount, true, rs.lapses) || !day("due", true, rs.due_day) ||
      !day("last", false, rs.last_day))
    return false;
  problems.insert(problems.end(), found.begin(), found.end());
  return true;
}

// The optional "review" object: a malformed schedule is skipped, the others are kept.
void read_reviews(const Json& j, ReviewMap& reviews, std::vector<std::string>& problems) {
  auto rv = j.find("review");
  if (rv == j.end()) return;
  if (!rv->is_object()) {
    problems.push_back("\"review\" is not an object; the review schedule is lost");
    return;
  }
  for (auto it = rv->begin(); it != rv->end(); ++it) {
    ReviewState rs;
    std::string why;
    if (!read_review(it.key(), it.value(), rs, problems, why)) {
      problems.push_back("the review of \"" + it.key() + "\" is malformed (" + why + ") and was skipped");
      continue;
    }
    reviews[it.key()] = rs;
  }
}

Json review_json(const ReviewMap& reviews) {
  Json out = Json::object();
  for (const auto& [id, r] : reviews) {
    Json& x = out[id];
    x["ease"] = r.ease;
    x["reps"] = r.reps;
    x["interval"] = r.interval_days;
    x["lapses"] = r.lapses;
    x["due"] = date_from_days(r.due_day);
    if (r.last_day >= 0) x["last"] = date_from_days(r.last_day);
  }
  return out;
}

// The day's first counted attempt on an exercise is its review of that day; a day that is
// not a date (day < 0) has no review.
void review_attempt(ReviewMap& reviews, const std::string& id, const Feedback& fb, long day) {
  std::optional<int> quality = review_quality(fb);
  if (!quality || day < 0 || day > kMaxReviewDay) return;
  ReviewState& r = reviews[id];
  if (r.last_day >= day) return;  // reviewed today already, or the clock moved back
  sm2_review(r, *quality, day);
}

// ---------------------------------------------------------------- the log of mistakes

// The table's keys are a word or two (misconception.h); a longer text is no key of any build.
constexpr size_t kMaxMistakeKeyBytes = 64;

// The top-level fields this build reads, and those of an exercise's record; any other is kept
// as an unknown field.
const char* const kKnownFields[] = {"format", "version", "exercises", "streak", "last_exercise",
                                    "last_exercise_at", "review", "mistakes"};
const char* const kKnownExerciseFields[] = {"attempts", "by_writer", "folded", "best", "solved_at", "last_at"};

bool known_field(const std::string& name) {
  return std::any_of(std::begin(kKnownFields), std::end(kKnownFields), [&](const char* k) { return name == k; });
}

bool known_exercise_field(const std::string& name) {
  return std::any_of(std::begin(kKnownExerciseFields), std::end(kKnownExerciseFields),
                     [&](const char* k) { return name == k; });
}

// `s` as valid UTF-8 (a bad byte becomes U+FFFD, as the writer would write it), cut to at most
// `max_bytes` without splitting a character: what is recorded reads back the same.
std::string bounded_utf8(const std::string& s, size_t max_bytes) {
  // Cut first so a long text is not copied whole; the slack keeps the last characters whole.
  const std::string head = s.substr(0, max_bytes + 4);
  std::string valid = Json::parse(Json(head).dump(-1, ' ', false, Json::error_handler_t::replace)).get<std::string>();
  if (valid.size() <= max_bytes) return valid;
  size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(valid[cut]) & 0xC0) == 0x80) --cut;
  return valid.substr(0, cut);
}

// Sorted by mistake_before, without duplicates, the newest kMaxMistakes.
void normalize_mistakes(std::vector<MistakeRecord>& log) {
  std::sort(log.begin(), log.end(), mistake_before);
  log.erase(std::unique(log.begin(), log.end()), log.end());
  if (log.size() > kMaxMistakes) log.resize(kMaxMistakes);
}

// A stored seed: an unsigned integer, or (as written) a string of decimal digits.
bool read_seed(const Json& v, uint64_t& out) {
  if (v.is_number_unsigned()) {
    out = v.get<uint64_t>();
    return true;
  }
  if (!v.is_string()) return false;
  const std::string& t = v.get_ref<const std::string&>();
  if (t.empty() || t.size() > 20) return false;
  uint64_t n = 0;
  for (char c : t) {
    if (c < '0' || c > '9') return false;
    const uint64_t d = static_cast<uint64_t>(c - '0');
    if (n > (std::numeric_limits<uint64_t>::max() - d) / 10) return false;
    n = n * 10 + d;
  }
  out = n;
  return true;
}

// One text field of a stored mistake: absent is "", a string at most `max_bytes` long is read;
// anything else makes the record unreadable, `why` saying how.
bool read_text(const Json& e, const char* name, size_t max_bytes, bool required, std::string& out, std::string& why) {
  auto f = e.find(name);
  if (f == e.end()) {
    if (required) why = std::string("\"") + name + "\" is missing";
    return !required;
  }
  if (!f->is_string()) {
    why = std::string("\"") + name + "\" is not a string";
    return false;
  }
  out = f->get<std::string>();
  if (out.size() > max_bytes || (required && out.empty())) {
    why = std::string("\"") + name + "\" is " + (out.empty() ? "empty" : "longer than " + std::to_string(max_bytes) + " bytes");
    return false;
  }
  return true;
}

// One stored mistake; false, saying why, when it cannot be read (it is skipped).
bool read_mistake(const Json& e, MistakeRecord& m, std::string& why) {
  if (!e.is_object()) {
    why = "not an object";
    return false;
  }
  if (!read_text(e, "exercise", kMaxIdChars, true, m.exercise, why)) return false;
  auto seed = e.find("seed");
  if (seed == e.end() || !read_seed(*seed, m.seed)) {
    why = seed == e.end() ? "\"seed\" is missing" : "\"seed\" is not a whole number from 0 to 2^64-1";
    return false;
  }
  auto at = e.find("at");
  if (at == e.end() || !at->is_number_integer()) {
    why = at == e.end() ? "\"at\" is missing" : "\"at\" is not a whole number";
    return false;
  }
  if (at->is_number_unsigned() ? at->get<uint64_t>() > static_cast<uint64_t>(kMaxTimestamp) : at->get<int64_t>() < 0) {
    why = "\"at\" = " + at->dump() + " is outside 0.." + std::to_string(kMaxTimestamp);
    return false;
  }
  m.at = at->get<int64_t>();
  return read_text(e, "writer", kMaxWriterIdLength, false, m.writer, why) &&
         read_text(e, "part", kMaxMistakePartBytes, false, m.part, why) &&
         read_text(e, "given", kMaxMistakeGivenBytes, false, m.given, why) &&
         read_text(e, "message", kMaxMistakeMessageBytes, false, m.message, why) &&
         read_text(e, "key", kMaxMistakeKeyBytes, false, m.key, why);
}

// The optional "mistakes" list: a record that cannot be read is reported and skipped.
void read_mistakes(const Json& j, std::vector<MistakeRecord>& log, std::vector<std::string>& problems) {
  auto list = j.find("mistakes");
  if (list == j.end()) return;
  if (!list->is_array()) {
    problems.push_back("\"mistakes\" is not a list; the log of mistakes is lost");
    return;
  }
  for (size_t i = 0; i < list->size(); ++i) {
    MistakeRecord m;
    std::string why;
    if (!read_mistake((*list)[i], m, why)) {
      problems.push_back("mistake " + std::to_string(i + 1) + " of the log is malformed (" + why + ") and was skipped");
      continue;
    }
    // A key of a later build is kept (a merge must not turn its record into another one) and
    // grouped as not diagnosed (mistake_review.h); only one that cannot be a key is dropped.
    if (!find_misconception(m.key) && !valid_misconception_key(m.key)) {
      problems.push_back("mistake " + std::to_string(i + 1) + " of the log has the key \"" + m.key +
                         "\", which is not a key; read as not diagnosed");
      m.key.clear();
    }
    log.push_back(std::move(m));
  }
  std::sort(log.begin(), log.end(), mistake_before);
  log.erase(std::unique(log.begin(), log.end()), log.end());
  if (log.size() > kMaxMistakes) {
    problems.push_back("the log holds " + std::to_string(log.size()) + " mistakes; only the newest " +
                       std::to_string(kMaxMistakes) + " are kept");
    log.resize(kMaxMistakes);
  }
}

Json mistakes_json(const std::vector<MistakeRecord>& log) {
  Json out = Json::array();
  for (const MistakeRecord& m : log)
    out.push_back({{"exercise", m.exercise}, {"seed", std::to_string(m.seed)}, {"at", m.at}, {"writer", m.writer},
                   {"part", m.part}, {"given", m.given}, {"message", m.message}, {"key", m.key}});
  return out;
}

// Whether `v` nests at most `max_depth` arrays and objects deep, found without recursion: the
// document is anyone's file, and dump() recurses once per level.
bool nests_within(const Json& v, int max_depth) {
  std::vector<std::pair<const Json*, int>> todo{{&v, 1}};
  while (!todo.empty()) {
    auto [at, depth] = todo.back();
    todo.pop_back();
    if (!at->is_structured()) continue;
    if (depth > max_depth) return false;
    for (const Json& child : *at) todo.emplace_back(&child, depth + 1);
  }
  return true;
}

// Every field of object `j` that `known` does not name, as compact JSON text, within the caps;
// `where` starts each problem ("" at the top, "the record for \"ID\": " in an exercise's).
template <class Known>
void read_unknown_fields(const Json& j, Known known, const UnknownFieldCaps& caps, const std::string& where,
                         std::map<std::string, std::string>& out, std::vector<std::string>& problems) {
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (known(it.key())) continue;
    const std::string field = where + "the field \"" + it.key() + "\"";
    if (!nests_within(it.value(), caps.depth)) {
      problems.push_back(field + " nests deeper than " + std::to_string(caps.depth) + " levels; dropped");
      continue;
    }
    std::string text = it.value().dump(-1, ' ', false, Json::error_handler_t::replace);
    if (out.size() >= caps.fields) {
      problems.push_back(field + " is beyond the " + std::to_string(caps.fields) + " unknown fields kept; dropped");
    } else if (text.size() > caps.bytes) {
      problems.push_back(field + " is longer than " + std::to_string(caps.bytes) + " bytes; dropped");
    } else {
      out.emplace(it.key(), std::move(text));
    }
  }
}

// The union of both sides' unknown fields, the larger text winning a name both have; then the
// caps, which depend on the union alone, so the merge stays associative.
std::map<std::string, std::string> merge_unknown_fields(const std::map<std::string, std::string>& a,
                                                        const std::map<std::string, std::string>& b,
                                                        const UnknownFieldCaps& caps) {
  std::map<std::string, std::string> m;
  for (const auto* side : {&a, &b})
    for (const auto& [name, text] : *side) {
      if (text.size() > caps.bytes) continue;
      auto [it, fresh] = m.emplace(name, text);
      if (!fresh) it->second = std::max(it->second, text);
    }
  while (m.size() > caps.fields) m.erase(std::prev(m.end()));
  return m;
}

// Writes each kept field back into `into`, never over a field this build writes.
template <class Known>
void write_unknown_fields(const std::map<std::string, std::string>& fields, Known known, Json& into) {
  for (const auto& [name, text] : fields) {
    if (known(name)) continue;  // never in a record read, and never over a field we write
    Json v = Json::parse(text, nullptr, false);
    if (!v.is_discarded()) into[name] = std::move(v);
  }
}

}  // namespace

bool mistake_before(const MistakeRecord& a, const MistakeRecord& b) {
  if (a.at != b.at) return a.at > b.at;
  return std::tie(a.exercise, a.seed, a.writer, a.part, a.given, a.message, a.key) <
         std::tie(b.exercise, b.seed, b.writer, b.part, b.given, b.message, b.key);
}

bool writer_older(const std::string& a, const std::string& b) {
  int64_t sa = leading_seconds(a), sb = leading_seconds(b);
  return sa != sb ? sa < sb : a < b;
}

bool writer_folded(const ExerciseProgress& e, const std::string& writer) {
  return !e.folded_through.empty() && !writer_older(e.folded_through, writer);
}

int ExerciseProgress::attempts() const {
  int n = folded_attempts;
  for (const auto& [w, c] : attempts_by_writer) n = add_capped(n, c);
  return n;
}

void fold_writers(ExerciseProgress& e) {
  if (e.attempts_by_writer.size() <= kMaxWritersPerExercise) return;
  std::vector<std::string> ids;
  for (const auto& [w, c] : e.attempts_by_writer) ids.push_back(w);
  std::sort(ids.begin(), ids.end(), writer_older);
  size_t fold = ids.size() - kMaxWritersPerExercise;
  for (size_t i = 0; i < fold; ++i) {
    e.folded_attempts = add_capped(e.folded_attempts, e.attempts_by_writer[ids[i]]);
    e.attempts_by_writer.erase(ids[i]);
  }
  // Listed writers are newer than an earlier fold, so the fold only moves forward; the check
  // keeps it so for a record built by hand.
  if (e.folded_through.empty() || writer_older(e.folded_through, ids[fold - 1])) e.folded_through = ids[fold - 1];
}

ProgressRead read_progress(const std::string& text) {
  ProgressRead r;
  Json j = Json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    r.unreadable = true;
    // nlohmann refuses a number too large for a double (1e999) as a syntax error: such a
    // document is unreadable as a whole, never read as infinity.
    r.problems.push_back(j.is_discarded() ? "the stored progress is not valid JSON (or holds a number too large to read)"
                                          : "the stored progress is not a JSON object");
    return r;
  }
  // A document that says it is something else, or says nothing of being progress, is not
  // read as an empty record: importing {"hello": 1} is refused, never "0 records merged".
  auto format = j.find("format");
  const bool named = format != j.end() && format->is_string() && format->get<std::string>() == "dtx-progress";
  if ((format != j.end() && !named) || (format == j.end() && !j.contains("exercises"))) {
    r.unreadable = true;
    r.problems.push_back(format != j.end() ? "its \"format\" is " + format->dump().substr(0, 60) + ", not \"dtx-progress\""
                                           : "it has neither \"format\": \"dtx-progress\" nor \"exercises\"");
    return r;
  }
  auto version = j.find("version");
  if (version == j.end() || !version->is_number_integer()) {
    r.problems.push_back("no version number; reading it as version 1");
  } else if (version->get<double>() > kProgressVersion) {
    r.problems.push_back("written by a newer dtx (version " + version->dump() +
                         "); fields this version does not know are kept as they are at the top level and "
                         "dropped inside its records");
  }
  auto exs = j.find("exercises");
  if (exs != j.end()) {
    if (!exs->is_object()) {
      r.problems.push_back("\"exercises\" is not an object; per-exercise progress is lost");
    } else {
      for (auto it = exs->begin(); it != exs->end(); ++it) {
        ExerciseProgress ep;
        if (!read_exercise(it.key(), it.value(), ep, r.problems)) {
          r.problems.push_back("the record for \"" + it.key() + "\" is malformed and was skipped");
          continue;
        }
        r.progress.exercises[it.key()] = std::move(ep);
      }
    }
  }
  if (auto s = j.find("streak"); s != j.end()) {
    auto cur = s->is_object() ? s->find("current") : s->end();
    auto best = s->is_object() ? s->find("best") : s->end();
    double c = 0, b = 0;
    std::vector<std::string> found;
    if (cur != s->end() && best != s->end() &&
        read_number(*cur, "the streak", 0, kMaxStreakDays, true, c, found) &&
        read_number(*best, "the best streak", 0, kMaxStreakDays, true, b, found)) {
      r.problems.insert(r.problems.end(), found.begin(), found.end());
      r.progress.streak_days = static_cast<int>(c);
      r.progress.best_streak_days = std::max(static_cast<int>(b), r.progress.streak_days);
      auto f = s->find("last_day");
      std::string day = f != s->end() && f->is_string() ? f->get<std::string>() : "";
      if (!day.empty() && days_from_date(day) < 0) {
        r.problems.push_back("the streak's last day \"" + day + "\" is not a date; streak reset");
        r.progress.streak_days = 0;
      } else {
        r.progress.last_active_day = day;
      }
    } else {
      r.problems.push_back("the streak record is malformed; streak reset");
    }
  }
  if (auto l = j.find("last_exercise"); l != j.end() && l->is_string()) {
    r.progress.last_exercise = l->get<std::string>();
    double at = 0;
    if (auto t = j.find("last_exercise_at"); t != j.end() &&
        read_number(*t, "last_exercise_at", 0, static_cast<double>(kMaxTimestamp), true, at, r.problems))
      r.progress.last_exercise_at = static_cast<int64_t>(at);
  }
  read_reviews(j, r.progress.review, r.problems);
  read_mistakes(j, r.progress.mistakes, r.problems);
  read_unknown_fields(j, known_field, kTopLevelUnknownCaps, "", r.progress.unknown_fields, r.problems);
  return r;
}

std::string write_progress(const Progress& p) {
  Json j;
  j["format"] = "dtx-progress";
  j["version"] = kProgressVersion;
  Json exs = Json::object();
  for (const auto& [id, e] : p.exercises) {
    Json& x = exs[id];
    x["attempts"] = e.attempts();  // for people and older readers; by_writer is the record
    x["by_writer"] = Json::object();
    for (const auto& [w, c] : e.attempts_by_writer) x["by_writer"][w] = c;
    if (!e.folded_through.empty()) x["folded"] = {{"through", e.folded_through}, {"attempts", e.folded_attempts}};
    x["best"] = e.best_score;
    x["solved_at"] = e.solved_at;
    x["last_at"] = e.last_attempt_at;
    write_unknown_fields(e.unknown_fields, known_exercise_field, x);
  }
  j["exercises"] = exs;
  j["streak"] = {{"current", p.streak_days}, {"best", p.best_streak_days}, {"last_day", p.last_active_day}};
  j["last_exercise"] = p.last_exercise;
  j["last_exercise_at"] = p.last_exercise_at;
  j["review"] = review_json(p.review);
  j["mistakes"] = mistakes_json(p.mistakes);
  write_unknown_fields(p.unknown_fields, known_field, j);
  // A text that is not valid UTF-8 (an error message quoting a byte of a student's program) is
  // written with U+FFFD in its place, never thrown on.
  return j.dump(1, ' ', false, Json::error_handler_t::replace);
}

static ExerciseProgress merge_exercise(const ExerciseProgress& a, const ExerciseProgress& b) {
  ExerciseProgress m;
  const ExerciseProgress& fold = fold_before(a, b) ? b : a;
  m.folded_through = fold.folded_through;
  m.folded_attempts = fold.folded_attempts;
  for (const auto* side : {&a, &b})
    for (const auto& [w, c] : side->attempts_by_writer) {
      if (writer_folded(m, w)) continue;
      int& have = m.attempts_by_writer[w];
      have = std::max(have, c);
    }
  fold_writers(m);
  m.best_score = std::max(a.best_score, b.best_score);
  m.solved_at = a.solved_at == 0 ? b.solved_at : b.solved_at == 0 ? a.solved_at : std::min(a.solved_at, b.solved_at);
  m.last_attempt_at = std::max(a.last_attempt_at, b.last_attempt_at);
  m.unknown_fields = merge_unknown_fields(a.unknown_fields, b.unknown_fields, kExerciseUnknownCaps);
  return m;
}

Progress merge_progress(const Progress& a, const Progress& b) {
  Progress m;
  for (const auto* side : {&a, &b})
    for (const auto& [id, e] : side->exercises) {
      auto it = m.exercises.find(id);
      if (it == m.exercises.end()) {
        ExerciseProgress folded = e;
        fold_writers(folded);
        m.exercises.emplace(id, std::move(folded));
      } else {
        it->second = merge_exercise(it->second, e);
      }
    }
  // The streak is not a counter: the record with the later last active day knows it; on the
  // same day both counted the same days, and the larger is the one that saw them all.
  long da = days_from_date(a.last_active_day), db = days_from_date(b.last_active_day);
  if (da != db) {
    const Progress& later = da > db ? a : b;
    m.streak_days = later.streak_days;
    m.last_active_day = later.last_active_day;
  } else {
    m.streak_days = std::max(a.streak_days, b.streak_days);
    m.last_active_day = std::max(a.last_active_day, b.last_active_day);
  }
  m.best_streak_days = std::max({a.best_streak_days, b.best_streak_days, m.streak_days});
  // Ties (same second) go to the larger id, so every order of merges agrees.
  const Progress& last = std::tie(a.last_exercise_at, a.last_exercise) >= std::tie(b.last_exercise_at, b.last_exercise) ? a : b;
  m.last_exercise = last.last_exercise;
  m.last_exercise_at = last.last_exercise_at;
  for (const auto* side : {&a, &b})
    for (const auto& [id, r] : side->review) {
      auto [it, fresh] = m.review.emplace(id, r);
      if (!fresh) it->second = merge_review(it->second, r);
    }
  m.mistakes = a.mistakes;
  m.mistakes.insert(m.mistakes.end(), b.mistakes.begin(), b.mistakes.end());
  normalize_mistakes(m.mistakes);
  m.unknown_fields = merge_unknown_fields(a.unknown_fields, b.unknown_fields, kTopLevelUnknownCaps);
  return m;
}

bool record_attempt(Progress& p, const std::string& writer, const std::string& id, const Feedback& fb, int64_t now,
                    const std::string& today) {
  if (!fb.counts_as_attempt()) return false;
  ExerciseProgress& e = p.exercises[id];
  if (writer_folded(e, writer)) {
    // Listed, it would be dropped by the next merge; the page takes a new id before this.
    e.folded_attempts = add_capped(e.folded_attempts, 1);
  } else {
    int& mine = e.attempts_by_writer[writer];
    mine = add_capped(mine, 1);
    fold_writers(e);
  }
  e.best_score = std::max(e.best_score, fb.score);
  e.last_attempt_at = std::max(e.last_attempt_at, now);
  if (fb.verdict == Verdict::Correct && e.solved_at == 0) e.solved_at = now;
  p.last_exercise = id;
  p.last_exercise_at = std::max(p.last_exercise_at, now);
  long d = days_from_date(today);
  review_attempt(p.review, id, fb, d);
  long last = days_from_date(p.last_active_day);
  if (d >= 0) {
    if (last >= 0 && d == last) {
      // same day: streak unchanged
      if (p.streak_days == 0) p.streak_days = 1;
    } else if (last >= 0 && d == last + 1) {
      p.streak_days = std::min(p.streak_days + 1, kMaxStreakDays);
    } else if (last < 0 || d > last) {
      p.streak_days = 1;
    }
    // d < last (clock moved back): keep the streak as it is
    if (d >= last) p.last_active_day = today;
    p.best_streak_days = std::max(p.best_streak_days, p.streak_days);
  }
  return true;
}

void record_mistakes(Progress& p, const std::string& writer, const std::string& exercise_id, uint64_t seed,
                     const Feedback& fb, int64_t now_unix) {
  // A record without an exercise would not read back (it names nothing to try again).
  if (exercise_id.empty() || (fb.verdict != Verdict::Incorrect && fb.verdict != Verdict::Partial)) return;
  const size_t before = p.mistakes.size();
  auto add = [&](const std::string& part, const std::string& given, const std::string& message, const std::string& key) {
    MistakeRecord m;
    m.exercise = bounded_utf8(exercise_id, kMaxIdChars);
    m.seed = seed;
    m.at = std::clamp<int64_t>(now_unix, 0, kMaxTimestamp);
    m.writer = bounded_utf8(writer, kMaxWriterIdLength);
    m.part = bounded_utf8(part, kMaxMistakePartBytes);
    m.given = bounded_utf8(given, kMaxMistakeGivenBytes);
    m.message = bounded_utf8(message, kMaxMistakeMessageBytes);
    m.key = find_misconception(key) ? key : "";
    p.mistakes.push_back(std::move(m));
  };
  for (const PartFeedback& pf : fb.parts)
    if (pf.graded && (pf.verdict == Verdict::Incorrect || pf.verdict == Verdict::Partial))
      add(pf.id, pf.given, pf.message, pf.misconception);
  for (const CaseFeedback& cf : fb.cases)
    if (!cf.pass && !cf.hidden) add(cf.args, cf.got, cf.message.empty() ? cf.note : cf.message, cf.misconception);
  // An answer without parts, or whose failing cases are all hidden: the answer as a whole.
  if (p.mistakes.size() == before)
    add("", "", fb.message + (fb.details.empty() ? "" : " " + fb.details.front()), fb.misconception);
  normalize_mistakes(p.mistakes);
}

int current_streak(const Progress& p, const std::string& today) {
  long d = days_from_date(today), last = days_from_date(p.last_active_day);
  if (d < 0 || last < 0) return 0;
  return (d - last <= 1 && d >= last) ? p.streak_days : 0;
}

ChapterProgress chapter_progress(const Progress& p, const Pack& pack) {
  ChapterProgress c;
  double sum = 0;
  for (const auto& ex : pack.exercises) {
    ++c.total;
    auto it = p.exercises.find(ex.id);
    if (it == p.exercises.end()) continue;
    if (it->second.attempts() > 0) ++c.attempted;
    if (it->second.solved_at > 0) ++c.solved;
    sum += it->second.best_score;
  }
  c.mastery = c.total ? sum / c.total : 0;
  return c;
}

}  // namespace dtx
