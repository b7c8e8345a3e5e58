// engine/sim/pipeline's two-chunk schedules, ZB-V and DualPipe, checked against their sources:
// the DeepSeek-V3 technical report's table 2 (bubble, parameters and activations of 1F1B,
// ZB1P and DualPipe), deepseek-ai/DualPipe's DualPipe.step (the per-rank order and its input
// assertions), sail-sg/zero-bubble-pipeline-parallelism's README table and zbv.py (ZB-V's order,
// bubble and memory); and, for every p and m the schedules accept, against an independent check
// that no stage runs two ops at once and no op starts before what it depends on.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include "pipeline_test_util.h"
#include "sim/pipeline.h"

using namespace dtx::sim;
using namespace dtx::sim::testing;

namespace {

PipelineInputs make(PipeSchedule s, int p, int m, double f = 1, double b = 1, double w = 1) {
  PipelineInputs in;
  in.schedule = s;
  in.p = p;
  in.m = m;
  in.f_ms = f;
  in.b_ms = b;
  in.w_ms = w;
  return in;
}

// The (stage, chunk, microbatch) whose F this F waits for, and whose B this B waits for, as
// the sources define the two routes (not as the simulator computes them). false: none.
//  ZB-V: chunk 0 runs down the stages, chunk 1 back up; stage p-1's chunk 1 follows its own
//  chunk 0, and the loss sits after stage 0's chunk 1 (Qi et al., section 6; zbv.py's deps).
//  DualPipe: microbatches below m/2 run down on chunk 0, the others up on chunk 1 (DualPipe.step,
//  _send_forward / _send_backward: next_rank for phase 0, prev_rank for phase 1).
bool forward_dep(const PipelineResult& r, int s, int c, int* ds, int* dc) {
  const int p = r.in.p;
  if (r.in.schedule == PipeSchedule::ZbV) {
    if (c == 0) *ds = s - 1, *dc = 0;
    else if (s == p - 1) *ds = s, *dc = 0;
    else *ds = s + 1, *dc = 1;
  } else {
    *dc = c;
    *ds = c == 0 ? s - 1 : s + 1;
  }
  return *ds >= 0 && *ds < p;
}

bool backward_dep(const PipelineResult& r, int s, int c, int* ds, int* dc) {
  const int p = r.in.p;
  if (r.in.schedule == PipeSchedule::ZbV) {
    if (c == 1) *ds = s - 1, *dc = 1;          // the backward of the way up starts at the loss
    else if (s == p - 1) *ds = s, *dc = 1;     // the bottom of the V
    else *ds = s + 1, *dc = 0;
  } else {
    *dc = c;
    *ds = c == 0 ? s + 1 : s - 1;
  }
  return *ds >= 0 && *ds < p;
}

// Every op once with its duration (a chunk op is 1/2 of a stage for ZB-V, a whole stage for
// DualPipe; B is b + w unless its W runs apart, and then a W exists), a stage never runs two
// ops at once, dependencies end first (an F&B block's results only when the block ends), and
// the figures follow from the ops. "" or the first violation.
std::string check_two_chunk_timeline(const PipelineResult& r) {
  const PipelineInputs& in = r.in;
  const double share = in.schedule == PipeSchedule::ZbV ? 2 : 1;
  auto key = [&](int s, int c, int mb, PipeOpKind k) {
    return ((static_cast<size_t>(s) * 2 + c) * in.m + mb) * 3 + static_cast<size_t>(k);
  };
  // When what an op computes can leave its stage, by key(); < 0 for an op not in the timeline.
  std::vector<double> result_at(static_cast<size_t>(in.p) * 2 * in.m * 3, -1.0);
  for (int s = 0; s < in.p; ++s) {
    double busy = 0;
    for (int i = r.stage_begin[s]; i < r.stage_begin[s + 1]; ++i) {
      const PipeOp& op = r.ops[i];
      if (op.stage != s || op.chunk < 0 || op.chunk > 1 || op.microbatch < 0 || op.microbatch >= in.m)
        return "op out of range on stage " + std::to_string(s);
      if (in.schedule == PipeSchedule::DualPipe && op.chunk != (op.microbatch >= in.m / 2 ? 1 : 0))
        return "dualpipe op on the wrong direction's chunk";
      double& leaves = result_at[key(s, op.chunk, op.microbatch, op.kind)];
      if (leaves >= 0) return "op listed twice on stage " + std::to_string(s);
      const double want = op.kind == PipeOpKind::F   ? in.f_ms
                          : op.kind == PipeOpKind::W ? in.w_ms
                                                     : (op.w_apart ? in.b_ms : in.b_ms + in.w_ms);
      if (!near(op.end_ms - op.start_ms, want / share)) return "wrong duration on stage " + std::to_string(s);
      if (i > r.stage_begin[s] && r.ops[i - 1].end_ms > op.start_ms + 1e-12)
        return "stage " + std::to_string(s) + " runs two ops at once";
      leaves = op.end_ms;
      if (op.overlapped && op.kind == PipeOpKind::F) {
        if (i + 1 >= r.stage_begin[s + 1] || !r.ops[i + 1].overlapped || r.ops[i + 1].kind != PipeOpKind::B)
          return "an F&B block's F without its B";
        leaves = r.ops[i + 1].end_ms;
      }
      busy += op.end_ms - op.start_ms;
    }
    if (!near(busy, r.busy_ms[s]) || !near(busy, r.ideal_ms)) return "busy time of stage " + std::to_string(s);
  }
  size_t expected = 0;
  for (const PipeOp& op : r.ops) {
    const int s = op.stage, c = op.chunk, mb = op.microbatch;
    auto after = [&](int ds, int dc, PipeOpKind k) {
      const double t = result_at[key(ds, dc, mb, k)];
      return t >= 0 && t <= op.start_ms + 1e-9;
    };
    int ds = 0, dc = 0;
    bool ok = true;
    if (op.kind == PipeOpKind::F) {
      ++expected;
      if (forward_dep(r, s, c, &ds, &dc)) ok = after(ds, dc, PipeOpKind::F);
    } else if (op.kind == PipeOpKind::B) {
      expected += op.w_apart ? 2 : 1;
      ok = after(s, c, PipeOpKind::F);
      if (backward_dep(r, s, c, &ds, &dc)) ok = ok && after(ds, dc, PipeOpKind::B);
    } else {
      ok = after(s, c, PipeOpKind::B);
    }
    if (!ok)
      return std::string(pipe_op_kind_name(op.kind)) + " of microbatch " + std::to_string(mb) + " chunk " +
             std::to_string(c) + " on stage " + std::to_string(s) + " starts before a dependency ends";
  }
  if (expected != r.ops.size()) return "a W without a B that left it, or the other way round";
  if (r.ops.size() < static_cast<size_t>(2 * in.p * in.m)) return "ops missing";
  return "";
}

// One stage's ops as labels, an F&B block's F marked "&".
std::string row(const PipelineResult& r, int s) {
  std::string out;
  for (int i = r.stage_begin[s]; i < r.stage_begin[s + 1]; ++i) {
    const PipeOp& op = r.ops[i];
    out += (out.empty() ? "" : " ") + pipe_op_label(r, op) + (op.overlapped && op.kind == PipeOpKind::F ? "&" : "");
  }
  return out;
}

}  // namespace

