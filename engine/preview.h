// Packs opened for preview (an instructor's `?pack=URL`, a file dropped on the page, a pack
// being edited under `make serve`): unlike the course, a preview never drops a pack whole
// for one mistake. Every exercise that loads and lints clean is playable; the others are
// left out and listed with the same messages `dtx lint` prints for them.
#pragma once

#include <cstdint>
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

// Reports each exercise of `pack` whose id an exercise of `course` already has: a
// DuplicateId error at the exercise's "id", naming the course file that owns it (the message
// `dtx lint` gives two files with one id). Returns the pointers of those exercises
// ("/exercises/3"). Shared by the page's previews and `dtx lint --course`.
std::vector<std::string> report_course_clashes(const Pack& pack, const Library& course, std::vector<Diagnostic>* out);

// Loads `text` as a preview. Exercise ids that the course already uses are errors (the same
// message as `dtx lint` gives two files with one id), and those exercises are left out so
// progress and links never mix a preview with the course.
PreviewPack load_preview(const std::string& text, const std::string& file, const Library& course);

// The command that shows instance `seed` of exercise `id` in a terminal, for the instructor
// panel. `source` is where the exercise's pack came from: "" for the course; for a preview,
// what the page was given (`from_url`: a `?pack=` URL, else a dropped file's name).
//  - a URL relative to the site (exercises/new.json, my/pack.json): that path, which is the
//    pack's path in the repository (the site's folders mirror it);
//  - an http(s) URL: the pack downloaded with curl first, then shown from the copy;
//  - a dropped file: its name, with a note that it is the file dropped.
// Every argument is quoted for a POSIX shell where it needs to be, so a URL with spaces,
// quotes or `$` pastes as one word.
struct ShowCommand {
  std::string command;
  std::string note;  // "" or a few words to show beside the command
};
ShowCommand show_command(const std::string& id, uint64_t seed, const std::string& source, bool from_url);

// `s` as one word for a POSIX shell: as it is when it holds only characters no shell treats
// specially, else in single quotes (a quote inside written '\'').
std::string shell_quote(const std::string& s);

// What an instructor checks in an instance, one line each: the numeric parts' values with
// their unit and tolerance, the correct options as the student sees them lettered, the
// ordering's answer, the buggy lines, the code's function and case count.
std::vector<std::string> instance_answer_lines(const Instance& inst);

}  // namespace dtx
