#include "numeric.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "derivation.h"
#include "diagnose.h"
#include "type_support.h"
#include "maths.h"
#include "misconception.h"
#include "sim/sources.h"
#include "text.h"

namespace dtx {

namespace {

// The answer of each part in this instance (none before prepare).
const std::vector<double>& part_values(const Instance& inst) {
  return inst.data_or_empty<NumericInstance>().part_values;
}

// The units authors write most, for a "did you mean" when one is mistyped ("GBB", "Gbs",
// "tflops"). Only a guess the unit parser accepts is offered.
std::string with_unit_suggestion(const std::string& got, const std::string& error) {
  if (error.find("did you mean") != std::string::npos) return error;
  static const std::vector<std::string> kCommon = {
      "B",      "KB",      "MB",      "GB",     "TB",      "PB",      "KiB",     "MiB",
      "GiB",    "TiB",     "b",       "Kb",     "Mb",      "Gb",      "Tb",      "B/s",
      "MB/s",   "GB/s",    "TB/s",    "Mb/s",   "Gb/s",    "Tb/s",    "ns",      "us",
      "ms",     "s",       "min",     "h",      "day",     "FLOP",    "GFLOP",   "TFLOP",
      "PFLOP",  "EFLOP",   "FLOP/s",  "GFLOP/s", "TFLOP/s", "PFLOP/s", "EFLOP/s", "%",
      "$",      "tokens",  "tokens/s", "GPUs",  "steps",   "samples", "sequences", "layers"};
  std::string guess = closest_match(got, kCommon);
  std::string unused;
  if (guess.empty() || !parse_unit(guess, &unused)) return error;
  return error + "; did you mean '" + guess + "'?";
}

// A part's "plausible" range, {"min": a, "max": b} with either bound optional.
void load_plausible(const Json& j, const std::string& q, NumericPart& part, LoadContext& ctx) {
  if (!ctx.expect_object(j, q, "a range {\"min\": a, \"max\": b} in the part's unit")) return;
  ctx.check_fields(j, q, {"min", "max"}, {});
  part.plausible_min = ctx.number_field(j, q, "min", false);
  part.plausible_max = ctx.number_field(j, q, "max", false);
  if (!part.plausible_min && !part.plausible_max)
    ctx.error(DiagCode::MissingField, q, "expected \"min\" and/or \"max\" in the plausible range, got an empty object");
  else if (part.plausible_min && part.plausible_max && *part.plausible_max < *part.plausible_min)
    ctx.error(DiagCode::BadRange, q + "/max", "expected max ≥ min (" + format_number(*part.plausible_min, 6) +
                                                  "), got " + format_number(*part.plausible_max, 6));
}

// A part's known mistakes, each {"answer": expression, "message": text}.
void load_mistakes(const Json& ms, const std::string& mp, NumericPart& part, LoadContext& ctx) {
  if (!ms.is_array()) {
    ctx.error(DiagCode::WrongKind, mp, "expected an array of {\"answer\", \"message\"}, got " + describe_json(ms));
    return;
  }
  for (size_t k = 0; k < ms.size(); ++k) {
    std::string q = mp + "/" + std::to_string(k);
    if (!ctx.expect_object(ms[k], q, "a known mistake {\"answer\": ..., \"message\": ...}"))
      continue;
    ctx.check_fields(ms[k], q, {"answer", "message"}, {"answer", "message"});
    NumericMistake m;
    m.pointer = q;
    auto e = ctx.expr_field(ms[k], q, "answer", true);
    auto msg = ctx.string_field(ms[k], q, "message", true);
    if (e && msg) {
      m.answer = *e;
      m.message = *msg;
      part.mistakes.push_back(std::move(m));
    }
  }
}

std::shared_ptr<TypeSpec> load_numeric(const Json& j, const std::string& ptr, LoadContext& ctx) {
  auto spec = std::make_shared<NumericSpec>();
  static const Json kNone;
  auto found = j.find("parts");
  const Json& parts = found == j.end() ? kNone : *found;
  std::string pp = ptr + "/parts";
  if (!parts.is_array() || parts.empty()) {
    ctx.error(DiagCode::WrongCount, pp, "expected a non-empty array of parts, got " + describe_json(parts));
    return nullptr;
  }
  for (size_t i = 0; i < parts.size(); ++i) {
    std::string p = pp + "/" + std::to_string(i);
    const Json& pj = parts[i];
    if (!ctx.expect_object(pj, p, "a part with \"id\", \"answer\" and \"unit\"")) continue;
    ctx.check_fields(pj, p, {"id", "label", "answer", "unit", "tolerance", "integer", "plausible", "source", "mistakes"},
                     {"id", "answer", "unit"});
    NumericPart part;
    part.pointer = p;
    if (auto id = ctx.string_field(pj, p, "id", true)) {
      part.id = *id;
      for (char c : *id)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) {
          ctx.error(DiagCode::BadName, p + "/id", "expected a part id of letters, digits and _ (it is used as "
                               "{answer." + *id + "}), got \"" + *id + "\"");
          break;
        }
      for (const auto& other : spec->parts)
        if (other.id == *id) ctx.error(DiagCode::Duplicate, p + "/id", "duplicate part id \"" + *id + "\"");
    }
    part.label = ctx.string_field(pj, p, "label", false).value_or(part.id);
    if (auto u = ctx.string_field(pj, p, "unit", true, false)) {
      std::string err;
      auto unit = parse_unit(*u, &err);
      if (!unit) ctx.error(DiagCode::UnknownUnit, p + "/unit", with_unit_suggestion(*u, err));
      else {
        part.unit = *unit;
        part.unit_text = *u;
      }
    }
    if (auto e = ctx.expr_field(pj, p, "answer", true)) part.answer = *e;
    ctx.tolerance_field(pj, p, "tolerance", &part.rel, &part.abs);
    part.integer = ctx.bool_field(pj, p, "integer").value_or(false);
    if (auto it = pj.find("plausible"); it != pj.end()) load_plausible(*it, p + "/plausible", part, ctx);
    if (pj.contains("mistakes")) load_mistakes(pj["mistakes"], p + "/mistakes", part, ctx);
    if (auto src = ctx.string_field(pj, p, "source", false)) {
      if (sim::find_formula(*src)) {
        part.source = *src;
      } else {
        std::vector<std::string> ids;
        for (const auto& f : sim::sourced_formulas()) ids.push_back(f.id);
        ctx.error(DiagCode::ValueNotAllowed, p + "/source", "unknown formula \"" + *src + "\"" + did_you_mean(*src, ids) +
                                                                "; `dtx sim --formulas` lists them (docs/formulas.md)");
      }
    }
    spec->parts.push_back(std::move(part));
  }
  return spec;
}

// "Mb/s" -> "MB/s": the same prefix in bytes.
std::string bytes_symbol(std::string s) {
  // "Gbit" -> "GB", "Gb" -> "GB", "Gibit" -> "GiB"
  if (size_t bit = s.find("bit"); bit != std::string::npos) return s.substr(0, bit) + "B" + s.substr(bit + 3);
  size_t b = s.find('b');
  if (b != std::string::npos) s[b] = 'B';
  return s;
}

// How a part is graded, for the answer key: "within 1%", or "exactly" for a count.
std::string key_tolerance(const NumericPart& p) {
  return p.integer ? std::string("exactly") : describe_tolerance(p.rel, p.abs, p.unit_text);
}

// The answer `v` against the part's "integer" and "plausible" declarations: the code and the
// message ("the answer is 7.5, not a whole number"), or nullopt.
std::optional<std::pair<DiagCode, std::string>> declared_range_problem(const NumericPart& part, double v) {
  std::string unit_sp = part.unit_text.empty() ? "" : " " + part.unit_text;
  if (part.integer && std::fabs(v - std::round(v)) > 1e-9 * std::max(1.0, std::fabs(v)))
    return std::make_pair(DiagCode::NotInteger, "the answer is " + format_number(v, 6) + unit_sp +
                                                    ", not a whole number, though the part says \"integer\": true");
  bool low = part.plausible_min && v < *part.plausible_min, high = part.plausible_max && v > *part.plausible_max;
  if (low || high) {
    std::string range = part.plausible_min && part.plausible_max
                            ? format_number(*part.plausible_min, 6) + " to " + format_number(*part.plausible_max, 6)
                        : part.plausible_min ? "at least " + format_number(*part.plausible_min, 6)
                                             : "at most " + format_number(*part.plausible_max, 6);
    return std::make_pair(DiagCode::Implausible, "the answer is " + format_for_reading(v) + unit_sp +
                                                     ", outside its plausible range (" + range + unit_sp + ")");
  }
  return std::nullopt;
}

}  // namespace

