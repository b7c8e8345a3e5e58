// engine/sim/sources: each formula against figures taken from the source it names. Every test
// says where its figures come from; figures printed rounded by the source are compared at the
// rounding it printed.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>
#include <tuple>

#include "sim/pipeline.h"
#include "sim/sources.h"

using namespace dtx::sim;

namespace {

constexpr double kGiB = 1073741824.0;

MemoryQuery ds(MemorySource src, double params, int zero, int gpus_per_node, int nodes, Offload off = Offload::None) {
  MemoryQuery q;
  q.source = src;
  q.params = params;
  q.zero = zero;
  q.gpus_per_node = gpus_per_node;
  q.nodes = nodes;
  q.offload = off;
  return q;
}

// DeepSpeed prints "%7.2fGB" of bytes / 2^30.
double printed_gib(double bytes) { return std::round(bytes / kGiB * 100) / 100; }

}  // namespace

// ---- ZeRO paper ------------------------------------------------------------------------
// Rajbhandari et al. 2020, figure 1: Ψ = 7.5B, K = 12, Nd = 64: 120 GB baseline, 31.4 GB with
// P_os, 16.6 GB with P_os+g, 1.9 GB with P_os+g+p (GB = 10^9 bytes).
TEST(SourcesZeroPaper, Figure1SevenAndAHalfBillionOn64Gpus) {
  MemoryQuery q;
  q.source = MemorySource::ZeroPaper;
  q.params = 7.5e9;
  q.dp = 64;
  const double expect[] = {120, 31.4, 16.6, 1.9};
  for (int stage = 0; stage <= 3; ++stage) {
    q.zero = stage;
    MemoryEstimate e = estimate_memory(q);
    ASSERT_TRUE(e.error.empty()) << e.error;
    EXPECT_NEAR(e.gpu_bytes / 1e9, expect[stage], 0.05) << "stage " << stage;
    EXPECT_FALSE(e.cpu_modelled);
  }
}

// Table 2, theoretical maximum model size on 32 GB V100s: MP = 1 on 64 GPUs gives 2B, 7.6B,
// 14.4B and 128B for baseline, P_os, P_os+g and P_os+g+p; MP = 16 on 1024 GPUs (Nd = 64) gives
// 32B, 121.6B, 230.4B and 2T. The table prints 7.64B as 7.6B and multiplies its rounded MP = 1
// row by 16, hence a 1 % tolerance.
TEST(SourcesZeroPaper, Table2LargestModelWithModelParallelism) {
  struct Row {
    int mp, gpus;
    double params_b[4];
  };
  const Row rows[] = {{1, 64, {2, 7.6, 14.4, 128}}, {16, 1024, {32, 121.6, 230.4, 2048}}};
  for (const Row& row : rows) {
    for (int stage = 0; stage <= 3; ++stage) {
      MemoryQuery q;
      q.source = MemorySource::ZeroPaper;
      q.params = 1e9;
      q.zero = stage;
      q.mp = row.mp;
      q.dp = row.gpus / row.mp;
      q.device_mem_gb = 32;
      MemoryEstimate e = estimate_memory(q);
      ASSERT_TRUE(e.error.empty()) << e.error;
      EXPECT_NEAR(e.max_params / 1e9, row.params_b[stage], row.params_b[stage] * 0.01)
          << "MP " << row.mp << " stage " << stage;
    }
  }
}

