// `dtx new`: starting exercises for instructors. Each template is a whole pack that passes
// `dtx lint --warn`, with "$comment" members saying what every field does and what to change,
// so the fastest way to a new exercise is to edit a working one.
#include "new.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <nlohmann/json.hpp>

#include "expr.h"
#include "lint.h"
#include "model.h"

namespace dtx::cli {

namespace {

constexpr int kUsage = 2;

const char* kNewHelp =
    "usage: dtx new KIND ID [-o FILE] [--chapter N] [--title T]\n"
    "\n"
    "Prints a complete pack holding one starting exercise of KIND, with \"$comment\" notes that\n"
    "explain each field and what to change. It passes `dtx lint --warn` as it is.\n"
    "\n"
    "  KIND          numeric, choice, ordering, buggy-line or code\n"
    "  ID            the exercise id: lower-case letters, digits, '-' and '.', e.g. ring.my-volume\n"
    "                (the pack id is the same with '.' turned into '-')\n"
    "  -o FILE       write FILE instead of printing; an existing FILE is never overwritten\n"
    "  --chapter N   the pack's chapter number, 0 to 999 (default 99: after the shipped ones)\n"
    "  --title T     the exercise's title (default: the template's)\n"
    "\n"
    "Exit status: 0 written, 1 FILE exists or cannot be written, 2 usage error (unknown KIND,\n"
    "invalid ID, bad option).\n";

// ---------------------------------------------------------------- templates
// @ID@, @PACK_ID@, @TITLE@ and @CHAPTER@ are replaced by JSON values; @KIND@ by the kind.

const char* kPackHead = R"JSON({
  "$comment": [
    "A dtx exercise pack: one chapter in one JSON file, started with `dtx new @KIND@`.",
    "Members named \"$comment\", like this one, are notes for authors: the engine ignores them (a string or a list of strings, allowed in every object). Delete them once you know the format.",
    "\"$schema\" lets an editor complete fields when the file sits in exercises/. \"format\" is always 1. \"chapter\" orders the packs on the course map (the shipped ones are 0 to 14). \"id\" is lower-case letters, digits and '-'. \"intro\" is Markdown shown above the chapter's exercises.",
    "Check it: dtx lint FILE (add --warn for style advice). See it as a student does: dtx show ID --packs FILE --answer.",
    "Publish it: copy the file into exercises/ and add its name to exercises/index.json; the page loads it without a rebuild."
  ],
  "$schema": "schema/pack.schema.json",
  "format": 1,
  "chapter": @CHAPTER@,
  "id": @PACK_ID@,
  "title": @TITLE@,
  "intro": @INTRO@,
  "exercises": [
)JSON";

const char* kPackTail = R"JSON(
  ]
}
)JSON";

// Said once per exercise, whatever its kind.
const char* kCommonComment = R"JSON(        "One exercise. \"id\" is unique across all packs (lower-case letters, digits, '-' and '.'; by convention topic.name). \"type\" is numeric, choice, ordering, buggy-line or code.",
        "\"title\" is shown on the course map. \"difficulty\" is 1 (warm-up), 2 (standard) or 3 (hard). \"tags\" are free words.",
        "\"prompt\", \"hints\" and \"explanation\" are Markdown. Hints are revealed one at a time, on request; the explanation is the worked solution, shown after an answer.")JSON";

struct Template {
  const char* kind;
  const char* title;
  const char* intro;
  const char* exercise;  // the exercise object, with @COMMON@ for kCommonComment
};

