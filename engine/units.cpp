#include "units.h"

#include <cctype>
#include <cmath>
#include <vector>

#include "expr.h"
#include "text.h"

namespace dtx {

namespace {

struct Prefix {
  const char* p;
  double f;
};
// Decimal prefixes. Lower-case k is accepted because "kB" is how many people write kilo.
constexpr Prefix kDecimal[] = {{"", 1},     {"K", 1e3},  {"k", 1e3},  {"M", 1e6},
                               {"G", 1e9},  {"T", 1e12}, {"P", 1e15}, {"E", 1e18}};
constexpr Prefix kBinary[] = {{"Ki", 1024.0},
                              {"Mi", 1048576.0},
                              {"Gi", 1073741824.0},
                              {"Ti", 1099511627776.0},
                              {"Pi", 1125899906842624.0},
                              {"Ei", 1152921504606846976.0}};

struct Time {
  const char* name;
  double seconds;
};
constexpr Time kTimes[] = {{"ns", 1e-9},     {"us", 1e-6},     {"µs", 1e-6},   {"μs", 1e-6},
                           {"ms", 1e-3},     {"s", 1},         {"sec", 1},     {"second", 1},
                           {"seconds", 1},   {"min", 60},      {"minute", 60}, {"minutes", 60},
                           {"h", 3600},      {"hr", 3600},     {"hour", 3600}, {"hours", 3600},
                           {"day", 86400},   {"days", 86400}};

// Things students count; plural and short forms map to one word.
struct CountWord {
  const char* name;
  const char* canonical;
};
constexpr CountWord kCounts[] = {
    {"token", "token"},       {"tokens", "token"},      {"tok", "token"},
    {"sequence", "sequence"}, {"sequences", "sequence"}, {"seq", "sequence"},
    {"seqs", "sequence"},     {"sample", "sample"},      {"samples", "sample"},
    {"step", "step"},         {"steps", "step"},         {"GPU", "GPU"},
    {"GPUs", "GPU"},          {"param", "parameter"},    {"params", "parameter"},
    {"parameter", "parameter"}, {"parameters", "parameter"}, {"layer", "layer"},
    {"layers", "layer"},      {"microbatch", "microbatch"}, {"microbatches", "microbatch"},
    {"iteration", "iteration"}, {"iterations", "iteration"}, {"iter", "iteration"},
    {"node", "node"},         {"nodes", "node"},         {"image", "image"},
    {"images", "image"},
};

Dim operator_mul(const Dim& a, const Dim& b, int sign) {
  Dim d = a;
  d.data += sign * b.data;
  d.time += sign * b.time;
  d.flop += sign * b.flop;
  d.money += sign * b.money;
  if (b.count) {
    d.count += sign * b.count;
    d.count_word = b.count_word;
  }
  return d;
}

// One factor of a unit: "GB", "ms", "FLOP", "tokens".
std::optional<Unit> parse_atom(std::string_view t, std::string* error) {
  Unit u;
  u.symbol = std::string(t);
  if (t == "%") {
    u.factor = 0.01;
    return u;
  }
  if (t == "$" || t == "USD") {
    u.dim.money = 1;
    return u;
  }
  for (const auto& tm : kTimes) {
    if (t == tm.name) {
      u.dim.time = 1;
      u.factor = tm.seconds;
      return u;
    }
  }
  for (const auto& c : kCounts) {
    if (t == c.name) {
      u.dim.count = 1;
      u.dim.count_word = c.canonical;
      return u;
    }
  }
  // FLOP with a decimal prefix; "FLOPs" (plural) is a count of operations, not a rate.
  for (const auto& p : kDecimal) {
    std::string base = std::string(p.p) + "FLOP";
    if (t == base || t == base + "s") {
      u.dim.flop = 1;
      u.factor = p.f;
      return u;
    }
  }
  for (const auto& p : kBinary) {
    if (t == std::string(p.p) + "B") {
      u.dim.data = 1;
      u.factor = p.f;
      u.family = DataFamily::Bytes;
      u.binary_prefix = true;
      return u;
    }
    if (t == std::string(p.p) + "b") {
      u.dim.data = 1;
      u.factor = p.f / 8;
      u.family = DataFamily::Bits;
      u.binary_prefix = true;
      return u;
    }
  }
  for (const auto& p : kDecimal) {
    if (t == std::string(p.p) + "B" || t == std::string(p.p) + "byte" ||
        t == std::string(p.p) + "bytes") {
      u.dim.data = 1;
      u.factor = p.f;
      u.family = DataFamily::Bytes;
      return u;
    }
    if (t == std::string(p.p) + "b" || t == std::string(p.p) + "bit" ||
        t == std::string(p.p) + "bits") {
      u.dim.data = 1;
      u.factor = p.f / 8;
      u.family = DataFamily::Bits;
      return u;
    }
  }
  if (error) {
    std::string low = to_lower(t);
    if (low.size() == 2 && (low[1] == 'b') && std::string("kmgtpe").find(low[0]) != std::string::npos) {
      std::string up(1, static_cast<char>(std::toupper(static_cast<unsigned char>(low[0]))));
      *error = "unknown unit '" + std::string(t) + "': did you mean " + up + "B (bytes) or " +
               up + "b (bits)?";
    } else {
      *error = "unknown unit '" + std::string(t) +
               "' (known: B KB MB GB TB PB, KiB..PiB, b Kb Mb Gb Tb, per second, ns us ms s "
               "min h day, FLOP TFLOP..., FLOP/s, %, $)";
    }
  }
  return std::nullopt;
}

// Shorthands students type: Gbps, GBps, TFLOPS.
std::string expand_shorthand(std::string_view t) {
  std::string s(t);
  auto ends_with = [&](std::string_view suf) {
    return s.size() > suf.size() && s.compare(s.size() - suf.size(), suf.size(), suf) == 0;
  };
  if (ends_with("bps")) return s.substr(0, s.size() - 3) + "b/s";
  if (ends_with("Bps")) return s.substr(0, s.size() - 3) + "B/s";
  if (s.size() >= 5 && s.compare(s.size() - 5, 5, "FLOPS") == 0)
    return s.substr(0, s.size() - 5) + "FLOP/s";
  return s;
}

}  // namespace

std::optional<Unit> parse_unit(std::string_view text, std::string* error) {
  std::string t = trim(text);
  Unit u;
  if (t.empty()) return u;
  std::string s = expand_shorthand(t);
  // Split "GB/s" and "tokens/GPU/s" into a numerator and divisors.
  std::vector<std::string> pieces;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == '/') {
      pieces.push_back(trim(std::string_view(s).substr(start, i - start)));
      start = i + 1;
    }
  }
  for (size_t i = 0; i < pieces.size(); ++i) {
    if (pieces[i].empty()) {
      if (error) *error = "unit '" + t + "' has an empty part around '/'";
      return std::nullopt;
    }
    if (i == 0 && pieces[i] == "1") continue;  // "1/s"
    auto a = parse_atom(pieces[i], error);
    if (!a) return std::nullopt;
    if (i == 0) {
      u = *a;
    } else {
      u.dim = operator_mul(u.dim, a->dim, -1);
      u.factor /= a->factor;
      if (a->family != DataFamily::None) u.family = DataFamily::None;
    }
  }
  u.symbol = s;
  return u;
}

