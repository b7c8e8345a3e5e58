// Where each value of a JSON text starts. nlohmann/json 3.11 (Debian's) does not record
// positions, so after it has accepted a text we walk the same text once and index every
// value; errors found later (a wrong type, an unknown field) can then name the line and
// column an author has to go to.
//
// Everything here reads text an attacker may have written: no recursion (a pack nested
// 30,000 deep must not overflow the stack), and memory linear in the text (no pointer
// string per value: a value 256 levels down would repeat its whole path).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dtx {

struct TextPos {
  int line = 1, column = 1;
};

// Nesting and size limits of a pack's JSON, checked on the text before any parser that
// recurses (or builds one map per object) touches it. Shipped packs nest 8 levels, their
// largest object has 19 members and their longest string is 4 KB; see docs/AUTHORING.md.
struct JsonLimits {
  int max_depth = 256;           // nested arrays and objects
  size_t max_members = 256;      // members of one object (nlohmann's ordered_json
                                 // inserts in time linear in the members: quadratic per object)
  size_t max_key_chars = 200;    // a member name, in characters
  size_t max_items = 1000;       // items of one array (shipped: 32); 96,000 exercises in a
                                 // 10 MB pack took 9 s to load and lint
};

struct JsonLimitError {
  size_t offset = 0;  // byte offset the message is about
  std::string message;
};

// Checks `text` (which must already be valid JSON) against `limits` in one pass without
// recursion; the first excess found, or nullopt.
std::optional<JsonLimitError> check_json_limits(std::string_view text, const JsonLimits& limits = {});

struct JsonPosIndex {
  static constexpr uint32_t kNone = 0xFFFFFFFFu;
  struct Node {
    uint32_t parent = kNone;
    uint32_t key_offset = kNone;  // where the member's key starts (objects only)
    uint32_t value_offset = 0;
    bool container = false;
  };
  std::vector<Node> nodes;  // node 0 is the document; children follow their parent
  // Children of node i are child_ids[child_begin[i] .. child_begin[i + 1]), in text order.
  std::vector<uint32_t> child_begin, child_ids;
  // Keys that appear twice in one object (nlohmann keeps the last silently): the node of
  // each later occurrence, in text order. pointer_of() names them.
  std::vector<uint32_t> duplicate_keys;
  std::vector<size_t> line_starts;  // byte offset of each line
  // Every kColumnStride bytes, the column there (lines of minified JSON can be megabytes
  // long; without these each position would count from the start of its line).
  static constexpr size_t kColumnStride = 4096;
  std::vector<int> stride_columns;

  // Builds the index; `text` must already be valid JSON (and shorter than 4 GB).
  static JsonPosIndex build(std::string_view text);
  // Only the line table (for texts that are not valid JSON).
  static JsonPosIndex lines_of(std::string_view text);
  TextPos at_offset(std::string_view text, size_t offset) const;
  // Position of the value at `pointer`, or of its key when `key` is true; falls back to
  // the nearest indexed ancestor. `text` is the text the index was built from.
  size_t offset_of(std::string_view text, const std::string& pointer, bool key = false) const;
  // The JSON pointer of a node ("/exercises/3/id").
  std::string pointer_of(std::string_view text, uint32_t node) const;
};

// Escapes a member name for a JSON pointer ("a/b" -> "a~1b").
std::string json_pointer_escape(std::string_view name);

// The decoded text of the JSON string literal whose opening quote is at `quote`.
std::string json_string_at(std::string_view text, size_t quote);

}  // namespace dtx