const Template kTemplates[] = {
    {"numeric", "Bytes each GPU sends in a ring AllReduce",
     "A ring AllReduce cuts every GPU's buffer into N chunks. In each of N-1 reduce-scatter steps "
     "and N-1 all-gather steps, every GPU sends one chunk to its neighbour.",
     R"JSON(    {
      "$comment": [
@COMMON@,
        "In the prompt, {N} and {M} are placeholders: each student gets an instance with its own parameter values, and {expression} shows a value of it ({N-1}; {M/N:3} for 3 significant digits). Write {{ and }} for literal braces."
      ],
      "id": @ID@,
      "type": "numeric",
      "title": @TITLE@,
      "difficulty": 1,
      "tags": ["ring", "allreduce", "volume"],
      "prompt": "{N} GPUs each hold a gradient buffer of {M} GB (1 GB = 10^9 bytes) and sum their buffers with a **ring AllReduce**.\n\nHow much data does **one GPU send** over the whole AllReduce, reduce-scatter plus all-gather?",
      "params": {
        "$comment": [
          "The numbers that vary between students. Each is {\"default\": d} with either \"choices\" (a list) or \"min\" and \"max\" (with \"step\"; without it the range is continuous).",
          "Seed 0 (the default instance) uses every default; other seeds draw each parameter from its choices or range. Lint evaluates every answer at the defaults and at every corner of the ranges, so a formula that breaks at the smallest or largest value is caught before a student meets it."
        ],
        "N": {"default": 8, "choices": [4, 8, 16, 64]},
        "M": {"default": 2, "min": 0.5, "max": 16, "step": 0.5}
      },
      "derived": {
        "$comment": "Named values computed from the params, in order (each may use the ones above it). Use them in answers, mistakes and {placeholders} to keep formulas short.",
        "chunk": "M/N"
      },
      "parts": [
        {
          "$comment": [
            "A numeric exercise asks for one or more parts, each graded on its own. \"id\" names the part in {answer.sent}; \"label\" is shown by the input box.",
            "\"answer\" is an expression over the params and derived values (+ - * / ^ and ceil floor round sqrt log log2 log10 exp abs min max if). Its value is in \"unit\"; students may answer in any unit of the same kind (\"3500 MB\"), and bits given for bytes are spotted and explained."
          ],
          "id": "sent",
          "label": "Data one GPU sends",
          "answer": "2*(N-1)*chunk",
          "unit": "GB",
          "tolerance": {
            "$comment": "Correct within \"rel\" of the answer (0.01 = 1%) or within \"abs\" (in the part's unit). Give \"abs\" when an answer can be 0.",
            "rel": 0.01
          },
          "mistakes": [
            {
              "$comment": "Wrong answers students really give, each with the message shown when a student's number matches it. The engine itself recognises answers off by 2x, 8x (bits vs bytes), 1000x and 1024x; list the slips particular to this question.",
              "answer": "(N-1)*chunk",
              "message": "That is the reduce-scatter phase alone: {N-1} steps of one {chunk:3} GB chunk. The all-gather phase sends as much again."
            },
            {
              "answer": "2*(N-1)*M",
              "message": "Each step sends one chunk, not the whole buffer: the buffer is cut into {N} chunks of {chunk:3} GB."
            },
            {
              "answer": "2*M",
              "message": "Close: a GPU never sends the chunk it ends up owning, so each phase has {N-1} steps, not {N}."
            }
          ]
        }
      ],
      "hints": [
        "The ring cuts each buffer into N chunks, and in every step each GPU sends exactly one chunk to its neighbour.",
        "Reduce-scatter takes N-1 steps and all-gather takes N-1 more."
      ],
      "explanation": "Each buffer is cut into N = {N} chunks of M/N = {chunk:3} GB. Reduce-scatter takes N-1 = {N-1} steps and all-gather {N-1} more, and in every step each GPU sends one chunk:\n\n2 (N-1) M / N = 2 × {N-1} × {chunk:3} GB = **{answer:4} GB**.\n\nThat stays just under 2M however many GPUs there are, which is why the ring scales: adding GPUs does not add bytes per GPU."
    })JSON"},

    {"choice", "The collective before a ZeRO-3 forward pass",
     "ZeRO stage 3 shards the parameters, the gradients and the optimizer state over the "
     "data-parallel GPUs, and gathers each layer's parameters only while it is being used.",
     R"JSON(    {
      "$comment": [
@COMMON@,
        "A choice exercise: one correct option, or several with \"multiple\": true (the student ticks every correct one and earns the fraction of options judged rightly). \"shuffle\" (default true) shows the options in a different order for each instance."
      ],
      "id": @ID@,
      "type": "choice",
      "title": @TITLE@,
      "difficulty": 2,
      "tags": ["zero", "collectives"],
      "prompt": "A model is trained with **ZeRO stage 3** over 64 data-parallel GPUs, so each GPU stores only 1/64 of every layer's parameters.\n\nWhich collective runs just **before a layer's forward pass**?",
      "multiple": false,
      "shuffle": true,
      "options": [
        {
          "$comment": "Each option has a \"text\" (Markdown), \"correct\" (true on the right ones; false when left out) and \"feedback\", shown when the student picks it: say why a wrong option is wrong, that is where students learn. \"fixed\": true keeps an option in its place (for \"None of the above\").",
          "text": "An all-gather of the layer's parameter shards",
          "correct": true,
          "feedback": "Each GPU holds one shard and needs the whole layer for a moment, so the shards are gathered, used, and freed again."
        },
        {
          "text": "A reduce-scatter of the layer's gradients",
          "feedback": "A reduce-scatter does run for this layer, but in the backward pass, once its gradients exist. Before the forward pass there are no gradients yet."
        },
        {
          "text": "An all-reduce of the layer's parameters",
          "feedback": "An all-reduce sums. Nothing is to be summed here: each GPU holds a different slice and needs the others' slices, which is a gather."
        },
        {
          "text": "A broadcast of the whole model from rank 0",
          "feedback": "Rank 0 would have to hold the whole model, which is what ZeRO-3 avoids, and every step would move the whole model instead of one layer at a time."
        }
      ],
      "hints": [
        "Before the forward pass a GPU has only its own 1/64 slice of the layer. What does it need from the others, and does anything have to be summed?"
      ],
      "explanation": "ZeRO-3 shards the parameters themselves. For each layer the forward pass first **all-gathers** the shards into the full weights, computes, and frees them. The backward pass gathers them again, then **reduce-scatters** the gradients so that each GPU keeps the summed gradient of its own shard only. Per step that is two all-gathers and one reduce-scatter of the model's size: about 1.5 times the traffic of the all-reduce in plain data parallelism."
    })JSON"},

    {"ordering", "One mixed-precision step with loss scaling",
     "Mixed precision runs the forward and backward passes in 16-bit floats and keeps FP32 "
     "master weights for the update. With FP16, a loss scale keeps small gradients from "
     "underflowing to zero.",
     R"JSON(    {
      "$comment": [
@COMMON@,
        "An ordering exercise: write \"items\" in the correct order; students see them shuffled (never already in order) and earn credit for the longest run already in the right relative order. \"feedback\" (optional, one per item, in the same order) is shown for the first item a student misplaces.",
        "Make each step's place unambiguous: two steps that could be swapped make a correct answer look wrong."
      ],
      "id": @ID@,
      "type": "ordering",
      "title": @TITLE@,
      "difficulty": 2,
      "tags": ["mixed-precision", "loss-scaling"],
      "prompt": "Put the steps of one **FP16 mixed-precision** training step with **dynamic loss scaling** in order, from the forward pass to weights that are ready for the next step.",
      "items": [
        "Forward pass in FP16, with the FP16 copy of the weights",
        "Multiply the loss by the loss scale S",
        "Backward pass: FP16 gradients, S times larger than the true ones",
        "Unscale the gradients (divide by S, in FP32) and check them for inf or NaN",
        "If nothing overflowed, run the optimizer step on the FP32 master weights; otherwise skip it and lower S",
        "Copy the updated master weights into the FP16 copy for the next forward pass"
      ],
      "feedback": [
        "Everything starts with the forward pass: there is no loss to scale before it.",
        "The loss is scaled after the forward pass and before the backward pass, so every gradient the backward pass computes comes out S times larger.",
        "The backward pass needs the scaled loss: scaling it is what lifts small gradients above FP16's underflow.",
        "Gradients must be unscaled before the optimizer uses them, and checked before a step is taken on them.",
        "The optimizer step uses the unscaled, checked gradients, so it comes after the check and before the copy.",
        "The FP16 copy can only be refreshed once the master weights have been updated: it is the last step."
      ],
      "hints": [
        "Follow the data: the loss exists only after the forward pass, and gradients only after the backward pass.",
        "The optimizer must never see gradients that are still multiplied by S or that overflowed."
      ],
      "explanation": "The forward pass produces the loss; scaling it by S before the backward pass makes every gradient S times larger, so small values survive FP16. The gradients are then unscaled in FP32 and checked: an overflow means S was too large, so the step is skipped and S lowered. Otherwise the optimizer updates the FP32 master weights, and the FP16 copy is refreshed from them for the next forward pass."
    })JSON"},

    {"buggy-line", "Find the bug: ring AllReduce time",
     "The alpha-beta model charges each step of a collective a start-up latency alpha plus the "
     "time to push its data through one link.",
     R"JSON(    {
      "$comment": [
@COMMON@,
        "A buggy-line exercise: the student clicks the line(s) with a bug. \"code\" is a list of lines (numbered from 1 on the page). \"bugs\" gives each buggy line with the message shown when it is found; \"decoys\" are lines that look suspicious but are right, with the message shown when one is clicked. \"select\" is how many lines the student clicks (default: the number of bugs).",
        "\"language\" names the code's language for highlighting."
      ],
      "id": @ID@,
      "type": "buggy-line",
      "title": @TITLE@,
      "difficulty": 1,
      "tags": ["ring", "alpha-beta"],
      "prompt": "This function estimates the time of a ring AllReduce of `M_bytes` over `N` GPUs with the alpha-beta model: every step costs a start-up latency `alpha_s` plus the time to push one chunk through a link of `bw_bytes_per_s` (one direction).\n\nClick the line with the bug.",
      "language": "javascript",
      "code": [
        "function ringAllReduceSeconds(M_bytes, N, bw_bytes_per_s, alpha_s) {",
        "  const chunk = M_bytes / N;",
        "  const steps = 2 * N;",
        "  const perStep = alpha_s + chunk / bw_bytes_per_s;",
        "  return steps * perStep;",
        "}"
      ],
      "bugs": [
        {
          "line": 3,
          "message": "A ring AllReduce takes 2(N-1) steps: N-1 for reduce-scatter and N-1 for all-gather, because a GPU never sends the chunk it ends up owning. Fix: `const steps = 2 * (N - 1);`"
        }
      ],
      "decoys": [
        {"line": 2, "message": "The buffer is cut into N chunks of M/N bytes, one per GPU: this line is right."},
        {"line": 4, "message": "Each step pays the latency once and pushes one chunk through one link: this line is right."}
      ],
      "select": 1,
      "hints": [
        "Check each quantity against the ring algorithm: how big is a chunk, how many steps are there, and what does one step cost?"
      ],
      "explanation": "The ring cuts the buffer into N chunks (line 2) and runs N-1 reduce-scatter steps and N-1 all-gather steps, each costing alpha plus one chunk over one link (line 4). Line 3 counts 2N steps instead of 2(N-1): it overstates both the latency term and the bandwidth term, by 2 steps' worth, which matters most for small N (a third too much at N = 4)."
    })JSON"},

    {"code", "Write it: the pipeline bubble",
     "A pipeline schedule such as GPipe or 1F1B leaves each stage idle while the pipeline fills "
     "and drains: the bubble.",
     R"JSON(    {
      "$comment": [
@COMMON@,
        "A code exercise: the student writes a JavaScript function, run in the browser with a time limit. \"function\" and \"args\" give its signature; \"returns\" is shown next to it (a unit or a short description); \"starter\" is the code the editor opens with.",
        "The expected value of a case is \"expected\" (an expression over the args and params) or, without it, what \"reference\" returns; give both and lint checks that they agree. \"tolerance\" applies to numbers (default rel 1e-6).",
        "\"cases\" are always run (a case may give its own \"expected\" and a \"note\" shown with it); \"generate\" adds \"count\" cases drawn from \"ranges\" (one per arg: \"choices\", or \"min\"/\"max\"/\"step\").",
        "\"wrong\" lists plausible wrong implementations: lint runs them (with node) and fails if one passes every case, which proves the cases catch those mistakes."
      ],
      "id": @ID@,
      "type": "code",
      "title": @TITLE@,
      "difficulty": 2,
      "tags": ["pipeline", "bubble"],
      "prompt": "A pipeline of `p` stages runs `m` equal microbatches per training step with a GPipe schedule: every microbatch takes the same time on every stage, forward and backward together.\n\nWrite `bubbleFraction(p, m)`: the fraction of the step that each stage spends **idle**, a number from 0 to 1.",
      "language": "javascript",
      "function": "bubbleFraction",
      "args": ["p", "m"],
      "returns": "fraction of the step spent idle (0 to 1)",
      "starter": "function bubbleFraction(p, m) {\n  // p: pipeline stages, m: microbatches per step\n  return 0;\n}",
      "expected": "(p-1)/(m+p-1)",
      "reference": "function bubbleFraction(p, m) {\n  return (p - 1) / (m + p - 1);\n}",
      "cases": [
        {"args": [4, 8]},
        {"$comment": "Edge cases with a note say what they test.", "args": [1, 8], "note": "one stage: no pipeline, no bubble"},
        {"args": [8, 1], "note": "one microbatch: each stage works 1 slot of 8"}
      ],
      "generate": {
        "count": 4,
        "ranges": {"p": {"choices": [2, 4, 8, 16]}, "m": {"min": 1, "max": 64, "step": 1}}
      },
      "tolerance": {"rel": 1e-6},
      "wrong": [
        {
          "note": "idle time divided by the busy time m instead of the whole step",
          "code": "function bubbleFraction(p, m) {\n  return (p - 1) / m;\n}"
        },
        {
          "note": "p idle slots instead of p - 1",
          "code": "function bubbleFraction(p, m) {\n  return p / (m + p);\n}"
        }
      ],
      "hints": [
        "Count time in slots: one slot is one microbatch on one stage. Each stage is busy for m slots.",
        "The last stage starts p-1 slots after the first, and the first finishes p-1 slots before the last. How long is the whole step?"
      ],
      "explanation": "In slots of one microbatch on one stage, each stage is busy for m slots, and the step lasts m + p - 1 slots: the last stage starts p - 1 slots late. The idle fraction is (p - 1) / (m + p - 1): 3/11, about 27%, for p = 4 and m = 8. More microbatches shrink it, which is why pipelines want m well above p."
    })JSON"},
};

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

