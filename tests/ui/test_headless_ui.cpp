// The headless-UI test: the real app (screens, views, widgets) driven through Dear ImGui
// without a GL backend. Every exercise of every shipped pack is drawn at a desktop and a
// phone size, before and after right, wrong and unreadable answers and for another
// instance; the course map and settings are drawn with progress, notices and a broken pack.
// After every frame: no ImGui assert (IM_ASSERT is routed to test_hook.cpp) and no two
// items with the same ImGui ID (the item hooks of IMGUI_ENABLE_TEST_ENGINE).
#include <chrono>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <ostream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "app.h"
#include "fake_platform.h"
#include "buggy-line/buggy_line.h"
#include "choice/choice.h"
#include "code/code.h"
#include "numeric/numeric.h"
#include "ordering/ordering.h"
#include "imgui.h"
#include "imgui_internal.h"
#include "platform/test_hook.h"
#include "sandbox_runner.h"
#include "text.h"
#include "ui/markdown.h"
#include "ui/keyboard.h"
#include "ui/maths_layout.h"
#include "ui/text_layer.h"
#include "ui/theme.h"
#include "type_registry.h"
#include "type_view.h"

// gtest prints the display size of a parameterised test with this (ImVec2 is global).
void PrintTo(const ImVec2& v, std::ostream* os) { *os << v.x << "x" << v.y; }

using namespace dtx;
using namespace dtx::web;
using dtx::testing::FakePlatform;

namespace {

const ImVec2 kWide(1280, 900);
const ImVec2 kPhone(360, 740);

std::string join(const std::vector<std::string>& v, const char* sep = "; ") {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : sep) + x;
  return s;
}

std::string size_name(ImVec2 s) {
  return std::to_string(static_cast<int>(s.x)) + "x" + std::to_string(static_cast<int>(s.y));
}

// ---- code runs: the CLI's sandbox runner on the exact request the app sent (the browser's
// worker runs the same sandbox core on the same JSON). Results are cached by request, so
// each runs once.

bool node_available() {
  static int avail = -1;
  if (avail < 0) avail = dtx::SandboxRunner(DTX_SANDBOX_HOST).available() ? 1 : 0;
  return avail == 1;
}

std::string run_node(const std::string& request_json) {
  static std::map<std::string, std::string> cache;
  static dtx::SandboxRunner runner(DTX_SANDBOX_HOST);
  if (auto it = cache.find(request_json); it != cache.end()) return it->second;
  auto req = nlohmann::json::parse(request_json, nullptr, false);
  dtx::CodeRunRequest r;
  if (req.is_object()) {
    r.function = req.value("function", "");
    r.source = req.value("source", "");
    r.reference = req.value("reference", "");
    r.time_limit_ms = req.value("time_limit_ms", 2000.0);
    if (auto c = req.find("cases"); c != req.end() && c->is_array())
      for (const auto& args : *c) {
        std::vector<std::string> a;
        for (const auto& v : args) a.push_back(v.dump());
        r.cases.push_back(a);
      }
  }
  dtx::CodeRunResult res = runner.run(r);
  // Back to the wire form the app reads (the same JSON the worker posts).
  nlohmann::json out;
  const char* kinds[] = {"none", "syntax", "missing", "timeout", "memory", "runtime"};
  if (res.kind != dtx::CodeRunResult::Kind::None) out["kind"] = kinds[static_cast<int>(res.kind)];
  if (!res.error.empty()) out["error"] = res.error;
  if (res.error_line) out["line"] = res.error_line;
  auto outcomes = [](const std::vector<dtx::CodeCaseOutcome>& v) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& o : v) {
      nlohmann::json x{{"ok", o.ok}};
      if (o.ok) x["value"] = nlohmann::json::parse(o.value_json, nullptr, false);
      else x["error"] = o.error;
      a.push_back(x);
    }
    return a;
  };
  out["student"] = outcomes(res.student);
  out["reference"] = outcomes(res.reference);
  return cache[request_json] = out.dump();
}

// ---- the fixture: one ImGui context, one app, one fake platform per test

class HeadlessUi : public ::testing::Test {
 protected:
  FakePlatform pf;
  App app;
  long frames = 0;
  // problems seen, by message: the first context is reported at once, the rest counted
  std::map<std::string, std::vector<std::string>> seen;

  void SetUp() override {
    ImGui::CreateContext();
    GImGui->TestEngineHookItems = true;
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.LogFilename = nullptr;
    io.DisplaySize = kWide;
    io.DeltaTime = 1.0f / 60.0f;
    io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    hook_take_asserts();
  }

  void TearDown() override {
    for (const auto& [msg, where] : seen)
      if (where.size() > 1) {
        std::vector<std::string> more(where.begin() + 1, where.begin() + std::min<size_t>(where.size(), 12));
        ADD_FAILURE() << "the same problem in " << where.size() - 1 << " more frames (" << join(more)
                      << (where.size() > 12 ? "; ..." : "") << "): " << msg;
      }
    ImGui::DestroyContext();
  }

  void rebuild_fonts() {
    float scale = app.ui.dpr * app.settings.text_scale;
    app.ui.fonts = build_fonts({}, scale);  // no font files: ImGui's built-in font in every slot
    apply_style(scale);
    unsigned char* px = nullptr;
    int w = 0, h = 0;
    ImGui::GetIO().Fonts->GetTexDataAsRGBA32(&px, &w, &h);
    app.fonts_dirty = false;
  }

  // app_init, every fetch answered, fonts built: the app is on the course map.
  void start() {
    app_init(app, &pf);
    pf.answer_fetches(app);
    rebuild_fonts();
  }

  void problem(const std::string& msg, const std::string& where) {
    auto& w = seen[msg];
    if (w.empty()) ADD_FAILURE() << where << ": " << msg;
    w.push_back(where);
  }

  // One frame as main_web.cpp draws it, minus GL. `where` names what is on screen.
  void frame(const std::string& where) {
    if (app.fonts_dirty) rebuild_fonts();
    ImGuiIO& io = ImGui::GetIO();
    io.DeltaTime = 1.0f / 60.0f;
    pf.clock_ms += 1000.0 / 60.0;
    app_load_arrived_packs(app, 12.0);  // as main_web.cpp does before each frame
    hook_begin_frame();
    text_layer_begin_frame();
    ImGui::NewFrame();
    app_frame(app);
    ImGui::Render();
    app_after_frame(app);
    ++frames;
    std::string at = where + " (" + size_name(io.DisplaySize) + ", frame " + std::to_string(app.frame) + ")";
    for (const auto& a : hook_take_asserts()) problem("ImGui assert: " + a, at);
    for (const auto& c : hook_frame().id_clashes) problem("ID clash: two items share the ID of \"" + c + "\"", at);
  }

  void frames_n(int n, const std::string& where) {
    for (int i = 0; i < n; ++i) frame(where);
  }

  static ImGuiWindow* page_window() {
    for (ImGuiWindow* w : GImGui->Windows)
      if (std::strstr(w->Name, "/##page_")) return w;
    return nullptr;
  }

  // Scrolls the page through its whole height a screen at a time (items are only recorded,
  // and so only checked for clashes, where they are visible), then back to the top.
  // `each` runs after every frame (e.g. to open chapters as they come into view).
  template <class F>
  void sweep(const std::string& where, F each) {
    ImGuiWindow* page = page_window();
    if (!page) return;
    float step = std::max(page->InnerRect.GetHeight() * 0.8f, 50.0f);
    for (int i = 1; i < 400; ++i) {
      page = page_window();
      if (step * (i - 1) >= page->ScrollMax.y) break;
      ImGui::SetScrollY(page, step * i);
      frame(where + " scrolled");
      each();
    }
    ImGui::SetScrollY(page_window(), 0);
    frame(where);
  }
  void sweep(const std::string& where) {
    sweep(where, [] {});
  }

  const HookItem* item(const std::string& key) const {
    for (const auto& it : hook_frame().items)
      if (it.key == key) return &it;
    return nullptr;
  }

  // A click (press one frame, release the next) on the item the hook recorded as `key`.
  bool click(const std::string& key, const std::string& where) {
    const HookItem* it = item(key);
    if (!it) return false;
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = ImVec2((it->min.x + it->max.x) * 0.5f, (it->min.y + it->max.y) * 0.5f);
    io.MouseDown[0] = true;
    frame(where + " press " + key);
    io.MouseDown[0] = false;
    frame(where + " release " + key);
    io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    return true;
  }

  // Opens every chapter header that is visible and closed (their open state is ImGui's).
  void open_visible_chapters() {
    ImGuiWindow* page = page_window();
    if (!page) return;
    for (const auto& it : hook_frame().items)
      if (it.key.rfind("chapter-", 0) == 0 && page->StateStorage.GetInt(it.id, 0) == 0) page->StateStorage.SetInt(it.id, 1);
  }

  // ---- answers

  // The engine's sample answers for the open instance (TypeSpec::sample_answers): the right
  // one first, then each kind of wrong one the type knows, then unreadable ones.
  std::vector<SampleAnswer> samples() const {
    const ExerciseState& st = app.ex;
    return st.exercise->spec->sample_answers(*st.exercise, *st.inst);
  }
  // Puts an answer into the open exercise's fields through its view, as a student would.
  void set_answer(const Answer& a, const std::string& what = "the answer") {
    const TypeView* v = find_view(app.ex.exercise->type);
    ASSERT_TRUE(v && v->set_answer(app, app.ex, a)) << app.ex.id << ": the view cannot show " << what;
  }
  void fill(const SampleAnswer& s) { set_answer(s.answer, s.kind); }
  // The open exercise's fields as its view reports them to the test hook ("inputs", "picks").
  nlohmann::json fields() const {
    nlohmann::json j = nlohmann::json::object();
    if (const TypeView* v = find_view(app.ex.exercise->type); v && app.ex.view) v->hook_state(app.ex, j);
    return j;
  }
  // The first sample answer whose expected verdict `want` accepts.
  void fill_first(bool (*want)(SampleAnswer::Expect)) {
    for (const auto& s : samples())
      if (want(s.expect)) return fill(s);
  }
  void fill_correct() {
    fill_first([](SampleAnswer::Expect e) { return e == SampleAnswer::Expect::Correct; });
  }
  void fill_wrong() {
    fill_first([](SampleAnswer::Expect e) {
      return e == SampleAnswer::Expect::Incorrect || e == SampleAnswer::Expect::Partial || e == SampleAnswer::Expect::Wrong;
    });
  }

  // Submits; a code run is drawn once while "running", then answered with `result`
  // (empty: run with node when available, else a canned result). True when node graded it.
  bool submit_and_answer(const std::string& where, const std::string& result = "") {
    submit(app);
    if (app.ex.code_request == 0) return false;
    EXPECT_EQ(pf.code_request_id, app.ex.code_request) << where;
    frame(where + " running");
    bool by_node = result.empty() && node_available();
    std::string json = !result.empty() ? result : by_node ? run_node(pf.code_request_json) : R"({"student": []})";
    app_on_code_result(app, pf.code_request_id, json);
    EXPECT_EQ(app.ex.code_request, 0) << where;
    return by_node;
  }

  Verdict verdict() const { return app.ex.feedback ? app.ex.feedback->verdict : Verdict::Incorrect; }
  std::string feedback_text() const {
    if (!app.ex.feedback) return "(no feedback)";
    return std::string(verdict_name(app.ex.feedback->verdict)) + ": " + app.ex.feedback->message + " " +
           join(app.ex.feedback->details);
  }

  std::vector<const Exercise*> all_exercises() const {
    std::vector<const Exercise*> out;
    for (const auto& p : app.lib.packs)
      for (const auto& e : p.exercises) out.push_back(&e);
    return out;
  }

  // Every sample answer of the open exercise, submitted through its view, with a frame after
  // each: each gets the verdict (and names the mistake) the engine says it must. A program's
  // right answer really runs, in node, when node is here; the others get the run result the
  // sample carries.
  void answer_everything(const std::string& id) {
    const Exercise& ex = *app.ex.exercise;
    bool first = true;
    for (const SampleAnswer& s : samples()) {
      const std::string where = id + " " + s.kind;
      fill(s);
      const bool by_node = s.expect == SampleAnswer::Expect::Correct && !s.run_json.empty() && node_available();
      submit_and_answer(where, by_node ? "" : s.run_json);
      ASSERT_TRUE(app.ex.feedback.has_value()) << where;
      std::string why;
      EXPECT_TRUE(sample_answer_holds(s, *app.ex.feedback, &why)) << where << ": " << why;
      if (first) {  // the right answer: every hint open too, and a sweep over the screen
        app.ex.hints_shown = static_cast<int>(ex.hints.size());
        frames_n(3, where);
        sweep(where);
        first = false;
      } else {
        frame(where);
      }
    }
  }
};

