// Settings: text size, and the student's progress as a file (export, import).
#include <cstdio>

#include "progress.h"
#include "screens/screens.h"
#include "ui/access.h"
#include "ui/text_layer.h"

namespace dtx::web {

namespace {

void section_heading(App& app, const char* title) {
  ImGui::PushFont(app.ui.fonts.bold);
  heading_text(title, 2);
  ImGui::PopFont();
}

void text_size_section(App& app) {
  section_heading(app, "Text size");
  ImGui::Text("%.0f%%", app.settings.text_scale * 100);
  ImGui::SameLine();
  const bool smaller = ImGui::Button("Smaller##text-smaller");
  access_item(Role::Button, "Smaller text");
  if (smaller && app.settings.text_scale > 0.76f) {
    app.settings.text_scale -= 0.125f;
    app.fonts_dirty = true;
    app.platform->storage_set("dtx.text-scale", std::to_string(app.settings.text_scale));
  }
  ImGui::SameLine();
  const bool larger = ImGui::Button("Larger##text-larger");
  access_item(Role::Button, "Larger text");
  if (larger && app.settings.text_scale < 1.99f) {
    app.settings.text_scale += 0.125f;
    app.fonts_dirty = true;
    app.platform->storage_set("dtx.text-scale", std::to_string(app.settings.text_scale));
  }
}

void theme_section(App& app) {
  section_heading(app, "Theme");
  const char* themes[] = {"Follow the system##theme-system", "Light##theme-light", "Dark##theme-dark"};
  for (int i = 0; i < 3; ++i) {
    if (i) {
      const ImGuiStyle& st = ImGui::GetStyle();
      same_line_if_room(ImGui::GetFrameHeight() + st.ItemInnerSpacing.x + ImGui::CalcTextSize(themes[i], nullptr, true).x);
    }
    const bool picked = ImGui::RadioButton(themes[i], app.settings.theme_choice == i);
    access_item(Role::Radio, "", "", app.settings.theme_choice == i ? 1 : 0, "Theme");
    if (picked) {
      app.settings.theme_choice = i;
      app.platform->storage_set("dtx.theme", i == 0 ? "system" : i == 1 ? "light" : "dark");
      app_apply_theme(app);
    }
  }

  // Motion is the system's choice (there is nothing to store): say which one is in force.
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + app.content_width);
  ImGui::TextDisabled(app.ui.reduced_motion
                          ? "Motion: your system asks for reduced motion, so the widgets step from one picture to the next."
                          : "Motion: the widgets animate between steps (a system setting for reduced motion makes them step).");
  ImGui::PopTextWrapPos();
}

// The site's accessibility statement (docs/accessibility.md, published by `make dist` as
// accessibility.html): what is supported, what is not, how it is tested, and whom to tell.
void accessibility_section(App& app) {
  section_heading(app, "Accessibility");
  ImGui::TextWrapped("How far this site meets WCAG 2.1 AA, criterion by criterion, what is known not to work and "
                     "whom to tell.");
  if (small_button(app.ui, "Accessibility statement (opens a new tab)##accessibility-statement"))
    app.platform->open_url("accessibility.html");
  link_item("Accessibility statement (opens a new tab)", "accessibility.html");
}

void keyboard_section(App& app) {
  section_heading(app, "Keyboard");
  // What web/ui/keyboard.cpp and the exercise screen do with keys, in the student's words.
  static const char* const kKeys[][2] = {
      {"Tab, Shift+Tab", "next or previous control, in reading order"},
      {"Space", "press the focused button, pick the focused option, line or row"},
      {"Enter", "press the focused button or link; on an answer, submit it"},
      {"Ctrl+Enter", "submit, even while typing (in the code editor too)"},
      {"Arrow keys", "move between options, lines and rows"},
      {"Space, then ↑ ↓", "ordering: pick up a row, move it (Home/End: top/bottom), Space to put it down"},
      {"Space, then ← →", "a slider: take it, change its value (Enter: type one), Space or Esc to let go"},
      {"Esc", "leave the field you are typing in (Tab in the code editor indents: Esc, then Tab, moves on); "
              "out of a field, back to the course"},
      {"h", "next hint (unless single-key shortcuts are off)"},
      {"n", "next exercise (unless single-key shortcuts are off)"},
      {"/", "search the course, from any screen (unless single-key shortcuts are off)"},
  };
  // Keys without a modifier can be set off by speech input or a stray press (WCAG 2.1.4).
  bool letters = app.settings.single_key_shortcuts;
  if (ImGui::Checkbox("Single-key shortcuts (h, n, /)##single-keys", &letters)) {
    app.settings.single_key_shortcuts = letters;
    app.platform->storage_set("dtx.single-key-shortcuts", letters ? "on" : "off");
  }
  access_item(Role::Checkbox, "", "", letters ? 1 : 0);
  const float key_w = ImGui::CalcTextSize("Space, then ↑ ↓").x + ImGui::GetStyle().ItemSpacing.x * 2;
  const bool narrow = app.content_width < key_w * 2.5f;  // a phone: key above, meaning below
  for (const auto& k : kKeys) {
    ImGui::PushFont(app.ui.fonts.mono);
    ImGui::TextUnformatted(k[0]);
    ImGui::PopFont();
    if (!narrow) ImGui::SameLine(key_w);
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + (narrow ? app.content_width : app.content_width - key_w));
    ImGui::TextUnformatted(k[1]);
    ImGui::PopTextWrapPos();
  }
}

// Where progress lives, export and import.
void progress_section(App& app) {
  section_heading(app, "Your progress");
  markdown(app, "Progress is stored in this browser only (localStorage), as a versioned JSON document, and tabs "
                "open on this site share it. Export it to keep a copy or to move to another browser; importing "
                "merges the file into the progress here (attempts already counted are not counted twice; the "
                "record before the import is kept aside in storage first).");
  char buf[128];
  const size_t tried = app.store.progress.exercises.size();
  const int best = app.store.progress.best_streak_days;
  std::snprintf(buf, sizeof buf, "%zu exercise%s with attempts, best streak %d day%s", tried, tried == 1 ? "" : "s",
                best, best == 1 ? "" : "s");
  ImGui::TextDisabled("%s", buf);
  if (ImGui::Button("Export progress##export")) {
    app.platform->download("dtx-progress-" + app.platform->today() + ".json", write_progress(app.store.progress));
  }
  ImGui::SameLine();
  if (ImGui::Button("Import progress…##import")) app.platform->pick_file();
  if (!app.import_message.empty()) {
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + app.content_width);
    ImGui::TextUnformatted(app.import_message.c_str());
    ImGui::PopTextWrapPos();
  }
}

void notices_section(App& app) {
  if (!app.notices.empty()) {
    ImGui::Spacing();
    ImGui::PushFont(app.ui.fonts.bold);
    ImGui::TextUnformatted("Notices");
    ImGui::PopFont();
    for (const auto& n : app.notices) {
      ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + app.content_width);
      ImGui::TextUnformatted(n.c_str());
      ImGui::PopTextWrapPos();
    }
  }
}

}  // namespace

void draw_settings(App& app) {
  ImGui::PushFont(app.ui.fonts.heading);
  heading_text("Settings", 1);
  ImGui::PopFont();

  text_size_section(app);

  ImGui::Spacing();
  theme_section(app);

  ImGui::Spacing();
  keyboard_section(app);

  ImGui::Spacing();
  progress_section(app);
  notices_section(app);

  ImGui::Spacing();
  accessibility_section(app);
}

}  // namespace dtx::web
