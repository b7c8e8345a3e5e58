// The address (route.h): the screen a fragment names and what the address bar shows for the
// screen on show, the Lab's inputs in its query, the page's title, and the address a fragment
// leads to when it arrives before the packs it needs.
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

#include "app_internal.h"

namespace dtx::web {


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
  if (!app.widgets.lab_widget) return q;
  const sim::WidgetValues& v = app.widgets.lab_widget->inputs();
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
  app.nav.lab_address_error.clear();
  std::string kind = r.id.empty() ? "ring" : r.id;
  const sim::WidgetKind* k = sim::find_widget_kind(kind);
  if (!k) {
    std::string names;
    for (const sim::WidgetKind* w : sim::widget_kinds()) names += std::string(names.empty() ? "" : ", ") + w->kind;
    app.nav.lab_address_error = "The address names no Lab widget \"" + kind + "\" (there are: " + names + ").";
    if (!app.widgets.lab_widget) select_lab_widget(app, "ring");
    return;
  }
  // The address's inputs start from the defaults; the same plain widget is left playing.
  if (!app.widgets.lab_widget || app.widgets.lab_kind != kind || !r.query.empty() || !lab_query(app).empty())
    select_lab_widget(app, kind);
  if (!app.widgets.lab_widget || r.query.empty()) return;
  sim::WidgetValues v = app.widgets.lab_widget->inputs();
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
  app.widgets.lab_widget->set_inputs(v);
  if (!problems.empty()) {
    app.nav.lab_address_error = "Part of the address was not used: ";
    for (size_t i = 0; i < problems.size(); ++i) app.nav.lab_address_error += (i ? "; " : "") + problems[i];
    app.nav.lab_address_error += ".";
  }
}

}  // namespace

void apply_route(App& app, const Route& r) {
  switch (r.kind) {
    case Route::Invalid:
      app.nav.not_found = r;
      app.screen = Screen::NotFound;
      return;
    case Route::Course:
      app.screen = Screen::CourseMap;
      app.nav.course_chapter = r.chapter;
      if (packs_load_lazily(app) && r.chapter >= 0) request_pack(app, outline_file_of_chapter(app, r.chapter));
      // Back/Forward restore the scroll instead; a link or a reload shows the chapter.
      app.nav.focus_chapter = app.nav.scroll_restore ? -1 : r.chapter;
      app.nav.focus_notes = r.notes;
      app.nav.focus_frames = 0;
      return;
    case Route::Settings: app.screen = Screen::Settings; return;
    case Route::Practice: app.screen = Screen::Practice; return;
    case Route::Review: app.screen = Screen::Review; return;
    case Route::Glossary: open_glossary(app, r.id); return;
    case Route::Search: {
      std::string q;
      for (const auto& [k, v] : r.query)
        if (k == "q") q = v;
      open_search(app, q, true);
      return;
    }
    case Route::Assignment: app.screen = app.course ? Screen::Assignment : Screen::CourseMap; return;
    case Route::Lab: apply_lab_route(app, r); return;
    case Route::Exercise: {
      // A deep link opens as soon as its pack is in; until every pack (and ?pack= preview)
      // has arrived, one not found yet may still come.
      if (!find_exercise(app, r.id) && (!app.load.library_ready || !app.preview_requests.empty())) {
        app.nav.route_pending = r;
        if (packs_load_lazily(app)) request_pack_of(app, r.id);
        return;
      }
      if (!find_exercise(app, r.id)) {
        app.nav.not_found = r;
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
  std::string fragment = app.screen == Screen::NotFound ? app.nav.address : format_route(current_route(app));
  std::string title = page_title(app);
  if (fragment == app.nav.address && title == app.nav.title_shown) return;
  bool push = fragment != app.nav.address && !parse_route(app.nav.address).same_screen(parse_route(fragment));
  app.platform->set_address(fragment, title, push);
  app.nav.address = fragment;
  app.nav.title_shown = title;
}


Route current_route(const App& app) {
  Route r;
  switch (app.screen) {
    case Screen::Loading: return app.nav.route_pending ? *app.nav.route_pending : parse_route(app.nav.address);
    case Screen::CourseMap: r.chapter = app.nav.course_chapter; break;
    case Screen::Settings: r.kind = Route::Settings; break;
    case Screen::Practice: r.kind = Route::Practice; break;
    case Screen::Review: r.kind = Route::Review; break;
    case Screen::Glossary:
      r.kind = Route::Glossary;
      r.id = app.glossary.selected;
      break;
    case Screen::Search:
      r.kind = Route::Search;
      r.query = {{"q", app.search.input}};
      break;
    case Screen::Assignment: r.kind = Route::Assignment; break;
    case Screen::NotFound: return app.nav.not_found;
    case Screen::Lab:
      r.kind = Route::Lab;
      r.id = app.widgets.lab_kind.empty() ? "ring" : app.widgets.lab_kind;
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
    case Screen::Practice: return "Practice · " + site;
    case Screen::Review: return "My mistakes · " + site;
    case Screen::Glossary: {
      const GlossaryEntry* e = app.glossary.terms.find(app.glossary.selected);
      return (e ? e->term + " · Glossary" : std::string("Glossary")) + " · " + site;
    }
    case Screen::Search: return (app.search.input.empty() ? std::string("Search") : "Search: " + app.search.input) + " · " + site;
    case Screen::Assignment:
      return (app.course && app.course->a ? app.course->a->title : std::string("Assignment")) + " · " + site;
    case Screen::Lab: {
      const sim::WidgetKind* k = sim::find_widget_kind(app.widgets.lab_kind);
      return std::string(k ? k->title : "Lab") + " · Lab · " + site;
    }
    case Screen::NotFound:
      return app.nav.not_found.kind == Route::Exercise ? "No exercise " + app.nav.not_found.id + " · " + site
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
  if (fragment == app.nav.address && app.screen != Screen::Loading) return;  // the page's own write
  Route r = parse_route(fragment);
  app.nav.address = r.kind == Route::Invalid ? fragment : format_route(r);
  if (app.nav.address != fragment && app.platform) {
    // "#/ex/x/0" is written "#/ex/x": same entry, tidied (the title follows with the screen)
    app.platform->set_address(app.nav.address, "", false);
  }
  auto mem = app.nav.scroll_memory.find(app.nav.address);
  if (mem != app.nav.scroll_memory.end()) app.nav.scroll_restore = mem->second;
  if (r.kind == Route::Invalid) app.nav.not_found = r;
  app.nav.route_pending.reset();  // the newest address wins over one still waiting
  if (!app.load.index_loaded && r.kind != Route::Exercise) {
    // shown once the pack index is in (build_library leaves Loading for the course map first)
    app.nav.route_pending = r;
    return;
  }
  apply_route(app, r);
}

}  // namespace dtx::web
