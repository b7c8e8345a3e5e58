#include "expr.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "text.h"

namespace dtx {

struct ExprNode {
  enum Kind { Num, Var, Neg, Bin, Call } kind = Num;
  double value = 0;
  std::string name;  // Var and Call
  std::string op;    // Bin
  int column = 0;    // where the node starts, for evaluation errors
  std::vector<std::shared_ptr<const ExprNode>> kids;
};

namespace {

using NodeP = std::shared_ptr<const ExprNode>;

struct Function {
  const char* name;
  int min_args, max_args;
};
// `max` of -1 means "two or more"; min/max take any number of arguments so authors can
// write max(a, b, c).
constexpr Function kFunctions[] = {
    {"ceil", 1, 1}, {"floor", 1, 1}, {"round", 1, 1}, {"sqrt", 1, 1}, {"log", 1, 1},
    {"log2", 1, 1}, {"log10", 1, 1}, {"exp", 1, 1},   {"abs", 1, 1},  {"min", 2, -1},
    {"max", 2, -1}, {"if", 3, 3},
};

const Function* find_function(std::string_view name) {
  for (const auto& f : kFunctions)
    if (name == f.name) return &f;
  return nullptr;
}

class Parser {
 public:
  Parser(std::string_view text, bool allow_names) : s_(text), allow_names_(allow_names) {}

  NodeP parse_all(ExprError* err) {
    if (!check_length()) return fail(err);
    NodeP n = parse_or();
    if (!n) return fail(err);
    skip_ws();
    if (pos_ < s_.size()) {
      error_at(pos_, "unexpected '" + std::string(utf8_char_at(s_, pos_)) +
                         "' after a complete expression");
      return fail(err);
    }
    return n;
  }

  NodeP parse_prefix(size_t* consumed, ExprError* err) {
    if (!check_length()) return fail(err);
    NodeP n = parse_or();
    if (!n) return fail(err);
    *consumed = end_of_last_token_;
    return n;
  }

 private:
  NodeP fail(ExprError* err) {
    if (err) *err = error_;
    return nullptr;
  }

  bool check_length() {
    if (s_.size() <= kMaxExprLength) return true;
    // Point at the first character past the limit; a UTF-8 sequence is not split.
    size_t at = kMaxExprLength;
    while (at > 0 && (static_cast<unsigned char>(s_[at]) & 0xC0) == 0x80) --at;
    error_at(at, "the expression is longer than " + std::to_string(kMaxExprLength) +
                     " characters; split it into derived values");
    return false;
  }

  // Every recursive cycle of the grammar passes through parse_unary, so counting there
  // bounds the depth of the parser, of the tree and of everything that walks the tree.
  struct Level {
    Parser& p;
    explicit Level(Parser& parser) : p(parser) { ++p.depth_; }
    ~Level() { --p.depth_; }
  };

  // utf8_column, counted on from the last position asked for: the parser asks at every
  // token, and counting from the start each time made a 1,000-character sum quadratic.
  int column_at(size_t byte_pos) {
    if (byte_pos < col_byte_) {
      col_byte_ = 0;
      col_ = 1;
    }
    for (; col_byte_ < byte_pos && col_byte_ < s_.size(); ++col_byte_)
      if ((static_cast<unsigned char>(s_[col_byte_]) & 0xC0) != 0x80) ++col_;
    return col_;
  }

  void error_at(size_t byte_pos, std::string msg) {
    if (!error_.message.empty()) return;  // keep the first, most specific error
    error_.column = column_at(byte_pos);
    error_.message = std::move(msg);
  }

  void skip_ws() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n'))
      ++pos_;
  }

  // Multiplication signs students paste from prose.
  bool match_times() {
    skip_ws();
    if (match_str("*")) return true;
    if (match_str("\xC3\x97")) return true;  // U+00D7 multiplication sign
    if (match_str("\xC2\xB7")) return true;  // U+00B7 middle dot
    if (match_str("\xE2\x8B\x85")) return true;  // U+22C5 dot operator
    // "6.1x10^-5": an x between a number and a digit means times.
    if (pos_ < s_.size() && (s_[pos_] == 'x' || s_[pos_] == 'X') && last_was_number_) {
      size_t p = pos_ + 1;
      while (p < s_.size() && s_[p] == ' ') ++p;
      if (p < s_.size() && std::isdigit(static_cast<unsigned char>(s_[p]))) {
        pos_ += 1;
        return true;
      }
    }
    return false;
  }

