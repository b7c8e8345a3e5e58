#include "assignment.h"

#include <cctype>
#include <cstdio>
#include <set>

#include "json_fields.h"
#include "lint.h"
#include "progress.h"
#include "text.h"
#include "text_escape.h"

namespace dtx {

const AssignmentItem* Assignment::item(std::string_view exercise_id) const {
  for (const auto& it : exercises)
    if (it.id == exercise_id) return &it;
  return nullptr;
}

double Assignment::total_points() const {
  double t = 0;
  for (const auto& it : exercises)
    if (it.pool < 0) t += it.points;
  for (const auto& p : pools) t += p.pick * p.points;
  return t;
}

bool Assignment::given(const AssignmentItem& item, const std::string& student) const {
  if (item.pool < 0) return true;
  const AssignmentPool& pool = pools[static_cast<size_t>(item.pool)];
  // The pool's members ranked by a hash of (assignment, student, pool, member): the `pick`
  // lowest are this student's. Adding a member changes a student's set only where it ranks in.
  auto rank = [&](const AssignmentItem& m) { return derive_seed(id, student, "pool/" + pool.name + "/" + m.id); };
  const uint64_t mine = rank(item);
  int below = 0;
  for (const auto& m : exercises)
    if (m.pool == item.pool && &m != &item && (rank(m) < mine || (rank(m) == mine && m.id < item.id))) ++below;
  return below < pool.pick;
}

// ---------------------------------------------------------------- times

namespace {

void civil_from_days(long z, long* y, int* m, int* d) {
  z += 719468;
  long era = (z >= 0 ? z : z - 146096) / 146097;
  long doe = z - era * 146097;
  long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  long mp = (5 * doy + 2) / 153;
  *d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  *m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  *y = yoe + era * 400 + (*m <= 2);
}

bool digits(std::string_view s, size_t at, size_t n, int* out) {
  if (at + n > s.size()) return false;
  int v = 0;
  for (size_t i = at; i < at + n; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
    v = v * 10 + (s[i] - '0');
  }
  *out = v;
  return true;
}

int days_in_month(long y, int m) {
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return m == 2 && leap ? 29 : kDays[m - 1];
}

}  // namespace

bool parse_datetime(std::string_view s, int64_t* unix_seconds, int* offset_minutes) {
  int y, mo, d, h, mi, sec = 0;
  if (!digits(s, 0, 4, &y) || s.size() < 16 || s[4] != '-' || !digits(s, 5, 2, &mo) || s[7] != '-' ||
      !digits(s, 8, 2, &d) || (s[10] != 'T' && s[10] != 't' && s[10] != ' ') || !digits(s, 11, 2, &h) || s[13] != ':' ||
      !digits(s, 14, 2, &mi))
    return false;
  size_t i = 16;
  if (i < s.size() && s[i] == ':') {
    if (!digits(s, i + 1, 2, &sec)) return false;
    i += 3;
    if (i < s.size() && s[i] == '.') {  // fractions of a second: read and dropped
      ++i;
      size_t start = i;
      while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
      if (i == start) return false;
    }
  }
  if (mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo) || h > 23 || mi > 59 || sec > 59) return false;
  int offset = 0;
  if (i < s.size() && (s[i] == 'Z' || s[i] == 'z')) {
    ++i;
  } else if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
    int oh, om;
    if (!digits(s, i + 1, 2, &oh) || i + 3 >= s.size() || s[i + 3] != ':' || !digits(s, i + 4, 2, &om) || oh > 23 ||
        om > 59)
      return false;
    offset = (s[i] == '-' ? -1 : 1) * (oh * 60 + om);
    i += 6;
  } else {
    return false;  // no time zone: "17:00" where?
  }
  if (i != s.size()) return false;
  *unix_seconds = static_cast<int64_t>(days_from_civil(y, mo, d)) * 86400 + h * 3600 + mi * 60 + sec -
                  static_cast<int64_t>(offset) * 60;
  *offset_minutes = offset;
  return true;
}

