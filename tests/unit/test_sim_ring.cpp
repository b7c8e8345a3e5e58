// Ring AllReduce and its comparisons (engine/sim/ring). The buffers are replayed here with
// plain bit masks from the engine's sends, independently of the engine's own bookkeeping,
// and the byte and time figures are checked against the closed forms worked out by hand.
#include <gtest/gtest.h>

#include <bitset>
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "sim/ring.h"

using namespace dtx::sim;

namespace {

RingSim must_sim(int n, uint64_t m, CollectiveAlgorithm a = CollectiveAlgorithm::Ring,
                 CollectiveKind k = CollectiveKind::AllReduce, double alpha_us = 5, double bw_gbs = 50) {
  RingInputs in;
  in.ranks = n;
  in.bytes = m;
  in.algorithm = a;
  in.collective = k;
  in.alpha_us = alpha_us;
  in.bw_gbs = bw_gbs;
  std::string err;
  auto sim = simulate_ring(in, &err);
  EXPECT_TRUE(sim.has_value()) << err;
  return sim ? *sim : RingSim{};
}

uint64_t full_mask(int n) { return n == 64 ? ~0ull : (1ull << n) - 1; }

// Ranks first..first+count-1 (mod n) as a mask: `count` low bits rotated left by `first`
// within n bits.
uint64_t arc_mask(Contribution c, int n) {
  if (c.count >= n) return full_mask(n);
  const uint64_t low = (1ull << c.count) - 1;
  if (c.first == 0) return low;
  return ((low << c.first) | (low >> (n - c.first))) & full_mask(n);
}

// The test's own model of every buffer, N <= 64: masks[rank][chunk] = ranks summed in.
// A reducing send must add only ranks the receiver lacks; a copying send must carry the
// full sum. Returns "" or what went wrong.
struct MaskReplay {
  int n;
  std::vector<uint64_t> masks;  // [rank * n + chunk]
  std::vector<std::pair<size_t, uint64_t>> writes;
  MaskReplay(int n_, CollectiveKind kind) : n(n_), masks(static_cast<size_t>(n_) * n_, 0) {
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c)
        if (kind != CollectiveKind::AllGather) at(r, c) = 1ull << r;
        else if (c == r) at(r, c) = full_mask(n);
  }
  uint64_t& at(int r, int c) { return masks[static_cast<size_t>(r) * n + c]; }
  std::string apply(const RingSim& sim, int step) {
    std::vector<RingSend> sends;
    ring_step_sends(sim, step, sends);
    const bool reduces = phase_reduces(sim.steps[step].phase);
    writes.clear();  // sends of one step are simultaneous: read everything before writing
    for (const RingSend& s : sends) {
      for (int j = 0; j < s.chunk_count; ++j) {
        int c = (s.chunk_first + j) % n;
        uint64_t carried = at(s.from, c), had = at(s.to, c);
        std::string where = "step " + std::to_string(step) + " " + std::to_string(s.from) + "->" +
                            std::to_string(s.to) + " chunk " + std::to_string(c);
        if (reduces && (had & carried)) return where + ": counts a rank twice";
        if (!reduces && carried != full_mask(n)) return where + ": forwards a partial sum";
        writes.push_back({static_cast<size_t>(s.to) * n + c, reduces ? had | carried : carried});
      }
    }
    for (const auto& w : writes) masks[w.first] = w.second;
    return "";
  }
};

// Runs every step, checking after each that the engine's state equals the replay; returns
// the replay at the end.
MaskReplay replay_and_compare(const RingSim& sim) {
  const int n = sim.in.ranks;
  MaskReplay rep(n, sim.in.collective);
  RingState st = ring_initial_state(sim);
  RingScratch scratch;
  for (int s = 0; s < static_cast<int>(sim.steps.size()); ++s) {
    std::string why = rep.apply(sim, s);
    EXPECT_EQ(why, "") << algorithm_name(sim.in.algorithm) << " " << collective_name(sim.in.collective) << " N=" << n;
    EXPECT_TRUE(ring_apply_step(sim, st, scratch)) << st.error;
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c)
        if (arc_mask(st.at(r, c), n) != rep.at(r, c)) {
          ADD_FAILURE() << "N=" << n << " step " << s << ": rank " << r << " chunk " << c << " differs from the replay";
          return rep;
        }
  }
  EXPECT_FALSE(ring_apply_step(sim, st, scratch)) << "a step past the end was applied";
  return rep;
}

}  // namespace