  bool match_minus() {
    skip_ws();
    return match_str("-") || match_str("\xE2\x88\x92");  // U+2212 minus sign
  }

  bool match_str(std::string_view t) {
    if (s_.substr(pos_, t.size()) == t) {
      pos_ += t.size();
      return true;
    }
    return false;
  }

  bool peek_str(std::string_view t) {
    skip_ws();
    return s_.substr(pos_, t.size()) == t;
  }

  NodeP make_bin(std::string op, NodeP a, NodeP b, int col) {
    auto n = std::make_shared<ExprNode>();
    n->kind = ExprNode::Bin;
    n->op = std::move(op);
    n->column = col;
    n->kids = {std::move(a), std::move(b)};
    return n;
  }

  NodeP parse_or() {
    NodeP a = parse_and();
    while (a && peek_str("||")) {
      int col = column_at(pos_);
      pos_ += 2;
      NodeP b = parse_and();
      if (!b) return nullptr;
      a = make_bin("||", a, b, col);
    }
    return a;
  }

  NodeP parse_and() {
    NodeP a = parse_cmp();
    while (a && peek_str("&&")) {
      int col = column_at(pos_);
      pos_ += 2;
      NodeP b = parse_cmp();
      if (!b) return nullptr;
      a = make_bin("&&", a, b, col);
    }
    return a;
  }

  NodeP parse_cmp() {
    NodeP a = parse_add();
    if (!a) return nullptr;
    static const char* ops[] = {"<=", ">=", "==", "!=", "<", ">"};
    skip_ws();
    for (const char* op : ops) {
      if (peek_str(op)) {
        int col = column_at(pos_);
        pos_ += std::strlen(op);
        NodeP b = parse_add();
        if (!b) return nullptr;
        return make_bin(op, a, b, col);
      }
    }
    return a;
  }

  NodeP parse_add() {
    NodeP a = parse_mul();
    while (a) {
      size_t save = pos_;
      int col = column_at(pos_);
      std::string op;
      skip_ws();
      if (match_str("+")) op = "+";
      else if (match_minus()) op = "-";
      else { pos_ = save; break; }
      NodeP b = parse_mul();
      if (!b) return nullptr;
      a = make_bin(op, a, b, col);
    }
    return a;
  }

  NodeP parse_mul() {
    NodeP a = parse_unary();
    while (a) {
      size_t save = pos_;
      skip_ws();
      int col = column_at(pos_);
      std::string op;
      if (match_times()) op = "*";
      else if (match_str("/")) op = "/";
      else { pos_ = save; break; }
      NodeP b = parse_unary();
      if (!b) return nullptr;
      a = make_bin(op, a, b, col);
    }
    return a;
  }

  NodeP parse_unary() {
    skip_ws();
    Level level(*this);
    if (depth_ > kMaxExprNesting) {
      // The caller names the column ("invalid expression at column 130: nested ...").
      error_at(pos_, "nested deeper than " + std::to_string(kMaxExprNesting) +
                         " levels (each parenthesis, function call, sign and power opens one)");
      return nullptr;
    }
    int col = column_at(pos_);
    if (match_minus()) {
      NodeP x = parse_unary();
      if (!x) return nullptr;
      auto n = std::make_shared<ExprNode>();
      n->kind = ExprNode::Neg;
      n->column = col;
      n->kids = {x};
      return n;
    }
    if (match_str("+")) return parse_unary();
    return parse_power();
  }

  NodeP parse_power() {
    NodeP a = parse_primary();
    if (!a) return nullptr;
    size_t save = pos_;
    skip_ws();
    if (pos_ < s_.size() && s_[pos_] == '^') {
      int col = column_at(pos_);
      ++pos_;
      NodeP b = parse_unary();  // right-associative, allows 10^-5
      if (!b) return nullptr;
      return make_bin("^", a, b, col);
    }
    // 10⁻⁵: superscript digits (the page prints large and small values so; a student may
    // paste one back) are a power too.
    pos_ = save;
    if (size_t len = 0; auto e = superscript_integer(s_, pos_, &len)) {
      int col = column_at(pos_);
      auto b = std::make_shared<ExprNode>();
      b->kind = ExprNode::Num;
      b->value = *e;
      b->column = col;
      pos_ += len;
      end_of_last_token_ = pos_;
      return make_bin("^", a, b, col);
    }
    return a;
  }

