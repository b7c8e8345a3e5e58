#include "platform/platform_web.h"

#include "bridge.h"

// Every call goes to the page through the generated bridge (web/bridge/calls.mjs).
namespace dtx::web {

std::optional<std::string> WebPlatform::storage_get(const std::string& key) { return to_page::storage_get(key); }
bool WebPlatform::storage_set(const std::string& key, const std::string& value) { return to_page::storage_set(key, value); }
bool WebPlatform::storage_changed_elsewhere(const std::string& key) { return to_page::storage_changed(key); }
std::string WebPlatform::random_token() { return to_page::random_token().value_or("0"); }
void WebPlatform::fetch(int id, const std::string& url) { to_page::fetch(id, url); }
void WebPlatform::run_code(int id, const std::string& json) { to_page::run_code(id, json); }
void WebPlatform::download(const std::string& name, const std::string& text) { to_page::download(name, text); }
void WebPlatform::pick_file() { to_page::pick_file(); }
void WebPlatform::open_url(const std::string& url) { to_page::open_url(url); }
void WebPlatform::set_address(const std::string& fragment, const std::string& title, bool push) {
  to_page::set_address(fragment, title, push);
}
std::string WebPlatform::link_to(const std::string& fragment) { return to_page::link_to(fragment).value_or(fragment); }
std::string WebPlatform::build_version() { return to_page::build_version().value_or(""); }
void WebPlatform::publish_state(const std::string& json) { to_page::publish_state(json); }
bool WebPlatform::late_code_ready() { return to_page::late_code_ready(); }
void WebPlatform::want_late_code() { to_page::want_late_code(); }
void WebPlatform::lms_report(const std::string& json) { to_page::lms_report(json); }
std::string WebPlatform::resolve_url(const std::string& base, const std::string& source) {
  return to_page::resolve_url(base, source).value_or("");
}
void WebPlatform::load_image(int id, const std::string& url) { to_page::load_image(id, url); }
unsigned WebPlatform::raster_image(int id, int w, int h) { return to_page::raster_image(id, w, h); }
void WebPlatform::free_texture(unsigned texture) { to_page::free_texture(texture); }
void WebPlatform::forget_image(int id) { to_page::forget_image(id); }
std::string WebPlatform::today() { return to_page::today().value_or("1970-01-01"); }
int64_t WebPlatform::now_unix() { return static_cast<int64_t>(to_page::now_unix()); }
double WebPlatform::now_ms() { return to_page::now_ms(); }

}  // namespace dtx::web
