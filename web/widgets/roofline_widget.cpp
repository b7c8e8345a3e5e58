// The roofline: a log-log plot of attainable FLOP/s against arithmetic intensity, with the
// sloped memory roof and the flat compute roof meeting at the ridge, and the course's
// operations placed on it by the engine (engine/sim/roofline). The player sweeps one point up
// the slope (decode batch, matmul size or a bare intensity) until it hits the roof.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <string>
#include <vector>

#include "ui/controls.h"
#include "ui/ui_env.h"
#include "sim/roofline.h"
#include "text.h"
#include "widgets/widgets.h"

namespace dtx::web {

namespace {

ImU32 bound_color(sim::Bound b) { return b == sim::Bound::Memory ? color::partial() : color::correct(); }

ImU32 with_alpha(ImU32 c, int alpha) {
  return (c & ~IM_COL32_A_MASK) | (static_cast<ImU32>(alpha) << IM_COL32_A_SHIFT);
}

std::string printf_str(const char* f, double a) {
  char buf[256];
  std::snprintf(buf, sizeof buf, f, a);
  return buf;
}

// Decade labels: 0.01, 0.1, 1, 10, 100, 1k, 10k, 100k (FLOP/byte); 100G, 1T, 1P (FLOP/s).
std::string decade_label(int e, bool flops) {
  if (e < 0 || (!flops && e < 3)) return printf_str("%g", std::pow(10.0, e));
  static const char* const x_prefix[] = {"", "k", "M", "G"};
  static const char* const y_prefix[] = {"", "K", "M", "G", "T", "P", "E", "Z"};
  const int p = std::min(e / 3, flops ? 7 : 3);
  return printf_str("%g", std::pow(10.0, e - 3 * p)) + (flops ? y_prefix[p] : x_prefix[p]);
}

struct Rect {
  ImVec2 a, b;
  bool overlaps(const Rect& o) const { return a.x < o.b.x && o.a.x < b.x && a.y < o.b.y && o.a.y < b.y; }
  bool inside(const Rect& o) const { return a.x >= o.a.x && a.y >= o.a.y && b.x <= o.b.x && b.y <= o.b.y; }
};

class RooflineWidget : public Widget {
 public:
  void set_inputs(const sim::WidgetValues& v) override {
    values_ = v;
    player_.steps = sim::kRooflineSweepSteps;
    player_.rewind();
    recompute();
  }
  const sim::WidgetValues& inputs() const override { return values_; }

  bool draw(const UiEnv& ui, double dt) override {
    const bool animating = draw_player(ui, player_, "roofline", dt);
    if (res_.gpu) {
      draw_plot(ui);
      draw_figures(ui);
    } else {
      text_colored(color::wrong(), res_.error.c_str());
    }
    ImGui::Spacing();
    const std::string op = values_.option("op");
    if (draw_inputs(ui, values_, inputs_for(op))) {
      // A new operation sweeps something else: start its animation from the beginning.
      if (op != values_.option("op")) player_.rewind();
      recompute();
    }
    return animating;
  }

  std::string describe() const override {
    if (!res_.gpu) return res_.error;
    const sim::OpCost& c = res_.selected;
    std::string o = std::string(res_.gpu->name) + ": peak " + format_si(res_.roof.peak_flops, "FLOP/s") + ", memory " +
                    format_si(res_.roof.hbm_bytes_per_s, "B/s") + ", ridge at " +
                    format_number(res_.roof.ridge_flop_per_byte, 3) + " FLOP per byte. " + c.label + ": " +
                    format_number(c.intensity, 3) + " FLOP per byte, " + sim::bound_name(c.bound) + "-bound, attains " +
                    format_si(c.attainable_flops, "FLOP/s") + ", takes " + format_seconds(c.time_s) + ".";
    return o;
  }

