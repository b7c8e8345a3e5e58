#include "buggy_line.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <set>

#include "figures.h"
#include "type_support.h"
#include "misconception.h"

namespace dtx {

namespace {

void load_notes(const Json& j, const std::string& ptr, const char* key, LoadContext& ctx,
                std::vector<LineNote>& out) {
  auto it = j.find(key);
  if (it == j.end()) return;
  std::string p = ptr + "/" + key;
  if (!it->is_array()) {
    ctx.error(DiagCode::WrongKind, p, "expected an array of {\"line\": n, \"message\": ...}, got " + describe_json(*it));
    return;
  }
  for (size_t i = 0; i < it->size(); ++i) {
    std::string q = p + "/" + std::to_string(i);
    const Json& o = (*it)[i];
    if (!ctx.expect_object(o, q, "{\"line\": n, \"message\": ...}")) continue;
    ctx.check_fields(o, q, {"line", "message"}, {"line", "message"});
    LineNote n;
    n.pointer = q;
    auto line = ctx.int_field(o, q, "line", true, 1, 100000);
    auto msg = ctx.string_field(o, q, "message", true);
    if (!line || !msg) continue;
    n.line = static_cast<int>(*line);
    n.message = *msg;
    out.push_back(n);
  }
}

std::shared_ptr<TypeSpec> load_buggy(const Json& j, const std::string& ptr, LoadContext& ctx) {
  auto spec = std::make_shared<BuggyLineSpec>();
  if (auto lang = ctx.string_field(j, ptr, "language", false)) spec->language = *lang;
  auto it = j.find("code");
  if (it == j.end()) return nullptr;
  if (!it->is_array() || it->size() < 2) {
    ctx.error(DiagCode::WrongCount, ptr + "/code", "expected an array of code lines (at least 2), got " + describe_json(*it));
    return nullptr;
  }
  for (size_t i = 0; i < it->size(); ++i) {
    if (!(*it)[i].is_string()) {
      ctx.error(DiagCode::WrongKind, ptr + "/code/" + std::to_string(i), "expected a line of code (a string), got " +
                                                        describe_json((*it)[i]));
      return nullptr;
    }
    spec->code.push_back((*it)[i].get<std::string>());
  }
  load_notes(j, ptr, "bugs", ctx, spec->bugs);
  load_notes(j, ptr, "decoys", ctx, spec->decoys);
  if (j.contains("bugs") && spec->bugs.empty() && !ctx.failed())
    ctx.error(DiagCode::WrongCount, ptr + "/bugs", "expected at least one bug");
  auto sel = ctx.int_field(j, ptr, "select", false, 1, 100);
  spec->select = sel ? static_cast<int>(*sel) : std::max<int>(1, static_cast<int>(spec->bugs.size()));
  return spec;
}

}  // namespace

namespace {

// `dtx new buggy-line`: a whole working exercise, with "$comment" notes on every field (cli/new.cpp
// puts it in a pack; the CLI test checks that it passes `dtx lint --warn`).
const char* kNewTitle = "Find the bug: ring AllReduce time";
const char* kNewIntro =
    "The alpha-beta model charges each step of a collective a start-up latency alpha plus the "
     "time to push its data through one link.";
const char* kNewExercise = R"JSON(    {
      "$comment": [
@COMMON@,
        "A buggy-line exercise: the student clicks the line(s) with a bug. \"code\" is a list of lines (numbered from 1 on the page). \"bugs\" gives each buggy line with the message shown when it is found; \"decoys\" are lines that look suspicious but are right, with the message shown when one is clicked. \"select\" is how many lines the student clicks (default: the number of bugs).",
        "\"language\" names the code's language for highlighting."
      ],
      "id": @ID@,
      "type": "buggy-line",
      "title": @TITLE@,
      "difficulty": 1,
      "tags": ["ring", "alpha-beta"],
      "prompt": "This function estimates the time of a ring AllReduce of `M_bytes` over `N` GPUs with the alpha-beta model: every step costs a start-up latency `alpha_s` plus the time to push one chunk through a link of `bw_bytes_per_s` (one direction).\n\nClick the line with the bug.",
      "language": "javascript",
      "code": [
        "function ringAllReduceSeconds(M_bytes, N, bw_bytes_per_s, alpha_s) {",
        "  const chunk = M_bytes / N;",
        "  const steps = 2 * N;",
        "  const perStep = alpha_s + chunk / bw_bytes_per_s;",
        "  return steps * perStep;",
        "}"
      ],
      "bugs": [
        {
          "line": 3,
          "message": "A ring AllReduce takes 2(N-1) steps: N-1 for reduce-scatter and N-1 for all-gather, because a GPU never sends the chunk it ends up owning. Fix: `const steps = 2 * (N - 1);`"
        }
      ],
      "decoys": [
        {"line": 2, "message": "The buffer is cut into N chunks of M/N bytes, one per GPU: this line is right."},
        {"line": 4, "message": "Each step pays the latency once and pushes one chunk through one link: this line is right."}
      ],
      "select": 1,
      "hints": [
        "Check each quantity against the ring algorithm: how big is a chunk, how many steps are there, and what does one step cost?"
      ],
      "explanation": "The ring cuts the buffer into N chunks (line 2) and runs N-1 reduce-scatter steps and N-1 all-gather steps, each costing alpha plus one chunk over one link (line 4). Line 3 counts 2N steps instead of 2(N-1): it overstates both the latency term and the bandwidth term, by 2 steps' worth, which matters most for small N (a third too much at N = 4)."
    })JSON";

}  // namespace

