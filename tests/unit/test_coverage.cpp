// The shipped library as a whole: enough exercises of every kind in every chapter, with the
// hints, explanations and wrong implementations the page relies on; index.json lists every
// pack; every character of every pack has a glyph in the font atlas; and each default answer
// agrees with a value worked out by hand (tests/independent/). Runs natively and under node
// (wasm, files read through NODERAWFS). Never throws: a broken file fails a test.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "code/code.h"
#include "numeric/numeric.h"
#include "helpers.h"
#include "model.h"
#include "text.h"
#include "units.h"

using namespace dtx;

namespace {

namespace fs = std::filesystem;

std::string source_dir() { return std::string(DTX_SOURCE_DIR); }

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool is_pack_file_name(const std::string& name) {
  // NN-*.json: two digits, a dash, anything, ".json"
  return name.size() > 8 && std::isdigit(static_cast<unsigned char>(name[0])) &&
         std::isdigit(static_cast<unsigned char>(name[1])) && name[2] == '-' &&
         name.ends_with(".json");
}

// The NN-*.json file names in exercises/, sorted. Unlike shipped_pack_sources() this ignores
// DTX_PACK_FILTER: these tests are about the whole library.
std::vector<std::string> pack_file_names() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(source_dir() + "/exercises", ec))
    if (e.is_regular_file() && is_pack_file_name(e.path().filename().string()))
      names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<PackSource> all_pack_sources() {
  std::vector<PackSource> out;
  for (const auto& name : pack_file_names()) {
    std::string path = source_dir() + "/exercises/" + name;
    out.push_back({path, read_file(path)});
  }
  return out;
}

const Library& full_library() {
  static Library lib = load_library(all_pack_sources());
  return lib;
}

}  // namespace

// ------------------------------------------------------------------------- counts per kind

TEST(Coverage, CountsPerChapterAndKind) {
  const Library& lib = full_library();

  // Every pack file must have loaded; a pack with errors is left out of the library, and
  // everything it held would silently drop out of the counts below.
  std::set<std::string> loaded;
  for (const auto& p : lib.packs) loaded.insert(fs::path(p.file).filename().string());
  std::string diags;
  for (const auto& d : lib.diagnostics) diags += format_diagnostic(d) + "\n";
  for (const auto& name : pack_file_names())
    EXPECT_TRUE(loaded.count(name)) << name << " did not load, so its exercises are missing:\n" << diags;

  std::map<int, int> per_chapter;
  std::map<std::string, int> per_kind;
  int total = 0;
  for (const auto& pack : lib.packs) {
    EXPECT_FALSE(trim(pack.intro).empty()) << pack.file << " (pack " << pack.id << ") has no intro";
    for (const auto& ex : pack.exercises) {
      ++total;
      per_chapter[pack.chapter]++;
      per_kind[ex.type]++;
      EXPECT_FALSE(trim(ex.explanation).empty()) << ex.id << " (" << pack.file << ") has no explanation";
      if (ex.type == "numeric" || ex.type == "code") {
        EXPECT_GE(ex.hints.size(), 2u) << ex.id << " (" << ex.type << ", " << pack.file << ") has "
                                       << ex.hints.size() << " hint(s); numeric and code need >= 2";
      }
      if (ex.type == "code") {
        const auto* spec = ex.spec_as<CodeSpec>();
        ASSERT_NE(spec, nullptr) << ex.id;
        EXPECT_GE(spec->wrong.size(), 1u) << ex.id << " (" << pack.file << ") lists no wrong implementation";
      }
    }
  }

  for (int ch = 0; ch <= 14; ++ch)
    EXPECT_GE(per_chapter[ch], 6) << "chapter " << ch << " has " << per_chapter[ch] << " exercises, fewer than 6";

  EXPECT_GE(total, 150) << "the library has " << total << " exercises in all";
  const std::pair<const char*, int> minimum[] = {
      {"numeric", 80}, {"code", 15}, {"buggy-line", 12}, {"ordering", 12}, {"choice", 20}};
  for (const auto& [kind, n] : minimum)
    EXPECT_GE(per_kind[kind], n) << "only " << per_kind[kind] << " " << kind << " exercises, at least " << n
                                 << " expected";
}

