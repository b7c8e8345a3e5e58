// engine/sim/pipeline: the schedules' timelines checked against the published figures
// (GPipe and 1F1B bubbles, Megatron-LM's warm-up counts and interleaving, the zero-bubble
// paper's ZB-H1 bubble) and, for every p <= 32 and m <= 128, against an independent check
// that no stage runs two ops at once and no op starts before what it depends on.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "pipeline_test_util.h"
#include "sim/pipeline.h"

using namespace dtx::sim;
using namespace dtx::sim::testing;

namespace {

PipelineInputs make(PipeSchedule s, int p, int m, double f = 1, double b = 1, double w = 0, int v = 1) {
  PipelineInputs in;
  in.schedule = s;
  in.p = p;
  in.m = m;
  in.v = v;
  in.f_ms = f;
  in.b_ms = b;
  in.w_ms = w;
  return in;
}

// The checks every timeline must pass, written from the definitions rather than from the
// simulator: each op present once with its duration; a stage never runs two ops at once;
// F waits for the previous (virtual) stage's F, B for its own F and the next (virtual)
// stage's B, W for its own B; the figures follow from the ops. Returns "" or the first
// violation. O(ops).
std::string check_timeline(const PipelineResult& r) {
  const PipelineInputs& in = r.in;
  const int p = in.p, v = r.chunks;
  const bool naive = in.schedule == PipeSchedule::Naive;
  const bool split = in.schedule == PipeSchedule::ZbH1;
  const int mbs = naive ? 1 : in.m;
  const int kinds = split ? 3 : 2;
  const double scale = naive ? in.m : 1;
  const double dur[3] = {scale * in.f_ms / v, scale * (split ? in.b_ms : in.b_ms + in.w_ms) / v, in.w_ms};
  auto at = [&](int s, int c, int mb, int k) { return ((static_cast<size_t>(s) * v + c) * mbs + mb) * 3 + k; };
  std::vector<const PipeOp*> index(static_cast<size_t>(p) * v * mbs * 3, nullptr);
  if (r.ops.size() != static_cast<size_t>(p) * v * mbs * kinds)
    return "expected " + std::to_string(p * v * mbs * kinds) + " ops, got " + std::to_string(r.ops.size());
  if (r.stage_begin.size() != static_cast<size_t>(p) + 1) return "stage_begin has the wrong size";
  for (int s = 0; s < p; ++s) {
    double busy = 0;
    for (int i = r.stage_begin[s]; i < r.stage_begin[s + 1]; ++i) {
      const PipeOp& op = r.ops[i];
      const int k = static_cast<int>(op.kind);
      if (op.stage != s || op.chunk < 0 || op.chunk >= v || op.microbatch < 0 || op.microbatch >= mbs || k >= kinds)
        return "op out of range on stage " + std::to_string(s);
      const PipeOp*& slot = index[at(s, op.chunk, op.microbatch, k)];
      if (slot) return "op listed twice on stage " + std::to_string(s);
      slot = &op;
      if (!near(op.end_ms - op.start_ms, dur[k])) return "wrong duration on stage " + std::to_string(s);
      if (op.start_ms < 0) return "op starts before 0";
      if (i > r.stage_begin[s] && r.ops[i - 1].end_ms > op.start_ms)
        return "stage " + std::to_string(s) + " runs two ops at once at t=" + std::to_string(op.start_ms);
      busy += op.end_ms - op.start_ms;
    }
    if (!near(busy, r.busy_ms[s]) || !near(busy, r.ideal_ms)) return "busy time of stage " + std::to_string(s);
    if (!near(r.idle_ms[s], r.makespan_ms - busy)) return "idle time of stage " + std::to_string(s);
  }
  double last_end = 0, idle = 0;
  for (const PipeOp& op : r.ops) {
    last_end = std::max(last_end, op.end_ms);
    auto needs = [&](int s, int c, int mb, int k) {
      const PipeOp* d = index[at(s, c, mb, k)];
      return d && d->end_ms <= op.start_ms;
    };
    const int s = op.stage, c = op.chunk, mb = op.microbatch;
    bool ok = true;
    if (op.kind == PipeOpKind::F) {
      if (s > 0) ok = needs(s - 1, c, mb, 0);
      else if (c > 0) ok = needs(p - 1, c - 1, mb, 0);
    } else if (op.kind == PipeOpKind::B) {
      ok = needs(s, c, mb, 0);
      if (s < p - 1) ok = ok && needs(s + 1, c, mb, 1);
      else if (c < v - 1) ok = ok && needs(0, c + 1, mb, 1);
    } else {
      ok = needs(s, c, mb, 1);
    }
    if (!ok)
      return std::string(pipe_op_kind_name(op.kind)) + " of microbatch " + std::to_string(mb) + " chunk " +
             std::to_string(c) + " on stage " + std::to_string(s) + " starts before a dependency ends";
  }
  for (double x : r.idle_ms) idle += x;
  if (!near(last_end, r.makespan_ms)) return "makespan is not the last op's end";
  if (!near(r.bubble_total, idle / (p * r.makespan_ms))) return "bubble_total is not idle / (p * makespan)";
  if (!near(r.bubble_ideal, idle / (p * r.ideal_ms))) return "bubble_ideal is not idle / (p * ideal)";
  return "";
}

// Forwards stage s starts before its first backward op, read off the timeline.
int forwards_before_first_backward(const PipelineResult& r, int s) {
  int n = 0;
  for (int i = r.stage_begin[s]; i < r.stage_begin[s + 1] && r.ops[i].kind == PipeOpKind::F; ++i) ++n;
  return n;
}

}  // namespace