// ---- DeepSpeed -------------------------------------------------------------------------
// docs/code-docs/source/memory.rst, estimate_zero2_model_states_mem_needs_all_cold with
// total_params = 2851e6 on 1 node of 8 GPUs (written before June 2024): per CPU 127.45GB, per
// GPU 5.31GB with offload_optimizer=cpu and 15.93GB without.
TEST(SourcesDeepSpeed, MemoryRstZero2BeforeJune2024) {
  MemoryEstimate off = estimate_memory(ds(MemorySource::DeepSpeed2023, 2851e6, 2, 8, 1, Offload::Optimizer));
  ASSERT_TRUE(off.error.empty()) << off.error;
  EXPECT_DOUBLE_EQ(printed_gib(off.cpu_bytes), 127.45);
  EXPECT_DOUBLE_EQ(printed_gib(off.gpu_bytes), 5.31);
  MemoryEstimate none = estimate_memory(ds(MemorySource::DeepSpeed2023, 2851e6, 2, 8, 1));
  EXPECT_DOUBLE_EQ(printed_gib(none.cpu_bytes), 127.45);
  EXPECT_DOUBLE_EQ(printed_gib(none.gpu_bytes), 15.93);
  EXPECT_TRUE(none.cpu_modelled);
  // ZeRO-1 uses the same estimator.
  EXPECT_EQ(estimate_memory(ds(MemorySource::DeepSpeed2023, 2851e6, 1, 8, 1)).gpu_bytes, none.gpu_bytes);
}

// The same inputs through the current function (PR #5099: 2 bytes of 16-bit weights plus 18
// sharded): 2·2851e6 + int(18·2851e6/8) = 5,702,000,000 + 6,414,750,000 bytes = 11.28 GiB;
// offload and host memory are unchanged.
TEST(SourcesDeepSpeed, Zero2SinceJune2024) {
  MemoryEstimate e = estimate_memory(ds(MemorySource::DeepSpeed, 2851e6, 2, 8, 1));
  EXPECT_DOUBLE_EQ(e.gpu_bytes, 12116750000.0);
  EXPECT_DOUBLE_EQ(printed_gib(e.gpu_bytes), 11.28);
  EXPECT_DOUBLE_EQ(printed_gib(e.cpu_bytes), 127.45);
  EXPECT_DOUBLE_EQ(estimate_memory(ds(MemorySource::DeepSpeed, 2851e6, 2, 8, 1, Offload::Optimizer)).gpu_bytes,
                   2 * 2851e6);
}

// memory.rst, estimate_zero3_model_states_mem_needs_all_cold(total_params=2851e6,
// largest_layer_params=32e6, num_gpus_per_node=8, num_nodes=1): six rows of per CPU / per GPU.
TEST(SourcesDeepSpeed, MemoryRstZero3AllSixRows) {
  struct Row {
    Offload offload;
    bool zero_init;
    double cpu_gib, gpu_gib;
  };
  const Row rows[] = {
      {Offload::Params, true, 71.69, 0.12},     {Offload::Params, false, 127.45, 0.12},
      {Offload::Optimizer, true, 63.72, 0.78},  {Offload::Optimizer, false, 127.45, 0.78},
      {Offload::None, true, 1.43, 6.09},        {Offload::None, false, 127.45, 6.09},
  };
  for (const Row& r : rows) {
    MemoryQuery q = ds(MemorySource::DeepSpeed, 2851e6, 3, 8, 1, r.offload);
    q.largest_layer = 32e6;
    q.zero_init = r.zero_init;
    MemoryEstimate e = estimate_memory(q);
    ASSERT_TRUE(e.error.empty()) << e.error;
    EXPECT_DOUBLE_EQ(printed_gib(e.cpu_bytes), r.cpu_gib) << offload_name(r.offload) << " zero_init " << r.zero_init;
    EXPECT_DOUBLE_EQ(printed_gib(e.gpu_bytes), r.gpu_gib) << offload_name(r.offload) << " zero_init " << r.zero_init;
    EXPECT_DOUBLE_EQ(e.largest_layer_bytes, 4 * 32e6);
  }
}