// ---------------------------------------------------------------------- index.json

TEST(Coverage, IndexListsEveryPack) {
  std::string path = source_dir() + "/exercises/index.json";
  nlohmann::json doc = nlohmann::json::parse(read_file(path), nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << path << " is not valid JSON";
  ASSERT_TRUE(doc.is_object() && doc.contains("packs") && doc["packs"].is_array())
      << path << " has no \"packs\" array";

  std::vector<std::string> listed;
  for (const auto& p : doc["packs"]) {
    ASSERT_TRUE(p.is_string()) << path << ": every entry of \"packs\" must be a file name, got " << p.dump();
    listed.push_back(p.get<std::string>());
  }
  std::set<std::string> listed_set(listed.begin(), listed.end());
  EXPECT_EQ(listed_set.size(), listed.size()) << path << " lists a pack twice";

  std::vector<std::string> on_disk = pack_file_names();
  ASSERT_FALSE(on_disk.empty());
  std::set<std::string> disk_set(on_disk.begin(), on_disk.end());
  for (const auto& f : on_disk)
    EXPECT_TRUE(listed_set.count(f)) << "exercises/" << f << " is not listed in index.json, so the page never loads it";
  for (const auto& f : listed_set)
    EXPECT_TRUE(disk_set.count(f)) << "index.json lists " << f << ", which is not an NN-*.json file in exercises/";
}

// ---------------------------------------------------------------------------- glyphs

namespace {

std::vector<std::pair<uint32_t, uint32_t>> glyph_ranges(const std::string& prefix = "U+") {
  // Lines "U+XXXX" or "U+XXXX-YYYY" at line start, as CMake and scripts/build-fonts.sh read them
  // (prefix "atlas U+": the part of the list in the font atlas from the start).
  std::vector<std::pair<uint32_t, uint32_t>> out;
  std::istringstream in(read_file(source_dir() + "/assets/glyph-ranges.txt"));
  std::string line;
  auto hex_run = [](const std::string& s, size_t pos, size_t* end) {
    size_t i = pos;
    while (i < s.size() && std::isxdigit(static_cast<unsigned char>(s[i]))) ++i;
    *end = i;
    return i > pos ? static_cast<uint32_t>(std::stoul(s.substr(pos, i - pos), nullptr, 16)) : UINT32_MAX;
  };
  while (std::getline(in, line)) {
    if (!line.starts_with(prefix)) continue;
    size_t end = 0;
    uint32_t a = hex_run(line, prefix.size(), &end);
    if (a == UINT32_MAX) continue;
    uint32_t b = a;
    if (end < line.size() && line[end] == '-') {
      size_t end2 = 0;
      uint32_t v = hex_run(line, end + 1, &end2);
      if (v != UINT32_MAX) b = v;
    }
    out.emplace_back(a, b);
  }
  return out;
}

std::string code_point_name(uint32_t cp) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "U+%04X", cp);
  return buf;
}

std::string utf8_encode(uint32_t cp) {
  std::string s;
  append_utf8(s, cp);
  return s;
}

// Decodes one UTF-8 sequence at `i`; returns false (and skips a byte) on malformed input.
bool decode_utf8(const std::string& s, size_t& i, uint32_t* cp) {
  auto b = static_cast<unsigned char>(s[i]);
  int len = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
  if (len == 0 || i + len > s.size()) {
    ++i;
    return false;
  }
  uint32_t v = len == 1 ? b : len == 2 ? (b & 0x1F) : len == 3 ? (b & 0x0F) : (b & 0x07);
  for (int k = 1; k < len; ++k) {
    auto c = static_cast<unsigned char>(s[i + k]);
    if ((c & 0xC0) != 0x80) {
      ++i;
      return false;
    }
    v = (v << 6) | (c & 0x3F);
  }
  i += len;
  *cp = v;
  return true;
}

}  // namespace

