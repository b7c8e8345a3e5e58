#include "zip.h"

#include <array>
#include <stdexcept>

namespace dtx::cli {

namespace {

constexpr uint16_t kVersion = 20;       // 2.0: stored entries, folders
constexpr uint16_t kUtf8Names = 0x0800; // general purpose bit 11
constexpr uint16_t kDosTime = 0;        // 00:00:00
constexpr uint16_t kDosDate = 0x21;     // 1980-01-01: a fixed date, reproducible archives

void put16(std::string& out, uint16_t v) {
  out += static_cast<char>(v & 0xFF);
  out += static_cast<char>(v >> 8);
}

void put32(std::string& out, uint32_t v) {
  put16(out, static_cast<uint16_t>(v & 0xFFFF));
  put16(out, static_cast<uint16_t>(v >> 16));
}

const std::array<uint32_t, 256>& crc_table() {
  static const std::array<uint32_t, 256> table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  return table;
}

}  // namespace

uint32_t crc32(const std::string& data) {
  uint32_t c = 0xFFFFFFFFu;
  for (unsigned char b : data) c = crc_table()[(c ^ b) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

void ZipWriter::add(const std::string& name, const std::string& data) {
  if (body_.size() + data.size() + name.size() + 64 > 0xFFFFFFF0u || name.size() > 0xFFFF || entries_.size() >= 0xFFFF)
    throw std::length_error("a zip archive over 4 GB or 65,535 files, or a name over 64 KB, needs zip64");
  Entry e{name, crc32(data), static_cast<uint32_t>(data.size()), static_cast<uint32_t>(body_.size())};
  put32(body_, 0x04034b50);
  put16(body_, kVersion);
  put16(body_, kUtf8Names);
  put16(body_, 0);  // stored
  put16(body_, kDosTime);
  put16(body_, kDosDate);
  put32(body_, e.crc);
  put32(body_, e.size);
  put32(body_, e.size);
  put16(body_, static_cast<uint16_t>(name.size()));
  put16(body_, 0);
  body_ += name;
  body_ += data;
  entries_.push_back(std::move(e));
}

std::string ZipWriter::finish() const {
  std::string out = body_, dir;
  for (const Entry& e : entries_) {
    put32(dir, 0x02014b50);
    put16(dir, kVersion);  // made by: MS-DOS attributes
    put16(dir, kVersion);
    put16(dir, kUtf8Names);
    put16(dir, 0);
    put16(dir, kDosTime);
    put16(dir, kDosDate);
    put32(dir, e.crc);
    put32(dir, e.size);
    put32(dir, e.size);
    put16(dir, static_cast<uint16_t>(e.name.size()));
    put16(dir, 0);  // extra
    put16(dir, 0);  // comment
    put16(dir, 0);  // disk
    put16(dir, 0);  // internal attributes
    put32(dir, 0);  // external attributes
    put32(dir, e.offset);
    dir += e.name;
  }
  out += dir;
  put32(out, 0x06054b50);
  put16(out, 0);
  put16(out, 0);
  put16(out, static_cast<uint16_t>(entries_.size()));
  put16(out, static_cast<uint16_t>(entries_.size()));
  put32(out, static_cast<uint32_t>(dir.size()));
  put32(out, static_cast<uint32_t>(body_.size()));
  put16(out, 0);
  return out;
}

}  // namespace dtx::cli
