// Finding and reading pack files for the CLI (the engine itself only sees strings).
#pragma once

#include <string>
#include <vector>

#include "model.h"

namespace dtx {

// Files are taken as given; folders are searched recursively for *.json, skipping
// index.json (the site's list of packs) and schema/ (the JSON Schema). Unreadable paths
// become diagnostics.
std::vector<PackSource> collect_packs(const std::vector<std::string>& paths,
                                      std::vector<Diagnostic>* problems);

bool read_file(const std::string& path, std::string* out);

}  // namespace dtx
