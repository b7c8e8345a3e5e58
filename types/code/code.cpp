#include "code.h"

#include <cmath>
#include <functional>
#include <set>

#include "diagnose.h"
#include "figures.h"
#include "type_support.h"
#include "text.h"

namespace dtx {

namespace {

// The instance's cases (none before prepare).
const std::vector<CodeCase>& cases_of(const Instance& inst) {
  return inst.data_or_empty<CodeInstance>().cases;
}

bool valid_js_name(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$')) return false;
  return true;
}

// The function students write: its language, name and argument names.
void load_code_signature(const Json& j, const std::string& ptr, LoadContext& ctx, CodeSpec& spec) {
  if (auto l = ctx.string_field(j, ptr, "language", false)) {
    if (*l != "javascript") ctx.error(DiagCode::ValueNotAllowed, ptr + "/language", "expected \"javascript\" (the only language runners support), got \"" + *l + "\"");
    spec.language = *l;
  }
  if (auto f = ctx.string_field(j, ptr, "function", true)) {
    if (!valid_js_name(*f)) ctx.error(DiagCode::BadName, ptr + "/function", "expected a JavaScript function name, got \"" + *f + "\"");
    spec.function = *f;
  }
  spec.args = ctx.string_list_field(j, ptr, "args");
  for (size_t i = 0; i < spec.args.size(); ++i) {
    if (!valid_js_name(spec.args[i]))
      ctx.error(DiagCode::BadName, ptr + "/args/" + std::to_string(i), "expected an argument name, got \"" + spec.args[i] + "\"");
    // "expected" would read the first, a JavaScript function the last: refuse the ambiguity.
    for (size_t k = 0; k < i; ++k)
      if (spec.args[k] == spec.args[i])
        ctx.error(DiagCode::Duplicate, ptr + "/args/" + std::to_string(i), "the argument name \"" + spec.args[i] + "\" is already argument " +
                                                          std::to_string(k + 1) + "; each argument needs its own name");
  }
}

// "cases": each an array of argument values, with an expected value or not (the reference's).
void load_code_cases(const Json& j, const std::string& ptr, LoadContext& ctx, CodeSpec& spec) {
  if (auto it = j.find("cases"); it != j.end()) {
    std::string cp = ptr + "/cases";
    if (!it->is_array()) {
      ctx.error(DiagCode::WrongKind, cp, "expected an array of cases {\"args\": [...]}, got " + describe_json(*it));
    } else {
      for (size_t i = 0; i < it->size(); ++i) {
        std::string p = cp + "/" + std::to_string(i);
        const Json& c = (*it)[i];
        if (!ctx.expect_object(c, p, "a case {\"args\": [...]}")) continue;
        ctx.check_fields(c, p, {"args", "expected", "note", "hidden"}, {"args"});
        auto a = c.find("args");
        if (a == c.end()) continue;
        if (!a->is_array() || a->size() != spec.args.size()) {
          ctx.error(DiagCode::WrongCount, p + "/args", "expected an array of " + std::to_string(spec.args.size()) +
                                     " argument values (" + std::to_string(spec.args.size()) +
                                     " names in \"args\"), got " + describe_json(*a));
          continue;
        }
        CodeCaseSpec cs;
        cs.pointer = p;
        for (const auto& v : *a) cs.args_json.push_back(v.dump());
        if (auto e = c.find("expected"); e != c.end()) cs.expected_json = e->dump();
        cs.note = ctx.string_field(c, p, "note", false).value_or("");
        cs.hidden = ctx.bool_field(c, p, "hidden").value_or(false);
        spec.cases.push_back(cs);
      }
    }
  }
}

// "generate": how many cases to draw, and each argument's range.
void load_code_generator(const Json& j, const std::string& ptr, LoadContext& ctx, CodeSpec& spec) {
  if (auto it = j.find("generate"); it != j.end()) {
    std::string gp = ptr + "/generate";
    if (ctx.expect_object(*it, gp, "{\"count\": n, \"ranges\": {...}}")) {
      ctx.check_fields(*it, gp, {"count", "ranges", "hidden"}, {"count", "ranges"});
      if (auto n = ctx.int_field(*it, gp, "count", true, 0, 100)) spec.generate_count = static_cast<int>(*n);
      spec.generate_hidden = ctx.bool_field(*it, gp, "hidden").value_or(false);
      if (auto r = it->find("ranges"); r != it->end() && ctx.expect_object(*r, gp + "/ranges", "an object mapping each argument to a range")) {
        for (const auto& name : spec.args) {
          std::string rp = gp + "/ranges/" + json_pointer_escape(name);
          auto ri = r->find(name);
          if (ri == r->end()) {
            ctx.error(DiagCode::MissingField, gp + "/ranges", "missing a range for argument \"" + name + "\"");
            continue;
          }
          if (!ctx.expect_object(*ri, rp, "{\"choices\": [...]} or {\"min\", \"max\", \"step\"}")) continue;
          ctx.check_fields(*ri, rp, {"choices", "min", "max", "step"}, {});
          CodeArgRange ar;
          ar.name = name;
          // The same reader as a parameter's range (no default: a range or choices is needed).
          auto range = read_value_range(ctx, *ri, rp, std::nullopt);
          if (!range) continue;
          ar.choices = std::move(range->choices);
          ar.min = range->min;
          ar.max = range->max;
          ar.step = range->step;
          spec.ranges.push_back(ar);
        }
        for (auto ri = r->begin(); ri != r->end(); ++ri)
          if (!ctx.skip_comment(ri.key(), ri.value(), gp + "/ranges") &&
              std::find(spec.args.begin(), spec.args.end(), ri.key()) == spec.args.end())
            ctx.error(DiagCode::UnknownField, gp + "/ranges/" + json_pointer_escape(ri.key()),
                      "\"" + ri.key() + "\" is not one of the function's args" +
                          did_you_mean(ri.key(), spec.args) + "; args: " + join_names(spec.args),
                      true);
      }
    }
  }
}

// "wrong": implementations an author expects to fail (lint runs them).
void load_code_wrong(const Json& j, const std::string& ptr, LoadContext& ctx, CodeSpec& spec) {
  if (auto it = j.find("wrong"); it != j.end()) {
    std::string wp = ptr + "/wrong";
    if (!it->is_array()) {
      ctx.error(DiagCode::WrongKind, wp, "expected an array of {\"note\", \"code\"}, got " + describe_json(*it));
    } else {
      for (size_t i = 0; i < it->size(); ++i) {
        std::string p = wp + "/" + std::to_string(i);
        if (!ctx.expect_object((*it)[i], p, "{\"note\": ..., \"code\": ...}")) continue;
        ctx.check_fields((*it)[i], p, {"note", "code"}, {"note", "code"});
        WrongImplementation w;
        w.pointer = p;
        w.note = ctx.string_field((*it)[i], p, "note", true).value_or("");
        w.code = ctx.string_field((*it)[i], p, "code", true).value_or("");
        spec.wrong.push_back(w);
      }
    }
  }
}

std::shared_ptr<TypeSpec> load_code(const Json& j, const std::string& ptr, LoadContext& ctx) {
  auto spec = std::make_shared<CodeSpec>();
  spec->pointer = ptr;
  load_code_signature(j, ptr, ctx, *spec);
  spec->returns = ctx.string_field(j, ptr, "returns", false, false).value_or("");
  spec->starter = ctx.string_field(j, ptr, "starter", false).value_or("");
  spec->reference = ctx.string_field(j, ptr, "reference", false).value_or("");
  spec->expected = ctx.expr_field(j, ptr, "expected", false);
  if (!j.contains("expected") && !j.contains("reference"))
    ctx.error(DiagCode::NoSolution, ptr, "a code exercise needs \"expected\" (an expression over the args) or \"reference\" (a solution), or both");
  ctx.tolerance_field(j, ptr, "tolerance", &spec->rel, &spec->abs);
  if (!j.contains("tolerance")) spec->rel = 1e-6;
  load_code_cases(j, ptr, ctx, *spec);
  load_code_generator(j, ptr, ctx, *spec);
  if (spec->cases.empty() && spec->generate_count == 0 && !ctx.failed())
    ctx.error(DiagCode::NoCases, ptr, "a code exercise needs test cases: \"cases\" and/or \"generate\"");
  load_code_wrong(j, ptr, ctx, *spec);
  return spec;
}

// Whole numbers print as 8, not 8.0, so cases read the way a student would write them.
std::string number_json(double v) {
  if (std::floor(v) == v && std::fabs(v) < 1e15) return Json(static_cast<long long>(v)).dump();
  return Json(v).dump();
}

std::string show_args(const std::vector<std::string>& names, const std::vector<std::string>& vals) {
  std::string s;
  for (size_t i = 0; i < vals.size(); ++i) {
    s += (i ? ", " : "");
    if (i < names.size()) s += names[i] + "=";
    s += vals[i];
  }
  return s;
}

std::string pretty_json(const std::string& text) {
  Json j = Json::parse(text, nullptr, false);
  if (j.is_discarded()) return text;
  if (j.is_number()) return format_number(j.get<double>(), 6);
  return j.dump();
}

}  // namespace

namespace {

// `dtx new code`: a whole working exercise, with "$comment" notes on every field (cli/new.cpp
// puts it in a pack; the CLI test checks that it passes `dtx lint --warn`).
const char* kNewTitle = "Write it: the pipeline bubble";
const char* kNewIntro =
    "A pipeline schedule such as GPipe or 1F1B leaves each stage idle while the pipeline fills "
     "and drains: the bubble.";
const char* kNewExercise = R"JSON(    {
      "$comment": [
@COMMON@,
        "A code exercise: the student writes a JavaScript function, run in the browser with a time limit. \"function\" and \"args\" give its signature; \"returns\" is shown next to it (a unit or a short description); \"starter\" is the code the editor opens with.",
        "The expected value of a case is \"expected\" (an expression over the args and params) or, without it, what \"reference\" returns; give both and lint checks that they agree. \"tolerance\" applies to numbers (default rel 1e-6).",
        "\"cases\" are always run (a case may give its own \"expected\" and a \"note\" shown with it); \"generate\" adds \"count\" cases drawn from \"ranges\" (one per arg: \"choices\", or \"min\"/\"max\"/\"step\").",
        "\"wrong\" lists plausible wrong implementations: lint runs them (with node) and fails if one passes every case, which proves the cases catch those mistakes."
      ],
      "id": @ID@,
      "type": "code",
      "title": @TITLE@,
      "difficulty": 2,
      "tags": ["pipeline", "bubble"],
      "prompt": "A pipeline of `p` stages runs `m` equal microbatches per training step with a GPipe schedule: every microbatch takes the same time on every stage, forward and backward together.\n\nWrite `bubbleFraction(p, m)`: the fraction of the step that each stage spends **idle**, a number from 0 to 1.",
      "language": "javascript",
      "function": "bubbleFraction",
      "args": ["p", "m"],
      "returns": "fraction of the step spent idle (0 to 1)",
      "starter": "function bubbleFraction(p, m) {\n  // p: pipeline stages, m: microbatches per step\n  return 0;\n}",
      "expected": "(p-1)/(m+p-1)",
      "reference": "function bubbleFraction(p, m) {\n  return (p - 1) / (m + p - 1);\n}",
      "cases": [
        {"args": [4, 8]},
        {"$comment": "Edge cases with a note say what they test.", "args": [1, 8], "note": "one stage: no pipeline, no bubble"},
        {"args": [8, 1], "note": "one microbatch: each stage works 1 slot of 8"}
      ],
      "generate": {
        "count": 4,
        "ranges": {"p": {"choices": [2, 4, 8, 16]}, "m": {"min": 1, "max": 64, "step": 1}}
      },
      "tolerance": {"rel": 1e-6},
      "wrong": [
        {
          "note": "idle time divided by the busy time m instead of the whole step",
          "code": "function bubbleFraction(p, m) {\n  return (p - 1) / m;\n}"
        },
        {
          "note": "p idle slots instead of p - 1",
          "code": "function bubbleFraction(p, m) {\n  return p / (m + p);\n}"
        }
      ],
      "hints": [
        "Count time in slots: one slot is one microbatch on one stage. Each stage is busy for m slots.",
        "The last stage starts p-1 slots after the first, and the first finishes p-1 slots before the last. How long is the whole step?"
      ],
      "explanation": "In slots of one microbatch on one stage, each stage is busy for m slots, and the step lasts m + p - 1 slots: the last stage starts p - 1 slots late. The idle fraction is (p - 1) / (m + p - 1): 3/11, about 27%, for p = 4 and m = 8. More microbatches shrink it, which is why pipelines want m well above p."
    })JSON";

}  // namespace