  std::string state_json() const override {
    std::string s = "{\"kind\":\"roofline\"";
    s += ",\"step\":" + std::to_string(player_.step()) + ",\"steps\":" + std::to_string(player_.steps);
    s += std::string(",\"playing\":") + (player_.playing ? "true" : "false");
    if (!res_.gpu) return s + ",\"error\":" + json_str(res_.error) + "}";
    s += ",\"gpu\":" + json_str(res_.gpu->id) + ",\"op\":" + json_str(res_.op);
    s += num(",\"peak_flops\":", res_.roof.peak_flops) + num(",\"hbm_bytes_per_s\":", res_.roof.hbm_bytes_per_s);
    s += num(",\"ridge\":", res_.roof.ridge_flop_per_byte);
    s += cost_fields(res_.selected);
    sim::SweepPoint sp = sweep();
    s += std::string(",\"sweep\":{\"param\":") + json_str(sp.param) + num(",\"value\":", sp.value) + cost_fields(sp.cost) + "}";
    s += ",\"points\":[";
    for (size_t i = 0; i < res_.points.size(); ++i) {
      const auto& p = res_.points[i];
      s += std::string(i ? "," : "") + "{\"id\":" + json_str(p.id) + cost_fields(p.cost) +
           ",\"selected\":" + (p.selected ? "true" : "false") + ",\"labelled\":" + (i < labelled_.size() && labelled_[i] ? "true" : "false") + "}";
    }
    return s + "]}";
  }

 private:
  sim::WidgetValues values_;
  sim::RooflineResult res_;
  Player player_;
  // Cached in recompute() so a frame only draws.
  double x_lo_ = -1, x_hi_ = 4, y_lo_ = 11, y_hi_ = 15;  // log10 of the axes' ends
  std::vector<std::string> names_;                        // short label per point
  std::vector<std::string> figures_;                      // lines under the plot
  std::vector<std::string> point_lines_;                  // one per point, for the list
  std::vector<bool> labelled_;                            // label fitted on the plot last frame
  std::vector<Rect> placed_;                              // scratch, reused every frame
  std::vector<ImVec2> pos_;                               // scratch: points on screen

  static std::string num(const char* key, double v) {
    if (!std::isfinite(v)) return std::string(key) + "null";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return key + std::string(buf);
  }
  static std::string cost_fields(const sim::OpCost& c) {
    return ",\"label\":" + json_str(c.label) + num(",\"flops\":", c.flops) + num(",\"bytes\":", c.bytes) +
           num(",\"intensity\":", c.intensity) + num(",\"attainable_flops\":", c.attainable_flops) +
           ",\"bound\":" + json_str(sim::bound_name(c.bound)) + num(",\"time_s\":", c.time_s);
  }

  static const char* inputs_for(const std::string& op) {
    if (op == "custom") return "gpu,op,intensity,bytes";
    if (op == "matmul") return "gpu,op,traffic,m,n,k";
    if (op == "relu") return "gpu,op,traffic,m,n,ops";
    if (op == "decode") return "gpu,op,traffic,d,batch,seq";
    return "gpu,op,traffic,d,batch,seq,group";
  }

  sim::SweepPoint sweep() const { return sim::roofline_sweep(values_, res_.roof, player_.pos, player_.steps); }
  bool sweep_shown() const { return player_.playing || player_.pos > 0; }