// ---------------------------------------------------------------- every exercise, every view

class EveryExercise : public HeadlessUi, public ::testing::WithParamInterface<ImVec2> {};

TEST_P(EveryExercise, DrawsWithoutAssertsOrIdClashes) {
  ImGui::GetIO().DisplaySize = GetParam();
  start();
  ASSERT_TRUE(app.load.library_ready);
  ASSERT_FALSE(app.lib.packs.empty()) << "no pack loaded";
  // Packs still being written may fail to load: the app shows them, the test goes on.
  for (const auto& p : app.load.problems)
    std::printf("[ note ] pack problem shown by the app: %s: %s\n", p.file.c_str(), join(p.messages, " | ").c_str());

  frames_n(3, "course map");
  std::set<std::string> types;
  int code_by_node = 0;
  for (const Exercise* ex : all_exercises()) {
    const std::string& id = ex->id;
    open_exercise(app, id, 0);
    ASSERT_EQ(app.screen, Screen::Exercise) << id;
    if (!app.ex.inst) {
      ADD_FAILURE() << id << ": no instance at seed 0: " << app.ex.instance_error;
      continue;
    }
    types.insert(ex->type);
    frames_n(3, id);
    sweep(id);
    answer_everything(id);
    if (ex->spec->answer_is_program() && node_available()) ++code_by_node;

    open_exercise(app, id, 7);  // "try another"
    ASSERT_TRUE(app.ex.inst) << id << " seed 7: " << app.ex.instance_error;
    EXPECT_EQ(app.ex.inst->seed, 7u) << id;
    frames_n(2, id + " seed 7");
  }
  for (const char* t : {"numeric", "choice", "ordering", "buggy-line", "code"}) EXPECT_TRUE(types.count(t)) << t;
  if (!node_available()) std::printf("[ note ] node not found: code exercises were answered with canned results\n");
  std::printf("[ info ] %zu exercises at %s, %ld frames, %d code runs graded by node\n", all_exercises().size(),
              size_name(GetParam()).c_str(), frames, code_by_node);
}

INSTANTIATE_TEST_SUITE_P(Sizes, EveryExercise, ::testing::Values(kWide, kPhone),
                         [](const ::testing::TestParamInfo<ImVec2>& i) {
                           return i.param.x > 1000 ? std::string("Desktop1280x900") : std::string("Phone360x740");
                         });

// ---------------------------------------------------------------- course map and settings

TEST_F(HeadlessUi, CourseMapAndSettingsWithProgress) {
  start();
  ASSERT_FALSE(app.lib.packs.empty());
  ASSERT_EQ(app.screen, Screen::CourseMap);
  for (ImVec2 size : {kWide, kPhone}) {
    ImGui::GetIO().DisplaySize = size;
    frames_n(3, "course map, no progress");
    sweep("course map, no progress", [&] { open_visible_chapters(); });
  }

  // answer one exercise of each type right, and one wrong
  ImGui::GetIO().DisplaySize = kWide;
  std::set<std::string> done_types;
  std::string wrong_id;
  for (const Exercise* ex : all_exercises()) {
    if (ex->spec->answer_is_program()) continue;  // graded by a runner; covered above
    if (done_types.count(ex->type)) {
      if (wrong_id.empty()) {
        open_exercise(app, ex->id, 0);
        frame(ex->id);
        fill_wrong();
        submit(app);
        wrong_id = ex->id;
        frame(ex->id + " wrong");
      }
      continue;
    }
    open_exercise(app, ex->id, 0);
    frame(ex->id);
    fill_correct();
    submit(app);
    EXPECT_EQ(verdict(), Verdict::Correct) << ex->id << ": " << feedback_text();
    frame(ex->id + " right");
    done_types.insert(ex->type);
  }
  ASSERT_GE(done_types.size(), 1u);
  EXPECT_GE(app.store.progress.exercises.size(), done_types.size());

  app.screen = Screen::CourseMap;
  for (ImVec2 size : {kWide, kPhone}) {
    ImGui::GetIO().DisplaySize = size;
    frames_n(3, "course map with progress");
    sweep("course map with progress", [&] { open_visible_chapters(); });
    frames_n(2, "course map with progress, every chapter open");
  }
  // "Continue where you left off" opens the last exercise, through a real click.
  ImGui::GetIO().DisplaySize = kWide;
  frame("course map");
  ASSERT_TRUE(click("continue", "course map")) << "no Continue button";
  EXPECT_EQ(app.screen, Screen::Exercise);
  EXPECT_EQ(app.ex.id, app.store.progress.last_exercise);
  frames_n(2, app.ex.id + " opened from the course map");
  // back to the map through the top bar, then Settings
  ASSERT_TRUE(click("nav-course", app.ex.id));
  EXPECT_EQ(app.screen, Screen::CourseMap);
  ASSERT_TRUE(click("nav-settings", "course map"));
  EXPECT_EQ(app.screen, Screen::Settings);

  for (ImVec2 size : {kWide, kPhone}) {
    ImGui::GetIO().DisplaySize = size;
    frames_n(3, "settings");
    sweep("settings");
  }
  ImGui::GetIO().DisplaySize = kWide;
  frame("settings");
  // text size: the atlas is rebuilt before the next frame, as in the browser
  ASSERT_TRUE(click("text-larger", "settings"));
  EXPECT_FLOAT_EQ(app.settings.text_scale, 1.125f);
  frames_n(3, "settings, larger text");
  ASSERT_TRUE(click("text-smaller", "settings"));
  EXPECT_FLOAT_EQ(app.settings.text_scale, 1.0f);
  frames_n(2, "settings");
  // export and import the progress file
  ASSERT_TRUE(click("export", "settings"));
  ASSERT_EQ(pf.downloads.size(), 1u);
  EXPECT_EQ(pf.downloads[0].first, "dtx-progress-" + pf.date + ".json");
  ASSERT_TRUE(click("import", "settings"));
  EXPECT_EQ(pf.file_picks, 1);
  app_on_file(app, "progress.json", pf.downloads[0].second);
  EXPECT_NE(app.import_message.find("Imported"), std::string::npos) << app.import_message;
  frames_n(2, "settings after an import");
  app_on_file(app, "notes.txt", "not a progress file");
  EXPECT_NE(app.import_message.find("Nothing was changed"), std::string::npos) << app.import_message;
  frames_n(2, "settings after a failed import");
  ImGui::GetIO().DisplaySize = kPhone;
  frames_n(2, "settings after a failed import");
}

TEST_F(HeadlessUi, BrokenAndMissingPacksAreListedAndTheOthersLoad) {
  // the packs that load without the broken ones, for comparison
  size_t baseline = 0;
  {
    FakePlatform other;
    App plain;
    app_init(plain, &other);
    other.answer_fetches(plain);
    ASSERT_TRUE(plain.load.library_ready);
    baseline = plain.lib.packs.size();
  }
  ASSERT_GT(baseline, 0u);

  auto index = nlohmann::json::parse(FakePlatform::read_source_file("exercises/index.json"));
  index["packs"].push_back("99-broken.json");
  index["packs"].push_back("98-missing.json");
  pf.overrides["exercises/index.json"] = {true, 200, index.dump(2)};
  pf.overrides["exercises/99-broken.json"] = {true, 200, "{\"format\": 1,"};
  pf.overrides["exercises/98-missing.json"] = {false, 404, ""};
  start();
  ASSERT_TRUE(app.load.library_ready);
  EXPECT_EQ(app.lib.packs.size(), baseline) << "the other packs must still load";

  const PackProblem* broken = nullptr;
  const PackProblem* missing = nullptr;
  for (const auto& p : app.load.problems) {
    if (p.file == "99-broken.json") broken = &p;
    if (p.file == "98-missing.json") missing = &p;
  }
  ASSERT_TRUE(broken) << "99-broken.json is not listed in app.load.problems";
  ASSERT_FALSE(broken->messages.empty());
  const std::regex at_position(R"(^99-broken\.json:\d+:\d+: .+)");
  for (const auto& m : broken->messages) EXPECT_TRUE(std::regex_match(m, at_position)) << m;
  ASSERT_TRUE(missing) << "98-missing.json is not listed in app.load.problems";
  ASSERT_FALSE(missing->messages.empty());
  EXPECT_NE(missing->messages[0].find("404"), std::string::npos) << missing->messages[0];

  for (ImVec2 size : {kWide, kPhone}) {
    ImGui::GetIO().DisplaySize = size;
    frames_n(3, "course map with a broken pack");
    sweep("course map with a broken pack", [&] { open_visible_chapters(); });
  }
  // the problems are in the test-hook state too
  auto state = nlohmann::json::parse(pf.state_json);
  std::string probs = state["problems"].dump();
  EXPECT_NE(probs.find("99-broken.json"), std::string::npos) << probs;

  // An index that is not an index: an error, not a crash.
  FakePlatform pf2;
  App bad;
  pf2.overrides["exercises/index.json"] = {true, 200, "[1, 2"};
  app_init(bad, &pf2);
  pf2.answer_fetches(bad);
  EXPECT_TRUE(bad.load.library_ready);
  EXPECT_FALSE(bad.load.index_error.empty());
  EXPECT_TRUE(bad.lib.packs.empty());
}

// ---------------------------------------------------------------- progress in storage

const Exercise* first_non_code(const Library& lib) {
  for (const auto& p : lib.packs)
    for (const auto& e : p.exercises)
      if (!e.spec->answer_is_program()) return &e;
  return nullptr;
}

TEST_F(HeadlessUi, ProgressIsSavedAfterACorrectSubmission) {
  start();
  const Exercise* ex = first_non_code(app.lib);
  ASSERT_TRUE(ex);
  open_exercise(app, ex->id, 0);
  frames_n(2, ex->id);
  fill_correct();
  submit(app);
  ASSERT_EQ(verdict(), Verdict::Correct) << feedback_text();
  frames_n(2, ex->id + " right");
  ASSERT_TRUE(pf.storage.count("dtx.progress"));
  const std::string& stored = pf.storage["dtx.progress"];
  EXPECT_NE(stored.find("\"" + ex->id + "\""), std::string::npos) << stored;
  ProgressRead r = read_progress(stored);
  EXPECT_FALSE(r.unreadable);
  ASSERT_TRUE(r.progress.exercises.count(ex->id)) << stored;
  EXPECT_EQ(r.progress.exercises.at(ex->id).attempts(), 1);
  EXPECT_NE(r.progress.exercises.at(ex->id).solved_at, 0);

  // A second app on the same storage starts where the first left off.
  FakePlatform& storage_of_first = pf;
  FakePlatform again;
  again.storage = storage_of_first.storage;
  App next;
  app_init(next, &again);
  again.answer_fetches(next);
  EXPECT_TRUE(next.notices.empty() || join(next.notices).find("progress") == std::string::npos) << join(next.notices);
  EXPECT_EQ(next.store.progress.last_exercise, ex->id);
  EXPECT_TRUE(next.store.progress.exercises.count(ex->id));
}

TEST_F(HeadlessUi, CorruptStoredProgressIsKeptAside) {
  pf.storage["dtx.progress"] = "{not json";
  start();
  const std::string backup_key = "dtx.progress.unreadable";
  ASSERT_TRUE(pf.storage.count(backup_key)) << "the unreadable record was not kept aside";
  EXPECT_EQ(pf.storage[backup_key], "{not json");
  bool mentioned = false;
  for (const auto& n : app.notices) mentioned |= n.find(backup_key) != std::string::npos;
  EXPECT_TRUE(mentioned) << "no notice names " << backup_key << ": " << join(app.notices);
  EXPECT_TRUE(app.store.progress.exercises.empty());

  // the notice on the course map and in settings, at both sizes
  for (ImVec2 size : {kWide, kPhone}) {
    ImGui::GetIO().DisplaySize = size;
    app.screen = Screen::CourseMap;
    frames_n(3, "course map with a progress notice");
    sweep("course map with a progress notice");
    app.screen = Screen::Settings;
    frames_n(3, "settings with a progress notice");
  }
  auto state = nlohmann::json::parse(pf.state_json);
  EXPECT_NE(state["notices"].dump().find(backup_key), std::string::npos);

  // a new correct answer writes a fresh record; the kept one is untouched
  const Exercise* ex = first_non_code(app.lib);
  ASSERT_TRUE(ex);
  open_exercise(app, ex->id, 0);
  fill_correct();
  submit(app);
  frames_n(2, ex->id + " right");
  EXPECT_FALSE(read_progress(pf.storage["dtx.progress"]).unreadable);
  EXPECT_NE(pf.storage["dtx.progress"].find("\"" + ex->id + "\""), std::string::npos);
  EXPECT_EQ(pf.storage[backup_key], "{not json");
}

