#include <gtest/gtest.h>

#include "helpers.h"
#include "markdown_links.h"
#include "text.h"
#include "text_functions.h"

using namespace dtx;

TEST(FormatNumber, ProseFriendly) {
  EXPECT_EQ(format_number(1.75), "1.75");
  EXPECT_EQ(format_number(0.875), "0.875");
  EXPECT_EQ(format_number(29.3125), "29.31");
  EXPECT_EQ(format_number(2048), "2048");
  EXPECT_EQ(format_number(16384), "16,384");
  EXPECT_EQ(format_number(405e9), "405,000,000,000");
  EXPECT_EQ(format_number(1e9), "1,000,000,000");
  EXPECT_EQ(format_number(6.1e-5), "6.1 × 10^-5");
  EXPECT_EQ(format_number(3.8e25), "3.8 × 10^25");
  // prose shows the power in superscript digits
  EXPECT_EQ(superscript_power(format_number(6.1e-5)), "6.1 × 10\u207B\u2075");
  EXPECT_EQ(superscript_power(format_number(3.8e25)), "3.8 × 10\u00B2\u2075");
  EXPECT_EQ(superscript_power("16,384"), "16,384");
  size_t len = 0;
  auto e = superscript_integer("10\u207B\u2075 s", 2, &len);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(*e, -5);
  EXPECT_EQ(len, 6u);
  EXPECT_FALSE(superscript_integer("10^5", 2, &len).has_value());
  EXPECT_FALSE(superscript_integer("10\u2075\u2075\u2075\u2075\u2075", 2, &len).has_value()) << "at most 4 digits";
  EXPECT_EQ(format_number(0), "0");
  EXPECT_EQ(format_number(-0.5), "-0.5");
  EXPECT_EQ(format_number(999.99), "1000");
  EXPECT_EQ(format_number(2.0 / 3.0, 3), "0.667");
  EXPECT_EQ(format_number(0.001), "0.001");
}

TEST(FormatNumber, NeverPrintsCExponents) {
  for (double v : {1e9, 1.5e12, 7e14, 2e15, 1e-7, 123456789.0})
    EXPECT_EQ(format_number(v).find("e+"), std::string::npos) << v;
}

TEST(Tolerance, Within) {
  EXPECT_TRUE(within(1.01, 1.0, 0.01, 0));
  EXPECT_TRUE(within(0.99, 1.0, 0.01, 0));
  EXPECT_FALSE(within(1.0101, 1.0, 0.01, 0));
  EXPECT_TRUE(within(0.4, 0.0, 0.01, 0.5));
  EXPECT_EQ(describe_tolerance(0.01, 0, "GB"), "within 1%");
  EXPECT_EQ(describe_tolerance(0, 0.5, "GB"), "within ±0.5 GB");
}

TEST(Utf8, ColumnsCountCharacters) {
  EXPECT_EQ(utf8_column("µs x", 3), 3);  // µ is two bytes but one column
  EXPECT_EQ(utf8_column("abc", 0), 1);
}

// ---------------------------------------------------------------- text functions

TEST(TextFunctions, PluralAndIfFollowTheInstance) {
  auto render_at = [](uint64_t seed) {
    Pack p = dtx::testing::must_load(dtx::testing::pack_with(R"J({"id": "t.f", "type": "numeric", "title": "T",
      "prompt": "{plural(m, 'micro-batch')} on {if(p >= 16, 'a deep', 'a shallow')} pipeline; {plural(m, 'copy')}, {plural(m, 'matrix', 'matrices')}.",
      "params": {"p": {"default": 16, "choices": [4, 16]}, "m": {"default": 1, "choices": [1, 3]}},
      "parts": [{"id": "b", "answer": "(p-1)/m", "unit": ""}]})J"));
    Instance i = dtx::testing::must_instance(p.exercises[0], seed);
    return std::make_pair(i, i.render(p.exercises[0].prompt));
  };
  auto [def, text] = render_at(0);
  EXPECT_EQ(text, "1 micro-batch on a deep pipeline; 1 copy, 1 matrix.");
  bool saw_other = false;
  for (uint64_t seed = 1; seed < 40; ++seed) {
    auto [inst, t] = render_at(seed);
    double p = *inst.value("p"), m = *inst.value("m");
    std::string want = (m == 1 ? std::string("1 micro-batch") : "3 micro-batches") + " on " +
                       (p >= 16 ? "a deep" : "a shallow") + " pipeline; " + (m == 1 ? "1 copy, 1 matrix." : "3 copies, 3 matrices.");
    EXPECT_EQ(t, want) << "seed " << seed;
    saw_other |= m == 3 && p == 4;
  }
  EXPECT_TRUE(saw_other);
}

