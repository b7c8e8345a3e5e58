#include "matching.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <set>

#include "figures.h"
#include "type_support.h"
#include "maths.h"
#include "misconception.h"
#include "text.h"

namespace dtx {

namespace {

// The authored index of the item at each position (none before prepare).
const std::vector<int>& shown_order(const Instance& inst) {
  return inst.data_or_empty<MatchingInstance>().order;
}

std::shared_ptr<TypeSpec> load_matching(const Json& j, const std::string& ptr, LoadContext& ctx) {
  auto spec = std::make_shared<MatchingSpec>();
  spec->pointer = ptr;
  auto it = j.find("pairs");
  std::string pp = ptr + "/pairs";
  if (it == j.end()) return nullptr;
  if (!it->is_array() || it->size() < 2) {
    ctx.error(DiagCode::WrongCount, pp, "expected an array of at least 2 pairs {\"left\": ..., \"right\": ...}, got " + describe_json(*it));
    return nullptr;
  }
  spec->distractors = ctx.string_list_field(j, ptr, "distractors");
  if (it->size() + spec->distractors.size() > kMaxLettered) {
    ctx.error(DiagCode::WrongCount, pp, "expected at most " + std::to_string(kMaxLettered) + " options in all (they are lettered A to Z), got " +
                      std::to_string(it->size()) + " pairs and " + std::to_string(spec->distractors.size()) + " distractors");
    return nullptr;
  }
  for (size_t i = 0; i < it->size(); ++i) {
    std::string p = pp + "/" + std::to_string(i);
    const Json& o = (*it)[i];
    if (!ctx.expect_object(o, p, "a pair {\"left\": ..., \"right\": ...}")) continue;
    ctx.check_fields(o, p, {"left", "right", "feedback"}, {"left", "right"});
    MatchingPair pair;
    pair.pointer = p;
    pair.left = ctx.string_field(o, p, "left", true).value_or("");
    pair.right = ctx.string_field(o, p, "right", true).value_or("");
    pair.feedback = ctx.string_field(o, p, "feedback", false).value_or("");
    spec->pairs.push_back(pair);
  }
  return spec;
}

// `dtx new matching`: a whole working exercise, with "$comment" notes on every field
// (cli/new.cpp puts it in a pack; the CLI test checks that it passes `dtx lint --warn`).
const char* kNewTitle = "Collectives and the bytes each GPU sends";
const char* kNewIntro =
    "Every collective moves a buffer of M bytes between N GPUs; ring algorithms send it in N "
    "chunks, one step per neighbour.";
const char* kNewExercise = R"JSON(    {
      "$comment": [
@COMMON@,
        "A matching exercise: each of the \"pairs\" joins an item (\"left\") to the option that belongs with it (\"right\"). Students see the items and the options shuffled, options lettered, and pick a letter for each item; each right pair earns its share of the credit.",
        "\"distractors\" (optional) are options that belong with no item, so the last pair cannot be found by elimination. \"feedback\" (optional, per pair) is shown when that item is matched wrongly."
      ],
      "id": @ID@,
      "type": "matching",
      "title": @TITLE@,
      "difficulty": 1,
      "tags": ["collectives"],
      "params": {"N": {"default": 8, "choices": [4, 8, 16]}},
      "prompt": "A buffer of **M** bytes sits on each of **N = {N}** GPUs. Match each ring collective with the bytes one GPU sends in it.",
      "pairs": [
        {"left": "AllReduce", "right": "$2M(N-1)/N$", "feedback": "A reduce-scatter and then an all-gather: two phases of N-1 chunks of M/N."},
        {"left": "ReduceScatter", "right": "$M(N-1)/N$", "feedback": "One phase: N-1 steps, each sending one chunk of M/N."},
        {"left": "Broadcast from one GPU, pipelined along the ring", "right": "$M$", "feedback": "Every GPU but the last forwards the whole buffer once."}
      ],
      "distractors": ["$2M$", "$M/N$"],
      "hints": [
        "Count the steps of each ring algorithm and the size of what one step sends.",
        "An AllReduce is a ReduceScatter followed by an AllGather."
      ],
      "explanation": "In a ring, a GPU sends one chunk of M/N per step. A ReduceScatter has N-1 steps, so M(N-1)/N; an AllReduce adds an AllGather of the same size, so 2M(N-1)/N; a pipelined broadcast forwards the whole buffer once, M. With N = {N}: {2*(N-1)/N:3} M, {(N-1)/N:3} M and M."
    })JSON";

}  // namespace

