// Semantic checks of loaded packs: what a JSON schema cannot see (answers that fail to
// evaluate at some parameter corner, mistakes equal to the answer, lines out of range...).
#pragma once

#include <vector>

#include "model.h"

namespace dtx {

class CodeRunner;

// Lints every exercise of `lib`; with a runner, code exercises also run their reference
// solution and their listed wrong implementations.
std::vector<Diagnostic> lint_library(const Library& lib, CodeRunner* runner);

}  // namespace dtx
