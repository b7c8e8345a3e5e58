// Pictures in pack texts (web/ui/images.h): where a source is read from, what is refused and
// why, the size an image is drawn at, when it is drawn into a texture again, and the limits that
// keep a pack from filling the GPU's memory. The browser's half (loading, rasterising) is a
// recording fake here; tests/e2e/run.mjs ("images: ...") runs the real one.
#include <nlohmann/json.hpp>
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "fake_platform.h"
#include "ui/images.h"

using dtx::web::PackImage;
using dtx::web::PackImages;

namespace {

std::string sz(ImVec2 v) { return std::to_string(static_cast<int>(v.x)) + "x" + std::to_string(static_cast<int>(v.y)); }

class ImagePlatform : public dtx::testing::FakePlatform {
 public:
  std::vector<std::pair<int, std::string>> loads;
  std::vector<std::tuple<int, int, int>> rasters;  // request, w, h
  std::vector<unsigned> freed;
  std::vector<int> forgotten;
  unsigned next_texture = 100;
  bool raster_fails = false;

  void load_image(int id, const std::string& url) override { loads.emplace_back(id, url); }
  unsigned raster_image(int id, int w, int h) override {
    rasters.emplace_back(id, w, h);
    return raster_fails ? 0 : next_texture++;
  }
  void free_texture(unsigned t) override { freed.push_back(t); }
  void forget_image(int id) override { forgotten.push_back(id); }
};

struct Images : ::testing::Test {
  ImagePlatform platform;
  PackImages images;
  void SetUp() override {
    images.set_platform(&platform);
    images.begin_frame(1);
  }
  // An image of the course pack 00-x.json, loaded at `w` x `h` CSS pixels.
  PackImage& loaded(const std::string& source, float w, float h, bool fills = false) {
    PackImage& img = images.get(std::string("exercises/00-x.json"), source);
    images.on_loaded(img.request, w, h, fills);
    return img;
  }
};

}  // namespace

TEST_F(Images, ReadNextToThePackAndLoadedOnce) {
  PackImage& a = images.get(std::string("exercises/00-x.json"), "img/ring.svg");
  EXPECT_EQ(a.state, PackImage::State::Loading);
  EXPECT_EQ(a.url, "exercises/img/ring.svg");
  ASSERT_EQ(platform.loads.size(), 1u);
  EXPECT_EQ(platform.loads[0].second, "exercises/img/ring.svg");
  // The same picture from another text, or another pack in the same folder: one load.
  EXPECT_EQ(&images.get(std::string("exercises/00-x.json"), "img/ring.svg"), &a);
  EXPECT_EQ(&images.get(std::string("exercises/05-y.json"), "img/ring.svg"), &a);
  // A ?pack= preview's images are read next to its URL; an https one from where it says.
  EXPECT_EQ(images.get(std::string("drafts/mine.json"), "fig.png").url, "drafts/fig.png");
  EXPECT_EQ(images.get(std::nullopt, "https://example.org/a.png").url, "https://example.org/a.png");
  EXPECT_EQ(platform.loads.size(), 3u);
}

TEST_F(Images, WhatThePageNeverAsksForFailsWithItsReason) {
  PackImage& data = images.get(std::string("exercises/00-x.json"), "data:image/png;base64,AAAA");
  EXPECT_EQ(data.state, PackImage::State::Failed);
  EXPECT_EQ(data.reason, "image not shown: data:image/png;base64,AAAA is not an http, https or relative address");
  PackImage& js = images.get(std::string("exercises/00-x.json"), "java\tscript:alert(1)");
  EXPECT_EQ(js.state, PackImage::State::Failed);
  // A dropped file has no folder: its relative images say so rather than guess one.
  PackImage& dropped = images.get(std::nullopt, "img/ring.svg");
  EXPECT_EQ(dropped.state, PackImage::State::Failed);
  EXPECT_NE(dropped.reason.find("img/ring.svg is a path relative to the pack's folder, and a dropped file has no folder"),
            std::string::npos)
      << dropped.reason;
  EXPECT_TRUE(platform.loads.empty()) << "nothing refused is asked for";
}

