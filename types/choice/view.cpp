// Choice: one or several options, shown in the instance's (shuffled) order. Each row is one
// tappable item, so long options wrap on a phone instead of running off the screen.
#include <nlohmann/json.hpp>
#include <algorithm>

#include "choice/choice.h"
#include "figures.h"
#include "text.h"
#include "ui/access.h"
#include "ui/keyboard.h"
#include "type_view.h"

namespace dtx::web {

namespace {

const ChoiceSpec* spec_of(const ExerciseState& st) { return st.exercise->spec_as<ChoiceSpec>(); }

// The options ticked, as authored indices.
struct State : ViewState {
  std::vector<int> picks;
};

std::shared_ptr<ViewState> fresh(App&, const ExerciseState&) { return std::make_shared<State>(); }

bool picked(const State& v, int authored) {
  return std::find(v.picks.begin(), v.picks.end(), authored) != v.picks.end();
}

void draw(App& app, ExerciseState& st) {
  const ChoiceSpec* spec = spec_of(st);
  State& v = *view_state<State>(st);
  const float e = em(app.ui);
  MdStyle md = md_style(app);
  ImGui::TextDisabled(spec->multiple ? "Select every option that applies." : "Select one option.");
  for (size_t pos = 0; pos < st.inst->data_or_empty<ChoiceInstance>().order.size(); ++pos) {
    int authored = st.inst->data_or_empty<ChoiceInstance>().order[pos];
    const ChoiceOption& opt = spec->options[authored];
    std::string text = st.inst->render(opt.text);
    MdDoc doc = parse_markdown(text);
    std::vector<MdRun> runs = doc.blocks.empty() ? std::vector<MdRun>{{text, 0, "", nullptr, ""}} : doc.blocks[0].runs;
    float marker = e * 1.8f;
    float text_w = app.content_width - marker - e * 0.5f;
    const float text_h = layout_runs(runs, ImVec2(0, 0), text_w, md, false) + e * 0.4f;
    const float h = std::max(text_h, touch_target(app.ui));  // a finger's height at least
    const float dy = (h - text_h) * 0.5f;
    ImVec2 p = ImGui::GetCursorScreenPos();
    bool on = picked(v, authored);
    const std::string letter = option_letter(pos);
    std::string id = letter + "##choice-" + std::to_string(pos);
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0, 0, 0, 0));  // the label is drawn below, wrapped
    if (ImGui::Selectable(id.c_str(), on, 0, ImVec2(app.content_width, h))) {
      if (spec->multiple) {
        if (on) v.picks.erase(std::find(v.picks.begin(), v.picks.end(), authored));
        else v.picks.push_back(authored);
      } else {
        v.picks = {authored};
      }
    }
    mark_answer_control();
    {
      Access a;
      a.role = spec->multiple ? Role::Checkbox : Role::Radio;
      a.name = letter + ". " + access_plain(runs);
      a.checked = on ? 1 : 0;
      a.group = "Options";
      access_item(std::move(a));
    }
    ImGui::PopStyleColor();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImVec2 c(p.x + marker * 0.5f, p.y + dy + e * 0.2f + e * 0.72f);
    float r = e * 0.42f;
    if (spec->multiple) {
      dl->AddRect(ImVec2(c.x - r, c.y - r), ImVec2(c.x + r, c.y + r), on ? color::accent() : color::muted(), r * 0.3f, 0, 1.5f);
      if (on) dl->AddRectFilled(ImVec2(c.x - r * 0.55f, c.y - r * 0.55f), ImVec2(c.x + r * 0.55f, c.y + r * 0.55f), color::accent(), r * 0.2f);
    } else {
      dl->AddCircle(c, r, on ? color::accent() : color::muted(), 24, 1.5f);
      if (on) dl->AddCircleFilled(c, r * 0.55f, color::accent(), 24);
    }
    layout_runs(runs, ImVec2(p.x + marker, p.y + dy + e * 0.2f), text_w, md, true);
  }
}

bool answer(App&, ExerciseState& st, Answer& out) {
  out = make_answer(ChoiceAnswer(view_state<State>(st)->picks));
  return true;
}

bool set_answer(App&, ExerciseState& st, const Answer& a) {
  const auto* c = a.as<ChoiceAnswer>();
  if (!c) return false;
  view_state<State>(st)->picks = c->picks;
  return true;
}

// Picks of options that are still there.
void carry_over(const ViewState& old, ExerciseState& st) {
  const auto* o = dynamic_cast<const State*>(&old);
  const size_t n = spec_of(st)->options.size();
  if (o && std::all_of(o->picks.begin(), o->picks.end(), [&](int i) { return i >= 0 && static_cast<size_t>(i) < n; }))
    view_state<State>(st)->picks = o->picks;
}

void hook_state(const ExerciseState& st, nlohmann::json& out) { out["picks"] = view_state<State>(st)->picks; }

}  // namespace

extern const TypeView choice_view;
const TypeView choice_view = {"choice", fresh, draw, answer, set_answer, carry_over, hook_state, nullptr, nullptr};

}  // namespace dtx::web
