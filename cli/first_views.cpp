#include "first_views.h"

#include <algorithm>
#include <cctype>

#include <md4c.h>
#include <nlohmann/json.hpp>

#include "json_fields.h"
#include "lint_context.h"
#include "maths.h"

namespace dtx::cli {

namespace {

using Json = nlohmann::json;

void escape_into(std::string& out, const char* s, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    switch (s[i]) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += s[i];
    }
  }
}

std::string attribute(const MD_ATTRIBUTE& a) {
  return std::string(a.text ? a.text : "", a.size);
}

// A link's address the page may follow: http(s), mailto, or one without a scheme (a
// fragment, a relative path). With anything else (javascript:, data:) the link is dropped and
// its words stay, as the engine's text layer opens only those (web/shell/text-layer.js
// OPENABLE).
bool safe_link(const std::string& url) {
  size_t colon = url.find(':');
  size_t cut = url.find_first_of("/?#");
  if (colon == std::string::npos || (cut != std::string::npos && cut < colon)) return true;
  std::string scheme = url.substr(0, colon);
  for (char& c : scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return scheme == "http" || scheme == "https" || scheme == "mailto";
}

bool absolute(const std::string& url) {
  size_t colon = url.find(':');
  size_t cut = url.find_first_of("/?#");
  return url.rfind("//", 0) == 0 || url.rfind("/", 0) == 0 ||
         (colon != std::string::npos && (cut == std::string::npos || colon < cut));
}

struct Html {
  std::string out;
  std::string base;
  int image = 0;  // inside ![alt](...): text goes into the alt attribute
  std::vector<bool> links;  // each open link: kept (an <a>) or dropped (its words only)
  // A prompt's headings sit one level below the exercise's title (h1); a page's at their own.
  unsigned heading_shift = 1;
  bool keep_relative_links = true;  // false: a page of the site, where the repository's files are not
};

int enter_block(MD_BLOCKTYPE type, void* detail, void* user) {
  Html& h = *static_cast<Html*>(user);
  switch (type) {
    case MD_BLOCK_DOC: break;
    case MD_BLOCK_QUOTE: h.out += "<blockquote>"; break;
    case MD_BLOCK_UL: h.out += "<ul>"; break;
    case MD_BLOCK_OL: {
      auto* d = static_cast<MD_BLOCK_OL_DETAIL*>(detail);
      h.out += d->start == 1 ? "<ol>" : "<ol start=\"" + std::to_string(d->start) + "\">";
      break;
    }
    case MD_BLOCK_LI: h.out += "<li>"; break;
    case MD_BLOCK_HR: h.out += "<hr>"; break;
    case MD_BLOCK_H: {
      unsigned level = std::min(static_cast<MD_BLOCK_H_DETAIL*>(detail)->level + h.heading_shift, 6u);
      h.out += "<h" + std::to_string(level) + ">";
      break;
    }
    case MD_BLOCK_CODE: h.out += "<pre><code>"; break;
    case MD_BLOCK_HTML: break;  // not with MD_FLAG_NOHTML
    case MD_BLOCK_P: h.out += "<p>"; break;
    case MD_BLOCK_TABLE: h.out += "<table>"; break;
    case MD_BLOCK_THEAD: h.out += "<thead>"; break;
    case MD_BLOCK_TBODY: h.out += "<tbody>"; break;
    case MD_BLOCK_TR: h.out += "<tr>"; break;
    case MD_BLOCK_TH: h.out += "<th>"; break;
    case MD_BLOCK_TD: h.out += "<td>"; break;
  }
  return 0;
}

int leave_block(MD_BLOCKTYPE type, void* detail, void* user) {
  Html& h = *static_cast<Html*>(user);
  switch (type) {
    case MD_BLOCK_DOC: break;
    case MD_BLOCK_QUOTE: h.out += "</blockquote>"; break;
    case MD_BLOCK_UL: h.out += "</ul>"; break;
    case MD_BLOCK_OL: h.out += "</ol>"; break;
    case MD_BLOCK_LI: h.out += "</li>"; break;
    case MD_BLOCK_HR: break;
    case MD_BLOCK_H: {
      unsigned level = std::min(static_cast<MD_BLOCK_H_DETAIL*>(detail)->level + h.heading_shift, 6u);
      h.out += "</h" + std::to_string(level) + ">";
      break;
    }
    case MD_BLOCK_CODE: h.out += "</code></pre>"; break;
    case MD_BLOCK_HTML: break;
    case MD_BLOCK_P: h.out += "</p>"; break;
    case MD_BLOCK_TABLE: h.out += "</table>"; break;
    case MD_BLOCK_THEAD: h.out += "</thead>"; break;
    case MD_BLOCK_TBODY: h.out += "</tbody>"; break;
    case MD_BLOCK_TR: h.out += "</tr>"; break;
    case MD_BLOCK_TH: h.out += "</th>"; break;
    case MD_BLOCK_TD: h.out += "</td>"; break;
  }
  h.out += type == MD_BLOCK_DOC || type == MD_BLOCK_LI || type == MD_BLOCK_TD || type == MD_BLOCK_TH ? "" : "\n";
  return 0;
}

int enter_span(MD_SPANTYPE type, void* detail, void* user) {
  Html& h = *static_cast<Html*>(user);
  if (h.image) {  // spans inside an image's alt text: their text only
    if (type == MD_SPAN_IMG) ++h.image;
    return 0;
  }
  switch (type) {
    case MD_SPAN_EM: h.out += "<em>"; break;
    case MD_SPAN_STRONG: h.out += "<strong>"; break;
    case MD_SPAN_CODE: h.out += "<code>"; break;
    case MD_SPAN_DEL: h.out += "<del>"; break;
    case MD_SPAN_U: h.out += "<u>"; break;
    case MD_SPAN_A: {
      std::string url = attribute(static_cast<MD_SPAN_A_DETAIL*>(detail)->href);
      h.links.push_back(safe_link(url) && (h.keep_relative_links || absolute(url)));
      if (!h.links.back()) break;
      h.out += "<a href=\"";
      escape_into(h.out, url.data(), url.size());
      // Another site opens beside the exercise (as the engine's links do), without access to it.
      h.out += absolute(url) ? "\" target=\"_blank\" rel=\"noopener noreferrer\">" : "\">";
      break;
    }
    case MD_SPAN_IMG: {
      std::string src = attribute(static_cast<MD_SPAN_IMG_DETAIL*>(detail)->src);
      if (!absolute(src)) src = h.base + src;
      h.out += "<img src=\"";
      escape_into(h.out, src.data(), src.size());
      h.out += "\" alt=\"";
      h.image = 1;
      break;
    }
    default: break;  // maths are plain text already; wiki links are not enabled
  }
  return 0;
}

int leave_span(MD_SPANTYPE type, void*, void* user) {
  Html& h = *static_cast<Html*>(user);
  if (h.image) {
    if (type == MD_SPAN_IMG && --h.image == 0) h.out += "\">";
    return 0;
  }
  switch (type) {
    case MD_SPAN_EM: h.out += "</em>"; break;
    case MD_SPAN_STRONG: h.out += "</strong>"; break;
    case MD_SPAN_CODE: h.out += "</code>"; break;
    case MD_SPAN_DEL: h.out += "</del>"; break;
    case MD_SPAN_U: h.out += "</u>"; break;
    case MD_SPAN_A:
      if (!h.links.empty() && h.links.back()) h.out += "</a>";
      if (!h.links.empty()) h.links.pop_back();
      break;
    default: break;
  }
  return 0;
}

int text(MD_TEXTTYPE type, const MD_CHAR* s, MD_SIZE n, void* user) {
  Html& h = *static_cast<Html*>(user);
  switch (type) {
    case MD_TEXT_NULLCHAR: h.out += "\xEF\xBF\xBD"; break;
    case MD_TEXT_BR: h.out += h.image ? " " : "<br>"; break;
    case MD_TEXT_SOFTBR: h.out += h.image ? " " : "\n"; break;
    case MD_TEXT_ENTITY: {
      // &name; &#123; &#x1F; as written: an entity is never markup. Anything else as text.
      bool ok = n >= 3 && s[0] == '&' && s[n - 1] == ';';
      for (MD_SIZE i = 1; ok && i + 1 < n; ++i) ok = std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '#';
      if (ok) h.out.append(s, n);
      else escape_into(h.out, s, n);
      break;
    }
    default: escape_into(h.out, s, n);  // normal, code, (no) HTML, maths
  }
  return 0;
}

// Markdown through md4c into `h` (its options set by the caller).
std::string render(const std::string& markdown, Html& h, bool inline_only) {
  MD_PARSER parser{};
  parser.abi_version = 0;
  // The page's flags (web/ui/markdown.cpp) but maths: those are plain text here.
  parser.flags = MD_FLAG_TABLES | MD_FLAG_STRIKETHROUGH | MD_FLAG_NOHTML;
  parser.enter_block = enter_block;
  parser.leave_block = leave_block;
  parser.enter_span = enter_span;
  parser.leave_span = leave_span;
  parser.text = text;
  if (md_parse(markdown.data(), static_cast<MD_SIZE>(markdown.size()), &parser, &h) != 0) {
    std::string plain;
    escape_into(plain, markdown.data(), markdown.size());
    return inline_only ? plain : "<p>" + plain + "</p>";
  }
  std::string out = h.out;
  while (!out.empty() && out.back() == '\n') out.pop_back();
  // One paragraph, in a line of its own (an option, a step): its words only.
  if (inline_only && out.rfind("<p>", 0) == 0 && out.size() >= 7 && out.compare(out.size() - 4, 4, "</p>") == 0 &&
      out.find("<p>", 3) == std::string::npos)
    out = out.substr(3, out.size() - 7);
  return out;
}

}  // namespace

