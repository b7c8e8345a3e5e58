#include "scorm.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "json_fields.h"
#include "sha256.h"
#include "text.h"

namespace dtx {

namespace {

std::string trim_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f", v);
  std::string s = buf;
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default:
        // XML 1.0 has no place for the C0 controls other than tab and the line ends.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') out += ' ';
        else out += c;
    }
  }
  return out;
}

// At most `n` characters of UTF-8 text, cut at a character's start.
std::string utf8_prefix(const std::string& s, size_t n) {
  size_t chars = 0, i = 0;
  while (i < s.size() && chars < n) {
    ++i;
    while (i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) ++i;
    ++chars;
  }
  return s.substr(0, i);
}

char verdict_letter(const std::string& v) { return v == "correct" ? 'c' : v == "partial" ? 'p' : 'i'; }
std::string verdict_of(const std::string& letter) {
  return letter == "c" ? "correct" : letter == "p" ? "partial" : "incorrect";
}

// Which attempts keep their words when the log must shrink: each item's latest and best.
std::set<size_t> attempts_to_keep(const Submission& log, bool best_too) {
  std::map<std::string, size_t> latest, best;
  for (size_t i = 0; i < log.attempts.size(); ++i) {
    const auto& at = log.attempts[i];
    latest[at.exercise] = i;
    auto b = best.find(at.exercise);
    if (b == best.end() || at.score > log.attempts[b->second].score) best[at.exercise] = i;
  }
  std::set<size_t> keep;
  for (const auto& [_, i] : latest) keep.insert(i);
  if (best_too)
    for (const auto& [_, i] : best) keep.insert(i);
  return keep;
}

Json suspend_json(const Assignment& a, const Submission& log, const std::string& student, int reported,
                  const std::vector<bool>& with_words, size_t first) {
  std::map<std::string, size_t> item_index, pack_index;
  for (size_t i = 0; i < a.exercises.size(); ++i) item_index[a.exercises[i].id] = i;
  Json packs = Json::array(), attempts = Json::array();
  const int64_t base = first < log.attempts.size() ? log.attempts[first].at : 0;
  for (size_t i = first; i < log.attempts.size(); ++i) {
    const SubmittedAttempt& at = log.attempts[i];
    const std::string pack = at.pack + " " + at.pack_sha256;
    auto [p, fresh] = pack_index.emplace(pack, packs.size());
    if (fresh) packs.push_back(pack);
    Json row = Json::array();
    auto it = item_index.find(at.exercise);
    const AssignmentItem* item = a.item(at.exercise);
    if (it != item_index.end()) row.push_back(it->second);
    else row.push_back(at.exercise);
    if (item && at.seed == assignment_seed(a, *item, student)) row.push_back(nullptr);
    else row.push_back(at.seed);
    row.push_back(at.at - base);
    row.push_back(std::string(1, verdict_letter(at.verdict)));
    row.push_back(std::round(at.score * 1000) / 1000);
    row.push_back(p->second);
    if (with_words[i]) row.push_back(at.answer);
    else row.push_back(0);
    attempts.push_back(std::move(row));
  }
  return Json{{"v", 1}, {"r", std::max(0, reported - static_cast<int>(first))}, {"t", base}, {"p", packs}, {"a", attempts}};
}

}  // namespace

ItemStanding item_standing(const Assignment& a, const AssignmentItem& item, const Submission& log,
                           const std::string& student) {
  ItemStanding s;
  const uint64_t own = assignment_seed(a, item, student);
  for (const auto& at : log.attempts) {
    if (at.exercise != item.id || at.seed != own) continue;
    const std::optional<double> factor = a.late_factor(student, at.at);
    if (!factor) continue;
    if (a.max_attempts && s.attempts >= a.max_attempts) break;
    s.attempts++;
    s.best = std::max(s.best, at.score * *factor);
    s.solved |= at.verdict == "correct";
  }
  return s;
}

ScormStatus scorm_status(const Assignment& a, const Submission& log, const std::string& student,
                         std::optional<double> passing) {
  ScormStatus st;
  int attempted = 0;
  int items = 0;
  for (const auto& item : a.exercises) {
    if (!a.given(item, student)) continue;
    ++items;
    ItemStanding s = item_standing(a, item, log, student);
    st.raw += s.best * item.points;
    st.max += item.points;
    attempted += s.attempts > 0;
  }
  st.scaled = st.max > 0 ? std::clamp(st.raw / st.max, 0.0, 1.0) : 0;
  st.progress = items == 0 ? 1 : static_cast<double>(attempted) / items;
  st.completed = attempted == items;
  if (!passing) passing = a.passing_score;
  // Before any attempt counts there is nothing to pass or fail.
  st.success = !passing || attempted == 0 ? "unknown" : st.scaled + 1e-9 >= *passing ? "passed" : "failed";
  return st;
}

