// Links and images in pack Markdown: which schemes a link may use, where a text's links and
// images are.
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
  std::string label;        // a reference definition's label as written; "" for other links
};

// Destinations of inline links [text](dest), autolinks <scheme:...> and reference
// definitions [label]: dest, outside code spans and fenced code blocks. An inline image's
// source is among them too (its "](" is a link's).
std::vector<MarkdownLink> find_markdown_links(std::string_view text);

// An image: ![alt](src "title"), or by reference ![alt][label], ![alt][] or ![alt] with a
// definition [label]: src elsewhere in the text.
struct MarkdownImage {
  std::string source;         // as written (entities and escapes not decoded)
  size_t source_offset = 0;   // where `source` is written: in the image, or in its definition
  std::string alt;            // the text between ![ and ], as written
  size_t offset = 0;          // byte offset of the "![" in the text
  bool reference = false;     // the source comes from a definition
};

// Every image md4c would draw, in order: inline ones, and reference ones whose label has a
// definition (an undefined label leaves the text as written, no image). Outside code spans
// and fenced code blocks.
std::vector<MarkdownImage> find_markdown_images(std::string_view text);

// The formats the page draws: the source ends in .png, .jpg, .jpeg or .svg (any letter case)
// before any ?query or #fragment, once Markdown's escapes and references are decoded.
bool image_format_allowed(std::string_view source);
// The extension the source ends in, lowercased with its dot (".gif"), or "" when it has none.
std::string image_extension(std::string_view source);
// True for http, https and relative sources: the only ones the page loads an image from.
bool image_scheme_allowed(std::string_view source);

// The file a relative source names, relative to the pack's folder: decoded, without ?query
// and #fragment, %XX escapes turned into bytes ("img/ring%20a.svg?v=2" -> "img/ring a.svg").
// "" when the source is not a relative path that could be checked: it has a scheme, starts
// with '/' (the site's root or another host), or holds a {placeholder} filled per instance.
std::string image_relative_path(std::string_view source);

}  // namespace dtx
