// The list of exercise types. Adding a type = one engine file, one view file, one line here.
#include "../load_ctx.h"

namespace dtx {

const TypeEntry& numeric_type_entry();
const TypeEntry& choice_type_entry();
const TypeEntry& ordering_type_entry();
const TypeEntry& buggy_line_type_entry();
const TypeEntry& code_type_entry();
const TypeEntry& matching_type_entry();

const std::vector<TypeEntry>& exercise_types() {
  static const std::vector<TypeEntry> types = {
      numeric_type_entry(), choice_type_entry(), ordering_type_entry(),
      buggy_line_type_entry(), code_type_entry(), matching_type_entry(),
  };
  return types;
}

}  // namespace dtx
