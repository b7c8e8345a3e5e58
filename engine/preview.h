// Packs opened for preview (an instructor's `?pack=URL`, a file dropped on the page, a pack
// being edited under `make serve`): unlike the course, a preview never drops a pack whole
// for one mistake. Every exercise that loads and lints clean is playable; the others are
// left out and listed with the same messages `dtx lint` prints for them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model.h"

namespace dtx {

struct PreviewPack {
  std::string file;  // the name diagnostics carry (a URL or a file name)
  // The playable exercises; absent when the top level is unusable (not JSON, not an object).
  std::optional<Pack> pack;
  std::vector<Diagnostic> errors;  // load and lint errors, in file order
  int authored = 0;                // exercises in the file, playable or not
  int left_out() const { return authored - (pack ? static_cast<int>(pack->exercises.size()) : 0); }
};

// Loads `text` as a preview. Exercise ids that the course already uses are errors (the same
// message as `dtx lint` gives two files with one id), and those exercises are left out so
// progress and links never mix a preview with the course.
PreviewPack load_preview(const std::string& text, const std::string& file, const Library& course);

// What an instructor checks in an instance, one line each: the numeric parts' values with
// their unit and tolerance, the correct options as the student sees them lettered, the
// ordering's answer, the buggy lines, the code's function and case count.
std::vector<std::string> instance_answer_lines(const Instance& inst);

}  // namespace dtx
