// libFuzzer target: dtx::fuzz::host_result (see fuzz_entry.h), the lines the code sandbox's
// host sends back. Built and run by `make fuzz`.
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "fuzz_entry.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string why = dtx::fuzz::host_result({reinterpret_cast<const char*>(data), size});
  if (!why.empty()) {
    std::fprintf(stderr, "dtx fuzz host_result: property failed: %s\n", why.c_str());
    std::abort();
  }
  return 0;
}