// Offload on one node: stage3.py's gpus_factor = 1/num_nodes is 1, so the host holds the
// whole 18 bytes per parameter; on 4 nodes each node holds a quarter. ZeRO-2's offload host
// figure is P·max(4·GPUs, 16)·1.5: 16 dominates on one GPU, 4·GPUs from 4 GPUs on.
TEST(SourcesDeepSpeed, OffloadEdgeCasesOfOneNode) {
  DeepSpeedEstimate one = deepspeed_zero3_estimate(1e9, 1e7, 8, 1, true, true, true, 1.5);
  EXPECT_DOUBLE_EQ(one.cpu_bytes, 1e9 * 18 * 1.5);
  DeepSpeedEstimate four = deepspeed_zero3_estimate(1e9, 1e7, 8, 4, true, true, true, 1.5);
  EXPECT_DOUBLE_EQ(four.cpu_bytes, 1e9 * 18 * 0.25 * 1.5);
  EXPECT_DOUBLE_EQ(deepspeed_zero2_estimate(1e9, 1, 1, true, 1.5, false).cpu_bytes, 1e9 * 16 * 1.5);
  EXPECT_DOUBLE_EQ(deepspeed_zero2_estimate(1e9, 8, 1, true, 1.5, false).cpu_bytes, 1e9 * 32 * 1.5);
  // The buffer factor multiplies host memory only.
  EXPECT_DOUBLE_EQ(deepspeed_zero2_estimate(1e9, 8, 1, true, 1.0, false).gpu_bytes,
                   deepspeed_zero2_estimate(1e9, 8, 1, true, 3.0, false).gpu_bytes);
}

// Integer truncation as Python's int(): 18·P/N with P = 10 and N = 3 is 60, P = 11 gives 66.
TEST(SourcesDeepSpeed, TruncatesLikePythonInt) {
  EXPECT_DOUBLE_EQ(deepspeed_zero2_estimate(11, 3, 1, false, 1.5, false).gpu_bytes, 22 + 66);
  EXPECT_DOUBLE_EQ(deepspeed_zero2_estimate(10, 3, 1, false, 1.5, true).gpu_bytes, 40 + 53);
}

// ---- Megatron-LM -----------------------------------------------------------------------
// megatron/training/theoretical_memory_usage.py: 18 bytes per parameter, 6 + 12/d with the
// distributed optimizer; per GPU it multiplies the parameters of the GPU's model shard.
TEST(SourcesMegatron, EighteenOrSixPlusTwelveOverD) {
  EXPECT_DOUBLE_EQ(megatron_bytes_per_param(false, 64), 18);
  EXPECT_DOUBLE_EQ(megatron_bytes_per_param(true, 8), 7.5);
  MemoryQuery q;
  q.source = MemorySource::Megatron;
  q.params = 70e9;
  q.mp = 8;
  q.dp = 16;
  q.zero = 1;
  MemoryEstimate e = estimate_memory(q);
  ASSERT_TRUE(e.error.empty()) << e.error;
  EXPECT_DOUBLE_EQ(e.gpu_bytes, 70e9 / 8 * (6 + 12.0 / 16));
  EXPECT_DOUBLE_EQ(e.grads_bytes, 70e9 / 8 * 4);  // FP32 main gradients, not sharded
  q.zero = 2;
  EXPECT_NE(estimate_memory(q).error.find("distributed optimizer"), std::string::npos);
}

// Queries a source has no formula for are refused with the reason, never answered silently.
TEST(SourcesMemory, RefusesWhatTheSourceDoesNotModel) {
  MemoryQuery q = ds(MemorySource::DeepSpeed, 1e9, 0, 8, 1);
  EXPECT_NE(estimate_memory(q).error.find("stages 1-2"), std::string::npos);
  q.zero = 2;
  q.offload = Offload::Params;
  EXPECT_NE(estimate_memory(q).error.find("--zero 3"), std::string::npos);
  q.zero = 3;
  EXPECT_NE(estimate_memory(q).error.find("--largest_layer"), std::string::npos);
  q.offload = Offload::None;
  q.mp = 2;
  EXPECT_NE(estimate_memory(q).error.find("model-parallel"), std::string::npos);
  MemoryQuery z;
  z.params = 1e9;
  z.offload = Offload::Optimizer;
  EXPECT_NE(estimate_memory(z).error.find("does not model offload"), std::string::npos);
}