TEST(Coverage, GlyphsCovered) {
  auto ranges = glyph_ranges();
  ASSERT_FALSE(ranges.empty()) << "no U+ lines in assets/glyph-ranges.txt";
  auto covered = [&](uint32_t cp) {
    // Line breaks and tabs lay text out; they are never drawn as glyphs.
    if (cp == '\n' || cp == '\r' || cp == '\t') return true;
    return std::any_of(ranges.begin(), ranges.end(), [&](auto r) { return r.first <= cp && cp <= r.second; });
  };

  auto names = pack_file_names();
  ASSERT_FALSE(names.empty());
  for (const auto& name : names) {
    std::string text = read_file(source_dir() + "/exercises/" + name);
    // Each missing character once per file, with the first line it is on and how often.
    struct Miss {
      int first_line = 0, count = 0;
    };
    std::map<uint32_t, Miss> missing;
    int line = 1;
    size_t i = 0;
    while (i < text.size()) {
      size_t at = i;
      uint32_t cp = 0;
      if (!decode_utf8(text, i, &cp)) {
        ADD_FAILURE() << "exercises/" << name << ":" << line << ": invalid UTF-8 at byte " << at;
        continue;
      }
      if (cp == '\n') ++line;
      std::vector<uint32_t> check{cp};
      // A JSON escape \uXXXX (a surrogate pair for astral characters) is drawn as the
      // character it stands for.
      if (cp == '\\' && i < text.size()) {
        if (text[i] == 'u' && i + 5 <= text.size()) {
          uint32_t u = static_cast<uint32_t>(std::strtoul(text.substr(i + 1, 4).c_str(), nullptr, 16));
          i += 5;
          if (u >= 0xD800 && u <= 0xDBFF && i + 6 <= text.size() && text[i] == '\\' && text[i + 1] == 'u') {
            uint32_t lo = static_cast<uint32_t>(std::strtoul(text.substr(i + 2, 4).c_str(), nullptr, 16));
            if (lo >= 0xDC00 && lo <= 0xDFFF) {
              u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
              i += 6;
            }
          }
          check.push_back(u);
        } else {
          ++i;  // \n, \", \\ ...: an escape, not a character to draw
        }
      }
      for (uint32_t c : check)
        if (!covered(c)) {
          Miss& m = missing[c];
          if (m.count++ == 0) m.first_line = line;
        }
    }
    for (const auto& [cp, m] : missing)
      ADD_FAILURE() << "exercises/" << name << ":" << m.first_line << ": character \"" << utf8_encode(cp) << "\" ("
                    << code_point_name(cp) << ", " << m.count
                    << " time(s) in the file) is outside assets/glyph-ranges.txt and would render as \"?\"";
  }
}

// The shipped course draws its first frame with every glyph it needs: each non-ASCII character
// of the packs, of the page's own strings (web/) and of the maths renderer's symbols
// (engine/maths.cpp) is in the atlas at start, which is itself a part of the full list.
TEST(Coverage, AtlasAtStartHoldsWhatTheCourseDraws) {
  auto full = glyph_ranges(), atlas = glyph_ranges("atlas U+");
  ASSERT_FALSE(atlas.empty()) << "no \"atlas U+\" lines in assets/glyph-ranges.txt";
  auto in = [](const auto& ranges, uint32_t cp) {
    return std::any_of(ranges.begin(), ranges.end(), [&](auto r) { return r.first <= cp && cp <= r.second; });
  };
  for (auto [a, b] : atlas)
    for (uint32_t cp = a; cp <= b; ++cp) ASSERT_TRUE(in(full, cp)) << "atlas line U+" << std::hex << a << " reaches outside the list";
  std::vector<std::string> files;
  for (const auto& name : pack_file_names()) files.push_back("exercises/" + name);
  files.push_back("engine/maths.cpp");
  for (const auto& e : std::filesystem::recursive_directory_iterator(source_dir() + "/web"))
    if (e.path().extension() == ".cpp") files.push_back(std::filesystem::relative(e.path(), source_dir()).string());
  for (const auto& f : files) {
    std::string text = read_file(source_dir() + "/" + f);
    std::set<uint32_t> reported;
    for (size_t i = 0; i < text.size();) {
      uint32_t cp = 0;
      if (!decode_utf8(text, i, &cp)) continue;
      if (cp >= 0x80 && in(full, cp) && !in(atlas, cp) && reported.insert(cp).second)
        ADD_FAILURE() << f << ": \"" << utf8_encode(cp) << "\" (" << code_point_name(cp)
                      << ") is not in the atlas at start (an \"atlas U+\" line of assets/glyph-ranges.txt)";
    }
  }
}

