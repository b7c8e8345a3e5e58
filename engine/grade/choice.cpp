#include "choice.h"

#include <algorithm>
#include <set>

#include "../load_ctx.h"
#include "../figures.h"

namespace dtx {

namespace {

std::shared_ptr<TypeSpec> load_choice(const Json& j, const std::string& ptr, LoadContext& ctx) {
  auto spec = std::make_shared<ChoiceSpec>();
  spec->multiple = ctx.bool_field(j, ptr, "multiple").value_or(false);
  spec->shuffle = ctx.bool_field(j, ptr, "shuffle").value_or(true);
  auto it = j.find("options");
  std::string op = ptr + "/options";
  if (it == j.end()) return nullptr;
  if (!it->is_array() || it->size() < 2) {
    ctx.error(op, "expected an array of at least 2 options, got " + describe_json(*it));
    return nullptr;
  }
  if (it->size() > kMaxLettered) {
    ctx.error(op, "expected at most " + std::to_string(kMaxLettered) + " options (they are lettered A to Z), got " +
                      std::to_string(it->size()));
    return nullptr;
  }
  for (size_t i = 0; i < it->size(); ++i) {
    std::string p = op + "/" + std::to_string(i);
    const Json& o = (*it)[i];
    if (!ctx.expect_object(o, p, "an option {\"text\": ..., \"correct\": true|false}")) continue;
    ctx.check_fields(o, p, {"text", "correct", "feedback", "fixed"}, {"text"});
    ChoiceOption opt;
    opt.pointer = p;
    opt.text = ctx.string_field(o, p, "text", true).value_or("");
    opt.correct = ctx.bool_field(o, p, "correct").value_or(false);
    opt.fixed = ctx.bool_field(o, p, "fixed").value_or(false);
    opt.feedback = ctx.string_field(o, p, "feedback", false).value_or("");
    spec->options.push_back(opt);
  }
  return spec;
}

}  // namespace

const TypeEntry& choice_type_entry() {
  static const TypeEntry e{"choice", {"options", "multiple", "shuffle"}, {"options"}, &load_choice};
  return e;
}

void ChoiceSpec::lint(const Exercise& ex, LintContext& ctx) const {
  int correct = 0;
  std::set<std::string> texts;
  for (const auto& o : options) {
    correct += o.correct;
    if (!texts.insert(o.text).second)
      ctx.error(o.pointer + "/text", "two options have the same text \"" + o.text + "\"");
  }
  if (correct == 0)
    ctx.error(ex.pointer + "/options", "no option is marked \"correct\": true");
  if (!multiple && correct > 1)
    ctx.error(ex.pointer + "/options",
              std::to_string(correct) + " options are correct in a single-answer question; set "
              "\"multiple\": true or keep one");
}

bool ChoiceSpec::prepare(const Exercise& ex, Instance& inst, uint64_t seed, std::string*) const {
  int n = static_cast<int>(options.size());
  if (!shuffle) {
    inst.order.resize(n);
    for (int i = 0; i < n; ++i) inst.order[i] = i;
    return true;
  }
  std::vector<bool> fixed;
  for (const auto& o : options) fixed.push_back(o.fixed);
  Rng rng(hash_string(ex.id + "/order") ^ (seed * 0xD1B54A32D192ED03ull));
  inst.order = shuffled_indices(n, rng, fixed, false);
  return true;
}

Feedback ChoiceSpec::grade(const Exercise& ex, const Instance& inst, const Answer& a) const {
  (void)ex;
  Feedback fb;
  int n = static_cast<int>(options.size());
  std::set<int> picked;
  for (int p : a.picks) {
    if (p < 0 || p >= n) {
      fb.verdict = Verdict::FormatError;
      fb.message = "There is no option " + std::to_string(p + 1) + "; choose from the " +
                   std::to_string(n) + " shown.";
      return fb;
    }
    if (!picked.insert(p).second) {
      fb.verdict = Verdict::FormatError;
      fb.message = "The same option was chosen twice.";
      return fb;
    }
  }
  if (picked.empty()) {
    fb.verdict = Verdict::FormatError;
    fb.message = multiple ? "Select every option you think is correct." : "Choose an option.";
    return fb;
  }
  if (!multiple && picked.size() > 1) {
    fb.verdict = Verdict::FormatError;
    fb.message = "Choose exactly one option.";
    return fb;
  }
  // Feedback follows the order the student saw.
  std::string single_feedback;
  int judged_right = 0, correct_total = 0, correct_picked = 0, wrong_picked = 0;
  for (int pos = 0; pos < n; ++pos) {
    int i = inst.order.empty() ? pos : inst.order[pos];
    const ChoiceOption& o = options[i];
    bool sel = picked.count(i) > 0;
    correct_total += o.correct;
    if (sel == o.correct) ++judged_right;
    if (sel && o.correct) ++correct_picked;
    if (sel && !o.correct) ++wrong_picked;
    if (sel) {
      if (!o.feedback.empty()) fb.details.push_back("“" + inst.render(o.text) + "”: " + inst.render(o.feedback));
      else if (multiple) fb.details.push_back("“" + inst.render(o.text) + "”: " + (o.correct ? "right." : "not right."));
      if (!multiple) single_feedback = inst.render(o.feedback);
    }
  }
  if (!multiple) {
    bool ok = options[*picked.begin()].correct;
    fb.verdict = ok ? Verdict::Correct : Verdict::Incorrect;
    fb.score = ok ? 1 : 0;
    fb.message = ok ? "Correct." : "Not this one.";
    if (!single_feedback.empty()) fb.message += " " + single_feedback;
    fb.details.clear();
    return fb;
  }
  // Multiple answers: every option is a true/false judgement; the score is the fraction of
  // options judged rightly (selected when correct, left out when not).
  fb.score = static_cast<double>(judged_right) / n;
  fb.verdict = judged_right == n ? Verdict::Correct : fb.score > 0 ? Verdict::Partial : Verdict::Incorrect;
  if (judged_right == n) {
    fb.message = "Correct: you found all " + std::to_string(correct_total) + " right options.";
  } else {
    // Read aloud: the verb agrees with how many are right, and one choice is not "1 of 1".
    const int n_picked = static_cast<int>(picked.size());
    if (n_picked == 1) fb.message = correct_picked ? "Your choice is right" : "Your choice is not right";
    else if (correct_picked == 0) fb.message = "None of your " + std::to_string(n_picked) + " choices is right";
    else
      fb.message = std::to_string(correct_picked) + " of your " + std::to_string(n_picked) + " choices " +
                   (correct_picked == 1 ? "is" : "are") + " right";
    int missed = correct_total - correct_picked;
    if (missed > 0)
      fb.message += ", and " + std::to_string(missed) + " correct option" + (missed == 1 ? " was" : "s were") +
                    " left out";
    fb.message += ".";
  }
  (void)wrong_picked;
  return fb;
}

}  // namespace dtx
