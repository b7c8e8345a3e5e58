#include "code_runner.h"

#include <nlohmann/json.hpp>

namespace dtx {

using Json = nlohmann::ordered_json;

std::string code_request_to_json(const CodeRunRequest& r) {
  Json j;
  j["language"] = r.language;
  j["function"] = r.function;
  j["source"] = r.source;
  j["reference"] = r.reference;
  j["time_limit_ms"] = r.time_limit_ms;
  Json cases = Json::array();
  for (const auto& c : r.cases) {
    Json args = Json::array();
    for (const auto& a : c) args.push_back(Json::parse(a, nullptr, false));
    cases.push_back(args);
  }
  j["cases"] = cases;
  return j.dump();
}

std::string code_result_to_json(const CodeRunResult& r) {
  static const char* const kKinds[] = {"", "syntax", "missing", "timeout", "memory", "runtime"};
  Json j = Json::object();
  if (!r.error.empty()) j["error"] = r.error;
  if (r.error_line > 0) j["line"] = r.error_line;
  if (r.kind != CodeRunResult::Kind::None) j["kind"] = kKinds[static_cast<int>(r.kind)];
  auto write = [&](const char* key, const std::vector<CodeCaseOutcome>& list) {
    Json a = Json::array();
    for (const auto& c : list) {
      Json o = {{"ok", c.ok}};
      if (!c.value_json.empty()) o["value"] = Json::parse(c.value_json, nullptr, false);
      if (!c.error.empty()) o["error"] = c.error;
      a.push_back(o);
    }
    j[key] = a;
  };
  write("student", r.student);
  if (!r.reference.empty()) write("reference", r.reference);
  return j.dump();
}

namespace {

int hex_digit(char c) {
  return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

// The UTF-16 unit of a \uXXXX escape starting at text[i] (the backslash), else -1.
int escaped_unit(const std::string& text, size_t i) {
  if (i + 6 > text.size() || text[i] != '\\' || text[i + 1] != 'u') return -1;
  int v = 0;
  for (size_t k = i + 2; k < i + 6; ++k) {
    int d = hex_digit(text[k]);
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

// JSON from JavaScript may escape a lone surrogate ("\ud800"), which is no character and
// which the parser refuses, losing the whole result: each becomes \ufffd. Every backslash in
// valid JSON starts a two-character escape, so stepping over escapes keeps the scan in step.
std::string without_lone_surrogates(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    if (text[i] != '\\' || i + 1 >= text.size()) {
      out += text[i++];
      continue;
    }
    int u = escaped_unit(text, i);
    if (u >= 0xD800 && u <= 0xDBFF) {
      int next = escaped_unit(text, i + 6);
      if (next >= 0xDC00 && next <= 0xDFFF) {
        out.append(text, i, 12);
        i += 12;
        continue;
      }
    }
    if (u >= 0xD800 && u <= 0xDFFF) {
      out += "\\ufffd";
      i += 6;
      continue;
    }
    out.append(text, i, 2);
    i += 2;
  }
  return out;
}

}  // namespace

CodeRunResult code_result_from_json(const std::string& text) {
  CodeRunResult r;
  Json j = Json::parse(text, nullptr, false);
  if (j.is_discarded() && text.find("\\u") != std::string::npos) j = Json::parse(without_lone_surrogates(text), nullptr, false);
  if (!j.is_object()) {
    r.kind = CodeRunResult::Kind::Runtime;
    r.error = "the code runner returned something unreadable";
    return r;
  }
  if (auto e = j.find("error"); e != j.end() && e->is_string()) r.error = e->get<std::string>();
  // Any number may arrive; only a plausible line number is kept (a cast of 1e300 to int is
  // undefined behaviour).
  if (auto l = j.find("line"); l != j.end() && l->is_number()) {
    double line = l->get<double>();
    r.error_line = line >= 1 && line <= 1e9 ? static_cast<int>(line) : 0;
  }
  if (auto k = j.find("kind"); k != j.end() && k->is_string()) {
    std::string s = k->get<std::string>();
    r.kind = s == "syntax" ? CodeRunResult::Kind::Syntax
             : s == "missing" ? CodeRunResult::Kind::Missing
             : s == "timeout" ? CodeRunResult::Kind::Timeout
             : s == "memory"  ? CodeRunResult::Kind::Memory
             : s == "runtime" ? CodeRunResult::Kind::Runtime
                              : CodeRunResult::Kind::None;
  }
  auto read = [&](const char* key, std::vector<CodeCaseOutcome>& out) {
    auto it = j.find(key);
    if (it == j.end() || !it->is_array()) return;
    for (const auto& o : *it) {
      CodeCaseOutcome c;
      if (o.is_object()) {
        auto okf = o.find("ok");
        c.ok = okf != o.end() && okf->is_boolean() && okf->get<bool>();
        if (auto v = o.find("value"); v != o.end()) c.value_json = v->dump();
        if (auto e = o.find("error"); e != o.end() && e->is_string()) c.error = e->get<std::string>();
      }
      out.push_back(c);
    }
  };
  read("student", r.student);
  read("reference", r.reference);
  return r;
}

}  // namespace dtx
