// Pictures in pack Markdown (![alt](src)): the browser loads them, the engine draws them from
// GL textures.
//
// A source is read against its pack's own address (ui/markdown.h MdStyle::image_base): a course
// pack's folder under the page (exercises/img/ring.svg for img/ring.svg in exercises/01-x.json),
// a ?pack= preview's URL, or, for an http(s) source, nothing. A dropped file has no folder, and
// its relative images say so instead of guessing one. Only http, https and relative sources
// are asked for (markdown_links.h image_scheme_allowed); the page's Content-Security-Policy
// (img-src 'self') then lets the browser fetch same-origin ones only.
//
// The browser loads an image once (Platform::load_image) and reports its natural size in CSS
// pixels; the engine then asks for it drawn at the size it is shown (Platform::raster_image),
// in device pixels: never wider than the text column, never larger than natural size x device
// pixel ratio, aspect kept. An SVG is drawn again when that size changes (a resize, another
// text size), so it stays sharp; an SVG without a width and height fills the text column.
//
// Limits, so that a pack cannot exhaust the GPU's memory: at most kMaxImages images are kept
// (the least recently drawn are dropped first), each texture at most kMaxSide pixels a side
// (larger ones are drawn smaller), and all textures together at most kMaxPixels pixels.
// Loading never holds the frame loop: a frame is drawn when the browser reports.
#pragma once

#include <map>
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "imgui.h"

namespace dtx::web {

class Platform;

struct PackImage {
  enum class State { Loading, Loaded, Failed };
  std::string url;      // the resolved address (the source as written when it was refused)
  State state = State::Loading;
  std::string reason;   // Failed: what the page shows under the alt text
  float natural_w = 0, natural_h = 0;  // CSS pixels (fills_column: only their ratio counts)
  bool fills_column = false;           // an SVG with no width and height
  unsigned texture = 0;                // GL texture name, 0 while there is none
  int tex_w = 0, tex_h = 0;            // its size in device pixels
  int request = 0;                     // the browser's handle for the loaded image
  long used_frame = -1;                // the frame it was last laid out in
  // The last frame's drawing, for the test hook: its size in device pixels and its alt text.
  long drawn_frame = -1;
  ImVec2 drawn_size;
  float column_w = 0;
  std::string alt;
};

class PackImages {
 public:
  static constexpr size_t kMaxImages = 64;
  static constexpr int kMaxSide = 4096;
  static constexpr double kMaxPixels = 32.0 * 1024 * 1024;  // 128 MB of RGBA textures

  void set_platform(Platform* p) { platform_ = p; }
  // Before a frame's drawing: images laid out from now on are this frame's.
  void begin_frame(long frame) { frame_ = frame; }

  // The image `source` of a text whose pack is at `base` (nullopt: a dropped file, which has no
  // folder). Starts loading it the first time; never null. Valid until the next get().
  PackImage& get(const std::optional<std::string>& base, const std::string& source);

  // The size to draw a loaded image at, in device pixels, in a column `column_w` wide;
  // (0, 0) while its size is unknown.
  ImVec2 size_for(const PackImage& img, float column_w, float dpr) const;
  // Its texture at `size` (device pixels), drawn again when the size changed: 0 when there is
  // none (the image then fails with a reason).
  unsigned texture_for(PackImage& img, ImVec2 size);
  // What was drawn for it this frame, in a column `column_w` wide (the test hook lists it).
  void note_drawn(PackImage& img, ImVec2 size, const std::string& alt, float column_w);

  // The browser's answers.
  void on_loaded(int request, float css_w, float css_h, bool fills_column);
  void on_failed(int request, const std::string& reason);
  // Images that failed are asked for again when next shown: a pack changed under `make serve`
  // (its author may have added the missing file, or fixed the path).
  void forget_failed();

  // The images drawn in the last frame: url, state, drawn size and column in CSS pixels, alt,
  // reason, natural and texture size.
  nlohmann::json state(float dpr) const;
  size_t size() const { return images_.size(); }
  double texture_pixels() const;

 private:
  PackImage* by_request(int request);
  void release(PackImage& img);  // its texture and the browser's copy
  std::string resolve(const std::optional<std::string>& base, const std::string& source);

  Platform* platform_ = nullptr;
  long frame_ = 0;
  int next_request_ = 1;
  std::map<std::string, PackImage> images_;        // by resolved URL
  std::map<std::string, std::string> resolved_;    // base + "\n" + source -> URL ("" refused)
  PackImage overflow_;                             // past kMaxImages in one frame
};

}  // namespace dtx::web
