// Tests of engine/sim/plan: the training-plan explorer. Expected figures are worked out by
// hand in the comments (GB = 10^9 bytes) or taken from the ZeRO paper and from the course's
// exercises whose arithmetic exercises/ERRATA.md checked (ids given).
#include <gtest/gtest.h>

#include <string>

#include "sim/plan.h"

using namespace dtx::sim;

namespace {

struct Plan {
  WidgetValues v = WidgetValues::defaults(plan_widget_kind());
  Plan& set(const char* name, double x) {
    EXPECT_NE(plan_widget_kind().input(name), nullptr) << name;
    v.set(name, x);
    EXPECT_EQ(v.get(name), x) << name << " was clamped";
    return *this;
  }
  Plan& choose(const char* name, const char* option) {
    std::string err;
    auto x = parse_widget_value(*plan_widget_kind().input(name), option, &err);
    EXPECT_TRUE(x) << err;
    v.set(name, x.value_or(0));
    return *this;
  }
  PlanResult run() const { return simulate_plan(plan_input_from(v)); }
};

bool has_warning(const PlanResult& r, const std::string& part) {
  for (const auto& w : r.warnings)
    if (w.find(part) != std::string::npos) return true;
  return false;
}

std::string all_warnings(const PlanResult& r) {
  std::string s;
  for (const auto& w : r.warnings) s += "\n  " + w;
  return s;
}

const CommRow& row(const PlanResult& r, const std::string& dim) {
  for (const auto& c : r.comm)
    if (dim == c.dim) return c;
  static CommRow none;
  ADD_FAILURE() << "no row " << dim;
  return none;
}

constexpr double GB = 1e9;

}  // namespace

// ---- ZeRO memory

// Rajbhandari et al. 2019, Figure 1: Ψ = 7.5B, N_d = 64, K = 12.
TEST(SimPlanZero, PaperFigure1) {
  const double expected_gb[4] = {120.0, 31.4, 16.6, 1.9};  // the paper's figures, to 0.1 GB
  for (int stage = 0; stage <= 3; ++stage) {
    PlanResult r = Plan().set("params_b", 7.5).set("nodes", 8).set("dp", 64).set("zero", stage).run();
    ASSERT_TRUE(r.error.empty()) << r.error;
    EXPECT_DOUBLE_EQ(r.gpu_params, 7.5e9);  // one stage, no TP: the GPU holds all of Ψ
    EXPECT_NEAR(r.model_state_bytes() / GB, expected_gb[stage], 0.05) << "ZeRO-" << stage;
  }
}

// Per parameter, N = 16: 16, 4 + 12/16 = 4.75, 2 + 14/16 = 2.875, 16/16 = 1 bytes.
TEST(SimPlanZero, BytesPerParamPerStage) {
  const double expected[4] = {16, 4.75, 2.875, 1};
  for (int stage = 0; stage <= 3; ++stage) {
    PlanResult r = Plan().set("params_b", 1).set("nodes", 2).set("zero", stage).run();
    EXPECT_EQ(r.shard_group, 16);
    EXPECT_DOUBLE_EQ(r.model_state_bytes() / r.gpu_params, expected[stage]) << "ZeRO-" << stage;
  }
  // Which buckets shrink: ZeRO-1 the optimizer, ZeRO-2 also gradients, ZeRO-3 also weights.
  PlanResult z2 = Plan().set("params_b", 1).set("nodes", 2).set("zero", 2).run();
  EXPECT_DOUBLE_EQ(z2.weights_bytes, 2e9);
  EXPECT_DOUBLE_EQ(z2.grads_bytes, 2e9 / 16);
  EXPECT_DOUBLE_EQ(z2.optimizer_bytes, 12e9 / 16);
}

// Seed figures checked in ERRATA.md chapter 1: 7B on 64 GPUs: DDP 112 GB, ZeRO-1 4×7 + 12×7/64
// = 29.3125, ZeRO-2 2×7 + 14×7/64 = 15.53125, ZeRO-3 16×7/64 = 1.75 GB. zero.fit-30b: ZeRO-3 on
// 8 GPUs 16×30/8 = 60 GB; ZeRO-2 on 16 GPUs 60 + 14×30/16 = 86.25 GB of model state.
TEST(SimPlanZero, SeedFigures) {
  const double seven_b[4] = {112, 29.3125, 15.53125, 1.75};
  for (int stage = 0; stage <= 3; ++stage) {
    PlanResult r = Plan().set("params_b", 7).set("nodes", 8).set("zero", stage).run();
    EXPECT_NEAR(r.model_state_bytes() / GB, seven_b[stage], 1e-9) << "ZeRO-" << stage;
  }
  EXPECT_NEAR(Plan().set("params_b", 30).set("zero", 3).run().model_state_bytes() / GB, 60, 1e-9);
  EXPECT_NEAR(Plan().set("params_b", 30).set("nodes", 2).set("zero", 2).run().model_state_bytes() / GB, 86.25, 1e-9);
}

// With CP the GPUs of a CP group hold the same parameters, so ZeRO shards over DP×CP.
TEST(SimPlanZero, ShardsOverDpTimesCp) {
  PlanResult r = Plan().set("params_b", 8).set("dp", 4).set("cp", 2).set("zero", 1).run();
  EXPECT_EQ(r.shard_group, 8);
  EXPECT_DOUBLE_EQ(r.optimizer_bytes, 12 * 8e9 / 8);
  EXPECT_DOUBLE_EQ(r.weights_bytes, 2 * 8e9);
}

// ---- parameters

