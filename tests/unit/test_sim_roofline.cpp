// Tests of engine/sim/roofline: the roofline of a GPU, the intensity of the course's
// operations, and the bandwidth hierarchy and counts of Meta's 24K-GPU cluster. Expected
// figures are worked out by hand in each test from the datasheet numbers (H100: 989 TFLOP/s
// dense BF16, 3,352 GB/s HBM, NVLink 900 GB/s both ways, 50 GB/s network per GPU; A100: 312
// TFLOP/s, 2,039 GB/s), not read back from the engine's tables.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "helpers.h"
#include "model.h"
#include "sim/roofline.h"

using namespace dtx;
using namespace dtx::sim;

namespace {

const GpuSpec& gpu(const char* id) {
  const GpuSpec* g = find_gpu(id);
  EXPECT_NE(g, nullptr) << id;
  static const GpuSpec none{};
  return g ? *g : none;
}

WidgetValues roofline_values(std::initializer_list<std::pair<const char*, const char*>> flags) {
  WidgetValues v = WidgetValues::defaults(roofline_widget_kind());
  for (const auto& [name, text] : flags) {
    const WidgetInput* in = roofline_widget_kind().input(name);
    EXPECT_NE(in, nullptr) << name;
    if (!in) continue;
    std::string err;
    auto x = parse_widget_value(*in, text, &err);
    EXPECT_TRUE(x.has_value()) << name << ": " << err;
    if (x) v.set(name, *x);
  }
  return v;
}

const RooflinePoint* point(const RooflineResult& r, std::string_view id) {
  for (const auto& p : r.points)
    if (id == p.id) return &p;
  return nullptr;
}

}  // namespace

// ---- the roof

TEST(SimRoofline, RidgeIsPeakOverBandwidth) {
  // H100: 989e12 FLOP/s / 3352e9 B/s = 989 / 3.352 = 295.05 FLOP/byte (the seeds' "≈ 295").
  Roof h = roof_of(gpu("h100"));
  EXPECT_DOUBLE_EQ(h.peak_flops, 989e12);
  EXPECT_DOUBLE_EQ(h.hbm_bytes_per_s, 3352e9);
  EXPECT_NEAR(h.ridge_flop_per_byte, 295.05, 0.01);
  // A100: 312 / 2.039 = 153.02 FLOP/byte. Compute grew faster than bandwidth: H100's ridge
  // is almost twice A100's.
  Roof a = roof_of(gpu("a100"));
  EXPECT_NEAR(a.ridge_flop_per_byte, 153.02, 0.01);
  EXPECT_GT(h.ridge_flop_per_byte, 1.9 * a.ridge_flop_per_byte);
}

TEST(SimRoofline, AttainableOnBothSidesOfTheRidge) {
  Roof h = roof_of(gpu("h100"));
  // 100 FLOP/byte, below the ridge: 100 × 3352e9 = 335.2 TFLOP/s, a third of the peak.
  EXPECT_NEAR(attainable_flops(h, 100), 335.2e12, 1e9);
  // 1000 FLOP/byte, above: the flat roof, 989 TFLOP/s.
  EXPECT_DOUBLE_EQ(attainable_flops(h, 1000), 989e12);
  // At the ridge itself both roofs give the peak.
  EXPECT_NEAR(attainable_flops(h, h.ridge_flop_per_byte), 989e12, 1e3);

  OpCost below = op_cost(h, "below", Work{100 * 1e9, 1e9});
  EXPECT_EQ(below.bound, Bound::Memory);
  // 1 GB at 3352 GB/s = 298.3 µs; 100 GFLOP at 989 TFLOP/s = 101.1 µs; the larger wins.
  EXPECT_NEAR(below.time_s, 298.3e-6, 0.1e-6);
  EXPECT_NEAR(below.compute_time_s, 101.1e-6, 0.1e-6);
  OpCost above = op_cost(h, "above", Work{1000 * 1e9, 1e9});
  EXPECT_EQ(above.bound, Bound::Compute);
  // 1 TFLOP at 989 TFLOP/s = 1.0111 ms.
  EXPECT_NEAR(above.time_s, 1.0111e-3, 0.0001e-3);
  EXPECT_STREQ(bound_name(below.bound), "memory");
  EXPECT_STREQ(bound_name(above.bound), "compute");
}

