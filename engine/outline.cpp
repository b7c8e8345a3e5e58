#include "outline.h"

#include <map>

#include <nlohmann/json.hpp>

#include "json_fields.h"
#include "type_registry.h"

namespace dtx {

// Keys sorted (nlohmann::json), not in insertion order as json_fields.h's Json: the outline's bytes stay as they were.
using SortedJson = nlohmann::json;

std::string outline_json(const std::vector<PackSource>& sources, const std::map<std::string, std::string>& unreadable) {
  Library lib = load_library(sources);
  std::map<std::string, const Pack*> loaded;
  for (const auto& p : lib.packs) loaded[p.file] = &p;
  std::map<std::string, std::string> first_error;
  for (const auto& d : lib.diagnostics)
    if (d.severity == Severity::Error && !first_error.count(d.file)) first_error[d.file] = format_diagnostic(d);
  SortedJson packs = SortedJson::array();
  for (const auto& s : sources) {
    if (auto u = unreadable.find(s.file); u != unreadable.end()) {
      packs.push_back({{"file", s.file}, {"error", s.file + ": " + u->second}});
      continue;
    }
    auto it = loaded.find(s.file);
    if (it == loaded.end()) {
      auto e = first_error.find(s.file);
      packs.push_back({{"file", s.file}, {"error", e != first_error.end() ? e->second : s.file + ": did not load"}});
      continue;
    }
    const Pack& p = *it->second;
    SortedJson exercises = SortedJson::array();
    for (const auto& ex : p.exercises)
      exercises.push_back({{"id", ex.id}, {"title", ex.title}, {"type", ex.type}, {"difficulty", ex.difficulty}});
    // No introduction: it is two thirds of the text, and shown only when a chapter is opened,
    // which fetches the pack.
    packs.push_back({{"file", s.file}, {"id", p.id}, {"chapter", p.chapter}, {"title", p.title},
                     {"exercises", std::move(exercises)}});
  }
  // What each type asks of the student ("derive", "choose"), as the map labels a row: the
  // page's first screen (scripts/first-screen.mjs) is drawn from this file before the engine
  // runs, with the engine's own words.
  SortedJson verbs = SortedJson::object();
  for (const auto& t : exercise_types()) verbs[t.name] = t.verb;
  SortedJson out = {{"dtx_outline", kOutlineVersion}, {"packs", std::move(packs)}, {"verbs", std::move(verbs)}};
  return out.dump(-1, ' ', false, SortedJson::error_handler_t::replace) + "\n";
}

namespace {

bool string_field(const SortedJson& j, const char* key, size_t max, std::string& into, bool required = true) {
  auto it = j.find(key);
  if (it == j.end()) return !required;
  if (!it->is_string()) return false;
  const auto& s = it->get_ref<const std::string&>();
  if (s.size() > max) return false;
  into = s;
  return true;
}

bool int_field(const SortedJson& j, const char* key, int lo, int hi, int& into) {
  auto it = j.find(key);
  if (it == j.end()) return true;
  if (!it->is_number_integer()) return false;
  auto v = it->get<long long>();
  if (v < lo || v > hi) return false;
  into = static_cast<int>(v);
  return true;
}

}  // namespace

bool parse_outline(const std::string& text, Outline& out, std::string& error) {
  out = Outline{};
  if (text.size() > kMaxOutlineBytes) {
    error = "larger than " + std::to_string(kMaxOutlineBytes / (1024 * 1024)) + " MB";
    return false;
  }
  SortedJson j = SortedJson::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    error = "not a JSON object";
    return false;
  }
  auto v = j.find("dtx_outline");
  if (v == j.end() || !v->is_number_integer() || v->get<long long>() != kOutlineVersion) {
    error = "not an outline of version " + std::to_string(kOutlineVersion);
    return false;
  }
  auto packs = j.find("packs");
  if (packs == j.end() || !packs->is_array()) {
    error = "\"packs\" is not a list";
    return false;
  }
  for (size_t i = 0; i < packs->size(); ++i) {
    const SortedJson& pj = (*packs)[i];
    const std::string where = "packs[" + std::to_string(i) + "]";
    OutlinePack op;
    if (!pj.is_object() || !string_field(pj, "file", 255, op.file) || op.file.empty() ||
        !string_field(pj, "error", kMaxTextBytes, op.error, false)) {
      error = where + ": expected an object with a \"file\" name";
      return false;
    }
    Pack& p = op.pack;
    p.file = op.file;
    if (op.error.empty()) {
      auto exs = pj.find("exercises");
      if (!string_field(pj, "id", kMaxIdChars, p.id) || !string_field(pj, "title", kMaxTitleChars * 4, p.title) ||
          !int_field(pj, "chapter", -1000000, 1000000, p.chapter) ||
          exs == pj.end() || !exs->is_array()) {
        error = where + " (" + op.file + "): expected id, title, chapter and a list of exercises";
        return false;
      }
      for (size_t k = 0; k < exs->size(); ++k) {
        const SortedJson& ej = (*exs)[k];
        Exercise ex;
        if (!ej.is_object() || !string_field(ej, "id", kMaxIdChars, ex.id) ||
            !string_field(ej, "title", kMaxTitleChars * 4, ex.title) || !string_field(ej, "type", kMaxIdChars, ex.type) ||
            !int_field(ej, "difficulty", 0, 100, ex.difficulty)) {
          error = where + ".exercises[" + std::to_string(k) + "] (" + op.file + "): expected id, title and type";
          return false;
        }
        ex.file = op.file;
        ex.pack_id = p.id;
        ex.chapter = p.chapter;
        p.exercises.push_back(std::move(ex));
      }
    }
    out.packs.push_back(std::move(op));
  }
  return true;
}

}  // namespace dtx
