// The application: what is loaded, where the student is, and one frame function that draws
// the current screen. Views hold no copies of engine state beyond what the student is typing.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "search.h"
#include "assignment.h"
#include "code_runner.h"
#include "model.h"
#include "outline.h"
#include "progress_store.h"
#include "preview.h"
#include "platform/platform.h"
#include "progress.h"
#include "route.h"
#include "submission.h"
#include "ui/images.h"
#include "ui/markdown.h"
#include "ui/controls.h"
#include "ui/theme.h"
#include "ui/ui_env.h"
#include "widgets/widgets.h"

namespace dtx::web {

enum class Screen { Loading, CourseMap, Exercise, Settings, Lab, NotFound, Assignment, Search, Practice, Glossary, Review };
const char* screen_name(Screen s);

// A pack listed in exercises/index.json that could not be loaded, with its errors.
struct PackProblem {
  std::string file;
  std::vector<std::string> messages;  // "file:line:col: message"
};

// A pack opened for preview, above the course: from `?pack=URL`, a file dropped on the page,
// or re-fetched when `make serve` reports it changed.
struct Preview {
  std::string source;       // the URL or the dropped file's name (diagnostics name it)
  bool from_url = false;
  int request = 0;          // a fetch in flight
  std::string fetch_error;  // the URL could not be fetched
  bool fetched = false;     // text arrived at least once
  std::string text;         // kept to re-check when the course changes
  PreviewPack result;
};

// What the student is doing on the open exercise.
// What the student has entered in the open exercise's fields, in its view's own form (each
// view in types/<type>/view.cpp defines its struct).
struct ViewState {
  virtual ~ViewState() = default;
};

struct ExerciseState {
  std::string id;
  const Exercise* exercise = nullptr;
  std::optional<Instance> inst;
  std::string instance_error;
  std::shared_ptr<ViewState> view;  // the answer being entered (web/type_view.h)
  // results
  std::optional<Feedback> feedback;
  // Exam mode (an assignment's feedback "after-due"): what is shown instead of the verdict.
  std::string saved_note;
  int graded = 0;  // submissions graded on this screen (the test hook waits on it)
  bool revealed = false;  // explanation open (after a submission)
  // The student's answers on this screen so far, for a widget held back until an attempt or
  // a solve ("reveal"): set when feedback that counts arrives, kept after later feedback.
  bool attempted = false, solved = false;
  int hints_shown = 0;
  int code_request = 0;   // non-zero while an answer runs (code: in the sandbox worker)
  double code_started_ms = 0;
  double answering_since_ms = 0;  // opened, or the last attempt: an attempt's latency for an LMS
  bool focus_first = false;  // focus the first field on the next frame
  std::string report_address;  // "Report a problem" as last drawn ("" when the site has none)
  // The last answer submitted here, in `dtx grade` words and with its verdict unless exam mode
  // hides it ("phase=14.5 GB  total=29 GB (incorrect)"), for a problem report.
  std::string last_answer;
};

// An assignment run inside an LMS as a SCORM package (web/course_lms.cpp): who the LMS says
// the student is, what it kept from earlier sessions, and what of the log it has taken.
struct LmsLink {
  std::string learner_id;          // cmi.learner_id as the LMS gave it
  std::string suspend;             // cmi.suspend_data at the start, used once the assignment is in
  std::optional<double> passing;   // cmi.scaled_passing_score, when the LMS has one
  bool resumed = false;
  int reported = 0;                // attempts of the log the LMS has as interactions
  std::string problem;             // why the LMS did not take the last report ("" when it did)
  std::map<std::string, double> latency_s;  // this session's attempts (by key): seconds to answer
};

// An assignment opened with `?assign=URL` (web/screens/assignment.cpp): the student's
// identifier, their attempts on it (kept in localStorage in the submission file's own form,
// engine/submission.h), and the hashes of the packs they were graded with.
struct CourseAssignment {
  std::string url;
  int request = 0;
  std::string fetch_error;              // the file could not be fetched
  std::vector<std::string> problems;    // it was fetched but does not check ("file:line:col: error[...]")
  std::optional<Assignment> a;
  std::string student;                  // normalised identifier; "" until entered
  std::string id_input, id_error;       // the identifier being typed
  bool editing_id = false;
  Submission log;                       // this student's attempts on it
  std::string save_error;
  std::map<std::string, std::string> pack_hash;  // pack file -> SHA-256 of its text
  double downloaded_ms = -1;            // "Download my submission" was pressed then
  std::optional<LmsLink> lms;           // run in an LMS: the identifier is the LMS's
  bool packs_checked = false;           // its packs linted, once every pack is in
  std::vector<std::string> pack_errors; // what `dtx lint` rejects in them: the assignment is refused
};

// The address (route.h) and the scroll: what the address bar shows, kept in step with the
// screen, and where each screen was scrolled.
// Loading the course: the index, the outline (engine/outline.h) and the packs, each fetch's
// request id and what it was for, until the library is built.
struct Loading {
  bool index_loaded = false;
  std::vector<std::string> index_files;
  std::map<int, std::string> pending;  // fetch request id -> file
  std::map<std::string, std::string> pack_texts;
  std::map<std::string, std::string> fetch_failed;  // pack file -> why it could not be fetched
  std::vector<PackProblem> problems;                // rebuilt with the library
  std::string index_error;
  // index.json's "report" (engine/report_link.h): where "Report a problem" goes; "" (no link)
  // until the site's operator sets one. report_error: why the one set cannot be used.
  std::string report_destination, report_error;
  LoadCache load_cache;       // each pack loaded once while the library is rebuilt per arrival
  std::set<std::string> admitted;  // first load: packs already in the library
  bool library_ready = false; // every listed pack has arrived or failed
  int next_request = 1;
  // The course outline (exercises/outline.json, engine/outline.h): with it the map is drawn
  // before any pack is in, a pack is fetched when its chapter or an exercise of it opens, and
  // the others once the first screen is up. Without it (missing, unreadable, a ?pack= preview
  // or an ?assign= course open) every pack is fetched at once, as before.
  int outline_request = 0;           // in flight
  bool outline_done = false;         // arrived or failed
  bool outline_ok = false;           // read, and lazy loading is on
  std::string outline_error;         // why it was not used (the test hook shows it)
  Outline outline;
  std::set<std::string> requested;   // first load: pack files asked for
  bool prefetch_started = false;     // the rest asked for (after the first screen)
};

// The address (route.h) and the scroll: what the address bar shows, kept in step with the
// screen, and where each screen was scrolled.
struct Navigation {
  std::string address;                 // the fragment last written to or read from the address bar
  std::string title_shown;             // document.title last written
  std::optional<Route> route_pending;  // asked for before the exercise's pack was in
  Route not_found;                     // Screen::NotFound: the address that leads nowhere
  std::map<std::string, float> scroll_memory;  // fragment -> where that screen was scrolled
  std::optional<float> scroll_restore;         // Back/Forward: scroll the new screen here
  int scroll_frames = 0;                       // frames left to apply scroll_restore
  int scroll_wait = 0;                         // frames scroll_restore waited for content that tall
  int top_frames = 0;                          // frames a newly opened exercise is held at its top
  std::string return_focus;                    // the map row the keyboard's focus returns to
  // The browser scrolled the text layer (find in page, a screen reader moving to a word):
  // the page follows, in physical pixels.
  std::optional<float> scroll_request;
  int course_chapter = -1;             // course map: the chapter last opened (in the address)
  int focus_chapter = -1;              // course map: open this chapter and scroll to it
  bool focus_notes = false;            // ... and open its notes (#/chapter/N/notes)
  int focus_frames = 0;
  std::string lab_address_error;       // a Lab address named an input or value the widget lacks
  double link_copied_ms = -1;          // "Copy link" was pressed then (the note fades)
  std::string link_copied;
};

// A practice session (web/screens/practice.cpp): the due exercises it took, where the student
// is, and each one's first graded answer.
struct PracticeOutcome {
  bool done = false;
  Verdict verdict = Verdict::Incorrect;
  std::string diagnosis;  // the engine's messages on the wrong parts ("" when right)
};
struct PracticeSession {
  bool active = false, finished = false;
  std::vector<std::string> items;
  size_t at = 0;
  std::vector<PracticeOutcome> outcomes;
};

// Search (web/screens/search.cpp): the index as fetched, what is typed and its results.
struct GlossaryState {
  Glossary terms;                  // the library's, rebuilt when the library changes
  size_t built_sig = static_cast<size_t>(-1);  // packs and entries it was built from
  std::string selected;            // the screen's term (its slug, the address's), "" none
  bool scroll_to_selected = false;
  std::string filter;              // the screen's filter field
  // The popover a term link opened in a prompt: its term and the word's rectangle.
  std::string popover;
  ImRect popover_word;
  bool popover_opening = false;
};

struct SearchState {
  int request = 0;          // the index's fetch in flight
  bool loaded = false;
  std::string error;        // the index could not be fetched or read
  SearchIndex index;
  std::string input;        // what the field holds (the address's q)
  std::string hits_for = "\x01";  // the input `hits` were found for
  std::vector<SearchHit> hits;
  bool focus_field = false; // put the keyboard in the field next frame ("/")
};

// The animated widgets: the Lab's, and the one embedded in the open exercise (rebuilt per
// instance).
struct WidgetSlots {
  std::string lab_kind = "ring";
  std::unique_ptr<Widget> lab_widget;
  std::unique_ptr<Widget> ex_widget;
  std::string ex_widget_for;        // "id|seed" the embedded widget was made for
  std::string ex_widget_error;
  Widget* drawn_widget = nullptr;   // drawn this frame (its state goes to window.dtx)
  bool widget_animating = false;    // a widget is playing: keep drawing frames
};

// What the frames cost, for the test hook and the bench.
struct FrameStats {
  double last_frame_ms = 0;
  double frame_dt = 0;              // seconds since the previous frame, capped
  double frame_parts_ms[3] = {0, 0, 0};  // of frame_cpu_ms: UI build, GL submission, test-hook state
  double frame_cpu_ms = 0;          // CPU time of the previous frame (set by the platform loop)
  int layer_runs = 0;               // text runs in the text layer (ui/text_layer.h) after the last drawn frame
  double layer_ms = 0;              // CPU time that frame spent building the layer
  long frames_drawn = 0;            // frames whose drawing reached the canvas (unchanged ones are skipped)
};

// The student's settings (localStorage "dtx.theme", "dtx.single-key-shortcuts",
// "dtx.text-scale") and what the browser reports of the system.
struct Settings {
  // theme: 0 follow the system, 1 light, 2 dark
  int theme_choice = 0;
  bool single_key_shortcuts = true;  // h and n on an exercise; Settings turns them off (WCAG 2.1.4)
  bool system_dark = false;
  float text_scale = 1;
};

struct App {
  Platform* platform = nullptr;
  std::string base_url = "exercises/";

