#include "rng.h"

#include <cmath>
#include <utility>

namespace dtx {

uint64_t hash_string(std::string_view s) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

double draw_value(Rng& rng, const std::vector<double>& choices, double min, double max, double step) {
  if (!choices.empty()) return choices[rng.below(choices.size())];
  if (step > 0) {
    auto n = static_cast<uint64_t>(std::floor((max - min) / step + 1e-9)) + 1;
    // 0.1 steps should not print as 0.30000000000000004
    return std::round((min + static_cast<double>(rng.below(n)) * step) * 1e9) / 1e9;
  }
  return min + rng.unit() * (max - min);
}

std::vector<int> shuffled_indices(int n, Rng& rng, const std::vector<bool>& fixed,
                                  bool avoid_identity) {
  std::vector<int> movable;
  for (int i = 0; i < n; ++i)
    if (i >= static_cast<int>(fixed.size()) || !fixed[i]) movable.push_back(i);
  std::vector<int> out(n);
  for (int attempt = 0; attempt < 16; ++attempt) {
    std::vector<int> m = movable;
    for (int i = static_cast<int>(m.size()) - 1; i > 0; --i)
      std::swap(m[i], m[rng.below(static_cast<uint64_t>(i) + 1)]);
    size_t k = 0;
    bool identity = true;
    for (int i = 0; i < n; ++i) {
      out[i] = (i < static_cast<int>(fixed.size()) && fixed[i]) ? i : m[k++];
      if (out[i] != i) identity = false;
    }
    if (!identity || !avoid_identity || movable.size() < 2) return out;
  }
  // Unlucky 16 times (only likely for 2 items): rotate by one.
  if (movable.size() >= 2) {
    for (size_t i = 0; i < movable.size(); ++i)
      out[movable[i]] = movable[(i + 1) % movable.size()];
  }
  return out;
}

}  // namespace dtx
