// Pipeline-parallel schedules as timelines: which stage runs which forward (F), input-gradient
// backward (B) or weight-gradient backward (W) of which microbatch, and when.
//
// The timeline is not drawn from a formula. Each stage gets the ordered op list its schedule
// prescribes, and a small event simulation starts every op at
//   max(the stage is free, every op it depends on has ended)
// so the bubble, the makespan and the memory all follow from data dependencies and order:
//   F(s, mb, c) needs F(s-1, mb, c); on stage 0 of chunk c > 0 it needs F(p-1, mb, c-1)
//   B(s, mb, c) needs its own F, and B(s+1, mb, c); on the last stage of chunk c < v-1 it
//               needs B(0, mb, c+1); the very last virtual stage needs only its own F
//   W(s, mb, c) needs B(s, mb, c)
//
// Conventions (the CLI help, the widget and the course use the same ones):
// - Times are in ms, but only their ratios matter for the bubble. Communication takes zero
//   time; stages are uniform (every stage takes the same f, b, w).
// - f: one forward of one microbatch through one whole stage. b: the backward that computes
//   the gradient of the stage's input (what the previous stage waits for). w: the backward
//   that computes the weight gradient (nobody waits for it).
// - Only ZB-H1 and ZB-H2 run W as its own op. The other schedules run one B op of b + w:
//   they don't split the backward.
// - Interleaved: a stage's layers are split into v chunks (chunk c of stage s holds the
//   model's (c·p + s)-th slice), each chunk op takes 1/v of f, b + w. Total work is the same
//   as 1F1B; the fill and drain hops get v times shorter, which is why interleaving divides
//   idle/ideal by v. Per-stage order is Megatron-LM's interleaved schedule with microbatch
//   groups of G (default p), which requires p <= G <= m and the last group whole or at
//   least p (an error otherwise, as Megatron reports). v = 1 is plain 1F1B (Megatron uses
//   its non-interleaved schedule without virtual stages).
// - naive: no microbatching. The whole batch (m microbatches' worth) is one block: one F op
//   of m·f and one B op of m·(b + w) per stage, so only one stage works at a time and the
//   bubble is (p-1)/p of the step. Its ops carry microbatch 0, standing for the batch.
// - GPipe: all m forwards, then all m backwards, both in microbatch order.
// - 1F1B: Megatron-LM's non-interleaved schedule (PipeDream-Flush): stage r runs
//   min(p-r-1, m) warm-up forwards, then alternates one forward and one backward, then
//   drains the remaining backwards.
// - Interleaved warm-up follows current Megatron-LM main (get_pp_rank_microbatches):
//   min(2(p-r-1) + (v-1)·G, m·v) chunk forwards on rank r, also when m = p (older Megatron
//   sent every rank into an all-forward warm-up when m = p).
// - ZB-H2 (same paper, section 2.2 and figure 3): stage r runs 2(p-1-r)+1 warm-up forwards,
//   then 2r forward/B pairs that leave their W for later, then F, B, W in turn; after the
//   last forward, B and W alternate and the W passes left over run last. Every stage keeps
//   at most 2p-1 microbatches in flight, and with f = b = w the stages form a parallelogram
//   with no idle time inside any stage's span: the bubble of table 2 is (p-1)(f+b-2w), which
//   the simulation reproduces on stage 0 when w <= f, b and m >= 2p-1.
// - ZB-H1 (Qi et al. 2023, "Zero Bubble Pipeline Parallelism", section 2.1 and figure 3):
//   F and B in the 1F1B order, with W of microbatch j right after B of microbatch j + r on
//   stage r (the W passes lag further behind on later stages, so every stage keeps the same
//   number of microbatches in flight), and the W passes that are left run at the end,
//   filling the drain. Its bubble is (p-1)(f + b - w) per stage against 1F1B's
//   (p-1)(f + b + w) (the paper's table 2) when m >= p and w <= min(f, b), the paper's own
//   assumption (its table 1 has T_W < T_F < T_B); outside it the simulation shows what this
//   fixed order really does.
//
// Figures:
// - ideal = m·(f + b + w): one stage's work, no idle. total = makespan.
// - idle of a stage = makespan - its busy time (every stage is busy for `ideal`).
// - bubble_total = sum idle / (p·makespan); bubble_ideal = sum idle / (p·ideal). The same
//   idle time against two bases: with GPipe or 1F1B they are (p-1)/(m+p-1) and (p-1)/m.
// - Activations in flight on a stage: microbatches whose F has ended and whose last backward
//   op on that stage (B, or W for ZB-H1: W still reads the stage's input activations) has
//   not; an interleaved chunk counts 1/v, a naive block m. Peak = maximum over time.
#pragma once

