// Pipeline-parallel schedules as timelines: which stage runs which forward (F), input-gradient
// backward (B) or weight-gradient backward (W) of which microbatch, and when.
//
// The timeline is not drawn from a formula. Each stage gets the ordered op list its schedule
// prescribes, and a small event simulation starts every op at
//   max(the stage is free, every op it depends on has ended)
// so the bubble, the makespan and the memory all follow from data dependencies and order.
// A microbatch walks a route of virtual stages (stage, chunk) and back:
//   F at route position k needs F at k-1 (nothing at k = 0)
//   B at k needs its own F and B at k+1; the last position (the loss) needs only its own F
//   W needs its own B
// The routes: chain (chunk c of stage s is position c·p + s: 1 chunk for most schedules, v for
// interleaved); V (ZB-V: stage s holds positions s and 2p-1-s, so stage 0 runs the first and
// the last slice of the model); dual (DualPipe: microbatches 1..m/2 walk stages 0..p-1 on
// chunk 0, microbatches m/2+1..m walk stages p-1..0 on chunk 1).
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
// - ZB-V (Qi et al. 2023, "Zero Bubble Pipeline Parallelism", arXiv 2401.10241, section 6;
//   the V-ZB of Qi et al. 2024, "Pipeline Parallelism with Controllable Memory", arXiv
//   2405.15362): the model is cut into 2p chunks, stage s holds chunks s and 2p-1-s (a V), each
//   chunk op takes 1/2 of f, b, w. Every B runs its W apart. The order is the one sail-sg's
//   scheduler (zero-bubble-pipeline-parallelism, megatron/core/pipeline_parallel/zerobubble/
//   scheduler/zbv.py, PipelineGraph.try_v_schedule with its default memory limit of 2p chunk
//   activations) produces when F = B = W, written here in closed form. On stage r: 2(p-r)-1
//   forwards of chunk 1; r pairs (F chunk 2, F chunk 1); p-r triples (F, B, W of chunk 2);
//   then [F chunk 1 while any is left] B W of chunk 1, F B W of chunk 2, repeated until every
//   forward has run (the very last W waits); then p times a B of chunk 1 followed by a B of
//   chunk 2 while r of those remain, else by the oldest waiting W (none after the last); then
//   the W passes left, in the order of their B. It needs m >= 2p-1 (stage 0's warm-up is 2p-1
//   forwards). The repo's greedy re-plans for unequal times; dtx keeps this order for all
//   times. Every stage keeps at most 2p chunk activations (p whole-stage microbatches, as
//   1F1B), and with f = b = w no stage idles between its first and last op: the repo's table of
//   schedules (README.md, "assuming T_F = T_B = T_W") gives ZBV bubble 0 and 1x 1F1B's memory.
//   The step as a whole still idles (p-1)·f/2 per stage, the V's fill and drain, which the
//   repo's post-validated optimizer step lets the next step overlap. The closed form equals
//   the script's output for every p <= 12 and 2p-1 <= m <= 4p+2 except p = m = 1.
// - DualPipe (DeepSeek-AI 2024, DeepSeek-V3 Technical Report, arXiv 2412.19437, section 3.2.1
//   and table 2; deepseek-ai/DualPipe, dualpipe/dualpipe.py, DualPipe.step): the model
//   is cut into p stages and rank r holds two of them, stage r and stage p-1-r (2x the
//   parameters of 1F1B), so microbatches flow from both ends: m/2 from rank 0 down, m/2 from
//   rank p-1 up. Each op is a whole stage (f, b, w). With h = min(r, p-1-r), "phase 0" the
//   direction that enters near rank r and "phase 1" the other one, rank r runs DualPipe.step's
//   eight steps: 2(p/2-h-1) F0; h+1 pairs F0 F1; p/2-h-1 triples B1 W F1 (B apart from W);
//   m/2-p+h+1 pairs of F&B blocks (F0 with B1, F1 with B0; on the two middle ranks the first
//   F0 and B1 run apart); p/2-h-1 pairs B1, F&B(F1 with B0); h+1 pairs B1 B0, the second half
//   of them with W apart; p/2-h-1 pairs W, B0 (W apart); h+1 W. The W passes run oldest first.
//   An F&B block runs a forward of one direction and a full backward of the other as one op of
//   f + b + w (on a GPU each hides the other's communication, which takes no time here), and
//   both results leave when the block ends, as DualPipe sends them. It needs p even and m even
//   with m >= 2p (the assertions of DualPipe.step). The report's F&B is f + b + w here, and the
//   simulation gives table 2's (p/2-1)(F&B+B-3W) per stage exactly when f = b. Only
//   data dependencies decide when an op starts: DualPipe.step also makes some ops wait for a
//   receive it posts early (step 3's W waits for the next forward's input), not modelled here.
//
// Figures:
// - ideal = m·(f + b + w): one stage's work, no idle. total = makespan.
// - idle of a stage = makespan - its busy time (every stage is busy for `ideal`).
// - bubble_total = sum idle / (p·makespan); bubble_ideal = sum idle / (p·ideal). The same
//   idle time against two bases: with GPipe or 1F1B they are (p-1)/(m+p-1) and (p-1)/m.
// - Activations in flight on a stage: microbatches whose F has ended and whose last backward
//   op on that stage (B, or W when the W runs apart: W still reads the stage's input
//   activations) has not; an interleaved chunk counts 1/v, a ZB-V chunk 1/2, a DualPipe chunk
//   1 (it is a whole stage of the p-stage model), a naive block m. Inside an F&B block the F
//   counts before the B frees. Peak = maximum over time.
// - Parameters per stage, in units of 1F1B's (1/p of the model): 2 for DualPipe, else 1.
#pragma once

