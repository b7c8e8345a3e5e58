#include "report_link.h"

namespace dtx {

namespace {

// encodeURIComponent's set: what stays as it is in a query value and a mailto: header.
std::string encode_component(const std::string& s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
                 c == '.' || c == '!' || c == '~' || c == '*' || c == '\'' || c == '(' || c == ')';
    if (plain) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

// At most `max` bytes, never cutting a UTF-8 character in two.
std::string cut_utf8(const std::string& s, size_t max) {
  if (s.size() <= max) return s;
  size_t n = max;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  return s.substr(0, n) + " (cut)";
}

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
}

}  // namespace

std::optional<std::string> check_report_destination(const std::string& d) {
  if (d.size() > 2000) return "is " + std::to_string(d.size()) + " bytes long; an address of at most 2,000 is expected";
  const bool https = d.rfind("https://", 0) == 0, mailto = d.rfind("mailto:", 0) == 0;
  if (!https && !mailto)
    return "must start with https:// (an issue tracker's new-issue address) or mailto: (an e-mail address)";
  if (d.find("{title}") == std::string::npos && d.find("{body}") == std::string::npos)
    return "holds neither {title} nor {body}, so a report would arrive without the exercise it is about";
  for (char c : d)
    if (static_cast<unsigned char>(c) < 0x20 || c == ' ' || c == '"' || c == '<' || c == '>')
      return "holds a space, a quote, an angle bracket or a control character; percent-encode it";
  return std::nullopt;
}

std::string report_title(const ReportFields& f) {
  return "Problem with exercise " + f.exercise_id + " (" + f.exercise_title + ")";
}

std::string report_body(const ReportFields& f) {
  std::string b = "Exercise: " + f.exercise_id + " (" + f.exercise_title + ")\n";
  b += "Numbers: " + (f.seed == 0 ? std::string("the default (instance 0)") : "instance " + std::to_string(f.seed)) + "\n";
  if (!f.address.empty()) b += "Address: " + f.address + "\n";
  b += "My last answer: " + (f.answer.empty() ? std::string("(nothing submitted yet)") : cut_utf8(f.answer, kReportAnswerBytes)) + "\n";
  b += "Build: " + (f.build.empty() ? std::string("unknown") : f.build) + "\n";
  b += "\nWhat is wrong:\n";
  return b;
}

std::string report_address(const std::string& destination, const ReportFields& f) {
  std::string out = destination;
  replace_all(out, "{title}", encode_component(report_title(f)));
  replace_all(out, "{body}", encode_component(report_body(f)));
  return out;
}

}  // namespace dtx
