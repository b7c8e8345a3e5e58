// The training-plan explorer: grouped inputs, a stacked bar of memory per GPU against the
// GPU's capacity (counted by the chosen convention: ZeRO paper, DeepSpeed or Megatron-LM),
// host memory per node, a table of traffic per parallel dimension, step time, MFU and
// warnings. Hovering a memory figure shows its formula and source. The plan is simulated
// once per change of inputs and cached; a frame only draws.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "ui/controls.h"
#include "ui/ui_env.h"
#include "sim/plan.h"
#include "text.h"
#include "widgets/widgets.h"

namespace dtx::web {

namespace {

// The memory buckets, coloured from the theme (palette().bucket, in this order).
const char* const kBucketNames[4] = {"weights", "gradients", "optimizer", "activations"};

void heading(const UiEnv& ui, const char* text) {
  ImGui::Spacing();
  if (ui.fonts.bold) ImGui::PushFont(ui.fonts.bold);
  ImGui::TextUnformatted(text);
  if (ui.fonts.bold) ImGui::PopFont();
}

void wrapped_disabled(const std::string& s) {
  ImGui::PushStyleColor(ImGuiCol_Text, color::muted());
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(s.c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
}

struct PlanWidget : Widget {
  sim::WidgetValues values = sim::WidgetValues::defaults(sim::plan_widget_kind());
  sim::PlanInput in;
  sim::PlanResult r;
  std::string tip_shown;  // the tooltip text drawn this frame, for state_json

  PlanWidget() { simulate(); }

  void simulate() {
    in = sim::plan_input_from(values);
    r = sim::simulate_plan(in);
  }

  void set_inputs(const sim::WidgetValues& v) override {
    values = v;
    simulate();
  }
  const sim::WidgetValues& inputs() const override { return values; }

  bool draw(const UiEnv& ui, double) override {
    bool changed = false;
    tip_shown.clear();
    heading(ui, "Model and cluster");
    changed |= draw_inputs(ui, values, "model,gpu,nodes,gpus_per_node,seq");
    heading(ui, "Parallelism");
    changed |= draw_inputs(ui, values, "tp,pp,dp,cp,zero,sp");
    heading(ui, "Batch and memory");
    changed |= draw_inputs(ui, values, "mbs,microbatches,recompute,flash,stage,eff");
    heading(ui, "Memory convention");
    changed |= draw_inputs(ui, values, "convention,offload");
    ImGui::Spacing();
    if (ImGui::TreeNodeEx("Model overrides (0 = the preset's)###plan-overrides", ui.coarse_pointer ? ImGuiTreeNodeFlags_FramePadding : 0)) {
      changed |= draw_inputs(ui, values, "params_b,layers,hidden,heads,kv_heads,ffn,vocab");
      ImGui::TreePop();
    }
    if (changed) simulate();

    ImGui::Spacing();
    if (!r.error.empty()) {
      text_colored(color::wrong(), ("This plan cannot run: " + r.error + ".").c_str());
      return false;
    }
    draw_summary();
    ImGui::Separator();
    heading(ui, in.first_stage ? "Memory per GPU (first pipeline stage)" : "Memory per GPU (the average GPU)");
    draw_memory(ui);
    heading(ui, "Communication per GPU per step");
    draw_traffic(ui);
    heading(ui, "Step time (an estimate)");
    draw_time(ui);
    if (!r.warnings.empty()) {
      heading(ui, "Warnings");
      for (const auto& w : r.warnings) text_colored(color::partial(), ("• " + w).c_str());
    }
    ImGui::Spacing();
    if (ImGui::TreeNodeEx("Assumptions behind the estimate###plan-assumptions", ui.coarse_pointer ? ImGuiTreeNodeFlags_FramePadding : 0)) {
      for (const std::string& a : sim::plan_assumptions(in)) wrapped_disabled("• " + a);
      ImGui::TreePop();
    }
    return false;
  }

  // The values the zeros resolved to, so "0 = the preset's" never leaves a question open.
  // Short lines: ImGui may wrap after the comma of "16,384".
  void draw_summary() const {
    const sim::ModelSpec& m = in.model;
    wrapped_disabled(std::string(m.name) + ": " + format_number(r.params / 1e9) + " B parameters, " +
                     format_number(m.layers) + " layers, sequence " + format_number(r.seq) + ".");
    wrapped_disabled(format_number(r.gpus) + " × " + in.gpu.name + ", " + format_number(in.gpus_per_node) +
                     " per node.");
    wrapped_disabled("TP " + std::to_string(in.tp) + " × PP " + std::to_string(in.pp) + " × DP " + std::to_string(in.dp) +
                     (in.dp_derived ? " (the rest)" : "") + " × CP " + std::to_string(in.cp) + " = " +
                     format_number(static_cast<double>(r.plan_gpus)) + " GPUs; " + std::to_string(r.layers_per_stage) +
                     " layers per stage.");
    wrapped_disabled(format_number(r.tokens_per_step) + " tokens per step.");
  }

  // The bar's segments: weights, gradients, optimizer and activations, or with DeepSpeed's
  // lumped count the model states and activations. `bucket` is plan_memory_formula's.
  struct Segment {
    std::string name;
    double bytes;
    ImU32 col;
    int bucket;
    const char* id;
  };
  std::vector<Segment> segments() const {
    const auto& b = palette().bucket;
    if (!r.memory_split)
      return {{"model states", r.model_states_bytes, b[0], 0, "plan-fig-states"},
              {kBucketNames[3], r.activations_bytes, b[3], 3, "plan-fig-activations"}};
    return {{kBucketNames[0], r.weights_bytes, b[0], 0, "plan-fig-weights"},
            {kBucketNames[1], r.grads_bytes, b[1], 1, "plan-fig-gradients"},
            {kBucketNames[2], r.optimizer_bytes, b[2], 2, "plan-fig-optimizer"},
            {kBucketNames[3], r.activations_bytes, b[3], 3, "plan-fig-activations"}};
  }

  void tip(const UiEnv& ui, const char* id, int bucket) {
    if (figure_tip(ui, id, sim::plan_memory_formula(in, r, bucket))) tip_shown = sim::plan_memory_formula(in, r, bucket);
  }

  void draw_memory(const UiEnv& ui) {
    const float e = em(ui);
    const std::vector<Segment> segs = segments();
    const float w = std::max(ImGui::GetContentRegionAvail().x, 4 * e);
    const float bar_h = 1.6f * e, label_h = ImGui::GetTextLineHeight() + 0.3f * e;
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("##plan-memory", ImVec2(w, bar_h + label_h));
    const bool hovered = ImGui::IsItemHovered();
    ImDrawList* dl = ImGui::GetWindowDrawList();

    const double full = std::max(r.total_bytes, r.capacity_bytes) * 1.06;
    const float to_px = static_cast<float>(w / full);
    dl->AddRectFilled(p0, ImVec2(p0.x + w, p0.y + bar_h), color::code_bg());
    float x = p0.x;
    int hovered_seg = -1;
    const float mouse_x = ImGui::GetIO().MousePos.x;
    for (size_t i = 0; i < segs.size(); ++i) {
      const float x1 = x + static_cast<float>(segs[i].bytes) * to_px;
      if (x1 > x) dl->AddRectFilled(ImVec2(x, p0.y), ImVec2(x1, p0.y + bar_h), segs[i].col);
      if (hovered && mouse_x >= x && mouse_x < x1) hovered_seg = static_cast<int>(i);
      x = x1;
    }
    const ImU32 cap_col = r.fits ? color::text() : color::wrong();
    const float cap_x = p0.x + static_cast<float>(r.capacity_bytes) * to_px;
    dl->AddLine(ImVec2(cap_x, p0.y - 0.25f * e), ImVec2(cap_x, p0.y + bar_h + 0.15f * e), cap_col, std::max(2.0f, 0.15f * e));
    const std::string cap = format_number(in.gpu.memory_gb) + " GB limit";
    const float cap_w = ImGui::CalcTextSize(cap.c_str()).x;
    const float cap_lx = std::clamp(cap_x - cap_w / 2, p0.x, p0.x + w - cap_w);
    dl->AddText(ImVec2(cap_lx, p0.y + bar_h + 0.2f * e), cap_col, cap.c_str());
    if (hovered_seg >= 0) {
      // The segment's size and share, then the formula behind it.
      const Segment& sg = segs[static_cast<size_t>(hovered_seg)];
      const double share = r.total_bytes > 0 ? sg.bytes / r.total_bytes : 0;
      tip_shown = sg.name + ": " + format_gb(sg.bytes) + " (" + format_percent(share) + " of the total)\n" +
                  sim::plan_memory_formula(in, r, sg.bucket);
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 34);
      ImGui::TextUnformatted(tip_shown.c_str());
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }

    // Verdict, then a legend that wraps on a narrow column; each entry shows its formula.
    const std::string verdict = format_gb(r.total_bytes) + " of " + format_number(in.gpu.memory_gb) + " GB: " +
                                (r.fits ? "fits, " + format_gb(r.capacity_bytes - r.total_bytes) + " free"
                                        : "over by " + format_gb(r.total_bytes - r.capacity_bytes));
    text_colored(r.fits ? color::correct() : color::wrong(), verdict.c_str());
    const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
    const float sq = 0.8f * e;
    for (size_t i = 0; i < segs.size(); ++i) {
      const std::string label = segs[i].name + " " + format_gb(segs[i].bytes);
      const float item_w = sq + 0.3f * e + ImGui::CalcTextSize(label.c_str()).x;
      if (i > 0) {
        ImGui::SameLine(0, 1.2f * e);
        if (ImGui::GetCursorScreenPos().x + item_w > right) ImGui::NewLine();
      }
      ImGui::BeginGroup();
      const ImVec2 q = ImGui::GetCursorScreenPos();
      const float dy = (ImGui::GetTextLineHeight() - sq) / 2;
      ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(q.x, q.y + dy), ImVec2(q.x + sq, q.y + dy + sq), segs[i].col);
      ImGui::Dummy(ImVec2(sq, ImGui::GetTextLineHeight()));
      ImGui::SameLine(0, 0.3f * e);
      ImGui::TextUnformatted(label.c_str());
      ImGui::EndGroup();
      tip(ui, segs[i].id, segs[i].bucket);
    }
    char act[200];
    std::snprintf(act, sizeof act, "Activations: %s per layer per microbatch × %s layers × %d in flight.",
                  format_gb(r.activation_layer_bytes).c_str(), format_number(r.memory_layers).c_str(), r.in_flight);
    wrapped_disabled(act);
    // The convention, its source, and host memory per node.
    std::string conv = std::string("Model states counted as ") + convention_title() + " (ZeRO-" +
                       std::to_string(r.memory_zero) + (r.offload != sim::Offload::None ? std::string(", ") + sim::offload_name(r.offload) + " offloaded" : "") +
                       "); hover a figure for its formula and source.";
    wrapped_disabled(conv);
    if (!r.memory_split && r.largest_layer_bytes > 0)
      wrapped_disabled("Of the model states, " + format_gb(r.largest_layer_bytes) +
                       " is the largest layer, gathered whole (4 bytes per parameter of " +
                       format_number(r.largest_layer_params) + ").");
    const std::string host = r.cpu_modelled ? "Host memory per node: " + format_gb(r.cpu_bytes_per_node) + "."
                                            : std::string("Host memory per node: not modelled by this convention.");
    ImGui::TextUnformatted(host.c_str());
    tip(ui, "plan-fig-host", 4);
  }

