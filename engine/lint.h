// Semantic checks of loaded packs: what a JSON schema cannot see (answers that fail to
// evaluate at some parameter corner, mistakes equal to the answer, lines out of range...),
// and optional style warnings (no hints, no known mistakes, a varying parameter the prompt
// never shows...).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "model.h"

namespace dtx {

class CodeRunner;
using ExerciseExists = std::function<bool(const std::string& id)>;

struct LintOptions {
  // With a runner, code exercises also run their reference solution and their listed wrong
  // implementations.
  CodeRunner* runner = nullptr;
  // Adds Severity::Warning diagnostics for style problems that do not break an exercise
  // but make it teach less (`dtx lint --warn`).
  bool warnings = false;
  // `dtx lint --seeds N`: also make the instances of seeds 0..N-1 of every exercise and check
  // each (TypeSpec::lint_instance), and how often the constraints reject a draw.
  int seeds = 0;
  // Whether the file a Markdown image names exists: `pack_file` is the pack as loaded
  // (Pack::file), `path` the image's path relative to the pack's folder (image_relative_path
  // in markdown_links.h). `dtx lint` looks on disk (E043); unset, as in the page's preview,
  // which sees no files, the check is skipped. The engine itself never touches files.
  std::function<bool(const std::string& pack_file, const std::string& path)> image_exists;
  // Whether an exercise a text refers to (a Markdown link to #/ex/ID) exists: unset, it must
  // be in the library linted (E071); the page's preview also accepts the course's.
  ExerciseExists exercise_exists;
};


std::vector<Diagnostic> lint_library(const Library& lib, const LintOptions& options);

// Errors only; the same as lint_library(lib, {runner, false}).
std::vector<Diagnostic> lint_library(const Library& lib, CodeRunner* runner);

}  // namespace dtx
