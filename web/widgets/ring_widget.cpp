// The ring widget: ranks on a circle, each rank's buffer as N chunk cells filling up as
// contributions are summed in, the current step's sends as packets moving along the ring
// (or across it, for the naive and tree algorithms), and the figures of engine/sim/ring.
// The simulation runs when the inputs change; moving to another step applies that step to
// a cached state (or replays from the start when going back), so a frame only draws.
// Below the figures, every collective's bus-bandwidth factor at this N (nccl-tests' and the
// in-network AllReduce's, engine/sim/sources.h), with its formula and source on hover.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "ui/controls.h"
#include "ui/ui_env.h"
#include "sim/ring.h"
#include "sim/sources.h"
#include "widgets/widgets.h"

namespace dtx::web {

namespace {

constexpr float kPi = 3.14159265358979f;
// Up to this many ranks each rank shows its N chunk cells; above it one radial bar.
constexpr int kCellsMaxRanks = 16;
// Above this many ranks sends are drawn as packets only, without their arrows.
constexpr int kArrowsMaxRanks = 128;

// One row of the bus-bandwidth table: a collective, and for AllReduce also in the network.
struct BusRow {
  sim::Collective op;
  bool in_network;
};

const std::vector<BusRow>& bus_rows() {
  static const std::vector<BusRow> rows = [] {
    std::vector<BusRow> r;
    for (sim::Collective c : sim::all_collectives()) r.push_back({c, false});
    r.push_back({sim::Collective::AllReduce, true});
    return r;
  }();
  return rows;
}

// The factor as the source writes it, short enough for a table cell.
const char* factor_formula(const BusRow& b) {
  if (b.in_network) return "1";
  switch (b.op) {
    case sim::Collective::AllReduce: return "2(n-1)/n";
    case sim::Collective::ReduceScatter:
    case sim::Collective::AllGather:
    case sim::Collective::AllToAll: return "(n-1)/n";
    default: return "1";
  }
}

std::string factor_text(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.4g", x);
  return b;
}

// "2(n-1)/n = 1.75" at n = 8; a constant factor is just "1".
std::string factor_cell(const BusRow& b, int n) {
  const std::string formula = factor_formula(b);
  return formula == "1" ? formula : formula + " = " + factor_text(sim::busbw_factor(b.op, n, b.in_network));
}

std::string bus_label(const BusRow& b) {
  return std::string(sim::collective_op_label(b.op)) + (b.in_network ? " in-network" : "");
}

std::string bus_key(const BusRow& b) {
  return std::string(sim::collective_op_name(b.op)) + (b.in_network ? "-in-network" : "");
}

// The collective the ring animates, as sources.h names it.
sim::Collective animated_collective(sim::CollectiveKind k) {
  return k == sim::CollectiveKind::ReduceScatter ? sim::Collective::ReduceScatter
         : k == sim::CollectiveKind::AllGather   ? sim::Collective::AllGather
                                                 : sim::Collective::AllReduce;
}

// Hues spread round the wheel; neighbouring chunks stay distinguishable at small N.
ImU32 chunk_color(int chunk, int n, float alpha = 1) { return series_color(chunk, n, alpha); }

ImVec2 lerp(ImVec2 a, ImVec2 b, float t) { return ImVec2(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t); }

void arrow_head(ImDrawList* dl, ImVec2 tip, ImVec2 dir, float size, ImU32 col) {
  float len = std::sqrt(dir.x * dir.x + dir.y * dir.y);
  if (len <= 0) return;
  ImVec2 d(dir.x / len, dir.y / len), n(-d.y, d.x);
  ImVec2 base(tip.x - d.x * size, tip.y - d.y * size);
  dl->AddTriangleFilled(tip, ImVec2(base.x + n.x * size * 0.5f, base.y + n.y * size * 0.5f),
                        ImVec2(base.x - n.x * size * 0.5f, base.y - n.y * size * 0.5f), col);
}

// Where everything on the ring picture sits, from the picture's rectangle.
struct RingGeometry {
  int n = 0;
  float e = 0;
  ImVec2 c;  // the centre
  ImFont* font = nullptr;
  float label_size = 0, label_room = 0;
  float r_out = 0;
  float spacing = 0;  // arc length per rank
  bool cells = false;
  int cols = 0, rows = 0;
  float cell = 0;
  float half = 0;     // half the size of what sits on the circle at each rank
  float r_rank = 0;   // rank centres
  float r_track = 0;  // where sends travel