// Hand counts (attention 2h² + 2h·KV·head_dim, MLP 3h·ffn for SwiGLU or 2h·ffn, vocabulary
// V·h once tied or twice untied, GPT-3 positions 2048·h):
//   7B:   32 × (4·4096² + 3·4096·11008) + 2·32000·4096            =   6,738,149,376
//   13B:  40 × (4·5120² + 3·5120·13824) + 2·32000·5120            =  13,015,449,600
//   70B:  80 × (2·8192² + 2·8192·1024 + 3·8192·28672) + 2·32000·8192 = 68,975,329,280
//   405B: 126 × 3,187,671,040 + 2·128256·16384                     = 405,849,243,648
//   175B: 96 × 12·12288² + 50257·12288 + 2048·12288               = 174,588,899,328
// (Adding the RMSNorm vectors, 65 × 4096 for 7B, gives the released 7B's 6,738,415,616.)
TEST(SimPlanModels, ComputedCountsNearNominal) {
  struct Case {
    const char* id;
    double params;
  } cases[] = {{"7b", 6738149376.0},
               {"13b", 13015449600.0},
               {"70b", 68975329280.0},
               {"405b", 405849243648.0},
               {"175b", 174588899328.0}};
  ASSERT_EQ(model_presets().size(), 5u);
  for (const auto& c : cases) {
    const ModelSpec* m = find_model(c.id);
    ASSERT_NE(m, nullptr) << c.id;
    EXPECT_DOUBLE_EQ(model_params(*m), c.params) << c.id;
    EXPECT_NEAR(model_params(*m) / (m->nominal_params_b * 1e9), 1.0, 0.04) << c.id;
  }
  // cap.weights: 3.188 B per 405B layer with GQA (l3.tp-cross-node: 3,187,671,040).
  EXPECT_DOUBLE_EQ(layer_params(*find_model("405b")), 3187671040.0);
  EXPECT_EQ(find_model("nope"), nullptr);
}

// ---- activations (Korthikanti et al. 2022), checked against tp.sp-activation:
// s = 4096, b = 1, h = 8192, a = 64, t = 8; s·b·h = 33,554,432; 5as/h = 160.
TEST(SimPlanActivations, FormulasForOneLayer) {
  const double sbh = 4096.0 * 8192;
  // no parallelism: sbh(34 + 160) = 6,509,559,808 (6.51 GB)
  EXPECT_DOUBLE_EQ(activation_bytes_per_layer(4096, 1, 8192, 64, 1, false, Recompute::None, false), 6509559808.0);
  // TP alone: sbh(10 + 24/8 + 160/8) = 33 sbh = 1,107,296,256 (1.107 GB)
  EXPECT_DOUBLE_EQ(activation_bytes_per_layer(4096, 1, 8192, 64, 8, false, Recompute::None, false), 1107296256.0);
  // TP + SP: 194/8 sbh = 813,694,976 (0.8137 GB)
  EXPECT_DOUBLE_EQ(activation_bytes_per_layer(4096, 1, 8192, 64, 8, true, Recompute::None, false), 813694976.0);
  // selective with SP: 34/8 sbh = 142,606,336 (0.1426 GB); without SP: (10 + 3) sbh
  EXPECT_DOUBLE_EQ(activation_bytes_per_layer(4096, 1, 8192, 64, 8, true, Recompute::Selective, false), 142606336.0);
  EXPECT_DOUBLE_EQ(activation_bytes_per_layer(4096, 1, 8192, 64, 8, false, Recompute::Selective, false), 13 * sbh);
  // flash attention never stores the scores: the same as selective
  EXPECT_DOUBLE_EQ(activation_bytes_per_layer(4096, 1, 8192, 64, 8, true, Recompute::None, true), 142606336.0);
  // full: the layer input only, 2·sbh = 67,108,864; with SP split over t: 8,388,608
  EXPECT_DOUBLE_EQ(activation_bytes_per_layer(4096, 1, 8192, 64, 8, false, Recompute::Full, false), 67108864.0);
  EXPECT_DOUBLE_EQ(activation_bytes_per_layer(4096, 1, 8192, 64, 8, true, Recompute::Full, false), 8388608.0);
  // microbatch b = 2 doubles everything
  EXPECT_DOUBLE_EQ(activation_bytes_per_layer(4096, 2, 8192, 64, 8, false, Recompute::None, false), 2 * 1107296256.0);
}

// 70B (h = 8192, 64 heads, 80 layers) at s = 4096, TP 8, PP 4, 8 microbatches: stage 0 keeps
// min(4, 8) = 4 microbatches of its 20 layers: 80 × 1,107,296,256 = 88.58 GB.
TEST(SimPlanActivations, StageZeroHoldsPpMicrobatches) {
  PlanResult r = Plan().choose("model", "70b").set("nodes", 4).set("tp", 8).set("pp", 4).set("microbatches", 8).run();
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(r.layers_per_stage, 20);
  EXPECT_EQ(r.in_flight, 4);
  EXPECT_DOUBLE_EQ(r.activation_layer_bytes, 1107296256.0);
  EXPECT_DOUBLE_EQ(r.activations_bytes, 80 * 1107296256.0);
  // Two microbatches only: two in flight.
  EXPECT_EQ(Plan().choose("model", "70b").set("nodes", 4).set("tp", 8).set("pp", 4).set("microbatches", 2).run().in_flight, 2);
  // CP divides the sequence: 8,192 tokens over CP 2 is the 4,096-token layer above.
  PlanResult cp = Plan().choose("model", "70b").set("seq", 8192).set("nodes", 8).set("tp", 8).set("pp", 4).set("cp", 2).set("microbatches", 8).run();
  EXPECT_EQ(cp.seq_per_gpu, 4096);
  EXPECT_DOUBLE_EQ(cp.activation_layer_bytes, 1107296256.0);
}

