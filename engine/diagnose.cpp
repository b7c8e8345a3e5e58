#include "diagnose.h"

#include <algorithm>
#include <cmath>

#include "text.h"

namespace dtx {

bool near_factor(double given, double expected, double k, double rel, double abs) {
  return within(given, expected * k, rel, abs * std::fabs(k));
}

namespace {

// Which slips a quantity in this unit can suffer.
enum Applies : unsigned {
  kAlways = 0,
  kData = 1,      // bits vs bytes: data sizes and rates
  kPrefixed = 2,  // binary vs decimal prefixes: a data unit with a prefix (GB, MiB/s)
  kUnit = 4,      // unit prefixes (ms vs s, MB vs GB): there is a unit to get wrong
  kFraction = 8,  // percent vs fraction: percentages and plain numbers
};

struct Factor {
  double k;
  unsigned applies;
  const char* key;  // misconception.h: groups the slip across exercises
  const char* msg;
};

// Checked in this order: the first that fits is the most likely slip.
const Factor kFactors[] = {
    {2, kAlways, "double",
     "Your answer is 2x the expected value: something is counted twice (both phases twice, both "
     "directions of a link, or 2 bytes where 1 belongs)."},
    {0.5, kAlways, "double",
     "Your answer is half the expected value: a factor of 2 is missing (one phase of two, one "
     "direction, or bytes per parameter)."},
    {8, kData, "bits-bytes", "Your answer is 8x the expected value: bits vs bytes (1 byte = 8 bits)."},
    {0.125, kData, "bits-bytes", "Your answer is 1/8 of the expected value: bits vs bytes (1 byte = 8 bits)."},
    {1000, kUnit, "unit-prefix",
     "Your answer is 1000x the expected value: check the unit prefix (MB vs GB, ms vs s, GFLOP vs "
     "TFLOP)."},
    {0.001, kUnit, "unit-prefix",
     "Your answer is 1/1000 of the expected value: check the unit prefix (MB vs GB, ms vs s, "
     "GFLOP vs TFLOP)."},
    {1024, kPrefixed, "binary-prefix",
     "Your answer is 1024x the expected value: a unit step in binary prefixes (KiB, MiB, GiB) is "
     "1024."},
    {1.0 / 1024, kPrefixed, "binary-prefix",
     "Your answer is 1/1024 of the expected value: a unit step in binary prefixes (KiB, MiB, GiB) "
     "is 1024."},
    {1.073741824, kPrefixed, "binary-decimal", "Your answer is 7.4% high: that is GiB vs GB (2^30 vs 10^9 bytes)."},
    {1 / 1.073741824, kPrefixed, "binary-decimal", "Your answer is 6.9% low: that is GiB vs GB (2^30 vs 10^9 bytes)."},
    {1.048576, kPrefixed, "binary-decimal", "Your answer is 4.9% high: that is MiB vs MB (2^20 vs 10^6 bytes)."},
    {1 / 1.048576, kPrefixed, "binary-decimal", "Your answer is 4.6% low: that is MiB vs MB (2^20 vs 10^6 bytes)."},
    {1.099511627776, kPrefixed, "binary-decimal", "Your answer is 10% high: that is TiB vs TB (2^40 vs 10^12 bytes)."},
    {1 / 1.099511627776, kPrefixed, "binary-decimal", "Your answer is 9% low: that is TiB vs TB (2^40 vs 10^12 bytes)."},
    {100, kFraction, "percent-fraction", "Your answer is 100x the expected value: percent vs fraction (50% = 0.5)."},
    {0.01, kFraction, "percent-fraction", "Your answer is 1/100 of the expected value: percent vs fraction (50% = 0.5)."},
    {1e6, kUnit, "unit-million", "Your answer is a million times the expected value: check the unit (µs vs s, MB vs TB)."},
    {1e-6, kUnit, "unit-million", "Your answer is a millionth of the expected value: check the unit (µs vs s, MB vs TB)."},
};

unsigned what_applies(const Unit* u) {
  if (!u) return kAlways;  // a code case's value: no unit, and no percent either
  unsigned a = kAlways;
  bool plain = u->dim.data == 0 && u->dim.time == 0 && u->dim.flop == 0 && u->dim.money == 0 && u->dim.count == 0;
  if (u->dim.data != 0) {
    a |= kData;
    // A prefix: GB, MiB/s (not B, b, B/s, b/s).
    if (u->factor != 1 && u->factor != 0.125) a |= kPrefixed;
  }
  if (!u->symbol.empty() && !plain) a |= kUnit;
  if (plain) a |= kFraction;  // "%" and "" are both plain numbers
  return a;
}

// A factor that is too close to 1 for the tolerance would make every answer "match" it.
bool distinguishable(double k, double rel) { return std::fabs(k - 1) > 2 * rel && std::fabs(1 / k - 1) > 2 * rel; }

// "8 is TP here", "8 is TP and PP here", "8 is also N here".
std::string named(const std::vector<std::string>& names, const std::string& value, bool also = false) {
  std::string s = value + (also ? " is also " : " is ");
  for (size_t i = 0; i < names.size(); ++i) s += (i ? (i + 1 == names.size() ? " and " : ", ") : "") + names[i];
  return s + " here";
}

// The instance's value (or product of two) that the ratio given/expected equals: a student
// who divided by TP once too often is told so, with TP's name. Empty names: none fits.
struct ValueMatch {
  double k = 0;
  bool too_big = false;
  std::vector<std::string> names;
};

ValueMatch match_values(double given, double expected, double rel, double abs, const FactorContext& ctx) {
  struct Candidate {
    double k;
    std::string name;
  };
  std::vector<Candidate> cands;
  for (size_t i = 0; i < ctx.values.size(); ++i) {
    const auto& [n, v] = ctx.values[i];
    if (std::isfinite(v) && std::fabs(v) > 1) cands.push_back({v, n});
  }
  size_t singles = cands.size();
  for (size_t i = 0; i < singles; ++i)
    for (size_t j = i + 1; j < singles; ++j) cands.push_back({cands[i].k * cands[j].k, cands[i].name + "×" + cands[j].name});
  for (bool too_big : {true, false}) {
    ValueMatch m;
    m.too_big = too_big;
    for (const auto& c : cands) {
      double f = too_big ? c.k : 1 / c.k;
      if (!distinguishable(f, rel) || !near_factor(given, expected, f, rel, abs)) continue;
      if (!m.names.empty() && std::fabs(c.k - m.k) > 1e-9 * std::fabs(m.k)) continue;  // another value: the first wins
      m.k = c.k;
      m.names.push_back(c.name);
    }
    if (!m.names.empty()) return m;
  }
  return {};
}

// "multiply by TP once too often, or forget to divide by TP" (or "multiplying ... forgetting").
std::string value_slip(const ValueMatch& m, bool gerund) {
  bool product = m.names[0].find("×") != std::string::npos;
  std::string what = m.names.size() == 1 ? m.names[0] : "it";
  std::string once = product ? "" : " once too often";
  std::string first = m.too_big ? (gerund ? "multiplying" : "multiply") : (gerund ? "dividing" : "divide");
  std::string second = m.too_big ? (gerund ? "forgetting to divide" : "forget to divide")
                                  : (gerund ? "forgetting to multiply" : "forget to multiply");
  return first + " by " + what + once + ", or " + second + " by " + what;
}

// The diagnosis when the instance's value is the only explanation.
std::string value_diagnosis(const ValueMatch& m) {
  std::string value = format_for_reading(m.k);
  std::string size = m.too_big ? value + "x the expected value" : "1/" + value + " of the expected value";
  return "Your answer is " + size + "; " + named(m.names, value) + ": did you " + value_slip(m, false) + "?";
}

// The part of a match a note after a slip names: single values only. A product of two
// values that happens to equal the slip's factor (M×BW = 100 beside percent vs fraction) is
// noise there, not a step a student took.
ValueMatch singles(ValueMatch m) {
  m.names.erase(std::remove_if(m.names.begin(), m.names.end(),
                               [](const std::string& n) { return n.find("×") != std::string::npos; }),
                m.names.end());
  return m;
}

// After a generic slip's message: the same ratio is also one of the instance's values. The
// slip stays the diagnosis (it happens whatever the parameters; the value is a coincidence of
// this instance), and the student who did slip on the value still learns it.
std::string value_note(const ValueMatch& m) {
  return named(m.names, format_for_reading(m.k), true) + ", so " + value_slip(m, true) + ", gives the same number.";
}

}  // namespace

std::vector<std::pair<double, std::string>> slips_for(const Unit* unit) {
  unsigned applies = what_applies(unit);
  std::vector<std::pair<double, std::string>> out;
  for (const auto& f : kFactors) {
    if ((f.applies & applies) != f.applies) continue;
    // The name is the message's reason: "bits vs bytes", "that is GiB vs GB".
    std::string m = f.msg;
    size_t colon = m.find(": ");
    std::string why = colon == std::string::npos ? m : m.substr(colon + 2);
    if (size_t cut = why.find_first_of("(."); cut != std::string::npos) why = why.substr(0, cut);
    while (!why.empty() && why.back() == ' ') why.pop_back();
    if (why.rfind("that is ", 0) == 0) why = why.substr(8);
    out.emplace_back(f.k, why);
  }
  return out;
}

std::vector<std::string> values_beside_slip(double given, double expected, double rel, double abs,
                                            const FactorContext& ctx) {
  if (expected == 0 || given == 0) return {};
  return singles(match_values(given, expected, rel, abs, ctx)).names;
}

Diagnosis diagnose(double given, double expected, double rel, double abs, const FactorContext& ctx) {
  if (expected == 0 || given == 0) return {};
  unsigned applies = what_applies(ctx.unit);
  auto generic = [&](bool doubling) -> const Factor* {
    for (const auto& f : kFactors) {
      if ((f.k == 2 || f.k == 0.5) != doubling) continue;
      if ((f.applies & applies) != f.applies || !distinguishable(f.k, rel)) continue;
      if (near_factor(given, expected, f.k, rel, abs)) return &f;
    }
    return nullptr;
  };
  // Twice or half is the commonest slip whatever the values (a parameter that happens to be 2
  // is a coincidence). The other slips the unit allows come next for the same reason: bits
  // for bytes is a slip in every instance, while N = 8 is a coincidence of some, so the same
  // wrong step gets the same diagnosis in every instance, and the value is mentioned after it.
  // Only a ratio no slip explains is put down to the instance's own values.
  if (const Factor* f = generic(true)) return {f->key, f->msg};
  ValueMatch values = match_values(given, expected, rel, abs, ctx);
  if (const Factor* f = generic(false)) {
    ValueMatch also = singles(values);
    return {f->key, also.names.empty() ? f->msg : std::string(f->msg) + " " + value_note(also)};
  }
  if (values.names.empty()) return {};
  return {"instance-value", value_diagnosis(values)};
}

std::string diagnose_factor(double given, double expected, double rel, double abs, const FactorContext& ctx) {
  return diagnose(given, expected, rel, abs, ctx).message;
}

}  // namespace dtx