  Loading load;  // the index, the outline and the packs as they arrive
  Library lib;

  // pictures in pack texts (ui/images.h)
  PackImages images;

  // fonts, pointer and motion for the drawing code (ui/ui_env.h); scale (device pixel
  // ratio x text size)
  FontFiles font_files;
  UiEnv ui;
  bool fonts_dirty = true;
  std::map<int, std::string> font_requests;

  // student
  std::vector<std::string> notices;  // shown on the course map (corrupt progress kept aside...)
  ProgressStore store{notices};      // the progress record, saved and merged (progress_store.h)
  Screen screen = Screen::Loading;
  ExerciseState ex;
  std::string import_message;
  bool explain_progress = false;  // the course map's "What do these mean?" is open
  Settings settings;
  bool touch_pointer = false;    // this frame's pointer is a finger (platform/input_repairs.cpp)
  bool touch_long_press = false; // ... held still long enough to lift what it is on

  // previews (instructors): unique_ptr so exercise pointers survive adding one
  std::vector<std::unique_ptr<Preview>> previews;
  std::map<int, std::string> preview_requests;  // fetch id -> source URL
  bool submit_requested = false;  // Enter on an answer control, or Ctrl+Enter (ui/keyboard)
  long submitted_frame = -1;     // one submission per frame: Ctrl+Enter in a field is its Enter and the page's
  int instructor = -1;  // instructor view: -1 as by default (on in preview only), 0 off, 1 on
  // `?instructor` in the address: the instructor view may be turned on outside a preview. A
  // published exercise's answers are otherwise never drawn (the pack JSON is public anyway;
  // per-student numbers are what make copying useless: docs/AUTHORING.md).
  bool instructor_allowed = false;
  std::optional<CourseAssignment> course;  // `?assign=URL`
  long reloads = 0;     // packs re-read after a change (make serve), for the test hook
  bool rebuild_needed = false;  // a course file changed: rebuild once its fetches are in

