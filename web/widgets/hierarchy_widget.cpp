// The bandwidth hierarchy: a zoom from one GPU out to Meta's 24K-GPU cluster (GPU, server,
// rack, pod, cluster), drawn as one nested picture that the camera moves over, and a log-scale
// bar chart of the bandwidth a GPU gets at each rung with the time to move the chosen bytes.
// Every figure comes from engine/sim/roofline (run_hierarchy).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "ui/controls.h"
#include "ui/ui_env.h"
#include "sim/roofline.h"
#include "widgets/widgets.h"

namespace dtx::web {

namespace {

constexpr int kTop = sim::kZoomLevels - 1;  // the cluster

// Fill of a box at each level, light outside to dark inside, so nesting reads at a glance.
// (ui/theme.h palette().level: GPU, server, rack, pod, cluster)
#define kLevelFill (palette().level)
static_assert(sim::kZoomLevels == 5, "one fill per level in the palette");

std::string printf_str(const char* f, double a) {
  char buf[256];
  std::snprintf(buf, sizeof buf, f, a);
  return buf;
}

std::string with_commas(long n) {
  const std::string digits = std::to_string(n);
  std::string s;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) s += ',';
    s += digits[i];
  }
  return s;
}

float smoothstep(float t) { return t * t * (3 - 2 * t); }

struct Box {
  float x0, y0, x1, y1;
  float w() const { return x1 - x0; }
  float h() const { return y1 - y0; }
};

// The grid a level's children sit in: the factorisation of their count closest to the shape
// the level has in a real data centre. A server's 8 GPUs are a 4×2 board, a rack stacks its
// servers, a pod's 192 racks stand in 16 rows of 12, the cluster's 8 pods are 4×2: each level
// then comes out about as wide as the picture, so every zoom fills it.
void grid_for(int level, int n, int* cols, int* rows) {
  static const double kColsPerRow[sim::kZoomLevels] = {1, 2, 0, 0.75, 2};  // 0: one column
  *cols = 1;
  *rows = n;
  if (kColsPerRow[level] == 0) return;
  double best = 1e30;
  for (int c = 1; c <= n; ++c) {
    if (n % c) continue;
    double d = std::fabs(std::log(static_cast<double>(c) / (n / c) / kColsPerRow[level]));
    if (d < best) best = d, *cols = c, *rows = n / c;
  }
}

// Where a box's children go: inset by a margin and a band at the top for its name.
Box inner_of(const Box& b) {
  float pad = 0.05f * std::min(b.w(), b.h());
  return {b.x0 + pad, b.y0 + pad + 0.09f * b.h(), b.x1 - pad, b.y1 - pad};
}

Box child_box(const Box& inner, int cols, int rows, int i) {
  float cw = inner.w() / cols, ch = inner.h() / rows;
  int c = i % cols, r = i / cols;
  return {inner.x0 + c * cw, inner.y0 + r * ch, inner.x0 + (c + 1) * cw, inner.y0 + (r + 1) * ch};
}

// World -> screen: a uniform scale and an offset.
struct Camera {
  float s = 1, ox = 0, oy = 0;
  ImVec2 map(float x, float y) const { return ImVec2(ox + x * s, oy + y * s); }
};

class HierarchyWidget : public Widget {
 public:
  void set_inputs(const sim::WidgetValues& v) override {
    values_ = v;
    player_.steps = kTop;
    player_.playing = false;
    player_.pos = std::clamp(values_.get_int("level"), 0, kTop);
    recompute();
  }
  const sim::WidgetValues& inputs() const override { return values_; }

  bool draw(const UiEnv& ui, double dt) override {
    const bool animating = draw_player(ui, player_, "hierarchy", dt);
    values_.set("level", shown_level());
    if (!h_.error.empty()) {
      text_colored(color::wrong(), h_.error.c_str());
      return animating;
    }
    draw_level_buttons(ui);
    draw_header(ui);
    draw_zoom(ui);
    draw_bars(ui);
    ImGui::Spacing();
    if (draw_inputs(ui, values_, "gpu,bytes,oversub")) recompute();
    return animating;
  }

