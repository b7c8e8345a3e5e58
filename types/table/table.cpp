#include "table.h"

#include <cmath>

#include "diagnose.h"
#include "type_support.h"
#include "maths.h"
#include "text.h"

namespace dtx {

namespace {

// The value of each cell in this instance, row by row (none before prepare).
const std::vector<double>& cell_values(const Instance& inst) {
  return inst.data_or_empty<TableInstance>().values;
}

constexpr size_t kMaxColumns = 8;  // a row must fit a phone's screen as a list of fields
constexpr size_t kMaxRows = 16;

void load_columns(const Json& j, const std::string& ptr, LoadContext& ctx, TableSpec& spec) {
  const Json& cols = j["columns"];
  const std::string cp = ptr + "/columns";
  if (!cols.is_array() || cols.empty() || cols.size() > kMaxColumns) {
    ctx.error(DiagCode::WrongCount, cp, "expected an array of 1 to " + std::to_string(kMaxColumns) +
                                            " columns {\"label\", \"unit\"}, got " + describe_json(cols));
    return;
  }
  for (size_t i = 0; i < cols.size(); ++i) {
    const std::string p = cp + "/" + std::to_string(i);
    if (!ctx.expect_object(cols[i], p, "a column {\"label\", \"unit\"}")) continue;
    ctx.check_fields(cols[i], p, {"label", "unit"}, {"label", "unit"});
    TableColumn c;
    c.pointer = p;
    c.label = ctx.string_field(cols[i], p, "label", true).value_or("");
    if (auto u = ctx.string_field(cols[i], p, "unit", true, false)) {
      std::string err;
      if (auto unit = parse_unit(*u, &err)) {
        c.unit = *unit;
        c.unit_text = *u;
      } else {
        ctx.error(DiagCode::UnknownUnit, p + "/unit", err);
      }
    }
    spec.columns.push_back(std::move(c));
  }
}

void load_rows(const Json& j, const std::string& ptr, LoadContext& ctx, TableSpec& spec) {
  const Json& rows = j["rows"];
  const std::string rp = ptr + "/rows";
  if (!rows.is_array() || rows.empty() || rows.size() > kMaxRows) {
    ctx.error(DiagCode::WrongCount, rp, "expected an array of 1 to " + std::to_string(kMaxRows) +
                                            " rows {\"label\", \"cells\"}, got " + describe_json(rows));
    return;
  }
  for (size_t i = 0; i < rows.size(); ++i) {
    const std::string p = rp + "/" + std::to_string(i);
    if (!ctx.expect_object(rows[i], p, "a row {\"label\", \"cells\"}")) continue;
    ctx.check_fields(rows[i], p, {"label", "cells"}, {"label", "cells"});
    TableRow r;
    r.pointer = p;
    r.label = ctx.string_field(rows[i], p, "label", true).value_or("");
    const Json& cells = rows[i].contains("cells") ? rows[i]["cells"] : Json();
    if (!cells.is_array()) {
      if (!cells.is_null()) ctx.error(DiagCode::WrongKind, p + "/cells", "expected an array of expressions, one per column, got " + describe_json(cells));
      continue;
    }
    if (cells.size() != spec.columns.size() && !spec.columns.empty())
      ctx.error(DiagCode::WrongCount, p + "/cells", "expected " + std::to_string(spec.columns.size()) +
                                                         " cells, one per column, got " + std::to_string(cells.size()));
    for (size_t k = 0; k < cells.size(); ++k)
      if (auto e = ctx.expr_value(cells[k], p + "/cells/" + std::to_string(k))) r.cells.push_back(*e);
    spec.rows.push_back(std::move(r));
  }
}

std::shared_ptr<TypeSpec> load_table(const Json& j, const std::string& ptr, LoadContext& ctx) {
  if (!j.contains("columns") || !j.contains("rows")) return nullptr;  // (reported as missing)
  auto spec = std::make_shared<TableSpec>();
  load_columns(j, ptr, ctx, *spec);
  load_rows(j, ptr, ctx, *spec);
  ctx.tolerance_field(j, ptr, "tolerance", &spec->rel, &spec->abs);
  return ctx.failed() ? nullptr : spec;
}

// `dtx new table`: a whole working exercise, with "$comment" notes on every field (cli/new.cpp
// puts it in a pack; the CLI test checks that it passes `dtx lint --warn`).
const char* kNewTitle = "Fill in the table: ZeRO memory per GPU";
const char* kNewIntro =
    "ZeRO shards the training state over the data-parallel GPUs: stage 1 the optimizer states, "
    "stage 2 the gradients too, stage 3 the parameters as well.";
const char* kNewExercise = R"JSON(    {
      "$comment": [
@COMMON@,
        "A table exercise: a grid of numbers the student fills in. \"columns\" are the quantities, each with a \"label\" and a \"unit\" (students may answer in any unit of the same kind); \"rows\" are the cases, each with a \"label\" and \"cells\": one expression per column over the params and derived values. Every cell is graded on its own within \"tolerance\" (default 1 %), and a wrong one gets the engine's diagnosis (off by a parameter's factor, bits for bytes).",
        "Labels may hold maths and {placeholders}."
      ],
      "id": @ID@,
      "type": "table",
      "title": @TITLE@,
      "difficulty": 2,
      "tags": ["zero", "memory"],
      "prompt": "A model of {P} billion parameters trains with mixed-precision Adam (2 bytes of weights, 2 of gradients and 12 of optimizer state per parameter) on {N} data-parallel GPUs. Fill in what one GPU holds at each ZeRO stage.",
      "params": {
        "P": {"default": 7, "choices": [1, 7, 13]},
        "N": {"default": 8, "choices": [4, 8, 16]}
      },
      "columns": [
        {"label": "Weights", "unit": "GB"},
        {"label": "Gradients", "unit": "GB"},
        {"label": "Optimizer states", "unit": "GB"}
      ],
      "rows": [
        {"label": "ZeRO-1", "cells": ["2*P", "2*P", "12*P/N"]},
        {"label": "ZeRO-2", "cells": ["2*P", "2*P/N", "12*P/N"]},
        {"label": "ZeRO-3", "cells": ["2*P/N", "2*P/N", "12*P/N"]}
      ],
      "tolerance": {"rel": 0.01},
      "hints": [
        "Each stage shards one more kind of state over the N GPUs: optimizer states, then gradients, then weights."
      ],
      "explanation": "At ZeRO-1 only the optimizer states are sharded: 2P + 2P + 12P/N GB. ZeRO-2 shards the gradients too, and ZeRO-3 the weights as well, so at ZeRO-3 each GPU holds (2 + 2 + 12) P / N = {16*P/N:3} GB."
    })JSON";

}  // namespace

