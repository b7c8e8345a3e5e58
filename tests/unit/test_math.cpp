// Maths in pack Markdown (engine/maths.h): spans, the brace rule with placeholders, the
// parser's tree, errors with positions and limits, and the plain-text rendering.
#include <gtest/gtest.h>

#include "lint.h"
#include "maths.h"
#include "model.h"

namespace dtx {
namespace {

std::string plain(std::string_view src) {
  MathError err;
  auto n = parse_math(src, &err);
  if (!n) return "error at " + std::to_string(err.offset) + ": " + err.message;
  return math_to_plain(*n);
}

MathError error_of(std::string_view src, MathMode mode = MathMode::Rendered) {
  MathError err;
  EXPECT_FALSE(parse_math(src, &err, mode).has_value()) << src;
  return err;
}

// ---------------------------------------------------------------- spans

TEST(MathSpans, PairsDollarsWithinAParagraph) {
  auto s = find_math_spans("A $x^2$ and $$y$$, \\$5, `$code$`.");
  ASSERT_EQ(s.spans.size(), 2u);
  EXPECT_EQ(s.spans[0].open, 2u);
  EXPECT_EQ(s.spans[0].begin, 3u);
  EXPECT_EQ(s.spans[0].end, 6u);
  EXPECT_FALSE(s.spans[0].display);
  EXPECT_TRUE(s.spans[1].display);
  EXPECT_TRUE(s.unclosed.empty());
}

TEST(MathSpans, UnclosedDollarIsReportedAndParagraphsDoNotPair) {
  auto s = find_math_spans("costs $2 per hour\n\nand $3 more");
  EXPECT_TRUE(s.spans.empty());
  ASSERT_EQ(s.unclosed.size(), 2u);
  EXPECT_EQ(s.unclosed[0], 6u);
  // list items are blocks of their own
  auto l = find_math_spans("- a $x\n- b$ c");
  EXPECT_TRUE(l.spans.empty());
  EXPECT_EQ(l.unclosed.size(), 2u);
  // a soft line break inside a paragraph does not end the span (md4c allows it)
  EXPECT_EQ(find_math_spans("a $x\n+ y$").spans.size(), 0u);  // "+ y" starts a list item
  EXPECT_EQ(find_math_spans("a $x\ny$").spans.size(), 1u);
  // fenced code is skipped
  EXPECT_TRUE(find_math_spans("```\n$a\n```\n").unclosed.empty());
}

// ---------------------------------------------------------------- parser and plain text

TEST(MathParse, PlainTextRendering) {
  EXPECT_EQ(plain("10^9"), "10⁹");
  EXPECT_EQ(plain("2^{30}"), "2³⁰");
  EXPECT_EQ(plain("10^{-5}"), "10⁻⁵");
  EXPECT_EQ(plain("2M(N-1)/N"), "2M(N−1)/N");
  EXPECT_EQ(plain("\\frac{2M(N-1)}{N}"), "2M(N−1)/N");
  EXPECT_EQ(plain("\\frac{a+b}{2N}"), "(a+b)/(2N)");
  EXPECT_EQ(plain("\\sqrt{x}"), "√x");
  EXPECT_EQ(plain("\\sqrt{2CF}"), "√(2CF)");
  EXPECT_EQ(plain("a \\times b"), "a × b");
  EXPECT_EQ(plain("p \\le m"), "p ≤ m");
  EXPECT_EQ(plain("x_{i}"), "x_i");
  EXPECT_EQ(plain("x_2"), "x₂");
  EXPECT_EQ(plain("t_{\\text{comm}}"), "t_(comm)");
  EXPECT_EQ(plain("\\alpha + \\beta\\,\\Omega"), "α + β Ω");
  EXPECT_EQ(plain("k^{x+1}"), "k^(x+1)");
  EXPECT_EQ(plain("x^23"), "x²3");  // one digit, as in LaTeX
  EXPECT_EQ(plain("1 \\ldots N, \\infty, \\pm 1, a \\ne b, x \\to y, a \\approx b, a \\ge b"),
            "1 … N, ∞, ± 1, a ≠ b, x → y, a ≈ b, a ≥ b");
  EXPECT_EQ(plain("\\sqrt[3]{x}"), "³√x");
  EXPECT_EQ(plain("\\text{GPUs} \\cdot 8"), "GPUs · 8");
  EXPECT_EQ(plain("\\$5"), "$5");
}

TEST(MathParse, TreeShape) {
  MathError err;
  auto n = parse_math("10^{9}", &err);
  ASSERT_TRUE(n);
  ASSERT_EQ(n->kids.size(), 1u);
  const MathNode& sc = n->kids[0];
  EXPECT_EQ(sc.kind, MathNode::Scripts);
  EXPECT_TRUE(sc.has_sup);
  EXPECT_FALSE(sc.has_sub);
  EXPECT_EQ(sc.kids[0].text, "10");
  EXPECT_EQ(sc.kids[0].cls, MathNode::Num);
  auto f = parse_math("\\frac{a}{b}", &err);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->kids[0].kind, MathNode::Frac);
  EXPECT_EQ(f->kids[0].kids[0].kids[0].text, "a");
  EXPECT_EQ(f->kids[0].kids[0].kids[0].cls, MathNode::Var);
  auto r = parse_math("\\sqrt x", &err);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->kids[0].kind, MathNode::Root);
  auto both = parse_math("x_i^2", &err);
  ASSERT_TRUE(both);
  EXPECT_TRUE(both->kids[0].has_sup && both->kids[0].has_sub);
}

