// engine/sim/explain: docs/formulas.md against the simulator. Every closed-form formula of the
// table (the same table the document is generated from) is evaluated, as written in dtx's
// expression language, over many random inputs of each `dtx sim` kind, and must give the
// simulator's own figure; every formula is either checked this way or names the test that
// checks its event simulation against its source.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>
#include <set>
#include <string>

#include "expr.h"
#include "sim/explain.h"
#include "sim/sources.h"

using namespace dtx;
using namespace dtx::sim;

namespace {

const WidgetKind& kind_named(const std::string& name) {
  if (const WidgetKind* k = find_widget_kind(name)) return *k;
  return *find_calculator_kind(name);
}

// Random values over each input's range: log-uniform on log-scale inputs, whole numbers where
// the input takes them; the kind's own rule may still refuse the draw (then it is skipped).
WidgetValues draw(const WidgetKind& k, std::mt19937& rng) {
  WidgetValues v = WidgetValues::defaults(k);
  std::uniform_real_distribution<double> u(0, 1);
  for (const auto& in : k.inputs) {
    if (u(rng) < 0.25) continue;  // keep the default: defaults are what most runs use
    double x;
    if (!in.options.empty()) x = std::floor(u(rng) * in.options.size());
    else if (in.log_scale && in.min > 0) x = in.min * std::pow(in.max / in.min, u(rng));
    else if (in.log_scale) x = std::pow(10.0, u(rng) * std::log10(in.max + 1)) - 1;
    else x = in.min + (in.max - in.min) * u(rng);
    if (in.integer) x = std::round(x);
    v.set(in.name, x);
  }
  return v;
}

// Pipeline formulas hold under equal op times; half the draws make them equal.
void equal_times_sometimes(WidgetValues& v, std::mt19937& rng) {
  std::uniform_int_distribution<int> coin(0, 3);
  const int c = coin(rng);
  if (c == 0) {
    v.set("b", v.get("f"));
    v.set("w", v.get("f"));
  } else if (c == 1) {
    v.set("b", v.get("f"));
  }
}

// A plan's degrees must multiply into its GPUs: powers of two on 8-GPU nodes, DP the rest, and
// the model's own shape (a random hidden size rarely divides by its heads).
void plausible_plan(WidgetValues& v, std::mt19937& rng) {
  std::uniform_int_distribution<int> pow2(0, 3), nodes(1, 64);
  v.set("gpus_per_node", 8);
  v.set("nodes", nodes(rng));
  v.set("tp", 1 << pow2(rng));
  v.set("pp", 1 << (pow2(rng) % 3));
  v.set("cp", 1 << (pow2(rng) % 2));
  v.set("dp", 0);
  for (const char* own : {"seq", "params_b", "layers", "hidden", "heads", "kv_heads", "ffn", "vocab"}) v.set(own, 0);
}

}  // namespace

TEST(SimExplain, EveryFormulaIsWrittenInTheExpressionLanguageOrNamesItsTest) {
  std::set<std::string> written, simulated;
  for (const auto& f : formula_exprs()) {
    ExprError err;
    EXPECT_TRUE(Expr::parse(f.expr, &err).valid()) << f.id << ": " << f.expr << ": " << err.message;
    if (*f.when) EXPECT_TRUE(Expr::parse(f.when, &err).valid()) << f.id << " when: " << f.when;
    EXPECT_NE(find_formula(f.id), nullptr) << f.id << " is not in sourced_formulas()";
    written.insert(f.id);
  }
  for (const auto& s : simulated_formulas()) simulated.insert(s.id);
  for (const auto& f : sourced_formulas())
    EXPECT_TRUE(written.count(f.id) + simulated.count(f.id) == 1)
        << f.id << ": needs an expression in formula_exprs() or an entry in simulated_formulas() (one, not both)";
}

TEST(SimExplain, EveryFormulaGivesTheSimulatorsFigureOverRandomInputs) {
  std::mt19937 rng(20261207);
  std::map<std::string, int> checked;  // "id figure" -> draws where it applied and agreed
  for (const std::string name : {"memory", "collective", "ring", "pipeline", "plan", "checkpoint", "scaling", "roofline", "hierarchy"}) {
    const WidgetKind& k = kind_named(name);
    int explained = 0;
    for (int i = 0; i < 1500 && explained < 300; ++i) {
      WidgetValues v = i == 0 ? WidgetValues::defaults(k) : draw(k, rng);
      if (name == "pipeline") equal_times_sometimes(v, rng);
      if (name == "plan" && i > 0) plausible_plan(v, rng);
      if (name == "ring" && v.get("N") > 64) v.set("N", 8);  // the ring's event simulation is O(N^2)
      const Explanation e = explain_run(v);
      if (!e.error.empty()) continue;
      ++explained;
      for (const auto& fig : e.figures) {
        if (!fig.applies) continue;
        EXPECT_TRUE(fig.agrees) << name << " draw " << i << ": " << fig.formula->id << " gives " << fig.from_formula
                                << ", the simulator " << fig.simulated << "\n  " << derivation_text({fig.step});
        if (fig.agrees) ++checked[std::string(fig.formula->id) + " " + fig.formula->figure];
      }
    }
    EXPECT_GT(explained, 20) << name << ": too few draws the simulation accepts";
  }
  for (const auto& f : formula_exprs())
    EXPECT_GT(checked[std::string(f.id) + " " + f.figure], 0)
        << f.id << " " << f.figure << " was never checked: no draw reached it";
}

TEST(SimExplain, RingDefaultIsWrittenOutWithItsValues) {
  const Explanation e = explain_run(WidgetValues::defaults(kind_named("ring")));
  ASSERT_EQ(e.figures.size(), 1u);
  EXPECT_EQ(derivation_text({e.figures[0].step}),
            "max_bytes_sent = 2 × (N − 1) / N × M = 2 × (8 − 1) / 8 × 10^9 B = 1,750,000,000 B (1.75 GB)");
}