// Every p <= 32 with m from 1 to 40 (below, at and past p, where warm-up and cool-down
// change shape) and 64, 127, 128, for GPipe, 1F1B and ZB-H1, with unequal durations so that
// a wrong dependency cannot hide behind equal op lengths. `make sweep` (DTX_FULL_SWEEP=1)
// checks every m <= 128 (3 x 4096 timelines, 10 s: too slow for every `make test`).
TEST(SimPipelineSweep, NoOverlapNoDependencyViolationAllPM) {
  const bool full = std::getenv("DTX_FULL_SWEEP") != nullptr;
  for (PipeSchedule sched : {PipeSchedule::GPipe, PipeSchedule::OneFOneB, PipeSchedule::ZbH1}) {
    for (int p = 1; p <= 32; ++p) {
      for (int m = 1; m <= 128; ++m) {
        if (!full && m > 40 && m != 64 && m != 127 && m != 128) continue;
        PipelineResult r = simulate_pipeline(make(sched, p, m, 1.0, 1.75, 0.5));
        ASSERT_EQ(r.error, "") << pipe_schedule_name(sched) << " p=" << p << " m=" << m;
        std::string bad = check_timeline(r);
        ASSERT_EQ(bad, "") << pipe_schedule_name(sched) << " p=" << p << " m=" << m;
      }
    }
  }
}

TEST(SimPipelineSweep, InterleavedAndNaiveTimelinesAreValid) {
  for (int v : {2, 3, 8}) {
    for (int p = 1; p <= 32; ++p) {
      for (int m = p; m <= 128; m += p) {
        PipelineResult r = simulate_pipeline(make(PipeSchedule::Interleaved, p, m, 1.0, 2.5, 0.5, v));
        ASSERT_EQ(r.error, "") << "p=" << p << " m=" << m << " v=" << v;
        ASSERT_EQ(check_timeline(r), "") << "p=" << p << " m=" << m << " v=" << v;
      }
    }
  }
  for (int p = 1; p <= 32; ++p) {
    for (int m : {1, 7, 128}) {
      PipelineResult r = run(make(PipeSchedule::Naive, p, m, 1, 2, 1));
      ASSERT_EQ(check_timeline(r), "") << "naive p=" << p << " m=" << m;
    }
  }
}