  const char* convention_title() const {
    switch (r.convention) {
      case sim::MemorySource::ZeroPaper: return "in the ZeRO paper";
      case sim::MemorySource::DeepSpeed: return "DeepSpeed's estimator does";
      case sim::MemorySource::DeepSpeed2023: return "DeepSpeed's estimator did before June 2024";
      case sim::MemorySource::Megatron: return "Megatron-LM's theoretical memory does";
    }
    return "";
  }

  void draw_traffic(const UiEnv& ui) const {
    const bool wide = ImGui::GetContentRegionAvail().x > 30 * em(ui);
    const int cols = wide ? 6 : 5;
    const ImGuiTableFlags flags =
        ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
    if (!ImGui::BeginTable("plan-comm", cols, flags)) return;
    ImGui::TableSetupColumn("dim");
    ImGui::TableSetupColumn("GPUs");
    ImGui::TableSetupColumn("sent");
    ImGui::TableSetupColumn("link");
    ImGui::TableSetupColumn("time");
    if (wide) ImGui::TableSetupColumn("exposed");
    ImGui::TableHeadersRow();
    for (const auto& row : r.comm) {
      ImGui::TableNextRow();
      const bool active = row.bytes > 0;
      ImGui::TableSetColumnIndex(0);
      ImGui::TextUnformatted(row.dim);
      if (ImGui::IsItemHovered() && active) ImGui::SetTooltip("%s", row.what.c_str());
      ImGui::TableSetColumnIndex(1);
      ImGui::Text("%d", row.group);
      ImGui::TableSetColumnIndex(2);
      ImGui::TextUnformatted(active ? format_bytes(row.bytes).c_str() : "—");
      ImGui::TableSetColumnIndex(3);
      if (!active) {
        ImGui::TextUnformatted("—");
      } else {
        const bool ib = row.link == sim::Link::InfiniBand;
        std::string link = wide ? std::string(sim::link_name(row.link)) + " " + format_number(row.link_gbs) + " GB/s"
                                : (ib ? "IB" : "NVLink");
        if (ib) text_colored(color::partial(), link.c_str());
        else ImGui::TextUnformatted(link.c_str());
      }
      ImGui::TableSetColumnIndex(4);
      ImGui::TextUnformatted(active ? format_seconds(row.time_s).c_str() : "—");
      if (wide) {
        ImGui::TableSetColumnIndex(5);
        ImGui::TextUnformatted(active ? format_seconds(row.exposed_s).c_str() : "—");
      }
    }
    ImGui::EndTable();
    wrapped_disabled(wide ? "Bytes each GPU sends per step. Hover a dimension for its collectives; exposed is the part not "
                            "hidden behind compute."
                          : "Bytes each GPU sends per step; IB = InfiniBand. Hover a dimension for its collectives.");
  }

