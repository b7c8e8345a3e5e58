// Ordering: drag a row to a new place (by its grip; a mouse anywhere on it, a finger after a
// long press), or select it (click, tap) and move it with the arrow keys (Home/End: to the
// top/bottom) or its ▲ ▼ buttons. The page owns those keys, so the
// browser does not scroll (see web/shell/dtx.js).
#include <algorithm>

#include "grade/ordering.h"
#include "imgui_internal.h"
#include "ui/access.h"
#include "ui/keyboard.h"
#include "views/views.h"

namespace dtx::web {

namespace {

const OrderingSpec* spec_of(const ExerciseState& st) { return st.exercise->spec_as<OrderingSpec>(); }

struct State : ViewState {
  std::vector<int> order;  // authored indices in the student's order
  int grabbed = -1;        // position selected for keyboard moves
  int focus_row = -1;      // the row moved by keyboard, focused again where it lands
};

std::shared_ptr<ViewState> fresh(App&, const ExerciseState& st) {
  auto v = std::make_shared<State>();
  v->order = st.inst->order;  // shuffled by the engine, never shown solved
  return v;
}

void move(State& st, int from, int to) {
  if (from < 0 || to < 0 || from >= static_cast<int>(st.order.size()) || to >= static_cast<int>(st.order.size())) return;
  int v = st.order[from];
  st.order.erase(st.order.begin() + from);
  st.order.insert(st.order.begin() + to, v);
  if (st.grabbed == from) st.grabbed = to;
}

void draw(App& app, ExerciseState& ex) {
  const OrderingSpec* spec = spec_of(ex);
  State& st = *view_state<State>(ex);
  const float e = em(app);
  MdStyle md = md_style(app);
  ImGui::TextDisabled(app.coarse_pointer
                          ? "Drag a step by its grip (or hold it, then drag), or use its ▲ ▼ buttons."
                          : "Drag the steps into order, or select one and move it with ↑ ↓ (Home/End: top/bottom).");
  const int n = static_cast<int>(st.order.size());
  ImGuiStyle& style = ImGui::GetStyle();
  const float target = touch_target(app);
  const float btn_w = std::max(ImGui::CalcTextSize("▲").x + style.FramePadding.x * 2, target);
  const float grip_w = std::max(e * 1.4f, target);
  // On a touch screen ▲ sits over ▼: the text keeps the width a finger-sized pair would take.
  const bool stack = app.coarse_pointer;
  const float buttons_w = stack ? btn_w : btn_w * 2 + style.ItemSpacing.x;
  for (int pos = 0; pos < n; ++pos) {
    // The ID follows the item, not the place: a row being dragged keeps its identity as it moves.
    ImGui::PushID(st.order[pos]);
    std::string text = ex.inst->render(spec->items[st.order[pos]]);
    MdDoc doc = parse_markdown(text);
    std::vector<MdRun> runs = doc.blocks.empty() ? std::vector<MdRun>{{text, 0, "", nullptr, ""}} : doc.blocks[0].runs;
    float num_w = e * 1.8f;
    float text_w = app.content_width - grip_w - num_w - buttons_w - style.ItemSpacing.x - e * 0.5f;
    const float text_h = layout_runs(runs, ImVec2(0, 0), text_w, md, false) + e * 0.4f;
    const float buttons_h = stack ? ImGui::GetFrameHeight() * 2 + style.ItemSpacing.y : ImGui::GetFrameHeight();
    float h = std::max({text_h, buttons_h, target});
    const float dy = (h - text_h) * 0.5f;
    // Dragging: swap with the neighbour the pointer has moved onto.
    auto drag = [&]() {
      if (!ImGui::IsItemActive() || ImGui::IsItemHovered()) return;
      float d = ImGui::GetMouseDragDelta(0).y;
      int to = pos + (d < 0 ? -1 : 1);
      if (to >= 0 && to < n && std::abs(d) > h * 0.5f) {
        move(st, pos, to);
        st.grabbed = to;
        ImGui::ResetMouseDragDelta();
      }
    };
    // The grip: a finger that goes down here holds the row at once (mark_draggable), so a
    // vertical move drags it; anywhere else on the row a vertical swipe scrolls the page.
    ImVec2 grip_pos = ImGui::GetCursorScreenPos();
    // (Not a Tab stop: the keyboard moves the selected row with the arrows.)
    ImGui::PushItemFlag(ImGuiItemFlags_NoNav, true);
    const std::string grip_id = "##grip-" + std::to_string(pos);
    ImGui::InvisibleButton(grip_id.c_str(), ImVec2(grip_w, h));
    {
      ImGuiContext& g = *GImGui;  // (the hook macro reads `g`)
      IMGUI_TEST_ENGINE_ITEM_INFO(ImGui::GetItemID(), grip_id.c_str(), 0);  // listed for the tests
    }
    ImGui::PopItemFlag();
    mark_draggable();
    if (ImGui::IsItemActive()) st.grabbed = pos;
    drag();
    {
      ImDrawList* dl = ImGui::GetWindowDrawList();
      const ImU32 col = ImGui::IsItemActive() || ImGui::IsItemHovered() ? color::kText : color::kMuted;
      const float cx = grip_pos.x + grip_w * 0.5f, cy = grip_pos.y + h * 0.5f, half = e * 0.45f, gap = e * 0.25f;
      for (int k = -1; k <= 1; ++k)
        dl->AddLine(ImVec2(cx - half, cy + k * gap), ImVec2(cx + half, cy + k * gap), col, std::max(1.0f, e * 0.1f));
    }
    ImGui::SameLine(0, 0);
    ImVec2 p = ImGui::GetCursorScreenPos();
    std::string id = std::to_string(pos + 1) + "##order-" + std::to_string(pos);
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0, 0, 0, 0));
    if (ImGui::Selectable(id.c_str(), st.grabbed == pos, 0, ImVec2(text_w + num_w, h)))
      st.grabbed = st.grabbed == pos ? -1 : pos;
    mark_answer_control();
    const std::string plain = access_plain(runs);
    const std::string group = "Steps, in your order";
    {
      Access a;
      a.role = Role::Row;
      a.name = "Step " + std::to_string(pos + 1) + " of " + std::to_string(n) + ": " + plain;
      a.checked = st.grabbed == pos ? 1 : 0;
      a.desc = st.grabbed == pos ? "Selected: the up and down arrows move it, Home and End to the top and bottom"
                                 : "Space selects it to move";
      a.group = group;
      access_item(std::move(a));
    }
    if (st.focus_row == pos) {  // moved by the keys: the focus ring goes with it
      focus_last_item();
      st.focus_row = -1;
    }
    ImGui::PopStyleColor();
    // The row itself drags under a mouse, and under a finger only after a long press (a
    // finger that just moves scrolls the page; it never presses the row).
    if (!app.touch_pointer || app.touch_long_press) drag();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    char num[16];
    std::snprintf(num, sizeof num, "%d.", pos + 1);
    dl->AddText(ImVec2(p.x + e * 0.3f, p.y + dy + e * 0.2f), color::kMuted, num);
    layout_runs(runs, ImVec2(p.x + num_w, p.y + dy + e * 0.2f), text_w, md, true);
    if (st.grabbed == pos) dl->AddRect(grip_pos, ImVec2(p.x + text_w + num_w, p.y + h), color::kAccent, 4, 0, 2);
    ImGui::SameLine();
    ImGui::BeginGroup();
    if (pos == 0) ImGui::BeginDisabled();
    if (ImGui::Button(("▲##up-" + std::to_string(pos)).c_str(), ImVec2(btn_w, 0))) move(st, pos, pos - 1);
    access_item(Role::Button, "Move up: " + plain, "", -1, group);
    if (pos == 0) ImGui::EndDisabled();
    if (!stack) ImGui::SameLine();
    if (pos == n - 1) ImGui::BeginDisabled();
    if (ImGui::Button(("▼##down-" + std::to_string(pos)).c_str(), ImVec2(btn_w, 0))) move(st, pos, pos + 1);
    access_item(Role::Button, "Move down: " + plain, "", -1, group);
    if (pos == n - 1) ImGui::EndDisabled();
    ImGui::EndGroup();
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
  // (The engine's message names the item to move; the screen shows it.)
}

bool answer(App&, ExerciseState& st, Answer& out) {
  out = make_answer(OrderingAnswer(view_state<State>(st)->order));
  return true;
}

bool set_answer(App&, ExerciseState& st, const Answer& a) {
  const auto* o = a.as<OrderingAnswer>();
  if (!o) return false;
  view_state<State>(st)->order = o->order;
  return true;
}

// The student's order, when the items are as many as before.
void carry_over(const ViewState& old, ExerciseState& st) {
  const auto* o = dynamic_cast<const State*>(&old);
  if (o && o->order.size() == view_state<State>(st)->order.size()) view_state<State>(st)->order = o->order;
}

void hook_state(const ExerciseState& st, nlohmann::json& out) {
  out["order"] = view_state<State>(st)->order;
  out["grabbed"] = view_state<State>(st)->grabbed;
}

bool holds_escape(const ExerciseState& st) { return view_state<State>(st)->grabbed >= 0; }

}  // namespace

extern const TypeView kOrderingView;
const TypeView kOrderingView = {"ordering", fresh, draw, answer, set_answer, carry_over, hook_state, nullptr, holds_escape};

}  // namespace dtx::web
