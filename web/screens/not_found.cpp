// An address that leads nowhere: an exercise id no pack has (renamed, removed, a link cut
// short) or an address this site does not write. Says which, offers the nearest exercises by
// id, and a way back to the course map.
#include <algorithm>

#include "screens/screens.h"

namespace dtx::web {

namespace {

// Exercises whose id shares the chapter prefix ("ring." of "ring.volme") or contains the
// asked id: a renamed exercise is usually next to its old name.
std::vector<const Exercise*> near_ids(const App& app, const std::string& id) {
  std::vector<const Exercise*> out;
  std::string prefix = id.substr(0, id.find('.') == std::string::npos ? 0 : id.find('.') + 1);
  for (const auto& p : app.lib.packs)
    for (const auto& e : p.exercises)
      if ((!prefix.empty() && e.id.rfind(prefix, 0) == 0) || (id.size() >= 3 && e.id.find(id) != std::string::npos))
        out.push_back(&e);
  if (out.size() > 8) out.resize(8);
  return out;
}

}  // namespace

void draw_not_found(App& app) {
  const Route& r = app.nav.not_found;
  ImGui::Dummy(ImVec2(1, em(app.ui)));
  ImGui::PushFont(app.ui.fonts.heading);
  if (r.kind == Route::Exercise) {
    std::string head = "No exercise \"" + r.id + "\"";
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + app.content_width);
    ImGui::TextUnformatted(head.c_str());
    ImGui::PopTextWrapPos();
  } else {
    ImGui::TextUnformatted("This address leads nowhere");
  }
  ImGui::PopFont();
  if (r.kind == Route::Exercise) {
    markdown(app, "No pack loaded on this page has an exercise with this id. It may have been renamed or "
                  "removed, or the link was cut short.");
    auto near = near_ids(app, r.id);
    if (!near.empty()) {
      ImGui::Spacing();
      ImGui::TextUnformatted("Exercises with a similar id:");
      for (const Exercise* e : near) {
        std::string label = e->title + "  (" + e->id + ")##near-" + e->id;
        if (ImGui::Selectable(label.c_str(), false, 0, ImVec2(0, touch_target(app.ui)))) open_exercise(app, e->id, 0);
      }
    }
  } else {
    text_colored(color::muted(), (r.error.empty() ? std::string("Unknown address.") : r.error + ".").c_str());
  }
  ImGui::Spacing();
  if (button("Go to the course map##not-found-course", true)) {
    app.nav.course_chapter = -1;
    app.screen = Screen::CourseMap;
  }
}

}  // namespace dtx::web
