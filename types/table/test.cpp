// The table type: loading (and a row with the wrong number of cells), each cell graded on its
// own with the engine's diagnosis, units, unreadable cells, the answer's words both ways, and
// the sample answers.
#include <gtest/gtest.h>

#include "helpers.h"
#include "json_fields.h"
#include "table/table.h"

using namespace dtx;
using namespace dtx::testing;

namespace {

const char* kZero = R"J({"id": "z", "type": "table", "title": "Z", "prompt": "p",
  "params": {"P": {"default": 7, "choices": [7, 13]}, "N": {"default": 8, "choices": [4, 8]}},
  "columns": [{"label": "Weights", "unit": "GB"}, {"label": "Optimizer", "unit": "GB"}],
  "rows": [{"label": "ZeRO-1", "cells": ["2*P", "12*P/N"]}, {"label": "ZeRO-3", "cells": ["2*P/N", "12*P/N"]}]})J";

Feedback grade_cells(const Instance& inst, std::vector<std::string> cells) {
  return grade(inst, make_answer(TableAnswer(std::move(cells))));
}

}  // namespace

TEST(Table, EveryCellRightIsCorrect) {
  Pack pk = must_load(pack_with(kZero));
  Instance i = must_instance(pk.exercises[0]);
  Feedback f = grade_cells(i, {"14 GB", "10.5 GB", "1.75 GB", "10.5"});
  EXPECT_EQ(f.verdict, Verdict::Correct) << f.message;
  EXPECT_DOUBLE_EQ(f.score, 1);
  ASSERT_EQ(f.parts.size(), 4u);
  EXPECT_EQ(f.parts[2].id, "r2c1");
  EXPECT_EQ(f.parts[2].label, "ZeRO-3, Weights");
}

TEST(Table, AWrongCellIsDiagnosedWithTheInstancesNumbers) {
  Pack pk = must_load(pack_with(kZero));
  Instance i = must_instance(pk.exercises[0]);
  // ZeRO-3's weights not divided by N = 8
  Feedback f = grade_cells(i, {"14 GB", "10.5 GB", "14 GB", "10.5 GB"});
  EXPECT_EQ(f.verdict, Verdict::Partial);
  EXPECT_DOUBLE_EQ(f.score, 0.75);
  EXPECT_EQ(f.parts[2].verdict, Verdict::Incorrect);
  EXPECT_NE(f.parts[2].message.find("N"), std::string::npos) << f.parts[2].message;
  ASSERT_EQ(f.details.size(), 1u);
  EXPECT_EQ(f.details[0].rfind("ZeRO-3, Weights: ", 0), 0u) << f.details[0];
  EXPECT_EQ(f.message, "3 of 4 cells correct.");
  EXPECT_EQ(grade_cells(i, {"1", "1", "1", "1"}).verdict, Verdict::Incorrect);
}

TEST(Table, AnyUnitOfTheColumnsKindIsRead) {
  Pack pk = must_load(pack_with(kZero));
  Instance i = must_instance(pk.exercises[0]);
  EXPECT_EQ(grade_cells(i, {"14000 MB", "10.5e9 B", "1750 MB", "0.0105 TB"}).verdict, Verdict::Correct);
}

TEST(Table, AnUnreadableCellIsNotAnAttemptAndRevealsNothing) {
  Pack pk = must_load(pack_with(kZero));
  Instance i = must_instance(pk.exercises[0]);
  Feedback f = grade_cells(i, {"14 GB", "lots", "3 ms", "10.5 GB"});
  EXPECT_EQ(f.verdict, Verdict::FormatError);
  EXPECT_FALSE(f.counts_as_attempt());
  EXPECT_EQ(f.message.rfind("ZeRO-1, Optimizer: ", 0), 0u) << f.message;
  ASSERT_EQ(f.parts.size(), 4u);
  EXPECT_FALSE(f.parts[0].graded);
  EXPECT_NE(f.parts[2].message.find("time"), std::string::npos) << f.parts[2].message;  // ms in a GB column
  for (const auto& p : f.parts) EXPECT_EQ(p.expected, "");
  EXPECT_EQ(grade_cells(i, {"14 GB"}).verdict, Verdict::FormatError);  // a cell count that is not the table's
}

TEST(Table, WordsByPositionOrByCellAndBack) {
  Pack pk = must_load(pack_with(kZero));
  const Exercise& ex = pk.exercises[0];
  Instance i = must_instance(ex);
  std::string err;
  auto a = ex.spec->parse_answer(ex, i, {"r2c1=1.75 GB", "R1C1=14 GB", "r1c2=10.5 GB", "r2c2=10.5 GB"}, &err);
  ASSERT_TRUE(a) << err;
  EXPECT_EQ(grade(i, *a).verdict, Verdict::Correct);
  std::vector<std::string> words = ex.spec->answer_words(ex, i, *a);
  EXPECT_EQ(words[0], "r1c1=14 GB");
  auto back = ex.spec->parse_answer(ex, i, words, &err);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->as<TableAnswer>()->cells, a->as<TableAnswer>()->cells);
  EXPECT_FALSE(ex.spec->parse_answer(ex, i, {"r3c1=1"}, &err));
  EXPECT_NE(err.find("r1c1 to r2c2"), std::string::npos) << err;
  auto positional = ex.spec->parse_answer(ex, i, {"14", "10.5", "1.75", "10.5"}, &err);
  ASSERT_TRUE(positional);
  EXPECT_EQ(grade(i, *positional).verdict, Verdict::Correct);
}

TEST(Table, ARowWithTheWrongNumberOfCellsIsNamed) {
  LoadResult r = load_pack(pack_with(R"J({"id": "z", "type": "table", "title": "Z", "prompt": "p",
    "columns": [{"label": "A", "unit": "GB"}, {"label": "B", "unit": "GB"}],
    "rows": [{"label": "one", "cells": ["1", "2"]}, {"label": "two", "cells": ["1"]}]})J"), "t.json");
  ASSERT_FALSE(r.ok());
  bool found = false;
  for (const auto& d : r.diagnostics)
    found |= d.code == DiagCode::WrongCount && d.pointer == "/exercises/0/rows/1/cells" &&
             d.message.find("expected 2 cells") != std::string::npos;
  EXPECT_TRUE(found) << (r.diagnostics.empty() ? "" : format_diagnostic(r.diagnostics[0]));
}

TEST(Table, AnUnknownColumnUnitIsAnError) {
  LoadResult r = load_pack(pack_with(R"J({"id": "z", "type": "table", "title": "Z", "prompt": "p",
    "columns": [{"label": "A", "unit": "gigaparsecs"}], "rows": [{"label": "one", "cells": ["1"]}]})J"), "t.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.diagnostics[0].code, DiagCode::UnknownUnit);
  EXPECT_EQ(r.diagnostics[0].pointer, "/exercises/0/columns/0/unit");
}

TEST(Table, SampleAnswersHoldAtEverySeed) {
  Pack pk = must_load(pack_with(kZero));
  const Exercise& ex = pk.exercises[0];
  for (uint64_t seed : {0ull, 1ull, 2ull, 3ull, 4ull}) {
    Instance i = must_instance(ex, seed);
    for (const SampleAnswer& s : ex.spec->sample_answers(ex, i)) {
      std::string why;
      EXPECT_TRUE(sample_answer_holds(s, grade(i, s.answer), &why)) << s.kind << " seed " << seed << ": " << why;
    }
  }
}