TEST(TextFunctions, EnglishPluralsAndParsing) {
  EXPECT_EQ(english_plural("GPU"), "GPUs");
  EXPECT_EQ(english_plural("micro-batch"), "micro-batches");
  EXPECT_EQ(english_plural("pass"), "passes");
  EXPECT_EQ(english_plural("copy"), "copies");
  EXPECT_EQ(english_plural("day"), "days");
  TextFunctionError err;
  // The expression language's numeric if() is not a text function.
  EXPECT_FALSE(parse_text_function("if(p > 2, 1, 0)", &err));
  EXPECT_TRUE(err.message.empty());
  EXPECT_FALSE(parse_text_function("N-1", &err));
  EXPECT_TRUE(err.message.empty());
  auto f = parse_text_function(" plural ( n , \"it\\\"s\" ) ", &err);
  ASSERT_TRUE(f) << err.message;
  EXPECT_EQ(f->texts[0], "it\"s");
  // Malformed: each says what is wrong, at the place.
  for (const char* bad : {"if(p > 2, 'a')", "plural(m, 'x)", "plural(m 'x')", "plural('x', m)", "if(p >, 'a', 'b')",
                          "plural(m, 'x', 'y', 'z')", "plural(m, 'x') extra"}) {
    EXPECT_FALSE(parse_text_function(bad, &err)) << bad;
    EXPECT_FALSE(err.message.empty()) << bad;
    EXPECT_LE(err.offset, std::string(bad).size()) << bad;
  }
}

// ---------------------------------------------------------------- images (engine/markdown_links.h)

namespace {

// "source@offset[alt]" for each image, "ref:" before a reference image's source.
std::string images_in(const std::string& text) {
  std::string s;
  for (const auto& img : dtx::find_markdown_images(text))
    s += (img.reference ? "ref:" : "") + img.source + "@" + std::to_string(img.source_offset) + "[" + img.alt + "]@" +
         std::to_string(img.offset) + " ";
  return s;
}

}  // namespace

TEST(MarkdownImages, InlineImagesWithTheirAltAndTitle) {
  EXPECT_EQ(images_in("![A ring](img/ring.svg)"), "img/ring.svg@10[A ring]@0 ");
  EXPECT_EQ(images_in("see ![x](a.png \"a title\") and ![](<b c.jpg>)"), "a.png@9[x]@4 b c.jpg@35[]@30 ");
  // The alt may hold brackets and markup; the source balances parentheses.
  EXPECT_EQ(images_in("![a [b] *c*](f(1).svg)"), "f(1).svg@13[a [b] *c*]@0 ");
  // An image inside a link, and a link is no image.
  EXPECT_EQ(images_in("[![logo](l.svg)](https://x.org) [text](t.png)"), "l.svg@9[logo]@1 ");
  // ![alt]() is an image without a source.
  EXPECT_EQ(images_in("![empty]()"), "@9[empty]@0 ");
}

TEST(MarkdownImages, ReferenceImagesTakeTheirDefinitionsSource) {
  EXPECT_EQ(images_in("![Ring][fig 1]\n\n[Fig  1]: img/ring.svg"), "ref:img/ring.svg@26[Ring]@0 ");
  EXPECT_EQ(images_in("![fig][] and ![fig]\n\n[fig]: <a b.png> \"t\""), "ref:a b.png@29[fig]@0 ref:a b.png@29[fig]@13 ");
  // The first definition of a label wins; an undefined label is no image.
  EXPECT_EQ(images_in("![x][a]\n\n[a]: one.png\n[a]: two.png"), "ref:one.png@14[x]@0 ");
  EXPECT_EQ(images_in("![x][nowhere] and ![y]"), "");
}

TEST(MarkdownImages, NotImages) {
  // Escaped, in code, split by a blank line, only a '!' before a link's text.
  EXPECT_EQ(images_in("\\![a](x.png) `![a](x.png)` !\\[a](x.png)"), "");
  EXPECT_EQ(images_in("```\n![a](x.png)\n```\n![b](y.png)"), "y.png@25[b]@20 ");
  EXPECT_EQ(images_in("![a\n\nb](x.png)"), "");
  EXPECT_EQ(images_in("Wow! [a](x.png)"), "");
  // '[' at the start of the text is not taken for "![" (there is no '!' before it).
  EXPECT_EQ(images_in("[a](x.png)"), "");
}

