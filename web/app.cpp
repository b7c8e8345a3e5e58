#include "app.h"

#include <algorithm>
#include <cmath>
#include <unordered_set>

#include <nlohmann/json.hpp>

#include "text.h"
#include "imgui_internal.h"
#include "platform/test_hook.h"
#include "ui/keyboard.h"
#include "ui/text_layer.h"
#include "screens/screens.h"
#include "type_view.h"

namespace dtx::web {

bool packs_load_lazily(const App& app) { return app.outline_ok && app.previews.empty() && !app.course; }

namespace {

void apply_route(App& app, const Route& r);

constexpr const char* kProgressKey = "dtx.progress";
const char* const kFontFiles[] = {"fonts/Inter-Regular.otf", "fonts/Inter-SemiBold.otf", "fonts/Inter-Italic.otf",
                                  "fonts/JetBrainsMono-Regular.ttf"};

void request(App& app, const std::string& url, std::map<int, std::string>& into, const std::string& tag) {
  int id = app.next_request++;
  into[id] = tag;
  app.platform->fetch(id, url);
}

// ---- the outline and lazy loading (engine/outline.h)


// The outline's pack file for an exercise id, or for a chapter ("" when it does not say).
std::string outline_file_of(const App& app, const std::string& id) {
  for (const auto& op : app.outline.packs)
    for (const auto& e : op.pack.exercises)
      if (e.id == id) return op.file;
  return "";
}
std::string outline_file_of_chapter(const App& app, int chapter) {
  for (const auto& op : app.outline.packs)
    if (op.error.empty() && op.pack.chapter == chapter) return op.file;
  return "";
}

bool listed(const App& app, const std::string& file) {
  return std::find(app.index_files.begin(), app.index_files.end(), file) != app.index_files.end();
}

// First load: each pack is asked for once (a reload asks again through app_pack_changed).
void request_pack(App& app, const std::string& file) {
  if (file.empty() || app.library_ready || !listed(app, file) || !app.requested.insert(file).second) return;
  request(app, app.base_url + file, app.pending, file);
}

bool all_requested(const App& app) {
  return std::all_of(app.index_files.begin(), app.index_files.end(),
                     [&](const std::string& f) { return app.requested.count(f) > 0; });
}

// One backup of each kind, under a fixed key: a newer one replaces the older, so backups
// can never fill the storage (they used to be copied again, under a new key, at every load).
constexpr const char* kUnreadableKey = "dtx.progress.unreadable";
constexpr const char* kBeforeImportKey = "dtx.progress.before-import";
constexpr const char* kStorageFull =
    "Progress could not be saved: browser storage is full (or turned off). Everything saved before is still "
    "there, and this page keeps your new progress and saves it all at the next save once there is room "
    "(remove other sites' data to make some).";

enum class Kept { Already, Copied, Replaced, Failed };

// Keeps `text` under `key`; a key that already holds exactly this text is left alone, so
// loading the page twice with the same bad record keeps one copy.
Kept keep_aside(App& app, const char* key, const std::string& text) {
  auto old = app.platform->storage_get(key);
  if (old && *old == text) return Kept::Already;
  if (!app.platform->storage_set(key, text)) return Kept::Failed;
  return old ? Kept::Replaced : Kept::Copied;
}

void add_notice(App& app, const std::string& text) {
  if (std::find(app.notices.begin(), app.notices.end(), text) == app.notices.end()) app.notices.push_back(text);
}

std::string problem_list(const std::vector<std::string>& problems) {
  const size_t shown = 6;
  std::string list;
  for (size_t i = 0; i < problems.size() && i < shown; ++i) list += (i ? "; " : "") + problems[i];
  if (problems.size() > shown) list += "; and " + std::to_string(problems.size() - shown) + " more";
  return list;
}

std::string new_writer_id(App& app) {
  // Seconds first: writers order by age, and the oldest are the ones folded (engine/progress.h).
  return std::to_string(app.platform->now_unix()) + "-" + app.platform->random_token();
}

// A stored record that is unreadable, or read with problems, is copied aside before anything
// is written over it; the notice says where, and whether it replaced an older copy.
bool keep_bad_record(App& app, const std::string& text, const ProgressRead& r) {
  Kept k = keep_aside(app, kUnreadableKey, text);
  std::string where =
      k == Kept::Failed ? "could not be copied aside (browser storage is full); it is left in place, and nothing is "
                          "saved over it until there is room"
                        : std::string("kept unchanged in this browser's storage under \"") + kUnreadableKey + "\"" +
                              (k == Kept::Replaced ? " (it replaced an older record kept there: one is kept, so "
                                                     "backups never fill the storage)"
                                                   : "");
  if (r.unreadable) {
    add_notice(app, "Your saved progress could not be read (" +
                        (r.problems.empty() ? std::string("not a progress record") : r.problems.front()) +
                        "). The old record was " + where + ", and a fresh record was started.");
  } else {
    add_notice(app, "Part of your saved progress could not be read as stored (" + problem_list(r.problems) +
                        "). Everything else was restored; the full old record was " + where + ".");
  }
  return k != Kept::Failed;
}

// Why a fetch failed. No status but a body: the glue knows why (the page's
// Content-Security-Policy, or a file too large for the page's memory).
std::string fetch_failure(int status, const std::string& body) {
  if (status) return "HTTP " + std::to_string(status);
  if (!body.empty()) return body;
  return "network error, or the server does not allow this page to read it (CORS)";
}

void load_stored_progress(App& app) {
  auto text = app.platform->storage_get(kProgressKey);
  if (!text) return;
  ProgressRead r = read_progress(*text);
  if (r.unreadable || !r.problems.empty()) keep_bad_record(app, *text, r);
  app.progress = std::move(r.progress);
}

void save_failed(App& app) {
  app.save_error = kStorageFull;
  add_notice(app, kStorageFull);
}

void save_worked(App& app) {
  if (app.save_error.empty()) return;
  std::erase(app.notices, app.save_error);
  app.save_error.clear();
}

// Another tab wrote the record: take in what it knows. If this page knows something the
// stored record lacks (its save raced the other tab's, or failed), it saves again; merging
// what is already in changes nothing, so two tabs never answer each other forever.
void merge_stored_progress(App& app) {
  auto text = app.platform->storage_get(kProgressKey);
  if (!text) return;  // removed: this page's record is written back at its next save
  ProgressRead r = read_progress(*text);
  if (r.unreadable) {
    keep_bad_record(app, *text, r);
    return;
  }
  Progress merged = merge_progress(app.progress, r.progress);
  bool stored_lacks = merged != r.progress || !r.problems.empty();
  app.progress = std::move(merged);
  if (stored_lacks) save_progress(app);
}

// The open exercise after packs were rebuilt: same exercise, same instance, what the student
// typed kept where it still fits; back to the course map if the exercise is gone.
void repoint_open_exercise(App& app) {
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
  app.ex_widget_for.clear();  // the widget's inputs may have changed
}

void check_preview(App& app, Preview& p) {
  p.result = load_preview(p.text, p.source, app.lib);
}

// `complete`: every pack listed has arrived or failed. Until then the library holds the packs
// that are in, so the course map and a deep link into them work while the others load.
void build_library(App& app, bool complete) {
  std::vector<PackSource> sources;
  for (const auto& f : app.index_files) {
    if (!app.library_ready && !app.admitted.count(f)) continue;  // first load: a few a frame
    auto it = app.pack_texts.find(f);
    if (it != app.pack_texts.end()) sources.push_back({f, it->second});
  }
  // The open exercise, to find again in the new library.
  std::shared_ptr<const std::string> open_source = app.ex.exercise ? app.ex.exercise->source : nullptr;
  std::string open_pointer = app.ex.exercise ? app.ex.exercise->pointer : "";
  app.lib = load_library(sources, app.load_cache);
  app.problems.clear();
  std::map<std::string, size_t> by_file;
  for (const auto& f : app.index_files)
    if (auto it = app.fetch_failed.find(f); it != app.fetch_failed.end()) {
      by_file[f] = app.problems.size();
      app.problems.push_back({f, {it->second}});
    }
  for (const auto& d : app.lib.diagnostics) {
    if (d.severity != Severity::Error) continue;
    auto it = by_file.find(d.file);
    if (it == by_file.end()) {
      it = by_file.emplace(d.file, app.problems.size()).first;
      app.problems.push_back({d.file, {}});
    }
    app.problems[it->second].messages.push_back(format_diagnostic(d));
  }
  // Previews refuse ids the course owns: check them again against the new course.
  for (auto& p : app.previews)
    if (p->fetched) check_preview(app, *p);
  if (complete) {
    app.library_ready = true;
    app.rebuild_needed = false;
  }
  // The map as soon as the index is in; a link to an exercise keeps the loading line (and
  // its progress) up until that exercise's pack is in, rather than flash the map first.
  bool exercise_pending = app.route_pending && app.route_pending->kind == Route::Exercise;
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
  if (app.route_pending) {
    Route r = std::move(*app.route_pending);
    app.route_pending.reset();
    apply_route(app, r);  // an exercise not in yet is pending again
  }
}

void maybe_finish_loading(App& app) {
  // The first load goes through app_load_arrived_packs, a frame's worth at a time.
  if (!app.index_loaded || !app.library_ready) return;
  if (!app.pending.empty() || !app.rebuild_needed) return;  // a reload (make serve): once its fetches are in
  ++app.reloads;
  build_library(app, true);
}

Preview& preview_for(App& app, const std::string& source, bool from_url) {
  for (auto& p : app.previews)
    if (p->source == source) return *p;
  // Newest first: the pack being worked on is the one at the top.
  app.previews.insert(app.previews.begin(), std::make_unique<Preview>());
  Preview& p = *app.previews.front();
  p.source = source;
  p.from_url = from_url;
  return p;
}

void fetch_preview(App& app, Preview& p) {
  int id = app.next_request++;
  app.preview_requests[id] = p.source;
  p.request = id;
  app.platform->fetch(id, p.source);
}

}  // namespace

// A pack's text arrived: characters it uses that the font atlas lacks (a name in Latin
// Extended-A) are added to it, the atlas rebuilt at the next frame.
static void note_glyphs(App& app, const std::string& text) {
  if (note_text_glyphs(text) && app.font_files.complete()) app.fonts_dirty = true;
}

// Once the index and the outline (or its failure) are in: the packs asked for now. Lazy: the
// packs the outline does not cover (new since the build, or broken then: their messages show),
// the pack of a linked exercise or chapter; the map is drawn from the outline at once. Not
// lazy: every pack.
static void request_pack_of(App& app, const std::string& id);
static void plan_pack_requests(App& app) {
  if (!app.index_loaded || !app.outline_done || app.library_ready) return;
  if (!packs_load_lazily(app)) {
    for (const auto& f : app.index_files) request_pack(app, f);
    return;
  }
  std::set<std::string> covered;
  for (const auto& op : app.outline.packs)
    if (op.error.empty()) covered.insert(op.file);
  for (const auto& f : app.index_files)
    if (!covered.count(f)) request_pack(app, f);
  if (app.route_pending) {
    const Route& r = *app.route_pending;
    if (r.kind == Route::Exercise) request_pack_of(app, r.id);
    if (r.kind == Route::Course && r.chapter >= 0) request_pack(app, outline_file_of_chapter(app, r.chapter));
  }
  bool exercise_pending = app.route_pending && app.route_pending->kind == Route::Exercise;
  if (app.screen == Screen::Loading && !exercise_pending) {
    app.screen = Screen::CourseMap;
    if (app.route_pending) {
      Route r = std::move(*app.route_pending);
      app.route_pending.reset();
      apply_route(app, r);
    }
  }
}

// The pack that holds exercise `id`, asked for now; an id the outline does not know may be in
// any pack (or none): every pack is asked for, so that the link opens or says "not found".
static void request_pack_of(App& app, const std::string& id) {
  std::string f = outline_file_of(app, id);
  if (f.empty()) app_prefetch_packs(app);
  else request_pack(app, f);
}

void app_request_pack(App& app, const std::string& file) {
  if (packs_load_lazily(app)) request_pack(app, file);
}

void app_prefetch_packs(App& app) {
  if (app.prefetch_started || !app.index_loaded || !app.outline_done) return;
  app.prefetch_started = true;
  for (const auto& f : app.index_files) request_pack(app, f);
}

std::vector<MapPack> map_packs(const App& app) {
  std::vector<MapPack> out;
  for (const auto& p : app.lib.packs) out.push_back({&p, true});
  if (!app.library_ready && packs_load_lazily(app)) {
    for (const auto& op : app.outline.packs) {
      // An entry stands for its pack until the pack is in; a pack that arrived and did not
      // load has its messages shown instead.
      if (!op.error.empty() || !listed(app, op.file) || app.admitted.count(op.file)) continue;
      out.push_back({&op.pack, false});
    }
    std::stable_sort(out.begin(), out.end(), [](const MapPack& a, const MapPack& b) { return a.pack->chapter < b.pack->chapter; });
  }
  return out;
}

std::string map_exercise_title(const App& app, const std::string& id) {
  if (const Exercise* ex = find_exercise(app, id)) return ex->title;
  if (!packs_load_lazily(app) || app.library_ready) return "";
  for (const auto& op : app.outline.packs)
    for (const auto& e : op.pack.exercises)
      if (e.id == id) return e.title;
  return "";
}

bool app_load_arrived_packs(App& app, double budget_ms) {
  if (app.library_ready || !app.index_loaded) return false;
  // Packs are parsed by the engine's second part: asked for when the first pack is here (the
  // page asks for it after the first screen anyway), parsed when it is in.
  if (!app.platform->late_code_ready()) {
    if (!app.pack_texts.empty() || !app.fetch_failed.empty()) app.platform->want_late_code();
    return false;
  }
  const double start = app.platform->now_ms();
  bool built = false;
  do {
    const std::string* next = nullptr;
    for (const auto& f : app.index_files)
      if (!app.admitted.count(f) && (app.pack_texts.count(f) || app.fetch_failed.count(f))) {
        next = &f;
        break;
      }
    if (!next) {
      // Nothing arrived that is not in; with nothing on its way either (an empty or broken
      // index), the loading is over.
      if (app.pending.empty() && all_requested(app) && !built) {
        build_library(app, true);
        built = true;
      }
      break;
    }
    app.admitted.insert(*next);
    bool complete = app.pending.empty() && std::all_of(app.index_files.begin(), app.index_files.end(),
                                                       [&](const std::string& f) { return app.admitted.count(f) > 0; });
    build_library(app, complete);
    built = true;
    if (complete) break;
    // A link to an exercise shows nothing until its pack is in: no budget until then.
  } while (app.platform->now_ms() - start < budget_ms ||
           (app.screen == Screen::Loading && app.route_pending && app.route_pending->kind == Route::Exercise));
  return built;
}

const char* screen_name(Screen s) {
  switch (s) {
    case Screen::Loading: return "loading";
    case Screen::CourseMap: return "course";
    case Screen::Exercise: return "exercise";
    case Screen::Settings: return "settings";
    case Screen::Assignment: return "assignment";
    case Screen::Lab: return "lab";
    case Screen::NotFound: return "not-found";
  }
  return "?";
}

void app_apply_theme(App& app) {
  bool dark = app.theme_choice == 2 || (app.theme_choice == 0 && app.system_dark);
  if (dark == theme_is_dark()) return;
  apply_theme(dark);
  app_apply_style(app);
}

void app_init(App& app, Platform* platform) {
  app.platform = platform;
  app.images.set_platform(platform);
  if (auto t = platform->storage_get("dtx.theme")) app.theme_choice = *t == "light" ? 1 : *t == "dark" ? 2 : 0;
  if (auto k = platform->storage_get("dtx.single-key-shortcuts")) app.single_key_shortcuts = *k != "off";
  app_apply_theme(app);
  app.writer_id = new_writer_id(app);
  load_stored_progress(app);
  for (const char* f : kFontFiles) request(app, f, app.font_requests, f);
  request(app, app.base_url + "index.json", app.pending, "index.json");
  app.outline_request = app.next_request++;
  app.platform->fetch(app.outline_request, app.base_url + "outline.json");
}

bool app_busy(const App& app) {
  return !app.library_ready || !app.font_requests.empty() || app.ex.code_request != 0 || app.fonts_dirty ||
         app.widget_animating || app.scroll_restore.has_value() || app.focus_chapter >= 0 ||
         app.link_copied_ms >= 0;  // the "Copied" note goes after 4 s
}

static bool repoint_after_preview(App& app, Preview& p);

void app_on_fetched(App& app, int id, bool ok, int status, std::string body) {
  if (assignment_on_fetched(app, id, ok, status, body)) return;
  if (id == app.outline_request) {
    app.outline_request = 0;
    app.outline_done = true;
    if (!ok) {
      app.outline_error = "exercises/outline.json could not be fetched (" + fetch_failure(status, body) + ")";
    } else if (parse_outline(body, app.outline, app.outline_error)) {
      app.outline_ok = true;
      // Titles the map draws before their packs are in may need glyphs beyond the atlas's core.
      note_glyphs(app, body);
    } else {
      app.outline_error = "exercises/outline.json: " + app.outline_error;
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
        if (app.route_pending && app.library_ready && app.preview_requests.empty()) {
          Route r = std::move(*app.route_pending);
          app.route_pending.reset();
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
  auto it = app.pending.find(id);
  if (it == app.pending.end()) return;
  std::string file = it->second;
  app.pending.erase(it);
  if (file == "index.json") {
    app.index_loaded = true;
    app.index_files.clear();
    app.index_error.clear();
    if (!ok) {
      app.index_error = "exercises/index.json could not be fetched (HTTP " + std::to_string(status) + ").";
    } else {
      auto j = nlohmann::json::parse(body, nullptr, false);
      if (j.is_discarded() || !j.is_object() || !j.contains("packs") || !j["packs"].is_array()) {
        app.index_error = "exercises/index.json: expected an object with a \"packs\" list of file names.";
      } else {
        for (const auto& p : j["packs"]) {
          if (!p.is_string()) {
            app.index_error = "exercises/index.json: every entry of \"packs\" must be a file name (a string).";
            continue;
          }
          std::string f = p.get<std::string>();
          app.index_files.push_back(f);
          // A reload (make serve) reads every pack again; the first load asks as planned.
          if (app.library_ready) request(app, app.base_url + f, app.pending, f);
        }
      }
    }
    plan_pack_requests(app);
  } else if (ok) {
    app.pack_texts[file] = std::move(body);
    note_glyphs(app, app.pack_texts[file]);
    app.fetch_failed.erase(file);
  } else {
    app.pack_texts.erase(file);
    app.fetch_failed[file] = format_diagnostic(make_diagnostic(
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
    request(app, app.base_url + "index.json", app.pending, "index.json");
  } else if (std::find(app.index_files.begin(), app.index_files.end(), file) != app.index_files.end()) {
    app.rebuild_needed = true;
    request(app, app.base_url + file, app.pending, file);
  }
  for (auto& p : app.previews)
    if (p->from_url && p->request == 0 && last_component(p->source) == file) fetch_preview(app, *p);
}

std::string last_component(const std::string& url) {
  std::string u = url.substr(0, url.find_first_of("?#"));
  size_t slash = u.find_last_of('/');
  return slash == std::string::npos ? u : u.substr(slash + 1);
}

const Exercise* find_exercise(const App& app, const std::string& id) {
  for (const auto& p : app.previews)
    if (p->result.pack)
      for (const auto& e : p->result.pack->exercises)
        if (e.id == id) return &e;
  return app.lib.find(id);
}

const Preview* preview_of(const App& app, const Exercise* ex) {
  if (!ex) return nullptr;
  for (const auto& p : app.previews)
    if (p->result.pack)
      for (const auto& e : p->result.pack->exercises)
        if (&e == ex) return p.get();
  return nullptr;
}

bool instructor_view(const App& app) {
  // Outside a preview only with `?instructor` in the address: a student on a published
  // exercise has no switch that shows its answers.
  const bool preview = preview_of(app, app.ex.exercise) != nullptr;
  if (!preview && !app.instructor_allowed) return false;
  if (app.instructor >= 0) return app.instructor == 1;
  return preview;
}

bool save_progress(App& app) {
  // Read, merge, write: another tab may have saved since this page last looked, and writing
  // this page's record alone would drop that tab's work.
  auto stored = app.platform->storage_get(kProgressKey);
  if (stored) {
    ProgressRead r = read_progress(*stored);
    if ((r.unreadable || !r.problems.empty()) && !keep_bad_record(app, *stored, r)) {
      save_failed(app);
      return false;
    }
    app.progress = merge_progress(app.progress, r.progress);
  }
  // Whether or not it is written, the page keeps everything: the next save writes it.
  std::string text = write_progress(app.progress);
  if (stored && *stored == text) {
    save_worked(app);
    return true;
  }
  if (!app.platform->storage_set(kProgressKey, text)) {
    save_failed(app);
    return false;
  }
  save_worked(app);
  return true;
}

void open_exercise(App& app, const std::string& id, uint64_t seed) {
  const Exercise* ex = find_exercise(app, id);
  if (!ex && packs_load_lazily(app) && !app.library_ready && !outline_file_of(app, id).empty()) {
    // Listed by the outline, its pack not in yet: it opens when the pack arrives.
    Route r;
    r.kind = Route::Exercise;
    r.id = id;
    r.seed = seed;
    app.route_pending = r;
    request_pack_of(app, id);
    return;
  }
  if (!ex) return;
  ExerciseState st;
  st.id = id;
  st.exercise = ex;
  std::string err;
  st.inst = make_instance(*ex, seed, &err);
  st.instance_error = err;
  st.focus_first = true;
  app.ex = std::move(st);
  if (app.ex.inst)
    if (const TypeView* v = find_view(ex->type)) app.ex.view = v->fresh(app, app.ex);
  app.screen = Screen::Exercise;
  if (app.progress.last_exercise != id) {
    app.progress.last_exercise = id;
    app.progress.last_exercise_at = app.platform->now_unix();
    save_progress(app);
  }
}

bool app_first_view_answer(App& app, const std::string& id, const std::vector<std::string>& words, bool submit_it,
                           std::string* error) {
  ExerciseState& st = app.ex;
  if (app.screen != Screen::Exercise || st.id != id || !st.exercise || !st.inst || st.inst->seed != 0 || !st.view) {
    if (error) *error = "the exercise " + id + " is not open at its default numbers";
    return false;
  }
  const TypeView* v = find_view(st.exercise->type);
  std::string err;
  auto a = st.exercise->spec->parse_answer(*st.exercise, *st.inst, words, &err);
  // A field being edited keeps its own copy of the text (ImGui's InputText state) and would
  // write it back over the answer: the first field has the keyboard when an exercise opens.
  if (a && ImGui::GetCurrentContext()) ImGui::ClearActiveID();
  if (!a || !v || !v->set_answer(app, st, *a)) {
    if (error) *error = err.empty() ? "the view cannot show this answer" : err;
    return false;
  }
  if (submit_it) app.submit_requested = true;
  return true;
}

// ------------------------------------------------------------------ addresses

namespace {

std::string widget_value_text(const sim::WidgetInput& in, double v) {
  if (!in.options.empty()) {
    size_t i = static_cast<size_t>(std::clamp(v, 0.0, static_cast<double>(in.options.size() - 1)));
    return in.options[i];
  }
  char buf[32];
  if (in.integer) std::snprintf(buf, sizeof buf, "%.0f", v);
  else std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

// The Lab's inputs as the address writes them: only those moved from their defaults, so the
// plain widget's address stays "#/lab/ring".
std::vector<std::pair<std::string, std::string>> lab_query(const App& app) {
  std::vector<std::pair<std::string, std::string>> q;
  if (!app.lab_widget) return q;
  const sim::WidgetValues& v = app.lab_widget->inputs();
  if (!v.kind) return q;
  for (size_t i = 0; i < v.kind->inputs.size() && i < v.values.size(); ++i) {
    const sim::WidgetInput& in = v.kind->inputs[i];
    std::string now = widget_value_text(in, v.values[i]), def = widget_value_text(in, in.def);
    if (now != def) q.emplace_back(in.name, now);
  }
  return q;
}

void apply_lab_route(App& app, const Route& r) {
  app.screen = Screen::Lab;
  app.lab_address_error.clear();
  std::string kind = r.id.empty() ? "ring" : r.id;
  const sim::WidgetKind* k = sim::find_widget_kind(kind);
  if (!k) {
    std::string names;
    for (const sim::WidgetKind* w : sim::widget_kinds()) names += std::string(names.empty() ? "" : ", ") + w->kind;
    app.lab_address_error = "The address names no Lab widget \"" + kind + "\" (there are: " + names + ").";
    if (!app.lab_widget) select_lab_widget(app, "ring");
    return;
  }
  // The address's inputs start from the defaults; the same plain widget is left playing.
  if (!app.lab_widget || app.lab_kind != kind || !r.query.empty() || !lab_query(app).empty())
    select_lab_widget(app, kind);
  if (!app.lab_widget || r.query.empty()) return;
  sim::WidgetValues v = app.lab_widget->inputs();
  std::vector<std::string> problems;
  for (const auto& [name, text] : r.query) {
    const sim::WidgetInput* in = k->input(name);
    if (!in) {
      std::string names;
      for (const auto& i : k->inputs) names += std::string(names.empty() ? "" : ", ") + i.name;
      problems.push_back("no input \"" + name + "\" (this widget has " + names + ")");
      continue;
    }
    std::string err;
    if (auto val = sim::parse_widget_value(*in, text, &err)) v.set(name, *val);
    else problems.push_back(name + "=" + text + ": " + err);
  }
  app.lab_widget->set_inputs(v);
  if (!problems.empty()) {
    app.lab_address_error = "Part of the address was not used: ";
    for (size_t i = 0; i < problems.size(); ++i) app.lab_address_error += (i ? "; " : "") + problems[i];
    app.lab_address_error += ".";
  }
}

void apply_route(App& app, const Route& r) {
  switch (r.kind) {
    case Route::Invalid:
      app.not_found = r;
      app.screen = Screen::NotFound;
      return;
    case Route::Course:
      app.screen = Screen::CourseMap;
      app.course_chapter = r.chapter;
      if (packs_load_lazily(app) && r.chapter >= 0) request_pack(app, outline_file_of_chapter(app, r.chapter));
      // Back/Forward restore the scroll instead; a link or a reload shows the chapter.
      app.focus_chapter = app.scroll_restore ? -1 : r.chapter;
      app.focus_frames = 0;
      return;
    case Route::Settings: app.screen = Screen::Settings; return;
    case Route::Assignment: app.screen = app.course ? Screen::Assignment : Screen::CourseMap; return;
    case Route::Lab: apply_lab_route(app, r); return;
    case Route::Exercise: {
      // A deep link opens as soon as its pack is in; until every pack (and ?pack= preview)
      // has arrived, one not found yet may still come.
      if (!find_exercise(app, r.id) && (!app.library_ready || !app.preview_requests.empty())) {
        app.route_pending = r;
        if (packs_load_lazily(app)) request_pack_of(app, r.id);
        return;
      }
      if (!find_exercise(app, r.id)) {
        app.not_found = r;
        app.screen = Screen::NotFound;
        return;
      }
      if (app.screen == Screen::Exercise && app.ex.id == r.id && app.ex.inst && app.ex.inst->seed == r.seed) return;
      open_exercise(app, r.id, r.seed);
      return;
    }
  }
}

// Writes the address and title of what is on screen, once per change. Another screen is a
// new history entry (Back returns); a change within a screen replaces the entry.
void sync_address(App& app) {
  if (app.screen == Screen::Loading) return;
  std::string fragment = app.screen == Screen::NotFound ? app.address : format_route(current_route(app));
  std::string title = page_title(app);
  if (fragment == app.address && title == app.title_shown) return;
  bool push = fragment != app.address && !parse_route(app.address).same_screen(parse_route(fragment));
  app.platform->set_address(fragment, title, push);
  app.address = fragment;
  app.title_shown = title;
}

}  // namespace

Route current_route(const App& app) {
  Route r;
  switch (app.screen) {
    case Screen::Loading: return app.route_pending ? *app.route_pending : parse_route(app.address);
    case Screen::CourseMap: r.chapter = app.course_chapter; break;
    case Screen::Settings: r.kind = Route::Settings; break;
    case Screen::Assignment: r.kind = Route::Assignment; break;
    case Screen::NotFound: return app.not_found;
    case Screen::Lab:
      r.kind = Route::Lab;
      r.id = app.lab_kind.empty() ? "ring" : app.lab_kind;
      r.query = lab_query(app);
      break;
    case Screen::Exercise:
      r.kind = Route::Exercise;
      r.id = app.ex.id;
      r.seed = app.ex.inst ? app.ex.inst->seed : 0;
      break;
  }
  return r;
}

std::string page_title(const App& app) {
  const std::string site = "dtx";
  switch (app.screen) {
    case Screen::Loading: return site;
    case Screen::CourseMap: return "dtx: the arithmetic of distributed training";
    case Screen::Settings: return "Settings · " + site;
    case Screen::Assignment:
      return (app.course && app.course->a ? app.course->a->title : std::string("Assignment")) + " · " + site;
    case Screen::Lab: {
      const sim::WidgetKind* k = sim::find_widget_kind(app.lab_kind);
      return std::string(k ? k->title : "Lab") + " · Lab · " + site;
    }
    case Screen::NotFound:
      return app.not_found.kind == Route::Exercise ? "No exercise " + app.not_found.id + " · " + site
                                                   : "Address not found · " + site;
    case Screen::Exercise: {
      if (!app.ex.exercise) return site;
      std::string t = app.ex.exercise->title;
      const Pack* pack = nullptr;
      for (const auto& p : app.lib.packs)
        if (p.id == app.ex.exercise->pack_id) pack = &p;
      if (pack) t += " · " + pack->title;
      else if (const Preview* pv = preview_of(app, app.ex.exercise); pv && pv->result.pack)
        t += " · " + pv->result.pack->title + " (preview)";
      if (app.ex.inst && app.ex.inst->seed != 0) t += " · instance " + std::to_string(app.ex.inst->seed);
      return t + " · " + site;
    }
  }
  return site;
}

void app_on_address(App& app, const std::string& fragment) {
  if (fragment == app.address && app.screen != Screen::Loading) return;  // the page's own write
  Route r = parse_route(fragment);
  app.address = r.kind == Route::Invalid ? fragment : format_route(r);
  if (app.address != fragment && app.platform) {
    // "#/ex/x/0" is written "#/ex/x": same entry, tidied (the title follows with the screen)
    app.platform->set_address(app.address, "", false);
  }
  auto mem = app.scroll_memory.find(app.address);
  if (mem != app.scroll_memory.end()) app.scroll_restore = mem->second;
  if (r.kind == Route::Invalid) app.not_found = r;
  app.route_pending.reset();  // the newest address wins over one still waiting
  if (!app.index_loaded && r.kind != Route::Exercise) {
    // shown once the pack index is in (build_library leaves Loading for the course map first)
    app.route_pending = r;
    return;
  }
  apply_route(app, r);
}

static void record(App& app, const Answer& answer, const Feedback& fb) {
  ExerciseState& st = app.ex;
  st.feedback = fb;
  st.graded++;
  if (fb.counts_as_attempt()) {
    // In an assignment the attempt also goes into the student's submission log.
    assignment_record(app, answer, fb);
    st.attempted = true;  // kept when a later answer cannot be read (a widget stays open)
    st.solved |= fb.verdict == Verdict::Correct;
    // Another tab folded this page's writer (engine/progress.h): count on under a new one.
    if (auto it = app.progress.exercises.find(st.id);
        it != app.progress.exercises.end() && writer_folded(it->second, app.writer_id))
      app.writer_id = new_writer_id(app);
    record_attempt(app.progress, app.writer_id, st.id, fb, app.platform->now_unix(), app.platform->today());
    save_progress(app);
    if (fb.verdict == Verdict::Correct) st.revealed = true;
  }
}

void submit(App& app) {
  ExerciseState& st = app.ex;
  if (!st.inst || st.code_request) return;
  // A key press reaches a field (EnterReturnsTrue) and the page's shortcut (Ctrl+Enter) in
  // the same frame: it submits once.
  if (app.submitted_frame == app.frame) return;
  app.submitted_frame = app.frame;
  const TypeView* v = find_view(st.exercise->type);
  if (!v || !st.view) return;
  Answer a;
  if (!v->answer(app, st, a)) return;  // asynchronous (code)
  record(app, a, grade(*st.inst, a));
}

void app_on_code_result(App& app, int request_id, const std::string& json) {
  ExerciseState& st = app.ex;
  if (request_id != st.code_request || !st.inst) return;  // a stale run (student moved on)
  st.code_request = 0;
  const TypeView* v = find_view(st.exercise->type);
  Answer a;
  if (v && v->ran && v->ran(st, json, a)) record(app, a, grade(*st.inst, a));
}

void app_on_file(App& app, const std::string& name, const std::string& text) {
  if (text.size() > kMaxImportBytes) {
    app.import_message = name + " is " + format_number(static_cast<double>(text.size()) / 1e6, 3) +
                         " MB; a progress file is at most " + std::to_string(kMaxImportBytes / 1000000) +
                         " MB (what browser storage holds). Nothing was changed.";
    return;
  }
  ProgressRead r = read_progress(text);
  if (r.unreadable) {
    app.import_message = name + " is not a dtx progress file" +
                         (r.problems.empty() ? std::string(".") : ": " + r.problems.front() + ".") + " Nothing was changed.";
    return;
  }
  if (r.progress.exercises.size() > kMaxImportRecords) {
    app.import_message = name + " holds " + std::to_string(r.progress.exercises.size()) +
                         " exercise records; a progress file has at most " + std::to_string(kMaxImportRecords) +
                         " (one per exercise of a course). Nothing was changed.";
    return;
  }
  // The record before the import is kept, so an import by mistake can be undone by hand; if
  // it cannot be kept, nothing is imported.
  Kept kept = Kept::Already;
  if (auto old = app.platform->storage_get(kProgressKey)) kept = keep_aside(app, kBeforeImportKey, *old);
  if (kept == Kept::Failed) {
    app.import_message = name + " was not imported: browser storage is full, so your current record could not be "
                                "kept aside first. Nothing was changed.";
    return;
  }
  // Merged, not replaced: other tabs would merge their records back anyway, and a file
  // imported twice (or this browser's own export) counts no attempt twice.
  size_t records = r.progress.exercises.size();
  app.progress = merge_progress(app.progress, r.progress);
  bool saved = save_progress(app);
  app.import_message = "Imported " + name + ": " + std::to_string(records) + " exercise records merged into your progress.";
  if (kept != Kept::Already)
    app.import_message += std::string(" The record before the import is kept under \"") + kBeforeImportKey + "\"" +
                          (kept == Kept::Replaced ? ", replacing the one kept at the previous import." : ".");
  if (!r.problems.empty())
    app.import_message += " Problems in the file (" + std::to_string(r.problems.size()) + "): " + problem_list(r.problems) + ".";
  if (!saved) app.import_message += " Not saved yet: browser storage is full.";
}

// ------------------------------------------------------------------ shared helpers

static std::unordered_set<unsigned> g_draggable;
void mark_draggable() {
  if (g_draggable.size() > 4096) g_draggable.clear();
  g_draggable.insert(ImGui::GetItemID());
}
bool is_draggable(unsigned id) { return g_draggable.count(id) != 0; }

float em(App& app) { return app.fonts.body ? app.fonts.body->FontSize : 16.0f; }

float touch_target(const App& app) { return app.coarse_pointer ? std::round(44.0f * app.dpr) : 0.0f; }

void same_line_if_room(float width) {
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + width <= right) ImGui::SameLine();
}

void same_line_if_fits(const char* next_label) {
  // (After wrapped text the next item would start beside its last line, not its first.)
  if (ImGui::GetItemRectSize().y >= ImGui::GetTextLineHeight() * 1.5f) return;
  same_line_if_room(ImGui::CalcTextSize(next_label, nullptr, true).x + ImGui::GetStyle().FramePadding.x * 2);
}

bool touch_button(App& app, const char* label) {
  const float natural = ImGui::CalcTextSize(label, nullptr, true).x + ImGui::GetStyle().FramePadding.x * 2;
  return ImGui::Button(label, ImVec2(std::max(natural, touch_target(app)), 0));
}

bool small_button(App& app, const char* label) {
  return app.coarse_pointer ? ImGui::Button(label, ImVec2(0, touch_target(app))) : ImGui::SmallButton(label);
}

void app_apply_style(App& app) { apply_style(app.dpr * app.text_scale, touch_target(app)); }

std::optional<std::string> pack_image_base(const App& app, const std::string& pack_file, const Preview* preview) {
  if (preview) return preview->from_url ? std::optional<std::string>(preview->source) : std::nullopt;
  return app.base_url + pack_file;
}

MdStyle md_style(App& app) {
  MdStyle s;
  s.fonts = &app.fonts;
  Platform* p = app.platform;
  s.open_link = [p](const std::string& url) { p->open_url(url); };
  s.images = &app.images;
  s.dpr = app.dpr;
  const Exercise* ex = app.screen == Screen::Exercise ? app.ex.exercise : nullptr;
  s.image_base = ex ? pack_image_base(app, ex->file, preview_of(app, ex)) : std::optional<std::string>(app.base_url);
  return s;
}

void markdown(App& app, const std::string& text) { draw_markdown(text, md_style(app)); }

void pack_markdown(App& app, const std::string& text, const std::optional<std::string>& image_base) {
  MdStyle s = md_style(app);
  s.image_base = image_base;
  draw_markdown(text, s);
}

bool button(const char* label, bool primary) {
  if (primary) {
    // Hovered and held: the accent a little lighter and darker (alpha over the page colour).
    ImVec4 acc = ImGui::ColorConvertU32ToFloat4(color::accent());
    auto shade = [&](float k) { return ImVec4(acc.x * k, acc.y * k, acc.z * k, 1); };
    ImGui::PushStyleColor(ImGuiCol_Button, acc);
    ImGui::PushStyleColor(ImGuiCol_ButtonHovered, shade(theme_is_dark() ? 1.1f : 0.9f));
    ImGui::PushStyleColor(ImGuiCol_ButtonActive, shade(theme_is_dark() ? 1.2f : 0.8f));
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(color::on_accent()));
  }
  bool r = ImGui::Button(label);
  if (primary) ImGui::PopStyleColor(4);
  return r;
}

void text_colored(ImU32 col, const char* text) {
  ImGui::PushStyleColor(ImGuiCol_Text, col);
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(text);
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
}

// ------------------------------------------------------------------ the frame

static void top_bar(App& app) {
  ImGuiStyle& s = ImGui::GetStyle();
  ImGui::PushFont(app.fonts.heading);
  ImGui::TextUnformatted("dtx");
  ImGui::PopFont();
  ImGui::SameLine();
  float right_w = 0;
  const char* course = "Course";
  const char* settings = "Settings";
  const char* lab = "Lab";
  right_w = ImGui::CalcTextSize(course).x + ImGui::CalcTextSize(lab).x + ImGui::CalcTextSize(settings).x +
            s.FramePadding.x * 6 + s.ItemSpacing.x * 2;
  int streak = current_streak(app.progress, app.platform->today());
  char buf[96];
  std::snprintf(buf, sizeof buf, "streak %d day%s", streak, streak == 1 ? "" : "s");
  float streak_w = ImGui::CalcTextSize(buf).x + s.ItemSpacing.x;
  float avail = ImGui::GetContentRegionAvail().x;
  if (avail > right_w + streak_w + em(app) * 2) {
    ImGui::SetCursorPosX(ImGui::GetCursorPosX() + avail - right_w - streak_w);
    ImGui::AlignTextToFramePadding();
    ImGui::TextDisabled("%s", buf);
    ImGui::SameLine();
  } else {
    ImGui::SetCursorPosX(ImGui::GetCursorPosX() + std::max(0.0f, avail - right_w));
  }
  if (touch_button(app, "Course##nav-course")) app.screen = Screen::CourseMap;
  ImGui::SameLine();
  if (touch_button(app, "Lab##nav-lab")) app.screen = Screen::Lab;
  ImGui::SameLine();
  if (touch_button(app, "Settings##nav-settings")) app.screen = Screen::Settings;
  ImGui::Separator();
}

// Per-frame bookkeeping before anything is drawn: another tab's progress, the widgets' clock
// (after an idle pause the first frame must not jump), a field let go of.
static void begin_frame(App& app) {
  if (app.platform->storage_changed_elsewhere(kProgressKey)) merge_stored_progress(app);
  double now = app.platform->now_ms();
  app.frame_dt = app.last_frame_ms > 0 ? std::clamp((now - app.last_frame_ms) / 1000.0, 0.0, 0.1) : 0.0;
  app.last_frame_ms = now;
  app.widget_animating = false;
  app.drawn_widget = nullptr;
  app.images.begin_frame(app.frame);
  if (app.release_field) {
    app.release_field = false;
    ImGui::ClearActiveID();
  }
}

// Where the page is scrolled. A new screen, exercise or instance starts at its top, not where
// the last one was scrolled; Back and Forward return to where that screen was scrolled (the
// target is set again for a few frames: ImGui clamps it to the previous frame's content
// height, which on the first frame of a new screen is the old screen's).
static void scroll_page(App& app) {
  std::string place = std::string(screen_name(app.screen)) + "|" + app.ex.id + "|" +
                      std::to_string(app.ex.inst ? app.ex.inst->seed : 0);
  if (place != app.last_place) {
    // Back on the map from an exercise: the keyboard's focus returns to that exercise's row.
    if (app.screen == Screen::CourseMap && app.last_place.rfind("exercise|", 0) == 0 && keyboard_focus_id() != 0)
      app.return_focus = app.last_place.substr(9, app.last_place.find('|', 9) - 9);
    app.last_place = place;
    app.scroll_frames = app.scroll_restore ? 4 : 0;
    app.scroll_wait = 0;
    if (!app.scroll_restore) ImGui::SetScrollY(0.0f);
    app.top_frames = !app.scroll_restore && app.screen == Screen::Exercise ? 3 : 0;
  }
  // (Not on the loading screen: a reloaded page's exercise or map is restored once it is up,
  // and held while the content is still shorter than the place, as packs arrive.)
  if (app.scroll_restore && app.screen != Screen::Loading) {
    const bool short_yet = ImGui::GetScrollMaxY() + 1 < *app.scroll_restore && ++app.scroll_wait < 120;
    if (app.scroll_frames > 0 || short_yet) {
      ImGui::SetScrollY(*app.scroll_restore);
      if (!short_yet) --app.scroll_frames;
    } else {
      app.scroll_restore.reset();
    }
  }
  if (app.scroll_request) {
    ImGui::SetScrollY(*app.scroll_request);
    app.scroll_request.reset();
  }
}

// The page's column: centred and at most ~50 em wide so lines stay readable on wide screens,
// the full width on a phone. Returns the margin left of it.
static float page_column(App& app) {
  // In 1.86 a child without padding reports its scrollbar's width as content region: stop
  // before the scrollbar (with a small gap), or on a phone the right edge of every line is
  // drawn under it and clipped.
  ImGuiWindow* page = ImGui::GetCurrentWindow();
  float full = ImGui::GetContentRegionAvail().x;
  if (page->ScrollbarY)
    full = std::min(full, page->InnerRect.Max.x - ImGui::GetCursorScreenPos().x - em(app) * 0.5f);
  float width = std::min(full, em(app) * 50);
  float margin = (full - width) * 0.5f;
  app.content_width = width;
  // Full-width widgets (collapsing headers, selectables, tables) end at the column's right
  // edge, not the window's: narrow the window's work rectangle to the column.
  page->WorkRect.Max.x = page->WorkRect.Min.x + margin + width;
  page->ContentRegionRect.Max.x = page->WorkRect.Max.x;
  return margin;
}

static void draw_screen(App& app) {
  switch (app.screen) {
    case Screen::Loading: {
      ImGui::Dummy(ImVec2(1, em(app) * 2));
      ImGui::TextUnformatted("Loading exercises…");
      break;
    }
    case Screen::CourseMap: draw_course_map(app); break;
    case Screen::Exercise: draw_exercise_screen(app); break;
    case Screen::Settings: draw_settings(app); break;
    case Screen::Assignment: draw_assignment(app); break;
    case Screen::Lab: draw_lab(app); break;
    case Screen::NotFound: draw_not_found(app); break;
  }
  app.submit_requested = false;  // an Enter that no exercise took
}

// The page's child window: scrolled to its place, the screen drawn in the column.
static void draw_page(App& app) {
  ImGui::BeginChild("##page", ImVec2(0, 0), false, ImGuiWindowFlags_NoBackground);
  scroll_page(app);
  text_layer_set_page(ImGui::GetCurrentWindow());
  const float margin = page_column(app);
  // Indent(0) would indent by the style's IndentSpacing (1.86): on a phone, where the margin
  // is 0, that pushed every line 21 px right of the column and under the right edge.
  if (margin > 0) ImGui::Indent(margin);
  ImGui::PushItemWidth(app.content_width);
  ImGui::BeginGroup();
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + app.content_width);
  draw_screen(app);
  ImGui::PopTextWrapPos();
  ImGui::EndGroup();
  ImGui::PopItemWidth();
  if (margin > 0) ImGui::Unindent(margin);
  ImGui::Dummy(ImVec2(1, em(app) * 3));
  // A new exercise opens at its top (title and numbers in view), also where its first field,
  // focused for typing, is below the fold (a phone, a zoomed page): ImGui scrolls to a field
  // it focuses, and this later target wins.
  if (app.top_frames > 0) {
    --app.top_frames;
    ImGui::SetScrollY(0.0f);
  }
  if (!app.scroll_restore && app.screen != Screen::Loading) {
    if (app.scroll_memory.size() > 1000) app.scroll_memory.clear();  // every slider value is an address
    app.scroll_memory[app.address] = ImGui::GetScrollY();
  }
  ImGui::EndChild();
}

void app_frame(App& app) {
  begin_frame(app);
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(ImGui::GetIO().DisplaySize);
  // No background: the frame starts cleared to the page colour, and a full-screen quad blended
  // over it costs software-GL browsers as much as the clear again, every frame.
  ImGui::Begin("##root", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse |
                   ImGuiWindowFlags_NoBackground);
  top_bar(app);
  draw_page(app);
  ImGui::End();
  sync_address(app);
}

}  // namespace dtx::web
