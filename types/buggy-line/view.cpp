// Buggy line: a numbered, highlighted listing; click (tap) the line that is wrong.
#include <nlohmann/json.hpp>
#include <algorithm>

#include "buggy-line/buggy_line.h"
#include "ui/code_text.h"
#include "ui/access.h"
#include "ui/keyboard.h"
#include "type_view.h"

namespace dtx::web {

namespace {

const BuggyLineSpec* spec_of(const ExerciseState& st) { return st.exercise->spec_as<BuggyLineSpec>(); }

// The lines clicked, numbered from 1.
struct State : ViewState {
  std::vector<int> lines;
};

std::shared_ptr<ViewState> fresh(App&, const ExerciseState&) { return std::make_shared<State>(); }

void draw(App& app, ExerciseState& st) {
  const BuggyLineSpec* spec = spec_of(st);
  std::vector<int>& lines = view_state<State>(st)->lines;
  ImFont* mono = app.ui.fonts.mono;
  const float e = em(app.ui);
  ImGui::TextDisabled(spec->select > 1 ? "Click the %d lines that are wrong." : "Click the line that is wrong.", spec->select);
  // A line is a finger's height on a touch screen (the code stays centred in it).
  const float line_h = std::max(mono->FontSize * 1.5f, touch_target(app.ui));
  const int n = static_cast<int>(spec->code.size());
  char digits[16];
  std::snprintf(digits, sizeof digits, "%d", n);
  float gutter = mono->CalcTextSizeA(mono->FontSize, FLT_MAX, 0, digits).x + e;
  float widest = 0;
  for (const auto& l : spec->code) widest = std::max(widest, mono->CalcTextSizeA(mono->FontSize, FLT_MAX, 0, l.c_str()).x);
  float inner_w = std::max(app.content_width, gutter + widest + e);
  bool hscroll = inner_w > app.content_width;
  float h = n * line_h + e * 0.6f + (hscroll ? ImGui::GetStyle().ScrollbarSize : 0);
  ImGui::PushStyleColor(ImGuiCol_ChildBg, color::code_bg());
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, e * 0.3f));
  ImGui::BeginChild("##listing", ImVec2(app.content_width, h), true, ImGuiWindowFlags_HorizontalScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(0, 0));
  bool in_comment = false;
  for (int i = 0; i < n; ++i) {
    int line_no = i + 1;
    bool on = std::find(lines.begin(), lines.end(), line_no) != lines.end();
    ImVec2 p = ImGui::GetCursorScreenPos();
    std::string id = "line " + std::to_string(line_no) + "##line-" + std::to_string(line_no);
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0, 0, 0, 0));
    ImGui::PushStyleColor(ImGuiCol_Header, ImGui::ColorConvertU32ToFloat4(color::highlight()));
    if (ImGui::Selectable(id.c_str(), on, 0, ImVec2(inner_w, line_h))) {
      if (spec->select <= 1) {
        lines = {line_no};
      } else if (on) {
        lines.erase(std::find(lines.begin(), lines.end(), line_no));
      } else {
        lines.push_back(line_no);
      }
    }
    mark_answer_control();
    {
      Access a;
      a.role = Role::Line;
      a.name = "Line " + std::to_string(line_no) + ": " + spec->code[i];
      a.checked = on ? 1 : 0;
      a.group = "The listing, " + std::to_string(n) + " lines";
      access_item(std::move(a));
    }
    ImGui::PopStyleColor(2);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    char num[16];
    std::snprintf(num, sizeof num, "%d", line_no);
    float ty = p.y + (line_h - mono->FontSize) * 0.5f;
    float nw = mono->CalcTextSizeA(mono->FontSize, FLT_MAX, 0, num).x;
    dl->AddText(mono, mono->FontSize, ImVec2(p.x + gutter - nw - e * 0.5f, ty), on ? color::text() : color::muted(), num);
    const std::string& code = spec->code[i];  // code is shown as written (braces are not placeholders)
    draw_code_line(dl, mono, ImVec2(p.x + gutter, ty), code, &in_comment);
  }
  ImGui::PopStyleVar();
  ImGui::EndChild();
  ImGui::PopStyleVar();
  ImGui::PopStyleColor();
}

bool answer(App&, ExerciseState& st, Answer& out) {
  out = make_answer(BuggyLineAnswer(view_state<State>(st)->lines));
  return true;
}

bool set_answer(App&, ExerciseState& st, const Answer& a) {
  const auto* b = a.as<BuggyLineAnswer>();
  if (!b) return false;
  view_state<State>(st)->lines = b->lines;
  return true;
}

// Lines that are still in the listing.
void carry_over(const ViewState& old, ExerciseState& st) {
  const auto* o = dynamic_cast<const State*>(&old);
  const int n = static_cast<int>(spec_of(st)->code.size());
  if (o && std::all_of(o->lines.begin(), o->lines.end(), [&](int l) { return l >= 1 && l <= n; }))
    view_state<State>(st)->lines = o->lines;
}

void hook_state(const ExerciseState& st, nlohmann::json& out) { out["lines"] = view_state<State>(st)->lines; }

}  // namespace

extern const TypeView buggy_line_view;
const TypeView buggy_line_view = {"buggy-line", fresh, draw, answer, set_answer, carry_over, hook_state, nullptr, nullptr};

}  // namespace dtx::web