  void recompute() {
    res_ = sim::run_roofline(values_);
    names_.clear();
    figures_.clear();
    point_lines_.clear();
    labelled_.assign(res_.points.size(), false);
    if (!res_.gpu) return;
    const sim::Roof& r = res_.roof;

    // Axes: whole decades around every point and the sweep's whole range.
    double lo = r.ridge_flop_per_byte, hi = r.ridge_flop_per_byte;
    for (const auto& p : res_.points) {
      lo = std::min(lo, p.cost.intensity);
      hi = std::max(hi, p.cost.intensity);
    }
    for (double pos : {0.0, static_cast<double>(player_.steps)}) {
      double i = sim::roofline_sweep(values_, r, pos, player_.steps).cost.intensity;
      lo = std::min(lo, i);
      hi = std::max(hi, i);
    }
    // Whole decades where that leaves a point room; otherwise a quarter decade past it.
    x_lo_ = std::min(std::floor(std::log10(lo)), std::log10(lo) - 0.25);
    x_hi_ = std::max(std::ceil(std::log10(hi)), std::log10(hi) + 0.25);
    if (x_hi_ - x_lo_ < 3) x_hi_ = x_lo_ + 3;
    // The slope enters just above the bottom-left corner; room above the flat roof for its label.
    y_lo_ = x_lo_ + std::log10(r.hbm_bytes_per_s) - 0.15;
    y_hi_ = std::log10(r.peak_flops) + 0.35;

    for (const auto& p : res_.points) {
      std::string id = p.id;
      if (id == "matmul") names_.push_back("matmul");
      else if (id == "relu") names_.push_back(values_.get("ops") > 1 ? "fused ops" : "ReLU");
      else if (id == "decode-b1") names_.push_back("decode b=1");
      else if (id == "decode") names_.push_back(printf_str("decode b=%g", values_.get("batch")));
      else if (id == "prefill") names_.push_back("prefill");
      else if (id == "attention") names_.push_back("attention");
      else names_.push_back("custom");
      point_lines_.push_back(p.cost.label + ": " + printf_str("%.4g FLOP/byte, ", p.cost.intensity) +
                             format_si(p.cost.attainable_flops, "FLOP/s"));
    }

    const sim::OpCost& c = res_.selected;
    figures_.push_back(printf_str("Intensity %.4g FLOP/byte", c.intensity) +
                       printf_str(" (%.3g× the ridge)", c.intensity / r.ridge_flop_per_byte));
    figures_.push_back("Attainable " + format_si(c.attainable_flops, "FLOP/s") +
                       printf_str(" (%.3g%% of peak): ", 100 * c.attainable_flops / r.peak_flops) +
                       sim::bound_name(c.bound) + "-bound");
    figures_.push_back("Time " + format_seconds(c.time_s) + " (arithmetic " + format_seconds(c.compute_time_s) +
                       ", bytes " + format_seconds(c.memory_time_s) + ")");
    figures_.push_back(format_si(c.flops, "FLOP") + " over " + format_bytes(c.bytes) +
                       (res_.traffic == sim::Traffic::All ? " read and written" : " read (outputs not counted)"));
    if (res_.op == "decode") {
      if (std::isinf(res_.batch_at_ridge))
        figures_.push_back(printf_str("With d = %g no batch reaches the ridge: the activations alone keep it memory-bound.", values_.get("d")));
      else
        figures_.push_back(printf_str("Compute-bound from a batch of %.1f sequences", res_.batch_at_ridge) +
                           printf_str(" (d = %g): below it, reading the weights sets the time.", values_.get("d")));
    } else if (res_.op == "attention") {
      figures_.push_back("Every sequence reads its own KV cache, so a bigger batch does not raise the intensity.");
    }
  }

  // Screen position of (intensity, FLOP/s) in the plot area [a, b].
  ImVec2 to_screen(const Rect& area, double intensity, double flops) const {
    double fx = (std::log10(intensity) - x_lo_) / (x_hi_ - x_lo_);
    double fy = (std::log10(flops) - y_lo_) / (y_hi_ - y_lo_);
    return ImVec2(static_cast<float>(area.a.x + fx * (area.b.x - area.a.x)),
                  static_cast<float>(area.b.y - fy * (area.b.y - area.a.y)));
  }

  // Places `text` near `p` where it overlaps no earlier label and stays in `bounds`; false if
  // nowhere fits (the list under the plot still names the point).
  bool place_label(ImDrawList* dl, ImFont* font, float size, ImVec2 p, float r, const char* text, ImU32 col,
                   const Rect& bounds) {
    ImVec2 ts = font->CalcTextSizeA(size, FLT_MAX, 0, text);
    const ImVec2 offsets[] = {{r + 2, 2}, {-ts.x - r - 2, 2}, {-ts.x - r - 2, -ts.y - 2}, {r + 2, -ts.y - 2},
                              {-ts.x / 2, r + 2}, {-ts.x / 2, -ts.y - r - 2}, {r + 2, ts.y}, {-ts.x - r - 2, ts.y}};
    for (const ImVec2& o : offsets) {
      Rect rc{ImVec2(p.x + o.x, p.y + o.y), ImVec2(p.x + o.x + ts.x, p.y + o.y + ts.y)};
      if (!rc.inside(bounds)) continue;
      bool clash = false;
      for (const Rect& q : placed_) clash = clash || rc.overlaps(q);
      if (clash) continue;
      placed_.push_back(rc);
      dl->AddRectFilled(ImVec2(rc.a.x - 1, rc.a.y), ImVec2(rc.b.x + 1, rc.b.y), with_alpha(color::panel(), 200), 2);
      dl->AddText(font, size, rc.a, col, text);
      return true;
    }
    return false;
  }

  // What the parts of the plot share: where it is drawn, with what font, at what sizes.
  struct PlotFrame {
    ImDrawList* dl;
    ImFont* font;
    float e, small;
    float rad;  // a point's radius
    Rect canvas, area;
    ImVec2 ridge;  // the ridge on screen
  };