// ---- nccl-tests --------------------------------------------------------------------------
// src/*.cu GetBw: the factors each test multiplies algBw by; n = 1 gives 0 for the (n-1)/n
// family, exactly as the source's arithmetic does.
TEST(SourcesNcclTests, BusBwFactorsOfEveryTest) {
  EXPECT_DOUBLE_EQ(nccl_tests_busbw_factor(Collective::AllReduce, 8), 1.75);
  EXPECT_DOUBLE_EQ(nccl_tests_busbw_factor(Collective::ReduceScatter, 8), 0.875);
  EXPECT_DOUBLE_EQ(nccl_tests_busbw_factor(Collective::AllGather, 8), 0.875);
  EXPECT_DOUBLE_EQ(nccl_tests_busbw_factor(Collective::AllToAll, 8), 0.875);
  EXPECT_DOUBLE_EQ(nccl_tests_busbw_factor(Collective::Broadcast, 8), 1);
  EXPECT_DOUBLE_EQ(nccl_tests_busbw_factor(Collective::Reduce, 8), 1);
  EXPECT_DOUBLE_EQ(nccl_tests_busbw_factor(Collective::SendRecv, 8), 1);
  for (Collective c : {Collective::AllReduce, Collective::ReduceScatter, Collective::AllGather, Collective::AllToAll})
    EXPECT_DOUBLE_EQ(nccl_tests_busbw_factor(c, 1), 0) << collective_op_name(c);
  for (Collective c : {Collective::Broadcast, Collective::Reduce, Collective::SendRecv})
    EXPECT_DOUBLE_EQ(nccl_tests_busbw_factor(c, 1), 1) << collective_op_name(c);
  EXPECT_EQ(all_collectives().size(), 7u);
}

// In-network AllReduce (nccl-tests issue #366): nccl-tests keeps 2(n-1)/n, so 8 H100s at an
// algBw of 275 GB/s print about 480 GB/s (the figure NVIDIA quotes in nccl-tests issue #212),
// while each link carries algBw × 1.
TEST(SourcesNcclTests, InNetworkAllReduceCarriesEachByteOnce) {
  EXPECT_DOUBLE_EQ(busbw_factor(Collective::AllReduce, 8, true), 1);
  EXPECT_NEAR(275 * nccl_tests_busbw_factor(Collective::AllReduce, 8), 481.25, 1e-9);
  EXPECT_DOUBLE_EQ(busbw_factor(Collective::AllReduce, 8, false), 1.75);
}

// ---- checkpointing -----------------------------------------------------------------------
// Young: sqrt(2·98 s·86,400 s) = 4,115.1 s (the 70B checkpoint of chapter 7). Daly, worked
// by hand from his higher-order formula for C = 300 s, M = 3,600 s: sqrt(2·300·3600) =
// 1469.694; C/(2M) = 1/24; ×(1 + 0.068041 + 0.004630) = 1576.498; minus 300 = 1276.498 s.
TEST(SourcesCheckpoint, YoungAndDaly) {
  EXPECT_NEAR(young_interval_s(98, 86400), 4115.14, 0.01);
  EXPECT_NEAR(daly_interval_s(300, 3600), 1276.498, 0.001);
  // Daly's second case: a checkpoint costing 2M or more is taken every M.
  EXPECT_DOUBLE_EQ(daly_interval_s(7200, 3600), 3600);
  EXPECT_DOUBLE_EQ(daly_interval_s(9000, 3600), 3600);
  // C ≪ M: Daly approaches Young minus C.
  EXPECT_NEAR(daly_interval_s(1, 1e8) / (young_interval_s(1, 1e8) - 1), 1, 1e-4);
}