  std::string describe() const override {
    if (!h_.error.empty()) return h_.error;
    const sim::ZoomCounts& z = h_.zoom[shown_level()];
    std::string o = std::string(z.name) + ": " + std::to_string(z.gpus) + (z.gpus == 1 ? " GPU (" : " GPUs (") + h_.gpu->name + "), " +
                    format_bytes(z.memory_bytes) + " of memory, " + format_si(z.peak_flops, "FLOP/s") +
                    " dense BF16. Its slowest link: " + h_.links[z.link].link + ". Moving " + format_bytes(h_.bytes) + ":";
    for (size_t i = 0; i < h_.links.size(); ++i) {
      const auto& l = h_.links[i];
      o += std::string(i ? ";" : "") + " " + l.name + " " + format_si(l.bw_gbs * 1e9, "B/s") + ", " + format_seconds(l.time_s);
    }
    return o + ".";
  }

  std::string state_json() const override {
    std::string s = "{\"kind\":\"hierarchy\"";
    s += ",\"step\":" + std::to_string(player_.step()) + ",\"steps\":" + std::to_string(player_.steps);
    s += std::string(",\"playing\":") + (player_.playing ? "true" : "false");
    if (!h_.error.empty()) return s + ",\"error\":" + json_str(h_.error) + "}";
    const sim::ZoomCounts& z = h_.zoom[shown_level()];
    s += ",\"level\":" + json_str(z.id) + ",\"gpu\":" + json_str(h_.gpu->id);
    s += num(",\"bytes\":", h_.bytes) + num(",\"oversub\":", h_.oversubscription);
    s += num(",\"gpus\":", static_cast<double>(z.gpus)) + num(",\"memory_bytes\":", z.memory_bytes) +
         num(",\"peak_flops\":", z.peak_flops) + ",\"link\":" + json_str(h_.links[z.link].id);
    s += num(",\"nvlink_over_network\":", h_.nvlink_over_network);
    s += ",\"links\":[";
    for (size_t i = 0; i < h_.links.size(); ++i) {
      const auto& l = h_.links[i];
      s += std::string(i ? "," : "") + "{\"id\":" + json_str(l.id) + num(",\"bw_gbs\":", l.bw_gbs) +
           num(",\"ratio_to_hbm\":", l.ratio_to_hbm) + num(",\"time_s\":", l.time_s) + "}";
    }
    return s + "]}";
  }

 private:
  sim::WidgetValues values_;
  sim::Hierarchy h_;
  Player player_;
  std::vector<std::string> headers_;    // per zoom level
  std::vector<std::string> link_rows_;  // per link
  std::string note_;
  int nodes_drawn_ = 0;

  static std::string num(const char* key, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return key + std::string(buf);
  }

  // The level the figures describe: the nearest one while the camera moves between two.
  int shown_level() const { return std::clamp(static_cast<int>(std::lround(player_.pos)), 0, kTop); }

  void recompute() {
    h_ = sim::run_hierarchy(values_);
    headers_.clear();
    link_rows_.clear();
    if (!h_.error.empty()) return;
    for (const auto& z : h_.zoom) {
      std::string s = z.name;
      if (z.children) s += ": " + std::to_string(z.children) + " " + z.child + (z.children > 1 ? "s" : "");
      if (z.gpus > 1 && z.children != z.gpus) s += " = " + with_commas(z.gpus) + " GPUs";
      if (!z.children) s += std::string(": one ") + h_.gpu->name;
      s += " · " + format_bytes(z.memory_bytes) + " HBM · " + format_si(z.peak_flops, "FLOP/s") + " dense BF16";
      headers_.push_back(s);
    }
    for (const auto& l : h_.links) {
      std::string s = std::string(l.link) + ", " + l.name + ": " + printf_str("%.4g GB/s", l.bw_gbs);
      if (l.quoted_gbs != l.bw_gbs) s += printf_str(" each way (quoted %.4g GB/s, both ways)", l.quoted_gbs);
      if (l.ratio_to_hbm < 1) s += printf_str(" · %.3g× HBM", l.ratio_to_hbm);
      s += " · " + format_bytes(h_.bytes) + " in " + format_seconds(l.time_s);
      link_rows_.push_back(s);
    }
    note_ = printf_str("Per direction NVLink is %.3g× the network", h_.nvlink_over_network) +
            printf_str("; the often-quoted %.3g× divides NVLink's two-way figure by the network's one-way one. ",
                       h_.quoted_nvlink_over_network) +
            printf_str("Between pods the layer above is 1:%g oversubscribed: with every GPU crossing at once, "
                       "each gets that fraction of its port.", h_.oversubscription);
  }

  void go_to(int level) {
    player_.playing = false;
    player_.pos = std::clamp(level, 0, kTop);
    values_.set("level", player_.pos);
  }

