// Ordering: drag a row to a new place (by its grip; a mouse anywhere on it, a finger after a
// long press), or select it (click, tap) and move it with the arrow keys (Home/End: to the
// top/bottom) or its ▲ ▼ buttons. The page owns those keys, so the
// browser does not scroll (see web/shell/dtx.js).
#include <nlohmann/json.hpp>
#include <algorithm>

#include "ordering/ordering.h"
#include "imgui_internal.h"
#include "ui/access.h"
#include "ui/keyboard.h"
#include "type_view.h"

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
  v->order = st.inst->data_or_empty<OrderingInstance>().order;  // shuffled by the engine, never shown solved
  return v;
}

void move(State& st, int from, int to) {
  if (from < 0 || to < 0 || from >= static_cast<int>(st.order.size()) || to >= static_cast<int>(st.order.size())) return;
  int v = st.order[from];
  st.order.erase(st.order.begin() + from);
  st.order.insert(st.order.begin() + to, v);
  if (st.grabbed == from) st.grabbed = to;
}

// Where a held row goes: past every neighbour whose middle the pointer (at y) has crossed.
// Middles, not edges: a short row dragged past a tall one does not jump back.
int drop_place(const std::vector<float>& middle, int from, float y) {
  int to = from;
  while (to > 0 && y < middle[static_cast<size_t>(to - 1)]) --to;
  while (to + 1 < static_cast<int>(middle.size()) && y > middle[static_cast<size_t>(to + 1)]) ++to;
  return to;
}

// The sizes every row shares.
struct RowLayout {
  float e, target, btn_w, grip_w, buttons_w, num_w;
  bool stack;  // ▲ over ▼ (a touch screen)
  MdStyle md;
};

// What a row's drawing asks for, applied once every row is drawn: a row is never moved while
// the rows are being drawn (a moved row would be drawn twice in the frame).
struct RowEvents {
  int held = -1;               // the row the pointer holds (grip, or the row itself dragged)
  std::pair<int, int> move{0, 0};  // from, to (its ▲ ▼ buttons)
  std::vector<float> middle;   // each row's vertical middle, in screen pixels
};

void draw_grip(const RowLayout& L, ImVec2 at, float h, int pos, State& st, RowEvents& ev) {
  // A finger that goes down here holds the row at once (mark_draggable), so a vertical move
  // drags it; anywhere else on the row a vertical swipe scrolls the page. Not a Tab stop:
  // the keyboard moves the selected row with the arrows.
  ImGui::PushItemFlag(ImGuiItemFlags_NoNav, true);
  const std::string grip_id = "##grip-" + std::to_string(pos) + "###grip";
  ImGui::InvisibleButton(grip_id.c_str(), ImVec2(L.grip_w, h));
  {
    ImGuiContext& g = *GImGui;  // (the hook macro reads `g`)
    IMGUI_TEST_ENGINE_ITEM_INFO(ImGui::GetItemID(), grip_id.c_str(), 0);  // listed for the tests
  }
  ImGui::PopItemFlag();
  mark_draggable();
  if (ImGui::IsItemActive()) st.grabbed = ev.held = pos;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 col = ImGui::IsItemActive() || ImGui::IsItemHovered() ? color::text() : color::muted();
  const float cx = at.x + L.grip_w * 0.5f, cy = at.y + h * 0.5f, half = L.e * 0.45f, gap = L.e * 0.25f;
  for (int k = -1; k <= 1; ++k)
    dl->AddLine(ImVec2(cx - half, cy + k * gap), ImVec2(cx + half, cy + k * gap), col, std::max(1.0f, L.e * 0.1f));
}

void draw_move_buttons(const RowLayout& L, int pos, int n, const std::string& plain, RowEvents& ev) {
  const std::string group = "Steps, in your order";
  ImGui::BeginGroup();
  if (pos == 0) ImGui::BeginDisabled();
  if (ImGui::Button(("▲##up-" + std::to_string(pos) + "###up").c_str(), ImVec2(L.btn_w, 0))) ev.move = {pos, pos - 1};
  access_item(Role::Button, "Move up: " + plain, "", -1, group);
  if (pos == 0) ImGui::EndDisabled();
  if (!L.stack) ImGui::SameLine();
  if (pos == n - 1) ImGui::BeginDisabled();
  if (ImGui::Button(("▼##down-" + std::to_string(pos) + "###down").c_str(), ImVec2(L.btn_w, 0))) ev.move = {pos, pos + 1};
  access_item(Role::Button, "Move down: " + plain, "", -1, group);
  if (pos == n - 1) ImGui::EndDisabled();
  ImGui::EndGroup();
}

void announce_row(int pos, int n, const std::string& plain, const State& st) {
  Access a;
  a.role = Role::Row;
  // Named by its drawn words, number first (label in name); the place in the list is said too.
  a.name = std::to_string(pos + 1) + ". " + plain;
  a.checked = st.grabbed == pos ? 1 : 0;
  a.desc = "Step " + std::to_string(pos + 1) + " of " + std::to_string(n) + ". " +
           (st.grabbed == pos ? "Selected: the up and down arrows move it, Home and End to the top and bottom"
                              : "Space selects it to move");
  a.group = "Steps, in your order";
  access_item(std::move(a));
}