std::string scorm_timespan(double seconds) {
  if (!(seconds > 0)) return "PT0S";
  seconds = std::round(seconds * 100) / 100;  // RTE: at most two decimals of a second
  long long whole = static_cast<long long>(seconds);
  const double frac = seconds - static_cast<double>(whole);
  const long long h = whole / 3600, m = whole / 60 % 60;
  std::string out = "PT";
  if (h) out += std::to_string(h) + "H";
  if (m) out += std::to_string(m) + "M";
  out += trim_number(static_cast<double>(whole % 60) + frac) + "S";
  return out;
}

ScormInteraction scorm_interaction(const SubmittedAttempt& at, const std::string& title, double points,
                                   double latency_seconds) {
  ScormInteraction in;
  in.id = at.exercise;
  Json response{{"seed", at.seed}, {"answer", at.answer}};
  in.learner_response = response.dump();  // one line: newlines in a program are escaped
  if (in.learner_response.size() > kScormResponseChars) {
    response["answer"] = Json::array({"(" + std::to_string(in.learner_response.size()) +
                                      " characters, more than an LMS keeps: the answer is in the submission file)"});
    in.learner_response = response.dump();
  }
  in.result = at.verdict == "correct" ? "correct" : at.score > 0 ? trim_number(at.score) : "incorrect";
  in.timestamp = format_utc(at.at);
  if (!in.timestamp.empty() && in.timestamp.back() == 'Z') in.timestamp.insert(in.timestamp.size() - 1, ".0");
  in.latency = scorm_timespan(latency_seconds);
  in.description = utf8_prefix(title, 250);
  in.weighting = points;
  return in;
}

SuspendWrite write_suspend(const Assignment& a, const Submission& log, const std::string& student, int reported,
                           size_t budget) {
  SuspendWrite out;
  const size_t n = log.attempts.size();
  std::vector<bool> words(n, true);
  auto fits = [&](size_t first) {
    out.text = suspend_json(a, log, student, reported, words, first).dump();
    return out.text.size() <= budget;
  };
  if (fits(0)) return out;
  // Words of attempts that are neither an item's best nor its latest, oldest first; then all
  // but the latest.
  for (bool best_too : {true, false}) {
    const std::set<size_t> keep = attempts_to_keep(log, best_too);
    for (size_t i = 0; i < n; ++i) {
      if (keep.count(i) || !words[i]) continue;
      words[i] = false;
      out.dropped_words++;
      if ((out.dropped_words & 15) == 0 && fits(0)) return out;
    }
    if (fits(0)) return out;
  }
  for (size_t first = 1; first <= n; ++first) {
    out.dropped_attempts = static_cast<int>(first);
    if (fits(first)) return out;
  }
  return out;
}

SuspendRead read_suspend(const std::string& text, const Assignment& a, const std::string& student) {
  SuspendRead out;
  out.log.assignment = a.id;
  out.log.student = student;
  Json doc = Json::parse(text, nullptr, false);
  auto fail = [&](const std::string& why) {
    out.log.attempts.clear();
    out.error = why;
    return out;
  };
  if (!doc.is_object() || doc.value("v", 0) != 1) return fail("not dtx's resume state (format 1)");
  const Json& packs = doc.value("p", Json::array());
  const Json& rows = doc.value("a", Json::array());
  if (!packs.is_array() || !rows.is_array() || !doc.value("t", Json()).is_number_integer())
    return fail("its packs, attempts or base time are missing");
  const int64_t base = doc["t"].get<int64_t>();
  out.reported = std::max(0, doc.value("r", 0));
  for (const Json& r : rows) {
    if (!r.is_array() || r.size() != 7 || !r[2].is_number_integer() || !r[3].is_string() || !r[4].is_number() ||
        !r[5].is_number_unsigned() || r[5].get<size_t>() >= packs.size() || !packs[r[5].get<size_t>()].is_string())
      return fail("an attempt is not [item, seed, time, verdict, score, pack, words]");
    SubmittedAttempt at;
    if (r[0].is_number_unsigned() && r[0].get<size_t>() < a.exercises.size()) at.exercise = a.exercises[r[0].get<size_t>()].id;
    else if (r[0].is_string()) at.exercise = r[0].get<std::string>();
    else return fail("an attempt names no exercise of the assignment");
    const AssignmentItem* item = a.item(at.exercise);
    if (r[1].is_null() && item) at.seed = assignment_seed(a, *item, student);
    else if (r[1].is_number_unsigned()) at.seed = r[1].get<uint64_t>();
    else return fail("an attempt's numbers (seed) are not a whole number");
    at.at = base + r[2].get<int64_t>();
    at.verdict = verdict_of(r[3].get<std::string>());
    at.score = std::clamp(r[4].get<double>(), 0.0, 1.0);
    const std::string pack = packs[r[5].get<size_t>()].get<std::string>();
    const size_t space = pack.rfind(' ');
    at.pack = space == std::string::npos ? pack : pack.substr(0, space);
    at.pack_sha256 = space == std::string::npos ? "" : pack.substr(space + 1);
    if (r[6].is_array())
      for (const Json& w : r[6])
        if (w.is_string() && at.answer.size() < kMaxAnswerWords) at.answer.push_back(w.get<std::string>());
    out.log.attempts.push_back(std::move(at));
  }
  return out;
}