  void draw_plot(const UiEnv& ui) {
    const float e = em(ui);
    ImFont* font = ui.fonts.body ? ui.fonts.body : ImGui::GetFont();
    const float small = std::round(0.8f * e);
    const float w = std::max(ImGui::GetContentRegionAvail().x, 10 * e);
    const float h = std::clamp(w * 0.7f, 15 * e, 24 * e);
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("##roofline-plot", ImVec2(w, h));
    const bool hovered = ImGui::IsItemHovered();
    const bool clicked = ImGui::IsItemClicked();
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const Rect canvas{p0, ImVec2(p0.x + w, p0.y + h)};
    const Rect area{ImVec2(p0.x + 2.6f * e, p0.y + 1.5f * e), ImVec2(p0.x + w - 0.5f * e, p0.y + h - 1.5f * e)};
    const sim::Roof& r = res_.roof;
    dl->PushClipRect(canvas.a, canvas.b, true);
    dl->AddRectFilled(canvas.a, canvas.b, color::panel(), 4);
    dl->AddRect(canvas.a, canvas.b, color::border(), 4);

    // Memory-bound (left of the ridge) and compute-bound halves, tinted like their points.
    const ImVec2 ridge = to_screen(area, r.ridge_flop_per_byte, r.peak_flops);
    dl->AddRectFilled(area.a, ImVec2(ridge.x, area.b.y), with_alpha(color::partial(), 18));
    dl->AddRectFilled(ImVec2(ridge.x, area.a.y), area.b, with_alpha(color::correct(), 18));

    const PlotFrame f{dl, font, e, small, std::max(3.5f, 0.3f * e), canvas, area, ridge};
    draw_grid(f);
    draw_roofs(f);
    label_roofs(f);
    const int hover_point = draw_points(f, mouse);
    draw_sweep(f);
    dl->PopClipRect();

    if (hovered && hover_point >= 0) ImGui::SetTooltip("%s", point_lines_[hover_point].c_str());
    if (clicked) on_click(area, mouse, hover_point);
  }

  // Decade gridlines and their labels.
  void draw_grid(const PlotFrame& f) const {
    ImDrawList* dl = f.dl;
    ImFont* font = f.font;
    const float e = f.e, small = f.small;
    const Rect& canvas = f.canvas;
    const Rect& area = f.area;
    for (int d = static_cast<int>(std::ceil(x_lo_)); d <= static_cast<int>(std::floor(x_hi_)); ++d) {
      float x = to_screen(area, std::pow(10.0, d), 1).x;
      dl->AddLine(ImVec2(x, area.a.y), ImVec2(x, area.b.y), color::border());
      std::string t = decade_label(d, false);
      float tw = font->CalcTextSizeA(small, FLT_MAX, 0, t.c_str()).x;
      float tx = std::clamp(x - tw / 2, canvas.a.x + 2, canvas.b.x - tw - 2);
      dl->AddText(font, small, ImVec2(tx, area.b.y + 0.15f * e), color::muted(), t.c_str());
    }
    for (int d = static_cast<int>(std::ceil(y_lo_)); d <= static_cast<int>(std::floor(y_hi_)); ++d) {
      float y = to_screen(area, 1, std::pow(10.0, d)).y;
      dl->AddLine(ImVec2(area.a.x, y), ImVec2(area.b.x, y), color::border());
      std::string t = decade_label(d, true);
      float tw = font->CalcTextSizeA(small, FLT_MAX, 0, t.c_str()).x;
      dl->AddText(font, small, ImVec2(area.a.x - tw - 0.3f * e, y - small / 2), color::muted(), t.c_str());
    }
    const char* xt = "FLOP/byte →";
    float xtw = font->CalcTextSizeA(small, FLT_MAX, 0, xt).x;
    // Inside the plot's bottom-right corner: nothing sits under the flat roof.
    dl->AddText(font, small, ImVec2(area.b.x - xtw - 0.2f * e, area.b.y - small - 0.2f * e), color::muted(), xt);
    dl->AddText(font, small, ImVec2(canvas.a.x + 0.3f * e, canvas.a.y + 0.3f * e), color::muted(), "FLOP/s ↑");
  }

