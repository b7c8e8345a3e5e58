// Table answers: a field per cell. Where the screen is wide enough the cells sit in a grid
// under their column headings; on a phone each row is a short list of labelled fields. The
// engine reads the text (units, "1.75e9 B"); the view never parses a number. Enter submits.
#include <nlohmann/json.hpp>

#include "imgui.h"
#include "maths.h"
#include "misc/cpp/imgui_stdlib.h"
#include "table/table.h"
#include "type_view.h"
#include "ui/access.h"
#include "ui/keyboard.h"

namespace dtx::web {

namespace {

const TableSpec* spec_of(const ExerciseState& st) { return st.exercise->spec_as<TableSpec>(); }

// The text in each cell, row by row.
struct State : ViewState {
  std::vector<std::string> cells;
};

std::shared_ptr<ViewState> fresh(App&, const ExerciseState& st) {
  auto v = std::make_shared<State>();
  v->cells.assign(spec_of(st)->cell_count(), "");
  return v;
}

// The engine's verdict on a cell, as the colour of its frame (the messages are the
// feedback's details, under the table).
const PartFeedback* cell_feedback(const ExerciseState& st, size_t i) {
  if (!st.feedback || i >= st.feedback->parts.size() || !st.feedback->parts[i].graded) return nullptr;
  return &st.feedback->parts[i];
}

std::string heading(const ExerciseState& st, const TableColumn& c) {
  return markdown_math_to_plain(st.inst->render(c.label)) + (c.unit_text.empty() ? "" : " (" + c.unit_text + ")");
}

// One cell's field, `width` wide, with its accessible name ("ZeRO-2, Gradients") and unit.
void draw_cell(App& app, ExerciseState& st, size_t row, size_t col, float width) {
  const TableSpec* spec = spec_of(st);
  State& v = *view_state<State>(st);
  const size_t i = row * spec->columns.size() + col;
  const TableColumn& c = spec->columns[col];
  ImGui::SetNextItemWidth(width);
  if (st.focus_first && i == 0) {
    ImGui::SetKeyboardFocusHere();
    st.focus_first = false;
  }
  const PartFeedback* pf = cell_feedback(st, i);
  const bool marked = pf && pf->verdict != Verdict::FormatError;
  if (marked) ImGui::PushStyleColor(ImGuiCol_Border, pf->verdict == Verdict::Correct ? color::correct() : color::wrong());
  if (marked) ImGui::PushStyleVar(ImGuiStyleVar_FrameBorderSize, 2.0f);
  const std::string id = "##cell-" + TableSpec::cell_id(row, col);
  const std::string hint = c.unit_text.empty() ? "a number" : "in " + c.unit_text;
  if (ImGui::InputTextWithHint(id.c_str(), hint.c_str(), &v.cells[i], ImGuiInputTextFlags_EnterReturnsTrue)) submit(app);
  if (marked) ImGui::PopStyleVar();
  if (marked) ImGui::PopStyleColor();
  mark_text_field();
  Access a;
  a.role = Role::Textbox;
  a.name = markdown_math_to_plain(st.inst->render(spec->rows[row].label)) + ", " +
           markdown_math_to_plain(st.inst->render(c.label));
  if (!c.unit_text.empty()) a.desc = "in " + c.unit_text;
  if (marked) a.desc += std::string(a.desc.empty() ? "" : "; ") + (pf->verdict == Verdict::Correct ? "right" : "wrong");
  a.value_text = v.cells[i];
  a.placeholder = hint;
  access_item(std::move(a));
}

// Wide: the column headings on one line, then each row's label and its cells beside it.
void draw_grid(App& app, ExerciseState& st, float label_w, float cell_w) {
  const TableSpec* spec = spec_of(st);
  const float x0 = ImGui::GetCursorPosX();
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  // (positions by SetCursorPosX, in the window's coordinates like x0: SameLine(x) would add
  // the page's indent a second time)
  const auto column_x = [&](size_t c) { return x0 + label_w + static_cast<float>(c) * (cell_w + gap); };
  for (size_t c = 0; c < spec->columns.size(); ++c) {
    if (c) ImGui::SameLine();
    ImGui::SetCursorPosX(column_x(c));
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + cell_w);
    text_colored(color::muted(), heading(st, spec->columns[c]).c_str());
    ImGui::PopTextWrapPos();
  }
  for (size_t r = 0; r < spec->rows.size(); ++r) {
    ImGui::PushID(static_cast<int>(r));
    ImGui::AlignTextToFramePadding();
    ImGui::PushTextWrapPos(x0 + label_w - gap);
    ImGui::TextUnformatted(markdown_math_to_plain(st.inst->render(spec->rows[r].label)).c_str());
    ImGui::PopTextWrapPos();
    for (size_t c = 0; c < spec->columns.size(); ++c) {
      ImGui::SameLine();
      ImGui::SetCursorPosX(column_x(c));
      draw_cell(app, st, r, c, cell_w);
    }
    ImGui::PopID();
  }
}

// Narrow: each row's label, then a labelled field per column.
void draw_list(App& app, ExerciseState& st) {
  const TableSpec* spec = spec_of(st);
  const float w = std::min(app.content_width, em(app.ui) * 16);
  for (size_t r = 0; r < spec->rows.size(); ++r) {
    ImGui::PushID(static_cast<int>(r));
    if (r) ImGui::Spacing();
    markdown(app, "**" + st.inst->render(spec->rows[r].label) + "**");
    for (size_t c = 0; c < spec->columns.size(); ++c) {
      text_colored(color::muted(), heading(st, spec->columns[c]).c_str());
      draw_cell(app, st, r, c, w);
    }
    ImGui::PopID();
  }
}

// Under the table, what is wrong with each cell that is not right: the engine's diagnosis, or
// why it could not be read (the exercise screen leaves per-part messages to the view).
void draw_cell_messages(App& app, const ExerciseState& st) {
  if (!st.feedback) return;
  for (const PartFeedback& pf : st.feedback->parts) {
    if (!pf.graded || pf.verdict == Verdict::Correct || pf.message.empty()) continue;
    if (pf.verdict == Verdict::FormatError) {
      text_colored(color::partial(), (pf.label + ": " + pf.message).c_str());  // quotes the student: plain text
    } else {
      MdStyle md = md_style(app);
      md.text_color = color::wrong();
      draw_markdown("✗ " + pf.label + ": " + pf.message, md);
    }
  }
}

void draw(App& app, ExerciseState& st) {
  const TableSpec* spec = spec_of(st);
  State& v = *view_state<State>(st);
  if (v.cells.size() < spec->cell_count()) v.cells.resize(spec->cell_count());
  const float e = em(app.ui);
  const float label_w = e * 7, gap = ImGui::GetStyle().ItemSpacing.x;
  const float cols = static_cast<float>(spec->columns.size());
  const float cell_w = std::min(e * 9, (app.content_width - label_w - gap * cols) / cols);
  if (cell_w >= e * 6) draw_grid(app, st, label_w, cell_w);
  else draw_list(app, st);
  draw_cell_messages(app, st);
}

bool answer(App&, ExerciseState& st, Answer& out) {
  out = make_answer(TableAnswer(view_state<State>(st)->cells));
  return true;
}

bool set_answer(App&, ExerciseState& st, const Answer& a) {
  const auto* t = a.as<TableAnswer>();
  if (!t) return false;
  view_state<State>(st)->cells = t->cells;  // (too few: draw gives the rest an empty field)
  return true;
}

void carry_over(const ViewState& old, ExerciseState& st) {
  const auto* o = dynamic_cast<const State*>(&old);
  if (o && o->cells.size() == view_state<State>(st)->cells.size()) view_state<State>(st)->cells = o->cells;
}

void hook_state(const ExerciseState& st, nlohmann::json& out) {
  out["inputs"] = view_state<State>(st)->cells;  // the text in each cell, row by row
}

}  // namespace

extern const TypeView table_view;
const TypeView table_view = {"table", fresh, draw, answer, set_answer, carry_over, hook_state, nullptr, nullptr};

}  // namespace dtx::web