const TypeEntry& code_type_entry() {
  static const TypeEntry e{"code", "code",
                           {"language", "function", "args", "returns", "starter", "expected",
                            "reference", "cases", "generate", "tolerance", "wrong"},
                           {"function", "args"},
                           &load_code,
                          kNewTitle, kNewIntro, kNewExercise,
                          "a file holding your function (- for stdin), or several files: each is\ngraded on its own, one line per file (--json: an array)",
                          5};
  return e;
}

bool json_values_match(const std::string& got, const std::string& expected, double rel, double abs) {
  Json g = Json::parse(got, nullptr, false);
  Json e = Json::parse(expected, nullptr, false);
  if (g.is_discarded() || e.is_discarded()) return got == expected;
  std::function<bool(const Json&, const Json&)> eq = [&](const Json& a, const Json& b) -> bool {
    if (a.is_number() && b.is_number()) return within(a.get<double>(), b.get<double>(), rel, abs);
    if (a.is_array() && b.is_array()) {
      if (a.size() != b.size()) return false;
      for (size_t i = 0; i < a.size(); ++i)
        if (!eq(a[i], b[i])) return false;
      return true;
    }
    if (a.is_object() && b.is_object()) {
      if (a.size() != b.size()) return false;
      for (auto it = b.begin(); it != b.end(); ++it) {
        auto f = a.find(it.key());
        if (f == a.end() || !eq(*f, it.value())) return false;
      }
      return true;
    }
    return a == b;
  };
  return eq(g, e);
}

