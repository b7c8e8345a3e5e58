// Small packs that each change one thing in a valid exercise, to check that the schema and the
// engine draw the line in the same place: every unit the engine knows, expressions, names, ids,
// each field's type and range, each type's rules, "$comment" in every object, widget inputs.
//
// Every probe says whether the pack is valid (what an author should be told). Where the schema
// cannot see a rule the probe says why (`blind`: the engine rejects, the schema accepts); where
// the schema is deliberately stricter than the engine, why (`stricter`); where the engine
// accepts something it should not, what it misses (`finding`: the schema rejects, the engine
// accepts — a bug to fix in the engine, listed so it is not forgotten).

const clone = (v) => JSON.parse(JSON.stringify(v));

function numericExercise() {
  return {
    id: 'x', type: 'numeric', title: 'Probe', prompt: '{N} GPUs each hold {M} GB.',
    params: { N: { default: 8, choices: [4, 8] }, M: { default: 1, min: 0.5, max: 4, step: 0.5 } },
    parts: [{ id: 'v', answer: '2*M*(N-1)/N', unit: 'GB' }],
  };
}
function choiceExercise() {
  return {
    id: 'x', type: 'choice', title: 'Probe', prompt: 'Pick one.',
    options: [{ text: 'Ring', correct: true }, { text: 'Tree' }],
  };
}
function orderingExercise(n = 3) {
  return { id: 'x', type: 'ordering', title: 'Probe', prompt: 'Order them.', items: Array.from({ length: n }, (_, i) => `step ${i + 1}`) };
}
function buggyExercise(lines = 3) {
  const code = Array.from({ length: lines }, (_, i) => `line${i + 1}();`);
  return { id: 'x', type: 'buggy-line', title: 'Probe', prompt: 'Which line?', code, bugs: [{ line: 2, message: 'This one.' }] };
}
function codeExercise(nargs = 2) {
  const args = Array.from({ length: nargs }, (_, i) => `a${i}`);
  return {
    id: 'x', type: 'code', title: 'Probe', prompt: 'Write f.', function: 'f', args,
    expected: args.length ? args.join('+') : '1',
    cases: [{ args: args.map((_, i) => i + 1) }],
  };
}
const BASES = { numeric: numericExercise, choice: choiceExercise, ordering: orderingExercise, buggy: buggyExercise, code: codeExercise };

function packOf(exercises) {
  return { format: 1, chapter: 0, id: 'probe', title: 'Probe', exercises };
}

// Builders: `ex` changes one exercise, `pk` the whole pack, `raw` gives the file's text.
function ex(group, name, valid, base, change, extra = {}) {
  const e = typeof base === 'function' ? base() : BASES[base]();
  const out = change(e);
  return { group, name, valid, pack: packOf([out === undefined ? e : out]), ...extra };
}
function pk(group, name, valid, change, extra = {}) {
  const p = packOf([numericExercise()]);
  const out = change(p);
  return { group, name, valid, pack: out === undefined ? p : out, ...extra };
}
function raw(group, name, valid, text, extra = {}) {
  return { group, name, valid, text, ...extra };
}

const setUnit = (u) => (e) => { e.parts[0].unit = u; };
const setAnswer = (a) => (e) => { e.parts[0].answer = a; };

function unitProbes() {
  const good = [
    '', ' ', 'B', 'KB', 'kB', 'MB', 'GB', 'TB', 'PB', 'EB', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB',
    'b', 'Kb', 'kb', 'Mb', 'Gb', 'Tb', 'Pb', 'Eb', 'Kib', 'Gib', 'Eib', 'byte', 'bytes', 'Gbyte', 'Mbytes',
    'bit', 'bits', 'Mbit', 'Gbits', 'ns', 'us', 'µs', 'μs', 'ms', 's', 'sec', 'second', 'seconds', 'min',
    'minute', 'minutes', 'h', 'hr', 'hour', 'hours', 'day', 'days', 'FLOP', 'FLOPs', 'KFLOP', 'kFLOP',
    'MFLOP', 'GFLOP', 'TFLOP', 'PFLOP', 'EFLOP', 'TFLOPs', 'FLOP/s', 'TFLOP/s', 'TFLOPS', 'FLOPS',
    'PFLOPS', 'GB/s', 'Gb/s', 'Gbps', 'GBps', 'MiBps', 'Kibps', 'GB/bps', '1/bps', 'GPU/TFLOPS', '1/s', '1',
    '%', '$', 'USD', '$/h', '%/s', 'tokens/s', 'tokens/GPU/s', 'token', 'tok', 'seq', 'seqs', 'sequence',
    'sequences', 'sample', 'samples', 'step', 'steps', 'GPU', 'GPUs', 'param', 'params', 'parameter',
    'parameters', 'layer', 'layers', 'microbatch', 'microbatches', 'iteration', 'iterations', 'iter', 'node',
    'nodes', 'image', 'images', ' GB ', 'GB / s', '\tGB\r\n', 'FLOP/B', 'h/day', 'EiB/s',
  ];
  const bad = [
    'GBB', 'gb', 'mb', 'GBs', 'GBytes', 'KIB', 'kiB', 'K', 'Ki', 'bps', 'Bps', 'G B', 'G bps', '1bps', 'GB/',
    '/s', 'GB//s', '1/1', 's/1', 'tflops', 'Tflop', 'FLOPSs', 'GPU-hours', 'hrs', 'units', 'µ s', 'Gbps/GPU',
    'GB\u00a0', 'W',
  ];
  return [
    ...good.map((u) => ex('unit', JSON.stringify(u), true, 'numeric', setUnit(u))),
    ...bad.map((u) => ex('unit', JSON.stringify(u), false, 'numeric', setUnit(u))),
    ex('unit', 'a number', false, 'numeric', setUnit(5)),
    ex('unit', 'missing', false, 'numeric', (e) => { delete e.parts[0].unit; }),
  ];
}

