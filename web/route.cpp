#include "route.h"

#include <charconv>

namespace dtx::web {
namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (true) {
    size_t p = s.find(sep, start);
    out.push_back(s.substr(start, p == std::string_view::npos ? std::string_view::npos : p - start));
    if (p == std::string_view::npos) break;
    start = p + 1;
  }
  return out;
}

Route invalid(std::string why) {
  Route r;
  r.kind = Route::Invalid;
  r.error = std::move(why);
  return r;
}

// Decimal digits only: "+3", "3.0", " 3" and anything past 2^64 are not instance numbers.
bool parse_u64(std::string_view s, uint64_t& out) {
  if (s.empty() || s.size() > 20) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

}  // namespace

std::string exercise_address(const std::string& id) {
  Route r;
  r.kind = Route::Exercise;
  r.id = id;
  return format_route(r);
}

std::string percent_encode(std::string_view s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
                 c == '_' || c == '~';
    if (plain) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

bool percent_decode(std::string_view s, std::string& out) {
  out.clear();
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out += s[i];
      continue;
    }
    if (i + 2 >= s.size()) return false;
    int hi = hex_value(s[i + 1]), lo = hex_value(s[i + 2]);
    if (hi < 0 || lo < 0) return false;
    char c = static_cast<char>(hi * 16 + lo);
    if (c == '\0') return false;
    out += c;
    i += 2;
  }
  return true;
}

Route parse_route(std::string_view f) {
  if (f.size() > kMaxRouteBytes)
    return invalid("the address is " + std::to_string(f.size()) + " characters long after '#'; at most " +
                   std::to_string(kMaxRouteBytes) + " are read");
  if (!f.empty() && f.front() == '#') f.remove_prefix(1);
  if (f.empty() || f == "/") return Route{};
  if (f.front() != '/') return invalid("an address after '#' starts with '/', as in #/ex/ring.volume");
  f.remove_prefix(1);
  std::string_view query;
  if (size_t q = f.find('?'); q != std::string_view::npos) {
    query = f.substr(q + 1);
    f = f.substr(0, q);
  }
  while (!f.empty() && f.back() == '/') f.remove_suffix(1);  // "#/settings/" is "#/settings"
  std::vector<std::string> parts;
  for (std::string_view raw : split(f, '/')) {
    std::string p;
    if (!percent_decode(raw, p)) return invalid("\"" + std::string(raw) + "\" has a broken %-escape");
    parts.push_back(std::move(p));
  }
  Route r;
  const std::string& head = parts[0];
  if (head == "settings" && parts.size() == 1) {
    r.kind = Route::Settings;
  } else if (head == "assignment" && parts.size() == 1) {
    r.kind = Route::Assignment;
  } else if (head == "chapter" && (parts.size() == 2 || (parts.size() == 3 && parts[2] == "notes"))) {
    uint64_t n = 0;
    if (!parse_u64(parts[1], n) || n > 1000000) return invalid("a chapter is a number, as in #/chapter/5");
    r.chapter = static_cast<int>(n);
    r.notes = parts.size() == 3;
  } else if (head == "ex" && parts.size() <= 3) {
    if (parts.size() < 2 || parts[1].empty()) return invalid("#/ex/ needs an exercise id, as in #/ex/ring.volume");
    r.kind = Route::Exercise;
    r.id = parts[1];
    if (parts.size() == 3 && !parse_u64(parts[2], r.seed))
      return invalid("\"" + parts[2] + "\" is not an instance number (digits only, as in #/ex/" + r.id + "/3)");
  } else if (head == "practice" && parts.size() == 1) {
    r.kind = Route::Practice;
  } else if (head == "review" && parts.size() == 1) {
    r.kind = Route::Review;
  } else if (head == "glossary" && parts.size() <= 2) {
    r.kind = Route::Glossary;
    r.id = parts.size() == 2 ? parts[1] : "";
  } else if (head == "search" && parts.size() == 1) {
    r.kind = Route::Search;
  } else if (head == "lab" && (parts.size() == 1 || parts.size() == 2)) {
    r.kind = Route::Lab;
    r.id = parts.size() == 2 ? parts[1] : "";
  } else {
    return invalid("\"#/" + std::string(f) +
                   "\" is not an address of this site; addresses are #/, #/chapter/N, #/ex/ID, #/ex/ID/SEED, "
                   "#/lab/KIND, #/search?q=WORDS, #/practice, #/review, #/glossary, #/glossary/TERM, #/settings and #/assignment");
  }
  if (!query.empty()) {
    if (r.kind != Route::Lab && r.kind != Route::Search)
      return invalid("only Lab and search addresses take ?inputs, as in #/lab/pipeline?p=8 or #/search?q=bubble");
    for (std::string_view pair : split(query, '&')) {
      if (pair.empty()) continue;
      size_t eq = pair.find('=');
      std::string k, v;
      if (!percent_decode(pair.substr(0, eq), k) ||
          (eq != std::string_view::npos && !percent_decode(pair.substr(eq + 1), v)))
        return invalid("\"" + std::string(pair) + "\" has a broken %-escape");
      r.query.emplace_back(std::move(k), std::move(v));
    }
  }
  return r;
}

std::string format_route(const Route& r) {
  switch (r.kind) {
    case Route::Course:
      return r.chapter >= 0 ? "#/chapter/" + std::to_string(r.chapter) + (r.notes ? "/notes" : "") : "#/";
    case Route::Settings: return "#/settings";
    case Route::Assignment: return "#/assignment";
    case Route::Practice: return "#/practice";
    case Route::Review: return "#/review";
    case Route::Glossary: return r.id.empty() ? "#/glossary" : "#/glossary/" + percent_encode(r.id);
    case Route::Search: {
      for (const auto& [k, v] : r.query)
        if (k == "q" && !v.empty()) return "#/search?q=" + percent_encode(v);
      return "#/search";
    }
    case Route::Exercise: {
      std::string s = "#/ex/" + percent_encode(r.id);
      if (r.seed != 0) s += "/" + std::to_string(r.seed);
      return s;
    }
    case Route::Lab: {
      std::string s = "#/lab";
      if (!r.id.empty()) s += "/" + percent_encode(r.id);
      char sep = '?';
      for (const auto& [k, v] : r.query) {
        s += sep + percent_encode(k) + "=" + percent_encode(v);
        sep = '&';
      }
      return s;
    }
    case Route::Invalid: return "#/";
  }
  return "#/";
}

}  // namespace dtx::web