  void draw_time(const UiEnv& ui) {
    double exposed = 0;
    for (const auto& row : r.comm) exposed += row.exposed_s;
    char buf[320];
    std::snprintf(buf, sizeof buf, "≈ %s per step, MFU ≈ %s, bubble %s", format_seconds(r.step_s).c_str(),
                  format_percent(r.mfu).c_str(), format_percent(r.bubble).c_str());
    ImGui::TextUnformatted(buf);
    const std::string mfu = sim::formula_with_source("plan.mfu");
    if (figure_tip(ui, "plan-fig-mfu", mfu)) tip_shown = mfu;
    std::snprintf(buf, sizeof buf,
                  "Compute %s at %s of %s (dense BF16), stretched by the bubble, plus %s of exposed communication.",
                  format_seconds(r.compute_s).c_str(), format_percent(in.efficiency).c_str(),
                  format_si(in.gpu.dense_tflops * 1e12, "FLOP/s").c_str(), format_seconds(exposed).c_str());
    wrapped_disabled(buf);
  }

  std::string describe() const override {
    std::string o = std::string(in.model.name) + " on " + std::to_string(r.gpus) + " " + in.gpu.name + " GPUs: TP " +
                    std::to_string(in.tp) + ", PP " + std::to_string(in.pp) + ", DP " + std::to_string(in.dp) + ", CP " +
                    std::to_string(in.cp) + ", ZeRO stage " + std::to_string(in.zero) + ". ";
    if (!r.error.empty()) return o + r.error;
    o += "Memory per GPU, model states counted as ";
    o += convention_title();
    if (r.memory_split)
      o += ": weights " + format_bytes(r.weights_bytes) + ", gradients " + format_bytes(r.grads_bytes) + ", optimizer " +
           format_bytes(r.optimizer_bytes);
    else
      o += ": model states " + format_bytes(r.model_states_bytes);
    o += ", activations " + format_bytes(r.activations_bytes) + "; total " + format_bytes(r.total_bytes) + " of " +
         format_bytes(r.capacity_bytes) + (r.fits ? ", it fits. " : ", it does not fit. ");
    o += r.cpu_modelled ? "Host memory per node " + format_bytes(r.cpu_bytes_per_node) + ". " : std::string();
    // The formulas a pointer finds by hovering, for a reader who cannot hover.
    o += "Formulas: ";
    if (r.memory_split)
      for (int b = 0; b < 3; ++b) o += sim::plan_memory_formula(in, r, b) + ". ";
    else
      o += sim::plan_memory_formula(in, r, 0) + ". ";
    if (r.cpu_modelled) o += sim::plan_memory_formula(in, r, 4) + ". ";
    o += "About " + format_seconds(r.step_s) + " per step, MFU " + format_percent(r.mfu) + ", bubble " + format_percent(r.bubble) + ".";
    for (const auto& w : r.warnings) o += " Warning: " + w;
    // The formulas' line breaks (tooltip layout) are spaces in a sentence read aloud.
    std::replace(o.begin(), o.end(), '\n', ' ');
    return o;
  }