// With f = b and w = 0 every stage idles p-1 slots of f+b (fill and drain) in a step of
// m+p-1 slots (GPipe, Huang et al. 2019; 1F1B, Narayanan et al. 2021). So idle/total is
// (p-1)/(m+p-1) and idle/ideal is (p-1)/m, for both schedules and every p, m.
TEST(SimPipelineBubble, GPipeAnd1F1BEqualTheTextbookFractions) {
  for (PipeSchedule sched : {PipeSchedule::GPipe, PipeSchedule::OneFOneB}) {
    for (int p = 1; p <= 32; ++p) {
      for (int m = 1; m <= 128; m += (m < 16 ? 1 : 7)) {
        PipelineResult r = run(make(sched, p, m, 2.0, 2.0, 0.0));
        const double want_total = (p - 1.0) / (m + p - 1.0);
        const double want_ideal = (p - 1.0) / m;
        ASSERT_NEAR(r.bubble_total, want_total, 1e-12) << pipe_schedule_name(sched) << " p=" << p << " m=" << m;
        ASSERT_NEAR(r.bubble_ideal, want_ideal, 1e-12) << pipe_schedule_name(sched) << " p=" << p << " m=" << m;
      }
    }
  }
}

// The course's worked case: p = 4, m = 8, f = b = 1: step 11 slots of 2 = 22, idle 6 per
// stage: 6/22 = 27.3 % of the step, 6/16 = 37.5 % of the ideal.
TEST(SimPipelineBubble, OneF1BWorkedExample) {
  PipelineResult r = run(make(PipeSchedule::OneFOneB, 4, 8, 1, 1, 0));
  EXPECT_DOUBLE_EQ(r.makespan_ms, 22);
  EXPECT_DOUBLE_EQ(r.ideal_ms, 16);
  for (double idle : r.idle_ms) EXPECT_DOUBLE_EQ(idle, 6);
  EXPECT_NEAR(r.bubble_total, 6.0 / 22, 1e-12);
  EXPECT_NEAR(r.bubble_ideal, 6.0 / 16, 1e-12);
}

// Unequal times: the zero-bubble paper's appendix states a 1F1B iteration takes
// (m+p-1)(T_F + T_B + T_W), i.e. (p-1)(T_F + T_B + T_W) idle per stage (its table 2), and
// GPipe's fill and drain are the same p-1 forward and p-1 backward slots.
TEST(SimPipelineBubble, OneF1BAndGPipeWithUnequalDurations) {
  struct Case { int p, m; double f, b, w; };
  for (Case c : {Case{4, 8, 1, 2, 0}, Case{8, 32, 3, 5, 2}, Case{16, 64, 0.5, 1.25, 0.75}, Case{5, 3, 2, 1, 1}}) {
    for (PipeSchedule sched : {PipeSchedule::GPipe, PipeSchedule::OneFOneB}) {
      PipelineResult r = run(make(sched, c.p, c.m, c.f, c.b, c.w));
      const double slot = c.f + c.b + c.w;
      EXPECT_NEAR(r.makespan_ms, (c.m + c.p - 1) * slot, 1e-9) << pipe_schedule_name(sched);
      for (double idle : r.idle_ms) EXPECT_NEAR(idle, (c.p - 1) * slot, 1e-9);
    }
  }
}

// Without microbatching the batch goes through as one block: each stage works m(f+b+w) out
// of a step of p·m(f+b+w), so idle/total is (p-1)/p and only one stage ever works at once.
TEST(SimPipelineBubble, NaiveOneStageAtATime) {
  for (int p : {1, 2, 4, 8, 32}) {
    PipelineResult r = run(make(PipeSchedule::Naive, p, 8, 1, 1.5, 0.5));
    EXPECT_NEAR(r.makespan_ms, p * 8 * 3.0, 1e-9);
    EXPECT_NEAR(r.bubble_total, (p - 1.0) / p, 1e-12);
    EXPECT_NEAR(r.bubble_ideal, p - 1.0, 1e-12);
    std::vector<PipeOp> ops = r.ops;
    std::sort(ops.begin(), ops.end(), [](const PipeOp& a, const PipeOp& b) { return a.start_ms < b.start_ms; });
    for (size_t i = 1; i < ops.size(); ++i) EXPECT_LE(ops[i - 1].end_ms, ops[i].start_ms) << "two stages busy at once";
    EXPECT_DOUBLE_EQ(r.peak_activations[0], 8);  // the whole batch's activations, as GPipe
  }
}