namespace {

// `dtx new numeric`: a whole working exercise, with "$comment" notes on every field (cli/new.cpp
// puts it in a pack; the CLI test checks that it passes `dtx lint --warn`).
const char* kNewTitle = "Bytes each GPU sends in a ring AllReduce";
const char* kNewIntro =
    "A ring AllReduce cuts every GPU's buffer into N chunks. In each of N-1 reduce-scatter steps "
     "and N-1 all-gather steps, every GPU sends one chunk to its neighbour.";
const char* kNewExercise = R"JSON(    {
      "$comment": [
@COMMON@,
        "In the prompt, {N} and {M} are placeholders: each student gets an instance with its own parameter values, and {expression} shows a value of it ({N-1}; {M/N:3} for 3 significant digits). Write {{ and }} for literal braces."
      ],
      "id": @ID@,
      "type": "numeric",
      "title": @TITLE@,
      "difficulty": 1,
      "tags": ["ring", "allreduce", "volume"],
      "prompt": "{N} GPUs each hold a gradient buffer of {M} GB (1 GB = 10^9 bytes) and sum their buffers with a **ring AllReduce**.\n\nHow much data does **one GPU send** over the whole AllReduce, reduce-scatter plus all-gather?",
      "params": {
        "$comment": [
          "The numbers that vary between students. Each is {\"default\": d} with either \"choices\" (a list) or \"min\" and \"max\" (with \"step\"; without it the range is continuous).",
          "Seed 0 (the default instance) uses every default; other seeds draw each parameter from its choices or range. Lint evaluates every answer at the defaults and at every corner of the ranges, so a formula that breaks at the smallest or largest value is caught before a student meets it."
        ],
        "N": {"default": 8, "choices": [4, 8, 16, 64]},
        "M": {"default": 2, "min": 0.5, "max": 16, "step": 0.5}
      },
      "derived": {
        "$comment": "Named values computed from the params, in order (each may use the ones above it). Use them in answers, mistakes and {placeholders} to keep formulas short.",
        "chunk": "M/N"
      },
      "parts": [
        {
          "$comment": [
            "A numeric exercise asks for one or more parts, each graded on its own. \"id\" names the part in {answer.sent}; \"label\" is shown by the input box.",
            "\"answer\" is an expression over the params and derived values (+ - * / ^ and ceil floor round sqrt log log2 log10 exp abs min max if). Its value is in \"unit\"; students may answer in any unit of the same kind (\"3500 MB\"), and bits given for bytes are spotted and explained."
          ],
          "id": "sent",
          "label": "Data one GPU sends",
          "answer": "2*(N-1)*chunk",
          "unit": "GB",
          "tolerance": {
            "$comment": "Correct within \"rel\" of the answer (0.01 = 1%) or within \"abs\" (in the part's unit). Give \"abs\" when an answer can be 0.",
            "rel": 0.01
          },
          "mistakes": [
            {
              "$comment": "Wrong answers students really give, each with the message shown when a student's number matches it. The engine itself recognises answers off by 2x, 8x (bits vs bytes), 1000x and 1024x; list the slips particular to this question.",
              "answer": "(N-1)*chunk",
              "message": "That is the reduce-scatter phase alone: {N-1} steps of one {chunk:3} GB chunk. The all-gather phase sends as much again."
            },
            {
              "answer": "2*(N-1)*M",
              "message": "Each step sends one chunk, not the whole buffer: the buffer is cut into {N} chunks of {chunk:3} GB."
            },
            {
              "answer": "2*M",
              "message": "Close: a GPU never sends the chunk it ends up owning, so each phase has {N-1} steps, not {N}."
            }
          ]
        }
      ],
      "hints": [
        "The ring cuts each buffer into N chunks, and in every step each GPU sends exactly one chunk to its neighbour.",
        "Reduce-scatter takes N-1 steps and all-gather takes N-1 more."
      ],
      "explanation": "Each buffer is cut into N = {N} chunks of M/N = {chunk:3} GB. Reduce-scatter takes N-1 = {N-1} steps and all-gather {N-1} more, and in every step each GPU sends one chunk:\n\n2 (N-1) M / N = 2 × {N-1} × {chunk:3} GB = **{answer:4} GB**.\n\nThat stays just under 2M however many GPUs there are, which is why the ring scales: adding GPUs does not add bytes per GPU."
    })JSON";

}  // namespace