  NodeP parse_primary() {
    skip_ws();
    last_was_number_ = false;
    if (pos_ >= s_.size()) {
      error_at(pos_, s_.empty() ? "expected an expression, got nothing"
                                : "expected a number, a name or '(' at the end");
      return nullptr;
    }
    int col = column_at(pos_);
    char c = s_[pos_];
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return parse_number();
    if (c == '(') {
      ++pos_;
      NodeP inner = parse_or();
      if (!inner) return nullptr;
      skip_ws();
      if (pos_ >= s_.size() || s_[pos_] != ')') {
        error_at(pos_, "expected ')' to close the '(' at column " + std::to_string(col));
        return nullptr;
      }
      ++pos_;
      end_of_last_token_ = pos_;
      return inner;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t start = pos_;
      while (pos_ < s_.size()) {
        char d = s_[pos_];
        if (std::isalnum(static_cast<unsigned char>(d)) || d == '_') {
          ++pos_;
        } else if (d == '.' && pos_ + 1 < s_.size() &&
                   std::isalpha(static_cast<unsigned char>(s_[pos_ + 1]))) {
          ++pos_;  // answer.time
        } else {
          break;
        }
      }
      std::string name(s_.substr(start, pos_ - start));
      size_t after = pos_;
      skip_ws();
      bool call = pos_ < s_.size() && s_[pos_] == '(';
      if (call) return parse_call(name, start, col);
      if (const Function* f = find_function(name); f && allow_names_) {
        error_at(start, "'" + name + "' is a function: write " + name + "(...)");
        return nullptr;
      }
      if (!allow_names_) {
        pos_ = start;  // a unit follows; the caller takes it from here
        error_at(start, "expected a number, got '" + name + "'");
        return nullptr;
      }
      pos_ = after;
      end_of_last_token_ = pos_;
      auto n = std::make_shared<ExprNode>();
      n->kind = ExprNode::Var;
      n->name = std::move(name);
      n->column = col;
      return n;
    }
    error_at(pos_, "expected a number, a name or '(', got '" +
                       std::string(utf8_char_at(s_, pos_)) + "'");
    return nullptr;
  }