  std::string state_json() const override {
    auto num = [](double x) {
      char b[40];
      std::snprintf(b, sizeof b, "%.9g", x);
      return std::string(b);
    };
    std::string j = "{\"kind\":\"plan\",\"step\":0,\"steps\":0,\"playing\":false";
    j += ",\"model\":" + json_str(in.model.id) + ",\"gpu\":" + json_str(in.gpu.id);
    j += ",\"gpus\":" + std::to_string(r.gpus) + ",\"plan_gpus\":" + std::to_string(r.plan_gpus);
    j += ",\"tp\":" + std::to_string(in.tp) + ",\"pp\":" + std::to_string(in.pp) + ",\"dp\":" + std::to_string(in.dp) +
         ",\"cp\":" + std::to_string(in.cp) + ",\"zero\":" + std::to_string(in.zero);
    if (!r.error.empty()) return j + ",\"error\":" + json_str(r.error) + "}";
    auto split = [&](double bytes) { return r.memory_split ? num(bytes / 1e9) : std::string("null"); };
    j += ",\"memory_gb\":{\"weights\":" + split(r.weights_bytes) + ",\"gradients\":" + split(r.grads_bytes) +
         ",\"optimizer\":" + split(r.optimizer_bytes) + ",\"activations\":" + num(r.activations_bytes / 1e9) +
         ",\"model_states\":" + num(r.model_states_bytes / 1e9) + "}";
    // Exact figures for comparing with `dtx sim memory` (17 digits: a double read back is the same).
    char exact[64];
    std::snprintf(exact, sizeof exact, "%.17g", r.params);
    j += ",\"params\":" + std::string(exact);
    std::snprintf(exact, sizeof exact, "%.17g", r.gpu_params);
    j += ",\"gpu_params\":" + std::string(exact);
    std::snprintf(exact, sizeof exact, "%.17g", r.model_states_bytes);
    j += ",\"model_states_bytes\":" + std::string(exact);
    std::snprintf(exact, sizeof exact, "%.17g", r.largest_layer_params);
    j += ",\"largest_layer_params\":" + std::string(exact);
    std::snprintf(exact, sizeof exact, "%.17g", r.cpu_bytes_per_node);
    j += ",\"cpu_bytes_per_node\":" + std::string(exact);
    j += std::string(",\"cpu_modelled\":") + (r.cpu_modelled ? "true" : "false");
    j += ",\"convention\":" + json_str(sim::memory_source_name(r.convention)) +
         ",\"offload\":" + json_str(sim::offload_name(r.offload)) + ",\"memory_zero\":" + std::to_string(r.memory_zero) +
         ",\"shard_group\":" + std::to_string(r.shard_group) + ",\"gpus_per_node\":" + std::to_string(in.gpus_per_node) +
         ",\"nodes\":" + std::to_string(in.nodes) + ",\"memory_formula\":" + json_str(r.memory_formula_id);
    j += ",\"tooltip\":" + json_str(tip_shown);
    j += std::string(",\"stage\":") + (in.first_stage ? "\"first\"" : "\"even\"");
    j += ",\"total_gb\":" + num(r.total_bytes / 1e9) + ",\"capacity_gb\":" + num(r.capacity_bytes / 1e9);
    j += std::string(",\"fits\":") + (r.fits ? "true" : "false");
    j += ",\"comm\":[";
    for (size_t i = 0; i < r.comm.size(); ++i) {
      const auto& c = r.comm[i];
      if (i) j += ",";
      j += "{\"dim\":" + json_str(c.dim) + ",\"bytes\":" + num(c.bytes) +
           ",\"link\":" + json_str(sim::link_name(c.link)) + ",\"time_s\":" + num(c.time_s) + "}";
    }
    j += "],\"step_time_s\":" + num(r.step_s) + ",\"mfu\":" + num(r.mfu) + ",\"bubble\":" + num(r.bubble);
    j += ",\"warnings\":[";
    for (size_t i = 0; i < r.warnings.size(); ++i) {
      if (i) j += ",";
      j += json_str(r.warnings[i]);
    }
    return j + "]}";
  }
};

}  // namespace

std::unique_ptr<Widget> make_plan_widget() { return std::make_unique<PlanWidget>(); }

}  // namespace dtx::web