bool CodeSpec::prepare(const Exercise& ex, Instance& inst, uint64_t seed, std::string* error) const {
  auto data = std::make_shared<CodeInstance>();
  inst.data = data;
  auto add = [&](const std::vector<std::string>& args_json, std::optional<std::string> expected,
                 const std::string& note, bool hidden) -> bool {
    CodeCase c;
    c.args_json = args_json;
    c.note = note;
    c.hidden = hidden;
    for (const auto& a : args_json) {
      Json v = Json::parse(a, nullptr, false);
      if (v.is_number()) c.args_num.push_back(v.get<double>());
      else c.numeric_args = false;
    }
    if (!expected && this->expected && c.numeric_args) {
      auto base = inst.scope();
      ExprError err;
      auto v = this->expected->eval(
          [&](std::string_view name) -> std::optional<double> {
            for (size_t i = 0; i < args.size(); ++i)
              if (args[i] == name) return c.args_num[i];
            return base(name);
          },
          &err);
      if (!v) {
        if (error) *error = "the expected expression fails for (" + show_args(args, args_json) + "): " + err.message;
        return false;
      }
      expected = number_json(*v);
    }
    c.expected_json = expected;
    data->cases.push_back(std::move(c));
    return true;
  };
  for (const auto& cs : cases)
    if (!add(cs.args_json, cs.expected_json, cs.note, cs.hidden)) return false;
  Rng rng(hash_string(ex.id + "/cases") ^ (seed * 0x9E3779B97F4A7C15ull + 1));
  std::set<std::vector<std::string>> seen;
  for (const auto& c : data->cases) seen.insert(c.args_json);
  for (int k = 0, tries = 0; k < generate_count && tries < 50 * (generate_count + 1); ++tries) {
    std::vector<std::string> a;
    for (const auto& r : ranges) {
      double v = draw_value(rng, r.choices, r.min, r.max, r.step);
      a.push_back(number_json(v));
    }
    if (!seen.insert(a).second) continue;  // a repeated case tests nothing new
    if (!add(a, std::nullopt, "generated", generate_hidden)) return false;
    ++k;
  }
  return true;
}

