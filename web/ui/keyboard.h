// The page by keyboard alone. ImGui 1.86's navigation gives arrows (move between items),
// Space (press) and a focus ring; what it lacks for a web page is built here:
//   - Tab / Shift+Tab visit every control in reading order (1.86 tabs between text fields
//     only), scrolling it into view; a text field reached by Tab starts typing;
//   - Enter presses the focused button or link (1.86 presses with Space only), and on an
//     answer control (an option, a line, a row) submits, as Enter submits a form on the web;
//   - Escape leaves the field being typed in and keeps its text (1.86 reverts it).
// The multi-line code editor keeps Tab for indenting: Escape, then Tab, moves on.
#pragma once

#include "imgui.h"

namespace dtx::web {

void keyboard_init();

// Tab pressed: moves the focus and returns true, or returns false when the key belongs to the
// field being edited (the code editor).
bool keyboard_tab(bool backwards);

// Escape pressed while a field is being edited: leaves it, text kept, focus on it (true).
bool keyboard_escape_field();

// Call between ImGui_Impl*_NewFrame and ImGui::NewFrame: turns a fresh Enter into a press of
// the focused control; true when it submits instead (Enter on an answer control, Ctrl+Enter):
// the caller sets App::submit_requested.
bool keyboard_before_frame();
// Call after ImGui::Render: notes where a click this frame put the focus (Tab goes on from it).
void keyboard_after_frame();

// Called by exercise views right after an option, line or row: Enter there submits.
void mark_answer_control();
// Called right after a text field: Tab into it starts typing.
void mark_text_field();

// Puts the keyboard focus on the item just submitted (a row that moved under the keys).
void focus_last_item();

// The text layer's proxy for item `id` took the DOM focus (a screen reader moved there) or
// was activated (its default action, "click"): the keyboard focus goes to the item, and an
// activation presses it next frame as Enter or Space would (ImGui's own press, the same one a
// click makes). False if the item is not on the page.
bool keyboard_focus_control(ImGuiID id, bool activate);

// The item the keyboard focus is on (0 when the pointer was used last), for tests.
ImGuiID keyboard_focus_id();

}  // namespace dtx::web
