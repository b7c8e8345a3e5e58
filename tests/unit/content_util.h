// Loads the shipped packs (exercises/) for the content tests.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "model.h"

namespace dtx::testing {

inline std::vector<PackSource> shipped_pack_sources() {
  namespace fs = std::filesystem;
  std::vector<PackSource> out;
  std::string dir = std::string(DTX_SOURCE_DIR) + "/exercises";
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".json" && e.path().filename() != "index.json") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  // DTX_PACK_FILTER=05- limits the content tests to packs whose file name contains it, so an
  // author can check one chapter while others are being written next to it.
  if (const char* f = std::getenv("DTX_PACK_FILTER"); f && *f)
    std::erase_if(files, [&](const std::string& p) {
      return fs::path(p).filename().string().find(f) == std::string::npos;
    });
  for (const auto& f : files) {
    std::ifstream in(f);
    std::stringstream ss;
    ss << in.rdbuf();
    out.push_back({f, ss.str()});
  }
  return out;
}

}  // namespace dtx::testing
