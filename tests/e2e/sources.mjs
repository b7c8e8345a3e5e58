// Issue 18 in the page: the figures the Lab's widgets draw are the source-named formulas of
// engine/sim/sources.h, the same ones `dtx sim memory | collective | pipeline` print.
// - plan explorer: the convention selector (ZeRO paper, DeepSpeed current and before June 2024,
//   Megatron-LM) and the offload choice change the model-state figure to the one `dtx sim
//   memory` gives for the same parameters, stage and GPUs, and host memory per node appears;
// - ring widget: a row for each of the 8 collectives (AllReduce in the network too) with its
//   busBw factor at the widget's N, as `dtx sim collective` computes it;
// - pipeline viewer: ZB-H2 draws, with the per-stage warm-up, remaining and span-idle figures
//   of `dtx sim pipeline`, and interleaved shows its microbatch group;
// - hovering a figure shows its formula with its source (screenshots in build/e2e/sources-*).
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { ROOT, state, waitFor, ready, click, setSlider, findItem, shot } from './lib.mjs';

const DTX = path.join(ROOT, 'build/native/dtx');
const sim = (...args) => JSON.parse(execFileSync(DTX, ['sim', ...args.map(String), '--json'], { encoding: 'utf8' }));

async function openLab(newPage, server, kind) {
  // Tall, so the figures below the controls are on screen without scrolling.
  const page = await newPage({ viewport: { width: 1280, height: 1600 } });
  await page.goto(server().url);
  await ready(page);
  await click(page, 'nav-lab');
  await waitFor(page, "s.screen === 'lab' && s.widget");
  await click(page, `lab-${kind}`);
  await waitFor(page, `s.widget && s.widget.kind === ${JSON.stringify(kind)}`);
  return page;
}

// Picks `option` in the widget's combo `id` ("plan-convention") with the mouse.
async function choose(page, id, option) {
  await click(page, id);
  await click(page, `${id}-${option}`);
  return waitFor(page, `s.widget && s.active !== ${JSON.stringify(id)}`);
}

// Moves the pointer onto a figure and waits for its tooltip; returns the text shown.
async function hover(page, id, mustInclude) {
  const it = await findItem(page, id);
  await page.mouse.move(it.x + Math.min(it.w / 2, 30), it.y + it.h / 2);
  try {
    const s = await waitFor(page, `s.widget.tooltip && s.widget.tooltip.includes(${JSON.stringify(mustInclude)})`);
    // A figure's hover target is an item of its own: its ID must not be an input's.
    if (s.id_clashes.length) throw new Error(`ID clashes: ${JSON.stringify(s.id_clashes)}`);
    return s.widget.tooltip;
  } catch (e) {
    await shot(page, `sources-failed-hover-${id}`);
    const s = await state(page);
    throw new Error(`hovering ${id} at ${JSON.stringify(it)}: no tooltip with "${mustInclude}"; tooltip ${JSON.stringify(s.widget && s.widget.tooltip)}`);
  }
}