TEST(MathParse, ErrorsGiveTheOffset) {
  auto e = error_of("a + \\fracc{1}{2}");
  EXPECT_EQ(e.offset, 4u);
  EXPECT_NE(e.message.find("unknown command \\fracc"), std::string::npos) << e.message;
  EXPECT_NE(e.message.find("did you mean \\frac?"), std::string::npos) << e.message;
  e = error_of("\\frac{1}");
  EXPECT_EQ(e.offset, 8u);
  EXPECT_NE(e.message.find("two arguments"), std::string::npos) << e.message;
  e = error_of("x^{2");
  EXPECT_EQ(e.offset, 2u);
  EXPECT_NE(e.message.find("never closed"), std::string::npos);
  e = error_of("a}");
  EXPECT_EQ(e.offset, 1u);
  e = error_of("x^");
  EXPECT_EQ(e.offset, 2u);
  e = error_of("x^2^3");
  EXPECT_EQ(e.offset, 3u);
  EXPECT_NE(e.message.find("second superscript"), std::string::npos);
}

TEST(MathParse, LimitsOnDepthAndSize) {
  std::string deep;
  for (int i = 0; i < 40; ++i) deep += "x^{";
  deep += "1";
  for (int i = 0; i < 40; ++i) deep += "}";
  auto e = error_of(deep);
  EXPECT_NE(e.message.find("nested deeper than 12"), std::string::npos) << e.message;
  EXPECT_LT(e.offset, 40u);
  // 10,000 nested groups must not reach the stack either
  std::string very(10000, '{');
  e = error_of(very);
  EXPECT_NE(e.message.find("longer than 1000 bytes"), std::string::npos);
  std::string nested_ok;
  for (int i = 0; i < 11; ++i) nested_ok += "x^{";
  nested_ok += "1" + std::string(11, '}');
  MathError err;
  EXPECT_TRUE(parse_math(nested_ok, &err)) << err.message;
}

// ---------------------------------------------------------------- braces and placeholders

TEST(MathBraces, GroupsAfterScriptsAndCommandsOtherBracesArePlaceholders) {
  auto b = scan_math_braces("2^{{k}} \\frac{a}{{N}} {M} x_{i} \\sqrt[{n}]{y} \\frac1{N}");
  std::vector<std::string> got;
  std::string_view src = "2^{{k}} \\frac{a}{{N}} {M} x_{i} \\sqrt[{n}]{y} \\frac1{N}";
  for (const auto& p : b.placeholders) got.push_back(std::string(src.substr(p.brace, p.close + 1 - p.brace)));
  EXPECT_EQ(got, (std::vector<std::string>{"{k}", "{N}", "{M}", "{n}", "{N}"}));
  EXPECT_TRUE(b.problems.empty());
  auto bad = scan_math_braces("\\cdot{N} a}");
  ASSERT_EQ(bad.problems.size(), 2u);
  EXPECT_EQ(bad.problems[0].offset, 5u);
  EXPECT_NE(bad.problems[0].message.find("takes no argument"), std::string::npos);
  EXPECT_EQ(bad.problems[1].offset, 10u);
}

// A small pack to render and lint.
LoadResult pack_with(const std::string& prompt, const std::string& explanation = "x") {
  std::string text = R"({"format": 1, "chapter": 90, "id": "m", "title": "M", "exercises": [
    {"id": "m.one", "type": "numeric", "title": "T", "prompt": )" + prompt + R"(,
     "explanation": )" + (explanation == "x" ? std::string("\"e\"") : explanation) + R"(,
     "params": {"k": {"default": 30, "choices": [10, 30]}, "N": {"default": 16384, "choices": [8, 16384]}},
     "parts": [{"id": "a", "answer": "2^k", "unit": ""}]}]})";
  return load_pack(text, "m.json");
}

TEST(MathPlaceholders, FilledInsideMathsAsGroups) {
  auto r = pack_with(R"("Compute $2^{{k}}$, $2^{k}$, ${N}$ GPUs, $\\frac1{N}$ and \\${N}.")");
  ASSERT_TRUE(r.ok());
  auto inst = make_instance(r.pack->exercises[0], 0, nullptr);
  ASSERT_TRUE(inst);
  std::string md = inst->render(r.pack->exercises[0].prompt);
  EXPECT_EQ(md, "Compute $2^{{30}}$, $2^{k}$, ${16,384}$ GPUs, $\\frac1{16,384}$ and \\$16,384.");
  EXPECT_EQ(markdown_math_to_plain(md), "Compute 2³⁰, 2^k, 16,384 GPUs, 1/16,384 and $16,384.");
}

