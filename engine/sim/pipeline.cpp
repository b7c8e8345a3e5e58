#include "sim/pipeline.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>

namespace dtx::sim {

const WidgetKind& pipeline_widget_kind() {
  static const WidgetKind k = {
      "pipeline", "Pipeline schedules", "a Gantt chart of stages and microbatches with the bubble",
      {{"schedule", "schedule", 0, 7, 2, true, false,
        {"naive", "gpipe", "1f1b", "interleaved", "zb-h1", "zb-h2", "zb-v", "dualpipe"},
        "naive (whole batch as one block), gpipe, 1f1b, interleaved (Megatron-LM), zb-h1, zb-h2 or zb-v (zero "
        "bubble), dualpipe (DeepSeek-V3, microbatches fed from both ends)"},
       {"p", "stages p", 1, kPipelineMaxStages, 4, true, false, {}, "pipeline stages (GPUs in the pipeline)"},
       {"m", "microbatches m", 1, kPipelineMaxMicrobatches, 8, true, false, {}, "microbatches per optimizer step"},
       {"v", "chunks per stage v", 1, kPipelineMaxChunks, 2, true, false, {},
        "chunks per stage, interleaved only: each chunk op takes 1/v of f, b and w"},
       {"group", "microbatch group G", 0, kPipelineMaxMicrobatches, 0, true, false, {},
        "interleaved only: microbatches per chunk before the next chunk (Megatron-LM's "
        "microbatch_group_size_per_vp_stage), from p to m; 0 = p",
        true},
       {"f", "forward f (ms)", 0.1, 50, 10, false, false, {}, "forward of one microbatch through one whole stage"},
       {"b", "backward B (ms)", 0.1, 50, 10, false, false, {},
        "backward for the input gradient, which the previous stage waits for"},
       {"w", "weight grad W (ms)", 0, 50, 10, false, false, {},
        "backward for the weight gradient; zb-h1, zb-h2 and zb-v run it apart, dualpipe in some backwards, the "
        "others run one backward of b + w"}},
      // What Megatron-LM refuses too (an interleaved schedule with m < p, a group that does
      // not divide): the simulation's own error.
      [](const WidgetValues& v) -> std::string { return simulate_pipeline(pipeline_inputs(v)).error; }};
  return k;
}

const char* pipe_schedule_name(PipeSchedule s) {
  switch (s) {
    case PipeSchedule::Naive: return "naive";
    case PipeSchedule::GPipe: return "gpipe";
    case PipeSchedule::OneFOneB: return "1f1b";
    case PipeSchedule::Interleaved: return "interleaved";
    case PipeSchedule::ZbH1: return "zb-h1";
    case PipeSchedule::ZbH2: return "zb-h2";
    case PipeSchedule::ZbV: return "zb-v";
    case PipeSchedule::DualPipe: return "dualpipe";
  }
  return "?";
}

const char* pipe_schedule_formula_id(PipeSchedule s) {
  switch (s) {
    case PipeSchedule::Naive: return "pipeline.naive";
    case PipeSchedule::GPipe: return "pipeline.gpipe";
    case PipeSchedule::OneFOneB: return "pipeline.1f1b";
    case PipeSchedule::Interleaved: return "pipeline.interleaved";
    case PipeSchedule::ZbH1: return "pipeline.zb-h1";
    case PipeSchedule::ZbH2: return "pipeline.zb-h2";
    case PipeSchedule::ZbV: return "pipeline.zb-v";
    case PipeSchedule::DualPipe: return "pipeline.dualpipe";
  }
  return "";
}

const char* pipe_op_kind_name(PipeOpKind k) {
  return k == PipeOpKind::F ? "F" : k == PipeOpKind::B ? "B" : "W";
}

PipelineInputs pipeline_inputs(const WidgetValues& v) {
  PipelineInputs in;
  const int last = static_cast<int>(PipeSchedule::DualPipe);
  in.schedule = static_cast<PipeSchedule>(std::clamp(v.get_int("schedule"), 0, last));
  in.p = v.get_int("p");
  in.m = v.get_int("m");
  in.v = v.get_int("v");
  in.group = v.get_int("group");
  in.f_ms = v.get("f");
  in.b_ms = v.get("b");
  in.w_ms = v.get("w");
  return in;
}

std::string pipe_op_label(const PipelineResult& r, const PipeOp& op) {
  char buf[32];
  if (r.in.schedule == PipeSchedule::Naive)
    std::snprintf(buf, sizeof buf, "%s1-%d", pipe_op_kind_name(op.kind), r.in.m);
  else if (r.chunks > 1 && r.in.schedule != PipeSchedule::DualPipe)
    std::snprintf(buf, sizeof buf, "%s%dc%d", pipe_op_kind_name(op.kind), op.microbatch + 1, op.chunk + 1);
  else
    std::snprintf(buf, sizeof buf, "%s%d", pipe_op_kind_name(op.kind), op.microbatch + 1);
  return buf;
}

PipelineFormula pipeline_formula_1f1b(int p, int m) {
  PipelineFormula f;
  f.total_text = "(p-1)/(m+p-1)";
  f.ideal_text = "(p-1)/m";
  f.total = (p - 1.0) / (m + p - 1.0);
  f.ideal = (p - 1.0) / m;
  return f;
}

PipelineFormula pipeline_formula(const PipelineInputs& in) {
  const double p = in.p, m = in.m;
  PipelineFormula f;
  switch (in.schedule) {
    case PipeSchedule::Naive:
      f.total_text = "(p-1)/p";
      f.ideal_text = "p-1";
      f.total = (p - 1) / p;
      f.ideal = p - 1;
      return f;
    case PipeSchedule::GPipe:
    case PipeSchedule::OneFOneB:
      return pipeline_formula_1f1b(in.p, in.m);
    case PipeSchedule::Interleaved: {
      const double v = std::max(1, in.v);
      f.total_text = "(p-1)/(m·v+p-1)";
      f.ideal_text = "(p-1)/(m·v)";
      f.total = (p - 1) / (m * v + p - 1);
      f.ideal = (p - 1) / (m * v);
      return f;
    }
    case PipeSchedule::ZbH1: {
      // Table 2 of the paper: (p-1)(TF + TB - TW) idle per stage, against m(TF + TB + TW).
      const double idle = (p - 1) * (in.f_ms + in.b_ms - in.w_ms);
      const double ideal = m * (in.f_ms + in.b_ms + in.w_ms);
      f.total_text = "(p-1)(f+b-w) / (m(f+b+w) + (p-1)(f+b-w))";
      f.ideal_text = "(p-1)(f+b-w) / (m(f+b+w))";
      f.ideal = idle / ideal;
      f.total = idle / (ideal + idle);
      return f;
    }
    case PipeSchedule::ZbH2: {
      // Table 2: (p-1)(TF + TB - 2TW), never below zero.
      const double idle = std::max(0.0, (p - 1) * (in.f_ms + in.b_ms - 2 * in.w_ms));
      const double ideal = m * (in.f_ms + in.b_ms + in.w_ms);
      f.total_text = "(p-1)(f+b-2w) / (m(f+b+w) + (p-1)(f+b-2w))";
      f.ideal_text = "(p-1)(f+b-2w) / (m(f+b+w))";
      f.ideal = idle / ideal;
      f.total = idle / (ideal + idle);
      return f;
    }
    case PipeSchedule::ZbV:
      // sail-sg/zero-bubble-pipeline-parallelism README.md, its table of schedules "assuming
      // T_F = T_B = T_W": ZBV's bubble rate is 0. The source states nothing for other times.
      f.total_text = "0 (for f = b = w)";
      f.ideal_text = "0 (for f = b = w)";
      return f;
    case PipeSchedule::DualPipe: {
      // DeepSeek-V3 report, table 2: (PP/2-1)(F&B + B - 3W) per stage, where B is a full
      // backward (b + w) and F&B one overlapped forward and full backward (f + b + w here,
      // since communication, the thing the overlap hides, takes no time): (p/2-1)(f+2b-w).
      const double idle = std::max(0.0, (p / 2 - 1) * (in.f_ms + 2 * in.b_ms - in.w_ms));
      const double ideal = m * (in.f_ms + in.b_ms + in.w_ms);
      f.total_text = "(p/2-1)(f+2b-w) / (m(f+b+w) + (p/2-1)(f+2b-w))";
      f.ideal_text = "(p/2-1)(f+2b-w) / (m(f+b+w))";
      f.ideal = idle / ideal;
      f.total = idle / (ideal + idle);
      return f;
    }
  }
  return f;
}

namespace {

// One op of a stage's order before it is timed.
struct Slot {
  int mb, chunk;
  PipeOpKind kind;
  bool w_apart = false;     // B: its W is a later op of its own
  bool overlapped = false;  // DualPipe: an F&B block's F (the B follows it) or its B
};

// Megatron-LM's forward_backward_pipelining_without_interleaving, as an order of ops.
int warmup_1f1b(int p, int m, int rank) { return std::min(p - rank - 1, m); }

std::vector<Slot> order_1f1b(int p, int m, int rank) {
  std::vector<Slot> o;
  const int warmup = warmup_1f1b(p, m, rank);
  const int remaining = m - warmup;
  for (int i = 0; i < warmup; ++i) o.push_back({i, 0, PipeOpKind::F});
  for (int i = 0; i < remaining; ++i) {
    o.push_back({warmup + i, 0, PipeOpKind::F});
    o.push_back({i, 0, PipeOpKind::B});
  }
  for (int i = remaining; i < m; ++i) o.push_back({i, 0, PipeOpKind::B});
  return o;
}

// ZB-H1: 1F1B's F/B order; W of microbatch j goes right after B of microbatch j + rank,
// the rest after the last B. On stage 0 every W follows its own B (peak memory as 1F1B);
// each later stage delays W by one more microbatch, which lets its B go out earlier and
// moves rank W passes into the drain, where the stage would otherwise wait.
std::vector<Slot> order_zb_h1(int p, int m, int rank) {
  std::vector<Slot> o;
  int next_w = 0;
  for (const Slot& s : order_1f1b(p, m, rank)) {
    o.push_back(s);
    if (s.kind == PipeOpKind::B && s.mb - rank >= 0) o.push_back({next_w++, 0, PipeOpKind::W});
  }
  while (next_w < m) o.push_back({next_w++, 0, PipeOpKind::W});
  return o;
}

// ZB-H2 (see pipeline.h): warm-up forwards, forward/B pairs whose W waits, F-B-W triples,
// then B-W pairs and the W passes left over.
std::vector<Slot> order_zb_h2(int p, int m, int rank) {
  const int warm = std::min(2 * (p - 1 - rank) + 1, m);
  const int pairs = std::min(2 * rank, m - warm);
  const int triples = m - warm - pairs;
  std::vector<Slot> o;
  int f = 0, b = 0, w = 0;
  for (int i = 0; i < warm; ++i) o.push_back({f++, 0, PipeOpKind::F});
  for (int i = 0; i < pairs; ++i) {
    o.push_back({b++, 0, PipeOpKind::B});
    o.push_back({f++, 0, PipeOpKind::F});
  }
  for (int i = 0; i < triples; ++i) {
    o.push_back({b++, 0, PipeOpKind::B});
    o.push_back({w++, 0, PipeOpKind::W});
    o.push_back({f++, 0, PipeOpKind::F});
  }
  while (b < m) {
    o.push_back({b++, 0, PipeOpKind::B});
    o.push_back({w++, 0, PipeOpKind::W});
  }
  while (w < m) o.push_back({w++, 0, PipeOpKind::W});
  return o;
}

// Megatron-LM's forward_backward_pipelining_with_interleaving, as current main runs it.
// get_schedule_table: virtual microbatches go through the chunks in groups of G microbatches
// (the last group takes the rest), chunk by chunk; a backward walks the chunks in reverse.
// get_pp_rank_microbatches: rank r warms up with 2(p-r-1) + (v-1)·G chunk forwards, capped
// at m·v (older Megatron, and dtx before, used every forward when m = p).
int warmup_interleaved(int p, int m, int v, int group, int rank) {
  return std::min((p - rank - 1) * 2 + (v - 1) * group, m * v);
}

std::vector<Slot> order_interleaved(int p, int m, int v, int group, int rank) {
  const int total = m * v;
  const int warmup = warmup_interleaved(p, m, v, group, rank);
  const int remaining = total - warmup;
  std::vector<Slot> table;  // (microbatch, chunk) of each virtual microbatch
  for (int first = 0; first < m; first += group) {
    const int last = first + group >= m ? m : first + group;
    for (int c = 0; c < v; ++c)
      for (int mb = first; mb < last; ++mb) table.push_back({mb, c, PipeOpKind::F});
    if (last == m) break;
  }
  auto virt = [&](int k, bool forward) {
    Slot s = table[static_cast<size_t>(k)];
    if (!forward) {
      s.chunk = v - 1 - s.chunk;
      s.kind = PipeOpKind::B;
    }
    return s;
  };
  std::vector<Slot> o;
  for (int k = 0; k < warmup; ++k) o.push_back(virt(k, true));
  for (int i = 0; i < remaining; ++i) {
    o.push_back(virt(warmup + i, true));
    o.push_back(virt(i, false));
  }
  for (int i = remaining; i < total; ++i) o.push_back(virt(i, false));
  return o;
}

// ZB-V (see pipeline.h): the closed form of what sail-sg's zbv.py (PipelineGraph.
// try_v_schedule) schedules for F = B = W; chunk 0 is the V's way down, chunk 1 its way up,
// so chunk 1's backward runs first. W passes run in the order of their B (the repo keeps
// them in a FIFO, pending_w).
std::vector<Slot> order_zb_v(int p, int m, int rank) {
  std::vector<Slot> o;
  int fwd[2] = {0, 0}, bwd[2] = {0, 0};
  std::deque<Slot> waiting;  // W passes whose B has run, oldest first
  auto F = [&](int c) { o.push_back({fwd[c]++, c, PipeOpKind::F}); };
  auto B = [&](int c) {
    o.push_back({bwd[c], c, PipeOpKind::B, true});
    waiting.push_back({bwd[c]++, c, PipeOpKind::W});
  };
  auto W = [&] {
    o.push_back(waiting.front());
    waiting.pop_front();
  };
  // Warm-up: the V's first leg fills first, so the stage holds 2p chunk activations at most.
  for (int i = 0; i < 2 * (p - rank) - 1; ++i) F(0);
  for (int i = 0; i < rank; ++i) {
    F(1);
    F(0);
  }
  for (int i = 0; i < p - rank; ++i) {
    F(1);
    B(1);
    W();
  }
  // Steady state: each forward is followed by a B and a W, which keeps memory flat.
  while (fwd[1] < m) {
    if (fwd[0] < m) F(0);
    B(0);
    W();
    F(1);
    B(1);
    if (fwd[1] < m) W();
  }
  // Cool-down: the backwards left, with W passes in the holes a waiting B would leave.
  for (int i = 0; i < p; ++i) {
    B(0);
    if (i < rank) B(1);
    else if (i < p - 1) W();
  }
  while (!waiting.empty()) W();
  return o;
}

// DualPipe.step's eight steps (dualpipe/dualpipe.py; see pipeline.h). Phase 0 is the
// direction whose input enters near this rank (rank 0's for the first half of the ranks,
// rank p-1's for the second): the direction is phase ^ second_half. Direction d carries
// microbatches d·m/2 .. d·m/2 + m/2 - 1 on chunk d.
std::vector<Slot> order_dualpipe(int p, int m, int rank) {
  const int half_p = p / 2, half_m = m / 2, h = std::min(rank, p - 1 - rank);
  const int second = rank >= half_p ? 1 : 0;
  const bool middle = h == half_p - 1;
  std::vector<Slot> o;
  int fwd[2] = {0, 0}, bwd[2] = {0, 0};
  std::deque<Slot> waiting;  // the W of every B that left it for later, oldest first
  auto F = [&](int phase, bool overlapped = false) {
    const int d = phase ^ second;
    o.push_back({d * half_m + fwd[d]++, d, PipeOpKind::F, false, overlapped});
  };
  auto B = [&](int phase, bool w_apart, bool overlapped = false) {
    const int d = phase ^ second, mb = d * half_m + bwd[d]++;
    o.push_back({mb, d, PipeOpKind::B, w_apart, overlapped});
    if (w_apart) waiting.push_back({mb, d, PipeOpKind::W});
  };
  auto W = [&] {
    o.push_back(waiting.front());
    waiting.pop_front();
  };
  auto FB = [&](int f_phase, int b_phase) {  // one overlapped F&B block, full backward
    F(f_phase, true);
    B(b_phase, false, true);
  };
  for (int i = 0; i < 2 * (half_p - h - 1); ++i) F(0);  // step 1: nF0
  for (int i = 0; i < h + 1; ++i) {  // step 2: nF0F1
    F(0);
    F(1);
  }
  for (int i = 0; i < half_p - h - 1; ++i) {  // step 3: nB1W1F1
    B(1, true);
    W();
    F(1);
  }
  for (int i = 0; i < half_m - p + h + 1; ++i) {  // step 4: nF0B1F1B0
    if (i == 0 && middle) {  // the reference runs this pair apart, to shrink the bubble
      F(0);
      B(1, false);
    } else {
      FB(0, 1);
    }
    FB(1, 0);
  }
  for (int i = 0; i < half_p - h - 1; ++i) {  // step 5: nB1F1B0
    B(1, false);
    FB(1, 0);
  }
  bool apart = false;  // step 6: nB1B0, the W of the second half of them apart
  for (int i = 0; i < h + 1; ++i) {
    if (i == (h + 1) / 2 && h % 2 == 1) apart = true;
    B(1, apart);
    if (i == (h + 1) / 2 && h % 2 == 0) apart = true;
    B(0, apart);
  }
  for (int i = 0; i < half_p - h - 1; ++i) {  // step 7: nWB0
    W();
    B(0, true);
  }
  while (!waiting.empty()) W();  // step 8: the h+1 W passes left
  return o;
}

std::string check_inputs(const PipelineInputs& in) {
  char buf[400];
  auto fail = [&](const char* fmt, auto... a) {
    std::snprintf(buf, sizeof buf, fmt, a...);
    return std::string(buf);
  };
  if (in.p < 1 || in.p > kPipelineMaxStages)
    return fail("p must be a whole number of stages from 1 to %d, got %d", kPipelineMaxStages, in.p);
  if (in.m < 1 || in.m > kPipelineMaxMicrobatches)
    return fail("m must be a whole number of microbatches from 1 to %d, got %d", kPipelineMaxMicrobatches, in.m);
  if (in.v < 1 || in.v > kPipelineMaxChunks)
    return fail("v must be a whole number of chunks from 1 to %d, got %d", kPipelineMaxChunks, in.v);
  if (!(in.f_ms > 0) || !std::isfinite(in.f_ms)) return fail("f must be a positive time, got %g", in.f_ms);
  if (!(in.b_ms > 0) || !std::isfinite(in.b_ms)) return fail("b must be a positive time, got %g", in.b_ms);
  if (!(in.w_ms >= 0) || !std::isfinite(in.w_ms)) return fail("w must be zero or a positive time, got %g", in.w_ms);
  if (in.schedule == PipeSchedule::Interleaved && in.v > 1) {
    const int g = in.group > 0 ? in.group : in.p;
    // Megatron-LM's checks in forward_backward_pipelining_with_interleaving, same order.
    if (g > in.m || g < in.p)
      return fail("interleaved needs the microbatch group G between p and m (Megatron-LM's "
                  "microbatch_group_size_per_vp_stage): G = %d, p = %d, m = %d%s",
                  g, in.p, in.m, in.group > 0 ? "" : " (G = 0 means p)");
    const int last = in.m % g;
    if (last > 0 && last < in.p)
      return fail("interleaved needs the last microbatch group to be whole or hold at least p microbatches "
                  "(Megatron-LM raises this as a dependency bubble): m = %d, G = %d, p = %d leave %d%s; try m = %d",
                  in.m, g, in.p, last,
                  in.group > 0 ? "" : " (with the default G = p, m must be a multiple of p)",
                  std::max(in.p, in.m - last));
  }
  if (in.schedule == PipeSchedule::DualPipe) {
    // DualPipe.step's assertions: num_ranks % 2 == 0, num_chunks % 2 == 0, num_chunks >= 2 * num_ranks.
    if (in.p % 2 != 0)
      return fail("dualpipe needs an even number of stages p, since rank r pairs with rank p-1-r "
                  "(DualPipe.step asserts it): p = %d",
                  in.p);
    if (in.m % 2 != 0 || in.m < 2 * in.p)
      return fail("dualpipe needs m even and at least 2p, half of the microbatches fed from each end "
                  "(DualPipe.step asserts it): m = %d, p = %d; try m = %d",
                  in.m, in.p, std::max(2 * in.p, in.m + in.m % 2));
  }
  if (in.schedule == PipeSchedule::ZbV && in.m < 2 * in.p - 1)
    return fail("zb-v needs m >= 2p-1: stage 0 warms up with 2p-1 forwards of its first chunk (the order "
                "sail-sg's zbv.py gives for equal f, b, w): m = %d, p = %d; try m = %d",
                in.m, in.p, 2 * in.p - 1);
  return "";
}

// The way a microbatch walks the virtual stages (see pipeline.h).
enum class Route : unsigned char { Chain, V, Dual };

// What every stage's order shares: the route, chunks per stage, microbatch blocks, the
// interleaved group and the duration of each kind of op.
struct ScheduleShape {
  bool interleaved;
  Route route;
  int v;               // chunks per stage
  int mb_count;        // microbatches as the orders count them
  int group;           // interleaved only, else 0
  bool split_w;        // every B runs its W apart (zb-h1, zb-h2, zb-v); dualpipe decides per B
  int chunk_share;     // chunks per whole-stage activation: v interleaved, 2 zb-v, else 1
  double f, b, bw, w;  // ms: a forward, a B without and with its W, a W
};

ScheduleShape schedule_shape(const PipelineInputs& in) {
  ScheduleShape sh;
  const PipeSchedule s = in.schedule;
  sh.interleaved = s == PipeSchedule::Interleaved && in.v > 1;
  sh.route = s == PipeSchedule::ZbV ? Route::V : s == PipeSchedule::DualPipe ? Route::Dual : Route::Chain;
  sh.v = sh.interleaved ? in.v : sh.route == Route::Chain ? 1 : 2;
  sh.mb_count = s == PipeSchedule::Naive ? 1 : in.m;  // naive: one block
  sh.group = sh.interleaved ? (in.group > 0 ? in.group : in.p) : 0;
  sh.split_w = s == PipeSchedule::ZbH1 || s == PipeSchedule::ZbH2 || s == PipeSchedule::ZbV;
  // A chunk op does 1/v of a stage's work, except DualPipe's: its two chunks are whole stages.
  sh.chunk_share = sh.route == Route::Dual ? 1 : sh.v;
  const double batch = s == PipeSchedule::Naive ? in.m : 1, share = sh.chunk_share;
  sh.f = batch * in.f_ms / share;
  sh.b = batch * in.b_ms / share;
  sh.bw = batch * (in.b_ms + in.w_ms) / share;
  sh.w = in.w_ms / share;
  return sh;
}

// Virtual stages along a microbatch's route.
int route_length(const ScheduleShape& sh, int p) { return sh.route == Route::Dual ? p : p * sh.v; }

int route_position(const ScheduleShape& sh, int p, int stage, int chunk) {
  switch (sh.route) {
    case Route::Chain: return chunk * p + stage;
    case Route::V: return chunk == 0 ? stage : 2 * p - 1 - stage;
    case Route::Dual: return chunk == 0 ? stage : p - 1 - stage;
  }
  return 0;
}

struct Place {
  int stage, chunk;
};

// The (stage, chunk) at route position k. `chunk` is the op's own: it fixes which way a
// DualPipe microbatch goes and is ignored by the other routes.
Place route_place(const ScheduleShape& sh, int p, int k, int chunk) {
  switch (sh.route) {
    case Route::Chain: return {k % p, k / p};
    case Route::V: return k < p ? Place{k, 0} : Place{2 * p - 1 - k, 1};
    case Route::Dual: return {chunk == 0 ? k : p - 1 - k, chunk};
  }
  return {0, 0};
}

// Stage s's order of ops; *warmup gets the forwards it runs before its steady state.
std::vector<Slot> stage_order(const PipelineInputs& in, const ScheduleShape& sh, int s, int* warmup) {
  const int p = in.p, v = sh.v, mb_count = sh.mb_count, group = sh.group;
  std::vector<Slot> order;
  switch (in.schedule) {
    case PipeSchedule::Naive:
      order = {{0, 0, PipeOpKind::F}, {0, 0, PipeOpKind::B}};
      *warmup = 1;
      break;
    case PipeSchedule::GPipe:
      for (int i = 0; i < mb_count; ++i) order.push_back({i, 0, PipeOpKind::F});
      for (int i = 0; i < mb_count; ++i) order.push_back({i, 0, PipeOpKind::B});
      *warmup = mb_count;
      break;
    case PipeSchedule::OneFOneB:
    case PipeSchedule::Interleaved:
      if (sh.interleaved) {
        order = order_interleaved(p, mb_count, v, group, s);
        *warmup = warmup_interleaved(p, mb_count, v, group, s);
      } else {
        order = order_1f1b(p, mb_count, s);
        *warmup = warmup_1f1b(p, mb_count, s);
      }
      break;
    case PipeSchedule::ZbH1:
      order = order_zb_h1(p, mb_count, s);
      *warmup = warmup_1f1b(p, mb_count, s);
      break;
    case PipeSchedule::ZbH2:
      order = order_zb_h2(p, mb_count, s);
      *warmup = std::min(2 * (p - 1 - s) + 1, mb_count);
      break;
    case PipeSchedule::ZbV:
      order = order_zb_v(p, mb_count, s);
      *warmup = 2 * p - 1;  // 2(p-s)-1 of the first chunk and 2s alternating, then F-B-W triples
      break;
    case PipeSchedule::DualPipe:
      order = order_dualpipe(p, mb_count, s);
      *warmup = p;  // steps 1 and 2: 2(p/2-h-1) + 2(h+1)
      break;
  }
  if (sh.split_w)
    for (Slot& op : order) op.w_apart = op.kind == PipeOpKind::B;
  return order;
}

// Every stage's order; each stage's warm-up and remaining forwards go into r.
std::vector<std::vector<Slot>> stage_orders(const PipelineInputs& in, const ScheduleShape& sh, PipelineResult& r) {
  std::vector<std::vector<Slot>> order(in.p);
  for (int s = 0; s < in.p; ++s) {
    int warmup = 0;
    order[s] = stage_order(in, sh, s, &warmup);
    const auto forwards = std::count_if(order[s].begin(), order[s].end(),
                                        [](const Slot& op) { return op.kind == PipeOpKind::F; });
    r.warmup_forwards.push_back(warmup);
    r.remaining_forwards.push_back(static_cast<int>(forwards) - warmup);
  }
  return order;
}

// The ops each stage ran, timed, and how far through its order each stage got.
struct Timeline {
  std::vector<size_t> next;      // each stage's first op that has not run
  std::vector<double> free_at;   // when each stage's last op ends
  std::vector<std::vector<PipeOp>> timed;
};

// Runs every stage's order as far as dependencies allow. An op that ends wakes the stages its
// dependents live on; every op is timed once and every wake-up of a stage that is still
// blocked costs O(1), so a timeline costs O(ops).
class EventSim {
 public:
  EventSim(int p, const ScheduleShape& sh, const std::vector<std::vector<Slot>>& order)
      : p_(p), sh_(sh), order_(order), length_(route_length(sh, p)),
        ready_at_(static_cast<size_t>(p) * sh.v * sh.mb_count * 3, -1.0),
        tl_{std::vector<size_t>(p, 0), std::vector<double>(p, 0.0), std::vector<std::vector<PipeOp>>(p)},
        queued_(p, 1) {}