const TypeEntry& table_type_entry() {
  static const TypeEntry e{"table", "fill in", {"columns", "rows", "tolerance"}, {"columns", "rows"}, &load_table,
                          kNewTitle, kNewIntro, kNewExercise,
                          "one ANSWER per cell, row by row, or CELL=VALUE (r1c2 is row 1, column 2):\n"
                          "r1c1=14GB r1c2=14GB r1c3=10.5GB ...",
                          7};
  return e;
}

std::string TableSpec::cell_id(size_t row, size_t column) {
  return "r" + std::to_string(row + 1) + "c" + std::to_string(column + 1);
}

std::string TableSpec::cell_label(size_t row, size_t column) const {
  return markdown_math_to_plain(rows[row].label) + ", " + markdown_math_to_plain(columns[column].label);
}

void TableSpec::lint(const Exercise& ex, LintContext& ctx) const {
  (void)ex;
  for (const TableRow& r : rows) {
    for (size_t k = 0; k < r.cells.size() && k < columns.size(); ++k) {
      const std::string p = r.pointer + "/cells/" + std::to_string(k);
      const std::string where = "the cell of row \"" + r.label + "\", column \"" + columns[k].label + "\"";
      if (!ctx.check_names(r.cells[k], p, where, ctx.declared)) continue;
      auto vals = ctx.eval_everywhere(r.cells[k], p, where);
      for (size_t i = 0; i < vals.size(); ++i)
        if (vals[i] && *vals[i] == 0 && abs == 0) {
          ctx.error(DiagCode::ZeroAnswer, p, where + " is 0 " + ctx.describe_point(i) +
                                                 ", which a relative tolerance cannot grade; add \"abs\" to the tolerance");
          break;
        }
    }
  }
}

