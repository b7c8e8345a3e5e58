// Numeric answers: one field per part with its unit beside it; Enter submits. The engine
// reads the text (units, "1.75e9 B", "6.1 × 10^-5"); the view never parses a number.
#include <nlohmann/json.hpp>
#include "numeric/numeric.h"
#include "imgui.h"
#include "misc/cpp/imgui_stdlib.h"
#include "ui/access.h"
#include "ui/keyboard.h"
#include "type_view.h"

namespace dtx::web {

namespace {

const NumericSpec* spec_of(const ExerciseState& st) { return st.exercise->spec_as<NumericSpec>(); }

// The text in each part's field.
struct State : ViewState {
  std::vector<std::string> parts;
};

std::shared_ptr<ViewState> fresh(App&, const ExerciseState& st) {
  auto v = std::make_shared<State>();
  v->parts.assign(spec_of(st)->parts.size(), "");
  return v;
}

void draw(App& app, ExerciseState& st) {
  const NumericSpec* spec = spec_of(st);
  State& v = *view_state<State>(st);
  const float e = em(app.ui);
  for (size_t i = 0; i < spec->parts.size(); ++i) {
    const NumericPart& part = spec->parts[i];
    ImGui::PushID(static_cast<int>(i));
    if (!part.label.empty()) markdown(app, part.label);
    std::string unit = part.unit_text.empty() ? "" : part.unit_text;
    float unit_w = unit.empty() ? 0 : ImGui::CalcTextSize(unit.c_str()).x + ImGui::GetStyle().ItemSpacing.x;
    float w = std::min(app.content_width - unit_w, e * 16);
    ImGui::SetNextItemWidth(w);
    if (st.focus_first && i == 0) {
      ImGui::SetKeyboardFocusHere();
      st.focus_first = false;
    }
    std::string id = "##part-" + part.id;
    const std::string hint = part_input_hint(part);
    if (ImGui::InputTextWithHint(id.c_str(), hint.c_str(), &v.parts[i], ImGuiInputTextFlags_EnterReturnsTrue))
      submit(app);
    mark_text_field();
    {
      Access a;
      a.role = Role::Textbox;
      a.name = !part.label.empty() ? access_plain(part.label)
               : spec->parts.size() > 1 ? "Part " + std::to_string(i + 1) : "Your answer";
      if (!unit.empty()) a.desc = "in " + unit;
      a.value_text = v.parts[i];
      a.placeholder = hint;
      access_item(std::move(a));
    }
    if (!unit.empty()) {
      ImGui::SameLine();
      ImGui::TextUnformatted(unit.c_str());
    }
    // the engine's verdict for this part, right under its field
    if (st.feedback && i < st.feedback->parts.size()) {
      const PartFeedback& pf = st.feedback->parts[i];
      // A field that was read while another was not is neither right nor wrong yet: muted,
      // with no mark.
      ImU32 col = !pf.graded ? color::muted()
                  : pf.verdict == Verdict::Correct ? color::correct()
                  : pf.verdict == Verdict::FormatError ? color::partial() : color::wrong();
      std::string line = !pf.graded ? "" : pf.verdict == Verdict::Correct ? "✓ " : pf.verdict == Verdict::FormatError ? "" : "✗ ";
      line += pf.message.empty() ? (pf.verdict == Verdict::Correct ? "right" : "not right") : pf.message;
      if (pf.verdict == Verdict::FormatError && pf.graded) {
        text_colored(col, line.c_str());  // it quotes what the student typed: plain text
      } else {
        // Messages may hold maths (a known mistake's message): drawn as Markdown.
        MdStyle md = md_style(app);
        md.text_color = col;
        draw_markdown(line, md);
      }
    }
    ImGui::PopID();
  }
}

bool answer(App&, ExerciseState& st, Answer& out) {
  out = make_answer(NumericAnswer(view_state<State>(st)->parts));
  return true;
}

bool set_answer(App&, ExerciseState& st, const Answer& a) {
  const auto* n = a.as<NumericAnswer>();
  if (!n) return false;
  view_state<State>(st)->parts = n->parts;
  return true;
}

void carry_over(const ViewState& old, ExerciseState& st) {
  const auto* o = dynamic_cast<const State*>(&old);
  if (o && o->parts.size() == view_state<State>(st)->parts.size()) view_state<State>(st)->parts = o->parts;
}

void hook_state(const ExerciseState& st, nlohmann::json& out) {
  out["inputs"] = view_state<State>(st)->parts;  // the text in each field
}

}  // namespace

extern const TypeView numeric_view;
const TypeView numeric_view = {"numeric", fresh, draw, answer, set_answer, carry_over, hook_state, nullptr, nullptr};

}  // namespace dtx::web