  NodeP parse_number() {
    size_t start = pos_;
    int col = column_at(pos_);
    bool digits = false;
    while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
      ++pos_;
      digits = true;
    }
    if (pos_ < s_.size() && s_[pos_] == '.') {
      ++pos_;
      while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
        ++pos_;
        digits = true;
      }
    }
    if (!digits) {
      error_at(start, "expected digits around '.'");
      return nullptr;
    }
    // An exponent only when digits follow, so "2EB" is 2 exabytes, not a bad exponent.
    if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
      size_t p = pos_ + 1;
      if (p < s_.size() && (s_[p] == '+' || s_[p] == '-')) ++p;
      if (p < s_.size() && std::isdigit(static_cast<unsigned char>(s_[p]))) {
        pos_ = p;
        while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
      }
    }
    std::string num(s_.substr(start, pos_ - start));
    double value = std::strtod(num.c_str(), nullptr);
    if (!std::isfinite(value)) {  // 1e400: strtod gives infinity, which no answer can be
      error_at(start, "the number " + num + " is too large for a double (at most about 1.8e308)");
      return nullptr;
    }
    auto n = std::make_shared<ExprNode>();
    n->kind = ExprNode::Num;
    n->value = value;
    n->column = col;
    end_of_last_token_ = pos_;
    last_was_number_ = true;
    return n;
  }

  NodeP parse_call(const std::string& name, size_t start, int col) {
    const Function* f = find_function(name);
    if (!f) {
      std::vector<std::string> known;
      std::string list;
      for (const auto& fn : kFunctions) {
        known.push_back(fn.name);
        list += std::string(list.empty() ? "" : " ") + fn.name;
      }
      // Names from other languages whose spelling is nowhere near ours.
      std::string guess = name == "ln" ? "log" : name == "lg" ? "log2" : closest_match(name, known);
      std::string msg = "unknown function '" + name + "'";
      if (name == "pow" || name == "power")
        msg += " (write a^b for a power)";
      else if (!guess.empty())
        msg += " (did you mean '" + guess + "'?)";
      error_at(start, msg + "; known: " + list);
      return nullptr;
    }
    ++pos_;  // '('
    auto n = std::make_shared<ExprNode>();
    n->kind = ExprNode::Call;
    n->name = name;
    n->column = col;
    skip_ws();
    if (pos_ < s_.size() && s_[pos_] == ')') {
      ++pos_;
    } else {
      for (;;) {
        NodeP a = parse_or();
        if (!a) return nullptr;
        n->kids.push_back(a);
        skip_ws();
        if (pos_ < s_.size() && s_[pos_] == ',') {
          ++pos_;
          continue;
        }
        if (pos_ < s_.size() && s_[pos_] == ')') {
          ++pos_;
          break;
        }
        error_at(pos_, "expected ',' or ')' in the arguments of " + name + "()");
        return nullptr;
      }
    }
    int count = static_cast<int>(n->kids.size());
    if (count < f->min_args || (f->max_args >= 0 && count > f->max_args)) {
      std::string want = f->max_args < 0 ? "at least " + std::to_string(f->min_args)
                         : f->min_args == f->max_args
                             ? std::to_string(f->min_args)
                             : std::to_string(f->min_args) + " to " + std::to_string(f->max_args);
      error_at(start, name + "() takes " + want + " argument" + (want == "1" ? "" : "s") +
                          ", got " + std::to_string(count));
      return nullptr;
    }
    end_of_last_token_ = pos_;
    return n;
  }

  std::string_view s_;
  bool allow_names_;
  size_t pos_ = 0;
  size_t end_of_last_token_ = 0;
  bool last_was_number_ = false;
  int depth_ = 0;
  size_t col_byte_ = 0;  // column_at's cache: col_ is the column of byte col_byte_
  int col_ = 1;
  ExprError error_;
};

std::optional<double> eval_node(const ExprNode& n, const ExprScope& scope, ExprError* err) {
  auto fail = [&](std::string msg) -> std::optional<double> {
    if (err) *err = {n.column, std::move(msg)};
    return std::nullopt;
  };
  switch (n.kind) {
    case ExprNode::Num:
      return n.value;
    case ExprNode::Var: {
      auto v = scope ? scope(n.name) : std::nullopt;
      if (!v) return fail("unknown name '" + n.name + "'");
      return v;
    }
    case ExprNode::Neg: {
      auto v = eval_node(*n.kids[0], scope, err);
      if (!v) return v;
      return -*v;
    }
    case ExprNode::Bin: {
      auto a = eval_node(*n.kids[0], scope, err);
      if (!a) return a;
      // && and || short-circuit so if()-style guards can protect a division.
      if (n.op == "&&" && *a == 0) return 0.0;
      if (n.op == "||" && *a != 0) return 1.0;
      auto b = eval_node(*n.kids[1], scope, err);
      if (!b) return b;
      double x = *a, y = *b, r = 0;
      const std::string& op = n.op;
      if (op == "+") r = x + y;
      else if (op == "-") r = x - y;
      else if (op == "*") r = x * y;
      else if (op == "/") {
        if (y == 0) return fail("division by zero");
        r = x / y;
      } else if (op == "^") r = std::pow(x, y);
      else if (op == "<") r = x < y;
      else if (op == "<=") r = x <= y;
      else if (op == ">") r = x > y;
      else if (op == ">=") r = x >= y;
      else if (op == "==") r = x == y;
      else if (op == "!=") r = x != y;
      else if (op == "&&") r = (x != 0 && y != 0);
      else if (op == "||") r = (x != 0 || y != 0);
      if (!std::isfinite(r)) return fail("'" + op + "' gives a non-finite result");
      return r;
    }
    case ExprNode::Call: {
      if (n.name == "if") {
        auto c = eval_node(*n.kids[0], scope, err);
        if (!c) return c;
        return eval_node(*n.kids[*c != 0 ? 1 : 2], scope, err);
      }
      std::vector<double> args;
      for (const auto& k : n.kids) {
        auto v = eval_node(*k, scope, err);
        if (!v) return v;
        args.push_back(*v);
      }
      double x = args[0], r = 0;
      const std::string& f = n.name;
      if (f == "ceil") r = std::ceil(x);
      else if (f == "floor") r = std::floor(x);
      else if (f == "round") r = std::round(x);
      else if (f == "abs") r = std::fabs(x);
      else if (f == "exp") r = std::exp(x);
      else if (f == "sqrt") {
        if (x < 0) return fail("sqrt() of a negative number");
        r = std::sqrt(x);
      } else if (f == "log" || f == "log2" || f == "log10") {
        if (x <= 0) return fail(f + "() of a number that is not positive");
        r = f == "log" ? std::log(x) : f == "log2" ? std::log2(x) : std::log10(x);
      } else if (f == "min" || f == "max") {
        r = x;
        for (double a : args) r = f == "min" ? std::min(r, a) : std::max(r, a);
      }
      if (!std::isfinite(r)) return fail(f + "() gives a non-finite result");
      return r;
    }
  }
  return fail("internal: unknown node");
}

