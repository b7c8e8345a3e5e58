#include "model.h"
#include "glossary.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>

#include "json_syntax.h"
#include "json_fields.h"
#include "type_registry.h"
#include "rng.h"
#include "maths.h"
#include "text.h"
#include "text_functions.h"

namespace dtx {

Diagnostic make_diagnostic(DiagCode code, std::string file, int line, int column, std::string pointer,
                           std::string message) {
  Diagnostic d;
  d.file = std::move(file);
  d.line = line;
  d.column = column;
  d.pointer = std::move(pointer);
  d.message = std::move(message);
  d.code = code;
  d.severity = diag_info(code).severity();
  return d;
}

std::string format_diagnostic(const Diagnostic& d) {
  // Line 0: a problem with the file as a whole (it cannot be read), not at a place in it.
  std::string s = d.file + (d.line > 0 ? ":" + std::to_string(d.line) + ":" + std::to_string(d.column) : "") + ": ";
  s += d.severity == Severity::Error ? "error[" : "warning[";
  s += diag_info(d.code).id;
  s += "]: ";
  if (!d.pointer.empty()) s += d.pointer + ": ";
  return s + d.message;
}

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::Correct: return "correct";
    case Verdict::Partial: return "partial";
    case Verdict::Incorrect: return "incorrect";
    case Verdict::FormatError: return "format-error";
  }
  return "?";
}

std::string spoken_feedback(const Feedback& fb) {
  auto sentence = [](std::string s) {
    while (!s.empty() && (s.back() == ' ' || s.back() == '\n')) s.pop_back();
    if (!s.empty() && s.back() != '.' && s.back() != '?' && s.back() != '!') s += '.';
    return s;
  };
  std::string out;
  auto add = [&](const std::string& s) {
    if (s.empty()) return;
    if (!out.empty()) out += ' ';
    out += sentence(s);
  };
  switch (fb.verdict) {
    case Verdict::Correct: add("Correct"); break;
    case Verdict::Partial: add("Partly right"); break;
    case Verdict::Incorrect: add("Not right yet"); break;
    case Verdict::FormatError: add("Not graded: part of the answer could not be read"); break;
  }
  // The summary, unless it is a part's own message (one part: the same sentence twice).
  if (std::none_of(fb.parts.begin(), fb.parts.end(), [&](const PartFeedback& p) { return p.message == fb.message; }))
    add(fb.message);
  for (size_t i = 0; i < fb.parts.size(); ++i) {
    const PartFeedback& p = fb.parts[i];
    std::string what = !p.graded ? "not judged, since another part could not be read"
                       : !p.message.empty() ? p.message
                       : p.verdict == Verdict::Correct ? "correct" : "not right";
    add("Part " + std::to_string(i + 1) + (p.label.empty() ? "" : ", " + p.label) + ": " + what);
  }
  // The cases the page shows, numbered as its table lists them; hidden cases are one line of
  // the details ("Hidden cases: 2 of 3 pass.").
  int shown = 0, failed = 0, hidden = 0;
  for (const auto& c : fb.cases) {
    hidden += c.hidden;
    shown += !c.hidden;
    failed += !c.hidden && !c.pass;
  }
  if (shown > 0)
    add(std::to_string(shown - failed) + " of " + std::to_string(shown) + (hidden ? " shown" : "") + " test cases pass");
  for (size_t i = 0, row = 0; i < fb.cases.size(); ++i) {
    if (fb.cases[i].hidden) continue;
    ++row;
    if (!fb.cases[i].pass)
      add("Case " + std::to_string(row) + " fails" + (fb.cases[i].message.empty() ? "" : ": " + fb.cases[i].message));
  }
  // A detail that repeats a part's message ("<label>: <message>", as dtx grade lists them)
  // was said with its part above: each sentence is heard once.
  for (const auto& d : fb.details) {
    const bool said = std::any_of(fb.parts.begin(), fb.parts.end(), [&](const PartFeedback& p) {
      return !p.message.empty() && d.size() >= p.message.size() && d.compare(d.size() - p.message.size(), p.message.size(), p.message) == 0;
    });
    if (!said) add(d);
  }
  // Maths as a screen reader should say it, never its LaTeX.
  return markdown_math_to_words(out);
}