CodeRunRequest make_code_request(const Instance& inst, const std::string& source) {
  CodeRunRequest r;
  const auto* spec = inst.exercise ? inst.exercise->spec_as<CodeSpec>() : nullptr;
  if (!spec) return r;
  r.language = spec->language;
  r.function = spec->function;
  r.source = source;
  bool need_ref = false;
  for (const auto& c : cases_of(inst)) {
    r.cases.push_back(c.args_json);
    need_ref |= !c.expected_json.has_value();
  }
  if (need_ref) r.reference = spec->reference;
  return r;
}

namespace {

// Grades what a runner returned. For the student (`for_author` false) a hidden case keeps only
// its verdict: no arguments, expected or returned value, note, error text or a diagnosis that
// names an argument's value ("8 is N here"); one line of details counts the hidden cases.
// Lint (`for_author`) sees every case in full, to name the case a reference fails.
// A run that ended before any case could be compared (no parse, no function, the time or
// memory limit, an error at load): its feedback, or nothing when the cases were run.
std::optional<Feedback> failed_run(const CodeSpec& spec, const CodeRunResult& run) {
  Feedback fb;
  std::string at_line = run.error_line > 0 ? " (line " + std::to_string(run.error_line) + ")" : "";
  // A program that does not parse or does not define the function is unreadable input, like
  // a malformed number: reported, not counted.
  if (run.kind == CodeRunResult::Kind::Syntax || run.kind == CodeRunResult::Kind::Missing) {
    fb.verdict = Verdict::FormatError;
    fb.message = (run.kind == CodeRunResult::Kind::Syntax ? "Syntax error" + at_line + ": " : "") + run.error;
    if (run.kind == CodeRunResult::Kind::Missing && fb.message.empty())
      fb.message = "Define a function named " + spec.function + ".";
    return fb;
  }
  fb.verdict = Verdict::Incorrect;
  if (run.kind == CodeRunResult::Kind::Timeout || run.kind == CodeRunResult::Kind::Memory) {
    fb.message = run.kind == CodeRunResult::Kind::Timeout
                     ? "Stopped: the code ran past the time limit (is there an infinite loop?)" + at_line + "."
                     : "Stopped: the code used more memory than the limit allows (does something grow without end?)" + at_line + ".";
    if (!run.error.empty()) fb.details.push_back("The sandbox said: " + run.error + ".");
    return fb;
  }
  if (!run.error.empty() && run.student.empty()) {
    fb.message = "Error" + at_line + ": " + run.error;
    return fb;
  }
  return std::nullopt;
}

// Why a numeric result differs from the expected one (a factor, a unit slip), in the case's
// own argument values, with its misconception key; a hidden case's values stay out of it.
Diagnosis case_diagnosis(const CodeSpec& spec, const CodeCase& c, bool conceal, const std::string& got_json,
                         const std::string& expected_json) {
  Json g = Json::parse(got_json, nullptr, false);
  Json e = Json::parse(expected_json, nullptr, false);
  if (g.is_number() && e.is_number()) {
    FactorContext fc;
    for (size_t k = 0; k < spec.args.size() && k < c.args_json.size() && !conceal; ++k) {
      Json a = Json::parse(c.args_json[k], nullptr, false);
      if (a.is_number()) fc.values.emplace_back(spec.args[k], a.get<double>());
    }
    return diagnose(g.get<double>(), e.get<double>(), std::max(spec.rel, 1e-6), spec.abs, fc);
  }
  if (!g.is_discarded() && g.is_null()) return {"", "the function returned nothing (undefined) or NaN"};
  return {};
}

// One case: what was given, expected and got, and whether it passes. `diagnosis` is set when
// a numeric result is off by a nameable factor.
CaseFeedback grade_case(const CodeSpec& spec, const CodeRunResult& run, const CodeCase& c, size_t i, bool conceal,
                        Diagnosis* diagnosis) {
  CaseFeedback cf;
  cf.args = show_args(spec.args, c.args_json);
  cf.note = c.note;
  std::optional<std::string> expected = c.expected_json;
  if (!expected && i < run.reference.size() && run.reference[i].ok) expected = run.reference[i].value_json;
  cf.expected = expected ? pretty_json(*expected) : "?";
  if (i >= run.student.size()) {
    cf.message = "not run";
  } else if (!run.student[i].ok) {
    cf.got = "error";
    cf.message = run.student[i].error;
  } else {
    cf.got = pretty_json(run.student[i].value_json);
    if (!expected) {
      cf.message = "the reference solution failed on this case (a problem with the exercise)";
    } else if (json_values_match(run.student[i].value_json, *expected, spec.rel, spec.abs)) {
      cf.pass = true;
    } else {
      Diagnosis why = case_diagnosis(spec, c, conceal, run.student[i].value_json, *expected);
      cf.message = why.message;
      cf.misconception = why.key;
      Json g = Json::parse(run.student[i].value_json, nullptr, false);
      if (g.is_number() && !cf.message.empty()) *diagnosis = std::move(why);
    }
  }
  return cf;
}

Feedback grade_ran(const CodeSpec& spec, const Instance& inst, const CodeRunResult& run, bool for_author) {
  if (auto failed = failed_run(spec, run)) return *failed;
  Feedback fb;
  int pass = 0, hidden = 0, hidden_pass = 0;
  bool hidden_threw = false;
  std::vector<Diagnosis> diagnoses;
  for (size_t i = 0; i < cases_of(inst).size(); ++i) {
    const CodeCase& c = cases_of(inst)[i];
    const bool conceal = c.hidden && !for_author;
    const bool threw = i < run.student.size() && !run.student[i].ok;
    Diagnosis diagnosis;
    CaseFeedback cf = grade_case(spec, run, c, i, conceal, &diagnosis);
    if (!diagnosis.message.empty()) diagnoses.push_back(std::move(diagnosis));
    hidden_threw |= conceal && threw;
    pass += cf.pass;
    if (c.hidden) {
      ++hidden;
      hidden_pass += cf.pass;
    }
    if (conceal) {
      const bool passed = cf.pass;
      cf = CaseFeedback{};
      cf.pass = passed;
      cf.hidden = true;
      if (threw) cf.message = "a hidden case threw an error";
    }
    fb.cases.push_back(cf);
  }
  int n = static_cast<int>(cases_of(inst).size());
  fb.score = n ? static_cast<double>(pass) / n : 0;
  fb.verdict = pass == n ? Verdict::Correct : pass > 0 ? Verdict::Partial : Verdict::Incorrect;
  fb.message = pass == n ? "Correct: all " + std::to_string(n) + " cases pass."
                         : std::to_string(pass) + " of " + std::to_string(n) + " cases pass.";
  // When every failing case is off by the same factor, say it once, up front.
  if (pass < n && !diagnoses.empty() && static_cast<int>(diagnoses.size()) == n - pass) {
    bool same = true;
    for (const auto& d : diagnoses) same &= d.message == diagnoses.front().message;
    if (same) {
      fb.message += " In every failing case: " + diagnoses.front().message;
      fb.misconception = diagnoses.front().key;
    }
  }
  if (hidden > 0 && !for_author)
    fb.details.push_back("Hidden cases: " + std::to_string(hidden_pass) + " of " + std::to_string(hidden) + " pass" +
                         (hidden_threw ? "; a hidden case threw an error." : "."));
  return fb;
}

}  // namespace