const TypeEntry& numeric_type_entry() {
  static const TypeEntry e{"numeric", "derive", {"parts"}, {"parts"}, &load_numeric,
                          kNewTitle, kNewIntro, kNewExercise,
                          "one ANSWER per part, in order, or id=VALUE: \"1.75 GB\" \"875 MB\" \"2*7/8\"",
                          1};
  return e;
}


namespace {

// Past these magnitudes (in base units) an answer comes from a slipped exponent or a range
// that goes too far: 10^18 bytes is an exabyte (a large run's whole dataset is ~10^14),
// 10^18 s is older than the universe, and the largest training runs are ~10^26 FLOP. Plain
// numbers have no scale to judge by (2^64 and the largest FP32 value are fair answers):
// 0 means no limit.
double absurd_limit(const Unit& u) {
  if (u.dim.flop != 0) return 1e30;
  if (u.dim.data != 0 || u.dim.time != 0 || u.dim.money != 0 || u.dim.count != 0) return 1e18;
  return 0;
}

std::string absurd_limit_unit(const Unit& u) {
  if (u.dim.flop != 0) return u.dim.time ? "FLOP/s" : "FLOP";
  if (u.dim.data != 0) return u.dim.time ? "bytes per second" : "bytes";
  if (u.dim.time > 0) return "seconds";
  if (u.dim.money != 0) return "dollars";
  return u.dim.count_word.empty() ? "items" : u.dim.count_word + "s";
}

// Labels are shown as written (beside the field, in feedback, in `dtx show`): a
// placeholder there would reach the student as "{N}".
void lint_label(const NumericPart& part, LintContext& ctx) {
  if (size_t brace = part.label.find('{'); brace != std::string::npos)
    ctx.error(DiagCode::LabelPlaceholder, part.pointer + "/label",
              "a part's label is shown as written, so \"{...}\" is not filled in; put the numbers in the prompt",
              false, static_cast<int>(brace) + 1);
}

// The part's answer at every lint point: a 0 no relative tolerance can grade, a value
// outside what the author declared, or one no student should ever be asked for.
void lint_answer_values(const NumericPart& part, const std::vector<std::optional<double>>& vals, LintContext& ctx) {
  for (size_t i = 0; i < vals.size(); ++i) {
    if (vals[i] && *vals[i] == 0 && part.abs == 0) {
      ctx.error(DiagCode::ZeroAnswer, part.pointer + "/answer",
                "the answer is 0 " + ctx.describe_point(i) +
                    ", which a relative tolerance cannot grade; add \"abs\" to the tolerance "
                    "or change the parameter range");
      break;
    }
  }
  // What the author declared about every instance's answer: whole, and in a plausible range.
  for (size_t i = 0; i < vals.size(); ++i) {
    if (!vals[i]) continue;
    if (auto why = declared_range_problem(part, *vals[i])) {
      ctx.error(why->first, part.pointer + "/answer", why->second + ", " + ctx.describe_point(i));
      break;
    }
  }
  // Style: a value no student should ever be asked for.
  std::string unit_sp = part.unit_text.empty() ? "" : " " + part.unit_text;
  for (size_t i = 0; i < vals.size(); ++i) {
    if (!vals[i]) continue;
    if (*vals[i] < 0) {
      ctx.warn(DiagCode::ImplausibleAnswer, part.pointer + "/answer",
               "the answer is negative (" + format_number(*vals[i]) + unit_sp + ") " + ctx.describe_point(i) +
                   "; check the formula, or narrow the parameter ranges (or add a constraint) so "
                   "every instance asks for a meaningful amount");
      break;
    }
    double limit = absurd_limit(part.unit);
    if (limit > 0 && std::fabs(*vals[i]) * part.unit.factor > limit) {
      ctx.warn(DiagCode::ImplausibleAnswer, part.pointer + "/answer",
               "the answer is absurdly large (" + format_number(*vals[i]) + unit_sp + ") " +
                   ctx.describe_point(i) + ": no training run comes near " + format_number(limit) +
                   " " + absurd_limit_unit(part.unit) + "; check the formula, the unit or the "
                   "parameter ranges");
      break;
    }
  }
}

// Every known mistake, once every answer is known: its names, and whether it equals the
// answer at the default parameters.
void lint_mistakes(const std::vector<NumericPart>& parts, const std::vector<std::vector<std::optional<double>>>& values,
                   const std::vector<std::string>& visible, LintContext& ctx) {
  for (size_t k = 0; k < parts.size(); ++k) {
    const NumericPart& part = parts[k];
    const auto& vals = values[k];
    for (const auto& m : part.mistakes) {
      if (!ctx.check_names(m.answer, m.pointer + "/answer", "a known mistake", visible)) continue;
      auto mv = ctx.eval_everywhere(m.answer, m.pointer + "/answer", "the known mistake");
      if (!vals.empty() && !mv.empty() && vals[0] && mv[0] &&
          within(*mv[0], *vals[0], part.rel, part.abs)) {
        ctx.error(DiagCode::MistakeEqualsAnswer, m.pointer + "/answer",
                  "this known mistake equals the answer (" + format_number(*vals[0]) + " " +
                      part.unit_text + ") at the default parameters, so it can never be told "
                      "apart from a right answer");
      }
    }
  }
}

}  // namespace