// ---- PyTorch GradScaler ------------------------------------------------------------------
// PyTorch test/test_cuda.py, test_grad_scaling_update_scale: growth 2.0, backoff 0.25,
// interval 2, scale 4.0: one clean step leaves 4.0 and tracker 1, a second gives 8.0 and
// tracker 0, an overflow then gives 2.0 and tracker 0.
TEST(SourcesGradScaler, PyTorchsOwnUpdateScaleTest) {
  GradScalerConfig cfg;
  cfg.init_scale = 4;
  cfg.growth_factor = 2;
  cfg.backoff_factor = 0.25;
  cfg.growth_interval = 2;
  auto trace = run_gradscaler(cfg, {{'c', 1}, {'c', 1}, {'o', 1}});
  ASSERT_EQ(trace.size(), 3u);
  EXPECT_EQ(trace[0].scale, 4.0f);
  EXPECT_EQ(trace[0].growth_tracker, 1);
  EXPECT_EQ(trace[1].scale, 8.0f);
  EXPECT_EQ(trace[1].growth_tracker, 0);
  EXPECT_EQ(trace[2].scale, 2.0f);
  EXPECT_EQ(trace[2].growth_tracker, 0);
}

// torch/amp/grad_scaler.py defaults (2^16, 2.0, 0.5, 2000) after "2o,2000c,1o": 65536 /4 =
// 16384, 2000 clean steps double it once, an overflow halves it; and an overflow in the middle
// of an interval resets the tracker, so 1999 clean + 1 overflow + 1999 clean never grows.
TEST(SourcesGradScaler, DefaultsAndTrackerReset) {
  std::vector<GradScalerRun> runs;
  std::string err;
  ASSERT_TRUE(parse_gradscaler_steps("2o,2000c,1o", &runs, &err)) << err;
  auto t = run_gradscaler(GradScalerConfig{}, runs);
  EXPECT_EQ(t.back().scale, 16384.0f);
  EXPECT_EQ(t.back().growth_tracker, 0);
  EXPECT_EQ(t.back().skipped, 3);
  EXPECT_EQ(t[1].scale, 32768.0f);
  auto r = run_gradscaler(GradScalerConfig{}, {{'c', 1999}, {'o', 1}, {'c', 1999}});
  EXPECT_EQ(r.back().scale, 32768.0f);
  EXPECT_EQ(r.back().growth_tracker, 1999);
  // The scale never grows past float32's range: the kernel keeps the old value.
  auto big = run_gradscaler(GradScalerConfig{}, {{'c', 1000000000}});
  EXPECT_EQ(big.back().scale, 1.7014118e38f);  // 2^127
  EXPECT_EQ(big.back().growth_tracker, 1000000000 % 2000);
}

TEST(SourcesGradScaler, StepsTextErrorsNameTheItem) {
  std::vector<GradScalerRun> runs;
  std::string err;
  EXPECT_FALSE(parse_gradscaler_steps("2o,,1o", &runs, &err));
  EXPECT_NE(err.find("item 2"), std::string::npos) << err;
  EXPECT_FALSE(parse_gradscaler_steps("3x", &runs, &err));
  EXPECT_NE(err.find("'x'"), std::string::npos) << err;
  EXPECT_FALSE(parse_gradscaler_steps("2000000000c", &runs, &err));
  EXPECT_NE(err.find("10^9"), std::string::npos) << err;
  ASSERT_TRUE(parse_gradscaler_steps("o, 5c, c", &runs, &err)) << err;
  ASSERT_EQ(runs.size(), 3u);  // one trace line per item, a bare letter is one step
  EXPECT_EQ(runs[0].count, 1);
  EXPECT_EQ(runs[1].count, 5);
  EXPECT_EQ(runs[2].kind, 'c');
}

// ---- scaling -----------------------------------------------------------------------------
// Chinchilla (Hoffmann et al. 2022): 70B parameters on 1.4T tokens, 20 tokens per parameter,
// 6·N·D = 5.88e23 FLOPs.
TEST(SourcesScaling, Chinchilla) {
  EXPECT_DOUBLE_EQ(training_flops(70e9, 1.4e12), 5.88e23);
}