const TypeEntry& buggy_line_type_entry() {
  static const TypeEntry e{"buggy-line", "find the bug", {"language", "code", "bugs", "decoys", "select"},
                           {"code", "bugs"}, &load_buggy,
                          kNewTitle, kNewIntro, kNewExercise,
                          "line number(s): 6   or   3,6",
                          4};
  return e;
}

void BuggyLineSpec::lint(const Exercise& ex, LintContext& ctx) const {
  int n = static_cast<int>(code.size());
  std::set<int> bug_lines;
  for (const auto& b : bugs) {
    if (b.line > n)
      ctx.error(DiagCode::BugLines, b.pointer + "/line", "line " + std::to_string(b.line) + " is out of range: the code has " +
                                         std::to_string(n) + " lines");
    if (!bug_lines.insert(b.line).second)
      ctx.error(DiagCode::Duplicate, b.pointer + "/line", "line " + std::to_string(b.line) + " is listed as a bug twice");
  }
  for (const auto& d : decoys) {
    if (d.line > n)
      ctx.error(DiagCode::BugLines, d.pointer + "/line", "line " + std::to_string(d.line) + " is out of range: the code has " +
                                         std::to_string(n) + " lines");
    if (bug_lines.count(d.line))
      ctx.error(DiagCode::Duplicate, d.pointer + "/line", "line " + std::to_string(d.line) + " is both a bug and a decoy");
  }
  if (select > static_cast<int>(bugs.size()))
    ctx.error(DiagCode::BugLines, ex.pointer + "/select", "\"select\" is " + std::to_string(select) + " but only " +
                                          std::to_string(bugs.size()) + " lines are bugs");
}

bool BuggyLineSpec::prepare(const Exercise&, Instance&, uint64_t, std::string*) const { return true; }

Feedback BuggyLineSpec::grade(const Exercise& ex, const Instance& inst, const Answer& answer,
                              const GradeServices&) const {
  (void)ex;
  Feedback fb;
  const BuggyLineAnswer& a = answer.as_or_empty<BuggyLineAnswer>();
  int n = static_cast<int>(code.size());
  std::set<int> picked;
  for (int line : a.lines) {
    if (line < 1 || line > n) {
      fb.verdict = Verdict::FormatError;
      fb.message = "There is no line " + std::to_string(line) + "; the code has lines 1 to " +
                   std::to_string(n) + ".";
      return fb;
    }
    picked.insert(line);
  }
  if (static_cast<int>(picked.size()) != select) {
    fb.verdict = Verdict::FormatError;
    fb.message = select == 1 ? "Click one line." : "Click " + std::to_string(select) + " different lines.";
    return fb;
  }
  int found = 0;
  for (int line : picked) {
    auto bug = std::find_if(bugs.begin(), bugs.end(), [&](const LineNote& b) { return b.line == line; });
    auto decoy = std::find_if(decoys.begin(), decoys.end(), [&](const LineNote& d) { return d.line == line; });
    std::string head = "Line " + std::to_string(line) + ": ";
    if (bug != bugs.end()) {
      ++found;
      fb.details.push_back(head + "yes, this is a bug. " + inst.render(bug->message));
    } else if (decoy != decoys.end()) {
      fb.details.push_back(head + "this line is fine. " + inst.render(decoy->message));
      if (!decoy->message.empty()) fb.misconception = kListedMisconception;  // a decoy the author explains
    } else {
      fb.details.push_back(head + "this line is fine.");
    }
  }
  fb.score = static_cast<double>(found) / static_cast<double>(std::max<size_t>(1, bugs.size()));
  if (select < static_cast<int>(bugs.size()))
    fb.score = static_cast<double>(found) / select;  // any `select` of the bugs will do
  fb.verdict = fb.score >= 1 ? Verdict::Correct : found > 0 ? Verdict::Partial : Verdict::Incorrect;
  if (fb.verdict == Verdict::Correct) {
    fb.message = select == 1 ? "Correct." : "Correct: you found every bug.";
  } else if (fb.verdict == Verdict::Partial) {
    fb.message = "You found " + std::to_string(found) + " of " + std::to_string(select) + " bugs.";
  } else {
    fb.message = select == 1 ? "Not this line." : "None of these lines is a bug.";
  }
  if (select == 1 && !fb.details.empty()) {
    fb.message += " " + fb.details.front();
    fb.details.clear();
  }
  return fb;
}