// ---- contents of the buffers

TEST(SimRingState, AllReduceLeavesEverySumEverywhereForAllSmallN) {
  for (int n = 2; n <= 64; ++n) {
    RingSim sim = must_sim(n, 1000003);
    ASSERT_EQ(sim.steps.size(), static_cast<size_t>(2 * (n - 1)));
    MaskReplay rep = replay_and_compare(sim);
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) ASSERT_EQ(rep.at(r, c), full_mask(n)) << "N=" << n << " rank " << r << " chunk " << c;
  }
}

TEST(SimRingState, NaiveAndTreeCollectivesEndLikeTheRing) {
  for (auto a : {CollectiveAlgorithm::Ring, CollectiveAlgorithm::Naive, CollectiveAlgorithm::Tree})
    for (auto k : {CollectiveKind::AllReduce, CollectiveKind::ReduceScatter, CollectiveKind::AllGather})
      for (int n = 2; n <= 64; n += (n < 12 ? 1 : 7)) {
        RingSim sim = must_sim(n, 777, a, k);
        MaskReplay rep = replay_and_compare(sim);
        for (int r = 0; r < n; ++r)
          for (int c = 0; c < n; ++c) {
            // reduce_scatter promises only chunk r on rank r; the others promise everything.
            if (k == CollectiveKind::ReduceScatter && c != r) continue;
            ASSERT_EQ(rep.at(r, c), full_mask(n)) << algorithm_name(a) << " " << collective_name(k) << " N=" << n
                                                     << " rank " << r << " chunk " << c;
          }
      }
}

TEST(SimRingState, ReduceScatterStepsGrowOneContributionPerHop) {
  // N=4 by hand: in step s (0-based) rank r sends chunk r-1-s to r+1, so after one step
  // rank 1 holds chunk 3 summed over ranks {0,1}; after two, rank 2 holds chunk 3 over
  // {0,1,2}; after three, rank 3 holds chunk 3 over all four ranks.
  RingSim sim = must_sim(4, 4000);
  EXPECT_EQ(arc_mask(ring_state_after(sim, 1).at(1, 3), 4), 0b0011u);
  EXPECT_EQ(arc_mask(ring_state_after(sim, 2).at(2, 3), 4), 0b0111u);
  EXPECT_EQ(arc_mask(ring_state_after(sim, 3).at(3, 3), 4), 0b1111u);
  // Chunk 1 passes ranks 2, 3, 0 before ending on rank 1: rank 0 keeps {2,3,0}.
  EXPECT_EQ(arc_mask(ring_state_after(sim, 3).at(0, 1), 4), 0b1101u);
}

TEST(SimRingState, LargestPartialSumGrowsByOneRankPerStep) {
  // In step s every rank receives the chunk that has just passed s+1 ranks (itself
  // included), so after s reduce-scatter steps the largest sum a rank holds covers s+1.
  const int n = 16;
  RingSim sim = must_sim(n, 1 << 20);
  for (int s = 0; s <= n - 1; ++s) {
    RingState st = ring_state_after(sim, s);
    for (int r = 0; r < n; ++r) ASSERT_EQ(ring_most_contributions(st, r), s + 1) << "after step " << s << " rank " << r;
  }
}

TEST(SimRingState, FullyReducedChunksHeldCountUpDuringAllGather) {
  // After reduce-scatter each rank owns one finished chunk (N in all); every all-gather step
  // hands each rank one more, so after N-1+j steps N*(1+j) are held.
  const int n = 16;
  RingSim sim = must_sim(n, 1 << 20);
  RingState st = ring_initial_state(sim);
  RingScratch scratch;
  for (int s = 1; s <= 2 * (n - 1); ++s) {
    ASSERT_TRUE(ring_apply_step(sim, st, scratch)) << st.error;
    int full = 0;
    for (int r = 0; r < n; ++r) full += ring_full_chunks(st, r);
    EXPECT_EQ(full, s < n - 1 ? 0 : n * (1 + s - (n - 1))) << "after step " << s;
  }
}