// ---- the 405B capstone (chapter 9): 16,384 H100, TP 8, PP 16, so DP 128.
// The explorer's default view, the average GPU: all 405,849,243,648 parameters spread evenly
// over TP·PP = 128, as cap.widget-memory counts (with 405 × 10^9: 2 × 405/128 = 6.328 GB of
// weights, 12 × 405/128/128 = 0.2966 GB of ZeRO-1 optimizer state).
//   weights 2 × 405,849,243,648 / 128 = 6,341,394,432 bytes (0.21 % above 6.328 GB)
//   optimizer 12 × 405,849,243,648 / 16,384 = 297,252,864 bytes
//   activations: 126/16 = 7.875 layers × 16 microbatches in flight × one layer's bytes
TEST(SimPlanCapstone, AverageGpuAsTheExerciseCounts) {
  PlanResult r = Plan().choose("model", "405b").set("nodes", 2048).set("tp", 8).set("pp", 16).set("zero", 1).set("microbatches", 16).run();
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_DOUBLE_EQ(r.weights_bytes, 6341394432.0);
  EXPECT_DOUBLE_EQ(r.grads_bytes, 6341394432.0);
  EXPECT_DOUBLE_EQ(r.optimizer_bytes, 297252864.0);
  EXPECT_NEAR(r.weights_bytes / (2 * 405e9 / 128), 1.0, 0.01);
  EXPECT_NEAR(r.optimizer_bytes / (12 * 405e9 / 128 / 128), 1.0, 0.01);
  EXPECT_DOUBLE_EQ(r.memory_layers, 7.875);
  EXPECT_DOUBLE_EQ(r.activations_bytes, 7.875 * 16 * r.activation_layer_bytes);
}

// A GPU of the first, fullest stage (stage = first): cap.weights and cap.memory count its 8
// layers; it also holds the input embedding.
TEST(SimPlanCapstone, FirstStageMemoryAndDpAllReduce) {
  Plan p;
  p.choose("model", "405b").choose("stage", "first").set("nodes", 2048).set("tp", 8).set("pp", 16).set("microbatches", 16);
  PlanResult r = p.run();
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(r.plan_gpus, 16384);
  EXPECT_EQ(r.shard_group, 128);  // DP derived from the GPU count
  EXPECT_EQ(r.layers_per_stage, 8);
  EXPECT_EQ(r.memory_layers, 8);
  // cap.weights part 3: 8 × 3,187,671,040 / 8 params = 6.375 GB of BF16 layer weights.
  EXPECT_NEAR(2 * r.gpu_layer_params / GB, 6.37534, 1e-5);
  // Stage 0 also holds its TP share of the input embedding: 128,256 × 16,384 / 8 =
  // 262,668,288 params (cap.weights' explanation, 0.263 B). Total 3,450,339,328 per GPU.
  EXPECT_DOUBLE_EQ(r.gpu_embedding_params, 262668288.0);
  EXPECT_DOUBLE_EQ(r.gpu_params, 3450339328.0);
  // cap.memory: no sharding 16 × 3.188 B = 51.00 GB for the layers; with the embedding
  // 16 × 3,450,339,328 = 55.205 GB.
  EXPECT_NEAR(r.model_state_bytes() / GB, 55.20543, 1e-4);
  p.set("zero", 1);
  PlanResult z1 = p.run();
  // cap.memory ZeRO-1: (2 + 2 + 12/128) × 3.188 B = 13.05 GB for the layers; with the embedding
  // 4.09375 × 3,450,339,328 = 14.1248 GB.
  EXPECT_NEAR(z1.model_state_bytes() / GB, 14.12483, 1e-4);
  EXPECT_NEAR((2 + 2 + 12.0 / 128) * z1.gpu_layer_params / GB, 13.0495, 1e-4);
  // cap.dp-allreduce: 2 × 6.375 × 127/128 = 12.651 GB for the layers' gradients, 253 ms at
  // 50 GB/s. With the embedding's 0.5253 GB of gradients: 2 × 127/128 × 6,900,678,656 =
  // 13,693,534,208 bytes, 273.9 ms, over InfiniBand (a DP group spans nodes).
  const CommRow& dp = row(z1, "DP");
  EXPECT_EQ(dp.group, 128);
  EXPECT_EQ(dp.link, Link::InfiniBand);
  EXPECT_DOUBLE_EQ(dp.link_gbs, 50);
  EXPECT_NEAR(dp.bytes, 13693534208.0, 1);
  EXPECT_NEAR(dp.time_s, 0.27387068, 1e-7);
  EXPECT_NEAR(dp.bytes - 2 * 127.0 / 128 * 2 * 262668288.0, 12.6511e9, 1e5);
  // TP 8 fits the node: NVLink; PP crosses nodes (stages 8 GPUs apart).
  EXPECT_EQ(row(z1, "TP").link, Link::NVLink);
  EXPECT_DOUBLE_EQ(row(z1, "TP").link_gbs, 450);
  EXPECT_EQ(row(z1, "PP").link, Link::InfiniBand);
  // 126 layers over 16 stages: the uneven split is reported.
  EXPECT_TRUE(has_warning(z1, "126 layers do not divide by PP=16: stages hold 7 or 8 layers")) << all_warnings(z1);
}

// tp.405b-step: 4M tokens over DP 128 = 31,250 tokens per replica (one 31,250-token
// microbatch here), tensor 31,250 × 16,384 × 2 = 1.024 GB, 8 layers × 4 AllReduces × 2 × 7/8 ×
// 1.024 GB = 57.344 GB, 0.12743 s at 450 GB/s.
TEST(SimPlanComm, TensorParallel405bStep) {
  PlanResult r = Plan().choose("model", "405b").set("seq", 31250).set("nodes", 2048).set("tp", 8).set("pp", 16).run();
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_NEAR(row(r, "TP").bytes, 57.344e9, 1);
  EXPECT_NEAR(row(r, "TP").time_s, 0.1274311, 1e-6);
}

// tp.step-traffic: 80 layers, TP 8, h 8192, s 4096, b 1, one microbatch: 320 AllReduces of
// 2 × 7/8 × 67,108,864 = 117,440,512 bytes: 37,580,963,840 bytes (37.58 GB). Full
// recomputation repeats the forward's 160: 56,371,445,760. SP: the same bytes.
TEST(SimPlanComm, TensorParallelPerStep) {
  Plan p;
  p.choose("model", "70b").set("tp", 8);
  EXPECT_DOUBLE_EQ(row(p.run(), "TP").bytes, 37580963840.0);
  EXPECT_EQ(row(p.run(), "TP").link, Link::NVLink);
  p.choose("recompute", "full");
  EXPECT_DOUBLE_EQ(row(p.run(), "TP").bytes, 56371445760.0);
  p.choose("recompute", "none").set("sp", 1);
  EXPECT_DOUBLE_EQ(row(p.run(), "TP").bytes, 37580963840.0);
  // Four microbatches: four times the bytes.
  p.set("microbatches", 4);
  EXPECT_DOUBLE_EQ(row(p.run(), "TP").bytes, 4 * 37580963840.0);
}

