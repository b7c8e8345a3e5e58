#include "sim/ring.h"
#include "sim/sources.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace dtx::sim {

const WidgetKind& ring_widget_kind() {
  static const WidgetKind k = {
      "ring", "Ring AllReduce", "ranks on a circle pass chunks; watch partial sums fill in",
      {{"N", "ranks (N)", 2, kRingMaxRanks, 8, true, true, {}, "number of ranks in the ring"},
       {"M", "buffer per rank (bytes)", 1, 1e12, 1e9, true, true, {},
        "bytes of the buffer each rank contributes; chunks differ by at most one byte when N does not divide it"},
       {"algorithm", "algorithm", 0, 2, 0, true, false, {"ring", "naive", "tree"},
        "ring, naive (everything through rank 0) or tree (binary tree of pairwise reductions, whole buffer per send)"},
       {"collective", "collective", 0, 2, 0, true, false, {"allreduce", "reduce_scatter", "all_gather"},
        "allreduce, or one of its two halves alone"},
       {"alpha_us", "latency per step (µs)", 0, 100, 5, false, false, {}, "alpha: fixed cost of every step"},
       {"bw_gbs", "link bandwidth (GB/s)", 1, 1000, 50, false, true, {},
        "one direction of one link, in 10^9 bytes per second"}},
      [](const WidgetValues& v) -> std::string {
        std::string error;
        return simulate_ring(ring_inputs_from(v), &error) ? "" : error;
      }};
  return k;
}

const char* algorithm_name(CollectiveAlgorithm a) {
  switch (a) {
    case CollectiveAlgorithm::Ring: return "ring";
    case CollectiveAlgorithm::Naive: return "naive";
    case CollectiveAlgorithm::Tree: return "tree";
  }
  return "?";
}

const char* collective_name(CollectiveKind c) {
  switch (c) {
    case CollectiveKind::AllReduce: return "allreduce";
    case CollectiveKind::ReduceScatter: return "reduce_scatter";
    case CollectiveKind::AllGather: return "all_gather";
  }
  return "?";
}

const char* phase_name(StepPhase p) {
  switch (p) {
    case StepPhase::ReduceScatter: return "reduce-scatter";
    case StepPhase::AllGather: return "all-gather";
    case StepPhase::Reduce: return "reduce";
    case StepPhase::Broadcast: return "broadcast";
    case StepPhase::Scatter: return "scatter";
    case StepPhase::Gather: return "gather";
  }
  return "?";
}

bool phase_reduces(StepPhase p) { return p == StepPhase::ReduceScatter || p == StepPhase::Reduce; }

RingInputs ring_inputs_from(const WidgetValues& v) {
  RingInputs in;
  in.ranks = v.get_int("N");
  in.bytes = static_cast<uint64_t>(std::max(0.0, std::round(v.get("M"))));
  in.algorithm = static_cast<CollectiveAlgorithm>(std::clamp(v.get_int("algorithm"), 0, 2));
  in.collective = static_cast<CollectiveKind>(std::clamp(v.get_int("collective"), 0, 2));
  in.alpha_us = v.get("alpha_us");
  in.bw_gbs = v.get("bw_gbs");
  return in;
}

namespace {

int mod(int a, int n) { return ((a % n) + n) % n; }

int ceil_log2(int n) {
  int d = 0;
  while ((1 << d) < n) ++d;
  return d;
}

// Chunk c is base bytes plus one when c < extra, so a run of chunks costs count*base plus
// the chunks of the run below `extra`.
uint64_t range_bytes(const RingSim& sim, int first, int count) {
  const int n = sim.in.ranks;
  const uint64_t base = sim.in.bytes / n;
  const int extra = static_cast<int>(sim.in.bytes % n);
  auto below_extra = [&](int a, int b) { return std::max(0, std::min(b, extra) - a); };  // [a, b)
  int end = first + count;
  int ones = end <= n ? below_extra(first, end) : below_extra(first, n) + below_extra(0, end - n);
  return base * static_cast<uint64_t>(count) + static_cast<uint64_t>(ones);
}

void add_phase(RingSim& sim, StepPhase p, int count) {
  for (int k = 0; k < count; ++k) {
    RingStep s;
    s.phase = p;
    s.index_in_phase = k;
    sim.steps.push_back(s);
  }
}

std::string describe_arc(Contribution c, int n) {
  if (c.count == 0) return "nothing";
  if (c.count == n) return "all ranks";
  int last = (c.first + c.count - 1) % n;
  return c.count == 1 ? "rank " + std::to_string(c.first)
                      : "ranks " + std::to_string(c.first) + ".." + std::to_string(last);
}

}  // namespace