void NumericSpec::lint(const Exercise& ex, LintContext& ctx) const {
  (void)ex;
  // Parts are computed in order, each able to use the answers above it; known mistakes are
  // checked when every answer is known, so they may use any of them.
  std::vector<std::string> visible = ctx.declared, later;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i == 0) later.push_back("answer");
    later.push_back("answer." + parts[i].id);
  }
  std::vector<std::vector<std::optional<double>>> values(parts.size());
  for (size_t k = 0; k < parts.size(); ++k) {
    const NumericPart& part = parts[k];
    lint_label(part, ctx);
    std::string where = parts.size() > 1 ? "the answer of part \"" + part.id + "\"" : "the answer";
    auto& vals = values[k];
    if (ctx.check_names(part.answer, part.pointer + "/answer", where, visible, later))
      vals = ctx.eval_everywhere(part.answer, part.pointer + "/answer", "the answer");
    else
      vals.assign(ctx.points.size(), std::nullopt);
    for (const std::string& n : {k == 0 ? std::string("answer") : std::string(), "answer." + part.id}) {
      if (n.empty()) continue;
      later.erase(std::remove(later.begin(), later.end(), n), later.end());
      visible.push_back(n);
    }
    for (size_t i = 0; i < vals.size() && i < ctx.points.size(); ++i) {
      if (!vals[i]) continue;
      if (k == 0) ctx.points[i].emplace_back("answer", *vals[i]);
      ctx.points[i].emplace_back("answer." + part.id, *vals[i]);
    }
    lint_answer_values(part, vals, ctx);
    if (part.mistakes.empty())
      ctx.warn(DiagCode::NoMistakes, part.pointer, "no known mistakes: add \"mistakes\" with the wrong answers students "
                             "really give (one phase of two, bits for bytes, a forgotten factor) so the "
                             "feedback can say what went wrong");
  }
  lint_mistakes(parts, values, visible, ctx);
}

bool NumericSpec::prepare(const Exercise& ex, Instance& inst, uint64_t, std::string* error) const {
  (void)ex;
  auto data = std::make_shared<NumericInstance>();
  inst.data = data;  // (set first: a later part's answer may use an earlier one's)
  for (const auto& part : parts) {
    ExprError err;
    auto v = part.answer.eval(inst.scope(), &err);
    if (!v) {
      if (error) *error = "part \"" + part.id + "\": the answer does not evaluate: " + err.message;
      return false;
    }
    data->part_values.push_back(*v);
  }
  return true;
}

namespace {

// One part's text as read: the value in the part's unit, and the student's own unit and value.
struct ReadAnswer {
  double value = 0;          // in the part's unit
  std::optional<Unit> unit;  // as written, if any
  double raw = 0;            // in the student's own unit
};

Feedback wrong_count(const std::vector<NumericPart>& parts, size_t given) {
  Feedback fb;
  fb.verdict = Verdict::FormatError;
  std::string labels;
  for (const auto& p : parts) labels += (labels.empty() ? "" : ", ") + p.label;
  fb.message = "Expected " + std::to_string(parts.size()) + " answer" +
               (parts.size() == 1 ? "" : "s") + " (" + labels + "), got " +
               std::to_string(given) + ".";
  return fb;
}

// Reads one part's text into `read`; the feedback is a format error saying why when the text
// cannot be read or has the wrong dimension, else Incorrect until the part is graded.
PartFeedback read_part(const NumericPart& part, double expected, const std::string& text, ReadAnswer& read) {
  PartFeedback pf;
  pf.id = part.id;
  pf.label = part.label;
  pf.given = text;
  pf.expected = format_for_reading(expected) + (part.unit_text.empty() ? "" : " " + part.unit_text);
  QuantityInput given;
  if (auto v = read_quantity_in(text, part.unit, part.unit_text, "this part asks for", &pf.message, &given)) {
    read.value = *v;
    read.unit = given.unit;
    read.raw = given.value;
    pf.verdict = Verdict::Incorrect;
  } else {
    pf.verdict = Verdict::FormatError;
  }
  return pf;
}

bool any_unreadable(const Feedback& fb) {
  return std::any_of(fb.parts.begin(), fb.parts.end(),
                     [](const PartFeedback& pf) { return pf.verdict == Verdict::FormatError; });
}

// A format error is not an attempt: the field that could not be read is named, and the
// others are neither right nor wrong yet (they are judged once every field reads).
void mark_unreadable(size_t part_count, Feedback& fb) {
  fb.verdict = Verdict::FormatError;
  for (size_t i = 0; i < fb.parts.size(); ++i) {
    const PartFeedback& pf = fb.parts[i];
    if (pf.verdict != Verdict::FormatError) continue;
    std::string name = !pf.label.empty() ? pf.label : "Part " + std::to_string(i + 1) + " (" + pf.id + ")";
    if (fb.message.empty()) fb.message = (part_count > 1 ? name + ": " : "") + pf.message;
    else fb.details.push_back(name + ": " + pf.message);
  }
  fb.details.push_back("Unreadable answers are not counted as attempts.");
  for (auto& pf : fb.parts) {
    if (pf.verdict != Verdict::FormatError) {
      pf.graded = false;
      pf.verdict = Verdict::FormatError;
      pf.message = "Not graded yet: every field must be readable first.";
    }
    pf.expected.clear();  // don't reveal anything on a format error
  }
}

// The instance's parameters by name, for the engine's diagnosis ("8 is N here").
FactorContext factor_context(const Exercise& ex, const Instance& inst, const NumericPart& part) {
  FactorContext fc;
  fc.unit = &part.unit;
  for (const auto& p : ex.params) fc.values.emplace_back(p.name, inst.value(p.name).value_or(0));
  return fc;
}

// The first mistake the author listed for this part that `g` matches: its message, and as key
// the generic slip its value is (an author's "you used bits" groups with every bits-vs-bytes
// slip), or "listed" when it is a step of this exercise alone. Empty when none matches.
Diagnosis listed_mistake(const Instance& inst, const NumericPart& part, double expected, double g) {
  for (const auto& m : part.mistakes) {
    ExprError err;
    auto mv = m.answer.eval(inst.scope(), &err);
    if (!mv || within(*mv, expected, part.rel, part.abs) || !within(g, *mv, part.rel, part.abs)) continue;
    FactorContext unit_only;
    unit_only.unit = &part.unit;
    std::string key = diagnose(*mv, expected, part.rel, part.abs, unit_only).key;
    return {key.empty() ? kListedMisconception : key, inst.render(m.message)};
  }
  return {};
}

// What went wrong with a wrong answer `g`, from the most particular diagnosis to the least:
// the message and its misconception key ("" when the engine cannot name the slip).
Diagnosis wrong_answer_message(const Exercise& ex, const Instance& inst, const NumericPart& part, double expected,
                               const ReadAnswer& read, const std::string& unit_sp, const std::string& tol) {
  const double g = read.value;
  const std::optional<Unit>& given_unit = read.unit;
  // 1. Mistakes the author listed for this part.
  if (Diagnosis listed = listed_mistake(inst, part, expected, g); !listed.message.empty()) return listed;
  // 2. Bits for bytes: the student's number read in bytes would have been right.
  if (given_unit && given_unit->family == DataFamily::Bits && part.unit.family != DataFamily::Bits &&
      near_factor(g, expected, 0.125, part.rel, part.abs)) {
    return {"bits-bytes", "You answered in " + given_unit->symbol + " (bits), but the question asks for bytes: " +
                              format_for_reading(read.raw) + " " + given_unit->symbol + " is only " +
                              format_for_reading(g) + unit_sp + ". Your number is right in bytes: write " +
                              bytes_symbol(given_unit->symbol) + "."};
  }
  if (given_unit && given_unit->family == DataFamily::Bytes && part.unit.family == DataFamily::Bits &&
      near_factor(g, expected, 8, part.rel, part.abs)) {
    return {"bits-bytes", "You answered in bytes, but the question asks for bits (1 byte = 8 bits)."};
  }
  // 3. The engine's own factor diagnosis.
  if (Diagnosis d = diagnose(g, expected, part.rel, part.abs, factor_context(ex, inst, part)); !d.message.empty())
    return d;
  if (given_unit && part.unit.family != DataFamily::None && given_unit->family != DataFamily::None &&
      given_unit->family != part.unit.family)
    return {"", format_for_reading(g) + unit_sp + " is not " + tol + " of the answer. Note that you wrote " +
                    given_unit->symbol + (given_unit->family == DataFamily::Bits ? " (bits)" : " (bytes)") +
                    " and the question asks for " + (part.unit.family == DataFamily::Bits ? "bits" : "bytes") + "."};
  if (part.integer)
    return {"", format_for_reading(g) + unit_sp + " is not the answer (a whole number, graded exactly)."};
  return {"", format_for_reading(g) + unit_sp + " is not " + tol + " of the answer."};
}

// Grades one readable part into pf; true when it is right.
bool grade_part(const Exercise& ex, const Instance& inst, const NumericPart& part, double expected,
                const ReadAnswer& read, PartFeedback& pf) {
  double g = read.value;
  std::string unit_sp = part.unit_text.empty() ? "" : " " + part.unit_text;
  std::string tol =
      part.integer ? "a whole number, graded exactly" : describe_tolerance(part.rel, part.abs, part.unit_text);
  pf.given = format_for_reading(g) + unit_sp;
  // A count is right or wrong: 7 GPUs are not within 1 % of 7.05.
  bool matches = part.integer ? std::fabs(g - expected) <= 1e-9 * std::max(1.0, std::fabs(expected))
                              : within(g, expected, part.rel, part.abs);
  if (matches) {
    pf.verdict = Verdict::Correct;
    pf.message = "Correct: " + format_for_reading(g) + unit_sp + " matches " + format_for_reading(expected) +
                 unit_sp + " (" + tol + ").";
    return true;
  }
  pf.verdict = Verdict::Incorrect;
  Diagnosis why = wrong_answer_message(ex, inst, part, expected, read, unit_sp, tol);
  pf.message = std::move(why.message);
  pf.misconception = std::move(why.key);
  return false;
}

// The whole answer's score, verdict and message from its parts'.
void sum_up(size_t part_count, int right, Feedback& fb) {
  fb.score = static_cast<double>(right) / static_cast<double>(part_count);
  fb.verdict = right == static_cast<int>(part_count) ? Verdict::Correct
               : right > 0                            ? Verdict::Partial
                                                      : Verdict::Incorrect;
  if (part_count == 1) {
    fb.message = fb.parts[0].message;
  } else {
    fb.message = std::to_string(right) + " of " + std::to_string(part_count) + " parts correct.";
    for (const auto& pf : fb.parts) fb.details.push_back(pf.label + ": " + pf.message);
  }
}

}  // namespace

