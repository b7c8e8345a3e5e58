// The roofline of one GPU and the bandwidth hierarchy of a cluster built from it: where an
// operation's arithmetic intensity lands against peak FLOP/s and HBM bandwidth, and how much
// slower each step away from a GPU's own memory is.
//
// Conventions (the same as chapter 12's exercises and exercises/ERRATA.md):
// - GB = 10^9 bytes, TFLOP/s = 10^12 FLOP/s; tensors are BF16 (2 bytes per element).
// - A matmul or dot product does 2 FLOPs per multiply-add.
// - Intensity counts HBM traffic. By default every byte counts, inputs read and outputs
//   written (Traffic::All: a 4096³ matmul is n/3 = 1,365 FLOP/byte, a ReLU 1/4). Traffic::Reads
//   counts inputs only, as the seeds' "2048 FLOP/byte" and "ReLU 0.5" do.
// - Link bandwidths are per GPU and per direction. NVLink's vendor figure (900 GB/s on an H100)
//   is both directions together, so one GPU sends at 450 GB/s: 0.134× HBM, 9× InfiniBand's 50.
//   The seeds' "0.27×" and "18×" divide the two-way figure by one-way ones; we report them as
//   the quoted ratios next to the like-for-like ones.
#pragma once

#include <string>
#include <vector>

#include "sim/hardware.h"
#include "sim/widget.h"

