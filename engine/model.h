// Packs, exercises and instances: what a pack file means once it has been checked.
// Loading returns errors as values; nothing here throws across the API.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "diagnostic_codes.h"
#include "exercise_widget.h"
#include "pack_limits.h"
#include "expr.h"
#include "json_pos.h"
#include "units.h"

namespace dtx {

// One problem in a pack, with everything an author needs to find and fix it.
struct Diagnostic {
  std::string file;
  int line = 0, column = 0;
  std::string pointer;  // JSON pointer of the offending value, "" for the whole document
  std::string message;  // what was expected and what was found
  Severity severity = Severity::Error;
  DiagCode code = DiagCode::InvalidJson;  // set by whoever reports it; severity follows it
};
// A diagnostic of `code` (its severity the code's) at a place in a file.
Diagnostic make_diagnostic(DiagCode code, std::string file, int line, int column, std::string pointer,
                           std::string message);
// "file:line:col: error[E012]: /pointer: message"
std::string format_diagnostic(const Diagnostic& d);

struct ParamSpec {
  std::string name;
  double default_value = 0;
  std::vector<double> choices;  // non-empty: pick one of these
  double min = 0, max = 0, step = 0;  // used when choices is empty; step 0 = continuous
  // "unit": what the value measures ("GB", "GB/s"); lint checks answers' dimensions with it.
  std::optional<Unit> unit;
  std::string pointer;
};

struct Exercise;
struct Instance;
struct Answer;
struct Feedback;
struct LintContext;
struct InstanceProblems;
class CodeRunner;

// What grading may use beyond the instance and the answer: a code exercise's answer that
// has not run yet is run with `runner` (the CLI's sandbox host). Null: nothing is run.
struct GradeServices {
  CodeRunner* runner = nullptr;
};

// An answer as a test or a benchmark gives it: what it is ("correct", "a known mistake: ...",
// "unreadable"), the answer, and the verdict it must get. Every type lists its own.
struct SampleAnswer;

// An instance told without the page: `dtx show` prints `text` (or `json` with --json) after
// the prompt. With `with_answer` the key is included (`dtx show --answer`).
struct InstanceDescription;

// The per-type half of an exercise. One implementation per folder in types/; each
// owns its whole lifecycle: load (TypeEntry) -> lint -> prepare an instance -> describe it
// -> read an answer -> grade it, and the sample answers its tests and benchmark use. Nothing
// outside a type's own files names the type: the CLI, lint, the preview and the tests loop
// over exercise_types() and call these.
struct TypeSpec {
  virtual ~TypeSpec() = default;
  // Semantic checks beyond the shape of the JSON (answers evaluate, lines in range...).
  virtual void lint(const Exercise& ex, LintContext& ctx) const = 0;
  // The type's style warnings (`dtx lint --warn`, LintContext::warn): a student who needs
  // hints and gets none, a parameter the answer uses that the prompt never shows.
  virtual void warn(const Exercise& ex, LintContext& ctx) const { (void)ex, (void)ctx; }
  // Fills the type's part of an instance: answers, display order, code cases.
  virtual bool prepare(const Exercise& ex, Instance& inst, uint64_t seed,
                       std::string* error) const = 0;
  virtual Feedback grade(const Exercise& ex, const Instance& inst, const Answer& a,
                         const GradeServices& services) const = 0;
  // `dtx lint --seeds N`: what is wrong with one instance though the defaults and the corners
  // are fine (a known mistake or another part's answer that would grade as right here, an
  // answer no quantity of its unit can have). Reported to `out`, which gathers the seeds.
  virtual void lint_instance(const Exercise& ex, const Instance& inst, InstanceProblems& out) const {
    (void)ex, (void)inst, (void)out;
  }

