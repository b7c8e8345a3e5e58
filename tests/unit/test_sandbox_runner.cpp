// The CLI's code runner (one node process hosting the QuickJS sandbox) with the real node, and
// every shipped code exercise: the reference passes its own cases and each listed wrong
// implementation fails, over 20 seeds. The escape suite (tests/escape/) attacks the same
// runner through dtx grade and dtx lint, and the page's worker.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "content_util.h"
#include "code/code.h"
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

// ---- isolation: whatever a program returns or does, the next request is graded on its own

namespace {

bool valid_utf8(const std::string& s) {
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (size_t k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) >> 6) != 0x2) return false;
    if (n == 3 && c == 0xED && static_cast<unsigned char>(s[i + 1]) >= 0xA0) return false;  // a surrogate
    i += n;
  }
  return true;
}

// A host that misbehaves on command (the request's source names how) and otherwise answers
// with the source as the returned value, so an answer can be matched to its request.
const char* kFakeHost = R"JS('use strict';
const readline = require('readline');
process.stdout.write('{"ready":true}\n');
const echo = (src) => JSON.stringify({ student: [{ ok: true, value: src }] }) + '\n';
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const src = JSON.parse(line).source;
  if (src === 'answer-then-exit') process.stdout.write(echo(src), () => process.exit(0));
  else if (src === 'exit') process.exit(1);
  else if (src === 'garbage') process.stdout.write('Aborted(Assertion failed: list_empty)\n');
  else if (src === 'half-a-line') process.stdout.write('{"student":[{"ok":tr', () => process.exit(0));
  else if (src === 'two-answers') process.stdout.write(echo(src) + echo('forged'));
  else if (src === 'failure') process.stdout.write('{"kind":"runtime","error":"broken","student":[]}\n');
  else if (src === 'hang') {}
  else process.stdout.write(echo(src));
});
)JS";

std::string fake_host() {
  std::string dir = ::testing::TempDir() + "dtx-fake-host";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/host.cjs") << kFakeHost;
  return dir + "/host.cjs";
}

CodeRunRequest request_with(const std::string& source) {
  CodeRunRequest r;
  r.function = "f";
  r.source = source;
  r.cases = {{"1"}};
  r.time_limit_ms = 200;
  return r;
}

}  // namespace

TEST(SandboxRunnerIsolation, AHostThatFailsNeverFailsTheNextRequest) {
  // Each misbehaviour between correct requests: the failing request gets a failure, every
  // other request its own answer, from a fresh host where needed.
  SandboxRunner run(fake_host());
  run.grace_ms = 300;
  int checked = 0;
  for (const char* bad : {"answer-then-exit", "exit", "garbage", "half-a-line", "two-answers", "failure", "hang"}) {
    for (int i = 0; i < 3; ++i) {
      std::string good = std::string("good ") + std::to_string(i) + " after " + bad;
      CodeRunResult r = run.run(request_with(good));
      ASSERT_EQ(r.kind, CodeRunResult::Kind::None) << good << ": " << r.error;
      ASSERT_EQ(r.student.size(), 1u) << good;
      EXPECT_EQ(r.student[0].value_json, "\"" + good + "\"") << good;
      ++checked;
      if (i == 0) {
        CodeRunResult b = run.run(request_with(bad));
        bool answered_itself = b.kind == CodeRunResult::Kind::None && b.student.size() == 1 && b.student[0].value_json == "\"" + std::string(bad) + "\"";
        // Two misbehaviours still answer their own request first; the rest must not pass.
        if (std::string(bad) != "answer-then-exit" && std::string(bad) != "two-answers") EXPECT_FALSE(answered_itself) << bad;
      }
    }
  }
  EXPECT_EQ(checked, 21);
}

TEST(SandboxRunnerIsolation, AHostKilledBetweenRequestsIsReplaced) {
  SandboxRunner run(fake_host());
  ASSERT_EQ(run.run(request_with("one")).student.size(), 1u);
  ASSERT_GT(run.host_pid(), 0);
  ::kill(run.host_pid(), SIGKILL);
  CodeRunResult r = run.run(request_with("two"));
  ASSERT_EQ(r.kind, CodeRunResult::Kind::None) << r.error;
  EXPECT_EQ(r.student[0].value_json, "\"two\"");
}