Feedback CodeSpec::grade(const Exercise& ex, const Instance& inst, const Answer& answer,
                         const GradeServices& services) const {
  (void)ex;
  const CodeAnswer* a = answer.as<CodeAnswer>();
  std::shared_ptr<const CodeRunResult> ran = a ? a->run : nullptr;
  if (!ran && a && services.runner) ran = std::make_shared<CodeRunResult>(services.runner->run(make_code_request(inst, a->source)));
  if (!ran) {
    Feedback fb;
    fb.verdict = Verdict::FormatError;
    fb.message = "No run result: the code was not run.";
    return fb;
  }
  return grade_ran(*this, inst, *ran, false);
}

Feedback grade_code(const Instance& inst, const std::string& source, CodeRunner& runner) {
  GradeServices services;
  services.runner = &runner;
  return grade(inst, make_answer(CodeAnswer(source)), services);
}

Feedback grade_code_for_author(const Instance& inst, const std::string& source, CodeRunner& runner) {
  const auto* spec = inst.exercise ? inst.exercise->spec_as<CodeSpec>() : nullptr;
  if (!spec) return grade_code(inst, source, runner);
  return grade_ran(*spec, inst, runner.run(make_code_request(inst, source)), true);
}

void CodeSpec::lint(const Exercise& ex, LintContext& ctx) const {
  // Expected values must evaluate for every listed case and for the generated ranges'
  // corners; running the reference needs a runner, which lint gets from the CLI.
  bool names_ok = true;
  if (expected) {
    std::vector<std::string> visible = args;
    visible.insert(visible.end(), ctx.declared.begin(), ctx.declared.end());
    names_ok = ctx.check_names(*expected, pointer + "/expected",
                               "\"expected\" (it may use the function's args and the exercise's params)",
                               visible);
  }
  if (expected && names_ok) {
    for (const auto& c : cases) {
      if (c.expected_json) continue;
      std::vector<double> nums;
      bool numeric = true;
      for (const auto& a : c.args_json) {
        Json v = Json::parse(a, nullptr, false);
        if (v.is_number()) nums.push_back(v.get<double>());
        else numeric = false;
      }
      if (!numeric) {
        ctx.error(DiagCode::NoSolution, c.pointer + "/args", "the \"expected\" expression needs numeric arguments; give this case its own \"expected\"");
        continue;
      }
      auto base = ctx.scope_at(0);
      ExprError err;
      auto v = expected->eval(
          [&](std::string_view name) -> std::optional<double> {
            for (size_t i = 0; i < args.size(); ++i)
              if (args[i] == name) return nums[i];
            return base(name);
          },
          &err);
      if (!v)
        ctx.error(DiagCode::EvaluationFails, c.pointer, "\"expected\" does not evaluate for this case (" + show_args(args, c.args_json) +
                                 "): " + err.message);
    }
  } else if (!expected && reference.empty()) {
    ctx.error(DiagCode::NoSolution, pointer, "no \"expected\" expression and no \"reference\" solution");
  }
  if (!ctx.runner || !names_ok) return;
  bool ref_reported = false;
  std::vector<bool> wrong_reported(wrong.size(), false);
  std::set<std::string> tried;  // the cases of each seed run so far
  for (uint64_t seed : {0ull, 1ull, 2ull}) {
    std::string err;
    auto inst = make_instance(ex, seed, &err);
    if (!inst) {
      ctx.error(DiagCode::CannotMakeInstance, pointer, "cannot make an instance: " + err);
      return;
    }
    // A seed whose cases (arguments and expected values) are those of a seed already run
    // would give the same verdicts: an exercise without parameters or generated cases runs
    // once, not three times (a wrong implementation that loops costs its time limit each run).
    std::string key;
    for (const auto& c : cases_of(*inst)) {
      for (const auto& a : c.args_json) key += a + '\x1f';
      key += (c.expected_json ? *c.expected_json : std::string("\x1e")) + '\x1d';
    }
    if (!tried.insert(key).second) continue;
    if (!reference.empty() && !ref_reported) {
      Feedback f = grade_code_for_author(*inst, reference, *ctx.runner);
      if (f.verdict != Verdict::Correct) {
        std::string which;
        for (const auto& cf : f.cases)
          if (!cf.pass) {
            which = " (first failing case: " + cf.args + " expected " + cf.expected + ", got " +
                    (cf.got.empty() ? cf.message : cf.got) + ")";
            break;
          }
        ctx.error(DiagCode::ReferenceFails, pointer + "/reference", "the reference solution fails its own cases: " + f.message + which);
        ref_reported = true;
      }
    }
    for (size_t k = 0; k < wrong.size(); ++k) {
      if (wrong_reported[k]) continue;
      Feedback f = grade_code_for_author(*inst, wrong[k].code, *ctx.runner);
      if (f.verdict == Verdict::Correct) {
        ctx.error(DiagCode::WrongPasses, wrong[k].pointer, "this wrong implementation (" + wrong[k].note + ") passes every case" +
                                        (seed ? " of seed " + std::to_string(seed) : "") +
                                        "; add a case that catches it");
        wrong_reported[k] = true;
      }
    }
  }
}