  // Every Markdown text of the type (option texts, feedback, labels, messages), with its
  // JSON pointer and what it is in words ("an option's feedback"): lint checks links, maths
  // and placeholders in each, the same way as the prompt's.
  using TextFn = std::function<void(const std::string& text, const std::string& pointer, const std::string& what)>;
  virtual void texts(const Exercise& ex, const TextFn& fn) const { (void)ex, (void)fn; }
  // Names the type adds to placeholders and expressions ("answer", "answer.<part>"), and
  // their values in an instance.
  virtual std::vector<std::string> answer_names(const Exercise& ex) const { (void)ex; return {}; }
  virtual std::optional<double> answer_value(const Instance& inst, std::string_view name) const {
    (void)inst, (void)name;
    return std::nullopt;
  }
  // How each keyed number comes out with this instance's values, for the worked solution and
  // `dtx show --answer` (engine/derivation.h): the number's label and its derivation lines.
  virtual std::vector<std::pair<std::string, std::string>> derivations(const Exercise& ex, const Instance& inst) const {
    (void)ex, (void)inst;
    return {};
  }
  // The unit an answer name's value is in ("GB" for a numeric part), for checks that compare
  // values across units (a pack's limits); "" for a plain number or no such name.
  virtual std::string answer_unit(const Exercise& ex, std::string_view name) const {
    (void)ex, (void)name;
    return "";
  }
  // The answer area as text (plain, maths as Unicode) and JSON, for `dtx show`.
  virtual void describe(const Exercise& ex, const Instance& inst, bool with_answer,
                        InstanceDescription& out) const = 0;
  // The key in a line or two, for the instructor view of a preview ("correct: B, D").
  virtual std::vector<std::string> answer_key(const Exercise& ex, const Instance& inst) const = 0;
  // True when an answer is a program (read from files by `dtx grade`, run in the sandbox).
  virtual bool answer_is_program() const { return false; }
  // Reads an answer written as `dtx grade` takes it: words ("A,C", "3", "bytes=1.75 GB") or,
  // for a program, the file's text as the one word. nullopt with `error` when it cannot be
  // read (the CLI reports a format error; nothing is graded).
  virtual std::optional<Answer> parse_answer(const Exercise& ex, const Instance& inst,
                                             const std::vector<std::string>& words,
                                             std::string* error) const = 0;
  // The answer as words parse_answer reads back to the same answer for this instance (an
  // attempt saved in a submission file, graded again later by the CLI). An answer that
  // cannot be graded (a wrong count, an option that is not there) gives words that are a
  // format error too.
  virtual std::vector<std::string> answer_words(const Exercise& ex, const Instance& inst,
                                                const Answer& a) const = 0;
  // Answers with known verdicts for this instance: at least the correct one, one of each
  // kind of wrong answer the type knows, and an unreadable one when the type has any.
  virtual std::vector<SampleAnswer> sample_answers(const Exercise& ex, const Instance& inst) const = 0;
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
  std::vector<ExerciseWidget> simulations;  // "simulations": checked by lint, never shown
  std::vector<LimitBinding> limits;         // "limits": values held to the pack's limits

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

// One term of a pack's "glossary" (engine/glossary.h reads, matches and lints them).
struct GlossaryEntry {
  std::string term;                  // the form students meet most: "MFU", "busBw", "ZeRO-3"
  std::vector<std::string> aliases;  // other forms: "model FLOPs utilisation"
  std::string definition;            // Markdown, a few sentences
  std::string source;                // where its fact comes from; "" when none is named
  std::string slug;                  // its address: #/glossary/<slug>
  std::string file, pointer;         // where it is defined ("/glossary/3")
  bool operator==(const GlossaryEntry&) const = default;
};

struct Pack {
  std::string file, id, title, intro;
  int chapter = 0;
  std::vector<PackLimit> limits;  // "limits": what every instance of its exercises respects
  std::vector<GlossaryEntry> glossary;  // "glossary": the terms this pack defines
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

// An instance points at its Exercise: keep the Pack (or Library) alive while using it.
struct Instance {
  const Exercise* exercise = nullptr;
  uint64_t seed = 0;
  std::vector<std::pair<std::string, double>> values;  // params then derived, in order
  // What the type keeps per instance (its answers, the order it shows things in, its cases):
  // its own struct, derived from InstanceData, made by TypeSpec::prepare.
  std::shared_ptr<const struct InstanceData> data;
  template <class T>
  const T* data_as() const {
    return dynamic_cast<const T*>(data.get());
  }
  // The type's data, or an empty T before prepare made it.
  template <class T>
  const T& data_or_empty() const {
    static const T kEmpty;
    const T* d = data_as<T>();
    return d ? *d : kEmpty;
  }

