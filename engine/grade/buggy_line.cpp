#include "buggy_line.h"

#include <algorithm>
#include <set>

#include "../load_ctx.h"

namespace dtx {

namespace {

void load_notes(const Json& j, const std::string& ptr, const char* key, LoadContext& ctx,
                std::vector<LineNote>& out) {
  auto it = j.find(key);
  if (it == j.end()) return;
  std::string p = ptr + "/" + key;
  if (!it->is_array()) {
    ctx.error(p, "expected an array of {\"line\": n, \"message\": ...}, got " + describe_json(*it));
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
    ctx.error(ptr + "/code", "expected an array of code lines (at least 2), got " + describe_json(*it));
    return nullptr;
  }
  for (size_t i = 0; i < it->size(); ++i) {
    if (!(*it)[i].is_string()) {
      ctx.error(ptr + "/code/" + std::to_string(i), "expected a line of code (a string), got " +
                                                        describe_json((*it)[i]));
      return nullptr;
    }
    spec->code.push_back((*it)[i].get<std::string>());
  }
  load_notes(j, ptr, "bugs", ctx, spec->bugs);
  load_notes(j, ptr, "decoys", ctx, spec->decoys);
  if (j.contains("bugs") && spec->bugs.empty() && !ctx.failed())
    ctx.error(ptr + "/bugs", "expected at least one bug");
  auto sel = ctx.int_field(j, ptr, "select", false, 1, 100);
  spec->select = sel ? static_cast<int>(*sel) : std::max<int>(1, static_cast<int>(spec->bugs.size()));
  return spec;
}

}  // namespace

const TypeEntry& buggy_line_type_entry() {
  static const TypeEntry e{"buggy-line", {"language", "code", "bugs", "decoys", "select"},
                           {"code", "bugs"}, &load_buggy};
  return e;
}

void BuggyLineSpec::lint(const Exercise& ex, LintContext& ctx) const {
  int n = static_cast<int>(code.size());
  std::set<int> bug_lines;
  for (const auto& b : bugs) {
    if (b.line > n)
      ctx.error(b.pointer + "/line", "line " + std::to_string(b.line) + " is out of range: the code has " +
                                         std::to_string(n) + " lines");
    if (!bug_lines.insert(b.line).second)
      ctx.error(b.pointer + "/line", "line " + std::to_string(b.line) + " is listed as a bug twice");
  }
  for (const auto& d : decoys) {
    if (d.line > n)
      ctx.error(d.pointer + "/line", "line " + std::to_string(d.line) + " is out of range: the code has " +
                                         std::to_string(n) + " lines");
    if (bug_lines.count(d.line))
      ctx.error(d.pointer + "/line", "line " + std::to_string(d.line) + " is both a bug and a decoy");
  }
  if (select > static_cast<int>(bugs.size()))
    ctx.error(ex.pointer + "/select", "\"select\" is " + std::to_string(select) + " but only " +
                                          std::to_string(bugs.size()) + " lines are bugs");
}

bool BuggyLineSpec::prepare(const Exercise&, Instance&, uint64_t, std::string*) const { return true; }

Feedback BuggyLineSpec::grade(const Exercise& ex, const Instance& inst, const Answer& a) const {
  (void)ex;
  Feedback fb;
  int n = static_cast<int>(code.size());
  std::set<int> picked;
  for (int line : a.picks) {
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

}  // namespace dtx
