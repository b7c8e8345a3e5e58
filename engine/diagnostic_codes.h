// Stable codes for every problem the loader and lint report (E0xx errors, W0xx warnings).
// A message's wording may improve from one release to the next; its code does not change,
// so tests, scripts and the authoring guide refer to a problem by its code. A code is never
// reused for a different problem: retire it instead.
//
// docs/AUTHORING.md lists every code with an example, written by scripts/authoring-codes.mjs
// from `dtx codes --json` and the malformed packs in tests/malformed (each code is produced by
// at least one of them; tests/unit/test_malformed.cpp checks both).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace dtx {

enum class Severity { Error, Warning };

enum class DiagCode : uint8_t {
  // The file and its JSON.
  CannotRead,
  FileTooLarge,
  InvalidJson,
  JsonLimit,
  DuplicateKey,
  TooManyProblems,
  TooLong,
  // The shape of a pack and its exercises.
  WrongKind,
  MissingField,
  UnknownField,
  ValueNotAllowed,
  WrongCount,
  BadName,
  DuplicateId,
  Duplicate,
  UnknownType,
  UnsupportedFormat,
  BadComment,
  UnknownWidget,
  // Parameters and expressions.
  InvalidExpression,
  UndeclaredName,
  EvaluationFails,
  BadRange,
  DefaultOutsideRange,
  ConstraintFails,
  CannotMakeInstance,
  UnknownUnit,
  WidgetInputOutOfRange,
  SimulationRefuses,
  OverLimit,
  UnknownLimit,
  ArticleMismatch,
  ZeroAnswer,
  // Texts.
  Maths,
  LinkScheme,
  ImageMissing,
  ImageFormat,
  // Assignment files (`dtx lint` of a "dtx-assignment/1" file).
  BadDateTime,
  UnknownExercise,
  // The glossary (engine/glossary.h).
  GlossaryEntry,
  GlossaryMissing,
  GlossaryBroad,
  // Style warnings (`dtx lint --warn`).
  NoExplanation,
  NoHints,
  NoFeedback,
  ParamNotShown,
  ConstraintsRejectMost,
  ImageAlt,
  // What a type checks (E05x), what one instance shows with `dtx lint --seeds N` (E06x) and a
  // type's style warnings: each type's own, in types/<type>/codes.inc.
#define DTX_TYPE_CODE(code, id, name, summary) code,
#include "type_codes.inc"
#undef DTX_TYPE_CODE
  Count_  // not a code: the number of codes
};

struct DiagCodeInfo {
  DiagCode code;
  const char* id;       // "E012": the letter says the severity
  const char* name;     // "unknown-field": a short name for people
  const char* summary;  // what it means and how to fix it, in a sentence or two
  // Only `dtx lint` on the file system can give it (a missing file): no pack produces it.
  bool file_system = false;
  Severity severity() const { return id[0] == 'W' ? Severity::Warning : Severity::Error; }
};

// Every code, in the order of their ids.
const std::vector<DiagCodeInfo>& diagnostic_codes();
const DiagCodeInfo& diag_info(DiagCode code);
// By id ("E012") or name ("unknown-field"); nullptr when there is none.
const DiagCodeInfo* find_diag_code(std::string_view id_or_name);

}  // namespace dtx