function expressionProbes() {
  const good = [
    '2*M*(N-1)/N', 'M', ' M ', 'M*1e-3', '1.5e+3*M', '.5*M', 'M^2', '-M+3', '2^-1*M', 'ceil(M)', 'floor(M)+1',
    'round(M)+1', 'sqrt(M)', 'log(M+1)', 'log2(N)', 'log10(N)', 'exp(M)', 'abs(-M)', 'min(M, N)',
    'max(M, N, 3)', 'if(N > 4, M, 2*M)', 'M*(N>=4)+1', '(N==8)+(N!=8)*2', '(N<8||M>1)+1', '(N<=8&&M>=1)+1',
    '2×M', '2·M', '2⋅M', 'N−1', '((((((((M))))))))', 'M\n*2', 'M\t*2', 'max (M, N)', '6.1x10^2*M', 'N*M/4',
  ];
  const bad = [
    '', ' ', '2*M*(N-1/N', 'M)', '(M', 'ceiling(M)', 'Max(M, N)', 'sqrt M', 'M % 2', 'M;', 'M # note',
    'M\r*2', 'é*M', '{M}', '2*M*[N-1]/N', 'sqrt', 'max(M, log)',
  ];
  return [
    ...good.map((a) => ex('expression', JSON.stringify(a), true, 'numeric', setAnswer(a))),
    ...bad.map((a) => ex('expression', JSON.stringify(a), false, 'numeric', setAnswer(a))),
    ex('expression', 'a JSON number', true, 'numeric', setAnswer(3)),
    ex('expression', 'true', false, 'numeric', setAnswer(true)),
    ex('expression', '"M N" (two names)', false, 'numeric', setAnswer('M N'),
       { blind: 'the schema checks characters, parentheses and function names, not the grammar' }),
    ex('expression', '"2**M"', false, 'numeric', setAnswer('2**M'),
       { blind: 'the schema checks characters, parentheses and function names, not the grammar' }),
    ex('expression', '"M.5"', false, 'numeric', setAnswer('M.5'),
       { blind: 'the schema checks characters, parentheses and function names, not the grammar' }),
    ex('expression', '"min(M)" (one argument)', false, 'numeric', setAnswer('min(M)'),
       { blind: 'argument counts are grammar, which a pattern does not parse' }),
    ex('expression', '"(((((((((M)))))))))" (9 deep)', true, 'numeric', setAnswer('(((((((((M)))))))))'),
       { stricter: 'a pattern can only check balance to a fixed depth; the schema unrolls 8 levels' }),
    ex('expression', 'unknown name "Q"', false, 'numeric', setAnswer('Q*2'),
       { blind: 'which names exist depends on "params" and "derived": lint checks it' }),
    ex('expression', 'answer 0 at a corner', false, 'numeric', setAnswer('(N-4)*M'),
       { blind: 'needs the expression evaluated at the parameter corners: lint does it' }),
  ];
}

function namesAndIds() {
  const param = (name) => (e) => { e.params[name] = { default: 1 }; };
  const derived = (name) => (e) => { e.derived = { [name]: 'M/N' }; };
  return [
    ...['x', '_x', 'x1', 'ifx', 'answer2', 'Log'].map((n) => ex('param name', n, true, 'numeric', param(n))),
    ...['answer', 'log', 'if', 'max', '1x', 'x-y', 'é', 'x.y', ''].map((n) => ex('param name', JSON.stringify(n), false, 'numeric', param(n))),
    ...['chunk', '_c'].map((n) => ex('derived name', n, true, 'numeric', derived(n))),
    ...['ceil', '2c', 'a b'].map((n) => ex('derived name', JSON.stringify(n), false, 'numeric', derived(n))),
    ex('derived name', 'same as a parameter', false, 'numeric', derived('N'),
       { blind: 'a derived name must differ from the parameter names: a relation between two objects\' keys' }),
    ...['a.b-c', '0.x', 'ring.volume-2'].map((id) => ex('exercise id', id, true, 'numeric', (e) => { e.id = `${e.id}${id}`; })),
    ...['A.b', '-a', '.a', 'a_b', 'a b', ''].map((id) => ex('exercise id', JSON.stringify(id), false, 'numeric', (e) => { e.id = id; })),
    ...['abc-1', '0'].map((id) => pk('pack id', id, true, (p) => { p.id = id; })),
    ...['a.b', 'Abc', '-a', ''].map((id) => pk('pack id', JSON.stringify(id), false, (p) => { p.id = id; })),
  ];
}

