// Quantities with units. Every unit converts to a base (bytes, seconds, FLOP, dollars) so a
// student may answer "875 MB" to a question asked in GB, while bits stay distinguishable
// from bytes for feedback.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace dtx {

// Exponents over the base dimensions. `count` is a named thing being counted (tokens,
// sequences): tokens/s and sequences/s are different answers even though both are 1/s.
struct Dim {
  int data = 0, time = 0, flop = 0, money = 0, count = 0;
  std::string count_word;
  bool operator==(const Dim& o) const {
    return data == o.data && time == o.time && flop == o.flop && money == o.money &&
           count == o.count && (count == 0 || count_word == o.count_word);
  }
  bool operator!=(const Dim& o) const { return !(*this == o); }
};

enum class DataFamily { None, Bytes, Bits };

struct Unit {
  std::string symbol;      // as written, normalised ("GB/s", "TFLOP/s", "%", "")
  Dim dim;
  double factor = 1;       // value in base units = value * factor
  DataFamily family = DataFamily::None;
  bool binary_prefix = false;  // KiB..PiB
};

// Parses a unit as authors and students write it: "GB", "Gb/s", "Gbps", "µs", "TFLOPS",
// "tokens/s", "%", "" (a plain number). Returns nullopt and an explanation otherwise.
std::optional<Unit> parse_unit(std::string_view text, std::string* error);

// Plain-language name of a dimension for messages: "data size", "time", "bandwidth".
std::string describe_dim(const Dim& d);

// Longest answer a student may type into one field, in characters. An answer is a number,
// perhaps some arithmetic, and a unit ("6.1 × 10^-5 GB/s" is 16 characters); 200 leaves room
// for "2*7/8*(1 + 3/4) GB" and more, while keeping messages that quote the answer short.
constexpr size_t kMaxAnswerLength = 200;

// Student input: a number (plain, 6.1e-5, 6.1 × 10^-5, 6.1x10^-5, 1,024, 2*7/8) followed
// by an optional unit. Longer than kMaxAnswerLength is an error (a format error to graders).
struct QuantityInput {
  double value = 0;              // in `unit` (or in the question's unit when none given)
  std::optional<Unit> unit;      // nullopt: the student gave no unit
};
std::optional<QuantityInput> parse_quantity(std::string_view text, std::string* error);

// A student's answer read as a value in `unit` (written `unit_text`; a number without a unit
// is taken in it). nullopt with `error` when it cannot be read or measures something else:
// "'3 ms' is time; <wanted> data size (in GB)." (`wanted`: "this part asks for"). `as_given`
// gets what was written (the student's own unit and number), for the feedback.
std::optional<double> read_quantity_in(std::string_view text, const Unit& unit, const std::string& unit_text,
                                       const std::string& wanted, std::string* error, QuantityInput* as_given = nullptr);

}  // namespace dtx
