// Table exercises: a grid of numbers to fill in. Each column is a quantity with a unit, each
// row a case ("ZeRO-1", "ZeRO-2"...), each cell an expression over the parameters; the
// student fills every cell and each is graded on its own, with the engine's diagnosis of a
// wrong one (a factor of N, bits for bytes).
#pragma once

#include <string>
#include <vector>

#include "model.h"
#include "units.h"

namespace dtx {

struct TableColumn {
  std::string label, unit_text, pointer;
  Unit unit;
};

struct TableRow {
  std::string label, pointer;
  std::vector<Expr> cells;  // one per column
};

// A table answer: the text typed in each cell, row by row.
struct TableAnswer : AnswerData {
  std::vector<std::string> cells;
  explicit TableAnswer(std::vector<std::string> c = {}) : cells(std::move(c)) {}
};

// A table instance's own data: the value of each cell, row by row.
struct TableInstance : InstanceData {
  std::vector<double> values;
};

struct TableSpec : TypeSpec {
  std::vector<TableColumn> columns;
  std::vector<TableRow> rows;
  double rel = 0.01, abs = 0;

  size_t cell_count() const { return rows.size() * columns.size(); }
  // "r2c3": the cell's name in `dtx grade` words, the page's ids and feedback.
  static std::string cell_id(size_t row, size_t column);
  // "ZeRO-2, Gradients": what a cell is, for feedback and screen readers.
  std::string cell_label(size_t row, size_t column) const;

  void lint(const Exercise& ex, LintContext& ctx) const override;
  bool prepare(const Exercise& ex, Instance& inst, uint64_t seed, std::string* error) const override;
  Feedback grade(const Exercise& ex, const Instance& inst, const Answer& a,
                 const GradeServices& services) const override;
  void texts(const Exercise& ex, const TextFn& fn) const override;
  void describe(const Exercise& ex, const Instance& inst, bool with_answer, InstanceDescription& out) const override;
  std::vector<std::string> answer_key(const Exercise& ex, const Instance& inst) const override;
  std::optional<Answer> parse_answer(const Exercise& ex, const Instance& inst, const std::vector<std::string>& words,
                                     std::string* error) const override;
  std::vector<std::string> answer_words(const Exercise& ex, const Instance& inst, const Answer& a) const override;
  std::vector<SampleAnswer> sample_answers(const Exercise& ex, const Instance& inst) const override;
};

}  // namespace dtx
