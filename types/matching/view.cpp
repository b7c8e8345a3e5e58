// Matching: the options, lettered, then each item with a row of letter buttons; the student
// picks the letter of the option that goes with the item. Every button is a finger's size on
// a touch screen, a Tab stop, and pressed with Enter or Space; the arrows move between the
// letters of a row.
#include <nlohmann/json.hpp>
#include <algorithm>

#include "figures.h"
#include "matching/matching.h"
#include "imgui_internal.h"
#include "ui/access.h"
#include "ui/keyboard.h"
#include "type_view.h"

namespace dtx::web {

namespace {

const MatchingSpec* spec_of(const ExerciseState& st) { return st.exercise->spec_as<MatchingSpec>(); }

// For each item, in authored order, the authored option picked for it (-1: none yet).
struct State : ViewState {
  std::vector<int> choice;
};

std::shared_ptr<ViewState> fresh(App&, const ExerciseState& st) {
  auto v = std::make_shared<State>();
  v->choice.assign(spec_of(st)->pairs.size(), -1);
  return v;
}

void draw(App& app, ExerciseState& st) {
  const MatchingSpec* spec = spec_of(st);
  State& v = *view_state<State>(st);
  const Instance& inst = *st.inst;
  const std::vector<int> options = matching_option_order(inst, spec->option_count());
  ImGui::TextDisabled("Pick the letter of the option that goes with each item.");
  ImGui::Spacing();
  // The options, lettered as the buttons are.
  for (size_t k = 0; k < options.size(); ++k)
    markdown(app, "**" + option_letter(k) + ")** " + inst.render(spec->option_text(options[k])));
  ImGui::Spacing();
  ImGui::Separator();
  ImGui::Spacing();
  const float side = std::max(ImGui::GetFrameHeight(), touch_target(app.ui));
  // The letters of an item on one line when the gaps can shrink to a fifth of an em (six
  // options of 44 px fit in a 320 px phone column); they wrap after that.
  const size_t m = options.size();
  const float room = m > 1 ? (app.content_width - 1 - side * static_cast<float>(m)) / static_cast<float>(m - 1) : 0;
  const float gap = std::clamp(room, em(app.ui) * 0.2f, ImGui::GetStyle().ItemSpacing.x);
  const std::vector<int>& order = inst.data_or_empty<MatchingInstance>().order;
  for (size_t pos = 0; pos < order.size(); ++pos) {
    const int item = order[pos];
    ImGui::PushID(static_cast<int>(pos));
    const std::string item_text = inst.render(spec->pairs[item].left);
    markdown(app, "**" + std::to_string(pos + 1) + ".** " + item_text);
    const std::string group = "Item " + std::to_string(pos + 1) + ": " + access_plain(item_text);
    float x = 0;
    for (size_t k = 0; k < options.size(); ++k) {
      if (k > 0) {
        if (x + gap + side <= app.content_width) {
          ImGui::SameLine(0, gap);
          x += gap;
        } else {
          x = 0;  // wraps on a narrow screen
        }
      }
      const bool on = v.choice[item] == options[k];
      const std::string id = option_letter(k) + "##match-" + std::to_string(pos) + "-" + std::to_string(k);
      ImGui::PushStyleColor(ImGuiCol_Header, ImGui::ColorConvertU32ToFloat4(color::highlight()));
      ImGui::PushStyleVar(ImGuiStyleVar_SelectableTextAlign, ImVec2(0.5f, 0.5f));
      // Without ImGui's half-spacing padding, a button takes taps only inside its own square.
      if (ImGui::Selectable(id.c_str(), on, ImGuiSelectableFlags_NoPadWithHalfSpacing, ImVec2(side, side)))
        v.choice[item] = on ? -1 : options[k];
      ImGui::PopStyleVar();
      ImGui::PopStyleColor();
      {  // a button's edge (the field edge colour, 3:1 on the page), thicker and accented when picked
        ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
        ImGui::GetWindowDrawList()->AddRect(a, b, on ? color::accent() : color::border(), 4, 0, on ? 2.0f : 1.0f);
      }
      mark_answer_control();
      {
        Access acc;
        acc.role = Role::Radio;
        acc.name = option_letter(k) + ". " + access_plain(inst.render(spec->option_text(options[k])));
        acc.checked = on ? 1 : 0;
        acc.group = group;
        access_item(std::move(acc));
      }
      x += side;
    }
    ImGui::Spacing();
    ImGui::PopID();
  }
}

bool answer(App&, ExerciseState& st, Answer& out) {
  out = make_answer(MatchingAnswer(view_state<State>(st)->choice));
  return true;
}

bool set_answer(App&, ExerciseState& st, const Answer& a) {
  const auto* m = a.as<MatchingAnswer>();
  if (!m) return false;
  view_state<State>(st)->choice = m->choice;
  return true;
}

// Picks of options that are still there, when the items are as many as before.
void carry_over(const ViewState& old, ExerciseState& st) {
  const auto* o = dynamic_cast<const State*>(&old);
  const int m = static_cast<int>(spec_of(st)->option_count());
  State& v = *view_state<State>(st);
  if (o && o->choice.size() == v.choice.size() &&
      std::all_of(o->choice.begin(), o->choice.end(), [&](int c) { return c >= -1 && c < m; }))
    v.choice = o->choice;
}

void hook_state(const ExerciseState& st, nlohmann::json& out) { out["matches"] = view_state<State>(st)->choice; }

}  // namespace

extern const TypeView matching_view;
const TypeView matching_view = {"matching", fresh, draw, answer, set_answer, carry_over, hook_state, nullptr, nullptr};

}  // namespace dtx::web