bool TableSpec::prepare(const Exercise& ex, Instance& inst, uint64_t, std::string* error) const {
  (void)ex;
  auto data = std::make_shared<TableInstance>();
  for (const TableRow& r : rows)
    for (size_t k = 0; k < columns.size(); ++k) {
      ExprError err;
      auto v = k < r.cells.size() ? r.cells[k].eval(inst.scope(), &err) : std::nullopt;
      if (!v) {
        if (error) *error = "row \"" + r.label + "\", column " + std::to_string(k + 1) + ": the cell does not evaluate: " + err.message;
        return false;
      }
      data->values.push_back(*v);
    }
  inst.data = data;
  return true;
}

namespace {

// One cell read and judged: right within the tolerance, or wrong with the engine's diagnosis
// (a factor of a parameter, bits for bytes); unreadable text is a format error.
PartFeedback grade_cell(const TableSpec& spec, const Exercise& ex, const Instance& inst, size_t row, size_t col,
                        const std::string& text) {
  const TableColumn& c = spec.columns[col];
  const double expected = cell_values(inst)[row * spec.columns.size() + col];
  PartFeedback pf;
  pf.id = TableSpec::cell_id(row, col);
  pf.label = spec.cell_label(row, col);
  pf.given = text;
  const std::string unit_sp = c.unit_text.empty() ? "" : " " + c.unit_text;
  pf.expected = format_for_reading(expected) + unit_sp;
  const auto read = read_quantity_in(text, c.unit, c.unit_text, "this column is", &pf.message);
  if (!read) {
    pf.verdict = Verdict::FormatError;
    return pf;
  }
  const double g = *read;
  const std::string tol = describe_tolerance(spec.rel, spec.abs, c.unit_text);
  pf.given = format_for_reading(g) + unit_sp;
  if (within(g, expected, spec.rel, spec.abs)) {
    pf.verdict = Verdict::Correct;
    pf.message = "Correct: " + format_for_reading(g) + unit_sp + " (" + tol + ").";
    return pf;
  }
  pf.verdict = Verdict::Incorrect;
  FactorContext fc;
  fc.unit = &c.unit;
  for (const auto& p : ex.params) fc.values.emplace_back(p.name, inst.value(p.name).value_or(0));
  Diagnosis why = diagnose(g, expected, spec.rel, spec.abs, fc);
  pf.message = std::move(why.message);
  pf.misconception = std::move(why.key);
  if (pf.message.empty()) pf.message = format_for_reading(g) + unit_sp + " is not " + tol + " of the answer.";
  return pf;
}

// Every cell's feedback when one could not be read: that one says why, the others wait (a
// typo never costs an attempt, and nothing is revealed).
Feedback unreadable(std::vector<PartFeedback> cells) {
  Feedback fb;
  fb.verdict = Verdict::FormatError;
  for (PartFeedback& pf : cells) {
    if (pf.verdict == Verdict::FormatError) {
      if (fb.message.empty()) fb.message = pf.label + ": " + pf.message;
      else fb.details.push_back(pf.label + ": " + pf.message);
    } else {
      pf.graded = false;
      pf.verdict = Verdict::FormatError;
      pf.message = "Not graded yet: every cell must be readable first.";
    }
    pf.expected.clear();
  }
  fb.details.push_back("Unreadable answers are not counted as attempts.");
  fb.parts = std::move(cells);
  return fb;
}

}  // namespace

