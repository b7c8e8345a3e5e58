#include "ordering.h"

#include <algorithm>
#include <set>

#include "type_support.h"
#include "figures.h"
#include "maths.h"
#include "misconception.h"

namespace dtx {

namespace {

// The authored index of the item at each position (none before prepare).
const std::vector<int>& shown_order(const Instance& inst) {
  return inst.data_or_empty<OrderingInstance>().order;
}

std::shared_ptr<TypeSpec> load_ordering(const Json& j, const std::string& ptr, LoadContext& ctx) {
  auto spec = std::make_shared<OrderingSpec>();
  auto it = j.find("items");
  if (it == j.end()) return nullptr;
  if (!it->is_array() || it->size() < 3) {
    ctx.error(DiagCode::WrongCount, ptr + "/items", "expected an array of at least 3 items in the correct order, got " +
                                  describe_json(*it));
    return nullptr;
  }
  if (it->size() > kMaxLettered) {
    ctx.error(DiagCode::WrongCount, ptr + "/items", "expected at most " + std::to_string(kMaxLettered) +
                                  " items (they are lettered A to Z), got " + std::to_string(it->size()));
    return nullptr;
  }
  spec->items = ctx.string_list_field(j, ptr, "items");
  spec->feedback = ctx.string_list_field(j, ptr, "feedback");
  if (j.contains("feedback") && spec->feedback.size() != spec->items.size())
    ctx.error(DiagCode::WrongCount, ptr + "/feedback", "expected one feedback text per item (" +
                                     std::to_string(spec->items.size()) + "), got " +
                                     std::to_string(spec->feedback.size()));
  return spec;
}

}  // namespace

namespace {

// `dtx new ordering`: a whole working exercise, with "$comment" notes on every field (cli/new.cpp
// puts it in a pack; the CLI test checks that it passes `dtx lint --warn`).
const char* kNewTitle = "One mixed-precision step with loss scaling";
const char* kNewIntro =
    "Mixed precision runs the forward and backward passes in 16-bit floats and keeps 32-bit "
     "master weights for the update. With half precision (`float16`), a loss scale keeps small "
     "gradients from underflowing to zero.";
const char* kNewExercise = R"JSON(    {
      "$comment": [
@COMMON@,
        "An ordering exercise: write \"items\" in the correct order; students see them shuffled (never already in order) and earn credit for the longest run already in the right relative order. \"feedback\" (optional, one per item, in the same order) is shown for the first item a student misplaces.",
        "Make each step's place unambiguous: two steps that could be swapped make a correct answer look wrong."
      ],
      "id": @ID@,
      "type": "ordering",
      "title": @TITLE@,
      "difficulty": 2,
      "tags": ["mixed-precision", "loss-scaling"],
      "prompt": "Put the steps of one **16-bit (half-precision) mixed-precision** training step with **dynamic loss scaling** in order, from the forward pass to weights that are ready for the next step.",
      "items": [
        "Forward pass in FP16, with the FP16 copy of the weights",
        "Multiply the loss by the loss scale S",
        "Backward pass: FP16 gradients, S times larger than the true ones",
        "Unscale the gradients (divide by S, in FP32) and check them for inf or NaN",
        "If nothing overflowed, run the optimizer step on the FP32 master weights; otherwise skip it and lower S",
        "Copy the updated master weights into the FP16 copy for the next forward pass"
      ],
      "feedback": [
        "Everything starts with the forward pass: there is no loss to scale before it.",
        "The loss is scaled after the forward pass and before the backward pass, so every gradient the backward pass computes comes out S times larger.",
        "The backward pass needs the scaled loss: scaling it is what lifts small gradients above FP16's underflow.",
        "Gradients must be unscaled before the optimizer uses them, and checked before a step is taken on them.",
        "The optimizer step uses the unscaled, checked gradients, so it comes after the check and before the copy.",
        "The FP16 copy can only be refreshed once the master weights have been updated: it is the last step."
      ],
      "hints": [
        "Follow the data: the loss exists only after the forward pass, and gradients only after the backward pass.",
        "The optimizer must never see gradients that are still multiplied by S or that overflowed."
      ],
      "explanation": "The forward pass produces the loss; scaling it by S before the backward pass makes every gradient S times larger, so small values survive in half precision. The gradients are then unscaled in 32-bit floats and checked: an overflow means S was too large, so the step is skipped and S lowered. Otherwise the optimizer updates the 32-bit master weights, and the 16-bit copy is refreshed from them for the next forward pass."
    })JSON";

}  // namespace

