// Gradebooks an LMS imports as they are (`dtx report --csv FILE --format canvas|moodle|plain
// --roster ROSTER.csv`, docs/AUTHORING.md "Gradebooks for your LMS"). The roster is the LMS's
// own export: Canvas's gradebook export (its identifying columns Student, ID, SIS User ID,
// SIS Login ID, Integration ID, Section and its "Points Possible" row), or Moodle's participants
// export (Email address, ID number, Username). Each roster student gets a row; one with no
// file gets 0 (or a blank cell); a file whose identifier is in no roster row is listed with
// the closest roster identifiers. The report's flags go into a second CSV.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model.h"
#include "report.h"

namespace dtx {

enum class GradebookFormat { Plain, Canvas, Moodle };
std::optional<GradebookFormat> gradebook_format(const std::string& name);  // "plain", "canvas", "moodle"

// RFC 4180 (quoted cells with commas, quotes and line breaks; CRLF or LF; a UTF-8 byte-order
// mark is dropped). Problems name the line and column.
struct CsvRead {
  std::vector<std::vector<std::string>> rows;
  std::vector<Diagnostic> diagnostics;
};
CsvRead read_csv(const std::string& text, const std::string& file);

struct Roster {
  GradebookFormat format = GradebookFormat::Plain;
  std::vector<std::string> header;
  std::vector<size_t> keep;     // the identifying columns, copied to the gradebook
  std::vector<size_t> match;    // the columns an identifier is looked up in
  std::vector<std::string> points_possible;  // Canvas's "Points Possible" row, when there is one
  std::vector<std::vector<std::string>> students;
  std::vector<int> lines;       // each student's line in the file
};
struct RosterRead {
  std::optional<Roster> roster;
  std::vector<Diagnostic> diagnostics;
};
RosterRead read_roster(const std::string& text, const std::string& file, GradebookFormat format);

struct GradebookOptions {
  GradebookFormat format = GradebookFormat::Plain;
  const Roster* roster = nullptr;
  std::string column;          // the assignment's column; "" : the roster's "Title (...)" or "Title (id)"
  bool blank_for_missing = false;
};
struct Gradebook {
  std::string csv;             // the gradebook
  std::string flags_csv;       // "student,flag" rows: copied, late, forged, over the limit, changed pack
  std::string column;          // the assignment's column as written
  std::vector<std::string> no_file;                  // roster students with no file
  std::vector<std::pair<std::string, std::string>> unmatched;  // file's student, closest roster ids
  // The roster students and, for each, the report student graded for them (index, -1: none).
};
Gradebook make_gradebook(const Report& r, const GradebookOptions& o);
// What make_gradebook found about the roster, for the text report ("" without a roster).
std::string roster_summary(const Gradebook& g);

}  // namespace dtx
