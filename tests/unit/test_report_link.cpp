// engine/report_link: "Report a problem" fills the site's destination with the exercise, its
// numbers, the student's answer and the build, percent-encoded as a browser's
// encodeURIComponent would, and refuses a destination the page must not open.
#include <gtest/gtest.h>

#include <string>

#include "report_link.h"

using namespace dtx;

namespace {

ReportFields fields() {
  ReportFields f;
  f.exercise_id = "ring.volume";
  f.exercise_title = "Bytes each GPU sends";
  f.seed = 853520579;
  f.address = "https://course.example/#/ex/ring.volume/853520579";
  f.answer = "phase=14.5 GB  total=29 GB";
  f.build = "6cf32d87b583f7fa";
  return f;
}

// The inverse of the encoding, to read back what the tracker receives.
std::string decode(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size()) {
      out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

}  // namespace

TEST(ReportLink, IssueTrackerAddressCarriesTheExerciseItsNumbersTheAnswerAndTheBuild) {
  const std::string d = "https://github.com/acme/course/issues/new?title={title}&body={body}&labels=exercise";
  const std::string a = report_address(d, fields());
  ASSERT_EQ(a.rfind("https://github.com/acme/course/issues/new?title=", 0), 0u) << a;
  EXPECT_NE(a.find("&labels=exercise"), std::string::npos) << "the rest of the address is kept";
  EXPECT_EQ(a.find(' '), std::string::npos) << "no raw space: " << a;
  EXPECT_EQ(a.find('\n'), std::string::npos);
  const std::string title = decode(a.substr(a.find("title=") + 6, a.find("&body=") - a.find("title=") - 6));
  EXPECT_EQ(title, "Problem with exercise ring.volume (Bytes each GPU sends)");
  const std::string body = decode(a.substr(a.find("&body=") + 6, a.find("&labels=") - a.find("&body=") - 6));
  EXPECT_EQ(body,
            "Exercise: ring.volume (Bytes each GPU sends)\n"
            "Numbers: instance 853520579\n"
            "Address: https://course.example/#/ex/ring.volume/853520579\n"
            "My last answer: phase=14.5 GB  total=29 GB\n"
            "Build: 6cf32d87b583f7fa\n"
            "\nWhat is wrong:\n");
}

TEST(ReportLink, AnAmpersandOrHashInTheAnswerCannotBreakTheAddress) {
  ReportFields f = fields();
  f.answer = "a&labels=spam#x=1 ?y";
  const std::string a = report_address("https://t.example/new?body={body}", f);
  EXPECT_EQ(a.find('&'), std::string::npos) << a;
  EXPECT_EQ(a.find('#'), std::string::npos) << a;
  EXPECT_NE(decode(a).find("My last answer: a&labels=spam#x=1 ?y"), std::string::npos);
}

TEST(ReportLink, MailtoAndDefaultNumbersAndNoAnswer) {
  ReportFields f = fields();
  f.seed = 0;
  f.answer.clear();
  f.build.clear();
  const std::string a = report_address("mailto:course@uni.example?subject={title}&body={body}", f);
  ASSERT_EQ(a.rfind("mailto:course@uni.example?subject=Problem%20with%20exercise%20ring.volume", 0), 0u) << a;
  const std::string body = decode(a);
  EXPECT_NE(body.find("Numbers: the default (instance 0)"), std::string::npos);
  EXPECT_NE(body.find("My last answer: (nothing submitted yet)"), std::string::npos);
  EXPECT_NE(body.find("Build: unknown"), std::string::npos);
}

TEST(ReportLink, ALongAnswerIsCutOnACharacterBoundary) {
  ReportFields f = fields();
  f.answer = std::string(kReportAnswerBytes - 1, 'x') + "×yz";  // × is two bytes: the cut falls inside it
  const std::string body = report_body(f);
  EXPECT_NE(body.find(std::string(kReportAnswerBytes - 1, 'x') + " (cut)\n"), std::string::npos);
  EXPECT_EQ(body.find("yz"), std::string::npos);
}

TEST(ReportLink, DestinationsThePageWillNotOpen) {
  EXPECT_FALSE(check_report_destination("https://t.example/new?title={title}&body={body}"));
  EXPECT_FALSE(check_report_destination("mailto:a@b.example?body={body}"));
  for (const char* bad : {"javascript:alert(1)//{title}", "http://t.example/new?title={title}", "data:text/html,{body}",
                          "https://t.example/new", "https://t.example/new?title={title} x", "//t.example/{title}", ""}) {
    auto err = check_report_destination(bad);
    EXPECT_TRUE(err.has_value()) << bad;
  }
  EXPECT_NE(check_report_destination("https://t.example/new")->find("{title}"), std::string::npos)
      << "the message says what is missing";
  EXPECT_TRUE(check_report_destination("https://t.example/{title}" + std::string(2000, 'a')).has_value());
}
