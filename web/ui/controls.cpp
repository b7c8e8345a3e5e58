#include "ui/controls.h"

#include <algorithm>
#include <cmath>
#include <unordered_set>

#include "imgui_internal.h"
#include "misc/cpp/imgui_stdlib.h"
#include "ui/access.h"
#include "ui/keyboard.h"
#include "ui/theme.h"

namespace dtx::web {
namespace {
std::unordered_set<unsigned> g_draggable;  // ImGui ids of this page's drag handles
}  // namespace

void mark_draggable() {
  if (g_draggable.size() > 4096) g_draggable.clear();
  g_draggable.insert(ImGui::GetItemID());
}
bool is_draggable(unsigned id) { return g_draggable.count(id) != 0; }

float touch_target(const UiEnv& ui) { return ui.coarse_pointer ? std::round(44.0f * ui.dpr) : 0.0f; }

bool touch_button(const UiEnv& ui, const char* label) {
  const float natural = ImGui::CalcTextSize(label, nullptr, true).x + ImGui::GetStyle().FramePadding.x * 2;
  return ImGui::Button(label, ImVec2(std::max(natural, touch_target(ui)), 0));
}

bool small_button(const UiEnv& ui, const char* label) {
  return ui.coarse_pointer ? ImGui::Button(label, ImVec2(0, touch_target(ui))) : ImGui::SmallButton(label);
}

void same_line_if_room(float width) {
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + width <= right) ImGui::SameLine();
}

void same_line_if_fits(const char* next_label) {
  // (After wrapped text the next item would start beside its last line, not its first.)
  if (ImGui::GetItemRectSize().y >= ImGui::GetTextLineHeight() * 1.5f) return;
  same_line_if_room(ImGui::CalcTextSize(next_label, nullptr, true).x + ImGui::GetStyle().FramePadding.x * 2);
}

bool button(const char* label, bool primary) {
  if (primary) {
    // Hovered and held: the accent a little lighter and darker (alpha over the page colour).
    ImVec4 acc = ImGui::ColorConvertU32ToFloat4(color::accent());
    auto shade = [&](float k) { return ImVec4(acc.x * k, acc.y * k, acc.z * k, 1); };
    ImGui::PushStyleColor(ImGuiCol_Button, acc);
    ImGui::PushStyleColor(ImGuiCol_ButtonHovered, shade(theme_is_dark() ? 1.1f : 0.9f));
    ImGui::PushStyleColor(ImGuiCol_ButtonActive, shade(theme_is_dark() ? 1.2f : 0.8f));
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(color::on_accent()));
  }
  bool r = ImGui::Button(label);
  if (primary) ImGui::PopStyleColor(4);
  return r;
}

void text_colored(ImU32 col, const char* text) {
  ImGui::PushStyleColor(ImGuiCol_Text, col);
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(text);
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
}

void named_text_field(const char* id, const std::string& name, const char* placeholder, std::string& value, float width) {
  ImGui::SetNextItemWidth(width);
  ImGui::InputTextWithHint(id, placeholder, &value);
  mark_text_field();
  Access a;
  a.role = Role::Textbox;
  a.name = name;
  a.value_text = value;
  a.placeholder = placeholder;
  access_item(std::move(a));
}

}  // namespace dtx::web