#include <string>
#include <vector>

#include "sim/widget.h"

namespace dtx::sim {

enum class PipeSchedule { Naive, GPipe, OneFOneB, Interleaved, ZbH1, ZbH2 };
enum class PipeOpKind : unsigned char { F, B, W };

inline constexpr int kPipelineMaxStages = 32;
inline constexpr int kPipelineMaxMicrobatches = 128;
inline constexpr int kPipelineMaxChunks = 8;

struct PipelineInputs {
  PipeSchedule schedule = PipeSchedule::OneFOneB;
  int p = 4;  // stages
  int m = 8;  // microbatches per step
  int v = 1;  // chunks per stage; used by the interleaved schedule only
  // Interleaved only: microbatches fed to one chunk before moving to the next (Megatron-LM's
  // microbatch_group_size_per_vp_stage); 0 = p, Megatron's default. Must lie in [p, m], and
  // the last group must be whole or hold at least p microbatches (m mod G = 0 or >= p).
  int group = 0;
  double f_ms = 1, b_ms = 1, w_ms = 0;
};

struct PipeOp {
  int stage = 0;
  int microbatch = 0;  // 0-based; the course and the labels number them from 1
  int chunk = 0;       // 0-based chunk of the stage (0 unless interleaved)
  PipeOpKind kind = PipeOpKind::F;
  double start_ms = 0, end_ms = 0;
};

struct PipelineResult {
  std::string error;  // non-empty: the inputs are impossible and nothing else is filled
  PipelineInputs in;
  int chunks = 1;  // chunks actually used (v for interleaved, 1 otherwise)
  // Every op, grouped by stage in that stage's execution order (so also by start time):
  // stage s owns ops[stage_begin[s] .. stage_begin[s+1]).
  std::vector<PipeOp> ops;
  std::vector<int> stage_begin;
  double makespan_ms = 0;
  double ideal_ms = 0;                    // m·(f + b + w)
  std::vector<double> busy_ms, idle_ms;   // per stage
  double bubble_total = 0, bubble_ideal = 0;
  std::vector<double> peak_activations;   // per stage, in whole-stage microbatches
  // Per stage: forwards of the warm-up phase, before the steady state's first forward (for
  // 1F1B Megatron-LM's min(p - rank - 1, m); chunk forwards for interleaved; m for GPipe).
  std::vector<int> warmup_forwards;
  // Per stage: what Megatron-LM calls num_microbatches_remaining, the forwards (chunk forwards
  // for interleaved) run in the steady state: total - warm-up.
  std::vector<int> remaining_forwards;
  // Per stage: idle inside the stage's own span, from its first op's start to its last op's
  // end. ZB-H2 drops the synchronisation between optimizer steps (the paper's section 4), so
  // its parallelogram repeats without the fill and drain offsets; this is what its bubble
  // formula counts.
  std::vector<double> span_idle_ms;
  int group = 0;  // interleaved: the microbatch group size used (G)
};

// The schedule's closed-form bubble, as the course states it, next to the simulated one.
struct PipelineFormula {
  const char* total_text = "";  // "(p-1)/(m+p-1)"
  const char* ideal_text = "";  // "(p-1)/m"
  double total = 0, ideal = 0;
};

PipelineResult simulate_pipeline(const PipelineInputs& in);

// Textbook bubble of the chosen schedule (naive (p-1)/p; GPipe and 1F1B (p-1)/(m+p-1) and
// (p-1)/m; interleaved with v; ZB-H1 with the paper's (p-1)(f+b-w)).
PipelineFormula pipeline_formula(const PipelineInputs& in);
// The GPipe / 1F1B pair, which every view shows for comparison.
PipelineFormula pipeline_formula_1f1b(int p, int m);

const char* pipe_schedule_name(PipeSchedule s);  // "1f1b": the flag and JSON value
// The sourced_formulas() entry (sim/sources.h) behind the schedule's bubble: "pipeline.gpipe".
const char* pipe_schedule_formula_id(PipeSchedule s);
const char* pipe_op_kind_name(PipeOpKind k);     // "F", "B", "W"
// "F3", "B12", "W1"; interleaved ops add the stage's chunk from 1 ("F3c2"); naive ops name
// the whole batch ("F1-8").
std::string pipe_op_label(const PipelineResult& r, const PipeOp& op);

PipelineInputs pipeline_inputs(const WidgetValues& v);

}  // namespace dtx::sim
