// Glossary (#/glossary, #/glossary/TERM): every term the packs define (engine/glossary.h),
// alphabetical, each with its other forms, its definition and its source; a field filters
// them; an address with a term scrolls to it and marks it. The same definitions open in a
// popover from a term's first use in a prompt (draw_term_popover): a click or a tap there, a
// hover shows it as a tooltip (ui/markdown.cpp).
#include <algorithm>

#include "imgui.h"
#include "screens/screens.h"
#include "search.h"
#include "text.h"
#include "ui/access.h"
#include "ui/controls.h"
#include "ui/text_layer.h"
#include "ui/theme.h"
#include "route.h"

namespace dtx::web {

namespace {

size_t library_signature(const Library& lib) {
  size_t sig = lib.packs.size();
  for (const auto& p : lib.packs) sig = sig * 31 + p.glossary.size() + 1;
  return sig;
}

bool entry_matches(const GlossaryEntry& e, const std::vector<std::string>& words) {
  std::string hay = to_lower(e.term + " " + plain_text(e.definition));
  for (const auto& a : e.aliases) hay += " " + to_lower(a);
  return std::all_of(words.begin(), words.end(), [&](const std::string& w) { return hay.find(w) != std::string::npos; });
}

void filter_field(App& app) {
  named_text_field("##glossary-filter", "Filter the glossary", "Filter the terms", app.glossary.filter,
                   std::min(app.content_width, em(app.ui) * 24));
}

// One entry: the term as a heading, its other forms, the definition, the source.
void entry_block(App& app, const GlossaryEntry& e) {
  GlossaryState& g = app.glossary;
  const bool selected = e.slug == g.selected;
  const ImVec2 top = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->ChannelsSplit(2);
  dl->ChannelsSetCurrent(1);
  ImGui::PushFont(app.ui.fonts.bold);
  heading_text(e.term, 2);
  ImGui::PopFont();
  if (!e.aliases.empty()) {
    std::string also = "Also: ";
    for (size_t i = 0; i < e.aliases.size(); ++i) also += (i ? ", " : "") + e.aliases[i];
    ImGui::PushStyleColor(ImGuiCol_Text, color::muted());
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + app.content_width);
    ImGui::TextWrapped("%s", also.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
  }
  pack_markdown(app, e.definition, app.base_url);
  if (!e.source.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, color::muted());
    ImGui::TextWrapped("Source: %s", e.source.c_str());
    ImGui::PopStyleColor();
  }
  const ImVec2 bottom = ImGui::GetCursorScreenPos();
  dl->ChannelsSetCurrent(0);
  if (selected) {
    const float pad = em(app.ui) * 0.4f;
    dl->AddRectFilled(ImVec2(top.x - pad, top.y - pad), ImVec2(top.x + app.content_width + pad, bottom.y),
                      color::highlight(), pad);
    if (g.scroll_to_selected) {
      ImGui::SetScrollFromPosY(top.y - ImGui::GetWindowPos().y - em(app.ui), 0.0f);
      g.scroll_to_selected = false;
    }
  }
  dl->ChannelsMerge();
  ImGui::Spacing();
}

}  // namespace

const Glossary& course_glossary(App& app) {
  GlossaryState& g = app.glossary;
  size_t sig = library_signature(app.lib);
  if (sig != g.built_sig) {
    g.terms = library_glossary(app.lib);
    g.built_sig = sig;
  }
  return g.terms;
}

void open_glossary(App& app, const std::string& slug) {
  app.screen = Screen::Glossary;
  app.glossary.selected = slug;
  app.glossary.scroll_to_selected = !slug.empty();
  app.glossary.popover.clear();
}

void draw_glossary(App& app) {
  GlossaryState& g = app.glossary;
  const Glossary& terms = course_glossary(app);
  ImGui::PushFont(app.ui.fonts.heading);
  heading_text("Glossary", 1);
  ImGui::PopFont();
  if (terms.empty()) {
    ImGui::TextDisabled(app.load.library_ready ? "The course's packs define no terms." : "Loading the course's terms…");
    return;
  }
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + app.content_width);
  ImGui::TextWrapped("%zu terms the exercises use, as the course's packs define them. A term's first use in a "
                     "question shows its definition when you point at it or tap it.",
                     terms.entries.size());
  ImGui::PopTextWrapPos();
  // (said above the list, where an address that names no term lands)
  if (!g.selected.empty() && !terms.find(g.selected) && app.load.library_ready)
    text_colored(color::wrong(), ("The glossary has no term \"" + g.selected + "\". Every term is listed below.").c_str());
  filter_field(app);
  std::vector<std::string> words = search_words(g.filter);
  size_t shown = 0;
  ImGui::Separator();
  for (const auto& e : terms.entries) {
    if (!words.empty() && !entry_matches(e, words)) continue;
    ++shown;
    entry_block(app, e);
  }
  if (!shown) ImGui::TextWrapped("No term matches \"%s\".", g.filter.c_str());
}

void open_term_popover(App& app, const GlossaryEntry& e, ImRect word) {
  GlossaryState& g = app.glossary;
  g.popover = e.slug;
  g.popover_word = word;
  g.popover_opening = true;
}

// Below the word (above it when there is no room), inside the window, at most 24 em wide.
void draw_term_popover(App& app) {
  GlossaryState& g = app.glossary;
  if (g.popover.empty()) return;
  const GlossaryEntry* e = course_glossary(app).find(g.popover);
  if (!e) {
    g.popover.clear();
    return;
  }
  const ImVec2 view = ImGui::GetMainViewport()->Size;
  const float margin = em(app.ui) * 0.5f, width = std::min(em(app.ui) * 24, view.x - 2 * margin);
  if (g.popover_opening) {
    ImGui::OpenPopup("##term-popover");
    float x = std::clamp(g.popover_word.Min.x, margin, view.x - width - margin);
    bool below = g.popover_word.Max.y + em(app.ui) * 10 < view.y;
    ImGui::SetNextWindowPos(ImVec2(x, below ? g.popover_word.Max.y + 4 : g.popover_word.Min.y - 4), ImGuiCond_Always,
                            ImVec2(0, below ? 0 : 1));
    g.popover_opening = false;
  }
  ImGui::SetNextWindowSize(ImVec2(width, 0));
  if (!ImGui::BeginPopup("##term-popover")) {
    g.popover.clear();
    return;
  }
  ImGui::PushTextWrapPos(0);
  ImGui::PushFont(app.ui.fonts.bold);
  ImGui::TextUnformatted(e->term.c_str());
  ImGui::PopFont();
  ImGui::TextUnformatted(plain_text(e->definition).c_str());
  ImGui::PopTextWrapPos();
  Access a;
  bool all = small_button(app.ui, "In the glossary##term-glossary");
  a.role = Role::Link;
  Route to;
  to.kind = Route::Glossary;
  to.id = e->slug;
  a.href = format_route(to);
  access_item(std::move(a));
  ImGui::SameLine();
  bool close = small_button(app.ui, "Close##term-close") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false);
  if (all || close) {
    ImGui::CloseCurrentPopup();
    g.popover.clear();
  }
  ImGui::EndPopup();
  if (all) open_glossary(app, e->slug);
}

}  // namespace dtx::web