Feedback NumericSpec::grade(const Exercise& ex, const Instance& inst, const Answer& answer,
                            const GradeServices&) const {
  const NumericAnswer& a = answer.as_or_empty<NumericAnswer>();
  if (a.parts.size() != parts.size()) return wrong_count(parts, a.parts.size());
  // First read every part: one unreadable field makes the whole submission a format error,
  // so a typo never costs an attempt.
  Feedback fb;
  std::vector<ReadAnswer> read(parts.size());
  for (size_t i = 0; i < parts.size(); ++i)
    fb.parts.push_back(read_part(parts[i], part_values(inst)[i], a.parts[i], read[i]));
  if (any_unreadable(fb)) {
    mark_unreadable(parts.size(), fb);
    return fb;
  }
  int right = 0;
  for (size_t i = 0; i < parts.size(); ++i)
    if (grade_part(ex, inst, parts[i], part_values(inst)[i], read[i], fb.parts[i])) ++right;
  sum_up(parts.size(), right, fb);
  return fb;
}

// ---------------------------------------------------------------- the type's lifecycle

void NumericSpec::warn(const Exercise& ex, LintContext& ctx) const {
  warn_no_hints(ex, ctx);
  std::vector<std::string> used;
  for (const auto& part : parts)
    for (const auto& n : part.answer.names()) used.push_back(n);
  warn_unshown_params(ex, used, ex.prompt, ex.pointer + "/prompt", ctx);
  // Bytes labelled ms: where the parameters declare units, the answer's dimension against the
  // part's unit. A dimension with no name of its own is written out ("data^2/time").
  auto said = [](const Dim& d) {
    std::string name = describe_dim(d);
    if (name != "a derived quantity") return name;
    std::string up, down;
    auto add = [](std::string& s, const char* base, int k) {
      if (k == 0) return;
      s += (s.empty() ? "" : "·") + std::string(base) + (std::abs(k) == 1 ? "" : "^" + std::to_string(std::abs(k)));
    };
    for (auto [base, k] : {std::pair<const char*, int>{"data", d.data}, {"time", d.time}, {"FLOP", d.flop}, {"money", d.money}})
      add(k > 0 ? up : down, base, k);
    return (up.empty() ? "1" : up) + (down.empty() ? "" : "/" + down);
  };
  for (const auto& part : parts) {
    auto dim = dimension_of(part.answer, ex);
    if (!dim) continue;
    const Dim& u = part.unit.dim;
    if (dim->data == u.data && dim->time == u.time && dim->flop == u.flop && dim->money == u.money) continue;
    ctx.warn(DiagCode::UnitMismatch, part.pointer + "/unit",
             "by the units of its parameters the answer is " + said(*dim) + ", but the unit \"" + part.unit_text +
                 "\" is " + said(u) + "; check the formula or the unit");
  }
}