TEST(SimRingState, LargeRingsEndFullyReduced) {
  // N=1024 is the widget's largest ring: every one of the 1024x1024 chunk copies must hold
  // all ranks. Three chunks are also replayed here with a 1024-bit set per rank.
  for (int n : {1000, 1024}) {
    RingSim sim = must_sim(n, 4096 + 7);
    RingState st = ring_state_after(sim, static_cast<int>(sim.steps.size()));
    ASSERT_EQ(st.error, "");
    ASSERT_EQ(st.steps_done, 2 * (n - 1));
    for (int r = 0; r < n; ++r) ASSERT_EQ(ring_full_chunks(st, r), n) << "N=" << n << " rank " << r;

    for (int chunk : {0, n / 2 + 1, n - 1}) {
      std::vector<std::bitset<1024>> held(n);
      for (int r = 0; r < n; ++r) held[r].set(r);
      std::vector<RingSend> sends;
      for (int s = 0; s < static_cast<int>(sim.steps.size()); ++s) {
        ring_step_sends(sim, s, sends);
        for (const RingSend& x : sends) {
          if (x.chunk_first != chunk) continue;
          if (phase_reduces(sim.steps[s].phase)) {
            ASSERT_TRUE((held[x.to] & held[x.from]).none()) << "step " << s;
            held[x.to] |= held[x.from];
          } else {
            ASSERT_EQ(held[x.from].count(), static_cast<size_t>(n)) << "step " << s;
            held[x.to] = held[x.from];
          }
        }
      }
      for (int r = 0; r < n; ++r) ASSERT_EQ(held[r].count(), static_cast<size_t>(n)) << "chunk " << chunk << " rank " << r;
    }
  }
}

TEST(SimRingState, AScheduleThatCountsARankTwiceIsReported) {
  // Repeating the first reduce-scatter step makes rank r+1 add rank r's chunk r-1 again.
  RingSim sim = must_sim(6, 6000);
  sim.steps.insert(sim.steps.begin() + 1, sim.steps[0]);
  RingState st = ring_state_after(sim, 2);
  EXPECT_EQ(st.steps_done, 1);
  EXPECT_NE(st.error.find("step 2"), std::string::npos) << st.error;
  EXPECT_NE(st.error.find("twice"), std::string::npos) << st.error;
}

// ---- who sends what

TEST(SimRingSends, EveryRankSendsOneChunkToItsSuccessorEachStep) {
  for (int n : {2, 3, 5, 8, 31, 64, 1024}) {
    RingSim sim = must_sim(n, 10 * 1000 * 1000 + 3);
    std::vector<RingSend> sends;
    for (int s = 0; s < static_cast<int>(sim.steps.size()); ++s) {
      ring_step_sends(sim, s, sends);
      ASSERT_EQ(sends.size(), static_cast<size_t>(n));
      std::vector<char> sent(n, 0), moved(n, 0);
      for (const RingSend& x : sends) {
        ASSERT_FALSE(sent[x.from]) << "rank " << x.from << " sends twice in step " << s;
        sent[x.from] = 1;
        ASSERT_EQ(x.to, (x.from + 1) % n) << "step " << s;
        ASSERT_EQ(x.chunk_count, 1);
        // Each chunk moves exactly once per step, so every step moves the whole buffer once.
        ASSERT_FALSE(moved[x.chunk_first]) << "chunk " << x.chunk_first << " moves twice in step " << s;
        moved[x.chunk_first] = 1;
        ASSERT_EQ(x.bytes, sim.chunk_bytes[x.chunk_first]);
      }
    }
  }
}

