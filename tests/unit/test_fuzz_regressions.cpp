// Replays every input under tests/fuzz/regressions/<target>/ through the entry point the
// fuzz target of that name drives (tests/fuzz/fuzz_entry.h): each once crashed, hung or broke
// a property, and must now pass in every `make test`, natively and under node (wasm), without
// the sanitizers. The seed corpora are replayed too, so the entry points are exercised even
// where no regression has been found yet.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz_entry.h"

namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<fs::path> files_in(const std::string& dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(std::string(DTX_SOURCE_DIR) + "/" + dir, ec))
    if (e.is_regular_file() && e.path().filename() != "README.md") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

using Entry = std::string (*)(std::string_view);

// Each input passes its properties in well under the page's 2 s budget.
void replay(const std::string& dir, Entry entry, size_t at_least) {
  auto files = files_in(dir);
  EXPECT_GE(files.size(), at_least) << dir;
  for (const auto& f : files) {
    std::string bytes = read_file(f);
    auto t0 = std::chrono::steady_clock::now();
    EXPECT_EQ(entry(bytes), "") << f;
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_LT(s, 2.0) << f << " took " << s << " s";
  }
}

}  // namespace

TEST(FuzzRegressions, Pack) { replay("tests/fuzz/regressions/pack", dtx::fuzz::pack, 3); }
TEST(FuzzRegressions, Expr) { replay("tests/fuzz/regressions/expr", dtx::fuzz::expr, 2); }
TEST(FuzzRegressions, Answer) { replay("tests/fuzz/regressions/answer", dtx::fuzz::answer, 2); }
TEST(FuzzRegressions, Progress) { replay("tests/fuzz/regressions/progress", dtx::fuzz::progress, 0); }

TEST(FuzzSeeds, ExprAnswerAndProgressSeedsPass) {
  replay("tests/fuzz/seeds/expr", dtx::fuzz::expr, 10);
  replay("tests/fuzz/seeds/answer", dtx::fuzz::answer, 10);
  replay("tests/fuzz/seeds/progress", dtx::fuzz::progress, 5);
}

TEST(FuzzSeeds, MalformedPacksPass) { replay("tests/malformed", dtx::fuzz::pack, 40); }