std::string json_string(const std::string& s) { return nlohmann::json(s).dump(); }

std::string kinds_list() {
  std::string s;
  for (const auto& k : new_kinds()) s += (s.empty() ? "" : ", ") + k;
  return s;
}

int usage_error(const std::string& msg) {
  std::cerr << "dtx new: " << msg << "\n\n" << kNewHelp;
  return kUsage;
}

}  // namespace

const std::vector<std::string>& new_kinds() {
  static const std::vector<std::string> kinds = [] {
    std::vector<std::string> k;
    for (const auto& t : kTemplates) k.push_back(t.kind);
    return k;
  }();
  return kinds;
}

std::string new_pack_text(const std::string& kind, const std::string& id, int chapter,
                          const std::string& title) {
  for (const auto& t : kTemplates) {
    if (kind != t.kind) continue;
    std::string pack_id = replace_all(id, ".", "-");
    std::string text = std::string(kPackHead) + replace_all(t.exercise, "@COMMON@", kCommonComment) + kPackTail;
    text = replace_all(text, "@KIND@", t.kind);
    text = replace_all(text, "@CHAPTER@", std::to_string(chapter));
    text = replace_all(text, "@PACK_ID@", json_string(pack_id));
    text = replace_all(text, "@INTRO@", json_string(t.intro));
    text = replace_all(text, "@TITLE@", json_string(title.empty() ? t.title : title));
    return replace_all(text, "@ID@", json_string(id));
  }
  return "";
}