  void draw_level_buttons(const UiEnv& ui) {
    const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
    const int current = shown_level();
    for (int i = 0; i < sim::kZoomLevels; ++i) {
      const char* name = h_.zoom[i].name;
      std::string label = std::string(name) + "###hierarchy-level-" + sim::kZoomLevelIds[i];
      float w = ImGui::CalcTextSize(name).x + ImGui::GetStyle().FramePadding.x * 2;
      if (i > 0) {
        ImGui::SameLine();
        if (ImGui::GetCursorScreenPos().x + w > right) ImGui::NewLine();
      }
      if (button(label.c_str(), i == current)) go_to(i);
    }
  }

  void draw_header(const UiEnv& ui) {
    const int lv = shown_level();
    ImGui::PushFont(ui.fonts.bold);
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(headers_[lv].c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopFont();
  }

  // Camera that fits `b` in the canvas, centred.
  static Camera fit(const Box& b, const Box& canvas) {
    Camera c;
    c.s = std::min(canvas.w() / b.w(), canvas.h() / b.h());
    c.ox = canvas.x0 + (canvas.w() - b.w() * c.s) / 2 - b.x0 * c.s;
    c.oy = canvas.y0 + (canvas.h() - b.h() * c.s) / 2 - b.y0 * c.s;
    return c;
  }

  // The box of the first node of each level in the world (the cluster fills the world).
  void path_boxes(const Box& world, Box* out) const {
    out[kTop] = world;
    for (int lv = kTop; lv > 0; --lv) {
      int cols, rows;
      grid_for(lv, h_.zoom[lv].children, &cols, &rows);
      out[lv - 1] = child_box(inner_of(out[lv]), cols, rows, 0);
    }
  }

  // The cluster's shape: a GPU a little wider than tall, each level as wide as its grid.
  double world_aspect() const {
    double a = 1.3;
    for (int lv = 1; lv <= kTop; ++lv) {
      int cols, rows;
      grid_for(lv, h_.zoom[lv].children, &cols, &rows);
      a = a * cols / rows;
    }
    return a;
  }

  void draw_zoom(const UiEnv& ui) {
    const float e = em(ui);
    const float w = std::max(ImGui::GetContentRegionAvail().x, 10 * e);
    const float h = std::clamp(w * 0.55f, 12 * e, 22 * e);
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("##hierarchy-canvas", ImVec2(w, h));
    const bool clicked = ImGui::IsItemClicked();
    if (ImGui::IsItemHovered() && shown_level() > 0) ImGui::SetTooltip("Click to zoom in one level");
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const Box canvas{p0.x, p0.y, p0.x + w, p0.y + h};
    const float aspect = static_cast<float>(world_aspect());
    const Box world{0, 0, std::max(w, h * aspect), std::max(w, h * aspect) / aspect};
    Box path[sim::kZoomLevels];
    path_boxes(world, path);

    // Camera: fitted on the first node of the level left behind, easing out to the next one.
    const int from = std::min(player_.step(), kTop);
    const float t = from < kTop ? smoothstep(static_cast<float>(player_.frac())) : 0;
    Camera cam = fit(path[from], canvas);
    if (t > 0) {
      Camera c1 = fit(path[from + 1], canvas);
      // Scale moves geometrically (a steady zoom); the offset follows the visible width.
      float s = cam.s * std::pow(c1.s / cam.s, t);
      float u = (1 / s - 1 / cam.s) / (1 / c1.s - 1 / cam.s);
      // The world point at the canvas centre, interpolated with the view's width.
      float cx0 = (canvas.x0 + w / 2 - cam.ox) / cam.s, cy0 = (canvas.y0 + h / 2 - cam.oy) / cam.s;
      float cx1 = (canvas.x0 + w / 2 - c1.ox) / c1.s, cy1 = (canvas.y0 + h / 2 - c1.oy) / c1.s;
      float cx = cx0 + (cx1 - cx0) * u, cy = cy0 + (cy1 - cy0) * u;
      cam.s = s;
      cam.ox = canvas.x0 + w / 2 - cx * s;
      cam.oy = canvas.y0 + h / 2 - cy * s;
    }

    dl->PushClipRect(ImVec2(canvas.x0, canvas.y0), ImVec2(canvas.x1, canvas.y1), true);
    dl->AddRectFilled(ImVec2(canvas.x0, canvas.y0), ImVec2(canvas.x1, canvas.y1), color::panel(), 4);
    nodes_drawn_ = 0;
    draw_node(ui, dl, kTop, world, cam, canvas, true);
    dl->AddRect(ImVec2(canvas.x0, canvas.y0), ImVec2(canvas.x1, canvas.y1), color::border(), 4);
    dl->PopClipRect();
    if (clicked && shown_level() > 0) go_to(shown_level() - 1);
  }

  // One box and, while its children are big enough to see, theirs. Boxes outside the canvas
  // are skipped and tiny ones are drawn as a plain fill, so a frame stays a few thousand
  // rectangles whatever the zoom.
  void draw_node(const UiEnv& ui, ImDrawList* dl, int lv, const Box& b, const Camera& cam, const Box& canvas, bool on_path) {
    ImVec2 a = cam.map(b.x0, b.y0), z = cam.map(b.x1, b.y1);
    if (z.x < canvas.x0 || a.x > canvas.x1 || z.y < canvas.y0 || a.y > canvas.y1) return;
    ++nodes_drawn_;
    const float e = em(ui);
    const float sw = z.x - a.x, sh = z.y - a.y;
    const float gap = sw > 6 ? 1 : 0;
    // Rounded corners cost about five times the vertices of square ones and cannot be seen
    // on small boxes; with hundreds of boxes on screen that is most of the frame's geometry.
    const float round = sw > 64 ? 3.0f : 0.0f;
    dl->AddRectFilled(ImVec2(a.x + gap, a.y + gap), ImVec2(z.x - gap, z.y - gap), kLevelFill[lv], round);
    const bool current = on_path && lv == shown_level();
    if (sw > 12) dl->AddRect(a, z, current ? color::accent() : color::border(), round, 0, current ? 2.5f : 1.0f);
    ImFont* font = ui.fonts.body ? ui.fonts.body : ImGui::GetFont();
    const float small = std::round(0.8f * e);
    if (lv == 0) {
      if (sw > 6 * e && sh > 4 * e) draw_gpu_detail(dl, font, small, a, z);
      return;
    }
    // Its name in the band at the top when it fits.
    const char* name = h_.zoom[lv].name;
    ImVec2 ts = font->CalcTextSizeA(small, FLT_MAX, 0, name);
    const ImVec2 at(a.x + 0.3f * e, a.y + 0.15f * e);
    if (sh * 0.09f + 0.05f * std::min(sw, sh) >= ts.y * 0.9f && sw > ts.x + 0.6f * e && at.x >= canvas.x0 &&
        at.y >= canvas.y0)
      dl->AddText(font, small, at, color::text(), name);

    Box inner = inner_of(b);
    int cols, rows;
    grid_for(lv, h_.zoom[lv].children, &cols, &rows);
    const float cell_px = std::min(inner.w() / cols, inner.h() / rows) * cam.s;
    if (cell_px < 5) {
      // Too small to tell apart: a fill the colour of the children.
      ImVec2 ia = cam.map(inner.x0, inner.y0), iz = cam.map(inner.x1, inner.y1);
      dl->AddRectFilled(ia, iz, kLevelFill[lv - 1]);
      return;
    }
    for (int i = 0; i < h_.zoom[lv].children; ++i)
      draw_node(ui, dl, lv - 1, child_box(inner, cols, rows, i), cam, canvas, on_path && i == 0);
  }

  // A GPU seen up close: the compute die between its HBM stacks; named when there is room.
  void draw_gpu_detail(ImDrawList* dl, ImFont* font, float size, ImVec2 a, ImVec2 z) {
    const float w = z.x - a.x, h = z.y - a.y;
    const ImVec2 da(a.x + 0.3f * w, a.y + 0.2f * h), dz(z.x - 0.3f * w, z.y - 0.2f * h);
    dl->AddRectFilled(da, dz, palette().gpu_die, 3);
    for (int side = 0; side < 2; ++side)
      for (int k = 0; k < 3; ++k) {
        float x0 = side ? dz.x + 0.04f * w : a.x + 0.06f * w, x1 = side ? z.x - 0.06f * w : da.x - 0.04f * w;
        float y0 = da.y + k * (dz.y - da.y) / 3 + 2, y1 = da.y + (k + 1) * (dz.y - da.y) / 3 - 2;
        dl->AddRectFilled(ImVec2(x0, y0), ImVec2(x1, y1), palette().hbm, 2);
        ImVec2 hs = font->CalcTextSizeA(size, FLT_MAX, 0, "HBM");
        if (hs.x < x1 - x0 - 4 && hs.y < y1 - y0)
          dl->AddText(font, size, ImVec2((x0 + x1 - hs.x) / 2, (y0 + y1 - hs.y) / 2), palette().hbm_text, "HBM");
      }
    const char* gpu = h_.gpu->name;
    ImVec2 ts = font->CalcTextSizeA(size, FLT_MAX, 0, gpu);
    if (ts.x < dz.x - da.x - 4 && ts.y < dz.y - da.y)
      dl->AddText(font, size, ImVec2((da.x + dz.x - ts.x) / 2, (da.y + dz.y - ts.y) / 2), palette().level_text, gpu);
    // The bottom band holds the HBM link's speed.
    std::string hbm = "HBM ↔ GPU " + format_si(h_.links[0].bw_gbs * 1e9, "B/s");
    ImVec2 hs = font->CalcTextSizeA(size, FLT_MAX, 0, hbm.c_str());
    if (hs.x < w - 8 && hs.y < 0.12f * h)
      dl->AddText(font, size, ImVec2(a.x + (w - hs.x) / 2, z.y - 0.1f * h - hs.y / 2), palette().level_text, hbm.c_str());
  }

  // Bandwidth per rung on a log scale (1 GB/s to 10 TB/s), the current level's link marked.
  void draw_bars(const UiEnv& ui) {
    const float e = em(ui);
    ImGui::Dummy(ImVec2(0, 0.3f * e));
    ImGui::PushFont(ui.fonts.bold);
    ImGui::TextUnformatted("Bandwidth per GPU, one direction (log scale)");
    ImGui::PopFont();
    const int current_link = h_.zoom[shown_level()].link;
    ImFont* font = ui.fonts.body ? ui.fonts.body : ImGui::GetFont();
    const float small = std::round(0.8f * e);
    const double lo = 0, hi = 4;  // log10 GB/s
    for (size_t i = 0; i < h_.links.size(); ++i) {
      const auto& l = h_.links[i];
      const bool cur = static_cast<int>(i) == current_link;
      ImGui::PushTextWrapPos(0);
      if (cur) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(color::accent()));
      ImGui::TextUnformatted(link_rows_[i].c_str());
      if (cur) ImGui::PopStyleColor();
      ImGui::PopTextWrapPos();
      const float w = std::max(ImGui::GetContentRegionAvail().x, 4 * e);
      const ImVec2 p = ImGui::GetCursorScreenPos();
      ImGui::Dummy(ImVec2(w, 0.8f * e));
      ImDrawList* dl = ImGui::GetWindowDrawList();
      double f = std::clamp((std::log10(std::max(l.bw_gbs, 1e-3)) - lo) / (hi - lo), 0.01, 1.0);
      dl->AddRectFilled(p, ImVec2(p.x + w, p.y + 0.8f * e), color::code_bg(), 2);
      dl->AddRectFilled(p, ImVec2(p.x + static_cast<float>(f * w), p.y + 0.8f * e), cur ? color::accent() : color::muted(), 2);
      ImGui::Dummy(ImVec2(0, 0.15f * e));
    }
    // Decade ticks under the bars.
    const float w = std::max(ImGui::GetContentRegionAvail().x, 4 * e);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::Dummy(ImVec2(w, small + 0.2f * e));
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const char* ticks[] = {"1 GB/s", "10", "100", "1 TB/s", "10 TB/s"};
    for (int d = 0; d <= 4; ++d) {
      float x = p.x + w * static_cast<float>((d - lo) / (hi - lo));
      float tw = font->CalcTextSizeA(small, FLT_MAX, 0, ticks[d]).x;
      dl->AddLine(ImVec2(x, p.y), ImVec2(x, p.y + 0.2f * e), color::muted());
      dl->AddText(font, small, ImVec2(std::clamp(x - tw / 2, p.x, p.x + w - tw), p.y + 0.2f * e), color::muted(), ticks[d]);
    }
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("%s", note_.c_str());
    ImGui::PopTextWrapPos();
  }
};

}  // namespace

std::unique_ptr<Widget> make_hierarchy_widget() {
  auto w = std::make_unique<HierarchyWidget>();
  w->set_inputs(sim::WidgetValues::defaults(sim::hierarchy_widget_kind()));
  return w;
}

}  // namespace dtx::web
