// `dtx report` and the assignment half of `dtx lint` (cli/report.cpp): everything an
// instructor runs on assignment and submission files.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "assignment.h"
#include "model.h"

namespace dtx::cli {

int cmd_report(const std::vector<std::string>& args);

// The assignment file, read and checked against `course`: it must be clean, or no grade (or
// package) would mean anything. Its errors are printed, then `refusal`; nullopt then.
// `text_out`: the file's text, when it is used.
std::optional<Assignment> checked_assignment(const std::string& file, const Library& course, const std::string& refusal,
                                             std::string* text_out = nullptr);

// `dtx lint` found these assignment files among its paths: each is read and checked against
// `course` (its exercise ids exist, fixed seeds make instances). Diagnostics go to `out`.
void lint_assignment_files(const std::vector<PackSource>& files, const Library& course, std::vector<Diagnostic>& out);

}  // namespace dtx::cli
