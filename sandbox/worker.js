// The page's code worker: runs CodeRunRequests in the QuickJS sandbox (sandbox-core.js) off
// the main thread, so the page stays responsive. Bundled by scripts/build-sandbox.mjs into
// dist/sandbox-worker.js; loads dist/quickjs.wasm once and serves requests until the page
// terminates it (web/shell/code-runner.js does that on a hard time-out, which no code in the
// sandbox can delay: the worker's own event loop is busy, the page's is not).
//
// Messages: {ready} or {startError} once; then {id, request} in, {id, result[, broken]} out.
'use strict';
import { newQuickJSWASMModuleFromVariant, newVariant } from 'quickjs-emscripten-core';
import baseVariant from '@jitl/quickjs-wasmfile-release-sync';
import { runRequest, createProvider } from './sandbox-core.js';

const provider = (async () => {
  const url = new URL('quickjs.wasm', self.location.href);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`quickjs.wasm: HTTP ${response.status}`);
  const wasmModule = await WebAssembly.compile(await response.arrayBuffer());
  const p = createProvider({ wasmModule, newQuickJSWASMModuleFromVariant, newVariant, baseVariant });
  await p.get();
  return p;
})();
// The page starts its time limits only once the interpreter is loaded.
provider.then(() => self.postMessage({ ready: true }), (e) => self.postMessage({ startError: 'the code sandbox could not load: ' + String(e && e.message) }));

self.onmessage = async (event) => {
  const { id, request } = event.data || {};
  let result;
  try {
    result = await runRequest(await provider, request || {});
  } catch (e) {
    result = { kind: 'runtime', error: 'the code runner failed: ' + String(e && e.message).slice(0, 200), student: [] };
    self.postMessage({ id, result, broken: true });
    return;
  }
  self.postMessage({ id, result });
};
