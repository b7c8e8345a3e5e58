// Runs a student's JavaScript function against test cases for `dtx grade` and `dtx lint`.
// Reads a request (JSON, the engine's CodeRunRequest) from the file named on the command
// line and prints a CodeRunResult as JSON. The code runs in a fresh vm context: no require,
// no process, no fetch, no timers; a time limit covers the whole submission.
// (node's vm is not a security boundary; the CLI runs code its own user wrote or was sent.
// The browser runs student code in a Web Worker instead.)
'use strict';
const fs = require('fs');
const vm = require('vm');

const request = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const limitMs = request.time_limit_ms || 2000;
let deadline = Date.now() + limitMs;
const FILE = 'solution.js';

function lineOf(err) {
  const m = String((err && err.stack) || '').match(/solution\.js:(\d+)/);
  return m ? Number(m[1]) : 0;
}

function remaining() {
  return Math.max(1, deadline - Date.now());
}

class Timeout extends Error {}

function runProgram(source, fn, cases) {
  const context = vm.createContext(Object.create(null));
  // Let declarations and consts are not properties of the global object, so we look the
  // function up from inside the same script.
  const program = source + `\n;globalThis.__dtx_fn = (typeof ${fn} === 'function') ? ${fn} : undefined;`;
  let script;
  try {
    // Compile the student's text alone first so a syntax error points at their line, not
    // at the lookup we append.
    new vm.Script(source, { filename: FILE });
    script = new vm.Script(program, { filename: FILE });
  } catch (e) {
    return { kind: 'syntax', error: String(e.message), line: lineOf(e) };
  }
  try {
    script.runInContext(context, { timeout: remaining() });
  } catch (e) {
    if (e && e.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return { kind: 'timeout', error: 'time limit exceeded' };
    return { kind: 'runtime', error: String(e && e.message), line: lineOf(e) };
  }
  if (typeof context.__dtx_fn !== 'function') {
    return { kind: 'missing', error: `Define a function named ${fn}.` };
  }
  const outcomes = [];
  // Values cross the context boundary as JSON text so results are plain data.
  const call = new vm.Script(
    `(function () { const r = __dtx_fn(...JSON.parse(__dtx_args));
       if (typeof r === 'number' && !Number.isFinite(r)) return JSON.stringify(String(r));
       if (r === undefined) return 'null';
       return JSON.stringify(r); })()`, { filename: 'runner.js' });
  for (const args of cases) {
    context.__dtx_args = JSON.stringify(args);
    try {
      const text = call.runInContext(context, { timeout: remaining() });
      outcomes.push({ ok: true, value: JSON.parse(text) });
    } catch (e) {
      if (e && e.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return { kind: 'timeout', error: 'time limit exceeded', outcomes };
      const line = lineOf(e);
      outcomes.push({ ok: false, error: (e && e.message ? e.message : String(e)) + (line ? ` (line ${line})` : '') });
    }
  }
  return { kind: 'none', outcomes };
}

const result = {};
const student = runProgram(request.source, request.function, request.cases);
if (student.kind !== 'none') {
  result.kind = student.kind;
  result.error = student.error;
  if (student.line) result.line = student.line;
}
result.student = student.outcomes || [];
if (request.reference) {
  deadline = Date.now() + limitMs;  // the reference gets its own budget
  const ref = runProgram(request.reference, request.function, request.cases);
  result.reference = ref.outcomes || [];
}
process.stdout.write(JSON.stringify(result));