namespace {

// A moment as a calendar date and a time of day (seconds since 1970, already shifted to the
// zone it is shown in).
struct Civil {
  long y;
  int m, d, hh, mm, ss;
};

Civil civil_of(int64_t seconds) {
  int64_t days = seconds >= 0 ? seconds / 86400 : -((-seconds + 86399) / 86400);
  int64_t rest = seconds - days * 86400;
  Civil c{};
  civil_from_days(static_cast<long>(days), &c.y, &c.m, &c.d);
  c.hh = static_cast<int>(rest / 3600);
  c.mm = static_cast<int>(rest / 60 % 60);
  c.ss = static_cast<int>(rest % 60);
  return c;
}

}  // namespace

std::string format_datetime(int64_t unix_seconds, int offset_minutes) {
  Civil c = civil_of(unix_seconds + static_cast<int64_t>(offset_minutes) * 60);
  char secs[8] = "";
  if (c.ss) std::snprintf(secs, sizeof secs, ":%02d", c.ss);
  int off = offset_minutes < 0 ? -offset_minutes : offset_minutes;
  char buf[80];
  std::snprintf(buf, sizeof buf, "%04ld-%02d-%02d %02d:%02d%s %c%02d:%02d", c.y, c.m, c.d, c.hh, c.mm, secs,
                offset_minutes < 0 ? '-' : '+', off / 60, off % 60);
  return buf;
}

std::string format_utc(int64_t unix_seconds) {
  Civil c = civil_of(unix_seconds);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04ld-%02d-%02dT%02d:%02d:%02dZ", c.y, c.m, c.d, c.hh, c.mm, c.ss);
  return buf;
}

// ---------------------------------------------------------------- students

namespace {

// How a character that an identifier may not hold is named in a message: "';'", "a tab",
// "U+00A0" (invisible or look-alike characters by their code point).
std::string named_character(std::string_view s, size_t at) {
  unsigned char b = static_cast<unsigned char>(s[at]);
  if (b == ' ') return "a space";
  if (b == '\t') return "a tab";
  if (b < 0x20 || b == 0x7F) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "the control character \\x%02x", b);
    return buf;
  }
  if (b < 0x80) return std::string("'") + static_cast<char>(b) + "'";
  uint32_t cp = 0;
  if (utf8_sequence_at(s, at, &cp) == 0) return "a byte that is not UTF-8";
  char buf[32];
  std::snprintf(buf, sizeof buf, "the character U+%04X", static_cast<unsigned>(cp));
  return buf;
}

bool student_id_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
         c == '-' || c == '@' || c == '+';
}

}  // namespace

