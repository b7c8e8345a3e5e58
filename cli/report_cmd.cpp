#include "report_cmd.h"

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <cstdio>
#include <unistd.h>
#include <sstream>

#include "assignment.h"
#include "files.h"
#include "gradebook.h"
#include "report.h"
#include "sandbox_runner.h"
#include "sha256.h"
#include "text_escape.h"

namespace dtx::cli {

namespace {

constexpr int kUsage = 2;

const char* kReportHelp =
    "usage: dtx report ASSIGNMENT SUBMISSION... [--packs PATH] [--csv FILE] [--items] [--now TIME]\n"
    "                  [--time-limit MS] [--format plain|canvas|moodle --roster ROSTER.csv]\n"
    "                  [--column NAME] [--missing zero|blank] [--flags FILE]\n"
    "                  [--packs-history DIR [--git]]\n"
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
    "  --format F   the gradebook's form: plain (above), canvas or moodle, which need --roster\n"
    "  --roster R   the LMS's own export: Canvas's gradebook export, or Moodle's participants\n"
    "               export. Every roster student gets a row with the assignment's total in one\n"
    "               column (Canvas: its identifying columns copied; Moodle: the identifier);\n"
    "               one with no file gets 0 (--missing blank: an empty cell), and files whose\n"
    "               identifier is in no row are listed with the closest roster identifier\n"
    "  --column N   the assignment's column (default: the roster's \"<title> (...)\" column,\n"
    "               else \"<title> (<id>)\")\n"
    "  --flags FILE the report's flags as \"student,flag\" rows (default with --csv: FILE's\n"
    "               name with -flags.csv)\n"
    "  --packs-history DIR  earlier versions of the packs: a folder of pack files (any names),\n"
    "               or with --git a git repository, every version of every .json file in its\n"
    "               history. An attempt made on an earlier version (its pack_sha256) is graded\n"
    "               on that version; the report says, once per pack, whose score the current\n"
    "               version would change, or that the version is missing\n"
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

std::optional<Assignment> checked_assignment(const std::string& file, const Library& course, const std::string& refusal,
                                             std::string* text_out) {
  std::string text;
  if (!read_file(file, &text)) {
    std::cerr << file << ": error[E001]: cannot read this file\n";
    return std::nullopt;
  }
  AssignmentLoad load = load_assignment(text, file);
  std::vector<Diagnostic> adiag = load.diagnostics;
  if (load.assignment) {
    auto more = lint_assignment(*load.assignment, text, course);
    adiag.insert(adiag.end(), more.begin(), more.end());
    auto packs = lint_assignment_packs(*load.assignment, course);
    adiag.insert(adiag.end(), packs.begin(), packs.end());
  }
  bool bad = false;
  for (const auto& d : adiag)
    if (d.severity == Severity::Error) {
      std::cerr << format_diagnostic(d) << "\n";
      bad = true;
    }
  if (!load.assignment || bad) {
    std::cerr << refusal << "\n";
    return std::nullopt;
  }
  if (text_out) *text_out = std::move(text);
  return load.assignment;
}

namespace {

// What the command line asks for; `exit` is set when it is already answered (help, a usage error).
struct ReportArgs {
  std::vector<std::string> positional, packs;
  std::string csv_path, roster_path, flags_path, history_path;
  bool git_history = false;
  GradebookOptions gradebook;
  bool items = false;
  std::optional<double> time_limit;
  int64_t now = static_cast<int64_t>(std::time(nullptr));
  std::optional<int> exit;
};

// One option's value; false (with the error printed) when it does not read.
bool report_option(ReportArgs& r, const std::string& s, const std::string& v) {
  if (s == "--csv") {
    r.csv_path = v;
  } else if (s == "--packs-history") {
    r.history_path = v;
  } else if (s == "--roster") {
    r.roster_path = v;
  } else if (s == "--flags") {
    r.flags_path = v;
  } else if (s == "--column") {
    r.gradebook.column = v;
  } else if (s == "--missing") {
    if (v != "zero" && v != "blank") {
      std::cerr << "dtx report: --missing expects zero or blank, got '" << terminal_safe(v) << "'\n";
      return false;
    }
    r.gradebook.blank_for_missing = v == "blank";
  } else if (s == "--format") {
    auto f = gradebook_format(v);
    if (!f) {
      std::cerr << "dtx report: --format expects plain, canvas or moodle, got '" << terminal_safe(v) << "'\n";
      return false;
    }
    r.gradebook.format = *f;
  } else if (s == "--now") {
    int off = 0;
    if (!parse_datetime(v, &r.now, &off)) {
      std::cerr << "dtx report: --now expects a time like 2026-12-10T09:00:00Z, got '" << v << "'\n";
      return false;
    }
  } else if (s == "--packs") {
    r.packs.push_back(v);
  } else {
    char* end = nullptr;
    double ms = std::strtod(v.c_str(), &end);
    if (v.empty() || *end || !(ms >= 10 && ms <= 60000)) {
      std::cerr << "dtx report: --time-limit expects milliseconds from 10 to 60000, got '" << v << "'\n";
      return false;
    }
    r.time_limit = ms;
  }
  return true;
}

ReportArgs parse_report_args(const std::vector<std::string>& args) {
  ReportArgs r;
  for (size_t i = 0; i < args.size() && !r.exit; ++i) {
    const std::string& s = args[i];
    if (s == "--help" || s == "-h") {
      std::cout << kReportHelp;
      r.exit = 0;
    } else if (s == "--items") {
      r.items = true;
    } else if (s == "--git") {
      r.git_history = true;
    } else if (s == "--csv" || s == "--packs" || s == "--time-limit" || s == "--now" || s == "--roster" ||
               s == "--flags" || s == "--column" || s == "--missing" || s == "--format" || s == "--packs-history") {
      if (i + 1 >= args.size()) {
        std::cerr << "dtx report: " << s << " needs a value\n";
        r.exit = kUsage;
      } else if (!report_option(r, s, args[++i])) {
        r.exit = kUsage;
      }
    } else if (s.size() > 1 && s[0] == '-' && s[1] == '-') {
      std::cerr << "dtx report: unknown option " << s << "\n" << kReportHelp;
      r.exit = kUsage;
    } else {
      r.positional.push_back(s);
    }
  }
  if (!r.exit && r.positional.size() < 2) {
    std::cerr << "dtx report: give the assignment file and at least one submission file or folder\n" << kReportHelp;
    r.exit = kUsage;
  }
  if (!r.exit && r.gradebook.format != GradebookFormat::Plain && (r.roster_path.empty() || r.csv_path.empty())) {
    std::cerr << "dtx report: --format canvas and moodle fill the LMS's own roster: give --roster ROSTER.csv and --csv FILE\n";
    r.exit = kUsage;
  }
  if (!r.exit && r.git_history && r.history_path.empty()) {
    std::cerr << "dtx report: --git reads the history of --packs-history REPO; give the repository\n";
    r.exit = kUsage;
  }
  if (r.flags_path.empty() && !r.csv_path.empty()) {
    const std::string stem = r.csv_path.size() > 4 && r.csv_path.substr(r.csv_path.size() - 4) == ".csv"
                                 ? r.csv_path.substr(0, r.csv_path.size() - 4) : r.csv_path;
    r.flags_path = stem + "-flags.csv";
  }
  if (r.packs.empty()) r.packs.push_back(std::getenv("DTX_EXERCISES") ? std::getenv("DTX_EXERCISES") : "exercises");
  return r;
}

// Submission files: given ones as they are, folders searched for *.json (an assignment file
// found there, such as the one being reported on, is not a submission). Unreadable ones are
// listed in `missing`.
std::vector<ReportInput> collect_submissions(const std::vector<std::string>& paths, std::vector<std::string>& missing) {
  namespace fs = std::filesystem;
  std::vector<ReportInput> inputs;
  for (const auto& path : paths) {
    std::error_code ec;
    std::vector<std::string> found;
    if (fs::is_directory(path, ec)) {
      for (auto it = fs::recursive_directory_iterator(path, ec); !ec && it != fs::recursive_directory_iterator();
           it.increment(ec))
        if (it->is_regular_file() && it->path().extension() == ".json") found.push_back(it->path().string());
      std::sort(found.begin(), found.end());
    } else {
      found.push_back(path);
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
  return inputs;
}

// Every version of every .json file a git repository's history holds (git log's blob ids,
// then their texts from one `git cat-file --batch`). nullopt with the reason printed when git
// cannot read it.
std::optional<std::vector<PackSource>> git_versions(const std::string& repo) {
  namespace fs = std::filesystem;
  const std::string q = "'" + repo + "'";
  if (repo.find('\'') != std::string::npos) {
    std::cerr << "dtx report: --packs-history: a repository path with a quote is not supported\n";
    return std::nullopt;
  }
  std::set<std::string> blobs;
  {
    FILE* log = popen(("git -C " + q + " log --all --format= --raw --no-abbrev --no-renames -- '*.json' 2>/dev/null").c_str(), "r");
    if (!log) return std::nullopt;
    char line[4096];
    while (std::fgets(line, sizeof line, log)) {
      std::string l = line;  // ":100644 100644 OLD NEW M\tpath"
      if (l.size() < 100 || l[0] != ':') continue;
      std::istringstream in(l.substr(1));
      std::string mode_a, mode_b, old_blob, new_blob;
      in >> mode_a >> mode_b >> old_blob >> new_blob;
      for (const auto& b : {old_blob, new_blob})
        if (b.size() == 40 && b != std::string(40, '0')) blobs.insert(b);
    }
    if (pclose(log) != 0) {
      std::cerr << "dtx report: --packs-history " << terminal_safe(repo) << " --git: git cannot read its history\n";
      return std::nullopt;
    }
  }
  const fs::path list = fs::temp_directory_path() / ("dtx-blobs-" + std::to_string(::getpid()));
  {
    std::ofstream out(list);
    for (const auto& b : blobs) out << b << "\n";
  }
  std::vector<PackSource> out;
  FILE* cat = popen(("git -C " + q + " cat-file --batch < '" + list.string() + "'").c_str(), "r");
  if (!cat) return std::nullopt;
  char head[256];
  while (std::fgets(head, sizeof head, cat)) {  // "<blob> blob <size>"
    std::istringstream in(head);
    std::string id, type;
    size_t size = 0;
    if (!(in >> id >> type >> size)) break;
    std::string text(size, '\0');
    if (std::fread(text.data(), 1, size, cat) != size) break;
    std::fgetc(cat);  // the newline after the contents
    out.push_back({repo + "@" + id.substr(0, 12), std::move(text)});
  }
  pclose(cat);
  fs::remove(list);
  return out;
}

// The history's pack texts by their SHA-256.
std::optional<std::map<std::string, PackSource>> read_history(const ReportArgs& a) {
  std::vector<PackSource> versions;
  if (a.git_history) {
    auto v = git_versions(a.history_path);
    if (!v) return std::nullopt;
    versions = std::move(*v);
  } else {
    std::vector<Diagnostic> problems;
    versions = collect_packs({a.history_path}, &problems);
    for (const auto& d : problems) std::cerr << format_diagnostic(d) << "\n";
    if (!problems.empty() && versions.empty()) return std::nullopt;
  }
  std::map<std::string, PackSource> out;
  for (auto& v : versions) out.emplace(sha256_hex(v.text), std::move(v));
  std::cerr << "dtx report: " << out.size() << " earlier pack text" << (out.size() == 1 ? "" : "s") << " in "
            << terminal_safe(a.history_path) << "\n";
  return out;
}

bool write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (out) return true;
  std::cerr << "dtx report: cannot write " << terminal_safe(path) << "\n";
  return false;
}

// The gradebook (in the LMS's form when a roster is given) and the flags beside it.
int write_gradebooks(ReportArgs& a, const Report& r) {
  std::optional<Roster> roster;
  if (!a.roster_path.empty()) {
    std::string text;
    if (!read_file(a.roster_path, &text)) {
      std::cerr << terminal_safe(a.roster_path) << ": error[E001]: cannot read this file\n";
      return kUsage;
    }
    RosterRead rr = read_roster(text, a.roster_path, a.gradebook.format);
    for (const auto& d : rr.diagnostics) std::cerr << format_diagnostic(d) << "\n";
    if (!rr.roster) return kUsage;
    roster = std::move(rr.roster);
    a.gradebook.roster = &*roster;
  }
  Gradebook g = make_gradebook(r, a.gradebook);
  std::cout << roster_summary(g);
  if (!write_text(a.csv_path, g.csv) || !write_text(a.flags_path, g.flags_csv)) return kUsage;
  const size_t rows = roster ? roster->students.size() : r.students.size();
  std::cerr << "dtx report: wrote " << terminal_safe(a.csv_path) << " (" << rows << " students) and "
            << terminal_safe(a.flags_path) << "\n";
  return r.unreadable.empty() && g.unmatched.empty() ? 0 : 1;
}

}  // namespace

int cmd_report(const std::vector<std::string>& args) {
  ReportArgs a = parse_report_args(args);
  if (a.exit) return *a.exit;
  std::vector<Diagnostic> problems;
  auto sources = collect_packs(a.packs, &problems);
  LoadCache cache;
  Library course = load_library(sources, cache);
  for (const auto& d : problems) std::cerr << format_diagnostic(d) << "\n";
  for (const auto& d : course.diagnostics)
    if (d.severity == Severity::Error) std::cerr << format_diagnostic(d) << "\n";
  std::optional<Assignment> assignment = checked_assignment(a.positional[0], course, "dtx report: the assignment has errors; nothing graded");
  if (!assignment) return kUsage;

  ReportOptions options;
  for (const auto& s : sources) options.pack_sha256[base_name(s.file)] = sha256_hex(s.text);
  options.now = a.now;
  if (!a.history_path.empty()) {
    auto history = read_history(a);
    if (!history) return kUsage;
    options.history = std::move(*history);
  }
  SandboxRunner runner;
  if (a.time_limit) runner.time_limit_ms = a.time_limit;
  if (runner.available()) options.services.runner = &runner;

  std::vector<std::string> missing;
  auto inputs = collect_submissions({a.positional.begin() + 1, a.positional.end()}, missing);
  Report r = make_report(*assignment, course, inputs, options);
  for (const auto& m : missing) r.unreadable.push_back({"", {m}});
  std::cout << report_table(r);
  if (a.items) std::cout << "\n" << report_items(r);
  if (!a.csv_path.empty()) return write_gradebooks(a, r);
  return r.unreadable.empty() ? 0 : 1;
}

}  // namespace dtx::cli