TEST(MathPlaceholders, TinyAndHugeValuesBecomeMaths) {
  EXPECT_EQ(math_number("6.1 × 10^-5"), "6.1 \\times 10^{-5}");
  EXPECT_EQ(plain("{6.1 \\times 10^{-5}}"), "6.1 × 10⁻⁵");
}

std::vector<Diagnostic> lint_of(const LoadResult& r) {
  Library lib;
  lib.packs.push_back(*r.pack);
  return lint_library(lib, nullptr);
}

TEST(MathLint, MalformedMathsIsAnErrorAtTheCharacter) {
  auto r = pack_with(R"("Bad $\\fracc{1}{2}$ here.")");
  ASSERT_TRUE(r.ok());
  auto d = lint_of(r);
  ASSERT_EQ(d.size(), 1u);
  SCOPED_TRACE(format_diagnostic(d[0]));
  EXPECT_EQ(d[0].pointer, "/exercises/0/prompt");
  EXPECT_NE(d[0].message.find("unknown command \\fracc"), std::string::npos) << d[0].message;
  EXPECT_NE(d[0].message.find("at character 6 of the text"), std::string::npos) << d[0].message;
  EXPECT_EQ(d[0].line, 2);

  auto u = lint_of(pack_with(R"("It costs $5 per hour.")"));
  ASSERT_EQ(u.size(), 1u);
  EXPECT_NE(u[0].message.find("no '$' closes"), std::string::npos);

  // in maths, {x+} where a placeholder goes is not an expression
  auto p = lint_of(pack_with(R"("Here ${x+}$.")"));
  ASSERT_EQ(p.size(), 1u);
  EXPECT_NE(p[0].message.find("is a placeholder"), std::string::npos) << p[0].message;

  // an unknown name in a maths placeholder is named like any placeholder
  auto n = lint_of(pack_with(R"("Here ${q}$.")"));
  ASSERT_EQ(n.size(), 1u);
  EXPECT_NE(n[0].message.find("parameter 'q'"), std::string::npos) << n[0].message;

  auto g = lint_of(pack_with(R"("Here $a \\cdot{N}$.")"));
  ASSERT_EQ(g.size(), 1u);
  EXPECT_NE(g[0].message.find("takes no argument"), std::string::npos) << g[0].message;

  EXPECT_TRUE(lint_of(pack_with(R"("Fine $2^{{k}} \\times \\frac{a}{b}$ and \\$5.")")).empty());
}

}  // namespace
// ---------------------------------------------------------------- words (spoken feedback)

std::string said(std::string_view src) {
  auto n = parse_math(src, nullptr);
  return n ? math_to_words(*n) : "(no parse)";
}

TEST(MathWords, FormulasAreSaidAsWordsNotSymbols) {
  EXPECT_EQ(said("\\frac{2M(N-1)}{N}"), "(2 M (N minus 1)) over N");
  EXPECT_EQ(said("x^2 + y^3"), "x squared plus y cubed");
  EXPECT_EQ(said("2^{30}"), "2 to the power 30");
  EXPECT_EQ(said("\\sqrt{2 C F}"), "the square root of (2 C F)");
  EXPECT_EQ(said("a \\times b \\le c"), "a times b is at most c");
  EXPECT_EQ(said("t_{i+1}"), "t sub i plus 1");
  EXPECT_EQ(markdown_math_to_words("so the total is $\\frac{2M(N-1)}{N}$, \\$5."),
            "so the total is (2 M (N minus 1)) over N, $5.");
}

// The live region's words: no LaTeX, and a part's message once, though dtx grade's details
// repeat it under the part's label.
TEST(SpokenFeedback, EachSentenceOnceAndMathsInWords) {
  Feedback fb;
  fb.verdict = Verdict::Incorrect;
  fb.message = "0 of 2 parts correct.";
  PartFeedback a;
  a.label = "Sent during reduce-scatter";
  a.message = "You counted all 8 chunks.";
  PartFeedback b;
  b.label = "Sent over the whole AllReduce";
  b.message = "The total is $\\frac{2M(N-1)}{N}$.";
  fb.parts = {a, b};
  fb.details = {a.label + ": " + a.message, b.label + ": " + b.message, "A note of its own."};
  const std::string s = spoken_feedback(fb);
  EXPECT_EQ(s.find("You counted all 8 chunks."), s.rfind("You counted all 8 chunks.")) << s;
  EXPECT_NE(s.find("The total is (2 M (N minus 1)) over N."), std::string::npos) << s;
  EXPECT_EQ(s.find("\\frac"), std::string::npos) << s;
  EXPECT_NE(s.find("A note of its own."), std::string::npos) << s;
}

}  // namespace dtx
