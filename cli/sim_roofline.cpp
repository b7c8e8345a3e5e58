// `dtx sim roofline` and `dtx sim hierarchy`: the figures behind the roofline and the
// bandwidth-hierarchy widgets, as text for a person or JSON for a script.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "figures.h"
#include "sim.h"
#include "sim/roofline.h"

namespace dtx::cli {

namespace {

using Json = nlohmann::ordered_json;

std::string num(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

// Left-aligned to `width` characters (printf's %-Ns counts bytes, and ↔, ×, µ are several).
std::string pad(const std::string& s, size_t width) {
  size_t chars = 0;
  for (unsigned char c : s) chars += (c & 0xC0) != 0x80;
  return chars >= width ? s : s + std::string(width - chars, ' ');
}

void row(const char* name, const std::string& value) {
  std::printf("  %-14s %s\n", name, value.c_str());
}

Json cost_json(const sim::OpCost& c) {
  return {{"label", c.label},
          {"flops", c.flops},
          {"bytes", c.bytes},
          {"intensity", c.intensity},
          {"attainable_flops", c.attainable_flops},
          {"bound", sim::bound_name(c.bound)},
          {"compute_time_s", c.compute_time_s},
          {"memory_time_s", c.memory_time_s},
          {"time_s", c.time_s}};
}

}  // namespace

int print_sim_roofline(const sim::WidgetValues& v, bool json) {
  sim::RooflineResult r = sim::run_roofline(v);
  if (!r.error.empty()) {
    std::cerr << "dtx sim roofline: " << r.error << "\n";
    return 1;
  }
  const bool all = r.traffic == sim::Traffic::All;
  const sim::OpCost& c = r.selected;
  const bool decode = r.op == "decode";
  if (json) {
    Json j = {{"kind", "roofline"},
              {"gpu", r.gpu->id},
              {"gpu_name", r.gpu->name},
              {"peak_flops", r.roof.peak_flops},
              {"hbm_bytes_per_s", r.roof.hbm_bytes_per_s},
              {"ridge_flop_per_byte", r.roof.ridge_flop_per_byte},
              {"traffic", all ? "all" : "reads"},
              {"op", r.op}};
    Json sel = cost_json(c);
    for (auto it = sel.begin(); it != sel.end(); ++it) j[it.key()] = it.value();
    j["fraction_of_peak"] = c.attainable_flops / r.roof.peak_flops;
    // Infinity (no batch reaches the ridge) prints as null.
    j["decode_batch_at_ridge"] = r.batch_at_ridge;
    Json pts = Json::array();
    for (const auto& p : r.points) {
      Json pj = {{"id", p.id}};
      Json cj = cost_json(p.cost);
      for (auto it = cj.begin(); it != cj.end(); ++it) pj[it.key()] = it.value();
      pj["selected"] = p.selected;
      pts.push_back(pj);
    }
    j["points"] = pts;
    std::cout << j.dump() << "\n";
    return 0;
  }
  std::printf("Roofline of the %s (dense BF16; GB = 10^9 bytes)\n", r.gpu->name);
  row("peak", format_si(r.roof.peak_flops, "FLOP/s"));
  row("HBM bandwidth", num("%.0f GB/s", r.roof.hbm_bytes_per_s / 1e9));
  row("ridge point", num("%.2f FLOP/byte", r.roof.ridge_flop_per_byte) + " (peak / bandwidth)");
  std::printf("\n%s (bytes counted: %s)\n", c.label.c_str(),
              all ? "inputs read and outputs written" : "inputs read only");
  row("FLOPs", num("%.4g", c.flops) + " (" + format_si(c.flops, "FLOP") + ")");
  row("bytes", num("%.4g", c.bytes) + " (" + format_si(c.bytes, "B") + ")");
  row("intensity", num("%.4g FLOP/byte", c.intensity) + num(", %.3g× the ridge", c.intensity / r.roof.ridge_flop_per_byte));
  row("attainable", format_si(c.attainable_flops, "FLOP/s") + num(" (%.3g%% of peak)", 100 * c.attainable_flops / r.roof.peak_flops));
  row("bound", sim::bound_name(c.bound));
  row("time", format_seconds(c.time_s) + " (compute " + format_seconds(c.compute_time_s) + ", memory " + format_seconds(c.memory_time_s) + ")");
  if (decode) {
    if (std::isinf(r.batch_at_ridge))
      row("ridge batch", "never: with this d the activations keep it below the ridge");
    else
      row("ridge batch", num("%.2f", r.batch_at_ridge) + " sequences make it compute-bound");
  }
  std::printf("\nall points:\n  %-10s %12s %16s  %-8s %s\n", "id", "FLOP/byte", "attainable", "bound", "operation");
  for (const auto& p : r.points)
    std::printf("%s %-10s %12.4g %16s  %-8s %s\n", p.selected ? "*" : " ", p.id, p.cost.intensity,
                format_si(p.cost.attainable_flops, "FLOP/s").c_str(), sim::bound_name(p.cost.bound), p.cost.label.c_str());
  return 0;
}

int print_sim_hierarchy(const sim::WidgetValues& v, bool json) {
  sim::Hierarchy h = sim::run_hierarchy(v);
  if (!h.error.empty()) {
    std::cerr << "dtx sim hierarchy: " << h.error << "\n";
    return 1;
  }
  if (json) {
    Json links = Json::array();
    for (const auto& l : h.links)
      links.push_back({{"id", l.id},
                       {"name", l.name},
                       {"link", l.link},
                       {"bw_gbs", l.bw_gbs},
                       {"quoted_gbs", l.quoted_gbs},
                       {"ratio_to_hbm", l.ratio_to_hbm},
                       {"quoted_ratio_to_hbm", l.quoted_ratio_to_hbm},
                       {"time_s", l.time_s}});
    Json zoom = Json::array();
    for (const auto& z : h.zoom)
      zoom.push_back({{"id", z.id},
                      {"children", z.children},
                      {"child", z.child},
                      {"gpus", z.gpus},
                      {"memory_bytes", z.memory_bytes},
                      {"peak_flops", z.peak_flops},
                      {"link", h.links[z.link].id}});
    Json j = {{"kind", "hierarchy"},
              {"gpu", h.gpu->id},
              {"gpu_name", h.gpu->name},
              {"bytes", h.bytes},
              {"oversub", h.oversubscription},
              {"level", sim::kZoomLevelIds[h.level]},
              {"nvlink_over_network", h.nvlink_over_network},
              {"quoted_nvlink_over_network", h.quoted_nvlink_over_network},
              {"links", links},
              {"zoom", zoom}};
    std::cout << j.dump() << "\n";
    return 0;
  }
  std::printf("Bandwidth hierarchy of a cluster of %s, moving %s (%g bytes) one way; per GPU, per direction\n\n",
              h.gpu->name, format_si(h.bytes, "B").c_str(), h.bytes);
  std::printf("  %s%s %10s %10s %12s\n", pad("between", 27).c_str(), pad("link", 33).c_str(), "GB/s", "× HBM", "time");
  for (const auto& l : h.links)
    std::printf("  %s%s %10.4g %8.3g %12s\n", pad(l.name, 27).c_str(), pad(l.link, 33).c_str(), l.bw_gbs, l.ratio_to_hbm,
                format_seconds(l.time_s).c_str());
  const sim::LinkLevel& nv = h.links[1];
  std::printf("\nNVLink is quoted as %.4g GB/s, both directions together (%.2g× HBM); one way it is %.4g.\n",
              nv.quoted_gbs, nv.quoted_ratio_to_hbm, nv.bw_gbs);
  std::printf("NVLink → network: %.3g× slower per direction (%.3g× if the two-way figure is compared with a one-way one).\n",
              h.nvlink_over_network, h.quoted_nvlink_over_network);
  std::printf("Across pods: the layer above the pods is 1:%g oversubscribed.\n\n", h.oversubscription);
  std::printf("  %-9s %-14s %8s %12s %18s  %s\n", "level", "contains", "GPUs", "HBM", "peak (dense BF16)", "slowest link inside");
  for (size_t i = 0; i < h.zoom.size(); ++i) {
    const auto& z = h.zoom[i];
    std::string contains = z.children ? std::to_string(z.children) + " " + z.child + (z.children > 1 ? "s" : "") : "-";
    std::printf("%s %-9s %-14s %8ld %12s %18s  %s\n", static_cast<int>(i) == h.level ? "*" : " ", z.id, contains.c_str(),
                z.gpus, format_si(z.memory_bytes, "B").c_str(), format_si(z.peak_flops, "FLOP/s").c_str(), h.links[z.link].link);
  }
  return 0;
}

}  // namespace dtx::cli