TEST(MarkdownImages, AHostileTextIsScannedInLinearTime) {
  // 60,000 unclosed "![" and as many open reference labels: one pass, no quadratic rescans.
  std::string text;
  for (int i = 0; i < 20000; ++i) text += "![a";
  for (int i = 0; i < 20000; ++i) text += "![x][y] ";
  EXPECT_EQ(dtx::find_markdown_images(text).size(), 0u);
}

TEST(MarkdownImages, FormatSchemeAndPath) {
  using dtx::image_extension;
  using dtx::image_format_allowed;
  using dtx::image_relative_path;
  using dtx::image_scheme_allowed;
  for (const char* ok : {"img/a.png", "A.PNG", "b.jpg", "c.Jpeg", "d.svg?v=3", "e.svg#part", "https://x.org/f.svg"})
    EXPECT_TRUE(image_format_allowed(ok)) << ok;
  for (const char* bad : {"a.gif", "b.webp", "c", "svg", "d.svg.txt", "e.png/", "f?x.png", ""})
    EXPECT_FALSE(image_format_allowed(bad)) << bad;
  EXPECT_EQ(image_extension("img/ring.GIF?v=1"), ".gif");
  EXPECT_EQ(image_extension("img.v2/figure"), "");
  for (const char* ok : {"img/a.png", "HTTPS://x.org/a.png", "http://x/a.svg", "//cdn.x/a.svg", "../a.svg"})
    EXPECT_TRUE(image_scheme_allowed(ok)) << ok;
  for (const char* bad : {"data:image/png;base64,AAAA", "file:///a.png", "javascript:alert(1)//.png", "blob:x/a.png",
                          "mailto:a@b.png", "java&#x09;script:x.png"})
    EXPECT_FALSE(image_scheme_allowed(bad)) << bad;
  EXPECT_EQ(image_relative_path("img/ring%20a.svg?v=2#x"), "img/ring a.svg");
  EXPECT_EQ(image_relative_path("img/a\\_b.svg"), "img/a_b.svg");
  EXPECT_EQ(image_relative_path("../shared/a.png"), "../shared/a.png");
  EXPECT_EQ(image_relative_path("https://x.org/a.png"), "");
  EXPECT_EQ(image_relative_path("/img/a.png"), "") << "the site's root is not the pack's folder";
  EXPECT_EQ(image_relative_path("//cdn.x/a.png"), "");
  EXPECT_EQ(image_relative_path("img/ring-{N}.svg"), "") << "a placeholder is filled per instance";
}

// The article before a number follows how the number is read aloud (issue 41: "a 8 GB").
TEST(ArticleMismatch, FindsTheArticleThatDisagreesWithTheNumber) {
  EXPECT_EQ(article_mismatch("a 8 GB buffer"), "a 8");
  EXPECT_EQ(article_mismatch("A **8B-parameter** model"), "A **8");
  EXPECT_EQ(article_mismatch("with a 80 GB GPU"), "a 80");
  EXPECT_EQ(article_mismatch("a 11-way split"), "a 11");
  EXPECT_EQ(article_mismatch("a 18,000-token batch"), "a 18,000");
  EXPECT_EQ(article_mismatch("a 8.5 GB shard"), "a 8.5");
  EXPECT_EQ(article_mismatch("an 16 GB card"), "an 16");
  EXPECT_EQ(article_mismatch("an 1,100-step run"), "an 1,100");
  EXPECT_EQ(article_mismatch("an 100 GB/s link"), "an 100");
}

TEST(ArticleMismatch, AcceptsWhatReadsRight) {
  for (const char* ok : {"an 8 GB buffer", "An **8B-parameter** model", "an 80 GB GPU", "an 11-way split",
                         "an 18,000-token batch", "a 16 GB card", "a 1,100-step run", "a 110-layer model",
                         "a 100 GB/s link", "a 405B model", "an 8192-wide layer", "data 8 GB", "Llama 3 has 126 layers",
                         "8 GPUs and an H100", "a 1.8 TB/s link", "a GPU", "pick a\nnumber 8"})
    EXPECT_EQ(article_mismatch(ok), "") << ok;
}
