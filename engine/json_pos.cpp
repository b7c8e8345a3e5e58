#include "json_pos.h"

#include <algorithm>

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

bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

size_t skip_ws(std::string_view s, size_t p) {
  while (p < s.size() && is_ws(s[p])) ++p;
  return p;
}

// Offset just past the string literal whose opening quote is at `quote`.
size_t skip_string(std::string_view s, size_t quote) {
  size_t p = quote + 1;
  while (p < s.size() && s[p] != '"') p += s[p] == '\\' ? 2 : 1;
  return std::min(p + 1, s.size());
}

// Offset just past a number, true, false or null.
size_t skip_scalar(std::string_view s, size_t p) {
  while (p < s.size() && !is_ws(s[p]) && s[p] != ',' && s[p] != ']' && s[p] != '}') ++p;
  return p;
}

int hex4(std::string_view s, size_t p) {
  if (p + 4 > s.size()) return -1;
  int v = 0;
  for (size_t i = p; i < p + 4; ++i) {
    char c = s[i];
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

// The raw bytes between the quotes when there is no escape (the common case: no copy).
std::optional<std::string_view> plain_string_at(std::string_view s, size_t quote) {
  size_t end = skip_string(s, quote);
  if (end < quote + 2) return std::string_view();
  std::string_view inner = s.substr(quote + 1, end - quote - 2);
  if (inner.find('\\') != std::string_view::npos) return std::nullopt;
  return inner;
}

std::string grouped(size_t n) {  // 1000 -> "1,000"
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

bool key_equals(std::string_view text, size_t quote, std::string_view name) {
  if (auto plain = plain_string_at(text, quote)) return *plain == name;
  return json_string_at(text, quote) == name;
}

}  // namespace

std::string json_string_at(std::string_view s, size_t quote) {
  std::string out;
  if (quote >= s.size() || s[quote] != '"') return out;
  size_t p = quote + 1;
  while (p < s.size() && s[p] != '"') {
    if (s[p] != '\\' || p + 1 >= s.size()) {
      out += s[p++];
      continue;
    }
    char e = s[p + 1];
    p += 2;
    switch (e) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'u': {
        int hi = hex4(s, p);
        if (hi < 0) break;
        p += 4;
        uint32_t cp = static_cast<uint32_t>(hi);
        if (cp >= 0xD800 && cp <= 0xDBFF && p + 1 < s.size() && s[p] == '\\' && s[p + 1] == 'u') {
          int lo = hex4(s, p + 2);
          if (lo >= 0xDC00 && lo <= 0xDFFF) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (static_cast<uint32_t>(lo) - 0xDC00);
            p += 6;
          }
        }
        append_utf8(out, cp);
        break;
      }
      default: out += e;  // \" \\ \/
    }
  }
  return out;
}

std::optional<JsonLimitError> check_json_limits(std::string_view text, const JsonLimits& limits) {
  struct Open {
    bool object;
    size_t count;  // members so far, or commas so far in an array
  };
  std::vector<Open> open;
  size_t p = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  while (p < text.size()) {
    char c = text[p];
    if (c == '{' || c == '[') {
      if (static_cast<int>(open.size()) >= limits.max_depth)
        return JsonLimitError{p, "nested deeper than " + std::to_string(limits.max_depth) +
                                     " levels of arrays and objects"};
      open.push_back({c == '{', 0});
      ++p;
    } else if (c == '}' || c == ']') {
      if (!open.empty()) open.pop_back();
      ++p;
    } else if (c == '"') {
      size_t end = skip_string(text, p);
      bool is_key = !open.empty() && open.back().object && skip_ws(text, end) < text.size() &&
                    text[skip_ws(text, end)] == ':';
      if (is_key) {
        if (++open.back().count > limits.max_members)
          return JsonLimitError{p, "this object has more than " + std::to_string(limits.max_members) +
                                       " members"};
        // Raw bytes bound the characters from above: decode only the long ones.
        if (end - p - 2 > limits.max_key_chars) {
          std::string key = json_string_at(text, p);
          size_t chars = 0;
          for (unsigned char b : key) chars += (b & 0xC0) != 0x80;
          if (chars > limits.max_key_chars)
            return JsonLimitError{p, "a member name of " + std::to_string(chars) +
                                         " characters; names are limited to " +
                                         std::to_string(limits.max_key_chars)};
        }
      }
      p = end;
    } else if (c == ',' && !open.empty() && !open.back().object) {
      // The comma before item n + 1 (the text is JSON: no trailing commas).
      if (++open.back().count + 1 > limits.max_items)
        return JsonLimitError{skip_ws(text, p + 1), "this array has more than " +
                                                         grouped(limits.max_items) + " items"};
      ++p;
    } else {
      ++p;
    }
  }
  return std::nullopt;
}