std::optional<RingSim> simulate_ring(const RingInputs& in, std::string* error) {
  auto fail = [&](const std::string& msg) -> std::optional<RingSim> {
    if (error) *error = msg;
    return std::nullopt;
  };
  char buf[200];
  if (in.ranks < 2 || in.ranks > kRingMaxRanks) {
    std::snprintf(buf, sizeof buf, "N (ranks) must be between 2 and %d, got %d", kRingMaxRanks, in.ranks);
    return fail(buf);
  }
  if (in.bytes == 0 || in.bytes > 1000000000000000ull)
    return fail("M (bytes per rank) must be between 1 and 10^15, got " + std::to_string(in.bytes));
  if (!(in.alpha_us >= 0) || !std::isfinite(in.alpha_us)) {
    std::snprintf(buf, sizeof buf, "alpha_us must be a finite number >= 0, got %g", in.alpha_us);
    return fail(buf);
  }
  if (!(in.bw_gbs > 0) || !std::isfinite(in.bw_gbs)) {
    std::snprintf(buf, sizeof buf, "bw_gbs must be a finite number > 0, got %g", in.bw_gbs);
    return fail(buf);
  }

  RingSim sim;
  sim.in = in;
  const int n = in.ranks;
  for (int c = 0; c < n; ++c) sim.chunk_bytes.push_back(range_bytes(sim, c, 1));

  const int rounds = ceil_log2(n);
  const CollectiveKind kind = in.collective;
  // Phases per algorithm; reduce_scatter and all_gather are the first and second halves.
  StepPhase first = StepPhase::ReduceScatter, second = StepPhase::AllGather;
  int per_phase = n - 1;
  if (in.algorithm != CollectiveAlgorithm::Ring) {
    first = kind == CollectiveKind::AllGather ? StepPhase::Gather : StepPhase::Reduce;
    second = kind == CollectiveKind::ReduceScatter ? StepPhase::Scatter : StepPhase::Broadcast;
    if (in.algorithm == CollectiveAlgorithm::Tree) per_phase = rounds;
  }
  if (in.algorithm == CollectiveAlgorithm::Ring) {
    if (kind != CollectiveKind::AllGather) add_phase(sim, first, per_phase);
    if (kind != CollectiveKind::ReduceScatter) add_phase(sim, second, per_phase);
  } else {
    // Naive and tree need both halves for every collective: the data has to reach rank 0
    // and come back, only what travels differs.
    add_phase(sim, first, per_phase);
    add_phase(sim, second, per_phase);
  }
  if (in.algorithm == CollectiveAlgorithm::Tree) sim.tree_depth = rounds;

  sim.bytes_sent.assign(n, 0);
  sim.bytes_received.assign(n, 0);
  // Each rank talks to at most log2(N)+1 peers, so a short list per rank beats a map.
  std::vector<std::vector<RingLink>> out_links(n);
  const double bytes_per_s = in.bw_gbs * 1e9;
  std::vector<RingSend> sends;
  for (size_t s = 0; s < sim.steps.size(); ++s) {
    ring_step_sends(sim, static_cast<int>(s), sends);
    RingStep& st = sim.steps[s];
    st.sends = static_cast<int>(sends.size());
    for (const RingSend& x : sends) {
      st.max_send_bytes = std::max(st.max_send_bytes, x.bytes);
      sim.bytes_sent[x.from] += x.bytes;
      sim.bytes_received[x.to] += x.bytes;
      auto& mine = out_links[x.from];
      auto it = std::find_if(mine.begin(), mine.end(), [&](const RingLink& l) { return l.to == x.to; });
      if (it == mine.end()) mine.push_back({x.from, x.to, x.bytes});
      else it->bytes += x.bytes;
    }
    st.time_s = in.alpha_us * 1e-6 + static_cast<double>(st.max_send_bytes) / bytes_per_s;
    sim.time_s += st.time_s;
  }
  for (auto& mine : out_links) {
    std::sort(mine.begin(), mine.end(), [](const RingLink& a, const RingLink& b) { return a.to < b.to; });
    sim.links.insert(sim.links.end(), mine.begin(), mine.end());
  }
  for (int r = 0; r < n; ++r) {
    sim.bytes_total += sim.bytes_sent[r];
    sim.max_bytes_sent = std::max(sim.max_bytes_sent, sim.bytes_sent[r]);
    uint64_t port = sim.bytes_sent[r] + sim.bytes_received[r];
    if (port > sim.busiest_port_bytes) {
      sim.busiest_port_bytes = port;
      sim.busiest_rank = r;
    }
  }
  if (sim.time_s > 0) {
    sim.algbw_gbs = static_cast<double>(in.bytes) / sim.time_s / 1e9;
    // nccl-tests' correction (sources.h, the one table `dtx sim collective` also uses): what
    // each rank must move per byte of buffer on an ideal ring.
    const Collective c = kind == CollectiveKind::AllReduce       ? Collective::AllReduce
                         : kind == CollectiveKind::ReduceScatter ? Collective::ReduceScatter
                                                                 : Collective::AllGather;
    sim.busbw_gbs = sim.algbw_gbs * nccl_tests_busbw_factor(c, n);
  }
  return sim;
}

