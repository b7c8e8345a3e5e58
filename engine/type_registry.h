// The exercise types the engine knows, before any exercise is loaded: one per folder in types/
// (types/README.md), listed by a file the build writes from those folders
// (generated/type_registry.cpp). Public: the CLI (`dtx types`, `dtx new`) and the course map
// (a type's verb) read it; loading an exercise goes through `TypeEntry::load`.
#pragma once

#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace dtx {

struct LoadContext;
struct TypeSpec;

struct TypeEntry {
  const char* name;
  const char* verb;  // what the student does, on the course map: "derive", "choose"
  std::vector<std::string> fields;    // members the type adds to an exercise
  std::vector<std::string> required;  // of those, the required ones
  std::shared_ptr<TypeSpec> (*load)(const nlohmann::ordered_json& ex, const std::string& ptr, LoadContext& ctx);
  // `dtx new NAME`: the starting exercise (a JSON object with "$comment" notes and @COMMON@
  // where the notes every type shares go), with a title and the chapter intro it comes with.
  const char* new_title;
  const char* new_intro;
  const char* new_exercise;
  // `dtx grade --help`: how an answer is written on the command line (lines after the first
  // are indented under it).
  const char* answer_help;
  // Where the type comes in `dtx types`, the schema and the guide: simplest first.
  int order = 100;
};
const std::vector<TypeEntry>& exercise_types();
const TypeEntry* find_type(std::string_view name);
// The members every exercise may have, whatever its type (besides "$comment").
const std::vector<std::string>& common_exercise_fields();

}  // namespace dtx
