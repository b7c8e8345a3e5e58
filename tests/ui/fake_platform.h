// A Platform for the headless-UI test: storage in a map, fetches queued until the test
// answers them (from the repository's files, or from per-URL overrides), code runs and
// downloads recorded, a fixed date and clock.
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "app.h"
#include "platform/platform.h"

namespace dtx::testing {

class FakePlatform : public dtx::web::Platform {
 public:
  struct Response {
    bool ok = false;
    int status = 404;
    std::string body;
  };

  // storage (localStorage); keys "another tab" wrote (the test sets them with the new value)
  std::map<std::string, std::string> storage;
  bool storage_full = false;
  std::set<std::string> changed_elsewhere;
  // fetches not answered yet: request id -> url
  std::vector<std::pair<int, std::string>> fetches;
  // answers by URL that replace the repository's file (e.g. a broken pack)
  std::map<std::string, Response> overrides;
  // the last code run asked for
  int code_request_id = 0;
  std::string code_request_json;
  int code_runs = 0;
  // other calls, recorded
  std::vector<std::pair<std::string, std::string>> downloads;
  int file_picks = 0;
  std::vector<std::string> opened_urls;
  std::string state_json;
  int states_published = 0;
  // the address bar: every write, in order (fragment, title, push)
  struct AddressWrite {
    std::string fragment, title;
    bool push = false;
  };
  std::vector<AddressWrite> addresses;
  // clock
  std::string date = "2024-05-14";
  int64_t unix_time = 1715680000;
  double clock_ms = 1000;

  std::optional<std::string> storage_get(const std::string& key) override {
    auto it = storage.find(key);
    if (it == storage.end()) return std::nullopt;
    return it->second;
  }
  bool storage_set(const std::string& key, const std::string& value) override {
    if (storage_full) return false;
    storage[key] = value;
    return true;
  }
  bool storage_changed_elsewhere(const std::string& key) override { return changed_elsewhere.erase(key) > 0; }
  std::string random_token() override {
    static int next = 0;  // distinct across the fakes of one test, as two tabs' ids are
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016x", ++next);
    return buf;
  }
  void fetch(int request_id, const std::string& url) override { fetches.emplace_back(request_id, url); }
  void run_code(int request_id, const std::string& request_json) override {
    code_request_id = request_id;
    code_request_json = request_json;
    ++code_runs;
  }
  void download(const std::string& filename, const std::string& text) override { downloads.emplace_back(filename, text); }
  void pick_file() override { ++file_picks; }
  void open_url(const std::string& url) override { opened_urls.push_back(url); }
  void set_address(const std::string& fragment, const std::string& title, bool push) override {
    addresses.push_back({fragment, title, push});
  }
  std::string link_to(const std::string& fragment) override { return "https://dtx.example/course/" + fragment; }
  void publish_state(const std::string& json) override {
    state_json = json;
    ++states_published;
  }
  std::string today() override { return date; }
  int64_t now_unix() override { return unix_time; }
  double now_ms() override { return clock_ms; }

  // What a GET of `url` returns: an override, else the file under the source tree
  // (fonts are never found, so the app uses ImGui's built-in font).
  Response respond(const std::string& url) const {
    if (auto it = overrides.find(url); it != overrides.end()) return it->second;
    if (url.rfind("fonts/", 0) == 0) return {false, 404, ""};
    std::filesystem::path p = std::filesystem::path(DTX_SOURCE_DIR) / url;
    std::ifstream in(p, std::ios::binary);
    if (!in) return {false, 404, ""};
    std::stringstream ss;
    ss << in.rdbuf();
    return {true, 200, ss.str()};
  }

  // Answers every queued fetch, including those the answers cause (index.json -> packs).
  void answer_fetches(dtx::web::App& app) {
    while (!fetches.empty()) {
      auto batch = std::move(fetches);
      fetches.clear();
      for (const auto& [id, url] : batch) {
        Response r = respond(url);
        dtx::web::app_on_fetched(app, id, r.ok, r.status, std::move(r.body));
      }
    }
    // The page puts arrived packs in before its frames; here all of them at once.
    dtx::web::app_load_arrived_packs(app, 1e12);
  }

  static std::string read_source_file(const std::string& rel) {
    std::ifstream in(std::filesystem::path(DTX_SOURCE_DIR) / rel, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
};

}  // namespace dtx::testing