// Every p and m each schedule accepts (ZB-V: m >= 2p-1; DualPipe: p even, m even, m >= 2p),
// with unequal durations so that a wrong dependency cannot hide behind equal op lengths.
TEST(SimPipelineTwoChunkSweep, NoOverlapNoDependencyViolation) {
  for (int p = 1; p <= 32; ++p) {
    for (int m = 2 * p - 1; m <= 128; m += (m < 2 * p + 4 ? 1 : 9)) {
      PipelineResult r = run(make(PipeSchedule::ZbV, p, m, 1.0, 1.75, 0.5));
      ASSERT_EQ(check_two_chunk_timeline(r), "") << "zb-v p=" << p << " m=" << m;
      ASSERT_EQ(r.ops.size(), static_cast<size_t>(6 * p * m));
    }
  }
  for (int p = 2; p <= 32; p += 2) {
    for (int m = 2 * p; m <= 128; m += (m < 2 * p + 8 ? 2 : 18)) {
      for (auto [f, b, w] : {std::tuple{1.0, 1.75, 0.5}, std::tuple{2.0, 1.0, 0.0}}) {
        PipelineResult r = run(make(PipeSchedule::DualPipe, p, m, f, b, w));
        ASSERT_EQ(check_two_chunk_timeline(r), "") << "dualpipe p=" << p << " m=" << m << " f=" << f;
      }
    }
  }
}

