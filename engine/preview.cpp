#include "preview.h"

#include <algorithm>

#include "grade/buggy_line.h"
#include "grade/choice.h"
#include "grade/code.h"
#include "grade/numeric.h"
#include "grade/ordering.h"
#include "lint.h"
#include "load_ctx.h"
#include "figures.h"
#include "text.h"

namespace dtx {

namespace {

// "/exercises/3" owns "/exercises/3" and "/exercises/3/parts/0/unit", not "/exercises/30".
bool under(const std::string& pointer, const std::string& prefix) {
  return pointer.compare(0, prefix.size(), prefix) == 0 &&
         (pointer.size() == prefix.size() || pointer[prefix.size()] == '/');
}

std::string letter(int pos) { return option_letter(static_cast<size_t>(pos)); }

}  // namespace

PreviewPack load_preview(const std::string& text, const std::string& file, const Library& course) {
  PreviewPack out;
  out.file = file;
  LoadResult r = load_pack(text, file);
  out.authored = r.authored;
  for (auto& d : r.diagnostics)
    if (d.severity == Severity::Error) out.errors.push_back(std::move(d));
  if (!r.partial) return out;
  Pack pack = std::move(*r.partial);

  // Ids the course already owns: the course keeps them.
  std::vector<std::string> clashed;
  for (const auto& ex : pack.exercises) {
    const Exercise* owner = course.find(ex.id);
    if (!owner) continue;
    Reporter rep{file, ex.source, ex.positions, &out.errors};
    rep.error(ex.pointer + "/id", "duplicate exercise id \"" + ex.id + "\": already used in " + owner->file);
    clashed.push_back(ex.pointer);
  }

  // Lint what loaded, without running code (a page has no node; the code runs when played).
  Library one;
  one.packs.push_back(pack);
  for (auto& d : lint_library(one, nullptr)) out.errors.push_back(std::move(d));

  // Keep the exercises no error points into.
  std::vector<Exercise> keep;
  for (auto& ex : pack.exercises) {
    bool bad = std::any_of(out.errors.begin(), out.errors.end(),
                           [&](const Diagnostic& d) { return under(d.pointer, ex.pointer); });
    if (!bad) keep.push_back(std::move(ex));
  }
  pack.exercises = std::move(keep);
  std::stable_sort(out.errors.begin(), out.errors.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return a.line != b.line ? a.line < b.line : a.column < b.column;
  });
  out.pack = std::move(pack);
  return out;
}

std::vector<std::string> instance_answer_lines(const Instance& inst) {
  std::vector<std::string> out;
  const Exercise* ex = inst.exercise;
  if (!ex) return out;
  if (const auto* s = ex->spec_as<NumericSpec>()) {
    for (size_t i = 0; i < s->parts.size() && i < inst.part_values.size(); ++i) {
      const auto& p = s->parts[i];
      std::string unit = p.unit_text.empty() ? "" : " " + p.unit_text;
      out.push_back((p.label.empty() ? p.id : p.label) + " = " + format_number(inst.part_values[i], 6) + unit + "  (" +
                    describe_tolerance(p.rel, p.abs, p.unit_text) + ")");
    }
  } else if (const auto* s = ex->spec_as<ChoiceSpec>()) {
    std::string right;
    for (size_t pos = 0; pos < inst.order.size(); ++pos)
      if (s->options[inst.order[pos]].correct) right += (right.empty() ? "" : ", ") + letter(static_cast<int>(pos));
    out.push_back("correct: " + right + (s->multiple ? " (select all of them)" : ""));
  } else if (const auto* s = ex->spec_as<OrderingSpec>()) {
    // Authored order is the answer; letters are positions as shown to the student.
    std::string seq;
    for (size_t k = 0; k < s->items.size(); ++k)
      for (size_t pos = 0; pos < inst.order.size(); ++pos)
        if (inst.order[pos] == static_cast<int>(k)) seq += (seq.empty() ? "" : " ") + letter(static_cast<int>(pos));
    out.push_back("order: " + seq);
  } else if (const auto* s = ex->spec_as<BuggyLineSpec>()) {
    std::string lines;
    for (const auto& b : s->bugs) lines += (lines.empty() ? "" : ", ") + std::to_string(b.line);
    out.push_back(std::string(s->bugs.size() == 1 ? "bug on line " : "bugs on lines ") + lines);
  } else if (const auto* s = ex->spec_as<CodeSpec>()) {
    out.push_back("function " + s->function + ", " + std::to_string(inst.cases.size()) + " test cases; reference solution:");
    out.push_back(s->reference);
  }
  return out;
}

}  // namespace dtx
