// engine/search: the course's search index (built at `make dist` by `dtx outline
// --search-index`) against the shipped packs: every exercise is found by each word of its
// title, a title match ranks above a match in the text, the snippet shows the match, and the
// index reads back as written. Its size is printed (the page fetches it once, then offline).
#include <gtest/gtest.h>

#include <set>

#include "content_util.h"
#include "search.h"

using namespace dtx;
using dtx::testing::shipped_pack_sources;

namespace {

const SearchIndex& shipped_index() {
  static SearchIndex index = build_search_index(load_library(shipped_pack_sources()));
  return index;
}

}  // namespace

TEST(Search, EveryExerciseIsFoundByEachWordOfItsTitle) {
  const SearchIndex& index = shipped_index();
  size_t exercises = 0, words = 0;
  for (size_t i = 0; i < index.docs.size(); ++i) {
    const SearchDoc& d = index.docs[i];
    if (d.kind != SearchDoc::Exercise) continue;
    ++exercises;
    for (const auto& w : search_words(d.title)) {
      if (w.size() < 3) continue;
      ++words;
      auto hits = search(index, w, index.docs.size());
      EXPECT_TRUE(std::any_of(hits.begin(), hits.end(), [&](const SearchHit& h) { return h.doc == i; }))
          << d.id << " is not found by \"" << w << "\", a word of its title";
    }
  }
  EXPECT_GT(exercises, 300u);
  const std::string json = write_search_index(index);
  std::printf("search index: %zu documents (%zu exercises), %zu bytes; %zu title words checked\n", index.docs.size(),
              exercises, json.size(), words);
}

TEST(Search, TitleMatchesRankFirstAndTheSnippetShowsTheMatch) {
  const SearchIndex& index = shipped_index();
  auto hits = search(index, "dualpipe");
  ASSERT_FALSE(hits.empty());
  EXPECT_NE(index.docs[hits[0].doc].title.find("DualPipe"), std::string::npos)
      << "first: " << index.docs[hits[0].doc].title;
  // every word must match: two words narrow the results
  auto one = search(index, "bubble", 1000), two = search(index, "bubble interleaved", 1000);
  EXPECT_LT(two.size(), one.size());
  EXPECT_FALSE(two.empty());
  for (const auto& h : search(index, "reduce-scatter phase", 20)) {
    if (h.snippet.empty()) continue;
    const std::string m = h.snippet.substr(h.match_at, h.match_len);
    std::string lower;
    for (char c : m) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    EXPECT_EQ(lower.rfind("reduce", 0), 0u) << "the snippet's match: \"" << m << "\" in " << h.snippet;
  }
  // a prefix finds, case does not matter, chapter notes are searched too
  EXPECT_FALSE(search(index, "ALLRED").empty());
  auto notes = search(index, "ring algorithm", 50);
  EXPECT_TRUE(std::any_of(notes.begin(), notes.end(), [&](const SearchHit& h) { return index.docs[h.doc].kind == SearchDoc::Notes; }));
  EXPECT_TRUE(search(index, "").empty());
  EXPECT_TRUE(search(index, "zzqxwv").empty());
}

TEST(Search, TheIndexReadsBackAsWrittenAndABadOneIsRefused) {
  SearchIndex in;
  in.docs.push_back({SearchDoc::Notes, "ring", 0, "Chapter 0: Ring AllReduce", "", "What an AllReduce does"});
  in.docs.push_back({SearchDoc::Exercise, "ring.volume", 0, "Bytes each GPU sends", "numeric", "8 GPUs each hold 1 GB"});
  SearchIndex out;
  std::string err;
  ASSERT_TRUE(read_search_index(write_search_index(in), &out, &err)) << err;
  ASSERT_EQ(out.docs.size(), 2u);
  EXPECT_EQ(out.docs[0].kind, SearchDoc::Notes);
  EXPECT_EQ(out.docs[1].text, "8 GPUs each hold 1 GB");
  EXPECT_FALSE(read_search_index("{\"format\": \"dtx-progress\"}", &out, &err));
  EXPECT_FALSE(read_search_index("{\"format\": \"dtx-search\", \"docs\": [[1, 2]]}", &out, &err));
  EXPECT_NE(err.find("entry 0"), std::string::npos) << err;
}

TEST(Search, PlainTextDropsMarkdownAndMathsMarks) {
  EXPECT_EQ(plain_text("## The ring\n\n**N** GPUs, $10^{9}$ bytes, `M/N` [see](#/ex/a) ![alt](img/x.svg)"),
            "The ring N GPUs, 10^9 bytes, M/N see alt");
  EXPECT_EQ(plain_text("| a | b |\n|---|:---:|\n| 1 | 2 |"), "a b 1 2");
}