TEST(SimRingSends, NoRankSendsOrReceivesTwiceInAStepForAnyAlgorithm) {
  for (auto a : {CollectiveAlgorithm::Naive, CollectiveAlgorithm::Tree})
    for (auto k : {CollectiveKind::AllReduce, CollectiveKind::ReduceScatter, CollectiveKind::AllGather})
      for (int n : {2, 3, 7, 8, 13, 100}) {
        RingSim sim = must_sim(n, 1 << 20, a, k);
        std::vector<RingSend> sends;
        for (int s = 0; s < static_cast<int>(sim.steps.size()); ++s) {
          ring_step_sends(sim, s, sends);
          ASSERT_FALSE(sends.empty());
          std::set<int> busy;  // a rank either sends or receives in a round, once
          for (const RingSend& x : sends) {
            ASSERT_NE(x.from, x.to);
            ASSERT_TRUE(busy.insert(x.from).second) << algorithm_name(a) << " N=" << n << " step " << s;
            ASSERT_TRUE(busy.insert(x.to).second) << algorithm_name(a) << " N=" << n << " step " << s;
          }
        }
      }
}

TEST(SimRingSends, ChunksDifferByAtMostOneByte) {
  // 10 bytes over 3 ranks: 4 + 3 + 3.
  RingSim sim = must_sim(3, 10);
  EXPECT_EQ(sim.chunk_bytes, (std::vector<uint64_t>{4, 3, 3}));
  // Fewer bytes than ranks: some chunks are empty, still exact.
  RingSim tiny = must_sim(8, 3);
  EXPECT_EQ(tiny.chunk_bytes, (std::vector<uint64_t>{1, 1, 1, 0, 0, 0, 0, 0}));
}

// ---- bytes

TEST(SimRingBytes, EachRankSendsTwoNMinusOneOverNOfTheBufferExactly) {
  // N divides M: each of the 2(N-1) steps sends one M/N chunk per rank.
  for (int n : {2, 3, 4, 8, 10, 64, 100, 1000, 1024}) {
    const uint64_t m = static_cast<uint64_t>(n) * 1000003;  // a multiple of N
    RingSim sim = must_sim(n, m);
    const uint64_t expect = 2 * static_cast<uint64_t>(n - 1) * (m / n);
    for (int r = 0; r < n; ++r) {
      ASSERT_EQ(sim.bytes_sent[r], expect) << "N=" << n << " rank " << r;
      ASSERT_EQ(sim.bytes_received[r], expect) << "N=" << n << " rank " << r;
    }
    EXPECT_EQ(sim.bytes_total, 2 * static_cast<uint64_t>(n - 1) * m);
  }
  // The chapter's figure: 1 GB on 8 GPUs is 1.75 GB per GPU.
  EXPECT_EQ(must_sim(8, 1000000000).bytes_sent[3], 1750000000u);
}

TEST(SimRingBytes, TotalsStayExactWhenNDoesNotDivideM) {
  // Every step moves each chunk once, i.e. the whole buffer: 2(N-1) steps move 2(N-1)M.
  for (int n : {3, 7, 64, 1000, 1023}) {
    const uint64_t m = 1000000007;  // prime: no N above divides it
    RingSim sim = must_sim(n, m);
    EXPECT_EQ(sim.bytes_total, 2 * static_cast<uint64_t>(n - 1) * m) << "N=" << n;
    // A rank skips one chunk per phase, so it sends 2M minus two chunks: within two bytes
    // of 2(N-1)M/N either way.
    const double ideal = 2.0 * (n - 1) * static_cast<double>(m) / n;
    for (int r = 0; r < n; ++r) ASSERT_NEAR(static_cast<double>(sim.bytes_sent[r]), ideal, 2.0) << "N=" << n;
  }
}

TEST(SimRingBytes, ReduceScatterAndAllGatherAreEachHalf) {
  for (int n : {2, 5, 8, 64}) {
    const uint64_t m = 123456789;
    RingSim ar = must_sim(n, m);
    RingSim rs = must_sim(n, m, CollectiveAlgorithm::Ring, CollectiveKind::ReduceScatter);
    RingSim ag = must_sim(n, m, CollectiveAlgorithm::Ring, CollectiveKind::AllGather);
    EXPECT_EQ(rs.steps.size(), static_cast<size_t>(n - 1));
    EXPECT_EQ(ag.steps.size(), static_cast<size_t>(n - 1));
    EXPECT_EQ(rs.bytes_total, static_cast<uint64_t>(n - 1) * m);
    EXPECT_EQ(ag.bytes_total, static_cast<uint64_t>(n - 1) * m);
    for (int r = 0; r < n; ++r) EXPECT_EQ(rs.bytes_sent[r] + ag.bytes_sent[r], ar.bytes_sent[r]) << "rank " << r;
  }
  // N divides M: (N-1)M/N each, 7/8 of 8 MB.
  RingSim rs8 = must_sim(8, 8000000, CollectiveAlgorithm::Ring, CollectiveKind::ReduceScatter);
  for (uint64_t b : rs8.bytes_sent) EXPECT_EQ(b, 7000000u);
}

