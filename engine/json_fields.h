// Reading a JSON document an author or a student wrote (a pack, an assignment, a submission):
// its size, syntax and nesting checked before any parser recurses into it, then field
// readers whose every error names the place (file, line, column, JSON pointer; positions
// from json_pos.h) and what was expected. Every type's loader uses these, so all packs get
// the same messages.
#pragma once

#include <initializer_list>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model.h"

namespace dtx {

using Json = nlohmann::ordered_json;

// "a string", "the number 3", "an array of 2 items": for "expected X, got Y" messages.
std::string describe_json(const Json& j);
// The first `max_chars` characters of `s`, never cutting a UTF-8 sequence (a cut one makes
// `dtx lint --json` throw), with "..." when something was left out.
std::string excerpt(std::string_view s, size_t max_chars);
// `s` with every byte that is not part of valid UTF-8 written as \xNN: nlohmann quotes the
// raw bytes of a bad string in its syntax errors, and a message must stay valid UTF-8.
std::string utf8_escaped(std::string_view s);

// Turns pointers into file positions and collects diagnostics.
struct Reporter {
  std::string file;
  std::shared_ptr<const std::string> text;
  std::shared_ptr<const JsonPosIndex> positions;
  std::vector<Diagnostic>* out = nullptr;
  // Past this many diagnostics in `out` the rest are only counted: a 10 MB pack can hold
  // a million small mistakes, and each stored one costs a position lookup and a line.
  size_t max_stored = static_cast<size_t>(-1);
  mutable size_t errors = 0;   // errors reported, stored or not
  mutable size_t dropped = 0;  // diagnostics not stored because of max_stored

  // `at_key` points at a member's name instead of its value (unknown fields);
  // `column_in_string` > 0 points inside a string value (an expression's column).
  // The severity is the code's (diagnostic_codes.h).
  void report(DiagCode code, const std::string& pointer, const std::string& message,
              bool at_key = false, int column_in_string = 0) const;
  void error(DiagCode code, const std::string& pointer, const std::string& message, bool at_key = false,
             int column_in_string = 0) const {
    report(code, pointer, message, at_key, column_in_string);
  }
};

struct LoadContext : Reporter {
  // True when an error was reported since `error_count_at_start` (a value of `errors`).
  bool failed() const;
  size_t error_count_at_start = 0;

  bool expect_object(const Json& j, const std::string& ptr, const char* what);
  // Reports unknown members (with a "did you mean" when one is close) and missing
  // required ones. A "$comment" member (a note for authors, as in JSON Schema) is allowed in
  // every object and ignored.
  void check_fields(const Json& obj, const std::string& ptr,
                    const std::vector<std::string>& allowed,
                    const std::vector<std::string>& required);

  // True for a "$comment" member, which callers skip; reports one that is not a string or
  // an array of strings. For objects whose keys are names (params, derived, ranges).
  bool skip_comment(const std::string& key, const Json& value, const std::string& obj_ptr);

  std::optional<std::string> string_field(const Json& obj, const std::string& ptr,
                                          const char* key, bool required,
                                          bool non_empty = true);
  std::optional<double> number_field(const Json& obj, const std::string& ptr, const char* key,
                                     bool required);
  std::optional<long long> int_field(const Json& obj, const std::string& ptr, const char* key,
                                     bool required, long long min, long long max);
  std::optional<bool> bool_field(const Json& obj, const std::string& ptr, const char* key);
  std::vector<std::string> string_list_field(const Json& obj, const std::string& ptr,
                                             const char* key);
  // Parses an expression; a parse error points at its column inside the JSON string.
  std::optional<Expr> expr_field(const Json& obj, const std::string& ptr, const char* key,
                                 bool required);
  std::optional<Expr> expr_value(const Json& v, const std::string& ptr);
  // A tolerance object {"rel": r, "abs": a}; fills defaults.
  bool tolerance_field(const Json& obj, const std::string& ptr, const char* key, double* rel,
                       double* abs);
};

// Pack and exercise ids (and assignment ids): lower-case letters, digits, '-' (and '.' in
// exercise ids), starting with a letter or digit; they go into addresses and file names.
bool valid_id(const std::string& s, bool allow_dot);
// " (did you mean \"ring-volume\"?)" for "Ring_Volume", or "".
std::string suggest_id(const std::string& s, bool allow_dot);

// A JSON document an author or a student wrote (a pack, an assignment, a submission), read
// with the checks every such file gets: its size, its syntax (with the line and column of
// the first error), nesting and object sizes (before a parser that recurses sees it).
struct JsonDocument {
  Json doc;
  std::shared_ptr<const std::string> text;
  std::shared_ptr<const JsonPosIndex> positions;
};
// nullopt, with the one diagnostic that says why, when the text cannot be read at all.
// `too_large_advice` ends the too-large message ("the most a pack may be: split it...").
std::optional<JsonDocument> read_json_document(const std::string& text, const std::string& file, size_t max_bytes,
                                              const std::string& too_large_advice, std::vector<Diagnostic>& out);
// Then the string sizes (false when one is too long: nothing further should read the
// document) and duplicate keys (reported; the document is still read).
bool check_json_document(const JsonDocument& d, LoadContext& ctx);
// A context reading `d` (from `file`) that reports to `out`, listing at most
// kMaxDiagnosticsPerPack problems and counting the rest.
LoadContext load_context(const JsonDocument& d, const std::string& file, std::vector<Diagnostic>& out);

// The set a value is drawn from, as packs write it for a parameter and for a code argument:
// {"choices": [..]} or {"min", "max", "step"?} (step 0: continuous). One reader for both,
// so that they accept and refuse the same things.
struct ValueRange {
  std::vector<double> choices;  // non-empty: one of these
  double min = 0, max = 0, step = 0;
};
// Reads the range at `ptr` (its other members are the caller's). With a `fixed` value (a
// parameter's default) that value must be one of the range's, and a spec with neither
// choices nor min/max is that value alone; without one, a spec needs choices or min/max.
// Reports what is wrong (at the member at fault) and returns nullopt.
std::optional<ValueRange> read_value_range(LoadContext& ctx, const Json& spec, const std::string& ptr,
                                           std::optional<double> fixed);

// " (did you mean \"tolerance\"?)" when a candidate is close to `got` (see closest_match),
// else "". `quote` is the quote character of the message it goes in.
std::string did_you_mean(std::string_view got, const std::vector<std::string>& candidates,
                         char quote = '"');
// "a, b, c"
std::string join_names(const std::vector<std::string>& names, const char* sep = ", ");

}  // namespace dtx