namespace {

const std::vector<std::string> kCommonFields = {
    "id",     "type",    "title",       "prompt",      "difficulty", "tags",
    "params", "derived", "constraints", "hints",       "explanation", "widget", "simulations", "limits"};

}  // namespace

bool valid_id(const std::string& s, bool allow_dot) {
  if (s.empty()) return false;
  for (char c : s) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || (allow_dot && c == '.');
    if (!ok) return false;
  }
  return std::isalnum(static_cast<unsigned char>(s.front()));
}

// "Ring_Volume" -> " (did you mean \"ring-volume\"?)": lower case, other characters as '-'.
std::string suggest_id(const std::string& s, bool allow_dot) {
  std::string out;
  for (char c : s) {
    char l = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    bool ok = (l >= 'a' && l <= 'z') || (l >= '0' && l <= '9') || (allow_dot && l == '.');
    out += ok ? l : '-';
  }
  while (!out.empty() && !std::isalnum(static_cast<unsigned char>(out.front()))) out.erase(0, 1);
  if (out.empty() || out == s || !valid_id(out, allow_dot)) return "";
  return " (did you mean \"" + out + "\"?)";
}

namespace {

bool valid_name(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

const std::set<std::string> kReservedNames = {"answer", "ceil", "floor", "round", "sqrt", "log",
                                              "log2",   "log10", "exp", "abs", "min",  "max",
                                              "if"};

void load_params(const Json& j, const std::string& ptr, LoadContext& ctx, Exercise& ex) {
  if (!ctx.expect_object(j, ptr, "an object mapping parameter names to their specs")) return;
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (ctx.skip_comment(it.key(), it.value(), ptr)) continue;
    std::string p = ptr + "/" + json_pointer_escape(it.key());
    if (!valid_name(it.key()) || kReservedNames.count(it.key())) {
      ctx.error(DiagCode::BadName, p, "parameter name \"" + it.key() +
                       "\" must be a name usable in expressions (letters, digits, _; not a "
                       "function name or \"answer\")",
                true);
      continue;
    }
    const Json& spec = it.value();
    if (!ctx.expect_object(spec, p, "a parameter spec like {\"default\": 8, \"choices\": [4, 8]}"))
      continue;
    ctx.check_fields(spec, p, {"default", "choices", "min", "max", "step", "unit"}, {"default"});
    ParamSpec ps;
    ps.name = it.key();
    ps.pointer = p;
    auto def = ctx.number_field(spec, p, "default", true);
    if (!def) continue;
    ps.default_value = *def;
    auto range = read_value_range(ctx, spec, p, ps.default_value);
    if (!range) continue;
    ps.choices = std::move(range->choices);
    ps.min = range->min;
    ps.max = range->max;
    ps.step = range->step;
    if (auto u = ctx.string_field(spec, p, "unit", false, false)) {
      std::string err;
      ps.unit = parse_unit(*u, &err);
      if (!ps.unit) ctx.error(DiagCode::UnknownUnit, p + "/unit", err);
    }
    ex.params.push_back(std::move(ps));
  }
}

}  // namespace

// engine/exercise_widget.cpp
void load_exercise_widget(const Json& j, const std::string& ptr, LoadContext& ctx, Exercise& ex);
void load_exercise_simulations(const Json& j, const std::string& ptr, LoadContext& ctx, Exercise& ex);