// One row: grip, number and text (a selectable row), ▲ ▼. IDs follow the item, not the place
// ("###grip" under the item's ID): a row being dragged keeps its identity, so the press holds
// as it moves; the tests list it by place ("grip-2"; platform/test_hook.cpp key_of).
void draw_row(App& app, ExerciseState& ex, State& st, const RowLayout& L, int pos, RowEvents& ev) {
  const OrderingSpec* spec = spec_of(ex);
  const int n = static_cast<int>(st.order.size());
  const ImGuiStyle& style = ImGui::GetStyle();
  ImGui::PushID(st.order[pos]);
  std::string text = ex.inst->render(spec->items[st.order[pos]]);
  MdDoc doc = parse_markdown(text);
  std::vector<MdRun> runs = doc.blocks.empty() ? std::vector<MdRun>{{text, 0, "", nullptr, ""}} : doc.blocks[0].runs;
  const float text_w = app.content_width - L.grip_w - L.num_w - L.buttons_w - style.ItemSpacing.x - L.e * 0.5f;
  const float text_h = layout_runs(runs, ImVec2(0, 0), text_w, L.md, false) + L.e * 0.4f;
  const float buttons_h = L.stack ? ImGui::GetFrameHeight() * 2 + style.ItemSpacing.y : ImGui::GetFrameHeight();
  const float h = std::max({text_h, buttons_h, L.target});
  const float dy = (h - text_h) * 0.5f;
  const ImVec2 grip_pos = ImGui::GetCursorScreenPos();
  ev.middle[static_cast<size_t>(pos)] = grip_pos.y + h * 0.5f;
  draw_grip(L, grip_pos, h, pos, st, ev);
  ImGui::SameLine(0, 0);
  ImVec2 p = ImGui::GetCursorScreenPos();
  std::string id = std::to_string(pos + 1) + "##order-" + std::to_string(pos) + "###row";
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0, 0, 0, 0));
  if (ImGui::Selectable(id.c_str(), st.grabbed == pos, 0, ImVec2(text_w + L.num_w, h)))
    st.grabbed = st.grabbed == pos ? -1 : pos;
  mark_answer_control();
  const std::string plain = access_plain(runs);
  announce_row(pos, n, plain, st);
  if (st.focus_row == pos) {  // moved by the keys: the focus ring goes with it
    focus_last_item();
    st.focus_row = -1;
  }
  ImGui::PopStyleColor();
  // The row itself drags under a mouse, and under a finger only after a long press (a
  // finger that just moves scrolls the page; it never presses the row).
  if (ImGui::IsItemActive() && ImGui::IsMouseDragging(0) && (!app.touch_pointer || app.touch_long_press)) ev.held = pos;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  char num[16];
  std::snprintf(num, sizeof num, "%d.", pos + 1);
  dl->AddText(ImVec2(p.x + L.e * 0.3f, p.y + dy + L.e * 0.2f), color::muted(), num);
  layout_runs(runs, ImVec2(p.x + L.num_w, p.y + dy + L.e * 0.2f), text_w, L.md, true);
  if (st.grabbed == pos) dl->AddRect(grip_pos, ImVec2(p.x + text_w + L.num_w, p.y + h), color::accent(), 4, 0, 2);
  ImGui::SameLine();
  draw_move_buttons(L, pos, n, plain, ev);
  ImGui::PopID();
}

RowLayout row_layout(App& app) {
  const ImGuiStyle& style = ImGui::GetStyle();
  RowLayout L{};
  L.e = em(app.ui);
  L.md = md_style(app);
  L.target = touch_target(app.ui);
  L.btn_w = std::max(ImGui::CalcTextSize("▲").x + style.FramePadding.x * 2, L.target);
  L.grip_w = std::max(L.e * 1.4f, L.target);
  // On a touch screen ▲ sits over ▼: the text keeps the width a finger-sized pair would take.
  L.stack = app.ui.coarse_pointer;
  L.buttons_w = L.stack ? L.btn_w : L.btn_w * 2 + style.ItemSpacing.x;
  L.num_w = L.e * 1.8f;
  return L;
}

void move_by_keys(State& st, int n);

void draw(App& app, ExerciseState& ex) {
  State& st = *view_state<State>(ex);
  ImGui::TextDisabled(app.ui.coarse_pointer
                          ? "Drag a step by its grip (or hold it, then drag), or use its ▲ ▼ buttons."
                          : "Drag the steps into order, or select one and move it with ↑ ↓ (Home/End: top/bottom).");
  const int n = static_cast<int>(st.order.size());
  const RowLayout L = row_layout(app);
  RowEvents ev;
  ev.middle.assign(static_cast<size_t>(n), 0.0f);
  for (int pos = 0; pos < n; ++pos) draw_row(app, ex, st, L, pos, ev);
  // The held row goes where the pointer is, however far it went in one frame.
  if (ev.held >= 0) ev.move = {ev.held, drop_place(ev.middle, ev.held, ImGui::GetIO().MousePos.y)};
  if (ev.move.first != ev.move.second) {
    move(st, ev.move.first, ev.move.second);
    if (ev.held >= 0) st.grabbed = ev.move.second;
  }
  move_by_keys(st, n);
  // (The engine's message names the item to move; the screen shows it.)
}

// Arrow keys, Home and End move the selected row (no text field is active on this view).
void move_by_keys(State& st, int n) {
  if (st.grabbed < 0 || ImGui::GetIO().WantTextInput) return;
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
  // the focus ring is put on the row again where it lands.
  if (moving) {
    ImGui::NavMoveRequestCancel();
    if (st.grabbed != was || ImGui::GetIO().NavVisible) st.focus_row = st.grabbed;
  }
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

extern const TypeView ordering_view;
const TypeView ordering_view = {"ordering", fresh, draw, answer, set_answer, carry_over, hook_state, nullptr, holds_escape};

}  // namespace dtx::web
