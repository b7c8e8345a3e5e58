#include "report.h"

#include "maths.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "json_fields.h"
#include "text.h"
#include "text_escape.h"

namespace dtx {

std::string points_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", std::round(v * 100) / 100);
  std::string s = buf;
  while (s.find('.') != std::string::npos && (s.back() == '0' || s.back() == '.')) {
    bool dot = s.back() == '.';
    s.pop_back();
    if (dot) break;
  }
  return s == "-0" ? "0" : s;
}

namespace {


std::string last_component(const std::string& path) {
  size_t slash = path.find_last_of("/\\");
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// What the engine said about a wrong answer, in one line: the parts it judged wrong with
// their messages, or the feedback's sentence.
std::string diagnosis_of(const Feedback& fb) {
  std::string out;
  for (const auto& p : fb.parts) {
    if (!p.graded || p.verdict == Verdict::Correct) continue;
    std::string m = p.message.empty() ? "no diagnosis" : p.message;
    out += (out.empty() ? "" : "; ") + (p.label.empty() ? p.id : p.label) + ": " + m;
  }
  if (out.empty()) {
    out = fb.message;
    for (const auto& d : fb.details) out += (out.empty() ? "" : " ") + d;
  }
  for (const auto& c : fb.cases)
    if (!c.pass && !c.message.empty()) {
      out += (out.empty() ? "" : "; ") + c.message;
      break;
    }
  if (out.empty()) out = "no diagnosis";
  // One line, and not a page of it.
  for (char& ch : out)
    if (ch == '\n' || ch == '\r' || ch == '\t') ch = ' ';
  return excerpt(out, 200);
}

// The diagnosis with its numbers blanked: students with different numbers who made the same
// mistake ("about 2x the answer: 3.5 GB" and "...: 7 GB") are one group.
std::string group_key(const std::string& diagnosis) {
  std::string k;
  bool in_number = false;
  for (char c : diagnosis) {
    bool digit = (c >= '0' && c <= '9') || (in_number && (c == '.' || c == ','));
    if (digit) {
      if (!in_number) k += '#';
      in_number = true;
    } else {
      in_number = false;
      k += c;
    }
  }
  return k;
}

std::string answer_text(const std::vector<std::string>& words) {
  std::string s;
  for (const auto& w : words) s += (s.empty() ? "" : "  ") + w;
  for (char& ch : s)
    if (ch == '\n' || ch == '\r' || ch == '\t') ch = ' ';
  return excerpt(s, 80);
}

// "1 attempt", "3 attempts".
std::string count_of(int n, const char* what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); }

// Flags of one kind are gathered, then told in one sentence with up to three examples.
struct FlagList {
  explicit FlagList(std::string w) : what(std::move(w)) {}
  std::string what;
  std::vector<std::string> examples;
  int count = 0;
  void add(const std::string& ex) {
    ++count;
    if (examples.size() < 3) examples.push_back(ex);
  }
  std::string sentence() const {
    // `what` starts with "attempts" or "verdicts", said in the singular for one.
    std::string w = what;
    if (count == 1 && w.rfind("attempts ", 0) == 0) w = "attempt " + w.substr(9);
    if (count == 1 && w.rfind("verdicts ", 0) == 0) w = "verdict " + w.substr(9);
    if (count == 1 && w.rfind("answers ", 0) == 0) w = "answer " + w.substr(8);
    std::string s = std::to_string(count) + " " + w;
    for (size_t i = 0; i < examples.size(); ++i) s += (i ? "; " : ": ") + examples[i];
    if (static_cast<size_t>(count) > examples.size()) s += "; ...";
    return s;
  }
};

// One file as read: the identity it claims, its attempts in the file's own order, and the
// attempts left out while reading it.
struct FileEntry {
  std::string file;
  Submission submission;
  std::vector<std::string> notes;
};

// The flags of one identity, gathered over all its files.
struct Flags {
  Flags(const Assignment& a)
      : over{"attempts beyond the limit of " + std::to_string(a.max_attempts) + " (not counted, not run)"} {}
  FlagList copied{"attempts on another student's numbers (copied; not counted, not run)"};
  FlagList practice{"attempts on numbers the assignment did not give this student (not counted, not run)"};
  FlagList late{"attempts after the due date (not counted, not run)"};
  FlagList penalised{"attempts counted late, at a penalty"};
  FlagList over;
  FlagList future{"attempts dated after the report was made (the computer's clock?)"};
  FlagList disagree{"verdicts in the file that the engine does not confirm (the engine's count)"};
  FlagList unreadable_answers{"answers the engine cannot read (not attempts)"};
  FlagList other{"attempts on exercises that are not in this assignment (ignored)"};
  FlagList not_given{"attempts on pool exercises this student was not given (not counted, not run)"};
  FlagList missing{"attempts on exercises the course no longer has (not graded)"};