JsonPosIndex JsonPosIndex::lines_of(std::string_view text) {
  JsonPosIndex idx;
  idx.line_starts.push_back(0);
  idx.stride_columns.reserve(text.size() / kColumnStride + 1);
  int col = 1;
  for (size_t i = 0; i < text.size(); ++i) {
    if (i % kColumnStride == 0) idx.stride_columns.push_back(col);
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      idx.line_starts.push_back(i + 1);
      col = 1;
    } else if ((c & 0xC0) != 0x80) {
      ++col;
    }
  }
  return idx;
}

JsonPosIndex JsonPosIndex::build(std::string_view text) {
  JsonPosIndex idx = lines_of(text);
  if (text.size() >= kNone) return idx;  // offsets are 32-bit; packs are far smaller
  struct Member {
    std::string key;
    uint32_t node;
  };
  struct Open {
    uint32_t node;
    bool object;
    std::vector<Member> members;  // objects: to find keys given twice when it closes
  };
  std::vector<Open> open;
  auto value_at = [&](size_t& p, uint32_t parent, uint32_t key_offset) {
    p = skip_ws(text, p);
    Node n;
    n.parent = parent;
    n.key_offset = key_offset;
    n.value_offset = static_cast<uint32_t>(std::min(p, text.size()));
    uint32_t id = static_cast<uint32_t>(idx.nodes.size());
    if (p < text.size() && (text[p] == '{' || text[p] == '[')) {
      n.container = true;
      open.push_back({id, text[p] == '{', {}});
      ++p;
    } else if (p < text.size() && text[p] == '"') {
      p = skip_string(text, p);
    } else {
      p = skip_scalar(text, p);
    }
    idx.nodes.push_back(n);
    return id;
  };

  size_t p = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;  // nlohmann accepts a BOM
  value_at(p, kNone, kNone);
  while (!open.empty() && p < text.size()) {
    size_t before = p;
    p = skip_ws(text, p);
    if (p >= text.size()) break;
    char c = text[p];
    if (c == ',') {
      ++p;
    } else if (c == '}' || c == ']') {
      ++p;
      Open done = std::move(open.back());
      open.pop_back();
      // nlohmann keeps the last of keys given twice, so lookups take the last too (see
      // offset_of); the later occurrences are reported.
      if (done.members.size() > 1) {
        std::stable_sort(done.members.begin(), done.members.end(),
                         [](const Member& a, const Member& b) { return a.key < b.key; });
        for (size_t i = 1; i < done.members.size(); ++i)
          if (done.members[i].key == done.members[i - 1].key) idx.duplicate_keys.push_back(done.members[i].node);
      }
    } else if (open.back().object) {
      if (c != '"') {  // not JSON after all: stop rather than guess
        break;
      }
      size_t key_at = p;
      std::string key = json_string_at(text, p);
      p = skip_ws(text, skip_string(text, p));
      if (p < text.size() && text[p] == ':') ++p;
      uint32_t parent = open.back().node;
      size_t slot = open.size() - 1;
      uint32_t id = value_at(p, parent, static_cast<uint32_t>(key_at));
      open[slot].members.push_back({std::move(key), id});
    } else {
      value_at(p, open.back().node, kNone);
    }
    if (p == before) ++p;  // always make progress, whatever the text
  }
  std::sort(idx.duplicate_keys.begin(), idx.duplicate_keys.end());

  // Children lists, in text order (node ids grow along the text).
  idx.child_begin.assign(idx.nodes.size() + 1, 0);
  for (size_t i = 1; i < idx.nodes.size(); ++i) ++idx.child_begin[idx.nodes[i].parent + 1];
  for (size_t i = 1; i < idx.child_begin.size(); ++i) idx.child_begin[i] += idx.child_begin[i - 1];
  idx.child_ids.resize(idx.nodes.size() > 0 ? idx.nodes.size() - 1 : 0);
  std::vector<uint32_t> fill(idx.child_begin.begin(), idx.child_begin.end() - 1);
  for (size_t i = 1; i < idx.nodes.size(); ++i) idx.child_ids[fill[idx.nodes[i].parent]++] = static_cast<uint32_t>(i);
  return idx;
}