// Megatron-LM's forward_backward_pipelining_without_interleaving: rank r runs
// num_warmup_microbatches = min(p - r - 1, m) forwards, then one more forward before its
// first backward if microbatches remain. The timeline must show min(p - r, m) forwards
// before the first backward.
TEST(SimPipelineWarmup, OneF1BMatchesMegatron) {
  for (int p = 1; p <= 32; ++p) {
    for (int m : {1, 2, 3, 5, 8, 16, 31, 32, 33, 64, 128}) {
      PipelineResult r = run(make(PipeSchedule::OneFOneB, p, m));
      for (int rank = 0; rank < p; ++rank) {
        ASSERT_EQ(r.warmup_forwards[rank], std::min(p - rank - 1, m)) << "p=" << p << " m=" << m << " rank=" << rank;
        ASSERT_EQ(forwards_before_first_backward(r, rank), std::min(p - rank, m))
            << "p=" << p << " m=" << m << " rank=" << rank;
      }
    }
  }
}

// Megatron-LM's interleaved schedule (megatron/core/pipeline_parallel/schedules.py,
// get_pp_rank_microbatches, main as of 2026): num_warmup_microbatches = (p - r - 1)·2 +
// (v - 1)·G chunk forwards, capped at m·v, with G = p by default. Here p = 4, v = 2, m = 8:
// ranks 0..3 run 10, 8, 6, 4.
TEST(SimPipelineWarmup, InterleavedMatchesMegatron) {
  PipelineResult r = run(make(PipeSchedule::Interleaved, 4, 8, 1, 1, 0, 2));
  EXPECT_EQ(r.warmup_forwards, (std::vector<int>{10, 8, 6, 4}));
  EXPECT_EQ(r.remaining_forwards, (std::vector<int>{6, 8, 10, 12}));
  for (int rank = 0; rank < 4; ++rank) EXPECT_EQ(forwards_before_first_backward(r, rank), r.warmup_forwards[rank] + 1);
}

// The edge case m = p. Megatron before its November 2024 "tunable schedule" change sent every
// rank into an all-forward warm-up when num_microbatches == pipeline_parallel_size; current main
// only caps the formula at m·v: p = m = 4, v = 2 gives min(6 + 4, 8), min(4 + 4, 8), 2 + 4, 0 + 4.
TEST(SimPipelineWarmup, InterleavedWithMEqualToPFollowsCurrentMegatron) {
  PipelineResult r = run(make(PipeSchedule::Interleaved, 4, 4, 1, 1, 0, 2));
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(r.warmup_forwards, (std::vector<int>{8, 8, 6, 4}));
  EXPECT_EQ(r.remaining_forwards, (std::vector<int>{0, 0, 2, 4}));
}

// microbatch_group_size_per_vp_stage: the schedule table of schedules.py's own comment, PP 2,
// N (group) 3, M 5, VP 2: virtual microbatches 0..9 are microbatches 0 1 2 0 1 2 3 4 3 4 on
// chunks 0 0 0 1 1 1 0 0 1 1. Warm-up on rank r is 2(p-r-1) + (v-1)·G: 5 and 3.
TEST(SimPipelineWarmup, InterleavedGroupFollowsMegatronScheduleTable) {
  PipelineInputs in = make(PipeSchedule::Interleaved, 2, 5, 1, 1, 0, 2);
  in.group = 3;
  PipelineResult r = run(in);
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(r.group, 3);
  EXPECT_EQ(r.warmup_forwards, (std::vector<int>{5, 3}));
  // Rank 1's forwards in order, as (microbatch, chunk).
  std::vector<std::pair<int, int>> fwd;
  for (int i = r.stage_begin[1]; i < r.stage_begin[2]; ++i)
    if (r.ops[i].kind == PipeOpKind::F) fwd.push_back({r.ops[i].microbatch, r.ops[i].chunk});
  const std::vector<std::pair<int, int>> table = {{0, 0}, {1, 0}, {2, 0}, {0, 1}, {1, 1},
                                                  {2, 1}, {3, 0}, {4, 0}, {3, 1}, {4, 1}};
  EXPECT_EQ(fwd, table);
}