// ------------------------------------------------------------ hand-computed answers

TEST(Independent, DefaultAnswersMatchHandComputedValues) {
  const Library& lib = full_library();
  std::string dir = source_dir() + "/tests/independent";
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".json") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  ASSERT_FALSE(files.empty()) << "no JSON files in " << dir;

  int entries = 0;
  std::set<std::string> exercises;
  for (const auto& file : files) {
    std::string fname = fs::path(file).filename().string();
    nlohmann::json doc = nlohmann::json::parse(read_file(file), nullptr, false);
    if (doc.is_discarded() || !doc.is_array()) {
      ADD_FAILURE() << fname << ": not a JSON array of entries";
      continue;
    }
    for (size_t k = 0; k < doc.size(); ++k) {
      const auto& e = doc[k];
      std::string where = fname + " entry " + std::to_string(k);
      if (!e.is_object() || !e.contains("exercise") || !e["exercise"].is_string() || !e.contains("part") ||
          !e["part"].is_string() || !e.contains("value") || !e["value"].is_number() || !e.contains("unit") ||
          !e["unit"].is_string()) {
        ADD_FAILURE() << where << ": needs string \"exercise\", \"part\", \"unit\" and a number \"value\": "
                      << e.dump();
        continue;
      }
      std::string id = e["exercise"].get<std::string>();
      std::string part_id = e["part"].get<std::string>();
      std::string unit = e["unit"].get<std::string>();
      double value = e["value"].get<double>();
      std::string source = e.contains("source") && e["source"].is_string() ? e["source"].get<std::string>() : "";
      std::string what = where + ": " + id + " part " + part_id;
      ++entries;
      exercises.insert(id);

      const Exercise* ex = lib.find(id);
      if (!ex) {
        ADD_FAILURE() << what << ": no such exercise in the shipped packs (source: " << source << ")";
        continue;
      }
      const auto* spec = ex->spec_as<NumericSpec>();
      if (!spec) {
        ADD_FAILURE() << what << ": " << id << " is a " << ex->type << " exercise, not numeric";
        continue;
      }
      auto it = std::find_if(spec->parts.begin(), spec->parts.end(), [&](const NumericPart& p) { return p.id == part_id; });
      if (it == spec->parts.end()) {
        std::string ids;
        for (const auto& p : spec->parts) ids += (ids.empty() ? "" : ", ") + p.id;
        ADD_FAILURE() << what << ": no part \"" << part_id << "\" (parts: " << ids << ")";
        continue;
      }
      const NumericPart& part = *it;
      size_t index = static_cast<size_t>(it - spec->parts.begin());

      std::string err;
      auto inst = make_instance(*ex, 0, &err);
      if (!inst || index >= dtx::testing::part_values(*inst).size()) {
        ADD_FAILURE() << what << ": the default instance does not build: " << err;
        continue;
      }
      double got = dtx::testing::part_values(*inst)[index];
      double abs_tol = part.abs;  // in the entry's unit once converted

      // The entry's unit: the part's own, or one of the same dimension (converted).
      if (unit != part.unit_text) {
        std::string uerr;
        auto u = parse_unit(unit, &uerr);
        if (!u || u->dim != part.unit.dim) {
          ADD_FAILURE() << what << ": the entry is in \"" << unit << "\" but the part asks in \"" << part.unit_text
                        << "\"" << (u ? ", a different quantity" : ": " + uerr) << " (source: " << source << ")";
          continue;
        }
        got = got * part.unit.factor / u->factor;
        abs_tol = abs_tol * part.unit.factor / u->factor;
      }

      double rel = std::max(part.rel, 0.005);
      EXPECT_TRUE(within(got, value, rel, abs_tol))
          << what << ": expected " << format_number(value, 8) << " " << unit << " (hand), got "
          << format_number(got, 8) << " " << unit << " (engine, seed 0), tolerance "
          << describe_tolerance(rel, abs_tol, unit) << "; source: " << source;
    }
  }
  EXPECT_GE(entries, 30) << "only " << entries << " hand-computed values in " << dir;
  EXPECT_GE(exercises.size(), 30u) << "hand-computed values cover only " << exercises.size() << " exercises";
}