void ring_step_sends(const RingSim& sim, int step, std::vector<RingSend>& out) {
  out.clear();
  if (step < 0 || step >= static_cast<int>(sim.steps.size())) return;
  const RingStep& st = sim.steps[step];
  const int n = sim.in.ranks;
  const int k = st.index_in_phase;
  const bool all_gather = sim.in.collective == CollectiveKind::AllGather;
  auto send = [&](int from, int to, int first, int count) {
    out.push_back({from, to, first, count, range_bytes(sim, first, count)});
  };

  if (sim.in.algorithm == CollectiveAlgorithm::Ring) {
    // Chunk c starts at rank c+1 and travels N-1 hops, ending at rank c fully reduced; the
    // all-gather then carries it N-1 hops further, from rank c round to rank c-1.
    out.resize(n);
    int chunk = st.phase == StepPhase::ReduceScatter ? mod(-1 - k, n) : mod(-k, n);  // rank 0's
    for (int r = 0; r < n; ++r, chunk = chunk + 1 == n ? 0 : chunk + 1)
      out[r] = {r, r + 1 == n ? 0 : r + 1, chunk, 1, sim.chunk_bytes[chunk]};
    return;
  }

  if (sim.in.algorithm == CollectiveAlgorithm::Naive) {
    const int peer = k + 1;
    switch (st.phase) {
      case StepPhase::Reduce: send(peer, 0, 0, n); break;
      case StepPhase::Gather: send(peer, 0, peer, 1); break;
      case StepPhase::Scatter: send(0, peer, peer, 1); break;
      case StepPhase::Broadcast:
        // An all-gather's rank already has its own chunk; an allreduce's holds only a
        // partial sum of every chunk, so all of them go.
        if (all_gather) send(0, peer, (peer + 1) % n, n - 1);
        else send(0, peer, 0, n);
        break;
      default: break;
    }
    return;
  }

  // Tree: rank i's subtree at distance d is ranks [i, i + d).
  const int rounds = sim.tree_depth;
  if (st.phase == StepPhase::Reduce || st.phase == StepPhase::Gather) {
    const int d = 1 << k;
    for (int i = d; i < n; i += 2 * d) {
      if (st.phase == StepPhase::Reduce) send(i, i - d, 0, n);
      else send(i, i - d, i, std::min(i + d, n) - i);
    }
    return;
  }
  const int d = 1 << (rounds - 1 - k);
  for (int i = 0; i + d < n; i += 2 * d) {
    const int to = i + d, end = std::min(i + 2 * d, n);
    if (st.phase == StepPhase::Scatter) send(i, to, to, end - to);
    else if (all_gather) send(i, to, end % n, n - (end - to));  // all but the receiver's subtree
    else send(i, to, 0, n);
  }
}

