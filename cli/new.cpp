// `dtx new`: starting exercises for instructors. Each template is a whole pack that passes
// `dtx lint --warn`, with "$comment" members saying what every field does and what to change,
// so the fastest way to a new exercise is to edit a working one.
#include "new.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <nlohmann/json.hpp>

#include "expr.h"
#include "json_fields.h"
#include "type_registry.h"
#include "lint.h"
#include "model.h"

namespace dtx::cli {

namespace {

constexpr int kUsage = 2;

const char* kNewHelp =
    "usage: dtx new KIND ID [-o FILE] [--chapter N] [--title T]\n"
    "\n"
    "Prints a complete pack holding one starting exercise of KIND, with \"$comment\" notes that\n"
    "explain each field and what to change. It passes `dtx lint --warn` as it is.\n"
    "\n"
    "  KIND          the exercise type: @KINDS@\n"
    "  ID            the exercise id: lower-case letters, digits, '-' and '.', e.g. ring.my-volume\n"
    "                (the pack id is the same with '.' turned into '-')\n"
    "  -o FILE       write FILE instead of printing; an existing FILE is never overwritten\n"
    "  --chapter N   the pack's chapter number, 0 to 999 (default 99: after the shipped ones)\n"
    "  --title T     the exercise's title (default: the template's)\n"
    "\n"
    "Exit status: 0 written, 1 FILE exists or cannot be written, 2 usage error (unknown KIND,\n"
    "invalid ID, bad option).\n";

// ---------------------------------------------------------------- templates
// @ID@, @PACK_ID@, @TITLE@ and @CHAPTER@ are replaced by JSON values; @KIND@ by the kind.

const char* kPackHead = R"JSON({
  "$comment": [
    "A dtx exercise pack: one chapter in one JSON file, started with `dtx new @KIND@`.",
    "Members named \"$comment\", like this one, are notes for authors: the engine ignores them (a string or a list of strings, allowed in every object). Delete them once you know the format.",
    "\"$schema\" lets an editor complete fields when the file sits in exercises/. \"format\" is always 1. \"chapter\" orders the packs on the course map (the shipped ones are 0 to 14). \"id\" is lower-case letters, digits and '-'. \"intro\" is Markdown shown above the chapter's exercises.",
    "Check it: dtx lint FILE (add --warn for style advice). See it as a student does: dtx show ID --packs FILE --answer.",
    "Publish it: copy the file into exercises/ and add its name to exercises/index.json; the page loads it without a rebuild."
  ],
  "$schema": "schema/pack.schema.json",
  "format": 1,
  "chapter": @CHAPTER@,
  "id": @PACK_ID@,
  "title": @TITLE@,
  "intro": @INTRO@,
  "exercises": [
)JSON";

const char* kPackTail = R"JSON(
  ]
}
)JSON";

// Said once per exercise, whatever its kind.
const char* kCommonComment = R"JSON(        "One exercise. \"id\" is unique across all packs (lower-case letters, digits, '-' and '.'; by convention topic.name). \"type\" is @KINDS@.",
        "\"title\" is shown on the course map. \"difficulty\" is 1 (warm-up), 2 (standard) or 3 (hard). \"tags\" are free words.",
        "\"prompt\", \"hints\" and \"explanation\" are Markdown. Hints are revealed one at a time, on request; the explanation is the worked solution, shown after an answer.")JSON";

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

std::string json_string(const std::string& s) { return nlohmann::json(s).dump(); }

// "numeric, choice, ordering, buggy-line or code"
std::string kinds_in_words() {
  const auto& k = new_kinds();
  std::string s;
  for (size_t i = 0; i < k.size(); ++i) s += (i == 0 ? "" : i + 1 == k.size() ? " or " : ", ") + k[i];
  return s;
}

std::string kinds_list() {
  std::string s;
  for (const auto& k : new_kinds()) s += (s.empty() ? "" : ", ") + k;
  return s;
}

std::string help_text() { return replace_all(kNewHelp, "@KINDS@", kinds_in_words()); }

int usage_error(const std::string& msg) {
  std::cerr << "dtx new: " << msg << "\n\n" << help_text();
  return kUsage;
}

}  // namespace

// Every registered type brings its own starting exercise (TypeEntry::new_exercise).
const std::vector<std::string>& new_kinds() {
  static const std::vector<std::string> kinds = [] {
    std::vector<std::string> k;
    for (const auto& t : exercise_types()) k.push_back(t.name);
    return k;
  }();
  return kinds;
}

