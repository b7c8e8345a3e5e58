// Loading the course and instructors' sources: every fetch's request id and what it was for,
// the index and the outline, packs asked for as they are needed (lazy) or all at once, the
// library rebuilt as they arrive (a frame's budget at a time), previews (?pack=, a dropped
// file) and live reload under make serve.
#include "app.h"

#include <algorithm>
#include <cmath>
#include <unordered_set>

#include <nlohmann/json.hpp>

#include "report_link.h"
#include "text.h"
#include "imgui_internal.h"
#include "platform/test_hook.h"
#include "ui/keyboard.h"
#include "ui/text_layer.h"
#include "screens/screens.h"
#include "type_view.h"

#include "app_internal.h"

namespace dtx::web {

bool packs_load_lazily(const App& app) { return app.load.outline_ok && app.previews.empty() && !app.course; }

const char* const kFontFiles[] = {"fonts/Inter-Regular.otf", "fonts/Inter-SemiBold.otf", "fonts/Inter-Italic.otf",
                                  "fonts/JetBrainsMono-Regular.ttf"};

void request(App& app, const std::string& url, std::map<int, std::string>& into, const std::string& tag) {
  int id = app.load.next_request++;
  into[id] = tag;
  app.platform->fetch(id, url);
}

// ---- the outline and lazy loading (engine/outline.h)


// The outline's pack file for an exercise id, or for a chapter ("" when it does not say).
std::string outline_file_of(const App& app, const std::string& id) {
  for (const auto& op : app.load.outline.packs)
    for (const auto& e : op.pack.exercises)
      if (e.id == id) return op.file;
  return "";
}
std::string outline_file_of_chapter(const App& app, int chapter) {
  for (const auto& op : app.load.outline.packs)
    if (op.error.empty() && op.pack.chapter == chapter) return op.file;
  return "";
}

static bool listed(const App& app, const std::string& file) {
  return std::find(app.load.index_files.begin(), app.load.index_files.end(), file) != app.load.index_files.end();
}

// First load: each pack is asked for once (a reload asks again through app_pack_changed).
void request_pack(App& app, const std::string& file) {
  if (file.empty() || app.load.library_ready || !listed(app, file) || !app.load.requested.insert(file).second) return;
  request(app, app.base_url + file, app.load.pending, file);
}

static bool all_requested(const App& app) {
  return std::all_of(app.load.index_files.begin(), app.load.index_files.end(),
                     [&](const std::string& f) { return app.load.requested.count(f) > 0; });
}

// Why a fetch failed. No status but a body: the glue knows why (the page's
// Content-Security-Policy, or a file too large for the page's memory).
static std::string fetch_failure(int status, const std::string& body) {
  if (status) return "HTTP " + std::to_string(status);
  if (!body.empty()) return body;
  return "network error, or the server does not allow this page to read it (CORS)";
}

// The open exercise after packs were rebuilt: same exercise, same instance, what the student
// typed kept where it still fits; back to the course map if the exercise is gone.
static void repoint_open_exercise(App& app) {
  if (!app.ex.exercise) return;
  const Exercise* ex = find_exercise(app, app.ex.id);
  if (!ex) {
    app.notices.push_back("The exercise \"" + app.ex.id + "\" you had open is no longer in its pack.");
    app.ex = ExerciseState{};
    if (app.screen == Screen::Exercise) app.screen = Screen::CourseMap;
    return;
  }
  ExerciseState old = std::move(app.ex);
  Screen screen = app.screen;
  open_exercise(app, old.id, old.inst ? old.inst->seed : 0);
  app.screen = screen;
  ExerciseState& st = app.ex;
  st.focus_first = false;
  // What the student entered, where it still fits: options, items and lines may have been
  // removed. (A view keeps only a state of its own kind: the type may have changed too.)
  const TypeView* v = find_view(ex->type);
  if (v && old.view && st.view) v->carry_over(*old.view, st);
  st.hints_shown = std::min<int>(old.hints_shown, static_cast<int>(ex->hints.size()));
  st.attempted = old.attempted;  // a widget opened by an answer stays open
  st.solved = old.solved;
  app.widgets.ex_widget_for.clear();  // the widget's inputs may have changed
}

static void check_preview(App& app, Preview& p) {
  p.result = load_preview(p.text, p.source, app.lib);
}

// `complete`: every pack listed has arrived or failed. Until then the library holds the packs
// that are in, so the course map and a deep link into them work while the others load.
static void build_library(App& app, bool complete) {
  std::vector<PackSource> sources;
  for (const auto& f : app.load.index_files) {
    if (!app.load.library_ready && !app.load.admitted.count(f)) continue;  // first load: a few a frame
    auto it = app.load.pack_texts.find(f);
    if (it != app.load.pack_texts.end()) sources.push_back({f, it->second});
  }
  // The open exercise, to find again in the new library.
  std::shared_ptr<const std::string> open_source = app.ex.exercise ? app.ex.exercise->source : nullptr;
  std::string open_pointer = app.ex.exercise ? app.ex.exercise->pointer : "";
  app.lib = load_library(sources, app.load.load_cache);
  app.load.problems.clear();
  std::map<std::string, size_t> by_file;
  for (const auto& f : app.load.index_files)
    if (auto it = app.load.fetch_failed.find(f); it != app.load.fetch_failed.end()) {
      by_file[f] = app.load.problems.size();
      app.load.problems.push_back({f, {it->second}});
    }
  for (const auto& d : app.lib.diagnostics) {
    if (d.severity != Severity::Error) continue;
    auto it = by_file.find(d.file);
    if (it == by_file.end()) {
      it = by_file.emplace(d.file, app.load.problems.size()).first;
      app.load.problems.push_back({d.file, {}});
    }
    app.load.problems[it->second].messages.push_back(format_diagnostic(d));
  }
  // Previews refuse ids the course owns: check them again against the new course.
  for (auto& p : app.previews)
    if (p->fetched) check_preview(app, *p);
  if (complete) {
    app.load.library_ready = true;
    app.rebuild_needed = false;
  }
  // The map as soon as the index is in; a link to an exercise keeps the loading line (and
  // its progress) up until that exercise's pack is in, rather than flash the map first.
  bool exercise_pending = app.nav.route_pending && app.nav.route_pending->kind == Route::Exercise;
  if (app.screen == Screen::Loading && (!exercise_pending || complete)) app.screen = Screen::CourseMap;
  // Another pack arrived and this one's text is the same: the student keeps everything
  // (answers, feedback, hints); only the pointers move to the new library's copy.
  const Exercise* same = nullptr;
  if (open_source) {
    const Exercise* now = app.lib.find(app.ex.id);
    if (now && now->source == open_source && now->pointer == open_pointer) same = now;
  }
  if (same) {
    app.ex.exercise = same;
    if (app.ex.inst) app.ex.inst->exercise = same;
  } else if (open_source) {
    repoint_open_exercise(app);
  }
  if (app.nav.route_pending) {
    Route r = std::move(*app.nav.route_pending);
    app.nav.route_pending.reset();
    apply_route(app, r);  // an exercise not in yet is pending again
  }
}

static void maybe_finish_loading(App& app) {
  // The first load goes through app_load_arrived_packs, a frame's worth at a time.
  if (!app.load.index_loaded || !app.load.library_ready) return;
  if (!app.load.pending.empty() || !app.rebuild_needed) return;  // a reload (make serve): once its fetches are in
  ++app.reloads;
  build_library(app, true);
}

static Preview& preview_for(App& app, const std::string& source, bool from_url) {
  for (auto& p : app.previews)
    if (p->source == source) return *p;
  // Newest first: the pack being worked on is the one at the top.
  app.previews.insert(app.previews.begin(), std::make_unique<Preview>());
  Preview& p = *app.previews.front();
  p.source = source;
  p.from_url = from_url;
  return p;
}

static void fetch_preview(App& app, Preview& p) {
  int id = app.load.next_request++;
  app.preview_requests[id] = p.source;
  p.request = id;
  app.platform->fetch(id, p.source);
}


// A pack's text arrived: characters it uses that the font atlas lacks (a name in Latin
// Extended-A) are added to it, the atlas rebuilt at the next frame.
static void note_glyphs(App& app, const std::string& text) {
  if (note_text_glyphs(text) && app.font_files.complete()) app.fonts_dirty = true;
}

// Once the index and the outline (or its failure) are in: the packs asked for now. Lazy: the
// packs the outline does not cover (new since the build, or broken then: their messages show),
// the pack of a linked exercise or chapter; the map is drawn from the outline at once. Not
// lazy: every pack.
static void plan_pack_requests(App& app) {
  if (!app.load.index_loaded || !app.load.outline_done || app.load.library_ready) return;
  if (!packs_load_lazily(app)) {
    for (const auto& f : app.load.index_files) request_pack(app, f);
    return;
  }
  std::set<std::string> covered;
  for (const auto& op : app.load.outline.packs)
    if (op.error.empty()) covered.insert(op.file);
  for (const auto& f : app.load.index_files)
    if (!covered.count(f)) request_pack(app, f);
  if (app.nav.route_pending) {
    const Route& r = *app.nav.route_pending;
    if (r.kind == Route::Exercise) request_pack_of(app, r.id);
    if (r.kind == Route::Course && r.chapter >= 0) request_pack(app, outline_file_of_chapter(app, r.chapter));
  }
  bool exercise_pending = app.nav.route_pending && app.nav.route_pending->kind == Route::Exercise;
  if (app.screen == Screen::Loading && !exercise_pending) {
    app.screen = Screen::CourseMap;
    if (app.nav.route_pending) {
      Route r = std::move(*app.nav.route_pending);
      app.nav.route_pending.reset();
      apply_route(app, r);
    }
  }
}

// The pack that holds exercise `id`, asked for now; an id the outline does not know may be in
// any pack (or none): every pack is asked for, so that the link opens or says "not found".
void request_pack_of(App& app, const std::string& id) {
  std::string f = outline_file_of(app, id);
  if (f.empty()) app_prefetch_packs(app);
  else request_pack(app, f);
}

void app_request_pack(App& app, const std::string& file) {
  if (packs_load_lazily(app)) request_pack(app, file);
}

void app_prefetch_packs(App& app) {
  if (app.load.prefetch_started || !app.load.index_loaded || !app.load.outline_done) return;
  app.load.prefetch_started = true;
  for (const auto& f : app.load.index_files) request_pack(app, f);
}

std::vector<MapPack> map_packs(const App& app) {
  std::vector<MapPack> out;
  for (const auto& p : app.lib.packs) out.push_back({&p, true});
  if (!app.load.library_ready && packs_load_lazily(app)) {
    for (const auto& op : app.load.outline.packs) {
      // An entry stands for its pack until the pack is in; a pack that arrived and did not
      // load has its messages shown instead.
      if (!op.error.empty() || !listed(app, op.file) || app.load.admitted.count(op.file)) continue;
      out.push_back({&op.pack, false});
    }
    std::stable_sort(out.begin(), out.end(), [](const MapPack& a, const MapPack& b) { return a.pack->chapter < b.pack->chapter; });
  }
  return out;
}

std::string map_exercise_title(const App& app, const std::string& id) {
  if (const Exercise* ex = find_exercise(app, id)) return ex->title;
  if (!packs_load_lazily(app) || app.load.library_ready) return "";
  for (const auto& op : app.load.outline.packs)
    for (const auto& e : op.pack.exercises)
      if (e.id == id) return e.title;
  return "";
}

bool app_load_arrived_packs(App& app, double budget_ms) {
  if (app.load.library_ready || !app.load.index_loaded) return false;
  // Packs are parsed by the engine's second part: asked for when the first pack is here (the
  // page asks for it after the first screen anyway), parsed when it is in.
  if (!app.platform->late_code_ready()) {
    if (!app.load.pack_texts.empty() || !app.load.fetch_failed.empty()) app.platform->want_late_code();
    return false;
  }
  const double start = app.platform->now_ms();
  bool built = false;
  do {
    const std::string* next = nullptr;
    for (const auto& f : app.load.index_files)
      if (!app.load.admitted.count(f) && (app.load.pack_texts.count(f) || app.load.fetch_failed.count(f))) {
        next = &f;
        break;
      }
    if (!next) {
      // Nothing arrived that is not in; with nothing on its way either (an empty or broken
      // index), the loading is over.
      if (app.load.pending.empty() && all_requested(app) && !built) {
        build_library(app, true);
        built = true;
      }
      break;
    }
    app.load.admitted.insert(*next);
    bool complete = app.load.pending.empty() && std::all_of(app.load.index_files.begin(), app.load.index_files.end(),
                                                       [&](const std::string& f) { return app.load.admitted.count(f) > 0; });
    build_library(app, complete);
    built = true;
    if (complete) break;
    // A link to an exercise shows nothing until its pack is in: no budget until then.
  } while (app.platform->now_ms() - start < budget_ms ||
           (app.screen == Screen::Loading && app.nav.route_pending && app.nav.route_pending->kind == Route::Exercise));
  return built;
}

void request_start_files(App& app) {
  for (const char* f : kFontFiles) request(app, f, app.font_requests, f);
  request(app, app.base_url + "index.json", app.load.pending, "index.json");
  app.load.outline_request = app.load.next_request++;
  app.platform->fetch(app.load.outline_request, app.base_url + "outline.json");
}

static bool repoint_after_preview(App& app, Preview& p);

// exercises/index.json's "report": the site's destination for problem reports, checked once.
// A bad one turns the link off and says why on the course map (the operator sees it there).
static void read_report_destination(App& app, const nlohmann::json& index) {
  app.load.report_destination.clear();
  app.load.report_error.clear();
  if (!index.is_object() || !index.contains("report")) return;
  const auto& r = index["report"];
  std::optional<std::string> why =
      r.is_string() ? check_report_destination(r.get<std::string>())
                    : std::optional<std::string>("must be a string: an https:// new-issue address or a mailto: address");
  if (why) app.load.report_error = "exercises/index.json: \"report\" " + *why + ". \"Report a problem\" is off until it is fixed.";
  else app.load.report_destination = r.get<std::string>();
}

void app_on_fetched(App& app, int id, bool ok, int status, std::string body) {
  if (assignment_on_fetched(app, id, ok, status, body)) return;
  if (search_on_fetched(app, id, ok, status, body)) return;
  if (id == app.load.outline_request) {
    app.load.outline_request = 0;
    app.load.outline_done = true;
    if (!ok) {
      app.load.outline_error = "exercises/outline.json could not be fetched (" + fetch_failure(status, body) + ")";
    } else if (parse_outline(body, app.load.outline, app.load.outline_error)) {
      app.load.outline_ok = true;
      // Titles the map draws before their packs are in may need glyphs beyond the atlas's core.
      note_glyphs(app, body);
    } else {
      app.load.outline_error = "exercises/outline.json: " + app.load.outline_error;
    }
    plan_pack_requests(app);
    return;
  }
  if (auto f = app.font_requests.find(id); f != app.font_requests.end()) {
    std::string name = f->second;
    app.font_requests.erase(f);
    if (ok) {
      if (name == kFontFiles[0]) app.font_files.regular = std::move(body);
      else if (name == kFontFiles[1]) app.font_files.semibold = std::move(body);
      else if (name == kFontFiles[2]) app.font_files.italic = std::move(body);
      else app.font_files.mono = std::move(body);
      if (app.font_files.complete()) app.fonts_dirty = true;
    } else {
      app.notices.push_back("The font " + name + " could not be loaded (HTTP " + std::to_string(status) +
                            "); text uses the built-in font.");
    }
    return;
  }
  if (auto pr = app.preview_requests.find(id); pr != app.preview_requests.end()) {
    std::string source = pr->second;
    app.preview_requests.erase(pr);
    for (auto& p : app.previews) {
      if (p->source != source || p->request != id) continue;
      p->request = 0;
      if (ok) {
        p->fetch_error.clear();
        p->text = std::move(body);
        note_glyphs(app, p->text);
        p->fetched = true;
        if (repoint_after_preview(app, *p)) ++app.reloads;
        if (app.nav.route_pending && app.load.library_ready && app.preview_requests.empty()) {
          Route r = std::move(*app.nav.route_pending);
          app.nav.route_pending.reset();
          apply_route(app, r);
        }
      } else {
        // The page's "cannot read": the same code as `dtx lint` gives a missing file.
        p->fetch_error = format_diagnostic(make_diagnostic(DiagCode::CannotRead, source, 0, 0, "",
                                                           "could not be fetched (" + fetch_failure(status, body) + ")"));
      }
    }
    return;
  }
  auto it = app.load.pending.find(id);
  if (it == app.load.pending.end()) return;
  std::string file = it->second;
  app.load.pending.erase(it);
  if (file == "index.json") {
    app.load.index_loaded = true;
    app.load.index_files.clear();
    app.load.index_error.clear();
    if (!ok) {
      app.load.index_error = "exercises/index.json could not be fetched (HTTP " + std::to_string(status) + ").";
    } else {
      auto j = nlohmann::json::parse(body, nullptr, false);
      read_report_destination(app, j);
      if (j.is_discarded() || !j.is_object() || !j.contains("packs") || !j["packs"].is_array()) {
        app.load.index_error = "exercises/index.json: expected an object with a \"packs\" list of file names.";
      } else {
        for (const auto& p : j["packs"]) {
          if (!p.is_string()) {
            app.load.index_error = "exercises/index.json: every entry of \"packs\" must be a file name (a string).";
            continue;
          }
          std::string f = p.get<std::string>();
          app.load.index_files.push_back(f);
          // A reload (make serve) reads every pack again; the first load asks as planned.
          if (app.load.library_ready) request(app, app.base_url + f, app.load.pending, f);
        }
      }
    }
    plan_pack_requests(app);
  } else if (ok) {
    app.load.pack_texts[file] = std::move(body);
    note_glyphs(app, app.load.pack_texts[file]);
    app.load.fetch_failed.erase(file);
  } else {
    app.load.pack_texts.erase(file);
    app.load.fetch_failed[file] = format_diagnostic(make_diagnostic(
        DiagCode::CannotRead, app.base_url + file, 0, 0, "",
        "could not be fetched (" + fetch_failure(status, body) + "); check that the file exists next to index.json."));
  }
  maybe_finish_loading(app);
}

// Re-checks a preview whose text arrived; true when it was already loaded (a reload).
static bool repoint_after_preview(App& app, Preview& p) {
  bool again = p.result.pack.has_value() || !p.result.errors.empty();
  check_preview(app, p);
  repoint_open_exercise(app);
  return again;
}

void app_preview_url(App& app, const std::string& url) {
  if (url.empty()) return;
  Preview& p = preview_for(app, url, true);
  if (p.request == 0) fetch_preview(app, p);
}

void app_preview_text(App& app, const std::string& name, const std::string& text) {
  Preview& p = preview_for(app, name, false);
  p.text = text;
  note_glyphs(app, p.text);
  p.fetched = true;
  p.fetch_error.clear();
  repoint_after_preview(app, p);
  if (app.screen != Screen::Exercise) app.screen = Screen::CourseMap;  // show where it landed
}

void app_pack_changed(App& app, const std::string& file) {
  app.images.forget_failed();  // a missing picture may be there now
  if (file == "index.json") {
    app.rebuild_needed = true;
    request(app, app.base_url + "index.json", app.load.pending, "index.json");
  } else if (std::find(app.load.index_files.begin(), app.load.index_files.end(), file) != app.load.index_files.end()) {
    app.rebuild_needed = true;
    request(app, app.base_url + file, app.load.pending, file);
  }
  for (auto& p : app.previews)
    if (p->from_url && p->request == 0 && last_component(p->source) == file) fetch_preview(app, *p);
}

}  // namespace dtx::web