// PP: 7B, s 4096, b 1: one boundary tensor is 4096 × 4096 × 2 = 33,554,432 bytes. With PP 4
// and 8 microbatches a middle stage sends 8 forward + 8 backward: 536,870,912 bytes; with
// PP 2 only one boundary: 268,435,456. SP with TP 2 halves the tensor.
TEST(SimPlanComm, PipelinePerStep) {
  Plan p;
  p.set("pp", 4).set("dp", 2).set("microbatches", 8);
  PlanResult r = p.run();
  EXPECT_DOUBLE_EQ(row(r, "PP").bytes, 536870912.0);
  EXPECT_EQ(row(r, "PP").link, Link::NVLink);  // 4 consecutive GPUs of one node
  EXPECT_DOUBLE_EQ(row(p.set("pp", 2).set("dp", 4).run(), "PP").bytes, 268435456.0);
  EXPECT_DOUBLE_EQ(row(p.set("tp", 2).set("dp", 2).set("sp", 1).run(), "PP").bytes, 134217728.0);
}

// CP: 70B (8 KV heads of 128), 131,072 tokens over CP 16 = 8,192 per GPU, TP 8 leaves 1 KV
// head per GPU. A K+V block is 2 × 8192 × 1 × 128 × 2 = 4,194,304 bytes, passed 15 times
// forward and 30 backward per layer per microbatch: 80 layers × 45 × 4,194,304 =
// 15,099,494,400 bytes, over InfiniBand (TP × CP = 128 GPUs).
TEST(SimPlanComm, ContextParallelKvRing) {
  PlanResult r = Plan().choose("model", "70b").set("seq", 131072).set("nodes", 16).set("tp", 8).set("cp", 16).set("flash", 1).run();
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_DOUBLE_EQ(row(r, "CP").bytes, 15099494400.0);
  EXPECT_EQ(row(r, "CP").link, Link::InfiniBand);
  EXPECT_DOUBLE_EQ(row(r, "CP").link_gbs, 50);
}

// DP: ring AllReduce of the BF16 gradients, 2(d-1)/d × 2P; ZeRO-3 1.5× that. 7B (6,738,149,376
// params) on 8 GPUs: 2 × 7/8 × 13,476,298,752 = 23,583,522,816 bytes over NVLink.
TEST(SimPlanComm, DataParallelVolumeAndLink) {
  Plan p;
  PlanResult r = p.run();
  EXPECT_DOUBLE_EQ(row(r, "DP").bytes, 23583522816.0);
  EXPECT_EQ(row(r, "DP").link, Link::NVLink);
  EXPECT_DOUBLE_EQ(row(r, "DP").time_s, 23583522816.0 / 450e9);
  EXPECT_DOUBLE_EQ(row(p.set("zero", 1).run(), "DP").bytes, 23583522816.0);
  EXPECT_DOUBLE_EQ(row(p.set("zero", 3).run(), "DP").bytes, 1.5 * 23583522816.0);
  // Two nodes: the DP group leaves the node.
  EXPECT_EQ(row(p.set("nodes", 2).run(), "DP").link, Link::InfiniBand);
  // Degree 1: nothing to send.
  PlanResult one = Plan().set("dp", 1).run();
  EXPECT_EQ(row(one, "DP").bytes, 0);
  EXPECT_EQ(row(one, "DP").link, Link::None);
}

TEST(SimPlanComm, TensorParallelLinkByPlacement) {
  EXPECT_EQ(row(Plan().set("tp", 8).run(), "TP").link, Link::NVLink);
  EXPECT_EQ(row(Plan().set("nodes", 2).set("tp", 16).run(), "TP").link, Link::InfiniBand);
  // TP 4 on 6-GPU nodes: groups straddle nodes.
  EXPECT_EQ(row(Plan().set("gpus_per_node", 6).set("nodes", 2).set("tp", 4).run(), "TP").link, Link::InfiniBand);
  // A100 NVLink: 600 GB/s bidirectional, 300 per direction.
  EXPECT_DOUBLE_EQ(row(Plan().choose("gpu", "a100").set("tp", 8).run(), "TP").link_gbs, 300);
}

// ---- time and MFU