namespace {

void load_exercise(const Json& j, const std::string& ptr, LoadContext& ctx, Exercise& ex) {
  auto type = ctx.string_field(j, ptr, "type", true);
  const TypeEntry* entry = nullptr;
  if (type) {
    for (const auto& t : exercise_types())
      if (*type == t.name) entry = &t;
    if (!entry) {
      std::vector<std::string> names;
      for (const auto& t : exercise_types()) names.push_back(t.name);
      // "multiple-choice", "mcq", "number": the names other platforms use.
      std::string guess = did_you_mean(*type, names);
      if (guess.empty() && (to_lower(*type) == "mcq" || to_lower(*type) == "multiple_choice"))
        guess = " (did you mean \"choice\" with \"multiple\": true?)";
      ctx.error(DiagCode::UnknownType, ptr + "/type", "unknown exercise type \"" + *type + "\"" + guess +
                                   "; expected one of: " + join_names(names));
    }
  }
  std::vector<std::string> allowed = kCommonFields, required = {"id", "type", "title", "prompt"};
  if (entry) {
    allowed.insert(allowed.end(), entry->fields.begin(), entry->fields.end());
    required.insert(required.end(), entry->required.begin(), entry->required.end());
    ctx.check_fields(j, ptr, allowed, required);
  } else {
    // With an unknown type we can't tell which fields belong; checking only the common
    // ones would add misleading "unknown field" errors.
    std::vector<std::string> any;
    for (auto it = j.begin(); it != j.end(); ++it) any.push_back(it.key());
    ctx.check_fields(j, ptr, any, required);
  }

  if (auto id = ctx.string_field(j, ptr, "id", true)) {
    if (!valid_id(*id, true))
      ctx.error(DiagCode::BadName, ptr + "/id", "expected an id of lower-case letters, digits, '-' and '.', got \"" +
                                 *id + "\"" + suggest_id(*id, true));
    ex.id = *id;
  }
  if (type) ex.type = *type;
  if (auto t = ctx.string_field(j, ptr, "title", true)) ex.title = *t;
  if (auto t = ctx.string_field(j, ptr, "prompt", true)) ex.prompt = *t;
  if (auto t = ctx.string_field(j, ptr, "explanation", false)) ex.explanation = *t;
  if (auto d = ctx.int_field(j, ptr, "difficulty", false, 1, 3)) ex.difficulty = static_cast<int>(*d);
  ex.tags = ctx.string_list_field(j, ptr, "tags");
  ex.hints = ctx.string_list_field(j, ptr, "hints");
  if (j.contains("params")) load_params(j["params"], ptr + "/params", ctx, ex);
  if (j.contains("derived")) {
    const Json& d = j["derived"];
    std::string p = ptr + "/derived";
    if (ctx.expect_object(d, p, "an object mapping names to expressions")) {
      for (auto it = d.begin(); it != d.end(); ++it) {
        if (ctx.skip_comment(it.key(), it.value(), p)) continue;
        std::string q = p + "/" + json_pointer_escape(it.key());
        if (!valid_name(it.key()) || kReservedNames.count(it.key())) {
          ctx.error(DiagCode::BadName, q, "derived name \"" + it.key() + "\" must be a name usable in expressions", true);
          continue;
        }
        bool clash = false;
        for (const auto& ps : ex.params) clash |= ps.name == it.key();
        if (clash) {
          ctx.error(DiagCode::Duplicate, q, "\"" + it.key() + "\" is already a parameter", true);
          continue;
        }
        if (auto e = ctx.expr_value(it.value(), q)) ex.derived.emplace_back(it.key(), *e);
      }
    }
  }
  if (j.contains("constraints")) {
    const Json& c = j["constraints"];
    std::string p = ptr + "/constraints";
    if (!c.is_array()) {
      ctx.error(DiagCode::WrongKind, p, "expected an array of expressions such as \"m >= p\", got " + describe_json(c));
    } else {
      for (size_t i = 0; i < c.size(); ++i)
        if (auto e = ctx.expr_value(c[i], p + "/" + std::to_string(i))) ex.constraints.push_back(*e);
    }
  }
  if (j.contains("widget")) load_exercise_widget(j["widget"], ptr + "/widget", ctx, ex);
  if (j.contains("simulations")) load_exercise_simulations(j["simulations"], ptr + "/simulations", ctx, ex);
  if (j.contains("limits")) ex.limits = load_limit_bindings(j["limits"], ptr + "/limits", ctx);
  if (entry && !ctx.failed()) ex.spec = entry->load(j, ptr, ctx);
}

// Loads one exercise, judging failure by this exercise's errors only.
void load_exercise_scoped(const Json& j, const std::string& ptr, LoadContext& ctx, Exercise& ex) {
  size_t saved = ctx.error_count_at_start;
  ctx.error_count_at_start = ctx.errors;
  load_exercise(j, ptr, ctx, ex);
  ctx.error_count_at_start = saved;
}

size_t utf8_length(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

std::string with_thousands(size_t n) { return format_number(static_cast<double>(n)); }

// Every string of the document against the text limits, without recursion (the depth is
// already bounded, but nothing here should depend on that). Titles and ids have their own
// limits: they are drawn on one line and put in addresses.
void check_string_sizes(const Json& doc, LoadContext& ctx) {
  struct Open {
    const Json* value;
    std::string pointer;
    size_t depth;
    Json::const_iterator it;
    size_t index = 0;
  };
  auto check = [&](const Json& v, const std::string& ptr, size_t depth) {
    if (!v.is_string()) return;
    const std::string& s = v.get_ref<const std::string&>();
    // "/title", "/exercises/3/title": the pack's own fields and each exercise's.
    bool top = depth == 1 || (depth == 3 && ptr.rfind("/exercises/", 0) == 0);
    std::string last = ptr.substr(ptr.rfind('/') + 1);
    // Titles and ids first: their own limit is the one an author needs to hear about.
    if (top && last == "title" && utf8_length(s) > kMaxTitleChars) {
      ctx.error(DiagCode::TooLong, ptr, "this title is " + with_thousands(utf8_length(s)) + " characters long; a title may be at most " +
                         std::to_string(kMaxTitleChars) + " (put the rest in the prompt)");
    } else if (top && last == "id" && utf8_length(s) > kMaxIdChars) {
      ctx.error(DiagCode::TooLong, ptr, "this id is " + with_thousands(utf8_length(s)) + " characters long; an id may be at most " +
                         std::to_string(kMaxIdChars));
    } else if (s.size() > kMaxTextBytes) {
      ctx.error(DiagCode::TooLong, ptr, "this text is " + with_thousands(s.size()) + " bytes long; a text may be at most " +
                         with_thousands(kMaxTextBytes) + " bytes (64 KB)");
    }
  };
  check(doc, "", 0);
  std::vector<Open> open;
  if (doc.is_structured()) open.push_back({&doc, "", 0, doc.cbegin()});
  while (!open.empty()) {
    Open& o = open.back();
    if (o.it == o.value->cend()) {
      open.pop_back();
      continue;
    }
    const Json& v = *o.it;
    std::string ptr = o.pointer + "/" +
                      (o.value->is_object() ? json_pointer_escape(o.it.key()) : std::to_string(o.index));
    size_t depth = o.depth + 1;
    ++o.it;
    ++o.index;
    if (v.is_structured())
      open.push_back({&v, std::move(ptr), depth, v.cbegin()});  // `o` is not used after this
    else
      check(v, ptr, depth);
  }
}

}  // namespace

std::optional<JsonDocument> read_json_document(const std::string& text, const std::string& file, size_t max_bytes,
                                              const std::string& too_large_advice, std::vector<Diagnostic>& out) {
  // Before anything reads the text: the size, for the CLI and the page alike.
  if (text.size() > max_bytes) {
    // Not the exact size: the page reads only the first max_bytes + 1 bytes of a larger file.
    out.push_back(make_diagnostic(DiagCode::FileTooLarge, file, 1, 1, "",
                                  "the file is larger than " + format_number(static_cast<double>(max_bytes) / 1048576.0) +
                                      " MB (" + with_thousands(max_bytes) + " bytes), " + too_large_advice));
    return std::nullopt;
  }
  // nlohmann's parser decides whether the text is JSON; what is wrong, and where, comes from
  // our own scan (json_syntax.h), not from nlohmann's exception text, whose wording it does
  // not promise.
  if (!Json::accept(text)) {
    JsonPosIndex lines = JsonPosIndex::lines_of(text);
    // The two follow the same grammar (a unit test checks them against each other); should
    // they ever disagree, the start of the file is reported.
    auto syntax = find_json_syntax_error(text);
    size_t off = std::min(syntax ? syntax->offset : 0, text.size());
    TextPos p = lines.at_offset(text, off);
    out.push_back(make_diagnostic(
        DiagCode::InvalidJson, file, p.line, p.column, "",
        "invalid JSON: " + (syntax ? utf8_escaped(syntax->message) : std::string("the text is not valid JSON"))));
    return std::nullopt;
  }
  // The text is JSON. Nesting and object sizes next, on the text: nothing that recurses, and
  // no DOM (whose objects insert in linear time), has seen it yet.
  if (auto excess = check_json_limits(text)) {
    TextPos p = JsonPosIndex::lines_of(text).at_offset(text, excess->offset);
    out.push_back(make_diagnostic(DiagCode::JsonLimit, file, p.line, p.column, "", excess->message));
    return std::nullopt;
  }
  JsonDocument d;
  d.doc = Json::parse(text, nullptr, false);
  d.text = std::make_shared<const std::string>(text);
  d.positions = std::make_shared<JsonPosIndex>(JsonPosIndex::build(text));
  return d;
}

bool check_json_document(const JsonDocument& d, LoadContext& ctx) {
  // Too long a text refuses the document: every later message or screen could repeat it.
  check_string_sizes(d.doc, ctx);
  if (ctx.failed()) return false;
  for (uint32_t dup : d.positions->duplicate_keys)
    ctx.error(DiagCode::DuplicateKey, d.positions->pointer_of(*d.text, dup),
              "this field appears a second time in the same object (the later value would silently win); keep one", true);
  return true;
}

LoadContext load_context(const JsonDocument& d, const std::string& file, std::vector<Diagnostic>& out) {
  LoadContext ctx;
  ctx.file = file;
  ctx.text = d.text;
  ctx.positions = d.positions;
  ctx.out = &out;
  ctx.max_stored = kMaxDiagnosticsPerPack;
  return ctx;
}

LoadResult load_pack(const std::string& text, const std::string& file) {
  LoadResult res;
  auto parsed = read_json_document(text, file, kMaxPackBytes, "the most a pack may be: split it into several packs",
                                   res.diagnostics);
  if (!parsed) return res;
  const Json& doc = parsed->doc;
  auto src = parsed->text;
  auto pos = parsed->positions;
  LoadContext ctx = load_context(*parsed, file, res.diagnostics);
  auto load_document = [&] {
    if (!check_json_document(*parsed, ctx)) return;

    Pack pack;
    pack.file = file;
    if (!ctx.expect_object(doc, "", "a pack")) return;
    ctx.check_fields(doc, "", {"$schema", "format", "chapter", "id", "title", "intro", "limits", "glossary", "exercises"},
                     {"format", "chapter", "id", "title", "exercises"});
    if (auto f = ctx.int_field(doc, "", "format", true, 0, 1000000); f && *f != 1)
      ctx.error(DiagCode::UnsupportedFormat, "/format", "this engine reads pack format 1, got " + std::to_string(*f));
    if (auto c = ctx.int_field(doc, "", "chapter", true, 0, 999)) pack.chapter = static_cast<int>(*c);
    if (auto id = ctx.string_field(doc, "", "id", true)) {
      if (!valid_id(*id, false))
        ctx.error(DiagCode::BadName, "/id", "expected a pack id of lower-case letters, digits and '-', got \"" + *id + "\"" +
                             suggest_id(*id, false));
      pack.id = *id;
    }
    if (auto t = ctx.string_field(doc, "", "title", true)) pack.title = *t;
    if (auto t = ctx.string_field(doc, "", "intro", false)) pack.intro = *t;
    ctx.string_field(doc, "", "$schema", false);
    if (doc.contains("limits")) pack.limits = load_pack_limits(doc["limits"], ctx);
    if (doc.contains("glossary")) pack.glossary = load_glossary(doc["glossary"], file, ctx);
    if (doc.contains("exercises")) {
      const Json& exs = doc["exercises"];
      if (!exs.is_array()) {
        ctx.error(DiagCode::WrongKind, "/exercises", "expected an array of exercises, got " + describe_json(exs));
      } else {
        std::map<std::string, std::string> seen;
        res.authored = static_cast<int>(exs.size());
        for (size_t i = 0; i < exs.size(); ++i) {
          std::string p = "/exercises/" + std::to_string(i);
          if (!ctx.expect_object(exs[i], p, "an exercise")) continue;
          Exercise ex;
          ex.file = file;
          ex.pointer = p;
          ex.source = src;
          ex.positions = pos;
          ex.pack_id = pack.id;
          ex.chapter = pack.chapter;
          size_t before = ctx.errors;
          load_exercise_scoped(exs[i], p, ctx, ex);
          if (!ex.id.empty()) {
            auto it = seen.find(ex.id);
            if (it != seen.end())
              ctx.error(DiagCode::DuplicateId, p + "/id", "duplicate exercise id \"" + ex.id + "\" (first used at " + it->second + ")");
            else
              seen[ex.id] = p;
          }
          if (ctx.errors == before) pack.exercises.push_back(std::move(ex));
        }
      }
    }
    if (!ctx.failed()) res.pack = pack;
    res.partial = std::move(pack);
  };
  load_document();
  // Once, after everything else: how many problems were not listed.
  if (ctx.dropped) {
    res.diagnostics.push_back(make_diagnostic(DiagCode::TooManyProblems, file, 1, 1, "",
                                              "... and " + with_thousands(ctx.dropped) +
                                                  " more problems not listed (the first " +
                                                  std::to_string(kMaxDiagnosticsPerPack) + " are)"));
  }
  return res;
}

Library load_library(const std::vector<PackSource>& sources) {
  LoadCache cache;
  return load_library(sources, cache);
}

Library load_library(const std::vector<PackSource>& sources, LoadCache& cache) {
  Library lib;
  std::map<std::string, std::string> owner;  // exercise id -> file
  for (const auto& s : sources) {
    auto hit = cache.find(s.file);
    if (hit == cache.end() || hit->second.first != s.text)
      hit = cache.insert_or_assign(s.file, std::make_pair(s.text, load_pack(s.text, s.file))).first;
    const LoadResult& r = hit->second.second;
    lib.diagnostics.insert(lib.diagnostics.end(), r.diagnostics.begin(), r.diagnostics.end());
    if (!r.pack) continue;
    bool clash = false;
    for (const auto& ex : r.pack->exercises) {
      auto it = owner.find(ex.id);
      if (it != owner.end()) {
        Reporter rep{s.file, ex.source, ex.positions, &lib.diagnostics};
        rep.error(DiagCode::DuplicateId, ex.pointer + "/id", "duplicate exercise id \"" + ex.id + "\": already used in " +
                                          it->second);
        clash = true;
      }
    }
    if (clash) continue;  // the first pack keeps its ids; this one is left out whole
    for (const auto& ex : r.pack->exercises) owner[ex.id] = s.file;
    lib.packs.push_back(*r.pack);  // a copy: the library owns its packs
  }
  std::stable_sort(lib.packs.begin(), lib.packs.end(),
                   [](const Pack& a, const Pack& b) { return a.chapter < b.chapter; });
  return lib;
}

const Exercise* Library::find(const std::string& id) const {
  for (const auto& p : packs)
    for (const auto& e : p.exercises)
      if (e.id == id) return &e;
  return nullptr;
}

// ---------------------------------------------------------------- instances

std::optional<double> Instance::value(std::string_view name) const {
  for (const auto& [n, v] : values)
    if (n == name) return v;
  // "answer", "answer.<part>": the type's own answers, once it has prepared them.
  if (exercise && exercise->spec) return exercise->spec->answer_value(*this, name);
  return std::nullopt;
}

ExprScope Instance::scope() const {
  return [this](std::string_view name) -> std::optional<double> { return value(name); };
}

namespace {

// The value of a placeholder's inside ("N-1", "M/N:3"), or nothing when it is not an
// expression that evaluates here (the text then stays as written).
std::optional<std::string> placeholder_value(std::string_view inner, const ExprScope& sc) {
  int sig = 4;
  std::string expr_text(inner);
  size_t colon = expr_text.rfind(':');
  if (colon != std::string::npos) {
    std::string digits = trim(expr_text.substr(colon + 1));
    if (!digits.empty() && digits.size() <= 2 && std::all_of(digits.begin(), digits.end(), ::isdigit)) {
      sig = std::stoi(digits);
      expr_text = expr_text.substr(0, colon);
    }
  }
  if (trim(expr_text).empty()) return std::nullopt;
  ExprError err;
  Expr e = Expr::parse(expr_text, &err);
  if (!e.valid()) return std::nullopt;
  auto v = e.eval(sc, &err);
  // Unknown names are caught by lint; at run time show the text so nothing vanishes.
  if (!v) return std::nullopt;
  return format_number(*v, sig);
}

// A maths span's source with its placeholders filled. Each value is written as a group,
// {16,384} or {6.1\times 10^{-5}}, so it stays one argument: \frac1{N} is 1/N's value.
void render_math_span(std::string_view src, const ExprScope& sc, std::string& out) {
  size_t at = 0;
  for (const auto& p : scan_math_braces(src).placeholders) {
    if (p.close == std::string::npos || p.close - p.brace - 1 > kMaxExprLength + 3) continue;
    auto v = placeholder_value(src.substr(p.brace + 1, p.close - p.brace - 1), sc);
    if (!v) continue;
    out.append(src.substr(at, p.brace - at));
    out += "{" + math_number(*v) + "}";
    at = p.close + 1;
  }
  out.append(src.substr(at));
}

}  // namespace

std::string Instance::render(const std::string& text) const {
  std::string out;
  auto sc = scope();
  // Inside $...$ braces follow the maths rule (engine/maths.h); outside, {expr} and {{ }}.
  const MathScan maths = find_math_spans(text);
  size_t next_span = 0;
  // The next '}' and line end after i, found again only once i has passed them: looking
  // from every '{' made "{a{a{a...}" in a 64 KB prompt cost a second a frame.
  size_t next_close = 0, next_nl = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    while (next_span < maths.spans.size() && maths.spans[next_span].begin < i) ++next_span;
    if (next_span < maths.spans.size() && maths.spans[next_span].begin == i) {
      const MathSpan& sp = maths.spans[next_span++];
      render_math_span(std::string_view(text).substr(sp.begin, sp.end - sp.begin), sc, out);
      i = sp.end - 1;
      continue;
    }
    char c = text[i];
    if (c == '{' && i + 1 < text.size() && text[i + 1] == '{') {
      out += '{';
      ++i;
      continue;
    }
    if (c == '}' && i + 1 < text.size() && text[i + 1] == '}') {
      out += '}';
      ++i;
      continue;
    }
    if (c == '{') {
      if (next_close != std::string::npos && next_close <= i) next_close = text.find('}', i + 1);
      if (next_nl != std::string::npos && next_nl <= i) next_nl = text.find('\n', i + 1);
      size_t close = next_close, nl = next_nl;
      // ":NN" may follow the expression; anything longer cannot parse (kMaxExprLength).
      bool fits = close != std::string::npos && close - i - 1 <= kMaxExprLength + 3;
      if (fits && (nl == std::string::npos || nl > close)) {
        std::string_view inner = std::string_view(text).substr(i + 1, close - i - 1);
        // {plural(m, 'micro-batch')}, {if(p >= 16, 'deep', 'shallow')}: words, not a number.
        if (auto tf = parse_text_function(inner, nullptr)) {
          ExprError err;
          if (auto v = tf->expr.eval(sc, &err)) {
            out += apply_text_function(*tf, *v);
            i = close;
            continue;
          }
        }
        if (auto v = placeholder_value(inner, sc)) {
          out += superscript_power(*v);  // 6.1 × 10⁻⁵ in prose, as a reader expects
          i = close;
          continue;
        }
      }
    }
    out += c;
  }
  return out;
}

