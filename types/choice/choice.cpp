#include "choice.h"

#include <algorithm>
#include <set>

#include "type_support.h"
#include "figures.h"
#include "maths.h"
#include "misconception.h"
#include "text.h"

namespace dtx {

namespace {

// The authored index of the option at each position (none before prepare).
const std::vector<int>& shown_order(const Instance& inst) {
  return inst.data_or_empty<ChoiceInstance>().order;
}

std::shared_ptr<TypeSpec> load_choice(const Json& j, const std::string& ptr, LoadContext& ctx) {
  auto spec = std::make_shared<ChoiceSpec>();
  spec->multiple = ctx.bool_field(j, ptr, "multiple").value_or(false);
  spec->shuffle = ctx.bool_field(j, ptr, "shuffle").value_or(true);
  auto it = j.find("options");
  std::string op = ptr + "/options";
  if (it == j.end()) return nullptr;
  if (!it->is_array() || it->size() < 2) {
    ctx.error(DiagCode::WrongCount, op, "expected an array of at least 2 options, got " + describe_json(*it));
    return nullptr;
  }
  if (it->size() > kMaxLettered) {
    ctx.error(DiagCode::WrongCount, op, "expected at most " + std::to_string(kMaxLettered) + " options (they are lettered A to Z), got " +
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

namespace {

// `dtx new choice`: a whole working exercise, with "$comment" notes on every field (cli/new.cpp
// puts it in a pack; the CLI test checks that it passes `dtx lint --warn`).
const char* kNewTitle = "The collective before a ZeRO-3 forward pass";
const char* kNewIntro =
    "ZeRO stage 3 shards the parameters, the gradients and the optimizer state over the "
     "data-parallel GPUs, and gathers each layer's parameters only while it is being used.";
const char* kNewExercise = R"JSON(    {
      "$comment": [
@COMMON@,
        "A choice exercise: one correct option, or several with \"multiple\": true (the student ticks every correct one and earns the fraction of options judged rightly). \"shuffle\" (default true) shows the options in a different order for each instance."
      ],
      "id": @ID@,
      "type": "choice",
      "title": @TITLE@,
      "difficulty": 2,
      "tags": ["zero", "collectives"],
      "prompt": "A model is trained with **ZeRO stage 3** over 64 data-parallel GPUs, so each GPU stores only 1/64 of every layer's parameters.\n\nWhich collective runs just **before a layer's forward pass**?",
      "multiple": false,
      "shuffle": true,
      "options": [
        {
          "$comment": "Each option has a \"text\" (Markdown), \"correct\" (true on the right ones; false when left out) and \"feedback\", shown when the student picks it: say why a wrong option is wrong, that is where students learn. \"fixed\": true keeps an option in its place (for \"None of the above\").",
          "text": "An all-gather of the layer's parameter shards",
          "correct": true,
          "feedback": "Each GPU holds one shard and needs the whole layer for a moment, so the shards are gathered, used, and freed again."
        },
        {
          "text": "A reduce-scatter of the layer's gradients",
          "feedback": "A reduce-scatter does run for this layer, but in the backward pass, once its gradients exist. Before the forward pass there are no gradients yet."
        },
        {
          "text": "An all-reduce of the layer's parameters",
          "feedback": "An all-reduce sums. Nothing is to be summed here: each GPU holds a different slice and needs the others' slices, which is a gather."
        },
        {
          "text": "A broadcast of the whole model from rank 0",
          "feedback": "Rank 0 would have to hold the whole model, which is what ZeRO-3 avoids, and every step would move the whole model instead of one layer at a time."
        }
      ],
      "hints": [
        "Before the forward pass a GPU has only its own 1/64 slice of the layer. What does it need from the others, and does anything have to be summed?"
      ],
      "explanation": "ZeRO-3 shards the parameters themselves. For each layer the forward pass first **all-gathers** the shards into the full weights, computes, and frees them. The backward pass gathers them again, then **reduce-scatters** the gradients so that each GPU keeps the summed gradient of its own shard only. Per step that is two all-gathers and one reduce-scatter of the model's size: about 1.5 times the traffic of the all-reduce in plain data parallelism."
    })JSON";

}  // namespace

const TypeEntry& choice_type_entry() {
  static const TypeEntry e{"choice", "choose", {"options", "multiple", "shuffle"}, {"options"}, &load_choice,
                          kNewTitle, kNewIntro, kNewExercise,
                          "the letter(s) shown by `dtx show`: B   or   A,C",
                          2};
  return e;
}

void ChoiceSpec::lint(const Exercise& ex, LintContext& ctx) const {
  int correct = 0;
  std::set<std::string> texts;
  for (const auto& o : options) {
    correct += o.correct;
    if (!texts.insert(o.text).second)
      ctx.error(DiagCode::Duplicate, o.pointer + "/text", "two options have the same text \"" + o.text + "\"");
  }
  if (correct == 0)
    ctx.error(DiagCode::CorrectOptions, ex.pointer + "/options", "no option is marked \"correct\": true");
  if (!multiple && correct > 1)
    ctx.error(DiagCode::CorrectOptions, ex.pointer + "/options",
              std::to_string(correct) + " options are correct in a single-answer question; set "
              "\"multiple\": true or keep one");
}

bool ChoiceSpec::prepare(const Exercise& ex, Instance& inst, uint64_t seed, std::string*) const {
  int n = static_cast<int>(options.size());
  auto data = std::make_shared<ChoiceInstance>();
  inst.data = data;
  if (!shuffle) {
    data->order.resize(n);
    for (int i = 0; i < n; ++i) data->order[i] = i;
    return true;
  }
  std::vector<bool> fixed;
  for (const auto& o : options) fixed.push_back(o.fixed);
  Rng rng(hash_string(ex.id + "/order") ^ (seed * 0xD1B54A32D192ED03ull));
  data->order = shuffled_indices(n, rng, fixed, false);
  return true;
}

Feedback ChoiceSpec::grade(const Exercise& ex, const Instance& inst, const Answer& answer,
                           const GradeServices&) const {
  (void)ex;
  Feedback fb;
  const ChoiceAnswer& a = answer.as_or_empty<ChoiceAnswer>();
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
    int i = shown_order(inst).empty() ? pos : shown_order(inst)[pos];
    const ChoiceOption& o = options[i];
    bool sel = picked.count(i) > 0;
    correct_total += o.correct;
    if (sel == o.correct) ++judged_right;
    if (sel && o.correct) ++correct_picked;
    if (sel && !o.correct) ++wrong_picked;
    // A wrong pick the author explains is a step the review groups per exercise.
    if (sel && !o.correct && !o.feedback.empty()) fb.misconception = kListedMisconception;
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

// ---------------------------------------------------------------- the type's lifecycle

// A choice question guides through the feedback on each option; it needs hints only when a
// wrong option has none.
void ChoiceSpec::warn(const Exercise& ex, LintContext& ctx) const {
  if (!ex.hints.empty()) return;
  for (const auto& o : options)
    if (!o.correct && o.feedback.empty()) {
      ctx.warn(DiagCode::NoFeedback, o.pointer, "this wrong option has no \"feedback\" and the exercise has no hints: a "
                          "student who picks it learns nothing about why it is wrong");
      break;
    }
}

void ChoiceSpec::texts(const Exercise&, const TextFn& fn) const {
  for (const auto& o : options) {
    fn(o.text, o.pointer + "/text", "an option's text");
    fn(o.feedback, o.pointer + "/feedback", "an option's feedback");
  }
}

void ChoiceSpec::describe(const Exercise&, const Instance& inst, bool with_answer, InstanceDescription& out) const {
  Json opts = Json::array();
  out.text += multiple ? "\n(select every correct option)\n" : "\n(choose one)\n";
  for (size_t pos = 0; pos < shown_order(inst).size(); ++pos) {
    const auto& o = options[shown_order(inst)[pos]];
    Json oj = {{"label", option_letter(pos)}, {"text", inst.render(o.text)}};
    if (with_answer) oj["correct"] = o.correct;
    if (with_answer && o.correct) out.answer_words.push_back(option_letter(pos));
    out.text += "  " + option_letter(pos) + ") " + markdown_math_to_plain(inst.render(o.text)) +
                (with_answer && o.correct ? "   <- correct" : "") + "\n";
    opts.push_back(oj);
  }
  out.json["multiple"] = multiple;
  out.json["options"] = opts;
}

std::vector<std::string> ChoiceSpec::answer_key(const Exercise&, const Instance& inst) const {
  std::string right;
  for (size_t pos = 0; pos < shown_order(inst).size(); ++pos)
    if (options[shown_order(inst)[pos]].correct) right += (right.empty() ? "" : ", ") + option_letter(pos);
  return {"correct: " + right + (multiple ? " (select all of them)" : "")};
}

std::optional<Answer> ChoiceSpec::parse_answer(const Exercise&, const Instance& inst, const std::vector<std::string>& words,
                                               std::string* error) const {
  auto picks = letters_to_indices(words, shown_order(inst), error);
  if (!picks) return std::nullopt;
  return make_answer(ChoiceAnswer(*picks));
}

// The letters the student saw, as one word ("A,C"); nothing picked is no word at all.
std::vector<std::string> ChoiceSpec::answer_words(const Exercise&, const Instance& inst, const Answer& a) const {
  std::string word;
  for (const auto& letter : indices_to_letters(a.as_or_empty<ChoiceAnswer>().picks, shown_order(inst)))
    word += (word.empty() ? "" : ",") + letter;
  if (word.empty()) return {};
  return {word};
}

std::vector<SampleAnswer> ChoiceSpec::sample_answers(const Exercise&, const Instance& inst) const {
  using E = SampleAnswer::Expect;
  std::vector<SampleAnswer> out;
  std::vector<int> right;
  for (size_t i = 0; i < options.size(); ++i)
    if (options[i].correct) right.push_back(static_cast<int>(i));
  out.push_back({"correct", make_answer(ChoiceAnswer(right)), E::Correct, ""});
  // Each wrong option alone: wrong, with its own feedback when it has some.
  for (size_t i = 0; i < options.size(); ++i)
    if (!options[i].correct)
      out.push_back({"wrong option " + std::to_string(i + 1), make_answer(ChoiceAnswer({static_cast<int>(i)})),
                     multiple ? E::Wrong : E::Incorrect, inst.render(options[i].feedback)});
  out.push_back({"unreadable: nothing chosen", make_answer(ChoiceAnswer()), E::Unreadable, ""});
  out.push_back({"unreadable: an option that is not there",
                 make_answer(ChoiceAnswer({static_cast<int>(options.size())})), E::Unreadable, ""});
  return out;
}

}  // namespace dtx