// DeepSeek-V3 technical report, table 2, with PP = p ranks and uniform stages. Its F is a
// forward chunk (f), B a full backward chunk (b + w: input and weight gradients), W a weight
// backward (w), F&B an overlapped forward and full backward, f + b + w here because
// communication, which the overlap hides on a GPU, takes no time in the simulation.
//   1F1B      bubble (PP-1)(F+B)            parameters 1x  activations PP
//   ZB1P      bubble (PP-1)(F+B-2W)         parameters 1x  activations PP
//   DualPipe  bubble (PP/2-1)(F&B+B-3W)     parameters 2x  activations PP+1
// The bubble is the idle time of one rank in one step (makespan - busy): the simulation gives
// every rank the same. Activations are counted in microbatches of one pipeline stage's layers
// (a model cut into PP stages): 1F1B's stage and each of DualPipe's two chunks are one such
// stage, so "PP" and "PP+1" are the peak number of (microbatch, stage) activations a rank holds
// at once: forwards whose backward (or, when the W runs apart, whose W) has not ended, an F&B
// block's F counted before its B frees. ZB1P is dtx's zb-h1. The table holds with f = b (any
// w <= f): the next test shows what happens otherwise.
TEST(SimPipelineTable2, BubbleParametersAndActivationsMatchDeepSeekV3) {
  struct Case { int p, m; };
  const Case cases[] = {{2, 4},   {4, 8},   {4, 12},  {6, 12},  {8, 16},  {8, 20},
                        {8, 32},  {10, 40}, {16, 32}, {16, 64}, {32, 64}, {32, 128}};
  for (const Case& c : cases) {
    for (auto [f, b, w] : {std::tuple{1.0, 1.0, 1.0}, std::tuple{1.0, 1.0, 0.0}, std::tuple{2.0, 2.0, 1.0},
                           std::tuple{1.0, 1.0, 0.5}}) {
      const double F = f, B = b + w, W = w, FB = F + B;
      PipelineResult ofob = run(make(PipeSchedule::OneFOneB, c.p, c.m, f, b, w));
      PipelineResult zb1p = run(make(PipeSchedule::ZbH1, c.p, c.m, f, b, w));
      PipelineResult dual = run(make(PipeSchedule::DualPipe, c.p, c.m, f, b, w));
      const std::string at = "p=" + std::to_string(c.p) + " m=" + std::to_string(c.m) + " f=" + std::to_string(f) +
                             " b=" + std::to_string(b) + " w=" + std::to_string(w);
      for (int s = 0; s < c.p; ++s) {
        EXPECT_NEAR(ofob.idle_ms[s], (c.p - 1) * (F + B), 1e-9) << "1F1B " << at;
        EXPECT_NEAR(zb1p.idle_ms[s], (c.p - 1) * (F + B - 2 * W), 1e-9) << "ZB1P " << at;
        EXPECT_NEAR(dual.idle_ms[s], (c.p / 2 - 1) * (FB + B - 3 * W), 1e-9) << "DualPipe " << at;
        EXPECT_EQ(zb1p.peak_activations[s], c.p) << "ZB1P " << at;
        EXPECT_EQ(dual.peak_activations[s], c.p + 1) << "DualPipe stage " << s << " " << at;
      }
      EXPECT_EQ(ofob.peak_activations[0], c.p) << at;  // 1F1B's first stage holds the most
      EXPECT_EQ(ofob.params_per_stage, 1);
      EXPECT_EQ(zb1p.params_per_stage, 1);
      EXPECT_EQ(dual.params_per_stage, 2);
      EXPECT_NEAR(pipeline_formula(dual.in).ideal, dual.bubble_ideal, 1e-12) << at;
    }
  }
}