  // The roofs: bandwidth × intensity up to the ridge, then the peak.
  void draw_roofs(const PlotFrame& f) const {
    const sim::Roof& r = res_.roof;
    const float e = f.e;
    const Rect& area = f.area;
    const ImVec2 ridge = f.ridge;
    const double x_lo = std::pow(10.0, x_lo_), x_hi = std::pow(10.0, x_hi_);
    ImVec2 roof[3] = {to_screen(area, x_lo, x_lo * r.hbm_bytes_per_s), ridge, to_screen(area, x_hi, r.peak_flops)};
    f.dl->AddPolyline(roof, 3, color::text(), ImDrawFlags_None, std::max(2.0f, 0.15f * e));
    for (float y = ridge.y; y < area.b.y; y += 0.6f * e)
      f.dl->AddLine(ImVec2(ridge.x, y), ImVec2(ridge.x, std::min(y + 0.3f * e, area.b.y)), color::muted(), 1.5f);
  }

  void label_roofs(const PlotFrame& f) {
    const sim::Roof& r = res_.roof;
    ImDrawList* dl = f.dl;
    ImFont* font = f.font;
    const float e = f.e, small = f.small;
    const Rect& canvas = f.canvas;
    const Rect& area = f.area;
    const ImVec2 ridge = f.ridge;
    placed_.clear();
    // Reserve the roofs' own labels first so point labels go around them.
    std::string ridge_text = printf_str("ridge %.0f FLOP/byte", r.ridge_flop_per_byte);
    ImVec2 rs = font->CalcTextSizeA(small, FLT_MAX, 0, ridge_text.c_str());
    float rx = std::clamp(ridge.x - rs.x / 2, area.a.x, area.b.x - rs.x);
    ImVec2 rpos(rx, ridge.y - rs.y - 0.35f * e);
    if (rpos.y < canvas.a.y + 0.2f * e) rpos.y = ridge.y + 0.3f * e;
    placed_.push_back({rpos, ImVec2(rpos.x + rs.x, rpos.y + rs.y)});
    dl->AddText(font, small, rpos, color::text(), ridge_text.c_str());
    // The roofs' own labels: the bandwidth in the empty corner above the slope, the peak
    // above the flat roof (left out when the ridge label is already there).
    std::string mem_text = format_si(r.hbm_bytes_per_s, "B/s") + " × intensity";
    place_label(dl, font, small, ImVec2(area.a.x + 0.2f * e, ridge.y + 0.6f * e), 0, mem_text.c_str(), color::muted(), area);
    std::string peak_text = "peak " + format_si(r.peak_flops, "FLOP/s");
    ImVec2 ps = font->CalcTextSizeA(small, FLT_MAX, 0, peak_text.c_str());
    Rect peak_rc{ImVec2(area.b.x - ps.x - 0.2f * e, std::max(canvas.a.y + 0.2f * e, ridge.y - ps.y - 0.25f * e)), {}};
    peak_rc.b = ImVec2(peak_rc.a.x + ps.x, peak_rc.a.y + ps.y);
    if (!peak_rc.overlaps(placed_.front())) {
      placed_.push_back(peak_rc);
      dl->AddText(font, small, peak_rc.a, color::muted(), peak_text.c_str());
    }
  }

  // Points: the chosen operation last so it is drawn on top; labels placed in order of
  // importance (chosen first) so it keeps its label when space runs out. Returns the point
  // under the pointer, or -1.
  int draw_points(const PlotFrame& f, ImVec2 mouse) {
    ImDrawList* dl = f.dl;
    const float rad = f.rad;
    int hover_point = -1;
    float hover_d = 0.9f * f.e;
    std::vector<ImVec2>& pos = pos_;  // reused: no allocation per frame
    pos.resize(res_.points.size());
    for (size_t i = 0; i < res_.points.size(); ++i) {
      const auto& c = res_.points[i].cost;
      pos[i] = to_screen(f.area, c.intensity, c.attainable_flops);
      float d = std::hypot(mouse.x - pos[i].x, mouse.y - pos[i].y);
      if (d < hover_d) hover_d = d, hover_point = static_cast<int>(i);
    }
    for (int pass = 0; pass < 2; ++pass)
      for (size_t i = 0; i < res_.points.size(); ++i) {
        const auto& p = res_.points[i];
        if (p.selected != (pass == 1)) continue;
        float rr = p.selected ? rad * 1.4f : rad;
        dl->AddCircleFilled(pos[i], rr, bound_color(p.cost.bound));
        dl->AddCircle(pos[i], rr, p.selected ? color::accent() : color::panel(), 0, p.selected ? 2.5f : 1.5f);
      }
    for (int pass = 0; pass < 2; ++pass)
      for (size_t i = 0; i < res_.points.size(); ++i) {
        const auto& p = res_.points[i];
        if (p.selected != (pass == 0)) continue;
        labelled_[i] = place_label(dl, f.font, f.small, pos[i], rad * 1.4f, names_[i].c_str(),
                                   p.selected ? color::accent() : color::text(), f.area);
      }
    return hover_point;
  }

