// The CLI's code runner (one node process hosting the QuickJS sandbox) with the real node, and
// every shipped code exercise: the reference passes its own cases and each listed wrong
// implementation fails, over 20 seeds. The escape suite (tests/escape/) attacks the same
// runner through dtx grade and dtx lint, and the page's worker.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iterator>

#include "content_util.h"
#include "grade/code.h"
#include "helpers.h"
#include "sandbox_runner.h"

using namespace dtx;
using namespace dtx::testing;

namespace {

const char* kPack = R"J({"id": "k", "type": "code", "title": "K", "prompt": "p",
  "function": "ringTime", "args": ["M", "N", "bw"], "expected": "2*(N-1)*(M/N)/bw*1000",
  "cases": [{"args": [1, 8, 50]}, {"args": [1, 1, 50]}]})J";

Instance inst_of(const Pack& p) { return must_instance(p.exercises[0]); }

}  // namespace

TEST(SandboxRunner, RunsAFunctionDeclaration) {
  SandboxRunner run(DTX_SANDBOX_HOST);
  ASSERT_TRUE(run.available());
  Pack p = must_load(pack_with(kPack));
  Feedback f = grade_code(inst_of(p), "function ringTime(M, N, bw) { return 2*(N-1)*(M/N)/bw*1000; }", run);
  EXPECT_EQ(f.verdict, Verdict::Correct) << f.message;
}

TEST(SandboxRunner, ConstArrowFunctionsWorkToo) {
  SandboxRunner run(DTX_SANDBOX_HOST);
  Pack p = must_load(pack_with(kPack));
  Feedback f = grade_code(inst_of(p), "const ringTime = (M, N, bw) => 2*(N-1)*(M/N)/bw*1000;", run);
  EXPECT_EQ(f.verdict, Verdict::Correct) << f.message;
}

TEST(SandboxRunner, SyntaxErrorWithLine) {
  SandboxRunner run(DTX_SANDBOX_HOST);
  Pack p = must_load(pack_with(kPack));
  Feedback f = grade_code(inst_of(p), "function ringTime(M, N, bw) {\n  return M +* 2;\n}", run);
  EXPECT_EQ(f.verdict, Verdict::FormatError);
  EXPECT_NE(f.message.find("line 2"), std::string::npos) << f.message;
}

TEST(SandboxRunner, MissingFunction) {
  SandboxRunner run(DTX_SANDBOX_HOST);
  Pack p = must_load(pack_with(kPack));
  Feedback f = grade_code(inst_of(p), "function ringtime() { return 1; }", run);
  EXPECT_EQ(f.verdict, Verdict::FormatError);
  EXPECT_NE(f.message.find("ringTime"), std::string::npos) << f.message;
}

TEST(SandboxRunner, RuntimeErrorsPerCaseWithLine) {
  SandboxRunner run(DTX_SANDBOX_HOST);
  Pack p = must_load(pack_with(kPack));
  Feedback f = grade_code(inst_of(p), "function ringTime(M, N, bw) {\n  if (N === 1) throw new Error('no');\n  return 2*(N-1)*(M/N)/bw*1000;\n}", run);
  EXPECT_EQ(f.verdict, Verdict::Partial);
  EXPECT_TRUE(f.cases[0].pass);
  EXPECT_NE(f.cases[1].message.find("line 2"), std::string::npos) << f.cases[1].message;
}

TEST(SandboxRunner, InfiniteLoopIsStopped) {
  SandboxRunner run(DTX_SANDBOX_HOST);
  Pack p = must_load(pack_with(kPack));
  auto t0 = std::chrono::steady_clock::now();
  Feedback f = grade_code(inst_of(p), "function ringTime() { for (;;) {} }", run);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(f.verdict, Verdict::Incorrect);
  EXPECT_NE(f.message.find("time limit"), std::string::npos) << f.message;
  EXPECT_LT(s, 15);  // stopped, not hung (generous: this is not a timing test)
}

TEST(SandboxRunner, NoRequireNoProcessNoFetch) {
  SandboxRunner run(DTX_SANDBOX_HOST);
  Pack p = must_load(pack_with(kPack));
  for (const char* body : {"return require('fs') ? 1 : 0;", "return process.pid;", "return fetch('http://x');",
                           "return postMessage({});", "return importScripts('x');", "return XMLHttpRequest;"}) {
    Feedback f = grade_code(inst_of(p), std::string("function ringTime() { ") + body + " }", run);
    EXPECT_NE(f.verdict, Verdict::Correct) << body;
    ASSERT_FALSE(f.cases.empty());
    EXPECT_NE(f.cases[0].message.find("not defined"), std::string::npos) << body << ": " << f.cases[0].message;
  }
}

TEST(SandboxRunner, OneHostServesEveryRequest) {
  SandboxRunner run(DTX_SANDBOX_HOST);
  Pack p = must_load(pack_with(kPack));
  for (int i = 0; i < 50; ++i) {
    Feedback f = grade_code(inst_of(p), "function ringTime(M, N, bw) { return 2*(N-1)*(M/N)/bw*1000; }", run);
    ASSERT_EQ(f.verdict, Verdict::Correct) << f.message;
  }
  EXPECT_EQ(run.runs(), 50);
  EXPECT_EQ(run.host_starts(), 1);
}

