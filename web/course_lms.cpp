// An assignment run inside an LMS as a SCORM 2004 package (`dtx package scorm`,
// docs/AUTHORING.md "Running a course in an LMS"). web/shell/glue/lms.js finds the LMS's
// API_1484_11 and hands over the learner, the resume state and the passing score; from then
// on the student is the LMS's learner (no identifier to type), and after every graded attempt
// the page reports the assignment's score and status, the attempts the LMS does not have yet
// (one interaction each) and the resume state. What the LMS does not take stays in the page's
// own record and goes with the next report; the screen says so.
#include <cmath>

#include "json_fields.h"
#include "scorm.h"

#include "app.h"

namespace dtx::web {

namespace {

Json interaction_json(const ScormInteraction& in) {
  return Json{{"id", in.id},
              {"type", in.type},
              {"learner_response", in.learner_response},
              {"result", in.result},
              {"timestamp", in.timestamp},
              {"latency", in.latency},
              {"description", in.description},
              {"weighting", in.weighting}};
}

}  // namespace

bool in_lms(const App& app) { return app.course && app.course->lms.has_value(); }

void lms_start(App& app, const std::string& learner_id, const std::string& suspend, double passing) {
  if (!app.course) return;
  CourseAssignment& c = *app.course;
  LmsLink link;
  link.learner_id = learner_id;
  link.suspend = suspend;
  if (passing >= 0 && passing <= 1) link.passing = passing;
  c.lms = std::move(link);
  c.editing_id = false;
  assignment_set_student(app, identifier_from_learner_id(learner_id));
  if (c.a) lms_resume(app);
}

// The LMS's record of earlier sessions joins this browser's; the report that follows sends
// what the LMS does not have (attempts made while it was out of reach).
void lms_resume(App& app) {
  CourseAssignment& c = *app.course;
  if (!c.lms || c.lms->resumed || !c.a || c.student.empty()) return;
  LmsLink& link = *c.lms;
  link.resumed = true;
  if (!link.suspend.empty()) {
    SuspendRead r = read_suspend(link.suspend, *c.a, c.student);
    if (r.error.empty()) {
      c.log = merge_resumed(c.log, r.log);
      link.reported = std::min<int>(r.reported, static_cast<int>(c.log.attempts.size()));
      assignment_save_log(app);
    } else {
      const std::string aside = "dtx.assignment." + c.a->id + "." + c.student + ".lms-unreadable";
      app.platform->storage_set(aside, link.suspend);
      app.notices.push_back("What your LMS kept from your earlier sessions could not be read (" + r.error +
                            "); it was kept under \"" + aside + "\" in this browser's storage, and this browser's "
                            "record of your attempts is used.");
    }
    link.suspend.clear();
  }
  lms_report_attempts(app);
}

void lms_report_attempts(App& app) {
  CourseAssignment& c = *app.course;
  if (!c.lms || !c.a || !c.lms->resumed) return;
  LmsLink& link = *c.lms;
  const ScormStatus st = scorm_status(*c.a, c.log, c.student, link.passing);
  Json interactions = Json::array();
  for (size_t i = static_cast<size_t>(std::max(0, link.reported)); i < c.log.attempts.size(); ++i) {
    const SubmittedAttempt& at = c.log.attempts[i];
    const AssignmentItem* item = c.a->item(at.exercise);
    const Exercise* ex = find_exercise(app, at.exercise);
    auto latency = link.latency_s.find(at.key());
    interactions.push_back(interaction_json(scorm_interaction(at, ex ? ex->title : at.exercise, item ? item->points : 0,
                                                              latency == link.latency_s.end() ? 0 : latency->second)));
  }
  const int total = static_cast<int>(c.log.attempts.size());
  SuspendWrite suspend = write_suspend(*c.a, c.log, c.student, total);
  auto four = [](double v) { return std::round(v * 1e4) / 1e4; };  // 0.3333, not 16 digits
  Json report{{"score", {{"raw", st.raw}, {"max", st.max}, {"min", 0}, {"scaled", four(st.scaled)}}},
              {"progress", four(st.progress)},
              {"completion", st.completed ? "completed" : "incomplete"},
              {"success", st.success},
              {"interactions", std::move(interactions)},
              {"reported", total},
              {"suspend", suspend.text}};
  app.platform->lms_report(report.dump());
}

void lms_sent(App& app, int reported, const std::string& problem) {
  if (!in_lms(app)) return;
  LmsLink& link = *app.course->lms;
  if (problem.empty()) {
    link.reported = std::max(link.reported, reported);
    link.problem.clear();
  } else {
    link.problem = "Your LMS did not take your latest work (" + problem +
                   "). It is kept in this browser and sent with your next attempt; you can also download your "
                   "submission below.";
  }
}

}  // namespace dtx::web