function packProbes() {
  return [
    pk('pack', 'minimal', true, () => {}),
    pk('pack', 'no exercises yet', true, (p) => { p.exercises = []; }),
    pk('pack', 'with intro and $schema', true, (p) => { p.intro = '## Hello'; p.$schema = 'schema/pack.schema.json'; }),
    pk('pack', 'format 2', false, (p) => { p.format = 2; }),
    pk('pack', 'format "1"', false, (p) => { p.format = '1'; }),
    pk('pack', 'chapter 999', true, (p) => { p.chapter = 999; }),
    pk('pack', 'chapter 1000', false, (p) => { p.chapter = 1000; }),
    pk('pack', 'chapter -1', false, (p) => { p.chapter = -1; }),
    pk('pack', 'chapter 1.5', false, (p) => { p.chapter = 1.5; }),
    pk('pack', 'chapter "1"', false, (p) => { p.chapter = '1'; }),
    ...['format', 'chapter', 'id', 'title', 'exercises'].map((k) => pk('pack', `no ${k}`, false, (p) => { delete p[k]; })),
    pk('pack', 'unknown field', false, (p) => { p.author = 'me'; }),
    pk('pack', 'blank title', false, (p) => { p.title = '  '; }),
    pk('pack', 'empty intro', false, (p) => { p.intro = ''; }),
    pk('pack', '"$schema" a number', false, (p) => { p.$schema = 5; }),
    pk('pack', 'exercises an object', false, (p) => { p.exercises = {}; }),
    pk('pack', 'exercise a string', false, (p) => { p.exercises = ['ring.volume']; }),
    raw('pack', 'top-level array', false, '[]'),
    raw('pack', 'byte-order mark', true, `\uFEFF${JSON.stringify(packOf([numericExercise()]), null, 2)}`),
    raw('pack', 'CRLF line ends', true, JSON.stringify(packOf([numericExercise()]), null, 2).replace(/\n/g, '\r\n')),
    raw('pack', 'format 1.0', true, JSON.stringify(packOf([numericExercise()])).replace('"format":1', '"format":1.0')),
    raw('pack', 'duplicate key', false, JSON.stringify(packOf([numericExercise()])).replace('"title":"Probe"', '"title":"Probe","title":"Again"'),
        { blind: 'JSON Schema sees parsed data, where a repeated key has already replaced the first' }),
    pk('pack', 'two exercises with one id', false, (p) => { p.exercises.push(numericExercise()); },
       { blind: 'uniqueItems compares whole items; no keyword says "this member differs between items"' }),
  ];
}

function commonFieldProbes() {
  return [
    ...['id', 'type', 'title', 'prompt'].map((k) => ex('common', `no ${k}`, false, 'numeric', (e) => { delete e[k]; })),
    ex('common', 'type "number"', false, 'numeric', (e) => { e.type = 'number'; }),
    ex('common', 'unknown field', false, 'numeric', (e) => { e.author = 'me'; }),
    ex('common', 'field of another type', false, 'numeric', (e) => { e.options = []; }),
    ex('common', 'blank prompt', false, 'numeric', (e) => { e.prompt = ' \n'; }),
    ex('common', 'non-breaking space title', true, 'numeric', (e) => { e.title = '\u00a0'; }),
    ...[1, 2, 3].map((d) => ex('common', `difficulty ${d}`, true, 'numeric', (e) => { e.difficulty = d; })),
    ...[0, 4, 2.5, '2'].map((d) => ex('common', `difficulty ${JSON.stringify(d)}`, false, 'numeric', (e) => { e.difficulty = d; })),
    ex('common', 'tags []', true, 'numeric', (e) => { e.tags = []; }),
    ex('common', 'tags a string', false, 'numeric', (e) => { e.tags = 'ring'; }),
    ex('common', 'tag empty', false, 'numeric', (e) => { e.tags = ['']; }),
    ex('common', 'tag a number', false, 'numeric', (e) => { e.tags = [1]; }),
    ex('common', 'hints', true, 'numeric', (e) => { e.hints = ['Count steps.', 'Then bytes: {M/N:3} GB.']; }),
    ex('common', 'hint blank', false, 'numeric', (e) => { e.hints = [' ']; }),
    ex('common', 'explanation', true, 'numeric', (e) => { e.explanation = '{answer} GB.'; }),
    ex('common', 'explanation empty', false, 'numeric', (e) => { e.explanation = ''; }),
    ex('common', 'explanation a list', false, 'numeric', (e) => { e.explanation = ['a']; }),
    ex('common', 'constraints', true, 'numeric', (e) => { e.constraints = ['N >= 4', 1]; }),
    ex('common', 'constraints a string', false, 'numeric', (e) => { e.constraints = 'N >= 4'; }),
    ex('common', 'constraint unbalanced', false, 'numeric', (e) => { e.constraints = ['(N >= 4']; }),
    ex('common', 'defaults break a constraint', false, 'numeric', (e) => { e.constraints = ['N > 8']; },
       { blind: 'needs the constraint evaluated at the defaults: lint does it' }),
    ex('common', 'placeholder names an unknown value', false, 'numeric', (e) => { e.prompt = '{B} GB'; },
       { blind: 'placeholders are text inside Markdown; which names exist depends on "params"' }),
  ];
}