std::string describe_dim(const Dim& d) {
  if (d.count && d.data == 0 && d.time == -1 && d.flop == 0) return d.count_word + "s per second";
  if (d.count == 1 && d.data == 0 && d.time == 0 && d.flop == 0 && d.money == 0)
    return "a count of " + d.count_word + "s";
  if (d.data == 1 && d.time == 0 && d.flop == 0 && !d.count) return "a data size";
  if (d.data == 1 && d.time == -1 && d.flop == 0 && !d.count) return "a bandwidth";
  if (d.time == 1 && d.data == 0 && d.flop == 0 && !d.count) return "a time";
  if (d.flop == 1 && d.time == 0 && d.data == 0) return "an amount of compute (FLOP)";
  if (d.flop == 1 && d.time == -1 && d.data == 0) return "a compute rate (FLOP/s)";
  if (d.money == 1 && d.time == 0) return "an amount of money";
  if (d.data == 0 && d.time == 0 && d.flop == 0 && d.money == 0 && d.count == 0)
    return "a plain number";
  if (d.flop == 1 && d.data == -1) return "an arithmetic intensity (FLOP per byte)";
  if (d.time == -1 && d.data == 0 && d.flop == 0) return "a rate (per second)";
  return "a derived quantity";
}

std::optional<QuantityInput> parse_quantity(std::string_view raw, std::string* error) {
  // Checked before anything else: every later message quotes the answer.
  size_t chars = 0;
  for (unsigned char c : raw) chars += (c & 0xC0) != 0x80;
  if (chars > kMaxAnswerLength) {
    if (error)
      *error = "the answer is " + format_number(static_cast<double>(chars)) +
               " characters long; answers are limited to " + std::to_string(kMaxAnswerLength) +
               " characters";
    return std::nullopt;
  }
  std::string t = trim(raw);
  if (t.empty()) {
    if (error) *error = "the answer is empty";
    return std::nullopt;
  }
  bool dollar = false;
  if (t[0] == '$') {
    dollar = true;
    t = trim(std::string_view(t).substr(1));
  }
  // Thousands separators: a comma followed by exactly three digits (1,024 or 16,384,000).
  // Any other comma between digits is probably a decimal comma, which we refuse rather
  // than misread by a factor of 1000.
  std::string s;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i] == ',') {
      bool digit_before = i > 0 && std::isdigit(static_cast<unsigned char>(t[i - 1]));
      size_t d = 0;
      while (i + 1 + d < t.size() && std::isdigit(static_cast<unsigned char>(t[i + 1 + d]))) ++d;
      if (digit_before && d == 3) continue;
      if (digit_before && d > 0) {
        if (error)
          *error = "'" + std::string(raw) +
                   "': a comma is read as a thousands separator (1,024); write decimals with "
                   "a point (1.5)";
        return std::nullopt;
      }
    }
    if (t[i] == '_' || (t.compare(i, 3, "\xE2\x80\xAF") == 0)) continue;  // 1_000, narrow nbsp
    s += t[i];
  }
  size_t used = 0;
  ExprError err;
  Expr e = Expr::parse_prefix(s, false, &used, &err);
  if (!e.valid()) {
    if (error)
      *error = "could not read '" + std::string(raw) + "' as a number: " + err.message +
               " (at character " + std::to_string(err.column) +
               "); write e.g. 0.875, 6.1e-5, 6.1 × 10^-5 or 875 MB";
    return std::nullopt;
  }
  ExprError everr;
  auto v = e.eval(nullptr, &everr);
  if (!v) {
    if (error) *error = "could not compute '" + std::string(raw) + "': " + everr.message;
    return std::nullopt;
  }
  QuantityInput q;
  q.value = *v;
  std::string rest = trim(std::string_view(s).substr(used));
  if (dollar) {
    if (!rest.empty()) {
      if (error) *error = "'" + std::string(raw) + "': give either a $ sign or a unit, not both";
      return std::nullopt;
    }
    rest = "$";
  }
  if (!rest.empty()) {
    std::string uerr;
    auto u = parse_unit(rest, &uerr);
    if (!u) {
      if (error) *error = uerr;
      return std::nullopt;
    }
    q.unit = *u;
  }
  return q;
}

std::optional<double> read_quantity_in(std::string_view text, const Unit& unit, const std::string& unit_text,
                                       const std::string& wanted, std::string* error, QuantityInput* as_given) {
  std::string err;
  auto q = parse_quantity(text, &err);
  if (q && q->unit && q->unit->dim != unit.dim) {
    err = "'" + trim(text) + "' is " + describe_dim(q->unit->dim) + "; " + wanted + " " + describe_dim(unit.dim) +
          (unit_text.empty() ? "" : " (in " + unit_text + ")") + ".";
    q.reset();
  }
  if (!q) {
    if (error) *error = err;
    return std::nullopt;
  }
  if (as_given) *as_given = *q;
  return q->unit ? q->value * q->unit->factor / unit.factor : q->value;
}

}  // namespace dtx