// Where the simulation and table 2 part: the table's (PP/2-1)(F&B+B-3W) is exact for f = b.
// With a slower forward the fill is a chain of forwards and each rank idles (p/2-1)(2f+b-w),
// more than the table; with a slower input backward it idles a little less than the table
// (by b - f at p = 4 here, not growing with p). p = 8, m = 16:
//   f = 2, b = 1, w = 1: table (8/2-1)(f+2b-w) = 3·3 = 9, simulated 12 = 3·(2f+b-w)
//   f = 1, b = 2, w = 1: table 3·(1+4-1) = 12, simulated 11
TEST(SimPipelineTable2, DualPipeTableAssumesFEqualToB) {
  PipelineResult slow_f = run(make(PipeSchedule::DualPipe, 8, 16, 2, 1, 1));
  EXPECT_NEAR(pipeline_formula(slow_f.in).ideal * slow_f.ideal_ms, 9, 1e-9);
  for (double idle : slow_f.idle_ms) EXPECT_NEAR(idle, 12, 1e-9);
  PipelineResult slow_b = run(make(PipeSchedule::DualPipe, 8, 16, 1, 2, 1));
  EXPECT_NEAR(pipeline_formula(slow_b.in).ideal * slow_b.ideal_ms, 12, 1e-9);
  for (double idle : slow_b.idle_ms) EXPECT_NEAR(idle, 11, 1e-9);
  for (int p : {4, 8, 16, 32})
    for (double idle : run(make(PipeSchedule::DualPipe, p, 2 * p, 2, 1, 1)).idle_ms)
      EXPECT_NEAR(idle, (p / 2 - 1) * (2 * 2 + 1 - 1), 1e-9) << "p=" << p;
}

// DualPipe.step (deepseek-ai/DualPipe, dualpipe/dualpipe.py) for 4 ranks and 8 microbatches,
// worked by hand from its eight steps: microbatches 1-4 enter at rank 0, 5-8 at rank 3; "&"
// joins an F&B block. Rank 0 (h = 0): step 1 F1 F2; step 2 F3 F5; step 3 B5 W5 F6 (B apart
// from W); step 4 F4&B6 F7&B1; step 5 B7 F8&B2; step 6 B8 B3 (B3's W apart); step 7 W3 B4;
// step 8 W4. Rank 1 is a middle rank: its first step-4 pair, F3 then B5, runs apart.
TEST(SimPipelineDualPipe, OrderFollowsDualPipeStep) {
  PipelineResult r = run(make(PipeSchedule::DualPipe, 4, 8));
  EXPECT_EQ(row(r, 0), "F1 F2 F3 F5 B5 W5 F6 F4& B6 F7& B1 B7 F8& B2 B8 B3 W3 B4 W4");
  EXPECT_EQ(row(r, 1), "F1 F5 F2 F6 F3 B5 F7& B1 F4& B6 F8& B2 B7 B3 B8 B4 W8 W4");
  EXPECT_EQ(row(r, 2), "F5 F1 F6 F2 F7 B1 F3& B5 F8& B2 F4& B6 B3 B7 B4 B8 W4 W8");
  EXPECT_EQ(row(r, 3), "F5 F6 F7 F1 B1 W1 F2 F8& B2 F3& B5 B3 F4& B6 B4 B7 W7 B8 W8");
  // Steps 1 and 2 run p forwards on every rank before its first backward.
  for (int s = 0; s < 4; ++s) EXPECT_EQ(r.warmup_forwards[s], 4);
  // The schedule is symmetric: rank r mirrors rank p-1-r with the directions swapped.
  PipelineResult big = run(make(PipeSchedule::DualPipe, 8, 20, 1, 1.5, 0.5));
  for (int s = 0; s < 8; ++s) {
    const int mirror = 7 - s;
    ASSERT_EQ(big.stage_begin[s + 1] - big.stage_begin[s], big.stage_begin[mirror + 1] - big.stage_begin[mirror]);
    for (int i = 0; i < big.stage_begin[s + 1] - big.stage_begin[s]; ++i) {
      const PipeOp& a = big.ops[big.stage_begin[s] + i];
      const PipeOp& b = big.ops[big.stage_begin[mirror] + i];
      EXPECT_EQ(a.kind, b.kind);
      EXPECT_EQ(a.chunk, 1 - b.chunk);
      EXPECT_EQ(a.microbatch % 10, b.microbatch % 10);
      EXPECT_NEAR(a.start_ms, b.start_ms, 1e-9);
    }
  }
}