Submission merge_resumed(const Submission& local, const Submission& resumed) {
  auto same = [](const SubmittedAttempt& x, const SubmittedAttempt& y) {
    return x.exercise == y.exercise && x.seed == y.seed && x.at == y.at && x.verdict == y.verdict;
  };
  Submission out = local;
  for (const auto& r : resumed.attempts) {
    bool here = std::any_of(local.attempts.begin(), local.attempts.end(), [&](const SubmittedAttempt& l) {
      return same(l, r) && (r.answer.empty() || l.answer == r.answer);
    });
    if (!here) out.attempts.push_back(r);
  }
  std::stable_sort(out.attempts.begin(), out.attempts.end(),
                   [](const SubmittedAttempt& x, const SubmittedAttempt& y) { return x.at < y.at; });
  return out;
}

std::string scorm_manifest(const Assignment& a, const std::string& launch, const std::vector<std::string>& files) {
  // xs:ID values start with a letter; an assignment id may start with a digit.
  const std::string id = "dtx-" + a.id;
  std::string x =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<manifest identifier=\"" + id + "\" version=\"1\"\n"
      "  xmlns=\"http://www.imsglobal.org/xsd/imscp_v1p1\"\n"
      "  xmlns:adlcp=\"http://www.adlnet.org/xsd/adlcp_v1p3\"\n"
      "  xmlns:adlseq=\"http://www.adlnet.org/xsd/adlseq_v1p3\"\n"
      "  xmlns:adlnav=\"http://www.adlnet.org/xsd/adlnav_v1p3\"\n"
      "  xmlns:imsss=\"http://www.imsglobal.org/xsd/imsss\"\n"
      "  xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"\n"
      "  xsi:schemaLocation=\"http://www.imsglobal.org/xsd/imscp_v1p1 imscp_v1p1.xsd "
      "http://www.adlnet.org/xsd/adlcp_v1p3 adlcp_v1p3.xsd http://www.adlnet.org/xsd/adlseq_v1p3 adlseq_v1p3.xsd "
      "http://www.adlnet.org/xsd/adlnav_v1p3 adlnav_v1p3.xsd http://www.imsglobal.org/xsd/imsss imsss_v1p0.xsd\">\n"
      "  <metadata>\n    <schema>ADL SCORM</schema>\n    <schemaversion>2004 4th Edition</schemaversion>\n  </metadata>\n"
      "  <organizations default=\"" + id + "-org\">\n"
      "    <organization identifier=\"" + id + "-org\">\n"
      "      <title>" + xml_escape(a.title) + "</title>\n"
      "      <item identifier=\"" + id + "-item\" identifierref=\"" + id + "-sco\">\n"
      "        <title>" + xml_escape(a.title) + "</title>\n";
  if (a.passing_score)
    x += "        <imsss:sequencing>\n          <imsss:objectives>\n"
         "            <imsss:primaryObjective objectiveID=\"" + id + "-score\" satisfiedByMeasure=\"true\">\n"
         "              <imsss:minNormalizedMeasure>" + trim_number(*a.passing_score) + "</imsss:minNormalizedMeasure>\n"
         "            </imsss:primaryObjective>\n          </imsss:objectives>\n        </imsss:sequencing>\n";
  x += "      </item>\n    </organization>\n  </organizations>\n  <resources>\n"
       "    <resource identifier=\"" + id + "-sco\" type=\"webcontent\" adlcp:scormType=\"sco\" href=\"" +
       xml_escape(launch) + "\">\n";
  for (const auto& f : files) x += "      <file href=\"" + xml_escape(f) + "\"/>\n";
  x += "    </resource>\n  </resources>\n</manifest>\n";
  return x;
}

std::string identifier_from_learner_id(const std::string& learner_id) {
  std::string why;
  if (auto id = normalize_student_id(learner_id, &why)) return *id;
  return "lms-" + sha256_hex(learner_id).substr(0, 16);
}

}  // namespace dtx