export default function register({ test, newPage, assert, eq, server }) {
  test('sources: the plan explorer\'s memory convention gives dtx sim memory\'s figures, formula on hover', async () => {
    const page = await openLab(newPage, server, 'plan');
    let s = await state(page);
    eq(s.widget.convention, 'zero-paper', 'the default convention');
    // ZeRO-2 on the default plan (Llama 2 7B on one node of 8 H100: DP 8, TP = PP = CP = 1).
    await setSlider(page, 'plan-zero', 2);
    s = await waitFor(page, 's.widget.zero === 2');
    const seen = {};
    for (const conv of ['deepspeed', 'deepspeed-2023', 'megatron', 'zero-paper']) {
      s = await choose(page, 'plan-convention', conv);
      s = await waitFor(page, `s.widget.convention === ${JSON.stringify(conv)}`);
      const w = s.widget;
      eq(w.shard_group, 8, `${conv}: DP x CP`);
      // The calculator, asked about this GPU's parameters: DeepSpeed's N is nodes x GPUs per
      // node (the shard group fills one node here); the others take --dp.
      const ds = conv.startsWith('deepspeed');
      const mem = sim('memory', '--source', conv, '--params', w.gpu_params, '--zero', w.memory_zero,
        ...(ds ? ['--gpus_per_node', w.gpus_per_node, '--nodes', w.shard_group / w.gpus_per_node] : ['--dp', w.shard_group]));
      assert(Math.abs(w.model_states_bytes - mem.gpu_bytes) <= 1,
        `${conv}: page model states ${w.model_states_bytes} vs dtx sim memory ${mem.gpu_bytes}`);
      assert(Math.abs(w.memory_gb.model_states - mem.gpu_bytes / 1e9) < 1e-6, `${conv}: memory_gb.model_states`);
      eq(w.cpu_modelled, mem.cpu_modelled, `${conv}: host memory modelled`);
      if (mem.cpu_modelled) assert(Math.abs(w.cpu_bytes_per_node - mem.cpu_bytes) <= 1, `${conv}: host bytes ${w.cpu_bytes_per_node} vs ${mem.cpu_bytes}`);
      eq(w.memory_formula, mem.formula.id, `${conv}: the formula behind the figure`);
      eq(w.memory_gb.weights === null, ds, `${conv}: DeepSpeed gives one lump, the others a split`);
      seen[conv] = w.model_states_bytes;
    }
    // Four conventions, four different figures for the same plan.
    eq(new Set(Object.values(seen)).size, 4, 'distinct figures ' + JSON.stringify(seen));
    // Megatron at ZeRO-2 counts the distributed optimizer (ZeRO-1) and says so.
    s = await choose(page, 'plan-convention', 'megatron');
    s = await waitFor(page, "s.widget.convention === 'megatron'");
    eq(s.widget.memory_zero, 1, 'Megatron uses ZeRO-1');
    assert(s.widget.warnings.some((x) => x.includes('the memory figures use ZeRO-1, not ZeRO-2')), 'warning: ' + s.widget.warnings);
    // The gradients' hover: FP32 main gradients and Megatron's file.
    let tip = await hover(page, 'plan-fig-gradients', 'theoretical_memory_usage.py');
    assert(tip.includes('4 bytes') && tip.includes('never sharded'), 'gradients tooltip: ' + tip);
    await shot(page, 'sources-plan-megatron-tooltip');
    tip = await hover(page, 'plan-fig-activations', 'Korthikanti et al. 2022');

    // DeepSpeed with the optimizer offloaded: 2 bytes per parameter stay on the GPU.
    s = await choose(page, 'plan-convention', 'deepspeed');
    s = await choose(page, 'plan-offload', 'optimizer');
    s = await waitFor(page, "s.widget.convention === 'deepspeed' && s.widget.offload === 'optimizer'");
    const off = sim('memory', '--source', 'deepspeed', '--params', s.widget.gpu_params, '--zero', 2, '--gpus_per_node', 8,
      '--nodes', 1, '--offload', 'optimizer');
    assert(Math.abs(s.widget.model_states_bytes - off.gpu_bytes) <= 1, `offload: ${s.widget.model_states_bytes} vs ${off.gpu_bytes}`);
    assert(Math.abs(s.widget.cpu_bytes_per_node - off.cpu_bytes) <= 1, `offload host: ${s.widget.cpu_bytes_per_node} vs ${off.cpu_bytes}`);
    tip = await hover(page, 'plan-fig-states', 'estimate_zero2_model_states_mem_needs');
    assert(tip.includes('optimizer offloaded'), 'model states tooltip: ' + tip);
    tip = await hover(page, 'plan-fig-host', 'host per node');
    await shot(page, 'sources-plan-deepspeed-tooltip');
    // The description (the text layer's words over the widget) carries the same formulas.
    const layer = await page.evaluate(() => (document.getElementById('dtx-layer') || document.body).textContent.replace(/\s+/g, ' '));
    assert(layer.includes("Model states counted as DeepSpeed's estimator does"), 'convention line in the text layer');
    assert(layer.includes('Formulas: model states: 2 ×'), 'formulas in the description: ' + layer.slice(0, 400));
    eq(page.errors.length, 0, 'page errors: ' + page.errors.join('; '));
    await page.context().close();
  });

  test('sources: the ring widget lists every collective\'s busBw factor at its N', async () => {
    const page = await openLab(newPage, server, 'ring');
    await setSlider(page, 'ring-N', 5);
    let s = await waitFor(page, 's.widget.N === 5 && s.widget.busbw_rows');
    const rows = s.widget.busbw_rows;
    eq(rows.length, 8, 'rows');
    eq(rows.map((r) => r.op + (r.in_network ? '+net' : '')).join(),
      'allreduce,reduce_scatter,all_gather,broadcast,reduce,alltoall,sendrecv,allreduce+net', 'the collectives');
    for (const r of rows) {
      const c = sim('collective', '--op', r.op, '--N', 5, '--algbw_gbs', s.widget.algbw_gbs, ...(r.in_network ? ['--in_network', 1] : []));
      assert(Math.abs(r.factor - c.busbw_factor) < 1e-12, `${r.label}: factor ${r.factor} vs ${c.busbw_factor}`);
      assert(Math.abs(r.busbw_gbs - c.busbw_gbs) < 1e-9 * c.busbw_gbs + 1e-12, `${r.label}: busBw ${r.busbw_gbs} vs ${c.busbw_gbs}`);
      eq(r.formula, c.formula.id, `${r.label}: formula id`);
    }
    // By hand at n = 5: AllReduce 2·4/5, AlltoAll 4/5, in the network 1; the animated row.
    eq(rows[0].factor, 1.6, 'AllReduce 2(n-1)/n');
    eq(rows[5].factor, 0.8, 'AlltoAll (n-1)/n');
    eq(rows[7].factor, 1, 'in-network AllReduce');
    eq(rows.filter((r) => r.animated).map((r) => r.op).join(), 'allreduce', 'the animated collective');
    await click(page, 'ring-collective');
    await click(page, 'ring-collective-all_gather');
    s = await waitFor(page, "s.widget.collective === 'all_gather'");
    eq(s.widget.busbw_rows.filter((r) => r.animated).map((r) => r.op).join(), 'all_gather', 'the marked row follows the animation');
    const tip = await hover(page, 'ring-fig-busbw-allreduce-in-network', 'nccl-tests issue #366');
    assert(tip.includes('factor 1'), 'in-network tooltip: ' + tip);
    await shot(page, 'sources-ring-busbw-tooltip');
    const layer = await page.evaluate(() => (document.getElementById('dtx-layer') || document.body).textContent.replace(/\s+/g, ' '));
    assert(layer.includes('AlltoAll (n-1)/n = 0.8'), 'the factors in the description');
    eq(page.errors.length, 0, 'page errors: ' + page.errors.join('; '));
    await page.context().close();
  });

  test('sources: the pipeline viewer draws ZB-H2 with its per-stage figures, and interleaved its group', async () => {
    const page = await openLab(newPage, server, 'pipeline');
    await click(page, 'pipeline-schedule');
    await click(page, 'pipeline-schedule-zb-h2');
    let s = await waitFor(page, "s.widget.schedule === 'zb-h2'");
    const w = s.widget;
    assert(!w.error && w.ops === 3 * w.p * w.m, `ZB-H2 runs F, B and W of every microbatch on every stage: ${w.ops} ops`);
    const cli = sim('pipeline', '--schedule', 'zb-h2', '--p', w.p, '--m', w.m, '--f', 10, '--b', 10, '--w', 10);
    assert(Math.abs(w.bubble_total - cli.bubble_total) < 1e-9, `bubble ${w.bubble_total} vs ${cli.bubble_total}`);
    eq(JSON.stringify(w.warmup_per_stage), JSON.stringify(cli.warmup_forwards_per_stage), 'warm-up forwards per stage');
    eq(JSON.stringify(w.remaining_per_stage), JSON.stringify(cli.remaining_per_stage), 'remaining per stage');
    eq(JSON.stringify(w.span_idle_per_stage), JSON.stringify(cli.span_idle_per_stage), 'idle inside each span');
    // The paper's figure 3: stage r warms up with 2(p-1-r)+1 forwards (p = 4: 7, 5, 3, 1).
    eq(JSON.stringify(w.warmup_per_stage), '[7,5,3,1]', 'ZB-H2 warm-up by hand');
    let tip = await hover(page, 'pipeline-fig-bubble', 'Qi et al. 2023');
    assert(tip.includes('(p-1)(f+b-2w)'), 'bubble tooltip: ' + tip);
    await shot(page, 'sources-pipeline-zbh2-tooltip');
    tip = await hover(page, 'pipeline-fig-span-idle', 'section 2.2');
    // Stage 0's row of the chart (just below the player's scrubber): its hover gives the
    // stage's warm-up and remaining forwards and the idle inside its own span.
    const scrub = await findItem(page, 'pipeline-scrub');
    await page.mouse.move(scrub.x + 200, scrub.y + scrub.h + 16);
    try {
      await page.waitForFunction(() => (document.getElementById('dtx-layer') || document.body).textContent
        .replace(/\s+/g, ' ').includes('warm-up: 7 forwards, then 1 remaining'), null, { timeout: 8000 });
    } catch (e) {
      throw new Error('no stage tooltip with the warm-up counts: ' +
        (await page.evaluate(() => (document.getElementById('dtx-layer') || document.body).textContent)).slice(0, 600));
    }
    await shot(page, 'sources-pipeline-zbh2-stage');

    // Interleaved, v = 2, G = 0 (= p): the group shows, the warm-up is Megatron's.
    await click(page, 'pipeline-schedule');
    await click(page, 'pipeline-schedule-interleaved');
    s = await waitFor(page, "s.widget.schedule === 'interleaved'");
    eq(s.widget.group, s.widget.p, 'G = 0 means p');
    const inter = sim('pipeline', '--schedule', 'interleaved', '--p', s.widget.p, '--m', s.widget.m, '--v', s.widget.v);
    eq(JSON.stringify(s.widget.warmup_per_stage), JSON.stringify(inter.warmup_forwards_per_stage), 'interleaved warm-up');
    tip = await hover(page, 'pipeline-fig-group', 'microbatch_group_size_per_vp_stage');
    await shot(page, 'sources-pipeline-interleaved-group');
    eq(page.errors.length, 0, 'page errors: ' + page.errors.join('; '));
    await page.context().close();
  });
}
