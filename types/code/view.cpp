// Code: a monospace editor with line numbers (tab indents, Ctrl+Z undoes, the clipboard is
// the system's, see web/shell/dtx.js). Submitting sends the engine's run request to the Web
// Worker sandbox; the result comes back through app_on_code_result, which grades what `ran`
// makes of it.
#include <nlohmann/json.hpp>
#include "code/code.h"
#include "imgui.h"
#include "misc/cpp/imgui_stdlib.h"
#include "ui/access.h"
#include "ui/keyboard.h"
#include "type_view.h"

namespace dtx::web {

namespace {

const CodeSpec* spec_of(const ExerciseState& st) { return st.exercise->spec_as<CodeSpec>(); }

// The editor's text.
struct State : ViewState {
  std::string code;
};

std::string starter_code(const CodeSpec& spec) {
  if (!spec.starter.empty()) return spec.starter;
  std::string code = "function " + spec.function + "(";
  for (size_t i = 0; i < spec.args.size(); ++i) {
    if (i) code += ", ";
    code += spec.args[i];
  }
  code += ") {\n  \n}\n";
  return code;
}

std::shared_ptr<ViewState> fresh(App&, const ExerciseState& st) {
  auto v = std::make_shared<State>();
  v->code = starter_code(*spec_of(st));
  return v;
}

// The function to write, as JavaScript declares it, with what it returns.
void draw_signature(App& app, const CodeSpec* spec) {
  ImFont* mono = app.ui.fonts.mono;
  std::string sig = "function " + spec->function + "(";
  for (size_t i = 0; i < spec->args.size(); ++i) sig += (i ? ", " : "") + spec->args[i];
  sig += ")";
  if (!spec->returns.empty()) sig += " → " + spec->returns;
  ImGui::PushFont(mono);
  ImGui::TextWrapped("%s", sig.c_str());
  ImGui::PopFont();
}

// The editor, with line numbers in a gutter at its left, and the way back to the starter code.
void draw_editor(App& app, ExerciseState& st, const CodeSpec* spec, std::string& code) {
  ImFont* mono = app.ui.fonts.mono;
  const float e = em(app.ui);
  int lines = 1;
  for (char c : code) lines += c == '\n';
  const float line_h = mono->FontSize;
  char digits[16];
  std::snprintf(digits, sizeof digits, "%d", std::max(lines, 10));
  float gutter = mono->CalcTextSizeA(mono->FontSize, FLT_MAX, 0, digits).x + e * 0.8f;
  // Tall enough for every line: the page scrolls, not the editor, so the gutter stays aligned.
  float h = std::max(lines + 2, 8) * line_h + ImGui::GetStyle().FramePadding.y * 2;
  ImVec2 p = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(p, ImVec2(p.x + gutter, p.y + h), color::code_bg(), 4);
  float pad_y = ImGui::GetStyle().FramePadding.y;
  for (int i = 0; i < lines; ++i) {
    char num[16];
    std::snprintf(num, sizeof num, "%d", i + 1);
    float nw = mono->CalcTextSizeA(mono->FontSize, FLT_MAX, 0, num).x;
    dl->AddText(mono, mono->FontSize, ImVec2(p.x + gutter - nw - e * 0.4f, p.y + pad_y + i * line_h), color::muted(), num);
  }
  ImGui::SetCursorScreenPos(ImVec2(p.x + gutter, p.y));
  ImGui::PushFont(mono);
  if (st.focus_first) {
    ImGui::SetKeyboardFocusHere();
    st.focus_first = false;
  }
  ImGui::InputTextMultiline("##code", &code, ImVec2(app.content_width - gutter, h),
                            ImGuiInputTextFlags_AllowTabInput);
  mark_text_field();
  {
    Access a;
    a.role = Role::Textarea;
    a.name = "Your code (JavaScript)";
    a.desc = "Tab indents; Escape, then Tab, moves on";
    a.value_text = code;
    access_item(std::move(a));
  }
  ImGui::PopFont();
  if (small_button(app.ui, "Reset to the starter code##code-reset")) code = starter_code(*spec);
}

// Per-case results of the last run; hidden cases (the engine gives only their verdicts)
// are one row at the end that counts them.
void draw_case_results(App& app, const ExerciseState& st) {
  ImFont* mono = app.ui.fonts.mono;
  const float e = em(app.ui);
  int hidden = 0, hidden_pass = 0;
  if (st.feedback)
    for (const auto& c : st.feedback->cases) {
      hidden += c.hidden;
      hidden_pass += c.hidden && c.pass;
    }
  if (st.feedback && !st.feedback->cases.empty()) {
    ImGui::Spacing();
    if (ImGui::BeginTable("##cases", 4, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
      ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, e * 1.5f);
      ImGui::TableSetupColumn("arguments");
      ImGui::TableSetupColumn("expected");
      ImGui::TableSetupColumn("your result");
      ImGui::TableHeadersRow();
      for (const auto& c : st.feedback->cases) {
        if (c.hidden) continue;
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        text_colored(c.pass ? color::correct() : color::wrong(), c.pass ? "✓" : "✗");
        ImGui::PushFont(mono);
        ImGui::TableNextColumn();
        ImGui::TextWrapped("%s", c.args.c_str());
        ImGui::TableNextColumn();
        ImGui::TextWrapped("%s", c.expected.c_str());
        ImGui::TableNextColumn();
        ImGui::TextWrapped("%s", c.got.c_str());
        ImGui::PopFont();
        if (!c.pass && !c.message.empty()) {
          ImGui::TableNextRow();
          ImGui::TableNextColumn();
          ImGui::TableNextColumn();
          text_colored(color::wrong(), c.message.c_str());
        }
      }
      if (hidden > 0) {
        const bool all = hidden_pass == hidden;
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        text_colored(all ? color::correct() : color::wrong(), all ? "✓" : "✗");
        ImGui::TableNextColumn();
        ImGui::TextWrapped("%d hidden case%s", hidden, hidden == 1 ? "" : "s");
        ImGui::TableNextColumn();
        text_colored(color::muted(), "not shown");
        ImGui::TableNextColumn();
        ImGui::TextWrapped("%d of %d pass", hidden_pass, hidden);
      }
      ImGui::EndTable();
    }
  }
}

void draw(App& app, ExerciseState& st) {
  const CodeSpec* spec = spec_of(st);
  std::string& code = view_state<State>(st)->code;
  draw_signature(app, spec);
  draw_editor(app, st, spec, code);
  draw_case_results(app, st);
}

// The code runs in the sandbox worker first; `ran` grades what came back.
bool answer(App& app, ExerciseState& st, Answer&) {
  CodeRunRequest req = make_code_request(*st.inst, view_state<State>(st)->code);
  st.code_request = app.load.next_request++;
  st.code_started_ms = app.platform->now_ms();
  app.platform->run_code(st.code_request, code_request_to_json(req));
  return false;
}

bool ran(ExerciseState& st, const std::string& result_json, Answer& out) {
  auto run = std::make_shared<const CodeRunResult>(code_result_from_json(result_json));
  out = make_answer(CodeAnswer(view_state<State>(st)->code, std::move(run)));
  return true;
}

bool set_answer(App&, ExerciseState& st, const Answer& a) {
  const auto* c = a.as<CodeAnswer>();
  if (!c) return false;
  view_state<State>(st)->code = c->source;
  return true;
}

void carry_over(const ViewState& old, ExerciseState& st) {
  const auto* o = dynamic_cast<const State*>(&old);
  if (o && !o->code.empty()) view_state<State>(st)->code = o->code;
}

void hook_state(const ExerciseState& st, nlohmann::json& out) { out["code"] = view_state<State>(st)->code; }

}  // namespace

extern const TypeView code_view;
const TypeView code_view = {"code", fresh, draw, answer, set_answer, carry_over, hook_state, ran, nullptr};

}  // namespace dtx::web