// ---------------------------------------------------------------- the type's lifecycle

void BuggyLineSpec::texts(const Exercise&, const TextFn& fn) const {
  for (const auto& n : bugs) fn(n.message, n.pointer + "/message", "a bug's message");
  for (const auto& n : decoys) fn(n.message, n.pointer + "/message", "a decoy's message");
}

void BuggyLineSpec::describe(const Exercise&, const Instance&, bool with_answer, InstanceDescription& out) const {
  Json lines = Json::array();
  out.text += "\n(click the buggy line" + std::string(select > 1 ? "s: " + std::to_string(select) : "") + ")\n";
  for (size_t i = 0; i < code.size(); ++i) {
    char num[32];
    std::snprintf(num, sizeof num, "%3zu | ", i + 1);
    out.text += std::string(num) + code[i] + "\n";
    lines.push_back(code[i]);
  }
  out.json["code"] = lines;
  out.json["select"] = select;
  if (with_answer) {
    Json list = Json::array();
    out.text += "bug lines:";
    for (const auto& b : bugs) {
      list.push_back(b.line);
      out.text += " " + std::to_string(b.line);
    }
    out.json["bugs"] = list;
    out.text += "\n";
    for (int k = 0; k < select && k < static_cast<int>(bugs.size()); ++k) out.answer_words.push_back(std::to_string(bugs[k].line));
  }
}

std::vector<std::string> BuggyLineSpec::answer_key(const Exercise&, const Instance&) const {
  std::string lines;
  for (const auto& b : bugs) lines += (lines.empty() ? "" : ", ") + std::to_string(b.line);
  return {std::string(bugs.size() == 1 ? "bug on line " : "bugs on lines ") + lines};
}

std::optional<Answer> BuggyLineSpec::parse_answer(const Exercise&, const Instance&, const std::vector<std::string>& words,
                                                  std::string* error) const {
  std::vector<int> lines;
  for (const auto& tok : split_answer_words(words)) {
    char* end = nullptr;
    long v = std::strtol(tok.c_str(), &end, 10);
    if (tok.empty() || *end || v < -1000000 || v > 1000000) {
      if (error) *error = "expected line numbers such as 6 or 3,6; got '" + tok + "'";
      return std::nullopt;
    }
    lines.push_back(static_cast<int>(v));
  }
  return make_answer(BuggyLineAnswer(lines));
}

// The line numbers as shown, one word ("3,6"); a number past the end stays as it is, and
// grading says there is no such line.
std::vector<std::string> BuggyLineSpec::answer_words(const Exercise&, const Instance&, const Answer& a) const {
  std::string word;
  for (int line : a.as_or_empty<BuggyLineAnswer>().lines) {
    if (!word.empty()) word += ',';
    word += std::to_string(line);
  }
  if (word.empty()) return {};
  return {word};
}

std::vector<SampleAnswer> BuggyLineSpec::sample_answers(const Exercise&, const Instance& inst) const {
  using E = SampleAnswer::Expect;
  std::vector<SampleAnswer> out;
  std::vector<int> right;
  for (int k = 0; k < select && k < static_cast<int>(bugs.size()); ++k) right.push_back(bugs[k].line);
  out.push_back({"correct", make_answer(BuggyLineAnswer(right)), E::Correct, ""});
  // Each decoy alone (one line to click): wrong, and its message says why it is fine.
  if (select == 1)
    for (const auto& d : decoys)
      out.push_back({"decoy line " + std::to_string(d.line), make_answer(BuggyLineAnswer({d.line})), E::Incorrect,
                     inst.render(d.message)});
  out.push_back({"unreadable: a line past the end",
                 make_answer(BuggyLineAnswer({static_cast<int>(code.size()) + 1})), E::Unreadable, ""});
  return out;
}

}  // namespace dtx
