// What the views need from the world outside ImGui, behind one small interface, so that the
// same views run in the browser (platform_web.cpp, through web/bridge/calls.mjs) and natively in the
// headless-UI test (a fake). Results of asynchronous calls come back through App::on_*.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace dtx::web {

class Platform {
 public:
  virtual ~Platform() = default;

  // localStorage: progress and settings. storage_set is false when nothing was written
  // (storage full or turned off); the key then keeps what it held.
  virtual std::optional<std::string> storage_get(const std::string& key) = 0;
  virtual bool storage_set(const std::string& key, const std::string& value) = 0;
  // Whether another tab or window of this site wrote `key` since the last call (the window's
  // `storage` event, which never fires for the page's own writes).
  virtual bool storage_changed_elsewhere(const std::string& key) = 0;
  // 16 random hex digits, for this page load's writer id in the progress record.
  virtual std::string random_token() = 0;

  // A GET relative to the page; the answer arrives as App::on_fetched(request_id, ...).
  virtual void fetch(int request_id, const std::string& url) = 0;

  // Runs student code (the engine's CodeRunRequest as JSON) in a sandbox with its time
  // limit; the CodeRunResult JSON arrives as App::on_code_result(request_id, ...).
  virtual void run_code(int request_id, const std::string& request_json) = 0;

  // Saves a text file through the browser's download.
  virtual void download(const std::string& filename, const std::string& text) = 0;
  // Opens the file picker; the chosen file arrives as App::on_file(...).
  virtual void pick_file() = 0;
  virtual void open_url(const std::string& url) = 0;

  // The address bar (route.h): `fragment` ("#/ex/ring.volume") and the tab's title. push: a
  // new history entry (another screen); otherwise the current entry is replaced.
  virtual void set_address(const std::string& fragment, const std::string& title, bool push) = 0;
  // The page's own URL with `fragment` as its fragment (what "Copy link" copies).
  virtual std::string link_to(const std::string& fragment) = 0;
  // The site's build (its version stamp), "" when it has none (a development build).
  virtual std::string build_version() { return ""; }

  // Pictures in pack texts (ui/images.h). resolve_url: the absolute address `source` names,
  // read against `base` (a page-relative or absolute URL of the pack; "" for the page), or ""
  // when it is none. load_image: the browser loads `url` (an http(s) address resolve_url gave)
  // and answers with App's PackImages::on_loaded / on_failed. raster_image: a GL texture (its
  // name) holding that loaded image drawn at w x h device pixels, 0 when it cannot be made.
  // The defaults (the headless-UI test) join paths as strings and load nothing.
  virtual std::string resolve_url(const std::string& base, const std::string& source) {
    if (source.find("://") != std::string::npos || (!source.empty() && source[0] == '/')) return source;
    return base.substr(0, base.find_last_of('/') + 1) + source;
  }
  virtual void load_image(int request_id, const std::string& url) {}
  virtual unsigned raster_image(int request_id, int w, int h) { return 0; }
  virtual void free_texture(unsigned texture) {}
  virtual void forget_image(int request_id) {}

  // The page's engine comes in two parts (scripts/split-wasm.mjs): dtx.wasm runs the course
  // map's start; dtx.deferred.wasm has the rest, packs' parsing and grading among it.
  // late_code_ready: the second part is in (true where there is one part, as in the native
  // test). want_late_code: it is needed now (a pack arrived); it is fetched and compiled without
  // blocking, and the page wakes when it is in. Calling into it before only costs a blocking
  // load (web/shell/glue/late-code.js, loadSplitModule), so these keep that off the main path.
  virtual bool late_code_ready() { return true; }
  virtual void want_late_code() {}

  // An assignment run in an LMS (web/course_lms.cpp): the report to write through the LMS's
  // SCORM API (JSON: engine/scorm.h's values), answered by from_page::lms_sent.
  virtual void lms_report(const std::string& json) {}

  // The test hook: the state of the frame just drawn (JSON), for window.dtx.
  virtual void publish_state(const std::string& json) = 0;

  // Student's local date "YYYY-MM-DD" (streaks are counted in local days) and unix time.
  virtual std::string today() = 0;
  virtual int64_t now_unix() = 0;
  virtual double now_ms() = 0;  // monotonic, for animations and timeouts
};

}  // namespace dtx::web