  float angle(double rank) const { return -0.5f * kPi + 2 * kPi * static_cast<float>(rank) / n; }
  ImVec2 at(float radius, float a) const { return ImVec2(c.x + radius * std::cos(a), c.y + radius * std::sin(a)); }
};

RingGeometry ring_geometry(const UiEnv& ui, ImVec2 p0, ImVec2 p1, int n) {
  RingGeometry g;
  const float e = em(ui);
  g.n = n;
  g.e = e;
  g.c = ImVec2((p0.x + p1.x) * 0.5f, (p0.y + p1.y) * 0.5f);
  g.font = ui.fonts.body;
  g.label_size = 0.8f * e;
  char label[16];
  std::snprintf(label, sizeof label, "r%d", n - 1);
  g.label_room = g.font->CalcTextSizeA(g.label_size, FLT_MAX, 0, label).x + 0.5f * e;
  const float r_out = std::max(2 * e, std::min(p1.x - p0.x, p1.y - p0.y) * 0.5f - g.label_room);
  g.r_out = r_out;
  g.spacing = 2 * kPi * r_out / n;  // arc length per rank
  const bool cells = n <= kCellsMaxRanks;
  g.cells = cells;
  // A rank's chunks as a small grid: one or two rows up to 8 chunks, then square.
  const int cols = n <= 4 ? n : n <= 8 ? (n + 1) / 2 : static_cast<int>(std::ceil(std::sqrt(static_cast<float>(n))));
  const int rows = (n + cols - 1) / cols;
  g.cols = cols;
  g.rows = rows;
  // Largest cell for which neighbouring grids do not touch: a grid's diagonal (cell*diag)
  // must fit in 90% of the arc between rank centres, which sit 0.71*cell*span inside r_out.
  // Capped so the ring inside keeps a third of the radius for the moving sends.
  const float diag = std::sqrt(static_cast<float>(cols * cols + rows * rows));
  const float span = static_cast<float>(std::max(cols, rows));
  const float arc = 0.9f * 2 * kPi / n;
  const float cell_fit = std::min(arc * r_out / (diag + 0.71f * arc * span), (0.65f * r_out - 0.4f * e) / (1.42f * span));
  const float cell = cells ? std::clamp(cell_fit, 3.0f, 1.3f * e) : 0;
  g.cell = cell;
  // Half the size of what sits on the circle at each rank: the cell grid or the bar.
  const float bar_len = std::min(2.2f * e, r_out * 0.25f);
  const float half = cells ? 0.5f * cell * span : 0.5f * bar_len;
  g.half = half;
  // A grid's corners stick out by half its diagonal at the diagonal ranks.
  const float reach = cells ? half * 1.42f : half;
  g.r_rank = r_out - reach;                              // rank centres
  g.r_track = std::max(e, g.r_rank - reach - 0.4f * e);  // where sends travel
  return g;
}

// One send at `pos`: a square of its chunk's colour, or a strip of colours for several chunks.
void draw_packet(ImDrawList* dl, const sim::RingSend& s, ImVec2 pos, float packet, int n) {
  const ImU32 col = chunk_color(s.chunk_first, n);
  if (s.chunk_count == 1) {
    dl->AddRectFilled(ImVec2(pos.x - packet, pos.y - packet), ImVec2(pos.x + packet, pos.y + packet), col,
                      0.3f * packet);
  } else {
    // Several chunks travel together: a strip of their colours, up to 8 bands.
    const int bands = std::min(s.chunk_count, 8);
    const float w = packet * 1.2f * bands / 2 + packet, h = packet;
    for (int b = 0; b < bands; ++b) {
      const int chunk = (s.chunk_first + b * s.chunk_count / bands) % n;
      const float x0 = pos.x - w + 2 * w * b / bands, x1 = pos.x - w + 2 * w * (b + 1) / bands;
      dl->AddRectFilled(ImVec2(x0, pos.y - h), ImVec2(x1, pos.y + h), chunk_color(chunk, n));
    }
    dl->AddRect(ImVec2(pos.x - w, pos.y - h), ImVec2(pos.x + w, pos.y + h), (color::text() & ~IM_COL32_A_MASK) | IM_COL32(0, 0, 0, 0x90));
  }
}

struct Algo {
  sim::CollectiveAlgorithm algorithm;
  double time_s = 0;
  uint64_t busiest_port_bytes = 0;
};

class RingWidget : public Widget {
 public:
  RingWidget() { set_inputs(sim::WidgetValues::defaults(sim::ring_widget_kind())); }

  void set_inputs(const sim::WidgetValues& v) override {
    values_ = v;
    if (values_.kind != &sim::ring_widget_kind()) values_ = sim::WidgetValues::defaults(sim::ring_widget_kind());
    rerun(true);
  }
  const sim::WidgetValues& inputs() const override { return values_; }

  bool draw(const UiEnv& ui, double dt) override;
  std::string state_json() const override;
  std::string describe() const override;

 private:
  void rerun(bool rewind);
  void sync_state();
  void recount();
  bool step_forward();
  void draw_picture(const UiEnv& ui, float width);
  void draw_ranks(ImDrawList* dl, const RingGeometry& g) const;
  void draw_rank_cells(ImDrawList* dl, const RingGeometry& g, int r, ImVec2 rc) const;
  void draw_sends(ImDrawList* dl, const RingGeometry& g) const;
  void draw_centre(ImDrawList* dl, const RingGeometry& g) const;
  void hover_tooltip(const RingGeometry& g);
  void draw_figures(const UiEnv& ui);
  void draw_comparison(const UiEnv& ui);
  void draw_busbw(const UiEnv& ui);
  void tooltip_for(int rank);