namespace dtx::sim {

// ---- roofline

struct Roof {
  double peak_flops = 0;           // dense BF16, FLOP/s
  double hbm_bytes_per_s = 0;      // HBM bandwidth, bytes/s
  double ridge_flop_per_byte = 0;  // peak / bandwidth: the intensity where the roofs meet
};

Roof roof_of(const GpuSpec& g);

// FLOP/s an operation of `intensity` FLOP/byte can reach: min(peak, intensity × bandwidth).
double attainable_flops(const Roof& r, double intensity_flop_per_byte);

// Below the ridge the bytes set the time; at or above it the arithmetic does.
enum class Bound { Memory, Compute };
const char* bound_name(Bound b);  // "memory", "compute"

enum class Traffic { All, Reads };

// What an operation does and moves.
struct Work {
  double flops = 0;
  double bytes = 0;
};

// C = A·B with A m×k, B k×n: 2mnk FLOPs over A and B read (+ C written with Traffic::All).
Work matmul_work(double m, double n, double k, Traffic t);
// `ops` element-wise operations (fused into one kernel) on each of `elements` BF16 values:
// read once (+ written once).
Work elementwise_work(double elements, double ops_per_element, Traffic t);
// One step of decoding for `batch` sequences through a d×d weight (a matrix-vector product
// per sequence): weights read once for the whole batch, one input vector read (+ one output
// written) per sequence. With batch = prompt length it is prefill of one prompt.
Work projection_work(double d, double batch, Traffic t);
// Decode attention of one new token per sequence over a KV cache of `seq` tokens: 4·seq·d
// FLOPs (scores and the weighted sum of V; softmax's few FLOPs per score are left out); the
// K and V caches (d / group values per token each, `group` query heads sharing a KV head),
// the query read (+ the output written). Every sequence has its own cache, so batching does
// not raise the intensity: it stays near `group`.
Work attention_decode_work(double seq, double d, double group, double batch, Traffic t);

// An operation on the roofline.
struct OpCost {
  std::string label;      // "matmul 4096×4096×4096"
  double flops = 0;
  double bytes = 0;
  double intensity = 0;   // FLOP/byte
  double attainable_flops = 0;
  Bound bound = Bound::Memory;
  double compute_time_s = 0;  // flops / peak
  double memory_time_s = 0;   // bytes / bandwidth
  double time_s = 0;          // the larger: loads and arithmetic overlap
};

OpCost op_cost(const Roof& r, std::string label, const Work& w);

// Batch size from which a d×d decode projection is compute-bound (its intensity reaches the
// ridge): b·d/(d + 2b) = R gives b = R·d/(d − 2R) (Traffic::Reads: R·d/(d − R)). Infinity when
// no batch gets there (d too small: the activations alone keep it below the ridge).
double projection_batch_at_ridge(double d, double ridge_flop_per_byte, Traffic t);

// ---- the roofline widget's simulation

const char* const kRooflineOps[] = {"custom", "matmul", "relu", "decode", "attention"};

struct RooflinePoint {
  const char* id;  // "matmul", "relu", "decode-b1", "decode", "prefill", "attention", "custom"
  OpCost cost;
  bool selected = false;  // the operation chosen by the `op` input
};

struct RooflineResult {
  std::string error;  // non-empty: nothing else is set
  const GpuSpec* gpu = nullptr;
  Roof roof;
  Traffic traffic = Traffic::All;
  std::string op;               // the chosen operation's id
  OpCost selected;              // its figures
  std::vector<RooflinePoint> points;  // every preset, the chosen one flagged
  double batch_at_ridge = 0;    // of the d×d decode projection (infinity: never)
};

RooflineResult run_roofline(const WidgetValues& v);

// The animated point: with op = decode the batch grows 1 → 4096 (×√2 a step), with op = matmul
// a square matmul grows 16 → 65536 (×√2 a step), otherwise the intensity sweeps 0.1 → 10,000
// FLOP/byte. `pos` runs 0..steps and may be fractional (the point slides between steps).
struct SweepPoint {
  const char* param;  // "batch", "n", "intensity"
  double value;
  OpCost cost;
};
constexpr int kRooflineSweepSteps = 24;
SweepPoint roofline_sweep(const WidgetValues& v, const Roof& r, double pos, int steps = kRooflineSweepSteps);

// ---- bandwidth hierarchy

// Meta's 24K-GPU Llama 3 cluster: 2 servers a rack, 192 racks a pod, 8 pods; the layer above
// the pods is 1:7 oversubscribed. GPUs per server come from the GPU preset.
struct ClusterShape {
  int servers_per_rack = 2;
  int racks_per_pod = 192;
  int pods_per_cluster = 8;
};
const ClusterShape& meta_cluster_shape();

// One rung of the ladder: the slowest link between two GPUs of a zoom level.
struct LinkLevel {
  const char* id;       // "hbm", "nvlink", "network", "cross-pod"
  const char* name;     // "GPU ↔ its HBM"
  const char* link;     // "HBM", "NVLink / NVSwitch", ...
  double bw_gbs = 0;        // per GPU, per direction
  double quoted_gbs = 0;    // as datasheets quote it (NVLink: both directions together)
  double ratio_to_hbm = 0;  // bw_gbs / HBM
  double quoted_ratio_to_hbm = 0;
  double time_s = 0;        // to move the chosen bytes one way
};

enum class ZoomLevel { Gpu, Server, Rack, Pod, Cluster };
constexpr int kZoomLevels = 5;
const char* const kZoomLevelIds[] = {"gpu", "server", "rack", "pod", "cluster"};

struct ZoomCounts {
  const char* id;          // "server"
  const char* name;        // "Server"
  int children = 0;        // 8 (GPUs in a server); 0 for a GPU
  const char* child = "";  // "GPU"
  long gpus = 0;
  double memory_bytes = 0;  // HBM of all its GPUs
  double peak_flops = 0;    // dense BF16 of all its GPUs
  int link = 0;             // index in Hierarchy::links of the slowest link inside it
};

struct Hierarchy {
  std::string error;
  const GpuSpec* gpu = nullptr;
  double bytes = 0;
  double oversubscription = 1;
  std::vector<LinkLevel> links;  // hbm, nvlink, network, cross-pod
  std::vector<ZoomCounts> zoom;  // gpu, server, rack, pod, cluster
  int level = 0;                 // the chosen zoom level
  double nvlink_over_network = 0;         // per direction, like for like (9× on an H100)
  double quoted_nvlink_over_network = 0;  // two-way NVLink over one-way network (the seeds' 18×)
};

Hierarchy run_hierarchy(const GpuSpec& g, const ClusterShape& shape, double bytes, double oversubscription,
                        int level = 0);
Hierarchy run_hierarchy(const WidgetValues& v);

}  // namespace dtx::sim