  void tell(std::vector<std::string>& out) const {
    for (const FlagList* f : {&copied, &practice, &late, &penalised, &over, &future, &disagree, &unreadable_answers, &other,
                              &not_given, &missing})
      if (f->count) out.push_back(f->sentence());
  }
};

// Reads every file; a file that is not a submission for this assignment goes to
// r.unreadable. The rest are grouped by the identity each claims, in the order given.
std::map<std::string, std::vector<FileEntry>> read_files(const Assignment& a, const std::vector<ReportInput>& files,
                                                         Report& r) {
  std::map<std::string, std::vector<FileEntry>> by_student;
  for (const auto& f : files) {
    SubmissionRead read = read_submission(f.text, f.file);
    if (!read.submission) {
      UnreadableFile u{f.file, {}};
      for (const auto& d : read.diagnostics) u.messages.push_back(format_diagnostic(d));
      if (u.messages.empty()) u.messages.push_back(f.file + ": not a submission");
      r.unreadable.push_back(std::move(u));
      continue;
    }
    Submission& s = *read.submission;
    if (s.assignment != a.id) {
      r.unreadable.push_back({f.file, {f.file + ": a submission for assignment \"" + excerpt(s.assignment, 60) +
                                           "\", not \"" + a.id + "\""}});
      continue;
    }
    FileEntry e{f.file, std::move(s), {}};
    for (const auto& d : read.diagnostics) e.notes.push_back(format_diagnostic(d));
    by_student[e.submission.student].push_back(std::move(e));
  }
  return by_student;
}

// Grades files. Each file is graded alone: its attempts in the order the file lists them (the
// times in a file are the file's word, so they never order anything), the attempt limit
// counted within the file. No file can use up another file's attempts, so a file that
// claims someone else's identity cannot lower their grade.
struct Grader {
  const Assignment& a;
  const Library& course;
  const ReportOptions& options;
  std::map<std::pair<std::string, uint64_t>, std::string> owner;  // (exercise, seed) -> whose
  Report& r;
  std::vector<std::map<std::string, size_t>> group_index;  // per item: diagnosis key -> r.items[i].wrong
  // The same answer on the same instance (a file handed in twice) is graded once.
  std::map<std::string, Feedback> graded;
  // Earlier versions of packs, loaded from options.history as attempts ask for them.
  std::map<std::string, Library> versions;
  // Per pack file: attempts made on a version the history lacks (graded with the current one).
  struct MissingVersion {
    int attempts = 0, differ = 0;
    std::set<std::string> students;
    std::vector<std::string> examples;
  };
  std::map<std::string, MissingVersion> missing_versions;
  std::map<std::string, std::set<std::string>> seen_versions;  // pack file -> students graded on an earlier version

  // The exercise as the student saw it: from the pack version the attempt names, when that is
  // not the current one and the history has it.
  const Exercise* version_seen(const Exercise& now, const SubmittedAttempt& at, const std::string& id);
  // An attempt's score under the current pack (0 when it cannot be read there).
  double score_now(const Exercise& ex, const SubmittedAttempt& at);

