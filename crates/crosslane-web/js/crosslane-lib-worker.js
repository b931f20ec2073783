// crosslane library worker: the worker form of the JavaScript library (`runKernel(source, launch,
// { worker: true })`, `sortNetwork(n, { worker: true })` in crosslane.js). One worker per call:
// it loads the module its call needs (the kernel engine for runKernel, the library's own module
// for sortNetwork: the same glue and .wasm files as crosslane.js), runs the one call under the
// worker's ceilings (the page's: crates/crosslane-web/src/api, `Surface::Worker`)
// and posts {value} or {error: {field, message}}; the caller terminates it afterwards, or at
// once when the call is cancelled, so a call cannot outlive its promise.
//
// scripts/build-web writes this file into dist/ with the placeholders replaced by the hashed
// names of the wasm-bindgen glue and modules. Importing a glue file instantiates nothing: only
// the module of the call is fetched and compiled.
import initEngine, { lib_run_kernel } from './__CROSSLANE_KERNEL_GLUE__';
import initLib, { lib_sort_network } from './__CROSSLANE_LIB_GLUE__';

/** The calls a worker runs, by the name crosslane.js posts: the module's init, where its .wasm
 *  is by default and which field of the message may name another place, and the call (its last
 *  argument says "worker"). */
const CALLS = {
  run_kernel: {
    init: initEngine, wasm: 'kernelWasm', at: './__CROSSLANE_KERNEL_WASM__',
    run: (source, launch) => lib_run_kernel(source, launch, true),
  },
  sort_network: {
    init: initLib, wasm: 'wasm', at: './__CROSSLANE_LIB_WASM__',
    run: (n, options) => lib_sort_network(n, options, true),
  },
};

self.onmessage = async (event) => {
  const { fn, args } = event.data ?? {};
  const call = Object.hasOwn(CALLS, fn) ? CALLS[fn] : null;
  if (!call || !Array.isArray(args)) {
    self.postMessage({ error: { field: 'worker', message: `no such call: ${String(fn).slice(0, 40)}` } });
    return;
  }
  try {
    const wasm = event.data[call.wasm];
    await call.init({ module_or_path: wasm ? new URL(wasm) : new URL(call.at, import.meta.url) });
  } catch (e) {
    self.postMessage({ error: { field: 'worker', message: `could not load the WebAssembly module: ${e?.message ?? e}` } });
    return;
  }
  try {
    self.postMessage({ value: call.run(...args) });
  } catch (e) {
    const error = e && typeof e === 'object' && typeof e.field === 'string'
      ? { field: e.field, message: String(e.message) }
      : { field: 'crosslane', message: `internal error in the WebAssembly module (a defect; please report it): ${e?.message ?? e}` };
    self.postMessage({ error });
  }
};