  std::optional<double> value(std::string_view name) const;
  // Scope for expressions: params, derived, answer / answer.<part>.
  ExprScope scope() const;
  // Fills {placeholders} in a Markdown text.
  std::string render(const std::string& text) const;
};

// Makes the instance for `seed`; seed 0 is the default instance (every parameter at its
// default). Fails only when constraints can't be met or an answer does not evaluate.
std::optional<Instance> make_instance(const Exercise& ex, uint64_t seed, std::string* error);
// The same, also counting the parameter draws it took (1 unless constraints rejected some).
std::optional<Instance> make_instance(const Exercise& ex, uint64_t seed, std::string* error, int* draws);

enum class Verdict { Correct, Partial, Incorrect, FormatError };
const char* verdict_name(Verdict v);

struct PartFeedback {
  std::string id, label;
  Verdict verdict = Verdict::Incorrect;
  std::string given, expected, message;
  // False when this part was read but not judged: another part could not be read, so the
  // submission is a format error and no part is marked right or wrong.
  bool graded = true;
  // The misconception key of a wrong part the engine diagnosed (engine/misconception.h); ""
  // when none is known. It groups the same slip across exercises in the student's review.
  std::string misconception;
};

struct CaseFeedback {
  std::string args, expected, got, note, message;
  bool pass = false;
  // A hidden case: args, expected, got and note are empty, and message is empty or says that
  // the case threw (never the error's text, which can quote the arguments).
  bool hidden = false;
  std::string misconception;  // as PartFeedback's: the key of a failing case's diagnosis
};

struct Feedback {
  Verdict verdict = Verdict::Incorrect;
  double score = 0;         // 0..1
  std::string message;      // the main sentence
  std::vector<std::string> details;  // further specific messages
  std::vector<PartFeedback> parts;
  std::vector<CaseFeedback> cases;
  // The misconception key of the answer as a whole, for answers without parts or cases (an
  // option whose author-written feedback explains the wrong pick: "listed"), and for code
  // whose failing cases all share one diagnosis; "" otherwise.
  std::string misconception;
  // A format error (unreadable input) is not an attempt and is not recorded.
  bool counts_as_attempt() const { return verdict != Verdict::FormatError; }
};

struct InstanceData {
  virtual ~InstanceData() = default;
};

// What a student submits, in its type's own form: each type in types/ defines its
// answer (NumericAnswer, ChoiceAnswer...) as a struct derived from AnswerData.
struct AnswerData {
  virtual ~AnswerData() = default;
};
struct Answer {
  std::shared_ptr<const AnswerData> data;
  template <class T>
  const T* as() const {
    return dynamic_cast<const T*>(data.get());
  }
  // The answer as T, or an empty T when it is none (no answer, or another type's): grading
  // then says what is missing.
  template <class T>
  const T& as_or_empty() const {
    static const T kEmpty;
    const T* a = as<T>();
    return a ? *a : kEmpty;
  }
};
template <class T>
Answer make_answer(T value) {
  return Answer{std::make_shared<const T>(std::move(value))};
}

struct SampleAnswer {
  std::string kind;  // "correct", "known mistake 2*N", "unreadable"...
  Answer answer;
  // What grading must give. Wrong: Partial or Incorrect (an attempt that is not right, where
  // the score depends on the instance).
  enum class Expect { Correct, Partial, Incorrect, Wrong, Unreadable } expect = Expect::Correct;
  std::string message;  // a text the feedback must contain (a mistake's or decoy's message)
  // Answers that run first (programs): what the runner returns for this one, as JSON, so a
  // test can stand in for the sandbox.
  std::string run_json;

  SampleAnswer(std::string k, Answer a, Expect e, std::string m = {})
      : kind(std::move(k)), answer(std::move(a)), expect(e), message(std::move(m)) {}
};
// True when `fb` is what `s` expects; otherwise `why` says what was given instead.
bool sample_answer_holds(const SampleAnswer& s, const Feedback& fb, std::string* why);

Feedback grade(const Instance& inst, const Answer& a, const GradeServices& services = {});

// The feedback as sentences a screen reader speaks (the page's live region): the verdict in
// words, then each part by number and label ("Part 2, Sent over the whole AllReduce: Correct:
// 1.75 GB matches 1.75 GB (within 1%)."), each failed case, the details. Never a raw code.
std::string spoken_feedback(const Feedback& fb);

}  // namespace dtx
