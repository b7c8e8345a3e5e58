#include "workload.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "grade/buggy_line.h"
#include "grade/choice.h"
#include "grade/code.h"
#include "grade/numeric.h"
#include "grade/ordering.h"
#include "lint.h"
#include "text.h"

namespace dtx::bench {

namespace fs = std::filesystem;

const std::vector<std::string>& exercise_types() {
  static const std::vector<std::string> t{"numeric", "choice", "ordering", "buggy-line", "code"};
  return t;
}

const char* builtin_pack_text() {
  return R"JSON({
  "format": 1,
  "chapter": 99,
  "id": "bench-builtin",
  "title": "Benchmark stand-ins",
  "exercises": [
    {
      "id": "bench.numeric",
      "type": "numeric",
      "title": "Ring AllReduce bytes",
      "prompt": "{N} GPUs, {M} GB each. Bytes sent per GPU?",
      "params": {"N": {"default": 8, "choices": [4, 8, 16, 32]}, "M": {"default": 1, "min": 0.5, "max": 8, "step": 0.5}},
      "parts": [
        {"id": "total", "label": "Sent", "answer": "2*M*(N-1)/N", "unit": "GB", "tolerance": {"rel": 0.01},
         "mistakes": [{"answer": "M*(N-1)/N", "message": "One phase only."}, {"answer": "2*M", "message": "That is the large-N limit."}]},
        {"id": "time", "label": "Time at 50 GB/s", "answer": "2*M*(N-1)/N/50*1000", "unit": "ms", "tolerance": {"rel": 0.01},
         "mistakes": [{"answer": "M*(N-1)/N/50*1000", "message": "One phase only."}]}
      ]
    },
    {
      "id": "bench.choice",
      "type": "choice",
      "title": "Tree or ring",
      "prompt": "When does a tree beat a ring?",
      "multiple": true,
      "options": [
        {"text": "Small buffers.", "correct": true, "feedback": "Latency dominates."},
        {"text": "Thousands of GPUs.", "correct": true, "feedback": "log2 N latency terms."},
        {"text": "Huge buffers.", "feedback": "Bandwidth-bound: the ring wins."},
        {"text": "Slow links.", "feedback": "That favours the ring."}
      ]
    },
    {
      "id": "bench.ordering",
      "type": "ordering",
      "title": "Ring steps",
      "prompt": "Put the steps in order.",
      "items": ["Split into chunks.", "Reduce-scatter.", "Each GPU owns one summed chunk.", "All-gather.", "Every GPU holds the sum."]
    },
    {
      "id": "bench.buggy",
      "type": "buggy-line",
      "title": "Doubled time",
      "prompt": "Find the bug.",
      "code": ["function t(m, n, bw) {", "  const steps = n - 1;", "  const one = steps * (m / n) / bw;", "  return 4 * one;", "}"],
      "bugs": [{"line": 4, "message": "Two phases: 2 * one."}],
      "decoys": [{"line": 2, "message": "N-1 steps per phase."}]
    },
    {
      "id": "bench.code",
      "type": "code",
      "title": "Write ringTime",
      "prompt": "Write ringTime(M, N, BW) in ms.",
      "function": "ringTime",
      "args": ["M", "N", "BW"],
      "expected": "2*(N-1)*M/N/BW*1000",
      "reference": "function ringTime(M, N, BW) { return 2 * (N - 1) * M / N / BW * 1000; }",
      "cases": [{"args": [2, 8, 50]}, {"args": [1, 1, 50]}, {"args": [4, 2, 100], "note": "two GPUs"}],
      "generate": {"count": 4, "ranges": {"M": {"min": 0.5, "max": 16, "step": 0.5}, "N": {"choices": [2, 4, 8, 16]}, "BW": {"min": 25, "max": 900, "step": 25}}}
    }
  ]
})JSON";
}

