# The exercise types: one folder each under types/ (types/README.md says what a folder holds).
# This file is how the build finds them, so adding a type edits nothing outside its folder:
#
#   dtx_collect_types(ROOT GENERATED_DIR)
#
# sets, in the caller's scope,
#   DTX_TYPE_ENGINE_SOURCES  every types/<type>/*.cpp but view.cpp and test.cpp (pure C++: the
#                            engine library compiles them with the rest of engine/)
#   DTX_TYPE_VIEW_SOURCES    types/<type>/view.cpp (the page's answer area: the UI library)
#   DTX_TYPE_TEST_SOURCES    types/<type>/test.cpp (the engine's unit tests)
# and writes into GENERATED_DIR
#   type_registry.cpp  exercise_types(): each folder's <type>_type_entry() ("-" becomes "_"),
#                      sorted by TypeEntry::order
#   view_registry.cpp  find_view(): each folder's <type>_view
#   type_codes.inc     each folder's codes.inc, the diagnostic codes the type reports
#                      (engine/diagnostic_codes.h includes it into DiagCode and the code table)
function(dtx_collect_types root gen)
  file(GLOB dirs LIST_DIRECTORIES true CONFIGURE_DEPENDS ${root}/types/*)
  list(SORT dirs)
  # (globbed so that a codes.inc added to a folder reconfigures the build too)
  file(GLOB code_files CONFIGURE_DEPENDS ${root}/types/*/codes.inc)
  set(engine_sources "")
  set(view_sources "")
  set(test_sources "")
  set(entry_decls "")
  set(entry_list "")
  set(view_decls "")
  set(view_list "")
  set(codes "")
  foreach(dir ${dirs})
    if(NOT IS_DIRECTORY ${dir})
      continue()
    endif()
    get_filename_component(type ${dir} NAME)
    string(REPLACE "-" "_" ident ${type})
    file(GLOB cpps CONFIGURE_DEPENDS ${dir}/*.cpp)
    foreach(f ${cpps})
      get_filename_component(base ${f} NAME)
      if(base STREQUAL "view.cpp")
        list(APPEND view_sources ${f})
      elseif(base STREQUAL "test.cpp")
        list(APPEND test_sources ${f})
      else()
        list(APPEND engine_sources ${f})
      endif()
    endforeach()
    string(APPEND entry_decls "const TypeEntry& ${ident}_type_entry();\n")
    string(APPEND entry_list "      &${ident}_type_entry(),\n")
    if(EXISTS ${dir}/view.cpp)
      string(APPEND view_decls "extern const TypeView ${ident}_view;\n")
      string(APPEND view_list "      &${ident}_view,\n")
    endif()
    if(EXISTS ${dir}/codes.inc)
      string(APPEND codes "#include \"${dir}/codes.inc\"\n")
    endif()
  endforeach()

  file(CONFIGURE OUTPUT ${gen}/type_registry.cpp @ONLY CONTENT [=[
// Written by types/types.cmake from the folders in types/: do not edit.
#include <algorithm>

#include "type_registry.h"

namespace dtx {

@entry_decls@
const std::vector<TypeEntry>& exercise_types() {
  static const std::vector<TypeEntry> types = [] {
    std::vector<const TypeEntry*> all = {
@entry_list@    };
    std::stable_sort(all.begin(), all.end(), [](const TypeEntry* a, const TypeEntry* b) { return a->order < b->order; });
    std::vector<TypeEntry> v;
    for (const TypeEntry* e : all) v.push_back(*e);
    return v;
  }();
  return types;
}

}  // namespace dtx
]=])
  file(CONFIGURE OUTPUT ${gen}/view_registry.cpp @ONLY CONTENT [=[
// Written by types/types.cmake from the folders in types/: do not edit.
#include "type_view.h"

namespace dtx::web {

@view_decls@
const TypeView* find_view(const std::string& type) {
  static const TypeView* const all[] = {
@view_list@  };
  for (const TypeView* v : all)
    if (type == v->type) return v;
  return nullptr;
}

}  // namespace dtx::web
]=])
  file(CONFIGURE OUTPUT ${gen}/type_codes.inc @ONLY CONTENT [=[
// Written by types/types.cmake from the folders in types/: do not edit.
@codes@]=])

  set(DTX_TYPE_ENGINE_SOURCES ${engine_sources} ${gen}/type_registry.cpp PARENT_SCOPE)
  set(DTX_TYPE_VIEW_SOURCES ${view_sources} ${gen}/view_registry.cpp PARENT_SCOPE)
  set(DTX_TYPE_TEST_SOURCES ${test_sources} PARENT_SCOPE)
endfunction()
