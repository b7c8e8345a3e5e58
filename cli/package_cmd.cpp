// `dtx package scorm`: an assignment as a SCORM 2004 (4th edition) package an LMS imports
// (docs/AUTHORING.md, "Running a course in an LMS"). The zip holds imsmanifest.xml at its root,
// the built site (dist/) without its precompressed copies, the packs the assignment's
// exercises are in (the course's own, checked texts), and assignment.json; index.html gains
// <meta name="dtx-lms"> and <meta name="dtx-assign"> so the page opens the assignment and
// talks to the LMS (web/shell/glue/lms.js).
#include "package_cmd.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>

#include "search.h"
#include "files.h"
#include "json_fields.h"
#include "report_cmd.h"
#include "scorm.h"
#include "zip.h"

namespace dtx::cli {

namespace {

constexpr int kUsage = 2;
namespace fs = std::filesystem;

const char* kPackageHelp =
    "usage: dtx package scorm ASSIGNMENT -o FILE.zip [--site DIST] [--packs PATH]\n"
    "\n"
    "Writes the assignment as a SCORM 2004 (4th edition) package: upload the zip to Canvas,\n"
    "Moodle, Blackboard or any LMS that takes SCORM, and the LMS records each student's score.\n"
    "The student is the LMS's learner (their numbers follow the LMS's learner id), and every\n"
    "attempt is reported to the LMS as an interaction with the answer and its seed, so\n"
    "`dtx grade` can check any of them.\n"
    "\n"
    "  -o FILE.zip    where to write the package\n"
    "  --site DIST    the built site to package (default: dist, from `make dist`)\n"
    "  --packs PATH   the course the assignment is checked against and whose packs are shipped\n"
    "                 ($DTX_EXERCISES, or exercises/)\n"
    "\n"
    "Only the packs holding the assignment's exercises are shipped. The assignment must pass\n"
    "`dtx lint`; its policies.passing_score, when given, is the package's passing score.\n"
    "\n"
    "Exit status: 0 when the package was written, 1 when it could not be, 2 on a usage error.\n";

struct PackageArgs {
  std::string kind, assignment, out, site = "dist";
  std::vector<std::string> packs;
};

std::optional<PackageArgs> parse_package_args(const std::vector<std::string>& args, int* exit_code) {
  PackageArgs p;
  std::vector<std::string> positional;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& s = args[i];
    if (s == "--help" || s == "-h") {
      std::cout << kPackageHelp;
      *exit_code = 0;
      return std::nullopt;
    }
    if (s == "-o" || s == "--site" || s == "--packs") {
      if (i + 1 >= args.size()) {
        std::cerr << "dtx package: " << s << " needs a value\n";
        *exit_code = kUsage;
        return std::nullopt;
      }
      const std::string& v = args[++i];
      if (s == "-o") p.out = v;
      else if (s == "--site") p.site = v;
      else p.packs.push_back(v);
    } else if (s.size() > 1 && s[0] == '-') {
      std::cerr << "dtx package: unknown option " << s << "\n" << kPackageHelp;
      *exit_code = kUsage;
      return std::nullopt;
    } else {
      positional.push_back(s);
    }
  }
  if (positional.size() != 2 || positional[0] != "scorm" || p.out.empty()) {
    std::cerr << "dtx package: give the kind (scorm), the assignment file and -o FILE.zip\n" << kPackageHelp;
    *exit_code = kUsage;
    return std::nullopt;
  }
  p.kind = positional[0];
  p.assignment = positional[1];
  if (p.packs.empty()) p.packs.push_back(std::getenv("DTX_EXERCISES") ? std::getenv("DTX_EXERCISES") : "exercises");
  return p;
}

std::string base_name(const std::string& p) { return fs::path(p).filename().string(); }

// The site's files to ship, relative and with '/' separators: not the precompressed copies
// (an LMS serves files as they are), not the course's packs, first views, assignments or
// search index (the package brings its own), not index.html (rewritten).
std::vector<std::string> site_files(const std::string& site) {
  std::vector<std::string> out;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(site, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (!it->is_regular_file()) continue;
    std::string rel = fs::relative(it->path(), site).generic_string();
    const std::string ext = it->path().extension().string();
    if (ext == ".br" || ext == ".gz" || rel == "index.html" || rel == "search-index.json") continue;
    if (rel.rfind("exercises/", 0) == 0 && rel.rfind("exercises/img/", 0) != 0) continue;
    out.push_back(rel);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// index.html with the package's two meta tags at the top of <head>, before any script reads them.
std::optional<std::string> packaged_index(const std::string& html) {
  const size_t head = html.find("<head>");
  if (head == std::string::npos) return std::nullopt;
  std::string out = html;
  out.insert(head + 6, "\n<meta name=\"dtx-lms\" content=\"scorm2004\">\n<meta name=\"dtx-assign\" content=\"assignment.json\">");
  return out;
}

// The packs holding the assignment's exercises, in the course's order.
std::vector<const PackSource*> needed_packs(const Assignment& a, const Library& course,
                                            const std::vector<PackSource>& sources) {
  std::set<std::string> files;
  for (const auto& item : a.exercises)
    for (const auto& p : course.packs)
      for (const auto& e : p.exercises)
        if (e.id == item.id) files.insert(base_name(e.file));
  std::vector<const PackSource*> out;
  for (const auto& s : sources)
    if (files.count(base_name(s.file))) out.push_back(&s);
  return out;
}

// The outline (make dist's exercises/outline.json) of the shipped packs alone.
std::string filtered_outline(const std::string& text, const std::set<std::string>& files) {
  Json o = Json::parse(text, nullptr, false);
  if (!o.is_object() || !o.contains("packs") || !o["packs"].is_array()) return "";
  Json kept = Json::array();
  for (const auto& p : o["packs"])
    if (p.is_object() && p.contains("file") && p["file"].is_string() && files.count(p["file"].get<std::string>()))
      kept.push_back(p);
  o["packs"] = kept;
  return o.dump();
}

// Every exercise id the pack file lists (for their first views).
std::vector<std::string> pack_exercise_ids(const PackSource& pack) {
  std::vector<std::string> ids;
  Json doc = Json::parse(pack.text, nullptr, false);
  if (doc.is_object() && doc.contains("exercises") && doc["exercises"].is_array())
    for (const auto& e : doc["exercises"])
      if (e.is_object() && e.contains("id") && e["id"].is_string()) ids.push_back(e["id"].get<std::string>());
  return ids;
}

struct Contents {
  ZipWriter zip;
  std::vector<std::string> files;
  void add(const std::string& name, const std::string& data) {
    zip.add(name, data);
    files.push_back(name);
  }
};

bool add_site(Contents& c, const std::string& site, const std::vector<const PackSource*>& packs) {
  std::string index;
  if (!read_file(site + "/index.html", &index)) {
    std::cerr << site << "/index.html: error[E001]: cannot read this file (build the site with `make dist`, or name it "
                         "with --site)\n";
    return false;
  }
  auto packaged = packaged_index(index);
  if (!packaged) {
    std::cerr << site << "/index.html: error: no <head> to put the package's settings in\n";
    return false;
  }
  c.add("index.html", *packaged);
  for (const auto& rel : site_files(site)) {
    std::string data;
    if (!read_file(site + "/" + rel, &data)) {
      std::cerr << site << "/" << rel << ": error[E001]: cannot read this file\n";
      return false;
    }
    c.add(rel, data);
  }
  std::set<std::string> names;
  Json list = Json::array();
  for (const PackSource* p : packs) {
    names.insert(base_name(p->file));
    list.push_back(base_name(p->file));
    c.add("exercises/" + base_name(p->file), p->text);
    for (const auto& id : pack_exercise_ids(*p)) {
      std::string view;
      if (read_file(site + "/exercises/first/" + id + ".html", &view)) c.add("exercises/first/" + id + ".html", view);
    }
  }
  c.add("exercises/index.json", Json{{"packs", list}}.dump(2) + "\n");
  // Search finds what the package holds, nothing of the course beyond it.
  std::vector<PackSource> shipped;
  for (const PackSource* p : packs) shipped.push_back(*p);
  c.add("search-index.json", write_search_index(build_search_index(load_library(shipped))));
  std::string outline;
  if (read_file(site + "/exercises/outline.json", &outline)) {
    std::string kept = filtered_outline(outline, names);
    if (!kept.empty()) c.add("exercises/outline.json", kept);
  }
  return true;
}

}  // namespace

int cmd_package(const std::vector<std::string>& args) {
  int exit_code = 0;
  auto p = parse_package_args(args, &exit_code);
  if (!p) return exit_code;
  std::vector<Diagnostic> problems;
  auto sources = collect_packs(p->packs, &problems);
  LoadCache cache;
  Library course = load_library(sources, cache);
  for (const auto& d : problems) std::cerr << format_diagnostic(d) << "\n";
  std::string text;
  auto a = checked_assignment(p->assignment, course, "dtx package: the assignment has errors; nothing packaged", &text);
  if (!a) return 1;
  const auto packs = needed_packs(*a, course, sources);
  Contents c;
  if (!add_site(c, p->site, packs)) return 1;
  c.add("assignment.json", text);
  c.zip.add("imsmanifest.xml", scorm_manifest(*a, "index.html", c.files));
  const std::string bytes = c.zip.finish();
  std::ofstream out(p->out, std::ios::binary);
  out << bytes;
  if (!out) {
    std::cerr << "dtx package: cannot write " << p->out << "\n";
    return 1;
  }
  std::cout << "wrote " << p->out << ": SCORM 2004 4th edition, " << c.zip.entries() << " files, "
            << (bytes.size() + 512) / 1024 << " KiB; " << a->exercises.size() << " exercises from " << packs.size()
            << " pack" << (packs.size() == 1 ? "" : "s") << "; launch index.html"
            << (a->passing_score ? "; passing score " + std::to_string(static_cast<int>(*a->passing_score * 100 + 0.5)) + " %" : "")
            << "\n";
  return 0;
}

}  // namespace dtx::cli