TEST_F(Images, TheBrowsersAnswers) {
  PackImage& a = images.get(std::string("exercises/00-x.json"), "img/a.png");
  images.on_failed(a.request, "image could not be loaded: exercises/img/a.png");
  EXPECT_EQ(a.state, PackImage::State::Failed);
  EXPECT_EQ(a.reason, "image could not be loaded: exercises/img/a.png");
  EXPECT_EQ(platform.forgotten, std::vector<int>{a.request});
  images.on_loaded(a.request, 10, 10, false);  // too late: it stays failed
  EXPECT_EQ(a.state, PackImage::State::Failed);
  PackImage& b = loaded("img/b.svg", 0, 0);
  EXPECT_EQ(b.state, PackImage::State::Failed);
  EXPECT_EQ(b.reason, "image could not be loaded: exercises/img/b.svg (it has no size)");
  images.on_loaded(12345, 10, 10, false);  // an answer for nothing we asked: ignored
  // A pack changed (make serve): failed images are asked for again, loaded ones are kept.
  PackImage& c = loaded("img/c.png", 10, 10);
  const size_t loads = platform.loads.size();
  images.forget_failed();
  EXPECT_EQ(images.size(), 1u);
  EXPECT_EQ(c.state, PackImage::State::Loaded);
  PackImage& again = images.get(std::string("exercises/00-x.json"), "img/a.png");
  EXPECT_EQ(again.state, PackImage::State::Loading);
  EXPECT_EQ(platform.loads.size(), loads + 1);
}

TEST_F(Images, DrawnAtNaturalSizeTimesDprAtMostAndNeverWiderThanTheColumn) {
  PackImage& small = loaded("img/small.png", 40, 20);
  EXPECT_EQ(sz(images.size_for(small, 600, 1)), "40x20");
  EXPECT_EQ(sz(images.size_for(small, 600, 2)), "80x40") << "device pixels: natural size x dpr";
  EXPECT_EQ(sz(images.size_for(small, 30, 1)), "30x15") << "a narrow column scales it down, aspect kept";
  // An SVG without a width and height fills the column, whatever its made-up size.
  PackImage& unsized = loaded("img/unsized.svg", 400, 100, true);
  EXPECT_EQ(sz(images.size_for(unsized, 600, 1)), "600x150");
  EXPECT_EQ(sz(images.size_for(unsized, 600, 3)), "600x150");
  // Past the texture limit on either side: scaled down to it.
  PackImage& tall = loaded("img/tall.png", 100, 9000);
  EXPECT_EQ(sz(images.size_for(tall, 600, 1)), "45x4096");
  PackImage& wide = loaded("img/wide.png", 10000, 100);
  EXPECT_EQ(sz(images.size_for(wide, 6000, 1)), "4096x40");
  // Not loaded yet: no size.
  PackImage& pending = images.get(std::string("exercises/00-x.json"), "img/later.png");
  EXPECT_EQ(sz(images.size_for(pending, 600, 1)), "0x0");
}

TEST_F(Images, DrawnIntoATextureAgainOnlyWhenItsSizeChanges) {
  PackImage& a = loaded("img/a.svg", 300, 100);
  const unsigned t1 = images.texture_for(a, ImVec2(300, 100));
  EXPECT_EQ(t1, 100u);
  EXPECT_EQ(images.texture_for(a, ImVec2(301, 100)), t1) << "a pixel of rounding is not worth a redraw";
  EXPECT_EQ(platform.rasters.size(), 1u);
  // Another size (a resize, another text size): drawn again, the old texture freed.
  const unsigned t2 = images.texture_for(a, ImVec2(600, 200));
  EXPECT_NE(t2, t1);
  EXPECT_EQ(platform.rasters.back(), std::make_tuple(a.request, 600, 200));
  EXPECT_EQ(platform.freed, std::vector<unsigned>{t1});
  EXPECT_EQ(a.tex_w, 600);
  // A texture that cannot be made: the image fails with a reason, and the browser lets go.
  platform.raster_fails = true;
  EXPECT_EQ(images.texture_for(a, ImVec2(100, 33)), 0u);
  EXPECT_EQ(a.state, PackImage::State::Failed);
  EXPECT_EQ(a.reason, "image could not be drawn: exercises/img/a.svg");
  EXPECT_EQ(a.texture, 0u);
  EXPECT_EQ(platform.freed.back(), t2);
}

