// The entry points the fuzz targets drive (tests/fuzz/fuzz_*.cpp, built by `make fuzz` with
// clang's libFuzzer, AddressSanitizer and UBSan) and the unit test replays
// (tests/unit/test_fuzz_regressions.cpp, every input under tests/fuzz/regressions/<target>/).
// One definition for both, so a crash found by fuzzing is replayed through the same path.
//
// Each takes arbitrary bytes and returns "" when every property held, else what broke; the
// fuzz targets abort on a non-empty answer, the unit test fails with it. Crashes, leaks and
// undefined behaviour are the sanitizers' to find.
#pragma once

#include <string>
#include <string_view>

namespace dtx::fuzz {

// load_pack, then everything the CLI and the page do with what loaded: lint (with style
// warnings), the preview, an instance at two seeds with its prompt rendered, answer lines,
// and a grade of a made-up answer. Properties: every load diagnostic has a line and column,
// and every message is valid UTF-8 (`dtx lint --json` and the page's state need it).
std::string pack(std::string_view bytes);

// Expr::parse and parse_prefix, evaluation in a small scope, names and their columns, and a
// prompt render. Properties: errors point inside the text (or one past it), names are found
// where they are used, a prefix never claims more than the text.
std::string expr(std::string_view bytes);

// parse_quantity and parse_unit on a student's answer. Properties: a value is finite, an
// error message stays short (it quotes at most a 200-character answer).
std::string answer(std::string_view bytes);

// read_progress, write_progress, read again. Properties: what dtx wrote reads back without
// problems, and writing it again gives the same text.
std::string progress(std::string_view bytes);

// code_result_from_json on one line as the sandbox host (or the page's worker) answers, then
// what the engine does with it: writing it back and reading it again, and grading it on a
// code exercise with expected values and on one whose reference decides, as a student and as
// the author. Properties: every text is valid UTF-8 and every value JSON, a line number is
// not negative, writing and reading back gives the same result.
std::string host_result(std::string_view bytes);

}  // namespace dtx::fuzz