// ---------------------------------------------------------------- the type's lifecycle

void CodeSpec::warn(const Exercise& ex, LintContext& ctx) const { warn_no_hints(ex, ctx); }

void CodeSpec::describe(const Exercise&, const Instance& inst, bool with_answer, InstanceDescription& out) const {
  out.text += "\nWrite: function " + function + "(";
  for (size_t i = 0; i < args.size(); ++i) out.text += (i ? ", " : "") + args[i];
  out.text += ")" + (returns.empty() ? "" : " -> " + returns) + "\n\nStarter:\n" + starter + "\n";
  out.json["function"] = function;
  out.json["args"] = args;
  out.json["returns"] = returns;
  out.json["starter"] = starter;
  Json list = Json::array();
  out.text += "\nCases:\n";
  int hidden = 0;
  for (const auto& c : cases_of(inst)) {
    // The student's view (no --answer) counts hidden cases and never prints their inputs.
    hidden += c.hidden;
    if (c.hidden && !with_answer) continue;
    Json cj;
    if (c.hidden) cj["hidden"] = true;
    Json argv = Json::array();
    for (const auto& arg : c.args_json) argv.push_back(Json::parse(arg, nullptr, false));
    cj["args"] = argv;
    out.text += "  " + function + "(";
    for (size_t i = 0; i < c.args_json.size(); ++i) out.text += (i ? ", " : "") + c.args_json[i];
    out.text += ")";
    if (with_answer && c.expected_json) {
      cj["expected"] = Json::parse(*c.expected_json, nullptr, false);
      out.text += " = " + *c.expected_json;
    }
    if (!c.note.empty()) out.text += "   # " + c.note;
    if (c.hidden) out.text += "   (hidden)";
    out.text += "\n";
    list.push_back(cj);
  }
  if (hidden > 0 && !with_answer)
    out.text += "  and " + std::to_string(hidden) + " hidden case" + (hidden == 1 ? "" : "s") + "\n";
  out.json["cases"] = list;
  out.json["hidden_cases"] = hidden;
  if (with_answer && !reference.empty()) {
    out.text += "\nReference:\n" + reference + "\n";
    out.json["reference"] = reference;
    out.answer_words = {reference};
  }
}