namespace {

bool read_whole_file(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  *out = ss.str();
  return true;
}

// JSON number text as a runner would return it.
std::string number_text(double v) {
  std::ostringstream ss;
  ss.precision(17);
  ss << v;
  return ss.str();
}

// The prepared answers for one exercise instance. Returns false when the type is unknown.
bool prepare_answers(const Instance& inst, GradeItem& item) {
  const Exercise& ex = *item.exercise;
  if (const auto* s = ex.spec_as<NumericSpec>()) {
    Answer right, wrong;
    ExprScope scope = inst.scope();
    for (size_t i = 0; i < s->parts.size(); ++i) {
      const NumericPart& p = s->parts[i];
      double v = inst.part_values[i];
      std::string unit = p.unit_text.empty() ? "" : " " + p.unit_text;
      right.parts.push_back(format_number(v, 6) + unit);
      // A wrong answer students really give: the first listed mistake, when it differs.
      double w = 2 * v + (v == 0 ? 1 : 0);
      if (!p.mistakes.empty()) {
        ExprError err;
        if (auto m = p.mistakes.front().answer.eval(scope, &err); m && !within(*m, v, p.rel, p.abs)) w = *m;
      }
      wrong.parts.push_back(format_number(w, 6) + unit);
    }
    item.answers = {right, wrong};
  } else if (const auto* s = ex.spec_as<ChoiceSpec>()) {
    Answer a;
    for (size_t i = 0; i < s->options.size(); ++i)
      if (s->options[i].correct) a.picks.push_back(static_cast<int>(i));
    item.answers = {a};
  } else if (const auto* s = ex.spec_as<OrderingSpec>()) {
    Answer a;
    for (int i = static_cast<int>(s->items.size()) - 1; i >= 0; --i) a.picks.push_back(i);
    item.answers = {a};
  } else if (const auto* s = ex.spec_as<BuggyLineSpec>()) {
    Answer a;
    for (const auto& b : s->bugs)
      if (static_cast<int>(a.picks.size()) < s->select) a.picks.push_back(b.line);
    item.answers = {a};
  } else if (const auto* s = ex.spec_as<CodeSpec>()) {
    item.source = s->reference.empty() ? s->starter : s->reference;
    item.run = std::make_unique<CodeRunResult>();
    bool need_ref = false;
    for (const auto& c : inst.cases) {
      CodeCaseOutcome o;
      o.ok = true;
      o.value_json = c.expected_json.value_or("0");
      item.run->student.push_back(o);
      need_ref |= !c.expected_json.has_value();
    }
    // Cases without an expected value are graded against the reference's result.
    if (need_ref) item.run->reference = item.run->student;
    Answer a;
    a.code_run = item.run.get();
    item.answers = {a};
  } else {
    return false;
  }
  return true;
}

// What the prepared answers should get (checked once, untimed).
bool expected_verdicts_ok(const Exercise& ex, const std::vector<Feedback>& fbs, std::string* why) {
  auto v = [&](size_t i) { return fbs[i].verdict; };
  if (ex.type == "numeric") {
    if (v(0) != Verdict::Correct) *why = "correct answer graded " + std::string(verdict_name(v(0))) + ": " + fbs[0].message;
    else if (v(1) == Verdict::Correct || v(1) == Verdict::FormatError)
      *why = "wrong answer graded " + std::string(verdict_name(v(1))) + ": " + fbs[1].message;
  } else if (ex.type == "ordering") {
    if (v(0) == Verdict::FormatError) *why = "reversed order graded FormatError: " + fbs[0].message;
  } else if (v(0) != Verdict::Correct) {
    *why = "correct answer graded " + std::string(verdict_name(v(0))) + ": " + fbs[0].message;
  }
  return why->empty();
}

void add_type_items(Workload& w, TypeWorkload& tw, const Library& lib, int seeds) {
  for (const auto& pack : lib.packs)
    for (const auto& ex : pack.exercises) {
      if (ex.type != tw.type) continue;
      bool used = false;
      for (int s = 0; s < seeds; ++s) {
        GradeItem item;
        item.exercise = &ex;
        item.seed = static_cast<uint64_t>(s);
        std::string err;
        auto inst = make_instance(ex, item.seed, &err);
        if (!inst) {
          w.warnings.push_back(ex.id + " seed " + std::to_string(s) + ": no instance: " + err);
          continue;
        }
        if (!prepare_answers(*inst, item)) continue;
        std::vector<Feedback> fbs;
        for (const auto& a : item.answers) fbs.push_back(grade(*inst, a));
        std::string why;
        if (!expected_verdicts_ok(ex, fbs, &why))
          w.warnings.push_back(ex.id + " seed " + std::to_string(s) + ": " + why);
        tw.items.push_back(std::move(item));
        used = true;
      }
      tw.exercises += used;
    }
}

}  // namespace

