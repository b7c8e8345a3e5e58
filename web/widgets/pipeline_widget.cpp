// The pipeline widget: engine/sim/pipeline's timeline as a Gantt chart (one row per stage,
// time to the right, F/B/W cells coloured by kind, idle time hatched), a time cursor that
// sweeps across as the player plays (what lies after it is faded), and the bubble figures
// next to the textbook formulas, each formula with its source on hover; per stage, the
// warm-up and remaining forwards (Megatron-LM's counts) and, for ZB-H2 and ZB-V, the idle inside
// the stage's own span. A stage's second chunk is drawn darker: ZB-V's way back up the V, and
// DualPipe's second direction (microbatches m/2+1..m, fed at the last stage); DualPipe's F&B
// blocks (a forward and a backward of the other direction run as one) get one frame around both
// cells, as the DualPipe README's schedule figure draws them.
//
// A frame only draws. The simulation runs when the inputs change; the cells are laid out in
// pixels once per chart width (sub-pixel ops snapped to whole pixels and runs of the same
// colour merged, so a row never has more cells than pixels), and the future is faded with
// one translucent rectangle instead of a second colour per cell.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "ui/controls.h"
#include "ui/ui_env.h"
#include "sim/pipeline.h"
#include "sim/sources.h"
#include "widgets/widgets.h"

namespace dtx::web {

namespace {

// The theme's chart colours (ui/theme.h), read when drawn.
#define kColF (palette().chart_f)
#define kColB (palette().chart_b)
#define kColW (palette().chart_w)
#define kIdle (palette().idle)
#define kHatch (palette().hatch)
#define kFuture (palette().future)  // over what has not run yet
#define kCursor (palette().text)
// A cell narrower than this (px) is drawn merged with its neighbours, without a label.
constexpr float kMinOpPx = 4;
// The player never has more steps than this: a step is one shortest op, or longer.
constexpr int kMaxSteps = 600;
// Seconds the animation takes at the speed chosen for new inputs.
constexpr double kPlaySeconds = 12;

// Mixes a colour towards white (k > 0) or black (k < 0).
ImU32 tint(ImU32 c, float k) {
  ImVec4 v = ImGui::ColorConvertU32ToFloat4(c);
  const float to = k > 0 ? 1.0f : 0.0f, a = std::fabs(k);
  v.x += (to - v.x) * a;
  v.y += (to - v.y) * a;
  v.z += (to - v.z) * a;
  return ImGui::ColorConvertFloat4ToU32(v);
}

ImU32 kind_color(sim::PipeOpKind k) {
  return k == sim::PipeOpKind::F ? kColF : k == sim::PipeOpKind::B ? kColB : kColW;
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::string ms(double v) { return fmt("%.4g ms", v); }
std::string pct(double fraction) { return format_percent(fraction, 4); }  // as dtx sim pipeline

bool splits_w(sim::PipeSchedule s) {
  return s == sim::PipeSchedule::ZbH1 || s == sim::PipeSchedule::ZbH2 || s == sim::PipeSchedule::ZbV;
}

// The formula behind the schedule's bubble with its source, for the hover text.
std::string bubble_source(sim::PipeSchedule s) { return sim::formula_with_source(sim::pipe_schedule_formula_id(s)); }

// Where the warm-up counts come from: Megatron-LM's schedules for 1F1B (also ZB-H1's F/B
// order) and interleaved, the paper's figure for ZB-H2; GPipe runs every forward first.
std::string warmup_source(sim::PipeSchedule s) {
  switch (s) {
    case sim::PipeSchedule::Interleaved: return sim::formula_with_source("pipeline.interleaved");
    case sim::PipeSchedule::ZbH2:
      return "warm-up 2(p-1-r)+1 forwards on stage r, at most m\nSource: Qi et al. 2023, Zero Bubble Pipeline "
             "Parallelism, section 2.2 and figure 3";
    case sim::PipeSchedule::ZbV:
      return "2p-1 chunk forwards on every stage before the first F-B-W triple: 2(p-r)-1 of the first chunk, "
             "then r of each\nSource: sail-sg/zero-bubble-pipeline-parallelism, scheduler/zbv.py "
             "(PipelineGraph.try_v_schedule) for equal F, B, W";
    case sim::PipeSchedule::DualPipe:
      return "p forwards on every rank before its first backward: 2(p/2-h-1) of its near direction, then h+1 of "
             "each (h = min(r, p-1-r))\nSource: deepseek-ai/DualPipe, dualpipe/dualpipe.py, DualPipe.step, "
             "steps 1 and 2";
    case sim::PipeSchedule::GPipe: return "every forward first: warm-up m on every stage";
    case sim::PipeSchedule::Naive: return "one forward of the whole batch, then its backward";
    default: return sim::formula_with_source("pipeline.1f1b");
  }
}

// "3, 2, 1, 0" for a per-stage list.
template <class T>
std::string join(const std::vector<T>& v, std::string (*f)(T)) {
  std::string o;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) o += ", ";
    o += f(v[i]);
  }
  return o;
}
std::string int_text(int x) { return std::to_string(x); }
std::string ms_text(double x) { return fmt("%.4g", x); }

struct Cell {
  float x0, x1;  // px from the chart's left edge
  ImU32 col;
  int op;        // index into the result's ops when the cell is one op, -1 when merged
  int label;     // index into labels_, -1 if the label does not fit
};

struct Gap {
  float x0, x1;  // px from the chart's left edge
};

using Frame = Gap;  // a DualPipe F&B block, around its two cells

class PipelineWidget : public Widget {
 public:
  PipelineWidget() { set_inputs(sim::WidgetValues::defaults(sim::pipeline_widget_kind())); }

