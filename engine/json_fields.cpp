#include "json_fields.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "figures.h"
#include "text.h"

namespace dtx {

std::string describe_json(const Json& j) {
  switch (j.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::boolean: return j.get<bool>() ? "true" : "false";
    case Json::value_t::string: return "the string \"" + excerpt(j.get_ref<const std::string&>(), 30) + "\"";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float: return "the number " + format_number(j.get<double>(), 6);
    case Json::value_t::array:
      return "an array of " + std::to_string(j.size()) + (j.size() == 1 ? " item" : " items");
    case Json::value_t::object: return "an object";
    default: return "a value of another kind";
  }
}

std::string excerpt(std::string_view s, size_t max_chars) {
  max_chars = std::max<size_t>(max_chars, 4);
  size_t chars = 0, cut = std::string_view::npos;
  for (size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) continue;
    if (chars == max_chars - 3) cut = i;  // room for the "..."
    if (++chars > max_chars) return std::string(s.substr(0, cut)) + "...";
  }
  return std::string(s);
}

std::string utf8_escaped(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
    unsigned char c = b(i);
    size_t len = c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    bool ok = len > 0 && i + len <= s.size();
    for (size_t k = 1; ok && k < len; ++k) ok = (b(i + k) & 0xC0) == 0x80;
    // Overlong forms, surrogates and code points past U+10FFFF are invalid too.
    if (ok && len == 3) ok = !(c == 0xE0 && b(i + 1) < 0xA0) && !(c == 0xED && b(i + 1) >= 0xA0);
    if (ok && len == 4) ok = !(c == 0xF0 && b(i + 1) < 0x90) && !(c == 0xF4 && b(i + 1) >= 0x90);
    if (ok) {
      out.append(s.substr(i, len));
      i += len;
    } else {
      static const char* hex = "0123456789ABCDEF";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
      ++i;
    }
  }
  return out;
}

// Byte offset of the `column`-th character (1-based) of the JSON string whose opening quote
// is at `quote`: escapes such as \n or \u00d7 are one character of the decoded string but
// several bytes of the file.
size_t offset_inside_string(const std::string& text, size_t quote, int column) {
  size_t p = quote + 1;
  for (int c = 1; c < column && p < text.size() && text[p] != '"'; ++c) {
    if (text[p] == '\\' && p + 1 < text.size()) {
      if (text[p + 1] == 'u') {
        p += 6;
        // a surrogate pair is one character
        if (p + 1 < text.size() && text[p] == '\\' && text[p + 1] == 'u' && text.size() > p + 3 &&
            (text[p - 4] == 'd' || text[p - 4] == 'D') && std::string("89abAB").find(text[p - 3]) != std::string::npos)
          p += 6;
      } else {
        p += 2;
      }
    } else {
      unsigned char b = static_cast<unsigned char>(text[p]);
      p += b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
    }
  }
  return std::min(p, text.size());
}

void Reporter::report(DiagCode code, const std::string& pointer, const std::string& message,
                      bool at_key, int column_in_string) const {
  if (!out) return;
  const Severity sev = diag_info(code).severity();
  if (sev == Severity::Error) ++errors;
  if (out->size() >= max_stored) {
    ++dropped;
    return;
  }
  Diagnostic d;
  d.file = file;
  d.pointer = pointer;
  d.message = message;
  d.severity = sev;
  d.code = code;
  if (positions && text) {
    size_t off = positions->offset_of(*text, pointer, at_key);
    if (column_in_string > 0) off = offset_inside_string(*text, off, column_in_string);
    TextPos p = positions->at_offset(*text, off);
    d.line = p.line;
    d.column = p.column;
  }
  out->push_back(std::move(d));
}

bool LoadContext::failed() const { return errors > error_count_at_start; }

bool LoadContext::expect_object(const Json& j, const std::string& ptr, const char* what) {
  if (j.is_object()) return true;
  error(DiagCode::WrongKind, ptr, std::string("expected ") + what + " (a JSON object), got " + describe_json(j));
  return false;
}