std::string new_pack_text(const std::string& kind, const std::string& id, int chapter,
                          const std::string& title) {
  for (const auto& t : exercise_types()) {
    if (kind != t.name) continue;
    std::string pack_id = replace_all(id, ".", "-");
    std::string common = replace_all(kCommonComment, "@KINDS@", kinds_in_words());
    std::string text = std::string(kPackHead) + replace_all(t.new_exercise, "@COMMON@", common) + kPackTail;
    text = replace_all(text, "@KIND@", t.name);
    text = replace_all(text, "@CHAPTER@", std::to_string(chapter));
    text = replace_all(text, "@PACK_ID@", json_string(pack_id));
    text = replace_all(text, "@INTRO@", json_string(t.new_intro));
    text = replace_all(text, "@TITLE@", json_string(title.empty() ? t.new_title : title));
    return replace_all(text, "@ID@", json_string(id));
  }
  return "";
}

int cmd_new(const std::vector<std::string>& args) {
  std::vector<std::string> positional;
  std::string out_file, title;
  bool have_title = false;
  int chapter = 99;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      std::cout << help_text();
      return 0;
    }
    if (a == "-o" || a == "--output" || a == "--chapter" || a == "--title") {
      if (i + 1 >= args.size()) return usage_error(a + " needs a value");
      const std::string& v = args[++i];
      if (a == "--chapter") {
        char* end = nullptr;
        long n = std::strtol(v.c_str(), &end, 10);
        if (v.empty() || *end || n < 0 || n > 999)
          return usage_error("--chapter expects a whole number from 0 to 999, got '" + v + "'");
        chapter = static_cast<int>(n);
      } else if (a == "--title") {
        title = v;
        have_title = true;
      } else {
        out_file = v;
      }
    } else if (a.size() > 1 && a[0] == '-') {
      return usage_error("unknown option " + a);
    } else {
      positional.push_back(a);
    }
  }
  if (positional.size() != 2)
    return usage_error("expected KIND and ID (" + std::to_string(positional.size()) + " given), e.g. "
                       "`dtx new numeric ring.my-volume`");
  const std::string& kind = positional[0];
  const std::string& id = positional[1];
  std::string text = new_pack_text(kind, id, chapter, title);
  if (text.empty()) {
    std::string guess = closest_match(kind, new_kinds());
    return usage_error("unknown kind '" + kind + "'" + (guess.empty() ? "" : " (did you mean '" + guess + "'?)") +
                       "; expected one of: " + kinds_list());
  }
  if (have_title && title.find_first_not_of(" \t\n") == std::string::npos)
    return usage_error("--title expects a non-empty title");

  // The engine's own loader judges the id (and checks the template), so `dtx new` and
  // `dtx lint` can never disagree about what is valid.
  std::string name = out_file.empty() ? "(new pack)" : out_file;
  LoadResult loaded = load_pack(text, name);
  for (const char* where : {"/exercises/0/id", "/id"})  // the exercise's own message first
    for (const auto& d : loaded.diagnostics)
      if (d.pointer == where) return usage_error("invalid ID '" + id + "': " + d.message);
  std::vector<Diagnostic> problems = loaded.diagnostics;
  if (loaded.pack) {
    Library lib;
    lib.packs.push_back(*loaded.pack);
    LintOptions options;
    options.warnings = true;
    auto more = lint_library(lib, options);
    problems.insert(problems.end(), more.begin(), more.end());
  }
  if (!problems.empty()) {  // a broken template is our bug, not the user's
    for (const auto& d : problems) std::cerr << format_diagnostic(d) << "\n";
    std::cerr << "dtx new: internal error: the " << kind << " template does not pass lint\n";
    return 1;
  }

  if (out_file.empty()) {
    std::cout << text;
    return 0;
  }
  // "x": fail instead of replacing a file that already exists, atomically.
  std::FILE* f = std::fopen(out_file.c_str(), "wx");
  if (!f) {
    if (errno == EEXIST)
      std::cerr << "dtx new: " << out_file << " already exists; not overwriting it (choose another "
                   "FILE or remove it first)\n";
    else
      std::cerr << "dtx new: cannot write " << out_file << ": " << std::strerror(errno) << "\n";
    return 1;
  }
  bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  ok &= std::fclose(f) == 0;
  if (!ok) {
    std::cerr << "dtx new: writing " << out_file << " failed: " << std::strerror(errno) << "\n";
    return 1;
  }
  const char* article = std::string("aeiou").find(kind[0]) != std::string::npos ? "an " : "a ";
  std::cout << "wrote " << out_file << ": " << article << kind << " exercise '" << id << "' in chapter " << chapter
            << "\n\nnext:\n"
            << "  edit it (the \"$comment\" notes explain each field)\n"
            << "  dtx lint --warn " << out_file << "\n"
            << "  dtx show " << id << " --packs " << out_file << " --answer\n";
  return 0;
}

}  // namespace dtx::cli
