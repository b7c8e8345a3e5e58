// Text that follows the instance: two functions a placeholder may call besides numbers.
//   {plural(m, 'micro-batch')}            "1 micro-batch", "4 micro-batches"
//   {plural(n, 'copy', 'copies')}         an irregular plural
//   {if(p >= 16, 'a deep', 'a shallow')}  the first text when the condition is not 0
// Texts are quoted with ' (no escaping needed inside a JSON string) or "; \' \" \\ escape. The
// first argument is an expression over the exercise's names, checked by lint like any other
// placeholder. Not inside $...$ maths, whose braces are groups.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "expr.h"

namespace dtx {

struct TextFunction {
  enum class Kind { If, Plural } kind = Kind::If;
  Expr expr;                       // the condition, or the count
  std::vector<std::string> texts;  // if: then, else; plural: singular[, plural]
};

struct TextFunctionError {
  size_t offset = 0;  // in the placeholder's inside
  std::string message;
};

// The text function a placeholder's inside calls. nullopt with an empty error: not a text
// function (an ordinary {expression}, or braces that are not a placeholder); nullopt with an
// error: it starts as one (if( or plural( with a quoted text) but is malformed.
std::optional<TextFunction> parse_text_function(std::string_view inner, TextFunctionError* error);

// The text for the value of f.expr (a number of 4 significant digits for plural).
std::string apply_text_function(const TextFunction& f, double value);

// "micro-batch" -> "micro-batches", "GPU" -> "GPUs", "copy" -> "copies".
std::string english_plural(const std::string& word);

}  // namespace dtx