  // Why `at` cannot count for `id` (its flag said), or false when it may; `factor`: the share
  // of its score that counts (less than 1 when it is late within the late policy).
  bool cannot_count(const SubmittedAttempt& at, const AssignmentItem& item, const std::string& id, int counted,
                    Flags& f, double* factor) const;
  const Feedback& grade_once(const Exercise& ex, const Instance& inst, const SubmittedAttempt& at, const Answer& answer);
  void record_wrong(size_t idx, const Feedback& fb, const SubmittedAttempt& at, const std::string& id);
  std::vector<ExerciseResult> grade_file(const std::string& id, const Submission& s, Flags& f,
                                         std::vector<ExerciseResult>& now);
};

std::string lateness(int64_t at, int64_t due) {
  double hours = static_cast<double>(at - due) / 3600.0;
  return hours < 48 ? format_number(hours, 2) + " h" : format_number(hours / 24, 2) + " days";
}

bool Grader::cannot_count(const SubmittedAttempt& at, const AssignmentItem& item, const std::string& id, int counted,
                          Flags& f, double* factor) const {
  uint64_t own = assignment_seed(a, item, id);
  if (at.seed != own) {
    auto o = owner.find({at.exercise, at.seed});
    if (o != owner.end() && o->second != id)
      f.copied.add(at.exercise + " seed " + std::to_string(at.seed) + " is " + o->second + "'s");
    else
      f.practice.add(at.exercise + " seed " + std::to_string(at.seed) + " (theirs is " + std::to_string(own) + ")");
    return true;
  }
  const int64_t due = a.due_for(id);
  const std::optional<double> share = a.late_factor(id, at.at);
  if (!share) {
    f.late.add(at.exercise + " at " + format_datetime(at.at, a.due_offset_minutes) + " (" + lateness(at.at, due) + " late)");
    return true;
  }
  if (a.max_attempts && counted >= a.max_attempts) {
    f.over.add(at.exercise);
    return true;
  }
  if (*share < 1)
    f.penalised.add(at.exercise + " at " + format_datetime(at.at, a.due_offset_minutes) + " (" + lateness(at.at, due) +
                    " late: its score times " + format_number(*share, 3) + ")");
  *factor = *share;
  return false;
}

const Exercise* Grader::version_seen(const Exercise& now, const SubmittedAttempt& at, const std::string& id) {
  const std::string pack = last_component(now.file);
  auto h = options.pack_sha256.find(pack);
  if (at.pack_sha256.empty() || h == options.pack_sha256.end() || h->second == at.pack_sha256) return &now;
  auto old = options.history.find(at.pack_sha256);
  if (old != options.history.end()) {
    auto v = versions.find(at.pack_sha256);
    if (v == versions.end()) v = versions.emplace(at.pack_sha256, load_library({old->second})).first;
    if (const Exercise* ex = v->second.find(now.id)) {
      seen_versions[pack].insert(id);
      return ex;
    }
  }
  MissingVersion& m = missing_versions[pack];
  m.attempts++;
  m.students.insert(id);
  const double now_score = score_now(now, at);
  if (std::fabs(now_score - at.score) > 1e-9) {
    m.differ++;
    if (m.examples.size() < 5)
      m.examples.push_back(id + " on " + at.exercise + ": " + points_text(at.score) + " in the page, " + points_text(now_score) + " now");
  }
  return &now;
}

double Grader::score_now(const Exercise& ex, const SubmittedAttempt& at) {
  std::string why;
  auto inst = make_instance(ex, at.seed, &why);
  if (!inst) return 0;
  auto answer = ex.spec->parse_answer(ex, *inst, at.answer, &why);
  if (!answer) return 0;
  const Feedback& fb = grade_once(ex, *inst, at, *answer);
  return fb.counts_as_attempt() ? fb.score : 0;
}

const Feedback& Grader::grade_once(const Exercise& ex, const Instance& inst, const SubmittedAttempt& at,
                                   const Answer& answer) {
  // (an earlier version of a pack has its own exercise object: its grades are its own)
  std::string key = ex.id + '\x1f' + std::to_string(reinterpret_cast<uintptr_t>(&ex)) + '\x1f' + std::to_string(at.seed);
  for (const auto& w : at.answer) key += '\x1e' + w;
  auto it = graded.find(key);
  if (it == graded.end()) it = graded.emplace(key, grade(inst, answer, options.services)).first;
  return it->second;
}

void Grader::record_wrong(size_t idx, const Feedback& fb, const SubmittedAttempt& at, const std::string& id) {
  ItemStats& is = r.items[idx];
  std::string d = diagnosis_of(fb);
  std::string key = group_key(d);
  auto g = group_index[idx].find(key);
  if (g == group_index[idx].end()) {
    g = group_index[idx].emplace(key, is.wrong.size()).first;
    is.wrong.push_back({d, answer_text(at.answer), 0, {}});
  }
  is.wrong[g->second].attempts++;
  is.wrong[g->second].students.insert(id);
}

std::vector<ExerciseResult> Grader::grade_file(const std::string& id, const Submission& s, Flags& f,
                                               std::vector<ExerciseResult>& now) {
  std::vector<ExerciseResult> results(a.exercises.size());
  now.assign(a.exercises.size(), {});
  for (const auto& at : s.attempts) {
    auto it = std::find_if(a.exercises.begin(), a.exercises.end(), [&](const AssignmentItem& x) { return x.id == at.exercise; });
    if (it == a.exercises.end()) {
      f.other.add(excerpt(at.exercise, 60));
      continue;
    }
    size_t idx = static_cast<size_t>(it - a.exercises.begin());
    if (!a.given(*it, id)) {
      f.not_given.add(at.exercise);
      continue;
    }
    const Exercise* current = course.find(at.exercise);
    if (!current) {
      f.missing.add(at.exercise);
      continue;
    }
    // Graded on the version the student saw when the history has it (options.history).
    const Exercise* ex = version_seen(*current, at, id);
    std::string why;
    auto inst = make_instance(*ex, at.seed, &why);
    if (!inst) {
      f.unreadable_answers.add(at.exercise + " seed " + std::to_string(at.seed) + ": no such instance (" + why + ")");
      continue;
    }
    auto answer = ex->spec->parse_answer(*ex, *inst, at.answer, &why);
    if (!answer) {
      f.unreadable_answers.add(at.exercise + " \"" + answer_text(at.answer) + "\"");
      continue;
    }
    if (options.now && at.at > options.now + 86400) f.future.add(at.exercise + " at " + format_utc(at.at));
    ExerciseResult& res = results[idx];
    // Decided before grading: an attempt that cannot count is never run.
    double factor = 1;
    if (cannot_count(at, *it, id, res.attempts, f, &factor)) continue;
    const Feedback& fb = grade_once(*ex, *inst, at, *answer);
    if (!fb.counts_as_attempt()) {
      f.unreadable_answers.add(at.exercise + " \"" + answer_text(at.answer) + "\"");
      continue;
    }
    if (!at.verdict.empty() && at.verdict != verdict_name(fb.verdict))
      f.disagree.add(at.exercise + " at " + format_utc(at.at) + ": the file says " + excerpt(at.verdict, 20) +
                     ", the engine " + verdict_name(fb.verdict));
    res.attempts++;
    res.best = std::max(res.best, fb.score * factor);
    now[idx].attempts++;
    now[idx].best = std::max(now[idx].best, (ex == current ? fb.score : score_now(*current, at)) * factor);
    if (fb.verdict == Verdict::Correct && !res.attempts_to_solve) res.attempts_to_solve = res.attempts;
    r.items[idx].attempts++;
    if (fb.verdict != Verdict::Correct) record_wrong(idx, fb, at, id);
  }
  return results;
}

// Of two files' results for one exercise, the better: the higher score, then the sooner solve.
const ExerciseResult& better(const ExerciseResult& x, const ExerciseResult& y) {
  if (x.best != y.best) return x.best > y.best ? x : y;
  if (x.attempts_to_solve && y.attempts_to_solve) return x.attempts_to_solve <= y.attempts_to_solve ? x : y;
  return x.attempts_to_solve || !y.attempts ? x : y;
}

// The flag every file of a contested identity raises, first among its flags.
std::string claimed_by_files_flag(const std::vector<std::string>& files) {
  std::string list;
  for (const auto& f : files) list += (list.empty() ? "" : ", ") + f;
  return std::to_string(files.size()) + " FILES CLAIM THIS STUDENT: " + list +
         ". Each is graded alone (its own attempts, in its own order, its own limit) and the best per exercise is "
         "shown; one of them may not be theirs";
}

StudentReport report_identity(Grader& g, const std::string& id, const std::vector<FileEntry>& entries) {
  const Assignment& a = g.a;
  StudentReport sr;
  sr.student = id;
  sr.results.resize(a.exercises.size());
  Flags flags(a);
  std::vector<double> best_now(a.exercises.size(), 0.0);
  std::vector<std::string> notes;
  for (const auto& e : entries) {
    sr.files.push_back(e.file);
    notes.insert(notes.end(), e.notes.begin(), e.notes.end());
    std::vector<ExerciseResult> now;
    std::vector<ExerciseResult> mine = g.grade_file(id, e.submission, flags, now);
    for (size_t i = 0; i < mine.size(); ++i) sr.results[i] = better(sr.results[i], mine[i]);
    for (size_t i = 0; i < now.size(); ++i) best_now[i] = std::max(best_now[i], now[i].best);
  }
  sr.claimed_by_several_files = entries.size() > 1;
  if (sr.claimed_by_several_files) sr.flags.push_back(claimed_by_files_flag(sr.files));
  if (!notes.empty()) {
    FlagList left{"attempts left out because they could not be read"};
    for (const auto& n : notes) left.add(n);
    sr.flags.push_back(left.sentence());
  }
  flags.tell(sr.flags);
  for (size_t i = 0; i < a.exercises.size(); ++i) {
    sr.points += sr.results[i].best * a.exercises[i].points;
    sr.points_now += best_now[i] * a.exercises[i].points;
  }
  return sr;
}

}  // namespace

