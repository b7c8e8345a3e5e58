// "Report a problem" under every exercise: the address of the site's own destination for
// problems (exercises/index.json "report": an issue tracker's new-issue address or a mailto:),
// with {title} and {body} filled in from the exercise the student is on, so the report names
// the exercise, its numbers, the student's answer and the build without the student typing
// them. dtx runs no server: the report goes wherever the site's operator points it, and
// nowhere until they do (no "report" key, no link).
#pragma once

#include <optional>
#include <string>

namespace dtx {

struct ReportFields {
  std::string exercise_id, exercise_title;
  unsigned long long seed = 0;
  std::string address;  // the page's address of this instance
  std::string answer;   // the last answer submitted, as `dtx grade` words; "" before any
  std::string build;    // the site's build (its version stamp), "" when unknown
};

// Answers longer than this are cut (an issue tracker's address is limited to a few KB).
constexpr size_t kReportAnswerBytes = 1500;

// Why a destination cannot be used, or nullopt when it can: an https:// or mailto: address
// (no other scheme runs from a link the page opens) holding {title}, {body} or both, no
// longer than 2,000 bytes.
std::optional<std::string> check_report_destination(const std::string& destination);

// The report's title and body, as the student's tracker or mail client shows them.
std::string report_title(const ReportFields& f);
std::string report_body(const ReportFields& f);

// The destination with {title} and {body} replaced by the percent-encoded title and body.
std::string report_address(const std::string& destination, const ReportFields& f);

}  // namespace dtx