namespace {

// Whether the part's answer is `param` times the rest, or the rest over `param` (2P, M/N;
// not M(N-1)/N): then "forgot to multiply by P" is one step a student takes, and its factor is
// P's value. Read off by scaling P by 2 and 3 with everything else of the instance kept.
bool is_a_factor(const NumericPart& part, const std::string& param, const Exercise& ex, const Instance& inst) {
  auto answer_with = [&](double scale) -> std::optional<double> {
    std::vector<std::pair<std::string, double>> vals = inst.values;
    const ExprScope base = inst.scope();
    auto scope = [&](std::string_view name) -> std::optional<double> {
      for (const auto& [n, v] : vals)
        if (n == name) return v;
      return base(name);
    };
    for (auto& [n, v] : vals)
      if (n == param) v *= scale;
    for (const auto& [name, d] : ex.derived) {
      ExprError err;
      auto v = d.eval(scope, &err);
      if (!v) return std::nullopt;
      for (auto& [n, old] : vals)
        if (n == name) old = *v;
    }
    ExprError err;
    return part.answer.eval(scope, &err);
  };
  auto at1 = answer_with(1), at2 = answer_with(2), at3 = answer_with(3);
  if (!at1 || !at2 || !at3 || *at1 == 0) return false;
  for (double e : {1.0, -1.0})
    if (std::fabs(*at2 / *at1 - std::pow(2, e)) < 1e-9 && std::fabs(*at3 / *at1 - std::pow(3, e)) < 1e-9) return true;
  return false;
}

// A slip the engine names for the part's unit whose factor is also one of the instance's
// values (bits for bytes in GB with N = 8): the feedback names the slip and mentions N, but
// cannot say which step the student took. A listed mistake with that value says it, so it is
// left out. Twice and half are left out: a parameter of 2 is common, and "counted twice" is
// the diagnosis whatever the values. Reported at the parameter, which is what an author
// changes; lint_seeds shows it only where it happens in a notable share of seeds.
void warn_slip_beside_value(const Exercise& ex, const NumericSpec& spec, const Instance& inst, const NumericPart& part,
                            double v, InstanceProblems& out) {
  if (v == 0) return;
  FactorContext fc;
  fc.unit = &part.unit;
  for (const auto& p : ex.params) fc.values.emplace_back(p.name, inst.value(p.name).value_or(0));
  const ExprScope scope = inst.scope();
  for (const auto& [k, why] : slips_for(&part.unit)) {
    double slipped = v * k;
    if (k == 2 || k == 0.5 || within(slipped, v, part.rel, part.abs)) continue;
    bool listed = std::any_of(part.mistakes.begin(), part.mistakes.end(), [&](const NumericMistake& m) {
      ExprError err;
      auto mv = m.answer.eval(scope, &err);
      return mv && within(slipped, *mv, part.rel, part.abs);
    });
    if (listed) continue;
    for (const std::string& name : values_beside_slip(slipped, v, part.rel, part.abs, fc)) {
      if (!is_a_factor(part, name, ex, inst)) continue;
      std::string value = format_for_reading(inst.value(name).value_or(0));
      std::string off = k > 1 ? format_for_reading(k) + "x the answer" : "1/" + format_for_reading(1 / k) + " of the answer";
      out.problem(DiagCode::AmbiguousSlip, ex.pointer + "/params/" + name,
                  name + " = " + value + " equals the factor of a slip the feedback names for part \"" + part.id +
                      "\" (" + off + ": " + why + "), so the feedback cannot tell that slip from " + name +
                      " multiplied in or divided out; list that answer in \"mistakes\" with a message naming both "
                      "causes, or keep " + name + " off " + value + " in most instances");
    }
  }
}

}  // namespace

// What a drawn instance can break that the defaults and corners do not show: two values a
// student must tell apart that the tolerance cannot (a known mistake, another part's answer),
// and a negative amount of something that cannot be negative.
namespace {

// A mistake that grades right, or that an earlier mistake already matches: the engine tells
// the first match, so the later message never shows for this instance.
void lint_mistakes(const NumericPart& part, const Instance& inst, double v, InstanceProblems& out) {
  std::string unit_sp = part.unit_text.empty() ? "" : " " + part.unit_text;
  std::vector<std::optional<double>> values;
  for (const auto& m : part.mistakes) {
    ExprError err;
    auto mv = m.answer.eval(inst.scope(), &err);
    values.push_back(mv);
    if (!mv) continue;
    if (within(*mv, v, part.rel, part.abs)) {
      out.problem(DiagCode::MistakeEqualsAnswer, m.pointer + "/answer",
                  "this known mistake (" + format_for_reading(*mv) + unit_sp + ") grades as right against the answer " +
                      format_for_reading(v) + unit_sp + " (" + describe_tolerance(part.rel, part.abs, part.unit_text) + ")");
      continue;
    }
    for (size_t k = 0; k + 1 < values.size(); ++k)
      if (values[k] && !within(*values[k], v, part.rel, part.abs) && within(*mv, *values[k], part.rel, part.abs)) {
        out.problem(DiagCode::MistakesCollide, m.pointer + "/answer",
                    "this known mistake (" + format_for_reading(*mv) + unit_sp + ") matches known mistake " +
                        std::to_string(k + 1) + " (" + format_for_reading(*values[k]) + unit_sp + ", \"" +
                        excerpt(part.mistakes[k].message, 48) + "\") within the tolerance, which is told first: this "
                        "message never shows");
        break;
      }
  }
}

}  // namespace

