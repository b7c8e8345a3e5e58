// Finding and reading pack files for the CLI (the engine itself only sees strings).
#pragma once

#include <string>
#include <vector>

#include "model.h"

namespace dtx {

// Files are taken as given; folders are searched recursively for *.json, skipping
// index.json (the site's list of packs), outline.json (its outline, written by `make dist`)
// and schema/ (the JSON Schema). Unreadable paths
// become diagnostics. Assignment files ({"format": "dtx-assignment/1"}) are not packs: they
// go to `assignments` when it is given and are skipped otherwise.
std::vector<PackSource> collect_packs(const std::vector<std::string>& paths, std::vector<Diagnostic>* problems,
                                      std::vector<PackSource>* assignments = nullptr);

bool read_file(const std::string& path, std::string* out);

// Whether `path` (a Markdown image's path, relative to the pack's folder) names a file next to
// the pack file `pack_file`: lint's LintOptions::image_exists.
bool file_next_to_pack(const std::string& pack_file, const std::string& path);

}  // namespace dtx