  Timeline run() {
    for (int s = p_ - 1; s >= 0; --s) work_.push_back(s);
    while (!work_.empty()) {
      const int s = work_.back();
      work_.pop_back();
      queued_[s] = 0;
      run_stage(s);
    }
    return std::move(tl_);
  }

 private:
  size_t key(int s, int c, int mb, PipeOpKind k) const {
    return ((static_cast<size_t>(s) * sh_.v + c) * sh_.mb_count + mb) * 3 + static_cast<size_t>(k);
  }
  // Whether op (s, c, mb, k) has run; if so *t is raised to when its result is there.
  bool done(int s, int c, int mb, PipeOpKind k, double* t) const {
    const double e = ready_at_[key(s, c, mb, k)];
    if (e < 0) return false;
    *t = std::max(*t, e);
    return true;
  }
  // Earliest start of `op` on stage s from its dependencies, or false if one has not run.
  bool ready(int s, const Slot& op, double* t) const {
    const int k = route_position(sh_, p_, s, op.chunk);
    switch (op.kind) {
      case PipeOpKind::F: {
        if (k == 0) return true;
        const Place prev = route_place(sh_, p_, k - 1, op.chunk);
        return done(prev.stage, prev.chunk, op.mb, PipeOpKind::F, t);
      }
      case PipeOpKind::B: {
        if (!done(s, op.chunk, op.mb, PipeOpKind::F, t)) return false;
        if (k == length_ - 1) return true;
        const Place after = route_place(sh_, p_, k + 1, op.chunk);
        return done(after.stage, after.chunk, op.mb, PipeOpKind::B, t);
      }
      case PipeOpKind::W: return done(s, op.chunk, op.mb, PipeOpKind::B, t);
    }
    return false;
  }
  double duration(const Slot& op) const {
    if (op.kind == PipeOpKind::F) return sh_.f;
    if (op.kind == PipeOpKind::W) return sh_.w;
    return op.w_apart ? sh_.b : sh_.bw;
  }
  void wake(int s) {
    if (!queued_[s]) {
      queued_[s] = 1;
      work_.push_back(s);
    }
  }
  // Times `op` on stage s from `start` to `end`; what depends on it may start at `ready_at`.
  void record(int s, const Slot& op, double start, double end, double ready_at) {
    ready_at_[key(s, op.chunk, op.mb, op.kind)] = ready_at;
    tl_.free_at[s] = end;
    tl_.timed[s].push_back({s, op.mb, op.chunk, op.kind, start, end, op.w_apart, op.overlapped});
    const int k = route_position(sh_, p_, s, op.chunk);
    if (op.kind == PipeOpKind::F && k + 1 < length_) wake(route_place(sh_, p_, k + 1, op.chunk).stage);
    if (op.kind == PipeOpKind::B && k > 0) wake(route_place(sh_, p_, k - 1, op.chunk).stage);
  }
  // Stage s runs its order until an op's dependency has not run yet. An F&B block starts when
  // both of its halves may, and both results leave at its end.
  void run_stage(int s) {
    const std::vector<Slot>& order = order_[s];
    size_t& next = tl_.next[s];
    while (next < order.size()) {
      const Slot& op = order[next];
      double t = tl_.free_at[s];
      if (!ready(s, op, &t)) break;
      if (op.overlapped && op.kind == PipeOpKind::F) {
        const Slot& partner = order[next + 1];
        if (!ready(s, partner, &t)) break;
        const double mid = t + duration(op), end = mid + duration(partner);
        record(s, op, t, mid, end);
        record(s, partner, mid, end, end);
        next += 2;
      } else {
        const double end = t + duration(op);
        record(s, op, t, end, end);
        ++next;
      }
    }
  }