std::vector<std::string> keys_starting(const FakePlatform& pf, const std::string& prefix) {
  std::vector<std::string> keys;
  for (const auto& [k, v] : pf.storage)
    if (k.rfind(prefix, 0) == 0) keys.push_back(k);
  return keys;
}

TEST_F(HeadlessUi, OneBackupOfAnUnreadableRecordHoweverOftenThePageLoads) {
  pf.storage["dtx.progress"] = "{not json";
  start();
  for (int load = 0; load < 3; ++load) {  // the same record at every load: one copy
    FakePlatform again;
    again.storage = pf.storage;
    App next;
    app_init(next, &again);
    EXPECT_EQ(keys_starting(again, "dtx.progress."), std::vector<std::string>{"dtx.progress.unreadable"});
    EXPECT_NE(join(next.notices).find("kept unchanged"), std::string::npos) << join(next.notices);
    EXPECT_EQ(join(next.notices).find("replaced"), std::string::npos) << join(next.notices);
  }
  // another unreadable record replaces the kept one, and the page says so
  pf.storage["dtx.progress"] = "[1, 2";
  FakePlatform later;
  later.storage = pf.storage;
  App next;
  app_init(next, &later);
  EXPECT_EQ(keys_starting(later, "dtx.progress."), std::vector<std::string>{"dtx.progress.unreadable"});
  EXPECT_EQ(later.storage["dtx.progress.unreadable"], "[1, 2");
  EXPECT_NE(join(next.notices).find("replaced an older record"), std::string::npos) << join(next.notices);
}

TEST_F(HeadlessUi, OutOfRangeNumbersInTheStoredRecordAreClampedAndListed) {
  pf.storage["dtx.progress"] =
      R"({"version": 1, "exercises": {"ring.volume": {"attempts": 1e300, "best": 1, "solved_at": 1763700000}}})";
  start();
  ASSERT_TRUE(app.store.progress.exercises.count("ring.volume"));
  EXPECT_EQ(app.store.progress.exercises.at("ring.volume").attempts(), kMaxAttempts);
  std::string notices = join(app.notices);
  EXPECT_NE(notices.find("attempts = 1e+300 is above 1000000000; read as 1000000000"), std::string::npos) << notices;
  EXPECT_EQ(pf.storage["dtx.progress.unreadable"], pf.storage["dtx.progress"]);
  for (ImVec2 size : {kWide, kPhone}) {
    ImGui::GetIO().DisplaySize = size;
    frames_n(3, "course map listing a clamped number");
  }
}

TEST_F(HeadlessUi, AnotherTabsSaveIsMergedAndKept) {
  start();
  const Exercise* ex = first_non_code(app.lib);
  ASSERT_TRUE(ex);
  // (an exercise of the course: the test hook lists the course's records)
  const std::string other_id = app.lib.packs.back().exercises.back().id;
  ASSERT_NE(other_id, ex->id);
  // the other tab, on the same storage, solved something else and saved
  Progress other = read_progress(pf.storage.count("dtx.progress") ? pf.storage["dtx.progress"] : "{}").progress;
  Feedback right;
  right.verdict = Verdict::Correct;
  right.score = 1;
  record_attempt(other, "1715680000-othertab", other_id, right, pf.unix_time, pf.date);
  pf.storage["dtx.progress"] = write_progress(other);
  pf.changed_elsewhere.insert("dtx.progress");
  frames_n(2, "course map after another tab saved");
  ASSERT_TRUE(app.store.progress.exercises.count(other_id)) << "the storage event was not merged";
  auto state = nlohmann::json::parse(pf.state_json);
  EXPECT_TRUE(state["progress"]["exercises"][other_id]["solved"].get<bool>()) << pf.state_json;
  // this tab's solve is saved next to it
  open_exercise(app, ex->id, 0);
  frames_n(2, ex->id);
  fill_correct();
  submit(app);
  ASSERT_EQ(verdict(), Verdict::Correct) << feedback_text();
  ProgressRead stored = read_progress(pf.storage["dtx.progress"]);
  EXPECT_TRUE(stored.progress.exercises.count(other_id)) << pf.storage["dtx.progress"];
  ASSERT_TRUE(stored.progress.exercises.count(ex->id)) << pf.storage["dtx.progress"];
  EXPECT_EQ(stored.progress.exercises.at(ex->id).attempts_by_writer.count(app.store.writer_id), 1u);
  // an older write by the other tab (its save raced ours) is merged, and ours written back
  pf.storage["dtx.progress"] = write_progress(other);
  pf.changed_elsewhere.insert("dtx.progress");
  frame("after a stale write by another tab");
  stored = read_progress(pf.storage["dtx.progress"]);
  EXPECT_TRUE(stored.progress.exercises.count(ex->id)) << "not written back: " << pf.storage["dtx.progress"];
  EXPECT_EQ(stored.progress.exercises.at(ex->id).attempts(), 1);
}

TEST_F(HeadlessUi, AFullStorageLosesNothingAndSaysSo) {
  start();
  std::vector<const Exercise*> picks;
  for (const auto& p : app.lib.packs)
    for (const auto& e : p.exercises)
      if (!e.spec->answer_is_program() && picks.size() < 2) picks.push_back(&e);
  ASSERT_EQ(picks.size(), 2u);
  open_exercise(app, picks[0]->id, 0);
  fill_correct();
  submit(app);
  const std::string before = pf.storage["dtx.progress"];
  ASSERT_NE(before.find(picks[0]->id), std::string::npos);

  pf.storage_full = true;
  open_exercise(app, picks[1]->id, 0);
  frames_n(2, picks[1]->id);
  fill_correct();
  submit(app);
  EXPECT_EQ(pf.storage["dtx.progress"], before) << "what was stored changed";
  EXPECT_TRUE(app.store.progress.exercises.count(picks[1]->id)) << "the page forgot the new solve";
  EXPECT_NE(join(app.notices).find("Progress could not be saved: browser storage is full"), std::string::npos)
      << join(app.notices);
  frame("the second press comes in a later frame");  // (one submission a frame: ui/keyboard, app.cpp submit)
  fill_correct();  // (the focused field gave its own text back in that frame)
  submit(app);  // a second failure: still one notice
  EXPECT_EQ(std::count_if(app.notices.begin(), app.notices.end(),
                          [](const std::string& n) { return n.find("could not be saved") != std::string::npos; }),
            1);
  for (ImVec2 size : {kWide, kPhone}) {
    ImGui::GetIO().DisplaySize = size;
    frames_n(3, "exercise with the storage-full notice");
    app.screen = Screen::CourseMap;
    frames_n(3, "course map with the storage-full notice");
    app.screen = Screen::Exercise;
  }
  auto state = nlohmann::json::parse(pf.state_json);
  EXPECT_FALSE(state["progress"]["saved"].get<bool>());

  pf.storage_full = false;
  fill_correct();
  submit(app);  // the next save writes everything
  ASSERT_EQ(app.ex.graded, 3) << app.ex.id;
  ProgressRead stored = read_progress(pf.storage["dtx.progress"]);
  ASSERT_TRUE(stored.progress.exercises.count(picks[0]->id));
  ASSERT_TRUE(stored.progress.exercises.count(picks[1]->id)) << pf.storage["dtx.progress"] << join(app.notices);
  EXPECT_EQ(stored.progress.exercises.at(picks[1]->id).attempts(), 3);
  EXPECT_EQ(join(app.notices).find("could not be saved"), std::string::npos) << join(app.notices);
  EXPECT_TRUE(app.store.save_error.empty());
}

TEST_F(HeadlessUi, ImportMergesAndKeepsOneBackup) {
  start();
  const Exercise* ex = first_non_code(app.lib);
  ASSERT_TRUE(ex);
  open_exercise(app, ex->id, 0);
  fill_correct();
  submit(app);
  Progress file;
  Feedback wrong;
  record_attempt(file, "1600000000-elsewhere", "imported.one", wrong, 1600000000, "2020-09-13");
  std::string text = write_progress(file);
  app_on_file(app, "a.json", text);
  EXPECT_NE(app.import_message.find("merged"), std::string::npos) << app.import_message;
  EXPECT_TRUE(app.store.progress.exercises.count(ex->id)) << "the import replaced this browser's progress";
  EXPECT_TRUE(app.store.progress.exercises.count("imported.one"));
  EXPECT_TRUE(pf.storage.count("dtx.progress.before-import"));
  // the same file again: nothing counted twice, still one backup
  app_on_file(app, "a.json", text);
  EXPECT_NE(app.import_message.find("replacing the one kept at the previous import"), std::string::npos)
      << app.import_message;
  app_on_file(app, "a.json", text);  // the backup already holds the current record
  EXPECT_EQ(app.import_message.find("before-import"), std::string::npos) << app.import_message;
  EXPECT_EQ(app.store.progress.exercises.at("imported.one").attempts(), 1);
  EXPECT_EQ(keys_starting(pf, "dtx.progress."), std::vector<std::string>{"dtx.progress.before-import"});
  // a file with absurd numbers: clamped, and the message lists them
  app_on_file(app, "b.json", R"({"version": 2, "exercises": {"imported.two": {"attempts": 2147483647, "best": 7}}})");
  EXPECT_EQ(app.store.progress.exercises.at("imported.two").attempts(), kMaxAttempts);
  EXPECT_DOUBLE_EQ(app.store.progress.exercises.at("imported.two").best_score, 1);
  EXPECT_NE(app.import_message.find("attempts = 2147483647 is above"), std::string::npos) << app.import_message;
  EXPECT_NE(app.import_message.find("best = 7 is above 1; read as 1"), std::string::npos) << app.import_message;
  // a full storage: nothing imported, nothing changed
  pf.storage_full = true;
  auto before = pf.storage;
  Progress before_progress = app.store.progress;
  record_attempt(file, "1600000000-elsewhere", "imported.three", wrong, 1600000001, "2020-09-13");
  app_on_file(app, "c.json", write_progress(file));
  EXPECT_NE(app.import_message.find("Nothing was changed"), std::string::npos) << app.import_message;
  EXPECT_EQ(pf.storage, before);
  EXPECT_EQ(app.store.progress, before_progress);
  // a JSON file that is not progress: refused by name, nothing stored changes
  pf.storage_full = false;
  app_on_file(app, "hello.json", R"({"hello": 1})");
  EXPECT_NE(app.import_message.find("hello.json is not a dtx progress file"), std::string::npos) << app.import_message;
  EXPECT_NE(app.import_message.find("Nothing was changed"), std::string::npos) << app.import_message;
  EXPECT_EQ(pf.storage, before);
  EXPECT_EQ(app.store.progress, before_progress);
}

}  // namespace

// ---- widgets: every kind in the Lab at both sizes, played to the end, stepped back and
// forward, and run at the corners of its inputs (min, max, every option), with the frame
// checks above after every frame. Embedded widgets are drawn with every exercise above.

class HeadlessWidgets : public HeadlessUi, public ::testing::WithParamInterface<ImVec2> {};