function paramProbes() {
  const spec = (s) => (e) => { e.params.Q = s; };
  return [
    ex('param', 'fixed', true, 'numeric', spec({ default: 8 })),
    ex('param', 'range without step', true, 'numeric', spec({ default: 1, min: 0, max: 2 })),
    ex('param', 'params an array', false, 'numeric', (e) => { e.params = []; }),
    ex('param', 'spec a number', false, 'numeric', spec(8)),
    ex('param', 'no default', false, 'numeric', spec({ choices: [1, 2] })),
    ex('param', 'default a string', false, 'numeric', spec({ default: '8' })),
    ex('param', 'empty choices', false, 'numeric', spec({ default: 8, choices: [] })),
    ex('param', 'choice a string', false, 'numeric', spec({ default: 8, choices: [8, '16'] })),
    ex('param', 'min without max', false, 'numeric', spec({ default: 1, min: 0 })),
    ex('param', 'max without min', false, 'numeric', spec({ default: 1, max: 2 })),
    ex('param', 'step 0', false, 'numeric', spec({ default: 1, min: 0, max: 2, step: 0 })),
    ex('param', 'step -1', false, 'numeric', spec({ default: 1, min: 0, max: 2, step: -1 })),
    ex('param', 'choices and a range', false, 'numeric', spec({ default: 1, choices: [1], min: 0, max: 2 })),
    ex('param', 'choices and a step', false, 'numeric', spec({ default: 1, choices: [1, 2], step: 1 })),
    ex('param', 'misspelt field', false, 'numeric', spec({ defualt: 1 })),
    ex('param', 'step without a range', false, 'numeric', spec({ default: 1, step: 1 })),
    ex('param', 'step a string, no range', false, 'numeric', spec({ default: 1, step: 'x' })),
    ex('param', 'default not a choice', false, 'numeric', spec({ default: 6, choices: [4, 8] }),
       { blind: 'compares two members\' values' }),
    ex('param', 'default outside the range', false, 'numeric', spec({ default: 10, min: 0, max: 8 }),
       { blind: 'compares two members\' values' }),
    ex('param', 'min greater than max', false, 'numeric', spec({ default: 1, min: 8, max: 0.5 }),
       { blind: 'compares two members\' values' }),
    ex('param', 'default off the step grid', false, 'numeric', spec({ default: 0.3, min: 0, max: 1, step: 0.5 }),
       { blind: 'compares members\' values (default − min must be a multiple of step)' }),
  ];
}

function numericProbes() {
  const part = (change) => (e) => { change(e.parts[0]); };
  return [
    ex('numeric', 'two parts', true, 'numeric', (e) => { e.parts.push({ id: 'w', answer: 'M', unit: 'GB', label: 'Other' }); }),
    ex('numeric', 'no parts', false, 'numeric', (e) => { delete e.parts; }),
    ex('numeric', 'parts []', false, 'numeric', (e) => { e.parts = []; }),
    ex('numeric', 'part id with "-"', false, 'numeric', part((p) => { p.id = 'a-b'; })),
    ex('numeric', 'part id empty', false, 'numeric', part((p) => { p.id = ''; })),
    ex('numeric', 'no part id', false, 'numeric', part((p) => { delete p.id; })),
    ex('numeric', 'no answer', false, 'numeric', part((p) => { delete p.answer; })),
    ex('numeric', 'label empty', false, 'numeric', part((p) => { p.label = ''; })),
    ex('numeric', 'misspelt tolerance', false, 'numeric', part((p) => { p.tolerence = { rel: 0.01 }; })),
    ex('numeric', 'two parts with one id', false, 'numeric', (e) => { e.parts.push({ id: 'v', answer: 'M', unit: 'GB' }); },
       { blind: 'uniqueItems compares whole items, not one member' }),
    ...[{ rel: 0 }, { rel: 0.5 }, { abs: 0 }, { abs: 2 }, { rel: 0.01, abs: 0.1 }].map((t) =>
      ex('tolerance', JSON.stringify(t), true, 'numeric', part((p) => { p.tolerance = t; }))),
    ...[{}, { rel: 1 }, { rel: -0.1 }, { abs: -1 }, { rel: '1%' }, { tol: 0.01 }, '1%', 0.01].map((t) =>
      ex('tolerance', JSON.stringify(t), false, 'numeric', part((p) => { p.tolerance = t; }))),
    ex('mistakes', 'one', true, 'numeric', part((p) => { p.mistakes = [{ answer: 'M', message: 'One phase, {N} GPUs.' }]; })),
    ex('mistakes', 'none', true, 'numeric', part((p) => { p.mistakes = []; })),
    ex('mistakes', 'an object', false, 'numeric', part((p) => { p.mistakes = { answer: 'M', message: 'x' }; })),
    ex('mistakes', 'no message', false, 'numeric', part((p) => { p.mistakes = [{ answer: 'M' }]; })),
    ex('mistakes', 'no answer', false, 'numeric', part((p) => { p.mistakes = [{ message: 'x' }]; })),
    ex('mistakes', 'empty message', false, 'numeric', part((p) => { p.mistakes = [{ answer: 'M', message: '' }]; })),
    ex('mistakes', 'unknown field', false, 'numeric', part((p) => { p.mistakes = [{ answer: 'M', message: 'x', hint: 'y' }]; })),
    ex('mistakes', 'bad expression', false, 'numeric', part((p) => { p.mistakes = [{ answer: 'M*(2', message: 'x' }]; })),
    ex('mistakes', 'equal to the answer', false, 'numeric', part((p) => { p.mistakes = [{ answer: '2*(N-1)*M/N', message: 'x' }]; }),
       { blind: 'needs both expressions evaluated: lint does it' }),
  ];
}