void NumericSpec::lint_instance(const Exercise& ex, const Instance& inst, InstanceProblems& out) const {
  for (size_t i = 0; i < parts.size() && i < part_values(inst).size(); ++i) {
    const NumericPart& part = parts[i];
    double v = part_values(inst)[i];
    std::string unit_sp = part.unit_text.empty() ? "" : " " + part.unit_text;
    const Dim& d = part.unit.dim;
    if (auto why = declared_range_problem(part, v)) out.problem(why->first, part.pointer + "/answer", why->second);
    if (v < 0 && d.money == 0 && (d.data || d.time || d.flop || d.count))
      out.problem(DiagCode::ImpossibleAnswer, part.pointer + "/answer",
                  "the answer is " + format_for_reading(v) + unit_sp + ", but " + describe_dim(d) + " cannot be negative");
    lint_mistakes(part, inst, v, out);
    // A slip the engine would name (bits for bytes, GiB for GB) that the tolerance grades right.
    for (const auto& [k, why] : slips_for(&part.unit))
      if (v != 0 && within(v * k, v, part.rel, part.abs))
        out.problem(DiagCode::SlipGradedRight, part.pointer + "/tolerance",
                    "the tolerance (" + describe_tolerance(part.rel, part.abs, part.unit_text) + ") grades " +
                        format_for_reading(v * k) + unit_sp + " as right against " + format_for_reading(v) + unit_sp +
                        ", though it is off by " + format_for_reading(k) + "x (" + why + ")");
    warn_slip_beside_value(ex, *this, inst, part, v, out);
    // Equal values are one quantity asked twice (sent and received); close but different
    // ones are two formulas the exercise contrasts.
    for (size_t j = 0; j < parts.size() && j < part_values(inst).size(); ++j) {
      if (j == i || parts[j].unit.dim != part.unit.dim) continue;
      double other = part_values(inst)[j] * parts[j].unit.factor / part.unit.factor;
      if (other == v || std::fabs(other - v) <= 1e-9 * std::fabs(v)) continue;
      if (within(other, v, part.rel, part.abs))
        out.problem(DiagCode::PartsCollide, part.pointer + "/answer",
                    "part \"" + parts[j].id + "\"'s answer (" + format_for_reading(other) + unit_sp +
                        ") grades as right for part \"" + part.id + "\" (" + format_for_reading(v) + unit_sp + ", " +
                        describe_tolerance(part.rel, part.abs, part.unit_text) + ")");
    }
  }
}

void NumericSpec::texts(const Exercise&, const TextFn& fn) const {
  for (const auto& part : parts) {
    fn(part.label, part.pointer + "/label", "a part's label");
    for (const auto& m : part.mistakes) fn(m.message, m.pointer + "/message", "a known mistake's message");
  }
}

std::vector<std::string> NumericSpec::answer_names(const Exercise&) const {
  std::vector<std::string> names = {"answer"};  // the first part's
  for (const auto& p : parts) names.push_back("answer." + p.id);
  return names;
}

namespace {

// A part's derivation followed by the line naming its formula ("formula ID: ... (source)"),
// as the page and `dtx show --answer` print it.
std::string with_source_line(const NumericPart& p, std::string derivation) {
  if (const sim::SourcedFormula* f = p.source.empty() ? nullptr : sim::find_formula(p.source))
    derivation += "\nformula " + std::string(f->id) + ": " + f->formula + " (" + f->source + ")";
  return derivation;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> NumericSpec::derivations(const Exercise& ex, const Instance& inst) const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& p : parts)
    out.emplace_back(p.label.empty() ? p.id : p.label,
                     with_source_line(p, derivation_text(derive(ex, inst, p.id, p.answer, p.unit_text))));
  return out;
}

std::string NumericSpec::answer_unit(const Exercise&, std::string_view name) const {
  if (parts.empty()) return "";
  if (name == "answer") return parts[0].unit_text;
  for (const auto& p : parts)
    if (name.substr(0, 7) == "answer." && p.id == name.substr(7)) return p.unit_text;
  return "";
}

std::optional<double> NumericSpec::answer_value(const Instance& inst, std::string_view name) const {
  if (part_values(inst).empty()) return std::nullopt;  // not prepared yet
  if (name == "answer") return part_values(inst)[0];
  if (name.substr(0, 7) != "answer.") return std::nullopt;
  for (size_t i = 0; i < parts.size() && i < part_values(inst).size(); ++i)
    if (parts[i].id == name.substr(7)) return part_values(inst)[i];
  return std::nullopt;
}

void NumericSpec::describe(const Exercise& ex, const Instance& inst, bool with_answer, InstanceDescription& out) const {
  Json list = Json::array();
  out.text += "\n";
  for (size_t i = 0; i < parts.size(); ++i) {
    const auto& p = parts[i];
    Json pj = {{"id", p.id}, {"label", p.label}, {"unit", p.unit_text}};
    out.text += "  [" + p.id + "] " + markdown_math_to_plain(p.label) + (p.unit_text.empty() ? "" : " (" + p.unit_text + ")");
    if (with_answer) {
      pj["value"] = part_values(inst)[i];
      pj["tolerance"] = {{"rel", p.rel}, {"abs", p.abs}};
      if (p.integer) pj["integer"] = true;
      // the derivation alone (a contract of --json); the text also names the formula's source
      std::string derivation = derivation_text(derive(ex, inst, p.id, p.answer, p.unit_text));
      pj["derivation"] = derivation;
      if (const sim::SourcedFormula* f = p.source.empty() ? nullptr : sim::find_formula(p.source))
        pj["source"] = {{"id", f->id}, {"formula", f->formula}, {"citation", f->source}, {"url", f->url}};
      out.text += " = " + format_number(part_values(inst)[i], 6) + (p.unit_text.empty() ? "" : " " + p.unit_text) + "  (" +
                  key_tolerance(p) + ")";
      std::string shown = with_source_line(p, derivation);
      for (size_t a = 0, b; a <= shown.size(); a = b + 1) {
        b = std::min(shown.find('\n', a), shown.size());
        out.text += "\n      " + shown.substr(a, b - a);
      }
      out.answer_words.push_back(format_number(part_values(inst)[i], 12) + (p.unit_text.empty() ? "" : " " + p.unit_text));
    }
    out.text += "\n";
    list.push_back(pj);
  }
  out.json["parts"] = list;
}

