// `dtx report` and the assignment half of `dtx lint` (cli/report.cpp): everything an
// instructor runs on assignment and submission files.
#pragma once

#include <string>
#include <vector>

#include "model.h"

namespace dtx::cli {

int cmd_report(const std::vector<std::string>& args);

// `dtx lint` found these assignment files among its paths: each is read and checked against
// `course` (its exercise ids exist, fixed seeds make instances). Diagnostics go to `out`.
void lint_assignment_files(const std::vector<PackSource>& files, const Library& course, std::vector<Diagnostic>& out);

}  // namespace dtx::cli
