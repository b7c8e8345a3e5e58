// `dtx outline DIR`: the course outline of DIR/index.json's packs (engine/outline.h), the file
// scripts/build-dist.sh writes to dist/exercises/outline.json. The same code is built for
// node (target dtx_outline, build/wasm/dtx-outline.js) so that `make dist` needs no native build.
#pragma once

#include <string>
#include <vector>

namespace dtx::cli {

int cmd_outline(const std::vector<std::string>& args);

}  // namespace dtx::cli