const TypeEntry& ordering_type_entry() {
  static const TypeEntry e{"ordering", "order", {"items", "feedback"}, {"items"}, &load_ordering,
                          kNewTitle, kNewIntro, kNewExercise,
                          "the letters in your order: C A B D   or   CABD",
                          3};
  return e;
}

size_t longest_increasing_subsequence(const std::vector<int>& seq, std::vector<size_t>* members) {
  // O(n^2) is plenty for a handful of items and keeps the reconstruction obvious.
  size_t n = seq.size();
  std::vector<size_t> len(n, 1), prev(n, SIZE_MAX);
  size_t best = 0, best_end = SIZE_MAX;
  for (size_t i = 0; i < n; ++i) {
    for (size_t k = 0; k < i; ++k)
      if (seq[k] < seq[i] && len[k] + 1 > len[i]) {
        len[i] = len[k] + 1;
        prev[i] = k;
      }
    if (len[i] > best) {
      best = len[i];
      best_end = i;
    }
  }
  if (members) {
    members->clear();
    for (size_t i = best_end; i != SIZE_MAX; i = prev[i]) members->push_back(i);
    std::reverse(members->begin(), members->end());
  }
  return best;
}

void OrderingSpec::lint(const Exercise& ex, LintContext& ctx) const {
  (void)ex;
  for (size_t i = 0; i < items.size(); ++i)
    for (size_t k = 0; k < i; ++k)
      if (items[i] == items[k])
        ctx.error(DiagCode::Duplicate, ex.pointer + "/items/" + std::to_string(i),
                  "item " + std::to_string(i + 1) + " duplicates item " + std::to_string(k + 1) +
                      "; identical items make the order ambiguous");
}

bool OrderingSpec::prepare(const Exercise& ex, Instance& inst, uint64_t seed, std::string*) const {
  Rng rng(hash_string(ex.id + "/order") ^ (seed * 0xD1B54A32D192ED03ull));
  auto data = std::make_shared<OrderingInstance>();
  data->order = shuffled_indices(static_cast<int>(items.size()), rng, {}, true);
  inst.data = data;
  return true;
}

Feedback OrderingSpec::grade(const Exercise& ex, const Instance& inst, const Answer& answer,
                             const GradeServices&) const {
  (void)ex;
  Feedback fb;
  const std::vector<int>& picks = answer.as_or_empty<OrderingAnswer>().order;
  int n = static_cast<int>(items.size());
  std::vector<int> seen(n, 0);
  bool ok = static_cast<int>(picks.size()) == n;
  for (int p : picks) {
    if (p < 0 || p >= n || seen[p]++) ok = false;
  }
  if (!ok) {
    fb.verdict = Verdict::FormatError;
    fb.message = "Place each of the " + std::to_string(n) + " items exactly once.";
    return fb;
  }
  std::vector<size_t> keep;
  size_t lis = longest_increasing_subsequence(picks, &keep);
  fb.score = static_cast<double>(lis) / n;
  if (static_cast<int>(lis) == n) {
    fb.verdict = Verdict::Correct;
    fb.message = "Correct: all " + std::to_string(n) + " steps are in order.";
    return fb;
  }
  fb.verdict = lis > 0 ? Verdict::Partial : Verdict::Incorrect;
  // The first item, in the student's order, that is not part of the longest run already in
  // the right relative order is the one to move.
  size_t pos = 0;
  for (size_t k = 0; pos < picks.size(); ++pos) {
    if (k < keep.size() && keep[k] == pos) {
      ++k;
      continue;
    }
    break;
  }
  int item = picks[pos];
  fb.message = std::to_string(lis) + " of " + std::to_string(n) +
               " items are already in the right relative order (credit " +
               std::to_string(static_cast<int>(fb.score * 100 + 0.5)) + "%). The first item out of "
               "place is “" + inst.render(items[item]) + "” (your position " +
               std::to_string(pos + 1) + ").";
  if (item < static_cast<int>(feedback.size())) {
    fb.details.push_back(inst.render(feedback[item]));
    if (!feedback[item].empty()) fb.misconception = kListedMisconception;  // a misplaced step the author explains
  }
  return fb;
}