Feedback TableSpec::grade(const Exercise& ex, const Instance& inst, const Answer& answer, const GradeServices&) const {
  const TableAnswer& a = answer.as_or_empty<TableAnswer>();
  if (a.cells.size() != cell_count() || cell_values(inst).size() != cell_count()) {
    Feedback fb;
    fb.verdict = Verdict::FormatError;
    fb.message = "Expected " + std::to_string(cell_count()) + " answers (" + std::to_string(rows.size()) + " rows of " +
                 std::to_string(columns.size()) + " cells), got " + std::to_string(a.cells.size()) + ".";
    return fb;
  }
  std::vector<PartFeedback> cells;
  for (size_t r = 0; r < rows.size(); ++r)
    for (size_t c = 0; c < columns.size(); ++c) cells.push_back(grade_cell(*this, ex, inst, r, c, a.cells[r * columns.size() + c]));
  for (const PartFeedback& pf : cells)
    if (pf.verdict == Verdict::FormatError) return unreadable(std::move(cells));
  Feedback fb;
  int right = 0;
  for (const PartFeedback& pf : cells) {
    right += pf.verdict == Verdict::Correct;
    if (pf.verdict != Verdict::Correct) fb.details.push_back(pf.label + ": " + pf.message);
  }
  const size_t n = cells.size();
  fb.parts = std::move(cells);
  fb.score = static_cast<double>(right) / static_cast<double>(n);
  fb.verdict = right == static_cast<int>(n) ? Verdict::Correct : right > 0 ? Verdict::Partial : Verdict::Incorrect;
  fb.message = right == static_cast<int>(n) ? "Correct: every cell of the table is right."
                                            : std::to_string(right) + " of " + std::to_string(n) + " cells correct.";
  return fb;
}

void TableSpec::texts(const Exercise&, const TextFn& fn) const {
  for (const TableColumn& c : columns) fn(c.label, c.pointer + "/label", "a column's label");
  for (const TableRow& r : rows) fn(r.label, r.pointer + "/label", "a row's label");
}

void TableSpec::describe(const Exercise&, const Instance& inst, bool with_answer, InstanceDescription& out) const {
  Json cols = Json::array(), rws = Json::array();
  for (const TableColumn& c : columns) cols.push_back({{"label", markdown_math_to_plain(inst.render(c.label))}, {"unit", c.unit_text}});
  out.text += "\n";
  for (size_t r = 0; r < rows.size(); ++r) {
    Json cells = Json::array();
    out.text += "  " + markdown_math_to_plain(inst.render(rows[r].label)) + ":\n";
    for (size_t c = 0; c < columns.size(); ++c) {
      const std::string unit = columns[c].unit_text.empty() ? "" : " " + columns[c].unit_text;
      Json cell = {{"id", cell_id(r, c)}};
      out.text += "    [" + cell_id(r, c) + "] " + markdown_math_to_plain(inst.render(columns[c].label)) +
                  (unit.empty() ? "" : " (" + columns[c].unit_text + ")");
      if (with_answer) {
        const double v = cell_values(inst)[r * columns.size() + c];
        cell["value"] = v;
        out.text += " = " + format_number(v, 6) + unit;
        out.answer_words.push_back(cell_id(r, c) + "=" + format_number(v, 12) + unit);
      }
      out.text += "\n";
      cells.push_back(cell);
    }
    rws.push_back({{"label", markdown_math_to_plain(inst.render(rows[r].label))}, {"cells", cells}});
  }
  out.json["columns"] = cols;
  out.json["rows"] = rws;
  if (with_answer) out.json["tolerance"] = {{"rel", rel}, {"abs", abs}};
}

std::vector<std::string> TableSpec::answer_key(const Exercise&, const Instance& inst) const {
  std::vector<std::string> out;
  for (size_t r = 0; r < rows.size(); ++r) {
    std::string line = markdown_math_to_plain(inst.render(rows[r].label)) + ":";
    for (size_t c = 0; c < columns.size() && r * columns.size() + c < cell_values(inst).size(); ++c)
      line += (c ? ", " : " ") + format_number(cell_values(inst)[r * columns.size() + c], 6) +
              (columns[c].unit_text.empty() ? "" : " " + columns[c].unit_text);
    out.push_back(line);
  }
  out.push_back("(" + describe_tolerance(rel, abs, "") + ")");
  return out;
}