const TypeEntry& matching_type_entry() {
  static const TypeEntry e{"matching", "match", {"pairs", "distractors"}, {"pairs"}, &load_matching,
                           kNewTitle, kNewIntro, kNewExercise,
                           "a letter for each item in the order shown: CAB   or   1=C 2=A 3=B",
                          6};
  return e;
}

std::vector<int> matching_option_order(const Instance& inst, size_t options) {
  if (const auto* d = inst.data_as<MatchingInstance>(); d && d->option_order.size() == options) return d->option_order;
  std::vector<int> order(options);
  for (size_t i = 0; i < options; ++i) order[i] = static_cast<int>(i);
  return order;
}

void MatchingSpec::lint(const Exercise& ex, LintContext& ctx) const {
  std::set<std::string> lefts, rights;
  for (size_t i = 0; i < pairs.size(); ++i) {
    if (!lefts.insert(pairs[i].left).second)
      ctx.error(DiagCode::Duplicate, pairs[i].pointer + "/left", "two items have the same text \"" + pairs[i].left + "\"");
    if (!rights.insert(pairs[i].right).second)
      ctx.error(DiagCode::Duplicate, pairs[i].pointer + "/right", "two pairs have the same option \"" + pairs[i].right +
                                                 "\": each option belongs with one item");
  }
  for (size_t i = 0; i < distractors.size(); ++i)
    if (!rights.insert(distractors[i]).second)
      ctx.error(DiagCode::Duplicate, ex.pointer + "/distractors/" + std::to_string(i),
                "the distractor \"" + distractors[i] + "\" is also an option of a pair (or listed twice)");
}

void MatchingSpec::warn(const Exercise& ex, LintContext& ctx) const {
  bool any_feedback = std::any_of(pairs.begin(), pairs.end(), [](const MatchingPair& p) { return !p.feedback.empty(); });
  if (ex.hints.empty() && !any_feedback)
    ctx.warn(DiagCode::NoFeedback, ex.pointer, "no hints and no \"feedback\" for the pairs: a student who matches an item wrongly is "
                         "not told why it belongs elsewhere");
  if (distractors.empty() && pairs.size() <= 3)
    ctx.warn(DiagCode::GuessablePairs, ex.pointer + "/pairs", "with " + std::to_string(pairs.size()) + " pairs and no \"distractors\", the "
                                    "last item is found by elimination; add an option that belongs with no item");
}

bool MatchingSpec::prepare(const Exercise& ex, Instance& inst, uint64_t seed, std::string*) const {
  Rng rng(hash_string(ex.id + "/order") ^ (seed * 0xD1B54A32D192ED03ull));
  auto data = std::make_shared<MatchingInstance>();
  data->order = shuffled_indices(static_cast<int>(pairs.size()), rng, {}, false);
  // No pair is given away by its place: the answer is never A for item 1, B for item 2...
  // (the options in the items' order), whatever the items' order is.
  auto diagonal = [&](const std::vector<int>& opts) {
    for (size_t k = 0; k < data->order.size(); ++k)
      if (opts[k] != data->order[k]) return false;
    return true;
  };
  data->option_order = shuffled_indices(static_cast<int>(option_count()), rng, {}, true);
  for (int attempt = 0; attempt < 16 && diagonal(data->option_order); ++attempt)
    data->option_order = shuffled_indices(static_cast<int>(option_count()), rng, {}, true);
  if (diagonal(data->option_order))  // unlucky 16 times (two pairs, no distractor): swap two
    std::swap(data->option_order[0], data->option_order[1]);
  inst.data = data;
  return true;
}

Feedback MatchingSpec::grade(const Exercise&, const Instance& inst, const Answer& answer, const GradeServices&) const {
  Feedback fb;
  const std::vector<int>& choice = answer.as_or_empty<MatchingAnswer>().choice;
  const int n = static_cast<int>(pairs.size()), m = static_cast<int>(option_count());
  if (static_cast<int>(choice.size()) != n) {
    fb.verdict = Verdict::FormatError;
    fb.message = "Match each of the " + std::to_string(n) + " items with an option.";
    return fb;
  }
  int unmatched = 0;
  for (int c : choice) {
    if (c >= m || c < -1) {
      fb.verdict = Verdict::FormatError;
      fb.message = "There are only " + std::to_string(m) + " options, A to " + option_letter(static_cast<size_t>(m - 1)) + ".";
      return fb;
    }
    unmatched += c < 0;
  }
  if (unmatched > 0) {
    fb.verdict = Verdict::FormatError;
    fb.message = unmatched == 1 ? "One item has no option yet: match every item."
                                : std::to_string(unmatched) + " items have no option yet: match every item.";
    return fb;
  }
  // Feedback follows the items as the student saw them.
  int right = 0;
  for (int pos = 0; pos < n; ++pos) {
    const int i = shown_order(inst).empty() ? pos : shown_order(inst)[pos];
    if (choice[i] == i) {
      ++right;
      continue;
    }
    std::string line = "“" + inst.render(pairs[i].left) + "” does not go with “" + inst.render(option_text(choice[i])) + "”.";
    if (!pairs[i].feedback.empty()) {
      line += " " + inst.render(pairs[i].feedback);
      fb.misconception = kListedMisconception;  // a wrong match the author explains
    }
    fb.details.push_back(line);
  }
  fb.score = static_cast<double>(right) / n;
  fb.verdict = right == n ? Verdict::Correct : right > 0 ? Verdict::Partial : Verdict::Incorrect;
  fb.message = right == n ? "Correct: all " + std::to_string(n) + " pairs are right."
               : right == 0 ? "None of the " + std::to_string(n) + " pairs is right."
                            : std::to_string(right) + " of " + std::to_string(n) + " pairs " +
                                  (right == 1 ? "is" : "are") + " right.";
  return fb;
}

