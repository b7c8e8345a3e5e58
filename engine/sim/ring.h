// Collectives on N ranks, step by step: the ring (reduce-scatter then all-gather), and for
// comparison the naive algorithm (everything through rank 0) and a tree. The ring widget,
// `dtx sim ring` and the chapter-0 figures all come from here.
//
// Model. Each rank holds a buffer of M bytes cut into N chunks; chunk c is M/N bytes, the
// first M mod N chunks one byte more, so every total below is exact. A step is a set of
// simultaneous sends; no rank sends twice or receives twice in one step, and each rank's
// port sends and receives at once (full duplex). Under the alpha-beta model a step costs
// alpha + (largest send of the step) / bw, bw being one direction of one link.
//
//   ring   step k of reduce-scatter: rank r sends chunk (r-1-k) mod N to r+1, which adds it;
//          after N-1 steps rank r holds chunk r fully reduced. Step k of all-gather: rank r
//          copies chunk (r-k) mod N to r+1. AllReduce = both, 2(N-1) steps.
//   naive  ranks 1..N-1 send to rank 0 one after another (its single port is the
//          bottleneck), then rank 0 sends back one rank at a time: 2(N-1) steps.
//   tree   a binary tree of pairwise reductions: in round k, rank i with i mod 2^(k+1) = 2^k
//          sends its partial sum to i - 2^k; ceil(log2 N) rounds reach rank 0, and the same
//          tree run backwards broadcasts. Whole-buffer sends, no pipelining (the simple tree
//          of the chapter, not NCCL's double binary tree).
//
// reduce_scatter ends with rank r holding chunk r fully reduced; all_gather starts from
// there (rank r holds only chunk r) and ends with every rank holding every chunk.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/widget.h"

namespace dtx::sim {

enum class CollectiveAlgorithm { Ring, Naive, Tree };
enum class CollectiveKind { AllReduce, ReduceScatter, AllGather };
// What a step does. Reduce-type phases add the payload into the receiver's copy; the
// others copy fully reduced chunks over it.
enum class StepPhase { ReduceScatter, AllGather, Reduce, Broadcast, Scatter, Gather };

const char* algorithm_name(CollectiveAlgorithm a);  // "ring", "naive", "tree"
const char* collective_name(CollectiveKind c);      // "allreduce", "reduce_scatter", "all_gather"
const char* phase_name(StepPhase p);                // "reduce-scatter", "broadcast"...
bool phase_reduces(StepPhase p);

constexpr int kRingMaxRanks = 1024;

struct RingInputs {
  int ranks = 8;                    // N
  uint64_t bytes = 1000000000;      // M: buffer per rank
  CollectiveAlgorithm algorithm = CollectiveAlgorithm::Ring;
  CollectiveKind collective = CollectiveKind::AllReduce;
  double alpha_us = 5;              // fixed cost of one step
  double bw_gbs = 50;               // one direction of one link, 10^9 bytes/s
};

// The widget's values (ring_widget_kind()) as simulation inputs.
RingInputs ring_inputs_from(const WidgetValues& v);

// One transfer. Chunks first, first+1, ... first+count-1, taken mod N (the naive and tree
// broadcasts of an all-gather send "every chunk but the receiver's own").
struct RingSend {
  int from = 0, to = 0;
  int chunk_first = 0, chunk_count = 1;
  uint64_t bytes = 0;
};

struct RingStep {
  StepPhase phase = StepPhase::ReduceScatter;
  int index_in_phase = 0;       // k in the formulas above
  int sends = 0;
  uint64_t max_send_bytes = 0;
  double time_s = 0;            // alpha + max_send_bytes / bw
};

// Bytes over one directed rank-to-rank link, summed over all steps.
struct RingLink {
  int from = 0, to = 0;
  uint64_t bytes = 0;
};

struct RingSim {
  RingInputs in;
  std::vector<uint64_t> chunk_bytes;     // N entries, sum M
  std::vector<RingStep> steps;
  std::vector<uint64_t> bytes_sent;      // per rank
  std::vector<uint64_t> bytes_received;  // per rank
  std::vector<RingLink> links;           // sorted by (from, to)
  uint64_t bytes_total = 0;              // sum over ranks of bytes sent
  // A rank's port carries what it sends plus what it receives: the busiest port is what
  // makes the naive algorithm slow (rank 0 carries 2(N-1)M of an AllReduce).
  int busiest_rank = 0;
  uint64_t busiest_port_bytes = 0;
  uint64_t max_bytes_sent = 0;           // by any one rank
  int tree_depth = 0;                    // rounds each way (tree), 0 otherwise
  double time_s = 0;
  double algbw_gbs = 0;                  // M / time (nccl-tests' algBw)
  double busbw_gbs = 0;                  // algBw * 2(N-1)/N (allreduce) or (N-1)/N
};

// Runs the schedule (sends, bytes, times; not the contents of buffers). Returns nullopt with
// `error` naming the input when N is outside 2..1024, M is 0 or above 10^15, alpha is
// negative or bw not positive.
std::optional<RingSim> simulate_ring(const RingInputs& in, std::string* error);

// The sends of step `step` (0-based) into `out` (cleared first). Computed from the formulas,
// not stored: a 1024-rank ring has two million sends.
void ring_step_sends(const RingSim& sim, int step, std::vector<RingSend>& out);

// The ranks whose contributions are summed into one copy of one chunk: ranks first,
// first+1, ..., first+count-1 (mod N). Every algorithm here only ever adds a neighbouring
// run of ranks to a run, so a set is always such an arc; count 0 means the rank does not
// hold that chunk (an all-gather's empty slots).
struct Contribution {
  uint16_t first = 0, count = 0;
};

// Contents of every rank's buffer after some steps, plus what has been sent so far.
struct RingState {
  int ranks = 0;
  int steps_done = 0;
  std::vector<Contribution> held;          // [rank * ranks + chunk]
  std::vector<uint64_t> bytes_sent;        // per rank, so far
  uint64_t bytes_total = 0;
  double time_s = 0;
  // Set when a send would double-count a contribution, leave a gap, or forward a chunk
  // that is not fully reduced; the state stops advancing.
  std::string error;
  Contribution at(int rank, int chunk) const { return held[static_cast<size_t>(rank) * ranks + chunk]; }
};

// Buffers reused from step to step, so stepping allocates nothing once they have grown.
struct RingScratch {
  std::vector<RingSend> sends;
  std::vector<std::pair<uint32_t, Contribution>> updates;
};

RingState ring_initial_state(const RingSim& sim);
// Applies step state.steps_done. Returns false when every step is done or on a schedule
// error (state.error set). All sends of a step read the buffers as they were before it.
bool ring_apply_step(const RingSim& sim, RingState& state, RingScratch& scratch);
// From the start; steps is clamped to 0..sim.steps.size().
RingState ring_state_after(const RingSim& sim, int steps);

// Chunks this rank holds with all N contributions.
int ring_full_chunks(const RingState& state, int rank);
// The most contributions summed into any one chunk this rank holds: during a ring's
// reduce-scatter it grows by one a step, reaching N on the chunk the rank finishes.
int ring_most_contributions(const RingState& state, int rank);

// Closed forms of the ring AllReduce (N dividing M), for exercises and checks.
double ring_allreduce_bytes_per_rank(int ranks, double bytes);  // 2(N-1)M/N
double ring_allreduce_time_s(int ranks, double bytes, double alpha_us, double bw_gbs);

}  // namespace dtx::sim
