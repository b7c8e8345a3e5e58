// Ordering: drag a row to a new place, or select it (click, tap) and move it with the arrow
// keys (Home/End: to the top/bottom) or its ▲ ▼ buttons. The page owns those keys, so the
// browser does not scroll (see web/shell/dtx.js).
#include "grade/ordering.h"
#include "imgui_internal.h"
#include "ui/keyboard.h"
#include "views/views.h"

namespace dtx::web {

namespace {

const OrderingSpec* spec_of(const ExerciseState& st) { return st.exercise->spec_as<OrderingSpec>(); }

void reset(App&, ExerciseState& st) {
  st.order = st.inst->order;  // shuffled by the engine, never shown solved
  st.grabbed = -1;
}

void move(ExerciseState& st, int from, int to) {
  if (from < 0 || to < 0 || from >= static_cast<int>(st.order.size()) || to >= static_cast<int>(st.order.size())) return;
  int v = st.order[from];
  st.order.erase(st.order.begin() + from);
  st.order.insert(st.order.begin() + to, v);
  if (st.grabbed == from) st.grabbed = to;
}

void draw(App& app, ExerciseState& st) {
  const OrderingSpec* spec = spec_of(st);
  const float e = em(app);
  MdStyle md = md_style(app);
  ImGui::TextDisabled("Drag the steps into order, or select one and move it with ↑ ↓ (Home/End: top/bottom).");
  const int n = static_cast<int>(st.order.size());
  ImGuiStyle& style = ImGui::GetStyle();
  float btn_w = ImGui::CalcTextSize("▲").x + style.FramePadding.x * 2;
  for (int pos = 0; pos < n; ++pos) {
    // The ID follows the item, not the place: a row being dragged keeps its identity as it moves.
    ImGui::PushID(st.order[pos]);
    std::string text = st.inst->render(spec->items[st.order[pos]]);
    MdDoc doc = parse_markdown(text);
    std::vector<MdRun> runs = doc.blocks.empty() ? std::vector<MdRun>{{text, 0, "", nullptr}} : doc.blocks[0].runs;
    float num_w = e * 1.8f;
    float text_w = app.content_width - num_w - (btn_w + style.ItemSpacing.x) * 2 - e * 0.5f;
    float h = std::max(layout_runs(runs, ImVec2(0, 0), text_w, md, false) + e * 0.4f, ImGui::GetFrameHeight());
    ImVec2 p = ImGui::GetCursorScreenPos();
    std::string id = std::to_string(pos + 1) + "##order-" + std::to_string(pos);
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0, 0, 0, 0));
    if (ImGui::Selectable(id.c_str(), st.grabbed == pos, 0, ImVec2(text_w + num_w, h)))
      st.grabbed = st.grabbed == pos ? -1 : pos;
    mark_draggable();
    mark_answer_control();
    if (st.focus_row == pos) {  // moved by the keys: the focus ring goes with it
      focus_last_item();
      st.focus_row = -1;
    }
    ImGui::PopStyleColor();
    // Dragging: swap with the neighbour the pointer has moved onto (works for touch too).
    if (ImGui::IsItemActive() && !ImGui::IsItemHovered()) {
      float dy = ImGui::GetMouseDragDelta(0).y;
      int to = pos + (dy < 0 ? -1 : 1);
      if (to >= 0 && to < n && std::abs(dy) > h * 0.5f) {
        move(st, pos, to);
        st.grabbed = to;
        ImGui::ResetMouseDragDelta();
      }
    }
    ImDrawList* dl = ImGui::GetWindowDrawList();
    char num[16];
    std::snprintf(num, sizeof num, "%d.", pos + 1);
    dl->AddText(ImVec2(p.x + e * 0.3f, p.y + e * 0.2f), color::kMuted, num);
    layout_runs(runs, ImVec2(p.x + num_w, p.y + e * 0.2f), text_w, md, true);
    if (st.grabbed == pos) dl->AddRect(p, ImVec2(p.x + text_w + num_w, p.y + h), color::kAccent, 4, 0, 2);
    ImGui::SameLine();
    if (pos == 0) ImGui::BeginDisabled();
    if (ImGui::Button(("▲##up-" + std::to_string(pos)).c_str())) move(st, pos, pos - 1);
    if (pos == 0) ImGui::EndDisabled();
    ImGui::SameLine();
    if (pos == n - 1) ImGui::BeginDisabled();
    if (ImGui::Button(("▼##down-" + std::to_string(pos)).c_str())) move(st, pos, pos + 1);
    if (pos == n - 1) ImGui::EndDisabled();
    ImGui::PopID();
  }
  // keyboard moves of the selected row (no text field is active on this view)
  if (st.grabbed >= 0 && !ImGui::GetIO().WantTextInput) {
    auto pressed = [](ImGuiKey k) { return ImGui::IsKeyPressed(ImGui::GetKeyIndex(k)); };
    const int was = st.grabbed;
    bool moving = true;
    if (pressed(ImGuiKey_UpArrow)) move(st, st.grabbed, st.grabbed - 1);
    else if (pressed(ImGuiKey_DownArrow)) move(st, st.grabbed, st.grabbed + 1);
    else if (pressed(ImGuiKey_Home)) move(st, st.grabbed, 0);
    else if (pressed(ImGuiKey_End)) move(st, st.grabbed, n - 1);
    else {
      moving = false;
      if (pressed(ImGuiKey_Escape)) st.grabbed = -1;
    }
    // The keys moved the row, not the focus: ImGui's own arrow navigation is called off and
    // the focus follows the row (its ID changes with its place).
    if (moving) {
      ImGui::NavMoveRequestCancel();
      if (st.grabbed != was || ImGui::GetIO().NavVisible) st.focus_row = st.grabbed;
    }
  }
  if (st.feedback) {
    const auto& fb = *st.feedback;
    (void)fb;  // the engine's message names the item to move; the screen shows it
  }
}

bool answer(App&, ExerciseState& st, Answer& out) {
  out.picks = st.order;
  return true;
}

}  // namespace

const TypeView kOrderingView = {"ordering", reset, draw, answer};

}  // namespace dtx::web