#include <string>
#include <vector>

#include "sim/widget.h"

namespace dtx::sim {

// The widget's option index is the enumerator's value: new schedules go at the end.
enum class PipeSchedule { Naive, GPipe, OneFOneB, Interleaved, ZbH1, ZbH2, ZbV, DualPipe };
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
  int chunk = 0;       // 0-based chunk of the stage (interleaved, zb-v; dualpipe: the direction)
  PipeOpKind kind = PipeOpKind::F;
  double start_ms = 0, end_ms = 0;
  bool w_apart = false;  // B only: its weight gradient runs later as its own W op
  // DualPipe: half of an F&B block, the F first and its B right after it in the stage's
  // order; what depends on either waits for the block's end.
  bool overlapped = false;
};

struct PipelineResult {
  std::string error;  // non-empty: the inputs are impossible and nothing else is filled
  PipelineInputs in;
  int chunks = 1;  // chunks per stage actually used (v for interleaved, 2 for zb-v and dualpipe, else 1)
  double params_per_stage = 1;  // in 1F1B's per-stage share (1/p of the model): 2 for dualpipe
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
  // 1F1B Megatron-LM's min(p - rank - 1, m); chunk forwards for interleaved; m for GPipe;
  // 2p-1 chunk forwards for zb-v, before its first F-B-W triple; p for dualpipe, its steps 1
  // and 2).
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
// (p-1)/m; interleaved with v; ZB-H1 with the paper's (p-1)(f+b-w); ZB-V 0, which its source
// states for f = b = w; DualPipe (p/2-1)(F&B + B - 3W) of the DeepSeek-V3 report's table 2,
// with F&B = f+b+w and B = b+w).
PipelineFormula pipeline_formula(const PipelineInputs& in);
// The GPipe / 1F1B pair, which every view shows for comparison.
PipelineFormula pipeline_formula_1f1b(int p, int m);

const char* pipe_schedule_name(PipeSchedule s);  // "1f1b": the flag and JSON value
// The sourced_formulas() entry (sim/sources.h) behind the schedule's bubble: "pipeline.gpipe".
const char* pipe_schedule_formula_id(PipeSchedule s);
const char* pipe_op_kind_name(PipeOpKind k);     // "F", "B", "W"
// "F3", "B12", "W1"; interleaved and zb-v ops add the stage's chunk from 1 ("F3c2"); naive
// ops name the whole batch ("F1-8"); dualpipe numbers microbatches 1..m across both
// directions (m/2+1..m enter at the last stage), so its labels need no chunk.
std::string pipe_op_label(const PipelineResult& r, const PipeOp& op);

PipelineInputs pipeline_inputs(const WidgetValues& v);

}  // namespace dtx::sim