// ---- pipeline: Zero Bubble paper ---------------------------------------------------------
// Qi et al. 2023, table 2: ZB-H2's bubble (p-1)(f+b-2w) and peak memory 2p-1 microbatches
// against ZB-H1's (p-1)(f+b-w) and p. The simulation reproduces both on stage 0 (its own
// span) for m >= 2p-1 and w <= f, b.
TEST(SourcesZeroBubble, Table2BubbleAndMemory) {
  for (int p : {2, 4, 8}) {
    for (int m : {2 * p - 1, 2 * p, 3 * p + 1}) {
      for (auto [f, b, w] : {std::tuple{1.0, 1.0, 1.0}, std::tuple{2.0, 2.0, 1.0}, std::tuple{1.0, 2.0, 1.0}}) {
        PipelineInputs in;
        in.schedule = PipeSchedule::ZbH2;
        in.p = p;
        in.m = m;
        in.f_ms = f;
        in.b_ms = b;
        in.w_ms = w;
        PipelineResult r = simulate_pipeline(in);
        ASSERT_TRUE(r.error.empty()) << r.error;
        EXPECT_NEAR(r.span_idle_ms[0], (p - 1) * (f + b - 2 * w), 1e-9) << "p " << p << " m " << m;
        EXPECT_DOUBLE_EQ(r.peak_activations[0], 2 * p - 1) << "p " << p << " m " << m;
        in.schedule = PipeSchedule::ZbH1;
        PipelineResult h1 = simulate_pipeline(in);
        EXPECT_DOUBLE_EQ(h1.peak_activations[0], p);
        EXPECT_NEAR(h1.idle_ms[0], (p - 1) * (f + b - w), 1e-9);
      }
    }
  }
}

// ---- the formula table -------------------------------------------------------------------
// PaLM appendix B and table 3: PaLM 540B (N = 540.35B, L = 118, H = 48 heads of Q = 256, T = 2,048)
// trains at 238.3K tokens/s on 6,144 TPU v4 chips of 275 TFLOP/s peak: MFU 46.2 %. The 6N
// approximation alone gives 45.7 %, and the attention term is 1.1 % of the FLOPs.
TEST(SourcesPalm, Mfu462PercentFor540B) {
  const double per_token = palm_model_flops_per_token(540.35e9, 118, 48 * 256, 2048);
  const double mfu = per_token * 238.3e3 / (6144 * 275e12);
  EXPECT_NEAR(mfu, 0.462, 0.0005);
  EXPECT_NEAR(6 * 540.35e9 * 238.3e3 / (6144 * 275e12), 0.457, 0.0005);
  // Llama 3 405B at 8K (L = 126, h = 16,384): the attention term adds 8.4 % to 6N
  EXPECT_NEAR(palm_model_flops_per_token(405e9, 126, 16384, 8192) / (6 * 405e9), 1.084, 0.001);
}

TEST(SourcesTable, EveryIdIsUniqueNamedAndSourced) {
  std::set<std::string> ids;
  for (const SourcedFormula& f : sourced_formulas()) {
    EXPECT_TRUE(ids.insert(f.id).second) << f.id;
    EXPECT_GT(std::string(f.formula).size(), 3u) << f.id;
    EXPECT_GT(std::string(f.source).size(), 10u) << f.id;
    EXPECT_EQ(std::string(f.url).rfind("https://", 0), 0u) << f.id;
  }
  for (Collective c : all_collectives()) EXPECT_NE(find_formula(collective_formula_id(c, false)), nullptr);
  EXPECT_NE(find_formula(collective_formula_id(Collective::AllReduce, true)), nullptr);
  EXPECT_NE(formula_with_source("checkpoint.daly").find("Daly 2006"), std::string::npos);
}