// 7B (N = 6,738,149,376) on 2 nodes of H100 (16 GPUs): TP 2, PP 2, DP 4, 6 microbatches of one
// 4,096-token sequence, flash attention, efficiency 0.5.
//   tokens 6 × 4 × 4096 = 98,304; model FLOPs 6N × 98,304 = 3.974322e15
//   compute per GPU: 3.974322e15 / 16 / (989e12 × 0.5) = 0.5023158 s (16 layers per stage, even)
//   bubble 1/(6 + 1) → compute stretched to 0.5023158 × 7/6 = 0.5860350 s
//   TP: 16 layers × 6 × 4 × 2 × 1/2 × 33,554,432 = 12,884,901,888 B at 450 GB/s = 28.63312 ms
//   PP: 6 × 33,554,432 = 201,326,592 B at 450 GB/s = 0.4473924 ms (4 GPUs in one node)
//   DP: 6,738,149,376 / (TP 2 × PP 2) = 1,684,537,344 params per GPU; 2 × 3/4 × 2 ×
//       that = 5,053,612,032 B over InfiniBand (DP group spans both nodes) at 50 GB/s =
//       101.0722 ms; the last microbatch's backward (0.5023158 / 6 × 2/3 = 55.81286 ms) hides
//       part: 45.25938 ms exposed
//   step 0.5860350 + 0.02863312 + 0.0004473924 + 0.04525938 = 0.6603749 s
//   MFU 3.974322e15 / (0.6603749 × 16 × 989e12) = 38.03 %
TEST(SimPlanTime, MfuByHand) {
  PlanResult r = Plan().set("nodes", 2).set("tp", 2).set("pp", 2).set("dp", 4).set("microbatches", 6).set("flash", 1).set("eff", 0.5).run();
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_DOUBLE_EQ(r.tokens_per_step, 98304);
  // PaLM appendix B: 6N (6 × 6,738,149,376) plus 12·L·h·s = 12 × 32 × 4096 × 4096 per token
  EXPECT_NEAR(r.model_flops_6n, 3.974322217549824e15, 1e3);
  EXPECT_NEAR(r.model_flops, 3.974322217549824e15 + 12.0 * 32 * 4096 * 4096 * 98304, 1e3);
  EXPECT_NEAR(r.compute_s, 0.5823611, 1e-6);
  EXPECT_NEAR(r.bubble, 1.0 / 7, 1e-12);
  EXPECT_DOUBLE_EQ(row(r, "TP").bytes, 12884901888.0);
  EXPECT_DOUBLE_EQ(row(r, "PP").bytes, 201326592.0);
  EXPECT_DOUBLE_EQ(row(r, "DP").bytes, 5053612032.0);
  EXPECT_EQ(row(r, "DP").link, Link::InfiniBand);
  EXPECT_NEAR(row(r, "DP").exposed_s, 0.03636545, 1e-7);
  EXPECT_NEAR(r.step_s, 0.7448672, 1e-6);
  EXPECT_NEAR(r.mfu, 0.3909160, 1e-6);
  EXPECT_NEAR(r.mfu_6n, 0.3371848, 1e-6);
  EXPECT_NEAR(r.hfu, r.mfu, 1e-12);  // no recomputation
}

// With no communication and no bubble the MFU is the efficiency; full recomputation spends
// 8N + 16·L·h·s FLOPs per token for 6N + 12·L·h·s of model FLOPs, so 3/4 of it.
TEST(SimPlanTime, MfuLimits) {
  PlanResult r = Plan().set("dp", 1).set("eff", 0.5).run();
  EXPECT_NEAR(r.mfu, 0.5, 1e-12);
  EXPECT_NEAR(r.step_s, r.compute_s, 1e-12);
  PlanResult full = Plan().set("dp", 1).set("eff", 0.5).choose("recompute", "full").run();
  EXPECT_NEAR(full.mfu, 0.375, 1e-12);
  EXPECT_NEAR(full.hardware_flops / full.model_flops, 8.0 / 6, 1e-12);
  // A DP AllReduce shorter than the last backward is hidden entirely.
  PlanResult dp = Plan().set("microbatches", 1).run();
  EXPECT_GT(row(dp, "DP").time_s, 0);
  EXPECT_EQ(row(dp, "DP").exposed_s, 0);
  EXPECT_NEAR(dp.mfu, 0.6, 1e-12);
}

// ---- warnings: each appears exactly when its condition holds

// 7B on 8 H100, DP 8, ZeRO-3, flash attention: 16 × 6.74 / 8 = 13.5 GB of state and 32 ×
// 34 × 4096 × 4096 = 18.3 GB of activations; nothing to warn about.
Plan quiet() { return Plan().set("zero", 3).set("flash", 1); }

TEST(SimPlanWarnings, QuietPlanHasNone) {
  PlanResult r = quiet().run();
  EXPECT_TRUE(r.fits);
  EXPECT_TRUE(r.warnings.empty()) << all_warnings(r);
}

TEST(SimPlanWarnings, TensorParallelAcrossNodes) {
  PlanResult r = quiet().set("nodes", 2).set("tp", 16).run();
  EXPECT_TRUE(has_warning(r, "TP=16 spans 2 nodes: its AllReduces leave NVLink")) << all_warnings(r);
  EXPECT_FALSE(has_warning(quiet().set("tp", 8).run(), "spans"));
  PlanResult straddle = quiet().set("gpus_per_node", 6).set("tp", 4).set("dp", 0).run();
  EXPECT_TRUE(has_warning(straddle, "TP=4 does not divide the 6 GPUs of a node")) << all_warnings(straddle);
}

TEST(SimPlanWarnings, DegreesAndGpuCount) {
  PlanResult r = quiet().set("dp", 4).run();
  EXPECT_TRUE(has_warning(r, "TP×PP×DP×CP = 1×1×4×1 = 4 GPUs, but the cluster has 1 × 8 = 8")) << all_warnings(r);
  EXPECT_EQ(quiet().set("dp", 8).run().warnings.size(), 0u);
  // DP left to fill the cluster: 16 GPUs over TP 3 gives DP 5 and one idle GPU.
  PlanResult rest = quiet().set("nodes", 2).set("tp", 3).run();
  EXPECT_TRUE(has_warning(rest, "The 16 GPUs do not divide by TP×PP×CP = 3: DP = 5 uses 15 and leaves 1 idle."))
      << all_warnings(rest);
  EXPECT_FALSE(has_warning(rest, "but the cluster has"));
  // More GPUs asked for than the cluster has.
  PlanResult short_of = quiet().set("tp", 4).set("pp", 4).run();
  EXPECT_TRUE(has_warning(short_of, "TP×PP×DP×CP = 4×4×1×1 = 16 GPUs, but the cluster has 1 × 8 = 8")) << all_warnings(short_of);
}

TEST(SimPlanWarnings, HeadsNotDivisibleByTp) {
  // 6-GPU nodes so TP 3 stays inside a node; 32 heads (and 32 KV heads) over 3.
  PlanResult r = quiet().set("gpus_per_node", 6).set("tp", 3).run();
  EXPECT_TRUE(has_warning(r, "TP=3 does not divide the 32 attention heads")) << all_warnings(r);
  EXPECT_TRUE(has_warning(r, "TP=3 does not divide the 32 KV heads evenly")) << all_warnings(r);
  // 70B's 8 KV heads over TP 16: replicated twice; over TP 8: no warning.
  PlanResult kv = Plan().choose("model", "70b").set("nodes", 2).set("tp", 16).run();
  EXPECT_TRUE(has_warning(kv, "is more than the 8 KV heads: each KV head is replicated on 2 GPUs")) << all_warnings(kv);
  EXPECT_FALSE(has_warning(Plan().choose("model", "70b").set("tp", 8).run(), "KV heads"));
}