// ---- time under alpha-beta

TEST(SimRingTime, MatchesTheHandComputedAlphaBetaFigure) {
  // N=8, M=1 GB, 50 GB/s, alpha 5 us: a step is 5e-6 + 125e6/50e9 = 0.002505 s, 14 steps
  // 0.03507 s. algBw = 1e9/0.03507 = 28.514 GB/s; busBw = algBw*14/8 = 49.900 GB/s.
  RingSim sim = must_sim(8, 1000000000, CollectiveAlgorithm::Ring, CollectiveKind::AllReduce, 5, 50);
  EXPECT_NEAR(sim.steps[0].time_s, 0.002505, 1e-12);
  EXPECT_NEAR(sim.time_s, 0.03507, 1e-12);
  EXPECT_NEAR(sim.algbw_gbs, 28.5144, 1e-4);
  EXPECT_NEAR(sim.busbw_gbs, 49.9002, 1e-4);
  EXPECT_NEAR(ring_allreduce_time_s(8, 1e9, 5, 50), 0.03507, 1e-12);
  EXPECT_DOUBLE_EQ(ring_allreduce_bytes_per_rank(8, 1e9), 1.75e9);
  RingState end = ring_state_after(sim, 14);
  EXPECT_NEAR(end.time_s, 0.03507, 1e-12);
  EXPECT_EQ(end.bytes_sent[5], 1750000000u);
}

TEST(SimRingTime, UnevenChunksCostTheLargestChunkPerStep) {
  // 10 bytes on 3 ranks: chunks 4,3,3; every step sends a 4-byte chunk somewhere, so with
  // alpha 0 and 1 GB/s each of the 4 steps takes 4 ns.
  RingSim sim = must_sim(3, 10, CollectiveAlgorithm::Ring, CollectiveKind::AllReduce, 0, 1);
  EXPECT_NEAR(sim.time_s, 16e-9, 1e-20);
}

// ---- the comparisons

TEST(SimRingNaive, RankZerosPortCarriesTwoNMinusOneBuffers) {
  // N=8, M=1 GB: rank 0 receives 7 GB and sends 7 GB back, 14 GB through its port; the
  // others send and receive 1 GB each. 14 sequential steps of 5e-6 + 1e9/50e9 = 0.020005 s
  // give 0.28007 s.
  RingSim sim = must_sim(8, 1000000000, CollectiveAlgorithm::Naive);
  EXPECT_EQ(sim.busiest_rank, 0);
  EXPECT_EQ(sim.busiest_port_bytes, 14000000000u);
  EXPECT_EQ(sim.bytes_received[0], 7000000000u);
  EXPECT_EQ(sim.bytes_sent[0], 7000000000u);
  for (int r = 1; r < 8; ++r) EXPECT_EQ(sim.bytes_sent[r], 1000000000u);
  EXPECT_EQ(sim.steps.size(), 14u);
  EXPECT_NEAR(sim.time_s, 0.28007, 1e-12);
  for (int n : {2, 5, 64, 1024}) {
    RingSim s = must_sim(n, 1000, CollectiveAlgorithm::Naive);
    EXPECT_EQ(s.busiest_port_bytes, 2 * static_cast<uint64_t>(n - 1) * 1000) << "N=" << n;
  }
}