// ---- operations

TEST(SimRoofline, Matmul4096IntensityBothConventions) {
  // 2·4096³ = 137.4 GFLOP. A and B: 2 × 4096² × 2 B = 67.1 MB -> 2048 FLOP/byte (the seeds'
  // figure, n/2). With C written back: 3 × 4096² × 2 B = 100.7 MB -> n/3 = 1365.3 (the
  // course's convention, exercises/ERRATA.md chapter 12).
  Work reads = matmul_work(4096, 4096, 4096, Traffic::Reads);
  EXPECT_DOUBLE_EQ(reads.flops, 137438953472.0);
  EXPECT_DOUBLE_EQ(reads.bytes, 67108864.0);
  EXPECT_DOUBLE_EQ(reads.flops / reads.bytes, 2048);
  Work all = matmul_work(4096, 4096, 4096, Traffic::All);
  EXPECT_DOUBLE_EQ(all.bytes, 100663296.0);
  EXPECT_NEAR(all.flops / all.bytes, 1365.33, 0.01);

  // On an H100 it is compute-bound: 137.4e9 / 989e12 = 138.97 µs (memory would take
  // 100.7e6 / 3352e9 = 30.03 µs).
  OpCost c = op_cost(roof_of(gpu("h100")), "mm", all);
  EXPECT_EQ(c.bound, Bound::Compute);
  EXPECT_NEAR(c.time_s, 138.97e-6, 0.01e-6);
  EXPECT_NEAR(c.memory_time_s, 30.03e-6, 0.01e-6);

  // A tall-skinny matmul is not square: 2·64·4096·4096 over (64·4096 + 4096·4096 + 64·4096)·2
  // = 2147483648 / 34603008 = 62.06 FLOP/byte, memory-bound.
  Work skinny = matmul_work(64, 4096, 4096, Traffic::All);
  EXPECT_NEAR(skinny.flops / skinny.bytes, 62.06, 0.01);
}

TEST(SimRoofline, ReluIsFarBelowTheRidge) {
  // One FLOP per element; 2 bytes read (0.5 FLOP/byte, the seeds' figure) and 2 written
  // (0.25, the course's).
  Work reads = elementwise_work(4096.0 * 4096, 1, Traffic::Reads);
  Work all = elementwise_work(4096.0 * 4096, 1, Traffic::All);
  EXPECT_DOUBLE_EQ(reads.flops / reads.bytes, 0.5);
  EXPECT_DOUBLE_EQ(all.flops / all.bytes, 0.25);
  // Time: 4 × 4096² = 67.1 MB at 3352 GB/s = 20.02 µs, memory-bound (hw.elementwise).
  OpCost c = op_cost(roof_of(gpu("h100")), "relu", all);
  EXPECT_EQ(c.bound, Bound::Memory);
  EXPECT_NEAR(c.time_s, 20.02e-6, 0.01e-6);
  // Fusing 3 ops into one kernel: same bytes, 3× the FLOPs -> 0.75 FLOP/byte.
  Work fused = elementwise_work(4096.0 * 4096, 3, Traffic::All);
  EXPECT_DOUBLE_EQ(fused.flops / fused.bytes, 0.75);
}

