// The course outline: what the course map shows before any pack is in (chapters and their
// titles, each exercise's id, title, type and difficulty), written at build
// time into exercises/outline.json (scripts/build-dist.sh) and read by the page, which then
// fetches a pack only when its chapter or one of its exercises opens, and the rest when idle.
//
// The outline is a hint, never the truth: the page grades only packs it has loaded, and a
// loaded pack replaces its outline entry. An outline that is missing, unreadable or of
// another version makes the page load every pack at once, as it did before the outline.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "model.h"

namespace dtx {

constexpr int kOutlineVersion = 1;
// The shipped outline is about 30 KB; a file 100 times larger is not an outline.
constexpr size_t kMaxOutlineBytes = 4 * 1024 * 1024;

struct OutlinePack {
  std::string file;
  // A pack that did not load when the outline was written: no exercises, and the page fetches
  // it at once so that its own messages show (the outline keeps the first of them).
  std::string error;
  Pack pack;  // file, id, title, chapter; exercises with id, title, type, difficulty only
};

struct Outline {
  std::vector<OutlinePack> packs;
};

// The outline of `sources` (the packs of exercises/index.json, in its order) as JSON text.
// Each source is loaded as the page loads it (load_library: a pack left out for an id
// another pack already uses is an error entry too). `unreadable`: files listed but not read
// (file -> why), kept as error entries.
std::string outline_json(const std::vector<PackSource>& sources,
                         const std::map<std::string, std::string>& unreadable = {});

// Reads an outline; false with `error` set when the text is not one (too large, not JSON, of
// another version, an entry of the wrong shape). Field lengths are capped as in packs.
bool parse_outline(const std::string& text, Outline& out, std::string& error);

}  // namespace dtx