function choiceProbes() {
  const opts = (o) => (e) => { e.options = o; };
  return [
    ex('choice', 'three options, one fixed', true, 'choice', (e) => { e.options.push({ text: 'None of the above', fixed: true, feedback: 'No.' }); }),
    ex('choice', 'multiple, two correct', true, 'choice', (e) => { e.multiple = true; e.options[1].correct = true; }),
    ex('choice', 'shuffle false', true, 'choice', (e) => { e.shuffle = false; }),
    ex('choice', 'one option', false, 'choice', opts([{ text: 'Ring', correct: true }])),
    // options are lettered A to Z (engine/text.h kMaxLettered)
    ex('choice', '26 options', true, 'choice', opts(Array.from({ length: 26 }, (_, i) => ({ text: `option ${i}`, correct: i === 0 })))),
    ex('choice', '27 options', false, 'choice', opts(Array.from({ length: 27 }, (_, i) => ({ text: `option ${i}`, correct: i === 0 })))),
    ex('choice', 'no correct option', false, 'choice', opts([{ text: 'Ring' }, { text: 'Tree', correct: false }])),
    ex('choice', 'two correct, single answer', false, 'choice', opts([{ text: 'Ring', correct: true }, { text: 'Tree', correct: true }])),
    ex('choice', 'two correct, "multiple": false', false, 'choice', (e) => { e.multiple = false; e.options[1].correct = true; }),
    ex('choice', 'no options', false, 'choice', (e) => { delete e.options; }),
    ex('choice', 'options an object', false, 'choice', opts({ text: 'Ring', correct: true })),
    ex('choice', 'multiple "yes"', false, 'choice', (e) => { e.multiple = 'yes'; }),
    ex('choice', 'shuffle 1', false, 'choice', (e) => { e.shuffle = 1; }),
    ex('choice', 'correct "true"', false, 'choice', (e) => { e.options[0].correct = 'true'; }),
    ex('choice', 'option without text', false, 'choice', (e) => { delete e.options[1].text; }),
    ex('choice', 'empty option text', false, 'choice', (e) => { e.options[1].text = ''; }),
    ex('choice', 'empty feedback', false, 'choice', (e) => { e.options[1].feedback = ''; }),
    ex('choice', 'option a string', false, 'choice', opts([{ text: 'Ring', correct: true }, 'Tree'])),
    ex('choice', 'unknown option field', false, 'choice', (e) => { e.options[1].why = 'x'; }),
    ex('choice', 'two options with one text', false, 'choice', opts([{ text: 'Ring', correct: true }, { text: 'Ring', feedback: 'x' }]),
       { blind: 'uniqueItems compares whole options; these differ in "feedback"' }),
  ];
}

function orderingProbes() {
  return [
    ex('ordering', 'with feedback', true, 'ordering', (e) => { e.feedback = ['a', 'b', 'c']; }),
    ex('ordering', '24 items, 24 feedback', true, () => orderingExercise(24), (e) => { e.feedback = e.items.map((i) => `why ${i}`); }),
    ex('ordering', '26 items', true, () => orderingExercise(26), () => {}),
    ex('ordering', '27 items', false, () => orderingExercise(27), () => {}),
    ex('ordering', 'two items', false, () => orderingExercise(2), () => {}),
    ex('ordering', 'no items', false, 'ordering', (e) => { delete e.items; }),
    ex('ordering', 'duplicate item', false, 'ordering', (e) => { e.items[2] = e.items[0]; }),
    ex('ordering', 'empty item', false, 'ordering', (e) => { e.items[1] = ''; }),
    ex('ordering', 'item a number', false, 'ordering', (e) => { e.items[1] = 2; }),
    ex('ordering', 'feedback short by one', false, 'ordering', (e) => { e.feedback = ['a', 'b']; }),
    ex('ordering', 'feedback long by one', false, 'ordering', (e) => { e.feedback = ['a', 'b', 'c', 'd']; }),
    ex('ordering', 'empty feedback text', false, 'ordering', (e) => { e.feedback = ['a', '', 'c']; }),
    ex('ordering', 'feedback short, 25 items', false, () => orderingExercise(25), (e) => { e.feedback = ['a']; },
       { blind: 'the schema enumerates equal lengths up to 24 items' }),
  ];
}