std::string markdown_to_html(const std::string& markdown, const std::string& base, bool inline_only) {
  Html h;
  h.base = base;
  return render(markdown, h, inline_only);
}

std::string markdown_page(const std::string& markdown, const std::string& stylesheet) {
  std::string title = "dtx", body = markdown;
  if (body.rfind("# ", 0) == 0) {
    size_t eol = body.find('\n');
    title = body.substr(2, eol == std::string::npos ? std::string::npos : eol - 2);
    body = eol == std::string::npos ? "" : body.substr(eol + 1);
  }
  Html h;
  h.heading_shift = 0;
  h.keep_relative_links = false;
  std::string t;
  escape_into(t, title.data(), title.size());
  return "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>" + t +
         " · dtx</title>\n<link rel=\"stylesheet\" href=\"" + stylesheet + "\">\n</head>\n<body>\n<main>\n"
         "<p><a href=\"./\">← Back to the course</a></p>\n<h1>" + t + "</h1>\n" + render(body, h, false) +
         "\n</main>\n</body>\n</html>\n";
}

std::string first_views_json(const std::vector<PackSource>& sources) {
  Library lib = load_library(sources);
  Json exercises = Json::object();
  for (const Pack& pack : lib.packs) {
    // Pictures are next to their pack; the page (index.html) is one folder up.
    std::string base = "exercises/";
    if (size_t slash = pack.file.rfind('/'); slash != std::string::npos) base += pack.file.substr(0, slash + 1);
    for (const Exercise& ex : pack.exercises) {
      std::string err;
      auto inst = make_instance(ex, 0, &err);
      if (!inst) continue;  // the page says why when it opens it
      InstanceDescription desc;
      ex.spec->describe(ex, *inst, false, desc);
      Json answer = desc.json;
      for (const char* list : {"options", "items"}) {
        if (!answer.contains(list) || !answer[list].is_array()) continue;
        for (auto& o : answer[list])
          if (o.is_object() && o.contains("text") && o["text"].is_string())
            o["html"] = markdown_to_html(markdown_math_to_plain(o["text"].get<std::string>()), base, true);
      }
      Json v;
      v["title"] = ex.title;
      v["type"] = ex.type;
      v["chapter"] = ex.chapter;
      v["prompt_html"] = markdown_to_html(markdown_math_to_plain(inst->render(ex.prompt)), base, false);
      v["widget"] = ex.widget.has_value();
      v["area"] = answer;
      exercises[ex.id] = v;
    }
  }
  Json j;
  j["dtx_first_views"] = 1;
  j["exercises"] = exercises;
  return j.dump();
}

}  // namespace dtx::cli
