#include "glossary.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "diagnostic_codes.h"
#include "text.h"
#include "units.h"

namespace dtx {

namespace {

bool word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
bool upper(char c) { return c >= 'A' && c <= 'Z'; }
char fold(char c) { return upper(c) ? static_cast<char>(c - 'A' + 'a') : c; }

bool has_capital(std::string_view s) { return std::any_of(s.begin(), s.end(), upper); }

// `form` at `at` in `text`, by the matching rules above; the end of the match (a plural's s
// included, so the word boundary is checked after it), or 0.
size_t match_at(std::string_view text, size_t at, std::string_view form, bool exact_case) {
  if (form.empty() || at + form.size() > text.size()) return 0;
  for (size_t i = 0; i < form.size(); ++i) {
    char a = text[at + i], b = form[i];
    if (exact_case ? a != b : fold(a) != fold(b)) return 0;
  }
  size_t end = at + form.size();
  for (std::string_view plural : {"", "s", "es"}) {
    size_t e = end + plural.size();
    if (e > text.size() || text.substr(end, plural.size()) != plural) continue;
    if (e == text.size() || !word_char(text[e])) return e;
  }
  return 0;
}

void check_entry_text(const std::string& s, const std::string& ptr, const char* what, LoadContext& ctx, bool* ok) {
  if (s.size() > kMaxTermChars) {
    ctx.error(DiagCode::GlossaryEntry, ptr, std::string(what) + " is " + std::to_string(s.size()) +
                                               " characters; a term is at most " + std::to_string(kMaxTermChars));
    *ok = false;
  } else if (glossary_slug(s).empty()) {
    ctx.error(DiagCode::GlossaryEntry, ptr, std::string(what) + " \"" + s + "\" has no letter or digit");
    *ok = false;
  }
}

std::optional<GlossaryEntry> load_entry(const Json& e, const std::string& p, const std::string& file, LoadContext& ctx) {
  if (!ctx.expect_object(e, p, "a glossary entry {\"term\": ..., \"definition\": ...}")) return std::nullopt;
  size_t before = ctx.errors;
  ctx.check_fields(e, p, {"term", "aliases", "definition", "source"}, {"term", "definition"});
  GlossaryEntry g;
  g.file = file;
  g.pointer = p;
  if (auto t = ctx.string_field(e, p, "term", true)) g.term = trim(*t);
  if (auto d = ctx.string_field(e, p, "definition", true)) g.definition = *d;
  if (auto s = ctx.string_field(e, p, "source", false)) g.source = *s;
  for (const auto& a : ctx.string_list_field(e, p, "aliases")) g.aliases.push_back(trim(a));
  if (ctx.errors != before) return std::nullopt;
  bool ok = true;
  check_entry_text(g.term, p + "/term", "the term", ctx, &ok);
  for (size_t i = 0; i < g.aliases.size(); ++i)
    check_entry_text(g.aliases[i], p + "/aliases/" + std::to_string(i), "the alias", ctx, &ok);
  if (g.definition.size() > kMaxDefinitionBytes) {
    ctx.error(DiagCode::GlossaryEntry, p + "/definition",
              "the definition is " + std::to_string(g.definition.size()) + " bytes; a glossary definition is at most " +
                  std::to_string(kMaxDefinitionBytes) + " (a few sentences: the chapter notes hold the rest)");
    ok = false;
  }
  if (!ok) return std::nullopt;
  g.slug = glossary_slug(g.term);
  return g;
}

// Code spans and blocks, $maths$, {placeholders} and link targets blanked out, byte for
// byte, so what is left keeps its offsets.
std::string prose_only(std::string_view md) {
  std::string s(md);
  auto blank = [&](size_t a, size_t b) {
    for (size_t i = a; i < b && i < s.size(); ++i)
      if (s[i] != '\n') s[i] = ' ';
  };
  for (size_t i = 0; i < s.size();) {
    char c = s[i];
    size_t close = std::string::npos;
    if (c == '`') {
      size_t run = s.find_first_not_of('`', i) - i;
      close = s.find(std::string(run, '`'), i + run);
      if (close != std::string::npos) close += run;
    } else if (c == '$' && (i == 0 || s[i - 1] != '\\')) {
      close = s.find('$', i + 1);
      if (close != std::string::npos) ++close;
    } else if (c == '{') {
      close = s.find('}', i + 1);
      if (close != std::string::npos) ++close;
    } else if (c == ']' && i + 1 < s.size() && s[i + 1] == '(') {
      close = s.find(')', i + 2);
      if (close != std::string::npos) ++close;
    }
    if (close == std::string::npos) {
      ++i;
      continue;
    }
    blank(i, close);
    i = close;
  }
  return s;
}

bool is_unit_word(const std::string& w) {
  static const std::set<std::string> kUnits = {"GB", "MB", "TB", "KB", "PB", "EB", "GiB", "MiB", "TiB", "KiB",
                                               "GFLOP", "TFLOP", "PFLOP", "EFLOP", "FLOP", "TW", "GW", "MW",
                                               "GHz", "MHz", "PF", "GBs"};
  std::string err;
  return kUnits.count(w) > 0 || parse_unit(w, &err).has_value();
}

// The first entry that covers each form (term or alias), with where it is defined.
using FormOwners = std::map<std::string, const GlossaryEntry*>;

std::string form_key(const std::string& form) { return has_capital(form) ? form : to_lower(form); }

}  // namespace

std::string glossary_slug(std::string_view term) {
  std::string out;
  for (char c : term) {
    if (word_char(c)) {
      out += fold(c);
    } else if (c == '+') {  // "ZeRO++" is not "ZeRO"
      if (!out.empty() && out.back() != '-') out += '-';
      out += "plus-";
    } else if (!out.empty() && out.back() != '-') {
      out += '-';
    }
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

std::vector<GlossaryEntry> load_glossary(const Json& j, const std::string& file, LoadContext& ctx) {
  std::vector<GlossaryEntry> out;
  if (!j.is_array()) {
    ctx.error(DiagCode::WrongKind, "/glossary", "expected an array of glossary entries, got " + describe_json(j));
    return out;
  }
  for (size_t i = 0; i < j.size(); ++i)
    if (auto e = load_entry(j[i], "/glossary/" + std::to_string(i), file, ctx)) out.push_back(std::move(*e));
  return out;
}

const GlossaryEntry* Glossary::find(std::string_view slug) const {
  for (const auto& e : entries)
    if (e.slug == slug) return &e;
  return nullptr;
}

Glossary library_glossary(const Library& lib) {
  Glossary g;
  std::set<std::string> slugs;
  for (const auto& pack : lib.packs)
    for (const auto& e : pack.glossary)
      if (slugs.insert(e.slug).second) g.entries.push_back(e);
  std::stable_sort(g.entries.begin(), g.entries.end(), [](const GlossaryEntry& a, const GlossaryEntry& b) {
    return to_lower(a.term) < to_lower(b.term);
  });
  return g;
}

std::vector<TermUse> find_terms(std::string_view text, const Glossary& g) {
  struct Form {
    std::string_view s;
    bool exact;
    size_t entry;
  };
  std::vector<Form> forms;
  for (size_t i = 0; i < g.entries.size(); ++i) {
    forms.push_back({g.entries[i].term, has_capital(g.entries[i].term), i});
    for (const auto& a : g.entries[i].aliases) forms.push_back({a, has_capital(a), i});
  }
  std::vector<TermUse> out;
  for (size_t at = 0; at < text.size();) {
    if (at > 0 && word_char(text[at - 1])) {
      ++at;
      continue;
    }
    size_t best_end = 0, best_len = 0, best_entry = 0;
    for (const Form& f : forms) {
      if (f.s.size() <= best_len || fold(f.s[0]) != fold(text[at])) continue;
      if (size_t end = match_at(text, at, f.s, f.exact)) best_end = end, best_len = f.s.size(), best_entry = f.entry;
    }
    if (!best_len) {
      ++at;
      continue;
    }
    out.push_back({at, best_end, best_entry});
    at = best_end;
  }
  return out;
}

std::vector<std::pair<size_t, std::string>> acronyms_in(std::string_view markdown) {
  std::string s = prose_only(markdown);
  std::vector<std::pair<size_t, std::string>> out;
  for (size_t i = 0; i < s.size();) {
    if (!word_char(s[i]) || (i > 0 && word_char(s[i - 1]))) {
      ++i;
      continue;
    }
    size_t e = i;
    while (e < s.size() && word_char(s[e])) ++e;
    std::string w = s.substr(i, e - i);
    // (a byte of a UTF-8 letter next to it: part of a longer word, not an acronym)
    bool beside_letter = (i > 0 && static_cast<unsigned char>(s[i - 1]) >= 0x80) ||
                         (e < s.size() && static_cast<unsigned char>(s[e]) >= 0x80);
    if (w.size() > 2 && w.back() == 's') w.pop_back();
    bool shape = upper(w[0]) && std::all_of(w.begin(), w.end(), [](char c) { return upper(c) || (c >= '0' && c <= '9'); }) &&
                 std::count_if(w.begin(), w.end(), upper) >= 2;
    if (shape && !beside_letter && !is_unit_word(w)) out.emplace_back(i, w);
    i = e;
  }
  return out;
}

namespace {

// Words a lower-case term or alias must not be: the most common English function words, each of
// which a prompt uses in its ordinary sense.
constexpr std::string_view kCommonWords[] = {
    "about", "after", "all", "also", "and", "any", "are", "been", "before", "between", "both", "but", "can",
    "does", "each", "every", "for", "from", "had", "has", "have", "her", "here", "his", "how", "into", "its",
    "just", "less", "many", "may", "more", "most", "much", "not", "one", "only", "other", "our", "out", "over",
    "per", "same", "she", "should", "some", "such", "than", "that", "the", "their", "then", "there", "these",
    "they", "this", "those", "two", "under", "use", "used", "very", "was", "were", "what", "when", "where",
    "which", "who", "why", "will", "with", "would", "you", "your"};

// Why a form would link ordinary words, or "" when it would not: a lower-case form matches any
// capitalisation, so it must be a word of its own.
std::string broad_form(const std::string& form) {
  if (has_capital(form)) return "";
  size_t alnum = std::count_if(form.begin(), form.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)); });
  if (alnum < 3) return "has fewer than three letters and digits";
  if (std::find(std::begin(kCommonWords), std::end(kCommonWords), form) != std::end(kCommonWords))
    return "is a common English word";
  return "";
}

// With --warn: a term or alias in lower case that would link ordinary words (W013).
void warn_broad_forms(const GlossaryEntry& e, const Reporter& rep) {
  std::vector<std::string> forms = {e.term};
  forms.insert(forms.end(), e.aliases.begin(), e.aliases.end());
  for (size_t i = 0; i < forms.size(); ++i) {
    std::string why = broad_form(forms[i]);
    if (why.empty()) continue;
    rep.report(DiagCode::GlossaryBroad, e.pointer + (i ? "/aliases/" + std::to_string(i - 1) : "/term"),
               "\"" + forms[i] + "\" " + why + ", and a lower-case form matches any capitalisation, so the page "
               "would link that word in prompts across the course: use a longer form, or capitals for an acronym",
               false);
  }
}

}  // namespace