function buggyProbes() {
  return [
    ex('buggy-line', 'with decoy and language', true, 'buggy', (e) => { e.decoys = [{ line: 1, message: 'Fine.' }]; e.language = 'python'; }),
    ex('buggy-line', 'bug on the last line', true, 'buggy', (e) => { e.bugs[0].line = 3; }),
    ex('buggy-line', 'empty code line', true, 'buggy', (e) => { e.code[0] = ''; }),
    ex('buggy-line', 'two bugs, select 2', true, 'buggy', (e) => { e.bugs.push({ line: 3, message: 'And this.' }); e.select = 2; }),
    ex('buggy-line', 'two bugs, select 1', true, 'buggy', (e) => { e.bugs.push({ line: 3, message: 'And this.' }); e.select = 1; }),
    ex('buggy-line', '30 lines, bug on 30', true, () => buggyExercise(30), (e) => { e.bugs[0].line = 30; }),
    ex('buggy-line', 'bug past the end', false, 'buggy', (e) => { e.bugs[0].line = 4; }),
    ex('buggy-line', 'decoy past the end', false, 'buggy', (e) => { e.decoys = [{ line: 5, message: 'x' }]; }),
    ex('buggy-line', '30 lines, bug on 31', false, () => buggyExercise(30), (e) => { e.bugs[0].line = 31; }),
    ex('buggy-line', 'line 0', false, 'buggy', (e) => { e.bugs[0].line = 0; }),
    ex('buggy-line', 'line 1.5', false, 'buggy', (e) => { e.bugs[0].line = 1.5; }),
    ex('buggy-line', 'select 2, one bug', false, 'buggy', (e) => { e.select = 2; }),
    ex('buggy-line', 'select 0', false, 'buggy', (e) => { e.select = 0; }),
    ex('buggy-line', 'one line of code', false, () => buggyExercise(1), (e) => { e.bugs[0].line = 1; }),
    ex('buggy-line', 'code line a number', false, 'buggy', (e) => { e.code[0] = 1; }),
    ex('buggy-line', 'code a string', false, 'buggy', (e) => { e.code = 'a();\nb();'; }),
    ex('buggy-line', 'no bugs', false, 'buggy', (e) => { delete e.bugs; }),
    ex('buggy-line', 'bugs []', false, 'buggy', (e) => { e.bugs = []; }),
    ex('buggy-line', 'bug without message', false, 'buggy', (e) => { delete e.bugs[0].message; }),
    ex('buggy-line', 'empty language', false, 'buggy', (e) => { e.language = ''; }),
    ex('buggy-line', '31 lines, bug on 32', false, () => buggyExercise(31), (e) => { e.bugs[0].line = 32; },
       { blind: 'the schema enumerates line limits for code of up to 30 lines' }),
    ex('buggy-line', 'decoy on a bug line', false, 'buggy', (e) => { e.decoys = [{ line: 2, message: 'x' }]; },
       { blind: 'compares members of two arrays' }),
    ex('buggy-line', 'a bug line twice', false, 'buggy', (e) => { e.bugs.push({ line: 2, message: 'again' }); },
       { blind: 'uniqueItems compares whole items; the messages differ' }),
  ];
}

function codeProbes() {
  const reference = 'function f(a0, a1) { return a0 + a1; }';
  return [
    ex('code', 'reference instead of expected', true, 'code', (e) => { delete e.expected; e.reference = reference; }),
    ex('code', 'everything', true, 'code', (e) => {
      Object.assign(e, { language: 'javascript', returns: '', starter: 'function f(a0, a1) {\n}', reference, tolerance: { rel: 0.1 },
                         wrong: [{ note: 'off by one', code: 'function f(a0, a1) { return a0 + a1 + 1; }' }] });
      e.cases.push({ args: [2, 3], expected: 5, note: 'small' });
      e.generate = { count: 2, ranges: { a0: { choices: [1, 2] }, a1: { min: 0, max: 4, step: 1 } } };
    }),
    ex('code', 'generate only', true, 'code', (e) => { delete e.cases; e.generate = { count: 1, ranges: { a0: { min: 0, max: 1 }, a1: { min: 0, max: 1, step: 0.25 } } }; }),
    // A code argument's range is read as a parameter's (engine/json_fields.h read_value_range).
    ex('code', 'range step 0', false, 'code', (e) => { e.generate = { count: 1, ranges: { a0: { min: 0, max: 1 }, a1: { min: 0, max: 1, step: 0 } } }; }),
    ex('code', 'range step without min/max', false, 'code', (e) => { e.generate = { count: 1, ranges: { a0: { choices: [1] }, a1: { step: 1 } } }; }),
    ex('code', 'no arguments', true, () => codeExercise(0), () => {}),
    ex('code', '16 arguments', true, () => codeExercise(16), () => {}),
    ex('code', 'language "python"', false, 'code', (e) => { e.language = 'python'; }),
    ex('code', 'function "1f"', false, 'code', (e) => { e.function = '1f'; }),
    ex('code', 'function empty', false, 'code', (e) => { e.function = ''; }),
    ex('code', 'no function', false, 'code', (e) => { delete e.function; }),
    ex('code', 'no args', false, 'code', (e) => { delete e.args; }),
    ex('code', 'arg "1b"', false, 'code', (e) => { e.args[1] = '1b'; e.expected = 'a0'; }),
    ex('code', 'args a string', false, 'code', (e) => { e.args = 'a0, a1'; }),
    ex('code', 'an arg name twice', false, 'code', (e) => { e.args = ['a0', 'a0']; e.expected = 'a0+a0'; }),
    ex('code', 'no expected, no reference', false, 'code', (e) => { delete e.expected; }),
    ex('code', 'no cases, no generate', false, 'code', (e) => { delete e.cases; }),
    ex('code', 'cases [], generate count 0', false, 'code', (e) => { e.cases = []; e.generate = { count: 0, ranges: { a0: { choices: [1] }, a1: { choices: [1] } } }; }),
    ex('code', 'case with too few args', false, 'code', (e) => { e.cases.push({ args: [1] }); }),
    ex('code', 'case with too many args', false, 'code', (e) => { e.cases.push({ args: [1, 2, 3] }); }),
    ex('code', 'case args a number', false, 'code', (e) => { e.cases.push({ args: 1 }); }),
    ex('code', 'case without args', false, 'code', (e) => { e.cases.push({ note: 'x' }); }),
    ex('code', 'empty case note', false, 'code', (e) => { e.cases[0].note = ''; }),
    ex('code', 'unknown case field', false, 'code', (e) => { e.cases[0].why = 'x'; }),
    ex('code', 'hidden case and hidden generated cases', true, 'code', (e) => {
      e.cases.push({ args: [4, 5], hidden: true });
      e.generate = { count: 2, hidden: true, ranges: { a0: { choices: [1, 2] }, a1: { min: 0, max: 4, step: 1 } } };
    }),
    ex('code', 'case hidden "yes"', false, 'code', (e) => { e.cases[0].hidden = 'yes'; }),
    ex('code', 'generate hidden 1', false, 'code', (e) => { e.generate = { count: 1, hidden: 1, ranges: { a0: { choices: [1] }, a1: { choices: [1] } } }; }),
    ex('code', 'empty starter', false, 'code', (e) => { e.starter = ''; }),
    ex('code', 'returns a number', false, 'code', (e) => { e.returns = 1; }),
    ex('code', 'generate without ranges', false, 'code', (e) => { e.generate = { count: 1 }; }),
    ex('code', 'generate count 101', false, 'code', (e) => { e.generate = { count: 101, ranges: { a0: { choices: [1] }, a1: { choices: [1] } } }; }),
    ex('code', 'generate count 1.5', false, 'code', (e) => { e.generate = { count: 1.5, ranges: { a0: { choices: [1] }, a1: { choices: [1] } } }; }),
    ex('code', 'range {}', false, 'code', (e) => { e.generate = { count: 1, ranges: { a0: {}, a1: { choices: [1] } } }; }),
    ex('code', 'range min only', false, 'code', (e) => { e.generate = { count: 1, ranges: { a0: { min: 0 }, a1: { choices: [1] } } }; }),
    ex('code', 'range choices []', false, 'code', (e) => { e.generate = { count: 1, ranges: { a0: { choices: [] }, a1: { choices: [1] } } }; }),
    ex('code', 'range step -1', false, 'code', (e) => { e.generate = { count: 1, ranges: { a0: { min: 0, max: 1, step: -1 }, a1: { choices: [1] } } }; }),
    ex('code', 'wrong without code', false, 'code', (e) => { e.wrong = [{ note: 'x' }]; }),
    ex('code', 'tolerance rel 2', false, 'code', (e) => { e.tolerance = { rel: 2 }; }),
    ex('code', 'range choices and min', false, 'code', (e) => { e.generate = { count: 1, ranges: { a0: { choices: [1], min: 0 }, a1: { choices: [1] } } }; }),
    ex('code', 'range missing for an arg', false, 'code', (e) => { e.generate = { count: 1, ranges: { a0: { choices: [1] } } }; },
       { blind: 'the keys of "ranges" must be the names listed in "args": a relation between two members' }),
    ex('code', 'range for an unknown arg', false, 'code', (e) => { e.generate = { count: 1, ranges: { a0: { choices: [1] }, a1: { choices: [1] }, zz: { choices: [1] } } }; },
       { blind: 'the keys of "ranges" must be the names listed in "args": a relation between two members' }),
    ex('code', '17 arguments, a case with 16', false, () => codeExercise(17), (e) => { e.cases.push({ args: e.cases[0].args.slice(1) }); },
       { blind: 'the schema enumerates equal lengths for functions of up to 16 arguments' }),
    ex('code', 'string args with "expected"', false, 'code', (e) => { e.cases.push({ args: ['a', 'b'] }); },
       { blind: 'whether "expected" can be evaluated depends on the case values: lint checks it' }),
  ];
}