// sail-sg/zero-bubble-pipeline-parallelism, megatron/core/pipeline_parallel/zerobubble/
// scheduler/zbv.py: PipelineGraph(4, 8, 1000, 1000, 1000, 0, 2, -1, -1).try_v_schedule, the
// best of its four fill options (as create_schedule picks), printed and renamed to dtx's labels
// (its F/f are chunk 1/2 forwards, B/b the backwards of chunk 2/1). dtx's closed form gives
// the same order for every p <= 12 and 2p-1 <= m <= 4p+2 (checked once against the script; the
// one exception is p = m = 1, where the repo runs B1c1 before W1c2).
TEST(SimPipelineZbV, OrderFollowsSailSgScheduler) {
  PipelineResult r = run(make(PipeSchedule::ZbV, 4, 8));
  EXPECT_EQ(row(r, 0),
            "F1c1 F2c1 F3c1 F4c1 F5c1 F6c1 F7c1 F1c2 B1c2 W1c2 F2c2 B2c2 W2c2 F3c2 B3c2 W3c2 F4c2 B4c2 W4c2 F8c1 "
            "B1c1 W1c1 F5c2 B5c2 W5c2 B2c1 W2c1 F6c2 B6c2 W6c2 B3c1 W3c1 F7c2 B7c2 W7c2 B4c1 W4c1 F8c2 B8c2 B5c1 "
            "W8c2 B6c1 W5c1 B7c1 W6c1 B8c1 W7c1 W8c1");
  EXPECT_EQ(row(r, 1),
            "F1c1 F2c1 F3c1 F4c1 F5c1 F1c2 F6c1 F2c2 B1c2 W1c2 F3c2 B2c2 W2c2 F4c2 B3c2 W3c2 F7c1 B1c1 W1c1 F5c2 "
            "B4c2 W4c2 F8c1 B2c1 W2c1 F6c2 B5c2 W5c2 B3c1 W3c1 F7c2 B6c2 W6c2 B4c1 W4c1 F8c2 B7c2 B5c1 B8c2 B6c1 "
            "W7c2 B7c1 W5c1 B8c1 W8c2 W6c1 W7c1 W8c1");
  EXPECT_EQ(row(r, 2),
            "F1c1 F2c1 F3c1 F1c2 F4c1 F2c2 F5c1 F3c2 B1c2 W1c2 F4c2 B2c2 W2c2 F6c1 B1c1 W1c1 F5c2 B3c2 W3c2 F7c1 "
            "B2c1 W2c1 F6c2 B4c2 W4c2 F8c1 B3c1 W3c1 F7c2 B5c2 W5c2 B4c1 W4c1 F8c2 B6c2 B5c1 B7c2 B6c1 B8c2 B7c1 "
            "W6c2 B8c1 W5c1 W7c2 W6c1 W8c2 W7c1 W8c1");
  EXPECT_EQ(row(r, 3),
            "F1c1 F1c2 F2c1 F2c2 F3c1 F3c2 F4c1 F4c2 B1c2 W1c2 F5c1 B1c1 W1c1 F5c2 B2c2 W2c2 F6c1 B2c1 W2c1 F6c2 "
            "B3c2 W3c2 F7c1 B3c1 W3c1 F7c2 B4c2 W4c2 F8c1 B4c1 W4c1 F8c2 B5c2 B5c1 B6c2 B6c1 B7c2 B7c1 B8c2 B8c1 "
            "W5c2 W5c1 W6c2 W6c1 W7c2 W7c1 W8c2 W8c1");
  for (int s = 0; s < 4; ++s) EXPECT_EQ(r.warmup_forwards[s], 7);  // 2p-1 before the first triple
}