// Binding strength of a node as written; a child weaker than its parent needs parentheses.
int precedence(const ExprNode& n) {
  if (n.kind == ExprNode::Neg) return 6;
  if (n.kind != ExprNode::Bin) return 8;
  const std::string& op = n.op;
  if (op == "||") return 1;
  if (op == "&&") return 2;
  if (op == "+" || op == "-") return 4;
  if (op == "*" || op == "/") return 5;
  if (op == "^") return 7;
  return 3;  // comparisons
}

const char* written_op(const std::string& op) {
  if (op == "*") return " × ";
  if (op == "-") return " − ";
  if (op == "/") return " / ";
  if (op == "+") return " + ";
  if (op == "^") return "^";
  if (op == "<=") return " ≤ ";
  if (op == ">=") return " ≥ ";
  if (op == "!=") return " ≠ ";
  if (op == "==") return " = ";
  return nullptr;
}

struct Writer {
  const std::function<std::string(std::string_view)>& name_text;
  const ExprScope& scope;

  // How tightly a written leaf binds: "9.89 × 10^14" is a product, "−3" a negation.
  static int leaf_precedence(const std::string& text) {
    if (text.find(" × ") != std::string::npos || text.find(' ') != std::string::npos) return 5;
    if (text.rfind("−", 0) == 0 || text.rfind("-", 0) == 0) return 6;
    return 8;
  }

  // `right_of_same`: the right operand of a left-associative operator of the same strength,
  // where a − (b − c) and a / (b × c) need their parentheses; after × (`times`) a product
  // needs none.
  std::string child(const ExprNode& k, int parent, bool right_of_same, bool times = false) const {
    int p = precedence(k);
    if (k.kind == ExprNode::Num || k.kind == ExprNode::Var) {
      std::string s = write(k);
      int lp = leaf_precedence(s);
      bool paren = lp < parent || (right_of_same && !times && lp == parent && lp != 8);
      return paren ? "(" + s + ")" : s;
    }
    // a − (b − c), a / (b / c), (a^b)^c and 2^-1 keep their parentheses
    bool paren = p < parent || (right_of_same && !times && p == parent && p != 8) || (parent == 7 && p == 7 && !right_of_same);
    std::string s = write(k);
    return paren ? "(" + s + ")" : s;
  }

  std::string write(const ExprNode& n) const {
    switch (n.kind) {
      case ExprNode::Num: return expr_number(n.value);
      case ExprNode::Var: return name_text(n.name);
      case ExprNode::Neg: return "−" + child(*n.kids[0], 6, false);
      case ExprNode::Bin: {
        int p = precedence(n);
        const char* op = written_op(n.op);
        std::string o = op ? op : " " + n.op + " ";
        return child(*n.kids[0], p, false) + o + child(*n.kids[1], p, true, n.op == "*");
      }
      case ExprNode::Call: {
        if (n.name == "if" && scope) {
          ExprError err;
          auto c = eval_node(*n.kids[0], scope, &err);
          if (c) return write(*n.kids[*c != 0 ? 1 : 2]);
        }
        std::string s = n.name + "(";
        for (size_t i = 0; i < n.kids.size(); ++i) s += (i ? ", " : "") + write(*n.kids[i]);
        return s + ")";
      }
    }
    return "?";
  }
};

