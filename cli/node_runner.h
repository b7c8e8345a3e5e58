// Runs student JavaScript for the CLI with node (run_code.js next to the dtx binary).
#pragma once

#include <string>

#include "grade/code.h"

namespace dtx {

class NodeRunner : public CodeRunner {
 public:
  // `script` is run_code.js; empty = look next to the executable, then $DTX_RUN_CODE_JS.
  explicit NodeRunner(std::string script = "");
  CodeRunResult run(const CodeRunRequest& request) override;
  bool available() const;
  int runs() const { return runs_; }

 private:
  std::string script_;
  int runs_ = 0;
};

}  // namespace dtx
