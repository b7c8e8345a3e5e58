#include "preview.h"

#include <algorithm>

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
    rep.error(DiagCode::DuplicateId, ex.pointer + "/id", "duplicate exercise id \"" + ex.id + "\": already used in " + owner->file);
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
  const Exercise* ex = inst.exercise;
  if (!ex || !ex->spec) return {};
  return ex->spec->answer_key(*ex, inst);
}

}  // namespace dtx
