#include "gradebook.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "expr.h"
#include "text.h"
#include "text_escape.h"

namespace dtx {

namespace {

std::string lower_trimmed(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.pop_back();
  size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  s = s.substr(i);
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::optional<size_t> column(const std::vector<std::string>& header, const std::string& name) {
  for (size_t i = 0; i < header.size(); ++i)
    if (lower_trimmed(header[i]) == lower_trimmed(name)) return i;
  return std::nullopt;
}

std::string cell(const std::vector<std::string>& row, size_t i) { return i < row.size() ? row[i] : ""; }

std::string csv_row(const std::vector<std::string>& cells) {
  std::string out;
  for (size_t i = 0; i < cells.size(); ++i) out += (i ? "," : "") + csv_field(cells[i]);
  return out + "\r\n";
}

// The columns each LMS's export identifies a student by: copied (`keep`) and looked up (`match`).
struct Layout {
  std::vector<std::string> keep, match;
  const char* what;
};
Layout layout_of(GradebookFormat f) {
  if (f == GradebookFormat::Canvas)
    return {{"Student", "ID", "SIS User ID", "SIS Login ID", "Integration ID", "Section"},
            {"SIS Login ID", "SIS User ID", "ID", "Integration ID"},
            "a Canvas gradebook export (columns Student, ID, SIS User ID, SIS Login ID, Section)"};
  return {{"Email address", "ID number", "Username"}, {"Email address", "ID number", "Username"},
          "a Moodle participants export (a column Email address, ID number or Username)"};
}

// The roster row each report student is graded into (-1: none), by any matching column.
std::vector<int> match_students(const Report& r, const Roster& roster) {
  std::map<std::string, int> by_id;
  for (size_t row = 0; row < roster.students.size(); ++row)
    for (size_t c : roster.match) {
      std::string id = lower_trimmed(cell(roster.students[row], c));
      if (!id.empty()) by_id.emplace(id, static_cast<int>(row));
    }
  std::vector<int> out;
  for (const auto& s : r.students) {
    auto it = by_id.find(lower_trimmed(s.student));
    out.push_back(it == by_id.end() ? -1 : it->second);
  }
  return out;
}

std::string assignment_column(const Report& r, const GradebookOptions& o) {
  if (!o.column.empty()) return o.column;
  const std::string title = r.assignment->title;
  if (o.roster)
    for (const auto& h : o.roster->header)
      if (h.rfind(title + " (", 0) == 0 && h.back() == ')') return h;  // Canvas's "Title (12345)"
  return title + " (" + r.assignment->id + ")";
}

std::string flags_csv(const Report& r) {
  std::string out = csv_row({"student", "flag"});
  for (const auto& s : r.students)
    for (const auto& f : s.flags) out += csv_row({s.student, f});
  return out;
}

}  // namespace

std::optional<GradebookFormat> gradebook_format(const std::string& name) {
  if (name == "plain") return GradebookFormat::Plain;
  if (name == "canvas") return GradebookFormat::Canvas;
  if (name == "moodle") return GradebookFormat::Moodle;
  return std::nullopt;
}

CsvRead read_csv(const std::string& text, const std::string& file) {
  CsvRead out;
  size_t i = text.rfind("\xEF\xBB\xBF", 0) == 0 ? 3 : 0;
  int line = 1, col = 1;
  std::vector<std::string> row;
  std::string field;
  bool quoted = false, any = false;
  int quote_line = 0, quote_col = 0;
  auto end_row = [&] {
    row.push_back(field);
    field.clear();
    if (!(row.size() == 1 && row[0].empty() && !any)) out.rows.push_back(row);
    row.clear();
    any = false;
  };
  for (; i < text.size(); ++i, ++col) {
    char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') field += '"', ++i, ++col;
      else if (c == '"') quoted = false;
      else field += c;
      if (c == '\n') ++line, col = 0;
    } else if (c == '"' && field.empty()) {
      quoted = any = true, quote_line = line, quote_col = col;
    } else if (c == ',') {
      row.push_back(field), field.clear(), any = true;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      end_row();
      ++line, col = 0;
    } else {
      field += c, any = true;
    }
  }
  if (quoted)
    out.diagnostics.push_back(make_diagnostic(DiagCode::InvalidJson, file, quote_line, quote_col, "",
                                              "a quoted cell is never closed (a '\"' is missing)"));
  if (!field.empty() || !row.empty() || any) end_row();
  return out;
}

RosterRead read_roster(const std::string& text, const std::string& file, GradebookFormat format) {
  RosterRead out;
  CsvRead csv = read_csv(text, file);
  out.diagnostics = csv.diagnostics;
  if (!csv.diagnostics.empty()) return out;
  Layout l = layout_of(format);
  Roster r;
  r.format = format;
  if (!csv.rows.empty()) r.header = csv.rows[0];
  for (const auto& name : l.keep)
    if (auto c = column(r.header, name)) r.keep.push_back(*c);
  for (const auto& name : l.match)
    if (auto c = column(r.header, name)) r.match.push_back(*c);
  const bool canvas_ok = format != GradebookFormat::Canvas || (column(r.header, "Student") && column(r.header, "ID"));
  if (r.match.empty() || !canvas_ok) {
    out.diagnostics.push_back(make_diagnostic(DiagCode::MissingField, file, 1, 1, "",
                                              std::string("expected ") + l.what + " with its header row first"));
    return out;
  }
  for (size_t i = 1; i < csv.rows.size(); ++i) {
    const auto& row = csv.rows[i];
    if (format == GradebookFormat::Canvas && lower_trimmed(cell(row, 0)) == "points possible") {
      r.points_possible = row;
      continue;
    }
    r.students.push_back(row);
    r.lines.push_back(static_cast<int>(i + 1));
  }
  out.roster = std::move(r);
  return out;
}

Gradebook make_gradebook(const Report& r, const GradebookOptions& o) {
  Gradebook g;
  g.flags_csv = flags_csv(r);
  if (!o.roster || o.format == GradebookFormat::Plain) {
    g.csv = report_csv(r);
    return g;
  }
  const Roster& roster = *o.roster;
  g.column = assignment_column(r, o);
  std::vector<std::string> head;
  for (size_t c : roster.keep) head.push_back(roster.header[c]);
  if (o.format == GradebookFormat::Moodle) head = {roster.header[roster.match[0]]};
  head.push_back(g.column);
  g.csv = csv_row(head);
  if (o.format == GradebookFormat::Canvas && !roster.points_possible.empty()) {
    std::vector<std::string> row;
    for (size_t c : roster.keep) row.push_back(cell(roster.points_possible, c));
    row.push_back(points_text(r.assignment->total_points()));
    g.csv += csv_row(row);
  }
  const std::vector<int> row_of = match_students(r, roster);
  std::vector<int> report_of(roster.students.size(), -1);
  std::vector<std::string> roster_ids;
  for (const auto& row : roster.students) roster_ids.push_back(cell(row, roster.match[0]));
  for (size_t s = 0; s < r.students.size(); ++s) {
    if (row_of[s] >= 0) report_of[static_cast<size_t>(row_of[s])] = static_cast<int>(s);
    else g.unmatched.push_back({r.students[s].student, closest_match(r.students[s].student, roster_ids)});
  }
  for (size_t i = 0; i < roster.students.size(); ++i) {
    const auto& row = roster.students[i];
    std::vector<std::string> cells;
    if (o.format == GradebookFormat::Moodle) cells.push_back(cell(row, roster.match[0]));
    else
      for (size_t c : roster.keep) cells.push_back(cell(row, c));
    if (report_of[i] >= 0) {
      cells.push_back(points_text(r.students[static_cast<size_t>(report_of[i])].points));
    } else {
      cells.push_back(o.blank_for_missing ? "" : "0");
      g.no_file.push_back(roster_ids[i].empty() ? cell(row, roster.keep.empty() ? 0 : roster.keep[0]) : roster_ids[i]);
    }
    g.csv += csv_row(cells);
  }
  return g;
}

std::string roster_summary(const Gradebook& g) {
  if (g.column.empty()) return "";
  std::string out = "Gradebook column: " + terminal_safe(g.column) + "\n";
  if (!g.no_file.empty()) {
    out += "No file from " + std::to_string(g.no_file.size()) + " roster student" + (g.no_file.size() == 1 ? "" : "s") + ":";
    for (const auto& s : g.no_file) out += " " + terminal_safe(s);
    out += "\n";
  }
  for (const auto& [student, closest] : g.unmatched)
    out += "NOT IN THE ROSTER: " + terminal_safe(student) + " (their grade is in no row" +
           (closest.empty() ? "" : "; closest roster identifier: " + terminal_safe(closest)) + ")\n";
  return out;
}

}  // namespace dtx
