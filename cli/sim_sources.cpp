// `dtx sim memory | collective | checkpoint | gradscaler | scaling`: the source-named
// calculators of engine/sim/sources.h. Each prints its figures with the formula and source
// behind them, or (--json) an object whose field names are a contract: see `dtx sim --help`.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "figures.h"
#include "sim.h"
#include "sim/sources.h"
#include "text.h"

namespace dtx::cli {

namespace {

using Json = nlohmann::ordered_json;

std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

// "17106000000 bytes (17.11 GB, 15.93 GiB)": both units, since DeepSpeed prints GiB as "GB".
std::string bytes_text(double b) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "%.0f bytes (%.2f GB, %.2f GiB)", b, b / 1e9, b / 1073741824.0);
  return buf;
}

void print_source(const char* id) {
  const sim::SourcedFormula* f = sim::find_formula(id);
  if (!f) return;
  std::printf("  formula: %s\n  source:  %s\n           %s\n", f->formula, f->source, f->url);
}

Json source_json(const char* id) {
  const sim::SourcedFormula* f = sim::find_formula(id);
  if (!f) return Json{};
  return Json{{"id", f->id}, {"formula", f->formula}, {"source", f->source}, {"url", f->url}};
}

int fail(const char* kind, const std::string& why) {
  std::cerr << "dtx sim " << kind << ": " << why << "\n";
  return 1;
}

}  // namespace

int print_sim_memory(const sim::WidgetValues& v, bool json) {
  const sim::MemoryQuery q = sim::memory_query_from(v);
  const sim::MemoryEstimate e = sim::estimate_memory(q);
  if (!e.error.empty()) return fail("memory", e.error);
  const bool ds = q.source == sim::MemorySource::DeepSpeed || q.source == sim::MemorySource::DeepSpeed2023;
  if (json) {
    Json o = {{"source", sim::memory_source_name(q.source)},
              {"inputs",
               {{"params", q.params},
                {"K", q.k},
                {"zero", q.zero},
                {"dp", e.dp},
                {"mp", q.mp},
                {"gpus_per_node", q.gpus_per_node},
                {"nodes", q.nodes},
                {"largest_layer", q.largest_layer},
                {"offload", sim::offload_name(q.offload)},
                {"zero_init", q.zero_init ? 1 : 0},
                {"buffer_factor", q.buffer_factor}}},
              {"gpu_bytes", e.gpu_bytes},
              {"cpu_bytes", e.cpu_bytes},
              {"cpu_per", "node"},
              {"cpu_modelled", e.cpu_modelled},
              {"bytes_per_param", e.bytes_per_param}};
    if (!ds) {
      o["weights_bytes"] = e.weights_bytes;
      o["grads_bytes"] = e.grads_bytes;
      o["optimizer_bytes"] = e.optimizer_bytes;
    } else if (q.zero == 3) {
      o["largest_layer_bytes"] = e.largest_layer_bytes;
    }
    if (q.device_mem_gb > 0) {
      o["device_mem_gb"] = q.device_mem_gb;
      if (std::isfinite(e.max_params)) o["max_params"] = e.max_params;
      else o["max_params"] = nullptr;  // nothing grows with P on the GPU: any size fits
    }
    o["formula"] = source_json(e.formula_id);
    std::cout << o.dump() << "\n";
    return 0;
  }
  std::printf("model-state memory, source %s: P = %s parameters, ZeRO-%d, DP = %d", sim::memory_source_name(q.source),
              format_number(q.params).c_str(), q.zero, e.dp);
  if (q.mp > 1) std::printf(", MP = %d", q.mp);
  if (ds) std::printf(", %d node(s) × %d GPUs, offload %s", q.nodes, q.gpus_per_node, sim::offload_name(q.offload));
  std::printf("\n\n  per GPU          %s\n", bytes_text(e.gpu_bytes).c_str());
  std::printf("  bytes/param      %s (per GPU, per parameter of the model)\n", num(e.bytes_per_param).c_str());
  if (!ds) {
    std::printf("    weights        %s\n    gradients      %s\n    optimizer      %s\n", bytes_text(e.weights_bytes).c_str(),
                bytes_text(e.grads_bytes).c_str(), bytes_text(e.optimizer_bytes).c_str());
  } else if (q.zero == 3) {
    std::printf("    largest layer  %s (4 bytes per parameter, gathered whole)\n", bytes_text(e.largest_layer_bytes).c_str());
  }
  if (e.cpu_modelled)
    std::printf("  host per node    %s (buffer factor %s)\n", bytes_text(e.cpu_bytes).c_str(), num(q.buffer_factor).c_str());
  else
    std::printf("  host memory      not modelled by this source\n");
  if (q.device_mem_gb > 0) {
    if (std::isfinite(e.max_params))
      std::printf("  largest model    %s parameters fit in %s GB per GPU\n", format_number(e.max_params).c_str(),
                  num(q.device_mem_gb).c_str());
    else
      std::printf("  largest model    any: nothing on the GPU grows with the model\n");
  }
  std::printf("\n");
  print_source(e.formula_id);
  return 0;
}