  // frame bookkeeping for the test hook
  long frame = 0;
  std::string last_place;  // screen|exercise|seed drawn last, to scroll to the top on a change
  float content_width = 0;

  Navigation nav;
  bool release_field = false;  // a press on the text layer: the active field closes next frame

  WidgetSlots widgets;
  FrameStats stats;
  SearchState search;
  GlossaryState glossary;
  PracticeSession practice;
};

void app_init(App& app, Platform* platform);
// Between ImGui::NewFrame() and ImGui::Render().
void app_frame(App& app);
// After each frame: counts it and publishes the state the browser tests read (test_state.cpp).
void app_after_frame(App& app);
// True while packs come one by one as they are needed (the outline says where each exercise
// is), false when the whole library loads at the start (previews, course mode, no outline).
bool packs_load_lazily(const App& app);
// Something is loading, running or animating: keep drawing frames.
bool app_busy(const App& app);

void app_on_fetched(App& app, int request_id, bool ok, int status, std::string body);
// The first load: puts packs that have arrived into the library, at least one and then more
// while `budget_ms` lasts (loading one takes ~30 ms in the page), so the course map is drawn
// with the first chapter instead of after all of them. Called before each frame; true when
// the library changed.
bool app_load_arrived_packs(App& app, double budget_ms);
void app_on_code_result(App& app, int request_id, const std::string& json);
void app_on_file(App& app, const std::string& name, const std::string& text);

// Previews and live reload (called by the page through page_calls.cpp; the headless-UI test calls them).
void app_preview_url(App& app, const std::string& url);
void app_preview_text(App& app, const std::string& name, const std::string& text);
// A file under exercises/ changed (make serve): re-read it, the index, or a preview of it.
void app_pack_changed(App& app, const std::string& file);
// The first screen is up: the packs not asked for yet are asked for now (the outline's lazy
// loading; the platform loop calls it once after the first complete frame).
void app_prefetch_packs(App& app);
// A chapter was opened on the map: its pack is asked for now if it is not in yet.
void app_request_pack(App& app, const std::string& file);
// A pack of the course as the map shows it: the loaded pack, or its outline entry until then
// (an entry's exercises carry ids, titles and types only: open them with open_exercise).
struct MapPack {
  const Pack* pack = nullptr;
  bool loaded = false;
};
std::vector<MapPack> map_packs(const App& app);
// The title of an exercise of the course or its outline ("" when unknown).
std::string map_exercise_title(const App& app, const std::string& id);
// The exercise with this id, in a preview first, then in the course; and its preview if any.
const Exercise* find_exercise(const App& app, const std::string& id);
const Preview* preview_of(const App& app, const Exercise* ex);
bool instructor_view(const App& app);
// Assignments (web/screens/assignment.cpp).
void app_open_assignment(App& app, const std::string& url);
// True when the fetch was the assignment's (and is handled).
bool assignment_on_fetched(App& app, int request_id, bool ok, int status, const std::string& body);
// The open assignment's item for this exercise, when the student works on it in the assignment.
const AssignmentItem* assignment_item(const App& app, const std::string& exercise_id);
// The seed this student has for the item (their own numbers).
uint64_t assignment_own_seed(const App& app, const AssignmentItem& item);
// Records a graded attempt on an assignment exercise in the student's log and saves it.
void assignment_record(App& app, const Answer& answer, const Feedback& fb);
// Counted attempts left on the open exercise (own numbers, by the due date); -1: no limit or
// not an assignment exercise.
int assignment_attempts_left(const App& app);
// Whether the worked solution may be shown on the open exercise (the assignment's policy).
bool assignment_allows_explanation(const App& app, bool solved_here);
// Exam mode: the open exercise is one of the student's assignment exercises whose verdicts wait
// for the due date (its feedback policy "after-due" while an attempt can still count).
bool assignment_hides_verdicts(const App& app);
// Where an exercise is in the student's assignment (their own numbers on it): "3 of 10" and its
// neighbours among the exercises they have; nullopt outside the assignment.
struct AssignmentPlace {
  int index = 0, count = 0;  // 1-based
  const AssignmentItem* prev = nullptr;
  const AssignmentItem* next = nullptr;
};
std::optional<AssignmentPlace> assignment_place(const App& app, const std::string& exercise_id);
// The banner above an assignment exercise (attempts, due date, "not your numbers").
void draw_assignment_banner(App& app);
// The assignment in an LMS (web/course_lms.cpp): the LMS's learner and resume state, from
// web/shell/glue/lms.js; the report after each attempt; what the LMS took.
void assignment_set_student(App& app, const std::string& student);  // and read their stored log
bool assignment_save_log(App& app);  // merged with what other tabs stored; false: storage full
void lms_start(App& app, const std::string& learner_id, const std::string& suspend, double passing);
void lms_resume(App& app);  // once the assignment and the learner are both known
void lms_report_attempts(App& app);
void lms_sent(App& app, int reported, const std::string& problem);
bool in_lms(const App& app);

// "https://x/y/03-pipe.json?v=1" -> "03-pipe.json": the file a URL names.
std::string last_component(const std::string& url);

// Light or dark from the student's choice and the system's; restyles ImGui when it changes.
void app_apply_theme(App& app);

// Navigation (also used by the headless-UI test).
void open_exercise(App& app, const std::string& id, uint64_t seed);
// The address bar changed (page load, Back, Forward, an edited address): show that screen.
void app_on_address(App& app, const std::string& fragment);
// What the current screen's address is, and the tab title that names it.
Route current_route(const App& app);
std::string page_title(const App& app);
void submit(App& app);
// An answer entered on a linked exercise's HTML view before the engine ran (scripts/first-views.mjs,
// web/shell/first-screen/exercise-view.js), as `dtx grade` words: put into the open exercise's fields as if
// typed, and submitted when `submit` (the student pressed Submit there). Only for the exercise
// that view showed: `id` open at its default numbers (seed 0). False, with the reason in
// `error`, when it is not open or the words do not read as an answer of its type.
bool app_first_view_answer(App& app, const std::string& id, const std::vector<std::string>& words, bool submit,
                           std::string* error);
// Reads the stored record, merges this page's into it and writes the result; false when it
// could not be written (the page keeps everything and says so).

// Shared drawing helpers for screens and views.
// Markdown of the open exercise's pack (its images are read next to that pack), or of the
// course when no exercise is open.
MdStyle md_style(App& app);
void prompt_markdown(App& app, const std::string& text);
void markdown(App& app, const std::string& text);
// Markdown of a given pack (a chapter's intro): `image_base` is the pack's address, nullopt for
// a dropped file (pack_image_base).
void pack_markdown(App& app, const std::string& text, const std::optional<std::string>& image_base);
// Where a pack's relative images are read from: the pack's own address, under the page
// (base_url + file) for a course pack, the URL for a ?pack= preview; nullopt for a dropped
// file, which has no folder.
std::optional<std::string> pack_image_base(const App& app, const std::string& pack_file, const Preview* preview);
// Style for the app's scale and pointer (fonts and style scale with the pixel ratio).
void app_apply_style(App& app);

}  // namespace dtx::web
