// dtx: the command-line face of the engine, for instructors, tests and scripts.
//   dtx lint PATH...        check packs; exit 0 clean, 1 errors, 2 usage
//   dtx new KIND ID         a commented starting exercise (cli/new.cpp)
//   dtx list [PATH]         exercises
//   dtx show ID             an instance as a student reads it
//   dtx grade ID ANSWER...  feedback; exit 0 correct, 1 not, 3 unreadable input
//   dtx sim KIND ...        a widget's simulation (cli/sim.cpp)
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "files.h"
#include "code_runner.h"
#include "lint.h"
#include "json_fields.h"
#include "type_registry.h"
#include "lint_context.h"
#include "maths.h"
#include "model.h"
#include "new.h"
#include "preview.h"
#include "outline_cmd.h"
#include "package_cmd.h"
#include "report_cmd.h"
#include "sandbox_runner.h"
#include "sim.h"
#include "term.h"
#include "figures.h"
#include "text.h"
#include "text_escape.h"

using namespace dtx;
using Json = nlohmann::ordered_json;

namespace {

constexpr int kUsage = 2;

const char* kMainHelp =
    "dtx - distributed-training exercises: check packs, show and grade exercises\n"
    "\n"
    "usage: dtx <command> [options]\n"
    "\n"
    "commands:\n"
    "  lint PATH...              check pack files or folders; every problem as file:line:col\n"
    "                            (--warn adds style warnings)\n"
    "  new KIND ID [-o FILE]     print or write a commented starting exercise of KIND (an\n"
    "                            exercise type, see `dtx new --help`) that passes lint\n"
    "  list [PATH]               list the exercises (default PATH: exercises/)\n"
    "  outline [DIR]             the course outline the page's map starts from (JSON)\n"
    "  types [--json]            the exercise types and the fields each adds to an exercise\n"
    "  codes [CODE] [--json]     what lint's codes mean (E012, unknown-field): all, or one\n"
    "  show ID [--seed S]        show an exercise instance as a student sees it\n"
    "  grade ID [--seed S] ANSWER...\n"
    "                            grade an answer and print the feedback\n"
    "  sim KIND [--INPUT V]...   run a widget's simulation (ring, pipeline, plan, hierarchy,\n"
    "                            roofline) and print its figures\n"
    "  report ASSIGNMENT SUBMISSION... [--csv FILE] [--items]\n"
    "                            grade an assignment from students' submission files\n"
    "  package scorm ASSIGNMENT -o FILE.zip [--site DIST]\n"
    "                            the assignment as a SCORM 2004 package for an LMS\n"
    "\n"
    "Run `dtx <command> --help` for the options of a command.\n";

const char* kLintHelp =
    "usage: dtx lint [--warn] [--seeds N] [--no-run] [--time-limit MS] [--json]\n"
    "                [--course DIR] PATH...\n"
    "\n"
    "Checks every pack file (PATH may be files or folders, searched for *.json, skipping\n"
    "index.json, outline.json and schema/). Reports JSON and shape errors (unknown\n"
    "fields, wrong types, duplicate ids) and semantic errors: answers that fail to\n"
    "evaluate at the default parameters or at a corner of the ranges, known mistakes equal\n"
    "to the answer, buggy lines out of range, duplicated ordering items, choices with no\n"
    "correct option, code exercises whose reference fails its own cases or whose listed\n"
    "wrong implementations pass them (needs node; --no-run skips running code). Code from\n"
    "a pack runs in the same QuickJS sandbox as student code (no network, files or\n"
    "processes, time and memory limits), so linting a pack from elsewhere is safe.\n"
    "Messages say what was expected and, for a near miss, suggest the fix (did you mean\n"
    "\"tolerance\"? declared: N, M).\n"
    "\n"
    "--warn adds style warnings: an exercise with no hints or no explanation, a numeric part\n"
    "with no known mistakes, an answer that is negative or absurdly large (over 1e18 bytes,\n"
    "seconds, dollars or items, 1e30 FLOP) at some corner of the parameter ranges, a varying\n"
    "parameter the answer uses but the prompt never shows as {placeholder}. Warnings do not\n"
    "change the exit status.\n"
    "\n"
    "--course DIR checks PATH as packs about to join the course whose packs are in DIR (a\n"
    "folder such as exercises/): every exercise id the course already uses is an error\n"
    "(E016 duplicate-id) at that id, naming the course file that has it. A PATH file that is\n"
    "itself in DIR is left out of the course, so an edited chapter is checked against the\n"
    "others. Without --course only the PATH files are compared with each other.\n"
    "\n"
    "An assignment file ({\"format\": \"dtx-assignment/1\"}, docs/AUTHORING.md \"Running a\n"
    "course\") among the PATHs is checked as one: its fields, its due date and time zone, and\n"
    "that every exercise it lists is in the course (--course DIR, else the packs linted with\n"
    "it, else --packs or exercises/) and that a fixed seed makes an instance.\n"
    "\n"
    "--seeds N also makes the instances of seeds 0 to N-1 of every exercise, as students get\n"
    "them, and reports, with the first seed and how many have it: a known mistake or another\n"
    "part's answer that would grade as right, a negative amount of bytes, time or things, an\n"
    "instance that cannot be made, and (with --warn) constraints that reject most draws.\n"
    "\n"
    "Output: file:line:col: error[E012]: /json/pointer: message   (or warning[W001]: ...)\n"
    "The code in brackets names the problem and does not change between releases; `dtx codes\n"
    "E012` says what it means, and docs/AUTHORING.md lists every code with an example.\n"
    "--json prints [{file, line, column, pointer, severity, code, message}].\n"
    "Exit status: 0 no errors (warnings alone still exit 0), 1 errors found, 2 usage error.\n";

const char* kListHelp =
    "usage: dtx list [--json] [PATH...]\n"
    "\n"
    "Lists exercises by chapter (default PATH: exercises/, or $DTX_EXERCISES).\n"
    "--json prints [{id, pack, chapter, type, title, difficulty, parameters}].\n";

const char* kShowHelp =
    "usage: dtx show ID [--seed S] [--answer] [--hints] [--json] [--packs PATH]\n"
    "\n"
    "Prints the instance of exercise ID for seed S (default 0: the default parameters) as\n"
    "a student reads it: prompt with the instance's numbers, parts and units, options,\n"
    "items or code. --answer adds the answers and the worked explanation; --hints the hints.\n"
    "--json prints {id, type, seed, parameters, prompt, ...}; with --answer each part's\n"
    "value and unit. An exercise with a widget adds {widget: {kind, title, reveal, inputs}}:\n"
    "the inputs this instance gives it, and when the page shows it to a student (reveal:\n"
    "always, after-attempt or after-solve; the instructor view always shows it).\n"
    "\n"
    "--assignment FILE --student ID shows the instance that assignment gives that student\n"
    "(their own numbers, as the page derives them): what a TA needs to follow a student's work.\n"
    "`dtx grade` takes the same two options.\n";

// The answer formats come from the types (TypeEntry::answer_help).
std::string grade_help() {
  std::string s =
      "usage: dtx grade ID [--seed S] [--json] [--packs PATH] [--time-limit MS] ANSWER...\n"
      "\n"
      "Grades ANSWER against the instance of exercise ID for seed S (default 0).\n";
  for (const auto& t : exercise_types()) {
    std::string name = t.name;
    std::string line = "  " + name + std::string(name.size() < 12 ? 12 - name.size() : 1, ' ');
    for (char c : std::string(t.answer_help)) line += c == '\n' ? std::string("\n") + std::string(14, ' ') : std::string(1, c);
    s += line + "\n";
  }
  return s +
         "Code runs in the QuickJS sandbox (no network, files or processes; 256 MB; 2 s unless\n"
         "--time-limit MS says otherwise), hosted by one node process for the whole run.\n"
         "Exit status: 0 correct, 1 partly or not correct, 3 the answer could not be read\n"
         "(a format error, which does not count as an attempt), 2 usage error. With several\n"
         "files: 1 if any is not fully correct, else 3 if any could not be read, else 0.\n";
}

struct Args {
  std::vector<std::string> positional;
  bool json = false, answer = false, hints = false, help = false, no_run = false, warn = false;
  std::optional<uint64_t> seed;
  std::optional<double> time_limit_ms;
  int seeds = 0;  // lint --seeds N
  std::vector<std::string> packs;
  std::vector<std::string> course;  // lint --course DIR
  std::string assignment, student;  // show/grade --assignment FILE --student ID: that student's numbers
  std::string error;
};

Args parse_args(int argc, char** argv, int start) {
  Args a;
  for (int i = start; i < argc; ++i) {
    std::string s = argv[i];
    if (s == "--json") a.json = true;
    else if (s == "--answer") a.answer = true;
    else if (s == "--hints") a.hints = true;
    else if (s == "--no-run") a.no_run = true;
    else if (s == "--warn") a.warn = true;
    else if (s == "--help" || s == "-h") a.help = true;
    else if (s == "--seed" || s == "--seeds" || s == "--packs" || s == "--course" || s == "--time-limit" ||
             s == "--assignment" || s == "--student") {
      if (i + 1 >= argc) {
        a.error = s + " needs a value";
        return a;
      }
      std::string v = argv[++i];
      if (s == "--time-limit") {
        char* end = nullptr;
        double ms = std::strtod(v.c_str(), &end);
        if (v.empty() || *end || !(ms >= 10 && ms <= 60000)) {
          a.error = "--time-limit expects milliseconds from 10 to 60000, got '" + v + "'";
          return a;
        }
        a.time_limit_ms = ms;
      } else if (s == "--assignment") {
        a.assignment = v;
      } else if (s == "--student") {
        a.student = v;
      } else if (s == "--packs") {
        a.packs.push_back(v);
      } else if (s == "--course") {
        a.course.push_back(v);
      } else if (s == "--seeds") {
        char* end = nullptr;
        long n = std::strtol(v.c_str(), &end, 10);
        if (v.empty() || *end || n < 1 || n > 10000) {
          a.error = "--seeds expects a number of instances from 1 to 10000, got '" + v + "'";
          return a;
        }
        a.seeds = static_cast<int>(n);
      } else {
        char* end = nullptr;
        unsigned long long n = std::strtoull(v.c_str(), &end, 10);
        if (v.empty() || *end || v[0] == '-') {
          a.error = "--seed expects a whole number 0 or more, got '" + v + "'";
          return a;
        }
        a.seed = n;
      }
    } else if (s.size() > 1 && s[0] == '-' && s[1] == '-') {
      a.error = "unknown option " + s;
      return a;
    } else {
      a.positional.push_back(s);
    }
  }
  return a;
}

std::vector<std::string> default_pack_paths(const Args& a) {
  if (!a.packs.empty()) return a.packs;
  if (const char* env = std::getenv("DTX_EXERCISES")) return {env};
  return {"exercises"};
}

// Loads the library; load errors are printed (a broken pack doesn't stop the others).
Library load_paths(const std::vector<std::string>& paths, bool print_problems) {
  std::vector<Diagnostic> problems;
  auto sources = collect_packs(paths, &problems);
  Library lib = load_library(sources);
  lib.diagnostics.insert(lib.diagnostics.begin(), problems.begin(), problems.end());
  if (print_problems)
    for (const auto& d : lib.diagnostics) std::cerr << format_diagnostic(d) << "\n";
  return lib;
}

Json params_json(const Exercise& ex) {
  Json ps = Json::array();
  for (const auto& p : ex.params) {
    Json j;
    j["name"] = p.name;
    j["default"] = p.default_value;
    if (!p.choices.empty()) j["choices"] = p.choices;
    else {
      j["min"] = p.min;
      j["max"] = p.max;
      if (p.step > 0) j["step"] = p.step;
    }
    ps.push_back(j);
  }
  return ps;
}

// lint --course DIR: the files being linted will join the course in DIR, so an exercise id
// the course already uses is an error there (the page's preview checks the same, with the
// same function). A file that is itself in DIR (an edited chapter) is left out of the course,
// or it would clash with itself. The ids of every exercise that loaded are checked, even in a
// file with errors elsewhere. Returns an exit status for a usage error, else -1.
int check_against_course(const Args& a, const std::vector<PackSource>& sources, const LoadCache& loaded,
                         std::vector<Diagnostic>& all) {
  namespace fs = std::filesystem;
  std::vector<Diagnostic> course_problems;
  auto course_sources = collect_packs(a.course, &course_problems);
  if (!course_problems.empty()) {
    for (const auto& d : course_problems) std::cerr << "dtx lint: --course " << d.file << ": " << d.message << "\n";
    return kUsage;
  }
  auto same_file = [](const std::string& x, const std::string& y) {
    std::error_code ec;
    return fs::equivalent(x, y, ec);
  };
  std::vector<PackSource> others;
  for (auto& c : course_sources) {
    bool linted = std::any_of(sources.begin(), sources.end(), [&](const PackSource& s) { return same_file(s.file, c.file); });
    if (!linted) others.push_back(std::move(c));
  }
  if (others.empty()) {
    std::cerr << "dtx lint: --course found no pack besides the files being linted in " << join_names(a.course) << "\n";
    return kUsage;
  }
  Library course = load_library(others);
  // A course pack with errors is left out of the course (as the page leaves it out), so its
  // ids are not checked: say so rather than pass in silence.
  std::set<std::string> broken;
  for (const auto& d : course.diagnostics)
    if (d.severity == Severity::Error) broken.insert(d.file);
  for (const auto& f : broken)
    std::cerr << "dtx lint: --course: " << f << " has errors (`dtx lint " << f
              << "` lists them) and was not checked for ids in common\n";
  for (const auto& s : sources) {
    auto it = loaded.find(s.file);
    if (it != loaded.end() && it->second.second.partial) report_course_clashes(*it->second.second.partial, course, &all);
  }
  return -1;
}

// Whether an exercise a linted text links to (#/ex/ID) exists: in the packs linted, else in
// --course, else among the packs beside the linted files (a chapter linted alone refers to
// its neighbours). The others are loaded only when a reference is not found among the first.
ExerciseExists referenced_exercises(const Args& a, const Library& lib, const std::vector<PackSource>& sources) {
  auto near = std::make_shared<std::optional<std::set<std::string>>>();
  return [&a, &lib, &sources, near](const std::string& id) {
    if (lib.find(id)) return true;
    if (!*near) {
      std::set<std::string> dirs;
      for (const auto& s : sources) dirs.insert(std::filesystem::path(s.file).parent_path().string());
      std::vector<std::string> paths(a.course.begin(), a.course.end());
      for (const auto& d : dirs) paths.push_back(d.empty() ? "." : d);
      std::vector<Diagnostic> ignored;
      std::set<std::string> ids;
      for (const auto& p : load_library(collect_packs(paths, &ignored)).packs)
        for (const auto& ex : p.exercises) ids.insert(ex.id);
      *near = std::move(ids);
    }
    return (*near)->count(id) > 0;
  };
}

int cmd_lint(const Args& a) {
  if (a.help) {
    std::cout << kLintHelp;
    return 0;
  }
  if (a.positional.empty()) {
    std::cerr << "dtx lint: give at least one file or folder\n" << kLintHelp;
    return kUsage;
  }
  std::vector<Diagnostic> problems;
  std::vector<PackSource> assignments;  // assignment files among the paths: checked against the course
  auto sources = collect_packs(a.positional, &problems, &assignments);
  LoadCache loaded;  // keeps each file's partial pack for --course
  Library lib = load_library(sources, loaded);
  std::vector<Diagnostic> all = problems;
  all.insert(all.end(), lib.diagnostics.begin(), lib.diagnostics.end());
  if (!a.course.empty()) {
    if (int rc = check_against_course(a, sources, loaded, all); rc >= 0) return rc;
  }
  SandboxRunner runner;
  runner.time_limit_ms = a.time_limit_ms;
  bool run_code = !a.no_run && runner.available();
  LintOptions options;
  options.runner = run_code ? &runner : nullptr;
  options.warnings = a.warn;
  options.seeds = a.seeds;
  options.image_exists = file_next_to_pack;
  options.exercise_exists = referenced_exercises(a, lib, sources);
  auto semantic = lint_library(lib, options);
  all.insert(all.end(), semantic.begin(), semantic.end());
  if (!assignments.empty()) {
    // Their exercises are in the course: --course, else the packs linted with them, else the
    // usual packs (--packs, $DTX_EXERCISES, exercises/).
    Library course = !a.course.empty() ? load_paths(a.course, false)
                     : !lib.packs.empty() ? lib
                                          : load_paths(default_pack_paths(a), false);
    cli::lint_assignment_files(assignments, course, all);
  }
  int errors = 0, warnings = 0, exercises = 0;
  for (const auto& d : all) (d.severity == Severity::Error ? errors : warnings)++;
  for (const auto& p : lib.packs) exercises += static_cast<int>(p.exercises.size());
  if (a.json) {
    Json out = Json::array();
    for (const auto& d : all)
      out.push_back({{"file", d.file}, {"line", d.line}, {"column", d.column}, {"pointer", d.pointer},
                     {"severity", d.severity == Severity::Error ? "error" : "warning"},
                     {"code", diag_info(d.code).id}, {"message", d.message}});
    std::cout << out.dump(2) << "\n";
  } else {
    for (const auto& d : all) std::cout << format_diagnostic(d) << "\n";
  }
  const size_t nfiles = sources.size() + assignments.size();
  std::cerr << "dtx lint: " << nfiles << " file" << (nfiles == 1 ? "" : "s") << ", "
            << exercises << " exercises loaded, " << errors << " error" << (errors == 1 ? "" : "s")
            << (a.warn ? ", " + std::to_string(warnings) + " warning" + (warnings == 1 ? "" : "s") : "")
            << (run_code ? "" : a.no_run ? " (code not run: --no-run)" : " (code not run: node or the sandbox host not found)") << "\n";
  if (sources.empty() && assignments.empty() && problems.empty()) {
    std::cerr << "dtx lint: no .json files found\n";
    return 1;
  }
  return errors ? 1 : 0;
}

int cmd_list(const Args& a) {
  if (a.help) {
    std::cout << kListHelp;
    return 0;
  }
  auto paths = a.positional.empty() ? default_pack_paths(a) : a.positional;
  Library lib = load_paths(paths, true);
  if (a.json) {
    Json out = Json::array();
    for (const auto& p : lib.packs)
      for (const auto& ex : p.exercises)
        out.push_back({{"id", ex.id}, {"pack", p.id}, {"chapter", p.chapter}, {"type", ex.type},
                       {"title", ex.title}, {"difficulty", ex.difficulty}, {"parameters", params_json(ex)}});
    std::cout << out.dump(2) << "\n";
    return lib.diagnostics.empty() ? 0 : 1;
  }
  for (const auto& p : lib.packs) {
    std::cout << "Chapter " << p.chapter << ": " << p.title << "  (" << p.file << ")\n";
    for (const auto& ex : p.exercises) {
      std::string id = ex.id;
      id.resize(std::max<size_t>(id.size(), 28), ' ');
      std::string type = ex.type;
      type.resize(std::max<size_t>(type.size(), 11), ' ');
      std::cout << "  " << id << " " << type << " " << ex.title
                << (ex.params.empty() ? "" : "  [parameterised]") << "\n";
    }
  }
  return lib.diagnostics.empty() ? 0 : 1;
}

// The registry as data: scripts/schema-types.mjs writes the schema's type parts from it.
int cmd_types(const Args& a) {
  if (a.help) {
    std::cout << "usage: dtx types [--json]\n\nLists the exercise types: what the student does, and the fields each adds to\n"
                 "an exercise (required ones marked *). --json also gives the fields every exercise has.\n";
    return 0;
  }
  Json types = Json::array();
  for (const auto& t : exercise_types()) {
    types.push_back({{"name", t.name}, {"verb", t.verb}, {"fields", t.fields}, {"required", t.required}});
    if (a.json) continue;
    std::string fields;
    for (const auto& f : t.fields)
      fields += (fields.empty() ? "" : ", ") + f +
                (std::find(t.required.begin(), t.required.end(), f) != t.required.end() ? "*" : "");
    std::printf("%-12s %-14s %s\n", t.name, t.verb, fields.c_str());
  }
  if (a.json) std::cout << Json{{"common", common_exercise_fields()}, {"types", types}}.dump(2) << "\n";
  return 0;
}

// `text` broken at spaces into lines of at most `width` characters (a longer word stands alone).
std::string word_wrap(const std::string& text, size_t width) {
  std::string out, line;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    std::string word = text.substr(start, end - start);
    start = end + 1;
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      out += line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  return out + line;
}

// The diagnostic codes as data and as text: scripts/authoring-codes.mjs writes the guide's
// list from `dtx codes --json`.
int cmd_codes(const Args& a) {
  if (a.help) {
    std::cout << "usage: dtx codes [CODE] [--json]\n\nWhat the code of a lint message means (E012 or unknown-field): every code, or\n"
                 "the one named. Errors are E0xx, style warnings (dtx lint --warn) W0xx. The codes do\n"
                 "not change between releases; docs/AUTHORING.md shows each with an example.\n";
    return 0;
  }
  std::vector<const DiagCodeInfo*> shown;
  for (const auto& name : a.positional) {
    const DiagCodeInfo* c = find_diag_code(name);
    if (!c) {
      std::cerr << "dtx codes: no code \"" << name << "\"; `dtx codes` lists them\n";
      return 1;
    }
    shown.push_back(c);
  }
  if (a.positional.empty())
    for (const auto& c : diagnostic_codes()) shown.push_back(&c);
  if (a.json) {
    Json out = Json::array();
    for (const DiagCodeInfo* c : shown)
      out.push_back({{"code", c->id}, {"name", c->name},
                     {"severity", c->severity() == Severity::Error ? "error" : "warning"},
                     {"summary", c->summary}, {"file_system", c->file_system}});
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  for (const DiagCodeInfo* c : shown) {
    if (a.positional.empty()) {
      std::printf("%s  %-26s %s\n", c->id, c->name, c->severity() == Severity::Error ? "error" : "warning");
      continue;
    }
    std::cout << c->id << " " << c->name << " ("
              << (c->severity() == Severity::Error ? "error" : "warning") << ")\n\n"
              << word_wrap(c->summary, 78) << "\n";
  }
  return 0;
}

struct Loaded {
  Library lib;
  const Exercise* ex = nullptr;
  std::optional<Instance> inst;
};

// --assignment FILE --student ID: the seed that assignment gives that student for `ex` (what
// the student sees), for a TA; the reason printed and nullopt when it cannot be had.
std::optional<uint64_t> student_seed(const Args& a, const char* cmd, const Exercise& ex) {
  if (a.assignment.empty() || a.student.empty() || a.seed) {
    std::cerr << "dtx " << cmd << ": --assignment FILE and --student ID go together, without --seed\n";
    return std::nullopt;
  }
  std::string text, why;
  if (!read_file(a.assignment, &text)) {
    std::cerr << terminal_safe(a.assignment) << ": error[E001]: cannot read this file\n";
    return std::nullopt;
  }
  AssignmentLoad load = load_assignment(text, a.assignment);
  for (const auto& d : load.diagnostics) std::cerr << format_diagnostic(d) << "\n";
  if (!load.assignment) return std::nullopt;
  const AssignmentItem* item = load.assignment->item(ex.id);
  if (!item) {
    std::cerr << "dtx " << cmd << ": " << ex.id << " is not an exercise of " << terminal_safe(a.assignment) << "\n";
    return std::nullopt;
  }
  auto student = normalize_student_id(a.student, &why);
  if (!student) {
    std::cerr << "dtx " << cmd << ": --student: " << why << "\n";
    return std::nullopt;
  }
  if (!load.assignment->given(*item, *student)) {
    std::cerr << "dtx " << cmd << ": " << ex.id << " is in the pool \""
              << terminal_safe(load.assignment->pools[static_cast<size_t>(item->pool)].name) << "\" and not among "
              << *student << "'s picks\n";
    return std::nullopt;
  }
  return assignment_seed(*load.assignment, *item, *student);
}

int load_instance(const Args& a, const char* cmd, Loaded& L) {
  if (a.positional.empty()) {
    std::cerr << "dtx " << cmd << ": give an exercise id (see `dtx list`)\n";
    return kUsage;
  }
  L.lib = load_paths(default_pack_paths(a), false);
  L.ex = L.lib.find(a.positional[0]);
  if (!L.ex) {
    for (const auto& d : L.lib.diagnostics) std::cerr << format_diagnostic(d) << "\n";
    std::cerr << "dtx " << cmd << ": no exercise with id '" << a.positional[0] << "' (see `dtx list`)\n";
    return kUsage;
  }
  uint64_t seed = a.seed.value_or(0);
  if (!a.assignment.empty() || !a.student.empty()) {
    auto s = student_seed(a, cmd, *L.ex);
    if (!s) return kUsage;
    seed = *s;
  }
  std::string err;
  L.inst = make_instance(*L.ex, seed, &err);
  if (!L.inst) {
    std::cerr << "dtx " << cmd << ": cannot make this instance: " << err << "\n";
    return 1;
  }
  return -1;
}

// A text as a terminal shows it: placeholders filled, $...$ maths as Unicode ("10⁹", "√x"),
// \$ as $. --json keeps the Markdown, maths source included.
std::string shown(const Instance& inst, const std::string& text) { return markdown_math_to_plain(inst.render(text)); }

// The widget the page draws under the prompt: its kind, the inputs this instance gives it
// (every input, defaults included, in --json; the ones the pack sets in the text) and when
// a student gets to see it ("reveal").
void describe_widget(const ExerciseWidget& w, const Instance& inst, std::string& text, Json& j) {
  std::string err;
  auto values = widget_values(inst, &err);
  Json inputs = Json::object();
  std::string set;
  for (size_t i = 0; values && i < w.kind->inputs.size(); ++i) {
    const sim::WidgetInput& in = w.kind->inputs[i];
    const double v = values->values[i];
    Json value = in.options.empty() ? Json(v) : Json(values->option(in.name));
    inputs[in.name] = value;
    bool from_pack = std::any_of(w.args.begin(), w.args.end(), [&](const WidgetArg& a) { return a.name == in.name; });
    if (from_pack)
      set += (set.empty() ? "" : ", ") + std::string(in.name) + " = " +
             (in.options.empty() ? format_number(v, 6) : std::string(values->option(in.name)));
  }
  const char* when = w.reveal == WidgetReveal::AfterAttempt ? "shown after the student's first attempt"
                     : w.reveal == WidgetReveal::AfterSolve ? "shown once the student has solved the exercise"
                                                            : "shown from the start";
  j["widget"] = {{"kind", w.kind->kind}, {"title", w.kind->title}, {"reveal", widget_reveal_name(w.reveal)}, {"inputs", inputs}};
  if (!err.empty()) j["widget"]["error"] = err;
  text += "\nWidget: " + std::string(w.kind->title) + (set.empty() ? "" : " (" + set + ")") + ", " + when + ".\n";
  if (!err.empty()) text += "Widget input: " + err + "\n";
}

int cmd_show(const Args& a) {
  if (a.help) {
    std::cout << kShowHelp;
    return 0;
  }
  Loaded L;
  if (int rc = load_instance(a, "show", L); rc >= 0) return rc;
  const Exercise& ex = *L.ex;
  const Instance& inst = *L.inst;
  Json j;
  j["id"] = ex.id;
  j["type"] = ex.type;
  j["title"] = ex.title;
  j["chapter"] = ex.chapter;
  j["seed"] = inst.seed;
  Json params = Json::object();
  for (const auto& p : ex.params) params[p.name] = *inst.value(p.name);
  j["parameters"] = params;
  j["prompt"] = inst.render(ex.prompt);
  std::string text = "# " + ex.title + "  (" + ex.id + ", " + ex.type + ", seed " +
                     std::to_string(inst.seed) + ")\n\n" + shown(inst, ex.prompt) + "\n";
  if (ex.widget) describe_widget(*ex.widget, inst, text, j);
  // The answer area, as the type tells it.
  InstanceDescription desc;
  ex.spec->describe(ex, inst, a.answer, desc);
  text += desc.text;
  for (auto it = desc.json.begin(); it != desc.json.end(); ++it) j[it.key()] = it.value();
  if (a.answer) {
    // What `dtx grade` takes for the right answer: words, or (a program) a file's text.
    j["grade_words"] = desc.answer_words;
    j["answer_is_program"] = ex.spec->answer_is_program();
  }
  if (a.hints) {
    Json hints = Json::array();
    for (size_t i = 0; i < ex.hints.size(); ++i) {
      hints.push_back(inst.render(ex.hints[i]));
      text += "\nHint " + std::to_string(i + 1) + ": " + shown(inst, ex.hints[i]);
    }
    text += "\n";
    j["hints"] = hints;
  }
  if (a.answer && !ex.explanation.empty()) {
    j["explanation"] = inst.render(ex.explanation);
    text += "\nExplanation:\n" + shown(inst, ex.explanation) + "\n";
  }
  if (a.json) std::cout << j.dump(2) << "\n";
  else std::cout << text;
  return 0;
}

// Many programs for one exercise (an instructor's folder of student files): one sandbox
// host for all of them, one line (or JSON object) per file.
int grade_program_files(const Instance& inst, const std::vector<std::string>& files, SandboxRunner& runner, bool json) {
  const Exercise& ex = *inst.exercise;
  GradeServices services;
  services.runner = &runner;
  Json out = Json::array();
  bool any_wrong = false, any_unreadable = false;
  for (const auto& file : files) {
    std::string source, err;
    Feedback fb;
    std::optional<Answer> ans;
    if (!read_file(file, &source)) err = "cannot read the file";
    else ans = ex.spec->parse_answer(ex, inst, {source}, &err);
    if (ans) {
      fb = grade(inst, *ans, services);
    } else {
      fb.verdict = Verdict::FormatError;
      fb.message = err;
    }
    any_wrong |= fb.verdict == Verdict::Incorrect || fb.verdict == Verdict::Partial;
    any_unreadable |= fb.verdict == Verdict::FormatError;
    if (json) {
      out.push_back({{"file", file}, {"verdict", verdict_name(fb.verdict)}, {"score", fb.score},
                     {"counts_as_attempt", fb.counts_as_attempt()}, {"message", fb.message}});
    } else {
      std::cout << file << ": " << verdict_name(fb.verdict);
      if (fb.counts_as_attempt()) std::cout << " (score " << format_number(fb.score * 100, 3) << "%)";
      std::cout << "  " << fb.message << "\n";
    }
  }
  if (json) std::cout << out.dump(2) << "\n";
  return any_wrong ? 1 : any_unreadable ? 3 : 0;
}

// dtx grade --json: the verdict, messages, parts and cases as one object.
void print_feedback_json(const Exercise& ex, const Instance& inst, const Feedback& fb) {
  Json j;
  j["id"] = ex.id;
  j["seed"] = inst.seed;
  j["verdict"] = verdict_name(fb.verdict);
  j["score"] = fb.score;
  j["counts_as_attempt"] = fb.counts_as_attempt();
  Json msgs = Json::array();
  msgs.push_back(fb.message);
  for (const auto& d : fb.details) msgs.push_back(d);
  j["messages"] = msgs;
  j["misconception"] = fb.misconception;
  if (!fb.parts.empty()) {
    Json parts = Json::array();
    for (const auto& p : fb.parts)
      parts.push_back({{"id", p.id}, {"verdict", verdict_name(p.verdict)}, {"graded", p.graded}, {"given", p.given},
                       {"expected", p.expected}, {"message", p.message}, {"misconception", p.misconception}});
    j["parts"] = parts;
  }
  if (!fb.cases.empty()) {
    Json cases = Json::array();
    for (const auto& c : fb.cases)
      cases.push_back({{"args", c.args}, {"expected", c.expected}, {"got", c.got}, {"pass", c.pass},
                       {"message", c.message}, {"hidden", c.hidden}, {"misconception", c.misconception}});
    j["cases"] = cases;
  }
  std::cout << j.dump(2) << "\n";
}

// dtx grade: the verdict, the feedback and, once it counts, the worked explanation.
void print_feedback_text(const Exercise& ex, const Instance& inst, const Feedback& fb) {
  const char* head = fb.verdict == Verdict::Correct ? "CORRECT"
                     : fb.verdict == Verdict::Partial ? "PARTLY CORRECT"
                     : fb.verdict == Verdict::Incorrect ? "INCORRECT"
                                                        : "COULD NOT READ THE ANSWER";
  std::cout << head;
  if (fb.counts_as_attempt()) std::cout << "  (score " << format_number(fb.score * 100, 3) << "%)";
  std::cout << "\n" << markdown_math_to_plain(fb.message) << "\n";
  for (const auto& d : fb.details) std::cout << "  " << markdown_math_to_plain(d) << "\n";
  if (fb.parts.size() > 1 || (fb.parts.size() == 1 && fb.verdict != Verdict::FormatError)) {
    for (const auto& p : fb.parts)
      if (fb.counts_as_attempt())
        std::cout << "  [" << p.id << "] " << verdict_name(p.verdict) << ": you gave " << p.given
                  << ", expected " << p.expected << "\n";
  }
  for (const auto& c : fb.cases) {
    if (c.hidden) continue;  // counted in the details ("Hidden cases: 2 of 3 pass.")
    std::cout << "  " << (c.pass ? "pass" : "FAIL") << "  " << c.args << "  expected " << c.expected
              << ", got " << (c.got.empty() ? "-" : c.got);
    if (!c.message.empty()) std::cout << "  (" << c.message << ")";
    if (!c.note.empty() && c.note != "generated") std::cout << "  # " << c.note;
    std::cout << "\n";
  }
  if (fb.counts_as_attempt() && !ex.explanation.empty())
    std::cout << "\nExplanation:\n" << shown(inst, ex.explanation) << "\n";
}

int cmd_grade(const Args& a) {
  if (a.help) {
    std::cout << grade_help();
    return 0;
  }
  Loaded L;
  if (int rc = load_instance(a, "grade", L); rc >= 0) return rc;
  const Exercise& ex = *L.ex;
  const Instance& inst = *L.inst;
  std::vector<std::string> given(a.positional.begin() + 1, a.positional.end());
  Feedback fb;
  GradeServices services;
  std::optional<SandboxRunner> runner;
  // A program (code) is read from files and run in the sandbox; other answers are words.
  if (ex.spec->answer_is_program()) {
    if (given.empty()) {
      std::cerr << "dtx grade: a " << ex.type << " exercise takes a file with your function (- for stdin), or several files\n";
      return kUsage;
    }
    runner.emplace();
    runner->time_limit_ms = a.time_limit_ms;
    if (!runner->available()) {
      std::cerr << "dtx grade: running code needs node and the sandbox host (" +
                       (runner->host_path().empty() ? std::string("dtx-sandbox-host.cjs next to dtx") : runner->host_path()) +
                       "); build it with make native\n";
      return kUsage;
    }
    if (given.size() > 1) return grade_program_files(inst, given, *runner, a.json);
    std::string source;
    if (given[0] == "-") {
      source.assign(std::istreambuf_iterator<char>(std::cin), {});
    } else if (!read_file(given[0], &source)) {
      std::cerr << "dtx grade: cannot read '" << given[0] << "'\n";
      return kUsage;
    }
    given = {source};
    services.runner = &*runner;
  }
  std::string err;
  if (auto ans = ex.spec->parse_answer(ex, inst, given, &err)) {
    fb = grade(inst, *ans, services);
  } else {
    fb.verdict = Verdict::FormatError;
    fb.message = err;
  }

  if (a.json) print_feedback_json(ex, inst, fb);
  else print_feedback_text(ex, inst, fb);
  switch (fb.verdict) {
    case Verdict::Correct: return 0;
    case Verdict::FormatError: return 3;
    default: return 1;
  }
}

}  // namespace

int main(int argc, char** argv) {
  // Students' answers and errors, file names and pack texts are printed in many places; one
  // filter under std::cout and std::cerr keeps a terminal from obeying any of them.
  dtx::cli::TerminalSafeOutput terminal_safe_output;
  if (argc < 2) {
    std::cerr << kMainHelp;
    return kUsage;
  }
  std::string cmd = argv[1];
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    std::cout << kMainHelp;
    return 0;
  }
  // `sim` takes its flags from the widget input tables, not the common options.
  if (cmd == "sim") return dtx::cli::cmd_sim(std::vector<std::string>(argv + 2, argv + argc));
  // `new` has its own options (-o FILE, --chapter N, --title T).
  if (cmd == "new") return dtx::cli::cmd_new(std::vector<std::string>(argv + 2, argv + argc));
  // `report` reads assignment and submission files (cli/report_cmd.cpp).
  if (cmd == "report") return dtx::cli::cmd_report(std::vector<std::string>(argv + 2, argv + argc));
  // `package` writes an assignment's LMS package (cli/package_cmd.cpp).
  if (cmd == "package") return dtx::cli::cmd_package(std::vector<std::string>(argv + 2, argv + argc));
  // `outline` is also built alone for node (cli/outline_cmd.cpp), for `make dist`.
  if (cmd == "outline") return dtx::cli::cmd_outline(std::vector<std::string>(argv + 2, argv + argc));
  Args a = parse_args(argc, argv, 2);
  if (!a.error.empty()) {
    std::cerr << "dtx " << cmd << ": " << a.error << "\n";
    return kUsage;
  }
  if (cmd == "lint") return cmd_lint(a);
  if (cmd == "list") return cmd_list(a);
  if (cmd == "types") return cmd_types(a);
  if (cmd == "codes") return cmd_codes(a);
  if (cmd == "show") return cmd_show(a);
  if (cmd == "grade") return cmd_grade(a);
  std::cerr << "dtx: unknown command '" << cmd << "'\n\n" << kMainHelp;
  return kUsage;
}