std::string did_you_mean(std::string_view got, const std::vector<std::string>& candidates,
                         char quote) {
  std::string best = closest_match(got, candidates);
  if (best.empty()) return "";
  return std::string(" (did you mean ") + quote + best + quote + "?)";
}

std::string join_names(const std::vector<std::string>& names, const char* sep) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) out += (i ? sep : "") + names[i];
  return out;
}

bool LoadContext::skip_comment(const std::string& key, const Json& value,
                               const std::string& obj_ptr) {
  if (key != "$comment") return false;
  bool ok = value.is_string();
  if (value.is_array()) {
    ok = true;
    for (const auto& v : value) ok &= v.is_string();
  }
  if (!ok)
    error(DiagCode::BadComment, obj_ptr + "/$comment",
          "expected \"$comment\" to be a string (or an array of strings) for authors to read, got " +
              describe_json(value));
  return true;
}

void LoadContext::check_fields(const Json& obj, const std::string& ptr,
                               const std::vector<std::string>& allowed,
                               const std::vector<std::string>& required) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    const std::string& k = it.key();
    if (skip_comment(k, it.value(), ptr)) continue;
    if (std::find(allowed.begin(), allowed.end(), k) != allowed.end()) continue;
    std::string msg = "unknown field \"" + k + "\"";
    // JSON has no comments; authors reach for the conventions of other formats.
    if (k.rfind("//", 0) == 0 || k == "#" || k == "_comment" || k == "comment" || k == "__comment")
      msg += " (JSON has no comments: write \"$comment\": \"...\" instead)";
    else
      msg += did_you_mean(k, allowed);
    msg += "; expected one of: " + join_names(allowed);
    error(DiagCode::UnknownField, ptr + "/" + json_pointer_escape(k), msg, true);
  }
  for (const auto& r : required) {
    if (!obj.contains(r)) error(DiagCode::MissingField, ptr, "missing required field \"" + r + "\"");
  }
}

std::optional<std::string> LoadContext::string_field(const Json& obj, const std::string& ptr,
                                                     const char* key, bool required,
                                                     bool non_empty) {
  auto it = obj.find(key);
  if (it == obj.end()) return std::nullopt;  // check_fields reports missing required ones
  std::string p = ptr + "/" + key;
  if (!it->is_string()) {
    error(DiagCode::WrongKind, p, std::string("expected a string, got ") + describe_json(*it));
    return std::nullopt;
  }
  std::string s = it->get<std::string>();
  if (non_empty && trim(s).empty()) {
    error(DiagCode::ValueNotAllowed, p, "expected a non-empty string");
    return std::nullopt;
  }
  (void)required;
  return s;
}

std::optional<double> LoadContext::number_field(const Json& obj, const std::string& ptr,
                                                const char* key, bool required) {
  auto it = obj.find(key);
  (void)required;
  if (it == obj.end()) return std::nullopt;
  if (!it->is_number()) {
    std::string hint = it->is_string() ? " (write the number without quotes)" : "";
    error(DiagCode::WrongKind, ptr + "/" + key, "expected a number, got " + describe_json(*it) + hint);
    return std::nullopt;
  }
  return it->get<double>();
}

std::optional<long long> LoadContext::int_field(const Json& obj, const std::string& ptr,
                                                const char* key, bool required, long long min,
                                                long long max) {
  auto v = number_field(obj, ptr, key, required);
  if (!v) return std::nullopt;
  if (std::floor(*v) != *v || *v < static_cast<double>(min) || *v > static_cast<double>(max)) {
    error(DiagCode::ValueNotAllowed, ptr + "/" + key, "expected a whole number from " + std::to_string(min) + " to " +
                               std::to_string(max) + ", got " + format_number(*v, 6));
    return std::nullopt;
  }
  return static_cast<long long>(*v);
}