TEST(SimRingTree, DepthAndBusiestLink) {
  // Depth ceil(log2 N) rounds each way; rank 0 is in every round, receiving M in each
  // reduce round and sending M in each broadcast round: 2*depth*M through its port.
  struct Case { int n, depth; };
  for (Case c : {Case{2, 1}, Case{3, 2}, Case{5, 3}, Case{8, 3}, Case{9, 4}, Case{1000, 10}, Case{1024, 10}}) {
    const uint64_t m = 1000;
    RingSim sim = must_sim(c.n, m, CollectiveAlgorithm::Tree);
    EXPECT_EQ(sim.tree_depth, c.depth) << "N=" << c.n;
    EXPECT_EQ(sim.steps.size(), static_cast<size_t>(2 * c.depth)) << "N=" << c.n;
    EXPECT_EQ(sim.busiest_rank, 0) << "N=" << c.n;
    EXPECT_EQ(sim.busiest_port_bytes, 2 * static_cast<uint64_t>(c.depth) * m) << "N=" << c.n;
    // A tree has N-1 edges; each carries M up and M down.
    ASSERT_EQ(sim.links.size(), static_cast<size_t>(2 * (c.n - 1))) << "N=" << c.n;
    for (const RingLink& l : sim.links) EXPECT_EQ(l.bytes, m) << l.from << "->" << l.to;
  }
  // N=8, M=1 GB, 50 GB/s, 5 us: 6 rounds of 0.020005 s = 0.12003 s.
  EXPECT_NEAR(must_sim(8, 1000000000, CollectiveAlgorithm::Tree).time_s, 0.12003, 1e-12);
}

TEST(SimRingCompare, BusiestPortOrdersRingBelowTreeBelowNaive) {
  // N=64, M=64 MB: ring 4*63/64*M = 252 MB (sends and receives 126 MB), tree 2*6*M = 768 MB,
  // naive 2*63*M = 8064 MB.
  const uint64_t m = 64000000;
  EXPECT_EQ(must_sim(64, m).busiest_port_bytes, 252000000u);
  EXPECT_EQ(must_sim(64, m, CollectiveAlgorithm::Tree).busiest_port_bytes, 768000000u);
  EXPECT_EQ(must_sim(64, m, CollectiveAlgorithm::Naive).busiest_port_bytes, 8064000000u);
  // Ring links: only i -> i+1, each carrying 2(N-1)/N*M.
  RingSim ring = must_sim(64, m);
  ASSERT_EQ(ring.links.size(), 64u);
  for (const RingLink& l : ring.links) {
    EXPECT_EQ(l.to, (l.from + 1) % 64);
    EXPECT_EQ(l.bytes, 126000000u);
  }
}

// ---- inputs

TEST(SimRingInputs, BadInputIsAnErrorNamingTheInput) {
  struct Case { int n; uint64_t m; double alpha, bw; const char* names; };
  for (Case c : {Case{1, 1000, 5, 50, "N"}, Case{0, 1000, 5, 50, "N"}, Case{-3, 1000, 5, 50, "N"},
                 Case{1025, 1000, 5, 50, "N"}, Case{8, 0, 5, 50, "M"}, Case{8, 1000, -1, 50, "alpha_us"},
                 Case{8, 1000, 5, 0, "bw_gbs"}}) {
    RingInputs in;
    in.ranks = c.n;
    in.bytes = c.m;
    in.alpha_us = c.alpha;
    in.bw_gbs = c.bw;
    std::string err;
    EXPECT_FALSE(simulate_ring(in, &err).has_value()) << c.names;
    EXPECT_EQ(err.rfind(c.names, 0), 0u) << err;
  }
}

TEST(SimRingInputs, WidgetDefaultsRunTheChaptersExample) {
  const WidgetKind& k = ring_widget_kind();
  EXPECT_STREQ(k.kind, "ring");
  for (const char* name : {"N", "M", "algorithm", "collective", "alpha_us", "bw_gbs"})
    EXPECT_NE(k.input(name), nullptr) << name;
  WidgetValues v = WidgetValues::defaults(k);
  RingInputs in = ring_inputs_from(v);
  EXPECT_EQ(in.ranks, 8);
  EXPECT_EQ(in.bytes, 1000000000u);
  v.set("algorithm", 2);
  v.set("collective", 1);
  in = ring_inputs_from(v);
  EXPECT_EQ(in.algorithm, CollectiveAlgorithm::Tree);
  EXPECT_EQ(in.collective, CollectiveKind::ReduceScatter);
  std::string err;
  EXPECT_TRUE(simulate_ring(in, &err).has_value()) << err;
}
