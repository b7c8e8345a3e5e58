#include "files.h"

#include "assignment.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace dtx {

namespace fs = std::filesystem;

bool read_file(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  // One read into a buffer of the file's size (a stringstream grows and copies, then copies
  // again: a tenth of `dtx show`'s start with the shipped packs). Files that cannot seek
  // (a pipe, /dev/stdin) are read to their end in blocks.
  in.seekg(0, std::ios::end);
  std::streamoff size = in.tellg();
  in.seekg(0, std::ios::beg);
  out->clear();
  if (size > 0 && in) {
    out->resize(static_cast<size_t>(size));
    in.read(out->data(), size);
    out->resize(static_cast<size_t>(in.gcount()));
    if (in.gcount() == size) return true;
    // Shorter than its size said (it shrank meanwhile): read on to its end below.
  }
  in.clear();
  char block[1 << 16];
  while (in.read(block, sizeof block) || in.gcount() > 0) out->append(block, static_cast<size_t>(in.gcount()));
  return !in.bad();
}

std::vector<PackSource> collect_packs(const std::vector<std::string>& paths, std::vector<Diagnostic>* problems,
                                      std::vector<PackSource>* assignments) {
  std::vector<std::string> files;
  for (const auto& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      std::vector<std::string> found;
      for (auto it = fs::recursive_directory_iterator(p, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (it->is_directory() && it->path().filename() == "schema") {
          it.disable_recursion_pending();
          continue;
        }
        if (it->is_regular_file() && it->path().extension() == ".json" &&
            it->path().filename() != "index.json" && it->path().filename() != "outline.json")
          found.push_back(it->path().string());
      }
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else if (fs::exists(p, ec)) {
      files.push_back(p);
    } else {
      problems->push_back(make_diagnostic(DiagCode::CannotRead, p, 0, 0, "", "no such file or folder"));
    }
  }
  std::vector<PackSource> out;
  for (const auto& f : files) {
    PackSource s;
    s.file = f;
    if (!read_file(f, &s.text)) {
      problems->push_back(make_diagnostic(DiagCode::CannotRead, f, 0, 0, "", "cannot read this file"));
      continue;
    }
    // An assignment kept beside the packs (exercises/assignments/) is not a pack.
    if (looks_like_assignment(s.text)) {
      if (assignments) assignments->push_back(std::move(s));
      continue;
    }
    out.push_back(std::move(s));
  }
  return out;
}

bool file_next_to_pack(const std::string& pack_file, const std::string& path) {
  std::error_code ec;
  return fs::is_regular_file(fs::path(pack_file).parent_path() / fs::path(path), ec);
}

}  // namespace dtx