// "$comment" is allowed in every object of a pack (dtx new writes starter packs with them).
function commentProbes() {
  const c = 'A note for authors.';
  return [
    pk('$comment', 'pack', true, (p) => { p.$comment = c; }),
    ex('$comment', 'exercise', true, 'numeric', (e) => { e.$comment = c; }),
    ex('$comment', 'params', true, 'numeric', (e) => { e.params.$comment = c; }),
    ex('$comment', 'a parameter', true, 'numeric', (e) => { e.params.N.$comment = c; }),
    ex('$comment', 'derived', true, 'numeric', (e) => { e.derived = { $comment: c, chunk: 'M/N' }; }),
    ex('$comment', 'a part', true, 'numeric', (e) => { e.parts[0].$comment = c; }),
    ex('$comment', 'a tolerance', true, 'numeric', (e) => { e.parts[0].tolerance = { $comment: c, rel: 0.02 }; }),
    ex('$comment', 'a mistake', true, 'numeric', (e) => { e.parts[0].mistakes = [{ $comment: c, answer: 'M', message: 'x' }]; }),
    ex('$comment', 'an option', true, 'choice', (e) => { e.options[0].$comment = c; }),
    ex('$comment', 'a bug', true, 'buggy', (e) => { e.bugs[0].$comment = c; }),
    ex('$comment', 'a decoy', true, 'buggy', (e) => { e.decoys = [{ $comment: c, line: 1, message: 'Fine.' }]; }),
    ex('$comment', 'a case', true, 'code', (e) => { e.cases[0].$comment = c; }),
    ex('$comment', 'generate, ranges and a range', true, 'code', (e) => {
      e.generate = { $comment: c, count: 1, ranges: { $comment: c, a0: { $comment: c, choices: [1] }, a1: { choices: [2] } } };
    }),
    ex('$comment', 'a wrong solution', true, 'code', (e) => { e.wrong = [{ $comment: c, note: 'x', code: 'function f() { return 0; }' }]; }),
    ex('$comment', 'a widget', true, 'numeric', (e) => { e.widget = { $comment: c, kind: WIDGET_KIND_PLACEHOLDER }; }),
    pk('$comment', 'a list of strings', true, (p) => { p.$comment = [c, 'Another paragraph.', '']; }),
    ex('$comment', 'an empty list', true, 'numeric', (e) => { e.$comment = []; }),
    pk('$comment', 'a number', false, (p) => { p.$comment = 5; }),
    ex('$comment', 'a list holding a number', false, 'numeric', (e) => { e.parts[0].$comment = [c, 2]; }),
    ex('$comment', 'an object', false, 'numeric', (e) => { e.params.$comment = { note: c }; }),
  ];
}
const WIDGET_KIND_PLACEHOLDER = '<first widget kind>';

