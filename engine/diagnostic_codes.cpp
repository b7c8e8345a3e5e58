#include "diagnostic_codes.h"

#include <algorithm>
#include <string>

namespace dtx {

namespace {

using C = DiagCode;

// Ids are grouped by tens: E00x the file, E01x-E02x the pack's shape, E03x parameters and
// expressions, E04x texts, E05x what a type checks, E06x single instances (--seeds), E07x
// assignment files, W00x style. New codes take the next free
// id of their group.
const std::vector<DiagCodeInfo> kCommonCodes = {
    {C::CannotRead, "E001", "cannot-read",
     "The file or folder named on the command line does not exist or cannot be read; in the page, "
     "the pack's address could not be fetched (the message gives the HTTP status).", true},
    {C::FileTooLarge, "E002", "file-too-large",
     "A pack file may be at most 10 MB (10,485,760 bytes). Split a larger one into several packs."},
    {C::InvalidJson, "E003", "invalid-json",
     "The file is not JSON. The position is where the syntax first goes wrong: a missing comma, "
     "quote or bracket, a trailing comma, a comment (JSON has none; use \"$comment\")."},
    {C::JsonLimit, "E004", "json-limit",
     "The JSON is valid but past one of the structural limits that keep loading fast and safe: "
     "256 levels of nesting, 256 members in one object, 200 characters in a member name, 1,000 "
     "items in one array."},
    {C::DuplicateKey, "E005", "duplicate-key",
     "The same member appears twice in one object. JSON readers keep only one of the two "
     "values, so one of them is silently lost: keep one."},
    {C::TooManyProblems, "E006", "too-many-problems",
     "A pack reports at most 200 problems; this line counts the rest. Fix the first ones and "
     "lint again."},
    {C::TooLong, "E007", "too-long",
     "A title may be at most 200 characters, an id 100, any other text 64 KB. Put the rest of a "
     "long title in the prompt; split a longer text."},
    {C::WrongKind, "E010", "wrong-kind",
     "The value is of the wrong JSON kind: a string where a number is expected, an object where "
     "an array is, and so on. The message says what was expected."},
    {C::MissingField, "E011", "missing-field",
     "A required member is missing. The message names it; the field reference above says what "
     "it holds."},
    {C::UnknownField, "E012", "unknown-field",
     "The object has a member its kind does not define, often a typo (the message suggests the "
     "closest name). Unknown members are errors, not ignored, so a typo cannot silently drop a "
     "setting. Notes for authors go in \"$comment\"."},
    {C::ValueNotAllowed, "E013", "value-not-allowed",
     "The value has the right kind but is not one the field accepts: a number outside its range, "
     "an empty string, a string that is not one of the listed ones."},
    {C::WrongCount, "E014", "wrong-count",
     "An array has too few or too many items (a list of options, steps, pairs or arguments): "
     "the message says how many the field takes. `dtx types` and the field reference give each "
     "type's counts."},
    {C::BadName, "E015", "bad-name",
     "An id or name is not of the form it must have. Exercise ids use lower-case letters, digits, "
     "'-' and '.'; parameter, derived and part names must be usable in expressions."},
    {C::DuplicateId, "E016", "duplicate-id",
     "Two exercises share an id, in one pack or in two. Progress is kept by id, so ids must be "
     "unique across every pack the page loads; the later pack is left out until it is fixed."},
    {C::Duplicate, "E017", "duplicate",
     "Two things that must differ are the same: two parts with one id, two options with one "
     "text, a derived value named like a parameter, a line listed both as a bug and a decoy."},
    {C::UnknownType, "E018", "unknown-type",
     "The exercise's \"type\" is not one of the engine's types. The message lists them; "
     "`dtx types` gives each with its fields."},
    {C::UnsupportedFormat, "E019", "unsupported-format",
     "The pack's \"format\" is not one this engine reads. Packs are format 1."},
    {C::BadComment, "E020", "bad-comment",
     "A \"$comment\" must be a string or an array of strings."},
    {C::UnknownWidget, "E021", "unknown-widget",
     "The exercise's \"widget\" names a kind the engine does not have. The message lists the "
     "kinds."},
    {C::InvalidExpression, "E030", "invalid-expression",
     "An expression does not parse: an unclosed parenthesis, an unknown function, an operator "
     "with nothing after it. The position points at the character inside the string."},
    {C::UndeclaredName, "E031", "undeclared-name",
     "An expression or a {placeholder} uses a name that is not declared where it is used: a "
     "parameter missing from \"params\", a derived value used above its definition, the answer "
     "of a part that does not exist."},
    {C::EvaluationFails, "E032", "evaluation-fails",
     "An expression fails for some parameter values: lint evaluates every expression at the "
     "defaults and at every corner of the parameter ranges, and the message says which values "
     "break it (a division by zero, a logarithm of a negative number)."},
    {C::BadRange, "E033", "bad-range",
     "A parameter's or a generated argument's range is malformed: \"choices\" and \"min\"/"
     "\"max\" together, \"min\" without \"max\", max below min, a step of 0 or less."},
    {C::DefaultOutsideRange, "E034", "default-outside-range",
     "A parameter's default is not one of the values its range can produce."},
    {C::ConstraintFails, "E035", "constraint-fails",
     "The default parameters do not satisfy one of the exercise's \"constraints\"; the default "
     "instance must always be valid."},
    {C::CannotMakeInstance, "E036", "cannot-make-instance",
     "No instance could be made for one of the seeds lint tries, usually because the constraints "
     "rule out almost every combination of parameter values. Widen the ranges or loosen the "
     "constraints."},
    {C::UnknownUnit, "E037", "unknown-unit",
     "A numeric part's \"unit\" is not one the engine knows; the message suggests the closest "
     "one."},
    {C::WidgetInputOutOfRange, "E038", "widget-input-out-of-range",
     "A widget input computed from the parameters falls outside what the widget accepts for some "
     "parameter values; the widget would clamp it, and show a different figure from the one "
     "graded."},
    {C::SimulationRefuses, "E066", "simulation-refuses",
     "With `dtx lint --seeds N`: for some instance the simulator refuses "
     "the configuration an exercise's \"widget\" or \"simulations\" describe with the instance's "
     "numbers, as `dtx sim` would (an interleaved pipeline with fewer microbatches than stages, a "
     "plan whose degrees do not divide the GPUs). No real run has that configuration: constrain the "
     "parameters (\"constraints\": [\"m >= p\"])."},
    {C::OverLimit, "E067", "over-limit",
     "For some instance a value an exercise binds to one of its pack's \"limits\" (memory per GPU, "
     "a utilisation, a device's bandwidth) lies outside it: the instance describes a machine or run "
     "that cannot exist. Constrain the parameters so every instance respects the limit."},
    {C::UnknownLimit, "E068", "unknown-limit",
     "An exercise's \"limits\" names a limit its pack's \"limits\" does not declare, or binds a "
     "name that is neither a parameter, a derived value nor an answer (answer.PART)."},
    {C::ArticleMismatch, "E069", "article",
     "For some instance a text reads \"a 8 GB\" or \"an 16-way\": the article before a number "
     "agrees with how the number is read aloud (\"an 8\", \"an 11\", \"an 18\", \"an 80\", \"a 16\", "
     "\"a 100\"). Write the sentence so it holds for every value (\"with {N} GPUs\")."},
    {C::ZeroAnswer, "E039", "zero-answer",
     "An answer is 0 for some parameter values, and a relative tolerance cannot grade 0 (every "
     "other number is infinitely far from it). Add \"abs\" to the tolerance or change the range."},
    {C::Maths, "E040", "maths",
     "A $...$ formula is malformed: a '$' that nothing closes, unbalanced braces, an unknown "
     "command, a {placeholder} that is not an expression. For a dollar sign write \\$."},
    {C::LinkScheme, "E041", "link-scheme",
     "A Markdown link uses a scheme other than http, https or mailto (or a relative address). "
     "The page would show it as plain text."},
    {C::ImageMissing, "E043", "image-missing",
     "A Markdown image `![alt](path)` names a file that is not there. A relative path is read from "
     "the pack file's folder (`img/ring.svg` in `exercises/01-x.json` is `exercises/img/ring.svg`); "
     "`dtx lint` checks it on disk, the page's preview cannot."},
    {C::ImageFormat, "E044", "image-format",
     "A Markdown image the page cannot show: its address does not end in .png, .jpg, .jpeg or "
     ".svg (before any ?query or #fragment), or it is not an http, https or relative address "
     "(data:, file:, javascript:...)."},
    {C::BadDateTime, "E070", "bad-datetime",
     "An assignment's \"due\" is not a date and time with its time zone offset. Write it as "
     "\"2026-12-05T17:00:00+01:00\" (or \"...Z\" for UTC): a due time without a zone would mean "
     "a different moment on each student's computer."},
    {C::UnknownExercise, "E071", "unknown-exercise",
     "An assignment lists, or a text links to (#/ex/ID), an exercise id the course does not have "
     "(a typo, or an exercise of a pack that does not load). `dtx list` shows every id."},
    {C::GlossaryEntry, "E072", "glossary-entry",
     "A glossary entry cannot be used: its term or an alias is defined by another entry of the "
     "course (each term is defined once: extend that entry), it has no letter or digit, it is longer "
     "than 60 characters, or its definition is longer than 1,000 bytes."},
    {C::GlossaryMissing, "W012", "glossary-missing",
     "The prose uses an acronym (two or more capitals: \"MFU\", \"HSDP\") that no pack's "
     "\"glossary\" defines, so the page cannot link it to a definition. Add an entry, or write a "
     "name from code as `code`."},
    {C::GlossaryBroad, "W013", "glossary-broad",
     "A glossary term or alias in lower case is a common English word (\"the\", \"into\", \"each\") or has "
     "fewer than three letters and digits: lower-case forms match any capitalisation, so the page "
     "would link that word in prompts all over the course. Use a longer form (\"pipeline stage\"), "
     "or capitals when it is an acronym (\"SP\")."},
    {C::NoExplanation, "W001", "no-explanation",
     "The exercise has no \"explanation\", the worked solution a student reads after answering."},
    {C::NoHints, "W002", "no-hints",
     "The exercise has no \"hints\": a student who is stuck gets no nudge."},
    {C::NoFeedback, "W003", "no-feedback",
     "A wrong choice, item or pair has no feedback of its own and the exercise has no hints, so "
     "a student who gets it wrong learns nothing about why."},
    {C::ParamNotShown, "W005", "param-not-shown",
     "A parameter the answer depends on varies between instances, but the prompt never shows "
     "it: the student cannot know the value to compute with."},
    {C::ConstraintsRejectMost, "W008", "constraints-reject-most",
     "With `dtx lint --seeds N`: the constraints throw away most parameter draws, so instances "
     "come from the few values that survive. Narrow the ranges to what the constraints allow, or "
     "compute the dependent value in \"derived\"."},
    {C::ImageAlt, "W010", "image-alt",
     "A Markdown image has no alt text (nothing between `![` and `]`). A student using a screen "
     "reader hears nothing of the picture: say in a sentence what it shows."},
};

// Every type's own codes (types/<type>/codes.inc) with the common ones, in the order of ids.
const std::vector<DiagCodeInfo> kCodes = [] {
  std::vector<DiagCodeInfo> v = kCommonCodes;
#define DTX_TYPE_CODE(code, id, name, summary) v.push_back({C::code, id, name, summary});
#include "type_codes.inc"
#undef DTX_TYPE_CODE
  std::stable_sort(v.begin(), v.end(), [](const DiagCodeInfo& a, const DiagCodeInfo& b) {
    return std::string_view(a.id) < std::string_view(b.id);
  });
  return v;
}();

}  // namespace

const std::vector<DiagCodeInfo>& diagnostic_codes() { return kCodes; }

const DiagCodeInfo& diag_info(DiagCode code) {
  static const std::vector<const DiagCodeInfo*> by_code = [] {
    std::vector<const DiagCodeInfo*> v(static_cast<size_t>(DiagCode::Count_), nullptr);
    for (const auto& c : kCodes) v[static_cast<size_t>(c.code)] = &c;
    return v;
  }();
  // Every enumerator has its row (a unit test checks it); the first row stands in otherwise.
  const DiagCodeInfo* info = by_code[static_cast<size_t>(code)];
  return info ? *info : kCodes.front();
}

const DiagCodeInfo* find_diag_code(std::string_view s) {
  for (const auto& c : kCodes) {
    std::string id = c.id;
    bool same_id = s.size() == id.size() && std::equal(s.begin(), s.end(), id.begin(), [](char a, char b) {
                     return std::toupper(static_cast<unsigned char>(a)) == b;
                   });
    if (same_id || s == c.name) return &c;
  }
  return nullptr;
}

}  // namespace dtx