  int p_;
  const ScheduleShape& sh_;
  const std::vector<std::vector<Slot>>& order_;
  int length_;                     // virtual stages on a microbatch's route
  std::vector<double> ready_at_;   // by key(): when an op's result is there; < 0 until it ran
  Timeline tl_;
  std::vector<int> work_;          // stages to run
  std::vector<char> queued_;       // stage is in work_
};

// The error for the first stage whose order did not run to its end, or "" when every one did.
std::string deadlock_error(const PipelineInputs& in, const std::vector<std::vector<Slot>>& order, const Timeline& tl) {
  for (int s = 0; s < in.p; ++s) {
    if (tl.next[s] < order[s].size()) {
      const Slot& op = order[s][tl.next[s]];
      char buf[160];
      std::snprintf(buf, sizeof buf, "internal error: the %s order deadlocks at stage %d, op %s of microbatch %d",
                    pipe_schedule_name(in.schedule), s, pipe_op_kind_name(op.kind), op.mb + 1);
      return buf;
    }
  }
  return "";
}

// Figures per stage. Activation counts are kept in chunk units so they stay integers until
// the final division by the chunks a whole stage's activation holds.
void add_stage_figures(const PipelineInputs& in, const ScheduleShape& sh, const Timeline& tl, PipelineResult& r) {
  const int p = in.p;
  const std::vector<std::vector<PipeOp>>& timed = tl.timed;
  r.ideal_ms = in.m * (in.f_ms + in.b_ms + in.w_ms);
  r.stage_begin.push_back(0);
  double idle_sum = 0;
  for (int s = 0; s < p; ++s) {
    r.makespan_ms = std::max(r.makespan_ms, tl.free_at[s]);
    double busy = 0;
    long held = 0, peak = 0;
    const long units = in.schedule == PipeSchedule::Naive ? in.m : 1;
    for (const PipeOp& op : timed[s]) {
      busy += op.end_ms - op.start_ms;
      // A B frees the stage's activations unless its W, which still reads them, runs later.
      if (op.kind == PipeOpKind::F) held += units;
      else if (op.kind == PipeOpKind::W || !op.w_apart) held -= units;
      peak = std::max(peak, held);
    }
    r.busy_ms.push_back(busy);
    r.span_idle_ms.push_back(timed[s].empty() ? 0.0
                                              : timed[s].back().end_ms - timed[s].front().start_ms - busy);
    r.peak_activations.push_back(static_cast<double>(peak) / sh.chunk_share);
    r.ops.insert(r.ops.end(), timed[s].begin(), timed[s].end());
    r.stage_begin.push_back(static_cast<int>(r.ops.size()));
  }
  for (int s = 0; s < p; ++s) {
    r.idle_ms.push_back(r.makespan_ms - r.busy_ms[s]);
    idle_sum += r.idle_ms.back();
  }
  r.bubble_total = idle_sum / (p * r.makespan_ms);
  r.bubble_ideal = idle_sum / (p * r.ideal_ms);
}

}  // namespace

PipelineResult simulate_pipeline(const PipelineInputs& in) {
  PipelineResult r;
  r.in = in;
  r.error = check_inputs(in);
  if (!r.error.empty()) return r;

  const ScheduleShape sh = schedule_shape(in);
  r.chunks = sh.v;
  r.group = sh.group;
  r.params_per_stage = in.schedule == PipeSchedule::DualPipe ? 2 : 1;
  const std::vector<std::vector<Slot>> order = stage_orders(in, sh, r);
  const Timeline tl = EventSim(in.p, sh, order).run();
  if (std::string deadlock = deadlock_error(in, order, tl); !deadlock.empty()) {
    PipelineResult failed;
    failed.in = in;
    failed.error = deadlock;
    return failed;
  }
  add_stage_figures(in, sh, tl, r);
  return r;
}

}  // namespace dtx::sim
