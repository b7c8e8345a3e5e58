// Random numbers for instances: deterministic per seed and identical in the native and the
// wasm builds, so a student's numbers are the same in the page and in dtx grade.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace dtx {

// std distributions differ between libstdc++ and libc++, so they are not used.
struct Rng {
  uint64_t state;
  explicit Rng(uint64_t seed) : state(seed) {}
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform integer in [0, n).
  uint64_t below(uint64_t n) { return n ? next() % n : 0; }
  double unit() { return (next() >> 11) * (1.0 / 9007199254740992.0); }
};
uint64_t hash_string(std::string_view s);

// One value drawn uniformly: from `choices` when given, else from min..max on the `step`
// grid (continuous when step is 0). Shared by parameters and generated code cases.
double draw_value(Rng& rng, const std::vector<double>& choices, double min, double max, double step);

// Shuffles 0..n-1 with `rng`; `fixed` positions stay put. When `avoid_identity` and n > 1,
// the result is never the identity (an ordering shown already solved teaches nothing).
std::vector<int> shuffled_indices(int n, Rng& rng, const std::vector<bool>& fixed,
                                  bool avoid_identity);

}  // namespace dtx
