#include "json_pos.h"

#include <algorithm>
#include <iterator>

#include "text.h"

namespace dtx {

std::string json_pointer_escape(std::string_view name) {
  std::string out;
  for (char c : name) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

namespace {

class Walker {
 public:
  Walker(std::string_view s, JsonPosIndex& idx) : s_(s), idx_(idx) {}
  void skip(size_t n) { p_ += n; }

  void value(const std::string& ptr, size_t key_off) {
    ws();
    idx_.entries[ptr] = {key_off, p_};
    if (p_ >= s_.size()) return;
    char c = s_[p_];
    if (c == '{') {
      ++p_;
      std::vector<std::string> seen;
      ws();
      if (peek('}')) { ++p_; return; }
      while (p_ < s_.size()) {
        ws();
        size_t k = p_;
        std::string key = string_literal();
        std::string child = ptr + "/" + json_pointer_escape(key);
        // nlohmann keeps the last of duplicated keys, so the index does too: errors in
        // that value then point at the text that was actually used.
        if (std::find(seen.begin(), seen.end(), key) != seen.end()) {
          idx_.duplicate_keys.push_back(child);
          for (auto it = idx_.entries.begin(); it != idx_.entries.end();)
            it = it->first.rfind(child + "/", 0) == 0 ? idx_.entries.erase(it) : std::next(it);
        } else {
          seen.push_back(key);
        }
        ws();
        if (peek(':')) ++p_;
        value(child, k);
        ws();
        if (peek(',')) { ++p_; continue; }
        if (peek('}')) { ++p_; break; }
        return;  // malformed; the parser already reported it
      }
    } else if (c == '[') {
      ++p_;
      ws();
      if (peek(']')) { ++p_; return; }
      for (int i = 0; p_ < s_.size(); ++i) {
        value(ptr + "/" + std::to_string(i), std::string::npos);
        ws();
        if (peek(',')) { ++p_; continue; }
        if (peek(']')) { ++p_; break; }
        return;
      }
    } else if (c == '"') {
      string_literal();
    } else {
      while (p_ < s_.size() && !strchr_any(s_[p_], ",]} \t\r\n")) ++p_;
    }
  }

 private:
  static bool strchr_any(char c, const char* set) {
    for (; *set; ++set)
      if (*set == c) return true;
    return false;
  }
  bool peek(char c) const { return p_ < s_.size() && s_[p_] == c; }
  void ws() {
    while (p_ < s_.size() && strchr_any(s_[p_], " \t\r\n")) ++p_;
  }
  // Returns the decoded key (escapes other than \uXXXX kept simple: keys are ASCII names).
  std::string string_literal() {
    std::string out;
    if (!peek('"')) return out;
    ++p_;
    while (p_ < s_.size() && s_[p_] != '"') {
      if (s_[p_] == '\\' && p_ + 1 < s_.size()) {
        char e = s_[p_ + 1];
        switch (e) {
          case 'n': out += '\n'; break;
          case 't': out += '\t'; break;
          case 'u': out += '?'; p_ += 4; break;
          default: out += e;
        }
        p_ += 2;
      } else {
        out += s_[p_++];
      }
    }
    ++p_;
    return out;
  }

  std::string_view s_;
  JsonPosIndex& idx_;
  size_t p_ = 0;
};

}  // namespace

JsonPosIndex JsonPosIndex::build(std::string_view text) {
  JsonPosIndex idx;
  idx.line_starts.push_back(0);
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n') idx.line_starts.push_back(i + 1);
  Walker w(text, idx);
  // nlohmann accepts a UTF-8 byte order mark (Windows editors add one); step over it.
  if (text.substr(0, 3) == "\xEF\xBB\xBF") w.skip(3);
  w.value("", std::string::npos);
  return idx;
}

TextPos JsonPosIndex::at_offset(std::string_view text, size_t offset) const {
  auto it = std::upper_bound(line_starts.begin(), line_starts.end(), offset);
  size_t line = static_cast<size_t>(it - line_starts.begin());  // 1-based
  size_t start = line_starts[line - 1];
  TextPos p;
  p.line = static_cast<int>(line);
  p.column = utf8_column(text.substr(start), offset - start);
  return p;
}

size_t JsonPosIndex::offset_of(const std::string& pointer, bool key) const {
  std::string p = pointer;
  for (;;) {
    auto it = entries.find(p);
    if (it != entries.end()) {
      if (key && it->second.key_offset != std::string::npos) return it->second.key_offset;
      return it->second.value_offset;
    }
    if (p.empty()) return 0;
    size_t slash = p.rfind('/');
    p = slash == std::string::npos ? "" : p.substr(0, slash);
  }
}

}  // namespace dtx
