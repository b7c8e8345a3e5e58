#include "preview.h"

#include <algorithm>
#include <cctype>
#include <cstring>

#include "lint.h"
#include "json_fields.h"
#include "figures.h"
#include "text.h"

namespace dtx {

namespace {

// "/exercises/3" owns "/exercises/3" and "/exercises/3/parts/0/unit", not "/exercises/30".
bool under(const std::string& pointer, const std::string& prefix) {
  return pointer.compare(0, prefix.size(), prefix) == 0 &&
         (pointer.size() == prefix.size() || pointer[prefix.size()] == '/');
}

}  // namespace

std::vector<std::string> report_course_clashes(const Pack& pack, const Library& course, std::vector<Diagnostic>* out) {
  std::vector<std::string> clashed;
  for (const auto& ex : pack.exercises) {
    const Exercise* owner = course.find(ex.id);
    if (!owner) continue;
    Reporter rep{ex.file, ex.source, ex.positions, out};
    rep.error(DiagCode::DuplicateId, ex.pointer + "/id", "duplicate exercise id \"" + ex.id + "\": already used in " + owner->file);
    clashed.push_back(ex.pointer);
  }
  return clashed;
}

PreviewPack load_preview(const std::string& text, const std::string& file, const Library& course) {
  PreviewPack out;
  out.file = file;
  LoadResult r = load_pack(text, file);
  out.authored = r.authored;
  for (auto& d : r.diagnostics)
    if (d.severity == Severity::Error) out.errors.push_back(std::move(d));
  if (!r.partial) return out;
  Pack pack = std::move(*r.partial);

  // Ids the course already owns: the course keeps them (the exercises are left out below,
  // as every exercise an error points into is).
  report_course_clashes(pack, course, &out.errors);

  // Lint what loaded, without running code (a page has no node; the code runs when played).
  Library one;
  one.packs.push_back(pack);
  LintOptions options;
  options.exercise_exists = [&](const std::string& id) { return one.find(id) || course.find(id); };
  for (auto& d : lint_library(one, options)) out.errors.push_back(std::move(d));

  // Keep the exercises no error points into.
  std::vector<Exercise> keep;
  for (auto& ex : pack.exercises) {
    bool bad = std::any_of(out.errors.begin(), out.errors.end(),
                           [&](const Diagnostic& d) { return under(d.pointer, ex.pointer); });
    if (!bad) keep.push_back(std::move(ex));
  }
  pack.exercises = std::move(keep);
  std::stable_sort(out.errors.begin(), out.errors.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return a.line != b.line ? a.line < b.line : a.column < b.column;
  });
  out.pack = std::move(pack);
  return out;
}

namespace {

bool shell_safe(unsigned char c) {
  return std::isalnum(c) || std::strchr("_@%+=:,./-", c) != nullptr;
}

// Always in single quotes: a URL reads as one argument at a glance.
std::string single_quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// %XX sequences decoded (a malformed one kept as written); nullopt when the result would
// hold a control character, which no file name of a pack has.
std::optional<std::string> percent_decoded(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += s[i];
    }
  }
  for (unsigned char c : out)
    if (c < 0x20 || c == 0x7f) return std::nullopt;
  return out;
}

// The URL's path without its query and fragment.
std::string url_path(const std::string& url) { return url.substr(0, url.find_first_of("?#")); }

// A name to save a downloaded pack under: the URL's last path segment, decoded, with any
// character other than letters, digits, '.', '_' and '-' made '-'; "pack.json" when that is
// not a .json file's name or would start with '.' or '-' (a hidden file, an option).
std::string download_name(const std::string& url) {
  std::string path = url_path(url);
  size_t slash = path.find_last_of('/');
  std::string last = slash == std::string::npos ? path : path.substr(slash + 1);
  std::string name = percent_decoded(last).value_or(last);
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') c = '-';
  std::string lower = name;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const bool json = lower.size() > 5 && lower.compare(lower.size() - 5, 5, ".json") == 0;
  if (!json || name[0] == '.' || name[0] == '-') return "pack.json";
  return name;
}

// "https" for "https://host/x.json"; "" when the text has no scheme (a relative URL).
std::string url_scheme(const std::string& url) {
  size_t i = 0;
  while (i < url.size() && (std::isalnum(static_cast<unsigned char>(url[i])) || url[i] == '+' || url[i] == '-' || url[i] == '.'))
    ++i;
  if (i == 0 || i >= url.size() || url[i] != ':' || !std::isalpha(static_cast<unsigned char>(url[0]))) return "";
  std::string scheme = url.substr(0, i);
  for (char& c : scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return scheme;
}

}  // namespace

std::string shell_quote(const std::string& s) {
  if (!s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return shell_safe(static_cast<unsigned char>(c)); }))
    return s;
  return single_quoted(s);
}

ShowCommand show_command(const std::string& id, uint64_t seed, const std::string& source, bool from_url) {
  const std::string tail = " --seed " + std::to_string(seed) + " --answer";
  auto show = [&](const std::string& file) {
    // A name starting with '-' would read as an option.
    std::string arg = file.empty() || file[0] != '-' ? file : "./" + file;
    return "dtx show " + shell_quote(id) + " --packs " + shell_quote(arg) + tail;
  };
  if (source.empty()) return {"dtx show " + shell_quote(id) + tail, ""};
  if (!from_url) return {show(source), "(the file you dropped)"};
  const std::string scheme = url_scheme(source);
  if (scheme == "http" || scheme == "https") {
    const std::string name = download_name(source);
    return {"curl -sSo " + name + " " + single_quoted(source) + " && " + show(name), ""};
  }
  if (scheme.empty() && source.compare(0, 2, "//") != 0) {
    // Relative to the site: the same path in a checkout of the repository. "./" and a
    // leading "/" (the site's root, where `make serve` puts it) add nothing there.
    std::string path = url_path(source);
    while (path.compare(0, 2, "./") == 0) path.erase(0, 2);
    while (!path.empty() && path[0] == '/') path.erase(0, 1);
    if (auto decoded = percent_decoded(path); decoded && !decoded->empty()) return {show(*decoded), ""};
  }
  // A URL no shell command can fetch as written (data:, blob:, "//host/..." without a scheme).
  const std::string name = download_name(source);
  return {show(name), "(save the pack as " + name + " first)"};
}

std::vector<std::string> instance_answer_lines(const Instance& inst) {
  const Exercise* ex = inst.exercise;
  if (!ex || !ex->spec) return {};
  return ex->spec->answer_key(*ex, inst);
}

}  // namespace dtx