std::optional<Instance> make_instance(const Exercise& ex, uint64_t seed, std::string* error) {
  return make_instance(ex, seed, error, nullptr);
}

std::optional<Instance> make_instance(const Exercise& ex, uint64_t seed, std::string* error, int* draws) {
  Instance inst;
  inst.exercise = &ex;
  inst.seed = seed;
  Rng rng(hash_string(ex.id) ^ (seed * 0x9E3779B97F4A7C15ull));
  const int kTries = seed == 0 ? 1 : 200;
  bool ok = false;
  std::string why;
  for (int attempt = 0; attempt < kTries && !ok; ++attempt) {
    inst.values.clear();
    for (const auto& p : ex.params) {
      double v = p.default_value;
      if (seed != 0) v = draw_value(rng, p.choices, p.min, p.max, p.step);
      inst.values.emplace_back(p.name, v);
    }
    bool good = true;
    for (const auto& [name, e] : ex.derived) {
      ExprError err;
      auto v = e.eval(inst.scope(), &err);
      if (!v) {
        why = "derived \"" + name + "\": " + err.message;
        good = false;
        break;
      }
      inst.values.emplace_back(name, *v);
    }
    for (size_t k = 0; good && k < ex.constraints.size(); ++k) {
      ExprError err;
      auto v = ex.constraints[k].eval(inst.scope(), &err);
      if (!v || *v == 0) {
        why = "constraint \"" + ex.constraints[k].text() + "\" " +
              (v ? std::string("is false") : "fails: " + err.message);
        good = false;
      }
    }
    ok = good;
    if (draws) *draws = attempt + 1;
  }
  if (!ok) {
    if (error) *error = (seed == 0 ? "the default instance: " : "no instance satisfies the constraints: ") + why;
    return std::nullopt;
  }
  if (!ex.spec) {
    if (error) *error = "exercise has no type-specific part";
    return std::nullopt;
  }
  if (!ex.spec->prepare(ex, inst, seed, error)) return std::nullopt;
  return inst;
}

