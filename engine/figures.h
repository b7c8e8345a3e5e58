// How dtx prints a figure (bytes, times, rates, percentages, option letters), in one place:
// `dtx sim`, the Lab widgets and their descriptions, and feedback print the same quantity the
// same way. A figure has 4 significant digits, trailing zeros trimmed, and a prefix that keeps
// it under 1000: "1.5 GB", "35.07 ms", "28.51 GB/s", "989 TFLOP/s".
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace dtx {

// Decimal prefixes (1 GB = 10^9 bytes, as the course counts): "512 MB", "1.875 GB".
std::string format_bytes(double bytes, int sig = 4);
// Binary prefixes (1 GiB = 2^30 bytes): "1.5 GiB".
std::string format_bytes_binary(double bytes, int sig = 4);
// Always in GB, for tables whose rows are compared (a plan's memory buckets): "79.42 GB".
std::string format_gb(double bytes, int sig = 4);
// ns, µs, ms and s below an hour, then h, then days: "850 µs", "35.07 ms", "2.5 h".
std::string format_seconds(double seconds, int sig = 4);
// A quantity with an SI prefix on its unit: format_si(9e11, "B/s") is "900 GB/s",
// format_si(1.374e11, "FLOP") is "137.4 GFLOP".
std::string format_si(double value, const char* unit, int sig = 4);
// A fraction as a percentage: 0.4521 is "45.2%" (3 significant digits unless asked).
std::string format_percent(double fraction, int sig = 3);

// Options and ordering items are named by letters, A to Z, wherever they are shown or typed
// (the page, `dtx show`, `dtx grade`, the instructor view): at most kMaxLettered of them.
constexpr size_t kMaxLettered = 26;
// The letter of the item at `pos` (0-based) as shown: "A", "B", ...
std::string option_letter(size_t pos);
// Letters as `dtx show` prints them ("A,C", "A C", "CABD") -> the authored index shown at
// each letter's position in `order` (an instance's display order). nullopt with `error`
// for anything else.
std::optional<std::vector<int>> letters_to_indices(const std::vector<std::string>& words, const std::vector<int>& order,
                                                   std::string* error);
// The inverse: the letter at which each authored index is shown in `order`. An index `order`
// does not show gets a letter past the last one ("?" past Z), which letters_to_indices refuses.
std::vector<std::string> indices_to_letters(const std::vector<int>& indices, const std::vector<int>& order);
// Splits "A,C" / "A C" / "3,6" into words.
std::vector<std::string> split_answer_words(const std::vector<std::string>& words);

}  // namespace dtx