// Megatron's checks: G must lie in [p, m], and a last group of fewer than p microbatches is
// refused ("dependency bubbles").
TEST(SimPipelineWarmup, InterleavedGroupLimitsAsMegatron) {
  PipelineInputs in = make(PipeSchedule::Interleaved, 4, 6, 1, 1, 0, 2);
  EXPECT_NE(simulate_pipeline(in).error.find("last microbatch group"), std::string::npos);  // G = p = 4: 6 mod 4 = 2 < 4
  in.group = 6;
  EXPECT_TRUE(simulate_pipeline(in).error.empty());
  in.group = 3;
  EXPECT_NE(simulate_pipeline(in).error.find("between p and m"), std::string::npos);
  in.group = 7;
  EXPECT_NE(simulate_pipeline(in).error.find("between p and m"), std::string::npos);
}

// GPipe runs all m forwards before any backward, so stage 0 holds all m; 1F1B holds at
// most p (exactly min(p - r, m) on rank r: its warm-up plus one).
TEST(SimPipelineMemory, GPipeHoldsMOneF1BAtMostP) {
  for (int p = 1; p <= 32; p += 3) {
    for (int m : {1, 4, 8, 16, 33, 64, 128}) {
      PipelineResult g = run(make(PipeSchedule::GPipe, p, m));
      PipelineResult o = run(make(PipeSchedule::OneFOneB, p, m));
      EXPECT_EQ(g.peak_activations[0], m) << "p=" << p << " m=" << m;
      EXPECT_LE(o.peak_activations[0], p);
      for (int rank = 0; rank < p; ++rank)
        EXPECT_EQ(o.peak_activations[rank], std::min(p - rank, m)) << "rank " << rank;
    }
  }
}

// Interleaving: the fill and drain are p-1 hops of one chunk, 1/v of a stage, so the idle
// per stage is (p-1)(f+b+w)/v against the same ideal m(f+b+w): idle/ideal = (p-1)/(m·v)
// (Narayanan et al. 2021, section 2.2.2). It holds for unequal f and b as well.
TEST(SimPipelineInterleaved, DividesIdleOverIdealByV) {
  for (int p : {2, 4, 8, 16}) {
    for (int k : {1, 2, 4}) {
      const int m = k * p;
      for (int v = 1; v <= 8; ++v) {
        PipelineResult r = run(make(PipeSchedule::Interleaved, p, m, 1, 1, 0, v));
        EXPECT_NEAR(r.bubble_ideal, (p - 1.0) / (m * v), 1e-12) << "p=" << p << " m=" << m << " v=" << v;
        EXPECT_NEAR(r.bubble_total, (p - 1.0) / (m * v + p - 1.0), 1e-12);
        PipelineResult u = run(make(PipeSchedule::Interleaved, p, m, 1.5, 2, 1, v));
        EXPECT_NEAR(u.makespan_ms - u.ideal_ms, (p - 1) * 4.5 / v, 1e-9) << "p=" << p << " m=" << m << " v=" << v;
      }
    }
  }
  // p = 16, m = 64, v = 4 (the widget's large case): 15/256 of the ideal.
  PipelineResult big = run(make(PipeSchedule::Interleaved, 16, 64, 1, 1, 0, 4));
  EXPECT_NEAR(big.bubble_ideal, 15.0 / 256, 1e-12);
  EXPECT_EQ(big.ops.size(), 2u * 16 * 64 * 4);
}

