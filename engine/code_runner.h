// Running a student's program: the request the engine makes and the result a runner gives
// back, and their JSON form, which the page's worker (web/shell/code-runner.js) and the CLI's
// host (cli/sandbox_runner.cpp) speak. Running JavaScript is not the engine's job: both
// runners run it in the same QuickJS-in-WebAssembly sandbox (sandbox/sandbox-core.js), and a
// type whose answers are programs (TypeSpec::answer_is_program) makes the request.
#pragma once

#include <string>
#include <vector>

namespace dtx {

struct CodeRunRequest {
  std::string language = "javascript";
  std::string function;
  std::string source;     // the student's code
  std::string reference;  // run too when some case has no expected value yet
  std::vector<std::vector<std::string>> cases;  // each argument as JSON text
  double time_limit_ms = 2000;                  // for the whole submission
};

struct CodeCaseOutcome {
  bool ok = false;
  std::string value_json;  // JSON of the returned value ("NaN"/"Infinity" as strings)
  std::string error;       // runtime error with its line, when !ok
};

struct CodeRunResult {
  // A problem with the whole program: syntax error, function missing, time limit.
  std::string error;
  int error_line = 0;
  // Timeout and Memory: the sandbox's limits (sandbox/sandbox-core.js) stopped the program.
  enum class Kind { None, Syntax, Missing, Timeout, Memory, Runtime } kind = Kind::None;
  std::vector<CodeCaseOutcome> student, reference;
};

std::string code_request_to_json(const CodeRunRequest& r);
// Lenient reader: malformed runner output becomes a result with an error, never a throw.
CodeRunResult code_result_from_json(const std::string& text);
// The result as a runner sends it (what code_result_from_json reads back).
std::string code_result_to_json(const CodeRunResult& r);

class CodeRunner {
 public:
  virtual ~CodeRunner() = default;
  virtual CodeRunResult run(const CodeRunRequest& request) = 0;
};

}  // namespace dtx
