#include "figures.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include "text.h"

namespace dtx {

namespace {

// `value` to `sig` significant digits with trailing zeros trimmed ("%.*g" never groups digits:
// a scaled figure is under 1000, and a bare count such as "3352 GB/s" reads as a number).
std::string digits(double value, int sig) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", sig, value);
  std::string s = buf;
  if (s.find('e') != std::string::npos) return format_number(value, sig);  // beyond the prefixes
  return s;
}

// Scales `value` by `step` until it is under `step` (after rounding to `sig` digits, so 999.96
// reads "1 K", not "1000"), choosing among `count` prefixes.
std::string scaled(double value, double step, const char* const* prefixes, int count, const char* unit, int sig) {
  if (!std::isfinite(value)) return format_number(value, sig) + " " + unit;
  int p = 0;
  double x = value;
  const double limit = step - 0.5 * std::pow(10.0, std::ceil(std::log10(step)) - sig);
  while (std::fabs(x) >= limit && p + 1 < count) {
    x /= step;
    ++p;
  }
  return digits(x, sig) + " " + prefixes[p] + unit;
}

}  // namespace

std::string format_bytes(double bytes, int sig) {
  static const char* const p[] = {"", "K", "M", "G", "T", "P", "E"};
  return scaled(bytes, 1000, p, 7, "B", sig);
}

std::string format_bytes_binary(double bytes, int sig) {
  static const char* const p[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
  return scaled(bytes, 1024, p, 7, "B", sig);
}

std::string format_gb(double bytes, int sig) { return digits(bytes / 1e9, sig) + " GB"; }

std::string format_seconds(double s, int sig) {
  const double a = std::fabs(s);
  if (!std::isfinite(s)) return format_number(s, sig) + " s";
  if (a >= 86400) return digits(s / 86400, sig) + " days";
  if (a >= 3600) return digits(s / 3600, sig) + " h";
  if (a >= 1 || a == 0) return digits(s, sig) + " s";
  if (a >= 1e-3) return digits(s * 1e3, sig) + " ms";
  if (a >= 1e-6) return digits(s * 1e6, sig) + " µs";
  return digits(s * 1e9, sig) + " ns";
}

std::string format_si(double value, const char* unit, int sig) {
  static const char* const p[] = {"", "K", "M", "G", "T", "P", "E", "Z"};
  return scaled(value, 1000, p, 8, unit, sig);
}

std::string format_percent(double fraction, int sig) { return format_number(fraction * 100, sig) + "%"; }

std::string option_letter(size_t pos) { return pos < kMaxLettered ? std::string(1, static_cast<char>('A' + pos)) : "?"; }

std::vector<std::string> split_answer_words(const std::vector<std::string>& words) {
  std::vector<std::string> out;
  for (const auto& a : words) {
    std::string cur;
    for (char c : a) {
      if (c == ',' || c == ' ' || c == ';') {
        if (!cur.empty()) out.push_back(cur);
        cur.clear();
      } else {
        cur += c;
      }
    }
    if (!cur.empty()) out.push_back(cur);
  }
  return out;
}

std::vector<std::string> indices_to_letters(const std::vector<int>& indices, const std::vector<int>& order) {
  std::vector<std::string> out;
  for (int index : indices) {
    auto at = std::find(order.begin(), order.end(), index);
    out.push_back(option_letter(static_cast<size_t>(at - order.begin())));
  }
  return out;
}

std::optional<std::vector<int>> letters_to_indices(const std::vector<std::string>& words, const std::vector<int>& order,
                                                   std::string* error) {
  std::vector<int> out;
  for (const auto& tok : split_answer_words(words)) {
    bool all_letters = true;  // "CABD" as one word
    for (char c : tok) all_letters &= std::isalpha(static_cast<unsigned char>(c)) != 0;
    if (!all_letters) {
      if (error) *error = "expected option letters such as A or A,C; got '" + tok + "'";
      return std::nullopt;
    }
    for (char c : tok) {
      int pos = std::toupper(static_cast<unsigned char>(c)) - 'A';
      if (pos < 0 || pos >= static_cast<int>(order.size())) {
        if (error)
          *error = std::string("there is no option ") + static_cast<char>(std::toupper(c)) + " (choose A to " +
                   option_letter(order.size() - 1) + ")";
        return std::nullopt;
      }
      out.push_back(order[pos]);
    }
  }
  return out;
}

}  // namespace dtx