TEST(SimRoofline, DecodeIntensityGrowsWithBatch) {
  // d = 16384. b = 1: 2d² FLOPs over 2d² + 4d bytes = d/(d+2) = 16384/16386 = 0.99988 ("about
  // 1 FLOP per byte"). b = 32: 32·16384/(16384 + 64) = 31.875.
  const double d = 16384;
  auto intensity = [&](double b) {
    Work w = projection_work(d, b, Traffic::All);
    return w.flops / w.bytes;
  };
  EXPECT_NEAR(intensity(1), 0.99988, 0.00001);
  EXPECT_NEAR(intensity(32), 31.875, 0.001);
  // 512: 512·16384/(16384 + 1024) = 481.9, above H100's ridge (hw.choice-memory-bound).
  EXPECT_NEAR(intensity(512), 481.88, 0.01);

  // The weights dominate the bytes, so 32× the work costs only (d + 64)/(d + 2) = 1.0038×
  // the time while memory-bound: batching decode is nearly free.
  Roof h = roof_of(gpu("h100"));
  OpCost b1 = op_cost(h, "b1", projection_work(d, 1, Traffic::All));
  OpCost b32 = op_cost(h, "b32", projection_work(d, 32, Traffic::All));
  EXPECT_EQ(b1.bound, Bound::Memory);
  EXPECT_EQ(b32.bound, Bound::Memory);
  EXPECT_NEAR(b32.time_s / b1.time_s, 1.0038, 0.0001);

  // The batch at the ridge: b·d/(d + 2b) = R -> b = R·d/(d − 2R) = 295.05 × 16384 / 15793.9 =
  // 306.07. Checked by the intensities on either side rather than by the formula alone.
  double b = projection_batch_at_ridge(d, h.ridge_flop_per_byte, Traffic::All);
  EXPECT_NEAR(b, 306.07, 0.01);
  EXPECT_LT(intensity(306), h.ridge_flop_per_byte);
  EXPECT_GE(intensity(307), h.ridge_flop_per_byte);
  // Counting reads only: b·d/(d + b) = R -> R·d/(d − R) = 295.05 × 16384 / 16088.95 = 300.46.
  EXPECT_NEAR(projection_batch_at_ridge(d, h.ridge_flop_per_byte, Traffic::Reads), 300.46, 0.01);
  // A small model never gets there: with d = 512 < 2R the activations alone cap the
  // intensity at d/2 = 256 < 295.
  EXPECT_TRUE(std::isinf(projection_batch_at_ridge(512, h.ridge_flop_per_byte, Traffic::All)));
}

TEST(SimRoofline, DecodeAttentionDoesNotBatch) {
  // seq = 8192, d = 16384, group 8: 4·seq·d FLOPs over (2·seq·d/8 + 2d)·2 bytes
  // = seq·g/(seq + g) = 8192·8/8200 = 7.992 FLOP/byte, whatever the batch.
  Work one = attention_decode_work(8192, 16384, 8, 1, Traffic::All);
  Work many = attention_decode_work(8192, 16384, 8, 64, Traffic::All);
  EXPECT_NEAR(one.flops / one.bytes, 7.992, 0.001);
  EXPECT_NEAR(many.flops / many.bytes, one.flops / one.bytes, 1e-9);
  // Multi-head attention (group 1): 8192/8193 ≈ 1 FLOP/byte.
  Work mha = attention_decode_work(8192, 16384, 1, 1, Traffic::All);
  EXPECT_NEAR(mha.flops / mha.bytes, 0.99988, 0.00001);
}

// ---- the widget's simulation

TEST(SimRoofline, WidgetDefaultsAreThe4096Matmul) {
  RooflineResult r = run_roofline(WidgetValues::defaults(roofline_widget_kind()));
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_STREQ(r.gpu->id, "h100");
  EXPECT_EQ(r.op, "matmul");
  EXPECT_NEAR(r.selected.intensity, 1365.33, 0.01);
  EXPECT_EQ(r.selected.bound, Bound::Compute);
  // Every preset is a point; the chosen one is flagged once.
  int selected = 0;
  for (const auto& p : r.points) selected += p.selected;
  EXPECT_EQ(selected, 1);
  for (const char* id : {"matmul", "relu", "decode-b1", "decode", "prefill", "attention", "custom"})
    EXPECT_NE(point(r, id), nullptr) << id;
  // The prefill of the default 8192-token prompt through d = 16384: 8192·16384/(16384 + 16384)
  // = 4096 FLOP/byte, compute-bound; decode at b = 1 memory-bound.
  EXPECT_NEAR(point(r, "prefill")->cost.intensity, 4096, 1e-9);
  EXPECT_EQ(point(r, "prefill")->cost.bound, Bound::Compute);
  EXPECT_EQ(point(r, "decode-b1")->cost.bound, Bound::Memory);
  EXPECT_NEAR(r.batch_at_ridge, 306.07, 0.01);
}

