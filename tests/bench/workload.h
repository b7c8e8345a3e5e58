// The benchmark workload shared by dtx_bench (Google Benchmark, native) and dtx_bench_plain
// (std::chrono only, native and wasm). Plain C++ and the engine: no benchmark library here,
// so the same code compiles with g++ and em++.
//
// Operations measured:
//   load   load_library() on the pack texts (files are read once, outside any timing)
//   lint   lint_library(lib, nullptr) on the loaded library (no code runner)
//   grade  per exercise type: make_instance(ex, seed) and grading the type's sample answers
//          (TypeSpec::sample_answers: the right one, each known kind of wrong one, an
//          unreadable one; code answers carry a synthetic runner result, since running
//          JavaScript is not the engine's work)
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "code_runner.h"
#include "model.h"

namespace dtx::bench {

// The exercise types, in the order tables and JSON list them.
const std::vector<std::string>& exercise_types();

// A small pack with one exercise of every type, used for any type the real packs lack.
const char* builtin_pack_text();

// Reads every *.json under `dir` (recursively, sorted, skipping index.json and schema/),
// as the CLI does. Unreadable files and a missing folder are reported in `problems`.
std::vector<PackSource> read_pack_dir(const std::string& dir, std::vector<std::string>* problems);

// One timed grade operation: an exercise, a seed, and answers prepared beforehand.
struct GradeItem {
  const Exercise* exercise = nullptr;
  uint64_t seed = 0;
  std::vector<Answer> answers;  // graded one after the other
};

struct TypeWorkload {
  std::string type;
  bool builtin = false;   // true: no exercise of this type in the real packs
  size_t exercises = 0;   // distinct exercises used
  std::vector<GradeItem> items;  // exercises x seeds
};

struct Workload {
  std::string dir;
  std::vector<PackSource> sources;  // the real packs' texts (or the built-in pack when none)
  bool sources_builtin = false;
  Library lib;                      // `sources` loaded once
  Library builtin_lib;              // the built-in pack, for missing types
  size_t exercise_count = 0;
  std::vector<TypeWorkload> types;  // in exercise_types() order
  std::vector<std::string> warnings;  // load problems, answers not graded as expected...
};

// Reads the packs, loads them once, and prepares the grade items (seeds 0..seeds-1).
// Answers are checked once, untimed: a correct answer that does not grade Correct (or a
// wrong one that does) becomes a warning.
std::unique_ptr<Workload> make_workload(const std::string& dir, int seeds = 8);

// The timed operations. Each returns a value derived from the work so the compiler cannot
// drop it.
size_t run_load(const std::vector<PackSource>& sources);       // load_library
size_t run_lint(const Library& lib);                           // lint_library(lib, nullptr)
size_t run_load_lint(const std::vector<PackSource>& sources);  // both
double run_grade(const GradeItem& item);                       // make_instance + grade(s)

// One-line summary of what was loaded: files, exercises, items per type.
std::string describe(const Workload& w);

}  // namespace dtx::bench