int print_sim_collective(const sim::WidgetValues& v, bool json) {
  const auto op = static_cast<sim::Collective>(v.get_int("op"));
  const int n = v.get_int("N");
  const bool in_network = v.get_int("in_network") != 0;
  const double algbw = v.get("algbw_gbs");
  if (in_network && op != sim::Collective::AllReduce)
    return fail("collective", std::string("--in_network applies to allreduce (SHARP/NVLS reduce in the switch); got --op ") +
                                  sim::collective_op_name(op));
  const double factor = sim::busbw_factor(op, n, in_network);
  const double nccl = sim::nccl_tests_busbw_factor(op, n);
  const char* id = sim::collective_formula_id(op, in_network);
  if (json) {
    Json o = {{"op", sim::collective_op_name(op)}, {"N", n},
              {"in_network", in_network}, {"busbw_factor", factor},
              {"nccl_tests_busbw_factor", nccl}};
    if (algbw > 0) {
      o["algbw_gbs"] = algbw;
      o["busbw_gbs"] = algbw * factor;
      o["nccl_tests_busbw_gbs"] = algbw * nccl;
    } else {
      o["algbw_gbs"] = nullptr;
      o["busbw_gbs"] = nullptr;
    }
    o["formula"] = source_json(id);
    std::cout << o.dump() << "\n";
    return 0;
  }
  std::printf("%s%s on n = %d ranks\n\n  busBw factor     %s\n", sim::collective_op_label(op),
              in_network ? " (in-network)" : "", n, num(factor).c_str());
  if (in_network) std::printf("  nccl-tests prints algBw × %s for it all the same\n", num(nccl).c_str());
  if (algbw > 0) {
    std::printf("  algBw            %s GB/s\n  busBw            %s GB/s\n", num(algbw).c_str(), num(algbw * factor).c_str());
    if (in_network) std::printf("  nccl-tests busBw %s GB/s\n", num(algbw * nccl).c_str());
  }
  std::printf("\n");
  print_source(id);
  return 0;
}

int print_sim_checkpoint(const sim::WidgetValues& v, bool json) {
  const double c = v.get("cost_s"), m = v.get("mtbf_s");
  const double young = sim::young_interval_s(c, m), daly = sim::daly_interval_s(c, m);
  if (json) {
    Json o = {{"cost_s", c},       {"mtbf_s", m},
              {"young_s", young},  {"daly_s", daly},
              {"daly_regime", c >= 2 * m ? "C >= 2M: interval = M" : "C < 2M"},
              {"formulas", Json::array({source_json("checkpoint.young"), source_json("checkpoint.daly")})}};
    std::cout << o.dump() << "\n";
    return 0;
  }
  std::printf("checkpoint interval for C = %s s per checkpoint, M = %s s between failures\n\n", num(c).c_str(),
              num(m).c_str());
  std::printf("  Young   %s s\n  Daly    %s s%s\n\n", num(young).c_str(), num(daly).c_str(),
              c >= 2 * m ? " (C >= 2M: Daly's interval is M)" : "");
  print_source("checkpoint.young");
  print_source("checkpoint.daly");
  return 0;
}