TEST(SimPipelineInterleaved, RequiresMMultipleOfP) {
  PipelineResult r = simulate_pipeline(make(PipeSchedule::Interleaved, 4, 10, 1, 1, 0, 2));
  EXPECT_NE(r.error.find("multiple of p"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("m = 10"), std::string::npos) << r.error;
  EXPECT_TRUE(r.ops.empty());
  // v = 1 has no virtual stages: plain 1F1B, any m.
  PipelineResult plain = run(make(PipeSchedule::Interleaved, 4, 10, 1, 1, 0, 1));
  EXPECT_NEAR(plain.bubble_ideal, 3.0 / 10, 1e-12);
}

// ZB-H1 (Qi et al. 2023, table 2): 1F1B idles (p-1)(T_F+T_B+T_W) per stage, ZB-H1
// (p-1)(T_F+T_B-T_W). Derivation for m >= p, w <= min(f, b), uniform stages:
//  - F_0 reaches the last stage after (p-1)f; from then on the last stage never waits (each
//    F arrives no later than its previous B and W end). Before its last B, B_{m-1}, it runs
//    m F's, m B's and the m-p W's placed after B_{p-1} .. B_{m-2}, so B_{m-1} ends at
//    T = (p-1)f + m(f+b) + (m-p)w.
//  - B_{m-1} then walks back to stage 0 through p-1 stages that are free when it arrives
//    (in their drain each runs B, W pairs and w <= b), taking (p-1)b; stage 0 ends with its
//    own W_{m-1}: makespan = T + (p-1)b + w. The last stage's own tail, p-1 W's after T,
//    ends earlier since w <= b.
//  - makespan - m(f+b+w) = (p-1)f + (p-1)b - (p-1)w = (p-1)(f+b-w), per stage, as the paper.
//  With f = b = w that is (p-1)f against 1F1B's 3(p-1)f: a third.
TEST(SimPipelineZbH1, BubbleMatchesZeroBubblePaper) {
  struct Case { int p, m; double f, b, w; };
  const Case cases[] = {{4, 8, 1, 1, 1},      {4, 4, 1, 1, 1},     {8, 8, 2, 2, 2},   {8, 32, 1, 1, 1},
                        {16, 64, 1, 1, 1},    {32, 128, 1, 1, 1},  {4, 8, 1, 2, 0.5}, {8, 24, 1.5, 2, 1},
                        {16, 48, 3, 2, 1},    {6, 13, 2, 1, 1},    {4, 8, 1, 1, 0},   {12, 40, 1, 1.5, 0.25}};
  for (const Case& c : cases) {
    PipelineResult zb = run(make(PipeSchedule::ZbH1, c.p, c.m, c.f, c.b, c.w));
    PipelineResult ofob = run(make(PipeSchedule::OneFOneB, c.p, c.m, c.f, c.b, c.w));
    const double paper_zb = (c.p - 1) * (c.f + c.b - c.w);
    const double paper_1f1b = (c.p - 1) * (c.f + c.b + c.w);
    EXPECT_NEAR(zb.makespan_ms - zb.ideal_ms, paper_zb, 1e-9)
        << "p=" << c.p << " m=" << c.m << " f=" << c.f << " b=" << c.b << " w=" << c.w;
    for (double idle : zb.idle_ms) EXPECT_NEAR(idle, paper_zb, 1e-9);
    EXPECT_NEAR(ofob.makespan_ms - ofob.ideal_ms, paper_1f1b, 1e-9);
    // Same activation budget as 1F1B (the paper's pM_B), and every stage keeps the same
    // number of microbatches in flight (section 2.1).
    for (int s = 0; s < c.p; ++s) {
      EXPECT_LE(zb.peak_activations[s], ofob.peak_activations[0]);
      EXPECT_EQ(zb.peak_activations[s], c.p) << "stage " << s;
    }
    EXPECT_NEAR(pipeline_formula(zb.in).ideal, zb.bubble_ideal, 1e-12);
  }
  // Equal times: a third of 1F1B's idle time, e.g. p = 8, m = 32: 7 against 21.
  PipelineResult zb = run(make(PipeSchedule::ZbH1, 8, 32, 1, 1, 1));
  PipelineResult ofob = run(make(PipeSchedule::OneFOneB, 8, 32, 1, 1, 1));
  EXPECT_NEAR(zb.idle_ms[0] * 3, ofob.idle_ms[0], 1e-9);
  EXPECT_NEAR(zb.bubble_ideal, 7.0 / 96, 1e-12);  // the course's 7/(3·32)
}

// The paper's figure 3 (top), p = 4, m = 8: stage 0 runs B1 W1 F5 after its warm-up and the
// last stage defers W1 until after B4.
TEST(SimPipelineZbH1, OrderFollowsPaperFigure) {
  PipelineResult r = run(make(PipeSchedule::ZbH1, 4, 8, 1, 1, 1));
  auto row = [&](int s) {
    std::string out;
    for (int i = r.stage_begin[s]; i < r.stage_begin[s + 1]; ++i)
      out += (out.empty() ? "" : " ") + pipe_op_label(r, r.ops[i]);
    return out;
  };
  EXPECT_EQ(row(0), "F1 F2 F3 F4 B1 W1 F5 B2 W2 F6 B3 W3 F7 B4 W4 F8 B5 W5 B6 W6 B7 W7 B8 W8");
  EXPECT_EQ(row(3), "F1 B1 F2 B2 F3 B3 F4 B4 W1 F5 B5 W2 F6 B6 W3 F7 B7 W4 F8 B8 W5 W6 W7 W8");
}

TEST(SimPipelineInputs, ImpossibleInputsGiveErrors) {
  struct Case { PipelineInputs in; const char* names; };
  auto with = [](auto edit) {
    PipelineInputs in = make(PipeSchedule::OneFOneB, 4, 8);
    edit(in);
    return in;
  };
  const Case cases[] = {
      {with([](PipelineInputs& i) { i.p = 0; }), "p must be"},
      {with([](PipelineInputs& i) { i.p = 33; }), "p must be"},
      {with([](PipelineInputs& i) { i.m = 0; }), "m must be"},
      {with([](PipelineInputs& i) { i.m = 129; }), "m must be"},
      {with([](PipelineInputs& i) { i.v = 9; }), "v must be"},
      {with([](PipelineInputs& i) { i.f_ms = 0; }), "f must be"},
      {with([](PipelineInputs& i) { i.b_ms = -1; }), "b must be"},
      {with([](PipelineInputs& i) { i.w_ms = -0.5; }), "w must be"},
      {with([](PipelineInputs& i) { i.f_ms = std::nan(""); }), "f must be"},
  };
  for (const Case& c : cases) {
    PipelineResult r = simulate_pipeline(c.in);
    EXPECT_NE(r.error.find(c.names), std::string::npos) << "got: " << r.error;
    EXPECT_TRUE(r.ops.empty());
  }
}

TEST(SimPipelineInputs, WidgetTableDrivesTheSimulation) {
  const WidgetKind& k = pipeline_widget_kind();
  for (const char* name : {"schedule", "p", "m", "v", "f", "b", "w"}) EXPECT_NE(k.input(name), nullptr) << name;
  WidgetValues v = WidgetValues::defaults(k);
  EXPECT_STREQ(v.option("schedule"), "1f1b");
  PipelineResult r = run(pipeline_inputs(v));
  EXPECT_EQ(r.in.schedule, PipeSchedule::OneFOneB);
  // Defaults p = 4, m = 8, f = b = w = 10 ms: slot 30 ms, step 11 slots.
  EXPECT_NEAR(r.makespan_ms, 330, 1e-9);
  std::string err;
  auto zb = parse_widget_value(*k.input("schedule"), "zb-h1", &err);
  ASSERT_TRUE(zb.has_value()) << err;
  v.set("schedule", *zb);
  EXPECT_EQ(pipeline_inputs(v).schedule, PipeSchedule::ZbH1);
  EXPECT_FALSE(parse_widget_value(*k.input("schedule"), "zb-h3", &err).has_value());
  EXPECT_NE(err.find("zb-h2"), std::string::npos);
  EXPECT_NE(err.find("dualpipe"), std::string::npos);
}

TEST(SimPipelineLabels, NumberMicrobatchesFromOne) {
  PipelineResult inter = run(make(PipeSchedule::Interleaved, 2, 4, 1, 1, 0, 2));
  EXPECT_EQ(pipe_op_label(inter, inter.ops[0]), "F1c1");
  PipelineResult naive = run(make(PipeSchedule::Naive, 2, 8));
  EXPECT_EQ(pipe_op_label(naive, naive.ops[0]), "F1-8");
  PipelineResult plain = run(make(PipeSchedule::GPipe, 2, 12));
  EXPECT_EQ(pipe_op_label(plain, plain.ops[plain.stage_begin[1] - 1]), "B12");
}
