#include "ui/images.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "markdown_links.h"
#include "platform/platform.h"

namespace dtx::web {

namespace {

void fail(PackImage& img, std::string reason) {
  img.state = PackImage::State::Failed;
  img.reason = std::move(reason);
}

const char* state_name(PackImage::State s) {
  switch (s) {
    case PackImage::State::Loading: return "loading";
    case PackImage::State::Loaded: return "loaded";
    case PackImage::State::Failed: return "failed";
  }
  return "?";
}

}  // namespace

std::string PackImages::resolve(const std::optional<std::string>& base, const std::string& source) {
  std::string key = base.value_or("") + "\n" + source;
  if (auto it = resolved_.find(key); it != resolved_.end()) return it->second;
  if (resolved_.size() > 1024) resolved_.clear();  // a bound, not a cache policy
  std::string url = platform_ ? platform_->resolve_url(base.value_or(""), source) : std::string();
  resolved_[key] = url;
  return url;
}

PackImage& PackImages::get(const std::optional<std::string>& base, const std::string& source) {
  // Sources the page never asks for: failed at once, each cached under its own key.
  std::string key, refused;
  const bool relative = link_scheme(source).empty() && source.rfind("//", 0) != 0;
  if (!image_scheme_allowed(source)) {
    key = "refused\n" + source;
    refused = "image not shown: " + source + " is not an http, https or relative address";
  } else if (relative && !base) {
    key = "no-folder\n" + source;
    refused = "image not shown: " + source + " is a path relative to the pack's folder, and a dropped file has "
              "no folder; open the pack with ?pack=URL to see its images";
  } else {
    key = resolve(base, source);
    if (key.empty()) {
      key = "refused\n" + source;
      refused = "image not shown: " + source + " is not an address";
    }
  }
  auto it = images_.find(key);
  if (it == images_.end()) {
    if (images_.size() >= kMaxImages) {
      // The least recently laid out image that this frame does not show makes room.
      auto oldest = images_.end();
      for (auto i = images_.begin(); i != images_.end(); ++i)
        if (i->second.used_frame != frame_ && (oldest == images_.end() || i->second.used_frame < oldest->second.used_frame))
          oldest = i;
      if (oldest == images_.end()) {
        overflow_ = PackImage();
        overflow_.url = source;
        fail(overflow_, "image not shown: this screen already shows " + std::to_string(kMaxImages) +
                            " images, the most a page keeps");
        overflow_.used_frame = frame_;
        return overflow_;
      }
      release(oldest->second);
      images_.erase(oldest);
    }
    PackImage img;
    if (!refused.empty()) {
      img.url = source;
      fail(img, refused);
    } else {
      img.url = key;
      img.request = next_request_++;
      if (platform_) platform_->load_image(img.request, img.url);
    }
    it = images_.emplace(key, std::move(img)).first;
  }
  it->second.used_frame = frame_;
  return it->second;
}

ImVec2 PackImages::size_for(const PackImage& img, float column_w, float dpr) const {
  if (img.state != PackImage::State::Loaded || img.natural_w <= 0 || img.natural_h <= 0 || column_w <= 0) return ImVec2(0, 0);
  // Natural size in device pixels (CSS pixels x the pixel ratio), or the column's width for
  // an SVG that gives no size; then down to the column and the texture limit, aspect kept.
  float w = img.fills_column ? column_w : img.natural_w * std::max(dpr, 0.1f);
  float h = w * img.natural_h / img.natural_w;
  float scale = std::min({1.0f, column_w / w, static_cast<float>(kMaxSide) / w, static_cast<float>(kMaxSide) / h});
  // Whole pixels, never past the column (the small allowance absorbs float error: 4096 must
  // not come out 4095).
  w = std::floor(w * scale + 1e-3f);
  h = std::floor(h * scale + 1e-3f);
  return ImVec2(std::max(1.0f, w), std::max(1.0f, h));
}

double PackImages::texture_pixels() const {
  double n = 0;
  for (const auto& [url, img] : images_) n += static_cast<double>(img.tex_w) * img.tex_h;
  return n;
}

unsigned PackImages::texture_for(PackImage& img, ImVec2 size) {
  if (img.state != PackImage::State::Loaded || !platform_) return 0;
  const int w = std::clamp(static_cast<int>(std::lround(size.x)), 1, kMaxSide);
  const int h = std::clamp(static_cast<int>(std::lround(size.y)), 1, kMaxSide);
  // Within a pixel of the drawn size: keep it (a rounding difference is not worth a redraw).
  if (img.texture && std::abs(img.tex_w - w) <= 1 && std::abs(img.tex_h - h) <= 1) return img.texture;
  const double mine = static_cast<double>(img.tex_w) * img.tex_h;
  if (texture_pixels() - mine + static_cast<double>(w) * h > kMaxPixels) {
    // Textures of images not on this screen go first; they are drawn again when they return.
    for (auto& [url, other] : images_)
      if (&other != &img && other.texture && other.used_frame != frame_) {
        platform_->free_texture(other.texture);
        other.texture = 0;
        other.tex_w = other.tex_h = 0;
      }
    if (texture_pixels() - mine + static_cast<double>(w) * h > kMaxPixels) {
      fail(img, "image not shown: with it the images on this screen would take more than " +
                    std::to_string(static_cast<long long>(kMaxPixels / 1e6)) + " million pixels of GPU memory: " + img.url);
      release(img);
      return 0;
    }
  }
  const unsigned t = platform_->raster_image(img.request, w, h);
  if (t == 0) {
    fail(img, "image could not be drawn: " + img.url);
    release(img);
    return 0;
  }
  if (img.texture) platform_->free_texture(img.texture);
  img.texture = t;
  img.tex_w = w;
  img.tex_h = h;
  return t;
}

void PackImages::note_drawn(PackImage& img, ImVec2 size, const std::string& alt, float column_w) {
  img.drawn_frame = frame_;
  img.drawn_size = size;
  img.column_w = column_w;
  img.alt = alt;
}

PackImage* PackImages::by_request(int request) {
  if (request == 0) return nullptr;
  for (auto& [url, img] : images_)
    if (img.request == request) return &img;
  return nullptr;
}

void PackImages::on_loaded(int request, float css_w, float css_h, bool fills_column) {
  PackImage* img = by_request(request);
  if (!img || img->state != PackImage::State::Loading) return;  // dropped meanwhile
  if (!(css_w > 0 && css_h > 0 && std::isfinite(css_w) && std::isfinite(css_h))) {
    fail(*img, "image could not be loaded: " + img->url + " (it has no size)");
    release(*img);
    return;
  }
  img->state = PackImage::State::Loaded;
  img->natural_w = css_w;
  img->natural_h = css_h;
  img->fills_column = fills_column;
}

void PackImages::on_failed(int request, const std::string& reason) {
  PackImage* img = by_request(request);
  if (!img || img->state != PackImage::State::Loading) return;
  fail(*img, reason.empty() ? "image could not be loaded: " + img->url : reason);
  release(*img);
}

void PackImages::forget_failed() {
  for (auto it = images_.begin(); it != images_.end();) {
    if (it->second.state == PackImage::State::Failed) it = images_.erase(it);
    else ++it;
  }
  overflow_ = PackImage();
}

void PackImages::release(PackImage& img) {
  if (!platform_) return;
  if (img.texture) platform_->free_texture(img.texture);
  img.texture = 0;
  img.tex_w = img.tex_h = 0;
  if (img.request) platform_->forget_image(img.request);
}

nlohmann::json PackImages::state(float dpr) const {
  const float k = dpr > 0 ? dpr : 1.0f;
  auto entry = [&](const PackImage& img) {
    nlohmann::json e = {{"url", img.url},
                        {"state", state_name(img.state)},
                        {"w", std::round(img.drawn_size.x / k * 100) / 100},
                        {"h", std::round(img.drawn_size.y / k * 100) / 100},
                        {"column", std::round(img.column_w / k * 100) / 100},
                        {"alt", img.alt}};
    if (!img.reason.empty()) e["reason"] = img.reason;
    if (img.state == PackImage::State::Loaded) {
      e["natural"] = {img.natural_w, img.natural_h};
      e["texture"] = {img.tex_w, img.tex_h};
      if (img.fills_column) e["fills_column"] = true;
    }
    return e;
  };
  nlohmann::json out = nlohmann::json::array();
  for (const auto& [url, img] : images_)
    if (img.drawn_frame == frame_) out.push_back(entry(img));
  if (overflow_.drawn_frame == frame_ && overflow_.used_frame == frame_) out.push_back(entry(overflow_));
  return out;
}

}  // namespace dtx::web
