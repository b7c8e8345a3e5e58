// A zip archive written in memory (PKWARE APPNOTE 6.3, "stored" entries, UTF-8 names): what
// `dtx package` writes. Entries are not compressed (the largest files, the wasm, are what an
// LMS would serve as they are) and carry a fixed date, so the same inputs make the same bytes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dtx::cli {

class ZipWriter {
 public:
  // `name`: a relative path with '/' separators.
  void add(const std::string& name, const std::string& data);
  // The archive: every entry, the central directory and its end record.
  std::string finish() const;
  size_t entries() const { return entries_.size(); }

 private:
  struct Entry {
    std::string name;
    uint32_t crc = 0, size = 0, offset = 0;
  };
  std::string body_;
  std::vector<Entry> entries_;
};

uint32_t crc32(const std::string& data);

}  // namespace dtx::cli