// The repo's README table of schedules, "assuming T_F = T_B = T_W": ZBV's bubble rate is 0
// and its activation memory 1x 1F1B's; the authors' page for arXiv 2405.15362 (Hugging Face
// space sail/pipeline-parallelism-with-controllable-memory, description1.md) lists V-ZB with
// bubble 0 and activation memory p microbatches. With f = b = w and m >= 2p-1 no
// stage idles between its first and last op, and every stage peaks at p whole-stage
// microbatches (2p chunk activations, each chunk half a stage), where 1F1B's first stage holds
// p. The step's whole idle, (p-1)·f/2 on every stage, is the V's fill and drain, one chunk
// forward per hop; the repo's post-validation of the optimizer step lets the next step overlap
// it (README, "Optimizer Post Validation"), so its table does not count it.
TEST(SimPipelineZbV, NoBubbleInsideStagesAndOneF1BMemory) {
  for (int p : {1, 2, 3, 4, 5, 8, 16, 32}) {
    for (int m : {2 * p - 1, 2 * p, 3 * p + 1, 4 * p}) {
      if (m > kPipelineMaxMicrobatches) continue;
      for (double t : {1.0, 2.5}) {
        PipelineResult r = run(make(PipeSchedule::ZbV, p, m, t, t, t));
        PipelineResult ofob = run(make(PipeSchedule::OneFOneB, p, m, t, t, t));
        for (int s = 0; s < p; ++s) {
          EXPECT_NEAR(r.span_idle_ms[s], 0, 1e-9) << "p=" << p << " m=" << m << " stage " << s;
          EXPECT_NEAR(r.idle_ms[s], (p - 1) * t / 2, 1e-9) << "p=" << p << " m=" << m;
          EXPECT_EQ(r.peak_activations[s], p) << "p=" << p << " m=" << m << " stage " << s;
        }
        EXPECT_EQ(r.peak_activations[0], ofob.peak_activations[0]);
        EXPECT_EQ(r.params_per_stage, 1);
        EXPECT_EQ(pipeline_formula(r.in).ideal, 0);
      }
    }
  }
}

// What each schedule refuses, with the reason: DualPipe.step asserts num_ranks % 2 == 0,
// num_chunks % 2 == 0 and num_chunks >= 2 * num_ranks; dtx's ZB-V order needs 2p-1 forwards
// of stage 0's first chunk.
TEST(SimPipelineTwoChunkInputs, ImpossibleInputsAreRefusedWithTheReason) {
  struct Case { PipelineInputs in; const char* names; };
  const Case cases[] = {
      {make(PipeSchedule::DualPipe, 3, 12), "even number of stages"},
      {make(PipeSchedule::DualPipe, 1, 4), "even number of stages"},
      {make(PipeSchedule::DualPipe, 4, 9), "m even and at least 2p"},
      {make(PipeSchedule::DualPipe, 4, 6), "m even and at least 2p"},
      {make(PipeSchedule::DualPipe, 32, 62), "try m = 64"},
      {make(PipeSchedule::ZbV, 4, 6), "m >= 2p-1"},
      {make(PipeSchedule::ZbV, 8, 14), "try m = 15"},
  };
  for (const Case& c : cases) {
    PipelineResult r = simulate_pipeline(c.in);
    EXPECT_NE(r.error.find(c.names), std::string::npos) << pipe_schedule_name(c.in.schedule) << ": " << r.error;
    EXPECT_TRUE(r.ops.empty());
  }
  EXPECT_EQ(simulate_pipeline(make(PipeSchedule::DualPipe, 4, 8)).error, "");
  EXPECT_EQ(simulate_pipeline(make(PipeSchedule::ZbV, 4, 7)).error, "");
}

TEST(SimPipelineTwoChunkInputs, WidgetOptionsNameBothSchedules) {
  const WidgetKind& k = pipeline_widget_kind();
  WidgetValues v = WidgetValues::defaults(k);
  for (auto [name, sched] : {std::pair{"zb-v", PipeSchedule::ZbV}, std::pair{"dualpipe", PipeSchedule::DualPipe}}) {
    std::string err;
    auto value = parse_widget_value(*k.input("schedule"), name, &err);
    ASSERT_TRUE(value.has_value()) << err;
    v.set("schedule", *value);
    EXPECT_EQ(pipeline_inputs(v).schedule, sched);
    EXPECT_STREQ(pipe_schedule_name(sched), name);
    EXPECT_NE(std::string(pipe_schedule_formula_id(sched)), "");
  }
  // The widget's defaults (p = 4, m = 8) run both.
  EXPECT_EQ(run(pipeline_inputs(v)).chunks, 2);
}

TEST(SimPipelineTwoChunkLabels, ChunksForZbVGlobalNumbersForDualPipe) {
  PipelineResult v = run(make(PipeSchedule::ZbV, 2, 3));
  EXPECT_EQ(pipe_op_label(v, v.ops[0]), "F1c1");
  PipelineResult d = run(make(PipeSchedule::DualPipe, 2, 4));
  // Rank 1 starts with the first microbatch fed at its end: microbatch 3 of 4.
  EXPECT_EQ(pipe_op_label(d, d.ops[d.stage_begin[1]]), "F3");
}
