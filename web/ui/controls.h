// Small ImGui helpers every screen, view and widget uses: the accent button, buttons a finger
// can hit, wrapped coloured text, placing the next item beside the last when it fits, and drag handles.
#pragma once

#include <string>

#include "imgui.h"
#include "ui/ui_env.h"

namespace dtx::web {

bool button(const char* label, bool primary = false);
// A button at least touch_target() wide ("Lab", "▲").
bool touch_button(const UiEnv& ui, const char* label);
// A link-sized button ("Copy link", "← Course"): a full-height button on a coarse pointer.
bool small_button(const UiEnv& ui, const char* label);
void text_colored(ImU32 col, const char* text);
// A one-line field with a placeholder, `width` wide, named `name` for a screen reader (a
// textbox whose value and placeholder the text layer carries): Search's, the glossary's filter.
void named_text_field(const char* id, const std::string& name, const char* placeholder, std::string& value, float width);
// After a line of text: SameLine() when the last item is one line and a button of this label
// fits after it; otherwise the button goes under it (a phone never cuts it at the edge).
void same_line_if_fits(const char* next_label);
// SameLine() when an item `width` wide fits after the last one (a row of radio buttons wraps).
void same_line_if_room(float width);
// Drag handles (ordering rows' grips): a finger that goes down on one holds it at once, so
// moving it drags instead of scrolling the page. Everything else scrolls under a vertical swipe.
void mark_draggable();
bool is_draggable(unsigned id);

}  // namespace dtx::web
