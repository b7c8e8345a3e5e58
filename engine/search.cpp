#include "search.h"

#include <algorithm>
#include <cctype>

#include <nlohmann/json.hpp>

namespace dtx {

namespace {

using Json = nlohmann::json;

bool word_byte(unsigned char c) { return std::isalnum(c) || c >= 0x80; }

// The words of `text` with where each starts, lower-cased.
struct Word {
  std::string w;
  size_t at = 0;
};
std::vector<Word> words_at(std::string_view text) {
  std::vector<Word> out;
  for (size_t i = 0; i < text.size();) {
    if (!word_byte(static_cast<unsigned char>(text[i]))) {
      ++i;
      continue;
    }
    Word w;
    w.at = i;
    while (i < text.size() && word_byte(static_cast<unsigned char>(text[i])))
      w.w += static_cast<char>(std::tolower(static_cast<unsigned char>(text[i++])));
    out.push_back(std::move(w));
  }
  return out;
}

// How well `q` matches the words: 2 for a whole word, 1 for a prefix, 0 for none; where.
int best_match(const std::vector<Word>& words, const std::string& q, size_t* at, size_t* len) {
  int best = 0;
  for (const auto& w : words) {
    int m = w.w == q ? 2 : w.w.rfind(q, 0) == 0 ? 1 : 0;
    if (m > best) {
      best = m;
      *at = w.at;
      *len = w.w.size();
      if (best == 2) break;
    }
  }
  return best;
}

// About 160 bytes of `text` around [at, at+len), cut at spaces and on UTF-8 boundaries.
std::string snippet_around(const std::string& text, size_t at, size_t len, size_t* match_at) {
  const size_t before = 60, total = 160;
  size_t start = at > before ? at - before : 0;
  while (start > 0 && text[start - 1] != ' ') --start;
  size_t end = std::min(text.size(), start + total);
  if (end < at + len) end = std::min(text.size(), at + len + 20);
  while (end < text.size() && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) ++end;
  while (end < text.size() && end > at + len && text[end - 1] != ' ') --end;
  std::string s = (start > 0 ? "…" : "") + text.substr(start, end - start) + (end < text.size() ? "…" : "");
  *match_at = at - start + (start > 0 ? std::string("…").size() : 0);
  return s;
}

}  // namespace

std::string plain_text(std::string_view md) {
  std::string out;
  for (size_t i = 0; i < md.size(); ++i) {
    char c = md[i];
    if (c == '!' && i + 1 < md.size() && md[i + 1] == '[') continue;  // a picture: its alt text stays
    if (c == ']' && i + 1 < md.size() && md[i + 1] == '(') {           // a link's target goes
      size_t close = md.find(')', i);
      i = close == std::string_view::npos ? md.size() : close;
      continue;
    }
    if (c == '*' || c == '`' || c == '$' || c == '[' || c == '_' || c == '\\' || c == '{' || c == '}') continue;
    if (c == '#' && (out.empty() || out.back() == ' ')) continue;
    if (c == ':' && md.substr(i + 1, 3) == "---") continue;  // a table column's alignment
    if (c == '-' && md.substr(i, 3) == "---") {  // a table's rule or a horizontal rule
      while (i + 1 < md.size() && (md[i + 1] == '-' || md[i + 1] == ':')) ++i;
      continue;
    }
    if (c == '\n' || c == '\t' || c == '\r' || c == '|') c = ' ';
    if (c == ' ' && (out.empty() || out.back() == ' ')) continue;
    out += c;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

SearchIndex build_search_index(const Library& lib) {
  SearchIndex index;
  for (const Pack& p : lib.packs) {
    if (!p.intro.empty())
      index.docs.push_back({SearchDoc::Notes, p.id, p.chapter, "Chapter " + std::to_string(p.chapter) + ": " + p.title, "",
                            plain_text(p.intro)});
    for (const Exercise& ex : p.exercises) {
      auto inst = make_instance(ex, 0, nullptr);
      index.docs.push_back({SearchDoc::Exercise, ex.id, ex.chapter, ex.title, ex.type,
                            plain_text(inst ? inst->render(ex.prompt) : ex.prompt)});
    }
    for (const GlossaryEntry& e : p.glossary) {
      std::string text;
      for (const auto& a : e.aliases) text += a + "; ";
      index.docs.push_back({SearchDoc::Term, e.slug, p.chapter, e.term, "", text + plain_text(e.definition)});
    }
  }
  return index;
}

std::string write_search_index(const SearchIndex& index) {
  Json docs = Json::array();
  for (const auto& d : index.docs)
    docs.push_back({d.kind == SearchDoc::Notes ? "notes" : d.kind == SearchDoc::Term ? "term" : "exercise", d.id, d.chapter,
                    d.title, d.type, d.text});
  return Json{{"format", "dtx-search"}, {"version", 1}, {"docs", docs}}.dump();
}

bool read_search_index(const std::string& json, SearchIndex* out, std::string* error) {
  Json j = Json::parse(json, nullptr, false);
  if (j.is_discarded() || !j.is_object() || j.value("format", "") != "dtx-search" || !j.contains("docs") ||
      !j["docs"].is_array()) {
    *error = "not a dtx search index ({\"format\": \"dtx-search\", \"docs\": [...]})";
    return false;
  }
  out->docs.clear();
  for (const auto& d : j["docs"]) {
    if (!d.is_array() || d.size() != 6 || !d[0].is_string() || !d[1].is_string() || !d[2].is_number_integer() ||
        !d[3].is_string() || !d[4].is_string() || !d[5].is_string()) {
      *error = "entry " + std::to_string(out->docs.size()) + " is not [kind, id, chapter, title, type, text]";
      return false;
    }
    SearchDoc::Kind kind = d[0] == "notes" ? SearchDoc::Notes : d[0] == "term" ? SearchDoc::Term : SearchDoc::Exercise;
    out->docs.push_back({kind, d[1], d[2].get<int>(), d[3], d[4], d[5]});
  }
  return true;
}

std::vector<std::string> search_words(std::string_view text) {
  std::vector<std::string> out;
  for (auto& w : words_at(text)) out.push_back(std::move(w.w));
  return out;
}

std::vector<SearchHit> search(const SearchIndex& index, std::string_view query, size_t max) {
  const std::vector<std::string> terms = search_words(query);
  std::vector<SearchHit> hits;
  if (terms.empty()) return hits;
  for (size_t i = 0; i < index.docs.size(); ++i) {
    const SearchDoc& d = index.docs[i];
    const auto title = words_at(d.title), text = words_at(d.text);
    SearchHit h;
    h.doc = i;
    bool all = true, in_text = false;
    size_t first_at = 0, first_len = 0;
    for (const auto& t : terms) {
      size_t at = 0, len = 0, tat = 0, tlen = 0;
      int in_title = best_match(title, t, &tat, &tlen), in_body = best_match(text, t, &at, &len);
      if (!in_title && !in_body) {
        all = false;
        break;
      }
      h.score += 5.0 * in_title + 1.0 * in_body;
      if (in_body && !in_text) {
        in_text = true;
        first_at = at;
        first_len = len;
      }
    }
    if (!all) continue;
    if (d.kind == SearchDoc::Notes) h.score += 0.5;  // a chapter's notes explain the term
    if (d.kind == SearchDoc::Term) h.score += 1.0;   // and a term's definition says what it is
    if (in_text) {
      h.snippet = snippet_around(d.text, first_at, first_len, &h.match_at);
      h.match_len = first_len;
    }
    hits.push_back(std::move(h));
  }
  std::stable_sort(hits.begin(), hits.end(), [&](const SearchHit& a, const SearchHit& b) {
    if (a.score != b.score) return a.score > b.score;
    return index.docs[a.doc].chapter < index.docs[b.doc].chapter;
  });
  if (hits.size() > max) hits.resize(max);
  return hits;
}

}  // namespace dtx
