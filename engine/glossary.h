// The course's glossary: every term the packs use, defined once, in the packs' own JSON (a
// pack's "glossary": [{"term", "aliases", "definition", "source"}]), so an instructor's pack
// adds its own terms. This file reads the entries, gathers the library's, finds where a
// text uses a term (the page links the first use of each in a prompt to its definition), and
// lints: a term or alias defined twice is an error (E072), an acronym the prose uses that no
// entry defines is a warning (W012, `dtx lint --warn`).
//
// Matching a form (a term or an alias) in a text: at word boundaries (no ASCII letter or
// digit on either side); a form with a capital letter matches case-sensitively ("SP" is not
// "sp"), an all-lower-case form case-insensitively ("Pipeline bubble"); a plural "s" or
// "es" after a form matches too ("GPUs"); where several forms start at one place, the
// longest wins ("ZeRO-3" over "ZeRO").
//
// An acronym, for W012: a word that starts with a letter and is made of capitals and
// digits (a plural "s" allowed), with at least two capitals, that is not a unit ("GB",
// "TFLOP"), outside code, maths, {placeholders} and link targets.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "json_fields.h"
#include "model.h"

namespace dtx {

constexpr size_t kMaxTermChars = 60;
constexpr size_t kMaxDefinitionBytes = 1000;

// Reads a pack's "glossary" array; entries that cannot be used are reported and left out.
std::vector<GlossaryEntry> load_glossary(const Json& j, const std::string& file, LoadContext& ctx);

// The address part of a term: lower case, '+' as "plus", every run of other characters than
// ASCII letters and digits one '-' ("ZeRO-3" -> "zero-3", "ZeRO++" -> "zero-plus-plus",
// "Young's interval" -> "young-s-interval").
std::string glossary_slug(std::string_view term);

// Every entry of the library, sorted by term (case-folded); where two packs define the same
// term, the first pack's entry is kept (lint reports the second).
struct Glossary {
  std::vector<GlossaryEntry> entries;
  const GlossaryEntry* find(std::string_view slug) const;
  bool empty() const { return entries.empty(); }
};
Glossary library_glossary(const Library& lib);

struct TermUse {
  size_t begin = 0, end = 0;  // bytes of the text the form covers (with a plural's s)
  size_t entry = 0;           // index into Glossary::entries
};
// Where `text` (plain text, no Markdown) uses a glossary term, in order, not overlapping.
std::vector<TermUse> find_terms(std::string_view text, const Glossary& g);

// The acronyms `markdown` uses outside code, maths, {placeholders} and link targets: each
// with its byte offset, in order.
std::vector<std::pair<size_t, std::string>> acronyms_in(std::string_view markdown);

// E072 (duplicates across the library) and, with `warnings`, W012 (one per acronym per pack,
// at its first use in the pack's notes or its exercises' texts).
void lint_glossary(const Library& lib, bool warnings, std::vector<Diagnostic>& out);

}  // namespace dtx