TEST_P(HeadlessWidgets, EveryWidgetPlaysThroughItsStepsAndInputs) {
  ImGui::GetIO().DisplaySize = GetParam();
  start();
  frame("course map");
  ASSERT_TRUE(click("nav-lab", "course map"));
  ASSERT_EQ(app.screen, Screen::Lab);
  for (const sim::WidgetKind* kind : sim::widget_kinds()) {
    std::string where = std::string("lab ") + kind->kind;
    frame(where);
    ASSERT_TRUE(click(std::string("lab-") + kind->kind, where)) << where;
    ASSERT_EQ(app.widgets.lab_kind, kind->kind);
    ASSERT_TRUE(app.widgets.lab_widget) << where << ": no view for this widget";
    frame(where);
    ASSERT_EQ(app.widgets.drawn_widget, app.widgets.lab_widget.get()) << where;
    auto st = nlohmann::json::parse(app.widgets.lab_widget->state_json(), nullptr, false);
    ASSERT_FALSE(st.is_discarded()) << where << ": state_json is not JSON: " << app.widgets.lab_widget->state_json();
    EXPECT_EQ(st.value("kind", ""), kind->kind) << where;
    int steps = st.value("steps", 0);
    if (steps > 0) {
      // Step forward twice, back once, through the buttons a student clicks.
      ASSERT_TRUE(click(std::string(kind->kind) + "-step", where));
      ASSERT_TRUE(click(std::string(kind->kind) + "-step", where));
      ASSERT_TRUE(click(std::string(kind->kind) + "-back", where));
      st = nlohmann::json::parse(app.widgets.lab_widget->state_json());
      EXPECT_EQ(st.value("step", -1), 1) << where << ": step, step, back should leave it at step 1";
      // Play to the end: the fake clock advances 1/60 s a frame; the page draws while playing.
      ASSERT_TRUE(click(std::string(kind->kind) + "-play", where));
      EXPECT_TRUE(app_busy(app)) << where << ": a playing widget must keep frames coming";
      for (int i = 0; i < 20000 && app.widgets.widget_animating; ++i) {
        frame(where + " playing");
        if (i % 60 == 0) sweep(where + " playing");
      }
      st = nlohmann::json::parse(app.widgets.lab_widget->state_json());
      EXPECT_EQ(st.value("step", -1), st.value("steps", -2)) << where << ": did not play to the end";
      EXPECT_FALSE(st.value("playing", true)) << where;
      EXPECT_FALSE(app_busy(app)) << where << ": idle after the end";
    }
    // Every input at its extremes (and every option), one at a time, from the defaults.
    for (const auto& in : kind->inputs) {
      std::vector<double> values;
      if (!in.options.empty())
        for (size_t o = 0; o < in.options.size(); ++o) values.push_back(static_cast<double>(o));
      else
        values = {in.min, in.max};
      for (double x : values) {
        sim::WidgetValues v = sim::WidgetValues::defaults(*kind);
        v.set(in.name, x);
        app.widgets.lab_widget->set_inputs(v);
        std::string w = where + " " + in.name + "=" + format_number(x, 6);
        frame(w);
        st = nlohmann::json::parse(app.widgets.lab_widget->state_json(), nullptr, false);
        EXPECT_FALSE(st.is_discarded()) << w;
        // Half a second of playing at these inputs, then the whole page scrolled through.
        if (st.value("steps", 0) > 0 && click(std::string(kind->kind) + "-play", w)) frames_n(30, w + " playing");
        sweep(w);
      }
    }
    app.widgets.lab_widget->set_inputs(sim::WidgetValues::defaults(*kind));
    frame(where);
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, HeadlessWidgets, ::testing::Values(kWide, kPhone),
                         [](const auto& info) { return size_name(info.param); });

// ---------------------------------------------------------------- instructors: preview, reload

namespace {

// One playable numeric exercise with a parameter, one that lint rejects (undeclared name).
const char* kPreviewPack = R"J({"format": 1, "chapter": 42, "id": "mine", "title": "My pack", "exercises": [
  {"id": "mine.good", "type": "numeric", "title": "Mine, good", "prompt": "{N} GPUs in a ring.",
   "params": {"N": {"default": 8, "min": 2, "max": 64, "step": 1}},
   "parts": [{"id": "v", "label": "Volume factor", "answer": "2*(N-1)/N", "unit": ""}]},
  {"id": "mine.bad", "type": "numeric", "title": "Mine, bad", "prompt": "{N}",
   "params": {"N": {"default": 8, "min": 2, "max": 64, "step": 1}}, "parts": [{"id": "v", "answer": "2*(n-1)", "unit": ""}]}
]})J";

}  // namespace

TEST_F(HeadlessUi, DroppedPackIsPreviewedAboveTheCourseWithLintErrorsAndAnInstructorView) {
  start();
  ASSERT_TRUE(app.load.library_ready);
  app_preview_text(app, "mine.json", kPreviewPack);
  for (ImVec2 size : {kWide, kPhone}) {
    ImGui::GetIO().DisplaySize = size;
    frames_n(3, "course map with a preview");
    ASSERT_TRUE(item("preview-0")) << "no preview header";
    ASSERT_TRUE(item("ex-mine.good")) << "the valid exercise is not listed";
    EXPECT_FALSE(item("ex-mine.bad")) << "the broken exercise must not be playable";
    // Above the course: the preview's header is higher on the page than chapter 0's.
    if (const HookItem* ch = item("chapter-0")) {
      EXPECT_LT(item("preview-0")->min.y, ch->min.y);
    }
    // On a phone the column starts at the page's edge (1.86's Indent(0) once shifted it by
    // the indent spacing, pushing every line's end under the right edge).
    if (size.x < 500) {
      EXPECT_NEAR(item("preview-0")->min.x, page_window()->Pos.x, 1.0f);
    }
  }
  auto state = nlohmann::json::parse(pf.state_json);
  ASSERT_EQ(state["previews"].size(), 1u);
  const auto& pv = state["previews"][0];
  EXPECT_EQ(pv["exercises"], nlohmann::json::array({"mine.good"}));
  EXPECT_EQ(pv["left_out"], 1);
  std::string errs = pv["errors"].dump();
  // The message dtx lint gives: the place and the suggestion.
  EXPECT_NE(errs.find("mine.json:"), std::string::npos) << errs;
  EXPECT_NE(errs.find("did you mean 'N'"), std::string::npos) << errs;

  // The preview exercise opens with the instructor view on: numbers, answer, next seed.
  ASSERT_TRUE(click("ex-mine.good", "course map"));
  frames_n(3, "preview exercise");  // the first field takes the focus in the frame after opening
  state = nlohmann::json::parse(pf.state_json);
  EXPECT_EQ(state["screen"], "exercise");
  EXPECT_EQ(state["preview"], true);
  EXPECT_EQ(state["instructor"], true);
  ASSERT_TRUE(item("next-seed"));
  ASSERT_TRUE(click("next-seed", "preview exercise"));
  frames_n(3, "preview exercise, next seed");
  ASSERT_TRUE(app.ex.inst);
  EXPECT_EQ(app.ex.inst->seed, 1u);
  EXPECT_EQ(app.ex.id, "mine.good");
  // Off by the toggle; course exercises start with it off.
  ASSERT_TRUE(click("instructor", "preview exercise"));
  frame("preview exercise, instructor off");
  EXPECT_FALSE(item("next-seed"));
  app.instructor = -1;
  open_exercise(app, app.lib.packs.front().exercises.front().id, 0);
  frames_n(2, "course exercise");
  EXPECT_EQ(nlohmann::json::parse(pf.state_json)["instructor"], false);
  EXPECT_FALSE(item("next-seed"));
}

TEST_F(HeadlessUi, PreviewFromAUrlThatFailsOrIsNotJsonSaysSo) {
  pf.overrides["https://example.org/missing.json"] = {false, 404, ""};
  pf.overrides["https://example.org/broken.json"] = {true, 200, "{\"format\": 1,\n \"id\": nope}"};
  start();
  app_preview_url(app, "https://example.org/missing.json");
  app_preview_url(app, "https://example.org/broken.json");
  pf.answer_fetches(app);
  frames_n(3, "course map with failed previews");
  auto state = nlohmann::json::parse(pf.state_json);
  ASSERT_EQ(state["previews"].size(), 2u);
  std::string all = state["previews"].dump();
  EXPECT_NE(all.find("missing.json: error[E001]: could not be fetched (HTTP 404)"), std::string::npos) << all;
  EXPECT_NE(all.find("https://example.org/broken.json:2:"), std::string::npos) << all;
  EXPECT_TRUE(app.load.library_ready);
  EXPECT_FALSE(app.lib.packs.empty()) << "the course still loads";
}

TEST_F(HeadlessUi, AChangedPackIsReloadedKeepingTheStudentsPlace) {
  start();
  // A parameterised numeric exercise of the course, at a chosen seed, half answered.
  const Exercise* target = nullptr;
  for (const auto& p : app.lib.packs)
    for (const auto& e : p.exercises)
      if (!target && e.spec_as<NumericSpec>() && !e.params.empty()) target = &e;
  ASSERT_TRUE(target);
  std::string id = target->id, file = target->file;
  open_exercise(app, id, 5);
  frames_n(2, "exercise before reload");
  // Typed into the first field (focused on opening), as a student would.
  ImGui::GetIO().AddInputCharactersUTF8("123");
  frames_n(2, "exercise before reload, typed");
  ASSERT_EQ(fields()["inputs"][0], "123");
  std::string text = FakePlatform::read_source_file("exercises/" + file);
  // The instructor edits the title in the file; make serve reports the change.
  size_t at = text.find(target->title);
  ASSERT_NE(at, std::string::npos);
  std::string edited = text;
  edited.replace(at, target->title.size(), "Edited title");
  pf.overrides["exercises/" + file] = {true, 200, edited};
  app_pack_changed(app, file);
  pf.answer_fetches(app);
  frames_n(2, "exercise after reload");
  EXPECT_EQ(app.reloads, 1);
  EXPECT_EQ(app.screen, Screen::Exercise);
  EXPECT_EQ(app.ex.id, id);
  ASSERT_TRUE(app.ex.exercise);
  EXPECT_EQ(app.ex.exercise->title, "Edited title") << "the new text is what is shown";
  ASSERT_TRUE(app.ex.inst);
  EXPECT_EQ(app.ex.inst->seed, 5u);
  EXPECT_EQ(fields()["inputs"][0], "123") << "what the student typed is kept";
  // A change that breaks the pack: the course lists the errors and the page goes on.
  pf.overrides["exercises/" + file] = {true, 200, "{ broken"};
  app_pack_changed(app, file);
  pf.answer_fetches(app);
  frames_n(2, "after a breaking change");
  EXPECT_EQ(app.screen, Screen::CourseMap);
  bool listed = false;
  for (const auto& p : app.load.problems) listed |= p.file == file;
  EXPECT_TRUE(listed);
  // Files the page does not use are ignored.
  app_pack_changed(app, "notes.txt");
  EXPECT_TRUE(pf.fetches.empty());
}

TEST_F(HeadlessUi, ReloadingAPreviewWithFewerOptionsDropsPicksThatNoLongerExist) {
  start();
  auto pack = [](int options) {
    std::string opts;
    for (int i = 0; i < options; ++i)
      opts += std::string(i ? "," : "") + "{\"text\": \"option " + std::to_string(i) + "\"" + (i == 0 ? ", \"correct\": true" : "") + "}";
    return "{\"format\": 1, \"chapter\": 40, \"id\": \"c\", \"title\": \"C\", \"exercises\": [{\"id\": \"c.one\", "
           "\"type\": \"choice\", \"title\": \"One\", \"prompt\": \"p\", \"shuffle\": false, \"options\": [" + opts + "]}]}";
  };
  app_preview_text(app, "c.json", pack(3));
  open_exercise(app, "c.one", 0);
  frames_n(2, "choice preview");
  set_answer(make_answer(ChoiceAnswer({2})));
  app_preview_text(app, "c.json", pack(2));  // the same file dropped again, one option fewer
  frames_n(3, "choice preview reloaded");
  EXPECT_EQ(app.screen, Screen::Exercise);
  EXPECT_TRUE(fields()["picks"].empty()) << "a pick of an option that is gone";
  set_answer(make_answer(ChoiceAnswer({1})));
  app_preview_text(app, "c.json", pack(3));
  frames_n(2, "choice preview reloaded again");
  EXPECT_EQ(fields()["picks"], nlohmann::json::array({1})) << "a pick that still exists is kept";
}

// ---- maths in prompts (issue 13, point 5)

// A prompt with $10^{9}$, $\frac{a}{b}$ and $x_{i}$, drawn by the real exercise screen: the
// glyphs draw_math drew show the superscript smaller and higher than its base, the numerator
// above the denominator, and the subscript lower than its base.
TEST_F(HeadlessUi, MathsInAPromptIsLaidOutWithScriptsAndFractions) {
  start();
  const std::string pack =
      R"({"format": 1, "chapter": 41, "id": "mx", "title": "Maths", "exercises": [{"id": "mx.one", "type": "numeric",)"
      R"( "title": "Maths", "prompt": "One $10^{9}$ and $\\frac{a}{b}$ and $x_{i}$, then $2^{{k}}$.",)"
      R"( "params": {"k": {"default": 30, "choices": [30]}},)"
      R"( "parts": [{"id": "v", "answer": "k", "unit": ""}]}]})";
  app_preview_text(app, "mx.json", pack);
  open_exercise(app, "mx.one", 0);
  frames_n(2, "maths prompt");
  std::vector<MathTraceEntry> trace;
  g_math_trace = &trace;
  frame("maths prompt traced");
  g_math_trace = nullptr;
  auto find = [&](const std::string& t) -> const MathTraceEntry* {
    for (const auto& e : trace)
      if (e.text == t) return &e;
    return nullptr;
  };
  const MathTraceEntry *ten = find("10"), *nine = find("9"), *a = find("a"), *b = find("b"), *x = find("x"),
                       *i = find("i"), *two = find("2"), *thirty = find("30");
  ASSERT_TRUE(ten && nine && a && b && x && i && two && thirty) << trace.size() << " glyph runs";
  EXPECT_LT(nine->size, ten->size);
  EXPECT_LT(nine->baseline, ten->baseline - ten->size * 0.3f) << "the superscript is raised";
  EXPECT_GT(nine->top_left.x, ten->top_left.x);
  EXPECT_LT(a->baseline, b->baseline - a->size * 0.8f) << "the numerator is above the denominator";
  EXPECT_LT(a->size, ten->size) << "an inline fraction's parts are script size";
  EXPECT_LT(i->size, x->size);
  EXPECT_GT(i->baseline, x->baseline + x->size * 0.1f) << "the subscript is lowered";
  EXPECT_EQ(ten->baseline, x->baseline) << "maths sits on the text's baseline";
  EXPECT_LT(thirty->baseline, two->baseline) << "a placeholder as a superscript: 2 to the instance's 30";
}

