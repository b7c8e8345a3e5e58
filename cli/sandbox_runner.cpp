#include "sandbox_runner.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

namespace dtx {

namespace fs = std::filesystem;

namespace {

constexpr size_t kMaxLineBytes = 8u << 20;  // a result larger than this is refused, not parsed
constexpr double kStartMs = 20000;          // node start + wasm compile, on a loaded machine

double now_ms() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

CodeRunResult failure(CodeRunResult::Kind kind, std::string message) {
  CodeRunResult r;
  r.kind = kind;
  r.error = std::move(message);
  return r;
}

// node 20 names its permission model --experimental-permission, node 22+ --permission (the
// old name stays an alias there); before 20 there is none and the sandbox alone holds.
std::string permission_flag() {
  static std::string flag = [] {
    std::string out;
    if (FILE* p = ::popen("node --version 2>/dev/null", "r")) {
      char buf[64];
      while (std::fgets(buf, sizeof buf, p)) out += buf;
      ::pclose(p);
    }
    int major = out.size() > 1 && out[0] == 'v' ? std::atoi(out.c_str() + 1) : 0;
    return major >= 22 ? std::string("--permission") : major >= 20 ? std::string("--experimental-permission") : std::string();
  }();
  return flag;
}

}  // namespace

SandboxRunner::SandboxRunner(std::string host) : host_(std::move(host)) {
  if (host_.empty()) {
    if (const char* env = std::getenv("DTX_SANDBOX_HOST")) host_ = env;
  }
  if (host_.empty()) {
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
      for (fs::path dir : {exe.parent_path() / "sandbox", exe.parent_path().parent_path() / "sandbox"}) {
        if (fs::exists(dir / "dtx-sandbox-host.cjs", ec)) {
          host_ = (dir / "dtx-sandbox-host.cjs").string();
          break;
        }
      }
    }
  }
  // A broken pipe to a killed host must be an error return, not the end of dtx.
  ::signal(SIGPIPE, SIG_IGN);
}

SandboxRunner::~SandboxRunner() { stop(); }

bool SandboxRunner::available() const {
  std::error_code ec;
  return !host_.empty() && fs::exists(host_, ec) && std::system("command -v node >/dev/null 2>&1") == 0;
}

void SandboxRunner::stop() {
  if (to_host_ >= 0) ::close(to_host_);
  if (from_host_ >= 0) ::close(from_host_);
  to_host_ = from_host_ = -1;
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  pid_ = -1;
  served_ = 0;
  pending_.clear();
}

bool SandboxRunner::start(std::string* error) {
  stop();
  int in[2], out[2];
  if (::pipe2(in, O_CLOEXEC) != 0) return *error = "cannot create a pipe for the code runner", false;
  if (::pipe2(out, O_CLOEXEC) != 0) {
    ::close(in[0]);
    ::close(in[1]);
    return *error = "cannot create a pipe for the code runner", false;
  }
  fs::path host = fs::absolute(host_);
  std::string dir = host.parent_path().string() + "/";
  std::string flag = permission_flag();
  // The host may read its own folder (the bundle and quickjs.wasm) and nothing else; with the
  // permission model it cannot write files, start processes or workers either.
  std::vector<std::string> args = {"node"};
  if (!flag.empty()) {
    args.push_back(flag);
    args.push_back("--allow-fs-read=" + dir);
  }
  args.insert(args.end(), {"--no-warnings", "--disallow-code-generation-from-strings", host.string()});
  std::vector<char*> argv;
  for (auto& s : args) argv.push_back(s.data());
  argv.push_back(nullptr);
  pid_t pid = ::fork();
  if (pid < 0) {
    for (int fd : {in[0], in[1], out[0], out[1]}) ::close(fd);
    return *error = "cannot start the code runner (fork failed)", false;
  }
  if (pid == 0) {
    ::dup2(in[0], 0);
    ::dup2(out[1], 1);
    int devnull = ::open("/dev/null", O_WRONLY);
    if (devnull >= 0) ::dup2(devnull, 2);
    if (::chdir(dir.c_str()) != 0) _exit(127);
    // No inherited environment: nothing of the grader's (tokens, paths) is visible to the host.
    const char* path = std::getenv("PATH");
    std::string path_var = std::string("PATH=") + (path ? path : "/usr/bin:/bin");
    char* envp[] = {path_var.data(), nullptr};
    ::execvpe("node", argv.data(), envp);
    _exit(127);
  }
  ::close(in[0]);
  ::close(out[1]);
  pid_ = pid;
  to_host_ = in[1];
  from_host_ = out[0];
  ++starts_;
  std::string line;
  bool timed_out = false;
  if (!read_line(&line, now_ms() + kStartMs, &timed_out) || line.find("\"ready\"") == std::string::npos) {
    *error = timed_out ? "the code runner did not start in time" : "the code runner could not start: " + line.substr(0, 300);
    stop();
    return false;
  }
  return true;
}

