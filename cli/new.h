// `dtx new KIND ID [-o FILE] [--chapter N] [--title T]`: a complete, commented pack holding
// one starting exercise of KIND, which passes `dtx lint --warn` as it stands.
#pragma once

#include <string>
#include <vector>

namespace dtx::cli {

int cmd_new(const std::vector<std::string>& args);

// The kinds `dtx new` knows (the exercise types), in the order the help lists them.
const std::vector<std::string>& new_kinds();

// The pack text for KIND with these values filled in; empty for an unknown kind. Values
// are used as given: validation is cmd_new's job.
std::string new_pack_text(const std::string& kind, const std::string& id, int chapter,
                          const std::string& title);

}  // namespace dtx::cli
