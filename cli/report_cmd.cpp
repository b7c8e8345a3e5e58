#include "report_cmd.h"

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>

#include "assignment.h"
#include "files.h"
#include "report.h"
#include "sandbox_runner.h"
#include "sha256.h"

namespace dtx::cli {

namespace {

constexpr int kUsage = 2;

const char* kReportHelp =
    "usage: dtx report ASSIGNMENT SUBMISSION... [--packs PATH] [--csv FILE] [--items] [--now TIME]\n"
    "                  [--time-limit MS]\n"
    "\n"
    "Grades an assignment from the submission files students downloaded from the page\n"
    "(\"Download my submission\"). SUBMISSION may be files or folders (searched for *.json).\n"
    "Every attempt is graded again by the engine against the course's packs (--packs PATH,\n"
    "$DTX_EXERCISES, or exercises/); the verdicts written in a file are never trusted.\n"
    "\n"
    "A student's score for an exercise is the best score of the attempts that count, times\n"
    "the exercise's points. An attempt counts when it is on the student's own numbers, made\n"
    "by the due date and within the attempt limit. The table flags, per student: attempts on\n"
    "another student's numbers (copied), late attempts, attempts beyond the limit, verdicts\n"
    "the engine does not confirm, and packs that changed since an attempt. A file that cannot\n"
    "be read is named and skipped; the others are graded. Attempts that cannot count are not\n"
    "run.\n"
    "\n"
    "Each file is graded alone: its attempts in the order it lists them, its own attempt\n"
    "limit, and a student's result per exercise is the best of their files'. A file in\n"
    "someone else's name cannot lower their grade; two files claiming one student are both\n"
    "flagged (a WARNING line, '!' on the row, the CSV's flag column).\n"
    "\n"
    "  --csv FILE   also write the gradebook: a header row\n"
    "               \"student,<exercise id>...,total,flag\", then one row per student with\n"
    "               points per exercise, the total and a flag (empty, or which files claim them)\n"
    "               (comma-separated, \".\" decimals, CRLF line ends; docs/AUTHORING.md says how\n"
    "               to import it into Moodle and Canvas)\n"
    "  --now TIME   the report's time (\"2026-12-10T09:00:00Z\"; default: now): attempts dated\n"
    "               more than a day after it are flagged (a computer's clock set wrong)\n"
    "  --items      per exercise: attempts, share solved, median attempts to solve, and the\n"
    "               most common wrong answers with the engine's diagnosis of each\n"
    "\n"
    "Exit status: 0 when every file was read, 1 when some could not be, 2 on a usage error.\n";

std::string base_name(const std::string& p) { return std::filesystem::path(p).filename().string(); }

}  // namespace

void lint_assignment_files(const std::vector<PackSource>& files, const Library& course, std::vector<Diagnostic>& out) {
  for (const auto& f : files) {
    AssignmentLoad load = load_assignment(f.text, f.file);
    out.insert(out.end(), load.diagnostics.begin(), load.diagnostics.end());
    if (!load.assignment) continue;
    auto more = lint_assignment(*load.assignment, f.text, course);
    out.insert(out.end(), more.begin(), more.end());
  }
}

int cmd_report(const std::vector<std::string>& args) {
  std::vector<std::string> positional, packs;
  std::string csv_path;
  bool items = false;
  std::optional<double> time_limit;
  int64_t now = static_cast<int64_t>(std::time(nullptr));
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& s = args[i];
    if (s == "--help" || s == "-h") {
      std::cout << kReportHelp;
      return 0;
    } else if (s == "--items") {
      items = true;
    } else if (s == "--csv" || s == "--packs" || s == "--time-limit" || s == "--now") {
      if (i + 1 >= args.size()) {
        std::cerr << "dtx report: " << s << " needs a value\n";
        return kUsage;
      }
      const std::string& v = args[++i];
      if (s == "--csv") csv_path = v;
      else if (s == "--now") {
        int off = 0;
        if (!parse_datetime(v, &now, &off)) {
          std::cerr << "dtx report: --now expects a time like 2026-12-10T09:00:00Z, got '" << v << "'\n";
          return kUsage;
        }
      }
      else if (s == "--packs") packs.push_back(v);
      else {
        char* end = nullptr;
        double ms = std::strtod(v.c_str(), &end);
        if (v.empty() || *end || !(ms >= 10 && ms <= 60000)) {
          std::cerr << "dtx report: --time-limit expects milliseconds from 10 to 60000, got '" << v << "'\n";
          return kUsage;
        }
        time_limit = ms;
      }
    } else if (s.size() > 1 && s[0] == '-' && s[1] == '-') {
      std::cerr << "dtx report: unknown option " << s << "\n" << kReportHelp;
      return kUsage;
    } else {
      positional.push_back(s);
    }
  }
  if (positional.size() < 2) {
    std::cerr << "dtx report: give the assignment file and at least one submission file or folder\n" << kReportHelp;
    return kUsage;
  }
  // The assignment: it must read and check cleanly, or no grade would mean anything.
  std::string text;
  if (!read_file(positional[0], &text)) {
    std::cerr << positional[0] << ": error[E001]: cannot read this file\n";
    return kUsage;
  }
  AssignmentLoad load = load_assignment(text, positional[0]);
  if (packs.empty()) {
    if (const char* env = std::getenv("DTX_EXERCISES")) packs.push_back(env);
    else packs.push_back("exercises");
  }
  std::vector<Diagnostic> problems;
  auto sources = collect_packs(packs, &problems);
  LoadCache cache;
  Library course = load_library(sources, cache);
  for (const auto& d : problems) std::cerr << format_diagnostic(d) << "\n";
  for (const auto& d : course.diagnostics)
    if (d.severity == Severity::Error) std::cerr << format_diagnostic(d) << "\n";
  std::vector<Diagnostic> adiag = load.diagnostics;
  if (load.assignment) {
    auto more = lint_assignment(*load.assignment, text, course);
    adiag.insert(adiag.end(), more.begin(), more.end());
  }
  bool bad = false;
  for (const auto& d : adiag)
    if (d.severity == Severity::Error) {
      std::cerr << format_diagnostic(d) << "\n";
      bad = true;
    }
  if (!load.assignment || bad) {
    std::cerr << "dtx report: the assignment has errors; nothing graded\n";
    return kUsage;
  }
  ReportOptions options;
  for (const auto& s : sources) options.pack_sha256[base_name(s.file)] = sha256_hex(s.text);
  options.now = now;
  SandboxRunner runner;
  if (time_limit) runner.time_limit_ms = time_limit;
  if (runner.available()) options.services.runner = &runner;