  sim::WidgetValues values_;
  std::optional<sim::RingSim> sim_;
  std::string error_;
  std::vector<Algo> algos_;       // ring, naive, tree on the same inputs
  Player player_;
  float auto_speed_ = 1;          // the speed rerun() chose, to tell it from the student's
  sim::RingState state_;          // after player_.step() steps (once synced)
  sim::RingScratch scratch_;
  std::vector<sim::RingSend> sends_;  // of step sends_step_: the one in flight, or next
  int sends_step_ = -1;
  // Per rank, for the current state: the largest partial sum it holds, its full chunks.
  std::vector<int> rank_most_, rank_full_;
  std::vector<int> old_counts_;   // step_forward's scratch
  int full_total_ = 0;
  uint64_t max_sent_so_far_ = 0;
  std::string tip_shown_;  // the formula tooltip drawn this frame, for state_json
};

void RingWidget::rerun(bool rewind) {
  const sim::RingInputs in = sim::ring_inputs_from(values_);
  const bool same_schedule = sim_ && sim_->in.ranks == in.ranks && sim_->in.algorithm == in.algorithm &&
                             sim_->in.collective == in.collective;
  sim_.reset();
  algos_.clear();
  error_.clear();
  for (auto a : {sim::CollectiveAlgorithm::Ring, sim::CollectiveAlgorithm::Naive, sim::CollectiveAlgorithm::Tree}) {
    sim::RingInputs x = in;
    x.algorithm = a;
    std::string err;
    auto s = sim::simulate_ring(x, &err);
    if (!s) {
      error_ = err;
      break;
    }
    algos_.push_back({a, s->time_s, s->busiest_port_bytes});
    if (a == in.algorithm) sim_ = std::move(*s);
  }
  if (!error_.empty()) {
    sim_.reset();
    algos_.clear();
    player_ = Player{0, 0, false, player_.speed};
    return;
  }
  player_.steps = static_cast<int>(sim_->steps.size());
  // A new M, alpha or bw keeps the same sends: stay on the step the student is looking at.
  if (rewind || !same_schedule) player_.rewind();
  player_.pos = std::min<double>(player_.pos, player_.steps);
  // A whole run lasts about 15 s whatever N is, unless the student has set a speed.
  if (rewind || player_.speed == auto_speed_) {
    auto_speed_ = std::clamp(std::round(player_.steps / 15.0f), 1.0f, 32.0f);
    player_.speed = auto_speed_;
  }
  state_ = sim::ring_initial_state(*sim_);
  sends_step_ = -1;
  recount();
  sync_state();
}

// The per-rank figures of the current state, from scratch: O(N^2), so only on a rewind.
void RingWidget::recount() {
  const int n = state_.ranks;
  rank_most_.assign(n, 0);
  rank_full_.assign(n, 0);
  full_total_ = 0;
  max_sent_so_far_ = 0;
  for (int r = 0; r < n; ++r) {
    rank_most_[r] = sim::ring_most_contributions(state_, r);
    rank_full_[r] = sim::ring_full_chunks(state_, r);
    full_total_ += rank_full_[r];
    max_sent_so_far_ = std::max(max_sent_so_far_, state_.bytes_sent[r]);
  }
}

// One step forward, updating the figures from the cells it writes only: a step never lowers
// a cell's count (adding grows it, copying writes a full sum), so a cell becomes complete
// exactly when its count reaches N.
bool RingWidget::step_forward() {
  const int n = state_.ranks;
  if (sends_step_ != state_.steps_done) {
    sim::ring_step_sends(*sim_, state_.steps_done, sends_);
    sends_step_ = state_.steps_done;
  }
  old_counts_.clear();
  for (const sim::RingSend& s : sends_)
    for (int j = 0; j < s.chunk_count; ++j) old_counts_.push_back(state_.at(s.to, (s.chunk_first + j) % n).count);
  if (!sim::ring_apply_step(*sim_, state_, scratch_)) return false;
  size_t i = 0;
  for (const sim::RingSend& s : sends_) {
    for (int j = 0; j < s.chunk_count; ++j) {
      const int now = state_.at(s.to, (s.chunk_first + j) % n).count, before = old_counts_[i++];
      if (now == n && before < n) {
        ++rank_full_[s.to];
        ++full_total_;
      }
      rank_most_[s.to] = std::max(rank_most_[s.to], now);
    }
    max_sent_so_far_ = std::max(max_sent_so_far_, state_.bytes_sent[s.from]);
  }
  return true;
}

// Brings the cached state to the player's step: forward a step at a time, backward by
// replaying from the start (a few milliseconds even at 1024 ranks, and only on a click).
void RingWidget::sync_state() {
  if (!sim_) return;
  const int want = std::clamp(player_.step(), 0, player_.steps);
  if (want < state_.steps_done || rank_most_.size() != static_cast<size_t>(state_.ranks)) {
    if (want < state_.steps_done) state_ = sim::ring_initial_state(*sim_);
    recount();
  }
  while (state_.steps_done < want && step_forward()) {
  }
  if (sends_step_ != state_.steps_done) {
    sim::ring_step_sends(*sim_, state_.steps_done, sends_);
    sends_step_ = state_.steps_done;
  }
}

bool RingWidget::draw(const UiEnv& ui, double dt) {
  const sim::RingInputs a = sim::ring_inputs_from(values_);
  if (draw_inputs(ui, values_)) {
    const sim::RingInputs b = sim::ring_inputs_from(values_);
    // Only a rerun when the schedule or the figures really change (sliders report drags).
    if (a.ranks != b.ranks || a.bytes != b.bytes || a.algorithm != b.algorithm || a.collective != b.collective ||
        a.alpha_us != b.alpha_us || a.bw_gbs != b.bw_gbs)
      rerun(false);
  }
  ImGui::Spacing();
  bool animating = draw_player(ui, player_, "ring", dt);
  sync_state();
  tip_shown_.clear();

  if (!error_.empty() || !sim_) {
    text_colored(color::wrong(), ("Cannot simulate these inputs: " + error_).c_str());
    return false;
  }
  if (!state_.error.empty()) text_colored(color::wrong(), state_.error.c_str());

  // On a wide column the figures sit beside the picture; on a phone, below it.
  const float e = em(ui);
  const float avail = ImGui::GetContentRegionAvail().x;
  const bool beside = avail > 44 * e;
  draw_picture(ui, beside ? std::min(avail * 0.55f, 30 * e) : avail);
  if (beside) {
    ImGui::SameLine();
    ImGui::BeginGroup();
  }
  draw_figures(ui);
  draw_comparison(ui);
  if (beside) ImGui::EndGroup();
  draw_busbw(ui);
  return animating;
}

void RingWidget::draw_picture(const UiEnv& ui, float width) {
  const float e = em(ui);
  const int n = sim_->in.ranks;
  const float height = std::min(width, 30 * e);
  ImGui::InvisibleButton("###ring-canvas", ImVec2(std::max(width, 1.0f), std::max(height, 1.0f)));
  const bool hovered = ImGui::IsItemHovered();
  const ImVec2 p0 = ImGui::GetItemRectMin(), p1 = ImGui::GetItemRectMax();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->PushClipRect(p0, p1, true);
  dl->AddRectFilled(p0, p1, color::panel(), 0.4f * e);
  dl->AddRect(p0, p1, color::border(), 0.4f * e);

  const RingGeometry g = ring_geometry(ui, p0, p1, n);
  // The track: the ring itself, faint.
  dl->AddCircle(g.c, g.r_track, color::border(), std::clamp(n * 2, 32, 128), 1.0f);
  draw_ranks(dl, g);
  // ---- the step in flight (or, when paused on a step boundary, the next one)
  if (state_.steps_done < player_.steps && state_.error.empty()) draw_sends(dl, g);
  draw_centre(dl, g);
  dl->PopClipRect();

  if (hovered) hover_tooltip(g);
}

// ---- ranks
void RingWidget::draw_ranks(ImDrawList* dl, const RingGeometry& g) const {
  const int n = g.n;
  const float e = g.e;
  // About 16 labels at most, on round rank numbers.
  int label_every = 1;
  for (int step : {1, 2, 4, 5, 8, 10, 16, 20, 25, 32, 40, 50, 64, 100, 128})
    if (label_every < (n + 15) / 16) label_every = step;
  for (int r = 0; r < n; ++r) {
    const float a = g.angle(r);
    const ImVec2 rc = g.at(g.r_rank, a);
    if (g.cells) {
      draw_rank_cells(dl, g, r, rc);
    } else {
      // One radial bar per rank: pale for its largest partial sum (how far the reduction
      // has come, out of N ranks), dark for the share of its chunks that are complete.
      const float thick = std::clamp(g.spacing * 0.6f, 1.0f, 0.6f * e);
      const ImVec2 in = g.at(g.r_rank - g.half, a), out = g.at(g.r_rank + g.half, a);
      const float part = static_cast<float>(rank_most_[r]) / n;
      const float full = static_cast<float>(rank_full_[r]) / n;
      dl->AddLine(in, out, color::code_bg(), thick);
      if (part > 0) dl->AddLine(in, lerp(in, out, part), (color::accent() & ~IM_COL32_A_MASK) | IM_COL32(0, 0, 0, 0x60), thick);
      if (full > 0) dl->AddLine(in, lerp(in, out, full), color::accent(), thick);
    }
    if (r % label_every == 0 && (r == 0 || n - r >= (label_every + 1) / 2)) {
      char label[16];
      std::snprintf(label, sizeof label, "r%d", r);
      const ImVec2 ts = g.font->CalcTextSizeA(g.label_size, FLT_MAX, 0, label);
      // Just outside the rank's grid (or bar) along its direction: the extent of a box of
      // half-size (w, h) along (cos a, sin a) is w|cos a| + h|sin a|.
      const float ca = std::fabs(std::cos(a)), sa = std::fabs(std::sin(a));
      const float grid_extent = g.cells ? 0.5f * g.cell * (g.cols * ca + g.rows * sa) : g.half;
      const float lr = g.r_rank + grid_extent + 0.25f * e + 0.5f * (ts.x * ca + ts.y * sa);
      const ImVec2 lc = g.at(lr, a);
      dl->AddText(g.font, g.label_size, ImVec2(lc.x - ts.x * 0.5f, lc.y - ts.y * 0.5f), color::muted(), label);
    }
  }
}

// Rank r's N chunk cells as a grid centred on rc.
void RingWidget::draw_rank_cells(ImDrawList* dl, const RingGeometry& g, int r, ImVec2 rc) const {
  const int n = g.n;
  const float cell = g.cell;
  const float x0 = rc.x - 0.5f * cell * g.cols, y0 = rc.y - 0.5f * cell * g.rows;
  for (int k = 0; k < n; ++k) {
    const sim::Contribution h = state_.at(r, k);
    const ImVec2 a0(x0 + (k % g.cols) * cell, y0 + (k / g.cols) * cell);
    const ImVec2 a1(a0.x + cell - 1, a0.y + cell - 1);
    dl->AddRectFilled(a0, a1, h.count > 0 ? chunk_color(k, n, 0.18f) : color::code_bg());
    if (h.count > 0) {
      // Filled from the bottom by the share of the N contributions summed in; solid
      // once complete.
      const bool full = h.count == n;
      const float f = static_cast<float>(h.count) / n;
      dl->AddRectFilled(ImVec2(a0.x, a1.y - (a1.y - a0.y) * f), a1, chunk_color(k, n, full ? 1.0f : 0.7f));
      if (full) dl->AddRect(a0, a1, (color::text() & ~IM_COL32_A_MASK) | IM_COL32(0, 0, 0, 0x90));
    } else {
      dl->AddRect(a0, a1, color::border());
    }
  }
}

// The step in flight (or, when paused on a step boundary, the next one): its sends as
// arrows with packets moving along them.
void RingWidget::draw_sends(ImDrawList* dl, const RingGeometry& g) const {
  const int n = g.n;
  const float e = g.e;
  const float t = static_cast<float>(player_.frac());
  const bool ring = sim_->in.algorithm == sim::CollectiveAlgorithm::Ring;
  const bool arrows = n <= kArrowsMaxRanks;
  const float packet = std::clamp(g.spacing * 0.35f, 2.0f, 0.55f * e);
  const ImU32 line_col = (color::muted() & ~IM_COL32_A_MASK) | IM_COL32(0, 0, 0, 0x70);
  for (const sim::RingSend& s : sends_) {
    const float a_from = g.angle(s.from), a_to = g.angle(s.to);
    ImVec2 pos;
    if (ring) {
      // Along the ring, from one rank to the next, clockwise.
      const float a_end = a_from + 2 * kPi / n;
      if (arrows) {
        dl->PathArcTo(g.c, g.r_track, a_from, a_end, std::max(2, 48 / n + 2));
        dl->PathStroke(line_col, 0, 1.5f);
        arrow_head(dl, g.at(g.r_track, a_end), ImVec2(-std::sin(a_end), std::cos(a_end)), 0.5f * e, line_col);
      }
      pos = g.at(g.r_track, a_from + (a_end - a_from) * t);
    } else {
      const ImVec2 f = g.at(g.r_track, a_from), to = g.at(g.r_track, a_to);
      if (arrows) {
        dl->AddLine(f, to, line_col, 1.5f);
        arrow_head(dl, to, ImVec2(to.x - f.x, to.y - f.y), 0.5f * e, line_col);
      }
      pos = lerp(f, to, t);
    }
    draw_packet(dl, s, pos, packet, n);
  }
}

// Centre: what is happening.
void RingWidget::draw_centre(ImDrawList* dl, const RingGeometry& g) const {
  const char* what = state_.steps_done < player_.steps ? sim::phase_name(sim_->steps[state_.steps_done].phase) : "done";
  char line[64];
  std::snprintf(line, sizeof line, "step %d of %d", state_.steps_done, player_.steps);
  const float sz = std::min(g.e, g.r_track * 0.3f);
  ImVec2 s1 = g.font->CalcTextSizeA(sz, FLT_MAX, 0, line), s2 = g.font->CalcTextSizeA(sz, FLT_MAX, 0, what);
  // Only where it clears the packets on the track (the same words are below the picture).
  if (std::max(s1.x, s2.x) < 1.6f * g.r_track) {
    dl->AddText(g.font, sz, ImVec2(g.c.x - s1.x * 0.5f, g.c.y - s1.y), color::text(), line);
    dl->AddText(g.font, sz, ImVec2(g.c.x - s2.x * 0.5f, g.c.y), color::muted(), what);
  }
}

// The rank under the pointer, from its angle (no search over ranks).
void RingWidget::hover_tooltip(const RingGeometry& g) {
  const int n = g.n;
  const ImVec2 m = ImGui::GetIO().MousePos;
  const float dx = m.x - g.c.x, dy = m.y - g.c.y;
  const float dist = std::sqrt(dx * dx + dy * dy);
  if (dist > g.r_track && dist < g.r_out + g.label_room) {
    float a = std::atan2(dy, dx) + 0.5f * kPi;
    int r = static_cast<int>(std::lround(a / (2 * kPi) * n));
    tooltip_for(((r % n) + n) % n);
  }
}

// "ranks 6-7, 0-2" for the arc 6, 7, 0, 1, 2 (it may wrap past the last rank).
std::string ranks_text(sim::Contribution h, int n) {
  auto run = [](int a, int b) { return a == b ? std::to_string(a) : std::to_string(a) + "-" + std::to_string(b); };
  const int last = h.first + h.count - 1;
  std::string s = h.count == 1 ? "rank " : "ranks ";
  if (last < n) return s + run(h.first, last);
  return s + run(h.first, n - 1) + ", " + run(0, last - n);
}

void RingWidget::tooltip_for(int rank) {
  const int n = state_.ranks;
  ImGui::BeginTooltip();
  ImGui::Text("rank %d", rank);
  ImGui::Text("%d of %d chunks complete", rank_full_[rank], n);
  ImGui::Text("sent %s so far", format_bytes(static_cast<double>(state_.bytes_sent[rank])).c_str());
  if (n <= kCellsMaxRanks) {
    for (int k = 0; k < n; ++k) {
      const sim::Contribution h = state_.at(rank, k);
      std::string who;
      if (h.count == 0) who = "not held";
      else if (h.count == n) who = "sum of all ranks";
      else who = ranks_text(h, n) + " (" + std::to_string(h.count) + " of " + std::to_string(n) + ")";
      ImGui::Text("chunk %d: %s", k, who.c_str());
    }
  }
  ImGui::EndTooltip();
}

void RingWidget::draw_figures(const UiEnv& ui) {
  const sim::RingSim& s = *sim_;
  const int n = s.in.ranks;
  const int done = state_.steps_done;
  ImGui::Spacing();
  std::string next = done < player_.steps ? "Step " + std::to_string(done + 1) + ": " + sim::phase_name(s.steps[done].phase) +
                                                (sim::phase_reduces(s.steps[done].phase) ? " (adds)." : " (copies).")
                                          : "Finished.";
  ImGui::TextWrapped("Steps done: %d of %d. %s Chunk: %s%s; each step costs alpha + its largest send / bw.", done,
                     player_.steps, next.c_str(), format_bytes(static_cast<double>(s.chunk_bytes.front())).c_str(),
                     s.chunk_bytes.front() != s.chunk_bytes.back() ? " (some one byte less)" : "");
  ImGui::TextWrapped("Sent so far: %s by the busiest rank, %s in total. Time so far: %s of %s.",
                     format_bytes(static_cast<double>(max_sent_so_far_)).c_str(),
                     format_bytes(static_cast<double>(state_.bytes_total)).c_str(), format_seconds(state_.time_s).c_str(),
                     format_seconds(s.time_s).c_str());
  ImGui::TextWrapped("Fully reduced chunks held: %d of %d.", full_total_, n * n);
  ImGui::TextWrapped("At the end: %s sent by the busiest rank (%.4g × M), algBw %s, busBw %s.",
                     format_bytes(static_cast<double>(s.max_bytes_sent)).c_str(),
                     static_cast<double>(s.max_bytes_sent) / static_cast<double>(s.in.bytes),
                     format_si(s.algbw_gbs * 1e9, "B/s").c_str(), format_si(s.busbw_gbs * 1e9, "B/s").c_str());
  ImGui::PushStyleColor(ImGuiCol_Text, color::muted());
  ImGui::TextWrapped(n <= kCellsMaxRanks
                         ? "Each rank's cells are its N chunks, coloured by chunk; a cell fills as contributions are "
                           "summed into it and turns solid with all N. Hover a rank for its chunks."
                         : "Each rank's bar: pale, the most ranks summed into any one of its chunks (out of N); dark, "
                           "the share of its chunks that are complete. Hover a rank for its figures.");
  ImGui::PopStyleColor();
}

void RingWidget::draw_comparison(const UiEnv& ui) {
  if (algos_.empty()) return;
  const float e = em(ui);
  ImGui::Spacing();
  ImGui::TextWrapped("Busiest port (bytes in + out) and time, for the same N, M and collective:");
  uint64_t most = 1;
  for (const Algo& a : algos_) most = std::max(most, a.busiest_port_bytes);
  const float width = ImGui::GetContentRegionAvail().x;
  const float name_w = 3.5f * e, text_w = std::min(11 * e, width * 0.45f);
  const float bar_w = std::max(2 * e, width - name_w - text_w);
  const float row_h = ImGui::GetTextLineHeightWithSpacing();
  ImGui::Dummy(ImVec2(width, row_h * algos_.size()));
  const ImVec2 p0 = ImGui::GetItemRectMin();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (size_t i = 0; i < algos_.size(); ++i) {
    const Algo& a = algos_[i];
    const bool mine = a.algorithm == sim_->in.algorithm;
    const float y = p0.y + row_h * i;
    dl->AddText(ImVec2(p0.x, y), mine ? color::text() : color::muted(), sim::algorithm_name(a.algorithm));
    const float w = std::max(2.0f, bar_w * static_cast<float>(static_cast<double>(a.busiest_port_bytes) / most));
    dl->AddRectFilled(ImVec2(p0.x + name_w, y + 0.2f * row_h), ImVec2(p0.x + name_w + w, y + 0.8f * row_h),
                      mine ? color::accent() : color::border(), 0.15f * e);
    std::string t = format_bytes(static_cast<double>(a.busiest_port_bytes)) + ", " + format_seconds(a.time_s);
    dl->AddText(ImVec2(p0.x + name_w + bar_w + 0.4f * e, y), mine ? color::text() : color::muted(), t.c_str());
  }
}

// Every collective's busBw factor at this N, and the busBw nccl-tests would print for each at
// the algBw simulated here (busBw = algBw × factor); the animated collective's row is marked.
void RingWidget::draw_busbw(const UiEnv& ui) {
  const int n = sim_->in.ranks;
  const sim::Collective mine = animated_collective(sim_->in.collective);
  const double algbw = sim_->algbw_gbs;
  ImGui::Spacing();
  if (ui.fonts.bold) ImGui::PushFont(ui.fonts.bold);
  ImGui::TextUnformatted("Bus bandwidth of every collective");
  if (ui.fonts.bold) ImGui::PopFont();
  ImGui::PushStyleColor(ImGuiCol_Text, color::muted());
  ImGui::TextWrapped("busBw = algBw × factor, at n = %d ranks and the algBw simulated above (%s). nccl-tests prints "
                     "busBw so that results compare across n; hover a factor for its formula and source.",
                     n, format_si(algbw * 1e9, "B/s").c_str());
  ImGui::PopStyleColor();
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
  if (!ImGui::BeginTable("ring-busbw", 3, flags)) return;
  ImGui::TableSetupColumn("collective");
  ImGui::TableSetupColumn("factor at n");
  ImGui::TableSetupColumn("busBw");
  ImGui::TableHeadersRow();
  for (const BusRow& b : bus_rows()) {
    const bool animated = !b.in_network && b.op == mine;
    const double f = sim::busbw_factor(b.op, n, b.in_network);
    const std::string key = bus_key(b);
    const std::string tip = sim::formula_with_source(sim::collective_formula_id(b.op, b.in_network));
    ImGui::TableNextRow();
    if (animated) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, (color::accent() & ~IM_COL32_A_MASK) | IM_COL32(0, 0, 0, 0x38));
    ImGui::TableSetColumnIndex(0);
    const std::string name = (animated ? "▶ " : "") + bus_label(b);
    if (animated) text_colored(color::text(), name.c_str());
    else ImGui::TextUnformatted(name.c_str());
    ImGui::TableSetColumnIndex(1);
    const std::string ft = factor_cell(b, n);
    ImGui::TextUnformatted(ft.c_str());
    if (figure_tip(ui, ("ring-fig-busbw-" + key).c_str(), tip)) tip_shown_ = tip;
    ImGui::TableSetColumnIndex(2);
    ImGui::TextUnformatted(format_si(algbw * f * 1e9, "B/s").c_str());
    if (figure_tip(ui, ("ring-fig-busbw-" + key + "-bw").c_str(), tip)) tip_shown_ = tip;
  }
  ImGui::EndTable();
  ImGui::PushStyleColor(ImGuiCol_Text, color::muted());
  ImGui::TextWrapped("▶ marks the collective animated above. In-network AllReduce (SHARP, NVLS): in the ideal model "
                     "each rank's link carries its buffer once each way, so 1 whatever n; nccl-tests still prints "
                     "2(n-1)/n for it.");
  ImGui::PopStyleColor();
}

std::string RingWidget::describe() const {
  const sim::RingInputs in = sim::ring_inputs_from(values_);
  std::string o = std::string(sim::collective_name(in.collective)) + " of " + format_bytes(static_cast<double>(in.bytes)) +
                  " over " + std::to_string(in.ranks) + " ranks, " + sim::algorithm_name(in.algorithm) + " algorithm. ";
  o[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(o[0])));  // "allreduce" starts the sentence
  if (!sim_) return o + error_;
  const bool done = state_.steps_done >= player_.steps;
  o += "Step " + std::to_string(state_.steps_done) + " of " + std::to_string(player_.steps) + ", " +
       (done ? std::string("finished") : std::string(sim::phase_name(sim_->steps[state_.steps_done].phase)) + " next") + ". ";
  o += "Sent so far: " + format_bytes(static_cast<double>(state_.bytes_total)) + " by all ranks, at most " +
       format_bytes(static_cast<double>(max_sent_so_far_)) + " by one rank, in " + format_seconds(state_.time_s) + ". ";
  o += std::to_string(full_total_) + " of " + std::to_string(in.ranks * in.ranks) + " chunks are fully summed. ";
  o += "Whole collective: " + format_bytes(static_cast<double>(sim_->max_bytes_sent)) + " sent per rank, " +
       format_seconds(sim_->time_s) + ".";
  // The table below the figures, with each factor's formula (what hovering shows).
  o += " Bus bandwidth factors at n = " + std::to_string(in.ranks) + ", busBw = algBw × factor (nccl-tests "
       "doc/PERFORMANCE.md; in-network AllReduce: nccl-tests issue #366): ";
  for (size_t i = 0; i < bus_rows().size(); ++i) {
    const BusRow& b = bus_rows()[i];
    o += bus_label(b) + " " + factor_cell(b, in.ranks);
    o += i + 1 < bus_rows().size() ? ", " : ".";
  }
  if (!state_.error.empty()) o += " " + state_.error;
  return o;
}