bool SandboxRunner::read_line(std::string* line, double deadline_ms, bool* timed_out) {
  *timed_out = false;
  for (;;) {
    if (auto nl = pending_.find('\n'); nl != std::string::npos) {
      *line = pending_.substr(0, nl);
      pending_.erase(0, nl + 1);
      return true;
    }
    if (pending_.size() > kMaxLineBytes) return false;
    double left = deadline_ms - now_ms();
    if (left <= 0) {
      *timed_out = true;
      return false;
    }
    pollfd p{from_host_, POLLIN, 0};
    int r = ::poll(&p, 1, static_cast<int>(left) + 1);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) continue;  // the deadline check above ends the wait
    char buf[65536];
    ssize_t n = ::read(from_host_, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;  // the host exited
    pending_.append(buf, static_cast<size_t>(n));
  }
}

bool SandboxRunner::host_alive() {
  if (pid_ <= 0) return false;
  if (::waitpid(pid_, nullptr, WNOHANG) != 0) {
    pid_ = -1;  // reaped (or not ours to wait for): never signal that id again
    stop();
    return false;
  }
  // Between requests the host has nothing to say: anything it wrote unasked (a second answer
  // to the last request) would be read as the next request's answer, so that host goes.
  pollfd p{from_host_, POLLIN, 0};
  if (!pending_.empty() || ::poll(&p, 1, 0) != 0) {
    stop();
    return false;
  }
  return true;
}

SandboxRunner::Exchange SandboxRunner::exchange(const std::string& request_line, double deadline_ms, std::string* answer) {
  for (size_t off = 0; off < request_line.size();) {
    ssize_t n = ::write(to_host_, request_line.data() + off, request_line.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Exchange::Broken;
    off += static_cast<size_t>(n);
  }
  bool timed_out = false;
  if (read_line(answer, deadline_ms, &timed_out)) return Exchange::Answered;
  return timed_out ? Exchange::TimedOut : Exchange::Broken;
}

CodeRunResult SandboxRunner::run(const CodeRunRequest& given) {
  ++runs_;
  CodeRunRequest request = given;
  if (time_limit_ms) request.time_limit_ms = *time_limit_ms;
  const std::string line = code_request_to_json(request) + "\n";
  // The student's program and the reference each have the limit; past both plus the grace,
  // the host is killed whatever it is doing.
  const double limit = request.time_limit_ms * (request.reference.empty() ? 1 : 2);
  for (int attempt = 0;; ++attempt) {
    std::string error;
    if (!host_alive() && !start(&error)) return failure(CodeRunResult::Kind::Runtime, error);
    const bool used = served_ > 0;
    std::string answer;
    Exchange x = exchange(line, now_ms() + limit + grace_ms, &answer);
    if (x == Exchange::Answered) {
      ++served_;
      CodeRunResult r = code_result_from_json(answer);
      // Anything but a clean answer may have left the host in a state the next program
      // should not meet (a half-written line, a dying process): the next gets a fresh one.
      bool clean = r.kind == CodeRunResult::Kind::None || r.kind == CodeRunResult::Kind::Syntax ||
                   r.kind == CodeRunResult::Kind::Missing;
      if (!clean) stop();
      return r;
    }
    stop();
    if (x == Exchange::TimedOut)
      return failure(CodeRunResult::Kind::Timeout, "time limit exceeded (" + std::to_string(static_cast<int>(request.time_limit_ms)) +
                                                       " ms); the code was stopped");
    // A host that served an earlier request may have been broken by that one: this request
    // is tried again on a fresh host, and fails only if it breaks that one too.
    if (!used || attempt > 0) return failure(CodeRunResult::Kind::Runtime, "the code runner stopped while running this program");
  }
}

}  // namespace dtx