// The text layer holds every word on screen (read back from the draw data) and the whole
// Markdown text, also what is scrolled out of view; its places are page coordinates, so a
// scroll moves no Markdown word, and a frame that draws the same words builds no new layer.
TEST_F(HeadlessUi, TheTextLayerHasTheWordsOnScreenAndTheProseOutOfView) {
  start();
  ImGui::GetIO().DisplaySize = ImVec2(900, 150);
  open_exercise(app, "ring.volume", 0);
  frames_n(3, "ring.volume, short window");
  ImGui::SetScrollY(page_window(), 0);  // (the first field took the focus and scrolled to it)
  frames_n(2, "ring.volume at its top");
  auto build = [&]() { return text_layer_build(ImGui::GetDrawData(), 1.0f); };
  TextLayerUpdate up = build();
  // the first build after other screens: a new layer
  nlohmann::json layer = nlohmann::json::parse(up.json.empty() ? "{}" : up.json);
  ASSERT_TRUE(layer.contains("els")) << "no layer built";
  auto find_el = [](const nlohmann::json& l, const std::string& kind, const std::string& starts) -> nlohmann::json {
    for (const auto& e : l["els"]) {
      if (e["k"] != kind) continue;
      std::string all;
      for (const auto& line : e["lines"]) all += (all.empty() ? "" : " ") + line["t"].get<std::string>();
      if (all.rfind(starts, 0) == 0) return e;
    }
    return nullptr;
  };
  // As the page reads a block (text-layer.js, blockNode): a space between two lines unless the
  // second starts right where the first ends (a term link and the full stop after it).
  auto text_of = [](const nlohmann::json& e) {
    std::string all;
    const nlohmann::json* prev = nullptr;
    for (const auto& line : e["lines"]) {
      if (prev) {
        const auto &a = (*prev)["r"], &b = line["r"];
        bool same_line = std::fabs(a[1].get<double>() - b[1].get<double>()) < 1;
        double gap = b[0].get<double>() - (a[0].get<double>() + a[2].get<double>());
        if (!same_line || gap > line["fs"].get<double>() * 0.15) all += " ";
      }
      all += line["t"].get<std::string>();
      prev = &line;
    }
    return all;
  };
  // The prompt's first paragraph, maths as readable text; the title, from the glyphs.
  nlohmann::json first = find_el(layer, "p", "8 GPUs");
  ASSERT_FALSE(first.is_null()) << up.json.substr(0, 2000);
  EXPECT_EQ(text_of(first), "8 GPUs each hold a gradient buffer of 1 GB (1 GB = 10⁹ bytes) and combine them with a ring AllReduce.");
  EXPECT_FALSE(find_el(layer, "h", "Bytes each GPU sends").is_null()) << "the title, a heading: " << up.json.substr(0, 3000);
  // The prompt's last paragraph is below the fold: in the layer, not among the drawn runs.
  nlohmann::json last = find_el(layer, "p", "Count bytes sent");
  ASSERT_FALSE(last.is_null());
  for (const DrawnRun& r : text_layer_drawn_runs()) EXPECT_EQ(r.text.find("Count bytes"), std::string::npos) << "drawn at " << r.rect.Min.y;
  EXPECT_GT(last["lines"][0]["r"][1].get<double>(), 150.0);
  // The same frame again: nothing new to send to the page.
  frame("ring.volume again");
  EXPECT_FALSE(build().changed) << "an unchanged frame rebuilt the layer";
  // Scrolled: the Markdown words keep their page coordinates; the scroll is reported.
  ImGui::SetScrollY(page_window(), 120);
  frames_n(2, "ring.volume scrolled");
  up = build();
  EXPECT_NEAR(up.scroll_css, 120, 0.5);
  if (up.changed) layer = nlohmann::json::parse(up.json);
  nlohmann::json moved = find_el(layer, "p", "8 GPUs");
  ASSERT_FALSE(moved.is_null());
  for (int k = 0; k < 4; ++k)  // (to a float's rounding)
    EXPECT_NEAR(moved["lines"][0]["r"][k].get<double>(), first["lines"][0]["r"][k].get<double>(), 0.02) << k;
}

// The engine finds maths spans without md4c (for placeholders, lint and the CLI); the page
// draws what md4c finds. Both must agree on every Markdown text of the shipped packs.
TEST_F(HeadlessUi, EngineAndMd4cFindTheSameMathsSpansInShippedPacks) {
  start();
  int texts = 0, spans = 0;
  for (const auto& p : app.lib.packs)
    for (const auto& ex : p.exercises) {
      auto inst = make_instance(ex, 0, nullptr);
      ASSERT_TRUE(inst) << ex.id;
      std::vector<std::string> all = {ex.prompt, ex.explanation};
      for (const auto& h : ex.hints) all.push_back(h);
      for (const auto& raw : all) {
        std::string md = inst->render(raw);
        std::vector<std::string> engine;
        for (const auto& sp : find_math_spans(md).spans) engine.push_back(md.substr(sp.begin, sp.end - sp.begin));
        std::vector<std::string> page;
        MdDoc doc = parse_markdown(md);
        for (const auto& blk : doc.blocks) {
          for (const auto& r : blk.runs)
            if (r.style & kMath) page.push_back(r.text);
          for (const auto& row : blk.rows)
            for (const auto& cell : row)
              for (const auto& r : cell)
                if (r.style & kMath) page.push_back(r.text);
          for (const auto& r : blk.runs)
            if ((r.style & kMath) && !r.math) ADD_FAILURE() << ex.id << ": maths that does not parse: " << r.text;
        }
        EXPECT_EQ(engine, page) << ex.id << ": " << md;
        ++texts;
        spans += static_cast<int>(page.size());
      }
    }
  std::printf("[ info ] %d texts, %d maths spans\n", texts, spans);
}

// ---- addresses (web/route.h): links, Back, Forward, reload

TEST(Route, ParsesAndWritesEveryAddressTheSiteUses) {
  struct Case {
    const char* in;
    Route::Kind kind;
    const char* id;
    uint64_t seed;
    int chapter;
    const char* written;
  } cases[] = {
      {"", Route::Course, "", 0, -1, "#/"},
      {"#", Route::Course, "", 0, -1, "#/"},
      {"#/", Route::Course, "", 0, -1, "#/"},
      {"#/chapter/5", Route::Course, "", 0, 5, "#/chapter/5"},
      {"#/chapter/5/notes", Route::Course, "", 0, 5, "#/chapter/5/notes"},
      {"#/search", Route::Search, "", 0, -1, "#/search"},
      {"#/practice", Route::Practice, "", 0, -1, "#/practice"},
      {"#/search?q=zero%203", Route::Search, "", 0, -1, "#/search?q=zero%203"},
      {"#/ex/ring.volume", Route::Exercise, "ring.volume", 0, -1, "#/ex/ring.volume"},
      {"#/ex/ring.volume/0", Route::Exercise, "ring.volume", 0, -1, "#/ex/ring.volume"},
      {"#/ex/ring.volume/4711", Route::Exercise, "ring.volume", 4711, -1, "#/ex/ring.volume/4711"},
      {"#/ex/ring.volume/18446744073709551615", Route::Exercise, "ring.volume", 18446744073709551615ull, -1,
       "#/ex/ring.volume/18446744073709551615"},
      {"#/ex/a%20b", Route::Exercise, "a b", 0, -1, "#/ex/a%20b"},
      {"#/settings", Route::Settings, "", 0, -1, "#/settings"},
      {"#/settings/", Route::Settings, "", 0, -1, "#/settings"},
      {"#/lab", Route::Lab, "", 0, -1, "#/lab"},
      {"#/lab/pipeline", Route::Lab, "pipeline", 0, -1, "#/lab/pipeline"},
  };
  for (const auto& c : cases) {
    Route r = parse_route(c.in);
    EXPECT_EQ(r.kind, c.kind) << c.in << ": " << r.error;
    EXPECT_EQ(r.id, c.id) << c.in;
    EXPECT_EQ(r.seed, c.seed) << c.in;
    EXPECT_EQ(r.chapter, c.chapter) << c.in;
    EXPECT_EQ(format_route(r), c.written) << c.in;
    EXPECT_EQ(parse_route(format_route(r)), r) << c.in << " does not survive a round trip";
  }
  Route lab = parse_route("#/lab/pipeline?schedule=1f1b&p=8&m=32");
  ASSERT_EQ(lab.kind, Route::Lab);
  ASSERT_EQ(lab.query.size(), 3u);
  EXPECT_EQ(lab.query[0], (std::pair<std::string, std::string>{"schedule", "1f1b"}));
  EXPECT_EQ(lab.query[2], (std::pair<std::string, std::string>{"m", "32"}));
  EXPECT_EQ(format_route(lab), "#/lab/pipeline?schedule=1f1b&p=8&m=32");
}

TEST(Route, AnAddressThatCannotBeReadSaysWhy) {
  struct Case {
    std::string in, says;
  } cases[] = {
      {"#/ex/ring.volume/3x", "is not an instance number"},
      {"#/ex/ring.volume/-3", "is not an instance number"},
      {"#/ex/ring.volume/99999999999999999999999", "is not an instance number"},
      {"#/ex/", "needs an exercise id"},
      {"#/ex/a%G1", "broken %-escape"},
      {"#/ex/a%4", "broken %-escape"},
      {"#/ex/a%00", "broken %-escape"},
      {"#/chapter/x", "a chapter is a number"},
      {"#/nowhere", "is not an address of this site"},
      {"#/ex/a/1/2", "is not an address of this site"},
      {"#ex/a", "starts with '/'"},
      {"#/ex/a?x=1", "only Lab and search addresses take ?inputs"},
      {"#/" + std::string(3000, 'a'), "at most 2048 are read"},
  };
  for (const auto& c : cases) {
    Route r = parse_route(c.in);
    EXPECT_EQ(r.kind, Route::Invalid) << c.in.substr(0, 60);
    EXPECT_NE(r.error.find(c.says), std::string::npos) << c.in.substr(0, 60) << " said: " << r.error;
  }
}

TEST_F(HeadlessUi, ADeepLinkOpensItsInstanceOnceThePacksAreIn) {
  app_init(app, &pf);
  app_on_address(app, "#/ex/ring.volume/3");  // glue.js: at load, before any pack arrived
  EXPECT_EQ(app.screen, Screen::Loading);
  pf.answer_fetches(app);
  rebuild_fonts();
  frames_n(2, "deep link");
  ASSERT_EQ(app.screen, Screen::Exercise);
  EXPECT_EQ(app.ex.id, "ring.volume");
  ASSERT_TRUE(app.ex.inst);
  EXPECT_EQ(app.ex.inst->seed, 3u);
  ASSERT_FALSE(pf.addresses.empty());
  for (const auto& a : pf.addresses) EXPECT_FALSE(a.push) << a.fragment << ": a deep link adds no history entry";
  EXPECT_EQ(pf.addresses.back().fragment, "#/ex/ring.volume/3");
  EXPECT_EQ(pf.addresses.back().title, app.ex.exercise->title + " · Ring AllReduce · instance 3 · dtx");
}

