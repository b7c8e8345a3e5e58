// Addresses: what the page shows, written in the URL's fragment so a link, a bookmark, Back,
// Forward and reload all land on the same screen. Pure string handling (no ImGui), so the
// headless-UI test checks it without a browser.
//
//   #/                      the course map
//   #/chapter/N             the course map with chapter N open and in view
//   #/chapter/N/notes       ... with its notes ("About this chapter") open too
//   #/ex/ID                 exercise ID, the default instance (seed 0)
//   #/ex/ID/SEED            exercise ID, instance SEED
//   #/lab/KIND?in=v&...     a Lab widget with its inputs (numbers, or option names)
//   #/settings
//   #/search?q=words       the search screen with those words
//   #/practice             what is due for review today, as a session
//   #/assignment            the assignment opened with ?assign=URL
//
// The fragment is never sent to the server, so a static host needs no rewrite rules, and the
// query string stays free for `?pack=` previews.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dtx::web {

struct Route {
  enum Kind { Course, Exercise, Lab, Settings, Assignment, Search, Practice, Glossary, Review, Invalid } kind = Course;
  std::string id;          // exercise id, lab widget kind, or glossary term (its slug)
  uint64_t seed = 0;       // exercise instance
  int chapter = -1;        // course map: the chapter to open and show (-1: none named)
  bool notes = false;      // course map: and its notes open
  std::vector<std::pair<std::string, std::string>> query;  // lab inputs, in address order; search: q
  std::string error;       // Invalid: why the address could not be read

  bool operator==(const Route&) const = default;
  // Same screen (kind, exercise and instance, lab kind): moving between two different
  // screens is a history entry; a change within one (a slider, a chapter) replaces it.
  bool same_screen(const Route& o) const { return kind == o.kind && id == o.id && seed == o.seed; }
};

// Longest fragment read; a longer one is refused (an address is not a place for data).
constexpr size_t kMaxRouteBytes = 2048;

// "#/ex/ring.volume/3" -> Route. Accepts the fragment with or without '#', and "" or "#"
// for the course map. Never throws; an address that cannot be read is Kind::Invalid.
Route parse_route(std::string_view fragment);
// Route -> "#/ex/ring.volume/3". Seed 0 is left out; ids and values are percent-encoded.
std::string format_route(const Route& r);
// The address of an exercise's default instance ("#/ex/ring.volume"), for a link to it.
std::string exercise_address(const std::string& id);

std::string percent_encode(std::string_view s);
// False on a bad escape ("%G1", a truncated "%4") or an encoded NUL.
bool percent_decode(std::string_view s, std::string& out);

}  // namespace dtx::web
