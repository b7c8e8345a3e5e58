// Runs untrusted JavaScript for the CLI (dtx grade, dtx lint, the tests): every request goes to
// one long-lived node process that hosts the QuickJS sandbox (cli/sandbox-host.js, bundled to
// dtx-sandbox-host.cjs next to quickjs.wasm). One process per run, not one per request: a
// thousand submissions cost a thousand interpreter runtimes, not a thousand node starts.
//
// Each request's grading is isolated from the next whatever the code returns or does: after
// any result that is not a clean answer (a time-out, a memory or runtime failure of the whole
// program, an unreadable line, no line at all) the host is stopped and the next request gets
// a fresh one; a host found dead before a request is replaced; and when the exchange breaks
// on a host that had already served a request, the request is retried once on a fresh host,
// so only a request that breaks a fresh host gets the failure.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>

#include "code_runner.h"

namespace dtx {

class SandboxRunner : public CodeRunner {
 public:
  // `host` is dtx-sandbox-host.cjs; empty = $DTX_SANDBOX_HOST, else next to the executable
  // (sandbox/ beside it, or ../sandbox/ as in build/native/../sandbox).
  explicit SandboxRunner(std::string host = "");
  ~SandboxRunner() override;
  SandboxRunner(const SandboxRunner&) = delete;
  SandboxRunner& operator=(const SandboxRunner&) = delete;

  CodeRunResult run(const CodeRunRequest& request) override;
  bool available() const;
  const std::string& host_path() const { return host_; }
  int runs() const { return runs_; }
  int host_starts() const { return starts_; }
  pid_t host_pid() const { return pid_; }  // -1 when no host is running
  // Extra time past the request's own limit before the host is killed from outside; the
  // interpreter's interrupt stops ordinary code at the limit, this catches built-ins that
  // never poll it (and a host that hangs).
  double grace_ms = 1500;
  // When set, replaces every request's own time limit (dtx --time-limit).
  std::optional<double> time_limit_ms;

 private:
  enum class Exchange { Answered, TimedOut, Broken };

  bool start(std::string* error);
  void stop();
  // False once the host has exited or has written something unasked (it is stopped then).
  bool host_alive();
  // Writes one request line and reads the answer line before `deadline_ms`.
  Exchange exchange(const std::string& request_line, double deadline_ms, std::string* answer);
  // Reads one line from the host before `deadline_ms` (steady clock); false on time-out,
  // end of file or a line longer than the cap.
  bool read_line(std::string* line, double deadline_ms, bool* timed_out);

  std::string host_;
  pid_t pid_ = -1;
  int to_host_ = -1, from_host_ = -1;
  std::string pending_;  // bytes read past the last line
  int runs_ = 0, starts_ = 0;
  int served_ = 0;  // requests answered by the running host
};

}  // namespace dtx
