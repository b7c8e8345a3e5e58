// An assignment opened with `?assign=URL`: the student enters their identifier once, sees
// the assignment's exercises with their own numbers, the due date and where they stand, and
// downloads their submission file to hand in. Everything is kept in this browser; nothing is
// sent anywhere. Practice outside the assignment is unchanged.
//
// The student's attempts are kept in localStorage under "dtx.assignment.<id>.<student>" in
// the submission file's own form (engine/submission.h), read, merged and written like the
// progress record, so two tabs add up and a download is that record as it stands.
#include <algorithm>
#include <cctype>
#include <cstdio>

#include "imgui.h"
#include "misc/cpp/imgui_stdlib.h"
#include "scorm.h"
#include "sha256.h"
#include "text.h"

#include "screens/screens.h"
#include "ui/access.h"
#include "ui/text_layer.h"

namespace dtx::web {

namespace {

constexpr const char* kStudentKey = "dtx.student";

std::string log_key(const CourseAssignment& c) { return "dtx.assignment." + c.a->id + "." + c.student; }

// The stored log, read; an unreadable one is copied aside (never dropped) and a fresh one
// started, with a notice that says where the old one is.
Submission stored_log(App& app) {
  CourseAssignment& c = *app.course;
  Submission empty;
  empty.assignment = c.a->id;
  empty.student = c.student;
  auto text = app.platform->storage_get(log_key(c));
  if (!text) return empty;
  SubmissionRead r = read_submission(*text, log_key(c));
  if (r.submission && r.submission->assignment == c.a->id && r.submission->student == c.student) {
    r.submission->assignment = c.a->id;
    return *r.submission;
  }
  std::string aside = log_key(c) + ".unreadable";
  app.platform->storage_set(aside, *text);
  app.notices.push_back("Your saved attempts on " + c.a->title + " could not be read; they were kept under \"" + aside +
                        "\" in this browser's storage, and a fresh record was started.");
  return empty;
}

bool save_log(App& app) {
  CourseAssignment& c = *app.course;
  c.log = merge_submissions(stored_log(app), c.log);
  c.log.assignment = c.a->id;
  c.log.student = c.student;
  if (!app.platform->storage_set(log_key(c), write_submission(c.log))) {
    c.save_error = "Your attempt could not be saved in this browser (storage is full): download your submission now, "
                   "before closing the page.";
    return false;
  }
  c.save_error.clear();
  return true;
}

}  // namespace

bool assignment_save_log(App& app) { return save_log(app); }

void assignment_set_student(App& app, const std::string& student) {
  CourseAssignment& c = *app.course;
  c.student = student;
  c.log = Submission{};
  if (c.a && !student.empty()) c.log = stored_log(app);
}

namespace {

const std::string& pack_hash(App& app, const Exercise& ex) {
  CourseAssignment& c = *app.course;
  auto it = c.pack_hash.find(ex.file);
  if (it != c.pack_hash.end()) return it->second;
  auto text = app.load.pack_texts.find(ex.file);
  std::string h;
  if (text != app.load.pack_texts.end()) h = sha256_hex(text->second);
  else if (const Preview* pv = preview_of(app, &ex)) h = sha256_hex(pv->text);
  return c.pack_hash[ex.file] = h;
}

void draw_lms_problem(const App& app) {
  if (app.course->lms && !app.course->lms->problem.empty())
    text_colored(color::wrong(), app.course->lms->problem.c_str());
}

bool active(const App& app) {
  return app.course && app.course->a && !app.course->student.empty() && app.course->pack_errors.empty();
}

ItemStanding standing_of(const App& app, const AssignmentItem& item) {
  const CourseAssignment& c = *app.course;
  return item_standing(*c.a, item, c.log, c.student);
}

std::string remaining_text(int64_t seconds) {
  if (seconds <= 0) return "past";
  int64_t days = seconds / 86400, hours = seconds / 3600 % 24, mins = seconds / 60 % 60;
  char buf[64];
  if (days > 0) std::snprintf(buf, sizeof buf, "in %lld day%s %lld h", static_cast<long long>(days), days == 1 ? "" : "s",
                              static_cast<long long>(hours));
  else std::snprintf(buf, sizeof buf, "in %lld h %lld min", static_cast<long long>(hours), static_cast<long long>(mins));
  return buf;
}

// The student's due date (their extension's when they have one) and the late policy.
std::string due_line(const App& app) {
  const Assignment& a = *app.course->a;
  const int64_t now = app.platform->now_unix(), due = a.due_for(app.course->student);
  std::string line = (due != a.due_unix ? "Due for you (an extension) " : "Due ") + format_datetime(due, a.due_offset_minutes);
  const bool late_open = a.late && now <= a.late->until_unix && now > due;
  if (now <= due) line += " (" + remaining_text(due - now) + ")";
  else if (!late_open) line += " (the due date has passed: new attempts are not counted)";
  if (a.late && a.late->until_unix > due) {
    const std::string cost = a.late->factor ? "at " + format_number(*a.late->factor * 100, 3) + " % of their score"
                                            : "losing " + format_number(a.late->penalty_per_day * 100, 3) + " % of their score per day begun late";
    line += std::string(late_open ? ". Late now: attempts" : ". Late attempts") + " count until " +
            format_datetime(a.late->until_unix, a.due_offset_minutes) + ", " + cost;
  }
  return line;
}

// Exam mode over the whole assignment, for the list and the standing.
bool exam_running(const App& app) {
  const Assignment& a = *app.course->a;
  return a.feedback == FeedbackPolicy::AfterDue && !instructor_view(app) &&
         a.late_factor(app.course->student, app.platform->now_unix()).has_value();
}

void draw_identifier(App& app) {
  CourseAssignment& c = *app.course;
  ImGui::Spacing();
  ImGui::TextWrapped("Your identifier: the e-mail address or student number your instructor asked for. It decides your "
                     "numbers in every exercise, and it goes into the file you hand in.");
  if (c.id_input.empty() && !c.student.empty()) c.id_input = c.student;
  ImGui::SetNextItemWidth(std::min(app.content_width, em(app.ui) * 24));
  bool enter = ImGui::InputTextWithHint("##student-id", "ana@university.edu", &c.id_input, ImGuiInputTextFlags_EnterReturnsTrue);
  access_item(Role::Textbox, "Your identifier (e-mail or student number)");
  // Beside the field where there is room; on a phone, below it (never past the right edge).
  same_line_if_room(std::max(ImGui::CalcTextSize("Start").x + ImGui::GetStyle().FramePadding.x * 2, touch_target(app.ui)));
  if (button("Start##student-start", true) || enter) {
    std::string why;
    if (auto id = normalize_student_id(c.id_input, &why)) {
      c.id_error.clear();
      c.editing_id = false;
      app.platform->storage_set(kStudentKey, *id);
      assignment_set_student(app, *id);
    } else {
      c.id_error = why;
    }
  }
  if (!c.id_error.empty()) text_colored(color::wrong(), c.id_error.c_str());
}

}  // namespace

// ---------------------------------------------------------------- state

void app_open_assignment(App& app, const std::string& url) {
  app.course.emplace();
  CourseAssignment& c = *app.course;
  c.url = url;
  c.request = app.load.next_request++;
  app.platform->fetch(c.request, url);
  if (auto s = app.platform->storage_get(kStudentKey)) {
    std::string why;
    if (auto id = normalize_student_id(*s, &why)) c.student = *id;
  }
}

bool assignment_on_fetched(App& app, int request_id, bool ok, int status, const std::string& body) {
  if (!app.course || app.course->request != request_id) return false;
  CourseAssignment& c = *app.course;
  c.request = 0;
  if (!ok) {
    c.fetch_error = format_diagnostic(make_diagnostic(DiagCode::CannotRead, c.url, 0, 0, "",
                                                      "could not be fetched (HTTP " + std::to_string(status) + ")"));
    return true;
  }
  AssignmentLoad load = load_assignment(body, c.url);
  for (const auto& d : load.diagnostics) c.problems.push_back(format_diagnostic(d));
  if (load.assignment) {
    c.a = std::move(load.assignment);
    if (!c.student.empty()) assignment_set_student(app, c.student);
    if (c.lms) lms_resume(app);
  }
  return true;
}

// The item, when this student has it (a pool's member not chosen for them is practice).
const AssignmentItem* assignment_item(const App& app, const std::string& exercise_id) {
  if (!active(app)) return nullptr;
  const AssignmentItem* item = app.course->a->item(exercise_id);
  return item && app.course->a->given(*item, app.course->student) ? item : nullptr;
}

uint64_t assignment_own_seed(const App& app, const AssignmentItem& item) {
  return assignment_seed(*app.course->a, item, app.course->student);
}

void assignment_record(App& app, const Answer& answer, const Feedback& fb) {
  const ExerciseState& st = app.ex;
  if (!st.exercise || !st.inst || !assignment_item(app, st.id)) return;
  if (preview_of(app, st.exercise)) return;  // a preview is not the course's exercise
  const Exercise& ex = *st.exercise;
  SubmittedAttempt at;
  at.exercise = ex.id;
  at.seed = st.inst->seed;
  at.answer = ex.spec->answer_words(ex, *st.inst, answer);
  at.verdict = verdict_name(fb.verdict);
  at.score = fb.score;
  at.at = app.platform->now_unix();
  at.pack = ex.file;
  at.pack_sha256 = pack_hash(app, ex);
  const double now = app.platform->now_ms();
  if (app.course->lms) app.course->lms->latency_s[at.key()] = (now - app.ex.answering_since_ms) / 1000.0;
  app.ex.answering_since_ms = now;
  app.course->log.attempts.push_back(std::move(at));
  save_log(app);
  if (app.course->lms) lms_report_attempts(app);
}

int assignment_attempts_left(const App& app) {
  const AssignmentItem* item = assignment_item(app, app.ex.id);
  if (!item || !app.ex.inst || app.ex.inst->seed != assignment_own_seed(app, *item)) return -1;
  const Assignment& a = *app.course->a;
  if (!a.max_attempts || !a.late_factor(app.course->student, app.platform->now_unix())) return -1;
  return std::max(0, a.max_attempts - standing_of(app, *item).attempts);
}

bool assignment_hides_verdicts(const App& app) {
  const AssignmentItem* item = assignment_item(app, app.ex.id);
  if (!item || instructor_view(app) || !app.ex.inst || app.ex.inst->seed != assignment_own_seed(app, *item)) return false;
  const Assignment& a = *app.course->a;
  return a.feedback == FeedbackPolicy::AfterDue && a.late_factor(app.course->student, app.platform->now_unix()).has_value();
}


bool assignment_allows_explanation(const App& app, bool solved_here) {
  if (assignment_hides_verdicts(app)) return false;
  const AssignmentItem* item = assignment_item(app, app.ex.id);
  if (!item || instructor_view(app)) return true;
  const Assignment& a = *app.course->a;
  if (!a.late_factor(app.course->student, app.platform->now_unix())) return true;  // past the student's last chance
  switch (a.explanations) {
    case ExplanationPolicy::AfterAttempt: return true;
    case ExplanationPolicy::AfterSolve: return solved_here || standing_of(app, *item).solved;
    case ExplanationPolicy::AfterDue: return false;
  }
  return true;
}

std::optional<AssignmentPlace> assignment_place(const App& app, const std::string& exercise_id) {
  const AssignmentItem* here = assignment_item(app, exercise_id);
  if (!here || !app.ex.inst || app.ex.inst->seed != assignment_own_seed(app, *here)) return std::nullopt;
  const Assignment& a = *app.course->a;
  std::vector<const AssignmentItem*> mine;
  for (const auto& item : a.exercises)
    if (a.given(item, app.course->student)) mine.push_back(&item);
  AssignmentPlace p;
  p.count = static_cast<int>(mine.size());
  for (size_t i = 0; i < mine.size(); ++i)
    if (mine[i] == here) {
      p.index = static_cast<int>(i) + 1;
      if (i > 0) p.prev = mine[i - 1];
      if (i + 1 < mine.size()) p.next = mine[i + 1];
    }
  return p;
}

void draw_assignment_banner(App& app) {
  const AssignmentItem* item = assignment_item(app, app.ex.id);
  if (!item || !app.ex.inst) return;
  const Assignment& a = *app.course->a;
  uint64_t own = assignment_own_seed(app, *item);
  if (app.ex.inst->seed != own) {
    text_colored(color::partial(), ("Assignment \"" + a.title + "\": these are not your numbers. Attempts here are "
                                   "practice and do not count toward the assignment.").c_str());
    if (small_button(app.ui, "Open my numbers##own-numbers")) open_exercise(app, item->id, own);
    return;
  }
  ItemStanding s = standing_of(app, *item);
  const auto place = assignment_place(app, item->id);
  std::string line = "Assignment \"" + a.title + "\" · exercise " + std::to_string(place ? place->index : 0) + " of " +
                     std::to_string(place ? place->count : 0) + " · " + std::to_string(s.attempts) +
                     (exam_running(app) ? (a.max_attempts ? " of " + std::to_string(a.max_attempts) : "") + " answers saved"
                                        : std::string(" attempt") + (s.attempts == 1 ? "" : "s") +
                                              (a.max_attempts ? " of " + std::to_string(a.max_attempts) : "")) +
                     (s.solved && !exam_running(app) ? " · solved" : "");
  // The way back comes before the standing line, and the due date's countdown has a line of its
  // own: the standing grows as attempts are made and the countdown changes length as time
  // passes, and neither may re-wrap the text above what the student reaches for next.
  if (small_button(app.ui, "← Back to the assignment##to-assignment")) app.screen = Screen::Assignment;
  ImGui::TextWrapped("%s", line.c_str());
  ImGui::TextWrapped("%s", due_line(app).c_str());
  if (!app.course->save_error.empty()) text_colored(color::wrong(), app.course->save_error.c_str());
  draw_lms_problem(app);
}

// The assignment's packs, linted once every pack is in (engine/assignment.h,
// lint_assignment_packs); only those packs, a few ms each.
void check_packs(App& app) {
  CourseAssignment& c = *app.course;
  if (c.packs_checked || !c.a || !app.load.library_ready) return;
  c.packs_checked = true;
  for (const auto& d : lint_assignment_packs(*c.a, app.lib))
    if (d.severity == Severity::Error) c.pack_errors.push_back(format_diagnostic(d));
}

// ---------------------------------------------------------------- the screen

namespace {


void draw_refusal(App& app) {
  CourseAssignment& c = *app.course;
  ImGui::PushFont(app.ui.fonts.heading);
  heading_text("The assignment could not be opened", 1, app.content_width);
  ImGui::PopFont();
  if (!c.fetch_error.empty()) text_colored(color::wrong(), c.fetch_error.c_str());
  for (const auto& p : c.problems) text_colored(color::wrong(), p.c_str());
  if (!c.pack_errors.empty())
    ImGui::TextWrapped("Its exercises are in a pack that `dtx lint` rejects, so no grade on it would mean anything:");
  for (const auto& p : c.pack_errors) text_colored(color::wrong(), p.c_str());
  ImGui::TextWrapped("Tell your instructor: the link's ?assign= address names a file the page cannot use. The rest of "
                     "the course works as usual.");
}

// Who the student is working as: the LMS's learner, or their identifier with "Change".
void draw_working_as(App& app) {
  CourseAssignment& c = *app.course;
  if (c.lms) {
    ImGui::TextDisabled("Working as %s (from %s)", c.student.c_str(), "your course's LMS");
    draw_lms_problem(app);
    return;
  }
  ImGui::TextDisabled("Working as %s", c.student.c_str());
  same_line_if_fits("Change##student-change");
  if (small_button(app.ui, "Change##student-change")) {
    c.editing_id = true;
    c.id_input = c.student;
  }
}

std::string item_status(const App& app, const Exercise& ex, const AssignmentItem& item, const ItemStanding& s) {
  const Assignment& a = *app.course->a;
  std::string status = ex.type + " · " + format_number(item.points, 3) + (item.points == 1 ? " point" : " points") + " · ";
  if (!s.attempts) return status + "not attempted";
  if (exam_running(app)) return status + std::to_string(s.attempts) + " answer" + (s.attempts == 1 ? "" : "s") + " saved";
  return status + std::to_string(s.attempts) + " attempt" + (s.attempts == 1 ? "" : "s") +
         (a.max_attempts ? " of " + std::to_string(a.max_attempts) : "") +
         (s.solved ? " · solved" : " · best " + std::to_string(static_cast<int>(s.best * 100 + 0.5)) + " %");
}

// The student's exercises, each with their own numbers and where they stand; the points earned.
double draw_items(App& app) {
  const CourseAssignment& c = *app.course;
  const Assignment& a = *c.a;
  double earned = 0;
  for (const auto& item : a.exercises) {
    if (!a.given(item, c.student)) continue;  // a pool's member chosen for others
    const Exercise* ex = find_exercise(app, item.id);
    ImGui::PushID(item.id.c_str());
    ImGui::Separator();
    if (!ex) {
      text_colored(color::wrong(), (item.id + ": not in this course (" +
                                   (app.load.library_ready ? std::string("tell your instructor") : std::string("still loading")) + ")")
                                      .c_str());
      ImGui::PopID();
      continue;
    }
    ItemStanding s = standing_of(app, item);
    earned += s.best * item.points;
    std::string label = ex->title + "##open-" + item.id;
    if (ImGui::Button(label.c_str())) open_exercise(app, item.id, assignment_own_seed(app, item));
    access_item(Role::Link, "Open " + ex->title);
    ImGui::TextDisabled("%s", item_status(app, *ex, item, s).c_str());
    ImGui::PopID();
  }
  return earned;
}

void draw_standing(App& app, double earned) {
  const CourseAssignment& c = *app.course;
  const Assignment& a = *c.a;
  if (exam_running(app)) {
    const int64_t due = a.due_for(c.student);
    const int64_t opens = a.late && a.late->until_unix > due ? a.late->until_unix : due;
    ImGui::TextWrapped("Your answers are saved. Verdicts, your standing and the worked solutions open after %s.",
                       format_datetime(opens, a.due_offset_minutes).c_str());
    return;
  }
  ImGui::TextWrapped("Your standing: %s of %s points (%s).", format_number(earned, 3).c_str(),
                     format_number(a.total_points(), 3).c_str(),
                     c.lms ? "sent to your course's LMS after each attempt"
                           : "as graded in this browser; your instructor grades the file again");
}

// The file to hand in (in an LMS, a copy), what is in it, and its download.
void draw_hand_in(App& app) {
  CourseAssignment& c = *app.course;
  const Assignment& a = *c.a;
  ImGui::PushFont(app.ui.fonts.bold);
  heading_text(c.lms ? "A copy of your work" : "Hand in your work", 2);
  ImGui::PopFont();
  if (c.lms)
    ImGui::TextWrapped("Your LMS has your attempts already. The file below is a copy you can keep or give your "
                       "instructor if the LMS was out of reach.");
  ImGui::TextWrapped("The file holds your identifier and every attempt you made on this assignment's exercises: the "
                     "exercise, its numbers, your answer as you gave it, the verdict the page gave it and the time, with "
                     "a fingerprint of each exercise pack. Your instructor grades every answer again from it.");
  if (!c.lms) markdown(app, "**Where to hand it in:** " + a.hand_in);
  int n = static_cast<int>(c.log.attempts.size());
  std::string dl = "Download my submission (" + std::to_string(n) + " attempt" + (n == 1 ? "" : "s") + ")##download-submission";
  if (button(dl.c_str(), true)) {
    Submission out = c.log;
    out.assignment = a.id;
    out.student = c.student;
    out.created = app.platform->now_unix();
    std::string safe;
    for (char ch : c.student) safe += (std::isalnum(static_cast<unsigned char>(ch)) || ch == '.' || ch == '-') ? ch : '_';
    app.platform->download(a.id + "-" + safe + ".json", write_submission(out));
    c.downloaded_ms = app.platform->now_ms();
  }
  if (c.downloaded_ms >= 0 && app.platform->now_ms() - c.downloaded_ms < 6000)
    text_colored(color::correct(), "Saved to your downloads. Hand in that file; you can download it again at any time.");
  if (!c.save_error.empty()) text_colored(color::wrong(), c.save_error.c_str());
}

}  // namespace

void draw_assignment(App& app) {
  if (!app.course) {
    app.screen = Screen::CourseMap;
    return;
  }
  CourseAssignment& c = *app.course;
  ImGui::Spacing();
  if (c.request) {
    ImGui::TextUnformatted(("Loading the assignment " + c.url + "…").c_str());
    return;
  }
  check_packs(app);
  if (!c.fetch_error.empty() || !c.a || !c.pack_errors.empty()) return draw_refusal(app);
  const Assignment& a = *c.a;
  ImGui::PushFont(app.ui.fonts.heading);
  heading_text(a.title, 1, app.content_width);
  ImGui::PopFont();
  ImGui::TextWrapped("%s", due_line(app).c_str());
  if (!a.intro.empty()) markdown(app, a.intro);
  if (c.student.empty() || c.editing_id) return draw_identifier(app);
  draw_working_as(app);
  ImGui::Spacing();
  const double earned = draw_items(app);
  ImGui::Separator();
  ImGui::Spacing();
  draw_standing(app, earned);
  ImGui::Spacing();
  draw_hand_in(app);
}

}  // namespace dtx::web
