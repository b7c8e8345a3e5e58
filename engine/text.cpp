#include "text.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include "figures.h"

namespace dtx {

int utf8_column(std::string_view s, size_t byte_pos) {
  int col = 1;
  for (size_t i = 0; i < byte_pos && i < s.size(); ++i)
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) ++col;
  // byte_pos inside a multi-byte char counts that char once
  return col;
}

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

std::string_view utf8_char_at(std::string_view s, size_t byte_pos) {
  if (byte_pos >= s.size()) return "end of input";
  size_t len = 1;
  unsigned char c = static_cast<unsigned char>(s[byte_pos]);
  if (c >= 0xF0) len = 4;
  else if (c >= 0xE0) len = 3;
  else if (c >= 0xC0) len = 2;
  return s.substr(byte_pos, len);
}

namespace {

std::string group_thousands(const std::string& digits) {
  std::string out;
  int n = static_cast<int>(digits.size());
  for (int i = 0; i < n; ++i) {
    out += digits[i];
    int left = n - 1 - i;
    if (left > 0 && left % 3 == 0) out += ',';
  }
  return out;
}

std::string trim_zeros(std::string s) {
  if (s.find('.') == std::string::npos) return s;
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

}  // namespace

std::string format_number(double v, int sig) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "∞" : "−∞";
  if (sig < 1) sig = 1;
  if (sig > 15) sig = 15;
  if (v == 0) return "0";
  std::string sign = v < 0 ? "-" : "";
  double a = std::fabs(v);
  // Round to `sig` significant digits first so 999.99 with sig 4 becomes 1,000.
  int exp10 = static_cast<int>(std::floor(std::log10(a)));
  double scale = std::pow(10.0, sig - 1 - exp10);
  double rounded = std::round(a * scale) / scale;
  if (rounded > 0) exp10 = static_cast<int>(std::floor(std::log10(rounded) + 1e-12));

  if (exp10 >= 15 || exp10 < -4) {
    double mant = rounded / std::pow(10.0, exp10);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", sig - 1, mant);
    return sign + trim_zeros(buf) + " × 10^" + std::to_string(exp10);
  }
  // Integers (after rounding to at least the integer digits) print in full: a GPU count
  // or a byte count reads better as 16,384 than as 1.638 × 10^4.
  int decimals = std::max(0, sig - 1 - exp10);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, exp10 >= sig - 1 ? std::round(a) : rounded);
  std::string s = trim_zeros(buf);
  size_t dot = s.find('.');
  std::string ip = dot == std::string::npos ? s : s.substr(0, dot);
  std::string fp = dot == std::string::npos ? "" : s.substr(dot);
  if (ip.size() > 4) ip = group_thousands(ip);
  return sign + ip + fp;
}

std::string trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

std::string to_lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

