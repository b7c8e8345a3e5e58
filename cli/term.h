// Everything `dtx` prints goes through terminal_safe (engine/text_escape.h): the commands
// print students' answers and error messages, file names and pack texts in many places, and
// one filter under std::cout and std::cerr covers all of them, including the ones added
// later. Newlines and tabs are kept; a value that must stay on its line (a cell of the
// report's table) is escaped where it is put in, with keep_layout off.
#pragma once

#include <cstdio>
#include <iostream>
#include <streambuf>
#include <string>
#include <string_view>

#include "text_escape.h"

namespace dtx::cli {

// A stream buffer that escapes what is written and passes it straight to a C stream, so it
// stays in order with std::printf to the same stream. A UTF-8 sequence split across two
// writes is held until it is complete.
class TerminalSafeBuf : public std::streambuf {
 public:
  explicit TerminalSafeBuf(std::FILE* to) : to_(to) {}
  ~TerminalSafeBuf() override { finish(); }

  // Writes a sequence still held (escaped as the broken bytes it is) and flushes.
  void finish() {
    if (!pending_.empty()) emit(terminal_safe(pending_, true));
    pending_.clear();
    std::fflush(to_);
  }

 protected:
  int_type overflow(int_type ch) override {
    if (traits_type::eq_int_type(ch, traits_type::eof())) return traits_type::not_eof(ch);
    char c = traits_type::to_char_type(ch);
    put(&c, 1);
    return ch;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    put(s, static_cast<size_t>(n));
    return n;
  }
  int sync() override { return std::fflush(to_) == 0 ? 0 : -1; }

 private:
  // How many bytes at the end of `s` begin a UTF-8 sequence that is not complete yet.
  static size_t incomplete_tail(const std::string& s) {
    for (size_t back = 1; back <= 3 && back <= s.size(); ++back) {
      unsigned char b = static_cast<unsigned char>(s[s.size() - back]);
      if ((b & 0xC0) == 0x80) continue;  // a continuation byte: look further back
      size_t need = (b >= 0xC2 && b <= 0xDF) ? 2 : (b >= 0xE0 && b <= 0xEF) ? 3 : (b >= 0xF0 && b <= 0xF4) ? 4 : 0;
      return need > back ? back : 0;
    }
    return 0;
  }
  void put(const char* s, size_t n) {
    pending_.append(s, n);
    size_t keep = incomplete_tail(pending_);
    emit(terminal_safe(std::string_view(pending_).substr(0, pending_.size() - keep), true));
    pending_.erase(0, pending_.size() - keep);
  }
  void emit(const std::string& text) {
    if (!text.empty()) std::fwrite(text.data(), 1, text.size(), to_);
  }

  std::FILE* to_;
  std::string pending_;
};

// Puts the filter under std::cout and std::cerr for its lifetime (main's), and the
// original buffers back before the filter goes.
class TerminalSafeOutput {
 public:
  TerminalSafeOutput() : out_(stdout), err_(stderr) {
    std::cout.flush();
    old_out_ = std::cout.rdbuf(&out_);
    old_err_ = std::cerr.rdbuf(&err_);
  }
  ~TerminalSafeOutput() {
    std::cout.flush();
    std::cerr.flush();
    out_.finish();
    err_.finish();
    std::cout.rdbuf(old_out_);
    std::cerr.rdbuf(old_err_);
  }
  TerminalSafeOutput(const TerminalSafeOutput&) = delete;
  TerminalSafeOutput& operator=(const TerminalSafeOutput&) = delete;

 private:
  TerminalSafeBuf out_, err_;
  std::streambuf* old_out_ = nullptr;
  std::streambuf* old_err_ = nullptr;
};

}  // namespace dtx::cli
