// Search across the course: exercise titles and prompts (at their default numbers) and each
// chapter's notes, ranked, with the words around the match. The index is built once, at build
// time (`dtx outline --search-index`, written by `make dist` beside index.html; `dtx package`
// writes one of its packs alone), so the page
// searches without loading every pack and works offline; the same functions build and search
// it in tests.
//
// Matching: the query's words, each a prefix of some word of a document (case-insensitive,
// ASCII letters folded; other characters kept); every query word must match. A match in the
// title weighs more than one in the text, a whole word more than a prefix.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model.h"

namespace dtx {

struct SearchDoc {
  enum Kind { Exercise, Notes, Term } kind = Exercise;
  std::string id;     // exercise id; for notes, the chapter's pack id; for a term, its slug (glossary.h)
  int chapter = 0;
  std::string title;  // the exercise's title; for notes, "Chapter N: pack title"; for a term, the term
  std::string type;   // the exercise's type ("" for notes)
  std::string text;   // plain text: the prompt at the default numbers, the notes, or a term's other forms and definition
};

struct SearchIndex {
  std::vector<SearchDoc> docs;
};

// Every exercise of the library (its prompt at seed 0, Markdown and maths marks removed),
// every chapter's notes and every glossary term.
SearchIndex build_search_index(const Library& lib);

// {"format": "dtx-search", "version": 1, "docs": [[kind, id, chapter, title, type, text], ...]};
// kind is "exercise", "notes" or "term".
std::string write_search_index(const SearchIndex& index);
// Reads what write_search_index wrote; false with `error` when it is not that.
bool read_search_index(const std::string& json, SearchIndex* out, std::string* error);

struct SearchHit {
  size_t doc = 0;        // index into SearchIndex::docs
  double score = 0;
  std::string snippet;   // up to ~160 bytes of the text around the first match ("" when the title matched alone)
  size_t match_at = 0, match_len = 0;  // the match inside `snippet` (bytes), for highlighting
};

// The query's words, lower-cased: what matching compares.
std::vector<std::string> search_words(std::string_view text);

// The best `max` documents for `query`, best first (ties: chapter, then index order).
std::vector<SearchHit> search(const SearchIndex& index, std::string_view query, size_t max = 50);

// Markdown as plain text for the index: emphasis, code and maths marks (braces too), heading marks, link
// targets and pictures removed, whitespace collapsed.
std::string plain_text(std::string_view markdown);

}  // namespace dtx