TEST_F(Images, AtMost64ImagesTheLeastRecentlyShownGoFirst) {
  std::vector<PackImage*> first;
  for (size_t i = 0; i < PackImages::kMaxImages; ++i) first.push_back(&loaded("img/" + std::to_string(i) + ".png", 10, 10));
  images.texture_for(*first[0], ImVec2(10, 10));
  EXPECT_EQ(images.size(), PackImages::kMaxImages);
  // In the same frame a 65th is refused: every one kept is on this screen.
  PackImage& over = images.get(std::string("exercises/00-x.json"), "img/extra.png");
  EXPECT_EQ(over.state, PackImage::State::Failed);
  EXPECT_EQ(over.reason, "image not shown: this screen already shows 64 images, the most a page keeps");
  EXPECT_EQ(images.size(), PackImages::kMaxImages);
  // Next frame the screen shows image 5 and a new one: the one shown least recently goes.
  images.begin_frame(2);
  images.get(std::string("exercises/00-x.json"), "img/5.png");
  images.begin_frame(3);
  const int gone = first[0]->request;
  PackImage& fresh = images.get(std::string("exercises/00-x.json"), "img/new.png");
  EXPECT_EQ(fresh.state, PackImage::State::Loading);
  EXPECT_EQ(images.size(), PackImages::kMaxImages);
  EXPECT_EQ(platform.forgotten.back(), gone) << "the browser lets go of the dropped image";
  EXPECT_EQ(platform.freed.back(), 100u) << "and of its texture";
}

TEST_F(Images, AllTexturesTogetherStayUnderTheirBudget) {
  // The budget is 32 Mi pixels (33.5 million): a, b and c together are 52 rows over.
  PackImage& a = loaded("img/a.png", 4096, 4096);
  PackImage& b = loaded("img/b.png", 4096, 2048);
  PackImage& c = loaded("img/c.png", 4096, 2100);
  EXPECT_NE(images.texture_for(a, ImVec2(4096, 4096)), 0u);
  EXPECT_NE(images.texture_for(b, ImVec2(4096, 2048)), 0u);
  EXPECT_EQ(images.texture_pixels(), 4096.0 * 6144);
  EXPECT_EQ(images.texture_for(c, ImVec2(4096, 2100)), 0u) << "all three on one screen do not fit";
  EXPECT_EQ(c.state, PackImage::State::Failed);
  EXPECT_NE(c.reason.find("more than 33 million pixels of GPU memory"), std::string::npos) << c.reason;
  // On the next screen d and e are shown: the textures of a and b make room for them, and the
  // two fill the budget exactly.
  images.begin_frame(2);
  PackImage& d = loaded("img/d.png", 4096, 4096);
  PackImage& e = loaded("img/e.png", 4096, 4096);
  EXPECT_NE(images.texture_for(d, ImVec2(4096, 4096)), 0u);
  EXPECT_NE(images.texture_for(e, ImVec2(4096, 4096)), 0u);
  EXPECT_EQ(a.texture, 0u);
  EXPECT_EQ(b.texture, 0u);
  EXPECT_EQ(a.state, PackImage::State::Loaded) << "drawn again when it is shown again";
  EXPECT_LE(images.texture_pixels(), PackImages::kMaxPixels);
}

TEST_F(Images, TheTestHookListsWhatThisFrameDrew) {
  PackImage& a = loaded("img/a.png", 40, 20);
  images.texture_for(a, ImVec2(80, 40));
  images.note_drawn(a, ImVec2(80, 40), "A red bar", 1200);
  PackImage& b = images.get(std::string("exercises/00-x.json"), "img/b.png");
  images.on_failed(b.request, "");
  images.note_drawn(b, ImVec2(300, 50), "", 1200);
  nlohmann::json s = images.state(2);
  ASSERT_EQ(s.size(), 2u) << s.dump();
  EXPECT_EQ(s[0]["url"], "exercises/img/a.png");
  EXPECT_EQ(s[0]["state"], "loaded");
  EXPECT_EQ(s[0]["w"], 40) << "CSS pixels";
  EXPECT_EQ(s[0]["h"], 20);
  EXPECT_EQ(s[0]["column"], 600);
  EXPECT_EQ(s[0]["texture"], nlohmann::json::array({80, 40}));
  EXPECT_EQ(s[0]["alt"], "A red bar");
  EXPECT_EQ(s[1]["state"], "failed");
  EXPECT_EQ(s[1]["reason"], "image could not be loaded: exercises/img/b.png");
  images.begin_frame(2);
  EXPECT_EQ(images.state(2).size(), 0u) << "nothing drawn in the new frame yet";
}