// Once per pack that changed since attempts were made (not once per student): graded on the
// version each student saw, and whose score the current version would change; or that
// version missing, and whether the current one gives those attempts the page's scores.
static std::vector<std::string> pack_notes(const Grader& g, const Report& r) {
  std::vector<std::string> out;
  for (const auto& [pack, students] : g.seen_versions) {
    std::string changes;
    int n = 0;
    for (const auto& s : r.students)
      if (students.count(s.student) && std::fabs(s.points - s.points_now) > 1e-9) {
        changes += std::string(n++ ? "; " : ": ") + s.student + " " + points_text(s.points) + " -> " + points_text(s.points_now);
      }
    out.push_back(pack + " changed since " + count_of(static_cast<int>(students.size()), "student") +
                  " answered: graded on the version each saw (--packs-history). " +
                  (n ? "Re-graded under the current version, " + count_of(n, "student") + "'s scores would change" + changes
                     : "The current version gives every one of them the same score"));
  }
  for (const auto& [pack, m] : g.missing_versions) {
    std::string note = pack + " changed since " + count_of(m.attempts, "attempt") + " by " +
                       count_of(static_cast<int>(m.students.size()), "student") + (m.attempts == 1 ? " was" : " were") +
                       " made, and the version " + (m.students.size() == 1 ? "it was made on" : "they saw") +
                       " is not in the history: graded with the current version, ";
    if (!m.differ) note += "which gives every one of those attempts the score the page showed";
    else {
      note += "which scores " + std::to_string(m.differ) + " of them differently from the page";
      for (size_t i = 0; i < m.examples.size(); ++i) note += (i ? "; " : ": ") + m.examples[i];
      if (static_cast<size_t>(m.differ) > m.examples.size()) note += "; ...";
    }
    out.push_back(note);
  }
  return out;
}

