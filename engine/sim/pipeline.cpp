#include "sim/pipeline.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace dtx::sim {

const WidgetKind& pipeline_widget_kind() {
  static const WidgetKind k = {
      "pipeline", "Pipeline schedules", "a Gantt chart of stages and microbatches with the bubble",
      {{"schedule", "schedule", 0, 5, 2, true, false, {"naive", "gpipe", "1f1b", "interleaved", "zb-h1", "zb-h2"},
        "naive (whole batch as one block), gpipe, 1f1b, interleaved (Megatron-LM), zb-h1 or zb-h2 (zero "
        "bubble)"},
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
        "backward for the weight gradient; zb-h1 and zb-h2 run it apart, the others run one backward of b + w"}}};
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
  }
  return "";
}

const char* pipe_op_kind_name(PipeOpKind k) {
  return k == PipeOpKind::F ? "F" : k == PipeOpKind::B ? "B" : "W";
}

PipelineInputs pipeline_inputs(const WidgetValues& v) {
  PipelineInputs in;
  in.schedule = static_cast<PipeSchedule>(std::clamp(v.get_int("schedule"), 0, 5));
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
  else if (r.chunks > 1)
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
  }
  return f;
}

namespace {

// One op of a stage's order before it is timed.
struct Slot {
  int mb, chunk;
  PipeOpKind kind;
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
  return "";
}

// What every stage's order shares: chunks per stage, microbatch blocks, the interleaved
// group and the duration of each kind of op.
struct ScheduleShape {
  bool interleaved;
  int v;          // chunks per stage
  int mb_count;   // microbatches as the orders count them
  int group;      // interleaved only, else 0
  bool split_w;   // W runs apart from B (zb-h1, zb-h2)
  double dur[3];  // by PipeOpKind, ms
};

ScheduleShape schedule_shape(const PipelineInputs& in) {
  ScheduleShape sh;
  sh.interleaved = in.schedule == PipeSchedule::Interleaved && in.v > 1;
  sh.v = sh.interleaved ? in.v : 1;
  sh.mb_count = in.schedule == PipeSchedule::Naive ? 1 : in.m;  // naive: one block
  sh.group = sh.interleaved ? (in.group > 0 ? in.group : in.p) : 0;

  const double batch = in.schedule == PipeSchedule::Naive ? in.m : 1;
  sh.split_w = in.schedule == PipeSchedule::ZbH1 || in.schedule == PipeSchedule::ZbH2;
  sh.dur[0] = batch * in.f_ms / sh.v;
  sh.dur[1] = batch * (sh.split_w ? in.b_ms : in.b_ms + in.w_ms) / sh.v;
  sh.dur[2] = in.w_ms;
  return sh;
}

// Stage s's order of ops; *warmup gets the forwards it runs before its first backward.
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
  }
  return order;
}

// Every stage's order; each stage's warm-up and remaining forwards go into r.
std::vector<std::vector<Slot>> stage_orders(const PipelineInputs& in, const ScheduleShape& sh, PipelineResult& r) {
  std::vector<std::vector<Slot>> order(in.p);
  for (int s = 0; s < in.p; ++s) {
    int warmup = 0;
    order[s] = stage_order(in, sh, s, &warmup);
    r.warmup_forwards.push_back(warmup);
    r.remaining_forwards.push_back((in.schedule == PipeSchedule::Naive ? 1 : sh.mb_count * sh.v) - warmup);
  }
  return order;
}

// The ops each stage ran, timed, and how far through its order each stage got.
struct Timeline {
  std::vector<size_t> next;      // each stage's first op that has not run
  std::vector<double> free_at;   // when each stage's last op ends
  std::vector<std::vector<PipeOp>> timed;
};