  // Submission files: given ones as they are, folders searched for *.json (an assignment
  // file found there, such as the one being reported on, is not a submission).
  std::vector<ReportInput> inputs;
  std::vector<std::string> missing;
  for (size_t i = 1; i < positional.size(); ++i) {
    namespace fs = std::filesystem;
    std::error_code ec;
    std::vector<std::string> found;
    if (fs::is_directory(positional[i], ec)) {
      for (auto it = fs::recursive_directory_iterator(positional[i], ec); !ec && it != fs::recursive_directory_iterator();
           it.increment(ec))
        if (it->is_regular_file() && it->path().extension() == ".json") found.push_back(it->path().string());
      std::sort(found.begin(), found.end());
    } else {
      found.push_back(positional[i]);
    }
    for (const auto& f : found) {
      ReportInput in{f, {}};
      if (!read_file(f, &in.text)) {
        missing.push_back(f + ": error[E001]: cannot read this file");
        continue;
      }
      if (looks_like_assignment(in.text)) continue;
      inputs.push_back(std::move(in));
    }
  }
  Report r = make_report(*load.assignment, course, inputs, options);
  for (const auto& m : missing) r.unreadable.push_back({"", {m}});
  std::cout << report_table(r);
  if (items) std::cout << "\n" << report_items(r);
  if (!csv_path.empty()) {
    std::ofstream out(csv_path, std::ios::binary);
    out << report_csv(r);
    if (!out) {
      std::cerr << "dtx report: cannot write " << csv_path << "\n";
      return kUsage;
    }
    std::cerr << "dtx report: wrote " << csv_path << " (" << r.students.size() << " students)\n";
  }
  return r.unreadable.empty() ? 0 : 1;
}

}  // namespace dtx::cli