Report make_report(const Assignment& a, const Library& course, const std::vector<ReportInput>& files,
                   const ReportOptions& options) {
  Report r;
  r.assignment = &a;
  std::map<std::string, std::vector<FileEntry>> by_student = read_files(a, files, r);
  Grader g{a, course, options, {}, r, std::vector<std::map<std::string, size_t>>(a.exercises.size()), {}, {}, {}, {}};
  // Whose numbers are whose: an attempt on another student's seed is a copy.
  for (const auto& [id, entries] : by_student)
    for (const auto& item : a.exercises)
      if (!item.seed && a.per_student_numbers) g.owner[{item.id, assignment_seed(a, item, id)}] = id;
  r.items.resize(a.exercises.size());
  for (size_t i = 0; i < a.exercises.size(); ++i) {
    r.items[i].id = a.exercises[i].id;
    if (const Exercise* ex = course.find(a.exercises[i].id)) r.items[i].title = ex->title;
  }
  std::vector<std::vector<int>> to_solve(a.exercises.size());
  for (const auto& [id, entries] : by_student) {
    StudentReport sr = report_identity(g, id, entries);
    for (size_t i = 0; i < a.exercises.size(); ++i) {
      if (sr.results[i].attempts) r.items[i].students++;
      if (sr.results[i].attempts_to_solve) {
        r.items[i].solved++;
        to_solve[i].push_back(sr.results[i].attempts_to_solve);
      }
    }
    r.students.push_back(std::move(sr));
  }
  r.pack_notes = pack_notes(g, r);
  for (size_t i = 0; i < r.items.size(); ++i) {
    auto& v = to_solve[i];
    if (!v.empty()) {
      std::sort(v.begin(), v.end());
      size_t n = v.size();
      r.items[i].median_to_solve = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
    }
    std::stable_sort(r.items[i].wrong.begin(), r.items[i].wrong.end(),
                     [](const WrongAnswerGroup& x, const WrongAnswerGroup& y) { return x.attempts > y.attempts; });
  }
  return r;
}