// Instructors see everything, hidden cases included: after the reference, each hidden case
// with its expected value (the reference's result when the pack gives none).
std::vector<std::string> CodeSpec::answer_key(const Exercise&, const Instance& inst) const {
  int hidden = 0;
  for (const auto& c : cases_of(inst)) hidden += c.hidden;
  std::vector<std::string> out = {"function " + function + ", " + std::to_string(cases_of(inst).size()) + " test cases" +
                                      (hidden ? " (" + std::to_string(hidden) + " hidden)" : "") + "; reference solution:",
                                  reference};
  for (const auto& c : cases_of(inst)) {
    if (!c.hidden) continue;
    std::string line = "hidden: " + function + "(";
    for (size_t i = 0; i < c.args_json.size(); ++i) line += (i ? ", " : "") + c.args_json[i];
    out.push_back(line + ") = " + (c.expected_json ? pretty_json(*c.expected_json) : "the reference's result"));
  }
  return out;
}

// The program is the one word (the CLI reads it from a file); it runs when graded.
std::optional<Answer> CodeSpec::parse_answer(const Exercise&, const Instance&, const std::vector<std::string>& words,
                                             std::string* error) const {
  if (words.size() != 1) {
    if (error) *error = "expected one program, got " + std::to_string(words.size());
    return std::nullopt;
  }
  return make_answer(CodeAnswer(words[0]));
}

