// `dtx sim KIND --explain`: after the kind's own figures, each one worked out again from its
// source's formula with the run's inputs (engine/sim/explain.h). With --json the kind's object
// gains an "explain" array; the figures themselves are printed as without --explain.
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "sim.h"
#include "sim/explain.h"
#include "sim/sources.h"

namespace dtx::cli {

namespace {

nlohmann::ordered_json explain_json(const sim::Explanation& e) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& f : e.figures) {
    const sim::SourcedFormula* src = sim::find_formula(f.formula->id);
    out.push_back({{"id", f.formula->id},
                   {"figure", f.formula->figure},
                   {"formula", f.formula->expr},
                   {"derivation", derivation_text({f.step})},
                   {"from_formula", f.from_formula},
                   {"simulated", f.simulated},
                   {"exact_when", f.formula->when},
                   {"applies", f.applies},
                   {"agrees", f.agrees},
                   {"source", src ? src->source : ""}});
  }
  return out;
}

void print_explanation(const sim::Explanation& e) {
  std::cout << "\nhow each figure comes out (the formulas of dtx sim --formulas, with this run's inputs):\n";
  if (e.figures.empty()) {
    std::cout << "  this kind's figures come from its own simulation, with no closed-form formula in dtx sim --formulas\n";
    return;
  }
  for (const auto& f : e.figures) {
    std::cout << "  " << derivation_text({f.step}) << "\n";
    const sim::SourcedFormula* src = sim::find_formula(f.formula->id);
    std::cout << "    " << f.formula->id << (src ? std::string(": ") + src->source : "") << "\n";
    if (!f.applies)
      std::cout << "    the source's formula is exact when " << f.formula->when << "; not here, so the simulation's "
                << f.simulated << (*f.formula->unit ? std::string(" ") + f.formula->unit : "")
                << " is its own (event-simulated) figure\n";
    else if (!f.agrees)
      std::cout << "    the simulation gives " << f.simulated << ": they disagree (a defect; please report it)\n";
  }
}

}  // namespace

int print_explained(const sim::WidgetValues& v, bool json, const std::function<int()>& run) {
  const sim::Explanation e = sim::explain_run(v);
  if (!json) {
    int code = run();
    if (code == 0) print_explanation(e);
    return code;
  }
  std::ostringstream captured;
  std::streambuf* old = std::cout.rdbuf(captured.rdbuf());
  int code = run();
  std::cout.rdbuf(old);
  if (code != 0) {
    std::cout << captured.str();
    return code;
  }
  // (ordered: the kind's keys keep the order it printed them in)
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(captured.str(), nullptr, false);
  if (j.is_object()) {
    j["explain"] = explain_json(e);
    std::cout << j.dump() << "\n";
  } else {
    std::cout << captured.str();
  }
  return code;
}

}  // namespace dtx::cli