TEST(SimRoofline, WidgetFlagsChangeTheOperation) {
  // A100, ReLU counting reads only: 0.5 FLOP/byte × 2039e9 = 1.0195 TFLOP/s attainable.
  RooflineResult r = run_roofline(roofline_values({{"gpu", "a100"}, {"op", "relu"}, {"traffic", "reads"}}));
  ASSERT_TRUE(r.error.empty());
  EXPECT_EQ(r.op, "relu");
  EXPECT_DOUBLE_EQ(r.selected.intensity, 0.5);
  EXPECT_NEAR(r.selected.attainable_flops, 1.0195e12, 1e6);
  EXPECT_EQ(r.selected.bound, Bound::Memory);

  // Custom: 50 FLOP/byte over 2 GB on an H100 -> 100 GFLOP; memory time 2e9 / 3352e9 = 596.7 µs.
  RooflineResult c = run_roofline(roofline_values({{"op", "custom"}, {"intensity", "50"}, {"bytes", "2e9"}}));
  EXPECT_DOUBLE_EQ(c.selected.flops, 100e9);
  EXPECT_NEAR(c.selected.time_s, 596.66e-6, 0.01e-6);

  // Decode with batch 1: the separate b = 1 point is not drawn twice.
  RooflineResult d = run_roofline(roofline_values({{"op", "decode"}, {"batch", "1"}}));
  EXPECT_EQ(point(d, "decode-b1"), nullptr);
  EXPECT_NEAR(d.selected.intensity, 0.99988, 0.00001);
}

TEST(SimRoofline, SweepClimbsTheSlopeAndHitsTheRoof) {
  WidgetValues v = roofline_values({{"op", "decode"}});
  Roof h = roof_of(gpu("h100"));
  // Batch 2^(pos/2): 1 at the start, 4096 at step 24, 64 at step 12.
  EXPECT_DOUBLE_EQ(roofline_sweep(v, h, 0).value, 1);
  EXPECT_DOUBLE_EQ(roofline_sweep(v, h, 12).value, 64);
  EXPECT_DOUBLE_EQ(roofline_sweep(v, h, 24).value, 4096);
  // Memory-bound until the batch passes 306 (step 17 is b = 362), compute-bound after; the
  // attainable FLOP/s never falls.
  EXPECT_EQ(roofline_sweep(v, h, 16).cost.bound, Bound::Memory);  // b = 256
  EXPECT_EQ(roofline_sweep(v, h, 17).cost.bound, Bound::Compute);
  double prev = 0;
  for (double pos = 0; pos <= 24; pos += 0.5) {
    double a = roofline_sweep(v, h, pos).cost.attainable_flops;
    EXPECT_GE(a, prev);
    prev = a;
  }
  EXPECT_DOUBLE_EQ(prev, 989e12);

  // Other operations sweep the intensity from 0.1 to 10,000 FLOP/byte.
  WidgetValues c = roofline_values({{"op", "custom"}});
  EXPECT_NEAR(roofline_sweep(c, h, 0).value, 0.1, 1e-12);
  EXPECT_NEAR(roofline_sweep(c, h, 24).value, 1e4, 1e-8);
  EXPECT_STREQ(roofline_sweep(c, h, 3).param, "intensity");
}

TEST(SimRoofline, AgreesWithChapter12Exercises) {
  // The widget and the exercises must give the same figures. The exercises use 3.35 TB/s
  // (rounded from 3.352), so allow 0.1%.
  std::ifstream in(std::string(DTX_SOURCE_DIR) + "/exercises/12-hardware-scaling.json");
  std::stringstream ss;
  ss << in.rdbuf();
  LoadResult lr = load_pack(ss.str(), "12-hardware-scaling.json");
  ASSERT_TRUE(lr.pack.has_value());
  auto part = [&](const char* ex_id, size_t part) {
    for (const auto& ex : lr.pack->exercises)
      if (ex.id == ex_id) return dtx::testing::part_values(dtx::testing::must_instance(ex)).at(part);
    ADD_FAILURE() << "no exercise " << ex_id;
    return 0.0;
  };
  // hw.matmul-intensity (n = 4096): inputs-only and all-traffic intensity.
  EXPECT_NEAR(part("hw.matmul-intensity", 1), matmul_work(4096, 4096, 4096, Traffic::Reads).flops /
                                                   matmul_work(4096, 4096, 4096, Traffic::Reads).bytes, 1e-9);
  Work all = matmul_work(4096, 4096, 4096, Traffic::All);
  EXPECT_NEAR(part("hw.matmul-intensity", 2), all.flops / all.bytes, 1e-9);
  // hw.elementwise: one ReLU, read and written.
  Work relu = elementwise_work(4096.0 * 4096, 1, Traffic::All);
  EXPECT_NEAR(part("hw.elementwise", 0), relu.flops / relu.bytes, 1e-12);
  // hw.decode (d = 16384, b = 32): intensity and the batch at the ridge.
  Work dec = projection_work(16384, 32, Traffic::All);
  EXPECT_NEAR(part("hw.decode", 0), dec.flops / dec.bytes, 1e-9);
  double b = projection_batch_at_ridge(16384, roof_of(gpu("h100")).ridge_flop_per_byte, Traffic::All);
  EXPECT_NEAR(part("hw.decode", 2) / b, 1, 1e-3);
}