int print_sim_gradscaler(const sim::WidgetValues& v, const std::string& steps, bool json) {
  sim::GradScalerConfig cfg;
  cfg.init_scale = v.get("init_scale");
  cfg.growth_factor = v.get("growth_factor");
  cfg.backoff_factor = v.get("backoff_factor");
  cfg.growth_interval = static_cast<int64_t>(v.get("growth_interval"));
  std::vector<sim::GradScalerRun> runs;
  std::string err;
  if (!sim::parse_gradscaler_steps(steps, &runs, &err)) return fail("gradscaler", err);
  const std::vector<sim::GradScalerPoint> trace = sim::run_gradscaler(cfg, runs);
  const sim::GradScalerPoint& last = trace.back();
  if (json) {
    Json t = Json::array();
    for (const auto& p : trace)
      t.push_back({{"after_step", p.step},
                   {"run", std::to_string(p.count) + p.kind},
                   {"scale", static_cast<double>(p.scale)},
                   {"growth_tracker", p.growth_tracker},
                   {"skipped_steps", p.skipped}});
    Json o = {{"inputs",
               {{"init_scale", cfg.init_scale},
                {"growth_factor", cfg.growth_factor},
                {"backoff_factor", cfg.backoff_factor},
                {"growth_interval", cfg.growth_interval},
                {"steps", steps}}},
              {"scale", static_cast<double>(last.scale)},
              {"growth_tracker", last.growth_tracker},
              {"steps", last.step},
              {"skipped_steps", last.skipped},
              {"trace", t},
              {"formula", source_json("gradscaler")}};
    std::cout << o.dump() << "\n";
    return 0;
  }
  std::printf("GradScaler: init_scale %s, growth_factor %s, backoff_factor %s, growth_interval %lld\n\n",
              num(cfg.init_scale).c_str(), num(cfg.growth_factor).c_str(), num(cfg.backoff_factor).c_str(),
              static_cast<long long>(cfg.growth_interval));
  std::printf("  %12s  %12s  %16s  %14s  %8s\n", "after step", "run", "scale", "growth_tracker", "skipped");
  for (const auto& p : trace)
    std::printf("  %12lld  %12s  %16s  %14lld  %8lld\n", static_cast<long long>(p.step),
                (std::to_string(p.count) + (p.kind == 'o' ? " overflow" : " clean")).c_str(),
                num(static_cast<double>(p.scale)).c_str(), static_cast<long long>(p.growth_tracker),
                static_cast<long long>(p.skipped));
  std::printf("\n");
  print_source("gradscaler");
  return 0;
}

int print_sim_scaling(const sim::WidgetValues& v, bool json) {
  const double n = v.get("params"), d = v.get("tokens");
  const double flops = sim::training_flops(n, d);
  if (json) {
    Json o = {{"params", n},
              {"tokens", d},
              {"flops", flops},
              {"tokens_per_param", d / n},
              {"formulas", Json::array({source_json("scaling.flops"), source_json("scaling.tokens-per-param")})}};
    std::cout << o.dump() << "\n";
    return 0;
  }
  std::printf("N = %s parameters, D = %s tokens\n\n  training FLOPs     %s (6·N·D)\n  tokens/parameter   %s\n\n",
              format_number(n).c_str(), format_number(d).c_str(), num(flops).c_str(), num(d / n).c_str());
  print_source("scaling.flops");
  print_source("scaling.tokens-per-param");
  return 0;
}

}  // namespace dtx::cli
