// `dtx sim ring`: the collective behind the ring widget, step by step, as text for an
// instructor checking a figure or as JSON for a script comparing dtx with another tool.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "figures.h"
#include "sim.h"
#include "sim/ring.h"

namespace dtx::cli {

namespace {

using Json = nlohmann::ordered_json;

// Steps printed in full below this many ranks; above it the first few and the last.
constexpr int kTextAllStepsMaxRanks = 16;
constexpr int kTextSendsPerStep = 16;
constexpr int kTextRankGroups = 64;
// JSON lists every send up to this many ranks (64 ranks: 126 steps of 64 sends).
constexpr int kJsonSendsMaxRanks = 64;

std::string bytes_exact(uint64_t b) { return std::to_string(b) + " B"; }

std::string chunks_label(const sim::RingSend& s, int n) {
  if (s.chunk_count == n) return "all";
  if (s.chunk_count == 1) return "c" + std::to_string(s.chunk_first);
  int last = (s.chunk_first + s.chunk_count - 1) % n;
  std::string l = "c" + std::to_string(s.chunk_first) + "..c" + std::to_string(last);
  if (last < s.chunk_first) l += "(wrap)";
  return l;
}

const char* title_of(sim::CollectiveKind k) {
  switch (k) {
    case sim::CollectiveKind::AllReduce: return "AllReduce";
    case sim::CollectiveKind::ReduceScatter: return "ReduceScatter";
    case sim::CollectiveKind::AllGather: return "AllGather";
  }
  return "?";
}

void print_step(const sim::RingSim& sim, int s, std::vector<sim::RingSend>& sends) {
  const int n = sim.in.ranks;
  const sim::RingStep& st = sim.steps[s];
  sim::ring_step_sends(sim, s, sends);
  bool uniform = true;
  for (const auto& x : sends) uniform = uniform && x.bytes == sends[0].bytes;
  std::string what = std::to_string(sends.size()) + (sends.size() == 1 ? " send" : " sends");
  if (uniform) what += " of " + bytes_exact(sends[0].bytes);
  std::printf("step %d/%zu  %s (%s)  %s  %s\n", s + 1, sim.steps.size(), sim::phase_name(st.phase),
              sim::phase_reduces(st.phase) ? "adds" : "copies", what.c_str(), format_seconds(st.time_s).c_str());
  std::string line = "    ";
  int shown = 0;
  for (const auto& x : sends) {
    if (shown == kTextSendsPerStep) break;
    std::string item = std::to_string(x.from) + "->" + std::to_string(x.to) + " " + chunks_label(x, n);
    if (!uniform) item += " " + std::to_string(x.bytes) + "B";
    if (shown && line.size() + item.size() > 94) {
      std::printf("%s,\n", line.c_str());
      line = "    ";
    } else if (shown) {
      line += ", ";
    }
    line += item;
    ++shown;
  }
  if (shown < static_cast<int>(sends.size()))
    line += ",\n    ... and " + std::to_string(sends.size() - shown) + " more (--json lists them for N <= " +
            std::to_string(kJsonSendsMaxRanks) + ")";
  std::printf("%s\n", line.c_str());
}

// Consecutive ranks that send and receive the same, as "ranks 1-7".
void print_bytes_per_rank(const sim::RingSim& sim) {
  const int n = sim.in.ranks;
  std::printf("\nbytes per rank (sent, received):\n");
  int groups = 0;
  for (int r = 0; r < n;) {
    int e = r;
    while (e + 1 < n && sim.bytes_sent[e + 1] == sim.bytes_sent[r] && sim.bytes_received[e + 1] == sim.bytes_received[r]) ++e;
    if (groups++ == kTextRankGroups) {
      std::printf("  ... ranks %d-%d differ in more groups; --json lists every rank\n", r, n - 1);
      break;
    }
    std::string who = r == e ? "rank " + std::to_string(r) : "ranks " + std::to_string(r) + "-" + std::to_string(e);
    std::printf("  %-14s sent %s (%s), received %s\n", who.c_str(), bytes_exact(sim.bytes_sent[r]).c_str(),
                format_bytes(static_cast<double>(sim.bytes_sent[r])).c_str(), bytes_exact(sim.bytes_received[r]).c_str());
    r = e + 1;
  }
}

std::vector<sim::RingSim> comparisons(const sim::RingInputs& in) {
  std::vector<sim::RingSim> out;
  for (auto a : {sim::CollectiveAlgorithm::Ring, sim::CollectiveAlgorithm::Naive, sim::CollectiveAlgorithm::Tree}) {
    sim::RingInputs x = in;
    x.algorithm = a;
    if (auto s = sim::simulate_ring(x, nullptr)) out.push_back(std::move(*s));
  }
  return out;
}

Json sim_json(const sim::RingSim& sim) {
  const int n = sim.in.ranks;
  const bool with_sends = n <= kJsonSendsMaxRanks;
  Json steps = Json::array();
  std::vector<sim::RingSend> sends;
  for (size_t s = 0; s < sim.steps.size(); ++s) {
    const sim::RingStep& st = sim.steps[s];
    Json j = {{"step", s + 1},
              {"phase", sim::phase_name(st.phase)},
              {"reduces", sim::phase_reduces(st.phase)},
              {"sends", st.sends},
              {"max_send_bytes", st.max_send_bytes},
              {"time_s", st.time_s}};
    if (with_sends) {
      sim::ring_step_sends(sim, static_cast<int>(s), sends);
      Json list = Json::array();
      for (const auto& x : sends)
        list.push_back({{"from", x.from}, {"to", x.to}, {"chunk", x.chunk_first}, {"chunks", x.chunk_count}, {"bytes", x.bytes}});
      j["send_list"] = list;
    }
    steps.push_back(j);
  }
  Json links = Json::array();
  for (const auto& l : sim.links) links.push_back({{"from", l.from}, {"to", l.to}, {"bytes", l.bytes}});
  Json j = {{"kind", "ring"},
            {"N", n},
            {"M", sim.in.bytes},
            {"algorithm", sim::algorithm_name(sim.in.algorithm)},
            {"collective", sim::collective_name(sim.in.collective)},
            {"alpha_us", sim.in.alpha_us},
            {"bw_gbs", sim.in.bw_gbs},
            {"chunk_bytes", sim.chunk_bytes},
            {"steps", sim.steps.size()},
            {"tree_depth", sim.tree_depth},
            {"step_list", steps}};
  if (!with_sends)
    j["steps_omitted"] = "send_list is given for N <= " + std::to_string(kJsonSendsMaxRanks) +
                         "; every step's phase, send count and time are listed";
  j["bytes_per_rank"] = sim.bytes_sent;
  j["bytes_received_per_rank"] = sim.bytes_received;
  j["bytes_total"] = sim.bytes_total;
  j["busiest_rank"] = sim.busiest_rank;
  j["busiest_port_bytes"] = sim.busiest_port_bytes;
  j["links"] = links;
  j["time_s"] = sim.time_s;
  j["algbw_gbs"] = sim.algbw_gbs;
  j["busbw_gbs"] = sim.busbw_gbs;
  return j;
}

}  // namespace

int print_sim_ring(const sim::WidgetValues& v, bool json) {
  const sim::RingInputs in = sim::ring_inputs_from(v);
  std::string err;
  auto maybe = sim::simulate_ring(in, &err);
  if (!maybe) {
    std::cerr << "dtx sim ring: " << err << "\n";
    return 1;
  }
  const sim::RingSim& sim = *maybe;
  const int n = in.ranks;
  const std::vector<sim::RingSim> others = comparisons(in);

  if (json) {
    Json j = sim_json(sim);
    Json cmp = Json::array();
    for (const auto& o : others)
      cmp.push_back({{"algorithm", sim::algorithm_name(o.in.algorithm)},
                     {"steps", o.steps.size()},
                     {"time_s", o.time_s},
                     {"max_bytes_sent", o.max_bytes_sent},
                     {"busiest_rank", o.busiest_rank},
                     {"busiest_port_bytes", o.busiest_port_bytes}});
    j["compare"] = cmp;
    std::cout << j.dump() << "\n";
    return 0;
  }

  std::printf("%s, %s algorithm, on %d ranks; M = %s (%s) per rank\n", title_of(in.collective),
              sim::algorithm_name(in.algorithm), n, bytes_exact(in.bytes).c_str(), format_bytes(static_cast<double>(in.bytes)).c_str());
  std::printf("alpha %g µs per step, bw %g GB/s per link direction (GB = 10^9 bytes)\n", in.alpha_us, in.bw_gbs);
  const uint64_t small = sim.chunk_bytes.back(), big = sim.chunk_bytes.front();
  if (small == big)
    std::printf("chunks: %d of %s\n", n, bytes_exact(big).c_str());
  else
    std::printf("chunks: %d; the first %d of %s, the rest %s (N does not divide M)\n", n,
                static_cast<int>(in.bytes % n), bytes_exact(big).c_str(), bytes_exact(small).c_str());
  if (sim.tree_depth) std::printf("tree depth: %d rounds each way\n", sim.tree_depth);

  std::printf("\n%zu steps:\n", sim.steps.size());
  const int total = static_cast<int>(sim.steps.size());
  const bool all = n <= kTextAllStepsMaxRanks;
  const int head = all ? total : std::min(total, 3);
  std::vector<sim::RingSend> sends;
  for (int s = 0; s < head; ++s) print_step(sim, s, sends);
  if (!all && head < total) {
    if (total - head > 1)
      std::printf("... %d steps omitted (text shows every step for N <= %d; --json gives each step, with its sends for N <= %d)\n",
                  total - head - 1, kTextAllStepsMaxRanks, kJsonSendsMaxRanks);
    print_step(sim, total - 1, sends);
  }

  print_bytes_per_rank(sim);
  std::printf("\ntotal sent     %s (%s)\n", bytes_exact(sim.bytes_total).c_str(), format_bytes(static_cast<double>(sim.bytes_total)).c_str());
  std::printf("busiest port   rank %d: %s in + out (%s)\n", sim.busiest_rank, bytes_exact(sim.busiest_port_bytes).c_str(),
              format_bytes(static_cast<double>(sim.busiest_port_bytes)).c_str());
  std::printf("time           %s (each step: alpha + its largest send / bw)\n", format_seconds(sim.time_s).c_str());
  std::printf("algBw          %s (M / time)\n", format_si(sim.algbw_gbs * 1e9, "B/s").c_str());
  std::printf("busBw          %s (algBw × %s)\n", format_si(sim.busbw_gbs * 1e9, "B/s").c_str(),
              in.collective == sim::CollectiveKind::AllReduce ? "2(N-1)/N" : "(N-1)/N");

  std::printf("\nthe same %s by each algorithm:\n  %-6s %6s %12s %18s\n", title_of(in.collective), "algo", "steps", "time",
              "busiest port");
  for (const auto& o : others)
    std::printf("%s %-6s %6zu %12s %18s\n", o.in.algorithm == in.algorithm ? "*" : " ", sim::algorithm_name(o.in.algorithm),
                o.steps.size(), format_seconds(o.time_s).c_str(), format_bytes(static_cast<double>(o.busiest_port_bytes)).c_str());
  return 0;
}

}  // namespace dtx::cli