Timeline run_orders(int p, const ScheduleShape& sh, const std::vector<std::vector<Slot>>& order) {
  const int v = sh.v, mb_count = sh.mb_count;
  // End time of every op by (stage, chunk, microbatch, kind); negative until it has run.
  auto key = [&](int s, int c, int mb, PipeOpKind k) {
    return ((static_cast<size_t>(s) * v + c) * mb_count + mb) * 3 + static_cast<size_t>(k);
  };
  std::vector<double> end(static_cast<size_t>(p) * v * mb_count * 3, -1.0);
  auto done = [&](int s, int c, int mb, PipeOpKind k, double* t) {
    double e = end[key(s, c, mb, k)];
    if (e < 0) return false;
    *t = std::max(*t, e);
    return true;
  };
  // Earliest start of `op` on stage s from its dependencies, or false if one has not run.
  auto ready = [&](int s, const Slot& op, double* t) {
    switch (op.kind) {
      case PipeOpKind::F:
        if (s > 0) return done(s - 1, op.chunk, op.mb, PipeOpKind::F, t);
        if (op.chunk > 0) return done(p - 1, op.chunk - 1, op.mb, PipeOpKind::F, t);
        return true;
      case PipeOpKind::B:
        if (!done(s, op.chunk, op.mb, PipeOpKind::F, t)) return false;
        if (s < p - 1) return done(s + 1, op.chunk, op.mb, PipeOpKind::B, t);
        if (op.chunk < v - 1) return done(0, op.chunk + 1, op.mb, PipeOpKind::B, t);
        return true;
      case PipeOpKind::W:
        return done(s, op.chunk, op.mb, PipeOpKind::B, t);
    }
    return false;
  };

  // Each stage runs its order as far as dependencies allow; an op that ends wakes the stages
  // its dependents live on. Every op is timed once and every wake-up costs O(1) when the stage
  // is still blocked, so a timeline costs O(ops).
  Timeline tl{std::vector<size_t>(p, 0), std::vector<double>(p, 0.0), std::vector<std::vector<PipeOp>>(p)};
  std::vector<size_t>& next = tl.next;
  std::vector<double>& free_at = tl.free_at;
  std::vector<int> work;
  std::vector<char> queued(p, 1);
  for (int s = p - 1; s >= 0; --s) work.push_back(s);
  auto wake = [&](int s) {
    if (s >= 0 && s < p && !queued[s]) {
      queued[s] = 1;
      work.push_back(s);
    }
  };
  while (!work.empty()) {
    const int s = work.back();
    work.pop_back();
    queued[s] = 0;
    while (next[s] < order[s].size()) {
      const Slot& op = order[s][next[s]];
      double t = free_at[s];
      if (!ready(s, op, &t)) break;
      const double e = t + sh.dur[static_cast<int>(op.kind)];
      end[key(s, op.chunk, op.mb, op.kind)] = e;
      free_at[s] = e;
      tl.timed[s].push_back({s, op.mb, op.chunk, op.kind, t, e});
      ++next[s];
      if (op.kind == PipeOpKind::F) {
        wake(s + 1);
        if (s == p - 1) wake(0);
      } else if (op.kind == PipeOpKind::B) {
        wake(s - 1);
        if (s == 0) wake(p - 1);
      }
    }
  }
  return tl;
}

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

// Figures per stage. Activation counts are kept in chunk units (1/v of a stage) so they
// stay integers until the final division.
void add_stage_figures(const PipelineInputs& in, const ScheduleShape& sh, const Timeline& tl, PipelineResult& r) {
  const int p = in.p, v = sh.v;
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
      if (op.kind == PipeOpKind::F) held += units;
      else if (op.kind == (sh.split_w ? PipeOpKind::W : PipeOpKind::B)) held -= units;
      peak = std::max(peak, held);
    }
    r.busy_ms.push_back(busy);
    r.span_idle_ms.push_back(timed[s].empty() ? 0.0
                                              : timed[s].back().end_ms - timed[s].front().start_ms - busy);
    r.peak_activations.push_back(static_cast<double>(peak) / v);
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
  const std::vector<std::vector<Slot>> order = stage_orders(in, sh, r);
  const Timeline tl = run_orders(in.p, sh, order);
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