TextPos JsonPosIndex::at_offset(std::string_view text, size_t offset) const {
  offset = std::min(offset, text.size());
  TextPos p;
  if (line_starts.empty()) {
    p.column = utf8_column(text, offset);
    return p;
  }
  auto it = std::upper_bound(line_starts.begin(), line_starts.end(), offset);
  size_t line = static_cast<size_t>(it - line_starts.begin());  // 1-based
  size_t start = line_starts[line - 1];
  p.line = static_cast<int>(line);
  size_t k = offset / kColumnStride;
  size_t mark = k * kColumnStride;
  if (k < stride_columns.size() && mark >= start)
    p.column = stride_columns[k] + utf8_column(text.substr(mark), offset - mark) - 1;
  else
    p.column = utf8_column(text.substr(start), offset - start);
  return p;
}

size_t JsonPosIndex::offset_of(std::string_view text, const std::string& pointer, bool key) const {
  if (nodes.empty()) return 0;
  uint32_t at = 0;
  size_t pos = 0;
  // Each "/token" of the pointer, while the value it names exists.
  while (pos < pointer.size() && pointer[pos] == '/') {
    size_t end = pointer.find('/', pos + 1);
    if (end == std::string::npos) end = pointer.size();
    std::string token;
    for (size_t i = pos + 1; i < end; ++i) {
      if (pointer[i] == '~' && i + 1 < end && (pointer[i + 1] == '0' || pointer[i + 1] == '1')) {
        token += pointer[i + 1] == '0' ? '~' : '/';
        ++i;
      } else {
        token += pointer[i];
      }
    }
    pos = end;
    const Node& n = nodes[at];
    if (!n.container) break;
    uint32_t b = child_begin[at], e = child_begin[at + 1];
    uint32_t next = kNone;
    if (text[n.value_offset] == '{') {
      for (uint32_t i = e; i > b; --i)  // the last of duplicated keys is the one used
        if (key_equals(text, nodes[child_ids[i - 1]].key_offset, token)) {
          next = child_ids[i - 1];
          break;
        }
    } else if (!token.empty() && token.size() <= 9 &&
               std::all_of(token.begin(), token.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      size_t i = std::stoul(token);
      if (i < e - b) next = child_ids[b + i];
    }
    if (next == kNone) break;
    at = next;
  }
  const Node& n = nodes[at];
  if (key && n.key_offset != kNone) return n.key_offset;
  return n.value_offset;
}

std::string JsonPosIndex::pointer_of(std::string_view text, uint32_t node) const {
  std::vector<std::string> tokens;
  while (node < nodes.size() && nodes[node].parent != kNone) {
    const Node& n = nodes[node];
    if (n.key_offset != kNone) {
      tokens.push_back(json_pointer_escape(json_string_at(text, n.key_offset)));
    } else {
      auto b = child_ids.begin() + child_begin[n.parent], e = child_ids.begin() + child_begin[n.parent + 1];
      tokens.push_back(std::to_string(std::lower_bound(b, e, node) - b));
    }
    node = n.parent;
  }
  std::string out;
  for (auto it = tokens.rbegin(); it != tokens.rend(); ++it) out += "/" + *it;
  return out;
}

}  // namespace dtx