  void set_inputs(const sim::WidgetValues& v) override {
    values_ = v;
    const sim::WidgetKind& kind = sim::pipeline_widget_kind();
    if (values_.kind != &kind) values_ = sim::WidgetValues::defaults(kind);
    rerun();
    player_.rewind();
  }
  const sim::WidgetValues& inputs() const override { return values_; }
  bool draw(const UiEnv& ui, double dt) override;
  std::string state_json() const override;
  std::string describe() const override;
  std::string stage_activity(double t_ms, int stage) const;
  const sim::PipeOp* op_at(double t_ms, int stage, double* from, double* to) const;
  const char* op_kind_words(const sim::PipeOp& op) const;

 private:
  void rerun();
  void layout(float width, float row_h, ImFont* font, float font_px);
  void draw_chart(const UiEnv& ui);
  void draw_legend(const UiEnv& ui);
  void draw_figures(const UiEnv& ui);
  void draw_schedule_figures(const UiEnv& ui);
  void tooltip(double t_ms, int stage);
  double cursor_ms() const { return std::min(result_.makespan_ms, player_.pos * quantum_ms_); }

  sim::WidgetValues values_;
  sim::PipelineResult result_;
  sim::PipelineFormula formula_, formula_1f1b_;
  Player player_;
  double quantum_ms_ = 1;   // time per player step
  float auto_speed_ = -1;   // the speed last chosen for the student (kept if they moved it)
  // Layout cache, valid for (revision_, width_, row_h_, font_px_).
  int revision_ = 0, laid_out_ = -1;
  float width_ = -1, row_h_ = -1, font_px_ = -1;
  std::vector<std::vector<Cell>> rows_;
  std::vector<std::vector<Gap>> gaps_;  // idle stretches of each row
  std::vector<std::vector<Frame>> frames_;  // F&B blocks of each row, when cells are wide enough
  std::vector<std::string> labels_;
  std::vector<float> label_w_;
  std::string tip_shown_;  // the formula tooltip drawn this frame, for state_json
};

void PipelineWidget::rerun() {
  const double old_fraction = player_.steps > 0 ? player_.pos / player_.steps : 0;
  result_ = sim::simulate_pipeline(sim::pipeline_inputs(values_));
  ++revision_;
  if (!result_.error.empty()) {
    player_.steps = 0;
    player_.rewind();
    return;
  }
  formula_ = sim::pipeline_formula(result_.in);
  formula_1f1b_ = sim::pipeline_formula_1f1b(result_.in.p, result_.in.m);
  // One step = the shortest op, so stepping shows one op (or part of a longer one) at a time.
  double shortest = result_.makespan_ms;
  for (const sim::PipeOp& op : result_.ops)
    if (op.end_ms > op.start_ms) shortest = std::min(shortest, op.end_ms - op.start_ms);
  quantum_ms_ = std::max(shortest, result_.makespan_ms / kMaxSteps);
  player_.steps = std::max(1, static_cast<int>(std::ceil(result_.makespan_ms / quantum_ms_ - 1e-9)));
  player_.pos = std::min<double>(player_.steps, old_fraction * player_.steps);
  const float want = static_cast<float>(std::clamp(player_.steps / kPlaySeconds, 1.0, 32.0));
  if (auto_speed_ < 0 || player_.speed == auto_speed_) player_.speed = want;
  auto_speed_ = want;
}

// Cells in pixels for the current result and chart size. Ops at least kMinOpPx wide are
// cells of their own (shaded by microbatch, labelled when the label fits); narrower ones are
// snapped to whole pixels and merged with neighbours of the same colour, so no row has more
// cells than the chart has pixels, and touching ops never leave a false idle gap.
void PipelineWidget::layout(float width, float row_h, ImFont* font, float font_px) {
  if (laid_out_ == revision_ && width == width_ && row_h == row_h_ && font_px == font_px_) return;
  laid_out_ = revision_;
  width_ = width;
  row_h_ = row_h;
  font_px_ = font_px;
  const sim::PipelineResult& r = result_;
  rows_.assign(r.in.p, {});
  gaps_.assign(r.in.p, {});
  frames_.assign(r.in.p, {});
  labels_.clear();
  label_w_.clear();
  const double scale = width / r.makespan_ms;
  double narrowest = r.makespan_ms;
  for (const sim::PipeOp& op : r.ops)
    if (op.end_ms > op.start_ms) narrowest = std::min(narrowest, op.end_ms - op.start_ms);
  const bool per_op = narrowest * scale >= kMinOpPx;
  const bool labels = per_op && font_px <= row_h;
  const int v = r.chunks;
  for (int s = 0; s < r.in.p; ++s) {
    std::vector<Cell>& row = rows_[s];
    for (int i = r.stage_begin[s]; i < r.stage_begin[s + 1]; ++i) {
      const sim::PipeOp& op = r.ops[i];
      // Later chunks darker, so the interleaved order, ZB-V's way back and DualPipe's second
      // direction show; otherwise alternate microbatches lighter, so neighbouring ops of one
      // kind stay apart.
      ImU32 col = kind_color(op.kind);
      if (v > 1) col = tint(col, -0.45f * op.chunk / (v - 1));
      if (per_op) {
        if (v == 1 && op.microbatch % 2 == 1) col = tint(col, 0.22f);
        const float x0 = static_cast<float>(op.start_ms * scale), x1 = static_cast<float>(op.end_ms * scale);
        if (x1 <= x0) continue;
        if (op.overlapped && op.kind == sim::PipeOpKind::F && i + 1 < r.stage_begin[s + 1])
          frames_[s].push_back({x0, static_cast<float>(r.ops[i + 1].end_ms * scale)});
        int label = -1;
        if (labels) {
          // The full label ("B12", "F3c2"), else the microbatch number alone.
          std::string text = sim::pipe_op_label(r, op);
          float w = font->CalcTextSizeA(font_px, FLT_MAX, 0, text.c_str()).x;
          if (w + 4 > x1 - x0 && r.in.schedule != sim::PipeSchedule::Naive) {
            text = std::to_string(op.microbatch + 1);
            w = font->CalcTextSizeA(font_px, FLT_MAX, 0, text.c_str()).x;
          }
          if (w + 4 <= x1 - x0) {
            label = static_cast<int>(labels_.size());
            labels_.push_back(text);
            label_w_.push_back(w);
          }
        }
        row.push_back({x0, x1, col, i, label});
      } else {
        const float x0 = std::round(static_cast<float>(op.start_ms * scale));
        const float x1 = std::round(static_cast<float>(op.end_ms * scale));
        if (x1 <= x0) continue;  // covered by its neighbours
        if (!row.empty() && row.back().col == col && row.back().x1 >= x0) {
          row.back().x1 = x1;
          row.back().op = -1;
        } else {
          row.push_back({x0, x1, col, i, -1});
        }
      }
    }
    // Idle stretches: what the cells leave uncovered, half a pixel or more.
    std::vector<Gap>& gaps = gaps_[s];
    float x = 0;
    for (const Cell& c : row) {
      if (c.x0 - x >= 0.5f) gaps.push_back({x, c.x0});
      x = std::max(x, c.x1);
    }
    if (width - x >= 0.5f) gaps.push_back({x, width});
  }
}

bool PipelineWidget::draw(const UiEnv& ui, double dt) {
  // v only matters to the interleaved schedule; hide it for the others.
  const bool interleaved = values_.get_int("schedule") == static_cast<int>(sim::PipeSchedule::Interleaved);
  bool changed = draw_inputs(ui, values_, interleaved ? "" : "schedule,p,m,f,b,w");
  if (changed) rerun();
  ImGui::Spacing();
  if (!result_.error.empty()) {
    text_colored(color::wrong(), ("Cannot simulate these inputs: " + result_.error).c_str());
    return changed;
  }
  const bool animating = draw_player(ui, player_, "pipeline", dt);
  tip_shown_.clear();
  draw_chart(ui);
  draw_figures(ui);
  // A changed input was drawn after the chart of the old inputs: one more frame.
  return animating || changed;
}

void PipelineWidget::draw_chart(const UiEnv& ui) {
  const sim::PipelineResult& r = result_;
  const float e = em(ui);
  const int p = r.in.p;
  ImFont* font = ImGui::GetFont();
  const float small = std::max(8.0f, 0.8f * ImGui::GetFontSize());
  const float avail = std::max(ImGui::GetContentRegionAvail().x, 60.0f);
  // Rows shrink with depth so 32 stages stay on a phone's screen.
  const float row_h = std::round(p <= 8 ? 1.5f * e : p <= 16 ? 1.05f * e : 0.7f * e);
  const float gap = p <= 16 ? 2.0f : 1.0f;
  char name[16];
  std::snprintf(name, sizeof name, "S%d", p - 1);
  const float gutter = font->CalcTextSizeA(small, FLT_MAX, 0, name).x + 0.5f * e;
  const float chart_w = std::max(20.0f, std::floor(avail - gutter - 0.5f * e));
  const float axis_h = small + 0.5f * e;
  const float height = p * (row_h + gap) + axis_h;
  layout(chart_w, row_h, font, small);

  ImGui::InvisibleButton("###pipeline-chart", ImVec2(avail, height));
  const bool hovered = ImGui::IsItemHovered();
  const bool active = ImGui::IsItemActive();
  const ImVec2 p0 = ImGui::GetItemRectMin();
  const float left = p0.x + gutter, right = left + chart_w;
  const float top = p0.y, bottom = top + p * (row_h + gap);
  const double scale = chart_w / r.makespan_ms;
  ImDrawList* dl = ImGui::GetWindowDrawList();

  // Idle: every gap between a row's cells, tinted and hatched. The hatch lines are 45°
  // diagonals x + y = k·pitch on one grid for the whole chart, cut to each gap by hand (no
  // clip rectangle per gap).
  const float pitch = std::max(6.0f, 0.5f * e);
  auto hatch = [&](float x0, float y0, float x1, float y1) {
    dl->AddRectFilled(ImVec2(x0, y0), ImVec2(x1, y1), kIdle);
    for (float u = std::ceil((x0 + y0) / pitch) * pitch; u < x1 + y1; u += pitch) {
      const float a = std::max(x0, u - y1), b = std::min(x1, u - y0);
      if (b > a) dl->AddLine(ImVec2(a, u - a), ImVec2(b, u - b), kHatch);
    }
  };
  // Stage names on every row while they fit, else on every second (or fourth) row.
  const int label_every = small <= row_h + gap ? 1 : small <= 2 * (row_h + gap) ? 2 : 4;
  for (int s = 0; s < p; ++s) {
    const float y = top + s * (row_h + gap);
    if (!ImGui::IsRectVisible(ImVec2(p0.x, y), ImVec2(right, y + row_h))) continue;
    if (s % label_every == 0) {
      std::snprintf(name, sizeof name, "S%d", s);
      dl->AddText(font, small, ImVec2(p0.x, y + 0.5f * (row_h - small)), color::muted(), name);
    }
    for (const Gap& g : gaps_[s]) hatch(left + g.x0, y, left + g.x1, y + row_h);
    for (const Cell& c : rows_[s]) {
      const bool own = c.op >= 0 && c.x1 - c.x0 >= kMinOpPx;
      // One pixel between single-op cells so that equal neighbours stay apart.
      dl->AddRectFilled(ImVec2(left + c.x0, y), ImVec2(left + c.x1 - (own ? 1.0f : 0.0f), y + row_h), c.col);
      if (c.label >= 0)
        dl->AddText(font, small,
                    ImVec2(left + 0.5f * (c.x0 + c.x1 - label_w_[c.label]), y + 0.5f * (row_h - small)),
                    palette().level_text, labels_[c.label].c_str());
    }
    for (const Frame& f : frames_[s])
      dl->AddRect(ImVec2(left + f.x0, y), ImVec2(left + f.x1 - 1.0f, y + row_h), kCursor, 0.0f, 0, 2.0f);
  }

  // The cursor: everything right of it has not happened yet.
  const double t = cursor_ms();
  const float xc = left + static_cast<float>(t * scale);
  if (xc < right) dl->AddRectFilled(ImVec2(xc, top), ImVec2(right, bottom), kFuture);
  dl->AddLine(ImVec2(xc, top - 2), ImVec2(xc, bottom + 2), kCursor, 2.0f);

  // Time axis: about five round ticks.
  const double raw = r.makespan_ms / 5;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  const double step = raw / mag < 1.5 ? mag : raw / mag < 3.5 ? 2 * mag : raw / mag < 7.5 ? 5 * mag : 10 * mag;
  for (double tick = 0; tick <= r.makespan_ms * (1 + 1e-9); tick += step) {
    const float x = left + static_cast<float>(tick * scale);
    dl->AddLine(ImVec2(x, bottom), ImVec2(x, bottom + 0.25f * e), color::muted());
    const std::string s = fmt("%g", tick);
    const float w = font->CalcTextSizeA(small, FLT_MAX, 0, s.c_str()).x;
    dl->AddText(font, small, ImVec2(std::min(x - 0.5f * w, right - w), bottom + 0.3f * e), color::muted(), s.c_str());
  }
  dl->AddText(font, small, ImVec2(p0.x, bottom + 0.3f * e), color::muted(), "ms");

  const ImVec2 mouse = ImGui::GetIO().MousePos;
  if (active && mouse.x >= left - 4 && mouse.x <= right + 4) {
    // Pressing or dragging on the chart moves the cursor there.
    player_.playing = false;
    const double at = std::clamp((mouse.x - left) / scale, 0.0, r.makespan_ms);
    player_.pos = std::clamp(at / quantum_ms_, 0.0, static_cast<double>(player_.steps));
  } else if (hovered && mouse.x >= left && mouse.x < right && mouse.y >= top && mouse.y < bottom) {
    const int s = std::clamp(static_cast<int>((mouse.y - top) / (row_h + gap)), 0, p - 1);
    tooltip((mouse.x - left) / scale, s);
  }
}

// The op stage `stage` runs at time t (binary search in its execution order), or null when
// it is idle then; `from`/`to` get the op's or the idle stretch's ends.
const sim::PipeOp* PipelineWidget::op_at(double t_ms, int stage, double* from, double* to) const {
  const sim::PipelineResult& r = result_;
  const auto first = r.ops.begin() + r.stage_begin[stage], last = r.ops.begin() + r.stage_begin[stage + 1];
  auto it = std::upper_bound(first, last, t_ms, [](double t, const sim::PipeOp& op) { return t < op.start_ms; });
  if (it != first && t_ms < (it - 1)->end_ms) {
    *from = (it - 1)->start_ms;
    *to = (it - 1)->end_ms;
    return &*(it - 1);
  }
  *from = it != first ? (it - 1)->end_ms : 0;
  *to = it != last ? it->start_ms : r.makespan_ms;
  return nullptr;
}

const char* PipelineWidget::op_kind_words(const sim::PipeOp& op) const {
  if (op.kind == sim::PipeOpKind::F) return op.overlapped ? "forward, in an F&B block" : "forward";
  if (op.kind == sim::PipeOpKind::W) return "weight-gradient backward";
  if (op.w_apart) return "input-gradient backward";
  return op.overlapped ? "backward (b + w), in an F&B block" : "backward (b + w)";
}

// What stage `stage` does at time t, as a tooltip.
void PipelineWidget::tooltip(double t_ms, int stage) {
  double from = 0, to = 0;
  const sim::PipeOp* op = op_at(t_ms, stage, &from, &to);
  ImGui::BeginTooltip();
  if (op) {
    ImGui::Text("stage %d: %s, %s", stage, sim::pipe_op_label(result_, *op).c_str(), op_kind_words(*op));
    ImGui::Text("%s to %s", ms(from).c_str(), ms(to).c_str());
  } else {
    ImGui::Text("stage %d: idle from %s to %s", stage, ms(from).c_str(), ms(to).c_str());
    ImGui::Text("idle in the whole step: %s", ms(result_.idle_ms[stage]).c_str());
  }
  // The stage's counts, as Megatron-LM's schedules name them.
  const sim::PipelineResult& r = result_;
  if (static_cast<size_t>(stage) < r.warmup_forwards.size())
    ImGui::Text("warm-up: %d %sforwards, then %d remaining", r.warmup_forwards[stage], r.chunks > 1 ? "chunk " : "",
                r.remaining_forwards[stage]);
  const bool span = r.in.schedule == sim::PipeSchedule::ZbH2 || r.in.schedule == sim::PipeSchedule::ZbV;
  if (span && static_cast<size_t>(stage) < r.span_idle_ms.size())
    ImGui::Text("idle inside its own span: %s", ms(r.span_idle_ms[stage]).c_str());
  ImGui::EndTooltip();
}

// A swatch per kind, the hatched idle and, for DualPipe, the framed F&B block.
void PipelineWidget::draw_legend(const UiEnv& ui) {
  const sim::PipelineResult& r = result_;
  const float e = em(ui);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const bool dual = r.in.schedule == sim::PipeSchedule::DualPipe;
  const bool split = splits_w(r.in.schedule);
  struct Key { ImU32 col; const char* text; bool framed; };
  const Key keys[] = {{kColF, "F forward", false},
                      {kColB, split ? "B input grad" : dual ? "B backward (b + w, or b when a W follows)"
                                                            : "B backward (b + w)", false},
                      {kColW, "W weight grad", false},
                      {kIdle, "idle", false},
                      {kColF, "F&B block", true}};
  const float sw = ImGui::GetTextLineHeight();
  const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
  bool first = true;
  for (const Key& k : keys) {
    if ((k.col == kColW && !split && !dual) || (k.framed && !dual)) continue;
    const float w = sw + 0.3f * e + ImGui::CalcTextSize(k.text).x;
    if (!first) {
      ImGui::SameLine(0, e);
      if (ImGui::GetCursorScreenPos().x + w > right) ImGui::NewLine();
    }
    first = false;
    const ImVec2 at = ImGui::GetCursorScreenPos();
    ImGui::Dummy(ImVec2(sw, sw));
    dl->AddRectFilled(at, ImVec2(at.x + sw, at.y + sw), k.col);
    if (k.framed) {
      dl->AddRectFilled(ImVec2(at.x + 0.5f * sw, at.y), ImVec2(at.x + sw, at.y + sw), kColB);
      dl->AddRect(at, ImVec2(at.x + sw, at.y + sw), kCursor, 0.0f, 0, 2.0f);
    }
    if (k.col == kIdle) dl->AddLine(ImVec2(at.x, at.y + sw), ImVec2(at.x + sw, at.y), kHatch);
    ImGui::SameLine(0, 0.3f * e);
    ImGui::TextUnformatted(k.text);
  }
  if (r.chunks < 2) return;
  ImGui::PushStyleColor(ImGuiCol_Text, color::muted());
  if (dual)
    ImGui::TextWrapped("Lighter cells: microbatches 1-%d, fed at stage 0 and going down; darker: %d-%d, fed at stage "
                       "%d and going up. Each stage holds two of the p stages (s and p-1-s), one per direction. A "
                       "framed pair is an F&B block: a forward and a backward of the other direction run as one.",
                       r.in.m / 2, r.in.m / 2 + 1, r.in.m, r.in.p - 1);
  else if (r.in.schedule == sim::PipeSchedule::ZbV)
    ImGui::TextWrapped("Darker cells: each stage's second chunk. Stage s holds chunks s and 2p-1-s, a V: the "
                       "forward goes down the stages on the first chunks and comes back up on the second.");
  else
    ImGui::TextWrapped("Darker cells: later chunks of a stage (chunk c of stage s holds slice c·p + s of the model).");
  ImGui::PopStyleColor();
}

void PipelineWidget::draw_figures(const UiEnv& ui) {
  const sim::PipelineResult& r = result_;
  ImGui::Spacing();
  draw_legend(ui);
  ImGui::Spacing();
  ImGui::TextWrapped("Time %s of %s. Makespan %s; each stage computes for %s (ideal m·(f+b+w)).",
                     ms(cursor_ms()).c_str(), ms(r.makespan_ms).c_str(), ms(r.makespan_ms).c_str(),
                     ms(r.ideal_ms).c_str());
  const auto [least, most] = std::minmax_element(r.idle_ms.begin(), r.idle_ms.end());
  if (*most - *least <= 1e-9 * r.makespan_ms)
    ImGui::TextWrapped("Each stage idles %s in the step.", ms(*most).c_str());
  else
    ImGui::TextWrapped("Idle per stage: from %s (stage %d) to %s (stage %d).", ms(*least).c_str(),
                       static_cast<int>(least - r.idle_ms.begin()), ms(*most).c_str(),
                       static_cast<int>(most - r.idle_ms.begin()));
  const bool textbook = r.in.schedule == sim::PipeSchedule::GPipe || r.in.schedule == sim::PipeSchedule::OneFOneB;
  const std::string bubble_tip = bubble_source(r.in.schedule);
  auto tip = [&](const char* id, const std::string& text) {
    if (figure_tip(ui, id, text)) tip_shown_ = text;
  };
  ImGui::PushFont(ui.fonts.bold);
  ImGui::TextWrapped("Bubble: idle/total %s, idle/ideal %s", pct(r.bubble_total).c_str(), pct(r.bubble_ideal).c_str());
  ImGui::PopFont();
  tip("pipeline-fig-bubble", bubble_tip);
  if (!textbook) {
    ImGui::TextWrapped("This schedule's formula: %s = %s, %s = %s", formula_.total_text, pct(formula_.total).c_str(),
                       formula_.ideal_text, pct(formula_.ideal).c_str());
    tip("pipeline-fig-formula", bubble_tip);
  }
  ImGui::TextWrapped("GPipe / 1F1B formula: %s = %s, %s = %s", formula_1f1b_.total_text,
                     pct(formula_1f1b_.total).c_str(), formula_1f1b_.ideal_text, pct(formula_1f1b_.ideal).c_str());
  tip("pipeline-fig-formula-1f1b", sim::formula_with_source("pipeline.1f1b"));
  draw_schedule_figures(ui);
  ImGui::TextWrapped("Warm-up %sforwards per stage (stage 0 first): %s; remaining: %s.", r.chunks > 1 ? "chunk " : "",
                     join(r.warmup_forwards, int_text).c_str(), join(r.remaining_forwards, int_text).c_str());
  tip("pipeline-fig-warmup", warmup_source(r.in.schedule));
  ImGui::TextWrapped("Peak activations on stage 0: %s microbatches (GPipe holds m = %d, 1F1B at most p = %d%s).",
                     fmt("%.3g", r.peak_activations[0]).c_str(), r.in.m, r.in.p,
                     r.in.schedule == sim::PipeSchedule::DualPipe ? ", DualPipe p+1 by the DeepSeek-V3 report's table 2"
                                                                  : "");
  if (r.params_per_stage != 1) {
    ImGui::TextWrapped("Parameters per stage: %sx 1F1B's (two of the p stages on every stage).",
                       fmt("%g", r.params_per_stage).c_str());
    tip("pipeline-fig-params", bubble_tip);
  }
  ImGui::PushStyleColor(ImGuiCol_Text, color::muted());
  if (r.in.schedule == sim::PipeSchedule::ZbH2)
    ImGui::TextWrapped("ZB-H2 keeps up to 2p-1 microbatches in flight and drops the sync between optimizer steps, so "
                       "its fill and drain overlap the next step's; the paper assumes m ≥ 2p-1, w ≤ f and w ≤ b.");
  if (r.in.schedule == sim::PipeSchedule::ZbH1 && std::fabs(r.bubble_ideal - formula_.ideal) > 1e-9)
    ImGui::TextWrapped("The paper's (p-1)(f+b-w) assumes m ≥ p, w ≤ f and w ≤ b; outside that the fixed ZB-H1 "
                       "order idles differently, as simulated here.");
  ImGui::TextWrapped("Communication takes no time here. Hover a row for what a stage does, a formula for its source; "
                     "press the chart to move the cursor.");
  ImGui::PopStyleColor();
}

// The figures only some schedules have: the interleaved group, the idle inside a stage's own
// span (ZB-H2, ZB-V), DualPipe's per-stage idle against the report's table 2.
void PipelineWidget::draw_schedule_figures(const UiEnv& ui) {
  const sim::PipelineResult& r = result_;
  const sim::PipelineInputs& in = r.in;
  auto tip = [&](const char* id, const std::string& text) {
    if (figure_tip(ui, id, text)) tip_shown_ = text;
  };
  if (in.schedule == sim::PipeSchedule::Interleaved) {
    if (r.group > 0)
      ImGui::TextWrapped("Microbatch group G = %d%s: each chunk takes G microbatches before the next chunk (Megatron-LM's "
                         "microbatch_group_size_per_vp_stage).",
                         r.group, in.group > 0 ? "" : " (0 = p)");
    else
      ImGui::TextWrapped("v = 1: plain 1F1B, without chunks or microbatch groups.");
    tip("pipeline-fig-group", sim::formula_with_source("pipeline.interleaved"));
  }
  if ((in.schedule == sim::PipeSchedule::ZbH2 || in.schedule == sim::PipeSchedule::ZbV) && !r.span_idle_ms.empty()) {
    // The sources count the idle inside a stage's own span (steps run back to back without a
    // sync); the whole-step idle above also holds the fill and drain offsets.
    const bool v = in.schedule == sim::PipeSchedule::ZbV;
    const double paper = v ? 0.0 : std::max(0.0, (in.p - 1) * (in.f_ms + in.b_ms - 2 * in.w_ms));
    ImGui::TextWrapped("Idle inside each stage's own span (ms, stage 0 first): %s; %s = %s.",
                       join(r.span_idle_ms, ms_text).c_str(),
                       v ? "the repo's table for f = b = w" : "the paper's (p-1)(f+b-2w)", ms(paper).c_str());
    tip("pipeline-fig-span-idle", sim::formula_with_source(sim::pipe_schedule_formula_id(in.schedule)));
  }
  if (in.schedule == sim::PipeSchedule::DualPipe) {
    const double table = std::max(0.0, (in.p / 2 - 1) * (in.f_ms + 2 * in.b_ms - in.w_ms));
    ImGui::TextWrapped("DeepSeek-V3 table 2: (PP/2-1)(F&B+B-3W) = %s idle per stage, with F&B = f+b+w, B = b+w, "
                       "W = w%s.",
                       ms(table).c_str(), in.f_ms == in.b_ms ? "" : " (the simulation matches it when f = b)");
    tip("pipeline-fig-table2", sim::formula_with_source("pipeline.dualpipe"));
  }
}

// What stage `stage` does at time t, in words (for describe()).
std::string PipelineWidget::stage_activity(double t_ms, int stage) const {
  double from = 0, to = 0;
  const sim::PipeOp* op = op_at(t_ms, stage, &from, &to);
  if (!op) return "stage " + std::to_string(stage) + " is idle";
  return "stage " + std::to_string(stage) + " runs " + sim::pipe_op_label(result_, *op) + " (" + op_kind_words(*op) + ")";
}

std::string PipelineWidget::describe() const {
  const sim::PipelineInputs in = sim::pipeline_inputs(values_);
  std::string o = std::string(sim::pipe_schedule_name(in.schedule)) + " schedule, " + std::to_string(in.p) + " stages, " +
                  std::to_string(in.m) + " microbatches. ";
  if (!result_.error.empty()) return o + result_.error;
  const sim::PipelineResult& r = result_;
  o += "Bubble: idle over total " + pct(r.bubble_total) + ", idle over ideal " + pct(r.bubble_ideal) + "; makespan " +
       ms(r.makespan_ms) + ". ";
  // What hovering the figures shows: the formula and its source, the per-stage counts.
  std::string formula = bubble_source(r.in.schedule);
  for (char& c : formula)
    if (c == '\n') c = ' ';
  o += "Formula: " + formula + ". ";
  if (r.group > 0) o += "Microbatch group G = " + std::to_string(r.group) + ". ";
  if (r.in.schedule == sim::PipeSchedule::ZbH2)
    o += "Idle inside each stage's own span: " + join(r.span_idle_ms, ms_text) + " ms; the paper's (p-1)(f+b-2w) = " +
         ms(std::max(0.0, (r.in.p - 1) * (r.in.f_ms + r.in.b_ms - 2 * r.in.w_ms))) + ". ";
  if (r.in.schedule == sim::PipeSchedule::ZbV)
    o += "Idle inside each stage's own span: " + join(r.span_idle_ms, ms_text) +
         " ms; the repo's table for f = b = w: 0. ";
  if (r.in.schedule == sim::PipeSchedule::DualPipe)
    o += "Microbatches 1-" + std::to_string(r.in.m / 2) + " enter at stage 0, " + std::to_string(r.in.m / 2 + 1) + "-" +
         std::to_string(r.in.m) + " at stage " + std::to_string(r.in.p - 1) + "; parameters per stage 2x 1F1B's. ";
  o += "Warm-up forwards per stage: " + join(r.warmup_forwards, int_text) + "; remaining: " +
       join(r.remaining_forwards, int_text) + ". ";
  const double t = cursor_ms();
  o += "At " + ms(t) + ": ";
  // Every stage up to 16; beyond, the first and last eight (a reader gets the pattern).
  const int p = static_cast<int>(r.idle_ms.size());
  for (int s = 0; s < p; ++s) {
    if (p > 16 && s == 8) {
      o += "…, ";
      s = p - 8;
    }
    o += stage_activity(std::min(t, r.makespan_ms * (1 - 1e-12)), s) + (s + 1 < p ? ", " : ".");
  }
  return o;
}

std::string PipelineWidget::state_json() const {
  const sim::PipelineInputs in = sim::pipeline_inputs(values_);
  std::string o = "{\"kind\":\"pipeline\"";
  char buf[320];
  std::snprintf(buf, sizeof buf, ",\"step\":%d,\"pos\":%.6g,\"steps\":%d,\"playing\":%s,\"schedule\":%s,\"p\":%d,\"m\":%d,\"v\":%d",
                player_.step(), player_.pos, player_.steps, player_.playing ? "true" : "false",
                json_str(sim::pipe_schedule_name(in.schedule)).c_str(), in.p, in.m, in.v);
  o += buf;
  if (!result_.error.empty()) return o + ",\"error\":" + json_str(result_.error) + "}";
  std::snprintf(buf, sizeof buf,
                ",\"time_ms\":%.10g,\"makespan\":%.10g,\"ideal\":%.10g,\"bubble_total\":%.10g,\"bubble_ideal\":%.10g,"
                "\"formula_total\":%.10g,\"formula_ideal\":%.10g,\"peak_activations_stage0\":%.10g,\"ops\":%zu",
                cursor_ms(), result_.makespan_ms, result_.ideal_ms, result_.bubble_total, result_.bubble_ideal,
                formula_.total, formula_.ideal, result_.peak_activations[0], result_.ops.size());
  o += buf;
  auto list = [&](const char* name, const std::vector<double>& v) {
    o += ",\"" + std::string(name) + "\":[";
    for (size_t s = 0; s < v.size(); ++s) {
      std::snprintf(buf, sizeof buf, "%s%.10g", s ? "," : "", v[s]);
      o += buf;
    }
    o += "]";
  };
  list("idle_per_stage", result_.idle_ms);
  list("span_idle_per_stage", result_.span_idle_ms);
  o += ",\"warmup_per_stage\":[" + join(result_.warmup_forwards, int_text) + "]";
  o += ",\"remaining_per_stage\":[" + join(result_.remaining_forwards, int_text) + "]";
  o += ",\"group\":" + std::to_string(result_.group) + ",\"chunks\":" + std::to_string(result_.chunks);
  std::snprintf(buf, sizeof buf, ",\"params_per_stage\":%.10g", result_.params_per_stage);
  o += buf;
  o += ",\"tooltip\":" + json_str(tip_shown_);
  return o + "}";
}

}  // namespace

std::unique_ptr<Widget> make_pipeline_widget() { return std::make_unique<PipelineWidget>(); }

}  // namespace dtx::web