// The program itself: parse_answer's one word. What a run returned is not part of the words;
// the CLI runs the program again when it grades them.
std::vector<std::string> CodeSpec::answer_words(const Exercise&, const Instance&, const Answer& a) const {
  return {a.as_or_empty<CodeAnswer>().source};
}

namespace {
// What a runner returns for a program that gives `value(i)` on case i.
std::shared_ptr<const CodeRunResult> run_returning(const Instance& inst, const std::function<std::string(size_t)>& value) {
  auto run = std::make_shared<CodeRunResult>();
  bool need_reference = false;
  for (size_t i = 0; i < cases_of(inst).size(); ++i) {
    CodeCaseOutcome o;
    o.ok = true;
    o.value_json = value(i);
    run->student.push_back(o);
    need_reference |= !cases_of(inst)[i].expected_json.has_value();
  }
  // Cases without an expected value are graded against the reference's result: the right one.
  if (need_reference) {
    for (size_t i = 0; i < cases_of(inst).size(); ++i) {
      CodeCaseOutcome o;
      o.ok = true;
      o.value_json = cases_of(inst)[i].expected_json.value_or(run->student[i].value_json);
      run->reference.push_back(o);
    }
  }
  return run;
}
}  // namespace

// Without a runner the samples carry what a runner would return: every case's expected value
// (the reference's), one case off, a syntax error, a time-out.
std::vector<SampleAnswer> CodeSpec::sample_answers(const Exercise&, const Instance& inst) const {
  using E = SampleAnswer::Expect;
  std::vector<SampleAnswer> out;
  const std::string source = reference.empty() ? starter : reference;
  auto expected = [&](size_t i) { return cases_of(inst)[i].expected_json.value_or("0"); };
  out.push_back({"correct", make_answer(CodeAnswer(source, run_returning(inst, expected))), E::Correct, ""});
  if (!cases_of(inst).empty()) {
    auto reference_run = run_returning(inst, expected);
    auto off = std::make_shared<CodeRunResult>(*reference_run);
    off->student[0].value_json = "\"not a number\"";
    out.push_back({"first case wrong", make_answer(CodeAnswer(source, off)), E::Wrong, ""});
  }
  // A hidden case that throws: counted as failed and said so, without the error's text.
  for (size_t i = 0; i < cases_of(inst).size(); ++i) {
    if (!cases_of(inst)[i].hidden) continue;
    auto threw = std::make_shared<CodeRunResult>(*run_returning(inst, expected));
    threw->student[i] = {false, "", "TypeError: cannot read 'x' of " + show_args(args, cases_of(inst)[i].args_json)};
    out.push_back({"a hidden case throws", make_answer(CodeAnswer(source, threw)), E::Wrong, "a hidden case threw an error"});
    break;
  }
  auto syntax = std::make_shared<CodeRunResult>();
  syntax->kind = CodeRunResult::Kind::Syntax;
  syntax->error = "unexpected token";
  syntax->error_line = 1;
  out.push_back({"unreadable: a syntax error", make_answer(CodeAnswer("function (", syntax)), E::Unreadable,
                 "Syntax error (line 1)"});
  auto timeout = std::make_shared<CodeRunResult>();
  timeout->kind = CodeRunResult::Kind::Timeout;
  out.push_back({"an endless loop", make_answer(CodeAnswer("for (;;) {}", timeout)), E::Incorrect, "time limit"});
  // What a runner would send for each (a test of the page stands in for the sandbox with it).
  for (auto& sample : out) sample.run_json = code_result_to_json(*sample.answer.as<CodeAnswer>()->run);
  return out;
}

}  // namespace dtx