// From the engine's own input tables, so renamed inputs do not leave stale probes.
function widgetProbes(tables) {
  const kinds = Object.keys(tables);
  const kind = kinds.find((k) => tables[k].inputs.some((i) => !i.options) && tables[k].inputs.some((i) => i.options)) || kinds[0];
  const num = tables[kind].inputs.find((i) => !i.options && i.integer && i.max - i.min >= 2);
  const anyNum = num || tables[kind].inputs.find((i) => !i.options);
  const choice = tables[kind].inputs.find((i) => i.options);
  const w = (widget) => (e) => { e.widget = widget; };
  const probes = [
    ex('widget', `${kind}, defaults`, true, 'numeric', w({ kind })),
    ex('widget', 'kind missing', false, 'numeric', w({})),
    ex('widget', 'unknown kind', false, 'numeric', w({ kind: 'no-such-widget' })),
    ex('widget', 'a string', false, 'numeric', w(kind)),
    ex('widget', 'unknown input', false, 'numeric', w({ kind, no_such_input: 1 })),
    ...['always', 'after-attempt', 'after-solve'].map((r) => ex('widget', `reveal "${r}"`, true, 'numeric', w({ kind, reveal: r }))),
    ex('widget', 'reveal "never"', false, 'numeric', w({ kind, reveal: 'never' })),
    ex('widget', 'reveal true', false, 'numeric', w({ kind, reveal: true })),
  ];
  for (const k of kinds)
    probes.push(ex('widget', `${k}, every default given`, true, 'numeric', w(Object.fromEntries([['kind', k],
      ...tables[k].inputs.map((i) => [i.name, i.default])]))));
  if (anyNum) {
    const mid = anyNum.integer ? Math.ceil((anyNum.min + anyNum.max) / 2) : (anyNum.min + anyNum.max) / 2;
    probes.push(
      ex('widget', `${anyNum.name} ${mid}`, true, 'numeric', w({ kind, [anyNum.name]: mid })),
      ex('widget', `${anyNum.name} below min`, false, 'numeric', w({ kind, [anyNum.name]: anyNum.min - 1 })),
      ex('widget', `${anyNum.name} above max`, false, 'numeric', w({ kind, [anyNum.name]: anyNum.max + 1 })),
      // min/max keep the value in range at every corner of N, which lint checks.
      ex('widget', `${anyNum.name} " {expression} "`, true, 'numeric', w({ kind, [anyNum.name]: ` {min(max(N, ${anyNum.min}), ${anyNum.max})} ` })),
      ex('widget', `${anyNum.name} "M" without braces`, false, 'numeric', w({ kind, [anyNum.name]: 'M' })),
      ex('widget', `${anyNum.name} "{}"`, false, 'numeric', w({ kind, [anyNum.name]: '{}' })),
      ex('widget', `${anyNum.name} "{M"`, false, 'numeric', w({ kind, [anyNum.name]: '{M' })),
      ex('widget', `${anyNum.name} true`, false, 'numeric', w({ kind, [anyNum.name]: true })),
      ex('widget', `${anyNum.name} "{M+}"`, false, 'numeric', w({ kind, [anyNum.name]: '{M+}' }),
         { blind: 'the schema checks the braces around a widget expression, not the expression inside' }),
    );
  }
  if (num) probes.push(ex('widget', `${num.name} ${num.min + 0.5} (not whole)`, false, 'numeric', w({ kind, [num.name]: num.min + 0.5 })));
  if (choice) {
    probes.push(
      ex('widget', `${choice.name} "${choice.options.at(-1)}"`, true, 'numeric', w({ kind, [choice.name]: choice.options.at(-1) })),
      ex('widget', `${choice.name} unknown option`, false, 'numeric', w({ kind, [choice.name]: 'no-such-option' })),
      ex('widget', `${choice.name} an index`, false, 'numeric', w({ kind, [choice.name]: 0 })),
    );
  }
  return { kind, probes };
}

export function allProbes(tables) {
  const { kind, probes: widget } = widgetProbes(tables);
  const probes = [
    ...packProbes(), ...namesAndIds(), ...commonFieldProbes(), ...paramProbes(), ...unitProbes(),
    ...expressionProbes(), ...numericProbes(), ...choiceProbes(), ...orderingProbes(), ...buggyProbes(),
    ...codeProbes(), ...commentProbes(), ...widget,
  ];
  for (const p of probes) {
    if (p.pack) p.pack = JSON.parse(JSON.stringify(p.pack).replaceAll(JSON.stringify(WIDGET_KIND_PLACEHOLDER), JSON.stringify(kind)));
  }
  return probes.map(clone);
}
