// Packs at and past the parsers' limits, generated (never committed): shared by the browser
// tests (tests/e2e/run.mjs, which check the errors and that the course goes on working) and
// by `make bench` (scripts/bench-limits.mjs, which times them).

export function limitPack(chapter, exercisesJson) {
  return `{\n  "format": 1, "chapter": ${chapter}, "id": "limit-${chapter}", "title": "Limit ${chapter}",\n  "exercises": ${exercisesJson}\n}\n`;
}

export function numericWith(id, answer, extra = '') {
  return `[{"id": "${id}", "type": "numeric", "title": "T", "prompt": "p"${extra},\n   "parts": [{"id": "a", "answer": "${answer}", "unit": "GB"}]}]`;
}

// Five packs the page must refuse with a positioned error, by file name.
export function hostilePacks() {
  return {
    // 10 KB nested 5,000 deep: used to leave the page on "Loading dtx…" for good
    'deep.json': limitPack(60, '['.repeat(5000) + ']'.repeat(5000)),
    // 4 KB with 2,000 nested parentheses in an answer: the same
    'parens.json': limitPack(61, numericWith('l.parens', '('.repeat(2000) + '1' + ')'.repeat(2000))),
    // 11 MB: refused by its size alone
    'huge.json': limitPack(62, '[]') + ' '.repeat(11 * 1024 * 1024),
    // a 5 MB title froze the page for 90 s when the exercise was opened
    'title.json': limitPack(63, `[{"id": "l.title", "type": "numeric", "title": "${'T'.repeat(5 * 1024 * 1024)}", "prompt": "p",\n   "parts": [{"id": "a", "answer": "1", "unit": "GB"}]}]`),
    'bad.json': limitPack(64, '[1, 2,]'),
  };
}

// The longest texts a pack may hold: a 200-character title and a 64 KB prompt (exercise l.long).
export function longPromptPack() {
  const title = 'Long title '.repeat(20).slice(0, 200);
  const prompt = ('A paragraph of prose with **bold**, `code` and {N} GPUs. '.repeat(12) + '\\n\\n').repeat(90).slice(0, 64000);
  return limitPack(65, `[{"id": "l.long", "type": "numeric", "title": "${title}", "prompt": "${prompt}",
   "params": {"N": {"default": 8}}, "parts": [{"id": "a", "answer": "N", "unit": "GB"}]}]`);
}