int cmd_new(const std::vector<std::string>& args) {
  std::vector<std::string> positional;
  std::string out_file, title;
  bool have_title = false;
  int chapter = 99;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      std::cout << kNewHelp;
      return 0;
    }
    if (a == "-o" || a == "--output" || a == "--chapter" || a == "--title") {
      if (i + 1 >= args.size()) return usage_error(a + " needs a value");
      const std::string& v = args[++i];
      if (a == "--chapter") {
        char* end = nullptr;
        long n = std::strtol(v.c_str(), &end, 10);
        if (v.empty() || *end || n < 0 || n > 999)
          return usage_error("--chapter expects a whole number from 0 to 999, got '" + v + "'");
        chapter = static_cast<int>(n);
      } else if (a == "--title") {
        title = v;
        have_title = true;
      } else {
        out_file = v;
      }
    } else if (a.size() > 1 && a[0] == '-') {
      return usage_error("unknown option " + a);
    } else {
      positional.push_back(a);
    }
  }
  if (positional.size() != 2)
    return usage_error("expected KIND and ID (" + std::to_string(positional.size()) + " given), e.g. "
                       "`dtx new numeric ring.my-volume`");
  const std::string& kind = positional[0];
  const std::string& id = positional[1];
  std::string text = new_pack_text(kind, id, chapter, title);
  if (text.empty()) {
    std::string guess = closest_match(kind, new_kinds());
    return usage_error("unknown kind '" + kind + "'" + (guess.empty() ? "" : " (did you mean '" + guess + "'?)") +
                       "; expected one of: " + kinds_list());
  }
  if (have_title && title.find_first_not_of(" \t\n") == std::string::npos)
    return usage_error("--title expects a non-empty title");

  // The engine's own loader judges the id (and checks the template), so `dtx new` and
  // `dtx lint` can never disagree about what is valid.
  std::string name = out_file.empty() ? "(new pack)" : out_file;
  LoadResult loaded = load_pack(text, name);
  for (const char* where : {"/exercises/0/id", "/id"})  // the exercise's own message first
    for (const auto& d : loaded.diagnostics)
      if (d.pointer == where) return usage_error("invalid ID '" + id + "': " + d.message);
  std::vector<Diagnostic> problems = loaded.diagnostics;
  if (loaded.pack) {
    Library lib;
    lib.packs.push_back(*loaded.pack);
    LintOptions options;
    options.warnings = true;
    auto more = lint_library(lib, options);
    problems.insert(problems.end(), more.begin(), more.end());
  }
  if (!problems.empty()) {  // a broken template is our bug, not the user's
    for (const auto& d : problems) std::cerr << format_diagnostic(d) << "\n";
    std::cerr << "dtx new: internal error: the " << kind << " template does not pass lint\n";
    return 1;
  }

  if (out_file.empty()) {
    std::cout << text;
    return 0;
  }
  // "x": fail instead of replacing a file that already exists, atomically.
  std::FILE* f = std::fopen(out_file.c_str(), "wx");
  if (!f) {
    if (errno == EEXIST)
      std::cerr << "dtx new: " << out_file << " already exists; not overwriting it (choose another "
                   "FILE or remove it first)\n";
    else
      std::cerr << "dtx new: cannot write " << out_file << ": " << std::strerror(errno) << "\n";
    return 1;
  }
  bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  ok &= std::fclose(f) == 0;
  if (!ok) {
    std::cerr << "dtx new: writing " << out_file << " failed: " << std::strerror(errno) << "\n";
    return 1;
  }
  const char* article = kind == "ordering" ? "an " : "a ";
  std::cout << "wrote " << out_file << ": " << article << kind << " exercise '" << id << "' in chapter " << chapter
            << "\n\nnext:\n"
            << "  edit it (the \"$comment\" notes explain each field)\n"
            << "  dtx lint --warn " << out_file << "\n"
            << "  dtx show " << id << " --packs " << out_file << " --answer\n";
  return 0;
}

}  // namespace dtx::cli