TEST(SimPlanWarnings, LayersNotDivisibleByPp) {
  PlanResult r = quiet().set("pp", 3).set("microbatches", 64).run();
  EXPECT_TRUE(has_warning(r, "32 layers do not divide by PP=3: stages hold 10 or 11 layers")) << all_warnings(r);
  EXPECT_FALSE(has_warning(quiet().set("pp", 4).set("microbatches", 64).run(), "layers do not divide"));
}

// (PP-1)/(m+PP-1) with PP 4: m = 12 gives exactly 20 % (no warning), m = 11 gives 21.4 %.
TEST(SimPlanWarnings, BubbleAboveTwentyPercent) {
  PlanResult at = quiet().set("pp", 4).set("dp", 2).set("microbatches", 12).run();
  EXPECT_DOUBLE_EQ(at.bubble, 0.2);
  EXPECT_FALSE(has_warning(at, "bubble")) << all_warnings(at);
  PlanResult over = quiet().set("pp", 4).set("dp", 2).set("microbatches", 11).run();
  EXPECT_TRUE(has_warning(over, "Pipeline bubble 21.4% (PP=4, 11 microbatches)")) << all_warnings(over);
}

// DDP 7B: 16 × 6.738 = 107.8 GB of state + flash activations 18.27 GB = 126.1 GB, 46.1 over.
TEST(SimPlanWarnings, MemoryOverCapacity) {
  PlanResult r = quiet().set("zero", 0).run();
  EXPECT_FALSE(r.fits);
  EXPECT_NEAR(r.total_bytes / GB, 16 * 6.738149376 + 32 * 34 * 4096.0 * 4096 / GB, 1e-9);
  EXPECT_TRUE(has_warning(r, "Memory per GPU is 126.1 GB, 46.06 GB over the 80 GB of an H100 SXM 80GB")) << all_warnings(r);
  // The same plan on B200 (192 GB) fits.
  PlanResult b200 = quiet().set("zero", 0).choose("gpu", "b200").run();
  EXPECT_TRUE(b200.fits);
  EXPECT_FALSE(has_warning(b200, "Memory per GPU"));
}

TEST(SimPlanWarnings, ContextParallelShortSequence) {
  PlanResult r = quiet().set("cp", 2).run();
  EXPECT_TRUE(has_warning(r, "CP=2 at 4096 tokens")) << all_warnings(r);
  EXPECT_FALSE(has_warning(quiet().set("cp", 2).set("seq", 32768).run(), "CP=2 at"));
}

TEST(SimPlanWarnings, ZeroWithoutDataParallelAndSpWithoutTp) {
  EXPECT_TRUE(has_warning(quiet().set("dp", 1).set("nodes", 1).set("gpus_per_node", 1).run(), "ZeRO-3 with DP=1 shards nothing"));
  EXPECT_TRUE(has_warning(quiet().set("sp", 1).run(), "with TP=1 it changes nothing"));
  EXPECT_FALSE(has_warning(quiet().set("sp", 1).set("tp", 2).run(), "with TP=1"));
}

// ---- memory conventions (engine/sim/sources.h through the plan)

// The default convention is the ZeRO paper's, and choosing it by name changes nothing: the
// 405B capstone's ZeRO-1 figures (worked out in tests/cli/test_sim_plan.sh) stay as they were.
TEST(SimPlanConvention, DefaultIsTheZeroPaperAndKeepsItsFigures) {
  PlanInput in = plan_input_from(WidgetValues::defaults(plan_widget_kind()));
  EXPECT_EQ(in.convention, MemorySource::ZeroPaper);
  EXPECT_EQ(in.offload, Offload::None);
  Plan capstone = Plan().choose("model", "405b").set("nodes", 2048).set("tp", 8).set("pp", 16).set("zero", 1)
                      .set("microbatches", 16);
  PlanResult d = capstone.run();
  PlanResult named = capstone.choose("convention", "zero-paper").run();
  // 3,170,697,216 params per GPU: weights 2×, gradients 2×, optimizer 12/128× that.
  EXPECT_DOUBLE_EQ(d.weights_bytes, 6341394432.0);
  EXPECT_DOUBLE_EQ(d.grads_bytes, 6341394432.0);
  EXPECT_DOUBLE_EQ(d.optimizer_bytes, 12 * 3170697216.0 / 128);
  EXPECT_NEAR(d.model_state_bytes(), 12980041728.0, 1e-3);
  EXPECT_DOUBLE_EQ(named.model_state_bytes(), d.model_state_bytes());
  EXPECT_DOUBLE_EQ(named.total_bytes, d.total_bytes);
  EXPECT_TRUE(d.memory_split);
  EXPECT_FALSE(d.cpu_modelled);
  EXPECT_EQ(d.cpu_bytes_per_node, 0);
  EXPECT_STREQ(d.memory_formula_id, "memory.zero-paper");
  EXPECT_EQ(d.warnings, named.warnings);
}

