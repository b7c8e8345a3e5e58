// ImGui's item hooks (IMGUI_ENABLE_TEST_ENGINE) record every labelled item drawn in a frame:
// its stable id, label and rectangle. The browser exports them as window.dtx for Playwright;
// the headless-UI test uses them to find ID clashes and asserts.
#pragma once

#include <string>
#include <vector>

#include "imgui.h"

namespace dtx::web {

struct HookItem {
  unsigned id = 0;
  std::string key;    // the part of the label after "##" (or the label): stable across runs
  std::string label;  // what the student sees
  ImVec2 min, max;    // visible rectangle, in framebuffer pixels
};

struct HookFrame {
  std::vector<HookItem> items;
  std::vector<std::string> id_clashes;  // labels of items that reused an ID this frame
};

// Starts a new frame's record (call before ImGui::NewFrame).
void hook_begin_frame();
const HookFrame& hook_frame();

// Asserts raised by ImGui since the last call (headless test) or ever (browser log).
std::vector<std::string> hook_take_asserts();

}  // namespace dtx::web
