// The expression language of packs: answers, mistakes, derived parameters, code
// expectations and placeholders are all written in it, so one parser and one evaluator
// decide every number an exercise grades against.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dtx {

struct ExprNode;

// Errors carry a 1-based column into the expression text so lint can point inside a
// JSON string ("column 7 of /exercises/2/parts/0/answer").
struct ExprError {
  int column = 0;
  std::string message;
};

// Limits that keep the recursive parser and evaluator far from the bottom of the stack
// (5 MB in the browser). Shipped packs nest at most 6 levels (2^ceil(log2(ceil(16*P/(H-A)))))
// and write at most 124 characters; the limits leave room for far more.
//  - nesting: every '(', function call, sign ('-', '+') and '^' opens a level;
//  - length: bounds the chains a flat "1+1+1+..." builds (each '+' is one more node deep).
constexpr int kMaxExprNesting = 64;
constexpr size_t kMaxExprLength = 1000;  // bytes of expression text

// Looks a name up; returns nullopt when the name is unknown.
using ExprScope = std::function<std::optional<double>(std::string_view)>;

class Expr {
 public:
  Expr() = default;
  // Parses the whole text; anything left over is an error.
  static Expr parse(std::string_view text, ExprError* error);
  // Parses the longest expression at the start of `text` that is followed only by what the
  // caller treats as a suffix (a unit in student input). Variables are refused when
  // `allow_names` is false, so "875 MB" stops before "MB". `consumed` is set to the
  // number of bytes used.
  static Expr parse_prefix(std::string_view text, bool allow_names, size_t* consumed,
                           ExprError* error);

  bool valid() const { return root_ != nullptr; }
  // Evaluates; division by zero, unknown names and non-finite results are errors.
  std::optional<double> eval(const ExprScope& scope, ExprError* error) const;
  // Names the expression refers to (for lint: unknown parameters).
  std::vector<std::string> names() const;
  // 1-based column where `name` is first used, 0 when it is not used: lint points at it.
  int column_of(std::string_view name) const;
  const std::string& text() const { return text_; }
  // The expression written out for a reader ("2 × M × (N − 1) / N"): × for *, − for minus,
  // each name as `name_text` gives it (the name, or its value with a unit), a number as
  // format_number writes it, and parentheses only where precedence needs them. With a scope,
  // if(c, a, b) shows only the branch it takes; without one, the whole call.
  std::string written(const std::function<std::string(std::string_view)>& name_text,
                      const ExprScope& scope = nullptr) const;

 private:
  std::shared_ptr<const ExprNode> root_;
  std::string text_;
};

// The candidate that `got` most likely misspells, for "did you mean" messages: the same
// name in another case, else the nearest by edit distance (a short name must be nearly
// right), else one that shares a long prefix with `got` or contains it ("ceiling" -> "ceil",
// "relative" -> "rel"). Empty when nothing is close enough to be a useful guess.
std::string closest_match(std::string_view got, const std::vector<std::string>& candidates);

// A number as a derivation writes it, in a form Expr::parse reads back: up to 6 significant
// digits, no thousands separators, powers of ten as "1.5 × 10^9" beyond 10^7 and below 10^-4.
std::string expr_number(double v);

// Convenience: parse and evaluate in one go.
std::optional<double> eval_expr(std::string_view text, const ExprScope& scope,
                                ExprError* error);

}  // namespace dtx