void lint_glossary(const Library& lib, bool warnings, std::vector<Diagnostic>& out) {
  FormOwners owners;
  std::map<std::string, const GlossaryEntry*> slugs;
  Glossary g = library_glossary(lib);
  for (const auto& pack : lib.packs) {
    Reporter rep{pack.file, nullptr, nullptr, &out};
    if (!pack.exercises.empty()) {
      rep.text = pack.exercises[0].source;
      rep.positions = pack.exercises[0].positions;
    }
    for (const auto& e : pack.glossary) {
      if (auto [it, fresh] = slugs.emplace(e.slug, &e); !fresh)
        rep.error(DiagCode::GlossaryEntry, e.pointer + "/term",
                  "\"" + e.term + "\" has the same address (#/glossary/" + e.slug + ") as \"" + it->second->term + "\" at " +
                      it->second->file + " " + it->second->pointer + ": name the term so that its letters and digits differ");
      std::vector<std::string> forms = {e.term};
      forms.insert(forms.end(), e.aliases.begin(), e.aliases.end());
      for (size_t i = 0; i < forms.size(); ++i) {
        auto [it, fresh] = owners.emplace(form_key(forms[i]), &e);
        if (fresh || it->second == &e) continue;
        const GlossaryEntry& first = *it->second;
        rep.error(DiagCode::GlossaryEntry, e.pointer + (i ? "/aliases/" + std::to_string(i - 1) : "/term"),
                  "\"" + forms[i] + "\" is already defined by the entry \"" + first.term + "\" at " + first.file + " " +
                      first.pointer + ": a term is defined once in the course (extend that entry instead)");
      }
    }
    if (!warnings) continue;
    for (const auto& e : pack.glossary) warn_broad_forms(e, rep);
    std::set<std::string> told;
    auto warn_text = [&](const std::string& text, const std::string& pointer, const Reporter& r) {
      std::vector<TermUse> uses = find_terms(text, g);
      for (const auto& [at, w] : acronyms_in(text)) {
        size_t pos = at;
        bool covered = std::any_of(uses.begin(), uses.end(), [&](const TermUse& u) { return u.begin <= pos && pos < u.end; });
        if (covered || told.count(w) || owners.count(w)) continue;
        told.insert(w);
        r.report(DiagCode::GlossaryMissing, pointer,
                 "\"" + w + "\" looks like a term, and no pack's glossary defines it: add an entry "
                 "{\"term\": \"" + w + "\", \"definition\": ...} to a pack's \"glossary\" (or write it as `code` "
                 "when it is a name in code)",
                 false, utf8_column(text, at));
      }
    };
    warn_text(pack.intro, "/intro", rep);
    for (const auto& ex : pack.exercises) {
      Reporter er{ex.file, ex.source, ex.positions, &out};
      warn_text(ex.prompt, ex.pointer + "/prompt", er);
      for (size_t i = 0; i < ex.hints.size(); ++i) warn_text(ex.hints[i], ex.pointer + "/hints/" + std::to_string(i), er);
      warn_text(ex.explanation, ex.pointer + "/explanation", er);
    }
  }
}

}  // namespace dtx
