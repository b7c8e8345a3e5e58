// The browser side of Platform: every call goes to the page (window.dtxGlue, web/shell/glue/)
// through the calls web/bridge/calls.mjs declares.
#pragma once

#include "platform/platform.h"

namespace dtx::web {

class WebPlatform : public Platform {
 public:
  std::optional<std::string> storage_get(const std::string& key) override;
  bool storage_set(const std::string& key, const std::string& value) override;
  bool storage_changed_elsewhere(const std::string& key) override;
  std::string random_token() override;
  void fetch(int request_id, const std::string& url) override;
  void run_code(int request_id, const std::string& request_json) override;
  void download(const std::string& filename, const std::string& text) override;
  void pick_file() override;
  void open_url(const std::string& url) override;
  void set_address(const std::string& fragment, const std::string& title, bool push) override;
  std::string link_to(const std::string& fragment) override;
  std::string build_version() override;
  void publish_state(const std::string& json) override;
  bool late_code_ready() override;
  void want_late_code() override;
  void lms_report(const std::string& json) override;
  std::string resolve_url(const std::string& base, const std::string& source) override;
  void load_image(int request_id, const std::string& url) override;
  unsigned raster_image(int request_id, int w, int h) override;
  void free_texture(unsigned texture) override;
  void forget_image(int request_id) override;
  std::string today() override;
  int64_t now_unix() override;
  double now_ms() override;
};

}  // namespace dtx::web
