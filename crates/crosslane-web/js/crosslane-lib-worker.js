// crosslane library worker: the worker form of the JavaScript library (`runKernel(source, launch,
// { worker: true })`, `sortNetwork(n, { worker: true })` in crosslane.js). One worker per call:
// it loads the library's own wasm module (the same glue and .wasm as crosslane.js), runs the one
// call under the worker's ceilings (the page's: crates/crosslane-web/src/api, `Surface::Worker`)
// and posts {value} or {error: {field, message}}; the caller terminates it afterwards, or at
// once when the call is cancelled, so a call cannot outlive its promise.
//
// scripts/build-web writes this file into dist/ with the placeholders replaced by the hashed
// names of the wasm-bindgen glue and module.
import initWasm, { lib_run_kernel, lib_sort_network } from './__CROSSLANE_GLUE__';

/** The calls a worker runs, by the name crosslane.js posts; the last argument says "worker". */
const CALLS = {
  run_kernel: (source, launch) => lib_run_kernel(source, launch, true),
  sort_network: (n, options) => lib_sort_network(n, options, true),
};

self.onmessage = async (event) => {
  const { fn, args, wasm } = event.data ?? {};
  const run = Object.hasOwn(CALLS, fn) ? CALLS[fn] : null;
  if (!run || !Array.isArray(args)) {
    self.postMessage({ error: { field: 'worker', message: `no such call: ${String(fn).slice(0, 40)}` } });
    return;
  }
  try {
    await initWasm({ module_or_path: wasm ? new URL(wasm) : new URL('./__CROSSLANE_WASM__', import.meta.url) });
  } catch (e) {
    self.postMessage({ error: { field: 'worker', message: `could not load the WebAssembly module: ${e?.message ?? e}` } });
    return;
  }
  try {
    self.postMessage({ value: run(...args) });
  } catch (e) {
    const error = e && typeof e === 'object' && typeof e.field === 'string'
      ? { field: e.field, message: String(e.message) }
      : { field: 'crosslane', message: `internal error in the WebAssembly module (a defect; please report it): ${e?.message ?? e}` };
    self.postMessage({ error });
  }
};