std::vector<PackSource> read_pack_dir(const std::string& dir, std::vector<std::string>* problems) {
  std::vector<std::string> files;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    problems->push_back(dir + ": not a folder");
    return {};
  }
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (it->is_directory() && it->path().filename() == "schema") {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file() && it->path().extension() == ".json" && it->path().filename() != "index.json")
      files.push_back(it->path().string());
  }
  if (ec) problems->push_back(dir + ": " + ec.message());
  std::sort(files.begin(), files.end());
  std::vector<PackSource> out;
  for (const auto& f : files) {
    PackSource s;
    s.file = f;
    if (!read_whole_file(f, &s.text)) {
      problems->push_back(f + ": cannot read");
      continue;
    }
    out.push_back(std::move(s));
  }
  return out;
}

std::unique_ptr<Workload> make_workload(const std::string& dir, int seeds) {
  auto w = std::make_unique<Workload>();
  w->dir = dir;
  w->sources = read_pack_dir(dir, &w->warnings);
  if (w->sources.empty()) {
    w->warnings.push_back(dir + ": no pack files; timing the built-in pack instead");
    w->sources.push_back({"<built-in>", builtin_pack_text()});
    w->sources_builtin = true;
  }
  w->lib = load_library(w->sources);
  for (const auto& d : w->lib.diagnostics) w->warnings.push_back(format_diagnostic(d));
  for (const auto& p : w->lib.packs) w->exercise_count += p.exercises.size();
  w->builtin_lib = load_library({{"<built-in>", builtin_pack_text()}});
  for (const auto& d : w->builtin_lib.diagnostics) w->warnings.push_back("built-in pack: " + format_diagnostic(d));

  for (const auto& type : exercise_types()) {
    TypeWorkload tw;
    tw.type = type;
    add_type_items(*w, tw, w->lib, seeds);
    if (tw.items.empty()) {
      tw.builtin = true;
      add_type_items(*w, tw, w->builtin_lib, seeds);
    }
    w->types.push_back(std::move(tw));
  }
  return w;
}

size_t run_load(const std::vector<PackSource>& sources) {
  Library lib = load_library(sources);
  size_t n = lib.diagnostics.size();
  for (const auto& p : lib.packs) n += p.exercises.size();
  return n;
}

size_t run_lint(const Library& lib) { return lint_library(lib, nullptr).size() + 1; }

size_t run_load_lint(const std::vector<PackSource>& sources) {
  Library lib = load_library(sources);
  return lint_library(lib, nullptr).size() + lib.packs.size();
}

double run_grade(const GradeItem& item) {
  std::string err;
  auto inst = make_instance(*item.exercise, item.seed, &err);
  if (!inst) return -1;
  double sum = 0;
  if (item.run) {
    CodeRunRequest req = make_code_request(*inst, item.source);
    sum += static_cast<double>(req.cases.size());
  }
  for (const auto& a : item.answers) {
    Feedback fb = grade(*inst, a);
    sum += fb.score + static_cast<double>(fb.verdict) + static_cast<double>(fb.message.size());
  }
  return sum;
}

std::string describe(const Workload& w) {
  std::ostringstream ss;
  ss << (w.sources_builtin ? std::string("built-in pack") : w.dir) << ": " << w.sources.size() << " file"
     << (w.sources.size() == 1 ? "" : "s") << ", " << w.exercise_count << " exercises;";
  for (const auto& t : w.types)
    ss << " " << t.type << " " << t.exercises << "x" << (t.exercises ? t.items.size() / t.exercises : 0)
       << (t.builtin ? " (built-in)" : "");
  return ss.str();
}

}  // namespace dtx::bench
