#include "outline_cmd.h"

#include <cstdio>
#include <iostream>
#include <map>

#include <nlohmann/json.hpp>

#include "files.h"
#include "first_views.h"
#include "outline.h"
#include "search.h"

namespace dtx::cli {

namespace {

const char* kOutlineHelp =
    "usage: dtx outline [DIR] [-o FILE] [--first-views FILE] [--search-index FILE]\n"
    "       dtx outline --page DOC.md PAGE.html [--css FILE]\n"
    "\n"
    "Prints the course outline of DIR (default: exercises/): for each pack listed in\n"
    "DIR/index.json, in its order, the chapter, its title and each exercise's id, title,\n"
    "type and difficulty. The page draws its course map from it before any pack is in\n"
    "(`make dist` writes it to dist/exercises/outline.json). A listed pack that does not load\n"
    "is kept with its first error, and the page fetches it at once to show all of them.\n"
    "With -o, writes FILE instead. With --first-views, also writes to FILE what a link to\n"
    "each exercise shows before the page's engine runs: its default instance's title, prompt\n"
    "as HTML and answer area, never its answer (scripts/first-views.mjs makes the page's\n"
    "files of it). With --search-index, also writes to FILE the course's search index: each\n"
    "exercise's title and prompt at its default numbers and each chapter's notes, as plain\n"
    "text (engine/search.h; the page's Search reads it). Exit status 1 when index.json cannot\n"
    "be read.\n"
    "\n"
    "With --page, writes the Markdown document DOC.md as the site's page PAGE.html (`make dist`\n"
    "publishes docs/accessibility.md so), styled by --css (default statement.css, next to it).\n";

// `--page DOC.md PAGE.html`: a document of the repository as a page of the site.
int write_page(const std::string& doc, const std::string& page, const std::string& css) {
  std::string text;
  if (!read_file(doc, &text)) {
    std::cerr << doc << ": cannot be read\n";
    return 1;
  }
  const std::string html = markdown_page(text, css);
  FILE* f = std::fopen(page.c_str(), "wb");
  if (!f || std::fwrite(html.data(), 1, html.size(), f) != html.size() || std::fclose(f) != 0) {
    std::cerr << page << ": cannot be written\n";
    return 1;
  }
  return 0;
}

}  // namespace

int cmd_outline(const std::vector<std::string>& args) {
  std::string dir = "exercises", out_file, views_file, search_file;
  bool dir_set = false;
  if (!args.empty() && args[0] == "--page") {
    if (args.size() != 3 && !(args.size() == 5 && args[3] == "--css")) {
      std::cerr << "dtx outline --page: expected DOC.md PAGE.html [--css FILE]\n\n" << kOutlineHelp;
      return 2;
    }
    return write_page(args[1], args[2], args.size() == 5 ? args[4] : "statement.css");
  }
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--help" || args[i] == "-h") {
      std::cout << kOutlineHelp;
      return 0;
    }
    if (args[i] == "-o" && i + 1 < args.size()) {
      out_file = args[++i];
    } else if (args[i] == "--first-views" && i + 1 < args.size()) {
      views_file = args[++i];
    } else if (args[i] == "--search-index" && i + 1 < args.size()) {
      search_file = args[++i];
    } else if (!args[i].empty() && args[i][0] != '-' && !dir_set) {
      dir = args[i];
      dir_set = true;
    } else {
      std::cerr << "dtx outline: unexpected argument '" << args[i] << "'\n\n" << kOutlineHelp;
      return 2;
    }
  }
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  const std::string index_path = dir + "/index.json";
  std::string index_text;
  if (!read_file(index_path, &index_text)) {
    std::cerr << index_path << ": cannot be read\n";
    return 1;
  }
  auto index = nlohmann::json::parse(index_text, nullptr, false);
  if (index.is_discarded() || !index.is_object() || !index.contains("packs") || !index["packs"].is_array()) {
    std::cerr << index_path << ": expected an object with a \"packs\" list of file names\n";
    return 1;
  }
  std::vector<PackSource> sources;
  std::map<std::string, std::string> unreadable;
  for (const auto& f : index["packs"]) {
    if (!f.is_string()) {
      std::cerr << index_path << ": every entry of \"packs\" must be a file name (a string)\n";
      return 1;
    }
    PackSource s;
    s.file = f.get<std::string>();
    if (!read_file(dir + "/" + s.file, &s.text)) unreadable[s.file] = "cannot be read";
    sources.push_back(std::move(s));
  }
  auto write = [](const std::string& file, const std::string& text) {
    FILE* f = std::fopen(file.c_str(), "wb");
    if (!f || std::fwrite(text.data(), 1, text.size(), f) != text.size() || std::fclose(f) != 0) {
      std::cerr << file << ": cannot be written\n";
      return false;
    }
    return true;
  };
  if (!views_file.empty() && !write(views_file, first_views_json(sources))) return 1;
  if (!search_file.empty() && !write(search_file, write_search_index(build_search_index(load_library(sources))))) return 1;
  std::string text = outline_json(sources, unreadable);
  if (out_file.empty()) {
    std::cout << text;
    return 0;
  }
  return write(out_file, text) ? 0 : 1;
}

}  // namespace dtx::cli

#ifdef DTX_OUTLINE_TOOL
int main(int argc, char** argv) { return dtx::cli::cmd_outline(std::vector<std::string>(argv + 1, argv + argc)); }
#endif
