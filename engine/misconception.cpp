// The table of misconception keys (misconception.h): the words a student reads beside a group
// of mistakes. Keys are stored in progress records, so a key is never renamed.
#include "misconception.h"

namespace dtx {

const std::vector<Misconception>& misconceptions() {
  static const std::vector<Misconception> kTable = {
      {"double", "Twice or half",
       "The answer is off by a factor of 2: something is counted twice, or a factor of 2 is missing, such as both "
       "phases of an AllReduce, both directions of a link, or 2 bytes per value.",
       true},
      {"bits-bytes", "Bits vs bytes",
       "A byte is 8 bits, so an amount in bits is 8 times the same amount in bytes (Gb vs GB).", true},
      {"unit-prefix", "Unit prefixes",
       "Each step of a decimal prefix is a factor of 1000: 1 GB is 1000 MB, and 1 s is 1000 ms.", true},
      {"binary-prefix", "Binary prefix steps",
       "Each step of a binary prefix is a factor of 1024: 1 GiB is 1024 MiB, and 1 MiB is 1024 KiB.", true},
      {"binary-decimal", "Binary vs decimal prefixes",
       "GiB, MiB and TiB are powers of 2 while GB, MB and TB are powers of 10: 1 GiB is 2^30 bytes, about 7.4 % "
       "more than 1 GB (10^9 bytes).",
       true},
      {"percent-fraction", "Percent vs fraction",
       "A percentage is a fraction times 100: 50 % is 0.5, and 0.5 is 50 %.", true},
      {"unit-million", "Off by a million",
       "The answer is off by a factor of a million (10^6), two prefix steps at once: µs vs s, or MB vs TB.", true},
      {"instance-value", "One of the exercise's own values",
       "The answer is off by one of the exercise's own values: a multiplication or division by it happens once too "
       "often or not at all.",
       true},
      {kListedMisconception, "A step this exercise warns about",
       "The answer matches a wrong step the exercise's author anticipated; its message says which step.", false},
      {"", "Not diagnosed",
       "The engine cannot name the slip behind these answers; the worked solution shows each step.", false},
  };
  return kTable;
}

const Misconception* find_misconception(std::string_view key) {
  for (const Misconception& m : misconceptions())
    if (key == m.key) return &m;
  return nullptr;
}

}  // namespace dtx