std::string RingWidget::state_json() const {
  std::string o = "{\"kind\":\"ring\"";
  char buf[160];
  std::snprintf(buf, sizeof buf, ",\"step\":%d,\"steps\":%d,\"playing\":%s", sim_ ? state_.steps_done : 0, player_.steps,
                player_.playing ? "true" : "false");
  o += buf;
  const sim::RingInputs in = sim::ring_inputs_from(values_);
  std::snprintf(buf, sizeof buf, ",\"N\":%d,\"M\":%llu", in.ranks, static_cast<unsigned long long>(in.bytes));
  o += buf;
  o += ",\"algorithm\":" + json_str(sim::algorithm_name(in.algorithm));
  o += ",\"collective\":" + json_str(sim::collective_name(in.collective));
  if (!sim_) return o + ",\"error\":" + json_str(error_) + "}";
  // bytes_per_rank: what the busiest rank sends over the whole collective (every rank,
  // when N divides M).
  std::snprintf(buf, sizeof buf,
                ",\"bytes_per_rank\":%llu,\"bytes_total\":%llu,\"total_time_s\":%.17g,\"busiest_port_bytes\":%llu",
                static_cast<unsigned long long>(sim_->max_bytes_sent), static_cast<unsigned long long>(sim_->bytes_total),
                sim_->time_s, static_cast<unsigned long long>(sim_->busiest_port_bytes));
  o += buf;
  std::snprintf(buf, sizeof buf,
                ",\"time_so_far_s\":%.17g,\"bytes_sent_so_far\":%llu,\"full_chunks_held\":%d,\"algbw_gbs\":%.17g,"
                "\"busbw_gbs\":%.17g",
                state_.time_s, static_cast<unsigned long long>(state_.bytes_total), full_total_, sim_->algbw_gbs,
                sim_->busbw_gbs);
  o += buf;
  const char* phase = state_.steps_done < player_.steps ? sim::phase_name(sim_->steps[state_.steps_done].phase) : "done";
  o += ",\"phase\":" + json_str(phase);
  // The bus-bandwidth table as drawn: factor at N and busBw at the simulated algBw.
  o += ",\"busbw_rows\":[";
  const sim::Collective mine = animated_collective(in.collective);
  for (size_t i = 0; i < bus_rows().size(); ++i) {
    const BusRow& b = bus_rows()[i];
    const double f = sim::busbw_factor(b.op, in.ranks, b.in_network);
    char row[320];
    std::snprintf(row, sizeof row, "%s{\"op\":%s,\"in_network\":%s,\"factor\":%.17g,\"busbw_gbs\":%.17g,\"animated\":%s",
                  i ? "," : "", json_str(sim::collective_op_name(b.op)).c_str(), b.in_network ? "true" : "false", f,
                  sim_->algbw_gbs * f, !b.in_network && b.op == mine ? "true" : "false");
    o += row;
    o += ",\"label\":" + json_str(bus_label(b)) + ",\"formula\":" + json_str(sim::collective_formula_id(b.op, b.in_network)) + "}";
  }
  o += "],\"tooltip\":" + json_str(tip_shown_);
  if (!state_.error.empty()) o += ",\"error\":" + json_str(state_.error);
  return o + "}";
}

}  // namespace

std::unique_ptr<Widget> make_ring_widget() { return std::make_unique<RingWidget>(); }

}  // namespace dtx::web
