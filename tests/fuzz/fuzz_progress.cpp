// libFuzzer target: dtx::fuzz::progress (see fuzz_entry.h). Built and run by `make fuzz`.
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "fuzz_entry.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string why = dtx::fuzz::progress({reinterpret_cast<const char*>(data), size});
  if (!why.empty()) {
    std::fprintf(stderr, "dtx fuzz progress: property failed: %s\n", why.c_str());
    std::abort();
  }
  return 0;
}