// A linked exercise's HTML view (scripts/first-views.mjs) hands what the student entered there
// to the engine as `dtx grade` words: for one exercise of each type, the right answer's words
// fill the view's fields exactly as the answer itself does, and a Submit pressed there grades
// it. Only the exercise that view showed, at its default numbers, takes them.
TEST_F(HeadlessUi, AnAnswerEnteredOnTheHtmlViewOfALinkedExerciseIsTakenAndSubmitted) {
  start();
  std::set<std::string> types;
  for (const Exercise* ex : all_exercises()) {
    if (!types.insert(ex->type).second) continue;
    const std::string& id = ex->id;
    open_exercise(app, id, 0);
    frames_n(2, id);
    ASSERT_TRUE(app.ex.inst) << id;
    const SampleAnswer right = samples().front();
    ASSERT_EQ(right.expect, SampleAnswer::Expect::Correct) << id;
    set_answer(right.answer);
    const nlohmann::json want = fields();
    const std::vector<std::string> words = ex->spec->answer_words(*ex, *app.ex.inst, right.answer);

    open_exercise(app, id, 0);  // fresh fields
    frames_n(1, id);
    std::string err;
    ASSERT_TRUE(app_first_view_answer(app, id, words, false, &err)) << id << ": " << err;
    EXPECT_EQ(fields(), want) << id << ": the fields from the words " << join(words, " | ");
    EXPECT_FALSE(app.ex.feedback.has_value()) << id << ": graded without Submit";
    if (ex->spec->answer_is_program()) continue;  // (graded after a run: the browser test does it)
    ASSERT_TRUE(app_first_view_answer(app, id, words, true, &err)) << id << ": " << err;
    frames_n(2, id + " submitted from the HTML view");
    ASSERT_TRUE(app.ex.feedback.has_value()) << id << ": not submitted";
    EXPECT_EQ(app.ex.feedback->verdict, Verdict::Correct) << id << ": " << feedback_text();
  }
  EXPECT_EQ(types.size(), exercise_types().size());

  // another exercise, another instance, or words that are no answer: nothing is taken
  const Exercise* ring = app.lib.find("ring.volume");
  ASSERT_TRUE(ring);
  open_exercise(app, "ring.volume", 0);
  frames_n(1, "ring.volume");
  std::string err;
  EXPECT_FALSE(app_first_view_answer(app, "ring.latency", {"phase=1"}, true, &err));
  EXPECT_NE(err.find("not open"), std::string::npos) << err;
  EXPECT_FALSE(app_first_view_answer(app, "ring.volume", {"nopart=1"}, true, &err));
  EXPECT_NE(err.find("no part named"), std::string::npos) << err;
  open_exercise(app, "ring.volume", 3);
  frames_n(1, "ring.volume seed 3");
  EXPECT_FALSE(app_first_view_answer(app, "ring.volume", {"phase=1", "total=2"}, true, &err));
  frames_n(1, "ring.volume seed 3");
  EXPECT_FALSE(app.ex.feedback.has_value()) << "submitted on another instance";
}

TEST_F(HeadlessUi, NavigationMakesHistoryEntriesAndBackRestoresTheScreenAndItsScroll) {
  app.screen = Screen::Loading;
  start();
  app_on_address(app, "");
  frames_n(3, "course map");
  ASSERT_EQ(app.screen, Screen::CourseMap);
  EXPECT_EQ(app.nav.address, "#/");
  // scroll the course map down, then open an exercise from it
  ImGui::GetIO().DisplaySize = ImVec2(1280, 500);
  open_visible_chapters();
  frames_n(2, "course map, chapters open");
  ImGuiWindow* page = page_window();
  ASSERT_TRUE(page);
  ASSERT_GT(page->ScrollMax.y, 200.0f);
  ImGui::SetScrollY(page, 200.0f);
  frames_n(2, "course map scrolled");
  ASSERT_NEAR(page_window()->Scroll.y, 200.0f, 0.5f);
  size_t writes = pf.addresses.size();
  open_exercise(app, "ring.volume", 0);
  frames_n(2, "exercise");
  ASSERT_GT(pf.addresses.size(), writes);
  EXPECT_EQ(pf.addresses.back().fragment, "#/ex/ring.volume");
  EXPECT_TRUE(pf.addresses.back().push);
  EXPECT_EQ(page_window()->Scroll.y, 0.0f) << "an exercise opens at its top";
  // another instance: its own entry
  open_exercise(app, "ring.volume", 12);
  frames_n(2, "exercise, instance 12");
  EXPECT_EQ(pf.addresses.back().fragment, "#/ex/ring.volume/12");
  EXPECT_TRUE(pf.addresses.back().push);
  // Back (the browser's popstate) twice: the first instance, then the map where it was
  writes = pf.addresses.size();
  app_on_address(app, "#/ex/ring.volume");
  frames_n(2, "back");
  EXPECT_EQ(app.screen, Screen::Exercise);
  EXPECT_EQ(app.ex.inst->seed, 0u);
  app_on_address(app, "#/");
  frames_n(6, "back to the map");
  EXPECT_EQ(app.screen, Screen::CourseMap);
  EXPECT_NEAR(page_window()->Scroll.y, 200.0f, 0.5f) << "Back returns to where the map was scrolled";
  for (size_t i = writes; i < pf.addresses.size(); ++i)
    EXPECT_FALSE(pf.addresses[i].push) << "Back must not add entries: " << pf.addresses[i].fragment;
  EXPECT_EQ(pf.addresses.back().title, "dtx: the arithmetic of distributed training");
  // the top bar: Settings and Lab are screens with addresses
  ASSERT_TRUE(click("nav-settings", "top bar"));
  frame("settings");
  EXPECT_EQ(pf.addresses.back().fragment, "#/settings");
  EXPECT_EQ(pf.addresses.back().title, "Settings · dtx");
}

TEST_F(HeadlessUi, AnUnknownExerciseOrAddressSaysSoWithAWayBack) {
  start();
  app_on_address(app, "#/ex/ring.volme");
  frames_n(2, "unknown exercise");
  ASSERT_EQ(app.screen, Screen::NotFound);
  EXPECT_EQ(pf.addresses.back().title, "No exercise ring.volme · dtx");
  EXPECT_EQ(app.nav.address, "#/ex/ring.volme") << "the address the student typed stays, to be corrected";
  EXPECT_TRUE(item("near-ring.volume")) << "exercises with a similar id are offered";
  ASSERT_TRUE(item("not-found-course"));
  app_on_address(app, "#/nowhere/at/all");
  frames_n(2, "unknown address");
  EXPECT_EQ(app.screen, Screen::NotFound);
  EXPECT_NE(app.nav.not_found.error.find("not an address of this site"), std::string::npos);
  ASSERT_TRUE(click("not-found-course", "not found"));
  frame("course map");
  EXPECT_EQ(app.screen, Screen::CourseMap);
  EXPECT_EQ(pf.addresses.back().fragment, "#/");
  EXPECT_TRUE(pf.addresses.back().push);
}

TEST_F(HeadlessUi, ALabAddressSetsTheWidgetsInputsAndFollowsTheSliders) {
  start();
  app_on_address(app, "#/lab/pipeline?schedule=1f1b&p=8&m=32");
  frames_n(2, "lab");
  ASSERT_EQ(app.screen, Screen::Lab);
  ASSERT_EQ(app.widgets.lab_kind, "pipeline");
  ASSERT_TRUE(app.widgets.lab_widget);
  EXPECT_EQ(app.widgets.lab_widget->inputs().get_int("p"), 8);
  EXPECT_EQ(app.widgets.lab_widget->inputs().get_int("m"), 32);
  EXPECT_STREQ(app.widgets.lab_widget->inputs().option("schedule"), "1f1b");
  EXPECT_TRUE(app.nav.lab_address_error.empty()) << app.nav.lab_address_error;
  EXPECT_EQ(pf.addresses.back().title, "Pipeline schedules · Lab · dtx");
  // a slider moved: the same entry, new inputs
  sim::WidgetValues v = app.widgets.lab_widget->inputs();
  v.set("m", 16);
  app.widgets.lab_widget->set_inputs(v);
  size_t writes = pf.addresses.size();
  frame("lab, m moved");
  ASSERT_GT(pf.addresses.size(), writes);
  EXPECT_NE(pf.addresses.back().fragment.find("m=16"), std::string::npos) << pf.addresses.back().fragment;
  EXPECT_FALSE(pf.addresses.back().push);
  // what the widget lacks is said, and the rest is used
  app_on_address(app, "#/lab/pipeline?p=4&speed=2&m=lots");
  frames_n(2, "lab, bad inputs");
  EXPECT_EQ(app.widgets.lab_widget->inputs().get_int("p"), 4);
  EXPECT_NE(app.nav.lab_address_error.find("no input \"speed\""), std::string::npos) << app.nav.lab_address_error;
  EXPECT_NE(app.nav.lab_address_error.find("m=lots"), std::string::npos) << app.nav.lab_address_error;
  app_on_address(app, "#/lab/warp-drive");
  frames_n(2, "lab, unknown widget");
  EXPECT_NE(app.nav.lab_address_error.find("no Lab widget \"warp-drive\""), std::string::npos) << app.nav.lab_address_error;
}

// The pipeline viewer draws the two-chunk schedules: DualPipe (two directions, F&B blocks, 2x
// parameters; table 2's idle of (p/2-1)(F&B+B-3W) = 2 ms per stage at p = 4, f = b = w = 1) and
// ZB-V (no idle inside any stage's span), and says why it cannot draw inputs DualPipe refuses.
TEST_F(HeadlessUi, ThePipelineLabDrawsDualPipeAndZbV) {
  start();
  app_on_address(app, "#/lab/pipeline?schedule=dualpipe&p=4&m=8&f=1&b=1&w=1");
  frames_n(2, "lab, dualpipe");
  ASSERT_TRUE(app.widgets.lab_widget);
  EXPECT_TRUE(app.nav.lab_address_error.empty()) << app.nav.lab_address_error;
  std::string state = app.widgets.lab_widget->state_json();
  EXPECT_NE(state.find("\"schedule\":\"dualpipe\""), std::string::npos) << state;
  EXPECT_NE(state.find("\"idle_per_stage\":[2,2,2,2]"), std::string::npos) << state;
  EXPECT_NE(state.find("\"params_per_stage\":2"), std::string::npos) << state;
  EXPECT_NE(app.widgets.lab_widget->describe().find("Microbatches 1-4 enter at stage 0, 5-8 at stage 3"),
            std::string::npos);
  app_on_address(app, "#/lab/pipeline?schedule=zb-v&p=4&m=8&f=1&b=1&w=1");
  frames_n(2, "lab, zb-v");
  state = app.widgets.lab_widget->state_json();
  EXPECT_NE(state.find("\"schedule\":\"zb-v\""), std::string::npos) << state;
  EXPECT_NE(state.find("\"span_idle_per_stage\":[0,0,0,0]"), std::string::npos) << state;
  EXPECT_NE(state.find("\"chunks\":2"), std::string::npos) << state;
  app_on_address(app, "#/lab/pipeline?schedule=dualpipe&p=4&m=6");
  frames_n(2, "lab, dualpipe refused");
  state = app.widgets.lab_widget->state_json();
  EXPECT_NE(state.find("m even and at least 2p"), std::string::npos) << state;
}

TEST_F(HeadlessUi, AChapterAddressOpensThatChapter) {
  start();
  app_on_address(app, "#/chapter/5");
  frames_n(8, "chapter 5");
  ASSERT_EQ(app.screen, Screen::CourseMap);
  const HookItem* head = item("chapter-5");
  ASSERT_TRUE(head);
  EXPECT_NE(page_window()->StateStorage.GetInt(head->id, 0), 0) << "chapter 5 is open";
  EXPECT_LT(head->min.y - page_window()->Pos.y, 60.0f) << "and at the top of the page";
  EXPECT_EQ(app.nav.focus_chapter, -1) << "then the page rests";
}

// Orientation (issue 42): an exercise says where it is in its chapter, and its chapter's notes
// are one press away, opened on the map.
TEST_F(HeadlessUi, AnExerciseSaysItsPlaceAndItsChapterNotesAreOnePressAway) {
  start();
  ImGui::GetIO().DisplaySize = ImVec2(1000, 800);
  const Pack* ring = nullptr;
  for (const Pack& p : app.lib.packs)
    if (p.chapter == 0) ring = &p;
  ASSERT_TRUE(ring && !ring->intro.empty());
  const std::string third = ring->exercises[2].id;
  open_exercise(app, third, 0);
  frames_n(3, third);
  text_layer_build(nullptr, 1.0f);
  frame(third);
  const std::string layer = text_layer_build(ImGui::GetDrawData(), 1.0f).json;
  const std::string place = "exercise 3 of " + std::to_string(ring->exercises.size());
  EXPECT_NE(layer.find(place), std::string::npos) << "the header says " << place;
  EXPECT_NE(layer.find("\"href\":\"#/chapter/0/notes\""), std::string::npos) << "a link to the notes";
  ASSERT_TRUE(click("chapter-notes", "notes"));
  frames_n(8, "chapter 0 notes");
  ASSERT_EQ(app.screen, Screen::CourseMap);
  const HookItem* head = item("chapter-0");
  ASSERT_TRUE(head);
  EXPECT_NE(page_window()->StateStorage.GetInt(head->id, 0), 0) << "chapter 0 is open";
  EXPECT_FALSE(app.nav.focus_notes) << "its notes were opened";
  text_layer_build(nullptr, 1.0f);
  frame("notes shown");
  const std::string map = text_layer_build(ImGui::GetDrawData(), 1.0f).json;
  std::string first_words = ring->intro.substr(0, ring->intro.find_first_of(".,:;\n"));
  first_words.erase(0, first_words.find_first_not_of("# "));  // a heading's words, without its marks
  EXPECT_NE(map.find(first_words.substr(0, 20)), std::string::npos) << "the notes' words are on the map: " << first_words;
}