// ---- the bandwidth hierarchy

TEST(SimHierarchy, LevelsPerDirectionAndRatioToHbm) {
  Hierarchy h = run_hierarchy(gpu("h100"), meta_cluster_shape(), 1e9, 7);
  ASSERT_TRUE(h.error.empty()) << h.error;
  ASSERT_EQ(h.links.size(), 4u);
  EXPECT_STREQ(h.links[0].id, "hbm");
  EXPECT_STREQ(h.links[1].id, "nvlink");
  EXPECT_STREQ(h.links[2].id, "network");
  EXPECT_STREQ(h.links[3].id, "cross-pod");
  // HBM 3352; NVLink 900 both ways = 450 each way; one 400 Gb/s port = 50 GB/s; across
  // pods 1:7 oversubscribed: 50/7 = 7.143 GB/s.
  EXPECT_DOUBLE_EQ(h.links[0].bw_gbs, 3352);
  EXPECT_DOUBLE_EQ(h.links[1].bw_gbs, 450);
  EXPECT_DOUBLE_EQ(h.links[2].bw_gbs, 50);
  EXPECT_NEAR(h.links[3].bw_gbs, 7.143, 0.001);
  // Ratios to HBM. Like for like: 450/3352 = 0.134, 50/3352 = 0.0149 (the seeds' 0.015).
  // The seeds' table divides the two-way 900 by HBM: 900/3352 = 0.27, kept as the quoted ratio.
  EXPECT_DOUBLE_EQ(h.links[0].ratio_to_hbm, 1);
  EXPECT_NEAR(h.links[1].ratio_to_hbm, 0.1342, 0.0001);
  EXPECT_NEAR(h.links[1].quoted_ratio_to_hbm, 0.2685, 0.0001);
  EXPECT_NEAR(h.links[2].ratio_to_hbm, 0.01492, 0.00001);
  // NVLink to network: 450/50 = 9× each way; the seeds' "18×" is 900 (both ways) / 50.
  EXPECT_DOUBLE_EQ(h.nvlink_over_network, 9);
  EXPECT_DOUBLE_EQ(h.quoted_nvlink_over_network, 18);
}

TEST(SimHierarchy, TimeToMoveBytesAtEachLevel) {
  // 1 GB one way: 1e9/3352e9 = 298.3 µs; /450e9 = 2.222 ms; /50e9 = 20 ms; /(50e9/7) = 140 ms.
  Hierarchy h = run_hierarchy(gpu("h100"), meta_cluster_shape(), 1e9, 7);
  EXPECT_NEAR(h.links[0].time_s, 298.33e-6, 0.01e-6);
  EXPECT_NEAR(h.links[1].time_s, 2.2222e-3, 0.0001e-3);
  EXPECT_NEAR(h.links[2].time_s, 20e-3, 1e-12);
  EXPECT_NEAR(h.links[3].time_s, 140e-3, 1e-9);
  // 10 GB on an A100 (2039, 600/2 = 300, 25, non-blocking 25): 4.904 ms, 33.33 ms, 400 ms, 400 ms.
  Hierarchy a = run_hierarchy(gpu("a100"), meta_cluster_shape(), 10e9, 1);
  EXPECT_NEAR(a.links[0].time_s, 4.9043e-3, 0.0001e-3);
  EXPECT_NEAR(a.links[1].time_s, 33.333e-3, 0.001e-3);
  EXPECT_NEAR(a.links[2].time_s, 0.4, 1e-12);
  EXPECT_NEAR(a.links[3].time_s, 0.4, 1e-12);
}