uint32_t utf8_decode(std::string_view s, size_t& i) {
  const unsigned char c = static_cast<unsigned char>(s[i]);
  const size_t len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
  const size_t n = std::min(len, s.size() - i);
  uint32_t cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
  for (size_t k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  i += n;
  return cp;
}

const char* superscript_of(uint32_t c) {
  switch (c) {
    case '0': return "⁰"; case '1': return "¹"; case '2': return "²"; case '3': return "³";
    case '4': return "⁴"; case '5': return "⁵"; case '6': return "⁶"; case '7': return "⁷";
    case '8': return "⁸"; case '9': return "⁹"; case '+': return "⁺"; case '=': return "⁼";
    case '(': return "⁽"; case ')': return "⁾"; case 'n': return "ⁿ"; case 'i': return "ⁱ";
    case 0x2212: return "⁻";
    default: return nullptr;
  }
}
const char* subscript_of(uint32_t c) {
  switch (c) {
    case '0': return "₀"; case '1': return "₁"; case '2': return "₂"; case '3': return "₃";
    case '4': return "₄"; case '5': return "₅"; case '6': return "₆"; case '7': return "₇";
    case '8': return "₈"; case '9': return "₉"; case '+': return "₊"; case '=': return "₌";
    case '(': return "₍"; case ')': return "₎"; case 'a': return "ₐ"; case 'e': return "ₑ";
    case 'o': return "ₒ"; case 'x': return "ₓ"; case 'h': return "ₕ"; case 'k': return "ₖ";
    case 'l': return "ₗ"; case 'm': return "ₘ"; case 'n': return "ₙ"; case 'p': return "ₚ";
    case 's': return "ₛ"; case 't': return "ₜ"; case 0x2212: return "₋";
    default: return nullptr;
  }
}


std::string superscript_power(const std::string& f) {
  static const std::string kMark = " × 10^";
  size_t x = f.find(kMark);
  if (x == std::string::npos) return f;
  std::string out = f.substr(0, x) + " × 10";
  for (char c : f.substr(x + kMark.size())) {
    if (c != '-' && (c < '0' || c > '9')) return f;  // not what format_number writes
    out += superscript_of(c == '-' ? 0x2212 : static_cast<uint32_t>(c));
  }
  return out;
}

std::optional<int> superscript_integer(std::string_view s, size_t pos, size_t* len) {
  // Every one starts with byte C2 (¹ ² ³) or E2 (the rest): the parser asks after every number.
  if (pos >= s.size() || (static_cast<unsigned char>(s[pos]) != 0xC2 && static_cast<unsigned char>(s[pos]) != 0xE2))
    return std::nullopt;
  auto digit_at = [&](size_t p, size_t* n) -> int {
    for (int d = 0; d < 10; ++d) {
      std::string_view g(superscript_of('0' + d));
      if (s.substr(p, g.size()) == g) {
        *n = g.size();
        return d;
      }
    }
    return -1;
  };
  size_t p = pos;
  bool negative = false;
  const std::string_view minus(superscript_of(0x2212));
  if (s.substr(p, minus.size()) == minus) {
    negative = true;
    p += minus.size();
  }
  int value = 0, digits = 0;
  for (size_t n = 0; digits < 5; ++digits, p += n) {
    int d = digit_at(p, &n);
    if (d < 0) break;
    value = value * 10 + d;
  }
  if (digits == 0 || digits > 4) return std::nullopt;
  *len = p - pos;
  return negative ? -value : value;
}


bool within(double given, double expected, double rel, double abs) {
  double allowed = std::max(abs, rel * std::fabs(expected));
  // A hair of slack so "within 1%" includes exactly 1% despite rounding in the input.
  return std::fabs(given - expected) <= allowed * (1 + 1e-9) + 1e-300;
}

std::string describe_tolerance(double rel, double abs, const std::string& unit) {
  std::string r = rel > 0 ? "within " + format_percent(rel) : "";
  std::string a = abs > 0 ? "within ±" + format_number(abs) + (unit.empty() ? "" : " " + unit) : "";
  if (!r.empty() && !a.empty()) return r + " or " + a.substr(7);
  if (!r.empty()) return r;
  if (!a.empty()) return a;
  return "exactly";
}

namespace {

// Whether a number written with these digits (commas and a decimal part allowed) is read
// starting with a vowel sound: "eight...", "eighty...", "eleven...", "eighteen..." as the
// leading group of thousands ("11,000" is "eleven thousand"; "110" is "one hundred ten").
bool read_with_vowel(std::string_view digits) {
  std::string whole;
  for (char c : digits) {
    if (c == '.') break;
    if (c >= '0' && c <= '9') whole += c;
  }
  if (whole.empty()) return false;
  if (whole[0] == '8') return true;
  size_t lead = whole.size() % 3 == 0 ? 3 : whole.size() % 3;
  std::string group = whole.substr(0, lead);
  return group == "11" || group == "18";
}

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

}  // namespace

std::string article_mismatch(std::string_view text) {
  for (size_t i = 0; i < text.size(); ++i) {
    if (i > 0 && (word_char(text[i - 1]) || text[i - 1] == '\\')) continue;
    size_t n = 0;
    if ((text[i] == 'a' || text[i] == 'A') && i + 1 < text.size()) n = (text[i + 1] == 'n') ? 2 : 1;
    if (n == 0 || i + n >= text.size() || text[i + n] != ' ') continue;
    size_t j = i + n;
    while (j < text.size() && (text[j] == ' ' || text[j] == '*' || text[j] == '_')) ++j;
    size_t k = j;
    while (k < text.size() && (std::isdigit(static_cast<unsigned char>(text[k])) ||
                               ((text[k] == ',' || text[k] == '.') && k + 1 < text.size() &&
                                std::isdigit(static_cast<unsigned char>(text[k + 1])))))
      ++k;
    if (k == j) continue;
    bool an = n == 2, vowel = read_with_vowel(text.substr(j, k - j));
    if (an != vowel) return std::string(text.substr(i, k - i));
  }
  return "";
}

}  // namespace dtx