// One code path with `dtx sim memory`: with TP = PP = CP = 1 a GPU holds the whole model, so
// the plan's model-state bytes (and DeepSpeed's host bytes) are estimate_memory()'s for the
// same P, stage, GPUs and offload. The largest layer is worked out here from the 7B
// architecture (its vocabulary embedding, 32,000 × 4,096, rescaled with the model to 7.5B).
TEST(SimPlanConvention, SameFiguresAsSimMemory) {
  const double P = 7.5e9;
  const ModelSpec& m7 = *find_model("7b");
  const double L = 32000.0 * 4096 * (P / model_params(m7));
  struct Case {
    const char* name;
    MemorySource source;
    int zero;
    const char* offload;
  };
  const Case cases[] = {
      {"zero-paper", MemorySource::ZeroPaper, 0, "none"},      {"zero-paper", MemorySource::ZeroPaper, 1, "none"},
      {"zero-paper", MemorySource::ZeroPaper, 2, "none"},      {"zero-paper", MemorySource::ZeroPaper, 3, "none"},
      {"megatron", MemorySource::Megatron, 0, "none"},          {"megatron", MemorySource::Megatron, 1, "none"},
      {"deepspeed", MemorySource::DeepSpeed, 1, "none"},        {"deepspeed", MemorySource::DeepSpeed, 2, "none"},
      {"deepspeed", MemorySource::DeepSpeed, 2, "optimizer"},   {"deepspeed", MemorySource::DeepSpeed, 3, "none"},
      {"deepspeed", MemorySource::DeepSpeed, 3, "optimizer"},   {"deepspeed", MemorySource::DeepSpeed, 3, "params"},
      {"deepspeed-2023", MemorySource::DeepSpeed2023, 1, "none"}, {"deepspeed-2023", MemorySource::DeepSpeed2023, 2, "optimizer"},
      {"deepspeed-2023", MemorySource::DeepSpeed2023, 3, "none"},
  };
  for (const Case& c : cases) {
    PlanResult r = Plan().set("params_b", 7.5).set("nodes", 2).set("zero", c.zero).choose("convention", c.name)
                       .choose("offload", c.offload).run();
    ASSERT_TRUE(r.error.empty()) << r.error;
    MemoryQuery q;
    q.source = c.source;
    q.params = P;
    q.zero = c.zero;
    q.gpus_per_node = 8;
    q.nodes = 2;
    q.largest_layer = L;
    q.offload = std::string(c.offload) == "optimizer" ? Offload::Optimizer
                : std::string(c.offload) == "params"  ? Offload::Params
                                                      : Offload::None;
    const MemoryEstimate e = estimate_memory(q);
    ASSERT_TRUE(e.error.empty()) << c.name << " ZeRO-" << c.zero << ": " << e.error;
    // DeepSpeed truncates to whole bytes (Python's int()): a last-bit difference in P can move
    // a figure by one byte.
    EXPECT_NEAR(r.model_state_bytes(), e.gpu_bytes, 2) << c.name << " ZeRO-" << c.zero << " offload " << c.offload;
    EXPECT_NEAR(r.cpu_bytes_per_node, e.cpu_bytes, 2) << c.name << " ZeRO-" << c.zero << " offload " << c.offload;
    EXPECT_EQ(r.cpu_modelled, e.cpu_modelled) << c.name;
    EXPECT_STREQ(r.memory_formula_id, e.formula_id) << c.name;
    EXPECT_NEAR(r.total_bytes, r.model_state_bytes() + r.activations_bytes, 1e-3);
  }
}

// The same figures by hand, 7.5B parameters on 2 nodes of 8 (N = 16):
// DeepSpeed ZeRO-2: 2P + 18P/16 = 15 + 8.4375 = 23.4375 GB per GPU; host P·4·8·1.5 = 360 GB.
// DeepSpeed before June 2024: 4P + 16P/16 = 37.5 GB. Megatron, distributed optimizer:
// (6 + 12/16)·P = 50.625 GB, of which weights 2P = 15, FP32 main gradients 4P = 30 (not
// sharded) and optimizer 12P/16 = 5.625.
TEST(SimPlanConvention, HandFigures) {
  Plan base = Plan().set("params_b", 7.5).set("nodes", 2);
  PlanResult ds = Plan(base).set("zero", 2).choose("convention", "deepspeed").run();
  EXPECT_NEAR(ds.model_state_bytes() / GB, 23.4375, 1e-9);
  EXPECT_FALSE(ds.memory_split);
  EXPECT_TRUE(ds.cpu_modelled);
  EXPECT_NEAR(ds.cpu_bytes_per_node / GB, 360, 1e-9);
  EXPECT_NEAR(Plan(base).set("zero", 1).choose("convention", "deepspeed-2023").run().model_state_bytes() / GB, 37.5, 1e-9);
  PlanResult mg = Plan(base).set("zero", 1).choose("convention", "megatron").run();
  EXPECT_TRUE(mg.memory_split);
  EXPECT_NEAR(mg.weights_bytes / GB, 15, 1e-9);
  EXPECT_NEAR(mg.grads_bytes / GB, 30, 1e-9);
  EXPECT_NEAR(mg.optimizer_bytes / GB, 5.625, 1e-9);
  EXPECT_NEAR(mg.model_state_bytes() / GB, 50.625, 1e-9);
  EXPECT_FALSE(mg.cpu_modelled);
}

// With model parallelism the estimators see the GPU's own slice. Llama 3 405B, TP 8, PP 16,
// DP 128, ZeRO-3 with parameter offload: the largest module is the 128,256 × 16,384
// embedding split by TP 8, 262,668,288 parameters, gathered as 4 bytes each (1,050,673,152
// bytes, all that stays on the GPU). Host per node: the 3,170,697,216 params of a GPU × 18 ÷
// (128 / 8 = 16 nodes of one shard group) × 1.5 = 5,350,551,552 bytes.
TEST(SimPlanConvention, ModelParallelSliceAndHostPerNode) {
  PlanResult r = Plan().choose("model", "405b").set("nodes", 2048).set("tp", 8).set("pp", 16).set("zero", 3)
                     .choose("convention", "deepspeed").choose("offload", "params").run();
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_DOUBLE_EQ(r.largest_layer_params, 262668288.0);
  EXPECT_DOUBLE_EQ(r.model_state_bytes(), 1050673152.0);
  EXPECT_DOUBLE_EQ(r.largest_layer_bytes, 1050673152.0);
  EXPECT_TRUE(r.cpu_modelled);
  EXPECT_DOUBLE_EQ(r.cpu_bytes_per_node, 5350551552.0);
  EXPECT_EQ(r.offload, Offload::Params);
}

