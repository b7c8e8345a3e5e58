// Every keyed number's derivation (issue 41, point 2), for every exercise whose type shows one
// in `dtx show --answer --json`, at three seeds: each line, read back by the expression parser
// with its units taken off, gives the value it states, and the last line gives the key.
#include <gtest/gtest.h>

#include <cmath>

#include "content_util.h"
#include "derivation.h"
#include "expr.h"
#include "json_fields.h"
#include "lint_context.h"
#include "text.h"

using namespace dtx;
using namespace dtx::testing;

namespace {

std::vector<std::string> split(const std::string& s, const std::string& sep) {
  std::vector<std::string> out;
  size_t a = 0;
  for (size_t b; (b = s.find(sep, a)) != std::string::npos; a = b + sep.size()) out.push_back(s.substr(a, b - a));
  out.push_back(s.substr(a));
  return out;
}

std::string without(std::string s, const std::string& what) {
  if (what.empty()) return s;
  for (size_t i; (i = s.find(" " + what)) != std::string::npos;) s.erase(i, what.size() + 1);
  return s;
}

// The number a side of a line stands for: the expression with the exercise's unit symbols
// taken off, evaluated with no names known.
std::optional<double> value_of(std::string side, const Exercise& ex, const std::string& unit) {
  std::vector<std::string> units = {unit};
  for (const auto& p : ex.params)
    if (p.unit) units.push_back(p.unit->symbol);
  std::sort(units.begin(), units.end(), [](const auto& a, const auto& b) { return a.size() > b.size(); });
  for (const auto& u : units) side = without(side, u);
  ExprError err;
  return eval_expr(side, nullptr, &err);
}

}  // namespace

TEST(Derivation, EveryKeyedNumberIsWorkedOutToItsValue) {
  static Library lib = load_library(shipped_pack_sources());
  int parts = 0, exercises = 0;
  for (const auto& pack : lib.packs)
    for (const auto& ex : pack.exercises) {
      bool any = false;
      for (uint64_t seed : {0, 1, 2}) {
        std::string err;
        auto inst = make_instance(ex, seed, &err);
        ASSERT_TRUE(inst) << ex.id << ": " << err;
        InstanceDescription d;
        ex.spec->describe(ex, *inst, true, d);
        if (!d.json.contains("parts")) break;
        for (const auto& part : d.json["parts"]) {
          if (!part.contains("derivation")) continue;
          any = true;
          ++parts;
          std::string where = ex.id + " seed " + std::to_string(seed) + " part " + part["id"].get<std::string>();
          auto lines = split(part["derivation"].get<std::string>(), "\n");
          for (size_t i = 0; i < lines.size(); ++i) {
            auto sides = split(lines[i], " = ");
            ASSERT_GE(sides.size(), 2u) << where << ": " << lines[i];
            bool last = i + 1 == lines.size();
            std::string unit = last ? part["unit"].get<std::string>() : "";
            // "name = value" (a constant) states the value alone
            auto lhs = value_of(sides.size() == 2 ? sides[1] : sides[sides.size() - 2], ex, unit);
            ASSERT_TRUE(lhs) << where << ": cannot read back \"" << sides[sides.size() - 2] << "\" in " << lines[i];
            double want = last ? part["value"].get<double>() : *value_of(sides.back(), ex, unit);
            double rel = last ? part["tolerance"]["rel"].get<double>() : 1e-5;
            double abs = last ? part["tolerance"]["abs"].get<double>() : 0;
            EXPECT_TRUE(within(*lhs, want, std::max(rel, 1e-5), abs))
                << where << ": " << lines[i] << " reads back as " << *lhs << ", expected " << want;
          }
        }
      }
      exercises += any;
    }
  std::printf("derivations checked: %d parts of %d exercises, 3 seeds each\n", parts / 3, exercises);
  EXPECT_GE(exercises, 150);
}