std::optional<std::string> normalize_student_id(std::string_view raw, std::string* error, size_t* error_at) {
  size_t b = 0, e = raw.size();
  while (b < e && raw[b] == ' ') ++b;
  while (e > b && raw[e - 1] == ' ') --e;
  auto fail = [&](const std::string& why, size_t at) -> std::optional<std::string> {
    if (error) *error = why;
    if (error_at) *error_at = at;
    return std::nullopt;
  };
  if (b == e) return fail("enter your e-mail address or student number", 0);
  for (size_t i = b; i < e; ++i) {
    if (i - b >= kMaxStudentIdChars)
      return fail("an identifier is at most " + std::to_string(kMaxStudentIdChars) + " characters", i);
    if (!student_id_char(raw[i]))
      return fail("character " + std::to_string(i - b + 1) + " is " + named_character(raw, i) +
                      "; an identifier (an e-mail address or a student number) holds only the letters A-Z, the "
                      "digits 0-9 and . _ - @ +",
                  i);
  }
  std::string s(raw.substr(b, e - b));
  if (!std::isalnum(static_cast<unsigned char>(s[0])))
    return fail("an identifier starts with a letter or a digit, not " + named_character(s, 0), b);
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

namespace {

// FNV-1a over the three strings with a separator that cannot occur in any of them (ids have
// no NUL; identifiers have no control characters), then a 64-bit finaliser (splitmix64's)
// so that seeds of nearby identifiers are not near each other.
uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace

uint64_t derive_seed(std::string_view assignment_id, std::string_view student, std::string_view exercise_id) {
  uint64_t h = 0xcbf29ce484222325ull;
  auto feed = [&](std::string_view s) {
    for (unsigned char c : s) {
      h ^= c;
      h *= 0x100000001b3ull;
    }
    h ^= 0;
    h *= 0x100000001b3ull;  // the separator
  };
  feed("dtx-seed/1");  // a new derivation would change this, and every student's numbers
  feed(assignment_id);
  feed(student);
  feed(exercise_id);
  return mix(h) % 999999999ull + 1;
}

uint64_t assignment_seed(const Assignment& a, const AssignmentItem& item, const std::string& student) {
  if (item.seed) return *item.seed;
  if (!a.per_student_numbers) return 0;
  return derive_seed(a.id, student, item.id);
}

// ---------------------------------------------------------------- the file

bool looks_like_assignment(const std::string& text) {
  // Cheap and without a full parse: the page and `dtx lint` decide which reader to use.
  if (text.size() > kMaxAssignmentBytes + 1 || !Json::accept(text)) return false;
  Json j = Json::parse(text, nullptr, false);
  if (!j.is_object()) return false;
  auto f = j.find("format");
  return f != j.end() && f->is_string() && f->get<std::string>().rfind("dtx-assignment", 0) == 0;
}

namespace {

// The assignment's own fields: format, id, title, intro, hand-in words and due time.
void load_assignment_header(const Json& doc, LoadContext& ctx, Assignment& a) {
  ctx.string_field(doc, "", "$schema", false);
  if (auto f = ctx.string_field(doc, "", "format", true); f && *f != kAssignmentFormat)
    ctx.error(DiagCode::UnsupportedFormat, "/format",
              std::string("this engine reads assignments of format \"") + kAssignmentFormat + "\", got \"" + *f + "\"");
  if (auto id = ctx.string_field(doc, "", "id", true)) {
    if (!valid_id(*id, false))
      ctx.error(DiagCode::BadName, "/id",
                "expected an assignment id of lower-case letters, digits and '-' (it goes into every student's numbers "
                "and file name), got \"" + *id + "\"" + suggest_id(*id, false));
    else if (id->size() > kMaxIdChars)
      ctx.error(DiagCode::TooLong, "/id", "an id may be at most " + std::to_string(kMaxIdChars) + " characters");
    a.id = *id;
  }
  if (auto t = ctx.string_field(doc, "", "title", true)) {
    if (t->size() > kMaxTitleChars * 4) ctx.error(DiagCode::TooLong, "/title", "a title is one line; put the rest in \"intro\"");
    a.title = *t;
  }
  if (auto t = ctx.string_field(doc, "", "intro", false)) a.intro = *t;
  if (auto t = ctx.string_field(doc, "", "hand_in", true)) a.hand_in = *t;
  if (auto due = ctx.string_field(doc, "", "due", true)) {
    a.due_text = *due;
    if (!parse_datetime(*due, &a.due_unix, &a.due_offset_minutes))
      ctx.error(DiagCode::BadDateTime, "/due",
                "expected a date and time with its time zone offset, like \"2026-12-05T17:00:00+01:00\" or "
                "\"2026-12-05T16:00:00Z\", got \"" + excerpt(*due, 60) + "\"");
  }
}

// One entry of "exercises" (an id, or {"id", "seed", "points"}), or nothing when it is in error
// (reported) or listed already.
std::optional<AssignmentItem> load_assignment_item(const Json& e, const std::string& p, LoadContext& ctx,
                                                 std::set<std::string>& seen) {
  AssignmentItem item;
  item.pointer = p;
  item.id_pointer = e.is_object() ? p + "/id" : p;
  if (e.is_string()) {
    item.id = e.get<std::string>();
  } else if (e.is_object()) {
    ctx.check_fields(e, p, {"id", "seed", "points"}, {"id"});
    if (auto id = ctx.string_field(e, p, "id", true)) item.id = *id;
    if (auto s = ctx.int_field(e, p, "seed", false, 0, 999999999)) item.seed = static_cast<uint64_t>(*s);
    if (auto pts = ctx.number_field(e, p, "points", false)) {
      if (!(*pts >= 0 && *pts <= 1000))
        ctx.error(DiagCode::ValueNotAllowed, p + "/points", "expected points from 0 to 1000, got " + format_number(*pts, 6));
      else
        item.points = *pts;
    }
  } else {
    ctx.error(DiagCode::WrongKind, p, "expected an exercise id or an {\"id\": ...} object, got " + describe_json(e));
    return std::nullopt;
  }
  if (item.id.empty()) return std::nullopt;
  // Exercise ids go into seeds, file names and the gradebook's header: the pack's own
  // rule (lower-case letters, digits, '-' and '.') holds here too.
  if (!valid_id(item.id, true) || item.id.size() > kMaxIdChars) {
    ctx.error(DiagCode::BadName, item.id_pointer,
              "expected an exercise id of at most " + std::to_string(kMaxIdChars) +
                  " lower-case letters, digits, '-' and '.', got \"" + excerpt(item.id, 60) + "\"" +
                  suggest_id(item.id, true));
    return std::nullopt;
  }
  if (!seen.insert(item.id).second) {
    ctx.error(DiagCode::Duplicate, item.id_pointer,
              "\"" + item.id + "\" is listed twice; an exercise is graded once per assignment");
    return std::nullopt;
  }
  return item;
}

// {"pool": NAME, "pick": K, "from": [...], "points": P}: K of the listed exercises per student.
void load_pool(const Json& e, const std::string& p, LoadContext& ctx, std::set<std::string>& seen, Assignment& a) {
  ctx.check_fields(e, p, {"pool", "pick", "from", "points"}, {"pool", "pick", "from"});
  AssignmentPool pool;
  pool.pointer = p;
  if (auto n = ctx.string_field(e, p, "pool", true)) pool.name = *n;
  for (const auto& other : a.pools)
    if (other.name == pool.name) ctx.error(DiagCode::Duplicate, p + "/pool", "a second pool named \"" + excerpt(pool.name, 40) + "\"");
  if (auto pts = ctx.number_field(e, p, "points", false)) {
    if (!(*pts >= 0 && *pts <= 1000)) ctx.error(DiagCode::ValueNotAllowed, p + "/points", "expected points from 0 to 1000, got " + format_number(*pts, 6));
    pool.points = *pts;
  }
  auto from = e.find("from");
  if (from == e.end() || !from->is_array() || from->empty()) {
    ctx.error(DiagCode::WrongKind, p + "/from", "expected a non-empty array of exercise ids to pick from");
    return;
  }
  auto pick = ctx.int_field(e, p, "pick", true, 1, static_cast<long long>(from->size()));
  if (!pick) return;
  pool.pick = static_cast<int>(*pick);
  const int index = static_cast<int>(a.pools.size());
  a.pools.push_back(pool);
  for (size_t j = 0; j < from->size(); ++j) {
    const std::string mp = p + "/from/" + std::to_string(j);
    if ((*from)[j].is_object() && (*from)[j].contains("points"))
      ctx.error(DiagCode::UnknownField, mp + "/points", "a pool's exercises share the pool's \"points\"");
    auto item = load_assignment_item((*from)[j], mp, ctx, seen);
    if (!item) continue;
    item->pool = index;
    item->points = pool.points;
    a.exercises.push_back(std::move(*item));
  }
}

void load_assignment_exercises(const Json& doc, LoadContext& ctx, Assignment& a) {
  auto it = doc.find("exercises");
  if (it == doc.end()) return;
  if (!it->is_array() || it->empty()) {
    ctx.error(DiagCode::WrongKind, "/exercises",
              "expected a non-empty array of exercise ids or {\"id\", \"seed\", \"points\"} objects, got " +
                  describe_json(*it));
    return;
  }
  if (it->size() > kMaxAssignmentExercises) {
    ctx.error(DiagCode::WrongCount, "/exercises",
              "an assignment lists at most " + std::to_string(kMaxAssignmentExercises) + " exercises, this one " +
                  std::to_string(it->size()));
    return;
  }
  std::set<std::string> seen;
  for (size_t i = 0; i < it->size(); ++i) {
    const std::string p = "/exercises/" + std::to_string(i);
    if ((*it)[i].is_object() && (*it)[i].contains("pool")) load_pool((*it)[i], p, ctx, seen, a);
    else if (auto item = load_assignment_item((*it)[i], p, ctx, seen)) a.exercises.push_back(std::move(*item));
  }
}

std::optional<int64_t> datetime_field(const Json& obj, const std::string& ptr, const char* key, LoadContext& ctx) {
  auto text = ctx.string_field(obj, ptr, key, true);
  if (!text) return std::nullopt;
  int64_t t = 0;
  int offset = 0;
  if (parse_datetime(*text, &t, &offset)) return t;
  ctx.error(DiagCode::BadDateTime, ptr + "/" + key,
            "expected a date and time with its time zone offset, like \"2026-12-05T17:00:00+01:00\", got \"" +
                excerpt(*text, 60) + "\"");
  return std::nullopt;
}

// "late": {"until": DATE, "penalty_per_day": 0.1} or {"until": DATE, "factor": 0.5}.
void load_late_policy(const Json& policies, LoadContext& ctx, Assignment& a) {
  auto it = policies.find("late");
  if (it == policies.end() || !ctx.expect_object(*it, "/policies/late", "the late policy")) return;
  const std::string p = "/policies/late";
  ctx.check_fields(*it, p, {"until", "penalty_per_day", "factor"}, {"until"});
  LatePolicy late;
  auto until = datetime_field(*it, p, "until", ctx);
  if (!until) return;
  late.until_unix = *until;
  late.until_text = (*it)["until"].get<std::string>();
  if (late.until_unix <= a.due_unix)
    ctx.error(DiagCode::ValueNotAllowed, p + "/until", "the late window must end after the due date (" + a.due_text + ")");
  auto per_day = ctx.number_field(*it, p, "penalty_per_day", false);
  auto factor = ctx.number_field(*it, p, "factor", false);
  if (per_day.has_value() == factor.has_value()) {
    ctx.error(DiagCode::MissingField, p, "expected one of \"penalty_per_day\" (0.1: 10 % less per day begun late) or "
                                         "\"factor\" (0.5: half the score)");
    return;
  }
  if (per_day && !(*per_day >= 0 && *per_day <= 1))
    ctx.error(DiagCode::ValueNotAllowed, p + "/penalty_per_day", "expected a share from 0 to 1, got " + format_number(*per_day));
  if (factor && !(*factor >= 0 && *factor <= 1))
    ctx.error(DiagCode::ValueNotAllowed, p + "/factor", "expected a share from 0 to 1, got " + format_number(*factor));
  late.penalty_per_day = per_day.value_or(0);
  late.factor = factor;
  a.late = late;
}

// "extensions": {"IDENTIFIER": DATE, ...}: a later due date for some students.
void load_extensions(const Json& doc, LoadContext& ctx, Assignment& a) {
  auto it = doc.find("extensions");
  if (it == doc.end() || !ctx.expect_object(*it, "/extensions", "the extensions (identifier: due date)")) return;
  for (auto e = it->begin(); e != it->end(); ++e) {
    const std::string ptr = "/extensions/" + json_pointer_escape(e.key());
    std::string why;
    auto id = normalize_student_id(e.key(), &why);
    if (!id) {
      ctx.error(DiagCode::BadName, ptr, "\"" + excerpt(e.key(), 40) + "\" is not a student identifier: " + why);
      continue;
    }
    auto due = datetime_field(*it, "/extensions", e.key().c_str(), ctx);
    if (!due) continue;
    if (*due <= a.due_unix)
      ctx.error(DiagCode::ValueNotAllowed, ptr, "an extension must be later than the due date (" + a.due_text + ")");
    a.extensions[*id] = *due;
  }
}

void load_assignment_policies(const Json& doc, LoadContext& ctx, Assignment& a) {
  if (auto it = doc.find("policies"); it != doc.end() && ctx.expect_object(*it, "/policies", "the policies")) {
    ctx.check_fields(*it, "/policies", {"per_student_numbers", "explanations", "max_attempts", "passing_score", "late", "feedback"}, {});
    if (auto b = ctx.bool_field(*it, "/policies", "per_student_numbers")) a.per_student_numbers = *b;
    if (auto e = ctx.string_field(*it, "/policies", "explanations", false)) {
      if (*e == "after-attempt") a.explanations = ExplanationPolicy::AfterAttempt;
      else if (*e == "after-solve") a.explanations = ExplanationPolicy::AfterSolve;
      else if (*e == "after-due") a.explanations = ExplanationPolicy::AfterDue;
      else
        ctx.error(DiagCode::ValueNotAllowed, "/policies/explanations",
                  "expected \"after-attempt\", \"after-solve\" or \"after-due\", got \"" + excerpt(*e, 40) + "\"" +
                      did_you_mean(*e, {"after-attempt", "after-solve", "after-due"}));
    }
    if (auto m = ctx.int_field(*it, "/policies", "max_attempts", false, 0, kMaxAttemptsPolicy))
      a.max_attempts = static_cast<int>(*m);
    load_late_policy(*it, ctx, a);
    if (auto f = ctx.string_field(*it, "/policies", "feedback", false)) {
      if (*f == "immediate") a.feedback = FeedbackPolicy::Immediate;
      else if (*f == "after-due") a.feedback = FeedbackPolicy::AfterDue;
      else
        ctx.error(DiagCode::ValueNotAllowed, "/policies/feedback",
                  "expected \"immediate\" or \"after-due\" (exam mode), got \"" + excerpt(*f, 40) + "\"" +
                      did_you_mean(*f, {"immediate", "after-due"}));
    }
    if (auto p = ctx.number_field(*it, "/policies", "passing_score", false)) {
      if (*p >= 0 && *p <= 1) a.passing_score = *p;
      else
        ctx.error(DiagCode::ValueNotAllowed, "/policies/passing_score",
                  "expected a share of the points from 0 to 1 (0.6: 60 %), got " + format_number(*p));
    }
  }
}

}  // namespace

int64_t Assignment::due_for(const std::string& student) const {
  auto it = extensions.find(student);
  return it == extensions.end() ? due_unix : it->second;
}

std::optional<double> Assignment::late_factor(const std::string& student, int64_t at) const {
  const int64_t due = due_for(student);
  if (at <= due) return 1.0;
  if (!late || at > std::max(late->until_unix, due)) return std::nullopt;
  if (late->factor) return *late->factor;
  const int64_t days = (at - due + 86399) / 86400;  // each day begun
  return std::max(0.0, 1.0 - late->penalty_per_day * static_cast<double>(days));
}

AssignmentLoad load_assignment(const std::string& text, const std::string& file) {
  AssignmentLoad res;
  auto parsed = read_json_document(text, file, kMaxAssignmentBytes, "the most an assignment may be", res.diagnostics);
  if (!parsed) return res;
  LoadContext ctx = load_context(*parsed, file, res.diagnostics);
  const Json& doc = parsed->doc;
  if (!check_json_document(*parsed, ctx) || !ctx.expect_object(doc, "", "an assignment")) return res;
  Assignment a;
  a.file = file;
  ctx.check_fields(doc, "", {"$schema", "format", "id", "title", "intro", "due", "hand_in", "exercises", "policies", "extensions"},
                   {"format", "id", "title", "due", "hand_in", "exercises"});
  load_assignment_header(doc, ctx, a);
  load_assignment_exercises(doc, ctx, a);
  load_assignment_policies(doc, ctx, a);
  load_extensions(doc, ctx, a);
  if (!ctx.failed()) res.assignment = std::move(a);
  return res;
}

std::vector<Diagnostic> lint_assignment(const Assignment& a, const std::string& text, const Library& course) {
  std::vector<Diagnostic> out;
  Reporter rep;
  rep.file = a.file;
  rep.text = std::make_shared<const std::string>(text);
  rep.positions = std::make_shared<const JsonPosIndex>(JsonPosIndex::build(text));
  rep.out = &out;
  std::vector<std::string> ids;
  for (const auto& p : course.packs)
    for (const auto& e : p.exercises) ids.push_back(e.id);
  for (const auto& item : a.exercises) {
    const std::string& ptr = item.id_pointer;
    const Exercise* ex = course.find(item.id);
    if (!ex) {
      rep.error(DiagCode::UnknownExercise, ptr,
                "no exercise \"" + item.id + "\" in the course" + did_you_mean(item.id, ids) +
                    " (dtx list shows every id; an exercise of a pack that does not load is not in the course)");
      continue;
    }
    if (item.seed) {
      std::string err;
      if (!make_instance(*ex, *item.seed, &err))
        rep.error(DiagCode::CannotMakeInstance, item.pointer + "/seed",
                  "seed " + std::to_string(*item.seed) + " of \"" + item.id + "\" makes no instance: " + err);
    }
  }
  return out;
}

std::vector<Diagnostic> lint_assignment_packs(const Assignment& a, const Library& course) {
  std::set<std::string> files;
  for (const auto& item : a.exercises)
    if (const Exercise* ex = course.find(item.id)) files.insert(ex->file);
  Library packs;
  for (const auto& p : course.packs)
    if (files.count(p.file)) packs.packs.push_back(p);
  LintOptions options;
  options.exercise_exists = [&course](const std::string& id) { return course.find(id) != nullptr; };
  return lint_library(packs, options);
}

}  // namespace dtx