// ---------------------------------------------------------------- the type's lifecycle

void OrderingSpec::warn(const Exercise& ex, LintContext& ctx) const {
  if (ex.hints.empty() && feedback.empty())
    ctx.warn(DiagCode::NoFeedback, ex.pointer, "no hints and no \"feedback\" for the items: a student who misplaces a "
                         "step is not told why it goes elsewhere");
}

void OrderingSpec::texts(const Exercise& ex, const TextFn& fn) const {
  for (size_t i = 0; i < items.size(); ++i)
    fn(items[i], ex.pointer + "/items/" + std::to_string(i), "item " + std::to_string(i + 1));
  for (size_t i = 0; i < feedback.size(); ++i)
    fn(feedback[i], ex.pointer + "/feedback/" + std::to_string(i), "the feedback of item " + std::to_string(i + 1));
}

namespace {
// The right order as the student's letters: the position at which each item is shown.
std::vector<std::string> answer_letters(const Instance& inst, size_t n) {
  std::vector<std::string> out;
  for (size_t k = 0; k < n; ++k)
    for (size_t pos = 0; pos < shown_order(inst).size(); ++pos)
      if (shown_order(inst)[pos] == static_cast<int>(k)) out.push_back(option_letter(pos));
  return out;
}
}  // namespace

void OrderingSpec::describe(const Exercise&, const Instance& inst, bool with_answer, InstanceDescription& out) const {
  Json list = Json::array();
  out.text += "\n(put these in order)\n";
  for (size_t pos = 0; pos < shown_order(inst).size(); ++pos) {
    list.push_back({{"label", option_letter(pos)}, {"text", inst.render(items[shown_order(inst)[pos]])}});
    out.text += "  " + option_letter(pos) + ") " + markdown_math_to_plain(inst.render(items[shown_order(inst)[pos]])) + "\n";
  }
  out.json["items"] = list;
  if (with_answer) {
    auto letters = answer_letters(inst, items.size());
    std::string seq;
    for (const auto& l : letters) seq += l + " ";
    out.json["answer"] = letters;
    out.text += "answer: " + seq + "\n";
    out.answer_words = letters;
  }
}

std::vector<std::string> OrderingSpec::answer_key(const Exercise&, const Instance& inst) const {
  std::string seq;
  for (const auto& l : answer_letters(inst, items.size())) seq += (seq.empty() ? "" : " ") + l;
  return {"order: " + seq};
}

std::optional<Answer> OrderingSpec::parse_answer(const Exercise&, const Instance& inst,
                                                 const std::vector<std::string>& words, std::string* error) const {
  auto order = letters_to_indices(words, shown_order(inst), error);
  if (!order) return std::nullopt;
  return make_answer(OrderingAnswer(*order));
}

// A letter per item, in the student's order, each the letter the item was shown at (as
// `dtx show --answer` writes the key).
std::vector<std::string> OrderingSpec::answer_words(const Exercise&, const Instance& inst, const Answer& a) const {
  return indices_to_letters(a.as_or_empty<OrderingAnswer>().order, shown_order(inst));
}

std::vector<SampleAnswer> OrderingSpec::sample_answers(const Exercise&, const Instance& inst) const {
  using E = SampleAnswer::Expect;
  std::vector<SampleAnswer> out;
  std::vector<int> right;
  for (size_t i = 0; i < items.size(); ++i) right.push_back(static_cast<int>(i));
  out.push_back({"correct", make_answer(OrderingAnswer(right)), E::Correct, ""});
  // Left as shown: never already solved (prepare avoids the identity).
  out.push_back({"left as shown", make_answer(OrderingAnswer(shown_order(inst))), E::Wrong, ""});
  // The first two swapped: all but one item in the right relative order, partial credit.
  std::vector<int> swapped = right;
  std::swap(swapped[0], swapped[1]);
  out.push_back({"first two swapped", make_answer(OrderingAnswer(swapped)), E::Partial, "The first item out of place"});
  std::vector<int> fewer(right.begin(), right.end() - 1);
  out.push_back({"unreadable: an item left out", make_answer(OrderingAnswer(fewer)), E::Unreadable, ""});
  return out;
}

}  // namespace dtx
