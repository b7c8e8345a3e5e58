// `dtx sim plan`: the training-plan explorer's memory and traffic table, as text or JSON.
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "figures.h"
#include "sim.h"
#include "sim/plan.h"
#include "text.h"

namespace dtx::cli {

namespace {

using Json = nlohmann::ordered_json;

const char* recompute_name(sim::Recompute r) {
  return r == sim::Recompute::Full ? "full" : r == sim::Recompute::Selective ? "selective" : "none";
}

std::string num(double x, int sig = 4) { return format_number(x, sig); }
std::string billions(double n) { return num(n / 1e9) + " B"; }

std::string pad(const std::string& s, size_t width) {
  // Width in characters, not bytes (× and · are two bytes in UTF-8).
  size_t chars = 0;
  for (unsigned char c : s) chars += (c & 0xC0) != 0x80;
  return s + std::string(chars < width ? width - chars : 1, ' ');
}

void print_text(const sim::PlanInput& in, const sim::PlanResult& r) {
  const sim::ModelSpec& m = in.model;
  std::cout << "Training-plan explorer: " << m.name << " on " << num(in.nodes) << " × " << num(in.gpus_per_node) << " "
            << in.gpu.name << " (an estimate: see the assumptions at the end)\n\n";
  std::cout << "model     " << num(m.layers) << " layers, hidden " << num(m.hidden) << ", " << num(m.heads) << " heads ("
            << num(m.kv_heads) << " KV), FFN " << num(m.ffn) << (m.swiglu ? " (SwiGLU)" : "") << ", vocab "
            << num(m.vocab) << ", sequence " << num(r.seq) << "\n";
  std::cout << "          " << billions(r.params) << " parameters"
            << (in.params_override > 0 ? " (given)" : " computed") << ", nominal " << num(m.nominal_params_b) << " B; "
            << billions(r.layer_params) << " per layer, " << billions(r.embedding_params) << " in vocabulary matrices\n";
  std::cout << "plan      TP " << in.tp << " × PP " << in.pp << " × DP " << in.dp << (in.dp_derived ? " (the rest)" : "")
            << " × CP " << in.cp << " = " << num(static_cast<double>(r.plan_gpus)) << " GPUs (cluster: " << num(r.gpus)
            << "); ZeRO-" << in.zero << "; SP " << (in.sp ? "on" : "off") << "; recomputation "
            << recompute_name(in.recompute) << "; flash attention " << (in.flash ? "on" : "off") << "\n";
  std::cout << "batch     " << num(in.mbs) << " sequence(s) per microbatch × " << num(in.microbatches)
            << " microbatches × DP " << num(in.dp) << " = " << num(r.tokens_per_step) << " tokens per step\n";
  std::cout << "stages    " << num(r.layers_per_stage) << " layers in the fullest of " << num(in.pp) << " stage(s), "
            << num(r.in_flight) << " microbatch(es) in flight on stage 0, " << num(r.seq_per_gpu)
            << " tokens per GPU per sequence\n";
  std::cout << "per GPU   " << billions(r.gpu_params) << " parameters: " << billions(r.gpu_layer_params) << " of layers + "
            << billions(r.gpu_embedding_params) << " of vocabulary matrices ("
            << (in.first_stage ? "first stage: its layers and the input embedding"
                               : "the average GPU: everything spread evenly over TP × PP")
            << ")\n\n";

  std::cout << (in.first_stage ? "Memory per GPU (a GPU of the first pipeline stage; --stage even for the average)\n"
                               : "Memory per GPU (the average GPU; --stage first for the fullest stage)\n");
  std::cout << "  " << pad("convention", 13) << sim::memory_source_name(r.convention);
  if (r.offload != sim::Offload::None) std::cout << ", offload " << sim::offload_name(r.offload);
  if (const sim::SourcedFormula* f = sim::find_formula(r.memory_formula_id)) std::cout << " (" << f->source << ")";
  std::cout << "\n";
  if (r.memory_split) {
    std::cout << "  " << pad("weights", 13) << format_gb(r.weights_bytes) << "\n";
    std::cout << "  " << pad("gradients", 13) << format_gb(r.grads_bytes) << "\n";
    std::cout << "  " << pad("optimizer", 13) << format_gb(r.optimizer_bytes) << "\n";
  } else {
    std::cout << "  " << pad("model states", 13) << format_gb(r.model_states_bytes) << "  (DeepSpeed's one figure";
    if (r.largest_layer_bytes > 0) std::cout << ", of which " << format_gb(r.largest_layer_bytes) << " is the gathered largest layer";
    std::cout << ")\n";
  }
  std::cout << "  " << pad("activations", 13) << format_gb(r.activations_bytes) << "  (" << format_gb(r.activation_layer_bytes)
            << " per layer per microbatch)\n";
  std::cout << "  " << pad("total", 13) << format_gb(r.total_bytes) << " of " << format_gb(r.capacity_bytes) << ": "
            << (r.fits ? "fits, " + format_gb(r.capacity_bytes - r.total_bytes) + " free"
                       : "over by " + format_gb(r.total_bytes - r.capacity_bytes))
            << "\n";
  std::cout << "  " << pad("host/node", 13)
            << (r.cpu_modelled ? format_gb(r.cpu_bytes_per_node) + " (DeepSpeed's host memory per node)"
                               : std::string("not modelled by this convention"))
            << "\n\n";

  std::cout << "Communication per GPU per step\n";
  std::cout << "  " << pad("dim", 5) << pad("group", 7) << pad("sent", 12) << pad("link", 20) << pad("time", 10)
            << pad("exposed", 10) << "what\n";
  for (const auto& row : r.comm) {
    std::string link = row.link == sim::Link::None ? "-" : std::string(sim::link_name(row.link)) + " " + num(row.link_gbs) + " GB/s";
    std::cout << "  " << pad(row.dim, 5) << pad(num(row.group), 7) << pad(row.bytes > 0 ? format_gb(row.bytes) : "-", 12)
              << pad(link, 20) << pad(row.bytes > 0 ? format_seconds(row.time_s) : "-", 10)
              << pad(row.bytes > 0 ? format_seconds(row.exposed_s) : "-", 10) << (row.bytes > 0 ? row.what : "") << "\n";
  }
  double exposed = 0;
  for (const auto& row : r.comm) exposed += row.exposed_s;
  std::cout << "\nstep time " << format_seconds(r.step_s) << " (estimate): compute " << format_seconds(r.compute_s) << " at "
            << format_percent(in.efficiency) << " of " << num(in.gpu.dense_tflops) << " TFLOP/s, bubble " << format_percent(r.bubble)
            << ", exposed communication " << format_seconds(exposed) << "\n";
  std::cout << "MFU       " << format_percent(r.mfu) << " ((6·N + 12·L·h·s)·tokens = " << num(r.model_flops)
            << " FLOP per step, PaLM appendix B); " << format_percent(r.mfu_6n) << " with the 6N approximation\n";
  std::cout << "HFU       " << format_percent(r.hfu) << " (" << num(r.hardware_flops) << " FLOP per step, recomputation included)\n";

  std::cout << "\nWarnings\n";
  if (r.warnings.empty()) std::cout << "  none\n";
  for (const auto& w : r.warnings) std::cout << "  - " << w << "\n";
  std::cout << "\nAssumptions\n";
  for (const std::string& a : sim::plan_assumptions(in)) std::cout << "  - " << a << "\n";
}

Json to_json(const sim::PlanInput& in, const sim::PlanResult& r) {
  const sim::ModelSpec& m = in.model;
  Json j;
  j["kind"] = "plan";
  j["estimate"] = true;
  j["model"] = {{"id", m.id},           {"name", m.name},         {"layers", m.layers},
                {"hidden", m.hidden},   {"heads", m.heads},       {"kv_heads", m.kv_heads},
                {"ffn", m.ffn},         {"vocab", m.vocab},       {"seq", r.seq},
                {"params", r.params},   {"nominal_params", m.nominal_params_b * 1e9},
                {"layer_params", r.layer_params}, {"embedding_params", r.embedding_params}};
  j["gpu"] = {{"id", in.gpu.id},
              {"name", in.gpu.name},
              {"memory_gb", in.gpu.memory_gb},
              {"dense_tflops", in.gpu.dense_tflops},
              {"nvlink_gbs", in.gpu.nvlink_gbs},
              {"network_gbs", in.gpu.network_gbs}};
  j["nodes"] = in.nodes;
  j["gpus_per_node"] = in.gpus_per_node;
  j["gpus"] = r.gpus;
  j["plan_gpus"] = r.plan_gpus;
  j["tp"] = in.tp;
  j["pp"] = in.pp;
  j["dp"] = in.dp;
  j["cp"] = in.cp;
  j["zero"] = in.zero;
  j["sp"] = in.sp;
  j["recompute"] = recompute_name(in.recompute);
  j["flash"] = in.flash;
  j["mbs"] = in.mbs;
  j["microbatches"] = in.microbatches;
  j["efficiency"] = in.efficiency;
  j["stage"] = in.first_stage ? "first" : "even";
  j["layers_per_stage"] = r.layers_per_stage;
  j["memory_layers"] = r.memory_layers;
  j["in_flight"] = r.in_flight;
  j["seq_per_gpu"] = r.seq_per_gpu;
  j["shard_group"] = r.shard_group;
  j["params_per_gpu"] = r.gpu_params;
  j["layer_params_per_gpu"] = r.gpu_layer_params;
  j["embedding_params_per_gpu"] = r.gpu_embedding_params;
  // DeepSpeed's estimators give the model states as one figure: no split (null) then.
  auto split = [&](double bytes) { return r.memory_split ? Json(bytes / 1e9) : Json(nullptr); };
  j["memory_gb"] = {{"weights", split(r.weights_bytes)},       {"gradients", split(r.grads_bytes)},
                    {"optimizer", split(r.optimizer_bytes)},   {"activations", r.activations_bytes / 1e9},
                    {"total", r.total_bytes / 1e9},             {"capacity", r.capacity_bytes / 1e9},
                    {"model_states", r.model_states_bytes / 1e9}};
  j["activation_layer_gb"] = r.activation_layer_bytes / 1e9;
  j["fits"] = r.fits;
  j["convention"] = sim::memory_source_name(r.convention);
  j["offload"] = sim::offload_name(r.offload);  // as applied (ignored offload: "none")
  j["memory_zero"] = r.memory_zero;             // the stage the convention's formula used
  j["model_states_bytes"] = r.model_states_bytes;
  j["largest_layer_params"] = r.largest_layer_params;
  j["largest_layer_bytes"] = r.largest_layer_bytes;
  j["cpu_bytes_per_node"] = r.cpu_bytes_per_node;
  j["cpu_modelled"] = r.cpu_modelled;
  if (const sim::SourcedFormula* f = sim::find_formula(r.memory_formula_id))
    j["memory_formula"] = {{"id", f->id}, {"formula", f->formula}, {"source", f->source}, {"url", f->url}};
  Json comm = Json::array();
  for (const auto& row : r.comm)
    comm.push_back({{"dim", row.dim},
                    {"what", row.what},
                    {"group", row.group},
                    {"bytes", row.bytes},
                    {"link", sim::link_name(row.link)},
                    {"link_gbs", row.link_gbs},
                    {"time_s", row.time_s},
                    {"exposed_s", row.exposed_s}});
  j["comm"] = comm;
  j["tokens_per_step"] = r.tokens_per_step;
  j["model_flops"] = r.model_flops;
  j["hardware_flops"] = r.hardware_flops;
  j["compute_s"] = r.compute_s;
  j["bubble"] = r.bubble;
  j["step_time_s"] = r.step_s;
  j["mfu"] = r.mfu;
  j["mfu_6n"] = r.mfu_6n;
  j["hfu"] = r.hfu;
  j["warnings"] = r.warnings;
  Json notes = Json::array();
  for (const std::string& a : sim::plan_assumptions(in)) notes.push_back(a);
  j["assumptions"] = notes;
  return j;
}

}  // namespace

int print_sim_plan(const sim::WidgetValues& v, bool json) {
  const sim::PlanInput in = sim::plan_input_from(v);
  const sim::PlanResult r = sim::simulate_plan(in);
  if (!r.error.empty()) {
    std::cerr << "dtx sim plan: " << r.error << "\n";
    return 1;
  }
  if (json) std::cout << to_json(in, r).dump(2) << "\n";
  else print_text(in, r);
  return 0;
}

}  // namespace dtx::cli
