#include "fuzz_entry.h"

#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "expr.h"
#include "code/code.h"
#include "lint.h"
#include "model.h"
#include "preview.h"
#include "progress.h"
#include "units.h"

namespace dtx::fuzz {

namespace {

// Well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF), as
// a JSON writer requires. Checked by hand: the wasm build has no exceptions to catch
// nlohmann's complaint with.
bool valid_utf8(const std::string& s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const size_t n = s.size();
  for (size_t i = 0; i < n;) {
    const unsigned c = p[i];
    size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (len == 0 || i + len > n) return false;
    uint32_t cp = len == 1 ? c : len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
    for (size_t k = 1; k < len; ++k) {
      if ((p[i + k] & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (p[i + k] & 0x3F);
    }
    static const uint32_t kMin[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMin[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += len;
  }
  return true;
}

std::string check_messages(const std::vector<Diagnostic>& ds, bool positioned) {
  for (const auto& d : ds) {
    std::string line = format_diagnostic(d);
    if (!valid_utf8(line)) return "a message is not valid UTF-8: " + line.substr(0, 200);
    if (positioned && (d.line < 1 || d.column < 1)) return "a load diagnostic has no position: " + line.substr(0, 200);
  }
  return "";
}

// Exercises what a student and an instructor can reach from a loaded exercise.
void play(const Exercise& ex) {
  for (uint64_t seed : {uint64_t{0}, uint64_t{1}}) {
    std::string err;
    auto inst = make_instance(ex, seed, &err);
    if (!inst) continue;
    (void)inst->render(ex.prompt);
    (void)inst->render(ex.explanation);
    for (const auto& h : ex.hints) (void)inst->render(h);
    (void)instance_answer_lines(*inst);
    // The type's own sample answers, and one it cannot read (no answer at all). Programs are
    // graded on the run results the samples carry; nothing runs here.
    if (ex.spec)
      for (const auto& s : ex.spec->sample_answers(ex, *inst)) (void)grade(*inst, s.answer);
    (void)grade(*inst, Answer{});
  }
}

}  // namespace

std::string pack(std::string_view bytes) {
  std::string text(bytes);
  LoadResult r = load_pack(text, "fuzz.json");
  if (auto why = check_messages(r.diagnostics, true); !why.empty()) return why;
  if (r.pack) {
    Library lib;
    lib.packs.push_back(*r.pack);
    LintOptions opt;
    opt.warnings = true;
    if (auto why = check_messages(lint_library(lib, opt), false); !why.empty()) return why;
  }
  PreviewPack pv = load_preview(text, "fuzz.json", Library{});
  if (auto why = check_messages(pv.errors, false); !why.empty()) return why;
  if (pv.pack)
    for (const auto& ex : pv.pack->exercises) play(ex);
  return "";
}

std::string expr(std::string_view bytes) {
  ExprScope scope = [](std::string_view n) -> std::optional<double> {
    if (n == "N") return 8;
    if (n == "M") return 0.5;
    if (n == "zero") return 0;
    if (n == "answer.time") return 70;
    return std::nullopt;
  };
  size_t chars = 0;
  for (unsigned char c : bytes) chars += (c & 0xC0) != 0x80;
  ExprError err;
  Expr e = Expr::parse(bytes, &err);
  if (!e.valid()) {
    if (err.column < 1 || static_cast<size_t>(err.column) > chars + 1)
      return "parse error column " + std::to_string(err.column) + " outside 1.." + std::to_string(chars + 1);
    if (err.message.empty()) return "parse error without a message";
  } else {
    ExprError ev;
    auto v = e.eval(scope, &ev);
    if (v && !std::isfinite(*v)) return "a non-finite value was returned";
    if (!v && ev.message.empty()) return "evaluation error without a message";
    for (const auto& n : e.names())
      if (e.column_of(n) < 1) return "name '" + n + "' has no column";
  }
  for (bool names : {false, true}) {
    size_t used = 0;
    ExprError pe;
    Expr p = Expr::parse_prefix(bytes, names, &used, &pe);
    if (used > bytes.size()) return "a prefix longer than the text";
    if (p.valid()) (void)p.eval(scope, &pe);
  }
  Instance inst;
  inst.values = {{"N", 8}, {"M", 0.5}};
  (void)inst.render(std::string(bytes));
  return "";
}

std::string answer(std::string_view bytes) {
  std::string err;
  auto q = parse_quantity(bytes, &err);
  if (q) {
    if (!std::isfinite(q->value)) return "a non-finite answer was accepted";
    if (q->unit) (void)describe_dim(q->unit->dim);
  } else {
    if (err.empty()) return "an answer was refused without a message";
    // The longest message quotes a 200-character answer (up to 800 bytes) and explains.
    if (err.size() > 2000) return "a " + std::to_string(err.size()) + "-byte message for one answer";
  }
  std::string uerr;
  if (auto u = parse_unit(bytes, &uerr)) (void)describe_dim(u->dim);
  return "";
}

std::string progress(std::string_view bytes) {
  ProgressRead first = read_progress(std::string(bytes));
  std::string written = write_progress(first.progress);
  ProgressRead again = read_progress(written);
  if (again.unreadable || !again.problems.empty())
    return "dtx cannot read what it wrote: " + (again.problems.empty() ? std::string("unreadable") : again.problems[0]);
  std::string rewritten = write_progress(again.progress);
  if (rewritten != written) return "writing what was read back changed it";
  return "";
}

namespace {

// Answers every request with one fixed result.
class FixedRunner : public CodeRunner {
 public:
  explicit FixedRunner(CodeRunResult r) : result_(std::move(r)) {}
  CodeRunResult run(const CodeRunRequest&) override { return result_; }

 private:
  CodeRunResult result_;
};

// Two exercises: cases with expected values (one hidden), and cases the reference decides.
const std::vector<Instance>& host_instances() {
  static const std::vector<Instance> insts = [] {
    const char* text = R"J({"format": 1, "chapter": 1, "id": "f", "title": "F", "exercises": [
      {"id": "f.add", "type": "code", "title": "Add", "prompt": "p", "function": "add", "args": ["a", "b"],
       "expected": "a + b", "cases": [{"args": [1, 2]}, {"args": [3, 4], "hidden": true}]},
      {"id": "f.ref", "type": "code", "title": "Ref", "prompt": "p", "function": "add", "args": ["a", "b"],
       "reference": "function add(a, b) { return [a, b]; }", "cases": [{"args": [1, 2]}, {"args": [0.5, -1]}]}]})J";
    static LoadResult loaded = load_pack(text, "host.json");
    std::vector<Instance> out;
    if (loaded.pack)
      for (const auto& ex : loaded.pack->exercises)
        if (auto inst = make_instance(ex, 0, nullptr)) out.push_back(*inst);
    return out;
  }();
  return insts;
}

std::string check_outcomes(const std::vector<CodeCaseOutcome>& list) {
  for (const auto& c : list) {
    if (!valid_utf8(c.error)) return "an outcome's error is not valid UTF-8";
    if (!valid_utf8(c.value_json)) return "a value is not valid UTF-8";
    if (!c.value_json.empty() && nlohmann::json::parse(c.value_json, nullptr, false).is_discarded())
      return "a value is not JSON: " + c.value_json.substr(0, 200);
  }
  return "";
}

bool same_outcomes(const std::vector<CodeCaseOutcome>& a, const std::vector<CodeCaseOutcome>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].ok != b[i].ok || a[i].value_json != b[i].value_json || a[i].error != b[i].error) return false;
  return true;
}

std::string check_feedback(const Feedback& fb) {
  if (!valid_utf8(fb.message)) return "a feedback message is not valid UTF-8";
  for (const auto& d : fb.details)
    if (!valid_utf8(d)) return "a feedback detail is not valid UTF-8";
  for (const auto& c : fb.cases)
    if (!valid_utf8(c.args) || !valid_utf8(c.expected) || !valid_utf8(c.got) || !valid_utf8(c.message))
      return "a case's feedback is not valid UTF-8: " + c.got.substr(0, 100);
  return "";
}

}  // namespace

std::string host_result(std::string_view bytes) {
  CodeRunResult r = code_result_from_json(std::string(bytes));
  if (r.error_line < 0) return "a negative line number";
  if (!valid_utf8(r.error)) return "the error is not valid UTF-8";
  for (const auto* list : {&r.student, &r.reference})
    if (auto why = check_outcomes(*list); !why.empty()) return why;
  CodeRunResult again = code_result_from_json(code_result_to_json(r));
  if (again.kind != r.kind || again.error != r.error || again.error_line != r.error_line ||
      !same_outcomes(again.student, r.student) || !same_outcomes(again.reference, r.reference))
    return "writing the result and reading it back changed it";
  FixedRunner runner(r);
  for (const auto& inst : host_instances()) {
    if (auto why = check_feedback(grade_code(inst, "function add(a, b) {}", runner)); !why.empty()) return why;
    if (auto why = check_feedback(grade_code_for_author(inst, "function add(a, b) {}", runner)); !why.empty()) return why;
  }
  return "";
}

}  // namespace dtx::fuzz