Feedback grade(const Instance& inst, const Answer& a, const GradeServices& services) {
  if (!inst.exercise || !inst.exercise->spec) {
    Feedback f;
    f.verdict = Verdict::FormatError;
    f.message = "internal: this instance has no exercise";
    return f;
  }
  return inst.exercise->spec->grade(*inst.exercise, inst, a, services);
}

const std::vector<std::string>& common_exercise_fields() { return kCommonFields; }

const TypeEntry* find_type(std::string_view name) {
  for (const auto& t : exercise_types())
    if (name == t.name) return &t;
  return nullptr;
}

bool sample_answer_holds(const SampleAnswer& s, const Feedback& fb, std::string* why) {
  using E = SampleAnswer::Expect;
  bool ok = false;
  switch (s.expect) {
    case E::Correct: ok = fb.verdict == Verdict::Correct; break;
    case E::Partial: ok = fb.verdict == Verdict::Partial; break;
    case E::Incorrect: ok = fb.verdict == Verdict::Incorrect; break;
    case E::Wrong: ok = fb.verdict == Verdict::Partial || fb.verdict == Verdict::Incorrect; break;
    case E::Unreadable: ok = fb.verdict == Verdict::FormatError; break;
  }
  std::string all = fb.message;
  for (const auto& d : fb.details) all += "\n" + d;
  for (const auto& p : fb.parts) all += "\n" + p.message;
  for (const auto& c : fb.cases) all += "\n" + c.message;
  if (ok && !s.message.empty() && all.find(s.message) == std::string::npos) {
    if (why) *why = s.kind + ": the feedback does not say \"" + s.message + "\": " + all;
    return false;
  }
  if (!ok && why) *why = s.kind + ": graded " + verdict_name(fb.verdict) + ": " + all;
  return ok;
}

}  // namespace dtx