TEST(SandboxRunner, TheHostRunsWithoutAuthority) {
  // Around the sandbox: the node host has the permission model on (reads only its own folder,
  // no writes, no child processes) and inherits no environment but PATH.
  ::setenv("DTX_TEST_SECRET", "s3cret", 1);
  SandboxRunner run(DTX_SANDBOX_HOST);
  Pack p = must_load(pack_with(kPack));
  grade_code(inst_of(p), "function ringTime() { return 0; }", run);
  ASSERT_GT(run.host_pid(), 0);
  auto slurp = [](const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::string s((std::istreambuf_iterator<char>(in)), {});
    for (char& c : s)
      if (c == '\0') c = ' ';
    return s;
  };
  std::string cmdline = slurp("/proc/" + std::to_string(run.host_pid()) + "/cmdline");
  std::string environ = slurp("/proc/" + std::to_string(run.host_pid()) + "/environ");
  EXPECT_NE(cmdline.find("permission"), std::string::npos) << cmdline;
  EXPECT_NE(cmdline.find("--allow-fs-read="), std::string::npos) << cmdline;
  EXPECT_EQ(cmdline.find("--allow-fs-write"), std::string::npos) << cmdline;
  EXPECT_EQ(cmdline.find("--allow-child-process"), std::string::npos) << cmdline;
  EXPECT_EQ(environ.find("DTX_TEST_SECRET"), std::string::npos) << environ;
  ::unsetenv("DTX_TEST_SECRET");
}

TEST(SandboxRunner, StateDoesNotLeakBetweenSubmissions) {
  // Each program gets a fresh interpreter runtime: a global set by one submission is gone in
  // the next, so one student's code cannot leave answers for another's.
  SandboxRunner run(DTX_SANDBOX_HOST);
  Pack p = must_load(pack_with(kPack));
  grade_code(inst_of(p), "globalThis.leak = 42; Object.prototype.polluted = 1; function ringTime() { return 0; }", run);
  Feedback f = grade_code(inst_of(p), "function ringTime() { return typeof leak + typeof ({}).polluted; }", run);
  ASSERT_FALSE(f.cases.empty());
  EXPECT_EQ(f.cases[0].got, "\"undefinedundefined\"");
}

TEST(SandboxRunner, MemoryLimitIsReported) {
  // A long time limit, so that on a loaded machine the memory cap is what stops it.
  SandboxRunner run(DTX_SANDBOX_HOST);
  run.time_limit_ms = 30000;
  Pack p = must_load(pack_with(kPack));
  Feedback f = grade_code(inst_of(p), "function ringTime() { const a = []; for (;;) a.push('x'.repeat(1e7) + a.length); }", run);
  EXPECT_EQ(f.verdict, Verdict::Incorrect);
  EXPECT_NE(f.message.find("memory"), std::string::npos) << f.message;
  // The interpreter that ran out is replaced: the next submission works.
  f = grade_code(inst_of(p), "function ringTime(M, N, bw) { return 2*(N-1)*(M/N)/bw*1000; }", run);
  EXPECT_EQ(f.verdict, Verdict::Correct) << f.message;
}

TEST(SandboxRunner, BuiltinsThatNeverYieldAreKilledFromOutside) {
  // Sorting a sparse array of 4e9 slots runs in C without polling the interrupt: only the
  // host's kill stops it. The next request gets a fresh host.
  SandboxRunner run(DTX_SANDBOX_HOST);
  Pack p = must_load(pack_with(kPack));
  CodeRunRequest req = make_code_request(inst_of(p), "function ringTime() { const a = []; a.length = 4e9; a.sort(); return 1; }");
  req.time_limit_ms = 300;
  CodeRunResult r = run.run(req);
  EXPECT_EQ(r.kind, CodeRunResult::Kind::Timeout) << r.error;
  Feedback f = grade_code(inst_of(p), "function ringTime(M, N, bw) { return 2*(N-1)*(M/N)/bw*1000; }", run);
  EXPECT_EQ(f.verdict, Verdict::Correct) << f.message;
  EXPECT_EQ(run.host_starts(), 2);
}

TEST(SandboxRunner, ShippedCodeExercisesReferenceAndWrongImplementations) {
  SandboxRunner run(DTX_SANDBOX_HOST);
  Library lib = load_library(shipped_pack_sources());
  int exercises = 0;
  for (const auto& pack : lib.packs)
    for (const auto& ex : pack.exercises) {
      const auto* spec = ex.spec_as<CodeSpec>();
      if (!spec) continue;
      ++exercises;
      EXPECT_FALSE(spec->wrong.empty()) << ex.id << " lists no wrong implementation";
      for (uint64_t seed = 0; seed < 20; ++seed) {
        Instance inst = must_instance(ex, seed);
        if (!spec->reference.empty()) {
          Feedback f = grade_code(inst, spec->reference, run);
          EXPECT_EQ(f.verdict, Verdict::Correct) << ex.id << " seed " << seed << ": " << f.message;
        }
        for (const auto& w : spec->wrong) {
          Feedback f = grade_code(inst, w.code, run);
          EXPECT_NE(f.verdict, Verdict::Correct) << ex.id << " seed " << seed << ": wrong '" << w.note << "' passes";
        }
      }
    }
  EXPECT_GT(exercises, 0);
}