// Either one value per cell, row by row, or CELL=VALUE in any order (cells left out are
// empty, and grading says they cannot be read).
std::optional<Answer> TableSpec::parse_answer(const Exercise&, const Instance&, const std::vector<std::string>& words,
                                              std::string* error) const {
  const bool named = !words.empty() && words[0].find('=') != std::string::npos;
  if (!named) return make_answer(TableAnswer(words));
  std::vector<std::string> given(cell_count());
  for (const std::string& w : words) {
    const size_t eq = w.find('=');
    const std::string id = to_lower(trim(w.substr(0, eq == std::string::npos ? 0 : eq)));
    size_t at = cell_count();
    for (size_t r = 0; r < rows.size(); ++r)
      for (size_t c = 0; c < columns.size(); ++c)
        if (cell_id(r, c) == id) at = r * columns.size() + c;
    if (at == cell_count()) {
      if (error) *error = "no cell named '" + id + "': cells are r1c1 to " + cell_id(rows.size() - 1, columns.size() - 1) +
                          " (row, then column)";
      return std::nullopt;
    }
    given[at] = w.substr(eq + 1);
  }
  return make_answer(TableAnswer(given));
}

// "r1c2=text" for every cell, the text as typed: parse_answer takes what follows the first
// '=' whole. An answer with another count of texts goes back positionally.
std::vector<std::string> TableSpec::answer_words(const Exercise&, const Instance&, const Answer& a) const {
  const std::vector<std::string>& texts = a.as_or_empty<TableAnswer>().cells;
  if (texts.size() != cell_count()) return texts;
  std::vector<std::string> words;
  for (size_t r = 0; r < rows.size(); ++r)
    for (size_t c = 0; c < columns.size(); ++c) words.push_back(cell_id(r, c) + "=" + texts[r * columns.size() + c]);
  return words;
}

std::vector<SampleAnswer> TableSpec::sample_answers(const Exercise&, const Instance& inst) const {
  using E = SampleAnswer::Expect;
  std::vector<SampleAnswer> out;
  std::vector<std::string> right;
  for (size_t i = 0; i < cell_count(); ++i) {
    const TableColumn& c = columns[i % columns.size()];
    right.push_back(format_number(cell_values(inst)[i], 12) + (c.unit_text.empty() ? "" : " " + c.unit_text));
  }
  out.push_back({"correct", make_answer(TableAnswer(right)), E::Correct, ""});
  // The last cell three times too large (no diagnosis names a factor of 3), the rest right.
  std::vector<std::string> one_wrong = right;
  const double last = cell_values(inst).back();
  one_wrong.back() = format_number(last == 0 ? 1 : 3 * last, 12) + " " + columns.back().unit_text;
  out.push_back({"the last cell 3x too large", make_answer(TableAnswer(one_wrong)),
                 cell_count() == 1 ? E::Incorrect : E::Partial, ""});
  std::vector<std::string> thrice;
  for (size_t i = 0; i < cell_count(); ++i) {
    const double v = cell_values(inst)[i];
    thrice.push_back(format_number(v == 0 ? 1 : 3 * v, 12) + " " + columns[i % columns.size()].unit_text);
  }
  out.push_back({"every cell 3x too large", make_answer(TableAnswer(thrice)), E::Incorrect, ""});
  std::vector<std::string> words = right;
  words[0] = "about twelve";
  out.push_back({"unreadable: words instead of a number", make_answer(TableAnswer(words)), E::Unreadable, ""});
  std::vector<std::string> fewer(right.begin(), right.end() - 1);
  out.push_back({"unreadable: one cell too few", make_answer(TableAnswer(fewer)), E::Unreadable, ""});
  return out;
}

}  // namespace dtx