std::vector<std::string> NumericSpec::answer_key(const Exercise&, const Instance& inst) const {
  std::vector<std::string> out;
  for (size_t i = 0; i < parts.size() && i < part_values(inst).size(); ++i) {
    const auto& p = parts[i];
    std::string unit = p.unit_text.empty() ? "" : " " + p.unit_text;
    out.push_back((p.label.empty() ? p.id : p.label) + " = " + format_number(part_values(inst)[i], 6) + unit + "  (" +
                  key_tolerance(p) + ")");
  }
  return out;
}

// Either one value per part in part order, or id=value in any order. A wrong count is left
// to grading, which says how many parts there are.
std::optional<Answer> NumericSpec::parse_answer(const Exercise&, const Instance&, const std::vector<std::string>& words,
                                                std::string* error) const {
  bool named = !words.empty() && words[0].find('=') != std::string::npos;
  if (!named) return make_answer(NumericAnswer(words));
  std::vector<std::string> given(parts.size());
  for (const auto& w : words) {
    size_t eq = w.find('=');
    std::string id = trim(w.substr(0, eq == std::string::npos ? 0 : eq));
    bool found = false;
    for (size_t k = 0; k < parts.size(); ++k)
      if (parts[k].id == id) {
        given[k] = w.substr(eq + 1);
        found = true;
      }
    if (!found) {
      std::vector<std::string> ids;
      for (const auto& p : parts) ids.push_back(p.id);
      if (error) *error = "no part named '" + id + "'" + did_you_mean(id, ids, '\'') + "; parts: " + join_names(ids);
      return std::nullopt;
    }
  }
  return make_answer(NumericAnswer(given));
}

// "id=text" for every part, the text exactly as typed: parse_answer takes what follows the
// first '=' whole (spaces, an empty or unreadable text, another '='), and part ids are never
// empty and hold no '=' (the loader requires letters, digits and _), so every part comes back
// as it was. An answer with more or fewer texts than parts has no named form: it goes back
// positionally, which reads it exactly when its first text has no '=' (always so for one
// parse_answer made: the page makes one text per part, and a first word with '=' is named).
std::vector<std::string> NumericSpec::answer_words(const Exercise&, const Instance&, const Answer& a) const {
  const std::vector<std::string>& texts = a.as_or_empty<NumericAnswer>().parts;
  if (texts.size() != parts.size()) return texts;
  std::vector<std::string> words;
  for (size_t i = 0; i < parts.size(); ++i) words.push_back(parts[i].id + "=" + texts[i]);
  return words;
}

std::vector<SampleAnswer> NumericSpec::sample_answers(const Exercise&, const Instance& inst) const {
  using E = SampleAnswer::Expect;
  std::vector<SampleAnswer> out;
  std::vector<std::string> right;
  for (size_t i = 0; i < parts.size(); ++i)
    right.push_back(format_number(part_values(inst)[i], 12) + (parts[i].unit_text.empty() ? "" : " " + parts[i].unit_text));
  out.push_back({"correct", make_answer(NumericAnswer(right)), E::Correct, ""});
  // Each known mistake in its part, the others right: that part is wrong with the mistake's
  // own message (the first listed one when two share the value). A mistake that coincides
  // with the answer in this instance grades right, as it should; lint keeps it from
  // coinciding at the default.
  const ExprScope scope = inst.scope();
  for (size_t i = 0; i < parts.size(); ++i) {
    const NumericPart& part = parts[i];
    for (const auto& m : part.mistakes) {
      ExprError err;
      auto mv = m.answer.eval(scope, &err);
      if (!mv || within(*mv, part_values(inst)[i], part.rel, part.abs)) continue;
      std::string message = inst.render(m.message);
      for (const auto& other : part.mistakes) {
        if (&other == &m) break;
        auto ov = other.answer.eval(scope, &err);
        if (ov && within(*mv, *ov, part.rel, part.abs)) {
          message = inst.render(other.message);
          break;
        }
      }
      std::vector<std::string> answer = right;
      answer[i] = format_number(*mv, 12) + (part.unit_text.empty() ? "" : " " + part.unit_text);
      out.push_back({"part " + part.id + ", known mistake " + m.answer.text(), make_answer(NumericAnswer(answer)),
                     parts.size() == 1 ? E::Incorrect : E::Partial, message});
    }
  }
  // Every part three times too large (no diagnosis names a factor of 3): wrong, an attempt.
  std::vector<std::string> thrice;
  for (size_t i = 0; i < parts.size(); ++i) {
    double v = part_values(inst)[i];
    thrice.push_back(format_number(v == 0 ? 1 : 3 * v, 12) + (parts[i].unit_text.empty() ? "" : " " + parts[i].unit_text));
  }
  out.push_back({"every part 3x too large", make_answer(NumericAnswer(thrice)), E::Incorrect, ""});
  std::vector<std::string> words = right;
  words[0] = "about twelve";
  out.push_back({"unreadable: words instead of a number", make_answer(NumericAnswer(words)), E::Unreadable, ""});
  std::vector<std::string> fewer(right.begin(), right.end() - 1);
  out.push_back({"unreadable: one answer too few", make_answer(NumericAnswer(fewer)), E::Unreadable, ""});
  return out;
}

std::string part_input_hint(const NumericPart& part) {
  const Unit& u = part.unit;
  const Dim& d = u.dim;
  if (u.symbol == "%") return "a percentage";
  if (d.money == 1 && d.data == 0 && d.time == 0 && d.flop == 0) return "an amount in " + u.symbol;
  const bool only_data = d.data != 0 && d.time == 0 && d.flop == 0 && d.money == 0 && d.count == 0;
  const bool only_flop = d.flop != 0 && d.data == 0 && d.money == 0 && d.count == 0;
  std::string others;  // which other units the engine converts from
  if (only_data && d.data == 1) others = "size";
  if (d.data == 1 && d.time == -1 && d.flop == 0 && d.money == 0 && d.count == 0) others = "bandwidth";
  if (d.time == 1 && d.data == 0 && d.flop == 0 && d.money == 0 && d.count == 0) others = "time";
  if (only_flop && d.flop == 1 && d.time == 0) others = "FLOP";
  if (only_flop && d.flop == 1 && d.time == -1) others = "FLOP/s";
  if (u.symbol.empty() || (d == Dim{})) return "a plain number";
  return "in " + u.symbol + (others.empty() ? "" : " or any " + others + " unit");
}

}  // namespace dtx