std::optional<bool> LoadContext::bool_field(const Json& obj, const std::string& ptr,
                                            const char* key) {
  auto it = obj.find(key);
  if (it == obj.end()) return std::nullopt;
  if (!it->is_boolean()) {
    std::string hint;
    if (it->is_string() && (it->get<std::string>() == "true" || it->get<std::string>() == "false"))
      hint = " (write " + it->get<std::string>() + " without quotes)";
    error(DiagCode::WrongKind, ptr + "/" + key, "expected true or false, got " + describe_json(*it) + hint);
    return std::nullopt;
  }
  return it->get<bool>();
}

std::vector<std::string> LoadContext::string_list_field(const Json& obj, const std::string& ptr,
                                                        const char* key) {
  std::vector<std::string> out;
  auto it = obj.find(key);
  if (it == obj.end()) return out;
  std::string p = ptr + "/" + key;
  if (!it->is_array()) {
    error(DiagCode::WrongKind, p, "expected an array of strings, got " + describe_json(*it));
    return out;
  }
  for (size_t i = 0; i < it->size(); ++i) {
    const Json& v = (*it)[i];
    if (!v.is_string() || trim(v.get<std::string>()).empty()) {
      error(v.is_string() ? DiagCode::ValueNotAllowed : DiagCode::WrongKind, p + "/" + std::to_string(i),
            "expected a non-empty string, got " + describe_json(v));
      continue;
    }
    out.push_back(v.get<std::string>());
  }
  return out;
}

std::optional<Expr> LoadContext::expr_value(const Json& v, const std::string& ptr) {
  if (v.is_number()) {
    // A bare number is allowed where a constant is meant (a mistake like "0"), but answers
    // should be expressions; lint warns about constant answers elsewhere.
    ExprError e;
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v.get<double>());  // no thousands separators
    return Expr::parse(buf, &e);
  }
  if (!v.is_string()) {
    error(DiagCode::WrongKind, ptr, "expected an expression (a string such as \"2*M*(N-1)/N\"), got " +
                   describe_json(v));
    return std::nullopt;
  }
  ExprError err;
  Expr e = Expr::parse(v.get<std::string>(), &err);
  if (!e.valid()) {
    error(DiagCode::InvalidExpression, ptr, "invalid expression at column " + std::to_string(err.column) + ": " +
                   err.message,
          false, err.column);
    return std::nullopt;
  }
  return e;
}

std::optional<Expr> LoadContext::expr_field(const Json& obj, const std::string& ptr,
                                            const char* key, bool required) {
  auto it = obj.find(key);
  (void)required;
  if (it == obj.end()) return std::nullopt;
  return expr_value(*it, ptr + "/" + key);
}

bool LoadContext::tolerance_field(const Json& obj, const std::string& ptr, const char* key,
                                  double* rel, double* abs) {
  *rel = 0.01;
  *abs = 0;
  auto it = obj.find(key);
  if (it == obj.end()) return true;
  std::string p = ptr + "/" + key;
  if (!it->is_object()) {
    error(DiagCode::WrongKind, p, "expected an object with \"rel\" and/or \"abs\" (e.g. {\"rel\": 0.01}), got " +
                 describe_json(*it));
    return false;
  }
  check_fields(*it, p, {"rel", "abs"}, {});
  if (!it->contains("rel") && !it->contains("abs")) {
    error(DiagCode::MissingField, p, "expected \"rel\" and/or \"abs\" in the tolerance, got an empty object");
    return false;
  }
  auto r = number_field(*it, p, "rel", false);
  auto a = number_field(*it, p, "abs", false);
  *rel = 0;
  if (r) {
    if (*r < 0 || *r >= 1) {
      error(DiagCode::ValueNotAllowed, p + "/rel", "expected a relative tolerance from 0 to 1 (0.01 is 1%), got " +
                            format_number(*r, 6));
      return false;
    }
    *rel = *r;
  }
  if (a) {
    if (*a < 0) {
      error(DiagCode::ValueNotAllowed, p + "/abs", "expected an absolute tolerance of 0 or more, got " + format_number(*a, 6));
      return false;
    }
    *abs = *a;
  }
  return true;
}


