// `dtx package scorm ASSIGNMENT -o FILE.zip`: an assignment as an LMS's SCORM package
// (cli/package_cmd.cpp).
#pragma once

#include <string>
#include <vector>

namespace dtx::cli {

int cmd_package(const std::vector<std::string>& args);

}  // namespace dtx::cli
