// `dtx sim pipeline`: a pipeline schedule's timeline and bubble figures, as text for a person
// (figures, a table per stage and an ASCII Gantt chart) or JSON for a script (everything,
// including every op). DualPipe's F&B blocks show as "F4&" before the block's B.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "figures.h"
#include "sim.h"
#include "sim/pipeline.h"
#include "sim/sources.h"

namespace dtx::cli {

namespace {

using Json = nlohmann::ordered_json;

constexpr int kMaxColumns = 120;

std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string percent(double fraction) { return format_percent(fraction, 4); }  // as the Lab's pipeline

// An op's label as the chart and the list print it: an F&B block's F ends in "&".
std::string op_text(const sim::PipelineResult& r, const sim::PipeOp& op) {
  std::string label = sim::pipe_op_label(r, op);
  if (op.overlapped && op.kind == sim::PipeOpKind::F) label += '&';
  return label;
}

// The Gantt chart as a character grid when every op starts and ends on a multiple of the
// shortest op and the grid fits in kMaxColumns. With room, each op shows its label
// ("F3", "B12"); otherwise one letter per column. Returns false when no grid fits.
bool print_grid(const sim::PipelineResult& r) {
  double quantum = 0;
  size_t widest = 0;
  for (const sim::PipeOp& op : r.ops) {
    const double d = op.end_ms - op.start_ms;
    if (d > 0 && (quantum == 0 || d < quantum)) quantum = d;
    widest = std::max(widest, op_text(r, op).size());
  }
  if (quantum <= 0) return false;
  auto cell = [&](double t, long* out) {
    const double x = t / quantum;
    *out = std::lround(x);
    return std::fabs(x - static_cast<double>(*out)) <= 1e-6 * std::max(1.0, x);
  };
  long cells = 0;
  if (!cell(r.makespan_ms, &cells) || cells <= 0) return false;
  for (const sim::PipeOp& op : r.ops) {
    long a, b;
    if (!cell(op.start_ms, &a) || !cell(op.end_ms, &b)) return false;
  }
  const int prefix = 6;  // "  12 |"
  const long label_width = static_cast<long>(widest) + 1;
  long width;
  if (prefix + cells * label_width <= kMaxColumns) width = label_width;
  else if (prefix + cells <= kMaxColumns) width = 1;
  else return false;

  std::printf("\ntimeline (one %s = %s ms; . idle; microbatches numbered from 1%s):\n",
              width == 1 ? "column" : "cell", num(quantum).c_str(),
              width == 1 ? "; - continues the op on its left" : "");
  for (int s = 0; s < r.in.p; ++s) {
    std::string line(static_cast<size_t>(cells * width), ' ');
    for (long c = 0; c < cells; ++c) line[static_cast<size_t>(c * width)] = '.';
    for (int i = r.stage_begin[s]; i < r.stage_begin[s + 1]; ++i) {
      const sim::PipeOp& op = r.ops[i];
      long a, b;
      cell(op.start_ms, &a);
      cell(op.end_ms, &b);
      if (b <= a) continue;  // a zero-length W
      const size_t from = static_cast<size_t>(a * width), to = static_cast<size_t>(b * width);
      std::fill(line.begin() + from, line.begin() + to, width == 1 ? '-' : ' ');
      if (width == 1) {
        line[from] = sim::pipe_op_kind_name(op.kind)[0];
      } else {
        const std::string label = op_text(r, op);
        line.replace(from, label.size(), label);
      }
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    std::printf("%4d |%s\n", s, line.c_str());
  }
  return true;
}

// Too long for a grid: each stage's ops with their times, idle gaps named, wrapped to
// kMaxColumns.
void print_list(const sim::PipelineResult& r) {
  std::printf("\ntimeline (too long for a %d-column chart; op start-end in ms, microbatches numbered from 1):\n",
              kMaxColumns);
  for (int s = 0; s < r.in.p; ++s) {
    std::string line = "stage " + std::to_string(s) + ":";
    auto add = [&](const std::string& item) {
      if (line.size() + 1 + item.size() > static_cast<size_t>(kMaxColumns)) {
        std::printf("%s\n", line.c_str());
        line = "   ";
      }
      line += ' ';
      line += item;
    };
    double t = 0;
    for (int i = r.stage_begin[s]; i < r.stage_begin[s + 1]; ++i) {
      const sim::PipeOp& op = r.ops[i];
      if (op.start_ms > t) add("(idle " + num(op.start_ms - t) + ")");
      std::string item = op_text(r, op);
      item += ' ';
      item += num(op.start_ms);
      item += '-';
      item += num(op.end_ms);
      add(item);
      t = op.end_ms;
    }
    if (r.makespan_ms > t) add("(idle " + num(r.makespan_ms - t) + ")");
    std::printf("%s\n", line.c_str());
  }
}

// The source each schedule's figures follow.
const char* formula_source(sim::PipeSchedule s) {
  const sim::SourcedFormula* f = sim::find_formula(sim::pipe_schedule_formula_id(s));
  return f ? f->source : "";
}

Json result_json(const sim::PipelineResult& r) {
  Json ops = Json::array();
  for (const sim::PipeOp& op : r.ops)
    ops.push_back({{"stage", op.stage},
                   {"microbatch", op.microbatch},
                   {"chunk", op.chunk},
                   {"kind", sim::pipe_op_kind_name(op.kind)},
                   {"start", op.start_ms},
                   {"end", op.end_ms},
                   {"label", sim::pipe_op_label(r, op)},
                   {"w_apart", op.w_apart},
                   {"overlapped", op.overlapped}});
  auto formula = [](const sim::PipelineFormula& x) {
    return Json{{"total", x.total}, {"total_text", x.total_text}, {"ideal", x.ideal}, {"ideal_text", x.ideal_text}};
  };
  const sim::PipelineInputs& in = r.in;
  return {{"schedule", sim::pipe_schedule_name(in.schedule)},
          {"inputs",
           {{"p", in.p}, {"m", in.m}, {"v", in.v}, {"group", in.group}, {"f", in.f_ms}, {"b", in.b_ms}, {"w", in.w_ms}}},
          {"time_unit", "ms"},
          {"chunks", r.chunks},
          {"params_per_stage", r.params_per_stage},
          {"group", r.group},
          {"makespan", r.makespan_ms},
          {"ideal", r.ideal_ms},
          {"bubble_total", r.bubble_total},
          {"bubble_ideal", r.bubble_ideal},
          {"formula", formula(sim::pipeline_formula(in))},
          {"formula_1f1b", formula(sim::pipeline_formula_1f1b(in.p, in.m))},
          {"idle_per_stage", r.idle_ms},
          {"busy_per_stage", r.busy_ms},
          {"peak_activations_per_stage", r.peak_activations},
          {"warmup_forwards_per_stage", r.warmup_forwards},
          {"remaining_per_stage", r.remaining_forwards},
          {"span_idle_per_stage", r.span_idle_ms},
          {"source", formula_source(in.schedule)},
          {"indexing", "stage, microbatch and chunk count from 0; labels number microbatches and chunks from 1; "
                       "dualpipe: chunk is the direction, microbatches m/2..m-1 enter at the last stage"},
          {"ops", ops}};
}

}  // namespace

namespace {

// What the schedule runs, in a line or two, under the inputs.
void print_shape(const sim::PipelineResult& r) {
  const sim::PipelineInputs& in = r.in;
  switch (in.schedule) {
    case sim::PipeSchedule::Naive:
      std::printf("  no microbatching: each stage runs the whole batch as one F of m*f = %s ms and one B of "
                  "m*(b+w) = %s ms\n",
                  num(in.m * in.f_ms).c_str(), num(in.m * (in.b_ms + in.w_ms)).c_str());
      break;
    case sim::PipeSchedule::ZbH1:
    case sim::PipeSchedule::ZbH2: std::printf("  B and W run as separate ops\n"); break;
    case sim::PipeSchedule::ZbV:
      std::printf("  2 chunks per stage in a V (stage s holds chunks s and 2p-1-s; c1 goes down, c2 comes back up);\n"
                  "  each chunk op takes 1/2: F %s ms, B %s ms, W %s ms, B and W as separate ops\n",
                  num(in.f_ms / 2).c_str(), num(in.b_ms / 2).c_str(), num(in.w_ms / 2).c_str());
      break;
    case sim::PipeSchedule::DualPipe:
      std::printf("  microbatches 1-%d enter at stage 0 and go down, %d-%d enter at stage %d and go up; every stage\n"
                  "  holds 2 of the p stages (stage s and p-1-s: 2x the parameters). \"F4&\" opens an F&B block:\n"
                  "  a forward and a full backward of the other direction run as one block of f+b+w = %s ms.\n"
                  "  B is a full backward (b+w = %s ms) except where a W follows later (then b = %s ms)\n",
                  in.m / 2, in.m / 2 + 1, in.m, in.p - 1, num(in.f_ms + in.b_ms + in.w_ms).c_str(),
                  num(in.b_ms + in.w_ms).c_str(), num(in.b_ms).c_str());
      break;
    case sim::PipeSchedule::Interleaved:
      if (r.chunks > 1) {
        std::printf("  each chunk op takes 1/v: F %s ms, B (b+w) %s ms\n", num(in.f_ms / r.chunks).c_str(),
                    num((in.b_ms + in.w_ms) / r.chunks).c_str());
        break;
      }
      std::printf("  v = 1: plain 1F1B\n");
      [[fallthrough]];
    default: std::printf("  one backward op of b + w = %s ms\n", num(in.b_ms + in.w_ms).c_str());
  }
}

// The idle a source counts inside each stage's own span (ZB-H2, ZB-V) or per stage over the
// step (DualPipe), next to what the simulation gives.
void print_source_idle(const sim::PipelineResult& r) {
  const sim::PipelineInputs& in = r.in;
  const double most = *std::max_element(r.span_idle_ms.begin(), r.span_idle_ms.end());
  if (in.schedule == sim::PipeSchedule::ZbH2)
    std::printf("  inside a stage  most idle within one stage's own span %s ms; the paper's (p-1)(f+b-2w) = %s ms\n"
                "                  (ZB-H2 drops the sync between optimizer steps, so the parallelogram's fill and\n"
                "                  drain overlap the next step; the paper assumes m >= 2p-1, w <= f and w <= b)\n",
                num(most).c_str(), num(std::max(0.0, (in.p - 1) * (in.f_ms + in.b_ms - 2 * in.w_ms))).c_str());
  if (in.schedule == sim::PipeSchedule::ZbV)
    std::printf("  inside a stage  most idle within one stage's own span %s ms; the repo's table: 0 when f = b = w\n"
                "                  (the rest of each stage's idle is the V's fill and drain, which the next step\n"
                "                  overlaps without an optimizer sync)\n",
                num(most).c_str());
  if (in.schedule == sim::PipeSchedule::DualPipe) {
    const double table = std::max(0.0, (in.p / 2 - 1) * (in.f_ms + 2 * in.b_ms - in.w_ms));
    const auto [least, worst] = std::minmax_element(r.idle_ms.begin(), r.idle_ms.end());
    std::printf("  per stage       idle %s to %s ms; DeepSeek-V3 table 2's (PP/2-1)(F&B+B-3W) = %s ms\n"
                "                  (F&B = f+b+w, B = b+w, W = w: (p/2-1)(f+2b-w))\n",
                num(*least).c_str(), num(*worst).c_str(), num(table).c_str());
    if (std::fabs(*worst - table) > 1e-9 || std::fabs(*least - table) > 1e-9)
      std::printf("                  (the simulation gives table 2's figure when f = b; here f != b)\n");
  }
}

}  // namespace

int print_sim_pipeline(const sim::WidgetValues& v, bool json) {
  const sim::PipelineResult r = sim::simulate_pipeline(sim::pipeline_inputs(v));
  if (!r.error.empty()) {
    std::cerr << "dtx sim pipeline: " << r.error << "\n";
    return 1;
  }
  if (json) {
    std::cout << result_json(r).dump() << "\n";
    return 0;
  }
  const sim::PipelineInputs& in = r.in;
  const sim::PipelineFormula f = sim::pipeline_formula(in);
  const sim::PipelineFormula g = sim::pipeline_formula_1f1b(in.p, in.m);
  std::printf("pipeline schedule %s: p = %d stages, m = %d microbatches", sim::pipe_schedule_name(in.schedule), in.p,
              in.m);
  if (in.schedule == sim::PipeSchedule::Interleaved)
    std::printf(", v = %d chunks per stage, microbatch group G = %d", in.v, r.group > 0 ? r.group : in.p);
  std::printf("\n  f = %s ms forward, b = %s ms input-gradient backward, w = %s ms weight-gradient backward\n",
              num(in.f_ms).c_str(), num(in.b_ms).c_str(), num(in.w_ms).c_str());
  print_shape(r);
  std::printf("  communication takes no time\n\n");
  std::printf("  makespan        %s ms\n", num(r.makespan_ms).c_str());
  std::printf("  ideal           %s ms per stage, m*(f+b+w)\n", num(r.ideal_ms).c_str());
  std::printf("  bubble          idle/total = %s (%s)   formula %s = %s\n", num(r.bubble_total).c_str(),
              percent(r.bubble_total).c_str(), f.total_text, num(f.total).c_str());
  std::printf("                  idle/ideal = %s (%s)   formula %s = %s\n", num(r.bubble_ideal).c_str(),
              percent(r.bubble_ideal).c_str(), f.ideal_text, num(f.ideal).c_str());
  if (in.schedule == sim::PipeSchedule::ZbH1 && std::fabs(r.bubble_ideal - f.ideal) > 1e-9)
    std::printf("                  (the paper's (p-1)(f+b-w) assumes m >= p, w <= f and w <= b)\n");
  print_source_idle(r);
  if (in.schedule != sim::PipeSchedule::GPipe && in.schedule != sim::PipeSchedule::OneFOneB)
    std::printf("  GPipe/1F1B      %s = %s, %s = %s\n", g.total_text, num(g.total).c_str(), g.ideal_text,
                num(g.ideal).c_str());
  if (r.params_per_stage != 1)
    std::printf("  parameters      %sx 1F1B's per stage\n", num(r.params_per_stage).c_str());

  std::printf("\n  stage  idle (ms)  busy (ms)  peak activations  warm-up forwards  remaining\n");
  for (int s = 0; s < in.p; ++s)
    std::printf("  %5d  %9s  %9s  %16s  %16d  %9d\n", s, num(r.idle_ms[s]).c_str(), num(r.busy_ms[s]).c_str(),
                num(r.peak_activations[s]).c_str(), r.warmup_forwards[s], r.remaining_forwards[s]);
  const char* unit = in.schedule == sim::PipeSchedule::DualPipe ? ", a chunk being a whole stage"
                     : in.schedule == sim::PipeSchedule::ZbV     ? ", a chunk counting 1/2"
                     : r.chunks > 1                              ? ", a chunk counting 1/v"
                                                                 : "";
  std::printf("  (peak activations: microbatches whose forward has run and whose last backward has not%s;\n"
              "   warm-up and remaining forwards as Megatron-LM's num_warmup_microbatches and "
              "num_microbatches_remaining)\n",
              unit);
  std::printf("  source: %s\n", formula_source(in.schedule));

  if (!print_grid(r)) print_list(r);
  return 0;
}

}  // namespace dtx::cli
