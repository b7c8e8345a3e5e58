// Search (#/search?q=words): titles, prompts, chapter notes and glossary terms from the index `make dist`
// writes (engine/search.h, search-index.json beside index.html), fetched when the screen first opens
// and kept by the service worker like every file of the site, so it works offline. Results
// come as the student types; each is a link to its exercise or to its chapter's notes, with
// the words around the match. "/" opens it from anywhere (a single-key shortcut: Settings can
// turn it off).
#include <cstdio>

#include "imgui.h"
#include "misc/cpp/imgui_stdlib.h"
#include "screens/screens.h"
#include "ui/access.h"
#include "ui/controls.h"
#include "ui/keyboard.h"
#include "ui/text_layer.h"
#include "ui/theme.h"
#include "route.h"

namespace dtx::web {

namespace {

// Asks for the index once; a failed fetch is said on the screen and asked again on the next visit.
void request_index(App& app) {
  SearchState& s = app.search;
  if (s.loaded || s.request) return;
  s.error.clear();
  s.request = app.load.next_request++;
  app.platform->fetch(s.request, "search-index.json");  // beside index.html, not among the packs
}

std::string result_address(const SearchDoc& d) {
  Route r;
  if (d.kind == SearchDoc::Term) {
    r.kind = Route::Glossary;
    r.id = d.id;
  } else if (d.kind == SearchDoc::Notes) {
    r.kind = Route::Course;
    r.chapter = d.chapter;
    r.notes = true;
  } else {
    r.kind = Route::Exercise;
    r.id = d.id;
  }
  return format_route(r);
}

void open_result(App& app, const SearchDoc& d) {
  if (d.kind == SearchDoc::Exercise) {
    open_exercise(app, d.id, 0);
    return;
  }
  if (d.kind == SearchDoc::Term) {
    open_glossary(app, d.id);
    return;
  }
  app.screen = Screen::CourseMap;
  app.nav.course_chapter = app.nav.focus_chapter = d.chapter;
  app.nav.focus_notes = true;
  app.nav.focus_frames = 0;
}

void search_field(App& app) {
  SearchState& s = app.search;
  if (s.focus_field) {
    ImGui::SetKeyboardFocusHere();
    s.focus_field = false;
  }
  named_text_field("##search-field", "Search the course", "Words from a title, a question or the chapter notes", s.input,
                   std::min(app.content_width, em(app.ui) * 32));
}

// One result: its title as a link, where it is, and the words around the match.
// True when it was opened.
bool result_row(App& app, const SearchHit& h, size_t i) {
  const SearchDoc& d = app.search.index.docs[h.doc];
  const float rowh = std::max(ImGui::GetTextLineHeight(), touch_target(app.ui));
  ImGui::PushStyleVar(ImGuiStyleVar_SelectableTextAlign, ImVec2(0, 0.5f));
  // In the accent colour, as links are drawn in prose (at least 4.5:1 on the page: theme.cpp).
  ImGui::PushStyleColor(ImGuiCol_Text, color::accent());
  char id[32];
  std::snprintf(id, sizeof id, "##result-%zu", i);
  const bool go = ImGui::Selectable((d.title + id).c_str(), false, 0, ImVec2(app.content_width, rowh));
  ImGui::PopStyleColor();
  ImGui::PopStyleVar();
  {
    Access a;
    a.role = Role::Link;
    a.name = d.title;
    a.href = result_address(d);
    a.desc = d.kind == SearchDoc::Notes  ? "chapter notes"
             : d.kind == SearchDoc::Term ? "glossary"
                                         : "chapter " + std::to_string(d.chapter) + ", " + d.type;
    access_item(std::move(a));
  }
  const std::string where = d.kind == SearchDoc::Notes  ? "Chapter " + std::to_string(d.chapter) + " notes"
                            : d.kind == SearchDoc::Term ? std::string("Glossary")
                                                        : "Chapter " + std::to_string(d.chapter) + " · " + d.type;
  ImGui::TextDisabled("%s", where.c_str());
  if (!h.snippet.empty()) ImGui::TextWrapped("%s", h.snippet.c_str());
  ImGui::Spacing();
  if (go) open_result(app, d);
  return go;
}

}  // namespace

bool search_on_fetched(App& app, int id, bool ok, int status, const std::string& body) {
  SearchState& s = app.search;
  if (!s.request || id != s.request) return false;
  s.request = 0;
  std::string err;
  if (!ok) s.error = "The search index (search-index.json) could not be fetched (HTTP " + std::to_string(status) + ").";
  else if (!read_search_index(body, &s.index, &err)) s.error = "search-index.json: " + err;
  else s.loaded = true;
  s.hits_for = "\x01";  // search again with the index in
  return true;
}

void open_search(App& app, const std::string& query, bool focus) {
  app.screen = Screen::Search;
  app.search.input = query;
  app.search.focus_field = focus;
}

void draw_search(App& app) {
  SearchState& s = app.search;
  ImGui::PushFont(app.ui.fonts.heading);
  heading_text("Search", 1);
  ImGui::PopFont();
  request_index(app);
  search_field(app);
  if (!s.error.empty()) {
    text_colored(color::wrong(), s.error.c_str());
    return;
  }
  if (!s.loaded) {
    ImGui::TextDisabled("Loading the search index…");
    return;
  }
  if (s.hits_for != s.input) {
    s.hits = search(s.index, s.input, 50);
    s.hits_for = s.input;
  }
  if (search_words(s.input).empty()) {
    ImGui::TextWrapped("Type words from an exercise's title or question, or from a chapter's notes: \"bubble\", "
                       "\"ZeRO-3 traffic\", \"busBw\". Every word must match the start of a word.");
    return;
  }
  char line[160];
  std::snprintf(line, sizeof line, "%zu result%s", s.hits.size(), s.hits.size() == 1 ? "" : "s");
  ImGui::TextUnformatted(s.hits.empty() ? "Nothing matches every word. Try fewer or shorter words." : line);
  ImGui::Separator();
  for (size_t i = 0; i < s.hits.size(); ++i)
    if (result_row(app, s.hits[i], i)) return;
}

}  // namespace dtx::web