// Orientation, on the map: an open chapter says how many of its exercises the practice
// schedule has due today and how many were tried but not solved, with the way to Practice.
TEST_F(HeadlessUi, AnOpenChapterSaysWhatIsDueAndWhatWasMissed) {
  start();
  ImGui::GetIO().DisplaySize = ImVec2(1000, 800);
  const Pack* ring = nullptr;
  for (const Pack& p : app.lib.packs)
    if (p.chapter == 0) ring = &p;
  ASSERT_TRUE(ring && ring->exercises.size() >= 3);
  const long today = days_from_date(pf.today());
  ASSERT_GE(today, 0);
  ReviewState due;
  due.due_day = today - 1;
  due.last_day = today - 2;
  app.store.progress.review[ring->exercises[0].id] = due;
  ReviewState later = due;
  later.due_day = today + 5;
  app.store.progress.review[ring->exercises[1].id] = later;
  app.store.progress.exercises[ring->exercises[2].id].attempts_by_writer["w"] = 2;  // tried, never solved
  app_on_address(app, "#/chapter/0");
  frames_n(8, "chapter 0");
  text_layer_build(nullptr, 1.0f);
  frame("chapter 0 with what is due");
  const std::string layer = text_layer_build(ImGui::GetDrawData(), 1.0f).json;
  EXPECT_NE(layer.find("1 due for practice today"), std::string::npos) << "one due (the other comes back later)";
  EXPECT_NE(layer.find("1 tried, not solved yet"), std::string::npos);
  EXPECT_NE(layer.find("\"href\":\"#/practice\""), std::string::npos) << "the way to Practice";
  EXPECT_NE(layer.find("Practice: 1 due today"), std::string::npos) << "and the map's own line";
}

// ---- start: the course map as soon as the index is in, each chapter as its pack arrives

TEST_F(HeadlessUi, ChaptersAppearAsTheirPacksArriveAndADeepLinkWaitsForItsOwn) {
  app_init(app, &pf);
  rebuild_fonts();
  app_on_address(app, "#/ex/cap.bubble");  // in the capstone pack, which will come last
  // the index first (fonts fail: the built-in font is used)
  auto answer = [&](auto pred) {
    auto batch = pf.fetches;
    pf.fetches.clear();
    for (const auto& [id, url] : batch) {
      if (!pred(url)) {
        pf.fetches.emplace_back(id, url);
        continue;
      }
      FakePlatform::Response r = pf.respond(url);
      app_on_fetched(app, id, r.ok, r.status, std::move(r.body));
    }
  };
  // (no outline here: the fake server has none, so every pack is asked for, as before it)
  answer([](const std::string& u) { return u.find("fonts/") == 0 || u == "exercises/index.json" || u == "exercises/outline.json"; });
  ASSERT_EQ(app.screen, Screen::Loading) << "no pack is in yet";
  answer([](const std::string& u) { return u == "exercises/00-ring-allreduce.json"; });
  frame("one pack in");
  EXPECT_EQ(app.screen, Screen::Loading) << "the deep link waits for its own pack, not for the map";
  EXPECT_EQ(app.lib.packs.size(), 1u);
  EXPECT_FALSE(app.load.library_ready);
  auto st = nlohmann::json::parse(pf.state_json);
  EXPECT_EQ(st["loading"].size(), 14u) << st["loading"].dump();
  // the student goes to the map instead and opens an exercise of the chapter that is in
  app_on_address(app, "#/");
  frame("map, one chapter");
  ASSERT_EQ(app.screen, Screen::CourseMap);
  open_exercise(app, "ring.volume", 0);
  frame("ring.volume while packs load");
  fill_wrong();
  submit(app);
  ASSERT_TRUE(app.ex.feedback);
  app.ex.hints_shown = 1;
  Verdict v = app.ex.feedback->verdict;
  // the other packs arrive one by one: what the student did stays
  while (!pf.fetches.empty()) {
    std::string next = pf.fetches.front().second;
    answer([&](const std::string& u) { return u == next; });
    frame("after " + next);
    ASSERT_EQ(app.screen, Screen::Exercise);
    ASSERT_TRUE(app.ex.feedback) << "feedback lost when " << next << " arrived";
    EXPECT_EQ(app.ex.feedback->verdict, v);
    EXPECT_EQ(app.ex.hints_shown, 1);
    EXPECT_EQ(app.ex.inst->exercise, app.ex.exercise);
    EXPECT_EQ(app.ex.exercise, app.lib.find("ring.volume")) << "points into the current library";
  }
  EXPECT_TRUE(app.load.library_ready);
  EXPECT_EQ(app.lib.packs.size(), 15u);
  st = nlohmann::json::parse(pf.state_json);
  EXPECT_TRUE(st["loading"].empty());
}

TEST_F(HeadlessUi, ADeepLinkOpensAsSoonAsItsPackIsIn) {
  app_init(app, &pf);
  rebuild_fonts();
  app_on_address(app, "#/ex/ring.volume/2");
  auto answer_one = [&](const std::string& url) {
    for (size_t i = 0; i < pf.fetches.size(); ++i)
      if (pf.fetches[i].second == url) {
        auto [id, u] = pf.fetches[i];
        pf.fetches.erase(pf.fetches.begin() + static_cast<long>(i));
        FakePlatform::Response r = pf.respond(u);
        app_on_fetched(app, id, r.ok, r.status, std::move(r.body));
        return true;
      }
    return false;
  };
  for (const char* f : {"fonts/Inter-Regular.otf", "fonts/Inter-SemiBold.otf", "fonts/Inter-Italic.otf",
                        "fonts/JetBrainsMono-Regular.ttf", "exercises/outline.json", "exercises/index.json",
                        "exercises/00-ring-allreduce.json"})
    ASSERT_TRUE(answer_one(f)) << f;
  frame("ring pack in");
  ASSERT_EQ(app.screen, Screen::Exercise);
  EXPECT_EQ(app.ex.id, "ring.volume");
  EXPECT_EQ(app.ex.inst->seed, 2u);
  EXPECT_GT(pf.fetches.size(), 10u) << "the other packs are still on their way";
  // an id no pack has is "not found" only once every pack is in
  app_on_address(app, "#/ex/nowhere.at-all");
  frame("unknown id while loading");
  EXPECT_NE(app.screen, Screen::NotFound);
  pf.answer_fetches(app);
  frame("every pack in");
  EXPECT_EQ(app.screen, Screen::NotFound);
}

// ---- themes: every text and chart colour, both palettes, WCAG 2.1 AA

TEST(Theme, EveryTextAndChartColourMeetsWcagAaInBothThemes) {
  for (bool dark : {false, true}) {
    const Palette& p = dark ? dark_palette() : light_palette();
    const char* theme = dark ? "dark" : "light";
    struct Pair {
      const char* what;
      ImU32 fg, bg;
      double min;
    };
    std::vector<Pair> pairs = {
        {"text on page", p.text, p.page, 4.5},         {"text on panel", p.text, p.panel, 4.5},
        {"muted on page", p.muted, p.page, 4.5},       {"muted on panel", p.muted, p.panel, 4.5},
        {"link on page", p.accent, p.page, 4.5},       {"correct on page", p.correct, p.page, 4.5},
        {"partial on page", p.partial, p.page, 4.5},   {"wrong on page", p.wrong, p.page, 4.5},
        {"text on button", p.text, p.button, 4.5},     {"text on hovered button", p.text, p.button_hovered, 4.5},
        {"text on held button", p.text, p.button_active, 4.5},
        {"text on a field", p.text, p.frame, 4.5},     {"text on chapter header", p.text, p.header, 4.5},
        {"text on hovered header", p.text, p.header_hovered, 4.5},
        {"text on preview header", p.text, p.preview, 4.5}, {"text on highlight", p.text, p.highlight, 4.5},
        {"text on table header", p.text, p.table_header, 4.5},
        {"primary button label", p.on_accent, p.accent, 4.5},
        {"code on code background", p.code_text, p.code_bg, 4.5},
        {"keyword", p.keyword, p.code_bg, 4.5},        {"number", p.number, p.code_bg, 4.5},
        {"string", p.string, p.code_bg, 4.5},          {"comment", p.comment, p.code_bg, 4.5},
        {"function", p.function, p.code_bg, 4.5},
        {"label on forward block", p.level_text, p.chart_f, 4.5},
        {"label on backward block", p.level_text, p.chart_b, 4.5},
        {"label on weight-grad block", p.level_text, p.chart_w, 4.5},
        {"label on a GPU", p.level_text, p.level[0], 4.5},
        {"GPU name on its die", p.level_text, p.gpu_die, 4.5}, {"HBM label on HBM", p.hbm_text, p.hbm, 4.5},
        // charts (graphical objects, WCAG 1.4.11): 3:1 against what is around them
        {"forward block on page", p.chart_f, p.page, 3.0},   {"backward block on page", p.chart_b, p.page, 3.0},
        {"weight-grad block on page", p.chart_w, p.page, 3.0}, {"idle hatching on idle", p.hatch, p.idle, 3.0},
        {"progress bar on page", p.correct, p.page, 3.0},
        {"weights bar on page", p.bucket[0], p.page, 3.0},   {"gradients bar on page", p.bucket[1], p.page, 3.0},
        {"optimizer bar on page", p.bucket[2], p.page, 3.0}, {"activations bar on page", p.bucket[3], p.page, 3.0},
        {"weights bar on panel", p.bucket[0], p.panel, 3.0}, {"optimizer bar on panel", p.bucket[2], p.panel, 3.0},    {"field border on page", p.border, p.page, 3.0}, {"field border on a field", p.border, p.frame, 3.0},
    };
    // the ring widget's chunk colours, every chunk of every ring size it draws cells for
    apply_theme(dark);
    double worst = 21;
    for (int n = 1; n <= 16; ++n)
      for (int k = 0; k < n; ++k)
        for (ImU32 bg : {p.page, p.panel}) worst = std::min(worst, contrast_ratio(series_color(k, n) | IM_COL32_A_MASK, bg));
    EXPECT_GE(worst, 3.0) << theme << ": a ring chunk colour has contrast " << worst << ":1";
    std::printf("%-5s %-28s %5.2f:1\n", theme, "ring chunks (worst of 136)", worst);
    for (const auto& c : pairs) {
      double r = contrast_ratio(c.fg, c.bg);
      EXPECT_GE(r, c.min) << theme << ": " << c.what << " has contrast " << r << ":1";
      std::printf("%-5s %-28s %5.2f:1\n", theme, c.what, r);
    }
  }
  apply_theme(false);  // (series_color reads the theme in use) the next test starts light
  // the function itself, on known values: black on white is 21:1, a colour on itself 1:1
  EXPECT_NEAR(contrast_ratio(IM_COL32(0, 0, 0, 255), IM_COL32(255, 255, 255, 255)), 21.0, 1e-9);
  EXPECT_NEAR(contrast_ratio(IM_COL32(0x77, 0x77, 0x77, 255), IM_COL32(0x77, 0x77, 0x77, 255)), 1.0, 1e-9);
  EXPECT_NEAR(contrast_ratio(IM_COL32(0x76, 0x76, 0x76, 255), IM_COL32(255, 255, 255, 255)), 4.54, 0.01);
}

TEST_F(HeadlessUi, TheThemeFollowsTheSystemUnlessTheStudentChose) {
  start();
  EXPECT_FALSE(theme_is_dark());
  app.settings.system_dark = true;
  app_apply_theme(app);
  EXPECT_TRUE(theme_is_dark()) << "follows the system by default";
  EXPECT_EQ(color::page(), dark_palette().page);
  app.screen = Screen::Settings;
  frame("settings, dark");
  ASSERT_TRUE(click("theme-light", "settings"));
  EXPECT_FALSE(theme_is_dark());
  EXPECT_EQ(pf.storage["dtx.theme"], "light");
  EXPECT_EQ(color::text(), light_palette().text);
  // a new page load reads the choice
  App again;
  FakePlatform pf2;
  pf2.storage["dtx.theme"] = "dark";
  app_init(again, &pf2);
  EXPECT_TRUE(theme_is_dark());
  apply_theme(false);  // the next test starts light
}

