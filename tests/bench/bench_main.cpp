// dtx_bench: Google Benchmark timings of the engine on the real packs (native only).
//   dtx_bench [benchmark options] [EXERCISES_DIR]     default DTX_SOURCE_DIR/exercises
// Benchmarks:
//   BM_LoadAllPacks                    load_library on every pack text (read beforehand)
//   BM_LintAllPacks                    lint_library(lib, nullptr) on the loaded library
//   BM_InstantiateAndGrade/<type>      one instance + its answers per iteration, cycling
//                                      through every exercise of the type and seeds 0..7
// Types missing from the real packs use a small built-in pack (see workload.cpp).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>

#include "workload.h"

using namespace dtx::bench;

namespace {

std::unique_ptr<Workload> g_work;

void BM_LoadAllPacks(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(run_load(g_work->sources));
  state.counters["files"] = static_cast<double>(g_work->sources.size());
  state.counters["exercises"] = static_cast<double>(g_work->exercise_count);
}

void BM_LintAllPacks(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(run_lint(g_work->lib));
  state.counters["exercises"] = static_cast<double>(g_work->exercise_count);
}

void BM_InstantiateAndGrade(benchmark::State& state, const TypeWorkload* tw) {
  size_t i = 0, n = tw->items.size();
  for (auto _ : state) {
    benchmark::DoNotOptimize(run_grade(tw->items[i]));
    if (++i == n) i = 0;
  }
  state.counters["exercises"] = static_cast<double>(tw->exercises);
  if (tw->builtin) state.SetLabel("built-in pack");
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  std::string dir = argc > 1 ? argv[1] : DTX_SOURCE_DIR "/exercises";
  if (argc > 2) {
    std::fprintf(stderr, "usage: dtx_bench [benchmark options] [EXERCISES_DIR]\n");
    return 2;
  }
  g_work = make_workload(dir);
  for (const auto& w : g_work->warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
  std::fprintf(stderr, "%s\n", describe(*g_work).c_str());

  benchmark::RegisterBenchmark("BM_LoadAllPacks", BM_LoadAllPacks)->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("BM_LintAllPacks", BM_LintAllPacks)->Unit(benchmark::kMicrosecond);
  for (const auto& tw : g_work->types) {
    if (tw.items.empty()) continue;
    benchmark::RegisterBenchmark(("BM_InstantiateAndGrade/" + tw.type).c_str(), BM_InstantiateAndGrade, &tw)
        ->Unit(benchmark::kMicrosecond);
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