void MatchingSpec::texts(const Exercise& ex, const TextFn& fn) const {
  for (const auto& p : pairs) {
    fn(p.left, p.pointer + "/left", "a pair's item");
    fn(p.right, p.pointer + "/right", "a pair's option");
    fn(p.feedback, p.pointer + "/feedback", "a pair's feedback");
  }
  for (size_t i = 0; i < distractors.size(); ++i)
    fn(distractors[i], ex.pointer + "/distractors/" + std::to_string(i), "a distractor");
}

namespace {
// "1-C 2-A 3-B": each item by its number as shown, with the letter of its option.
std::vector<std::string> answer_pairs(const MatchingSpec& s, const Instance& inst) {
  const std::vector<int> options = matching_option_order(inst, s.option_count());
  std::vector<std::string> out;
  for (size_t pos = 0; pos < shown_order(inst).size(); ++pos) {
    const int item = shown_order(inst)[pos];
    const size_t letter = static_cast<size_t>(std::find(options.begin(), options.end(), item) - options.begin());
    out.push_back(std::to_string(pos + 1) + "-" + option_letter(letter));
  }
  return out;
}
}  // namespace

void MatchingSpec::describe(const Exercise&, const Instance& inst, bool with_answer, InstanceDescription& out) const {
  const std::vector<int> options = matching_option_order(inst, option_count());
  Json items = Json::array(), opts = Json::array();
  out.text += "\n(match each item with an option)\n";
  for (size_t pos = 0; pos < shown_order(inst).size(); ++pos) {
    const std::string text = inst.render(pairs[shown_order(inst)[pos]].left);
    items.push_back({{"number", pos + 1}, {"text", text}});
    out.text += "  " + std::to_string(pos + 1) + ". " + markdown_math_to_plain(text) + "\n";
  }
  out.text += "options:\n";
  for (size_t k = 0; k < options.size(); ++k) {
    const std::string text = inst.render(option_text(options[k]));
    opts.push_back({{"label", option_letter(k)}, {"text", text}});
    out.text += "  " + option_letter(k) + ") " + markdown_math_to_plain(text) + "\n";
  }
  out.json["items"] = items;
  out.json["options"] = opts;
  if (with_answer) {
    auto pairs_shown = answer_pairs(*this, inst);
    std::string line;
    for (const auto& p : pairs_shown) line += (line.empty() ? "" : " ") + p;
    out.json["answer"] = pairs_shown;
    out.text += "answer: " + line + "\n";
    out.answer_words = pairs_shown;
  }
}

std::vector<std::string> MatchingSpec::answer_key(const Exercise&, const Instance& inst) const {
  std::string line;
  for (const auto& p : answer_pairs(*this, inst)) line += (line.empty() ? "" : ", ") + p;
  return {"pairs: " + line};
}

