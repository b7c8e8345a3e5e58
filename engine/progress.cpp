#include "progress.h"

#include <cmath>
#include <nlohmann/json.hpp>

namespace dtx {

using Json = nlohmann::json;

long days_from_date(const std::string& s) {
  // Howard Hinnant's days_from_civil; strict "YYYY-MM-DD".
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return -1;
  for (int i : {0, 1, 2, 3, 5, 6, 8, 9})
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return -1;
  int y = std::stoi(s.substr(0, 4)), m = std::stoi(s.substr(5, 2)), d = std::stoi(s.substr(8, 2));
  if (m < 1 || m > 12 || d < 1 || d > 31) return -1;
  y -= m <= 2;
  long era = (y >= 0 ? y : y - 399) / 400;
  long yoe = y - era * 400;
  long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

ProgressRead read_progress(const std::string& text) {
  ProgressRead r;
  Json j = Json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    r.unreadable = true;
    r.problems.push_back(j.is_discarded() ? "the stored progress is not valid JSON"
                                          : "the stored progress is not a JSON object");
    return r;
  }
  auto version = j.find("version");
  if (version == j.end() || !version->is_number_integer()) {
    r.problems.push_back("no version number; reading it as version 1");
  } else if (version->get<int>() > kProgressVersion) {
    r.problems.push_back("written by a newer dtx (version " + std::to_string(version->get<int>()) +
                         "); fields this version does not know are ignored");
  }
  auto exs = j.find("exercises");
  if (exs != j.end()) {
    if (!exs->is_object()) {
      r.problems.push_back("\"exercises\" is not an object; per-exercise progress is lost");
    } else {
      for (auto it = exs->begin(); it != exs->end(); ++it) {
        const Json& e = it.value();
        ExerciseProgress ep;
        bool ok = e.is_object();
        auto num = [&](const char* k, auto& out) {
          auto f = e.find(k);
          if (f == e.end()) return;
          if (!f->is_number()) {
            ok = false;
            return;
          }
          out = f->get<std::remove_reference_t<decltype(out)>>();
        };
        if (ok) {
          num("attempts", ep.attempts);
          num("best", ep.best_score);
          num("solved_at", ep.solved_at);
          num("last_at", ep.last_attempt_at);
        }
        if (ok && (ep.attempts < 0 || !(ep.best_score >= 0 && ep.best_score <= 1))) ok = false;
        if (!ok) {
          r.problems.push_back("the record for \"" + it.key() + "\" is malformed and was skipped");
          continue;
        }
        r.progress.exercises[it.key()] = ep;
      }
    }
  }
  if (auto s = j.find("streak"); s != j.end()) {
    // Checked field by field: json::value() would throw on a wrong type.
    auto int_at = [&](const char* k) -> int {
      auto f = s->is_object() ? s->find(k) : s->end();
      return f != s->end() && f->is_number_integer() && f->get<int>() >= 0 ? f->get<int>() : -1;
    };
    int cur = int_at("current"), best = int_at("best");
    if (cur >= 0 && best >= 0) {
      r.progress.streak_days = cur;
      r.progress.best_streak_days = best;
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
  if (auto l = j.find("last_exercise"); l != j.end() && l->is_string())
    r.progress.last_exercise = l->get<std::string>();
  return r;
}

std::string write_progress(const Progress& p) {
  Json j;
  j["format"] = "dtx-progress";
  j["version"] = kProgressVersion;
  Json exs = Json::object();
  for (const auto& [id, e] : p.exercises) {
    exs[id] = {{"attempts", e.attempts}, {"best", e.best_score}, {"solved_at", e.solved_at},
               {"last_at", e.last_attempt_at}};
  }
  j["exercises"] = exs;
  j["streak"] = {{"current", p.streak_days}, {"best", p.best_streak_days}, {"last_day", p.last_active_day}};
  j["last_exercise"] = p.last_exercise;
  return j.dump(1);
}

bool record_attempt(Progress& p, const std::string& id, const Feedback& fb, int64_t now,
                    const std::string& today) {
  if (!fb.counts_as_attempt()) return false;
  ExerciseProgress& e = p.exercises[id];
  e.attempts += 1;
  e.best_score = std::max(e.best_score, fb.score);
  e.last_attempt_at = now;
  if (fb.verdict == Verdict::Correct && e.solved_at == 0) e.solved_at = now;
  p.last_exercise = id;
  long d = days_from_date(today);
  long last = days_from_date(p.last_active_day);
  if (d >= 0) {
    if (last >= 0 && d == last) {
      // same day: streak unchanged
      if (p.streak_days == 0) p.streak_days = 1;
    } else if (last >= 0 && d == last + 1) {
      p.streak_days += 1;
    } else if (last < 0 || d > last) {
      p.streak_days = 1;
    }
    // d < last (clock moved back): keep the streak as it is
    if (d >= last) p.last_active_day = today;
    p.best_streak_days = std::max(p.best_streak_days, p.streak_days);
  }
  return true;
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
    if (it->second.attempts > 0) ++c.attempted;
    if (it->second.solved_at > 0) ++c.solved;
    sum += it->second.best_score;
  }
  c.mastery = c.total ? sum / c.total : 0;
  return c;
}

}  // namespace dtx
