// SHA-256 (FIPS 180-4), for the content hash of a pack a student's attempt was graded
// against: the page writes it into the submission file and `dtx report` compares it with
// the pack it re-grades with, so an instructor sees when a pack changed in between.
#pragma once

#include <string>
#include <string_view>

namespace dtx {

// Lower-case hex, 64 characters.
std::string sha256_hex(std::string_view data);

}  // namespace dtx
