// The first JSON syntax error of a text, found by our own scan: where it is (a byte offset)
// and what is wrong, in words an author acts on ("a comma before '}'", "names need double
// quotes"). The loader uses it instead of nlohmann's exception text, whose wording that
// library does not promise. The scan follows RFC 8259 (a UTF-8 byte order mark is skipped,
// as nlohmann does) without recursion; nesting limits are JsonLimits' job.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace dtx {

struct JsonSyntaxError {
  size_t offset = 0;  // the byte the author should look at (text.size() at the end of the text)
  std::string message;
};

std::optional<JsonSyntaxError> find_json_syntax_error(std::string_view text);

}  // namespace dtx
