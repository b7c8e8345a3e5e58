// What a link to an exercise shows in HTML before the engine runs (scripts/first-views.mjs
// makes one HTML file per exercise of it; web/shell/first-screen/exercise-view.js shows it): for every
// exercise of the packs that load, its default instance (seed 0, the one #/ex/ID opens) as
// the engine renders it: the title, the prompt as HTML, and the answer area's description
// (types/*/: options, parts, lines, steps, starter code), never the answer. Texts are
// Markdown with maths turned into plain text (as `dtx show` prints them), then HTML from md4c
// with the page's flags; raw HTML in a pack stays text (MD_FLAG_NOHTML), a link keeps only
// http, https, mailto or a relative address, and pictures are found next to their pack.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "model.h"

namespace dtx::cli {

// {"dtx_first_views": 1, "exercises": {ID: {title, type, chapter, prompt_html, widget, area}}},
// where `area` is the type's description of its answer area, each "text" of an option or item
// also as "html". Packs load as the page loads them (load_library); a pack that fails has none.
std::string first_views_json(const std::vector<PackSource>& sources);

// Markdown (maths already plain) as HTML; `base` is put before a relative picture's address
// (the pack's folder as seen from index.html, "exercises/"). Inline: no <p> around a single
// paragraph. Exposed for the tests.
std::string markdown_to_html(const std::string& markdown, const std::string& base, bool inline_only);

// A document of the repository (docs/accessibility.md) as a page of the site: its first "# "
// line the page's title and h1, its headings at their own levels, tables with header cells,
// and links to the repository's other files reduced to their words (the site does not carry
// them). `stylesheet` is the page's CSS file, next to it (no inline style: a site's policy
// may refuse one).
std::string markdown_page(const std::string& markdown, const std::string& stylesheet);

}  // namespace dtx::cli
