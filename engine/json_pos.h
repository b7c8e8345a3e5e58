// Where each value of a JSON text starts. nlohmann/json 3.11 (Debian's) does not record
// positions, so after it has accepted a text we walk the same text once and index every
// value by its JSON pointer; errors found later (a wrong type, an unknown field) can then
// name the line and column an author has to go to.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace dtx {

struct TextPos {
  int line = 1, column = 1;
};

struct JsonPosIndex {
  struct Entry {
    size_t key_offset = std::string::npos;  // where the member's key starts (objects only)
    size_t value_offset = 0;
  };
  std::unordered_map<std::string, Entry> entries;
  // Keys that appear twice in one object (nlohmann keeps the last silently).
  std::vector<std::string> duplicate_keys;  // pointers of the second occurrence
  std::vector<size_t> line_starts;           // byte offset of each line

  // Builds the index; `text` must already be valid JSON.
  static JsonPosIndex build(std::string_view text);
  TextPos at_offset(std::string_view text, size_t offset) const;
  // Position of the value at `pointer`, or of its key when `key` is true; falls back to
  // the nearest indexed ancestor.
  size_t offset_of(const std::string& pointer, bool key = false) const;
};

// Escapes a member name for a JSON pointer ("a/b" -> "a~1b").
std::string json_pointer_escape(std::string_view name);

}  // namespace dtx