RingState ring_initial_state(const RingSim& sim) {
  RingState st;
  const int n = sim.in.ranks;
  st.ranks = n;
  st.held.assign(static_cast<size_t>(n) * n, Contribution{});
  st.bytes_sent.assign(n, 0);
  const uint16_t all = static_cast<uint16_t>(n);
  for (int r = 0; r < n; ++r) {
    if (sim.in.collective == CollectiveKind::AllGather) {
      st.held[static_cast<size_t>(r) * n + r] = {0, all};
    } else {
      for (int c = 0; c < n; ++c) st.held[static_cast<size_t>(r) * n + c] = {static_cast<uint16_t>(r), 1};
    }
  }
  return st;
}

bool ring_apply_step(const RingSim& sim, RingState& st, RingScratch& scratch) {
  if (!st.error.empty() || st.steps_done >= static_cast<int>(sim.steps.size())) return false;
  const int n = st.ranks;
  const int step = st.steps_done;
  const RingStep& info = sim.steps[step];
  const bool reduces = phase_reduces(info.phase);
  ring_step_sends(sim, step, scratch.sends);
  scratch.updates.clear();
  char buf[320];
  for (const RingSend& x : scratch.sends) {
    for (int j = 0; j < x.chunk_count; ++j) {
      const int c = (x.chunk_first + j) % n;
      const size_t dst = static_cast<size_t>(x.to) * n + c;
      const Contribution a = st.held[dst];
      const Contribution b = st.held[static_cast<size_t>(x.from) * n + c];
      Contribution out{};
      bool ok = true;
      if (!reduces) {
        ok = b.count == n;
        out = b;
      } else if (a.count == 0 || b.count == 0 || a.count + b.count > n) {
        ok = false;
      } else if ((a.first + a.count) % n == b.first) {
        out = {a.first, static_cast<uint16_t>(a.count + b.count)};
      } else if ((b.first + b.count) % n == a.first) {
        out = {b.first, static_cast<uint16_t>(a.count + b.count)};
      } else {
        ok = false;
      }
      if (!ok) {
        if (reduces)
          std::snprintf(buf, sizeof buf,
                        "step %d (%s): rank %d adds chunk %d from rank %d, but it holds %s and the send carries %s: "
                        "that would count a rank twice or leave one out",
                        step + 1, phase_name(info.phase), x.to, c, x.from, describe_arc(a, n).c_str(),
                        describe_arc(b, n).c_str());
        else
          std::snprintf(buf, sizeof buf,
                        "step %d (%s): rank %d forwards chunk %d holding %s, not the full sum of %d ranks",
                        step + 1, phase_name(info.phase), x.from, c, describe_arc(b, n).c_str(), n);
        st.error = buf;
        return false;
      }
      scratch.updates.push_back({static_cast<uint32_t>(dst), out});
    }
    st.bytes_sent[x.from] += x.bytes;
    st.bytes_total += x.bytes;
  }
  for (const auto& u : scratch.updates) st.held[u.first] = u.second;
  st.time_s += info.time_s;
  ++st.steps_done;
  return true;
}

RingState ring_state_after(const RingSim& sim, int steps) {
  RingState st = ring_initial_state(sim);
  RingScratch scratch;
  steps = std::clamp(steps, 0, static_cast<int>(sim.steps.size()));
  while (st.steps_done < steps && ring_apply_step(sim, st, scratch)) {
  }
  return st;
}

int ring_full_chunks(const RingState& st, int rank) {
  int full = 0;
  for (int c = 0; c < st.ranks; ++c) full += st.at(rank, c).count == st.ranks;
  return full;
}

int ring_most_contributions(const RingState& st, int rank) {
  int most = 0;
  for (int c = 0; c < st.ranks; ++c) most = std::max<int>(most, st.at(rank, c).count);
  return most;
}

double ring_allreduce_bytes_per_rank(int ranks, double bytes) { return 2.0 * (ranks - 1) * bytes / ranks; }

double ring_allreduce_time_s(int ranks, double bytes, double alpha_us, double bw_gbs) {
  return 2.0 * (ranks - 1) * (alpha_us * 1e-6 + bytes / ranks / (bw_gbs * 1e9));
}

}  // namespace dtx::sim
