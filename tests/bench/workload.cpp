#include "workload.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "lint.h"
#include "json_fields.h"
#include "type_registry.h"
#include "text.h"

namespace dtx::bench {

namespace fs = std::filesystem;

const std::vector<std::string>& exercise_types() {
  static const std::vector<std::string> t = [] {
    std::vector<std::string> names;
    for (const auto& e : dtx::exercise_types()) names.push_back(e.name);
    return names;
  }();
  return t;
}

// The stand-in for each type is the exercise `dtx new TYPE` starts from (TypeEntry).
const char* builtin_pack_text() {
  static const std::string text = [] {
    auto replace_all = [](std::string s, const std::string& from, const std::string& to) {
      for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
      return s;
    };
    std::string exercises;
    for (const auto& e : dtx::exercise_types()) {
      std::string x = replace_all(e.new_exercise, "@COMMON@", "        \"a benchmark stand-in\"");
      x = replace_all(x, "@ID@", "\"bench." + std::string(e.name) + "\"");
      x = replace_all(x, "@TITLE@", nlohmann::json(std::string(e.new_title)).dump());
      exercises += (exercises.empty() ? "" : ",\n") + x;
    }
    return "{\"format\": 1, \"chapter\": 99, \"id\": \"bench-builtin\", \"title\": \"Benchmark stand-ins\",\n"
           "\"exercises\": [\n" + exercises + "\n]}";
  }();
  return text.c_str();
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

// The type's sample answers for this instance (TypeSpec::sample_answers), graded one after
// the other; their verdicts are checked once, untimed.
void prepare_answers(const Instance& inst, GradeItem& item, std::vector<SampleAnswer>* samples) {
  const Exercise& ex = *item.exercise;
  *samples = ex.spec->sample_answers(ex, inst);
  for (const auto& s : *samples) item.answers.push_back(s.answer);
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
        std::vector<SampleAnswer> samples;
        prepare_answers(*inst, item, &samples);
        for (const auto& sample : samples) {
          std::string why;
          if (!sample_answer_holds(sample, grade(*inst, sample.answer), &why))
            w.warnings.push_back(ex.id + " seed " + std::to_string(s) + ": " + why);
        }
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
