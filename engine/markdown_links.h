// Links in pack Markdown: which schemes a link may use, and where a text's links are.
//
// A pack can come from anyone (a dropped file, a ?pack= URL), and its Markdown is drawn in
// the page, where a click opens the link. Only http, https and mailto are opened; relative
// links (no scheme) are resolved against the page and allowed, since they can only name
// another http(s) address. Everything else (javascript:, data:, file:, vbscript:, blob:...)
// is drawn as plain text by the page and reported by `dtx lint`.
//
// The page parses with md4c; the engine has no Markdown parser, so find_markdown_links is a
// small scanner that errs towards reporting: every destination md4c could turn into a link
// (inline links, autolinks, reference definitions) is found, and a few that it would not.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace dtx {

// The scheme of a link destination the way a browser's URL parser reads it, lowercased and
// without the colon ("javascript" for " Java\tScript:alert(1)"), or "" for a relative link.
// HTML character references (&#58; &colon; &Tab;) and backslash escapes are decoded first,
// as Markdown does before the browser sees the address.
std::string link_scheme(std::string_view destination);

// True for http, https, mailto and relative links.
bool link_scheme_allowed(std::string_view destination);

struct MarkdownLink {
  std::string destination;  // as written (entities and escapes not decoded)
  size_t offset = 0;        // byte offset of the destination's first character in the text
};

// Destinations of inline links [text](dest), autolinks <scheme:...> and reference
// definitions [label]: dest, outside code spans and fenced code blocks.
std::vector<MarkdownLink> find_markdown_links(std::string_view text);

}  // namespace dtx