int first_column(const ExprNode& n, std::string_view name) {
  if (n.kind == ExprNode::Var && n.name == name) return n.column;
  for (const auto& k : n.kids)
    if (int c = first_column(*k, name)) return c;
  return 0;
}

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

void collect_names(const ExprNode& n, std::vector<std::string>& out) {
  if (n.kind == ExprNode::Var) {
    for (const auto& s : out)
      if (s == n.name) return;
    out.push_back(n.name);
  }
  for (const auto& k : n.kids) collect_names(*k, out);
}

}  // namespace

Expr Expr::parse(std::string_view text, ExprError* error) {
  Expr e;
  Parser p(text, true);
  e.root_ = p.parse_all(error);
  e.text_ = std::string(text);
  return e;
}

Expr Expr::parse_prefix(std::string_view text, bool allow_names, size_t* consumed,
                        ExprError* error) {
  Expr e;
  Parser p(text, allow_names);
  size_t used = 0;
  e.root_ = p.parse_prefix(&used, error);
  if (consumed) *consumed = e.root_ ? used : 0;
  e.text_ = std::string(text.substr(0, used));
  return e;
}

std::optional<double> Expr::eval(const ExprScope& scope, ExprError* error) const {
  if (!root_) {
    if (error) *error = {1, "the expression did not parse"};
    return std::nullopt;
  }
  return eval_node(*root_, scope, error);
}

std::string expr_number(double v) {
  if (v == 0) return "0";
  double a = std::fabs(v);
  char buf[64];
  if (a >= 1e7 || a < 1e-4) {
    int e = static_cast<int>(std::floor(std::log10(a)));
    double m = v / std::pow(10.0, e);
    if (std::fabs(m) >= 9.999995) m /= 10, ++e;  // 9.9999996 rounds up to 10
    std::snprintf(buf, sizeof buf, "%.6g", m);
    std::string mant = buf;
    std::string pow = "10^" + std::to_string(e);
    if (mant == "1") return pow;
    if (mant == "-1") return "−" + pow;
    return mant + " × " + pow;
  }
  if (v == std::floor(v)) std::snprintf(buf, sizeof buf, "%.0f", v);
  else std::snprintf(buf, sizeof buf, a >= 1e6 ? "%.7g" : "%.6g", v);
  return buf;
}

std::string Expr::written(const std::function<std::string(std::string_view)>& name_text, const ExprScope& scope) const {
  if (!root_) return "";
  return Writer{name_text, scope}.write(*root_);
}

std::vector<std::string> Expr::names() const {
  std::vector<std::string> out;
  if (root_) collect_names(*root_, out);
  return out;
}

int Expr::column_of(std::string_view name) const { return root_ ? first_column(*root_, name) : 0; }

std::string closest_match(std::string_view got, const std::vector<std::string>& candidates) {
  std::string g = to_lower(got);
  if (g.empty()) return "";
  for (const auto& c : candidates)
    if (to_lower(c) == g) return c;
  // One typo in a 4-letter name, two in longer ones; a 1-letter name only by case, or "n"
  // would "mean" any other single letter.
  size_t limit = g.size() <= 1 ? 0 : g.size() <= 4 ? 1 : g.size() <= 8 ? 2 : 3;
  std::string best;
  size_t best_d = limit + 1;
  for (const auto& c : candidates) {
    size_t d = edit_distance(g, to_lower(c));
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  if (!best.empty()) return best;
  size_t best_common = 0;
  for (const auto& c : candidates) {
    std::string l = to_lower(c);
    size_t common = 0;
    while (common < l.size() && common < g.size() && l[common] == g[common]) ++common;
    size_t shorter = std::min(l.size(), g.size());
    bool prefix = common >= 3 && 2 * common >= shorter;
    bool contains = shorter >= 4 && (l.find(g) != std::string::npos || g.find(l) != std::string::npos);
    if (contains) common = std::max(common, shorter);
    if ((prefix || contains) && common > best_common) {
      best_common = common;
      best = c;
    }
  }
  return best;
}

std::optional<double> eval_expr(std::string_view text, const ExprScope& scope,
                                ExprError* error) {
  Expr e = Expr::parse(text, error);
  if (!e.valid()) return std::nullopt;
  return e.eval(scope, error);
}

}  // namespace dtx