TEST(SimHierarchy, ClusterTotalsComeFromTheShape) {
  Hierarchy h = run_hierarchy(gpu("h100"), meta_cluster_shape(), 1e9, 7);
  ASSERT_EQ(h.zoom.size(), 5u);
  // Server 8 GPUs (640 GB); rack 2 servers = 16; pod 192 racks = 3,072; cluster 8 pods = 24,576.
  EXPECT_EQ(h.zoom[0].gpus, 1);
  EXPECT_EQ(h.zoom[1].gpus, 8);
  EXPECT_DOUBLE_EQ(h.zoom[1].memory_bytes, 640e9);
  EXPECT_EQ(h.zoom[2].gpus, 16);
  EXPECT_EQ(h.zoom[3].gpus, 3072);
  EXPECT_EQ(h.zoom[4].gpus, 24576);
  EXPECT_EQ(h.zoom[4].children, 8);
  EXPECT_STREQ(h.zoom[4].child, "pod");
  // 24,576 × 80 GB = 1.966 PB ("1.97 PB"); × 989 TFLOP/s = 24.31 EFLOP/s ("24.3").
  EXPECT_DOUBLE_EQ(h.zoom[4].memory_bytes, 1966.08e12);
  EXPECT_NEAR(h.zoom[4].peak_flops, 24.3057e18, 0.0001e18);
  // A pod: 3,072 × 989 TFLOP/s = 3.038 EFLOP/s.
  EXPECT_NEAR(h.zoom[3].peak_flops, 3.0382e18, 0.0001e18);
  // Each level's slowest inner link: none (HBM) in a GPU, NVLink in a server, the network in
  // a rack and a pod, the oversubscribed layer across pods.
  EXPECT_STREQ(h.links[h.zoom[0].link].id, "hbm");
  EXPECT_STREQ(h.links[h.zoom[1].link].id, "nvlink");
  EXPECT_STREQ(h.links[h.zoom[2].link].id, "network");
  EXPECT_STREQ(h.links[h.zoom[3].link].id, "network");
  EXPECT_STREQ(h.links[h.zoom[4].link].id, "cross-pod");
}

TEST(SimHierarchy, WidgetValuesAndBadInput) {
  WidgetValues v = WidgetValues::defaults(hierarchy_widget_kind());
  std::string err;
  v.set("gpu", *parse_widget_value(*hierarchy_widget_kind().input("gpu"), "b200", &err));
  v.set("level", *parse_widget_value(*hierarchy_widget_kind().input("level"), "pod", &err));
  Hierarchy h = run_hierarchy(v);
  ASSERT_TRUE(h.error.empty()) << h.error;
  EXPECT_STREQ(h.gpu->id, "b200");
  EXPECT_EQ(h.level, 3);
  // B200: 3,072 × 192 GB = 589.8 TB in a pod.
  EXPECT_DOUBLE_EQ(h.zoom[3].memory_bytes, 589.824e12);
  // Level names are a choice: anything else is refused with the list.
  EXPECT_FALSE(parse_widget_value(*hierarchy_widget_kind().input("level"), "row", &err).has_value());
  EXPECT_NE(err.find("gpu, server, rack, pod, cluster"), std::string::npos) << err;

  Hierarchy bad = run_hierarchy(gpu("h100"), meta_cluster_shape(), 0, 7);
  EXPECT_NE(bad.error.find("bytes must be positive"), std::string::npos) << bad.error;
  Hierarchy bad2 = run_hierarchy(gpu("h100"), meta_cluster_shape(), 1e9, 0.5);
  EXPECT_NE(bad2.error.find("at least 1"), std::string::npos) << bad2.error;
}

TEST(SimRoofline, InputTablesAreConsistent) {
  for (const WidgetKind* k : {&roofline_widget_kind(), &hierarchy_widget_kind()}) {
    WidgetValues v = WidgetValues::defaults(*k);
    for (size_t i = 0; i < k->inputs.size(); ++i) {
      const WidgetInput& in = k->inputs[i];
      if (in.options.empty()) {
        EXPECT_LE(in.min, in.def) << k->kind << "." << in.name;
        EXPECT_LE(in.def, in.max) << k->kind << "." << in.name;
      } else {
        EXPECT_LT(in.def, in.options.size()) << k->kind << "." << in.name;
      }
      EXPECT_GT(std::string(in.help).size(), 10u) << k->kind << "." << in.name;
    }
    EXPECT_STREQ(v.option("gpu"), "h100") << k->kind;
  }
}
