// ImGui's item hooks (IMGUI_ENABLE_TEST_ENGINE) record every labelled item drawn in a frame:
// its stable id, label and rectangle. The browser exports them as window.dtx for Playwright;
// the headless-UI test uses them to find ID clashes and asserts.
#pragma once

#include <string>
#include <vector>

#include "imgui.h"
#include "imgui_internal.h"

namespace dtx::web {

struct HookItem {
  unsigned id = 0;
  std::string key;    // the part of the label after "##" (or the label): stable across runs
  std::string label;  // what the student sees
  ImVec2 min, max;    // visible rectangle, in framebuffer pixels
  bool cut = false;      // its left or right edge lies outside what its window shows (clipped text)
  bool partial = false;  // only part of it is shown (scrolled partly out of view)
  ImGuiItemStatusFlags status = 0;  // ImGui's Checkable/Checked/Openable/Opened, for the text layer's roles
  std::string window;  // the name of the window it is in (the text layer tells the page's from a popover's)
};

// Every item the keyboard can reach, in the order the frame submitted them (reading order),
// visible or scrolled out of view (ImGui clips those before their label is known).
struct FocusItem {
  ImGuiID id = 0;
  ImGuiWindow* window = nullptr;  // the window it was submitted in (for the nav state)
  ImGuiID focus_scope = 0;
  ImRect rect;                    // unclipped, in screen pixels
  bool text_field = false;        // an InputText: focusing it starts typing
};

struct HookFrame {
  std::vector<HookItem> items;
  std::vector<FocusItem> focusables;
  std::vector<std::string> id_clashes;  // labels of items that reused an ID this frame
};

// Text fields say so after they are drawn (ImGui's item flags do not tell an InputText from a
// slider); the mark is remembered while the field is scrolled out of view.
void hook_mark_text_field(ImGuiID id);
bool hook_is_text_field(ImGuiID id);

// The last label and status an item was drawn with (ImGui clips an item scrolled out of view
// before its label is known; the text layer still names it). nullptr if never drawn.
const HookItem* hook_last_seen(ImGuiID id);

// Starts a new frame's record (call before ImGui::NewFrame).
void hook_begin_frame();
const HookFrame& hook_frame();

// Asserts raised by ImGui since the last call (headless test) or ever (browser log).
std::vector<std::string> hook_take_asserts();

}  // namespace dtx::web
