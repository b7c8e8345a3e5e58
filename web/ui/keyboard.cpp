#include "ui/keyboard.h"

#include <unordered_set>

#include "imgui_internal.h"
#include "platform/test_hook.h"

namespace dtx::web {

namespace {

// The keyboard's state across frames (one per ImGui context: the page has one).
struct KeyboardState {
  std::unordered_set<ImGuiID> answer_controls;
  bool enter_was_down = false;
  ImGuiID clicked_nav = 0;  // where the last click put ImGui's NavId (Tab goes on from there)
  ImGuiID activate = 0;     // a proxy's activation, pressed next frame
} g_keys;

bool editing_multiline(const ImGuiContext& g) {
  return g.ActiveId != 0 && g.InputTextState.ID == g.ActiveId && !g.InputTextState.Stb.single_line;
}

// The focus ring on `it`, as ImGui's own navigation would put it there.
void focus_item(const FocusItem& it) {
  ImGuiContext& g = *GImGui;
  // The window becomes the focused one first (ImGui's NavWindow is the focused window; set
  // alone, the next frame gave the focus back to the window it was in).
  if (g.NavWindow != it.window) ImGui::FocusWindow(it.window);
  g.NavWindow = it.window;
  g.NavId = it.id;
  g.NavLayer = ImGuiNavLayer_Main;
  g.NavFocusScopeId = it.focus_scope;
  it.window->NavLastIds[ImGuiNavLayer_Main] = it.id;
  it.window->NavRectRel[ImGuiNavLayer_Main] = ImGui::WindowRectAbsToRel(it.window, it.rect);
  g.NavDisableHighlight = false;
  g.NavDisableMouseHover = true;
  g.NavInputSource = ImGuiInputSource_Keyboard;
  ImGui::ScrollToRectEx(it.window, it.rect, ImGuiScrollFlags_KeepVisibleEdgeX | ImGuiScrollFlags_KeepVisibleEdgeY);
  // A text field takes the typing at once, its text selected, as a browser's does.
  if (it.text_field) {
    g.NavNextActivateId = it.id;
    g.NavNextActivateFlags = ImGuiActivateFlags_PreferInput;
  }
}

}  // namespace

void keyboard_init() { ImGui::GetIO().ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard; }

bool keyboard_tab(bool backwards) {
  ImGuiContext& g = *GImGui;
  if (editing_multiline(g)) return false;  // the code editor indents
  const auto& list = hook_frame().focusables;
  if (list.empty()) return false;
  // From the field being typed in, else from the focused item, else from the last clicked one
  // (ImGui moves NavId to what the pointer activates, so Tab continues from a click, as on a
  // web page). A NavId that is neither (ImGui's own pick when a window appears) is no focus:
  // Tab then starts at the first control, as a page's first Tab does.
  ImGuiID from = g.ActiveId ? g.ActiveId : !g.NavDisableHighlight || g.NavId == g_keys.clicked_nav ? g.NavId : 0;
  int n = static_cast<int>(list.size()), at = -1;
  for (int i = 0; i < n && at < 0; ++i)
    if (list[i].id == from) at = i;
  int to = at < 0 ? (backwards ? n - 1 : 0) : (at + (backwards ? n - 1 : 1)) % n;
  if (g.ActiveId) ImGui::ClearActiveID();  // a field's text is already in its buffer
  focus_item(list[to]);
  return true;
}

bool keyboard_escape_field() {
  ImGuiContext& g = *GImGui;
  if (g.ActiveId == 0 || g.InputTextState.ID != g.ActiveId) return false;
  ImGuiID id = g.ActiveId;
  ImGui::ClearActiveID();
  for (const FocusItem& it : hook_frame().focusables)
    if (it.id == id) {
      FocusItem keep = it;
      keep.text_field = false;  // focus stays, typing stops
      focus_item(keep);
      break;
    }
  return true;
}

void keyboard_after_frame() {
  const ImGuiContext& g = *GImGui;
  if (g.IO.MouseClicked[0] || g.IO.MouseReleased[0]) g_keys.clicked_nav = g.NavId;
}

bool keyboard_focus_control(ImGuiID id, bool activate) {
  for (const FocusItem& it : hook_frame().focusables)
    if (it.id == id) {
      ImGuiContext& g = *GImGui;
      if (g.ActiveId && g.ActiveId != id) ImGui::ClearActiveID();  // a field's text is already in its buffer
      focus_item(it);  // a text field starts typing
      if (activate && !it.text_field) g_keys.activate = id;
      return true;
    }
  return false;
}

bool keyboard_before_frame() {
  ImGuiContext& g = *GImGui;
  ImGuiIO& io = g.IO;
  if (g_keys.activate) {
    // (The focus was put on it between frames; the press reads NavId.)
    if (g.NavId == g_keys.activate) io.NavInputs[ImGuiNavInput_Activate] = 1.0f;
    g_keys.activate = 0;
  }
  const int enter = io.KeyMap[ImGuiKey_Enter];
  const bool down = enter >= 0 && io.KeysDown[enter];
  const bool pressed = down && !g_keys.enter_was_down;
  g_keys.enter_was_down = down;
  if (!pressed || io.KeyAlt) return false;
  if (io.KeyCtrl || io.KeySuper) return true;  // Ctrl+Enter submits from anywhere, typing included
  // A field or a slider being typed in has its own Enter; an item held by Space (ActiveId on
  // the focused item until the key is up) does not stop it.
  if (io.WantTextInput || (g.ActiveId != 0 && g.ActiveId != g.NavId)) return false;
  const bool focused = g.NavId != 0 && !g.NavDisableHighlight;
  if (!focused || g_keys.answer_controls.count(g.NavId)) return true;
  if (!hook_is_text_field(g.NavId)) io.NavInputs[ImGuiNavInput_Activate] = 1.0f;  // pressed like Space
  return false;
}

void mark_answer_control() {
  if (g_keys.answer_controls.size() > 4096) g_keys.answer_controls.clear();
  g_keys.answer_controls.insert(ImGui::GetItemID());
}

void focus_last_item() {
  ImGuiContext& g = *GImGui;
  if (g.LastItemData.ID == 0) return;
  ImGui::SetFocusID(g.LastItemData.ID, g.CurrentWindow);
  g.NavDisableHighlight = false;
  g.NavDisableMouseHover = true;
  ImGui::ScrollToRectEx(g.CurrentWindow, g.LastItemData.NavRect, ImGuiScrollFlags_KeepVisibleEdgeY);
}

void mark_text_field() { hook_mark_text_field(ImGui::GetItemID()); }

ImGuiID keyboard_focus_id() {
  const ImGuiContext& g = *GImGui;
  return g.NavDisableHighlight ? 0 : g.NavId;
}

}  // namespace dtx::web