// "CAB" (a letter per item, in the order shown) or "1=C 2=A 3=B" (any order, any subset).
std::optional<Answer> MatchingSpec::parse_answer(const Exercise&, const Instance& inst, const std::vector<std::string>& words,
                                                 std::string* error) const {
  const std::vector<int> options = matching_option_order(inst, option_count());
  const size_t n = pairs.size();
  std::vector<int> choice(n, -1);
  auto letter_to_option = [&](char c, int* out) {
    int k = std::toupper(static_cast<unsigned char>(c)) - 'A';
    if (!std::isalpha(static_cast<unsigned char>(c)) || k < 0 || k >= static_cast<int>(options.size())) {
      if (error)
        *error = std::string("there is no option ") + c + " (options are A to " + option_letter(options.size() - 1) + ")";
      return false;
    }
    *out = options[k];
    return true;
  };
  const std::vector<std::string> tokens = split_answer_words(words);
  if (tokens.size() == 1 && tokens[0].find_first_of("=:-") == std::string::npos) {
    if (tokens[0].size() != n) {
      if (error) *error = "expected " + std::to_string(n) + " letters, one per item in the order shown; got '" + tokens[0] + "'";
      return std::nullopt;
    }
    for (size_t pos = 0; pos < n; ++pos)
      if (!letter_to_option(tokens[0][pos], &choice[shown_order(inst)[pos]])) return std::nullopt;
    return make_answer(MatchingAnswer(choice));
  }
  for (const auto& tok : tokens) {
    size_t sep = tok.find_first_of("=:-");
    char* end = nullptr;
    long item = sep == std::string::npos ? 0 : std::strtol(tok.substr(0, sep).c_str(), &end, 10);
    if (sep == std::string::npos || sep == 0 || *end || item < 1 || item > static_cast<long>(n) || sep + 2 != tok.size()) {
      if (error) *error = "expected item=letter pairs such as 1=C 2=A, or one letter per item such as CAB; got '" + tok + "'";
      return std::nullopt;
    }
    if (!letter_to_option(tok[sep + 1], &choice[shown_order(inst)[item - 1]])) return std::nullopt;
  }
  return make_answer(MatchingAnswer(choice));
}

// One letter per item in the order shown ("FDCEA") when every item has an option; otherwise
// "2=C" pairs (item numbers as shown) for the items that have one, so the rest read back as
// unmatched. An option the instance does not show gets a letter past the last one, and an
// entry past the items a number past the last item: parse_answer refuses both, as grading
// refuses the answer.
std::vector<std::string> MatchingSpec::answer_words(const Exercise&, const Instance& inst, const Answer& a) const {
  const std::vector<int>& choice = a.as_or_empty<MatchingAnswer>().choice;
  const std::vector<int> options = matching_option_order(inst, option_count());
  const size_t n = pairs.size();
  auto letter = [&](int option) { return indices_to_letters({option}, options)[0]; };
  bool every = choice.size() == n;
  for (int c : choice) every &= c >= 0;
  if (every) {
    std::string word;
    for (size_t pos = 0; pos < n; ++pos) word += letter(choice[shown_order(inst).empty() ? pos : shown_order(inst)[pos]]);
    return {word};
  }
  std::vector<std::string> words;
  for (size_t pos = 0; pos < n; ++pos) {
    const size_t item = shown_order(inst).empty() ? pos : shown_order(inst)[pos];
    if (item < choice.size() && choice[item] >= 0) words.push_back(std::to_string(pos + 1) + "=" + letter(choice[item]));
  }
  for (size_t extra = n; extra < choice.size(); ++extra) words.push_back(std::to_string(extra + 1) + "=A");
  return words;
}

std::vector<SampleAnswer> MatchingSpec::sample_answers(const Exercise&, const Instance& inst) const {
  using E = SampleAnswer::Expect;
  const int n = static_cast<int>(pairs.size());
  std::vector<SampleAnswer> out;
  std::vector<int> right(n);
  for (int i = 0; i < n; ++i) right[i] = i;
  out.emplace_back("correct", make_answer(MatchingAnswer(right)), E::Correct);
  // Every item given the next item's option: no pair right.
  std::vector<int> shifted(n);
  for (int i = 0; i < n; ++i) shifted[i] = (i + 1) % n;
  out.emplace_back("every option moved to the next item", make_answer(MatchingAnswer(shifted)), E::Incorrect);
  // Two items swapped: the others right; the swapped ones' feedback says why.
  std::vector<int> swapped = right;
  std::swap(swapped[0], swapped[1]);
  out.emplace_back("two items swapped", make_answer(MatchingAnswer(swapped)), n > 2 ? E::Partial : E::Incorrect,
                   inst.render(pairs[0].feedback));
  if (!distractors.empty()) {
    std::vector<int> lured = right;
    lured[0] = n;  // the first distractor
    out.emplace_back("a distractor chosen", make_answer(MatchingAnswer(lured)), E::Partial, "does not go with");
  }
  std::vector<int> none(n, -1);
  out.emplace_back("unreadable: nothing matched", make_answer(MatchingAnswer(none)), E::Unreadable);
  std::vector<int> half = right;
  half[n - 1] = -1;
  out.emplace_back("unreadable: one item left unmatched", make_answer(MatchingAnswer(half)), E::Unreadable);
  return out;
}

}  // namespace dtx