TEST(SandboxRunnerIsolation, ValuesNodeCannotHoldStayTheirOwnFailure) {
  // Past node's JSON depth, lone surrogates, cycles, BigInt: each is its own verdict, read
  // back as valid UTF-8, and the correct program after it passes.
  SandboxRunner run(DTX_SANDBOX_HOST);
  Pack p = must_load(pack_with(kPack));
  const char* good = "function ringTime(M, N, bw) { return 2*(N-1)*(M/N)/bw*1000; }";
  for (const char* body : {"let a = []; for (let i = 0; i < 4500; i++) a = [a]; return a;",
                           "let a = []; for (let i = 0; i < 100000; i++) a = [a]; return a;",
                           "return ['\\ud800', {['\\udc00']: 1}];", "const o = {}; o.o = o; return o;", "return [1n];",
                           "throw new Error('x'.repeat(399) + '\\ud83d\\ude00');", "throw new Error('\\ud800' + 'x'.repeat(1e6));"}) {
    Feedback f = grade_code(inst_of(p), std::string("function ringTime() { ") + body + " }", run);
    EXPECT_NE(f.verdict, Verdict::Correct) << body;
    EXPECT_EQ(f.message.find("unreadable"), std::string::npos) << body << ": " << f.message;
    EXPECT_EQ(f.message.find("Assertion"), std::string::npos) << body << ": " << f.message;
    for (const auto& c : f.cases) {
      EXPECT_TRUE(valid_utf8(c.message) && valid_utf8(c.got)) << body;
      EXPECT_LT(c.message.size(), 600u) << body;
    }
    Feedback g = grade_code(inst_of(p), good, run);
    EXPECT_EQ(g.verdict, Verdict::Correct) << "after " << body << ": " << g.message;
  }
}

TEST(SandboxRunnerIsolation, SortWithoutAComparatorStopsAtTheDeadline) {
  // The default order is compared in JavaScript, so the interrupt stops a sort at the limit;
  // the built-in's C comparison never polls it, and one sort of 150,000 strings of 1,000
  // characters that differ nowhere (seconds) ran on past the limit. (The interrupt is polled
  // every 10,000 calls or so; each comparison here takes microseconds.)
  SandboxRunner run(DTX_SANDBOX_HOST);
  run.grace_ms = 8000;
  Pack p = must_load(pack_with(kPack));
  ASSERT_EQ(grade_code(inst_of(p), "function ringTime() { return [10, 9, 1].sort().concat(['b', undefined, 'a'].sort()); }", run)
                .cases.at(0).got,
            "[1,10,9,\"a\",\"b\",null]");  // the default order, and a started host
  CodeRunRequest req = make_code_request(inst_of(p), "function ringTime() { const s = 'x'.repeat(1e3), t = 'x'.repeat(1e3);\n"
      "  const a = new Array(150000).fill(s).fill(t, 75000);\n  for (;;) a.sort(); }");
  req.time_limit_ms = 200;
  auto t0 = std::chrono::steady_clock::now();
  CodeRunResult r = run.run(req);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(r.kind, CodeRunResult::Kind::Timeout) << r.error;
  EXPECT_LT(s, 1.2);
}

TEST(SandboxRunnerIsolation, ALoneSurrogateDoesNotMakeTheResultUnreadable) {
  // JavaScript escapes a lone surrogate as \ud800, which is no character: it is read as U+FFFD
  // and the rest of the result stays; pairs, and escaped backslashes before a 'u', are kept.
  CodeRunResult r = code_result_from_json(
      R"({"student":[{"ok":true,"value":"a\ud800b"},{"ok":true,"value":["\ud83d\ude00","\\ud800"]},)"
      R"({"ok":false,"error":"x\udc00"}],"line":1e300})");
  ASSERT_EQ(r.kind, CodeRunResult::Kind::None) << r.error;
  ASSERT_EQ(r.student.size(), 3u);
  EXPECT_EQ(r.student[0].value_json, "\"a\xEF\xBF\xBD" "b\"");
  EXPECT_EQ(r.student[1].value_json, "[\"\xF0\x9F\x98\x80\",\"\\\\ud800\"]");
  EXPECT_EQ(r.student[2].error, "x\xEF\xBF\xBD");
  EXPECT_EQ(r.error_line, 0);
}
