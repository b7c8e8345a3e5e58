// Packs, exercises and instances: what a pack file means once it has been checked.
// Loading returns errors as values; nothing here throws across the API.
#pragma once

#include <cstdint>
#include <memory>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "exercise_widget.h"
#include "expr.h"
#include "json_pos.h"

namespace dtx {

enum class Severity { Error, Warning };

// One problem in a pack, with everything an author needs to find and fix it.
struct Diagnostic {
  std::string file;
  int line = 0, column = 0;
  std::string pointer;  // JSON pointer of the offending value, "" for the whole document
  std::string message;  // what was expected and what was found
  Severity severity = Severity::Error;
};
// "file:line:col: error: /pointer: message"
std::string format_diagnostic(const Diagnostic& d);

struct ParamSpec {
  std::string name;
  double default_value = 0;
  std::vector<double> choices;  // non-empty: pick one of these
  double min = 0, max = 0, step = 0;  // used when choices is empty; step 0 = continuous
  std::string pointer;
};

struct Exercise;
struct Instance;
struct Answer;
struct Feedback;
struct LintContext;

// The per-type half of an exercise. One implementation per file in engine/grade/; each
// follows the same lifecycle (load -> lint -> prepare an instance -> grade an answer).
struct TypeSpec {
  virtual ~TypeSpec() = default;
  // Semantic checks beyond the shape of the JSON (answers evaluate, lines in range...).
  virtual void lint(const Exercise& ex, LintContext& ctx) const = 0;
  // Fills the type's part of an instance: answers, display order, code cases.
  virtual bool prepare(const Exercise& ex, Instance& inst, uint64_t seed,
                       std::string* error) const = 0;
  virtual Feedback grade(const Exercise& ex, const Instance& inst, const Answer& a) const = 0;
};

struct Exercise {
  std::string id, type, title, prompt, explanation;
  int difficulty = 2;
  std::vector<std::string> tags, hints;
  std::vector<ParamSpec> params;
  std::vector<std::pair<std::string, Expr>> derived;
  std::vector<Expr> constraints;
  std::shared_ptr<const TypeSpec> spec;
  std::optional<ExerciseWidget> widget;  // an animated widget shown beside the prompt

  // Where it came from, so lint and later checks can point into the file.
  std::string file, pointer, pack_id;
  int chapter = 0;
  std::shared_ptr<const std::string> source;
  std::shared_ptr<const JsonPosIndex> positions;

  template <class T>
  const T* spec_as() const {
    return dynamic_cast<const T*>(spec.get());
  }
};

struct Pack {
  std::string file, id, title, intro;
  int chapter = 0;
  std::vector<Exercise> exercises;
};

// Result of loading one file: a pack when there were no errors, and every diagnostic.
struct LoadResult {
  std::optional<Pack> pack;
  // The same pack with only the exercises that loaded without errors, present whenever the
  // document is a JSON object (previews play these; the course uses `pack` only).
  std::optional<Pack> partial;
  int authored = 0;  // entries in "exercises"
  std::vector<Diagnostic> diagnostics;
  bool ok() const { return pack.has_value(); }
};

// What a pack may hold, checked before anything else reads it (docs/AUTHORING.md, "Limits").
// Shipped packs are at most 100 KB, nest 8 levels, and their longest title is 51 characters,
// id 27 and text 4.2 KB; each limit is well above what they use.
constexpr size_t kMaxPackBytes = 10 * 1024 * 1024;  // the whole file
constexpr size_t kMaxTextBytes = 64 * 1024;         // any one string (prompt, explanation, code)
constexpr size_t kMaxTitleChars = 200;              // pack and exercise titles: one line
constexpr size_t kMaxIdChars = 100;                 // pack and exercise ids: in addresses
constexpr size_t kMaxDiagnosticsPerPack = 200;      // further errors are counted, not listed
// (Nesting and object sizes: JsonLimits in json_pos.h; expressions: expr.h; answers: units.h.)

// Parses and checks the shape of one pack. `file` is used in diagnostics only.
LoadResult load_pack(const std::string& text, const std::string& file);

// Several packs together: also checks that exercise ids are unique across packs. Packs with
// errors are left out; the others load.
struct Library {
  std::vector<Pack> packs;
  std::vector<Diagnostic> diagnostics;
  const Exercise* find(const std::string& id) const;
};
struct PackSource {
  std::string file, text;
};
Library load_library(const std::vector<PackSource>& sources);
// The same, reusing what an earlier call loaded from the same file and text: a page that
// rebuilds its library each time a pack arrives loads each pack once. The cache maps file
// -> (text, result) and is updated.
using LoadCache = std::map<std::string, std::pair<std::string, LoadResult>>;
Library load_library(const std::vector<PackSource>& sources, LoadCache& cache);

// ---------------------------------------------------------------- instances and answers

struct CodeCase {
  std::vector<std::string> args_json;  // each argument as JSON text
  std::vector<double> args_num;        // numeric view, when every argument is a number
  bool numeric_args = true;
  std::optional<std::string> expected_json;  // from the case, the expression; or the reference
  std::string note;
};

// An instance points at its Exercise: keep the Pack (or Library) alive while using it.
struct Instance {
  const Exercise* exercise = nullptr;
  uint64_t seed = 0;
  std::vector<std::pair<std::string, double>> values;  // params then derived, in order
  std::vector<double> part_values;                      // numeric: answer of each part
  std::vector<int> order;  // choice/ordering: authored index shown at each position
  std::vector<CodeCase> cases;

  std::optional<double> value(std::string_view name) const;
  // Scope for expressions: params, derived, answer / answer.<part>.
  ExprScope scope() const;
  // Fills {placeholders} in a Markdown text.
  std::string render(const std::string& text) const;
};

// Makes the instance for `seed`; seed 0 is the default instance (every parameter at its
// default). Fails only when constraints can't be met or an answer does not evaluate.
std::optional<Instance> make_instance(const Exercise& ex, uint64_t seed, std::string* error);

enum class Verdict { Correct, Partial, Incorrect, FormatError };
const char* verdict_name(Verdict v);

struct PartFeedback {
  std::string id, label;
  Verdict verdict = Verdict::Incorrect;
  std::string given, expected, message;
  // False when this part was read but not judged: another part could not be read, so the
  // submission is a format error and no part is marked right or wrong.
  bool graded = true;
};

struct CaseFeedback {
  std::string args, expected, got, note, message;
  bool pass = false;
};

struct Feedback {
  Verdict verdict = Verdict::Incorrect;
  double score = 0;         // 0..1
  std::string message;      // the main sentence
  std::vector<std::string> details;  // further specific messages
  std::vector<PartFeedback> parts;
  std::vector<CaseFeedback> cases;
  // A format error (unreadable input) is not an attempt and is not recorded.
  bool counts_as_attempt() const { return verdict != Verdict::FormatError; }
};

struct CodeRunResult;

// What a student submits. Only the fields of the exercise's type are read.
struct Answer {
  std::vector<std::string> parts;  // numeric: text typed in each part, in part order
  std::vector<int> picks;  // choice: authored option indices; ordering: authored item
                           // indices in the student's order; buggy-line: 1-based lines
  const CodeRunResult* code_run = nullptr;  // code: what the runner returned
};

Feedback grade(const Instance& inst, const Answer& a);

// The feedback as sentences a screen reader speaks (the page's live region): the verdict in
// words, then each part by number and label ("Part 2, Sent over the whole AllReduce: Correct:
// 1.75 GB matches 1.75 GB (within 1%)."), each failed case, the details. Never a raw code.
std::string spoken_feedback(const Feedback& fb);

}  // namespace dtx