// A widget is said by its description, once: its drawn labels (GPU names, figures on its
// bars) stay in the layer for selection and find but are hidden from a screen reader, which
// would otherwise hear them in the order they lie on the canvas.
TEST_F(HeadlessUi, AWidgetsDrawnLabelsAreHiddenBehindItsDescription) {
  start();
  ImGui::GetIO().DisplaySize = ImVec2(1000, 3000);  // (the widget drawn whole, below the prompt)
  for (const char* id : {"pipe.widget-smallest-m"}) {
    open_exercise(app, id, 0);
    frames_n(3, id);
    text_layer_build(nullptr, 1.0f);
    frame(id);
    TextLayerUpdate up = text_layer_build(ImGui::GetDrawData(), 1.0f);
    ASSERT_FALSE(up.json.empty()) << id;
    const nlohmann::json layer = nlohmann::json::parse(up.json);
    std::vector<nlohmann::json> descs;
    for (const auto& e : layer["els"])
      if (e["k"] == "desc") descs.push_back(e);
    ASSERT_EQ(descs.size(), 1u) << id;
    const auto r = descs[0]["r"];
    int hidden = 0, shown_inside = 0;
    for (const auto& e : layer["els"]) {
      if (e["k"] != "text") continue;
      const auto lr = e["lines"][0]["r"];
      const double cx = lr[0].get<double>() + lr[2].get<double>() / 2, cy = lr[1].get<double>() + lr[3].get<double>() / 2;
      const bool inside = cx >= r[0].get<double>() && cx <= r[0].get<double>() + r[2].get<double>() &&
                          cy >= r[1].get<double>() && cy <= r[1].get<double>() + r[3].get<double>();
      if (e.value("ah", 0) == 1) ++hidden;
      else if (inside) ++shown_inside;
    }
    EXPECT_GT(hidden, 3) << id << ": the widget's labels";
    EXPECT_EQ(shown_inside, 0) << id << ": a label inside the widget a screen reader still hears";
  }
}

// Every control the keyboard reaches is in the text layer with a role, a name a person would
// say and its state: what a screen reader announces for it. Views describe theirs (ui/access.h);
// the rest get theirs from ImGui's status and visible label.
TEST_F(HeadlessUi, TheLayerGivesEveryControlARoleANameAndItsState) {
  start();
  ImGui::GetIO().DisplaySize = ImVec2(1000, 800);
  auto layer_of = [&](const char* id) {
    open_exercise(app, id, 0);
    frames_n(3, id);
    text_layer_build(nullptr, 1.0f);  // (a fresh build: the next one reports this screen)
    frame(id);
    TextLayerUpdate up = text_layer_build(ImGui::GetDrawData(), 1.0f);
    nlohmann::json controls = nlohmann::json::array();
    if (up.json.empty()) return controls;
    const nlohmann::json layer = nlohmann::json::parse(up.json);
    for (const auto& e : layer["els"])
      if (e["k"] == "ctl") controls.push_back(e);
    return controls;
  };
  auto find = [](const nlohmann::json& cs, const std::string& role, const std::string& name_start) -> nlohmann::json {
    for (const auto& c : cs)
      if (c["role"] == role && c["name"].get<std::string>().rfind(name_start, 0) == 0) return c;
    return nullptr;
  };
  for (const char* id : {"ring.volume", "ring.code-time", "ring.buggy-double-count", "ring.order-steps", "ring.why-ring"}) {
    nlohmann::json cs = layer_of(id);
    ASSERT_GT(cs.size(), 5u) << id;
    for (const auto& c : cs) {
      const std::string name = c["name"];
      EXPECT_FALSE(name.empty()) << id << ": " << c.dump();
      EXPECT_EQ(name.find("##"), std::string::npos) << id << ": an ID in a name: " << name;
    }
    EXPECT_FALSE(find(cs, "button", "Submit").is_null()) << id;
    EXPECT_FALSE(find(cs, "link", "Back to the course map").is_null()) << id;
  }
  // numeric: a labelled field with its unit
  nlohmann::json cs = layer_of("ring.volume");
  nlohmann::json part = find(cs, "textbox", "Sent over the whole AllReduce");
  ASSERT_FALSE(part.is_null());
  EXPECT_EQ(part["desc"], "in GB");
  // choice: radios, A to D, in one group, none checked until one is picked
  cs = layer_of("ring.why-ring");
  nlohmann::json b = find(cs, "radio", "B. The ring pays less total latency than the tree.");
  ASSERT_FALSE(b.is_null());
  EXPECT_EQ(b["group"], "Options");
  EXPECT_EQ(b["checked"], false);
  set_answer(make_answer(ChoiceAnswer({app.ex.inst->data_or_empty<ChoiceInstance>().order[1]})));
  frame("picked B");
  frame("picked B");
  nlohmann::json after = nlohmann::json::array();
  const nlohmann::json picked = nlohmann::json::parse(text_layer_build(ImGui::GetDrawData(), 1.0f).json);
  for (const auto& e : picked["els"])
    if (e["k"] == "ctl") after.push_back(e);
  EXPECT_EQ(find(after, "radio", "B. ")["checked"], true);
  // buggy line: a toggle per line, named by its number and code
  cs = layer_of("ring.buggy-double-count");
  nlohmann::json l8 = find(cs, "button", "Line 8: ");
  ASSERT_FALSE(l8.is_null());
  EXPECT_EQ(l8["pressed"], false);
  // ordering: each step says its place; move buttons name the step they move
  cs = layer_of("ring.order-steps");
  nlohmann::json step1 = find(cs, "button", "1. ");
  ASSERT_FALSE(step1.is_null());
  EXPECT_EQ(step1["desc"].get<std::string>().rfind("Step 1 of 7. ", 0), 0u) << step1;
  EXPECT_FALSE(find(cs, "button", "Move down: ").is_null());
  // code: a multi-line text box holding the code
  cs = layer_of("ring.code-time");
  nlohmann::json code = find(cs, "textbox", "Your code (JavaScript)");
  ASSERT_FALSE(code.is_null());
  EXPECT_EQ(code["multi"], 1);
  EXPECT_NE(code["vt"].get<std::string>().find("function ringAllReduceTime"), std::string::npos);
}

// ---------------------------------------------------------------- input that counts once

// An ordering row held by its grip (or by the row itself, under a mouse) and dragged down
// across four rows, one frame at a time, with the button held all along: it stays held (its ID
// follows the item, not the place) and lands four places down; nothing moved is drawn twice.
TEST_F(HeadlessUi, AnOrderingRowDraggedAcrossFourRowsStaysHeldAndLandsThere) {
  start();
  const Exercise* target = nullptr;
  for (const Exercise* e : all_exercises())
    if (const auto* o = e->spec_as<OrderingSpec>(); o && o->items.size() >= 5 && !target) target = e;
  ASSERT_TRUE(target);
  for (const char* by : {"grip-0", "order-0"}) {
    open_exercise(app, target->id, 0);
    frames_n(3, target->id);
    const std::vector<int> before = fields()["order"].get<std::vector<int>>();
    const HookItem* from = item(by);
    const HookItem* to = item("order-4");
    ASSERT_TRUE(from && to) << by;
    const float x = (from->min.x + from->max.x) * 0.5f, y0 = (from->min.y + from->max.y) * 0.5f;
    const float y1 = (to->min.y + to->max.y) * 0.5f + 2;
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = ImVec2(x, y0);
    io.MouseDown[0] = true;
    frame(std::string("press ") + by);
    const ImGuiID held = GImGui->ActiveId;
    ASSERT_NE(held, 0u) << by;
    for (int step = 1; step <= 12; ++step) {
      io.MousePos = ImVec2(x, y0 + (y1 - y0) * step / 12.0f);
      frame(std::string("drag ") + by);
      ASSERT_EQ(GImGui->ActiveId, held) << by << ": the hold ended at step " << step << " of 12, button still down";
    }
    io.MouseDown[0] = false;
    frame(std::string("release ") + by);
    io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    const std::vector<int> after = fields()["order"].get<std::vector<int>>();
    std::vector<int> want = before;
    want.erase(want.begin());
    want.insert(want.begin() + 4, before[0]);
    EXPECT_EQ(after, want) << by << ": the row held at the top is fifth after the drag";
  }
}

// Ctrl+Enter in a numeric field reaches the field (its Enter) and the page's shortcut in one
// frame: one attempt, not two.
TEST_F(HeadlessUi, CtrlEnterInANumericFieldSubmitsOnce) {
  start();
  open_exercise(app, "ring.volume", 0);
  frames_n(2, "ring.volume");
  ImGuiIO& io = ImGui::GetIO();
  ImGui::ClearActiveID();
  frames_n(2, "ring.volume, out of the field");
  fill_correct();  // into the view's fields, then into the first field to type, as a student would
  ImGuiIO& mouse = ImGui::GetIO();
  const HookItem* field = item("part-phase");
  ASSERT_TRUE(field);
  mouse.MousePos = ImVec2((field->min.x + field->max.x) * 0.5f, (field->min.y + field->max.y) * 0.5f);
  mouse.MouseDown[0] = true;
  frame("press in the field");
  mouse.MouseDown[0] = false;
  frames_n(2, "ring.volume, typing");
  ASSERT_TRUE(io.WantTextInput);
  const int enter = 300;  // any free key index, as GLFW's are
  io.KeyMap[ImGuiKey_Enter] = enter;
  io.KeyCtrl = true;
  io.KeysDown[enter] = true;
  if (keyboard_before_frame()) app.submit_requested = true;  // as main_web.cpp runs it before the frame
  frame("ring.volume Ctrl+Enter");
  io.KeysDown[enter] = false;
  io.KeyCtrl = false;
  frames_n(2, "ring.volume after Ctrl+Enter");
  ASSERT_TRUE(app.store.progress.exercises.count("ring.volume")) << feedback_text() << " fields " << fields().dump();
  EXPECT_EQ(app.store.progress.exercises.at("ring.volume").attempts(), 1);
}

// h and n can be turned off in Settings (WCAG 2.1.4), and that choice is kept.
TEST_F(HeadlessUi, SingleKeyShortcutsCanBeTurnedOff) {
  start();
  open_exercise(app, "ring.volume", 0);
  frames_n(2, "ring.volume");
  ImGui::ClearActiveID();  // out of the field: letters are shortcuts
  frames_n(2, "ring.volume, no field");
  ASSERT_FALSE(ImGui::GetIO().WantTextInput);
  auto press = [&](int key) {
    ImGuiIO& io = ImGui::GetIO();
    io.KeysDown[key] = true;
    frame("key down");
    io.KeysDown[key] = false;
    frame("key up");
  };
  app.settings.single_key_shortcuts = false;
  press('N');
  EXPECT_EQ(app.ex.id, "ring.volume") << "n with single-key shortcuts off";
  app.screen = Screen::Settings;
  frames_n(2, "settings");
  ASSERT_TRUE(click("single-keys", "settings"));
  EXPECT_TRUE(app.settings.single_key_shortcuts);
  EXPECT_EQ(pf.storage["dtx.single-key-shortcuts"], "on");
  ASSERT_TRUE(click("single-keys", "settings"));
  EXPECT_EQ(pf.storage["dtx.single-key-shortcuts"], "off");
  App next;
  FakePlatform again;
  again.storage = pf.storage;
  app_init(next, &again);
  EXPECT_FALSE(next.settings.single_key_shortcuts);
}

// A progress file too large to store, or with more records than any course has, is refused
// before anything changes; a record with a few thousand unknown exercises is kept, and the
// page's per-frame state lists only the course's records (the others are counted).
TEST_F(HeadlessUi, AnImportTooLargeIsRefusedAndUnknownRecordsAreCountedNotListed) {
  start();
  auto record_of = [](int n) {
    std::string rec = R"({"format": "dtx-progress", "version": 2, "exercises": {)";
    for (int i = 0; i < n; ++i)
      rec += (i ? ",\"junk." : "\"junk.") + std::to_string(i) +
             R"(": {"attempts": 1, "by_writer": {"1700000000-back": 1}, "best": 0.5, "solved_at": 0, "last_at": 1700000001})";
    return rec + "}}";
  };
  const std::string before = pf.storage["dtx.progress"];
  app_on_file(app, "big.json", record_of(100000));
  EXPECT_NE(app.import_message.find("big.json is 11.9 MB; a progress file is at most 5 MB"), std::string::npos) << app.import_message;
  std::string many = R"({"format": "dtx-progress", "version": 2, "exercises": {)";
  for (int i = 0; i < 10001; ++i) many += (i ? ",\"j" : "\"j") + std::to_string(i) + R"(": {"attempts": 1})";
  app_on_file(app, "many.json", many + "}}");
  EXPECT_NE(app.import_message.find("many.json holds 10001 exercise records; a progress file has at most 10000"),
            std::string::npos) << app.import_message;
  EXPECT_EQ(pf.storage["dtx.progress"], before) << "nothing changed";
  EXPECT_EQ(app.store.progress.exercises.size(), 0u);

  app_on_file(app, "some.json", record_of(3000));
  EXPECT_NE(app.import_message.find("3000 exercise records merged"), std::string::npos) << app.import_message;
  frames_n(2, "the map after an import of unknown exercises");
  auto state = nlohmann::json::parse(pf.state_json);
  EXPECT_EQ(state["progress"]["other_records"], 3000) << "counted";
  EXPECT_TRUE(state["progress"]["exercises"].empty()) << "none of the course's";
  EXPECT_EQ(app.store.progress.exercises.size(), 3000u) << "kept";
}