// What a source has no formula for is mapped to what it has, and the plan says so.
TEST(SimPlanConvention, WarningsWhereASourceHasNoFormula) {
  Plan base = Plan().set("params_b", 1).set("nodes", 2);  // N = 16
  // ZeRO paper and Megatron have no host memory: offload ignored.
  PlanResult zp = Plan(base).set("zero", 2).choose("offload", "optimizer").run();
  EXPECT_TRUE(has_warning(zp, "Offload optimizer is ignored")) << all_warnings(zp);
  EXPECT_EQ(zp.offload, Offload::None);
  EXPECT_DOUBLE_EQ(zp.model_state_bytes(), Plan(base).set("zero", 2).run().model_state_bytes());
  // Parameter offload needs ZeRO-3: ZeRO-2 offloads the optimizer only, 2 bytes per parameter.
  PlanResult p2 = Plan(base).set("zero", 2).choose("convention", "deepspeed").choose("offload", "params").run();
  EXPECT_TRUE(has_warning(p2, "Parameter offload needs ZeRO-3")) << all_warnings(p2);
  EXPECT_EQ(p2.offload, Offload::Optimizer);
  EXPECT_DOUBLE_EQ(p2.model_state_bytes(), 2e9);
  // DeepSpeed has no stage-0 estimator: 2 + 18 bytes per parameter, nothing sharded, no host.
  for (const char* ds : {"deepspeed", "deepspeed-2023"}) {
    PlanResult z0 = Plan(base).set("zero", 0).choose("convention", ds).run();
    EXPECT_TRUE(has_warning(z0, "DeepSpeed has no estimator for ZeRO stage 0")) << all_warnings(z0);
    EXPECT_DOUBLE_EQ(z0.model_state_bytes(), 20e9) << ds;
    EXPECT_FALSE(z0.cpu_modelled);
  }
  // Megatron knows the distributed optimizer only: ZeRO-3 counts as ZeRO-1, 6 + 12/16 bytes.
  PlanResult mg = Plan(base).set("zero", 3).choose("convention", "megatron").run();
  EXPECT_TRUE(has_warning(mg, "the memory figures use ZeRO-1, not ZeRO-3")) << all_warnings(mg);
  EXPECT_EQ(mg.memory_zero, 1);
  EXPECT_DOUBLE_EQ(mg.model_state_bytes(), 6.75e9);
  // A shard group of 4 (TP 2 on one node of 8) does not fill nodes: DeepSpeed's GPU figure
  // for the 0.5B slice (2 + 18/4 = 6.5 bytes per parameter), no host figure.
  PlanResult part = Plan().set("params_b", 1).set("tp", 2).set("zero", 2).choose("convention", "deepspeed").run();
  EXPECT_EQ(part.shard_group, 4);
  EXPECT_DOUBLE_EQ(part.model_state_bytes(), 6.5 * part.gpu_params);
  EXPECT_FALSE(part.cpu_modelled);
  EXPECT_TRUE(has_warning(part, "do not fill whole nodes of 8")) << all_warnings(part);
}

// The assumptions and the hover text name the convention's source.
TEST(SimPlanConvention, AssumptionsAndFormulasNameTheSource) {
  auto joined = [](const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += x + "\n";
    return s;
  };
  Plan base = Plan().set("params_b", 1).set("nodes", 2).set("zero", 3);
  const std::string zp = joined(plan_assumptions(plan_input_from(base.v)));
  EXPECT_NE(zp.find("Rajbhandari et al. 2020"), std::string::npos) << zp;
  const std::string ds = joined(plan_assumptions(plan_input_from(Plan(base).choose("convention", "deepspeed").v)));
  EXPECT_NE(ds.find("stage3.py, estimate_zero3_model_states_mem_needs"), std::string::npos) << ds;
  const std::string mg = joined(plan_assumptions(plan_input_from(Plan(base).choose("convention", "megatron").v)));
  EXPECT_NE(mg.find("theoretical_memory_usage.py"), std::string::npos) << mg;
  const PlanInput in = plan_input_from(base.v);
  const PlanResult r = simulate_plan(in);
  const std::string w = plan_memory_formula(in, r, 0);
  EXPECT_NE(w.find("weights: 2 bytes × 1,000,000,000 parameters on this GPU ÷ 16 (ZeRO-3 over DP×CP) = 0.125 GB"),
            std::string::npos) << w;
  EXPECT_NE(w.find("Source: Rajbhandari et al. 2020"), std::string::npos) << w;
  const std::string host = plan_memory_formula(in, r, 4);
  EXPECT_NE(host.find("not modelled by the zero-paper convention"), std::string::npos) << host;
}

// ---- inputs and impossible plans

TEST(SimPlanInputs, DefaultsResolve) {
  PlanInput in = plan_input_from(WidgetValues::defaults(plan_widget_kind()));
  EXPECT_STREQ(in.model.id, "7b");
  EXPECT_STREQ(in.gpu.id, "h100");
  EXPECT_EQ(in.gpus_per_node, 8);  // 0 = the preset's node
  EXPECT_EQ(in.dp, 8);             // 0 = the rest of the GPUs
  EXPECT_TRUE(in.dp_derived);
  EXPECT_EQ(in.model.seq, 4096);   // 0 = the model's
  // Overrides replace the preset's architecture; an MHA model stays MHA when heads change.
  PlanInput o = plan_input_from(Plan().set("layers", 16).set("heads", 16).v);
  EXPECT_EQ(o.model.layers, 16);
  EXPECT_EQ(o.model.heads, 16);
  EXPECT_EQ(o.model.kv_heads, 16);
}

TEST(SimPlanInputs, ImpossiblePlansExplainWhy) {
  EXPECT_EQ(Plan().set("pp", 64).set("nodes", 8).run().error,
            "PP=64 is more than the 32 layers: some stages would hold no layer");
  EXPECT_EQ(Plan().set("tp", 64).set("nodes", 8).run().error,
            "TP=64 is more than the 32 attention heads: some GPUs would hold no head");
  EXPECT_NE(Plan().set("hidden", 1000).run().error.find("hidden size 1000 does not split into 32 heads"), std::string::npos);
  EXPECT_NE(Plan().choose("model", "70b").set("kv_heads", 3).run().error.find("3 KV heads cannot serve 64"), std::string::npos);
}
