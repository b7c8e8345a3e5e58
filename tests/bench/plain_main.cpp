// dtx_bench_plain: the dtx_bench workloads timed with std::chrono only, so the same program
// runs natively and as WebAssembly under node (NODERAWFS reads the packs from disk).
//   dtx_bench_plain [EXERCISES_DIR [SAMPLES]]   default DTX_SOURCE_DIR/exercises, 50 samples
// Prints the median time per operation in microseconds, then one JSON line:
//   {"load_lint_us":..,"load_us":..,"lint_us":..,"grade_us":{"numeric":..,...},"samples":..}
// Per-type grade figures are per exercise instance: make_instance plus grading its answers
// (see workload.h). A grade sample runs every instance of the type, repeated until the
// sample lasts at least 1 ms, and divides by the count.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "workload.h"

using namespace dtx::bench;
using Clock = std::chrono::steady_clock;

namespace {

volatile double g_sink = 0;

double elapsed_us(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::micro>(b - a).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Times `op` (which performs `ops_per_call` operations and returns a value to keep)
// `samples` times after a warm-up, and returns the median per operation in microseconds.
// One sample is as many calls as last about 1 ms (at least one).
double time_median(const std::function<double()>& op, double ops_per_call, int samples) {
  // Warm-up (after the whole-program one in main): at least 3 calls and 100 ms.
  auto w0 = Clock::now();
  int calls = 0;
  while (calls < 3 || elapsed_us(w0, Clock::now()) < 100000) {
    g_sink = g_sink + op();
    ++calls;
  }
  double per_call = elapsed_us(w0, Clock::now()) / calls;
  int repeat = std::max(1, static_cast<int>(1000.0 / std::max(per_call, 1e-3)));  // >= ~1 ms
  std::vector<double> t;
  for (int s = 0; s < samples; ++s) {
    auto a = Clock::now();
    for (int r = 0; r < repeat; ++r) g_sink = g_sink + op();
    auto b = Clock::now();
    t.push_back(elapsed_us(a, b) / (repeat * ops_per_call));
  }
  return median(t);
}

void print_line(const std::string& what, double us, int n) {
  std::printf("%-24s median %10.*f us  (n=%d)\n", what.c_str(), us < 100 ? 2 : 1, us, n);
}

std::string json_number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir = argc > 1 ? argv[1] : DTX_SOURCE_DIR "/exercises";
  int samples = argc > 2 ? std::atoi(argv[2]) : 50;
  if (argc > 3 || samples < 1) {
    std::fprintf(stderr, "usage: dtx_bench_plain [EXERCISES_DIR [SAMPLES]]\n");
    return 2;
  }
  auto w = make_workload(dir);
  for (const auto& m : w->warnings) std::fprintf(stderr, "warning: %s\n", m.c_str());
  std::printf("%s\n", describe(*w).c_str());

  // Whole-program warm-up, at least 3 rounds and 1.5 s: node compiles wasm with a baseline
  // tier first and tiers hot functions up in the background. With only a short warm-up per
  // operation the first figure (load+lint) came out 2-3x too slow in some runs.
  auto w0 = Clock::now();
  for (int round = 0; round < 3 || elapsed_us(w0, Clock::now()) < 1.5e6; ++round) {
    g_sink = g_sink + static_cast<double>(run_load_lint(w->sources));
    for (const auto& tw : w->types)
      for (const auto& item : tw.items) g_sink = g_sink + run_grade(item);
  }

  double load_lint = time_median([&] { return static_cast<double>(run_load_lint(w->sources)); }, 1, samples);
  print_line("load+lint all packs", load_lint, samples);
  double load = time_median([&] { return static_cast<double>(run_load(w->sources)); }, 1, samples);
  print_line("load all packs", load, samples);
  double lint = time_median([&] { return static_cast<double>(run_lint(w->lib)); }, 1, samples);
  print_line("lint all packs", lint, samples);

  std::string grades;
  for (const auto& tw : w->types) {
    std::string value = "null";
    if (!tw.items.empty()) {
      double us = time_median(
          [&] {
            double s = 0;
            for (const auto& item : tw.items) s += run_grade(item);
            return s;
          },
          static_cast<double>(tw.items.size()), samples);
      print_line("grade " + tw.type + (tw.builtin ? " (built-in)" : ""), us, samples);
      value = json_number(us);
    }
    grades += (grades.empty() ? "" : ",") + std::string("\"") + tw.type + "\":" + value;
  }
  std::printf("{\"load_lint_us\":%s,\"load_us\":%s,\"lint_us\":%s,\"grade_us\":{%s},\"samples\":%d}\n",
              json_number(load_lint).c_str(), json_number(load).c_str(), json_number(lint).c_str(),
              grades.c_str(), samples);
  return 0;
}