std::optional<ValueRange> read_value_range(LoadContext& ctx, const Json& spec, const std::string& p,
                                           std::optional<double> fixed) {
  ValueRange r;
  const bool has_choices = spec.contains("choices");
  const bool has_range = spec.contains("min") || spec.contains("max");
  if (has_choices && has_range) {
    ctx.error(DiagCode::BadRange, p, "give either \"choices\" or \"min\"/\"max\", not both");
    return std::nullopt;
  }
  if (has_choices) {
    const Json& ch = spec["choices"];
    if (!ch.is_array() || ch.empty()) {
      ctx.error(DiagCode::WrongKind, p + "/choices", "expected a non-empty array of numbers, got " + describe_json(ch));
      return std::nullopt;
    }
    bool bad = false;
    for (size_t i = 0; i < ch.size(); ++i) {
      if (!ch[i].is_number()) {
        ctx.error(DiagCode::WrongKind, p + "/choices/" + std::to_string(i), "expected a number, got " + describe_json(ch[i]));
        bad = true;
      } else {
        r.choices.push_back(ch[i].get<double>());
      }
    }
    if (bad) return std::nullopt;
    if (fixed && std::find(r.choices.begin(), r.choices.end(), *fixed) == r.choices.end()) {
      ctx.error(DiagCode::DefaultOutsideRange, p + "/default", "the default " + format_number(*fixed, 6) + " is not one of the choices");
      return std::nullopt;
    }
    // (Reported, not fatal: the choices are still good.)
    if (spec.contains("step")) ctx.error(DiagCode::BadRange, p + "/step", "\"step\" only applies to a min/max range");
    return r;
  }
  if (has_range) {
    auto mn = ctx.number_field(spec, p, "min", true);
    auto mx = ctx.number_field(spec, p, "max", true);
    auto st = ctx.number_field(spec, p, "step", false);
    if (!spec.contains("min")) ctx.error(DiagCode::BadRange, p, "a range needs \"min\" as well as \"max\"");
    if (!spec.contains("max")) ctx.error(DiagCode::BadRange, p, "a range needs \"max\" as well as \"min\"");
    if (!mn || !mx) return std::nullopt;
    if (*mn > *mx) {
      ctx.error(DiagCode::BadRange, p + "/max", "expected max ≥ min (" + format_number(*mn, 6) + "), got " + format_number(*mx, 6));
      return std::nullopt;
    }
    r.min = *mn;
    r.max = *mx;
    if (st) {
      if (*st <= 0) {
        ctx.error(DiagCode::BadRange, p + "/step", "expected a step greater than 0, got " + format_number(*st, 6));
        return std::nullopt;
      }
      r.step = *st;
      if (fixed) {
        const double k = (*fixed - r.min) / r.step;
        if (std::fabs(k - std::round(k)) > 1e-9) {
          ctx.error(DiagCode::DefaultOutsideRange, p + "/default", "the default " + format_number(*fixed, 6) + " is not min + a whole number of steps");
          return std::nullopt;
        }
      }
    }
    if (fixed && (*fixed < r.min || *fixed > r.max)) {
      ctx.error(DiagCode::DefaultOutsideRange, p + "/default", "the default " + format_number(*fixed, 6) + " is outside [" + format_number(r.min, 6) +
                                    ", " + format_number(r.max, 6) + "]");
      return std::nullopt;
    }
    return r;
  }
  if (!fixed) {
    ctx.error(DiagCode::BadRange, p, "expected \"choices\" or both \"min\" and \"max\"");
    return std::nullopt;
  }
  // A fixed value: only the default. A "step" here would silently do nothing.
  if (spec.contains("step")) {
    ctx.error(DiagCode::BadRange, p + "/step", "\"step\" only applies to a min/max range; add \"min\" and \"max\", or remove it");
    return std::nullopt;
  }
  r.choices = {*fixed};
  return r;
}

}  // namespace dtx