  // The sweep: a ring that climbs the slope and runs along the roof.
  void draw_sweep(const PlotFrame& f) {
    if (sweep_shown()) {
      const float rad = f.rad;
      sim::SweepPoint sp = sweep();
      ImVec2 q = to_screen(f.area, sp.cost.intensity, sp.cost.attainable_flops);
      f.dl->AddCircle(q, rad * 1.8f, bound_color(sp.cost.bound), 0, 3);
      f.dl->AddCircle(q, rad * 1.8f + 2, color::panel(), 0, 1.5f);
      std::string t = std::string(sp.param) == "batch" ? printf_str("b=%.0f", sp.value)
                      : std::string(sp.param) == "n"   ? printf_str("n=%.0f", sp.value)
                                                       : printf_str("I=%.3g", sp.value);
      place_label(f.dl, f.font, f.small, q, rad * 2, t.c_str(), bound_color(sp.cost.bound), f.area);
    }
  }

  // A click on a point shows that operation; elsewhere, with a custom operation, it moves the
  // custom intensity to where the student clicked.
  void on_click(const Rect& area, ImVec2 mouse, int point) {
    if (point >= 0) {
      std::string id = res_.points[point].id;
      double op = -1;
      if (id == "decode-b1") {
        values_.set("batch", 1);
        id = "decode";
      }
      for (size_t i = 0; i < std::size(sim::kRooflineOps); ++i)
        if (id == sim::kRooflineOps[i]) op = static_cast<double>(i);
      if (op < 0) return;
      if (op != values_.get("op")) player_.rewind();
      values_.set("op", op);
    } else if (std::string(values_.option("op")) == "custom" && mouse.x >= area.a.x && mouse.x <= area.b.x) {
      double fx = (mouse.x - area.a.x) / (area.b.x - area.a.x);
      values_.set("intensity", std::pow(10.0, x_lo_ + fx * (x_hi_ - x_lo_)));
    } else {
      return;
    }
    recompute();
  }

  void draw_figures(const UiEnv& ui) {
    const float e = em(ui);
    ImGui::Dummy(ImVec2(0, 0.2f * e));
    ImGui::PushFont(ui.fonts.bold);
    ImGui::TextWrapped("%s on the %s", res_.selected.label.c_str(), res_.gpu->name);
    ImGui::PopFont();
    for (size_t i = 0; i < figures_.size(); ++i) {
      if (i == 1) text_colored(bound_color(res_.selected.bound), figures_[i].c_str());
      else ImGui::TextWrapped("%s", figures_[i].c_str());
    }
    if (sweep_shown()) {
      sim::SweepPoint sp = sweep();
      std::string t = "▶ " + sp.cost.label + printf_str(": %.4g FLOP/byte, ", sp.cost.intensity) +
                      format_si(sp.cost.attainable_flops, "FLOP/s") + ", " + sim::bound_name(sp.cost.bound) + "-bound";
      text_colored(bound_color(sp.cost.bound), t.c_str());
    }
    ImGui::Dummy(ImVec2(0, 0.2f * e));
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(color::partial()), "●");
    ImGui::SameLine(0, 0.3f * e);
    ImGui::TextDisabled("memory-bound");
    ImGui::SameLine(0, e);
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(color::correct()), "●");
    ImGui::SameLine(0, 0.3f * e);
    ImGui::TextDisabled("compute-bound");
    for (size_t i = 0; i < res_.points.size(); ++i) {
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(bound_color(res_.points[i].cost.bound)), "●");
      ImGui::SameLine(0, 0.3f * e);
      ImGui::PushTextWrapPos(0);
      if (res_.points[i].selected) ImGui::PushFont(ui.fonts.bold);
      ImGui::TextUnformatted(point_lines_[i].c_str());
      if (res_.points[i].selected) ImGui::PopFont();
      ImGui::PopTextWrapPos();
    }
  }
};

}  // namespace

std::unique_ptr<Widget> make_roofline_widget() {
  auto w = std::make_unique<RooflineWidget>();
  w->set_inputs(sim::WidgetValues::defaults(sim::roofline_widget_kind()));
  return w;
}

}  // namespace dtx::web
