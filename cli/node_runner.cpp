#include "node_runner.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace dtx {

namespace fs = std::filesystem;

NodeRunner::NodeRunner(std::string script) : script_(std::move(script)) {
  if (script_.empty()) {
    if (const char* env = std::getenv("DTX_RUN_CODE_JS")) script_ = env;
  }
  if (script_.empty()) {
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) script_ = (exe.parent_path() / "run_code.js").string();
  }
}

bool NodeRunner::available() const {
  std::error_code ec;
  return fs::exists(script_, ec) && std::system("command -v node >/dev/null 2>&1") == 0;
}

CodeRunResult NodeRunner::run(const CodeRunRequest& request) {
  ++runs_;
  CodeRunResult fail;
  fail.kind = CodeRunResult::Kind::Runtime;
  char tmpl[] = "/tmp/dtx-run-XXXXXX";
  int fd = mkstemp(tmpl);
  if (fd < 0) {
    fail.error = "could not create a temporary file for the code runner";
    return fail;
  }
  std::string req = code_request_to_json(request);
  bool wrote = ::write(fd, req.data(), req.size()) == static_cast<ssize_t>(req.size());
  ::close(fd);
  if (!wrote) {
    ::unlink(tmpl);
    fail.error = "could not write the code runner's request";
    return fail;
  }
  // The vm timeout stops runaway code; `timeout` is a backstop for node itself.
  std::string cmd = "timeout 20 node '" + script_ + "' '" + tmpl + "' 2>&1";
  std::string out;
  if (FILE* p = ::popen(cmd.c_str(), "r")) {
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    ::pclose(p);
  }
  ::unlink(tmpl);
  CodeRunResult r = code_result_from_json(out);
  if (r.kind == CodeRunResult::Kind::Runtime && r.student.empty() && r.error.find("unreadable") != std::string::npos)
    r.error = "the node code runner failed: " + out.substr(0, 300);
  return r;
}

}  // namespace dtx