namespace {

std::string pad(const std::string& s, size_t width) {
  size_t chars = 0;
  for (unsigned char c : s) chars += (c & 0xC0) != 0x80;
  return chars >= width ? s : s + std::string(width - chars, ' ');
}

// A value from a file, on one line of the terminal: controls, newlines and bidi overrides
// shown as escapes, so it cannot redraw or reorder the report around it.
std::string shown(const std::string& s) { return terminal_safe(s, false); }
// A pack's Markdown as the terminal shows it: maths as Unicode ("10⁹"), no markup.
std::string plain(const std::string& markdown) { return shown(markdown_math_to_plain(markdown)); }


// The gradebook's last column: empty, or why this row's grade needs a look.
std::string csv_flag(const StudentReport& s) {
  if (!s.claimed_by_several_files) return "";
  std::string list;
  for (const auto& f : s.files) list += (list.empty() ? "" : "; ") + last_component(f);
  return std::to_string(s.files.size()) + " files claim this student: " + shown(list);
}

}  // namespace

std::string csv_field(const std::string& raw) {
  std::string s = raw;
  if (!s.empty() && std::string("=+-@\t\r").find(s[0]) != std::string::npos) s = "'" + s;
  if (s.find_first_of(",;\"\r\n\t") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string report_table(const Report& r) {
  const Assignment& a = *r.assignment;
  std::string out = "Assignment " + shown(a.id) + " (" + shown(a.title) + "): " + std::to_string(a.exercises.size()) +
                    " exercises, " + points_text(a.total_points()) + " points, due " +
                    format_datetime(a.due_unix, a.due_offset_minutes) + "\n";
  if (a.late)
    out += "Late work counts until " + format_datetime(a.late->until_unix, a.due_offset_minutes) + ", its score times " +
           (a.late->factor ? format_number(*a.late->factor, 3)
                           : "1 - " + format_number(a.late->penalty_per_day, 3) + " per day begun late") + "\n";
  if (!a.extensions.empty()) {
    out += "Extensions:";
    for (const auto& [student, due] : a.extensions) out += " " + shown(student) + " until " + format_datetime(due, a.due_offset_minutes) + ";";
    out.back() = '\n';
  }
  for (const auto& n : r.pack_notes) out += "PACK CHANGED: " + shown(n) + "\n";
  out += count_of(static_cast<int>(r.students.size()), "student");
  if (!r.unreadable.empty())
    out += ", " + count_of(static_cast<int>(r.unreadable.size()), "file") + " that could not be read";
  out += "\n";
  std::string contested;
  for (const auto& s : r.students)
    if (s.claimed_by_several_files) contested += (contested.empty() ? "" : ", ") + shown(s.student);
  if (!contested.empty())
    out += "WARNING: more than one file claims " + contested + " (marked !; see Flags)\n";
  out += "\n";
  size_t w = 7;
  for (const auto& s : r.students) w = std::max(w, shown(s.student).size());
  std::vector<size_t> cw;
  std::string head = pad("student", w + 2);
  for (const auto& it : a.exercises) {
    std::string h = shown(it.id);
    cw.push_back(std::max<size_t>(h.size(), 5) + 2);
    head += pad(h, cw.back());
  }
  head += "total";
  out += head + "\n";
  for (const auto& s : r.students) {
    std::string row = pad(shown(s.student), w + 2);
    for (size_t i = 0; i < s.results.size(); ++i) {
      const ExerciseResult& e = s.results[i];
      std::string cell = !a.given(a.exercises[i], s.student) ? "." : e.attempts ? points_text(e.best * a.exercises[i].points) : "-";
      row += pad(cell, cw[i]);
    }
    row += points_text(s.points) + " / " + points_text(a.total_points());
    if (s.claimed_by_several_files) row += "  ! " + std::to_string(s.files.size()) + " files";
    out += row + "\n";
  }
  out += a.pools.empty() ? "\n(- no attempt that counts)\n" : "\n(- no attempt that counts; . not in this student's pool picks)\n";
  bool any = false;
  for (const auto& s : r.students)
    if (!s.flags.empty()) {
      if (!any) out += "\nFlags\n";
      any = true;
      out += "  " + shown(s.student) + ":\n";
      for (const auto& f : s.flags) out += "    - " + shown(f) + "\n";
    }
  if (!any) out += "\nNo flags.\n";
  if (!r.unreadable.empty()) {
    out += "\nFiles that could not be read (not graded; the others are)\n";
    for (const auto& u : r.unreadable)
      for (const auto& m : u.messages) out += "  " + shown(m) + "\n";
  }
  return out;
}

std::string report_csv(const Report& r) {
  const Assignment& a = *r.assignment;
  std::string out = "student";
  for (const auto& it : a.exercises) {
    out += ',';
    out += csv_field(it.id);
  }
  out += ",total,flag\r\n";
  for (const auto& s : r.students) {
    out += csv_field(s.student);
    for (size_t i = 0; i < s.results.size(); ++i) {
      out += ',';
      if (a.given(a.exercises[i], s.student)) out += points_text(s.results[i].best * a.exercises[i].points);
    }
    out += ',';
    out += points_text(s.points);
    out += ',';
    out += csv_field(csv_flag(s));
    out += "\r\n";
  }
  return out;
}

std::string report_items(const Report& r, size_t top) {
  const Assignment& a = *r.assignment;
  size_t n = r.students.size();
  std::string out = "Exercises of " + shown(a.id) + " (" + std::to_string(n) + " student" + (n == 1 ? "" : "s") + ")\n";
  for (const auto& it : r.items) {
    out += "\n" + shown(it.id) + (it.title.empty() ? "" : " (" + plain(it.title) + ")") + "\n";
    int pct = n ? static_cast<int>(std::lround(100.0 * it.solved / static_cast<double>(n))) : 0;
    out += "  " + count_of(it.attempts, "attempt") + " by " + count_of(it.students, "student") + "; solved by " +
           std::to_string(it.solved) + " (" + std::to_string(pct) + " %)";
    if (it.solved) out += "; median attempts to solve " + format_number(it.median_to_solve, 3);
    out += "\n";
    if (it.wrong.empty()) {
      out += "  no wrong answers\n";
      continue;
    }
    out += "  most common wrong answers:\n";
    for (size_t i = 0; i < it.wrong.size() && i < top; ++i) {
      const auto& g = it.wrong[i];
      out += "    " + count_of(g.attempts, "attempt") + " by " + count_of(static_cast<int>(g.students.size()), "student") +
             ", e.g. \"" +
             shown(g.example) + "\"\n      the engine: " + plain(g.diagnosis) + "\n";
    }
  }
  return out;
}

}  // namespace dtx
